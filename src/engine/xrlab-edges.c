/* xrlab-edges.c -- absorption edges in tabulated scattering factors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-edges.h"

#include <math.h>

#include "xrlab-xraylib-data.h"

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
 * falling f2 counts as 0 (a rise is compared with rises). */
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

gboolean
xrlab_edges_is_step (const double *e, const double *f2, gsize k)
{
  double h = e[k + 1] - e[k];

  if (h == 0.0)
    return TRUE;
  return h > 0.0 && h <= XRLAB_EDGE_STEP_MAX_WIDTH_EV && rises (f2, k);
}

gsize
xrlab_edges_find_steps (const double *e, const double *f2, gsize n, gsize *rows)
{
  gsize count = 0;

  for (gsize k = 0; k + 1 < n; k++)
    if (xrlab_edges_is_step (e, f2, k))
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

      if (!(h > 0.0) || !rises (f2, k) || xrlab_edges_is_step (e, f2, k))
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

/* A candidate position: a step closer than the table's regular grid, or a
 * resolved rise. */
typedef struct {
  gsize row;
  gboolean step;
  double slope;
  int shell;
  double xraylib_ev;
} Candidate;

static int
compare_rows (gconstpointer a, gconstpointer b)
{
  const Candidate *x = a, *y = b;
  return (x->row > y->row) - (x->row < y->row);
}

gsize
xrlab_edges_find_positions (int z, const double *e, const double *f2, gsize n,
                            XrlabEdgePosition *positions)
{
  g_autofree gsize *rows = g_new (gsize, MAX (n, 1));
  g_autoptr(GArray) cand = g_array_new (FALSE, FALSE, sizeof (Candidate));
  gsize n_rows, count = 0;

  n_rows = xrlab_edges_find_steps (e, f2, n, rows);
  for (gsize i = 0; i < n_rows; i++)
    if (e[rows[i] + 1] - e[rows[i]] <= XRLAB_EDGE_RISE_MAX_WIDTH * e[rows[i]])
      {
        Candidate c = { rows[i], TRUE, xrlab_edges_log_slope (e, f2, rows[i], rows[i] + 1), -1, NAN };
        g_array_append_val (cand, c);
      }
  n_rows = xrlab_edges_find_rises (e, f2, n, rows);
  for (gsize i = 0; i < n_rows; i++)
    {
      Candidate c = { rows[i], FALSE, xrlab_edges_log_slope (e, f2, rows[i], rows[i] + 1), -1, NAN };
      g_array_append_val (cand, c);
    }
  for (guint i = 0; i < cand->len; i++)
    {
      Candidate *c = &g_array_index (cand, Candidate, i);
      c->shell = xrlab_edges_nearest_shell (z, 0.5 * (e[c->row] + e[c->row + 1]), &c->xraylib_ev);
    }
  g_array_sort (cand, compare_rows);
  /* One per shell: the steepest, the lowest row of equally steep ones. */
  for (guint i = 0; i < cand->len; i++)
    {
      const Candidate *c = &g_array_index (cand, Candidate, i);
      gboolean best = TRUE;

      for (guint j = 0; j < cand->len && best; j++)
        {
          const Candidate *d = &g_array_index (cand, Candidate, j);
          if (j != i && d->shell == c->shell)
            best = !(d->slope > c->slope || (d->slope == c->slope && d->row < c->row));
        }
      if (best)
        positions[count++] = (XrlabEdgePosition) { c->row, c->step, c->shell, c->xraylib_ev };
    }
  return count;
}

static const char *const shell_names[XRLAB_EDGES_N_SHELLS] = {
  "K", "L1", "L2", "L3", "M1", "M2", "M3", "M4", "M5",
  "N1", "N2", "N3", "N4", "N5", "N6", "N7",
  "O1", "O2", "O3", "O4", "O5", "O6", "O7",
  "P1", "P2", "P3", "P4", "P5",
};

/* (data/gen-xraylib-data.c checks xraylib's numbering) */
G_STATIC_ASSERT ((int) XRLAB_EDGES_N_SHELLS == (int) XRLAB_XRAYLIB_N_SHELLS);

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
      double kev = xrlab_xraylib_edge (z, shell), d;

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
