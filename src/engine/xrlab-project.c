/* xrlab-project.c -- several measurements fitted jointly with one model: the
 * parameters of all files in one Levenberg–Marquardt over all residuals,
 * its normal equations solved by blocks (see xrlab-project.h)
 *
 * Layout of the global parameter vector: the nS shared parameters first,
 * then the block of each file (file f at off[f], nF[f] entries). Each file
 * keeps its own plan over its local θ (the order of its 2D stage); map[k]
 * gives the global index of its local entry k. An evaluation gives, per
 * file, χ²_f, g_f = J_fᵀ r_f and H_f = J_fᵀ J_f over its local entries (the
 * Jacobian of the internal variables, or of the external ones for the
 * covariance); the blocks A, B_f, D_f are read off them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-project.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "xrlab-fit-private.h"
#include "xrlab-fitflow-private.h"
#include "xrlab-project-private.h"
#include "xrlab-parallel.h"
#include "xrlab-plan.h"
#include "xrlab-util.h"

G_DEFINE_QUARK (xrlab-project-error-quark, xrlab_project_error)

#define DEFAULT_MAX_ITER 10000
#define DEFAULT_XTOL 1e-12
/* the rounding test of xrlab-fit.h: a predicted decrease below this × χ² */
#define ROUNDING 1e-15
#define MAX_REJECTS 16

typedef struct {
  XrlabFitflow *flow;
  char *name;
} Entry;

struct _XrlabProject {
  GArray *files;               /* Entry */
  XrlabProjectOptions options;
};


void
xrlab_project_options_init (XrlabProjectOptions *options)
{
  memset (options, 0, sizeof *options);
  options->max_iter = DEFAULT_MAX_ITER;
  options->xtol = DEFAULT_XTOL;
}

XrlabProject *
xrlab_project_new (void)
{
  XrlabProject *p = g_new0 (XrlabProject, 1);

  p->files = g_array_new (FALSE, TRUE, sizeof (Entry));
  xrlab_project_options_init (&p->options);
  return p;
}

void
xrlab_project_free (XrlabProject *project)
{
  if (project == NULL)
    return;
  for (guint i = 0; i < project->files->len; i++)
    g_free (g_array_index (project->files, Entry, i).name);
  g_array_unref (project->files);
  g_free (project);
}

void
xrlab_project_set_options (XrlabProject *project, const XrlabProjectOptions *options)
{
  g_return_if_fail (project != NULL && options != NULL);
  project->options = *options;
  if (project->options.max_iter == 0)
    project->options.max_iter = DEFAULT_MAX_ITER;
  if (!(project->options.xtol > 0))
    project->options.xtol = DEFAULT_XTOL;
}

gsize
xrlab_project_add_file (XrlabProject *project, XrlabFitflow *flow, const char *name)
{
  Entry e = { flow, g_strdup (name ? name : "") };

  g_return_val_if_fail (project != NULL && flow != NULL, 0);
  g_array_append_val (project->files, e);
  return project->files->len - 1;
}

gsize
xrlab_project_n_files (const XrlabProject *project)
{
  return project->files->len;
}

void
xrlab_project_result_free (XrlabProjectResult *r)
{
  if (r == NULL)
    return;
  for (gsize f = 0; f < r->n_files; f++)
    xrlab_fitflow_result_free (r->files[f]);
  g_free (r->files);
  g_strfreev (r->file_names);
  g_strfreev (r->shared_names);
  g_free (r->shared_values);
  g_free (r->shared_errors);
  g_free (r);
}

/* ---- evaluation ------------------------------------------------------------------ */

/* 1/σ of point @i of a file's fitted block. */
static inline double
inv_sigma (const XrlabFitflowCtx *c, gsize i)
{
  switch (c->sigma_kind)
    {
    case XRLAB_FIT_SIGMA_SCALAR:
      return 1.0 / c->sig[0];
    case XRLAB_FIT_SIGMA_ROWS:
      return 1.0 / c->sig[i / c->cols];
    case XRLAB_FIT_SIGMA_COLUMNS:
      return 1.0 / c->sig[i % c->cols];
    case XRLAB_FIT_SIGMA_FULL:
      return 1.0 / c->sig[i];
    case XRLAB_FIT_SIGMA_NONE:
    default:
      return 1.0;
    }
}

/* The model (and Jacobian) of the fitted block of @c at @theta. */
static void
ctx_eval (XrlabFitflowCtx *c, const double *theta, double *out, double *jac)
{
  const gsize p = c->p;

  if (c->direct)
    {
      xrlab_plan_eval_jacobian_ws (c->plan, c->ws, theta, out, jac);
      return;
    }
  xrlab_plan_eval_jacobian_ws (c->plan, c->ws, theta, c->buf, jac ? c->jbuf : NULL);
  for (gsize r = 0; r < c->rows; r++)
    {
      memcpy (out + r * c->cols, c->buf + (r + c->row_off) * c->dom_cols,
              c->cols * sizeof (double));
      if (jac)
        memcpy (jac + r * c->cols * p, c->jbuf + (r + c->row_off) * c->dom_cols * p,
                c->cols * p * sizeof (double));
    }
}

/* One file at the joint point: χ², g and H over its local entries. */
static void
eval_part (gpointer data, guint f)
{
  Joint *J = data;
  FileFit *ff = &J->ff[f];
  const gsize p = ff->p, n = ff->n;
  double *g = ff->g[J->slot], *h = ff->h[J->slot];
  double chi2 = 0.0, sc[p > 0 ? p : 1], row[p > 0 ? p : 1];

  for (gsize k = 0; k < p; k++)
    {
      ff->theta[k] = J->theta[ff->map[k]];
      sc[k] = J->dtdu ? J->dtdu[ff->map[k]] : 1.0;
    }
  ctx_eval (ff->c, ff->theta, ff->model, J->want_jac ? ff->jac : NULL);
  if (J->want_jac)
    {
      memset (g, 0, p * sizeof (double));
      memset (h, 0, p * p * sizeof (double));
    }
  for (gsize i = 0; i < n; i++)
    {
      const double w = inv_sigma (ff->c, i);
      const double r = (ff->model[i] - ff->c->y[i]) * w;
      chi2 += r * r;
      if (J->want_jac)
        {
          for (gsize k = 0; k < p; k++)
            row[k] = ff->jac[i * p + k] * w * sc[k];
          for (gsize a = 0; a < p; a++)
            {
              g[a] += row[a] * r;
              for (gsize b = 0; b <= a; b++)
                h[a * p + b] += row[a] * row[b];
            }
        }
    }
  if (J->want_jac)
    for (gsize a = 0; a < p; a++)
      for (gsize b = 0; b < a; b++)
        h[b * p + a] = h[a * p + b];
  ff->chi2[J->slot] = chi2;
}

/* Evaluates every file at @theta into set @slot; returns Σ χ² (NaN or ∞ when
 * a model value is not finite). */
static double
evaluate (Joint *J, const double *theta, const double *dtdu, gboolean jac, int slot)
{
  double chi2 = 0.0;

  J->theta = theta;
  J->dtdu = dtdu;
  J->want_jac = jac;
  J->slot = slot;
  xrlab_parallel_run (xrlab_parallel_default (), J->n_files, eval_part, J);
  for (gsize f = 0; f < J->n_files; f++)
    chi2 += J->ff[f].chi2[slot];
  return chi2;
}

/* ---- setting up ------------------------------------------------------------------- */

static void
file_fit_clear (FileFit *ff)
{
  xrlab_fitflow_prep_clear (&ff->pr);
  xrlab_fitflow_ctx_free (ff->c);
  g_free (ff->map);
  g_free (ff->theta);
  g_free (ff->model);
  g_free (ff->jac);
  for (int s = 0; s < 2; s++)
    {
      g_free (ff->g[s]);
      g_free (ff->h[s]);
    }
}

static void
joint_clear (Joint *J)
{
  for (gsize f = 0; f < J->n_files; f++)
    file_fit_clear (&J->ff[f]);
  g_free (J->ff);
  g_free (J->bound);
  g_free (J->lo);
  g_free (J->hi);
  g_strfreev (J->names);
}

/* Every file's 2D stage, the global layout and the start @theta0 (P). */
static gboolean
joint_setup (XrlabProject *proj, const XrlabModel *model, Joint *J, double **theta0,
             GError **error)
{
  g_autoptr(GPtrArray) shared = g_ptr_array_new ();   /* names (the files' strings) */
  g_autoptr(GArray) s_start = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) s_lo = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) s_hi = g_array_new (FALSE, FALSE, sizeof (double));
  gsize off;

  J->n_files = proj->files->len;
  J->ff = g_new0 (FileFit, J->n_files);
  J->all_weighted = TRUE;
  for (gsize f = 0; f < J->n_files; f++)
    {
      Entry *e = &g_array_index (proj->files, Entry, f);
      FileFit *ff = &J->ff[f];
      g_autoptr(GError) err = NULL;

      ff->flow = e->flow;
      if (!xrlab_fitflow_prepare (e->flow, XRLAB_FITFLOW_STAGE_2D, model, NAN, NAN, 0, NULL,
                                  &ff->pr, &err))
        {
          g_set_error (error, XRLAB_PROJECT_ERROR, XRLAB_PROJECT_ERROR_FILE, _("File “%s”: %s"),
                       e->name, err->message);
          return FALSE;
        }
      ff->p = ff->pr.n_theta;
      ff->rows = ff->pr.rows;
      ff->cols = e->flow->ncw;
      ff->n = ff->rows * ff->cols;
      J->N += ff->n;
      ff->c = xrlab_fitflow_ctx_new (e->flow, g_steal_pointer (&ff->pr.plan),
                                     J->n_files > 1 ? 1 : 0, ff->pr.row0 - ff->pr.dom_row0,
                                     ff->rows, ff->cols, XRLAB_FITFLOW_STAGE_2D);
      xrlab_fitflow_ctx_load (e->flow, &ff->pr, ff->c);
      if (ff->c->sigma_kind == XRLAB_FIT_SIGMA_NONE)
        J->all_weighted = FALSE;
      ff->map = g_new (gsize, MAX (ff->p, 1));
      ff->theta = g_new (double, MAX (ff->p, 1));
      ff->model = g_new (double, ff->n);
      ff->jac = g_new (double, MAX (ff->n * ff->p, 1));
      for (int s = 0; s < 2; s++)
        {
          ff->g[s] = g_new0 (double, MAX (ff->p, 1));
          ff->h[s] = g_new0 (double, MAX (ff->p * ff->p, 1));
        }
      /* shared entries first (by name, in order of first appearance) */
      for (gsize k = 0; k < ff->p; k++)
        {
          XrlabParamInfo info;
          guint at;

          ff->map[k] = G_MAXSIZE;
          xrlab_model_get_param (ff->pr.model, xrlab_model_find_param (ff->pr.model,
                                                                       ff->pr.names[k]),
                                 &info);
          if (info.share != XRLAB_PARAM_SHARE_PROJECT)
            {
              ff->nF++;
              continue;
            }
          if (!g_ptr_array_find_with_equal_func (shared, ff->pr.names[k], g_str_equal, &at))
            {
              g_ptr_array_add (shared, ff->pr.names[k]);
              g_array_append_val (s_start, ff->pr.theta0[k]);
              g_array_append_val (s_lo, ff->pr.lower[k]);
              g_array_append_val (s_hi, ff->pr.upper[k]);
              at = shared->len - 1;
            }
          ff->map[k] = at;
        }
    }
  J->nS = shared->len;
  off = J->nS;
  for (gsize f = 0; f < J->n_files; f++)
    {
      FileFit *ff = &J->ff[f];
      gsize l = 0;
      ff->off = off;
      for (gsize k = 0; k < ff->p; k++)
        if (ff->map[k] == G_MAXSIZE)
          ff->map[k] = off + l++;
      off += ff->nF;
    }
  J->P = off;
  if (J->N < J->P)
    {
      g_autofree char *points = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%zu point",
                                                              "%zu points", J->N), J->N);
      g_autofree char *params = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                              "%zu free parameter",
                                                              "%zu free parameters", J->P),
                                                 J->P);
      /* TRANSLATORS: "The files hold 12 points for 14 free parameters" */
      g_set_error (error, XRLAB_PROJECT_ERROR, XRLAB_PROJECT_ERROR_TOO_FEW_POINTS,
                   _("The files hold %s for %s"), points, params);
      return FALSE;
    }

  /* names, bounds and the start, global */
  J->names = g_new0 (char *, J->P + 1);
  J->lo = g_new (double, MAX (J->P, 1));
  J->hi = g_new (double, MAX (J->P, 1));
  J->bound = g_new (BoundKind, MAX (J->P, 1));
  *theta0 = g_new (double, MAX (J->P, 1));
  for (gsize a = 0; a < J->nS; a++)
    {
      J->names[a] = g_strdup (g_ptr_array_index (shared, a));
      (*theta0)[a] = g_array_index (s_start, double, a);
      J->lo[a] = g_array_index (s_lo, double, a);
      J->hi[a] = g_array_index (s_hi, double, a);
    }
  for (gsize f = 0; f < J->n_files; f++)
    {
      FileFit *ff = &J->ff[f];
      Entry *e = &g_array_index (proj->files, Entry, f);
      for (gsize k = 0; k < ff->p; k++)
        if (ff->map[k] >= J->nS)
          {
            gsize ga = ff->map[k];
            J->names[ga] = g_strdup_printf ("%s:%s", e->name, ff->pr.names[k]);
            (*theta0)[ga] = ff->pr.theta0[k];
            J->lo[ga] = ff->pr.lower[k];
            J->hi[ga] = ff->pr.upper[k];
          }
    }
  for (gsize a = 0; a < J->P; a++)
    J->bound[a] = xrlab_fit_bound_kind (J->lo[a], J->hi[a]);
  return TRUE;
}

/* ---- the iteration ---------------------------------------------------------------- */

typedef struct {
  XrlabFitStop stop;
  guint niter, nfev, njev;
  double chi2, chi2_start;
} Run;

static void
to_external (const Joint *J, const double *u, double *theta, double *dtdu)
{
  for (gsize a = 0; a < J->P; a++)
    theta[a] = xrlab_fit_bound_to_external (J->bound[a], J->lo[a], J->hi[a], u[a], &dtdu[a]);
}

/* Levenberg–Marquardt from @theta (P, external; on return the best point). */
static gboolean
iterate (Joint *J, const XrlabProjectOptions *o, GCancellable *cancellable, double *theta,
         Run *run, GError **error)
{
  const gsize P = J->P;
  g_autofree double *u = g_new (double, P), *ut = g_new (double, P);
  g_autofree double *th = g_new (double, P), *dtdu = g_new (double, P);
  g_autofree double *dtdu_t = g_new (double, P), *delta = g_new (double, P);
  g_autofree double *d2 = g_new0 (double, P), *grad = g_new (double, P);
  Blocks bk;
  double mu = 1e-3, nu = 2.0, chi2;
  int cur = 0, rejects = 0;
  gboolean first_trial = TRUE;

  for (gsize a = 0; a < P; a++)
    u[a] = xrlab_fit_bound_to_internal (J->bound[a], J->lo[a], J->hi[a], theta[a]);
  to_external (J, u, th, dtdu);
  chi2 = evaluate (J, th, dtdu, TRUE, cur);
  run->nfev = run->njev = 1;
  if (!isfinite (chi2))
    {
      g_set_error (error, XRLAB_PROJECT_ERROR, XRLAB_PROJECT_ERROR_FAILED,
                   _("The model is not finite at the starting values"));
      return FALSE;
    }
  run->chi2_start = chi2;
  run->stop = XRLAB_FIT_STOP_MAX_ITER;
  xrlab_project_blocks_alloc (J, &bk);
  if (o->progress)
    o->progress (XRLAB_FITFLOW_STAGE_2D, 0, 0, chi2, o->progress_data);

  while (run->niter < o->max_iter)
    {
      double pred, chi2_t, rho, gd = 0.0;
      gboolean small = TRUE;

      if (g_cancellable_is_cancelled (cancellable))
        {
          run->stop = XRLAB_FIT_STOP_CANCELLED;
          break;
        }
      /* Moré's scaling from the current JᵀJ, the damped step */
      xrlab_project_blocks_fill (J, cur, 0.0, NULL, &bk);
      for (gsize a = 0; a < J->nS; a++)
        d2[a] = MAX (d2[a], bk.A[a * J->nS + a]);
      for (gsize f = 0; f < J->n_files; f++)
        for (gsize l = 0; l < J->ff[f].nF; l++)
          d2[J->ff[f].off + l] = MAX (d2[J->ff[f].off + l],
                                      bk.D[f][l * J->ff[f].nF + l]);
      for (gsize a = 0; a < P; a++)
        if (!(d2[a] > 0))
          d2[a] = 1.0;
      xrlab_project_blocks_fill (J, cur, mu, d2, &bk);
      memcpy (grad, bk.gs, J->nS * sizeof (double));
      for (gsize f = 0; f < J->n_files; f++)
        memcpy (grad + J->ff[f].off, bk.gf[f], J->ff[f].nF * sizeof (double));
      if (!xrlab_project_solve_step (J, &bk, delta))
        {
          mu *= nu;
          nu *= 2.0;
          if (++rejects >= MAX_REJECTS || !isfinite (mu))
            {
              run->stop = XRLAB_FIT_STOP_NO_PROGRESS;
              break;
            }
          continue;
        }
      for (gsize a = 0; a < P; a++)
        {
          gd += grad[a] * delta[a];
          small &= fabs (delta[a]) < o->xtol * (fabs (u[a]) + o->xtol);
        }
      pred = -(2.0 * gd + xrlab_project_quad_form (J, cur, delta));
      if (first_trial && (small || pred <= ROUNDING * chi2))
        {
          run->stop = small ? XRLAB_FIT_STOP_XTOL : XRLAB_FIT_STOP_ROUNDING;
          break;
        }
      first_trial = FALSE;
      for (gsize a = 0; a < P; a++)
        ut[a] = u[a] + delta[a];
      to_external (J, ut, th, dtdu_t);
      chi2_t = evaluate (J, th, dtdu_t, TRUE, 1 - cur);
      run->nfev++;
      run->njev++;
      rho = (chi2 - chi2_t) / pred;
      if (isfinite (chi2_t) && pred > 0 && rho > 0)
        {
          double t = 2.0 * rho - 1.0;
          memcpy (u, ut, P * sizeof (double));
          memcpy (dtdu, dtdu_t, P * sizeof (double));
          cur = 1 - cur;
          chi2 = chi2_t;
          mu *= MAX (1.0 / 3.0, 1.0 - t * t * t);
          nu = 2.0;
          rejects = 0;
          first_trial = TRUE;
          run->niter++;
          if (o->progress)
            o->progress (XRLAB_FITFLOW_STAGE_2D, run->niter, 0, chi2, o->progress_data);
          if (small)
            {
              run->stop = XRLAB_FIT_STOP_XTOL;
              break;
            }
        }
      else
        {
          mu *= nu;
          nu *= 2.0;
          if (++rejects >= MAX_REJECTS || !isfinite (mu))
            {
              run->stop = XRLAB_FIT_STOP_NO_PROGRESS;
              break;
            }
        }
    }
  xrlab_project_blocks_free (J, &bk);
  to_external (J, u, theta, dtdu);
  run->chi2 = chi2;
  return TRUE;
}

/* ---- results ----------------------------------------------------------------------- */

/* File @f's optimizer result over its local θ, statistics its own. */
static XrlabFitResult *
file_fit_result (const Joint *J, const Covar *cv, gsize f, const Run *run, gboolean scaled)
{
  const FileFit *ff = &J->ff[f];
  const gsize p = ff->p, n = ff->n;
  XrlabFitResult *r = xrlab_fit_result_alloc (p);
  double ybar = 0.0, wsum = 0.0, ss = 0.0;

  for (gsize k = 0; k < p; k++)
    r->values[k] = ff->theta[k];
  r->ndata = n;
  r->nfree = n > p ? n - p : 0;
  r->weighted = ff->c->sigma_kind != XRLAB_FIT_SIGMA_NONE;
  r->chi2 = ff->chi2[0];
  r->chi2_start = NAN;
  r->redchi = r->chi2 / (double) MAX (1, (gssize) n - (gssize) p);
  for (gsize i = 0; i < n; i++)
    {
      double w = inv_sigma (ff->c, i);
      ybar += w * w * ff->c->y[i];
      wsum += w * w;
    }
  ybar /= wsum;
  for (gsize i = 0; i < n; i++)
    {
      double w = inv_sigma (ff->c, i), d = ff->c->y[i] - ybar;
      ss += w * w * d * d;
    }
  r->r2 = 1.0 - r->chi2 / MAX (ss, DBL_MIN);
  xrlab_fit_information_criteria (r->chi2, n, p, &r->aic, &r->bic);
  r->niter = run->niter;
  r->nfev = run->nfev;
  r->njev = run->njev;
  r->stop = run->stop;
  r->message = xrlab_fit_stop_to_string (run->stop);
  r->converged = xrlab_fit_stop_converged (run->stop);
  r->covar_scaled = scaled;
  r->errors_valid = cv->valid;
  for (gsize a = 0; a < p; a++)
    {
      for (gsize b = 0; b < p; b++)
        r->covar[a * p + b] = cv->valid ? xrlab_project_covar_at (J, cv, f, ff->map[a], ff->map[b]) : NAN;
      r->errors[a] = cv->valid ? sqrt (MAX (r->covar[a * p + a], 0.0)) : NAN;
    }
  for (gsize a = 0; a < p; a++)
    for (gsize b = 0; b < p; b++)
      r->correl[a * p + b] = a == b ? 1.0 : r->covar[a * p + b] / (r->errors[a] * r->errors[b]);
  xrlab_fit_result_mark_bounds (r, ff->pr.lower, ff->pr.upper);
  return r;
}

static XrlabProjectResult *
build_result (XrlabProject *proj, Joint *J, const double *theta, const Run *run,
              double wall_s, GError **error)
{
  g_autoptr(XrlabProjectResult) res = g_new0 (XrlabProjectResult, 1);
  gboolean scaled;
  Covar cv;

  res->n_theta = J->P;
  res->ndata = J->N;
  res->nfree = J->N - J->P;
  res->chi2 = run->chi2;
  res->chi2_start = run->chi2_start;
  res->redchi = run->chi2 / (double) MAX (1, (gssize) J->N - (gssize) J->P);
  xrlab_fit_information_criteria (run->chi2, J->N, J->P, &res->aic, &res->bic);
  res->niter = run->niter;
  res->nfev = run->nfev;
  res->njev = run->njev;
  res->stop = run->stop;
  res->converged = xrlab_fit_stop_converged (run->stop);
  res->wall_s = wall_s;
  switch (proj->options.scale_covar)
    {
    case XRLAB_FIT_SCALE_COVAR_YES:
      scaled = TRUE;
      break;
    case XRLAB_FIT_SCALE_COVAR_NO:
      scaled = FALSE;
      break;
    case XRLAB_FIT_SCALE_COVAR_AUTO:
    default:
      scaled = !J->all_weighted;
      break;
    }
  res->covar_scaled = scaled;

  /* the external Jacobian at the solution for the covariance */
  evaluate (J, theta, NULL, TRUE, 0);
  xrlab_project_covariance (J, scaled ? res->redchi : 1.0, &cv);
  res->errors_valid = cv.valid;

  res->n_shared = J->nS;
  res->shared_names = g_new0 (char *, J->nS + 1);
  res->shared_values = g_new (double, MAX (J->nS, 1));
  res->shared_errors = g_new (double, MAX (J->nS, 1));
  for (gsize a = 0; a < J->nS; a++)
    {
      res->shared_names[a] = g_strdup (J->names[a]);
      res->shared_values[a] = theta[a];
      res->shared_errors[a] = cv.valid ? sqrt (MAX (cv.Css[a * J->nS + a], 0.0)) : NAN;
    }

  res->n_files = J->n_files;
  res->file_names = g_new0 (char *, J->n_files + 1);
  res->files = g_new0 (XrlabFitflowResult *, J->n_files);
  for (gsize f = 0; f < J->n_files; f++)
    {
      FileFit *ff = &J->ff[f];
      XrlabFitResult *fr = file_fit_result (J, &cv, f, run, scaled);

      res->file_names[f] = g_strdup (g_array_index (proj->files, Entry, f).name);
      fr->wall_s = wall_s;
      res->files[f] = xrlab_fitflow_result_new_block (&ff->pr, ff->c, fr, ff->flow->col0,
                                                      ff->cols, ff->rows, error);
      if (res->files[f] == NULL)
        {
          xrlab_fit_result_free (fr);
          xrlab_project_covar_free (J, &cv);
          return NULL;
        }
      ff->c = NULL;    /* the result's now */
    }
  xrlab_project_covar_free (J, &cv);
  return g_steal_pointer (&res);
}

gboolean
xrlab_project_fit_2d (XrlabProject *project, const XrlabModel *model,
                      GCancellable *cancellable, XrlabProjectResult **result, GError **error)
{
  Joint J = { 0 };
  g_autofree double *theta = NULL;
  double t_start = xrlab_now ();
  Run run = { 0 };

  g_return_val_if_fail (project != NULL && model != NULL && result != NULL, FALSE);
  *result = NULL;
  if (project->files->len == 0)
    {
      g_set_error (error, XRLAB_PROJECT_ERROR, XRLAB_PROJECT_ERROR_EMPTY,
                   _("The project holds no files to fit"));
      return FALSE;
    }
  if (!joint_setup (project, model, &J, &theta, error)
      || !iterate (&J, &project->options, cancellable, theta, &run, error))
    {
      joint_clear (&J);
      return FALSE;
    }
  *result = build_result (project, &J, theta, &run, xrlab_now () - t_start, error);
  joint_clear (&J);
  if (*result == NULL)
    return FALSE;
  if (run.stop == XRLAB_FIT_STOP_CANCELLED)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                   _("The joint fit of %zu files was cancelled"), (*result)->n_files);
      return FALSE;
    }
  return TRUE;
}
