/* xrlab-plot-raster.c -- curves on raster targets: a dense, jagged run
 * filled as the band it covers, a smooth one stroked through fewer points
 *
 * A measured spectrum or a residual of 1131 points on a plot 250 pixels
 * wide is a polyline that crosses every pixel column four or five times;
 * stroking it makes cairo scan-convert some 2000 overlapping, crossing
 * edges over the whole band (5–19 ms for one curve), and what it shows is
 * a band: in each column, everything between the lowest and the highest
 * point of the line. So such a run is drawn as that band directly: per
 * half-pixel column the range of the polyline (its points and where its
 * segments cross the column borders), widened by the line's pen (a disk
 * sampled at the columns), filled as one polygon of horizontal and vertical edges. Smooth curves and sparse ones
 * are stroked (see xrlab_plot_envelope_wanted()), through the points that
 * matter at the pixel size: a model peak of 1131 points is a polyline of a
 * few dozen within an eighth of a device pixel (xrlab_plot_simplify()).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-plot-render-private.h"

/* A run is jagged when its line travels up and down more than this many
 * device pixels per pixel column (a smooth peak travels its height twice
 * over the whole plot), and dense with at least this many points per
 * column. */
#define JAGGED_TRAVEL_PER_COLUMN 3.0
#define DENSE_POINTS_PER_COLUMN 2.0
#define SPARSE_POINTS_PER_COLUMN 0.5

XrlabPlotRunKind
xrlab_plot_run_kind (const double *ux, const double *uy, gsize m, double device_per_unit)
{
  double span, travel = 0;

  if (m < 16 || !(device_per_unit > 0))
    return XRLAB_PLOT_RUN_SMOOTH;
  span = fabs (ux[m - 1] - ux[0]) * device_per_unit;
  if (!(span > 0) || (double) m < SPARSE_POINTS_PER_COLUMN * span)
    return XRLAB_PLOT_RUN_SMOOTH;
  for (gsize i = 1; i < m; i++)
    travel += fabs (uy[i] - uy[i - 1]);
  if (!(travel * device_per_unit > JAGGED_TRAVEL_PER_COLUMN * span))
    return XRLAB_PLOT_RUN_SMOOTH;
  return (double) m >= DENSE_POINTS_PER_COLUMN * span ? XRLAB_PLOT_RUN_DENSE : XRLAB_PLOT_RUN_JAGGED;
}

static inline void
widen (double *lo, double *hi, gsize k, double y)
{
  if (y < lo[k])
    lo[k] = y;
  if (y > hi[k])
    hi[k] = y;
}

void
xrlab_plot_envelope_fill (cairo_t *cr, const double *ux, const double *uy, gsize m,
                          double half_width, double device_per_unit,
                          double x_min, double x_max, double y_min, double y_max)
{
  /* columns half a device pixel wide, from x_min */
  double cw = 0.5 / device_per_unit;
  gboolean up = ux[m - 1] >= ux[0];
  double first = up ? ux[0] : ux[m - 1], last = up ? ux[m - 1] : ux[0];
  double x0 = MAX (first - half_width, x_min), x1 = MIN (last + half_width, x_max);
  gssize k0, k1, n, kd;
  double *lo, *hi, *dlo, *dhi;

  if (!(x1 > x0) || !(cw > 0))
    return;
  k0 = (gssize) floor ((x0 - x_min) / cw);
  k1 = (gssize) floor ((x1 - x_min) / cw);
  n = k1 - k0 + 1;
  if (n <= 0 || n > (1 << 20))
    return;
  lo = g_new (double, 4 * (gsize) n);
  hi = lo + n;
  dlo = hi + n;
  dhi = dlo + n;
  for (gssize k = 0; k < n; k++)
    {
      lo[k] = INFINITY;
      hi[k] = -INFINITY;
    }
  /* the points, and the segments where they cross column borders */
  for (gsize s = 0; s < m; s++)
    {
      gsize i = up ? s : m - 1 - s;
      double c = floor ((ux[i] - x_min) / cw);
      gssize k = (gssize) c - k0;

      if (k >= 0 && k < n)
        widen (lo, hi, k, uy[i]);
      if (s + 1 < m)
        {
          gsize j = up ? s + 1 : m - 2 - s;
          gssize b0 = (gssize) c + 1, b1 = (gssize) floor ((ux[j] - x_min) / cw);

          for (gssize b = MAX (b0, k0); b <= MIN (b1, k1); b++)
            {
              double xb = x_min + (double) b * cw;
              double t = (xb - ux[i]) / (ux[j] - ux[i]);
              double yb = uy[i] + (uy[j] - uy[i]) * CLAMP (t, 0.0, 1.0);

              widen (lo, hi, b - k0, yb);
              if (b - k0 - 1 >= 0)
                widen (lo, hi, b - k0 - 1, yb);
            }
        }
    }
  /* the pen, a disk: a column reaches @half_width up and down, its
   * neighbours q columns away √(half_width² − (q·cw)²) */
  kd = MIN ((gssize) floor (half_width / cw), 64);
  for (gssize k = 0; k < n; k++)
    {
      double a = INFINITY, z = -INFINITY;

      for (gssize q = MAX (k - kd, 0); q <= MIN (k + kd, n - 1); q++)
        {
          double dx = (double) (q - k) * cw;
          double reach = sqrt (MAX (half_width * half_width - dx * dx, 0.0));

          a = MIN (a, lo[q] - reach);
          z = MAX (z, hi[q] + reach);
        }
      dlo[k] = isfinite (a) ? CLAMP (a, y_min, y_max) : NAN;
      dhi[k] = isfinite (z) ? CLAMP (z, y_min, y_max) : NAN;
    }
  /* the outline: along the low side left to right, back along the high
   * side; each stretch of columns with a value is one polygon */
  for (gssize k = 0; k < n;)
    {
      gssize e = k;

      if (isnan (dlo[k]))
        {
          k++;
          continue;
        }
      while (e + 1 < n && !isnan (dlo[e + 1]))
        e++;
      for (gssize q = k; q <= e; q++)
        {
          double xa = MAX (x_min + (double) (q + k0) * cw, x0);
          double xz = MIN (x_min + (double) (q + k0 + 1) * cw, x1);

          if (q == k)
            cairo_move_to (cr, xa, dlo[q]);
          else
            cairo_line_to (cr, xa, dlo[q]);
          cairo_line_to (cr, xz, dlo[q]);
        }
      for (gssize q = e; q >= k; q--)
        {
          double xa = MAX (x_min + (double) (q + k0) * cw, x0);
          double xz = MIN (x_min + (double) (q + k0 + 1) * cw, x1);

          cairo_line_to (cr, xz, dhi[q]);
          cairo_line_to (cr, xa, dhi[q]);
        }
      cairo_close_path (cr);
      k = e + 1;
    }
  cairo_set_fill_rule (cr, CAIRO_FILL_RULE_WINDING);
  cairo_fill (cr);
  g_free (lo);
}

/* ---- simplification ----------------------------------------------------------- */

/* The distance from (@x, @y) to the segment (@ax, @ay)–(@bx, @by), squared. */
static inline double
segment_distance2 (double x, double y, double ax, double ay, double bx, double by)
{
  double dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy;
  double t = len2 > 0 ? ((x - ax) * dx + (y - ay) * dy) / len2 : 0;

  t = CLAMP (t, 0.0, 1.0);
  dx = ax + t * dx - x;
  dy = ay + t * dy - y;
  return dx * dx + dy * dy;
}

/* Whether the points strictly between @a and @b lie within √@tol2 of the
 * segment from @a to @b. */
static gboolean
span_fits (const double *ux, const double *uy, gsize a, gsize b, double tol2)
{
  for (gsize i = a + 1; i < b; i++)
    if (!(segment_distance2 (ux[i], uy[i], ux[a], uy[a], ux[b], uy[b]) <= tol2))
      return FALSE;
  return TRUE;
}

/* Longest span tried from one kept point. */
#define MAX_SPAN 48

/* The span from @a a segment may take: the directions from point @a that
 * pass within √@tol2 of every point so far form a cone, narrowed by each
 * point in turn (two direction vectors, tested by cross products, a square
 * root a point); the last point whose direction is still in the cone ends
 * it. Returns that point's index, at least a + 1. */
static gsize
cone_span (const double *ux, const double *uy, gsize a, gsize m, double tol2)
{
  double lo_x = 0, lo_y = 0, hi_x = 0, hi_y = 0;
  gboolean open = FALSE;
  gsize b = a + 1;

  for (gsize i = a + 1; i < m && i - a <= MAX_SPAN; i++)
    {
      double dx = ux[i] - ux[a], dy = uy[i] - uy[a], d2 = dx * dx + dy * dy;
      double d, s, c, qx, qy;

      if (d2 <= tol2)
        {
          /* within the tolerance of @a: no direction of its own */
          b = i;
          continue;
        }
      /* the point as an end: its direction inside the cone so far */
      if (open && !(lo_x * dy - lo_y * dx >= 0 && dx * hi_y - dy * hi_x >= 0))
        break;
      b = i;
      /* the directions within asin(tol/d) of it */
      d = sqrt (d2);
      s = sqrt (tol2) / d;
      c = sqrt (1.0 - s * s);
      qx = dx / d;
      qy = dy / d;
      {
        double lx = qx * c + qy * s, ly = qy * c - qx * s;   /* turned by −δ */
        double hx = qx * c - qy * s, hy = qy * c + qx * s;   /* by +δ */

        if (!open)
          {
            lo_x = lx, lo_y = ly, hi_x = hx, hi_y = hy;
            open = TRUE;
          }
        else
          {
            if (lo_x * ly - lo_y * lx > 0)     /* the new bound is further round */
              lo_x = lx, lo_y = ly;
            if (hx * hi_y - hy * hi_x > 0)
              hi_x = hx, hi_y = hy;
            if (lo_x * hi_y - lo_y * hi_x < 0)  /* empty */
              break;
          }
      }
    }
  return b;
}

gsize
xrlab_plot_simplify (double *ux, double *uy, double *wx, double *wy, gsize m, double tolerance)
{
  double tol2 = tolerance * tolerance;
  gsize out = 1, a = 0;

  if (m < 3 || !(tolerance > 0))
    return m;
  while (a + 1 < m)
    {
      /* the cone's span, checked against the segment itself (a point past
       * an end is nearer the end than the line); where it does not fit,
       * the longest span that does, point by point */
      gsize b = cone_span (ux, uy, a, m, tol2);

      if (!span_fits (ux, uy, a, b, tol2))
        {
          b = a + 1;
          while (b + 1 < m && b + 1 - a <= MAX_SPAN && span_fits (ux, uy, a, b + 1, tol2))
            b++;
        }
      ux[out] = ux[b];
      uy[out] = uy[b];
      wx[out] = wx[b];
      wy[out] = wy[b];
      out++;
      a = b;
    }
  return out;
}
