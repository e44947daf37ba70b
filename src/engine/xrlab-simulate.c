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
  else
    return FALSE;
  return TRUE;
}

gboolean
xrlab_simulate_noise (double *y, gsize n, XrlabNoiseKind kind, double level, guint64 seed,
                      double *scale, GError **error)
{
  char b[XRLAB_DTOA_BUFSIZE];
  double m = 0.0;
  gsl_rng *rng;

  if (scale)
    *scale = NAN;
  if (!(isfinite (level) && level >= 0))
    {
      g_set_error (error, XRLAB_SIMULATE_ERROR, XRLAB_SIMULATE_ERROR_INVALID,
                   _("The noise level %s is not a finite number ≥ 0"),
                   xrlab_format_double (level, b));
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
  if (kind == XRLAB_NOISE_NONE || level == 0)
    return TRUE;
  if (m == 0)
    {
      g_set_error (error, XRLAB_SIMULATE_ERROR, XRLAB_SIMULATE_ERROR_MODEL,
                   _("The model is zero everywhere: a relative noise level has no scale"));
      return FALSE;
    }

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
  else
    {
      const double s = 1.0 / (level * level * m);
      for (gsize i = 0; i < n; i++)
        y[i] = (double) gsl_ran_poisson (rng, s * y[i]) / s;
      if (scale)
        *scale = s;
    }
  gsl_rng_free (rng);
  return TRUE;
}

double *
xrlab_simulate (const XrlabModel *model, const double *energy, gsize n_energy,
                const double *time, gsize n_time, const double *aux, gsize n_aux,
                XrlabNoiseKind kind, double level, guint64 seed, double *scale,
                GError **error)
{
  g_autoptr(XrlabPlan) plan = xrlab_plan_new (model, energy, n_energy, time, n_time, aux,
                                              n_aux, error);
  g_autofree double *theta = NULL, *y = NULL;

  if (plan == NULL)
    return NULL;
  theta = g_new (double, MAX (xrlab_plan_n_theta (plan), 1));
  y = g_new (double, xrlab_plan_n_data (plan));
  xrlab_plan_theta_initial (plan, theta);
  xrlab_plan_eval (plan, theta, y);
  if (!xrlab_simulate_noise (y, xrlab_plan_n_data (plan), kind, level, seed, scale, error))
    return NULL;
  return g_steal_pointer (&y);
}
