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
 * Gaussian noise: GSL's MT19937 generator (gsl_rng_mt19937) seeded with
 * gsl_rng_set (@seed) (GSL replaces seed 0 by 4357), one gsl_ran_gaussian
 * draw (the Kinderman–Monahan–Leva ratio method) per point in row-major
 * order (delay by delay, energies in axis order).
 *
 * Poisson counts (and photon counting below) are drawn in parallel: the
 * points, in row-major order, fall into blocks of XRLAB_SIMULATE_BLOCK,
 * and block b (from 0) has a generator of its own, xoshiro256++ whose four
 * state words are the next four outputs of splitmix64 started from state
 * x₀ + b, where x₀ is splitmix64's first output from state @seed; uniforms
 * are the top 53 bits of an output (× 2⁻⁵³, and + ½ ulp where 0 must be
 * excluded). A mean μ < 10 is drawn by inversion (one uniform, the
 * cumulative probabilities summed from e^−μ), μ ≥ 10 by Hörmann's
 * transformed rejection with squeeze (PTRS, 1993, the algorithm of numpy),
 * a mean of 0 is 0 without a draw. The data depend only on the seed, the
 * model and the axes, not on the number of threads (the rejection tests
 * use the C library's log (), so another libm may, very rarely, decide
 * one differently).
 *
 * Photon counting (trspecfit's detection='photon_counting'), with @level
 * the expected number of photons per delay C (counts_per_delay): the model
 * is read as the distribution of the photons, each point counts
 *   N_i ~ Poisson(s·|m_i|),  y_i = sign(m_i)·N_i / s,
 *   s = C / mean over the delays of Σ_e |m|   (one spectrum: s = C / Σ_e |m|)
 * so that a delay with more signal collects more photons; a model that is
 * zero everywhere stays zero.
 *
 * Parameter sweeps (trspecfit's ParameterSweep): values for some
 * parameters, as lists or as draws from a uniform, normal or log-normal
 * distribution, combined on a grid (every combination, the last parameter
 * fastest) or drawn at random (one draw of every parameter per
 * configuration). The draws follow numpy's legacy generator as trspecfit
 * seeds it (np.random.seed (seed) before the iteration, MT19937 seeded the
 * same way as GSL's, uniform = lo + (hi − lo)·res53, normal by the polar
 * method with its cached second value, log-normal = exp (normal), a choice
 * from a list by masked rejection of 32-bit draws), so a seed gives the
 * configurations trspecfit gives.
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
  XRLAB_SIMULATE_ERROR_SWEEP,     /* a sweep without values or that does not fit the model */
} XrlabSimulateError;

typedef enum {
  XRLAB_NOISE_NONE,
  XRLAB_NOISE_GAUSSIAN,
  XRLAB_NOISE_POISSON,
  XRLAB_NOISE_COUNTING,     /* photon counting: @level photons per delay */
} XrlabNoiseKind;

/* Parses "none", "gaussian" (or "gauss"), "poisson" and "counting" (or
 * "photon_counting", "photon-counting"). */
gboolean xrlab_noise_kind_from_string (const char *text, XrlabNoiseKind *kind);

/* Adds noise of @kind and relative @level to the @n values @y in place.
 * Stores σ (Gaussian) or the counts per data unit s (Poisson) in
 * @scale (NaN without noise). */
gboolean xrlab_simulate_noise (double *y, gsize n, XrlabNoiseKind kind, double level,
                               guint64 seed, double *scale, GError **error);

/* The same for @y laid out as @n_rows delays × @n_cols energies (the
 * layout matters to photon counting only, which normalises per delay). */
gboolean xrlab_simulate_noise_rows (double *y, gsize n_rows, gsize n_cols, XrlabNoiseKind kind,
                                    double level, guint64 seed, double *scale, GError **error);

/* The model at its parameter values on the axes (as xrlab_plan_new), plus
 * noise: a new n_time × n_energy array (n_energy without a delay axis). */
double *xrlab_simulate (const XrlabModel *model, const double *energy, gsize n_energy,
                        const double *time, gsize n_time, const double *aux, gsize n_aux,
                        XrlabNoiseKind kind, double level, guint64 seed, double *scale,
                        GError **error);

/* The model at its parameter values on the axes into @out, which holds
 * @n_out values (n_time × n_energy, or n_energy without a delay axis; an
 * error otherwise). */
gboolean xrlab_simulate_model_into (const XrlabModel *model, const double *energy,
                                    gsize n_energy, const double *time, gsize n_time,
                                    const double *aux, gsize n_aux, double *out, gsize n_out,
                                    GError **error);

/* @n_real noisy realisations of one model evaluation (trspecfit's
 * simulate_n): a new array of @n_real × n_data values, realisation r at
 * r × n_data, drawn with seed @seed + r (realisation 0 is xrlab_simulate's
 * data for @seed), in parallel on the thread pool; the same data for any
 * number of threads. @clean, when not NULL, receives a new array with the
 * model itself, @n_data the number of values of one realisation. */
double *xrlab_simulate_n (const XrlabModel *model, const double *energy, gsize n_energy,
                          const double *time, gsize n_time, const double *aux, gsize n_aux,
                          XrlabNoiseKind kind, double level, guint64 seed, guint n_real,
                          double **clean, gsize *n_data, double *scale, GError **error);

/* ---- realisations in parts -------------------------------------------------------
 * The draws of xrlab_simulate_n from a model already evaluated, cut into
 * parts for a parallel loop of the caller's (the sweep job writes each
 * part's values as soon as they are drawn). A part of Poisson or counting
 * noise draws points [i0, i1) (one block) of up to XRLAB_SIMULATE_GROUP
 * realisations [r0, r1), sharing the set-up of each mean among them; a part
 * of Gaussian noise is one realisation, every point; without noise a part
 * copies a block. The parts may run in any order and at the same time. */

#define XRLAB_SIMULATE_BLOCK ((gsize) 65536)
#define XRLAB_SIMULATE_GROUP 4u

typedef struct {
  const double *clean;
  double *const *out;     /* n_real arrays of n values (out[0] may be clean) */
  gsize n;
  XrlabNoiseKind kind;
  double level;
  double max;             /* max |clean| */
  double scale;           /* σ or counts per data unit; NaN without noise */
  guint64 seed;           /* realisation r: seed + r */
  guint n_real, n_blocks, n_groups;
} XrlabSimulateDraws;

/* Checks @clean (@n_rows × @n_cols) for noise of @kind and @level (as
 * xrlab_simulate_noise_rows) and fills @d; @clean and @out must outlive it. */
gboolean xrlab_simulate_draws_init    (XrlabSimulateDraws *d, const double *clean, gsize n_rows,
                                       gsize n_cols, XrlabNoiseKind kind, double level,
                                       guint64 seed, guint n_real, double *const *out,
                                       GError **error);
guint    xrlab_simulate_draws_n_parts (const XrlabSimulateDraws *d);
/* Draws part @part; what it wrote, when not NULL: points [*@i0, *@i1) of
 * realisations [*@r0, *@r1). */
void     xrlab_simulate_draws_part    (const XrlabSimulateDraws *d, guint part, gsize *i0,
                                       gsize *i1, guint *r0, guint *r1);

/* ---- parameter sweeps ---------------------------------------------------------- */

typedef enum {
  XRLAB_SWEEP_AUTO,     /* grid when every parameter is a list, else random */
  XRLAB_SWEEP_GRID,     /* every combination (distributions drawn n_samples times first) */
  XRLAB_SWEEP_RANDOM,   /* max n_samples configurations, every parameter drawn in each */
} XrlabSweepStrategy;

/* Parses "auto", "grid" and "random". */
gboolean xrlab_sweep_strategy_from_string (const char *text, XrlabSweepStrategy *strategy);

typedef struct _XrlabSweep XrlabSweep;

XrlabSweep *xrlab_sweep_new  (XrlabSweepStrategy strategy, guint64 seed);
void        xrlab_sweep_free (XrlabSweep *sweep);

/* The values of parameter @name (trspecfit's add_range, add_uniform,
 * add_normal, add_lognormal; the log-normal's mean and sd are those of the
 * logarithm). A name given again replaces its values in its first place.
 * Errors: no values, n_samples 0, bounds or widths that are not finite or
 * inverted. */
gboolean xrlab_sweep_add_values    (XrlabSweep *sweep, const char *name, const double *values,
                                    gsize n_values, GError **error);
gboolean xrlab_sweep_add_uniform   (XrlabSweep *sweep, const char *name, double min, double max,
                                    gsize n_samples, GError **error);
gboolean xrlab_sweep_add_normal    (XrlabSweep *sweep, const char *name, double mean, double sd,
                                    gsize n_samples, GError **error);
gboolean xrlab_sweep_add_lognormal (XrlabSweep *sweep, const char *name, double mean, double sd,
                                    gsize n_samples, GError **error);

gsize       xrlab_sweep_n_params   (const XrlabSweep *sweep);
const char *xrlab_sweep_param_name (const XrlabSweep *sweep, gsize j);
/* The number of configurations (grid: the product of the sizes; random:
 * the largest n_samples or list length). */
gsize       xrlab_sweep_n_configs  (const XrlabSweep *sweep);
/* Every configuration, drawn from the seed: n_configs × n_params values,
 * row-major (valid until the sweep changes). */
const double *xrlab_sweep_configs  (XrlabSweep *sweep);
/* Sets configuration @config's values in @model. Errors: a parameter the
 * model does not have, one defined by an expression, a value outside the
 * parameter's bounds (trspecfit's lmfit would clip it silently; give ranges
 * inside the bounds). */
gboolean    xrlab_sweep_apply      (XrlabSweep *sweep, gsize config, XrlabModel *model,
                                    GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (XrlabSweep, xrlab_sweep_free)

G_END_DECLS
