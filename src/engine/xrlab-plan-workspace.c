/* xrlab-plan-workspace.c -- the memory of one evaluation and its parts on the thread pool
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-plan.h"
#include "xrlab-plan-private.h"
#include "xrlab-parallel.h"

#include <string.h>

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

void
xrlab_plan_workspace_run (XrlabPlanWorkspace *ws, RowJob job)
{
  RowRun run = { ws, job, ws->plan->rows_vary ? ws->plan->n_rows : 1 };

  if (ws->n_threads == 1 || run.n_rows < 2 * ws->n_threads)
    {
      job (ws, &ws->scratch[0], 0, run.n_rows);
      return;
    }
  xrlab_parallel_run (xrlab_parallel_default (), ws->n_threads, run_part, &run);
}

/* ---- workspaces ------------------------------------------------------------------------------------ */

guint
xrlab_plan_workspace_n_threads (const XrlabPlanWorkspace *ws)
{
  return ws->n_threads;
}

void
xrlab_plan_workspace_set_abort (XrlabPlanWorkspace *ws, const gint *flag)
{
  ws->abort = flag;
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
