/* xrlab-window-plot.c -- the window's plot: figure export (the export
 * dialog), the pinned values copied and exported
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-window-private.h"

#include <math.h>

#include <glib/gi18n-lib.h>

#include "xrlab-export-dialog.h"
#include "xrlab-util.h"

/* The view the plot export writes: the optics plot, the Reflectivity
 * page's plot or map, or the Fit page's plot with the focus (its map
 * when none has it). */
static GtkWidget *
export_view (XrlabWindow *self)
{
  const char *page = adw_view_stack_get_visible_child_name (self->view_stack);

  if (g_strcmp0 (page, "reflect") == 0)
    return xrlab_reflect_page_get_shown_view (self->reflect_page);
  if (g_strcmp0 (page, "fit") == 0)
    return xrlab_fit_page_get_shown_view (self->fit_page);
  return GTK_WIDGET (self->plot);
}

gboolean
xrlab_window_export_plot_file (XrlabWindow     *self,
                               const char      *path,
                               XrlabPlotFormat  format,
                               int              width,
                               int              height,
                               GError         **error)
{
  gboolean light;

  g_return_val_if_fail (XRLAB_IS_WINDOW (self), FALSE);
  xrlab_window_data_flush (self);
  light = g_settings_get_boolean (self->settings, "export-light");
  /* What is asked for is what is written: a PNG of width x height pixels. */
  if (g_strcmp0 (adw_view_stack_get_visible_child_name (self->view_stack), "reflect") == 0)
    return xrlab_reflect_page_export (self->reflect_page, path, format, width, height, 1.0,
                                      light ? FALSE : xrlab_plot_get_dark (self->plot), error);
  if (XRLAB_IS_MAP_VIEW (export_view (self)))
    return xrlab_map_view_export (XRLAB_MAP_VIEW (export_view (self)), path, format, width, height, 1.0,
                                  light ? FALSE : xrlab_plot_get_dark (self->plot), error);
  return xrlab_plot_export (XRLAB_PLOT (export_view (self)), path, format, width, height, 1.0,
                            light ? FALSE : xrlab_plot_get_dark (self->plot), error);
}

gboolean
xrlab_window_export_figure (XrlabWindow           *self,
                            const char            *path,
                            const XrlabPlotFigure *figure,
                            GError               **error)
{
  g_return_val_if_fail (XRLAB_IS_WINDOW (self), FALSE);
  xrlab_window_data_flush (self);
  if (XRLAB_IS_MAP_VIEW (export_view (self)))
    /* A map: the page and its resolution (its own type and lines). */
    return xrlab_plot_page_check (&figure->page, error) &&
           xrlab_map_view_export (XRLAB_MAP_VIEW (export_view (self)), path, figure->page.format,
                                  (int) lround (figure->page.width_pt), (int) lround (figure->page.height_pt),
                                  figure->page.dpi / 72.0, figure->dark, error);
  return xrlab_plot_export_figure (XRLAB_PLOT (export_view (self)), path, figure, error);
}

static void
on_figure_written (gpointer user_data, const char *path, const GError *error)
{
  XrlabWindow *self = user_data;
  g_autofree char *name = path != NULL ? g_path_get_basename (path) : g_strdup ("");
  g_autofree char *msg = NULL;

  if (error == NULL)
    msg = g_strdup_printf (_("Exported “%s”"), name);
  else
    msg = g_strdup_printf (_("Export failed: %s"), error->message);
  xrlab_window_toast (self, msg, error == NULL ? 4 : 0);
}

XrlabExportDialog *
xrlab_window_show_export_dialog (XrlabWindow *self)
{
  XrlabExportDialog *dialog;

  g_return_val_if_fail (XRLAB_IS_WINDOW (self), NULL);
  xrlab_window_data_flush (self);
  dialog = xrlab_export_dialog_new (GTK_WINDOW (self), export_view (self), self->settings, on_figure_written, self);
  gtk_window_present (GTK_WINDOW (dialog));
  return dialog;
}

static void
action_export_plot (GtkWidget *widget, const char *name, GVariant *param)
{
  xrlab_window_show_export_dialog (XRLAB_WINDOW (widget));
}

/* ---- pins ------------------------------------------------------------------------ */

gboolean
xrlab_window_export_pins (XrlabWindow  *self,
                          const char   *path,
                          GError      **error)
{
  g_autofree char *table = NULL;

  g_return_val_if_fail (XRLAB_IS_WINDOW (self), FALSE);
  /* The shown plot's (a map has no pins). */
  if (XRLAB_IS_PLOT (export_view (self)))
    table = xrlab_plot_get_pins_table (XRLAB_PLOT (export_view (self)), ',');
  if (table == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("There are no pinned values: click the plot to pin one."));
      return FALSE;
    }
  return xrlab_write_file_atomic (path, table, -1, error);
}

static void
on_pins_chosen (GtkNativeDialog *native, int response, XrlabWindow *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (native));
      g_autofree char *chosen = file != NULL ? g_file_get_path (file) : NULL;
      g_autofree char *path = NULL, *name = NULL, *msg = NULL;
      g_autoptr(GError) error = NULL;

      if (chosen == NULL)
        {
          xrlab_window_toast (self, _("Data can only be exported to local files."), 10);
          goto out;
        }
      path = g_str_has_suffix (chosen, ".csv") ? g_strdup (chosen) : g_strconcat (chosen, ".csv", NULL);
      name = g_path_get_basename (path);
      if (xrlab_window_export_pins (self, path, &error))
        msg = g_strdup_printf (_("Exported “%s”"), name);
      else
        msg = g_strdup_printf (_("Export failed: %s"), error->message);
      xrlab_window_toast (self, msg, error == NULL ? 4 : 0);
    }
out:
  g_object_unref (native);
  g_object_unref (self);
}

static void
action_export_pins (GtkWidget *widget, const char *name, GVariant *param)
{
  XrlabWindow *self = XRLAB_WINDOW (widget);
  GtkFileChooserNative *native =
    gtk_file_chooser_native_new (_("Export Pinned Values"), GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_SAVE,
                                 _("_Export"), NULL);

  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (native), TRUE);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (native), "xrlab-pins.csv");
  g_signal_connect (native, "response", G_CALLBACK (on_pins_chosen), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
}

static void
on_pins_copied (XrlabPlot *plot, guint n, XrlabWindow *self)
{
  g_autofree char *msg = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u pinned value copied as a table",
                                                       "%u pinned values copied as a table", n), n);
  xrlab_window_toast (self, msg, 3);
}

void
xrlab_window_plot_init (XrlabWindow *self)
{
  g_signal_connect_object (self->plot, "pins-copied", G_CALLBACK (on_pins_copied), self, 0);
  if (self->reflect_page != NULL)
    g_signal_connect_object (xrlab_reflect_page_get_plot (self->reflect_page), "pins-copied",
                             G_CALLBACK (on_pins_copied), self, 0);
}

void
xrlab_window_class_install_plot_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.export-plot", NULL, action_export_plot);
  gtk_widget_class_install_action (widget_class, "win.export-pins", NULL, action_export_pins);
}
