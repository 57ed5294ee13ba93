/*
 * parser-pcre.c: @PCRE:name:regex@ with PCRE2.
 *
 * The regex is compiled anchored at the parser's position and JIT-compiled
 * when the platform supports it. Matching uses a match limit
 * (PDB_PCRE_MATCH_LIMIT) so that a catastrophic regex fails instead of
 * hanging the lookup. The compiled code and the match context are
 * immutable after compilation; the only per-call state (the match data)
 * lives in a per-thread cache, so parsing allocates nothing after the first
 * call in each thread and is thread-safe.
 */
#include "engine/parser.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

typedef struct _PdbPcre
{
  pcre2_code *code;
  pcre2_match_context *context;
} PdbPcre;

static void
_free_match_data(gpointer data)
{
  pcre2_match_data_free(data);
}

/* One ovector pair is enough: groups are not stored, only the whole match. */
static GPrivate pdb_pcre_match_data = G_PRIVATE_INIT(_free_match_data);

static pcre2_match_data *
_thread_match_data(void)
{
  pcre2_match_data *md = g_private_get(&pdb_pcre_match_data);

  if (!md)
    {
      md = pcre2_match_data_create(1, NULL);
      g_private_set(&pdb_pcre_match_data, md);
    }
  return md;
}

gboolean
pdb_parser_pcre_compile(PdbParser *parser, GError **error)
{
  PdbPcre *self;
  int errcode;
  PCRE2_SIZE erroffset;
  pcre2_code *code;

  code = pcre2_compile((PCRE2_SPTR) parser->param, PCRE2_ZERO_TERMINATED, PCRE2_ANCHORED,
                       &errcode, &erroffset, NULL);
  if (!code)
    {
      PCRE2_UCHAR message[256];

      pcre2_get_error_message(errcode, message, sizeof(message));
      g_set_error(error, PDB_RADIX_ERROR, PDB_RADIX_ERROR_PCRE,
                  "the regular expression '%s' does not compile: %s at offset %lu",
                  parser->param, (const gchar *) message, (gulong) erroffset);
      return FALSE;
    }
  /* JIT is an optimisation: without it (unsupported CPU) matching still works. */
  (void) pcre2_jit_compile(code, PCRE2_JIT_COMPLETE);

  self = g_new0(PdbPcre, 1);
  self->code = code;
  self->context = pcre2_match_context_create(NULL);
  pcre2_set_match_limit(self->context, PDB_PCRE_MATCH_LIMIT);
  pcre2_set_depth_limit(self->context, PDB_PCRE_MATCH_LIMIT);
  parser->pcre = self;
  return TRUE;
}

void
pdb_parser_pcre_free(PdbParser *parser)
{
  PdbPcre *self = parser->pcre;

  if (!self)
    return;
  pcre2_match_context_free(self->context);
  pcre2_code_free(self->code);
  g_free(self);
  parser->pcre = NULL;
}

/* The whole match is the value; errors (match limit hit) count as no match. */
gboolean
pdb_parser_parse_pcre(const PdbParser *p, const guchar *in, gsize avail, PdbParseResult *r)
{
  const PdbPcre *self = p->pcre;
  pcre2_match_data *md = _thread_match_data();
  PCRE2_SIZE *ovector;
  int rc;

  rc = pcre2_match(self->code, (PCRE2_SPTR) in, avail, 0, 0, md, self->context);
  if (rc < 0)
    return FALSE;
  ovector = pcre2_get_ovector_pointer(md);
  if (ovector[0] != 0 || ovector[1] < ovector[0])
    return FALSE;
  return pdb_parse_result_whole(r, ovector[1]);
}
