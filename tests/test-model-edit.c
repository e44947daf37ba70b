/* test-model-edit.c -- model files written and read back, structure edits,
 * the palette, the model as a tree
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "xrlab-init.h"
#include "xrlab-model-edit.h"
#include "xrlab-plan.h"
#include "xrlab-util.h"

static char *tmpdir;

static char *
shared_path (const char *rel)
{
  const char *root = g_getenv ("XRLAB_SHARED_DATA");
  return g_build_filename (root ? root : "../shared/data", rel, NULL);
}

static XrlabModel *
model_from_text (const char *text, const char *name)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabModelFile) f = xrlab_model_file_new_from_data (text, -1, "test.yaml", &error);
  XrlabModel *m;

  g_assert_no_error (error);
  m = xrlab_model_new (f, name, &error);
  g_assert_no_error (error);
  return m;
}

static gboolean
same (double a, double b)
{
  return memcmp (&a, &b, sizeof a) == 0 || (isnan (a) && isnan (b));
}

/* The two models have the same parameters and the same plans, evaluated
 * the same to 1e-15 on axes of every kind they need. */
static void
assert_same_model (const XrlabModel *a, const XrlabModel *b)
{
  static const double energy[] = { 80, 81.5, 83, 84, 84.5, 85, 85.5, 86, 87.5, 88, 90, 92 };
  static const double time[] = { -1, -0.5, 0, 0.25, 0.5, 1, 2, 3.5, 5, 7, 9 };
  static const double aux[] = { 0, 1, 2.5 };
  gboolean dyn = xrlab_model_has_dynamics (a), prof = xrlab_model_has_profiles (a);
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabPlan) pa = NULL, pb = NULL;
  g_autofree double *ta = NULL, *tb = NULL, *ya = NULL, *yb = NULL;
  gsize n;

  g_assert_cmpstr (xrlab_model_get_name (a), ==, xrlab_model_get_name (b));
  g_assert_cmpuint (xrlab_model_n_params (a), ==, xrlab_model_n_params (b));
  g_assert_cmpint (dyn, ==, xrlab_model_has_dynamics (b));
  g_assert_cmpint (prof, ==, xrlab_model_has_profiles (b));
  for (gsize i = 0; i < xrlab_model_n_params (a); i++)
    {
      XrlabParamInfo x, y;
      xrlab_model_get_param (a, i, &x);
      xrlab_model_get_param (b, i, &y);
      g_assert_cmpstr (x.name, ==, y.name);
      g_assert_cmpint (x.role, ==, y.role);
      g_assert_cmpstr (x.host, ==, y.host);
      g_assert_cmpstr (x.expr, ==, y.expr);
      g_assert_cmpint (x.vary, ==, y.vary);
      g_assert_cmpint (x.is_static, ==, y.is_static);
      g_assert_cmpint (x.share, ==, y.share);
      g_assert_cmpstr (x.expr_full, ==, y.expr_full);
      if (x.expr == NULL)
        g_assert_true (same (x.value, y.value) && same (x.min, y.min) && same (x.max, y.max));
    }
  pa = xrlab_plan_new (a, energy, G_N_ELEMENTS (energy), dyn ? time : NULL,
                       dyn ? G_N_ELEMENTS (time) : 0, prof ? aux : NULL,
                       prof ? G_N_ELEMENTS (aux) : 0, &error);
  g_assert_no_error (error);
  pb = xrlab_plan_new (b, energy, G_N_ELEMENTS (energy), dyn ? time : NULL,
                       dyn ? G_N_ELEMENTS (time) : 0, prof ? aux : NULL,
                       prof ? G_N_ELEMENTS (aux) : 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (xrlab_plan_n_theta (pa), ==, xrlab_plan_n_theta (pb));
  for (gsize k = 0; k < xrlab_plan_n_theta (pa); k++)
    g_assert_cmpstr (xrlab_plan_theta_name (pa, k), ==, xrlab_plan_theta_name (pb, k));
  n = xrlab_plan_n_data (pa);
  g_assert_cmpuint (n, ==, xrlab_plan_n_data (pb));
  ta = g_new (double, xrlab_plan_n_theta (pa) + 1);
  tb = g_new (double, xrlab_plan_n_theta (pb) + 1);
  ya = g_new (double, n);
  yb = g_new (double, n);
  xrlab_plan_theta_initial (pa, ta);
  xrlab_plan_theta_initial (pb, tb);
  xrlab_plan_eval (pa, ta, ya);
  xrlab_plan_eval (pb, tb, yb);
  for (gsize i = 0; i < n; i++)
    g_assert_cmpfloat (fabs (ya[i] - yb[i]), <=, 1e-15 * MAX (1.0, fabs (ya[i])));
}

/* Saved to a file and read back: the same model, and the same text again. */
static XrlabModel *
round_trip (const XrlabModel *m)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (tmpdir, "saved.yaml", NULL);
  g_autoptr(XrlabModelSaved) saved = NULL, saved2 = NULL;
  g_autofree char *text = NULL, *text2 = NULL;
  XrlabModel *back;

  g_assert_true (xrlab_model_save (&m, 1, path, &saved, &error));
  g_assert_no_error (error);
  back = xrlab_model_load_saved (path, xrlab_model_get_name (m), saved, &error);
  g_assert_no_error (error);
  g_assert_nonnull (back);
  assert_same_model (m, back);
  text = xrlab_model_write_text (&m, 1, NULL);
  text2 = xrlab_model_write_text ((const XrlabModel *const *) &back, 1, &saved2);
  if (g_getenv ("XRLAB_TEST_DUMP"))
    g_printerr ("%s\n----\n", text);
  g_assert_cmpstr (text, ==, text2);
  g_assert_cmpuint (saved->n_attach, ==, saved2->n_attach);
  return back;
}

/* Whether @m can be evaluated (every expression names a parameter it has). */
static gboolean
usable (const XrlabModel *m)
{
  static const double energy[] = { 80, 85, 90 };
  static const double time[] = { -1, 0, 1, 2 };
  static const double aux[] = { 0, 1 };
  g_autoptr(XrlabPlan) plan = xrlab_plan_new (m, energy, 3, time, 4, aux, 2, NULL);

  return plan != NULL;
}

/* ---- every example ------------------------------------------------------------------ */

static void
collect_yaml (const char *dir, GPtrArray *out)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  if (d == NULL)
    return;
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        collect_yaml (path, out);
      else if (g_str_has_suffix (name, ".yaml"))
        g_ptr_array_add (out, g_steal_pointer (&path));
    }
}

/* Attaches @time_file's models one by one to the first parameter of @m
 * (those that attach) and round-trips each. */
static guint
round_trip_dynamics (const XrlabModel *m, const char *time_file)
{
  g_autoptr(XrlabModelFile) tf = xrlab_model_file_load (time_file, NULL);
  XrlabParamInfo info;
  guint n = 0;

  if (tf == NULL || xrlab_model_n_params (m) == 0)
    return 0;
  xrlab_model_get_param (m, xrlab_model_n_params (m) > 1 ? 1 : 0, &info);
  for (gsize k = 0; k < xrlab_model_file_n_models (tf); k++)
    {
      const char *names[] = { xrlab_model_file_model_name (tf, k) };
      g_autoptr(XrlabModel) c = xrlab_model_copy (m);
      g_autoptr(XrlabModel) back = NULL;

      if (info.expr != NULL
          || !xrlab_model_add_dynamics (c, info.name, time_file, names, 1, 0, NULL)
          || !usable (c))
        continue;
      back = round_trip (c);
      n++;
    }
  return n;
}

static void
test_examples (void)
{
  g_autofree char *root = shared_path ("trspecfit-examples");
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  guint n_models = 0, n_dyn = 0;

  collect_yaml (root, files);
  if (files->len == 0)
    {
      g_test_skip ("trspecfit examples not found");
      return;
    }
  for (guint i = 0; i < files->len; i++)
    {
      const char *path = g_ptr_array_index (files, i);
      g_autoptr(XrlabModelFile) f = xrlab_model_file_load (path, NULL);
      g_autofree char *dir = g_path_get_dirname (path);
      g_autofree char *time_file = g_build_filename (dir, "models_time.yaml", NULL);

      for (gsize k = 0; f != NULL && k < xrlab_model_file_n_models (f); k++)
        {
          g_autoptr(XrlabModel) m = xrlab_model_new (f, xrlab_model_file_model_name (f, k),
                                                     NULL);
          g_autoptr(XrlabModel) back = NULL;

          if (m == NULL || !usable (m))
            continue;
          back = round_trip (m);
          n_models++;
          if (strstr (path, "models_energy") != NULL && k == 0)
            n_dyn += round_trip_dynamics (m, time_file);
        }
    }
  g_test_message ("%u energy models, %u with time dependence", n_models, n_dyn);
  g_assert_cmpuint (n_models, >=, 20);
  g_assert_cmpuint (n_dyn, >=, 10);
}

/* Multi-cycle time dependence with a kernel-only IRF, profiles, a
 * parameter with both, time dependence of a profile's parameter: the
 * examples 03 and 04. */
static void
test_attachments (void)
{
  g_autofree char *d3 = shared_path ("trspecfit-examples/fitting_workflows/03_multi_cycle_dynamics");
  g_autofree char *d4 = shared_path ("trspecfit-examples/fitting_workflows/04_parameter_profiles");
  g_autofree char *e3 = g_build_filename (d3, "models_energy.yaml", NULL);
  g_autofree char *t3 = g_build_filename (d3, "models_time.yaml", NULL);
  g_autofree char *e4 = g_build_filename (d4, "models_energy.yaml", NULL);
  g_autofree char *t4 = g_build_filename (d4, "models_time.yaml", NULL);
  g_autofree char *p4 = g_build_filename (d4, "models_profile.yaml", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabModelFile) f3 = xrlab_model_file_load (e3, NULL);
  g_autoptr(XrlabModel) m3 = NULL, m4 = NULL, b3 = NULL, b4 = NULL;
  g_autoptr(XrlabModelFile) tf4 = NULL;
  const char *cycle[] = { "IRF", "MonoExpNeg", "MonoExpPos" };

  if (f3 == NULL)
    {
      g_test_skip ("trspecfit examples not found");
      return;
    }
  m3 = xrlab_model_new (f3, xrlab_model_file_model_name (f3, xrlab_model_file_n_models (f3) - 1),
                        &error);
  g_assert_no_error (error);
  xrlab_model_add_dynamics (m3, "GLP_01_x0", t3, cycle, 3, 0.25, &error);
  g_assert_no_error (error);
  b3 = round_trip (m3);

  m4 = xrlab_model_load (e4, "2D", &error);
  g_assert_no_error (error);
  xrlab_model_add_profile (m4, "GLP_01_A", p4, "IMFPfixed", &error);
  g_assert_no_error (error);
  xrlab_model_add_profile (m4, "GLP_01_x0", p4, "BandBending", &error);
  g_assert_no_error (error);
  tf4 = xrlab_model_file_load (t4, &error);
  g_assert_no_error (error);
  {
    const char *names[] = { xrlab_model_file_model_name (tf4, 0) };
    xrlab_model_add_dynamics (m4, "GLP_01_x0", t4, names, 1, 0, &error);
    g_assert_no_error (error);
    xrlab_model_add_dynamics (m4, "GLP_01_x0_pLinear_01_m", t4, names, 1, 0, &error);
    g_assert_no_error (error);
  }
  b4 = round_trip (m4);
}

/* Numbers in the form PyYAML reads as floats; names and expressions quoted
 * where they must be. */
static void
test_syntax (void)
{
  g_autoptr(XrlabModel) m = model_from_text (
    "\"2 peaks\":\n"
    "  Offset: {y0: [1.0E-6, True, -1e300, .inf]}\n"
    "  GLP: {A: [1e20, static], x0: [84.1, True, 82, 88], F: [1, False], m: [0.3, True, 0, 1]}\n"
    "  GLP: {A: [\"3/4*GLP_01_A\"], x0: [\"GLP_01_x0 + 3.67\"], F: [\"GLP_01_F\"], m: [0.5, True]}\n",
    "2 peaks");
  g_autofree char *text = xrlab_model_write_text ((const XrlabModel *const *) &m, 1, NULL);
  g_autoptr(XrlabModel) back = NULL;

  g_assert_nonnull (strstr (text, "\"2 peaks\":\n    Offset:\n        y0: [1.0e-06, True, -1.0e+300, .inf]\n"));
  g_assert_nonnull (strstr (text, "        A: [1.0e+20, static]\n"));
  g_assert_nonnull (strstr (text, "        A: [\"3/4*GLP_01_A\"]\n"));
  g_assert_nonnull (strstr (text, "        F: [1, False]\n"));
  back = round_trip (m);
  g_clear_pointer (&m, xrlab_model_free);
  g_clear_pointer (&back, xrlab_model_free);
  g_clear_pointer (&text, g_free);

  /* the sharing of a joint fit */
  m = model_from_text ("m: {Gauss: {A: [1, project, 0, 2], x0: [85, file], SD: [1, static]}}\n",
                       "m");
  text = xrlab_model_write_text ((const XrlabModel *const *) &m, 1, NULL);
  g_assert_nonnull (strstr (text, "        A: [1, project, 0, 2]\n"));
  g_assert_nonnull (strstr (text, "        x0: [85, file]\n"));
  g_assert_nonnull (strstr (text, "        SD: [1, static]\n"));
  back = round_trip (m);

  /* names YAML would read as numbers or booleans are quoted */
  for (guint i = 0; i < 6; i++)
    {
      static const char *const names[] = { "1e5", "0x1F", "True", "2D", "a b", "12" };
      static const gboolean quoted[] = { TRUE, TRUE, TRUE, FALSE, TRUE, TRUE };
      g_autofree char *src = g_strdup_printf ("\"%s\": {Offset: {y0: [1, True]}, "
                                              "Gauss: {A: [1, True], x0: [85, True], "
                                              "SD: [1, True]}}\n", names[i]);
      g_autoptr(XrlabModel) n = model_from_text (src, names[i]);
      g_autofree char *t = xrlab_model_write_text ((const XrlabModel *const *) &n, 1, NULL);
      g_autofree char *want = quoted[i] ? g_strdup_printf ("\n\"%s\":\n", names[i])
                                        : g_strdup_printf ("\n%s:\n", names[i]);
      g_autoptr(XrlabModel) b = round_trip (n);

      g_assert_nonnull (strstr (t, want));
    }
}

/* ---- edits ------------------------------------------------------------------------------ */

static const char *two_peaks =
  "m:\n"
  "  Shirley: {pShirley: [4.0E-4, True, 1.0E-9, 1.0]}\n"
  "  GLP: {A: [300, True, 0, 1000], x0: [84.1, True, 82, 88], F: [1.0, True, 0.5, 2.5], m: [0.3, True, 0, 1]}\n"
  "  GLP: {A: [\"3/4*GLP_01_A\"], x0: [\"GLP_01_x0 + 3.67\"], F: [\"GLP_01_F\"], m: [\"GLP_01_m\"]}\n";

static const char *three_peaks =
  "m:\n"
  "  Offset: {y0: [50, True, 0, 500]}\n"
  "  GLP: {A: [100, True, 0, 1000], x0: [80, True, 78, 82], F: [1.0, True, 0.5, 2.5], m: [0.3, False]}\n"
  "  GLP: {A: [300, True, 0, 1000], x0: [84.1, True, 82, 88], F: [1.0, True, 0.5, 2.5], m: [0.3, False]}\n"
  "  GLP: {A: [\"GLP_02_A / 2\"], x0: [\"GLP_02_x0 + 3.67\"], F: [\"GLP_02_F\"], m: [0.3, False]}\n";

/* @edits applied to @m: checked, evaluated and round-tripped. */
static XrlabModel *
edited (const XrlabModel *m, const XrlabModelEdit *edits, gsize n, XrlabModelEditResult **res)
{
  g_autoptr(GError) error = NULL;
  XrlabModel *out = xrlab_model_edited (m, edits, n, res, &error);
  g_autoptr(XrlabModel) back = NULL;

  g_assert_no_error (error);
  g_assert_nonnull (out);
  g_assert_true (usable (out));
  back = round_trip (out);
  return out;
}

static const char *
renamed (const XrlabModelEditResult *r, const char *from)
{
  for (gsize i = 0; i < r->n_renames; i++)
    if (strcmp (r->renames[i].from, from) == 0)
      return r->renames[i].to;
  return NULL;
}

static void
assert_param (const XrlabModel *m, const char *name, double value, const char *expr)
{
  gssize i = xrlab_model_find_param (m, name);
  XrlabParamInfo info;

  g_assert_cmpint (i, >=, 0);
  xrlab_model_get_param (m, i, &info);
  g_assert_cmpstr (info.expr, ==, expr);
  if (expr == NULL)
    g_assert_cmpfloat (info.value, ==, value);
}

static void
test_add_remove (void)
{
  g_autoptr(XrlabModel) m = model_from_text (two_peaks, "m");
  g_autoptr(XrlabModel) m3 = model_from_text (three_peaks, "m");
  g_autoptr(XrlabModel) a = NULL, b = NULL, c = NULL;
  g_autoptr(XrlabModelEditResult) ra = NULL, rb = NULL;
  g_autoptr(GError) error = NULL;
  const XrlabModelParamRow rows[] = { { "x0", 90, TRUE, FALSE, 88, 92, NULL } };
  XrlabModelEdit add = { .kind = XRLAB_MODEL_EDIT_ADD, .function = "Gauss", .rows = rows,
                         .n_rows = 1, .position = -1 };
  XrlabModelEdit off = { .kind = XRLAB_MODEL_EDIT_ADD, .function = "Offset", .position = -1 };
  XrlabModelEdit rm = { .kind = XRLAB_MODEL_EDIT_REMOVE, .component = "GLP_01" };
  XrlabModelEdit pair[2];

  /* a Gauss at the end with the palette's rows and x0 as given; an Offset
   * before everything */
  pair[0] = add, pair[1] = off;
  a = edited (m, pair, 2, &ra);
  g_assert_cmpuint (xrlab_model_n_components (a), ==, 5);
  g_assert_cmpstr (xrlab_model_component_name (a, 0), ==, "Offset");
  g_assert_cmpstr (xrlab_model_component_name (a, 4), ==, "Gauss_01");
  assert_param (a, "Gauss_01_x0", 90, NULL);
  assert_param (a, "Gauss_01_SD", 1.2, NULL);
  g_assert_cmpuint (ra->n_added, ==, 2);
  g_assert_cmpstr (ra->added[0], ==, "Gauss_01");
  g_assert_cmpuint (ra->n_renames, ==, 0);

  /* GLP_01 is named by GLP_02's expressions */
  g_assert_null (xrlab_model_edited (m, &rm, 1, NULL, &error));
  g_assert_error (error, XRLAB_MODEL_ERROR, XRLAB_MODEL_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "GLP_01 cannot be removed"));
  g_assert_nonnull (strstr (error->message, "GLP_02_A"));
  g_clear_error (&error);
  /* all or nothing: the Gauss before it is not added */
  pair[0] = add, pair[1] = rm;
  g_assert_false (xrlab_model_edit (m, pair, 2, NULL, &error));
  g_clear_error (&error);
  g_assert_cmpuint (xrlab_model_n_components (m), ==, 3);

  /* removing GLP_01 of three renumbers the others and their expressions */
  b = edited (m3, &rm, 1, &rb);
  g_assert_cmpuint (xrlab_model_n_components (b), ==, 3);
  assert_param (b, "GLP_01_A", 300, NULL);
  assert_param (b, "GLP_02_x0", 0, "GLP_01_x0 + 3.67");
  g_assert_cmpstr (renamed (rb, "GLP_02"), ==, "GLP_01");
  g_assert_cmpstr (renamed (rb, "GLP_03_x0"), ==, "GLP_02_x0");
  g_assert_null (renamed (rb, "Offset_y0"));

  /* unknown names and functions are named */
  rm.component = "GLP_07";
  g_assert_null (xrlab_model_edited (m, &rm, 1, NULL, &error));
  g_assert_nonnull (strstr (error->message, "GLP_07"));
  g_clear_error (&error);
  add.function = "expFun";
  add.n_rows = 0;
  g_assert_null (xrlab_model_edited (m, &add, 1, NULL, &error));
  g_assert_nonnull (strstr (error->message, "expFun is not a function of an energy model"));
  g_clear_error (&error);
  add.function = "GLP";
  add.rows = rows;
  add.n_rows = 1;
  c = edited (m, &add, 1, NULL);
  assert_param (c, "GLP_03_x0", 90, NULL);
}

static void
test_move (void)
{
  g_autoptr(XrlabModel) m = model_from_text (three_peaks, "m");
  g_autoptr(XrlabModel) a = NULL;
  g_autoptr(XrlabModelEditResult) r = NULL;
  g_autoptr(GError) error = NULL;
  XrlabModelEdit mv = { .kind = XRLAB_MODEL_EDIT_MOVE, .component = "GLP_03", .position = 1 };
  XrlabModelEdit bg = { .kind = XRLAB_MODEL_EDIT_MOVE, .component = "Offset", .position = -1 };

  a = edited (m, &mv, 1, &r);
  g_assert_cmpstr (renamed (r, "GLP_03"), ==, "GLP_01");
  g_assert_cmpstr (renamed (r, "GLP_01"), ==, "GLP_02");
  g_assert_cmpstr (renamed (r, "GLP_02_x0"), ==, "GLP_03_x0");
  assert_param (a, "GLP_01_x0", 0, "GLP_03_x0 + 3.67");
  assert_param (a, "GLP_03_A", 300, NULL);

  /* a background last: the reader's message, the model kept */
  g_assert_false (xrlab_model_edit (m, &bg, 1, NULL, &error));
  g_assert_error (error, XRLAB_MODEL_ERROR, XRLAB_MODEL_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "Offset"));
  g_assert_cmpstr (xrlab_model_component_name (m, 0), ==, "Offset");
}

static void
test_dynamics (void)
{
  g_autoptr(XrlabModel) m = model_from_text (three_peaks, "m");
  g_autoptr(XrlabModel) a = NULL, b = NULL, c = NULL, d = NULL;
  g_autoptr(XrlabModelEditResult) r = NULL;
  g_autoptr(GError) error = NULL;
  const char *fns[] = { "gaussCONV", "expFun" };
  const char *sub[] = { "stepFun" };
  XrlabModelEdit att = { .kind = XRLAB_MODEL_EDIT_ATTACH_NEW, .part = XRLAB_MODEL_PART_DYNAMICS,
                         .param = "GLP_02_x0", .functions = fns, .n_functions = 2 };
  XrlabModelEdit more = { .kind = XRLAB_MODEL_EDIT_ADD, .part = XRLAB_MODEL_PART_DYNAMICS,
                          .param = "GLP_02_x0", .function = "expFun", .position = -1 };
  XrlabModelEdit cyc[3] = {
    { .kind = XRLAB_MODEL_EDIT_ADD_SUBCYCLE, .param = "GLP_01_x0", .functions = sub,
      .n_functions = 1, .position = -1, .frequency = 0.1 },
    { .kind = XRLAB_MODEL_EDIT_ADD_SUBCYCLE, .param = "GLP_01_x0", .position = -1 },
    { .kind = XRLAB_MODEL_EDIT_SET_FREQUENCY, .param = "GLP_01_x0", .frequency = 0.2 },
  };
  XrlabModelEdit rm = { .kind = XRLAB_MODEL_EDIT_REMOVE, .component = "GLP_01" };
  XrlabModelEdit rmsub = { .kind = XRLAB_MODEL_EDIT_REMOVE_SUBCYCLE, .param = "GLP_01_x0",
                           .subcycle = 1 };
  XrlabModelEdit det = { .kind = XRLAB_MODEL_EDIT_DETACH, .part = XRLAB_MODEL_PART_DYNAMICS,
                         .param = "GLP_01_x0" };
  XrlabModelEdit two[2];

  two[0] = att, two[1] = more;
  a = edited (m, two, 2, &r);
  g_assert_true (xrlab_model_has_dynamics (a));
  assert_param (a, "GLP_02_x0_gaussCONV_SD", 0.05, NULL);
  assert_param (a, "GLP_02_x0_expFun_02_tau", 2.5, NULL);
  g_assert_cmpuint (r->n_added, ==, 3);
  g_assert_cmpstr (r->added[0], ==, "GLP_02_x0_gaussCONV");
  g_assert_cmpstr (r->added[2], ==, "GLP_02_x0_expFun_02");

  /* twice: refused, naming the parameter */
  g_assert_null (xrlab_model_edited (a, &att, 1, NULL, &error));
  g_assert_nonnull (strstr (error->message, "GLP_02_x0 has time dependence already"));
  g_clear_error (&error);

  /* removing GLP_01: the time dependence follows its parameter */
  g_clear_pointer (&r, g_free);
  b = edited (a, &rm, 1, &r);
  assert_param (b, "GLP_01_x0_expFun_01_A", 1, NULL);
  g_assert_cmpstr (renamed (r, "GLP_02_x0_expFun_01_A"), ==, "GLP_01_x0_expFun_01_A");

  /* subcycles: a step, then an empty one, a new frequency */
  c = edited (b, cyc, 3, NULL);
  {
    g_autoptr(XrlabModelDesc) desc = xrlab_model_describe (c);
    const XrlabModelDescAttachment *dy = desc->components[1].params[1].dynamics;

    g_assert_nonnull (dy);
    g_assert_cmpuint (dy->n_models, ==, 3);
    g_assert_cmpstr (dy->models[0], ==, "GLP_01_x0_time");
    g_assert_cmpstr (dy->models[1], ==, "GLP_01_x0_time_1");
    g_assert_cmpfloat (dy->frequency, ==, 0.2);
    g_assert_cmpuint (dy->n_components, ==, 5);
    g_assert_cmpstr (dy->components[3].function, ==, "stepFun");
    g_assert_cmpuint (dy->components[3].subcycle, ==, 1);
    g_assert_cmpstr (dy->components[4].function, ==, "none");
  }
  d = edited (c, &rmsub, 1, NULL);
  g_clear_pointer (&d, xrlab_model_free);
  d = edited (c, &det, 1, NULL);
  g_assert_false (xrlab_model_has_dynamics (d));
  g_clear_pointer (&d, xrlab_model_free);

  /* removing the step empties its subcycle: "none" is left */
  rm.component = "GLP_01_x0_stepFun_01";
  d = edited (c, &rm, 1, NULL);
  {
    g_autoptr(XrlabModelDesc) desc = xrlab_model_describe (d);
    const XrlabModelDescAttachment *dy = desc->components[1].params[1].dynamics;

    g_assert_cmpuint (dy->n_models, ==, 3);
    g_assert_cmpstr (dy->components[3].function, ==, "none");
  }
  g_clear_pointer (&d, xrlab_model_free);
  /* removing the only component of a time dependence detaches it */
  {
    const char *one[] = { "expFun" };
    XrlabModelEdit only[2] = {
      { .kind = XRLAB_MODEL_EDIT_ATTACH_NEW, .part = XRLAB_MODEL_PART_DYNAMICS,
        .param = "GLP_01_A", .functions = one, .n_functions = 1 },
      { .kind = XRLAB_MODEL_EDIT_REMOVE, .component = "GLP_01_A_expFun_01" },
    };
    d = edited (m, only, 2, NULL);
    g_assert_false (xrlab_model_has_dynamics (d));
  }
}

static void
test_profiles (void)
{
  g_autofree char *d4 = shared_path ("trspecfit-examples/fitting_workflows/04_parameter_profiles");
  g_autofree char *p4 = g_build_filename (d4, "models_profile.yaml", NULL);
  g_autoptr(XrlabModel) m = model_from_text (two_peaks, "m");
  g_autoptr(XrlabModel) a = NULL, b = NULL;
  g_autoptr(GError) error = NULL;
  const char *imfp[] = { "IMFP" };
  const char *lin[] = { "pLinear" };
  XrlabModelEdit att[2] = {
    { .kind = XRLAB_MODEL_EDIT_ATTACH_FILE, .part = XRLAB_MODEL_PART_PROFILE,
      .param = "GLP_01_A", .file = p4, .models = imfp, .n_models = 1 },
    { .kind = XRLAB_MODEL_EDIT_ATTACH_NEW, .part = XRLAB_MODEL_PART_PROFILE,
      .param = "GLP_01_x0", .functions = lin, .n_functions = 1, .name = "Bend" },
  };
  XrlabModelEdit det = { .kind = XRLAB_MODEL_EDIT_DETACH, .part = XRLAB_MODEL_PART_PROFILE,
                         .param = "GLP_01_A" };

  if (!g_file_test (p4, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("trspecfit examples not found");
      return;
    }
  a = edited (m, att, 2, NULL);
  g_assert_true (xrlab_model_has_profiles (a));
  assert_param (a, "GLP_01_A_pExpDecay_01_A", 80, NULL);
  assert_param (a, "GLP_01_x0_pLinear_01_m", -0.5, NULL);
  b = edited (a, &det, 1, NULL);
  g_assert_cmpint (xrlab_model_find_param (b, "GLP_01_A_pExpDecay_01_A"), <, 0);
  g_assert_cmpint (xrlab_model_find_param (b, "GLP_01_x0_pLinear_01_m"), >=, 0);
  /* time dependence of a profile's parameter, and what goes with it */
  {
    g_autoptr(XrlabModel) m3 = model_from_text (three_peaks, "m");
    g_autoptr(XrlabModel) c = NULL, d = NULL, f = NULL;
    g_autoptr(XrlabModelEditResult) r = NULL;
    const char *fn[] = { "expFun" };
    XrlabModelEdit both[2] = {
      { .kind = XRLAB_MODEL_EDIT_ATTACH_NEW, .part = XRLAB_MODEL_PART_PROFILE,
        .param = "GLP_02_x0", .functions = lin, .n_functions = 1 },
      { .kind = XRLAB_MODEL_EDIT_ATTACH_NEW, .part = XRLAB_MODEL_PART_DYNAMICS,
        .param = "GLP_02_x0_pLinear_01_m", .functions = fn, .n_functions = 1 },
    };
    XrlabModelEdit rm = { .kind = XRLAB_MODEL_EDIT_REMOVE, .component = "GLP_01" };
    XrlabModelEdit rm2 = { .kind = XRLAB_MODEL_EDIT_REMOVE, .component = "GLP_01" };
    XrlabModelEdit pdet = { .kind = XRLAB_MODEL_EDIT_DETACH, .part = XRLAB_MODEL_PART_PROFILE,
                            .param = "GLP_01_x0" };

    c = edited (m3, both, 2, NULL);
    assert_param (c, "GLP_02_x0_pLinear_01_m_expFun_01_tau", 2.5, NULL);
    /* GLP_01 goes: everything of GLP_02 follows its new name */
    d = edited (c, &rm, 1, &r);
    assert_param (d, "GLP_01_x0_pLinear_01_m_expFun_01_tau", 2.5, NULL);
    g_assert_cmpstr (renamed (r, "GLP_02_x0_pLinear_01_m_expFun_01_tau"), ==,
                     "GLP_01_x0_pLinear_01_m_expFun_01_tau");
    /* the profile goes with the time dependence of its parameter */
    f = edited (d, &pdet, 1, NULL);
    g_assert_false (xrlab_model_has_profiles (f));
    g_assert_false (xrlab_model_has_dynamics (f));
    g_clear_pointer (&f, xrlab_model_free);
    /* and so does the peak they hang on; GLP_02 (formerly 03) names it */
    g_assert_null (xrlab_model_edited (d, &rm2, 1, NULL, &error));
    g_assert_nonnull (strstr (error->message, "GLP_02_"));
    g_clear_error (&error);
  }

  /* the wrong kind of function */
  lin[0] = "expFun";
  g_assert_null (xrlab_model_edited (m, &att[1], 1, NULL, &error));
  g_assert_nonnull (strstr (error->message, "expFun is not a profile function"));
}

/* Every function of the palette goes where it belongs, with the
 * parameters of its function, and the result reads back. */
static void
test_palette (void)
{
  g_autoptr(XrlabModel) m = model_from_text (
    "m: {GLP: {A: [300, True, 0, 1000], x0: [84.1, True, 82, 88], F: [1, True], m: [0.3, False]}}\n",
    "m");
  gsize n = 0;
  const XrlabModelPaletteEntry *pal = xrlab_model_palette (&n);

  g_assert_cmpuint (n, ==, 26);
  for (gsize i = 0; i < n; i++)
    {
      XrlabModelEdit e = { .kind = XRLAB_MODEL_EDIT_ADD, .function = pal[i].name,
                           .position = -1 };
      g_autoptr(XrlabModel) out = NULL;

      g_assert_true (xrlab_model_palette_find (pal[i].name) == &pal[i]);
      if (pal[i].kind == XRLAB_MODEL_FN_PROFILE)
        e.part = XRLAB_MODEL_PART_PROFILE, e.param = "GLP_01_A";
      else if (pal[i].kind != XRLAB_MODEL_FN_PEAK && pal[i].kind != XRLAB_MODEL_FN_BACKGROUND)
        e.part = XRLAB_MODEL_PART_DYNAMICS, e.param = "GLP_01_x0";
      if (pal[i].kind == XRLAB_MODEL_FN_KERNEL || pal[i].kind == XRLAB_MODEL_FN_NONE)
        {
          /* a kernel needs a function after it */
          const char *fns[] = { pal[i].name, "expFun" };
          e.kind = XRLAB_MODEL_EDIT_ATTACH_NEW;
          e.functions = fns;
          e.n_functions = 2;
          out = edited (m, &e, 1, NULL);
        }
      else
        out = edited (m, &e, 1, NULL);
      for (gsize q = 0; q < pal[i].n_params; q++)
        {
          g_autoptr(XrlabModelDesc) desc = xrlab_model_describe (out);
          g_assert_nonnull (desc);
          g_assert_true (pal[i].params[q].min <= pal[i].params[q].value
                         && pal[i].params[q].value <= pal[i].params[q].max);
        }
    }
  g_assert_null (xrlab_model_palette_find ("Nope"));
}

/* ---- xrlab-cli reads a saved file back ------------------------------------------------- */

/* The output of xrlab-cli params with @args. */
static char *
cli_params (GPtrArray *args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;
  char *out = NULL;
  int status = 0;

  g_ptr_array_add (argv, (char *) g_getenv ("XRLAB_CLI"));
  g_ptr_array_add (argv, "params");
  for (guint i = 0; i < args->len; i++)
    g_ptr_array_add (argv, g_ptr_array_index (args, i));
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                               &out, &err, &status, &error));
  g_assert_no_error (error);
  if (status != 0)
    g_error ("xrlab-cli params failed: %s", err);
  return out;
}

/* The options of xrlab-cli that attach what @saved says, file @path. */
static void
saved_options (const XrlabModelSaved *saved, const char *path, GPtrArray *args)
{
  for (gsize i = 0; i < saved->n_attach; i++)
    {
      const XrlabModelSavedAttach *a = &saved->attach[i];
      g_autofree char *list = g_strjoinv (",", a->models);
      char freq[XRLAB_DTOA_BUFSIZE] = "";

      if (a->frequency > 0)
        g_snprintf (freq, sizeof freq, "@%.17g", a->frequency);
      g_ptr_array_add (args, g_strdup_printf ("--%s=%s=%s:%s%s", a->profile ? "profile"
                                                                             : "dynamics",
                                              a->param, path, list, freq));
    }
}

static void
test_cli (void)
{
  g_autofree char *d3 = shared_path ("trspecfit-examples/fitting_workflows/03_multi_cycle_dynamics");
  g_autofree char *d4 = shared_path ("trspecfit-examples/fitting_workflows/04_parameter_profiles");
  struct { const char *dir; const char *const opts[4]; } cases[] = {
    { d3, { "--dynamics=GLP_01_x0=%s/models_time.yaml:IRF,MonoExpNeg,MonoExpPos@0.25" } },
    { d4, { "--profile=GLP_01_A=%s/models_profile.yaml:IMFPfixed",
            "--profile=GLP_01_x0=%s/models_profile.yaml:BandBending",
            "--dynamics=GLP_01_x0=%s/models_time.yaml:BandBendingRecovery" } },
  };
  g_autofree char *path = g_build_filename (tmpdir, "cli.yaml", NULL);

  if (g_getenv ("XRLAB_CLI") == NULL || !g_file_test (d3, G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("xrlab-cli or the trspecfit examples not found");
      return;
    }
  for (gsize c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr(GPtrArray) a = g_ptr_array_new_with_free_func (g_free);
      g_autoptr(GPtrArray) b = g_ptr_array_new_with_free_func (g_free);
      g_autofree char *energy = g_build_filename (cases[c].dir, "models_energy.yaml", NULL);
      g_autofree char *want = NULL, *got = NULL;
      g_autoptr(XrlabModel) m = NULL;
      g_autoptr(XrlabModelSaved) saved = NULL;
      g_autoptr(GError) error = NULL;

      g_ptr_array_add (a, g_strdup_printf ("--models=%s", energy));
      g_ptr_array_add (a, g_strdup ("--model=2D"));
      for (int k = 0; k < 4 && cases[c].opts[k] != NULL; k++)
        g_ptr_array_add (a, g_strdup_printf (cases[c].opts[k], cases[c].dir));
      want = cli_params (a);

      /* the same model built here, saved, and read by xrlab-cli */
      m = xrlab_model_load (energy, "2D", &error);
      g_assert_no_error (error);
      for (int k = 0; k < 4 && cases[c].opts[k] != NULL; k++)
        {
          g_autofree char *opt = g_strdup_printf (cases[c].opts[k], cases[c].dir);
          g_auto(GStrv) kv = g_strsplit_set (opt + 2, "=:@", -1);
          g_auto(GStrv) names = g_strsplit (kv[3], ",", -1);
          gboolean ok = strcmp (kv[0], "profile") == 0
                        ? xrlab_model_add_profile (m, kv[1], kv[2], names[0], &error)
                        : xrlab_model_add_dynamics (m, kv[1], kv[2], (const char *const *) names,
                                                    g_strv_length (names),
                                                    kv[4] ? g_ascii_strtod (kv[4], NULL) : 0,
                                                    &error);
          g_assert_no_error (error);
          g_assert_true (ok);
        }
      g_assert_true (xrlab_model_save ((const XrlabModel *const *) &m, 1, path, &saved, &error));
      g_ptr_array_add (b, g_strdup_printf ("--models=%s", path));
      g_ptr_array_add (b, g_strdup ("--model=2D"));
      saved_options (saved, path, b);
      got = cli_params (b);
      g_assert_cmpstr (got, ==, want);
    }
  g_remove (path);
}

int
main (int argc, char **argv)
{
  int status;

  xrlab_init ();
  g_test_init (&argc, &argv, NULL);
  tmpdir = g_dir_make_tmp ("xrlab-model-edit-XXXXXX", NULL);
  g_assert_nonnull (tmpdir);
  g_test_add_func ("/model-write/examples", test_examples);
  g_test_add_func ("/model-write/attachments", test_attachments);
  g_test_add_func ("/model-write/syntax", test_syntax);
  g_test_add_func ("/model-write/cli", test_cli);
  g_test_add_func ("/model-edit/add-remove", test_add_remove);
  g_test_add_func ("/model-edit/move", test_move);
  g_test_add_func ("/model-edit/dynamics", test_dynamics);
  g_test_add_func ("/model-edit/profiles", test_profiles);
  g_test_add_func ("/model-edit/palette", test_palette);
  status = g_test_run ();
  {
    g_autofree char *saved = g_build_filename (tmpdir, "saved.yaml", NULL);
    g_remove (saved);
    g_rmdir (tmpdir);
  }
  g_free (tmpdir);
  return status;
}
