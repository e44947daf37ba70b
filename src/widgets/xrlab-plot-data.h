/* xrlab-plot-data.h -- what an XrlabPlot draws: series over a shared x axis
 *
 * The arrays are borrowed. They usually point into one reply buffer (the
 * engine hands every array a plot needs over as one allocation); the plot
 * data keeps that buffer alive with xrlab_plot_data_take_buffer() and frees it
 * with the last reference, so nothing is copied between the reply and the
 * frame.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gdk/gdk.h>

#include "xrlab-plot-render.h"   /* XrlabPlotMarker */

G_BEGIN_DECLS

typedef struct {
  char          *label;     /* legend text (UTF-8, owned) */
  GdkRGBA        color;
  const double  *x;         /* borrowed, @n values, strictly monotonic */
  const double  *y;         /* borrowed, @n values; NaN = gap */
  gsize          n;
  gboolean       stale;     /* last valid curve of an input that is now invalid */
  double         y_scale;   /* shown value = y[i] × y_scale (display units) */
  gboolean       live;      /* its values change often (a model previewed) */
} XrlabPlotSeries;

typedef struct _XrlabPlotData XrlabPlotData;

#define XRLAB_TYPE_PLOT_DATA (xrlab_plot_data_get_type ())
GType xrlab_plot_data_get_type (void) G_GNUC_CONST;

XrlabPlotData *xrlab_plot_data_new   (void);
XrlabPlotData *xrlab_plot_data_ref   (XrlabPlotData *data);
void           xrlab_plot_data_unref (XrlabPlotData *data);

/* Keeps @buffer alive until the last reference is dropped, then calls
 * @free_func on it. May be called several times (one reply buffer, plus an
 * older XrlabPlotData whose stale curves are still shown). */
void xrlab_plot_data_take_buffer (XrlabPlotData  *data,
                                  gpointer        buffer,
                                  GDestroyNotify  free_func);

/* Appends a series. @x and @y are borrowed: they must stay valid as long as
 * @data lives (put their owner in with xrlab_plot_data_take_buffer()). */
void xrlab_plot_data_add_series (XrlabPlotData *data,
                                 const char    *label,
                                 const GdkRGBA *color,
                                 const double  *x,
                                 const double  *y,
                                 gsize          n,
                                 gboolean       stale);

/* The same, with the y values shown multiplied by @y_scale (cm shown as
 * µm: 1e4), so a reply buffer in the engine's units is drawn as it is. */
void xrlab_plot_data_add_series_scaled (XrlabPlotData *data,
                                        const char    *label,
                                        const GdkRGBA *color,
                                        const double  *x,
                                        const double  *y,
                                        gsize          n,
                                        gboolean       stale,
                                        double         y_scale);

/* Marks series @i live: a plot given new data that differ from its old
 * data only in the values of live series draws just those again, between
 * the layers it kept. */
void xrlab_plot_data_set_live (XrlabPlotData *data,
                               guint          i,
                               gboolean       live);

/* Whether @a and @b differ at most in the y values of their live series:
 * the same series (labels, colours, flags, sizes, scales), the same x
 * values, the same y values of the other series. */
gboolean xrlab_plot_data_same_static (const XrlabPlotData *a,
                                      const XrlabPlotData *b);

guint                  xrlab_plot_data_get_n_series (const XrlabPlotData *data);
const XrlabPlotSeries *xrlab_plot_data_get_series   (const XrlabPlotData *data,
                                                     guint                i);

/* The shown value of point @i (y[i] × y_scale). */
static inline double
xrlab_plot_series_y (const XrlabPlotSeries *series, gsize i)
{
  return series->y[i] * series->y_scale;
}

/* The series' colour in the renderer's terms (xrlab-plot-render.h). */
static inline XrlabPlotColor
xrlab_plot_series_get_color (const XrlabPlotSeries *series)
{
  return (XrlabPlotColor) { series->color.red, series->color.green,
                            series->color.blue, series->color.alpha };
}

/* Interpolates series @i at @x (shown values), linearly in x (or in log10 x when @x_log),
 * across the finite neighbours only. Returns NaN outside the series' range
 * or when a neighbour is a gap. */
double xrlab_plot_series_value_at (const XrlabPlotSeries *series,
                                   double                 x,
                                   gboolean               x_log);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (XrlabPlotData, xrlab_plot_data_unref)

G_END_DECLS
