/* xrlab-fitflow.h -- the fitting workflow of time-resolved spectroscopy:
 * fit window, baseline spectrum, slice-by-slice fits, global 2D fit
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The workflow trspecfit users know, on the plans of xrlab-plan.h and the
 * optimizer of xrlab-fit.h:
 *
 *   flow = xrlab_fitflow_new (data)              shapes and axes checked
 *   xrlab_fitflow_set_window (flow, 81, 91, -0.3, 16.5)
 *   xrlab_fitflow_fit_baseline (flow, base_model, -0.4, -0.05)
 *   xrlab_fitflow_fit_sbs (flow, model)          every delay, in parallel
 *   xrlab_fitflow_fit_2d (flow, model_with_dynamics)
 *
 * Data
 *   A 2D measurement is an n_time × n_energy matrix, row-major: row i holds
 *   the spectrum at delay time[i] (the layout of trspecfit's data.csv). A
 *   single spectrum is one row without a delay axis. The energy axis must be
 *   strictly monotonic (increasing or decreasing: photoemission data are
 *   often on a descending binding-energy axis), the delay axis strictly
 *   increasing. NaN and infinities are allowed in the data outside the fit
 *   window and are an error inside it (checked before any work).
 *
 * Fit window
 *   Energies E with min(e0, e1) ≤ E ≤ max(e0, e1) and delays t with
 *   min(t0, t1) ≤ t ≤ max(t0, t1); a NaN limit leaves that side open. Only
 *   the data inside the window enter χ². The model itself is evaluated on
 *   the data's own axes, as trspecfit evaluates it before cutting the
 *   residual, so that terms reaching outside the window are those of the
 *   measurement: the Shirley background at energy index i sums the peaks
 *   over all indices j ≥ i of the energy axis (the plan of a model with a
 *   Shirley term therefore spans the window and everything beyond it
 *   towards the high-index end), and the kernels of time models act on the
 *   trace over the whole delay axis (the plan of a model with kernels spans
 *   every delay). Every other term is local in energy and delay, and its
 *   plan spans only the window.
 *
 * Stages
 *   - baseline: the mean of the data rows whose delays lie in [b0, b1]
 *     (chosen on the whole delay axis, like trspecfit's define_baseline: a
 *     baseline delay may lie outside the window's delay range), fitted with
 *     a 1D model inside the energy window. Time dependence of the model is
 *     left out. The result seeds the later stages.
 *   - spectrum: one data row (the only row of a single spectrum) fitted the
 *     same way.
 *   - slice-by-slice (SBS): every delay of the window fitted alone with the
 *     model's time dependence left out, on the thread pool (xrlab-parallel.h;
 *     one optimizer and one plan workspace per part of the loop). Each slice
 *     starts from the baseline result, never from another slice, so the
 *     results do not depend on the number of threads or the order the slices
 *     finish. With track_peaks (trspecfit's rule) the start of every free
 *     energy position "…_x0" is shifted by E(max of the slice) − E(max of
 *     the baseline spectrum), maxima taken inside the window, unless that
 *     leaves its bounds.
 *   - 2D: the global fit of the whole window.
 *   Seeding: in every stage after a baseline, each parameter of the model
 *   that is not an expression and has a namesake in the baseline result
 *   starts from the baseline's value (a value outside its bounds in the new
 *   model is an error naming it); static parameters too, which then stay
 *   fixed there (trspecfit's fit_2d and slice-by-slice fits copy every
 *   baseline value into the model before fitting). With pin_to_baseline,
 *   every such parameter without time dependence of its own (and not itself
 *   a parameter of a time model) is also fixed there: in SBS and 2D fits
 *   only the dynamics are then fitted (trspecfit's SbS and 2D models, whose
 *   other parameters are "pinned to the baseline result").
 *
 * σ: one value, per delay (n_time), per energy (n_energy) or per point
 *   (n_time × n_energy), over the whole data; the window takes its part.
 *   The baseline spectrum, a mean of K rows, gets σ_b = √(Σ_k σ_k²)/K.
 *   Without σ the fit is unweighted and errors are scaled by χ²_ν (lmfit's
 *   and trspecfit's default); with σ they are not, unless scale_covar says
 *   YES (lmfit's default scales them also with weights; xrlab-fit.h,
 *   "Results"). Each result's fit->covar_scaled says which was done.
 *
 * Results list every model parameter: fitted ones with the optimizer's
 *   standard errors, expressions with errors propagated through the
 *   expression, √(gᵀ C g), g = ∂value/∂θ (xrlab_plan_param_gradients), C the
 *   covariance of θ; fixed parameters have no error (NaN).
 *
 * Cancellation: every stage takes a GCancellable; a cancelled fit returns
 *   FALSE with G_IO_ERROR_CANCELLED and still stores its best parameters so
 *   far (a cancelled SBS stores the slices done). Progress: an optional
 *   callback per iteration of a fit and per finished slice; during SBS it
 *   is called from the pool's threads, one call at a time.
 */
#pragma once

#include <gio/gio.h>

#include "xrlab-fit.h"
#include "xrlab-mcmc.h"
#include "xrlab-model.h"

G_BEGIN_DECLS

#define XRLAB_FITFLOW_ERROR (xrlab_fitflow_error_quark ())
GQuark xrlab_fitflow_error_quark (void);

typedef enum {
  XRLAB_FITFLOW_ERROR_SHAPE,          /* data and axes disagree in size */
  XRLAB_FITFLOW_ERROR_AXIS,           /* an axis not finite or not monotonic */
  XRLAB_FITFLOW_ERROR_WINDOW,         /* an empty fit or baseline window */
  XRLAB_FITFLOW_ERROR_DATA,           /* NaN or infinity inside the window */
  XRLAB_FITFLOW_ERROR_SIGMA,          /* σ of the wrong size or not positive */
  XRLAB_FITFLOW_ERROR_TOO_FEW_POINTS, /* fewer points than free parameters */
  XRLAB_FITFLOW_ERROR_MODEL,          /* a model that does not fit this stage */
  XRLAB_FITFLOW_ERROR_PARAM,          /* a named parameter that is not fitted */
} XrlabFitflowError;

typedef enum {
  XRLAB_FITFLOW_STAGE_BASELINE,
  XRLAB_FITFLOW_STAGE_SPECTRUM,
  XRLAB_FITFLOW_STAGE_SBS,
  XRLAB_FITFLOW_STAGE_2D,
  XRLAB_FITFLOW_STAGE_TRACE,    /* a slice-by-slice trace against delay */
} XrlabFitflowStage;

const char *xrlab_fitflow_stage_name (XrlabFitflowStage stage);   /* "baseline", ... */

/* @step: the iteration of a fit (0 = the start) with its χ², or for SBS the
 * number of slices done out of @total (χ² NaN). */
typedef void (*XrlabFitflowProgressFunc) (XrlabFitflowStage stage, guint step, guint total,
                                          double chi2, gpointer user_data);

typedef struct {
  const double *data;        /* n_rows × n_cols, row-major (referenced, keep it alive) */
  gsize n_rows, n_cols;      /* the shape of the data as read */
  const double *energy;      /* n_energy (copied) */
  gsize n_energy;
  const double *time;        /* n_time (copied), NULL for a single spectrum */
  gsize n_time;
  const double *aux;         /* n_aux (copied) for profiles, or NULL */
  gsize n_aux;
  /* names for messages ("data.csv"), NULL for "the data", "the energy
   * axis", "the delay axis" */
  const char *data_name, *energy_name, *time_name;
} XrlabFitflowData;

/* The current θ of a running baseline, spectrum or 2D fit (@names[k] is
 * θ_k), at the start and after every accepted step, with @progress_data. */
typedef void (*XrlabFitflowThetaFunc) (XrlabFitflowStage stage, const char *const *names,
                                       const double *theta, gsize p, gpointer user_data);

typedef struct {
  XrlabFitMethod method;
  guint n_threads;           /* parts of the SBS loop; 0: one per thread of the pool */
  gboolean pin_to_baseline;  /* see "Seeding" */
  gboolean track_peaks;      /* SBS: shift the x0 starts with the maximum (default TRUE) */
  XrlabFitflowProgressFunc progress;
  gpointer progress_data;
  XrlabFitflowThetaFunc progress_theta;   /* NULL: none */
  XrlabFitScaleCovar scale_covar;   /* errors scaled by χ²_ν (default AUTO, see above) */
} XrlabFitflowOptions;

void xrlab_fitflow_options_init (XrlabFitflowOptions *options);

/* One parameter of a result (every parameter of the model, in model order). */
typedef struct {
  char *name;
  double value;          /* the base value (before dynamics and profiles) */
  double std_error;      /* NaN when not estimated (fixed, singular covariance) */
  gboolean fitted;       /* free in this fit (in θ) */
  gboolean vary;         /* as written in the model (after pinning) */
  gboolean is_static;
  double min, max;
  char *expr;            /* NULL unless derived through an expression */
  XrlabParamRole role;
  XrlabParamShare share; /* project / file as written (joint fits, xrlab-project.h) */
} XrlabFitflowParam;

typedef struct _XrlabFitflowCtx XrlabFitflowCtx;

typedef struct {
  XrlabFitflowStage stage;
  XrlabFitResult *fit;       /* the optimizer's result over θ */
  gsize n_theta;
  char **theta_names;        /* θ in the optimizer's order (NULL-terminated) */
  gsize n_params;
  XrlabFitflowParam *params;
  XrlabModel *model;         /* the model at the fitted values */
  /* the part of the data that was fitted: rows [row0, row0 + n_rows) of
   * the data (for the baseline: the averaged rows) and energy columns
   * [col0, col0 + n_cols) */
  gsize row0, n_rows, col0, n_cols;
  /* the fitted data, n_rows × n_cols (baseline: 1 × n_cols): the fit's own
   * copy, kept by ctx, not a second one */
  const double *data;
  XrlabFitflowCtx *ctx;      /* private: what conf_interval needs */
} XrlabFitflowResult;

void xrlab_fitflow_result_free (XrlabFitflowResult *result);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (XrlabFitflowResult, xrlab_fitflow_result_free)

/* Index of the parameter called @name in @result->params, or −1. */
gssize xrlab_fitflow_result_find (const XrlabFitflowResult *result, const char *name);

typedef struct {
  gsize n_slices;
  gsize *row;                /* n_slices data rows */
  double *delay;             /* n_slices delays */
  gsize n_params;
  /* n_params (NULL-terminated), model order: every parameter except those
   * of time models (left out of slice fits) */
  char **names;
  gboolean *fitted;          /* n_params: free in the slice fits */
  double *values;            /* n_slices × n_params (NaN for slices not done) */
  double *errors;            /* n_slices × n_params */
  double *chi2, *redchi;     /* n_slices */
  guint *niter;              /* n_slices */
  XrlabFitStop *stop;        /* n_slices */
  gboolean *done;            /* n_slices: fitted to the end */
  gboolean *converged;       /* n_slices: the optimizer converged */
  gsize n_points;            /* per slice (the energies of the window) */
  double wall_s;
} XrlabFitflowSbs;

void xrlab_fitflow_sbs_free (XrlabFitflowSbs *sbs);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (XrlabFitflowSbs, xrlab_fitflow_sbs_free)

typedef struct _XrlabFitflow XrlabFitflow;

/* Checks the shapes (the data's columns are the energies, its rows the
 * delays, or one row without a delay axis; every message names the file
 * and the sizes) and the axes. The window starts as the whole data. */
XrlabFitflow *xrlab_fitflow_new (const XrlabFitflowData *data, GError **error);
void          xrlab_fitflow_free (XrlabFitflow *flow);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (XrlabFitflow, xrlab_fitflow_free)

void xrlab_fitflow_set_options (XrlabFitflow *flow, const XrlabFitflowOptions *options);

/* Sets the fit window (see above; NaN: open). Errors: a window holding no
 * energy or no delay, NaN or infinity in the data inside it (naming row,
 * column, delay and energy). */
gboolean xrlab_fitflow_set_window (XrlabFitflow *flow, double e0, double e1, double t0,
                                   double t1, GError **error);
/* The window as index ranges of the data. */
void     xrlab_fitflow_get_window (const XrlabFitflow *flow, gsize *row0, gsize *n_rows,
                                   gsize *col0, gsize *n_cols);

/* σ over the whole data (copied): XRLAB_FIT_SIGMA_SCALAR (1 value), _ROWS
 * (n_time), _COLUMNS (n_energy), _FULL (n_time × n_energy) or _NONE.
 * Values inside the window must be finite and positive. */
gboolean xrlab_fitflow_set_sigma (XrlabFitflow *flow, XrlabFitSigmaKind kind,
                                  const double *sigma, gsize n_sigma, GError **error);

/* The result later stages start from (set by fit_baseline; NULL clears it).
 * Only names and values are kept. */
void     xrlab_fitflow_set_seed (XrlabFitflow *flow, const XrlabFitflowResult *baseline);

/* The model @stage starts from: a copy of @model with the seed applied and,
 * with pin_to_baseline, pinned (see "Seeding"; the baseline stage takes
 * @model as it is). NULL with an error naming a parameter whose baseline
 * value lies outside its bounds in @model. */
XrlabModel *xrlab_fitflow_seeded_model (XrlabFitflow *flow, XrlabFitflowStage stage,
                                        const XrlabModel *model, GError **error);

/* Every check a stage makes before it starts (the model on the stage's
 * axes, the baseline window, points against free parameters, NaN in the
 * data it uses), without fitting: a workflow checks all its stages first.
 * @b0, @b1 are the baseline delays (BASELINE), @row the data row
 * (SPECTRUM); otherwise ignored. Pinning is applied as the stage would
 * apply it: with the parameter names of @baseline_model (a baseline stage
 * that is still to run; no values change), or with the current seed when
 * @baseline_model is NULL. */
gboolean xrlab_fitflow_check (XrlabFitflow *flow, XrlabFitflowStage stage,
                              const XrlabModel *model, double b0, double b1, gsize row,
                              const XrlabModel *baseline_model, GError **error);

/* The stages. Each returns TRUE and a new result in @result; on
 * cancellation FALSE with G_IO_ERROR_CANCELLED and the best result so far
 * still in @result; on any other error FALSE and *result = NULL. */
gboolean xrlab_fitflow_fit_baseline (XrlabFitflow *flow, const XrlabModel *model, double b0,
                                     double b1, GCancellable *cancellable,
                                     XrlabFitflowResult **result, GError **error);
gboolean xrlab_fitflow_fit_spectrum (XrlabFitflow *flow, const XrlabModel *model, gsize row,
                                     GCancellable *cancellable,
                                     XrlabFitflowResult **result, GError **error);
gboolean xrlab_fitflow_fit_sbs (XrlabFitflow *flow, const XrlabModel *model,
                                GCancellable *cancellable, XrlabFitflowSbs **result,
                                GError **error);
gboolean xrlab_fitflow_fit_2d (XrlabFitflow *flow, const XrlabModel *model,
                               GCancellable *cancellable, XrlabFitflowResult **result,
                               GError **error);

/* Fits the slice-by-slice trace of parameter @param (its values against
 * delay in @sbs, weighted by their errors) with the time dependence that
 * @model attaches to it:
 *   p(t_s) = K_n … K_1 [p + Σ_k m_k(t_s) f_k(τ_k(t_s))]
 * on the delays t_s of the slices (xrlab-plan.h; kernels act on the trace
 * over those delays). Fitted are p itself when it is free in @model
 * (starting from the baseline result when there is one, like the 2D fit)
 * and the free parameters of its time dependence. Slices not done, or
 * without a finite error > 0, are left out. The result (stage TRACE)
 * lists @param and its time model's parameters; its data are the trace
 * (n_rows slices × 1); its model is @model with the fitted values, to
 * start a 2D fit from (xrlab_fitflow_fit_2d then takes the energy
 * parameters from the baseline and the time model from here). The
 * options' method, scale_covar and progress apply; confidence intervals
 * work as for the other stages. Errors: @param not fitted slice by slice
 * or without time dependence in @model, fewer usable slices than free
 * parameters. */
gboolean xrlab_fitflow_fit_trace (XrlabFitflow *flow, const XrlabFitflowSbs *sbs,
                                  const XrlabModel *model, const char *param,
                                  GCancellable *cancellable, XrlabFitflowResult **result,
                                  GError **error);

/* Profile-likelihood confidence intervals (xrlab_fit_conf_interval) of the
 * fitted parameters @names of a converged @result at the levels @sigmas
 * (NULL: 1, 2, 3). A name that is not fitted in @result is an error
 * naming it. */
XrlabFitCI *xrlab_fitflow_conf_interval (XrlabFitflowResult *result,
                                         const char *const *names, gsize n_names,
                                         const double *sigmas, gsize n_sigmas,
                                         GCancellable *cancellable, GError **error);

/* MCMC uncertainties (xrlab-mcmc.h) of the fitted parameters of a stage
 * (baseline, spectrum, 2D, trace): the stage's residual, its data and σ,
 * its bounds as priors, the walkers starting around @result's values with
 * a tenth of its standard errors; with noise AUTO the σ are taken as known
 * when the stage had them and the noise scale is sampled otherwise
 * (starting at √χ²_ν unless sigma_ini is given; trspecfit's is_weighted
 * False). The walkers of a half-step are evaluated in parallel on the pool.
 * Not for the per-file results of a joint fit. */
gboolean xrlab_fitflow_mcmc (XrlabFitflowResult *result, const XrlabMcmcOptions *options,
                             GCancellable *cancellable, XrlabMcmcResult **mcmc,
                             GError **error);

/* The model of @result evaluated on the whole data axes (delays × energies
 * of the data; one row for a 1D stage): a new array of @n_rows × @n_cols. */
double *xrlab_fitflow_result_model (XrlabFitflow *flow, const XrlabFitflowResult *result,
                                    gsize *n_rows, gsize *n_cols, GError **error);

G_END_DECLS
