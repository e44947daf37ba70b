/* xrlab-mcmc.c -- the affine-invariant ensemble sampler (see xrlab-mcmc.h)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-mcmc.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_fft_complex.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "xrlab-parallel.h"
#include "xrlab-util.h"

G_DEFINE_QUARK (xrlab-mcmc-error-quark, xrlab_mcmc_error)

#define DEFAULT_STEPS 1000
#define LNSIGMA_RANGE 6.907755278982137   /* ln 1000 */
#define INIT_TRIES 100

/* Φ(−2), Φ(−1), Φ(1), Φ(2) */
static const double pct[4] = { 0.022750131948179195, 0.15865525393145707,
                               0.8413447460685429, 0.9772498680518208 };

void
xrlab_mcmc_options_init (XrlabMcmcOptions *options)
{
  memset (options, 0, sizeof *options);
  options->n_steps = DEFAULT_STEPS;
  options->thin = 1;
  options->a = 2.0;
}

void
xrlab_mcmc_result_free (XrlabMcmcResult *r)
{
  if (r == NULL)
    return;
  g_strfreev (r->names);
  g_free (r->chain);
  g_free (r->lnprob);
  g_free (r->acceptance);
  g_free (r->tau);
  g_free (r->median);
  g_free (r->lo1);
  g_free (r->hi1);
  g_free (r->lo2);
  g_free (r->hi2);
  g_free (r->best);
  g_free (r);
}

/* ---- ln p ---------------------------------------------------------------------------- */

typedef struct {
  const XrlabMcmcProblem *pb;
  gsize d;                     /* sampled dimensions: p, or p + 1 with ln s */
  gboolean sampled;
  double lns_lo, lns_hi;       /* the prior of ln s */
  double *resid;               /* n_slots × n */
  guint64 *n_eval;             /* per slot */
  /* the batch being evaluated */
  const double *x;             /* points, d each */
  double *lnp;
  const guint *idx;            /* which points */
  guint n_idx, n_parts;
} Eval;

static double
lnprob (Eval *ev, const double *x, guint slot)
{
  const XrlabMcmcProblem *pb = ev->pb;
  double *r = ev->resid + (gsize) slot * pb->n, chi2 = 0.0;

  for (gsize j = 0; j < pb->p; j++)
    if ((pb->lower && x[j] < pb->lower[j]) || (pb->upper && x[j] > pb->upper[j])
        || !isfinite (x[j]))
      return -INFINITY;
  if (ev->sampled && !(x[pb->p] >= ev->lns_lo && x[pb->p] <= ev->lns_hi))
    return -INFINITY;
  ev->n_eval[slot]++;
  if (!pb->residual (x, r, slot, pb->user_data))
    return -INFINITY;
  for (gsize i = 0; i < pb->n; i++)
    chi2 += r[i] * r[i];
  if (!isfinite (chi2))
    return -INFINITY;
  if (!ev->sampled)
    return -0.5 * chi2;
  {
    double lns = x[pb->p];
    return -0.5 * (chi2 * exp (-2.0 * lns) + (double) pb->n * (log (2.0 * M_PI) + 2.0 * lns));
  }
}

static void
eval_part (gpointer data, guint part)
{
  Eval *ev = data;

  for (guint i = part; i < ev->n_idx; i += ev->n_parts)
    ev->lnp[ev->idx[i]] = lnprob (ev, ev->x + (gsize) ev->idx[i] * ev->d, part);
}

/* ln p of the points @idx[0 .. n) of @x into @lnp, in parallel. */
static void
eval_batch (Eval *ev, guint n_slots, const double *x, const guint *idx, guint n, double *lnp)
{
  ev->x = x;
  ev->lnp = lnp;
  ev->idx = idx;
  ev->n_idx = n;
  ev->n_parts = MAX (1, MIN (n_slots, n));
  xrlab_parallel_run (n_slots > 1 ? xrlab_parallel_default () : NULL, ev->n_parts, eval_part,
                      ev);
}

/* ---- autocorrelation --------------------------------------------------------------- */

double
xrlab_mcmc_autocorr_time (const double *x, gsize n, gsize n_chains, double c)
{
  gsize m = 1;
  g_autofree double *buf = NULL, *f = NULL;
  double tau = NAN;

  if (n < 2 || n_chains == 0)
    return NAN;
  while (m < n)
    m <<= 1;
  m *= 2;
  buf = g_new (double, 2 * m);
  f = g_new0 (double, n);
  for (gsize k = 0; k < n_chains; k++)
    {
      double mean = 0.0, acf0;
      for (gsize t = 0; t < n; t++)
        mean += x[t * n_chains + k];
      mean /= (double) n;
      memset (buf, 0, 2 * m * sizeof (double));
      for (gsize t = 0; t < n; t++)
        buf[2 * t] = x[t * n_chains + k] - mean;
      gsl_fft_complex_radix2_forward (buf, 1, m);
      for (gsize i = 0; i < m; i++)
        {
          double re = buf[2 * i], im = buf[2 * i + 1];
          buf[2 * i] = re * re + im * im;
          buf[2 * i + 1] = 0.0;
        }
      gsl_fft_complex_radix2_inverse (buf, 1, m);
      acf0 = buf[0];
      if (!(acf0 > 0))
        return NAN;
      for (gsize t = 0; t < n; t++)
        f[t] += buf[2 * t] / acf0 / (double) n_chains;
    }
  /* τ(M) = 2 Σ_{t ≤ M} f(t) − 1; the smallest M with M ≥ c τ(M) */
  {
    double cum = 0.0;
    for (gsize t = 0; t < n; t++)
      {
        cum += f[t];
        tau = 2.0 * cum - 1.0;
        if ((double) t >= c * tau)
          return tau;
      }
  }
  return tau;
}

/* ---- quantiles ------------------------------------------------------------------------ */

static int
cmp_double (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y ? 1 : 0;
}

/* numpy.percentile's linear interpolation on the sorted @v (n). */
static double
percentile (const double *v, gsize n, double q)
{
  double pos = q * (double) (n - 1);
  gsize lo = (gsize) floor (pos);

  if (lo + 1 >= n)
    return v[n - 1];
  return v[lo] + (pos - (double) lo) * (v[lo + 1] - v[lo]);
}

static void
summarise (XrlabMcmcResult *r, guint thin)
{
  const gsize d = r->p, K = r->n_walkers, N = (gsize) r->n_kept * K;
  g_autofree double *col = g_new (double, MAX (N, 1));

  r->tau_reliable = r->n_kept > 0;
  for (gsize j = 0; j < d; j++)
    {
      for (gsize i = 0; i < N; i++)
        col[i] = r->chain[i * d + j];
      r->tau[j] = xrlab_mcmc_autocorr_time (col, r->n_kept, K, 5.0);
      if (!(r->n_kept >= 50.0 * r->tau[j]))
        r->tau_reliable = FALSE;
      r->tau[j] *= (double) thin;
      if (N == 0)
        {
          r->median[j] = r->lo1[j] = r->hi1[j] = r->lo2[j] = r->hi2[j] = NAN;
          continue;
        }
      qsort (col, N, sizeof (double), cmp_double);
      r->median[j] = percentile (col, N, 0.5);
      r->lo2[j] = percentile (col, N, pct[0]);
      r->lo1[j] = percentile (col, N, pct[1]);
      r->hi1[j] = percentile (col, N, pct[2]);
      r->hi2[j] = percentile (col, N, pct[3]);
    }
  r->best_lnprob = -INFINITY;
  for (gsize i = 0; i < N; i++)
    if (r->lnprob[i] > r->best_lnprob)
      {
        r->best_lnprob = r->lnprob[i];
        memcpy (r->best, r->chain + i * d, d * sizeof (double));
      }
  if (N == 0)
    for (gsize j = 0; j < d; j++)
      r->best[j] = NAN;
}

/* ---- the sampler ------------------------------------------------------------------------ */

static gboolean
check (const XrlabMcmcProblem *pb, const XrlabMcmcOptions *o, gboolean sampled, gsize d,
       guint K, GError **error)
{
  if (pb->n == 0 || pb->p == 0 || pb->residual == NULL || pb->start == NULL)
    {
      g_set_error (error, XRLAB_MCMC_ERROR, XRLAB_MCMC_ERROR_INVALID,
                   _("MCMC needs residuals, parameters and a start"));
      return FALSE;
    }
  if (K < 2 * d)
    {
      g_autofree char *walkers = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u walker",
                                                               "%u walkers", K), K);
      g_autofree char *params = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                              "%zu sampled parameter",
                                                              "%zu sampled parameters", d), d);
      /* TRANSLATORS: "MCMC: 4 walkers are too few for 3 sampled parameters
       * (it needs at least twice as many walkers)" */
      g_set_error (error, XRLAB_MCMC_ERROR, XRLAB_MCMC_ERROR_INVALID,
                   _("MCMC: %s are too few for %s (it needs at least twice as many walkers)"),
                   walkers, params);
      return FALSE;
    }
  if (o->burn >= o->n_steps)
    {
      g_autofree char *burn = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u step",
                                                            "%u steps", o->burn), o->burn);
      g_autofree char *steps = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u step",
                                                             "%u steps", o->n_steps),
                                                o->n_steps);
      /* TRANSLATORS: "MCMC: a burn-in of 500 steps leaves nothing of 400 steps" */
      g_set_error (error, XRLAB_MCMC_ERROR, XRLAB_MCMC_ERROR_INVALID,
                   _("MCMC: a burn-in of %s leaves nothing of %s"), burn, steps);
      return FALSE;
    }
  if (sampled && !(o->sigma_ini > 0 && isfinite (o->sigma_ini)))
    {
      g_set_error (error, XRLAB_MCMC_ERROR, XRLAB_MCMC_ERROR_INVALID,
                   _("MCMC: the starting noise scale must be a number > 0"));
      return FALSE;
    }
  for (gsize j = 0; j < pb->p; j++)
    if (!isfinite (pb->start[j]) || (pb->lower && pb->start[j] < pb->lower[j])
        || (pb->upper && pb->start[j] > pb->upper[j]))
      {
        g_set_error (error, XRLAB_MCMC_ERROR, XRLAB_MCMC_ERROR_INVALID,
                     _("MCMC: the start of %s lies outside its bounds"),
                     pb->names ? pb->names[j] : "?");
        return FALSE;
      }
  return TRUE;
}

/* The first positions of the walkers (see the header). */
static void
init_walkers (const XrlabMcmcProblem *pb, Eval *ev, const double *x0, guint K, gsl_rng *rng,
              double *x)
{
  const gsize d = ev->d;

  for (guint k = 0; k < K; k++)
    for (gsize j = 0; j < d; j++)
      {
        double w, v = x0[j];
        if (j < pb->p && pb->start_scale && isfinite (pb->start_scale[j])
            && pb->start_scale[j] > 0)
          w = 0.1 * pb->start_scale[j];
        else
          w = x0[j] != 0.0 ? 1e-4 * fabs (x0[j]) : 1e-4;
        for (int t = 0; t < INIT_TRIES; t++)
          {
            v = x0[j] + gsl_ran_gaussian (rng, w);
            if (j < pb->p ? (!(pb->lower && v < pb->lower[j]) && !(pb->upper && v > pb->upper[j]))
                          : (v >= ev->lns_lo && v <= ev->lns_hi))
              break;
            v = x0[j];
          }
        x[(gsize) k * d + j] = v;
      }
}

/* A result with its names and room for the kept chain. */
static XrlabMcmcResult *
result_new (const XrlabMcmcProblem *pb, const XrlabMcmcOptions *o, guint K, gsize d,
            gboolean sampled)
{
  XrlabMcmcResult *r = g_new0 (XrlabMcmcResult, 1);
  gsize kept_max = (o->n_steps - o->burn + o->thin - 1) / o->thin;

  r->p = d;
  r->n_walkers = K;
  r->names = g_new0 (char *, d + 1);
  for (gsize j = 0; j < pb->p; j++)
    r->names[j] = pb->names ? g_strdup (pb->names[j]) : g_strdup_printf ("p%zu", j + 1);
  if (sampled)
    r->names[pb->p] = g_strdup ("__lnsigma");
  r->chain = g_new (double, MAX (kept_max * K * d, 1));
  r->lnprob = g_new (double, MAX (kept_max * K, 1));
  return r;
}

/* Moves the walkers @S (half of @K) with partners from @C: proposals,
 * their ln p in parallel, acceptance (see the header). */
static void
half_step (Eval *ev, guint n_slots, gsl_rng *rng, double a, guint K, const guint *S,
           const guint *C, double *x, double *y, double *lnp, double *lnp_y, double *z,
           double *lu, guint *acc)
{
  const gsize d = ev->d;
  const guint half = K / 2;

  for (guint i = 0; i < half; i++)
    {
      guint k = S[i], j = C[gsl_rng_uniform_int (rng, half)];
      double u = gsl_rng_uniform (rng);
      z[k] = ((a - 1.0) * u + 1.0) * ((a - 1.0) * u + 1.0) / a;
      lu[k] = log (gsl_rng_uniform_pos (rng));
      for (gsize q = 0; q < d; q++)
        y[(gsize) k * d + q] = x[(gsize) j * d + q]
                               + z[k] * (x[(gsize) k * d + q] - x[(gsize) j * d + q]);
    }
  eval_batch (ev, n_slots, y, S, half, lnp_y);
  for (guint i = 0; i < half; i++)
    {
      guint k = S[i];
      double diff = (double) (d - 1) * log (z[k]) + lnp_y[k] - lnp[k];
      if (isfinite (lnp_y[k]) && diff > lu[k])
        {
          memcpy (x + (gsize) k * d, y + (gsize) k * d, d * sizeof (double));
          lnp[k] = lnp_y[k];
          acc[k]++;
        }
    }
}

/* Acceptance fractions, autocorrelation times, quantiles and counts. */
static void
finish (XrlabMcmcResult *r, const guint *acc, const Eval *ev, guint n_slots, guint thin)
{
  const gsize d = r->p;
  const guint K = r->n_walkers;

  r->acceptance = g_new (double, K);
  r->acceptance_mean = 0.0;
  for (guint k = 0; k < K; k++)
    {
      r->acceptance[k] = r->n_steps ? (double) acc[k] / r->n_steps : NAN;
      r->acceptance_mean += r->acceptance[k] / K;
    }
  r->tau = g_new (double, d);
  r->median = g_new (double, d);
  r->lo1 = g_new (double, d);
  r->hi1 = g_new (double, d);
  r->lo2 = g_new (double, d);
  r->hi2 = g_new (double, d);
  r->best = g_new (double, d);
  summarise (r, thin);
  for (guint s = 0; s < n_slots; s++)
    r->n_eval += ev->n_eval[s];
}

gboolean
xrlab_mcmc_run (const XrlabMcmcProblem *pb, const XrlabMcmcOptions *options,
                GCancellable *cancellable, XrlabMcmcResult **result, GError **error)
{
  XrlabMcmcOptions o;
  const gboolean sampled = options && options->noise == XRLAB_MCMC_NOISE_SAMPLED;
  const gsize d = pb->p + (sampled ? 1 : 0);
  const guint n_slots = MAX (1, pb->n_slots);
  double t_start = xrlab_now ();
  g_autoptr(XrlabMcmcResult) r = NULL;
  g_autofree double *x = NULL, *y = NULL, *lnp = NULL, *lnp_y = NULL, *z = NULL, *lu = NULL;
  g_autofree double *x0 = NULL;
  g_autofree guint *perm = NULL, *all = NULL, *acc = NULL;
  Eval ev = { 0 };
  gsl_rng *rng;
  guint K, step;
  gboolean cancelled = FALSE;

  g_return_val_if_fail (pb != NULL && result != NULL, FALSE);
  *result = NULL;
  if (options)
    o = *options;
  else
    xrlab_mcmc_options_init (&o);
  if (o.n_steps == 0)
    o.n_steps = DEFAULT_STEPS;
  if (o.thin == 0)
    o.thin = 1;
  if (!(o.a > 1))
    o.a = 2.0;
  K = o.n_walkers ? o.n_walkers : MAX (2 * (guint) (d + 1), 32);
  K += K % 2;
  if (!check (pb, &o, sampled, d, K, error))
    return FALSE;

  ev.pb = pb;
  ev.d = d;
  ev.sampled = sampled;
  if (sampled)
    {
      ev.lns_lo = log (o.sigma_ini) - LNSIGMA_RANGE;
      ev.lns_hi = log (o.sigma_ini) + LNSIGMA_RANGE;
    }
  ev.resid = g_new (double, (gsize) n_slots * pb->n);
  ev.n_eval = g_new0 (guint64, n_slots);

  x0 = g_new (double, d);
  memcpy (x0, pb->start, pb->p * sizeof (double));
  if (sampled)
    x0[pb->p] = log (o.sigma_ini);
  x = g_new (double, (gsize) K * d);
  y = g_new (double, (gsize) K * d);
  lnp = g_new (double, K);
  lnp_y = g_new (double, K);
  z = g_new (double, K);
  lu = g_new (double, K);
  perm = g_new (guint, K);
  all = g_new (guint, K);
  acc = g_new0 (guint, K);
  for (guint k = 0; k < K; k++)
    all[k] = k;

  /* the start itself must be possible */
  {
    double l0 = lnprob (&ev, x0, 0);
    if (!isfinite (l0))
      {
        g_set_error (error, XRLAB_MCMC_ERROR, XRLAB_MCMC_ERROR_MODEL,
                     _("MCMC: the model cannot be evaluated at the start"));
        g_free (ev.resid);
        g_free (ev.n_eval);
        return FALSE;
      }
  }
  rng = gsl_rng_alloc (gsl_rng_mt19937);
  gsl_rng_set (rng, (unsigned long) o.seed);
  init_walkers (pb, &ev, x0, K, rng, x);
  eval_batch (&ev, n_slots, x, all, K, lnp);
  for (guint k = 0; k < K; k++)
    if (!isfinite (lnp[k]))
      {
        memcpy (x + (gsize) k * d, x0, d * sizeof (double));
        lnp[k] = lnprob (&ev, x0, 0);
      }

  r = result_new (pb, &o, K, d, sampled);

  for (step = 0; step < o.n_steps && !cancelled; step++)
    {
      /* a random split into two halves (emcee's randomize_split) */
      for (guint k = 0; k < K; k++)
        perm[k] = k;
      for (guint k = K - 1; k > 0; k--)
        {
          guint j = (guint) gsl_rng_uniform_int (rng, k + 1), t = perm[k];
          perm[k] = perm[j];
          perm[j] = t;
        }
      for (guint h = 0; h < 2 && !cancelled; h++)
        {
          half_step (&ev, n_slots, rng, o.a, K, perm + (h ? K / 2 : 0), perm + (h ? 0 : K / 2),
                     x, y, lnp, lnp_y, z, lu, acc);
          cancelled = g_cancellable_is_cancelled (cancellable);
        }
      if (!cancelled && step >= o.burn && (step - o.burn) % o.thin == 0)
        {
          memcpy (r->chain + (gsize) r->n_kept * K * d, x, (gsize) K * d * sizeof (double));
          memcpy (r->lnprob + (gsize) r->n_kept * K, lnp, K * sizeof (double));
          r->n_kept++;
        }
      if (!cancelled)
        {
          r->n_steps = step + 1;
          if (o.progress)
            {
              double sum = 0.0;
              for (guint k = 0; k < K; k++)
                sum += acc[k];
              o.progress (step + 1, o.n_steps, sum / ((double) K * (step + 1)),
                          o.progress_data);
            }
        }
    }
  gsl_rng_free (rng);

  finish (r, acc, &ev, n_slots, o.thin);
  r->wall_s = xrlab_now () - t_start;
  g_free (ev.resid);
  g_free (ev.n_eval);
  *result = g_steal_pointer (&r);
  if (cancelled)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                   g_dngettext (GETTEXT_PACKAGE,
                                "The MCMC sampling was cancelled after %u of %u step",
                                "The MCMC sampling was cancelled after %u of %u steps",
                                o.n_steps),
                   (*result)->n_steps, o.n_steps);
      return FALSE;
    }
  return TRUE;
}
