/* model-reference.c -- a deliberately plain evaluator of parsed models
 *
 * Written from the definitions (xrlab-fn.h, xrlab-plan.h) without
 * sharing code with the plan: its own expression evaluator, its own
 * functions, kernels and edge masses.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "model-reference.h"

#include <complex.h>
#include <math.h>
#include <string.h>

#include <cerf.h>

#include "xrlab-model-private.h"

typedef struct {
  const XrlabModel *model;
  XrlabPlanFlags flags;
  const double *theta;
  const double *time, *aux;
  gsize n_t, n_a;
  GHashTable *traces;     /* XrlabParam* -> double[n_t]: base + dynamics + kernels */
} Ref;

static gboolean
active (const Ref *r, const XrlabAttachment *att)
{
  if (att == NULL)
    return FALSE;
  if (att->is_profile)
    return !(r->flags & XRLAB_PLAN_IGNORE_PROFILES) && r->n_a > 0;
  return !(r->flags & XRLAB_PLAN_IGNORE_DYNAMICS) && r->n_t > 0;
}

static gboolean
in_theta (const XrlabModel *model, XrlabPlanFlags flags, const XrlabParam *p)
{
  if (!p->vary || p->expr_text)
    return FALSE;
  if (p->role == XRLAB_PARAM_DYNAMICS)
    return !(flags & XRLAB_PLAN_IGNORE_DYNAMICS)
           && (p->host->role != XRLAB_PARAM_PROFILE || !(flags & XRLAB_PLAN_IGNORE_PROFILES));
  if (p->role == XRLAB_PARAM_PROFILE)
    return !(flags & XRLAB_PLAN_IGNORE_PROFILES);
  return TRUE;
}

gsize
xrlab_reference_n_theta (const XrlabModel *model, XrlabPlanFlags flags)
{
  gsize n = 0;
  for (guint i = 0; i < model->all->len; i++)
    n += in_theta (model, flags, g_ptr_array_index (model->all, i));
  return n;
}

char **
xrlab_reference_theta_names (const XrlabModel *model, XrlabPlanFlags flags)
{
  GPtrArray *names = g_ptr_array_new ();
  for (guint i = 0; i < model->all->len; i++)
    {
      XrlabParam *p = g_ptr_array_index (model->all, i);
      if (in_theta (model, flags, p))
        g_ptr_array_add (names, g_strdup (p->name));
    }
  g_ptr_array_add (names, NULL);
  return (char **) g_ptr_array_free (names, FALSE);
}

/* ---- a tiny expression evaluator on the text ------------------------------------------ */

static double value_at (Ref *r, const XrlabParam *p, gsize t, gsize a);

typedef struct {
  Ref *r;
  const XrlabParam *owner;
  const char *s;
  gsize t, a;
} Ev;

static void
ev_blank (Ev *e)
{
  while (*e->s == ' ' || *e->s == '\t')
    e->s++;
}

static const XrlabParam *
ev_lookup (Ev *e, const char *name)
{
  const XrlabParam *owner = e->owner;

  if (owner->role == XRLAB_PARAM_ENERGY)
    return g_hash_table_lookup (e->r->model->by_name, name);
  else
    {
      const XrlabAttachment *att = owner->role == XRLAB_PARAM_DYNAMICS ? owner->host->dyn
                                                                       : owner->host->profile;
      for (guint i = 0; i < att->params->len; i++)
        {
          const XrlabParam *q = g_ptr_array_index (att->params, i);
          if (strcmp (q->local, name) == 0 || strcmp (q->name, name) == 0)
            return q;
        }
    }
  return NULL;
}

static double ev_sum (Ev *e);
static double ev_unary (Ev *e);

static double
ev_atom (Ev *e)
{
  ev_blank (e);
  if (*e->s == '(')
    {
      double v;
      e->s++;
      v = ev_sum (e);
      ev_blank (e);
      g_assert (*e->s == ')');
      e->s++;
      return v;
    }
  if (g_ascii_isdigit (*e->s) || *e->s == '.')
    {
      char *end;
      double v = g_ascii_strtod (e->s, &end);
      e->s = end;
      return v;
    }
  {
    const char *start = e->s;
    g_autofree char *name = NULL;
    const XrlabParam *q;
    while (g_ascii_isalnum (*e->s) || *e->s == '_')
      e->s++;
    name = g_strndup (start, e->s - start);
    ev_blank (e);
    if (*e->s == '(')
      {
        /* sqrt, exp, log, sin, cos, abs (x) and pow (x, y) */
        double x, y = 0.0;
        e->s++;
        x = ev_sum (e);
        ev_blank (e);
        if (*e->s == ',')
          {
            e->s++;
            y = ev_sum (e);
            ev_blank (e);
          }
        g_assert (*e->s == ')');
        e->s++;
        if (strcmp (name, "sqrt") == 0)
          return sqrt (x);
        if (strcmp (name, "exp") == 0)
          return exp (x);
        if (strcmp (name, "log") == 0)
          return log (x);
        if (strcmp (name, "sin") == 0)
          return sin (x);
        if (strcmp (name, "cos") == 0)
          return cos (x);
        if (strcmp (name, "abs") == 0)
          return fabs (x);
        g_assert_cmpstr (name, ==, "pow");
        return pow (x, y);
      }
    q = ev_lookup (e, name);
    g_assert (q != NULL);
    return value_at (e->r, q, e->t, e->a);
  }
}

static double
ev_power (Ev *e)
{
  double base = ev_atom (e);
  ev_blank (e);
  if (e->s[0] == '*' && e->s[1] == '*')
    {
      e->s += 2;
      return pow (base, ev_unary (e));
    }
  return base;
}

static double
ev_unary (Ev *e)
{
  ev_blank (e);
  if (*e->s == '-')
    {
      e->s++;
      return -ev_unary (e);
    }
  if (*e->s == '+')
    {
      e->s++;
      return ev_unary (e);
    }
  return ev_power (e);
}

static double
ev_product (Ev *e)
{
  double v = ev_unary (e);
  for (;;)
    {
      ev_blank (e);
      if (e->s[0] == '*' && e->s[1] != '*')
        {
          e->s++;
          v *= ev_unary (e);
        }
      else if (e->s[0] == '/')
        {
          e->s++;
          v /= ev_unary (e);
        }
      else
        return v;
    }
}

static double
ev_sum (Ev *e)
{
  double v = ev_product (e);
  for (;;)
    {
      ev_blank (e);
      if (*e->s == '+')
        {
          e->s++;
          v += ev_product (e);
        }
      else if (*e->s == '-')
        {
          e->s++;
          v -= ev_product (e);
        }
      else
        return v;
    }
}

/* ---- functions ------------------------------------------------------------------------ */

static double
time_function (XrlabFn fn, double t, const double *p)
{
  switch (fn)
    {
    case XRLAB_FN_STEP:
      return t < p[1] ? 0.0 : p[0];
    case XRLAB_FN_LIN:
      return t < p[1] ? 0.0 : p[0] * (t - p[1]);
    case XRLAB_FN_EXP:
      return t < p[2] ? 0.0 : p[0] * exp (-(t - p[2]) / p[1]);
    case XRLAB_FN_SIN:
      return t < p[3] ? 0.0 : p[0] * sin (2 * M_PI * p[1] * (t - p[3]) + p[2]);
    case XRLAB_FN_SINDIVX:
      {
        double x = 2 * M_PI * p[1] * (t - p[2]);
        if (t < p[2])
          return 0.0;
        return x == 0.0 ? p[0] : p[0] * sin (x) / x;
      }
    case XRLAB_FN_ERF:
      return p[0] / 2 * (1 + erf ((t - p[2]) / (p[1] * sqrt (2.0))));
    case XRLAB_FN_SQRT:
      return p[0] * sqrt (t - p[1] > 0 ? t - p[1] : 0.0);
    default:
      g_assert_not_reached ();
    }
}

static double
profile_function (XrlabFn fn, double x, const double *p)
{
  switch (fn)
    {
    case XRLAB_FN_PEXPDECAY:
      return p[0] * exp (-x / p[1]);
    case XRLAB_FN_PLINEAR:
      return p[0] * x + p[1];
    case XRLAB_FN_PGAUSS:
      return p[0] * exp (-0.5 * ((x - p[1]) / p[2]) * ((x - p[1]) / p[2]));
    default:
      g_assert_not_reached ();
    }
}

static double
kernel (XrlabFn fn, double u, double s)
{
  switch (fn)
    {
    case XRLAB_FN_GAUSSCONV:
      return exp (-0.5 * (u / s) * (u / s));
    case XRLAB_FN_EXPSYMCONV:
      return exp (-fabs (u) / s);
    case XRLAB_FN_EXPDECAYCONV:
      return u < 0 ? 0.0 : exp (-u / s);
    case XRLAB_FN_EXPRISECONV:
      return u > 0 ? 0.0 : exp (u / s);
    case XRLAB_FN_BOXCONV:
      return fabs (u) <= s / 2 ? 1.0 : 0.0;
    default:
      g_assert_not_reached ();
    }
}

/* ∫_a^∞ g(u) du */
static double
mass_from (XrlabFn fn, double a, double s)
{
  switch (fn)
    {
    case XRLAB_FN_GAUSSCONV:
      return s * sqrt (M_PI / 2) * erfc (a / (s * sqrt (2.0)));
    case XRLAB_FN_EXPSYMCONV:
      return a >= 0 ? s * exp (-a / s) : 2 * s - s * exp (a / s);
    case XRLAB_FN_EXPDECAYCONV:
      return a >= 0 ? s * exp (-a / s) : s;
    case XRLAB_FN_EXPRISECONV:
      return a >= 0 ? 0.0 : s - s * exp (a / s);
    case XRLAB_FN_BOXCONV:
      return CLAMP (s / 2 - a, 0.0, s);
    default:
      g_assert_not_reached ();
    }
}

/* ∫_{-∞}^b g(u) du */
static double
mass_to (XrlabFn fn, double b, double s)
{
  switch (fn)
    {
    case XRLAB_FN_GAUSSCONV:
      return s * sqrt (M_PI / 2) * erfc (-b / (s * sqrt (2.0)));
    case XRLAB_FN_EXPSYMCONV:
      return b <= 0 ? s * exp (b / s) : 2 * s - s * exp (-b / s);
    case XRLAB_FN_EXPDECAYCONV:
      return b <= 0 ? 0.0 : s - s * exp (-b / s);
    case XRLAB_FN_EXPRISECONV:
      return b <= 0 ? s * exp (b / s) : s;
    case XRLAB_FN_BOXCONV:
      return CLAMP (b + s / 2, 0.0, s);
    default:
      g_assert_not_reached ();
    }
}

/* ---- parameters ---------------------------------------------------------------------- */

static double
base_value (Ref *r, const XrlabParam *p, gsize t, gsize a)
{
  if (p->expr_text)
    {
      Ev e = { r, p, p->expr_text, t, a };
      double v = ev_sum (&e);
      ev_blank (&e);
      g_assert (*e.s == '\0');
      return v;
    }
  if (in_theta (r->model, r->flags, p))
    {
      gsize k = 0;
      for (guint i = 0; i < r->model->all->len; i++)
        {
          const XrlabParam *q = g_ptr_array_index (r->model->all, i);
          if (q == p)
            return r->theta[k];
          k += in_theta (r->model, r->flags, q);
        }
      g_assert_not_reached ();
    }
  return p->value;
}

/* The trace of a parameter with time dependence: base + masked functions
 * on their clocks, then every kernel as a dense matrix, in listed order. */
static const double *
trace_of (Ref *r, const XrlabParam *p)
{
  const XrlabAttachment *att = p->dyn;
  double *tr = g_hash_table_lookup (r->traces, p);
  gsize n = r->n_t;

  if (tr)
    return tr;
  tr = g_new (double, n);
  for (gsize i = 0; i < n; i++)
    {
      double t = r->time[i], v = base_value (r, p, i, 0);
      for (guint c = 0; c < att->comps->len; c++)
        {
          const XrlabComponent *comp = g_ptr_array_index (att->comps, c);
          double pv[4], tau = t;
          XrlabFnClass cls = xrlab_fn_info (comp->fn)->cls;
          if (cls != XRLAB_FN_CLASS_TIME)
            continue;
          if (comp->subcycle > 0)
            {
              /* trspecfit's normalize_time */
              double norm = 1.0 / att->frequency / att->n_sub;
              if (t < 0)
                continue;
              {
                double N_temp = floor (t / norm);
                int n_sub = (int) fmod (N_temp, att->n_sub) + 1;
                if (n_sub != comp->subcycle)
                  continue;
                tau = t - N_temp * norm;
              }
            }
          for (guint q = 0; q < comp->n_params; q++)
            pv[q] = base_value (r, comp->params[q], i, 0);
          v += time_function (comp->fn, tau, pv);
        }
      tr[i] = v;
    }
  for (guint c = 0; c < att->comps->len; c++)
    {
      const XrlabComponent *comp = g_ptr_array_index (att->comps, c);
      double s, *K, *y;
      if (xrlab_fn_info (comp->fn)->cls != XRLAB_FN_CLASS_KERNEL)
        continue;
      s = base_value (r, comp->params[0], 0, 0);
      K = g_new0 (double, n * n);
      for (gsize i = 0; i < n; i++)
        {
          double rowsum = 0;
          for (gsize j = 0; j < n; j++)
            {
              double w;
              if (n == 1)
                w = 0;
              else if (j == 0)
                w = (r->time[1] - r->time[0]) / 2;
              else if (j == n - 1)
                w = (r->time[n - 1] - r->time[n - 2]) / 2;
              else
                w = (r->time[j + 1] - r->time[j - 1]) / 2;
              K[i * n + j] = kernel (comp->fn, r->time[i] - r->time[j], s) * w;
            }
          K[i * n + 0] += mass_from (comp->fn, r->time[i] - r->time[0], s);
          K[i * n + n - 1] += mass_to (comp->fn, r->time[i] - r->time[n - 1], s);
          for (gsize j = 0; j < n; j++)
            rowsum += K[i * n + j];
          for (gsize j = 0; j < n; j++)
            K[i * n + j] /= rowsum;
        }
      y = g_new0 (double, n);
      for (gsize i = 0; i < n; i++)
        for (gsize j = 0; j < n; j++)
          y[i] += K[i * n + j] * tr[j];
      memcpy (tr, y, n * sizeof (double));
      g_free (y);
      g_free (K);
    }
  g_hash_table_insert (r->traces, (gpointer) p, tr);
  return tr;
}

static double
value_at (Ref *r, const XrlabParam *p, gsize t, gsize a)
{
  double v;

  /* energy parameters and (with their profile) the profile's parameters
   * may have time dependence */
  if ((p->role == XRLAB_PARAM_ENERGY
       || (p->role == XRLAB_PARAM_PROFILE && active (r, p->host->profile)))
      && active (r, p->dyn))
    v = trace_of (r, p)[t];
  else
    v = base_value (r, p, t, a);
  if (p->role == XRLAB_PARAM_ENERGY && active (r, p->profile))
    for (guint c = 0; c < p->profile->comps->len; c++)
      {
        const XrlabComponent *comp = g_ptr_array_index (p->profile->comps, c);
        double pv[4];
        for (guint q = 0; q < comp->n_params; q++)
          pv[q] = value_at (r, comp->params[q], t, a);
        v += profile_function (comp->fn, r->aux[a], pv);
      }
  return v;
}

/* ---- components ------------------------------------------------------------------------ */

static double
component (XrlabFn fn, double x, const double *p)
{
  switch (fn)
    {
    case XRLAB_FN_GAUSS:
      return p[0] * exp (-0.5 * ((x - p[1]) / p[2]) * ((x - p[1]) / p[2]));
    case XRLAB_FN_GAUSS_ASYM:
      {
        double sd = x < p[1] ? p[2] : p[2] * p[3];
        return p[0] * exp (-0.5 * ((x - p[1]) / sd) * ((x - p[1]) / sd));
      }
    case XRLAB_FN_LORENTZ:
      return p[0] / (1 + ((x - p[1]) / p[2] * 2) * ((x - p[1]) / p[2] * 2));
    case XRLAB_FN_VOIGT:
      {
        double complex z = ((x - p[1]) + I * (p[3] / 2)) / p[2] / sqrt (2.0);
        double complex z0 = I * (p[3] / 2) / p[2] / sqrt (2.0);
        return p[0] * creal (w_of_z (z)) / creal (w_of_z (z0));
      }
    case XRLAB_FN_GLS:
      {
        double u2 = ((x - p[1]) / p[2]) * ((x - p[1]) / p[2]);
        return p[0] * ((1 - p[3]) * exp (-u2 * 4 * log (2.0)) + p[3] / (1 + 4 * u2));
      }
    case XRLAB_FN_GLP:
      {
        double u2 = ((x - p[1]) / p[2]) * ((x - p[1]) / p[2]);
        return p[0] * exp (-u2 * 4 * log (2.0) * (1 - p[3])) / (1 + 4 * p[3] * u2);
      }
    case XRLAB_FN_DS:
      {
        double dx = x - p[1];
        return p[0] * cos (M_PI * p[3] / 2 + (1 - p[3]) * atan (dx / p[2]))
               / pow (p[2] * p[2] + dx * dx, (1 - p[3]) / 2);
      }
    case XRLAB_FN_OFFSET:
      return p[0];
    case XRLAB_FN_LINBACK:
      if (x < p[2])
        return p[1];
      if (x > p[3])
        return p[0] * (p[3] - p[2]) + p[1];
      return p[0] * (x - p[2]) + p[1];
    default:
      g_assert_not_reached ();
    }
}

double *
xrlab_reference_eval (const XrlabModel *model, XrlabPlanFlags flags, const double *theta,
                      const double *energy, gsize n_e, const double *time, gsize n_t,
                      const double *aux, gsize n_a)
{
  Ref r = { model, flags, theta, time, aux, time ? n_t : 0, aux ? n_a : 0, NULL };
  gsize n_rows = r.n_t ? r.n_t : 1;
  gsize n_samples = 1;
  double *out = g_new0 (double, n_rows * n_e);
  double *peaks = g_new (double, n_e);

  r.traces = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  for (guint i = 0; i < model->profiles->len; i++)
    if (active (&r, g_ptr_array_index (model->profiles, i)))
      n_samples = r.n_a;

  for (gsize t = 0; t < n_rows; t++)
    {
      double *row = out + t * n_e;
      double shirley = 0;

      memset (peaks, 0, n_e * sizeof (double));
      for (guint c = 0; c < model->comps->len; c++)
        {
          const XrlabComponent *comp = g_ptr_array_index (model->comps, c);
          gboolean is_peak = xrlab_fn_info (comp->fn)->cls == XRLAB_FN_CLASS_PEAK;
          /* every component is averaged over the aux points: for one that does
           * not depend on them, that is the component itself */
          for (gsize a = 0; a < n_samples; a++)
            {
              double p[4];
              for (guint q = 0; q < comp->n_params; q++)
                p[q] = value_at (&r, comp->params[q], t, a);
              if (comp->fn == XRLAB_FN_SHIRLEY)
                {
                  shirley += p[0] / n_samples;
                  continue;
                }
              for (gsize e = 0; e < n_e; e++)
                {
                  double v = component (comp->fn, energy[e], p) / n_samples;
                  row[e] += v;
                  if (is_peak)
                    peaks[e] += v;
                }
            }
        }
      /* Shirley: p * sum_{j >= i} S_j */
      for (gsize e = 0; e < n_e; e++)
        {
          double s = 0;
          for (gsize j = e; j < n_e; j++)
            s += peaks[j];
          row[e] += shirley * s;
        }
    }
  g_hash_table_unref (r.traces);
  g_free (peaks);
  return out;
}
