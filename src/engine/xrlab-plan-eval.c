/* xrlab-plan-eval.c -- the step interpreter and the assembly of the rows of the model and
 * of its Jacobian (the packed form: xrlab-plan-private.h)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-plan.h"
#include "xrlab-plan-private.h"

#include <math.h>
#include <string.h>

/* ---- running the steps ------------------------------------------------------------------ */

static void
run_expr (const XrlabPlan *plan, XrlabPlanWorkspace *ws, const Step *st, gboolean jac)
{
  const Slot *T = &plan->slots[st->slot];
  const Program *prog = &plan->progs[st->index];
  /* (a constant expression has no inputs: the array may be NULL) */
  const XrlabExprInsn *code = plan->code != NULL ? plan->code + prog->code_off : NULL;
  const Input *in = plan->inputs != NULL ? plan->inputs + st->in_off : NULL;
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
  const Input *in = plan->inputs != NULL ? plan->inputs + st->in_off : NULL;
  const Slot *B = &plan->slots[in[0].slot];
  gboolean profile = st->kind == STEP_PROFILE;
  gsize nt = (T->flags & SLOT_VT) ? plan->n_t : 1, na = (T->flags & SLOT_VA) ? plan->n_a : 1;
  double *p = ws->pvals, *d = ws->pd;
  gboolean params_vt = FALSE;

  /* The functions' parameters are scalars (gathered once), except those of
   * a profile whose parameters have time dependence of their own (per
   * delay). */
  for (guint i = 1; i < st->n_in; i++)
    {
      p[i - 1] = ws->values[plan->slots[in[i].slot].off];
      params_vt |= (plan->slots[in[i].slot].flags & SLOT_VT) != 0;
    }

  for (gsize t = 0; t < nt; t++)
    for (gsize a = 0; a < na; a++)
      {
        gsize c = cell_of (T, t, a, plan->n_a);
        gsize cb = cell_of (B, t, a, plan->n_a);
        double v = ws->values[B->off + cb];
        double *sT = jac ? ws->sens + T->sens_off + c * T->n_deps : NULL;
        guint k = 1;

        if (params_vt && a == 0)
          for (guint i = 1; i < st->n_in; i++)
            {
              const Slot *S = &plan->slots[in[i].slot];
              p[i - 1] = ws->values[S->off + cell_of (S, t, 0, plan->n_a)];
            }

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
                  const double *sS = ws->sens + S->sens_off
                                     + cell_of (S, t, 0, plan->n_a) * S->n_deps;
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
  const Input *in = plan->inputs != NULL ? plan->inputs + st->in_off : NULL;
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

void
xrlab_plan_run_steps (const XrlabPlan *plan, XrlabPlanWorkspace *ws, const double *theta, gboolean jac)
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
void
xrlab_plan_op_value (const XrlabPlan *plan, const XrlabPlanWorkspace *ws, const Op *op, gsize t,
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
        xrlab_plan_op_value (plan, ws, &plan->ops[plan->vt[i]], t, out, out, sc->g);
      return;
    }
  memcpy (sc->peak, ws->row1d_peak, n * sizeof (double));
  if (plan->const2d_peak)
    xrlab_axpy (1.0, plan->const2d_peak + t * n, sc->peak, n);
  for (gsize i = 0; i < plan->n_vt; i++)
    if (plan->ops[plan->vt[i]].flags & OP_PEAK)
      xrlab_plan_op_value (plan, ws, &plan->ops[plan->vt[i]], t, sc->peak, NULL, sc->g);
  if (plan->n_vt_other > 0 || plan->const2d_other)
    {
      memcpy (sc->other, ws->row1d_other, n * sizeof (double));
      if (plan->const2d_other)
        xrlab_axpy (1.0, plan->const2d_other + t * n, sc->other, n);
      for (gsize i = 0; i < plan->n_vt; i++)
        if (!(plan->ops[plan->vt[i]].flags & OP_PEAK))
          xrlab_plan_op_value (plan, ws, &plan->ops[plan->vt[i]], t, NULL, sc->other, sc->g);
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
    {
      if (ws->abort != NULL && g_atomic_int_get (ws->abort))
        return;
      eval_row (plan, ws, sc, t, ws->out + t * plan->n_e);
    }
}

static void
job_jac (XrlabPlanWorkspace *ws, Scratch *sc, gsize r0, gsize r1)
{
  const XrlabPlan *plan = ws->plan;

  for (gsize t = r0; t < r1; t++)
    {
      if (ws->abort != NULL && g_atomic_int_get (ws->abort))
        return;
      jac_row (plan, ws, sc, t, ws->out ? ws->out + t * plan->n_e : NULL,
               ws->jac + t * plan->n_e * plan->n_theta);
    }
}

/* ---- calls ---------------------------------------------------------------------------------------- */

static void
prepare_call (const XrlabPlan *plan, XrlabPlanWorkspace *ws, const double *theta,
              gboolean jac)
{
  gsize n = plan->n_e;

  xrlab_plan_run_steps (plan, ws, theta, jac);
  memcpy (ws->row1d_peak, plan->const1d_peak, n * sizeof (double));
  memcpy (ws->row1d_other, plan->const1d_other, n * sizeof (double));
  if (!jac)
    {
      for (gsize i = 0; i < plan->n_var1d; i++)
        xrlab_plan_op_value (plan, ws, &plan->ops[plan->var1d[i]], 0, ws->row1d_peak, ws->row1d_other,
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
  xrlab_plan_workspace_run (ws, jac ? job_jac : job_eval);
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

/* ---- parts of the output --------------------------------------------------------------- */

void
xrlab_plan_eval_rows_ws (const XrlabPlan *plan, XrlabPlanWorkspace *ws, const double *theta,
                         gsize row0, gsize n_rows, double *out)
{
  g_return_if_fail (plan != NULL && ws != NULL && ws->plan == plan);
  g_return_if_fail (row0 <= plan->n_rows && n_rows <= plan->n_rows - row0);
  if (row0 == 0 && n_rows == plan->n_rows)
    {
      xrlab_plan_eval_ws (plan, ws, theta, out);
      return;
    }
  prepare_call (plan, ws, theta, FALSE);
  for (gsize r = 0; r < n_rows; r++)
    eval_row (plan, ws, &ws->scratch[0], row0 + r, out + r * plan->n_e);
}

gsize
xrlab_plan_n_components (const XrlabPlan *plan)
{
  return plan->n_ops;
}

void
xrlab_plan_eval_component_rows_ws (const XrlabPlan *plan, XrlabPlanWorkspace *ws,
                                   const double *theta, gsize component, gsize row0,
                                   gsize n_rows, double *out)
{
  const gsize n = plan->n_e;
  Scratch *sc = &ws->scratch[0];
  const Op *op;

  g_return_if_fail (plan != NULL && ws != NULL && ws->plan == plan);
  g_return_if_fail (component < plan->n_ops);
  g_return_if_fail (row0 <= plan->n_rows && n_rows <= plan->n_rows - row0);
  op = &plan->ops[component];
  xrlab_plan_run_steps (plan, ws, theta, FALSE);
  for (gsize r = 0; r < n_rows; r++)
    {
      gsize t = row0 + r;
      double *o = out + r * n;

      memset (o, 0, n * sizeof (double));
      if (op->fn != XRLAB_FN_SHIRLEY)
        {
          xrlab_plan_op_value (plan, ws, op, t, o, o, sc->g);
          continue;
        }
      /* its factor (the mean over the aux points) times the integral of
       * the sum of every peak, as eval_row adds it */
      {
        const Slot *S = &plan->slots[op->slots[0]];
        gsize na = (S->flags & SLOT_VA) ? plan->n_a : 1;
        double ps = 0.0;

        memset (sc->peak, 0, n * sizeof (double));
        for (gsize i = 0; i < plan->n_ops; i++)
          if (plan->ops[i].flags & OP_PEAK)
            xrlab_plan_op_value (plan, ws, &plan->ops[i], t, sc->peak, NULL, sc->g);
        for (gsize a = 0; a < na; a++)
          ps += ws->values[S->off + cell_of (S, t, a, plan->n_a)] / (double) na;
        xrlab_revcumsum (sc->peak, n, sc->cum);
        xrlab_axpy (ps, sc->cum, o, n);
      }
    }
}

gsize
xrlab_plan_param_trace (const XrlabPlan *plan, XrlabPlanWorkspace *ws, const double *theta,
                        gsize param, double *out)
{
  const Slot *S;
  gsize na;

  g_return_val_if_fail (param < plan->n_params, 0);
  xrlab_plan_run_steps (plan, ws, theta, FALSE);
  S = &plan->slots[plan->param_slot[param]];
  na = (S->flags & SLOT_VA) ? plan->n_a : 1;
  for (gsize t = 0; t < plan->n_rows; t++)
    for (gsize a = 0; a < na; a++)
      out[t * na + a] = ws->values[S->off + cell_of (S, t, a, plan->n_a)];
  return plan->n_rows * na;
}
