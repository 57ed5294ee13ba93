/*
 * pri-macros.c: the priority macros of pri-macros.h, with syslog-ng's
 * facility and severity names. A facility without a name prints its number.
 */
#include "tool/pri-macros.h"

#include <string.h>

static const gchar *const facility_names[] =
{
  "kern", "user", "mail", "daemon", "auth", "syslog", "lpr", "news", "uucp", "cron", "authpriv",
  "ftp", "ntp", "security", "console", "solaris-cron",
  "local0", "local1", "local2", "local3", "local4", "local5", "local6", "local7",
};

static const gchar *const severity_names[] =
{
  "emerg", "alert", "crit", "err", "warning", "notice", "info", "debug",
};

gboolean
pdb_tool_pri_macro_append(const gchar *name, gint pri, GString *out)
{
  gint facility = pri >> 3, severity = pri & 7;

  if (strcmp(name, "PRI") == 0)
    g_string_append_printf(out, "%d", pri);
  else if (strcmp(name, "FACILITY") == 0)
    {
      if (facility >= 0 && facility < (gint) G_N_ELEMENTS(facility_names))
        g_string_append(out, facility_names[facility]);
      else
        g_string_append_printf(out, "%d", facility);
    }
  else if (strcmp(name, "FACILITY_NUM") == 0)
    g_string_append_printf(out, "%d", facility);
  else if (strcmp(name, "SEVERITY") == 0 || strcmp(name, "LEVEL") == 0 || strcmp(name, "PRIORITY") == 0)
    g_string_append(out, severity_names[severity]);
  else if (strcmp(name, "SEVERITY_NUM") == 0 || strcmp(name, "LEVEL_NUM") == 0)
    g_string_append_printf(out, "%d", severity);
  else if (strcmp(name, "TAG") == 0)
    g_string_append_printf(out, "%02x", pri);
  else if (strcmp(name, "BSDTAG") == 0)
    g_string_append_printf(out, "%d%c", severity, 'A' + facility);
  else
    return FALSE;
  return TRUE;
}
