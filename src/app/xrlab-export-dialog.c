/* xrlab-export-dialog.c -- the plot as a figure for a paper
 *
 * The fields: the format (PNG, SVG, PDF), the figure's width and height in
 * cm, inches or pixels, the resolution of a PNG (written into the file),
 * the type size and line width in points, the background. A preview shows
 * the page as it will be written (the layout is the export's: the preview
 * is the same page drawn smaller), and a line under the size says what
 * comes out ("1004 × 709 pixels at 300 dpi", "8.5 × 6 cm"). Pixels mean
 * pixels at the resolution for a PNG, CSS pixels (96 per inch) for SVG and
 * PDF. Nothing else scales the output: 1600 × 1000 pixels are 1600 × 1000
 * pixels.
 *
 * Export asks for a file (GtkFileChooserNative, the portal in a Flatpak)
 * in the folder of the last export, proposing "xrlab-plot.<format>"; a
 * name without one of the three extensions gets the format's.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-export-dialog.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#define CSS_DPI 96.0

struct _XrlabExportDialog {
  AdwWindow parent_instance;

  XrlabPlot *plot;              /* the view: a plot, */
  XrlabMapView *map;            /* or a map */
  GSettings *settings;
  XrlabExportDone written;
  gpointer user_data;

  AdwComboRow *format_row, *unit_row;
  GtkSpinButton *width_spin, *height_spin, *dpi_spin, *font_spin, *line_spin;
  GtkWidget *dpi_row;
  GtkSwitch *light_switch;
  GtkLabel *summary;
  GtkPicture *preview;
  guint preview_id;
  int unit;                      /* index into units[] of the shown size */
  gboolean updating;
};

G_DEFINE_FINAL_TYPE (XrlabExportDialog, xrlab_export_dialog, ADW_TYPE_WINDOW)

static const char *const units[] = { "cm", "in", "px" };
static const char *const formats[] = { "png", "svg", "pdf" };

/* ---- the figure --------------------------------------------------------------------- */

static XrlabPlotFormat
current_format (XrlabExportDialog *self)
{
  return (XrlabPlotFormat) MIN (adw_combo_row_get_selected (self->format_row), 2u);
}

/* Points per unit @u (pixels: at the PNG resolution, else CSS pixels). */
static double
points_per_unit (XrlabExportDialog *self, int u)
{
  double dpi = current_format (self) == XRLAB_PLOT_FORMAT_PNG ? gtk_spin_button_get_value (self->dpi_spin) : CSS_DPI;
  double pt = 1;

  xrlab_plot_length_to_pt (1.0, units[u], dpi, &pt);
  return pt;
}

void
xrlab_export_dialog_get_figure (XrlabExportDialog *self, XrlabPlotFigure *figure)
{
  double k;

  g_return_if_fail (XRLAB_IS_EXPORT_DIALOG (self));
  k = points_per_unit (self, self->unit);
  figure->page.format = current_format (self);
  figure->page.width_pt = gtk_spin_button_get_value (self->width_spin) * k;
  figure->page.height_pt = gtk_spin_button_get_value (self->height_spin) * k;
  figure->page.dpi = gtk_spin_button_get_value (self->dpi_spin);
  figure->font_size_pt = gtk_spin_button_get_value (self->font_spin);
  figure->line_width_pt = gtk_spin_button_get_value (self->line_spin);
  figure->dark = !gtk_switch_get_active (self->light_switch) &&
                 (self->plot != NULL ? xrlab_plot_get_dark (self->plot) : xrlab_map_view_get_dark (self->map));
}

char *
xrlab_export_dialog_get_proposed_name (XrlabExportDialog *self)
{
  g_return_val_if_fail (XRLAB_IS_EXPORT_DIALOG (self), NULL);
  return g_strconcat ("xrlab-plot.", xrlab_plot_format_get_extension (current_format (self)), NULL);
}

char *
xrlab_export_dialog_get_summary (XrlabExportDialog *self)
{
  XrlabPlotFigure f;
  double w_cm, h_cm;

  g_return_val_if_fail (XRLAB_IS_EXPORT_DIALOG (self), NULL);
  xrlab_export_dialog_get_figure (self, &f);
  w_cm = f.page.width_pt * 2.54 / 72;
  h_cm = f.page.height_pt * 2.54 / 72;
  if (f.page.format == XRLAB_PLOT_FORMAT_PNG)
    /* TRANSLATORS: what an export writes: pixels, the physical size, the resolution */
    return g_strdup_printf (_("%ld × %ld pixels, %.3g × %.3g cm at %g dpi"),
                            lround (f.page.width_pt * f.page.dpi / 72), lround (f.page.height_pt * f.page.dpi / 72),
                            w_cm, h_cm, f.page.dpi);
  /* TRANSLATORS: what an export writes: a page of this size */
  return g_strdup_printf (_("A page of %.3g × %.3g cm (%.4g × %.4g pt)"), w_cm, h_cm,
                          f.page.width_pt, f.page.height_pt);
}

/* ---- the preview ------------------------------------------------------------------- */

/* A map's page, scaled down to at most @max_w x @max_h. */
static GdkTexture *
map_preview (XrlabMapView *map, const XrlabPlotFigure *f, int max_w, int max_h)
{
  int uw = (int) lround (f->page.width_pt), uh = (int) lround (f->page.height_pt), w, h;
  double k = MIN ((double) max_w / MAX (uw, 1), (double) max_h / MAX (uh, 1));
  cairo_surface_t *s;
  cairo_t *cr;
  GBytes *bytes;
  GdkTexture *texture;

  if (!xrlab_plot_page_check (&f->page, NULL))
    return NULL;
  w = MAX (1, (int) ceil (uw * k));
  h = MAX (1, (int) ceil (uh * k));
  s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  cr = cairo_create (s);
  cairo_scale (cr, k, k);
  xrlab_map_view_render (map, cr, uw, uh, f->dark);
  cairo_destroy (cr);
  cairo_surface_flush (s);
  bytes = g_bytes_new (cairo_image_surface_get_data (s), (gsize) cairo_image_surface_get_stride (s) * h);
  texture = gdk_memory_texture_new (w, h, GDK_MEMORY_DEFAULT, bytes, (gsize) cairo_image_surface_get_stride (s));
  g_bytes_unref (bytes);
  cairo_surface_destroy (s);
  return texture;
}

static gboolean
preview_cb (gpointer user_data)
{
  XrlabExportDialog *self = user_data;
  g_autoptr(GdkTexture) texture = NULL;
  XrlabPlotFigure f;

  self->preview_id = 0;
  xrlab_export_dialog_get_figure (self, &f);
  if (self->plot != NULL)
    texture = xrlab_plot_render_figure_preview (self->plot, &f, 420, 300);
  else
    texture = map_preview (self->map, &f, 420, 300);
  gtk_picture_set_paintable (self->preview, GDK_PAINTABLE (texture));
  return G_SOURCE_REMOVE;
}

static void
update (XrlabExportDialog *self)
{
  g_autofree char *summary = NULL;
  XrlabPlotFigure f;
  g_autoptr(GError) error = NULL;

  if (self->updating)
    return;
  gtk_widget_set_sensitive (self->dpi_row, current_format (self) == XRLAB_PLOT_FORMAT_PNG ||
                                           self->unit == 2);
  xrlab_export_dialog_get_figure (self, &f);
  if (xrlab_plot_page_check (&f.page, &error))
    summary = xrlab_export_dialog_get_summary (self);
  else
    summary = g_strdup (error->message);
  gtk_label_set_text (self->summary, summary);
  gtk_widget_set_sensitive (GTK_WIDGET (self->summary), error == NULL);
  if (error != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (self->summary), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->summary), "error");
  if (self->preview_id == 0)
    self->preview_id = g_timeout_add (120, preview_cb, self);
}

/* The unit changed: the same size in the new unit. */
static void
on_unit_changed (XrlabExportDialog *self)
{
  int u = (int) MIN (adw_combo_row_get_selected (self->unit_row), 2u);
  double k;

  if (u == self->unit)
    return;
  k = points_per_unit (self, self->unit) / points_per_unit (self, u);
  self->updating = TRUE;
  self->unit = u;
  gtk_spin_button_set_digits (self->width_spin, u == 2 ? 0 : 2);
  gtk_spin_button_set_digits (self->height_spin, u == 2 ? 0 : 2);
  gtk_spin_button_set_value (self->width_spin, gtk_spin_button_get_value (self->width_spin) * k);
  gtk_spin_button_set_value (self->height_spin, gtk_spin_button_get_value (self->height_spin) * k);
  self->updating = FALSE;
  update (self);
}

/* ---- setters ------------------------------------------------------------------------ */

void
xrlab_export_dialog_set_format (XrlabExportDialog *self, XrlabPlotFormat format)
{
  g_return_if_fail (XRLAB_IS_EXPORT_DIALOG (self));
  adw_combo_row_set_selected (self->format_row, (guint) format);
}

void
xrlab_export_dialog_set_unit (XrlabExportDialog *self, const char *unit)
{
  g_return_if_fail (XRLAB_IS_EXPORT_DIALOG (self));
  for (guint u = 0; u < G_N_ELEMENTS (units); u++)
    if (g_strcmp0 (unit, units[u]) == 0)
      adw_combo_row_set_selected (self->unit_row, u);
}

void
xrlab_export_dialog_set_size (XrlabExportDialog *self, double width, double height)
{
  g_return_if_fail (XRLAB_IS_EXPORT_DIALOG (self));
  gtk_spin_button_set_value (self->width_spin, width);
  gtk_spin_button_set_value (self->height_spin, height);
}

void
xrlab_export_dialog_set_dpi (XrlabExportDialog *self, double dpi)
{
  g_return_if_fail (XRLAB_IS_EXPORT_DIALOG (self));
  gtk_spin_button_set_value (self->dpi_spin, dpi);
}

void
xrlab_export_dialog_set_font_size (XrlabExportDialog *self, double pt)
{
  g_return_if_fail (XRLAB_IS_EXPORT_DIALOG (self));
  gtk_spin_button_set_value (self->font_spin, pt);
}

void
xrlab_export_dialog_set_line_width (XrlabExportDialog *self, double pt)
{
  g_return_if_fail (XRLAB_IS_EXPORT_DIALOG (self));
  gtk_spin_button_set_value (self->line_spin, pt);
}

/* ---- writing ---------------------------------------------------------------------- */

char *
xrlab_export_path_for_format (const char *path, XrlabPlotFormat format, XrlabPlotFormat *format_out)
{
  XrlabPlotFormat named;

  if (xrlab_plot_format_from_name (path, &named))
    {
      if (format_out != NULL)
        *format_out = named;
      return g_strdup (path);
    }
  if (format_out != NULL)
    *format_out = format;
  return g_strconcat (path, ".", xrlab_plot_format_get_extension (format), NULL);
}

static void
remember (XrlabExportDialog *self, const char *path)
{
  g_autofree char *folder = g_path_get_dirname (path);
  GSettings *s = self->settings;

  if (s == NULL)
    return;
  g_settings_set_string (s, "export-format", formats[current_format (self)]);
  g_settings_set_string (s, "export-unit", units[self->unit]);
  g_settings_set_double (s, "export-width", gtk_spin_button_get_value (self->width_spin));
  g_settings_set_double (s, "export-height", gtk_spin_button_get_value (self->height_spin));
  g_settings_set_double (s, "export-dpi", gtk_spin_button_get_value (self->dpi_spin));
  g_settings_set_double (s, "export-font-size", gtk_spin_button_get_value (self->font_spin));
  g_settings_set_double (s, "export-line-width", gtk_spin_button_get_value (self->line_spin));
  g_settings_set_string (s, "export-folder", folder);
}

char *
xrlab_export_dialog_export_to (XrlabExportDialog  *self,
                               const char         *chosen_path,
                               GError            **error)
{
  XrlabPlotFigure f;
  g_autofree char *path = NULL;

  g_return_val_if_fail (XRLAB_IS_EXPORT_DIALOG (self), NULL);
  g_return_val_if_fail (chosen_path != NULL, NULL);

  xrlab_export_dialog_get_figure (self, &f);
  path = xrlab_export_path_for_format (chosen_path, f.page.format, &f.page.format);
  if (self->plot != NULL ? !xrlab_plot_export_figure (self->plot, path, &f, error)
                         : (!xrlab_plot_page_check (&f.page, error) ||
                            !xrlab_map_view_export (self->map, path, f.page.format, (int) lround (f.page.width_pt),
                                                    (int) lround (f.page.height_pt), f.page.dpi / 72.0, f.dark,
                                                    error)))
    return NULL;
  remember (self, path);
  return g_steal_pointer (&path);
}

static void
on_chooser_response (GtkNativeDialog *native, int response, XrlabExportDialog *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (native));
      g_autofree char *chosen = file != NULL ? g_file_get_path (file) : NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *path = NULL;

      if (chosen == NULL)
        g_set_error_literal (&error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                             _("Plots can only be exported to local files."));
      else
        path = xrlab_export_dialog_export_to (self, chosen, &error);
      if (self->written != NULL)
        self->written (self->user_data, path != NULL ? path : chosen, error);
      if (error == NULL)
        gtk_window_close (GTK_WINDOW (self));
    }
  g_object_unref (native);
  g_object_unref (self);
}

static void
on_export_clicked (XrlabExportDialog *self)
{
  GtkFileChooserNative *native;
  g_autofree char *name = xrlab_export_dialog_get_proposed_name (self);
  g_autofree char *folder = self->settings != NULL ? g_settings_get_string (self->settings, "export-folder") : NULL;
  GtkFileFilter *filter = gtk_file_filter_new ();

  native = gtk_file_chooser_native_new (_("Export Plot"), GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_SAVE,
                                        _("_Export"), NULL);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (native), TRUE);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (native), name);
  if (folder != NULL && folder[0] != '\0' && g_file_test (folder, G_FILE_TEST_IS_DIR))
    {
      g_autoptr(GFile) dir = g_file_new_for_path (folder);
      gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (native), dir, NULL);
    }
  gtk_file_filter_set_name (filter, _("Images and documents (PNG, SVG, PDF)"));
  gtk_file_filter_add_suffix (filter, "png");
  gtk_file_filter_add_suffix (filter, "svg");
  gtk_file_filter_add_suffix (filter, "pdf");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (native), filter);
  g_object_unref (filter);
  g_signal_connect (native, "response", G_CALLBACK (on_chooser_response), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
}

/* ---- construction ----------------------------------------------------------------- */

static GtkSpinButton *
spin_row (AdwPreferencesGroup *group, const char *title, const char *subtitle,
          double lo, double hi, double step, int digits, GtkWidget **row_out, XrlabExportDialog *self)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *spin = gtk_spin_button_new_with_range (lo, hi, step);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_preferences_row_set_use_underline (ADW_PREFERENCES_ROW (row), TRUE);
  if (subtitle != NULL)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  gtk_spin_button_set_digits (GTK_SPIN_BUTTON (spin), (guint) digits);
  gtk_widget_set_valign (spin, GTK_ALIGN_CENTER);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), spin);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), spin);
  g_signal_connect_swapped (spin, "value-changed", G_CALLBACK (update), self);
  adw_preferences_group_add (group, row);
  if (row_out != NULL)
    *row_out = row;
  return GTK_SPIN_BUTTON (spin);
}

static AdwComboRow *
combo_row (AdwPreferencesGroup *group, const char *title, const char *const *labels)
{
  GtkWidget *row = adw_combo_row_new ();
  GtkStringList *model = gtk_string_list_new (labels);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_preferences_row_set_use_underline (ADW_PREFERENCES_ROW (row), TRUE);
  adw_combo_row_set_model (ADW_COMBO_ROW (row), G_LIST_MODEL (model));
  g_object_unref (model);
  adw_preferences_group_add (group, row);
  return ADW_COMBO_ROW (row);
}

static void
build (XrlabExportDialog *self)
{
  const char *format_labels[] = { _("PNG image"), _("SVG drawing (text stays text)"),
                                  _("PDF document (fonts embedded)"), NULL };
  const char *unit_labels[] = { _("Centimetres"), _("Inches"), _("Pixels"), NULL };
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *header = adw_header_bar_new ();
  GtkWidget *cancel = gtk_button_new_with_mnemonic (_("_Cancel"));
  GtkWidget *export = gtk_button_new_with_mnemonic (_("_Export…"));
  GtkWidget *page = adw_preferences_page_new ();
  AdwPreferencesGroup *g_format = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  AdwPreferencesGroup *g_size = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  AdwPreferencesGroup *g_style = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  GtkWidget *light_row = adw_action_row_new ();
  GtkWidget *frame = gtk_frame_new (NULL);

  adw_header_bar_set_show_end_title_buttons (ADW_HEADER_BAR (header), FALSE);
  gtk_widget_add_css_class (export, "suggested-action");
  adw_header_bar_pack_start (ADW_HEADER_BAR (header), cancel);
  adw_header_bar_pack_end (ADW_HEADER_BAR (header), export);
  g_signal_connect_swapped (cancel, "clicked", G_CALLBACK (gtk_window_close), self);
  g_signal_connect_swapped (export, "clicked", G_CALLBACK (on_export_clicked), self);
  gtk_box_append (GTK_BOX (box), header);

  self->preview = GTK_PICTURE (gtk_picture_new ());
  gtk_picture_set_can_shrink (self->preview, TRUE);
  gtk_widget_set_size_request (GTK_WIDGET (self->preview), -1, 220);
  gtk_frame_set_child (GTK_FRAME (frame), GTK_WIDGET (self->preview));
  gtk_widget_set_margin_start (frame, 12);
  gtk_widget_set_margin_end (frame, 12);
  gtk_widget_set_margin_top (frame, 12);
  gtk_box_append (GTK_BOX (box), frame);

  adw_preferences_group_set_title (g_format, _("Format"));
  self->format_row = combo_row (g_format, _("_Format"), format_labels);
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), g_format);

  adw_preferences_group_set_title (g_size, _("Size"));
  self->unit_row = combo_row (g_size, _("_Unit"), unit_labels);
  self->width_spin = spin_row (g_size, _("_Width"), NULL, 0.1, 30000, 0.5, 2, NULL, self);
  self->height_spin = spin_row (g_size, _("_Height"), NULL, 0.1, 30000, 0.5, 2, NULL, self);
  self->dpi_spin = spin_row (g_size, _("_Resolution (dpi)"), _("Of a PNG; recorded in the file"),
                             18, 1200, 50, 0, &self->dpi_row, self);
  self->summary = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->summary, TRUE);
  gtk_label_set_xalign (self->summary, 0);
  gtk_widget_add_css_class (GTK_WIDGET (self->summary), "dim-label");
  gtk_widget_set_margin_top (GTK_WIDGET (self->summary), 6);
  adw_preferences_group_add (g_size, GTK_WIDGET (self->summary));
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), g_size);

  adw_preferences_group_set_title (g_style, _("Text and Lines"));
  self->font_spin = spin_row (g_style, _("_Type size (pt)"), _("Tick labels and legend; titles a tenth larger"),
                              4, 48, 0.5, 1, NULL, self);
  self->line_spin = spin_row (g_style, _("_Line width (pt)"), NULL, 0.25, 8, 0.25, 2, NULL, self);
  self->light_switch = GTK_SWITCH (gtk_switch_new ());
  gtk_widget_set_valign (GTK_WIDGET (self->light_switch), GTK_ALIGN_CENTER);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (light_row), _("White _background"));
  adw_preferences_row_set_use_underline (ADW_PREFERENCES_ROW (light_row), TRUE);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (light_row), _("Light colours even when the window is dark"));
  adw_action_row_add_suffix (ADW_ACTION_ROW (light_row), GTK_WIDGET (self->light_switch));
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (light_row), GTK_WIDGET (self->light_switch));
  g_signal_connect_swapped (self->light_switch, "notify::active", G_CALLBACK (update), self);
  adw_preferences_group_add (g_style, light_row);
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), g_style);

  gtk_widget_set_vexpand (page, TRUE);
  gtk_box_append (GTK_BOX (box), page);
  adw_window_set_content (ADW_WINDOW (self), box);
  gtk_window_set_default_widget (GTK_WINDOW (self), export);
}

static void
load (XrlabExportDialog *self)
{
  GSettings *s = self->settings;
  g_autofree char *format = NULL, *unit = NULL;

  self->updating = TRUE;
  if (s != NULL)
    {
      format = g_settings_get_string (s, "export-format");
      unit = g_settings_get_string (s, "export-unit");
      for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
        if (g_str_equal (format, formats[f]))
          adw_combo_row_set_selected (self->format_row, f);
      for (guint u = 0; u < G_N_ELEMENTS (units); u++)
        if (g_str_equal (unit, units[u]))
          {
            adw_combo_row_set_selected (self->unit_row, u);
            self->unit = (int) u;
          }
      gtk_spin_button_set_digits (self->width_spin, self->unit == 2 ? 0 : 2);
      gtk_spin_button_set_digits (self->height_spin, self->unit == 2 ? 0 : 2);
      gtk_spin_button_set_value (self->width_spin, g_settings_get_double (s, "export-width"));
      gtk_spin_button_set_value (self->height_spin, g_settings_get_double (s, "export-height"));
      gtk_spin_button_set_value (self->dpi_spin, g_settings_get_double (s, "export-dpi"));
      gtk_spin_button_set_value (self->font_spin, g_settings_get_double (s, "export-font-size"));
      gtk_spin_button_set_value (self->line_spin, g_settings_get_double (s, "export-line-width"));
      gtk_switch_set_active (self->light_switch, g_settings_get_boolean (s, "export-light"));
    }
  else
    {
      gtk_spin_button_set_value (self->width_spin, 16);
      gtk_spin_button_set_value (self->height_spin, 10);
      gtk_spin_button_set_value (self->dpi_spin, 300);
      gtk_spin_button_set_value (self->font_spin, 9);
      gtk_spin_button_set_value (self->line_spin, 1);
      gtk_switch_set_active (self->light_switch, TRUE);
    }
  self->updating = FALSE;
  g_signal_connect_swapped (self->format_row, "notify::selected", G_CALLBACK (update), self);
  g_signal_connect_swapped (self->unit_row, "notify::selected", G_CALLBACK (on_unit_changed), self);
  if (s != NULL)
    g_settings_bind (s, "export-light", self->light_switch, "active", G_SETTINGS_BIND_DEFAULT);
  update (self);
}

static void
xrlab_export_dialog_dispose (GObject *object)
{
  XrlabExportDialog *self = XRLAB_EXPORT_DIALOG (object);

  g_clear_handle_id (&self->preview_id, g_source_remove);
  g_clear_object (&self->plot);
  g_clear_object (&self->map);
  g_clear_object (&self->settings);
  G_OBJECT_CLASS (xrlab_export_dialog_parent_class)->dispose (object);
}

static void
xrlab_export_dialog_class_init (XrlabExportDialogClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = xrlab_export_dialog_dispose;
}

static void
xrlab_export_dialog_init (XrlabExportDialog *self)
{
  gtk_window_set_title (GTK_WINDOW (self), _("Export Plot"));
  gtk_window_set_default_size (GTK_WINDOW (self), 480, 760);
  gtk_window_set_modal (GTK_WINDOW (self), TRUE);
  build (self);
}

XrlabExportDialog *
xrlab_export_dialog_new (GtkWindow       *parent,
                         GtkWidget       *view,
                         GSettings       *settings,
                         XrlabExportDone  written,
                         gpointer         user_data)
{
  XrlabExportDialog *self;

  g_return_val_if_fail (XRLAB_IS_PLOT (view) || XRLAB_IS_MAP_VIEW (view), NULL);
  self = g_object_new (XRLAB_TYPE_EXPORT_DIALOG, "transient-for", parent, NULL);
  if (XRLAB_IS_PLOT (view))
    self->plot = g_object_ref (XRLAB_PLOT (view));
  else
    {
      /* A map has its own type and lines. */
      self->map = g_object_ref (XRLAB_MAP_VIEW (view));
      gtk_widget_set_sensitive (gtk_widget_get_ancestor (GTK_WIDGET (self->font_spin), ADW_TYPE_ACTION_ROW), FALSE);
      gtk_widget_set_sensitive (gtk_widget_get_ancestor (GTK_WIDGET (self->line_spin), ADW_TYPE_ACTION_ROW), FALSE);
    }
  self->settings = settings != NULL ? g_object_ref (settings) : NULL;
  self->written = written;
  self->user_data = user_data;
  load (self);
  return self;
}
