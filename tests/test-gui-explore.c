/* test-gui-explore.c -- exploring and publishing the window's plot: zoom,
 * pan and reset, typed axis limits, pins and their table, the view in the
 * session, the export dialog's sizes and formats read back from the files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib/gstdio.h>

#include "gui-test-util.h"
#include "plot-file-util.h"
#include "xrlab-application.h"
#include "xrlab-window.h"

static XrlabApplication *app;
static XrlabWindow *win;
static XrlabPlot *plot;
static char *tmpdir;

/* ---- helpers ---------------------------------------------------------------------- */

static gboolean
idle_and_drawn (gpointer data)
{
  return !xrlab_window_is_busy (win) && xrlab_plot_get_render_count (plot) > 0;
}

/* Pending edits computed and a frame drawn after them. */
static void
settle (void)
{
  guint before;

  xrlab_test_wait_for (idle_and_drawn, NULL, 20, "the window to compute and draw");
  before = xrlab_plot_get_render_count (plot);
  gtk_widget_queue_draw (GTK_WIDGET (plot));
  for (int i = 0; i < 50 && xrlab_plot_get_render_count (plot) == before; i++)
    xrlab_test_spin (0.02);
  xrlab_test_spin (0.05);
}

static void
reset_to_example (void)
{
  gtk_widget_activate_action (GTK_WIDGET (win), "win.reset-session", NULL);
  adw_view_stack_set_visible_child_name (xrlab_window_get_view_stack (win), "plot");
  settle ();
  g_assert_true (xrlab_plot_get_frame (plot)->valid);
}

static void
frame_limits (double *x0, double *x1, double *y0, double *y1)
{
  xrlab_plot_frame_get_limits (xrlab_plot_get_frame (plot), x0, x1, y0, y1);
}

/* The descendants of @w of type @type, in order. */
static void
find_all (GtkWidget *w, GType type, GPtrArray *out)
{
  for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      if (G_TYPE_CHECK_INSTANCE_TYPE (c, type))
        g_ptr_array_add (out, c);
      find_all (c, type, out);
    }
}

/* ---- zoom, pan, reset ---------------------------------------------------------------- */

static void
test_zoom_pan_reset (void)
{
  const XrlabPlotFrame *f;
  double x0, x1, y0, y1, a0, a1, b0, b1, zx0, zx1;

  reset_to_example ();
  f = xrlab_plot_get_frame (plot);
  g_assert_false (xrlab_plot_get_zoomed (plot));
  frame_limits (&x0, &x1, &y0, &y1);
  g_assert_cmpfloat_with_epsilon (x0, 1.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (x1, 30.0, 1e-9);

  /* The wheel's zoom about the middle: x to half its (log) range, y still
   * following the data. */
  g_assert_true (xrlab_plot_zoom_at (plot, 2, 1, (f->px0 + f->px1) / 2, (f->py0 + f->py1) / 2));
  g_assert_true (xrlab_plot_get_zoomed (plot));
  g_assert_true (xrlab_plot_get_x_limits (plot, &a0, &a1));
  g_assert_false (xrlab_plot_get_y_limits (plot, NULL, NULL));
  g_assert_cmpfloat_with_epsilon (log10 (a1 / a0), log10 (30.0) / 2, 1e-9);
  g_assert_cmpfloat_with_epsilon (sqrt (a0 * a1), sqrt (30.0), 1e-9);
  settle ();
  frame_limits (&b0, &b1, NULL, NULL);
  g_assert_cmpfloat_with_epsilon (b0, a0, 1e-9 * a0);
  g_assert_cmpfloat_with_epsilon (b1, a1, 1e-9 * a1);

  /* About the pointer at the left edge: the left limit stays. */
  g_assert_true (xrlab_plot_zoom_at (plot, 1.5, 1, f->px0, f->py0));
  xrlab_plot_get_x_limits (plot, &zx0, &zx1);
  g_assert_cmpfloat_with_epsilon (zx0, a0, 1e-9 * a0);
  g_assert_cmpfloat (zx1, <, a1);

  /* The view survives redraws caused by edits. */
  {
    g_autoptr(XrlabMaterial) si = g_list_model_get_item (G_LIST_MODEL (xrlab_window_get_materials (win)), 0);
    guint renders = xrlab_plot_get_render_count (plot);
    xrlab_material_set_density (si, 2.0);
    settle ();
    g_assert_cmpuint (xrlab_plot_get_render_count (plot), >, renders);
  }
  xrlab_plot_get_x_limits (plot, &a0, &a1);
  g_assert_cmpfloat (a0, ==, zx0);
  g_assert_cmpfloat (a1, ==, zx1);

  /* Panning by a tenth of the width moves the range by a tenth. */
  g_assert_true (xrlab_plot_pan (plot, -(f->px1 - f->px0) / 10, 0));
  xrlab_plot_get_x_limits (plot, &b0, &b1);
  g_assert_cmpfloat_with_epsilon (log10 (b0 / a0), log10 (a1 / a0) / 10, 1e-9);
  g_assert_cmpfloat_with_epsilon (log10 (b1 / b0), log10 (a1 / a0), 1e-9);

  /* A dragged rectangle: both axes; a flat one: x only. */
  settle ();
  g_assert_true (xrlab_plot_zoom_to_rect (plot, f->px0 + 100, f->py0 + 50, f->px0 + 300, f->py0 + 250));
  g_assert_true (xrlab_plot_get_y_limits (plot, &y0, &y1));
  g_assert_cmpfloat (y0, <, y1);
  xrlab_plot_reset_view (plot);
  settle ();
  g_assert_true (xrlab_plot_zoom_to_rect (plot, f->px0 + 100, f->py0 + 50, f->px0 + 300, f->py0 + 53));
  g_assert_true (xrlab_plot_get_x_limits (plot, NULL, NULL));
  g_assert_false (xrlab_plot_get_y_limits (plot, NULL, NULL));
  /* A click-sized one is no zoom. */
  g_assert_false (xrlab_plot_zoom_to_rect (plot, f->px0 + 100, f->py0 + 50, f->px0 + 103, f->py0 + 52));

  /* Reset View (the action the button and Home use). */
  settle ();
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (plot), "plot.reset-view", NULL));
  g_assert_false (xrlab_plot_get_zoomed (plot));
  settle ();
  frame_limits (&a0, &a1, NULL, NULL);
  g_assert_cmpfloat_with_epsilon (a0, 1.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (a1, 30.0, 1e-9);

  /* Zoom in and out by the actions: back where it was. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (plot), "plot.zoom-in", NULL));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (plot), "plot.zoom-out", NULL));
  xrlab_plot_get_x_limits (plot, &a0, &a1);
  g_assert_cmpfloat_with_epsilon (a0, 1.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (a1, 30.0, 1e-9);

  /* Another quantity: y limits of δ mean nothing for μ; x stays. */
  g_assert_true (xrlab_plot_zoom_to_rect (plot, f->px0 + 100, f->py0 + 50, f->px0 + 300, f->py0 + 250));
  xrlab_plot_controls_set_quantity (xrlab_window_get_plot_controls (win), XRLAB_QUANTITY_MU);
  settle ();
  g_assert_true (xrlab_plot_get_x_limits (plot, NULL, NULL));
  g_assert_false (xrlab_plot_get_y_limits (plot, NULL, NULL));
  xrlab_plot_reset_view (plot);
}

/* The sweep's unit changes: the view and the pins follow, converted. */
static void
test_view_follows_unit (void)
{
  XrlabSweepControls *sc = xrlab_window_get_sweep_controls (win);
  g_autoptr(GPtrArray) drops = g_ptr_array_new ();
  XrlabSweep sweep;
  double a0, a1;
  const double *pins;
  guint n;
  gboolean switched = FALSE;

  reset_to_example ();
  xrlab_plot_set_x_limits (plot, 8, 9);
  xrlab_plot_add_pin (plot, 8.5);
  /* The user picks eV in the sweep's unit menu. */
  find_all (GTK_WIDGET (sc), GTK_TYPE_DROP_DOWN, drops);
  for (guint i = 0; i < drops->len && !switched; i++)
    {
      GListModel *model = gtk_drop_down_get_model (g_ptr_array_index (drops, i));
      for (guint k = 0; model != NULL && GTK_IS_STRING_LIST (model) && k < g_list_model_get_n_items (model); k++)
        if (g_strcmp0 (gtk_string_list_get_string (GTK_STRING_LIST (model), k), "eV") == 0)
          {
            gtk_drop_down_set_selected (g_ptr_array_index (drops, i), k);
            switched = TRUE;
          }
    }
  g_assert_true (switched);
  settle ();
  xrlab_sweep_controls_get_sweep (sc, &sweep);
  g_assert_cmpint (sweep.unit, ==, XRLAB_ENERGY_UNIT_EV);
  g_assert_true (xrlab_plot_get_x_limits (plot, &a0, &a1));
  g_assert_cmpfloat_with_epsilon (a0, 8000, 1e-6);
  g_assert_cmpfloat_with_epsilon (a1, 9000, 1e-6);
  pins = xrlab_plot_get_pins (plot, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpfloat_with_epsilon (pins[0], 8500, 1e-6);
  xrlab_plot_clear_pins (plot);
}

/* ---- typed limits ----------------------------------------------------------------- */

static GtkWidget *
limits_popover (void)
{
  g_autoptr(GPtrArray) popovers = g_ptr_array_new ();

  find_all (GTK_WIDGET (plot), GTK_TYPE_POPOVER, popovers);
  for (guint i = 0; i < popovers->len; i++)
    if (!GTK_IS_POPOVER_MENU (g_ptr_array_index (popovers, i)))
      return g_ptr_array_index (popovers, i);
  return NULL;
}

static void
type_limits (const char *action, const char *from, const char *to)
{
  GtkWidget *popover;
  g_autoptr(GPtrArray) entries = g_ptr_array_new ();

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (plot), action, NULL));
  popover = limits_popover ();
  g_assert_nonnull (popover);
  g_assert_true (gtk_widget_get_visible (popover));
  find_all (popover, GTK_TYPE_ENTRY, entries);
  g_assert_cmpuint (entries->len, ==, 2);
  gtk_editable_set_text (GTK_EDITABLE (g_ptr_array_index (entries, 0)), from);
  gtk_editable_set_text (GTK_EDITABLE (g_ptr_array_index (entries, 1)), to);
  g_signal_emit_by_name (g_ptr_array_index (entries, 1), "activate");
}

static const char *
limits_error_text (void)
{
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();

  find_all (limits_popover (), GTK_TYPE_LABEL, labels);
  for (guint i = 0; i < labels->len; i++)
    if (gtk_widget_has_css_class (g_ptr_array_index (labels, i), "error") &&
        gtk_widget_get_visible (g_ptr_array_index (labels, i)))
      return gtk_label_get_text (g_ptr_array_index (labels, i));
  return NULL;
}

static void
test_typed_limits (void)
{
  double a0, a1;
  g_autoptr(GPtrArray) entries = g_ptr_array_new ();

  reset_to_example ();
  /* The popover opens with the limits shown. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (plot), "plot.set-x-limits", NULL));
  find_all (limits_popover (), GTK_TYPE_ENTRY, entries);
  g_assert_cmpstr (gtk_editable_get_text (g_ptr_array_index (entries, 0)), ==, "1");
  g_assert_cmpstr (gtk_editable_get_text (g_ptr_array_index (entries, 1)), ==, "30");
  gtk_popover_popdown (GTK_POPOVER (limits_popover ()));

  /* A decimal comma is as good as a point. */
  type_limits ("plot.set-x-limits", "8,5", "9.5");
  g_assert_true (xrlab_plot_get_x_limits (plot, &a0, &a1));
  g_assert_cmpfloat (a0, ==, 8.5);
  g_assert_cmpfloat (a1, ==, 9.5);
  g_assert_false (gtk_widget_get_visible (limits_popover ()));

  /* Not a number, or not for a log axis: an error, nothing changes. */
  type_limits ("plot.set-x-limits", "abc", "9");
  g_assert_nonnull (limits_error_text ());
  g_assert_nonnull (strstr (limits_error_text (), "abc"));
  xrlab_plot_get_x_limits (plot, &a0, &a1);
  g_assert_cmpfloat (a0, ==, 8.5);
  gtk_popover_popdown (GTK_POPOVER (limits_popover ()));
  type_limits ("plot.set-y-limits", "-1", "1");
  g_assert_nonnull (strstr (limits_error_text (), "above 0"));
  g_assert_false (xrlab_plot_get_y_limits (plot, NULL, NULL));
  gtk_popover_popdown (GTK_POPOVER (limits_popover ()));

  /* Reversed limits are taken in order. */
  type_limits ("plot.set-y-limits", "1e-4", "1e-6");
  g_assert_true (xrlab_plot_get_y_limits (plot, &a0, &a1));
  g_assert_cmpfloat (a0, ==, 1e-6);
  g_assert_cmpfloat (a1, ==, 1e-4);
  settle ();
  frame_limits (NULL, NULL, &a0, &a1);
  g_assert_cmpfloat_with_epsilon (a0, 1e-6, 1e-15);
  xrlab_plot_reset_view (plot);
}

/* ---- pins --------------------------------------------------------------------------- */

static void
on_pins_copied (XrlabPlot *p, guint n, guint *count)
{
  *count = n;
}

static void
on_clipboard_text (GObject *source, GAsyncResult *result, gpointer user_data)
{
  char **out = user_data;
  *out = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (source), result, NULL);
  if (*out == NULL)
    *out = g_strdup ("");
}

static gboolean
is_set (gpointer data)
{
  return *(char **) data != NULL;
}

static void
test_pins (void)
{
  g_autofree char *table = NULL, *clip = NULL, *csv = NULL;
  g_autofree char *csv_path = g_build_filename (tmpdir, "pins.csv", NULL);
  g_auto(GStrv) lines = NULL, head = NULL, row = NULL;
  XrlabPlotData *d;
  guint copied = 0;
  gulong handler;

  reset_to_example ();
  g_assert_null (xrlab_plot_get_pins_table (plot, '\t'));
  xrlab_plot_add_pin (plot, 8.0);
  xrlab_plot_add_pin (plot, 1.839);
  settle ();
  d = xrlab_plot_get_data (plot);
  table = xrlab_plot_get_pins_table (plot, '\t');
  lines = g_strsplit (table, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 4);   /* header, 2 rows, "" */
  g_assert_cmpstr (lines[0], ==, "Photon energy (keV)\tSi\tSiO₂\tAu");
  /* By x; each value the series' value there. */
  row = g_strsplit (lines[1], "\t", -1);
  g_assert_cmpstr (row[0], ==, "1.839");
  for (guint k = 0; k < 3; k++)
    {
      double v = xrlab_plot_series_value_at (xrlab_plot_data_get_series (d, k), 1.839, TRUE);
      g_assert_cmpfloat_with_epsilon (g_ascii_strtod (row[k + 1], NULL), v, 1e-5 * fabs (v));
    }
  head = g_strsplit (lines[2], "\t", -1);
  g_assert_cmpstr (head[0], ==, "8");

  /* Copied as that table, with feedback. */
  handler = g_signal_connect (plot, "pins-copied", G_CALLBACK (on_pins_copied), &copied);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (plot), "plot.copy-pins", NULL));
  g_assert_cmpuint (copied, ==, 2);
  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (GTK_WIDGET (plot)), NULL, on_clipboard_text, &clip);
  xrlab_test_wait_for (is_set, &clip, 5, "the clipboard");
  g_assert_cmpstr (clip, ==, table);
  g_signal_handler_disconnect (plot, handler);

  /* Exported as CSV. */
  g_assert_true (xrlab_window_export_pins (win, csv_path, NULL));
  g_assert_true (g_file_get_contents (csv_path, &csv, NULL, NULL));
  g_assert_true (g_str_has_prefix (csv, "Photon energy (keV),Si,SiO₂,Au\n1.839,"));

  /* In the session, and back. */
  {
    g_autoptr(XrlabSession) s = xrlab_window_get_session (win);
    g_assert_cmpuint (s->n_pins, ==, 2);
    g_assert_cmpfloat (s->pins[0], ==, 8.0);
  }

  /* A pin is removed, then all. */
  xrlab_plot_remove_pin (plot, 0);
  g_assert_cmpuint ((xrlab_plot_get_pins (plot, NULL), 1), ==, 1);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (plot), "plot.clear-pins", NULL));
  {
    guint n;
    xrlab_plot_get_pins (plot, &n);
    g_assert_cmpuint (n, ==, 0);
  }
  g_assert_false (xrlab_window_export_pins (win, csv_path, NULL));
  g_unlink (csv_path);
}

/* ---- the session ------------------------------------------------------------------ */

static void
test_session_view (void)
{
  g_autoptr(XrlabSession) s = NULL, back = NULL, old = NULL;
  g_autofree char *json = NULL;
  g_autoptr(GError) error = NULL;
  double a0, a1;
  guint n;

  reset_to_example ();
  xrlab_plot_set_x_limits (plot, 8.8, 9.2);
  xrlab_plot_set_y_limits (plot, 1e-6, 2e-5);
  xrlab_plot_add_pin (plot, 8.979);
  s = xrlab_window_get_session (win);
  json = xrlab_session_to_json (s, NULL);
  g_assert_nonnull (strstr (json, "\"view\": {\n    \"x\": [8.8, 9.2],\n    \"y\": [1e-06, 2e-05],\n    \"pins\": [8.979]\n  }"));
  back = xrlab_session_from_json (json, -1, &error);
  g_assert_no_error (error);
  g_assert_true (xrlab_session_equal (s, back));

  /* Applying a session without a view: automatic. */
  {
    g_autoptr(XrlabSession) plain = xrlab_session_new_default ();
    xrlab_window_apply_session (win, plain);
  }
  settle ();
  g_assert_false (xrlab_plot_get_zoomed (plot));
  /* And with one: restored, and kept through the recompute. */
  xrlab_window_apply_session (win, back);
  settle ();
  g_assert_true (xrlab_plot_get_x_limits (plot, &a0, &a1));
  g_assert_cmpfloat (a0, ==, 8.8);
  g_assert_true (xrlab_plot_get_y_limits (plot, &a0, &a1));
  g_assert_cmpfloat (a1, ==, 2e-5);
  xrlab_plot_get_pins (plot, &n);
  g_assert_cmpuint (n, ==, 1);

  /* A session written before views existed still loads (and one without a
   * view is written as before). */
  {
    g_autoptr(XrlabSession) plain = xrlab_session_new_default ();
    g_autofree char *plain_json = xrlab_session_to_json (plain, NULL);
    g_assert_null (strstr (plain_json, "view"));
    old = xrlab_session_from_json (plain_json, -1, &error);
    g_assert_no_error (error);
  }
  g_assert_true (isnan (old->view_x_min));
  g_assert_cmpuint (old->n_pins, ==, 0);
  /* A bad view is refused with its place. */
  {
    g_autoptr(XrlabSession) plain = xrlab_session_new_default ();
    g_autofree char *plain_json = xrlab_session_to_json (plain, NULL);
    g_autofree char *bad = NULL;
    char *end = strrchr (plain_json, '}');
    *end = '\0';
    bad = g_strconcat (plain_json, ", \"view\": { \"x\": [2, 1] } }", NULL);
    g_assert_null (xrlab_session_from_json (bad, -1, &error));
  }
  g_assert_nonnull (strstr (error->message, "view.x"));
  xrlab_plot_reset_view (plot);
  xrlab_plot_clear_pins (plot);
}

/* A session that gives no colours (written by hand or by a script) gets the
 * palette's colours in turn, not one colour for every material; a colour it
 * gives is kept. */
static void
test_session_colors (void)
{
  static const char json[] =
    "{ \"format\": \"xrlab-session\", \"version\": 1, \"materials\": ["
    " {\"formula\": \"Si\", \"density_g_cm3\": 2.33},"
    " {\"formula\": \"Au\", \"density_g_cm3\": 19.3, \"color\": \"#123456\"},"
    " {\"formula\": \"Cu\", \"density_g_cm3\": 8.96},"
    " {\"formula\": \"Fe\", \"density_g_cm3\": 7.87} ],"
    " \"sweep\": { \"start\": 1, \"stop\": 30, \"unit\": \"keV\", \"points\": 100, \"spacing\": \"log\" } }";
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabSession) s = xrlab_session_from_json (json, -1, &error);
  g_autoptr(XrlabSession) back = NULL;
  GListModel *materials = G_LIST_MODEL (xrlab_window_get_materials (win));
  guint32 colors[4];

  g_assert_no_error (error);
  xrlab_window_apply_session (win, s);
  settle ();
  g_assert_cmpuint (g_list_model_get_n_items (materials), ==, 4);
  for (guint i = 0; i < 4; i++)
    {
      g_autoptr(XrlabMaterial) m = g_list_model_get_item (materials, i);
      const GdkRGBA *c = xrlab_material_get_color (m);
      colors[i] = ((guint32) lround (c->red * 255) << 16) | ((guint32) lround (c->green * 255) << 8)
                  | (guint32) lround (c->blue * 255);
    }
  g_assert_cmphex (colors[1], ==, 0x123456);
  for (guint i = 0; i < 4; i++)
    for (guint j = i + 1; j < 4; j++)
      g_assert_cmphex (colors[i], !=, colors[j]);
  /* What the window saves names every colour. */
  back = xrlab_window_get_session (win);
  for (guint i = 0; i < 4; i++)
    g_assert_cmphex (((XrlabSessionMaterial *) g_ptr_array_index (back->materials, i))->color, ==,
                     colors[i]);
}

/* ---- the export dialog ---------------------------------------------------------------- */

static void
test_export_dialog (void)
{
  g_autofree char *base = g_build_filename (tmpdir, "figure", NULL);
  g_autofree char *path = NULL, *text = NULL, *name = NULL, *summary = NULL;
  GSettings *settings = xrlab_application_get_settings (app);
  g_autoptr(GError) error = NULL;
  XrlabExportDialog *dialog;
  XrlabPlotFigure fig;
  guint32 w, h;
  double mw, mh;

  reset_to_example ();
  g_settings_set_string (settings, "export-folder", "");
  dialog = xrlab_window_show_export_dialog (win);

  /* The name follows the format. */
  xrlab_export_dialog_set_format (dialog, XRLAB_PLOT_FORMAT_SVG);
  name = xrlab_export_dialog_get_proposed_name (dialog);
  g_assert_cmpstr (name, ==, "xrlab-plot.svg");
  g_clear_pointer (&name, g_free);
  xrlab_export_dialog_set_format (dialog, XRLAB_PLOT_FORMAT_PDF);
  name = xrlab_export_dialog_get_proposed_name (dialog);
  g_assert_cmpstr (name, ==, "xrlab-plot.pdf");

  /* PNG, 8.5 × 6 cm at 300 dpi: pixels and resolution as asked, nothing
   * scaled by the old preference. */
  g_settings_set_double (settings, "export-png-scale", 2.0);
  xrlab_export_dialog_set_format (dialog, XRLAB_PLOT_FORMAT_PNG);
  xrlab_export_dialog_set_unit (dialog, "cm");
  xrlab_export_dialog_set_size (dialog, 8.5, 6);
  xrlab_export_dialog_set_dpi (dialog, 300);
  summary = xrlab_export_dialog_get_summary (dialog);
  g_assert_nonnull (strstr (summary, "1004 × 709 pixels"));
  path = xrlab_export_dialog_export_to (dialog, base, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_suffix (path, "figure.png"));
  g_assert_cmpuint (xrlab_test_png_file_info (path, &w, &h), ==, 11811);
  g_assert_cmpuint (w, ==, 1004);
  g_assert_cmpuint (h, ==, 709);
  g_clear_pointer (&path, g_free);

  /* The last folder is remembered, and the choices. */
  {
    g_autofree char *folder = g_settings_get_string (settings, "export-folder");
    g_assert_cmpstr (folder, ==, tmpdir);
    g_assert_cmpfloat (g_settings_get_double (settings, "export-dpi"), ==, 300);
  }

  /* 1600 × 1000 pixels are 1600 × 1000 pixels, at any resolution. */
  xrlab_export_dialog_set_unit (dialog, "px");
  xrlab_export_dialog_set_size (dialog, 1600, 1000);
  xrlab_export_dialog_set_dpi (dialog, 150);
  path = xrlab_export_dialog_export_to (dialog, base, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (xrlab_test_png_file_info (path, &w, &h), ==, (guint32) lround (150 / 0.0254));
  g_assert_cmpuint (w, ==, 1600);
  g_assert_cmpuint (h, ==, 1000);
  g_clear_pointer (&path, g_free);

  /* A change of unit keeps the size: 10 cm are 3.937 in. */
  xrlab_export_dialog_set_unit (dialog, "cm");
  xrlab_export_dialog_set_size (dialog, 10, 5);
  xrlab_export_dialog_set_unit (dialog, "in");
  xrlab_export_dialog_get_figure (dialog, &fig);
  g_assert_cmpfloat_with_epsilon (fig.page.width_pt, 10 * 72 / 2.54, 0.5);

  /* SVG: the text as text, at the type size asked for; the line width. */
  xrlab_export_dialog_set_format (dialog, XRLAB_PLOT_FORMAT_SVG);
  xrlab_export_dialog_set_unit (dialog, "cm");
  xrlab_export_dialog_set_size (dialog, 12, 8);
  xrlab_export_dialog_set_font_size (dialog, 7.5);
  xrlab_export_dialog_set_line_width (dialog, 1.5);
  path = xrlab_export_dialog_export_to (dialog, base, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_suffix (path, "figure.svg"));
  text = xrlab_test_file_text (path);
  g_assert_nonnull (strstr (text, "width=\"120.00mm\""));
  g_assert_nonnull (strstr (text, ">Refractive index decrement δ</text>"));
  g_assert_nonnull (strstr (text, ">Photon energy (keV)</text>"));
  g_assert_nonnull (strstr (text, "font-size=\"7.50\""));
  g_assert_nonnull (strstr (text, "stroke-width:1.5"));
  g_clear_pointer (&text, g_free);
  g_clear_pointer (&path, g_free);

  /* A name with another known extension: that format. PDF: the page. */
  {
    g_autofree char *pdf = g_strconcat (base, ".pdf", NULL);
    path = xrlab_export_dialog_export_to (dialog, pdf, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (path, ==, pdf);
  }
  text = xrlab_test_file_text (path);
  g_assert_true (g_str_has_prefix (text, "%PDF"));
  xrlab_test_pdf_page (text, &mw, &mh);
  g_assert_cmpfloat_with_epsilon (mw * 2.54 / 72, 12, 0.001);
  g_assert_cmpfloat_with_epsilon (mh * 2.54 / 72, 8, 0.001);
  g_assert_nonnull (strstr (text, "/FontFile"));

  /* Too large: refused with the reason, nothing written. */
  g_clear_pointer (&path, g_free);
  xrlab_export_dialog_set_format (dialog, XRLAB_PLOT_FORMAT_PNG);
  xrlab_export_dialog_set_unit (dialog, "in");
  xrlab_export_dialog_set_size (dialog, 100, 100);
  xrlab_export_dialog_set_dpi (dialog, 1200);
  {
    g_autofree char *big = g_build_filename (tmpdir, "big.png", NULL);
    g_assert_null (xrlab_export_dialog_export_to (dialog, big, &error));
    g_assert_nonnull (strstr (error->message, "pixels"));
    g_assert_false (g_file_test (big, G_FILE_TEST_EXISTS));
    g_clear_error (&error);
  }

  /* The path helper on its own. */
  {
    XrlabPlotFormat f;
    g_autofree char *p1 = xrlab_export_path_for_format ("/a/fig", XRLAB_PLOT_FORMAT_SVG, &f);
    g_autofree char *p2 = xrlab_export_path_for_format ("/a/fig.PNG", XRLAB_PLOT_FORMAT_SVG, &f);
    g_autofree char *p3 = xrlab_export_path_for_format ("/a/fig.v2", XRLAB_PLOT_FORMAT_PDF, &f);
    g_assert_cmpstr (p1, ==, "/a/fig.svg");
    g_assert_cmpstr (p2, ==, "/a/fig.PNG");
    g_assert_cmpint (f, ==, XRLAB_PLOT_FORMAT_PDF);
    g_assert_cmpstr (p3, ==, "/a/fig.v2.pdf");
  }
  gtk_window_destroy (GTK_WINDOW (dialog));
  xrlab_test_spin (0.05);

  /* On the Reflectivity page the dialog writes that page's plot. */
  adw_view_stack_set_visible_child_name (xrlab_window_get_view_stack (win), "reflect");
  xrlab_test_spin (0.5);
  dialog = xrlab_window_show_export_dialog (win);
  xrlab_export_dialog_set_format (dialog, XRLAB_PLOT_FORMAT_SVG);
  xrlab_export_dialog_set_unit (dialog, "cm");
  xrlab_export_dialog_set_size (dialog, 12, 8);
  g_clear_pointer (&path, g_free);
  g_clear_pointer (&text, g_free);
  path = xrlab_export_dialog_export_to (dialog, base, &error);
  g_assert_no_error (error);
  text = xrlab_test_file_text (path);
  g_assert_nonnull (strstr (text, ">Grazing angle"));
  g_assert_null (strstr (text, ">Photon energy (keV)</text>"));
  gtk_window_destroy (GTK_WINDOW (dialog));
  adw_view_stack_set_visible_child_name (xrlab_window_get_view_stack (win), "plot");
  xrlab_test_spin (0.05);
}

int
main (int argc, char *argv[])
{
  g_autoptr(GError) error = NULL;
  int status;

  tmpdir = g_dir_make_tmp ("xrlab-explore-XXXXXX", NULL);
  {
    g_autofree char *state = g_build_filename (tmpdir, "state", NULL);
    g_setenv ("XDG_STATE_HOME", state, TRUE);
  }
  g_test_init (&argc, &argv, NULL);

  app = xrlab_application_new ();
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);
  g_application_activate (G_APPLICATION (app));
  win = XRLAB_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (app)));
  g_assert_nonnull (win);
  plot = xrlab_window_get_plot (win);

  g_test_add_func ("/explore/zoom-pan-reset", test_zoom_pan_reset);
  g_test_add_func ("/explore/view-follows-unit", test_view_follows_unit);
  g_test_add_func ("/explore/typed-limits", test_typed_limits);
  g_test_add_func ("/explore/pins", test_pins);
  g_test_add_func ("/explore/session-view", test_session_view);
  g_test_add_func ("/explore/session-colors", test_session_colors);
  g_test_add_func ("/explore/export-dialog", test_export_dialog);
  status = g_test_run ();

  gtk_window_destroy (GTK_WINDOW (win));
  xrlab_test_spin (0.1);
  g_clear_object (&app);
  {
    GDir *dir = g_dir_open (tmpdir, 0, NULL);
    const char *n;
    while (dir != NULL && (n = g_dir_read_name (dir)) != NULL)
      {
        g_autofree char *p = g_build_filename (tmpdir, n, NULL);
        if (g_file_test (p, G_FILE_TEST_IS_REGULAR))
          g_unlink (p);
      }
    if (dir != NULL)
      g_dir_close (dir);
  }
  g_free (tmpdir);
  return status;
}
