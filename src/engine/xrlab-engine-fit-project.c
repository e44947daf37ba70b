/* xrlab-engine-fit-project.c -- several setups fitted jointly as one
 * project (xrlab-project.h) on the job lane
 *
 * prepare (worker): copies each setup's model, baseline model, window, σ
 *   and options and references its dataset (and its baseline result when
 *   the baselines do not run again).
 * run (lane): a workflow per file over those copies, each file's baseline,
 *   then the joint 2D fit of the first setup's model.
 * finish (worker): every file's results become its setup's; the joint
 *   result is the reply.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-engine-fit-private.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "xrlab-project.h"
#include "xrlab-util.h"

#define PROJECT_PROGRESS_INTERVAL_S 0.03

typedef struct {
  guint setup;
  char *name;
  FitDataset *ds;
  XrlabModel *model, *bmodel;
  XrlabFitSetupSpec spec;           /* windows and options (no pointers) */
  double *sigma;
  gsize n_sigma;
  XrlabFitSigmaKind sigma_kind;
  FitStage *seed;
  XrlabFitflow *flow;
  XrlabFitflowResult *base, *main;
  gboolean base_done;
} ProjectFile;

typedef struct {
  XrlabFitStages stages;
  gsize n;
  ProjectFile *files;
  XrlabProjectResult *result;
  gboolean complete;
  GError *error;
  double t0, compute_s;
  guint file_now;                   /* the baseline being fitted */
  XrlabRequest *req;
} ProjectPayload;

static void
project_payload_free (gpointer data)
{
  ProjectPayload *p = data;

  for (gsize f = 0; f < p->n; f++)
    {
      ProjectFile *pf = &p->files[f];

      g_free (pf->name);
      g_clear_pointer (&pf->ds, xrlab_fit_dataset_unref);
      g_clear_pointer (&pf->model, xrlab_model_free);
      g_clear_pointer (&pf->bmodel, xrlab_model_free);
      g_free (pf->sigma);
      g_clear_pointer (&pf->seed, xrlab_fit_stage_unref);
      g_clear_pointer (&pf->flow, xrlab_fitflow_free);
      g_clear_pointer (&pf->base, xrlab_fitflow_result_free);
      g_clear_pointer (&pf->main, xrlab_fitflow_result_free);
    }
  g_free (p->files);
  g_clear_pointer (&p->result, xrlab_project_result_free);
  g_clear_error (&p->error);
  g_free (p);
}

/* ---- progress ---------------------------------------------------------------- */

static void
on_progress (XrlabFitflowStage stage, guint step, guint total, double chi2, gpointer data)
{
  ProjectPayload *p = data;
  XrlabFitJobProgress s = { .job = XRLAB_FIT_JOB_2D, .stage = stage, .iteration = step,
                            .chi2 = chi2, .elapsed_s = xrlab_now () - p->t0 };

  if (p->req->progress == NULL || stage == XRLAB_FITFLOW_STAGE_SBS)
    return;
  if (stage == XRLAB_FITFLOW_STAGE_BASELINE)
    s.slices_done = p->file_now, s.n_slices = (guint) p->n;
  xrlab_engine_progress_post (p->req->progress, &s);
}

/* ---- the job ------------------------------------------------------------------ */

static gboolean
take_file (FitState *state, ProjectPayload *p, ProjectFile *pf, GError **error)
{
  FitSetup *setup = xrlab_fit_state_ready_setup (state, pf->setup, error);

  if (setup == NULL)
    return FALSE;
  if (setup->ds->time == NULL)
    {
      g_set_error (error, XRLAB_ENGINE_FIT_ERROR, XRLAB_ENGINE_FIT_ERROR_NOT_READY,
                   _("%s: a joint fit needs data with a delay axis"), pf->name);
      return FALSE;
    }
  if ((p->stages & XRLAB_FIT_STAGES_BASELINE) && setup->bmodel == NULL)
    {
      g_set_error (error, XRLAB_ENGINE_FIT_ERROR, XRLAB_ENGINE_FIT_ERROR_NOT_READY,
                   _("%s: the fit setup has no baseline model"), pf->name);
      return FALSE;
    }
  pf->model = xrlab_model_copy (setup->model);
  pf->bmodel = setup->bmodel ? xrlab_model_copy (setup->bmodel) : NULL;
  pf->ds = xrlab_fit_dataset_ref (setup->ds);
  pf->spec = *xrlab_fit_setup_spec (setup);
  pf->spec.models = pf->spec.model = NULL;
  pf->spec.baseline_models = pf->spec.baseline_model = NULL;
  pf->spec.dynamics = NULL, pf->spec.profiles = pf->spec.baseline_profiles = NULL;
  pf->spec.values = pf->spec.baseline_values = NULL;
  pf->spec.sigma.file = NULL, pf->spec.sigma.values = NULL;
  pf->sigma = g_memdup2 (setup->sigma, setup->n_sigma * sizeof (double));
  pf->n_sigma = setup->n_sigma;
  pf->sigma_kind = setup->sigma_kind;
  if (!(p->stages & XRLAB_FIT_STAGES_BASELINE) && xrlab_fit_setup_seeded (setup))
    pf->seed = xrlab_fit_stage_ref (setup->stages[FIT_SLOT_BASELINE]);
  setup->stats.n_jobs++;
  return TRUE;
}

static gboolean
project_prepare (XrlabEngineWorker *worker, gpointer state, XrlabRequest *req)
{
  ProjectPayload *p = req->payload;
  GError *error = NULL;

  for (gsize f = 0; f < p->n; f++)
    if (!take_file (state, p, &p->files[f], &error))
      {
        xrlab_request_return_error (req, error);
        return FALSE;
      }
  return TRUE;
}

/* Every file's workflow, checked; then the baselines. */
static gboolean
project_files (ProjectPayload *p, GCancellable *cancellable)
{
  const gboolean base = (p->stages & XRLAB_FIT_STAGES_BASELINE) != 0;

  for (gsize f = 0; f < p->n; f++)
    {
      ProjectFile *pf = &p->files[f];

      pf->flow = xrlab_fit_job_flow_new (pf->ds, &pf->spec, pf->sigma_kind, pf->sigma,
                                         pf->n_sigma, pf->seed, on_progress, NULL, p,
                                         &p->error);
      if (pf->flow == NULL
          || (base && !xrlab_fitflow_check (pf->flow, XRLAB_FITFLOW_STAGE_BASELINE, pf->bmodel,
                                            pf->spec.b0, pf->spec.b1, 0, NULL, &p->error))
          || !xrlab_fitflow_check (pf->flow, XRLAB_FITFLOW_STAGE_2D, p->files[0].model, NAN,
                                   NAN, 0, base ? pf->bmodel : NULL, &p->error))
        {
          g_prefix_error (&p->error, "%s: ", pf->name);
          return FALSE;
        }
    }
  for (gsize f = 0; base && f < p->n; f++)
    {
      ProjectFile *pf = &p->files[f];

      p->file_now = (guint) f;
      pf->base_done = xrlab_fitflow_fit_baseline (pf->flow, pf->bmodel, pf->spec.b0,
                                                  pf->spec.b1, cancellable, &pf->base,
                                                  &p->error);
      if (!pf->base_done)
        {
          if (!g_error_matches (p->error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
            g_prefix_error (&p->error, "%s: ", pf->name);
          return FALSE;
        }
    }
  return !g_cancellable_set_error_if_cancelled (cancellable, &p->error);
}

static void
project_run (XrlabRequest *req, GCancellable *cancellable)
{
  ProjectPayload *p = req->payload;
  g_autoptr(XrlabProject) proj = NULL;
  XrlabProjectOptions opts;

  p->t0 = xrlab_now ();
  p->req = req;
  if (project_files (p, cancellable) && (p->stages & XRLAB_FIT_STAGES_MAIN))
    {
      proj = xrlab_project_new ();
      xrlab_project_options_init (&opts);
      opts.scale_covar = p->files[0].spec.scale_covar;
      opts.progress = on_progress;
      opts.progress_data = p;
      xrlab_project_set_options (proj, &opts);
      for (gsize f = 0; f < p->n; f++)
        xrlab_project_add_file (proj, p->files[f].flow, p->files[f].name);
      p->complete = xrlab_project_fit_2d (proj, p->files[0].model, cancellable, &p->result,
                                          &p->error);
      for (gsize f = 0; p->result != NULL && f < p->n; f++)
        p->files[f].main = g_steal_pointer (&p->result->files[f]);
    }
  p->compute_s = xrlab_now () - p->t0;
}

static gsize
strsize (const char *s)
{
  return s ? strlen (s) + 1 : 0;
}

/* The reply: one allocation. */
static XrlabFitProject *
project_reply (const ProjectPayload *p)
{
  const XrlabProjectResult *r = p->result;
  const char *message = xrlab_fit_stop_to_string (r->stop);
  gsize size = sizeof (XrlabFitProject) + (r->n_shared + 1) * sizeof (char *)
               + 2 * r->n_shared * sizeof (double) + strsize (message);
  XrlabFitProject *out;
  char *at;

  for (gsize j = 0; j < r->n_shared; j++)
    size += strsize (r->shared_names[j]);
  out = g_malloc0 (size);
  at = (char *) (out + 1);
  out->shared_names = (const char *const *) at;
  at += (r->n_shared + 1) * sizeof (char *);
  out->shared_values = memcpy (at, r->shared_values, r->n_shared * sizeof (double));
  at += r->n_shared * sizeof (double);
  out->shared_errors = memcpy (at, r->shared_errors, r->n_shared * sizeof (double));
  at += r->n_shared * sizeof (double);
  for (gsize j = 0; j < r->n_shared; j++)
    {
      ((const char **) out->shared_names)[j] = strcpy (at, r->shared_names[j]);
      at += strsize (r->shared_names[j]);
    }
  out->message = strcpy (at, message);
  out->n_files = r->n_files;
  out->n_shared = r->n_shared;
  out->ndata = r->ndata, out->nvarys = r->n_theta;
  out->chi2 = r->chi2, out->redchi = r->redchi, out->aic = r->aic, out->bic = r->bic;
  out->niter = r->niter, out->nfev = r->nfev;
  out->converged = r->converged;
  out->complete = p->complete;
  out->covar_scaled = r->covar_scaled;
  out->wall_s = r->wall_s;
  return out;
}

static void
project_finish (XrlabEngineWorker *worker, gpointer state, XrlabRequest *req)
{
  ProjectPayload *p = req->payload;
  XrlabEngineStats delta = { .n_requests = 1, .compute_s = p->compute_s };

  xrlab_engine_shared_account (req->shared, req->consumer, &delta);
  for (gsize f = 0; f < p->n; f++)
    {
      ProjectFile *pf = &p->files[f];
      FitSetup *setup = xrlab_fit_state_setup (state, pf->setup, NULL);

      if (setup == NULL)
        continue;
      if (pf->base != NULL)
        xrlab_fit_setup_keep_baseline (setup, pf->ds, g_steal_pointer (&pf->base),
                                       pf->base_done);
      if (pf->main != NULL)
        xrlab_fit_setup_keep_main (setup, pf->ds, g_steal_pointer (&pf->main), p->complete);
      xrlab_fit_preview_values_changed (setup, XRLAB_FIT_MODEL_MAIN);
      xrlab_fit_preview_values_changed (setup, XRLAB_FIT_MODEL_BASELINE);
    }
  if (p->error != NULL)
    xrlab_request_return_error (req, g_steal_pointer (&p->error));
  else if (p->result == NULL)
    xrlab_request_return_error (req, g_error_new (XRLAB_ENGINE_FIT_ERROR,
                                                  XRLAB_ENGINE_FIT_ERROR_NOT_READY,
                                                  _("The project has no joint fit to run")));
  else
    xrlab_request_return_pointer (req, project_reply (p), g_free);
  for (gsize f = 0; f < p->n; f++)
    {
      FitSetup *setup = xrlab_fit_state_setup (state, p->files[f].setup, NULL);

      if (setup != NULL)
        xrlab_fit_setup_commit (setup);
    }
}

static const XrlabRequestKind project_kind = {
  .name = "fit-project",
  .service = &xrlab_engine_fit_service,
  .role = XRLAB_REQUEST_JOB,
  .payload_free = project_payload_free,
  .prepare = project_prepare,
  .run = project_run,
  .finish = project_finish,
};

void
xrlab_engine_fit_project_run_async (XrlabEngine               *self,
                                    const XrlabFitProjectSpec *spec,
                                    XrlabFitJobProgressFunc    progress,
                                    gpointer                   progress_data,
                                    GDestroyNotify             progress_data_free,
                                    GCancellable              *cancellable,
                                    GAsyncReadyCallback        callback,
                                    gpointer                   user_data)
{
  ProjectPayload *p;
  XrlabRequest *req;

  g_return_if_fail (XRLAB_IS_ENGINE (self));
  g_return_if_fail (spec != NULL && spec->n_setups > 0);
  p = g_new0 (ProjectPayload, 1);
  p->stages = spec->stages;
  p->n = spec->n_setups;
  p->files = g_new0 (ProjectFile, p->n);
  for (gsize f = 0; f < p->n; f++)
    {
      p->files[f].setup = spec->setups[f];
      p->files[f].name = spec->names ? g_strdup (spec->names[f])
                                     : g_strdup_printf ("file_%zu", f + 1);
    }
  req = xrlab_request_new (self, &project_kind, p, xrlab_engine_fit_project_run_async,
                           cancellable, callback, user_data);
  xrlab_request_set_consumer (req, "fit");
  xrlab_request_attach_progress (req, sizeof (XrlabFitJobProgress),
                                 PROJECT_PROGRESS_INTERVAL_S, xrlab_fit_job_progress_deliver,
                                 G_CALLBACK (progress), progress_data, progress_data_free);
  xrlab_request_submit (req);
}

XrlabFitProject *
xrlab_engine_fit_project_run_finish (XrlabEngine   *self,
                                     GAsyncResult  *result,
                                     GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ---- the shared parameters as a file -------------------------------------------- */

gboolean
xrlab_fit_project_write (const XrlabFitProject *project, const char *path, GError **error)
{
  g_autoptr(GString) s = g_string_new ("name,value,stderr\n");
  char a[XRLAB_DTOA_BUFSIZE], b[XRLAB_DTOA_BUFSIZE], c[XRLAB_DTOA_BUFSIZE],
       d[XRLAB_DTOA_BUFSIZE], w[XRLAB_DTOA_BUFSIZE];

  for (gsize j = 0; j < project->n_shared; j++)
    g_string_append_printf (s, "%s,%s,%s\n", project->shared_names[j],
                            xrlab_format_double (project->shared_values[j], a),
                            xrlab_format_double (project->shared_errors[j], b));
  g_string_append_printf (s, "\nchi2,redchi,aic,bic,ndata,nvarys,niter,nfev,covar_scaled,wall_s\n"
                          "%s,%s,%s,%s,%zu,%zu,%u,%u,%s,%s\n",
                          xrlab_format_double (project->chi2, a),
                          xrlab_format_double (project->redchi, b),
                          xrlab_format_double (project->aic, c),
                          xrlab_format_double (project->bic, d), project->ndata, project->nvarys,
                          project->niter, project->nfev,
                          project->covar_scaled ? "True" : "False",
                          xrlab_format_double (project->wall_s, w));
  return xrlab_write_file_atomic (path, s->str, (gssize) s->len, error);
}
