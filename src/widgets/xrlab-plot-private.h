/* xrlab-plot-private.h -- what the files of XrlabPlot share
 *
 * xrlab-plot.c            the widget: properties, state, drawing, export
 * xrlab-plot-input.c      pointer and keys: zoom, pan, pins, the axis
 *                         limits popover, the context menu, plot.* actions
 * xrlab-plot-pins.c       the pinned x values and their table
 * xrlab-plot-crosshair.c  the crosshair, the pins and their readouts
 * xrlab-plot-export.c     PNG, SVG and PDF files, figure previews
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "xrlab-plot.h"

G_BEGIN_DECLS

typedef struct _XrlabPlotInput XrlabPlotInput;

struct _XrlabPlot {
  GtkDrawingArea parent_instance;

  XrlabPlotData *data;
  char *x_name, *x_unit, *y_name, *y_unit, *y_symbol;
  gboolean x_log, y_log;
  gboolean x_reversed;           /* high x values on the left */
  GArray *markers;               /* XrlabPlotMarker */
  char *watermark;
  char *note;              /* the caller's note under the plot */
  char *message;
  char *overlay_text;
  gboolean dark;
  gboolean follow_style;
  gboolean show_markers;
  gboolean show_legend;
  double line_width;

  /* the renderer (one PLplot stream) and the scene's curves */
  XrlabPlotRenderer *renderer;
  GArray *curves;                /* XrlabPlotCurve, borrowing from data */

  /* offscreen frame, and its geometry for the crosshair */
  cairo_surface_t *cache;
  gboolean dirty;
  gboolean layers_stale;         /* more changed than the data */
  XrlabPlotData *drawn_data;     /* of the last frame */
  XrlabPlotFrame frame;

  /* crosshair */
  double cross_x;                /* data units; NaN: hidden */
  double cross_py;               /* pointer y in pixels; NaN: none */
  GtkEventController *motion;

  /* the view (xrlab-plot-input.c): limits in data units, NaN: automatic */
  double x_min, x_max, y_min, y_max;
  GArray *pins;                  /* double, x in data units */
  XrlabPlotInput *input;

  /* statistics */
  guint render_count;
  double last_render_ms;
  double data_set_time;          /* xrlab_now() at the last set_data, 0: shown */
  double data_to_frame_ms;

  gulong style_handler;
};

/* xrlab-plot.c */
/* What the renderer draws: the widget's state, borrowing its data. */
void  xrlab_plot_build_scene       (XrlabPlot *self, XrlabPlotScene *scene, gboolean dark);
/* Re-renders the chart at the next frame. */
void  xrlab_plot_invalidate        (XrlabPlot *self);
/* The view or the pins changed: redraw, notify "zoomed", emit
 * "view-changed". */
void  xrlab_plot_view_changed      (XrlabPlot *self);

/* xrlab-plot-pins.c: the pin within 5 pixels of @px (frame), or -1. */
int   xrlab_plot_pin_near          (XrlabPlot *self, double px);

/* xrlab-plot-input.c */
void  xrlab_plot_input_init        (XrlabPlot *self);
void  xrlab_plot_input_dispose     (XrlabPlot *self);
void  xrlab_plot_input_class_init  (GtkWidgetClass *widget_class);
/* Child widgets (the Reset View button, popovers): allocated and drawn. */
void  xrlab_plot_input_allocate    (XrlabPlot *self, int width, int height);
void  xrlab_plot_input_snapshot    (XrlabPlot *self, GtkSnapshot *snapshot);
/* A new frame was rendered: children placed by the plot area move. */
void  xrlab_plot_input_frame_changed (XrlabPlot *self);
/* The zoom rectangle being dragged, over the frame. */
void  xrlab_plot_input_draw        (XrlabPlot *self, cairo_t *cr);
/* The actions' enabled state after a change of view, pins or data. */
void  xrlab_plot_input_update      (XrlabPlot *self);

G_END_DECLS
