/* xrlab-blas.c -- the Euclidean norm and the matrix-vector product for
 * GSL's CBLAS calls
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
 * cblas_dgemv() likewise: GSL takes the gradient Jᵀf after every accepted
 * step and J·δ for every step's predicted reduction, each a pass over J,
 * which libgslcblas makes on one thread. Here a tall product runs in parts
 * of a fixed number of rows on the pool's threads: A·x row by row as the
 * reference does (the same bits), Aᵀ·x as partial sums of its parts added
 * in their order (the same on any number of threads); any other call (a
 * small matrix, strides) as the reference loops.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib.h>

#include <gsl/gsl_cblas.h>

#include "xrlab-blas.h"
#include "xrlab-fit-private.h"
#include "xrlab-clones.h"
#include "xrlab-parallel.h"


#define SAFE_MIN 1e-200

/* Vector clones whose sums are the same in every build: no multiply-add
 * contracted (it would round otherwise where the optimiser finds one, at
 * -O2 but not at -O1, in the sanitizer's build). */
#if defined(__GNUC__) && !defined(__clang__)
# define BLAS_CLONES XRLAB_CLONES __attribute__ ((optimize ("fp-contract=off")))
#else
# define BLAS_CLONES XRLAB_CLONES
#endif

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

BLAS_CLONES static double
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

/* ---- y := α·op(A)·x + β·y ---------------------------------------------------- */

/* Rows of a part of a parallel product, and the least work to split. */
#define GEMV_PART_ROWS 32768
#define GEMV_PARALLEL_MIN (1 << 20)

typedef struct {
  const double *a, *x;
  double *y, *partial;          /* partial: n_cols for each part (transposed) */
  gsize rows, cols, lda;
  double alpha;
} Gemv;

/* y[i] += α Σ_j a[i][j] x[j] over the rows of @part. */
static void
gemv_rows_part (gpointer data, guint part)
{
  const Gemv *g = data;
  const gsize r0 = (gsize) part * GEMV_PART_ROWS, r1 = MIN (g->rows, r0 + GEMV_PART_ROWS);

  for (gsize i = r0; i < r1; i++)
    {
      const double *row = g->a + i * g->lda;
      double t = 0.0;

      for (gsize j = 0; j < g->cols; j++)
        t += g->x[j] * row[j];
      g->y[i] += g->alpha * t;
    }
}

/* acc += Σ_i α x[i] a[i][·] over rows [r0, r1), four rows at a time. */
BLAS_CLONES static void
gemv_cols_rows (const double *restrict a, gsize lda, gsize cols, const double *restrict x,
                double alpha, gsize r0, gsize r1, double *restrict acc)
{
  gsize i = r0;

  for (; i + 3 < r1; i += 4)
    {
      const double *p0 = a + i * lda, *p1 = p0 + lda, *p2 = p1 + lda, *p3 = p2 + lda;
      const double t0 = alpha * x[i], t1 = alpha * x[i + 1], t2 = alpha * x[i + 2],
                   t3 = alpha * x[i + 3];

      for (gsize j = 0; j < cols; j++)
        acc[j] += (t0 * p0[j] + t1 * p1[j]) + (t2 * p2[j] + t3 * p3[j]);
    }
  for (; i < r1; i++)
    {
      const double *row = a + i * lda;
      const double t = alpha * x[i];

      for (gsize j = 0; j < cols; j++)
        acc[j] += t * row[j];
    }
}

/* partial = Σ_i α x[i] a[i][·] over the rows of @part. */
static void
gemv_cols_part (gpointer data, guint part)
{
  const Gemv *g = data;
  const gsize r0 = (gsize) part * GEMV_PART_ROWS, r1 = MIN (g->rows, r0 + GEMV_PART_ROWS);
  double *acc = g->partial + (gsize) part * g->cols;

  memset (acc, 0, g->cols * sizeof *acc);
  gemv_cols_rows (g->a, g->lda, g->cols, g->x, g->alpha, r0, r1, acc);
}

static gsize
offset (int n, int inc)
{
  return inc > 0 ? 0 : (gsize) (n - 1) * (gsize) -inc;
}

void
cblas_dgemv (const enum CBLAS_ORDER order, const enum CBLAS_TRANSPOSE TransA, const int M,
             const int N, const double alpha, const double *A, const int lda, const double *X,
             const int incX, const double beta, double *Y, const int incY)
{
  /* "by rows": y_i = Σ_j A(i, j) x_j with A(i, j) = A[i·lda + j] */
  const gboolean by_rows = (order == CblasRowMajor) == (TransA == CblasNoTrans);
  const int len_x = TransA == CblasNoTrans ? N : M, len_y = TransA == CblasNoTrans ? M : N;
  int bad = 0;

  if (order != CblasRowMajor && order != CblasColMajor)
    bad = 1;
  else if (TransA != CblasNoTrans && TransA != CblasTrans && TransA != CblasConjTrans)
    bad = 2;
  else if (M < 0)
    bad = 3;
  else if (N < 0)
    bad = 4;
  else if (lda < MAX (1, order == CblasRowMajor ? N : M))
    bad = 7;
  else if (incX == 0)
    bad = 9;
  else if (incY == 0)
    bad = 12;
  if (bad != 0)
    {
      cblas_xerbla (bad, "xrlab-blas.c", "");
      return;
    }
  if (M == 0 || N == 0 || (alpha == 0.0 && beta == 1.0))
    return;
  /* y := β·y (β = 0 clears, as the reference does, NaN and all) */
  if (beta != 1.0)
    for (gsize i = 0, iy = offset (len_y, incY); i < (gsize) len_y; i++, iy += incY)
      Y[iy] = beta == 0.0 ? 0.0 : beta * Y[iy];
  if (alpha == 0.0)
    return;
  if (incX == 1 && incY == 1 && (gsize) M * (gsize) N >= GEMV_PARALLEL_MIN
      && (by_rows ? len_y : len_x) >= 2 * GEMV_PART_ROWS && (by_rows || len_y <= 64))
    {
      const gsize rows = (gsize) (by_rows ? len_y : len_x);
      const guint n_parts = (guint) ((rows + GEMV_PART_ROWS - 1) / GEMV_PART_ROWS);
      Gemv g = { A, X, Y, NULL, rows, (gsize) (by_rows ? len_x : len_y), (gsize) lda, alpha };

      if (by_rows)
        xrlab_parallel_run (xrlab_parallel_default (), n_parts, gemv_rows_part, &g);
      else
        {
          g.partial = g_new (double, (gsize) n_parts * g.cols);
          xrlab_parallel_run (xrlab_parallel_default (), n_parts, gemv_cols_part, &g);
          for (guint part = 0; part < n_parts; part++)
            for (gsize j = 0; j < g.cols; j++)
              Y[j] += g.partial[(gsize) part * g.cols + j];
          g_free (g.partial);
        }
      return;
    }
  if (by_rows)
    for (gsize i = 0, iy = offset (len_y, incY); i < (gsize) len_y; i++, iy += incY)
      {
        double t = 0.0;

        for (gsize j = 0, ix = offset (len_x, incX); j < (gsize) len_x; j++, ix += incX)
          t += X[ix] * A[i * (gsize) lda + j];
        Y[iy] += alpha * t;
      }
  else
    for (gsize j = 0, ix = offset (len_x, incX); j < (gsize) len_x; j++, ix += incX)
      {
        const double t = alpha * X[ix];

        if (t != 0.0)
          for (gsize i = 0, iy = offset (len_y, incY); i < (gsize) len_y; i++, iy += incY)
            Y[iy] += t * A[j * (gsize) lda + i];
      }
}
