/* xrlab-map-view.c -- a map in a GtkDrawingArea
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-map-view.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <adwaita.h>
#include <glib/gi18n-lib.h>

#include "xrlab-util.h"

struct _XrlabMapView {
  GtkDrawingArea parent_instance;

  XrlabMapScene scene;
  gpointer owner;
  GDestroyNotify owner_free;
  char *x_name, *x_unit, *y_name, *y_unit, *value_name, *title, *message;
  XrlabPlotFrame frame;       /* of the last frame drawn */
  XrlabMapOverlay *overlays;  /* labels owned */
  guint n_overlays;
  cairo_surface_t *image;     /* of the values, for frames whose colours stay */
  gboolean image_dark;
  double cross_x, cross_y;    /* data units; NaN: hidden */
  gboolean dark;
  gulong style_handler;
};

G_DEFINE_FINAL_TYPE (XrlabMapView, xrlab_map_view, GTK_TYPE_DRAWING_AREA)

static void
sync_scene (XrlabMapView *self, gboolean dark)
{
  self->scene.x_axis.name = self->x_name;
  self->scene.x_axis.unit = self->x_unit;
  self->scene.y_axis.name = self->y_name;
  self->scene.y_axis.unit = self->y_unit;
  self->scene.value_name = self->value_name;
  self->scene.title = self->title;
  self->scene.message = self->message;
  self->scene.dark = dark;
  self->scene.overlays = self->overlays;
  self->scene.n_overlays = self->n_overlays;
}

static void
drop_image (XrlabMapView *self)
{
  g_clear_pointer (&self->image, cairo_surface_destroy);
}

static void
draw_readout (XrlabMapView *self, cairo_t *cr)
{
  const XrlabPlotPalette *pal = xrlab_plot_palette_get (self->dark);
  const XrlabPlotFrame *f = &self->frame;
  g_autofree char *text = xrlab_map_view_get_readout (self);
  PangoLayout *layout;
  double wx, wy, px, py;
  int tw, th;

  if (!f->valid || text[0] == '\0')
    return;
  wx = f->x_log ? log10 (self->cross_x) : self->cross_x;
  wy = f->y_log ? log10 (self->cross_y) : self->cross_y;
  px = f->px0 + (wx - f->wx0) / (f->wx1 - f->wx0) * (f->px1 - f->px0);
  py = f->py1 - (wy - f->wy0) / (f->wy1 - f->wy0) * (f->py1 - f->py0);
  cairo_set_source_rgba (cr, pal->fg.red, pal->fg.green, pal->fg.blue, 0.6);
  cairo_set_line_width (cr, 1.0);
  cairo_move_to (cr, px, f->py0);
  cairo_line_to (cr, px, f->py1);
  cairo_move_to (cr, f->px0, py);
  cairo_line_to (cr, f->px1, py);
  cairo_stroke (cr);

  layout = pango_cairo_create_layout (cr);
  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &tw, &th);
  px = MIN (px + 10, f->px1 - tw - 8);
  py = MAX (py - th - 10, f->py0 + 4);
  cairo_set_source_rgba (cr, pal->legend_bg.red, pal->legend_bg.green, pal->legend_bg.blue, 0.9);
  cairo_rectangle (cr, px - 4, py - 2, tw + 8, th + 4);
  cairo_fill (cr);
  cairo_set_source_rgba (cr, pal->fg.red, pal->fg.green, pal->fg.blue, 1.0);
  cairo_move_to (cr, px, py);
  pango_cairo_show_layout (cr, layout);
  g_object_unref (layout);
}

static void
draw (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer data)
{
  XrlabMapView *self = XRLAB_MAP_VIEW (area);

  sync_scene (self, self->dark);
  if (self->image != NULL && self->image_dark != self->dark)
    drop_image (self);
  if (self->image == NULL && self->scene.values != NULL)
    {
      self->image = xrlab_map_image_new (&self->scene);
      self->image_dark = self->dark;
    }
  self->scene.image = self->image;
  xrlab_map_render (&self->scene, cr, width, height, &self->frame);
  self->scene.image = NULL;
  draw_readout (self, cr);
}

static void
on_motion (GtkEventControllerMotion *motion, double x, double y, XrlabMapView *self)
{
  const XrlabPlotFrame *f = &self->frame;
  double wx, wy;

  if (!f->valid || x < f->px0 || x > f->px1 || y < f->py0 || y > f->py1)
    {
      xrlab_map_view_set_crosshair (self, NAN, NAN);
      return;
    }
  wx = f->wx0 + (x - f->px0) / (f->px1 - f->px0) * (f->wx1 - f->wx0);
  wy = f->wy0 + (f->py1 - y) / (f->py1 - f->py0) * (f->wy1 - f->wy0);
  xrlab_map_view_set_crosshair (self, f->x_log ? pow (10, wx) : wx, f->y_log ? pow (10, wy) : wy);
}

static void
on_leave (GtkEventControllerMotion *motion, XrlabMapView *self)
{
  xrlab_map_view_set_crosshair (self, NAN, NAN);
}

static void
on_dark_changed (AdwStyleManager *manager, GParamSpec *pspec, XrlabMapView *self)
{
  self->dark = adw_style_manager_get_dark (manager);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
clear_map (XrlabMapView *self)
{
  if (self->owner != NULL && self->owner_free != NULL)
    self->owner_free (self->owner);
  self->owner = NULL;
  self->owner_free = NULL;
  self->scene.values = NULL;
  self->scene.x = self->scene.y = NULL;
  self->scene.n_x = self->scene.n_y = 0;
  drop_image (self);
}

static void
clear_overlays (XrlabMapView *self)
{
  for (guint i = 0; i < self->n_overlays; i++)
    g_free ((char *) self->overlays[i].label);
  g_clear_pointer (&self->overlays, g_free);
  self->n_overlays = 0;
}

static void
xrlab_map_view_dispose (GObject *object)
{
  XrlabMapView *self = XRLAB_MAP_VIEW (object);

  if (self->style_handler != 0)
    g_clear_signal_handler (&self->style_handler, adw_style_manager_get_default ());
  clear_map (self);
  clear_overlays (self);
  G_OBJECT_CLASS (xrlab_map_view_parent_class)->dispose (object);
}

static void
xrlab_map_view_finalize (GObject *object)
{
  XrlabMapView *self = XRLAB_MAP_VIEW (object);

  g_free (self->x_name);
  g_free (self->x_unit);
  g_free (self->y_name);
  g_free (self->y_unit);
  g_free (self->value_name);
  g_free (self->title);
  g_free (self->message);
  G_OBJECT_CLASS (xrlab_map_view_parent_class)->finalize (object);
}

static void
xrlab_map_view_class_init (XrlabMapViewClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = xrlab_map_view_dispose;
  G_OBJECT_CLASS (klass)->finalize = xrlab_map_view_finalize;
}

static void
xrlab_map_view_init (XrlabMapView *self)
{
  GtkEventController *motion = gtk_event_controller_motion_new ();
  AdwStyleManager *style = adw_style_manager_get_default ();

  xrlab_map_scene_init (&self->scene);
  self->cross_x = self->cross_y = NAN;
  self->dark = adw_style_manager_get_dark (style);
  self->style_handler = g_signal_connect (style, "notify::dark", G_CALLBACK (on_dark_changed), self);
  g_signal_connect (motion, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (motion, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self), draw, NULL, NULL);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
}

GtkWidget *
xrlab_map_view_new (void)
{
  return g_object_new (XRLAB_TYPE_MAP_VIEW, NULL);
}

void
xrlab_map_view_set_map (XrlabMapView *self, const double *values, const double *x, gsize n_x,
                        const double *y, gsize n_y, gpointer owner, GDestroyNotify free_func)
{
  g_return_if_fail (XRLAB_IS_MAP_VIEW (self));

  clear_map (self);
  self->owner = owner;
  self->owner_free = free_func;
  if (values != NULL)
    {
      self->scene.values = values;
      self->scene.x = x;
      self->scene.n_x = n_x;
      self->scene.y = y;
      self->scene.n_y = n_y;
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gboolean
xrlab_map_view_has_map (XrlabMapView *self)
{
  g_return_val_if_fail (XRLAB_IS_MAP_VIEW (self), FALSE);
  return self->scene.values != NULL;
}

static void
set_str (char **field, const char *value)
{
  g_free (*field);
  *field = g_strdup (value);
}

void
xrlab_map_view_set_axes (XrlabMapView *self, const char *x_name, const char *x_unit, gboolean x_log,
                         const char *y_name, const char *y_unit, gboolean y_log)
{
  g_return_if_fail (XRLAB_IS_MAP_VIEW (self));
  set_str (&self->x_name, x_name);
  set_str (&self->x_unit, x_unit);
  set_str (&self->y_name, y_name);
  set_str (&self->y_unit, y_unit);
  self->scene.x_axis.log = x_log;
  self->scene.y_axis.log = y_log;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
xrlab_map_view_set_values (XrlabMapView *self, const char *name, gboolean log)
{
  g_return_if_fail (XRLAB_IS_MAP_VIEW (self));
  set_str (&self->value_name, name);
  if (self->scene.value_log != log)
    drop_image (self);
  self->scene.value_log = log;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
xrlab_map_view_set_title (XrlabMapView *self, const char *title)
{
  g_return_if_fail (XRLAB_IS_MAP_VIEW (self));
  set_str (&self->title, title);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
xrlab_map_view_set_message (XrlabMapView *self, const char *message)
{
  g_return_if_fail (XRLAB_IS_MAP_VIEW (self));
  set_str (&self->message, message);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
xrlab_map_view_set_crosshair (XrlabMapView *self, double x, double y)
{
  g_return_if_fail (XRLAB_IS_MAP_VIEW (self));
  if ((isnan (x) && isnan (self->cross_x)) || (x == self->cross_x && y == self->cross_y))
    return;
  self->cross_x = x;
  self->cross_y = y;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

char *
xrlab_map_view_get_readout (XrlabMapView *self)
{
  double v;

  g_return_val_if_fail (XRLAB_IS_MAP_VIEW (self), NULL);
  if (isnan (self->cross_x) || isnan (self->cross_y) || self->scene.values == NULL)
    return g_strdup ("");
  sync_scene (self, self->dark);
  v = xrlab_map_value_at (&self->scene, self->cross_x, self->cross_y);
  if (isnan (v))
    return g_strdup ("");
  return g_strdup_printf ("%.4g %s, %.4g %s: %s = %.4g", self->cross_x, self->x_unit ? self->x_unit : "",
                          self->cross_y, self->y_unit ? self->y_unit : "",
                          self->value_name ? self->value_name : "", v);
}

gboolean
xrlab_map_view_render (XrlabMapView *self, cairo_t *cr, int width, int height, gboolean dark)
{
  XrlabPlotFrame frame;

  g_return_val_if_fail (XRLAB_IS_MAP_VIEW (self), FALSE);
  sync_scene (self, dark);
  return xrlab_map_render (&self->scene, cr, width, height, &frame);
}

static cairo_status_t
write_to_file (void *closure, const unsigned char *data, unsigned int length)
{
  return fwrite (data, 1, length, closure) == length ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

gboolean
xrlab_map_view_export (XrlabMapView *self, const char *path, XrlabPlotFormat format, int width,
                       int height, double scale, gboolean dark, GError **error)
{
  XrlabAtomicFile *af;

  g_return_val_if_fail (XRLAB_IS_MAP_VIEW (self), FALSE);
  if (!xrlab_plot_output_check (format, width, height, scale, error))
    return FALSE;
  af = xrlab_atomic_file_open (path, error);
  if (af == NULL)
    return FALSE;
  sync_scene (self, dark);
  if (!xrlab_map_write (&self->scene, format, width, height, scale, write_to_file,
                        xrlab_atomic_file_stream (af), path, error))
    {
      xrlab_atomic_file_abort (af);
      return FALSE;
    }
  return xrlab_atomic_file_commit (af, error);
}

gboolean
xrlab_map_view_get_dark (XrlabMapView *self)
{
  g_return_val_if_fail (XRLAB_IS_MAP_VIEW (self), FALSE);
  return self->dark;
}

void
xrlab_map_view_set_colormap (XrlabMapView *self, XrlabMapColormapKind kind, double min, double max)
{
  g_return_if_fail (XRLAB_IS_MAP_VIEW (self));
  if (self->scene.colormap == kind && (self->scene.value_min == min || (isnan (min) && isnan (self->scene.value_min)))
      && (self->scene.value_max == max || (isnan (max) && isnan (self->scene.value_max))))
    return;
  self->scene.colormap = kind;
  self->scene.value_min = min;
  self->scene.value_max = max;
  drop_image (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
xrlab_map_view_set_reversed (XrlabMapView *self, gboolean x_reversed, gboolean y_reversed)
{
  g_return_if_fail (XRLAB_IS_MAP_VIEW (self));
  self->scene.x_reversed = x_reversed;
  self->scene.y_reversed = y_reversed;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
xrlab_map_view_set_overlays (XrlabMapView *self, const XrlabMapOverlay *overlays, guint n)
{
  g_return_if_fail (XRLAB_IS_MAP_VIEW (self));
  clear_overlays (self);
  if (n > 0)
    {
      self->overlays = g_new (XrlabMapOverlay, n);
      memcpy (self->overlays, overlays, n * sizeof *overlays);
      for (guint i = 0; i < n; i++)
        self->overlays[i].label = g_strdup (overlays[i].label);
    }
  self->n_overlays = n;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
xrlab_map_view_set_limits (XrlabMapView *self, double x_min, double x_max, double y_min, double y_max)
{
  g_return_if_fail (XRLAB_IS_MAP_VIEW (self));
  self->scene.x_axis.min = x_min;
  self->scene.x_axis.max = x_max;
  self->scene.y_axis.min = y_min;
  self->scene.y_axis.max = y_max;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gboolean
xrlab_map_view_get_limits (XrlabMapView *self, double *x_min, double *x_max, double *y_min, double *y_max)
{
  g_return_val_if_fail (XRLAB_IS_MAP_VIEW (self), FALSE);
  if (x_min != NULL)
    *x_min = self->scene.x_axis.min;
  if (x_max != NULL)
    *x_max = self->scene.x_axis.max;
  if (y_min != NULL)
    *y_min = self->scene.y_axis.min;
  if (y_max != NULL)
    *y_max = self->scene.y_axis.max;
  return xrlab_plot_axis_is_fixed (&self->scene.x_axis) || xrlab_plot_axis_is_fixed (&self->scene.y_axis);
}

const XrlabPlotFrame *
xrlab_map_view_get_frame (XrlabMapView *self)
{
  g_return_val_if_fail (XRLAB_IS_MAP_VIEW (self), NULL);
  return &self->frame;
}

gboolean
xrlab_map_view_pick (XrlabMapView *self, double px, double py, double *x, double *y)
{
  const XrlabPlotFrame *f;
  double wx, wy;

  g_return_val_if_fail (XRLAB_IS_MAP_VIEW (self), FALSE);
  f = &self->frame;
  if (!f->valid || f->px1 <= f->px0 || f->py1 <= f->py0)
    return FALSE;
  px = CLAMP (px, f->px0, f->px1);
  py = CLAMP (py, f->py0, f->py1);
  wx = f->wx0 + (px - f->px0) / (f->px1 - f->px0) * (f->wx1 - f->wx0);
  wy = f->wy0 + (f->py1 - py) / (f->py1 - f->py0) * (f->wy1 - f->wy0);
  *x = f->x_log ? pow (10, wx) : wx;
  *y = f->y_log ? pow (10, wy) : wy;
  return TRUE;
}
