/* xrlab-cli.c -- the xrlab engine without a display
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <string.h>

#include <glib/gi18n.h>

#include "cli-private.h"
#include "xrlab-init.h"

/* With the renderer, plot runs in xrlab-cli-plot (cli-plot-exec.c) so that
 * this program does not load it. */
#ifdef XRLAB_HAVE_RENDER
#define PLOT_COMMAND xrlab_cli_plot_exec
#else
#define PLOT_COMMAND xrlab_cli_plot
#endif

static const XrlabCliCommand commands[] = {
  /* optical constants */
  { "calc", N_("Optical constants of a material on an energy grid"), xrlab_cli_calc },
  { "batch", N_("Optical constants of many materials from a CSV file"), xrlab_cli_batch },
  { "compare", N_("One quantity of several materials side by side"), xrlab_cli_compare },
  { "convert", N_("Photon energy ↔ wavelength"), xrlab_cli_convert },
  { "formula", N_("Composition, molar mass and electrons of a formula"), xrlab_cli_formula },
  { "edges", N_("Absorption-edge energies of elements"), xrlab_cli_edges },
  { "materials", N_("Preset materials and their densities"), xrlab_cli_materials },
  { "plot", N_("A figure (PNG, SVG, PDF) of one quantity of several materials"), PLOT_COMMAND },

  /* mirrors, multilayers, filters */
  { "reflect", N_("Reflectivity of a mirror or multilayer vs angle and energy"), xrlab_cli_reflect },
  { "filter", N_("Transmission of filters and gas paths vs energy"), xrlab_cli_filter },

  /* spectral models and fitting */
  { "eval", N_("Evaluate a spectral model on energy (and delay) axes"), xrlab_cli_eval },
  { "params", N_("List the parameters of a spectral model and θ's order"), xrlab_cli_params },
  { "simulate", N_("Synthetic data from a spectral model, with noise"), xrlab_cli_simulate },
  { "fit", N_("Fit a spectral model: baseline, slice by slice, global 2D"), xrlab_cli_fit },
  { "fit-trace", N_("Fit a slice-by-slice trace against delay with a time model"),
    xrlab_cli_fit_trace },

  { "version", N_("Print the version"), xrlab_cli_version },
};

static void
print_help (gboolean to_stderr)
{
  g_autoptr(GString) s = g_string_new (NULL);

  g_string_append (s, _("Usage: xrlab-cli COMMAND [OPTIONS...]\n\n"
                        "X-ray optical constants and time-resolved spectral fitting.\n\n"
                        "Commands:\n"));
  for (gsize i = 0; i < G_N_ELEMENTS (commands); i++)
    g_string_append_printf (s, "  %-10s %s\n", commands[i].name, _(commands[i].summary));
  g_string_append (s, _("\nRun “xrlab-cli COMMAND --help” for the options of a command.\n"
                        "Exit status: 0 success, 1 bad input, 2 usage error.\n"));
  if (to_stderr)
    g_printerr ("%s", s->str);
  else
    g_print ("%s", s->str);
}

static int
run (int argc, char **argv)
{
  if (argc < 2 || strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0
      || strcmp (argv[1], "help") == 0)
    {
      print_help (FALSE);
      return XRLAB_CLI_OK;
    }
  if (strcmp (argv[1], "--version") == 0)
    return xrlab_cli_version (argc - 1, argv + 1);

  for (gsize i = 0; i < G_N_ELEMENTS (commands); i++)
    if (strcmp (argv[1], commands[i].name) == 0)
      return commands[i].run (argc - 1, argv + 1);

  {
    g_autofree char *msg = g_strdup_printf (_("unknown command “%s”"), argv[1]);
    g_printerr ("xrlab-cli: %s\n\n", msg);
  }
  print_help (TRUE);
  return XRLAB_CLI_USAGE;
}

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, xrlab_locale_dir ());
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  xrlab_init ();
  /* A failed write to stdout fails the command, whichever it is. */
  xrlab_cli_stdout_init ();
  return xrlab_cli_stdout_close (run (argc, argv));
}
