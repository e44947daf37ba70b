/* xrlab-cli-plot.c -- the program behind xrlab-cli plot (cli-plot-exec.c)
 *
 * Run as xrlab-cli-plot plot ARGS by xrlab-cli; the same set-up as
 * xrlab-cli's main (), then the plot command.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <locale.h>
#include <string.h>

#include <glib/gi18n.h>

#include "cli-private.h"
#include "xrlab-init.h"

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, xrlab_locale_dir ());
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  if (argc < 2 || strcmp (argv[1], "plot") != 0)
    {
      g_printerr ("%s\n", _("xrlab-cli-plot is run by “xrlab-cli plot”; run that instead."));
      return XRLAB_CLI_USAGE;
    }
  xrlab_init ();
  xrlab_cli_stdout_init ();
  return xrlab_cli_stdout_close (xrlab_cli_plot (argc - 1, argv + 1));
}
