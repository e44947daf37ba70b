/* xrlab-fit-private.h -- internals of xrlab-fit: the hooks of the tests and what
 * the files of the fit share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gsl/gsl_multifit_nlinear.h>

#include "xrlab-fit.h"

G_BEGIN_DECLS

/* The MINUIT transform of all p parameters (see xrlab-fit.h). */
void xrlab_fit_to_internal (XrlabFit *fit, const double *theta, double *u);
void xrlab_fit_to_external (XrlabFit *fit, const double *u, double *theta);

/* What the solver sees at internal @u: the weighted residuals @r (n) and,
 * unless @J is NULL, the weighted Jacobian ∂r/∂u (n × p, row-major), through
 * the same code as a fit (analytic or finite-difference per the method). */
gboolean xrlab_fit_eval_internal (XrlabFit *fit, const double *u, double *r, double *J,
                                  GError **error);

/* (JᵀJ)⁻¹ of a row-major n × p @J into @C (p × p); @force_qr skips the
 * normal equations. Returns FALSE when J has not full rank. */
gboolean xrlab_fit_covariance (const double *J, gsize n, gsize p, gboolean force_qr,
                               double *C);

/* ---- inside a fit (xrlab-fit*.c only) ------------------------------------------ */

typedef enum {
  BOUND_NONE,
  BOUND_LOWER,
  BOUND_UPPER,
  BOUND_BOTH,
} BoundKind;

/* The bound transform of one parameter (see xrlab-fit.h), for fitters of
 * their own (xrlab-project.c): its kind, u(θ), and θ(u) with dθ/du. */
BoundKind xrlab_fit_bound_kind (double lo, double hi);
double    xrlab_fit_bound_to_internal (BoundKind kind, double lo, double hi, double x);
double    xrlab_fit_bound_to_external (BoundKind kind, double lo, double hi, double u,
                                       double *deriv);
/* A result of @p parameters, zeroed (xrlab_fit_result_free frees it). */
XrlabFitResult *xrlab_fit_result_alloc (gsize p);
/* lmfit's AIC and BIC of χ² over @n points and @k free parameters. */
void      xrlab_fit_information_criteria (double chi2, gsize n, gsize k, double *aic,
                                          double *bic);
/* Whether a fit that stopped so has converged. */
gboolean  xrlab_fit_stop_converged (XrlabFitStop stop);
/* at_bound[j] of @r from the bounds (within 1e−8 of the range). */
void      xrlab_fit_result_mark_bounds (XrlabFitResult *r, const double *lower,
                                        const double *upper);

/* One GSL workspace for a set of free parameters: all of them for a fit,
 * all but one for the profile refits of the confidence intervals. */
typedef struct {
  gsize pf;                          /* free parameters */
  gsize *free_idx;                   /* pf indices into θ */
  gsl_multifit_nlinear_workspace *w;
  gsl_multifit_nlinear_fdf fdf;
  gsl_vector *u0;                    /* pf starting internal values */
  double h_fvv;                      /* GSL's step for the second directional derivative */
} Core;

struct _XrlabFit {
  /* the problem */
  gsize n, p, n_rows, n_cols;
  XrlabFitModelFunc model;
  XrlabFitJacobianFunc jacobian;
  gpointer user_data;
  const double *data;
  char **names;
  double *lower, *upper;
  BoundKind *bound;
  gboolean any_bound;
  XrlabFitSigmaKind sigma_kind;
  double *inv_sigma;                 /* 1/σ, as many as the σ given */
  double ss_tot;                     /* Σ w(y − ȳ)² for R², NaN without data */
  XrlabFitOptions options;

  Core *full;                        /* every parameter free */
  Core *profile;                     /* one fixed (confidence intervals), lazily */

  /* state of the evaluation in progress */
  Core *active;
  double *theta;                     /* p external values (the fixed ones kept) */
  double *dtheta_du;                 /* p: dθ/du at the current point */
  double *jac_full;                  /* n × p, for a core with pf < p, lazily */
  double *jtj;                       /* p × p: JᵀJ of the solver's J (pf × pf used) */
  double *colsq;                     /* p scratch */
  double *scratch_n;                 /* 2n scratch (finite differences, profiles), lazily */
  double *scratch_u;                 /* p scratch */
  double *last_u;                    /* p: internal point of the last residuals */
  const double *last_f;              /* where they went (NULL: not reusable) */
  gboolean jtj_valid;                /* jtj belongs to the J in active->w */
  gboolean cancel_armed;
  gboolean cancelled;
  gint abort_flag;                   /* set by the cancel while armed (xrlab_fit_abort_flag) */
  gulong cancel_handler;
  gboolean watch_first_trial;        /* test the next trial step */
  const double *x_now;               /* the current internal point */
  const double *g_now;               /* Jᵀr there */
  double chi2_now;                   /* χ² there */
  int small_step;                    /* 0, or the XrlabFitStop that test found */
  double first_call_scale;           /* first residual call = x + δ / this */
  GCancellable *cancellable;
  GError *cb_error;                  /* from a user callback */
  gboolean start_nonfinite;
  gsize nonfinite_index;
  gssize bad_jac_param;              /* parameter index of a non-finite Jacobian column */
  guint nfev, njev;
};

/* How one run of the iteration ended. */
typedef struct {
  XrlabFitStop stop;
  guint niter;
  double chi2_start;
  double chi2;
} RunInfo;

/* 1/σ of data point @i. */
static inline double
xrlab_fit_row_weight (const XrlabFit *fit, gsize i)
{
  switch (fit->sigma_kind)
    {
    case XRLAB_FIT_SIGMA_SCALAR:
      return fit->inv_sigma[0];
    case XRLAB_FIT_SIGMA_ROWS:
      return fit->inv_sigma[i / fit->n_cols];
    case XRLAB_FIT_SIGMA_COLUMNS:
      return fit->inv_sigma[i % fit->n_cols];
    case XRLAB_FIT_SIGMA_FULL:
      return fit->inv_sigma[i];
    case XRLAB_FIT_SIGMA_NONE:
    default:
      return 1.0;
    }
}

/* xrlab-fit.c: "row 3, column 7" (1-based) for a 2D layout, "point 7" otherwise. */
char *xrlab_fit_describe_point (const XrlabFit *fit, gsize i);

/* xrlab-fit-core.c */
/* The fit whose GSL iteration runs on this thread (NULL outside one). */
XrlabFit *xrlab_fit_current (void);
Core     *xrlab_fit_core_new (XrlabFit *fit, gsize pf, GError **error);
void      xrlab_fit_core_free (Core *core);
gboolean  xrlab_fit_run_core (XrlabFit *fit, Core *core, const double *theta_start,
                              GCancellable *cancellable, gboolean report, RunInfo *info,
                              GError **error);
gboolean  xrlab_fit_form_residuals (XrlabFit *fit, double *f);
double    xrlab_fit_sum_squares (const double *f, gsize n);
gboolean  xrlab_fit_jacobian_column_norm (int n, const double *x, int inc, double *norm);
double   *xrlab_fit_scratch_n (XrlabFit *fit, int which);
void      xrlab_fit_accumulate_jtj (const double *J, gsize n, gsize pf, double *jtj);
/* Adds the lower triangle of RᵀR of @nrows rows R (row-major, pf columns)
 * to @jtj (xrlab-fit-jtj.c). */
void      xrlab_fit_jtj_add_rows   (const double *R, gsize nrows, gsize pf, double *jtj);
void      xrlab_fit_transform_jacobian (XrlabFit *fit, const Core *core, const double *src,
                                        double *dst, const double *colscale);

/* xrlab-fit-cholesky.c */
extern const gsl_multifit_nlinear_scale xrlab_fit_scale_more;
extern const gsl_multifit_nlinear_solver xrlab_fit_solver_cholesky;

/* xrlab-fit-covar.c */
void xrlab_fit_result_errors (XrlabFit *fit, XrlabFitResult *r);

G_END_DECLS
