/* xrlab-project-private.h -- what the files of the joint fit share
 * (xrlab-project.c: set-up, iteration, results; xrlab-project-blocks.c:
 * the arrowhead normal equations and the covariance)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "xrlab-fit-private.h"
#include "xrlab-fitflow-private.h"
#include "xrlab-project.h"

G_BEGIN_DECLS

/* One file in a joint fit. */
typedef struct {
  XrlabFitflow *flow;
  Prep pr;
  XrlabFitflowCtx *c;          /* plan, workspace, data, σ */
  gsize n, p, rows, cols;      /* points (rows × cols), local θ */
  gsize *map;                  /* p: global index of local θ_k */
  gsize nF, off;               /* its own block */
  double *theta;               /* p local external values */
  double *model, *jac;         /* n, n × p */
  /* an evaluation (two sets: the current point and a trial) */
  double chi2[2];
  double *g[2], *h[2];         /* p, p × p (full) */
} FileFit;

typedef struct {
  gsize n_files, nS, P, N;
  FileFit *ff;
  BoundKind *bound;            /* P */
  double *lo, *hi;             /* P */
  char **names;                /* P */
  /* the point being evaluated */
  const double *theta;         /* P external */
  const double *dtdu;          /* P: dθ/du, or NULL for the external Jacobian */
  gboolean want_jac;
  int slot;                    /* 0 or 1 */
  gboolean all_weighted;
} Joint;

/* The blocks of H (set @slot) plus @mu·@d2 on the diagonal: A (nS × nS),
 * per file B_f (nS × nF) and D_f (nF × nF), g_s and g_f, all in global
 * indices. */
typedef struct {
  double *A, *gs;
  double **B, **D, **gf;
} Blocks;

typedef struct {
  double *Css;                 /* nS × nS */
  double **Csf;                /* per file: nS × nF */
  double **Cff;                /* per file: nF × nF */
  gboolean valid;
} Covar;

void     xrlab_project_blocks_alloc (const Joint *J, Blocks *bk);
void     xrlab_project_blocks_free  (const Joint *J, Blocks *bk);
/* The blocks of H (set @slot) plus @mu·@d2 on the diagonal (@mu 0: none). */
void     xrlab_project_blocks_fill  (const Joint *J, int slot, double mu, const double *d2,
                                     Blocks *bk);
/* δ = −H'⁻¹ g for the damped blocks (the D_f are factored in place);
 * FALSE when a block is not positive definite. */
gboolean xrlab_project_solve_step   (const Joint *J, Blocks *bk, double *delta);
/* δᵀ H δ with the undamped H of set @slot. */
double   xrlab_project_quad_form    (const Joint *J, int slot, const double *delta);
/* The covariance from H of set 0 (the external Jacobian), scaled by @scale. */
void     xrlab_project_covariance   (const Joint *J, double scale, Covar *cv);
void     xrlab_project_covar_free   (const Joint *J, Covar *cv);
/* C between the global entries @a and @b, both in file @f's θ. */
double   xrlab_project_covar_at     (const Joint *J, const Covar *cv, gsize f, gsize a, gsize b);

G_END_DECLS
