/* xrlab-fitflow-trace.c -- fitting a slice-by-slice trace against delay with the
 * time dependence of its parameter (see xrlab_fitflow_fit_trace in
 * xrlab-fitflow.h): the start of a 2D fit
 *
 * The trace is the plan of a model made of one Offset whose y0 is the
 * parameter with its time dependence (xrlab_model_new_trace), on one energy
 * and the delays of the slices: its output is p(t_s) and its Jacobian that
 * of the trace, so the fit is an ordinary stage over n_slices × 1 points.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-fitflow.h"
#include "xrlab-fitflow-private.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "xrlab-model-private.h"
#include "xrlab-plan.h"

/* The column of @param in @sbs, or an error. */
static gssize
trace_column (const XrlabFitflowSbs *sbs, const char *param, GError **error)
{
  for (gsize i = 0; i < sbs->n_params; i++)
    if (g_str_equal (sbs->names[i], param))
      {
        if (sbs->fitted[i])
          return (gssize) i;
        g_set_error (error, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_PARAM,
                     _("Trace of “%s”: it was not fitted slice by slice"), param);
        return -1;
      }
  g_set_error (error, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_PARAM,
               _("Trace of “%s”: the slice-by-slice result has no such parameter"), param);
  return -1;
}

gboolean
xrlab_fitflow_fit_trace (XrlabFitflow *flow, const XrlabFitflowSbs *sbs,
                         const XrlabModel *model, const char *param,
                         GCancellable *cancellable, XrlabFitflowResult **result,
                         GError **error)
{
  g_autoptr(GError) err = NULL;
  g_autoptr(GArray) t = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) y = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) s = g_array_new (FALSE, FALSE, sizeof (double));
  const double zero = 0.0;
  Prep pr = { 0 };
  XrlabFitflowCtx *c;
  XrlabFitResult *fr = NULL;
  gssize col;
  gboolean ok;

  g_return_val_if_fail (flow != NULL && sbs != NULL && model != NULL && param != NULL, FALSE);
  g_return_val_if_fail (result != NULL, FALSE);
  *result = NULL;
  col = trace_column (sbs, param, error);
  if (col < 0)
    return FALSE;
  for (gsize k = 0; k < sbs->n_slices; k++)
    {
      double v = sbs->values[k * sbs->n_params + col];
      double e = sbs->errors[k * sbs->n_params + col];
      if (sbs->done[k] && isfinite (v) && isfinite (e) && e > 0)
        {
          g_array_append_val (t, sbs->delay[k]);
          g_array_append_val (y, v);
          g_array_append_val (s, e);
        }
    }

  /* the model of the trace, starting (like the 2D fit) from the baseline */
  pr.stage = XRLAB_FITFLOW_STAGE_TRACE;
  pr.model = xrlab_model_new_trace (model, param, &err);
  if (pr.model == NULL)
    {
      g_set_error (error, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_MODEL, _("Trace of “%s”: %s"),
                   param, err->message);
      return FALSE;
    }
  if (flow->seed != NULL)
    {
      const double *v = g_hash_table_lookup (flow->seed, param);
      if (v != NULL && !xrlab_model_set_value (pr.model, param, *v, &err))
        {
          g_set_error (error, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_MODEL,
                       _("Starting “%s” from the baseline result: %s"), param, err->message);
          xrlab_fitflow_prep_clear (&pr);
          return FALSE;
        }
    }
  pr.plan = t->len == 0 ? NULL
                        : xrlab_plan_new (pr.model, &zero, 1, (double *) t->data, t->len, NULL,
                                          0, &err);
  if (pr.plan == NULL)
    {
      if (err == NULL)
        g_set_error (error, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_TOO_FEW_POINTS,
                     _("Trace of “%s”: no slice has a value with an error"), param);
      else
        g_set_error (error, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_MODEL,
                     _("Trace of “%s”: %s"), param, err->message);
      xrlab_fitflow_prep_clear (&pr);
      return FALSE;
    }
  pr.rows = t->len;
  pr.n_theta = xrlab_plan_n_theta (pr.plan);
  if (pr.n_theta == 0 || t->len < pr.n_theta)
    {
      g_autofree char *slices = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%zu slice",
                                                              "%zu slices", (gsize) t->len),
                                                 (gsize) t->len);
      g_autofree char *params = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                              "%zu free parameter",
                                                              "%zu free parameters",
                                                              pr.n_theta), pr.n_theta);
      /* TRANSLATORS: "Trace of “GLP_01_x0”: 3 slices with errors for 4 free parameters" */
      g_set_error (error, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_TOO_FEW_POINTS,
                   _("Trace of “%s”: %s with errors for %s"), param, slices, params);
      xrlab_fitflow_prep_clear (&pr);
      return FALSE;
    }
  pr.theta0 = g_new (double, pr.n_theta);
  pr.lower = g_new (double, pr.n_theta);
  pr.upper = g_new (double, pr.n_theta);
  pr.names = g_new0 (char *, pr.n_theta + 1);
  xrlab_plan_theta_initial (pr.plan, pr.theta0);
  xrlab_plan_theta_bounds (pr.plan, pr.lower, pr.upper);
  for (gsize k = 0; k < pr.n_theta; k++)
    pr.names[k] = g_strdup (xrlab_plan_theta_name (pr.plan, k));

  /* one value per slice, σ the slice's error */
  c = xrlab_fitflow_ctx_new (flow, g_steal_pointer (&pr.plan), 1, 0, t->len, 1,
                             XRLAB_FITFLOW_STAGE_TRACE);
  c->y = g_memdup2 (y->data, t->len * sizeof (double));
  c->sig = g_memdup2 (s->data, t->len * sizeof (double));
  c->sigma_kind = XRLAB_FIT_SIGMA_FULL;
  c->fit = xrlab_fitflow_ctx_fit_new (flow, c, &pr, c->y, XRLAB_FIT_SIGMA_FULL, c->sig, TRUE,
                                      error);
  if (c->fit == NULL)
    {
      xrlab_fitflow_ctx_free (c);
      xrlab_fitflow_prep_clear (&pr);
      return FALSE;
    }
  ok = xrlab_fit_run (c->fit, pr.theta0, cancellable, &fr, &err);
  if (fr == NULL)
    {
      xrlab_fitflow_ctx_free (c);
      xrlab_fitflow_prep_clear (&pr);
      g_propagate_prefixed_error (error, g_steal_pointer (&err), _("Trace of “%s”: "), param);
      return FALSE;
    }
  *result = xrlab_fitflow_result_new_block (&pr, c, fr, 0, 1, t->len, error);
  if (*result == NULL)
    {
      xrlab_fitflow_ctx_free (c);
      xrlab_fit_result_free (fr);
      xrlab_fitflow_prep_clear (&pr);
      return FALSE;
    }
  (*result)->row0 = 0;

  /* its model: the caller's with the fitted values */
  xrlab_model_free ((*result)->model);
  (*result)->model = xrlab_model_copy (model);
  for (gsize k = 0; k < pr.n_theta; k++)
    xrlab_model_set_value ((*result)->model, pr.names[k], fr->values[k], NULL);
  xrlab_fitflow_prep_clear (&pr);
  if (!ok)
    {
      g_propagate_error (error, g_steal_pointer (&err));
      return FALSE;
    }
  return TRUE;
}
