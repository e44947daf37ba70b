/* test-blas.c -- the cblas_dnrm2() the programs give GSL (xrlab-blas.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include <glib.h>
#include <gsl/gsl_blas.h>
#include <gsl/gsl_cblas.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

#include "xrlab-blas.h"

static void
random_vector (GRand *rand, double *x, gsize n, double scale)
{
  for (gsize i = 0; i < n; i++)
    x[i] = g_rand_double_range (rand, -1, 1) * scale;
}

/* Within rounding of the reference loop, for every length and stride. */
static void
test_like_reference (void)
{
  GRand *rand = g_rand_new_with_seed (3);
  double *x = g_new (double, 3 * 2000);

  for (int n = 0; n <= 2000; n += (n < 40 ? 1 : 97))
    for (int inc = 1; inc <= 3; inc++)
      {
        double fast, ref;

        random_vector (rand, x, 3 * 2000, pow (10.0, g_rand_int_range (rand, -100, 100)));
        fast = xrlab_blas_dnrm2 (n, x, inc);
        ref = xrlab_blas_dnrm2_reference (n, x, inc);
        if (n == 0)
          g_assert_cmpfloat (fast, ==, 0.0);
        else
          g_assert_cmpfloat (fabs (fast - ref), <=, 8 * DBL_EPSILON * ref);
      }
  g_assert_cmpfloat (xrlab_blas_dnrm2 (5, x, 0), ==, 0.0);
  g_assert_cmpfloat (xrlab_blas_dnrm2 (5, x, -1), ==, 0.0);
  g_free (x);
  g_rand_free (rand);
}

/* Where the direct sum of squares overflows or underflows, the scaled loop's
 * value itself; not a number stays not a number. */
static void
test_extremes (void)
{
  double big[4] = { 1e300, -2e300, 3e300, 1e299 };
  double tiny[5] = { 1e-170, -3e-171, 2e-169, 0, 4e-180 };
  double mixed[3] = { 1e-200, 1.0, 1e-320 };
  double bad[3] = { 1.0, NAN, 2.0 };
  double inf[2] = { 1.0, INFINITY };

  g_assert_cmpfloat (xrlab_blas_dnrm2 (4, big, 1), ==, xrlab_blas_dnrm2_reference (4, big, 1));
  g_assert_true (isfinite (xrlab_blas_dnrm2 (4, big, 1)));
  g_assert_cmpfloat (xrlab_blas_dnrm2 (5, tiny, 1), ==, xrlab_blas_dnrm2_reference (5, tiny, 1));
  g_assert_cmpfloat (xrlab_blas_dnrm2 (5, tiny, 1), >, 2e-169);
  g_assert_cmpfloat (xrlab_blas_dnrm2 (3, mixed, 1), ==, 1.0);
  g_assert_true (isnan (xrlab_blas_dnrm2 (3, bad, 1)));
  g_assert_true (isinf (xrlab_blas_dnrm2 (2, inf, 1)));
}

/* GSL's own calls reach it: on a vector where it and the reference loop
 * round differently, gsl_blas_dnrm2() gives its value to the bit. */
static void
test_gsl_calls_it (void)
{
  GRand *rand = g_rand_new_with_seed (11);
  gsize n = 10000;
  gsl_vector *v = gsl_vector_alloc (n);
  gboolean found = FALSE;

  for (int round = 0; round < 200 && !found; round++)
    {
      double fast, ref, via_gsl;

      random_vector (rand, v->data, n, 1.0);
      fast = xrlab_blas_dnrm2 ((int) n, v->data, 1);
      ref = xrlab_blas_dnrm2_reference ((int) n, v->data, 1);
      via_gsl = gsl_blas_dnrm2 (v);
      if (fast != ref)
        {
          g_assert_true (memcmp (&via_gsl, &fast, sizeof fast) == 0);
          found = TRUE;
        }
    }
  g_assert_true (found);
  gsl_vector_free (v);
  g_rand_free (rand);
}

/* y := α·op(A)·x + β·y straight from its definition, in long double. */
static void
gemv_reference (gboolean row_major, gboolean trans, int m, int n, double alpha, const double *a,
                int lda, const double *x, int incx, double beta, double *y, int incy)
{
  int len_x = trans ? m : n, len_y = trans ? n : m;

  for (int i = 0; i < len_y; i++)
    {
      long double t = 0;
      double *yi = y + (incy > 0 ? i * incy : (len_y - 1 - i) * -incy);

      for (int j = 0; j < len_x; j++)
        {
          int r = trans ? j : i, c = trans ? i : j;
          double aij = row_major ? a[r * lda + c] : a[c * lda + r];

          t += (long double) aij * x[incx > 0 ? j * incx : (len_x - 1 - j) * -incx];
        }
      *yi = (double) ((beta == 0 ? 0 : (long double) beta * *yi) + (long double) alpha * t);
    }
}

/* Every order, transposition, stride (negative too) and α, β; small and
 * tall enough for the parallel parts; within rounding of the definition,
 * and A·x of a tall matrix row by row like the reference (to the bit). */
static void
test_gemv (void)
{
  const struct { int m, n; } shapes[] = { { 1, 1 }, { 3, 5 }, { 7, 2 }, { 140000, 9 }, { 9, 140000 } };
  const double ab[][2] = { { 1, 0 }, { -2.5, 1 }, { 0.5, -3 }, { 0, 2 }, { 1, 1 } };
  GRand *rand = g_rand_new_with_seed (5);

  for (gsize s = 0; s < G_N_ELEMENTS (shapes); s++)
    for (int layout = 0; layout < 4; layout++)
      for (gsize k = 0; k < G_N_ELEMENTS (ab); k++)
        {
          const int m = shapes[s].m, n = shapes[s].n;
          const gboolean row_major = layout & 1, trans = layout >> 1;
          const gboolean big = (gsize) m * n > 1000;
          const int incx = big ? 1 : (k % 2 ? -2 : 1), incy = big ? 1 : (k % 3 ? 1 : -3);
          const int lda = (row_major ? n : m) + (big ? 0 : 2);
          const int len_x = trans ? m : n, len_y = trans ? n : m;
          double *a = g_new (double, (gsize) lda * (row_major ? m : n));
          double *x = g_new (double, (gsize) len_x * ABS (incx));
          double *y = g_new (double, (gsize) len_y * ABS (incy)), *y_ref;

          random_vector (rand, a, (gsize) lda * (row_major ? m : n), 1.0);
          random_vector (rand, x, (gsize) len_x * ABS (incx), 1.0);
          random_vector (rand, y, (gsize) len_y * ABS (incy), 1.0);
          y_ref = g_memdup2 (y, (gsize) len_y * ABS (incy) * sizeof *y);
          cblas_dgemv (row_major ? CblasRowMajor : CblasColMajor, trans ? CblasTrans : CblasNoTrans,
                       m, n, ab[k][0], a, lda, x, incx, ab[k][1], y, incy);
          gemv_reference (row_major, trans, m, n, ab[k][0], a, lda, x, incx, ab[k][1], y_ref, incy);
          for (int i = 0; i < len_y * ABS (incy); i++)
            g_assert_cmpfloat (fabs (y[i] - y_ref[i]), <=, 1e-12 * (1 + sqrt ((double) MAX (m, n))));
          g_free (a);
          g_free (x);
          g_free (y);
          g_free (y_ref);
        }
  g_rand_free (rand);
}

/* GSL's gsl_blas_dgemv() reaches it: Jᵀf of a tall J through GSL and
 * through cblas_dgemv() directly agree to the bit. */
static void
test_gemv_gsl_calls_it (void)
{
  GRand *rand = g_rand_new_with_seed (9);
  gsl_matrix *J = gsl_matrix_alloc (200000, 7);
  gsl_vector *f = gsl_vector_alloc (200000), *g1 = gsl_vector_alloc (7), *g2 = gsl_vector_alloc (7);
  double serial[7] = { 0 };
  gboolean differs = FALSE;

  random_vector (rand, J->data, 200000 * 7, 1.0);
  random_vector (rand, f->data, 200000, 1.0);
  gsl_blas_dgemv (CblasTrans, 1.0, J, f, 0.0, g1);
  cblas_dgemv (CblasRowMajor, CblasTrans, 200000, 7, 1.0, J->data, 7, f->data, 1, 0.0, g2->data, 1);
  g_assert_true (memcmp (g1->data, g2->data, 7 * sizeof (double)) == 0);
  /* and its parts are summed otherwise than one pass would */
  for (gsize i = 0; i < 200000; i++)
    for (gsize j = 0; j < 7; j++)
      serial[j] += f->data[i] * J->data[i * 7 + j];
  for (gsize j = 0; j < 7; j++)
    differs |= serial[j] != g1->data[j];
  g_assert_true (differs);
  gsl_matrix_free (J);
  gsl_vector_free (f);
  gsl_vector_free (g1);
  gsl_vector_free (g2);
  g_rand_free (rand);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/blas/like-reference", test_like_reference);
  g_test_add_func ("/blas/extremes", test_extremes);
  g_test_add_func ("/blas/gsl-calls-it", test_gsl_calls_it);
  g_test_add_func ("/blas/gemv", test_gemv);
  g_test_add_func ("/blas/gemv-gsl-calls-it", test_gemv_gsl_calls_it);
  return g_test_run ();
}
