/* bench-models.c -- per-call evaluation and Jacobian of spectral model plans
 *
 * Two cases (issue 6):
 *  au4f    the layout of the real Au 4f measurement (212 delays × 1131
 *          energies, axes from $XRLAB_SHARED_DATA/trspecfit-au4f): Offset +
 *          Shirley + a GLP doublet tied by expressions, GLP_01_x0 following
 *          sinFun (data/models/au4f.yaml "2D", au4f-time.yaml "SinOsc")
 *  expirf  481 delays × 400 energies: LinBack + GLP, GLP_01_x0 following
 *          expFun convolved with gaussCONV (data/models/expirf.yaml,
 *          time.yaml "MonoExpIRF")
 *
 * Every θ entry is free. Each case checks the evaluation against the plain
 * reference evaluator (tests/model-reference.c) and the Jacobian against
 * central differences before timing; medians over many calls.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench-private.h"
#include "bench-models-config.h"
#include "model-reference.h"
#include "xrlab-model.h"
#include "xrlab-plan.h"
#include "xrlab-util.h"

static XrlabModel *
load_model (const char *file, const char *name, const char *param, const char *time_file,
            const char *time_model)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (XRLAB_MODELS_DIR, file, NULL);
  g_autofree char *tpath = g_build_filename (XRLAB_MODELS_DIR, time_file, NULL);
  const char *models[] = { time_model };
  XrlabModel *m = xrlab_model_load (path, name, &error);

  if (m == NULL || !xrlab_model_add_dynamics (m, param, tpath, models, 1, 0, &error))
    {
      fprintf (stderr, "bench models: %s\n", error->message);
      exit (1);
    }
  return m;
}

/* Checks the plan against the reference and the Jacobian against central
 * differences. */
static void
verify (const char *key, const XrlabModel *m, const XrlabPlan *plan, const double *energy,
        gsize n_e, const double *time, gsize n_t)
{
  gsize n = xrlab_plan_n_data (plan), nth = xrlab_plan_n_theta (plan);
  g_autofree double *theta = g_new (double, nth);
  g_autofree double *out = g_new (double, n);
  g_autofree double *jac = g_new (double, n * nth);
  g_autofree double *fp = g_new (double, n);
  g_autofree double *fm = g_new (double, n);
  g_autofree double *ref = NULL;
  g_autoptr(XrlabPlanWorkspace) ws = xrlab_plan_workspace_new (plan, 1);
  double scale = 0.0, worst = 0.0, jmax = 0.0, jworst = 0.0;

  xrlab_plan_theta_initial (plan, theta);
  for (gsize k = 0; k < nth; k++)   /* off the file's round numbers */
    theta[k] += 0.013 * (fabs (theta[k]) + 0.01) * ((k % 2) ? 1.0 : -1.0);
  ref = xrlab_reference_eval (m, 0, theta, energy, n_e, time, n_t, NULL, 0);
  xrlab_plan_eval (plan, theta, out);
  for (gsize i = 0; i < n; i++)
    scale = MAX (scale, fabs (ref[i]));
  for (gsize i = 0; i < n; i++)
    worst = MAX (worst, fabs (out[i] - ref[i]) / MAX (fabs (ref[i]), 1e-6 * scale));
  xrlab_bench_check (worst <= 1e-10, "%s: plan differs from the reference by %g", key, worst);

  xrlab_plan_jacobian (plan, theta, jac);
  for (gsize i = 0; i < n * nth; i++)
    jmax = MAX (jmax, fabs (jac[i]));
  for (gsize k = 0; k < nth; k++)
    {
      double t0 = theta[k], h = 1e-6 * MAX (1.0, fabs (t0));
      theta[k] = t0 + h;
      xrlab_plan_eval_ws (plan, ws, theta, fp);
      theta[k] = t0 - h;
      xrlab_plan_eval_ws (plan, ws, theta, fm);
      theta[k] = t0;
      for (gsize i = 0; i < n; i++)
        jworst = MAX (jworst, fabs ((fp[i] - fm[i]) / (2 * h) - jac[i * nth + k]));
    }
  xrlab_bench_check (jworst <= 1e-5 * jmax,
                     "%s: Jacobian differs from central differences by %g (largest %g)",
                     key, jworst, jmax);
  printf ("# %s: %" G_GSIZE_FORMAT " × %" G_GSIZE_FORMAT ", %" G_GSIZE_FORMAT
          " θ, plan vs reference %.2g, Jacobian vs differences %.2g of its largest entry\n",
          key, n_t, n_e, nth, worst, jworst / jmax);
}

static double
time_calls (const XrlabPlan *plan, XrlabPlanWorkspace *ws, gboolean jac, int reps)
{
  gsize n = xrlab_plan_n_data (plan), nth = xrlab_plan_n_theta (plan);
  g_autofree double *theta = g_new (double, nth);
  g_autofree double *buf = g_new (double, jac ? n * nth : n);
  g_autofree double *times = g_new (double, reps);

  xrlab_plan_theta_initial (plan, theta);
  for (int r = 0; r < 5 + reps; r++)
    {
      double t0;
      theta[0] *= (r % 2) ? 1.0000001 : 1.0 / 1.0000001;
      t0 = xrlab_now ();
      if (jac)
        xrlab_plan_jacobian_ws (plan, ws, theta, buf);
      else
        xrlab_plan_eval_ws (plan, ws, theta, buf);
      if (r >= 5)
        times[r - 5] = (xrlab_now () - t0) * 1e3;
      xrlab_bench_consume (buf);
    }
  return xrlab_bench_median (times, reps);
}

static void
bench_case (const char *key, const XrlabModel *m, const double *energy, gsize n_e,
            const double *time, gsize n_t)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabPlan) plan = NULL;
  g_autoptr(XrlabPlanWorkspace) ws = NULL, ws1 = NULL;
  char *k;
  double t0 = xrlab_now (), build_ms;

  plan = xrlab_plan_new (m, energy, n_e, time, n_t, NULL, 0, &error);
  build_ms = (xrlab_now () - t0) * 1e3;
  if (plan == NULL)
    {
      xrlab_bench_check (FALSE, "%s: %s", key, error->message);
      return;
    }
  verify (key, m, plan, energy, n_e, time, n_t);

  ws = xrlab_plan_workspace_new (plan, 0);
  ws1 = xrlab_plan_workspace_new (plan, 1);
  k = g_strdup_printf ("models.%s_threads", key);
  xrlab_bench_report (k, xrlab_plan_workspace_n_threads (ws));
  g_free (k);
  k = g_strdup_printf ("models.%s_plan_build_ms", key);
  xrlab_bench_report (k, build_ms);
  g_free (k);
  k = g_strdup_printf ("models.%s_eval_ms", key);
  xrlab_bench_report (k, time_calls (plan, ws, FALSE, 400));
  g_free (k);
  k = g_strdup_printf ("models.%s_jac_ms", key);
  xrlab_bench_report (k, time_calls (plan, ws, TRUE, 200));
  g_free (k);
  k = g_strdup_printf ("models.%s_eval_1thread_ms", key);
  xrlab_bench_report (k, time_calls (plan, ws1, FALSE, 200));
  g_free (k);
  k = g_strdup_printf ("models.%s_jac_1thread_ms", key);
  xrlab_bench_report (k, time_calls (plan, ws1, TRUE, 100));
  g_free (k);
}

int
xrlab_bench_models (int argc, char **argv)
{
  const char *shared = g_getenv ("XRLAB_SHARED_DATA");
  g_autofree char *dir = g_build_filename (shared && *shared ? shared : XRLAB_SHARED_DATA_DEFAULT,
                                           "trspecfit-au4f", NULL);
  g_autofree char *epath = g_build_filename (dir, "energy.csv", NULL);
  g_autofree char *tpath = g_build_filename (dir, "time.csv", NULL);
  g_autoptr(GError) error = NULL;
  gsize n_e = 0, n_t = 0;
  g_autofree double *energy = xrlab_read_column_file (epath, &n_e, &error);
  g_autofree double *time = energy ? xrlab_read_column_file (tpath, &n_t, &error) : NULL;

  if (time == NULL)
    {
      printf ("# au4f: the Au 4f axes are missing (%s); set XRLAB_SHARED_DATA\n", error->message);
      xrlab_bench_check (FALSE, "au4f: no data");
    }
  else
    {
      g_autoptr(XrlabModel) m = load_model ("au4f.yaml", "2D", "GLP_01_x0", "au4f-time.yaml",
                                            "SinOsc");
      xrlab_bench_check (n_t == 212 && n_e == 1131, "au4f: expected 212 × 1131, found %"
                         G_GSIZE_FORMAT " × %" G_GSIZE_FORMAT, n_t, n_e);
      bench_case ("au4f", m, energy, n_e, time, n_t);
    }

  {
    g_autoptr(XrlabModel) m = load_model ("expirf.yaml", "base", "GLP_01_x0", "time.yaml",
                                          "MonoExpIRF");
    double e[400], t[481];
    for (int i = 0; i < 400; i++)
      e[i] = 0.05 * i;
    for (int i = 0; i < 481; i++)
      t[i] = -20.0 + 0.5 * i;
    bench_case ("expirf", m, e, 400, t, 481);
  }
  return xrlab_bench_failed () ? 1 : 0;
}
