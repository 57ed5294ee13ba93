/*
 * fuzz-syslog-line.c: libFuzzer harness for the syslog line parser used by
 * `patterndb match -f`.
 *
 * Every input is one line. Invariant checked: every slice the parser sets
 * lies inside the line, the error position (if any) is within [0, length],
 * walking the structured data of an accepted RFC 5424 line never reads
 * outside it, and the short path (pdb_syslog_line_program_message()),
 * where it answers, gives the parser's PROGRAM and MESSAGE.
 */
#include "tool/syslog-line.h"

#include <stdint.h>
#include <string.h>
#include <stdlib.h>

static void
fuzz_check_slice(const gchar *line, gsize length, PdbSlice slice)
{
  if (!slice.data)
    return;
  if (slice.data < line || slice.data + slice.length > line + length)
    abort();
}

static void
fuzz_sd_param(const gchar *name, gsize name_length, const gchar *value, gsize value_length,
              gpointer user_data)
{
  gsize *total = user_data;
  /* Touch every byte so ASan sees any out-of-bounds slice. */
  for (gsize i = 0; i < name_length; i++)
    *total += (guchar) name[i];
  for (gsize i = 0; i < value_length; i++)
    *total += (guchar) value[i];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  /* An exact-size copy, so reading one byte past the end is an ASan error. */
  gchar *line = g_malloc(size ? size : 1);
  memcpy(line, data, size);

  PdbSyslogLine out;
  pdb_syslog_line_parse(line, size, &out);
  const PdbSlice slices[] = {
    out.host, out.program, out.pid, out.msgid, out.legacy_msghdr,
    out.message, out.sdata, out.sequence_id,
  };
  for (gsize i = 0; i < G_N_ELEMENTS(slices); i++)
    fuzz_check_slice(line, size, slices[i]);
  if (out.parse_error && out.error_position > (gssize) size)
    abort();

  /* The short path of bulk classification answers as the full parser. */
  PdbSlice program, message;
  if (pdb_syslog_line_program_message(line, size, &program, &message)
      && (out.parse_error || program.data != out.program.data || program.length != out.program.length
          || message.data != out.message.data || message.length != out.message.length))
    abort();

  if (!out.parse_error && out.sdata.data)
    {
      GString *name = g_string_new(NULL);
      GString *value = g_string_new(NULL);
      gsize total = 0;
      pdb_syslog_line_foreach_sd_param(out.sdata, name, value, fuzz_sd_param, &total);
      g_string_free(name, TRUE);
      g_string_free(value, TRUE);
    }
  g_free(line);
  return 0;
}
