/* xrlab-plan-private.h -- inside the plan: the vectorised kernels and the packed plan
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "xrlab-model-private.h"
#include "xrlab-plan.h"

G_BEGIN_DECLS

/* ---- energy components (xrlab-plan-kernels.c, vectorised) -------------------
 *
 * @p holds the component's parameters in its function's order
 * (xrlab-fn.h). Shirley is not an op here (see below). */

/* acc[e] += w * f(x[e]; p) for e < n. @dx is the step of the energy axis
 * when it is uniform (x[e] = x[0] + e dx within rounding; Gaussian factors
 * then come from a recurrence), else 0. @tmp has room for n. */
void xrlab_op_eval (XrlabFn fn, const double *x, gsize n, double dx, const double *p,
                    double w, double *acc, double *tmp);

/* val[e] = f(x[e]; p) and d[q][e] = ∂f/∂p_q for every parameter q. */
void xrlab_op_grad (XrlabFn fn, const double *x, gsize n, double dx, const double *p,
                    double *val, double *const *d, double *tmp);

/* out[i] = sum_{j >= i} in[i] (the Shirley integral, from the high-index
 * end). @out may be @in. */
void xrlab_revcumsum (const double *in, gsize n, double *out);

/* out[i] = other[i] + peak[i] + p * sum_{j >= i} peak[j]; @tmp has room for n. */
void xrlab_shirley_combine (const double *peak, const double *other, double p, gsize n,
                            double *tmp, double *out);

/* y[i] += a * x[i]. */
void xrlab_axpy (double a, const double *x, double *y, gsize n);

/* row[j] = g(ti - t[j]; s) w[j] and, when @drow is not NULL,
 * drow[j] = ∂g/∂s w[j], for j < m. */
void xrlab_kernel_row (XrlabFn fn, double ti, const double *t, const double *w, gsize m,
                       double s, double *row, double *drow);

/* sum x[i]; sum x[i] y[i]; x[i] *= a */
double xrlab_sum   (const double *x, gsize n);
double xrlab_dot   (const double *x, const double *y, gsize n);
void   xrlab_scale (double a, double *x, gsize n);
/* out[i] = a[i] b[i] */
void   xrlab_mul   (const double *a, const double *b, gsize n, double *out);

/* acc[i] += x[i] + p * sum_{j >= i} x[j]; @tmp has room for n. */
void xrlab_shirley_accumulate (const double *x, double p, gsize n, double *tmp, double *acc);

/* out[e * n_cols + k] = cols[k * n + e] */
void xrlab_transpose (const double *cols, gsize n_cols, gsize n, double *out);

/* The row-major assembly of one delay row of the Jacobian (jac_row, xrlab-plan-eval.c):
 * for θ block b (8 entries) the peak partials peak_d[i] (n values) with θ
 * coefficients peak_c[i] (nthp values), peak_off[b] <= i < peak_off[b + 1],
 * and likewise for other ops. @cum (n) and @tmp (8 n) are scratch. */
void xrlab_jac_row_combine (gsize n, gsize nth, gsize nthp, const double *const *peak_d,
                            const double *const *peak_c, const guint32 *peak_off,
                            const double *const *other_d, const double *const *other_c,
                            const guint32 *other_off, const double *peak,
                            const double *other, gboolean shirley, double ps,
                            const double *sh, double *cum, double *tmp, double *jac,
                            double *out);

/* exp(x) to about one ulp, written so that loops over it vectorise;
 * 0 below -708. */
double xrlab_fast_exp (double x);

/* ---- the packed plan (xrlab-plan*.c only) -----------------------------------------
 *
 * The plan is a frozen, packed form of the model graph:
 *
 *   slots    one per parameter value: a scalar, a trace over delay (VT), or
 *            values per delay and aux point (VA); each with the sorted list
 *            of θ entries it depends on and, in a Jacobian call, its
 *            sensitivities ∂value/∂θ (cells × deps, row-major)
 *   steps    in dependence order: θ → slot, expression programs, dynamics
 *            groups (base + sum of masked time functions), kernels applied
 *            in place, profiles; steps whose slot depends on no θ entry ran
 *            once when the plan was built
 *   ops      the energy components with their parameter slots, sorted into
 *            constant (precomputed), delay-independent (one spectrum per
 *            call, broadcast to every delay) and delay-dependent ones
 *
 * Per delay row the peaks and the other components are summed separately,
 * because Shirley needs the peak sum. The Jacobian is built per row in
 * column-major scratch (one contiguous column per θ entry, so the updates
 * are plain vector loops) and transposed into the row-major result.
 *
 * xrlab-plan-build.c builds it, xrlab-plan-eval.c runs it,
 * xrlab-plan-workspace.c holds the memory of a call, xrlab-plan.c answers
 * questions about it. */

enum {
  SLOT_VT = 1 << 0,    /* varies with delay */
  SLOT_VA = 1 << 1,    /* varies along the aux axis */
};

typedef struct {
  guint32 flags;
  guint32 n_deps;
  gsize n_cells;
  gsize off;           /* values[off .. off + n_cells) */
  gsize deps_off;      /* deps[deps_off .. + n_deps): θ indices, increasing */
  gsize sens_off;      /* sens[sens_off + cell * n_deps + j] = ∂value/∂θ_{deps[j]} */
} Slot;

typedef enum {
  STEP_THETA,          /* slot = θ[index] */
  STEP_EXPR,           /* slot = program[index] (inputs = references) */
  STEP_DYN,            /* slot(t) = input0 + sum over fns[index ..] (inputs: base, fn params) */
  STEP_KERNEL,         /* slot = K(input1) slot (inputs: slot, kernel parameter); index = XrlabFn */
  STEP_PROFILE,        /* slot(t, a) = input0(t) + sum over fns[index ..](aux[a]) */
} StepKind;

typedef struct {
  guint32 slot;
  guint32 map_off;     /* maps[map_off + j]: position of the input's dep j among the target's */
} Input;

typedef struct {
  guint32 kind;
  guint32 slot;
  guint32 in_off, n_in;
  guint32 index;
  guint32 n_fn;
} Step;

typedef struct {
  guint32 fn;          /* XrlabFn */
  guint32 n_params;
  guint32 clock;       /* dynamics: 0 = the delay axis itself, else a subcycle clock */
} Fn;

typedef struct {
  guint32 code_off, n_code;
  guint32 n_refs;
} Program;

enum {
  OP_PEAK = 1 << 0,
  OP_VT = 1 << 1,
  OP_VA = 1 << 2,
  OP_CONST = 1 << 3,
};

typedef struct {
  guint32 fn;
  guint32 n_params;
  guint32 slots[XRLAB_FN_MAX_PARAMS];
  guint32 flags;
} Op;

struct _XrlabPlan {
  gsize n_e, n_t, n_a, n_rows;
  double *energy, *time, *aux;
  double energy_dx;          /* the step of a uniform energy axis, else 0 */

  /* parameters */
  gsize n_params;
  char **param_names;
  guint32 *param_slot;       /* resolved value */
  guint32 *param_base_slot;  /* base value */
  double *param_value;       /* model value (base) */
  gint32 *param_theta;       /* θ index or -1 */
  gint32 *param_prog;        /* expression program or -1 */
  guint32 *param_refs_off;   /* expression references: base_refs[off ..] = param indices */
  guint32 *base_refs;
  guint32 *base_order;       /* expression parameters in dependence order */
  gsize n_base_order;

  /* θ */
  gsize n_theta;
  guint32 *theta_param;
  double *theta_init, *theta_lo, *theta_hi;

  /* slots and steps */
  gsize n_slots;
  Slot *slots;
  guint32 *deps;
  gsize n_values, n_sens;
  double *init_values;
  Step *steps;               /* the steps that depend on θ, in order */
  gsize n_steps;
  Input *inputs;
  guint32 *maps;
  Program *progs;
  XrlabExprInsn *code;
  double *consts;
  Fn *fns;
  double *clock_tau, *clock_mask;   /* n_clocks × n_t; clock 0 is the delay axis */
  double *w_trap;                   /* trapezoid weights of the delay axis */
  double *lag_t, *lag_one;          /* uniform delay axis: lags (n-1-k) h, k < 2n-1; ones */
  gboolean has_kernels;
  guint max_refs, max_depth, max_deps, max_inputs;
  gsize n_partials;          /* most partial derivatives of delay-dependent ops in one row */
  gsize n_partials1d;        /* partial derivatives of the delay-independent ops */
  gsize nthp;                /* n_theta rounded up to a multiple of 8 */

  /* ops */
  Op *ops;
  gsize n_ops;
  guint32 *var1d, *vt, *shirley;
  gsize n_var1d, n_vt, n_shirley;
  gsize n_vt_other;                       /* delay-dependent ops that are not peaks */
  double *const1d_peak, *const1d_other;
  double *const2d_peak, *const2d_other;   /* n_t × n_e, or NULL */
  gboolean rows_vary;
  gboolean psum_vt;                       /* the Shirley factor changes with delay */

  GMutex lock;
  XrlabPlanWorkspace *own_ws;

  gboolean *param_dep;       /* per parameter: its base value changes with θ */
};

/* ---- workspaces (xrlab-plan-workspace.c) ------------------------------------------ */

typedef struct {
  double *peak, *other, *tmp, *cum;   /* n_e */
  double *val, *g;                     /* n_e */
  double *d[XRLAB_FN_MAX_PARAMS];     /* n_e each */
  double *shs;                         /* n_theta */
  /* the Jacobian row, row-major: partials of the delay-dependent ops and
   * their θ coefficients */
  double *dq;                          /* n_partials × n_e */
  double *coef;                        /* n_partials × nthp */
  guint32 *qpeak, *qother;             /* partials of peaks / of other ops */
  /* per θ block: the partials (data and θ coefficients) that touch it */
  const double **bp_d, **bp_c, **bo_d, **bo_c;
  guint32 *bp_off, *bo_off;            /* n_blocks + 1 */
  double *pk, *acc, *sh;               /* nthp */
  double *jtmp;                        /* 8 n_e */
} Scratch;

/* Rows [r0, r1) of the current call, with scratch @sc. */
typedef void (*RowJob) (XrlabPlanWorkspace *ws, Scratch *sc, gsize r0, gsize r1);

struct _XrlabPlanWorkspace {
  const XrlabPlan *plan;
  double *values, *sens;
  double *stack, *dstack, *grad, *refvals;
  double *pvals, *pd;                   /* function parameters and partials */
  double *kmat, *dkmat;                 /* n_t × n_t kernel rows */
  double *kS, *kdS, *kL, *kR, *kdL, *kdR, *kx, *kxs, *kdy;
  double *kG, *kdG;                     /* uniform axis: the kernel per lag */
  gsize *klo, *khi;
  double *row1d_peak, *row1d_other;     /* this call's delay-independent parts */
  double *row1d_total;                  /* their sum */
  /* Jacobian: the partials of the delay-independent ops, once per call */
  double *dq1d;                         /* n_partials1d × n_e */
  double *coef1d;                       /* n_partials1d × nthp */
  guint32 *q1_peak, *q1_other;
  gsize n1_peak, n1_other;
  Scratch *scratch;                     /* one per part of a call */

  /* the current call */
  const double *theta;
  double *out, *jac;

  guint n_threads;                      /* parts of a call (xrlab_parallel_run) */
  const gint *abort;                    /* non-zero: stop the rows (or NULL) */
};

static inline gsize
cell_of (const Slot *s, gsize t, gsize a, gsize n_a)
{
  gsize ct = (s->flags & SLOT_VT) ? t : 0;
  return (s->flags & SLOT_VA) ? ct * n_a + a : ct;
}


/* ---- across the files of the plan ------------------------------------------------ */

/* Runs every step of the plan at @theta into ws->values (and, with @jac,
 * the sensitivities into ws->sens) (xrlab-plan-eval.c). */
void xrlab_plan_run_steps (const XrlabPlan *plan, XrlabPlanWorkspace *ws, const double *theta,
                           gboolean jac);

/* Adds op's value at delay t (mean over the aux points when profiled) to
 * @peak or @other; @tmp has room for n_energy (xrlab-plan-eval.c). */
void xrlab_plan_op_value (const XrlabPlan *plan, const XrlabPlanWorkspace *ws, const Op *op,
                          gsize t, double *peak, double *other, double *tmp);

/* Runs @job over the rows of the current call: on the calling thread, or
 * cut into ws->n_threads parts on the thread pool (xrlab-plan-workspace.c). */
void xrlab_plan_workspace_run (XrlabPlanWorkspace *ws, RowJob job);

G_END_DECLS
