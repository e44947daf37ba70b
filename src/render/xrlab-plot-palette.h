/* xrlab-plot-palette.h -- the colours of a plot, light and dark
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A colour with straight (not premultiplied) alpha, each channel in [0, 1]. */
typedef struct {
  double red, green, blue, alpha;
} XrlabPlotColor;

typedef struct {
  XrlabPlotColor bg;
  XrlabPlotColor fg;          /* tick labels, axis labels, legend text */
  XrlabPlotColor muted;       /* marker labels, exponent labels, messages */
  XrlabPlotColor frame;       /* axes box and ticks */
  XrlabPlotColor grid;
  XrlabPlotColor marker;      /* edge lines */
  XrlabPlotColor legend_bg;
  XrlabPlotColor watermark;
} XrlabPlotPalette;

/* The light palette matches libadwaita's view colours (view_bg_color,
 * view_fg_color), the dark one its dark style. */
const XrlabPlotPalette *xrlab_plot_palette_get (gboolean dark);

/* A curve's colour as drawn: colours chosen for a white background are
 * lifted on the dark one when they are dark, so they keep their contrast;
 * a stale curve is faded (55 % alpha). */
XrlabPlotColor xrlab_plot_series_color (const XrlabPlotColor *color,
                                        gboolean              dark,
                                        gboolean              stale);

G_END_DECLS
