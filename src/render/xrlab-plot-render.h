/* xrlab-plot-render.h -- charts drawn on a cairo_t, without a window
 *
 * The renderer draws a scene -- curves over a shared x axis, vertical
 * markers (absorption edges), axis names and units, a legend -- with
 * PLplot's extcairo driver into a cairo context the caller owns: a widget's
 * offscreen frame, an image, SVG or PDF surface. It needs cairo, Pango,
 * PLplot and GLib, no GTK, so the window, xrlab-cli and tests draw the same
 * figures.
 *
 * A frame is a layout -- the data ranges, the ticks of both axes, margins
 * from measured labels, rows for the marker labels -- and then passes over
 * it: background, grid, marker lines, curves, frame and ticks, tick labels,
 * axis titles, marker labels, legend, watermark.
 *
 * PLplot has global state and is not thread safe: each XrlabPlotRenderer
 * owns one PLplot stream, selected before each of its calls, and every
 * renderer of the process is used from one thread (the GUI's main thread,
 * or the thread of a command-line program).
 *
 * Geometry: the page is in cairo units (1 unit = 1 pixel on screen, 1 point
 * in a PDF/SVG). PLplot's text heights are in mm at 72 units per inch; Pango
 * renders those "points" at 96 dpi, so a label of F points is F * 4/3 units
 * tall. Margins are computed from measured label widths.
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

/* An absorption edge (or any vertical marker) along the x axis. */
typedef struct {
  double  x;
  char   *label;
} XrlabPlotMarker;

/* One curve; everything is borrowed for the duration of a draw. */
typedef struct {
  const char     *label;     /* legend text (UTF-8) */
  XrlabPlotColor  color;     /* as chosen for a light background */
  const double   *x;         /* @n values, strictly monotonic */
  const double   *y;         /* @n values; NaN = gap */
  gsize           n;
  double          y_scale;   /* drawn value = y[i] × y_scale */
  gboolean        stale;     /* drawn dashed and faded, "(last valid)" */
} XrlabPlotCurve;

typedef struct {
  const char *name;          /* "Photon energy" */
  const char *unit;          /* "keV"; NULL or "" = none */
  gboolean    log;
} XrlabPlotAxisSpec;

/* What to draw. Initialize with xrlab_plot_scene_init(), then fill in. */
typedef struct {
  const XrlabPlotCurve  *curves;
  guint                  n_curves;
  const XrlabPlotMarker *markers;       /* outside the x range: not drawn */
  guint                  n_markers;
  XrlabPlotAxisSpec      x, y;
  const char            *watermark;     /* faint text across the plot, or NULL */
  const char            *message;       /* shown instead when there are no curves */
  gboolean               dark;          /* dark palette */
  gboolean               show_legend;   /* default TRUE */
  gboolean               show_markers;  /* default TRUE */
  double                 line_width;    /* of the curves, 0.5 … 8 units; default 2 */
} XrlabPlotScene;

void xrlab_plot_scene_init (XrlabPlotScene *scene);

/* Where a frame put its plot area, for pointer input and overlays. */
typedef struct {
  gboolean valid;                /* FALSE: no chart was drawn */
  double   px0, px1, py0, py1;   /* plot area in cairo units (py0 at the top) */
  double   wx0, wx1, wy0, wy1;   /* world window (log10 of values on a log axis) */
  gboolean x_log, y_log;
  double   lx0, lx1, ly0, ly1;   /* legend box (empty: no legend) */
} XrlabPlotFrame;

/* Data value <-> cairo coordinate of a valid frame. y_to_py gives NaN for
 * a value that a log axis cannot show. */
double xrlab_plot_frame_x_to_px (const XrlabPlotFrame *frame, double x);
double xrlab_plot_frame_px_to_x (const XrlabPlotFrame *frame, double px);
double xrlab_plot_frame_y_to_py (const XrlabPlotFrame *frame, double y);

/* Checks once per process that PLplot can open its extcairo device (a trial
 * stream is opened and closed; PLplot's exit-on-error is intercepted during
 * the probe). When this fails, renderers draw the message instead of a
 * chart and never call PLplot. */
gboolean xrlab_plot_check_driver (GError **error);

typedef struct _XrlabPlotRenderer XrlabPlotRenderer;

XrlabPlotRenderer *xrlab_plot_renderer_new  (void);
void               xrlab_plot_renderer_free (XrlabPlotRenderer *renderer);

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

/* Whether a figure of @width x @height points (and, for PNG, @scale pixels
 * per point) can be written: 120 × 90 … 20000 × 20000, scale 0.25 … 8. */
gboolean xrlab_plot_output_check   (XrlabPlotFormat       format,
                                    int                   width,
                                    int                   height,
                                    double                scale,
                                    GError              **error);

/* Draws @scene as a PNG, SVG or PDF document and hands its bytes to
 * @write_func. @name names the output in error messages (a file's path). */
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
