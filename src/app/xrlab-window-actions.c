/* xrlab-window-actions.c -- win.* actions: sessions, export, view toggles
 *
 * Files are chosen with GtkFileChooserNative, which goes through the file
 * chooser portal inside a Flatpak.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-window-private.h"

#include <stdio.h>

#include <glib/gi18n-lib.h>

/* ---- helpers ------------------------------------------------------------------------- */

static void
show_error_dialog (XrlabWindow *self, const char *heading, const char *body)
{
  GtkWidget *dialog = adw_message_dialog_new (GTK_WINDOW (self), heading, body);

  adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "close", _("_Close"));
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "close");
  gtk_window_present (GTK_WINDOW (dialog));
}

static char *
basename_of (const char *path)
{
  return g_path_get_basename (path);
}

typedef void (*ChosenFunc) (XrlabWindow *self, GtkFileChooser *chooser, GFile *file);

typedef struct {
  XrlabWindow *self;
  ChosenFunc func;
} Pending;

static void
on_chooser_response (GtkNativeDialog *native,
                     int              response,
                     Pending         *pending)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (native));
      if (file != NULL)
        pending->func (pending->self, GTK_FILE_CHOOSER (native), file);
    }
  g_object_unref (pending->self);
  g_free (pending);
  g_object_unref (native);
}

static GtkFileChooserNative *
make_chooser (XrlabWindow          *self,
              const char           *title,
              GtkFileChooserAction  action,
              const char           *accept,
              ChosenFunc            func)
{
  GtkFileChooserNative *native = gtk_file_chooser_native_new (title, GTK_WINDOW (self), action, accept, NULL);
  Pending *pending = g_new0 (Pending, 1);

  pending->self = g_object_ref (self);
  pending->func = func;
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (native), TRUE);
  g_signal_connect (native, "response", G_CALLBACK (on_chooser_response), pending);
  return native;
}

static void
add_filter (GtkFileChooserNative *native, const char *name, const char *pattern, const char *mime)
{
  GtkFileFilter *filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, name);
  if (pattern != NULL)
    gtk_file_filter_add_pattern (filter, pattern);
  if (mime != NULL)
    gtk_file_filter_add_mime_type (filter, mime);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (native), filter);
  g_object_unref (filter);
}

/* ---- sessions -------------------------------------------------------------------------- */

static void
session_save_chosen (XrlabWindow *self, GtkFileChooser *chooser, GFile *file)
{
  g_autofree char *path = g_file_get_path (file);
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;
  g_autofree char *msg = NULL;

  if (path == NULL)
    {
      xrlab_window_toast (self, _("Sessions can only be saved to local files."), 10);
      return;
    }
  name = basename_of (path);
  if (!xrlab_window_save_session_file (self, path, &error))
    {
      msg = g_strdup_printf (_("Could not save the session: %s"), error->message);
      xrlab_window_toast (self, msg, 10);
      return;
    }
  msg = g_strdup_printf (_("Session saved to “%s”"), name);
  xrlab_window_toast (self, msg, 4);
}

static void
action_save_session (GtkWidget *widget, const char *name, GVariant *param)
{
  XrlabWindow *self = XRLAB_WINDOW (widget);
  GtkFileChooserNative *native = make_chooser (self, _("Save Session"), GTK_FILE_CHOOSER_ACTION_SAVE,
                                               _("_Save"), session_save_chosen);

  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (native), "xrlab-session.json");
  add_filter (native, _("xrlab sessions (JSON)"), "*.json", NULL);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
}

static void
session_open_chosen (XrlabWindow *self, GtkFileChooser *chooser, GFile *file)
{
  g_autofree char *path = g_file_get_path (file);
  g_autoptr(GError) error = NULL;
  g_autofree char *msg = NULL;
  g_autofree char *name = NULL;

  if (path == NULL)
    {
      xrlab_window_toast (self, _("Sessions can only be opened from local files."), 10);
      return;
    }
  name = basename_of (path);
  if (!xrlab_window_open_session_file (self, path, &error))
    {
      msg = g_strdup_printf (_("“%s” was not opened; the current session is unchanged."), name);
      show_error_dialog (self, msg, error->message);
      return;
    }
  msg = g_strdup_printf (_("Opened “%s”"), name);
  xrlab_window_toast (self, msg, 4);
}

static void
action_open_session (GtkWidget *widget, const char *name, GVariant *param)
{
  XrlabWindow *self = XRLAB_WINDOW (widget);
  GtkFileChooserNative *native = make_chooser (self, _("Open Session"), GTK_FILE_CHOOSER_ACTION_OPEN,
                                               _("_Open"), session_open_chosen);

  add_filter (native, _("xrlab sessions (JSON)"), "*.json", NULL);
  add_filter (native, _("All files"), "*", NULL);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
}

static void
action_reset_session (GtkWidget *widget, const char *name, GVariant *param)
{
  XrlabWindow *self = XRLAB_WINDOW (widget);
  g_autoptr(XrlabSession) session = xrlab_session_new_default ();

  xrlab_window_apply_session (self, session);
  xrlab_window_session_changed (self);
}

/* ---- export -------------------------------------------------------------------------- */

static gboolean
reflect_shown (XrlabWindow *self)
{
  return g_strcmp0 (adw_view_stack_get_visible_child_name (self->view_stack), "reflect") == 0;
}

/* The widget the plot export shows: the optics plot, or the Reflectivity
 * page's plot or map. */
static GtkWidget *
export_view (XrlabWindow *self)
{
  return reflect_shown (self) ? xrlab_reflect_page_get_shown_view (self->reflect_page)
                              : GTK_WIDGET (self->plot);
}

static void
on_page_csv (GObject *source, GAsyncResult *result, gpointer data)
{
  GTask *task = data;
  GError *error = NULL;

  if (xrlab_reflect_page_export_csv_finish (XRLAB_REFLECT_PAGE (source), result, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
  g_object_unref (task);
}

void
xrlab_window_export_csv (XrlabWindow         *self,
                         const char          *path,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_return_if_fail (XRLAB_IS_WINDOW (self));
  /* The Reflectivity page exports its own curves. */
  if (reflect_shown (self))
    xrlab_reflect_page_export_csv (self->reflect_page, path, on_page_csv,
                                   g_task_new (self, NULL, callback, user_data));
  else
    xrlab_window_data_export_csv (self, path, callback, user_data);
}

gboolean
xrlab_window_export_csv_finish (XrlabWindow   *self,
                                GAsyncResult  *result,
                                GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
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
  double scale;

  g_return_val_if_fail (XRLAB_IS_WINDOW (self), FALSE);
  xrlab_window_data_flush (self);
  light = g_settings_get_boolean (self->settings, "export-light");
  scale = g_settings_get_double (self->settings, "export-png-scale");
  if (reflect_shown (self))
    return xrlab_reflect_page_export (self->reflect_page, path, format, width, height, scale,
                                      light ? FALSE : xrlab_plot_get_dark (self->plot), error);
  return xrlab_plot_export (self->plot, path, format, width, height, scale,
                            light ? FALSE : xrlab_plot_get_dark (self->plot), error);
}

static void
report_export (XrlabWindow *self, const char *path, gboolean ok, GError *error)
{
  g_autofree char *name = basename_of (path);
  g_autofree char *msg = NULL;

  if (ok)
    msg = g_strdup_printf (_("Exported “%s”"), name);
  else
    msg = g_strdup_printf (_("Export failed: %s"), error->message);
  xrlab_window_toast (self, msg, ok ? 4 : 0);
}

static void
on_csv_exported (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  XrlabWindow *self = XRLAB_WINDOW (source);
  g_autofree char *path = user_data;
  g_autoptr(GError) error = NULL;
  gboolean ok = xrlab_window_export_csv_finish (self, result, &error);

  report_export (self, path, ok, error);
}

static void
csv_chosen (XrlabWindow *self, GtkFileChooser *chooser, GFile *file)
{
  char *path = g_file_get_path (file);

  if (path == NULL)
    {
      xrlab_window_toast (self, _("Data can only be exported to local files."), 10);
      return;
    }
  xrlab_window_export_csv (self, path, on_csv_exported, path);
}

static void
action_export_csv (GtkWidget *widget, const char *name, GVariant *param)
{
  XrlabWindow *self = XRLAB_WINDOW (widget);
  GtkFileChooserNative *native = make_chooser (self, _("Export Data as CSV"), GTK_FILE_CHOOSER_ACTION_SAVE,
                                               _("_Export"), csv_chosen);

  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (native), reflect_shown (self) ? "xrlab-reflectivity.csv"
                                                                                : "xrlab-optical-constants.csv");
  add_filter (native, _("CSV files"), "*.csv", "text/csv");
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
}

static gboolean
format_from_name (const char *path, XrlabPlotFormat *format)
{
  g_autofree char *lower = g_ascii_strdown (path, -1);

  if (g_str_has_suffix (lower, ".png"))
    *format = XRLAB_PLOT_FORMAT_PNG;
  else if (g_str_has_suffix (lower, ".svg"))
    *format = XRLAB_PLOT_FORMAT_SVG;
  else if (g_str_has_suffix (lower, ".pdf"))
    *format = XRLAB_PLOT_FORMAT_PDF;
  else
    return FALSE;
  return TRUE;
}

static void
plot_chosen (XrlabWindow *self, GtkFileChooser *chooser, GFile *file)
{
  g_autofree char *path = g_file_get_path (file);
  const char *fmt = gtk_file_chooser_get_choice (chooser, "format");
  const char *size = gtk_file_chooser_get_choice (chooser, "size");
  static const char *const ext[] = { ".png", ".svg", ".pdf" };
  XrlabPlotFormat format = XRLAB_PLOT_FORMAT_PNG;
  g_autoptr(GError) error = NULL;
  int width = 0, height = 0;
  gboolean ok;

  if (path == NULL)
    {
      xrlab_window_toast (self, _("Plots can only be exported to local files."), 10);
      return;
    }
  /* The file name's extension wins; without one the chosen format applies. */
  if (!format_from_name (path, &format))
    {
      char *with_ext;
      if (g_strcmp0 (fmt, "svg") == 0)
        format = XRLAB_PLOT_FORMAT_SVG;
      else if (g_strcmp0 (fmt, "pdf") == 0)
        format = XRLAB_PLOT_FORMAT_PDF;
      with_ext = g_strconcat (path, ext[format], NULL);
      g_free (path);
      path = with_ext;
    }
  if (size == NULL || g_strcmp0 (size, "window") == 0 ||
      sscanf (size, "%dx%d", &width, &height) != 2)
    {
      width = gtk_widget_get_width (export_view (self));
      height = gtk_widget_get_height (export_view (self));
    }
  ok = xrlab_window_export_plot_file (self, path, format, MAX (width, 120), MAX (height, 90), &error);
  report_export (self, path, ok, error);
}

static void
action_export_plot (GtkWidget *widget, const char *name, GVariant *param)
{
  XrlabWindow *self = XRLAB_WINDOW (widget);
  GtkFileChooserNative *native = make_chooser (self, _("Export Plot"), GTK_FILE_CHOOSER_ACTION_SAVE,
                                               _("_Export"), plot_chosen);
  static const char *format_ids[] = { "png", "svg", "pdf", NULL };
  const char *format_labels[] = { _("PNG image"), _("SVG drawing"), _("PDF document"), NULL };
  static const char *size_ids[] = { "window", "800x600", "1200x800", "1600x1000", NULL };
  g_autofree char *window_label = g_strdup_printf (_("As on screen (%d × %d)"),
                                                   gtk_widget_get_width (export_view (self)),
                                                   gtk_widget_get_height (export_view (self)));
  const char *size_labels[] = { window_label, "800 × 600", "1200 × 800", "1600 × 1000", NULL };

  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (native), "xrlab-plot.png");
  add_filter (native, _("Images and documents (PNG, SVG, PDF)"), NULL, NULL);
  gtk_file_chooser_add_choice (GTK_FILE_CHOOSER (native), "format", _("Format"), format_ids, format_labels);
  gtk_file_chooser_set_choice (GTK_FILE_CHOOSER (native), "format", "png");
  gtk_file_chooser_add_choice (GTK_FILE_CHOOSER (native), "size", _("Size"), size_ids, size_labels);
  gtk_file_chooser_set_choice (GTK_FILE_CHOOSER (native), "size", "window");
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
}

/* ---- view ------------------------------------------------------------------------------ */

static void
action_add_material (GtkWidget *widget, const char *name, GVariant *param)
{
  XrlabWindow *self = XRLAB_WINDOW (widget);

  adw_flap_set_reveal_flap (self->flap, TRUE);
  xrlab_material_list_popup_add (self->material_list);
}

static void
action_toggle_sidebar (GtkWidget *widget, const char *name, GVariant *param)
{
  XrlabWindow *self = XRLAB_WINDOW (widget);

  adw_flap_set_reveal_flap (self->flap, !adw_flap_get_reveal_flap (self->flap));
}

static void
action_show_page (GtkWidget *widget, const char *name, GVariant *param)
{
  XrlabWindow *self = XRLAB_WINDOW (widget);

  adw_view_stack_set_visible_child_name (self->view_stack, g_variant_get_string (param, NULL));
}

static void
action_toggle_x_log (GtkWidget *widget, const char *name, GVariant *param)
{
  XrlabWindow *self = XRLAB_WINDOW (widget);
  xrlab_plot_controls_set_x_log (self->plot_controls, !xrlab_plot_controls_get_x_log (self->plot_controls));
}

static void
action_toggle_y_log (GtkWidget *widget, const char *name, GVariant *param)
{
  XrlabWindow *self = XRLAB_WINDOW (widget);
  xrlab_plot_controls_set_y_log (self->plot_controls, !xrlab_plot_controls_get_y_log (self->plot_controls));
}

static void
action_copy_values (GtkWidget *widget, const char *name, GVariant *param)
{
  XrlabWindow *self = XRLAB_WINDOW (widget);

  xrlab_window_data_flush (self);
  if (g_strcmp0 (adw_view_stack_get_visible_child_name (self->view_stack), "values") != 0)
    {
      adw_view_stack_set_visible_child_name (self->view_stack, "values");
      xrlab_window_data_invalidate (self);
      xrlab_window_data_flush (self);
    }
  xrlab_values_view_copy (self->values_view);
  xrlab_window_toast (self, _("Table copied as tab-separated text"), 3);
}

static void
on_materials_changed (XrlabWindow *self)
{
  xrlab_window_actions_update (self);
}

static void
on_material_removed (XrlabMaterialList *list,
                     XrlabMaterial     *material,
                     guint              position,
                     XrlabWindow       *self);

void
xrlab_window_actions_update (XrlabWindow *self)
{
  gboolean any = g_list_model_get_n_items (G_LIST_MODEL (self->materials)) > 0;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export-csv", any);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export-plot", any);
}

/* Undo for removing a material. */
typedef struct {
  XrlabWindow *self;
  XrlabMaterial *material;
  guint position;
} Removed;

static void
removed_free (gpointer p)
{
  Removed *r = p;
  g_object_unref (r->self);
  g_object_unref (r->material);
  g_free (r);
}

static void
on_undo_remove (AdwToast *toast,
                Removed  *r)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (r->self->materials));
  g_list_store_insert (r->self->materials, MIN (r->position, n), r->material);
}

static void
on_material_removed (XrlabMaterialList *list,
                     XrlabMaterial     *material,
                     guint              position,
                     XrlabWindow       *self)
{
  g_autofree char *escaped = g_markup_escape_text (xrlab_material_get_display_name (material), -1);
  g_autofree char *title = g_strdup_printf (_("Removed “%s”"), escaped);
  AdwToast *toast = adw_toast_new (title);
  Removed *r = g_new0 (Removed, 1);

  r->self = g_object_ref (self);
  r->material = g_object_ref (material);
  r->position = position;
  adw_toast_set_button_label (toast, _("_Undo"));
  g_signal_connect_data (toast, "button-clicked", G_CALLBACK (on_undo_remove), r,
                         (GClosureNotify) (void (*) (void)) removed_free, 0);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

void
xrlab_window_actions_init (XrlabWindow *self)
{
  g_signal_connect_object (self->materials, "items-changed", G_CALLBACK (on_materials_changed),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->material_list, "removed", G_CALLBACK (on_material_removed), self, 0);
  xrlab_window_actions_update (self);
}

/* Called from class_init (xrlab-window.c). */
void
xrlab_window_class_install_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.open-session", NULL, action_open_session);
  gtk_widget_class_install_action (widget_class, "win.save-session", NULL, action_save_session);
  gtk_widget_class_install_action (widget_class, "win.reset-session", NULL, action_reset_session);
  gtk_widget_class_install_action (widget_class, "win.export-csv", NULL, action_export_csv);
  gtk_widget_class_install_action (widget_class, "win.export-plot", NULL, action_export_plot);
  gtk_widget_class_install_action (widget_class, "win.add-material", NULL, action_add_material);
  gtk_widget_class_install_action (widget_class, "win.toggle-sidebar", NULL, action_toggle_sidebar);
  gtk_widget_class_install_action (widget_class, "win.show-page", "s", action_show_page);
  gtk_widget_class_install_action (widget_class, "win.toggle-x-log", NULL, action_toggle_x_log);
  gtk_widget_class_install_action (widget_class, "win.toggle-y-log", NULL, action_toggle_y_log);
  gtk_widget_class_install_action (widget_class, "win.copy-values", NULL, action_copy_values);
}
