/*
 * parser.c: compiles a parser reference ("TYPE:name:param") into an
 * immutable PdbParser, and answers the questions the tree asks about
 * parsers (are two references the same node? what is the display name?).
 *
 * Invariant: a PdbParser returned by pdb_parser_new() is complete (its
 * parse function can run) and owns all its strings; on error nothing is
 * returned and nothing leaks.
 */
#include "engine/parser.h"

#include <string.h>

typedef enum
{
  PARAM_NONE,        /* a 3rd part is accepted and ignored (kept for node sharing) */
  PARAM_REQUIRED,
  PARAM_FORBIDDEN,
} ParamRule;

typedef struct _ParserType
{
  const gchar *name;
  PdbParserKind kind;
  PdbParseFunc parse;
  guchar first, last;
  PdbValueType value_type;
  ParamRule param;
  const gchar *display;
} ParserType;

static const ParserType parser_types[] =
{
  { "STRING", PDB_PARSER_STRING, pdb_parser_parse_string, 0, 255, PDB_VALUE_STRING, PARAM_NONE, "STRING" },
  { "ESTRING", PDB_PARSER_ESTRING, pdb_parser_parse_estring, 0, 255, PDB_VALUE_STRING, PARAM_REQUIRED, "ESTRING" },
  { "QSTRING", PDB_PARSER_QSTRING, pdb_parser_parse_qstring, 0, 255, PDB_VALUE_STRING, PARAM_REQUIRED, "QSTRING" },
  { "NUMBER", PDB_PARSER_NUMBER, pdb_parser_parse_number, '+', '9', PDB_VALUE_INT64, PARAM_NONE, "NUMBER" },
  { "FLOAT", PDB_PARSER_FLOAT, pdb_parser_parse_float, '+', '9', PDB_VALUE_DOUBLE, PARAM_NONE, "FLOAT" },
  { "DOUBLE", PDB_PARSER_FLOAT, pdb_parser_parse_float, '+', '9', PDB_VALUE_DOUBLE, PARAM_NONE, "FLOAT" },
  { "IPv4", PDB_PARSER_IPV4, pdb_parser_parse_ipv4, '0', '9', PDB_VALUE_STRING, PARAM_NONE, "IPv4" },
  { "IPv6", PDB_PARSER_IPV6, pdb_parser_parse_ipv6, 0, 255, PDB_VALUE_STRING, PARAM_NONE, "IPv6" },
  { "IPvANY", PDB_PARSER_IPVANY, pdb_parser_parse_ipvany, 0, 255, PDB_VALUE_STRING, PARAM_NONE, "IP" },
  { "MACADDR", PDB_PARSER_MACADDR, pdb_parser_parse_lladdr, 0, 255, PDB_VALUE_STRING, PARAM_NONE, "MACADDR" },
  { "LLADDR", PDB_PARSER_LLADDR, pdb_parser_parse_lladdr, 0, 255, PDB_VALUE_STRING, PARAM_NONE, "LLADDR" },
  { "EMAIL", PDB_PARSER_EMAIL, pdb_parser_parse_email, 0, 255, PDB_VALUE_STRING, PARAM_NONE, "EMAIL" },
  { "HOSTNAME", PDB_PARSER_HOSTNAME, pdb_parser_parse_hostname, 0, 255, PDB_VALUE_STRING, PARAM_NONE, "HOSTNAME" },
  { "SET", PDB_PARSER_SET, pdb_parser_parse_set, 0, 255, PDB_VALUE_STRING, PARAM_REQUIRED, "SET" },
  { "OPTIONALSET", PDB_PARSER_OPTIONALSET, pdb_parser_parse_optionalset, 0, 255, PDB_VALUE_STRING, PARAM_REQUIRED, "UNKNOWN" },
  { "ANYSTRING", PDB_PARSER_ANYSTRING, pdb_parser_parse_anystring, 0, 255, PDB_VALUE_STRING, PARAM_NONE, "ANYSTRING" },
  { "NLSTRING", PDB_PARSER_NLSTRING, pdb_parser_parse_nlstring, 0, 255, PDB_VALUE_STRING, PARAM_FORBIDDEN, "NLSTRING" },
  { "PCRE", PDB_PARSER_PCRE, pdb_parser_parse_pcre, 0, 255, PDB_VALUE_STRING, PARAM_REQUIRED, "PCRE" },
};

const gchar *
pdb_parser_known_types(void)
{
  return "STRING, ESTRING, QSTRING, NUMBER, FLOAT, DOUBLE, IPv4, IPv6, IPvANY, MACADDR, "
         "LLADDR, EMAIL, HOSTNAME, SET, OPTIONALSET, ANYSTRING, NLSTRING, PCRE";
}

/* Exact, case-sensitive names; QSTRING by prefix (QSTRING_X is a QSTRING), as 3.38. */
static const ParserType *
_lookup_type(const gchar *name)
{
  for (gsize i = 0; i < G_N_ELEMENTS(parser_types); i++)
    if (strcmp(parser_types[i].name, name) == 0)
      return &parser_types[i];
  if (g_str_has_prefix(name, "QSTRING"))
    return &parser_types[2];
  return NULL;
}

static gboolean
_bad_param(GError **error, const gchar *reference, const gchar *what)
{
  g_set_error(error, PDB_RADIX_ERROR, PDB_RADIX_ERROR_BAD_PARAM, "@%s@: %s", reference, what);
  return FALSE;
}

/* Kind-specific compiled state; FALSE with @error set on a bad parameter. */
static gboolean
_compile_state(PdbParser *self, const gchar *reference, GError **error)
{
  const gchar *param = self->param;

  switch (self->kind)
    {
    case PDB_PARSER_STRING:
    case PDB_PARSER_EMAIL:
      self->has_set = param && param[0];
      pdb_byte_set_init(&self->set, param);
      return TRUE;
    case PDB_PARSER_SET:
    case PDB_PARSER_OPTIONALSET:
      if (!param[0])
        return _bad_param(error, reference, "the character set is empty; write e.g. @SET:name: -@");
      self->has_set = TRUE;
      pdb_byte_set_init(&self->set, param);
      return TRUE;
    case PDB_PARSER_ESTRING:
      self->delim_length = strlen(param);
      return TRUE;
    case PDB_PARSER_QSTRING:
      if (!param[0])
        return _bad_param(error, reference, "QSTRING needs the quote characters, e.g. @QSTRING:name:\"@ or @QSTRING:name:<>@");
      self->open_char = param[0];
      self->close_char = strlen(param) == 2 ? param[1] : param[0];
      self->first = self->last = self->open_char;
      return TRUE;
    case PDB_PARSER_MACADDR:
      self->lladdr_parts = 6;
      return TRUE;
    case PDB_PARSER_LLADDR:
      self->lladdr_parts = 20;
      if (param)
        {
          gchar *end;
          guint64 parts = g_ascii_strtoull(param, &end, 10);

          if (!g_ascii_isdigit(param[0]) || *end || parts < 1 || parts > 1000)
            return _bad_param(error, reference, "LLADDR's parameter is the maximum number of octets (1..1000), e.g. @LLADDR:name:8@");
          self->lladdr_parts = parts;
        }
      return TRUE;
    case PDB_PARSER_PCRE:
      return pdb_parser_pcre_compile(self, error);
    default:
      return TRUE;
    }
}

PdbParser *
pdb_parser_new(const gchar *reference, const gchar *capture_prefix, GError **error)
{
  /* TYPE[:name[:param]], split as g_strsplit(reference, ":", 3) would,
   * in a stack copy (this runs for every parser of every pattern loaded) */
  gsize ref_len = strlen(reference);
  gchar stack[256];
  gchar *copy = ref_len < sizeof(stack) ? stack : g_malloc(ref_len + 1);
  gchar *parts[3] = { NULL, NULL, NULL };
  guint n_parts = 0;

  memcpy(copy, reference, ref_len + 1);
  if (ref_len)
    {
      gchar *colon = strchr(copy, ':');

      parts[n_parts++] = copy;
      if (colon)
        {
          *colon = '\0';
          parts[n_parts++] = colon + 1;
          colon = strchr(colon + 1, ':');
          if (colon)
            {
              *colon = '\0';
              parts[n_parts++] = colon + 1;
            }
        }
    }

  const ParserType *type = n_parts ? _lookup_type(parts[0]) : NULL;
  PdbParser *self;

  if (!type)
    {
      g_set_error(error, PDB_RADIX_ERROR, PDB_RADIX_ERROR_UNKNOWN_PARSER,
                  "unknown parser type '%s' in @%s@ (types are case-sensitive; known types: %s)",
                  n_parts ? parts[0] : "", reference, pdb_parser_known_types());
      if (copy != stack)
        g_free(copy);
      return NULL;
    }
  if (type->param == PARAM_REQUIRED && n_parts < 3)
    {
      g_set_error(error, PDB_RADIX_ERROR, PDB_RADIX_ERROR_BAD_PARAM,
                  "@%s@: %s needs a parameter, write @%s:name:PARAM@", reference, type->name, type->name);
      if (copy != stack)
        g_free(copy);
      return NULL;
    }
  if (type->param == PARAM_FORBIDDEN && n_parts == 3)
    {
      g_set_error(error, PDB_RADIX_ERROR, PDB_RADIX_ERROR_BAD_PARAM,
                  "@%s@: %s takes no parameter, write @%s:name@", reference, type->name, type->name);
      if (copy != stack)
        g_free(copy);
      return NULL;
    }

  self = g_new0(PdbParser, 1);
  self->ref_count = 1;
  self->kind = type->kind;
  self->parse = type->parse;
  self->first = type->first;
  self->last = type->last;
  self->value_type = type->value_type;
  self->type_text = g_strdup(parts[0]);
  self->name = n_parts > 1 ? g_strdup(parts[1]) : NULL;
  self->param = n_parts > 2 ? g_strdup(parts[2]) : NULL;
  if (self->name && self->name[0])
    self->capture_name = g_strconcat(capture_prefix ? capture_prefix : "", self->name, NULL);
  if (copy != stack)
    g_free(copy);

  if (!_compile_state(self, reference, error))
    {
      pdb_parser_free(self);
      return NULL;
    }
  return self;
}

PdbParser *
pdb_parser_ref(PdbParser *self)
{
  self->ref_count++;
  return self;
}

void
pdb_parser_free(PdbParser *self)
{
  if (!self || --self->ref_count > 0)
    return;
  pdb_parser_pcre_free(self);
  g_free(self->type_text);
  g_free(self->name);
  g_free(self->param);
  g_free(self->capture_name);
  g_free(self);
}

gboolean
pdb_parser_equal(const PdbParser *a, const PdbParser *b)
{
  if (a->kind != b->kind)
    return FALSE;
  if (g_strcmp0(a->capture_name, b->capture_name) != 0)
    return FALSE;
  return g_strcmp0(a->param, b->param) == 0;
}

static void
_add_byte(PdbByteSet *set, guchar c)
{
  set->bits[c >> 5] |= 1u << (c & 31);
}

static void
_add_chars(PdbByteSet *set, const gchar *chars)
{
  for (const guchar *c = (const guchar *) chars; *c; c++)
    _add_byte(set, *c);
}

static void
_add_alnum(PdbByteSet *set)
{
  _add_chars(set, "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ");
}

static void
_add_set(PdbByteSet *set, const PdbByteSet *other)
{
  for (guint i = 0; i < G_N_ELEMENTS(set->bits); i++)
    set->bits[i] |= other->bits[i];
}

/* Per kind, from what its parse function requires of the first byte. */
void
pdb_parser_start_set(const PdbParser *p, PdbByteSet *starts)
{
  memset(starts, 0, sizeof(*starts));
  switch (p->kind)
    {
    case PDB_PARSER_STRING:          /* alnum or an extra character, at least one */
      _add_alnum(starts);
      if (p->has_set)
        _add_set(starts, &p->set);
      break;
    case PDB_PARSER_SET:             /* at least one member */
      _add_set(starts, &p->set);
      break;
    case PDB_PARSER_QSTRING:
      _add_byte(starts, p->open_char);
      break;
    case PDB_PARSER_NUMBER:          /* [+-] then a digit ("0x" starts with one) */
      _add_chars(starts, "+-0123456789");
      break;
    case PDB_PARSER_FLOAT:           /* a lone sign or dot matches (3.38) */
      _add_chars(starts, "+-.0123456789");
      break;
    case PDB_PARSER_IPV4:
      _add_chars(starts, "0123456789");
      break;
    case PDB_PARSER_IPV6:            /* a hex digit or "::"; '.' kept to stay a superset */
    case PDB_PARSER_IPVANY:
      _add_chars(starts, "0123456789abcdefABCDEF:.");
      break;
    case PDB_PARSER_MACADDR:
    case PDB_PARSER_LLADDR:
      _add_chars(starts, "0123456789abcdefABCDEF");
      break;
    case PDB_PARSER_HOSTNAME:        /* a label character */
      _add_alnum(starts);
      _add_chars(starts, "-");
      break;
    case PDB_PARSER_EMAIL:           /* strip characters, the local part, or its '@' */
      _add_alnum(starts);
      _add_chars(starts, "!#$%&'*+-/=?^_`{|}~.@");
      if (p->has_set)
        _add_set(starts, &p->set);
      break;
    default:                         /* ESTRING, OPTIONALSET, ANYSTRING, NLSTRING, PCRE */
      memset(starts, 0xff, sizeof(*starts));
      break;
    }
  for (guint c = 0; c < 256; c++)
    if (c < p->first || c > p->last)
      starts->bits[c >> 5] &= ~(1u << (c & 31));
}

const gchar *
pdb_parser_display_type(const PdbParser *parser)
{
  for (gsize i = 0; i < G_N_ELEMENTS(parser_types); i++)
    if (parser_types[i].kind == parser->kind)
      return parser_types[i].display;
  return "UNKNOWN";
}
