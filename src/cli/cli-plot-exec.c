/* cli-plot-exec.c -- xrlab-cli plot, in the helper program xrlab-cli-plot
 *
 * The plot renderer (PLplot, cairo, Pango and what they load) is linked
 * into xrlab-cli-plot only, so that no other command pays for loading it.
 * xrlab-cli plot ARGS replaces itself with xrlab-cli-plot plot ARGS: the
 * same arguments, standard streams and exit status. The helper is looked
 * for next to the running program first (the build tree keeps both in
 * src/cli/), then in the configured libexecdir.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "cli-private.h"

#define PLOT_HELPER "xrlab-cli-plot"

int
xrlab_cli_plot_exec (int argc, char **argv)
{
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *beside = NULL;
  g_autofree char *installed = g_build_filename (XRLAB_LIBEXECDIR, PLOT_HELPER, NULL);
  g_autofree char **args = g_new0 (char *, argc + 2);
  const char *helper = installed;
  int saved;

  if (self != NULL)
    {
      g_autofree char *dir = g_path_get_dirname (self);

      beside = g_build_filename (dir, PLOT_HELPER, NULL);
      if (g_file_test (beside, G_FILE_TEST_IS_EXECUTABLE))
        helper = beside;
    }
  /* argv[0] is "plot": the helper reads its arguments after its own name. */
  args[0] = (char *) helper;
  for (int i = 0; i < argc; i++)
    args[i + 1] = argv[i];
  execv (helper, args);
  saved = errno;
  return xrlab_cli_failf (_("plot: cannot run the plot program %s: %s"),
                          helper, g_strerror (saved));
}
