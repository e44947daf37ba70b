/* xrlab-fitflow-private.h -- what the files of the fit workflow share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "xrlab-fitflow.h"
#include "xrlab-plan.h"

G_BEGIN_DECLS

struct _XrlabFitflow {
  const double *data;
  gsize n_rows, n_cols;            /* n_time (or 1) × n_energy */
  double *energy, *time, *aux;
  gsize n_e, n_t, n_a;
  char *data_name, *energy_name, *time_name;

  gsize row0, nrw, col0, ncw;      /* the fit window */

  XrlabFitSigmaKind sigma_kind;
  double *sigma;

  XrlabFitflowOptions options;

  GHashTable *seed;                /* name → double* */
  double *seed_spectrum;           /* the baseline data, seed_ncols energies */
  gsize seed_col0, seed_ncols;
};

/* What a prepared stage evaluates: the plan on a domain of the data axes
 * and the part of it that is fitted. */
struct _XrlabFitflowCtx {
  XrlabPlan *plan;
  XrlabPlanWorkspace *ws;
  gsize dom_rows, dom_cols;        /* the plan's output */
  gsize row_off, rows, cols;       /* the fitted block inside it (columns from 0) */
  gboolean direct;                 /* the block is the whole domain */
  double *buf, *jbuf;              /* domain-sized scratch when not direct */
  gsize p;
  double *y;                       /* the fitted data (rows × cols), owned */
  double *sig;                     /* σ for the fit, owned */
  XrlabFitSigmaKind sigma_kind;
  XrlabFit *fit;
  XrlabFitflowStage stage;
  XrlabFitflowProgressFunc progress;
  XrlabFitflowThetaFunc progress_theta;
  gpointer progress_data;
  char **names;                    /* θ names for progress_theta (NULL-terminated), owned */
};

/* A stage ready to run. */
typedef struct {
  XrlabFitflowStage stage;
  XrlabModel *model;               /* seeded and pinned copy */
  XrlabPlan *plan;
  gsize dom_row0, dom_rows;        /* plan domain: data rows (2D) */
  gsize dom_cols;                  /* energies from the window's first column on */
  gsize row0, rows;                /* fitted data rows (baseline: averaged rows) */
  gsize n_theta;
  double *theta0, *lower, *upper;
  char **names;
} Prep;

/* ---- xrlab-fitflow-data.c ----------------------------------------------------- */

/* "data.csv" or "the data"; the delay axis's name likewise. */
const char *xrlab_fitflow_data_name (const XrlabFitflow *f);
const char *xrlab_fitflow_time_name (const XrlabFitflow *f);
/* NaN or infinity in the data rows [r0, r0 + n) within the window's
 * energies: an error naming the cell and @where. */
gboolean xrlab_fitflow_check_finite (const XrlabFitflow *f, gsize r0, gsize n,
                                     const char *where, GError **error);
/* The index range [*i0, *i0 + *n) of the monotonic @v within [lo, hi]. */
void xrlab_fitflow_axis_range (const double *v, gsize nv, double lo, double hi, gsize *i0,
                               gsize *n);
/* [lo, hi] from two limits in either order; a NaN limit is open. */
void xrlab_fitflow_limits (double a, double b, double *lo, double *hi);
/* σ of data cell (r, c); 1 without σ. */
double xrlab_fitflow_sigma_at (const XrlabFitflow *f, gsize r, gsize c);
/* σ finite and positive in the data rows [r0, r0 + n) within the window's
 * energies. */
gboolean xrlab_fitflow_check_sigma_cells (const XrlabFitflow *f, gsize r0, gsize n,
                                          GError **error);

/* ---- xrlab-fitflow.c -------------------------------------------------------------- */

gboolean xrlab_fitflow_prepare (XrlabFitflow *f, XrlabFitflowStage stage,
                                const XrlabModel *model, double b0, double b1, gsize row,
                                const XrlabModel *names_from, Prep *pr, GError **error);
void xrlab_fitflow_prep_clear (Prep *pr);
XrlabFitflowCtx *xrlab_fitflow_ctx_new (const XrlabFitflow *f, XrlabPlan *plan,
                                        guint n_threads, gsize row_off, gsize rows, gsize cols,
                                        XrlabFitflowStage stage);
XrlabFit *xrlab_fitflow_ctx_fit_new (const XrlabFitflow *f, XrlabFitflowCtx *c, const Prep *pr,
                                     const double *y, XrlabFitSigmaKind sk, const double *sig,
                                     gboolean progress, GError **error);
void xrlab_fitflow_ctx_load (const XrlabFitflow *f, const Prep *pr, XrlabFitflowCtx *c);
void xrlab_fitflow_ctx_free (XrlabFitflowCtx *c);

/* ---- xrlab-fitflow-result.c ----------------------------------------------------- */

void xrlab_fitflow_param_values_errors (const XrlabPlan *plan, const XrlabModel *model,
                                        const double *theta, const double *theta_err,
                                        const double *covar, gboolean valid, double *pv,
                                        double *dv, double *values, double *errors);
XrlabFitflowResult *xrlab_fitflow_result_new (const XrlabFitflow *f, Prep *pr,
                                              XrlabFitflowCtx *c, XrlabFitResult *fr,
                                              GError **error);
/* The same for a fit of @data_rows × @n_cols data (in c->y) whose first
 * energy column is @col0 of the data. */
XrlabFitflowResult *xrlab_fitflow_result_new_block (Prep *pr, XrlabFitflowCtx *c,
                                                    XrlabFitResult *fr, gsize col0,
                                                    gsize n_cols, gsize data_rows,
                                                    GError **error);

G_END_DECLS
