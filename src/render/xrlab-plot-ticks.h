/* xrlab-plot-ticks.h -- tick positions and labels of a plot axis
 *
 * Plain arithmetic over GLib: no cairo, no PLplot. A linear axis gets major
 * ticks at 1, 2, 2.5 or 5 times a power of ten with four or five minor
 * ticks between them, and, when its values are very large or very small, a
 * common factor 10^exponent shown once beside the axis. A logarithmic axis
 * gets a major tick per decade (or every few decades on a long range) with
 * minor ticks at 2…9, labels also at 2 and 5 (or 2, 3 and 5) when there is
 * room or the range is about a decade, and falls back to linear ticks (at
 * least four labelled) on a range of less than a decade.
 *
 * Positions are world coordinates: the value on a linear axis, log10 of the
 * value on a logarithmic one. Labels are PLplot text: "#u" starts and "#d"
 * ends a superscript ("10#u−3#d" is 10⁻³), negative numbers and exponents
 * have the Unicode minus sign (U+2212), and an empty label means an
 * unlabelled tick.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define XRLAB_PLOT_MAX_TICKS 160

typedef struct {
  double   pos;          /* world coordinate (log10 of the value on a log axis) */
  gboolean major;
  char     label[48];    /* PLplot text; "" = no label */
} XrlabPlotTick;

typedef struct {
  XrlabPlotTick ticks[XRLAB_PLOT_MAX_TICKS];
  guint         n;
  int           exponent;  /* common factor 10^exponent of the labels, 0 = none */
} XrlabPlotTicks;

/* Ticks of a linear axis over the values [@lo, @hi], about @target major
 * ticks. With @map_log the ticks are placed at log10 of their values (and
 * values <= 0 are left out): the ticks of a log axis shorter than a decade.
 * With @use_exponent a range of values >= 1e5 or < 1e-2 is labelled in
 * units of 10^exponent (@ticks->exponent). Replaces the ticks in @ticks; at
 * most XRLAB_PLOT_MAX_TICKS are kept. */
void   xrlab_plot_ticks_linear (XrlabPlotTicks *ticks,
                                double          lo,
                                double          hi,
                                double          target,
                                gboolean        map_log,
                                gboolean        use_exponent);

/* Ticks of a logarithmic axis; @lo and @hi are log10 of the range, at most
 * about @max_major labelled decades. */
void   xrlab_plot_ticks_log    (XrlabPlotTicks *ticks,
                                double          lo,
                                double          hi,
                                double          max_major);

/* The step of about @raw rounded to 1, 2, 2.5 or 5 times a power of ten;
 * @norm_out gets that 1, 2, 2.5 or 5. */
double xrlab_plot_nice_step    (double          raw,
                                double         *norm_out);

/* Writes @v as a tick label: "%.Nf" with as many decimals as @step needs
 * when 1e-3 <= |v| < 1e5 (or v = 0), else "m×10#ue#d". */
void   xrlab_plot_format_tick_value (double  v,
                                     double  step,
                                     char   *buf,
                                     gsize   size);

G_END_DECLS
