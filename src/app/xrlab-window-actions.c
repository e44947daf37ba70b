/* xrlab-window-actions.c -- win.* actions: sessions, export, view toggles
 *
 * The plot's export and pins: xrlab-window-plot.c.
 *
 * Files are chosen with GtkFileChooserNative, which goes through the file
 * chooser portal inside a Flatpak.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-window-private.h"

#include <stdio.h>
#include <string.h>

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

/* ---- undo ------------------------------------------------------------------------------ */

/* What an Undo puts back: a removed material at its position, or the whole
 * state before a reset. The newest is on top of self->undo_stack, and win.undo
 * (Ctrl+Z) takes them back newest first. One toast offers the Undo of the
 * newest: a newer step retitles it and restarts its timeout, so that older
 * steps are never queued behind it. */
struct _XrlabUndoItem {
  guint serial;
  XrlabMaterial *material;     /* a removal, or NULL */
  guint position;
  XrlabSession *session;       /* a reset: the state before it, or NULL */
};

#define UNDO_MAX 32

void
xrlab_undo_item_free (XrlabUndoItem *item)
{
  g_clear_object (&item->material);
  g_clear_pointer (&item->session, xrlab_session_free);
  g_free (item);
}

static void push_undo (XrlabWindow *self, XrlabUndoItem *item, const char *title);

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
  if (!g_str_has_suffix (path, ".json") && strchr (strrchr (path, G_DIR_SEPARATOR) + 1, '.') == NULL)
    {
      char *with_ext = g_strconcat (path, ".json", NULL);
      g_free (path);
      path = with_ext;
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
action_save_session_as (GtkWidget *widget, const char *name, GVariant *param)
{
  XrlabWindow *self = XRLAB_WINDOW (widget);
  GtkFileChooserNative *native = make_chooser (self, _("Save Session"), GTK_FILE_CHOOSER_ACTION_SAVE,
                                               _("_Save"), session_save_chosen);

  if (self->session_path != NULL)
    {
      g_autoptr(GFile) file = g_file_new_for_path (self->session_path);
      gtk_file_chooser_set_file (GTK_FILE_CHOOSER (native), file, NULL);
    }
  else
    gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (native), "xrlab-session.json");
  add_filter (native, _("xrlab sessions (JSON)"), "*.json", NULL);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
}

/* Ctrl+S: to the session file of the window once there is one. */
static void
action_save_session (GtkWidget *widget, const char *name, GVariant *param)
{
  XrlabWindow *self = XRLAB_WINDOW (widget);
  g_autoptr(GError) error = NULL;
  g_autofree char *base = NULL;
  g_autofree char *msg = NULL;

  if (self->session_path == NULL)
    {
      action_save_session_as (widget, name, param);
      return;
    }
  base = basename_of (self->session_path);
  if (!xrlab_window_save_session_file (self, self->session_path, &error))
    {
      msg = g_strdup_printf (_("Could not save the session: %s"), error->message);
      xrlab_window_toast (self, msg, 10);
      return;
    }
  msg = g_strdup_printf (_("Session saved to “%s”"), base);
  xrlab_window_toast (self, msg, 3);
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
  XrlabUndoItem *item = g_new0 (XrlabUndoItem, 1);

  /* Undo brings back everything the reset replaced (not the file name: the
   * example is no longer that file). */
  item->session = xrlab_window_get_session (self);
  xrlab_window_apply_session (self, session);
  xrlab_window_set_session_path (self, NULL);
  xrlab_window_session_changed (self);
  push_undo (self, item, _("Reset to the example"));
}

/* ---- export -------------------------------------------------------------------------- */

static gboolean
reflect_shown (XrlabWindow *self)
{
  return g_strcmp0 (adw_view_stack_get_visible_child_name (self->view_stack), "reflect") == 0;
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

char *
xrlab_window_complete_file_name (const char *path,
                                 const char *extension)
{
  g_autofree char *base = NULL;

  g_return_val_if_fail (path != NULL && extension != NULL, NULL);
  base = g_path_get_basename (path);
  /* A name without any extension gets the format's; "data.txt" stays. */
  if (strchr (base + 1, '.') != NULL)
    return g_strdup (path);
  return g_strconcat (path, extension, NULL);
}

static void
csv_chosen (XrlabWindow *self, GtkFileChooser *chooser, GFile *file)
{
  g_autofree char *chosen = g_file_get_path (file);
  char *path;

  if (chosen == NULL)
    {
      xrlab_window_toast (self, _("Data can only be exported to local files."), 10);
      return;
    }
  path = xrlab_window_complete_file_name (chosen, ".csv");
  xrlab_window_export_csv (self, path, on_csv_exported, path);
}

static void
action_export_csv (GtkWidget *widget, const char *name, GVariant *param)
{
  XrlabWindow *self = XRLAB_WINDOW (widget);
  GtkFileChooserNative *native;

  /* The Fit page's data: the result set's CSV files, written by the engine. */
  if (g_strcmp0 (adw_view_stack_get_visible_child_name (self->view_stack), "fit") == 0)
    {
      gtk_widget_activate_action (GTK_WIDGET (self->fit_page), "fit.export-results", NULL);
      return;
    }
  native = make_chooser (self, _("Export Data as CSV"), GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), csv_chosen);

  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (native), reflect_shown (self) ? "xrlab-reflectivity.csv"
                                                                                : "xrlab-optical-constants.csv");
  add_filter (native, _("CSV files"), "*.csv", "text/csv");
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
}

/* The plot: xrlab-window-plot.c (win.export-plot, win.export-pins). */

/* ---- view ------------------------------------------------------------------------------ */

static void
action_add_material (GtkWidget *widget, const char *name, GVariant *param)
{
  XrlabWindow *self = XRLAB_WINDOW (widget);

  adw_flap_set_reveal_flap (self->flap, TRUE);
  xrlab_material_list_popup_add (self->material_list);
}

static void
action_edit_sweep (GtkWidget *widget, const char *name, GVariant *param)
{
  XrlabWindow *self = XRLAB_WINDOW (widget);

  adw_flap_set_reveal_flap (self->flap, TRUE);
  xrlab_sweep_controls_focus_error (self->sweep_controls);
}

/* Hidden (no menu item): the developers' diagnostics overlay. */
static void
action_toggle_stats (GtkWidget *widget, const char *name, GVariant *param)
{
  XrlabWindow *self = XRLAB_WINDOW (widget);

  self->show_stats = !self->show_stats;
  xrlab_window_data_invalidate (self);
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
copy_values (XrlabWindow *self, gboolean localize)
{
  xrlab_window_data_flush (self);
  if (g_strcmp0 (adw_view_stack_get_visible_child_name (self->view_stack), "values") != 0)
    {
      adw_view_stack_set_visible_child_name (self->view_stack, "values");
      xrlab_window_data_invalidate (self);
      xrlab_window_data_flush (self);
    }
  xrlab_values_view_copy_full (self->values_view, localize);
  if (xrlab_values_view_get_energy_error (self->values_view) != NULL)
    xrlab_window_toast (self, _("Table copied, at the last valid energy: the energy typed is not valid"), 6);
  else if (xrlab_values_view_is_stale (self->values_view))
    xrlab_window_toast (self, _("Table copied; columns marked “last valid” are of an input that is not valid"), 6);
  else if (localize)
    xrlab_window_toast (self, _("Table copied for a spreadsheet, with this language’s decimal separator"), 3);
  else
    xrlab_window_toast (self, _("Table copied as tab-separated text"), 3);
}

static void
action_copy_values (GtkWidget *widget, const char *name, GVariant *param)
{
  copy_values (XRLAB_WINDOW (widget), FALSE);
}

static void
action_copy_values_spreadsheet (GtkWidget *widget, const char *name, GVariant *param)
{
  copy_values (XRLAB_WINDOW (widget), TRUE);
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
  /* The Reflectivity and Fit pages need no material. */
  gboolean any = g_list_model_get_n_items (G_LIST_MODEL (self->materials)) > 0 || reflect_shown (self)
                 || g_strcmp0 (adw_view_stack_get_visible_child_name (self->view_stack), "fit") == 0;

  /* Without materials: the empty state, with its Add button. */
  gtk_stack_set_visible_child_name (self->content_stack, any ? "pages" : "empty");
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export-csv", any);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export-plot", any);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.undo",
                                 self->undo_stack != NULL && self->undo_stack->len > 0);
}

static void
on_undo_toast_dismissed (AdwToast    *toast,
                         XrlabWindow *self)
{
  if (self->undo_toast == toast)
    g_clear_object (&self->undo_toast);
}

/* libadwaita 1.2's toast overlay frees a toast's entry when its hide
 * animation ends but leaves its show animation's handler connected to it
 * (fixed in 1.3: "toast-overlay: Prevent show_done from firing after
 * hide_done"): a toast dismissed while it is still appearing makes the
 * overlay use freed memory when the show animation ends. So a toast is
 * dismissed only once it has appeared: the show animation takes 300 ms
 * (500 when it replaces another); this waits 600 ms from its adding. */
#define TOAST_APPEARED_US (600 * G_TIME_SPAN_MILLISECOND)

static gboolean
dismiss_toast_cb (gpointer toast)
{
  adw_toast_dismiss (toast);
  return G_SOURCE_REMOVE;
}

static void
dismiss_undo_toast (XrlabWindow *self)
{
  gint64 age = g_get_monotonic_time () - self->undo_toast_added_us;
  AdwToast *toast = self->undo_toast;

  if (age >= TOAST_APPEARED_US)
    {
      adw_toast_dismiss (toast);
      return;
    }
  /* no longer the window's: a new step gets a toast of its own */
  g_signal_handlers_disconnect_by_func (toast, on_undo_toast_dismissed, self);
  self->undo_toast = NULL;
  g_timeout_add_full (G_PRIORITY_DEFAULT, (guint) ((TOAST_APPEARED_US - age) / 1000) + 1,
                      dismiss_toast_cb, toast, g_object_unref);
}

static void
push_undo (XrlabWindow *self, XrlabUndoItem *item, const char *title)
{
  g_autofree char *escaped = g_markup_escape_text (title, -1);

  if (self->undo_stack->len >= UNDO_MAX)
    g_ptr_array_remove_index (self->undo_stack, 0);
  item->serial = ++self->undo_serial;
  g_ptr_array_add (self->undo_stack, item);

  /* One toast for the removals in a row, retitled for each: a toast is
   * added to the overlay once (libadwaita 1.2 gives a toast added again a
   * second entry of its own, whose animations and references outlive the
   * first's: a crash when one hides as the other goes). */
  if (self->undo_toast == NULL)
    {
      self->undo_toast = adw_toast_new (escaped);
      adw_toast_set_button_label (self->undo_toast, _("_Undo"));
      adw_toast_set_action_name (self->undo_toast, "win.undo-item");
      g_signal_connect_object (self->undo_toast, "dismissed", G_CALLBACK (on_undo_toast_dismissed), self, 0);
      adw_toast_set_action_target_value (self->undo_toast, g_variant_new_uint32 (item->serial));
      adw_toast_overlay_add_toast (self->toast_overlay, g_object_ref (self->undo_toast));
      self->undo_toast_added_us = g_get_monotonic_time ();
    }
  else
    {
      adw_toast_set_title (self->undo_toast, escaped);
      adw_toast_set_action_target_value (self->undo_toast, g_variant_new_uint32 (item->serial));
    }
  xrlab_window_actions_update (self);
}

static void
undo_at (XrlabWindow *self, guint index)
{
  XrlabUndoItem *item = g_ptr_array_steal_index (self->undo_stack, index);

  if (self->undo_toast != NULL && index == self->undo_stack->len)
    dismiss_undo_toast (self);
  if (item->material != NULL)
    {
      guint n = g_list_model_get_n_items (G_LIST_MODEL (self->materials));
      g_list_store_insert (self->materials, MIN (item->position, n), item->material);
    }
  else if (item->session != NULL)
    {
      xrlab_window_apply_session (self, item->session);
      xrlab_window_session_changed (self);
    }
  xrlab_undo_item_free (item);
  xrlab_window_actions_update (self);
}

static void
action_undo (GtkWidget *widget, const char *name, GVariant *param)
{
  XrlabWindow *self = XRLAB_WINDOW (widget);

  if (self->undo_stack->len > 0)
    undo_at (self, self->undo_stack->len - 1);
}

static void
action_undo_item (GtkWidget *widget, const char *name, GVariant *param)
{
  XrlabWindow *self = XRLAB_WINDOW (widget);
  guint serial = g_variant_get_uint32 (param);

  for (guint i = 0; i < self->undo_stack->len; i++)
    if (((XrlabUndoItem *) g_ptr_array_index (self->undo_stack, i))->serial == serial)
      {
        undo_at (self, i);
        return;
      }
}

guint
xrlab_window_get_n_undo (XrlabWindow *self)
{
  g_return_val_if_fail (XRLAB_IS_WINDOW (self), 0);
  return self->undo_stack->len;
}

AdwToast *
xrlab_window_get_undo_toast (XrlabWindow *self)
{
  g_return_val_if_fail (XRLAB_IS_WINDOW (self), NULL);
  return self->undo_toast;
}

static void
on_material_removed (XrlabMaterialList *list,
                     XrlabMaterial     *material,
                     guint              position,
                     XrlabWindow       *self)
{
  XrlabUndoItem *item = g_new0 (XrlabUndoItem, 1);
  g_autofree char *title = g_strdup_printf (_("Removed “%s”"), xrlab_material_get_display_name (material));

  item->material = g_object_ref (material);
  item->position = position;
  push_undo (self, item, title);
}

void
xrlab_window_actions_init (XrlabWindow *self)
{
  g_signal_connect_object (self->materials, "items-changed", G_CALLBACK (on_materials_changed),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->material_list, "removed", G_CALLBACK (on_material_removed), self, 0);
  xrlab_window_actions_update (self);
  xrlab_window_plot_init (self);
}

/* Called from class_init (xrlab-window.c). */
void
xrlab_window_class_install_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.open-session", NULL, action_open_session);
  gtk_widget_class_install_action (widget_class, "win.save-session", NULL, action_save_session);
  gtk_widget_class_install_action (widget_class, "win.save-session-as", NULL, action_save_session_as);
  gtk_widget_class_install_action (widget_class, "win.toggle-stats", NULL, action_toggle_stats);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_D, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.toggle-stats", NULL);
  gtk_widget_class_install_action (widget_class, "win.reset-session", NULL, action_reset_session);
  gtk_widget_class_install_action (widget_class, "win.export-csv", NULL, action_export_csv);
  xrlab_window_class_install_plot_actions (widget_class);
  gtk_widget_class_install_action (widget_class, "win.add-material", NULL, action_add_material);
  gtk_widget_class_install_action (widget_class, "win.toggle-sidebar", NULL, action_toggle_sidebar);
  gtk_widget_class_install_action (widget_class, "win.edit-sweep", NULL, action_edit_sweep);
  gtk_widget_class_install_action (widget_class, "win.show-page", "s", action_show_page);
  gtk_widget_class_install_action (widget_class, "win.toggle-x-log", NULL, action_toggle_x_log);
  gtk_widget_class_install_action (widget_class, "win.toggle-y-log", NULL, action_toggle_y_log);
  gtk_widget_class_install_action (widget_class, "win.copy-values", NULL, action_copy_values);
  gtk_widget_class_install_action (widget_class, "win.copy-values-spreadsheet", NULL,
                                   action_copy_values_spreadsheet);
  gtk_widget_class_install_action (widget_class, "win.undo", NULL, action_undo);
  gtk_widget_class_install_action (widget_class, "win.undo-item", "u", action_undo_item);
  /* In the bubble phase: an entry's own text undo comes first. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_z, GDK_CONTROL_MASK, "win.undo", NULL);
}
