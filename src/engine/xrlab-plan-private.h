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
 * (xrlab-model-private.h). Shirley is not an op here (see below). */

/* acc[e] += w * f(x[e]; p) for e < n. */
void xrlab_op_eval (XrlabFn fn, const double *x, gsize n, const double *p, double w,
                    double *acc);

/* val[e] = f(x[e]; p) and d[q][e] = ∂f/∂p_q for every parameter q. */
void xrlab_op_grad (XrlabFn fn, const double *x, gsize n, const double *p,
                    double *val, double *const *d);

/* out[i] = sum_{j >= i} in[i] (the Shirley integral, from the high-index
 * end). @out may be @in. */
void xrlab_revcumsum (const double *in, gsize n, double *out);

/* out[i] = other[i] + peak[i] + p * sum_{j >= i} peak[j]; @tmp has room for n. */
void xrlab_shirley_combine (const double *peak, const double *other, double p, gsize n,
                            double *tmp, double *out);

/* y[i] += a * x[i]. */
void xrlab_axpy (double a, const double *x, double *y, gsize n);

/* exp(x) to about one ulp, written so that loops over it vectorise;
 * 0 below -708. */
double xrlab_fast_exp (double x);

/* ---- time functions, kernels, profiles (xrlab-plan.c) ------------------------ */

/* f(t; p) of a time function and, when @d is not NULL, d[q] = ∂f/∂p_q. */
double xrlab_time_fn (XrlabFn fn, double t, const double *p, double *d);

/* f(x; p) of a profile function and its partials. */
double xrlab_profile_fn (XrlabFn fn, double x, const double *p, double *d);

/* The kernel g(u; s) (s = SD, tau or width) and ∂g/∂s. */
double xrlab_kernel_g (XrlabFn fn, double u, double s, double *dg_ds);

/* The kernel's mass above @a, ∫_a^∞ g(u) du, and below @b, ∫_{-∞}^b g(u)
 * du, with their derivatives with respect to s. */
double xrlab_kernel_mass_above (XrlabFn fn, double a, double s, double *dm_ds);
double xrlab_kernel_mass_below (XrlabFn fn, double b, double s, double *dm_ds);

/* Lags u outside [*lo, *hi] give g(u) = 0 exactly in double precision. */
void   xrlab_kernel_support (XrlabFn fn, double s, double *lo, double *hi);

G_END_DECLS
