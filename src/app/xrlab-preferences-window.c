/* xrlab-preferences-window.c -- the preferences, bound to GSettings
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-preferences-window.h"

struct _XrlabPreferencesWindow {
  AdwPreferencesWindow parent_instance;

  AdwComboRow *style_row;
  GtkSwitch *edges_switch;
  GtkSwitch *legend_switch;
  GtkSpinButton *line_width_spin;
  GtkSwitch *export_light_switch;
  GtkSwitch *restore_switch;

  GSettings *settings;
};

G_DEFINE_FINAL_TYPE (XrlabPreferencesWindow, xrlab_preferences_window, ADW_TYPE_PREFERENCES_WINDOW)

static const char *const schemes[] = { "default", "light", "dark" };

static gboolean
scheme_to_index (GValue *value, GVariant *variant, gpointer user_data)
{
  const char *s = g_variant_get_string (variant, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (schemes); i++)
    if (g_str_equal (s, schemes[i]))
      {
        g_value_set_uint (value, i);
        return TRUE;
      }
  return FALSE;
}

static GVariant *
index_to_scheme (const GValue *value, const GVariantType *type, gpointer user_data)
{
  guint i = g_value_get_uint (value);

  if (i >= G_N_ELEMENTS (schemes))
    return NULL;
  return g_variant_new_string (schemes[i]);
}

static void
xrlab_preferences_window_dispose (GObject *object)
{
  XrlabPreferencesWindow *self = XRLAB_PREFERENCES_WINDOW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), XRLAB_TYPE_PREFERENCES_WINDOW);
  g_clear_object (&self->settings);
  G_OBJECT_CLASS (xrlab_preferences_window_parent_class)->dispose (object);
}

static void
xrlab_preferences_window_class_init (XrlabPreferencesWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = xrlab_preferences_window_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/xrlab/Xrlab/xrlab-preferences-window.ui");
  gtk_widget_class_bind_template_child (widget_class, XrlabPreferencesWindow, style_row);
  gtk_widget_class_bind_template_child (widget_class, XrlabPreferencesWindow, edges_switch);
  gtk_widget_class_bind_template_child (widget_class, XrlabPreferencesWindow, legend_switch);
  gtk_widget_class_bind_template_child (widget_class, XrlabPreferencesWindow, line_width_spin);
  gtk_widget_class_bind_template_child (widget_class, XrlabPreferencesWindow, export_light_switch);
  gtk_widget_class_bind_template_child (widget_class, XrlabPreferencesWindow, restore_switch);
}

static void
xrlab_preferences_window_init (XrlabPreferencesWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
xrlab_preferences_window_new (GSettings *settings)
{
  XrlabPreferencesWindow *self = g_object_new (XRLAB_TYPE_PREFERENCES_WINDOW, NULL);

  self->settings = g_object_ref (settings);
  g_settings_bind_with_mapping (settings, "color-scheme", self->style_row, "selected",
                                G_SETTINGS_BIND_DEFAULT, scheme_to_index, index_to_scheme, NULL, NULL);
  g_settings_bind (settings, "show-edges", self->edges_switch, "active", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "show-legend", self->legend_switch, "active", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "line-width", self->line_width_spin, "value", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "export-light", self->export_light_switch, "active", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "restore-session", self->restore_switch, "active", G_SETTINGS_BIND_DEFAULT);
  return GTK_WIDGET (self);
}
