/* xrlab-fitflow-mcmc.c -- MCMC on the residual of a stage of the fit workflow
 * (xrlab_fitflow_mcmc in xrlab-fitflow.h; the sampler is xrlab-mcmc.c)
 *
 * Every evaluation slot has its own plan workspace (one thread) and, when
 * the plan's domain is larger than the fitted block, its own domain buffer,
 * so the walkers of one half-step are evaluated in parallel.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-fitflow.h"
#include "xrlab-fitflow-private.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "xrlab-fit-private.h"
#include "xrlab-parallel.h"
#include "xrlab-plan.h"

typedef struct {
  XrlabFitflowCtx *c;
  guint n_slots;
  XrlabPlanWorkspace **ws;     /* n_slots */
  double **buf;                /* n_slots × domain */
  double *w;                   /* 1/σ per fitted point */
} Mc;

static gboolean
mc_residual (const double *theta, double *resid, guint slot, gpointer data)
{
  Mc *mc = data;
  XrlabFitflowCtx *c = mc->c;
  const gsize n = c->rows * c->cols;
  double *m = c->direct ? resid : mc->buf[slot];

  xrlab_plan_eval_ws (c->plan, mc->ws[slot], theta, m);
  if (!c->direct)
    for (gsize r = 0; r < c->rows; r++)
      memcpy (resid + r * c->cols, m + (r + c->row_off) * c->dom_cols, c->cols * sizeof (double));
  for (gsize i = 0; i < n; i++)
    resid[i] = (resid[i] - c->y[i]) * mc->w[i];
  return TRUE;
}

gboolean
xrlab_fitflow_mcmc (XrlabFitflowResult *result, const XrlabMcmcOptions *options,
                    GCancellable *cancellable, XrlabMcmcResult **mcmc, GError **error)
{
  XrlabFitflowCtx *c;
  XrlabMcmcOptions o;
  XrlabMcmcProblem pb = { 0 };
  Mc mc = { 0 };
  gsize n;
  gboolean ok;

  g_return_val_if_fail (result != NULL && result->ctx != NULL && mcmc != NULL, FALSE);
  *mcmc = NULL;
  c = result->ctx;
  if (c->fit == NULL)
    {
      g_set_error (error, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_PARAM,
                   _("MCMC is not available for a joint fit of several files"));
      return FALSE;
    }
  if (options)
    o = *options;
  else
    xrlab_mcmc_options_init (&o);
  if (o.noise == XRLAB_MCMC_NOISE_AUTO)
    o.noise = result->fit->weighted ? XRLAB_MCMC_NOISE_KNOWN : XRLAB_MCMC_NOISE_SAMPLED;
  if (o.noise == XRLAB_MCMC_NOISE_SAMPLED && !(o.sigma_ini > 0))
    o.sigma_ini = sqrt (result->fit->redchi);   /* the scale of the residuals */

  n = c->rows * c->cols;
  mc.c = c;
  mc.n_slots = xrlab_parallel_n_threads (xrlab_parallel_default ());
  mc.ws = g_new0 (XrlabPlanWorkspace *, mc.n_slots);
  mc.buf = g_new0 (double *, mc.n_slots);
  for (guint s = 0; s < mc.n_slots; s++)
    {
      mc.ws[s] = xrlab_plan_workspace_new (c->plan, 1);
      if (!c->direct)
        mc.buf[s] = g_new (double, c->dom_rows * c->dom_cols);
    }
  mc.w = g_new (double, n);
  for (gsize i = 0; i < n; i++)
    mc.w[i] = xrlab_fit_row_weight (c->fit, i);

  pb.n = n;
  pb.p = result->n_theta;
  pb.residual = mc_residual;
  pb.user_data = &mc;
  pb.n_slots = mc.n_slots;
  pb.names = (const char *const *) result->theta_names;
  pb.lower = c->fit->lower;
  pb.upper = c->fit->upper;
  pb.start = result->fit->values;
  pb.start_scale = result->fit->errors_valid ? result->fit->errors : NULL;
  ok = xrlab_mcmc_run (&pb, &o, cancellable, mcmc, error);

  for (guint s = 0; s < mc.n_slots; s++)
    {
      xrlab_plan_workspace_free (mc.ws[s]);
      g_free (mc.buf[s]);
    }
  g_free (mc.ws);
  g_free (mc.buf);
  g_free (mc.w);
  return ok;
}
