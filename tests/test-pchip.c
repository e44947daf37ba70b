/* test-pchip.c -- PCHIP: SciPy parity on every Henke table, shape
 * preservation, segments, splits at edges, hints, bad input
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include <glib.h>

#include "xrlab-elements.h"
#include "xrlab-init.h"
#include "xrlab-pchip.h"
#include "xrlab-util.h"

/* tests/data/pchip-scipy.csv: SciPy's PchipInterpolator on the same tables
 * (tests/data/README.md). Every value within 1e-12 relative. */
static void
test_scipy_parity (void)
{
  g_autofree char *path = g_build_filename (XRLAB_TEST_SRCDIR, "data", "pchip-scipy.csv", NULL);
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GError) error = NULL;
  guint n_checked = 0;
  double worst = 0.0;

  g_assert_true (g_file_get_contents (path, &contents, NULL, &error));
  g_assert_no_error (error);
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) f = NULL;
      const XrlabHenkeTable *t;
      const XrlabPchip *p;
      double e, expected, got, got_hint;
      gsize hint;
      int id;

      if (lines[i][0] == '#' || lines[i][0] == '\0' || g_str_has_prefix (lines[i], "symbol,"))
        continue;
      f = g_strsplit (lines[i], ",", -1);
      g_assert_cmpuint (g_strv_length (f), ==, 4);
      id = xrlab_element_lookup (f[0], -1);
      g_assert_cmpint (id, >, 0);
      t = xrlab_henke_get (id, &error);
      g_assert_no_error (error);
      p = strcmp (f[1], "f1") == 0 ? t->f1 : t->f2;
      g_assert_true (xrlab_parse_double (f[2], FALSE, &e));
      g_assert_true (xrlab_parse_double (f[3], FALSE, &expected));

      got = xrlab_pchip_eval (p, e, NULL);
      /* A hint from anywhere gives the same interval. */
      hint = (gsize) g_test_rand_int_range (0, (gint32) xrlab_pchip_get_n_intervals (p));
      got_hint = xrlab_pchip_eval (p, e, &hint);
      g_assert_cmpfloat (got, ==, got_hint);

      if (fabs (got - expected) > 1e-12 * fabs (expected))
        g_error ("%s %s at %.17g eV: xrlab %.17g, SciPy %.17g (line %u)",
                 f[0], f[1], e, got, expected, i + 1);
      if (expected != 0.0)
        worst = MAX (worst, fabs (got - expected) / fabs (expected));
      n_checked++;
    }
  g_assert_cmpuint (n_checked, >, 10000);
  g_test_message ("%u values of 92 elements, worst relative difference %.3g", n_checked, worst);
}

/* Monotone data give a monotone interpolant: no overshoot next to a step. */
static void
test_monotone (void)
{
  const double x[] = { 0, 1, 2, 3, 3.1, 4, 5, 6 };
  const double y[] = { 0, 0, 0, 0, 10, 10, 10, 10 };
  g_autoptr(XrlabPchip) p = xrlab_pchip_new (x, y, G_N_ELEMENTS (x), NULL);
  double prev = -1.0;

  g_assert_nonnull (p);
  for (double t = 0.0; t <= 6.0; t += 0.001)
    {
      double v = xrlab_pchip_eval (p, t, NULL);
      g_assert_cmpfloat (v, >=, prev - 1e-12);
      g_assert_cmpfloat (v, >=, 0.0);
      g_assert_cmpfloat (v, <=, 10.0);
      prev = v;
    }
  /* Interpolation: the nodes come back. */
  for (gsize i = 0; i < G_N_ELEMENTS (x); i++)
    g_assert_cmpfloat_with_epsilon (xrlab_pchip_eval (p, x[i], NULL), y[i], 1e-12);
}

/* Two points: the straight line; a cubic through data of a cubic is not
 * exact, but a straight line is. */
static void
test_linear (void)
{
  const double x2[] = { 1, 3 }, y2[] = { 2, 6 };
  const double x5[] = { 0, 1, 2.5, 4, 7 }, y5[] = { 1, 3, 6, 9, 15 };
  g_autoptr(XrlabPchip) a = xrlab_pchip_new (x2, y2, 2, NULL);
  g_autoptr(XrlabPchip) b = xrlab_pchip_new (x5, y5, 5, NULL);

  for (double t = 1.0; t <= 3.0; t += 0.125)
    g_assert_cmpfloat_with_epsilon (xrlab_pchip_eval (a, t, NULL), 2 * t, 1e-14);
  for (double t = 0.0; t <= 7.0; t += 0.125)
    g_assert_cmpfloat_with_epsilon (xrlab_pchip_eval (b, t, NULL), 1 + 2 * t, 1e-12);
  g_assert_true (isnan (xrlab_pchip_eval (a, 0.999, NULL)));
  g_assert_true (isnan (xrlab_pchip_eval (a, 3.001, NULL)));
  g_assert_cmpuint (xrlab_pchip_get_n_segments (a), ==, 1);
}

/* A repeated x starts a new segment: left of it the first, from it on the
 * second; neither segment sees the other's values. */
static void
test_repeated_x (void)
{
  const double x[] = { 0, 1, 2, 2, 3, 4 };
  const double y[] = { 0, 1, 2, 10, 11, 12 };
  g_autoptr(XrlabPchip) p = xrlab_pchip_new (x, y, G_N_ELEMENTS (x), NULL);

  g_assert_cmpuint (xrlab_pchip_get_n_segments (p), ==, 2);
  g_assert_cmpuint (xrlab_pchip_get_n_intervals (p), ==, 4);
  /* Each side is exactly linear: no ringing from the step. */
  g_assert_cmpfloat_with_epsilon (xrlab_pchip_eval (p, 1.5, NULL), 1.5, 1e-14);
  g_assert_cmpfloat_with_epsilon (xrlab_pchip_eval (p, 1.999999, NULL), 1.999999, 1e-12);
  g_assert_cmpfloat (xrlab_pchip_eval (p, 2.0, NULL), ==, 10.0);
  g_assert_cmpfloat_with_epsilon (xrlab_pchip_eval (p, 2.5, NULL), 10.5, 1e-14);
  g_assert_cmpfloat_with_epsilon (xrlab_pchip_eval (p, 4.0, NULL), 12.0, 1e-14);
}

/* x steps back (as in the Si table near 1839 eV): the new segment takes
 * over from its first x. */
static void
test_step_back (void)
{
  const double x[] = { 0, 1, 2, 3, 2.5, 4, 5 };
  const double y[] = { 0, 1, 2, 3, 20, 21, 22 };
  g_autoptr(XrlabPchip) p = xrlab_pchip_new (x, y, G_N_ELEMENTS (x), NULL);

  g_assert_cmpuint (xrlab_pchip_get_n_segments (p), ==, 2);
  g_assert_cmpfloat (xrlab_pchip_get_x_min (p), ==, 0.0);
  g_assert_cmpfloat (xrlab_pchip_get_x_max (p), ==, 5.0);
  g_assert_cmpfloat_with_epsilon (xrlab_pchip_eval (p, 2.4, NULL), 2.4, 1e-12);
  g_assert_cmpfloat (xrlab_pchip_eval (p, 2.5, NULL), ==, 20.0);
  /* SciPy: PchipInterpolator([2.5, 4, 5], [20, 21, 22])(3.0) */
  g_assert_cmpfloat_with_epsilon (xrlab_pchip_eval (p, 3.0, NULL), 20.272872872872874, 1e-12);

  /* The real Si table has that step (1838.8, 1839.0, 1838.9 eV): the row
   * out of order is dropped and 1838.8-1838.9 eV is the K edge, a straight
   * line between PCHIP below and PCHIP above (xrlab-edges.h). */
  {
    const XrlabHenkeTable *si = xrlab_henke_get (14, NULL);
    double below = xrlab_pchip_eval (si->f2, 1838.8, NULL);
    double mid = xrlab_pchip_eval (si->f2, 1838.85, NULL);
    double top = xrlab_pchip_eval (si->f2, 1838.9, NULL);
    double above = xrlab_pchip_eval (si->f2, 1838.95, NULL);
    /* The K edge and the 18 row pairs of the measured L-edge structure
     * (99.6-100.7 eV) that are steps by the rule (tests/data/table-steps.csv). */
    g_assert_cmpuint (xrlab_pchip_get_n_segments (si->f2), ==, 20);
    g_assert_cmpfloat (below, ==, 0.366843);
    g_assert_cmpfloat (top, ==, 4.15773);
    g_assert_cmpfloat_with_epsilon (mid, 0.5 * (below + top), 1e-9);
    g_assert_cmpfloat (xrlab_pchip_eval (si->f2, 1838.79, NULL), <, 1.0);
    g_assert_cmpfloat (above, >, 4.0);
    g_assert_cmpuint (si->n_rows, ==, xrlab_scattering_table_get (XRLAB_TABLE_HENKE, 14, NULL)->n_rows + 1);
  }
}

/* A break: PCHIP up to its lower row, the straight line to its upper row,
 * PCHIP from there; neither run sees the other's rows. */
static void
test_split (void)
{
  const double x[] = { 0, 1, 2, 3, 3.1, 4, 5, 6 };
  const double y[] = { 0, 1, 4, 9, 30, 31, 33, 36 };
  const gsize breaks[] = { 3 };
  g_autoptr(XrlabPchip) p = xrlab_pchip_new_split (x, y, G_N_ELEMENTS (x), breaks, 1, NULL);
  g_autoptr(XrlabPchip) lo = xrlab_pchip_new (x, y, 4, NULL);
  g_autoptr(XrlabPchip) hi = xrlab_pchip_new (x + 4, y + 4, 4, NULL);

  g_assert_nonnull (p);
  g_assert_cmpuint (xrlab_pchip_get_n_segments (p), ==, 2);
  g_assert_cmpuint (xrlab_pchip_get_n_intervals (p), ==, 7);
  for (double t = 0.0; t <= 3.0; t += 0.0625)
    g_assert_cmpfloat (xrlab_pchip_eval (p, t, NULL), ==, xrlab_pchip_eval (lo, t, NULL));
  for (double t = 3.1; t <= 6.0; t += 0.0625)
    g_assert_cmpfloat_with_epsilon (xrlab_pchip_eval (p, t, NULL), xrlab_pchip_eval (hi, t, NULL), 1e-12);
  g_assert_cmpfloat_with_epsilon (xrlab_pchip_eval (p, 3.05, NULL), 19.5, 1e-12);
  for (gsize i = 0; i < G_N_ELEMENTS (x); i++)
    g_assert_cmpfloat_with_epsilon (xrlab_pchip_eval (p, x[i], NULL), y[i], 1e-12);
  /* Without the break the step leaks into the intervals beside it. */
  {
    g_autoptr(XrlabPchip) whole = xrlab_pchip_new (x, y, G_N_ELEMENTS (x), NULL);
    g_assert_cmpfloat (fabs (xrlab_pchip_eval (whole, 2.5, NULL) - xrlab_pchip_eval (lo, 2.5, NULL)), >, 0.1);
  }
}

/* Breaks next to each other leave a run of one row; a zero-width break is
 * a right-continuous step. */
static void
test_split_edge_cases (void)
{
  const double x[] = { 0, 1, 2, 3, 4 }, y[] = { 0, 1, 5, 6, 7 };
  const gsize two[] = { 1, 2 };
  g_autoptr(XrlabPchip) p = xrlab_pchip_new_split (x, y, 5, two, 2, NULL);
  const double xz[] = { 0, 1, 1, 2 }, yz[] = { 0, 1, 8, 9 };
  const gsize one[] = { 1 };
  g_autoptr(XrlabPchip) z = xrlab_pchip_new_split (xz, yz, 4, one, 1, NULL);

  g_assert_cmpuint (xrlab_pchip_get_n_segments (p), ==, 3);
  g_assert_cmpfloat_with_epsilon (xrlab_pchip_eval (p, 1.5, NULL), 3.0, 1e-14);
  g_assert_cmpfloat_with_epsilon (xrlab_pchip_eval (p, 2.5, NULL), 5.5, 1e-14);
  g_assert_cmpfloat_with_epsilon (xrlab_pchip_eval (p, 0.5, NULL), 0.5, 1e-14);
  g_assert_nonnull (z);
  g_assert_cmpuint (xrlab_pchip_get_n_intervals (z), ==, 2);
  g_assert_cmpfloat (xrlab_pchip_eval (z, 1.0, NULL), ==, 8.0);
  g_assert_cmpfloat_with_epsilon (xrlab_pchip_eval (z, 0.999, NULL), 0.999, 1e-12);
  g_assert_cmpfloat_with_epsilon (xrlab_pchip_eval (z, 1.5, NULL), 8.5, 1e-12);
}

static void
test_split_bad_input (void)
{
  const double x[] = { 0, 1, 2, 2, 3 }, y[] = { 0, 1, 2, 3, 4 };
  const gsize late[] = { 4 }, back[] = { 2, 1 }, at_dup[] = { 2 };
  g_autoptr(GError) error = NULL;

  /* A repeated x without a break there. */
  g_assert_null (xrlab_pchip_new_split (x, y, 5, NULL, 0, &error));
  g_assert_error (error, XRLAB_PCHIP_ERROR, XRLAB_PCHIP_ERROR_DATA);
  g_assert_nonnull (strstr (error->message, "point 4"));
  g_clear_error (&error);
  g_assert_null (xrlab_pchip_new_split (x, y, 5, late, 1, &error));
  g_assert_error (error, XRLAB_PCHIP_ERROR, XRLAB_PCHIP_ERROR_DATA);
  g_clear_error (&error);
  g_assert_null (xrlab_pchip_new_split (x, y, 5, back, 2, &error));
  g_assert_error (error, XRLAB_PCHIP_ERROR, XRLAB_PCHIP_ERROR_DATA);
  g_clear_error (&error);
  g_assert_null (xrlab_pchip_new_split (x, y, 1, NULL, 0, &error));
  g_assert_error (error, XRLAB_PCHIP_ERROR, XRLAB_PCHIP_ERROR_DATA);
  g_clear_error (&error);
  {
    g_autoptr(XrlabPchip) ok = xrlab_pchip_new_split (x, y, 5, at_dup, 1, &error);
    g_assert_no_error (error);
    g_assert_cmpfloat (xrlab_pchip_eval (ok, 2.0, NULL), ==, 3.0);
  }
}

/* A final single point after a repeated x is the value at the end. */
static void
test_single_point_segment (void)
{
  const double x[] = { 0, 1, 2, 2 };
  const double y[] = { 0, 1, 2, 7 };
  g_autoptr(XrlabPchip) p = xrlab_pchip_new (x, y, G_N_ELEMENTS (x), NULL);

  g_assert_cmpfloat (xrlab_pchip_eval (p, 2.0, NULL), ==, 7.0);
  g_assert_cmpfloat_with_epsilon (xrlab_pchip_eval (p, 1.5, NULL), 1.5, 1e-14);
}

/* The hint never changes a value, whatever order the points come in. */
static void
test_hint (void)
{
  const XrlabHenkeTable *au = xrlab_henke_get (79, NULL);
  double x[2000], y[2000];
  gsize hint = 0;

  for (int i = 0; i < 2000; i++)
    x[i] = g_test_rand_double_range (30.0, 30000.0);
  for (int i = 0; i < 2000; i++)
    g_assert_cmpfloat (xrlab_pchip_eval (au->f1, x[i], &hint), ==, xrlab_pchip_eval (au->f1, x[i], NULL));
  for (int i = 0; i < 2000; i++)
    x[i] = 30.0 + i * 14.9;
  xrlab_pchip_eval_array (au->f2, x, y, 2000);
  for (int i = 0; i < 2000; i++)
    g_assert_cmpfloat (y[i], ==, xrlab_pchip_eval (au->f2, x[i], NULL));
}

static void
test_bad_input (void)
{
  const double x[] = { 0, 1, 2 }, y[] = { 0, NAN, 2 }, xd[] = { 1, 1, 2 };
  g_autoptr(GError) error = NULL;

  g_assert_null (xrlab_pchip_new (x, y, 1, &error));
  g_assert_error (error, XRLAB_PCHIP_ERROR, XRLAB_PCHIP_ERROR_DATA);
  g_clear_error (&error);
  g_assert_null (xrlab_pchip_new (x, y, 3, &error));
  g_assert_error (error, XRLAB_PCHIP_ERROR, XRLAB_PCHIP_ERROR_DATA);
  g_assert_nonnull (strstr (error->message, "Point 2"));
  g_clear_error (&error);
  g_assert_null (xrlab_pchip_new (xd, x, 3, &error));
  g_assert_error (error, XRLAB_PCHIP_ERROR, XRLAB_PCHIP_ERROR_DATA);
}

/* The tables themselves: f1 from 29.3 eV (lower for the updated elements),
 * f2 from 10 eV, both to 30 keV; Z out of range is an error. */
static void
test_henke_tables (void)
{
  g_autoptr(GError) error = NULL;

  for (int z = 1; z <= XRLAB_ELEMENT_Z_MAX; z++)
    {
      const XrlabHenkeTable *t = xrlab_henke_get (z, &error);
      g_assert_no_error (error);
      g_assert_cmpint (t->z, ==, z);
      g_assert_cmpfloat (t->f2_min_ev, <=, 10.0);   /* 1 eV for Zr */
      g_assert_cmpfloat (t->f1_min_ev, <=, 29.3);
      g_assert_cmpfloat (t->f1_min_ev, >=, 19.0);
      g_assert_cmpfloat (t->max_ev, ==, 30000.0);
      g_assert_cmpuint (t->n_rows, >=, 500);
      /* Far above every edge f1 approaches Z minus the relativistic term. */
      g_assert_cmpfloat (fabs (xrlab_pchip_eval (t->f1, 30000.0, NULL) - z), <, 0.1 * z + 3);
    }
  g_assert_cmpfloat (xrlab_henke_get (4, NULL)->f1_min_ev, <, 20.0);  /* Be, updated */
  g_assert_null (xrlab_henke_get (93, &error));
  g_assert_error (error, XRLAB_ELEMENT_ERROR, XRLAB_ELEMENT_ERROR_UNKNOWN);
  g_clear_error (&error);
  g_assert_null (xrlab_henke_get (0, &error));
  g_assert_error (error, XRLAB_ELEMENT_ERROR, XRLAB_ELEMENT_ERROR_UNKNOWN);
}

/* The tables are loaded once, from several threads at the same time. */
static gpointer
load_all (gpointer data)
{
  for (int z = XRLAB_ELEMENT_Z_MAX; z >= 1; z--)
    g_assert_nonnull (xrlab_henke_get (z, NULL));
  return NULL;
}

static void
test_henke_threads (void)
{
  GThread *t[4];

  for (int i = 0; i < 4; i++)
    t[i] = g_thread_new ("load", load_all, NULL);
  for (int i = 0; i < 4; i++)
    g_thread_join (t[i]);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  xrlab_init ();
  g_test_add_func ("/pchip/henke-threads", test_henke_threads);
  g_test_add_func ("/pchip/scipy-parity", test_scipy_parity);
  g_test_add_func ("/pchip/monotone", test_monotone);
  g_test_add_func ("/pchip/linear", test_linear);
  g_test_add_func ("/pchip/repeated-x", test_repeated_x);
  g_test_add_func ("/pchip/step-back", test_step_back);
  g_test_add_func ("/pchip/split", test_split);
  g_test_add_func ("/pchip/split-edge-cases", test_split_edge_cases);
  g_test_add_func ("/pchip/split-bad-input", test_split_bad_input);
  g_test_add_func ("/pchip/single-point-segment", test_single_point_segment);
  g_test_add_func ("/pchip/hint", test_hint);
  g_test_add_func ("/pchip/bad-input", test_bad_input);
  g_test_add_func ("/pchip/henke-tables", test_henke_tables);
  return g_test_run ();
}
