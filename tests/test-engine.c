/* test-engine.c -- the engine thread: transfers, coalescing, cancellation,
 * shutdown, errors, exports and batches, on a GLib main loop; the job lane
 * (edits answered while a batch runs) and the progress of jobs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "xrlab-engine.h"
#include "xrlab-engine-private.h"
#include "xrlab-formula.h"
#include "xrlab-init.h"
#include "xrlab-util.h"
#include "test-common.h"

/* ---- helpers --------------------------------------------------------------- */

typedef struct {
  XrlabTestTally     t;
  XrlabEngineArrays *arrays;       /* the last arrays received */
  int                n_arrays;     /* how many arrays replies arrived */
  XrlabEngineBatch  *batch;
  gsize              progress_calls;
  gsize              progress_done;
  GCancellable      *cancel_on_progress;
  double             cancelled_at;
  gsize              done_at_cancel;
  gsize              progress_after_reply;  /* must stay 0 */
} Replies;

static void
replies_clear (Replies *r)
{
  g_clear_error (&r->t.error);
  g_clear_pointer (&r->arrays, xrlab_engine_arrays_free);
  g_clear_pointer (&r->batch, xrlab_engine_batch_free);
  memset (r, 0, sizeof *r);
}

/* Replies without data: an edit of one material, the grid, an export. */
static void
bool_done (GObject *source, GAsyncResult *result, gpointer data)
{
  XrlabEngine *engine = XRLAB_ENGINE (source);
  GError *error = NULL;

  if (g_async_result_is_tagged (result, xrlab_engine_update_material_async))
    xrlab_engine_update_material_finish (engine, result, &error);
  else if (g_async_result_is_tagged (result, xrlab_engine_set_grid_async))
    xrlab_engine_set_grid_finish (engine, result, &error);
  else if (g_async_result_is_tagged (result, xrlab_engine_export_csv_async))
    xrlab_engine_export_csv_finish (engine, result, &error);
  else
    g_assert_not_reached ();
  xrlab_test_tally_replied (&((Replies *) data)->t, error);
}

static void
set_materials_done (GObject *source, GAsyncResult *result, gpointer data)
{
  Replies *r = data;
  GError *error = NULL;
  g_autoptr(GPtrArray) errors = NULL;

  if (xrlab_engine_set_materials_finish (XRLAB_ENGINE (source), result, &errors, &error))
    for (guint i = 0; i < errors->len; i++)
      if (g_ptr_array_index (errors, i) != NULL)
        xrlab_test_tally_note_error (&r->t, g_error_copy (g_ptr_array_index (errors, i)));
  xrlab_test_tally_replied (&r->t, error);
}

/* Replies with arrays: a fetch on the grid or at one energy. */
static void
arrays_done (GObject *source, GAsyncResult *result, gpointer data)
{
  Replies *r = data;
  GError *error = NULL;
  XrlabEngineArrays *a;

  if (g_async_result_is_tagged (result, xrlab_engine_fetch_at_async))
    a = xrlab_engine_fetch_at_finish (XRLAB_ENGINE (source), result, &error);
  else
    a = xrlab_engine_fetch_finish (XRLAB_ENGINE (source), result, &error);
  if (a != NULL)
    {
      g_clear_pointer (&r->arrays, xrlab_engine_arrays_free);
      r->arrays = a;
      r->n_arrays++;
    }
  xrlab_test_tally_replied (&r->t, error);
}

static void
batch_done (GObject *source, GAsyncResult *result, gpointer data)
{
  Replies *r = data;
  GError *error = NULL;

  r->batch = xrlab_engine_batch_finish (XRLAB_ENGINE (source), result, &error);
  xrlab_test_tally_replied (&r->t, error);
}

static void
batch_progress (gsize done, gsize total, gpointer data)
{
  Replies *r = data;

  if (r->t.replies > 0)
    r->progress_after_reply++;
  r->progress_calls++;
  r->progress_done = done;
  g_assert_cmpuint (done, <=, total);
  if (r->cancel_on_progress != NULL && r->cancelled_at == 0.0)
    {
      r->cancelled_at = xrlab_now ();
      r->done_at_cancel = done;
      g_cancellable_cancel (r->cancel_on_progress);
    }
}


static XrlabEnergyGrid *
make_grid (double start, double stop, gsize n)
{
  GError *error = NULL;
  XrlabEnergyGrid *grid = xrlab_energy_grid_new_range (start, stop, n, XRLAB_GRID_LOG,
                                                       XRLAB_ENERGY_UNIT_KEV, &error);
  g_assert_no_error (error);
  return grid;
}

static void
set_grid (XrlabEngine *engine, XrlabEnergyGrid *grid, Replies *r)
{
  r->t.pending++;
  xrlab_engine_set_grid_async (engine, grid, NULL, bool_done, r);
  xrlab_test_tally_wait (&r->t);
  g_assert_no_error (r->t.error);
}

static const XrlabMaterialSpec five[] = {
  { 1, "Silicon", "Si", 2.33, 10.0 },
  { 2, "Silica", "SiO2", 2.2, 1.0 },
  { 3, "Gold", "Au", 19.3, 0.1 },
  { 4, "Water", "H2O", 1.0, 100.0 },
  { 5, "Kapton", "C22H10N2O5", 1.42, 25.0 },
};

/* The values of @spec on @grid computed directly, without the engine. */
static double *
fresh_values (XrlabEnergyGrid *grid, const XrlabMaterialSpec *spec, XrlabQuantity q)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabFormula) formula = xrlab_formula_parse (spec->formula, &error);
  XrlabOpticsCache *cache = xrlab_optics_cache_new (grid);
  gsize n = xrlab_energy_grid_get_size (grid);
  double *values = g_new (double, n);
  double *out[XRLAB_QUANTITY_N] = { NULL };
  XrlabOpticsMaterial m = { formula, spec->density_g_cm3, spec->thickness_um };

  g_assert_no_error (error);
  out[q] = values;
  g_assert_true (xrlab_optics_compute (cache, &m, XRLAB_QUANTITY_BIT (q), out, &error));
  g_assert_no_error (error);
  xrlab_optics_cache_free (cache);
  return values;
}

static void
assert_same_values (const double *a, const double *b, gsize n)
{
  for (gsize i = 0; i < n; i++)
    if (!(isnan (a[i]) && isnan (b[i])))
      g_assert_cmpfloat (a[i], ==, b[i]);
}

/* ---- tests ------------------------------------------------------------------ */

/* N materials drawn on one plot after an edit = exactly one transfer of
 * exactly the bytes of the requested arrays. */
static void
test_one_transfer (void)
{
  g_autoptr(XrlabEngine) engine = xrlab_engine_new ();
  g_autoptr(XrlabEnergyGrid) grid = make_grid (1.0, 30.0, 1000);
  Replies r = { 0 };
  XrlabEngineStats st;
  XrlabQuantityMask mask = XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_DELTA);
  XrlabMaterialSpec edit = five[2];

  set_grid (engine, grid, &r);
  r.t.pending++;
  xrlab_engine_set_materials_async (engine, five, G_N_ELEMENTS (five), NULL, set_materials_done, &r);
  xrlab_test_tally_wait (&r.t);
  g_assert_no_error (r.t.error);

  /* An edit, then the plot redraws. */
  edit.density_g_cm3 = 18.0;
  r.t.pending++;
  xrlab_engine_update_material_async (engine, &edit, NULL, bool_done, &r);
  xrlab_test_tally_wait (&r.t);
  g_assert_no_error (r.t.error);

  xrlab_engine_reset_stats (engine);
  r.t.pending++;
  xrlab_engine_fetch_async (engine, "plot", mask, NULL, 0, NULL, arrays_done, &r);
  xrlab_test_tally_wait (&r.t);
  g_assert_no_error (r.t.error);
  g_assert_nonnull (r.arrays);
  g_assert_cmpuint (r.arrays->n_materials, ==, 5);
  g_assert_cmpuint (r.arrays->n_quantities, ==, 1);
  g_assert_cmpuint (r.arrays->n_energies, ==, 1000);
  g_assert_cmpuint (r.arrays->generation, ==, xrlab_engine_get_generation (engine));

  g_assert_true (xrlab_engine_get_stats (engine, "plot", &st));
  g_assert_cmpuint (st.n_transfers, ==, 1);
  g_assert_cmpuint (st.bytes, ==, 1000 * (1 + 5 * 1) * sizeof (double));
  xrlab_engine_get_stats (engine, NULL, &st);
  g_assert_cmpuint (st.n_transfers, ==, 1);

  /* The values are those of the edited state. */
  for (gsize m = 0; m < 5; m++)
    {
      const XrlabMaterialSpec *spec = m == 2 ? &edit : &five[m];
      g_autofree double *expect = fresh_values (grid, spec, XRLAB_QUANTITY_DELTA);
      g_assert_cmpuint (r.arrays->ids[m], ==, spec->id);
      g_assert_cmpint (r.arrays->status[m], ==, XRLAB_ENGINE_VALUES_CURRENT);
      assert_same_values (xrlab_engine_arrays_get (r.arrays, m, XRLAB_QUANTITY_DELTA), expect, 1000);
    }
  assert_same_values (r.arrays->energies_kev, xrlab_energy_grid_get_energies_kev (grid), 1000);
  replies_clear (&r);
}

/* Edits with no consumer asking = no transfer; a consumer asking = one. */
static void
test_pull_not_push (void)
{
  g_autoptr(XrlabEngine) engine = xrlab_engine_new ();
  g_autoptr(XrlabEnergyGrid) grid = make_grid (1.0, 30.0, 500);
  Replies r = { 0 };
  XrlabEngineStats st;
  XrlabMaterialSpec spec = five[0];

  set_grid (engine, grid, &r);
  r.t.pending++;
  xrlab_engine_set_materials_async (engine, five, 3, NULL, set_materials_done, &r);
  xrlab_test_tally_wait (&r.t);
  for (int i = 0; i < 20; i++)
    {
      spec.density_g_cm3 = 2.0 + 0.01 * i;
      r.t.pending++;
      xrlab_engine_update_material_async (engine, &spec, NULL, bool_done, &r);
      xrlab_test_tally_wait (&r.t);
    }
  xrlab_engine_get_stats (engine, NULL, &st);
  g_assert_cmpuint (st.n_transfers, ==, 0);
  g_assert_cmpuint (st.bytes, ==, 0);
  g_assert_cmpfloat (st.compute_s, >, 0.0);  /* it did compute */

  r.t.pending++;
  xrlab_engine_fetch_async (engine, "plot", XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_BETA)
                            | XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_DELTA),
                            NULL, 0, NULL, arrays_done, &r);
  xrlab_test_tally_wait (&r.t);
  g_assert_no_error (r.t.error);
  xrlab_engine_get_stats (engine, "plot", &st);
  g_assert_cmpuint (st.n_transfers, ==, 1);
  g_assert_cmpuint (st.bytes, ==, 500 * (1 + 3 * 2) * sizeof (double));
  replies_clear (&r);
}

/* A burst of 100 edits: one reply counts, the consumer gets only the newest
 * generation, and its values are those of a fresh computation. */
static void
test_burst_coalesces (void)
{
  g_autoptr(XrlabEngine) engine = xrlab_engine_new ();
  g_autoptr(XrlabEnergyGrid) grid = make_grid (1.0, 30.0, 1000);
  Replies r = { 0 }, f = { 0 };
  XrlabMaterialSpec spec = five[1];
  const char *typing[] = { "S", "Si", "SiO", "SiO2", "SiO2C", "SiO2", "Al", "Al2", "Al2O", "Al2O3" };

  set_grid (engine, grid, &r);
  r.t.pending++;
  xrlab_engine_set_materials_async (engine, five, 5, NULL, set_materials_done, &r);
  xrlab_test_tally_wait (&r.t);
  xrlab_engine_reset_stats (engine);
  replies_clear (&r);

  /* The user types and drags; the plot asks after every edit. */
  for (int i = 0; i < 100; i++)
    {
      spec.formula = typing[i % G_N_ELEMENTS (typing)];
      spec.density_g_cm3 = 2.0 + 0.02 * i;
      r.t.pending++;
      xrlab_engine_update_material_async (engine, &spec, NULL, bool_done, &r);
      f.t.pending++;
      xrlab_engine_fetch_async (engine, "plot", XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_DELTA),
                                &spec.id, 1, NULL, arrays_done, &f);
    }
  xrlab_test_tally_wait (&r.t);
  xrlab_test_tally_wait (&f.t);

  /* Every edit but the last was superseded; the last one is valid. */
  g_assert_cmpint (r.t.replies, ==, 100);
  g_assert_cmpint (r.t.superseded, ==, 99);
  g_assert_no_error (r.t.error);

  /* The consumer received arrays only for the newest state. */
  g_assert_no_error (f.t.error);
  g_assert_cmpint (f.t.replies, ==, 100);
  g_assert_cmpint (f.n_arrays, ==, 1);
  g_assert_cmpint (f.t.superseded, ==, 99);
  g_assert_cmpuint (f.arrays->generation, ==, xrlab_engine_get_generation (engine));
  g_assert_cmpint (f.arrays->status[0], ==, XRLAB_ENGINE_VALUES_CURRENT);
  {
    g_autofree double *expect = fresh_values (grid, &spec, XRLAB_QUANTITY_DELTA);
    assert_same_values (xrlab_engine_arrays_get (f.arrays, 0, XRLAB_QUANTITY_DELTA), expect, 1000);
  }
  replies_clear (&r);
  replies_clear (&f);
}

/* A bad formula or density comes back as a GError; the material keeps its
 * last valid values, marked stale, until the input is valid again. */
static void
test_bad_input_keeps_state (void)
{
  g_autoptr(XrlabEngine) engine = xrlab_engine_new ();
  g_autoptr(XrlabEnergyGrid) grid = make_grid (5.0, 15.0, 200);
  Replies r = { 0 };
  XrlabMaterialSpec spec = five[2];
  g_autofree double *gold = fresh_values (grid, &five[2], XRLAB_QUANTITY_BETA);

  set_grid (engine, grid, &r);
  r.t.pending++;
  xrlab_engine_set_materials_async (engine, five, 5, NULL, set_materials_done, &r);
  xrlab_test_tally_wait (&r.t);

  spec.formula = "Au(";
  r.t.pending++;
  xrlab_engine_update_material_async (engine, &spec, NULL, bool_done, &r);
  xrlab_test_tally_wait (&r.t);
  g_assert_error (r.t.error, XRLAB_FORMULA_ERROR, XRLAB_FORMULA_ERROR_UNBALANCED);
  g_clear_error (&r.t.error);

  r.t.pending++;
  xrlab_engine_fetch_async (engine, "plot", XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_BETA),
                            &spec.id, 1, NULL, arrays_done, &r);
  xrlab_test_tally_wait (&r.t);
  g_assert_no_error (r.t.error);
  g_assert_cmpint (r.arrays->status[0], ==, XRLAB_ENGINE_VALUES_STALE);
  g_assert_nonnull (r.arrays->messages[0]);
  g_assert_nonnull (strstr (r.arrays->messages[0], "column"));
  assert_same_values (xrlab_engine_arrays_get (r.arrays, 0, XRLAB_QUANTITY_BETA), gold, 200);

  /* A bad density, too. */
  spec.formula = "Au";
  spec.density_g_cm3 = -1.0;
  r.t.pending++;
  xrlab_engine_update_material_async (engine, &spec, NULL, bool_done, &r);
  xrlab_test_tally_wait (&r.t);
  g_assert_error (r.t.error, XRLAB_OPTICS_ERROR, XRLAB_OPTICS_ERROR_MATERIAL);
  g_clear_error (&r.t.error);
  spec.density_g_cm3 = NAN;
  r.t.pending++;
  xrlab_engine_update_material_async (engine, &spec, NULL, bool_done, &r);
  xrlab_test_tally_wait (&r.t);
  g_assert_error (r.t.error, XRLAB_OPTICS_ERROR, XRLAB_OPTICS_ERROR_MATERIAL);
  g_clear_error (&r.t.error);

  r.t.pending++;
  xrlab_engine_fetch_async (engine, "plot", XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_BETA),
                            &spec.id, 1, NULL, arrays_done, &r);
  xrlab_test_tally_wait (&r.t);
  g_assert_cmpint (r.arrays->status[0], ==, XRLAB_ENGINE_VALUES_STALE);
  assert_same_values (xrlab_engine_arrays_get (r.arrays, 0, XRLAB_QUANTITY_BETA), gold, 200);

  /* Valid again: current values. */
  spec.density_g_cm3 = 19.3;
  r.t.pending++;
  xrlab_engine_update_material_async (engine, &spec, NULL, bool_done, &r);
  xrlab_test_tally_wait (&r.t);
  g_assert_no_error (r.t.error);
  r.t.pending++;
  xrlab_engine_fetch_async (engine, "plot", XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_BETA),
                            &spec.id, 1, NULL, arrays_done, &r);
  xrlab_test_tally_wait (&r.t);
  g_assert_cmpint (r.arrays->status[0], ==, XRLAB_ENGINE_VALUES_CURRENT);
  g_assert_null (r.arrays->messages[0]);

  /* A new material that was never valid has no values. */
  spec.id = 77;
  spec.formula = "Xx";
  r.t.pending++;
  xrlab_engine_update_material_async (engine, &spec, NULL, bool_done, &r);
  xrlab_test_tally_wait (&r.t);
  g_assert_error (r.t.error, XRLAB_FORMULA_ERROR, XRLAB_FORMULA_ERROR_UNKNOWN_ELEMENT);
  g_clear_error (&r.t.error);
  r.t.pending++;
  xrlab_engine_fetch_async (engine, "plot", XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_BETA),
                            &spec.id, 1, NULL, arrays_done, &r);
  xrlab_test_tally_wait (&r.t);
  g_assert_cmpint (r.arrays->status[0], ==, XRLAB_ENGINE_VALUES_NONE);
  g_assert_true (isnan (xrlab_engine_arrays_get (r.arrays, 0, XRLAB_QUANTITY_BETA)[0]));

  /* An unknown id in a fetch. */
  {
    guint bad = 12345;
    r.t.pending++;
    xrlab_engine_fetch_async (engine, "plot", XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_BETA),
                              &bad, 1, NULL, arrays_done, &r);
    xrlab_test_tally_wait (&r.t);
    g_assert_error (r.t.error, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_NO_MATERIAL);
  }
  replies_clear (&r);
}

/* Replacing the list keeps the results of unchanged materials, follows the
 * new order, and a duplicate id is refused. */
static void
test_set_materials (void)
{
  g_autoptr(XrlabEngine) engine = xrlab_engine_new ();
  g_autoptr(XrlabEnergyGrid) grid = make_grid (2.0, 20.0, 100);
  Replies r = { 0 };
  XrlabMaterialSpec reordered[3] = { five[4], five[0], five[2] };
  XrlabMaterialSpec dup[2] = { five[0], five[0] };

  /* Materials before a grid: computed when the grid comes. */
  r.t.pending++;
  xrlab_engine_set_materials_async (engine, five, 5, NULL, set_materials_done, &r);
  xrlab_test_tally_wait (&r.t);
  g_assert_no_error (r.t.error);
  r.t.pending++;
  xrlab_engine_fetch_async (engine, "plot", XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_F2), NULL, 0,
                            NULL, arrays_done, &r);
  xrlab_test_tally_wait (&r.t);
  g_assert_error (r.t.error, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_NO_GRID);
  g_clear_error (&r.t.error);
  set_grid (engine, grid, &r);

  r.t.pending++;
  xrlab_engine_set_materials_async (engine, reordered, 3, NULL, set_materials_done, &r);
  xrlab_test_tally_wait (&r.t);
  r.t.pending++;
  xrlab_engine_fetch_async (engine, "plot", XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_F2), NULL, 0,
                            NULL, arrays_done, &r);
  xrlab_test_tally_wait (&r.t);
  g_assert_no_error (r.t.error);
  g_assert_cmpuint (r.arrays->n_materials, ==, 3);
  for (int i = 0; i < 3; i++)
    {
      g_autofree double *expect = fresh_values (grid, &reordered[i], XRLAB_QUANTITY_F2);
      g_assert_cmpuint (r.arrays->ids[i], ==, reordered[i].id);
      assert_same_values (xrlab_engine_arrays_get (r.arrays, i, XRLAB_QUANTITY_F2), expect, 100);
    }

  r.t.pending++;
  xrlab_engine_set_materials_async (engine, dup, 2, NULL, set_materials_done, &r);
  xrlab_test_tally_wait (&r.t);
  g_assert_error (r.t.error, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_INVALID);
  replies_clear (&r);
}

/* The values table: every quantity at one energy. */
static void
test_fetch_at (void)
{
  g_autoptr(XrlabEngine) engine = xrlab_engine_new ();
  g_autoptr(XrlabEnergyGrid) grid = make_grid (1.0, 30.0, 50);
  Replies r = { 0 };

  set_grid (engine, grid, &r);
  r.t.pending++;
  xrlab_engine_set_materials_async (engine, five, 5, NULL, set_materials_done, &r);
  xrlab_test_tally_wait (&r.t);
  r.t.pending++;
  xrlab_engine_fetch_at_async (engine, "table", 8.048, XRLAB_QUANTITY_MASK_ALL, NULL, 0,
                               NULL, arrays_done, &r);
  xrlab_test_tally_wait (&r.t);
  g_assert_no_error (r.t.error);
  g_assert_cmpuint (r.arrays->n_energies, ==, 1);
  g_assert_cmpuint (r.arrays->n_quantities, ==, XRLAB_QUANTITY_N);
  for (gsize m = 0; m < 5; m++)
    {
      double expect[XRLAB_QUANTITY_N];
      g_autoptr(XrlabFormula) f = xrlab_formula_parse (five[m].formula, NULL);
      XrlabOpticsMaterial om = { f, five[m].density_g_cm3, five[m].thickness_um };
      g_assert_true (xrlab_optics_compute_point (&om, 8.048, XRLAB_QUANTITY_MASK_ALL, expect, NULL));
      for (int q = 0; q < XRLAB_QUANTITY_N; q++)
        g_assert_cmpfloat (xrlab_engine_arrays_get (r.arrays, m, q)[0], ==, expect[q]);
    }
  replies_clear (&r);
}

/* The table travels with the grid: the engine computes a Chantler grid
 * with Chantler's tables, says so in every reply, keeps no Henke cache for
 * it, and fetches at one energy by the grid's choice (auto: Chantler above
 * 30 keV while the grid is Henke's; henke: refused there). */
static void
test_tables (void)
{
  g_autoptr(XrlabEngine) engine = xrlab_engine_new ();
  g_autoptr(XrlabEnergyGrid) henke = make_grid (1.0, 30.0, 40);
  g_autoptr(XrlabEnergyGrid) chantler = xrlab_energy_grid_new_range_for_table (
    1.0, 30.0, 40, XRLAB_GRID_LOG, XRLAB_ENERGY_UNIT_KEV, XRLAB_TABLE_CHOICE_CHANTLER, NULL);
  g_autoptr(XrlabEnergyGrid) auto_soft = xrlab_energy_grid_new_range_for_table (
    1.0, 30.0, 40, XRLAB_GRID_LOG, XRLAB_ENERGY_UNIT_KEV, XRLAB_TABLE_CHOICE_AUTO, NULL);
  g_autoptr(XrlabEngineBatch) b = NULL;
  XrlabQuantityMask mask = XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_DELTA) | XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_MU_TOTAL);
  Replies r = { 0 };

  g_assert_cmpint (xrlab_energy_grid_get_table (auto_soft), ==, XRLAB_TABLE_HENKE);
  r.t.pending++;
  xrlab_engine_set_materials_async (engine, five, 2, NULL, set_materials_done, &r);
  xrlab_test_tally_wait (&r.t);

  /* Henke's grid, then the same energies with Chantler's tables. */
  for (int pass = 0; pass < 2; pass++)
    {
      XrlabEnergyGrid *grid = pass == 0 ? henke : chantler;
      g_autofree double *delta = fresh_values (grid, &five[1], XRLAB_QUANTITY_DELTA);

      set_grid (engine, grid, &r);
      r.t.pending++;
      xrlab_engine_fetch_async (engine, "plot", mask, NULL, 0, NULL, arrays_done, &r);
      xrlab_test_tally_wait (&r.t);
      g_assert_no_error (r.t.error);
      g_assert_cmpint (r.arrays->table, ==, pass == 0 ? XRLAB_TABLE_HENKE : XRLAB_TABLE_CHANTLER);
      assert_same_values (xrlab_engine_arrays_get (r.arrays, 1, XRLAB_QUANTITY_DELTA), delta, 40);
    }

  /* Auto: one energy above 30 keV is Chantler's, below Henke's. */
  set_grid (engine, auto_soft, &r);
  for (int k = 0; k < 2; k++)
    {
      double e = k == 0 ? 8.0 : 100.0, expect[XRLAB_QUANTITY_N];
      g_autoptr(XrlabFormula) f = xrlab_formula_parse (five[1].formula, NULL);
      XrlabOpticsMaterial om = { f, five[1].density_g_cm3, five[1].thickness_um };
      XrlabTable t = k == 0 ? XRLAB_TABLE_HENKE : XRLAB_TABLE_CHANTLER;

      r.t.pending++;
      xrlab_engine_fetch_at_async (engine, "table", e, mask, NULL, 0, NULL, arrays_done, &r);
      xrlab_test_tally_wait (&r.t);
      g_assert_no_error (r.t.error);
      g_assert_cmpint (r.arrays->table, ==, t);
      g_assert_true (xrlab_optics_compute_point_for_table (&om, e, t, mask, expect, NULL));
      g_assert_cmpfloat (xrlab_engine_arrays_get (r.arrays, 1, XRLAB_QUANTITY_MU_TOTAL)[0], ==,
                         expect[XRLAB_QUANTITY_MU_TOTAL]);
    }
  /* Henke's grid: 100 keV is refused, the table named. */
  set_grid (engine, henke, &r);
  r.t.pending++;
  xrlab_engine_fetch_at_async (engine, "table", 100.0, mask, (const guint[]) { 2 }, 1, NULL,
                               arrays_done, &r);
  xrlab_test_tally_wait (&r.t);
  g_assert_error (r.t.error, XRLAB_OPTICS_ERROR, XRLAB_OPTICS_ERROR_ENERGY);
  g_assert_nonnull (strstr (r.t.error->message, "Henke"));

  /* A batch says which table its values are from. */
  b = xrlab_engine_batch_sync (engine, five, 2, chantler, mask, NULL, NULL, NULL, NULL);
  g_assert_nonnull (b);
  g_assert_cmpint (b->table, ==, XRLAB_TABLE_CHANTLER);
  replies_clear (&r);
}

/* Exports are written by the engine, atomically, and read back to the
 * engine's numbers; a failed export leaves no file. */
static void
test_export (void)
{
  g_autoptr(XrlabEngine) engine = xrlab_engine_new ();
  g_autoptr(XrlabEnergyGrid) grid = make_grid (1.0, 30.0, 300);
  g_autofree char *dir = g_dir_make_tmp ("xrlab-engine-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "out.csv", NULL);
  g_autofree char *bad = g_build_filename (dir, "missing", "out.csv", NULL);
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  XrlabQuantityMask mask = XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_WAVELENGTH)
                           | XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_DELTA)
                           | XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_TRANSMISSION);
  Replies r = { 0 };
  XrlabEngineStats st;
  gsize row = 0;

  set_grid (engine, grid, &r);
  r.t.pending++;
  xrlab_engine_set_materials_async (engine, five, 2, NULL, set_materials_done, &r);
  xrlab_test_tally_wait (&r.t);
  r.t.pending++;
  xrlab_engine_fetch_async (engine, "plot", mask, NULL, 0, NULL, arrays_done, &r);
  xrlab_test_tally_wait (&r.t);
  g_assert_no_error (r.t.error);
  xrlab_engine_reset_stats (engine);

  r.t.pending++;
  xrlab_engine_export_csv_async (engine, path, mask, NULL, 0, NULL, bool_done, &r);
  xrlab_test_tally_wait (&r.t);
  g_assert_no_error (r.t.error);
  xrlab_engine_get_stats (engine, NULL, &st);
  g_assert_cmpuint (st.n_transfers, ==, 0);   /* nothing went through the caller */
  g_assert_cmpuint (st.n_exports, ==, 1);
  g_assert_cmpuint (st.export_bytes, >, 300 * 20);

  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_nonnull (strstr (contents, "\n# table: henke (Henke, Gullikson & Davis 1993 with CXRO updates; "
                                      "choice henke)\n# scattering in the total attenuation: xraylib "
                                      "CS_Rayl + CS_Compt\n"));
  lines = g_strsplit (contents, "\n", -1);
  for (gsize i = 0; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      g_auto(GStrv) fields = NULL;
      if (lines[i][0] == '#')
        continue;
      fields = g_strsplit (lines[i], ",", -1);
      g_assert_cmpuint (g_strv_length (fields), ==, 2 + 2 * 2);
      if (row == 0)
        {
          g_assert_cmpstr (fields[0], ==, "energy_keV");
          g_assert_cmpstr (fields[1], ==, "wavelength_A");
          g_assert_cmpstr (fields[2], ==, "Silicon:delta");
          g_assert_cmpstr (fields[3], ==, "Silicon:transmission");
          g_assert_cmpstr (fields[5], ==, "Silica:transmission");
        }
      else
        {
          gsize e = row - 1;
          double v;
          g_assert_true (xrlab_parse_double (fields[0], FALSE, &v));
          g_assert_cmpfloat (v, ==, r.arrays->energies_kev[e]);
          g_assert_true (xrlab_parse_double (fields[2], FALSE, &v));
          g_assert_cmpfloat (v, ==, xrlab_engine_arrays_get (r.arrays, 0, XRLAB_QUANTITY_DELTA)[e]);
          g_assert_true (xrlab_parse_double (fields[5], FALSE, &v));
          g_assert_cmpfloat (v, ==, xrlab_engine_arrays_get (r.arrays, 1, XRLAB_QUANTITY_TRANSMISSION)[e]);
        }
      row++;
    }
  g_assert_cmpuint (row, ==, 301);

  /* A folder that does not exist: an error naming it, no file. */
  r.t.pending++;
  xrlab_engine_export_csv_async (engine, bad, mask, NULL, 0, NULL, bool_done, &r);
  xrlab_test_tally_wait (&r.t);
  g_assert_error (r.t.error, XRLAB_IO_ERROR, XRLAB_IO_ERROR_FAILED);
  g_assert_nonnull (strstr (r.t.error->message, "missing"));
  g_assert_false (g_file_test (bad, G_FILE_TEST_EXISTS));

  g_unlink (path);
  g_rmdir (dir);
  replies_clear (&r);
}

/* A batch: values equal to the single-material computation, bad rows
 * reported with every good row computed. */
static void
test_batch (void)
{
  g_autoptr(XrlabEngine) engine = xrlab_engine_new ();
  g_autoptr(XrlabEnergyGrid) grid = make_grid (1.0, 30.0, 64);
  XrlabMaterialSpec specs[] = {
    { 0, NULL, "Si", 2.33, 0 },
    { 0, NULL, "sio2", 2.2, 0 },
    { 0, NULL, "Au", -3, 0 },
    { 0, NULL, "Fe2O3", 5.24, 0 },
  };
  XrlabQuantityMask mask = XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_DELTA) | XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_BETA);
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabEngineBatch) b = xrlab_engine_batch_sync (engine, specs, 4, grid, mask,
                                                           NULL, NULL, NULL, &error);
  XrlabEngineStats st;

  g_assert_no_error (error);
  g_assert_nonnull (b);
  g_assert_cmpuint (b->n_quantities, ==, 2);
  g_assert_null (b->errors[0]);
  g_assert_error (b->errors[1], XRLAB_FORMULA_ERROR, XRLAB_FORMULA_ERROR_LOWERCASE);
  g_assert_error (b->errors[2], XRLAB_OPTICS_ERROR, XRLAB_OPTICS_ERROR_MATERIAL);
  g_assert_null (b->errors[3]);
  for (gsize m = 0; m < 4; m += 3)
    {
      g_autofree double *delta = fresh_values (grid, &specs[m], XRLAB_QUANTITY_DELTA);
      g_autofree double *beta = fresh_values (grid, &specs[m], XRLAB_QUANTITY_BETA);
      assert_same_values (b->values + (m * 2 + 0) * 64, delta, 64);
      assert_same_values (b->values + (m * 2 + 1) * 64, beta, 64);
      g_assert_cmpfloat (b->molecular_weight_g_mol[m], >, 28.0);
    }
  g_assert_true (isnan (b->values[1 * 2 * 64]));
  g_assert_true (isnan (b->molecular_weight_g_mol[2]));
  g_assert_true (xrlab_engine_get_stats (engine, "batch", &st));
  g_assert_cmpuint (st.n_transfers, ==, 1);
}

/* Groups in one request: every group's values are those of its own batch,
 * bit for bit (small groups point by point, large ones on a cache; Henke
 * and Chantler grids), with the same material errors. */
static void
test_batch_groups (void)
{
  g_autoptr(XrlabEngine) engine = xrlab_engine_new ();
  XrlabMaterialSpec specs[] = {
    { 0, NULL, "Si", 2.33, 0 },
    { 0, NULL, "sio2", 2.2, 0 },
    { 0, NULL, "Au", -3, 0 },
    { 0, NULL, "Fe2O3", 5.24, 0 },
  };
  const double one[] = { 8.048 }, few[] = { 0.1, 9.0, 0.05 }, hard[] = { 60.0, 250.0 };
  XrlabEnergyGrid *grids[4];
  XrlabEngineBatchGroup groups[4];
  XrlabQuantityMask mask = XRLAB_QUANTITY_MASK_ALL & ~XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_TRANSMISSION);
  g_autoptr(GError) error = NULL;
  XrlabEngineBatch **b;

  grids[0] = xrlab_energy_grid_new (one, 1, XRLAB_ENERGY_UNIT_KEV, &error);
  grids[1] = xrlab_energy_grid_new (few, 3, XRLAB_ENERGY_UNIT_KEV, &error);
  grids[2] = make_grid (1.0, 30.0, 300);
  grids[3] = xrlab_energy_grid_new_for_table (hard, 2, XRLAB_ENERGY_UNIT_KEV,
                                              XRLAB_TABLE_CHOICE_CHANTLER, &error);
  g_assert_no_error (error);
  for (int i = 0; i < 4; i++)
    groups[i] = (XrlabEngineBatchGroup) { specs, 4, grids[i] };
  b = xrlab_engine_batch_groups_sync (engine, groups, 4, mask, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (b);
  for (int i = 0; i < 4; i++)
    {
      g_autoptr(XrlabEngineBatch) one_batch = xrlab_engine_batch_sync (engine, specs, 4, grids[i],
                                                                       mask, NULL, NULL, NULL,
                                                                       &error);
      gsize n = one_batch->n_materials * one_batch->n_quantities * one_batch->n_energies;

      g_assert_no_error (error);
      g_assert_cmpuint (b[i]->n_energies, ==, one_batch->n_energies);
      g_assert_cmpuint (b[i]->n_quantities, ==, one_batch->n_quantities);
      g_assert_cmpmem (b[i]->values, n * sizeof (double), one_batch->values, n * sizeof (double));
      for (gsize m = 0; m < 4; m++)
        {
          g_assert_true ((b[i]->errors[m] == NULL) == (one_batch->errors[m] == NULL));
          if (b[i]->errors[m] != NULL)
            g_assert_cmpstr (b[i]->errors[m]->message, ==, one_batch->errors[m]->message);
        }
      xrlab_energy_grid_unref (grids[i]);
    }
  /* hard X-rays on the Chantler tables, point by point too */
  g_assert_cmpint (b[3]->table, ==, XRLAB_TABLE_CHANTLER);
  xrlab_engine_batch_groups_free (b, 4);
}

/* Cancelling a big batch returns promptly and leaves the engine usable. */
static void
test_batch_cancel (void)
{
  g_autoptr(XrlabEngine) engine = xrlab_engine_new ();
  g_autoptr(XrlabEnergyGrid) grid = make_grid (1.0, 30.0, 1000);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  gsize n = 10000;   /* 10^4 materials x 10^3 energies = 10^7 points */
  g_autofree XrlabMaterialSpec *specs = g_new0 (XrlabMaterialSpec, n);
  const char *formulas[] = { "SiO2", "Al2O3", "Fe2O3", "CaCO3", "C22H10N2O5", "GaAs" };
  Replies r = { 0 };
  double t_start, elapsed, remaining;

  for (gsize i = 0; i < n; i++)
    {
      specs[i].formula = formulas[i % G_N_ELEMENTS (formulas)];
      specs[i].density_g_cm3 = 1.0 + 1e-4 * i;
    }
  r.cancel_on_progress = cancellable;
  r.t.pending++;
  t_start = xrlab_now ();
  xrlab_engine_batch_async (engine, specs, n, grid, XRLAB_QUANTITY_MASK_NO_THICKNESS,
                            batch_progress, &r, cancellable, batch_done, &r);
  xrlab_test_tally_wait (&r.t);
  elapsed = xrlab_now () - r.cancelled_at;
  g_assert_error (r.t.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (r.batch);
  g_assert_cmpuint (r.progress_calls, >=, 1);
  g_assert_cmpuint (r.progress_done, <, n);
  /* Promptly: in a small part of the time the rest of the batch would have
   * taken at the rate it ran until the cancel (a bound that holds on a
   * loaded machine, under a sanitizer and under valgrind alike). */
  g_assert_cmpuint (r.done_at_cancel, >, 0);
  remaining = (r.cancelled_at - t_start) / r.done_at_cancel * (n - r.done_at_cancel);
  g_test_message ("cancelled batch returned %.1f ms after the cancel; the rest would have "
                  "taken about %.0f ms", elapsed * 1e3, remaining * 1e3);
  g_assert_cmpfloat (elapsed, <, 0.25 * remaining);
  g_clear_error (&r.t.error);

  /* Still usable. */
  set_grid (engine, grid, &r);
  r.t.pending++;
  xrlab_engine_set_materials_async (engine, five, 2, NULL, set_materials_done, &r);
  xrlab_test_tally_wait (&r.t);
  r.t.pending++;
  xrlab_engine_fetch_async (engine, "plot", XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_DELTA), NULL, 0,
                            NULL, arrays_done, &r);
  xrlab_test_tally_wait (&r.t);
  g_assert_no_error (r.t.error);
  g_assert_cmpuint (r.arrays->n_materials, ==, 2);
  replies_clear (&r);
}

/* Shutting down with requests in flight: every request is answered, nothing
 * hangs, nothing leaks (run under the sanitizer build and valgrind). */
static void
test_shutdown_in_flight (void)
{
  XrlabEngine *engine = xrlab_engine_new ();
  g_autoptr(XrlabEnergyGrid) grid = make_grid (1.0, 30.0, 1000);
  gsize n = 5000;
  g_autofree XrlabMaterialSpec *specs = g_new0 (XrlabMaterialSpec, n);
  Replies r = { 0 }, b = { 0 };
  XrlabMaterialSpec spec = five[0];

  for (gsize i = 0; i < n; i++)
    {
      specs[i].formula = "Al2O3";
      specs[i].density_g_cm3 = 3.95;
    }
  b.t.pending++;
  xrlab_engine_batch_async (engine, specs, n, grid, XRLAB_QUANTITY_MASK_NO_THICKNESS,
                            NULL, NULL, NULL, batch_done, &b);
  r.t.pending++;
  xrlab_engine_set_grid_async (engine, grid, NULL, bool_done, &r);
  for (int i = 0; i < 50; i++)
    {
      spec.density_g_cm3 = 2.0 + i;
      r.t.pending++;
      xrlab_engine_update_material_async (engine, &spec, NULL, bool_done, &r);
      r.t.pending++;
      xrlab_engine_fetch_async (engine, "plot", XRLAB_QUANTITY_MASK_ALL, NULL, 0, NULL,
                                arrays_done, &r);
    }
  xrlab_engine_shutdown (engine);

  /* After shutdown: answered at once with an error. */
  r.t.pending++;
  xrlab_engine_fetch_async (engine, "plot", XRLAB_QUANTITY_MASK_ALL, NULL, 0, NULL, arrays_done, &r);
  xrlab_test_tally_wait (&r.t);
  xrlab_test_tally_wait (&b.t);
  g_assert_error (r.t.error, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_SHUT_DOWN);
  g_assert_cmpint (r.t.replies, ==, 102);
  g_assert_cmpint (b.t.replies, ==, 1);
  g_object_unref (engine);
  replies_clear (&r);
  replies_clear (&b);
}

/* Superseded fetches of one consumer do not hold back other consumers. */
static void
test_consumers_independent (void)
{
  g_autoptr(XrlabEngine) engine = xrlab_engine_new ();
  g_autoptr(XrlabEnergyGrid) grid = make_grid (1.0, 30.0, 100);
  Replies r = { 0 }, p = { 0 }, t = { 0 };
  XrlabEngineStats st;

  set_grid (engine, grid, &r);
  r.t.pending++;
  xrlab_engine_set_materials_async (engine, five, 5, NULL, set_materials_done, &r);
  xrlab_test_tally_wait (&r.t);
  xrlab_engine_reset_stats (engine);
  for (int i = 0; i < 3; i++)
    {
      p.t.pending++;
      xrlab_engine_fetch_async (engine, "plot", XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_MU), NULL, 0,
                                NULL, arrays_done, &p);
    }
  t.t.pending++;
  xrlab_engine_fetch_at_async (engine, "table", 8.048, XRLAB_QUANTITY_MASK_ALL, NULL, 0, NULL,
                               arrays_done, &t);
  xrlab_test_tally_wait (&p.t);
  xrlab_test_tally_wait (&t.t);
  g_assert_cmpint (p.n_arrays + p.t.superseded, ==, 3);
  g_assert_cmpint (p.n_arrays, >=, 1);
  g_assert_cmpint (t.n_arrays, ==, 1);
  xrlab_engine_get_stats (engine, "table", &st);
  g_assert_cmpuint (st.n_transfers, ==, 1);
  g_assert_cmpuint (st.bytes, ==, (1 + 5 * XRLAB_QUANTITY_N) * sizeof (double));
  {
    g_autofree char *text = xrlab_engine_format_stats (engine);
    g_assert_nonnull (strstr (text, "plot"));
    g_assert_nonnull (strstr (text, "table"));
    g_assert_nonnull (strstr (text, "total"));
  }
  replies_clear (&r);
  replies_clear (&p);
  replies_clear (&t);
}

/* ---- the job lane and progress ----------------------------------------------- */

/* @n materials of a few formulas (with 10^3 energies: n × 10^3 points). */
static XrlabMaterialSpec *
many_specs (gsize n)
{
  static const char *formulas[] = { "SiO2", "Al2O3", "Fe2O3", "CaCO3", "C22H10N2O5", "GaAs" };
  XrlabMaterialSpec *specs = g_new0 (XrlabMaterialSpec, n);

  for (gsize i = 0; i < n; i++)
    {
      specs[i].formula = formulas[i % G_N_ELEMENTS (formulas)];
      specs[i].density_g_cm3 = 1.0 + 1e-4 * i;
    }
  return specs;
}

/* Until the batch of @b has reported progress (it is running on the lane)
 * or has been answered. */
static void
wait_for_progress (Replies *b)
{
  while (b->progress_calls == 0 && b->t.pending > 0)
    g_main_context_iteration (NULL, TRUE);
}

static void
assert_batch_values (XrlabEnergyGrid *grid, const XrlabEngineBatch *batch,
                     const XrlabMaterialSpec *specs, gsize m)
{
  g_autofree double *expect = fresh_values (grid, &specs[m], XRLAB_QUANTITY_DELTA);
  gsize n_e = xrlab_energy_grid_get_size (grid);

  g_assert_null (batch->errors[m]);
  assert_same_values (batch->values + m * batch->n_quantities * n_e, expect, n_e);
}

typedef struct {
  int   calls;
  gsize last;
} ProgressLog;

static void
log_progress (gconstpointer snapshot, GCallback callback, gpointer data)
{
  g_assert_true (callback == G_CALLBACK (log_progress));
  ProgressLog *log = data;

  log->calls++;
  log->last = *(const gsize *) snapshot;
}

static gpointer
post_thousand (gpointer data)
{
  for (gsize i = 1; i <= 1000; i++)
    xrlab_engine_progress_post (data, &i);
  return NULL;
}

/* The one progress mechanism: posts from another thread coalesce into one
 * delivery of the newest on this thread's context; once finished (the
 * request answered), nothing more is delivered, not even what was queued. */
static void
test_progress_coalesces (void)
{
  ProgressLog log = { 0 };
  XrlabEngineProgress *p = xrlab_engine_progress_new (sizeof (gsize), 0.03, log_progress,
                                                  G_CALLBACK (log_progress), &log, NULL);
  gsize v;

  g_thread_join (g_thread_new ("poster", post_thousand, p));
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpint (log.calls, ==, 1);
  g_assert_cmpuint (log.last, ==, 1000);

  /* Within the interval: delivered later, still only the newest. */
  v = 1001;
  xrlab_engine_progress_post (p, &v);
  v = 1002;
  xrlab_engine_progress_post (p, &v);
  g_assert_cmpint (log.calls, ==, 1);
  while (log.calls < 2)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (log.last, ==, 1002);

  v = 2000;
  xrlab_engine_progress_post (p, &v);
  xrlab_engine_progress_finish (p);
  v = 3000;
  xrlab_engine_progress_post (p, &v);
  xrlab_test_iterate_for (100);
  g_assert_cmpint (log.calls, ==, 2);
  g_assert_cmpuint (log.last, ==, 1002);
  xrlab_engine_progress_unref (p);
}

/* An edit and a fetch sent while a 10^7-point batch runs on the job lane
 * are answered before the batch; the batch then completes, whole. */
static void
test_edit_during_batch (void)
{
  g_autoptr(XrlabEngine) engine = xrlab_engine_new ();
  g_autoptr(XrlabEnergyGrid) grid = make_grid (1.0, 30.0, 1000);
  gsize n = 10000;   /* 10^4 materials x 10^3 energies = 10^7 points */
  g_autofree XrlabMaterialSpec *specs = many_specs (n);
  XrlabQuantityMask delta = XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_DELTA);
  Replies r = { 0 }, e = { 0 }, f = { 0 }, b = { 0 };
  XrlabMaterialSpec edit = five[1];

  set_grid (engine, grid, &r);
  r.t.pending++;
  xrlab_engine_set_materials_async (engine, five, 5, NULL, set_materials_done, &r);
  xrlab_test_tally_wait (&r.t);
  g_assert_no_error (r.t.error);

  b.t.pending++;
  xrlab_engine_batch_async (engine, specs, n, grid, delta | XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_BETA),
                            batch_progress, &b, NULL, batch_done, &b);
  wait_for_progress (&b);
  g_assert_cmpint (b.t.replies, ==, 0);

  edit.density_g_cm3 = 2.5;
  e.t.pending++;
  xrlab_engine_update_material_async (engine, &edit, NULL, bool_done, &e);
  f.t.pending++;
  xrlab_engine_fetch_async (engine, "plot", delta, &edit.id, 1, NULL, arrays_done, &f);
  xrlab_test_tally_wait (&e.t);
  xrlab_test_tally_wait (&f.t);
  g_assert_cmpint (b.t.replies, ==, 0);   /* the batch has not replied yet */
  g_assert_no_error (e.t.error);
  g_assert_cmpint (e.t.superseded, ==, 0);
  g_assert_no_error (f.t.error);
  g_assert_cmpint (f.n_arrays, ==, 1);
  g_assert_cmpuint (f.arrays->generation, ==, xrlab_engine_get_generation (engine));
  {
    g_autofree double *expect = fresh_values (grid, &edit, XRLAB_QUANTITY_DELTA);
    assert_same_values (xrlab_engine_arrays_get (f.arrays, 0, XRLAB_QUANTITY_DELTA), expect, 1000);
  }

  xrlab_test_tally_wait (&b.t);
  g_assert_no_error (b.t.error);
  g_assert_nonnull (b.batch);
  g_assert_cmpuint (b.batch->n_materials, ==, n);
  assert_batch_values (grid, b.batch, specs, 0);
  assert_batch_values (grid, b.batch, specs, n / 2 + 1);
  assert_batch_values (grid, b.batch, specs, n - 1);
  g_assert_cmpuint (b.progress_after_reply, ==, 0);
  replies_clear (&r);
  replies_clear (&e);
  replies_clear (&f);
  replies_clear (&b);
}

/* The caller cancels a batch that is running on the lane (not from its
 * progress callback): it stops before its end, and the job waiting behind
 * it runs. */
static void
test_batch_cancel_running (void)
{
  g_autoptr(XrlabEngine) engine = xrlab_engine_new ();
  g_autoptr(XrlabEnergyGrid) grid = make_grid (1.0, 30.0, 1000);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  gsize n = 10000;
  g_autofree XrlabMaterialSpec *specs = many_specs (n);
  XrlabQuantityMask mask = XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_DELTA) | XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_BETA);
  Replies b = { 0 }, next = { 0 }, e = { 0 };

  b.t.pending++;
  xrlab_engine_batch_async (engine, specs, n, grid, mask, batch_progress, &b, cancellable,
                            batch_done, &b);
  next.t.pending++;
  xrlab_engine_batch_async (engine, specs, 3, grid, XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_DELTA),
                            batch_progress, &next, NULL, batch_done, &next);
  wait_for_progress (&b);
  g_assert_cmpint (b.t.replies, ==, 0);

  e.t.pending++;
  xrlab_engine_set_materials_async (engine, five, 2, NULL, set_materials_done, &e);
  xrlab_test_tally_wait (&e.t);
  g_assert_no_error (e.t.error);
  g_assert_cmpint (b.t.replies, ==, 0);
  g_assert_cmpint (next.t.replies, ==, 0);   /* it waits for the lane */

  g_cancellable_cancel (cancellable);
  xrlab_test_tally_wait (&b.t);
  g_assert_error (b.t.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (b.batch);
  g_assert_cmpuint (b.progress_done, <, n);

  xrlab_test_tally_wait (&next.t);
  g_assert_no_error (next.t.error);
  g_assert_nonnull (next.batch);
  for (gsize m = 0; m < 3; m++)
    assert_batch_values (grid, next.batch, specs, m);
  xrlab_test_iterate_for (100);
  g_assert_cmpuint (b.progress_after_reply, ==, 0);
  g_assert_cmpuint (next.progress_after_reply, ==, 0);
  replies_clear (&b);
  replies_clear (&next);
  replies_clear (&e);
}

/* Shutting down while a batch runs: it is cut short (SHUT_DOWN), the job
 * waiting behind it and every other request are answered, and nothing
 * reports progress afterwards. */
static void
test_shutdown_during_batch (void)
{
  XrlabEngine *engine = xrlab_engine_new ();
  g_autoptr(XrlabEnergyGrid) grid = make_grid (1.0, 30.0, 1000);
  gsize n = 10000;
  g_autofree XrlabMaterialSpec *specs = many_specs (n);
  XrlabQuantityMask mask = XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_DELTA) | XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_BETA);
  Replies b = { 0 }, waiting = { 0 }, r = { 0 };
  XrlabMaterialSpec spec = five[0];

  set_grid (engine, grid, &r);
  b.t.pending++;
  xrlab_engine_batch_async (engine, specs, n, grid, mask, batch_progress, &b, NULL, batch_done, &b);
  waiting.t.pending++;
  xrlab_engine_batch_async (engine, specs, 10, grid, mask, batch_progress, &waiting, NULL,
                            batch_done, &waiting);
  wait_for_progress (&b);
  g_assert_cmpint (b.t.replies, ==, 0);
  for (int i = 0; i < 20; i++)
    {
      spec.density_g_cm3 = 2.0 + i;
      r.t.pending++;
      xrlab_engine_update_material_async (engine, &spec, NULL, bool_done, &r);
      r.t.pending++;
      xrlab_engine_fetch_async (engine, "plot", XRLAB_QUANTITY_MASK_ALL, NULL, 0, NULL,
                                arrays_done, &r);
    }
  xrlab_engine_shutdown (engine);

  xrlab_test_tally_wait (&b.t);
  xrlab_test_tally_wait (&waiting.t);
  xrlab_test_tally_wait (&r.t);
  g_assert_error (b.t.error, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_SHUT_DOWN);
  g_assert_null (b.batch);
  g_assert_cmpuint (b.progress_done, <, n);
  g_assert_error (waiting.t.error, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_SHUT_DOWN);
  g_assert_cmpint (b.t.replies, ==, 1);
  g_assert_cmpint (waiting.t.replies, ==, 1);
  g_assert_cmpint (r.t.replies, ==, 1 + 40);
  xrlab_test_iterate_for (100);
  g_assert_cmpuint (b.progress_after_reply, ==, 0);
  g_assert_cmpuint (waiting.progress_after_reply, ==, 0);
  g_object_unref (engine);
  replies_clear (&b);
  replies_clear (&waiting);
  replies_clear (&r);
}

/* Batches of several sizes run to the end with progress: no progress is
 * delivered after the reply, however late it was queued. */
static void
test_progress_not_after_reply (void)
{
  g_autoptr(XrlabEngine) engine = xrlab_engine_new ();
  g_autoptr(XrlabEnergyGrid) grid = make_grid (1.0, 30.0, 1000);
  const gsize sizes[] = { 1, 500, 3000, 10000 };
  g_autofree XrlabMaterialSpec *specs = many_specs (10000);

  for (gsize i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      Replies b = { 0 };

      b.t.pending++;
      xrlab_engine_batch_async (engine, specs, sizes[i], grid, XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_DELTA),
                                batch_progress, &b, NULL, batch_done, &b);
      xrlab_test_tally_wait (&b.t);
      g_assert_no_error (b.t.error);
      g_assert_nonnull (b.batch);
      xrlab_test_iterate_for (80);
      g_assert_cmpuint (b.progress_after_reply, ==, 0);
      g_assert_cmpuint (b.progress_done, <=, sizes[i]);
      replies_clear (&b);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  xrlab_init ();
  g_test_add_func ("/engine/one-transfer", test_one_transfer);
  g_test_add_func ("/engine/pull-not-push", test_pull_not_push);
  g_test_add_func ("/engine/burst-coalesces", test_burst_coalesces);
  g_test_add_func ("/engine/bad-input-keeps-state", test_bad_input_keeps_state);
  g_test_add_func ("/engine/set-materials", test_set_materials);
  g_test_add_func ("/engine/fetch-at", test_fetch_at);
  g_test_add_func ("/engine/tables", test_tables);
  g_test_add_func ("/engine/export", test_export);
  g_test_add_func ("/engine/batch", test_batch);
  g_test_add_func ("/engine/batch-groups", test_batch_groups);
  g_test_add_func ("/engine/batch-cancel", test_batch_cancel);
  g_test_add_func ("/engine/shutdown-in-flight", test_shutdown_in_flight);
  g_test_add_func ("/engine/consumers-independent", test_consumers_independent);
  g_test_add_func ("/engine/progress-coalesces", test_progress_coalesces);
  g_test_add_func ("/engine/edit-during-batch", test_edit_during_batch);
  g_test_add_func ("/engine/batch-cancel-running", test_batch_cancel_running);
  g_test_add_func ("/engine/shutdown-during-batch", test_shutdown_during_batch);
  g_test_add_func ("/engine/progress-not-after-reply", test_progress_not_after_reply);
  return g_test_run ();
}
