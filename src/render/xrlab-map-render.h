/* xrlab-map-render.h -- a map of values on an x × y grid drawn on a cairo_t:
 * an image with axes and a colour bar, without a window
 *
 * The grid's points are equally spaced along each axis, in value or (for a
 * log axis) in log10 of the value; each value fills the cell around its
 * point, coloured by a perceptually uniform colour map (viridis) over the
 * value or its log10. The axes get the ticks of xrlab-plot-ticks.h and the
 * palette of xrlab-plot-palette.h, so a map sits beside the curve plots of
 * xrlab-plot-render.h in both styles. cairo and Pango only: no PLplot, no
 * GTK; any thread, one at a time per cairo_t.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cairo.h>
#include <glib.h>

#include "xrlab-plot-render.h"

G_BEGIN_DECLS

typedef struct {
  const double      *values;      /* n_y rows of n_x: values[iy * n_x + ix]; NaN: none */
  const double      *x;           /* n_x points, monotonic */
  gsize              n_x;
  const double      *y;           /* n_y points, monotonic */
  gsize              n_y;
  XrlabPlotAxisSpec  x_axis, y_axis;   /* name, unit, log */
  const char        *value_name;  /* the colour bar's title ("R") */
  gboolean           value_log;   /* colours over log10 of the value */
  double             value_min;   /* the colour range; NaN: from the values (a log */
  double             value_max;   /* range at most XRLAB_MAP_MAX_DECADES deep) */
  const char        *title;       /* above the plot, or NULL */
  const char        *message;     /* instead of the map when there is none */
  gboolean           dark;
} XrlabMapScene;

/* Decades below the largest value a log colour range reaches at most. */
#define XRLAB_MAP_MAX_DECADES 10.0

void xrlab_map_scene_init (XrlabMapScene *scene);

/* The colour of @t in [0, 1] (clamped) on the viridis colour map. */
XrlabPlotColor xrlab_map_colormap (double t);

/* Draws @scene at @width × @height into @cr; @frame_out (may be NULL) gets
 * the plot area and the world window of the axes (the image's extent).
 * FALSE when @cr is in an error state. */
gboolean xrlab_map_render (const XrlabMapScene *scene,
                           cairo_t             *cr,
                           int                  width,
                           int                  height,
                           XrlabPlotFrame      *frame_out);

/* The value of the cell at data coordinates (@x, @y), NaN outside. */
double xrlab_map_value_at (const XrlabMapScene *scene, double x, double y);

/* Draws @scene as a PNG, SVG or PDF document into @write_func
 * (xrlab_plot_output_check()'s sizes). */
gboolean xrlab_map_write (const XrlabMapScene *scene,
                          XrlabPlotFormat      format,
                          int                  width,
                          int                  height,
                          double               scale,
                          cairo_write_func_t   write_func,
                          void                *closure,
                          const char          *name,
                          GError             **error);

G_END_DECLS
