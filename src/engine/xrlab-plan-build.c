/* xrlab-plan-build.c -- building a plan from a model: slots and steps in dependence
 * order, constants folded, ops sorted (the packed form: xrlab-plan-private.h)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-plan.h"
#include "xrlab-plan-private.h"
#include "xrlab-util.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

/* ---- the builder: slots, steps, programs, attachments --------------------------- */

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

/* Whether the parameter @p is part of the plan: those of attachments that
 * the plan leaves out are not (the time dependence of a profile's
 * parameter is left out with the profile). */
static gboolean
param_active (Builder *b, const XrlabParam *p)
{
  if (p->role == XRLAB_PARAM_DYNAMICS)
    return attachment_active (b, p->host->dyn) && param_active (b, p->host);
  if (p->role == XRLAB_PARAM_PROFILE)
    return attachment_active (b, p->host->profile);
  return TRUE;
}

static gboolean
param_in_theta (Builder *b, const XrlabParam *p)
{
  if (!p->vary || p->expr)
    return FALSE;
  return param_active (b, p);
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
  guint32 slot, first_fn, n_fn = 0;
  GArray *deps;

  /* (a profile's parameters may bring steps and functions of their own) */
  for (guint i = 0; i < att->params->len; i++)
    ensure_param (b, g_ptr_array_index (att->params, i));
  first_fn = b->fns->len;

  {
    /* a profile varies with delay where its base does or one of its
     * functions' parameters has time dependence of its own */
    guint32 flags = att->is_profile ? (SLOT_VA | (slot_at (b, src)->flags & SLOT_VT)) : SLOT_VT;
    for (guint i = 0; att->is_profile && i < att->comps->len; i++)
      {
        XrlabComponent *c = g_ptr_array_index (att->comps, i);
        for (guint q = 0; q < c->n_params; q++)
          flags |= slot_at (b, b->plan->param_slot[c->params[q]->index])->flags & SLOT_VT;
      }
    slot = new_slot (b, flags);
  }
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

  if ((p->role == XRLAB_PARAM_ENERGY || p->role == XRLAB_PARAM_PROFILE)
      && attachment_active (b, p->dyn) && param_active (b, p))
    slot = build_attachment (b, p, p->dyn, slot);
  if (p->role == XRLAB_PARAM_ENERGY && attachment_active (b, p->profile))
    slot = build_attachment (b, p, p->profile, slot);

  plan->param_slot[i] = slot;
  b->state[i] = 2;
  return slot;
}

/* ---- the phases of xrlab_plan_new_full() ------------------------------------------ */

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

gboolean
xrlab_plan_check_energy_axis (const double *v, gsize n, const char *name, GError **error)
{
  char a[XRLAB_DTOA_BUFSIZE], b[XRLAB_DTOA_BUFSIZE];
  int dir = 0;

  if (name == NULL)
    name = _("the energy axis");
  if (v == NULL || n == 0)
    {
      g_set_error (error, XRLAB_PLAN_ERROR, XRLAB_PLAN_ERROR_AXIS, _("%s is empty"), name);
      return FALSE;
    }
  for (gsize i = 0; i < n; i++)
    if (!isfinite (v[i]))
      {
        g_set_error (error, XRLAB_PLAN_ERROR, XRLAB_PLAN_ERROR_AXIS,
                     _("%s: value %zu is not a finite number"), name, i + 1);
        return FALSE;
      }
  for (gsize i = 1; i < n; i++)
    {
      int d = (v[i] > v[i - 1]) ? 1 : (v[i] < v[i - 1]) ? -1 : 0;
      if (i == 1)
        dir = d;
      if (d == 0 || d != dir)
        {
          g_set_error (error, XRLAB_PLAN_ERROR, XRLAB_PLAN_ERROR_AXIS,
                       _("%s is not strictly monotonic: value %zu (%s) after %s"),
                       name, i + 1, xrlab_format_double (v[i], a),
                       xrlab_format_double (v[i - 1], b));
          return FALSE;
        }
    }
  return TRUE;
}

/* The axes and whether the model fits them; returns the model's resolved
 * copy. @time NULL and @aux NULL come with n_time = 0 and n_aux = 0. */
static XrlabModel *
check_inputs (const XrlabModel *model, const double *energy, gsize n_energy,
              const double *time, gsize n_time, const double *aux, gsize n_aux,
              XrlabPlanFlags flags, GError **error)
{
  g_autoptr(XrlabModel) m = NULL;

  if (!xrlab_plan_check_energy_axis (energy, n_energy, NULL, error))
    return NULL;
  if (time != NULL && !check_axis (time, n_time, _("delay"), error))
    return NULL;
  if (aux != NULL && !check_axis (aux, n_aux, _("aux"), error))
    return NULL;

  m = xrlab_model_copy (model);
  if (!xrlab_model_resolve (m, error))
    return NULL;
  if (!(flags & XRLAB_PLAN_IGNORE_DYNAMICS) && n_time == 0 && m->dyns->len > 0)
    {
      XrlabAttachment *a = g_ptr_array_index (m->dyns, 0);
      g_set_error (error, XRLAB_PLAN_ERROR, XRLAB_PLAN_ERROR_MODEL,
                   _("model “%s”: parameter %s has time dependence (%s of %s), but "
                     "there is no delay axis"),
                   m->name, a->host->name, a->models[0], a->file);
      return NULL;
    }
  if (!(flags & XRLAB_PLAN_IGNORE_PROFILES) && n_aux == 0 && m->profiles->len > 0)
    {
      XrlabAttachment *a = g_ptr_array_index (m->profiles, 0);
      g_set_error (error, XRLAB_PLAN_ERROR, XRLAB_PLAN_ERROR_MODEL,
                   _("model “%s”: parameter %s has a profile (%s of %s), but there is "
                     "no aux axis"),
                   m->name, a->host->name, a->models[0], a->file);
      return NULL;
    }
  return g_steal_pointer (&m);
}

/* A plan with its axes (copied) and nothing else. */
static XrlabPlan *
plan_alloc (const double *energy, gsize n_energy, const double *time, gsize n_time,
            const double *aux, gsize n_aux)
{
  XrlabPlan *plan = g_new0 (XrlabPlan, 1);

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
  return plan;
}

/* The parameters of @m and which of them are θ, in model order. */
static void
plan_params (Builder *b, const XrlabModel *m)
{
  XrlabPlan *plan = b->plan;
  gsize n_theta = 0;

  plan->n_params = m->all->len;
  plan->param_names = g_new0 (char *, plan->n_params + 1);
  plan->param_slot = g_new0 (guint32, plan->n_params);
  plan->param_base_slot = g_new0 (guint32, plan->n_params);
  plan->param_value = g_new0 (double, plan->n_params);
  plan->param_theta = g_new (gint32, plan->n_params);
  plan->param_prog = g_new (gint32, plan->n_params);
  plan->param_refs_off = g_new0 (guint32, plan->n_params);
  for (guint i = 0; i < m->all->len; i++)
    {
      XrlabParam *p = g_ptr_array_index (m->all, i);
      plan->param_names[i] = g_strdup (p->name);
      plan->param_value[i] = p->value;
      plan->param_prog[i] = -1;
      plan->param_theta[i] = param_in_theta (b, p) ? (gint32) n_theta++ : -1;
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
}

/* The builder's arrays, with clock 0 (the delay axis itself). */
static void
builder_init (Builder *b)
{
  const XrlabPlan *plan = b->plan;

  b->slots = g_array_new (FALSE, TRUE, sizeof (Slot));
  b->slot_deps = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  b->steps = g_array_new (FALSE, TRUE, sizeof (Step));
  b->inputs = g_array_new (FALSE, TRUE, sizeof (Input));
  b->maps = g_array_new (FALSE, TRUE, sizeof (guint32));
  b->progs = g_array_new (FALSE, TRUE, sizeof (Program));
  b->code = g_array_new (FALSE, TRUE, sizeof (XrlabExprInsn));
  b->consts = g_array_new (FALSE, TRUE, sizeof (double));
  b->fns = g_array_new (FALSE, TRUE, sizeof (Fn));
  b->clock_tau = g_array_new (FALSE, TRUE, sizeof (double));
  b->clock_mask = g_array_new (FALSE, TRUE, sizeof (double));
  b->clocks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  b->state = g_new0 (gint32, plan->n_params);
  for (gsize i = 0; i < plan->n_t; i++)
    {
      double one = 1.0;
      g_array_append_val (b->clock_tau, plan->time[i]);
      g_array_append_val (b->clock_mask, one);
    }
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

/* The expression parameters in dependence order with their references, for
 * xrlab_plan_param_values (expressions on base values). */
static void
collect_base_exprs (Builder *b, const XrlabModel *m)
{
  XrlabPlan *plan = b->plan;
  g_autoptr(GArray) base_order = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) base_refs = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint i = 0; i < b->steps->len; i++)
    {
      Step *st = &g_array_index (b->steps, Step, i);
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
  plan->base_refs = STEAL (g_steal_pointer (&base_refs), guint32);
  plan->n_base_order = base_order->len;
  plan->base_order = STEAL (g_steal_pointer (&base_order), guint32);

  /* θ entries, then the expressions reaching one, in dependence order */
  plan->param_dep = g_new0 (gboolean, MAX (plan->n_params, 1));
  for (gsize i = 0; i < plan->n_params; i++)
    plan->param_dep[i] = plan->param_theta[i] >= 0;
  for (gsize o = 0; o < plan->n_base_order; o++)
    {
      guint32 i = plan->base_order[o];
      XrlabParam *p = g_ptr_array_index (m->all, i);
      const guint32 *ref;

      if (plan->base_refs == NULL)   /* no expression refers to anything */
        continue;
      ref = plan->base_refs + plan->param_refs_off[i];
      for (guint r = 0; r < xrlab_expr_n_refs (p->expr) && !plan->param_dep[i]; r++)
        plan->param_dep[i] = plan->param_dep[ref[r]];
    }
}

/* What kernels need of the delay axis: strictly increasing, its trapezoid
 * weights and, when it is uniform, the lags. */
static gboolean
prepare_kernel_axis (XrlabPlan *plan, GError **error)
{
  const double *time = plan->time;
  gsize n_time = plan->n_t;

  if (n_time < 1)
    {
      g_set_error (error, XRLAB_PLAN_ERROR, XRLAB_PLAN_ERROR_AXIS,
                   _("a kernel needs a delay axis"));
      return FALSE;
    }
  for (gsize i = 1; i < n_time; i++)
    if (!(time[i] > time[i - 1]))
      {
        g_set_error (error, XRLAB_PLAN_ERROR, XRLAB_PLAN_ERROR_AXIS,
                     _("the delay axis must increase strictly where a kernel acts on "
                       "it: delay %zu (%g) does not exceed the one "
                       "before (%g)"),
                     i + 1, time[i], time[i - 1]);
        return FALSE;
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
  return TRUE;
}

/* The ops of the energy components, flagged; returns the number of peaks
 * that are not constant. */
static guint32
collect_ops (Builder *b, const XrlabModel *m)
{
  XrlabPlan *plan = b->plan;
  g_autoptr(GArray) op_list = g_array_new (FALSE, TRUE, sizeof (Op));
  guint32 n_nonconst_peaks = 0;

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
          Slot *S = slot_at (b, s);
          op.slots[q] = s;
          if (S->flags & SLOT_VT)
            op.flags |= OP_VT;
          if (S->flags & SLOT_VA)
            op.flags |= OP_VA;
          if (slot_deps (b, s)->len > 0)
            constant = FALSE;
        }
      if (constant)
        op.flags |= OP_CONST;
      else if (op.flags & OP_PEAK)
        n_nonconst_peaks++;
      g_array_append_val (op_list, op);
    }
  plan->n_ops = op_list->len;
  plan->ops = STEAL (g_steal_pointer (&op_list), Op);
  return n_nonconst_peaks;
}

/* Lays the slots out in the value, sensitivity and dependence arrays and
 * takes the builder's arrays (all but the steps). */
static void
layout_slots (Builder *b)
{
  XrlabPlan *plan = b->plan;
  gsize off = 0, soff = 0, doff = 0;

  plan->n_slots = b->slots->len;
  for (guint i = 0; i < b->slots->len; i++)
    {
      Slot *S = slot_at (b, i);
      GArray *deps = slot_deps (b, i);
      S->n_cells = ((S->flags & SLOT_VT) ? plan->n_t : 1) * ((S->flags & SLOT_VA) ? plan->n_a : 1);
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
  for (guint i = 0; i < b->slots->len; i++)
    {
      GArray *deps = slot_deps (b, i);
      if (deps->len)
        memcpy (plan->deps + slot_at (b, i)->deps_off, deps->data, deps->len * sizeof (guint32));
    }
  plan->slots = STEAL (g_steal_pointer (&b->slots), Slot);
  plan->inputs = STEAL (g_steal_pointer (&b->inputs), Input);
  plan->maps = STEAL (g_steal_pointer (&b->maps), guint32);
  plan->progs = STEAL (g_steal_pointer (&b->progs), Program);
  plan->code = STEAL (g_steal_pointer (&b->code), XrlabExprInsn);
  plan->consts = STEAL (g_steal_pointer (&b->consts), double);
  plan->fns = STEAL (g_steal_pointer (&b->fns), Fn);
  plan->clock_tau = STEAL (g_steal_pointer (&b->clock_tau), double);
  plan->clock_mask = STEAL (g_steal_pointer (&b->clock_mask), double);
}

/* The θ block size and the partial derivatives a Jacobian row needs. */
static void
count_partials (XrlabPlan *plan)
{
  plan->nthp = MAX (8, (plan->n_theta + 7) / 8 * 8);
  for (gsize i = 0; i < plan->n_ops; i++)
    {
      const Op *op = &plan->ops[i];
      gsize np = op->n_params * ((op->flags & OP_VA) ? plan->n_a : 1);
      if ((op->flags & OP_CONST) || op->fn == XRLAB_FN_SHIRLEY)
        continue;
      if (op->flags & OP_VT)
        plan->n_partials += np;
      else
        plan->n_partials1d += np;
    }
}

/* The values at the model's values (base values, then every step once);
 * keeps the steps that depend on θ. Returns the workspace that ran them,
 * for the constant ops. */
static XrlabPlanWorkspace *
initial_values (Builder *b)
{
  XrlabPlan *plan = b->plan;
  g_autoptr(GArray) active = g_array_new (FALSE, FALSE, sizeof (Step));
  XrlabPlanWorkspace *tmp_ws;

  plan->init_values = g_new0 (double, MAX (plan->n_values, 1));
  for (gsize i = 0; i < plan->n_params; i++)
    if (plan->param_prog[i] < 0)
      plan->init_values[plan->slots[plan->param_base_slot[i]].off] = plan->param_value[i];
  plan->n_steps = b->steps->len;
  plan->steps = (Step *) b->steps->data;
  tmp_ws = xrlab_plan_workspace_new (plan, 1);
  xrlab_plan_run_steps (plan, tmp_ws, plan->theta_init, FALSE);
  memcpy (plan->init_values, tmp_ws->values, plan->n_values * sizeof (double));
  for (guint i = 0; i < b->steps->len; i++)
    {
      Step *st = &g_array_index (b->steps, Step, i);
      if (plan->slots[st->slot].n_deps > 0)
        g_array_append_val (active, *st);
    }
  plan->n_steps = active->len;
  plan->steps = STEAL (g_steal_pointer (&active), Step);
  return tmp_ws;
}

static void
alloc_const2d (XrlabPlan *plan)
{
  if (plan->const2d_peak == NULL)
    {
      plan->const2d_peak = g_new0 (double, plan->n_t * plan->n_e);
      plan->const2d_other = g_new0 (double, plan->n_t * plan->n_e);
    }
}

/* The constant ops into the constant spectra; the others (not Shirley) into
 * @var1d or @vt by whether they change with delay. */
static void
fold_constant_ops (XrlabPlan *plan, XrlabPlanWorkspace *tmp_ws, GArray *var1d, GArray *vt)
{
  gsize n_energy = plan->n_e;

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
          alloc_const2d (plan);
          for (gsize t = 0; t < plan->n_t; t++)
            xrlab_plan_op_value (plan, tmp_ws, op, t, plan->const2d_peak + t * n_energy,
                                 plan->const2d_other + t * n_energy, tmp_ws->scratch[0].g);
        }
      else
        xrlab_plan_op_value (plan, tmp_ws, op, 0, plan->const1d_peak, plan->const1d_other,
                             tmp_ws->scratch[0].g);
    }
}

/* Shirley ops: constant when the factor is fixed and every peak is constant
 * (then added to the constant spectra), else into @shirley. */
static void
fold_shirley (XrlabPlan *plan, XrlabPlanWorkspace *tmp_ws, gboolean peaks_vary,
              GArray *shirley)
{
  gsize n_energy = plan->n_e, n_aux = plan->n_a;

  for (gsize i = 0; i < plan->n_ops; i++)
    {
      Op *op = &plan->ops[i];
      guint32 idx = i;
      const Slot *S = &plan->slots[op->slots[0]];
      gsize nr, na;
      double *sum, *cum;

      if (op->fn != XRLAB_FN_SHIRLEY)
        continue;
      if (!(op->flags & OP_CONST) || peaks_vary)
        {
          g_array_append_val (shirley, idx);
          continue;
        }
      if (S->flags & SLOT_VT)
        alloc_const2d (plan);
      nr = plan->const2d_peak ? plan->n_t : 1;
      na = (S->flags & SLOT_VA) ? n_aux : 1;
      sum = g_new (double, n_energy);
      cum = g_new (double, n_energy);
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

/* Takes the lists of ops that are evaluated per call. */
static void
set_op_lists (XrlabPlan *plan, GArray *var1d, GArray *vt, GArray *shirley)
{
  plan->n_var1d = var1d->len;
  plan->var1d = STEAL (var1d, guint32);
  plan->n_vt = vt->len;
  plan->vt = STEAL (vt, guint32);
  for (gsize i = 0; i < plan->n_vt; i++)
    if (!(plan->ops[plan->vt[i]].flags & OP_PEAK))
      plan->n_vt_other++;
  plan->n_shirley = shirley->len;
  plan->shirley = STEAL (shirley, guint32);

  for (gsize i = 0; i < plan->n_shirley; i++)
    if (plan->slots[plan->ops[plan->shirley[i]].slots[0]].flags & SLOT_VT)
      plan->psum_vt = TRUE;
  plan->rows_vary = plan->n_vt > 0 || plan->const2d_peak != NULL || plan->psum_vt;
}

XrlabPlan *
xrlab_plan_new_full (const XrlabModel *model, const double *energy, gsize n_energy,
                     const double *time, gsize n_time, const double *aux, gsize n_aux,
                     XrlabPlanFlags flags, GError **error)
{
  g_autoptr(XrlabModel) m = NULL;
  g_autoptr(GArray) var1d = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) vt = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) shirley = g_array_new (FALSE, FALSE, sizeof (guint32));
  XrlabPlanWorkspace *tmp_ws;
  Builder b = { 0 };
  guint32 n_nonconst_peaks;

  g_return_val_if_fail (model != NULL, NULL);
  if (time == NULL)
    n_time = 0;
  if (aux == NULL)
    n_aux = 0;
  m = check_inputs (model, energy, n_energy, time, n_time, aux, n_aux, flags, error);
  if (m == NULL)
    return NULL;

  /* the graph: slots and steps, in dependence order */
  b.plan = plan_alloc (energy, n_energy, time, n_time, aux, n_aux);
  b.flags = flags;
  plan_params (&b, m);
  if (b.plan->n_theta > XRLAB_PLAN_MAX_THETA)
    {
      g_set_error (error, XRLAB_PLAN_ERROR, XRLAB_PLAN_ERROR_MODEL,
                   _("model “%s” has %zu free parameters; a plan takes at most %d (fix "
                     "some, or tie them with expressions)"),
                   m->name, b.plan->n_theta, XRLAB_PLAN_MAX_THETA);
      xrlab_plan_free (b.plan);
      return NULL;
    }
  builder_init (&b);
  for (guint i = 0; i < m->all->len; i++)
    ensure_param (&b, g_ptr_array_index (m->all, i));
  collect_base_exprs (&b, m);
  if (b.plan->has_kernels && !prepare_kernel_axis (b.plan, error))
    {
      xrlab_plan_free (b.plan);
      builder_clear (&b);
      return NULL;
    }
  n_nonconst_peaks = collect_ops (&b, m);

  /* packed, run once at the model's values, constants folded */
  layout_slots (&b);
  count_partials (b.plan);
  tmp_ws = initial_values (&b);
  fold_constant_ops (b.plan, tmp_ws, var1d, vt);
  fold_shirley (b.plan, tmp_ws, n_nonconst_peaks > 0, shirley);
  xrlab_plan_workspace_free (tmp_ws);
  set_op_lists (b.plan, g_steal_pointer (&var1d), g_steal_pointer (&vt),
                g_steal_pointer (&shirley));

  b.plan->own_ws = xrlab_plan_workspace_new (b.plan, 0);
  builder_clear (&b);
  return b.plan;
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
  g_free (plan->param_dep);
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
