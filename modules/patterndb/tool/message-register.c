/*
 * message-register.c: gives a message store the names and tags of a
 * database before the first message, in the order the loader met them
 * (db/name-registry.h), which is the order `match` prints them in, as
 * pdbtool does; and those of a --filter expression, which 3.38 compiles
 * before it loads the database. Uses only message.h and the registry.
 */
#include "tool/message.h"
#include "db/database.h"
#include "db/name-registry.h"

static void
register_registry(PdbToolMessage *msg, const PdbNameRegistry *registry)
{
  const GPtrArray *tags = pdb_name_registry_get_tags(registry);
  const GPtrArray *names = pdb_name_registry_get_names(registry);

  for (guint i = 0; i < tags->len; i++)
    pdb_tool_message_register_tag(msg, g_ptr_array_index(tags, i));
  for (guint i = 0; i < names->len; i++)
    pdb_tool_message_register_name(msg, g_ptr_array_index(names, i), -1);
}

void
pdb_tool_message_register_filter(PdbToolMessage *msg, const struct _PdbFilterExpr *filter)
{
  PdbNameRegistry *registry = pdb_name_registry_new();

  pdb_name_registry_add_filter(registry, filter);
  register_registry(msg, registry);
  pdb_name_registry_free(registry);
}

void
pdb_tool_message_register_database(PdbToolMessage *msg, const PdbDatabase *db)
{
  const PdbNameRegistry *registry = pdb_database_get_name_registry(db);

  /* a database loaded without record_names (not through the tool's loader)
   * has none: values are then numbered as the messages set them */
  if (registry)
    register_registry(msg, registry);
}
