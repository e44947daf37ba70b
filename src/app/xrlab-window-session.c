/* xrlab-window-session.c -- the window's state as a session: snapshot,
 * apply, auto-save shortly after each change, restore on start
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-window-private.h"

#include <math.h>

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
                              rs.polarization, rs.y_log };
  xrlab_session_set_reflect (s, &r);
  xrlab_reflect_settings_clear (&rs);
}

static void
apply_reflect (XrlabWindow *self, const XrlabSession *session)
{
  xrlab_reflect_page_clear (self->reflect_page);
  if (session->stacks == NULL)
    xrlab_reflect_page_add_examples (self->reflect_page);
  else
    {
      for (guint i = 0; i < session->stacks->len; i++)
        {
          const XrlabSessionStack *st = g_ptr_array_index (session->stacks, i);
          GdkRGBA color = rgb_to_rgba (st->color);
          xrlab_reflect_page_add_stack (self->reflect_page, st->name, st->text,
                                        st->filter ? XRLAB_STACK_FILTER : XRLAB_STACK_REFLECT,
                                        &color, st->visible);
        }
      if (session->stacks->len > 0)
        {
          g_autoptr(XrlabStackItem) first =
            g_list_model_get_item (G_LIST_MODEL (xrlab_reflect_page_get_stacks (self->reflect_page)), 0);
          xrlab_reflect_page_select (self->reflect_page, first);
        }
    }
  if (session->reflect != NULL)
    {
      const XrlabSessionReflect *r = session->reflect;
      XrlabReflectSettings rs = { r->view, r->energy, r->energies, r->angle, r->angles, r->degrees,
                                  r->polarization, r->y_log };
      xrlab_reflect_page_set_settings (self->reflect_page, &rs);
    }
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
  get_reflect (self, s);
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
      XrlabMaterial *m = xrlab_material_new (sm->name, sm->formula, sm->density_g_cm3,
                                             sm->thickness_um, &color);
      xrlab_material_set_visible (m, sm->visible);
      g_ptr_array_add (items, m);
    }
  g_list_store_splice (self->materials, 0, g_list_model_get_n_items (G_LIST_MODEL (self->materials)),
                       items->pdata, items->len);

  xrlab_plot_controls_set_quantity (self->plot_controls, session->quantity);
  xrlab_sweep_controls_set_sweep (self->sweep_controls, &session->sweep);
  xrlab_plot_controls_set_x_log (self->plot_controls, session->x_log);
  xrlab_plot_controls_set_y_log (self->plot_controls, session->y_log);
  xrlab_values_view_set_energy (self->values_view, session->values_energy_ev);
  apply_reflect (self, session);
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
  return xrlab_session_save (session, path, error);
}

gboolean
xrlab_window_open_session_file (XrlabWindow  *self,
                                const char   *path,
                                GError      **error)
{
  g_autoptr(XrlabSession) session = NULL;

  g_return_val_if_fail (XRLAB_IS_WINDOW (self), FALSE);
  /* Validated completely before anything in the window changes. */
  session = xrlab_session_load (path, error);
  if (session == NULL)
    return FALSE;
  xrlab_window_apply_session (self, session);
  xrlab_window_session_changed (self);
  return TRUE;
}

void
xrlab_window_session_init (XrlabWindow *self,
                           gboolean     restore)
{
  g_autoptr(XrlabSession) session = NULL;
  g_autoptr(GError) error = NULL;

  self->autosave_path = xrlab_session_get_autosave_path ();
  g_signal_connect_object (self->reflect_page, "changed", G_CALLBACK (xrlab_window_session_changed),
                           self, G_CONNECT_SWAPPED);

  if (restore && g_file_test (self->autosave_path, G_FILE_TEST_EXISTS))
    {
      session = xrlab_session_load (self->autosave_path, &error);
      if (session == NULL)
        {
          /* Keep the unreadable file for the user, out of the auto-save's way. */
          g_autofree char *aside = g_strconcat (self->autosave_path, ".bad", NULL);
          g_autofree char *msg = NULL;
          if (g_rename (self->autosave_path, aside) == 0)
            msg = g_strdup_printf (_("The saved session could not be read (%s). It was moved to %s; starting with the example."),
                                   error->message, aside);
          else
            msg = g_strdup_printf (_("The saved session could not be read (%s); starting with the example."),
                                   error->message);
          xrlab_window_toast (self, msg, 0);
        }
    }
  if (session == NULL)
    session = xrlab_session_new_default ();
  xrlab_window_apply_session (self, session);
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
  g_clear_pointer (&self->autosave_path, g_free);
}
