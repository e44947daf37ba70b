/* cli-common.c -- option parsing and error reporting shared by subcommands
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "cli-private.h"

#include <glib/gi18n.h>
#include <stdio.h>

gboolean
xrlab_cli_parse (GOptionContext *context, int *argc, char ***argv)
{
  g_autoptr(GError) error = NULL;

  if (!g_option_context_parse (context, argc, argv, &error))
    {
      const char *name = (*argc > 0) ? (*argv)[0] : "xrlab-cli";
      g_printerr ("xrlab-cli %s: %s\n", name, error->message);
      g_printerr (_("Try “xrlab-cli %s --help”.\n"), name);
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
