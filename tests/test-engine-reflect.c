/* test-engine-reflect.c -- the engine's stacks: transfers counted, bursts
 * coalesce, an invalid stack keeps the last valid one, curves and maps
 * equal to the plans computed directly, the map job (cancel, shutdown,
 * edits answered while it runs), filters
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "xrlab-engine.h"
#include "xrlab-engine-reflect.h"
#include "xrlab-init.h"
#include "xrlab-util.h"
#include "test-common.h"

/* ---- helpers --------------------------------------------------------------- */

typedef struct {
  XrlabTestTally     t;
  int                error_column;
  XrlabEngineCurves *curves;         /* the last curves received */
  int                n_curves;
  GPtrArray         *stack_errors;
  gsize              progress_calls;
  gsize              progress_done;
  gsize              progress_total;
  GCancellable      *cancel_on_progress;
  gsize              progress_after_reply;
} Replies;

static void
replies_clear (Replies *r)
{
  g_clear_error (&r->t.error);
  g_clear_pointer (&r->curves, xrlab_engine_curves_free);
  g_clear_pointer (&r->stack_errors, g_ptr_array_unref);
  memset (r, 0, sizeof *r);
}


static void
update_done (GObject *source, GAsyncResult *result, gpointer data)
{
  Replies *r = data;
  GError *error = NULL;
  int column = -1;

  if (!xrlab_engine_update_stack_finish (XRLAB_ENGINE (source), result, &column, &error))
    r->error_column = column;
  g_assert_cmpint (column, >=, 0);
  xrlab_test_tally_replied (&r->t, error);
}

static void
set_done (GObject *source, GAsyncResult *result, gpointer data)
{
  Replies *r = data;
  GError *error = NULL;

  g_clear_pointer (&r->stack_errors, g_ptr_array_unref);
  xrlab_engine_set_stacks_finish (XRLAB_ENGINE (source), result, &r->stack_errors, &error);
  xrlab_test_tally_replied (&r->t, error);
}

static void
grid_done (GObject *source, GAsyncResult *result, gpointer data)
{
  GError *error = NULL;

  xrlab_engine_set_grid_finish (XRLAB_ENGINE (source), result, &error);
  xrlab_test_tally_replied (&((Replies *) data)->t, error);
}

static void
export_done (GObject *source, GAsyncResult *result, gpointer data)
{
  GError *error = NULL;

  xrlab_engine_reflect_export_csv_finish (XRLAB_ENGINE (source), result, &error);
  xrlab_test_tally_replied (&((Replies *) data)->t, error);
}

static void
curves_done (GObject *source, GAsyncResult *result, gpointer data)
{
  Replies *r = data;
  GError *error = NULL;
  XrlabEngineCurves *c;

  if (g_async_result_is_tagged (result, xrlab_engine_reflect_map_async))
    c = xrlab_engine_reflect_map_finish (XRLAB_ENGINE (source), result, &error);
  else
    c = xrlab_engine_reflect_fetch_finish (XRLAB_ENGINE (source), result, &error);
  if (c != NULL)
    {
      g_clear_pointer (&r->curves, xrlab_engine_curves_free);
      r->curves = c;
      r->n_curves++;
    }
  xrlab_test_tally_replied (&r->t, error);
}

static void
map_progress (gsize done, gsize total, gpointer data)
{
  Replies *r = data;

  if (r->t.replies > 0)
    r->progress_after_reply++;
  g_assert_cmpuint (done, <=, total);
  r->progress_calls++;
  r->progress_done = done;
  r->progress_total = total;
  if (r->cancel_on_progress != NULL)
    g_cancellable_cancel (r->cancel_on_progress);
}


static XrlabEnergyGrid *
make_grid (double start, double stop, gsize n)
{
  GError *error = NULL;
  XrlabEnergyGrid *grid = xrlab_energy_grid_new_range (start, stop, n, XRLAB_GRID_LINEAR,
                                                       XRLAB_ENERGY_UNIT_KEV, &error);
  g_assert_no_error (error);
  return grid;
}

static double *
make_angles (double max_rad, gsize n)
{
  double *a = g_new (double, n);

  for (gsize i = 0; i < n; i++)
    a[i] = max_rad * (double) i / (double) (n - 1);
  return a;
}

#define MULTILAYER "B4C:3nm/{W:19.3:1.0nm~0.3nm/B4C:2.52:1.5nm~0.3nm}x50/Si:2.33~0.3nm"

static const XrlabStackSpec three[] = {
  { 1, "Rh", "Rh:12.41~0.3nm", XRLAB_STACK_REFLECT },
  { 2, "Pt coating", "Pt:21.45:30nm~0.4nm/Si:2.33~0.3nm", XRLAB_STACK_REFLECT },
  { 3, "W/B4C", MULTILAYER, XRLAB_STACK_REFLECT },
};

static const XrlabStackSpec filters[] = {
  { 10, "filters", "Al:100um/Cu:8.96:25um/Kapton:50um", XRLAB_STACK_FILTER },
  { 11, "air", "air@1atm,295K:1m", XRLAB_STACK_FILTER },
};

static void
set_stacks (XrlabEngine *engine, const XrlabStackSpec *specs, gsize n)
{
  Replies r = { 0 };

  r.t.pending++;
  xrlab_engine_set_stacks_async (engine, specs, n, NULL, set_done, &r);
  xrlab_test_tally_wait (&r.t);
  g_assert_no_error (r.t.error);
  for (guint i = 0; i < r.stack_errors->len; i++)
    g_assert_null (g_ptr_array_index (r.stack_errors, i));
  replies_clear (&r);
}

static void
fetch (XrlabEngine *engine, const char *consumer, const XrlabReflectQuery *q,
       const guint *ids, gsize n_ids, Replies *r)
{
  r->t.pending++;
  xrlab_engine_reflect_fetch_async (engine, consumer, q, ids, n_ids, NULL, curves_done, r);
  xrlab_test_tally_wait (&r->t);
}

static XrlabStack *
parse (const XrlabStackSpec *spec)
{
  g_autoptr(GError) error = NULL;
  XrlabStack *s = spec->kind == XRLAB_STACK_FILTER
                  ? xrlab_stack_parse_filter (spec->text, NULL, &error)
                  : xrlab_stack_parse_reflect (spec->text, NULL, &error);

  g_assert_no_error (error);
  return s;
}

/* The plan of @text on @grid made directly, as the engine makes it: δ and
 * β from a fresh cache of the grid, or from the tables at a single energy. */
static XrlabReflectPlan *
direct_plan (const XrlabStackSpec *spec, XrlabEnergyGrid *grid)
{
  g_autoptr(XrlabStack) stack = parse (spec);
  g_autoptr(GError) error = NULL;
  XrlabReflectPlan *plan;

  if (xrlab_energy_grid_get_size (grid) == 1)
    {
      gsize n_m = xrlab_stack_get_n_materials (stack);
      g_autofree double *d = g_new (double, n_m), *b = g_new (double, n_m);
      for (gsize m = 0; m < n_m; m++)
        {
          const XrlabStackMaterial *sm = xrlab_stack_get_material (stack, m);
          XrlabOpticsMaterial om = { sm->formula, sm->density_g_cm3, NAN };
          double v[XRLAB_QUANTITY_N];
          g_assert_true (xrlab_optics_compute_point_for_table (&om, xrlab_energy_grid_get_energies_kev (grid)[0],
                                                               xrlab_energy_grid_get_table (grid),
                                                               XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_DELTA)
                                                               | XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_BETA),
                                                               v, &error));
          d[m] = v[XRLAB_QUANTITY_DELTA];
          b[m] = v[XRLAB_QUANTITY_BETA];
        }
      plan = xrlab_reflect_plan_new_with_constants (stack, grid, d, b, &error);
    }
  else
    {
      XrlabOpticsCache *cache = xrlab_optics_cache_new (grid);
      plan = xrlab_reflect_plan_new (stack, cache, &error);
      xrlab_optics_cache_free (cache);
    }
  g_assert_no_error (error);
  return plan;
}

/* R, R_s, R_p of @spec computed directly for @q, @n points each. */
static double *
direct_values (const XrlabStackSpec *spec, const XrlabReflectQuery *q, gsize n)
{
  g_autoptr(XrlabEnergyGrid) one = NULL;
  XrlabEnergyGrid *grid = q->grid;
  XrlabReflectPlan *plan;
  double *v = g_new (double, 3 * n);
  XrlabReflectOutput out = { q->polarization, v, v + n, v + 2 * n, NULL, NULL, NULL };
  g_autoptr(GError) error = NULL;

  if (q->curve == XRLAB_REFLECT_CURVE_ANGLES)
    grid = one = xrlab_energy_grid_new_for_table (&q->energy_kev, 1, XRLAB_ENERGY_UNIT_KEV,
                                                  (XrlabTableChoice) q->table, &error);
  plan = direct_plan (spec, grid);
  if (q->curve == XRLAB_REFLECT_CURVE_ANGLES)
    xrlab_reflect_plan_angles (plan, 0, q->angles_rad, q->n_angles, &out, &error);
  else if (q->curve == XRLAB_REFLECT_CURVE_ENERGIES)
    xrlab_reflect_plan_energies (plan, q->angle_rad, &out, &error);
  else
    xrlab_reflect_plan_map (plan, q->angles_rad, q->n_angles, &out, NULL, &error);
  g_assert_no_error (error);
  xrlab_reflect_plan_free (plan);
  return v;
}

static void
assert_same (const double *a, const double *b, gsize n)
{
  for (gsize i = 0; i < n; i++)
    if (!(isnan (a[i]) && isnan (b[i])))
      g_assert_cmpfloat (a[i], ==, b[i]);
}

static void
assert_stack_values (const XrlabEngineCurves *c, gsize index, const XrlabStackSpec *spec,
                     const XrlabReflectQuery *q)
{
  g_autofree double *expect = direct_values (spec, q, c->n_points);

  assert_same (xrlab_engine_curves_get (c, index, XRLAB_REFLECT_VALUE_R), expect, c->n_points);
  assert_same (xrlab_engine_curves_get (c, index, XRLAB_REFLECT_VALUE_R_S), expect + c->n_points,
               c->n_points);
  assert_same (xrlab_engine_curves_get (c, index, XRLAB_REFLECT_VALUE_R_P), expect + 2 * c->n_points,
               c->n_points);
}

/* The marks a stack's reply has: its materials without the ambient. */
static gsize
n_marks_of (const XrlabStackSpec *spec)
{
  g_autoptr(XrlabStack) s = parse (spec);

  return xrlab_stack_get_n_materials (s) - (xrlab_stack_get_ambient (s) >= 0 ? 1 : 0);
}

/* ---- tests ------------------------------------------------------------------ */

/* Three stacks on one plot = one transfer of exactly the reply's doubles;
 * the values are those of the plans made directly, the marks the critical
 * angles. Edits alone transfer nothing. */
static void
test_one_transfer (void)
{
  g_autoptr(XrlabEngine) engine = xrlab_engine_new ();
  g_autofree double *angles = make_angles (0.02, 500);
  XrlabReflectQuery q = {
    .curve = XRLAB_REFLECT_CURVE_ANGLES, .table = XRLAB_TABLE_HENKE,
    .values = XRLAB_REFLECT_VALUES_R, .polarization = 0.3,
    .energy_kev = 10.0, .angles_rad = angles, .n_angles = 500,
  };
  Replies r = { 0 };
  XrlabEngineStats st;
  gsize n_marks = 0;

  set_stacks (engine, three, 3);
  xrlab_engine_get_stats (engine, NULL, &st);
  g_assert_cmpuint (st.n_transfers, ==, 0);

  fetch (engine, "reflect-plot", &q, NULL, 0, &r);
  g_assert_no_error (r.t.error);
  g_assert_nonnull (r.curves);
  g_assert_cmpuint (r.curves->n_stacks, ==, 3);
  g_assert_cmpuint (r.curves->n_values, ==, 3);
  g_assert_cmpuint (r.curves->n_points, ==, 500);
  g_assert_cmpuint (r.curves->n_energies, ==, 1);
  g_assert_cmpfloat (r.curves->energies_kev[0], ==, 10.0);
  g_assert_cmpuint (r.curves->generation, ==, xrlab_engine_get_stack_generation (engine));
  for (gsize s = 0; s < 3; s++)
    {
      g_assert_cmpuint (r.curves->ids[s], ==, three[s].id);
      g_assert_cmpint (r.curves->status[s], ==, XRLAB_ENGINE_VALUES_CURRENT);
      g_assert_null (r.curves->messages[s]);
      assert_stack_values (r.curves, s, &three[s], &q);
      g_assert_cmpuint (r.curves->mark_start[s + 1] - r.curves->mark_start[s], ==, n_marks_of (&three[s]));
      n_marks += n_marks_of (&three[s]);
    }
  /* Rh's critical angle at 10 keV is about 6.7 mrad (√(2δ), δ = 2.3e-5). */
  g_assert_cmpstr (r.curves->mark_names[0], ==, "Rh");
  g_assert_cmpfloat (r.curves->marks[0], >, 6.4e-3);
  g_assert_cmpfloat (r.curves->marks[0], <, 7.0e-3);

  g_assert_true (xrlab_engine_get_stats (engine, "reflect-plot", &st));
  g_assert_cmpuint (st.n_requests, ==, 1);
  g_assert_cmpuint (st.n_transfers, ==, 1);
  g_assert_cmpuint (st.bytes, ==, (1 + 500 + 3 * 3 * 500 + n_marks) * sizeof (double));
  g_assert_cmpuint (st.bytes, ==, xrlab_engine_curves_get_payload_bytes (r.curves));

  /* Twenty edits with nobody asking: no transfer. */
  for (int i = 0; i < 20; i++)
    {
      g_autofree char *text = g_strdup_printf ("Rh:%g~0.3nm", 12.0 + 0.01 * i);
      XrlabStackSpec spec = { 1, "Rh", text, XRLAB_STACK_REFLECT };
      Replies e = { 0 };

      e.t.pending++;
      xrlab_engine_update_stack_async (engine, &spec, NULL, update_done, &e);
      xrlab_test_tally_wait (&e.t);
      g_assert_no_error (e.t.error);
    }
  xrlab_engine_get_stats (engine, "reflect-plot", &st);
  g_assert_cmpuint (st.n_transfers, ==, 1);

  /* One stack asked for: one more transfer, of its size. */
  {
    guint id = 3;
    fetch (engine, "reflect-plot", &q, &id, 1, &r);
    g_assert_no_error (r.t.error);
    g_assert_cmpuint (r.curves->n_stacks, ==, 1);
    xrlab_engine_get_stats (engine, "reflect-plot", &st);
    g_assert_cmpuint (st.n_transfers, ==, 2);
  }
  replies_clear (&r);
}

/* Curves vs energy on the materials' grid (the optics service's cache) and
 * on another grid, maps small enough to be served on the worker, and
 * filters: the values of the direct computation. */
static void
test_curve_kinds (void)
{
  g_autoptr(XrlabEngine) engine = xrlab_engine_new ();
  g_autoptr(XrlabEnergyGrid) grid = make_grid (5.0, 25.0, 300);
  g_autoptr(XrlabEnergyGrid) other = make_grid (8.0, 9.0, 11);
  g_autofree double *angles = make_angles (0.01, 40);
  XrlabReflectQuery q = {
    .curve = XRLAB_REFLECT_CURVE_ENERGIES, .table = XRLAB_TABLE_HENKE,
    .values = XRLAB_REFLECT_VALUES_R, .polarization = 1.0, .angle_rad = 3e-3, .grid = grid,
  };
  Replies r = { 0 };
  GError *error = NULL;

  /* The materials' grid: reflectivity uses the optics service's cache. */
  {
    Replies g = { 0 };
    g.t.pending++;
    xrlab_engine_set_grid_async (engine, grid, NULL, grid_done, &g);
    xrlab_test_tally_wait (&g.t);
    replies_clear (&g);
  }
  set_stacks (engine, three, 3);
  set_stacks (engine, three, 3);   /* the same list: nothing to do */
  fetch (engine, "energies", &q, NULL, 0, &r);
  g_assert_no_error (r.t.error);
  g_assert_cmpuint (r.curves->n_points, ==, 300);
  g_assert_cmpuint (r.curves->n_angles, ==, 1);
  for (gsize s = 0; s < 3; s++)
    assert_stack_values (r.curves, s, &three[s], &q);
  /* Rh's critical angle falls to 3 mrad near 22 keV (θc ≈ 67 mrad keV / E). */
  g_assert_cmpfloat (r.curves->marks[0], >, 20.0);
  g_assert_cmpfloat (r.curves->marks[0], <, 24.0);

  q.grid = other;
  fetch (engine, "energies", &q, NULL, 0, &r);
  g_assert_no_error (r.t.error);
  for (gsize s = 0; s < 3; s++)
    assert_stack_values (r.curves, s, &three[s], &q);

  /* A map served on the worker: 11 × 40 values. */
  q.curve = XRLAB_REFLECT_CURVE_MAP;
  q.angles_rad = angles;
  q.n_angles = 40;
  fetch (engine, "map", &q, NULL, 0, &r);
  g_assert_no_error (r.t.error);
  g_assert_cmpuint (r.curves->n_points, ==, 11 * 40);
  g_assert_cmpuint (r.curves->mark_start[3], ==, 0);
  for (gsize s = 0; s < 3; s++)
    assert_stack_values (r.curves, s, &three[s], &q);

  /* Filters: their transmission, T = Π exp(−μ t). */
  set_stacks (engine, filters, 2);
  q.curve = XRLAB_REFLECT_CURVE_FILTER;
  q.grid = grid;
  fetch (engine, "filters", &q, NULL, 0, &r);
  g_assert_no_error (r.t.error);
  g_assert_cmpuint (r.curves->n_stacks, ==, 2);
  g_assert_cmpuint (r.curves->n_values, ==, 1);
  g_assert_cmpuint (r.curves->n_angles, ==, 0);
  for (gsize s = 0; s < 2; s++)
    {
      g_autoptr(XrlabStack) stack = parse (&filters[s]);
      XrlabOpticsCache *cache = xrlab_optics_cache_new (grid);
      g_autofree double *t = g_new (double, 300);

      g_assert_true (xrlab_filter_transmission (cache, stack, FALSE, t, NULL, &error));
      g_assert_no_error (error);
      assert_same (xrlab_engine_curves_get (r.curves, s, XRLAB_REFLECT_VALUE_T), t, 300);
      g_assert_null (xrlab_engine_curves_get (r.curves, s, XRLAB_REFLECT_VALUE_R));
      xrlab_optics_cache_free (cache);
    }
  /* 25 keV through 1 m of air (0.12 g/cm²): about 0.96 with scattering
   * (μ_total/ρ ≈ 0.34 cm²/g), 0.99 by photoabsorption alone. */
  g_assert_cmpfloat (xrlab_engine_curves_get (r.curves, 1, XRLAB_REFLECT_VALUE_T)[299], >, 0.8);

  /* The reflectivity stacks were replaced by the filters. */
  q.curve = XRLAB_REFLECT_CURVE_ENERGIES;
  fetch (engine, "energies", &q, NULL, 0, &r);
  g_assert_no_error (r.t.error);
  g_assert_cmpuint (r.curves->n_stacks, ==, 0);
  replies_clear (&r);
}

/* A burst of 100 stack edits, each followed by a fetch: one edit answered,
 * one reply with values, for the newest text. */
static void
test_burst_coalesces (void)
{
  g_autoptr(XrlabEngine) engine = xrlab_engine_new ();
  g_autofree double *angles = make_angles (0.05, 300);
  const char *typing[] = { "W", "W:", "W:19.3", "W:19.3:1", "W:19.3:1nm", "W:19.3:1nm/",
                           "W:19.3:1nm/Si", "W:19.3:2nm/Si", "{W:19.3:2nm/B4C:2nm}x10/Si",
                           "{W:19.3:2nm/B4C:2nm}x20/Si:2.33" };
  XrlabReflectQuery q = {
    .curve = XRLAB_REFLECT_CURVE_ANGLES, .table = XRLAB_TABLE_HENKE,
    .values = XRLAB_REFLECT_VALUES_R, .polarization = 0.0, .energy_kev = 8.048,
    .angles_rad = angles, .n_angles = 300,
  };
  Replies e = { 0 }, f = { 0 };
  XrlabStackSpec spec = { 7, "typed", NULL, XRLAB_STACK_REFLECT };

  set_stacks (engine, three, 1);
  xrlab_engine_reset_stats (engine);
  for (int i = 0; i < 100; i++)
    {
      spec.text = typing[i % G_N_ELEMENTS (typing)];
      e.t.pending++;
      xrlab_engine_update_stack_async (engine, &spec, NULL, update_done, &e);
      f.t.pending++;
      xrlab_engine_reflect_fetch_async (engine, "plot", &q, &spec.id, 1, NULL, curves_done, &f);
    }
  xrlab_test_tally_wait (&e.t);
  xrlab_test_tally_wait (&f.t);

  g_assert_cmpint (e.t.replies, ==, 100);
  g_assert_cmpint (e.t.superseded, ==, 99);
  g_assert_no_error (e.t.error);
  g_assert_no_error (f.t.error);
  g_assert_cmpint (f.t.replies, ==, 100);
  g_assert_cmpint (f.n_curves, ==, 1);
  g_assert_cmpint (f.t.superseded, ==, 99);
  g_assert_cmpuint (f.curves->generation, ==, xrlab_engine_get_stack_generation (engine));
  g_assert_cmpint (f.curves->status[0], ==, XRLAB_ENGINE_VALUES_CURRENT);
  assert_stack_values (f.curves, 0, &spec, &q);
  replies_clear (&e);
  replies_clear (&f);
}

/* An invalid stack comes back with the parser's message and column; it
 * keeps its last valid stack, whose values fetches mark stale, until the
 * text is valid again. A stack never valid has no values. */
static void
test_invalid_keeps_last_valid (void)
{
  g_autoptr(XrlabEngine) engine = xrlab_engine_new ();
  g_autofree double *angles = make_angles (0.02, 100);
  XrlabReflectQuery q = {
    .curve = XRLAB_REFLECT_CURVE_ANGLES, .table = XRLAB_TABLE_HENKE,
    .values = XRLAB_REFLECT_VALUES_R, .polarization = 0.0, .energy_kev = 12.0,
    .angles_rad = angles, .n_angles = 100,
  };
  XrlabStackSpec spec = three[1];
  Replies e = { 0 }, r = { 0 };
  g_autofree char *expect_column = NULL;

  set_stacks (engine, three, 3);

  /* Pt:21.45:30nm~0.4nm/Si:2.33~0.3nm with the roughness unit missing. */
  spec.text = "Pt:21.45:30nm~0.4/Si:2.33~0.3nm";
  e.t.pending++;
  xrlab_engine_update_stack_async (engine, &spec, NULL, update_done, &e);
  xrlab_test_tally_wait (&e.t);
  g_assert_error (e.t.error, XRLAB_STACK_ERROR, XRLAB_STACK_ERROR_ROUGHNESS);
  g_assert_cmpint (e.error_column, >, 0);
  expect_column = g_strdup_printf ("column %d", e.error_column);
  g_assert_nonnull (strstr (e.t.error->message, expect_column));
  g_assert_nonnull (strstr (e.t.error->message, "Pt"));

  fetch (engine, "plot", &q, NULL, 0, &r);
  g_assert_no_error (r.t.error);
  g_assert_cmpint (r.curves->status[0], ==, XRLAB_ENGINE_VALUES_CURRENT);
  g_assert_cmpint (r.curves->status[1], ==, XRLAB_ENGINE_VALUES_STALE);
  g_assert_cmpstr (r.curves->messages[1], ==, e.t.error->message);
  g_assert_cmpint (r.curves->error_columns[1], ==, e.error_column);
  assert_stack_values (r.curves, 1, &three[1], &q);

  /* A filter text in a reflectivity stack's place: still stale. */
  spec.text = "Al:100um/air@1atm:1m";
  e.t.pending++;
  xrlab_engine_update_stack_async (engine, &spec, NULL, update_done, &e);
  xrlab_test_tally_wait (&e.t);
  g_assert_error (e.t.error, XRLAB_STACK_ERROR, XRLAB_STACK_ERROR_GAS);
  fetch (engine, "plot", &q, NULL, 0, &r);
  g_assert_cmpint (r.curves->status[1], ==, XRLAB_ENGINE_VALUES_STALE);
  assert_stack_values (r.curves, 1, &three[1], &q);

  /* Valid again, written differently (the same stack). */
  g_clear_error (&e.t.error);
  spec.text = " Pt : 21.45 : 30 nm ~ 0.4 nm / Si : 2.33 ~ 0.3 nm ";
  e.t.pending++;
  xrlab_engine_update_stack_async (engine, &spec, NULL, update_done, &e);
  xrlab_test_tally_wait (&e.t);
  g_assert_no_error (e.t.error);
  fetch (engine, "plot", &q, NULL, 0, &r);
  g_assert_cmpint (r.curves->status[1], ==, XRLAB_ENGINE_VALUES_CURRENT);
  g_assert_null (r.curves->messages[1]);
  g_assert_cmpint (r.curves->error_columns[1], ==, 0);
  assert_stack_values (r.curves, 1, &three[1], &q);

  /* A new stack that was never valid: no values, its message. */
  spec.id = 99;
  spec.text = "{W:19.3:1nm/B4C:1nm}x0/Si";
  g_clear_error (&e.t.error);
  e.t.pending++;
  xrlab_engine_update_stack_async (engine, &spec, NULL, update_done, &e);
  xrlab_test_tally_wait (&e.t);
  g_assert_error (e.t.error, XRLAB_STACK_ERROR, XRLAB_STACK_ERROR_LIMIT);
  g_assert_cmpint (e.error_column, >, 0);
  {
    guint id = 99;
    fetch (engine, "plot", &q, &id, 1, &r);
    g_assert_no_error (r.t.error);
    g_assert_cmpint (r.curves->status[0], ==, XRLAB_ENGINE_VALUES_NONE);
    g_assert_nonnull (r.curves->messages[0]);
    g_assert_cmpint (r.curves->error_columns[0], ==, e.error_column);
    g_assert_true (isnan (xrlab_engine_curves_get (r.curves, 0, XRLAB_REFLECT_VALUE_R)[0]));
    g_assert_cmpuint (r.curves->mark_start[1], ==, 0);
  }

  /* set_stacks reports each stack's error in its place. */
  {
    XrlabStackSpec list[] = { three[0], { 5, NULL, "Rh/", XRLAB_STACK_REFLECT } };
    Replies s = { 0 };
    s.t.pending++;
    xrlab_engine_set_stacks_async (engine, list, 2, NULL, set_done, &s);
    xrlab_test_tally_wait (&s.t);
    g_assert_no_error (s.t.error);
    g_assert_cmpuint (s.stack_errors->len, ==, 2);
    g_assert_null (g_ptr_array_index (s.stack_errors, 0));
    g_assert_nonnull (g_ptr_array_index (s.stack_errors, 1));
    replies_clear (&s);
  }
  replies_clear (&e);
  replies_clear (&r);
}

/* Requests that fail as a whole, and stacks that fail alone. */
static void
test_errors (void)
{
  g_autoptr(XrlabEngine) engine = xrlab_engine_new ();
  g_autoptr(XrlabEnergyGrid) grid = make_grid (5.0, 25.0, 20);
  double angles[] = { 0.001, 0.002 };
  XrlabReflectQuery q = {
    .curve = XRLAB_REFLECT_CURVE_ANGLES, .table = XRLAB_TABLE_HENKE,
    .values = XRLAB_REFLECT_VALUES_R, .energy_kev = 10.0, .angles_rad = angles, .n_angles = 2,
  };
  XrlabReflectQuery bad;
  Replies r = { 0 };
  guint filter_id = 10, unknown = 1234;

  set_stacks (engine, three, 3);
  {
    Replies e = { 0 };
    e.t.pending++;
    xrlab_engine_update_stack_async (engine, &filters[0], NULL, update_done, &e);
    xrlab_test_tally_wait (&e.t);
    g_assert_no_error (e.t.error);
  }

  fetch (engine, "x", &q, &filter_id, 1, &r);
  g_assert_error (r.t.error, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_INVALID);
  g_clear_error (&r.t.error);
  fetch (engine, "x", &q, &unknown, 1, &r);
  g_assert_error (r.t.error, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_NO_MATERIAL);
  g_clear_error (&r.t.error);

  bad = q;
  bad.table = XRLAB_TABLE_N_TABLES;
  fetch (engine, "x", &bad, NULL, 0, &r);
  g_assert_error (r.t.error, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_INVALID);
  g_clear_error (&r.t.error);
  /* A grid made for Henke's tables, curves asked of Chantler's. */
  bad = q;
  bad.curve = XRLAB_REFLECT_CURVE_ENERGIES;
  bad.grid = grid;
  bad.table = XRLAB_TABLE_CHANTLER;
  fetch (engine, "x", &bad, NULL, 0, &r);
  g_assert_error (r.t.error, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_INVALID);
  g_assert_nonnull (strstr (r.t.error->message, "Henke"));
  g_assert_nonnull (strstr (r.t.error->message, "Chantler"));
  g_clear_error (&r.t.error);
  bad = q;
  bad.polarization = 1.5;
  fetch (engine, "x", &bad, NULL, 0, &r);
  g_assert_error (r.t.error, XRLAB_REFLECT_ERROR, XRLAB_REFLECT_ERROR_POLARIZATION);
  g_clear_error (&r.t.error);
  bad = q;
  angles[1] = 2.0;
  fetch (engine, "x", &bad, NULL, 0, &r);
  g_assert_error (r.t.error, XRLAB_REFLECT_ERROR, XRLAB_REFLECT_ERROR_ANGLE);
  g_clear_error (&r.t.error);
  angles[1] = 0.002;
  bad = q;
  bad.energy_kev = 50.0;
  fetch (engine, "x", &bad, NULL, 0, &r);
  g_assert_error (r.t.error, XRLAB_OPTICS_ERROR, XRLAB_OPTICS_ERROR_ENERGY);
  g_clear_error (&r.t.error);
  bad = q;
  bad.values = 0;
  fetch (engine, "x", &bad, NULL, 0, &r);
  g_assert_error (r.t.error, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_INVALID);
  g_clear_error (&r.t.error);
  bad = q;
  bad.curve = XRLAB_REFLECT_CURVE_ENERGIES;
  fetch (engine, "x", &bad, NULL, 0, &r);
  g_assert_error (r.t.error, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_NO_GRID);
  g_clear_error (&r.t.error);

  /* An energy below one material's f1 table fails that stack alone. */
  {
    XrlabStackSpec low[] = { { 1, NULL, "Rh", XRLAB_STACK_REFLECT },
                             { 2, NULL, "Au:19.3", XRLAB_STACK_REFLECT } };
    g_autoptr(XrlabEnergyGrid) soft = NULL;
    double e = 0.0295;  /* Henke's f1 of Rh starts at 29.3 eV or later */
    GError *error = NULL;

    soft = xrlab_energy_grid_new (&e, 1, XRLAB_ENERGY_UNIT_KEV, &error);
    if (soft != NULL)
      {
        set_stacks (engine, low, 2);
        bad = q;
        bad.energy_kev = e;
        fetch (engine, "x", &bad, NULL, 0, &r);
        g_assert_no_error (r.t.error);
        for (gsize s = 0; s < 2; s++)
          if (r.curves->status[s] == XRLAB_ENGINE_VALUES_NONE)
            g_assert_nonnull (strstr (r.curves->messages[s], "Stack material"));
      }
    g_clear_error (&error);
  }

  /* A zero or repeated id. */
  {
    XrlabStackSpec twice[] = { three[0], three[0] };
    Replies s = { 0 };
    s.t.pending++;
    xrlab_engine_set_stacks_async (engine, twice, 2, NULL, set_done, &s);
    xrlab_test_tally_wait (&s.t);
    g_assert_error (s.t.error, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_INVALID);
    replies_clear (&s);
  }
  replies_clear (&r);
}

/* A map too big for the worker runs on the job lane: progress, values
 * equal to the serial map, and an edit and a fetch answered while it
 * runs. */
static void
test_map_job (void)
{
  g_autoptr(XrlabEngine) engine = xrlab_engine_new ();
  g_autoptr(XrlabEnergyGrid) grid = make_grid (7.0, 9.0, 60);
  g_autofree double *angles = make_angles (0.06, 2000);
  XrlabReflectQuery q = {
    .curve = XRLAB_REFLECT_CURVE_MAP, .table = XRLAB_TABLE_HENKE,
    .values = XRLAB_REFLECT_VALUES_R, .polarization = -0.5, .grid = grid,
    .angles_rad = angles, .n_angles = 2000,
  };
  g_autofree double *curve_angles = make_angles (0.01, 10);
  XrlabReflectQuery small = {
    .curve = XRLAB_REFLECT_CURVE_ANGLES, .table = XRLAB_TABLE_HENKE,
    .values = XRLAB_REFLECT_VALUES_R, .energy_kev = 8.0, .angles_rad = curve_angles, .n_angles = 10,
  };
  Replies m = { 0 }, e = { 0 }, f = { 0 };
  XrlabStackSpec edit = { 1, "Rh", "Rh:12.0", XRLAB_STACK_REFLECT };

  set_stacks (engine, three, 3);
  m.t.pending++;
  xrlab_engine_reflect_map_async (engine, "map", &q, NULL, 0, map_progress, &m, NULL, curves_done, &m);
  while (m.progress_calls == 0 && m.t.pending > 0)
    g_main_context_iteration (NULL, TRUE);

  /* Answered on the worker while the map may still run; the map's reply,
   * for the stacks before the edit, is superseded if it comes after. */
  f.t.pending++;
  xrlab_engine_reflect_fetch_async (engine, "plot", &small, NULL, 0, NULL, curves_done, &f);
  xrlab_test_tally_wait (&f.t);
  g_assert_no_error (f.t.error);
  g_assert_cmpint (f.n_curves, ==, 1);

  xrlab_test_tally_wait (&m.t);
  g_assert_no_error (m.t.error);
  g_assert_nonnull (m.curves);
  g_assert_cmpuint (m.progress_total, ==, 3 * 60);
  g_assert_cmpuint (m.curves->n_points, ==, 60 * 2000);
  for (gsize s = 0; s < 3; s++)
    assert_stack_values (m.curves, s, &three[s], &q);
  xrlab_test_iterate_for (80);
  g_assert_cmpuint (m.progress_after_reply, ==, 0);
  {
    XrlabEngineStats st;
    xrlab_engine_get_stats (engine, "map", &st);
    g_assert_cmpuint (st.n_transfers, ==, 1);
    g_assert_cmpuint (st.bytes, ==, (60 + 2000 + 3 * 3 * 60 * 2000) * sizeof (double));
  }

  /* The plans came back: a fetch of the big map again (no progress), then
   * an edit during a map makes its reply superseded. */
  replies_clear (&m);
  m.t.pending++;
  xrlab_engine_reflect_fetch_async (engine, "map", &q, NULL, 0, NULL, curves_done, &m);
  e.t.pending++;
  xrlab_engine_update_stack_async (engine, &edit, NULL, update_done, &e);
  xrlab_test_tally_wait (&e.t);
  xrlab_test_tally_wait (&m.t);
  g_assert_no_error (e.t.error);
  g_assert_no_error (m.t.error);
  g_assert_cmpint (m.t.replies, ==, 1);
  g_assert_cmpint (m.t.superseded + m.n_curves, ==, 1);
  replies_clear (&m);
  replies_clear (&e);
  replies_clear (&f);
}

/* Cancelling a map job on the lane stops it before its end; the next job
 * runs. Shutting down during a map answers it SHUT_DOWN. */
static void
test_map_cancel (void)
{
  XrlabEngine *engine = xrlab_engine_new ();
  g_autoptr(XrlabEnergyGrid) grid = make_grid (5.0, 25.0, 2000);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autofree double *angles = make_angles (0.06, 2000);
  XrlabReflectQuery q = {
    .curve = XRLAB_REFLECT_CURVE_MAP, .table = XRLAB_TABLE_HENKE,
    .values = XRLAB_REFLECT_VALUES_R, .grid = grid, .angles_rad = angles, .n_angles = 2000,
  };
  Replies m = { 0 }, next = { 0 }, last = { 0 };
  guint ml = 3;

  set_stacks (engine, three, 3);
  m.cancel_on_progress = cancellable;
  m.t.pending++;
  xrlab_engine_reflect_map_async (engine, "map", &q, &ml, 1, map_progress, &m, cancellable,
                                  curves_done, &m);
  next.t.pending++;
  q.n_angles = 20;
  xrlab_engine_reflect_map_async (engine, "map2", &q, &ml, 1, NULL, NULL, NULL, curves_done, &next);
  xrlab_test_tally_wait (&m.t);
  g_assert_error (m.t.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (m.curves);
  g_assert_cmpuint (m.progress_done, <, 2000);
  xrlab_test_tally_wait (&next.t);
  g_assert_no_error (next.t.error);
  g_assert_cmpuint (next.curves->n_points, ==, 2000 * 20);
  assert_stack_values (next.curves, 0, &three[2], &q);

  /* Shut down while a map runs. */
  q.n_angles = 2000;
  last.t.pending++;
  xrlab_engine_reflect_map_async (engine, "map", &q, &ml, 1, map_progress, &last, NULL,
                                  curves_done, &last);
  while (last.progress_calls == 0 && last.t.pending > 0)
    g_main_context_iteration (NULL, TRUE);
  xrlab_engine_shutdown (engine);
  xrlab_test_tally_wait (&last.t);
  g_assert_error (last.t.error, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_SHUT_DOWN);
  xrlab_test_iterate_for (80);
  g_assert_cmpuint (last.progress_after_reply, ==, 0);
  g_assert_cmpuint (m.progress_after_reply, ==, 0);
  g_object_unref (engine);
  replies_clear (&m);
  replies_clear (&next);
  replies_clear (&last);
}

/* The parallel map is the serial one, bit for bit, on 1, 2 and the pool's
 * threads; cancelled, it says so. */
static void
test_map_parallel (void)
{
  g_autoptr(XrlabEnergyGrid) grid = make_grid (7.5, 9.5, 37);
  g_autofree double *angles = make_angles (0.05, 333);
  gsize n = 37 * 333;
  XrlabReflectPlan *plan = direct_plan (&three[2], grid);
  g_autofree double *serial = g_new (double, 4 * n);
  g_autofree double *par = g_new (double, 4 * n);
  XrlabReflectOutput a = { 0.2, serial, serial + n, NULL, serial + 2 * n, NULL, serial + 3 * n };
  XrlabReflectOutput b = { 0.2, par, par + n, NULL, par + 2 * n, NULL, par + 3 * n };
  g_autoptr(GCancellable) cancelled = g_cancellable_new ();
  GError *error = NULL;
  guint threads[] = { 1, 2, 0 };

  g_assert_true (xrlab_reflect_plan_map (plan, angles, 333, &a, NULL, &error));
  for (gsize k = 0; k < G_N_ELEMENTS (threads); k++)
    {
      memset (par, 0, 4 * n * sizeof (double));
      g_assert_true (xrlab_reflect_plan_map_parallel (plan, angles, 333, &b, threads[k], NULL, NULL,
                                                      NULL, &error));
      g_assert_no_error (error);
      g_assert_cmpmem (serial, 4 * n * sizeof (double), par, 4 * n * sizeof (double));
    }
  g_cancellable_cancel (cancelled);
  g_assert_false (xrlab_reflect_plan_map_parallel (plan, angles, 333, &b, 0, NULL, NULL,
                                                   cancelled, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  angles[3] = -1.0;
  g_assert_false (xrlab_reflect_plan_map_parallel (plan, angles, 333, &b, 0, NULL, NULL, NULL, &error));
  g_assert_error (error, XRLAB_REFLECT_ERROR, XRLAB_REFLECT_ERROR_ANGLE);
  g_clear_error (&error);
  xrlab_reflect_plan_free (plan);
}

/* An export: written by the engine, the fetch's numbers to the last bit, a
 * header naming each stack's columns; a stack without values refused, and
 * no file left. */
/* The Chantler tables: curves at energies beyond Henke's, equal to the
 * plans made directly from Chantler's tables; the reply names the table;
 * a filter's transmission by the total attenuation unless asked for
 * photoabsorption alone. */
static void
test_chantler (void)
{
  g_autoptr(XrlabEngine) engine = xrlab_engine_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabEnergyGrid) grid = xrlab_energy_grid_new_range_for_table (30.0, 150.0, 25, XRLAB_GRID_LOG,
                                                                           XRLAB_ENERGY_UNIT_KEV,
                                                                           XRLAB_TABLE_CHOICE_AUTO, &error);
  double angles[] = { 0.0005, 0.001, 0.002 };
  XrlabReflectQuery q = {
    .curve = XRLAB_REFLECT_CURVE_ANGLES, .table = XRLAB_TABLE_CHANTLER,
    .values = XRLAB_REFLECT_VALUES_R, .energy_kev = 60.0, .angles_rad = angles, .n_angles = 3,
  };
  Replies r = { 0 }, p = { 0 };

  g_assert_no_error (error);
  g_assert_cmpint (xrlab_energy_grid_get_table (grid), ==, XRLAB_TABLE_CHANTLER);
  set_stacks (engine, three, 3);
  fetch (engine, "angles", &q, NULL, 0, &r);
  g_assert_no_error (r.t.error);
  g_assert_cmpint (r.curves->table, ==, XRLAB_TABLE_CHANTLER);
  for (gsize s = 0; s < 3; s++)
    assert_stack_values (r.curves, s, &three[s], &q);
  /* Henke stops at 30 keV. */
  q.table = XRLAB_TABLE_HENKE;
  fetch (engine, "angles", &q, NULL, 0, &r);
  g_assert_error (r.t.error, XRLAB_OPTICS_ERROR, XRLAB_OPTICS_ERROR_ENERGY);
  g_assert_nonnull (strstr (r.t.error->message, "Henke"));
  replies_clear (&r);

  q.curve = XRLAB_REFLECT_CURVE_ENERGIES;
  q.table = XRLAB_TABLE_CHANTLER;
  q.grid = grid;
  q.angle_rad = 0.001;
  fetch (engine, "energies", &q, NULL, 0, &r);
  g_assert_no_error (r.t.error);
  g_assert_cmpint (r.curves->table, ==, XRLAB_TABLE_CHANTLER);
  g_assert_cmpint (r.curves->table_choice, ==, XRLAB_TABLE_CHOICE_AUTO);
  for (gsize s = 0; s < 3; s++)
    assert_stack_values (r.curves, s, &three[s], &q);
  replies_clear (&r);

  set_stacks (engine, filters, 2);
  q.curve = XRLAB_REFLECT_CURVE_FILTER;
  fetch (engine, "filters", &q, NULL, 0, &r);
  g_assert_no_error (r.t.error);
  g_assert_false (r.curves->photo_only);
  q.photo_only = TRUE;
  fetch (engine, "filters", &q, NULL, 0, &p);
  g_assert_no_error (p.t.error);
  g_assert_true (p.curves->photo_only);
  for (gsize s = 0; s < 2; s++)
    {
      g_autoptr(XrlabStack) stack = parse (&filters[s]);
      XrlabOpticsCache *cache = xrlab_optics_cache_new (grid);
      g_autofree double *t = g_new (double, 25), *tp = g_new (double, 25);
      const double *got = xrlab_engine_curves_get (r.curves, s, XRLAB_REFLECT_VALUE_T);

      g_assert_true (xrlab_filter_transmission (cache, stack, FALSE, t, NULL, &error));
      g_assert_true (xrlab_filter_transmission (cache, stack, TRUE, tp, NULL, &error));
      g_assert_no_error (error);
      assert_same (got, t, 25);
      assert_same (xrlab_engine_curves_get (p.curves, s, XRLAB_REFLECT_VALUE_T), tp, 25);
      /* At 150 keV scattering is nearly all of the attenuation. */
      g_assert_cmpfloat (got[24], <, tp[24]);
      xrlab_optics_cache_free (cache);
    }
  replies_clear (&r);
  replies_clear (&p);
}

static void
test_export (void)
{
  g_autoptr(XrlabEngine) engine = xrlab_engine_new ();
  g_autofree char *dir = g_dir_make_tmp ("xrlab-reflect-export-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "r.csv", NULL);
  g_autofree char *bad = g_build_filename (dir, "bad.csv", NULL);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  double angles[] = { 0.001, 0.004, 0.008 };
  XrlabReflectQuery q = {
    .curve = XRLAB_REFLECT_CURVE_ANGLES, .table = XRLAB_TABLE_HENKE,
    .values = XRLAB_REFLECT_VALUES_R, .polarization = 0.0, .energy_kev = 10.0,
    .angles_rad = angles, .n_angles = 3,
  };
  Replies r = { 0 }, f = { 0 };
  XrlabEngineStats st;
  guint ids[] = { 1, 2 };
  guint k = 0;

  set_stacks (engine, three, 2);
  r.t.pending++;
  xrlab_engine_reflect_export_csv_async (engine, path, &q, ids, 2, NULL, export_done, &r);
  xrlab_test_tally_wait (&r.t);
  g_assert_no_error (r.t.error);
  fetch (engine, "plot", &q, ids, 2, &f);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  while (lines[k] != NULL && lines[k][0] == '#')
    k++;
  g_assert_cmpuint (k, ==, 5);
  g_assert_true (g_str_has_prefix (lines[1], "# table: henke (Henke"));
  g_assert_nonnull (strstr (lines[3], "Rh: Rh:12.41~0.3nm"));
  g_assert_cmpstr (lines[k], ==, "energy_keV,angle_mrad,Rh:R,Rh:R_s,Rh:R_p,"
                                 "Pt coating:R,Pt coating:R_s,Pt coating:R_p");
  for (guint row = 0; row < 3; row++)
    {
      g_auto(GStrv) fields = g_strsplit (lines[k + 1 + row], ",", -1);
      double v;

      g_assert_cmpuint (g_strv_length (fields), ==, 8);
      g_assert_true (xrlab_parse_double (fields[1], FALSE, &v));
      g_assert_cmpfloat (v, ==, angles[row] * 1e3);
      for (guint c = 0; c < 6; c++)
        {
          const double *want = xrlab_engine_curves_get (f.curves, c / 3, (XrlabReflectValue) (c % 3));
          g_assert_true (xrlab_parse_double (fields[2 + c], FALSE, &v));
          g_assert_cmpfloat (v, ==, want[row]);
        }
    }
  g_assert_true (xrlab_engine_get_stats (engine, "export", &st));
  g_assert_cmpuint (st.n_exports, ==, 1);
  g_assert_cmpuint (st.export_bytes, ==, strlen (text));
  g_assert_cmpuint (st.n_transfers, ==, 0);

  {
    XrlabStackSpec never = { 9, "never", "Rh/", XRLAB_STACK_REFLECT };
    Replies e = { 0 };
    guint id = 9;

    e.t.pending++;
    xrlab_engine_update_stack_async (engine, &never, NULL, update_done, &e);
    xrlab_test_tally_wait (&e.t);
    g_clear_error (&e.t.error);
    r.t.pending++;
    xrlab_engine_reflect_export_csv_async (engine, bad, &q, &id, 1, NULL, export_done, &r);
    xrlab_test_tally_wait (&r.t);
    g_assert_error (r.t.error, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_INVALID);
    g_assert_nonnull (strstr (r.t.error->message, "never"));
    g_assert_false (g_file_test (bad, G_FILE_TEST_EXISTS));
  }
  g_remove (path);
  g_rmdir (dir);
  replies_clear (&r);
  replies_clear (&f);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  xrlab_init ();
  g_test_add_func ("/engine-reflect/one-transfer", test_one_transfer);
  g_test_add_func ("/engine-reflect/curve-kinds", test_curve_kinds);
  g_test_add_func ("/engine-reflect/burst-coalesces", test_burst_coalesces);
  g_test_add_func ("/engine-reflect/invalid-keeps-last-valid", test_invalid_keeps_last_valid);
  g_test_add_func ("/engine-reflect/errors", test_errors);
  g_test_add_func ("/engine-reflect/map-job", test_map_job);
  g_test_add_func ("/engine-reflect/map-cancel", test_map_cancel);
  g_test_add_func ("/engine-reflect/map-parallel", test_map_parallel);
  g_test_add_func ("/engine-reflect/chantler", test_chantler);
  g_test_add_func ("/engine-reflect/export", test_export);
  return g_test_run ();
}
