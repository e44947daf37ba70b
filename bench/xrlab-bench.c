/* xrlab-bench.c -- benchmarks of the engine, the models, the fits and the GUI
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench-private.h"
#include "xrlab-init.h"

static gboolean failed = FALSE;

static int
compare_doubles (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

double
xrlab_bench_quantile (double *v, gsize n, double q)
{
  gsize k;

  if (n == 0)
    return 0.0;
  qsort (v, n, sizeof *v, compare_doubles);
  k = (gsize) (q * (double) n + 0.999999);
  if (k < 1)
    k = 1;
  if (k > n)
    k = n;
  return v[k - 1];
}

double
xrlab_bench_median (double *v, gsize n)
{
  if (n == 0)
    return 0.0;
  qsort (v, n, sizeof *v, compare_doubles);
  return (n % 2) ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

void
xrlab_bench_report (const char *key, double value)
{
  printf ("%s=%.6g\n", key, value);
  fflush (stdout);
}

void
xrlab_bench_check (gboolean ok, const char *format, ...)
{
  va_list args;

  if (ok)
    return;
  failed = TRUE;
  va_start (args, format);
  fputs ("CHECK FAILED: ", stdout);
  vprintf (format, args);
  fputc ('\n', stdout);
  va_end (args);
  fflush (stdout);
}

gboolean
xrlab_bench_failed (void)
{
  return failed;
}

void
xrlab_bench_consume (const void *p)
{
  __asm__ volatile ("" : : "r" (p) : "memory");
}

static const XrlabBenchGroup groups[] = {
  /* Groups are added here: optics, engine, models, fit, gui. */
  { "optics", "Optical constants: one point, 1000-energy sweeps, 1000 materials, a 10^7 batch", xrlab_bench_optics },
  { "engine", "Engine thread: edit-to-redraw latency and transfers per redraw", xrlab_bench_engine },
  { "models", "Spectral model plans: evaluation and Jacobian", xrlab_bench_models },
  { "fit", "Least-squares fits (optimizer core on a 2D-sized problem)", xrlab_bench_fit },
  { "fitengine", "The fit service: edit to preview, cancel, Au 4f fits through the engine", xrlab_bench_fitengine },
  { "io", "Numbers to text and back (old and new), CSV and HDF5 files of 2000 x 2000", xrlab_bench_io },
  { "reflect", "Reflectivity of a thick mirror and a 50-period multilayer on 1000 angles, filters", xrlab_bench_reflect },
#ifdef XRLAB_BENCH_GUI
  { "gui", "The window: edit to frame for 5 materials x 1000 points (needs a display)", xrlab_bench_gui },
  { "gui-fit", "The Fit page: Au 4f opened to its map, a value typed to the frame (needs a display)",
    xrlab_bench_gui_fit },
#endif
  { NULL, NULL, NULL },
};

static void
print_help (FILE *out)
{
  fprintf (out, "Usage: xrlab-bench GROUP... | all\n\nGroups:\n");
  for (gsize i = 0; groups[i].name != NULL; i++)
    fprintf (out, "  %-8s %s\n", groups[i].name, groups[i].summary);
}

int
main (int argc, char **argv)
{
  gboolean ran = FALSE;

  xrlab_init ();
  if (argc < 2 || strcmp (argv[1], "--help") == 0)
    {
      print_help (argc < 2 ? stderr : stdout);
      return argc < 2 ? 2 : 0;
    }
  for (int a = 1; a < argc; a++)
    {
      gboolean found = FALSE;
      for (gsize i = 0; groups[i].name != NULL; i++)
        if (strcmp (argv[a], "all") == 0 || strcmp (argv[a], groups[i].name) == 0)
          {
            /* "all" runs every group except gui, which needs a display. */
            if (strcmp (argv[a], "all") == 0 && g_str_has_prefix (groups[i].name, "gui"))
              continue;
            found = TRUE;
            if (groups[i].run (1, &argv[a]) != 0)
              failed = TRUE;
          }
      if (!found)
        {
          fprintf (stderr, "xrlab-bench: unknown group “%s”\n", argv[a]);
          print_help (stderr);
          return 2;
        }
      ran = TRUE;
    }
  return (ran && !failed) ? 0 : 1;
}
