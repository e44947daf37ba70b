/* model-reference.h -- a deliberately plain evaluator of parsed models
 *
 * Walks the parsed model directly (no plan, no caching beyond one trace per
 * parameter and call, no vector tricks): every parameter is evaluated from
 * its definition at each delay and aux point, expressions by their own small
 * recursive-descent evaluator on the text, kernels as full dense matrices
 * built from the definition, components by their formulas with libm and
 * libcerf. The tests and the benchmark compare the plan against it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "xrlab-model.h"
#include "xrlab-plan.h"

G_BEGIN_DECLS

/* θ as the reference derives it from the model: the parameters with vary
 * True that are not expressions, in model order, without those of time
 * dependence or profiles that @flags leave out. */
gsize  xrlab_reference_n_theta (const XrlabModel *model, XrlabPlanFlags flags);
char **xrlab_reference_theta_names (const XrlabModel *model, XrlabPlanFlags flags);

/* The model at @theta: n_rows × n_energy values (n_rows = n_time or 1),
 * newly allocated (g_free). */
double *xrlab_reference_eval (const XrlabModel *model, XrlabPlanFlags flags,
                              const double *theta,
                              const double *energy, gsize n_energy,
                              const double *time, gsize n_time,
                              const double *aux, gsize n_aux);

G_END_DECLS
