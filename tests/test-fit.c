/* test-fit.c -- the least-squares optimizer: results against lmfit and by
 * hand, bounds, weights, cancellation, progress, errors, confidence intervals
 *
 * The lmfit numbers in tests/data/fit-ci/ were made once by
 * tests/data/fit-ci/make-fixture.py (see the README there).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_multifit_nlinear.h>

#include "xrlab-fit-private.h"
#include "xrlab-fit.h"
#include "xrlab-init.h"
#include "xrlab-util.h"

static double *
read_fixture (const char *name, gsize *rows, gsize *cols)
{
  g_autofree char *path = g_build_filename (XRLAB_TEST_SRCDIR, "data", "fit-ci", name, NULL);
  g_autoptr(GError) error = NULL;
  double *m = xrlab_read_csv_matrix (path, TRUE, rows, cols, &error);

  g_assert_no_error (error);
  return m;
}

static void
assert_rel (double value, double expected, double tol, const char *what)
{
  double err = fabs (value - expected) / MAX (fabs (expected), DBL_MIN);

  if (!(err <= tol))
    g_error ("%s: %.17g, expected %.17g (relative difference %.3g > %.3g)", what, value,
             expected, err, tol);
}

static void
assert_abs (double value, double expected, double tol, const char *what)
{
  if (!(fabs (value - expected) <= tol))
    g_error ("%s: %.17g, expected %.17g (difference %.3g > %.3g)", what, value, expected,
             fabs (value - expected), tol);
}

/* ---- a Gaussian peak on a constant ---------------------------------------------- */

typedef struct {
  gsize n;
  const double *x;
  guint calls;
} Gauss;

static gboolean
gauss_model (const double *th, double *out, gpointer data, GError **error)
{
  Gauss *g = data;

  g->calls++;
  for (gsize i = 0; i < g->n; i++)
    {
      double z = (g->x[i] - th[1]) / th[2];
      out[i] = th[0] * exp (-0.5 * z * z) + th[3];
    }
  return TRUE;
}

static gboolean
gauss_jac (const double *th, double *jac, gpointer data, GError **error)
{
  Gauss *g = data;

  for (gsize i = 0; i < g->n; i++)
    {
      double z = (g->x[i] - th[1]) / th[2], e = exp (-0.5 * z * z);
      double *row = jac + 4 * i;
      row[0] = e;
      row[1] = th[0] * e * z / th[2];
      row[2] = th[0] * e * z * z / th[2];
      row[3] = 1.0;
    }
  return TRUE;
}

typedef struct {
  double *data;        /* rows × 2: x, y */
  double *x, *y;
  gsize n;
  Gauss g;
  XrlabFitProblem prob;
} GaussCase;

static const char *const gauss_names[] = { "A", "x0", "s", "c" };
static const double gauss_lower[] = { 0.0, -INFINITY, 0.2, -INFINITY };
static const double gauss_upper[] = { INFINITY, INFINITY, 5.0, INFINITY };
static const double gauss_start[] = { 10.0, 4.0, 1.0, 2.0 };

static void
gauss_case_init (GaussCase *gc)
{
  gsize rows, cols;

  gc->data = read_fixture ("gauss-data.csv", &rows, &cols);
  g_assert_cmpuint (cols, ==, 2);
  gc->n = rows;
  gc->x = g_new (double, rows);
  gc->y = g_new (double, rows);
  for (gsize i = 0; i < rows; i++)
    {
      gc->x[i] = gc->data[2 * i];
      gc->y[i] = gc->data[2 * i + 1];
    }
  gc->g.n = rows;
  gc->g.x = gc->x;
  gc->g.calls = 0;
  memset (&gc->prob, 0, sizeof gc->prob);
  gc->prob.n = rows;
  gc->prob.p = 4;
  gc->prob.model = gauss_model;
  gc->prob.jacobian = gauss_jac;
  gc->prob.user_data = &gc->g;
  gc->prob.data = gc->y;
  gc->prob.names = gauss_names;
  gc->prob.lower = gauss_lower;
  gc->prob.upper = gauss_upper;
}

static void
gauss_case_clear (GaussCase *gc)
{
  g_free (gc->data);
  g_free (gc->x);
  g_free (gc->y);
}

static XrlabFitResult *
fit_or_die (XrlabFit *fit, const double *start)
{
  g_autoptr(GError) error = NULL;
  XrlabFitResult *r = NULL;

  g_assert_true (xrlab_fit_run (fit, start, NULL, &r, &error));
  g_assert_no_error (error);
  g_assert_nonnull (r);
  g_assert_true (r->converged);
  return r;
}

/* Values, standard errors, correlations and statistics against lmfit. */
static void
test_gauss_lmfit (void)
{
  GaussCase gc;
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabFit) fit = NULL;
  g_autoptr(XrlabFitResult) r = NULL;
  g_autofree double *params = NULL, *stats = NULL, *correl = NULL;
  gsize rows, cols;

  gauss_case_init (&gc);
  fit = xrlab_fit_new (&gc.prob, NULL, &error);
  g_assert_no_error (error);
  r = fit_or_die (fit, gauss_start);

  params = read_fixture ("gauss-params.csv", &rows, &cols);
  g_assert_cmpuint (rows, ==, 4);
  for (gsize j = 0; j < 4; j++)
    {
      assert_rel (r->values[j], params[2 * j], 1e-8, gauss_names[j]);
      assert_rel (r->errors[j], params[2 * j + 1], 1e-6, gauss_names[j]);
      g_assert_false (r->at_bound[j]);
    }
  correl = read_fixture ("gauss-correl.csv", &rows, &cols);
  for (gsize k = 0; k < 16; k++)
    assert_abs (r->correl[k], correl[k], 1e-7, "correlation");
  stats = read_fixture ("gauss-stats.csv", &rows, &cols);
  assert_rel (r->chi2, stats[0], 1e-12, "chi2");
  assert_rel (r->redchi, stats[1], 1e-12, "redchi");
  assert_abs (r->aic, stats[2], 1e-9, "aic");
  assert_abs (r->bic, stats[3], 1e-9, "bic");
  assert_abs (r->r2, stats[4], 1e-12, "r2");
  g_assert_cmpuint (r->ndata, ==, (gsize) stats[5]);
  g_assert_cmpuint (r->nfree, ==, r->ndata - (gsize) stats[6]);
  g_assert_false (r->weighted);
  g_assert_true (r->chi2 < r->chi2_start);
  g_assert_cmpuint (r->nfev, ==, gc.g.calls);
  g_assert_cmpuint (r->njev, >=, r->niter);
  g_assert_cmpfloat (r->wall_s, >=, 0.0);
  g_assert_cmpstr (r->message, ==, xrlab_fit_stop_to_string (r->stop));
  gauss_case_clear (&gc);
}

/* Every method and solver reaches the same minimum. */
static void
test_methods_agree (void)
{
  const struct { XrlabFitMethod method; XrlabFitSolver solver; } variants[] = {
    { XRLAB_FIT_METHOD_LM, XRLAB_FIT_SOLVER_QR },
    { XRLAB_FIT_METHOD_LM_ACCEL, XRLAB_FIT_SOLVER_CHOLESKY },
    { XRLAB_FIT_METHOD_FD, XRLAB_FIT_SOLVER_CHOLESKY },
  };
  GaussCase gc;
  g_autoptr(XrlabFit) ref_fit = NULL;
  g_autoptr(XrlabFitResult) ref = NULL;

  gauss_case_init (&gc);
  ref_fit = xrlab_fit_new (&gc.prob, NULL, NULL);
  ref = fit_or_die (ref_fit, gauss_start);
  for (gsize v = 0; v < G_N_ELEMENTS (variants); v++)
    {
      XrlabFitOptions o;
      g_autoptr(XrlabFit) fit = NULL;
      g_autoptr(XrlabFitResult) r = NULL;
      g_autoptr(GError) error = NULL;

      xrlab_fit_options_init (&o);
      o.method = variants[v].method;
      o.solver = variants[v].solver;
      if (o.method == XRLAB_FIT_METHOD_FD)
        gc.prob.jacobian = NULL;
      fit = xrlab_fit_new (&gc.prob, &o, &error);
      g_assert_no_error (error);
      r = fit_or_die (fit, gauss_start);
      for (gsize j = 0; j < 4; j++)
        {
          assert_rel (r->values[j], ref->values[j], 1e-7, "value");
          assert_rel (r->errors[j], ref->errors[j],
                      o.method == XRLAB_FIT_METHOD_FD ? 1e-5 : 1e-7, "error");
        }
      assert_rel (r->chi2, ref->chi2, 1e-12, "chi2");
      gc.prob.jacobian = gauss_jac;
    }
  gauss_case_clear (&gc);
}

/* ---- an exponential decay with per-point σ -------------------------------------- */

typedef struct {
  gsize n;
  const double *t;
} Decay;

static gboolean
decay_model (const double *th, double *out, gpointer data, GError **error)
{
  Decay *d = data;

  for (gsize i = 0; i < d->n; i++)
    out[i] = th[0] * exp (-d->t[i] / th[1]) + th[2];
  return TRUE;
}

static gboolean
decay_jac (const double *th, double *jac, gpointer data, GError **error)
{
  Decay *d = data;

  for (gsize i = 0; i < d->n; i++)
    {
      double e = exp (-d->t[i] / th[1]);
      jac[3 * i] = e;
      jac[3 * i + 1] = th[0] * e * d->t[i] / (th[1] * th[1]);
      jac[3 * i + 2] = 1.0;
    }
  return TRUE;
}

typedef struct {
  double *raw, *t, *y, *sigma;
  Decay d;
  XrlabFitProblem prob;
} DecayCase;

static const char *const decay_names[] = { "a", "tau", "b" };
static const double decay_lower[] = { -INFINITY, 0.01, -INFINITY };
static const double decay_start[] = { 5.0, 1.0, 0.5 };

static void
decay_case_init (DecayCase *dc)
{
  gsize rows, cols;

  dc->raw = read_fixture ("decay-data.csv", &rows, &cols);
  g_assert_cmpuint (cols, ==, 3);
  dc->t = g_new (double, rows);
  dc->y = g_new (double, rows);
  dc->sigma = g_new (double, rows);
  for (gsize i = 0; i < rows; i++)
    {
      dc->t[i] = dc->raw[3 * i];
      dc->y[i] = dc->raw[3 * i + 1];
      dc->sigma[i] = dc->raw[3 * i + 2];
    }
  dc->d.n = rows;
  dc->d.t = dc->t;
  memset (&dc->prob, 0, sizeof dc->prob);
  dc->prob.n = rows;
  dc->prob.p = 3;
  dc->prob.model = decay_model;
  dc->prob.jacobian = decay_jac;
  dc->prob.user_data = &dc->d;
  dc->prob.data = dc->y;
  dc->prob.names = decay_names;
  dc->prob.lower = decay_lower;
  dc->prob.sigma_kind = XRLAB_FIT_SIGMA_FULL;
  dc->prob.sigma = dc->sigma;
}

static void
decay_case_clear (DecayCase *dc)
{
  g_free (dc->raw);
  g_free (dc->t);
  g_free (dc->y);
  g_free (dc->sigma);
}

static void
test_decay_weighted_lmfit (void)
{
  DecayCase dc;
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabFit) fit = NULL;
  g_autoptr(XrlabFitResult) r = NULL;
  g_autofree double *params = NULL, *stats = NULL;
  gsize rows, cols;

  decay_case_init (&dc);
  fit = xrlab_fit_new (&dc.prob, NULL, &error);
  g_assert_no_error (error);
  r = fit_or_die (fit, decay_start);
  g_assert_true (r->weighted);
  params = read_fixture ("decay-params.csv", &rows, &cols);
  for (gsize j = 0; j < 3; j++)
    {
      assert_rel (r->values[j], params[2 * j], 1e-8, decay_names[j]);
      /* σ given: the covariance is not rescaled by χ²_ν (lmfit scale_covar=False) */
      assert_rel (r->errors[j], params[2 * j + 1], 1e-6, decay_names[j]);
    }
  stats = read_fixture ("decay-stats.csv", &rows, &cols);
  assert_rel (r->chi2, stats[0], 1e-12, "chi2");
  assert_rel (r->redchi, stats[1], 1e-12, "redchi");
  assert_abs (r->aic, stats[2], 1e-9, "aic");
  assert_abs (r->bic, stats[3], 1e-9, "bic");
  /* R² is weighted consistently here (lmfit mixes weighted residuals with an
   * unweighted total sum of squares): check it by hand. */
  {
    double sw = 0, swy = 0, ybar, sst = 0;
    for (gsize i = 0; i < dc.prob.n; i++)
      {
        double w = 1.0 / (dc.sigma[i] * dc.sigma[i]);
        sw += w;
        swy += w * dc.y[i];
      }
    ybar = swy / sw;
    for (gsize i = 0; i < dc.prob.n; i++)
      sst += (dc.y[i] - ybar) * (dc.y[i] - ybar) / (dc.sigma[i] * dc.sigma[i]);
    assert_rel (r->r2, 1.0 - r->chi2 / sst, 1e-12, "weighted r2");
  }
  decay_case_clear (&dc);
}

/* ---- confidence intervals against lmfit ---------------------------------------- */

static void
check_ci_against (XrlabFit *fit, const XrlabFitResult *r, const char *fixture,
                  const char *const *names)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabFitCI) ci = NULL;
  g_autofree double *ref = NULL;
  gsize rows, cols, params[8];
  const double sigmas[] = { 3.0, 1.0, 2.0 };   /* unsorted on purpose */
  gsize np = r->p;

  for (gsize j = 0; j < np; j++)
    params[j] = j;
  ci = xrlab_fit_conf_interval (fit, r, params, np, sigmas, 3, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (ci);
  g_assert_cmpfloat (ci->sigmas[0], ==, 1.0);
  g_assert_cmpfloat (ci->sigmas[2], ==, 3.0);
  assert_rel (ci->probs[0], 0.6826894921370859, 1e-14, "P(1σ)");
  assert_rel (ci->probs[2], 0.9973002039367398, 1e-14, "P(3σ)");
  g_assert_cmpuint (ci->nfits, >, 0);

  ref = read_fixture (fixture, &rows, &cols);
  g_assert_cmpuint (cols, ==, 6);
  g_assert_cmpuint (rows, ==, np * 3);
  for (gsize k = 0; k < rows; k++)
    {
      const double *row = ref + 6 * k;
      gsize a = (gsize) row[0], s = (gsize) row[1] - 1;
      double err = r->errors[a], v = r->values[a];
      double lo = ci->lower[a * 3 + s], hi = ci->upper[a * 3 + s];
      g_autofree char *what_lo = g_strdup_printf ("%s %gσ lower", names[a], row[1]);
      g_autofree char *what_hi = g_strdup_printf ("%s %gσ upper", names[a], row[1]);

      if (g_getenv ("XRLAB_CI_DEV"))
        printf ("# %s s=%g dlo=%.2e dhi=%.2e (in stderr)  vs default %.2e %.2e\n", names[a],
                row[1], (lo - row[2]) / err, (hi - row[3]) / err, (lo - row[4]) / err,
                (hi - row[5]) / err);
      /* lmfit with tight roots: the same crossings to 1e-7 of a standard error */
      assert_abs (lo, row[2], 1e-7 * err, what_lo);
      assert_abs (hi, row[3], 1e-7 * err, what_hi);
      /* lmfit's defaults: TOMS 748 with rtol 0.5e−4, relative to the value */
      assert_abs (lo, row[4], 1e-4 * fabs (row[4]) + 1e-5 * err, what_lo);
      assert_abs (hi, row[5], 1e-4 * fabs (row[5]) + 1e-5 * err, what_hi);
      g_assert_cmpfloat (lo, <, v);
      g_assert_cmpfloat (hi, >, v);
    }
}

static void
test_ci_lmfit (void)
{
  GaussCase gc;
  DecayCase dc;
  g_autoptr(XrlabFit) fit = NULL, fit2 = NULL;
  g_autoptr(XrlabFitResult) r = NULL, r2 = NULL;

  gauss_case_init (&gc);
  fit = xrlab_fit_new (&gc.prob, NULL, NULL);
  r = fit_or_die (fit, gauss_start);
  check_ci_against (fit, r, "gauss-ci.csv", gauss_names);
  gauss_case_clear (&gc);

  decay_case_init (&dc);
  fit2 = xrlab_fit_new (&dc.prob, NULL, NULL);
  r2 = fit_or_die (fit2, decay_start);
  check_ci_against (fit2, r2, "decay-ci.csv", decay_names);
  decay_case_clear (&dc);
}

/* ---- a straight line: everything by hand ---------------------------------------- */

typedef struct {
  gsize n;
  const double *x;
  gsize p;   /* 1: y = b·x, 2: y = a + b·x */
} Line;

static gboolean
line_model (const double *th, double *out, gpointer data, GError **error)
{
  Line *l = data;

  for (gsize i = 0; i < l->n; i++)
    out[i] = (l->p == 2) ? th[0] + th[1] * l->x[i] : th[0] * l->x[i];
  return TRUE;
}

static gboolean
line_jac (const double *th, double *jac, gpointer data, GError **error)
{
  Line *l = data;

  for (gsize i = 0; i < l->n; i++)
    {
      if (l->p == 2)
        {
          jac[2 * i] = 1.0;
          jac[2 * i + 1] = l->x[i];
        }
      else
        jac[i] = l->x[i];
    }
  return TRUE;
}

static const double line_x[] = { 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0 };
static const double line_y[] = { 2.9, 5.2, 6.8, 9.1, 11.2, 12.8, 15.3 };

/* χ², R², AIC, BIC, values and standard errors of an ordinary linear
 * regression, all computed here from the textbook formulas. */
static void
test_stats_by_hand (void)
{
  Line l = { G_N_ELEMENTS (line_x), line_x, 2 };
  XrlabFitProblem prob = { .n = l.n, .p = 2, .model = line_model, .jacobian = line_jac,
                           .user_data = &l, .data = line_y };
  g_autoptr(XrlabFit) fit = xrlab_fit_new (&prob, NULL, NULL);
  g_autoptr(XrlabFitResult) r = NULL;
  const double start[] = { 0.0, 1.0 };
  const double N = (double) l.n;
  double xbar = 0, ybar = 0, sxx = 0, sxy = 0, syy = 0, a, b, ssr = 0, s2;

  r = fit_or_die (fit, start);
  for (gsize i = 0; i < l.n; i++)
    {
      xbar += line_x[i] / N;
      ybar += line_y[i] / N;
    }
  for (gsize i = 0; i < l.n; i++)
    {
      sxx += (line_x[i] - xbar) * (line_x[i] - xbar);
      sxy += (line_x[i] - xbar) * (line_y[i] - ybar);
      syy += (line_y[i] - ybar) * (line_y[i] - ybar);
    }
  b = sxy / sxx;
  a = ybar - b * xbar;
  for (gsize i = 0; i < l.n; i++)
    {
      double e = line_y[i] - a - b * line_x[i];
      ssr += e * e;
    }
  s2 = ssr / (N - 2);
  /* The fit stops when the next step would change χ² by less than its
   * rounding, i.e. within ~1e−7 standard errors of the exact solution. */
  assert_rel (r->values[0], a, 1e-9, "intercept");
  assert_rel (r->values[1], b, 1e-9, "slope");
  assert_rel (r->chi2, ssr, 1e-10, "chi2");
  assert_rel (r->redchi, s2, 1e-10, "redchi");
  assert_rel (r->r2, 1.0 - ssr / syy, 1e-12, "r2");
  assert_abs (r->aic, N * log (ssr / N) + 2 * 2, 1e-10, "aic");
  assert_abs (r->bic, N * log (ssr / N) + 2 * log (N), 1e-10, "bic");
  assert_rel (r->errors[1], sqrt (s2 / sxx), 1e-10, "stderr slope");
  assert_rel (r->errors[0], sqrt (s2 * (1.0 / N + xbar * xbar / sxx)), 1e-10,
              "stderr intercept");
  assert_rel (r->covar[1], -s2 * xbar / sxx, 1e-10, "covariance");
  assert_rel (r->correl[1], r->covar[1] / (r->errors[0] * r->errors[1]), 1e-14, "correl");
  g_assert_cmpuint (r->ndata, ==, l.n);
  g_assert_cmpuint (r->nfree, ==, l.n - 2);
}

/* For a linear model χ² is exactly quadratic in each parameter, so the
 * profile crossing of P is at θ ± e·√(F⁻¹(P; 1, ν)), e the scaled standard
 * error: checks the profile, the F-test and the root search together. */
static void
test_ci_linear_exact (void)
{
  for (gsize p = 1; p <= 2; p++)
    {
      Line l = { G_N_ELEMENTS (line_x), line_x, p };
      XrlabFitProblem prob = { .n = l.n, .p = p, .model = line_model, .jacobian = line_jac,
                               .user_data = &l, .data = line_y };
      g_autoptr(XrlabFit) fit = xrlab_fit_new (&prob, NULL, NULL);
      g_autoptr(XrlabFitResult) r = NULL;
      g_autoptr(XrlabFitCI) ci = NULL;
      g_autoptr(GError) error = NULL;
      const double start[] = { 0.5, 0.5 };
      const gsize params[] = { 0, 1 };
      const double sigmas[] = { 1.0, 2.0, 3.0, 0.5 };   /* 0.5: a probability */

      r = fit_or_die (fit, start);
      ci = xrlab_fit_conf_interval (fit, r, params, p, sigmas, 4, NULL, &error);
      g_assert_no_error (error);
      assert_rel (ci->probs[0], 0.5, 1e-15, "P given as a probability");
      for (gsize a = 0; a < p; a++)
        for (gsize s = 0; s < 4; s++)
          {
            double half = r->errors[a] * sqrt (gsl_cdf_fdist_Pinv (ci->probs[s], 1.0,
                                                                   (double) r->nfree));
            assert_abs (ci->lower[a * 4 + s], r->values[a] - half, 2e-6 * r->errors[a],
                        "linear lower");
            assert_abs (ci->upper[a * 4 + s], r->values[a] + half, 2e-6 * r->errors[a],
                        "linear upper");
          }
    }
}

/* ---- bounds ----------------------------------------------------------------------------- */

/* A decay time whose unconstrained optimum (1.3) lies above its upper bound
 * (1.0) is pinned at the bound; the other parameters are those of the fit
 * with the decay time fixed there. */
static void
test_bound_pinned (void)
{
  DecayCase dc;
  const double lower[] = { -INFINITY, 0.01, -INFINITY };
  const double upper[] = { INFINITY, 1.0, INFINITY };
  const double start[] = { 5.0, 0.5, 0.5 };
  g_autoptr(XrlabFit) fit = NULL;
  g_autoptr(XrlabFitResult) r = NULL;
  g_autoptr(XrlabFitCI) ci = NULL;
  g_autoptr(GError) error = NULL;

  decay_case_init (&dc);
  dc.prob.lower = lower;
  dc.prob.upper = upper;
  fit = xrlab_fit_new (&dc.prob, NULL, &error);
  g_assert_no_error (error);
  r = fit_or_die (fit, start);
  g_assert_true (r->at_bound[1]);
  g_assert_false (r->at_bound[0]);
  g_assert_false (r->at_bound[2]);
  assert_abs (r->values[1], 1.0, 1e-8, "pinned tau");
  g_assert_cmpfloat (r->values[1], <=, 1.0);
  /* The errors are those of the external Jacobian at the solution. */
  g_assert_true (r->errors_valid);

  /* Reference: tau fixed at 1, a linear fit in (a, b) */
  {
    double s00 = 0, s01 = 0, s11 = 0, r0 = 0, r1 = 0, det;
    for (gsize i = 0; i < dc.prob.n; i++)
      {
        double w = 1.0 / (dc.sigma[i] * dc.sigma[i]), e = exp (-dc.t[i] / 1.0);
        s00 += w * e * e;
        s01 += w * e;
        s11 += w;
        r0 += w * e * dc.y[i];
        r1 += w * dc.y[i];
      }
    det = s00 * s11 - s01 * s01;
    assert_rel (r->values[0], (r0 * s11 - r1 * s01) / det, 1e-6, "a with tau pinned");
    assert_rel (r->values[2], (s00 * r1 - s01 * r0) / det, 1e-6, "b with tau pinned");
  }

  /* The profile of tau stops at its bound: the upper crossings are +∞. */
  {
    const gsize params[] = { 1 };
    ci = xrlab_fit_conf_interval (fit, r, params, 1, NULL, 0, NULL, &error);
    g_assert_no_error (error);
    for (gsize s = 0; s < 3; s++)
      {
        g_assert_cmpfloat (ci->upper[s], ==, INFINITY);
        g_assert_cmpfloat (ci->lower[s], <, 1.0);
      }
  }
  decay_case_clear (&dc);
}

/* The bounded Jacobian the solver sees (weights, chain rule through every
 * kind of bound) against central differences of its residuals. */
static void
test_bound_jacobian (void)
{
  GaussCase gc;
  /* A: [0, ∞); x0: (−∞, 6]; s: [0.2, 5]; c: unbounded */
  const double lower[] = { 0.0, -INFINITY, 0.2, -INFINITY };
  const double upper[] = { INFINITY, 6.0, 5.0, INFINITY };
  const double points[][4] = {
    { 10.0, 4.0, 1.0, 2.0 }, { 0.3, 5.9, 0.25, -1.0 }, { 30.0, -2.0, 4.5, 0.0 },
  };
  double *sigma;

  gauss_case_init (&gc);
  gc.prob.lower = lower;
  gc.prob.upper = upper;
  sigma = g_new (double, gc.n);
  for (gsize i = 0; i < gc.n; i++)
    sigma[i] = 0.2 + 0.01 * (double) i;
  gc.prob.sigma_kind = XRLAB_FIT_SIGMA_FULL;
  gc.prob.sigma = sigma;
  for (int method = 0; method < 2; method++)
    {
      XrlabFitOptions o;
      g_autoptr(XrlabFit) fit = NULL;
      g_autoptr(GError) error = NULL;

      xrlab_fit_options_init (&o);
      o.method = method ? XRLAB_FIT_METHOD_FD : XRLAB_FIT_METHOD_LM;
      fit = xrlab_fit_new (&gc.prob, &o, &error);
      g_assert_no_error (error);
      for (gsize k = 0; k < G_N_ELEMENTS (points); k++)
        {
          const gsize n = gc.n, p = 4;
          g_autofree double *r0 = g_new (double, n);
          g_autofree double *rp = g_new (double, n);
          g_autofree double *rm = g_new (double, n);
          g_autofree double *J = g_new (double, n * p);
          double u[4], back[4], jmax = 0.0;

          xrlab_fit_to_internal (fit, points[k], u);
          xrlab_fit_to_external (fit, u, back);
          for (gsize j = 0; j < p; j++)
            assert_rel (back[j], points[k][j], 1e-14, "bound round trip");
          g_assert_true (xrlab_fit_eval_internal (fit, u, r0, J, &error));
          g_assert_no_error (error);
          /* residuals are (m − y)/σ */
          {
            double m[64];
            g_assert_cmpuint (n, <=, 64);
            gauss_model (points[k], m, &gc.g, NULL);
            for (gsize i = 0; i < n; i++)
              assert_rel (r0[i], (m[i] - gc.y[i]) / sigma[i], 1e-13, "residual");
          }
          for (gsize i = 0; i < n * p; i++)
            jmax = MAX (jmax, fabs (J[i]));
          for (gsize j = 0; j < p; j++)
            {
              double up[4], h = 1e-6 * MAX (1.0, fabs (u[j]));
              memcpy (up, u, sizeof up);
              up[j] = u[j] + h;
              g_assert_true (xrlab_fit_eval_internal (fit, up, rp, NULL, &error));
              up[j] = u[j] - h;
              g_assert_true (xrlab_fit_eval_internal (fit, up, rm, NULL, &error));
              for (gsize i = 0; i < n; i++)
                {
                  double fd = (rp[i] - rm[i]) / (2 * h);
                  /* forward differences (FD method) are good to ~√ε */
                  double tol = (method ? 1e-5 : 1e-8) * jmax;
                  if (!(fabs (J[i * p + j] - fd) <= tol))
                    g_error ("point %zu, ∂r_%zu/∂u_%zu: %g vs differences %g", k, i, j,
                             J[i * p + j], fd);
                }
            }
        }
    }
  g_free (sigma);
  gauss_case_clear (&gc);
}

/* ---- weights --------------------------------------------------------------------------- */

/* A 2D layout: rows share the peak, each row has its own amplitude. */
#define W_ROWS 5
#define W_COLS 30

typedef struct {
  double x[W_COLS];
} Grid;

static gboolean
grid_model (const double *th, double *out, gpointer data, GError **error)
{
  Grid *g = data;

  for (gsize r = 0; r < W_ROWS; r++)
    for (gsize c = 0; c < W_COLS; c++)
      {
        double z = (g->x[c] - th[0]) / th[1];
        out[r * W_COLS + c] = th[2] * (1.0 + 0.3 * (double) r) * exp (-0.5 * z * z) + th[3];
      }
  return TRUE;
}

static gboolean
grid_jac (const double *th, double *jac, gpointer data, GError **error)
{
  Grid *g = data;

  for (gsize r = 0; r < W_ROWS; r++)
    for (gsize c = 0; c < W_COLS; c++)
      {
        double z = (g->x[c] - th[0]) / th[1], e = exp (-0.5 * z * z);
        double k = 1.0 + 0.3 * (double) r;
        double *row = jac + 4 * (r * W_COLS + c);
        row[0] = th[2] * k * e * z / th[1];
        row[1] = th[2] * k * e * z * z / th[1];
        row[2] = k * e;
        row[3] = 1.0;
      }
  return TRUE;
}

static XrlabFitResult *
grid_fit (Grid *g, const double *y, XrlabFitSigmaKind kind, const double *sigma)
{
  XrlabFitProblem prob = { .n = W_ROWS * W_COLS, .p = 4, .n_rows = W_ROWS, .n_cols = W_COLS,
                           .model = grid_model, .jacobian = grid_jac, .user_data = g,
                           .data = y, .sigma_kind = kind, .sigma = sigma };
  const double start[] = { 0.2, 1.5, 4.0, 0.0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabFit) fit = xrlab_fit_new (&prob, NULL, &error);

  g_assert_no_error (error);
  return fit_or_die (fit, start);
}

static void
test_weights (void)
{
  Grid g;
  double y[W_ROWS * W_COLS], full[W_ROWS * W_COLS];
  const double truth[] = { 0.3, 1.2, 5.0, 0.7 };
  const double row_sigma[W_ROWS] = { 0.05, 0.1, 0.2, 0.4, 0.8 };
  double col_sigma[W_COLS];
  const double scalar = 0.25;
  g_autoptr(XrlabFitResult) unw = NULL, sc = NULL, rows = NULL, rows_full = NULL;
  g_autoptr(XrlabFitResult) cols = NULL, cols_full = NULL;
  GRand *rand = g_rand_new_with_seed (42);

  for (gsize c = 0; c < W_COLS; c++)
    {
      g.x[c] = -3.0 + 6.0 * (double) c / (W_COLS - 1);
      col_sigma[c] = 0.05 + 0.02 * (double) c;
    }
  grid_model (truth, y, &g, NULL);
  for (gsize i = 0; i < W_ROWS * W_COLS; i++)
    y[i] += 0.1 * (g_rand_double (rand) - 0.5);
  g_rand_free (rand);

  unw = grid_fit (&g, y, XRLAB_FIT_SIGMA_NONE, NULL);
  /* One σ for all: the same minimum, χ² / σ², errors not rescaled. */
  sc = grid_fit (&g, y, XRLAB_FIT_SIGMA_SCALAR, &scalar);
  assert_rel (sc->chi2, unw->chi2 / (scalar * scalar), 1e-10, "scalar σ chi2");
  for (gsize j = 0; j < 4; j++)
    {
      assert_rel (sc->values[j], unw->values[j], 1e-8, "scalar σ value");
      assert_rel (sc->errors[j], unw->errors[j] * scalar / sqrt (unw->redchi), 1e-8,
                  "scalar σ error");
    }
  assert_rel (sc->r2, unw->r2, 1e-10, "scalar σ r2");
  g_assert_false (sc->covar_scaled);
  g_assert_true (unw->covar_scaled);

  /* lmfit's scale_covar: YES scales by χ²_ν also with σ (lmfit's default),
   * NO never; the values and χ² do not change */
  {
    XrlabFitScaleCovar yes, no;
    XrlabFitOptions o;
    XrlabFitProblem prob = { .n = W_ROWS * W_COLS, .p = 4, .n_rows = W_ROWS, .n_cols = W_COLS,
                             .model = grid_model, .jacobian = grid_jac,
                             .user_data = &g, .data = y,
                             .sigma_kind = XRLAB_FIT_SIGMA_SCALAR, .sigma = &scalar };
    const double start[] = { 0.2, 1.5, 4.0, 0.0 };
    g_autoptr(XrlabFitResult) sy = NULL, un = NULL;
    g_autoptr(GError) error = NULL;

    g_assert_true (xrlab_fit_scale_covar_from_string ("yes", &yes));
    g_assert_true (xrlab_fit_scale_covar_from_string ("No", &no));
    g_assert_false (xrlab_fit_scale_covar_from_string ("maybe", &no));
    xrlab_fit_options_init (&o);
    g_assert_cmpint (o.scale_covar, ==, XRLAB_FIT_SCALE_COVAR_AUTO);
    o.scale_covar = yes;
    {
      g_autoptr(XrlabFit) fit = xrlab_fit_new (&prob, &o, &error);
      g_assert_no_error (error);
      sy = fit_or_die (fit, start);
    }
    o.scale_covar = XRLAB_FIT_SCALE_COVAR_NO;
    prob.sigma_kind = XRLAB_FIT_SIGMA_NONE;
    prob.sigma = NULL;
    {
      g_autoptr(XrlabFit) fit = xrlab_fit_new (&prob, &o, &error);
      g_assert_no_error (error);
      un = fit_or_die (fit, start);
    }
    g_assert_true (sy->covar_scaled);
    g_assert_false (un->covar_scaled);
    assert_rel (sy->chi2, sc->chi2, 1e-12, "scale_covar chi2");
    for (gsize j = 0; j < 4; j++)
      {
        assert_rel (sy->values[j], sc->values[j], 1e-12, "scale_covar value");
        assert_rel (sy->errors[j], sc->errors[j] * sqrt (sc->redchi), 1e-10, "scale_covar yes");
        assert_rel (un->errors[j], unw->errors[j] / sqrt (unw->redchi), 1e-10, "scale_covar no");
      }
  }

  /* Per row (per delay) equals the full matrix built from it. */
  for (gsize r = 0; r < W_ROWS; r++)
    for (gsize c = 0; c < W_COLS; c++)
      full[r * W_COLS + c] = row_sigma[r];
  rows = grid_fit (&g, y, XRLAB_FIT_SIGMA_ROWS, row_sigma);
  rows_full = grid_fit (&g, y, XRLAB_FIT_SIGMA_FULL, full);
  assert_rel (rows->chi2, rows_full->chi2, 1e-12, "rows chi2");
  for (gsize j = 0; j < 4; j++)
    {
      assert_rel (rows->values[j], rows_full->values[j], 1e-10, "rows value");
      assert_rel (rows->errors[j], rows_full->errors[j], 1e-8, "rows error");
    }
  /* ... and the weights matter: the minimum moved away from the unweighted one. */
  g_assert_cmpfloat (fabs (rows->values[2] - unw->values[2]), >, 1e-6);

  /* Per column (per energy) likewise. */
  for (gsize r = 0; r < W_ROWS; r++)
    for (gsize c = 0; c < W_COLS; c++)
      full[r * W_COLS + c] = col_sigma[c];
  cols = grid_fit (&g, y, XRLAB_FIT_SIGMA_COLUMNS, col_sigma);
  cols_full = grid_fit (&g, y, XRLAB_FIT_SIGMA_FULL, full);
  assert_rel (cols->chi2, cols_full->chi2, 1e-12, "columns chi2");
  for (gsize j = 0; j < 4; j++)
    {
      assert_rel (cols->values[j], cols_full->values[j], 1e-10, "columns value");
      assert_rel (cols->errors[j], cols_full->errors[j], 1e-8, "columns error");
    }
  /* χ² is Σ((m − y)/σ)² at the reported values. */
  {
    double m[W_ROWS * W_COLS], chi2 = 0;
    grid_model (cols->values, m, &g, NULL);
    for (gsize i = 0; i < W_ROWS * W_COLS; i++)
      {
        double d = (m[i] - y[i]) / col_sigma[i % W_COLS];
        chi2 += d * d;
      }
    assert_rel (cols->chi2, chi2, 1e-12, "chi2 by hand");
  }
}

/* ---- cancellation and progress ------------------------------------------------------ */

typedef struct {
  GCancellable *cancellable;
  guint cancel_at_iter;       /* cancel from the progress callback at this iteration */
  guint cancel_at_call;       /* or from the model callback at this call (0: never) */
  guint calls, calls_after_cancel;
  GArray *iters;
  GArray *chi2;
  double last_theta[4];
  gsize n;
  const double *x;
} Watch;

static gboolean
watched_model (const double *th, double *out, gpointer data, GError **error)
{
  Watch *w = data;
  Gauss g = { w->n, w->x, 0 };

  if (g_cancellable_is_cancelled (w->cancellable))
    w->calls_after_cancel++;
  w->calls++;
  if (w->cancel_at_call != 0 && w->calls == w->cancel_at_call)
    g_cancellable_cancel (w->cancellable);
  return gauss_model (th, out, &g, error);
}

static gboolean
watched_jac (const double *th, double *jac, gpointer data, GError **error)
{
  Watch *w = data;
  Gauss g = { w->n, w->x, 0 };

  if (g_cancellable_is_cancelled (w->cancellable))
    w->calls_after_cancel++;
  return gauss_jac (th, jac, &g, error);
}

static void
watch_progress (guint iter, double chi2, const double *theta, gsize p, gpointer data)
{
  Watch *w = data;

  g_assert_cmpuint (p, ==, 4);
  g_array_append_val (w->iters, iter);
  g_array_append_val (w->chi2, chi2);
  memcpy (w->last_theta, theta, sizeof w->last_theta);
  if (w->cancel_at_iter != 0 && iter == w->cancel_at_iter)
    g_cancellable_cancel (w->cancellable);
}

static XrlabFit *
watched_fit (GaussCase *gc, Watch *w)
{
  XrlabFitOptions o;
  g_autoptr(GError) error = NULL;
  XrlabFitProblem prob = gc->prob;
  XrlabFit *fit;

  w->n = gc->n;
  w->x = gc->x;
  w->cancellable = g_cancellable_new ();
  w->iters = g_array_new (FALSE, FALSE, sizeof (guint));
  w->chi2 = g_array_new (FALSE, FALSE, sizeof (double));
  xrlab_fit_options_init (&o);
  o.progress = watch_progress;
  o.progress_data = w;
  prob.model = watched_model;
  prob.jacobian = watched_jac;
  prob.user_data = w;
  fit = xrlab_fit_new (&prob, &o, &error);
  g_assert_no_error (error);
  return fit;
}

static void
watch_clear (Watch *w)
{
  g_clear_object (&w->cancellable);
  g_array_unref (w->iters);
  g_array_unref (w->chi2);
}

static void
test_progress (void)
{
  GaussCase gc;
  Watch w = { 0 };
  g_autoptr(XrlabFit) fit = NULL;
  g_autoptr(XrlabFitResult) r = NULL;

  gauss_case_init (&gc);
  fit = watched_fit (&gc, &w);
  r = fit_or_die (fit, gauss_start);
  /* iterations 0 (the start), 1, ..., niter in order; χ² never rises */
  g_assert_cmpuint (w.iters->len, ==, r->niter + 1);
  for (guint k = 0; k < w.iters->len; k++)
    {
      g_assert_cmpuint (g_array_index (w.iters, guint, k), ==, k);
      if (k > 0)
        g_assert_cmpfloat (g_array_index (w.chi2, double, k), <=,
                           g_array_index (w.chi2, double, k - 1));
    }
  g_assert_cmpfloat (g_array_index (w.chi2, double, 0), ==, r->chi2_start);
  g_assert_cmpfloat (g_array_index (w.chi2, double, w.chi2->len - 1), ==, r->chi2);
  for (gsize j = 0; j < 4; j++)
    g_assert_cmpfloat (w.last_theta[j], ==, r->values[j]);
  watch_clear (&w);
  gauss_case_clear (&gc);
}

/* Cancelled between iterations: returns at once with the parameters of the
 * last iteration, which the progress callback saw. */
static void
test_cancel_between (void)
{
  GaussCase gc;
  Watch w = { 0 };
  g_autoptr(XrlabFit) fit = NULL;
  g_autoptr(XrlabFitResult) r = NULL;
  g_autoptr(GError) error = NULL;

  gauss_case_init (&gc);
  w.cancel_at_iter = 2;
  fit = watched_fit (&gc, &w);
  g_assert_false (xrlab_fit_run (fit, gauss_start, w.cancellable, &r, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_nonnull (r);
  g_assert_cmpint (r->stop, ==, XRLAB_FIT_STOP_CANCELLED);
  g_assert_false (r->converged);
  g_assert_cmpuint (r->niter, ==, 2);
  g_assert_cmpuint (w.calls_after_cancel, ==, 0);
  for (gsize j = 0; j < 4; j++)
    g_assert_cmpfloat (r->values[j], ==, w.last_theta[j]);
  g_assert_cmpfloat (r->chi2, ==, g_array_index (w.chi2, double, 2));
  g_assert_cmpfloat (r->chi2, <, r->chi2_start);
  watch_clear (&w);
  gauss_case_clear (&gc);
}

/* Cancelled inside a model evaluation: the fit stops before evaluating
 * again and returns the best (last accepted) parameters. */
static void
test_cancel_inside (void)
{
  GaussCase gc;
  Watch w = { 0 };
  g_autoptr(XrlabFit) fit = NULL;
  g_autoptr(XrlabFitResult) r = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabFitResult) full = NULL;

  gauss_case_init (&gc);
  w.cancel_at_call = 4;
  fit = watched_fit (&gc, &w);
  g_assert_false (xrlab_fit_run (fit, gauss_start, w.cancellable, &r, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_nonnull (r);
  g_assert_cmpint (r->stop, ==, XRLAB_FIT_STOP_CANCELLED);
  g_assert_cmpuint (w.calls, ==, 4);
  g_assert_cmpuint (w.calls_after_cancel, ==, 0);
  /* the best so far is the last point the progress callback reported */
  for (gsize j = 0; j < 4; j++)
    g_assert_cmpfloat (r->values[j], ==, w.last_theta[j]);
  g_assert_cmpfloat (r->chi2, ==, g_array_index (w.chi2, double, w.chi2->len - 1));
  g_assert_cmpfloat (r->chi2, <=, r->chi2_start);

  /* the same workspace fits again to the end afterwards */
  g_clear_error (&error);
  w.cancel_at_call = 0;
  g_cancellable_reset (w.cancellable);
  g_assert_true (xrlab_fit_run (fit, gauss_start, w.cancellable, &full, &error));
  g_assert_true (full->converged);
  g_assert_cmpfloat (full->chi2, <, r->chi2);
  watch_clear (&w);
  gauss_case_clear (&gc);
}

/* A cancelled confidence-interval search returns the cancellation error. */
static void
test_cancel_ci (void)
{
  GaussCase gc;
  g_autoptr(XrlabFit) fit = NULL;
  g_autoptr(XrlabFitResult) r = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  const gsize params[] = { 0 };

  gauss_case_init (&gc);
  fit = xrlab_fit_new (&gc.prob, NULL, NULL);
  r = fit_or_die (fit, gauss_start);
  g_cancellable_cancel (cancellable);
  g_assert_null (xrlab_fit_conf_interval (fit, r, params, 1, NULL, 0, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  gauss_case_clear (&gc);
}

/* Data of 1e308 (issue 18, weaker spots): every residual is finite, their
 * squares are not; such a fit is refused with a message instead of ending
 * with χ² = inf as if it had converged. */
static void
test_chi2_overflow_refused (void)
{
  GaussCase gc;
  g_autofree double *y = NULL;
  g_autoptr(XrlabFit) fit = NULL;
  g_autoptr(GError) error = NULL;
  XrlabFitResult *r = NULL;
  XrlabFitProblem prob;

  gauss_case_init (&gc);
  y = g_new (double, gc.n);
  for (gsize i = 0; i < gc.n; i++)
    y[i] = (i % 2 ? -1.0 : 1.0) * 1e308;
  prob = gc.prob;
  prob.data = y;
  fit = xrlab_fit_new (&prob, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (xrlab_fit_run (fit, gauss_start, NULL, &r, &error));
  g_assert_null (r);
  g_assert_error (error, XRLAB_FIT_ERROR, XRLAB_FIT_ERROR_DATA);
  g_assert_nonnull (strstr (error->message, "χ² is not finite"));
  g_assert_nonnull (strstr (error->message, "overflow"));
  gauss_case_clear (&gc);
}

/* ---- errors before any work ------------------------------------------------------------- */

static void
expect_new_error (const XrlabFitProblem *prob, int code, const char *fragment)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabFit) fit = xrlab_fit_new (prob, NULL, &error);

  g_assert_null (fit);
  g_assert_error (error, XRLAB_FIT_ERROR, code);
  if (strstr (error->message, fragment) == NULL)
    g_error ("“%s” does not mention “%s”", error->message, fragment);
}

static void
test_bad_input (void)
{
  GaussCase gc;
  XrlabFitProblem prob;
  double y[64], sigma[64];
  const double bad_lower[] = { 0.0, 5.0, 0.2, -INFINITY };
  const double bad_upper[] = { INFINITY, 5.0, 5.0, INFINITY };
  const char *const dup[] = { "A", "x0", "A", "c" };

  gauss_case_init (&gc);
  g_assert_cmpuint (gc.n, <=, 64);
  memcpy (y, gc.y, gc.n * sizeof (double));

  prob = gc.prob;
  prob.n = 0;
  expect_new_error (&prob, XRLAB_FIT_ERROR_EMPTY, "empty");

  prob = gc.prob;
  prob.n = 3;
  expect_new_error (&prob, XRLAB_FIT_ERROR_TOO_FEW_POINTS, "3 points");

  prob = gc.prob;
  prob.data = y;
  y[7] = NAN;
  expect_new_error (&prob, XRLAB_FIT_ERROR_DATA, "point 8");
  y[7] = gc.y[7];
  y[40] = -INFINITY;
  expect_new_error (&prob, XRLAB_FIT_ERROR_DATA, "infinity");
  y[40] = gc.y[40];

  /* a 2D layout names row and column */
  prob = gc.prob;
  prob.data = y;
  prob.n = 40;
  prob.n_rows = 4;
  prob.n_cols = 10;
  y[23] = NAN;
  expect_new_error (&prob, XRLAB_FIT_ERROR_DATA, "row 3, column 4");
  y[23] = gc.y[23];
  prob.n_rows = 3;
  expect_new_error (&prob, XRLAB_FIT_ERROR_INVALID, "3 × 10");

  prob = gc.prob;
  for (gsize i = 0; i < gc.n; i++)
    sigma[i] = 1.0;
  sigma[12] = 0.0;
  prob.sigma_kind = XRLAB_FIT_SIGMA_FULL;
  prob.sigma = sigma;
  expect_new_error (&prob, XRLAB_FIT_ERROR_DATA, "σ = 0");
  sigma[12] = NAN;
  expect_new_error (&prob, XRLAB_FIT_ERROR_DATA, "point 13");
  prob.sigma_kind = XRLAB_FIT_SIGMA_ROWS;
  prob.n = 40;
  prob.n_rows = 20;
  prob.n_cols = 2;
  expect_new_error (&prob, XRLAB_FIT_ERROR_DATA, "row 13");

  prob = gc.prob;
  prob.lower = bad_lower;
  prob.upper = bad_upper;
  expect_new_error (&prob, XRLAB_FIT_ERROR_INVALID, "“x0”");

  prob = gc.prob;
  prob.names = dup;
  expect_new_error (&prob, XRLAB_FIT_ERROR_INVALID, "“A”");

  prob = gc.prob;
  prob.jacobian = NULL;
  expect_new_error (&prob, XRLAB_FIT_ERROR_INVALID, "Jacobian");

  gauss_case_clear (&gc);
}

static void
test_bad_start (void)
{
  GaussCase gc;
  g_autoptr(XrlabFit) fit = NULL;
  const double outside[] = { 10.0, 4.0, 6.0, 2.0 };   /* s in [0.2, 5] */
  const double negative[] = { -1.0, 4.0, 1.0, 2.0 };  /* A ≥ 0 */
  const double nan_start[] = { 10.0, NAN, 1.0, 2.0 };
  const double *starts[] = { outside, negative, nan_start };
  const char *names[] = { "“s”", "“A”", "“x0”" };

  gauss_case_init (&gc);
  fit = xrlab_fit_new (&gc.prob, NULL, NULL);
  for (gsize k = 0; k < G_N_ELEMENTS (starts); k++)
    {
      g_autoptr(GError) error = NULL;
      XrlabFitResult *r = (XrlabFitResult *) 0x1;

      g_assert_false (xrlab_fit_run (fit, starts[k], NULL, &r, &error));
      g_assert_null (r);
      g_assert_error (error, XRLAB_FIT_ERROR, XRLAB_FIT_ERROR_START);
      g_assert_nonnull (strstr (error->message, names[k]));
    }
  g_assert_cmpuint (gc.g.calls, ==, 0);   /* no work was done */
  gauss_case_clear (&gc);
}

/* A model that is NaN for s < 0.9 (the optimum is 1.115): trial steps into
 * that region are rejected and the fit still converges; NaN at the start is
 * a clear error. */
static gboolean
fragile_model (const double *th, double *out, gpointer data, GError **error)
{
  Gauss *g = data;

  gauss_model (th, out, g, error);
  if (th[2] < 0.9)
    out[g->n / 2] = NAN;
  return TRUE;
}

static gboolean
failing_jac (const double *th, double *jac, gpointer data, GError **error)
{
  Gauss *g = data;

  gauss_jac (th, jac, g, error);
  jac[4 * 3 + 1] = INFINITY;
  return TRUE;
}

static gboolean
erroring_model (const double *th, double *out, gpointer data, GError **error)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "the model says no");
  return FALSE;
}

static void
test_model_trouble (void)
{
  GaussCase gc;
  XrlabFitProblem prob;
  const double far_start[] = { 10.0, 4.0, 3.0, 2.0 };
  const double nan_start[] = { 10.0, 4.0, 0.5, 2.0 };

  gauss_case_init (&gc);
  prob = gc.prob;
  prob.model = fragile_model;
  prob.lower = NULL;
  prob.upper = NULL;
  {
    g_autoptr(XrlabFit) fit = xrlab_fit_new (&prob, NULL, NULL);
    g_autoptr(XrlabFitResult) r = fit_or_die (fit, far_start);
    g_autoptr(GError) error = NULL;
    XrlabFitResult *bad = NULL;

    assert_rel (r->values[2], 1.1150343472718776, 1e-7, "s");
    g_assert_false (xrlab_fit_run (fit, nan_start, NULL, &bad, &error));
    g_assert_null (bad);
    g_assert_error (error, XRLAB_FIT_ERROR, XRLAB_FIT_ERROR_MODEL);
    g_assert_nonnull (strstr (error->message, "point 21"));
  }
  prob = gc.prob;
  prob.jacobian = failing_jac;
  {
    g_autoptr(XrlabFit) fit = xrlab_fit_new (&prob, NULL, NULL);
    g_autoptr(GError) error = NULL;
    XrlabFitResult *bad = NULL;

    g_assert_false (xrlab_fit_run (fit, gauss_start, NULL, &bad, &error));
    g_assert_error (error, XRLAB_FIT_ERROR, XRLAB_FIT_ERROR_MODEL);
    g_assert_nonnull (strstr (error->message, "“x0”"));
  }
  prob = gc.prob;
  prob.model = erroring_model;
  {
    g_autoptr(XrlabFit) fit = xrlab_fit_new (&prob, NULL, NULL);
    g_autoptr(GError) error = NULL;
    XrlabFitResult *bad = NULL;

    g_assert_false (xrlab_fit_run (fit, gauss_start, NULL, &bad, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
  }
  gauss_case_clear (&gc);
}

/* A fit that cannot converge in 3 iterations says so and still reports. */
static void
test_max_iter (void)
{
  GaussCase gc;
  XrlabFitOptions o;
  g_autoptr(XrlabFit) fit = NULL;
  g_autoptr(XrlabFitResult) r = NULL;
  g_autoptr(GError) error = NULL;
  const double start[] = { 1.0, 2.0, 3.0, 0.0 };

  gauss_case_init (&gc);
  xrlab_fit_options_init (&o);
  o.max_iter = 3;
  fit = xrlab_fit_new (&gc.prob, &o, NULL);
  g_assert_true (xrlab_fit_run (fit, start, NULL, &r, &error));
  g_assert_no_error (error);
  g_assert_cmpint (r->stop, ==, XRLAB_FIT_STOP_MAX_ITER);
  g_assert_false (r->converged);
  g_assert_cmpuint (r->niter, ==, 3);
  gauss_case_clear (&gc);
}

/* ---- the covariance paths ---------------------------------------------------------------- */

/* Normal equations and the streaming QR agree on a well-conditioned J of
 * several QR blocks; on an ill-conditioned one the QR path agrees with GSL's
 * QRPT-based gsl_multifit_nlinear_covar. */
static void
test_covariance_paths (void)
{
  const gsize n = 1000, p = 5;
  g_autofree double *J = g_new (double, n * p);
  double C1[25], C2[25];
  GRand *rand = g_rand_new_with_seed (3);

  for (gsize i = 0; i < n * p; i++)
    J[i] = g_rand_double_range (rand, -1.0, 1.0) * pow (10.0, (double) (i % p));
  g_assert_true (xrlab_fit_covariance (J, n, p, FALSE, C1));
  g_assert_true (xrlab_fit_covariance (J, n, p, TRUE, C2));
  for (gsize k = 0; k < p * p; k++)
    assert_abs (C1[k], C2[k], 1e-10 * sqrt (fabs (C1[(k / p) * (p + 1)] * C1[(k % p) * (p + 1)])),
                "covariance paths");

  /* nearly collinear columns: κ(J) ~ 1e7 */
  for (gsize i = 0; i < n; i++)
    {
      double t = (double) i / (double) n;
      J[i * p + 0] = 1.0;
      J[i * p + 1] = t;
      J[i * p + 2] = t * t;
      J[i * p + 3] = t * t * t;
      J[i * p + 4] = t + 1e-6 * g_rand_double_range (rand, -1.0, 1.0);
    }
  g_assert_true (xrlab_fit_covariance (J, n, p, FALSE, C1));
  {
    gsl_matrix_view Jv = gsl_matrix_view_array (J, n, p);
    gsl_matrix *C = gsl_matrix_alloc (p, p);
    g_assert_cmpint (gsl_multifit_nlinear_covar (&Jv.matrix, 0.0, C), ==, 0);
    for (gsize a = 0; a < p; a++)
      for (gsize b = 0; b < p; b++)
        assert_rel (C1[a * p + b], gsl_matrix_get (C, a, b), 1e-5, "ill-conditioned");
    gsl_matrix_free (C);
  }
  /* a zero column: no covariance */
  for (gsize i = 0; i < n; i++)
    J[i * p + 2] = 0.0;
  g_assert_false (xrlab_fit_covariance (J, n, p, FALSE, C1));
  g_rand_free (rand);
}

/* ---- noiseless data ------------------------------------------------------------------ */

/* Data made by the model itself are recovered to rounding (χ² → 0 must end
 * the fit cleanly, with zero errors and no division by zero). */
static void
test_noiseless (void)
{
  GaussCase gc;
  const double truth[] = { 7.5, 5.25, 0.8, -1.0 };
  double y[64];
  g_autoptr(XrlabFit) fit = NULL;
  g_autoptr(XrlabFitResult) r = NULL;

  gauss_case_init (&gc);
  g_assert_cmpuint (gc.n, <=, 64);
  gauss_model (truth, y, &gc.g, NULL);
  gc.prob.data = y;
  fit = xrlab_fit_new (&gc.prob, NULL, NULL);
  r = fit_or_die (fit, gauss_start);
  for (gsize j = 0; j < 4; j++)
    {
      assert_rel (r->values[j], truth[j], 1e-12, "noiseless recovery");
      g_assert_cmpfloat (r->errors[j], <, 1e-12);
    }
  g_assert_cmpfloat (r->chi2, <, 1e-24);
  g_assert_true (isfinite (r->aic) && isfinite (r->bic));
  assert_rel (r->r2, 1.0, 1e-15, "r2");
  gauss_case_clear (&gc);
}

/* ---- reuse ------------------------------------------------------------------------------------- */

static void
test_reuse (void)
{
  GaussCase gc;
  g_autoptr(XrlabFit) fit = NULL;
  g_autoptr(XrlabFitResult) a = NULL, b = NULL, c = NULL;
  const double other[] = { 20.0, 5.0, 2.0, 0.0 };

  gauss_case_init (&gc);
  fit = xrlab_fit_new (&gc.prob, NULL, NULL);
  a = fit_or_die (fit, gauss_start);
  b = fit_or_die (fit, other);
  c = fit_or_die (fit, gauss_start);
  for (gsize j = 0; j < 4; j++)
    {
      assert_rel (b->values[j], a->values[j], 1e-7, "from another start");
      g_assert_cmpfloat (c->values[j], ==, a->values[j]);
      g_assert_cmpfloat (c->errors[j], ==, a->errors[j]);
    }
  g_assert_cmpuint (c->nfev, ==, a->nfev);
  g_assert_cmpstr (xrlab_fit_get_param_name (fit, 2), ==, "s");
  g_assert_cmpint (xrlab_fit_find_param (fit, "c"), ==, 3);
  g_assert_cmpint (xrlab_fit_find_param (fit, "nope"), ==, -1);
  g_assert_cmpuint (xrlab_fit_get_n_params (fit), ==, 4);
  gauss_case_clear (&gc);
}

/* JᵀJ of every column count the vector kernels have (1–16) and two more
 * (the general loop), on row counts around the kernels' edges, against the
 * sums taken in long double: within a few units of rounding of the sum of
 * magnitudes. NaN and infinity right after the rows (the next part of a
 * Jacobian) and in the last row's padding are never read into the sums. */
static void
test_jtj_kernels (void)
{
  static const gsize counts[] = { 0, 1, 2, 3, 5, 16, 17, 255, 256, 1001 };
  GRand *rng = g_rand_new_with_seed (29);

  for (gsize pf = 1; pf <= 18; pf++)
    for (guint c = 0; c < G_N_ELEMENTS (counts); c++)
      {
        const gsize n = counts[c];
        double *R = g_new (double, n * pf + 3 * pf);
        double *jtj = g_new (double, pf * pf);

        for (gsize i = 0; i < n * pf; i++)
          R[i] = g_rand_double_range (rng, -2, 2) * (i % 7 == 0 ? 1e3 : 1.0);
        for (gsize i = n * pf; i < n * pf + 3 * pf; i++)
          R[i] = (i % 2) ? NAN : INFINITY;
        for (gsize k = 0; k < pf * pf; k++)
          jtj[k] = 0.5;                           /* added to, not replaced */
        xrlab_fit_jtj_add_rows (R, n, pf, jtj);
        {
          /* the rows alone, in an array of their size (the sanitizers'
           * build sees any read past it) */
          double *exact = g_memdup2 (R, MAX (n * pf, 1) * sizeof (double));
          double *again = g_new (double, pf * pf);

          for (gsize k = 0; k < pf * pf; k++)
            again[k] = 0.5;
          xrlab_fit_jtj_add_rows (exact, n, pf, again);
          for (gsize a = 0; a < pf; a++)
            for (gsize b = 0; b <= a; b++)
              g_assert_cmpfloat (again[a * pf + b], ==, jtj[a * pf + b]);
          g_free (exact);
          g_free (again);
        }
        for (gsize a = 0; a < pf; a++)
          for (gsize b = 0; b <= a; b++)
            {
              long double want = 0.5L, mag = 0.5L;

              for (gsize i = 0; i < n; i++)
                {
                  want += (long double) R[i * pf + a] * R[i * pf + b];
                  mag += fabsl ((long double) R[i * pf + a] * R[i * pf + b]);
                }
              if (!(fabsl (jtj[a * pf + b] - want) <= 4 * (n + 1) * DBL_EPSILON * mag))
                g_error ("pf %zu, %zu rows: JᵀJ[%zu][%zu] = %.17g, not %.17Lg", pf, n, a, b,
                         jtj[a * pf + b], want);
            }
        g_free (R);
        g_free (jtj);
      }
  g_rand_free (rng);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  xrlab_init ();
  g_test_add_func ("/fit/gauss-lmfit", test_gauss_lmfit);
  g_test_add_func ("/fit/methods-agree", test_methods_agree);
  g_test_add_func ("/fit/decay-weighted-lmfit", test_decay_weighted_lmfit);
  g_test_add_func ("/fit/ci-lmfit", test_ci_lmfit);
  g_test_add_func ("/fit/stats-by-hand", test_stats_by_hand);
  g_test_add_func ("/fit/ci-linear-exact", test_ci_linear_exact);
  g_test_add_func ("/fit/bound-pinned", test_bound_pinned);
  g_test_add_func ("/fit/bound-jacobian", test_bound_jacobian);
  g_test_add_func ("/fit/weights", test_weights);
  g_test_add_func ("/fit/progress", test_progress);
  g_test_add_func ("/fit/cancel-between", test_cancel_between);
  g_test_add_func ("/fit/cancel-inside", test_cancel_inside);
  g_test_add_func ("/fit/cancel-ci", test_cancel_ci);
  g_test_add_func ("/fit/bad-input", test_bad_input);
  g_test_add_func ("/fit/chi2-overflow-refused", test_chi2_overflow_refused);
  g_test_add_func ("/fit/bad-start", test_bad_start);
  g_test_add_func ("/fit/model-trouble", test_model_trouble);
  g_test_add_func ("/fit/max-iter", test_max_iter);
  g_test_add_func ("/fit/covariance-paths", test_covariance_paths);
  g_test_add_func ("/fit/noiseless", test_noiseless);
  g_test_add_func ("/fit/reuse", test_reuse);
  g_test_add_func ("/fit/jtj-kernels", test_jtj_kernels);
  return g_test_run ();
}
