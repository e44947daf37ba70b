/* test-edges.c -- absorption edges in tabulated f2: the rules on synthetic
 * data, xraylib's shells
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include <glib.h>

#include "xrlab-edges.h"
#include "xrlab-init.h"

/* Rows out of order: where E steps back, the earlier rows at or above it go. */
static void
test_keep_in_order (void)
{
  const double si[] = { 1815.0, 1838.8, 1839.0, 1838.9, 1860.0 };
  const double deep[] = { 1, 2, 3, 4, 2.5, 5 };
  const double same[] = { 1, 2, 2, 3 };
  gboolean keep[6];

  g_assert_cmpuint (xrlab_edges_keep_in_order (si, 5, keep), ==, 4);
  g_assert_true (keep[0] && keep[1] && !keep[2] && keep[3] && keep[4]);
  g_assert_cmpuint (xrlab_edges_keep_in_order (deep, 6, keep), ==, 4);
  g_assert_true (keep[0] && keep[1] && !keep[2] && !keep[3] && keep[4] && keep[5]);
  /* A repeated energy stays (a step of zero width). */
  g_assert_cmpuint (xrlab_edges_keep_in_order (same, 4, keep), ==, 4);
}

/* A grid like Henke's: 1.6 % steps in E; f2 rising evenly 8 % a row at low
 * energy (no edge), a pair 0.2 eV apart with a jump (a step), and a rise
 * resolved over a refined grid (a rise, not a step). */
static void
test_rules (void)
{
  double e[200], f2[200];
  gsize n = 0, rows[200], n_steps, n_rises;

  for (int i = 0; i < 40; i++, n++)
    {
      e[n] = 10.0 * pow (1.016, i);
      f2[n] = 1.0 * pow (1.08, i);
    }
  /* 100 .. 300 eV: smooth, with a step at 200 eV (199.9 / 200.1). */
  for (double x = 100.0; x < 300.0; x *= 1.016)
    {
      e[n] = x;
      f2[n++] = (x < 200.0 ? 2.0 : 20.0) * pow (200.0 / x, 2);
      if (x < 200.0 && x * 1.016 > 200.0)
        {
          e[n] = 199.9;
          f2[n++] = 2.0 * pow (200.0 / 199.9, 2);
          e[n] = 200.1;
          f2[n++] = 20.0 * pow (200.0 / 200.1, 2);
        }
    }
  for (gsize i = 0; i + 1 < n; i++)
    g_assert_cmpfloat (e[i + 1], >, e[i]);
  /* Around 1000 eV: rows 1 eV apart, f2 from 1 to 3 over 5 rows. */
  {
    const double rise[] = { 1.0, 1.04, 1.3, 2.6, 2.95, 3.0 };
    for (int i = 0; i < 6; i++, n++)
      {
        e[n] = 997.0 + i;
        f2[n] = rise[i];
      }
  }
  g_assert_cmpuint (n, <=, G_N_ELEMENTS (e));
  n_steps = xrlab_edges_find_steps (e, f2, n, rows);
  g_assert_cmpuint (n_steps, ==, 1);
  g_assert_cmpfloat (e[rows[0]], ==, 199.9);
  g_assert_cmpfloat (e[rows[0] + 1], ==, 200.1);
  n_rises = xrlab_edges_find_rises (e, f2, n, rows);
  g_assert_cmpuint (n_rises, ==, 1);
  g_assert_cmpfloat (e[rows[0]], ==, 999.0);     /* 1.3 -> 2.6, the steepest */

  /* Rule 1: the same jump over 0.6 eV is no step. */
  {
    const double ew[] = { 100, 101.6, 103.2, 103.8, 105.4, 107 };
    const double fw[] = { 1, 1, 1, 10, 10, 10 };
    g_assert_cmpuint (xrlab_edges_find_steps (ew, fw, 6, rows), ==, 0);
  }
  /* Rule 2: a rise of 5 % is none. */
  {
    const double ew[] = { 100, 101.6, 103.2, 103.4, 105, 106.6 };
    const double fw[] = { 1, 1, 1, 1.05, 1.05, 1.05 };
    g_assert_cmpuint (xrlab_edges_find_steps (ew, fw, 6, rows), ==, 0);
  }
  /* From f2 = 0 (H, He in Chantler): a step of infinite slope. */
  {
    const double ew[] = { 10, 11, 12, 12.0001, 13, 14 };
    const double fw[] = { 0, 0, 0, 1.0, 0.9, 0.8 };
    g_assert_cmpuint (xrlab_edges_find_steps (ew, fw, 6, rows), ==, 1);
    g_assert_cmpuint (rows[0], ==, 2);
    g_assert_true (isinf (xrlab_edges_log_slope (ew, fw, 2, 3)));
    g_assert_cmpfloat (xrlab_edges_log_slope (ew, fw, 0, 1), ==, 0.0);
  }
}

static void
test_shells (void)
{
  double ev = 0.0;

  g_assert_cmpstr (xrlab_edges_shell_name (0), ==, "K");
  g_assert_cmpstr (xrlab_edges_shell_name (3), ==, "L3");
  g_assert_cmpstr (xrlab_edges_shell_name (13), ==, "N5");
  g_assert_cmpstr (xrlab_edges_shell_name (27), ==, "P5");
  g_assert_cmpint (xrlab_edges_nearest_shell (8, 543.1, &ev), ==, 0);
  g_assert_cmpfloat_with_epsilon (ev, 532.0, 1e-9);
  g_assert_cmpint (xrlab_edges_nearest_shell (29, 932.5, &ev), ==, 3);
  g_assert_cmpfloat_with_epsilon (ev, 931.1, 1e-9);
  g_assert_cmpint (xrlab_edges_nearest_shell (29, 100000.0, &ev), ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  xrlab_init ();
  g_test_add_func ("/edges/keep-in-order", test_keep_in_order);
  g_test_add_func ("/edges/rules", test_rules);
  g_test_add_func ("/edges/shells", test_shells);
  return g_test_run ();
}
