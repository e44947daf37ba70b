/* xrlab-window-session.c -- the window's state as a session: snapshot,
 * apply, auto-save shortly after each change, restore on start
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-window-private.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#define AUTOSAVE_DELAY_MS 800

static guint32
rgba_to_rgb (const GdkRGBA *c)
{
  guint32 r = (guint32) lround (CLAMP (c->red, 0, 1) * 255);
  guint32 g = (guint32) lround (CLAMP (c->green, 0, 1) * 255);
  guint32 b = (guint32) lround (CLAMP (c->blue, 0, 1) * 255);
  return (r << 16) | (g << 8) | b;
}

static GdkRGBA
rgb_to_rgba (guint32 rgb)
{
  return (GdkRGBA) { ((rgb >> 16) & 0xff) / 255.0, ((rgb >> 8) & 0xff) / 255.0, (rgb & 0xff) / 255.0, 1.0 };
}

/* The Reflectivity page into @s, and back. */
static void
get_reflect (XrlabWindow *self, XrlabSession *s)
{
  GListModel *stacks = G_LIST_MODEL (xrlab_reflect_page_get_stacks (self->reflect_page));
  XrlabReflectSettings rs;
  XrlabSessionReflect r;

  for (guint i = 0; i < g_list_model_get_n_items (stacks); i++)
    {
      g_autoptr(XrlabStackItem) item = g_list_model_get_item (stacks, i);
      xrlab_session_add_stack (s, xrlab_stack_item_get_name (item), xrlab_stack_item_get_text (item),
                               xrlab_stack_item_get_kind (item) == XRLAB_STACK_FILTER,
                               rgba_to_rgb (xrlab_stack_item_get_color (item)),
                               xrlab_stack_item_get_visible (item));
    }
  if (s->stacks == NULL)
    xrlab_session_clear_stacks (s);   /* none, not "a session without the page" */
  xrlab_reflect_page_get_settings (self->reflect_page, &rs);
  r = (XrlabSessionReflect) { rs.view, rs.energy, rs.energies, rs.angle, rs.angles, rs.degrees,
                              rs.polarization, rs.y_log, rs.table };
  xrlab_session_set_reflect (s, &r);
  xrlab_reflect_settings_clear (&rs);
}

/* The Fit page's workspace. */
static void
get_fit (XrlabWindow *self, XrlabSession *s)
{
  const XrlabFitWorkspace *ws = xrlab_fit_page_get_workspace (self->fit_page);

  if (ws != NULL)
    xrlab_session_set_fit (s, ws);   /* copies */
}

/* Opens the session's workspace (the files are read on the engine thread;
 * one that cannot be read leaves its message on the page). */
static void
apply_fit (XrlabWindow *self, const XrlabSession *session)
{
  const XrlabSessionFit *f = xrlab_session_get_fit (session);

  if (f != NULL)
    xrlab_fit_page_open (self->fit_page, f);
}

static void
apply_reflect (XrlabWindow *self, const XrlabSession *session)
{
  g_autoptr(XrlabSession) example = NULL;
  const GPtrArray *stacks = session->stacks;
  const XrlabSessionReflect *r = xrlab_session_get_reflect (session);
  XrlabReflectSettings rs = { r->view, r->energy, r->energies, r->angle, r->angles, r->degrees,
                              r->polarization, r->y_log, r->table };

  /* A session from before the page shows the page's example. */
  if (stacks == NULL)
    {
      example = xrlab_session_new ();
      xrlab_session_add_example_stacks (example);
      stacks = example->stacks;
    }
  xrlab_reflect_page_clear (self->reflect_page);
  for (guint i = 0; i < stacks->len; i++)
    {
      const XrlabSessionStack *st = g_ptr_array_index (stacks, i);
      GdkRGBA color = rgb_to_rgba (st->color);
      xrlab_reflect_page_add_stack (self->reflect_page, st->name, st->text,
                                    st->filter ? XRLAB_STACK_FILTER : XRLAB_STACK_REFLECT,
                                    st->color == XRLAB_SESSION_COLOR_AUTO ? NULL : &color,
                                    st->visible);
    }
  if (stacks->len > 0)
    {
      g_autoptr(XrlabStackItem) first =
        g_list_model_get_item (G_LIST_MODEL (xrlab_reflect_page_get_stacks (self->reflect_page)), 0);
      xrlab_reflect_page_select (self->reflect_page, first);
    }
  xrlab_reflect_page_set_settings (self->reflect_page, &rs);
}

XrlabSession *
xrlab_window_get_session (XrlabWindow *self)
{
  XrlabSession *s;
  guint n;

  g_return_val_if_fail (XRLAB_IS_WINDOW (self), NULL);

  s = xrlab_session_new ();
  n = g_list_model_get_n_items (G_LIST_MODEL (self->materials));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(XrlabMaterial) m = g_list_model_get_item (G_LIST_MODEL (self->materials), i);
      xrlab_session_add_material (s, xrlab_material_get_name (m), xrlab_material_get_formula (m),
                                  xrlab_material_get_density (m), xrlab_material_get_thickness (m),
                                  rgba_to_rgb (xrlab_material_get_color (m)),
                                  xrlab_material_get_visible (m));
    }
  xrlab_sweep_controls_get_sweep (self->sweep_controls, &s->sweep);
  s->quantity = xrlab_plot_controls_get_quantity (self->plot_controls);
  s->x_log = xrlab_plot_controls_get_x_log (self->plot_controls);
  s->y_log = xrlab_plot_controls_get_y_log (self->plot_controls);
  s->values_energy_ev = xrlab_values_view_get_energy (self->values_view);
  xrlab_plot_get_x_limits (self->plot, &s->view_x_min, &s->view_x_max);
  xrlab_plot_get_y_limits (self->plot, &s->view_y_min, &s->view_y_max);
  {
    guint n_pins;
    const double *pins = xrlab_plot_get_pins (self->plot, &n_pins);
    s->n_pins = MIN (n_pins, XRLAB_SESSION_MAX_PINS);
    if (s->n_pins > 0)
      memcpy (s->pins, pins, s->n_pins * sizeof (double));
  }
  get_reflect (self, s);
  get_fit (self, s);
  return s;
}

void
xrlab_window_apply_session (XrlabWindow        *self,
                            const XrlabSession *session)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);

  g_return_if_fail (XRLAB_IS_WINDOW (self));
  g_return_if_fail (session != NULL);

  self->applying = TRUE;
  for (guint i = 0; i < session->materials->len; i++)
    {
      const XrlabSessionMaterial *sm = g_ptr_array_index (session->materials, i);
      GdkRGBA color = rgb_to_rgba (sm->color);
      XrlabMaterial *m;

      if (sm->color == XRLAB_SESSION_COLOR_AUTO)
        {
          /* No colour given: the palette's least used one among those so far. */
          g_autoptr(GListStore) so_far = g_list_store_new (XRLAB_TYPE_MATERIAL);
          g_list_store_splice (so_far, 0, 0, items->pdata, items->len);
          xrlab_material_palette_next (G_LIST_MODEL (so_far), &color);
        }
      m = xrlab_material_new (sm->name, sm->formula, sm->density_g_cm3, sm->thickness_um, &color);
      xrlab_material_set_visible (m, sm->visible);
      g_ptr_array_add (items, m);
    }
  g_list_store_splice (self->materials, 0, g_list_model_get_n_items (G_LIST_MODEL (self->materials)),
                       items->pdata, items->len);

  xrlab_plot_controls_set_quantity (self->plot_controls, session->quantity);
  xrlab_sweep_controls_set_sweep (self->sweep_controls, &session->sweep);
  xrlab_plot_controls_set_x_log (self->plot_controls, session->x_log);
  xrlab_plot_controls_set_y_log (self->plot_controls, session->y_log);
  xrlab_values_view_set_range (self->values_view, xrlab_sweep_get_range (&session->sweep),
                               session->sweep.table);
  xrlab_values_view_set_energy (self->values_view, session->values_energy_ev);
  /* The axes first: a change of unit would drop the view. */
  xrlab_window_data_set_axes (self, session->quantity, session->sweep.unit);
  xrlab_plot_set_x_limits (self->plot, session->view_x_min, session->view_x_max);
  xrlab_plot_set_y_limits (self->plot, session->view_y_min, session->view_y_max);
  xrlab_plot_set_pins (self->plot, session->pins, session->n_pins);
  apply_reflect (self, session);
  apply_fit (self, session);
  self->applying = FALSE;

  xrlab_window_data_quantity_changed (self);
  xrlab_window_actions_update (self);
}

/* ---- auto-save ---------------------------------------------------------------------- */

gboolean
xrlab_window_autosave_now (XrlabWindow  *self,
                           GError      **error)
{
  g_autoptr(XrlabSession) session = NULL;

  g_return_val_if_fail (XRLAB_IS_WINDOW (self), FALSE);

  g_clear_handle_id (&self->autosave_id, g_source_remove);
  if (self->autosave_path == NULL)
    return TRUE;
  session = xrlab_window_get_session (self);
  return xrlab_session_save (session, self->autosave_path, error);
}

static gboolean
autosave_cb (gpointer user_data)
{
  XrlabWindow *self = user_data;
  g_autoptr(GError) error = NULL;

  self->autosave_id = 0;
  if (!xrlab_window_autosave_now (self, &error))
    {
      /* Say it once, not after every keystroke. */
      if (!self->autosave_failed)
        {
          g_autofree char *msg = g_strdup_printf (_("The session could not be saved: %s"), error->message);
          xrlab_window_toast (self, msg, 10);
        }
      self->autosave_failed = TRUE;
    }
  else
    self->autosave_failed = FALSE;
  return G_SOURCE_REMOVE;
}

void
xrlab_window_session_changed (XrlabWindow *self)
{
  if (self->applying || self->autosave_path == NULL)
    return;
  g_clear_handle_id (&self->autosave_id, g_source_remove);
  self->autosave_id = g_timeout_add (AUTOSAVE_DELAY_MS, autosave_cb, self);
}

/* ---- files --------------------------------------------------------------------------- */

gboolean
xrlab_window_save_session_file (XrlabWindow  *self,
                                const char   *path,
                                GError      **error)
{
  g_autoptr(XrlabSession) session = NULL;

  g_return_val_if_fail (XRLAB_IS_WINDOW (self), FALSE);
  session = xrlab_window_get_session (self);
  if (!xrlab_session_save (session, path, error))
    return FALSE;
  xrlab_window_set_session_path (self, path);
  return TRUE;
}

/* Shows what a partly readable session lost or had repaired: a toast with
 * the first point, a dialog with all of them. */
static void
on_warnings_details (AdwToast *toast,
                     gpointer  user_data)
{
  const char *text = user_data;
  GtkWindow *window = g_object_get_data (G_OBJECT (toast), "window");
  GtkWidget *dialog = adw_message_dialog_new (window, _("The session was read in part"), text);

  adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "close", _("_Close"));
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
show_warnings (XrlabWindow *self, const char *name, char **warnings, const char *kept)
{
  guint n = g_strv_length (warnings);
  g_autofree char *list = g_strjoinv ("\n", warnings);
  g_autofree char *escaped = NULL;
  g_autofree char *title = NULL;
  g_autofree char *body = NULL;
  AdwToast *toast;

  if (kept != NULL)
    body = g_strdup_printf (_("%s\n\nThe file as it was is kept as %s."), list, kept);
  else
    body = g_strdup (list);
  title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "“%s” was read in part: %s",
                                        "“%s” was read in part: %s (and more)", n),
                           name, warnings[0]);
  g_printerr ("xrlab: %s\n%s\n", title, body);
  /* libadwaita 1.2 parses toast titles as Pango markup. */
  escaped = g_markup_escape_text (title, -1);
  toast = adw_toast_new (escaped);
  adw_toast_set_timeout (toast, 0);
  adw_toast_set_button_label (toast, _("_Details"));
  g_object_set_data (G_OBJECT (toast), "window", self);
  g_signal_connect_data (toast, "button-clicked", G_CALLBACK (on_warnings_details),
                         g_steal_pointer (&body), (GClosureNotify) (void (*) (void)) g_free, 0);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

gboolean
xrlab_window_open_session_file (XrlabWindow  *self,
                                const char   *path,
                                GError      **error)
{
  g_autoptr(XrlabSession) session = NULL;
  g_auto(GStrv) warnings = NULL;

  g_return_val_if_fail (XRLAB_IS_WINDOW (self), FALSE);
  /* Validated completely before anything in the window changes; what is
   * sound in a partly bad file is kept, and the toast says what is not. */
  session = xrlab_session_load_full (path, XRLAB_SESSION_LOAD_SALVAGE, &warnings, error);
  if (session == NULL)
    return FALSE;
  xrlab_window_apply_session (self, session);
  xrlab_window_set_session_path (self, path);
  xrlab_window_session_changed (self);
  if (warnings != NULL)
    {
      g_autofree char *name = g_path_get_basename (path);
      show_warnings (self, name, warnings, NULL);
    }
  return TRUE;
}

/* ---- restore at start ----------------------------------------------------------------- */

/* The restored session is on screen once the window is shown and the
 * shown page has its data: a start that gets here did not crash on it. */
static gboolean
restore_check_cb (gpointer user_data)
{
  XrlabWindow *self = user_data;
  const char *page = adw_view_stack_get_visible_child_name (self->view_stack);
  gboolean dirty = g_strcmp0 (page, "values") == 0 ? self->values_dirty : self->plot_dirty;

  if (!gtk_widget_get_mapped (GTK_WIDGET (self)) || xrlab_window_is_busy (self) || dirty)
    return G_SOURCE_CONTINUE;
  self->restore_check_id = 0;
  xrlab_session_restore_finish (self->restore_marker);
  g_clear_pointer (&self->restore_marker, g_free);
  return G_SOURCE_REMOVE;
}

static void
action_open_previous (GSimpleAction *action,
                      GVariant      *param,
                      gpointer       user_data)
{
  XrlabWindow *self = user_data;
  g_autoptr(GError) error = NULL;

  if (self->previous_session == NULL)
    return;
  if (!xrlab_window_open_session_file (self, self->previous_session, &error))
    {
      g_autofree char *msg = g_strdup_printf (_("The previous session was not opened: %s"), error->message);
      xrlab_window_toast (self, msg, 10);
    }
}

static void
offer_previous (XrlabWindow *self, const char *kept)
{
  g_autofree char *msg = NULL;
  g_autofree char *escaped = NULL;
  AdwToast *toast;
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), "open-previous-session");

  g_free (self->previous_session);
  self->previous_session = g_strdup (kept);
  g_simple_action_set_enabled (G_SIMPLE_ACTION (action), TRUE);

  msg = g_strdup_printf (_("xrlab stopped while it restored the last session, so this start has the example. "
                           "The session is kept as %s."), kept);
  g_printerr ("xrlab: %s\n", msg);
  escaped = g_markup_escape_text (msg, -1);
  toast = adw_toast_new (escaped);
  adw_toast_set_timeout (toast, 0);
  adw_toast_set_button_label (toast, _("_Open It"));
  adw_toast_set_action_name (toast, "win.open-previous-session");
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

void
xrlab_window_session_init (XrlabWindow *self,
                           gboolean     restore)
{
  g_autoptr(XrlabSessionRestore) r = NULL;
  g_autoptr(XrlabSession) example = NULL;
  g_autoptr(GSimpleAction) previous = g_simple_action_new ("open-previous-session", NULL);
  g_autofree char *msg = NULL;

  /* The window's GActionMap ("win."): the toast of a crashed restore opens it. */
  g_simple_action_set_enabled (previous, FALSE);
  g_signal_connect_object (previous, "activate", G_CALLBACK (action_open_previous), self, 0);
  g_action_map_add_action (G_ACTION_MAP (self), G_ACTION (previous));

  self->autosave_path = xrlab_session_get_autosave_path ();
  g_signal_connect_object (self->reflect_page, "changed", G_CALLBACK (xrlab_window_session_changed),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->fit_page, "changed", G_CALLBACK (xrlab_window_session_changed),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->fit_page, "opened", G_CALLBACK (xrlab_window_session_changed),
                           self, G_CONNECT_SWAPPED);
  if (restore)
    r = xrlab_session_restore_begin (self->autosave_path);
  if (r != NULL && r->status == XRLAB_SESSION_RESTORE_DONE)
    xrlab_window_apply_session (self, r->session);
  else
    {
      example = xrlab_session_new_default ();
      xrlab_window_apply_session (self, example);
    }
  if (r == NULL)
    return;

  switch (r->status)
    {
    case XRLAB_SESSION_RESTORE_NONE:
      break;
    case XRLAB_SESSION_RESTORE_DONE:
      self->restore_marker = g_steal_pointer (&r->marker_path);
      if (self->restore_marker != NULL)
        self->restore_check_id = g_timeout_add (100, restore_check_cb, self);
      if (r->warnings != NULL)
        {
          g_autofree char *name = g_path_get_basename (self->autosave_path);
          show_warnings (self, name, r->warnings, r->kept_path);
          /* The repaired session replaces the auto-save file soon. */
          xrlab_window_session_changed (self);
        }
      break;
    case XRLAB_SESSION_RESTORE_REFUSED:
      if (r->kept_path != NULL)
        msg = g_strdup_printf (_("The saved session could not be read (%s). It is kept as %s; starting with the example."),
                               r->error->message, r->kept_path);
      else
        msg = g_strdup_printf (_("The saved session could not be read (%s); starting with the example."),
                               r->error->message);
      g_printerr ("xrlab: %s\n", msg);
      xrlab_window_toast (self, msg, 0);
      break;
    case XRLAB_SESSION_RESTORE_CRASHED:
      if (r->kept_path != NULL)
        offer_previous (self, r->kept_path);
      else
        {
          msg = g_strdup_printf (_("xrlab stopped while it restored the last session, so this start has the example. "
                                   "The session could not be kept aside: %s"), r->error->message);
          g_printerr ("xrlab: %s\n", msg);
          xrlab_window_toast (self, msg, 0);
          /* Not saved over: the file stays for the user. */
          g_clear_pointer (&self->autosave_path, g_free);
        }
      break;
    }
}

void
xrlab_window_session_dispose (XrlabWindow *self)
{
  if (self->autosave_id != 0)
    {
      g_autoptr(GError) error = NULL;
      if (!xrlab_window_autosave_now (self, &error))
        g_printerr ("xrlab: %s\n", error->message);
    }
  /* Closed normally: the restore did not crash. */
  g_clear_handle_id (&self->restore_check_id, g_source_remove);
  xrlab_session_restore_finish (self->restore_marker);
  g_clear_pointer (&self->restore_marker, g_free);
  g_clear_pointer (&self->previous_session, g_free);
  g_clear_pointer (&self->autosave_path, g_free);
}
