/* xrlab-fit.c -- nonlinear least squares: Levenberg–Marquardt on analytic
 * Jacobians, with bounds, weights, uncertainties and profile-likelihood
 * confidence intervals (the formulas are in xrlab-fit.h). This file sets a
 * fit up and builds its results; xrlab-fit-core.c runs it on GSL with
 * the solver of xrlab-fit-cholesky.c, xrlab-fit-covar.c estimates the
 * errors, xrlab-fit-ci.c the confidence intervals
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-fit.h"
#include "xrlab-fit-private.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "xrlab-util.h"

G_DEFINE_QUARK (xrlab-fit-error-quark, xrlab_fit_error)

/* Default tolerances (see "Stopping" in the header). */
#define DEFAULT_XTOL 1e-12
#define DEFAULT_GTOL 0.0
#define DEFAULT_FTOL 0.0
#define DEFAULT_MAX_ITER 10000

/* ---- set-up ------------------------------------------------------------------ */

void
xrlab_fit_options_init (XrlabFitOptions *options)
{
  memset (options, 0, sizeof *options);
  options->method = XRLAB_FIT_METHOD_LM;
  options->solver = XRLAB_FIT_SOLVER_CHOLESKY;
  options->xtol = DEFAULT_XTOL;
  options->gtol = DEFAULT_GTOL;
  options->ftol = DEFAULT_FTOL;
  options->max_iter = DEFAULT_MAX_ITER;
}

gboolean
xrlab_fit_scale_covar_from_string (const char *text, XrlabFitScaleCovar *scale)
{
  static const char *names[] = { "auto", "yes", "no" };

  for (guint i = 0; text != NULL && i < G_N_ELEMENTS (names); i++)
    if (g_ascii_strcasecmp (text, names[i]) == 0)
      {
        *scale = (XrlabFitScaleCovar) i;
        return TRUE;
      }
  return FALSE;
}

/* "row 3, column 7" (1-based) for a 2D layout, "point 7" otherwise. */
char *
xrlab_fit_describe_point (const XrlabFit *fit, gsize i)
{
  if (fit->n_rows > 1)
    return g_strdup_printf (_("row %zu, column %zu"),
                            i / fit->n_cols + 1, i % fit->n_cols + 1);
  return g_strdup_printf (_("point %zu"), i + 1);
}

void
xrlab_fit_free (XrlabFit *fit)
{
  if (fit == NULL)
    return;
  xrlab_fit_core_free (fit->full);
  xrlab_fit_core_free (fit->profile);
  g_strfreev (fit->names);
  g_free (fit->lower);
  g_free (fit->upper);
  g_free (fit->bound);
  g_free (fit->inv_sigma);
  g_free (fit->theta);
  g_free (fit->dtheta_du);
  g_free (fit->jac_full);
  g_free (fit->jtj);
  g_free (fit->colsq);
  g_free (fit->scratch_n);
  g_free (fit->scratch_u);
  g_free (fit->last_u);
  g_clear_error (&fit->cb_error);
  g_free (fit);
}

static gboolean
check_sigma (XrlabFit *fit, const XrlabFitProblem *pr, GError **error)
{
  gsize count;
  const char *what;

  switch (pr->sigma_kind)
    {
    case XRLAB_FIT_SIGMA_NONE:
      return TRUE;
    case XRLAB_FIT_SIGMA_SCALAR:
      count = 1, what = "scalar";
      break;
    case XRLAB_FIT_SIGMA_ROWS:
      count = fit->n_rows, what = "row";
      break;
    case XRLAB_FIT_SIGMA_COLUMNS:
      count = fit->n_cols, what = "column";
      break;
    case XRLAB_FIT_SIGMA_FULL:
      count = fit->n, what = "point";
      break;
    default:
      g_set_error (error, XRLAB_FIT_ERROR, XRLAB_FIT_ERROR_INVALID,
                   _("Unknown kind of σ (%d)"), (int) pr->sigma_kind);
      return FALSE;
    }
  if (pr->sigma == NULL)
    {
      g_set_error (error, XRLAB_FIT_ERROR, XRLAB_FIT_ERROR_INVALID,
                   _("Weights were requested but no σ values were given"));
      return FALSE;
    }
  fit->inv_sigma = g_new (double, count);
  for (gsize k = 0; k < count; k++)
    {
      double s = pr->sigma[k];
      if (!(isfinite (s) && s > 0.0))
        {
          char buf[XRLAB_DTOA_BUFSIZE];
          g_autofree char *where = NULL;

          if (g_str_equal (what, "scalar"))
            where = g_strdup ("");
          else if (g_str_equal (what, "row"))
            where = g_strdup_printf (_(" for row %zu"), k + 1);
          else if (g_str_equal (what, "column"))
            where = g_strdup_printf (_(" for column %zu"), k + 1);
          else
            {
              g_autofree char *pt = xrlab_fit_describe_point (fit, k);
              where = g_strdup_printf (_(" at %s"), pt);
            }
          g_set_error (error, XRLAB_FIT_ERROR, XRLAB_FIT_ERROR_DATA,
                       _("The uncertainty σ = %s%s is not a positive finite number"),
                       xrlab_format_double (s, buf), where);
          return FALSE;
        }
      fit->inv_sigma[k] = 1.0 / s;
    }
  return TRUE;
}

/* Checks and takes the data and σ (the data referenced, 1/σ copied) and
 * computes Σ w(y − ȳ)² for R². */
static gboolean
set_data (XrlabFit *fit, const double *data, XrlabFitSigmaKind kind, const double *sigma,
          GError **error)
{
  XrlabFitProblem pr = { .n = fit->n, .data = data, .sigma_kind = kind, .sigma = sigma };

  if (data != NULL)
    {
      double check = 0.0;
      for (gsize i = 0; i < fit->n; i++)
        check += data[i] - data[i];
      if (check != 0.0)
        for (gsize i = 0; i < fit->n; i++)
          if (!isfinite (data[i]))
            {
              g_autofree char *pt = xrlab_fit_describe_point (fit, i);
              g_set_error (error, XRLAB_FIT_ERROR, XRLAB_FIT_ERROR_DATA,
                           _("The data are not finite (%s) at %s, inside the fit window"),
                           isnan (data[i]) ? "NaN" : "infinity", pt);
              return FALSE;
            }
    }
  {
    double *old_inv = g_steal_pointer (&fit->inv_sigma);
    XrlabFitSigmaKind old_kind = fit->sigma_kind;

    fit->sigma_kind = kind;
    if (!check_sigma (fit, &pr, error))
      {
        g_free (fit->inv_sigma);
        fit->inv_sigma = old_inv;
        fit->sigma_kind = old_kind;
        return FALSE;
      }
    g_free (old_inv);
  }
  fit->data = data;

  /* Σ w(y − ȳ)², ȳ weighted, for R² */
  fit->ss_tot = NAN;
  if (data != NULL)
    {
      double sw = 0.0, swy = 0.0, ybar, ss = 0.0;
      for (gsize i = 0; i < fit->n; i++)
        {
          double w = xrlab_fit_row_weight (fit, i);
          sw += w * w;
          swy += w * w * data[i];
        }
      ybar = swy / sw;
      for (gsize i = 0; i < fit->n; i++)
        {
          double w = xrlab_fit_row_weight (fit, i), d = data[i] - ybar;
          ss += w * w * d * d;
        }
      fit->ss_tot = ss;
    }
  return TRUE;
}

/* The sizes, the layout, the callbacks and the options of @pr; sets the
 * layout of @fit. */
static gboolean
check_problem (XrlabFit *fit, const XrlabFitProblem *pr, GError **error)
{
  if (pr->n == 0)
    {
      g_set_error (error, XRLAB_FIT_ERROR, XRLAB_FIT_ERROR_EMPTY,
                   _("There are no points to fit: the fit window is empty"));
      return FALSE;
    }
  if (pr->p == 0)
    {
      g_set_error (error, XRLAB_FIT_ERROR, XRLAB_FIT_ERROR_INVALID,
                   _("There are no free parameters to fit"));
      return FALSE;
    }
  if (pr->n < pr->p)
    {
      g_autofree char *params = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                              "%zu free parameter",
                                                              "%zu free parameters", pr->p),
                                                 pr->p);

      /* TRANSLATORS: the %s is "%zu free parameters" */
      g_set_error (error, XRLAB_FIT_ERROR, XRLAB_FIT_ERROR_TOO_FEW_POINTS,
                   g_dngettext (GETTEXT_PACKAGE,
                                "%zu point is too few for %s: "
                                "widen the fit window or fix some parameters",
                                "%zu points are too few for %s: "
                                "widen the fit window or fix some parameters", pr->n),
                   pr->n, params);
      return FALSE;
    }
  if (pr->n_rows == 0 && pr->n_cols == 0)
    {
      fit->n_rows = 1;
      fit->n_cols = pr->n;
    }
  else if (pr->n_rows * pr->n_cols != pr->n)
    {
      g_set_error (error, XRLAB_FIT_ERROR, XRLAB_FIT_ERROR_INVALID,
                   g_dngettext (GETTEXT_PACKAGE, "A layout of %zu × %zu does not hold %zu point",
                                "A layout of %zu × %zu does not hold %zu points", pr->n),
                   pr->n_rows, pr->n_cols, pr->n);
      return FALSE;
    }
  else
    {
      fit->n_rows = pr->n_rows;
      fit->n_cols = pr->n_cols;
    }
  if (pr->model == NULL)
    {
      g_set_error (error, XRLAB_FIT_ERROR, XRLAB_FIT_ERROR_INVALID,
                   _("The fit has no model function"));
      return FALSE;
    }
  if (pr->jacobian == NULL && fit->options.method != XRLAB_FIT_METHOD_FD)
    {
      g_set_error (error, XRLAB_FIT_ERROR, XRLAB_FIT_ERROR_INVALID,
                   _("The fit has no Jacobian function (only the finite-difference "
                     "method works without one)"));
      return FALSE;
    }
  if (!(fit->options.xtol >= 0 && fit->options.gtol >= 0 && fit->options.ftol >= 0
        && fit->options.max_iter > 0))
    {
      g_set_error (error, XRLAB_FIT_ERROR, XRLAB_FIT_ERROR_INVALID,
                   _("The tolerances must not be negative and the iteration limit must "
                     "be positive"));
      return FALSE;
    }
  return TRUE;
}

/* The names of the parameters ("p1", ... where none is given), distinct. */
static gboolean
set_names (XrlabFit *fit, const XrlabFitProblem *pr, GError **error)
{
  fit->names = g_new0 (char *, pr->p + 1);
  for (gsize j = 0; j < pr->p; j++)
    {
      if (pr->names != NULL && pr->names[j] != NULL)
        fit->names[j] = g_strdup (pr->names[j]);
      else
        fit->names[j] = g_strdup_printf ("p%" G_GSIZE_FORMAT, j + 1);
      for (gsize k = 0; k < j; k++)
        if (g_str_equal (fit->names[k], fit->names[j]))
          {
            g_set_error (error, XRLAB_FIT_ERROR, XRLAB_FIT_ERROR_INVALID,
                         _("Two parameters are called “%s”"), fit->names[j]);
            return FALSE;
          }
    }
  return TRUE;
}

/* The bounds and the kind of transform each parameter gets. */
static gboolean
set_bounds (XrlabFit *fit, const XrlabFitProblem *pr, GError **error)
{
  fit->lower = g_new (double, pr->p);
  fit->upper = g_new (double, pr->p);
  fit->bound = g_new (BoundKind, pr->p);
  for (gsize j = 0; j < pr->p; j++)
    {
      double lo = pr->lower ? pr->lower[j] : -INFINITY;
      double hi = pr->upper ? pr->upper[j] : INFINITY;
      char b1[XRLAB_DTOA_BUFSIZE], b2[XRLAB_DTOA_BUFSIZE];

      if (isnan (lo) || isnan (hi) || lo == INFINITY || hi == -INFINITY || !(lo < hi))
        {
          g_set_error (error, XRLAB_FIT_ERROR, XRLAB_FIT_ERROR_INVALID,
                       _("Parameter “%s”: the bounds [%s, %s] leave no room (the lower "
                         "bound must be below the upper one; fix the parameter instead)"),
                       fit->names[j], xrlab_format_double (lo, b1),
                       xrlab_format_double (hi, b2));
          return FALSE;
        }
      fit->lower[j] = lo;
      fit->upper[j] = hi;
      fit->bound[j] = xrlab_fit_bound_kind (lo, hi);
      if (fit->bound[j] != BOUND_NONE)
        fit->any_bound = TRUE;
    }
  return TRUE;
}

XrlabFit *
xrlab_fit_new (const XrlabFitProblem *pr, const XrlabFitOptions *options, GError **error)
{
  g_autoptr(XrlabFit) fit = NULL;

  g_return_val_if_fail (pr != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  fit = g_new0 (XrlabFit, 1);
  if (options)
    fit->options = *options;
  else
    xrlab_fit_options_init (&fit->options);
  fit->n = pr->n;
  fit->p = pr->p;
  fit->model = pr->model;
  fit->jacobian = pr->jacobian;
  fit->user_data = pr->user_data;
  fit->data = pr->data;
  fit->sigma_kind = pr->sigma_kind;
  fit->bad_jac_param = -1;

  if (!check_problem (fit, pr, error) || !set_names (fit, pr, error)
      || !set_bounds (fit, pr, error)
      || !set_data (fit, pr->data, pr->sigma_kind, pr->sigma, error))
    return NULL;

  fit->theta = g_new0 (double, pr->p);
  fit->dtheta_du = g_new0 (double, pr->p);
  fit->jtj = g_new0 (double, pr->p * pr->p);
  fit->colsq = g_new0 (double, pr->p);
  fit->scratch_u = g_new0 (double, pr->p);
  fit->last_u = g_new0 (double, pr->p);
  fit->full = xrlab_fit_core_new (fit, pr->p, error);
  if (fit->full == NULL)
    return NULL;
  return g_steal_pointer (&fit);
}

gboolean
xrlab_fit_set_data (XrlabFit *fit, const double *data, XrlabFitSigmaKind sigma_kind,
                    const double *sigma, GError **error)
{
  g_return_val_if_fail (fit != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  return set_data (fit, data, sigma_kind, sigma, error);
}

gsize
xrlab_fit_get_n_params (XrlabFit *fit)
{
  return fit->p;
}

const char *
xrlab_fit_get_param_name (XrlabFit *fit, gsize j)
{
  g_return_val_if_fail (j < fit->p, NULL);
  return fit->names[j];
}

gssize
xrlab_fit_find_param (XrlabFit *fit, const char *name)
{
  for (gsize j = 0; j < fit->p; j++)
    if (g_str_equal (fit->names[j], name))
      return (gssize) j;
  return -1;
}

const char *
xrlab_fit_stop_to_string (XrlabFitStop stop)
{
  switch (stop)
    {
    case XRLAB_FIT_STOP_XTOL:
      return _("Converged: the parameter step became smaller than xtol");
    case XRLAB_FIT_STOP_GTOL:
      return _("Converged: the gradient of χ² became smaller than gtol");
    case XRLAB_FIT_STOP_FTOL:
      return _("Converged: χ² changed by less than ftol");
    case XRLAB_FIT_STOP_ROUNDING:
      return _("Converged: the next step would change χ² by less than its rounding");
    case XRLAB_FIT_STOP_NO_PROGRESS:
      return _("Converged: no step lowers χ² any further within rounding");
    case XRLAB_FIT_STOP_MAX_ITER:
      return _("Not converged: the iteration limit was reached");
    case XRLAB_FIT_STOP_CANCELLED:
    default:
      return _("Stopped: the fit was cancelled");
    }
}

/* ---- results ----------------------------------------------------------------- */

void
xrlab_fit_result_free (XrlabFitResult *result)
{
  if (result == NULL)
    return;
  g_free (result->values);
  g_free (result->errors);
  g_free (result->covar);
  g_free (result->correl);
  g_free (result->at_bound);
  g_free (result);
}

XrlabFitResult *
xrlab_fit_result_alloc (gsize p)
{
  XrlabFitResult *r = g_new0 (XrlabFitResult, 1);

  r->p = p;
  r->values = g_new0 (double, p);
  r->errors = g_new0 (double, p);
  r->covar = g_new0 (double, p * p);
  r->correl = g_new0 (double, p * p);
  r->at_bound = g_new0 (gboolean, p);
  return r;
}

void
xrlab_fit_information_criteria (double chi2, gsize n, gsize k, double *aic, double *bic)
{
  const double N = (double) n;
  double c = MAX (chi2, 1e-250 * N);
  double m2ll = N * log (c / N);

  *aic = m2ll + 2.0 * (double) k;
  *bic = m2ll + log (N) * (double) k;
}

gboolean
xrlab_fit_stop_converged (XrlabFitStop stop)
{
  return stop == XRLAB_FIT_STOP_XTOL || stop == XRLAB_FIT_STOP_GTOL
         || stop == XRLAB_FIT_STOP_FTOL || stop == XRLAB_FIT_STOP_ROUNDING
         || stop == XRLAB_FIT_STOP_NO_PROGRESS;
}

void
xrlab_fit_result_mark_bounds (XrlabFitResult *r, const double *lower, const double *upper)
{
  for (gsize j = 0; j < r->p; j++)
    {
      double lo = lower[j], hi = upper[j], v = r->values[j];
      double range = (isfinite (lo) && isfinite (hi)) ? hi - lo
                     : MAX (1.0, fabs (isfinite (lo) ? lo : hi));
      r->at_bound[j] = (isfinite (lo) && v - lo <= 1e-8 * range)
                       || (isfinite (hi) && hi - v <= 1e-8 * range);
    }
}

/* Fills everything but the timing from the state of the full core. */
static XrlabFitResult *
build_result (XrlabFit *fit, const RunInfo *info)
{
  const gsize n = fit->n, p = fit->p;
  XrlabFitResult *r = xrlab_fit_result_alloc (p);

  memcpy (r->values, fit->theta, p * sizeof (double));
  r->ndata = n;
  r->nfree = n - p;
  r->weighted = (fit->sigma_kind != XRLAB_FIT_SIGMA_NONE);
  r->chi2 = info->chi2;
  r->chi2_start = info->chi2_start;
  r->redchi = r->chi2 / (double) MAX (1, n - p);
  r->r2 = isnan (fit->ss_tot) ? NAN : 1.0 - r->chi2 / MAX (fit->ss_tot, DBL_MIN);
  xrlab_fit_information_criteria (r->chi2, n, p, &r->aic, &r->bic);
  r->niter = info->niter;
  r->stop = info->stop;
  r->message = xrlab_fit_stop_to_string (info->stop);
  r->converged = xrlab_fit_stop_converged (info->stop);

  xrlab_fit_result_mark_bounds (r, fit->lower, fit->upper);
  xrlab_fit_result_errors (fit, r);
  r->nfev = fit->nfev;
  r->njev = fit->njev;
  return r;
}

static gboolean
check_start (XrlabFit *fit, const double *theta0, GError **error)
{
  for (gsize j = 0; j < fit->p; j++)
    {
      char b0[XRLAB_DTOA_BUFSIZE], b1[XRLAB_DTOA_BUFSIZE], b2[XRLAB_DTOA_BUFSIZE];
      double v = theta0[j];

      if (!isfinite (v))
        {
          g_set_error (error, XRLAB_FIT_ERROR, XRLAB_FIT_ERROR_START,
                       _("Parameter “%s”: the starting value %s is not a finite number"),
                       fit->names[j], xrlab_format_double (v, b0));
          return FALSE;
        }
      if (v < fit->lower[j] || v > fit->upper[j])
        {
          g_set_error (error, XRLAB_FIT_ERROR, XRLAB_FIT_ERROR_START,
                       _("Parameter “%s”: the starting value %s is outside its bounds "
                         "[%s, %s]"),
                       fit->names[j], xrlab_format_double (v, b0),
                       xrlab_format_double (fit->lower[j], b1),
                       xrlab_format_double (fit->upper[j], b2));
          return FALSE;
        }
    }
  return TRUE;
}

gboolean
xrlab_fit_run (XrlabFit *fit, const double *theta0, GCancellable *cancellable,
               XrlabFitResult **result, GError **error)
{
  double t0 = xrlab_now ();
  RunInfo info;
  XrlabFitResult *r;

  g_return_val_if_fail (fit != NULL && theta0 != NULL && result != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  *result = NULL;
  if (!check_start (fit, theta0, error))
    return FALSE;
  if (!xrlab_fit_run_core (fit, fit->full, theta0, cancellable, TRUE, &info, error))
    return FALSE;
  r = build_result (fit, &info);
  r->wall_s = xrlab_now () - t0;
  *result = r;
  if (info.stop == XRLAB_FIT_STOP_CANCELLED)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                   g_dngettext (GETTEXT_PACKAGE, "The fit was cancelled after %u iteration",
                                "The fit was cancelled after %u iterations", info.niter),
                   info.niter);
      return FALSE;
    }
  return TRUE;
}
