/* test-nist-strd.c -- the NIST StRD nonlinear regression problems on the
 * xrlab-fit optimizer path
 *
 * Every .dat file in $XRLAB_SHARED_DATA/nist-strd/ is parsed (model name,
 * difficulty, both starting points, the certified parameters, standard
 * deviations and residual sum of squares, the data). Each model is a small C
 * callback with an analytic Jacobian; the fit uses the default options, i.e.
 * exactly what the spectral fits use. The number of correct significant digits
 * is the log relative error LRE = −log10(|x − c| / |c|) (capped at 11, the
 * digits NIST gives). Every problem of lower and average difficulty must
 * reach LRE ≥ 6 for every parameter, standard deviation and the RSS, from both
 * starts; so must the higher-difficulty ones except those listed in
 * known_misses[] with the reason.
 *
 * Run with XRLAB_NIST_TABLE=1 (or --verbose) to print the table of digits.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "xrlab-fit.h"
#include "xrlab-init.h"
#include "test-common.h"

#define MAX_P 9
#define REQUIRED_DIGITS 6.0
#define PI_L 3.141592653589793238462643383279502884L

typedef long double (*PointModel) (const long double *b, const long double *x);
typedef void (*PointGrad) (const double *b, const double *x, double *grad);

typedef struct {
  const char *name;
  gsize p;
  gsize nx;             /* predictors per observation */
  gboolean log_y;       /* the model is of log(y) (Nelson) */
  PointModel f;
  PointGrad df;
} NistModel;

typedef struct {
  char *name;
  char *difficulty;     /* "Lower", "Average", "Higher" */
  gsize p;
  double start[2][MAX_P];
  double cert[MAX_P];
  double cert_sd[MAX_P];
  double cert_rss;
  gsize n;
  double *y;
  double *x;            /* n × nx */
  long double *yl;      /* the same, read in long double (the data's 13 digits */
  long double *xl;      /* are not all representable in a double) */
  const NistModel *model;
} NistProblem;

/* ---- models and their Jacobians ------------------------------------------ */

static long double
misra1a_f (const long double *b, const long double *x)
{
  return b[0] * (1.0 - expl (-b[1] * x[0]));
}

static void
misra1a_df (const double *b, const double *x, double *g)
{
  double e = exp (-b[1] * x[0]);
  g[0] = 1.0 - e;
  g[1] = b[0] * x[0] * e;
}

static long double
chwirut_f (const long double *b, const long double *x)
{
  return expl (-b[0] * x[0]) / (b[1] + b[2] * x[0]);
}

static void
chwirut_df (const double *b, const double *x, double *g)
{
  double d = b[1] + b[2] * x[0], f = exp (-b[0] * x[0]) / d;
  g[0] = -x[0] * f;
  g[1] = -f / d;
  g[2] = -x[0] * f / d;
}

static long double
lanczos_f (const long double *b, const long double *x)
{
  return b[0] * expl (-b[1] * x[0]) + b[2] * expl (-b[3] * x[0]) + b[4] * expl (-b[5] * x[0]);
}

static void
lanczos_df (const double *b, const double *x, double *g)
{
  for (int k = 0; k < 3; k++)
    {
      double e = exp (-b[2 * k + 1] * x[0]);
      g[2 * k] = e;
      g[2 * k + 1] = -b[2 * k] * x[0] * e;
    }
}

static long double
gauss_f (const long double *b, const long double *x)
{
  long double t = x[0];
  long double z1 = (t - b[3]) / b[4], z2 = (t - b[6]) / b[7];
  return b[0] * expl (-b[1] * t) + b[2] * expl (-z1 * z1) + b[5] * expl (-z2 * z2);
}

static void
gauss_df (const double *b, const double *x, double *g)
{
  double t = x[0];
  double e0 = exp (-b[1] * t);
  double z1 = (t - b[3]) / b[4], z2 = (t - b[6]) / b[7];
  double g1 = exp (-z1 * z1), g2 = exp (-z2 * z2);
  g[0] = e0;
  g[1] = -b[0] * t * e0;
  g[2] = g1;
  g[3] = b[2] * g1 * 2.0 * z1 / b[4];
  g[4] = b[2] * g1 * 2.0 * z1 * z1 / b[4];
  g[5] = g2;
  g[6] = b[5] * g2 * 2.0 * z2 / b[7];
  g[7] = b[5] * g2 * 2.0 * z2 * z2 / b[7];
}

static long double
danwood_f (const long double *b, const long double *x)
{
  return b[0] * powl (x[0], b[1]);
}

static void
danwood_df (const double *b, const double *x, double *g)
{
  double q = pow (x[0], b[1]);
  g[0] = q;
  g[1] = b[0] * q * log (x[0]);
}

static long double
misra1b_f (const long double *b, const long double *x)
{
  long double u = 1.0 + b[1] * x[0] / 2.0;
  return b[0] * (1.0 - 1.0 / (u * u));
}

static void
misra1b_df (const double *b, const double *x, double *g)
{
  double u = 1.0 + b[1] * x[0] / 2.0;
  g[0] = 1.0 - 1.0 / (u * u);
  g[1] = b[0] * x[0] / (u * u * u);
}

static long double
kirby2_f (const long double *b, const long double *x)
{
  long double t = x[0];
  return (b[0] + b[1] * t + b[2] * t * t) / (1.0 + b[3] * t + b[4] * t * t);
}

static void
kirby2_df (const double *b, const double *x, double *g)
{
  double t = x[0];
  double num = b[0] + b[1] * t + b[2] * t * t, den = 1.0 + b[3] * t + b[4] * t * t;
  g[0] = 1.0 / den;
  g[1] = t / den;
  g[2] = t * t / den;
  g[3] = -num * t / (den * den);
  g[4] = -num * t * t / (den * den);
}

static long double
cubic_f (const long double *b, const long double *x)
{
  long double t = x[0], t2 = t * t, t3 = t2 * t;
  return (b[0] + b[1] * t + b[2] * t2 + b[3] * t3) / (1.0 + b[4] * t + b[5] * t2 + b[6] * t3);
}

static void
cubic_df (const double *b, const double *x, double *g)
{
  double t = x[0], t2 = t * t, t3 = t2 * t;
  double num = b[0] + b[1] * t + b[2] * t2 + b[3] * t3;
  double den = 1.0 + b[4] * t + b[5] * t2 + b[6] * t3;
  double q = num / (den * den);
  g[0] = 1.0 / den;
  g[1] = t / den;
  g[2] = t2 / den;
  g[3] = t3 / den;
  g[4] = -q * t;
  g[5] = -q * t2;
  g[6] = -q * t3;
}

static long double
nelson_f (const long double *b, const long double *x)
{
  return b[0] - b[1] * x[0] * expl (-b[2] * x[1]);
}

static void
nelson_df (const double *b, const double *x, double *g)
{
  double e = exp (-b[2] * x[1]);
  g[0] = 1.0;
  g[1] = -x[0] * e;
  g[2] = b[1] * x[0] * x[1] * e;
}

static long double
mgh17_f (const long double *b, const long double *x)
{
  return b[0] + b[1] * expl (-x[0] * b[3]) + b[2] * expl (-x[0] * b[4]);
}

static void
mgh17_df (const double *b, const double *x, double *g)
{
  double e4 = exp (-x[0] * b[3]), e5 = exp (-x[0] * b[4]);
  g[0] = 1.0;
  g[1] = e4;
  g[2] = e5;
  g[3] = -b[1] * x[0] * e4;
  g[4] = -b[2] * x[0] * e5;
}

static long double
misra1c_f (const long double *b, const long double *x)
{
  return b[0] * (1.0 - 1.0 / sqrtl (1.0 + 2.0 * b[1] * x[0]));
}

static void
misra1c_df (const double *b, const double *x, double *g)
{
  double u = 1.0 + 2.0 * b[1] * x[0];
  g[0] = 1.0 - 1.0 / sqrt (u);
  g[1] = b[0] * x[0] / (u * sqrt (u));
}

static long double
misra1d_f (const long double *b, const long double *x)
{
  return b[0] * b[1] * x[0] / (1.0 + b[1] * x[0]);
}

static void
misra1d_df (const double *b, const double *x, double *g)
{
  double u = 1.0 + b[1] * x[0];
  g[0] = b[1] * x[0] / u;
  g[1] = b[0] * x[0] / (u * u);
}

static long double
roszman1_f (const long double *b, const long double *x)
{
  return b[0] - b[1] * x[0] - atanl (b[2] / (x[0] - b[3])) / PI_L;
}

static void
roszman1_df (const double *b, const double *x, double *g)
{
  double d = x[0] - b[3], q = d * d + b[2] * b[2];
  g[0] = 1.0;
  g[1] = -x[0];
  g[2] = -d / (M_PI * q);
  g[3] = -b[2] / (M_PI * q);
}

static long double
enso_f (const long double *b, const long double *x)
{
  long double t = x[0], a = 2.0 * PI_L * t;
  return b[0] + b[1] * cosl (a / 12.0) + b[2] * sinl (a / 12.0)
         + b[4] * cosl (a / b[3]) + b[5] * sinl (a / b[3])
         + b[7] * cosl (a / b[6]) + b[8] * sinl (a / b[6]);
}

static void
enso_df (const double *b, const double *x, double *g)
{
  double t = x[0], a = 2.0 * M_PI * t;
  double c4 = cos (a / b[3]), s4 = sin (a / b[3]), c7 = cos (a / b[6]), s7 = sin (a / b[6]);
  g[0] = 1.0;
  g[1] = cos (a / 12.0);
  g[2] = sin (a / 12.0);
  g[3] = (b[4] * s4 - b[5] * c4) * a / (b[3] * b[3]);
  g[4] = c4;
  g[5] = s4;
  g[6] = (b[7] * s7 - b[8] * c7) * a / (b[6] * b[6]);
  g[7] = c7;
  g[8] = s7;
}

static long double
mgh09_f (const long double *b, const long double *x)
{
  long double t = x[0];
  return b[0] * (t * t + t * b[1]) / (t * t + t * b[2] + b[3]);
}

static void
mgh09_df (const double *b, const double *x, double *g)
{
  double t = x[0], num = t * t + t * b[1], den = t * t + t * b[2] + b[3];
  g[0] = num / den;
  g[1] = b[0] * t / den;
  g[2] = -b[0] * num * t / (den * den);
  g[3] = -b[0] * num / (den * den);
}

static long double
rat42_f (const long double *b, const long double *x)
{
  return b[0] / (1.0 + expl (b[1] - b[2] * x[0]));
}

static void
rat42_df (const double *b, const double *x, double *g)
{
  double e = exp (b[1] - b[2] * x[0]), u = 1.0 + e;
  g[0] = 1.0 / u;
  g[1] = -b[0] * e / (u * u);
  g[2] = b[0] * x[0] * e / (u * u);
}

static long double
mgh10_f (const long double *b, const long double *x)
{
  return b[0] * expl (b[1] / (x[0] + b[2]));
}

static void
mgh10_df (const double *b, const double *x, double *g)
{
  double d = x[0] + b[2], e = exp (b[1] / d);
  g[0] = e;
  g[1] = b[0] * e / d;
  g[2] = -b[0] * e * b[1] / (d * d);
}

static long double
eckerle4_f (const long double *b, const long double *x)
{
  long double z = (x[0] - b[2]) / b[1];
  return b[0] / b[1] * expl (-0.5 * z * z);
}

static void
eckerle4_df (const double *b, const double *x, double *g)
{
  double z = (x[0] - b[2]) / b[1], e = exp (-0.5 * z * z);
  g[0] = e / b[1];
  g[1] = b[0] * e / (b[1] * b[1]) * (z * z - 1.0);
  g[2] = b[0] / b[1] * e * z / b[1];
}

static long double
rat43_f (const long double *b, const long double *x)
{
  return b[0] / powl (1.0 + expl (b[1] - b[2] * x[0]), 1.0 / b[3]);
}

static void
rat43_df (const double *b, const double *x, double *g)
{
  double e = exp (b[1] - b[2] * x[0]), u = 1.0 + e;
  double q = pow (u, -1.0 / b[3]);
  g[0] = q;
  g[1] = -b[0] / b[3] * q / u * e;
  g[2] = b[0] / b[3] * q / u * e * x[0];
  g[3] = b[0] * q * log (u) / (b[3] * b[3]);
}

static long double
bennett5_f (const long double *b, const long double *x)
{
  return b[0] * powl (b[1] + x[0], -1.0 / b[2]);
}

static void
bennett5_df (const double *b, const double *x, double *g)
{
  double u = b[1] + x[0], q = pow (u, -1.0 / b[2]);
  g[0] = q;
  g[1] = -b[0] / b[2] * q / u;
  g[2] = b[0] * q * log (u) / (b[2] * b[2]);
}

static const NistModel models[] = {
  { "Misra1a", 2, 1, FALSE, misra1a_f, misra1a_df },
  { "Chwirut2", 3, 1, FALSE, chwirut_f, chwirut_df },
  { "Chwirut1", 3, 1, FALSE, chwirut_f, chwirut_df },
  { "Lanczos3", 6, 1, FALSE, lanczos_f, lanczos_df },
  { "Gauss1", 8, 1, FALSE, gauss_f, gauss_df },
  { "Gauss2", 8, 1, FALSE, gauss_f, gauss_df },
  { "DanWood", 2, 1, FALSE, danwood_f, danwood_df },
  { "Misra1b", 2, 1, FALSE, misra1b_f, misra1b_df },
  { "Kirby2", 5, 1, FALSE, kirby2_f, kirby2_df },
  { "Hahn1", 7, 1, FALSE, cubic_f, cubic_df },
  { "Nelson", 3, 2, TRUE, nelson_f, nelson_df },
  { "MGH17", 5, 1, FALSE, mgh17_f, mgh17_df },
  { "Lanczos1", 6, 1, FALSE, lanczos_f, lanczos_df },
  { "Lanczos2", 6, 1, FALSE, lanczos_f, lanczos_df },
  { "Gauss3", 8, 1, FALSE, gauss_f, gauss_df },
  { "Misra1c", 2, 1, FALSE, misra1c_f, misra1c_df },
  { "Misra1d", 2, 1, FALSE, misra1d_f, misra1d_df },
  { "Roszman1", 4, 1, FALSE, roszman1_f, roszman1_df },
  { "ENSO", 9, 1, FALSE, enso_f, enso_df },
  { "MGH09", 4, 1, FALSE, mgh09_f, mgh09_df },
  { "Thurber", 7, 1, FALSE, cubic_f, cubic_df },
  { "BoxBOD", 2, 1, FALSE, misra1a_f, misra1a_df },
  { "Rat42", 3, 1, FALSE, rat42_f, rat42_df },
  { "MGH10", 3, 1, FALSE, mgh10_f, mgh10_df },
  { "Eckerle4", 3, 1, FALSE, eckerle4_f, eckerle4_df },
  { "Rat43", 4, 1, FALSE, rat43_f, rat43_df },
  { "Bennett5", 3, 1, FALSE, bennett5_f, bennett5_df },
};

/* Problems and starts the default method (Levenberg–Marquardt) does not take
 * to 6 digits, with why. start: 1 or 2. Only higher-difficulty ones may be
 * listed (the test checks it). */
typedef struct {
  const char *name;
  int start;
  const char *why;
} KnownMiss;

static const KnownMiss known_misses[] = {
  { "BoxBOD", 1,
    "from b = (1, 1) the first, nearly Gauss–Newton step jumps to b2 ≈ 115, where "
    "exp(−b2·x) underflows to 0 at every x ≥ 1: the model is the constant b1, ∂m/∂b2 is "
    "exactly 0 and the fit settles on that plateau (b1 = 172.5, RSS = 9771.5), the "
    "b2 → ∞ local minimum; geodesic acceleration damps that first step and succeeds" },
  { NULL, 0, NULL },
};

/* ---- parsing ---------------------------------------------------------------- */

static void
problem_free (NistProblem *pr)
{
  if (pr == NULL)
    return;
  g_free (pr->name);
  g_free (pr->difficulty);
  g_free (pr->y);
  g_free (pr->x);
  g_free (pr->yl);
  g_free (pr->xl);
  g_free (pr);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (NistProblem, problem_free)

/* Reads @max numbers (the C locale is in effect: g_test_init does not call
 * setlocale). */
static gboolean
parse_numbers_l (const char *s, long double *v, int max)
{
  int k = 0;

  while (*s && k < max)
    {
      char *end;
      while (g_ascii_isspace (*s))
        s++;
      if (*s == '\0')
        break;
      v[k] = strtold (s, &end);
      if (end == s)
        return FALSE;
      s = end;
      k++;
    }
  return k == max;
}

static gboolean
parse_numbers (const char *s, double *v, int max)
{
  long double lv[8];

  g_assert_cmpint (max, <=, 8);
  if (!parse_numbers_l (s, lv, max))
    return FALSE;
  for (int k = 0; k < max; k++)
    v[k] = (double) lv[k];
  return TRUE;
}

static NistProblem *
parse_problem (const char *path)
{
  g_autoptr(NistProblem) pr = g_new0 (NistProblem, 1);
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GArray) ys = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) xs = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) yls = g_array_new (FALSE, FALSE, sizeof (long double));
  g_autoptr(GArray) xls = g_array_new (FALSE, FALSE, sizeof (long double));
  gboolean in_data = FALSE;
  int data_headers = 0;

  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  lines = g_strsplit (contents, "\n", -1);
  for (gsize l = 0; lines[l] != NULL; l++)
    {
      char *line = g_strchomp (lines[l]);
      const char *s = line;

      while (g_ascii_isspace (*s))
        s++;
      if (g_str_has_prefix (s, "Dataset Name:"))
        {
          g_auto(GStrv) tok = g_strsplit_set (s + 13, " \t", -1);
          for (gsize t = 0; tok[t]; t++)
            if (*tok[t])
              {
                pr->name = g_strdup (tok[t]);
                break;
              }
        }
      else if (strstr (s, "Level of Difficulty") != NULL)
        {
          g_auto(GStrv) tok = g_strsplit (s, " ", 2);
          pr->difficulty = g_strdup (tok[0]);
        }
      else if (s[0] == 'b' && g_ascii_isdigit (s[1]) && strchr (s, '=') != NULL)
        {
          int k = atoi (s + 1) - 1;
          double v[4] = { NAN, NAN, NAN, NAN };
          g_assert_cmpint (k, >=, 0);
          g_assert_cmpint (k, <, MAX_P);
          g_assert_true (parse_numbers (strchr (s, '=') + 1, v, 4));
          pr->start[0][k] = v[0];
          pr->start[1][k] = v[1];
          pr->cert[k] = v[2];
          pr->cert_sd[k] = v[3];
          pr->p = MAX (pr->p, (gsize) k + 1);
        }
      else if (g_str_has_prefix (s, "Residual Sum of Squares:"))
        pr->cert_rss = g_ascii_strtod (s + strlen ("Residual Sum of Squares:"), NULL);
      else if (g_str_has_prefix (s, "Data:"))
        {
          /* The second "Data:" line heads the columns of numbers. */
          if (++data_headers == 2)
            in_data = TRUE;
        }
      else if (in_data && *s)
        {
          long double v[3];
          double dv[3];
          gsize nx = pr->model ? pr->model->nx : 0;
          if (pr->model == NULL)
            {
              for (gsize m = 0; m < G_N_ELEMENTS (models); m++)
                if (g_str_equal (models[m].name, pr->name))
                  pr->model = &models[m];
              g_assert_nonnull (pr->model);
              nx = pr->model->nx;
            }
          g_assert_true (parse_numbers_l (s, v, (int) nx + 1));
          for (gsize k = 0; k <= nx; k++)
            dv[k] = (double) v[k];
          g_array_append_val (ys, dv[0]);
          g_array_append_vals (xs, dv + 1, nx);
          g_array_append_val (yls, v[0]);
          g_array_append_vals (xls, v + 1, nx);
        }
    }
  g_assert_nonnull (pr->name);
  g_assert_nonnull (pr->difficulty);
  g_assert_nonnull (pr->model);
  g_assert_cmpuint (pr->p, ==, pr->model->p);
  g_assert_cmpfloat (pr->cert_rss, >, 0.0);
  pr->n = ys->len;
  g_assert_cmpuint (pr->n, >, pr->p);
  pr->y = g_memdup2 (ys->data, ys->len * sizeof (double));
  pr->x = g_memdup2 (xs->data, xs->len * sizeof (double));
  pr->yl = g_memdup2 (yls->data, yls->len * sizeof (long double));
  pr->xl = g_memdup2 (xls->data, xls->len * sizeof (long double));
  if (pr->model->log_y)
    for (gsize i = 0; i < pr->n; i++)
      {
        pr->yl[i] = logl (pr->yl[i]);
        pr->y[i] = (double) pr->yl[i];
      }
  return g_steal_pointer (&pr);
}

/* ---- the fit callbacks --------------------------------------------------------- */

/* f(x; b) in long double. */
static long double
point_value_l (const NistModel *m, const double *b, const long double *x)
{
  long double lb[MAX_P];

  for (gsize j = 0; j < m->p; j++)
    lb[j] = b[j];
  return m->f (lb, x);
}

static long double
point_value (const NistModel *m, const double *b, const double *x)
{
  long double lx[2];

  for (gsize k = 0; k < m->nx; k++)
    lx[k] = x[k];
  return point_value_l (m, b, lx);
}

typedef struct {
  const NistProblem *pr;
  gboolean residuals;   /* the callback returns f − y (rounded once) instead of f */
} FitCtx;

static gboolean
nist_model (const double *theta, double *out, gpointer user_data, GError **error)
{
  const FitCtx *ctx = user_data;
  const NistProblem *pr = ctx->pr;

  for (gsize i = 0; i < pr->n; i++)
    {
      if (ctx->residuals)
        out[i] = (double) (point_value_l (pr->model, theta, pr->xl + i * pr->model->nx)
                           - pr->yl[i]);
      else
        out[i] = (double) point_value (pr->model, theta, pr->x + i * pr->model->nx);
    }
  return TRUE;
}

static gboolean
nist_jacobian (const double *theta, double *jac, gpointer user_data, GError **error)
{
  const FitCtx *ctx = user_data;
  const NistProblem *pr = ctx->pr;

  for (gsize i = 0; i < pr->n; i++)
    pr->model->df (theta, pr->x + i * pr->model->nx, jac + i * pr->p);
  return TRUE;
}

static double
lre (double value, double cert)
{
  double rel;

  if (value == cert)
    return 11.0;
  rel = fabs (value - cert) / fabs (cert);
  if (!isfinite (rel))
    return 0.0;
  return CLAMP (-log10 (rel), 0.0, 11.0);
}

typedef struct {
  double params, sd, rss;   /* minimum LRE over the parameters / standard deviations */
  guint niter, nfev, njev;
  gboolean converged;
  const char *stop;
} Digits;

static void
trace_progress (guint iter, double chi2, const double *theta, gsize p, gpointer data)
{
  printf ("# %4u %.10g :", iter, chi2);
  for (gsize j = 0; j < p; j++)
    printf (" %.8g", theta[j]);
  printf ("\n");
}

static gboolean
fit_problem (const NistProblem *pr, int start, gboolean residuals,
             const XrlabFitOptions *options, Digits *d)
{
  FitCtx ctx = { pr, residuals };
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabFit) fit = NULL;
  g_autoptr(XrlabFitResult) r = NULL;
  XrlabFitProblem prob = {
    .n = pr->n, .p = pr->p,
    .model = nist_model, .jacobian = nist_jacobian, .user_data = &ctx,
    .data = residuals ? NULL : pr->y,
  };

  XrlabFitOptions o = *options;
  if (g_strcmp0 (g_getenv ("XRLAB_NIST_TRACE"), pr->name) == 0)
    o.progress = trace_progress;
  fit = xrlab_fit_new (&prob, &o, &error);
  g_assert_no_error (error);
  if (!xrlab_fit_run (fit, pr->start[start - 1], NULL, &r, &error))
    {
      g_test_message ("%s start %d: %s", pr->name, start, error->message);
      d->params = d->sd = d->rss = 0.0;
      return FALSE;
    }
  d->params = d->sd = 11.0;
  for (gsize j = 0; j < pr->p; j++)
    {
      d->params = MIN (d->params, lre (r->values[j], pr->cert[j]));
      d->sd = MIN (d->sd, r->errors_valid ? lre (r->errors[j], pr->cert_sd[j]) : 0.0);
    }
  d->rss = lre (r->chi2, pr->cert_rss);
  d->niter = r->niter;
  d->nfev = r->nfev;
  d->njev = r->njev;
  d->converged = r->converged;
  d->stop = r->message;
  return TRUE;
}

static const KnownMiss *
find_known_miss (const char *name, int start)
{
  for (gsize k = 0; known_misses[k].name != NULL; k++)
    if (g_str_equal (known_misses[k].name, name) && known_misses[k].start == start)
      return &known_misses[k];
  return NULL;
}

static GPtrArray *problems;

/* The problems, read at the first test that needs them; FALSE (the test
 * skipped, or failed with CI=true) when the files are not there. */
static gboolean
need_problems (void)
{
  g_autofree char *dir = xrlab_test_shared_path ("nist-strd", "the NIST StRD files");

  if (dir == NULL)
    return FALSE;
  if (problems != NULL)
    return TRUE;
  problems = g_ptr_array_new_with_free_func ((GDestroyNotify) problem_free);
  for (gsize m = 0; m < G_N_ELEMENTS (models); m++)
    {
      g_autofree char *file = g_strconcat (models[m].name, ".dat", NULL);
      g_autofree char *path = g_build_filename (dir, file, NULL);
      g_assert_true (g_file_test (path, G_FILE_TEST_EXISTS));
      g_ptr_array_add (problems, parse_problem (path));
    }
  return TRUE;
}

/* The analytic Jacobians agree with central differences (so a wrong
 * derivative cannot hide behind a forgiving optimizer). */
static void
test_jacobians (void)
{
  if (!need_problems ())
    return;
  for (guint k = 0; k < problems->len; k++)
    {
      const NistProblem *pr = problems->pdata[k];
      for (int s = 0; s < 3; s++)
        {
          const double *b0 = (s < 2) ? pr->start[s] : pr->cert;
          for (gsize i = 0; i < pr->n; i++)
            {
              const double *x = pr->x + i * pr->model->nx;
              double g[MAX_P];
              pr->model->df (b0, x, g);
              for (gsize j = 0; j < pr->p; j++)
                {
                  double b[MAX_P], h = 1e-6 * MAX (fabs (b0[j]), 1e-8), fp, fm, fd;
                  memcpy (b, b0, sizeof b);
                  b[j] = b0[j] + h;
                  fp = point_value (pr->model, b, x);
                  b[j] = b0[j] - h;
                  fm = point_value (pr->model, b, x);
                  fd = (fp - fm) / (2 * h);
                  /* truncation ~1e-12 relative; rounding ~ε|f|/h */
                  double tol = 1e-5 * fabs (g[j])
                               + 100.0 * DBL_EPSILON * fabsl (point_value (pr->model, b0, x)) / h;
                  if (!(fabs (fd - g[j]) <= tol))
                    g_error ("%s: d/db%zu at point %zu: analytic %g, differences %g",
                             pr->name, j + 1, i + 1, g[j], fd);
                }
            }
        }
    }
}

/* Lanczos1's certified residuals (RSS 1.4e−25, ~8e−14 per point) lie below
 * the rounding of a double model value near 1 (1.1e−16 relative, i.e. 0.1 %
 * of each residual), so its standard deviations and RSS can only be
 * reproduced when the residuals are formed beyond double precision. */
static gboolean
below_double_rounding (const NistProblem *pr)
{
  return g_str_equal (pr->name, "Lanczos1");
}

/* TRUE when long double arithmetic really carries more digits than double.
 * Not so on platforms where long double is double, nor under valgrind, which
 * runs x87 extended precision as double: there the long-double residuals of
 * the table cannot resolve Lanczos1 either. */
static gboolean
long_double_is_wider (void)
{
  volatile long double one = 1.0L;
  volatile long double sum = one + (long double) DBL_EPSILON / 4.0L;

  return sum != one;
}

static void
run_table (gboolean residuals)
{
  XrlabFitOptions options;
  gboolean table = g_getenv ("XRLAB_NIST_TABLE") != NULL || g_test_verbose ();
  guint failures = 0, reached = 0, total = 0;

  if (!need_problems ())
    return;
  xrlab_fit_options_init (&options);
  if (g_strcmp0 (g_getenv ("XRLAB_NIST_METHOD"), "accel") == 0)
    options.method = XRLAB_FIT_METHOD_LM_ACCEL;
  if (g_strcmp0 (g_getenv ("XRLAB_NIST_METHOD"), "fd") == 0)
    options.method = XRLAB_FIT_METHOD_FD;
  if (g_strcmp0 (g_getenv ("XRLAB_NIST_SOLVER"), "qr") == 0)
    options.solver = XRLAB_FIT_SOLVER_QR;
  if (g_getenv ("XRLAB_NIST_XTOL"))
    options.xtol = g_ascii_strtod (g_getenv ("XRLAB_NIST_XTOL"), NULL);
  if (g_getenv ("XRLAB_NIST_GTOL"))
    options.gtol = g_ascii_strtod (g_getenv ("XRLAB_NIST_GTOL"), NULL);
  if (g_getenv ("XRLAB_NIST_MAXITER"))
    options.max_iter = atoi (g_getenv ("XRLAB_NIST_MAXITER"));
  if (table)
    printf ("# %s\n# %-9s %-8s %5s %6s %6s %6s %5s %6s %5s  %s\n",
            residuals ? "residuals formed in long double by the model callback"
                      : "residuals formed by the optimizer from double model values",
            "problem", "level", "start", "params", "stderr", "RSS", "iter", "nfev", "njev",
            "stop");
  for (guint k = 0; k < problems->len; k++)
    {
      const NistProblem *pr = problems->pdata[k];
      for (int start = 1; start <= 2; start++)
        {
          Digits d = { 0 };
          const KnownMiss *miss = find_known_miss (pr->name, start);
          gboolean ok;

          fit_problem (pr, start, residuals, &options, &d);
          ok = d.params >= REQUIRED_DIGITS && d.sd >= REQUIRED_DIGITS
               && d.rss >= REQUIRED_DIGITS;
          if ((!residuals || !long_double_is_wider ()) && below_double_rounding (pr))
            ok = d.params >= REQUIRED_DIGITS;
          total++;
          reached += ok;
          if (table)
            printf ("# %-9s %-8s %5d %6.1f %6.1f %6.1f %5u %6u %5u  %s\n", pr->name,
                    pr->difficulty, start, d.params, d.sd, d.rss, d.niter, d.nfev, d.njev,
                    d.stop ? d.stop : "failed");
          if (!ok && miss == NULL)
            {
              g_test_message ("%s (%s difficulty), start %d: %.1f digits in the parameters, "
                              "%.1f in the standard deviations, %.1f in the RSS",
                              pr->name, pr->difficulty, start, d.params, d.sd, d.rss);
              failures++;
            }
          if (ok && miss != NULL)
            g_test_message ("%s start %d is listed as a known miss but now reaches 6 digits",
                            pr->name, start);
          if (miss != NULL)
            g_assert_true (g_str_equal (pr->difficulty, "Higher"));
        }
    }
  g_test_message ("%u of %u problem/start pairs reach 6 significant digits", reached, total);
  g_assert_cmpuint (failures, ==, 0);
}

/* The model callback returns the residuals, computed in long double. */
static void
test_certified (void)
{
  run_table (TRUE);
}

/* The optimizer forms (m − y) from double model values: the path of the
 * spectral fits. */
static void
test_data_path (void)
{
  run_table (FALSE);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  xrlab_init ();
  g_test_add_func ("/nist-strd/jacobians", test_jacobians);
  g_test_add_func ("/nist-strd/certified", test_certified);
  g_test_add_func ("/nist-strd/data-path", test_data_path);
  status = g_test_run ();
  g_clear_pointer (&problems, g_ptr_array_unref);
  return status;
}
