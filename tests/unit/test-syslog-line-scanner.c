/*
 * test-syslog-line-scanner.c: the fast syslog header scanner
 * (modules/patterndb/tool/syslog-line.c) against the implementation it
 * replaced (tests/unit/syslog-line-ref.c), field by field, on RFC 3164
 * headers: the RFC 5424 part was not rewritten and is checked against
 * pdbtool instead (test-tool-syslog-line.c, and every truncation of the
 * rows below in tests/differential/test-syslog-lines.sh).
 *
 * test-tool-syslog-line.c ties the parser to pdbtool 3.38 row by row; this
 * file checks that the rewrite changed nothing: a table of tricky headers
 * (month case, IPv6-looking hosts, truncated dates, RFC 5424 edge cases),
 * every prefix of every row (each truncation point of a header), and
 * 200,000 lines assembled at random from header fragments with a fixed
 * seed. Fields are compared as (offset, length) into the line, so "unset"
 * (-1) and "set but empty" (offset, 0) are told apart.
 */
#include "tool/syslog-line.h"

#include <criterion/criterion.h>
#include <string.h>

gboolean pdb_syslog_line_parse_ref(const gchar *line, gsize length, PdbSyslogLine *out);

static const char *const tricky[] =
{
  "Dec  3 10:00:00 host1 sshd[123]: msg",
  "<13>Dec  3 10:00:00 host1 sshd[123]: msg",
  "<>Dec  3 10:00:00 host1 sshd[123]: msg",
  "<13 Dec  3 10:00:00 host1 sshd[123]: msg",
  "DEC  3 10:00:00 host1 sshd[123]: msg",
  "dEc  3 10:00:00 host1 sshd[123]: msg",
  "dec  3 10:00:00 host1 sshd[123]: msg",
  "Dec  3 10:00:00 host1 sshd[123]: msg",
  "J\x01n  3 10:00:00 host1 sshd: msg",
  "Ja\x0e  3 10:00:00 host1 sshd: msg",
  "J@N  3 10:00:00 host1 sshd: msg",
  "Jan  1 00:00:00 h p: m", "Feb 28 23:59:59 h p: m", "Mar  1 00:00:00 h p: m",
  "Apr 10 00:00:00 h p: m", "May  5 00:00:00 h p: m", "Jun  6 00:00:00 h p: m",
  "Jul  7 00:00:00 h p: m", "Aug  8 00:00:00 h p: m", "Sep  9 00:00:00 h p: m",
  "Oct 10 00:00:00 h p: m", "Nov 11 00:00:00 h p: m", "Xyz 11 00:00:00 h p: m",
  "Dec 3 10:00:00 host1 sshd[123]: msg",
  "Dec 03 10:00:00 host1 sshd[123]: msg",
  "Dec  3 2026 10:00:00 host1 sshd[123]: msg",
  "Dec  3 2026 10:00:00:host1 sshd[123]: msg",
  "Dec  3 2026 10:00:00x host1 sshd[123]: msg",
  "Dec  3 10:00:00 2026 host1 sshd[123]: msg",
  "Dec  3 10:00:00 2026: host1 sshd[123]: msg",
  "Dec  3 10:00:00.123 host1 sshd[123]: msg",
  "Dec  3 10:00:00. host1 sshd[123]: msg",
  "Dec  3 10:00:00: host1 sshd[123]: msg",
  "Dec  3 10:0:00 host1 sshd[123]: msg",
  "Dec  3 10:00:00",
  "Dec  3 10:00:0",
  "Dec  3 10:00:00 ",
  "Dec  3 10:00:00 sshd[123]: msg",
  "Dec  3 10:00:00 sshd: msg",
  "Dec  3 10:00:00 host1 sshd msg",
  "Dec  3 10:00:00 host1 : msg",
  "Dec  3 10:00:00 host1 [123]: msg",
  "Dec  3 10:00:00 host1 sshd[]: msg",
  "Dec  3 10:00:00 host1 sshd[12 3]: msg",
  "Dec  3 10:00:00 host1 sshd[123: msg",
  "Dec  3 10:00:00 host1 sshd[123",
  "Dec  3 10:00:00 fe80::1 sshd[1]: msg",
  "Dec  3 10:00:00 fe80::1:2:3:4:5 sshd[1]: msg",
  "Dec  3 10:00:00 dead: x",
  "Dec  3 10:00:00 deadbeef: x",
  "Dec  3 10:00:00 dead:beef:12345 x",
  "Dec  3 10:00:00 dead:zz:beef x",
  "Dec  3 10:00:00 beef1: x",
  "Dec  3 10:00:00 beef: x",
  "Dec  3 10:00:00 dead:beef1:x y",
  "Dec  3 10:00:00 dead:beef:x y",
  "Dec  3 10:00:00 ::: x",
  "Dec  3 10:00:00 abc[1] x",
  "Dec  3 10:00:00 abc:[1] x",
  "Dec  3 10:00:00    host1    sshd: msg",
  "Dec  3 10:00:00 host1",
  "Dec  3 10:00:00 host1 ",
  "123: Dec  3 10:00:00 host1 sshd: msg",
  ": Dec  3 10:00:00 host1 sshd: msg",
  "123:Dec  3 10:00:00 host1 sshd: msg",
  "*Dec  3 10:00:00 host1 sshd: msg",
  ".Dec  3 10:00:00 host1 sshd: msg",
  "12: *Dec  3 10:00:00 host1 sshd: msg",
  "  Dec  3 10:00:00 host1 sshd: msg",
  "2026-12-03T10:00:00Z host1 sshd[123]: msg",
  "2026-12-03T10:00:00.123456+01:00 host1 sshd[123]: msg",
  "2026-12-03T10:00:00+0100 host1 sshd[123]: msg",
  "2026-12-03T10:00:00+01:001 host1 sshd[123]: msg",
  "2026-12-03 10:00:00 host1 sshd[123]: msg",
  "2026-12-03x10:00:00 host1 sshd[123]: msg",
  "<13>1 2026-12-03T10:00:00Z host2 app 77 ID47 - msg",
  "<13>1 - - - - - - msg",
  "<13>1 - - - - - -",
  "<13>1 -",
  "<13>1 ",
  "<13>1 2026-12-03T10:00:00Z host2 app 77 ID47 -msg",
  "<13>1 2026-12-03T10:00:00Z host2 app 77 ID47 [a b=\"c\"][d@1 e=\"f\\\"g\"] msg",
  "<13>1 2026-12-03T10:00:00Z host2 app 77 ID47 [a b=\"c\"]msg",
  "<13>1 2026-12-03T10:00:00Z host2 app 77 ID47 [a] \xef\xbb\xbfmsg",
  "<13>1 2026-12-03T10:00:00Z host2 app 77 ID47 [a b=\"c]",
  "<13>1 2026-12-03T10:00:00Z host2 app 77 ID47 [ b=\"c\"]",
  "<13>1 2026-12-03T10:00:00Z host2 app 77 ID47 BOMmsg",
  "<13>1 2026-12-03 10:00:00Z host2 app 77 ID47 - msg",
  "1 2026-12-03T10:00:00Z host2 app 77 ID47 - msg",
  "<13>2 2026-12-03T10:00:00Z host2 app 77 ID47 - msg",
  "<13>1 2026-12-03T10:00:00Z h a 1 m  x",
  "<13>1 2026-12-03T10:00:00Z h a 1 m   x",
  "<13>1 2026-12-03T10:00:00Z h a 1 m [a][b][",
  "<13>1 2026-12-03T10:00:00Z h a 1 m [a b=\"c\"][[",
  "<13>1 2026-12-03T10:00:00Z h a 1 m - [",
  "<13>1 2026-12-03T10:00:00Z h a 1 m [a b=\"x\\\"]y\"] m",
  "<13>1 2026-12-03T10:00:00Z h a 1 m [a b=\"x] y\"] m",
  "<13>1 2026-12-03T10:00:00Z h a 1 m [a b=\"x\\y\" b=\"z\"][a][a.b c=\"d\"][e.f.g h.i=\"j\"] m",
  "<13>1 2026-12-03T10:00:00Z h a 1 m [a b=\"1\"][c d=\"2\"][a b=\"3\"][a e=\"4\"][c] m",
  "<13>1 2026-12-03T10:00:00Z h a 1 m [a b=\"\\\\\\]\\\"\"] m",
  "<13>1 2026-12-03 10:00:00.123+01:00 h a 1 m - x",
  "12: .Dec  3 10:00:00 h a: x",
  "",
  "x",
  "<",
  "<1",
  "<1>",
  "sshd: msg",
  "sshd[1]: msg",
  "[1]: msg",
  ":",
  "Dec  3 10:00:00 host1 sshd[1]:\tmsg",
};

static void
expect_slice(const char *what, const char *row, const char *line, PdbSlice got, PdbSlice want)
{
  gssize got_off = got.data ? got.data - line : -1;
  gssize want_off = want.data ? want.data - line : -1;

  cr_expect(got_off == want_off && (!got.data || got.length == want.length),
            "%s of '%s': offset %zd length %zu, the reference has offset %zd length %zu",
            what, row, got_off, got.length, want_off, want.length);
}

/* Parses @line (@length bytes) with both and compares every field. */
static void
expect_same(const char *line, gsize length)
{
  PdbSyslogLine got, want;
  gchar *copy = g_strndup(line, length);
  gchar *shown = g_strescape(copy, NULL);
  /* a private copy of exactly @length bytes: ASan sees any read past the end */
  gchar *exact = g_malloc(length ? length : 1);

  memcpy(exact, line, length);
  g_free(copy);

  /* parsed in any case, so ASan checks the RFC 5424 path too */
  pdb_syslog_line_parse(exact, length, &got);
  if (!pdb_syslog_line_parse_ref(exact, length, &want))
    {
      cr_expect(got.rfc5424 || got.parse_error, "'%s' is an RFC 5424 line or refused", shown);
      g_free(exact);
      g_free(shown);
      return;
    }
  cr_expect(got.parse_error == want.parse_error, "parse_error of '%s': %d, the reference %d",
            shown, got.parse_error, want.parse_error);
  cr_expect(got.error_position == want.error_position, "error_position of '%s': %zd, the reference %zd",
            shown, got.error_position, want.error_position);
  cr_expect(got.pri == want.pri, "pri of '%s': %d, the reference %d", shown, got.pri, want.pri);
  cr_expect(got.rfc5424 == want.rfc5424, "rfc5424 of '%s'", shown);
  cr_expect(got.time_quality == want.time_quality, "time_quality of '%s': %d, the reference %d",
            shown, got.time_quality, want.time_quality);
  expect_slice("host", shown, exact, got.host, want.host);
  expect_slice("program", shown, exact, got.program, want.program);
  expect_slice("pid", shown, exact, got.pid, want.pid);
  expect_slice("msgid", shown, exact, got.msgid, want.msgid);
  expect_slice("legacy_msghdr", shown, exact, got.legacy_msghdr, want.legacy_msghdr);
  expect_slice("message", shown, exact, got.message, want.message);
  expect_slice("sdata", shown, exact, got.sdata, want.sdata);
  expect_slice("sequence_id", shown, exact, got.sequence_id, want.sequence_id);

  /* the short path of bulk classification, where it answers, answers the same */
  PdbSlice program, message;
  if (pdb_syslog_line_program_message(exact, length, &program, &message))
    {
      cr_expect(!want.parse_error, "'%s': the short path took a line the parser rejects", shown);
      expect_slice("program (short path)", shown, exact, program, want.program);
      expect_slice("message (short path)", shown, exact, message, want.message);
    }
  g_free(exact);
  g_free(shown);
}

Test(syslog_line_scanner, tricky_headers_as_before)
{
  for (gsize i = 0; i < G_N_ELEMENTS(tricky); i++)
    expect_same(tricky[i], strlen(tricky[i]));
}

Test(syslog_line_scanner, every_truncation_as_before)
{
  for (gsize i = 0; i < G_N_ELEMENTS(tricky); i++)
    for (gsize n = 0; n <= strlen(tricky[i]); n++)
      expect_same(tricky[i], n);
}

Test(syslog_line_scanner, the_reference_is_not_trivial)
{
  /* the comparison means something only if the fields are really set */
  PdbSyslogLine l;
  const char *line = "<13>Dec  3 10:00:00 fe80::1 sshd[123]: msg";

  pdb_syslog_line_parse(line, strlen(line), &l);
  cr_assert_eq(l.host.length, 7);
  cr_assert(memcmp(l.host.data, "fe80::1", 7) == 0);
  cr_assert_eq(l.pid.length, 3);
  cr_assert_str_eq(l.message.data, "msg");
}

/* The month check (a hash into 16 slots): every month in any case of its
 * last two letters, and every one-byte change of each of its three bytes. */
Test(syslog_line_scanner, every_month_and_its_neighbours_as_before)
{
  static const char *const months[] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug",
                                        "Sep", "Oct", "Nov", "Dec" };
  gchar line[] = "Mmm  3 10:00:00 host1 sshd[1]: msg";

  for (gsize m = 0; m < G_N_ELEMENTS(months); m++)
    for (guint position = 0; position < 3; position++)
      for (guint byte = 0; byte < 256; byte++)
        {
          memcpy(line, months[m], 3);
          line[position] = (gchar) byte;
          expect_same(line, sizeof(line) - 1);
        }
}

Test(syslog_line_scanner, the_short_path_is_taken)
{
  const char *line = "Dec  3 10:00:00 host1 sshd[123]: msg";
  PdbSlice program, message;

  cr_assert(pdb_syslog_line_program_message(line, strlen(line), &program, &message));
  cr_assert(program.length == 4 && memcmp(program.data, "sshd", 4) == 0);
  cr_assert_str_eq(message.data, "msg");
  cr_assert_not(pdb_syslog_line_program_message("<13>Dec  3 10:00:00 h p: m", 26, &program, &message));
}

/* Random lines from fragments that sit near the decisions of the parser. */
Test(syslog_line_scanner, random_lines_as_before)
{
  static const char *const pieces[] =
  {
    "<13>", "<", ">", "<999>", "1 ", "2 ", "-", " ", "  ", "Jan", "jAN", "Dec", "DEC", "Sep", "Xyz",
    " 3", "03", " 3 ", "12 ", "10:00:00", "10:0:00", "2026", "2026-12-03", "T", "Z", "+01:00",
    ".123", ":", "::", "[", "]", "[1]", "\"", "=", "a=\"b\"", "\\", "host1", "fe80", "dead",
    "beef1", "sshd", "12345", "*", ".", "\t", "\xef\xbb\xbf", "msg", "x y", "@", "ID47",
  };
  GRand *rand = g_rand_new_with_seed(20261203);
  GString *line = g_string_new(NULL);

  for (guint i = 0; i < 200000; i++)
    {
      guint n = g_rand_int_range(rand, 0, 14);

      g_string_truncate(line, 0);
      for (guint k = 0; k < n; k++)
        g_string_append(line, pieces[g_rand_int_range(rand, 0, G_N_ELEMENTS(pieces))]);
      expect_same(line->str, line->len);
    }
  g_string_free(line, TRUE);
  g_rand_free(rand);
}

/* Well-formed headers with random fields: the common case, many shapes. */
Test(syslog_line_scanner, random_headers_as_before)
{
  static const char *const months[] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug",
                                        "Sep", "Oct", "Nov", "Dec", "jan", "JUN", "Foo" };
  static const char *const hosts[] = { "host1", "fe80::1", "dead", "a:b", "10.0.0.1", "h[1]", "",
                                       "beef1:", "beef:", "abc:1234:x", "abc:12345:x", "::1:" };
  static const char *const programs[] = { "sshd", "sshd[12]", "sshd[12", "a/b:", "[1]", "", "x y" };
  GRand *rand = g_rand_new_with_seed(3);
  GString *line = g_string_new(NULL);

  for (guint i = 0; i < 100000; i++)
    {
      g_string_truncate(line, 0);
      if (g_rand_boolean(rand))
        g_string_append_printf(line, "<%d>", g_rand_int_range(rand, 0, 200));
      g_string_append_printf(line, "%s %2d %02d:%02d:%02d%s %s %s%s msg",
                             months[g_rand_int_range(rand, 0, G_N_ELEMENTS(months))],
                             g_rand_int_range(rand, 0, 40), g_rand_int_range(rand, 0, 99),
                             g_rand_int_range(rand, 0, 99), g_rand_int_range(rand, 0, 99),
                             g_rand_boolean(rand) ? "" : ".5",
                             hosts[g_rand_int_range(rand, 0, G_N_ELEMENTS(hosts))],
                             programs[g_rand_int_range(rand, 0, G_N_ELEMENTS(programs))],
                             g_rand_boolean(rand) ? ":" : "");
      expect_same(line->str, g_rand_int_range(rand, 0, line->len + 1));
    }
  g_string_free(line, TRUE);
  g_rand_free(rand);
}
