/* xrlab-engine-fit-traces.c -- the fit service's per-delay parameters: the
 * value of every time-dependent parameter at each delay of the data
 *
 * A read on the preview plan of the model asked, at its θ (the values of
 * the model: after a 2D fit, the fitted ones), through
 * xrlab_plan_param_trace(). The window overlays these on the
 * slice-by-slice parameters.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-engine-fit-private.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "xrlab-util.h"

typedef struct {
  guint setup;
  XrlabFitModelRole model;
} TracesPayload;

/* The reply, one allocation: the struct, the names, the arrays. */
static XrlabFitParamTraces *
traces_alloc (const XrlabModel *model, gsize n_delays, const gsize *which, gsize n, gsize *size)
{
  gsize names = 0, off;
  XrlabFitParamTraces *t;
  const char **name_ptrs;
  char *s;
  double *d;

  for (gsize k = 0; k < n; k++)
    {
      XrlabParamInfo info;
      xrlab_model_get_param (model, which[k], &info);
      names += strlen (info.name) + 1;
    }
  off = xrlab_engine_align8 (sizeof *t + (n + 1) * sizeof (char *) + names);
  *size = off + (n_delays + n * n_delays) * sizeof (double);
  t = g_malloc0 (*size);
  name_ptrs = (const char **) (t + 1);
  s = (char *) (name_ptrs + n + 1);
  for (gsize k = 0; k < n; k++)
    {
      XrlabParamInfo info;
      xrlab_model_get_param (model, which[k], &info);
      name_ptrs[k] = s;
      s = g_stpcpy (s, info.name) + 1;
    }
  d = (double *) ((char *) t + off);
  t->n_delays = n_delays;
  t->n_params = n;
  t->names = name_ptrs;
  t->delay = d;
  t->values = d + n_delays;
  return t;
}

static void
traces_serve (XrlabEngineWorker *worker, gpointer state, XrlabRequest *req)
{
  TracesPayload *p = req->payload;
  GError *error = NULL;
  FitSetup *setup = xrlab_fit_state_ready_setup (state, p->setup, &error);
  const XrlabModel *model = setup ? xrlab_fit_setup_model (setup, p->model) : NULL;
  FitPreview *pv = setup ? &setup->preview[p->model] : NULL;
  g_autofree gsize *which = NULL;
  g_autofree double *trace = NULL;
  XrlabFitParamTraces *t;
  gsize n = 0, n_rows, size;
  double t0 = xrlab_now ();

  if (setup != NULL && (model == NULL || pv->plan == NULL))
    g_set_error (&error, XRLAB_ENGINE_FIT_ERROR, XRLAB_ENGINE_FIT_ERROR_NOT_READY,
                 _("The fit setup has no baseline model"));
  if (error != NULL)
    {
      xrlab_request_return_error (req, error);
      return;
    }
  n_rows = xrlab_plan_time (pv->plan) != NULL ? xrlab_plan_n_rows (pv->plan) : 0;
  which = g_new (gsize, MAX (xrlab_model_n_params (model), 1));
  for (gsize i = 0; n_rows > 0 && i < xrlab_model_n_params (model); i++)
    {
      XrlabParamInfo info;
      xrlab_model_get_param (model, i, &info);
      if (info.has_dynamics)
        which[n++] = i;
    }
  t = traces_alloc (model, n_rows, which, n, &size);
  t->generation = xrlab_engine_shared_get_applied (req->shared, &xrlab_engine_fit_service);
  if (n_rows > 0)
    memcpy ((double *) t->delay, setup->ds->time, n_rows * sizeof (double));
  trace = g_new (double, MAX (n_rows, 1) * MAX (setup->ds->n_a, 1));
  for (gsize k = 0; k < n; k++)
    {
      gsize m = xrlab_plan_param_trace (pv->plan, pv->ws1, pv->theta, which[k], trace);
      gsize per_row = MAX (m / n_rows, 1);
      double *out = (double *) t->values + k * n_rows;

      for (gsize r = 0; r < n_rows; r++)
        {
          double sum = 0.0;
          for (gsize a = 0; a < per_row; a++)
            sum += trace[r * per_row + a];
          out[r] = sum / (double) per_row;
        }
    }
  xrlab_fit_note_transfer (req, size, xrlab_now () - t0);
  xrlab_request_return_pointer (req, t, g_free);
}

static const XrlabRequestKind traces_kind = {
  .name = "fit-param-traces",
  .service = &xrlab_engine_fit_service,
  .role = XRLAB_REQUEST_READ,
  .flags = XRLAB_REQUEST_NEWEST_PER_CONSUMER | XRLAB_REQUEST_STALE_AFTER_EDIT,
  .payload_free = g_free,
  .serve = traces_serve,
};

void
xrlab_engine_fit_param_traces_async (XrlabEngine         *self,
                                     guint                setup,
                                     const char          *consumer,
                                     XrlabFitModelRole    model,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  TracesPayload *p;
  XrlabRequest *req;

  g_return_if_fail (XRLAB_IS_ENGINE (self));
  p = g_new0 (TracesPayload, 1);
  p->setup = setup;
  p->model = model;
  req = xrlab_request_new (self, &traces_kind, p, xrlab_engine_fit_param_traces_async, cancellable,
                           callback, user_data);
  xrlab_request_set_consumer (req, consumer != NULL ? consumer : "default");
  xrlab_request_submit (req);
}

XrlabFitParamTraces *
xrlab_engine_fit_param_traces_finish (XrlabEngine   *self,
                                      GAsyncResult  *result,
                                      GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}
