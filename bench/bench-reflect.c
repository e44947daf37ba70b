/* bench-reflect.c -- xrlab-bench reflect: mirrors, multilayers, filters
 *
 *   reflect.mirror1000_us      a thick Rh mirror (σ = 0.3 nm) at 10 keV on
 *                              1000 angles 0–10 mrad: R, R_s, R_p, one
 *                              xrlab_reflect_plan_angles() call on a plan
 *                              made before (an angle or polarization edit)
 *   reflect.mirror1000_t_us    the same with T, T_s, T_p
 *   reflect.ml50x1000_ms       B4C cap + 50 × (W 1.0 nm / B4C 1.5 nm) on Si,
 *                              all σ = 0.3 nm (102 interfaces), at 8.048 keV
 *                              on 1000 angles 0–60 mrad: R, R_s, R_p
 *   reflect.ml50_energies1000_ms  the multilayer vs 1000 energies at 20 mrad
 *   reflect.ml50_plan_us       parsing the multilayer's text and making its
 *                              plan on a 1-energy grid with a warm cache (a
 *                              stack edit)
 *   reflect.filter1000_us      Al 100 µm / Cu 25 µm / Kapton 50 µm / 1 m of
 *                              air on 1000 energies, warm cache
 *   reflect.ml50_map200x1000_ms         the multilayer's map, 200 energies
 *                              (5–12 keV) × 1000 angles, R, R_s, R_p, on the
 *                              pool (xrlab_reflect_plan_map_parallel())
 *   reflect.ml50_map200x1000_serial_ms  the same on one thread
 *   reflect.map_threads        the threads the pool lent the map
 *
 * Medians of repeated runs. Checked: the thick mirror against the Fresnel
 * formula with the Névot–Croce factor written out here, the multilayer's
 * angle curve against its energy curve at the same point (another path
 * through the plan) and its first Bragg peak against the refraction-
 * corrected Bragg law, the filter against the product of its layers, the
 * parallel map against the serial one, bit for bit.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench-private.h"
#include "xrlab-optics.h"
#include "xrlab-parallel.h"
#include "xrlab-reflect.h"
#include "xrlab-stack.h"
#include "xrlab-util.h"

#define N_ANGLES 1000

static gboolean
close_rel (double a, double b, double tol)
{
  return fabs (a - b) <= tol * fabs (b);
}

static XrlabReflectPlan *
make_plan (const char *text, XrlabOpticsCache *cache)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabStack) stack = xrlab_stack_parse_reflect (text, NULL, &error);
  XrlabReflectPlan *plan = stack ? xrlab_reflect_plan_new (stack, cache, &error) : NULL;

  xrlab_bench_check (plan != NULL, "%s: %s", text, error ? error->message : "?");
  return plan;
}

/* Times @reps calls of the angle curve, @runs times: the median [µs]. */
static double
time_angles (XrlabReflectPlan *plan, const double *angles, const XrlabReflectOutput *out,
             int runs, int reps)
{
  g_autofree double *t = g_new (double, runs);

  for (int r = 0; r < runs; r++)
    {
      double t0 = xrlab_now ();
      for (int k = 0; k < reps; k++)
        xrlab_reflect_plan_angles (plan, 0, angles, N_ANGLES, out, NULL);
      t[r] = (xrlab_now () - t0) / reps * 1e6;
    }
  xrlab_bench_consume (out->r);
  return xrlab_bench_median (t, runs);
}

static void
bench_mirror (void)
{
  const double e = 10.0;
  g_autoptr(XrlabEnergyGrid) grid = xrlab_energy_grid_new (&e, 1, XRLAB_ENERGY_UNIT_KEV, NULL);
  XrlabOpticsCache *cache = xrlab_optics_cache_new (grid);
  XrlabReflectPlan *plan = make_plan ("Rh:12.41~0.3nm", cache);
  g_autofree double *angles = g_new (double, N_ANGLES);
  g_autofree double *r = g_new (double, N_ANGLES), *rs = g_new (double, N_ANGLES), *rp = g_new (double, N_ANGLES);
  g_autofree double *t = g_new (double, N_ANGLES), *ts = g_new (double, N_ANGLES), *tp = g_new (double, N_ANGLES);
  XrlabReflectOutput out = { 0.0, r, rs, rp, NULL, NULL, NULL };
  XrlabReflectOutput out_t = { 0.0, r, rs, rp, t, ts, tp };
  double us, us_t, worst = 0.0;

  if (plan == NULL)
    return;
  for (int a = 0; a < N_ANGLES; a++)
    angles[a] = 0.01 * (a + 1) / N_ANGLES;
  us = time_angles (plan, angles, &out, 201, 20);
  us_t = time_angles (plan, angles, &out_t, 201, 20);

  /* The Fresnel formula with the Névot–Croce factor, in plain complex. */
  {
    const double *delta = xrlab_reflect_plan_get_delta (plan, 0), *beta = xrlab_reflect_plan_get_beta (plan, 0);
    double k = 2 * G_PI / xrlab_energy_grid_get_wavelengths_a (grid)[0], sigma = 3.0;
    double complex n2 = (1 - delta[0] + I * beta[0]) * (1 - delta[0] + I * beta[0]);

    for (int a = 0; a < N_ANGLES; a++)
      {
        double s = sin (angles[a]);
        double complex k0 = k * s, k1 = k * csqrt (n2 - 1 + s * s);
        double complex rr = (k0 - k1) / (k0 + k1) * cexp (-2 * k0 * k1 * sigma * sigma);
        double complex rpp = (n2 * k0 - k1) / (n2 * k0 + k1) * cexp (-2 * k0 * k1 * sigma * sigma);
        double want_s = creal (rr * conj (rr)), want_p = creal (rpp * conj (rpp));

        worst = MAX (worst, fabs (rs[a] - want_s) / want_s);
        worst = MAX (worst, fabs (rp[a] - want_p) / want_p);
        xrlab_bench_check (close_rel (r[a], 0.5 * (rs[a] + rp[a]), 1e-15), "R is not (R_s + R_p)/2");
        xrlab_bench_check (rs[a] + ts[a] <= 1.0 + 1e-12, "R_s + T_s > 1 at %g rad", angles[a]);
      }
    xrlab_bench_check (worst < 1e-8, "thick mirror vs Fresnel: relative difference %g", worst);
  }
  xrlab_reflect_plan_free (plan);
  xrlab_optics_cache_free (cache);
  xrlab_bench_report ("reflect.mirror1000_us", us);
  xrlab_bench_report ("reflect.mirror1000_t_us", us_t);
}

#define ML50 "B4C:2.52:2nm~0.3nm/{W:19.3:1.0nm~0.3nm/B4C:2.52:1.5nm~0.3nm}x50/Si:2.33~0.3nm"

static void
bench_multilayer (void)
{
  const double e = 8.048;
  g_autoptr(XrlabEnergyGrid) grid = xrlab_energy_grid_new (&e, 1, XRLAB_ENERGY_UNIT_KEV, NULL);
  g_autoptr(XrlabEnergyGrid) grid_e = xrlab_energy_grid_new_range (5.0, 12.0, N_ANGLES, XRLAB_GRID_LINEAR,
                                                                   XRLAB_ENERGY_UNIT_KEV, NULL);
  XrlabOpticsCache *cache = xrlab_optics_cache_new (grid);
  XrlabOpticsCache *cache_e = xrlab_optics_cache_new (grid_e);
  XrlabReflectPlan *plan = make_plan (ML50, cache);
  XrlabReflectPlan *plan_e = make_plan (ML50, cache_e);
  g_autofree double *angles = g_new (double, N_ANGLES);
  g_autofree double *r = g_new (double, N_ANGLES), *rs = g_new (double, N_ANGLES), *rp = g_new (double, N_ANGLES);
  XrlabReflectOutput out = { 0.0, r, rs, rp, NULL, NULL, NULL };
  double ms, ms_e, t_plan[101], t_e[31];
  gsize n_steps = 0, peak = 0;

  if (plan == NULL || plan_e == NULL)
    return;
  xrlab_reflect_plan_get_sizes (plan, NULL, NULL, NULL, &n_steps);
  xrlab_bench_check (n_steps == 102, "the multilayer has %zu interfaces, not 102", n_steps);
  for (int a = 0; a < N_ANGLES; a++)
    angles[a] = 0.06 * (a + 1) / N_ANGLES;
  ms = time_angles (plan, angles, &out, 31, 5) / 1000.0;

  /* The first Bragg peak above the critical angle, against
   * sin²θ = (λ/2d)² + 2δ̄. */
  for (gsize a = 0; a < N_ANGLES; a++)
    if (angles[a] > 0.02 && (peak == 0 || r[a] > r[peak]))
      peak = a;
  {
    double lambda = xrlab_energy_grid_get_wavelengths_a (grid)[0];
    double dw = xrlab_reflect_plan_get_delta (plan, 1)[0], db = xrlab_reflect_plan_get_delta (plan, 0)[0];
    double dbar = (10.0 * dw + 15.0 * db) / 25.0;
    double predicted = asin (sqrt (pow (lambda / 50.0, 2) + 2 * dbar));

    xrlab_bench_check (fabs (angles[peak] / predicted - 1) < 0.01,
                       "Bragg peak at %g rad, predicted %g", angles[peak], predicted);
    xrlab_bench_check (r[peak] > 0.2, "Bragg peak R = %g", r[peak]);
  }

  /* vs energy at 20 mrad; the point at 8.048 keV against the angle curve. */
  {
    g_autofree double *re = g_new (double, N_ANGLES);
    XrlabReflectOutput oe = { 0.0, re, NULL, NULL, NULL, NULL, NULL };
    double theta = 0.02, r1;
    XrlabReflectOutput o1 = { 0.0, &r1, NULL, NULL, NULL, NULL, NULL };
    const double e1 = xrlab_energy_grid_get_energies_kev (grid_e)[437];
    g_autoptr(XrlabEnergyGrid) g1 = xrlab_energy_grid_new (&e1, 1, XRLAB_ENERGY_UNIT_KEV, NULL);
    XrlabOpticsCache *c1 = xrlab_optics_cache_new (g1);
    XrlabReflectPlan *p1 = make_plan (ML50, c1);

    for (int k = 0; k < 31; k++)
      {
        double t0 = xrlab_now ();
        xrlab_reflect_plan_energies (plan_e, theta, &oe, NULL);
        t_e[k] = (xrlab_now () - t0) * 1e3;
      }
    ms_e = xrlab_bench_median (t_e, 31);
    xrlab_reflect_plan_angles (p1, 0, &theta, 1, &o1, NULL);
    xrlab_bench_check (close_rel (re[437], r1, 1e-12), "energy curve %.17g vs angle curve %.17g", re[437], r1);
    xrlab_reflect_plan_free (p1);
    xrlab_optics_cache_free (c1);
  }

  /* A stack edit: parse and plan (the cache already has W, B, C, Si). */
  for (int k = 0; k < 101; k++)
    {
      double t0 = xrlab_now ();
      XrlabReflectPlan *p = make_plan (ML50, cache);
      t_plan[k] = (xrlab_now () - t0) * 1e6;
      xrlab_reflect_plan_free (p);
    }

  xrlab_reflect_plan_free (plan);
  xrlab_reflect_plan_free (plan_e);
  xrlab_optics_cache_free (cache);
  xrlab_optics_cache_free (cache_e);
  xrlab_bench_report ("reflect.ml50x1000_ms", ms);
  xrlab_bench_report ("reflect.ml50_energies1000_ms", ms_e);
  xrlab_bench_report ("reflect.ml50_plan_us", xrlab_bench_median (t_plan, 101));
}

static void
bench_filter (void)
{
  const char *text = "Al:100um/Cu:8.96:25um/Kapton:50um/air@1atm,295K:1m";
  g_autoptr(XrlabEnergyGrid) grid = xrlab_energy_grid_new_range (5.0, 30.0, 1000, XRLAB_GRID_LOG,
                                                                 XRLAB_ENERGY_UNIT_KEV, NULL);
  g_autoptr(XrlabStack) stack = xrlab_stack_parse_filter (text, NULL, NULL);
  XrlabOpticsCache *cache = xrlab_optics_cache_new (grid);
  g_autofree double *t = g_new (double, 1000), *tl = g_new (double, 4 * 1000);
  double times[101];

  xrlab_bench_check (stack != NULL && xrlab_filter_transmission (cache, stack, FALSE, t, tl, NULL),
                     "the filter failed");
  for (int k = 0; k < 101; k++)
    {
      double t0 = xrlab_now ();
      xrlab_filter_transmission (cache, stack, FALSE, t, NULL, NULL);
      times[k] = (xrlab_now () - t0) * 1e6;
    }
  for (int e = 0; e < 1000; e += 50)
    xrlab_bench_check (close_rel (t[e], tl[e] * tl[1000 + e] * tl[2000 + e] * tl[3000 + e], 1e-12),
                       "filter transmission is not the product of its layers'");
  xrlab_optics_cache_free (cache);
  xrlab_bench_report ("reflect.filter1000_us", xrlab_bench_median (times, 101));
}

static void
bench_map (void)
{
  enum { N_E = 200, RUNS = 5 };
  g_autoptr(XrlabEnergyGrid) grid = xrlab_energy_grid_new_range (5.0, 12.0, N_E, XRLAB_GRID_LINEAR,
                                                                 XRLAB_ENERGY_UNIT_KEV, NULL);
  XrlabOpticsCache *cache = xrlab_optics_cache_new (grid);
  XrlabReflectPlan *plan = make_plan (ML50, cache);
  gsize n = (gsize) N_E * N_ANGLES;
  g_autofree double *angles = g_new (double, N_ANGLES);
  g_autofree double *a = g_new (double, 3 * n), *b = g_new (double, 3 * n);
  XrlabReflectOutput oa = { 0.0, a, a + n, a + 2 * n, NULL, NULL, NULL };
  XrlabReflectOutput ob = { 0.0, b, b + n, b + 2 * n, NULL, NULL, NULL };
  double serial[RUNS], parallel[RUNS];

  if (plan == NULL)
    return;
  for (int k = 0; k < N_ANGLES; k++)
    angles[k] = 0.06 * (k + 1) / N_ANGLES;
  for (int r = 0; r < RUNS; r++)
    {
      double t0 = xrlab_now ();
      xrlab_reflect_plan_map (plan, angles, N_ANGLES, &oa, NULL, NULL);
      serial[r] = (xrlab_now () - t0) * 1e3;
      t0 = xrlab_now ();
      xrlab_reflect_plan_map_parallel (plan, angles, N_ANGLES, &ob, 0, NULL, NULL, NULL, NULL);
      parallel[r] = (xrlab_now () - t0) * 1e3;
    }
  xrlab_bench_check (memcmp (a, b, 3 * n * sizeof (double)) == 0, "the parallel map differs from the serial one");
  xrlab_reflect_plan_free (plan);
  xrlab_optics_cache_free (cache);
  xrlab_bench_report ("reflect.ml50_map200x1000_ms", xrlab_bench_median (parallel, RUNS));
  xrlab_bench_report ("reflect.ml50_map200x1000_serial_ms", xrlab_bench_median (serial, RUNS));
  xrlab_bench_report ("reflect.map_threads", xrlab_parallel_n_threads (xrlab_parallel_default ()));
}

int
xrlab_bench_reflect (int argc, char **argv)
{
  bench_mirror ();
  bench_multilayer ();
  bench_filter ();
  bench_map ();
  return xrlab_bench_failed () ? 1 : 0;
}
