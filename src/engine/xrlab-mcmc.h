/* xrlab-mcmc.h -- posterior sampling: an affine-invariant ensemble sampler
 * (Goodman & Weare's stretch move, as emcee and so lmfit's emcee method and
 * trspecfit's mc_settings)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The posterior
 *   The same residual as the fit, r_i(θ) = (m_i(θ) − y_i)/σ_i, with the
 *   bounds as priors (uniform inside, zero outside):
 *     KNOWN noise (the σ are the true uncertainties; lmfit's
 *       is_weighted=True):   ln p = −χ²/2
 *     SAMPLED noise (lmfit's is_weighted=False, trspecfit's setting): the
 *       noise scale s is a parameter "__lnsigma" = ln s sampled with the
 *       others,             ln p = −½ Σ_i [r_i²/s² + ln (2π s²)],
 *       starting at sigma_ini with the prior ln s ∈ ln sigma_ini ± ln 1000.
 *
 * The sampler
 *   K walkers (even, ≥ 2 × the sampled parameters) start around the best
 *   fit: θ_k = θ + ε_k, ε_kj ~ N(0, (w_j)²) with w_j a tenth of the start
 *   scale (the standard error) or, without one, 10⁻⁴·|θ_j| (lmfit's
 *   start; 10⁻⁴ where θ_j = 0), drawn again (up to 100 times) where they
 *   fall outside the bounds. The ensemble is split into two halves; a step
 *   moves one half, then the other, each walker k of a half with a partner
 *   j drawn from the other half (emcee's red/black split, Foreman-Mackey
 *   et al. 2013, sec. 3):
 *     z = ((a − 1) u + 1)² / a     (u uniform, g(z) ∝ 1/√z on [1/a, a], a = 2)
 *     y = x_j + z (x_k − x_j),   accepted when ln u' < (d − 1) ln z + ln p(y) − ln p(x_k)
 *   so the walkers of one half are proposed and evaluated at the same time,
 *   in parallel on the thread pool (one evaluation slot per part). Every
 *   random number is drawn on the calling thread in a fixed order from
 *   GSL's MT19937 seeded with the seed: the chain does not depend on the
 *   number of threads.
 *
 * The outputs
 *   the chain after burn-in and thinning (steps burn, burn + thin, …), its
 *   ln p, each walker's acceptance fraction (accepted moves over all steps,
 *   emcee's), the integrated autocorrelation time of every parameter
 *   (emcee's estimate: the autocorrelation function of each walker's
 *   chain by FFT, averaged over the walkers, τ = 1 + 2 Σ_{t ≤ M} ρ(t) with
 *   Goodman's automatic window, the smallest M ≥ 5 τ(M); in steps, i.e.
 *   thin × that of the kept samples; reliable when the kept chain is at
 *   least 50 τ long, emcee's tolerance), and per parameter the median and
 *   the 1σ and 2σ quantiles of all kept samples (the percentiles Φ(±1),
 *   Φ(±2): 15.87/84.13 % and 2.28/97.72 %, interpolated linearly as
 *   numpy.percentile, which lmfit uses).
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define XRLAB_MCMC_ERROR (xrlab_mcmc_error_quark ())
GQuark xrlab_mcmc_error_quark (void);

typedef enum {
  XRLAB_MCMC_ERROR_INVALID,   /* walkers, steps, burn-in, thinning, σ_ini or the start */
  XRLAB_MCMC_ERROR_MODEL,     /* the model cannot be evaluated at the start */
} XrlabMcmcError;

/* Fills @resid (n values) with the weighted residuals r_i at @theta (the p
 * model parameters). Called from the pool's threads, several at once with
 * different @slot (0 ≤ slot < n_slots), never two at once for one slot.
 * FALSE: the model cannot be evaluated there (ln p = −∞). */
typedef gboolean (*XrlabMcmcResidualFunc) (const double *theta, double *resid, guint slot,
                                           gpointer user_data);

/* @step (1 … n_steps) done, with the mean acceptance fraction so far. */
typedef void (*XrlabMcmcProgressFunc) (guint step, guint n_steps, double acceptance,
                                       gpointer user_data);

typedef struct {
  gsize n, p;                      /* residuals, model parameters */
  XrlabMcmcResidualFunc residual;
  gpointer user_data;
  guint n_slots;                   /* evaluations that may run at once (0: 1) */
  const char *const *names;        /* p names (copied), or NULL */
  const double *lower, *upper;     /* p bounds, −∞/∞ for none; NULL: none */
  const double *start;             /* p: the best fit */
  const double *start_scale;       /* p standard errors, or NULL (see above) */
} XrlabMcmcProblem;

typedef enum {
  XRLAB_MCMC_NOISE_AUTO,           /* KNOWN for a fit with σ, SAMPLED without */
  XRLAB_MCMC_NOISE_KNOWN,
  XRLAB_MCMC_NOISE_SAMPLED,
} XrlabMcmcNoise;

typedef struct {
  guint n_walkers;                 /* 0: max (2 (d + 1), 32), d the sampled parameters; made even */
  guint n_steps;                   /* 0: 1000 */
  guint burn;                      /* steps dropped at the start */
  guint thin;                      /* 0 or 1: every step kept */
  guint64 seed;
  double a;                        /* the stretch scale (0: 2) */
  XrlabMcmcNoise noise;            /* AUTO counts as KNOWN in xrlab_mcmc_run */
  double sigma_ini;                /* SAMPLED: the starting noise scale (0: 1) */
  XrlabMcmcProgressFunc progress;
  gpointer progress_data;
} XrlabMcmcOptions;

void xrlab_mcmc_options_init (XrlabMcmcOptions *options);

typedef struct {
  gsize p;                         /* sampled parameters (+1 for __lnsigma) */
  char **names;                    /* p (NULL-terminated); "__lnsigma" last when sampled */
  guint n_walkers, n_steps;        /* steps run (fewer when cancelled) */
  guint n_kept;                    /* kept steps per walker */
  double *chain;                   /* n_kept × n_walkers × p, step-major */
  double *lnprob;                  /* n_kept × n_walkers */
  double *acceptance;              /* n_walkers */
  double acceptance_mean;
  double *tau;                     /* p, in steps */
  gboolean tau_reliable;           /* every τ estimated on ≥ 50 τ of kept chain */
  double *median, *lo1, *hi1, *lo2, *hi2;   /* p each (see above) */
  double *best;                    /* p: the kept sample of the highest ln p */
  double best_lnprob;
  guint64 n_eval;                  /* residual evaluations */
  double wall_s;
} XrlabMcmcResult;

void xrlab_mcmc_result_free (XrlabMcmcResult *result);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (XrlabMcmcResult, xrlab_mcmc_result_free)

/* Samples the posterior of @problem. TRUE and a new result; when
 * cancelled (checked between half-steps) FALSE with G_IO_ERROR_CANCELLED
 * and the chain of the steps done still in @result; any other error: FALSE
 * and *result = NULL. Errors: fewer than 2 walkers per sampled parameter
 * asked for, burn-in ≥ steps, a start outside the bounds, σ_ini ≤ 0, the
 * model not finite at the start. */
gboolean xrlab_mcmc_run (const XrlabMcmcProblem *problem, const XrlabMcmcOptions *options,
                         GCancellable *cancellable, XrlabMcmcResult **result, GError **error);

/* emcee's integrated autocorrelation time of @x (n values; the steps of one
 * chain, @n_chains chains interleaved: x[t * n_chains + k]) with the window
 * constant @c (5): the estimate described above, in samples. */
double xrlab_mcmc_autocorr_time (const double *x, gsize n, gsize n_chains, double c);

G_END_DECLS
