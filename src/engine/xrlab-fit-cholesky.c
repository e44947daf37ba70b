/* xrlab-fit-cholesky.c -- Moré's scaling from the column norms of JᵀJ and the normal-
 * equations solver on the JᵀJ formed with the Jacobian, for GSL's trust region
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-fit.h"
#include "xrlab-fit-private.h"

#include <math.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <gsl/gsl_permutation.h>

/* ---- Moré scaling with the column norms from JᵀJ ----------------------------- */

static int
scale_more_update (const gsl_matrix *J, gsl_vector *diag)
{
  XrlabFit *fit = xrlab_fit_current ();
  const gsize pf = J->size2;
  double *colsq = fit->colsq;

  if (fit->jtj_valid)
    {
      for (gsize j = 0; j < pf; j++)
        colsq[j] = fit->jtj[j * pf + j];
    }
  else
    {
      memset (colsq, 0, pf * sizeof *colsq);
      for (gsize i = 0; i < J->size1; i++)
        {
          const double *row = J->data + i * J->tda;
          for (gsize j = 0; j < pf; j++)
            colsq[j] += row[j] * row[j];
        }
    }
  for (gsize j = 0; j < pf; j++)
    {
      double norm = sqrt (colsq[j]);
      double *dj = gsl_vector_ptr (diag, j);

      if (norm == 0.0)
        norm = 1.0;
      *dj = MAX (*dj, norm);
    }
  return GSL_SUCCESS;
}

static int
scale_more_init (const gsl_matrix *J, gsl_vector *diag)
{
  gsl_vector_set_zero (diag);
  return scale_more_update (J, diag);
}

const gsl_multifit_nlinear_scale xrlab_fit_scale_more = {
  "more (xrlab)",
  scale_more_init,
  scale_more_update,
};

/* ---- normal-equations solver with a row-wise JᵀJ ----------------------------- */

/* Solves (JᵀJ + μDᵀD) x = −Jᵀf through GSL's public solver interface:
 * A = JᵀJ + μD², S = diag(A)^−1/2, modified Cholesky of SAS, x = S (SAS)⁻¹ S b. */
typedef struct {
  gsize p;
  gsl_matrix *jtj;     /* lower triangle of JᵀJ */
  gsl_matrix *fact;    /* LDLᵀ of SAS */
  gsl_vector *s;       /* S */
  gsl_vector *rhs;
  gsl_vector *y;
  gsl_vector *work3p;
  gsl_permutation *perm;
} CholState;

static void
chol_free (void *vstate)
{
  CholState *st = vstate;

  if (st == NULL)
    return;
  g_clear_pointer (&st->jtj, gsl_matrix_free);
  g_clear_pointer (&st->fact, gsl_matrix_free);
  g_clear_pointer (&st->s, gsl_vector_free);
  g_clear_pointer (&st->rhs, gsl_vector_free);
  g_clear_pointer (&st->y, gsl_vector_free);
  g_clear_pointer (&st->work3p, gsl_vector_free);
  g_clear_pointer (&st->perm, gsl_permutation_free);
  g_free (st);
}

static void *
chol_alloc (const size_t n, const size_t p)
{
  CholState *st = g_new0 (CholState, 1);

  (void) n;
  st->p = p;
  st->jtj = gsl_matrix_calloc (p, p);
  st->fact = gsl_matrix_calloc (p, p);
  st->s = gsl_vector_alloc (p);
  st->rhs = gsl_vector_alloc (p);
  st->y = gsl_vector_alloc (p);
  st->work3p = gsl_vector_alloc (3 * p);
  st->perm = gsl_permutation_alloc (p);
  if (!st->jtj || !st->fact || !st->s || !st->rhs || !st->y || !st->work3p || !st->perm)
    {
      chol_free (st);
      return NULL;
    }
  return st;
}

static int
chol_init (const void *vtrust_state, void *vstate)
{
  const gsl_multifit_nlinear_trust_state *ts = vtrust_state;
  XrlabFit *fit = ts->fdf->params;
  CholState *st = vstate;
  const gsize p = st->p;

  if (!fit->jtj_valid)
    {
      /* A finite-difference Jacobian: form JᵀJ here. */
      xrlab_fit_accumulate_jtj (ts->J->data, ts->J->size1, p, fit->jtj);
      fit->jtj_valid = TRUE;
    }
  for (gsize a = 0; a < p; a++)
    for (gsize b = 0; b <= a; b++)
      gsl_matrix_set (st->jtj, a, b, fit->jtj[a * p + b]);
  return GSL_SUCCESS;
}

static int
chol_presolve (const double mu, const void *vtrust_state, void *vstate)
{
  const gsl_multifit_nlinear_trust_state *ts = vtrust_state;
  CholState *st = vstate;
  const gsize p = st->p;

  for (gsize a = 0; a < p; a++)
    {
      double d = gsl_vector_get (ts->diag, a);
      double aa = gsl_matrix_get (st->jtj, a, a) + mu * d * d;
      gsl_vector_set (st->s, a, aa > 0.0 ? 1.0 / sqrt (aa) : 1.0);
    }
  for (gsize a = 0; a < p; a++)
    {
      double sa = gsl_vector_get (st->s, a);
      for (gsize b = 0; b <= a; b++)
        {
          double v = gsl_matrix_get (st->jtj, a, b);
          if (a == b)
            {
              double d = gsl_vector_get (ts->diag, a);
              v += mu * d * d;
            }
          gsl_matrix_set (st->fact, a, b, sa * v * gsl_vector_get (st->s, b));
        }
    }
  return gsl_linalg_mcholesky_decomp (st->fact, st->perm, NULL);
}

static int
chol_solve (const gsl_vector *f, gsl_vector *x, const void *vtrust_state, void *vstate)
{
  const gsl_multifit_nlinear_trust_state *ts = vtrust_state;
  CholState *st = vstate;
  int status;

  /* rhs = −Jᵀf; for the residual itself that is −g, already computed. */
  if (f == ts->f)
    gsl_vector_memcpy (st->rhs, ts->g);
  else
    gsl_blas_dgemv (CblasTrans, 1.0, ts->J, f, 0.0, st->rhs);
  gsl_vector_mul (st->rhs, st->s);
  gsl_vector_scale (st->rhs, -1.0);
  status = gsl_linalg_mcholesky_solve (st->fact, st->perm, st->rhs, st->y);
  if (status != GSL_SUCCESS)
    return status;
  gsl_vector_memcpy (x, st->y);
  gsl_vector_mul (x, st->s);
  return GSL_SUCCESS;
}

static int
chol_rcond (double *rcond, void *vstate)
{
  CholState *st = vstate;
  double r;
  int status;

  gsl_matrix_memcpy (st->fact, st->jtj);
  status = gsl_linalg_mcholesky_decomp (st->fact, st->perm, NULL);
  if (status == GSL_SUCCESS)
    status = gsl_linalg_mcholesky_rcond (st->fact, st->perm, &r, st->work3p);
  if (status == GSL_SUCCESS)
    *rcond = sqrt (r);
  return status;
}

const gsl_multifit_nlinear_solver xrlab_fit_solver_cholesky = {
  "cholesky (xrlab, row-wise JᵀJ)",
  chol_alloc,
  chol_init,
  chol_presolve,
  chol_solve,
  chol_rcond,
  chol_free,
};
