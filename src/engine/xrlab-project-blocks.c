/* xrlab-project-blocks.c -- the normal equations of a joint fit by blocks: the
 * arrowhead matrix of shared and per-file parameters, its damped solution
 * through the Schur complement and its inverse (see xrlab-project.h)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-project-private.h"

#include <math.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>

/* ---- the arrowhead system ---------------------------------------------------------- */


void
xrlab_project_blocks_alloc (const Joint *J, Blocks *bk)
{
  const gsize nS = J->nS;

  bk->A = g_new0 (double, MAX (nS * nS, 1));
  bk->gs = g_new0 (double, MAX (nS, 1));
  bk->B = g_new0 (double *, J->n_files);
  bk->D = g_new0 (double *, J->n_files);
  bk->gf = g_new0 (double *, J->n_files);
  for (gsize f = 0; f < J->n_files; f++)
    {
      const gsize nF = J->ff[f].nF;
      bk->B[f] = g_new0 (double, MAX (nS * nF, 1));
      bk->D[f] = g_new0 (double, MAX (nF * nF, 1));
      bk->gf[f] = g_new0 (double, MAX (nF, 1));
    }
}

void
xrlab_project_blocks_free (const Joint *J, Blocks *bk)
{
  for (gsize f = 0; f < J->n_files; f++)
    {
      g_free (bk->B[f]);
      g_free (bk->D[f]);
      g_free (bk->gf[f]);
    }
  g_free (bk->A);
  g_free (bk->gs);
  g_free (bk->B);
  g_free (bk->D);
  g_free (bk->gf);
}

void
xrlab_project_blocks_fill (const Joint *J, int slot, double mu, const double *d2, Blocks *bk)
{
  const gsize nS = J->nS;

  memset (bk->A, 0, MAX (nS * nS, 1) * sizeof (double));
  memset (bk->gs, 0, MAX (nS, 1) * sizeof (double));
  for (gsize f = 0; f < J->n_files; f++)
    {
      const FileFit *ff = &J->ff[f];
      const gsize p = ff->p, nF = ff->nF;
      const double *h = ff->h[slot], *g = ff->g[slot];

      memset (bk->B[f], 0, MAX (nS * nF, 1) * sizeof (double));
      memset (bk->D[f], 0, MAX (nF * nF, 1) * sizeof (double));
      memset (bk->gf[f], 0, MAX (nF, 1) * sizeof (double));
      for (gsize a = 0; a < p; a++)
        {
          gsize ga = ff->map[a];
          if (ga < nS)
            bk->gs[ga] += g[a];
          else
            bk->gf[f][ga - ff->off] += g[a];
          for (gsize b = 0; b < p; b++)
            {
              gsize gb = ff->map[b];
              double v = h[a * p + b];
              if (ga < nS && gb < nS)
                bk->A[ga * nS + gb] += v;
              else if (ga < nS)
                bk->B[f][ga * nF + (gb - ff->off)] += v;
              else if (gb >= nS)
                bk->D[f][(ga - ff->off) * nF + (gb - ff->off)] += v;
            }
        }
      if (mu > 0)
        for (gsize l = 0; l < nF; l++)
          bk->D[f][l * nF + l] += mu * d2[ff->off + l];
    }
  if (mu > 0)
    for (gsize a = 0; a < nS; a++)
      bk->A[a * nS + a] += mu * d2[a];
}

/* Cholesky of the n × n @M in place; FALSE when it is not positive definite. */
static gboolean
chol (double *M, gsize n)
{
  gsl_matrix_view v;

  if (n == 0)
    return TRUE;
  v = gsl_matrix_view_array (M, n, n);
  return gsl_linalg_cholesky_decomp1 (&v.matrix) == GSL_SUCCESS;
}

/* x ← L⁻ᵀL⁻¹ x with the factor of chol(). */
static void
chol_solve (const double *L, gsize n, double *x)
{
  if (n == 0)
    return;
  {
    gsl_matrix_const_view v = gsl_matrix_const_view_array (L, n, n);
    gsl_vector_view xv = gsl_vector_view_array (x, n);
    gsl_linalg_cholesky_svx (&v.matrix, &xv.vector);
  }
}

/* Solves the damped system of @bk (factors the D_f in place) for the step
 * @delta (P, global): δ = −H'⁻¹ g by the Schur complement. FALSE when a
 * block is not positive definite. */
gboolean
xrlab_project_solve_step (const Joint *J, Blocks *bk, double *delta)
{
  const gsize nS = J->nS;
  g_autofree double *S = g_memdup2 (bk->A, MAX (nS * nS, 1) * sizeof (double));
  g_autofree double *rhs = g_new (double, MAX (nS, 1));
  g_autofree double *col = NULL;
  gsize max_nF = 1;

  for (gsize f = 0; f < J->n_files; f++)
    max_nF = MAX (max_nF, J->ff[f].nF);
  col = g_new (double, max_nF);
  for (gsize a = 0; a < nS; a++)
    rhs[a] = -bk->gs[a];
  for (gsize f = 0; f < J->n_files; f++)
    {
      const gsize nF = J->ff[f].nF;
      double *D = bk->D[f], *B = bk->B[f];
      double *y = delta + J->ff[f].off;

      if (!chol (D, nF))
        return FALSE;
      /* y_f = D_f⁻¹ g_f;  S −= B_f D_f⁻¹ B_fᵀ;  rhs += B_f D_f⁻¹ g_f */
      memcpy (y, bk->gf[f], nF * sizeof (double));
      chol_solve (D, nF, y);
      for (gsize a = 0; a < nS; a++)
        {
          for (gsize l = 0; l < nF; l++)
            col[l] = B[a * nF + l];
          chol_solve (D, nF, col);        /* D_f⁻¹ B_fᵀ e_a */
          for (gsize b = 0; b < nS; b++)
            {
              double s = 0.0;
              for (gsize l = 0; l < nF; l++)
                s += B[b * nF + l] * col[l];
              S[b * nS + a] -= s;
            }
          {
            double s = 0.0;
            for (gsize l = 0; l < nF; l++)
              s += col[l] * bk->gf[f][l];
            rhs[a] += s;
          }
        }
    }
  if (!chol (S, nS))
    return FALSE;
  memcpy (delta, rhs, nS * sizeof (double));
  chol_solve (S, nS, delta);
  /* δ_f = −D_f⁻¹ (g_f + B_fᵀ δ_s) */
  for (gsize f = 0; f < J->n_files; f++)
    {
      const gsize nF = J->ff[f].nF;
      double *y = delta + J->ff[f].off;
      for (gsize l = 0; l < nF; l++)
        {
          double s = bk->gf[f][l];
          for (gsize a = 0; a < nS; a++)
            s += bk->B[f][a * nF + l] * delta[a];
          y[l] = -s;
        }
      chol_solve (bk->D[f], nF, y);
    }
  return TRUE;
}

/* δᵀ H δ with the undamped H of set @slot: Σ_f (P_f δ)ᵀ H_f (P_f δ). */
double
xrlab_project_quad_form (const Joint *J, int slot, const double *delta)
{
  double q = 0.0;

  for (gsize f = 0; f < J->n_files; f++)
    {
      const FileFit *ff = &J->ff[f];
      const gsize p = ff->p;
      for (gsize a = 0; a < p; a++)
        for (gsize b = 0; b < p; b++)
          q += delta[ff->map[a]] * ff->h[slot][a * p + b] * delta[ff->map[b]];
    }
  return q;
}

/* ---- the covariance ------------------------------------------------------------------- */


void
xrlab_project_covar_free (const Joint *J, Covar *cv)
{
  for (gsize f = 0; f < J->n_files; f++)
    {
      g_free (cv->Csf[f]);
      g_free (cv->Cff[f]);
    }
  g_free (cv->Csf);
  g_free (cv->Cff);
  g_free (cv->Css);
}

/* Inverts the arrowhead H of set 0 (the external Jacobian), equilibrated by
 * its diagonal, by blocks; scales it by @scale. */
void
xrlab_project_covariance (const Joint *J, double scale, Covar *cv)
{
  const gsize nS = J->nS;
  Blocks bk;
  g_autofree double *s = g_new (double, MAX (J->P, 1));
  g_autofree double *S = NULL;
  g_autofree double **X = g_new0 (double *, J->n_files);   /* D_f⁻¹ B_fᵀ: nF × nS */

  cv->Css = g_new0 (double, MAX (nS * nS, 1));
  cv->Csf = g_new0 (double *, J->n_files);
  cv->Cff = g_new0 (double *, J->n_files);
  for (gsize f = 0; f < J->n_files; f++)
    {
      cv->Csf[f] = g_new0 (double, MAX (nS * J->ff[f].nF, 1));
      cv->Cff[f] = g_new0 (double, MAX (J->ff[f].nF * J->ff[f].nF, 1));
    }
  cv->valid = FALSE;
  xrlab_project_blocks_alloc (J, &bk);
  xrlab_project_blocks_fill (J, 0, 0.0, NULL, &bk);

  /* equilibrate: S_jj = 1/√H_jj */
  for (gsize a = 0; a < nS; a++)
    s[a] = bk.A[a * nS + a];
  for (gsize f = 0; f < J->n_files; f++)
    for (gsize l = 0; l < J->ff[f].nF; l++)
      s[J->ff[f].off + l] = bk.D[f][l * J->ff[f].nF + l];
  for (gsize a = 0; a < J->P; a++)
    {
      if (!(s[a] > 0) || !isfinite (s[a]))
        goto out;
      s[a] = 1.0 / sqrt (s[a]);
    }
  for (gsize a = 0; a < nS; a++)
    for (gsize b = 0; b < nS; b++)
      bk.A[a * nS + b] *= s[a] * s[b];
  for (gsize f = 0; f < J->n_files; f++)
    {
      const gsize nF = J->ff[f].nF, off = J->ff[f].off;
      for (gsize a = 0; a < nS; a++)
        for (gsize l = 0; l < nF; l++)
          bk.B[f][a * nF + l] *= s[a] * s[off + l];
      for (gsize l = 0; l < nF; l++)
        for (gsize m = 0; m < nF; m++)
          bk.D[f][l * nF + m] *= s[off + l] * s[off + m];
    }

  /* D_f⁻¹ (in place of its Cholesky factor), X_f, the Schur complement */
  S = g_memdup2 (bk.A, MAX (nS * nS, 1) * sizeof (double));
  for (gsize f = 0; f < J->n_files; f++)
    {
      const gsize nF = J->ff[f].nF;
      double *D = bk.D[f];

      if (!chol (D, nF))
        goto out;
      if (nF > 0)
        {
          gsl_matrix_view v = gsl_matrix_view_array (D, nF, nF);
          gsl_linalg_cholesky_invert (&v.matrix);
        }
      X[f] = g_new0 (double, MAX (nF * nS, 1));
      for (gsize l = 0; l < nF; l++)
        for (gsize a = 0; a < nS; a++)
          {
            double v = 0.0;
            for (gsize m = 0; m < nF; m++)
              v += D[l * nF + m] * bk.B[f][a * nF + m];
            X[f][l * nS + a] = v;
          }
      for (gsize a = 0; a < nS; a++)
        for (gsize b = 0; b < nS; b++)
          {
            double v = 0.0;
            for (gsize l = 0; l < nF; l++)
              v += bk.B[f][a * nF + l] * X[f][l * nS + b];
            S[a * nS + b] -= v;
          }
    }
  if (!chol (S, nS))
    goto out;
  if (nS > 0)
    {
      gsl_matrix_view v = gsl_matrix_view_array (S, nS, nS);
      gsl_linalg_cholesky_invert (&v.matrix);
    }
  /* C_ss = S⁻¹, C_sf = −C_ss X_fᵀ, C_ff = D_f⁻¹ + X_f C_ss X_fᵀ, then undo
   * the equilibration and scale */
  for (gsize a = 0; a < nS; a++)
    for (gsize b = 0; b < nS; b++)
      cv->Css[a * nS + b] = S[a * nS + b] * s[a] * s[b] * scale;
  for (gsize f = 0; f < J->n_files; f++)
    {
      const gsize nF = J->ff[f].nF, off = J->ff[f].off;
      g_autofree double *Csf = g_new0 (double, MAX (nS * nF, 1));
      for (gsize a = 0; a < nS; a++)
        for (gsize l = 0; l < nF; l++)
          {
            double v = 0.0;
            for (gsize b = 0; b < nS; b++)
              v += S[a * nS + b] * X[f][l * nS + b];
            Csf[a * nF + l] = -v;
            cv->Csf[f][a * nF + l] = -v * s[a] * s[off + l] * scale;
          }
      for (gsize l = 0; l < nF; l++)
        for (gsize m = 0; m < nF; m++)
          {
            double v = bk.D[f][l * nF + m];
            for (gsize a = 0; a < nS; a++)
              v -= X[f][l * nS + a] * Csf[a * nF + m];
            cv->Cff[f][l * nF + m] = v * s[off + l] * s[off + m] * scale;
          }
    }
  cv->valid = TRUE;
out:
  for (gsize f = 0; f < J->n_files; f++)
    g_free (X[f]);
  xrlab_project_blocks_free (J, &bk);
}

/* C between global entries @a and @b, both in file @f's θ. */
double
xrlab_project_covar_at (const Joint *J, const Covar *cv, gsize f, gsize a, gsize b)
{
  const gsize nS = J->nS, nF = J->ff[f].nF, off = J->ff[f].off;

  if (a < nS && b < nS)
    return cv->Css[a * nS + b];
  if (a < nS)
    return cv->Csf[f][a * nF + (b - off)];
  if (b < nS)
    return cv->Csf[f][b * nF + (a - off)];
  return cv->Cff[f][(a - off) * nF + (b - off)];
}
