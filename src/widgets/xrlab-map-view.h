/* xrlab-map-view.h -- a map (values on an x × y grid) in a GtkDrawingArea
 *
 * Drawn by the map renderer (xrlab-map-render.h): an image with axes and a
 * viridis colour bar, light and dark with AdwStyleManager, a crosshair that
 * reads the value under the pointer out. The arrays are borrowed from the
 * reply buffer that holds them (kept until the next map).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "xrlab-map-render.h"

G_BEGIN_DECLS

#define XRLAB_TYPE_MAP_VIEW (xrlab_map_view_get_type ())
G_DECLARE_FINAL_TYPE (XrlabMapView, xrlab_map_view, XRLAB, MAP_VIEW, GtkDrawingArea)

GtkWidget *xrlab_map_view_new (void);

/* The map: @values n_y rows of n_x, on the points @x and @y, all borrowed
 * from @owner, which the view frees with @free_func when it no longer
 * needs it. @values NULL: no map (the message is shown). */
void       xrlab_map_view_set_map     (XrlabMapView  *self,
                                       const double  *values,
                                       const double  *x,
                                       gsize          n_x,
                                       const double  *y,
                                       gsize          n_y,
                                       gpointer       owner,
                                       GDestroyNotify free_func);
gboolean   xrlab_map_view_has_map     (XrlabMapView *self);

void       xrlab_map_view_set_axes    (XrlabMapView *self,
                                       const char   *x_name,
                                       const char   *x_unit,
                                       gboolean      x_log,
                                       const char   *y_name,
                                       const char   *y_unit,
                                       gboolean      y_log);
/* The colour bar: its title and whether colours follow log10 of the value. */
void       xrlab_map_view_set_values  (XrlabMapView *self,
                                       const char   *name,
                                       gboolean      log);
void       xrlab_map_view_set_title   (XrlabMapView *self, const char *title);
void       xrlab_map_view_set_message (XrlabMapView *self, const char *message);

/* The crosshair at (@x, @y) in data units (NaN hides it) and its readout:
 * "x unit, y unit: name = value" ("" when hidden or outside). */
void       xrlab_map_view_set_crosshair (XrlabMapView *self, double x, double y);
char      *xrlab_map_view_get_readout   (XrlabMapView *self);

gboolean   xrlab_map_view_render      (XrlabMapView *self,
                                       cairo_t      *cr,
                                       int           width,
                                       int           height,
                                       gboolean      dark);
/* Writes the map to @path (atomically) as PNG, SVG or PDF. */
gboolean   xrlab_map_view_export      (XrlabMapView    *self,
                                       const char      *path,
                                       XrlabPlotFormat  format,
                                       int              width,
                                       int              height,
                                       double           scale,
                                       gboolean         dark,
                                       GError         **error);
gboolean   xrlab_map_view_get_dark    (XrlabMapView *self);

/* The colour map and its range (NaN: from the values; a residual gets a
 * range symmetric about zero from its caller). */
void       xrlab_map_view_set_colormap (XrlabMapView *self, XrlabMapColormapKind kind,
                                        double min, double max);
/* Axes drawn from high to low values. */
void       xrlab_map_view_set_reversed (XrlabMapView *self, gboolean x_reversed,
                                        gboolean y_reversed);
/* Drawn over the image (copied, labels too). */
void       xrlab_map_view_set_overlays (XrlabMapView *self, const XrlabMapOverlay *overlays,
                                        guint n);
/* The part of the map shown (min >= max or NaN: all of that axis). */
void       xrlab_map_view_set_limits   (XrlabMapView *self, double x_min, double x_max,
                                        double y_min, double y_max);
/* TRUE when an axis shows limits of its own. */
gboolean   xrlab_map_view_get_limits   (XrlabMapView *self, double *x_min, double *x_max,
                                        double *y_min, double *y_max);
/* The plot area and world window of the last frame drawn. */
const XrlabPlotFrame *xrlab_map_view_get_frame (XrlabMapView *self);
/* The data point under widget pixel (@px, @py), clamped to the plot area;
 * FALSE before the first map was drawn. */
gboolean   xrlab_map_view_pick         (XrlabMapView *self, double px, double py,
                                        double *x, double *y);

G_END_DECLS
