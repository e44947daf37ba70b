/* xrlab-window.c -- the main window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-window-private.h"

#include <glib/gi18n-lib.h>

#include "xrlab-presets.h"

G_DEFINE_FINAL_TYPE (XrlabWindow, xrlab_window, ADW_TYPE_APPLICATION_WINDOW)

enum {
  PROP_0,
  PROP_SETTINGS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* ---- settings that shape the plot ----------------------------------------------- */

static void
bind_plot_settings (XrlabWindow *self)
{
  static const char *const keys[][2] = {
    { "show-edges", "show-markers" },
    { "show-legend", "show-legend" },
    { "line-width", "line-width" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    g_settings_bind (self->settings, keys[i][0], self->plot, keys[i][1],
                     G_SETTINGS_BIND_GET | G_SETTINGS_BIND_NO_SENSITIVITY);
}

/* The diagnostics overlay is for developers: XRLAB_ENGINE_STATS=1, or the
 * hidden action win.toggle-stats (Ctrl+Shift+D). */
static void
apply_plot_settings (XrlabWindow *self)
{
  self->show_stats = g_strcmp0 (g_getenv ("XRLAB_ENGINE_STATS"), "1") == 0;
  xrlab_window_data_invalidate (self);
}

static void
save_window_state (XrlabWindow *self)
{
  int width, height;

  if (self->settings == NULL)
    return;
  gtk_window_get_default_size (GTK_WINDOW (self), &width, &height);
  g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (GTK_WINDOW (self)));
  if (!gtk_window_is_maximized (GTK_WINDOW (self)) && width > 0 && height > 0)
    {
      g_settings_set_int (self->settings, "window-width", width);
      g_settings_set_int (self->settings, "window-height", height);
    }
}

static gboolean
xrlab_window_close_request (GtkWindow *window)
{
  XrlabWindow *self = XRLAB_WINDOW (window);
  g_autoptr(GError) error = NULL;

  save_window_state (self);
  if (!xrlab_window_autosave_now (self, &error))
    g_printerr ("xrlab: %s\n", error->message);
  return GTK_WINDOW_CLASS (xrlab_window_parent_class)->close_request (window);
}

/* The Reflectivity and Fit pages fetch only while they are shown. */
static void
on_page_changed (XrlabWindow *self)
{
  const char *page = adw_view_stack_get_visible_child_name (self->view_stack);

  xrlab_reflect_page_set_active (self->reflect_page, g_strcmp0 (page, "reflect") == 0);
  xrlab_fit_page_set_active (self->fit_page, g_strcmp0 (page, "fit") == 0);
  /* The empty state of a window without materials is not the page's. */
  xrlab_window_actions_update (self);
}

/* ---- GObject ------------------------------------------------------------------------ */

static void
xrlab_window_constructed (GObject *object)
{
  XrlabWindow *self = XRLAB_WINDOW (object);

  G_OBJECT_CLASS (xrlab_window_parent_class)->constructed (object);

  g_assert (self->settings != NULL);
  gtk_window_set_default_size (GTK_WINDOW (self),
                               g_settings_get_int (self->settings, "window-width"),
                               g_settings_get_int (self->settings, "window-height"));
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));

  xrlab_window_data_init (self);
  xrlab_reflect_page_set_materials (self->reflect_page, G_LIST_MODEL (self->materials));
  xrlab_reflect_page_set_engine (self->reflect_page, self->engine);
  xrlab_fit_page_set_engine (self->fit_page, self->engine);
  g_signal_connect_object (self->view_stack, "notify::visible-child-name",
                           G_CALLBACK (on_page_changed), self, G_CONNECT_SWAPPED);
  on_page_changed (self);
  xrlab_window_actions_init (self);
  bind_plot_settings (self);
  apply_plot_settings (self);
}

static void
xrlab_window_dispose (GObject *object)
{
  XrlabWindow *self = XRLAB_WINDOW (object);

  xrlab_window_session_dispose (self);
  xrlab_window_data_dispose (self);
  g_clear_pointer (&self->undo_stack, g_ptr_array_unref);
  g_clear_object (&self->undo_toast);
  g_clear_pointer (&self->session_path, g_free);
  gtk_widget_dispose_template (GTK_WIDGET (self), XRLAB_TYPE_WINDOW);
  g_clear_object (&self->materials);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (xrlab_window_parent_class)->dispose (object);
}

static void
xrlab_window_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  XrlabWindow *self = XRLAB_WINDOW (object);

  switch (prop_id)
    {
    case PROP_SETTINGS:
      self->settings = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
xrlab_window_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  XrlabWindow *self = XRLAB_WINDOW (object);

  switch (prop_id)
    {
    case PROP_SETTINGS:
      g_value_set_object (value, self->settings);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
xrlab_window_class_init (XrlabWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->constructed = xrlab_window_constructed;
  object_class->dispose = xrlab_window_dispose;
  object_class->set_property = xrlab_window_set_property;
  object_class->get_property = xrlab_window_get_property;
  window_class->close_request = xrlab_window_close_request;

  properties[PROP_SETTINGS] =
    g_param_spec_object ("settings", NULL, NULL, G_TYPE_SETTINGS,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (XRLAB_TYPE_MATERIAL_LIST);
  g_type_ensure (XRLAB_TYPE_SWEEP_CONTROLS);
  g_type_ensure (XRLAB_TYPE_PLOT_CONTROLS);
  g_type_ensure (XRLAB_TYPE_PLOT);
  g_type_ensure (XRLAB_TYPE_VALUES_VIEW);
  g_type_ensure (XRLAB_TYPE_REFLECT_PAGE);
  g_type_ensure (XRLAB_TYPE_FIT_PAGE);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/xrlab/Xrlab/xrlab-window.ui");
  gtk_widget_class_bind_template_child (widget_class, XrlabWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, XrlabWindow, header_bar);
  gtk_widget_class_bind_template_child (widget_class, XrlabWindow, switcher_title);
  gtk_widget_class_bind_template_child (widget_class, XrlabWindow, sidebar_button);
  gtk_widget_class_bind_template_child (widget_class, XrlabWindow, primary_menu_button);
  gtk_widget_class_bind_template_child (widget_class, XrlabWindow, flap);
  gtk_widget_class_bind_template_child (widget_class, XrlabWindow, material_list);
  gtk_widget_class_bind_template_child (widget_class, XrlabWindow, sweep_controls);
  gtk_widget_class_bind_template_child (widget_class, XrlabWindow, view_stack);
  gtk_widget_class_bind_template_child (widget_class, XrlabWindow, plot_controls);
  gtk_widget_class_bind_template_child (widget_class, XrlabWindow, plot);
  gtk_widget_class_bind_template_child (widget_class, XrlabWindow, values_view);
  gtk_widget_class_bind_template_child (widget_class, XrlabWindow, reflect_page);
  gtk_widget_class_bind_template_child (widget_class, XrlabWindow, fit_page);
  gtk_widget_class_bind_template_child (widget_class, XrlabWindow, content_stack);
  gtk_widget_class_bind_template_child (widget_class, XrlabWindow, plot_notice);
  gtk_widget_class_bind_template_child (widget_class, XrlabWindow, plot_notice_label);

  xrlab_window_class_install_actions (widget_class);
}

/* The presets the material list offers. */
static GListStore *
make_presets (void)
{
  GListStore *store = g_list_store_new (XRLAB_TYPE_MATERIAL);
  gsize n = xrlab_presets_get_n ();

  for (gsize i = 0; i < n; i++)
    {
      const XrlabPreset *p = xrlab_presets_get (i);
      g_autoptr(XrlabMaterial) m = xrlab_material_new (p->name, p->formula, p->density_g_cm3, 1.0, NULL);
      g_autofree char *note = NULL;

      if (p->source == XRLAB_PRESET_NIST)
        note = p->note != NULL && p->note[0] != '\0'
               ? g_strdup_printf (_("NIST compound; %s"), p->note)
               : g_strdup (_("NIST compound"));
      else if (p->note != NULL && p->note[0] != '\0')
        note = g_strdup (p->note);
      xrlab_material_set_note (m, note);
      g_list_store_append (store, m);
    }
  return store;
}

static void
xrlab_window_init (XrlabWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->materials = g_list_store_new (XRLAB_TYPE_MATERIAL);
  self->undo_stack = g_ptr_array_new_with_free_func ((GDestroyNotify) xrlab_undo_item_free);
  xrlab_material_list_set_store (self->material_list, self->materials);
  self->presets = make_presets ();
  xrlab_material_list_set_presets (self->material_list, G_LIST_MODEL (self->presets));
}

XrlabWindow *
xrlab_window_new (GtkApplication *application,
                  GSettings      *settings,
                  gboolean        restore)
{
  XrlabWindow *self = g_object_new (XRLAB_TYPE_WINDOW,
                                    "application", application,
                                    "settings", settings,
                                    NULL);

  xrlab_window_session_init (self, restore);
  return self;
}

/* ---- accessors ------------------------------------------------------------------------ */

XrlabPlot *
xrlab_window_get_plot (XrlabWindow *self)
{
  g_return_val_if_fail (XRLAB_IS_WINDOW (self), NULL);
  return self->plot;
}

XrlabMaterialList *
xrlab_window_get_material_list (XrlabWindow *self)
{
  g_return_val_if_fail (XRLAB_IS_WINDOW (self), NULL);
  return self->material_list;
}

XrlabSweepControls *
xrlab_window_get_sweep_controls (XrlabWindow *self)
{
  g_return_val_if_fail (XRLAB_IS_WINDOW (self), NULL);
  return self->sweep_controls;
}

XrlabPlotControls *
xrlab_window_get_plot_controls (XrlabWindow *self)
{
  g_return_val_if_fail (XRLAB_IS_WINDOW (self), NULL);
  return self->plot_controls;
}

XrlabFitPage *
xrlab_window_get_fit_page (XrlabWindow *self)
{
  g_return_val_if_fail (XRLAB_IS_WINDOW (self), NULL);
  return self->fit_page;
}

XrlabReflectPage *
xrlab_window_get_reflect_page (XrlabWindow *self)
{
  g_return_val_if_fail (XRLAB_IS_WINDOW (self), NULL);
  return self->reflect_page;
}

XrlabValuesView *
xrlab_window_get_values_view (XrlabWindow *self)
{
  g_return_val_if_fail (XRLAB_IS_WINDOW (self), NULL);
  return self->values_view;
}

GListStore *
xrlab_window_get_materials (XrlabWindow *self)
{
  g_return_val_if_fail (XRLAB_IS_WINDOW (self), NULL);
  return self->materials;
}

AdwViewStack *
xrlab_window_get_view_stack (XrlabWindow *self)
{
  g_return_val_if_fail (XRLAB_IS_WINDOW (self), NULL);
  return self->view_stack;
}

void
xrlab_window_set_session_path (XrlabWindow *self,
                               const char  *path)
{
  g_autofree char *base = NULL;

  g_return_if_fail (XRLAB_IS_WINDOW (self));
  if (g_strcmp0 (self->session_path, path) == 0)
    return;
  g_free (self->session_path);
  self->session_path = g_strdup (path);
  base = path != NULL ? g_path_get_basename (path) : NULL;
  adw_view_switcher_title_set_subtitle (self->switcher_title, base);
  if (base != NULL)
    {
      g_autofree char *title = g_strdup_printf ("%s — xrlab", base);
      gtk_window_set_title (GTK_WINDOW (self), title);
    }
  else
    gtk_window_set_title (GTK_WINDOW (self), "xrlab");
}

const char *
xrlab_window_get_session_path (XrlabWindow *self)
{
  g_return_val_if_fail (XRLAB_IS_WINDOW (self), NULL);
  return self->session_path;
}

gboolean
xrlab_window_get_empty (XrlabWindow *self)
{
  g_return_val_if_fail (XRLAB_IS_WINDOW (self), FALSE);
  return g_strcmp0 (gtk_stack_get_visible_child_name (self->content_stack), "empty") == 0;
}

const char *
xrlab_window_get_plot_notice (XrlabWindow *self)
{
  g_return_val_if_fail (XRLAB_IS_WINDOW (self), NULL);
  if (!gtk_revealer_get_reveal_child (self->plot_notice))
    return NULL;
  return gtk_label_get_text (self->plot_notice_label);
}

XrlabEngine *
xrlab_window_get_engine (XrlabWindow *self)
{
  g_return_val_if_fail (XRLAB_IS_WINDOW (self), NULL);
  return self->engine;
}

gboolean
xrlab_window_is_busy (XrlabWindow *self)
{
  g_return_val_if_fail (XRLAB_IS_WINDOW (self), FALSE);
  return self->refresh_id != 0 || self->pending > 0;
}

guint64
xrlab_window_get_transfers (XrlabWindow *self)
{
  XrlabEngineStats plot = { 0 }, table = { 0 };

  g_return_val_if_fail (XRLAB_IS_WINDOW (self), 0);
  xrlab_engine_get_stats (self->engine, "plot", &plot);
  xrlab_engine_get_stats (self->engine, "table", &table);
  return plot.n_transfers + table.n_transfers;
}

void
xrlab_window_toast (XrlabWindow *self,
                    const char  *message,
                    guint        timeout_s)
{
  AdwToast *toast;
  g_autofree char *escaped = NULL;

  g_return_if_fail (XRLAB_IS_WINDOW (self));
  /* libadwaita 1.2 parses toast titles as Pango markup. */
  escaped = g_markup_escape_text (message, -1);
  toast = adw_toast_new (escaped);
  adw_toast_set_timeout (toast, timeout_s);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}
