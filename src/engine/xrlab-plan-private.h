/* xrlab-plan-private.h -- the numerical kernels of the plan
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "xrlab-model-private.h"

G_BEGIN_DECLS

/* ---- energy components (xrlab-plan-kernels.c, vectorised) -------------------
 *
 * @p holds the component's parameters in its function's order
 * (xrlab-fn.h). Shirley is not an op here (see below). */

/* acc[e] += w * f(x[e]; p) for e < n. @dx is the step of the energy axis
 * when it is uniform (x[e] = x[0] + e dx within rounding; Gaussian factors
 * then come from a recurrence), else 0. @tmp has room for n. */
void xrlab_op_eval (XrlabFn fn, const double *x, gsize n, double dx, const double *p,
                    double w, double *acc, double *tmp);

/* val[e] = f(x[e]; p) and d[q][e] = ∂f/∂p_q for every parameter q. */
void xrlab_op_grad (XrlabFn fn, const double *x, gsize n, double dx, const double *p,
                    double *val, double *const *d, double *tmp);

/* out[i] = sum_{j >= i} in[i] (the Shirley integral, from the high-index
 * end). @out may be @in. */
void xrlab_revcumsum (const double *in, gsize n, double *out);

/* out[i] = other[i] + peak[i] + p * sum_{j >= i} peak[j]; @tmp has room for n. */
void xrlab_shirley_combine (const double *peak, const double *other, double p, gsize n,
                            double *tmp, double *out);

/* y[i] += a * x[i]. */
void xrlab_axpy (double a, const double *x, double *y, gsize n);

/* row[j] = g(ti - t[j]; s) w[j] and, when @drow is not NULL,
 * drow[j] = ∂g/∂s w[j], for j < m. */
void xrlab_kernel_row (XrlabFn fn, double ti, const double *t, const double *w, gsize m,
                       double s, double *row, double *drow);

/* sum x[i]; sum x[i] y[i]; x[i] *= a */
double xrlab_sum   (const double *x, gsize n);
double xrlab_dot   (const double *x, const double *y, gsize n);
void   xrlab_scale (double a, double *x, gsize n);
/* out[i] = a[i] b[i] */
void   xrlab_mul   (const double *a, const double *b, gsize n, double *out);

/* acc[i] += x[i] + p * sum_{j >= i} x[j]; @tmp has room for n. */
void xrlab_shirley_accumulate (const double *x, double p, gsize n, double *tmp, double *acc);

/* out[e * n_cols + k] = cols[k * n + e] */
void xrlab_transpose (const double *cols, gsize n_cols, gsize n, double *out);

/* The row-major assembly of one delay row of the Jacobian (xrlab-plan.c):
 * for θ block b (8 entries) the peak partials peak_d[i] (n values) with θ
 * coefficients peak_c[i] (nthp values), peak_off[b] <= i < peak_off[b + 1],
 * and likewise for other ops. @cum (n) and @tmp (8 n) are scratch. */
void xrlab_jac_row_combine (gsize n, gsize nth, gsize nthp, const double *const *peak_d,
                            const double *const *peak_c, const guint32 *peak_off,
                            const double *const *other_d, const double *const *other_c,
                            const guint32 *other_off, const double *peak,
                            const double *other, gboolean shirley, double ps,
                            const double *sh, double *cum, double *tmp, double *jac,
                            double *out);

/* exp(x) to about one ulp, written so that loops over it vectorise;
 * 0 below -708. */
double xrlab_fast_exp (double x);

G_END_DECLS
