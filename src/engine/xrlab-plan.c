/* xrlab-plan.c -- a model compiled for evaluation: evaluate (plan, θ) and its Jacobian
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
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-plan.h"
#include "xrlab-parallel.h"
#include "xrlab-plan-private.h"
#include "xrlab-util.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

G_DEFINE_QUARK (xrlab-plan-error-quark, xrlab_plan_error)

/* ---- the plan ------------------------------------------------------------------------ */

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
};

/* ---- workspaces ------------------------------------------------------------------------ */

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
};

static inline gsize
cell_of (const Slot *s, gsize t, gsize a, gsize n_a)
{
  gsize ct = (s->flags & SLOT_VT) ? t : 0;
  return (s->flags & SLOT_VA) ? ct * n_a + a : ct;
}

/* ---- building -------------------------------------------------------------------------- */

typedef struct {
  XrlabPlan *plan;
  XrlabPlanFlags flags;
  GArray *slots;        /* Slot */
  GPtrArray *slot_deps; /* GArray (guint32) per slot */
  GArray *steps;        /* Step, every step (also those run only once) */
  GArray *inputs, *maps, *progs, *code, *consts, *fns;
  GArray *clock_tau, *clock_mask;
  GHashTable *clocks;   /* "attachment:subcycle" -> clock index + 1 */
  gint32 *state;        /* per parameter: 0 new, 1 in progress, 2 done */
} Builder;

static guint32
new_slot (Builder *b, guint32 flags)
{
  Slot s = { 0 };

  s.flags = flags;
  g_array_append_val (b->slots, s);
  g_ptr_array_add (b->slot_deps, g_array_new (FALSE, FALSE, sizeof (guint32)));
  return b->slots->len - 1;
}

static GArray *
slot_deps (Builder *b, guint32 slot)
{
  return g_ptr_array_index (b->slot_deps, slot);
}

static Slot *
slot_at (Builder *b, guint32 slot)
{
  return &g_array_index (b->slots, Slot, slot);
}

static void
deps_union (GArray *into, const GArray *from)
{
  for (guint i = 0; i < from->len; i++)
    {
      guint32 k = g_array_index (from, guint32, i);
      guint j = 0;
      while (j < into->len && g_array_index (into, guint32, j) < k)
        j++;
      if (j == into->len || g_array_index (into, guint32, j) != k)
        g_array_insert_val (into, j, k);
    }
}

/* Adds a step whose target @slot depends on @in_slots; the target's deps
 * must already hold the union of the inputs' deps. */
static void
add_step (Builder *b, StepKind kind, guint32 slot, const guint32 *in_slots, guint n_in,
          guint32 index, guint32 n_fn)
{
  Step st = { kind, slot, b->inputs->len, n_in, index, n_fn };
  GArray *target = slot_deps (b, slot);

  for (guint i = 0; i < n_in; i++)
    {
      Input in = { in_slots[i], b->maps->len };
      GArray *src = slot_deps (b, in_slots[i]);
      for (guint j = 0; j < src->len; j++)
        {
          guint32 k = g_array_index (src, guint32, j), pos = 0;
          while (g_array_index (target, guint32, pos) != k)
            pos++;
          g_array_append_val (b->maps, pos);
        }
      g_array_append_val (b->inputs, in);
    }
  g_array_append_val (b->steps, st);
}

static gboolean
attachment_active (Builder *b, const XrlabAttachment *att)
{
  if (att == NULL)
    return FALSE;
  return att->is_profile ? !(b->flags & XRLAB_PLAN_IGNORE_PROFILES)
                         : !(b->flags & XRLAB_PLAN_IGNORE_DYNAMICS);
}

static gboolean
param_in_theta (Builder *b, const XrlabParam *p)
{
  if (!p->vary || p->expr)
    return FALSE;
  if (p->role == XRLAB_PARAM_DYNAMICS)
    return attachment_active (b, p->host->dyn);
  if (p->role == XRLAB_PARAM_PROFILE)
    return attachment_active (b, p->host->profile);
  return TRUE;
}

/* The clock of subcycle @sub of time dependence @att (trspecfit's
 * normalize_time): returns its index. */
static guint32
clock_for (Builder *b, const XrlabAttachment *att, int sub)
{
  g_autofree char *key = NULL;
  gsize n_t = b->plan->n_t;
  double period;
  gpointer found;

  if (sub == 0)
    return 0;
  key = g_strdup_printf ("%p:%d", (const void *) att, sub);
  found = g_hash_table_lookup (b->clocks, key);
  if (found)
    return GPOINTER_TO_UINT (found) - 1;
  period = 1.0 / att->frequency / (double) att->n_sub;
  for (gsize i = 0; i < n_t; i++)
    {
      double t = b->plan->time[i], tau = 0.0, m = 0.0;
      if (t >= 0.0)
        {
          double c = floor (t / period);
          double nsub = fmod (c, (double) att->n_sub) + 1.0;
          tau = t - c * period;
          m = (nsub == (double) sub) ? 1.0 : 0.0;
        }
      g_array_append_val (b->clock_tau, tau);
      g_array_append_val (b->clock_mask, m);
    }
  g_hash_table_insert (b->clocks, g_steal_pointer (&key),
                       GUINT_TO_POINTER (b->clock_tau->len / n_t));
  return b->clock_tau->len / n_t - 1;
}

static guint32 ensure_param (Builder *b, XrlabParam *p);

static guint32
add_program (Builder *b, const XrlabExpr *expr)
{
  Program prog = { 0 };
  guint n_code, n_consts;
  const XrlabExprInsn *code = xrlab_expr_code (expr, &n_code);
  const double *consts = xrlab_expr_consts (expr, &n_consts);

  prog.code_off = b->code->len;
  prog.n_code = n_code;
  prog.n_refs = xrlab_expr_n_refs (expr);
  for (guint i = 0; i < n_code; i++)
    {
      XrlabExprInsn insn = code[i];
      if (insn.op == XRLAB_EXPR_OP_CONST)
        insn.arg += b->consts->len;
      g_array_append_val (b->code, insn);
    }
  g_array_append_vals (b->consts, consts, n_consts);
  g_array_append_val (b->progs, prog);
  b->plan->max_refs = MAX (b->plan->max_refs, prog.n_refs);
  b->plan->max_depth = MAX (b->plan->max_depth, xrlab_expr_depth (expr));
  return b->progs->len - 1;
}

/* Builds the steps for the value of an attachment (dynamics or profile) of
 * @p on top of slot @src; returns the new slot. */
static guint32
build_attachment (Builder *b, XrlabParam *p, const XrlabAttachment *att, guint32 src)
{
  g_autoptr(GArray) ins = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint32 slot, first_fn = b->fns->len, n_fn = 0;
  GArray *deps;

  for (guint i = 0; i < att->params->len; i++)
    ensure_param (b, g_ptr_array_index (att->params, i));

  slot = new_slot (b, att->is_profile ? (SLOT_VA | (slot_at (b, src)->flags & SLOT_VT))
                                      : SLOT_VT);
  deps = slot_deps (b, slot);
  deps_union (deps, slot_deps (b, src));
  g_array_append_val (ins, src);
  for (guint i = 0; i < att->comps->len; i++)
    {
      XrlabComponent *c = g_ptr_array_index (att->comps, i);
      XrlabFnClass cls = xrlab_fn_info (c->fn)->cls;
      if (cls == XRLAB_FN_CLASS_NONE)
        continue;
      for (guint q = 0; q < c->n_params; q++)
        deps_union (deps, slot_deps (b, b->plan->param_slot[c->params[q]->index]));
      if (cls == XRLAB_FN_CLASS_KERNEL)
        continue;
      {
        Fn f = { c->fn, c->n_params, att->is_profile ? 0 : clock_for (b, att, c->subcycle) };
        g_array_append_val (b->fns, f);
        n_fn++;
        for (guint q = 0; q < c->n_params; q++)
          g_array_append_val (ins, b->plan->param_slot[c->params[q]->index]);
      }
    }
  add_step (b, att->is_profile ? STEP_PROFILE : STEP_DYN, slot, (guint32 *) ins->data,
            ins->len, first_fn, n_fn);
  if (!att->is_profile)
    for (guint i = 0; i < att->comps->len; i++)
      {
        XrlabComponent *c = g_ptr_array_index (att->comps, i);
        guint32 kin[2];
        if (xrlab_fn_info (c->fn)->cls != XRLAB_FN_CLASS_KERNEL)
          continue;
        kin[0] = slot;
        kin[1] = b->plan->param_slot[c->params[0]->index];
        add_step (b, STEP_KERNEL, slot, kin, 2, c->fn, 0);
        b->plan->has_kernels = TRUE;
      }
  b->plan->max_inputs = MAX (b->plan->max_inputs, ins->len);
  return slot;
}

/* Builds the slots and steps of @p (and of what it depends on). */
static guint32
ensure_param (Builder *b, XrlabParam *p)
{
  XrlabPlan *plan = b->plan;
  guint i = p->index;
  guint32 slot;

  if (b->state[i] == 2)
    return plan->param_slot[i];
  g_assert (b->state[i] == 0);   /* cycles were refused by xrlab_model_resolve */
  b->state[i] = 1;

  if (p->expr)
    {
      guint n = xrlab_expr_n_refs (p->expr);
      g_autofree guint32 *ins = g_new (guint32, MAX (1, n));
      guint32 flags = 0, prog;

      for (guint r = 0; r < n; r++)
        {
          ins[r] = ensure_param (b, p->refs[r]);
          flags |= slot_at (b, ins[r])->flags;
        }
      slot = new_slot (b, flags);
      for (guint r = 0; r < n; r++)
        deps_union (slot_deps (b, slot), slot_deps (b, ins[r]));
      prog = add_program (b, p->expr);
      add_step (b, STEP_EXPR, slot, ins, n, prog, 0);
      plan->max_inputs = MAX (plan->max_inputs, n);
      plan->param_prog[i] = prog;
    }
  else
    {
      slot = new_slot (b, 0);
      if (plan->param_theta[i] >= 0)
        {
          guint32 k = plan->param_theta[i];
          g_array_append_val (slot_deps (b, slot), k);
          add_step (b, STEP_THETA, slot, NULL, 0, k, 0);
        }
    }
  plan->param_base_slot[i] = slot;

  if (p->role == XRLAB_PARAM_ENERGY && attachment_active (b, p->dyn))
    slot = build_attachment (b, p, p->dyn, slot);
  if (p->role == XRLAB_PARAM_ENERGY && attachment_active (b, p->profile))
    slot = build_attachment (b, p, p->profile, slot);

  plan->param_slot[i] = slot;
  b->state[i] = 2;
  return slot;
}

/* ---- running the steps ------------------------------------------------------------------ */

static void
run_expr (const XrlabPlan *plan, XrlabPlanWorkspace *ws, const Step *st, gboolean jac)
{
  const Slot *T = &plan->slots[st->slot];
  const Program *prog = &plan->progs[st->index];
  const XrlabExprInsn *code = plan->code + prog->code_off;
  const Input *in = plan->inputs + st->in_off;
  gsize nt = (T->flags & SLOT_VT) ? plan->n_t : 1, na = (T->flags & SLOT_VA) ? plan->n_a : 1;

  for (gsize t = 0; t < nt; t++)
    for (gsize a = 0; a < na; a++)
      {
        gsize c = cell_of (T, t, a, plan->n_a);
        for (guint r = 0; r < prog->n_refs; r++)
          {
            const Slot *S = &plan->slots[in[r].slot];
            ws->refvals[r] = ws->values[S->off + cell_of (S, t, a, plan->n_a)];
          }
        if (!jac)
          {
            ws->values[T->off + c] = xrlab_expr_eval (code, prog->n_code, plan->consts,
                                                      ws->refvals, ws->stack);
            continue;
          }
        ws->values[T->off + c] = xrlab_expr_eval_grad (code, prog->n_code, plan->consts,
                                                       ws->refvals, prog->n_refs,
                                                       ws->stack, ws->dstack, ws->grad);
        {
          double *sT = ws->sens + T->sens_off + c * T->n_deps;
          memset (sT, 0, T->n_deps * sizeof (double));
          for (guint r = 0; r < prog->n_refs; r++)
            {
              const Slot *S = &plan->slots[in[r].slot];
              const double *sS = ws->sens + S->sens_off
                                 + cell_of (S, t, a, plan->n_a) * S->n_deps;
              const guint32 *map = plan->maps + in[r].map_off;
              for (guint j = 0; j < S->n_deps; j++)
                sT[map[j]] += ws->grad[r] * sS[j];
            }
        }
      }
}

/* Dynamics and profiles: slot = input0 + sum of functions. */
static void
run_sum (const XrlabPlan *plan, XrlabPlanWorkspace *ws, const Step *st, gboolean jac)
{
  const Slot *T = &plan->slots[st->slot];
  const Input *in = plan->inputs + st->in_off;
  const Slot *B = &plan->slots[in[0].slot];
  gboolean profile = st->kind == STEP_PROFILE;
  gsize nt = (T->flags & SLOT_VT) ? plan->n_t : 1, na = (T->flags & SLOT_VA) ? plan->n_a : 1;
  double *p = ws->pvals, *d = ws->pd;

  /* The functions' parameters are scalars: gather them once. */
  for (guint i = 1; i < st->n_in; i++)
    p[i - 1] = ws->values[plan->slots[in[i].slot].off];

  for (gsize t = 0; t < nt; t++)
    for (gsize a = 0; a < na; a++)
      {
        gsize c = cell_of (T, t, a, plan->n_a);
        gsize cb = cell_of (B, t, a, plan->n_a);
        double v = ws->values[B->off + cb];
        double *sT = jac ? ws->sens + T->sens_off + c * T->n_deps : NULL;
        guint k = 1;

        if (jac)
          {
            const double *sB = ws->sens + B->sens_off + cb * B->n_deps;
            const guint32 *map = plan->maps + in[0].map_off;
            memset (sT, 0, T->n_deps * sizeof (double));
            for (guint j = 0; j < B->n_deps; j++)
              sT[map[j]] += sB[j];
          }
        for (guint f = 0; f < st->n_fn; f++)
          {
            const Fn *fn = &plan->fns[st->index + f];
            const double *pf = p + (k - 1);
            double x;

            if (profile)
              x = plan->aux[a];
            else if (fn->clock == 0)
              x = plan->time[t];
            else
              {
                if (plan->clock_mask[fn->clock * plan->n_t + t] == 0.0)
                  {
                    k += fn->n_params;
                    continue;
                  }
                x = plan->clock_tau[fn->clock * plan->n_t + t];
              }
            v += profile ? xrlab_profile_fn (fn->fn, x, pf, jac ? d : NULL)
                         : xrlab_time_fn (fn->fn, x, pf, jac ? d : NULL);
            if (jac)
              for (guint q = 0; q < fn->n_params; q++)
                {
                  const Slot *S = &plan->slots[in[k + q].slot];
                  const double *sS = ws->sens + S->sens_off;
                  const guint32 *map = plan->maps + in[k + q].map_off;
                  for (guint j = 0; j < S->n_deps; j++)
                    sT[map[j]] += d[q] * sS[j];
                }
            k += fn->n_params;
          }
        ws->values[T->off + c] = v;
      }
}

/* A kernel acting on the trace in slot st->slot: builds the normalised rows
 * of K (and, for the Jacobian, ∂K/∂s) over the band where g can be nonzero,
 * and applies them. */
static void
run_kernel (const XrlabPlan *plan, XrlabPlanWorkspace *ws, const Step *st, gboolean jac)
{
  const Slot *T = &plan->slots[st->slot];
  const Input *in = plan->inputs + st->in_off;
  const Slot *P = &plan->slots[in[1].slot];
  XrlabFn fn = (XrlabFn) st->index;
  gsize n = plan->n_t, nd = T->n_deps;
  const double *t = plan->time, *w = plan->w_trap;
  double s = ws->values[P->off], ulo, uhi;
  double *x = ws->kx, *y = ws->values + T->off;
  gsize lo = 0, hi = 0;

  xrlab_kernel_support (fn, s, &ulo, &uhi);
  /* widen by rounding so that g itself decides at the edges */
  ulo -= 1e-12 * fabs (ulo) + 1e-300;
  uhi += 1e-12 * fabs (uhi) + 1e-300;

  /* On a uniform axis g depends on i - j only: tabulate it once,
   * G[k] = g((n-1-k) h), so that row i reads G[n-1-i+j] (the box decides
   * on the actual differences, at no cost anyway). */
  gboolean lagged = plan->lag_t != NULL && fn != XRLAB_FN_BOXCONV;
  if (lagged)
    xrlab_kernel_row (fn, 0.0, plan->lag_t, plan->lag_one, 2 * n - 1, s, ws->kG,
                      jac ? ws->kdG : NULL);

  memcpy (x, y, n * sizeof (double));
  if (jac)
    {
      /* the trace's sensitivities, column-major: kxs[d * n + j] */
      const double *sT = ws->sens + T->sens_off;
      for (gsize j = 0; j < n; j++)
        for (gsize d = 0; d < nd; d++)
          ws->kxs[d * n + j] = sT[j * nd + d];
    }

  for (gsize i = 0; i < n; i++)
    {
      double *row = ws->kmat + i * n, *drow = ws->dkmat + i * n;
      double S, L, R, dL = 0.0, dR = 0.0, inv;
      gsize m;

      /* band: t_i - t_j in [ulo, uhi]  <=>  t_j in [t_i - uhi, t_i - ulo] */
      while (lo < n && t[lo] < t[i] - uhi)
        lo++;
      if (hi < lo)
        hi = lo;
      while (hi < n && t[hi] <= t[i] - ulo)
        hi++;
      ws->klo[i] = lo;
      ws->khi[i] = hi;
      m = hi - lo;

      if (lagged)
        {
          xrlab_mul (ws->kG + (n - 1 - i) + lo, w + lo, m, row + lo);
          if (jac)
            xrlab_mul (ws->kdG + (n - 1 - i) + lo, w + lo, m, drow + lo);
        }
      else
        xrlab_kernel_row (fn, t[i], t + lo, w + lo, m, s, row + lo, jac ? drow + lo : NULL);
      L = xrlab_kernel_mass_above (fn, t[i] - t[0], s, jac ? &dL : NULL);
      R = xrlab_kernel_mass_below (fn, t[i] - t[n - 1], s, jac ? &dR : NULL);
      S = L + R + xrlab_sum (row + lo, m);
      inv = 1.0 / S;
      ws->kL[i] = L * inv;
      ws->kR[i] = R * inv;
      y[i] = (xrlab_dot (row + lo, x + lo, m) + L * x[0] + R * x[n - 1]) * inv;
      if (jac)
        {
          double dS = dL + dR + xrlab_sum (drow + lo, m);
          double dacc = xrlab_dot (drow + lo, x + lo, m);
          ws->kdy[i] = (dacc + dL * x[0] + dR * x[n - 1] - y[i] * dS) * inv;
          xrlab_scale (inv, row + lo, m);
        }
    }

  if (!jac)
    return;
  /* sensitivities: K applied to every dep column, plus ∂(Ky)/∂s for the
   * kernel parameter's deps */
  {
    const double *sP = ws->sens + P->sens_off;
    const guint32 *pmap = plan->maps + in[1].map_off;

    for (gsize i = 0; i < n; i++)
      {
        double *ys = ws->sens + T->sens_off + i * nd;
        const double *row = ws->kmat + i * n;
        gsize l = ws->klo[i], m = ws->khi[i] - ws->klo[i];
        for (gsize d = 0; d < nd; d++)
          {
            const double *xs = ws->kxs + d * n;
            ys[d] = ws->kL[i] * xs[0] + ws->kR[i] * xs[n - 1] + xrlab_dot (row + l, xs + l, m);
          }
        for (guint j = 0; j < P->n_deps; j++)
          ys[pmap[j]] += ws->kdy[i] * sP[j];
      }
  }
}

static void
run_steps (const XrlabPlan *plan, XrlabPlanWorkspace *ws, const double *theta, gboolean jac)
{
  for (gsize i = 0; i < plan->n_steps; i++)
    {
      const Step *st = &plan->steps[i];
      switch ((StepKind) st->kind)
        {
        case STEP_THETA:
          ws->values[plan->slots[st->slot].off] = theta[st->index];
          break;
        case STEP_EXPR:
          run_expr (plan, ws, st, jac);
          break;
        case STEP_DYN:
        case STEP_PROFILE:
          run_sum (plan, ws, st, jac);
          break;
        case STEP_KERNEL:
          run_kernel (plan, ws, st, jac);
          break;
        default:
          g_assert_not_reached ();
        }
    }
}

/* ---- components ------------------------------------------------------------------------------ */

static inline void
op_params (const XrlabPlan *plan, const XrlabPlanWorkspace *ws, const Op *op, gsize t,
           gsize a, double *p)
{
  for (guint q = 0; q < op->n_params; q++)
    {
      const Slot *S = &plan->slots[op->slots[q]];
      p[q] = ws->values[S->off + cell_of (S, t, a, plan->n_a)];
    }
}

/* Adds op's value at delay t (mean over the aux points when profiled). */
static void
op_value (const XrlabPlan *plan, const XrlabPlanWorkspace *ws, const Op *op, gsize t,
          double *peak, double *other, double *tmp)
{
  gsize na = (op->flags & OP_VA) ? plan->n_a : 1;
  double w = 1.0 / (double) na, p[XRLAB_FN_MAX_PARAMS];

  for (gsize a = 0; a < na; a++)
    {
      op_params (plan, ws, op, t, a, p);
      xrlab_op_eval ((XrlabFn) op->fn, plan->energy, plan->n_e, plan->energy_dx, p, w,
                     (op->flags & OP_PEAK) ? peak : other, tmp);
    }
}

/* The Shirley factor at delay t (sum over Shirley components, mean over aux
 * points) and, when @shs is given, its θ derivatives. */
static double
shirley_factor (const XrlabPlan *plan, const XrlabPlanWorkspace *ws, gsize t, double *shs)
{
  double ps = 0.0;

  if (shs)
    memset (shs, 0, plan->n_theta * sizeof (double));
  for (gsize i = 0; i < plan->n_shirley; i++)
    {
      const Op *op = &plan->ops[plan->shirley[i]];
      const Slot *S = &plan->slots[op->slots[0]];
      gsize na = (S->flags & SLOT_VA) ? plan->n_a : 1;
      double w = 1.0 / (double) na;
      for (gsize a = 0; a < na; a++)
        {
          gsize c = cell_of (S, t, a, plan->n_a);
          ps += w * ws->values[S->off + c];
          if (shs)
            for (guint j = 0; j < S->n_deps; j++)
              shs[plan->deps[S->deps_off + j]] += w * ws->sens[S->sens_off + c * S->n_deps + j];
        }
    }
  return ps;
}

/* ---- rows --------------------------------------------------------------------------------------- */

static void
eval_row (const XrlabPlan *plan, XrlabPlanWorkspace *ws, Scratch *sc, gsize t, double *out)
{
  gsize n = plan->n_e;

  if (plan->n_shirley == 0)
    {
      /* no Shirley: everything straight into the row */
      memcpy (out, ws->row1d_total, n * sizeof (double));
      if (plan->const2d_peak)
        {
          xrlab_axpy (1.0, plan->const2d_peak + t * n, out, n);
          xrlab_axpy (1.0, plan->const2d_other + t * n, out, n);
        }
      for (gsize i = 0; i < plan->n_vt; i++)
        op_value (plan, ws, &plan->ops[plan->vt[i]], t, out, out, sc->g);
      return;
    }
  memcpy (sc->peak, ws->row1d_peak, n * sizeof (double));
  if (plan->const2d_peak)
    xrlab_axpy (1.0, plan->const2d_peak + t * n, sc->peak, n);
  for (gsize i = 0; i < plan->n_vt; i++)
    if (plan->ops[plan->vt[i]].flags & OP_PEAK)
      op_value (plan, ws, &plan->ops[plan->vt[i]], t, sc->peak, NULL, sc->g);
  if (plan->n_vt_other > 0 || plan->const2d_other)
    {
      memcpy (sc->other, ws->row1d_other, n * sizeof (double));
      if (plan->const2d_other)
        xrlab_axpy (1.0, plan->const2d_other + t * n, sc->other, n);
      for (gsize i = 0; i < plan->n_vt; i++)
        if (!(plan->ops[plan->vt[i]].flags & OP_PEAK))
          op_value (plan, ws, &plan->ops[plan->vt[i]], t, NULL, sc->other, sc->g);
    }
  xrlab_shirley_combine (sc->peak,
                         (plan->n_vt_other > 0 || plan->const2d_other) ? sc->other
                                                                       : ws->row1d_other,
                         shirley_factor (plan, ws, t, NULL), n, sc->tmp, out);
}

/* The partials of op at delay t (each aux point) into dq[Q ..] with their θ
 * coefficients (weight times sensitivity) in coef[Q ..]; its value is added
 * to peak or other; the partials with a nonzero coefficient are listed in
 * qpeak / qother. Returns the number of partials written. */
static gsize
op_partials (const XrlabPlan *plan, const XrlabPlanWorkspace *ws, const Op *op, gsize t,
             gsize Q, double *dq, double *coef, double *val, double *tmp, double *peak,
             double *other, guint32 *qpeak, gsize *n_peak, guint32 *qother, gsize *n_other)
{
  gsize na = (op->flags & OP_VA) ? plan->n_a : 1, n = plan->n_e, nthp = plan->nthp, q0 = Q;
  double w = 1.0 / (double) na, p[XRLAB_FN_MAX_PARAMS];
  gboolean is_peak = (op->flags & OP_PEAK) != 0;

  for (gsize a = 0; a < na; a++)
    {
      double *d[XRLAB_FN_MAX_PARAMS];
      op_params (plan, ws, op, t, a, p);
      for (guint q = 0; q < op->n_params; q++)
        d[q] = dq + (Q + q) * n;
      xrlab_op_grad ((XrlabFn) op->fn, plan->energy, n, plan->energy_dx, p, val, d, tmp);
      xrlab_axpy (w, val, is_peak ? peak : other, n);
      for (guint q = 0; q < op->n_params; q++)
        {
          const Slot *S = &plan->slots[op->slots[q]];
          const double *sS = ws->sens + S->sens_off + cell_of (S, t, a, plan->n_a) * S->n_deps;
          double *c = coef + (Q + q) * nthp;
          gboolean any = FALSE;
          memset (c, 0, nthp * sizeof (double));
          for (guint j = 0; j < S->n_deps; j++)
            {
              c[plan->deps[S->deps_off + j]] = w * sS[j];
              any |= sS[j] != 0.0;
            }
          if (!any)
            continue;
          if (is_peak)
            qpeak[(*n_peak)++] = Q + q;
          else
            qother[(*n_other)++] = Q + q;
        }
      Q += op->n_params;
    }
  return Q - q0;
}

/* Sums partial q into an earlier one p of the list when coef_q = λ coef_p. */
static void
merge_partials (const XrlabPlan *plan, Scratch *sc, gsize n, guint32 *list, gsize *len)
{
  gsize nthp = plan->nthp, kept = 0;

  for (gsize i = 0; i < *len; i++)
    {
      const double *cq = sc->coef + list[i] * nthp;
      gboolean merged = FALSE;

      for (gsize j = 0; j < kept && !merged; j++)
        {
          const double *cp = sc->coef + list[j] * nthp;
          gsize kmax = 0;
          double lambda;
          gboolean same = TRUE;

          for (gsize k = 1; k < nthp; k++)
            if (fabs (cp[k]) > fabs (cp[kmax]))
              kmax = k;
          lambda = cq[kmax] / cp[kmax];
          for (gsize k = 0; k < nthp && same; k++)
            same = (cp[k] == 0.0) == (cq[k] == 0.0)
                   && fabs (cq[k] - lambda * cp[k]) <= 1e-15 * fabs (cq[k]);
          if (same && lambda != 0.0 && isfinite (lambda))
            {
              xrlab_axpy (lambda, sc->dq + list[i] * n, sc->dq + list[j] * n, n);
              merged = TRUE;
            }
        }
      if (!merged)
        list[kept++] = list[i];
    }
  *len = kept;
}

/* For each block of 8 θ entries, the partials with a nonzero coefficient
 * there: this row's (dq, coef) and the call's delay-independent ones. */
static void
block_lists (const XrlabPlan *plan, const double *dq, const double *coef,
             const guint32 *list, gsize len, const double *dq1, const double *coef1,
             const guint32 *list1, gsize len1, const double **bd, const double **bc,
             guint32 *off)
{
  gsize nthp = plan->nthp, n = plan->n_e, m = 0;

  for (gsize b = 0; b < nthp / 8; b++)
    {
      off[b] = m;
      for (int src = 0; src < 2; src++)
        for (gsize i = 0; i < (src ? len1 : len); i++)
          {
            guint32 q = src ? list1[i] : list[i];
            const double *c = (src ? coef1 : coef) + q * nthp;
            gboolean any = FALSE;
            for (int k = 0; k < 8; k++)
              any |= c[8 * b + k] != 0.0;
            if (any)
              {
                bd[m] = (src ? dq1 : dq) + q * n;
                bc[m] = c;
                m++;
              }
          }
    }
  off[nthp / 8] = m;
}

/* One row of the Jacobian, written row-major as it is computed: for each
 * energy e (from the high-index end, carrying the Shirley integrals),
 *   J[e, :] = P[e, :] + ps (sum_{j >= e} P[j, :]) + O[e, :] + sh(:) sum_{j >= e} S_j
 * with P and O the θ derivatives of the peaks and of the other components
 * (their partials d_q(e) times θ coefficients: this row's delay-dependent
 * ops and the call's delay-independent ones), S the peak sum, ps the Shirley
 * factor and sh its θ derivatives. */
static void
jac_row (const XrlabPlan *plan, XrlabPlanWorkspace *ws, Scratch *sc, gsize t, double *out,
         double *jac)
{
  gsize n = plan->n_e, nth = plan->n_theta, nthp = plan->nthp;
  gsize Q = 0, n_peak = 0, n_other = 0;
  double ps = 0.0;
  gboolean shirley = plan->n_shirley > 0;

  memcpy (sc->peak, ws->row1d_peak, n * sizeof (double));
  memcpy (sc->other, ws->row1d_other, n * sizeof (double));
  if (plan->const2d_peak)
    xrlab_axpy (1.0, plan->const2d_peak + t * n, sc->peak, n);
  if (plan->const2d_other)
    xrlab_axpy (1.0, plan->const2d_other + t * n, sc->other, n);

  for (gsize i = 0; i < plan->n_vt; i++)
    Q += op_partials (plan, ws, &plan->ops[plan->vt[i]], t, Q, sc->dq, sc->coef, sc->val,
                      sc->g, sc->peak, sc->other, sc->qpeak, &n_peak, sc->qother, &n_other);

  /* Partials whose coefficients are proportional (the two peaks of a doublet
   * tied by expressions) are summed into one. */
  merge_partials (plan, sc, n, sc->qpeak, &n_peak);
  merge_partials (plan, sc, n, sc->qother, &n_other);
  block_lists (plan, sc->dq, sc->coef, sc->qpeak, n_peak, ws->dq1d, ws->coef1d, ws->q1_peak,
               ws->n1_peak, sc->bp_d, sc->bp_c, sc->bp_off);
  block_lists (plan, sc->dq, sc->coef, sc->qother, n_other, ws->dq1d, ws->coef1d,
               ws->q1_other, ws->n1_other, sc->bo_d, sc->bo_c, sc->bo_off);
  memset (sc->sh, 0, nthp * sizeof (double));
  if (shirley)
    {
      ps = shirley_factor (plan, ws, t, sc->shs);
      memcpy (sc->sh, sc->shs, nth * sizeof (double));
    }
  xrlab_jac_row_combine (n, nth, nthp, sc->bp_d, sc->bp_c, sc->bp_off, sc->bo_d, sc->bo_c,
                         sc->bo_off, sc->peak, sc->other, shirley, ps, sc->sh, sc->cum,
                         sc->jtmp, jac, out);
}

static void
job_eval (XrlabPlanWorkspace *ws, Scratch *sc, gsize r0, gsize r1)
{
  const XrlabPlan *plan = ws->plan;

  for (gsize t = r0; t < r1; t++)
    eval_row (plan, ws, sc, t, ws->out + t * plan->n_e);
}

static void
job_jac (XrlabPlanWorkspace *ws, Scratch *sc, gsize r0, gsize r1)
{
  const XrlabPlan *plan = ws->plan;

  for (gsize t = r0; t < r1; t++)
    jac_row (plan, ws, sc, t, ws->out ? ws->out + t * plan->n_e : NULL,
             ws->jac + t * plan->n_e * plan->n_theta);
}

/* ---- parts of a call on the pool ---------------------------------------------------------------- */

typedef struct {
  XrlabPlanWorkspace *ws;
  RowJob job;
  gsize n_rows;
} RowRun;

/* Part @part of ws->n_threads: a contiguous block of rows, its own scratch. */
static void
run_part (gpointer data, guint part)
{
  const RowRun *run = data;
  guint n_parts = run->ws->n_threads;

  run->job (run->ws, &run->ws->scratch[part], run->n_rows * part / n_parts,
            run->n_rows * (part + 1) / n_parts);
}

static void
run_job (XrlabPlanWorkspace *ws, RowJob job)
{
  RowRun run = { ws, job, ws->plan->rows_vary ? ws->plan->n_rows : 1 };

  if (ws->n_threads == 1 || run.n_rows < 2 * ws->n_threads)
    {
      job (ws, &ws->scratch[0], 0, run.n_rows);
      return;
    }
  xrlab_parallel_run (xrlab_parallel_default (), ws->n_threads, run_part, &run);
}

/* ---- calls ---------------------------------------------------------------------------------------- */

static void
prepare_call (const XrlabPlan *plan, XrlabPlanWorkspace *ws, const double *theta,
              gboolean jac)
{
  gsize n = plan->n_e;

  run_steps (plan, ws, theta, jac);
  memcpy (ws->row1d_peak, plan->const1d_peak, n * sizeof (double));
  memcpy (ws->row1d_other, plan->const1d_other, n * sizeof (double));
  if (!jac)
    {
      for (gsize i = 0; i < plan->n_var1d; i++)
        op_value (plan, ws, &plan->ops[plan->var1d[i]], 0, ws->row1d_peak, ws->row1d_other,
                  ws->scratch[0].g);
      memcpy (ws->row1d_total, ws->row1d_peak, n * sizeof (double));
      xrlab_axpy (1.0, ws->row1d_other, ws->row1d_total, n);
      return;
    }
  /* the partials of the delay-independent ops: the same for every row */
  {
    gsize Q = 0;
    ws->n1_peak = ws->n1_other = 0;
    for (gsize i = 0; i < plan->n_var1d; i++)
      Q += op_partials (plan, ws, &plan->ops[plan->var1d[i]], 0, Q, ws->dq1d, ws->coef1d,
                        ws->scratch[0].val, ws->scratch[0].g, ws->row1d_peak,
                        ws->row1d_other, ws->q1_peak, &ws->n1_peak, ws->q1_other,
                        &ws->n1_other);
  }
}

void
xrlab_plan_eval_jacobian_ws (const XrlabPlan *plan, XrlabPlanWorkspace *ws,
                             const double *theta, double *out, double *jac)
{
  gsize n = plan->n_e;

  g_return_if_fail (plan != NULL && ws != NULL && ws->plan == plan);
  if (out == NULL && jac == NULL)
    return;
  if (jac != NULL && plan->n_theta == 0)
    jac = NULL;
  if (jac == NULL && out == NULL)
    return;

  prepare_call (plan, ws, theta, jac != NULL);
  ws->theta = theta;
  ws->out = out;
  ws->jac = jac;
  run_job (ws, jac ? job_jac : job_eval);
  if (!plan->rows_vary)
    for (gsize t = 1; t < plan->n_rows; t++)
      {
        if (out)
          memcpy (out + t * n, out, n * sizeof (double));
        if (jac)
          memcpy (jac + t * n * plan->n_theta, jac, n * plan->n_theta * sizeof (double));
      }
  ws->out = ws->jac = NULL;
  ws->theta = NULL;
}

void
xrlab_plan_eval_ws (const XrlabPlan *plan, XrlabPlanWorkspace *ws, const double *theta,
                    double *out)
{
  xrlab_plan_eval_jacobian_ws (plan, ws, theta, out, NULL);
}

void
xrlab_plan_jacobian_ws (const XrlabPlan *plan, XrlabPlanWorkspace *ws, const double *theta,
                        double *jac)
{
  if (plan->n_theta > 0)
    xrlab_plan_eval_jacobian_ws (plan, ws, theta, NULL, jac);
}

void
xrlab_plan_eval (const XrlabPlan *plan, const double *theta, double *out)
{
  XrlabPlan *p = (XrlabPlan *) plan;   /* the lock only */

  g_mutex_lock (&p->lock);
  xrlab_plan_eval_jacobian_ws (plan, plan->own_ws, theta, out, NULL);
  g_mutex_unlock (&p->lock);
}

void
xrlab_plan_jacobian (const XrlabPlan *plan, const double *theta, double *jac)
{
  XrlabPlan *p = (XrlabPlan *) plan;

  if (plan->n_theta == 0)
    return;
  g_mutex_lock (&p->lock);
  xrlab_plan_eval_jacobian_ws (plan, plan->own_ws, theta, NULL, jac);
  g_mutex_unlock (&p->lock);
}

gsize
xrlab_plan_param_trace (const XrlabPlan *plan, XrlabPlanWorkspace *ws, const double *theta,
                        gsize param, double *out)
{
  const Slot *S;
  gsize na;

  g_return_val_if_fail (param < plan->n_params, 0);
  run_steps (plan, ws, theta, FALSE);
  S = &plan->slots[plan->param_slot[param]];
  na = (S->flags & SLOT_VA) ? plan->n_a : 1;
  for (gsize t = 0; t < plan->n_rows; t++)
    for (gsize a = 0; a < na; a++)
      out[t * na + a] = ws->values[S->off + cell_of (S, t, a, plan->n_a)];
  return plan->n_rows * na;
}

/* ---- workspaces ------------------------------------------------------------------------------------ */

guint
xrlab_plan_workspace_n_threads (const XrlabPlanWorkspace *ws)
{
  return ws->n_threads;
}

static guint
auto_threads (const XrlabPlan *plan)
{
  gsize work = plan->n_rows * plan->n_e;
  guint n = (guint) MIN (work / 40000, 8);

  if (!plan->rows_vary || plan->n_rows < 4)
    return 1;
  return CLAMP (n, 1, MIN (xrlab_parallel_n_threads (xrlab_parallel_default ()), 8));
}

XrlabPlanWorkspace *
xrlab_plan_workspace_new (const XrlabPlan *plan, guint n_threads)
{
  XrlabPlanWorkspace *ws = g_new0 (XrlabPlanWorkspace, 1);
  gsize n = plan->n_e, nth = MAX (plan->n_theta, 1), nt = MAX (plan->n_t, 1);
  guint depth = MAX (plan->max_depth, 1), refs = MAX (plan->max_refs, 1);

  ws->plan = plan;
  ws->n_threads = n_threads == 0 ? auto_threads (plan) : MIN (n_threads, 64);
  ws->values = g_new (double, MAX (plan->n_values, 1));
  memcpy (ws->values, plan->init_values, plan->n_values * sizeof (double));
  ws->sens = g_new0 (double, MAX (plan->n_sens, 1));
  /* θ rows have one dep with sensitivity 1, for good */
  for (gsize i = 0; i < plan->n_steps; i++)
    if (plan->steps[i].kind == STEP_THETA)
      ws->sens[plan->slots[plan->steps[i].slot].sens_off] = 1.0;
  ws->stack = g_new (double, depth);
  ws->dstack = g_new (double, (gsize) depth * refs);
  ws->grad = g_new (double, refs);
  ws->refvals = g_new (double, refs);
  ws->pvals = g_new (double, MAX (plan->max_inputs, 1));
  ws->pd = g_new (double, XRLAB_FN_MAX_PARAMS);
  if (plan->has_kernels)
    {
      ws->kmat = g_new (double, nt * nt);
      ws->dkmat = g_new (double, nt * nt);
      ws->kS = g_new (double, nt);
      ws->kdS = g_new (double, nt);
      ws->kL = g_new (double, nt);
      ws->kR = g_new (double, nt);
      ws->kdL = g_new (double, nt);
      ws->kdR = g_new (double, nt);
      ws->kx = g_new (double, nt);
      ws->kdy = g_new (double, nt);
      ws->kxs = g_new (double, nt * MAX (plan->max_deps, 1));
      ws->klo = g_new (gsize, nt);
      ws->kG = g_new (double, 2 * nt);
      ws->kdG = g_new (double, 2 * nt);
      ws->khi = g_new (gsize, nt);
    }
  ws->row1d_peak = g_new (double, n);
  ws->row1d_other = g_new (double, n);
  ws->row1d_total = g_new (double, n);
  ws->dq1d = g_new0 (double, MAX (plan->n_partials1d, 1) * n);
  ws->coef1d = g_new0 (double, MAX (plan->n_partials1d, 1) * plan->nthp);
  ws->q1_peak = g_new0 (guint32, MAX (plan->n_partials1d, 1));
  ws->q1_other = g_new0 (guint32, MAX (plan->n_partials1d, 1));
  ws->scratch = g_new0 (Scratch, ws->n_threads);
  for (guint i = 0; i < ws->n_threads; i++)
    {
      Scratch *sc = &ws->scratch[i];
      sc->peak = g_new0 (double, n);
      sc->other = g_new0 (double, n);
      sc->tmp = g_new0 (double, MAX (n, plan->nthp));
      sc->cum = g_new0 (double, n);
      sc->val = g_new0 (double, n);
      sc->g = g_new0 (double, n);
      for (guint q = 0; q < XRLAB_FN_MAX_PARAMS; q++)
        sc->d[q] = g_new0 (double, n);
      sc->shs = g_new0 (double, nth);
      sc->dq = g_new0 (double, MAX (plan->n_partials, 1) * n);
      sc->coef = g_new0 (double, MAX (plan->n_partials, 1) * plan->nthp);
      sc->qpeak = g_new0 (guint32, MAX (plan->n_partials, 1));
      sc->qother = g_new0 (guint32, MAX (plan->n_partials, 1));
      {
        gsize cap = MAX (plan->n_partials + plan->n_partials1d, 1) * (plan->nthp / 8);
        sc->bp_d = g_new0 (const double *, cap);
        sc->bp_c = g_new0 (const double *, cap);
        sc->bo_d = g_new0 (const double *, cap);
        sc->bo_c = g_new0 (const double *, cap);
        sc->bp_off = g_new0 (guint32, plan->nthp / 8 + 1);
        sc->bo_off = g_new0 (guint32, plan->nthp / 8 + 1);
      }
      sc->pk = g_new0 (double, plan->nthp);
      sc->jtmp = g_new0 (double, 8 * n);
      sc->acc = g_new0 (double, plan->nthp);
      sc->sh = g_new0 (double, plan->nthp);
    }
  return ws;
}

void
xrlab_plan_workspace_free (XrlabPlanWorkspace *ws)
{
  if (ws == NULL)
    return;
  for (guint i = 0; i < ws->n_threads; i++)
    {
      Scratch *sc = &ws->scratch[i];
      g_free (sc->peak);
      g_free (sc->other);
      g_free (sc->tmp);
      g_free (sc->cum);
      g_free (sc->val);
      g_free (sc->g);
      for (guint q = 0; q < XRLAB_FN_MAX_PARAMS; q++)
        g_free (sc->d[q]);
      g_free (sc->shs);
      g_free (sc->dq);
      g_free (sc->coef);
      g_free (sc->qpeak);
      g_free (sc->qother);
      g_free (sc->bp_d);
      g_free (sc->bp_c);
      g_free (sc->bo_d);
      g_free (sc->bo_c);
      g_free (sc->bp_off);
      g_free (sc->bo_off);
      g_free (sc->pk);
      g_free (sc->jtmp);
      g_free (sc->acc);
      g_free (sc->sh);
    }
  g_free (ws->scratch);
  g_free (ws->values);
  g_free (ws->sens);
  g_free (ws->stack);
  g_free (ws->dstack);
  g_free (ws->grad);
  g_free (ws->refvals);
  g_free (ws->pvals);
  g_free (ws->pd);
  g_free (ws->kmat);
  g_free (ws->dkmat);
  g_free (ws->kS);
  g_free (ws->kdS);
  g_free (ws->kL);
  g_free (ws->kR);
  g_free (ws->kdL);
  g_free (ws->kdR);
  g_free (ws->kx);
  g_free (ws->kdy);
  g_free (ws->kxs);
  g_free (ws->klo);
  g_free (ws->kG);
  g_free (ws->kdG);
  g_free (ws->khi);
  g_free (ws->row1d_peak);
  g_free (ws->row1d_other);
  g_free (ws->row1d_total);
  g_free (ws->dq1d);
  g_free (ws->coef1d);
  g_free (ws->q1_peak);
  g_free (ws->q1_other);
  g_free (ws);
}

/* ---- building the plan ------------------------------------------------------------------------------ */

static gboolean
check_axis (const double *v, gsize n, const char *what, GError **error)
{
  if (v == NULL || n == 0)
    {
      g_set_error (error, XRLAB_PLAN_ERROR, XRLAB_PLAN_ERROR_AXIS,
                   _("the %s axis is empty"), what);
      return FALSE;
    }
  for (gsize i = 0; i < n; i++)
    if (!isfinite (v[i]))
      {
        g_set_error (error, XRLAB_PLAN_ERROR, XRLAB_PLAN_ERROR_AXIS,
                     _("the %s axis: value %zu is not a finite number"),
                     what, i + 1);
        return FALSE;
      }
  return TRUE;
}

static void
builder_clear (Builder *b)
{
  g_clear_pointer (&b->slots, g_array_unref);
  g_clear_pointer (&b->slot_deps, g_ptr_array_unref);
  g_clear_pointer (&b->steps, g_array_unref);
  g_clear_pointer (&b->inputs, g_array_unref);
  g_clear_pointer (&b->maps, g_array_unref);
  g_clear_pointer (&b->progs, g_array_unref);
  g_clear_pointer (&b->code, g_array_unref);
  g_clear_pointer (&b->consts, g_array_unref);
  g_clear_pointer (&b->fns, g_array_unref);
  g_clear_pointer (&b->clock_tau, g_array_unref);
  g_clear_pointer (&b->clock_mask, g_array_unref);
  g_clear_pointer (&b->clocks, g_hash_table_unref);
  g_clear_pointer (&b->state, g_free);
}

#define STEAL(arr, type) ((type *) g_array_free ((arr), FALSE))

XrlabPlan *
xrlab_plan_new_full (const XrlabModel *model, const double *energy, gsize n_energy,
                     const double *time, gsize n_time, const double *aux, gsize n_aux,
                     XrlabPlanFlags flags, GError **error)
{
  g_autoptr(XrlabModel) m = NULL;
  g_autoptr(GArray) base_order = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) base_refs = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) op_list = g_array_new (FALSE, TRUE, sizeof (Op));
  g_autoptr(GArray) var1d = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) vt = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) shirley = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) active = g_array_new (FALSE, FALSE, sizeof (Step));
  XrlabPlanWorkspace *tmp_ws = NULL;
  Builder b = { 0 };
  XrlabPlan *plan;
  gboolean ok = TRUE;
  gsize n_theta = 0, off, soff, doff;
  guint32 n_nonconst_peaks = 0;

  g_return_val_if_fail (model != NULL, NULL);

  if (!check_axis (energy, n_energy, _("energy"), error))
    return NULL;
  if (time == NULL)
    n_time = 0;
  else if (!check_axis (time, n_time, _("delay"), error))
    return NULL;
  if (aux == NULL)
    n_aux = 0;
  else if (!check_axis (aux, n_aux, _("aux"), error))
    return NULL;

  m = xrlab_model_copy (model);
  if (!xrlab_model_resolve (m, error))
    return NULL;
  if (!(flags & XRLAB_PLAN_IGNORE_DYNAMICS) && n_time == 0)
    for (guint i = 0; i < m->dyns->len; i++)
      {
        XrlabAttachment *a = g_ptr_array_index (m->dyns, i);
        g_set_error (error, XRLAB_PLAN_ERROR, XRLAB_PLAN_ERROR_MODEL,
                     _("model “%s”: parameter %s has time dependence (%s of %s), but "
                       "there is no delay axis"),
                     m->name, a->host->name, a->models[0], a->file);
        return NULL;
      }
  if (!(flags & XRLAB_PLAN_IGNORE_PROFILES) && n_aux == 0)
    for (guint i = 0; i < m->profiles->len; i++)
      {
        XrlabAttachment *a = g_ptr_array_index (m->profiles, i);
        g_set_error (error, XRLAB_PLAN_ERROR, XRLAB_PLAN_ERROR_MODEL,
                     _("model “%s”: parameter %s has a profile (%s of %s), but there is "
                       "no aux axis"),
                     m->name, a->host->name, a->models[0], a->file);
        return NULL;
      }

  plan = g_new0 (XrlabPlan, 1);
  g_mutex_init (&plan->lock);
  plan->n_e = n_energy;
  plan->n_t = n_time;
  plan->n_a = n_aux;
  plan->n_rows = n_time ? n_time : 1;
  plan->energy = g_memdup2 (energy, n_energy * sizeof (double));
  plan->time = n_time ? g_memdup2 (time, n_time * sizeof (double)) : NULL;
  plan->aux = n_aux ? g_memdup2 (aux, n_aux * sizeof (double)) : NULL;
  /* a uniform energy axis (to rounding): x[e] = x[0] + e dx */
  if (n_energy >= 16)
    {
      double dx = (energy[n_energy - 1] - energy[0]) / (double) (n_energy - 1);
      gboolean uniform = dx != 0.0;
      for (gsize e = 0; e < n_energy && uniform; e++)
        uniform = fabs (energy[e] - (energy[0] + (double) e * dx)) <= 1e-9 * fabs (dx);
      plan->energy_dx = uniform ? dx : 0.0;
    }

  /* parameters and θ */
  plan->n_params = m->all->len;
  plan->param_names = g_new0 (char *, plan->n_params + 1);
  plan->param_slot = g_new0 (guint32, plan->n_params);
  plan->param_base_slot = g_new0 (guint32, plan->n_params);
  plan->param_value = g_new0 (double, plan->n_params);
  plan->param_theta = g_new (gint32, plan->n_params);
  plan->param_prog = g_new (gint32, plan->n_params);
  plan->param_refs_off = g_new0 (guint32, plan->n_params);
  b.plan = plan;
  b.flags = flags;
  for (guint i = 0; i < m->all->len; i++)
    {
      XrlabParam *p = g_ptr_array_index (m->all, i);
      plan->param_names[i] = g_strdup (p->name);
      plan->param_value[i] = p->value;
      plan->param_prog[i] = -1;
      plan->param_theta[i] = param_in_theta (&b, p) ? (gint32) n_theta++ : -1;
    }
  plan->n_theta = n_theta;
  plan->theta_param = g_new0 (guint32, MAX (n_theta, 1));
  plan->theta_init = g_new0 (double, MAX (n_theta, 1));
  plan->theta_lo = g_new0 (double, MAX (n_theta, 1));
  plan->theta_hi = g_new0 (double, MAX (n_theta, 1));
  for (guint i = 0; i < m->all->len; i++)
    if (plan->param_theta[i] >= 0)
      {
        XrlabParam *p = g_ptr_array_index (m->all, i);
        gsize k = plan->param_theta[i];
        plan->theta_param[k] = i;
        plan->theta_init[k] = p->value;
        plan->theta_lo[k] = p->min;
        plan->theta_hi[k] = p->max;
      }

  /* slots and steps, in dependence order */
  b.slots = g_array_new (FALSE, TRUE, sizeof (Slot));
  b.slot_deps = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  b.steps = g_array_new (FALSE, TRUE, sizeof (Step));
  b.inputs = g_array_new (FALSE, TRUE, sizeof (Input));
  b.maps = g_array_new (FALSE, TRUE, sizeof (guint32));
  b.progs = g_array_new (FALSE, TRUE, sizeof (Program));
  b.code = g_array_new (FALSE, TRUE, sizeof (XrlabExprInsn));
  b.consts = g_array_new (FALSE, TRUE, sizeof (double));
  b.fns = g_array_new (FALSE, TRUE, sizeof (Fn));
  b.clock_tau = g_array_new (FALSE, TRUE, sizeof (double));
  b.clock_mask = g_array_new (FALSE, TRUE, sizeof (double));
  b.clocks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  b.state = g_new0 (gint32, plan->n_params);
  /* clock 0: the delay axis itself */
  for (gsize i = 0; i < n_time; i++)
    {
      double one = 1.0;
      g_array_append_val (b.clock_tau, time[i]);
      g_array_append_val (b.clock_mask, one);
    }
  for (guint i = 0; i < m->all->len; i++)
    ensure_param (&b, g_ptr_array_index (m->all, i));

  /* expressions on base values, for xrlab_plan_param_values */
  for (guint i = 0; i < b.steps->len; i++)
    {
      Step *st = &g_array_index (b.steps, Step, i);
      if (st->kind != STEP_EXPR)
        continue;
      for (guint pi = 0; pi < plan->n_params; pi++)
        if (plan->param_prog[pi] == (gint32) st->index)
          {
            XrlabParam *p = g_ptr_array_index (m->all, pi);
            guint32 idx = pi;
            plan->param_refs_off[pi] = base_refs->len;
            for (guint r = 0; r < xrlab_expr_n_refs (p->expr); r++)
              g_array_append_val (base_refs, p->refs[r]->index);
            g_array_append_val (base_order, idx);
          }
    }

  if (plan->has_kernels)
    {
      if (n_time < 1)
        {
          g_set_error (error, XRLAB_PLAN_ERROR, XRLAB_PLAN_ERROR_AXIS,
                       _("a kernel needs a delay axis"));
          ok = FALSE;
        }
      for (gsize i = 1; i < n_time && ok; i++)
        if (!(time[i] > time[i - 1]))
          {
            g_set_error (error, XRLAB_PLAN_ERROR, XRLAB_PLAN_ERROR_AXIS,
                         _("the delay axis must increase strictly where a kernel acts on "
                           "it: delay %zu (%g) does not exceed the one "
                           "before (%g)"),
                         i + 1, time[i], time[i - 1]);
            ok = FALSE;
          }
      if (!ok)
        {
          builder_clear (&b);
          xrlab_plan_free (plan);
          return NULL;
        }
      plan->w_trap = g_new0 (double, n_time);
      for (gsize i = 0; i < n_time; i++)
        plan->w_trap[i] = 0.5 * ((i + 1 < n_time ? time[i + 1] : time[i])
                                 - (i > 0 ? time[i - 1] : time[i]));
      /* a uniform axis, to rounding: t_i = t_0 + i h */
      if (n_time >= 2)
        {
          double h = (time[n_time - 1] - time[0]) / (double) (n_time - 1);
          gboolean uniform = TRUE;
          for (gsize i = 0; i < n_time && uniform; i++)
            uniform = fabs (time[i] - (time[0] + (double) i * h)) <= 1e-12 * fabs (h);
          if (uniform)
            {
              plan->lag_t = g_new (double, 2 * n_time - 1);
              plan->lag_one = g_new (double, 2 * n_time - 1);
              for (gsize k = 0; k < 2 * n_time - 1; k++)
                {
                  plan->lag_t[k] = -((double) (n_time - 1) - (double) k) * h;
                  plan->lag_one[k] = 1.0;
                }
            }
        }
    }

  /* ops */
  for (guint i = 0; i < m->comps->len; i++)
    {
      XrlabComponent *c = g_ptr_array_index (m->comps, i);
      Op op = { c->fn, c->n_params, { 0 }, 0 };
      gboolean constant = TRUE;

      if (xrlab_fn_info (c->fn)->cls == XRLAB_FN_CLASS_PEAK)
        op.flags |= OP_PEAK;
      for (guint q = 0; q < c->n_params; q++)
        {
          guint32 s = plan->param_slot[c->params[q]->index];
          Slot *S = slot_at (&b, s);
          op.slots[q] = s;
          if (S->flags & SLOT_VT)
            op.flags |= OP_VT;
          if (S->flags & SLOT_VA)
            op.flags |= OP_VA;
          if (slot_deps (&b, s)->len > 0)
            constant = FALSE;
        }
      if (constant)
        op.flags |= OP_CONST;
      else if (op.flags & OP_PEAK)
        n_nonconst_peaks++;
      g_array_append_val (op_list, op);
    }

  /* lay out the slots */
  off = soff = doff = 0;
  plan->n_slots = b.slots->len;
  for (guint i = 0; i < b.slots->len; i++)
    {
      Slot *S = slot_at (&b, i);
      GArray *deps = slot_deps (&b, i);
      S->n_cells = ((S->flags & SLOT_VT) ? n_time : 1) * ((S->flags & SLOT_VA) ? n_aux : 1);
      S->n_deps = deps->len;
      S->off = off;
      S->sens_off = soff;
      S->deps_off = doff;
      off += S->n_cells;
      soff += S->n_cells * S->n_deps;
      doff += S->n_deps;
      plan->max_deps = MAX (plan->max_deps, S->n_deps);
    }
  plan->n_values = off;
  plan->n_sens = soff;
  plan->deps = g_new0 (guint32, MAX (doff, 1));
  for (guint i = 0; i < b.slots->len; i++)
    {
      GArray *deps = slot_deps (&b, i);
      if (deps->len)
        memcpy (plan->deps + slot_at (&b, i)->deps_off, deps->data, deps->len * sizeof (guint32));
    }
  plan->slots = STEAL (b.slots, Slot);
  b.slots = NULL;
  plan->inputs = STEAL (b.inputs, Input);
  b.inputs = NULL;
  plan->maps = STEAL (b.maps, guint32);
  b.maps = NULL;
  plan->progs = STEAL (b.progs, Program);
  b.progs = NULL;
  plan->code = STEAL (b.code, XrlabExprInsn);
  b.code = NULL;
  plan->consts = STEAL (b.consts, double);
  b.consts = NULL;
  plan->fns = STEAL (b.fns, Fn);
  b.fns = NULL;
  plan->clock_tau = STEAL (b.clock_tau, double);
  b.clock_tau = NULL;
  plan->clock_mask = STEAL (b.clock_mask, double);
  b.clock_mask = NULL;
  plan->base_refs = STEAL (g_steal_pointer (&base_refs), guint32);
  plan->n_base_order = base_order->len;
  plan->base_order = STEAL (g_steal_pointer (&base_order), guint32);

  plan->nthp = MAX (8, (n_theta + 7) / 8 * 8);
  for (guint i = 0; i < op_list->len; i++)
    {
      Op *op = &g_array_index (op_list, Op, i);
      gsize np = op->n_params * ((op->flags & OP_VA) ? n_aux : 1);
      if ((op->flags & OP_CONST) || op->fn == XRLAB_FN_SHIRLEY)
        continue;
      if (op->flags & OP_VT)
        plan->n_partials += np;
      else
        plan->n_partials1d += np;
    }

  /* values at the model's values: base values, then every step once */
  plan->init_values = g_new0 (double, MAX (plan->n_values, 1));
  for (gsize i = 0; i < plan->n_params; i++)
    if (plan->param_prog[i] < 0)
      plan->init_values[plan->slots[plan->param_base_slot[i]].off] = plan->param_value[i];
  plan->n_steps = b.steps->len;
  plan->steps = (Step *) b.steps->data;
  tmp_ws = xrlab_plan_workspace_new (plan, 1);
  run_steps (plan, tmp_ws, plan->theta_init, FALSE);
  memcpy (plan->init_values, tmp_ws->values, plan->n_values * sizeof (double));
  for (guint i = 0; i < b.steps->len; i++)
    {
      Step *st = &g_array_index (b.steps, Step, i);
      if (plan->slots[st->slot].n_deps > 0)
        g_array_append_val (active, *st);
    }
  plan->n_steps = active->len;
  plan->steps = STEAL (g_steal_pointer (&active), Step);

  /* ops: constant ones now; the others sorted by whether they change with delay */
  plan->n_ops = op_list->len;
  plan->ops = STEAL (g_steal_pointer (&op_list), Op);
  plan->const1d_peak = g_new0 (double, n_energy);
  plan->const1d_other = g_new0 (double, n_energy);
  for (gsize i = 0; i < plan->n_ops; i++)
    {
      Op *op = &plan->ops[i];
      guint32 idx = i;
      if (op->fn == XRLAB_FN_SHIRLEY)
        continue;
      if (!(op->flags & OP_CONST))
        g_array_append_val ((op->flags & OP_VT) ? vt : var1d, idx);
      else if (op->flags & OP_VT)
        {
          if (plan->const2d_peak == NULL)
            {
              plan->const2d_peak = g_new0 (double, n_time * n_energy);
              plan->const2d_other = g_new0 (double, n_time * n_energy);
            }
          for (gsize t = 0; t < n_time; t++)
            op_value (plan, tmp_ws, op, t, plan->const2d_peak + t * n_energy,
                      plan->const2d_other + t * n_energy, tmp_ws->scratch[0].g);
        }
      else
        op_value (plan, tmp_ws, op, 0, plan->const1d_peak, plan->const1d_other,
                  tmp_ws->scratch[0].g);
    }
  /* Shirley: constant when its factor is fixed and every peak is constant */
  for (gsize i = 0; i < plan->n_ops; i++)
    {
      Op *op = &plan->ops[i];
      guint32 idx = i;
      const Slot *S = &plan->slots[op->slots[0]];
      if (op->fn != XRLAB_FN_SHIRLEY)
        continue;
      if (!(op->flags & OP_CONST) || n_nonconst_peaks > 0)
        {
          g_array_append_val (shirley, idx);
          continue;
        }
      if ((S->flags & SLOT_VT) && plan->const2d_peak == NULL)
        {
          plan->const2d_peak = g_new0 (double, n_time * n_energy);
          plan->const2d_other = g_new0 (double, n_time * n_energy);
        }
      {
        gsize nr = plan->const2d_peak ? n_time : 1;
        gsize na = (S->flags & SLOT_VA) ? n_aux : 1;
        double *sum = g_new (double, n_energy), *cum = g_new (double, n_energy);
        for (gsize t = 0; t < nr; t++)
          {
            double ps = 0.0;
            for (gsize a = 0; a < na; a++)
              ps += tmp_ws->values[S->off + cell_of (S, t, a, n_aux)] / (double) na;
            memcpy (sum, plan->const1d_peak, n_energy * sizeof (double));
            if (plan->const2d_peak)
              xrlab_axpy (1.0, plan->const2d_peak + t * n_energy, sum, n_energy);
            xrlab_revcumsum (sum, n_energy, cum);
            xrlab_axpy (ps, cum, plan->const2d_peak ? plan->const2d_other + t * n_energy
                                                    : plan->const1d_other, n_energy);
          }
        g_free (sum);
        g_free (cum);
      }
    }
  xrlab_plan_workspace_free (tmp_ws);
  builder_clear (&b);

  plan->n_var1d = var1d->len;
  plan->var1d = STEAL (g_steal_pointer (&var1d), guint32);
  plan->n_vt = vt->len;
  plan->vt = STEAL (g_steal_pointer (&vt), guint32);
  for (gsize i = 0; i < plan->n_vt; i++)
    if (!(plan->ops[plan->vt[i]].flags & OP_PEAK))
      plan->n_vt_other++;
  plan->n_shirley = shirley->len;
  plan->shirley = STEAL (g_steal_pointer (&shirley), guint32);

  for (gsize i = 0; i < plan->n_shirley; i++)
    if (plan->slots[plan->ops[plan->shirley[i]].slots[0]].flags & SLOT_VT)
      plan->psum_vt = TRUE;
  plan->rows_vary = plan->n_vt > 0 || plan->const2d_peak != NULL || plan->psum_vt;

  plan->own_ws = xrlab_plan_workspace_new (plan, 0);
  return plan;
}

XrlabPlan *
xrlab_plan_new (const XrlabModel *model, const double *energy, gsize n_energy,
                const double *time, gsize n_time, const double *aux, gsize n_aux,
                GError **error)
{
  return xrlab_plan_new_full (model, energy, n_energy, time, n_time, aux, n_aux,
                              XRLAB_PLAN_DEFAULT, error);
}

void
xrlab_plan_free (XrlabPlan *plan)
{
  if (plan == NULL)
    return;
  xrlab_plan_workspace_free (plan->own_ws);
  g_mutex_clear (&plan->lock);
  g_free (plan->energy);
  g_free (plan->time);
  g_free (plan->aux);
  g_strfreev (plan->param_names);
  g_free (plan->param_slot);
  g_free (plan->param_base_slot);
  g_free (plan->param_value);
  g_free (plan->param_theta);
  g_free (plan->param_prog);
  g_free (plan->param_refs_off);
  g_free (plan->base_refs);
  g_free (plan->base_order);
  g_free (plan->theta_param);
  g_free (plan->theta_init);
  g_free (plan->theta_lo);
  g_free (plan->theta_hi);
  g_free (plan->slots);
  g_free (plan->deps);
  g_free (plan->init_values);
  g_free (plan->steps);
  g_free (plan->inputs);
  g_free (plan->maps);
  g_free (plan->progs);
  g_free (plan->code);
  g_free (plan->consts);
  g_free (plan->fns);
  g_free (plan->clock_tau);
  g_free (plan->clock_mask);
  g_free (plan->w_trap);
  g_free (plan->lag_t);
  g_free (plan->lag_one);
  g_free (plan->ops);
  g_free (plan->var1d);
  g_free (plan->vt);
  g_free (plan->shirley);
  g_free (plan->const1d_peak);
  g_free (plan->const1d_other);
  g_free (plan->const2d_peak);
  g_free (plan->const2d_other);
  g_free (plan);
}

/* ---- accessors -------------------------------------------------------------------------------------- */

gboolean
xrlab_plan_is_2d (const XrlabPlan *plan)
{
  return plan->n_t > 0;
}

gsize
xrlab_plan_n_rows (const XrlabPlan *plan)
{
  return plan->n_rows;
}

gsize
xrlab_plan_n_energy (const XrlabPlan *plan)
{
  return plan->n_e;
}

gsize
xrlab_plan_n_data (const XrlabPlan *plan)
{
  return plan->n_rows * plan->n_e;
}

const double *
xrlab_plan_energy (const XrlabPlan *plan)
{
  return plan->energy;
}

const double *
xrlab_plan_time (const XrlabPlan *plan)
{
  return plan->time;
}

gsize
xrlab_plan_n_theta (const XrlabPlan *plan)
{
  return plan->n_theta;
}

const char *
xrlab_plan_theta_name (const XrlabPlan *plan, gsize k)
{
  g_return_val_if_fail (k < plan->n_theta, NULL);
  return plan->param_names[plan->theta_param[k]];
}

gsize
xrlab_plan_theta_param (const XrlabPlan *plan, gsize k)
{
  g_return_val_if_fail (k < plan->n_theta, 0);
  return plan->theta_param[k];
}

void
xrlab_plan_theta_initial (const XrlabPlan *plan, double *theta)
{
  memcpy (theta, plan->theta_init, plan->n_theta * sizeof (double));
}

void
xrlab_plan_theta_bounds (const XrlabPlan *plan, double *lower, double *upper)
{
  if (lower)
    memcpy (lower, plan->theta_lo, plan->n_theta * sizeof (double));
  if (upper)
    memcpy (upper, plan->theta_hi, plan->n_theta * sizeof (double));
}

gssize
xrlab_plan_find_theta (const XrlabPlan *plan, const char *name)
{
  for (gsize k = 0; k < plan->n_theta; k++)
    if (strcmp (plan->param_names[plan->theta_param[k]], name) == 0)
      return (gssize) k;
  return -1;
}

gsize
xrlab_plan_n_params (const XrlabPlan *plan)
{
  return plan->n_params;
}

const char *
xrlab_plan_param_name (const XrlabPlan *plan, gsize i)
{
  g_return_val_if_fail (i < plan->n_params, NULL);
  return plan->param_names[i];
}

void
xrlab_plan_param_gradients (const XrlabPlan *plan, const double *theta, double *values,
                            double *dvalues)
{
  gsize nth = plan->n_theta;
  guint depth = MAX (plan->max_depth, 1), refs = MAX (plan->max_refs, 1);
  double *stack = g_newa (double, depth);
  double *dstack = g_newa (double, (gsize) depth * refs);
  double *grad = g_newa (double, refs);
  double *rv = g_newa (double, refs);

  for (gsize i = 0; i < plan->n_params; i++)
    {
      gint32 k = plan->param_theta[i];
      values[i] = k >= 0 ? theta[k] : plan->param_value[i];
      if (dvalues)
        {
          memset (dvalues + i * nth, 0, nth * sizeof (double));
          if (k >= 0)
            dvalues[i * nth + k] = 1.0;
        }
    }
  for (gsize o = 0; o < plan->n_base_order; o++)
    {
      guint32 i = plan->base_order[o];
      const Program *prog = &plan->progs[plan->param_prog[i]];
      const guint32 *ref = plan->base_refs + plan->param_refs_off[i];
      const XrlabExprInsn *code = plan->code + prog->code_off;

      for (guint r = 0; r < prog->n_refs; r++)
        rv[r] = values[ref[r]];
      if (dvalues == NULL)
        {
          values[i] = xrlab_expr_eval (code, prog->n_code, plan->consts, rv, stack);
          continue;
        }
      values[i] = xrlab_expr_eval_grad (code, prog->n_code, plan->consts, rv, prog->n_refs,
                                        stack, dstack, grad);
      for (guint r = 0; r < prog->n_refs; r++)
        if (grad[r] != 0.0)
          for (gsize k = 0; k < nth; k++)
            dvalues[i * nth + k] += grad[r] * dvalues[ref[r] * nth + k];
    }
}

void
xrlab_plan_param_values (const XrlabPlan *plan, const double *theta, double *values)
{
  xrlab_plan_param_gradients (plan, theta, values, NULL);
}
