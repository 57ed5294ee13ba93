/*
 * cmd-rsyslog.c: `patterndb rsyslog`, an rsyslog mmexternal plugin.
 *
 * rsyslog (action type="mmexternal" interface.input="fulljson") writes one
 * JSON object per message on our stdin and waits for exactly one JSON line
 * back per message, in order. We answer with the classification under
 * $!<prefix>: {"$!":{"pdb":{"class":..,"rule_id":..,"tags":[..],"values":{..}}}}.
 *
 * Invariants, because rsyslog blocks on us:
 *   - exactly one answer line per input line, flushed at once;
 *   - after start-up nothing is written to stderr and nothing makes us exit
 *     but end of input: a malformed line is answered with {};
 *   - SIGHUP re-reads the database between two lines; if the new one does
 *     not load, the old one stays (rsyslog cannot show our errors, so the
 *     reason goes to --log FILE when given).
 */
#include "config.h"
#include "tool/commands.h"
#include "tool/json.h"
#include "db/database.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t reload_requested;

static void
on_sighup(int signo)
{
  reload_requested = 1;
}

/* One message as rsyslog describes it, and the values a match writes. */
typedef struct
{
  GString *program;
  GString *message;
  GString *host;
  GString *pid;
  gboolean has_message;
  /* results */
  GString *class_name;
  GString *rule_id;
  GPtrArray *tags;          /* of gchar*, owned */
  GPtrArray *names;         /* of gchar*, owned; parallel to values/types */
  GPtrArray *values;        /* of GString* */
  GArray *types;            /* of PdbValueType */
} RsyslogMessage;

static void
rsyslog_message_init(RsyslogMessage *m)
{
  m->program = g_string_new(NULL);
  m->message = g_string_new(NULL);
  m->host = g_string_new(NULL);
  m->pid = g_string_new(NULL);
  m->class_name = g_string_new(NULL);
  m->rule_id = g_string_new(NULL);
  m->tags = g_ptr_array_new_with_free_func(g_free);
  m->names = g_ptr_array_new_with_free_func(g_free);
  m->values = g_ptr_array_new();
  m->types = g_array_new(FALSE, FALSE, sizeof(PdbValueType));
}

static void
rsyslog_message_reset(RsyslogMessage *m)
{
  g_string_truncate(m->program, 0);
  g_string_truncate(m->message, 0);
  g_string_truncate(m->host, 0);
  g_string_truncate(m->pid, 0);
  g_string_truncate(m->class_name, 0);
  g_string_truncate(m->rule_id, 0);
  m->has_message = FALSE;
  g_ptr_array_set_size(m->tags, 0);
  g_ptr_array_set_size(m->names, 0);
  for (guint i = 0; i < m->values->len; i++)
    g_string_free(g_ptr_array_index(m->values, i), TRUE);
  g_ptr_array_set_size(m->values, 0);
  g_array_set_size(m->types, 0);
}

static void
rsyslog_message_destroy(RsyslogMessage *m)
{
  rsyslog_message_reset(m);
  g_string_free(m->program, TRUE);
  g_string_free(m->message, TRUE);
  g_string_free(m->host, TRUE);
  g_string_free(m->pid, TRUE);
  g_string_free(m->class_name, TRUE);
  g_string_free(m->rule_id, TRUE);
  g_ptr_array_free(m->tags, TRUE);
  g_ptr_array_free(m->names, TRUE);
  g_ptr_array_free(m->values, TRUE);
  g_array_free(m->types, TRUE);
}

static void
take_member(const gchar *name, const gchar *value, gsize length, gpointer user_data)
{
  RsyslogMessage *m = user_data;

  if (strcmp(name, "programname") == 0)
    g_string_assign(m->program, value);
  else if (strcmp(name, "msg") == 0)
    {
      /* rsyslog's msg is all that follows "prog:", the usual blank
       * included; syslog-ng drops that one space, and only it. */
      if (length > 0 && *value == ' ')
        {
          value++;
          length--;
        }
      g_string_truncate(m->message, 0);
      g_string_append_len(m->message, value, length);
      m->has_message = TRUE;
    }
  else if (strcmp(name, "hostname") == 0)
    g_string_assign(m->host, value);
  else if (strcmp(name, "procid") == 0)
    g_string_assign(m->pid, value);
}

static gint
find_value(RsyslogMessage *m, const gchar *name)
{
  for (guint i = 0; i < m->names->len; i++)
    if (strcmp(g_ptr_array_index(m->names, i), name) == 0)
      return i;
  return -1;
}

static const gchar *
msg_get(gpointer msg, const gchar *name, gssize *length)
{
  RsyslogMessage *m = msg;
  GString *s = NULL;
  gint i;

  if (strcmp(name, "PROGRAM") == 0)
    s = m->program;
  else if (strcmp(name, "MESSAGE") == 0 || strcmp(name, "MSG") == 0)
    s = m->message;
  else if (strcmp(name, "HOST") == 0)
    s = m->host;
  else if (strcmp(name, "PID") == 0)
    s = m->pid;
  else if (strcmp(name, ".classifier.class") == 0)
    s = m->class_name;
  else if (strcmp(name, ".classifier.rule_id") == 0)
    s = m->rule_id;
  else if ((i = find_value(m, name)) >= 0)
    s = g_ptr_array_index(m->values, i);
  if (!s)
    return NULL;
  *length = s->len;
  return s->str;
}

static void
msg_set(gpointer msg, const gchar *name, const gchar *value, gssize length, PdbValueType type)
{
  RsyslogMessage *m = msg;
  gint i;

  if (length < 0)
    length = strlen(value);
  if (strcmp(name, ".classifier.class") == 0)
    {
      g_string_truncate(m->class_name, 0);
      g_string_append_len(m->class_name, value, length);
      return;
    }
  if (strcmp(name, ".classifier.rule_id") == 0)
    {
      g_string_truncate(m->rule_id, 0);
      g_string_append_len(m->rule_id, value, length);
      return;
    }
  i = find_value(m, name);
  if (i < 0)
    {
      g_ptr_array_add(m->names, g_strdup(name));
      g_ptr_array_add(m->values, g_string_new_len(value, length));
      g_array_append_val(m->types, type);
      return;
    }
  GString *s = g_ptr_array_index(m->values, i);
  g_string_truncate(s, 0);
  g_string_append_len(s, value, length);
  g_array_index(m->types, PdbValueType, i) = type;
}

static void
msg_set_tag(gpointer msg, const gchar *tag)
{
  RsyslogMessage *m = msg;

  for (guint i = 0; i < m->tags->len; i++)
    if (strcmp(g_ptr_array_index(m->tags, i), tag) == 0)
      return;
  g_ptr_array_add(m->tags, g_strdup(tag));
}

static void
msg_clear_tag(gpointer msg, const gchar *tag)
{
  RsyslogMessage *m = msg;

  for (guint i = 0; i < m->tags->len; i++)
    if (strcmp(g_ptr_array_index(m->tags, i), tag) == 0)
      {
        g_ptr_array_remove_index(m->tags, i);
        return;
      }
}

static const PdbMessageOps rsyslog_message_ops =
{
  .get = msg_get,
  .set = msg_set,
  .set_tag = msg_set_tag,
  .clear_tag = msg_clear_tag,
};

static void
write_answer(GString *out, RsyslogMessage *m, const gchar *prefix, gboolean classified)
{
  g_string_truncate(out, 0);
  if (!classified)
    {
      g_string_append(out, "{}\n");
      return;
    }
  g_string_append(out, "{\"$!\":{");
  pdb_json_append_string(out, prefix, -1);
  g_string_append(out, ":{\"class\":");
  pdb_json_append_string(out, m->class_name->str, m->class_name->len);
  if (m->rule_id->len)
    {
      g_string_append(out, ",\"rule_id\":");
      pdb_json_append_string(out, m->rule_id->str, m->rule_id->len);
    }
  g_string_append(out, ",\"tags\":[");
  for (guint i = 0; i < m->tags->len; i++)
    {
      if (i)
        g_string_append_c(out, ',');
      pdb_json_append_string(out, g_ptr_array_index(m->tags, i), -1);
    }
  g_string_append(out, "],\"values\":{");
  for (guint i = 0; i < m->names->len; i++)
    {
      GString *v = g_ptr_array_index(m->values, i);
      PdbValueType t = g_array_index(m->types, PdbValueType, i);

      if (i)
        g_string_append_c(out, ',');
      pdb_json_append_string(out, g_ptr_array_index(m->names, i), -1);
      g_string_append_c(out, ':');
      if (t != PDB_VALUE_STRING && pdb_json_is_number(v->str, v->len, t == PDB_VALUE_INT64))
        g_string_append_len(out, v->str, v->len);
      else
        pdb_json_append_string(out, v->str, v->len);
    }
  g_string_append(out, "}}}}\n");
}

/* Classifies one input line into @out (always exactly one line). */
static void
answer_line(const PdbDatabase *db, const gchar *line, gsize length, const gchar *prefix,
            RsyslogMessage *m, GString *out)
{
  PdbResult result;
  gboolean classified = FALSE;

  rsyslog_message_reset(m);
  if (db && pdb_json_parse_object(line, length, take_member, m) && m->has_message)
    {
      pdb_result_init(&result);
      pdb_database_classify(db, m->program->str, m->program->len,
                            m->message->str, m->message->len, &result);
      if (result.kind != PDB_RESULT_NONE)
        {
          pdb_result_apply(&result, m->program->str, m->message->str, &rsyslog_message_ops, m);
          classified = TRUE;
        }
      pdb_result_clear(&result);
    }
  write_answer(out, m, prefix, classified);
}

static gboolean
write_all(const gchar *data, gsize length)
{
  while (length > 0)
    {
      ssize_t n = write(STDOUT_FILENO, data, length);
      if (n < 0)
        {
          if (errno == EINTR)
            continue;
          return FALSE;
        }
      data += n;
      length -= n;
    }
  return TRUE;
}

static void
log_to(const gchar *log_path, const gchar *text)
{
  FILE *f;

  if (!log_path)
    return;
  f = fopen(log_path, "a");
  if (!f)
    return;
  fprintf(f, "%s\n", text);
  fclose(f);
}

static void
collect_warning(const gchar *message, gpointer user_data)
{
  log_to(user_data, message);
}

static PdbDatabase *
load_database(const gchar *path, const gchar *log_path, GError **error)
{
  PdbLoadOptions options = { 0 };

  options.warning = collect_warning;
  options.warning_data = (gpointer) log_path;
  return pdb_database_load(path, &options, error);
}

static void
reload_database(PdbDatabase **db, const gchar *path, const gchar *log_path)
{
  GError *error = NULL;
  PdbDatabase *fresh = load_database(path, log_path, &error);

  if (!fresh)
    {
      gchar *text = g_strdup_printf("patterndb rsyslog: reload of %s failed, keeping the old database: %s",
                                    path, error->message);
      log_to(log_path, text);
      g_free(text);
      g_error_free(error);
      return;
    }
  log_to(log_path, "patterndb rsyslog: database reloaded");
  pdb_database_unref(*db);
  *db = fresh;
}

static const gchar description_text[] =
  "Classify messages for rsyslog's mmexternal module. Reads one JSON object\n"
  "per line (interface.input=\"fulljson\") and answers one JSON line per input\n"
  "line that sets $!NAME!class, $!NAME!rule_id, $!NAME!tags and $!NAME!values.\n"
  "A line that is not a JSON object (or has no \"msg\") is answered with {}\n"
  "(message unchanged).\n"
  "SIGHUP re-reads the database; a broken new database leaves the old one active.\n";

/* Answers every line of stdin, in order, until its end or until stdout
 * fails; SIGHUP reloads @db (from @pdb_path) between two lines. */
static void
serve(PdbDatabase **db, const gchar *pdb_path, const gchar *log_path, const gchar *prefix)
{
  struct sigaction sa = { 0 };
  sa.sa_handler = on_sighup;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGHUP, &sa, NULL);   /* no SA_RESTART: a blocked read returns EINTR */
  signal(SIGPIPE, SIG_IGN);

  RsyslogMessage message;
  rsyslog_message_init(&message);
  GString *pending = g_string_sized_new(4096);
  GString *out = g_string_sized_new(4096);
  gchar buf[65536];
  gboolean eof = FALSE;

  while (!eof)
    {
      if (reload_requested)
        {
          reload_requested = 0;
          reload_database(db, pdb_path, log_path);
        }
      ssize_t n = read(STDIN_FILENO, buf, sizeof(buf));
      if (n < 0)
        {
          if (errno == EINTR)
            continue;
          break;
        }
      if (n == 0)
        {
          eof = TRUE;
          if (pending->len == 0)
            break;
          g_string_append_c(pending, '\n');  /* a last line without newline still gets its answer */
        }
      else
        g_string_append_len(pending, buf, n);

      /* Answer every complete line in what we have; keep the tail. */
      gsize start = 0;
      GString *answers = g_string_sized_new(1024);
      for (;;)
        {
          const gchar *nl = memchr(pending->str + start, '\n', pending->len - start);
          if (!nl)
            break;
          gsize len = nl - (pending->str + start);
          if (reload_requested)
            {
              reload_requested = 0;
              reload_database(db, pdb_path, log_path);
            }
          answer_line(*db, pending->str + start, len, prefix, &message, out);
          g_string_append_len(answers, out->str, out->len);
          start += len + 1;
        }
      g_string_erase(pending, 0, start);
      gboolean written = write_all(answers->str, answers->len);
      g_string_free(answers, TRUE);
      if (!written)
        break;
    }

  rsyslog_message_destroy(&message);
  g_string_free(pending, TRUE);
  g_string_free(out, TRUE);
}

int
pdb_cmd_rsyslog(int argc, char **argv)
{
  gchar *pdb_path = NULL;
  gchar *prefix = NULL;
  gchar *log_path = NULL;
  GError *error = NULL;
  GOptionEntry entries[] =
  {
    { "pdb", 'p', 0, G_OPTION_ARG_FILENAME, &pdb_path, "pattern database (file, directory or glob)", "FILE|DIR" },
    { "prefix", 0, 0, G_OPTION_ARG_STRING, &prefix, "name of the $! subtree (default: pdb)", "NAME" },
    { "log", 0, 0, G_OPTION_ARG_FILENAME, &log_path, "append reload results and load warnings to FILE", "FILE" },
    { NULL }
  };
  GOptionContext *ctx = pdb_tool_command_context("rsyslog", NULL);
  g_option_context_set_description(ctx, description_text);
  g_option_context_add_main_entries(ctx, entries, NULL);
  gboolean parsed = g_option_context_parse(ctx, &argc, &argv, &error);
  g_option_context_free(ctx);
  if (!parsed || argc > 1 || !pdb_path)
    {
      fprintf(stderr, "patterndb rsyslog: %s\n",
              error ? error->message : argc > 1 ? "unexpected argument" : "--pdb is required");
      g_clear_error(&error);
      return 2;
    }
  if (!prefix)
    prefix = g_strdup("pdb");

  /* Start-up is the one moment where errors may go to stderr: rsyslog
   * logs what a failing plugin prints before it exits. */
  PdbDatabase *db = load_database(pdb_path, log_path, &error);
  if (!db)
    {
      fprintf(stderr, "patterndb rsyslog: %s\n", error->message);
      g_error_free(error);
      g_free(pdb_path);
      g_free(prefix);
      g_free(log_path);
      return 1;
    }

  serve(&db, pdb_path, log_path, prefix);
  pdb_database_unref(db);
  g_free(pdb_path);
  g_free(prefix);
  g_free(log_path);
  return 0;
}
