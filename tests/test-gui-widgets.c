/* test-gui-widgets.c -- material row and list, sweep controls, plot
 * controls, values table
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <locale.h>
#include <math.h>
#include <string.h>

#include <adwaita.h>

#include "gui-test-util.h"
#include "xrlab-material-list.h"
#include "xrlab-material-row.h"
#include "xrlab-plot-controls.h"
#include "xrlab-sweep-controls.h"
#include "xrlab-user-number.h"
#include "xrlab-values-view.h"
#include "xrlab-widget-util.h"

static void
test_parse_user_number (void)
{
  double v;

  g_assert_true (xrlab_parse_user_number ("2.33", &v));
  g_assert_cmpfloat (v, ==, 2.33);
  g_assert_true (xrlab_parse_user_number (" 2,5 ", &v));
  g_assert_cmpfloat (v, ==, 2.5);
  g_assert_true (xrlab_parse_user_number ("1e-3", &v));
  g_assert_cmpfloat (v, ==, 1e-3);
  g_assert_false (xrlab_parse_user_number ("", &v));
  g_assert_false (xrlab_parse_user_number ("2.3x", &v));
  g_assert_false (xrlab_parse_user_number ("1,000.5", &v));
  g_assert_false (xrlab_parse_user_number ("1,2,3", &v));
  g_assert_false (xrlab_parse_user_number ("nan", &v));
  g_assert_false (xrlab_parse_user_number ("inf", &v));
}

static void
test_format_user_number (void)
{
  g_autofree char *a = xrlab_format_user_number (8.048, FALSE);
  g_autofree char *b = xrlab_format_user_number (1239.841984332, FALSE);
  g_autofree char *c = xrlab_format_user_number (1239.841984332, TRUE);
  g_autofree char *d = xrlab_format_user_number (2.3, TRUE);
  g_autofree char *e = xrlab_format_user_number (1e-7, FALSE);
  double v;

  g_assert_cmpstr (a, ==, "8.048");
  g_assert_cmpstr (b, ==, "1239.84");
  g_assert_cmpstr (c, ==, "1239.841984332");
  g_assert_cmpstr (d, ==, "2.3");
  g_assert_cmpstr (e, ==, "1e-07");
  /* What an entry shows reads back. */
  g_assert_true (xrlab_parse_user_number (c, &v) && v == 1239.841984332);
}

static void
test_material_row (void)
{
  GdkRGBA red = { 1, 0, 0, 1 };
  g_autoptr(XrlabMaterial) m = xrlab_material_new ("Si", "Si", 2.33, 1.0, &red);
  XrlabMaterialRow *row = XRLAB_MATERIAL_ROW (xrlab_material_row_new (m));

  g_object_ref_sink (row);
  g_assert_cmpstr (gtk_editable_get_text (xrlab_material_row_get_formula_editable (row)), ==, "Si");
  g_assert_cmpstr (gtk_editable_get_text (xrlab_material_row_get_density_editable (row)), ==, "2.33");
  g_assert_false (xrlab_material_row_get_error_visible (row));

  /* Typing edits the material. */
  gtk_editable_set_text (xrlab_material_row_get_formula_editable (row), "SiO2");
  g_assert_cmpstr (xrlab_material_get_formula (m), ==, "SiO2");
  gtk_editable_set_text (xrlab_material_row_get_density_editable (row), "2,2");
  g_assert_cmpfloat (xrlab_material_get_density (m), ==, 2.2);

  /* A density that is not a number: inline message, last valid value kept. */
  gtk_editable_set_text (xrlab_material_row_get_density_editable (row), "2.2x");
  g_assert_cmpfloat (xrlab_material_get_density (m), ==, 2.2);
  g_assert_true (xrlab_material_has_error (m));
  g_assert_true (xrlab_material_row_get_error_visible (row));
  g_assert_nonnull (strstr (gtk_label_get_text (xrlab_material_row_get_error_label (row)), "2.2x"));
  gtk_editable_set_text (xrlab_material_row_get_density_editable (row), "2.65");
  g_assert_cmpfloat (xrlab_material_get_density (m), ==, 2.65);
  g_assert_false (xrlab_material_has_error (m));
  g_assert_false (xrlab_material_row_get_error_visible (row));

  /* The engine's message shows under the row. */
  xrlab_material_set_error (m, "Unknown element “Xx” at column 1.");
  g_assert_true (xrlab_material_row_get_error_visible (row));
  g_assert_cmpstr (gtk_label_get_text (xrlab_material_row_get_error_label (row)), ==,
                   "Unknown element “Xx” at column 1.");
  xrlab_material_set_error (m, NULL);
  g_assert_false (xrlab_material_row_get_error_visible (row));

  /* Accepted but questioned: a zero where an O was meant, a density beyond
   * what matter has. Warnings, not errors: the value is used. */
  g_assert_null (xrlab_material_row_get_warning (row));
  gtk_editable_set_text (xrlab_material_row_get_formula_editable (row), "Si02");
  g_assert_false (xrlab_material_has_error (m));
  g_assert_nonnull (xrlab_material_row_get_warning (row));
  g_assert_nonnull (strstr (xrlab_material_row_get_warning (row), "“02”"));
  g_assert_nonnull (strstr (xrlab_material_row_get_warning (row), "letter O"));
  gtk_editable_set_text (xrlab_material_row_get_formula_editable (row), "Fe0.5Ni0.5");
  g_assert_null (xrlab_material_row_get_warning (row));
  gtk_editable_set_text (xrlab_material_row_get_formula_editable (row), "SiO2");
  gtk_editable_set_text (xrlab_material_row_get_density_editable (row), "50");
  g_assert_cmpfloat (xrlab_material_get_density (m), ==, 50);
  g_assert_false (xrlab_material_row_get_error_visible (row));
  g_assert_nonnull (strstr (xrlab_material_row_get_warning (row), "osmium"));
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (xrlab_material_row_get_density_editable (row)), "warning"));
  gtk_editable_set_text (xrlab_material_row_get_density_editable (row), "1e-7");
  g_assert_cmpfloat (xrlab_material_get_density (m), ==, 1e-7);
  g_assert_nonnull (strstr (xrlab_material_row_get_warning (row), "1 mbar"));
  gtk_editable_set_text (xrlab_material_row_get_density_editable (row), "2.65");
  g_assert_null (xrlab_material_row_get_warning (row));
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (xrlab_material_row_get_density_editable (row)), "warning"));

  /* Every invalid entry the same way: the "error" class; the message line
   * keeps its height whether it has a message or not. */
  {
    int h_ok, h_bad;
    gtk_widget_measure (GTK_WIDGET (row), GTK_ORIENTATION_VERTICAL, 360, &h_ok, NULL, NULL, NULL);
    gtk_editable_set_text (xrlab_material_row_get_thickness_editable (row), "thick");
    g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (xrlab_material_row_get_thickness_editable (row)), "error"));
    g_assert_true (xrlab_material_row_get_error_visible (row));
    gtk_widget_measure (GTK_WIDGET (row), GTK_ORIENTATION_VERTICAL, 360, &h_bad, NULL, NULL, NULL);
    g_assert_cmpint (h_ok, ==, h_bad);
    gtk_editable_set_text (xrlab_material_row_get_thickness_editable (row), "1");
    g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (xrlab_material_row_get_thickness_editable (row)), "error"));
    xrlab_material_set_error (m, "Unknown element “Xx” at column 1.");
    g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (xrlab_material_row_get_formula_editable (row)), "error"));
    xrlab_material_set_error (m, NULL);
    g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (xrlab_material_row_get_formula_editable (row)), "error"));
  }

  /* The material changed elsewhere (session): the row follows. */
  xrlab_material_set_density (m, 19.3);
  g_assert_cmpstr (gtk_editable_get_text (xrlab_material_row_get_density_editable (row)), ==, "19.3");
  xrlab_material_set_thickness (m, 0.5);
  g_assert_cmpstr (gtk_editable_get_text (xrlab_material_row_get_thickness_editable (row)), ==, "0.5");

  g_object_unref (row);
}

static void
on_removed (XrlabMaterialList *list, XrlabMaterial *m, guint pos, gpointer data)
{
  *(guint *) data = pos + 100;
}

static XrlabMaterial *
item (GListStore *store, guint i)
{
  XrlabMaterial *m = g_list_model_get_item (G_LIST_MODEL (store), i);
  g_object_unref (m);   /* the store keeps it */
  return m;
}

static void
test_material_list (void)
{
  XrlabMaterialList *list = XRLAB_MATERIAL_LIST (xrlab_material_list_new ());
  g_autoptr(GListStore) store = g_list_store_new (XRLAB_TYPE_MATERIAL);
  g_autoptr(GListStore) presets = g_list_store_new (XRLAB_TYPE_MATERIAL);
  GdkRGBA c0, c1;
  XrlabMaterial *a, *b, *copy, *gold;
  guint removed_at = 0;

  g_object_ref_sink (list);
  xrlab_material_list_set_store (list, store);
  {
    g_autoptr(XrlabMaterial) p1 = xrlab_material_new ("Gold", "Au", 19.3, 1, NULL);
    g_autoptr(XrlabMaterial) p2 = xrlab_material_new ("Kapton", "C22H10N2O5", 1.42, 1, NULL);
    xrlab_material_set_note (p2, "polyimide");
    g_list_store_append (presets, p1);
    g_list_store_append (presets, p2);
  }
  xrlab_material_list_set_presets (list, G_LIST_MODEL (presets));

  a = xrlab_material_list_add_empty (list);
  b = xrlab_material_list_add_empty (list);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (store)), ==, 2);
  g_assert_true (item (store, 0) == a);
  /* New materials get distinct colours. */
  c0 = *xrlab_material_get_color (a);
  c1 = *xrlab_material_get_color (b);
  g_assert_false (gdk_rgba_equal (&c0, &c1));
  g_assert_nonnull (xrlab_material_list_get_row (list, 1));

  /* Duplicate goes right after the original, with "(copy)". */
  xrlab_material_set_name (a, "Si");
  xrlab_material_set_formula (a, "Si");
  copy = xrlab_material_list_duplicate (list, a);
  g_assert_true (item (store, 1) == copy);
  g_assert_cmpstr (xrlab_material_get_name (copy), ==, "Si (copy)");
  g_assert_cmpstr (xrlab_material_get_formula (copy), ==, "Si");
  g_assert_cmpuint (xrlab_material_get_id (copy), !=, xrlab_material_get_id (a));

  /* Reorder. */
  xrlab_material_list_move (list, a, 2);
  g_assert_true (item (store, 2) == a);
  xrlab_material_list_move (list, a, 0);
  g_assert_true (item (store, 0) == a);

  /* Move Up is off on the first row, Move Down on the last. */
  g_assert_false (xrlab_material_row_can_move (xrlab_material_list_get_row (list, 0), -1));
  g_assert_true (xrlab_material_row_can_move (xrlab_material_list_get_row (list, 0), 1));
  g_assert_true (xrlab_material_row_can_move (xrlab_material_list_get_row (list, 1), -1));
  g_assert_false (xrlab_material_row_can_move (xrlab_material_list_get_row (list, 2), 1));
  xrlab_material_list_move (list, a, 2);
  g_assert_true (xrlab_material_row_can_move (xrlab_material_list_get_row (list, 0), 1));
  g_assert_false (xrlab_material_row_can_move (xrlab_material_list_get_row (list, 0), -1));
  g_assert_false (xrlab_material_row_can_move (xrlab_material_list_get_row (list, 2), 1));
  xrlab_material_list_move (list, a, 0);

  /* Presets: search by name, formula or note, any case, every word. */
  g_assert_cmpuint (xrlab_material_list_filter_presets (list, ""), ==, 2);
  g_assert_cmpuint (xrlab_material_list_filter_presets (list, "gold"), ==, 1);
  g_assert_cmpuint (xrlab_material_list_filter_presets (list, "POLYIMIDE"), ==, 1);
  g_assert_cmpuint (xrlab_material_list_filter_presets (list, "c22 kapton"), ==, 1);
  g_assert_cmpuint (xrlab_material_list_filter_presets (list, "unobtainium"), ==, 0);
  xrlab_material_list_filter_presets (list, "au");
  gold = xrlab_material_list_add_preset (list, 0);
  g_assert_nonnull (gold);
  g_assert_cmpstr (xrlab_material_get_formula (gold), ==, "Au");
  g_assert_cmpfloat (xrlab_material_get_density (gold), ==, 19.3);
  g_assert_true (item (store, 3) == gold);
  /* The same preset again: a name of its own, for legend and CSV. */
  g_assert_cmpstr (xrlab_material_get_name (gold), ==, "Gold");
  {
    XrlabMaterial *gold2 = xrlab_material_list_add_preset (list, 0);
    XrlabMaterial *gold3 = xrlab_material_list_add_preset (list, 0);
    g_assert_cmpstr (xrlab_material_get_name (gold2), ==, "Gold 2");
    g_assert_cmpstr (xrlab_material_get_name (gold3), ==, "Gold 3");
    xrlab_material_list_remove (list, gold3);
    xrlab_material_list_remove (list, gold2);
  }
  /* The preset itself is not put in the list. */
  g_assert_false (gold == g_list_model_get_item (G_LIST_MODEL (presets), 0));
  g_object_unref (g_list_model_get_item (G_LIST_MODEL (presets), 0));

  /* Remove tells where it was, for undo. */
  g_signal_connect (list, "removed", G_CALLBACK (on_removed), &removed_at);
  xrlab_material_list_remove (list, copy);
  g_assert_cmpuint (removed_at, ==, 101);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (store)), ==, 3);

  g_object_unref (list);
}

static void
count_changed (XrlabSweepControls *c, gpointer data)
{
  (*(int *) data)++;
}

/* A table whose every quantity starts at 10 eV. */
static const XrlabEnergyRange wide_range = {
  XRLAB_FACTOR_TABLE_HENKE, "wide", "Wide", 10.0, 30000.0, 10.0,
};

static void
test_sweep_controls (void)
{
  XrlabSweepControls *c = XRLAB_SWEEP_CONTROLS (xrlab_sweep_controls_new ());
  XrlabSweep s = { 1.0, 30.0, 1000, TRUE, XRLAB_ENERGY_UNIT_KEV };
  int changed = 0;
  const char *err;

  g_object_ref_sink (c);
  xrlab_sweep_controls_set_sweep (c, &s);
  g_assert_true (xrlab_sweep_get_default_range () == xrlab_energy_range_get (XRLAB_FACTOR_TABLE_HENKE));
  xrlab_sweep_controls_set_range (c, xrlab_sweep_get_default_range ());
  g_assert_true (xrlab_sweep_controls_is_valid (c));
  g_signal_connect (c, "changed", G_CALLBACK (count_changed), &changed);

  gtk_editable_set_text (xrlab_sweep_controls_get_stop_editable (c), "20");
  g_assert_cmpint (changed, ==, 1);

  /* Below the Henke tables (30 eV): refused inline, with the range in keV. */
  gtk_editable_set_text (xrlab_sweep_controls_get_start_editable (c), "0.01");
  g_assert_false (xrlab_sweep_controls_is_valid (c));
  err = xrlab_sweep_controls_get_error (c);
  g_assert_nonnull (err);
  g_assert_nonnull (strstr (err, "0.03 keV"));
  g_assert_nonnull (strstr (err, "30 keV"));
  g_assert_nonnull (strstr (err, "of the Henke tables"));
  g_assert_cmpint (changed, ==, 1);
  {
    XrlabSweep got;
    xrlab_sweep_controls_get_sweep (c, &got);
    g_assert_cmpfloat (got.start, ==, 1.0);   /* the last valid sweep */
  }

  /* The same energy is fine in a table that starts lower. */
  xrlab_sweep_controls_set_range (c, &wide_range);
  g_assert_true (xrlab_sweep_controls_is_valid (c));
  g_assert_cmpint (changed, ==, 2);

  /* Above 30 keV; stop below start; not a number. */
  gtk_editable_set_text (xrlab_sweep_controls_get_stop_editable (c), "31");
  g_assert_nonnull (strstr (xrlab_sweep_controls_get_error (c), "above the highest energy of the Wide tables"));
  gtk_editable_set_text (xrlab_sweep_controls_get_stop_editable (c), "0.005");
  g_assert_nonnull (strstr (xrlab_sweep_controls_get_error (c), "must be below"));
  gtk_editable_set_text (xrlab_sweep_controls_get_stop_editable (c), "abc");
  g_assert_nonnull (strstr (xrlab_sweep_controls_get_error (c), "“abc” is not a number"));
  gtk_editable_set_text (xrlab_sweep_controls_get_stop_editable (c), "10");
  g_assert_true (xrlab_sweep_controls_is_valid (c));

  /* Switching to wavelength converts: 0.01-10 keV is 1.2398-1239.8 Å. */
  xrlab_sweep_controls_set_unit (c, XRLAB_ENERGY_UNIT_ANGSTROM);
  g_assert_true (xrlab_sweep_controls_is_valid (c));
  g_assert_cmpstr (gtk_editable_get_text (xrlab_sweep_controls_get_start_editable (c)), ==, "1.23984");
  g_assert_cmpstr (gtk_editable_get_text (xrlab_sweep_controls_get_stop_editable (c)), ==, "1239.84");
  {
    XrlabSweep got;
    double lo, hi;
    xrlab_sweep_controls_get_sweep (c, &got);
    g_assert_cmpint (got.unit, ==, XRLAB_ENERGY_UNIT_ANGSTROM);
    xrlab_sweep_energy_range (&got, &lo, &hi);
    /* Converting the display does not round the sweep. */
    g_assert_cmpfloat_with_epsilon (lo, 10.0, 1e-12);
    g_assert_cmpfloat_with_epsilon (hi, 10000.0, 1e-9);
  }
  /* And back: exactly the sweep as typed. */
  xrlab_sweep_controls_set_unit (c, XRLAB_ENERGY_UNIT_KEV);
  {
    XrlabSweep got;
    xrlab_sweep_controls_get_sweep (c, &got);
    g_assert_cmpfloat (got.start, ==, 0.01);
    g_assert_cmpfloat (got.stop, ==, 10.0);
    g_assert_cmpint (got.unit, ==, XRLAB_ENERGY_UNIT_KEV);
  }
  xrlab_sweep_controls_set_unit (c, XRLAB_ENERGY_UNIT_EV);
  xrlab_sweep_controls_set_unit (c, XRLAB_ENERGY_UNIT_ANGSTROM);
  xrlab_sweep_controls_set_unit (c, XRLAB_ENERGY_UNIT_KEV);
  {
    XrlabSweep got;
    xrlab_sweep_controls_get_sweep (c, &got);
    g_assert_cmpfloat (got.start, ==, 0.01);
    g_assert_cmpfloat (got.stop, ==, 10.0);
  }
  xrlab_sweep_controls_set_unit (c, XRLAB_ENERGY_UNIT_ANGSTROM);

  /* Points beyond the maximum are clamped, and the sweep says so. */
  {
    GtkSpinButton *spin = xrlab_sweep_controls_get_points_spin (c);
    gtk_editable_set_text (GTK_EDITABLE (spin), "25000");
    gtk_spin_button_update (spin);
    g_assert_cmpint (gtk_spin_button_get_value_as_int (spin), ==, XRLAB_SWEEP_MAX_POINTS);
    g_assert_nonnull (xrlab_sweep_controls_get_note (c));
    g_assert_nonnull (strstr (xrlab_sweep_controls_get_note (c), "25000"));
    g_assert_nonnull (strstr (xrlab_sweep_controls_get_note (c), "20000"));
    gtk_editable_set_text (GTK_EDITABLE (spin), "500");
    gtk_spin_button_update (spin);
    g_assert_null (xrlab_sweep_controls_get_note (c));
  }
  /* In Å the long-wavelength end is the low-energy end. */
  xrlab_sweep_controls_set_range (c, xrlab_sweep_get_default_range ());
  g_assert_nonnull (strstr (xrlab_sweep_controls_get_error (c), "beyond the longest wavelength"));
  g_assert_nonnull (strstr (xrlab_sweep_controls_get_error (c), "413."));

  g_object_unref (c);
}

static void
test_sweep_fill (void)
{
  XrlabSweep s = { 1.0, 100.0, 3, TRUE, XRLAB_ENERGY_UNIT_KEV };
  double x[3], ev[3];

  xrlab_sweep_fill (&s, x, ev);
  g_assert_cmpfloat_with_epsilon (x[1], 10.0, 1e-12);
  g_assert_cmpfloat (x[2], ==, 100.0);
  g_assert_cmpfloat_with_epsilon (ev[1], 10000.0, 1e-9);
  {
    /* The engine's points: a sweep is the grid the CLI would make. */
    g_autoptr(XrlabEnergyGrid) grid = xrlab_energy_grid_new_range (1.0, 30.0, 7, XRLAB_GRID_LOG,
                                                                   XRLAB_ENERGY_UNIT_KEV, NULL);
    XrlabSweep s7 = { 1.0, 30.0, 7, TRUE, XRLAB_ENERGY_UNIT_KEV };
    double x7[7];

    xrlab_sweep_fill (&s7, x7, NULL);
    for (int i = 0; i < 7; i++)
      g_assert_cmpfloat (x7[i], ==, xrlab_energy_grid_get_energies_kev (grid)[i]);
  }

  s = (XrlabSweep) { 1.0, 2.0, 3, FALSE, XRLAB_ENERGY_UNIT_ANGSTROM };
  xrlab_sweep_fill (&s, x, ev);
  g_assert_cmpfloat (x[1], ==, 1.5);
  /* hc = 12398.419843320026 eV Å (CODATA 2018) */
  g_assert_cmpfloat_with_epsilon (ev[0], 12398.419843320026, 1e-9);
  g_assert_cmpfloat_with_epsilon (ev[2], 12398.419843320026 / 2, 1e-9);
}

static void
test_plot_controls (void)
{
  XrlabPlotControls *c = XRLAB_PLOT_CONTROLS (xrlab_plot_controls_new ());
  int q;

  g_object_ref_sink (c);
  g_assert_cmpint (xrlab_plot_controls_get_quantity (c), ==, XRLAB_QUANTITY_DELTA);
  g_assert_true (xrlab_plot_controls_get_x_log (c));
  xrlab_plot_controls_set_quantity (c, XRLAB_QUANTITY_IM_SLD);
  g_object_get (c, "quantity", &q, NULL);
  g_assert_cmpint (q, ==, XRLAB_QUANTITY_IM_SLD);
  xrlab_plot_controls_set_y_log (c, FALSE);
  g_assert_false (xrlab_plot_controls_get_y_log (c));
  g_object_unref (c);
}

static void
test_values_view (void)
{
  XrlabValuesView *v = XRLAB_VALUES_VIEW (xrlab_values_view_new ());
  const char *names[] = { "Si", "Au" };
  const char *notes[] = { NULL, "last valid" };
  double *values = g_new (double, XRLAB_QUANTITY_N * 2);
  g_autofree char *tsv = NULL;
  g_autofree char *cell = NULL;
  g_auto(GStrv) lines = NULL;

  g_object_ref_sink (v);
  /* Cu K-alpha by default. */
  g_assert_cmpfloat (xrlab_values_view_get_energy (v), ==, 8048.0);

  for (guint q = 0; q < XRLAB_QUANTITY_N; q++)
    {
      values[q] = (q + 1) * 1e-6;
      values[XRLAB_QUANTITY_N + q] = q == XRLAB_QUANTITY_F1 ? NAN : (q + 1) * 10.0;
    }
  xrlab_values_view_set_values (v, 2, names, notes, values, values, g_free);
  g_assert_cmpuint (xrlab_values_view_get_n_materials (v), ==, 2);

  /* Attenuation length: cm in, µm shown. */
  cell = xrlab_values_view_get_cell_text (v, XRLAB_QUANTITY_ATTENUATION_LENGTH, 0);
  g_assert_cmpstr (cell, ==, "0.08");
  g_clear_pointer (&cell, g_free);
  cell = xrlab_values_view_get_cell_text (v, XRLAB_QUANTITY_DELTA, 0);
  g_assert_cmpstr (cell, ==, "2.00000×10⁻⁶");
  g_clear_pointer (&cell, g_free);
  cell = xrlab_values_view_get_cell_text (v, XRLAB_QUANTITY_F1, 1);
  g_assert_cmpstr (cell, ==, "—");

  tsv = xrlab_values_view_to_tsv (v);
  lines = g_strsplit (tsv, "\n", -1);
  g_assert_true (g_str_has_prefix (lines[0], "# 8.048 keV"));
  /* A column of a material at its last valid input says so when copied. */
  g_assert_cmpstr (lines[1], ==, "Quantity\tUnit\tSi\tAu (last valid)");
  /* The quantities, molar mass, electron density and composition. */
  g_assert_cmpuint (g_strv_length (lines), ==, 2 + XRLAB_QUANTITY_N + 3 + 1);
  g_assert_true (xrlab_values_view_is_stale (v));
  /* Full precision in the copied text. */
  g_assert_true (g_str_has_prefix (lines[2 + XRLAB_QUANTITY_DELTA], "δ"));
  g_assert_true (g_str_has_suffix (lines[2 + XRLAB_QUANTITY_DELTA], "\t2e-06\t20"));
  g_assert_true (g_str_has_suffix (lines[2 + XRLAB_QUANTITY_F1], "\tnan"));

  xrlab_values_view_set_energy (v, 17479.0);
  g_assert_cmpfloat (xrlab_values_view_get_energy (v), ==, 17479.0);

  /* Properties that do not depend on the energy: rows of their own. */
  {
    const double molar[] = { 28.085, 196.97 };
    const double rho_e[] = { 0.6995, 4.662 };
    const char *comp[] = { "Si 100 %", "Au 100 %" };
    g_autofree char *m = NULL;
    xrlab_values_view_set_properties (v, 2, molar, rho_e, comp);
    g_clear_pointer (&tsv, g_free);
    g_clear_pointer (&lines, g_strfreev);
    tsv = xrlab_values_view_to_tsv (v);
    lines = g_strsplit (tsv, "\n", -1);
    g_assert_true (g_str_has_prefix (lines[2 + XRLAB_QUANTITY_N], "Molar mass M\tg/mol\t28.085\t196.97"));
    g_assert_true (g_str_has_suffix (lines[2 + XRLAB_QUANTITY_N + 2], "\tSi 100 %\tAu 100 %"));
  }

  /* Typing 50 (keV, above the Henke tables) after 5: the table shows 5 keV,
   * marked stale, and its copy says so. */
  gtk_editable_set_text (xrlab_values_view_get_energy_editable (v), "5");
  g_assert_cmpfloat (xrlab_values_view_get_energy (v), ==, 5000.0);
  g_assert_null (xrlab_values_view_get_energy_error (v));
  gtk_editable_set_text (xrlab_values_view_get_energy_editable (v), "50");
  g_assert_cmpfloat (xrlab_values_view_get_energy (v), ==, 5000.0);
  g_assert_nonnull (xrlab_values_view_get_energy_error (v));
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (xrlab_values_view_get_energy_editable (v)), "error"));
  g_clear_pointer (&tsv, g_free);
  g_clear_pointer (&lines, g_strfreev);
  tsv = xrlab_values_view_to_tsv (v);
  lines = g_strsplit (tsv, "\n", -1);
  g_assert_true (g_str_has_prefix (lines[0], "# 5 keV"));
  g_assert_nonnull (strstr (lines[0], "last valid energy"));
  gtk_editable_set_text (xrlab_values_view_get_energy_editable (v), "8.048");
  g_assert_null (xrlab_values_view_get_energy_error (v));

  /* The entry speaks the sweep's unit: 8.048 keV is 1.54056 Å. */
  xrlab_values_view_set_unit (v, XRLAB_ENERGY_UNIT_ANGSTROM);
  g_assert_cmpstr (gtk_editable_get_text (xrlab_values_view_get_energy_editable (v)), ==, "1.54056");
  gtk_editable_set_text (xrlab_values_view_get_energy_editable (v), "1");
  g_assert_cmpfloat_with_epsilon (xrlab_values_view_get_energy (v), 12398.4198, 1e-3);
  xrlab_values_view_set_unit (v, XRLAB_ENERGY_UNIT_EV);
  g_assert_cmpstr (gtk_editable_get_text (xrlab_values_view_get_energy_editable (v)), ==, "12398.4");
  g_object_unref (v);
}

static void
spin_loop (double seconds)
{
  gint64 end = g_get_monotonic_time () + (gint64) (seconds * G_USEC_PER_SEC);
  while (g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, FALSE);
}

/* A tooltip never covers the first item of a popover just opened. */
static void
test_tooltip_while_open (void)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *button = gtk_menu_button_new ();
  g_autoptr(GMenu) menu = g_menu_new ();

  g_menu_append (menu, "First item", "app.nothing");
  gtk_menu_button_set_menu_model (GTK_MENU_BUTTON (button), G_MENU_MODEL (menu));
  gtk_widget_set_tooltip_text (button, "Actions");
  xrlab_hide_tooltip_while_open (button);
  gtk_window_set_child (GTK_WINDOW (window), button);
  gtk_window_present (GTK_WINDOW (window));
  spin_loop (0.2);

  g_assert_true (gtk_widget_get_has_tooltip (button));
  gtk_menu_button_popup (GTK_MENU_BUTTON (button));
  spin_loop (0.2);
  g_assert_false (gtk_widget_get_has_tooltip (button));
  gtk_menu_button_popdown (GTK_MENU_BUTTON (button));
  spin_loop (0.2);
  g_assert_true (gtk_widget_get_has_tooltip (button));
  g_assert_cmpstr (gtk_widget_get_tooltip_text (button), ==, "Actions");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A language with a decimal comma: one convention everywhere a person reads
 * a number, both accepted when typed, '.' in the text for programs and the
 * comma in the copy for a spreadsheet. */
static void
test_decimal_comma (void)
{
  GdkRGBA red = { 1, 0, 0, 1 };
  g_autoptr(XrlabMaterial) m = xrlab_material_new ("Si", "Si", 2.33, 1.0, &red);
  XrlabMaterialRow *row;
  XrlabValuesView *v;
  XrlabSweepControls *c;
  const char *names[] = { "Si" };
  double *values;
  g_autofree char *cell = NULL;
  g_autofree char *plain = NULL;
  g_autofree char *sheet = NULL;
  g_autofree char *formatted = NULL;
  double x;

  if (setlocale (LC_NUMERIC, "de_DE.UTF-8") == NULL && setlocale (LC_NUMERIC, "de_DE.utf8") == NULL)
    {
      /* scripts/test compiles one into the build folder (LOCPATH) when the
       * system has none, so CI always has it */
      if (g_strcmp0 (g_getenv ("CI"), "true") == 0)
        g_error ("CI: the de_DE.UTF-8 locale is missing (LOCPATH=%s)", g_getenv ("LOCPATH"));
      g_test_skip ("the de_DE.UTF-8 locale is not installed");
      return;
    }
  formatted = xrlab_format_user_number (8.048, FALSE);
  g_assert_cmpstr (formatted, ==, "8,048");
  g_assert_true (xrlab_parse_user_number ("2,5", &x) && x == 2.5);
  g_assert_true (xrlab_parse_user_number ("2.5", &x) && x == 2.5);

  /* Entries show the comma, and take either. */
  row = XRLAB_MATERIAL_ROW (xrlab_material_row_new (m));
  g_object_ref_sink (row);
  g_assert_cmpstr (gtk_editable_get_text (xrlab_material_row_get_density_editable (row)), ==, "2,33");
  gtk_editable_set_text (xrlab_material_row_get_density_editable (row), "2.2");
  g_assert_cmpfloat (xrlab_material_get_density (m), ==, 2.2);
  g_assert_false (xrlab_material_row_get_error_visible (row));
  g_object_unref (row);

  c = XRLAB_SWEEP_CONTROLS (xrlab_sweep_controls_new ());
  g_object_ref_sink (c);
  xrlab_sweep_controls_set_unit (c, XRLAB_ENERGY_UNIT_ANGSTROM);
  g_assert_cmpstr (gtk_editable_get_text (xrlab_sweep_controls_get_start_editable (c)), ==, "0,413281");
  g_object_unref (c);

  /* The table, its entry and its line list: commas; its copies: both. */
  v = XRLAB_VALUES_VIEW (xrlab_values_view_new ());
  g_object_ref_sink (v);
  g_assert_cmpstr (gtk_editable_get_text (xrlab_values_view_get_energy_editable (v)), ==, "8,048");
  values = g_new0 (double, XRLAB_QUANTITY_N);
  values[XRLAB_QUANTITY_F1] = 14.25;
  values[XRLAB_QUANTITY_DELTA] = 1.5e-5;
  xrlab_values_view_set_values (v, 1, names, NULL, values, values, g_free);
  cell = xrlab_values_view_get_cell_text (v, XRLAB_QUANTITY_F1, 0);
  g_assert_cmpstr (cell, ==, "14,25");
  g_clear_pointer (&cell, g_free);
  cell = xrlab_values_view_get_cell_text (v, XRLAB_QUANTITY_DELTA, 0);
  g_assert_cmpstr (cell, ==, "1,50000×10⁻⁵");
  plain = xrlab_values_view_to_tsv_full (v, FALSE);
  sheet = xrlab_values_view_to_tsv_full (v, TRUE);
  g_assert_nonnull (strstr (plain, "\t14.25\n"));
  g_assert_nonnull (strstr (plain, "\t1.5e-05\n"));
  g_assert_nonnull (strstr (sheet, "\t14,25\n"));
  g_assert_nonnull (strstr (sheet, "\t1,5e-05\n"));
  g_assert_true (g_str_has_prefix (sheet, "# 8,048 keV"));
  g_object_unref (v);

  setlocale (LC_NUMERIC, "C");
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  gtk_init ();
  adw_init ();

  g_test_add_func ("/widgets/parse-user-number", test_parse_user_number);
  g_test_add_func ("/widgets/format-user-number", test_format_user_number);
  g_test_add_func ("/widgets/material-row", test_material_row);
  g_test_add_func ("/widgets/material-list", test_material_list);
  g_test_add_func ("/widgets/sweep-controls", test_sweep_controls);
  g_test_add_func ("/widgets/sweep-fill", test_sweep_fill);
  g_test_add_func ("/widgets/plot-controls", test_plot_controls);
  g_test_add_func ("/widgets/values-view", test_values_view);
  g_test_add_func ("/widgets/decimal-comma", test_decimal_comma);
  g_test_add_func ("/widgets/tooltip-while-open", test_tooltip_while_open);
  return g_test_run ();
}
