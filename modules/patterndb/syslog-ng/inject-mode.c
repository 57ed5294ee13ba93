/*
 * inject-mode.c: parsing inject-mode() and sending generated messages.
 */
#include "inject-mode.h"

#include "messages.h"

#include <string.h>

gboolean
pdb_sng_inject_mode_parse(const gchar *text, PdbSngInjectMode *mode)
{
  static const struct { const gchar *name; PdbSngInjectMode mode; } names[] =
  {
    { "pass-through", PDB_SNG_INJECT_PASS_THROUGH },
    { "internal", PDB_SNG_INJECT_INTERNAL },
    { "aggregate-only", PDB_SNG_INJECT_AGGREGATE_ONLY },
  };
  gchar *norm = g_strdup(text);
  gboolean found = FALSE;

  g_strdelimit(norm, "_", '-');
  for (guint i = 0; !found && i < G_N_ELEMENTS(names); i++)
    if (strcmp(norm, names[i].name) == 0)
      {
        *mode = names[i].mode;
        found = TRUE;
      }
  g_free(norm);
  return found;
}

void
pdb_sng_inject(LogPipe *parser, PdbSngInjectMode mode, LogMessage *msg)
{
  if (mode == PDB_SNG_INJECT_INTERNAL)
    msg_post_message(log_msg_ref(msg));
  else
    {
      LogPathOptions path_options = LOG_PATH_OPTIONS_INIT;

      path_options.ack_needed = FALSE;
      log_pipe_forward_msg(parser, log_msg_ref(msg), &path_options);
    }
}
