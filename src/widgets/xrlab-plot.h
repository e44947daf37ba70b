/* xrlab-plot.h -- a PLplot chart in a GtkDrawingArea
 *
 * XrlabPlot draws XrlabPlotData with the plot renderer (xrlab-plot-render.h,
 * PLplot's extcairo driver): one renderer, so one PLplot stream, per widget,
 * every PLplot call on the main thread. Log or linear axes with readable
 * ticks, axis labels with units, a legend in the series' colours, stale
 * series dashed and faded, vertical markers (absorption edges) labelled
 * along the x axis, a crosshair that reads every series out at the pointer,
 * light and dark palettes that follow AdwStyleManager. The frame is
 * rendered once per change into an offscreen surface; the crosshair is drawn
 * over it, so moving the pointer never re-runs PLplot. The same drawing code
 * renders to PNG, SVG and PDF files for export, at a physical size
 * (xrlab_plot_export_figure()).
 *
 * Every XrlabPlot can be explored -- zoom, pan, typed axis limits, pinned
 * readouts, a context menu and plot.* actions (see "the view" below) --
 * and keeps its view through new data; a container saves it with
 * xrlab_plot_get_x_limits(), xrlab_plot_get_pins() and "view-changed".
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "xrlab-plot-data.h"
/* The error domain XRLAB_PLOT_ERROR, XrlabPlotFormat and
 * xrlab_plot_check_driver() */
#include "xrlab-plot-render.h"

G_BEGIN_DECLS

#define XRLAB_TYPE_PLOT (xrlab_plot_get_type ())
G_DECLARE_FINAL_TYPE (XrlabPlot, xrlab_plot, XRLAB, PLOT, GtkDrawingArea)

GtkWidget     *xrlab_plot_new          (void);

void           xrlab_plot_set_data     (XrlabPlot     *self,
                                        XrlabPlotData *data);
XrlabPlotData *xrlab_plot_get_data     (XrlabPlot     *self);

/* Axis names and units: the axis label reads "name (unit)", the crosshair
 * readout "value unit". @unit may be NULL or "". A change of an axis' name
 * or unit drops that axis' limits (and, for x, the pins). */
void           xrlab_plot_set_axes     (XrlabPlot  *self,
                                        const char *x_name,
                                        const char *x_unit,
                                        const char *y_name,
                                        const char *y_unit);
/* The x axis' unit as set ("" when none). */
const char    *xrlab_plot_get_x_unit   (XrlabPlot  *self);
/* The y quantity's symbol ("δ"), for notes on the plot; may be NULL. */
void           xrlab_plot_set_y_symbol (XrlabPlot  *self,
                                        const char *symbol);

void           xrlab_plot_set_x_log    (XrlabPlot *self, gboolean x_log);
gboolean       xrlab_plot_get_x_log    (XrlabPlot *self);
void           xrlab_plot_set_y_log    (XrlabPlot *self, gboolean y_log);
gboolean       xrlab_plot_get_y_log    (XrlabPlot *self);

/* Vertical markers (copied); markers outside the x range are not drawn. */
void           xrlab_plot_set_markers  (XrlabPlot             *self,
                                        const XrlabPlotMarker *markers,
                                        guint                  n_markers);
guint          xrlab_plot_get_n_markers (XrlabPlot *self);

/* Faint text across the plot area (also in exported files). */
void           xrlab_plot_set_watermark (XrlabPlot *self, const char *text);
/* A note of the caller's under the plot, first of its notes (also in
 * exported files): where the curves come from ("Henke tables"). */
void           xrlab_plot_set_note      (XrlabPlot *self, const char *text);
const char    *xrlab_plot_get_note      (XrlabPlot *self);
/* Shown instead of the chart when there is nothing to draw. */
void           xrlab_plot_set_message   (XrlabPlot *self, const char *text);
/* Small monospace text in the top-right corner (debug statistics). */
void           xrlab_plot_set_overlay_text (XrlabPlot *self, const char *text);

void           xrlab_plot_set_dark      (XrlabPlot *self, gboolean dark);
gboolean       xrlab_plot_get_dark      (XrlabPlot *self);
void           xrlab_plot_set_follow_style (XrlabPlot *self, gboolean follow);

/* Properties "line-width" (pixels, 0.5 … 8), "show-markers" and
 * "show-legend", for g_settings_bind(). */
void           xrlab_plot_set_line_width (XrlabPlot *self, double width_px);
double         xrlab_plot_get_line_width (XrlabPlot *self);
void           xrlab_plot_set_show_markers (XrlabPlot *self, gboolean show);
gboolean       xrlab_plot_get_show_markers (XrlabPlot *self);
void           xrlab_plot_set_show_legend (XrlabPlot *self, gboolean show);
gboolean       xrlab_plot_get_show_legend (XrlabPlot *self);

/* Moves the crosshair to @x in data units (NaN hides it), as the pointer
 * does. Returns the readout text shown next to it ("" when hidden): the x
 * value, then one line per series, "label<TAB>value". */
void           xrlab_plot_set_crosshair (XrlabPlot *self, double x);
char          *xrlab_plot_get_readout   (XrlabPlot *self);

/* Renders the chart at @width x @height (cairo units) into @cr, with the
 * light or dark palette. Used for the widget, for export and by tests. */
gboolean       xrlab_plot_render        (XrlabPlot *self,
                                         cairo_t   *cr,
                                         int        width,
                                         int        height,
                                         gboolean   dark,
                                         GError   **error);

/* Writes the chart to @path (atomically) as PNG, SVG or PDF at @width x
 * @height points; PNG pixels are @scale times that. */
gboolean       xrlab_plot_export        (XrlabPlot       *self,
                                         const char      *path,
                                         XrlabPlotFormat  format,
                                         int              width,
                                         int              height,
                                         double           scale,
                                         gboolean         dark,
                                         GError         **error);

/* A figure for a paper: the page (size in points, PNG resolution), type
 * and line sizes in points (0: 9 pt and half the screen's width), the
 * palette. The view is exported as shown (zoomed or not); the crosshair
 * and the pins are not. */
typedef struct {
  XrlabPlotPage page;
  double        font_size_pt;
  double        line_width_pt;
  gboolean      dark;
} XrlabPlotFigure;

/* Writes the chart to @path (atomically) as @figure says. */
gboolean       xrlab_plot_export_figure (XrlabPlot             *self,
                                         const char            *path,
                                         const XrlabPlotFigure *figure,
                                         GError               **error);

/* @figure drawn at most @max_width x @max_height pixels (its page scaled
 * down, the layout the export's), for a preview. */
GdkTexture    *xrlab_plot_render_figure_preview (XrlabPlot             *self,
                                                 const XrlabPlotFigure *figure,
                                                 int                    max_width,
                                                 int                    max_height);

/* ---- the view: zoom, pan, pins (xrlab-plot-input.c) ----
 *
 * Input: the scroll wheel zooms x about the pointer (Shift: y, Ctrl: both);
 * dragging with the primary button zooms to the rectangle (a flat one: x
 * only, a narrow one: y only); the middle button, or Space with the primary
 * one, pans; a double click, Home or the Reset View button returns to the
 * automatic limits; a click pins the crosshair's readout there (a click on
 * a pin removes it); a click under the x axis or left of the y axis opens
 * a popover to type that axis' limits; the secondary button opens a menu of
 * the actions below. The view survives new data; "view-changed" tells when
 * it (or a pin) changes.
 *
 * Actions (group "plot"): plot.reset-view, plot.zoom-in, plot.zoom-out,
 * plot.set-x-limits, plot.set-y-limits, plot.copy-pins, plot.clear-pins. */

/* Limits of an axis in data units; @min >= @max (or NaN) = automatic.
 * get_* return whether the axis has limits of its own; NULL outputs are
 * allowed. */
void           xrlab_plot_set_x_limits  (XrlabPlot *self, double min, double max);
void           xrlab_plot_set_y_limits  (XrlabPlot *self, double min, double max);
gboolean       xrlab_plot_get_x_limits  (XrlabPlot *self, double *min, double *max);
gboolean       xrlab_plot_get_y_limits  (XrlabPlot *self, double *min, double *max);
/* Whether either axis has limits of its own (property "zoomed"). */
gboolean       xrlab_plot_get_zoomed    (XrlabPlot *self);
/* Both axes automatic again. */
void           xrlab_plot_reset_view    (XrlabPlot *self);
/* Zooms by @factor_x, @factor_y (> 1: in; 1: that axis unchanged) about
 * the point (@px, @py) in widget pixels, as the scroll wheel does. FALSE
 * when no chart is shown. */
gboolean       xrlab_plot_zoom_at       (XrlabPlot *self, double factor_x, double factor_y,
                                         double px, double py);
/* Moves the view by (@dx, @dy) widget pixels, as a drag does. */
gboolean       xrlab_plot_pan           (XrlabPlot *self, double dx, double dy);
/* Zooms to the rectangle between two points in widget pixels. */
gboolean       xrlab_plot_zoom_to_rect  (XrlabPlot *self, double px0, double py0,
                                         double px1, double py1);

/* Pinned readouts at x values (data units), in the order pinned. */
void           xrlab_plot_add_pin       (XrlabPlot *self, double x);
void           xrlab_plot_remove_pin    (XrlabPlot *self, guint index);
void           xrlab_plot_clear_pins    (XrlabPlot *self);
void           xrlab_plot_set_pins      (XrlabPlot *self, const double *x, guint n);
const double  *xrlab_plot_get_pins      (XrlabPlot *self, guint *n);
/* The pins' values as a table: a header "x name (unit)", one column per
 * series, then a row per pin, by x; fields separated by @separator
 * ('\t' or ','; CSV fields quoted as needed), numbers with '.' and up to
 * 6 significant digits ("" where a series has no value). NULL without
 * pins. */
char          *xrlab_plot_get_pins_table (XrlabPlot *self, char separator);

/* Where the last frame put its plot area and what range it showed (for
 * input of a container, overlays, tests); valid is FALSE before the first
 * chart. */
const XrlabPlotFrame *xrlab_plot_get_frame (XrlabPlot *self);

/* Statistics: number of PLplot renders and the duration of the last one;
 * the time from the last xrlab_plot_set_data() to the end of the frame that
 * showed it. */
guint          xrlab_plot_get_render_count   (XrlabPlot *self);
double         xrlab_plot_get_last_render_ms (XrlabPlot *self);
double         xrlab_plot_get_data_to_frame_ms (XrlabPlot *self);
/* Whether the last frame kept the layers under and over the live curves
 * (xrlab_plot_data_set_live()): only those curves were drawn. */
gboolean       xrlab_plot_get_layers_kept (XrlabPlot *self);
/* The x axis drawn from high values on the left to low ones on the right
 * (binding energies): ticks, crosshair, zoom and pan follow. */
void           xrlab_plot_set_x_reversed (XrlabPlot *self, gboolean reversed);
gboolean       xrlab_plot_get_x_reversed (XrlabPlot *self);
/* Whether a change waits for the next frame to be drawn. */
gboolean       xrlab_plot_get_redraw_pending (XrlabPlot *self);

G_END_DECLS
