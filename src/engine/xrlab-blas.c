/* xrlab-blas.c -- the Euclidean norm for GSL's CBLAS calls
 *
 * GSL's trust-region fits take ‖f‖ of the whole residual several times an
 * iteration (the step's χ², the predicted reduction ‖J·δ‖, the column norms
 * of J when they start) through cblas_dnrm2(), and the CBLAS it ships
 * (libgslcblas) computes it with the reference loop that rescales by the
 * largest element so far: a division and a comparison for every element,
 * ~15 instructions each. On a 2000 × 2000 map that is a fifth of the fit.
 * The executables define cblas_dnrm2() here; the dynamic linker binds
 * libgsl's calls to the executable's definition before libgslcblas's (the
 * way GSL lets a program bring its own CBLAS).
 *
 * It sums the squares directly (eight partial sums, vectorised), which is
 * at least as accurate as the scaled loop, and falls back to that loop when
 * the sum would not be exact to rounding: it overflowed, or it is so small
 * that squares of the smallest elements may have underflowed (below
 * 1e-200: the squares lost are then under 1e-99 of it), or it is not a
 * number. So a norm differs from libgslcblas's only in rounding, and every
 * caller of cblas_dnrm2() in a process (GSL's and xrlab's χ²) gets the same
 * value for the same vector. The norm of a column of the Jacobian a fit
 * holds comes from the JᵀJ the fit has of it (xrlab-fit-core.c).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include <gsl/gsl_cblas.h>

#include "xrlab-blas.h"
#include "xrlab-fit-private.h"
#include "xrlab-clones.h"


#define SAFE_MIN 1e-200

/* The reference algorithm (BLAS dnrm2 before LAPACK 3.10, as libgslcblas
 * has it): scale by the largest magnitude so far, sum the scaled squares. */
static double
nrm2_scaled (int n, const double *x, int inc)
{
  double scale = 0.0, ssq = 1.0;

  for (long i = 0; i < n; i++)
    {
      const double xi = x[i * (long) inc];

      if (xi != 0.0)
        {
          const double ax = fabs (xi);

          if (scale < ax)
            {
              ssq = 1.0 + ssq * (scale / ax) * (scale / ax);
              scale = ax;
            }
          else
            ssq += (ax / scale) * (ax / scale);
        }
    }
  return scale * sqrt (ssq);
}

XRLAB_CLONES static double
sum_squares_contiguous (int n, const double *restrict x)
{
  double s[8] = { 0 };
  long i = 0;

  for (; i + 7 < n; i += 8)
    for (int k = 0; k < 8; k++)
      s[k] += x[i + k] * x[i + k];
  for (; i < n; i++)
    s[0] += x[i] * x[i];
  return ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
}

static double
sum_squares_strided (int n, const double *x, int inc)
{
  double s0 = 0.0, s1 = 0.0;
  long i = 0;

  for (; i + 1 < n; i += 2)
    {
      const double a = x[i * (long) inc], b = x[(i + 1) * (long) inc];

      s0 += a * a;
      s1 += b * b;
    }
  if (i < n)
    s0 += x[i * (long) inc] * x[i * (long) inc];
  return s0 + s1;
}

double
xrlab_blas_dnrm2 (int n, const double *x, int inc)
{
  double s;

  if (n <= 0 || inc <= 0)
    return 0.0;
  s = inc == 1 ? sum_squares_contiguous (n, x) : sum_squares_strided (n, x, inc);
  if (s >= SAFE_MIN && isfinite (s))
    return sqrt (s);
  return nrm2_scaled (n, x, inc);
}

double
xrlab_blas_dnrm2_reference (int n, const double *x, int inc)
{
  if (n <= 0 || inc <= 0)
    return 0.0;
  return nrm2_scaled (n, x, inc);
}

double
cblas_dnrm2 (const int N, const double *X, const int incX)
{
  double norm;

  if (incX > 1 && xrlab_fit_jacobian_column_norm (N, X, incX, &norm))
    return norm;
  return xrlab_blas_dnrm2 (N, X, incX);
}
