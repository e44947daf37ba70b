/* xrlab-engine-fit-job.c -- fit jobs on the job lane, and the checks of a
 * setup's stages
 *
 * prepare (worker): copies what the stage needs out of the setup -- the
 *   model, the window, σ, the options -- and takes references to the dataset
 *   and to the results it builds on (the baseline's for later stages, the
 *   main fit's for confidence intervals); makes the job's FitLive.
 * run (lane): a workflow of its own over the dataset, set up as the setup's
 *   (xrlab_fitflow_* with the same inputs, so that the numbers are those of
 *   the same calls made directly), then the stage; progress and the current
 *   θ are posted from its callbacks.
 * finish (worker): the result (the best so far when cancelled) becomes the
 *   setup's, its parameters the setup's values; the reply.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-engine-fit-private.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "xrlab-model-private.h"
#include "xrlab-util.h"

/* How often progress reaches the caller at most [s]. */
#define FIT_PROGRESS_INTERVAL_S 0.03

typedef struct {
  guint setup;
  XrlabFitJobKind kind;
  XrlabFitStages stages;            /* what runs (CI: none, see ci_names) */
  gboolean is2d;                    /* the main stage is 2D (else one spectrum) */
  gsize row;
  char **ci_names;                  /* NULL: no confidence intervals */
  double *ci_sigmas;
  gsize n_ci_sigmas;
  XrlabMcmcOptions mcmc_opts;       /* n_steps 0: no MCMC */
  char *trace_param;
  /* filled by prepare */
  FitDataset *ds;
  XrlabModel *model, *bmodel;
  FitStage *seed;                   /* the baseline result, for later stages */
  FitStage *main_in;                /* CI alone: the result it analyses */
  XrlabFitSetupSpec spec;           /* windows and options (no pointers) */
  double *sigma;
  gsize n_sigma;
  XrlabFitSigmaKind sigma_kind;
  FitLive *live;
  /* made by run, in order; *_done: run to the end */
  XrlabFitflowResult *base, *main, *trace;
  double *trace_rows;               /* delay, value, error, model */
  gsize n_trace;
  XrlabFitflowSbs *sbs;
  XrlabFitCI *ci;
  XrlabMcmcResult *mcmc;
  XrlabFitflowStage mcmc_stage;
  gboolean base_done, sbs_done, main_done, mcmc_done, trace_done;
  GError *error;
  double t0;
  double compute_s;
} JobPayload;

static void
job_payload_free (gpointer data)
{
  JobPayload *p = data;

  g_strfreev (p->ci_names);
  g_free (p->ci_sigmas);
  g_clear_pointer (&p->ds, xrlab_fit_dataset_unref);
  g_clear_pointer (&p->model, xrlab_model_free);
  g_clear_pointer (&p->bmodel, xrlab_model_free);
  g_clear_pointer (&p->seed, xrlab_fit_stage_unref);
  g_clear_pointer (&p->main_in, xrlab_fit_stage_unref);
  g_free (p->sigma);
  g_clear_pointer (&p->live, xrlab_fit_live_unref);
  g_clear_pointer (&p->base, xrlab_fitflow_result_free);
  g_clear_pointer (&p->main, xrlab_fitflow_result_free);
  g_clear_pointer (&p->sbs, xrlab_fitflow_sbs_free);
  g_clear_pointer (&p->ci, xrlab_fit_ci_free);
  g_clear_pointer (&p->mcmc, xrlab_mcmc_result_free);
  g_clear_pointer (&p->trace, xrlab_fitflow_result_free);
  g_free (p->trace_rows);
  g_free (p->trace_param);
  g_clear_error (&p->error);
  g_free (p);
}

static XrlabFitflowStage
main_stage (const JobPayload *p)
{
  return p->is2d ? XRLAB_FITFLOW_STAGE_2D : XRLAB_FITFLOW_STAGE_SPECTRUM;
}

/* ---- progress ---------------------------------------------------------------- */

void
xrlab_fit_job_progress_deliver (gconstpointer snapshot, GCallback callback, gpointer user_data)
{
  ((XrlabFitJobProgressFunc) callback) (snapshot, user_data);
}

/* From the workflow, on the lane (or a pool thread, one at a time). */
static void
on_progress (XrlabFitflowStage stage, guint step, guint total, double chi2, gpointer data)
{
  XrlabRequest *req = data;
  JobPayload *p = req->payload;
  XrlabFitJobProgress s = { .job = p->kind, .stage = stage, .chi2 = chi2,
                         .elapsed_s = xrlab_now () - p->t0 };

  if (req->progress == NULL)
    return;
  if (stage == XRLAB_FITFLOW_STAGE_SBS)
    s.slices_done = step, s.n_slices = total, s.chi2 = NAN;
  else
    s.iteration = step;
  xrlab_engine_progress_post (req->progress, &s);
}

static void
on_theta (XrlabFitflowStage stage, const char *const *names, const double *theta, gsize n,
          gpointer data)
{
  XrlabRequest *req = data;
  JobPayload *p = req->payload;

  xrlab_fit_live_post (p->live, names, theta, n);
}

/* ---- the job ------------------------------------------------------------------ */

static gboolean
fail (XrlabRequest *req, GError *error)
{
  xrlab_request_return_error (req, error);
  return FALSE;
}

/* Confidence intervals need a converged fit with valid errors. */
static gboolean
ci_possible (const XrlabFitflowResult *main, GError **error)
{
  if (main != NULL && main->fit->converged && main->fit->errors_valid)
    return TRUE;
  g_set_error (error, XRLAB_ENGINE_FIT_ERROR, XRLAB_ENGINE_FIT_ERROR_NOT_READY,
               _("Confidence intervals need a fit that converged to a minimum with valid "
                 "errors (%s)"), main ? main->fit->message : _("no 2D or spectrum fit has run"));
  return FALSE;
}

/* What the stages of @p need from @setup; FALSE (answered) when they cannot
 * run. */
static gboolean
job_take_inputs (FitSetup *setup, JobPayload *p, XrlabRequest *req)
{
  const gboolean base = (p->stages & XRLAB_FIT_STAGES_BASELINE) != 0;
  g_autoptr(XrlabModel) start = NULL;
  GError *error = NULL;

  if (base && setup->bmodel == NULL)
    return fail (req, g_error_new (XRLAB_ENGINE_FIT_ERROR, XRLAB_ENGINE_FIT_ERROR_NOT_READY,
                                   _("The fit setup has no baseline model")));
  /* the model the first fit starts from, for the previews */
  start = base ? xrlab_model_copy (setup->bmodel)
               : xrlab_fitflow_seeded_model (setup->flow, p->stages & XRLAB_FIT_STAGES_SBS
                                                            ? XRLAB_FITFLOW_STAGE_SBS
                                                            : main_stage (p),
                                             setup->model, &error);
  if (start == NULL)
    return fail (req, error);
  p->model = xrlab_model_copy (setup->model);
  p->bmodel = setup->bmodel ? xrlab_model_copy (setup->bmodel) : NULL;
  p->ds = xrlab_fit_dataset_ref (setup->ds);
  /* the windows and the options; the strings and arrays stay the setup's */
  p->spec = *xrlab_fit_setup_spec (setup);
  p->spec.models = p->spec.model = NULL;
  p->spec.baseline_models = p->spec.baseline_model = NULL;
  p->spec.dynamics = NULL, p->spec.profiles = p->spec.baseline_profiles = NULL;
  p->spec.values = p->spec.baseline_values = NULL;
  p->spec.sigma.file = NULL, p->spec.sigma.values = NULL;
  p->sigma = g_memdup2 (setup->sigma, setup->n_sigma * sizeof (double));
  p->n_sigma = setup->n_sigma;
  p->sigma_kind = setup->sigma_kind;
  if (!base && xrlab_fit_setup_seeded (setup))
    p->seed = xrlab_fit_stage_ref (setup->stages[FIT_SLOT_BASELINE]);
  p->live = xrlab_fit_live_new (base ? XRLAB_FIT_MODEL_BASELINE : XRLAB_FIT_MODEL_MAIN, start);
  g_clear_pointer (&setup->live, xrlab_fit_live_unref);
  setup->live = xrlab_fit_live_ref (p->live);
  return TRUE;
}

static gboolean
job_prepare (XrlabEngineWorker *worker, gpointer state, XrlabRequest *req)
{
  JobPayload *p = req->payload;
  GError *error = NULL;
  FitSetup *setup = xrlab_fit_state_ready_setup (state, p->setup, &error);

  if (setup == NULL)
    return fail (req, error);
  p->is2d = p->kind == XRLAB_FIT_JOB_2D
            || (p->kind == XRLAB_FIT_JOB_WORKFLOW && setup->ds->time != NULL);
  if (p->kind == XRLAB_FIT_JOB_CI)
    {
      const FitStage *main = setup->stages[FIT_SLOT_MAIN];

      if (!ci_possible (main && main->complete ? main->result : NULL, &error))
        return fail (req, error);
      p->main_in = xrlab_fit_stage_ref (setup->stages[FIT_SLOT_MAIN]);
    }
  else if (!job_take_inputs (setup, p, req))
    return FALSE;
  setup->stats.n_jobs++;
  return TRUE;
}

XrlabFitflow *
xrlab_fit_job_flow_new (const FitDataset *ds, const XrlabFitSetupSpec *s,
                        XrlabFitSigmaKind sigma_kind, const double *sigma, gsize n_sigma,
                        const FitStage *seed, XrlabFitflowProgressFunc progress,
                        XrlabFitflowThetaFunc theta, gpointer data, GError **error)
{
  g_autoptr(XrlabFitflow) flow = xrlab_fit_dataset_flow (ds, error);
  XrlabFitflowOptions opts;

  if (flow == NULL)
    return NULL;
  xrlab_fitflow_options_init (&opts);
  opts.method = s->method;
  opts.pin_to_baseline = s->pin_to_baseline;
  opts.track_peaks = s->track_peaks;
  opts.n_threads = s->n_threads;
  opts.scale_covar = s->scale_covar;
  opts.progress = progress;
  opts.progress_theta = theta;
  opts.progress_data = data;
  xrlab_fitflow_set_options (flow, &opts);
  if (!xrlab_fitflow_set_window (flow, s->e0, s->e1, s->t0, s->t1, error)
      || (sigma != NULL && !xrlab_fitflow_set_sigma (flow, sigma_kind, sigma, n_sigma, error)))
    return NULL;
  if (seed != NULL)
    xrlab_fitflow_set_seed (flow, seed->result);
  return g_steal_pointer (&flow);
}

/* The setup's workflow again, over the job's copies. */
static XrlabFitflow *
job_flow (XrlabRequest *req, GError **error)
{
  JobPayload *p = req->payload;

  return xrlab_fit_job_flow_new (p->ds, &p->spec, p->sigma_kind, p->sigma, p->n_sigma, p->seed,
                                 on_progress, on_theta, req, error);
}

/* Every check of the workflow's stages before any fit (the later stages
 * pinned by the names of the baseline model still to run). */
static gboolean
job_check (JobPayload *p, XrlabFitflow *flow, GError **error)
{
  const XrlabModel *names = (p->stages & XRLAB_FIT_STAGES_BASELINE) ? p->bmodel : NULL;

  return (!(p->stages & XRLAB_FIT_STAGES_BASELINE)
          || xrlab_fitflow_check (flow, XRLAB_FITFLOW_STAGE_BASELINE, p->bmodel, p->spec.b0,
                                  p->spec.b1, 0, NULL, error))
         && (!(p->stages & XRLAB_FIT_STAGES_SBS)
             || xrlab_fitflow_check (flow, XRLAB_FITFLOW_STAGE_SBS, p->model, NAN, NAN, 0,
                                     names, error))
         && (!(p->stages & XRLAB_FIT_STAGES_MAIN)
             || xrlab_fitflow_check (flow, main_stage (p), p->model, NAN, NAN, p->row, names,
                                     error));
}

/* The trace fit of trace_param, and its table: the slices it used (those
 * with a finite value and error) with the fitted trace on their delays. */
static gboolean
job_trace (JobPayload *p, XrlabFitflow *flow, GCancellable *cancellable)
{
  g_autoptr(XrlabModel) tm = NULL;
  g_autoptr(XrlabPlan) plan = NULL;
  g_autofree double *t = NULL, *theta = NULL, *curve = NULL;
  gssize col = -1;
  gsize n = 0;

  if (p->sbs == NULL)
    {
      g_set_error (&p->error, XRLAB_ENGINE_FIT_ERROR, XRLAB_ENGINE_FIT_ERROR_NOT_READY,
                   _("A trace fit needs the slice-by-slice fit"));
      return FALSE;
    }
  if (!xrlab_fitflow_fit_trace (flow, p->sbs, p->model, p->trace_param, cancellable, &p->trace,
                                &p->error))
    return FALSE;
  for (gsize i = 0; i < p->sbs->n_params; i++)
    if (g_str_equal (p->sbs->names[i], p->trace_param))
      col = (gssize) i;
  t = g_new (double, p->sbs->n_slices + 1);
  p->trace_rows = g_new (double, 4 * (p->sbs->n_slices + 1));
  for (gsize k = 0; col >= 0 && k < p->sbs->n_slices; k++)
    {
      double v = p->sbs->values[k * p->sbs->n_params + col];
      double e = p->sbs->errors[k * p->sbs->n_params + col];

      if (p->sbs->done[k] && isfinite (v) && isfinite (e) && e > 0)
        {
          t[n] = p->sbs->delay[k];
          p->trace_rows[4 * n] = t[n], p->trace_rows[4 * n + 1] = v;
          p->trace_rows[4 * n + 2] = e, p->trace_rows[4 * n + 3] = NAN;
          n++;
        }
    }
  p->n_trace = n;
  /* the fitted trace: the model's trace plan at the fitted values */
  if (n > 0 && (tm = xrlab_model_new_trace (p->trace->model, p->trace_param, NULL)) != NULL
      && (plan = xrlab_plan_new (tm, (const double[]) { 0.0 }, 1, t, n, NULL, 0, NULL)) != NULL)
    {
      theta = g_new (double, MAX (xrlab_plan_n_theta (plan), 1));
      curve = g_new (double, xrlab_plan_n_data (plan));
      xrlab_plan_theta_initial (plan, theta);
      xrlab_plan_eval (plan, theta, curve);
      for (gsize k = 0; k < n; k++)
        p->trace_rows[4 * k + 3] = curve[k];
    }
  return TRUE;
}

/* The fit that confidence intervals and MCMC analyse: the main fit, or
 * the baseline without a main stage. */
static XrlabFitflowResult *
job_analysed (JobPayload *p)
{
  return (p->stages & XRLAB_FIT_STAGES_MAIN) ? p->main : p->base;
}

/* MCMC on the main fit, or on the baseline without a main stage. */
static void
job_mcmc (JobPayload *p, GCancellable *cancellable)
{
  XrlabFitflowResult *on = job_analysed (p);

  if (on == NULL)
    {
      g_set_error (&p->error, XRLAB_ENGINE_FIT_ERROR, XRLAB_ENGINE_FIT_ERROR_NOT_READY,
                   _("MCMC needs a fit to start from: the workflow has no baseline fit"));
      return;
    }
  p->mcmc_stage = on->stage;
  p->mcmc_done = xrlab_fitflow_mcmc (on, &p->mcmc_opts, cancellable, &p->mcmc, &p->error);
}

/* The stages in order, each from the ones before (the baseline result
 * seeds @flow); stops at the first failure or cancellation. */
static void
job_stages (JobPayload *p, XrlabFitflow *flow, GCancellable *cancellable)
{
  gboolean ok = TRUE;

  if (g_cancellable_set_error_if_cancelled (cancellable, &p->error)
      || (p->kind == XRLAB_FIT_JOB_WORKFLOW && !job_check (p, flow, &p->error)))
    return;
  if (p->stages & XRLAB_FIT_STAGES_BASELINE)
    {
      xrlab_fit_live_restart (p->live, XRLAB_FIT_MODEL_BASELINE, p->bmodel);
      ok = p->base_done = xrlab_fitflow_fit_baseline (flow, p->bmodel, p->spec.b0, p->spec.b1,
                                                      cancellable, &p->base, &p->error);
    }
  /* a cancel between stages starts no other */
  ok = ok && !g_cancellable_set_error_if_cancelled (cancellable, &p->error);
  if (ok && (p->stages & XRLAB_FIT_STAGES_SBS))
    ok = p->sbs_done = xrlab_fitflow_fit_sbs (flow, p->model, cancellable, &p->sbs, &p->error);
  ok = ok && !g_cancellable_set_error_if_cancelled (cancellable, &p->error);
  if (ok && (p->stages & XRLAB_FIT_STAGES_TRACE))
    ok = p->trace_done = job_trace (p, flow, cancellable);
  ok = ok && !g_cancellable_set_error_if_cancelled (cancellable, &p->error);
  if (ok && (p->stages & XRLAB_FIT_STAGES_MAIN))
    {
      /* after a trace fit, from its time model */
      const XrlabModel *from = p->trace_done ? p->trace->model : p->model;
      g_autoptr(XrlabModel) start = xrlab_fitflow_seeded_model (flow, main_stage (p), from,
                                                                NULL);
      if (start != NULL)
        xrlab_fit_live_restart (p->live, XRLAB_FIT_MODEL_MAIN, start);
      ok = p->main_done = p->is2d
             ? xrlab_fitflow_fit_2d (flow, from, cancellable, &p->main, &p->error)
             : xrlab_fitflow_fit_spectrum (flow, from, p->row, cancellable, &p->main,
                                           &p->error);
    }
  if (ok && p->ci_names != NULL)
    {
      ok = ci_possible (job_analysed (p), &p->error);
      if (ok)
        p->ci = xrlab_fitflow_conf_interval (job_analysed (p), (const char *const *) p->ci_names,
                                             g_strv_length (p->ci_names), p->ci_sigmas,
                                             p->n_ci_sigmas, cancellable, &p->error);
      ok = p->ci != NULL;
    }
  if (ok && p->mcmc_opts.n_steps > 0)
    job_mcmc (p, cancellable);
}

/* On the lane: touches only the payload (and its FitLive). */
static void
job_run (XrlabRequest *req, GCancellable *cancellable)
{
  JobPayload *p = req->payload;
  g_autoptr(XrlabFitflow) flow = NULL;

  p->t0 = xrlab_now ();
  if (p->kind == XRLAB_FIT_JOB_CI)
    p->ci = xrlab_fitflow_conf_interval (p->main_in->result, (const char *const *) p->ci_names,
                                         g_strv_length (p->ci_names), p->ci_sigmas,
                                         p->n_ci_sigmas, cancellable, &p->error);
  else if ((flow = job_flow (req, &p->error)) != NULL)
    job_stages (p, flow, cancellable);
  p->compute_s = xrlab_now () - p->t0;
}

FitStage *
xrlab_fit_stage_new (FitSlot slot, gboolean complete, FitDataset *ds)
{
  FitStage *st = g_new0 (FitStage, 1);

  g_atomic_ref_count_init (&st->ref);
  st->slot = slot;
  st->complete = complete;
  st->ds = ds ? xrlab_fit_dataset_ref (ds) : NULL;
  return st;
}

void
xrlab_fit_setup_keep_baseline (FitSetup *setup, FitDataset *ds, XrlabFitflowResult *result,
                               gboolean complete)
{
  FitStage *st = xrlab_fit_stage_new (FIT_SLOT_BASELINE, complete, ds);
  g_autoptr(XrlabModel) seeded = NULL;

  st->result = result;
  xrlab_fit_setup_set_stage (setup, FIT_SLOT_BASELINE, st);
  for (int s = FIT_SLOT_SBS; s < FIT_N_SLOTS; s++)
    xrlab_fit_setup_set_stage (setup, s, NULL);
  xrlab_fit_setup_take_values (setup, XRLAB_FIT_MODEL_BASELINE, st->result->model);
  if (!st->complete)
    return;
  xrlab_fitflow_set_seed (setup->flow, st->result);
  seeded = xrlab_fitflow_seeded_model (setup->flow, setup->ds->time ? XRLAB_FITFLOW_STAGE_2D
                                                                    : XRLAB_FITFLOW_STAGE_SPECTRUM,
                                       setup->model, NULL);
  xrlab_fit_setup_take_values (setup, XRLAB_FIT_MODEL_MAIN, seeded);
  setup->recheck = TRUE;
}

void
xrlab_fit_setup_keep_main (FitSetup *setup, FitDataset *ds, XrlabFitflowResult *result,
                           gboolean complete)
{
  FitStage *st = xrlab_fit_stage_new (FIT_SLOT_MAIN, complete, ds);

  st->result = result;
  xrlab_fit_setup_set_stage (setup, FIT_SLOT_MAIN, st);
  xrlab_fit_setup_set_stage (setup, FIT_SLOT_CI, NULL);
  xrlab_fit_setup_set_stage (setup, FIT_SLOT_MCMC, NULL);
  xrlab_fit_setup_take_values (setup, XRLAB_FIT_MODEL_MAIN, st->result->model);
}

/* What the job made becomes the setup's, in the order it was made. */
static void
job_keep (FitSetup *setup, JobPayload *p)
{
  if (p->base != NULL)
    xrlab_fit_setup_keep_baseline (setup, p->ds, g_steal_pointer (&p->base), p->base_done);
  if (p->sbs != NULL)
    {
      FitStage *st = xrlab_fit_stage_new (FIT_SLOT_SBS, p->sbs_done, p->ds);
      st->sbs = g_steal_pointer (&p->sbs);
      xrlab_fit_setup_set_stage (setup, FIT_SLOT_SBS, st);
    }
  if (p->main != NULL)
    xrlab_fit_setup_keep_main (setup, p->ds, g_steal_pointer (&p->main), p->main_done);
  if (p->ci != NULL)
    {
      FitStage *st = xrlab_fit_stage_new (FIT_SLOT_CI, TRUE, NULL);
      st->ci = g_steal_pointer (&p->ci);
      st->ci_names = g_strdupv (p->ci_names);
      xrlab_fit_setup_set_stage (setup, FIT_SLOT_CI, st);
    }
  if (p->trace != NULL)
    {
      FitStage *st = xrlab_fit_stage_new (FIT_SLOT_TRACE, p->trace_done, p->ds);
      st->result = g_steal_pointer (&p->trace);
      st->trace_param = g_strdup (p->trace_param);
      st->trace = g_steal_pointer (&p->trace_rows);
      st->n_trace = p->n_trace;
      xrlab_fit_setup_set_stage (setup, FIT_SLOT_TRACE, st);
    }
  if (p->mcmc != NULL)
    {
      FitStage *st = xrlab_fit_stage_new (FIT_SLOT_MCMC, p->mcmc_done, p->ds);
      st->mcmc = g_steal_pointer (&p->mcmc);
      st->mcmc_stage = p->mcmc_stage;
      st->mcmc_burn = p->mcmc_opts.burn;
      st->mcmc_thin = p->mcmc_opts.thin;
      xrlab_fit_setup_set_stage (setup, FIT_SLOT_MCMC, st);
    }
}

static void
job_finish (XrlabEngineWorker *worker, gpointer state, XrlabRequest *req)
{
  JobPayload *p = req->payload;
  FitSetup *setup = xrlab_fit_state_setup (state, p->setup, NULL);
  XrlabEngineStats delta = { .n_requests = 1, .compute_s = p->compute_s };

  xrlab_engine_shared_account (req->shared, req->consumer, &delta);
  if (setup != NULL)
    {
      if (p->live != NULL && setup->live == p->live)
        g_clear_pointer (&setup->live, xrlab_fit_live_unref);
      xrlab_fit_preview_values_changed (setup, XRLAB_FIT_MODEL_MAIN);
      xrlab_fit_preview_values_changed (setup, XRLAB_FIT_MODEL_BASELINE);
      job_keep (setup, p);
    }
  if (p->error != NULL)
    xrlab_request_return_error (req, g_steal_pointer (&p->error));
  else
    xrlab_request_return_boolean (req, TRUE);
  /* the checks against the new seed, after the reply has left: the next
   * request of the caller is served after them */
  if (setup != NULL)
    xrlab_fit_setup_commit (setup);
}

static const XrlabRequestKind job_kind = {
  .name = "fit-job",
  .service = &xrlab_engine_fit_service,
  .role = XRLAB_REQUEST_JOB,
  .payload_free = job_payload_free,
  .prepare = job_prepare,
  .run = job_run,
  .finish = job_finish,
};

void
xrlab_engine_fit_run_async (XrlabEngine            *self,
                            guint                   setup,
                            const XrlabFitJobSpec  *job,
                            XrlabFitJobProgressFunc progress,
                            gpointer                progress_data,
                            GDestroyNotify          progress_data_free,
                            GCancellable           *cancellable,
                            GAsyncReadyCallback     callback,
                            gpointer                user_data)
{
  JobPayload *p;
  XrlabRequest *req;

  g_return_if_fail (XRLAB_IS_ENGINE (self));
  g_return_if_fail (job != NULL);
  p = g_new0 (JobPayload, 1);
  p->setup = setup;
  p->kind = job->kind;
  p->row = job->row;
  switch (job->kind)
    {
    case XRLAB_FIT_JOB_BASELINE:
      p->stages = XRLAB_FIT_STAGES_BASELINE;
      break;
    case XRLAB_FIT_JOB_SBS:
      p->stages = XRLAB_FIT_STAGES_SBS;
      break;
    case XRLAB_FIT_JOB_2D:
    case XRLAB_FIT_JOB_SPECTRUM:
      p->stages = XRLAB_FIT_STAGES_MAIN;
      break;
    case XRLAB_FIT_JOB_WORKFLOW:
      p->stages = job->stages;
      break;
    case XRLAB_FIT_JOB_CI:
    default:
      break;
    }
  if ((job->kind == XRLAB_FIT_JOB_CI || job->kind == XRLAB_FIT_JOB_WORKFLOW)
      && job->n_ci_names > 0)
    {
      p->ci_names = g_new0 (char *, job->n_ci_names + 1);
      for (gsize i = 0; i < job->n_ci_names; i++)
        p->ci_names[i] = g_strdup (job->ci_names[i]);
      p->ci_sigmas = g_memdup2 (job->ci_sigmas, job->n_ci_sigmas * sizeof (double));
      p->n_ci_sigmas = job->ci_sigmas ? job->n_ci_sigmas : 0;
    }
  else if (job->kind == XRLAB_FIT_JOB_CI)
    p->ci_names = g_new0 (char *, 1);
  p->trace_param = g_strdup (job->trace_param);
  xrlab_mcmc_options_init (&p->mcmc_opts);
  if (job->kind == XRLAB_FIT_JOB_WORKFLOW && job->mcmc_steps > 0)
    {
      p->mcmc_opts.n_steps = job->mcmc_steps;
      p->mcmc_opts.n_walkers = job->mcmc_walkers;
      p->mcmc_opts.burn = job->mcmc_burn;
      p->mcmc_opts.thin = job->mcmc_thin;
      p->mcmc_opts.seed = job->mcmc_seed;
    }
  else
    p->mcmc_opts.n_steps = 0;
  req = xrlab_request_new (self, &job_kind, p, xrlab_engine_fit_run_async, cancellable,
                           callback, user_data);
  xrlab_request_set_consumer (req, "fit");
  xrlab_request_attach_progress (req, sizeof (XrlabFitJobProgress), FIT_PROGRESS_INTERVAL_S,
                                 xrlab_fit_job_progress_deliver, G_CALLBACK (progress),
                                 progress_data, progress_data_free);
  xrlab_request_submit (req);
}

gboolean
xrlab_engine_fit_run_finish (XrlabEngine   *self,
                             GAsyncResult  *result,
                             GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

/* ---- checks -------------------------------------------------------------------- */

typedef struct {
  guint setup;
  XrlabFitStages stages;
} CheckPayload;

static void
check_serve (XrlabEngineWorker *worker, gpointer state, XrlabRequest *req)
{
  CheckPayload *p = req->payload;
  GError *error = NULL;
  FitSetup *setup = xrlab_fit_state_ready_setup (state, p->setup, &error);

  if (setup == NULL || !xrlab_fit_setup_check (setup, p->stages, &error))
    xrlab_request_return_error (req, error);
  else
    xrlab_request_return_boolean (req, TRUE);
}

static const XrlabRequestKind check_kind = {
  .name = "fit-check",
  .service = &xrlab_engine_fit_service,
  .role = XRLAB_REQUEST_READ,
  .payload_free = g_free,
  .serve = check_serve,
};

void
xrlab_engine_fit_check_async (XrlabEngine         *self,
                              guint                setup,
                              XrlabFitStages       stages,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  CheckPayload *p = g_new0 (CheckPayload, 1);

  g_return_if_fail (XRLAB_IS_ENGINE (self));
  p->setup = setup;
  p->stages = stages;
  xrlab_request_submit (xrlab_request_new (self, &check_kind, p, xrlab_engine_fit_check_async,
                                           cancellable, callback, user_data));
}

gboolean
xrlab_engine_fit_check_finish (XrlabEngine   *self,
                               GAsyncResult  *result,
                               GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}
