/* test-gui-window.c -- the xrlab window, driven like a user would:
 * first start, edits, inline errors, consumers that fetch only when shown,
 * sessions, auto-save, export, actions
 *
 * The numbers come from the window's engine thread; transfers are counted
 * by the engine's own accounting.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "gui-test-util.h"
#include "xrlab-application.h"
#include "xrlab-renderer.h"
#include "xrlab-window.h"
#include "test-common.h"

static XrlabApplication *app;
static XrlabWindow *win;
static char *tmpdir;

/* ---- helpers ---------------------------------------------------------------------- */

/* Pending edits computed and a frame drawn after them. */
static void
settle (void)
{
  xrlab_test_window_settle (win);
}

static XrlabMaterialRow *
row (guint i)
{
  return xrlab_material_list_get_row (xrlab_window_get_material_list (win), i);
}

static XrlabPlotData *
plot_data (void)
{
  return xrlab_plot_get_data (xrlab_window_get_plot (win));
}

static const XrlabPlotSeries *
series (guint i)
{
  g_assert_nonnull (plot_data ());
  g_assert_cmpuint (i, <, xrlab_plot_data_get_n_series (plot_data ()));
  return xrlab_plot_data_get_series (plot_data (), i);
}

static double *
copy_y (guint i)
{
  const XrlabPlotSeries *s = series (i);
  return g_memdup2 (s->y, s->n * sizeof (double));
}

static void
set_text (GtkEditable *e, const char *text)
{
  gtk_editable_set_text (e, text);
}

static void
reset_to_example (void)
{
  gtk_widget_activate_action (GTK_WIDGET (win), "win.reset-session", NULL);
  adw_view_stack_set_visible_child_name (xrlab_window_get_view_stack (win), "plot");
  settle ();
}

/* ---- tests ------------------------------------------------------------------------- */

static void
test_first_start (void)
{
  XrlabSweep sweep;
  const XrlabPlotSeries *si;

  settle ();
  g_assert_nonnull (plot_data ());
  g_assert_cmpuint (xrlab_plot_data_get_n_series (plot_data ()), ==, 3);
  g_assert_cmpstr (series (0)->label, ==, "Si");
  g_assert_cmpstr (series (1)->label, ==, "SiO₂");
  g_assert_cmpstr (series (2)->label, ==, "Au");
  g_assert_cmpint (xrlab_plot_controls_get_quantity (xrlab_window_get_plot_controls (win)), ==,
                   XRLAB_QUANTITY_DELTA);
  g_assert_true (xrlab_plot_get_x_log (xrlab_window_get_plot (win)));
  g_assert_true (xrlab_plot_get_y_log (xrlab_window_get_plot (win)));

  xrlab_sweep_controls_get_sweep (xrlab_window_get_sweep_controls (win), &sweep);
  g_assert_cmpint (sweep.unit, ==, XRLAB_ENERGY_UNIT_KEV);
  g_assert_true (sweep.log);
  si = series (0);
  g_assert_cmpuint (si->n, ==, sweep.points);
  g_assert_cmpfloat (si->x[0], ==, 1.0);
  g_assert_cmpfloat (si->x[si->n - 1], ==, 30.0);
  for (gsize i = 0; i < si->n; i++)
    g_assert_true (isfinite (si->y[i]) && si->y[i] > 0);

  /* Three materials on one plot were one transfer; the hidden table none. */
  g_assert_cmpuint (xrlab_window_get_transfers (win), ==, 1);
  g_assert_cmpuint (xrlab_values_view_get_n_materials (xrlab_window_get_values_view (win)), ==, 0);

  /* Absorption edges of the elements present are marked. */
  g_assert_cmpuint (xrlab_plot_get_n_markers (xrlab_window_get_plot (win)), >, 0);

  /* At the default size the sidebar with the materials and the sweep is
   * shown beside the plot: no other page's width folds it away. */
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (xrlab_window_get_material_list (win))));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (xrlab_window_get_sweep_controls (win))));
}

static void
test_edit_formula (void)
{
  g_autofree double *before = NULL;
  guint64 t0;
  XrlabPlotData *old;
  gboolean differs = FALSE;

  reset_to_example ();
  before = copy_y (0);
  t0 = xrlab_window_get_transfers (win);
  old = plot_data ();

  /* Typed letter by letter within one frame: one recompute, one transfer. */
  set_text (xrlab_material_row_get_formula_editable (row (0)), "F");
  set_text (xrlab_material_row_get_formula_editable (row (0)), "Fe");
  set_text (xrlab_material_row_get_formula_editable (row (0)), "Fe2");
  set_text (xrlab_material_row_get_formula_editable (row (0)), "Fe2O");
  set_text (xrlab_material_row_get_formula_editable (row (0)), "Fe2O3");
  settle ();

  g_assert_true (plot_data () != old);
  g_assert_cmpuint (xrlab_window_get_transfers (win), ==, t0 + 1);
  g_assert_cmpuint (xrlab_plot_data_get_n_series (plot_data ()), ==, 3);
  g_assert_false (series (0)->stale);
  for (gsize i = 0; i < series (0)->n; i++)
    if (series (0)->y[i] != before[i])
      differs = TRUE;
  g_assert_true (differs);
}

static void
test_edit_density (void)
{
  g_autofree double *before = NULL;
  guint64 t0;

  reset_to_example ();
  before = copy_y (2);
  t0 = xrlab_window_get_transfers (win);

  /* Half the density of gold: delta halves everywhere. */
  set_text (xrlab_material_row_get_density_editable (row (2)), "9.65");
  settle ();
  g_assert_cmpuint (xrlab_window_get_transfers (win), ==, t0 + 1);
  for (gsize i = 0; i < series (2)->n; i++)
    g_assert_cmpfloat_with_epsilon (series (2)->y[i] / before[i], 0.5, 1e-12);
}

static void
test_invalid_formula (void)
{
  g_autofree double *before = NULL;
  const char *msg;

  reset_to_example ();
  before = copy_y (1);

  set_text (xrlab_material_row_get_formula_editable (row (1)), "SiXx2");
  settle ();

  /* The message is inline at the row, no dialog. */
  g_assert_true (xrlab_material_row_get_error_visible (row (1)));
  msg = gtk_label_get_text (xrlab_material_row_get_error_label (row (1)));
  g_assert_nonnull (strstr (msg, "Xx"));
  g_assert_nonnull (strstr (msg, "3"));        /* the column */
  g_assert_false (xrlab_material_row_get_error_visible (row (0)));

  /* The plot keeps the last valid curve, marked stale. */
  g_assert_cmpuint (xrlab_plot_data_get_n_series (plot_data ()), ==, 3);
  g_assert_true (series (1)->stale);
  g_assert_false (series (0)->stale);
  for (gsize i = 0; i < series (1)->n; i++)
    g_assert_cmpfloat (series (1)->y[i], ==, before[i]);

  /* Valid again: fresh curve, message gone. */
  set_text (xrlab_material_row_get_formula_editable (row (1)), "SiO2");
  settle ();
  g_assert_false (xrlab_material_row_get_error_visible (row (1)));
  g_assert_false (series (1)->stale);

  /* A density that is not a number also keeps the curve, marked stale. */
  set_text (xrlab_material_row_get_density_editable (row (1)), "2.2.2");
  settle ();
  g_assert_true (xrlab_material_row_get_error_visible (row (1)));
  g_assert_true (series (1)->stale);
  for (gsize i = 0; i < series (1)->n; i++)
    g_assert_cmpfloat (series (1)->y[i], ==, before[i]);
  set_text (xrlab_material_row_get_density_editable (row (1)), "2.2");
  settle ();
  g_assert_false (series (1)->stale);
}

static void
test_new_material_with_error (void)
{
  XrlabMaterialList *list = xrlab_window_get_material_list (win);
  XrlabMaterial *m;

  reset_to_example ();
  m = xrlab_material_list_add_empty (list);
  settle ();
  /* Empty formula: message at the row, no curve (there never was one). */
  g_assert_true (xrlab_material_row_get_error_visible (row (3)));
  g_assert_cmpuint (xrlab_plot_data_get_n_series (plot_data ()), ==, 3);
  xrlab_material_set_formula (m, "C22H10N2O5");
  xrlab_material_set_density (m, 1.42);
  settle ();
  g_assert_false (xrlab_material_row_get_error_visible (row (3)));
  g_assert_cmpuint (xrlab_plot_data_get_n_series (plot_data ()), ==, 4);
  g_assert_cmpstr (series (3)->label, ==, "C22H10N2O5");

  /* Switched off: not drawn, not fetched. */
  xrlab_material_set_visible (m, FALSE);
  settle ();
  g_assert_cmpuint (xrlab_plot_data_get_n_series (plot_data ()), ==, 3);
}

static void
test_sweep_out_of_range (void)
{
  XrlabSweepControls *sc = xrlab_window_get_sweep_controls (win);
  XrlabPlotData *old;
  guint64 t0;

  reset_to_example ();
  /* With Henke's tables (30 eV - 30 keV); auto's reach: /window/tables. */
  xrlab_sweep_controls_set_table (sc, XRLAB_TABLE_CHOICE_HENKE);
  settle ();
  old = plot_data ();
  t0 = xrlab_window_get_transfers (win);

  set_text (xrlab_sweep_controls_get_start_editable (sc), "0.001");
  settle ();
  g_assert_false (xrlab_sweep_controls_is_valid (sc));
  g_assert_nonnull (strstr (xrlab_sweep_controls_get_error (sc), "0.03 keV"));
  /* Refused: nothing recomputed, the curves kept but marked stale, and the
   * reason shown over the plot, where it is seen. */
  g_assert_cmpuint (xrlab_window_get_transfers (win), ==, t0);
  g_assert_cmpuint (xrlab_plot_data_get_n_series (plot_data ()), ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      g_assert_true (series (i)->stale);
      g_assert_true (series (i)->y == xrlab_plot_data_get_series (old, i)->y);
    }
  g_assert_nonnull (xrlab_window_get_plot_notice (win));
  g_assert_nonnull (strstr (xrlab_window_get_plot_notice (win), "0.03 keV"));
  g_assert_nonnull (strstr (xrlab_window_get_plot_notice (win), "last valid sweep, 1 – 30 keV"));

  /* Above the table too (50 keV with Henke). */
  set_text (xrlab_sweep_controls_get_start_editable (sc), "1");
  set_text (xrlab_sweep_controls_get_stop_editable (sc), "50");
  settle ();
  g_assert_nonnull (strstr (xrlab_window_get_plot_notice (win), "50 keV"));
  g_assert_true (series (0)->stale);
  /* Back to the same sweep: fresh curves, no notice. */
  set_text (xrlab_sweep_controls_get_stop_editable (sc), "30");
  settle ();
  g_assert_null (xrlab_window_get_plot_notice (win));
  g_assert_false (series (0)->stale);
  t0 = xrlab_window_get_transfers (win);

  set_text (xrlab_sweep_controls_get_start_editable (sc), "2");
  settle ();
  g_assert_true (xrlab_sweep_controls_is_valid (sc));
  g_assert_cmpfloat (series (0)->x[0], ==, 2.0);
  g_assert_cmpuint (xrlab_window_get_transfers (win), ==, t0 + 1);
}

/* The table choice beside the sweep: auto goes to 966 keV (Chantler for
 * the whole sweep), the Values page too; Henke refuses 100 keV; the edge
 * markers are the table's; the session keeps the choice. */
static void
test_tables (void)
{
  XrlabSweepControls *sc = xrlab_window_get_sweep_controls (win);
  XrlabValuesView *values = xrlab_window_get_values_view (win);
  AdwViewStack *stack = xrlab_window_get_view_stack (win);
  XrlabSweep sweep;
  guint soft_markers;

  reset_to_example ();
  xrlab_sweep_controls_get_sweep (sc, &sweep);
  g_assert_cmpint (sweep.table, ==, XRLAB_TABLE_CHOICE_AUTO);
  soft_markers = xrlab_plot_get_n_markers (xrlab_window_get_plot (win));
  g_assert_cmpuint (soft_markers, >, 0);
  g_assert_cmpstr (xrlab_plot_get_note (xrlab_window_get_plot (win)), ==, "Henke tables");

  /* 1-100 keV: valid with auto, drawn, Au K among the markers. */
  set_text (xrlab_sweep_controls_get_stop_editable (sc), "100");
  settle ();
  g_assert_true (xrlab_sweep_controls_is_valid (sc));
  g_assert_cmpuint (xrlab_plot_data_get_n_series (plot_data ()), ==, 3);
  g_assert_cmpfloat (series (0)->x[series (0)->n - 1], ==, 100.0);
  g_assert_true (isfinite (series (2)->y[series (2)->n - 1]));
  g_assert_cmpuint (xrlab_plot_get_n_markers (xrlab_window_get_plot (win)), >, soft_markers);
  g_assert_cmpstr (xrlab_plot_get_note (xrlab_window_get_plot (win)), ==, "Chantler tables");

  /* The Values page at 150 keV, from Chantler's tables. */
  adw_view_stack_set_visible_child_name (stack, "values");
  xrlab_values_view_set_energy (values, 150000.0);
  g_object_notify (G_OBJECT (values), "energy-ev");
  settle ();
  g_assert_cmpuint (xrlab_values_view_get_n_materials (values), ==, 3);
  g_assert_cmpint (xrlab_values_view_get_table (values), ==, XRLAB_TABLE_CHANTLER);
  {
    g_autofree char *tsv = xrlab_values_view_to_tsv (values);
    g_assert_nonnull (strstr (tsv, "# table: chantler ("));
  }
  /* 8 keV: the Henke tables, as auto takes them for that energy. */
  xrlab_values_view_set_energy (values, 8048.0);
  g_object_notify (G_OBJECT (values), "energy-ev");
  settle ();
  g_assert_cmpint (xrlab_values_view_get_table (values), ==, XRLAB_TABLE_HENKE);
  adw_view_stack_set_visible_child_name (stack, "plot");

  /* Henke: 100 keV is refused, with the table and its range. */
  xrlab_sweep_controls_set_table (sc, XRLAB_TABLE_CHOICE_HENKE);
  settle ();
  g_assert_false (xrlab_sweep_controls_is_valid (sc));
  g_assert_nonnull (strstr (xrlab_sweep_controls_get_error (sc), "Henke"));
  g_assert_nonnull (strstr (xrlab_sweep_controls_get_error (sc), "30 keV"));

  /* Chantler over 1-30 keV: the session says so. */
  set_text (xrlab_sweep_controls_get_stop_editable (sc), "30");
  xrlab_sweep_controls_set_table (sc, XRLAB_TABLE_CHOICE_CHANTLER);
  settle ();
  g_assert_true (xrlab_sweep_controls_is_valid (sc));
  {
    g_autoptr(XrlabSession) s = xrlab_window_get_session (win);
    g_autofree char *json = xrlab_session_to_json (s, NULL);
    g_assert_cmpint (s->sweep.table, ==, XRLAB_TABLE_CHOICE_CHANTLER);
    g_assert_nonnull (strstr (json, "\"table\": \"chantler\""));
  }
}

static void
test_consumers_fetch_when_shown (void)
{
  AdwViewStack *stack = xrlab_window_get_view_stack (win);
  XrlabValuesView *values = xrlab_window_get_values_view (win);
  guint64 t0;

  reset_to_example ();
  t0 = xrlab_window_get_transfers (win);

  /* The table becomes visible: one transfer for it. */
  adw_view_stack_set_visible_child_name (stack, "values");
  settle ();
  g_assert_cmpuint (xrlab_window_get_transfers (win), ==, t0 + 1);
  g_assert_cmpuint (xrlab_values_view_get_n_materials (values), ==, 3);

  /* The table shows the engine's numbers: gold at 10 keV, 19.3 g/cm³
   * (the reference values of the optics issue, within 1e-4). */
  xrlab_values_view_set_energy (values, 10000.0);
  g_object_notify (G_OBJECT (values), "energy-ev");
  settle ();
  {
    g_autofree char *tsv = xrlab_values_view_to_tsv (values);
    g_auto(GStrv) lines = g_strsplit (tsv, "\n", -1);
    /* The energy, the table (two lines), the header. */
    g_auto(GStrv) delta = g_strsplit (lines[4 + XRLAB_QUANTITY_DELTA], "\t", -1);
    g_auto(GStrv) beta = g_strsplit (lines[4 + XRLAB_QUANTITY_BETA], "\t", -1);
    g_assert_cmpstr (lines[1], ==, "# table: henke (Henke, Gullikson & Davis 1993 with CXRO updates; choice auto)");
    g_assert_cmpstr (lines[3], ==, "Quantity\tUnit\tSi\tSiO₂\tAu");
    g_assert_cmpfloat_with_epsilon (g_ascii_strtod (delta[4], NULL) / 2.98814e-5, 1.0, 1e-4);
    g_assert_cmpfloat_with_epsilon (g_ascii_strtod (beta[4], NULL) / 2.20496e-6, 1.0, 1e-4);
  }
  t0 = xrlab_window_get_transfers (win) - 1;

  /* An edit while the plot is hidden: the table fetches, the plot not. */
  set_text (xrlab_material_row_get_density_editable (row (0)), "2.5");
  settle ();
  g_assert_cmpuint (xrlab_window_get_transfers (win), ==, t0 + 2);

  /* Another energy: the table again. */
  xrlab_values_view_set_energy (values, 17479.0);
  g_object_notify (G_OBJECT (values), "energy-ev");
  settle ();
  g_assert_cmpuint (xrlab_window_get_transfers (win), ==, t0 + 3);

  /* Back to the plot: it fetches what it missed, once. */
  adw_view_stack_set_visible_child_name (stack, "plot");
  settle ();
  g_assert_cmpuint (xrlab_window_get_transfers (win), ==, t0 + 4);
  xrlab_values_view_set_energy (values, 8048.0);
}

static void
test_session_round_trip (void)
{
  g_autofree char *path = g_build_filename (tmpdir, "saved.json", NULL);
  g_autofree char *bad = g_build_filename (tmpdir, "bad.json", NULL);
  g_autoptr(XrlabSession) saved = NULL;
  g_autoptr(XrlabSession) now = NULL;
  g_autoptr(GError) error = NULL;
  XrlabMaterialList *list = xrlab_window_get_material_list (win);
  XrlabSweep sweep = { 100.0, 3000.0, 777, FALSE, XRLAB_ENERGY_UNIT_EV };

  reset_to_example ();
  /* Some state worth saving. */
  set_text (xrlab_material_row_get_name_editable (row (0)), "Substrate");
  set_text (xrlab_material_row_get_density_editable (row (2)), "19.32");
  xrlab_sweep_controls_set_sweep (xrlab_window_get_sweep_controls (win), &sweep);
  xrlab_plot_controls_set_quantity (xrlab_window_get_plot_controls (win), XRLAB_QUANTITY_BETA);
  xrlab_plot_controls_set_y_log (xrlab_window_get_plot_controls (win), FALSE);
  settle ();
  saved = xrlab_window_get_session (win);
  g_assert_true (xrlab_window_save_session_file (win, path, &error));
  g_assert_no_error (error);

  /* Change everything, then open the file again. */
  reset_to_example ();
  xrlab_material_list_remove (list, xrlab_material_row_get_material (row (0)));
  settle ();
  g_assert_true (xrlab_window_open_session_file (win, path, &error));
  g_assert_no_error (error);
  settle ();
  now = xrlab_window_get_session (win);
  g_assert_true (xrlab_session_equal (saved, now));
  g_assert_cmpstr (series (0)->label, ==, "Substrate");
  g_assert_cmpuint (series (0)->n, ==, 777);
  g_clear_pointer (&now, xrlab_session_free);

  /* A corrupt file is refused with a message; nothing changes. */
  g_assert_true (g_file_set_contents (bad, "{\"format\": \"xrlab-session\", \"version\": 1, \"materials\": [", -1, NULL));
  g_assert_false (xrlab_window_open_session_file (win, bad, &error));
  g_assert_error (error, XRLAB_SESSION_ERROR, XRLAB_SESSION_ERROR_PARSE);
  g_assert_nonnull (strstr (error->message, "bad.json"));
  g_clear_error (&error);
  /* So is a foreign one. */
  g_assert_true (g_file_set_contents (bad, "{\"name\": \"package.json\", \"version\": \"1.0\"}", -1, NULL));
  g_assert_false (xrlab_window_open_session_file (win, bad, &error));
  g_assert_error (error, XRLAB_SESSION_ERROR, XRLAB_SESSION_ERROR_FOREIGN);
  settle ();
  now = xrlab_window_get_session (win);
  g_assert_true (xrlab_session_equal (saved, now));
  g_unlink (path);
  g_unlink (bad);
}

static void
test_autosave_and_restore (void)
{
  g_autofree char *autosave = xrlab_session_get_autosave_path ();
  g_autoptr(XrlabSession) now = NULL;
  g_autoptr(XrlabSession) on_disk = NULL;
  g_autoptr(GError) error = NULL;
  XrlabWindow *second;
  GSettings *settings = xrlab_application_get_settings (app);

  reset_to_example ();
  set_text (xrlab_material_row_get_formula_editable (row (1)), "Al2O3");
  set_text (xrlab_material_row_get_density_editable (row (1)), "3.95");
  settle ();
  /* Saved shortly after the change, without any action. */
  xrlab_test_spin (1.5);
  g_assert_true (g_file_test (autosave, G_FILE_TEST_IS_REGULAR));
  on_disk = xrlab_session_load (autosave, &error);
  g_assert_no_error (error);
  now = xrlab_window_get_session (win);
  g_assert_true (xrlab_session_equal (now, on_disk));

  /* The next start restores it. */
  second = xrlab_window_new (GTK_APPLICATION (app), settings, TRUE);
  {
    g_autoptr(XrlabSession) restored = xrlab_window_get_session (second);
    g_assert_true (xrlab_session_equal (now, restored));
  }
  gtk_window_destroy (GTK_WINDOW (second));

  /* An unreadable auto-save file: the example, and the file kept aside. */
  g_assert_true (g_file_set_contents (autosave, "garbage", -1, NULL));
  second = xrlab_window_new (GTK_APPLICATION (app), settings, TRUE);
  {
    g_autoptr(XrlabSession) restored = xrlab_window_get_session (second);
    g_autoptr(XrlabSession) example = xrlab_session_new_default ();
    g_autofree char *aside = g_strconcat (autosave, ".bad", NULL);
    g_assert_cmpuint (restored->materials->len, ==, example->materials->len);
    g_assert_true (g_file_test (aside, G_FILE_TEST_IS_REGULAR));
    g_unlink (aside);
  }
  gtk_window_destroy (GTK_WINDOW (second));
}

static gboolean
file_gone (gpointer data)
{
  return !g_file_test (data, G_FILE_TEST_EXISTS);
}

static char *
read_file (const char *path)
{
  char *text = NULL;
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

/* A start that crashed while restoring leaves its marker: the next start
 * has the example, keeps the session file aside and offers to open it. */
static void
test_restore_crashed (void)
{
  g_autofree char *autosave = xrlab_session_get_autosave_path ();
  g_autofree char *marker = xrlab_session_get_restore_marker_path (autosave);
  g_autofree char *aside = g_strconcat (autosave, ".bad", NULL);
  g_autoptr(XrlabSession) mine = xrlab_session_new ();
  g_autoptr(XrlabSession) example = xrlab_session_new_default ();
  g_autoptr(GError) error = NULL;
  g_autofree char *before = NULL;
  g_autofree char *kept = NULL;
  GSettings *settings = xrlab_application_get_settings (app);
  XrlabWindow *second;

  /* Nothing of the main window's pending in the auto-save file. */
  g_assert_true (xrlab_window_autosave_now (win, &error));
  g_assert_no_error (error);
  xrlab_session_add_material (mine, "crashes", "Fe", 7.87, 2, 0x112233, TRUE);
  g_assert_true (xrlab_session_save (mine, autosave, &error));
  g_assert_no_error (error);
  before = read_file (autosave);
  g_assert_true (g_file_set_contents (marker, "restoring\n", -1, NULL));

  second = xrlab_window_new (GTK_APPLICATION (app), settings, TRUE);
  {
    g_autoptr(XrlabSession) now = xrlab_window_get_session (second);
    g_assert_true (xrlab_session_equal (now, example));
  }
  g_assert_false (g_file_test (marker, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (autosave, G_FILE_TEST_EXISTS));
  kept = read_file (aside);
  g_assert_cmpstr (kept, ==, before);
  /* The toast's button: win.open-previous-session. */
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (second), "open-previous-session"));
  g_action_group_activate_action (G_ACTION_GROUP (second), "open-previous-session", NULL);
  {
    g_autoptr(XrlabSession) now = xrlab_window_get_session (second);
    g_assert_true (xrlab_session_equal (now, mine));
  }
  /* The main window never offers one. */
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (win), "open-previous-session"));
  gtk_window_destroy (GTK_WINDOW (second));
  xrlab_test_spin (0.1);
  g_unlink (aside);
  g_unlink (autosave);
}

/* The marker stands while the restored session is being shown and goes
 * once it is on screen, or when the window closes. */
static void
test_restore_marker (void)
{
  g_autofree char *autosave = xrlab_session_get_autosave_path ();
  g_autofree char *marker = xrlab_session_get_restore_marker_path (autosave);
  g_autoptr(XrlabSession) mine = xrlab_session_new_default ();
  g_autoptr(GError) error = NULL;
  GSettings *settings = xrlab_application_get_settings (app);
  XrlabWindow *second;

  g_assert_true (xrlab_window_autosave_now (win, &error));
  xrlab_session_add_material (mine, "shown", "Cu", 8.96, 1, 0x445566, TRUE);
  g_assert_true (xrlab_session_save (mine, autosave, &error));
  g_assert_no_error (error);

  /* Shown: the marker goes when the plot has its data. */
  second = xrlab_window_new (GTK_APPLICATION (app), settings, TRUE);
  g_assert_true (g_file_test (marker, G_FILE_TEST_IS_REGULAR));
  gtk_window_present (GTK_WINDOW (second));
  xrlab_test_wait_for (file_gone, marker, 20, "the restore marker to go");
  {
    g_autoptr(XrlabSession) now = xrlab_window_get_session (second);
    g_assert_true (xrlab_session_equal (now, mine));
  }
  gtk_window_destroy (GTK_WINDOW (second));

  /* Never shown: it goes when the window closes. */
  second = xrlab_window_new (GTK_APPLICATION (app), settings, TRUE);
  g_assert_true (g_file_test (marker, G_FILE_TEST_IS_REGULAR));
  gtk_window_destroy (GTK_WINDOW (second));
  g_assert_false (g_file_test (marker, G_FILE_TEST_EXISTS));
  xrlab_test_spin (0.1);
  g_unlink (autosave);
}

/* An auto-save with a lone surrogate: restored with U+FFFD (it used to be
 * moved aside whole), the file as it was kept, and the repaired session
 * auto-saved as valid UTF-8. */
static void
test_restore_lone_surrogate (void)
{
  g_autofree char *autosave = xrlab_session_get_autosave_path ();
  g_autofree char *aside = g_strconcat (autosave, ".bad", NULL);
  g_autofree char *marker = xrlab_session_get_restore_marker_path (autosave);
  const char *json =
    "{\"format\":\"xrlab-session\",\"version\":1,\"materials\":["
    "{\"name\":\"\\ud800x\",\"formula\":\"Si\",\"density_g_cm3\":2.33},"
    "{\"name\":\"kept\",\"formula\":\"Au\",\"density_g_cm3\":19.3}],"
    "\"sweep\":{\"start\":1,\"stop\":30,\"unit\":\"keV\",\"points\":100,\"spacing\":\"log\"}}";
  g_autoptr(GError) error = NULL;
  g_autofree char *kept = NULL;
  g_autofree char *written = NULL;
  GSettings *settings = xrlab_application_get_settings (app);
  XrlabWindow *second;

  g_assert_true (xrlab_window_autosave_now (win, &error));
  g_assert_true (g_file_set_contents (autosave, json, -1, NULL));
  second = xrlab_window_new (GTK_APPLICATION (app), settings, TRUE);
  {
    g_autoptr(XrlabSession) now = xrlab_window_get_session (second);
    g_assert_cmpuint (now->materials->len, ==, 2);
    g_assert_cmpstr (((XrlabSessionMaterial *) g_ptr_array_index (now->materials, 0))->name, ==, "\xef\xbf\xbdx");
    g_assert_cmpstr (((XrlabSessionMaterial *) g_ptr_array_index (now->materials, 1))->name, ==, "kept");
  }
  kept = read_file (aside);
  g_assert_cmpstr (kept, ==, json);
  /* The repaired session is saved shortly (here: when the window closes). */
  gtk_window_destroy (GTK_WINDOW (second));
  g_assert_false (g_file_test (marker, G_FILE_TEST_EXISTS));
  written = read_file (autosave);
  g_assert_true (g_utf8_validate (written, -1, NULL));
  {
    g_auto(GStrv) warnings = NULL;
    g_autoptr(XrlabSession) again = xrlab_session_from_json_full (written, -1, XRLAB_SESSION_LOAD_STRICT,
                                                                  &warnings, &error);
    g_assert_no_error (error);
    g_assert_null (warnings);
    g_assert_cmpuint (again->materials->len, ==, 2);
  }
  xrlab_test_spin (0.1);
  g_unlink (aside);
  g_unlink (autosave);
}

static gboolean
result_ready (gpointer data)
{
  return *(GAsyncResult **) data != NULL;
}

static void
store_result (GObject *source, GAsyncResult *result, gpointer data)
{
  *(GAsyncResult **) data = g_object_ref (result);
}

static gboolean
export_csv (const char *path, GError **error)
{
  GAsyncResult *result = NULL;
  gboolean ok;

  xrlab_window_export_csv (win, path, store_result, &result);
  xrlab_test_wait_for (result_ready, &result, 20, "the CSV export");
  ok = xrlab_window_export_csv_finish (win, result, error);
  g_object_unref (result);
  return ok;
}

static void
test_export_csv (void)
{
  g_autofree char *path = g_build_filename (tmpdir, "data.csv", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  g_auto(GStrv) header = NULL;
  int col = -1, col_au_mu = -1;
  guint first_data = 0, rows = 0;

  reset_to_example ();
  g_assert_true (export_csv (path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  lines = g_strsplit (contents, "\n", -1);
  while (lines[first_data] != NULL && lines[first_data][0] == '#')
    first_data++;
  header = g_strsplit (lines[first_data], ",", -1);
  g_assert_cmpstr (header[0], ==, "energy_keV");
  for (int i = 0; header[i] != NULL; i++)
    {
      if (strcmp (header[i], "Si:delta") == 0)
        col = i;
      if (strcmp (header[i], "Au:mu_per_cm") == 0)
        col_au_mu = i;
    }
  /* Every quantity of every visible material, units in the column names. */
  g_assert_cmpint (col, >, 0);
  g_assert_cmpint (col_au_mu, >, 0);
  /* energy, wavelength (shared), the other quantities per material */
  g_assert_cmpstr (header[1], ==, "wavelength_A");
  g_assert_cmpuint (g_strv_length (header), ==, 2 + 3 * (XRLAB_QUANTITY_N - 1));

  /* Full precision: every delta of Si reads back to the plotted double,
   * which came from the engine. */
  for (guint l = first_data + 1; lines[l] != NULL && lines[l][0] != '\0'; l++, rows++)
    {
      g_auto(GStrv) f = g_strsplit (lines[l], ",", -1);
      double e = g_ascii_strtod (f[0], NULL);
      double d = g_ascii_strtod (f[col], NULL);
      g_assert_cmpfloat_with_epsilon (e, series (0)->x[rows], 1e-14 * e);
      g_assert_cmpfloat (d, ==, series (0)->y[rows]);
    }
  g_assert_cmpuint (rows, ==, series (0)->n);

  /* Into a folder that does not exist: a precise error, no file. */
  {
    g_autofree char *nowhere = g_build_filename (tmpdir, "missing", "data.csv", NULL);
    g_assert_false (export_csv (nowhere, &error));
    g_assert_nonnull (error);
    g_assert_nonnull (strstr (error->message, "missing"));
    g_clear_error (&error);
  }
  g_unlink (path);
}

static void
test_export_plot (void)
{
  g_autofree char *path = g_build_filename (tmpdir, "plot.png", NULL);
  g_autoptr(GError) error = NULL;
  cairo_surface_t *s;

  reset_to_example ();
  /* 800 x 500 is what is written (no hidden scale). */
  g_settings_set_double (xrlab_application_get_settings (app), "export-png-scale", 2.0);
  g_assert_true (xrlab_window_export_plot_file (win, path, XRLAB_PLOT_FORMAT_PNG, 800, 500, &error));
  g_assert_no_error (error);
  s = cairo_image_surface_create_from_png (path);
  g_assert_cmpint (cairo_surface_status (s), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (s), ==, 800);
  g_assert_cmpint (cairo_image_surface_get_height (s), ==, 500);
  /* Not blank: the three curves are there in their colours (the plot
   * palette's first two: #0072b2, #e69f00). */
  g_assert_cmpuint (xrlab_test_count_pixels (s, 0xffffffff, 30, 0, cairo_image_surface_get_width (s)), >, 5000);
  g_assert_cmpuint (xrlab_test_count_color (s, 0x0072b2, 40, 0, cairo_image_surface_get_width (s)), >, 400);
  g_assert_cmpuint (xrlab_test_count_color (s, 0xe69f00, 40, 0, cairo_image_surface_get_width (s)), >, 400);
  cairo_surface_destroy (s);
  g_unlink (path);
}

static void
test_actions (void)
{
  g_auto(GStrv) accels = NULL;
  XrlabPlot *plot = xrlab_window_get_plot (win);

  reset_to_example ();
  accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "win.export-csv");
  g_assert_cmpstr (accels[0], ==, "<Control>e");
  g_clear_pointer (&accels, g_strfreev);
  accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "app.preferences");
  g_assert_cmpstr (accels[0], ==, "<Control>comma");

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (win), "win.toggle-x-log", NULL));
  settle ();
  g_assert_false (xrlab_plot_get_x_log (plot));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (win), "win.toggle-x-log", NULL));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (win), "win.show-page", "s", "values"));
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (xrlab_window_get_view_stack (win)), ==, "values");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (win), "win.show-page", "s", "plot"));
  g_assert_true (g_action_group_has_action (G_ACTION_GROUP (app), "about"));
  g_assert_true (g_action_group_has_action (G_ACTION_GROUP (app), "shortcuts"));

  /* Without materials there is nothing to export. */
  {
    GListStore *store = xrlab_window_get_materials (win);
    g_assert_false (xrlab_window_get_empty (win));
    g_list_store_remove_all (store);
    settle ();
    g_assert_null (plot_data ());
    /* The empty state says what to do, with a button for it. */
    g_assert_true (xrlab_window_get_empty (win));
    {
      g_autofree char *path = g_build_filename (tmpdir, "none.csv", NULL);
      g_autoptr(GError) error = NULL;
      g_assert_false (export_csv (path, &error));
      g_assert_nonnull (error);
      g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
    }
  }
}

static void
test_quantity_switch (void)
{
  XrlabPlotControls *pc = xrlab_window_get_plot_controls (win);

  int width = -1;

  reset_to_example ();
  for (guint q = 0; q < XRLAB_QUANTITY_N; q++)
    {
      int natural;
      if (!xrlab_quantity_get_info (q)->plottable)
        continue;
      xrlab_plot_controls_set_quantity (pc, q);
      settle ();
      g_assert_cmpuint (xrlab_plot_data_get_n_series (plot_data ()), ==, 3);
      /* The selector keeps its width: the Log toggles do not move. */
      gtk_widget_measure (GTK_WIDGET (pc), GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural, NULL, NULL);
      if (width < 0)
        width = natural;
      g_assert_cmpint (natural, ==, width);
    }
  /* The critical angle in degrees as well as in mrad. */
  xrlab_plot_controls_set_quantity (pc, XRLAB_QUANTITY_CRITICAL_ANGLE_DEG);
  g_assert_cmpint (xrlab_plot_controls_get_quantity (pc), ==, XRLAB_QUANTITY_CRITICAL_ANGLE_DEG);
  settle ();
  g_assert_cmpuint (xrlab_plot_data_get_n_series (plot_data ()), ==, 3);
  /* A transmission is that of a layer: the legend gives its thickness. */
  set_text (xrlab_material_row_get_thickness_editable (row (2)), "0.25");
  xrlab_plot_controls_set_quantity (pc, XRLAB_QUANTITY_TRANSMISSION);
  settle ();
  g_assert_cmpstr (series (0)->label, ==, "Si, 1 µm");
  g_assert_cmpstr (series (2)->label, ==, "Au, 0.25 µm");

  /* The Henke tables are valid from 30 eV, for every quantity: 20 eV is
   * refused whatever is plotted. */
  xrlab_plot_controls_set_quantity (pc, XRLAB_QUANTITY_BETA);
  xrlab_sweep_controls_set_table (xrlab_window_get_sweep_controls (win), XRLAB_TABLE_CHOICE_HENKE);
  set_text (xrlab_sweep_controls_get_start_editable (xrlab_window_get_sweep_controls (win)), "0.02");
  settle ();
  g_assert_false (xrlab_sweep_controls_is_valid (xrlab_window_get_sweep_controls (win)));
  g_assert_nonnull (strstr (xrlab_sweep_controls_get_error (xrlab_window_get_sweep_controls (win)), "0.03 keV"));
}


/* ---- removal, undo, drag ------------------------------------------------------------ */

static GtkDropTarget *
row_drop_target (XrlabMaterialRow *r)
{
  GListModel *controllers = gtk_widget_observe_controllers (GTK_WIDGET (r));
  GtkDropTarget *target = NULL;

  for (guint i = 0; i < g_list_model_get_n_items (controllers) && target == NULL; i++)
    {
      g_autoptr(GObject) c = g_list_model_get_item (controllers, i);
      if (GTK_IS_DROP_TARGET (c))
        target = GTK_DROP_TARGET (c);
    }
  g_object_unref (controllers);
  return target;
}

/* Drags row @from onto row @to the way GTK does: prepare and begin on the
 * handle's source, drop on the target row, end on the source. */
static void
drag_row (guint from, guint to)
{
  g_autoptr(GObject) source = g_object_ref (G_OBJECT (xrlab_material_row_get_drag_source (row (from))));
  GtkDropTarget *target = row_drop_target (row (to));
  g_autoptr(GdkContentProvider) content = NULL;
  g_auto(GValue) value = G_VALUE_INIT;
  gboolean dropped = FALSE;

  g_assert_nonnull (target);
  g_signal_emit_by_name (source, "prepare", 4.0, 4.0, &content);
  g_assert_nonnull (content);
  g_signal_emit_by_name (source, "drag-begin", NULL);
  g_value_init (&value, XRLAB_TYPE_MATERIAL);
  g_assert_true (gdk_content_provider_get_value (content, &value, NULL));
  g_signal_emit_by_name (target, "drop", &value, 4.0, 4.0, &dropped);
  g_assert_true (dropped);
  /* The dragged row must still be alive here (a freed row warns: fatal). */
  g_signal_emit_by_name (source, "drag-end", NULL, TRUE);
  xrlab_test_spin (0.05);
}

static const char *
name_at (guint i)
{
  g_autoptr(XrlabMaterial) m = g_list_model_get_item (G_LIST_MODEL (xrlab_window_get_materials (win)), i);
  g_assert_nonnull (m);
  return g_intern_string (xrlab_material_get_display_name (m));
}

static void
test_drag_after_undo (void)
{
  XrlabMaterialList *list = xrlab_window_get_material_list (win);

  reset_to_example ();
  xrlab_material_list_remove (list, xrlab_material_row_get_material (row (2)));
  settle ();
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (win), "win.undo", NULL));
  settle ();
  g_assert_cmpstr (name_at (2), ==, "Au");

  /* Au onto the first row: it moves there once the drag has ended. */
  drag_row (2, 0);
  settle ();
  g_assert_cmpstr (name_at (0), ==, "Au");
  g_assert_cmpstr (name_at (1), ==, "Si");
  g_assert_cmpstr (name_at (2), ==, "SiO₂");
  /* And a plain drag, without removal, just as well. */
  drag_row (0, 2);
  settle ();
  g_assert_cmpstr (name_at (2), ==, "Au");
}

static void
on_toast_dismissed (AdwToast *toast, gpointer data)
{
  (*(guint *) data)++;
}

static gboolean
toast_dismissed (gpointer data)
{
  return *(guint *) data > 0;
}

static void
test_undo_order (void)
{
  XrlabMaterialList *list = xrlab_window_get_material_list (win);
  g_autoptr(AdwToast) first = NULL;
  guint dismissed = 0;
  guint n0;

  reset_to_example ();
  n0 = xrlab_window_get_n_undo (win);
  xrlab_material_list_remove (list, xrlab_material_row_get_material (row (0)));
  first = g_object_ref (xrlab_window_get_undo_toast (win));
  g_assert_cmpstr (adw_toast_get_title (first), ==, "Removed “Si”");
  g_signal_connect (first, "dismissed", G_CALLBACK (on_toast_dismissed), &dismissed);
  xrlab_material_list_remove (list, xrlab_material_row_get_material (row (1)));
  settle ();

  /* The newest removal is offered at once, and the older one is not queued
   * behind it: one toast, retitled. */
  g_assert_cmpuint (dismissed, ==, 0);
  g_assert_true (xrlab_window_get_undo_toast (win) == first);
  g_assert_cmpstr (adw_toast_get_title (first), ==, "Removed “Au”");
  g_assert_cmpuint (xrlab_window_get_n_undo (win), ==, n0 + 2);

  /* Undo takes them back newest first, each at its old position. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (win), "win.undo", NULL));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (xrlab_window_get_materials (win))), ==, 2);
  g_assert_cmpstr (name_at (0), ==, "SiO₂");
  g_assert_cmpstr (name_at (1), ==, "Au");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (win), "win.undo", NULL));
  g_assert_cmpstr (name_at (0), ==, "Si");
  g_assert_cmpstr (name_at (1), ==, "SiO₂");
  g_assert_cmpstr (name_at (2), ==, "Au");
  g_assert_cmpuint (xrlab_window_get_n_undo (win), ==, n0);
  /* Undone: the toast is the window's no longer, and goes away once it has
   * appeared (libadwaita 1.2 must not be asked earlier: a use after free). */
  g_assert_null (xrlab_window_get_undo_toast (win));
  xrlab_test_wait_for (toast_dismissed, &dismissed, 5, "the undo toast to go");
  g_assert_cmpuint (dismissed, ==, 1);
  settle ();
}

static void
test_reset_undo (void)
{
  XrlabMaterialList *list = xrlab_window_get_material_list (win);

  reset_to_example ();
  set_text (xrlab_material_row_get_name_editable (row (0)), "Wafer");
  xrlab_material_list_remove (list, xrlab_material_row_get_material (row (2)));
  settle ();
  /* Reset replaces everything, and says so with an Undo. */
  gtk_widget_activate_action (GTK_WIDGET (win), "win.reset-session", NULL);
  settle ();
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (xrlab_window_get_materials (win))), ==, 3);
  g_assert_cmpstr (adw_toast_get_title (xrlab_window_get_undo_toast (win)), ==, "Reset to the example");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (win), "win.undo", NULL));
  settle ();
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (xrlab_window_get_materials (win))), ==, 2);
  g_assert_cmpstr (name_at (0), ==, "Wafer");
}

static void
test_save_to_current_file (void)
{
  g_autofree char *path = g_build_filename (tmpdir, "current.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabSession) on_disk = NULL;

  reset_to_example ();
  g_assert_null (xrlab_window_get_session_path (win));
  g_assert_true (xrlab_window_save_session_file (win, path, &error));
  g_assert_no_error (error);
  /* The window now belongs to that file: its name in the title. */
  g_assert_cmpstr (xrlab_window_get_session_path (win), ==, path);
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (win)), ==, "current.json — xrlab");

  /* Ctrl+S writes there, without asking. */
  set_text (xrlab_material_row_get_name_editable (row (0)), "Wafer");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (win), "win.save-session", NULL));
  on_disk = xrlab_session_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (((XrlabSessionMaterial *) g_ptr_array_index (on_disk->materials, 0))->name, ==, "Wafer");

  /* The example is no file of the user's. */
  reset_to_example ();
  g_assert_null (xrlab_window_get_session_path (win));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (win)), ==, "xrlab");
  g_unlink (path);
}

static void
test_about_credits (void)
{
  g_autoptr(GString) all = g_string_new (NULL);
  static const char *const needed[] = {
    "Henke", "1993", "CXRO", "Chantler", "FFAST", "xraylib", "CIAAW", "CODATA 2018",
  };

  for (guint i = 0; i < xrlab_application_get_n_data_credits (); i++)
    g_string_append (all, xrlab_application_get_data_credit (i));
  for (guint i = 0; i < G_N_ELEMENTS (needed); i++)
    g_assert_nonnull (strstr (all->str, needed[i]));
  g_assert_true (g_action_group_has_action (G_ACTION_GROUP (app), "about"));
}

static void
test_file_names (void)
{
  g_autofree char *a = xrlab_window_complete_file_name ("/tmp/results", ".csv");
  g_autofree char *b = xrlab_window_complete_file_name ("/tmp/results.csv", ".csv");
  g_autofree char *c = xrlab_window_complete_file_name ("/tmp/results.txt", ".csv");
  g_autofree char *d = xrlab_window_complete_file_name ("/tmp/v1.2/results", ".csv");
  g_autofree char *e = xrlab_window_complete_file_name ("/tmp/.hidden", ".csv");

  g_assert_cmpstr (a, ==, "/tmp/results.csv");
  g_assert_cmpstr (b, ==, "/tmp/results.csv");
  g_assert_cmpstr (c, ==, "/tmp/results.txt");
  g_assert_cmpstr (d, ==, "/tmp/v1.2/results.csv");
  g_assert_cmpstr (e, ==, "/tmp/.hidden.csv");
}

/* Software OpenGL is told from a GPU's by its GL_RENDERER string; a
 * GSK_RENDERER of the user's (the test environment's "cairo") is kept. */
static void
test_renderer_choice (void)
{
  static const struct {
    const char *renderer;
    gboolean software;
  } cases[] = {
    { "llvmpipe (LLVM 15.0.6, 256 bits)", TRUE },
    { "softpipe", TRUE },
    { "Software Rasterizer", TRUE },
    { "Mesa X11 swrast", TRUE },
    { "AMD Radeon RX 6800 (navi21, LLVM 15.0.6, DRM 3.49, 6.1.0-13-amd64)", FALSE },
    { "Mesa Intel(R) UHD Graphics 620 (KBL GT2)", FALSE },
    { "NVIDIA GeForce RTX 3080/PCIe/SSE2", FALSE },
    { "", FALSE },
    { NULL, FALSE },
  };
  const char *note;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    g_assert_cmpint (xrlab_gl_renderer_is_software (cases[i].renderer), ==, cases[i].software);

  g_assert_cmpstr (g_getenv ("GSK_RENDERER"), ==, "cairo");
  note = xrlab_renderer_choose (gdk_display_get_default ());
  g_assert_nonnull (strstr (note, "GSK_RENDERER=cairo, as set"));
  g_assert_true (xrlab_renderer_choose (NULL) == note);
  g_assert_cmpstr (g_getenv ("GSK_RENDERER"), ==, "cairo");
}

int
main (int argc, char *argv[])
{
  int status;

  /* A private state folder: no saved session, nothing of the user's touched. */
  tmpdir = xrlab_test_private_state ("xrlab-window-XXXXXX");
  g_test_init (&argc, &argv, NULL);
  app = xrlab_test_app_start (TRUE, &win);

  g_test_add_func ("/window/first-start", test_first_start);
  g_test_add_func ("/window/renderer-choice", test_renderer_choice);
  g_test_add_func ("/window/edit-formula", test_edit_formula);
  g_test_add_func ("/window/edit-density", test_edit_density);
  g_test_add_func ("/window/invalid-formula", test_invalid_formula);
  g_test_add_func ("/window/new-material-with-error", test_new_material_with_error);
  g_test_add_func ("/window/sweep-out-of-range", test_sweep_out_of_range);
  g_test_add_func ("/window/tables", test_tables);
  g_test_add_func ("/window/consumers-fetch-when-shown", test_consumers_fetch_when_shown);
  g_test_add_func ("/window/quantity-switch", test_quantity_switch);
  g_test_add_func ("/window/session-round-trip", test_session_round_trip);
  g_test_add_func ("/window/autosave-and-restore", test_autosave_and_restore);
  g_test_add_func ("/window/restore-crashed", test_restore_crashed);
  g_test_add_func ("/window/restore-marker", test_restore_marker);
  g_test_add_func ("/window/restore-lone-surrogate", test_restore_lone_surrogate);
  g_test_add_func ("/window/export-csv", test_export_csv);
  g_test_add_func ("/window/export-plot", test_export_plot);
  g_test_add_func ("/window/actions", test_actions);
  g_test_add_func ("/window/drag-after-undo", test_drag_after_undo);
  g_test_add_func ("/window/undo-order", test_undo_order);
  g_test_add_func ("/window/reset-undo", test_reset_undo);
  g_test_add_func ("/window/save-to-current-file", test_save_to_current_file);
  g_test_add_func ("/window/file-names", test_file_names);
  g_test_add_func ("/window/about-credits", test_about_credits);
  status = g_test_run ();

  xrlab_test_app_stop (&app, win, tmpdir);
  return status;
}
