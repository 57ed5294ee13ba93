/* pcre-baseline: the "one regular expression per rule" classifier that the
 * benchmark compares patterndb against (contrib/bench, built only for
 * `make bench`).
 *
 * It reads a rule file of lines "program TAB rule-id TAB regex" (written by
 * benchgen.py), compiles every regex with PCRE2 and its JIT, and groups the
 * rules by program in a hash table. For each input line (RFC 3164 syslog
 * without <PRI>: "Mmm dd hh:mm:ss host program[pid]: message") it finds the
 * program, tries that program's regexes in file order on the message and
 * prints the id of the first that matches, or an empty line: the same output
 * as `pdbtool match -T '${.classifier.rule_id}\n'`.
 *
 * Invariant: one output line per input line; the match data is allocated
 * once and reused, so the per-message cost is header parsing plus the regex
 * attempts, nothing else.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct
{
  char *id;
  pcre2_code *code;
} BenchRule;

typedef struct
{
  GArray *rules; /* of BenchRule */
} BenchProgram;

static void
bench_program_free(gpointer p)
{
  BenchProgram *prog = p;
  for (guint i = 0; i < prog->rules->len; i++)
    {
      BenchRule *r = &g_array_index(prog->rules, BenchRule, i);
      g_free(r->id);
      pcre2_code_free(r->code);
    }
  g_array_free(prog->rules, TRUE);
  g_free(prog);
}

static GHashTable *
bench_load_rules(const char *path, guint *count)
{
  FILE *f = fopen(path, "r");
  if (!f)
    {
      perror(path);
      exit(2);
    }
  GHashTable *progs = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, bench_program_free);
  char *line = NULL;
  size_t cap = 0;
  ssize_t len;
  guint lineno = 0;
  *count = 0;
  while ((len = getline(&line, &cap, f)) > 0)
    {
      lineno++;
      if (line[len - 1] == '\n')
        line[--len] = '\0';
      char *tab1 = strchr(line, '\t');
      char *tab2 = tab1 ? strchr(tab1 + 1, '\t') : NULL;
      if (!tab2)
        {
          fprintf(stderr, "%s:%u:1: expected program TAB rule-id TAB regex\n", path, lineno);
          exit(2);
        }
      *tab1 = '\0';
      *tab2 = '\0';
      int err;
      PCRE2_SIZE erroff;
      pcre2_code *code = pcre2_compile((PCRE2_SPTR) (tab2 + 1), PCRE2_ZERO_TERMINATED, 0, &err, &erroff, NULL);
      if (!code)
        {
          PCRE2_UCHAR msg[256];
          pcre2_get_error_message(err, msg, sizeof(msg));
          fprintf(stderr, "%s:%u:%zu: regex: %s\n", path, lineno, (size_t) (tab2 + 1 - line) + erroff + 1, msg);
          exit(2);
        }
      pcre2_jit_compile(code, PCRE2_JIT_COMPLETE);
      BenchProgram *prog = g_hash_table_lookup(progs, line);
      if (!prog)
        {
          prog = g_new0(BenchProgram, 1);
          prog->rules = g_array_new(FALSE, FALSE, sizeof(BenchRule));
          g_hash_table_insert(progs, g_strdup(line), prog);
        }
      BenchRule r = { g_strdup(tab1 + 1), code };
      g_array_append_val(prog->rules, r);
      (*count)++;
    }
  free(line);
  fclose(f);
  return progs;
}

/* Splits "Mmm dd hh:mm:ss host prog[pid]: msg" into program and message. */
static gboolean
bench_split_header(char *line, size_t len, char **prog, char **msg, size_t *msg_len)
{
  if (len < 16 || line[15] != ' ')
    return FALSE;
  char *end = line + len;
  char *host = line + 16;
  char *sp = memchr(host, ' ', end - host);
  if (!sp)
    return FALSE;
  char *p = sp + 1;
  char *q = p;
  while (q < end && *q != '[' && *q != ':' && *q != ' ')
    q++;
  if (q >= end)
    return FALSE;
  char *colon = q;
  if (*q == '[')
    {
      colon = memchr(q, ']', end - q);
      if (!colon || colon + 1 >= end)
        return FALSE;
      colon++;
    }
  if (*colon != ':')
    return FALSE;
  *q = '\0';
  char *m = colon + 1;
  while (m < end && *m == ' ')
    m++;
  *prog = p;
  *msg = m;
  *msg_len = end - m;
  return TRUE;
}

int
main(int argc, char **argv)
{
  if (argc != 3)
    {
      fprintf(stderr, "usage: %s RULES.pcre INPUT.log\n", argv[0]);
      return 2;
    }
  guint nrules;
  GHashTable *progs = bench_load_rules(argv[1], &nrules);
  FILE *in = fopen(argv[2], "r");
  if (!in)
    {
      perror(argv[2]);
      return 2;
    }
  static char outbuf[1 << 16];
  setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
  pcre2_match_data *md = pcre2_match_data_create(64, NULL);
  char *line = NULL;
  size_t cap = 0;
  ssize_t len;
  while ((len = getline(&line, &cap, in)) > 0)
    {
      if (line[len - 1] == '\n')
        line[--len] = '\0';
      char *prog, *msg;
      size_t msg_len;
      const char *hit = "";
      if (bench_split_header(line, len, &prog, &msg, &msg_len))
        {
          BenchProgram *bp = g_hash_table_lookup(progs, prog);
          for (guint i = 0; bp && i < bp->rules->len; i++)
            {
              BenchRule *r = &g_array_index(bp->rules, BenchRule, i);
              if (pcre2_match(r->code, (PCRE2_SPTR) msg, msg_len, 0, 0, md, NULL) >= 0)
                {
                  hit = r->id;
                  break;
                }
            }
        }
      fputs(hit, stdout);
      putchar('\n');
    }
  free(line);
  fclose(in);
  pcre2_match_data_free(md);
  g_hash_table_destroy(progs);
  return fflush(stdout) == 0 ? 0 : 1;
}
