/* xrlab-fn.c -- the function vocabulary and the scalar time, profile and
 * kernel functions (definitions in xrlab-fn.h)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-fn.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

/* ---- the vocabulary ------------------------------------------------------ */

static const XrlabFnInfo fn_table[XRLAB_FN_COUNT] = {
  [XRLAB_FN_GAUSS]        = { "Gauss",        XRLAB_FN_CLASS_PEAK, 3, { "A", "x0", "SD" } },
  [XRLAB_FN_GAUSS_ASYM]   = { "GaussAsym",    XRLAB_FN_CLASS_PEAK, 4, { "A", "x0", "SD", "ratio" } },
  [XRLAB_FN_LORENTZ]      = { "Lorentz",      XRLAB_FN_CLASS_PEAK, 3, { "A", "x0", "W" } },
  [XRLAB_FN_VOIGT]        = { "Voigt",        XRLAB_FN_CLASS_PEAK, 4, { "A", "x0", "SD", "W" } },
  [XRLAB_FN_GLS]          = { "GLS",          XRLAB_FN_CLASS_PEAK, 4, { "A", "x0", "F", "m" } },
  [XRLAB_FN_GLP]          = { "GLP",          XRLAB_FN_CLASS_PEAK, 4, { "A", "x0", "F", "m" } },
  [XRLAB_FN_DS]           = { "DS",           XRLAB_FN_CLASS_PEAK, 4, { "A", "x0", "F", "alpha" } },
  [XRLAB_FN_OFFSET]       = { "Offset",       XRLAB_FN_CLASS_BACKGROUND, 1, { "y0" } },
  [XRLAB_FN_LINBACK]      = { "LinBack",      XRLAB_FN_CLASS_BACKGROUND, 4, { "m", "b", "xStart", "xStop" } },
  [XRLAB_FN_SHIRLEY]      = { "Shirley",      XRLAB_FN_CLASS_BACKGROUND, 1, { "pShirley" } },
  [XRLAB_FN_STEP]         = { "stepFun",      XRLAB_FN_CLASS_TIME, 2, { "A", "t0" } },
  [XRLAB_FN_LIN]          = { "linFun",       XRLAB_FN_CLASS_TIME, 2, { "m", "t0" } },
  [XRLAB_FN_EXP]          = { "expFun",       XRLAB_FN_CLASS_TIME, 3, { "A", "tau", "t0" } },
  [XRLAB_FN_SIN]          = { "sinFun",       XRLAB_FN_CLASS_TIME, 4, { "A", "f", "phi", "t0" } },
  [XRLAB_FN_SINDIVX]      = { "sinDivX",      XRLAB_FN_CLASS_TIME, 3, { "A", "f", "t0" } },
  [XRLAB_FN_ERF]          = { "erfFun",       XRLAB_FN_CLASS_TIME, 3, { "A", "SD", "t0" } },
  [XRLAB_FN_SQRT]         = { "sqrtFun",      XRLAB_FN_CLASS_TIME, 2, { "A", "t0" } },
  [XRLAB_FN_GAUSSCONV]    = { "gaussCONV",    XRLAB_FN_CLASS_KERNEL, 1, { "SD" } },
  [XRLAB_FN_EXPSYMCONV]   = { "expSymCONV",   XRLAB_FN_CLASS_KERNEL, 1, { "tau" } },
  [XRLAB_FN_EXPDECAYCONV] = { "expDecayCONV", XRLAB_FN_CLASS_KERNEL, 1, { "tau" } },
  [XRLAB_FN_EXPRISECONV]  = { "expRiseCONV",  XRLAB_FN_CLASS_KERNEL, 1, { "tau" } },
  [XRLAB_FN_BOXCONV]      = { "boxCONV",      XRLAB_FN_CLASS_KERNEL, 1, { "width" } },
  [XRLAB_FN_PEXPDECAY]    = { "pExpDecay",    XRLAB_FN_CLASS_PROFILE, 2, { "A", "tau" } },
  [XRLAB_FN_PLINEAR]      = { "pLinear",      XRLAB_FN_CLASS_PROFILE, 2, { "m", "b" } },
  [XRLAB_FN_PGAUSS]       = { "pGauss",       XRLAB_FN_CLASS_PROFILE, 3, { "A", "x0", "SD" } },
  [XRLAB_FN_NONE]         = { "none",         XRLAB_FN_CLASS_NONE, 0, { NULL } },
};

const XrlabFnInfo *
xrlab_fn_info (XrlabFn fn)
{
  g_return_val_if_fail (fn < XRLAB_FN_COUNT, NULL);
  return &fn_table[fn];
}

gboolean
xrlab_fn_lookup (const char *name, XrlabFn *fn)
{
  for (guint i = 0; i < XRLAB_FN_COUNT; i++)
    if (strcmp (fn_table[i].name, name) == 0)
      {
        *fn = (XrlabFn) i;
        return TRUE;
      }
  return FALSE;
}

char *
xrlab_fn_list_names (XrlabFnClass a, XrlabFnClass b)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < XRLAB_FN_COUNT; i++)
    if (fn_table[i].cls == a || fn_table[i].cls == b)
      g_string_append_printf (s, "%s%s", s->len ? ", " : "", fn_table[i].name);
  return g_string_free (s, FALSE);
}

char *
xrlab_fn_list_params (XrlabFn fn)
{
  const XrlabFnInfo *info = &fn_table[fn];
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < info->n_params; i++)
    g_string_append_printf (s, "%s%s", i ? ", " : "", info->params[i]);
  if (info->n_params == 0)
    g_string_append (s, _("no parameters"));
  return g_string_free (s, FALSE);
}

/* ---- time functions, profiles, kernels ------------------------------------------- */

double
xrlab_time_fn (XrlabFn fn, double t, const double *p, double *d)
{
  switch (fn)
    {
    case XRLAB_FN_STEP:
      {
        gboolean on = t >= p[1];
        if (d)
          {
            d[0] = on ? 1.0 : 0.0;
            d[1] = 0.0;
          }
        return on ? p[0] : 0.0;
      }
    case XRLAB_FN_LIN:
      {
        gboolean on = t >= p[1];
        double dt = t - p[1];
        if (d)
          {
            d[0] = on ? dt : 0.0;
            d[1] = on ? -p[0] : 0.0;
          }
        return on ? p[0] * dt : 0.0;
      }
    case XRLAB_FN_EXP:
      {
        gboolean on = t >= p[2];
        double dt = t - p[2];
        double e = on ? exp (-dt / p[1]) : 0.0;
        double v = p[0] * e;
        if (d)
          {
            d[0] = e;
            d[1] = on ? v * dt / (p[1] * p[1]) : 0.0;
            d[2] = on ? v / p[1] : 0.0;
          }
        return v;
      }
    case XRLAB_FN_SIN:
      {
        gboolean on = t >= p[3];
        double dt = t - p[3];
        double arg = 2.0 * M_PI * p[1] * dt + p[2];
        double s = on ? sin (arg) : 0.0, c = on ? cos (arg) : 0.0;
        if (d)
          {
            d[0] = s;
            d[1] = p[0] * c * 2.0 * M_PI * dt;
            d[2] = p[0] * c;
            d[3] = -p[0] * c * 2.0 * M_PI * p[1];
          }
        return p[0] * s;
      }
    case XRLAB_FN_SINDIVX:
      {
        gboolean on = t >= p[2];
        double dt = t - p[2];
        double x = 2.0 * M_PI * p[1] * dt;
        double sc, dsc;
        if (!on)
          sc = dsc = 0.0;
        else if (fabs (x) < 1e-4)
          {
            sc = 1.0 - x * x / 6.0;
            dsc = -x / 3.0 + x * x * x / 30.0;
          }
        else
          {
            sc = sin (x) / x;
            dsc = (x * cos (x) - sin (x)) / (x * x);
          }
        if (d)
          {
            d[0] = sc;
            d[1] = p[0] * dsc * 2.0 * M_PI * dt;
            d[2] = -p[0] * dsc * 2.0 * M_PI * p[1];
          }
        return p[0] * sc;
      }
    case XRLAB_FN_ERF:
      {
        double z = (t - p[2]) / (p[1] * M_SQRT2);
        double e = 1.0 + erf (z);
        if (d)
          {
            double g = 0.5 * p[0] * M_2_SQRTPI * exp (-z * z);
            d[0] = 0.5 * e;
            d[1] = -g * z / p[1];
            d[2] = -g / (p[1] * M_SQRT2);
          }
        return 0.5 * p[0] * e;
      }
    case XRLAB_FN_SQRT:
      {
        double dt = t - p[1];
        double r = dt > 0.0 ? sqrt (dt) : 0.0;
        if (d)
          {
            d[0] = r;
            d[1] = dt > 0.0 ? -0.5 * p[0] / r : 0.0;
          }
        return p[0] * r;
      }
    default:
      g_assert_not_reached ();
    }
}

double
xrlab_profile_fn (XrlabFn fn, double x, const double *p, double *d)
{
  switch (fn)
    {
    case XRLAB_FN_PEXPDECAY:
      {
        double e = exp (-x / p[1]);
        if (d)
          {
            d[0] = e;
            d[1] = p[0] * e * x / (p[1] * p[1]);
          }
        return p[0] * e;
      }
    case XRLAB_FN_PLINEAR:
      if (d)
        {
          d[0] = x;
          d[1] = 1.0;
        }
      return p[0] * x + p[1];
    case XRLAB_FN_PGAUSS:
      {
        double v = (x - p[1]) / p[2];
        double g = exp (-0.5 * v * v);
        if (d)
          {
            d[0] = g;
            d[1] = p[0] * g * v / p[2];
            d[2] = p[0] * g * v * v / p[2];
          }
        return p[0] * g;
      }
    default:
      g_assert_not_reached ();
    }
}

double
xrlab_kernel_g (XrlabFn fn, double u, double s, double *dg)
{
  double g, a = fabs (u);

  switch (fn)
    {
    case XRLAB_FN_GAUSSCONV:
      g = exp (-0.5 * u * u / (s * s));
      if (dg)
        *dg = g * u * u / (s * s * s);
      return g;
    case XRLAB_FN_EXPSYMCONV:
      g = exp (-a / s);
      if (dg)
        *dg = g * a / (s * s);
      return g;
    case XRLAB_FN_EXPDECAYCONV:
      g = u < 0.0 ? 0.0 : exp (-u / s);
      if (dg)
        *dg = g * a / (s * s);
      return g;
    case XRLAB_FN_EXPRISECONV:
      g = u > 0.0 ? 0.0 : exp (u / s);
      if (dg)
        *dg = g * a / (s * s);
      return g;
    case XRLAB_FN_BOXCONV:
      if (dg)
        *dg = 0.0;
      return a <= s / 2.0 ? 1.0 : 0.0;
    default:
      g_assert_not_reached ();
    }
}

double
xrlab_kernel_mass_above (XrlabFn fn, double a, double s, double *dm)
{
  double m, d = 0.0;

  switch (fn)
    {
    case XRLAB_FN_GAUSSCONV:
      {
        double z = a / (s * M_SQRT2);
        m = s * sqrt (M_PI / 2.0) * erfc (z);
        d = m / s + (a / s) * exp (-z * z);
      }
      break;
    case XRLAB_FN_EXPSYMCONV:
      if (a >= 0.0)
        {
          double e = exp (-a / s);
          m = s * e;
          d = e * (1.0 + a / s);
        }
      else
        {
          double e = exp (a / s);
          m = 2.0 * s - s * e;
          d = 2.0 - e * (1.0 - a / s);
        }
      break;
    case XRLAB_FN_EXPDECAYCONV:
      if (a >= 0.0)
        {
          double e = exp (-a / s);
          m = s * e;
          d = e * (1.0 + a / s);
        }
      else
        {
          m = s;
          d = 1.0;
        }
      break;
    case XRLAB_FN_EXPRISECONV:
      if (a >= 0.0)
        m = d = 0.0;
      else
        {
          double e = exp (a / s);
          m = s * (1.0 - e);
          d = 1.0 - e * (1.0 - a / s);
        }
      break;
    case XRLAB_FN_BOXCONV:
      {
        double r = s / 2.0 - a;
        if (r <= 0.0)
          m = d = 0.0;
        else if (r >= s)
          {
            m = s;
            d = 1.0;
          }
        else
          {
            m = r;
            d = 0.5;
          }
      }
      break;
    default:
      g_assert_not_reached ();
    }
  if (dm)
    *dm = d;
  return m;
}

double
xrlab_kernel_mass_below (XrlabFn fn, double b, double s, double *dm)
{
  /* The mass of g below b is the mass of the mirrored kernel g(-t) above
   * -b: the symmetric kernels are their own mirror, the causal and the
   * anti-causal exponentials are each other's. */
  switch (fn)
    {
    case XRLAB_FN_EXPDECAYCONV:
      return xrlab_kernel_mass_above (XRLAB_FN_EXPRISECONV, -b, s, dm);
    case XRLAB_FN_EXPRISECONV:
      return xrlab_kernel_mass_above (XRLAB_FN_EXPDECAYCONV, -b, s, dm);
    case XRLAB_FN_GAUSSCONV:
    case XRLAB_FN_EXPSYMCONV:
    case XRLAB_FN_BOXCONV:
      return xrlab_kernel_mass_above (fn, -b, s, dm);
    default:
      g_assert_not_reached ();
    }
}

void
xrlab_kernel_support (XrlabFn fn, double s, double *lo, double *hi)
{
  /* exp(-x) is 0 in double precision beyond x = 745.2 */
  switch (fn)
    {
    case XRLAB_FN_GAUSSCONV:
      *hi = 40.0 * fabs (s);     /* exp(-800) = 0 */
      *lo = -*hi;
      break;
    case XRLAB_FN_EXPSYMCONV:
      *hi = 750.0 * fabs (s);
      *lo = -*hi;
      break;
    case XRLAB_FN_EXPDECAYCONV:
      *lo = 0.0;
      *hi = 750.0 * fabs (s);
      break;
    case XRLAB_FN_EXPRISECONV:
      *lo = -750.0 * fabs (s);
      *hi = 0.0;
      break;
    case XRLAB_FN_BOXCONV:
      *hi = fabs (s) / 2.0;
      *lo = -*hi;
      break;
    default:
      g_assert_not_reached ();
    }
  if (!(*hi - *lo < INFINITY))   /* NaN or infinite width: all of the axis */
    {
      *lo = -INFINITY;
      *hi = INFINITY;
    }
}
