/* xrlab-plot-render-private.h -- between the renderer's layout, passes and
 * PLplot stream
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <math.h>

#include <pango/pangocairo.h>
#include <plplot.h>

#include "xrlab-plot-render.h"
#include "xrlab-plot-ticks.h"

G_BEGIN_DECLS

/* Colour map 0 of every stream. */
enum {
  XRLAB_PLOT_COL_BG = 0,
  XRLAB_PLOT_COL_FG,
  XRLAB_PLOT_COL_MUTED,
  XRLAB_PLOT_COL_FRAME,
  XRLAB_PLOT_COL_GRID,
  XRLAB_PLOT_COL_MARKER,
  XRLAB_PLOT_COL_LEGEND_BG,
  XRLAB_PLOT_COL_WATERMARK,
  XRLAB_PLOT_COL_SERIES0,
};

/* Type sizes in points (see the geometry note in xrlab-plot-render.h). */
#define XRLAB_PLOT_TICK_PT      9.0
#define XRLAB_PLOT_LABEL_PT    10.0
#define XRLAB_PLOT_LEGEND_PT    9.0
#define XRLAB_PLOT_MARKER_PT    8.0
#define XRLAB_PLOT_PT_TO_MM(pt) ((pt) * 25.4 / 72.0)
#define XRLAB_PLOT_PT_TO_PX(pt) ((pt) * 96.0 / 72.0)

/* ---- the PLplot stream (xrlab-plot-stream.c) ---- */

typedef struct {
  PLINT id;                      /* -1: none */
  int   width, height;
} XrlabPlotStream;

/* Whether PLplot may be called from this thread: the first thread that
 * draws owns PLplot for the life of the process. */
gboolean xrlab_plot_stream_thread_ok (void);
/* Selects @stream, opened (again) for a page of @width x @height. */
void     xrlab_plot_stream_select    (XrlabPlotStream *stream, int width, int height);
void     xrlab_plot_stream_end       (XrlabPlotStream *stream);
void     xrlab_plot_stream_set_color (int index, const XrlabPlotColor *color);

/* ---- the layout (xrlab-plot-layout.c) ---- */

typedef struct {
  double      x;                 /* world */
  const char *label;
  int         row;               /* label row above the plot; -1: unlabelled */
} XrlabPlotVisibleMarker;

typedef struct {
  int    width, height;
  double x0, x1, y0, y1;         /* world window */
  double left, right, top, bottom;
  double plot_w, plot_h;
  double em_tick, em_label, em_marker;
  XrlabPlotTicks xa, ya;
  GArray *markers;               /* XrlabPlotVisibleMarker, by x */
  char   *x_title, *y_title;     /* PLplot text */
  double  legend_w, legend_h;    /* drawn legend box; 0: none */
  gboolean legend_right, legend_top;
} XrlabPlotLayout;

typedef enum {
  XRLAB_PLOT_LAYOUT_OK,
  XRLAB_PLOT_LAYOUT_NO_DATA,     /* nothing finite to draw: a message */
  XRLAB_PLOT_LAYOUT_TOO_SMALL,   /* no room for a plot area: the background */
} XrlabPlotLayoutResult;

void     xrlab_plot_layout_init  (XrlabPlotLayout *layout);
void     xrlab_plot_layout_clear (XrlabPlotLayout *layout);
XrlabPlotLayoutResult
         xrlab_plot_layout_compute (XrlabPlotLayout      *layout,
                                    const XrlabPlotScene *scene,
                                    cairo_t              *cr,
                                    int                   width,
                                    int                   height);
/* The inside corner of the plot area whose legend box (@w x @h, inset 12)
 * covers the fewest data points; top right on a tie. Sets
 * @layout->legend_right and legend_top, returns PLplot's position. */
PLINT    xrlab_plot_layout_legend_corner (XrlabPlotLayout      *layout,
                                          const XrlabPlotScene *scene,
                                          double                w,
                                          double                h);

/* ---- text (xrlab-plot-layout.c) ---- */

/* Escapes PLplot's text escape character '#'. */
char    *xrlab_plot_text_escape (const char *text);
/* The width of PLplot text as displayed (escapes removed). */
double   xrlab_plot_text_width  (PangoLayout *layout, const char *pl_text);
void     xrlab_plot_text_font   (PangoLayout *layout, double pt);

static inline gboolean
xrlab_plot_usable (double v, gboolean log)
{
  return isfinite (v) && (!log || v > 0);
}

static inline double
xrlab_plot_curve_y (const XrlabPlotCurve *curve, gsize i)
{
  return curve->y[i] * curve->y_scale;
}

G_END_DECLS
