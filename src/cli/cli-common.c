/* cli-common.c -- option parsing and error reporting shared by subcommands
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "cli-private.h"
#include "xrlab-util.h"

#include <glib/gi18n.h>
#include <glib-unix.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

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

/* ---- interrupts ----------------------------------------------------------- */

static GCancellable *interrupt_cancellable;

static gboolean
on_interrupt (gpointer data)
{
  if (g_cancellable_is_cancelled (interrupt_cancellable))
    _exit (XRLAB_CLI_INTERRUPTED);   /* a second Ctrl-C: stop now */
  g_printerr ("\n%s\n", _("xrlab-cli: interrupted; stopping (press Ctrl-C again to quit at once)"));
  g_cancellable_cancel (interrupt_cancellable);
  return G_SOURCE_CONTINUE;
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
          g_source_set_callback (source, on_interrupt, NULL, NULL);
          g_source_attach (source, context);
          g_source_unref (source);
        }
      g_thread_unref (g_thread_new ("xrlab-cli-signals", interrupt_thread, context));
      g_once_init_leave (&once, 1);
    }
  return interrupt_cancellable;
}
