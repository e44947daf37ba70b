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
  XRLAB_PLOT_COL_MARKER_FAINT,   /* the lines of markers without a label */
  XRLAB_PLOT_COL_SERIES0,
};

/* Type sizes as fractions of XrlabPlotScene.font_size. */
#define XRLAB_PLOT_DEFAULT_FONT  13.0
#define XRLAB_PLOT_TITLE_SCALE    1.1
#define XRLAB_PLOT_MARKER_SCALE   0.9
#define XRLAB_PLOT_NOTE_SCALE     0.9
/* PLplot's dash lengths are in micrometres at 72 dots per inch. */
#define XRLAB_PLOT_UNITS_TO_UM(u) ((u) * 25400.0 / 72.0)

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

/* ---- text (xrlab-plot-text.c) ---- */

/* Texts in the tick module's notation ("10#u−3#d"), drawn with Pango on
 * @cr, or, with @svg, written to it as <text> elements (nothing drawn).
 * Every text shown is recorded in @boxes (XrlabPlotTextBox; may be NULL). */
typedef struct {
  cairo_t *cr;
  PangoLayout *layout;
  PangoFontDescription *desc;
  char *family;                  /* resolved family, for SVG */
  GString *svg;
  GArray *boxes;
} XrlabPlotText;

GArray  *xrlab_plot_text_boxes_new (void);
void     xrlab_plot_text_init   (XrlabPlotText *text, cairo_t *cr, GArray *boxes, GString *svg);
void     xrlab_plot_text_clear  (XrlabPlotText *text);
/* Escapes the notation's escape character '#'. */
char    *xrlab_plot_text_escape (const char *text);
/* The logical size of @text at @size units. */
void     xrlab_plot_text_size   (XrlabPlotText *text, const char *pl_text, double size,
                                 gboolean italic, double *w, double *h);
/* Shows @pl_text with the point (@fx, @fy) of its box -- fractions of its
 * width and height, of the turned box when @vertical (a quarter turn
 * counter-clockwise) -- at (@x, @y). */
void     xrlab_plot_text_show   (XrlabPlotText *text, XrlabPlotTextRole role, const char *pl_text,
                                 double size, gboolean italic, const XrlabPlotColor *color,
                                 double x, double y, double fx, double fy, gboolean vertical);
/* Plain text wrapped to @width, centred on (x + width/2, @y). */
void     xrlab_plot_text_show_wrapped (XrlabPlotText *text, XrlabPlotTextRole role, const char *plain,
                                       double size, const XrlabPlotColor *color,
                                       double x, double y, double width);

/* ---- the layout (xrlab-plot-layout.c, xrlab-plot-markers.c) ---- */

typedef struct {
  double      x;                 /* world */
  const char *label;             /* escaped for the text notation */
  int         group, priority;
  int         row;               /* label row above the plot; -1: unlabelled */
  double      lx0, lx1;          /* its label's extent along x (cairo units) */
  double      w;                 /* its label's width */
} XrlabPlotVisibleMarker;

typedef struct {
  int    width, height;
  double x0, x1, y0, y1;         /* world window (x0 < x1 also on a reversed x axis) */
  gboolean x_reversed;           /* x drawn from x1 on the left to x0 */
  double left, right, top, bottom;
  double plot_w, plot_h;
  double fs_tick, fs_title, fs_marker, fs_note, fs_legend;   /* type sizes (units) */
  double h_legend;
  double h_tick, h_title, h_marker, h_note;       /* their line heights */
  double line_width;
  XrlabPlotTicks xa, ya;
  GArray *markers;               /* XrlabPlotVisibleMarker, by x */
  guint   n_rows;                /* rows of marker labels */
  guint   n_unlabelled_groups;
  GString *unlabelled;           /* their best labels, ", " between */
  char   *x_title, *y_title;     /* in the text notation */
  char   *y_title2;              /* the second line of a long y title, or NULL */
  gboolean y_abs;                /* negative values shown as |y| (log y) */
  XrlabPlotLineStyle *styles;    /* of each curve, resolved */
  guint   n_styles;
  GPtrArray *notes;              /* plain text */
  GPtrArray *note_lines;         /* the notes wrapped, in the text notation */
  double  notes_h;               /* their height at the foot of the page */
  GPtrArray *legend_entries;     /* text notation, one per curve shown */
  double  legend_w, legend_h;    /* the legend box; 0: none */
  double  legend_x, legend_y;    /* where it was drawn */
  gboolean legend_right, legend_top;
  gboolean legend_outside;       /* right of the plot area: no room inside */
  gboolean legend_below;         /* under the x axis, in columns: no room beside */
  guint   legend_cols;
  double  extra_bottom;          /* room kept under the x title */
  double  legend_col_w;
} XrlabPlotLayout;

#define XRLAB_PLOT_LEGEND_INSET 10

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
                                    XrlabPlotText        *text,
                                    int                   width,
                                    int                   height);
/* Only the world window of @scene (x0, x1, y0, y1, y_abs), as the full
 * layout computes it; FALSE when there is nothing to show. */
gboolean xrlab_plot_layout_ranges (XrlabPlotLayout *layout, const XrlabPlotScene *scene);
/* Labels the markers inside the x range (xrlab-plot-markers.c): rows and
 * the notes for groups left without a label. Sets @layout->top. */
void     xrlab_plot_layout_markers (XrlabPlotLayout      *layout,
                                    const XrlabPlotScene *scene,
                                    XrlabPlotText        *text);
/* The inside corner of the plot area whose box of @w x @h (inset 10)
 * covers the fewest data points; top right on a tie. Sets
 * @layout->legend_right and legend_top. */
void     xrlab_plot_layout_legend_corner (XrlabPlotLayout      *layout,
                                          const XrlabPlotScene *scene,
                                          double                w,
                                          double                h);

/* The legend and the notes (xrlab-plot-legend.c): measured by the layout
 * (legend_w, legend_h), placed and drawn with cairo after the PLplot
 * passes. */
void     xrlab_plot_legend_measure (XrlabPlotLayout      *layout,
                                    const XrlabPlotScene *scene,
                                    XrlabPlotText        *text);
/* Splits plain @text into lines of at most @width (units) at spaces. */
GPtrArray *xrlab_plot_legend_wrap (XrlabPlotText *text, const char *plain, double size, double width);
void     xrlab_plot_legend_draw (XrlabPlotLayout      *layout,
                                 const XrlabPlotScene *scene,
                                 XrlabPlotText        *text,
                                 cairo_t              *cr);
/* The dash pattern of @style for lines @width wide (cairo units); 0 for
 * a solid line. */
guint    xrlab_plot_line_dashes (XrlabPlotLineStyle style, double width, double dashes[4]);
/* Stale curves and the negative part of a curve on a log axis. */
#define XRLAB_PLOT_LINE_STALE    ((XrlabPlotLineStyle) 100)
#define XRLAB_PLOT_LINE_NEGATIVE ((XrlabPlotLineStyle) 101)

/* How a run of a curve is drawn on a raster target (xrlab-plot-raster.c). */
typedef enum {
  XRLAB_PLOT_RUN_SMOOTH,         /* stroked, through fewer points */
  XRLAB_PLOT_RUN_JAGGED,         /* stroked with fast antialiasing */
  XRLAB_PLOT_RUN_DENSE,          /* filled as the band it covers */
} XrlabPlotRunKind;

/* The kind of the run of @m points at (@ux, @uy) (cairo units, x
 * monotonic), with @device_per_unit device pixels per cairo unit. */
XrlabPlotRunKind xrlab_plot_run_kind (const double *ux, const double *uy, gsize m,
                                      double device_per_unit);
/* Fills on @cr (in the units of @ux, @uy) the band the polyline covers
 * when stroked @half_width × 2 wide with a square pen, clipped to [@x_min,
 * @x_max] × [@y_min, @y_max], in the source set on @cr. */
void     xrlab_plot_envelope_fill (cairo_t *cr, const double *ux, const double *uy, gsize m,
                                   double half_width, double device_per_unit,
                                   double x_min, double x_max, double y_min, double y_max);
/* Drops the points of the polyline (@ux, @uy) that lie within @tolerance
 * of the segment between the points kept around them (greedy, spans of at
 * most 48 points found by a cone of directions and checked against the
 * segment), compacting @ux, @uy and the world coordinates @wx, @wy alike;
 * returns the new count (first and last point kept). */
gsize    xrlab_plot_simplify (double *ux, double *uy, double *wx, double *wy, gsize m,
                              double tolerance);

/* xrlab_plot_renderer_draw(), with the text written to @svg_text as SVG
 * elements instead of drawn (NULL: drawn). */
gboolean xrlab_plot_renderer_draw_full (XrlabPlotRenderer    *renderer,
                                        const XrlabPlotScene *scene,
                                        cairo_t              *cr,
                                        int                   width,
                                        int                   height,
                                        XrlabPlotFrame       *frame_out,
                                        GString              *svg_text,
                                        GError              **error);

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
