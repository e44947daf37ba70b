/* test-engine-fit-model.c -- the model of a fit setup built on the engine
 * thread: structure edits with generations, rebuilds once per burst,
 * refused edits keeping the last valid model, the tree, saving and loading
 * the saved file back into a setup
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "xrlab-engine-fit-model.h"
#include "xrlab-init.h"
#include "xrlab-simulate.h"
#include "xrlab-util.h"

#define MODELS XRLAB_TEST_SRCDIR "/../data/models"

static char *tmpdir;

/* A reply waited for (xrlab-engine-fit.h). */
typedef XrlabEngineReply Reply;

static XrlabFitSetupStats
stats_of (XrlabEngine *e, guint setup)
{
  XrlabFitSetupStats st = { 0 };
  Reply r = { 0 };
  g_autoptr(GError) error = NULL;

  xrlab_engine_fit_stats_async (e, setup, NULL, xrlab_engine_reply_cb, &r);
  g_assert_true (xrlab_engine_fit_stats_finish (e, xrlab_engine_reply_wait (&r), &st, &error));
  g_assert_no_error (error);
  g_clear_object (&r.result);
  return st;
}

static XrlabFitParamTable *
params_table (XrlabEngine *e, guint setup, XrlabFitModelRole role)
{
  Reply r = { 0 };
  g_autoptr(GError) error = NULL;
  XrlabFitParamTable *t;

  xrlab_engine_fit_params_async (e, setup, "table", role, NAN, NULL, xrlab_engine_reply_cb, &r);
  t = xrlab_engine_fit_params_finish (e, xrlab_engine_reply_wait (&r), &error);
  g_assert_no_error (error);
  g_clear_object (&r.result);
  return t;
}

static const XrlabFitParamRow *
row_named (const XrlabFitParamTable *t, const char *name)
{
  for (gsize i = 0; i < t->n_params; i++)
    if (g_str_equal (t->params[i].name, name))
      return &t->params[i];
  return NULL;
}

static XrlabFitPreview *
model_map (XrlabEngine *e, guint setup)
{
  XrlabFitPreviewSpec view = { .view = XRLAB_FIT_VIEW_MAP, .series = XRLAB_FIT_SERIES_MODEL };
  g_autoptr(GError) error = NULL;
  Reply r = { 0 };
  XrlabFitPreview *p;

  xrlab_engine_fit_preview_async (e, setup, "map", &view, NULL, xrlab_engine_reply_cb, &r);
  p = xrlab_engine_fit_preview_finish (e, xrlab_engine_reply_wait (&r), &error);
  g_assert_no_error (error);
  g_clear_object (&r.result);
  return p;
}

static XrlabModelEditResult *
edit_model (XrlabEngine *e, guint setup, XrlabFitModelRole role, const XrlabModelEdit *edits,
            gsize n, GError **error)
{
  Reply r = { 0 };
  XrlabModelEditResult *res;

  xrlab_engine_fit_edit_model_async (e, setup, role, edits, n, NULL, xrlab_engine_reply_cb, &r);
  res = xrlab_engine_fit_edit_model_finish (e, xrlab_engine_reply_wait (&r), error);
  g_clear_object (&r.result);
  return res;
}

static XrlabModelDesc *
describe (XrlabEngine *e, guint setup, XrlabFitModelRole role)
{
  Reply r = { 0 };
  g_autoptr(GError) error = NULL;
  XrlabModelDesc *d;

  xrlab_engine_fit_describe_async (e, setup, "tree", role, NULL, xrlab_engine_reply_cb, &r);
  d = xrlab_engine_fit_describe_finish (e, xrlab_engine_reply_wait (&r), &error);
  g_assert_no_error (error);
  g_clear_object (&r.result);
  return d;
}

/* ---- a measurement and a setup --------------------------------------------------------- */

static const char *const expirf_models[] = { "MonoExpIRF" };

static guint
open_synthetic (XrlabEngine *e)
{
  g_autoptr(XrlabModel) m = xrlab_model_load (MODELS "/expirf.yaml", "base", NULL);
  const gsize n_e = 81, n_t = 31;
  g_autofree double *energy = g_new (double, n_e), *time = g_new (double, n_t), *y = NULL;
  XrlabDatasetSource src = { .kind = XRLAB_DATASET_ARRAYS, .name = "synthetic.csv" };
  g_autoptr(GError) error = NULL;
  g_autofree XrlabDatasetInfo *info = NULL;
  Reply r = { 0 };
  double scale;

  g_assert_true (xrlab_model_add_dynamics (m, "GLP_01_x0", MODELS "/time.yaml", expirf_models,
                                           1, 0, NULL));
  for (gsize i = 0; i < n_e; i++)
    energy[i] = 20.0 * i / (n_e - 1);
  for (gsize i = 0; i < n_t; i++)
    time[i] = -20.0 + 240.0 * i / (n_t - 1);
  y = xrlab_simulate (m, energy, n_e, time, n_t, NULL, 0, XRLAB_NOISE_GAUSSIAN, 0.02, 3,
                      &scale, &error);
  g_assert_no_error (error);
  src.data_values = y, src.n_rows = n_t, src.n_cols = n_e;
  src.energy_values = energy, src.n_energy = n_e;
  src.time_values = time, src.n_time = n_t;
  xrlab_engine_dataset_open_async (e, &src, NULL, xrlab_engine_reply_cb, &r);
  info = xrlab_engine_dataset_open_finish (e, xrlab_engine_reply_wait (&r), &error);
  g_assert_no_error (error);
  g_clear_object (&r.result);
  return info->id;
}

static guint
setup_new (XrlabEngine *e, const XrlabFitSetupSpec *spec)
{
  g_autoptr(GError) error = NULL;
  Reply r = { 0 };
  guint id = xrlab_engine_fit_setup_new_async (e, spec, NULL, xrlab_engine_reply_cb, &r);

  g_assert_true (xrlab_engine_fit_setup_finish (e, xrlab_engine_reply_wait (&r), &error));
  g_assert_no_error (error);
  g_clear_object (&r.result);
  return id;
}

static guint
expirf_setup (XrlabEngine *e, guint dataset)
{
  XrlabFitSetupSpec spec;
  XrlabFitDynamics dyn = { "GLP_01_x0", MODELS "/time.yaml", expirf_models, 1, 0 };

  xrlab_fit_setup_spec_init (&spec);
  spec.dataset = dataset;
  spec.models = MODELS "/expirf.yaml";
  spec.model = "base";
  spec.dynamics = &dyn;
  spec.n_dynamics = 1;
  spec.baseline_model = "base";
  spec.b0 = -20, spec.b1 = -1;
  return setup_new (e, &spec);
}

/* ---- tests -------------------------------------------------------------------------------- */

static void
test_tree (void)
{
  g_autoptr(XrlabEngine) e = xrlab_engine_new ();
  guint s = expirf_setup (e, open_synthetic (e));
  g_autoptr(XrlabModelDesc) d = describe (e, s, XRLAB_FIT_MODEL_MAIN);
  g_autoptr(XrlabModelDesc) b = describe (e, s, XRLAB_FIT_MODEL_BASELINE);
  const XrlabModelDescAttachment *dyn;
  XrlabEngineStats st;

  g_assert_cmpstr (d->name, ==, "base");
  g_assert_cmpuint (d->n_components, ==, 2);
  g_assert_cmpstr (d->components[0].name, ==, "LinBack");
  g_assert_cmpint (d->components[0].kind, ==, XRLAB_MODEL_FN_BACKGROUND);
  g_assert_cmpstr (d->components[1].name, ==, "GLP_01");
  g_assert_cmpuint (d->components[1].n_params, ==, 4);
  g_assert_cmpstr (d->components[1].params[1].full_name, ==, "GLP_01_x0");
  g_assert_cmpfloat (d->components[1].params[1].value, ==, 8);
  dyn = d->components[1].params[1].dynamics;
  g_assert_nonnull (dyn);
  g_assert_cmpstr (dyn->host, ==, "GLP_01_x0");
  g_assert_cmpstr (dyn->models[0], ==, "MonoExpIRF");
  g_assert_cmpuint (dyn->n_components, ==, 2);
  g_assert_cmpstr (dyn->components[1].full_name, ==, "GLP_01_x0_expFun_01");
  g_assert_cmpstr (dyn->components[1].params[1].full_name, ==, "GLP_01_x0_expFun_01_tau");
  g_assert_cmpuint (d->n_params, ==, 12);
  g_assert_null (b->components[1].params[1].dynamics);
  g_assert_true (xrlab_engine_get_stats (e, "tree", &st));
  g_assert_cmpuint (st.n_transfers, ==, 2);
}

typedef struct {
  guint n;
  guint64 last_generation;
  XrlabEngine *engine;
} Burst;

static void
burst_done (GObject *source, GAsyncResult *result, gpointer data)
{
  Burst *b = data;
  g_autoptr(GError) error = NULL;
  g_autofree XrlabModelEditResult *r = xrlab_engine_fit_edit_model_finish (XRLAB_ENGINE (source),
                                                                          result, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (r->n_added, ==, 1);
  g_assert_cmpuint (r->generation, >, b->last_generation);
  b->last_generation = r->generation;
  b->n++;
}

/* A burst of structure edits compiles the preview once; a value edit after
 * it compiles nothing. */
static void
test_burst (void)
{
  g_autoptr(XrlabEngine) e = xrlab_engine_new ();
  guint s = expirf_setup (e, open_synthetic (e));
  g_autofree XrlabFitPreview *before = model_map (e, s), *after = NULL, *moved = NULL;
  XrlabFitSetupStats st0, st1, st2;
  const XrlabModelParamRow rows[] = { { "x0", 14, TRUE, FALSE, 12, 16, NULL } };
  XrlabModelEdit add = { .kind = XRLAB_MODEL_EDIT_ADD, .function = "Gauss", .rows = rows,
                         .n_rows = 1, .position = -1 };
  g_autofree XrlabFitParamTable *t = NULL;
  XrlabFitParamEdit value = { .name = "Gauss_03_A", .fields = XRLAB_FIT_PARAM_VALUE,
                              .value = 3 };
  g_autoptr(GError) error = NULL;
  Burst b = { 0 };
  Reply r = { 0 };
  double diff = 0;

  XrlabModelEdit three[3] = { add, add, add };

  /* three requests in a burst (answered in order, each with a newer
   * generation), then one request of three edits */
  for (int i = 0; i < 3; i++)
    xrlab_engine_fit_edit_model_async (e, s, XRLAB_FIT_MODEL_MAIN, &add, 1, NULL, burst_done,
                                       &b);
  while (b.n < 3)
    g_main_context_iteration (NULL, TRUE);
  st0 = stats_of (e, s);
  {
    g_autofree XrlabModelEditResult *res = edit_model (e, s, XRLAB_FIT_MODEL_MAIN, three, 3,
                                                       &error);
    g_assert_no_error (error);
    g_assert_cmpuint (res->n_added, ==, 3);
    g_assert_cmpstr (res->added[2], ==, "Gauss_06");
  }
  /* a parameter edit names what the edits made */
  xrlab_engine_fit_edit_params_async (e, s, &value, 1, NULL, xrlab_engine_reply_cb, &r);
  g_assert_true (xrlab_engine_fit_edit_params_finish (e, xrlab_engine_reply_wait (&r), &error));
  g_assert_no_error (error);
  g_clear_object (&r.result);
  st1 = stats_of (e, s);
  /* one request of structure edits: one new preview plan, one rebuild */
  g_assert_cmpuint (st1.n_preview_plans - st0.n_preview_plans, ==, 1);
  g_assert_cmpuint (st1.n_rebuilds - st0.n_rebuilds, ==, 1);
  t = params_table (e, s, XRLAB_FIT_MODEL_MAIN);
  g_assert_nonnull (row_named (t, "Gauss_03_x0"));
  g_assert_cmpfloat (row_named (t, "Gauss_02_x0")->value, ==, 14);
  g_assert_cmpfloat (row_named (t, "Gauss_03_A")->value, ==, 3);
  g_assert_cmpuint (t->generation, ==, xrlab_engine_fit_get_generation (e));
  after = model_map (e, s);
  for (gsize i = 0; i < before->n_rows * before->n_cols; i++)
    diff = fmax (diff, fabs (after->model[i] - before->model[i]));
  g_assert_cmpfloat (diff, >, 1);

  /* a value edit re-evaluates only */
  value.value = 4;
  xrlab_engine_fit_edit_params_async (e, s, &value, 1, NULL, xrlab_engine_reply_cb, &r);
  g_assert_true (xrlab_engine_fit_edit_params_finish (e, xrlab_engine_reply_wait (&r), &error));
  g_clear_object (&r.result);
  moved = model_map (e, s);
  st2 = stats_of (e, s);
  g_assert_cmpuint (st2.n_preview_plans, ==, st1.n_preview_plans);
  g_assert_cmpuint (st2.n_rebuilds, ==, st1.n_rebuilds);
  g_assert_cmpuint (st2.n_value_edits, ==, st1.n_value_edits + 1);

  /* a new window keeps the edited model; a new model file does not */
  {
    XrlabFitSetupSpec spec;
    g_autofree XrlabFitParamTable *t2 = NULL, *t3 = NULL;

    xrlab_fit_setup_spec_init (&spec);
    spec.e0 = 2, spec.e1 = 18;
    xrlab_engine_fit_setup_update_async (e, s, &spec, XRLAB_FIT_SETUP_WINDOW, NULL, xrlab_engine_reply_cb,
                                         &r);
    g_assert_true (xrlab_engine_fit_setup_finish (e, xrlab_engine_reply_wait (&r), &error));
    g_assert_no_error (error);
    g_clear_object (&r.result);
    t2 = params_table (e, s, XRLAB_FIT_MODEL_MAIN);
    g_assert_nonnull (row_named (t2, "Gauss_06_A"));
    spec.models = MODELS "/expirf.yaml";
    spec.model = "base";
    xrlab_engine_fit_setup_update_async (e, s, &spec, XRLAB_FIT_SETUP_MODEL, NULL, xrlab_engine_reply_cb, &r);
    g_assert_true (xrlab_engine_fit_setup_finish (e, xrlab_engine_reply_wait (&r), &error));
    g_assert_no_error (error);
    g_clear_object (&r.result);
    t3 = params_table (e, s, XRLAB_FIT_MODEL_MAIN);
    g_assert_null (row_named (t3, "Gauss_01_A"));
  }
}

/* Refused edits keep the last valid model and name what is wrong. */
static void
test_refused (void)
{
  g_autoptr(XrlabEngine) e = xrlab_engine_new ();
  guint s = expirf_setup (e, open_synthetic (e));
  g_autofree XrlabFitPreview *before = model_map (e, s), *after = NULL;
  const char *prof[] = { "pLinear" };
  XrlabModelEdit rm = { .kind = XRLAB_MODEL_EDIT_REMOVE, .component = "GLP_09" };
  XrlabModelEdit att = { .kind = XRLAB_MODEL_EDIT_ATTACH_NEW, .part = XRLAB_MODEL_PART_PROFILE,
                         .param = "GLP_01_A", .functions = prof, .n_functions = 1 };
  XrlabModelEdit dyn = { .kind = XRLAB_MODEL_EDIT_ATTACH_FILE, .part = XRLAB_MODEL_PART_DYNAMICS,
                         .param = "GLP_01_A", .file = MODELS "/time.yaml",
                         .models = expirf_models, .n_models = 1 };
  XrlabModelEdit last = { .kind = XRLAB_MODEL_EDIT_MOVE, .component = "LinBack",
                          .position = -1 };
  g_autoptr(GError) error = NULL;
  g_autofree XrlabFitParamTable *t = NULL;

  g_assert_null (edit_model (e, s, XRLAB_FIT_MODEL_MAIN, &rm, 1, &error));
  g_assert_error (error, XRLAB_MODEL_ERROR, XRLAB_MODEL_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "GLP_09"));
  g_clear_error (&error);
  /* a profile on data without an aux axis */
  g_assert_null (edit_model (e, s, XRLAB_FIT_MODEL_MAIN, &att, 1, &error));
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  g_clear_error (&error);
  /* time dependence of the baseline model */
  g_assert_null (edit_model (e, s, XRLAB_FIT_MODEL_BASELINE, &dyn, 1, &error));
  g_assert_nonnull (strstr (error->message, "no time dependence"));
  g_clear_error (&error);
  /* the reader's rules */
  g_assert_null (edit_model (e, s, XRLAB_FIT_MODEL_MAIN, &last, 1, &error));
  g_assert_nonnull (strstr (error->message, "LinBack"));
  g_clear_error (&error);
  /* no such setup */
  g_assert_null (edit_model (e, 999, XRLAB_FIT_MODEL_MAIN, &last, 1, &error));
  g_assert_error (error, XRLAB_ENGINE_FIT_ERROR, XRLAB_ENGINE_FIT_ERROR_NO_SETUP);

  after = model_map (e, s);
  g_assert_cmpmem (after->model, after->n_rows * after->n_cols * sizeof (double),
                   before->model, before->n_rows * before->n_cols * sizeof (double));
  t = params_table (e, s, XRLAB_FIT_MODEL_MAIN);
  g_assert_cmpuint (t->n_params, ==, 12);
}

/* Saved after edits and loaded back into a new setup: the same table and
 * the same model map. */
static void
test_save_load (void)
{
  g_autoptr(XrlabEngine) e = xrlab_engine_new ();
  guint ds = open_synthetic (e);
  guint s = expirf_setup (e, ds), s2;
  g_autofree char *path = g_build_filename (tmpdir, "saved.yaml", NULL);
  const char *sub[] = { "stepFun" };
  const XrlabModelParamRow x0[] = { { "x0", 12, TRUE, FALSE, 10, 16, NULL } };
  XrlabModelEdit edits[3] = {
    { .kind = XRLAB_MODEL_EDIT_ADD, .function = "Voigt", .rows = x0, .n_rows = 1,
      .position = -1 },
    { .kind = XRLAB_MODEL_EDIT_ADD_SUBCYCLE, .param = "GLP_01_x0", .functions = sub,
      .n_functions = 1, .position = -1, .frequency = 0.02 },
    { .kind = XRLAB_MODEL_EDIT_ADD, .function = "Shirley", .position = -1 },
  };
  XrlabFitParamEdit pe[2] = {
    { .name = "Voigt_01_x0", .fields = XRLAB_FIT_PARAM_VALUE, .value = 12.25 },
    { .name = "Voigt_01_A", .fields = XRLAB_FIT_PARAM_EXPR, .expr = "GLP_01_A / 3" },
  };
  g_autoptr(GError) error = NULL;
  g_autofree XrlabModelEditResult *res = NULL;
  g_autoptr(XrlabFitModelSaved) saved = NULL;
  g_autofree XrlabFitPreview *m1 = NULL, *m2 = NULL;
  g_autofree XrlabFitParamTable *t1 = NULL, *t2 = NULL, *b1 = NULL, *b2 = NULL;
  XrlabFitSetupSpec spec;
  Reply r = { 0 };

  res = edit_model (e, s, XRLAB_FIT_MODEL_MAIN, edits, 3, &error);
  g_assert_no_error (error);
  xrlab_engine_fit_edit_params_async (e, s, pe, 2, NULL, xrlab_engine_reply_cb, &r);
  xrlab_engine_fit_edit_params_finish (e, xrlab_engine_reply_wait (&r), &error);
  g_assert_no_error (error);
  g_clear_object (&r.result);

  xrlab_engine_fit_save_model_async (e, s, path, NULL, xrlab_engine_reply_cb, &r);
  saved = xrlab_engine_fit_save_model_finish (e, xrlab_engine_reply_wait (&r), &error);
  g_assert_no_error (error);
  g_clear_object (&r.result);
  g_assert_cmpstr (saved->models, ==, path);
  g_assert_cmpstr (saved->model, ==, "base");
  g_assert_cmpuint (saved->n_dynamics, ==, 1);
  g_assert_cmpuint (saved->dynamics[0].n_models, ==, 2);
  g_assert_cmpfloat (saved->dynamics[0].frequency, ==, 0.02);

  /* the baseline model has the main model's name here */
  g_assert_cmpstr (saved->baseline_model, ==, "base_baseline");
  xrlab_fit_setup_spec_init (&spec);
  xrlab_fit_model_saved_apply (saved, &spec);
  spec.dataset = ds;
  spec.b0 = -20, spec.b1 = -1;
  s2 = setup_new (e, &spec);
  b1 = params_table (e, s, XRLAB_FIT_MODEL_BASELINE);
  b2 = params_table (e, s2, XRLAB_FIT_MODEL_BASELINE);
  g_assert_cmpuint (b1->n_params, ==, b2->n_params);
  for (gsize i = 0; i < b1->n_params; i++)
    g_assert_cmpfloat (b1->params[i].value, ==, b2->params[i].value);
  t1 = params_table (e, s, XRLAB_FIT_MODEL_MAIN);
  t2 = params_table (e, s2, XRLAB_FIT_MODEL_MAIN);
  g_assert_cmpuint (t1->n_params, ==, t2->n_params);
  for (gsize i = 0; i < t1->n_params; i++)
    {
      g_assert_cmpstr (t1->params[i].name, ==, t2->params[i].name);
      g_assert_cmpstr (t1->params[i].expr, ==, t2->params[i].expr);
      g_assert_cmpfloat (t1->params[i].value, ==, t2->params[i].value);
      g_assert_cmpint (t1->params[i].vary, ==, t2->params[i].vary);
    }
  m1 = model_map (e, s);
  m2 = model_map (e, s2);
  for (gsize i = 0; i < m1->n_rows * m1->n_cols; i++)
    g_assert_cmpfloat (fabs (m1->model[i] - m2->model[i]), <=,
                       1e-15 * fmax (1, fabs (m1->model[i])));
  g_remove (path);
}

/* A baseline model of another name is saved beside the main model. */
static void
test_save_baseline (void)
{
  g_autoptr(XrlabEngine) e = xrlab_engine_new ();
  guint ds = open_synthetic (e);
  g_autofree char *models = g_build_filename (tmpdir, "two.yaml", NULL);
  g_autofree char *path = g_build_filename (tmpdir, "saved2.yaml", NULL);
  g_autofree char *text = NULL;
  XrlabFitDynamics dyn = { "GLP_01_x0", MODELS "/time.yaml", expirf_models, 1, 0 };
  g_autoptr(XrlabFitModelSaved) saved = NULL;
  g_autofree XrlabFitParamTable *b1 = NULL, *b2 = NULL;
  g_autoptr(GError) error = NULL;
  XrlabFitSetupSpec spec;
  Reply r = { 0 };
  guint s, s2;

  g_assert_true (g_file_set_contents (models,
                                      "base:\n  Offset: {y0: [1, True, 0, 5]}\n"
                                      "  GLP: {A: [12, True, 5, 15], x0: [8, True, 5, 15], "
                                      "F: [1.5, True], m: [0.3, False]}\n"
                                      "2D:\n  Offset: {y0: [1, False]}\n"
                                      "  GLP: {A: [12, False], x0: [8, True, 5, 15], "
                                      "F: [1.5, False], m: [0.3, False]}\n", -1, NULL));
  xrlab_fit_setup_spec_init (&spec);
  spec.dataset = ds;
  spec.models = models;
  spec.model = "2D";
  spec.dynamics = &dyn;
  spec.n_dynamics = 1;
  spec.baseline_model = "base";
  spec.b0 = -20, spec.b1 = -1;
  s = setup_new (e, &spec);
  xrlab_engine_fit_save_model_async (e, s, path, NULL, xrlab_engine_reply_cb, &r);
  saved = xrlab_engine_fit_save_model_finish (e, xrlab_engine_reply_wait (&r), &error);
  g_assert_no_error (error);
  g_clear_object (&r.result);
  g_assert_cmpstr (saved->baseline_model, ==, "base");
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_true (g_str_has_prefix (strstr (text, "\nbase:"), "\nbase:\n    Offset:"));
  g_assert_nonnull (strstr (text, "\nMonoExpIRF:\n    gaussCONV:\n        SD: [3, True, 0.1, 10]\n"));
  g_assert_nonnull (strstr (text, "add_time_dependence(2D, GLP_01_x0, [MonoExpIRF])"));
  g_assert_true (strstr (text, "\nbase:") < strstr (text, "\n2D:\n"));

  xrlab_fit_model_saved_apply (saved, &spec);
  s2 = setup_new (e, &spec);
  b1 = params_table (e, s, XRLAB_FIT_MODEL_BASELINE);
  b2 = params_table (e, s2, XRLAB_FIT_MODEL_BASELINE);
  g_assert_cmpuint (b1->n_params, ==, b2->n_params);
  for (gsize i = 0; i < b1->n_params; i++)
    g_assert_cmpfloat (b1->params[i].value, ==, b2->params[i].value);
  g_remove (path);
  g_remove (models);
}

/* The baseline model of another file than the main model's (the main
 * model as edited, kept in its own file, and a baseline chosen from the
 * file it came from), and edits of it: parameter edits and structure edits
 * name the baseline model and leave the main model as it was; saved, both
 * models are one file. */
static void
test_baseline_file (void)
{
  g_autoptr(XrlabEngine) e = xrlab_engine_new ();
  guint ds = open_synthetic (e);
  g_autofree char *models = g_build_filename (tmpdir, "baselines.yaml", NULL);
  g_autofree char *path = g_build_filename (tmpdir, "saved3.yaml", NULL);
  XrlabFitParamEdit edits[] = {
    { .model = XRLAB_FIT_MODEL_BASELINE, .name = "Offset_y0", .fields = XRLAB_FIT_PARAM_VALUE,
      .value = 2.5 },
    { .model = XRLAB_FIT_MODEL_BASELINE, .name = "GLP_01_m",
      .fields = XRLAB_FIT_PARAM_VARY | XRLAB_FIT_PARAM_BOUNDS, .vary = TRUE, .min = 0, .max = 1 },
  };
  XrlabModelEdit add = { .kind = XRLAB_MODEL_EDIT_ADD, .part = XRLAB_MODEL_PART_ENERGY,
                         .function = "Gauss", .position = -1 };
  XrlabModelEdit rm = { .kind = XRLAB_MODEL_EDIT_REMOVE, .part = XRLAB_MODEL_PART_ENERGY,
                        .component = "Offset" };
  g_autofree XrlabFitParamTable *main0 = NULL, *main1 = NULL, *b = NULL, *b2 = NULL;
  g_autofree XrlabModelEditResult *res = NULL;
  g_autoptr(XrlabModelDesc) d = NULL;
  g_autoptr(XrlabFitModelSaved) saved = NULL;
  g_autoptr(GError) error = NULL;
  const XrlabFitParamRow *row;
  XrlabFitSetupSpec spec;
  Reply r = { 0 };
  guint s, s2;

  g_assert_true (g_file_set_contents (models,
                                      "flat:\n  Offset: {y0: [1, True, 0, 5]}\n"
                                      "  GLP: {A: [12, True, 5, 15], x0: [8, True, 5, 15], "
                                      "F: [1.5, True], m: [0.3, False]}\n", -1, NULL));
  xrlab_fit_setup_spec_init (&spec);
  spec.dataset = ds;
  spec.models = MODELS "/expirf.yaml";
  spec.model = "base";
  spec.baseline_models = models;
  spec.baseline_model = "flat";
  spec.b0 = -20, spec.b1 = -1;
  s = setup_new (e, &spec);
  main0 = params_table (e, s, XRLAB_FIT_MODEL_MAIN);
  b = params_table (e, s, XRLAB_FIT_MODEL_BASELINE);
  g_assert_nonnull (row_named (main0, "LinBack_m"));
  g_assert_nonnull (row_named (b, "Offset_y0"));
  g_assert_null (row_named (b, "LinBack_m"));
  g_clear_pointer (&b, g_free);

  /* Parameter edits of the baseline model. */
  xrlab_engine_fit_edit_params_async (e, s, edits, G_N_ELEMENTS (edits), NULL, xrlab_engine_reply_cb, &r);
  g_assert_true (xrlab_engine_fit_edit_params_finish (e, xrlab_engine_reply_wait (&r), &error));
  g_assert_no_error (error);
  g_clear_object (&r.result);
  b = params_table (e, s, XRLAB_FIT_MODEL_BASELINE);
  g_assert_cmpfloat (row_named (b, "Offset_y0")->value, ==, 2.5);
  row = row_named (b, "GLP_01_m");
  g_assert_true (row->vary);
  g_assert_cmpfloat (row->min, ==, 0);
  g_assert_cmpfloat (row->max, ==, 1);
  /* A name of the main model only is no baseline parameter. */
  edits[0].name = "LinBack_m";
  xrlab_engine_fit_edit_params_async (e, s, edits, 1, NULL, xrlab_engine_reply_cb, &r);
  g_assert_false (xrlab_engine_fit_edit_params_finish (e, xrlab_engine_reply_wait (&r), &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "LinBack_m"));
  g_clear_error (&error);
  g_clear_object (&r.result);

  /* Structure edits of the baseline model. */
  res = edit_model (e, s, XRLAB_FIT_MODEL_BASELINE, &add, 1, &error);
  g_assert_no_error (error);
  g_assert_nonnull (res);
  g_clear_pointer (&res, g_free);
  res = edit_model (e, s, XRLAB_FIT_MODEL_BASELINE, &rm, 1, &error);
  g_assert_no_error (error);
  d = describe (e, s, XRLAB_FIT_MODEL_BASELINE);
  g_assert_cmpstr (d->name, ==, "flat");
  g_assert_cmpuint (d->n_components, ==, 2);
  g_assert_cmpstr (d->components[0].name, ==, "GLP_01");
  g_assert_cmpstr (d->components[1].function, ==, "Gauss");
  /* the main model as it was */
  main1 = params_table (e, s, XRLAB_FIT_MODEL_MAIN);
  g_assert_cmpuint (main1->n_params, ==, main0->n_params);
  for (gsize i = 0; i < main0->n_params; i++)
    {
      g_assert_cmpstr (main1->params[i].name, ==, main0->params[i].name);
      g_assert_cmpfloat (main1->params[i].value, ==, main0->params[i].value);
    }

  /* Saved: one file of both models, read back the same. */
  xrlab_engine_fit_save_model_async (e, s, path, NULL, xrlab_engine_reply_cb, &r);
  saved = xrlab_engine_fit_save_model_finish (e, xrlab_engine_reply_wait (&r), &error);
  g_assert_no_error (error);
  g_clear_object (&r.result);
  g_assert_cmpstr (saved->baseline_model, ==, "flat");
  xrlab_fit_model_saved_apply (saved, &spec);
  g_assert_null (spec.baseline_models);
  s2 = setup_new (e, &spec);
  g_clear_pointer (&b, g_free);
  b = params_table (e, s, XRLAB_FIT_MODEL_BASELINE);
  b2 = params_table (e, s2, XRLAB_FIT_MODEL_BASELINE);
  g_assert_cmpuint (b->n_params, ==, b2->n_params);
  for (gsize i = 0; i < b->n_params; i++)
    {
      g_assert_cmpstr (b->params[i].name, ==, b2->params[i].name);
      g_assert_cmpfloat (b->params[i].value, ==, b2->params[i].value);
    }

  /* A baseline model that its file lacks: the setup is refused, naming it. */
  spec.baseline_models = models;
  spec.baseline_model = "nosuch";
  xrlab_engine_fit_setup_new_async (e, &spec, NULL, xrlab_engine_reply_cb, &r);
  g_assert_false (xrlab_engine_fit_setup_finish (e, xrlab_engine_reply_wait (&r), &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "nosuch"));
  g_clear_object (&r.result);
  g_remove (path);
  g_remove (models);
}

int
main (int argc, char **argv)
{
  int status;

  xrlab_init ();
  g_test_init (&argc, &argv, NULL);
  tmpdir = g_dir_make_tmp ("xrlab-engine-fit-model-XXXXXX", NULL);
  g_assert_nonnull (tmpdir);
  g_test_add_func ("/engine-fit-model/tree", test_tree);
  g_test_add_func ("/engine-fit-model/burst", test_burst);
  g_test_add_func ("/engine-fit-model/refused", test_refused);
  g_test_add_func ("/engine-fit-model/save-load", test_save_load);
  g_test_add_func ("/engine-fit-model/save-baseline", test_save_baseline);
  g_test_add_func ("/engine-fit-model/baseline-file", test_baseline_file);
  status = g_test_run ();
  g_rmdir (tmpdir);
  g_free (tmpdir);
  return status;
}
