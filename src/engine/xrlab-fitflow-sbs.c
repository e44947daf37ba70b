/* xrlab-fitflow-sbs.c -- slice-by-slice fits: every delay of the window alone, as parts
 * of one loop on the thread pool
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-fitflow.h"
#include "xrlab-fitflow-private.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "xrlab-parallel.h"
#include "xrlab-plan.h"
#include "xrlab-util.h"

void
xrlab_fitflow_sbs_free (XrlabFitflowSbs *s)
{
  if (s == NULL)
    return;
  g_free (s->row);
  g_free (s->delay);
  g_strfreev (s->names);
  g_free (s->fitted);
  g_free (s->values);
  g_free (s->errors);
  g_free (s->chi2);
  g_free (s->redchi);
  g_free (s->niter);
  g_free (s->stop);
  g_free (s->done);
  g_free (s->converged);
  g_free (s);
}

typedef struct {
  XrlabFitflow *f;
  Prep *pr;
  XrlabFitflowSbs *out;
  GCancellable *cancellable;
  gint next;                       /* atomic: the next slice to take */
  GMutex lock;
  guint n_done;
  gboolean failed;
  GError *error;                   /* the first error */
  gssize *x0_theta;                /* θ indices of the tracked positions, −1 terminated */
  double seed_max_e;               /* energy of the baseline maximum (NaN: no tracking) */
  gsize *column;                   /* model parameter of each output column */
} SbsJob;

static gboolean
sbs_should_stop (SbsJob *job)
{
  gboolean failed;

  g_mutex_lock (&job->lock);
  failed = job->failed;
  g_mutex_unlock (&job->lock);
  return failed || g_cancellable_is_cancelled (job->cancellable);
}

static void
sbs_fail (SbsJob *job, GError *err, double delay)
{
  char b[XRLAB_DTOA_BUFSIZE];

  g_mutex_lock (&job->lock);
  if (!job->failed)
    {
      job->failed = TRUE;
      g_propagate_prefixed_error (&job->error, err, _("slice-by-slice fit, delay %s: "),
                                  xrlab_format_double (delay, b));
    }
  else
    g_error_free (err);
  g_mutex_unlock (&job->lock);
}

/* One part of the slice-by-slice loop: fits slices until none is left, with
 * its own optimizer and plan workspace (made with the first slice). */
static void
sbs_worker (gpointer data, guint part)
{
  SbsJob *job = data;
  XrlabFitflow *f = job->f;
  Prep *pr = job->pr;
  XrlabFitflowSbs *out = job->out;
  const gsize p = pr->n_theta, cols = f->ncw, n = out->n_params;
  const gsize np = xrlab_plan_n_params (pr->plan), nm = xrlab_model_n_params (pr->model);
  XrlabFitflowCtx *c = NULL;
  g_autofree double *theta0 = g_new (double, p);
  g_autofree double *values = g_new (double, nm);
  g_autofree double *errors = g_new (double, nm);
  g_autofree double *pv = g_new (double, MAX (np, 1));
  g_autofree double *dv = g_new (double, MAX (np * p, 1));
  XrlabFitSigmaKind sk = f->sigma_kind;

  for (;;)
    {
      gint s = g_atomic_int_add (&job->next, 1);
      gsize row;
      const double *y, *sig = NULL;
      double sig1;
      g_autoptr(GError) err = NULL;
      XrlabFitResult *fr = NULL;
      gboolean ok;

      if (s >= (gint) out->n_slices || sbs_should_stop (job))
        break;
      if (c == NULL)
        c = xrlab_fitflow_ctx_new (f, pr->plan, 1, 0, 1, cols, XRLAB_FITFLOW_STAGE_SBS);
      row = out->row[s];
      y = f->data + row * f->n_cols + f->col0;
      switch (f->sigma_kind)
        {
        case XRLAB_FIT_SIGMA_SCALAR:
          sig = f->sigma;
          break;
        case XRLAB_FIT_SIGMA_ROWS:
          sig1 = f->sigma[row];
          sig = &sig1;
          sk = XRLAB_FIT_SIGMA_SCALAR;
          break;
        case XRLAB_FIT_SIGMA_COLUMNS:
          sig = f->sigma + f->col0;
          break;
        case XRLAB_FIT_SIGMA_FULL:
          sig = f->sigma + row * f->n_cols + f->col0;
          break;
        case XRLAB_FIT_SIGMA_NONE:
        default:
          break;
        }
      if (c->fit == NULL)
        c->fit = xrlab_fitflow_ctx_fit_new (f, c, pr, y, sk, sig, FALSE, &err);
      else if (!xrlab_fit_set_data (c->fit, y, sk, sig, &err))
        g_assert (err != NULL);
      if (err != NULL)
        {
          sbs_fail (job, g_steal_pointer (&err), out->delay[s]);
          break;
        }

      /* the start: the baseline result, positions moved with the maximum */
      memcpy (theta0, pr->theta0, p * sizeof (double));
      if (!isnan (job->seed_max_e))
        {
          gsize imax = 0;
          for (gsize e = 1; e < cols; e++)
            if (y[e] > y[imax])
              imax = e;
          for (gssize *k = job->x0_theta; *k >= 0; k++)
            {
              double v = theta0[*k] + (f->energy[f->col0 + imax] - job->seed_max_e);
              if (v > pr->lower[*k] && v < pr->upper[*k])
                theta0[*k] = v;
            }
        }

      ok = xrlab_fit_run (c->fit, theta0, job->cancellable, &fr, &err);
      if (fr == NULL)
        {
          sbs_fail (job, g_steal_pointer (&err), out->delay[s]);
          break;
        }
      xrlab_fitflow_param_values_errors (pr->plan, pr->model, fr->values, fr->errors,
                                         fr->covar, fr->errors_valid, pv, dv, values, errors);
      for (gsize i = 0; i < n; i++)
        {
          out->values[s * n + i] = values[job->column[i]];
          out->errors[s * n + i] = errors[job->column[i]];
        }
      out->chi2[s] = fr->chi2;
      out->redchi[s] = fr->redchi;
      out->niter[s] = fr->niter;
      out->stop[s] = fr->stop;
      out->converged[s] = fr->converged;
      out->done[s] = ok;
      xrlab_fit_result_free (fr);

      g_mutex_lock (&job->lock);
      job->n_done++;
      if (f->options.progress && ok)
        f->options.progress (XRLAB_FITFLOW_STAGE_SBS, job->n_done, out->n_slices, NAN,
                             f->options.progress_data);
      g_mutex_unlock (&job->lock);
      if (!ok)
        break;   /* cancelled */
    }
  if (c != NULL)
    {
      c->plan = NULL;   /* shared: the job's */
      xrlab_fitflow_ctx_free (c);
    }
}

gboolean
xrlab_fitflow_fit_sbs (XrlabFitflow *flow, const XrlabModel *model, GCancellable *cancellable,
                       XrlabFitflowSbs **result, GError **error)
{
  Prep pr;
  SbsJob job = { 0 };
  g_autoptr(XrlabFitflowSbs) out = NULL;
  XrlabParallel *pool = xrlab_parallel_default ();
  guint n_parts;
  double t_start = xrlab_now ();
  gsize n;

  g_return_val_if_fail (flow != NULL && model != NULL && result != NULL, FALSE);
  *result = NULL;
  if (!xrlab_fitflow_prepare (flow, XRLAB_FITFLOW_STAGE_SBS, model, NAN, NAN, 0, NULL, &pr, error))
    {
      xrlab_fitflow_prep_clear (&pr);
      return FALSE;
    }

  out = g_new0 (XrlabFitflowSbs, 1);
  out->n_slices = pr.rows;
  out->n_points = flow->ncw;
  out->row = g_new (gsize, pr.rows);
  out->delay = g_new (double, pr.rows);
  for (gsize s = 0; s < pr.rows; s++)
    {
      out->row[s] = pr.row0 + s;
      out->delay[s] = flow->time[pr.row0 + s];
    }
  /* every parameter except those of time models, left out here */
  job.column = g_new (gsize, xrlab_model_n_params (pr.model));
  n = 0;
  for (gsize i = 0; i < xrlab_model_n_params (pr.model); i++)
    {
      XrlabParamInfo info;
      xrlab_model_get_param (pr.model, i, &info);
      if (info.role != XRLAB_PARAM_DYNAMICS)
        job.column[n++] = i;
    }
  out->n_params = n;
  out->names = g_new0 (char *, n + 1);
  out->fitted = g_new0 (gboolean, n);
  for (gsize i = 0; i < n; i++)
    {
      XrlabParamInfo info;
      xrlab_model_get_param (pr.model, job.column[i], &info);
      out->names[i] = g_strdup (info.name);
      out->fitted[i] = xrlab_plan_find_theta (pr.plan, info.name) >= 0;
    }
  out->values = g_new (double, pr.rows * n);
  out->errors = g_new (double, pr.rows * n);
  for (gsize i = 0; i < pr.rows * n; i++)
    out->values[i] = out->errors[i] = NAN;
  out->chi2 = g_new (double, pr.rows);
  out->redchi = g_new (double, pr.rows);
  for (gsize s = 0; s < pr.rows; s++)
    out->chi2[s] = out->redchi[s] = NAN;
  out->niter = g_new0 (guint, pr.rows);
  out->stop = g_new0 (XrlabFitStop, pr.rows);
  out->done = g_new0 (gboolean, pr.rows);
  out->converged = g_new0 (gboolean, pr.rows);

  job.f = flow;
  job.pr = &pr;
  job.out = out;
  job.cancellable = cancellable;
  g_mutex_init (&job.lock);
  job.seed_max_e = NAN;
  job.x0_theta = g_new (gssize, pr.n_theta + 1);
  {
    gsize m = 0;
    for (gsize k = 0; k < pr.n_theta; k++)
      {
        XrlabParamInfo info;
        xrlab_model_get_param (pr.model, xrlab_plan_theta_param (pr.plan, k), &info);
        if (info.role == XRLAB_PARAM_ENERGY && g_str_has_suffix (info.name, "_x0"))
          job.x0_theta[m++] = (gssize) k;
      }
    job.x0_theta[m] = -1;
  }
  if (flow->options.track_peaks && flow->seed_spectrum != NULL)
    {
      gsize imax = 0;
      for (gsize e = 1; e < flow->seed_ncols; e++)
        if (flow->seed_spectrum[e] > flow->seed_spectrum[imax])
          imax = e;
      job.seed_max_e = flow->energy[flow->seed_col0 + imax];
    }

  /* parts that take slices in turn, on the pool */
  n_parts = flow->options.n_threads ? flow->options.n_threads : xrlab_parallel_n_threads (pool);
  n_parts = (guint) CLAMP ((gsize) n_parts, 1, MAX (pr.rows, 1));
  xrlab_parallel_run (pool, n_parts, sbs_worker, &job);

  g_free (job.x0_theta);
  g_free (job.column);
  g_mutex_clear (&job.lock);
  xrlab_fitflow_prep_clear (&pr);
  out->wall_s = xrlab_now () - t_start;

  if (job.error)
    {
      g_propagate_error (error, job.error);
      return FALSE;
    }
  *result = g_steal_pointer (&out);
  if (g_cancellable_is_cancelled (cancellable))
    {
      gsize done = 0;
      for (gsize s = 0; s < (*result)->n_slices; s++)
        done += (*result)->done[s];
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                   g_dngettext (GETTEXT_PACKAGE,
                                "The slice-by-slice fit was cancelled after %zu of %zu slice",
                                "The slice-by-slice fit was cancelled after %zu of %zu slices",
                                (*result)->n_slices),
                   done, (*result)->n_slices);
      return FALSE;
    }
  return TRUE;
}
