/* xrlab-engine-fit-model.c -- the structure of a setup's model edited,
 * described and saved as requests of the fit service (see
 * xrlab-engine-fit-model.h)
 *
 * An edit makes the new model from the setup's (xrlab_model_edited()),
 * checks it against the dataset's axes with a plan on a few of them, and
 * swaps it in; the preview plan on the whole axes is rebuilt once after the
 * burst (xrlab_fit_setup_commit).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-engine-fit-model.h"
#include "xrlab-engine-fit-private.h"
#include "xrlab-model-private.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

/* ---- copies of edits ------------------------------------------------------------------ */

typedef struct {
  guint setup;
  XrlabFitModelRole model;
  XrlabModelEdit *edits;            /* their strings and arrays in @strings, @blocks */
  gsize n;
  GStringChunk *strings;
  GPtrArray *blocks;
  XrlabModelEditResult *result;
  GError *error;
} EditPayload;

static void
edit_payload_free (gpointer data)
{
  EditPayload *p = data;

  g_free (p->edits);
  g_string_chunk_free (p->strings);
  g_ptr_array_unref (p->blocks);
  g_free (p->result);
  g_clear_error (&p->error);
  g_free (p);
}

static const char *
keep_str (EditPayload *p, const char *s)
{
  return s ? g_string_chunk_insert (p->strings, s) : NULL;
}

static const char *const *
keep_strv (EditPayload *p, const char *const *v, gsize n)
{
  const char **out;

  if (v == NULL)
    return NULL;
  out = g_new0 (const char *, n + 1);
  g_ptr_array_add (p->blocks, out);
  for (gsize i = 0; i < n; i++)
    out[i] = keep_str (p, v[i]);
  return out;
}

static void
keep_edit (EditPayload *p, XrlabModelEdit *e)
{
  XrlabModelParamRow *rows = NULL;

  e->param = keep_str (p, e->param);
  e->component = keep_str (p, e->component);
  e->function = keep_str (p, e->function);
  e->file = keep_str (p, e->file);
  e->name = keep_str (p, e->name);
  e->models = keep_strv (p, e->models, e->n_models);
  e->functions = keep_strv (p, e->functions, e->n_functions);
  if (e->rows != NULL)
    {
      rows = g_memdup2 (e->rows, MAX (e->n_rows, 1) * sizeof *rows);
      g_ptr_array_add (p->blocks, rows);
      for (gsize i = 0; i < e->n_rows; i++)
        {
          rows[i].name = keep_str (p, rows[i].name);
          rows[i].expr = keep_str (p, rows[i].expr);
        }
      e->rows = rows;
    }
}

/* ---- edits -------------------------------------------------------------------------------- */

/* Whether @m can be evaluated on @ds's axes as the preview evaluates it: a
 * plan on the first few energies, delays and aux values. */
static gboolean
fits_dataset (const XrlabModel *m, const FitDataset *ds, XrlabFitModelRole role, GError **error)
{
  gboolean is2d = role == XRLAB_FIT_MODEL_MAIN && ds->time != NULL;
  XrlabPlanFlags flags = is2d ? XRLAB_PLAN_DEFAULT : XRLAB_PLAN_IGNORE_DYNAMICS;
  g_autoptr(XrlabPlan) plan = xrlab_plan_new_full (m, ds->energy, MIN (ds->n_e, 2),
                                                   is2d ? ds->time : NULL,
                                                   is2d ? MIN (ds->n_t, 2) : 0, ds->aux,
                                                   MIN (ds->n_a, 2), flags, error);

  return plan != NULL;
}

static void
edit_apply (XrlabEngineWorker *worker, gpointer state, XrlabRequest *req)
{
  EditPayload *p = req->payload;
  FitSetup *setup = xrlab_fit_state_ready_setup (state, p->setup, &p->error);
  XrlabModel **slot;
  XrlabModel *out;

  if (setup == NULL)
    return;
  slot = p->model == XRLAB_FIT_MODEL_BASELINE ? &setup->bmodel : &setup->model;
  if (*slot == NULL)
    {
      g_set_error (&p->error, XRLAB_ENGINE_FIT_ERROR, XRLAB_ENGINE_FIT_ERROR_NOT_READY,
                   _("The fit setup has no baseline model"));
      return;
    }
  if (setup->live != NULL)
    {
      g_set_error (&p->error, XRLAB_ENGINE_FIT_ERROR, XRLAB_ENGINE_FIT_ERROR_NOT_READY,
                   _("The model cannot be changed while a fit of it runs"));
      return;
    }
  out = xrlab_model_edited (*slot, p->edits, p->n, &p->result, &p->error);
  if (out == NULL)
    return;
  if (p->model == XRLAB_FIT_MODEL_BASELINE && xrlab_model_has_dynamics (out))
    {
      /* the baseline stage fits one spectrum */
      g_set_error (&p->error, XRLAB_MODEL_ERROR, XRLAB_MODEL_ERROR_INVALID,
                   _("The baseline model “%s” fits one spectrum: it takes no time dependence"),
                   xrlab_model_get_name (out));
      xrlab_model_free (out);
      g_clear_pointer (&p->result, g_free);
      return;
    }
  if (!xrlab_fit_model_size_check (out, setup->ds->n_e, setup->ds->n_t, setup->ds->n_a, TRUE,
                                   xrlab_fit_setup_spec (setup)->max_values, &p->error)
      || !fits_dataset (out, setup->ds, p->model, &p->error))
    {
      xrlab_model_free (out);
      g_clear_pointer (&p->result, g_free);
      return;
    }
  xrlab_model_free (*slot);
  *slot = out;
  p->result->generation = req->generation;
  for (int s = 0; s < FIT_N_SLOTS; s++)
    xrlab_fit_setup_set_stage (setup, s, NULL);
  setup->rebuild_plan[p->model] = TRUE;
  setup->recheck = TRUE;
}

static void
edit_serve (XrlabEngineWorker *worker, gpointer state, XrlabRequest *req)
{
  EditPayload *p = req->payload;

  if (p->error != NULL)
    xrlab_request_return_error (req, g_steal_pointer (&p->error));
  else
    xrlab_request_return_pointer (req, g_steal_pointer (&p->result), g_free);
}

static const XrlabRequestKind edit_kind = {
  .name = "fit-model-edit",
  .service = &xrlab_engine_fit_service,
  .role = XRLAB_REQUEST_EDIT,
  .payload_free = edit_payload_free,
  .apply = edit_apply,
  .serve = edit_serve,
};

void
xrlab_engine_fit_edit_model_async (XrlabEngine          *self,
                                   guint                 setup,
                                   XrlabFitModelRole     model,
                                   const XrlabModelEdit *edits,
                                   gsize                 n,
                                   GCancellable         *cancellable,
                                   GAsyncReadyCallback   callback,
                                   gpointer              user_data)
{
  EditPayload *p;
  XrlabRequest *req;

  g_return_if_fail (XRLAB_IS_ENGINE (self));
  g_return_if_fail (edits != NULL || n == 0);
  p = g_new0 (EditPayload, 1);
  p->setup = setup;
  p->model = model;
  p->n = n;
  p->edits = g_memdup2 (edits, MAX (n, 1) * sizeof *edits);
  p->strings = g_string_chunk_new (128);
  p->blocks = g_ptr_array_new_with_free_func (g_free);
  for (gsize i = 0; i < n; i++)
    keep_edit (p, &p->edits[i]);
  req = xrlab_request_new (self, &edit_kind, p, xrlab_engine_fit_edit_model_async, cancellable,
                           callback, user_data);
  xrlab_request_begin_edit (req, NULL, 0);
  xrlab_request_submit (req);
}

XrlabModelEditResult *
xrlab_engine_fit_edit_model_finish (XrlabEngine   *self,
                                    GAsyncResult  *result,
                                    GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ---- the tree -------------------------------------------------------------------------------- */

typedef struct {
  guint setup;
  XrlabFitModelRole model;
} DescribePayload;

static void
describe_serve (XrlabEngineWorker *worker, gpointer state, XrlabRequest *req)
{
  DescribePayload *p = req->payload;
  GError *error = NULL;
  FitSetup *setup = xrlab_fit_state_ready_setup (state, p->setup, &error);
  const XrlabModel *m = setup ? xrlab_fit_setup_model (setup, p->model) : NULL;
  XrlabModelDesc *desc;

  if (setup != NULL && m == NULL)
    g_set_error (&error, XRLAB_ENGINE_FIT_ERROR, XRLAB_ENGINE_FIT_ERROR_NOT_READY,
                 _("The fit setup has no baseline model"));
  if (error != NULL)
    {
      xrlab_request_return_error (req, error);
      return;
    }
  desc = xrlab_model_describe (m);
  desc->generation = xrlab_engine_shared_get_applied (req->shared, &xrlab_engine_fit_service);
  xrlab_fit_note_transfer (req, sizeof *desc + xrlab_model_n_params (m)
                                               * sizeof (XrlabModelDescParam), 0.0);
  xrlab_request_return_pointer (req, desc, (GDestroyNotify) xrlab_model_desc_free);
}

static const XrlabRequestKind describe_kind = {
  .name = "fit-model-describe",
  .service = &xrlab_engine_fit_service,
  .role = XRLAB_REQUEST_READ,
  .payload_free = g_free,
  .serve = describe_serve,
};

void
xrlab_engine_fit_describe_async (XrlabEngine         *self,
                                 guint                setup,
                                 const char          *consumer,
                                 XrlabFitModelRole    model,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  DescribePayload *p;
  XrlabRequest *req;

  g_return_if_fail (XRLAB_IS_ENGINE (self));
  p = g_new0 (DescribePayload, 1);
  p->setup = setup;
  p->model = model;
  req = xrlab_request_new (self, &describe_kind, p, xrlab_engine_fit_describe_async,
                           cancellable, callback, user_data);
  xrlab_request_set_consumer (req, consumer != NULL ? consumer : "default");
  xrlab_request_submit (req);
}

XrlabModelDesc *
xrlab_engine_fit_describe_finish (XrlabEngine   *self,
                                  GAsyncResult  *result,
                                  GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ---- saving ------------------------------------------------------------------------------------ */

typedef struct {
  GStringChunk *strings;
  XrlabFitDynamics *dynamics;
  XrlabFitProfile *profiles, *baseline_profiles;
  GPtrArray *blocks;
} SavedPriv;

void
xrlab_fit_model_saved_free (XrlabFitModelSaved *saved)
{
  SavedPriv *pv;

  if (saved == NULL)
    return;
  pv = saved->priv;
  g_string_chunk_free (pv->strings);
  g_free (pv->dynamics);
  g_free (pv->profiles);
  g_free (pv->baseline_profiles);
  g_ptr_array_unref (pv->blocks);
  g_free (pv);
  g_free (saved);
}

void
xrlab_fit_model_saved_apply (const XrlabFitModelSaved *saved, XrlabFitSetupSpec *spec)
{
  g_return_if_fail (saved != NULL && spec != NULL);
  spec->models = saved->models;
  spec->model = saved->model;
  spec->dynamics = saved->dynamics;
  spec->n_dynamics = saved->n_dynamics;
  spec->profiles = saved->profiles;
  spec->n_profiles = saved->n_profiles;
  spec->values = NULL;
  spec->n_values = 0;
  spec->baseline_models = NULL;
  spec->baseline_model = saved->baseline_model;
  spec->baseline_profiles = saved->baseline_profiles;
  spec->n_baseline_profiles = saved->n_baseline_profiles;
  spec->baseline_values = NULL;
  spec->n_baseline_values = 0;
}

/* The engine's form of what the writer says of the file. */
static XrlabFitModelSaved *
saved_new (const char *path, const XrlabModel *model, const XrlabModel *bmodel,
           const XrlabModelSaved *w)
{
  XrlabFitModelSaved *s = g_new0 (XrlabFitModelSaved, 1);
  SavedPriv *pv = g_new0 (SavedPriv, 1);
  const char *name = xrlab_model_get_name (model);
  const char *bname = bmodel ? xrlab_model_get_name (bmodel) : NULL;

  s->priv = pv;
  pv->strings = g_string_chunk_new (128);
  pv->blocks = g_ptr_array_new_with_free_func (g_free);
  pv->dynamics = g_new0 (XrlabFitDynamics, MAX (w->n_attach, 1));
  pv->profiles = g_new0 (XrlabFitProfile, MAX (w->n_attach, 1));
  pv->baseline_profiles = g_new0 (XrlabFitProfile, MAX (w->n_attach, 1));
  s->models = g_string_chunk_insert (pv->strings, path);
  s->model = g_string_chunk_insert (pv->strings, name);
  s->baseline_model = bname ? g_string_chunk_insert (pv->strings, bname) : NULL;
  for (gsize i = 0; i < w->n_attach; i++)
    {
      const XrlabModelSavedAttach *a = &w->attach[i];
      gboolean main = strcmp (a->model, name) == 0;
      const char *param = g_string_chunk_insert (pv->strings, a->param);

      if (a->profile)
        {
          XrlabFitProfile *pr = main ? &pv->profiles[s->n_profiles++]
                                     : &pv->baseline_profiles[s->n_baseline_profiles++];
          pr->param = param;
          pr->file = s->models;
          pr->model = g_string_chunk_insert (pv->strings, a->models[0]);
        }
      else if (main)
        {
          XrlabFitDynamics *d = &pv->dynamics[s->n_dynamics++];
          const char **names = g_new0 (const char *, a->n_models + 1);

          g_ptr_array_add (pv->blocks, names);
          for (gsize k = 0; k < a->n_models; k++)
            names[k] = g_string_chunk_insert (pv->strings, a->models[k]);
          d->param = param;
          d->file = s->models;
          d->models = names;
          d->n_models = a->n_models;
          d->frequency = a->frequency;
        }
    }
  s->dynamics = pv->dynamics;
  s->profiles = pv->profiles;
  s->baseline_profiles = pv->baseline_profiles;
  return s;
}

typedef struct {
  guint setup;
  char *path;
} SavePayload;

static void
save_payload_free (gpointer data)
{
  SavePayload *p = data;

  g_free (p->path);
  g_free (p);
}

static void
save_serve (XrlabEngineWorker *worker, gpointer state, XrlabRequest *req)
{
  SavePayload *p = req->payload;
  GError *error = NULL;
  FitSetup *setup = xrlab_fit_state_ready_setup (state, p->setup, &error);
  const XrlabModel *models[2];
  gsize n = 0;
  g_autoptr(XrlabModelSaved) w = NULL;
  g_autoptr(XrlabModel) renamed = NULL;

  if (setup == NULL)
    {
      xrlab_request_return_error (req, error);
      return;
    }
  if (setup->bmodel != NULL
      && g_strcmp0 (xrlab_model_get_name (setup->bmodel),
                    xrlab_model_get_name (setup->model)) == 0)
    {
      /* one file holds one model of a name: the baseline's gets a suffix */
      renamed = xrlab_model_copy (setup->bmodel);
      g_free (renamed->name);
      renamed->name = g_strdup_printf ("%s_baseline", setup->model->name);
    }
  if (setup->bmodel != NULL)
    models[n++] = renamed ? renamed : setup->bmodel;
  models[n++] = setup->model;
  if (!xrlab_model_save (models, n, p->path, &w, &error))
    {
      xrlab_request_return_error (req, error);
      return;
    }
  xrlab_request_return_pointer (req, saved_new (p->path, models[n - 1],
                                                n == 2 ? models[0] : NULL, w),
                                (GDestroyNotify) xrlab_fit_model_saved_free);
}

static const XrlabRequestKind save_kind = {
  .name = "fit-model-save",
  .service = &xrlab_engine_fit_service,
  .role = XRLAB_REQUEST_READ,
  .payload_free = save_payload_free,
  .serve = save_serve,
};

void
xrlab_engine_fit_save_model_async (XrlabEngine         *self,
                                   guint                setup,
                                   const char          *path,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  SavePayload *p;
  XrlabRequest *req;

  g_return_if_fail (XRLAB_IS_ENGINE (self));
  g_return_if_fail (path != NULL);
  p = g_new0 (SavePayload, 1);
  p->setup = setup;
  p->path = g_strdup (path);
  req = xrlab_request_new (self, &save_kind, p, xrlab_engine_fit_save_model_async, cancellable,
                           callback, user_data);
  xrlab_request_submit (req);
}

XrlabFitModelSaved *
xrlab_engine_fit_save_model_finish (XrlabEngine   *self,
                                    GAsyncResult  *result,
                                    GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}
