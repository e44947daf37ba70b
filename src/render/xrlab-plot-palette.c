/* xrlab-plot-palette.c -- the colours of a plot, light and dark
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-plot-palette.h"

#include <math.h>

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

#define RGB(hex) { ((hex) >> 16 & 0xff) / 255.0, ((hex) >> 8 & 0xff) / 255.0, ((hex) & 0xff) / 255.0, 1.0 }

/* See xrlab-plot-palette.h; tests/test-plot-render.c checks the distances
 * and contrasts. */
static const XrlabPlotColor series_light[XRLAB_PLOT_N_SERIES_COLORS] = {
  RGB (0x0072b2),    /* Okabe–Ito blue */
  RGB (0xe69f00),    /* Okabe–Ito orange */
  RGB (0x009e73),    /* Okabe–Ito bluish green */
  RGB (0x000000),    /* Okabe–Ito black */
  RGB (0x882255),    /* Tol muted wine */
  RGB (0xcc3311),    /* Tol vibrant red */
  RGB (0x33bbee),    /* Tol vibrant cyan */
  RGB (0x332288),    /* Tol muted indigo */
  RGB (0xcc79a7),    /* Okabe–Ito reddish purple */
  RGB (0xee6677),    /* Tol bright red */
  RGB (0xaa3377),    /* Tol bright purple */
  RGB (0x228833),    /* Tol bright green */
};

static const XrlabPlotColor series_dark[XRLAB_PLOT_N_SERIES_COLORS] = {
  RGB (0x6689b1), RGB (0xd7a55b), RGB (0x2d8e6c), RGB (0x929292),
  RGB (0x8a6271), RGB (0xec512a), RGB (0x87abbf), RGB (0x7254da),
  RGB (0xc95499), RGB (0xbd4758), RGB (0xf4c1d8), RGB (0xa5d2a3),
};

XrlabPlotColor
xrlab_plot_palette_series (guint index)
{
  return series_light[index % XRLAB_PLOT_N_SERIES_COLORS];
}

XrlabPlotColor
xrlab_plot_palette_series_dark (guint index)
{
  return series_dark[index % XRLAB_PLOT_N_SERIES_COLORS];
}

int
xrlab_plot_palette_series_index (const XrlabPlotColor *c)
{
  for (int i = 0; i < XRLAB_PLOT_N_SERIES_COLORS; i++)
    {
      const XrlabPlotColor *p = &series_light[i];
      if (fabs (p->red - c->red) < 0.6 / 255 && fabs (p->green - c->green) < 0.6 / 255 &&
          fabs (p->blue - c->blue) < 0.6 / 255)
        return i;
    }
  return -1;
}

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
  int index = dark ? xrlab_plot_palette_series_index (c) : -1;

  if (index >= 0)
    {
      out = series_dark[index];
      out.alpha = c->alpha;
    }
  else if (dark)
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
