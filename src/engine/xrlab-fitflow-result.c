/* xrlab-fitflow-result.c -- the results of the stages of a fit workflow: every model
 * parameter with its error, the fitted model, confidence intervals
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-fitflow.h"
#include "xrlab-fitflow-private.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "xrlab-plan.h"

void
xrlab_fitflow_result_free (XrlabFitflowResult *r)
{
  if (r == NULL)
    return;
  g_clear_pointer (&r->fit, xrlab_fit_result_free);
  g_strfreev (r->theta_names);
  for (gsize i = 0; i < r->n_params; i++)
    {
      g_free (r->params[i].name);
      g_free (r->params[i].expr);
    }
  g_free (r->params);
  g_clear_pointer (&r->model, xrlab_model_free);
  xrlab_fitflow_ctx_free (r->ctx);
  g_free (r);
}

gssize
xrlab_fitflow_result_find (const XrlabFitflowResult *r, const char *name)
{
  for (gsize i = 0; i < r->n_params; i++)
    if (g_str_equal (r->params[i].name, name))
      return (gssize) i;
  return -1;
}

/* Values and errors of every model parameter at θ with covariance @covar
 * (NULL or !@valid: errors of derived parameters NaN, as are those of the
 * parameters that do not depend on θ); @values, @errors have n_params
 * entries; @pv, @dv are scratch of n_plan_params and n_plan_params × p. */
void
xrlab_fitflow_param_values_errors (const XrlabPlan *plan, const XrlabModel *model,
                                   const double *theta, const double *theta_err,
                                   const double *covar, gboolean valid, double *pv, double *dv,
                                   double *values, double *errors)
{
  const gsize p = xrlab_plan_n_theta (plan), np = xrlab_plan_n_params (plan);
  const gsize n = xrlab_model_n_params (model);

  xrlab_plan_param_gradients (plan, theta, pv, dv);
  for (gsize i = 0; i < n; i++)
    {
      XrlabParamInfo info;
      gssize k, pi = -1;

      xrlab_model_get_param (model, i, &info);
      for (gsize j = 0; j < np; j++)
        if (g_str_equal (xrlab_plan_param_name (plan, j), info.name))
          {
            pi = (gssize) j;
            break;
          }
      values[i] = pi >= 0 ? pv[pi] : info.value;
      errors[i] = NAN;
      k = xrlab_plan_find_theta (plan, info.name);
      if (k >= 0)
        errors[i] = theta_err[k];
      else if (pi >= 0 && xrlab_plan_param_depends_on_theta (plan, pi) && valid
               && covar != NULL)
        {
          const double *g = dv + pi * p;
          double var = 0.0;
          for (gsize a = 0; a < p; a++)
            for (gsize b = 0; b < p; b++)
              var += g[a] * covar[a * p + b] * g[b];
          errors[i] = sqrt (MAX (var, 0.0));
        }
    }
}

/* Builds the result of a finished (or cancelled) fit; on success it owns
 * @c and @fr. */
XrlabFitflowResult *
xrlab_fitflow_result_new (const XrlabFitflow *f, Prep *pr, XrlabFitflowCtx *c,
                          XrlabFitResult *fr, GError **error)
{
  return xrlab_fitflow_result_new_block (pr, c, fr, f->col0, f->ncw,
                                         pr->stage == XRLAB_FITFLOW_STAGE_2D ? pr->rows : 1,
                                         error);
}

XrlabFitflowResult *
xrlab_fitflow_result_new_block (Prep *pr, XrlabFitflowCtx *c, XrlabFitResult *fr, gsize col0,
                                gsize n_cols, gsize data_rows, GError **error)
{
  g_autoptr(XrlabFitflowResult) r = g_new0 (XrlabFitflowResult, 1);
  const gsize n = xrlab_model_n_params (pr->model);
  const gsize np = xrlab_plan_n_params (c->plan), p = c->p;
  g_autofree double *pv = g_new (double, MAX (np, 1));
  g_autofree double *dv = g_new (double, MAX (np * p, 1));
  g_autofree double *values = g_new (double, n);
  g_autofree double *errors = g_new (double, n);

  r->stage = pr->stage;
  r->n_theta = p;
  r->theta_names = g_strdupv (pr->names);
  r->row0 = pr->row0;
  r->n_rows = pr->rows;
  r->col0 = col0;
  r->n_cols = n_cols;
  g_assert (data_rows * n_cols <= c->rows * c->cols);
  r->data = c->y;

  xrlab_fitflow_param_values_errors (c->plan, pr->model, fr->values, fr->errors, fr->covar,
                                     fr->errors_valid, pv, dv, values, errors);
  r->model = xrlab_model_copy (pr->model);
  for (gsize k = 0; k < p; k++)
    if (!xrlab_model_set_value (r->model, pr->names[k], fr->values[k], error))
      return NULL;

  r->n_params = n;
  r->params = g_new0 (XrlabFitflowParam, n);
  for (gsize i = 0; i < n; i++)
    {
      XrlabParamInfo info;
      XrlabFitflowParam *q = &r->params[i];

      xrlab_model_get_param (pr->model, i, &info);
      q->name = g_strdup (info.name);
      q->value = values[i];
      q->std_error = errors[i];
      q->fitted = xrlab_plan_find_theta (c->plan, info.name) >= 0;
      q->vary = info.vary;
      q->is_static = info.is_static;
      q->min = info.min;
      q->max = info.max;
      q->expr = g_strdup (info.expr);
      q->role = info.role;
      q->share = info.share;
    }
  r->fit = fr;
  r->ctx = c;
  return g_steal_pointer (&r);
}

/* ---- confidence intervals and the fitted model ------------------------------- */

XrlabFitCI *
xrlab_fitflow_conf_interval (XrlabFitflowResult *result, const char *const *names,
                             gsize n_names, const double *sigmas, gsize n_sigmas,
                             GCancellable *cancellable, GError **error)
{
  g_autofree gsize *idx = g_new (gsize, MAX (n_names, 1));

  g_return_val_if_fail (result != NULL && result->ctx != NULL, NULL);
  if (result->ctx->fit == NULL)
    {
      g_set_error (error, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_PARAM,
                   _("Confidence intervals are not available for a joint fit of several "
                     "files"));
      return NULL;
    }
  for (gsize a = 0; a < n_names; a++)
    {
      gssize k = -1;
      for (gsize j = 0; j < result->n_theta; j++)
        if (g_str_equal (result->theta_names[j], names[a]))
          k = (gssize) j;
      if (k < 0)
        {
          gssize i = xrlab_fitflow_result_find (result, names[a]);
          if (i < 0)
            g_set_error (error, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_PARAM,
                         _("Confidence interval of “%s”: the model has no such parameter"),
                         names[a]);
          else if (result->params[i].expr)
            g_set_error (error, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_PARAM,
                         _("Confidence interval of “%s”: it is not fitted but computed "
                           "from “%s”"), names[a], result->params[i].expr);
          else
            g_set_error (error, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_PARAM,
                         _("Confidence interval of “%s”: it is fixed in this fit"),
                         names[a]);
          return NULL;
        }
      idx[a] = (gsize) k;
    }
  return xrlab_fit_conf_interval (result->ctx->fit, result->fit, idx, n_names, sigmas,
                                  n_sigmas, cancellable, error);
}

double *
xrlab_fitflow_result_model (XrlabFitflow *flow, const XrlabFitflowResult *result,
                            gsize *n_rows, gsize *n_cols, GError **error)
{
  const gboolean is2d = (result->stage == XRLAB_FITFLOW_STAGE_2D);
  XrlabPlanFlags flags = XRLAB_PLAN_DEFAULT;
  g_autoptr(XrlabPlan) plan = NULL;
  g_autofree double *theta = NULL;
  double *out;

  g_return_val_if_fail (flow != NULL && result != NULL, NULL);
  if (!is2d && xrlab_model_has_dynamics (result->model))
    flags |= XRLAB_PLAN_IGNORE_DYNAMICS;
  plan = xrlab_plan_new_full (result->model, flow->energy, flow->n_e,
                              is2d ? flow->time : NULL, is2d ? flow->n_t : 0, flow->aux,
                              flow->n_a, flags, error);
  if (plan == NULL)
    return NULL;
  theta = g_new (double, MAX (xrlab_plan_n_theta (plan), 1));
  xrlab_plan_theta_initial (plan, theta);
  out = g_new (double, xrlab_plan_n_data (plan));
  xrlab_plan_eval (plan, theta, out);
  *n_rows = xrlab_plan_n_rows (plan);
  *n_cols = xrlab_plan_n_energy (plan);
  return out;
}
