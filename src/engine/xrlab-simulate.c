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

/* A Poisson count of mean @mu (≥ 0): the multiplication method below 10,
 * Hörmann's transformed rejection (PTRS, 1993) above, as numpy draws them;
 * a few uniform draws each, where gsl_ran_poisson's recursion over gamma
 * variates costs several times more at the means of a spectrum. */
static double
poisson (gsl_rng *rng, double mu)
{
  if (!(mu > 0))
    return 0.0;
  if (mu < 10)
    {
      const double e = exp (-mu);
      double prod = gsl_rng_uniform (rng), k = 0.0;
      while (prod > e)
        {
          k += 1.0;
          prod *= gsl_rng_uniform (rng);
        }
      return k;
    }
  {
    const double slam = sqrt (mu), loglam = log (mu);
    const double b = 0.931 + 2.53 * slam, a = -0.059 + 0.02483 * b;
    const double invalpha = 1.1239 + 1.1328 / (b - 3.4), vr = 0.9277 - 3.6224 / (b - 2.0);

    for (;;)
      {
        double u = gsl_rng_uniform (rng) - 0.5, v = gsl_rng_uniform_pos (rng);
        double us = 0.5 - fabs (u);
        double k = floor ((2.0 * a / us + b) * u + mu + 0.43);

        if (us >= 0.07 && v <= vr)
          return k;
        if (k < 0 || (us < 0.013 && v > us))
          continue;
        if (log (v) + log (invalpha) - log (a / (us * us) + b)
            <= -mu + k * loglam - gsl_sf_lngamma (k + 1.0))
          return k;
      }
  }
}

/* The noise on a checked model (see the header). */
static void
apply_noise (double *y, gsize n_rows, gsize n_cols, XrlabNoiseKind kind, double level,
             double m, guint64 seed, double *scale)
{
  const gsize n = n_rows * n_cols;
  gsl_rng *rng;

  if (scale)
    *scale = NAN;
  if (kind == XRLAB_NOISE_NONE || level == 0 || m == 0)
    return;
  rng = gsl_rng_alloc (gsl_rng_mt19937);
  gsl_rng_set (rng, (unsigned long) seed);
  if (kind == XRLAB_NOISE_GAUSSIAN)
    {
      const double sigma = level * m;
      for (gsize i = 0; i < n; i++)
        y[i] += gsl_ran_gaussian (rng, sigma);
      if (scale)
        *scale = sigma;
    }
  else if (kind == XRLAB_NOISE_POISSON)
    {
      const double s = 1.0 / (level * level * m);
      for (gsize i = 0; i < n; i++)
        y[i] = poisson (rng, s * y[i]) / s;
      if (scale)
        *scale = s;
    }
  else
    {
      /* photons per data unit: the mean row holds @level photons */
      double total = 0.0, s;
      for (gsize i = 0; i < n; i++)
        total += fabs (y[i]);
      s = level / (total / (double) n_rows);
      for (gsize i = 0; i < n; i++)
        {
          double c = poisson (rng, s * fabs (y[i])) / s;
          y[i] = y[i] > 0 ? c : y[i] < 0 ? -c : 0.0;
        }
      if (scale)
        *scale = s;
    }
  gsl_rng_free (rng);
}

gboolean
xrlab_simulate_noise_rows (double *y, gsize n_rows, gsize n_cols, XrlabNoiseKind kind,
                           double level, guint64 seed, double *scale, GError **error)
{
  double m;

  if (scale)
    *scale = NAN;
  if (!check_noise (y, n_rows * n_cols, kind, level, &m, error))
    return FALSE;
  apply_noise (y, MAX (n_rows, 1), n_cols, kind, level, m, seed, scale);
  return TRUE;
}

gboolean
xrlab_simulate_noise (double *y, gsize n, XrlabNoiseKind kind, double level, guint64 seed,
                      double *scale, GError **error)
{
  return xrlab_simulate_noise_rows (y, 1, n, kind, level, seed, scale, error);
}

/* The model at its values on the axes: a new array; *@n_rows its rows. */
static double *
clean_model (const XrlabModel *model, const double *energy, gsize n_energy, const double *time,
             gsize n_time, const double *aux, gsize n_aux, gsize *n_rows, GError **error)
{
  g_autoptr(XrlabPlan) plan = xrlab_plan_new (model, energy, n_energy, time, n_time, aux,
                                              n_aux, error);
  g_autofree double *theta = NULL;
  double *y;

  if (plan == NULL)
    return NULL;
  theta = g_new (double, MAX (xrlab_plan_n_theta (plan), 1));
  y = g_new (double, xrlab_plan_n_data (plan));
  xrlab_plan_theta_initial (plan, theta);
  xrlab_plan_eval (plan, theta, y);
  *n_rows = xrlab_plan_n_rows (plan);
  return y;
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

typedef struct {
  const double *clean;
  double *out;
  gsize n_rows, n_cols;
  XrlabNoiseKind kind;
  double level, max;
  guint64 seed;
  double scale;
} NJob;

static void
n_part (gpointer data, guint r)
{
  NJob *job = data;
  const gsize n = job->n_rows * job->n_cols;
  double scale;

  memcpy (job->out + (gsize) r * n, job->clean, n * sizeof (double));
  apply_noise (job->out + (gsize) r * n, job->n_rows, job->n_cols, job->kind, job->level,
               job->max, job->seed + r, &scale);
  if (r == 0)
    job->scale = scale;
}

double *
xrlab_simulate_n (const XrlabModel *model, const double *energy, gsize n_energy,
                  const double *time, gsize n_time, const double *aux, gsize n_aux,
                  XrlabNoiseKind kind, double level, guint64 seed, guint n_real,
                  double **clean, gsize *n_data, double *scale, GError **error)
{
  NJob job = { 0 };
  g_autofree double *y = NULL;

  if (scale)
    *scale = NAN;
  y = clean_model (model, energy, n_energy, time, n_time, aux, n_aux, &job.n_rows, error);
  if (y == NULL || !check_noise (y, job.n_rows * n_energy, kind, level, &job.max, error))
    return NULL;
  job.clean = y;
  job.n_cols = n_energy;
  job.kind = kind;
  job.level = level;
  job.seed = seed;
  job.scale = NAN;
  job.out = g_new (double, MAX ((gsize) n_real, 1) * job.n_rows * n_energy);
  xrlab_parallel_run (xrlab_parallel_default (), n_real, n_part, &job);
  if (n_data)
    *n_data = job.n_rows * n_energy;
  if (scale)
    *scale = job.scale;
  if (clean)
    *clean = g_steal_pointer (&y);
  return job.out;
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
