/* xrlab-plan.h -- a model compiled for evaluation: evaluate (plan, θ) and its Jacobian
 *
 * A plan freezes a model (xrlab-model.h) on an energy axis, an optional
 * delay axis and an optional auxiliary axis into packed arrays: parameter
 * rows, expression programs, dynamics groups, kernel operators, component
 * ops. It is immutable: threads may share one plan, each with its own
 * workspace.
 *
 * θ and its order
 *   θ holds the free parameters: those written with vary True (or project,
 *   file) that are not expressions, in model order (xrlab-model.h: the energy
 *   components in file order, each parameter followed by the parameters of
 *   its time dependence, then of its profile, then of the time dependence of
 *   its profile's parameters). Parameters of time dependence or profiles that
 *   a plan leaves out (XRLAB_PLAN_IGNORE_*) are held at their values and are
 *   not in θ. Bounds are reported, not enforced: the fitter maps them.
 *
 * Output
 *   A 2D plan (delay axis given) writes the model as a row-major
 *   n_delay × n_energy matrix: out[i * n_energy + e] at delay i and energy e
 *   (the layout of trspecfit's data.csv). A 1D plan writes n_energy values.
 *   n_data = n_rows × n_energy with n_rows = n_delay or 1.
 *
 * Jacobian
 *   jac is row-major n_data × n_theta: jac[d * n_theta + k] = ∂out[d]/∂θ_k,
 *   the layout of gsl_multifit_nlinear's J (a gsl_matrix with tda = n_theta).
 *   It is analytic: through expressions, time functions, subcycles, kernels,
 *   profiles and the Shirley background. Weights are the fitter's business.
 *
 * Evaluation, per delay t_i (the value of every parameter at that delay,
 * and at aux point a for profiled ones):
 *   model = sum of the components; a profiled component is the mean of the
 *   component over the aux points; Shirley uses the sum S of all peaks.
 *
 * Time dependence of a parameter p (xrlab-model.h):
 *   trace(t_i) = p + sum_k m_k(t_i) f_k(tau_k(t_i)), then each kernel in turn.
 *   A function of the first time model (subcycle 0) sees tau = t, m = 1. With
 *   N = n_models - 1 subcycles and frequency f, the clock restarts every
 *   T = 1/(f N) from delay 0: for t >= 0, c = floor(t/T), the function of
 *   model k (k >= 1) sees tau = t - c T and m = 1 where (c mod N) + 1 = k,
 *   else m = 0; before delay 0, m = 0 (trspecfit's normalize_time).
 *
 * Kernels on a delay axis t_0 < ... < t_{n-1} (any spacing):
 *   (K y)_i = [sum_j g(t_i - t_j) w_j y_j + L_i y_0 + R_i y_{n-1}] / S_i
 *   with trapezoid weights w_0 = (t_1 - t_0)/2, w_j = (t_{j+1} - t_{j-1})/2,
 *   w_{n-1} = (t_{n-1} - t_{n-2})/2, the exact kernel mass beyond each end
 *   of the axis applied to the end values (the trace is taken constant
 *   there), L_i = ∫_{t_i - t_0}^{∞} g(u) du, R_i = ∫_{-∞}^{t_i - t_{n-1}} g(u) du,
 *   and S_i the sum of the row's weights: every row sums to one, so a
 *   constant stays constant and nothing droops at the edges. Kernels need a
 *   strictly increasing delay axis.
 *
 * Profiles: value(t, a) = trace(t) + sum of the profile functions at aux[a],
 *   their parameters taken at delay t where they have time dependence of
 *   their own (trspecfit's example 04: a band-bending gradient that follows a
 *   time model); that time dependence is left out with the profile.
 *
 * Relation to trspecfit (whose definitions these follow; where it and
 * xrlab's specification differ, the specification wins):
 *  - time functions have no y0 offset (trspecfit's released functions add
 *    one after t0; its current test models drop it; stepFun covers it);
 *  - kernels use true trapezoid weights (half steps at the ends) plus the
 *    exact kernel mass beyond each end; kernels of all models of a time
 *    dependence act on the whole trace, in the order listed;
 *  - two time models (one subcycle, N = 1) are allowed: the second then
 *    repeats every 1/f (trspecfit refuses N = 1); a frequency with a single
 *    model is refused (trspecfit would divide by zero);
 *  - Shirley integrates the sum of all peaks wherever it is listed (as
 *    trspecfit's compiled plans do); a background as the last component is
 *    still refused, as the model files require;
 *  - θ is in model order, each parameter followed by those of its time
 *    dependence and profile, then by those of the time dependence of its
 *    profile's parameters: trspecfit lists a component's parameters in its
 *    function's order, appends a parameter's time dependence to it and, for
 *    a profile's parameter, appends that time dependence to the list of the
 *    parameter the profile describes, which is this order. trspecfit refuses
 *    time dependence and a profile on the same parameter; xrlab evaluates
 *    both (time dependence first, then the profile).
 *
 * Ops whose inputs are all fixed are computed when the plan is built;
 * components whose parameters do not change with delay are computed once per
 * call as one spectrum. No call allocates memory.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "xrlab-model.h"

G_BEGIN_DECLS

#define XRLAB_PLAN_ERROR (xrlab_plan_error_quark ())
GQuark xrlab_plan_error_quark (void);

typedef enum {
  XRLAB_PLAN_ERROR_AXIS,    /* an axis that is empty, not finite, or not increasing */
  XRLAB_PLAN_ERROR_MODEL,   /* a model this plan cannot evaluate (message names the parameter) */
} XrlabPlanError;

typedef enum {
  XRLAB_PLAN_DEFAULT = 0,
  /* Leave time dependence out: every parameter at its base value (for a
   * baseline spectrum or slice-by-slice fits of a model that has dynamics). */
  XRLAB_PLAN_IGNORE_DYNAMICS = 1 << 0,
  /* Leave profiles out. */
  XRLAB_PLAN_IGNORE_PROFILES = 1 << 1,
} XrlabPlanFlags;

typedef struct _XrlabPlan XrlabPlan;
typedef struct _XrlabPlanWorkspace XrlabPlanWorkspace;

/* The one rule for energy axes, which every plan (and so eval, params,
 * simulate and every fit) applies: at least one value, every value finite,
 * strictly monotonic in either direction (photoemission data often come on
 * a descending binding-energy axis; a repeated energy is refused). @name
 * names the axis in the message ("energy.csv"; NULL: "the energy axis").
 * Error: XRLAB_PLAN_ERROR_AXIS, naming the value (1-based). */
gboolean xrlab_plan_check_energy_axis (const double *energy, gsize n_energy,
                                       const char *name, GError **error);

/* Builds a plan. @time may be NULL (n_time 0) for a 1D plan; @aux may be
 * NULL (n_aux 0) when no parameter has a profile. The axes are copied; the
 * plan does not refer to @model afterwards. Errors: an energy axis that
 * breaks xrlab_plan_check_energy_axis(), an empty or non-finite
 * axis, a delay axis that does not increase where a kernel needs it, time
 * dependence without a delay axis, a profile without an aux axis, an
 * expression naming a parameter that does not exist. */
XrlabPlan *xrlab_plan_new      (const XrlabModel *model,
                                const double *energy, gsize n_energy,
                                const double *time, gsize n_time,
                                const double *aux, gsize n_aux,
                                GError **error);
XrlabPlan *xrlab_plan_new_full (const XrlabModel *model,
                                const double *energy, gsize n_energy,
                                const double *time, gsize n_time,
                                const double *aux, gsize n_aux,
                                XrlabPlanFlags flags, GError **error);
void       xrlab_plan_free     (XrlabPlan *plan);

/* ---- shape and θ ----------------------------------------------------------- */

gboolean    xrlab_plan_is_2d        (const XrlabPlan *plan);
gsize       xrlab_plan_n_rows       (const XrlabPlan *plan);   /* n_delay, or 1 */
gsize       xrlab_plan_n_energy     (const XrlabPlan *plan);
gsize       xrlab_plan_n_data       (const XrlabPlan *plan);   /* n_rows * n_energy */
const double *xrlab_plan_energy     (const XrlabPlan *plan);
const double *xrlab_plan_time       (const XrlabPlan *plan);   /* NULL for 1D */

gsize       xrlab_plan_n_theta      (const XrlabPlan *plan);
const char *xrlab_plan_theta_name   (const XrlabPlan *plan, gsize k);
/* The model parameter index (xrlab_model_find_param) of θ_k. */
gsize       xrlab_plan_theta_param  (const XrlabPlan *plan, gsize k);
/* θ at the model's values. */
void        xrlab_plan_theta_initial (const XrlabPlan *plan, double *theta);
/* Bounds per θ (-inf / inf when unbounded). */
void        xrlab_plan_theta_bounds (const XrlabPlan *plan, double *lower, double *upper);
/* Index of the θ entry named @name, or -1. */
gssize      xrlab_plan_find_theta   (const XrlabPlan *plan, const char *name);

/* Every model parameter (same order and names as the model). */
gsize       xrlab_plan_n_params     (const XrlabPlan *plan);
const char *xrlab_plan_param_name   (const XrlabPlan *plan, gsize i);
/* Fills @values[n_params] with each parameter's base value at @theta:
 * fitted ones from θ, fixed ones as given, expressions evaluated on the base
 * values (time dependence and profiles switched off). */
void        xrlab_plan_param_values (const XrlabPlan *plan, const double *theta,
                                     double *values);
/* The same and, when @dvalues is not NULL, its derivatives:
 * dvalues[i * n_theta + k] = ∂values[i]/∂θ_k (1 for θ_k itself, 0 for fixed
 * parameters, through the expressions for derived ones): with a covariance C
 * of θ, the variance of parameter i is g_i^T C g_i. */
void        xrlab_plan_param_gradients (const XrlabPlan *plan, const double *theta,
                                        double *values, double *dvalues);
/* TRUE when the base value of parameter @i changes with θ: it is a θ entry
 * or an expression that reaches one (through other expressions); FALSE
 * when its gradient is zero by construction. */
gboolean    xrlab_plan_param_depends_on_theta (const XrlabPlan *plan, gsize i);

/* ---- evaluation ------------------------------------------------------------ */

/* A workspace: the scratch memory of one evaluation. A big evaluation is
 * cut by delay rows into @n_threads parts with their own scratch, run on the
 * process's thread pool (xrlab-parallel.h; a plan starts no threads of its
 * own). @n_threads 0 picks a count from the size of the plan and the pool's
 * threads (at most 8); 1 evaluates on the calling thread only (give each
 * thread of a parallel fitter its own such workspace). */
XrlabPlanWorkspace *xrlab_plan_workspace_new  (const XrlabPlan *plan, guint n_threads);
void                xrlab_plan_workspace_free (XrlabPlanWorkspace *ws);
guint               xrlab_plan_workspace_n_threads (const XrlabPlanWorkspace *ws);
/* While *@flag is non-zero (read atomically, e.g. xrlab_fit_abort_flag()),
 * evaluations on @ws skip their remaining delay rows: their output is then
 * incomplete, for a caller that discards it. NULL: never. */
void                xrlab_plan_workspace_set_abort (XrlabPlanWorkspace *ws, const gint *flag);

/* out[n_data] = model(θ). */
void xrlab_plan_eval_ws     (const XrlabPlan *plan, XrlabPlanWorkspace *ws,
                             const double *theta, double *out);
/* jac[n_data * n_theta] = ∂model/∂θ (layout above). */
void xrlab_plan_jacobian_ws (const XrlabPlan *plan, XrlabPlanWorkspace *ws,
                             const double *theta, double *jac);
/* Both at once (@out or @jac may be NULL). */
void xrlab_plan_eval_jacobian_ws (const XrlabPlan *plan, XrlabPlanWorkspace *ws,
                                  const double *theta, double *out, double *jac);

/* The same with the plan's own workspace (made with the plan, automatic
 * thread count). Calls from several threads are serialised by a lock; give
 * threads their own workspaces to run them in parallel. */
void xrlab_plan_eval     (const XrlabPlan *plan, const double *theta, double *out);
void xrlab_plan_jacobian (const XrlabPlan *plan, const double *theta, double *jac);

/* Rows [@row0, @row0 + @n_rows) of the output only (out[n_rows * n_energy]):
 * the same values, bit for bit, as those rows of xrlab_plan_eval_ws(),
 * for the price of those rows (a spectrum at one delay of a 2D plan). */
void xrlab_plan_eval_rows_ws (const XrlabPlan *plan, XrlabPlanWorkspace *ws,
                              const double *theta, gsize row0, gsize n_rows, double *out);

/* The energy components of the model (xrlab_model_n_components, same order). */
gsize xrlab_plan_n_components (const XrlabPlan *plan);

/* Component @component alone on rows [@row0, @row0 + @n_rows) (layout as
 * above): a peak or a background as it enters the sum (mean over the aux
 * points when profiled); a Shirley background its factor times the integral
 * of the sum of every peak. The components add up to the model. */
void xrlab_plan_eval_component_rows_ws (const XrlabPlan *plan, XrlabPlanWorkspace *ws,
                                        const double *theta, gsize component, gsize row0,
                                        gsize n_rows, double *out);

/* The value of parameter @param (model index) at @theta for every delay (and
 * aux point): n_rows values, or n_rows × n_aux (row-major) when it has a
 * profile. Returns the number of values written to @out, which must have room
 * for n_rows × max(1, n_aux). */
gsize xrlab_plan_param_trace (const XrlabPlan *plan, XrlabPlanWorkspace *ws,
                              const double *theta, gsize param, double *out);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (XrlabPlan, xrlab_plan_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (XrlabPlanWorkspace, xrlab_plan_workspace_free)

G_END_DECLS
