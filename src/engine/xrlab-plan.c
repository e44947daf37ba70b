/* xrlab-plan.c -- a model compiled for evaluation: what a plan answers about
 * itself (shape, θ, parameters and their gradients); building, evaluation and
 * workspaces are in xrlab-plan-{build,eval,workspace}.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-plan.h"
#include "xrlab-plan-private.h"

#include <string.h>

G_DEFINE_QUARK (xrlab-plan-error-quark, xrlab_plan_error)

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
      const guint32 *ref = plan->base_refs != NULL ? plan->base_refs + plan->param_refs_off[i] : NULL;
      const XrlabExprInsn *code = plan->code != NULL ? plan->code + prog->code_off : NULL;

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

gboolean
xrlab_plan_param_depends_on_theta (const XrlabPlan *plan, gsize i)
{
  g_return_val_if_fail (i < plan->n_params, FALSE);
  return plan->param_dep[i];
}

void
xrlab_plan_param_values (const XrlabPlan *plan, const double *theta, double *values)
{
  xrlab_plan_param_gradients (plan, theta, values, NULL);
}
