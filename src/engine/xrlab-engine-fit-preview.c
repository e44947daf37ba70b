/* xrlab-engine-fit-preview.c -- previews of a fit setup: the model, the data,
 * the residual and the components as maps, spectra and traces; the parameter
 * table; the results of the stages as fetches
 *
 * Each model of a setup has a preview plan on the dataset's own axes (every
 * delay and energy, the aux axis) in which every parameter that is not an
 * expression is a θ entry, so that any value edit is a new θ and never a new
 * plan. The whole model map is computed when a fetch needs it (on the pool)
 * and kept until the values change; a spectrum or a component is computed
 * for the rows asked only. While a job fits a model, its θ comes from the
 * job's FitLive.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-engine-fit-private.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "xrlab-util.h"

/* ---- preview plans ------------------------------------------------------------- */

void
xrlab_fit_preview_clear (FitPreview *pv)
{
  g_clear_pointer (&pv->ws, xrlab_plan_workspace_free);
  g_clear_pointer (&pv->ws1, xrlab_plan_workspace_free);
  g_clear_pointer (&pv->plan, xrlab_plan_free);
  g_clear_pointer (&pv->theta, g_free);
  g_clear_pointer (&pv->map, g_free);
  memset (pv, 0, sizeof *pv);
}

gboolean
xrlab_fit_preview_build (FitSetup *setup, XrlabFitModelRole role, GError **error)
{
  const FitDataset *ds = setup->ds;
  const XrlabModel *model = xrlab_fit_setup_model (setup, role);
  g_autoptr(XrlabModel) free_all = xrlab_model_copy (model);
  gboolean is2d = role == XRLAB_FIT_MODEL_MAIN && ds->time != NULL;
  XrlabPlanFlags flags = is2d ? XRLAB_PLAN_DEFAULT : XRLAB_PLAN_IGNORE_DYNAMICS;
  FitPreview *pv = &setup->preview[role];
  XrlabPlan *plan;

  for (gsize i = 0; i < xrlab_model_n_params (free_all); i++)
    {
      XrlabParamInfo info;
      xrlab_model_get_param (free_all, i, &info);
      if (info.expr == NULL && !info.vary)
        {
          g_autofree char *name = g_strdup (info.name);
          xrlab_model_set_vary (free_all, name, TRUE, NULL);
        }
    }
  plan = xrlab_plan_new_full (free_all, ds->energy, ds->n_e, is2d ? ds->time : NULL,
                              is2d ? ds->n_t : 0, ds->aux, ds->n_a, flags, error);
  if (plan == NULL)
    return FALSE;
  xrlab_fit_preview_clear (pv);
  pv->plan = plan;
  pv->ws = xrlab_plan_workspace_new (plan, 0);
  pv->ws1 = xrlab_plan_workspace_new (plan, 1);
  pv->n_theta = xrlab_plan_n_theta (plan);
  pv->theta = g_new (double, MAX (pv->n_theta, 1));
  xrlab_plan_theta_initial (plan, pv->theta);
  return TRUE;
}

void
xrlab_fit_preview_values_changed (FitSetup *setup, XrlabFitModelRole role)
{
  FitPreview *pv = &setup->preview[role];
  const XrlabModel *model = xrlab_fit_setup_model (setup, role);

  if (pv->plan == NULL || model == NULL)
    return;
  for (gsize k = 0; k < pv->n_theta; k++)
    {
      XrlabParamInfo info;
      gsize i = xrlab_plan_theta_param (pv->plan, k);

      if (i >= xrlab_model_n_params (model))
        continue;
      xrlab_model_get_param (model, i, &info);
      if (info.expr == NULL)
        pv->theta[k] = info.value;
    }
  pv->map_valid = FALSE;
  pv->live_serial = 0;
}

/* θ from the running fit of this model, when there is one. Returns TRUE
 * when the preview shows live values. */
static gboolean
preview_follow_live (FitSetup *setup, XrlabFitModelRole role)
{
  FitPreview *pv = &setup->preview[role];
  FitLive *live = setup->live;
  gsize n_params;

  gboolean follows;

  if (live == NULL || pv->plan == NULL)
    return FALSE;
  n_params = xrlab_plan_n_params (pv->plan);
  g_mutex_lock (&live->lock);
  follows = live->role == role && live->n_start == n_params;
  if (!follows && pv->live_serial != 0)
    {
      /* the job fits the other model now: back to this one's values */
      g_mutex_unlock (&live->lock);
      xrlab_fit_preview_values_changed (setup, role);
      return FALSE;
    }
  if (follows && live->serial != pv->live_serial)
    {
      for (gsize k = 0; k < pv->n_theta; k++)
        {
          gsize i = xrlab_plan_theta_param (pv->plan, k);
          const char *name = xrlab_plan_theta_name (pv->plan, k);

          pv->theta[k] = live->start[i];
          for (gsize j = 0; live->names && j < live->p; j++)
            if (g_str_equal (live->names[j], name))
              pv->theta[k] = live->theta[j];
        }
      pv->live_serial = live->serial;
      pv->map_valid = FALSE;
    }
  g_mutex_unlock (&live->lock);
  return follows;
}

/* The whole model map, computed when it is not kept. */
static const double *
preview_map (FitSetup *setup, FitPreview *pv)
{
  if (!pv->map_valid)
    {
      if (pv->map == NULL)
        pv->map = g_new (double, xrlab_plan_n_data (pv->plan));
      xrlab_plan_eval_ws (pv->plan, pv->ws, pv->theta, pv->map);
      pv->map_valid = TRUE;
      setup->stats.n_evaluations++;
    }
  return pv->map;
}

/* ---- previews ------------------------------------------------------------------ */

typedef struct {
  guint setup;
  XrlabFitPreviewSpec spec;
} PreviewPayload;

/* The block of the data a preview shows. */
typedef struct {
  gsize row0, n_rows, col0, n_cols;
  gsize plan_rows;                  /* rows of the preview plan (1 for 1D) */
} Block;

static gboolean
preview_block (FitSetup *setup, const XrlabFitPreviewSpec *spec, Block *b, GError **error)
{
  const FitDataset *ds = setup->ds;
  gboolean base = spec->model == XRLAB_FIT_MODEL_BASELINE;
  gsize wr0, wnr, wc0, wnc;

  xrlab_fitflow_get_window (setup->flow, &wr0, &wnr, &wc0, &wnc);
  if (!spec->window_only)
    wr0 = 0, wnr = ds->n_rows, wc0 = 0, wnc = ds->n_cols;
  if (base)
    wr0 = 0, wnr = 1;
  b->plan_rows = xrlab_plan_n_rows (setup->preview[spec->model].plan);
  b->row0 = wr0, b->n_rows = wnr, b->col0 = wc0, b->n_cols = wnc;
  if (spec->view == XRLAB_FIT_VIEW_SPECTRUM && !base)
    {
      gsize r = xrlab_fit_dataset_row (ds, spec->delay);
      b->row0 = CLAMP (r, wr0, wr0 + wnr - 1);
      b->n_rows = 1;
    }
  else if (spec->view == XRLAB_FIT_VIEW_TRACE)
    {
      gsize c = xrlab_fit_dataset_col (ds, spec->energy);
      b->col0 = CLAMP (c, wc0, wc0 + wnc - 1);
      b->n_cols = 1;
    }
  if (base && setup->base_data == NULL)
    {
      g_set_error (error, XRLAB_ENGINE_FIT_ERROR, XRLAB_ENGINE_FIT_ERROR_NOT_READY,
                   _("The baseline delays hold no delay of the data"));
      return FALSE;
    }
  return TRUE;
}

/* Copies the block's columns of the plan rows @src (starting at the
 * block's first row) into @dst. */
static void
crop (const Block *b, gsize n_e, const double *src, double *dst)
{
  for (gsize r = 0; r < b->n_rows; r++)
    memcpy (dst + r * b->n_cols, src + r * n_e + b->col0, b->n_cols * sizeof (double));
}

/* The model on the block into @dst. */
static void
block_model (FitSetup *setup, FitPreview *pv, const Block *b, double *dst)
{
  gsize n_e = setup->ds->n_e;

  if (pv->map_valid || b->n_rows > 1)
    crop (b, n_e, preview_map (setup, pv) + b->row0 * n_e, dst);
  else
    {
      g_autofree double *row = g_new (double, n_e);
      xrlab_plan_eval_rows_ws (pv->plan, pv->ws1, pv->theta, b->row0, 1, row);
      setup->stats.n_evaluations++;
      crop (b, n_e, row, dst);
    }
}

static void
block_components (FitSetup *setup, FitPreview *pv, const Block *b, double *dst)
{
  gsize n_e = setup->ds->n_e, nc = xrlab_plan_n_components (pv->plan);
  g_autofree double *rows = g_new (double, b->n_rows * n_e);

  for (gsize c = 0; c < nc; c++)
    {
      xrlab_plan_eval_component_rows_ws (pv->plan, pv->ws1, pv->theta, c, b->row0, b->n_rows,
                                         rows);
      crop (b, n_e, rows, dst + c * b->n_rows * b->n_cols);
    }
  setup->stats.n_evaluations++;
}

static void
block_data (FitSetup *setup, const XrlabFitPreviewSpec *spec, const Block *b, double *dst)
{
  const FitDataset *ds = setup->ds;
  const double *src = spec->model == XRLAB_FIT_MODEL_BASELINE ? setup->base_data
                                                               : ds->data + b->row0 * ds->n_cols;

  crop (b, ds->n_cols, src, dst);
}

/* The reply, one allocation: the struct, the component names, the arrays. */
static XrlabFitPreview *
preview_alloc (const XrlabModel *model, XrlabFitSeries series, const Block *b,
               gboolean has_delay, gsize *n_doubles)
{
  gsize nc = (series & XRLAB_FIT_SERIES_COMPONENTS) ? xrlab_model_n_components (model) : 0;
  gsize block = b->n_rows * b->n_cols, n = 0, names = 0, off;
  XrlabFitPreview *pr;
  const char **name_ptrs;
  char *s;
  double *d;

  for (gsize c = 0; c < nc; c++)
    names += strlen (xrlab_model_component_name (model, c)) + 1;
  if (series & XRLAB_FIT_SERIES_AXES)
    n += b->n_cols + (has_delay ? b->n_rows : 0);
  n += block * (!!(series & XRLAB_FIT_SERIES_DATA) + !!(series & XRLAB_FIT_SERIES_MODEL)
                + !!(series & XRLAB_FIT_SERIES_RESIDUAL) + nc);
  off = xrlab_engine_align8 (sizeof *pr + (nc + 1) * sizeof (char *) + names);
  pr = g_malloc0 (off + n * sizeof (double));
  name_ptrs = (const char **) (pr + 1);
  s = (char *) (name_ptrs + nc + 1);
  for (gsize c = 0; c < nc; c++)
    {
      const char *cn = xrlab_model_component_name (model, c);
      name_ptrs[c] = s;
      s = g_stpcpy (s, cn) + 1;
    }
  pr->n_components = nc;
  pr->component_names = name_ptrs;
  pr->row0 = b->row0, pr->n_rows = b->n_rows, pr->col0 = b->col0, pr->n_cols = b->n_cols;
  d = (double *) ((char *) pr + off);
  if (series & XRLAB_FIT_SERIES_AXES)
    {
      pr->energy = d, d += b->n_cols;
      if (has_delay)
        pr->delay = d, d += b->n_rows;
    }
  if (series & XRLAB_FIT_SERIES_DATA)
    pr->data = d, d += block;
  if (series & XRLAB_FIT_SERIES_MODEL)
    pr->model = d, d += block;
  if (series & XRLAB_FIT_SERIES_RESIDUAL)
    pr->residual = d, d += block;
  if (nc > 0)
    pr->components = d;
  *n_doubles = n;
  return pr;
}

static void
preview_serve (XrlabEngineWorker *worker, gpointer state, XrlabRequest *req)
{
  PreviewPayload *p = req->payload;
  const XrlabFitPreviewSpec *spec = &p->spec;
  GError *error = NULL;
  FitSetup *setup = xrlab_fit_state_ready_setup (state, p->setup, &error);
  double t0 = xrlab_now ();
  XrlabFitPreview *pr;
  FitPreview *pv = NULL;
  gsize n_doubles, block;
  Block b;
  g_autofree double *model_tmp = NULL;

  if (setup != NULL && (pv = &setup->preview[spec->model])->plan == NULL)
    g_set_error (&error, XRLAB_ENGINE_FIT_ERROR, XRLAB_ENGINE_FIT_ERROR_NOT_READY,
                 _("The fit setup has no baseline model"));
  if (error != NULL || !preview_block (setup, spec, &b, &error))
    {
      xrlab_request_return_error (req, error);
      return;
    }
  pr = preview_alloc (xrlab_fit_setup_model (setup, spec->model), spec->series, &b,
                      spec->model == XRLAB_FIT_MODEL_MAIN && setup->ds->time != NULL,
                      &n_doubles);
  pr->generation = xrlab_engine_shared_get_applied (req->shared, &xrlab_engine_fit_service);
  pr->live = preview_follow_live (setup, spec->model);
  block = b.n_rows * b.n_cols;
  if (pr->energy)
    memcpy ((double *) pr->energy, setup->ds->energy + b.col0, b.n_cols * sizeof (double));
  if (pr->delay)
    memcpy ((double *) pr->delay, setup->ds->time + b.row0, b.n_rows * sizeof (double));
  if (pr->data || pr->residual)
    block_data (setup, spec, &b, (double *) (pr->data ? pr->data : pr->residual));
  if (pr->model || pr->residual)
    {
      double *m = (double *) pr->model;
      if (m == NULL)
        m = model_tmp = g_new (double, block);
      block_model (setup, pv, &b, m);
      if (pr->residual)
        for (gsize i = 0; i < block; i++)
          ((double *) pr->residual)[i] = (pr->data ? pr->data[i] : pr->residual[i]) - m[i];
    }
  if (pr->components)
    block_components (setup, pv, &b, (double *) pr->components);
  xrlab_fit_note_transfer (req, n_doubles * sizeof (double), xrlab_now () - t0);
  xrlab_request_return_pointer (req, pr, g_free);
}

static const XrlabRequestKind preview_kind = {
  .name = "fit-preview",
  .service = &xrlab_engine_fit_service,
  .role = XRLAB_REQUEST_READ,
  .flags = XRLAB_REQUEST_NEWEST_PER_CONSUMER | XRLAB_REQUEST_STALE_AFTER_EDIT,
  .payload_free = g_free,
  .serve = preview_serve,
};

void
xrlab_engine_fit_preview_async (XrlabEngine               *self,
                                guint                      setup,
                                const char                *consumer,
                                const XrlabFitPreviewSpec *spec,
                                GCancellable              *cancellable,
                                GAsyncReadyCallback        callback,
                                gpointer                   user_data)
{
  PreviewPayload *p;
  XrlabRequest *req;

  g_return_if_fail (XRLAB_IS_ENGINE (self));
  g_return_if_fail (spec != NULL);
  p = g_new0 (PreviewPayload, 1);
  p->setup = setup;
  p->spec = *spec;
  req = xrlab_request_new (self, &preview_kind, p, xrlab_engine_fit_preview_async, cancellable,
                           callback, user_data);
  xrlab_request_set_consumer (req, consumer != NULL ? consumer : "default");
  xrlab_request_submit (req);
}

/* A reply whose state a newer edit has replaced since it was made is
 * dropped (SUPERSEDED), as the optics fetches do. */
static gpointer
propagate_current (GAsyncResult *result, GError **error)
{
  gpointer reply = g_task_propagate_pointer (G_TASK (result), error);
  /* both replies start with their generation */
  const guint64 *generation = reply;

  if (generation != NULL && xrlab_request_result_superseded (result, *generation, error))
    g_clear_pointer (&reply, g_free);
  return reply;
}

XrlabFitPreview *
xrlab_engine_fit_preview_finish (XrlabEngine   *self,
                                 GAsyncResult  *result,
                                 GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return propagate_current (result, error);
}

/* ---- the parameter table ---------------------------------------------------------- */

typedef struct {
  guint setup;
  XrlabFitModelRole model;
  double delay;
} ParamsPayload;

static gsize
strsize (const char *s)
{
  return s ? strlen (s) + 1 : 0;
}

static const char *
put_str (char **s, const char *text)
{
  const char *start = *s;

  if (text == NULL)
    return NULL;
  *s = g_stpcpy (*s, text) + 1;
  return start;
}

/* The value of every parameter at the preview's θ, and at the delay row
 * @row for time-dependent ones. */
static void
table_values (FitPreview *pv, gsize n_aux, gsize row, double *values, double *at_delay)
{
  gsize np = xrlab_plan_n_params (pv->plan);
  gsize rows = xrlab_plan_n_rows (pv->plan);
  g_autofree double *trace = NULL;

  xrlab_plan_param_values (pv->plan, pv->theta, values);
  for (gsize i = 0; i < np; i++)
    at_delay[i] = values[i];
  if (xrlab_plan_time (pv->plan) == NULL)
    return;
  trace = g_new (double, rows * MAX (n_aux, 1));
  for (gsize i = 0; i < np; i++)
    {
      gsize n = xrlab_plan_param_trace (pv->plan, pv->ws1, pv->theta, i, trace);
      gsize per_row = n / rows;
      double s = 0.0;

      for (gsize a = 0; a < per_row; a++)
        s += trace[row * per_row + a];
      at_delay[i] = s / (double) per_row;
    }
}

static XrlabFitParamTable *
table_alloc (const XrlabModel *model, const char *not_ready, gsize *size)
{
  gsize n = xrlab_model_n_params (model), strings = strsize (not_ready);
  XrlabFitParamTable *t;

  for (gsize i = 0; i < n; i++)
    {
      XrlabParamInfo info;
      xrlab_model_get_param (model, i, &info);
      strings += strsize (info.name) + strsize (info.component) + strsize (info.host)
                 + strsize (info.expr);
    }
  *size = sizeof *t + n * sizeof (XrlabFitParamRow) + strings;
  t = g_malloc0 (*size);
  t->n_params = n;
  t->params = (const XrlabFitParamRow *) (t + 1);
  return t;
}

static void
params_serve (XrlabEngineWorker *worker, gpointer state, XrlabRequest *req)
{
  ParamsPayload *p = req->payload;
  GError *error = NULL;
  FitSetup *setup = xrlab_fit_state_ready_setup (state, p->setup, &error);
  const XrlabModel *model = setup ? xrlab_fit_setup_model (setup, p->model) : NULL;
  FitStage *st;
  const XrlabFitflowResult *r;
  g_autofree double *values = NULL, *at = NULL;
  XrlabFitParamTable *t;
  XrlabFitParamRow *rows;
  FitPreview *pv;
  gsize size, row;
  char *s;

  if (setup != NULL && model == NULL)
    g_set_error (&error, XRLAB_ENGINE_FIT_ERROR, XRLAB_ENGINE_FIT_ERROR_NOT_READY,
                 _("The fit setup has no baseline model"));
  if (error != NULL)
    {
      xrlab_request_return_error (req, error);
      return;
    }
  pv = &setup->preview[p->model];
  st = setup->stages[p->model == XRLAB_FIT_MODEL_MAIN ? FIT_SLOT_MAIN : FIT_SLOT_BASELINE];
  r = st ? st->result : NULL;
  t = table_alloc (model, setup->not_ready ? setup->not_ready->message : NULL, &size);
  t->generation = xrlab_engine_shared_get_applied (req->shared, &xrlab_engine_fit_service);
  t->live = preview_follow_live (setup, p->model);
  row = xrlab_fit_dataset_row (setup->ds, p->delay);
  t->delay = xrlab_plan_time (pv->plan) ? setup->ds->time[row] : NAN;
  values = g_new (double, MAX (xrlab_plan_n_params (pv->plan), 1));
  at = g_new (double, MAX (xrlab_plan_n_params (pv->plan), 1));
  table_values (pv, setup->ds->n_a, row, values, at);
  rows = (XrlabFitParamRow *) t->params;
  s = (char *) (rows + t->n_params);
  t->not_ready = put_str (&s, setup->not_ready ? setup->not_ready->message : NULL);
  for (gsize i = 0; i < t->n_params; i++)
    {
      XrlabParamInfo info;
      gssize j;

      xrlab_model_get_param (model, i, &info);
      j = r ? xrlab_fitflow_result_find (r, info.name) : -1;
      rows[i].name = put_str (&s, info.name);
      rows[i].component = put_str (&s, info.component);
      rows[i].host = put_str (&s, info.host);
      rows[i].expr = put_str (&s, info.expr);
      rows[i].role = info.role;
      rows[i].value = values[i];
      rows[i].value_at_delay = at[i];
      rows[i].vary = info.vary;
      rows[i].is_static = info.is_static;
      rows[i].share = info.share;
      rows[i].min = info.min;
      rows[i].max = info.max;
      rows[i].time_dependent = info.has_dynamics;
      rows[i].fitted = j >= 0 && r->params[j].fitted;
      rows[i].error = (j >= 0 && r->params[j].value == values[i]) ? r->params[j].std_error : NAN;
    }
  xrlab_fit_note_transfer (req, size, 0.0);
  xrlab_request_return_pointer (req, t, g_free);
}

static const XrlabRequestKind params_kind = {
  .name = "fit-params-table",
  .service = &xrlab_engine_fit_service,
  .role = XRLAB_REQUEST_READ,
  .flags = XRLAB_REQUEST_NEWEST_PER_CONSUMER | XRLAB_REQUEST_STALE_AFTER_EDIT,
  .payload_free = g_free,
  .serve = params_serve,
};

void
xrlab_engine_fit_params_async (XrlabEngine         *self,
                               guint                setup,
                               const char          *consumer,
                               XrlabFitModelRole    model,
                               double               delay,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  ParamsPayload *p;
  XrlabRequest *req;

  g_return_if_fail (XRLAB_IS_ENGINE (self));
  p = g_new0 (ParamsPayload, 1);
  p->setup = setup;
  p->model = model;
  p->delay = delay;
  req = xrlab_request_new (self, &params_kind, p, xrlab_engine_fit_params_async, cancellable,
                           callback, user_data);
  xrlab_request_set_consumer (req, consumer != NULL ? consumer : "default");
  xrlab_request_submit (req);
}

XrlabFitParamTable *
xrlab_engine_fit_params_finish (XrlabEngine   *self,
                                GAsyncResult  *result,
                                GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return propagate_current (result, error);
}

/* ---- results ---------------------------------------------------------------------- */

typedef struct {
  XrlabFitResults pub;              /* first: the caller's pointer */
  FitStage *stages[FIT_N_SLOTS];
} Results;

void
xrlab_fit_results_free (XrlabFitResults *results)
{
  Results *r = (Results *) results;

  if (r == NULL)
    return;
  for (int s = 0; s < FIT_N_SLOTS; s++)
    g_clear_pointer (&r->stages[s], xrlab_fit_stage_unref);
  g_free (r);
}

/* The doubles a stage holds, for the accounting. */
static gsize
stage_doubles (const FitStage *st)
{
  if (st->result)
    return st->result->n_params * 4 + st->result->n_theta * st->result->n_theta;
  if (st->sbs)
    return st->sbs->n_slices * (2 * st->sbs->n_params + 3);
  if (st->ci)
    return st->ci->n_params * (2 * st->ci->n_sigmas + 1);
  if (st->mcmc)
    return (gsize) st->mcmc->n_kept * st->mcmc->n_walkers * (st->mcmc->p + 1);
  return 0;
}

static void
results_serve (XrlabEngineWorker *worker, gpointer state, XrlabRequest *req)
{
  guint *id = req->payload;
  GError *error = NULL;
  FitSetup *setup = xrlab_fit_state_setup (state, *id, &error);
  Results *r;
  gsize doubles = 0;

  if (setup == NULL)
    {
      xrlab_request_return_error (req, error);
      return;
    }
  r = g_new0 (Results, 1);
  r->pub.generation = xrlab_engine_shared_get_applied (req->shared, &xrlab_engine_fit_service);
  for (int s = 0; s < FIT_N_SLOTS; s++)
    if (setup->stages[s] != NULL)
      {
        r->stages[s] = xrlab_fit_stage_ref (setup->stages[s]);
        doubles += stage_doubles (r->stages[s]);
      }
  if (r->stages[FIT_SLOT_BASELINE])
    {
      r->pub.baseline = r->stages[FIT_SLOT_BASELINE]->result;
      r->pub.baseline_complete = r->stages[FIT_SLOT_BASELINE]->complete;
    }
  if (r->stages[FIT_SLOT_SBS])
    {
      r->pub.sbs = r->stages[FIT_SLOT_SBS]->sbs;
      r->pub.sbs_complete = r->stages[FIT_SLOT_SBS]->complete;
    }
  if (r->stages[FIT_SLOT_MAIN])
    {
      r->pub.main = r->stages[FIT_SLOT_MAIN]->result;
      r->pub.main_complete = r->stages[FIT_SLOT_MAIN]->complete;
    }
  if (r->stages[FIT_SLOT_CI])
    {
      r->pub.ci = r->stages[FIT_SLOT_CI]->ci;
      r->pub.ci_names = (const char *const *) r->stages[FIT_SLOT_CI]->ci_names;
    }
  if (r->stages[FIT_SLOT_TRACE])
    r->pub.trace = r->stages[FIT_SLOT_TRACE]->result;
  if (r->stages[FIT_SLOT_MCMC])
    {
      r->pub.mcmc = r->stages[FIT_SLOT_MCMC]->mcmc;
      r->pub.mcmc_stage = r->stages[FIT_SLOT_MCMC]->mcmc_stage;
    }
  xrlab_fit_note_transfer (req, doubles * sizeof (double), 0.0);
  xrlab_request_return_pointer (req, r, (GDestroyNotify) xrlab_fit_results_free);
}

static const XrlabRequestKind results_kind = {
  .name = "fit-results",
  .service = &xrlab_engine_fit_service,
  .role = XRLAB_REQUEST_READ,
  .flags = XRLAB_REQUEST_NEWEST_PER_CONSUMER,
  .payload_free = g_free,
  .serve = results_serve,
};

void
xrlab_engine_fit_results_async (XrlabEngine         *self,
                                guint                setup,
                                const char          *consumer,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  XrlabRequest *req;

  g_return_if_fail (XRLAB_IS_ENGINE (self));
  req = xrlab_request_new (self, &results_kind, g_memdup2 (&setup, sizeof setup),
                           xrlab_engine_fit_results_async, cancellable, callback, user_data);
  xrlab_request_set_consumer (req, consumer != NULL ? consumer : "default");
  xrlab_request_submit (req);
}

XrlabFitResults *
xrlab_engine_fit_results_finish (XrlabEngine   *self,
                                 GAsyncResult  *result,
                                 GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}
