/* cli-common.c -- option parsing and error reporting shared by subcommands
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "cli-private.h"
#include "xrlab-util.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib-unix.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

void
xrlab_cli_optics_options_init (XrlabCliOpticsOptions *o)
{
  const GOptionEntry entries[G_N_ELEMENTS (o->entries)] = {
    { "table", 0, 0, G_OPTION_ARG_STRING, &o->table,
      N_("Scattering factors: henke, chantler or auto (default)"), N_("TABLE") },
    { "energy", 'e', 0, G_OPTION_ARG_STRING, &o->energy,
      N_("Energies: 10, 5,10,15, 5:15:11 or 1:30:100:log"), N_("SPEC") },
    { "unit", 'u', 0, G_OPTION_ARG_STRING, &o->unit,
      N_("Unit of the energies: keV (default), eV or A (wavelength)"), N_("UNIT") },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &o->format,
      N_("Output: table (default), csv or json"), N_("FORMAT") },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &o->output,
      N_("Write to FILE (atomically) instead of stdout"), N_("FILE") },
    G_OPTION_ENTRY_NULL
  };

  memset (o, 0, sizeof *o);
  memcpy (o->entries, entries, sizeof entries);
}

void
xrlab_cli_optics_options_clear (XrlabCliOpticsOptions *o)
{
  g_clear_pointer (&o->table, g_free);
  g_clear_pointer (&o->energy, g_free);
  g_clear_pointer (&o->unit, g_free);
  g_clear_pointer (&o->format, g_free);
  g_clear_pointer (&o->output, g_free);
}

gboolean
xrlab_cli_parse_options (const XrlabCliSpec *spec, int *argc, char ***argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new (spec->parameter_string);
  g_autoptr(GError) error = NULL;

  if (spec->summary != NULL)
    g_option_context_set_summary (context, spec->summary);
  if (spec->description != NULL)
    g_option_context_set_description (context, spec->description);
  for (gsize i = 0; i < G_N_ELEMENTS (spec->entries) && spec->entries[i] != NULL; i++)
    g_option_context_add_main_entries (context, spec->entries[i], GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, argc, argv, &error))
    {
      const char *name = (*argc > 0) ? (*argv)[0] : "xrlab-cli";
      g_printerr ("xrlab-cli %s: %s\n", name, error->message);
      g_printerr (_("Try “xrlab-cli %s --help”.\n"), name);
      return FALSE;
    }
  return TRUE;
}

gboolean
xrlab_cli_parse_number (const char *message, const char *text, double *value)
{
  if (!xrlab_parse_double (text, FALSE, value))
    {
      xrlab_cli_failf (message, text);
      return FALSE;
    }
  return TRUE;
}

int
xrlab_cli_fail (const GError *error)
{
  g_printerr ("xrlab-cli: %s\n", error->message);
  return XRLAB_CLI_BAD_INPUT;
}

int
xrlab_cli_failf (const char *format, ...)
{
  va_list args;
  g_autofree char *msg = NULL;

  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);
  g_printerr ("xrlab-cli: %s\n", msg);
  return XRLAB_CLI_BAD_INPUT;
}

int
xrlab_cli_usage (const char *name, const char *format, ...)
{
  va_list args;
  g_autofree char *msg = NULL;

  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);
  g_printerr ("xrlab-cli %s: %s\n", name, msg);
  g_printerr (_("Try “xrlab-cli %s --help”.\n"), name);
  return XRLAB_CLI_USAGE;
}

int
xrlab_cli_version (int argc, char **argv)
{
  g_print ("xrlab-cli %s\n", PACKAGE_VERSION);
  return XRLAB_CLI_OK;
}

/* ---- sizes ------------------------------------------------------------------ */

guint64
xrlab_cli_max_values (void)
{
  long pages = sysconf (_SC_PHYS_PAGES), page = sysconf (_SC_PAGE_SIZE);
  guint64 quarter = 0;

  if (pages > 0 && page > 0)
    quarter = (guint64) pages * (guint64) page / 4 / sizeof (double);
  return MAX (quarter, XRLAB_CLI_MIN_VALUES);
}

gboolean
xrlab_cli_check_values (const char *what, guint64 a, guint64 b)
{
  guint64 limit = xrlab_cli_max_values ();

  if (a == 0 || b == 0 || (a <= limit && b <= limit / a))
    return TRUE;
  /* TRANSLATORS: the first %s names the sizes ("the energy axis × the delay
   * axis"); the numbers are counts of values */
  xrlab_cli_failf (_("%s: %llu × %llu values are more than the limit of %llu "
                     "(a quarter of this machine's memory)"),
                   what, (unsigned long long) a, (unsigned long long) b,
                   (unsigned long long) limit);
  return FALSE;
}

/* ---- standard output ------------------------------------------------------ */

static int stdout_errno;          /* of the first write to stdout that failed */
static gboolean stdout_reported;  /* that failure was printed */
static gboolean stdout_closed;

gboolean
xrlab_cli_stdout_write (const char *data, gsize len)
{
  if (stdout_errno != 0)
    return FALSE;
  if (len > 0 && fwrite (data, 1, len, stdout) != len)
    {
      stdout_errno = errno != 0 ? errno : EIO;
      return FALSE;
    }
  return TRUE;
}

gboolean
xrlab_cli_stdout_flush (void)
{
  if (stdout_errno == 0 && fflush (stdout) != 0)
    stdout_errno = errno != 0 ? errno : EIO;
  return stdout_errno == 0;
}

int
xrlab_cli_stdout_fail (void)
{
  if (!stdout_reported)
    {
      stdout_reported = TRUE;
      xrlab_cli_failf (_("Cannot write to standard output: %s"),
                       g_strerror (stdout_errno != 0 ? stdout_errno : EIO));
    }
  return XRLAB_CLI_BAD_INPUT;
}

int
xrlab_cli_stdout_close (int status)
{
  if (!stdout_closed)
    {
      stdout_closed = TRUE;
      xrlab_cli_stdout_flush ();
      /* a write that bypassed xrlab_cli_stdout_write() */
      if (stdout_errno == 0 && ferror (stdout))
        stdout_errno = EIO;
      if (fclose (stdout) != 0 && stdout_errno == 0)
        stdout_errno = errno != 0 ? errno : EIO;
    }
  if (stdout_errno == 0)
    return status;
  xrlab_cli_stdout_fail ();
  return status == XRLAB_CLI_OK ? XRLAB_CLI_BAD_INPUT : status;
}

/* g_print(): through xrlab_cli_stdout_write(), in the locale's charset as
 * GLib's own handler writes it. */
static void
print_handler (const char *text)
{
  const char *charset;

  if (g_get_charset (&charset))
    xrlab_cli_stdout_write (text, strlen (text));
  else
    {
      g_autofree char *converted = g_convert_with_fallback (text, -1, charset, "UTF-8", "?",
                                                            NULL, NULL, NULL);
      if (converted != NULL)
        xrlab_cli_stdout_write (converted, strlen (converted));
    }
}

/* For exit() before main() returns (GLib's option parser after --help). */
static void
close_stdout_at_exit (void)
{
  int status = xrlab_cli_stdout_close (XRLAB_CLI_OK);

  if (status != XRLAB_CLI_OK)
    _exit (status);
}

void
xrlab_cli_stdout_init (void)
{
  g_set_print_handler (print_handler);
  atexit (close_stdout_at_exit);
}

/* ---- interrupts ----------------------------------------------------------- */

static GCancellable *interrupt_cancellable;
static volatile int interrupt_signal;    /* the first signal, 0 before */
static GMutex temp_lock;
static char *temp_file;                  /* removed before a hard exit */

static gboolean
on_interrupt (gpointer data)
{
  int signo = GPOINTER_TO_INT (data);

  if (g_cancellable_is_cancelled (interrupt_cancellable))
    {
      /* a second signal: stop now, without the file being written */
      g_mutex_lock (&temp_lock);
      if (temp_file != NULL)
        (void) unlink (temp_file);
      _exit (128 + interrupt_signal);
    }
  interrupt_signal = signo;
  g_printerr ("\n%s\n", _("xrlab-cli: interrupted; stopping (press Ctrl-C again to quit at once)"));
  g_cancellable_cancel (interrupt_cancellable);
  return G_SOURCE_CONTINUE;
}

int
xrlab_cli_interrupt_status (void)
{
  return interrupt_signal != 0 ? 128 + interrupt_signal : XRLAB_CLI_INTERRUPTED;
}

void
xrlab_cli_interrupt_set_temp_file (const char *path)
{
  g_mutex_lock (&temp_lock);
  g_free (temp_file);
  temp_file = g_strdup (path);
  g_mutex_unlock (&temp_lock);
}

/* The signals are delivered through a main context of their own, iterated
 * by this thread, because the commands run their work synchronously. */
static gpointer
interrupt_thread (gpointer data)
{
  GMainContext *context = data;

  for (;;)
    g_main_context_iteration (context, TRUE);
  return NULL;
}

GCancellable *
xrlab_cli_interrupt_cancellable (void)
{
  static gsize once = 0;

  if (g_once_init_enter (&once))
    {
      GMainContext *context = g_main_context_new ();
      int signals[] = { SIGINT, SIGTERM };

      interrupt_cancellable = g_cancellable_new ();
      for (gsize i = 0; i < G_N_ELEMENTS (signals); i++)
        {
          GSource *source = g_unix_signal_source_new (signals[i]);
          g_source_set_callback (source, on_interrupt, GINT_TO_POINTER (signals[i]), NULL);
          g_source_attach (source, context);
          g_source_unref (source);
        }
      g_thread_unref (g_thread_new ("xrlab-cli-signals", interrupt_thread, context));
      g_once_init_leave (&once, 1);
    }
  return interrupt_cancellable;
}
