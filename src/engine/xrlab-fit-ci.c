/* xrlab-fit-ci.c -- profile-likelihood confidence intervals (lmfit's conf_interval):
 * refits with one parameter fixed, an F test, Brent's root finder
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-fit.h"
#include "xrlab-fit-private.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_roots.h>

/* lmfit's conf_interval constants. */
#define CI_MAX_STEPS 200
#define CI_MIN_REL_CHANGE 1e-5
#define CI_ROOT_MAX_ITER 100

void
xrlab_fit_ci_free (XrlabFitCI *ci)
{
  if (ci == NULL)
    return;
  g_free (ci->params);
  g_free (ci->sigmas);
  g_free (ci->probs);
  g_free (ci->best);
  g_free (ci->lower);
  g_free (ci->upper);
  g_free (ci);
}

typedef struct {
  XrlabFit *fit;
  const XrlabFitResult *best;
  gsize j;                    /* the profiled parameter */
  double *theta;              /* p scratch */
  double target;
  GCancellable *cancellable;
  GError *error;
  guint nfits;
} Profile;

/* F-test probability that fixing θ_j at @t is worse than the best fit. */
static gboolean
profile_prob (Profile *pf, double t, double *prob)
{
  XrlabFit *fit = pf->fit;
  const XrlabFitResult *best = pf->best;
  double chi2;

  if (g_cancellable_set_error_if_cancelled (pf->cancellable, &pf->error))
    return FALSE;
  memcpy (pf->theta, best->values, fit->p * sizeof (double));
  pf->theta[pf->j] = t;
  pf->nfits++;
  if (fit->p == 1)
    {
      /* Nothing to refit: χ² at t. */
      double *out = xrlab_fit_scratch_n (fit, 0);
      fit->nfev++;
      if (!fit->model (pf->theta, out, fit->user_data, &pf->error))
        {
          if (pf->error == NULL)
            g_set_error (&pf->error, XRLAB_FIT_ERROR, XRLAB_FIT_ERROR_MODEL,
                         _("The model could not be evaluated"));
          return FALSE;
        }
      if (!xrlab_fit_form_residuals (fit, out))
        chi2 = INFINITY;
      else
        chi2 = xrlab_fit_sum_squares (out, fit->n);
    }
  else
    {
      RunInfo info;
      Core *core = fit->profile;

      for (gsize j = 0, k = 0; j < fit->p; j++)
        if (j != pf->j)
          core->free_idx[k++] = j;
      if (!xrlab_fit_run_core (fit, core, pf->theta, pf->cancellable, FALSE, &info, &pf->error))
        return FALSE;
      if (info.stop == XRLAB_FIT_STOP_CANCELLED)
        {
          g_set_error (&pf->error, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                       _("The confidence-interval search was cancelled"));
          return FALSE;
        }
      chi2 = info.chi2;
    }
  {
    double nfree = (double) best->nfree;
    double dchi = chi2 / best->chi2 - 1.0;
    double x = dchi * nfree / 1.0;
    *prob = (x > 0.0) ? gsl_cdf_fdist_P (x, 1.0, nfree) : 0.0;
    if (!isfinite (chi2))
      *prob = 1.0;
  }
  return TRUE;
}

static double
profile_root_fn (double t, void *params)
{
  Profile *pf = params;
  double prob;

  if (pf->error != NULL || !profile_prob (pf, t, &prob))
    return GSL_NAN;
  return prob - pf->target;
}

/* lmfit's find_limit: steps away from the best value until P reaches
 * @max_prob; returns the limit and the probability there. */
static gboolean
find_limit (Profile *pf, int dir, double max_prob, double *limit_out, double *prob_out)
{
  XrlabFit *fit = pf->fit;
  const double value = pf->best->values[pf->j];
  const double err = pf->best->errors[pf->j];
  const double lo = fit->lower[pf->j], hi = fit->upper[pf->j];
  double step, limit = value, old_prob = 0.0, new_prob = 0.0;
  gboolean bound_reached = FALSE;

  if (err > 0.0 && err < fabs (value))
    step = err;
  else
    step = MAX (fabs (value) * 0.2, 0.001);

  for (int i = 1; old_prob < max_prob; i++)
    {
      double rel_change;

      limit += step * dir;
      if (limit > hi)
        {
          limit = hi;
          bound_reached = TRUE;
        }
      else if (limit < lo)
        {
          limit = lo;
          bound_reached = TRUE;
        }
      if (!profile_prob (pf, limit, &new_prob))
        return FALSE;
      rel_change = (new_prob - old_prob) / MAX (MAX (new_prob, old_prob), 1e-12);
      old_prob = new_prob;
      if (bound_reached && new_prob < max_prob)
        break;
      if (i > CI_MAX_STEPS)
        break;
      if (rel_change < CI_MIN_REL_CHANGE)
        break;
    }
  *limit_out = limit;
  *prob_out = new_prob;
  return TRUE;
}

/* lmfit's calc_ci in one direction: out[s] for each target probability. */
static gboolean
calc_ci (Profile *pf, int dir, const double *probs, gsize n_probs, double *out)
{
  const double err = pf->best->errors[pf->j];
  double limit, max_prob, a_limit = pf->best->values[pf->j];
  gsl_root_fsolver *solver;
  gboolean ok = TRUE;

  if (!find_limit (pf, dir, probs[n_probs - 1], &limit, &max_prob))
    return FALSE;

  solver = gsl_root_fsolver_alloc (gsl_root_fsolver_brent);
  for (gsize s = 0; s < n_probs; s++)
    {
      gsl_function F = { profile_root_fn, pf };
      double a = MIN (limit, a_limit), b = MAX (limit, a_limit), root = GSL_NAN;
      double tol = 1e-6 * (err > 0.0 ? err : MAX (fabs (a_limit), 1e-3));
      int status;

      if (probs[s] > max_prob)
        {
          out[s] = dir * INFINITY;
          continue;
        }
      pf->target = probs[s];
      status = gsl_root_fsolver_set (solver, &F, a, b);
      for (int it = 0; status == GSL_SUCCESS && it < CI_ROOT_MAX_ITER; it++)
        {
          status = gsl_root_fsolver_iterate (solver);
          if (status != GSL_SUCCESS)
            break;
          root = gsl_root_fsolver_root (solver);
          if (gsl_root_test_interval (gsl_root_fsolver_x_lower (solver),
                                      gsl_root_fsolver_x_upper (solver), tol, 0.0)
              == GSL_SUCCESS)
            break;
        }
      if (pf->error != NULL)
        {
          ok = FALSE;
          break;
        }
      if (status != GSL_SUCCESS || !isfinite (root))
        {
          /* As lmfit: this level and the ones after it are unknown. */
          for (; s < n_probs; s++)
            out[s] = GSL_NAN;
          break;
        }
      out[s] = root;
      a_limit = root;
    }
  gsl_root_fsolver_free (solver);
  return ok;
}

XrlabFitCI *
xrlab_fit_conf_interval (XrlabFit *fit, const XrlabFitResult *best,
                         const gsize *params, gsize n_params,
                         const double *sigmas, gsize n_sigmas,
                         GCancellable *cancellable, GError **error)
{
  static const double default_sigmas[] = { 1.0, 2.0, 3.0 };
  g_autoptr(XrlabFitCI) ci = NULL;
  g_autofree double *theta = NULL;
  Profile pf = { 0 };
  g_autofree double *lower = NULL, *upper = NULL;

  g_return_val_if_fail (fit != NULL && best != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (best->p != fit->p || best->ndata != fit->n)
    {
      g_set_error (error, XRLAB_FIT_ERROR, XRLAB_FIT_ERROR_INVALID,
                   _("The result does not belong to this fit"));
      return NULL;
    }
  if (!best->errors_valid)
    {
      g_set_error (error, XRLAB_FIT_ERROR, XRLAB_FIT_ERROR_INVALID,
                   _("Confidence intervals need the standard errors of the fit, which "
                     "could not be computed"));
      return NULL;
    }
  if (!(best->chi2 > 0.0) || best->nfree == 0)
    {
      g_set_error (error, XRLAB_FIT_ERROR, XRLAB_FIT_ERROR_INVALID,
                   _("Confidence intervals need χ² > 0 and more points than parameters"));
      return NULL;
    }
  if (sigmas == NULL)
    {
      sigmas = default_sigmas;
      n_sigmas = G_N_ELEMENTS (default_sigmas);
    }
  if (n_sigmas == 0 || n_params == 0)
    {
      g_set_error (error, XRLAB_FIT_ERROR, XRLAB_FIT_ERROR_INVALID,
                   _("No parameters or levels for the confidence intervals"));
      return NULL;
    }
  for (gsize a = 0; a < n_params; a++)
    if (params[a] >= fit->p)
      {
        g_set_error (error, XRLAB_FIT_ERROR, XRLAB_FIT_ERROR_INVALID,
                     _("No parameter number %zu"), params[a]);
        return NULL;
      }

  ci = g_new0 (XrlabFitCI, 1);
  ci->n_params = n_params;
  ci->n_sigmas = n_sigmas;
  ci->params = g_memdup2 (params, n_params * sizeof *params);
  ci->sigmas = g_memdup2 (sigmas, n_sigmas * sizeof *sigmas);
  ci->probs = g_new (double, n_sigmas);
  ci->best = g_new (double, n_params);
  ci->lower = g_new (double, n_params * n_sigmas);
  ci->upper = g_new (double, n_params * n_sigmas);

  /* ascending levels; σ ≥ 1 → erf(σ/√2), below 1 a probability (as lmfit) */
  for (gsize s = 0; s < n_sigmas; s++)
    {
      double v = ci->sigmas[s];
      if (!(v > 0.0) || !isfinite (v))
        {
          g_set_error (error, XRLAB_FIT_ERROR, XRLAB_FIT_ERROR_INVALID,
                       _("A confidence level must be a positive number of σ"));
          return NULL;
        }
    }
  for (gsize s = 1; s < n_sigmas; s++)
    for (gsize t = s; t > 0 && ci->sigmas[t - 1] > ci->sigmas[t]; t--)
      {
        double tmp = ci->sigmas[t];
        ci->sigmas[t] = ci->sigmas[t - 1];
        ci->sigmas[t - 1] = tmp;
      }
  for (gsize s = 0; s < n_sigmas; s++)
    {
      double v = ci->sigmas[s];
      ci->probs[s] = (v < 1.0) ? v : erf (v / M_SQRT2);
    }

  if (fit->p >= 2 && fit->profile == NULL)
    {
      fit->profile = xrlab_fit_core_new (fit, fit->p - 1, error);
      if (fit->profile == NULL)
        return NULL;
    }

  theta = g_new (double, fit->p);
  lower = g_new (double, n_sigmas);
  upper = g_new (double, n_sigmas);
  pf.fit = fit;
  pf.best = best;
  pf.theta = theta;
  pf.cancellable = cancellable;
  for (gsize a = 0; a < n_params; a++)
    {
      pf.j = params[a];
      ci->best[a] = best->values[pf.j];
      if (!calc_ci (&pf, -1, ci->probs, n_sigmas, lower)
          || !calc_ci (&pf, +1, ci->probs, n_sigmas, upper))
        {
          g_propagate_error (error, g_steal_pointer (&pf.error));
          return NULL;
        }
      memcpy (ci->lower + a * n_sigmas, lower, n_sigmas * sizeof (double));
      memcpy (ci->upper + a * n_sigmas, upper, n_sigmas * sizeof (double));
    }
  ci->nfits = pf.nfits;
  return g_steal_pointer (&ci);
}
