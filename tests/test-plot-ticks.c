/* test-plot-ticks.c -- tick positions and labels of the plot axes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "xrlab-plot-ticks.h"

static guint
count_major (const XrlabPlotTicks *t)
{
  guint n = 0;

  for (guint i = 0; i < t->n; i++)
    n += t->ticks[i].major;
  return n;
}

/* The labels of the major ticks, joined by spaces. */
static char *
major_labels (const XrlabPlotTicks *t)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < t->n; i++)
    if (t->ticks[i].major)
      g_string_append_printf (s, "%s%s", s->len > 0 ? " " : "", t->ticks[i].label);
  return g_string_free (s, FALSE);
}

static void
assert_increasing (const XrlabPlotTicks *t)
{
  for (guint i = 1; i < t->n; i++)
    g_assert_cmpfloat (t->ticks[i].pos, >, t->ticks[i - 1].pos);
}

static void
test_nice_step (void)
{
  static const struct { double raw, step, norm; } cases[] = {
    { 1.2, 1, 1 }, { 1.6, 2, 2 }, { 3.0, 2.5, 2.5 }, { 0.7, 0.5, 5 },
    { 8.0, 10, 1 }, { 0.0021, 0.002, 2 }, { 42e6, 50e6, 5 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      double norm = -1;
      double step = xrlab_plot_nice_step (cases[i].raw, &norm);
      g_assert_cmpfloat_with_epsilon (step, cases[i].step, cases[i].step * 1e-12);
      g_assert_cmpfloat (norm, ==, cases[i].norm);
    }
}

static void
test_format (void)
{
  static const struct { double v, step; const char *text; } cases[] = {
    { 0, 1, "0" },
    { 0, 0.25, "0.00" },
    { 25, 25, "25" },
    { 0.25, 0.25, "0.25" },
    { 2.5, 0.5, "2.5" },
    { -3, 1, "−3" },
    { -0.5, 0.5, "−0.5" },
    { 1e-4, 1e-4, "10#u−4#d" },
    { 2.5e5, 5e4, "2.5×10#u5#d" },
    { -1e6, 1e6, "−10#u6#d" },
    { -2e-5, 1e-5, "−2×10#u−5#d" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      char buf[48];
      xrlab_plot_format_tick_value (cases[i].v, cases[i].step, buf, sizeof buf);
      g_assert_cmpstr (buf, ==, cases[i].text);
    }
}

static void
test_linear (void)
{
  XrlabPlotTicks t;
  g_autofree char *labels = NULL;

  /* 0..10, about 5 major ticks: every 2 with 4 minor steps of 0.5. */
  xrlab_plot_ticks_linear (&t, 0, 10, 5, FALSE, TRUE);
  g_assert_cmpuint (t.n, ==, 21);
  g_assert_cmpuint (count_major (&t), ==, 6);
  g_assert_cmpint (t.exponent, ==, 0);
  assert_increasing (&t);
  labels = major_labels (&t);
  g_assert_cmpstr (labels, ==, "0 2 4 6 8 10");
  for (guint i = 0; i < t.n; i++)
    if (!t.ticks[i].major)
      g_assert_cmpstr (t.ticks[i].label, ==, "");

  /* Called again, the ticks are replaced, not appended. */
  xrlab_plot_ticks_linear (&t, 0, 10, 5, FALSE, TRUE);
  g_assert_cmpuint (t.n, ==, 21);
}

static void
test_linear_negative (void)
{
  XrlabPlotTicks t;
  g_autofree char *labels = NULL;

  xrlab_plot_ticks_linear (&t, -1, 1, 4, FALSE, TRUE);
  labels = major_labels (&t);
  g_assert_cmpstr (labels, ==, "−1.0 −0.5 0.0 0.5 1.0");
  /* Zero is exactly zero, not a rounding residue. */
  for (guint i = 0; i < t.n; i++)
    if (fabs (t.ticks[i].pos) < 1e-3)
      g_assert_cmpfloat (t.ticks[i].pos, ==, 0);
}

static void
test_linear_exponent (void)
{
  XrlabPlotTicks t;
  g_autofree char *small = NULL;
  g_autofree char *large = NULL;

  /* 0..3e-6: labelled in units of 10^-6. */
  xrlab_plot_ticks_linear (&t, 0, 3e-6, 5, FALSE, TRUE);
  g_assert_cmpint (t.exponent, ==, -6);
  small = major_labels (&t);
  g_assert_cmpstr (small, ==, "0.0 0.5 1.0 1.5 2.0 2.5 3.0");
  g_assert_cmpfloat_with_epsilon (t.ticks[t.n - 1].pos, 3e-6, 1e-18);

  /* 250000..350000 in units of 10^5. */
  xrlab_plot_ticks_linear (&t, 2.5e5, 3.5e5, 4, FALSE, TRUE);
  g_assert_cmpint (t.exponent, ==, 5);
  large = major_labels (&t);
  g_assert_cmpstr (large, ==, "2.50 2.75 3.00 3.25 3.50");

  /* Without the common factor the values are written out. */
  xrlab_plot_ticks_linear (&t, 0, 3e-6, 5, FALSE, FALSE);
  g_assert_cmpint (t.exponent, ==, 0);
  g_assert_cmpstr (t.ticks[t.n - 1].label, ==, "3×10#u−6#d");
}

static void
test_log_decades (void)
{
  XrlabPlotTicks t;
  g_autofree char *plain = NULL;
  g_autofree char *powers = NULL;

  /* 1..1000: a labelled tick per decade, minor ticks at 2..9. */
  xrlab_plot_ticks_log (&t, 0, 3, 10);
  g_assert_cmpuint (t.n, ==, 28);
  g_assert_cmpuint (count_major (&t), ==, 4);
  g_assert_cmpint (t.exponent, ==, 0);
  assert_increasing (&t);
  plain = major_labels (&t);
  g_assert_cmpstr (plain, ==, "1 10 100 1000");
  g_assert_cmpfloat_with_epsilon (t.ticks[1].pos, log10 (2), 1e-12);

  /* Very small values: powers of ten. */
  xrlab_plot_ticks_log (&t, -6, -3, 10);
  powers = major_labels (&t);
  g_assert_cmpstr (powers, ==, "10#u−6#d 10#u−5#d 10#u−4#d 10#u−3#d");
}

static void
test_log_long_range (void)
{
  XrlabPlotTicks t;
  g_autofree char *labels = NULL;

  /* 1e-10..1e5 with room for 5 labels: every third decade is labelled,
   * the others are unlabelled minor ticks, and there are no 2..9 ticks. */
  xrlab_plot_ticks_log (&t, -10, 5, 5);
  g_assert_cmpuint (t.n, ==, 16);
  labels = major_labels (&t);
  g_assert_cmpstr (labels, ==, "10#u−9#d 10#u−6#d 10#u−3#d 10#u0#d 10#u3#d");
  for (guint i = 0; i < t.n; i++)
    g_assert_cmpfloat (t.ticks[i].pos, ==, round (t.ticks[i].pos));
}

static void
test_log_125 (void)
{
  XrlabPlotTicks t;
  g_autofree char *labels = NULL;

  /* About a decade and a half (1..31.6): labels at 1, 2 and 5. */
  xrlab_plot_ticks_log (&t, 0, 1.5, 10);
  labels = major_labels (&t);
  g_assert_cmpstr (labels, ==, "1 2 5 10 20");
}

static void
test_log_sub_decade (void)
{
  XrlabPlotTicks t;

  /* 5..9: linear ticks placed at log10 of their values. */
  xrlab_plot_ticks_log (&t, log10 (5), log10 (9), 6);
  g_assert_cmpuint (count_major (&t), >=, 3);
  assert_increasing (&t);
  for (guint i = 0; i < t.n; i++)
    {
      double v = pow (10, t.ticks[i].pos);
      g_assert_cmpfloat (v, >=, 5 - 1e-9);
      g_assert_cmpfloat (v, <=, 9 + 1e-9);
      if (t.ticks[i].major)
        {
          /* The label is the value itself. */
          double shown = g_ascii_strtod (t.ticks[i].label, NULL);
          g_assert_cmpfloat_with_epsilon (shown, v, 1e-9 * v);
        }
    }
}

static void
test_capacity (void)
{
  XrlabPlotTicks t;

  /* Far more ticks than fit: the list stops at its capacity. */
  xrlab_plot_ticks_linear (&t, 0, 1e6, 1e6, FALSE, FALSE);
  g_assert_cmpuint (t.n, ==, XRLAB_PLOT_MAX_TICKS);
  assert_increasing (&t);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/plot-ticks/nice-step", test_nice_step);
  g_test_add_func ("/plot-ticks/format", test_format);
  g_test_add_func ("/plot-ticks/linear", test_linear);
  g_test_add_func ("/plot-ticks/linear-negative", test_linear_negative);
  g_test_add_func ("/plot-ticks/linear-exponent", test_linear_exponent);
  g_test_add_func ("/plot-ticks/log-decades", test_log_decades);
  g_test_add_func ("/plot-ticks/log-long-range", test_log_long_range);
  g_test_add_func ("/plot-ticks/log-125", test_log_125);
  g_test_add_func ("/plot-ticks/log-sub-decade", test_log_sub_decade);
  g_test_add_func ("/plot-ticks/capacity", test_capacity);
  return g_test_run ();
}
