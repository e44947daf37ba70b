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

/* The colours of the values. */
typedef enum {
  XRLAB_MAP_COLORMAP_VIRIDIS,     /* perceptually uniform, dark to light */
  /* ColorBrewer's RdBu, blue (low) through white to red (high): for values
   * about zero (a residual) with a range symmetric about it */
  XRLAB_MAP_COLORMAP_DIVERGING,
} XrlabMapColormapKind;

/* Something drawn over the image, in data units (NaN: the plot's edge). */
typedef enum {
  XRLAB_MAP_OVERLAY_RECT,         /* the outline of [x0, x1] × [y0, y1] */
  XRLAB_MAP_OVERLAY_HBAND,        /* [y0, y1] across the plot, shaded */
  XRLAB_MAP_OVERLAY_CURSOR,       /* a line at x0 (up the plot) and one at y0 (across) */
} XrlabMapOverlayKind;

typedef struct {
  XrlabMapOverlayKind kind;
  double x0, x1, y0, y1;
  const char *label;              /* beside it, or NULL */
  XrlabPlotColor color;
  gboolean dashed;
} XrlabMapOverlay;

typedef struct {
  const double      *values;      /* n_y rows of n_x: values[iy * n_x + ix]; NaN: none */
  const double      *x;           /* n_x points, monotonic */
  gsize              n_x;
  const double      *y;           /* n_y points, monotonic */
  gsize              n_y;
  /* name, unit, log; min < max: the part of the map shown (zoomed) */
  XrlabPlotAxisSpec  x_axis, y_axis;
  /* the axis runs from high to low values (a binding-energy axis drawn as
   * the measurement has it) */
  gboolean           x_reversed, y_reversed;
  const char        *value_name;  /* the colour bar's title ("R") */
  gboolean           value_log;   /* colours over log10 of the value */
  double             value_min;   /* the colour range; NaN: from the values (a log */
  double             value_max;   /* range at most XRLAB_MAP_MAX_DECADES deep) */
  XrlabMapColormapKind colormap;
  const XrlabMapOverlay *overlays;
  guint              n_overlays;
  /* the image of the values (xrlab_map_image_new() of this scene), kept by
   * the caller across frames whose values and colours stay; NULL: made
   * for the frame */
  cairo_surface_t   *image;
  const char        *title;       /* above the plot, or NULL */
  const char        *message;     /* instead of the map when there is none */
  gboolean           dark;
} XrlabMapScene;

/* Decades below the largest value a log colour range reaches at most. */
#define XRLAB_MAP_MAX_DECADES 10.0

void xrlab_map_scene_init (XrlabMapScene *scene);

/* The colour of @t in [0, 1] (clamped) on the viridis colour map. */
XrlabPlotColor xrlab_map_colormap (double t);
/* ... on the colour map @kind. */
XrlabPlotColor xrlab_map_colormap_of (XrlabMapColormapKind kind, double t);

/* The colour range of @scene: [lo, hi] in value (or log10 of value)
 * units. FALSE when it has no finite value. */
gboolean xrlab_map_value_range (const XrlabMapScene *scene, double *lo, double *hi);

/* The values of @scene as an ARGB32 image of n_x × n_y pixels, row iy of
 * the values in image row iy (colours from a table of the colour map: one
 * lookup per value), for XrlabMapScene.image; NULL without values. */
cairo_surface_t *xrlab_map_image_new (const XrlabMapScene *scene);

/* Draws @scene at @width × @height into @cr; @frame_out (may be NULL) gets
 * the plot area and the world window of the axes (the image's extent, or
 * the limits shown; wx0 > wx1 on a reversed axis, so that the frame's
 * conversions hold). FALSE when @cr is in an error state. */
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
