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

/* Multi-cycle time dependence, profiles, a parameter with both:
 * the examples 03 and 04. */
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
  const char *cycle[] = { "MonoExpNeg", "MonoExpNeg", "MonoExpPos" };

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
  status = g_test_run ();
  {
    g_autofree char *saved = g_build_filename (tmpdir, "saved.yaml", NULL);
    g_remove (saved);
    g_rmdir (tmpdir);
  }
  g_free (tmpdir);
  return status;
}
