/* test-blas.c -- the cblas_dnrm2() the programs give GSL (xrlab-blas.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include <glib.h>
#include <gsl/gsl_blas.h>
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

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/blas/like-reference", test_like_reference);
  g_test_add_func ("/blas/extremes", test_extremes);
  g_test_add_func ("/blas/gsl-calls-it", test_gsl_calls_it);
  return g_test_run ();
}
