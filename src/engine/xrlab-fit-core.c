/* xrlab-fit-core.c -- the bound transform and the core of a fit: residuals and
 * Jacobians in the internal variables for GSL, and one run of the iteration
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-fit.h"
#include "xrlab-fit-private.h"
#include "xrlab-parallel.h"
#include "xrlab-util.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit_nlinear.h>

/* A step whose predicted decrease of χ² is below this fraction of χ² (about
 * ten rounding units) cannot be told from no change: converged. */
#define ROUNDING_CHI2 1e-15

/* The fit whose GSL iteration runs on this thread: GSL's scaling callbacks
 * get no user pointer, and use it to reuse the JᵀJ formed with the Jacobian. */
static GPrivate current_fit = G_PRIVATE_INIT (NULL);

XrlabFit *
xrlab_fit_current (void)
{
  return g_private_get (&current_fit);
}

/* ---- the bound transform ----------------------------------------------------- */

static double ext_to_int (BoundKind kind, double lo, double hi, double x);
static double int_to_ext (BoundKind kind, double lo, double hi, double u, double *deriv);

BoundKind
xrlab_fit_bound_kind (double lo, double hi)
{
  if (isfinite (lo) && isfinite (hi))
    return BOUND_BOTH;
  if (isfinite (lo))
    return BOUND_LOWER;
  if (isfinite (hi))
    return BOUND_UPPER;
  return BOUND_NONE;
}

double
xrlab_fit_bound_to_internal (BoundKind kind, double lo, double hi, double x)
{
  return ext_to_int (kind, lo, hi, x);
}

double
xrlab_fit_bound_to_external (BoundKind kind, double lo, double hi, double u, double *deriv)
{
  return int_to_ext (kind, lo, hi, u, deriv);
}

static double
ext_to_int (BoundKind kind, double lo, double hi, double x)
{
  double u;

  switch (kind)
    {
    case BOUND_LOWER:
      u = sqrt ((x - lo + 1.0) * (x - lo + 1.0) - 1.0);
      break;
    case BOUND_UPPER:
      u = sqrt ((hi - x + 1.0) * (hi - x + 1.0) - 1.0);
      break;
    case BOUND_BOTH:
      {
        double s = 2.0 * (x - lo) / (hi - lo) - 1.0;
        u = asin (CLAMP (s, -1.0, 1.0));
      }
      break;
    case BOUND_NONE:
    default:
      return x;
    }
  if (fabs (u) < 1e-300)   /* lmfit's "tiny" */
    u = 0.0;
  return u;
}

/* θ(u) and dθ/du. */
static double
int_to_ext (BoundKind kind, double lo, double hi, double u, double *deriv)
{
  switch (kind)
    {
    case BOUND_LOWER:
      {
        double r = sqrt (u * u + 1.0);
        *deriv = u / r;
        return lo - 1.0 + r;
      }
    case BOUND_UPPER:
      {
        double r = sqrt (u * u + 1.0);
        *deriv = -u / r;
        return hi + 1.0 - r;
      }
    case BOUND_BOTH:
      *deriv = cos (u) * (hi - lo) / 2.0;
      return lo + (sin (u) + 1.0) * (hi - lo) / 2.0;
    case BOUND_NONE:
    default:
      *deriv = 1.0;
      return u;
    }
}

/* Sets fit->theta (the free entries) and fit->dtheta_du from internal @u. */
static void
apply_internal (XrlabFit *fit, const Core *core, const double *u)
{
  for (gsize k = 0; k < core->pf; k++)
    {
      gsize j = core->free_idx[k];
      fit->theta[j] = int_to_ext (fit->bound[j], fit->lower[j], fit->upper[j], u[k],
                                  &fit->dtheta_du[j]);
    }
}

/* ---- residuals and Jacobian -------------------------------------------------- */

/* r = (m − y)/σ in place; returns FALSE when some r is not finite and sets
 * fit->nonfinite_index to the first. */
gboolean
xrlab_fit_form_residuals (XrlabFit *fit, double *f)
{
  const double *y = fit->data;
  const double *w = fit->inv_sigma;
  const gsize n = fit->n, nr = fit->n_rows, nc = fit->n_cols;
  double check = 0.0;

  switch (fit->sigma_kind)
    {
    case XRLAB_FIT_SIGMA_NONE:
      if (y != NULL)
        for (gsize i = 0; i < n; i++)
          f[i] -= y[i];
      break;
    case XRLAB_FIT_SIGMA_SCALAR:
      for (gsize i = 0; i < n; i++)
        f[i] = (f[i] - (y ? y[i] : 0.0)) * w[0];
      break;
    case XRLAB_FIT_SIGMA_ROWS:
      for (gsize r = 0; r < nr; r++)
        for (gsize c = 0; c < nc; c++)
          {
            gsize i = r * nc + c;
            f[i] = (f[i] - (y ? y[i] : 0.0)) * w[r];
          }
      break;
    case XRLAB_FIT_SIGMA_COLUMNS:
      for (gsize r = 0; r < nr; r++)
        for (gsize c = 0; c < nc; c++)
          {
            gsize i = r * nc + c;
            f[i] = (f[i] - (y ? y[i] : 0.0)) * w[c];
          }
      break;
    case XRLAB_FIT_SIGMA_FULL:
    default:
      for (gsize i = 0; i < n; i++)
        f[i] = (f[i] - (y ? y[i] : 0.0)) * w[i];
      break;
    }

  /* x − x is 0 for every finite x and NaN otherwise: one vectorisable pass. */
  for (gsize i = 0; i < n; i++)
    check += f[i] - f[i];
  if (check == 0.0)
    return TRUE;
  for (gsize i = 0; i < n; i++)
    if (!isfinite (f[i]))
      {
        fit->nonfinite_index = i;
        break;
      }
  return FALSE;
}

/* The lower triangle of JᵀJ (pf × pf) of a row-major n × pf J. */
void
xrlab_fit_accumulate_jtj (const double *J, gsize n, gsize pf, double *jtj)
{
  memset (jtj, 0, pf * pf * sizeof *jtj);
  xrlab_fit_jtj_add_rows (J, n, pf, jtj);
}

/* Rows of a part of the Jacobian's transformation: a fixed number, so that
 * JᵀJ, summed part by part in their order, is the same on any number of
 * threads (and a Jacobian of one part is summed as it always was). */
#define TRANSFORM_PART_ROWS 32768
/* Rows transformed before their JᵀJ is taken (16 KiB at 8 columns). */
#define TRANSFORM_CHUNK_ROWS 256

typedef struct {
  XrlabFit *fit;
  const Core *core;
  const double *src, *cs;
  double *dst;
  double *jtj_parts;      /* pf × pf for each part */
  gboolean identity, plain;
} Transform;

/* The rows of part @part: transformed (unless plain) and their JᵀJ. */
static void
transform_part (gpointer data, guint part)
{
  const Transform *t = data;
  XrlabFit *fit = t->fit;
  const gsize p = fit->p, pf = t->core->pf;
  const gsize r0 = (gsize) part * TRANSFORM_PART_ROWS, r1 = MIN (fit->n, r0 + TRANSFORM_PART_ROWS);
  double *jtj = t->jtj_parts + (gsize) part * pf * pf;

  memset (jtj, 0, pf * pf * sizeof *jtj);
  if (t->plain)
    {
      xrlab_fit_jtj_add_rows (t->dst + r0 * pf, r1 - r0, pf, jtj);
      return;
    }
  /* in chunks that stay in the first-level cache */
  for (gsize i0 = r0; i0 < r1; i0 += TRANSFORM_CHUNK_ROWS)
    {
      const gsize rows = MIN (TRANSFORM_CHUNK_ROWS, r1 - i0);
      for (gsize i = i0; i < i0 + rows; i++)
        {
          const double w = xrlab_fit_row_weight (fit, i);
          const double *s = t->src + i * p;
          double *row = t->dst + i * pf;

          if (t->identity)
            for (gsize k = 0; k < pf; k++)
              row[k] = s[k] * (w * t->cs[k]);
          else
            for (gsize k = 0; k < pf; k++)
              row[k] = s[t->core->free_idx[k]] * (w * t->cs[k]);
        }
      xrlab_fit_jtj_add_rows (t->dst + i0 * pf, rows, pf, jtj);
    }
}

/* dst (n × pf) = W · src[:, free] · diag(@colscale), row by row, and JᵀJ of
 * the result into fit->jtj in the same pass (while the rows are in cache),
 * in parts of TRANSFORM_PART_ROWS rows on the pool's threads. @src is
 * n × p (may be dst when pf == p). */
void
xrlab_fit_transform_jacobian (XrlabFit *fit, const Core *core, const double *src, double *dst,
                    const double *colscale)
{
  const gsize n = fit->n, pf = core->pf;
  const guint n_parts = (guint) MAX ((gsize) 1, (n + TRANSFORM_PART_ROWS - 1) / TRANSFORM_PART_ROWS);
  double cs[pf > 0 ? pf : 1];
  Transform t = { fit, core, src, cs, dst, NULL, src == dst && pf == fit->p, FALSE };

  for (gsize k = 0; k < pf; k++)
    cs[k] = colscale ? colscale[core->free_idx[k]] : 1.0;
  t.plain = t.identity && fit->sigma_kind == XRLAB_FIT_SIGMA_NONE && colscale == NULL;
  if (n_parts == 1)
    {
      t.jtj_parts = fit->jtj;
      transform_part (&t, 0);
      return;
    }
  t.jtj_parts = g_new (double, (gsize) n_parts * pf * pf);
  xrlab_parallel_run (xrlab_parallel_default (), n_parts, transform_part, &t);
  memset (fit->jtj, 0, pf * pf * sizeof *fit->jtj);
  for (guint part = 0; part < n_parts; part++)
    for (gsize k = 0; k < pf * pf; k++)
      fit->jtj[k] += t.jtj_parts[(gsize) part * pf * pf + k];
  g_free (t.jtj_parts);
}

static void
on_cancelled (GCancellable *cancellable, gpointer data)
{
  XrlabFit *fit = data;

  g_atomic_int_set (&fit->abort_flag, 1);
}

static void
cancel_arm (XrlabFit *fit, GCancellable *cancellable)
{
  g_atomic_int_set (&fit->abort_flag, 0);
  fit->cancel_armed = (cancellable != NULL);
  if (cancellable != NULL)
    fit->cancel_handler = g_cancellable_connect (cancellable, G_CALLBACK (on_cancelled), fit,
                                                 NULL);
}

static void
cancel_disarm (XrlabFit *fit)
{
  if (fit->cancel_handler != 0)
    g_cancellable_disconnect (fit->cancellable, fit->cancel_handler);
  fit->cancel_handler = 0;
  fit->cancel_armed = FALSE;
  g_atomic_int_set (&fit->abort_flag, 0);
}

const gint *
xrlab_fit_abort_flag (const XrlabFit *fit)
{
  return &fit->abort_flag;
}

/* A callback that returned after the cancel may have been cut short. */
static gboolean
cut_short (XrlabFit *fit)
{
  if (fit->cancel_armed && g_cancellable_is_cancelled (fit->cancellable))
    {
      fit->cancelled = TRUE;
      return TRUE;
    }
  return FALSE;
}

/* r(u) into @out (n, contiguous). Returns a GSL status. */
static int
eval_residuals (XrlabFit *fit, const double *u, double *out)
{
  if (fit->cancel_armed && g_cancellable_is_cancelled (fit->cancellable))
    {
      fit->cancelled = TRUE;
      return GSL_EBADFUNC;
    }
  apply_internal (fit, fit->active, u);
  fit->nfev++;
  if (!fit->model (fit->theta, out, fit->user_data, &fit->cb_error))
    {
      if (fit->cb_error == NULL)
        g_set_error (&fit->cb_error, XRLAB_FIT_ERROR, XRLAB_FIT_ERROR_MODEL,
                     _("The model could not be evaluated"));
      return GSL_EBADFUNC;
    }
  if (cut_short (fit))
    return GSL_EBADFUNC;
  if (!xrlab_fit_form_residuals (fit, out))
    {
      /* Not finite: a trial step into a region where the model breaks down.
       * A large finite residual makes the trust region reject the step
       * (GSL would accept a NaN χ²); the start is checked after init. */
      if (fit->nfev == 1)
        fit->start_nonfinite = TRUE;   /* the first evaluation is the start */
      for (gsize i = 0; i < fit->n; i++)
        out[i] = 1e300;
    }
  return GSL_SUCCESS;
}

double *
xrlab_fit_scratch_n (XrlabFit *fit, int which)
{
  if (fit->scratch_n == NULL)
    {
      fit->scratch_n = g_new (double, 2 * fit->n);
      xrlab_advise_huge_pages (fit->scratch_n, 2 * fit->n * sizeof (double));
    }
  return fit->scratch_n + (which ? fit->n : 0);
}

/* GSL callback: residuals at internal @x. */
static int
fit_f (const gsl_vector *x, void *params, gsl_vector *f)
{
  XrlabFit *fit = params;
  const gsize pf = fit->active->pf;
  double *u = fit->scratch_u;
  int status;

  for (gsize k = 0; k < pf; k++)
    u[k] = gsl_vector_get (x, k);
  if (fit->watch_first_trial)
    {
      /* The first trial of an iteration is the (nearly) Gauss–Newton step δ
       * from the current point. The fit has converged when δ is below xtol,
       * or when the decrease of χ² that the linear model predicts for it,
       * at most −2δᵀg (g = Jᵀr), is below the rounding of χ² itself: then
       * the step cannot be accepted and GSL would only reject 16 ever
       * smaller ones. Either way the model is not evaluated again. */
      const double xtol = fit->options.xtol;
      gboolean small = (xtol > 0);
      double dg = 0.0;

      fit->watch_first_trial = FALSE;
      for (gsize k = 0; k < pf; k++)
        {
          double d = (u[k] - fit->x_now[k]) * fit->first_call_scale;
          if (!(fabs (d) < xtol * xtol + xtol * fabs (fit->x_now[k])))
            small = FALSE;
          dg += d * fit->g_now[k];
        }
      if (small)
        fit->small_step = XRLAB_FIT_STOP_XTOL;
      else if (-2.0 * dg <= ROUNDING_CHI2 * fit->chi2_now)
        fit->small_step = XRLAB_FIT_STOP_ROUNDING;
      if (fit->small_step != 0)
        return GSL_EBADFUNC;
    }
  if (f->stride == 1)
    {
      status = eval_residuals (fit, u, f->data);
      /* remembered for the finite-difference Jacobian at the same point */
      fit->last_f = (status == GSL_SUCCESS) ? f->data : NULL;
      memcpy (fit->last_u, u, pf * sizeof (double));
    }
  else
    {
      double *tmp = xrlab_fit_scratch_n (fit, 0);
      status = eval_residuals (fit, u, tmp);
      for (gsize i = 0; status == GSL_SUCCESS && i < fit->n; i++)
        gsl_vector_set (f, i, tmp[i]);
      fit->last_f = NULL;
    }
  return status;
}

/* JᵀJ of the solver's J is ready: check it is finite and mark it valid. */
static int
finish_jacobian (XrlabFit *fit, const Core *core)
{
  for (gsize k = 0; k < core->pf; k++)
    if (!isfinite (fit->jtj[k * core->pf + k]))
      {
        fit->bad_jac_param = (gssize) core->free_idx[k];
        return GSL_EBADFUNC;
      }
  fit->jtj_valid = TRUE;
  return GSL_SUCCESS;
}

/* GSL callback for XRLAB_FIT_METHOD_FD: forward differences of the weighted
 * residuals in the internal variables, δ_j = √ε·|u_j| (√ε when u_j = 0),
 * the rule of GSL's own finite-difference Jacobian, written row-major. */
static int
fit_df_fd (const gsl_vector *x, void *params, gsl_matrix *J)
{
  XrlabFit *fit = params;
  const Core *core = fit->active;
  const gsize n = fit->n, pf = core->pf;
  double *u = fit->scratch_u;
  const double *f0;
  double *f1;
  int status;

  if (fit->cancel_armed && g_cancellable_is_cancelled (fit->cancellable))
    {
      fit->cancelled = TRUE;
      return GSL_EBADFUNC;
    }
  g_assert (J->tda == J->size2);
  fit->jtj_valid = FALSE;
  for (gsize k = 0; k < pf; k++)
    u[k] = gsl_vector_get (x, k);
  if (fit->last_f != NULL && memcmp (u, fit->last_u, pf * sizeof (double)) == 0)
    f0 = fit->last_f;
  else
    {
      double *tmp = xrlab_fit_scratch_n (fit, 0);
      status = eval_residuals (fit, u, tmp);
      if (status != GSL_SUCCESS)
        return status;
      f0 = tmp;
    }
  f1 = xrlab_fit_scratch_n (fit, 1);
  fit->njev++;
  for (gsize k = 0; k < pf; k++)
    {
      double uk = u[k], delta = GSL_SQRT_DBL_EPSILON * fabs (uk), inv;

      if (delta == 0.0)
        delta = GSL_SQRT_DBL_EPSILON;
      u[k] = uk + delta;
      status = eval_residuals (fit, u, f1);
      u[k] = uk;
      if (status != GSL_SUCCESS)
        return status;
      inv = 1.0 / delta;
      for (gsize i = 0; i < n; i++)
        J->data[i * pf + k] = (f1[i] - f0[i]) * inv;
    }
  apply_internal (fit, core, u);
  xrlab_fit_accumulate_jtj (J->data, n, pf, fit->jtj);
  return finish_jacobian (fit, core);
}

/* GSL callback: the weighted Jacobian in internal variables at @x. */
static int
fit_df (const gsl_vector *x, void *params, gsl_matrix *J)
{
  XrlabFit *fit = params;
  const Core *core = fit->active;
  double *src;

  if (fit->cancel_armed && g_cancellable_is_cancelled (fit->cancellable))
    {
      fit->cancelled = TRUE;
      return GSL_EBADFUNC;
    }
  g_assert (J->tda == J->size2 && x->stride == 1);
  apply_internal (fit, core, x->data);
  fit->njev++;
  src = (core->pf == fit->p) ? J->data : fit->jac_full;
  fit->jtj_valid = FALSE;
  if (!fit->jacobian (fit->theta, src, fit->user_data, &fit->cb_error))
    {
      if (fit->cb_error == NULL)
        g_set_error (&fit->cb_error, XRLAB_FIT_ERROR, XRLAB_FIT_ERROR_MODEL,
                     _("The Jacobian of the model could not be evaluated"));
      return GSL_EBADFUNC;
    }
  if (cut_short (fit))
    return GSL_EBADFUNC;
  xrlab_fit_transform_jacobian (fit, core, src, J->data, fit->any_bound ? fit->dtheta_du : NULL);
  return finish_jacobian (fit, core);
}

/* ---- cores ------------------------------------------------------------------- */

void
xrlab_fit_core_free (Core *core)
{
  if (core == NULL)
    return;
  g_clear_pointer (&core->w, gsl_multifit_nlinear_free);
  g_clear_pointer (&core->u0, gsl_vector_free);
  g_free (core->free_idx);
  g_free (core);
}

Core *
xrlab_fit_core_new (XrlabFit *fit, gsize pf, GError **error)
{
  Core *core = g_new0 (Core, 1);
  gsl_multifit_nlinear_parameters params = gsl_multifit_nlinear_default_parameters ();

  core->pf = pf;
  core->free_idx = g_new0 (gsize, pf);
  for (gsize k = 0; k < pf; k++)
    core->free_idx[k] = k;
  params.trs = (fit->options.method == XRLAB_FIT_METHOD_LM_ACCEL)
               ? gsl_multifit_nlinear_trs_lmaccel : gsl_multifit_nlinear_trs_lm;
  params.scale = &xrlab_fit_scale_more;
  params.solver = (fit->options.solver == XRLAB_FIT_SOLVER_QR)
                  ? gsl_multifit_nlinear_solver_qr : &xrlab_fit_solver_cholesky;
  params.fdtype = GSL_MULTIFIT_NLINEAR_FWDIFF;
  core->h_fvv = params.h_fvv;
  core->w = gsl_multifit_nlinear_alloc (gsl_multifit_nlinear_trust, &params, fit->n, pf);
  core->u0 = gsl_vector_alloc (pf);
  if (core->w != NULL)
    {
      /* written first by the first Jacobian, n × p doubles */
      gsl_matrix *J = gsl_multifit_nlinear_jac (core->w);
      xrlab_advise_huge_pages (J->data, J->size1 * J->tda * sizeof (double));
    }
  if (core->w == NULL || core->u0 == NULL)
    {
      g_autofree char *points = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%zu point",
                                                              "%zu points", fit->n), fit->n);
      g_autofree char *n_params = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%zu parameter",
                                                                "%zu parameters", pf), pf);

      xrlab_fit_core_free (core);
      /* TRANSLATORS: "%zu points" and "%zu parameters" */
      g_set_error (error, XRLAB_FIT_ERROR, XRLAB_FIT_ERROR_FAILED,
                   _("Not enough memory for a fit of %s and %s"), points, n_params);
      return NULL;
    }
  core->fdf.f = fit_f;
  core->fdf.df = (fit->options.method == XRLAB_FIT_METHOD_FD) ? fit_df_fd : fit_df;
  core->fdf.fvv = NULL;
  core->fdf.n = fit->n;
  core->fdf.p = pf;
  core->fdf.params = fit;
  return core;
}

/* ---- the iteration ----------------------------------------------------------- */

/* χ² = ‖r‖², with GSL's dnrm2: the norm its trust region compares, so χ²
 * never rises from one accepted step to the next, even in the last bit. */
double
xrlab_fit_sum_squares (const double *f, gsize n)
{
  gsl_vector_const_view v = gsl_vector_const_view_array (f, n);
  double norm = gsl_blas_dnrm2 (&v.vector);

  return norm * norm;
}

/* ‖x‖ when x is a column of the Jacobian the fit running on this thread
 * holds: the root of JᵀJ's diagonal entry, the same sum of squares. GSL's
 * trust region takes every column's norm when it starts (for its first
 * Levenberg-Marquardt parameter): a pass over the whole Jacobian each, on a
 * 2000 × 2000 map nine passes over 290 MB. FALSE for any other vector. */
gboolean
xrlab_fit_jacobian_column_norm (int n, const double *x, int inc, double *norm)
{
  const XrlabFit *fit = xrlab_fit_current ();
  const gsl_matrix *J;
  gsize k;

  if (fit == NULL || fit->active == NULL || fit->active->w == NULL || !fit->jtj_valid)
    return FALSE;
  J = fit->active->w->J;
  if (J == NULL || n < 0 || inc < 0 || (gsize) n != J->size1 || (gsize) inc != J->tda
      || J->size2 != fit->active->pf || x < J->data || x >= J->data + J->size2)
    return FALSE;
  k = (gsize) (x - J->data);
  *norm = sqrt (fit->jtj[k * J->size2 + k]);
  return TRUE;
}

/* GSL's tests (convergence.c): the step, |δu_j| < xtol·(|u_j| + xtol) for
 * all j; the gradient, max_j |g_j·max(u_j, 1)| ≤ gtol·max(χ²/2, 1).
 * Returns the XrlabFitStop or 0. */
static int
convergence_test (const gsl_multifit_nlinear_workspace *w, double xtol, double gtol,
                  double chi2)
{
  const gsize p = w->x->size;
  gboolean small = TRUE;
  double gnorm = 0.0;

  for (gsize j = 0; j < p && small; j++)
    {
      double xj = gsl_vector_get (w->x, j), dj = gsl_vector_get (w->dx, j);
      if (!(fabs (dj) < xtol * xtol + xtol * fabs (xj)))
        small = FALSE;
    }
  if (small)
    return XRLAB_FIT_STOP_XTOL;
  for (gsize j = 0; j < p; j++)
    gnorm = MAX (gnorm, fabs (gsl_vector_get (w->g, j) * MAX (gsl_vector_get (w->x, j), 1.0)));
  if (gtol > 0 && gnorm <= gtol * MAX (0.5 * chi2, 1.0))
    return XRLAB_FIT_STOP_GTOL;
  return 0;
}

/* Turns a failed GSL status into a GError, preferring what the callbacks said. */
static void
set_run_error (XrlabFit *fit, int status, gboolean at_start, GError **error)
{
  if (fit->cb_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&fit->cb_error));
      return;
    }
  if (fit->bad_jac_param >= 0)
    {
      g_set_error (error, XRLAB_FIT_ERROR, XRLAB_FIT_ERROR_MODEL,
                   at_start
                   ? _("The Jacobian of the model is not finite with respect to “%s” at the "
                       "starting values")
                   : _("The Jacobian of the model became not finite with respect to “%s” "
                       "during the fit"),
                   fit->names[fit->bad_jac_param]);
      return;
    }
  g_set_error (error, XRLAB_FIT_ERROR, XRLAB_FIT_ERROR_FAILED,
               _("The least-squares iteration failed: %s"), gsl_strerror (status));
}

/* FALSE, with an error naming the largest weighted residual @f (n) and
 * @when ("at the starting values", "at the end"), when @chi2 is not finite:
 * residuals each finite whose squares overflow (data of 1e308). A fit whose
 * χ² is infinite has no minimum to report. */
static gboolean
check_chi2 (const XrlabFit *fit, const double *f, gsize n, double chi2, const char *when,
            GError **error)
{
  gsize worst = 0;
  g_autofree char *pt = NULL;

  if (isfinite (chi2))
    return TRUE;
  for (gsize i = 1; i < n; i++)
    if (!(fabs (f[i]) <= fabs (f[worst])))
      worst = i;
  pt = xrlab_fit_describe_point (fit, worst);
  g_set_error (error, XRLAB_FIT_ERROR, XRLAB_FIT_ERROR_DATA,
               _("χ² is not finite %s: the squared residuals overflow (the largest "
                 "weighted residual is %g, at %s); scale the data down"),
               when, n > 0 ? f[worst] : NAN, pt);
  return FALSE;
}

/* Runs one fit on @core from the external values @theta_start (p; the
 * parameters not free in @core stay at their values there). */
gboolean
xrlab_fit_run_core (XrlabFit *fit, Core *core, const double *theta_start, GCancellable *cancellable,
          gboolean report, RunInfo *info, GError **error)
{
  gsl_multifit_nlinear_workspace *w = core->w;
  const XrlabFitOptions *o = &fit->options;
  int status;
  double chi2_prev;

  memcpy (fit->theta, theta_start, fit->p * sizeof (double));
  for (gsize j = 0; j < fit->p; j++)
    fit->dtheta_du[j] = 1.0;
  for (gsize k = 0; k < core->pf; k++)
    {
      gsize j = core->free_idx[k];
      gsl_vector_set (core->u0, k, ext_to_int (fit->bound[j], fit->lower[j], fit->upper[j],
                                               theta_start[j]));
    }
  if (core->pf < fit->p && fit->jac_full == NULL && fit->jacobian != NULL)
    {
      fit->jac_full = g_new (double, fit->n * fit->p);
      xrlab_advise_huge_pages (fit->jac_full, fit->n * fit->p * sizeof (double));
    }

  fit->active = core;
  fit->cancellable = cancellable;
  fit->cancel_armed = FALSE;
  fit->cancelled = FALSE;
  fit->start_nonfinite = FALSE;
  fit->bad_jac_param = -1;
  fit->jtj_valid = FALSE;
  fit->last_f = NULL;
  g_clear_error (&fit->cb_error);
  fit->nfev = fit->njev = 0;
  memset (info, 0, sizeof *info);

  g_private_set (&current_fit, fit);
  status = gsl_multifit_nlinear_init (core->u0, &core->fdf, w);
  if (status == GSL_SUCCESS && fit->start_nonfinite)
    {
      g_autofree char *pt = xrlab_fit_describe_point (fit, fit->nonfinite_index);
      g_set_error (error, XRLAB_FIT_ERROR, XRLAB_FIT_ERROR_MODEL,
                   _("The model is not finite at the starting values (at %s)"), pt);
      g_private_set (&current_fit, NULL);
      return FALSE;
    }
  if (status != GSL_SUCCESS)
    {
      set_run_error (fit, status, TRUE, error);
      g_private_set (&current_fit, NULL);
      return FALSE;
    }

  info->chi2_start = info->chi2 = xrlab_fit_sum_squares (w->f->data, fit->n);
  if (!check_chi2 (fit, w->f->data, fit->n, info->chi2, _("at the starting values"), error))
    {
      g_private_set (&current_fit, NULL);
      return FALSE;
    }
  if (report && o->progress)
    {
      apply_internal (fit, core, w->x->data);
      o->progress (0, info->chi2, fit->theta, fit->p, o->progress_data);
    }

  cancel_arm (fit, cancellable);
  chi2_prev = info->chi2;
  for (;;)
    {
      int test_info = 0;

      if (info->niter >= o->max_iter)
        {
          info->stop = XRLAB_FIT_STOP_MAX_ITER;
          break;
        }
      if (g_cancellable_is_cancelled (cancellable))
        {
          info->stop = XRLAB_FIT_STOP_CANCELLED;
          break;
        }
      /* With geodesic acceleration the first evaluation is that of GSL's
       * second directional derivative at x + h_fvv·δ, δ the velocity. */
      fit->watch_first_trial = TRUE;
      fit->first_call_scale = (o->method == XRLAB_FIT_METHOD_LM_ACCEL) ? 1.0 / core->h_fvv : 1.0;
      fit->x_now = w->x->data;
      fit->g_now = w->g->data;
      fit->chi2_now = info->chi2;
      fit->small_step = 0;
      status = gsl_multifit_nlinear_iterate (w);
      fit->watch_first_trial = FALSE;
      if (fit->small_step != 0)
        {
          /* x, f and J are those of the current point, the solution */
          info->stop = fit->small_step;
          break;
        }
      if (fit->cancelled)
        {
          /* Aborted inside a callback before x, f and J changed. */
          info->stop = XRLAB_FIT_STOP_CANCELLED;
          break;
        }
      if (status == GSL_ENOPROG)
        {
          info->stop = XRLAB_FIT_STOP_NO_PROGRESS;
          break;
        }
      if (status != GSL_SUCCESS)
        {
          cancel_disarm (fit);
          set_run_error (fit, status, FALSE, error);
          g_private_set (&current_fit, NULL);
          return FALSE;
        }
      info->niter++;
      info->chi2 = xrlab_fit_sum_squares (w->f->data, fit->n);
      if (report && o->progress)
        {
          apply_internal (fit, core, w->x->data);
          o->progress (info->niter, info->chi2, fit->theta, fit->p, o->progress_data);
        }
      /* gsl_multifit_nlinear_test's step and gradient tests, with the χ²
       * already at hand instead of another pass over r */
      test_info = convergence_test (w, o->xtol, o->gtol, info->chi2);
      if (test_info != 0)
        {
          info->stop = test_info;
          break;
        }
      if (o->ftol > 0 && chi2_prev - info->chi2 <= o->ftol * chi2_prev)
        {
          info->stop = XRLAB_FIT_STOP_FTOL;
          break;
        }
      chi2_prev = info->chi2;
    }
  g_private_set (&current_fit, NULL);
  cancel_disarm (fit);

  info->chi2 = xrlab_fit_sum_squares (w->f->data, fit->n);
  apply_internal (fit, core, w->x->data);
  return check_chi2 (fit, w->f->data, fit->n, info->chi2, _("at the end of the fit"), error);
}

/* ---- test hooks (xrlab-fit-private.h) ---------------------------------------- */

void
xrlab_fit_to_internal (XrlabFit *fit, const double *theta, double *u)
{
  for (gsize j = 0; j < fit->p; j++)
    u[j] = ext_to_int (fit->bound[j], fit->lower[j], fit->upper[j], theta[j]);
}

void
xrlab_fit_to_external (XrlabFit *fit, const double *u, double *theta)
{
  for (gsize j = 0; j < fit->p; j++)
    {
      double d;
      theta[j] = int_to_ext (fit->bound[j], fit->lower[j], fit->upper[j], u[j], &d);
    }
}

gboolean
xrlab_fit_eval_internal (XrlabFit *fit, const double *u, double *r, double *J,
                         GError **error)
{
  Core *core = fit->full;
  gsl_vector_const_view uv = gsl_vector_const_view_array (u, fit->p);
  gsl_vector_view rv = gsl_vector_view_array (r, fit->n);
  int status;

  fit->active = core;
  fit->cancel_armed = FALSE;
  fit->cancelled = FALSE;
  fit->last_f = NULL;
  fit->bad_jac_param = -1;
  g_clear_error (&fit->cb_error);
  g_private_set (&current_fit, fit);
  status = fit_f (&uv.vector, fit, &rv.vector);
  if (status == GSL_SUCCESS && J != NULL)
    {
      gsl_matrix_view Jv = gsl_matrix_view_array (J, fit->n, fit->p);
      status = core->fdf.df (&uv.vector, fit, &Jv.matrix);
    }
  g_private_set (&current_fit, NULL);
  if (status != GSL_SUCCESS)
    {
      set_run_error (fit, status, TRUE, error);
      return FALSE;
    }
  return TRUE;
}
