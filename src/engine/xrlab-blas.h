/* xrlab-blas.h -- the Euclidean norm xrlab gives GSL's CBLAS calls
 * (xrlab-blas.c: cblas_dnrm2() is defined there too)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

/* ‖x‖ of the @n elements x[0], x[inc], …: the squares summed directly, the
 * reference's scaled loop where that sum overflowed, may have lost
 * underflowed squares, or is not a number; 0 when @n ≤ 0 or @inc ≤ 0. */
double xrlab_blas_dnrm2 (int n, const double *x, int inc);

/* The reference loop (libgslcblas's), for tests and benchmarks. */
double xrlab_blas_dnrm2_reference (int n, const double *x, int inc);
