/* xrlab-plot-render.h -- charts drawn on a cairo_t, without a window
 *
 * The renderer draws a scene -- curves over a shared x axis, vertical
 * markers (absorption edges), axis names and units, a legend -- with
 * PLplot's extcairo driver into a cairo context the caller owns: a widget's
 * offscreen frame, an image, SVG or PDF surface. It needs cairo, Pango,
 * PLplot and GLib, no GTK, so the window, xrlab-cli and tests draw the same
 * figures.
 *
 * A frame is a layout -- the data ranges (or the limits the scene sets),
 * the ticks of both axes, margins from measured labels, rows for the marker
 * labels -- and then passes over it: background, grid, marker lines,
 * curves, frame and ticks, then the text and the legend. PLplot draws the
 * lines; every text is set with Pango directly (xrlab-plot-text.c), so the
 * renderer knows each label's box (xrlab_plot_renderer_get_texts()) and an
 * SVG keeps its text as <text> elements.
 *
 * PLplot has global state and is not thread safe: each XrlabPlotRenderer
 * owns one PLplot stream, selected before each of its calls, and every
 * renderer of the process is used from one thread (the GUI's main thread,
 * or the thread of a command-line program).
 *
 * Geometry: the page is in cairo units (1 unit = 1 pixel on screen, 1 point
 * in a PDF, an SVG or a PNG written at a resolution). Type sizes are in the
 * same units (XrlabPlotScene.font_size), so a figure of 8.5 cm with 9-point
 * text is a page of 241 units with font_size 9. Margins are computed from
 * measured label widths.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cairo.h>
#include <glib.h>

#include "xrlab-plot-palette.h"

G_BEGIN_DECLS

#define XRLAB_PLOT_ERROR (xrlab_plot_error_quark ())
GQuark xrlab_plot_error_quark (void);

typedef enum {
  XRLAB_PLOT_ERROR_NO_DRIVER,   /* PLplot or its extcairo driver is missing */
  XRLAB_PLOT_ERROR_FAILED,      /* a cairo surface or file could not be written */
} XrlabPlotError;

typedef enum {
  XRLAB_PLOT_FORMAT_PNG,
  XRLAB_PLOT_FORMAT_SVG,
  XRLAB_PLOT_FORMAT_PDF,
} XrlabPlotFormat;

/* An absorption edge (or any vertical marker) along the x axis.
 *
 * Labels go in up to three rows above the plot area and never overlap; when
 * there is no room for all of them they are chosen by @priority (smaller
 * first), the most important marker of each @group first, so every group
 * keeps a label while there is room for one per group. A group that gets no
 * label at all is named in a note on the plot. The lines are always drawn. */
typedef struct {
  double  x;
  char   *label;
  int     group;             /* e.g. the element's Z; 0: a group of its own */
  int     priority;          /* smaller is more important; 0 default */
} XrlabPlotMarker;

/* How a curve is drawn. AUTO: solid, unless an earlier curve of the scene
 * has the same colour: then the next style of DASHED, DASH_DOT, LONG_DASH,
 * DOTTED (so no two curves look alike before every colour of the palette
 * and every style are used). */
typedef enum {
  XRLAB_PLOT_LINE_AUTO = 0,
  XRLAB_PLOT_LINE_SOLID,
  XRLAB_PLOT_LINE_DASHED,
  XRLAB_PLOT_LINE_DASH_DOT,
  XRLAB_PLOT_LINE_LONG_DASH,
  XRLAB_PLOT_LINE_DOTTED,
  XRLAB_PLOT_N_LINE_STYLES
} XrlabPlotLineStyle;

/* One curve; everything is borrowed for the duration of a draw. */
typedef struct {
  const char     *label;     /* legend text (UTF-8) */
  XrlabPlotColor  color;     /* as chosen for a light background */
  const double   *x;         /* @n values, strictly monotonic */
  const double   *y;         /* @n values; NaN = gap */
  gsize           n;
  double          y_scale;   /* drawn value = y[i] × y_scale */
  gboolean        stale;     /* drawn dashed and faded, "(last valid)" */
  XrlabPlotLineStyle style;  /* default AUTO */
  gboolean        live;      /* changes between frames (xrlab_plot_renderer_draw_layered()) */
} XrlabPlotCurve;

/* An axis. Its title reads "name (unit)"; a common factor of the tick
 * labels goes into the parentheses ("δ (×10⁻³)"). With min < max (finite,
 * and > 0 on a log axis) the axis shows exactly [min, max] (zoomed);
 * otherwise its range follows the data (padded): the y range then follows
 * the data within the x range shown. */
typedef struct {
  const char *name;          /* "Photon energy" */
  const char *unit;          /* "keV"; NULL or "" = none */
  gboolean    log;
  double      min, max;      /* data units; min >= max (e.g. 0, 0): automatic */
  const char *symbol;        /* "δ", for notes about the axis; NULL: none */
  gboolean    reversed;      /* x only: high values on the left (binding energies) */
} XrlabPlotAxisSpec;

/* Whether @axis has limits of its own (see XrlabPlotAxisSpec). */
gboolean xrlab_plot_axis_is_fixed (const XrlabPlotAxisSpec *axis);

/* What to draw. Initialize with xrlab_plot_scene_init(), then fill in. */
typedef struct {
  const XrlabPlotCurve  *curves;
  guint                  n_curves;
  const XrlabPlotMarker *markers;       /* outside the x range: not drawn */
  guint                  n_markers;
  XrlabPlotAxisSpec      x, y;
  const char            *watermark;     /* faint text across the plot, or NULL */
  const char            *note;          /* the caller's note, first of the notes under the
                                         * plot (the curves' data source), or NULL */
  const char            *message;       /* shown instead when there are no curves */
  gboolean               dark;          /* dark palette */
  gboolean               show_legend;   /* default TRUE */
  gboolean               show_markers;  /* default TRUE */
  double                 line_width;    /* of the curves, 0.25 … 8 units; default 2 */
  /* Size of the tick labels and the legend, in units (axis titles 1.1 ×,
   * marker labels and notes 0.9 ×); 0: 13 (on screen: 9.75 pt at 96 dpi).
   * 4 … 48. */
  double                 font_size;
} XrlabPlotScene;

void xrlab_plot_scene_init (XrlabPlotScene *scene);

/* The line style curve @index of @scene is drawn with (AUTO resolved). */
XrlabPlotLineStyle xrlab_plot_scene_get_line_style (const XrlabPlotScene *scene, guint index);

/* Where a frame put its plot area, for pointer input and overlays. */
typedef struct {
  gboolean valid;                /* FALSE: no chart was drawn */
  double   px0, px1, py0, py1;   /* plot area in cairo units (py0 at the top) */
  double   wx0, wx1, wy0, wy1;   /* world window (log10 of values on a log axis) */
  gboolean x_log, y_log;
  double   lx0, lx1, ly0, ly1;   /* legend box (empty: no legend) */
  /* A log y axis showed negative values as their magnitude, dotted (and
   * said so in a note). */
  gboolean y_abs;
  /* Marker groups that got no label (named in a note). */
  guint    n_unlabelled_groups;
} XrlabPlotFrame;

/* Data value <-> cairo coordinate of a valid frame. y_to_py gives NaN for
 * a value that a log axis cannot show (with y_abs, a negative value is
 * placed at its magnitude). */
double xrlab_plot_frame_x_to_px (const XrlabPlotFrame *frame, double x);
double xrlab_plot_frame_px_to_x (const XrlabPlotFrame *frame, double px);
double xrlab_plot_frame_y_to_py (const XrlabPlotFrame *frame, double y);
double xrlab_plot_frame_py_to_y (const XrlabPlotFrame *frame, double py);
/* The data range shown along x and y. */
void   xrlab_plot_frame_get_limits (const XrlabPlotFrame *frame,
                                    double *x_min, double *x_max,
                                    double *y_min, double *y_max);

/* What a frame wrote, and where: one box per text item. */
typedef enum {
  XRLAB_PLOT_TEXT_TICK_X,
  XRLAB_PLOT_TEXT_TICK_Y,
  XRLAB_PLOT_TEXT_TITLE_X,
  XRLAB_PLOT_TEXT_TITLE_Y,
  XRLAB_PLOT_TEXT_MARKER,
  XRLAB_PLOT_TEXT_LEGEND,
  XRLAB_PLOT_TEXT_NOTE,
  XRLAB_PLOT_TEXT_WATERMARK,
  XRLAB_PLOT_TEXT_MESSAGE,
} XrlabPlotTextRole;

typedef struct {
  XrlabPlotTextRole role;
  double x0, y0, x1, y1;         /* its box in cairo units (y0 at the top) */
  char  *text;                   /* as shown (UTF-8, superscripts inline) */
} XrlabPlotTextBox;

/* Checks once per process that PLplot can open its extcairo device (a trial
 * stream is opened and closed; PLplot's exit-on-error is intercepted during
 * the probe). When this fails, renderers draw the message instead of a
 * chart and never call PLplot. */
gboolean xrlab_plot_check_driver (GError **error);

typedef struct _XrlabPlotRenderer XrlabPlotRenderer;

XrlabPlotRenderer *xrlab_plot_renderer_new  (void);
void               xrlab_plot_renderer_free (XrlabPlotRenderer *renderer);

/* The texts of the last frame drawn (owned by @renderer, valid until its
 * next draw); returns how many. */
guint xrlab_plot_renderer_get_texts (XrlabPlotRenderer       *renderer,
                                     const XrlabPlotTextBox **texts);

/* Draws @scene at @width x @height (cairo units) into @cr; @frame_out (may
 * be NULL) gets the geometry. Too small a size, or nothing to draw, gives
 * the background (and the message) and TRUE. FALSE when the PLplot driver
 * is missing (its message is drawn) or @cr is in an error state. */
gboolean xrlab_plot_renderer_draw  (XrlabPlotRenderer    *renderer,
                                    const XrlabPlotScene *scene,
                                    cairo_t              *cr,
                                    int                   width,
                                    int                   height,
                                    XrlabPlotFrame       *frame_out,
                                    GError              **error);

/* Draws @scene as xrlab_plot_renderer_draw() does, keeping two layers
 * for the next call: below the curves (background, grid, marker lines, the
 * curves that are not live) and above them (frame, ticks, texts, legend).
 * With @keep_layers -- the caller vouches that nothing but the values of
 * the live curves changed since the last layered draw: same axes, size,
 * palette, markers, texts, curves and static values -- only the live
 * curves are drawn between the kept layers, as long as the x range is the
 * same and the automatic y range of the new values fits in the one drawn
 * and fills at least half of it (the axes do not jump while a value is
 * dragged); otherwise everything is drawn again, on a linear automatic y
 * axis over the range drawn before and the new one together while the new
 * values fill half of that. @cr must draw on an image surface (else this
 * is xrlab_plot_renderer_draw()). */
gboolean xrlab_plot_renderer_draw_layered (XrlabPlotRenderer    *renderer,
                                           const XrlabPlotScene *scene,
                                           gboolean              keep_layers,
                                           cairo_t              *cr,
                                           int                   width,
                                           int                   height,
                                           XrlabPlotFrame       *frame_out,
                                           GError              **error);
/* Whether the last layered draw kept its layers (drew the live curves only). */
gboolean xrlab_plot_renderer_get_layers_kept (XrlabPlotRenderer *renderer);
/* Whether a figure of @width x @height points (and, for PNG, @scale pixels
 * per point) can be written: 120 × 90 … 20000 × 20000, scale 0.25 … 8. */
gboolean xrlab_plot_output_check   (XrlabPlotFormat       format,
                                    int                   width,
                                    int                   height,
                                    double                scale,
                                    GError              **error);

/* A page: its size in points (1/72 inch) and, for PNG, its resolution.
 * A PNG is lround (width_pt × dpi / 72) × lround (height_pt × dpi / 72)
 * pixels and records @dpi (its pHYs chunk); an SVG's width and height are
 * in mm, its text is <text>; a PDF page is width_pt × height_pt with its
 * fonts embedded. */
typedef struct {
  XrlabPlotFormat format;
  double width_pt, height_pt;    /* 60 … 14400 (5 m) */
  double dpi;                    /* PNG: 18 … 1200, ≤ 32000 pixels a side */
} XrlabPlotPage;

/* "png", "svg", "pdf" (file name extensions, without the dot). */
const char *xrlab_plot_format_get_extension (XrlabPlotFormat format);
/* The format of a file name's extension (any case); FALSE when none. */
gboolean    xrlab_plot_format_from_name     (const char      *name,
                                             XrlabPlotFormat *format);
/* Converts a length to points: @unit "pt", "mm", "cm", "in", or "px"
 * (at @dpi). FALSE for another unit. */
gboolean    xrlab_plot_length_to_pt         (double      value,
                                             const char *unit,
                                             double      dpi,
                                             double     *pt);

gboolean xrlab_plot_page_check     (const XrlabPlotPage  *page,
                                    GError              **error);

/* Draws @scene on @page and hands the document's bytes to @write_func
 * (in one call or several). @name names the output in error messages. */
gboolean xrlab_plot_renderer_write_page (XrlabPlotRenderer    *renderer,
                                         const XrlabPlotScene *scene,
                                         const XrlabPlotPage  *page,
                                         cairo_write_func_t    write_func,
                                         void                 *closure,
                                         const char           *name,
                                         GError              **error);

/* The same for a page of @width x @height points and, for PNG, @scale
 * pixels per point (@scale × 72 dpi). */
gboolean xrlab_plot_renderer_write (XrlabPlotRenderer    *renderer,
                                    const XrlabPlotScene *scene,
                                    XrlabPlotFormat       format,
                                    int                   width,
                                    int                   height,
                                    double                scale,
                                    cairo_write_func_t    write_func,
                                    void                 *closure,
                                    const char           *name,
                                    GError              **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (XrlabPlotRenderer, xrlab_plot_renderer_free)

G_END_DECLS
