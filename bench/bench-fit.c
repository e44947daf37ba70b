/* bench-fit.c -- the least-squares optimizer on a problem of the size of a
 * global 2D fit
 *
 * A synthetic time-resolved map of 212 delays × 1131 energies (the layout of
 * the Au 4f measurement): a linear background and a doublet of Gaussians whose
 * position follows a sine in delay, 10 free parameters, Gaussian noise of a
 * known σ. The fit starts a few per cent off the truth. Reported (medians
 * over the repeats):
 *   fit.core_n, fit.core_p            problem size
 *   fit.core_chol_s, fit.core_qr_s    wall time of the whole fit with the
 *                                     default solver and with GSL's QR solver
 *   fit.core_chol_iter_ms             wall time per iteration (default solver)
 *   fit.core_chol_overhead_ms         ... of which outside the model and
 *                                     Jacobian callbacks, per iteration
 *   fit.core_qr_overhead_ms           the same with GSL's QR solver
 *   fit.core_niter, fit.core_nfev, fit.core_njev
 *   fit.core_redchi                   reduced χ² (≈ 1: σ is the noise level)
 * XRLAB_BENCH_REPEATS=k (1..5) runs fewer repeats.
 * Checks: both solvers converge to the same χ² (1e−9 relative), every
 * parameter is within 5 standard errors of the truth, reduced χ² within 2 %
 * of 1.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench-private.h"
#include "xrlab-fit.h"
#include "xrlab-util.h"

#define NT 212
#define NE 1131
#define NP 10
#define REPEATS 5
#define NOISE 2.0

enum { Y0, SLOPE, A1, A2, X0, W, SPLIT, AMP, FREQ, PHASE };

static const char *const names[NP] = {
  "y0", "slope", "A1", "A2", "x0", "w", "split", "amp", "freq", "phase",
};

typedef struct {
  double t[NT];
  double e[NE];
  double callback_s;
} Map;

static gboolean
map_model (const double *th, double *out, gpointer data, GError **error)
{
  Map *m = data;
  const double k = 4.0 * G_LN2 / (th[W] * th[W]);
  double t0 = xrlab_now ();

  for (gsize r = 0; r < NT; r++)
    {
      const double x0 = th[X0] + th[AMP] * sin (2 * G_PI * th[FREQ] * m->t[r] + th[PHASE]);
      double *row = out + r * NE;
      for (gsize c = 0; c < NE; c++)
        {
          const double d1 = m->e[c] - x0, d2 = d1 - th[SPLIT];
          row[c] = th[Y0] + th[SLOPE] * (m->e[c] - 84.0) + th[A1] * exp (-k * d1 * d1)
                   + th[A2] * exp (-k * d2 * d2);
        }
    }
  m->callback_s += xrlab_now () - t0;
  return TRUE;
}

static gboolean
map_jacobian (const double *th, double *jac, gpointer data, GError **error)
{
  Map *m = data;
  const double k = 4.0 * G_LN2 / (th[W] * th[W]);
  double t0 = xrlab_now ();

  for (gsize r = 0; r < NT; r++)
    {
      const double ph = 2 * G_PI * th[FREQ] * m->t[r] + th[PHASE];
      const double s = sin (ph), c = cos (ph);
      const double x0 = th[X0] + th[AMP] * s;
      for (gsize ci = 0; ci < NE; ci++)
        {
          const double d1 = m->e[ci] - x0, d2 = d1 - th[SPLIT];
          const double g1 = exp (-k * d1 * d1), g2 = exp (-k * d2 * d2);
          /* ∂m/∂x0 through both peaks */
          const double dx = th[A1] * g1 * 2 * k * d1 + th[A2] * g2 * 2 * k * d2;
          double *j = jac + (r * NE + ci) * NP;
          j[Y0] = 1.0;
          j[SLOPE] = m->e[ci] - 84.0;
          j[A1] = g1;
          j[A2] = g2;
          j[X0] = dx;
          j[W] = (th[A1] * g1 * d1 * d1 + th[A2] * g2 * d2 * d2) * 2 * k / th[W];
          j[SPLIT] = th[A2] * g2 * 2 * k * d2;
          j[AMP] = dx * s;
          j[FREQ] = dx * th[AMP] * c * 2 * G_PI * m->t[r];
          j[PHASE] = dx * th[AMP] * c;
        }
    }
  m->callback_s += xrlab_now () - t0;
  return TRUE;
}

typedef struct {
  double wall_s, overhead_s;
  XrlabFitResult *result;
} Run;

static gboolean
run_fit (Map *map, const double *y, XrlabFitSolver solver, const double *start, Run *out)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabFit) fit = NULL;
  XrlabFitOptions o;
  const double sigma = NOISE;
  XrlabFitProblem prob = {
    .n = NT * NE, .p = NP, .n_rows = NT, .n_cols = NE,
    .model = map_model, .jacobian = map_jacobian, .user_data = map,
    .data = y, .names = names, .sigma_kind = XRLAB_FIT_SIGMA_SCALAR, .sigma = &sigma,
  };

  xrlab_fit_options_init (&o);
  o.solver = solver;

  fit = xrlab_fit_new (&prob, &o, &error);
  if (fit == NULL)
    {
      xrlab_bench_check (FALSE, "fit set-up: %s", error->message);
      return FALSE;
    }
  map->callback_s = 0.0;
  if (!xrlab_fit_run (fit, start, NULL, &out->result, &error))
    {
      xrlab_bench_check (FALSE, "fit: %s", error->message);
      return FALSE;
    }
  out->wall_s = out->result->wall_s;
  out->overhead_s = out->result->wall_s - map->callback_s;
  return TRUE;
}

int
xrlab_bench_fit (int argc, char **argv)
{
  const double truth[NP] = { 120.0, -1.5, 900.0, 675.0, 84.0, 0.9, 3.67, 0.12, 0.25, 0.4 };
  double start[NP];
  g_autofree double *y = g_new (double, NT * NE);
  Map *map = g_new0 (Map, 1);
  double chol_s[REPEATS], qr_s[REPEATS], chol_ov[REPEATS], qr_ov[REPEATS];
  double chol_iter[REPEATS];
  XrlabFitResult *chol = NULL, *qr = NULL;
  GRand *rand = g_rand_new_with_seed (20240611);
  int repeats = g_getenv ("XRLAB_BENCH_REPEATS") ? atoi (g_getenv ("XRLAB_BENCH_REPEATS")) : REPEATS;

  repeats = CLAMP (repeats, 1, REPEATS);

  for (gsize r = 0; r < NT; r++)
    map->t[r] = -0.328 + 0.0821 * (double) r;
  for (gsize c = 0; c < NE; c++)
    map->e[c] = 94.912 - 0.016 * (double) c;
  map_model (truth, y, map, NULL);
  for (gsize i = 0; i < NT * NE; i++)
    {
      /* Box–Muller */
      double u1 = g_rand_double_range (rand, 1e-300, 1.0), u2 = g_rand_double (rand);
      y[i] += NOISE * sqrt (-2.0 * log (u1)) * cos (2 * G_PI * u2);
    }
  g_rand_free (rand);
  /* A start a scientist would make by eye: amplitudes and background 10 %
   * off, positions a few channels off, the sine roughly right (a frequency
   * or phase far off is another local minimum). */
  {
    const double offset[NP] = { 0.9, 0.8, 1.1, 0.9, 1.0, 1.15, 1.0, 0.8, 1.004, 1.0 };
    for (gsize j = 0; j < NP; j++)
      start[j] = truth[j] * offset[j];
    start[X0] = truth[X0] + 0.08;
    start[SPLIT] = truth[SPLIT] - 0.05;
    start[PHASE] = truth[PHASE] + 0.1;
  }

  for (int k = 0; k < repeats; k++)
    {
      Run a = { 0 }, b = { 0 };
      if (!run_fit (map, y, XRLAB_FIT_SOLVER_CHOLESKY, start, &a)
          || !run_fit (map, y, XRLAB_FIT_SOLVER_QR, start, &b))
        goto out;
      chol_s[k] = a.wall_s;
      qr_s[k] = b.wall_s;
      chol_ov[k] = 1e3 * a.overhead_s / MAX (1, a.result->niter);
      qr_ov[k] = 1e3 * b.overhead_s / MAX (1, b.result->niter);
      chol_iter[k] = 1e3 * a.wall_s / MAX (1, a.result->niter);
      g_clear_pointer (&chol, xrlab_fit_result_free);
      g_clear_pointer (&qr, xrlab_fit_result_free);
      chol = a.result;
      qr = b.result;
    }

  xrlab_bench_check (chol->converged && qr->converged, "both fits converge (%s / %s)",
                     chol->message, qr->message);
  xrlab_bench_check (fabs (chol->chi2 - qr->chi2) <= 1e-9 * qr->chi2,
                     "same minimum with both solvers: χ² %.12g vs %.12g", chol->chi2,
                     qr->chi2);
  xrlab_bench_check (fabs (chol->redchi - 1.0) < 0.02, "reduced χ² %.6g ≈ 1", chol->redchi);
  for (gsize j = 0; j < NP; j++)
    xrlab_bench_check (chol->errors_valid
                       && fabs (chol->values[j] - truth[j]) < 5 * chol->errors[j],
                       "%s = %.8g ± %.3g recovers %.8g", names[j], chol->values[j],
                       chol->errors[j], truth[j]);

  xrlab_bench_report ("fit.core_n", (double) (NT * NE));
  xrlab_bench_report ("fit.core_p", NP);
  xrlab_bench_report ("fit.core_chol_s", xrlab_bench_median (chol_s, repeats));
  xrlab_bench_report ("fit.core_qr_s", xrlab_bench_median (qr_s, repeats));
  xrlab_bench_report ("fit.core_chol_iter_ms", xrlab_bench_median (chol_iter, repeats));
  xrlab_bench_report ("fit.core_chol_overhead_ms", xrlab_bench_median (chol_ov, repeats));
  xrlab_bench_report ("fit.core_qr_overhead_ms", xrlab_bench_median (qr_ov, repeats));
  xrlab_bench_report ("fit.core_niter", chol->niter);
  xrlab_bench_report ("fit.core_nfev", chol->nfev);
  xrlab_bench_report ("fit.core_njev", chol->njev);
  xrlab_bench_report ("fit.core_redchi", chol->redchi);

out:
  g_clear_pointer (&chol, xrlab_fit_result_free);
  g_clear_pointer (&qr, xrlab_fit_result_free);
  g_free (map);
  return xrlab_bench_failed () ? 1 : 0;
}
