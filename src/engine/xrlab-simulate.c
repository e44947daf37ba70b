/* xrlab-simulate.c -- synthetic measurements: a model plus noise
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-simulate.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sf_gamma.h>

#include "xrlab-parallel.h"
#include "xrlab-plan.h"
#include "xrlab-util.h"

G_DEFINE_QUARK (xrlab-simulate-error-quark, xrlab_simulate_error)

gboolean
xrlab_noise_kind_from_string (const char *text, XrlabNoiseKind *kind)
{
  if (g_ascii_strcasecmp (text, "none") == 0)
    *kind = XRLAB_NOISE_NONE;
  else if (g_ascii_strcasecmp (text, "gaussian") == 0 || g_ascii_strcasecmp (text, "gauss") == 0)
    *kind = XRLAB_NOISE_GAUSSIAN;
  else if (g_ascii_strcasecmp (text, "poisson") == 0)
    *kind = XRLAB_NOISE_POISSON;
  else if (g_ascii_strcasecmp (text, "counting") == 0
           || g_ascii_strcasecmp (text, "photon_counting") == 0
           || g_ascii_strcasecmp (text, "photon-counting") == 0)
    *kind = XRLAB_NOISE_COUNTING;
  else
    return FALSE;
  return TRUE;
}

/* The checks of every noise on the model @y; *@max = max |y|. */
static gboolean
check_noise (const double *y, gsize n, XrlabNoiseKind kind, double level, double *max,
             GError **error)
{
  char b[XRLAB_DTOA_BUFSIZE];
  double m = 0.0;

  if (!(isfinite (level) && level >= 0))
    {
      g_set_error (error, XRLAB_SIMULATE_ERROR, XRLAB_SIMULATE_ERROR_INVALID,
                   _("The noise level %s is not a finite number ≥ 0"),
                   xrlab_format_double (level, b));
      return FALSE;
    }
  if (kind == XRLAB_NOISE_COUNTING && !(level > 0))
    {
      g_set_error (error, XRLAB_SIMULATE_ERROR, XRLAB_SIMULATE_ERROR_INVALID,
                   _("Photon counting needs a number of photons per delay > 0"));
      return FALSE;
    }
  for (gsize i = 0; i < n; i++)
    {
      if (!isfinite (y[i]))
        {
          g_set_error (error, XRLAB_SIMULATE_ERROR, XRLAB_SIMULATE_ERROR_MODEL,
                       _("The model is not finite at point %zu"), i + 1);
          return FALSE;
        }
      if (kind == XRLAB_NOISE_POISSON && y[i] < 0)
        {
          g_set_error (error, XRLAB_SIMULATE_ERROR, XRLAB_SIMULATE_ERROR_MODEL,
                       _("Poisson noise needs a model ≥ 0, but it is %s at point %zu"),
                       xrlab_format_double (y[i], b), i + 1);
          return FALSE;
        }
      m = MAX (m, fabs (y[i]));
    }
  if (m == 0 && level > 0 && (kind == XRLAB_NOISE_GAUSSIAN || kind == XRLAB_NOISE_POISSON))
    {
      g_set_error (error, XRLAB_SIMULATE_ERROR, XRLAB_SIMULATE_ERROR_MODEL,
                   _("The model is zero everywhere: a relative noise level has no scale"));
      return FALSE;
    }
  *max = m;
  return TRUE;
}

/* ---- counting noise ------------------------------------------------------------- */

/* The generator of one block of points: xoshiro256++ (Blackman and Vigna),
 * its four state words the splitmix64 outputs after splitmix64 (seed) +
 * block (see the header). */
typedef struct {
  guint64 s[4];
} Rng;

static inline guint64
splitmix64 (guint64 *x)
{
  guint64 z = (*x += G_GUINT64_CONSTANT (0x9e3779b97f4a7c15));

  z = (z ^ (z >> 30)) * G_GUINT64_CONSTANT (0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * G_GUINT64_CONSTANT (0x94d049bb133111eb);
  return z ^ (z >> 31);
}

static void
rng_seed (Rng *r, guint64 seed, guint64 block)
{
  guint64 x = seed;

  x = splitmix64 (&x) + block;
  for (guint j = 0; j < 4; j++)
    r->s[j] = splitmix64 (&x);
}

static inline guint64
rotl (guint64 x, int k)
{
  return (x << k) | (x >> (64 - k));
}

static inline guint64
rng_next (Rng *r)
{
  guint64 *s = r->s;
  const guint64 out = rotl (s[0] + s[3], 23) + s[0], t = s[1] << 17;

  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl (s[3], 45);
  return out;
}

/* [0, 1) and (0, 1), 53 bits */
static inline double
rng_uniform (Rng *r)
{
  return (double) (rng_next (r) >> 11) * 0x1.0p-53;
}

static inline double
rng_uniform_pos (Rng *r)
{
  return ((double) (rng_next (r) >> 11) + 0.5) * 0x1.0p-53;
}

/* log k! for k < LOG_FACT_N from a table, else Stirling's series */
#define LOG_FACT_N 1024
static double log_fact_table[LOG_FACT_N];

static gpointer
log_fact_fill (gpointer data)
{
  (void) data;
  for (guint k = 0; k < LOG_FACT_N; k++)
    log_fact_table[k] = gsl_sf_lnfact (k);
  return NULL;
}

static inline double
log_fact (double k)
{
  double x, ix;

  if (k < LOG_FACT_N)
    return log_fact_table[(gsize) k];
  /* lgamma (x) for x = k + 1 > 1024: the terms left out are < 1e-18 */
  x = k + 1.0;
  ix = 1.0 / x;
  return (x - 0.5) * log (x) - x + 0.91893853320467274178
         + ix * (1.0 / 12.0 - ix * ix * (1.0 / 360.0 - ix * ix / 1260.0));
}

/* What the draws of one mean μ share: inversion below 10 (one uniform, the
 * cumulative probabilities from e^−μ up), Hörmann's transformed rejection
 * with squeeze (PTRS, 1993) above. */
typedef struct {
  double mu;
  double e;                                  /* e^−μ */
  double b, a, inv_alpha, vr, log_mu;        /* PTRS */
} Counts;

#define PTRS_MIN_MEAN 10.0

static inline void
counts_init (Counts *c, double mu)
{
  c->mu = mu;
  if (mu < PTRS_MIN_MEAN)
    {
      c->e = exp (-mu);
      return;
    }
  c->b = 0.931 + 2.53 * sqrt (mu);
  c->a = -0.059 + 0.02483 * c->b;
  c->inv_alpha = 1.1239 + 1.1328 / (c->b - 3.4);
  c->vr = 0.9277 - 3.6224 / (c->b - 2.0);
  c->log_mu = log (mu);
}

static inline double
counts_draw (const Counts *c, Rng *r)
{
  if (c->mu < PTRS_MIN_MEAN)
    {
      const double u = rng_uniform (r);
      double p = c->e, f = p, k = 0.0;

      /* P (k > 100) < 1e-60 below a mean of 10: the bound only keeps a
       * sum that rounding stops short of u from running on */
      while (u >= f && k < 100.0)
        {
          k += 1.0;
          p *= c->mu / k;
          f += p;
        }
      return k;
    }
  for (;;)
    {
      const double u = rng_uniform (r) - 0.5, v = rng_uniform_pos (r);
      const double us = 0.5 - fabs (u);
      const double t = (2.0 * c->a / us + c->b) * u + c->mu + 0.43;
      double k;

      /* k = ⌊t⌋ < 0 is rejected (the quick acceptance below never meets
       * one); a cast floors t ≥ 0 faster than floor () without SSE 4.1 */
      if (!(t >= 0))
        continue;
      k = t < 0x1p52 ? (double) (guint64) t : floor (t);
      if (us >= 0.07 && v <= c->vr)
        return k;
      if (us < 0.013 && v > us)
        continue;
      if (log (v * c->inv_alpha / (c->a / (us * us) + c->b))
          <= -c->mu + k * c->log_mu - log_fact (k))
        return k;
    }
}

/* Points [i0, i1) of realisations [r0, r1): counts of mean s·|m|, back in
 * the model's units (signs kept for photon counting). */
static void
draw_counts (const XrlabSimulateDraws *d, gsize i0, gsize i1, guint r0, guint r1)
{
  Rng rng[XRLAB_SIMULATE_GROUP];
  const double s = d->scale;
  const guint nr = r1 - r0;

  for (guint r = 0; r < nr; r++)
    rng_seed (&rng[r], d->seed + r0 + r, i0 / XRLAB_SIMULATE_BLOCK);
  for (gsize i = i0; i < i1; i++)
    {
      const double m = d->clean[i], mu = s * fabs (m);
      Counts c;

      if (!(mu > 0))
        {
          for (guint r = 0; r < nr; r++)
            d->out[r0 + r][i] = 0.0;
          continue;
        }
      counts_init (&c, mu);
      for (guint r = 0; r < nr; r++)
        {
          const double y = counts_draw (&c, &rng[r]) / s;
          d->out[r0 + r][i] = m < 0 ? -y : y;
        }
    }
}

/* Realisation @r with Gaussian noise: one MT19937 stream over every point. */
static void
draw_gaussian (const XrlabSimulateDraws *d, guint r)
{
  gsl_rng *rng = gsl_rng_alloc (gsl_rng_mt19937);
  double *out = d->out[r];

  gsl_rng_set (rng, (unsigned long) (d->seed + r));
  for (gsize i = 0; i < d->n; i++)
    out[i] = d->clean[i] + gsl_ran_gaussian (rng, d->scale);
  gsl_rng_free (rng);
}

static gboolean
has_noise (const XrlabSimulateDraws *d)
{
  return d->kind != XRLAB_NOISE_NONE && d->level != 0 && d->max != 0;
}

gboolean
xrlab_simulate_draws_init (XrlabSimulateDraws *d, const double *clean, gsize n_rows,
                           gsize n_cols, XrlabNoiseKind kind, double level, guint64 seed,
                           guint n_real, double *const *out, GError **error)
{
  static GOnce once = G_ONCE_INIT;

  memset (d, 0, sizeof *d);
  d->scale = NAN;
  n_rows = MAX (n_rows, 1);
  if (!check_noise (clean, n_rows * n_cols, kind, level, &d->max, error))
    return FALSE;
  g_once (&once, log_fact_fill, NULL);
  d->clean = clean;
  d->out = out;
  d->n = n_rows * n_cols;
  d->kind = kind;
  d->level = level;
  d->seed = seed;
  d->n_real = n_real;
  d->n_blocks = (guint) MAX ((d->n + XRLAB_SIMULATE_BLOCK - 1) / XRLAB_SIMULATE_BLOCK, 1);
  d->n_groups = (n_real + XRLAB_SIMULATE_GROUP - 1) / XRLAB_SIMULATE_GROUP;
  if (!has_noise (d))
    return TRUE;
  if (kind == XRLAB_NOISE_GAUSSIAN)
    d->scale = level * d->max;
  else if (kind == XRLAB_NOISE_POISSON)
    d->scale = 1.0 / (level * level * d->max);
  else
    {
      /* photons per data unit: the mean row holds @level photons */
      double total = 0.0;
      for (gsize i = 0; i < d->n; i++)
        total += fabs (clean[i]);
      d->scale = level / (total / (double) n_rows);
    }
  return TRUE;
}

guint
xrlab_simulate_draws_n_parts (const XrlabSimulateDraws *d)
{
  if (d->n_real == 0)
    return 0;
  if (has_noise (d) && d->kind == XRLAB_NOISE_GAUSSIAN)
    return d->n_real;
  return d->n_blocks * d->n_groups;
}

void
xrlab_simulate_draws_part (const XrlabSimulateDraws *d, guint part, gsize *i0, gsize *i1,
                           guint *r0, guint *r1)
{
  gsize a = 0, b = d->n;
  guint ra = part, rb = part + 1;

  if (!(has_noise (d) && d->kind == XRLAB_NOISE_GAUSSIAN))
    {
      const guint block = part % d->n_blocks, group = part / d->n_blocks;

      a = MIN ((gsize) block * XRLAB_SIMULATE_BLOCK, d->n);
      b = MIN (a + XRLAB_SIMULATE_BLOCK, d->n);
      ra = group * XRLAB_SIMULATE_GROUP;
      rb = MIN (ra + XRLAB_SIMULATE_GROUP, d->n_real);
    }
  if (!has_noise (d))
    for (guint r = ra; r < rb; r++)
      {
        if (d->out[r] != d->clean)
          memcpy (d->out[r] + a, d->clean + a, (b - a) * sizeof (double));
      }
  else if (d->kind == XRLAB_NOISE_GAUSSIAN)
    draw_gaussian (d, part);
  else
    draw_counts (d, a, b, ra, rb);
  if (i0)
    *i0 = a;
  if (i1)
    *i1 = b;
  if (r0)
    *r0 = ra;
  if (r1)
    *r1 = rb;
}

static void
draws_part (gpointer data, guint part)
{
  xrlab_simulate_draws_part (data, part, NULL, NULL, NULL, NULL);
}

/* Draws every part of @d on the pool. */
static void
draws_run (const XrlabSimulateDraws *d)
{
  xrlab_parallel_run (xrlab_parallel_default (), xrlab_simulate_draws_n_parts (d), draws_part,
                      (gpointer) d);
}

gboolean
xrlab_simulate_noise_rows (double *y, gsize n_rows, gsize n_cols, XrlabNoiseKind kind,
                           double level, guint64 seed, double *scale, GError **error)
{
  XrlabSimulateDraws d;

  if (scale)
    *scale = NAN;
  if (!xrlab_simulate_draws_init (&d, y, n_rows, n_cols, kind, level, seed, 1, &y, error))
    return FALSE;
  draws_run (&d);
  if (scale)
    *scale = d.scale;
  return TRUE;
}

gboolean
xrlab_simulate_noise (double *y, gsize n, XrlabNoiseKind kind, double level, guint64 seed,
                      double *scale, GError **error)
{
  return xrlab_simulate_noise_rows (y, 1, n, kind, level, seed, scale, error);
}

/* The plan of @model on the axes and its initial θ. */
static XrlabPlan *
clean_plan (const XrlabModel *model, const double *energy, gsize n_energy, const double *time,
            gsize n_time, const double *aux, gsize n_aux, double **theta, GError **error)
{
  XrlabPlan *plan = xrlab_plan_new (model, energy, n_energy, time, n_time, aux, n_aux, error);

  if (plan == NULL)
    return NULL;
  *theta = g_new (double, MAX (xrlab_plan_n_theta (plan), 1));
  xrlab_plan_theta_initial (plan, *theta);
  return plan;
}

/* The model at its values on the axes: a new array; *@n_rows its rows. */
static double *
clean_model (const XrlabModel *model, const double *energy, gsize n_energy, const double *time,
             gsize n_time, const double *aux, gsize n_aux, gsize *n_rows, GError **error)
{
  g_autofree double *theta = NULL;
  g_autoptr(XrlabPlan) plan = clean_plan (model, energy, n_energy, time, n_time, aux, n_aux,
                                          &theta, error);
  double *y;

  if (plan == NULL)
    return NULL;
  y = g_new (double, MAX (xrlab_plan_n_data (plan), 1));
  xrlab_plan_eval (plan, theta, y);
  *n_rows = xrlab_plan_n_rows (plan);
  return y;
}

gboolean
xrlab_simulate_model_into (const XrlabModel *model, const double *energy, gsize n_energy,
                           const double *time, gsize n_time, const double *aux, gsize n_aux,
                           double *out, gsize n_out, GError **error)
{
  g_autofree double *theta = NULL;
  g_autoptr(XrlabPlan) plan = clean_plan (model, energy, n_energy, time, n_time, aux, n_aux,
                                          &theta, error);

  if (plan == NULL)
    return FALSE;
  if (xrlab_plan_n_data (plan) != n_out)
    {
      g_set_error (error, XRLAB_SIMULATE_ERROR, XRLAB_SIMULATE_ERROR_INVALID,
                   _("The model has %zu values on these axes, not %zu"),
                   xrlab_plan_n_data (plan), n_out);
      return FALSE;
    }
  xrlab_plan_eval (plan, theta, out);
  return TRUE;
}

double *
xrlab_simulate (const XrlabModel *model, const double *energy, gsize n_energy,
                const double *time, gsize n_time, const double *aux, gsize n_aux,
                XrlabNoiseKind kind, double level, guint64 seed, double *scale,
                GError **error)
{
  gsize n_rows = 1;
  g_autofree double *y = clean_model (model, energy, n_energy, time, n_time, aux, n_aux,
                                      &n_rows, error);

  if (y == NULL)
    return NULL;
  if (!xrlab_simulate_noise_rows (y, n_rows, n_energy, kind, level, seed, scale, error))
    return NULL;
  return g_steal_pointer (&y);
}

double *
xrlab_simulate_n (const XrlabModel *model, const double *energy, gsize n_energy,
                  const double *time, gsize n_time, const double *aux, gsize n_aux,
                  XrlabNoiseKind kind, double level, guint64 seed, guint n_real,
                  double **clean, gsize *n_data, double *scale, GError **error)
{
  XrlabSimulateDraws d;
  g_autofree double *y = NULL, *all = NULL;
  g_autofree double **out = NULL;
  gsize n_rows = 1, n;

  if (scale)
    *scale = NAN;
  y = clean_model (model, energy, n_energy, time, n_time, aux, n_aux, &n_rows, error);
  if (y == NULL)
    return NULL;
  n = n_rows * n_energy;
  all = g_new (double, MAX ((gsize) n_real * n, 1));
  out = g_new (double *, MAX (n_real, 1));
  for (guint r = 0; r < n_real; r++)
    out[r] = all + (gsize) r * n;
  if (!xrlab_simulate_draws_init (&d, y, n_rows, n_energy, kind, level, seed, n_real, out,
                                  error))
    return NULL;
  draws_run (&d);
  if (n_data)
    *n_data = n;
  if (scale)
    *scale = d.scale;
  if (clean)
    *clean = g_steal_pointer (&y);
  return g_steal_pointer (&all);
}

/* ---- parameter sweeps ------------------------------------------------------------ */

typedef enum { SPEC_VALUES, SPEC_UNIFORM, SPEC_NORMAL, SPEC_LOGNORMAL } SpecKind;

typedef struct {
  char *name;
  SpecKind kind;
  double a, b;          /* min, max or mean, sd */
  gsize n;              /* values or samples */
  double *values;       /* SPEC_VALUES */
} Spec;

struct _XrlabSweep {
  XrlabSweepStrategy strategy;
  guint64 seed;
  GPtrArray *specs;     /* Spec* */
  double *configs;      /* drawn, or NULL */
};

gboolean
xrlab_sweep_strategy_from_string (const char *text, XrlabSweepStrategy *strategy)
{
  static const char *names[] = { "auto", "grid", "random" };

  for (guint i = 0; text != NULL && i < G_N_ELEMENTS (names); i++)
    if (g_ascii_strcasecmp (text, names[i]) == 0)
      {
        *strategy = (XrlabSweepStrategy) i;
        return TRUE;
      }
  return FALSE;
}

static void
spec_free (Spec *sp)
{
  g_free (sp->name);
  g_free (sp->values);
  g_free (sp);
}

XrlabSweep *
xrlab_sweep_new (XrlabSweepStrategy strategy, guint64 seed)
{
  XrlabSweep *sw = g_new0 (XrlabSweep, 1);

  sw->strategy = strategy;
  sw->seed = seed;
  sw->specs = g_ptr_array_new_with_free_func ((GDestroyNotify) spec_free);
  return sw;
}

void
xrlab_sweep_free (XrlabSweep *sweep)
{
  if (sweep == NULL)
    return;
  g_ptr_array_unref (sweep->specs);
  g_free (sweep->configs);
  g_free (sweep);
}

static gboolean
add_spec (XrlabSweep *sw, Spec *sp, GError **error)
{
  char a[XRLAB_DTOA_BUFSIZE], b[XRLAB_DTOA_BUFSIZE];
  gboolean ok = sp->n > 0;

  if (!ok)
    g_set_error (error, XRLAB_SIMULATE_ERROR, XRLAB_SIMULATE_ERROR_SWEEP,
                 _("Sweep of %s: no values"), sp->name);
  else if (sp->kind == SPEC_VALUES)
    for (gsize i = 0; i < sp->n && ok; i++)
      if (!isfinite (sp->values[i]))
        {
          g_set_error (error, XRLAB_SIMULATE_ERROR, XRLAB_SIMULATE_ERROR_SWEEP,
                       _("Sweep of %s: value %zu is not a finite number"), sp->name, i + 1);
          ok = FALSE;
        }
  if (ok && sp->kind != SPEC_VALUES
      && !(isfinite (sp->a) && isfinite (sp->b)
           && (sp->kind == SPEC_UNIFORM ? sp->a <= sp->b : sp->b >= 0)))
    {
      g_set_error (error, XRLAB_SIMULATE_ERROR, XRLAB_SIMULATE_ERROR_SWEEP,
                   sp->kind == SPEC_UNIFORM
                     ? _("Sweep of %s: the range %s … %s is not a finite, increasing range")
                     : _("Sweep of %s: mean %s and width %s are not finite numbers with a "
                         "width ≥ 0"),
                   sp->name, xrlab_format_double (sp->a, a), xrlab_format_double (sp->b, b));
      ok = FALSE;
    }
  if (!ok)
    {
      spec_free (sp);
      return FALSE;
    }
  g_clear_pointer (&sw->configs, g_free);
  for (guint i = 0; i < sw->specs->len; i++)
    {
      Spec *old = g_ptr_array_index (sw->specs, i);
      if (g_str_equal (old->name, sp->name))
        {
          /* a dict keeps the key's first place */
          spec_free (old);
          g_ptr_array_index (sw->specs, i) = sp;
          return TRUE;
        }
    }
  g_ptr_array_add (sw->specs, sp);
  return TRUE;
}

gboolean
xrlab_sweep_add_values (XrlabSweep *sweep, const char *name, const double *values,
                        gsize n_values, GError **error)
{
  Spec *sp = g_new0 (Spec, 1);

  sp->name = g_strdup (name);
  sp->kind = SPEC_VALUES;
  sp->n = n_values;
  sp->values = g_memdup2 (values, MAX (n_values, 1) * sizeof (double));
  return add_spec (sweep, sp, error);
}

static gboolean
add_dist (XrlabSweep *sweep, const char *name, SpecKind kind, double a, double b, gsize n,
          GError **error)
{
  Spec *sp = g_new0 (Spec, 1);

  sp->name = g_strdup (name);
  sp->kind = kind;
  sp->a = a;
  sp->b = b;
  sp->n = n;
  return add_spec (sweep, sp, error);
}

gboolean
xrlab_sweep_add_uniform (XrlabSweep *sweep, const char *name, double min, double max,
                         gsize n_samples, GError **error)
{
  return add_dist (sweep, name, SPEC_UNIFORM, min, max, n_samples, error);
}

gboolean
xrlab_sweep_add_normal (XrlabSweep *sweep, const char *name, double mean, double sd,
                        gsize n_samples, GError **error)
{
  return add_dist (sweep, name, SPEC_NORMAL, mean, sd, n_samples, error);
}

gboolean
xrlab_sweep_add_lognormal (XrlabSweep *sweep, const char *name, double mean, double sd,
                           gsize n_samples, GError **error)
{
  return add_dist (sweep, name, SPEC_LOGNORMAL, mean, sd, n_samples, error);
}

gsize
xrlab_sweep_n_params (const XrlabSweep *sweep)
{
  return sweep->specs->len;
}

const char *
xrlab_sweep_param_name (const XrlabSweep *sweep, gsize j)
{
  g_return_val_if_fail (j < sweep->specs->len, NULL);
  return ((Spec *) g_ptr_array_index (sweep->specs, j))->name;
}

static gboolean
is_grid (const XrlabSweep *sw)
{
  if (sw->strategy != XRLAB_SWEEP_AUTO)
    return sw->strategy == XRLAB_SWEEP_GRID;
  for (guint i = 0; i < sw->specs->len; i++)
    if (((Spec *) g_ptr_array_index (sw->specs, i))->kind != SPEC_VALUES)
      return FALSE;
  return TRUE;
}

gsize
xrlab_sweep_n_configs (const XrlabSweep *sweep)
{
  gsize n = is_grid (sweep) ? 1 : 0;

  if (sweep->specs->len == 0)
    return 0;
  for (guint i = 0; i < sweep->specs->len; i++)
    {
      const Spec *sp = g_ptr_array_index (sweep->specs, i);
      n = is_grid (sweep) ? n * sp->n : MAX (n, sp->n);
    }
  return n;
}

/* numpy's legacy generator (RandomState): MT19937 seeded with
 * init_genrand (as GSL's, but seed 0 stays 0), 53-bit doubles, the polar
 * method for normal draws. */
typedef struct {
  guint32 mt[624];
  guint idx;
  gboolean has_gauss;
  double gauss;
} NpRng;

static void
np_seed (NpRng *r, guint32 seed)
{
  r->mt[0] = seed;
  for (guint i = 1; i < 624; i++)
    r->mt[i] = 1812433253u * (r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) + i;
  r->idx = 624;
  r->has_gauss = FALSE;
}

static guint32
np_u32 (NpRng *r)
{
  guint32 y;

  if (r->idx >= 624)
    {
      for (guint k = 0; k < 624; k++)
        {
          y = (r->mt[k] & 0x80000000u) | (r->mt[(k + 1) % 624] & 0x7fffffffu);
          r->mt[k] = r->mt[(k + 397) % 624] ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
        }
      r->idx = 0;
    }
  y = r->mt[r->idx++];
  y ^= y >> 11;
  y ^= (y << 7) & 0x9d2c5680u;
  y ^= (y << 15) & 0xefc60000u;
  y ^= y >> 18;
  return y;
}

static double
np_double (NpRng *r)
{
  guint32 a = np_u32 (r) >> 5, b = np_u32 (r) >> 6;
  return ((double) a * 67108864.0 + (double) b) / 9007199254740992.0;
}

static double
np_gauss (NpRng *r)
{
  double x1, x2, r2, f;

  if (r->has_gauss)
    {
      r->has_gauss = FALSE;
      return r->gauss;
    }
  do
    {
      x1 = 2.0 * np_double (r) - 1.0;
      x2 = 2.0 * np_double (r) - 1.0;
      r2 = x1 * x1 + x2 * x2;
    }
  while (r2 >= 1.0 || r2 == 0.0);
  f = sqrt (-2.0 * log (r2) / r2);
  r->gauss = f * x1;
  r->has_gauss = TRUE;
  return f * x2;
}

/* An index in [0, n) (RandomState.choice: randint by masked rejection). */
static gsize
np_index (NpRng *r, gsize n)
{
  guint32 rng = (guint32) (n - 1), mask = rng, v;

  if (rng == 0)
    return 0;
  mask |= mask >> 1;
  mask |= mask >> 2;
  mask |= mask >> 4;
  mask |= mask >> 8;
  mask |= mask >> 16;
  do
    v = np_u32 (r) & mask;
  while (v > rng);
  return v;
}

static double
np_draw (NpRng *r, const Spec *sp)
{
  switch (sp->kind)
    {
    case SPEC_VALUES:
      return sp->values[np_index (r, sp->n)];
    case SPEC_UNIFORM:
      return sp->a + (sp->b - sp->a) * np_double (r);
    case SPEC_NORMAL:
      return sp->a + sp->b * np_gauss (r);
    case SPEC_LOGNORMAL:
    default:
      return exp (sp->a + sp->b * np_gauss (r));
    }
}

const double *
xrlab_sweep_configs (XrlabSweep *sw)
{
  const gsize np = sw->specs->len, nc = xrlab_sweep_n_configs (sw);
  NpRng r;

  if (sw->configs)
    return sw->configs;
  np_seed (&r, (guint32) sw->seed);
  sw->configs = g_new (double, MAX (nc * np, 1));
  if (is_grid (sw))
    {
      /* every list first (distributions drawn n times), then the product
       * with the last parameter fastest */
      g_autofree double **lists = g_new (double *, MAX (np, 1));
      for (gsize j = 0; j < np; j++)
        {
          const Spec *sp = g_ptr_array_index (sw->specs, j);
          lists[j] = g_new (double, sp->n);
          for (gsize i = 0; i < sp->n; i++)
            lists[j][i] = sp->kind == SPEC_VALUES ? sp->values[i] : np_draw (&r, sp);
        }
      for (gsize c = 0; c < nc; c++)
        {
          gsize rest = c;
          for (gsize j = np; j-- > 0;)
            {
              const Spec *sp = g_ptr_array_index (sw->specs, j);
              sw->configs[c * np + j] = lists[j][rest % sp->n];
              rest /= sp->n;
            }
        }
      for (gsize j = 0; j < np; j++)
        g_free (lists[j]);
    }
  else
    for (gsize c = 0; c < nc; c++)
      for (gsize j = 0; j < np; j++)
        sw->configs[c * np + j] = np_draw (&r, g_ptr_array_index (sw->specs, j));
  return sw->configs;
}

gboolean
xrlab_sweep_apply (XrlabSweep *sweep, gsize config, XrlabModel *model, GError **error)
{
  const double *cf = xrlab_sweep_configs (sweep);
  const gsize np = sweep->specs->len;

  g_return_val_if_fail (config < xrlab_sweep_n_configs (sweep), FALSE);
  for (gsize j = 0; j < np; j++)
    {
      const Spec *sp = g_ptr_array_index (sweep->specs, j);
      g_autoptr(GError) local = NULL;

      if (!xrlab_model_set_value (model, sp->name, cf[config * np + j], &local))
        {
          g_set_error (error, XRLAB_SIMULATE_ERROR, XRLAB_SIMULATE_ERROR_SWEEP,
                       _("Sweep configuration %zu: %s"), config + 1, local->message);
          return FALSE;
        }
    }
  return TRUE;
}
