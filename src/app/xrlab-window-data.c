/* xrlab-window-data.c -- the window's link to its data source
 *
 * Every edit (material, sweep, quantity) marks the views dirty and schedules
 * one recompute at high idle priority, so a burst of edits within a frame
 * becomes one request and its reply is drawn in that same frame. Only the
 * visible consumer fetches: the plot when the Plot page is shown, the table
 * when the Values page is; one fetch is one buffer that the consumer keeps
 * without copying (XrlabPlotData borrows its rows).
 *
 * DEMO: the source is XrlabDemoSource (toy numbers). With the engine thread,
 * set_materials/set_grid become requests, fetch/fetch_values become async
 * consumer fetches whose replies arrive on the main loop and carry the
 * generation they answer; this file is the only one that changes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-window-private.h"

#include <math.h>

#include <glib/gi18n-lib.h>

#include "xrlab-util.h"

static gboolean
plot_visible (XrlabWindow *self)
{
  return g_strcmp0 (adw_view_stack_get_visible_child_name (self->view_stack), "plot") == 0 &&
         gtk_widget_get_mapped (GTK_WIDGET (self));
}

static gboolean
values_visible (XrlabWindow *self)
{
  return g_strcmp0 (adw_view_stack_get_visible_child_name (self->view_stack), "values") == 0 &&
         gtk_widget_get_mapped (GTK_WIDGET (self));
}

/* ---- requests ------------------------------------------------------------------------ */

/* Sends the material list; applies the per-material verdicts. */
static void
send_materials (XrlabWindow *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->materials));
  g_autofree XrlabDemoMaterialSpec *specs = g_new0 (XrlabDemoMaterialSpec, n + 1);
  g_autofree char **errors = g_new0 (char *, n + 1);
  g_autofree gboolean *stale = g_new0 (gboolean, n + 1);
  g_autoptr(GPtrArray) keep = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < n; i++)
    {
      XrlabMaterial *m = g_list_model_get_item (G_LIST_MODEL (self->materials), i);
      g_ptr_array_add (keep, m);
      specs[i].id = xrlab_material_get_id (m);
      specs[i].formula = xrlab_material_get_formula (m);
      specs[i].density_g_cm3 = xrlab_material_get_density (m);
      specs[i].thickness_um = xrlab_material_get_thickness (m);
    }
  xrlab_demo_source_set_materials (self->source, specs, n, errors, stale);
  for (guint i = 0; i < n; i++)
    {
      XrlabMaterial *m = g_ptr_array_index (keep, i);
      xrlab_material_set_error (m, errors[i]);
      /* A number that does not parse keeps the last valid value: stale too. */
      xrlab_material_set_stale (m, stale[i] || (errors[i] == NULL && xrlab_material_get_input_error (m) != NULL));
      g_free (errors[i]);
    }
}

/* Sends the grid of the current sweep (when it changed). */
static void
send_grid (XrlabWindow *self)
{
  XrlabSweep sweep;
  double *x, *ev;

  xrlab_sweep_controls_get_sweep (self->sweep_controls, &sweep);
  if (self->grid_x != NULL && xrlab_sweep_equal (&sweep, &self->grid_sweep))
    return;
  x = g_new (double, sweep.points);
  ev = g_new (double, sweep.points);
  xrlab_sweep_fill (&sweep, x, ev);
  xrlab_demo_source_set_grid (self->source, ev, sweep.points);
  g_free (ev);
  g_clear_pointer (&self->grid_x, g_bytes_unref);
  self->grid_x = g_bytes_new_take (x, sweep.points * sizeof (double));
  self->grid_sweep = sweep;
}

/* Indices (in the store) of the materials a consumer shows: visible, and
 * with a valid input now or earlier. */
static guint *
shown_materials (XrlabWindow *self, guint *n_out)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->materials));
  guint *idx = g_new (guint, n + 1);
  guint k = 0;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(XrlabMaterial) m = g_list_model_get_item (G_LIST_MODEL (self->materials), i);
      if (!xrlab_material_get_visible (m))
        continue;
      if (xrlab_material_get_error (m) != NULL && !xrlab_material_get_stale (m))
        continue;
      idx[k++] = i;
    }
  *n_out = k;
  return idx;
}

static void
update_axes (XrlabWindow *self)
{
  const XrlabQuantityInfo *info = xrlab_quantity_info_get (xrlab_plot_controls_get_quantity (self->plot_controls));
  XrlabSweep sweep;

  xrlab_sweep_controls_get_sweep (self->sweep_controls, &sweep);
  xrlab_plot_set_axes (self->plot,
                       sweep.unit == XRLAB_ENERGY_UNIT_ANGSTROM ? _("Wavelength") : _("Photon energy"),
                       xrlab_energy_unit_symbol (sweep.unit),
                       info->symbol, info->unit);
}

static void
update_stats (XrlabWindow *self)
{
  guint64 transfers, bytes;
  g_autofree char *text = NULL;

  if (!self->show_stats)
    {
      xrlab_plot_set_overlay_text (self->plot, NULL);
      return;
    }
  xrlab_demo_source_get_stats (self->source, &transfers, &bytes);
  text = g_strdup_printf ("transfers %" G_GUINT64_FORMAT "  bytes %" G_GUINT64_FORMAT "\n"
                          "last frame %.2f ms  data→frame %.2f ms",
                          transfers, bytes, xrlab_plot_get_last_render_ms (self->plot),
                          xrlab_plot_get_data_to_frame_ms (self->plot));
  xrlab_plot_set_overlay_text (self->plot, text);
}

/* The plot consumer: one fetch, one buffer, borrowed by the plot data. */
static void
fetch_plot (XrlabWindow *self)
{
  XrlabPlotQuantity q = xrlab_plot_controls_get_quantity (self->plot_controls);
  const XrlabQuantityInfo *info = xrlab_quantity_info_get (q);
  g_autofree guint *idx = NULL;
  guint n_shown, n_points;
  const double *x;
  double *buf;
  XrlabPlotData *data;
  g_autoptr(GArray) edges = NULL;
  g_autoptr(GArray) markers = NULL;
  double lo, hi;

  idx = shown_materials (self, &n_shown);
  update_axes (self);
  if (n_shown == 0)
    {
      guint n_all = g_list_model_get_n_items (G_LIST_MODEL (self->materials));
      xrlab_plot_set_message (self->plot,
                              n_all == 0 ? _("No materials yet. Add one in the sidebar (Ctrl+N).")
                                         : _("No material to show: switch one on, or correct its input."));
      xrlab_plot_set_data (self->plot, NULL);
      xrlab_plot_set_markers (self->plot, NULL, 0);
      self->plot_dirty = FALSE;
      return;
    }

  buf = xrlab_demo_source_fetch (self->source, q, idx, n_shown);
  self->transfers++;
  x = g_bytes_get_data (self->grid_x, NULL);
  n_points = self->grid_sweep.points;

  data = xrlab_plot_data_new ();
  xrlab_plot_data_take_buffer (data, buf, g_free);
  xrlab_plot_data_take_buffer (data, g_bytes_ref (self->grid_x), (GDestroyNotify) g_bytes_unref);
  for (guint k = 0; k < n_shown; k++)
    {
      g_autoptr(XrlabMaterial) m = g_list_model_get_item (G_LIST_MODEL (self->materials), idx[k]);
      double *row = buf + (gsize) k * n_points;
      /* Display units, in place: the buffer belongs to this plot data. */
      if (info->scale != 1.0)
        for (guint i = 0; i < n_points; i++)
          row[i] *= info->scale;
      xrlab_plot_data_add_series (data, xrlab_material_get_display_name (m), xrlab_material_get_color (m),
                                  x, row, n_points, xrlab_material_get_stale (m));
    }
  xrlab_plot_set_data (self->plot, data);
  xrlab_plot_data_unref (data);

  /* Edges of the elements shown, in the sweep's unit. */
  xrlab_sweep_energy_range (&self->grid_sweep, &lo, &hi);
  edges = xrlab_demo_source_edges (self->source, idx, n_shown, lo, hi);
  markers = g_array_new (FALSE, TRUE, sizeof (XrlabPlotMarker));
  for (guint i = 0; i < edges->len; i++)
    {
      XrlabPlotMarker mk = g_array_index (edges, XrlabPlotMarker, i);
      mk.x = xrlab_energy_unit_from_ev (mk.x, self->grid_sweep.unit);
      g_array_append_val (markers, mk);
    }
  xrlab_plot_set_markers (self->plot, (XrlabPlotMarker *) (void *) markers->data, markers->len);
  self->plot_dirty = FALSE;
}

/* The table consumer: every quantity at one energy, one buffer. */
static void
fetch_values (XrlabWindow *self)
{
  g_autofree guint *idx = NULL;
  guint n_shown;
  double *buf;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autofree gboolean *stale = NULL;

  idx = shown_materials (self, &n_shown);
  stale = g_new0 (gboolean, n_shown + 1);
  for (guint k = 0; k < n_shown; k++)
    {
      g_autoptr(XrlabMaterial) m = g_list_model_get_item (G_LIST_MODEL (self->materials), idx[k]);
      g_ptr_array_add (names, g_strdup (xrlab_material_get_display_name (m)));
      stale[k] = xrlab_material_get_stale (m);
    }
  g_ptr_array_add (names, NULL);
  if (n_shown == 0)
    {
      xrlab_values_view_clear (self->values_view);
      self->values_dirty = FALSE;
      return;
    }
  buf = xrlab_demo_source_fetch_values (self->source, xrlab_values_view_get_energy (self->values_view),
                                        idx, n_shown);
  self->transfers++;
  xrlab_values_view_set_values (self->values_view, n_shown, (const char * const *) names->pdata,
                                stale, buf, buf, g_free);
  self->values_dirty = FALSE;
}

static gboolean
refresh_cb (gpointer user_data)
{
  XrlabWindow *self = user_data;

  self->refresh_id = 0;
  send_materials (self);
  send_grid (self);
  if (self->plot_dirty && plot_visible (self))
    fetch_plot (self);
  if (self->values_dirty && values_visible (self))
    fetch_values (self);
  update_stats (self);
  return G_SOURCE_REMOVE;
}

void
xrlab_window_data_invalidate (XrlabWindow *self)
{
  self->plot_dirty = TRUE;
  self->values_dirty = TRUE;
  if (self->refresh_id == 0)
    /* Before the frame clock's redraw (GDK_PRIORITY_REDRAW): the reply is
     * drawn in the frame that follows the edit. */
    self->refresh_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE, refresh_cb, self, NULL);
}

void
xrlab_window_data_flush (XrlabWindow *self)
{
  if (self->refresh_id == 0)
    return;
  g_clear_handle_id (&self->refresh_id, g_source_remove);
  refresh_cb (self);
}

/* ---- what triggers a recompute ------------------------------------------------------- */

static void
on_material_notify (XrlabMaterial *m,
                    GParamSpec    *pspec,
                    XrlabWindow   *self)
{
  const char *name = g_param_spec_get_name (pspec);

  /* Outputs of the recompute itself are no reason for another. */
  if (g_str_equal (name, "error") || g_str_equal (name, "stale") || g_str_equal (name, "message") ||
      g_str_equal (name, "display-name") || g_str_equal (name, "note"))
    return;
  xrlab_window_data_invalidate (self);
  xrlab_window_session_changed (self);
}

static void
on_materials_changed (GListModel  *model,
                      guint        position,
                      guint        removed,
                      guint        added,
                      XrlabWindow *self)
{
  for (guint i = position; i < position + added; i++)
    {
      g_autoptr(XrlabMaterial) m = g_list_model_get_item (model, i);
      /* Connected once per object, even when it moves. */
      g_signal_handlers_disconnect_by_func (m, on_material_notify, self);
      g_signal_connect_object (m, "notify", G_CALLBACK (on_material_notify), self, 0);
    }
  xrlab_window_data_invalidate (self);
  xrlab_window_session_changed (self);
}

static void
on_sweep_changed (XrlabSweepControls *controls,
                  XrlabWindow        *self)
{
  xrlab_window_data_invalidate (self);
  xrlab_window_session_changed (self);
}

void
xrlab_window_data_quantity_changed (XrlabWindow *self)
{
  XrlabPlotQuantity q = xrlab_plot_controls_get_quantity (self->plot_controls);

  xrlab_sweep_controls_set_limits (self->sweep_controls, xrlab_quantity_min_ev (q), XRLAB_HENKE_MAX_EV);
  self->plot_dirty = TRUE;
  xrlab_window_data_invalidate (self);
  xrlab_window_session_changed (self);
}

static void
on_quantity_changed (XrlabPlotControls *controls,
                     GParamSpec        *pspec,
                     XrlabWindow       *self)
{
  xrlab_window_data_quantity_changed (self);
}

static void
on_axis_log_changed (XrlabPlotControls *controls,
                     GParamSpec        *pspec,
                     XrlabWindow       *self)
{
  /* No new data needed: the plot re-renders what it has. */
  xrlab_plot_set_x_log (self->plot, xrlab_plot_controls_get_x_log (controls));
  xrlab_plot_set_y_log (self->plot, xrlab_plot_controls_get_y_log (controls));
  xrlab_window_session_changed (self);
}

static void
on_values_energy_changed (XrlabValuesView *view,
                          GParamSpec      *pspec,
                          XrlabWindow     *self)
{
  self->values_dirty = TRUE;
  if (self->refresh_id == 0)
    self->refresh_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE, refresh_cb, self, NULL);
  xrlab_window_session_changed (self);
}

static void
on_page_changed (AdwViewStack *stack,
                 GParamSpec   *pspec,
                 XrlabWindow  *self)
{
  /* A consumer that becomes visible fetches what it missed. */
  if ((self->plot_dirty || self->values_dirty) && self->refresh_id == 0)
    self->refresh_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE, refresh_cb, self, NULL);
}

static void
on_plot_rendered (XrlabPlot   *plot,
                  double       ms,
                  XrlabWindow *self)
{
  if (self->show_stats)
    update_stats (self);
}

static void
on_map (GtkWidget   *widget,
        XrlabWindow *self)
{
  on_page_changed (self->view_stack, NULL, self);
}

void
xrlab_window_data_init (XrlabWindow *self)
{
  self->source = xrlab_demo_source_new ();
  xrlab_material_list_set_presets (self->material_list, xrlab_demo_source_presets (self->source));
  xrlab_plot_set_watermark (self->plot, _("DEMO DATA — not real optical constants"));

  g_signal_connect_object (self->materials, "items-changed", G_CALLBACK (on_materials_changed), self, 0);
  g_signal_connect_object (self->sweep_controls, "changed", G_CALLBACK (on_sweep_changed), self, 0);
  g_signal_connect_object (self->plot_controls, "notify::quantity", G_CALLBACK (on_quantity_changed), self, 0);
  g_signal_connect_object (self->plot_controls, "notify::x-log", G_CALLBACK (on_axis_log_changed), self, 0);
  g_signal_connect_object (self->plot_controls, "notify::y-log", G_CALLBACK (on_axis_log_changed), self, 0);
  g_signal_connect_object (self->values_view, "notify::energy-ev", G_CALLBACK (on_values_energy_changed), self, 0);
  g_signal_connect_object (self->view_stack, "notify::visible-child-name", G_CALLBACK (on_page_changed), self, 0);
  g_signal_connect_object (self->plot, "rendered", G_CALLBACK (on_plot_rendered), self, 0);
  g_signal_connect (self, "map", G_CALLBACK (on_map), self);

  xrlab_plot_set_x_log (self->plot, xrlab_plot_controls_get_x_log (self->plot_controls));
  xrlab_plot_set_y_log (self->plot, xrlab_plot_controls_get_y_log (self->plot_controls));
  xrlab_window_data_invalidate (self);
}

void
xrlab_window_data_dispose (XrlabWindow *self)
{
  g_clear_handle_id (&self->refresh_id, g_source_remove);
  g_clear_pointer (&self->grid_x, g_bytes_unref);
  g_clear_object (&self->source);
}

gboolean
xrlab_window_data_export_csv (XrlabWindow  *self,
                              const char   *path,
                              GError      **error)
{
  g_autofree guint *idx = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  guint n;

  xrlab_window_data_flush (self);
  send_materials (self);
  send_grid (self);
  idx = shown_materials (self, &n);
  if (n == 0)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("There is no visible material with a valid input to export."));
      return FALSE;
    }
  for (guint k = 0; k < n; k++)
    {
      g_autoptr(XrlabMaterial) m = g_list_model_get_item (G_LIST_MODEL (self->materials), idx[k]);
      g_ptr_array_add (names, g_strdup (xrlab_material_get_display_name (m)));
    }
  g_ptr_array_add (names, NULL);
  return xrlab_demo_source_export_csv (self->source, path, idx, (const char * const *) names->pdata, n, error);
}
