/* xrlab-fit.h -- nonlinear least squares: Levenberg–Marquardt on analytic
 * Jacobians, with bounds, weights, uncertainties and profile-likelihood
 * confidence intervals
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The problem
 * -----------
 * A model m(θ) of n points over p parameters θ (the "external" parameters, in
 * the units the scientist reads) is fitted to data y with optional standard
 * deviations σ. The residual of point i is
 *
 *     r_i(θ) = (m_i(θ) − y_i) / σ_i          (y_i = 0 when there is no data:
 *                                             the callback returns r itself)
 *
 * and the fit minimises χ²(θ) = Σ_i r_i². The model is given by callbacks: the
 * model values m(θ) (n numbers) and the analytic Jacobian ∂m_i/∂θ_j (n × p,
 * row-major). Nothing is copied: the callbacks write straight into the
 * solver's residual vector and Jacobian matrix, which are then weighted and
 * transformed in one pass.
 *
 * Bounds (the MINUIT transform, exactly as lmfit applies it)
 * ----------------------------------------------------------
 * The solver works in unbounded internal variables u; each external parameter
 * with bounds is a smooth function of its internal variable:
 *
 *     [min, max]:  θ = min + (sin u + 1)(max − min)/2,  u = asin(2(θ − min)/(max − min) − 1)
 *                  dθ/du = cos u · (max − min)/2
 *     [min, ∞):    θ = min − 1 + √(u² + 1),             u = √((θ − min + 1)² − 1)
 *                  dθ/du = u / √(u² + 1)
 *     (−∞, max]:   θ = max + 1 − √(u² + 1),             u = √((max − θ + 1)² − 1)
 *                  dθ/du = −u / √(u² + 1)
 *     unbounded:   θ = u
 *
 * (|u| < 1e−300 is set to 0, as lmfit does.) The chain rule gives the Jacobian
 * the solver sees: ∂r_i/∂u_j = (1/σ_i) · ∂m_i/∂θ_j · dθ_j/du_j. As in lmfit, a
 * starting value exactly on a bound has dθ/du = 0 there (or ≈ 6e−17 for two
 * bounds), so that parameter cannot leave the bound: start inside.
 * A starting value outside its bounds is an error naming the parameter.
 *
 * The solver
 * ----------
 * GSL's trust-region driver gsl_multifit_nlinear with the Levenberg–Marquardt
 * subproblem (trs_lm; trs_lmaccel for geodesic acceleration, its second
 * directional derivative by GSL's finite differences with h_fvv = 0.02) and
 * Moré scaling, D_jj = max over iterations of ‖J_j‖ (the column norm), which
 * makes the steps invariant to the units of each parameter. The iterations
 * are driven by hand (gsl_multifit_nlinear_iterate + tests) so a GCancellable
 * stops a fit between model evaluations and a callback sees each iteration.
 *
 * Each iteration solves (JᵀJ + μDᵀD) δ = −Jᵀr for a few values of μ.
 * With n ≫ p (a 2D fit has ~240 000 residuals and ~10 parameters) the choice
 * of linear solver decides the speed:
 *   - QR (GSL's qr solver) factors the n × p Jacobian for every new Jacobian:
 *     2np² flops and an n × p copy, ~50 ms at 240 000 × 10 here.
 *   - Cholesky of the normal equations forms JᵀJ once per Jacobian (np²/2
 *     flops, one pass over J) and then factors only p × p matrices for each μ.
 *     GSL's own cholesky solver forms JᵀJ with gslcblas' dsyrk, which walks the
 *     row-major J column by column (~38 ms for 240 000 × 10); xrlab plugs a
 *     solver of the same method into GSL's public solver interface that
 *     accumulates JᵀJ row by row in the same pass that applies the weights and
 *     the bound transform to J (~5 ms), equilibrates it (Sᵢᵢ = 1/√(JᵀJ)ᵢᵢ) and
 *     factors it with GSL's modified Cholesky (safe when μ = 0 meets rounding).
 *     Its Moré scaling takes the column norms from the same JᵀJ diagonal
 *     instead of p strided passes over J.
 * XRLAB_FIT_SOLVER_CHOLESKY is the default; squaring the condition number only
 * affects the step, not the minimum it converges to, and the covariance below
 * is computed separately with a check of the conditioning. XRLAB_FIT_SOLVER_QR
 * is there for comparison and for pathological Jacobians.
 *
 * Stopping. The defaults reproduce the NIST StRD certified values to ≥ 6
 * significant digits on every problem but one start of BoxBOD (see
 * tests/test-nist-strd.c); u are the internal variables, g = Jᵀr:
 *   xtol (1e−12): the step δ satisfies |δu_j| < xtol·(|u_j| + xtol) for all j
 *     (GSL's test) — tested on each accepted step and also on the first
 *     trial of every iteration before the model is evaluated there;
 *   rounding: the first trial's predicted decrease of χ², at most −2δᵀg, is
 *     below 1e−15·χ² (≈ ten rounding units of χ²): the step could not be told
 *     from no change, the fit is at the minimum as far as χ² can resolve it
 *     (≈ √(1e−15·ν) standard errors). This is the usual end; without it GSL
 *     would evaluate and reject 16 ever smaller steps (16 model evaluations);
 *   gtol (0, off): max_j |g_j · max(u_j, 1)| ≤ gtol · max(χ²/2, 1) (GSL's
 *     test; not scale invariant: it is absolute when χ² < 2 and stopped
 *     Lanczos1 short, hence off by default);
 *   ftol (0, off): χ²_previous − χ² ≤ ftol · χ²_previous;
 *   no progress: GSL found no acceptable step in 16 tries — converged as far
 *     as rounding allows;
 *   max_iter (10 000; MGH10 from its first start needs 7 643): not converged.
 * The geodesic-acceleration variant applies the first-trial tests to the
 * velocity, read off GSL's first evaluation at u + h_fvv·δ.
 *
 * Results (computed as lmfit does, at the solution, in external parameters)
 * -------------------------------------------------------------------------
 *   N = n points, k = free parameters, ν = max(1, N − k)
 *   χ² = Σ r_i²,  χ²_ν = χ² / ν
 *   covariance C = (J_θᵀ J_θ)⁻¹ · s, J_θ the weighted Jacobian ∂r/∂θ at the
 *     solution in external parameters (the same as lmfit's transform of the
 *     internal covariance, C_ext = C_int · (dθ/du)(dθ/du)ᵀ); the scale s
 *     follows XrlabFitOptions.scale_covar: by default (AUTO) s = χ²_ν without
 *     σ and s = 1 with σ (the σ are then taken as the true uncertainties);
 *     YES always scales by χ²_ν (lmfit's scale_covar=True, lmfit's and so
 *     trspecfit's default, also with weights); NO never (lmfit's
 *     scale_covar=False). XrlabFitResult.covar_scaled says which was done.
 *     C comes from the equilibrated normal equations S JᵀJ S (S = diag(JᵀJ)^−½,
 *     JᵀJ the one formed with the last Jacobian, so no further pass over J)
 *     when their condition number κ satisfies κ·ε ≤ 1e−10 (C then carries
 *     ≥ 9 correct digits), and from a Householder QR of the equilibrated J
 *     otherwise, streamed over blocks of 256 rows (no n × p copy).
 *   standard error e_j = √C_jj, correlation ρ_jk = C_jk / (e_j e_k)
 *   R² = 1 − Σ w_i(y_i − m_i)² / Σ w_i(y_i − ȳ)², w_i = 1/σ_i², ȳ the
 *     w-weighted mean of y (lmfit's 1 − Σr²/Σ(y − ȳ)² when unweighted)
 *   AIC = N ln(χ²/N) + 2k,  BIC = N ln(χ²/N) + k ln N   (χ² floored at
 *     1e−250·N as in lmfit)
 *
 * Confidence intervals (lmfit's conf_interval)
 * --------------------------------------------
 * For parameter j and a target probability P (σ-level s: P = erf(s/√2); a
 * level below 1 is taken as P itself), θ_j is fixed at trial values t, the
 * other parameters are refitted from the best fit, and the F-test gives
 *
 *     P(t) = F_cdf( (χ²(t)/χ²_best − 1) · (N − k) / 1 ;  1, N − k )
 *
 * The search steps away from the best value by e_j (or max(0.2|θ_j|, 0.001)
 * when e_j is 0 or ≥ |θ_j|) until P reaches the largest target, a bound is hit,
 * P stops rising (relative change < 1e−5) or 200 steps pass; each crossing
 * P(t) = P_target is then found with Brent's method inside the bracket (lmfit
 * uses TOMS 748 with rtol 0.5e−4; here |Δt| ≤ 1e−6·e_j). Targets beyond
 * the reached probability are ±∞.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define XRLAB_FIT_ERROR (xrlab_fit_error_quark ())
GQuark xrlab_fit_error_quark (void);

typedef enum {
  XRLAB_FIT_ERROR_INVALID,        /* inconsistent problem: sizes, callbacks, bounds min ≥ max */
  XRLAB_FIT_ERROR_EMPTY,          /* no points to fit (an empty fit window) */
  XRLAB_FIT_ERROR_TOO_FEW_POINTS, /* fewer points than free parameters */
  XRLAB_FIT_ERROR_DATA,           /* NaN/inf in the data, σ not finite or ≤ 0 */
  XRLAB_FIT_ERROR_START,          /* a starting value not finite or outside its bounds */
  XRLAB_FIT_ERROR_MODEL,          /* the model or its Jacobian failed or is not finite */
  XRLAB_FIT_ERROR_FAILED,         /* the linear algebra failed */
} XrlabFitError;

/* Fills @model (n values) with m(@theta). @theta holds the p external values.
 * Returns FALSE with @error set to stop the fit. Called from the thread that
 * runs the fit, never concurrently for one XrlabFit. */
typedef gboolean (*XrlabFitModelFunc) (const double *theta, double *model,
                                       gpointer user_data, GError **error);

/* Fills @jac (n × p, row-major: jac[i*p + j] = ∂m_i/∂θ_j) at @theta. */
typedef gboolean (*XrlabFitJacobianFunc) (const double *theta, double *jac,
                                          gpointer user_data, GError **error);

/* Called after the start (@iter 0) and after every accepted step with χ² and
 * the p external parameter values (valid during the call only). */
typedef void (*XrlabFitProgressFunc) (guint iter, double chi2, const double *theta,
                                      gsize p, gpointer user_data);

typedef enum {
  XRLAB_FIT_SIGMA_NONE,     /* unweighted; errors scaled by χ²_ν */
  XRLAB_FIT_SIGMA_SCALAR,   /* sigma[0] for every point */
  XRLAB_FIT_SIGMA_ROWS,     /* sigma[r] for row r of the n_rows × n_cols layout (per delay) */
  XRLAB_FIT_SIGMA_COLUMNS,  /* sigma[c] for column c (per energy) */
  XRLAB_FIT_SIGMA_FULL,     /* sigma[i] for point i (a full n_rows × n_cols matrix) */
} XrlabFitSigmaKind;

typedef struct {
  gsize n;                        /* points (residuals) */
  gsize p;                        /* parameters */
  /* Layout of the n points, row-major: n_rows × n_cols = n (delays × energies).
   * Both 0 means one row of n. Used by per-row/column σ and in messages. */
  gsize n_rows, n_cols;
  XrlabFitModelFunc model;        /* required */
  XrlabFitJacobianFunc jacobian;  /* NULL only with XRLAB_FIT_METHOD_FD */
  gpointer user_data;
  /* n observations, or NULL when the model callback returns the residuals
   * (then R² is NaN). Referenced, not copied: keep it alive with the fit. */
  const double *data;
  const char *const *names;       /* p names (copied), or NULL for "p1", "p2", ... */
  const double *lower;            /* p lower bounds (copied), −INFINITY for none; NULL: none */
  const double *upper;            /* p upper bounds (copied), INFINITY for none; NULL: none */
  XrlabFitSigmaKind sigma_kind;
  const double *sigma;            /* as sigma_kind says (read at xrlab_fit_new only) */
} XrlabFitProblem;

typedef enum {
  XRLAB_FIT_METHOD_LM,        /* Levenberg–Marquardt on the analytic Jacobian */
  XRLAB_FIT_METHOD_LM_ACCEL,  /* ... with geodesic acceleration */
  XRLAB_FIT_METHOD_FD,        /* LM on a forward-difference Jacobian (for comparison only) */
} XrlabFitMethod;

typedef enum {
  XRLAB_FIT_SOLVER_CHOLESKY,  /* normal equations, JᵀJ formed row-wise (default) */
  XRLAB_FIT_SOLVER_QR,        /* GSL's QR solver */
} XrlabFitSolver;

/* The scale of the covariance (see "Results"). */
typedef enum {
  XRLAB_FIT_SCALE_COVAR_AUTO,  /* by χ²_ν without σ, not with σ (the default) */
  XRLAB_FIT_SCALE_COVAR_YES,   /* always by χ²_ν (lmfit's default scale_covar=True) */
  XRLAB_FIT_SCALE_COVAR_NO,    /* never (lmfit's scale_covar=False) */
} XrlabFitScaleCovar;

/* Parses "auto", "yes" and "no" (the tokens users type). */
gboolean xrlab_fit_scale_covar_from_string (const char *text, XrlabFitScaleCovar *scale);

typedef struct {
  XrlabFitMethod method;
  XrlabFitSolver solver;
  double xtol, gtol, ftol;    /* see "Stopping" above */
  guint max_iter;
  XrlabFitProgressFunc progress;
  gpointer progress_data;
  XrlabFitScaleCovar scale_covar;
} XrlabFitOptions;

/* Fills @options with the defaults. */
void xrlab_fit_options_init (XrlabFitOptions *options);

typedef enum {
  XRLAB_FIT_STOP_XTOL,         /* the step became small */
  XRLAB_FIT_STOP_GTOL,         /* the gradient became small */
  XRLAB_FIT_STOP_FTOL,         /* χ² stopped decreasing */
  XRLAB_FIT_STOP_ROUNDING,     /* the next step would change χ² below its rounding */
  XRLAB_FIT_STOP_NO_PROGRESS,  /* no step lowers χ² within rounding */
  XRLAB_FIT_STOP_MAX_ITER,     /* the iteration limit */
  XRLAB_FIT_STOP_CANCELLED,    /* the GCancellable */
} XrlabFitStop;

/* A short English sentence, translated. */
const char *xrlab_fit_stop_to_string (XrlabFitStop stop);

typedef struct {
  gsize p;              /* parameters */
  gsize ndata;          /* N */
  gsize nfree;          /* N − k */
  double *values;       /* p fitted values (external) */
  double *errors;       /* p standard errors (NaN when not available) */
  double *covar;        /* p × p covariance, row-major */
  double *correl;       /* p × p correlation, row-major */
  gboolean *at_bound;   /* p: the value sits on (within 1e−8 of the range of) a bound */
  gboolean errors_valid;/* the covariance could be computed (J has full rank) */
  gboolean converged;   /* stopped by xtol/rounding/gtol/ftol/no progress */
  gboolean weighted;    /* σ were given (errors not scaled by χ²_ν) */
  double chi2, redchi, r2, aic, bic;
  double chi2_start;    /* χ² at the starting values */
  guint niter, nfev, njev;
  XrlabFitStop stop;
  const char *message;  /* xrlab_fit_stop_to_string (stop) */
  double wall_s;        /* seconds from the start of xrlab_fit_run to its return */
  gboolean covar_scaled;/* covar and errors were scaled by χ²_ν (see scale_covar) */
} XrlabFitResult;

void xrlab_fit_result_free (XrlabFitResult *result);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (XrlabFitResult, xrlab_fit_result_free)

typedef struct _XrlabFit XrlabFit;

/* Checks the problem before any work (the data and σ finite, σ > 0, n > 0,
 * n ≥ p, bounds min < max, names unique) and allocates the solver workspace
 * for it (O(n·p) memory), to be used for any number of fits with different
 * starting values. @options NULL: the defaults. */
XrlabFit *xrlab_fit_new (const XrlabFitProblem *problem, const XrlabFitOptions *options,
                         GError **error);
void xrlab_fit_free (XrlabFit *fit);

/* Non-zero from the moment a running fit of @fit is cancelled until the
 * optimizer has stopped (never during the evaluations at the start and at
 * the end): a model callback may test it (any thread, g_atomic_int_get) to
 * cut a long evaluation short -- the fit then discards that evaluation and
 * stops with the last accepted point, its errors not estimated when the
 * Jacobian was the one cut short. */
const gint *xrlab_fit_abort_flag (const XrlabFit *fit);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (XrlabFit, xrlab_fit_free)

/* Replaces the data and σ of the problem (same n, layout and model), with
 * the checks of xrlab_fit_new: a workspace serves a series of fits of the
 * same model to different data (the slices of a slice-by-slice fit). The
 * data are referenced; σ is read now. On error the fit keeps its previous
 * data and σ. */
gboolean    xrlab_fit_set_data (XrlabFit *fit, const double *data,
                                XrlabFitSigmaKind sigma_kind, const double *sigma,
                                GError **error);

gsize       xrlab_fit_get_n_params (XrlabFit *fit);
const char *xrlab_fit_get_param_name (XrlabFit *fit, gsize j);
/* The index of the parameter called @name, or −1. */
gssize      xrlab_fit_find_param (XrlabFit *fit, const char *name);

/* Fits from the external starting values @theta0 (p). Not re-entrant: one
 * fit at a time per XrlabFit (use one XrlabFit per thread). On success returns TRUE
 * and stores a new result in @result. When @cancellable is cancelled, the fit
 * stops before the next model evaluation and returns FALSE with
 * G_IO_ERROR_CANCELLED, and STILL stores in @result the best parameters found
 * so far (stop = XRLAB_FIT_STOP_CANCELLED; statistics and errors at those
 * parameters). Any other error: FALSE and *result = NULL. */
gboolean xrlab_fit_run (XrlabFit *fit, const double *theta0, GCancellable *cancellable,
                        XrlabFitResult **result, GError **error);

typedef struct {
  gsize n_params;       /* parameters analysed */
  gsize n_sigmas;       /* levels */
  gsize *params;        /* n_params indices into θ */
  double *sigmas;       /* n_sigmas levels, ascending (as given: 1, 2, 3 or probabilities) */
  double *probs;        /* n_sigmas target probabilities */
  double *best;         /* n_params best-fit values */
  /* [a * n_sigmas + s]: the value of parameter a where P = probs[s] below and
   * above the best value; −∞ / +∞ when P never reached it before a bound or
   * the search limit; NaN when the root search failed. */
  double *lower;
  double *upper;
  guint nfits;          /* refits performed */
} XrlabFitCI;

void xrlab_fit_ci_free (XrlabFitCI *ci);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (XrlabFitCI, xrlab_fit_ci_free)

/* Profile-likelihood confidence intervals (see above) for the parameters
 * @params (@n_params indices) at the levels @sigmas (@n_sigmas; NULL: 1, 2, 3),
 * around the converged result @best of this fit. Needs valid standard errors.
 * Cancellable between refits (G_IO_ERROR_CANCELLED, nothing returned). */
XrlabFitCI *xrlab_fit_conf_interval (XrlabFit *fit, const XrlabFitResult *best,
                                     const gsize *params, gsize n_params,
                                     const double *sigmas, gsize n_sigmas,
                                     GCancellable *cancellable, GError **error);

G_END_DECLS
