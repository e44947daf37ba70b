/* bench-engine.c -- latency of the engine thread from an edit to the arrays
 * of a redraw on the main loop
 *
 * For 5 materials x 1000 energies: submit an edit (a density, or a formula),
 * and when its reply arrives on the main loop, fetch δ of all materials for
 * the plot, as the window does; the latency is from the edit request to the
 * fetch reply. 1000 edits of each kind; medians and 95th percentiles; the
 * transfers and bytes per redraw from the engine's own accounting. The last
 * reply is checked against a direct computation.
 *
 * Then the same density edits while a batch of 10^4 materials x 10^3
 * energies (10^7 points, δ) runs on the job lane: how many edit-to-redraw
 * round trips complete before the batch replies, their median latency, and
 * the batch's own time from request to reply (with the edits beside it).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench-private.h"
#include "xrlab-engine.h"
#include "xrlab-formula.h"
#include "xrlab-util.h"

#define N_EDITS 1000
#define N_ENERGIES 1000

typedef struct {
  XrlabEngine       *engine;
  XrlabMaterialSpec  specs[5];
  double             t_start;
  double            *latencies;
  int                done;
  int                n;
  gboolean           formula_edits;
  XrlabEngineArrays *last;
  gboolean           failed;
} EngineBench;

static const char *formula_cycle[] = { "SiO2", "Si3N4", "Al2O3", "SiC", "Si" };

static void next_edit (EngineBench *b);

static void
fetch_done (GObject *source, GAsyncResult *result, gpointer data)
{
  EngineBench *b = data;
  GError *error = NULL;
  XrlabEngineArrays *a = xrlab_engine_fetch_finish (XRLAB_ENGINE (source), result, &error);

  if (a == NULL)
    {
      fprintf (stderr, "fetch failed: %s\n", error->message);
      g_error_free (error);
      b->failed = TRUE;
      b->done = b->n;
      return;
    }
  b->latencies[b->done++] = (xrlab_now () - b->t_start) * 1e3;
  g_clear_pointer (&b->last, xrlab_engine_arrays_free);
  b->last = a;
  if (b->done < b->n)
    next_edit (b);
}

static void
edit_done (GObject *source, GAsyncResult *result, gpointer data)
{
  EngineBench *b = data;
  GError *error = NULL;

  if (!xrlab_engine_update_material_finish (XRLAB_ENGINE (source), result, &error))
    {
      fprintf (stderr, "edit failed: %s\n", error->message);
      g_error_free (error);
      b->failed = TRUE;
      b->done = b->n;
      return;
    }
  xrlab_engine_fetch_async (b->engine, "plot", XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_DELTA),
                            NULL, 0, NULL, fetch_done, b);
}

static void
next_edit (EngineBench *b)
{
  XrlabMaterialSpec *spec = &b->specs[1];

  if (b->formula_edits)
    spec->formula = formula_cycle[b->done % G_N_ELEMENTS (formula_cycle)];
  else
    spec->density_g_cm3 = 2.0 + 0.001 * b->done;
  b->t_start = xrlab_now ();
  xrlab_engine_update_material_async (b->engine, spec, NULL, edit_done, b);
}

static void
run_edits (EngineBench *b, gboolean formula_edits)
{
  b->formula_edits = formula_edits;
  b->done = 0;
  b->n = N_EDITS;
  next_edit (b);
  while (b->done < b->n)
    g_main_context_iteration (NULL, TRUE);
}

typedef struct {
  double            t_start;
  double            elapsed_s;
  XrlabEngineBatch *batch;
  GError           *error;
  gboolean          done;
} BatchWait;

static void
batch_done (GObject *source, GAsyncResult *result, gpointer data)
{
  BatchWait *w = data;

  w->batch = xrlab_engine_batch_finish (XRLAB_ENGINE (source), result, &w->error);
  w->elapsed_s = xrlab_now () - w->t_start;
  w->done = TRUE;
}

/* Density edits, one after the other, while a 10^7-point batch runs; the
 * number answered before the batch's reply. */
static int
run_edits_during_batch (EngineBench *b, XrlabEnergyGrid *grid, BatchWait *w)
{
  const gsize n = 10000;
  const char *formulas[] = { "SiO2", "Al2O3", "Fe2O3", "CaCO3", "C22H10N2O5", "GaAs" };
  g_autofree XrlabMaterialSpec *specs = g_new0 (XrlabMaterialSpec, n);
  int answered;

  for (gsize i = 0; i < n; i++)
    {
      specs[i].formula = formulas[i % G_N_ELEMENTS (formulas)];
      specs[i].density_g_cm3 = 1.0 + 1e-4 * i;
    }
  w->t_start = xrlab_now ();
  xrlab_engine_batch_async (b->engine, specs, n, grid, XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_DELTA),
                            NULL, NULL, NULL, batch_done, w);
  b->formula_edits = FALSE;
  b->done = 0;
  b->n = N_EDITS;
  next_edit (b);
  while (!w->done)
    g_main_context_iteration (NULL, TRUE);
  answered = b->done;
  /* Let the round trip in flight end, and start no other. */
  if (b->done < b->n)
    b->n = b->done + 1;
  while (b->done < b->n)
    g_main_context_iteration (NULL, TRUE);
  return answered;
}

/* Material @m of a batch of δ equals a direct computation. */
static gboolean
check_batch (const XrlabEngineBatch *batch, XrlabEnergyGrid *grid, const char *formula,
             double density, gsize m)
{
  XrlabOpticsCache *cache = xrlab_optics_cache_new (grid);
  g_autoptr(XrlabFormula) f = xrlab_formula_parse (formula, NULL);
  XrlabOpticsMaterial om = { f, density, 0.0 };
  double *expect = g_new (double, N_ENERGIES);
  double *out[XRLAB_QUANTITY_N] = { NULL };
  gboolean ok;

  out[XRLAB_QUANTITY_DELTA] = expect;
  ok = batch != NULL && batch->errors[m] == NULL
       && xrlab_optics_compute (cache, &om, XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_DELTA), out, NULL)
       && memcmp (expect, batch->values + m * N_ENERGIES, N_ENERGIES * sizeof (double)) == 0;
  g_free (expect);
  xrlab_optics_cache_free (cache);
  return ok;
}

static gboolean
check_last (EngineBench *b, XrlabEnergyGrid *grid)
{
  XrlabOpticsCache *cache = xrlab_optics_cache_new (grid);
  double *expect = g_new (double, N_ENERGIES);
  gboolean ok = b->last != NULL && b->last->n_materials == 5;

  for (gsize m = 0; ok && m < 5; m++)
    {
      g_autoptr(XrlabFormula) f = xrlab_formula_parse (b->specs[m].formula, NULL);
      XrlabOpticsMaterial om = { f, b->specs[m].density_g_cm3, 0.0 };
      double *out[XRLAB_QUANTITY_N] = { NULL };
      const double *got = xrlab_engine_arrays_get (b->last, m, XRLAB_QUANTITY_DELTA);

      out[XRLAB_QUANTITY_DELTA] = expect;
      ok = xrlab_optics_compute (cache, &om, XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_DELTA), out, NULL);
      for (gsize e = 0; ok && e < N_ENERGIES; e++)
        ok = got[e] == expect[e];
    }
  g_free (expect);
  xrlab_optics_cache_free (cache);
  return ok;
}

int
xrlab_bench_engine (int argc, char **argv)
{
  EngineBench b = { 0 };
  XrlabMaterialSpec init[5] = {
    { 1, "Si", "Si", 2.33, 0 },
    { 2, "SiO2", "SiO2", 2.2, 0 },
    { 3, "Au", "Au", 19.3, 0 },
    { 4, "H2O", "H2O", 1.0, 0 },
    { 5, "Kapton", "C22H10N2O5", 1.42, 0 },
  };
  g_autoptr(XrlabEnergyGrid) grid = NULL;
  g_autoptr(GError) error = NULL;
  XrlabEngineStats st;
  double density_median, density_p95, formula_median, formula_p95;

  grid = xrlab_energy_grid_new_range (1.0, 30.0, N_ENERGIES, XRLAB_GRID_LOG,
                                      XRLAB_ENERGY_UNIT_KEV, &error);
  g_assert_no_error (error);
  memcpy (b.specs, init, sizeof init);
  b.engine = xrlab_engine_new ();
  b.latencies = g_new (double, N_EDITS);

  /* Set up, and warm the caches of every element the edits will use. */
  xrlab_engine_set_grid_async (b.engine, grid, NULL, NULL, NULL);
  xrlab_engine_set_materials_async (b.engine, b.specs, 5, NULL, NULL, NULL);
  run_edits (&b, TRUE);
  xrlab_engine_reset_stats (b.engine);

  run_edits (&b, FALSE);
  xrlab_bench_check (!b.failed && check_last (&b, grid), "density edits: values differ from a direct computation");
  xrlab_engine_get_stats (b.engine, "plot", &st);
  xrlab_bench_check (st.n_transfers == N_EDITS, "density edits: %" G_GUINT64_FORMAT " transfers for %d redraws",
                     st.n_transfers, N_EDITS);
  density_p95 = xrlab_bench_quantile (b.latencies, N_EDITS, 0.95);
  density_median = xrlab_bench_median (b.latencies, N_EDITS);

  run_edits (&b, TRUE);
  xrlab_bench_check (!b.failed && check_last (&b, grid), "formula edits: values differ from a direct computation");
  formula_p95 = xrlab_bench_quantile (b.latencies, N_EDITS, 0.95);
  formula_median = xrlab_bench_median (b.latencies, N_EDITS);

  xrlab_engine_get_stats (b.engine, "plot", &st);
  printf ("engine: 5 materials x %d energies, %d edits of each kind, edit request -> reply -> "
          "fetch of delta -> reply on the main loop\n", N_ENERGIES, N_EDITS);
  xrlab_bench_report ("engine.density_edit_ms_median", density_median);
  xrlab_bench_report ("engine.density_edit_ms_p95", density_p95);
  xrlab_bench_report ("engine.formula_edit_ms_median", formula_median);
  xrlab_bench_report ("engine.formula_edit_ms_p95", formula_p95);
  xrlab_bench_report ("engine.transfers_per_redraw", (double) st.n_transfers / (2.0 * N_EDITS));
  xrlab_bench_report ("engine.bytes_per_redraw", (double) st.bytes / (2.0 * N_EDITS));
  xrlab_bench_report ("engine.transfer_us_per_redraw", st.transfer_s * 1e6 / (2.0 * N_EDITS));
  xrlab_bench_check (st.bytes == 2ull * N_EDITS * N_ENERGIES * (1 + 5) * sizeof (double),
                     "bytes per redraw are not exactly the requested arrays");

  {
    BatchWait w = { 0 };
    int answered = run_edits_during_batch (&b, grid, &w);

    xrlab_bench_check (w.error == NULL, "the batch during edits failed: %s",
                       w.error ? w.error->message : "");
    xrlab_bench_check (!b.failed && check_last (&b, grid),
                       "edits during a batch: values differ from a direct computation");
    xrlab_bench_check (check_batch (w.batch, grid, "CaCO3", 1.0 + 1e-4 * 9, 9),
                       "the batch during edits: values differ from a direct computation");
    xrlab_bench_check (answered >= 1, "no edit was answered while the batch ran");
    xrlab_bench_report ("engine.edits_during_batch", answered);
    if (b.done > 0)
      xrlab_bench_report ("engine.edit_during_batch_ms_median", xrlab_bench_median (b.latencies, b.done));
    xrlab_bench_report ("engine.batch_1e7_during_edits_s", w.elapsed_s);
    g_clear_pointer (&w.batch, xrlab_engine_batch_free);
    g_clear_error (&w.error);
  }

  g_clear_pointer (&b.last, xrlab_engine_arrays_free);
  xrlab_engine_shutdown (b.engine);
  g_object_unref (b.engine);
  g_free (b.latencies);
  return 0;
}
