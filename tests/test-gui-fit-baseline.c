/* test-gui-fit-baseline.c -- the Fit page's baseline model, chosen as a
 * user would: trspecfit's example 01 opened without one, "base" chosen in
 * the toolbar's chooser (the Baseline button and the table's section
 * appear), the baseline fit run with the button and its parameters equal
 * to those of `xrlab-cli fit --baseline-model base` on the same setup;
 * baseline parameters edited in the table and kept by the session; a
 * session naming a baseline model its file lacks (a message, the rest
 * opened); "None" (the button and the section gone); the command line's
 * --baseline-model shown in the chooser
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
static char *example01;     /* trspecfit's example 01, NULL: missing */

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

static gboolean
skip_without_data (void)
{
  if (example01 != NULL)
    return FALSE;
  g_test_skip ("trspecfit's example 01 ($XRLAB_SHARED_DATA/trspecfit-examples) is missing");
  return TRUE;
}

static char *
in_example (const char *name)
{
  return g_build_filename (example01, name, NULL);
}

static char *
dynamics (void)
{
  g_autofree char *time_models = in_example ("models_time.yaml");

  return g_strdup_printf ("GLP_01_x0=%s:MonoExpIRF", time_models);
}

/* The button of the toolbar labelled @label. */
static GtkWidget *
find_button (GtkWidget *w, const char *label)
{
  if (GTK_IS_BUTTON (w) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (w)), label) == 0)
    return w;
  for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_button (c, label);
      if (found != NULL)
        return found;
    }
  return NULL;
}

static GtkWidget *
baseline_button (void)
{
  GtkWidget *b = find_button (GTK_WIDGET (page ()), "_Baseline");

  g_assert_nonnull (b);
  return b;
}

/* The chooser's entries: "None", then the models of the file. */
static guint
choice_index (const char *name)
{
  GListModel *names = gtk_drop_down_get_model (xrlab_fit_page_get_baseline_choice (page ()));

  for (guint i = 0; i < g_list_model_get_n_items (names); i++)
    if (g_strcmp0 (gtk_string_list_get_string (GTK_STRING_LIST (names), i), name) == 0)
      return i;
  g_error ("the baseline chooser does not list %s", name);
  return 0;
}

static const char *
chosen (void)
{
  GtkDropDown *d = xrlab_fit_page_get_baseline_choice (page ());

  return gtk_string_list_get_string (GTK_STRING_LIST (gtk_drop_down_get_model (d)), gtk_drop_down_get_selected (d));
}

/* As a user picks an entry of the drop-down. */
static void
choose (const char *name)
{
  gtk_drop_down_set_selected (xrlab_fit_page_get_baseline_choice (page ()), choice_index (name));
  settle ();
}

static gboolean
not_fitting (gpointer data)
{
  return !xrlab_fit_page_is_fitting (page ());
}

/* xrlab --models models_energy.yaml --model 2D --dynamics GLP_01_x0=models_time.yaml:MonoExpIRF
 *       --elim 5:18 --tlim=-20:100 --baseline=-20:-10 01_basic_fitting (no baseline model) */
static void
open_example (void)
{
  g_autofree char *dyn = dynamics ();
  char *dyns[] = { dyn, NULL };
  XrlabFitWorkspace ws;

  xrlab_fit_workspace_init (&ws);
  ws.data = g_strdup (example01);
  ws.models = in_example ("models_energy.yaml");
  ws.model = g_strdup ("2D");
  ws.dynamics = g_strdupv (dyns);
  ws.e0 = 5, ws.e1 = 18, ws.t0 = -20, ws.t1 = 100;
  ws.b0 = -20, ws.b1 = -10;
  adw_view_stack_set_visible_child_name (xrlab_window_get_view_stack (win), "fit");
  xrlab_fit_page_open (page (), &ws);
  xrlab_fit_workspace_clear (&ws);
  settle ();
  g_assert_null (xrlab_fit_page_get_message (page ()));
}

/* name -> value, stderr of a result file of xrlab-cli fit */
static GHashTable *
read_params (const char *dir, const char *file)
{
  g_autofree char *path = g_build_filename (dir, file, NULL);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  GHashTable *t = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  g_assert_true (g_str_has_prefix (lines[0], "name,value,stderr,"));
  for (guint i = 1; lines[i] != NULL && *lines[i] != '\0'; i++)
    {
      g_auto(GStrv) f = g_strsplit (lines[i], ",", -1);
      double *v = g_new (double, 2);

      g_assert_cmpuint (g_strv_length (f), >=, 3);
      v[0] = g_ascii_strtod (f[1], NULL);
      v[1] = *f[2] != '\0' ? g_ascii_strtod (f[2], NULL) : NAN;
      g_hash_table_insert (t, g_strdup (f[0]), v);
    }
  return t;
}

static void
assert_close (double a, double b, const char *what)
{
  if (!(fabs (a - b) <= 1e-9 * MAX (fabs (b), 1e-300)) && !(isnan (a) && isnan (b)))
    g_error ("%s: %.17g in the window, %.17g from xrlab-cli", what, a, b);
}

/* ---- choosing the baseline model ----------------------------------------------------------- */

static void
test_choose (void)
{
  g_autofree char *out = g_build_filename (tmpdir, "cli-01", NULL);
  g_autofree char *models = NULL, *dyn = NULL, *data = NULL, *energy = NULL, *time = NULL;
  g_autofree char *stdout_text = NULL, *stderr_text = NULL;
  g_autoptr(GHashTable) cli = NULL;
  GHashTableIter it;
  gpointer key, value;
  guint n = 0;

  if (skip_without_data ())
    return;
  open_example ();
  /* No baseline model yet: no Baseline button, no section. */
  g_assert_cmpstr (chosen (), ==, "None");
  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (xrlab_fit_page_get_baseline_choice (page ()))));
  g_assert_false (gtk_widget_get_visible (baseline_button ()));
  g_assert_cmpuint (xrlab_fit_page_get_n_baseline_params (page ()), ==, 0);
  /* The models of the file, as the model chooser lists them. */
  choice_index ("SbS");
  choice_index ("2D");

  choose ("base");
  g_assert_null (xrlab_fit_page_get_message (page ()));
  g_assert_cmpstr (xrlab_fit_page_get_workspace (page ())->baseline_model, ==, "base");
  g_assert_cmpstr (xrlab_fit_page_get_workspace (page ())->model, ==, "2D");
  g_assert_cmpstr (chosen (), ==, "base");
  g_assert_true (gtk_widget_get_visible (baseline_button ()));
  /* base: LinBack m, b, xStart, xStop and GLP A, x0, F, m */
  g_assert_cmpuint (xrlab_fit_page_get_n_baseline_params (page ()), ==, 8);
  g_assert_true (xrlab_fit_page_get_param_value (page (), "GLP_01_x0_expFun_01_tau", NULL, NULL));
  /* the baseline model's own start values (the 2D model's A is 12) */
  {
    double a = NAN;
    g_assert_true (xrlab_fit_page_get_baseline_param_value (page (), "GLP_01_A", &a, NULL));
    g_assert_cmpfloat (a, ==, 10);
  }

  /* The Baseline button, clicked. */
  g_signal_emit_by_name (baseline_button (), "clicked");
  g_assert_true (xrlab_fit_page_is_fitting (page ()));
  xrlab_test_wait_for (not_fitting, NULL, 120, "the baseline fit");
  settle ();
  g_assert_null (xrlab_fit_page_get_message (page ()));
  g_assert_nonnull (strstr (xrlab_fit_page_get_summary (page ()), "Baseline"));

  /* xrlab-cli fit on the same setup */
  models = in_example ("models_energy.yaml");
  dyn = dynamics ();
  data = in_example ("data/data.csv");
  energy = in_example ("data/energy.csv");
  time = in_example ("data/time.csv");
  g_assert_cmpint (xrlab_test_cli (&stdout_text, &stderr_text, "fit", "--models", models, "--model", "2D",
                                   "--dynamics", dyn, "--data", data, "--energy", energy, "--time", time,
                                   "--baseline-model", "base", "--baseline=-20:-10", "--elim", "5:18",
                                   "--tlim=-20:100", "-o", out, NULL), ==, 0);
  cli = read_params (out, "baseline_params.csv");
  g_assert_cmpuint (g_hash_table_size (cli), ==, 8);
  g_hash_table_iter_init (&it, cli);
  while (g_hash_table_iter_next (&it, &key, &value))
    {
      const double *v = value;
      double shown = NAN, err = NAN;
      g_autofree char *what = g_strdup_printf ("baseline %s", (const char *) key);
      g_autofree char *what_err = g_strdup_printf ("the error of baseline %s", (const char *) key);

      g_assert_true (xrlab_fit_page_get_baseline_param_value (page (), key, &shown, &err));
      assert_close (shown, v[0], what);
      assert_close (err, v[1], what_err);
      if (isfinite (v[1]))
        {
          /* shown as ± error */
          GtkWidget *label = xrlab_fit_page_get_baseline_param_cell (page (), key, 6);
          g_assert_true (g_str_has_prefix (gtk_label_get_text (GTK_LABEL (label)), "± "));
          n++;
        }
    }
  /* the free parameters: LinBack m, b and GLP A, x0, F, m */
  g_assert_cmpuint (n, ==, 6);
  xrlab_test_rm_rf (out);
}

/* ---- editing it, and the session ---------------------------------------------------------- */

static void
test_edit_session (void)
{
  g_autofree char *state = g_build_filename (g_get_user_state_dir (), "xrlab", "fit-models", NULL);
  g_autoptr(XrlabSession) saved = NULL, loaded = NULL, bad = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL;
  const XrlabSessionFit *f;
  GtkWidget *entry, *vary;
  double v = NAN;

  if (skip_without_data ())
    return;
  g_assert_cmpstr (chosen (), ==, "base");
  /* A start value typed, a bound set, a parameter freed: the baseline
   * model's; the main model's of the same names stay. */
  entry = xrlab_fit_page_get_baseline_param_cell (page (), "GLP_01_A", 1);
  g_assert_true (GTK_IS_ENTRY (entry));
  gtk_editable_set_text (GTK_EDITABLE (entry), "11.5");
  settle ();
  g_assert_true (xrlab_fit_page_get_baseline_param_value (page (), "GLP_01_A", &v, NULL));
  g_assert_cmpfloat (v, ==, 11.5);
  entry = xrlab_fit_page_get_baseline_param_cell (page (), "GLP_01_F", 4);
  gtk_editable_set_text (GTK_EDITABLE (entry), "2.25");
  g_signal_emit_by_name (entry, "activate");
  vary = xrlab_fit_page_get_baseline_param_cell (page (), "LinBack_xStart", 2);
  g_assert_false (gtk_check_button_get_active (GTK_CHECK_BUTTON (vary)));
  gtk_check_button_set_active (GTK_CHECK_BUTTON (vary), TRUE);
  settle ();
  g_assert_null (xrlab_fit_page_get_baseline_param_error (page (), "GLP_01_F"));
  g_assert_null (xrlab_fit_page_get_message (page ()));
  g_assert_true (xrlab_fit_page_get_param_value (page (), "GLP_01_A", &v, NULL));
  g_assert_cmpfloat (v, !=, 11.5);

  /* A typed text that is no number is marked at its row. */
  entry = xrlab_fit_page_get_baseline_param_cell (page (), "GLP_01_m", 1);
  gtk_editable_set_text (GTK_EDITABLE (entry), "0.3x");
  settle ();
  g_assert_nonnull (xrlab_fit_page_get_baseline_param_error (page (), "GLP_01_m"));
  gtk_editable_set_text (GTK_EDITABLE (entry), "0.35");
  settle ();
  g_assert_null (xrlab_fit_page_get_baseline_param_error (page (), "GLP_01_m"));

  /* The session names the kept model file, which has both models. */
  saved = xrlab_window_get_session (win);
  f = xrlab_session_get_fit (saved);
  g_assert_nonnull (f);
  g_assert_true (g_str_has_prefix (f->models, state));
  g_assert_cmpstr (f->model, ==, "2D");
  g_assert_cmpstr (f->baseline_model, ==, "base");
  json = xrlab_session_to_json (saved, NULL);
  loaded = xrlab_session_from_json (json, -1, &error);
  g_assert_no_error (error);

  /* Another workspace without one, then the session's: the choice and the
   * edits are back. */
  open_example ();
  g_assert_cmpstr (chosen (), ==, "None");
  g_assert_cmpuint (xrlab_fit_page_get_n_baseline_params (page ()), ==, 0);
  xrlab_window_apply_session (win, loaded);
  settle ();
  g_assert_null (xrlab_fit_page_get_message (page ()));
  g_assert_cmpstr (chosen (), ==, "base");
  g_assert_true (gtk_widget_get_visible (baseline_button ()));
  g_assert_true (xrlab_fit_page_get_baseline_param_value (page (), "GLP_01_A", &v, NULL));
  g_assert_cmpfloat (v, ==, 11.5);
  g_assert_true (xrlab_fit_page_get_baseline_param_value (page (), "GLP_01_m", &v, NULL));
  g_assert_cmpfloat (v, ==, 0.35);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (xrlab_fit_page_get_baseline_param_cell (page (),
                                                                                                "GLP_01_F", 4))),
                   ==, "2.25");
  g_assert_true (gtk_check_button_get_active (GTK_CHECK_BUTTON (
    xrlab_fit_page_get_baseline_param_cell (page (), "LinBack_xStart", 2))));

  /* A session naming a baseline model that its file lacks: said, and the
   * rest opened. */
  {
    GString *b = g_string_new (json);
    g_assert_cmpuint (g_string_replace (b, "\"baseline_model\": \"base\"", "\"baseline_model\": \"gone\"", 1),
                      ==, 1);
    g_free (json);
    json = g_string_free (b, FALSE);
  }
  bad = xrlab_session_from_json (json, -1, &error);
  g_assert_no_error (error);
  xrlab_window_apply_session (win, bad);
  settle ();
  g_assert_nonnull (xrlab_fit_page_get_message (page ()));
  g_assert_nonnull (strstr (xrlab_fit_page_get_message (page ()), "“gone”"));
  g_assert_null (xrlab_fit_page_get_workspace (page ())->baseline_model);
  g_assert_cmpstr (xrlab_fit_page_get_workspace (page ())->model, ==, "2D");
  g_assert_true (xrlab_map_view_has_map (xrlab_fit_page_get_map_view (page ())));
  g_assert_true (xrlab_fit_page_get_param_value (page (), "GLP_01_x0_expFun_01_tau", NULL, NULL));
  g_assert_cmpstr (chosen (), ==, "None");
  g_assert_false (gtk_widget_get_visible (baseline_button ()));
  g_assert_cmpuint (xrlab_fit_page_get_n_baseline_params (page ()), ==, 0);
}

/* ---- a baseline model for an edited model ------------------------------------------------- */

/* The main model edited (kept in a file of the state folder), then a
 * baseline model chosen from the file the edits started from: the edits
 * stay, and the kept file has both models. */
static void
test_edited_model (void)
{
  g_autofree char *state = g_build_filename (g_get_user_state_dir (), "xrlab", "fit-models", NULL);
  const XrlabFitWorkspace *ws;
  g_autoptr(XrlabModelFile) kept = NULL;
  gboolean has_base = FALSE;

  if (skip_without_data ())
    return;
  open_example ();
  xrlab_fit_page_add_component (page (), "Gauss");
  settle ();
  g_assert_true (xrlab_fit_page_get_param_value (page (), "Gauss_01_A", NULL, NULL));
  g_assert_true (g_str_has_prefix (xrlab_fit_page_get_workspace (page ())->models, state));
  choose ("base");
  g_assert_null (xrlab_fit_page_get_message (page ()));
  g_assert_true (xrlab_fit_page_get_param_value (page (), "Gauss_01_A", NULL, NULL));
  g_assert_cmpuint (xrlab_fit_page_get_n_baseline_params (page ()), ==, 8);
  g_assert_true (gtk_widget_get_visible (baseline_button ()));
  ws = xrlab_fit_page_get_workspace (page ());
  g_assert_true (g_str_has_prefix (ws->models, state));
  kept = xrlab_model_file_load (ws->models, NULL);
  g_assert_nonnull (kept);
  for (gsize i = 0; i < xrlab_model_file_n_models (kept); i++)
    has_base |= g_strcmp0 (xrlab_model_file_model_name (kept, i), ws->baseline_model) == 0;
  g_assert_true (has_base);
  g_assert_cmpstr (chosen (), ==, "base");
}

/* ---- its fit kept with the session --------------------------------------------------------- */

static char *
replaced (const char *text, const char *what, const char *by)
{
  GString *b = g_string_new (text);

  g_assert_cmpuint (g_string_replace (b, what, by, 1), ==, 1);
  return g_string_free (b, FALSE);
}

/* A baseline fit, then the session applied to a workspace without it: its
 * values and errors are back as the fit left them. A stored fit naming a
 * parameter the model lacks is refused with a message; one that is not
 * sound is refused by a strict read, left out (with a warning) when
 * salvaging; the rest of the workspace opens either way. */
static void
test_result_session (void)
{
  static const char *const names[] = { "LinBack_m", "LinBack_b", "GLP_01_A", "GLP_01_x0", "GLP_01_F", "GLP_01_m" };
  g_autoptr(XrlabSession) loaded = NULL, mismatched = NULL, corrupt = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) warnings = NULL;
  g_autofree char *json = NULL, *bad = NULL;
  double value[G_N_ELEMENTS (names)], err[G_N_ELEMENTS (names)];
  const XrlabFitWorkspace *ws;
  double v, e;

  if (skip_without_data ())
    return;
  open_example ();
  choose ("base");
  g_signal_emit_by_name (baseline_button (), "clicked");
  xrlab_test_wait_for (not_fitting, NULL, 120, "the baseline fit");
  settle ();
  g_assert_null (xrlab_fit_page_get_message (page ()));
  ws = xrlab_fit_page_get_workspace (page ());
  /* the fit's values and errors, the workspace's result */
  g_assert_cmpuint (ws->n_baseline, ==, 8);
  for (gsize i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_assert_true (xrlab_fit_page_get_baseline_param_value (page (), names[i], &value[i], &err[i]));
      g_assert_true (isfinite (err[i]));
      g_assert_true (xrlab_fit_workspace_get_baseline (ws, names[i], &v, &e));
      g_assert_cmpfloat (v, ==, value[i]);
      g_assert_cmpfloat (e, ==, err[i]);
    }
  g_assert_true (xrlab_fit_workspace_get_baseline (ws, "LinBack_xStop", &v, &e));
  g_assert_true (isnan (e));
  {
    g_autoptr(XrlabSession) now = xrlab_window_get_session (win);

    json = xrlab_session_to_json (now, NULL);
  }
  g_assert_nonnull (strstr (json, "\"baseline\": { \"values\": {"));
  loaded = xrlab_session_from_json (json, -1, &error);
  g_assert_no_error (error);

  /* Another workspace, then the session's: as the fit left them. */
  open_example ();
  g_assert_cmpuint (xrlab_fit_page_get_n_baseline_params (page ()), ==, 0);
  xrlab_window_apply_session (win, loaded);
  settle ();
  g_assert_null (xrlab_fit_page_get_message (page ()));
  g_assert_cmpstr (chosen (), ==, "base");
  for (gsize i = 0; i < G_N_ELEMENTS (names); i++)
    {
      GtkWidget *label = xrlab_fit_page_get_baseline_param_cell (page (), names[i], 6);

      g_assert_true (xrlab_fit_page_get_baseline_param_value (page (), names[i], &v, &e));
      g_assert_cmpfloat (v, ==, value[i]);
      g_assert_cmpfloat (e, ==, err[i]);
      g_assert_true (g_str_has_prefix (gtk_label_get_text (GTK_LABEL (label)), "± "));
    }
  g_assert_nonnull (strstr (xrlab_fit_page_get_summary (page ()), "Baseline"));
  /* a value typed after it is the one the session opens with */
  gtk_editable_set_text (GTK_EDITABLE (xrlab_fit_page_get_baseline_param_cell (page (), "GLP_01_F", 1)), "1.75");
  settle ();
  g_assert_true (xrlab_fit_workspace_get_baseline (xrlab_fit_page_get_workspace (page ()), "GLP_01_F", &v, &e));
  g_assert_cmpfloat (v, ==, 1.75);
  g_assert_cmpfloat (e, ==, err[4]);

  /* Naming a parameter the baseline model lacks: refused, said; the rest
   * opened. */
  bad = replaced (json, "\"baseline\": { \"values\": { ", "\"baseline\": { \"values\": { \"GLP_09_A\": 1, ");
  mismatched = xrlab_session_from_json (bad, -1, &error);
  g_assert_no_error (error);
  open_example ();
  xrlab_window_apply_session (win, mismatched);
  settle ();
  g_assert_nonnull (xrlab_fit_page_get_message (page ()));
  g_assert_nonnull (strstr (xrlab_fit_page_get_message (page ()), "GLP_09_A"));
  ws = xrlab_fit_page_get_workspace (page ());
  g_assert_cmpuint (ws->n_baseline, ==, 0);
  g_assert_cmpstr (ws->baseline_model, ==, "base");
  g_assert_cmpstr (ws->model, ==, "2D");
  g_assert_true (xrlab_map_view_has_map (xrlab_fit_page_get_map_view (page ())));
  g_assert_true (xrlab_fit_page_get_baseline_param_value (page (), "GLP_01_A", &v, &e));
  g_assert_cmpfloat (v, ==, 10);       /* the model file's */
  g_assert_true (isnan (e));
  g_assert_true (xrlab_fit_page_get_param_value (page (), "GLP_01_x0_expFun_01_tau", NULL, NULL));
  g_clear_pointer (&bad, g_free);

  /* Not sound: refused by a strict read, left out when salvaging. */
  bad = replaced (json, "\"baseline\": { \"values\": ", "\"baseline\": { \"values\": \"none\", \"errors\": ");
  g_assert_null (xrlab_session_from_json (bad, -1, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "fit.result.baseline"));
  g_clear_error (&error);
  corrupt = xrlab_session_from_json_full (bad, -1, XRLAB_SESSION_LOAD_SALVAGE, &warnings, &error);
  g_assert_no_error (error);
  g_assert_nonnull (corrupt);
  g_assert_nonnull (warnings);
  g_assert_nonnull (strstr (warnings[0], "fit.result.baseline"));
  g_assert_nonnull (xrlab_session_get_fit (corrupt));
  g_assert_cmpuint (xrlab_session_get_fit (corrupt)->n_baseline, ==, 0);
  g_assert_nonnull (xrlab_session_get_fit (corrupt)->result_summary);
  open_example ();
  xrlab_window_apply_session (win, corrupt);
  settle ();
  g_assert_null (xrlab_fit_page_get_message (page ()));
  g_assert_cmpstr (chosen (), ==, "base");
  g_assert_true (xrlab_fit_page_get_baseline_param_value (page (), "GLP_01_A", &v, NULL));
  g_assert_cmpfloat (v, ==, 10);
}

/* ---- its components -------------------------------------------------------------------- */

/* The first widget under @w of @type whose tooltip is @tip (NULL: any) and
 * whose "component" is @component (NULL: any). */
static GtkWidget *
find_widget (GtkWidget *w, GType type, const char *tip, const char *component)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (w, type) && (tip == NULL || g_strcmp0 (gtk_widget_get_tooltip_text (w), tip) == 0)
      && (component == NULL || g_strcmp0 (g_object_get_data (G_OBJECT (w), "component"), component) == 0))
    return w;
  for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_widget (c, type, tip, component);
      if (found != NULL)
        return found;
    }
  if (GTK_IS_MENU_BUTTON (w) && gtk_menu_button_get_popover (GTK_MENU_BUTTON (w)) != NULL)
    return find_widget (GTK_WIDGET (gtk_menu_button_get_popover (GTK_MENU_BUTTON (w))), type, tip, component);
  return NULL;
}

static GtkWidget *
baseline_section (void)
{
  return xrlab_fit_page_get_component_section (page (), TRUE);
}

/* The palette of @section, @function picked from it as a click does. */
static void
pick_from_palette (GtkWidget *section, const char *tip, const char *function)
{
  GtkWidget *button = find_widget (section, GTK_TYPE_MENU_BUTTON, tip, NULL);
  GtkWidget *list;

  g_assert_nonnull (button);
  list = find_widget (GTK_WIDGET (gtk_menu_button_get_popover (GTK_MENU_BUTTON (button))), GTK_TYPE_LIST_BOX,
                      NULL, NULL);
  g_assert_nonnull (list);
  for (GtkWidget *row = gtk_widget_get_first_child (list); row != NULL; row = gtk_widget_get_next_sibling (row))
    if (g_strcmp0 (g_object_get_data (G_OBJECT (row), "function"), function) == 0)
      {
        g_signal_emit_by_name (list, "row-activated", row);
        settle ();
        return;
      }
  g_error ("the palette has no %s", function);
}

/* The button @tip ("Move up", "Remove") of @component's row, clicked. */
static void
click_row_button (GtkWidget *section, const char *tip, const char *component)
{
  GtkWidget *b = find_widget (section, GTK_TYPE_BUTTON, tip, component);

  g_assert_nonnull (b);
  g_assert_true (gtk_widget_get_sensitive (b));
  g_signal_emit_by_name (b, "clicked");
  settle ();
}

static char *
baseline_components (void)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < xrlab_fit_page_get_n_baseline_components (page ()); i++)
    g_string_append_printf (s, "%s%s", i > 0 ? " " : "", xrlab_fit_page_get_baseline_component (page (), i));
  return g_string_free (s, FALSE);
}

/* The baseline model's components in their own section of the list:
 * added from its palette, moved, removed, as edits of the baseline model
 * (the model's components and typed values stay), kept with the session
 * in the kept model file. */
static void
test_components (void)
{
  g_autofree char *state = g_build_filename (g_get_user_state_dir (), "xrlab", "fit-models", NULL);
  g_autoptr(XrlabSession) saved = NULL, loaded = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL, *names = NULL;
  guint n_main;
  double v = NAN;

  if (skip_without_data ())
    return;
  open_example ();
  g_assert_false (gtk_widget_get_visible (baseline_section ()));
  g_assert_cmpuint (xrlab_fit_page_get_n_baseline_components (page ()), ==, 0);
  choose ("base");
  g_assert_true (gtk_widget_get_visible (baseline_section ()));
  names = baseline_components ();
  g_assert_cmpstr (names, ==, "LinBack GLP_01");
  g_clear_pointer (&names, g_free);
  n_main = xrlab_fit_page_get_n_components (page ());
  g_assert_cmpuint (n_main, ==, 2);
  /* a start value of the model typed */
  g_assert_true (xrlab_fit_page_set_param_text (page (), "GLP_01_x0", "8.25"));
  settle ();

  /* A peak from the baseline section's palette: the baseline model's. */
  pick_from_palette (baseline_section (), "Add a component to the baseline model", "Gauss");
  g_assert_null (xrlab_fit_page_get_message (page ()));
  names = baseline_components ();
  g_assert_cmpstr (names, ==, "LinBack GLP_01 Gauss_01");
  g_clear_pointer (&names, g_free);
  g_assert_true (xrlab_fit_page_get_baseline_param_value (page (), "Gauss_01_A", NULL, NULL));
  g_assert_cmpuint (xrlab_fit_page_get_n_baseline_params (page ()), ==, 11);
  g_assert_false (xrlab_fit_page_get_param_value (page (), "Gauss_01_A", NULL, NULL));
  g_assert_cmpuint (xrlab_fit_page_get_n_components (page ()), ==, n_main);
  /* the model's typed value stays */
  g_assert_true (xrlab_fit_page_get_param_value (page (), "GLP_01_x0", &v, NULL));
  g_assert_cmpfloat (v, ==, 8.25);
  g_assert_true (g_str_has_prefix (xrlab_fit_page_get_workspace (page ())->models, state));
  g_assert_cmpstr (xrlab_fit_page_get_workspace (page ())->baseline_model, ==, "base");

  /* Moved up; the first cannot move up, the last not down. */
  click_row_button (baseline_section (), "Move up", "Gauss_01");
  names = baseline_components ();
  g_assert_cmpstr (names, ==, "LinBack Gauss_01 GLP_01");
  g_clear_pointer (&names, g_free);
  g_assert_false (gtk_widget_get_sensitive (find_widget (baseline_section (), GTK_TYPE_BUTTON, "Move up",
                                                         "LinBack")));
  g_assert_false (gtk_widget_get_sensitive (find_widget (baseline_section (), GTK_TYPE_BUTTON, "Move down",
                                                         "GLP_01")));

  /* The session keeps it: another workspace, then the session's. */
  settle ();
  saved = xrlab_window_get_session (win);
  json = xrlab_session_to_json (saved, NULL);
  loaded = xrlab_session_from_json (json, -1, &error);
  g_assert_no_error (error);
  open_example ();
  g_assert_cmpuint (xrlab_fit_page_get_n_baseline_components (page ()), ==, 0);
  xrlab_window_apply_session (win, loaded);
  settle ();
  g_assert_null (xrlab_fit_page_get_message (page ()));
  names = baseline_components ();
  g_assert_cmpstr (names, ==, "LinBack Gauss_01 GLP_01");
  g_clear_pointer (&names, g_free);
  g_assert_cmpuint (xrlab_fit_page_get_n_components (page ()), ==, n_main);
  g_assert_true (xrlab_fit_page_get_param_value (page (), "GLP_01_x0", &v, NULL));
  g_assert_cmpfloat (v, ==, 8.25);

  /* Removed again. */
  click_row_button (baseline_section (), "Remove", "Gauss_01");
  g_assert_null (xrlab_fit_page_get_message (page ()));
  names = baseline_components ();
  g_assert_cmpstr (names, ==, "LinBack GLP_01");
  g_assert_false (xrlab_fit_page_get_baseline_param_value (page (), "Gauss_01_A", NULL, NULL));
  g_assert_cmpuint (xrlab_fit_page_get_n_baseline_params (page ()), ==, 8);

  /* None: the section goes. */
  choose ("None");
  g_assert_false (gtk_widget_get_visible (baseline_section ()));
  g_assert_cmpuint (xrlab_fit_page_get_n_baseline_components (page ()), ==, 0);
}

/* ---- a profile of a baseline parameter ---------------------------------------------------- */

static char *example04;     /* trspecfit's example 04, NULL: missing */

/* The toplevel window titled @title, or NULL. */
static GtkWindow *
find_window (const char *title)
{
  GListModel *all = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (all); i++)
    {
      g_autoptr(GtkWindow) w = g_list_model_get_item (all, i);
      if (g_strcmp0 (gtk_window_get_title (w), title) == 0 && gtk_widget_get_visible (GTK_WIDGET (w)))
        return w;
    }
  return NULL;
}

/* The check button labelled @label under @w, or NULL. */
static GtkWidget *
find_check (GtkWidget *w, const char *label)
{
  if (GTK_IS_CHECK_BUTTON (w) && g_strcmp0 (gtk_check_button_get_label (GTK_CHECK_BUTTON (w)), label) == 0)
    return w;
  for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_check (c, label);
      if (found != NULL)
        return found;
    }
  return NULL;
}

static gboolean
window_gone (gpointer data)
{
  return find_window (data) == NULL;
}

/* The button labelled @label in the menu of baseline parameter @name
 * (NULL: not there). */
static GtkWidget *
menu_item (const char *name, const char *label)
{
  GtkWidget *menu = xrlab_fit_page_get_baseline_param_cell (page (), name, 7);

  g_assert_true (GTK_IS_MENU_BUTTON (menu));
  return find_button (GTK_WIDGET (gtk_menu_button_get_popover (GTK_MENU_BUTTON (menu))), label);
}

static guint
n_strings (char **strv)
{
  return strv != NULL ? g_strv_length (strv) : 0;
}

/* Example 04's profile_base with the IMFP profile of GLP_01_A, attached
 * from the menu of its row in the baseline section (as --baseline-profile
 * does): the baseline model's, kept with the session, removed again. */
static void
test_profile (void)
{
  g_autofree char *models = NULL, *json = NULL;
  g_autoptr(XrlabSession) loaded = NULL;
  g_autoptr(GError) error = NULL;
  const XrlabFitWorkspace *ws;
  GtkWindow *dialog;
  GtkWidget *check, *name;
  XrlabFitWorkspace w;

  if (example04 == NULL)
    {
      g_test_skip ("trspecfit's example 04 ($XRLAB_SHARED_DATA/trspecfit-examples) is missing");
      return;
    }
  xrlab_fit_workspace_init (&w);
  w.data = g_strdup (example04);
  w.models = models = g_build_filename (example04, "models_energy.yaml", NULL);
  w.model = g_strdup ("2D");
  xrlab_fit_page_open (page (), &w);
  w.models = NULL;
  xrlab_fit_workspace_clear (&w);
  settle ();
  g_assert_null (xrlab_fit_page_get_message (page ()));
  choose ("profile_base");
  g_assert_cmpuint (xrlab_fit_page_get_n_baseline_params (page ()), ==, 5);
  /* A row of the baseline model: a profile, no time dependence, no
   * sharing; a fixed one too (its profile may carry the amplitude). */
  g_assert_nonnull (menu_item ("GLP_01_A", "_Profile…"));
  g_assert_null (menu_item ("GLP_01_A", "_Time Dependence…"));
  g_assert_null (menu_item ("GLP_01_A", "_Shared by Every File"));
  g_assert_nonnull (menu_item ("GLP_01_x0", "_Profile…"));

  g_signal_emit_by_name (menu_item ("GLP_01_A", "_Profile…"), "clicked");
  xrlab_test_spin (0.2);
  dialog = find_window ("Profile of GLP_01_A in the Baseline Model");
  g_assert_nonnull (dialog);
  check = find_check (GTK_WIDGET (dialog), "IMFP");
  g_assert_true (GTK_IS_CHECK_BUTTON (check));
  gtk_check_button_set_active (GTK_CHECK_BUTTON (check), TRUE);
  g_signal_emit_by_name (find_button (GTK_WIDGET (dialog), "_Attach"), "clicked");
  xrlab_test_wait_for (window_gone, "Profile of GLP_01_A in the Baseline Model", 10, "the dialog to close");
  settle ();
  g_assert_null (xrlab_fit_page_get_message (page ()));
  /* the baseline model's parameters, under their host */
  g_assert_cmpuint (xrlab_fit_page_get_n_baseline_params (page ()), ==, 7);
  g_assert_true (xrlab_fit_page_get_baseline_param_value (page (), "GLP_01_A_pExpDecay_01_A", NULL, NULL));
  g_assert_false (xrlab_fit_page_get_param_value (page (), "GLP_01_A_pExpDecay_01_A", NULL, NULL));
  name = xrlab_fit_page_get_baseline_param_cell (page (), "GLP_01_A_pExpDecay_01_tau", 0);
  g_assert_true (g_str_has_prefix (gtk_label_get_text (GTK_LABEL (name)), "↳ pExpDecay_01_tau"));
  g_assert_nonnull (menu_item ("GLP_01_A", "Remove _Profile"));
  ws = xrlab_fit_page_get_workspace (page ());
  g_assert_cmpuint (n_strings (ws->baseline_profiles), ==, 1);
  g_assert_true (g_str_has_prefix (ws->baseline_profiles[0], "GLP_01_A="));
  g_assert_true (g_str_has_suffix (ws->baseline_profiles[0], ":IMFP"));
  g_assert_cmpuint (n_strings (ws->profiles), ==, 0);
  g_assert_cmpstr (ws->baseline_model, ==, "profile_base");

  /* Kept with the session. */
  {
    g_autoptr(XrlabSession) now = xrlab_window_get_session (win);

    json = xrlab_session_to_json (now, NULL);
  }
  loaded = xrlab_session_from_json (json, -1, &error);
  g_assert_no_error (error);
  open_example ();
  xrlab_window_apply_session (win, loaded);
  settle ();
  g_assert_null (xrlab_fit_page_get_message (page ()));
  g_assert_cmpuint (xrlab_fit_page_get_n_baseline_params (page ()), ==, 7);
  g_assert_true (xrlab_fit_page_get_baseline_param_value (page (), "GLP_01_A_pExpDecay_01_A", NULL, NULL));

  /* Removed from the menu. */
  g_signal_emit_by_name (menu_item ("GLP_01_A", "Remove _Profile"), "clicked");
  settle ();
  g_assert_null (xrlab_fit_page_get_message (page ()));
  g_assert_cmpuint (xrlab_fit_page_get_n_baseline_params (page ()), ==, 5);
  g_assert_cmpuint (n_strings (xrlab_fit_page_get_workspace (page ())->baseline_profiles), ==, 0);
  g_assert_nonnull (menu_item ("GLP_01_A", "_Profile…"));
}

/* ---- None --------------------------------------------------------------------------------- */

static void
test_none (void)
{
  if (skip_without_data ())
    return;
  open_example ();
  choose ("base");
  g_assert_true (gtk_widget_get_visible (baseline_button ()));
  g_assert_cmpuint (xrlab_fit_page_get_n_baseline_params (page ()), ==, 8);
  choose ("None");
  g_assert_null (xrlab_fit_page_get_message (page ()));
  g_assert_null (xrlab_fit_page_get_workspace (page ())->baseline_model);
  g_assert_false (gtk_widget_get_visible (baseline_button ()));
  g_assert_cmpuint (xrlab_fit_page_get_n_baseline_params (page ()), ==, 0);
  g_assert_cmpuint (xrlab_fit_page_get_n_params (page ()), >, 0);
}

/* ---- the command line ---------------------------------------------------------------------- */

static void
test_command_line (void)
{
  g_autofree char *models = NULL;
  g_autoptr(GVariantDict) options = g_variant_dict_new (NULL);
  g_autoptr(GFile) folder = NULL;
  int ret = 0;

  if (skip_without_data ())
    return;
  /* xrlab --models models_energy.yaml --model SbS --baseline-model base 01_basic_fitting */
  models = in_example ("models_energy.yaml");
  g_variant_dict_insert_value (options, "models", g_variant_new_bytestring (models));
  g_variant_dict_insert (options, "model", "s", "SbS");
  g_variant_dict_insert (options, "baseline-model", "s", "base");
  g_signal_emit_by_name (app, "handle-local-options", options, &ret);
  g_assert_cmpint (ret, ==, -1);
  folder = g_file_new_for_path (example01);
  g_application_open (G_APPLICATION (app), &folder, 1, "");
  settle ();
  g_assert_null (xrlab_fit_page_get_message (page ()));
  g_assert_cmpstr (xrlab_fit_page_get_workspace (page ())->model, ==, "SbS");
  g_assert_cmpstr (chosen (), ==, "base");
  g_assert_true (gtk_widget_get_visible (baseline_button ()));
  g_assert_cmpuint (xrlab_fit_page_get_n_baseline_params (page ()), ==, 8);
}

int
main (int argc, char *argv[])
{
  g_autoptr(GError) error = NULL;
  const char *shared = g_getenv ("XRLAB_SHARED_DATA");
  int status;

  tmpdir = xrlab_test_private_state ("xrlab-fit-baseline-XXXXXX");
  {
    g_autofree char *cache = g_build_filename (tmpdir, "cache", NULL);
    g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  }
  if (shared != NULL)
    {
      g_autofree char *path = g_build_filename (shared, "trspecfit-examples", "fitting_workflows",
                                                "01_basic_fitting", NULL);
      /* as a command line's GFile has it */
      example01 = g_canonicalize_filename (path, NULL);
      if (!g_file_test (example01, G_FILE_TEST_IS_DIR))
        g_clear_pointer (&example01, g_free);
      g_free (path);
      path = g_build_filename (shared, "trspecfit-examples", "fitting_workflows", "04_parameter_profiles", NULL);
      example04 = g_canonicalize_filename (path, NULL);
      if (!g_file_test (example04, G_FILE_TEST_IS_DIR))
        g_clear_pointer (&example04, g_free);
    }
  g_test_init (&argc, &argv, NULL);

  app = xrlab_application_new ();
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE | G_APPLICATION_HANDLES_OPEN);
  xrlab_application_set_restore (app, FALSE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);
  g_application_activate (G_APPLICATION (app));
  win = XRLAB_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (app)));
  g_assert_nonnull (win);
  xrlab_test_spin (0.3);

  g_test_add_func ("/fit-baseline/choose", test_choose);
  g_test_add_func ("/fit-baseline/edit-session", test_edit_session);
  g_test_add_func ("/fit-baseline/edited-model", test_edited_model);
  g_test_add_func ("/fit-baseline/result-session", test_result_session);
  g_test_add_func ("/fit-baseline/components", test_components);
  g_test_add_func ("/fit-baseline/profile", test_profile);
  g_test_add_func ("/fit-baseline/none", test_none);
  g_test_add_func ("/fit-baseline/command-line", test_command_line);
  status = g_test_run ();

  xrlab_test_app_stop (&app, win, tmpdir);
  g_free (example01);
  g_free (example04);
  return status;
}
