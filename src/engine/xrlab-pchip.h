/* xrlab-pchip.h -- monotone piecewise cubic Hermite interpolation (PCHIP)
 *
 * The interpolant of SciPy's scipy.interpolate.PchipInterpolator (F. N.
 * Fritsch and J. Butland, SIAM J. Sci. Stat. Comput. 5, 300 (1984); the end
 * conditions of C. Moler, Numerical Computing with MATLAB, ch. 3.6), computed
 * the same way, so that both agree to rounding (tested to 1e-12 relative).
 *
 * On each interval [x_k, x_k+1] with h_k = x_k+1 - x_k and the secant slope
 * m_k = (y_k+1 - y_k) / h_k, the interpolant is the cubic Hermite polynomial
 * through y_k, y_k+1 with end slopes d_k, d_k+1:
 *
 *   interior:  d_k = 0 when m_k-1 and m_k differ in sign or either is 0,
 *              else the weighted harmonic mean
 *              (w1 + w2) / d_k = w1 / m_k-1 + w2 / m_k,
 *              w1 = 2 h_k + h_k-1, w2 = h_k + 2 h_k-1;
 *   ends:      the one-sided three-point estimate
 *              d_0 = ((2 h_0 + h_1) m_0 - h_0 m_1) / (h_0 + h_1),
 *              set to 0 when its sign differs from m_0, and to 3 m_0 when
 *              m_0 and m_1 differ in sign and |d_0| > 3 |m_0| (likewise at
 *              the other end);
 *   two points: the straight line.
 *
 * The result is monotone wherever the data are, so it never overshoots.
 *
 * Segments. Tabulated data with a discontinuity (an absorption edge) list
 * the edge energy twice, or step back in x. The data are split into
 * independent segments wherever x does not increase (x_k+1 <= x_k); each
 * segment gets its own PCHIP, so nothing couples across the discontinuity.
 * A segment takes over from its first x: intervals of earlier segments that
 * start at or beyond it are dropped and the last one kept is cut there. At
 * a repeated x the interpolant is therefore right-continuous (it takes the
 * value listed second, above the edge).
 *
 * Edges. xrlab_pchip_new_split() takes strictly increasing data and a list
 * of breaks instead: a break at row k ends the PCHIP pieces at x_k, joins
 * x_k and x_k+1 by the straight line, and starts independent PCHIP pieces
 * at x_k+1 (xrlab-edges.h finds the breaks of a scattering-factor table: the
 * pairs of rows across which f2 jumps). Neither side sees the other's rows,
 * so a jump does not distort the neighbouring intervals.
 *
 * The interpolant is immutable once built: any number of threads may
 * evaluate it at once.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define XRLAB_PCHIP_ERROR (xrlab_pchip_error_quark ())
GQuark xrlab_pchip_error_quark (void);

typedef enum {
  XRLAB_PCHIP_ERROR_DATA,   /* fewer than 2 points, or a NaN/infinite value */
} XrlabPchipError;

typedef struct _XrlabPchip XrlabPchip;

/* Builds the interpolant of the @n points (@x[i], @y[i]), split into
 * segments as described above. Needs n >= 2, finite values, and a first
 * segment of at least 2 points. The data are copied. */
XrlabPchip *xrlab_pchip_new (const double *x, const double *y, gsize n, GError **error);
void        xrlab_pchip_free (XrlabPchip *pchip);

/* Builds the interpolant of the @n points (@x[i], @y[i]) with x strictly
 * increasing (equal neighbours are allowed only across a break: a step of
 * zero width, right-continuous), split at the @n_breaks rows @breaks
 * (ascending, each < n - 1): the PCHIP of rows start..k, the straight line
 * from row k to row k + 1, the PCHIP of rows k + 1.., and so on. A run of 2
 * rows is a straight line, a run of 1 row has no piece of its own.
 * n_segments is the number of runs (n_breaks + 1). The data are copied. */
XrlabPchip *xrlab_pchip_new_split (const double *x, const double *y, gsize n,
                                   const gsize *breaks, gsize n_breaks, GError **error);

/* The domain [x_min, x_max]; x_min = x[0]. */
double xrlab_pchip_get_x_min (const XrlabPchip *pchip);
double xrlab_pchip_get_x_max (const XrlabPchip *pchip);

/* Number of segments (1 + the number of steps where x does not increase;
 * for xrlab_pchip_new_split(), 1 + the number of breaks) and of pieces
 * after the split. */
gsize xrlab_pchip_get_n_segments  (const XrlabPchip *pchip);
gsize xrlab_pchip_get_n_intervals (const XrlabPchip *pchip);

/* Value at @x, x_min <= x <= x_max (NaN outside: callers check the domain
 * first). The interval is found by bisection, starting from *@hint when
 * @hint is not NULL: the interval of the previous call, so that a sorted
 * sweep costs O(1) per point. *@hint is updated. Allocates nothing. */
double xrlab_pchip_eval (const XrlabPchip *pchip, double x, gsize *hint);

/* Values at @n points @x into @y (may not alias), with the hint carried from
 * point to point. */
void xrlab_pchip_eval_array (const XrlabPchip *pchip, const double *x, double *y, gsize n);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (XrlabPchip, xrlab_pchip_free)

G_END_DECLS
