/* xrlab-plot-controls.c -- quantity selector and axis toggles
 *
 * Properties "quantity" (the XrlabQuantity as an int), "x-log" and
 * "y-log"; each notifies on change.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-plot-controls.h"

#include <glib/gi18n-lib.h>

#include "xrlab-widget-util.h"

struct _XrlabPlotControls {
  GtkWidget parent_instance;

  GtkDropDown *quantity_dropdown;
  GtkToggleButton *x_log_button;
  GtkToggleButton *y_log_button;

  /* dropdown position -> quantity */
  XrlabQuantity entries[XRLAB_QUANTITY_N];
  guint n_entries;
};

G_DEFINE_FINAL_TYPE (XrlabPlotControls, xrlab_plot_controls, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_QUANTITY,
  PROP_X_LOG,
  PROP_Y_LOG,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
on_selected (XrlabPlotControls *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_QUANTITY]);
}

/* The quantity selector as wide as its widest entry, measured once it has
 * its style: it keeps its width when the quantity changes, and the Log
 * toggles beside it stay where they are. */
static void
fix_dropdown_width (XrlabPlotControls *self)
{
  GtkWidget *dd = GTK_WIDGET (self->quantity_dropdown);
  guint selected = gtk_drop_down_get_selected (self->quantity_dropdown);
  int widest = 0;

  g_signal_handlers_disconnect_by_func (dd, fix_dropdown_width, self);
  g_signal_handlers_block_by_func (self->quantity_dropdown, on_selected, self);
  gtk_widget_set_size_request (dd, -1, -1);
  for (guint i = 0; i < self->n_entries; i++)
    {
      int natural = 0;
      gtk_drop_down_set_selected (self->quantity_dropdown, i);
      gtk_widget_measure (dd, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural, NULL, NULL);
      widest = MAX (widest, natural);
    }
  gtk_drop_down_set_selected (self->quantity_dropdown, selected);
  g_signal_handlers_unblock_by_func (self->quantity_dropdown, on_selected, self);
  gtk_widget_set_size_request (dd, widest, -1);
}

static void
on_x_toggled (XrlabPlotControls *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_X_LOG]);
}

static void
on_y_toggled (XrlabPlotControls *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_Y_LOG]);
}

static void
xrlab_plot_controls_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  XrlabPlotControls *self = XRLAB_PLOT_CONTROLS (object);

  switch (prop_id)
    {
    case PROP_QUANTITY: g_value_set_int (value, xrlab_plot_controls_get_quantity (self)); break;
    case PROP_X_LOG: g_value_set_boolean (value, xrlab_plot_controls_get_x_log (self)); break;
    case PROP_Y_LOG: g_value_set_boolean (value, xrlab_plot_controls_get_y_log (self)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
xrlab_plot_controls_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  XrlabPlotControls *self = XRLAB_PLOT_CONTROLS (object);

  switch (prop_id)
    {
    case PROP_QUANTITY: xrlab_plot_controls_set_quantity (self, g_value_get_int (value)); break;
    case PROP_X_LOG: xrlab_plot_controls_set_x_log (self, g_value_get_boolean (value)); break;
    case PROP_Y_LOG: xrlab_plot_controls_set_y_log (self, g_value_get_boolean (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
xrlab_plot_controls_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), XRLAB_TYPE_PLOT_CONTROLS);
  /* Template children without an id are not unparented by the above. */
  for (GtkWidget *child; (child = gtk_widget_get_first_child (GTK_WIDGET (object))) != NULL;)
    gtk_widget_unparent (child);
  G_OBJECT_CLASS (xrlab_plot_controls_parent_class)->dispose (object);
}

static void
xrlab_plot_controls_class_init (XrlabPlotControlsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;

  object_class->dispose = xrlab_plot_controls_dispose;
  object_class->get_property = xrlab_plot_controls_get_property;
  object_class->set_property = xrlab_plot_controls_set_property;

  properties[PROP_QUANTITY] = g_param_spec_int ("quantity", NULL, NULL, 0, XRLAB_QUANTITY_N - 1,
                                                XRLAB_QUANTITY_DELTA, rw);
  properties[PROP_X_LOG] = g_param_spec_boolean ("x-log", NULL, NULL, TRUE, rw);
  properties[PROP_Y_LOG] = g_param_spec_boolean ("y-log", NULL, NULL, TRUE, rw);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/xrlab/Xrlab/xrlab-plot-controls.ui");
  gtk_widget_class_bind_template_child (widget_class, XrlabPlotControls, quantity_dropdown);
  gtk_widget_class_bind_template_child (widget_class, XrlabPlotControls, x_log_button);
  gtk_widget_class_bind_template_child (widget_class, XrlabPlotControls, y_log_button);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "xrlab-plot-controls");
}

static void
xrlab_plot_controls_init (XrlabPlotControls *self)
{
  g_autoptr(GtkStringList) titles = gtk_string_list_new (NULL);

  gtk_widget_init_template (GTK_WIDGET (self));
  xrlab_hide_tooltip_while_open (GTK_WIDGET (self->quantity_dropdown));
  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (gtk_widget_get_layout_manager (GTK_WIDGET (self))), 6);

  for (guint q = 0; q < XRLAB_QUANTITY_N; q++)
    {
      const XrlabQuantityInfo *info = xrlab_quantity_get_info (q);
      g_autofree char *title = NULL;
      if (!info->plottable)
        continue;
      title = info->display_unit != NULL ? g_strdup_printf ("%s (%s)", info->title, info->display_unit)
                                         : g_strdup (info->title);
      gtk_string_list_append (titles, title);
      self->entries[self->n_entries++] = q;
    }
  gtk_drop_down_set_model (self->quantity_dropdown, G_LIST_MODEL (titles));
  xrlab_plot_controls_set_quantity (self, XRLAB_QUANTITY_DELTA);
  gtk_toggle_button_set_active (self->x_log_button, TRUE);
  gtk_toggle_button_set_active (self->y_log_button, TRUE);

  g_signal_connect_swapped (self->quantity_dropdown, "notify::selected", G_CALLBACK (on_selected), self);
  g_signal_connect_swapped (self->quantity_dropdown, "map", G_CALLBACK (fix_dropdown_width), self);
  g_signal_connect_swapped (self->x_log_button, "toggled", G_CALLBACK (on_x_toggled), self);
  g_signal_connect_swapped (self->y_log_button, "toggled", G_CALLBACK (on_y_toggled), self);
}

GtkWidget *
xrlab_plot_controls_new (void)
{
  return g_object_new (XRLAB_TYPE_PLOT_CONTROLS, NULL);
}

XrlabQuantity
xrlab_plot_controls_get_quantity (XrlabPlotControls *self)
{
  guint i;

  g_return_val_if_fail (XRLAB_IS_PLOT_CONTROLS (self), XRLAB_QUANTITY_DELTA);
  i = gtk_drop_down_get_selected (self->quantity_dropdown);
  return i < self->n_entries ? self->entries[i] : XRLAB_QUANTITY_DELTA;
}

void
xrlab_plot_controls_set_quantity (XrlabPlotControls *self,
                                  XrlabQuantity  quantity)
{
  g_return_if_fail (XRLAB_IS_PLOT_CONTROLS (self));
  for (guint i = 0; i < self->n_entries; i++)
    if (self->entries[i] == quantity)
      {
        gtk_drop_down_set_selected (self->quantity_dropdown, i);
        return;
      }
  g_warn_if_reached ();
}

gboolean
xrlab_plot_controls_get_x_log (XrlabPlotControls *self)
{
  g_return_val_if_fail (XRLAB_IS_PLOT_CONTROLS (self), FALSE);
  return gtk_toggle_button_get_active (self->x_log_button);
}

void
xrlab_plot_controls_set_x_log (XrlabPlotControls *self, gboolean x_log)
{
  g_return_if_fail (XRLAB_IS_PLOT_CONTROLS (self));
  gtk_toggle_button_set_active (self->x_log_button, x_log);
}

gboolean
xrlab_plot_controls_get_y_log (XrlabPlotControls *self)
{
  g_return_val_if_fail (XRLAB_IS_PLOT_CONTROLS (self), FALSE);
  return gtk_toggle_button_get_active (self->y_log_button);
}

void
xrlab_plot_controls_set_y_log (XrlabPlotControls *self, gboolean y_log)
{
  g_return_if_fail (XRLAB_IS_PLOT_CONTROLS (self));
  gtk_toggle_button_set_active (self->y_log_button, y_log);
}
