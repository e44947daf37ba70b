/* test-engine-fit.c -- the fit service of the engine: transfers, bursts,
 * rebuilds, previews, jobs with progress, cancellation and shutdown, the
 * Au 4f workflow against xrlab_fitflow_* called directly
 *
 * The result sets (whole old or whole new) are tested in
 * test-engine-fit-sets.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "xrlab-engine-fit-private.h"
#include "xrlab-h5.h"
#include "xrlab-init.h"
#include "xrlab-simulate.h"
#include "xrlab-util.h"
#include "test-common.h"

#define MODELS XRLAB_TEST_SRCDIR "/../data/models"

/* ---- waiting for replies ------------------------------------------------------- */

typedef struct {
  GAsyncResult *result;
  double when;
} Reply;

static void
on_reply (GObject *source, GAsyncResult *result, gpointer data)
{
  Reply *r = data;

  r->result = g_object_ref (result);
  r->when = xrlab_now ();
}

static GAsyncResult *
wait_for (Reply *r)
{
  while (r->result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return r->result;
}

static void
reply_clear (Reply *r)
{
  g_clear_object (&r->result);
}

static gboolean
setup_done (XrlabEngine *e, Reply *r, GError **error)
{
  gboolean ok = xrlab_engine_fit_setup_finish (e, wait_for (r), error);

  reply_clear (r);
  return ok;
}

static XrlabFitSetupStats
stats_of (XrlabEngine *e, guint setup)
{
  XrlabFitSetupStats st = { 0 };
  Reply r = { 0 };
  g_autoptr(GError) error = NULL;

  xrlab_engine_fit_stats_async (e, setup, NULL, on_reply, &r);
  g_assert_true (xrlab_engine_fit_stats_finish (e, wait_for (&r), &st, &error));
  g_assert_no_error (error);
  reply_clear (&r);
  return st;
}

static XrlabFitPreview *
preview (XrlabEngine *e, guint setup, const char *consumer, const XrlabFitPreviewSpec *spec,
         GError **error)
{
  Reply r = { 0 };
  XrlabFitPreview *p;

  xrlab_engine_fit_preview_async (e, setup, consumer, spec, NULL, on_reply, &r);
  p = xrlab_engine_fit_preview_finish (e, wait_for (&r), error);
  reply_clear (&r);
  return p;
}

static XrlabFitParamTable *
params_table (XrlabEngine *e, guint setup, XrlabFitModelRole role, double delay)
{
  Reply r = { 0 };
  g_autoptr(GError) error = NULL;
  XrlabFitParamTable *t;

  xrlab_engine_fit_params_async (e, setup, "table", role, delay, NULL, on_reply, &r);
  t = xrlab_engine_fit_params_finish (e, wait_for (&r), &error);
  g_assert_no_error (error);
  reply_clear (&r);
  return t;
}

static const XrlabFitParamRow *
row_named (const XrlabFitParamTable *t, const char *name)
{
  for (gsize i = 0; i < t->n_params; i++)
    if (g_str_equal (t->params[i].name, name))
      return &t->params[i];
  g_error ("no parameter %s in the table", name);
  return NULL;
}

static gboolean
edit_value (XrlabEngine *e, guint setup, const char *name, double value, GError **error)
{
  XrlabFitParamEdit ed = { .model = XRLAB_FIT_MODEL_MAIN, .name = name,
                           .fields = XRLAB_FIT_PARAM_VALUE, .value = value };
  Reply r = { 0 };
  gboolean ok;

  xrlab_engine_fit_edit_params_async (e, setup, &ed, 1, NULL, on_reply, &r);
  ok = xrlab_engine_fit_edit_params_finish (e, wait_for (&r), error);
  reply_clear (&r);
  return ok;
}

/* ---- data ------------------------------------------------------------------------- */

static const char *const expirf_models[] = { "MonoExpIRF" };

static void
expirf_spec (XrlabFitSetupSpec *spec, guint dataset, XrlabFitDynamics *dyn)
{
  xrlab_fit_setup_spec_init (spec);
  spec->dataset = dataset;
  spec->models = MODELS "/expirf.yaml";
  spec->model = "base";
  dyn->param = "GLP_01_x0";
  dyn->file = MODELS "/time.yaml";
  dyn->models = expirf_models;
  dyn->n_models = 1;
  dyn->frequency = 0;
  spec->dynamics = dyn;
  spec->n_dynamics = 1;
}

/* A measurement of the expirf model (peak position following an
 * exponential seen through a Gaussian IRF) with noise, @n_t × @n_e. */
static guint
open_synthetic (XrlabEngine *e, gsize n_t, gsize n_e, double level)
{
  g_autoptr(XrlabModel) m = xrlab_model_load (MODELS "/expirf.yaml", "base", NULL);
  g_autofree double *energy = g_new (double, n_e), *time = g_new (double, n_t), *y = NULL;
  const char *models[] = { "MonoExpIRF" };
  XrlabDatasetSource src = { .kind = XRLAB_DATASET_ARRAYS, .name = "synthetic.csv" };
  g_autoptr(GError) error = NULL;
  g_autofree XrlabDatasetInfo *info = NULL;
  Reply r = { 0 };
  double scale;
  guint id;

  g_assert_nonnull (m);
  g_assert_true (xrlab_model_add_dynamics (m, "GLP_01_x0", MODELS "/time.yaml", models, 1, 0,
                                           NULL));
  g_assert_true (xrlab_model_set_value (m, "GLP_01_x0_expFun_01_tau", 40, NULL));
  for (gsize i = 0; i < n_e; i++)
    energy[i] = 20.0 * i / (n_e - 1);
  for (gsize i = 0; i < n_t; i++)
    time[i] = -20.0 + 240.0 * i / (n_t - 1);
  y = xrlab_simulate (m, energy, n_e, time, n_t, NULL, 0, XRLAB_NOISE_GAUSSIAN, level, 3,
                      &scale, &error);
  g_assert_no_error (error);
  src.data_values = y, src.n_rows = n_t, src.n_cols = n_e;
  src.energy_values = energy, src.n_energy = n_e;
  src.time_values = time, src.n_time = n_t;
  id = xrlab_engine_dataset_open_async (e, &src, NULL, on_reply, &r);
  info = xrlab_engine_dataset_open_finish (e, wait_for (&r), &error);
  g_assert_no_error (error);
  reply_clear (&r);
  g_assert_cmpuint (info->id, ==, id);
  g_assert_cmpuint (info->n_rows, ==, n_t);
  g_assert_cmpuint (info->n_energies, ==, n_e);
  g_assert_cmpfloat (info->energy_last, ==, 20.0);
  g_assert_true (info->has_time);
  return id;
}

/* A setup of the expirf model on @dataset with the baseline model too. */
static guint
expirf_setup (XrlabEngine *e, guint dataset)
{
  XrlabFitSetupSpec spec;
  XrlabFitDynamics dyn;
  g_autoptr(GError) error = NULL;
  Reply r = { 0 };
  guint id;

  expirf_spec (&spec, dataset, &dyn);
  spec.baseline_model = "base";
  spec.b0 = -20, spec.b1 = -1;
  id = xrlab_engine_fit_setup_new_async (e, &spec, NULL, on_reply, &r);
  g_assert_true (setup_done (e, &r, &error));
  g_assert_no_error (error);
  return id;
}

/* ---- transfers ---------------------------------------------------------------------- */

static void
test_transfers (void)
{
  g_autoptr(XrlabEngine) e = xrlab_engine_new ();
  guint ds = open_synthetic (e, 61, 201, 0.02);
  guint s = expirf_setup (e, ds);
  XrlabEngineStats total, spectrum;
  XrlabFitPreviewSpec view = { .model = XRLAB_FIT_MODEL_MAIN, .view = XRLAB_FIT_VIEW_SPECTRUM,
                               .series = XRLAB_FIT_SERIES_MODEL, .delay = 30 };
  g_autoptr(GError) error = NULL;
  g_autofree XrlabFitPreview *p = NULL;

  /* edits without a consumer: nothing crosses, nothing is computed */
  for (int i = 0; i < 5; i++)
    g_assert_true (edit_value (e, s, "GLP_01_A", 10 + i, &error));
  g_assert_true (xrlab_engine_get_stats (e, NULL, &total));
  g_assert_cmpuint (total.n_transfers, ==, 0);
  g_assert_cmpuint (stats_of (e, s).n_evaluations, ==, 0);

  /* one fetch: one transfer of exactly the energies of one spectrum */
  p = preview (e, s, "spectrum", &view, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (p->n_rows, ==, 1);
  g_assert_cmpuint (p->n_cols, ==, 201);
  g_assert_null (p->data);
  g_assert_nonnull (p->model);
  g_assert_true (xrlab_engine_get_stats (e, "spectrum", &spectrum));
  g_assert_cmpuint (spectrum.n_transfers, ==, 1);
  g_assert_cmpuint (spectrum.bytes, ==, 201 * sizeof (double));
  g_assert_true (xrlab_engine_get_stats (e, NULL, &total));
  g_assert_cmpuint (total.n_transfers, ==, 1);
  g_assert_cmpuint (stats_of (e, s).n_evaluations, ==, 1);
}

/* ---- bursts ------------------------------------------------------------------------- */

typedef struct {
  guint n_ok, n_superseded, n_replies;
  gboolean last_ok;
  XrlabEngine *engine;
} Burst;

static void
burst_done (GObject *source, GAsyncResult *result, gpointer data)
{
  Burst *b = data;
  g_autoptr(GError) error = NULL;
  gboolean ok = xrlab_engine_fit_edit_params_finish (XRLAB_ENGINE (source), result, &error);

  b->n_replies++;
  if (ok)
    b->n_ok++;
  else
    g_assert_error (error, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_SUPERSEDED);
  b->n_superseded += !ok;
  b->last_ok = ok;
}

static void
test_burst (void)
{
  g_autoptr(XrlabEngine) e = xrlab_engine_new ();
  guint s = expirf_setup (e, open_synthetic (e, 61, 201, 0.02));
  XrlabFitPreviewSpec view = { .view = XRLAB_FIT_VIEW_MAP, .series = XRLAB_FIT_SERIES_MODEL };
  g_autofree XrlabFitPreview *p = NULL;
  g_autofree XrlabFitParamTable *t = NULL;
  g_autoptr(GError) error = NULL;
  XrlabFitSetupStats before = stats_of (e, s), after;
  Burst b = { 0 };

  for (int i = 0; i < 100; i++)
    {
      XrlabFitParamEdit ed = { .name = "GLP_01_A", .fields = XRLAB_FIT_PARAM_VALUE,
                               .value = 6 + 0.05 * i };
      xrlab_engine_fit_edit_params_async (e, s, &ed, 1, NULL, burst_done, &b);
    }
  p = preview (e, s, "map", &view, &error);
  g_assert_no_error (error);
  while (b.n_replies < 100)
    g_main_context_iteration (NULL, TRUE);
  after = stats_of (e, s);
  /* one evaluation, of the newest state only */
  g_assert_cmpuint (after.n_evaluations - before.n_evaluations, ==, 1);
  g_assert_cmpuint (p->generation, ==, xrlab_engine_fit_get_generation (e));
  g_assert_true (b.last_ok);
  g_assert_cmpuint (b.n_ok + b.n_superseded, ==, 100);
  g_test_message ("100 edits: %u answered, %u superseded", b.n_ok, b.n_superseded);
  t = params_table (e, s, XRLAB_FIT_MODEL_MAIN, NAN);
  g_assert_cmpfloat (row_named (t, "GLP_01_A")->value, ==, 6 + 0.05 * 99);
}

/* ---- rebuilds ----------------------------------------------------------------------- */

static gboolean
edit (XrlabEngine *e, guint s, const XrlabFitParamEdit *ed, GError **error)
{
  Reply r = { 0 };
  gboolean ok;

  xrlab_engine_fit_edit_params_async (e, s, ed, 1, NULL, on_reply, &r);
  ok = xrlab_engine_fit_edit_params_finish (e, wait_for (&r), error);
  reply_clear (&r);
  return ok;
}

static void
test_rebuilds (void)
{
  g_autoptr(XrlabEngine) e = xrlab_engine_new ();
  guint s = expirf_setup (e, open_synthetic (e, 61, 201, 0.02));
  XrlabFitParamEdit vary = { .name = "GLP_01_m", .fields = XRLAB_FIT_PARAM_VARY, .vary = FALSE };
  XrlabFitParamEdit expr = { .name = "GLP_01_F", .fields = XRLAB_FIT_PARAM_EXPR,
                             .expr = "GLP_01_m + 1" };
  XrlabFitParamEdit bad = { .name = "GLP_01_F", .fields = XRLAB_FIT_PARAM_EXPR,
                            .expr = "GLP_01_F * 2" };
  g_autoptr(GError) error = NULL;
  g_autofree XrlabFitParamTable *t = NULL;
  XrlabFitSetupStats s0 = stats_of (e, s), s1, s2, s3;

  g_assert_true (edit_value (e, s, "GLP_01_x0", 9, &error));
  s1 = stats_of (e, s);
  g_assert_cmpuint (s1.n_rebuilds, ==, s0.n_rebuilds);
  g_assert_cmpuint (s1.n_preview_plans, ==, s0.n_preview_plans);
  g_assert_cmpuint (s1.n_value_edits, ==, s0.n_value_edits + 1);

  /* a vary flip: the stages are compiled again, the preview plan stays */
  g_assert_true (edit (e, s, &vary, &error));
  s2 = stats_of (e, s);
  g_assert_cmpuint (s2.n_rebuilds, ==, s1.n_rebuilds + 1);
  g_assert_cmpuint (s2.n_preview_plans, ==, s1.n_preview_plans);

  /* an expression: a new preview plan */
  g_assert_true (edit (e, s, &expr, &error));
  s3 = stats_of (e, s);
  g_assert_cmpuint (s3.n_rebuilds, ==, s2.n_rebuilds + 1);
  g_assert_cmpuint (s3.n_preview_plans, ==, s2.n_preview_plans + 1);
  t = params_table (e, s, XRLAB_FIT_MODEL_MAIN, NAN);
  g_assert_cmpstr (row_named (t, "GLP_01_F")->expr, ==, "GLP_01_m + 1");
  g_assert_cmpfloat (row_named (t, "GLP_01_F")->value, ==, row_named (t, "GLP_01_m")->value + 1);
  g_assert_false (row_named (t, "GLP_01_m")->vary);
  g_clear_pointer (&t, g_free);

  /* invalid edits keep the last valid state and say why */
  g_assert_false (edit (e, s, &bad, &error));
  g_assert_error (error, XRLAB_MODEL_ERROR, XRLAB_MODEL_ERROR_EXPR);
  g_assert_nonnull (strstr (error->message, "GLP_01_F"));
  g_assert_nonnull (strstr (error->message, "expirf.yaml"));
  g_clear_error (&error);
  g_assert_false (edit_value (e, s, "GLP_01_A", 100, &error));
  g_assert_nonnull (strstr (error->message, "outside its bounds"));
  g_clear_error (&error);
  t = params_table (e, s, XRLAB_FIT_MODEL_MAIN, NAN);
  g_assert_cmpstr (row_named (t, "GLP_01_F")->expr, ==, "GLP_01_m + 1");
  g_assert_cmpfloat (row_named (t, "GLP_01_A")->value, ==, 12);
  g_assert_cmpfloat (row_named (t, "GLP_01_x0")->value, ==, 9);
  g_assert_true (row_named (t, "GLP_01_x0")->time_dependent);
  g_assert_cmpuint (stats_of (e, s).n_preview_plans, ==, s3.n_preview_plans);
}

/* ---- previews -------------------------------------------------------------------------- */

static void
test_previews (void)
{
  g_autoptr(XrlabEngine) e = xrlab_engine_new ();
  guint s = expirf_setup (e, open_synthetic (e, 61, 201, 0.02));
  XrlabFitPreviewSpec map = { .view = XRLAB_FIT_VIEW_MAP,
                              .series = XRLAB_FIT_SERIES_MODEL | XRLAB_FIT_SERIES_DATA
                                        | XRLAB_FIT_SERIES_RESIDUAL | XRLAB_FIT_SERIES_AXES };
  XrlabFitPreviewSpec spec = { .view = XRLAB_FIT_VIEW_SPECTRUM, .delay = 52,
                               .series = XRLAB_FIT_SERIES_MODEL | XRLAB_FIT_SERIES_COMPONENTS };
  XrlabFitPreviewSpec trace = { .view = XRLAB_FIT_VIEW_TRACE, .energy = 8.1,
                                .series = XRLAB_FIT_SERIES_MODEL, .window_only = TRUE };
  XrlabFitPreviewSpec base = { .model = XRLAB_FIT_MODEL_BASELINE, .view = XRLAB_FIT_VIEW_MAP,
                               .series = XRLAB_FIT_SERIES_DATA | XRLAB_FIT_SERIES_MODEL };
  g_autofree XrlabFitPreview *m = NULL, *sp = NULL, *tr = NULL, *b = NULL;
  g_autoptr(GError) error = NULL;
  gsize row;

  /* a spectrum alone (rows only) equals the row of the map, bit for bit */
  sp = preview (e, s, "spectrum", &spec, &error);
  g_assert_no_error (error);
  m = preview (e, s, "map", &map, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (m->n_rows, ==, 61);
  g_assert_cmpuint (m->n_cols, ==, 201);
  g_assert_cmpfloat (m->delay[0], ==, -20);
  row = sp->row0;
  g_assert_cmpfloat (fabs (m->delay[row] - 52), <=, 2.0);
  g_assert_cmpmem (sp->model, 201 * sizeof (double), m->model + row * 201, 201 * sizeof (double));
  for (gsize i = 0; i < 61 * 201; i++)
    g_assert_cmpfloat (m->residual[i], ==, m->data[i] - m->model[i]);

  /* the components add up to the model */
  g_assert_cmpuint (sp->n_components, ==, 2);
  g_assert_cmpstr (sp->component_names[0], ==, "LinBack");
  g_assert_cmpstr (sp->component_names[1], ==, "GLP_01");
  for (gsize i = 0; i < 201; i++)
    g_assert_cmpfloat (fabs (sp->components[i] + sp->components[201 + i] - sp->model[i]), <=,
                       1e-12 * fabs (sp->model[i]));

  /* a trace: one energy over the delays */
  tr = preview (e, s, "trace", &trace, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tr->n_cols, ==, 1);
  g_assert_cmpuint (tr->n_rows, ==, 61);
  for (gsize r = 0; r < 61; r++)
    g_assert_cmpfloat (tr->model[r], ==, m->model[r * 201 + tr->col0]);

  /* the baseline spectrum: the mean of the delays −20 … −1 */
  b = preview (e, s, "baseline", &base, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (b->n_rows, ==, 1);
  {
    double sum = 0;
    gsize k = 0;
    for (gsize r = 0; r < 61 && m->delay[r] <= -1; r++, k++)
      sum += m->data[r * 201 + 100];
    g_assert_cmpfloat (fabs (b->data[100] - sum / k), <=, 1e-12 * fabs (sum / k));
  }
}


/* Each time-dependent parameter against delay: the table's value at a
 * delay is the trace's at that row; an unknown setup is an error. */
static void
test_param_traces (void)
{
  g_autoptr(XrlabEngine) e = xrlab_engine_new ();
  guint s = expirf_setup (e, open_synthetic (e, 61, 201, 0.02));
  g_autofree XrlabFitParamTraces *t = NULL;
  g_autofree XrlabFitParamTable *table = params_table (e, s, XRLAB_FIT_MODEL_MAIN, 52);
  g_autoptr(GError) error = NULL;
  Reply r = { 0 };
  gsize row = 0, n_dynamic = 0;

  xrlab_engine_fit_param_traces_async (e, s, "traces", XRLAB_FIT_MODEL_MAIN, NULL, on_reply, &r);
  t = xrlab_engine_fit_param_traces_finish (e, wait_for (&r), &error);
  reply_clear (&r);
  g_assert_no_error (error);
  g_assert_nonnull (t);
  g_assert_cmpuint (t->n_delays, ==, 61);
  g_assert_cmpfloat (t->delay[0], ==, -20);
  for (gsize i = 0; i < table->n_params; i++)
    n_dynamic += table->params[i].time_dependent;
  g_assert_cmpuint (t->n_params, ==, n_dynamic);
  g_assert_cmpuint (t->n_params, >=, 1);
  for (gsize i = 1; i < t->n_delays; i++)
    if (fabs (t->delay[i] - table->delay) < fabs (t->delay[row] - table->delay))
      row = i;
  for (gsize k = 0; k < t->n_params; k++)
    {
      const XrlabFitParamRow *p = row_named (table, t->names[k]);
      double lo = INFINITY, hi = -INFINITY;

      g_assert_true (p->time_dependent);
      g_assert_cmpfloat_with_epsilon (t->values[k * t->n_delays + row], p->value_at_delay,
                                      1e-12 * MAX (fabs (p->value_at_delay), 1e-300));
      for (gsize i = 0; i < t->n_delays; i++)
        lo = MIN (lo, t->values[k * t->n_delays + i]), hi = MAX (hi, t->values[k * t->n_delays + i]);
      g_assert_cmpfloat (hi, >, lo);
    }

  xrlab_engine_fit_param_traces_async (e, 9999, "traces", XRLAB_FIT_MODEL_MAIN, NULL, on_reply, &r);
  g_assert_null (xrlab_engine_fit_param_traces_finish (e, wait_for (&r), &error));
  reply_clear (&r);
  g_assert_nonnull (error);
}

/* ---- setups ---------------------------------------------------------------------------- */

static void
test_setup_errors (void)
{
  g_autoptr(XrlabEngine) e = xrlab_engine_new ();
  guint ds = open_synthetic (e, 61, 201, 0.02);
  XrlabFitSetupSpec spec;
  XrlabFitDynamics dyn;
  g_autoptr(GError) error = NULL;
  g_autofree XrlabFitParamTable *t = NULL;
  Reply r = { 0 };
  guint s;

  /* a model that is not in the file: named with the file */
  expirf_spec (&spec, ds, &dyn);
  spec.model = "nope";
  s = xrlab_engine_fit_setup_new_async (e, &spec, NULL, on_reply, &r);
  g_assert_false (setup_done (e, &r, &error));
  g_assert_nonnull (strstr (error->message, "expirf.yaml"));
  g_assert_nonnull (strstr (error->message, "nope"));
  g_clear_error (&error);
  /* no valid state: previews say so */
  {
    XrlabFitPreviewSpec v = { .view = XRLAB_FIT_VIEW_MAP, .series = XRLAB_FIT_SERIES_MODEL };
    g_assert_null (preview (e, s, "map", &v, &error));
    g_assert_error (error, XRLAB_ENGINE_FIT_ERROR, XRLAB_ENGINE_FIT_ERROR_NOT_READY);
    g_clear_error (&error);
  }
  /* fixed: the setup becomes valid */
  spec.model = "base";
  xrlab_engine_fit_setup_update_async (e, s, &spec, XRLAB_FIT_SETUP_MODEL, NULL, on_reply, &r);
  g_assert_true (setup_done (e, &r, &error));
  g_assert_no_error (error);

  /* a window without energies: refused, the last valid window kept */
  spec.e0 = 95, spec.e1 = 99;
  xrlab_engine_fit_setup_update_async (e, s, &spec, XRLAB_FIT_SETUP_WINDOW, NULL, on_reply, &r);
  g_assert_false (setup_done (e, &r, &error));
  g_assert_error (error, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_WINDOW);
  g_assert_nonnull (strstr (error->message, "holds no energy"));
  g_clear_error (&error);

  /* a value edit survives a new window */
  g_assert_true (edit_value (e, s, "GLP_01_A", 7, &error));
  spec.e0 = 2, spec.e1 = 18;
  xrlab_engine_fit_setup_update_async (e, s, &spec, XRLAB_FIT_SETUP_WINDOW, NULL, on_reply, &r);
  g_assert_true (setup_done (e, &r, &error));
  t = params_table (e, s, XRLAB_FIT_MODEL_MAIN, 100);
  g_assert_cmpfloat (row_named (t, "GLP_01_A")->value, ==, 7);
  g_assert_cmpfloat (fabs (t->delay - 100), <=, 2.0);
  g_assert_cmpfloat (row_named (t, "GLP_01_x0")->value_at_delay, !=,
                     row_named (t, "GLP_01_x0")->value);
  g_assert_null (t->not_ready);

  /* σ of no shape of the data */
  spec.sigma.from = XRLAB_FIT_SIGMA_FROM_ARRAY;
  spec.sigma.kind = XRLAB_FIT_SIGMA_SCALAR;
  spec.sigma.values = (const double[]) { -1 };
  spec.sigma.n_values = 1;
  xrlab_engine_fit_setup_update_async (e, s, &spec, XRLAB_FIT_SETUP_SIGMA, NULL, on_reply, &r);
  g_assert_false (setup_done (e, &r, &error));
  g_assert_nonnull (strstr (error->message, "σ = -1 is not a positive finite number"));
  g_clear_error (&error);

  /* a dataset that is not open */
  spec.dataset = 9999;
  xrlab_engine_fit_setup_update_async (e, s, &spec, XRLAB_FIT_SETUP_DATASET, NULL, on_reply,
                                       &r);
  g_assert_false (setup_done (e, &r, &error));
  g_assert_error (error, XRLAB_ENGINE_FIT_ERROR, XRLAB_ENGINE_FIT_ERROR_NO_DATASET);
}

/* ---- jobs ---------------------------------------------------------------------------------- */

typedef struct {
  XrlabEngine *engine;
  GCancellable *cancel;
  guint n_progress;
  double first_progress, cancelled_at;
  XrlabFitJobProgress last;
  /* the optics edit sent during the fit */
  gboolean send_optics, optics_done, shutdown;
  double optics_when;
  guint setup;
  gboolean live_seen;
} Watch;

static void
optics_done (GObject *source, GAsyncResult *result, gpointer data)
{
  Watch *w = data;
  g_autoptr(GError) error = NULL;

  g_assert_true (xrlab_engine_set_grid_finish (XRLAB_ENGINE (source), result, &error));
  w->optics_done = TRUE;
  w->optics_when = xrlab_now ();
  /* a preview of the running fit shows its parameters */
  {
    XrlabFitPreviewSpec v = { .view = XRLAB_FIT_VIEW_SPECTRUM, .series = XRLAB_FIT_SERIES_MODEL,
                              .delay = 50 };
    g_autofree XrlabFitPreview *p = preview (w->engine, w->setup, "live", &v, &error);
    g_assert_no_error (error);
    w->live_seen = p->live;
  }
  w->cancelled_at = xrlab_now ();
  g_cancellable_cancel (w->cancel);
}

static void
on_progress (const XrlabFitJobProgress *p, gpointer data)
{
  Watch *w = data;

  w->last = *p;
  if (w->n_progress++ > 0)
    return;
  w->first_progress = xrlab_now ();
  if (w->shutdown)
    {
      xrlab_engine_shutdown (w->engine);
      w->cancelled_at = xrlab_now ();
    }
  else if (w->send_optics)
    {
      g_autoptr(XrlabEnergyGrid) grid = xrlab_energy_grid_new_range (1.0, 10.0, 500, XRLAB_GRID_LINEAR,
                                                                         XRLAB_ENERGY_UNIT_KEV, NULL);
      xrlab_engine_set_grid_async (w->engine, grid, NULL, optics_done, w);
    }
  else
    {
      w->cancelled_at = xrlab_now ();
      g_cancellable_cancel (w->cancel);
    }
}

/* A big 2D fit (far from its start) that is stopped on its first progress. */
static void
run_stopped_fit (gboolean send_optics, gboolean shutdown)
{
  g_autoptr(XrlabEngine) e = xrlab_engine_new ();
  guint s = expirf_setup (e, open_synthetic (e, 400, 1000, 0.05));
  g_autoptr(GCancellable) cancel = g_cancellable_new ();
  Watch w = { .engine = e, .cancel = cancel, .send_optics = send_optics, .shutdown = shutdown,
              .setup = s };
  XrlabFitJobSpec job = { .kind = XRLAB_FIT_JOB_2D };
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabFitResults) res = NULL;
  Reply r = { 0 };

  g_assert_true (edit_value (e, s, "GLP_01_x0_expFun_01_tau", 90, &error));
  xrlab_engine_fit_run_async (e, s, &job, on_progress, &w, NULL, cancel, on_reply, &r);
  g_assert_false (xrlab_engine_fit_run_finish (e, wait_for (&r), &error));
  g_assert_cmpuint (w.n_progress, >=, 1);
  if (shutdown)
    {
      g_assert_error (error, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_SHUT_DOWN);
      g_test_message ("shutdown returned %.1f ms after the first progress",
                      (w.cancelled_at - w.first_progress) * 1e3);
      reply_clear (&r);
      return;
    }
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);
  g_test_message ("cancelled: the reply came %.1f ms after the cancel",
                  (r.when - w.cancelled_at) * 1e3);
  if (send_optics)
    {
      /* the optics edit was answered while the fit still ran */
      g_assert_true (w.optics_done);
      g_assert_cmpfloat (w.optics_when, <=, r.when);
      g_assert_true (w.live_seen);
    }
  reply_clear (&r);
  /* the best parameters so far are kept */
  xrlab_engine_fit_results_async (e, s, "results", NULL, on_reply, &r);
  res = xrlab_engine_fit_results_finish (e, wait_for (&r), &error);
  g_assert_no_error (error);
  reply_clear (&r);
  g_assert_nonnull (res->main);
  g_assert_false (res->main_complete);
  g_assert_cmpint (res->main->fit->stop, ==, XRLAB_FIT_STOP_CANCELLED);
  g_assert_cmpfloat (res->main->fit->chi2, <=, res->main->fit->chi2_start);
  {
    g_autofree XrlabFitParamTable *t = params_table (e, s, XRLAB_FIT_MODEL_MAIN, NAN);
    gssize k = xrlab_fitflow_result_find (res->main, "GLP_01_x0_expFun_01_tau");
    g_assert_cmpint (k, >=, 0);
    g_assert_cmpfloat (row_named (t, "GLP_01_x0_expFun_01_tau")->value, ==,
                       res->main->params[k].value);
    g_assert_false (t->live);
  }
}

static void
test_cancel (void)
{
  run_stopped_fit (FALSE, FALSE);
}

static void
test_optics_during_fit (void)
{
  run_stopped_fit (TRUE, FALSE);
}

static void
test_shutdown (void)
{
  run_stopped_fit (FALSE, TRUE);
}

/* A whole workflow with progress: baseline, slice by slice, 2D, CIs. */
static void
test_workflow (void)
{
  g_autoptr(XrlabEngine) e = xrlab_engine_new ();
  guint s = expirf_setup (e, open_synthetic (e, 61, 201, 0.02));
  XrlabFitJobKind kinds[] = { XRLAB_FIT_JOB_BASELINE, XRLAB_FIT_JOB_SBS, XRLAB_FIT_JOB_2D,
                              XRLAB_FIT_JOB_CI };
  const char *ci[] = { "GLP_01_x0_expFun_01_tau" };
  g_autoptr(XrlabFitResults) res = NULL;
  g_autoptr(GError) error = NULL;
  Reply r = { 0 };

  xrlab_engine_fit_check_async (e, s, XRLAB_FIT_STAGES_BASELINE | XRLAB_FIT_STAGES_SBS
                                      | XRLAB_FIT_STAGES_MAIN, NULL, on_reply, &r);
  g_assert_true (xrlab_engine_fit_check_finish (e, wait_for (&r), &error));
  reply_clear (&r);
  for (gsize k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      XrlabFitJobSpec job = { .kind = kinds[k], .ci_names = ci, .n_ci_names = 1 };
      Watch w = { .engine = e };

      xrlab_engine_fit_run_async (e, s, &job, kinds[k] == XRLAB_FIT_JOB_CI ? NULL : on_progress,
                                  &w, NULL, NULL, on_reply, &r);
      g_assert_true (xrlab_engine_fit_run_finish (e, wait_for (&r), &error));
      g_assert_no_error (error);
      reply_clear (&r);
      /* progress is coalesced, and none follows the reply: a fit this
       * small may end before any reaches the caller */
      if (kinds[k] == XRLAB_FIT_JOB_SBS && w.n_progress > 0)
        {
          g_assert_cmpuint (w.last.n_slices, ==, 61);
          g_assert_cmpuint (w.last.slices_done, <=, 61);
          g_assert_true (isnan (w.last.chi2));
        }
    }
  xrlab_engine_fit_results_async (e, s, "results", NULL, on_reply, &r);
  res = xrlab_engine_fit_results_finish (e, wait_for (&r), &error);
  reply_clear (&r);
  g_assert_true (res->baseline_complete && res->sbs_complete && res->main_complete);
  g_assert_true (res->main->fit->converged);
  g_assert_nonnull (res->ci);
  g_assert_cmpstr (res->ci_names[0], ==, ci[0]);
  /* the fitted values are the setup's now, with their errors */
  {
    g_autofree XrlabFitParamTable *t = params_table (e, s, XRLAB_FIT_MODEL_MAIN, NAN);
    const XrlabFitParamRow *tau = row_named (t, "GLP_01_x0_expFun_01_tau");
    g_assert_true (tau->fitted);
    g_assert_cmpfloat (fabs (tau->value - 40), <, 5 * tau->error);
    g_assert_cmpfloat (tau->error, >, 0);
  }
  g_assert_cmpuint (stats_of (e, s).n_jobs, ==, 4);
}

/* ---- sources ------------------------------------------------------------------------- */

static XrlabDatasetInfo *
open_source (XrlabEngine *e, const XrlabDatasetSource *src, GError **error)
{
  Reply r = { 0 };
  XrlabDatasetInfo *info;

  xrlab_engine_dataset_open_async (e, src, NULL, on_reply, &r);
  info = xrlab_engine_dataset_open_finish (e, wait_for (&r), error);
  reply_clear (&r);
  return info;
}

static void
test_sources (void)
{
  g_autoptr(XrlabEngine) e = xrlab_engine_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("xrlab-engine-fit-XXXXXX", &error);
  g_autofree char *sub = g_build_filename (dir, "data", NULL);
  g_autofree char *dp = g_build_filename (sub, "data.csv", NULL);
  g_autofree char *ep = g_build_filename (sub, "energy.csv", NULL);
  g_autofree char *tp = g_build_filename (sub, "time.csv", NULL);
  g_autofree char *h5 = g_build_filename (dir, "scan.h5", NULL);
  double m[15], energy[5] = { 5, 4, 3, 2, 1 }, time[3] = { -1, 0, 2 };
  gsize dims[2] = { 3, 5 }, edims[2] = { 5, 1 }, tdims[2] = { 3, 1 };
  const char *axes[] = { "time", "energy" };
  XrlabDatasetFiles files;
  XrlabDatasetSource src;
  XrlabH5Writer *w;

  for (int i = 0; i < 15; i++)
    m[i] = i * 0.5;
  g_assert_cmpint (g_mkdir (sub, 0755), ==, 0);
  g_assert_true (xrlab_write_csv_matrix (dp, m, 3, 5, NULL));
  g_assert_true (g_file_set_contents (ep, "5\n4\n3\n2\n1\n", -1, NULL));
  g_assert_true (g_file_set_contents (tp, "-1\n0\n2\n", -1, NULL));

  /* trspecfit's folder layout, a descending energy axis */
  g_assert_true (xrlab_dataset_files_find (dir, &files, &src, &error));
  {
    g_autofree XrlabDatasetInfo *info = open_source (e, &src, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (info->n_rows, ==, 3);
    g_assert_cmpfloat (info->energy_first, ==, 5);
    g_assert_cmpfloat (info->energy_last, ==, 1);
    g_assert_cmpfloat (info->time_last, ==, 2);
    g_assert_cmpfloat (info->data_max, ==, 7);
  }
  xrlab_dataset_files_clear (&files);

  /* text in a cell: the file, the line and the column */
  g_assert_true (g_file_set_contents (dp, "0,1,2,3,4\n5,6,x7,8,9\n1,1,1,1,1\n", -1, NULL));
  src = (XrlabDatasetSource) { .kind = XRLAB_DATASET_FILES, .data = dp, .energy = ep,
                               .time = tp };
  g_assert_null (open_source (e, &src, &error));
  g_assert_nonnull (strstr (error->message, "data.csv:2: column 3"));
  g_clear_error (&error);
  /* a shape that does not fit the axes */
  g_assert_true (g_file_set_contents (dp, "0,1,2,3\n5,6,7,8\n1,1,1,1\n", -1, NULL));
  g_assert_null (open_source (e, &src, &error));
  g_assert_nonnull (strstr (error->message, "data.csv has 4 columns but energy.csv has 5 energies"));
  g_clear_error (&error);

  /* HDF5 datasets, and the NXdata group of the same file */
  w = xrlab_h5_writer_new (h5, &error);
  g_assert_true (xrlab_h5_writer_add_group (w, "/entry/data", "NXdata", &error));
  g_assert_true (xrlab_h5_writer_set_string (w, "/entry/data", "signal", "counts", &error));
  g_assert_true (xrlab_h5_writer_set_strings (w, "/entry/data", "axes", axes, 2, &error));
  g_assert_true (xrlab_h5_writer_add_dataset (w, "/entry/data/counts", m, 2, dims, NULL, &error));
  g_assert_true (xrlab_h5_writer_add_dataset (w, "/entry/data/time", time, 1, tdims, "ps", &error));
  g_assert_true (xrlab_h5_writer_add_dataset (w, "/entry/data/energy", energy, 1, edims, "eV",
                                              &error));
  g_assert_true (xrlab_h5_writer_commit (w, &error));
  {
    g_autofree char *d = g_strconcat (h5, ":/entry/data/counts", NULL);
    g_autofree char *en = g_strconcat (h5, ":/entry/data/energy", NULL);
    g_autofree char *t = g_strconcat (h5, ":/entry/data/time", NULL);
    g_autofree XrlabDatasetInfo *a = NULL, *b = NULL;

    src = (XrlabDatasetSource) { .kind = XRLAB_DATASET_FILES, .data = d, .energy = en,
                                 .time = t };
    a = open_source (e, &src, &error);
    g_assert_no_error (error);
    src = (XrlabDatasetSource) { .kind = XRLAB_DATASET_NEXUS, .data = h5 };
    b = open_source (e, &src, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (a->n_rows, ==, 3);
    g_assert_cmpuint (b->n_rows, ==, 3);
    g_assert_cmpuint (b->n_energies, ==, 5);
    g_assert_cmpfloat (b->time_first, ==, -1);
    g_assert_cmpfloat (a->data_max, ==, b->data_max);

    /* closed: a setup finds it no more */
    xrlab_engine_dataset_close (e, b->id);
    {
      XrlabFitSetupSpec spec;
      XrlabFitDynamics dyn;
      Reply r = { 0 };

      expirf_spec (&spec, b->id, &dyn);
      spec.n_dynamics = 0;
      xrlab_engine_fit_setup_new_async (e, &spec, NULL, on_reply, &r);
      g_assert_false (setup_done (e, &r, &error));
      g_assert_error (error, XRLAB_ENGINE_FIT_ERROR, XRLAB_ENGINE_FIT_ERROR_NO_DATASET);
      g_clear_error (&error);
    }
  }
  g_unlink (dp), g_unlink (ep), g_unlink (tp), g_unlink (h5);
  g_rmdir (sub), g_rmdir (dir);
}

/* ---- the Au 4f workflow, through the service and directly ------------------------- */

static const char *
au4f_dir (void)
{
  static char *dir;
  const char *shared = g_getenv ("XRLAB_SHARED_DATA");

  if (dir == NULL)
    dir = g_build_filename (shared ? shared : "", "trspecfit-au4f", NULL);
  return dir;
}

/* Two results of the same stage agree to the last bit. */
static void
assert_same_result (const XrlabFitflowResult *a, const XrlabFitflowResult *b)
{
  g_assert_cmpuint (a->n_params, ==, b->n_params);
  g_assert_cmpuint (a->n_theta, ==, b->n_theta);
  for (gsize i = 0; i < a->n_params; i++)
    {
      g_assert_cmpstr (a->params[i].name, ==, b->params[i].name);
      g_assert_cmpmem (&a->params[i].value, sizeof (double), &b->params[i].value,
                       sizeof (double));
      g_assert_cmpmem (&a->params[i].std_error, sizeof (double), &b->params[i].std_error,
                       sizeof (double));
    }
  g_assert_cmpmem (a->fit->correl, a->n_theta * a->n_theta * sizeof (double), b->fit->correl,
                   b->n_theta * b->n_theta * sizeof (double));
  g_assert_cmpmem (&a->fit->chi2, sizeof (double), &b->fit->chi2, sizeof (double));
  g_assert_cmpuint (a->fit->niter, ==, b->fit->niter);
  g_assert_cmpuint (a->fit->nfev, ==, b->fit->nfev);
}

static void
au4f_direct (const char *dir, XrlabFitflowResult **b, XrlabFitflowResult **g)
{
  g_autofree char *dp = g_build_filename (dir, "data.csv", NULL);
  g_autofree char *ep = g_build_filename (dir, "energy.csv", NULL);
  g_autofree char *tp = g_build_filename (dir, "time.csv", NULL);
  g_autofree double *data = NULL, *e = NULL, *t = NULL;
  g_autoptr(XrlabModel) base = xrlab_model_load (MODELS "/au4f.yaml", "base", NULL);
  g_autoptr(XrlabModel) m2d = xrlab_model_load (MODELS "/au4f.yaml", "2D", NULL);
  const char *sine[] = { "SineWave" };
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabFitflow) flow = NULL;
  XrlabFitflowOptions o;
  gsize rows, cols, ne, nt;

  g_assert_true (xrlab_model_add_dynamics (m2d, "GLP_01_x0", MODELS "/au4f-time.yaml", sine, 1,
                                           0, NULL));
  data = xrlab_read_csv_matrix (dp, TRUE, &rows, &cols, &error);
  e = xrlab_read_column_file (ep, &ne, &error);
  t = xrlab_read_column_file (tp, &nt, &error);
  g_assert_no_error (error);
  {
    XrlabFitflowData fd = { .data = data, .n_rows = rows, .n_cols = cols, .energy = e,
                            .n_energy = ne, .time = t, .n_time = nt,
                            .data_name = "data.csv", .energy_name = "energy.csv",
                            .time_name = "time.csv" };
    flow = xrlab_fitflow_new (&fd, &error);
  }
  xrlab_fitflow_options_init (&o);
  o.pin_to_baseline = TRUE;
  xrlab_fitflow_set_options (flow, &o);
  g_assert_true (xrlab_fitflow_set_window (flow, 81, 91, -0.3, 16.5, &error));
  g_assert_true (xrlab_fitflow_fit_baseline (flow, base, -0.4, -0.05, NULL, b, &error));
  g_assert_true (xrlab_fitflow_fit_2d (flow, m2d, NULL, g, &error));
  g_assert_no_error (error);
}

static void
test_au4f (void)
{
  g_autoptr(XrlabEngine) e = NULL;
  g_autofree char *probe = xrlab_test_shared_path ("trspecfit-au4f/data.csv",
                                                   "the Au 4f measurement");
  g_autoptr(XrlabFitflowResult) b = NULL, g = NULL;
  g_autoptr(XrlabFitResults) res = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree XrlabDatasetInfo *info = NULL;
  XrlabDatasetFiles files;
  XrlabDatasetSource src;
  XrlabFitSetupSpec spec;
  const char *sine[] = { "SineWave" };
  XrlabFitDynamics dyn = { "GLP_01_x0", MODELS "/au4f-time.yaml", sine, 1, 0 };
  XrlabFitJobKind kinds[] = { XRLAB_FIT_JOB_BASELINE, XRLAB_FIT_JOB_2D };
  Reply r = { 0 };
  guint s;

  if (probe == NULL)
    return;
  au4f_direct (au4f_dir (), &b, &g);

  e = xrlab_engine_new ();
  g_assert_true (xrlab_dataset_files_find (au4f_dir (), &files, &src, &error));
  xrlab_engine_dataset_open_async (e, &src, NULL, on_reply, &r);
  info = xrlab_engine_dataset_open_finish (e, wait_for (&r), &error);
  g_assert_no_error (error);
  reply_clear (&r);
  xrlab_dataset_files_clear (&files);
  g_assert_cmpuint (info->n_rows, ==, 212);
  g_assert_cmpuint (info->n_energies, ==, 1131);
  g_assert_cmpfloat (info->energy_first, >, info->energy_last);

  xrlab_fit_setup_spec_init (&spec);
  spec.dataset = info->id;
  spec.models = MODELS "/au4f.yaml";
  spec.model = "2D";
  spec.dynamics = &dyn, spec.n_dynamics = 1;
  spec.baseline_model = "base";
  spec.b0 = -0.4, spec.b1 = -0.05;
  spec.e0 = 81, spec.e1 = 91, spec.t0 = -0.3, spec.t1 = 16.5;
  spec.pin_to_baseline = TRUE;
  s = xrlab_engine_fit_setup_new_async (e, &spec, NULL, on_reply, &r);
  g_assert_true (setup_done (e, &r, &error));
  for (gsize k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      XrlabFitJobSpec job = { .kind = kinds[k] };
      xrlab_engine_fit_run_async (e, s, &job, NULL, NULL, NULL, NULL, on_reply, &r);
      g_assert_true (xrlab_engine_fit_run_finish (e, wait_for (&r), &error));
      g_assert_no_error (error);
      reply_clear (&r);
    }
  xrlab_engine_fit_results_async (e, s, "results", NULL, on_reply, &r);
  res = xrlab_engine_fit_results_finish (e, wait_for (&r), &error);
  reply_clear (&r);
  /* the same calls on the same inputs: the same numbers, bit for bit */
  assert_same_result (res->baseline, b);
  assert_same_result (res->main, g);
  g_test_message ("Au 4f 2D: reduced χ² %.17g in both", g->fit->redchi);
}


int
main (int argc, char **argv)
{
  xrlab_init ();
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/engine-fit/transfers", test_transfers);
  g_test_add_func ("/engine-fit/burst", test_burst);
  g_test_add_func ("/engine-fit/rebuilds", test_rebuilds);
  g_test_add_func ("/engine-fit/previews", test_previews);
  g_test_add_func ("/engine-fit/param-traces", test_param_traces);
  g_test_add_func ("/engine-fit/setup-errors", test_setup_errors);
  g_test_add_func ("/engine-fit/sources", test_sources);
  g_test_add_func ("/engine-fit/workflow", test_workflow);
  g_test_add_func ("/engine-fit/cancel", test_cancel);
  g_test_add_func ("/engine-fit/optics-during-fit", test_optics_during_fit);
  g_test_add_func ("/engine-fit/shutdown", test_shutdown);
  g_test_add_func ("/engine-fit/au4f", test_au4f);
  return g_test_run ();
}
