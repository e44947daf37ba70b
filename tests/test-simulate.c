/* test-simulate.c -- the simulator: photon counting, several realisations at
 * once, parameter sweeps against trspecfit's draws (tests/data/sweep/)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include <glib.h>

#include "xrlab-init.h"
#include "xrlab-model.h"
#include "xrlab-simulate.h"

static const char *model_yaml =
  "peak:\n"
  "  Offset: {y0: [2, True, 0, 5]}\n"
  "  GLP: {A: [10, True, 5, 15], x0: [10, True, 5, 15], F: [1.0, True, 0.75, 2.5], "
  "m: [0.3, True, 0, 1]}\n"
  "bleach:\n"
  "  GLP: {A: [-10, True, -15, 15], x0: [10, True, 5, 15], F: [1.0, True, 0.75, 2.5], "
  "m: [0.3, True, 0, 1]}\n";

static const char *time_yaml =
  "MonoExpPosIRF:\n"
  "  gaussCONV: {SD: [3, True, 1.0E-6, 10]}\n"
  "  expFun: {A: [5, True, 0, 15], tau: [50, True, 1, 100], t0: [0, False, 0, 1]}\n";

#define N_E 200
#define N_T 40
static double energy[N_E], delays[N_T];

static void
setup_axes (void)
{
  for (gsize i = 0; i < N_E; i++)
    energy[i] = 0.1 * (double) i;
  for (gsize i = 0; i < N_T; i++)
    delays[i] = -10.0 + 5.0 * (double) i;
}

static XrlabModel *
model_2d (const char *name)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabModelFile) f = xrlab_model_file_new_from_data (model_yaml, -1, "e.yaml", &error);
  g_autoptr(XrlabModelFile) t = xrlab_model_file_new_from_data (time_yaml, -1, "t.yaml", &error);
  const char *models[] = { "MonoExpPosIRF" };
  XrlabModel *m;

  g_assert_no_error (error);
  m = xrlab_model_new (f, name, &error);
  g_assert_no_error (error);
  g_assert_true (xrlab_model_add_dynamics_from_file (m, "GLP_01_x0", t, models, 1, 0, &error));
  g_assert_no_error (error);
  return m;
}

/* trspecfit's photon counting: Poisson counts with C photons per delay on
 * average, back in the model's units, signs kept. */
static void
test_counting (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabModel) m = model_2d ("peak");
  g_autoptr(XrlabModel) neg = model_2d ("bleach");
  const double C = 1e4;
  g_autofree double *clean = xrlab_simulate (m, energy, N_E, delays, N_T, NULL, 0,
                                             XRLAB_NOISE_NONE, 0, 0, NULL, &error);
  g_autofree double *y = NULL, *y2 = NULL, *yn = NULL, *one = NULL;
  double scale = 0, scale1 = 0, total = 0, counts = 0, chi2 = 0;
  XrlabNoiseKind kind;

  g_assert_no_error (error);
  g_assert_true (xrlab_noise_kind_from_string ("photon_counting", &kind));
  g_assert_cmpint (kind, ==, XRLAB_NOISE_COUNTING);
  g_assert_true (xrlab_noise_kind_from_string ("Counting", &kind));

  y = xrlab_simulate (m, energy, N_E, delays, N_T, NULL, 0, XRLAB_NOISE_COUNTING, C, 5, &scale,
                      &error);
  g_assert_no_error (error);
  for (gsize i = 0; i < N_T * N_E; i++)
    total += clean[i];
  /* s = C / (mean row total) */
  g_assert_cmpfloat_with_epsilon (scale, C / (total / N_T), 1e-12 * scale);
  for (gsize i = 0; i < N_T * N_E; i++)
    {
      double n = y[i] * scale, mu = clean[i] * scale;
      g_assert_cmpfloat (fabs (n - round (n)), <, 1e-6);     /* whole photons */
      g_assert_cmpfloat (y[i], >=, 0);
      counts += n;
      chi2 += (n - mu) * (n - mu) / mu;
    }
  /* C N_T photons within Poisson error; the scatter is Poisson's */
  g_assert_cmpfloat (fabs (counts - C * N_T), <, 5 * sqrt (C * N_T));
  g_assert_cmpfloat (fabs (chi2 / (N_T * N_E) - 1.0), <, 0.1);

  /* the same seed gives the same data */
  y2 = xrlab_simulate (m, energy, N_E, delays, N_T, NULL, 0, XRLAB_NOISE_COUNTING, C, 5, NULL,
                       &error);
  g_assert_cmpmem (y, N_T * N_E * sizeof (double), y2, N_T * N_E * sizeof (double));

  /* a negative model (a bleach) keeps its sign */
  yn = xrlab_simulate (neg, energy, N_E, delays, N_T, NULL, 0, XRLAB_NOISE_COUNTING, C, 5,
                       NULL, &error);
  g_assert_no_error (error);
  for (gsize i = 0; i < N_T * N_E; i++)
    g_assert_cmpfloat (yn[i], <=, 0);

  /* one spectrum: s = C / Σ|m| */
  one = g_memdup2 (clean, N_E * sizeof (double));
  g_assert_true (xrlab_simulate_noise (one, N_E, XRLAB_NOISE_COUNTING, C, 1, &scale1, &error));
  total = 0;
  for (gsize e = 0; e < N_E; e++)
    total += clean[e];
  g_assert_cmpfloat_with_epsilon (scale1, C / total, 1e-12 * scale1);

  /* nothing stays nothing; no photons is an error */
  {
    double zero[4] = { 0 };
    g_assert_true (xrlab_simulate_noise_rows (zero, 2, 2, XRLAB_NOISE_COUNTING, C, 1, NULL,
                                              &error));
    g_assert_cmpfloat (zero[0] + zero[1] + zero[2] + zero[3], ==, 0);
    g_assert_false (xrlab_simulate_noise_rows (one, 1, N_E, XRLAB_NOISE_COUNTING, 0, 1, NULL,
                                               &error));
    g_assert_error (error, XRLAB_SIMULATE_ERROR, XRLAB_SIMULATE_ERROR_INVALID);
  }
}

/* Poisson counts of means below and above 10 (the two methods): mean,
 * variance and third central moment (all μ) within their sampling errors. */
static void
test_poisson_moments (void)
{
  const double levels[] = { 0.5, 0.2, 0.05 };   /* means 1/L²: 4, 25, 400 */
  const gsize n = 200000;
  g_autofree double *y = g_new (double, n);

  for (gsize k = 0; k < G_N_ELEMENTS (levels); k++)
    {
      g_autoptr(GError) error = NULL;
      double mu = 1.0 / (levels[k] * levels[k]), scale = 0, m1 = 0, m2 = 0, m3 = 0;

      for (gsize i = 0; i < n; i++)
        y[i] = 1.0;
      g_assert_true (xrlab_simulate_noise (y, n, XRLAB_NOISE_POISSON, levels[k], 3 + k, &scale,
                                           &error));
      g_assert_cmpfloat_with_epsilon (scale, mu, 1e-9 * mu);
      for (gsize i = 0; i < n; i++)
        {
          double c = y[i] * scale;
          g_assert_cmpfloat (fabs (c - round (c)), <, 1e-9 * MAX (1.0, c));
          m1 += c / n;
        }
      for (gsize i = 0; i < n; i++)
        {
          double d = y[i] * scale - m1;
          m2 += d * d / (n - 1);
          m3 += d * d * d / n;
        }
      g_test_message ("μ %g: mean %.4f, variance %.4f, third moment %.3f", mu, m1, m2, m3);
      g_assert_cmpfloat (fabs (m1 - mu), <, 5 * sqrt (mu / n));
      g_assert_cmpfloat (fabs (m2 / mu - 1.0), <, 5 * sqrt (2.0 / n));
      /* var (m3) ≈ (μ₆ − μ₃² − 6μ₄μ₂ + 9μ₂³)/n = (6μ³ + 18μ² + μ)/n for Poisson counts */
      g_assert_cmpfloat (fabs (m3 / mu - 1.0), <, 5 * sqrt ((6 * mu + 18 + 1 / mu) / n));
    }
}

/* N realisations in one call: realisation r is the single simulation with
 * seed + r, whatever the threads. */
static void
test_n_realisations (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabModel) m = model_2d ("peak");
  g_autofree double *all = NULL, *clean = NULL, *want_clean = NULL;
  gsize n_data = 0;
  double scale = 0;
  const guint n = 5;
  const XrlabNoiseKind kinds[] = { XRLAB_NOISE_GAUSSIAN, XRLAB_NOISE_POISSON,
                                   XRLAB_NOISE_COUNTING };
  const double levels[] = { 0.02, 0.05, 1e5 };

  want_clean = xrlab_simulate (m, energy, N_E, delays, N_T, NULL, 0, XRLAB_NOISE_NONE, 0, 0,
                               NULL, &error);
  for (gsize k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      g_clear_pointer (&all, g_free);
      g_clear_pointer (&clean, g_free);
      all = xrlab_simulate_n (m, energy, N_E, delays, N_T, NULL, 0, kinds[k], levels[k], 11, n,
                              &clean, &n_data, &scale, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (n_data, ==, N_T * N_E);
      g_assert_cmpmem (clean, n_data * sizeof (double), want_clean, n_data * sizeof (double));
      for (guint r = 0; r < n; r++)
        {
          double s1 = 0;
          g_autofree double *one = xrlab_simulate (m, energy, N_E, delays, N_T, NULL, 0,
                                                   kinds[k], levels[k], 11 + r, &s1, &error);
          g_assert_no_error (error);
          g_assert_cmpmem (all + r * n_data, n_data * sizeof (double), one,
                           n_data * sizeof (double));
          if (r == 0)
            g_assert_cmpfloat (scale, ==, s1);
        }
      /* independent realisations */
      g_assert_true (memcmp (all, all + n_data, n_data * sizeof (double)) != 0);
    }
  g_assert_null (xrlab_simulate_n (m, energy, N_E, delays, N_T, NULL, 0, XRLAB_NOISE_GAUSSIAN,
                                   -1, 1, 2, NULL, NULL, NULL, &error));
  g_assert_error (error, XRLAB_SIMULATE_ERROR, XRLAB_SIMULATE_ERROR_INVALID);
}

/* ---- sweeps ------------------------------------------------------------------------- */

static char *
sweep_path (const char *name)
{
  return g_build_filename (XRLAB_TEST_SRCDIR, "data", "sweep", name, NULL);
}

/* Compares the configurations of @sw with the CSV @name to the last bit. */
static void
check_sweep (XrlabSweep *sw, const char *name)
{
  g_autofree char *path = sweep_path (name);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  const double *cf;
  gsize np = xrlab_sweep_n_params (sw), nc = xrlab_sweep_n_configs (sw);

  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  lines = g_strsplit (g_strchomp (text), "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, nc + 1);
  {
    g_auto(GStrv) head = g_strsplit (lines[0], ",", -1);
    g_assert_cmpuint (g_strv_length (head), ==, np);
    for (gsize j = 0; j < np; j++)
      g_assert_cmpstr (head[j], ==, xrlab_sweep_param_name (sw, j));
  }
  cf = xrlab_sweep_configs (sw);
  for (gsize c = 0; c < nc; c++)
    {
      g_auto(GStrv) f = g_strsplit (lines[c + 1], ",", -1);
      for (gsize j = 0; j < np; j++)
        {
          double want = g_ascii_strtod (f[j], NULL);
          if (cf[c * np + j] != want)
            g_error ("%s: configuration %zu, %s: %.17g, trspecfit %.17g", name, c, f[j],
                     cf[c * np + j], want);
        }
    }
}

static void
test_sweep_trspecfit (void)
{
  g_autoptr(GError) error = NULL;
  const double amps[] = { 0.25, 1, 4 };
  const double ints[] = { 1, 2, 3, 4, 5 }, tens[] = { 10, 20 }, ys[] = { 1, 2 };
  XrlabSweepStrategy st;

  /* trspecfit's example 02: a grid and a random sweep, seed 42 */
  {
    g_autoptr(XrlabSweep) sw = xrlab_sweep_new (XRLAB_SWEEP_GRID, 42);
    g_assert_true (xrlab_sweep_add_values (sw, "GLP_01_x0_expFun_01_A", amps, 3, &error));
    g_assert_true (xrlab_sweep_add_uniform (sw, "GLP_01_x0_expFun_01_tau", 5, 25, 3, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (xrlab_sweep_n_configs (sw), ==, 9);
    check_sweep (sw, "grid-42.csv");
  }
  {
    g_autoptr(XrlabSweep) sw = xrlab_sweep_new (XRLAB_SWEEP_RANDOM, 42);
    xrlab_sweep_add_uniform (sw, "GLP_01_A", 8, 12, 100, &error);
    xrlab_sweep_add_uniform (sw, "GLP_01_x0", 8, 12, 100, &error);
    xrlab_sweep_add_uniform (sw, "GLP_01_x0_expFun_01_A", 0.5, 5, 100, &error);
    xrlab_sweep_add_uniform (sw, "GLP_01_x0_expFun_01_tau", 10, 80, 100, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (xrlab_sweep_n_configs (sw), ==, 100);
    check_sweep (sw, "random-42.csv");
  }
  /* every kind of draw */
  {
    g_autoptr(XrlabSweep) sw = xrlab_sweep_new (XRLAB_SWEEP_AUTO, 7);
    xrlab_sweep_add_values (sw, "a", ints, 5, &error);
    xrlab_sweep_add_normal (sw, "b", 1.5, 0.3, 25, &error);
    xrlab_sweep_add_lognormal (sw, "c", 0.0, 0.5, 25, &error);
    xrlab_sweep_add_values (sw, "d", tens, 2, &error);
    g_assert_no_error (error);
    check_sweep (sw, "mixed-7.csv");
  }
  {
    g_autoptr(XrlabSweep) sw = xrlab_sweep_new (XRLAB_SWEEP_GRID, 0);
    /* a name given again keeps its place */
    xrlab_sweep_add_uniform (sw, "x", 0, 1, 9, &error);
    xrlab_sweep_add_values (sw, "y", ys, 2, &error);
    xrlab_sweep_add_lognormal (sw, "z", 1.0, 0.25, 2, &error);
    xrlab_sweep_add_normal (sw, "x", 0.0, 1.0, 3, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (xrlab_sweep_n_configs (sw), ==, 12);
    check_sweep (sw, "grid-0.csv");
  }
  /* auto: a grid of lists */
  {
    g_autoptr(XrlabSweep) sw = xrlab_sweep_new (XRLAB_SWEEP_AUTO, 1);
    xrlab_sweep_add_values (sw, "a", ints, 5, &error);
    xrlab_sweep_add_values (sw, "d", tens, 2, &error);
    g_assert_cmpuint (xrlab_sweep_n_configs (sw), ==, 10);
    g_assert_cmpfloat (xrlab_sweep_configs (sw)[1 * 2 + 1], ==, 20);
    g_assert_cmpfloat (xrlab_sweep_configs (sw)[2 * 2 + 0], ==, 2);
  }
  g_assert_true (xrlab_sweep_strategy_from_string ("Random", &st));
  g_assert_cmpint (st, ==, XRLAB_SWEEP_RANDOM);
  g_assert_false (xrlab_sweep_strategy_from_string ("sobol", &st));
}

static void
test_sweep_apply (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabModel) m = model_2d ("peak");
  g_autoptr(XrlabSweep) sw = xrlab_sweep_new (XRLAB_SWEEP_RANDOM, 42);
  XrlabParamInfo info;

  xrlab_sweep_add_uniform (sw, "GLP_01_x0_expFun_01_tau", 10, 80, 4, &error);
  xrlab_sweep_add_uniform (sw, "GLP_01_A", 8, 12, 4, &error);
  g_assert_no_error (error);
  for (gsize c = 0; c < xrlab_sweep_n_configs (sw); c++)
    {
      g_autofree double *y = NULL;
      g_assert_true (xrlab_sweep_apply (sw, c, m, &error));
      g_assert_no_error (error);
      xrlab_model_get_param (m, xrlab_model_find_param (m, "GLP_01_A"), &info);
      g_assert_cmpfloat (info.value, ==, xrlab_sweep_configs (sw)[c * 2 + 1]);
      y = xrlab_simulate (m, energy, N_E, delays, N_T, NULL, 0, XRLAB_NOISE_GAUSSIAN, 0.05, c,
                          NULL, &error);
      g_assert_no_error (error);
    }

  /* bad sweeps: no values, a range that is not one, a value outside the
   * bounds, a parameter the model lacks */
  g_assert_false (xrlab_sweep_add_uniform (sw, "GLP_01_F", 2, 1, 3, &error));
  g_assert_error (error, XRLAB_SIMULATE_ERROR, XRLAB_SIMULATE_ERROR_SWEEP);
  g_clear_error (&error);
  g_assert_false (xrlab_sweep_add_normal (sw, "GLP_01_F", 1, 0.1, 0, &error));
  g_assert_error (error, XRLAB_SIMULATE_ERROR, XRLAB_SIMULATE_ERROR_SWEEP);
  g_clear_error (&error);
  g_assert_true (xrlab_sweep_add_uniform (sw, "GLP_01_F", 3, 4, 4, &error));
  g_assert_false (xrlab_sweep_apply (sw, 0, m, &error));
  g_assert_error (error, XRLAB_SIMULATE_ERROR, XRLAB_SIMULATE_ERROR_SWEEP);
  g_assert_nonnull (strstr (error->message, "configuration 1"));
  g_assert_nonnull (strstr (error->message, "outside its bounds"));
  g_clear_error (&error);
  {
    g_autoptr(XrlabSweep) sw2 = xrlab_sweep_new (XRLAB_SWEEP_RANDOM, 42);
    g_assert_true (xrlab_sweep_add_uniform (sw2, "GLP_09_F", 1, 2, 4, &error));
    g_assert_false (xrlab_sweep_apply (sw2, 0, m, &error));
    g_assert_nonnull (strstr (error->message, "GLP_09_F"));
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  xrlab_init ();
  setup_axes ();
  g_test_add_func ("/simulate/counting", test_counting);
  g_test_add_func ("/simulate/poisson-moments", test_poisson_moments);
  g_test_add_func ("/simulate/n-realisations", test_n_realisations);
  g_test_add_func ("/simulate/sweep-trspecfit", test_sweep_trspecfit);
  g_test_add_func ("/simulate/sweep-apply", test_sweep_apply);
  return g_test_run ();
}
