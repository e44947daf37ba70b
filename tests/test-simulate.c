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
#include "test-common.h"

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
  XrlabModel *m = xrlab_test_model_from_text (model_yaml, name);

  xrlab_test_add_dynamics_text (m, "GLP_01_x0", time_yaml, "MonoExpPosIRF", 0);
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

/* Poisson counts of means below 10 (inversion), at the switch and above
 * (PTRS; 1e4 takes log k! from Stirling's series): mean, variance and third
 * central moment (all μ) within their sampling errors; a mean of 0 gives
 * 0. */
static void
test_poisson_moments (void)
{
  const double means[] = { 0.05, 0.7, 4, 9.99, 10, 25, 400, 1e4 };
  const gsize n = 200000;
  g_autofree double *y = g_new (double, n);

  for (gsize k = 0; k < G_N_ELEMENTS (means); k++)
    {
      g_autoptr(GError) error = NULL;
      const double mu = means[k], level = 1.0 / sqrt (mu);
      double scale = 0, m1 = 0, m2 = 0, m3 = 0;

      for (gsize i = 0; i < n; i++)
        y[i] = 1.0;
      g_assert_true (xrlab_simulate_noise (y, n, XRLAB_NOISE_POISSON, level, 3 + k, &scale,
                                           &error));
      g_assert_cmpfloat_with_epsilon (scale, mu, 1e-9 * mu);
      for (gsize i = 0; i < n; i++)
        {
          double c = y[i] * scale;
          g_assert_cmpfloat (fabs (c - round (c)), <, 1e-9 * MAX (1.0, c));
          g_assert_cmpfloat (c, >=, 0);
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
      /* var (s²) ≈ (μ₄ − μ₂²)/n = (2μ² + μ)/n */
      g_assert_cmpfloat (fabs (m2 / mu - 1.0), <, 5 * sqrt ((2.0 + 1 / mu) / n));
      /* var (m3) ≈ (μ₆ − μ₃² − 6μ₄μ₂ + 9μ₂³)/n = (6μ³ + 18μ² + μ)/n for Poisson counts */
      g_assert_cmpfloat (fabs (m3 / mu - 1.0), <, 5 * sqrt ((6 * mu + 18 + 1 / mu) / n));
    }

  /* a mean of 0 counts nothing, beside points that count */
  {
    g_autoptr(GError) error = NULL;
    double scale = 0, m1 = 0;

    for (gsize i = 0; i < n; i++)
      y[i] = i % 2 ? 1.0 : 0.0;
    g_assert_true (xrlab_simulate_noise (y, n, XRLAB_NOISE_POISSON, 0.5, 1, &scale, &error));
    for (gsize i = 0; i < n; i += 2)
      g_assert_cmpfloat (y[i], ==, 0);
    for (gsize i = 1; i < n; i += 2)
      m1 += y[i] * scale / (n / 2);
    g_assert_cmpfloat (fabs (m1 - 4), <, 5 * sqrt (4.0 / (n / 2)));
  }
}

/* The generator of the header, written out again: splitmix64, then
 * xoshiro256++. */
static guint64
ref_splitmix (guint64 *x)
{
  guint64 z = (*x += G_GUINT64_CONSTANT (0x9e3779b97f4a7c15));

  z = (z ^ (z >> 30)) * G_GUINT64_CONSTANT (0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * G_GUINT64_CONSTANT (0x94d049bb133111eb);
  return z ^ (z >> 31);
}

static double
ref_uniform (guint64 s[4])
{
  const guint64 out = ((s[0] + s[3]) << 23 | (s[0] + s[3]) >> 41) + s[0], t = s[1] << 17;

  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = s[3] << 45 | s[3] >> 19;
  return (double) (out >> 11) / 9007199254740992.0;
}

/* The seed rule of the header, to the last count: a mean of 2 (inversion)
 * on three blocks, the first points of blocks 0 and 2 drawn again here; the
 * same in every call. */
static void
test_poisson_seed_rule (void)
{
  const gsize n = 2 * XRLAB_SIMULATE_BLOCK + 100;
  const guint64 seed = 2024;
  g_autofree double *y = g_new (double, n), *y2 = g_new (double, n);
  g_autoptr(GError) error = NULL;
  double scale = 0;

  for (gsize i = 0; i < n; i++)
    y[i] = 1.0;
  g_assert_true (xrlab_simulate_noise (y, n, XRLAB_NOISE_POISSON, M_SQRT1_2, seed, &scale,
                                       &error));
  g_assert_cmpfloat_with_epsilon (scale, 2.0, 1e-12);
  for (guint64 block = 0; block <= 2; block += 2)
    {
      guint64 x = seed, s[4];

      x = ref_splitmix (&x) + block;
      for (guint j = 0; j < 4; j++)
        s[j] = ref_splitmix (&x);
      for (gsize i = 0; i < 100; i++)
        {
          double u = ref_uniform (s), p = exp (-scale), f = p, k = 0;

          while (u >= f)
            {
              k += 1;
              p *= scale / k;
              f += p;
            }
          g_assert_cmpfloat (round (y[block * XRLAB_SIMULATE_BLOCK + i] * scale), ==, k);
        }
    }
  for (gsize i = 0; i < n; i++)
    y2[i] = 1.0;
  g_assert_true (xrlab_simulate_noise (y2, n, XRLAB_NOISE_POISSON, M_SQRT1_2, seed, NULL,
                                       &error));
  g_assert_cmpmem (y, n * sizeof (double), y2, n * sizeof (double));
}

/* The parts of xrlab_simulate_draws in any order give xrlab_simulate_n's
 * data: many blocks and more realisations than a part takes. */
static void
test_draws_parts (void)
{
  const gsize n_e = 3 * XRLAB_SIMULATE_BLOCK + 17;
  const guint n_real = XRLAB_SIMULATE_GROUP + 2;
  const XrlabNoiseKind kinds[] = { XRLAB_NOISE_POISSON, XRLAB_NOISE_COUNTING,
                                   XRLAB_NOISE_GAUSSIAN, XRLAB_NOISE_NONE };
  const double levels[] = { 0.05, 1e4, 0.02, 0 };
  g_autoptr(XrlabModel) m = xrlab_test_model_from_text (model_yaml, "peak");
  g_autofree double *e = g_new (double, n_e), *clean = NULL, *want = NULL;
  g_autofree double *buf = g_new (double, n_real * n_e);
  double *out[XRLAB_SIMULATE_GROUP + 2];

  for (gsize i = 0; i < n_e; i++)
    e[i] = 20.0 * (double) i / (double) n_e;
  for (guint r = 0; r < n_real; r++)
    out[r] = buf + r * n_e;
  for (gsize k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      g_autoptr(GError) error = NULL;
      XrlabSimulateDraws d;
      double scale = 0;
      guint n_parts;
      gsize n_data = 0;

      g_clear_pointer (&clean, g_free);
      g_clear_pointer (&want, g_free);
      want = xrlab_simulate_n (m, e, n_e, NULL, 0, NULL, 0, kinds[k], levels[k], 5, n_real,
                               &clean, &n_data, &scale, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (n_data, ==, n_e);
      memset (buf, 0, n_real * n_e * sizeof (double));
      g_assert_true (xrlab_simulate_draws_init (&d, clean, 1, n_e, kinds[k], levels[k], 5,
                                                n_real, out, &error));
      n_parts = xrlab_simulate_draws_n_parts (&d);
      g_assert_cmpuint (n_parts, ==, kinds[k] == XRLAB_NOISE_GAUSSIAN ? n_real : 4 * 2);
      for (guint p = n_parts; p-- > 0;)
        {
          gsize i0, i1;
          guint r0, r1;

          xrlab_simulate_draws_part (&d, p, &i0, &i1, &r0, &r1);
          g_assert_cmpuint (i0, <, i1);
          g_assert_cmpuint (r0, <, r1);
          g_assert_cmpuint (r1 - r0, <=, XRLAB_SIMULATE_GROUP);
        }
      g_assert_cmpmem (buf, n_real * n_e * sizeof (double), want, n_real * n_e * sizeof (double));
      if (kinds[k] == XRLAB_NOISE_NONE)
        g_assert_true (isnan (d.scale));
      else
        g_assert_cmpfloat (d.scale, ==, scale);
      /* realisation r is the single simulation with seed 5 + r */
      for (guint r = 0; r < n_real; r += n_real - 1)
        {
          g_autofree double *one = xrlab_simulate (m, e, n_e, NULL, 0, NULL, 0, kinds[k],
                                                   levels[k], 5 + r, NULL, &error);
          g_assert_cmpmem (one, n_e * sizeof (double), want + r * n_e, n_e * sizeof (double));
        }
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
  g_test_add_func ("/simulate/poisson-seed-rule", test_poisson_seed_rule);
  g_test_add_func ("/simulate/draws-parts", test_draws_parts);
  g_test_add_func ("/simulate/n-realisations", test_n_realisations);
  g_test_add_func ("/simulate/sweep-trspecfit", test_sweep_trspecfit);
  g_test_add_func ("/simulate/sweep-apply", test_sweep_apply);
  return g_test_run ();
}
