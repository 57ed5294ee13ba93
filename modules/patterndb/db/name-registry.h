/*
 * name-registry.h: the names and tags a database mentions, each once, in
 * the order syslog-ng 3.38 meets them while it loads the files. The loader
 * fills it (when PdbLoadOptions.record_names is set) at the moments 3.38
 * registers a name with its message store:
 *
 *   <rule>            the class tag; the context-id template's names
 *   <tag>             the tag (of the rule or of an action's message)
 *   <action>          its condition's names and tags
 *   <create-context>  its context-id template's names
 *   <value>           the names its template reads ($name, ${name})
 *   </ruleset>        the capture names of its rules' patterns, rule by rule
 *   end of loading    the capture names of every program pattern
 *
 * Names and tags are two separate sequences. A consumer (the tool's message
 * store) numbers them in this order, which is the order `match` and `test`
 * print values in, as pdbtool does.
 *
 * Every add function does nothing when @registry is NULL (a database
 * loaded without record_names), so the loader calls them unconditionally.
 *
 * Ownership: the registry copies every string it keeps; it belongs to the
 * database and lives as long as it.
 */
#ifndef PDB_DB_NAME_REGISTRY_H
#define PDB_DB_NAME_REGISTRY_H

#include <glib.h>

G_BEGIN_DECLS

struct _PdbFilterExpr;
typedef struct _PdbNameRegistry PdbNameRegistry;

PdbNameRegistry *pdb_name_registry_new(void);
void pdb_name_registry_free(PdbNameRegistry *registry);

/* Adds @length bytes of @name (-1: up to its NUL) unless already there. */
void pdb_name_registry_add_name(PdbNameRegistry *registry, const gchar *name, gssize length);
void pdb_name_registry_add_tag(PdbNameRegistry *registry, const gchar *tag);
/* The capture names of a pattern, in order: @TYPE:name[:param]@ ("@@" is a
 * literal '@'); a reference without a closing '@' ends the scan. */
void pdb_name_registry_add_pattern(PdbNameRegistry *registry, const gchar *pattern);
/* The names a template refers to: $name and ${name} (up to a ":-" default),
 * anywhere in the text, function arguments included. */
void pdb_name_registry_add_template(PdbNameRegistry *registry, const gchar *text);
/* The names (and the names read by templates) and the tags a filter
 * expression refers to, in the order it was written. */
void pdb_name_registry_add_filter(PdbNameRegistry *registry, const struct _PdbFilterExpr *filter);

/*
 * Names from a second thread (insert-worker.h): @part (owned from now on)
 * stands in the name sequence here; it may still be filled (by one other
 * thread, through @part only) until pdb_name_registry_settle(), and the
 * names added to @registry after this call wait behind it. Settling,
 * once every part is complete, puts the waiting names in their order.
 * Tags do not wait (a part holds names only).
 */
void pdb_name_registry_add_part(PdbNameRegistry *registry, PdbNameRegistry *part);
void pdb_name_registry_settle(PdbNameRegistry *registry);

/* The sequences (of const gchar*), in first-met order (names: settled). */
const GPtrArray *pdb_name_registry_get_names(const PdbNameRegistry *registry);
const GPtrArray *pdb_name_registry_get_tags(const PdbNameRegistry *registry);

G_END_DECLS

#endif
