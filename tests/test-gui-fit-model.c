/* test-gui-fit-model.c -- the Fit page's model builder, driven like a user
 * would: time dependence attached to a parameter from trspecfit's example
 * 03 (IRF, MonoExpNeg, MonoExpPos at frequency 0.25) and built from the
 * palette with subcycles, its parameters under the parameter in the table,
 * one preview transfer; a profile with time dependence of its parameter
 * (example 04); the model saved and read back by `xrlab-cli params`
 * to the same parameters; detached; structure, vary, bounds and
 * expression edits kept by the session and restored; example 21 as one
 * project of six files and its joint fit; the dialog filled in; the Fit
 * tab's own icon
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "gui-test-util.h"
#include "xrlab-application.h"
#include "xrlab-model.h"
#include "xrlab-session.h"
#include "xrlab-window.h"

static XrlabApplication *app;
static XrlabWindow *win;
static char *tmpdir;
static char *example03;     /* trspecfit's example 03, NULL: missing */

static XrlabFitPage *
page (void)
{
  return xrlab_window_get_fit_page (win);
}

static void
settle (void)
{
  xrlab_test_fit_settle (win);
}

static guint64
transfers (const char *consumer)
{
  return xrlab_test_transfers (win, consumer);
}

static gboolean
has_param (const char *name)
{
  double v;

  return xrlab_fit_page_get_param_value (page (), name, &v, NULL);
}

static gboolean
skip_without_data (void)
{
  if (example03 != NULL)
    return FALSE;
  g_test_skip ("trspecfit's example 03 ($XRLAB_SHARED_DATA/trspecfit-examples) is missing");
  return TRUE;
}

static void
open_example (void)
{
  g_autofree char *models = g_build_filename (example03, "models_energy.yaml", NULL);

  XrlabFitWorkspace ws;

  /* xrlab --models models_energy.yaml --model 2D 03_multi_cycle_dynamics */
  xrlab_fit_workspace_init (&ws);
  ws.data = g_strdup (example03);
  ws.models = g_strdup (models);
  ws.model = g_strdup ("2D");
  adw_view_stack_set_visible_child_name (xrlab_window_get_view_stack (win), "fit");
  xrlab_fit_page_open (page (), &ws);
  xrlab_fit_workspace_clear (&ws);
  settle ();
  g_assert_null (xrlab_fit_page_get_message (page ()));
  g_assert_cmpstr (xrlab_fit_page_get_workspace (page ())->models, ==, models);
  g_assert_true (has_param ("GLP_01_x0"));
}

/* `xrlab-cli params` of @models, @model with --dynamics @dynamics (NULL
 * terminated): its output. */
static char *
cli_params_full (const char *models, const char *model, char **dynamics, char **profiles)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;
  char *out = NULL;
  int status = -1;

  g_ptr_array_add (argv, g_strdup (g_getenv ("XRLAB_CLI")));
  g_ptr_array_add (argv, g_strdup ("params"));
  g_ptr_array_add (argv, g_strdup_printf ("--models=%s", models));
  g_ptr_array_add (argv, g_strdup_printf ("--model=%s", model));
  for (guint i = 0; dynamics != NULL && dynamics[i] != NULL; i++)
    g_ptr_array_add (argv, g_strdup_printf ("--dynamics=%s", dynamics[i]));
  for (guint i = 0; profiles != NULL && profiles[i] != NULL; i++)
    g_ptr_array_add (argv, g_strdup_printf ("--profile=%s", profiles[i]));
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err,
                               &status, &error));
  g_assert_no_error (error);
  if (status != 0)
    g_test_message ("xrlab-cli params: %s", err);
  g_assert_cmpint (status, ==, 0);
  return out;
}

static char *
cli_params (const char *models, const char *model, char **dynamics)
{
  return cli_params_full (models, model, dynamics, NULL);
}

static void
on_model_saved (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (xrlab_fit_page_save_model_finish (XRLAB_FIT_PAGE (source), result, &error));
  g_assert_no_error (error);
  *(gboolean *) data = TRUE;
}

static gboolean
flag_set (gpointer data)
{
  return *(gboolean *) data;
}

/* ---- from a file ------------------------------------------------------------------ */

static void
test_attach_file (void)
{
  static const char *const names[] = {
    "GLP_01_x0_gaussCONV_SD", "GLP_01_x0_expFun_01_A", "GLP_01_x0_expFun_01_tau",
    "GLP_01_x0_expFun_02_A", "GLP_01_x0_expFun_02_tau",
  };
  static const char *const models[] = { "IRF", "MonoExpNeg", "MonoExpPos", NULL };
  g_autofree char *time_models = NULL;
  g_autofree char *energy_models = NULL;
  g_autofree char *dyn = NULL;
  g_autofree char *path = g_build_filename (tmpdir, "attached.yaml", NULL);
  g_autofree char *expected = NULL;
  g_autofree char *got = NULL;
  gsize n;
  guint64 before;
  gboolean done = FALSE;

  if (skip_without_data ())
    return;
  open_example ();
  time_models = g_build_filename (example03, "models_time.yaml", NULL);
  energy_models = g_build_filename (example03, "models_energy.yaml", NULL);
  n = xrlab_fit_page_get_n_params (page ());
  g_assert_false (has_param ("GLP_01_x0_gaussCONV_SD"));

  /* Example 03's multi-cycle dynamics on the peak position: the rows of
   * its parameters appear, the preview is fetched once. */
  before = transfers ("fit-spectrum");
  xrlab_fit_page_attach_file (page (), "GLP_01_x0", FALSE, time_models, models, 0.25);
  settle ();
  g_assert_null (xrlab_fit_page_get_message (page ()));
  g_assert_cmpuint (xrlab_fit_page_get_n_params (page ()), ==, n + 7);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    g_assert_true (has_param (names[i]));
  g_assert_cmpuint (transfers ("fit-spectrum"), ==, before + 1);

  /* Saved: xrlab-cli reads the same model back as from the example's own
   * files. */
  xrlab_fit_page_save_model (page (), path, on_model_saved, &done);
  xrlab_test_wait_for (flag_set, &done, 30, "the saved model");
  settle ();
  {
    const XrlabFitWorkspace *ws = xrlab_fit_page_get_workspace (page ());
    char *orig[] = { NULL, NULL };

    g_assert_cmpstr (ws->models, ==, path);
    g_assert_cmpuint (ws->dynamics != NULL ? g_strv_length (ws->dynamics) : 0, ==, 1);
    dyn = g_strdup_printf ("GLP_01_x0=%s:IRF,MonoExpNeg,MonoExpPos@0.25", time_models);
    orig[0] = dyn;
    expected = cli_params (energy_models, "2D", orig);
    got = cli_params (ws->models, ws->model, ws->dynamics);
    g_assert_cmpstr (got, ==, expected);
  }

  /* Built further like the energy model: a function added to subcycle 1
   * (its three parameters), then removed again. */
  xrlab_fit_page_add_time_function (page (), "GLP_01_x0", FALSE, 1, "expFun");
  settle ();
  g_assert_null (xrlab_fit_page_get_message (page ()));
  g_assert_cmpuint (xrlab_fit_page_get_n_params (page ()), ==, n + 10);
  g_assert_true (has_param ("GLP_01_x0_expFun_03_tau"));
  xrlab_fit_page_remove_component (page (), "GLP_01_x0_expFun_02");
  settle ();
  g_assert_null (xrlab_fit_page_get_message (page ()));
  g_assert_cmpuint (xrlab_fit_page_get_n_params (page ()), ==, n + 7);
  g_assert_false (has_param ("GLP_01_x0_expFun_03_tau"));

  /* Detached: the rows go. */
  xrlab_fit_page_detach (page (), "GLP_01_x0", FALSE);
  settle ();
  g_assert_null (xrlab_fit_page_get_message (page ()));
  g_assert_cmpuint (xrlab_fit_page_get_n_params (page ()), ==, n);
  g_assert_false (has_param ("GLP_01_x0_gaussCONV_SD"));
}

/* ---- a profile, and time dependence of its parameter ------------------------------------ */

/* Example 04's 2D model as docs/trspecfit.md has it: the band bending
 * profile of the peak position, whose gradient recovers in time. */
static void
test_profile (void)
{
  static const char *const bending[] = { "BandBending", NULL };
  static const char *const recovery[] = { "BandBendingRecovery", NULL };
  const char *shared = g_getenv ("XRLAB_SHARED_DATA");
  g_autofree char *dir = NULL;
  g_autofree char *profiles = NULL;
  g_autofree char *times = NULL;
  g_autofree char *path = g_build_filename (tmpdir, "profile.yaml", NULL);
  XrlabFitWorkspace ws;
  gboolean done = FALSE;
  gsize n;

  if (skip_without_data ())
    return;
  {
    g_autofree char *d = g_build_filename (shared, "trspecfit-examples", "fitting_workflows",
                                           "04_parameter_profiles", NULL);
    dir = g_canonicalize_filename (d, NULL);
  }
  profiles = g_build_filename (dir, "models_profile.yaml", NULL);
  times = g_build_filename (dir, "models_time.yaml", NULL);
  xrlab_fit_workspace_init (&ws);
  ws.data = g_strdup (dir);
  ws.models = g_build_filename (dir, "models_energy.yaml", NULL);
  ws.model = g_strdup ("2D");
  xrlab_fit_page_open (page (), &ws);
  xrlab_fit_workspace_clear (&ws);
  settle ();
  g_assert_null (xrlab_fit_page_get_message (page ()));
  n = xrlab_fit_page_get_n_params (page ());

  xrlab_fit_page_attach_file (page (), "GLP_01_x0", TRUE, profiles, bending, 0);
  settle ();
  g_assert_null (xrlab_fit_page_get_message (page ()));
  g_assert_true (has_param ("GLP_01_x0_pLinear_01_m"));
  xrlab_fit_page_attach_file (page (), "GLP_01_x0_pLinear_01_m", FALSE, times, recovery, 0);
  settle ();
  g_assert_null (xrlab_fit_page_get_message (page ()));
  g_assert_cmpuint (xrlab_fit_page_get_n_params (page ()), >, n + 2);

  /* Saved, and read back by xrlab-cli as from the example's own files. */
  xrlab_fit_page_save_model (page (), path, on_model_saved, &done);
  xrlab_test_wait_for (flag_set, &done, 30, "the saved model");
  settle ();
  {
    const XrlabFitWorkspace *w = xrlab_fit_page_get_workspace (page ());
    g_autofree char *prof = g_strdup_printf ("GLP_01_x0=%s:BandBending", profiles);
    g_autofree char *dyn = g_strdup_printf ("GLP_01_x0_pLinear_01_m=%s:BandBendingRecovery", times);
    char *orig_prof[] = { prof, NULL };
    char *orig_dyn[] = { dyn, NULL };
    g_autofree char *expected = NULL;
    g_autofree char *got = NULL;
    g_autofree char *energy = g_build_filename (dir, "models_energy.yaml", NULL);

    g_assert_cmpuint (w->profiles != NULL ? g_strv_length (w->profiles) : 0, ==, 1);
    expected = cli_params_full (energy, "2D", orig_dyn, orig_prof);
    got = cli_params_full (w->models, w->model, w->dynamics, w->profiles);
    g_assert_cmpstr (got, ==, expected);
  }

  /* The profile detached, with the time dependence of its parameter. */
  xrlab_fit_page_detach (page (), "GLP_01_x0", TRUE);
  settle ();
  g_assert_null (xrlab_fit_page_get_message (page ()));
  g_assert_cmpuint (xrlab_fit_page_get_n_params (page ()), ==, n);
}

/* ---- built from the palette ---------------------------------------------------------- */

static void
test_attach_new (void)
{
  static const char *const cycles[] = { "gaussCONV", "expFun", "expFun", NULL };
  static const char *const bad[] = { "GLP", NULL };
  gsize n;

  if (skip_without_data ())
    return;
  open_example ();
  n = xrlab_fit_page_get_n_params (page ());
  xrlab_fit_page_attach_new (page (), "GLP_01_A", FALSE, cycles, 0.5);
  settle ();
  g_assert_null (xrlab_fit_page_get_message (page ()));
  g_assert_true (has_param ("GLP_01_A_gaussCONV_SD"));
  g_assert_true (has_param ("GLP_01_A_expFun_01_tau"));
  g_assert_true (has_param ("GLP_01_A_expFun_02_tau"));
  g_assert_cmpuint (xrlab_fit_page_get_n_params (page ()), >, n + 5);

  /* Not a time function: refused with its message, the model kept. */
  n = xrlab_fit_page_get_n_params (page ());
  xrlab_fit_page_attach_new (page (), "GLP_01_F", FALSE, bad, 0);
  settle ();
  g_assert_nonnull (xrlab_fit_page_get_message (page ()));
  g_assert_nonnull (strstr (xrlab_fit_page_get_message (page ()), "GLP"));
  g_assert_cmpuint (xrlab_fit_page_get_n_params (page ()), ==, n);

  xrlab_fit_page_detach (page (), "GLP_01_A", FALSE);
  settle ();
  g_assert_false (has_param ("GLP_01_A_gaussCONV_SD"));
}

/* ---- the session -------------------------------------------------------------------- */

/* The widget of the parameter table at column @col of the row of @name
 * (0 the name, 1 value, 2 vary, 3 min, 4 max, 5 expression). */
static GtkWidget *
table_cell (GtkWidget *w, const char *name, int col)
{
  GtkWidget *found = NULL;

  if (GTK_IS_GRID (w))
    for (int line = 1; line < 400 && found == NULL; line += 2)
      {
        GtkWidget *label = gtk_grid_get_child_at (GTK_GRID (w), 0, line);
        const char *tip = label != NULL ? gtk_widget_get_tooltip_text (label) : NULL;

        if (label == NULL)
          break;
        if (GTK_IS_LABEL (label)
            && (g_strcmp0 (gtk_label_get_text (GTK_LABEL (label)), name) == 0 || g_strcmp0 (tip, name) == 0))
          found = gtk_grid_get_child_at (GTK_GRID (w), col, line);
      }
  for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL && found == NULL; c = gtk_widget_get_next_sibling (c))
    found = table_cell (c, name, col);
  return found;
}

/* The model menu of the toolbar: the drop-down that lists "2D". */
static GtkWidget *
model_menu (GtkWidget *w)
{
  if (GTK_IS_DROP_DOWN (w) && GTK_IS_STRING_LIST (gtk_drop_down_get_model (GTK_DROP_DOWN (w))))
    {
      GtkStringList *l = GTK_STRING_LIST (gtk_drop_down_get_model (GTK_DROP_DOWN (w)));
      for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (l)); i++)
        if (g_strcmp0 (gtk_string_list_get_string (l, i), "2D") == 0)
          return w;
    }
  for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = model_menu (c);
      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
type_into (const char *name, int col, const char *text)
{
  GtkWidget *entry = table_cell (GTK_WIDGET (page ()), name, col);

  g_assert_true (GTK_IS_ENTRY (entry));
  gtk_editable_set_text (GTK_EDITABLE (entry), text);
  g_signal_emit_by_name (entry, "activate");
}

static void
test_session (void)
{
  static const char *const models[] = { "IRF", "MonoExpNeg", "MonoExpPos", NULL };
  g_autofree char *time_models = NULL;
  g_autofree char *json = NULL;
  g_autofree char *bad = NULL;
  g_autofree char *state = g_build_filename (g_get_user_state_dir (), "xrlab", "fit-models", NULL);
  g_autoptr(XrlabSession) saved = NULL;
  g_autoptr(XrlabSession) loaded = NULL;
  g_autoptr(GError) error = NULL;
  const XrlabSessionFit *f;
  GtkWidget *vary;

  if (skip_without_data ())
    return;
  open_example ();
  time_models = g_build_filename (example03, "models_time.yaml", NULL);

  /* Structure edits: a component added, time dependence attached; then
   * vary, bounds and an expression. */
  xrlab_fit_page_add_component (page (), "Gauss");
  settle ();
  xrlab_fit_page_attach_file (page (), "GLP_01_x0", FALSE, time_models, models, 0.25);
  settle ();
  g_assert_true (has_param ("Gauss_01_A"));
  g_assert_true (has_param ("GLP_01_x0_expFun_01_tau"));
  vary = table_cell (GTK_WIDGET (page ()), "GLP_01_F", 2);
  g_assert_true (GTK_IS_CHECK_BUTTON (vary));
  gtk_check_button_set_active (GTK_CHECK_BUTTON (vary), TRUE);
  settle ();
  type_into ("GLP_01_F", 3, "1");
  settle ();
  type_into ("GLP_01_F", 4, "2");
  settle ();
  type_into ("GLP_01_m", 5, "GLP_01_F / 5");
  settle ();
  g_assert_null (xrlab_fit_page_get_message (page ()));

  /* The session names the kept model, which has them all. */
  saved = xrlab_window_get_session (win);
  f = xrlab_session_get_fit (saved);
  g_assert_nonnull (f);
  g_assert_true (g_str_has_prefix (f->models, state));
  g_assert_cmpstr (f->model, ==, "2D");
  g_assert_cmpuint (f->dynamics != NULL ? g_strv_length (f->dynamics) : 0, ==, 1);
  json = xrlab_session_to_json (saved, NULL);
  loaded = xrlab_session_from_json (json, -1, &error);
  g_assert_no_error (error);
  g_assert_true (xrlab_session_equal (saved, loaded));

  /* The model menu still offers the other models of the file the edits
   * started from. */
  {
    GtkWidget *menu = model_menu (GTK_WIDGET (page ()));
    GListModel *names;
    guint k = 0;

    g_assert_nonnull (menu);
    names = gtk_drop_down_get_model (GTK_DROP_DOWN (menu));
    while (k < g_list_model_get_n_items (names)
           && g_strcmp0 (gtk_string_list_get_string (GTK_STRING_LIST (names), k), "SbS") != 0)
      k++;
    g_assert_cmpuint (k, <, g_list_model_get_n_items (names));
    gtk_drop_down_set_selected (GTK_DROP_DOWN (menu), k);
    settle ();
    g_assert_null (xrlab_fit_page_get_message (page ()));
    g_assert_cmpstr (xrlab_fit_page_get_workspace (page ())->model, ==, "SbS");
    g_assert_false (has_param ("Gauss_01_A"));
  }

  /* Another workspace, then the session's again: the edits are back. */
  xrlab_fit_page_open_path (page (), example03);
  settle ();
  g_assert_false (has_param ("Gauss_01_A"));
  xrlab_window_apply_session (win, loaded);
  settle ();
  g_assert_null (xrlab_fit_page_get_message (page ()));
  g_assert_true (has_param ("Gauss_01_A"));
  g_assert_true (has_param ("GLP_01_x0_expFun_01_tau"));
  g_assert_true (gtk_check_button_get_active (GTK_CHECK_BUTTON (table_cell (GTK_WIDGET (page ()), "GLP_01_F", 2))));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (table_cell (GTK_WIDGET (page ()), "GLP_01_F", 3))), ==, "1");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (table_cell (GTK_WIDGET (page ()), "GLP_01_F", 4))), ==, "2");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (table_cell (GTK_WIDGET (page ()), "GLP_01_m", 5))), ==,
                   "GLP_01_F / 5");

  /* A corrupt member is refused, naming it. */
  {
    GString *b = g_string_new (json);
    g_assert_cmpuint (g_string_replace (b, "\"dynamics\": [", "\"profiles\": 5, \"dynamics\": [", 1), ==, 1);
    bad = g_string_free (b, FALSE);
  }
  g_assert_null (xrlab_session_from_json (bad, -1, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "fit.profiles"));
}

/* ---- a project of six files ----------------------------------------------------------- */

static gboolean
fit_done (gpointer data)
{
  return !xrlab_fit_page_is_fitting (page ()) && !xrlab_fit_page_is_busy (page ());
}

static void
test_project (void)
{
  const char *shared = g_getenv ("XRLAB_SHARED_DATA");
  g_autofree char *dir = NULL;
  g_autofree char *dyn = NULL;
  XrlabFitWorkspace ws;
  double v = NAN, e = NAN;

  /* (example 03 is opened in between; without it, XRLAB_SHARED_DATA is missing) */
  if (skip_without_data ())
    return;
  {
    g_autofree char *d = g_build_filename (shared, "trspecfit-examples", "fitting_workflows",
                                           "21_multi_file_shared_fit", NULL);
    dir = g_canonicalize_filename (d, NULL);
  }
  if (!g_file_test (dir, G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("trspecfit's example 21 is missing");
      return;
    }
  /* as docs/trspecfit.md fits it with xrlab-cli */
  xrlab_fit_workspace_init (&ws);
  ws.data = g_strdup (dir);
  ws.models = g_build_filename (dir, "models_energy.yaml", NULL);
  ws.model = g_strdup ("2D");
  ws.baseline_model = g_strdup ("base");
  dyn = g_strdup_printf ("GLP_01_x0=%s/models_time.yaml:MonoExpPosIRF", dir);
  ws.dynamics = g_new0 (char *, 2);
  ws.dynamics[0] = g_strdup (dyn);
  ws.b0 = -20, ws.b1 = -9, ws.e0 = 5, ws.e1 = 18, ws.t0 = -20, ws.t1 = 99;
  adw_view_stack_set_visible_child_name (xrlab_window_get_view_stack (win), "fit");
  xrlab_fit_page_open (page (), &ws);
  xrlab_fit_workspace_clear (&ws);
  settle ();
  g_assert_null (xrlab_fit_page_get_message (page ()));

  /* The six files, the first shown. */
  g_assert_cmpuint (xrlab_fit_page_get_n_files (page ()), ==, 6);
  for (guint i = 0; i < 6; i++)
    {
      g_autofree char *base = g_path_get_basename (xrlab_fit_page_get_file (page (), i));
      g_autofree char *want = g_strdup_printf ("data_%u.csv", i + 1);
      g_assert_cmpstr (base, ==, want);
    }
  g_assert_cmpuint (xrlab_fit_page_get_shown_file (page ()), ==, 0);

  /* Another file shown, with the same model; then the first again. */
  xrlab_fit_page_select_file (page (), 2);
  settle ();
  g_assert_null (xrlab_fit_page_get_message (page ()));
  g_assert_cmpstr (xrlab_fit_page_get_workspace (page ())->data, ==, xrlab_fit_page_get_file (page (), 2));
  g_assert_cmpuint (xrlab_fit_page_get_n_files (page ()), ==, 6);
  g_assert_cmpuint (xrlab_fit_page_get_shown_file (page ()), ==, 2);
  g_assert_true (has_param ("GLP_01_x0_expFun_01_tau"));
  /* a session names the file shown: opened alone, it is the project's */
  {
    XrlabFitWorkspace again;

    xrlab_fit_workspace_copy (&again, xrlab_fit_page_get_workspace (page ()));
    xrlab_fit_page_open_path (page (), example03);
    settle ();
    g_assert_cmpuint (xrlab_fit_page_get_n_files (page ()), ==, 0);
    xrlab_fit_page_open (page (), &again);
    xrlab_fit_workspace_clear (&again);
    settle ();
    g_assert_cmpuint (xrlab_fit_page_get_n_files (page ()), ==, 6);
    g_assert_cmpuint (xrlab_fit_page_get_shown_file (page ()), ==, 2);
  }
  xrlab_fit_page_select_file (page (), 0);
  settle ();
  g_assert_cmpuint (xrlab_fit_page_get_shown_file (page ()), ==, 0);

  /* The model's "project" and "file" parameters, as the table has them;
   * one made per file and back. */
  g_assert_cmpint (xrlab_fit_page_get_param_share (page (), "GLP_01_x0_expFun_01_tau"), ==, XRLAB_PARAM_SHARE_PROJECT);
  g_assert_cmpint (xrlab_fit_page_get_param_share (page (), "GLP_01_x0_expFun_01_A"), ==, XRLAB_PARAM_SHARE_FILE);
  g_assert_cmpint (xrlab_fit_page_get_param_share (page (), "GLP_01_x0"), ==, XRLAB_PARAM_SHARE_NONE);
  xrlab_fit_page_set_param_share (page (), "GLP_01_x0_gaussCONV_SD", XRLAB_PARAM_SHARE_FILE);
  settle ();
  g_assert_cmpint (xrlab_fit_page_get_param_share (page (), "GLP_01_x0_gaussCONV_SD"), ==, XRLAB_PARAM_SHARE_FILE);
  xrlab_fit_page_set_param_share (page (), "GLP_01_x0_gaussCONV_SD", XRLAB_PARAM_SHARE_PROJECT);
  settle ();
  g_assert_cmpint (xrlab_fit_page_get_param_share (page (), "GLP_01_x0_gaussCONV_SD"), ==, XRLAB_PARAM_SHARE_PROJECT);
  g_assert_null (xrlab_fit_page_get_message (page ()));

  /* The joint fit: the numbers of xrlab-cli fit (docs/trspecfit.md). */
  xrlab_fit_page_run_project (page ());
  g_assert_true (xrlab_fit_page_is_fitting (page ()));
  xrlab_test_wait_for (fit_done, NULL, 300, "the project fit");
  settle ();
  g_assert_null (xrlab_fit_page_get_message (page ()));
  g_assert_true (xrlab_fit_page_get_shared_value (page (), "GLP_01_x0_gaussCONV_SD", &v, &e));
  g_assert_cmpfloat_with_epsilon (v, 2.988, 0.01);
  g_assert_true (isfinite (e) && e > 0);
  g_assert_true (xrlab_fit_page_get_shared_value (page (), "GLP_01_x0_expFun_01_tau", &v, NULL));
  g_assert_cmpfloat_with_epsilon (v, 50.08, 0.1);
  /* each file's own amplitude: the shown file's in the table, every file's
   * in the summary */
  g_assert_true (xrlab_fit_page_get_param_value (page (), "GLP_01_x0_expFun_01_A", &v, &e));
  g_assert_cmpfloat_with_epsilon (v, 4.976, 0.01);
  {
    const char *summary = xrlab_fit_page_get_project_summary (page ());
    guint n = 0;

    for (const char *q = summary; (q = strstr (q, "GLP_01_x0_expFun_01_A =")) != NULL; q++)
      n++;
    g_assert_cmpuint (n, ==, 6);
    g_assert_nonnull (strstr (summary, "data_1.csv:"));
    g_assert_nonnull (strstr (summary, "data_6.csv:"));
  }
  g_assert_nonnull (strstr (xrlab_fit_page_get_project_summary (page ()), "GLP_01_x0_expFun_01_tau"));

  /* Kept with the workspace (the session's): opened again, the file's own
   * fitted value and error and the joint summary come back. */
  {
    const XrlabFitWorkspace *kept = xrlab_fit_page_get_workspace (page ());
    XrlabFitWorkspace again;
    double own = NAN, own_err = NAN, back = NAN, back_err = NAN;

    g_assert_true (xrlab_fit_page_get_param_value (page (), "GLP_01_x0_expFun_01_A", &own, &own_err));
    g_assert_nonnull (kept->project_summary);
    g_assert_nonnull (strstr (kept->project_summary, "data_6.csv:"));
    g_assert_true (isfinite (xrlab_fit_workspace_get_error (kept, "GLP_01_x0_expFun_01_A")));
    xrlab_fit_workspace_copy (&again, kept);
    xrlab_fit_page_open_path (page (), example03);
    settle ();
    g_assert_cmpstr (xrlab_fit_page_get_project_summary (page ()), ==, "");
    xrlab_fit_page_open (page (), &again);
    xrlab_fit_workspace_clear (&again);
    settle ();
    g_assert_true (xrlab_fit_page_get_param_value (page (), "GLP_01_x0_expFun_01_A", &back, &back_err));
    g_assert_cmpfloat (back, ==, own);
    g_assert_cmpfloat (back_err, ==, own_err);
    g_assert_nonnull (strstr (xrlab_fit_page_get_project_summary (page ()), "kept with the session"));
    g_assert_nonnull (strstr (xrlab_fit_page_get_project_summary (page ()), "data_6.csv:"));
  }
}

/* ---- the dialog ------------------------------------------------------------------------ */

/* The first widget under @w of @type whose label (a check button's, a
 * button's) is @label; any of @type when @label is NULL. */
static GtkWidget *
find_widget (GtkWidget *w, GType type, const char *label)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (w, type))
    {
      const char *l = GTK_IS_CHECK_BUTTON (w) ? gtk_check_button_get_label (GTK_CHECK_BUTTON (w))
                      : GTK_IS_BUTTON (w)     ? gtk_button_get_label (GTK_BUTTON (w))
                                              : NULL;
      if (label == NULL || g_strcmp0 (l, label) == 0)
        return w;
    }
  for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_widget (c, type, label);
      if (found != NULL)
        return found;
    }
  return NULL;
}

static gboolean
window_gone (gpointer data)
{
  return *(gboolean *) data;
}

static void
on_gone (gpointer data, GObject *where)
{
  *(gboolean *) data = TRUE;
}

/* The dialog as a user fills it: example 03's three models, the frequency,
 * Attach; without the frequency first, which it refuses. */
static void
test_dialog (void)
{
  static const char *const models[] = { "IRF", "MonoExpNeg", "MonoExpPos" };
  GtkWindow *dialog;
  GtkWidget *attach, *entry;
  gboolean gone = FALSE;
  gsize n;

  if (skip_without_data ())
    return;
  open_example ();
  n = xrlab_fit_page_get_n_params (page ());
  dialog = xrlab_fit_page_show_attach_dialog (page (), "GLP_01_x0", FALSE);
  g_assert_nonnull (dialog);
  g_object_weak_ref (G_OBJECT (dialog), on_gone, &gone);
  xrlab_test_spin (0.2);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (dialog)));
  g_assert_nonnull (strstr (gtk_window_get_title (dialog), "GLP_01_x0"));
  /* the time models beside the energy models: models_time.yaml */
  for (guint i = 0; i < G_N_ELEMENTS (models); i++)
    {
      GtkWidget *check = find_widget (GTK_WIDGET (dialog), GTK_TYPE_CHECK_BUTTON, models[i]);
      g_assert_nonnull (check);
      gtk_check_button_set_active (GTK_CHECK_BUTTON (check), TRUE);
    }
  attach = find_widget (GTK_WIDGET (dialog), GTK_TYPE_BUTTON, "_Attach");
  g_assert_nonnull (attach);
  g_signal_emit_by_name (attach, "clicked");
  xrlab_test_spin (0.1);
  g_assert_false (gone);
  g_assert_cmpuint (xrlab_fit_page_get_n_params (page ()), ==, n);

  entry = find_widget (GTK_WIDGET (dialog), GTK_TYPE_ENTRY, NULL);
  g_assert_nonnull (entry);
  gtk_editable_set_text (GTK_EDITABLE (entry), "0.25");
  g_signal_emit_by_name (attach, "clicked");
  xrlab_test_wait_for (window_gone, &gone, 10, "the dialog to close");
  settle ();
  g_assert_null (xrlab_fit_page_get_message (page ()));
  g_assert_cmpuint (xrlab_fit_page_get_n_params (page ()), ==, n + 7);
  g_assert_true (has_param ("GLP_01_x0_expFun_02_tau"));
  xrlab_fit_page_detach (page (), "GLP_01_x0", FALSE);
  settle ();
}

/* ---- the tab ----------------------------------------------------------------------------- */

static void
test_icon (void)
{
  AdwViewStack *stack = xrlab_window_get_view_stack (win);
  AdwViewStackPage *fit = adw_view_stack_get_page (stack, adw_view_stack_get_child_by_name (stack, "fit"));
  AdwViewStackPage *plot = adw_view_stack_get_page (stack, adw_view_stack_get_child_by_name (stack, "plot"));
  GtkIconTheme *theme = gtk_icon_theme_get_for_display (gtk_widget_get_display (GTK_WIDGET (win)));

  g_assert_cmpstr (adw_view_stack_page_get_icon_name (fit), !=, adw_view_stack_page_get_icon_name (plot));
  g_assert_true (gtk_icon_theme_has_icon (theme, adw_view_stack_page_get_icon_name (fit)));
}

int
main (int argc, char *argv[])
{
  const char *shared = g_getenv ("XRLAB_SHARED_DATA");
  int status;

  tmpdir = xrlab_test_private_state ("xrlab-fit-model-XXXXXX");
  if (shared != NULL)
    {
      g_autofree char *path = g_build_filename (shared, "trspecfit-examples", "fitting_workflows",
                                                "03_multi_cycle_dynamics", NULL);
      example03 = g_canonicalize_filename (path, NULL);
      if (!g_file_test (example03, G_FILE_TEST_IS_DIR))
        g_clear_pointer (&example03, g_free);
    }
  g_test_init (&argc, &argv, NULL);
  app = xrlab_test_app_start (FALSE, &win);
  xrlab_test_spin (0.3);

  g_test_add_func ("/fit-model/icon", test_icon);
  g_test_add_func ("/fit-model/attach-file", test_attach_file);
  g_test_add_func ("/fit-model/attach-new", test_attach_new);
  g_test_add_func ("/fit-model/profile", test_profile);
  g_test_add_func ("/fit-model/session", test_session);
  g_test_add_func ("/fit-model/project", test_project);
  g_test_add_func ("/fit-model/dialog", test_dialog);
  status = g_test_run ();

  xrlab_test_app_stop (&app, win, tmpdir);
  g_free (example03);
  return status;
}
