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
 * renders to PNG, SVG and PDF files for export.
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
 * readout "value unit". @unit may be NULL or "". */
void           xrlab_plot_set_axes     (XrlabPlot  *self,
                                        const char *x_name,
                                        const char *x_unit,
                                        const char *y_name,
                                        const char *y_unit);

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

/* Statistics: number of PLplot renders and the duration of the last one;
 * the time from the last xrlab_plot_set_data() to the end of the frame that
 * showed it. */
guint          xrlab_plot_get_render_count   (XrlabPlot *self);
double         xrlab_plot_get_last_render_ms (XrlabPlot *self);
double         xrlab_plot_get_data_to_frame_ms (XrlabPlot *self);

G_END_DECLS
