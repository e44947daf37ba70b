/* xrlab-engine-fit-params.c -- parameter edits of a fit setup: value, vary,
 * bounds and expression by name
 *
 * The edits of one request change the setup's models in place, together or
 * not at all. Value edits only give the preview plans a new θ; the others
 * mark the stages to be checked again (and, for expressions, the preview
 * plan to be rebuilt) once after the burst (xrlab_fit_setup_commit).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-engine-fit-private.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

/* ---- parameter edits --------------------------------------------------------------- */

typedef struct {
  guint setup;
  XrlabFitParamEdit *edits;         /* their strings in @strings */
  gsize n;
  GStringChunk *strings;
  guint *keys;
  gsize n_keys;
  gboolean superseded;
  GError *error;
} ParamsPayload;

static void
params_payload_free (gpointer data)
{
  ParamsPayload *p = data;

  g_free (p->edits);
  g_string_chunk_free (p->strings);
  g_free (p->keys);
  g_clear_error (&p->error);
  g_free (p);
}

/* The value of @name at the preview's current θ (an expression evaluated). */
static double
current_value (FitSetup *setup, XrlabFitModelRole role, const char *name)
{
  FitPreview *pv = &setup->preview[role];
  gsize n = pv->plan ? xrlab_plan_n_params (pv->plan) : 0;
  g_autofree double *v = g_new (double, MAX (n, 1));
  double value = NAN;

  if (pv->plan == NULL)
    return NAN;
  xrlab_plan_param_values (pv->plan, pv->theta, v);
  for (gsize i = 0; i < n; i++)
    if (g_str_equal (xrlab_plan_param_name (pv->plan, i), name))
      value = v[i];
  return value;
}

/* One edit, in the order EXPR, BOUNDS, VALUE, VARY, SHARE. */
static gboolean
apply_edit (FitSetup *setup, XrlabModel *m, const XrlabFitParamEdit *e, GError **error)
{
  if (e->fields & XRLAB_FIT_PARAM_EXPR)
    {
      gboolean had = FALSE;
      gssize i = xrlab_model_find_param (m, e->name);
      double now = NAN;

      if (i >= 0)
        {
          XrlabParamInfo info;
          xrlab_model_get_param (m, i, &info);
          had = info.expr != NULL;
        }
      if (had && e->expr == NULL)
        now = current_value (setup, e->model, e->name);
      if (!xrlab_model_set_expr (m, e->name, e->expr, error))
        return FALSE;
      /* freed from its expression without a value: it keeps the one it had */
      if (had && e->expr == NULL && !(e->fields & XRLAB_FIT_PARAM_VALUE) && isfinite (now))
        {
          XrlabParamInfo info;
          xrlab_model_get_param (m, i, &info);
          if (!xrlab_model_set_bounds (m, e->name, fmin (info.min, now), fmax (info.max, now),
                                       error)
              || !xrlab_model_set_value (m, e->name, now, error))
            return FALSE;
        }
    }
  if ((e->fields & XRLAB_FIT_PARAM_BOUNDS) && (e->fields & XRLAB_FIT_PARAM_VALUE))
    {
      /* both at once: the new value inside the new bounds */
      if (!xrlab_model_set_bounds (m, e->name, -INFINITY, INFINITY, error)
          || !xrlab_model_set_value (m, e->name, e->value, error)
          || !xrlab_model_set_bounds (m, e->name, e->min, e->max, error))
        return FALSE;
    }
  else if ((e->fields & XRLAB_FIT_PARAM_BOUNDS)
           && !xrlab_model_set_bounds (m, e->name, e->min, e->max, error))
    return FALSE;
  else if ((e->fields & XRLAB_FIT_PARAM_VALUE)
           && !xrlab_model_set_value (m, e->name, e->value, error))
    return FALSE;
  if ((e->fields & XRLAB_FIT_PARAM_VARY) && !xrlab_model_set_vary (m, e->name, e->vary, error))
    return FALSE;
  if ((e->fields & XRLAB_FIT_PARAM_SHARE) && !xrlab_model_set_share (m, e->name, e->share, error))
    return FALSE;
  return TRUE;
}

/* Applies the edits of @p together: value-only requests restore the old
 * values on failure, others the models as they were. */
static gboolean
apply_edits (FitSetup *setup, ParamsPayload *p, gboolean *structure, gboolean *exprs)
{
  XrlabModel *saved[2] = { NULL, NULL };
  g_autofree double *old = g_new (double, MAX (p->n, 1));
  gboolean ok = TRUE;
  gboolean values_only = TRUE;

  *structure = *exprs = FALSE;
  for (gsize i = 0; i < p->n; i++)
    {
      values_only &= p->edits[i].fields == XRLAB_FIT_PARAM_VALUE;
      *exprs |= (p->edits[i].fields & XRLAB_FIT_PARAM_EXPR) != 0;
    }
  *structure = !values_only;
  for (int r = 0; r < 2 && !values_only; r++)
    if (xrlab_fit_setup_model (setup, r) != NULL)
      saved[r] = xrlab_model_copy (xrlab_fit_setup_model (setup, r));
  for (gsize i = 0; i < p->n && ok; i++)
    {
      const XrlabFitParamEdit *e = &p->edits[i];
      XrlabModel *m = xrlab_fit_setup_model (setup, e->model);
      gssize k = m ? xrlab_model_find_param (m, e->name) : -1;

      if (m == NULL)
        g_set_error (&p->error, XRLAB_ENGINE_FIT_ERROR, XRLAB_ENGINE_FIT_ERROR_NOT_READY,
                     _("The fit setup has no baseline model"));
      else if (values_only && k >= 0)
        {
          XrlabParamInfo info;
          xrlab_model_get_param (m, k, &info);
          old[i] = info.value;
        }
      if (p->error == NULL && apply_edit (setup, m, e, &p->error))
        continue;
      ok = FALSE;
      /* undo */
      if (values_only)
        for (gsize j = i; j-- > 0;)
          xrlab_model_set_value (xrlab_fit_setup_model (setup, p->edits[j].model),
                                 p->edits[j].name, old[j], NULL);
      else
        {
          XrlabModel **slot[2] = { &setup->model, &setup->bmodel };
          for (int r = 0; r < 2; r++)
            if (saved[r] != NULL)
              {
                xrlab_model_free (*slot[r]);
                *slot[r] = g_steal_pointer (&saved[r]);
              }
        }
    }
  for (int r = 0; r < 2; r++)
    g_clear_pointer (&saved[r], xrlab_model_free);
  return ok;
}

static void
params_apply (XrlabEngineWorker *worker, gpointer state, XrlabRequest *req)
{
  ParamsPayload *p = req->payload;
  FitSetup *setup = xrlab_fit_state_ready_setup (state, p->setup, &p->error);
  gboolean structure, exprs, touched[2] = { FALSE, FALSE };

  if (setup == NULL)
    return;
  if (xrlab_fit_keys_superseded (req, p->keys, p->n_keys))
    {
      p->superseded = TRUE;
      return;
    }
  if (!apply_edits (setup, p, &structure, &exprs))
    return;
  for (gsize i = 0; i < p->n; i++)
    touched[p->edits[i].model] = TRUE;
  for (int r = 0; r < 2; r++)
    if (touched[r])
      {
        if (exprs)
          setup->rebuild_plan[r] = TRUE;
        xrlab_fit_preview_values_changed (setup, r);
      }
  if (structure)
    setup->recheck = TRUE;
  else
    setup->stats.n_value_edits++;
}

static void
params_serve (XrlabEngineWorker *worker, gpointer state, XrlabRequest *req)
{
  ParamsPayload *p = req->payload;

  if (p->superseded)
    xrlab_request_return_superseded (req, "superseded by a newer edit of the parameter");
  else if (p->error != NULL)
    xrlab_request_return_error (req, g_steal_pointer (&p->error));
  else
    xrlab_request_return_boolean (req, TRUE);
}

static const XrlabRequestKind params_kind = {
  .name = "fit-params",
  .service = &xrlab_engine_fit_service,
  .role = XRLAB_REQUEST_EDIT,
  .payload_free = params_payload_free,
  .apply = params_apply,
  .serve = params_serve,
};

void
xrlab_engine_fit_edit_params_async (XrlabEngine             *self,
                                    guint                    setup,
                                    const XrlabFitParamEdit *edits,
                                    gsize                    n,
                                    GCancellable            *cancellable,
                                    GAsyncReadyCallback      callback,
                                    gpointer                 user_data)
{
  ParamsPayload *p;
  XrlabRequest *req;

  g_return_if_fail (XRLAB_IS_ENGINE (self));
  g_return_if_fail (edits != NULL || n == 0);
  p = g_new0 (ParamsPayload, 1);
  p->setup = setup;
  p->n = n;
  p->edits = g_memdup2 (edits, n * sizeof *edits);
  p->strings = g_string_chunk_new (64);
  p->keys = g_new (guint, MAX (4 * n, 1));
  for (gsize i = 0; i < n; i++)
    {
      XrlabFitParamEdit *e = &p->edits[i];
      e->name = g_string_chunk_insert (p->strings, e->name ? e->name : "");
      if (e->expr)
        e->expr = g_string_chunk_insert (p->strings, e->expr);
      for (guint bit = 0; bit < 4; bit++)
        if (e->fields & (1u << bit))
          p->keys[p->n_keys++] = xrlab_fit_key_param (setup, e->model, e->name, 1u << bit);
    }
  req = xrlab_request_new (self, &params_kind, p, xrlab_engine_fit_edit_params_async,
                           cancellable, callback, user_data);
  xrlab_request_begin_edit (req, p->keys, p->n_keys);
  xrlab_request_submit (req);
}

gboolean
xrlab_engine_fit_edit_params_finish (XrlabEngine   *self,
                                     GAsyncResult  *result,
                                     GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}
