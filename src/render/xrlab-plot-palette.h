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

/* The curve colours: Okabe & Ito's eight (2008) with Paul Tol's (2021)
 * wine, vermilion, cyan, indigo, rose, purple and green in their place
 * among them, ordered so that each new colour is as far as possible from
 * the ones before it for normal vision and for protan, deutan and tritan
 * colour blindness (CIEDE2000 of Machado et al.'s 2009 simulations). The
 * 12 are at least 8 ΔE00 apart for all four, at least 2:1 in contrast
 * against white. Each has a dark-background variant chosen the same way
 * (at least 7 ΔE00 apart, 3:1 against the dark background), drawn in its
 * place on the dark palette. Past the 12th, colours repeat and line styles
 * tell the curves apart (XRLAB_PLOT_LINE_AUTO). */
#define XRLAB_PLOT_N_SERIES_COLORS 12

/* Colour @index of the light palette (modulo the number of colours). */
XrlabPlotColor xrlab_plot_palette_series (guint index);
/* Its dark-background variant. */
XrlabPlotColor xrlab_plot_palette_series_dark (guint index);
/* The palette index of @color (within 1/255 a channel), or -1. */
int            xrlab_plot_palette_series_index (const XrlabPlotColor *color);

/* A curve's colour as drawn: on the dark background a palette colour is
 * its dark variant, and another colour chosen for white is lifted when it
 * is dark, so it keeps its contrast; a stale curve is faded (55 % alpha). */
XrlabPlotColor xrlab_plot_series_color (const XrlabPlotColor *color,
                                        gboolean              dark,
                                        gboolean              stale);

G_END_DECLS
