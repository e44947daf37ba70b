/* bench-optics.c -- xrlab-bench optics: optical constants
 *
 *   optics.single_us          one material (SiO2) at one energy, all 15
 *                             quantities (no transmission),
 *                             xrlab_optics_compute_point()
 *   optics.single_parse_us    the same including parsing the formula
 *   optics.sweep1000_cold_us  SiO2 on 1000 energies (Henke, 30 eV - 30 keV):
 *                             grid, cache, both elements interpolated, all
 *                             15 quantities (the totals with xraylib's
 *                             scattering)
 *   optics.sweep1000_warm_us  the same with the grid's cache filled (a
 *                             density or stoichiometry change)
 *   optics.sweep1000_chantler_cold_us, optics.sweep1000_chantler_warm_us
 *                             the same with the Chantler tables, 30 eV -
 *                             400 keV
 *   optics.materials1000_ms   1000 different materials at one energy, all
 *                             15 quantities, one batch call, fresh cache
 *   optics.batch_1e7_s        10^4 materials × 10^3 energies, δ and β only,
 *                             one batch call on all cores, fresh cache
 *   optics.batch_1e7_floor_s  a plain loop storing the same 160 MB (one
 *                             thread), measured alternately with it
 *
 * Medians of repeated runs. Every figure's results are checked against an
 * independent path (xrlab_optics_compute_point(), the golden values).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench-private.h"
#include "xrlab-elements.h"
#include "xrlab-formula.h"
#include "xrlab-optics.h"
#include "xrlab-util.h"

#define MASK12 XRLAB_QUANTITY_MASK_NO_THICKNESS
/* The sweeps: every quantity without a thickness, as the window computes them. */
#define MASK_ALL XRLAB_QUANTITY_MASK_NO_THICKNESS

static gboolean
close_rel (double a, double b, double tol)
{
  if (isnan (a) && isnan (b))
    return TRUE;
  return fabs (a - b) <= tol * fabs (b);
}

/* (a) one material at one energy. */
static void
bench_single (void)
{
  g_autoptr(XrlabFormula) sio2 = xrlab_formula_parse ("SiO2", NULL);
  g_autoptr(XrlabFormula) au = xrlab_formula_parse ("Au", NULL);
  XrlabOpticsMaterial m = { sio2, 2.2, NAN }, mau = { au, 19.3, NAN };
  double v[XRLAB_QUANTITY_N], times[31], times_parse[31], sink = 0.0;
  const int reps = 20000;

  for (int r = 0; r < 31; r++)
    {
      double t0 = xrlab_now ();
      for (int i = 0; i < reps; i++)
        {
          /* Energies over the whole range, so the table search is not cached. */
          double e = 0.05 + (double) (i % 997) * 0.03;
          xrlab_optics_compute_point (&m, e, MASK12, v, NULL);
          sink += v[XRLAB_QUANTITY_DELTA];
        }
      times[r] = (xrlab_now () - t0) / reps * 1e6;

      t0 = xrlab_now ();
      for (int i = 0; i < reps / 4; i++)
        {
          XrlabFormula *f = xrlab_formula_parse ("SiO2", NULL);
          XrlabOpticsMaterial mf = { f, 2.2, NAN };
          xrlab_optics_compute_point (&mf, 8.048, MASK12, v, NULL);
          sink += v[XRLAB_QUANTITY_DELTA];
          xrlab_formula_unref (f);
        }
      times_parse[r] = (xrlab_now () - t0) / (reps / 4) * 1e6;
    }
  xrlab_bench_consume (&sink);

  /* Check: the golden values, and the grid path. */
  xrlab_bench_check (xrlab_optics_compute_point (&mau, 10.0, MASK12, v, NULL), "Au at 10 keV failed");
  xrlab_bench_check (close_rel (v[XRLAB_QUANTITY_DELTA], 2.98814e-5, 1e-4), "Au δ %g", v[XRLAB_QUANTITY_DELTA]);
  xrlab_bench_check (close_rel (v[XRLAB_QUANTITY_BETA], 2.20496e-6, 1e-4), "Au β %g", v[XRLAB_QUANTITY_BETA]);
  xrlab_bench_check (close_rel (v[XRLAB_QUANTITY_ATTENUATION_LENGTH], 4.47461e-4, 1e-4), "Au att. length");
  xrlab_bench_check (xrlab_optics_compute_point (&m, 10.0, MASK12, v, NULL), "SiO2 at 10 keV failed");
  xrlab_bench_check (close_rel (v[XRLAB_QUANTITY_DELTA], 4.6009e-6, 1e-4), "SiO2 δ %g", v[XRLAB_QUANTITY_DELTA]);

  xrlab_bench_report ("optics.single_us", xrlab_bench_median (times, 31));
  xrlab_bench_report ("optics.single_parse_us", xrlab_bench_median (times_parse, 31));
}

/* (b) SiO2 over 1000 energies of @table from @lo_kev to @hi_kev, cold and
 * warm: the figures @cold_name and @warm_name. */
static void
bench_sweep_table (XrlabTable table, double lo_kev, double hi_kev, const char *cold_name,
                   const char *warm_name)
{
  g_autoptr(XrlabFormula) sio2 = xrlab_formula_parse ("SiO2", NULL);
  g_autofree double *buf = g_new (double, XRLAB_QUANTITY_N * 1000);
  g_autofree double *first = g_new (double, XRLAB_QUANTITY_N * 1000);
  double *out[XRLAB_QUANTITY_N] = { NULL, };
  double cold[101], warm[101];
  XrlabOpticsCache *cache;
  XrlabEnergyGrid *grid;
  gboolean ok = TRUE;

  for (int q = 0; q < XRLAB_QUANTITY_N; q++)
    out[q] = buf + q * 1000;
  /* Load the element tables once (process start-up, not the sweep). */
  xrlab_scattering_table_get (table, 8, NULL);
  xrlab_scattering_table_get (table, 14, NULL);

  for (int r = 0; r < 101; r++)
    {
      double t0 = xrlab_now (), t1;
      XrlabOpticsMaterial m = { sio2, 2.2, NAN };

      grid = xrlab_energy_grid_new_range_for_table (lo_kev, hi_kev, 1000, XRLAB_GRID_LOG,
                                                    XRLAB_ENERGY_UNIT_KEV,
                                                    (XrlabTableChoice) table, NULL);
      cache = xrlab_optics_cache_new (grid);
      ok &= xrlab_optics_compute (cache, &m, MASK_ALL, out, NULL);
      t1 = xrlab_now ();
      cold[r] = (t1 - t0) * 1e6;
      if (r == 0)
        memcpy (first, buf, XRLAB_QUANTITY_N * 1000 * sizeof (double));

      /* Warm: another density, same cache: no interpolation. */
      {
        double tw[20];
        for (int k = 0; k < 20; k++)
          {
            XrlabOpticsMaterial mw = { sio2, 2.2 + 0.01 * (k % 2), NAN };
            double t2 = xrlab_now ();
            ok &= xrlab_optics_compute (cache, &mw, MASK_ALL, out, NULL);
            tw[k] = (xrlab_now () - t2) * 1e6;
          }
        warm[r] = xrlab_bench_median (tw, 20);
      }
      xrlab_bench_check (xrlab_optics_cache_get_n_interpolations (cache) == 2,
                         "the warm sweeps interpolated again");
      xrlab_optics_cache_free (cache);
      xrlab_energy_grid_unref (grid);
    }
  xrlab_bench_check (ok, "a sweep failed");

  /* Check the cold result against single points. */
  grid = xrlab_energy_grid_new_range_for_table (lo_kev, hi_kev, 1000, XRLAB_GRID_LOG,
                                                XRLAB_ENERGY_UNIT_KEV, (XrlabTableChoice) table, NULL);
  for (int i = 0; i < 1000; i += 37)
    {
      double v[XRLAB_QUANTITY_N];
      XrlabOpticsMaterial m = { sio2, 2.2, NAN };
      double e = xrlab_energy_grid_get_energies_kev (grid)[i];

      xrlab_optics_compute_point_for_table (&m, e, table, MASK_ALL, v, NULL);
      for (int q = 0; q < XRLAB_QUANTITY_N; q++)
        if (MASK_ALL & XRLAB_QUANTITY_BIT (q))
          xrlab_bench_check (close_rel (first[q * 1000 + i], v[q], 1e-14),
                             "sweep %s at %g keV: %.17g vs %.17g", xrlab_quantity_get_column (q), e,
                             first[q * 1000 + i], v[q]);
    }
  xrlab_energy_grid_unref (grid);

  xrlab_bench_report (cold_name, xrlab_bench_median (cold, 101));
  xrlab_bench_report (warm_name, xrlab_bench_median (warm, 101));
}

/* (b) Henke over 30 eV - 30 keV; Chantler over 30 eV - 400 keV. */
static void
bench_sweep (void)
{
  bench_sweep_table (XRLAB_TABLE_HENKE, 0.03, 30.0, "optics.sweep1000_cold_us",
                     "optics.sweep1000_warm_us");
  bench_sweep_table (XRLAB_TABLE_CHANTLER, 0.03, 400.0, "optics.sweep1000_chantler_cold_us",
                     "optics.sweep1000_chantler_warm_us");
}

/* 1000 (or @n) different formulas: 1–4 elements with random counts. */
static GPtrArray *
random_formulas (gsize n, guint32 seed)
{
  static const int zs[] = { 1, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14, 15, 16, 17, 19, 20, 22, 24,
                            25, 26, 27, 28, 29, 30, 31, 32, 33, 38, 39, 40, 41, 42, 44, 45, 46,
                            47, 48, 49, 50, 52, 56, 57, 64, 72, 73, 74, 77, 78, 79, 82, 83 };
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) xrlab_formula_unref);
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GRand *rand = g_rand_new_with_seed (seed);

  while (out->len < n)
    {
      GString *s = g_string_new (NULL);
      int k = g_rand_int_range (rand, 1, 5);
      XrlabFormula *f;

      for (int i = 0; i < k; i++)
        {
          int z = zs[g_rand_int_range (rand, 0, G_N_ELEMENTS (zs))];
          g_string_append_printf (s, "%s%d", xrlab_element_get_symbol (z), g_rand_int_range (rand, 1, 10));
        }
      if (g_hash_table_contains (seen, s->str))
        {
          g_string_free (s, TRUE);
          continue;
        }
      f = xrlab_formula_parse (s->str, NULL);
      g_assert (f != NULL);
      g_ptr_array_add (out, f);
      g_hash_table_add (seen, g_string_free (s, FALSE));
    }
  g_rand_free (rand);
  return out;
}

/* (c) 1000 different materials at one energy. */
static void
bench_materials (void)
{
  g_autoptr(GPtrArray) formulas = random_formulas (1000, 42);
  g_autofree XrlabOpticsMaterial *mats = g_new (XrlabOpticsMaterial, 1000);
  const guint n_q = xrlab_quantity_mask_count (MASK12);
  g_autofree double *out = g_new (double, 1000 * n_q);
  double e = 8.048, times[101];
  XrlabEnergyGrid *grid = xrlab_energy_grid_new (&e, 1, XRLAB_ENERGY_UNIT_KEV, NULL);
  gboolean ok = TRUE;

  for (int z = 1; z <= XRLAB_ELEMENT_Z_MAX; z++)
    xrlab_henke_get (z, NULL);
  for (int m = 0; m < 1000; m++)
    mats[m] = (XrlabOpticsMaterial) { g_ptr_array_index (formulas, m), 1.0 + (m % 200) * 0.1, NAN };

  for (int r = 0; r < 101; r++)
    {
      double t0 = xrlab_now ();
      XrlabOpticsCache *cache = xrlab_optics_cache_new (grid);
      ok &= xrlab_optics_batch (cache, mats, 1000, MASK12, out, NULL, NULL, NULL, NULL, NULL);
      xrlab_optics_cache_free (cache);
      times[r] = (xrlab_now () - t0) * 1e3;
    }
  xrlab_bench_check (ok, "the materials batch failed");
  for (int m = 0; m < 1000; m += 17)
    {
      double v[XRLAB_QUANTITY_N];
      xrlab_optics_compute_point (&mats[m], e, MASK12, v, NULL);
      for (int q = 0, k = 0; q < XRLAB_QUANTITY_N; q++)
        if (MASK12 & XRLAB_QUANTITY_BIT (q))
          {
            xrlab_bench_check (close_rel (out[m * n_q + k], v[q], 1e-14), "material %d %s: %.17g vs %.17g",
                               m, xrlab_quantity_get_column (q), out[m * n_q + k], v[q]);
            k++;
          }
    }
  xrlab_energy_grid_unref (grid);
  xrlab_bench_report ("optics.materials1000_ms", xrlab_bench_median (times, 101));
}

/* (d) 10^4 materials × 10^3 energies, δ and β. */
/* Stores @n doubles: the memory-bandwidth floor of writing a batch's output
 * (one thread). */
static void __attribute__ ((noinline))
store_loop (double *out, gsize n, double v)
{
  for (gsize i = 0; i < n; i++)
    out[i] = v;
}

static void
bench_batch (void)
{
  const gsize n_mat = 10000, n_e = 1000;
  XrlabQuantityMask mask = XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_DELTA) | XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_BETA);
  g_autoptr(GPtrArray) formulas = random_formulas (n_mat, 7);
  g_autofree XrlabOpticsMaterial *mats = g_new (XrlabOpticsMaterial, n_mat);
  double *out = g_new (double, n_mat * 2 * n_e);
  XrlabEnergyGrid *grid = xrlab_energy_grid_new_range (0.1, 30.0, n_e, XRLAB_GRID_LOG, XRLAB_ENERGY_UNIT_KEV, NULL);
  const double *energies = xrlab_energy_grid_get_energies_kev (grid);
  double times[7], floor_times[7];
  double *floor_out = g_new (double, n_mat * 2 * n_e);
  gboolean ok = TRUE;
  GRand *rand = g_rand_new_with_seed (3);
  gsize n_bad = 0;

  for (gsize m = 0; m < n_mat; m++)
    mats[m] = (XrlabOpticsMaterial) { g_ptr_array_index (formulas, m), 0.5 + (double) (m % 300) * 0.07, NAN };
  for (int r = 0; r < 7; r++)
    {
      double t0 = xrlab_now ();
      XrlabOpticsCache *cache = xrlab_optics_cache_new (grid);
      ok &= xrlab_optics_batch (cache, mats, n_mat, mask, out, NULL, NULL, NULL, NULL, NULL);
      xrlab_optics_cache_free (cache);
      times[r] = xrlab_now () - t0;
      /* the floor: a plain loop storing the same bytes into the same array */
      t0 = xrlab_now ();
      store_loop (floor_out, n_mat * 2 * n_e, (double) r);
      floor_times[r] = xrlab_now () - t0;
      xrlab_bench_consume (floor_out);
    }
  xrlab_bench_check (ok, "the 10^7 batch failed");
  for (gsize i = 0; i < n_mat * 2 * n_e; i++)
    n_bad += !isfinite (out[i]);
  xrlab_bench_check (n_bad == 0, "%" G_GSIZE_FORMAT " values of the batch are not finite", n_bad);
  for (int k = 0; k < 2000; k++)
    {
      gsize m = (gsize) g_rand_int_range (rand, 0, (gint32) n_mat);
      gsize i = (gsize) g_rand_int_range (rand, 0, (gint32) n_e);
      double v[XRLAB_QUANTITY_N];

      xrlab_optics_compute_point (&mats[m], energies[i], mask, v, NULL);
      xrlab_bench_check (close_rel (out[(m * 2 + 0) * n_e + i], v[XRLAB_QUANTITY_DELTA], 1e-14)
                         && close_rel (out[(m * 2 + 1) * n_e + i], v[XRLAB_QUANTITY_BETA], 1e-14),
                         "batch material %" G_GSIZE_FORMAT " at %g keV differs", m, energies[i]);
    }
  g_rand_free (rand);
  g_free (out);
  xrlab_energy_grid_unref (grid);
  g_free (floor_out);
  xrlab_bench_report ("optics.batch_1e7_s", xrlab_bench_median (times, 7));
  xrlab_bench_report ("optics.batch_1e7_floor_s", xrlab_bench_median (floor_times, 7));
  xrlab_bench_report ("optics.batch_1e7_threads", g_get_num_processors ());
}

int
xrlab_bench_optics (int argc, char **argv)
{
  bench_single ();
  bench_sweep ();
  bench_materials ();
  bench_batch ();
  return xrlab_bench_failed () ? 1 : 0;
}
