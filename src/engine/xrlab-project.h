/* xrlab-project.h -- several measurements fitted jointly with one model
 * (trspecfit's Project.fit_2d)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   for each file:
 *     flow[f] = xrlab_fitflow_new (&data[f])        its own data, axes, σ, window
 *     xrlab_fitflow_fit_baseline (flow[f], base, …)  its own baseline
 *   project = xrlab_project_new ()
 *   xrlab_project_add_file (project, flow[f], "data_1") …
 *   xrlab_project_fit_2d (project, model_2d, NULL, &result, &error)
 *
 * The model's parameters (xrlab-model.h, vary) become, in the joint fit:
 *   project       one value shared by all files (θ_s);
 *   file, True    one value per file (θ_f);
 *   False, static fixed, per file, at that file's baseline value (the
 *                 seeding of a single file's 2D fit, xrlab-fitflow.h).
 * Every file starts from its own baseline result as its 2D fit would; a
 * project parameter starts from the first file's value. Expressions are
 * evaluated per file, on that file's values and the shared ones.
 *
 * The fit minimises χ² = Σ_f χ²_f over all files' residuals (each file's
 * window, its own σ) with Levenberg–Marquardt on analytic Jacobians, bounds
 * by the transform of xrlab-fit.h. Its normal equations have the arrowhead
 * structure
 *
 *        [ A    B_1  B_2  … ]        A   = Σ_f J_fsᵀ J_fs   (shared × shared)
 *   JᵀJ = [ B_1ᵀ D_1        ]        B_f = J_fsᵀ J_ff       (shared × file f)
 *        [ B_2ᵀ      D_2    ]        D_f = J_ffᵀ J_ff       (file f × file f)
 *        [ ⋮            ⋱  ]
 *
 * and each step (JᵀJ + μ diag) δ = −Jᵀr is solved through the Schur
 * complement S = A' − Σ_f B_f D_f'⁻¹ B_fᵀ: Cholesky factors of the small
 * D_f' and of S, never a dense Jacobian over all files (each file's
 * Jacobian has only its own columns and the shared ones). Every evaluation
 * runs the files in parallel on the thread pool, each its own plan; the
 * result does not depend on the number of threads. The step acceptance
 * and damping follow Nielsen's rule (μ ← μ·max(1/3, 1 − (2ρ − 1)³) on
 * success, μ ← μν, ν ← 2ν on failure) with Moré's scaling
 * D_jj = max over iterations of (JᵀJ)_jj; the stops are those of
 * xrlab-fit.h (xtol on the step, the rounding test on the predicted
 * decrease, 16 rejected steps, max_iter).
 *
 * The covariance of all parameters is the inverse of the arrowhead matrix
 * in external parameters, by blocks (C_ss = S⁻¹, C_fs = −D_f⁻¹B_fᵀC_ss,
 * C_ff = D_f⁻¹ + D_f⁻¹B_fᵀC_ssB_fD_f⁻¹), scaled by the joint χ²_ν as
 * scale_covar says (xrlab-fit.h; AUTO: unless every file has σ).
 *
 * Results: the shared parameters with their errors, the joint χ² (N = all
 * points, k = all free parameters, ν = N − k), and for every file an
 * XrlabFitflowResult like a single 2D fit's: every parameter of the model
 * at the file's values, errors from the joint covariance, the file's own
 * χ², χ²_ν (ν_f = N_f − k_f, k_f the file's free parameters, shared ones
 * included), R², its data and model; its params say which are shared
 * (XrlabFitflowParam.share). Confidence intervals are not offered for
 * joint fits.
 */
#pragma once

#include <gio/gio.h>

#include "xrlab-fitflow.h"

G_BEGIN_DECLS

#define XRLAB_PROJECT_ERROR (xrlab_project_error_quark ())
GQuark xrlab_project_error_quark (void);

typedef enum {
  XRLAB_PROJECT_ERROR_EMPTY,          /* no files */
  XRLAB_PROJECT_ERROR_FILE,           /* a file's stage cannot be prepared (message names it) */
  XRLAB_PROJECT_ERROR_TOO_FEW_POINTS, /* fewer points than free parameters */
  XRLAB_PROJECT_ERROR_FAILED,         /* the model or the linear algebra failed */
} XrlabProjectError;

typedef struct {
  guint max_iter;                  /* 0: 10 000 */
  double xtol;                     /* 0: 1e−12 */
  XrlabFitScaleCovar scale_covar;
  XrlabFitflowProgressFunc progress;  /* stage 2D, iteration, 0, χ² */
  gpointer progress_data;
} XrlabProjectOptions;

void xrlab_project_options_init (XrlabProjectOptions *options);

typedef struct {
  gsize n_files;
  char **file_names;               /* n_files (NULL-terminated) */
  XrlabFitflowResult **files;      /* n_files: each file's result (see above) */
  gsize n_shared;
  char **shared_names;             /* the project parameters in θ (NULL-terminated) */
  double *shared_values, *shared_errors;
  gsize n_theta;                   /* all free parameters: shared + per file */
  gsize ndata, nfree;
  double chi2, redchi, aic, bic, chi2_start;
  guint niter, nfev, njev;
  XrlabFitStop stop;
  gboolean converged;
  gboolean errors_valid;
  gboolean covar_scaled;           /* errors scaled by the joint χ²_ν */
  double wall_s;
} XrlabProjectResult;

void xrlab_project_result_free (XrlabProjectResult *result);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (XrlabProjectResult, xrlab_project_result_free)

typedef struct _XrlabProject XrlabProject;

XrlabProject *xrlab_project_new  (void);
void          xrlab_project_free (XrlabProject *project);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (XrlabProject, xrlab_project_free)

void xrlab_project_set_options (XrlabProject *project, const XrlabProjectOptions *options);

/* Adds a file: its fit workflow with data, window, σ and (usually) its
 * baseline result as seed. The workflow is referenced: keep it alive and
 * unchanged while the project fits. @name (copied) names the file in
 * messages and results. Returns its index. */
gsize xrlab_project_add_file (XrlabProject *project, XrlabFitflow *flow, const char *name);
gsize xrlab_project_n_files  (const XrlabProject *project);

/* The joint 2D fit of @model to every file (see above). TRUE and a new
 * result; on cancellation FALSE with G_IO_ERROR_CANCELLED and the best
 * parameters so far still in @result; on any other error FALSE and
 * *result = NULL. Every file's stage is checked before any fit. */
gboolean xrlab_project_fit_2d (XrlabProject *project, const XrlabModel *model,
                               GCancellable *cancellable, XrlabProjectResult **result,
                               GError **error);

G_END_DECLS
