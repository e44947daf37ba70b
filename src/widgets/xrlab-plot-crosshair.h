/* xrlab-plot-crosshair.h -- the crosshair of XrlabPlot: a vertical line at
 * an x value over a drawn frame, a dot where it meets each curve, and a
 * readout of every series' value there
 *
 * Drawn with cairo and Pango over the widget's cached frame, so moving the
 * pointer never re-runs PLplot.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "xrlab-plot-data.h"
#include "xrlab-plot-render.h"

G_BEGIN_DECLS

typedef struct {
  const XrlabPlotFrame *frame;   /* the frame drawn under it */
  const XrlabPlotData  *data;
  const char           *x_unit;  /* may be NULL */
  double                x;       /* data units; NaN: hidden */
  double                pointer_y;  /* widget pixels; NaN: no pointer */
  gboolean              dark;    /* the frame's palette */
} XrlabPlotCrosshair;

/* Draws the crosshair into @cr (widget coordinates); @widget gives the
 * readout its fonts. Nothing when it is hidden or outside the plot area. */
void  xrlab_plot_crosshair_draw    (const XrlabPlotCrosshair *crosshair,
                                    GtkWidget                *widget,
                                    cairo_t                  *cr);

/* Pinned readouts: a line, dots and a numbered readout box at each x of
 * @pins in the plot area, the boxes stacked clear of each other and of
 * the legend. */
void  xrlab_plot_crosshair_draw_pins (const XrlabPlotCrosshair *crosshair,
                                      const double             *pins,
                                      guint                     n_pins,
                                      GtkWidget                *widget,
                                      cairo_t                  *cr);

/* The readout as text: "x unit", then one line per series,
 * "label<TAB>value" ("" when hidden). Values are interpolated in log10 x
 * when @x_log. */
char *xrlab_plot_crosshair_readout (const XrlabPlotData *data,
                                    const char          *x_unit,
                                    double               x,
                                    gboolean             x_log);

G_END_DECLS
