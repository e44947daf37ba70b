/* xrlab-fit-private.h -- internals of xrlab-fit exposed to the tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "xrlab-fit.h"

G_BEGIN_DECLS

/* The MINUIT transform of all p parameters (see xrlab-fit.h). */
void xrlab_fit_to_internal (XrlabFit *fit, const double *theta, double *u);
void xrlab_fit_to_external (XrlabFit *fit, const double *u, double *theta);

/* What the solver sees at internal @u: the weighted residuals @r (n) and,
 * unless @J is NULL, the weighted Jacobian ∂r/∂u (n × p, row-major), through
 * the same code as a fit (analytic or finite-difference per the method). */
gboolean xrlab_fit_eval_internal (XrlabFit *fit, const double *u, double *r, double *J,
                                  GError **error);

/* (JᵀJ)⁻¹ of a row-major n × p @J into @C (p × p); @force_qr skips the
 * normal equations. Returns FALSE when J has not full rank. */
gboolean xrlab_fit_covariance (const double *J, gsize n, gsize p, gboolean force_qr,
                               double *C);

G_END_DECLS
