/* xrlab-simulate.h -- synthetic measurements: a model plus noise
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Noise, of a relative level L (0.01 = 1 %) with respect to the largest
 * model value M = max |m_i|:
 *   Gaussian  y_i = m_i + σ z_i,         σ = L·M, z_i standard normal
 *   Poisson   y_i = N_i / s,  N_i ~ Poisson(s·m_i),  s = 1/(L²·M)
 *             (counts per data unit chosen so that the relative noise at
 *             the maximum is L; every m_i must be ≥ 0)
 * The random numbers come from GSL's MT19937 generator (gsl_rng_mt19937)
 * seeded with gsl_rng_set (@seed) (GSL replaces seed 0 by 4357), one draw
 * per point in row-major order (delay by delay, energies in axis order):
 * gsl_ran_gaussian (the Kinderman–Monahan–Leva ratio method) for Gaussian
 * noise, gsl_ran_poisson for Poisson noise. The same seed, model and axes
 * give the same data on every machine.
 */
#pragma once

#include <glib.h>

#include "xrlab-model.h"

G_BEGIN_DECLS

#define XRLAB_SIMULATE_ERROR (xrlab_simulate_error_quark ())
GQuark xrlab_simulate_error_quark (void);

typedef enum {
  XRLAB_SIMULATE_ERROR_INVALID,   /* a level that is negative or not finite */
  XRLAB_SIMULATE_ERROR_MODEL,     /* the model is zero, not finite, or negative (Poisson) */
} XrlabSimulateError;

typedef enum {
  XRLAB_NOISE_NONE,
  XRLAB_NOISE_GAUSSIAN,
  XRLAB_NOISE_POISSON,
} XrlabNoiseKind;

/* Parses "none", "gaussian" (or "gauss") and "poisson". */
gboolean xrlab_noise_kind_from_string (const char *text, XrlabNoiseKind *kind);

/* Adds noise of @kind and relative @level to the @n values @y in place.
 * Stores σ (Gaussian) or the counts per data unit s (Poisson) in
 * @scale (NaN without noise). */
gboolean xrlab_simulate_noise (double *y, gsize n, XrlabNoiseKind kind, double level,
                               guint64 seed, double *scale, GError **error);

/* The model at its parameter values on the axes (as xrlab_plan_new), plus
 * noise: a new n_time × n_energy array (n_energy without a delay axis). */
double *xrlab_simulate (const XrlabModel *model, const double *energy, gsize n_energy,
                        const double *time, gsize n_time, const double *aux, gsize n_aux,
                        XrlabNoiseKind kind, double level, guint64 seed, double *scale,
                        GError **error);

G_END_DECLS
