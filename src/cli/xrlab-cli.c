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

static const XrlabCliCommand commands[] = {
  /* optical constants */
  { "calc", "Optical constants of a material on an energy grid", xrlab_cli_calc },
  { "batch", "Optical constants of many materials from a CSV file", xrlab_cli_batch },
  { "compare", "One quantity of several materials side by side", xrlab_cli_compare },
  { "convert", "Photon energy ↔ wavelength", xrlab_cli_convert },
  { "formula", "Composition, molar mass and electrons of a formula", xrlab_cli_formula },
  { "edges", "Absorption-edge energies of elements", xrlab_cli_edges },
  { "materials", "Preset materials and their densities", xrlab_cli_materials },

  /* spectral models and fitting */
  { "eval", "Evaluate a spectral model on energy (and delay) axes", xrlab_cli_eval },
  { "params", "List the parameters of a spectral model and θ's order", xrlab_cli_params },
  { "simulate", "Synthetic data from a spectral model, with noise", xrlab_cli_simulate },
  { "fit", "Fit a spectral model: baseline, slice by slice, global 2D", xrlab_cli_fit },

  { "version", "Print the version", xrlab_cli_version },
};

static void
print_help (FILE *out)
{
  fprintf (out,
           "Usage: xrlab-cli COMMAND [OPTIONS...]\n\n"
           "X-ray optical constants and time-resolved spectral fitting.\n\n"
           "Commands:\n");
  for (gsize i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (out, "  %-10s %s\n", commands[i].name, commands[i].summary);
  fprintf (out, "\nRun “xrlab-cli COMMAND --help” for the options of a command.\n"
                "Exit status: 0 success, 1 bad input, 2 usage error.\n");
}

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, xrlab_locale_dir ());
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  xrlab_init ();

  if (argc < 2 || strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0
      || strcmp (argv[1], "help") == 0)
    {
      print_help (stdout);
      return 0;
    }
  if (strcmp (argv[1], "--version") == 0)
    return xrlab_cli_version (argc - 1, argv + 1);

  for (gsize i = 0; i < G_N_ELEMENTS (commands); i++)
    if (strcmp (argv[1], commands[i].name) == 0)
      return commands[i].run (argc - 1, argv + 1);

  g_printerr ("xrlab-cli: unknown command “%s”\n\n", argv[1]);
  print_help (stderr);
  return 2;
}
