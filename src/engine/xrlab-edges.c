/* xrlab-edges.c -- absorption edges in tabulated scattering factors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-edges.h"

#include <math.h>

#include <xraylib.h>

gsize
xrlab_edges_keep_in_order (const double *e, gsize n, gboolean *keep)
{
  gsize kept = 0;
  gssize last = -1;   /* the last row kept */

  for (gsize i = 0; i < n; i++)
    {
      /* Where E steps back, drop the kept rows at or above it. */
      while (last >= 0 && e[last] > e[i])
        {
          keep[last] = FALSE;
          kept--;
          do
            last--;
          while (last >= 0 && !keep[last]);
        }
      keep[i] = TRUE;
      kept++;
      last = (gssize) i;
    }
  return kept;
}

double
xrlab_edges_log_slope (const double *e, const double *f2, gsize a, gsize b)
{
  if (!(e[b] > e[a]))
    return 0.0;
  if (!(f2[a] > 0.0))
    return f2[b] > 0.0 ? INFINITY : 0.0;
  if (!(f2[b] > 0.0))
    return -INFINITY;
  return log (f2[b] / f2[a]) / log (e[b] / e[a]);
}

/* The slope of the interval starting at row k, or 0 outside the table; a
 * falling f2 counts as 0 (rule 3 compares rises). */
static double
rise_slope (const double *e, const double *f2, gsize n, gssize k)
{
  double s;

  if (k < 0 || (gsize) k + 1 >= n)
    return 0.0;
  s = xrlab_edges_log_slope (e, f2, (gsize) k, (gsize) k + 1);
  return s > 0.0 ? s : 0.0;
}

static gboolean
rises (const double *f2, gsize k)
{
  return f2[k + 1] > XRLAB_EDGE_MIN_RISE * f2[k];
}

static gboolean
is_step (const double *e, const double *f2, gsize n, gsize k)
{
  double h = e[k + 1] - e[k];
  double s, before, after;

  if (h == 0.0)
    return TRUE;
  if (!(h > 0.0 && h <= XRLAB_EDGE_STEP_MAX_WIDTH_EV) || !rises (f2, k))
    return FALSE;
  s = rise_slope (e, f2, n, (gssize) k);
  before = rise_slope (e, f2, n, (gssize) k - 1);
  after = rise_slope (e, f2, n, (gssize) k + 1);
  return s >= XRLAB_EDGE_STEP_DOMINANCE * before && s >= XRLAB_EDGE_STEP_DOMINANCE * after;
}

gsize
xrlab_edges_find_steps (const double *e, const double *f2, gsize n, gsize *rows)
{
  gsize count = 0;

  for (gsize k = 0; k + 1 < n; k++)
    if (is_step (e, f2, n, k))
      rows[count++] = k;
  return count;
}

gsize
xrlab_edges_find_rises (const double *e, const double *f2, gsize n, gsize *rows)
{
  gsize count = 0;

  for (gsize k = 0; k + 1 < n; k++)
    {
      double h = e[k + 1] - e[k], s;

      if (!(h > 0.0) || !rises (f2, k) || is_step (e, f2, n, k))
        continue;
      if (h > XRLAB_EDGE_STEP_MAX_WIDTH_EV && h > XRLAB_EDGE_RISE_MAX_WIDTH * e[k])
        continue;
      s = rise_slope (e, f2, n, (gssize) k);
      if (s < XRLAB_EDGE_RISE_MIN_SLOPE
          || s < rise_slope (e, f2, n, (gssize) k - 1)
          || !(s > rise_slope (e, f2, n, (gssize) k + 1)))
        continue;
      rows[count++] = k;
    }
  return count;
}

static const char *const shell_names[XRLAB_EDGES_N_SHELLS] = {
  "K", "L1", "L2", "L3", "M1", "M2", "M3", "M4", "M5",
  "N1", "N2", "N3", "N4", "N5", "N6", "N7",
  "O1", "O2", "O3", "O4", "O5", "O6", "O7",
  "P1", "P2", "P3", "P4", "P5",
};

G_STATIC_ASSERT (K_SHELL == 0 && M5_SHELL == 8 && N1_SHELL == 9 && O1_SHELL == 16
                 && P1_SHELL == 23 && P5_SHELL == 27);

const char *
xrlab_edges_shell_name (int shell)
{
  g_return_val_if_fail (shell >= 0 && shell < XRLAB_EDGES_N_SHELLS, NULL);
  return shell_names[shell];
}

int
xrlab_edges_nearest_shell (int z, double energy_ev, double *xraylib_ev)
{
  int best = -1;
  double best_d = INFINITY, best_e = NAN;

  for (int shell = 0; shell < XRLAB_EDGES_N_SHELLS; shell++)
    {
      xrl_error *xerr = NULL;
      double kev = EdgeEnergy (z, shell, &xerr), d;

      if (xerr != NULL)
        {
          xrl_error_free (xerr);
          continue;
        }
      if (!(kev > 0.0) || !isfinite (kev))
        continue;
      d = fabs (log (kev * 1000.0 / energy_ev));
      if (d < best_d)
        {
          best_d = d;
          best = shell;
          best_e = kev * 1000.0;
        }
    }
  if (xraylib_ev)
    *xraylib_ev = best_e;
  return best;
}
