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
#include "correlation/nv-message.h"

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

/*
 * One message as rsyslog describes it (the input fields), and what a
 * match writes into it, kept in a PdbNvMessage (correlation/nv-message.h,
 * the tool's snapshot store): class, rule id, values in the order first
 * set, and tags.
 */
typedef struct
{
  GString *program;
  GString *message;
  GString *host;
  GString *pid;
  gboolean has_message;
  PdbNvMessage *result;
} RsyslogMessage;

static void
rsyslog_message_init(RsyslogMessage *m)
{
  m->program = g_string_new(NULL);
  m->message = g_string_new(NULL);
  m->host = g_string_new(NULL);
  m->pid = g_string_new(NULL);
  m->result = pdb_nv_message_new();
}

static void
rsyslog_message_reset(RsyslogMessage *m)
{
  g_string_truncate(m->program, 0);
  g_string_truncate(m->message, 0);
  g_string_truncate(m->host, 0);
  g_string_truncate(m->pid, 0);
  m->has_message = FALSE;
  pdb_nv_message_unref(m->result);
  m->result = pdb_nv_message_new();
}

static void
rsyslog_message_destroy(RsyslogMessage *m)
{
  g_string_free(m->program, TRUE);
  g_string_free(m->message, TRUE);
  g_string_free(m->host, TRUE);
  g_string_free(m->pid, TRUE);
  pdb_nv_message_unref(m->result);
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

/* What a rule's templates read: what the match wrote, else the input fields. */
static const gchar *
msg_get(gpointer msg, const gchar *name, gssize *length)
{
  RsyslogMessage *m = msg;
  const gchar *value = pdb_nv_message_get(m->result, name, length);
  GString *s = NULL;

  if (value)
    return value;
  if (strcmp(name, "PROGRAM") == 0)
    s = m->program;
  else if (strcmp(name, "MESSAGE") == 0 || strcmp(name, "MSG") == 0)
    s = m->message;
  else if (strcmp(name, "HOST") == 0)
    s = m->host;
  else if (strcmp(name, "PID") == 0)
    s = m->pid;
  if (!s)
    return NULL;
  *length = s->len;
  return s->str;
}

static void
msg_set(gpointer msg, const gchar *name, const gchar *value, gssize length, PdbValueType type)
{
  pdb_nv_message_set(((RsyslogMessage *) msg)->result, name, value, length, type);
}

static void
msg_set_tag(gpointer msg, const gchar *tag)
{
  pdb_nv_message_set_tag(((RsyslogMessage *) msg)->result, tag);
}

static void
msg_clear_tag(gpointer msg, const gchar *tag)
{
  pdb_nv_message_clear_tag(((RsyslogMessage *) msg)->result, tag);
}

static const PdbMessageOps rsyslog_message_ops =
{
  .get = msg_get,
  .set = msg_set,
  .set_tag = msg_set_tag,
  .clear_tag = msg_clear_tag,
};

/* The values of the answer: all the match wrote but class and rule id. */
static void
append_value(const gchar *name, const gchar *value, gsize length, PdbValueType type, gpointer user_data)
{
  GString *out = user_data;

  if (strcmp(name, ".classifier.class") == 0 || strcmp(name, ".classifier.rule_id") == 0)
    return;
  if (out->str[out->len - 1] != '{')
    g_string_append_c(out, ',');
  pdb_json_append_string(out, name, -1);
  g_string_append_c(out, ':');
  if (type != PDB_VALUE_STRING && pdb_json_is_number(value, length, type == PDB_VALUE_INT64))
    g_string_append_len(out, value, length);
  else
    pdb_json_append_string(out, value, length);
}

static void
write_answer(GString *out, RsyslogMessage *m, const gchar *prefix, gboolean classified)
{
  gssize class_length = 0, rule_id_length = 0;
  const gchar *class_name = pdb_nv_message_get(m->result, ".classifier.class", &class_length);
  const gchar *rule_id = pdb_nv_message_get(m->result, ".classifier.rule_id", &rule_id_length);
  const GPtrArray *tags = pdb_nv_message_get_tags(m->result);

  g_string_truncate(out, 0);
  if (!classified)
    {
      g_string_append(out, "{}\n");
      return;
    }
  g_string_append(out, "{\"$!\":{");
  pdb_json_append_string(out, prefix, -1);
  g_string_append(out, ":{\"class\":");
  pdb_json_append_string(out, class_name ? class_name : "", class_name ? class_length : 0);
  if (rule_id && rule_id_length)
    {
      g_string_append(out, ",\"rule_id\":");
      pdb_json_append_string(out, rule_id, rule_id_length);
    }
  g_string_append(out, ",\"tags\":[");
  for (guint i = 0; i < tags->len; i++)
    {
      if (i)
        g_string_append_c(out, ',');
      pdb_json_append_string(out, g_ptr_array_index(tags, i), -1);
    }
  g_string_append(out, "],\"values\":{");
  pdb_nv_message_foreach(m->result, append_value, out);
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
  gboolean parsed = pdb_tool_command_parse("rsyslog", NULL, description_text, entries, &argc, &argv, &error);
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
