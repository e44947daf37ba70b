/* xrlab-fit-covar.c -- the covariance of the fitted parameters: normal equations when
 * they are well conditioned, a streaming QR of the Jacobian otherwise
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-fit.h"
#include "xrlab-fit-private.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_multifit_nlinear.h>

/* The covariance from the normal equations is trusted when κ·ε ≤ this. */
#define COVAR_NORMAL_MAX_ERR 1e-10
/* Rows per block of the streaming QR used for the covariance. */
#define QR_BLOCK_ROWS 256

/* R (pf × pf, upper) of the QR factorisation of the n × pf (n ≥ pf)
 * row-major @J with its columns scaled by @s, streamed in blocks so only a
 * small buffer is needed: R ← R of [R; next block]. */
static gboolean
streaming_qr_r (const double *J, gsize n, gsize pf, const double *s, gsl_matrix *R)
{
  const gsize block = MAX (QR_BLOCK_ROWS, pf);
  gsl_matrix *buf = gsl_matrix_alloc (pf + block, pf);
  gsl_vector *tau = gsl_vector_alloc (pf);
  gboolean have_r = FALSE;
  gsize i = 0;

  if (buf == NULL || tau == NULL)
    {
      g_clear_pointer (&buf, gsl_matrix_free);
      g_clear_pointer (&tau, gsl_vector_free);
      return FALSE;
    }
  while (i < n)
    {
      gsize top = 0, rows = MIN (block, n - i);
      gsl_matrix_view m;

      if (have_r)
        {
          for (gsize a = 0; a < pf; a++)
            for (gsize b = 0; b < pf; b++)
              gsl_matrix_set (buf, a, b, b >= a ? gsl_matrix_get (R, a, b) : 0.0);
          top = pf;
        }
      for (gsize r = 0; r < rows; r++)
        for (gsize b = 0; b < pf; b++)
          gsl_matrix_set (buf, top + r, b, J[(i + r) * pf + b] * s[b]);
      i += rows;
      m = gsl_matrix_submatrix (buf, 0, 0, top + rows, pf);
      /* top + rows ≥ pf: the first block has min(block, n) ≥ pf rows */
      gsl_linalg_QR_decomp (&m.matrix, tau);
      for (gsize a = 0; a < pf; a++)
        for (gsize b = 0; b < pf; b++)
          gsl_matrix_set (R, a, b, b >= a ? gsl_matrix_get (&m.matrix, a, b) : 0.0);
      have_r = TRUE;
    }
  gsl_matrix_free (buf);
  gsl_vector_free (tau);
  return TRUE;
}

/* C = (J_θᵀJ_θ)⁻¹ for the weighted external Jacobian J_θ = @J·diag(@colscale)
 * (@J n × pf, row-major; @colscale NULL for 1). @jtj_in, when not NULL, is
 * the lower triangle of J_θᵀJ_θ already formed. Returns FALSE when J_θ does
 * not have full rank. */
static gboolean
covariance (const double *J, gsize n, gsize pf, const double *colscale,
            const double *jtj_in, gboolean force_qr, double *C)
{
  g_autofree double *jtj = g_new (double, pf * pf);
  g_autofree double *s = g_new (double, pf);
  g_autofree double *sq = g_new (double, pf);
  gsl_matrix *A = gsl_matrix_alloc (pf, pf);
  gsl_vector *work = gsl_vector_alloc (3 * pf);
  gboolean ok = FALSE, use_qr = TRUE;
  double rcond = 0.0;

  if (jtj_in != NULL)
    memcpy (jtj, jtj_in, pf * pf * sizeof *jtj);
  else
    {
      memset (jtj, 0, pf * pf * sizeof *jtj);
      for (gsize i = 0; i < n; i++)
        {
          const double *row = J + i * pf;
          for (gsize a = 0; a < pf; a++)
            {
              const double ra = row[a] * (colscale ? colscale[a] : 1.0);
              for (gsize b = 0; b <= a; b++)
                jtj[a * pf + b] += ra * row[b] * (colscale ? colscale[b] : 1.0);
            }
        }
    }
  for (gsize a = 0; a < pf; a++)
    {
      double d = jtj[a * pf + a];
      if (!(d > 0.0) || !isfinite (d))
        goto out;               /* a zero column: rank deficient */
      s[a] = 1.0 / sqrt (d);
      sq[a] = s[a] * (colscale ? colscale[a] : 1.0);   /* scale of the columns of J */
    }
  for (gsize a = 0; a < pf; a++)
    for (gsize b = 0; b < pf; b++)
      {
        double v = (b <= a) ? jtj[a * pf + b] : jtj[b * pf + a];
        gsl_matrix_set (A, a, b, s[a] * v * s[b]);
      }
  {
    /* GSL's error handler is off (xrlab_init): statuses are checked here. */
    int st = gsl_linalg_cholesky_decomp1 (A);
    if (st == GSL_SUCCESS)
      st = gsl_linalg_cholesky_rcond (A, &rcond, work);
    if (!force_qr && st == GSL_SUCCESS && rcond > 0.0
        && DBL_EPSILON / rcond <= COVAR_NORMAL_MAX_ERR)
      {
        gsl_linalg_cholesky_invert (A);
        use_qr = FALSE;
      }
  }
  if (use_qr)
    {
      /* Ill-conditioned: R from QR of the equilibrated J, C_s = R⁻¹R⁻ᵀ. */
      gsl_matrix *R = gsl_matrix_alloc (pf, pf);
      double rmax = 0.0;
      gboolean full_rank = TRUE;

      if (R == NULL || !streaming_qr_r (J, n, pf, sq, R))
        {
          g_clear_pointer (&R, gsl_matrix_free);
          goto out;
        }
      for (gsize a = 0; a < pf; a++)
        rmax = MAX (rmax, fabs (gsl_matrix_get (R, a, a)));
      for (gsize a = 0; a < pf; a++)
        if (!(fabs (gsl_matrix_get (R, a, a)) > 1e-14 * rmax))
          full_rank = FALSE;
      if (!full_rank || gsl_linalg_tri_invert (CblasUpper, CblasNonUnit, R) != GSL_SUCCESS)
        {
          gsl_matrix_free (R);
          goto out;
        }
      /* A = R⁻¹ R⁻ᵀ */
      for (gsize a = 0; a < pf; a++)
        for (gsize b = a; b < pf; b++)
          {
            double sum = 0.0;
            for (gsize k = b; k < pf; k++)
              sum += gsl_matrix_get (R, a, k) * gsl_matrix_get (R, b, k);
            gsl_matrix_set (A, a, b, sum);
            gsl_matrix_set (A, b, a, sum);
          }
      gsl_matrix_free (R);
    }
  for (gsize a = 0; a < pf; a++)
    for (gsize b = 0; b < pf; b++)
      C[a * pf + b] = s[a] * gsl_matrix_get (A, a, b) * s[b];
  ok = TRUE;
out:
  gsl_matrix_free (A);
  gsl_vector_free (work);
  return ok;
}

/* The covariance, standard errors and correlations of @r at the solution
 * the full core holds (NaN where they cannot be estimated). */
void
xrlab_fit_result_errors (XrlabFit *fit, XrlabFitResult *r)
{
  Core *core = fit->full;
  const gsize n = fit->n, p = fit->p;
  double *J = core->w->J->data;
  gboolean jac_ok = TRUE;

  /* The weighted Jacobian in external parameters at the solution is the
   * solver's J with dθ/du undone column by column; its JᵀJ follows from the
   * one formed with J (no pass over J). Where dθ/du vanished, J is
   * evaluated again. */
  {
    double *colscale = NULL, *jtj = NULL;
    double inv[p];
    gboolean divisible = TRUE;

    for (gsize j = 0; j < p; j++)
      {
        inv[j] = 1.0;
        if (fit->any_bound)
          {
            if (fpclassify (fit->dtheta_du[j]) != FP_NORMAL)
              divisible = FALSE;
            else
              inv[j] = 1.0 / fit->dtheta_du[j];
          }
      }
    if (divisible)
      {
        if (fit->any_bound)
          colscale = inv;
        if (fit->jtj_valid)
          {
            jtj = fit->jtj;
            for (gsize a = 0; a < p; a++)
              for (gsize b = 0; b <= a; b++)
                jtj[a * p + b] *= inv[a] * inv[b];
            fit->jtj_valid = FALSE;   /* no longer the solver's */
          }
        else if (fit->cancelled)
          jac_ok = FALSE;   /* a J cut short by the cancellation */
      }
    else if (fit->jacobian != NULL)
      {
        GError *local = NULL;
        fit->njev++;
        if (fit->jacobian (fit->theta, J, fit->user_data, &local))
          {
            xrlab_fit_transform_jacobian (fit, core, J, J, NULL);
            jtj = fit->jtj;
            fit->jtj_valid = FALSE;
          }
        else
          {
            g_clear_error (&local);
            jac_ok = FALSE;
          }
      }
    else
      jac_ok = FALSE;
    r->errors_valid = jac_ok && covariance (J, n, p, colscale, jtj, FALSE, r->covar);
  }
  if (r->errors_valid)
    {
      double scale;

      switch (fit->options.scale_covar)
        {
        case XRLAB_FIT_SCALE_COVAR_YES:
          r->covar_scaled = TRUE;
          break;
        case XRLAB_FIT_SCALE_COVAR_NO:
          r->covar_scaled = FALSE;
          break;
        case XRLAB_FIT_SCALE_COVAR_AUTO:
        default:
          r->covar_scaled = !r->weighted;
          break;
        }
      scale = r->covar_scaled ? r->redchi : 1.0;
      for (gsize k = 0; k < p * p; k++)
        r->covar[k] *= scale;
      for (gsize j = 0; j < p; j++)
        {
          r->errors[j] = sqrt (r->covar[j * p + j]);
          if (!isfinite (r->errors[j]))
            r->errors_valid = FALSE;
        }
      for (gsize a = 0; a < p; a++)
        for (gsize b = 0; b < p; b++)
          r->correl[a * p + b] = (a == b) ? 1.0
                                 : r->covar[a * p + b] / (r->errors[a] * r->errors[b]);
    }
  if (!r->errors_valid)
    for (gsize k = 0; k < p * p; k++)
      {
        r->covar[k] = r->correl[k] = NAN;
        if (k < p)
          r->errors[k] = NAN;
      }
}

/* ---- test hook (xrlab-fit-private.h) ----------------------------------------- */

gboolean
xrlab_fit_covariance (const double *J, gsize n, gsize p, gboolean force_qr, double *C)
{
  return covariance (J, n, p, NULL, NULL, force_qr, C);
}
