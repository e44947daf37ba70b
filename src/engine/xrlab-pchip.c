/* xrlab-pchip.c -- monotone piecewise cubic Hermite interpolation
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-pchip.h"

#include <math.h>

#include <glib/gi18n-lib.h>

G_DEFINE_QUARK (xrlab-pchip-error-quark, xrlab_pchip_error)

/* One cubic piece: y = ((c0 s + c1) s + c2) s + c3, s = x - start. */
typedef struct {
  double c0, c1, c2, c3;
} Piece;

struct _XrlabPchip {
  gsize n_intervals;   /* m */
  gsize n_segments;
  double *bp;          /* m + 1: the start of each piece, then x_max */
  Piece *pieces;       /* m */
};

static inline double
sign (double v)
{
  return (v > 0) - (v < 0);
}

/* SciPy's PchipInterpolator._edge_case. */
static double
edge_slope (double h0, double h1, double m0, double m1)
{
  double d = ((2 * h0 + h1) * m0 - h0 * m1) / (h0 + h1);

  if (sign (d) != sign (m0))
    return 0.0;
  if (sign (m0) != sign (m1) && fabs (d) > 3.0 * fabs (m0))
    return 3.0 * m0;
  return d;
}

/* Slopes d[0..n-1] of one segment of n >= 2 points (SciPy's
 * PchipInterpolator._find_derivatives). */
static void
segment_slopes (const double *x, const double *y, gsize n, double *d)
{
  if (n == 2)
    {
      double m = (y[1] - y[0]) / (x[1] - x[0]);
      d[0] = d[1] = m;
      return;
    }
  for (gsize k = 1; k + 1 < n; k++)
    {
      double h0 = x[k] - x[k - 1], h1 = x[k + 1] - x[k];
      double m0 = (y[k] - y[k - 1]) / h0, m1 = (y[k + 1] - y[k]) / h1;

      if (sign (m1) != sign (m0) || m1 == 0 || m0 == 0)
        d[k] = 0.0;
      else
        {
          double w1 = 2 * h1 + h0, w2 = h1 + 2 * h0;
          double whmean = (w1 / m0 + w2 / m1) / (w1 + w2);
          d[k] = 1.0 / whmean;
        }
    }
  {
    double h0 = x[1] - x[0], h1 = x[2] - x[1];
    double m0 = (y[1] - y[0]) / h0, m1 = (y[2] - y[1]) / h1;
    d[0] = edge_slope (h0, h1, m0, m1);
  }
  {
    double h0 = x[n - 1] - x[n - 2], h1 = x[n - 2] - x[n - 3];
    double m0 = (y[n - 1] - y[n - 2]) / h0, m1 = (y[n - 2] - y[n - 3]) / h1;
    d[n - 1] = edge_slope (h0, h1, m0, m1);
  }
}

/* SciPy's CubicHermiteSpline coefficients of the interval [x0, x1]. */
static Piece
hermite_piece (double x0, double x1, double y0, double y1, double d0, double d1)
{
  double dx = x1 - x0;
  double slope = (y1 - y0) / dx;
  double t = (d0 + d1 - 2 * slope) / dx;
  Piece p;

  p.c0 = t / dx;
  p.c1 = (slope - d0) / dx - t;
  p.c2 = d0;
  p.c3 = y0;
  return p;
}

/* At least 2 points, all finite. */
static gboolean
check_points (const double *x, const double *y, gsize n, GError **error)
{
  if (n < 2)
    {
      g_set_error (error, XRLAB_PCHIP_ERROR, XRLAB_PCHIP_ERROR_DATA,
                   _("Interpolation needs at least 2 points, got %zu"), n);
      return FALSE;
    }
  for (gsize i = 0; i < n; i++)
    if (!isfinite (x[i]) || !isfinite (y[i]))
      {
        g_set_error (error, XRLAB_PCHIP_ERROR, XRLAB_PCHIP_ERROR_DATA,
                     _("Point %zu of the interpolation data is not a finite number"),
                     i + 1);
        return FALSE;
      }
  return TRUE;
}

/* Appends the PCHIP pieces of the run x[0..n-1] (n >= 2) at p->pieces[*m]. */
static void
append_run (XrlabPchip *p, gsize *m, const double *x, const double *y, gsize n, double *d)
{
  segment_slopes (x, y, n, d);
  for (gsize k = 0; k + 1 < n; k++)
    {
      p->bp[*m] = x[k];
      p->pieces[*m] = hermite_piece (x[k], x[k + 1], y[k], y[k + 1], d[k], d[k + 1]);
      (*m)++;
    }
  p->bp[*m] = x[n - 1];
}

XrlabPchip *
xrlab_pchip_new (const double *x, const double *y, gsize n, GError **error)
{
  g_autoptr(XrlabPchip) p = NULL;
  g_autofree double *d = NULL;
  gsize m = 0, start = 0;

  if (!check_points (x, y, n, error))
    return NULL;
  if (!(x[1] > x[0]))
    {
      g_set_error (error, XRLAB_PCHIP_ERROR, XRLAB_PCHIP_ERROR_DATA,
                   _("Interpolation data must start with at least 2 increasing points"));
      return NULL;
    }

  p = g_new0 (XrlabPchip, 1);
  /* At most n - 1 pieces, plus one for a final single-point segment. */
  p->bp = g_new (double, n + 1);
  p->pieces = g_new (Piece, n);
  d = g_new (double, n);

  while (start < n)
    {
      gsize end = start + 1;   /* one past the segment */

      while (end < n && x[end] > x[end - 1])
        end++;
      p->n_segments++;

      /* Drop the pieces of earlier segments that start at or beyond this one. */
      while (m > 0 && p->bp[m - 1] >= x[start])
        m--;

      if (end - start == 1)
        {
          p->bp[m] = x[start];
          p->pieces[m] = (Piece) { 0.0, 0.0, 0.0, y[start] };
          m++;
          p->bp[m] = x[start];
        }
      else
        append_run (p, &m, x + start, y + start, end - start, d);
      start = end;
    }
  p->n_intervals = m;
  return g_steal_pointer (&p);
}

XrlabPchip *
xrlab_pchip_new_split (const double *x, const double *y, gsize n,
                       const gsize *breaks, gsize n_breaks, GError **error)
{
  g_autoptr(XrlabPchip) p = NULL;
  g_autofree double *d = NULL;
  gsize m = 0, start = 0, b = 0;

  if (!check_points (x, y, n, error))
    return NULL;
  for (gsize i = 0; i < n_breaks; i++)
    if (breaks[i] + 1 >= n || (i > 0 && breaks[i] <= breaks[i - 1]))
      {
        g_set_error (error, XRLAB_PCHIP_ERROR, XRLAB_PCHIP_ERROR_DATA,
                     _("Interpolation break %zu (row %zu) is out of order or beyond the last row"),
                     i + 1, breaks[i] + 1);
        return NULL;
      }
  for (gsize i = 0; i + 1 < n; i++)
    {
      gboolean at_break = FALSE;

      while (b < n_breaks && breaks[b] < i)
        b++;
      at_break = b < n_breaks && breaks[b] == i;
      if (!(x[i + 1] > x[i]) && !(at_break && x[i + 1] == x[i]))
        {
          g_set_error (error, XRLAB_PCHIP_ERROR, XRLAB_PCHIP_ERROR_DATA,
                       _("Interpolation data must increase: point %zu (%g) follows %g"),
                       i + 2, x[i + 1], x[i]);
          return NULL;
        }
    }

  p = g_new0 (XrlabPchip, 1);
  p->bp = g_new (double, n);
  p->pieces = g_new (Piece, n);
  d = g_new (double, n);
  p->n_segments = n_breaks + 1;
  p->bp[0] = x[0];
  for (b = 0; b <= n_breaks; b++)
    {
      gsize end = (b < n_breaks) ? breaks[b] : n - 1;   /* last row of the run */

      if (end > start)
        append_run (p, &m, x + start, y + start, end - start + 1, d);
      if (b < n_breaks && x[end + 1] > x[end])
        {
          /* The edge: the straight line between its two rows. */
          double slope = (y[end + 1] - y[end]) / (x[end + 1] - x[end]);
          p->bp[m] = x[end];
          p->pieces[m] = (Piece) { 0.0, 0.0, slope, y[end] };
          m++;
          p->bp[m] = x[end + 1];
        }
      start = end + 1;
    }
  if (m == 0)
    {
      /* Only zero-width breaks between single rows: a step function. */
      g_set_error (error, XRLAB_PCHIP_ERROR, XRLAB_PCHIP_ERROR_DATA,
                   _("Interpolation data span no interval"));
      return NULL;
    }
  p->n_intervals = m;
  return g_steal_pointer (&p);
}

void
xrlab_pchip_free (XrlabPchip *pchip)
{
  if (pchip == NULL)
    return;
  g_free (pchip->bp);
  g_free (pchip->pieces);
  g_free (pchip);
}

double
xrlab_pchip_get_x_min (const XrlabPchip *pchip)
{
  return pchip->bp[0];
}

double
xrlab_pchip_get_x_max (const XrlabPchip *pchip)
{
  return pchip->bp[pchip->n_intervals];
}

gsize
xrlab_pchip_get_n_segments (const XrlabPchip *pchip)
{
  return pchip->n_segments;
}

gsize
xrlab_pchip_get_n_intervals (const XrlabPchip *pchip)
{
  return pchip->n_intervals;
}

/* The largest k < m with bp[k] <= x, for bp[0] <= x <= bp[m]. */
static inline gsize
find_interval (const double *bp, gsize m, double x, gsize hint)
{
  gsize lo, hi;

  if (hint < m && bp[hint] <= x)
    {
      if (hint + 1 == m || x < bp[hint + 1])
        return hint;
      if (hint + 2 == m || (hint + 2 < m && x < bp[hint + 2]))
        return hint + 1;
      lo = hint + 1;
      hi = m - 1;
    }
  else
    {
      lo = 0;
      hi = (hint < m) ? hint : m - 1;
    }
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo + 1) / 2;
      if (bp[mid] <= x)
        lo = mid;
      else
        hi = mid - 1;
    }
  return lo;
}

double
xrlab_pchip_eval (const XrlabPchip *pchip, double x, gsize *hint)
{
  const gsize m = pchip->n_intervals;
  const Piece *pc;
  gsize k;
  double s;

  if (!(x >= pchip->bp[0] && x <= pchip->bp[m]))
    return NAN;
  k = find_interval (pchip->bp, m, x, hint ? *hint : 0);
  if (hint)
    *hint = k;
  pc = &pchip->pieces[k];
  s = x - pchip->bp[k];
  return ((pc->c0 * s + pc->c1) * s + pc->c2) * s + pc->c3;
}

void
xrlab_pchip_eval_array (const XrlabPchip *pchip, const double *x, double *y, gsize n)
{
  gsize hint = 0;

  for (gsize i = 0; i < n; i++)
    y[i] = xrlab_pchip_eval (pchip, x[i], &hint);
}
