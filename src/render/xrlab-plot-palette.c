/* xrlab-plot-palette.c -- the colours of a plot, light and dark
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-plot-palette.h"

static const XrlabPlotPalette light_palette = {
  .bg        = { 1.000, 1.000, 1.000, 1.0 },
  .fg        = { 0.137, 0.137, 0.137, 1.0 },
  .muted     = { 0.380, 0.380, 0.400, 1.0 },
  .frame     = { 0.350, 0.350, 0.360, 1.0 },
  .grid      = { 0.000, 0.000, 0.000, 0.085 },
  .marker    = { 0.420, 0.420, 0.470, 0.60 },
  .legend_bg = { 1.000, 1.000, 1.000, 0.88 },
  .watermark = { 0.750, 0.110, 0.157, 0.22 },
};

static const XrlabPlotPalette dark_palette = {
  .bg        = { 0.118, 0.118, 0.118, 1.0 },
  .fg        = { 0.925, 0.925, 0.925, 1.0 },
  .muted     = { 0.680, 0.680, 0.700, 1.0 },
  .frame     = { 0.700, 0.700, 0.720, 1.0 },
  .grid      = { 1.000, 1.000, 1.000, 0.095 },
  .marker    = { 0.700, 0.700, 0.760, 0.55 },
  .legend_bg = { 0.160, 0.160, 0.160, 0.90 },
  .watermark = { 0.965, 0.380, 0.318, 0.26 },
};

const XrlabPlotPalette *
xrlab_plot_palette_get (gboolean dark)
{
  return dark ? &dark_palette : &light_palette;
}

XrlabPlotColor
xrlab_plot_series_color (const XrlabPlotColor *c,
                         gboolean              dark,
                         gboolean              stale)
{
  XrlabPlotColor out = *c;

  if (dark)
    {
      double lum = 0.2126 * c->red + 0.7152 * c->green + 0.0722 * c->blue;
      if (lum < 0.45)
        {
          double t = MIN (0.45, (0.45 - lum) * 1.2);
          out.red += (1 - out.red) * t;
          out.green += (1 - out.green) * t;
          out.blue += (1 - out.blue) * t;
        }
    }
  if (stale)
    out.alpha *= 0.55;
  return out;
}
