/* xrlab-engine-fit-write.c -- result sets and synthetic data, written by the
 * engine (jobs on the lane)
 *
 * A result set: the files of xrlab-cli fit (formats below, as its --help
 * describes them) into the temporary folder of xrlab-engine-fit-dir.c,
 * swapped in when every file is written. Synthetic data: a model plus noise
 * (xrlab-simulate.h) in the layout of the data of a fit.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-engine-fit-private.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "xrlab-h5.h"
#include "xrlab-util.h"

/* ---- the files ------------------------------------------------------------------- */

static void
append_num (GString *s, double v)
{
  char b[XRLAB_DTOA_BUFSIZE];

  g_string_append (s, xrlab_format_double (v, b));
}

/* name,value,stderr,vary,min,max,expr */
static char *
params_csv (const XrlabFitflowResult *r)
{
  GString *s = g_string_new ("name,value,stderr,vary,min,max,expr\n");

  for (gsize i = 0; i < r->n_params; i++)
    {
      const XrlabFitflowParam *q = &r->params[i];

      g_string_append_printf (s, "%s,", q->name);
      append_num (s, q->value);
      g_string_append_c (s, ',');
      /* an error for what was fitted or derived from it; nothing for the fixed */
      if (q->fitted || !isnan (q->std_error))
        append_num (s, q->std_error);
      else if (q->expr && r->fit && !r->fit->errors_valid)
        append_num (s, NAN);
      g_string_append_printf (s, ",%s,", q->expr ? "" : q->vary ? "True"
                                         : q->is_static ? "static" : "False");
      if (q->expr == NULL)
        {
          append_num (s, q->min);
          g_string_append_c (s, ',');
          append_num (s, q->max);
        }
      else
        g_string_append_c (s, ',');
      g_string_append_printf (s, ",%s\n", q->expr ? q->expr : "");
    }
  return g_string_free (s, FALSE);
}

/* chi2,redchi,r2,aic,bic,ndata,nvarys,niter,nfev,njev,wall_s */
static char *
metrics_csv (const XrlabFitflowResult *r)
{
  GString *s = g_string_new ("chi2,redchi,r2,aic,bic,ndata,nvarys,niter,nfev,njev,wall_s\n");
  const XrlabFitResult *f = r->fit;

  append_num (s, f->chi2);
  g_string_append_c (s, ',');
  append_num (s, f->redchi);
  g_string_append_c (s, ',');
  append_num (s, f->r2);
  g_string_append_c (s, ',');
  append_num (s, f->aic);
  g_string_append_c (s, ',');
  append_num (s, f->bic);
  g_string_append_printf (s, ",%" G_GSIZE_FORMAT ",%" G_GSIZE_FORMAT ",%u,%u,%u,", f->ndata,
                          f->p, f->niter, f->nfev, f->njev);
  append_num (s, f->wall_s);
  g_string_append_c (s, '\n');
  return g_string_free (s, FALSE);
}

/* The correlation matrix of θ: a header of names, one row per name. */
static char *
correl_csv (const XrlabFitflowResult *r)
{
  GString *s = g_string_new ("name");
  const gsize p = r->n_theta;

  for (gsize j = 0; j < p; j++)
    g_string_append_printf (s, ",%s", r->theta_names[j]);
  g_string_append_c (s, '\n');
  for (gsize i = 0; i < p; i++)
    {
      g_string_append (s, r->theta_names[i]);
      for (gsize j = 0; j < p; j++)
        {
          g_string_append_c (s, ',');
          append_num (s, r->fit->correl[i * p + j]);
        }
      g_string_append_c (s, '\n');
    }
  return g_string_free (s, FALSE);
}

/* delay, every parameter and its error, chi2, redchi, niter, converged */
static char *
sbs_csv (const XrlabFitflowSbs *sb)
{
  GString *s = g_string_new ("delay");
  const gsize n = sb->n_params;

  for (gsize i = 0; i < n; i++)
    g_string_append_printf (s, ",%s,%s_stderr", sb->names[i], sb->names[i]);
  g_string_append (s, ",chi2,redchi,niter,converged\n");
  for (gsize k = 0; k < sb->n_slices; k++)
    {
      append_num (s, sb->delay[k]);
      for (gsize i = 0; i < n; i++)
        {
          double e = sb->errors[k * n + i];
          g_string_append_c (s, ',');
          append_num (s, sb->values[k * n + i]);
          g_string_append_c (s, ',');
          if (sb->fitted[i] || !isnan (e))
            append_num (s, e);
        }
      g_string_append_c (s, ',');
      append_num (s, sb->chi2[k]);
      g_string_append_c (s, ',');
      append_num (s, sb->redchi[k]);
      g_string_append_printf (s, ",%u,%s\n", sb->niter[k],
                              sb->done[k] && sb->converged[k] ? "True" : "False");
    }
  return g_string_free (s, FALSE);
}

/* name,-3sigma,-2sigma,-1sigma,best,+1sigma,+2sigma,+3sigma (absolute values) */
static char *
ci_csv (const XrlabFitCI *ci, char **names)
{
  GString *s = g_string_new ("name");
  const gsize ns = ci->n_sigmas;

  for (gsize k = ns; k-- > 0;)
    g_string_append_printf (s, ",-%gsigma", ci->sigmas[k]);
  g_string_append (s, ",best");
  for (gsize k = 0; k < ns; k++)
    g_string_append_printf (s, ",+%gsigma", ci->sigmas[k]);
  g_string_append_c (s, '\n');
  for (gsize a = 0; a < ci->n_params; a++)
    {
      g_string_append (s, names[a]);
      for (gsize k = ns; k-- > 0;)
        {
          g_string_append_c (s, ',');
          append_num (s, ci->lower[a * ns + k]);
        }
      g_string_append_c (s, ',');
      append_num (s, ci->best[a]);
      for (gsize k = 0; k < ns; k++)
        {
          g_string_append_c (s, ',');
          append_num (s, ci->upper[a * ns + k]);
        }
      g_string_append_c (s, '\n');
    }
  return g_string_free (s, FALSE);
}

/* name,median,-2sigma,-1sigma,+1sigma,+2sigma,tau, then the chain's
 * acceptance fraction, walkers, steps, burn-in and kept steps as rows of
 * their own (#acceptance,...) */
static char *
mcmc_csv (const XrlabMcmcResult *m, guint burn)
{
  GString *s = g_string_new ("name,median,-2sigma,-1sigma,+1sigma,+2sigma,tau\n");
  const double *cols[] = { m->median, m->lo2, m->lo1, m->hi1, m->hi2, m->tau };

  for (gsize j = 0; j < m->p; j++)
    {
      g_string_append (s, m->names[j]);
      for (gsize c = 0; c < G_N_ELEMENTS (cols); c++)
        {
          g_string_append_c (s, ',');
          append_num (s, cols[c][j]);
        }
      g_string_append_c (s, '\n');
    }
  g_string_append (s, "#acceptance,");
  append_num (s, m->acceptance_mean);
  g_string_append_printf (s, "\n#walkers,%u\n#steps,%u\n#burn,%u\n#kept,%u\n#tau_reliable,%s\n",
                          m->n_walkers, m->n_steps, burn, m->n_kept,
                          m->tau_reliable ? "True" : "False");
  return g_string_free (s, FALSE);
}

/* delay,value,error,model: the slices of a trace fit */
static char *
trace_csv (const double *rows, gsize n)
{
  GString *s = g_string_new ("delay,value,error,model\n");

  for (gsize k = 0; k < n; k++)
    for (int c = 0; c < 4; c++)
      {
        append_num (s, rows[4 * k + c]);
        g_string_append_c (s, c < 3 ? ',' : '\n');
      }
  return g_string_free (s, FALSE);
}

/* step,walker,lnprob,PAR,...: the kept chain, step-major */
static char *
mcmc_chain_csv (const XrlabMcmcResult *m, guint burn, guint thin)
{
  GString *s = g_string_new ("step,walker,lnprob");

  for (gsize j = 0; j < m->p; j++)
    g_string_append_printf (s, ",%s", m->names[j]);
  g_string_append_c (s, '\n');
  for (guint t = 0; t < m->n_kept; t++)
    for (guint k = 0; k < m->n_walkers; k++)
      {
        const double *x = m->chain + ((gsize) t * m->n_walkers + k) * m->p;

        g_string_append_printf (s, "%u,%u,", burn + t * MAX (thin, 1), k);
        append_num (s, m->lnprob[(gsize) t * m->n_walkers + k]);
        for (gsize j = 0; j < m->p; j++)
          {
            g_string_append_c (s, ',');
            append_num (s, x[j]);
          }
        g_string_append_c (s, '\n');
      }
  return g_string_free (s, FALSE);
}

/* ---- writing a set ---------------------------------------------------------------- */

typedef struct {
  guint setup;
  char *outdir;
  FitStage *stages[FIT_N_SLOTS];    /* taken by prepare */
  gsize bytes;                      /* written */
  GError *error;
  double compute_s;
} WritePayload;

static void
write_payload_free (gpointer data)
{
  WritePayload *p = data;

  g_free (p->outdir);
  for (int s = 0; s < FIT_N_SLOTS; s++)
    g_clear_pointer (&p->stages[s], xrlab_fit_stage_unref);
  g_clear_error (&p->error);
  g_free (p);
}

typedef struct {
  const char *dir;
  GCancellable *cancellable;
  WritePayload *p;
  gboolean stopped;                 /* by the test hook */
} Writer;

/* Writes @text (taken) as @name; FALSE with the error, or after Ctrl-C. */
static gboolean
put_text (Writer *w, const char *name, char *text, GError **error)
{
  g_autofree char *path = g_build_filename (w->dir, name, NULL);
  g_autofree char *owned = text;
  g_autofree char *step = g_strconcat ("file:", name, NULL);

  if (g_cancellable_set_error_if_cancelled (w->cancellable, error)
      || !xrlab_write_file_atomic (path, owned, -1, error))
    return FALSE;
  w->p->bytes += strlen (owned);
  if (!xrlab_fit_write_hook_step (step))
    return !(w->stopped = TRUE);
  return TRUE;
}

static gboolean
put_matrix (Writer *w, const char *name, const double *m, gsize rows, gsize cols,
            GError **error)
{
  g_autofree char *path = g_build_filename (w->dir, name, NULL);
  g_autofree char *step = g_strconcat ("file:", name, NULL);

  if (g_cancellable_set_error_if_cancelled (w->cancellable, error)
      || !xrlab_write_csv_matrix (path, m, rows, cols, error))
    return FALSE;
  w->p->bytes += rows * cols * 8;
  if (!xrlab_fit_write_hook_step (step))
    return !(w->stopped = TRUE);
  return TRUE;
}

/* The residual @data − @model_map in place of the model, written. */
static gboolean
put_residual (Writer *w, double *model_map, const double *data, gsize mr, gsize mc,
              GError **error)
{
  for (gsize i = 0; i < mr * mc; i++)
    model_map[i] = data[i] - model_map[i];
  return put_matrix (w, "residual.csv", model_map, mr, mc, error);
}

/* Every file of the set into @w->dir, in the order of xrlab-cli fit; the
 * model becomes the residual (one array of the data's size, not two). */
static gboolean
write_files (Writer *w, double *model_map, const double *data, gsize mr, gsize mc,
             GError **error)
{
  FitStage *const *st = w->p->stages;
  const XrlabFitflowResult *main = st[FIT_SLOT_MAIN] ? st[FIT_SLOT_MAIN]->result : NULL;
  const XrlabFitflowResult *base = st[FIT_SLOT_BASELINE] ? st[FIT_SLOT_BASELINE]->result : NULL;
  const FitStage *mcmc = st[FIT_SLOT_MCMC];
  const FitStage *trace = st[FIT_SLOT_TRACE];

  return (main == NULL
          || (put_text (w, "params.csv", params_csv (main), error)
              && put_text (w, "metrics.csv", metrics_csv (main), error)
              && put_text (w, "correl.csv", correl_csv (main), error)
              && put_matrix (w, "fit.csv", model_map, mr, mc, error)
              && put_residual (w, model_map, data, mr, mc, error)))
         && (base == NULL || put_text (w, "baseline_params.csv", params_csv (base), error))
         && (base == NULL || put_text (w, "baseline_metrics.csv", metrics_csv (base), error))
         && (st[FIT_SLOT_SBS] == NULL
             || put_text (w, "sbs.csv", sbs_csv (st[FIT_SLOT_SBS]->sbs), error))
         && (st[FIT_SLOT_CI] == NULL
             || put_text (w, "ci.csv", ci_csv (st[FIT_SLOT_CI]->ci, st[FIT_SLOT_CI]->ci_names),
                          error))
         && (trace == NULL
             || (put_text (w, "trace_params.csv", params_csv (trace->result), error)
                 && put_text (w, "trace_metrics.csv", metrics_csv (trace->result), error)
                 && put_text (w, "trace.csv", trace_csv (trace->trace, trace->n_trace), error)))
         && (mcmc == NULL
             || (put_text (w, "mcmc.csv", mcmc_csv (mcmc->mcmc, mcmc->mcmc_burn), error)
                 && put_text (w, "mcmc_chain.csv",
                              mcmc_chain_csv (mcmc->mcmc, mcmc->mcmc_burn, mcmc->mcmc_thin),
                              error)));
}

static gboolean
write_prepare (XrlabEngineWorker *worker, gpointer state, XrlabRequest *req)
{
  WritePayload *p = req->payload;
  GError *error = NULL;
  FitSetup *setup = xrlab_fit_state_setup (state, p->setup, &error);

  if (setup != NULL && setup->stages[FIT_SLOT_MAIN] == NULL
      && setup->stages[FIT_SLOT_SBS] == NULL && setup->stages[FIT_SLOT_BASELINE] == NULL)
    g_set_error (&error, XRLAB_ENGINE_FIT_ERROR, XRLAB_ENGINE_FIT_ERROR_NOT_READY,
                 _("There are no results to write: no 2D or spectrum fit has run"));
  if (error != NULL)
    {
      xrlab_request_return_error (req, error);
      return FALSE;
    }
  for (int s = 0; s < FIT_N_SLOTS; s++)
    if (setup->stages[s] != NULL)
      p->stages[s] = xrlab_fit_stage_ref (setup->stages[s]);
  return TRUE;
}

/* On the lane: the stages are immutable, the dataset too. */
static void
write_run (XrlabRequest *req, GCancellable *cancellable)
{
  WritePayload *p = req->payload;
  const FitStage *main = p->stages[FIT_SLOT_MAIN];
  g_autoptr(XrlabFitflow) flow = NULL;
  g_autofree double *model_map = NULL, *resid = NULL;
  double t0 = xrlab_now ();
  FitResultDir *dir;
  Writer w = { .cancellable = cancellable, .p = p };
  gsize mr = 0, mc = 0;
  gboolean written;

  if (main != NULL
      && ((flow = xrlab_fit_dataset_flow (main->ds, &p->error)) == NULL
          || (model_map = xrlab_fitflow_result_model (flow, main->result, &mr, &mc,
                                                      &p->error)) == NULL))
    return;
  if (xrlab_h5_is_h5_name (p->outdir))
    {
      if (main != NULL)
        {
          resid = g_new (double, mr * mc);
          for (gsize i = 0; i < mr * mc; i++)
            resid[i] = main->ds->data[i] - model_map[i];
        }
      if (main == NULL)
        g_set_error (&p->error, XRLAB_ENGINE_FIT_ERROR, XRLAB_ENGINE_FIT_ERROR_OUTPUT,
                     _("%s: an HDF5 result file holds a 2D or spectrum fit, and none has run "
                       "(write the baseline or slice results into a folder)"), p->outdir);
      else if (xrlab_fit_write_results_h5 (p->outdir, p->stages, model_map, resid, cancellable,
                                           &p->error))
        p->bytes = (gsize) mr * mc * 8 * 3;
      p->compute_s = xrlab_now () - t0;
      return;
    }
  if ((dir = xrlab_fit_result_dir_begin (p->outdir, &p->error)) == NULL)
    return;
  w.dir = xrlab_fit_result_dir_path (dir);
  /* the files are synced together before the folder is swapped in */
  xrlab_atomic_defer_sync_begin ();
  written = write_files (&w, model_map, main != NULL ? main->ds->data : NULL, mr, mc, &p->error);
  if (!xrlab_atomic_defer_sync_end (written ? &p->error : NULL))
    written = FALSE;
  if (!written)
    {
      if (w.stopped)
        {
          g_set_error (&p->error, XRLAB_ENGINE_FIT_ERROR, XRLAB_ENGINE_FIT_ERROR_OUTPUT,
                       "stopped by the test hook");
          xrlab_fit_result_dir_leave (dir);
        }
      else
        xrlab_fit_result_dir_abort (dir);
      return;
    }
  xrlab_fit_result_dir_commit (dir, &p->error);
  p->compute_s = xrlab_now () - t0;
}

static void
write_finish (XrlabEngineWorker *worker, gpointer state, XrlabRequest *req)
{
  WritePayload *p = req->payload;
  XrlabEngineStats delta = { .n_requests = 1, .compute_s = p->compute_s };

  if (p->error == NULL)
    {
      delta.n_exports = 1;
      delta.export_bytes = p->bytes;
    }
  xrlab_engine_shared_account (req->shared, req->consumer, &delta);
  if (p->error != NULL)
    xrlab_request_return_error (req, g_steal_pointer (&p->error));
  else
    xrlab_request_return_boolean (req, TRUE);
}

static const XrlabRequestKind write_kind = {
  .name = "fit-write",
  .service = &xrlab_engine_fit_service,
  .role = XRLAB_REQUEST_JOB,
  .payload_free = write_payload_free,
  .prepare = write_prepare,
  .run = write_run,
  .finish = write_finish,
};

void
xrlab_engine_fit_write_async (XrlabEngine         *self,
                              guint                setup,
                              const char          *outdir,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  WritePayload *p;
  XrlabRequest *req;

  g_return_if_fail (XRLAB_IS_ENGINE (self));
  g_return_if_fail (outdir != NULL);
  p = g_new0 (WritePayload, 1);
  p->setup = setup;
  p->outdir = g_strdup (outdir);
  req = xrlab_request_new (self, &write_kind, p, xrlab_engine_fit_write_async, cancellable,
                           callback, user_data);
  xrlab_request_set_consumer (req, "export");
  xrlab_request_submit (req);
}

gboolean
xrlab_engine_fit_write_finish (XrlabEngine   *self,
                               GAsyncResult  *result,
                               GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

/* ---- synthetic data --------------------------------------------------------------- */

typedef struct {
  FitConfig *model;                 /* models, model, dynamics, profiles, values */
  char *energy, *time, *aux, *output;
  XrlabNoiseKind noise;
  double level;
  guint64 seed;
  guint64 max_values;
  double scale;
  GError *error;
} SimulatePayload;

static void
simulate_payload_free (gpointer data)
{
  SimulatePayload *p = data;

  xrlab_fit_config_free (p->model);
  g_free (p->energy);
  g_free (p->time);
  g_free (p->aux);
  g_free (p->output);
  g_clear_error (&p->error);
  g_free (p);
}

/* On the lane: the model, the axes, the model plus noise, the file (the
 * order of xrlab-cli simulate). */
static void
simulate_run (XrlabRequest *req, GCancellable *cancellable)
{
  SimulatePayload *p = req->payload;
  const XrlabFitSetupSpec *s = xrlab_fit_config_spec (p->model);
  g_autoptr(XrlabModel) m = NULL;
  g_autofree double *energy = NULL, *time = NULL, *aux = NULL, *y = NULL;
  gsize n_e = 0, n_t = 0, n_a = 0;

  m = xrlab_fit_build_model (s->models, s->model, s->dynamics, s->n_dynamics, s->profiles,
                             s->n_profiles, s->values, s->n_values, FALSE, &p->error);
  if (m == NULL
      || (energy = xrlab_data_read_column (p->energy, XRLAB_DATA_AXIS_ENERGY, &n_e,
                                           &p->error)) == NULL
      || (p->time && (time = xrlab_data_read_column (p->time, XRLAB_DATA_AXIS_TIME, &n_t,
                                                     &p->error)) == NULL)
      || (p->aux && (aux = xrlab_data_read_column (p->aux, XRLAB_DATA_AXIS_OTHER, &n_a,
                                                   &p->error)) == NULL)
      || !xrlab_fit_model_size_check (m, n_e, n_t, n_a, FALSE, p->max_values, &p->error))
    return;
  y = xrlab_simulate (m, energy, n_e, time, n_t, aux, n_a, p->noise, p->level, p->seed,
                      &p->scale, &p->error);
  if (y != NULL && xrlab_h5_is_h5_name (p->output))
    xrlab_fit_write_model_h5 (p->output, m, y, energy, n_e, time, n_t, p->noise, p->level,
                              p->seed, p->scale, &p->error);
  else if (y != NULL)
    xrlab_write_csv_matrix (p->output, y, time ? n_t : 1, n_e, &p->error);
}

static void
simulate_finish (XrlabEngineWorker *worker, gpointer state, XrlabRequest *req)
{
  SimulatePayload *p = req->payload;

  if (p->error != NULL)
    xrlab_request_return_error (req, g_steal_pointer (&p->error));
  else
    xrlab_request_return_pointer (req, g_memdup2 (&p->scale, sizeof p->scale), g_free);
}

static const XrlabRequestKind simulate_kind = {
  .name = "fit-simulate",
  .service = &xrlab_engine_fit_service,
  .role = XRLAB_REQUEST_JOB,
  .payload_free = simulate_payload_free,
  .run = simulate_run,
  .finish = simulate_finish,
};

void
xrlab_engine_fit_simulate_async (XrlabEngine                *self,
                                 const XrlabFitSimulateSpec *spec,
                                 GCancellable               *cancellable,
                                 GAsyncReadyCallback         callback,
                                 gpointer                    user_data)
{
  SimulatePayload *p;
  XrlabFitSetupSpec ms;

  g_return_if_fail (XRLAB_IS_ENGINE (self));
  g_return_if_fail (spec != NULL);
  xrlab_fit_setup_spec_init (&ms);
  ms.models = spec->models;
  ms.model = spec->model;
  ms.dynamics = spec->dynamics, ms.n_dynamics = spec->n_dynamics;
  ms.profiles = spec->profiles, ms.n_profiles = spec->n_profiles;
  ms.values = spec->values, ms.n_values = spec->n_values;
  p = g_new0 (SimulatePayload, 1);
  p->model = xrlab_fit_config_new (&ms);
  p->energy = g_strdup (spec->energy);
  p->time = g_strdup (spec->time);
  p->aux = g_strdup (spec->aux);
  p->output = g_strdup (spec->output);
  p->noise = spec->noise;
  p->level = spec->level;
  p->seed = spec->seed;
  p->max_values = spec->max_values;
  xrlab_request_submit (xrlab_request_new (self, &simulate_kind, p,
                                           xrlab_engine_fit_simulate_async, cancellable,
                                           callback, user_data));
}

gboolean
xrlab_engine_fit_simulate_finish (XrlabEngine   *self,
                                  GAsyncResult  *result,
                                  double        *scale,
                                  GError       **error)
{
  g_autofree double *s = NULL;

  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  s = g_task_propagate_pointer (G_TASK (result), error);
  if (s == NULL)
    return FALSE;
  if (scale != NULL)
    *scale = *s;
  return TRUE;
}
