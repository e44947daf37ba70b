/* xrlab-fitflow.c -- the fitting workflow: window, baseline, slice-by-slice,
 * global 2D (see xrlab-fitflow.h)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-fitflow.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "xrlab-parallel.h"
#include "xrlab-plan.h"
#include "xrlab-util.h"

G_DEFINE_QUARK (xrlab-fitflow-error-quark, xrlab_fitflow_error)

struct _XrlabFitflow {
  const double *data;
  gsize n_rows, n_cols;            /* n_time (or 1) × n_energy */
  double *energy, *time, *aux;
  gsize n_e, n_t, n_a;
  char *data_name, *energy_name, *time_name;

  gsize row0, nrw, col0, ncw;      /* the fit window */

  XrlabFitSigmaKind sigma_kind;
  double *sigma;

  XrlabFitflowOptions options;

  GHashTable *seed;                /* name → double* */
  double *seed_spectrum;           /* the baseline data, seed_ncols energies */
  gsize seed_col0, seed_ncols;
};

/* What a prepared stage evaluates: the plan on a domain of the data axes
 * and the part of it that is fitted. */
struct _XrlabFitflowCtx {
  XrlabPlan *plan;
  XrlabPlanWorkspace *ws;
  gsize dom_rows, dom_cols;        /* the plan's output */
  gsize row_off, rows, cols;       /* the fitted block inside it (columns from 0) */
  gboolean direct;                 /* the block is the whole domain */
  double *buf, *jbuf;              /* domain-sized scratch when not direct */
  gsize p;
  double *y;                       /* the fitted data (rows × cols), owned */
  double *sig;                     /* σ for the fit, owned */
  XrlabFitSigmaKind sigma_kind;
  XrlabFit *fit;
  XrlabFitflowStage stage;
  XrlabFitflowProgressFunc progress;
  gpointer progress_data;
};

/* A stage ready to run. */
typedef struct {
  XrlabFitflowStage stage;
  XrlabModel *model;               /* seeded and pinned copy */
  XrlabPlan *plan;
  gsize dom_row0, dom_rows;        /* plan domain: data rows (2D) */
  gsize dom_cols;                  /* energies from the window's first column on */
  gsize row0, rows;                /* fitted data rows (baseline: averaged rows) */
  gsize n_theta;
  double *theta0, *lower, *upper;
  char **names;
} Prep;

static void
prep_clear (Prep *pr)
{
  g_clear_pointer (&pr->model, xrlab_model_free);
  g_clear_pointer (&pr->plan, xrlab_plan_free);
  g_clear_pointer (&pr->theta0, g_free);
  g_clear_pointer (&pr->lower, g_free);
  g_clear_pointer (&pr->upper, g_free);
  g_clear_pointer (&pr->names, g_strfreev);
}

const char *
xrlab_fitflow_stage_name (XrlabFitflowStage stage)
{
  switch (stage)
    {
    case XRLAB_FITFLOW_STAGE_BASELINE:
      return "baseline";
    case XRLAB_FITFLOW_STAGE_SPECTRUM:
      return "spectrum";
    case XRLAB_FITFLOW_STAGE_SBS:
      return "slice-by-slice";
    case XRLAB_FITFLOW_STAGE_2D:
    default:
      return "2D";
    }
}

/* The stage in translated messages ("the baseline fit"); the name above is
 * an identifier and stays English. */
static const char *
stage_label (XrlabFitflowStage stage)
{
  switch (stage)
    {
    case XRLAB_FITFLOW_STAGE_BASELINE:
      /* TRANSLATORS: "%s fit" is "baseline fit", "spectrum fit",
       * "slice-by-slice fit" or "2D fit" */
      return C_("fit stage", "baseline");
    case XRLAB_FITFLOW_STAGE_SPECTRUM:
      return C_("fit stage", "spectrum");
    case XRLAB_FITFLOW_STAGE_SBS:
      return C_("fit stage", "slice-by-slice");
    case XRLAB_FITFLOW_STAGE_2D:
    default:
      return C_("fit stage", "2D");
    }
}

void
xrlab_fitflow_options_init (XrlabFitflowOptions *options)
{
  memset (options, 0, sizeof *options);
  options->method = XRLAB_FIT_METHOD_LM;
  options->track_peaks = TRUE;
}

/* ---- the data ----------------------------------------------------------------- */

static const char *
dname (const XrlabFitflow *f)
{
  return f->data_name ? f->data_name : _("the data");
}

static const char *
ename (const XrlabFitflow *f)
{
  return f->energy_name ? f->energy_name : _("the energy axis");
}

static const char *
tname (const XrlabFitflow *f)
{
  return f->time_name ? f->time_name : _("the delay axis");
}

void
xrlab_fitflow_free (XrlabFitflow *flow)
{
  if (flow == NULL)
    return;
  g_free (flow->energy);
  g_free (flow->time);
  g_free (flow->aux);
  g_free (flow->data_name);
  g_free (flow->energy_name);
  g_free (flow->time_name);
  g_free (flow->sigma);
  g_clear_pointer (&flow->seed, g_hash_table_unref);
  g_free (flow->seed_spectrum);
  g_free (flow);
}

static gboolean
check_axis_values (const double *v, gsize n, const char *name, gboolean any_direction,
                   GError **error)
{
  char a[XRLAB_DTOA_BUFSIZE], b[XRLAB_DTOA_BUFSIZE];
  int dir = 0;

  for (gsize i = 0; i < n; i++)
    if (!isfinite (v[i]))
      {
        g_set_error (error, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_AXIS,
                     _("%s: value %zu is not a finite number"), name, i + 1);
        return FALSE;
      }
  for (gsize i = 1; i < n; i++)
    {
      int d = (v[i] > v[i - 1]) ? 1 : (v[i] < v[i - 1]) ? -1 : 0;
      if (dir == 0 && i == 1)
        dir = any_direction ? d : 1;
      if (d == 0 || d != dir)
        {
          g_set_error (error, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_AXIS,
                       any_direction
                       ? _("%s is not strictly monotonic: value %zu (%s) "
                           "after %s")
                       : _("%s does not increase strictly: value %zu (%s) "
                           "after %s"),
                       name, i + 1, xrlab_format_double (v[i], a),
                       xrlab_format_double (v[i - 1], b));
          return FALSE;
        }
    }
  return TRUE;
}

XrlabFitflow *
xrlab_fitflow_new (const XrlabFitflowData *d, GError **error)
{
  g_autoptr(XrlabFitflow) f = g_new0 (XrlabFitflow, 1);

  g_return_val_if_fail (d != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  f->data_name = g_strdup (d->data_name);
  f->energy_name = g_strdup (d->energy_name);
  f->time_name = g_strdup (d->time_name);
  xrlab_fitflow_options_init (&f->options);

  if (d->data == NULL || d->n_rows == 0 || d->n_cols == 0)
    {
      g_set_error (error, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_SHAPE,
                   _("%s holds no values"), dname (f));
      return NULL;
    }
  if (d->energy == NULL || d->n_energy == 0)
    {
      g_set_error (error, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_SHAPE,
                   _("%s is empty"), ename (f));
      return NULL;
    }
  if (d->time != NULL && d->n_time == 0)
    {
      g_set_error (error, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_SHAPE,
                   _("%s is empty"), tname (f));
      return NULL;
    }
  if (d->n_cols != d->n_energy || (d->time != NULL && d->n_rows != d->n_time))
    {
      g_autofree char *rows = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%zu row",
                                                            "%zu rows", d->n_rows), d->n_rows);
      g_autofree char *cols = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%zu column",
                                                            "%zu columns", d->n_cols), d->n_cols);
      g_autofree char *energies = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%zu energy",
                                                                "%zu energies", d->n_energy),
                                                   d->n_energy);
      g_autofree char *delays = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%zu delay",
                                                              "%zu delays", d->n_time),
                                                 d->n_time);

      if (d->n_cols == d->n_energy)
        /* TRANSLATORS: "data.csv has 5 rows but time.csv has 6 delays (...)" */
        g_set_error (error, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_SHAPE,
                     _("%s has %s but %s has %s (one row per delay)"),
                     dname (f), rows, tname (f), delays);
      else if (d->time && d->n_rows == d->n_energy && d->n_cols == d->n_time)
        /* TRANSLATORS: "data.csv has 20 rows × 5 columns, the transpose of what
         * energy.csv (20 energies) and time.csv (5 delays) need: ..." */
        g_set_error (error, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_SHAPE,
                     _("%s has %s × %s, the transpose of what %s (%s) and %s (%s) "
                       "need: one row per delay, one column per energy"),
                     dname (f), rows, cols, ename (f), energies, tname (f), delays);
      else
        /* TRANSLATORS: "data.csv has 19 columns but energy.csv has 20 energies (...)" */
        g_set_error (error, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_SHAPE,
                     _("%s has %s but %s has %s (one column per energy)"),
                     dname (f), cols, ename (f), energies);
      return NULL;
    }
  if (d->time == NULL && d->n_rows != 1)
    {
      g_set_error (error, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_SHAPE,
                   g_dngettext (GETTEXT_PACKAGE,
                                "%s has %zu row: a 2D measurement needs its delay "
                                "axis (one row per delay), a single spectrum is one row",
                                "%s has %zu rows: a 2D measurement needs its delay "
                                "axis (one row per delay), a single spectrum is one row",
                                d->n_rows),
                   dname (f), d->n_rows);
      return NULL;
    }
  if (!check_axis_values (d->energy, d->n_energy, ename (f), TRUE, error))
    return NULL;
  if (d->time && !check_axis_values (d->time, d->n_time, tname (f), FALSE, error))
    return NULL;
  if (d->aux && !check_axis_values (d->aux, d->n_aux, _("the aux axis"), TRUE, error))
    return NULL;

  f->data = d->data;
  f->n_rows = d->n_rows;
  f->n_cols = d->n_cols;
  f->n_e = d->n_energy;
  f->energy = g_memdup2 (d->energy, d->n_energy * sizeof (double));
  if (d->time)
    {
      f->n_t = d->n_time;
      f->time = g_memdup2 (d->time, d->n_time * sizeof (double));
    }
  if (d->aux && d->n_aux > 0)
    {
      f->n_a = d->n_aux;
      f->aux = g_memdup2 (d->aux, d->n_aux * sizeof (double));
    }
  f->row0 = 0;
  f->nrw = f->n_rows;
  f->col0 = 0;
  f->ncw = f->n_cols;
  f->sigma_kind = XRLAB_FIT_SIGMA_NONE;
  return g_steal_pointer (&f);
}

void
xrlab_fitflow_set_options (XrlabFitflow *flow, const XrlabFitflowOptions *options)
{
  g_return_if_fail (flow != NULL && options != NULL);
  flow->options = *options;
}

/* "row 12, column 300 (delay 0.82, energy 85.2)" */
static char *
describe_cell (const XrlabFitflow *f, gsize r, gsize c)
{
  char a[XRLAB_DTOA_BUFSIZE], b[XRLAB_DTOA_BUFSIZE];

  if (f->time)
    return g_strdup_printf (_("row %zu, column %zu"
                              " (delay %s, energy %s)"),
                            r + 1, c + 1, xrlab_format_double (f->time[r], a),
                            xrlab_format_double (f->energy[c], b));
  return g_strdup_printf (_("column %zu (energy %s)"), c + 1,
                          xrlab_format_double (f->energy[c], b));
}

/* NaN or infinity in the data rows [r0, r0 + n) within the window's
 * energies. */
static gboolean
check_finite (const XrlabFitflow *f, gsize r0, gsize n, const char *where, GError **error)
{
  for (gsize k = 0; k < n; k++)
    {
      gsize r = r0 + k;
      const double *row = f->data + r * f->n_cols;
      double check = 0.0;

      for (gsize c = f->col0; c < f->col0 + f->ncw; c++)
        check += row[c] - row[c];
      if (check == 0.0)
        continue;
      for (gsize c = f->col0; c < f->col0 + f->ncw; c++)
        if (!isfinite (row[c]))
          {
            g_autofree char *cell = describe_cell (f, r, c);
            g_set_error (error, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_DATA,
                         _("%s: %s at %s, %s"), dname (f), isnan (row[c]) ? "NaN" : _("infinity"),
                         cell, where);
            return FALSE;
          }
    }
  return TRUE;
}

/* The index range [*i0, *i0 + *n) of the monotonic @v within [lo, hi]. */
static void
axis_range (const double *v, gsize nv, double lo, double hi, gsize *i0, gsize *n)
{
  gsize first = G_MAXSIZE, last = 0;

  for (gsize i = 0; i < nv; i++)
    if (v[i] >= lo && v[i] <= hi)
      {
        if (first == G_MAXSIZE)
          first = i;
        last = i;
      }
  if (first == G_MAXSIZE)
    *i0 = *n = 0;
  else
    {
      *i0 = first;
      *n = last - first + 1;
    }
}

/* [lo, hi] from two limits in either order; a NaN limit is open. */
static void
limits (double a, double b, double *lo, double *hi)
{
  *lo = isnan (a) ? -INFINITY : a;
  *hi = isnan (b) ? INFINITY : b;
  if (*lo > *hi)
    {
      double t = *lo;
      *lo = *hi;
      *hi = t;
    }
}

gboolean
xrlab_fitflow_set_window (XrlabFitflow *flow, double e0, double e1, double t0, double t1,
                          GError **error)
{
  double elo, ehi, tlo, thi;
  gsize c0, nc, r0 = 0, nr = 1;
  char a[XRLAB_DTOA_BUFSIZE], b[XRLAB_DTOA_BUFSIZE];
  char c[XRLAB_DTOA_BUFSIZE], d[XRLAB_DTOA_BUFSIZE];

  g_return_val_if_fail (flow != NULL, FALSE);

  limits (e0, e1, &elo, &ehi);
  limits (t0, t1, &tlo, &thi);

  axis_range (flow->energy, flow->n_e, elo, ehi, &c0, &nc);
  if (nc == 0)
    {
      g_set_error (error, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_WINDOW,
                   _("The fit window %s … %s holds no energy of %s (%s … %s)"),
                   xrlab_format_double (elo, a), xrlab_format_double (ehi, b), ename (flow),
                   xrlab_format_double (flow->energy[0], c),
                   xrlab_format_double (flow->energy[flow->n_e - 1], d));
      return FALSE;
    }
  if (flow->time)
    {
      axis_range (flow->time, flow->n_t, tlo, thi, &r0, &nr);
      if (nr == 0)
        {
          g_set_error (error, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_WINDOW,
                       _("The fit window %s … %s holds no delay of %s (%s … %s)"),
                       xrlab_format_double (tlo, a), xrlab_format_double (thi, b),
                       tname (flow), xrlab_format_double (flow->time[0], c),
                       xrlab_format_double (flow->time[flow->n_t - 1], d));
          return FALSE;
        }
    }
  else if (!isnan (t0) || !isnan (t1))
    {
      g_set_error (error, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_WINDOW,
                   _("Delay limits need a delay axis (%s is a single spectrum)"), dname (flow));
      return FALSE;
    }

  {
    gsize old[4] = { flow->row0, flow->nrw, flow->col0, flow->ncw };
    flow->row0 = r0, flow->nrw = nr, flow->col0 = c0, flow->ncw = nc;
    if (!check_finite (flow, r0, nr, _("inside the fit window"), error))
      {
        flow->row0 = old[0], flow->nrw = old[1], flow->col0 = old[2], flow->ncw = old[3];
        return FALSE;
      }
  }
  return TRUE;
}

void
xrlab_fitflow_get_window (const XrlabFitflow *flow, gsize *row0, gsize *n_rows, gsize *col0,
                          gsize *n_cols)
{
  if (row0)
    *row0 = flow->row0;
  if (n_rows)
    *n_rows = flow->nrw;
  if (col0)
    *col0 = flow->col0;
  if (n_cols)
    *n_cols = flow->ncw;
}

gboolean
xrlab_fitflow_set_sigma (XrlabFitflow *flow, XrlabFitSigmaKind kind, const double *sigma,
                         gsize n_sigma, GError **error)
{
  gsize want;
  const char *what;

  g_return_val_if_fail (flow != NULL, FALSE);
  switch (kind)
    {
    case XRLAB_FIT_SIGMA_NONE:
      g_clear_pointer (&flow->sigma, g_free);
      flow->sigma_kind = kind;
      return TRUE;
    case XRLAB_FIT_SIGMA_SCALAR:
      want = 1, what = _("one value");
      break;
    case XRLAB_FIT_SIGMA_ROWS:
      want = flow->n_rows, what = _("one value per delay");
      break;
    case XRLAB_FIT_SIGMA_COLUMNS:
      want = flow->n_cols, what = _("one value per energy");
      break;
    case XRLAB_FIT_SIGMA_FULL:
      want = flow->n_rows * flow->n_cols, what = _("one value per data point");
      break;
    default:
      g_set_error (error, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_SIGMA,
                   _("Unknown kind of σ (%d)"), (int) kind);
      return FALSE;
    }
  if (sigma == NULL || n_sigma != want)
    {
      g_set_error (error, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_SIGMA,
                   g_dngettext (GETTEXT_PACKAGE, "σ has %zu value, %s needs %zu (%s)",
                                "σ has %zu values, %s needs %zu (%s)", sigma ? n_sigma : 0),
                   sigma ? n_sigma : 0, dname (flow), want, what);
      return FALSE;
    }
  if (kind == XRLAB_FIT_SIGMA_SCALAR && !(isfinite (sigma[0]) && sigma[0] > 0))
    {
      char b[XRLAB_DTOA_BUFSIZE];
      g_set_error (error, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_SIGMA,
                   _("σ = %s is not a positive finite number"),
                   xrlab_format_double (sigma[0], b));
      return FALSE;
    }
  g_free (flow->sigma);
  flow->sigma = g_memdup2 (sigma, want * sizeof (double));
  flow->sigma_kind = kind;
  return TRUE;
}

/* σ of data row @r, column @c. */
static double
sigma_at (const XrlabFitflow *f, gsize r, gsize c)
{
  switch (f->sigma_kind)
    {
    case XRLAB_FIT_SIGMA_SCALAR:
      return f->sigma[0];
    case XRLAB_FIT_SIGMA_ROWS:
      return f->sigma[r];
    case XRLAB_FIT_SIGMA_COLUMNS:
      return f->sigma[c];
    case XRLAB_FIT_SIGMA_FULL:
      return f->sigma[r * f->n_cols + c];
    case XRLAB_FIT_SIGMA_NONE:
    default:
      return 1.0;
    }
}

/* σ of the data rows [r0, r0 + n) within the window's energies. */
static gboolean
check_sigma_cells (const XrlabFitflow *f, gsize r0, gsize n, GError **error)
{
  if (f->sigma_kind == XRLAB_FIT_SIGMA_NONE)
    return TRUE;
  for (gsize k = 0; k < n; k++)
    {
      gsize r = r0 + k;
      for (gsize c = f->col0; c < f->col0 + f->ncw; c++)
        {
          double s = sigma_at (f, r, c);
          if (!(isfinite (s) && s > 0))
            {
              char b[XRLAB_DTOA_BUFSIZE];
              g_autofree char *cell = describe_cell (f, r, c);
              g_set_error (error, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_SIGMA,
                           _("σ = %s at %s is not a positive finite number"),
                           xrlab_format_double (s, b), cell);
              return FALSE;
            }
        }
    }
  return TRUE;
}

/* ---- seeding ------------------------------------------------------------------ */

void
xrlab_fitflow_set_seed (XrlabFitflow *flow, const XrlabFitflowResult *baseline)
{
  g_return_if_fail (flow != NULL);
  g_clear_pointer (&flow->seed, g_hash_table_unref);
  g_clear_pointer (&flow->seed_spectrum, g_free);
  if (baseline == NULL)
    return;
  flow->seed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  for (gsize i = 0; i < baseline->n_params; i++)
    g_hash_table_insert (flow->seed, g_strdup (baseline->params[i].name),
                         g_memdup2 (&baseline->params[i].value, sizeof (double)));
  if (baseline->data && baseline->n_cols > 0)
    {
      flow->seed_spectrum = g_memdup2 (baseline->data, baseline->n_cols * sizeof (double));
      flow->seed_col0 = baseline->col0;
      flow->seed_ncols = baseline->n_cols;
    }
}

/* A copy of @model with the seed applied (and pinned). With @names_from,
 * the namesakes are those of that model and no value changes (a check
 * before the baseline has run). */
static XrlabModel *
seeded_copy (const XrlabFitflow *f, const XrlabModel *model, gboolean seed,
             const XrlabModel *names_from, GError **error)
{
  g_autoptr(XrlabModel) m = xrlab_model_copy (model);

  if (!seed || (f->seed == NULL && names_from == NULL))
    return g_steal_pointer (&m);
  for (gsize i = 0; i < xrlab_model_n_params (m); i++)
    {
      XrlabParamInfo info;
      const double *v = NULL;
      g_autoptr(GError) err = NULL;

      xrlab_model_get_param (m, i, &info);
      if (info.expr != NULL || info.is_static)
        continue;
      if (names_from != NULL)
        {
          if (xrlab_model_find_param (names_from, info.name) < 0)
            continue;
        }
      else if ((v = g_hash_table_lookup (f->seed, info.name)) == NULL)
        continue;
      if (v != NULL && !xrlab_model_set_value (m, info.name, *v, &err))
        {
          g_set_error (error, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_MODEL,
                       _("Starting “%s” from the baseline result: %s"), info.name,
                       err->message);
          return NULL;
        }
      xrlab_model_get_param (m, i, &info);
      if (f->options.pin_to_baseline && info.role != XRLAB_PARAM_DYNAMICS
          && !info.has_dynamics && info.vary)
        {
          g_autofree char *name = g_strdup (info.name);
          if (!xrlab_model_set_vary (m, name, FALSE, error))
            return NULL;
        }
    }
  return g_steal_pointer (&m);
}

static gboolean
model_has_shirley (const XrlabModel *m)
{
  for (gsize i = 0; i < xrlab_model_n_components (m); i++)
    if (g_str_equal (xrlab_model_component_function (m, i), "Shirley"))
      return TRUE;
  return FALSE;
}

static gboolean
model_has_kernels (const XrlabModel *m)
{
  for (gsize i = 0; i < xrlab_model_n_params (m); i++)
    {
      XrlabParamInfo info;
      xrlab_model_get_param (m, i, &info);
      if (info.role == XRLAB_PARAM_DYNAMICS && info.function
          && g_str_has_suffix (info.function, "CONV"))
        return TRUE;
    }
  return FALSE;
}

/* ---- preparing a stage ---------------------------------------------------------- */

static gboolean
prepare (XrlabFitflow *f, XrlabFitflowStage stage, const XrlabModel *model, double b0,
         double b1, gsize row, const XrlabModel *names_from, Prep *pr, GError **error)
{
  const gboolean is2d = (stage == XRLAB_FITFLOW_STAGE_2D);
  XrlabPlanFlags flags = XRLAB_PLAN_DEFAULT;
  gsize n_points;
  g_autoptr(GError) err = NULL;

  memset (pr, 0, sizeof *pr);
  pr->stage = stage;

  if (f->time == NULL && stage != XRLAB_FITFLOW_STAGE_SPECTRUM)
    {
      g_set_error (error, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_MODEL,
                   _("A %s fit needs a delay axis; %s is a single spectrum"),
                   stage_label (stage), dname (f));
      return FALSE;
    }

  /* the data rows */
  switch (stage)
    {
    case XRLAB_FITFLOW_STAGE_BASELINE:
      {
        double lo, hi;
        char a[XRLAB_DTOA_BUFSIZE], b[XRLAB_DTOA_BUFSIZE];

        if (isnan (b0) || isnan (b1))
          {
            g_set_error (error, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_WINDOW,
                         _("The baseline needs a delay range"));
            return FALSE;
          }
        limits (b0, b1, &lo, &hi);
        axis_range (f->time, f->n_t, lo, hi, &pr->row0, &pr->rows);
        if (pr->rows == 0)
          {
            char c[XRLAB_DTOA_BUFSIZE], d[XRLAB_DTOA_BUFSIZE];
            g_set_error (error, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_WINDOW,
                         _("The baseline range %s … %s holds no delay of %s (%s … %s)"),
                         xrlab_format_double (lo, a), xrlab_format_double (hi, b), tname (f),
                         xrlab_format_double (f->time[0], c),
                         xrlab_format_double (f->time[f->n_t - 1], d));
            return FALSE;
          }
        if (!check_finite (f, pr->row0, pr->rows, _("in the baseline"), error)
            || !check_sigma_cells (f, pr->row0, pr->rows, error))
          return FALSE;
      }
      break;
    case XRLAB_FITFLOW_STAGE_SPECTRUM:
      if (row >= f->n_rows)
        {
          g_set_error (error, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_WINDOW,
                       _("%s has no row %zu (it has %zu)"),
                       dname (f), row + 1, f->n_rows);
          return FALSE;
        }
      pr->row0 = row;
      pr->rows = 1;
      if (!check_finite (f, row, 1, _("in the spectrum to fit"), error)
          || !check_sigma_cells (f, row, 1, error))
        return FALSE;
      break;
    case XRLAB_FITFLOW_STAGE_SBS:
    case XRLAB_FITFLOW_STAGE_2D:
    default:
      pr->row0 = f->row0;
      pr->rows = f->nrw;
      if (!check_sigma_cells (f, pr->row0, pr->rows, error))
        return FALSE;
      break;
    }

  /* the model, seeded */
  pr->model = seeded_copy (f, model, stage != XRLAB_FITFLOW_STAGE_BASELINE, names_from,
                           error);
  if (pr->model == NULL)
    return FALSE;
  if (!is2d && xrlab_model_has_dynamics (pr->model))
    flags |= XRLAB_PLAN_IGNORE_DYNAMICS;

  /* the domain of the plan */
  pr->dom_cols = model_has_shirley (pr->model) ? f->n_e - f->col0 : f->ncw;
  if (is2d)
    {
      if (model_has_kernels (pr->model))
        pr->dom_row0 = 0, pr->dom_rows = f->n_t;
      else
        pr->dom_row0 = f->row0, pr->dom_rows = f->nrw;
    }
  pr->plan = xrlab_plan_new_full (pr->model, f->energy + f->col0, pr->dom_cols,
                                  is2d ? f->time + pr->dom_row0 : NULL,
                                  is2d ? pr->dom_rows : 0, f->aux, f->n_a, flags, &err);
  if (pr->plan == NULL)
    {
      g_set_error (error, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_MODEL,
                   _("Model “%s” (%s fit): %s"), xrlab_model_get_name (pr->model),
                   stage_label (stage), err->message);
      return FALSE;
    }

  pr->n_theta = xrlab_plan_n_theta (pr->plan);
  if (pr->n_theta == 0)
    {
      g_set_error (error, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_MODEL,
                   _("Model “%s” has no free parameters in the %s fit"),
                   xrlab_model_get_name (pr->model), stage_label (stage));
      return FALSE;
    }
  n_points = (is2d ? pr->rows : 1) * f->ncw;
  if (n_points < pr->n_theta)
    {
      char a[XRLAB_DTOA_BUFSIZE], b[XRLAB_DTOA_BUFSIZE];
      g_autofree char *points = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%zu point",
                                                              "%zu points", n_points), n_points);
      g_autofree char *params = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                              "%zu free parameter",
                                                              "%zu free parameters",
                                                              pr->n_theta), pr->n_theta);

      /* TRANSLATORS: "The fit window holds 3 points (energies 80 … 82) but the
       * spectrum fit of “Au4f” has 7 free parameters: ..." */
      g_set_error (error, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_TOO_FEW_POINTS,
                   _("The fit window holds %s (energies %s … %s) "
                     "but the %s fit of “%s” has %s: widen "
                     "the window or fix parameters"),
                   points, xrlab_format_double (f->energy[f->col0], a),
                   xrlab_format_double (f->energy[f->col0 + f->ncw - 1], b),
                   stage_label (stage), xrlab_model_get_name (pr->model), params);
      return FALSE;
    }

  pr->theta0 = g_new (double, pr->n_theta);
  pr->lower = g_new (double, pr->n_theta);
  pr->upper = g_new (double, pr->n_theta);
  pr->names = g_new0 (char *, pr->n_theta + 1);
  xrlab_plan_theta_initial (pr->plan, pr->theta0);
  xrlab_plan_theta_bounds (pr->plan, pr->lower, pr->upper);
  for (gsize k = 0; k < pr->n_theta; k++)
    pr->names[k] = g_strdup (xrlab_plan_theta_name (pr->plan, k));
  return TRUE;
}

gboolean
xrlab_fitflow_check (XrlabFitflow *flow, XrlabFitflowStage stage, const XrlabModel *model,
                     double b0, double b1, gsize row, const XrlabModel *baseline_model,
                     GError **error)
{
  Prep pr;
  gboolean ok;

  g_return_val_if_fail (flow != NULL && model != NULL, FALSE);
  ok = prepare (flow, stage, model, b0, b1, row, baseline_model, &pr, error);
  prep_clear (&pr);
  return ok;
}

/* ---- evaluation contexts ---------------------------------------------------------- */

static void
ctx_free (XrlabFitflowCtx *c)
{
  if (c == NULL)
    return;
  g_clear_pointer (&c->fit, xrlab_fit_free);
  g_clear_pointer (&c->ws, xrlab_plan_workspace_free);
  g_clear_pointer (&c->plan, xrlab_plan_free);
  g_free (c->buf);
  g_free (c->jbuf);
  g_free (c->y);
  g_free (c->sig);
  g_free (c);
}

static gboolean
ctx_model (const double *theta, double *out, gpointer data, GError **error)
{
  XrlabFitflowCtx *c = data;

  if (c->direct)
    {
      xrlab_plan_eval_ws (c->plan, c->ws, theta, out);
      return TRUE;
    }
  xrlab_plan_eval_ws (c->plan, c->ws, theta, c->buf);
  for (gsize r = 0; r < c->rows; r++)
    memcpy (out + r * c->cols, c->buf + (r + c->row_off) * c->dom_cols,
            c->cols * sizeof (double));
  return TRUE;
}

static gboolean
ctx_jacobian (const double *theta, double *jac, gpointer data, GError **error)
{
  XrlabFitflowCtx *c = data;
  const gsize p = c->p;

  if (c->direct)
    {
      xrlab_plan_jacobian_ws (c->plan, c->ws, theta, jac);
      return TRUE;
    }
  xrlab_plan_jacobian_ws (c->plan, c->ws, theta, c->jbuf);
  for (gsize r = 0; r < c->rows; r++)
    memcpy (jac + r * c->cols * p, c->jbuf + (r + c->row_off) * c->dom_cols * p,
            c->cols * p * sizeof (double));
  return TRUE;
}

static void
ctx_progress (guint iter, double chi2, const double *theta, gsize p, gpointer data)
{
  XrlabFitflowCtx *c = data;

  if (c->progress)
    c->progress (c->stage, iter, 0, chi2, c->progress_data);
}

/* A context evaluating @plan (taken) for a fit of @rows × @cols points whose
 * first row is row @row_off of the plan's output. */
static XrlabFitflowCtx *
ctx_new (const XrlabFitflow *f, XrlabPlan *plan, guint n_threads, gsize row_off, gsize rows,
         gsize cols, XrlabFitflowStage stage)
{
  XrlabFitflowCtx *c = g_new0 (XrlabFitflowCtx, 1);

  c->plan = plan;
  c->stage = stage;
  c->ws = xrlab_plan_workspace_new (plan, n_threads);
  c->dom_rows = xrlab_plan_n_rows (plan);
  c->dom_cols = xrlab_plan_n_energy (plan);
  c->row_off = row_off;
  c->rows = rows;
  c->cols = cols;
  c->p = xrlab_plan_n_theta (plan);
  c->direct = (row_off == 0 && rows == c->dom_rows && cols == c->dom_cols);
  if (!c->direct)
    {
      c->buf = g_new (double, c->dom_rows * c->dom_cols);
      c->jbuf = g_new (double, c->dom_rows * c->dom_cols * c->p);
    }
  c->progress = f->options.progress;
  c->progress_data = f->options.progress_data;
  return c;
}

/* The optimizer for @c with data @y and σ (@sk, @sig); NULL on error. */
static XrlabFit *
ctx_fit_new (const XrlabFitflow *f, XrlabFitflowCtx *c, const Prep *pr, const double *y,
             XrlabFitSigmaKind sk, const double *sig, gboolean progress, GError **error)
{
  XrlabFitOptions o;
  XrlabFitProblem prob = {
    .n = c->rows * c->cols, .p = c->p, .n_rows = c->rows, .n_cols = c->cols,
    .model = ctx_model, .jacobian = ctx_jacobian, .user_data = c,
    .data = y, .names = (const char *const *) pr->names,
    .lower = pr->lower, .upper = pr->upper,
    .sigma_kind = sk, .sigma = sig,
  };

  xrlab_fit_options_init (&o);
  o.method = f->options.method;
  if (progress && f->options.progress)
    {
      o.progress = ctx_progress;
      o.progress_data = c;
    }
  return xrlab_fit_new (&prob, &o, error);
}

/* ---- results -------------------------------------------------------------------- */

void
xrlab_fitflow_result_free (XrlabFitflowResult *r)
{
  if (r == NULL)
    return;
  g_clear_pointer (&r->fit, xrlab_fit_result_free);
  g_strfreev (r->theta_names);
  for (gsize i = 0; i < r->n_params; i++)
    {
      g_free (r->params[i].name);
      g_free (r->params[i].expr);
    }
  g_free (r->params);
  g_clear_pointer (&r->model, xrlab_model_free);
  g_free (r->data);
  ctx_free (r->ctx);
  g_free (r);
}

gssize
xrlab_fitflow_result_find (const XrlabFitflowResult *r, const char *name)
{
  for (gsize i = 0; i < r->n_params; i++)
    if (g_str_equal (r->params[i].name, name))
      return (gssize) i;
  return -1;
}

/* Values and errors of every model parameter at θ with covariance @covar
 * (NULL or !@valid: errors of derived parameters NaN, as are those of the
 * parameters that do not depend on θ); @values, @errors have n_params
 * entries; @pv, @dv are scratch of n_plan_params and n_plan_params × p. */
static void
param_values_errors (const XrlabPlan *plan, const XrlabModel *model, const double *theta,
                     const double *theta_err, const double *covar, gboolean valid, double *pv,
                     double *dv, double *values, double *errors)
{
  const gsize p = xrlab_plan_n_theta (plan), np = xrlab_plan_n_params (plan);
  const gsize n = xrlab_model_n_params (model);

  xrlab_plan_param_gradients (plan, theta, pv, dv);
  for (gsize i = 0; i < n; i++)
    {
      XrlabParamInfo info;
      gssize k, pi = -1;

      xrlab_model_get_param (model, i, &info);
      for (gsize j = 0; j < np; j++)
        if (g_str_equal (xrlab_plan_param_name (plan, j), info.name))
          {
            pi = (gssize) j;
            break;
          }
      values[i] = pi >= 0 ? pv[pi] : info.value;
      errors[i] = NAN;
      k = xrlab_plan_find_theta (plan, info.name);
      if (k >= 0)
        errors[i] = theta_err[k];
      else if (pi >= 0 && xrlab_plan_param_depends_on_theta (plan, pi) && valid
               && covar != NULL)
        {
          const double *g = dv + pi * p;
          double var = 0.0;
          for (gsize a = 0; a < p; a++)
            for (gsize b = 0; b < p; b++)
              var += g[a] * covar[a * p + b] * g[b];
          errors[i] = sqrt (MAX (var, 0.0));
        }
    }
}

/* Builds the result of a finished (or cancelled) fit; on success it owns
 * @c and @fr. */
static XrlabFitflowResult *
result_new (const XrlabFitflow *f, Prep *pr, XrlabFitflowCtx *c, XrlabFitResult *fr,
            GError **error)
{
  g_autoptr(XrlabFitflowResult) r = g_new0 (XrlabFitflowResult, 1);
  const gsize n = xrlab_model_n_params (pr->model);
  const gsize np = xrlab_plan_n_params (c->plan), p = c->p;
  g_autofree double *pv = g_new (double, MAX (np, 1));
  g_autofree double *dv = g_new (double, MAX (np * p, 1));
  g_autofree double *values = g_new (double, n);
  g_autofree double *errors = g_new (double, n);

  r->stage = pr->stage;
  r->n_theta = p;
  r->theta_names = g_strdupv (pr->names);
  r->row0 = pr->row0;
  r->n_rows = pr->rows;
  r->col0 = f->col0;
  r->n_cols = f->ncw;
  r->data = g_memdup2 (c->y, (pr->stage == XRLAB_FITFLOW_STAGE_2D ? pr->rows : 1)
                              * f->ncw * sizeof (double));

  param_values_errors (c->plan, pr->model, fr->values, fr->errors, fr->covar,
                       fr->errors_valid, pv, dv, values, errors);
  r->model = xrlab_model_copy (pr->model);
  for (gsize k = 0; k < p; k++)
    if (!xrlab_model_set_value (r->model, pr->names[k], fr->values[k], error))
      return NULL;

  r->n_params = n;
  r->params = g_new0 (XrlabFitflowParam, n);
  for (gsize i = 0; i < n; i++)
    {
      XrlabParamInfo info;
      XrlabFitflowParam *q = &r->params[i];

      xrlab_model_get_param (pr->model, i, &info);
      q->name = g_strdup (info.name);
      q->value = values[i];
      q->std_error = errors[i];
      q->fitted = xrlab_plan_find_theta (c->plan, info.name) >= 0;
      q->vary = info.vary;
      q->is_static = info.is_static;
      q->min = info.min;
      q->max = info.max;
      q->expr = g_strdup (info.expr);
      q->role = info.role;
    }
  r->fit = fr;
  r->ctx = c;
  return g_steal_pointer (&r);
}

/* ---- 1D and 2D stages -------------------------------------------------------------- */

/* Runs a prepared baseline, spectrum or 2D stage. Takes the plan of @pr. */
static gboolean
run_stage (XrlabFitflow *f, Prep *pr, GCancellable *cancellable,
           XrlabFitflowResult **result, GError **error)
{
  const gboolean is2d = (pr->stage == XRLAB_FITFLOW_STAGE_2D);
  const gsize rows = is2d ? pr->rows : 1, cols = f->ncw;
  XrlabFitflowCtx *c;
  XrlabFitSigmaKind sk = f->sigma_kind;
  XrlabFitResult *fr = NULL;
  g_autoptr(GError) err = NULL;
  gboolean ok;

  c = ctx_new (f, g_steal_pointer (&pr->plan), is2d ? 0 : 1,
               is2d ? pr->row0 - pr->dom_row0 : 0, rows, cols, pr->stage);
  c->y = g_new (double, rows * cols);

  /* the data (the mean of the rows for the baseline) and σ */
  if (pr->stage == XRLAB_FITFLOW_STAGE_BASELINE)
    {
      const double K = (double) pr->rows;
      for (gsize e = 0; e < cols; e++)
        {
          double s = 0.0;
          for (gsize k = 0; k < pr->rows; k++)
            s += f->data[(pr->row0 + k) * f->n_cols + f->col0 + e];
          c->y[e] = s / K;
        }
      if (sk != XRLAB_FIT_SIGMA_NONE)
        {
          /* σ of the mean: √(Σ σ_k²)/K per energy */
          sk = (sk == XRLAB_FIT_SIGMA_SCALAR) ? XRLAB_FIT_SIGMA_SCALAR : XRLAB_FIT_SIGMA_FULL;
          c->sig = g_new (double, cols);
          for (gsize e = 0; e < (sk == XRLAB_FIT_SIGMA_SCALAR ? 1 : cols); e++)
            {
              double s2 = 0.0;
              for (gsize k = 0; k < pr->rows; k++)
                {
                  double s = sigma_at (f, pr->row0 + k, f->col0 + e);
                  s2 += s * s;
                }
              c->sig[e] = sqrt (s2) / K;
            }
        }
    }
  else
    {
      for (gsize r = 0; r < rows; r++)
        memcpy (c->y + r * cols, f->data + (pr->row0 + r) * f->n_cols + f->col0,
                cols * sizeof (double));
      switch (sk)
        {
        case XRLAB_FIT_SIGMA_SCALAR:
          c->sig = g_memdup2 (f->sigma, sizeof (double));
          break;
        case XRLAB_FIT_SIGMA_ROWS:
          c->sig = g_new (double, rows);
          for (gsize r = 0; r < rows; r++)
            c->sig[r] = f->sigma[pr->row0 + r];
          break;
        case XRLAB_FIT_SIGMA_COLUMNS:
          c->sig = g_memdup2 (f->sigma + f->col0, cols * sizeof (double));
          break;
        case XRLAB_FIT_SIGMA_FULL:
          c->sig = g_new (double, rows * cols);
          for (gsize r = 0; r < rows; r++)
            memcpy (c->sig + r * cols, f->sigma + (pr->row0 + r) * f->n_cols + f->col0,
                    cols * sizeof (double));
          break;
        case XRLAB_FIT_SIGMA_NONE:
        default:
          break;
        }
    }
  c->sigma_kind = sk;

  c->fit = ctx_fit_new (f, c, pr, c->y, sk, c->sig, TRUE, error);
  if (c->fit == NULL)
    {
      ctx_free (c);
      return FALSE;
    }
  ok = xrlab_fit_run (c->fit, pr->theta0, cancellable, &fr, &err);
  if (fr == NULL)
    {
      ctx_free (c);
      g_propagate_prefixed_error (error, g_steal_pointer (&err), _("%s fit: "),
                                  stage_label (pr->stage));
      return FALSE;
    }
  *result = result_new (f, pr, c, fr, error);
  if (*result == NULL)
    {
      ctx_free (c);
      xrlab_fit_result_free (fr);
      return FALSE;
    }
  if (!ok)
    {
      g_propagate_error (error, g_steal_pointer (&err));
      return FALSE;
    }
  return TRUE;
}

gboolean
xrlab_fitflow_fit_baseline (XrlabFitflow *flow, const XrlabModel *model, double b0, double b1,
                            GCancellable *cancellable, XrlabFitflowResult **result,
                            GError **error)
{
  Prep pr;
  gboolean ok;

  g_return_val_if_fail (flow != NULL && model != NULL && result != NULL, FALSE);
  *result = NULL;
  if (!prepare (flow, XRLAB_FITFLOW_STAGE_BASELINE, model, b0, b1, 0, NULL, &pr, error))
    {
      prep_clear (&pr);
      return FALSE;
    }
  ok = run_stage (flow, &pr, cancellable, result, error);
  prep_clear (&pr);
  if (ok)
    xrlab_fitflow_set_seed (flow, *result);
  return ok;
}

gboolean
xrlab_fitflow_fit_spectrum (XrlabFitflow *flow, const XrlabModel *model, gsize row,
                            GCancellable *cancellable, XrlabFitflowResult **result,
                            GError **error)
{
  Prep pr;
  gboolean ok;

  g_return_val_if_fail (flow != NULL && model != NULL && result != NULL, FALSE);
  *result = NULL;
  if (!prepare (flow, XRLAB_FITFLOW_STAGE_SPECTRUM, model, NAN, NAN, row, NULL, &pr, error))
    {
      prep_clear (&pr);
      return FALSE;
    }
  ok = run_stage (flow, &pr, cancellable, result, error);
  prep_clear (&pr);
  return ok;
}

gboolean
xrlab_fitflow_fit_2d (XrlabFitflow *flow, const XrlabModel *model, GCancellable *cancellable,
                      XrlabFitflowResult **result, GError **error)
{
  Prep pr;
  gboolean ok;

  g_return_val_if_fail (flow != NULL && model != NULL && result != NULL, FALSE);
  *result = NULL;
  if (!prepare (flow, XRLAB_FITFLOW_STAGE_2D, model, NAN, NAN, 0, NULL, &pr, error))
    {
      prep_clear (&pr);
      return FALSE;
    }
  ok = run_stage (flow, &pr, cancellable, result, error);
  prep_clear (&pr);
  return ok;
}

/* ---- slice by slice ------------------------------------------------------------------ */

void
xrlab_fitflow_sbs_free (XrlabFitflowSbs *s)
{
  if (s == NULL)
    return;
  g_free (s->row);
  g_free (s->delay);
  g_strfreev (s->names);
  g_free (s->fitted);
  g_free (s->values);
  g_free (s->errors);
  g_free (s->chi2);
  g_free (s->redchi);
  g_free (s->niter);
  g_free (s->stop);
  g_free (s->done);
  g_free (s->converged);
  g_free (s);
}

typedef struct {
  XrlabFitflow *f;
  Prep *pr;
  XrlabFitflowSbs *out;
  GCancellable *cancellable;
  gint next;                       /* atomic: the next slice to take */
  GMutex lock;
  guint n_done;
  gboolean failed;
  GError *error;                   /* the first error */
  gssize *x0_theta;                /* θ indices of the tracked positions, −1 terminated */
  double seed_max_e;               /* energy of the baseline maximum (NaN: no tracking) */
  gsize *column;                   /* model parameter of each output column */
} SbsJob;

static gboolean
sbs_should_stop (SbsJob *job)
{
  gboolean failed;

  g_mutex_lock (&job->lock);
  failed = job->failed;
  g_mutex_unlock (&job->lock);
  return failed || g_cancellable_is_cancelled (job->cancellable);
}

static void
sbs_fail (SbsJob *job, GError *err, double delay)
{
  char b[XRLAB_DTOA_BUFSIZE];

  g_mutex_lock (&job->lock);
  if (!job->failed)
    {
      job->failed = TRUE;
      g_propagate_prefixed_error (&job->error, err, _("slice-by-slice fit, delay %s: "),
                                  xrlab_format_double (delay, b));
    }
  else
    g_error_free (err);
  g_mutex_unlock (&job->lock);
}

/* One part of the slice-by-slice loop: fits slices until none is left, with
 * its own optimizer and plan workspace (made with the first slice). */
static void
sbs_worker (gpointer data, guint part)
{
  SbsJob *job = data;
  XrlabFitflow *f = job->f;
  Prep *pr = job->pr;
  XrlabFitflowSbs *out = job->out;
  const gsize p = pr->n_theta, cols = f->ncw, n = out->n_params;
  const gsize np = xrlab_plan_n_params (pr->plan), nm = xrlab_model_n_params (pr->model);
  XrlabFitflowCtx *c = NULL;
  g_autofree double *theta0 = g_new (double, p);
  g_autofree double *values = g_new (double, nm);
  g_autofree double *errors = g_new (double, nm);
  g_autofree double *pv = g_new (double, MAX (np, 1));
  g_autofree double *dv = g_new (double, MAX (np * p, 1));
  XrlabFitSigmaKind sk = f->sigma_kind;

  for (;;)
    {
      gint s = g_atomic_int_add (&job->next, 1);
      gsize row;
      const double *y, *sig = NULL;
      double sig1;
      g_autoptr(GError) err = NULL;
      XrlabFitResult *fr = NULL;
      gboolean ok;

      if (s >= (gint) out->n_slices || sbs_should_stop (job))
        break;
      if (c == NULL)
        c = ctx_new (f, pr->plan, 1, 0, 1, cols, XRLAB_FITFLOW_STAGE_SBS);
      row = out->row[s];
      y = f->data + row * f->n_cols + f->col0;
      switch (f->sigma_kind)
        {
        case XRLAB_FIT_SIGMA_SCALAR:
          sig = f->sigma;
          break;
        case XRLAB_FIT_SIGMA_ROWS:
          sig1 = f->sigma[row];
          sig = &sig1;
          sk = XRLAB_FIT_SIGMA_SCALAR;
          break;
        case XRLAB_FIT_SIGMA_COLUMNS:
          sig = f->sigma + f->col0;
          break;
        case XRLAB_FIT_SIGMA_FULL:
          sig = f->sigma + row * f->n_cols + f->col0;
          break;
        case XRLAB_FIT_SIGMA_NONE:
        default:
          break;
        }
      if (c->fit == NULL)
        c->fit = ctx_fit_new (f, c, pr, y, sk, sig, FALSE, &err);
      else if (!xrlab_fit_set_data (c->fit, y, sk, sig, &err))
        g_assert (err != NULL);
      if (err != NULL)
        {
          sbs_fail (job, g_steal_pointer (&err), out->delay[s]);
          break;
        }

      /* the start: the baseline result, positions moved with the maximum */
      memcpy (theta0, pr->theta0, p * sizeof (double));
      if (!isnan (job->seed_max_e))
        {
          gsize imax = 0;
          for (gsize e = 1; e < cols; e++)
            if (y[e] > y[imax])
              imax = e;
          for (gssize *k = job->x0_theta; *k >= 0; k++)
            {
              double v = theta0[*k] + (f->energy[f->col0 + imax] - job->seed_max_e);
              if (v > pr->lower[*k] && v < pr->upper[*k])
                theta0[*k] = v;
            }
        }

      ok = xrlab_fit_run (c->fit, theta0, job->cancellable, &fr, &err);
      if (fr == NULL)
        {
          sbs_fail (job, g_steal_pointer (&err), out->delay[s]);
          break;
        }
      param_values_errors (pr->plan, pr->model, fr->values, fr->errors,
                           fr->covar, fr->errors_valid, pv, dv, values, errors);
      for (gsize i = 0; i < n; i++)
        {
          out->values[s * n + i] = values[job->column[i]];
          out->errors[s * n + i] = errors[job->column[i]];
        }
      out->chi2[s] = fr->chi2;
      out->redchi[s] = fr->redchi;
      out->niter[s] = fr->niter;
      out->stop[s] = fr->stop;
      out->converged[s] = fr->converged;
      out->done[s] = ok;
      xrlab_fit_result_free (fr);

      g_mutex_lock (&job->lock);
      job->n_done++;
      if (f->options.progress && ok)
        f->options.progress (XRLAB_FITFLOW_STAGE_SBS, job->n_done, out->n_slices, NAN,
                             f->options.progress_data);
      g_mutex_unlock (&job->lock);
      if (!ok)
        break;   /* cancelled */
    }
  if (c != NULL)
    {
      c->plan = NULL;   /* shared: the job's */
      ctx_free (c);
    }
}

gboolean
xrlab_fitflow_fit_sbs (XrlabFitflow *flow, const XrlabModel *model, GCancellable *cancellable,
                       XrlabFitflowSbs **result, GError **error)
{
  Prep pr;
  SbsJob job = { 0 };
  g_autoptr(XrlabFitflowSbs) out = NULL;
  XrlabParallel *pool = xrlab_parallel_default ();
  guint n_parts;
  double t_start = xrlab_now ();
  gsize n;

  g_return_val_if_fail (flow != NULL && model != NULL && result != NULL, FALSE);
  *result = NULL;
  if (!prepare (flow, XRLAB_FITFLOW_STAGE_SBS, model, NAN, NAN, 0, NULL, &pr, error))
    {
      prep_clear (&pr);
      return FALSE;
    }

  out = g_new0 (XrlabFitflowSbs, 1);
  out->n_slices = pr.rows;
  out->n_points = flow->ncw;
  out->row = g_new (gsize, pr.rows);
  out->delay = g_new (double, pr.rows);
  for (gsize s = 0; s < pr.rows; s++)
    {
      out->row[s] = pr.row0 + s;
      out->delay[s] = flow->time[pr.row0 + s];
    }
  /* every parameter except those of time models, left out here */
  job.column = g_new (gsize, xrlab_model_n_params (pr.model));
  n = 0;
  for (gsize i = 0; i < xrlab_model_n_params (pr.model); i++)
    {
      XrlabParamInfo info;
      xrlab_model_get_param (pr.model, i, &info);
      if (info.role != XRLAB_PARAM_DYNAMICS)
        job.column[n++] = i;
    }
  out->n_params = n;
  out->names = g_new0 (char *, n + 1);
  out->fitted = g_new0 (gboolean, n);
  for (gsize i = 0; i < n; i++)
    {
      XrlabParamInfo info;
      xrlab_model_get_param (pr.model, job.column[i], &info);
      out->names[i] = g_strdup (info.name);
      out->fitted[i] = xrlab_plan_find_theta (pr.plan, info.name) >= 0;
    }
  out->values = g_new (double, pr.rows * n);
  out->errors = g_new (double, pr.rows * n);
  for (gsize i = 0; i < pr.rows * n; i++)
    out->values[i] = out->errors[i] = NAN;
  out->chi2 = g_new (double, pr.rows);
  out->redchi = g_new (double, pr.rows);
  for (gsize s = 0; s < pr.rows; s++)
    out->chi2[s] = out->redchi[s] = NAN;
  out->niter = g_new0 (guint, pr.rows);
  out->stop = g_new0 (XrlabFitStop, pr.rows);
  out->done = g_new0 (gboolean, pr.rows);
  out->converged = g_new0 (gboolean, pr.rows);

  job.f = flow;
  job.pr = &pr;
  job.out = out;
  job.cancellable = cancellable;
  g_mutex_init (&job.lock);
  job.seed_max_e = NAN;
  job.x0_theta = g_new (gssize, pr.n_theta + 1);
  {
    gsize m = 0;
    for (gsize k = 0; k < pr.n_theta; k++)
      {
        XrlabParamInfo info;
        xrlab_model_get_param (pr.model, xrlab_plan_theta_param (pr.plan, k), &info);
        if (info.role == XRLAB_PARAM_ENERGY && g_str_has_suffix (info.name, "_x0"))
          job.x0_theta[m++] = (gssize) k;
      }
    job.x0_theta[m] = -1;
  }
  if (flow->options.track_peaks && flow->seed_spectrum != NULL)
    {
      gsize imax = 0;
      for (gsize e = 1; e < flow->seed_ncols; e++)
        if (flow->seed_spectrum[e] > flow->seed_spectrum[imax])
          imax = e;
      job.seed_max_e = flow->energy[flow->seed_col0 + imax];
    }

  /* parts that take slices in turn, on the pool */
  n_parts = flow->options.n_threads ? flow->options.n_threads : xrlab_parallel_n_threads (pool);
  n_parts = (guint) CLAMP ((gsize) n_parts, 1, MAX (pr.rows, 1));
  xrlab_parallel_run (pool, n_parts, sbs_worker, &job);

  g_free (job.x0_theta);
  g_free (job.column);
  g_mutex_clear (&job.lock);
  prep_clear (&pr);
  out->wall_s = xrlab_now () - t_start;

  if (job.error)
    {
      g_propagate_error (error, job.error);
      return FALSE;
    }
  *result = g_steal_pointer (&out);
  if (g_cancellable_is_cancelled (cancellable))
    {
      gsize done = 0;
      for (gsize s = 0; s < (*result)->n_slices; s++)
        done += (*result)->done[s];
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                   g_dngettext (GETTEXT_PACKAGE,
                                "The slice-by-slice fit was cancelled after %zu of %zu slice",
                                "The slice-by-slice fit was cancelled after %zu of %zu slices",
                                (*result)->n_slices),
                   done, (*result)->n_slices);
      return FALSE;
    }
  return TRUE;
}

/* ---- confidence intervals and the fitted model ------------------------------------ */

XrlabFitCI *
xrlab_fitflow_conf_interval (XrlabFitflowResult *result, const char *const *names,
                             gsize n_names, const double *sigmas, gsize n_sigmas,
                             GCancellable *cancellable, GError **error)
{
  g_autofree gsize *idx = g_new (gsize, MAX (n_names, 1));

  g_return_val_if_fail (result != NULL && result->ctx != NULL, NULL);
  for (gsize a = 0; a < n_names; a++)
    {
      gssize k = -1;
      for (gsize j = 0; j < result->n_theta; j++)
        if (g_str_equal (result->theta_names[j], names[a]))
          k = (gssize) j;
      if (k < 0)
        {
          gssize i = xrlab_fitflow_result_find (result, names[a]);
          if (i < 0)
            g_set_error (error, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_PARAM,
                         _("Confidence interval of “%s”: the model has no such parameter"),
                         names[a]);
          else if (result->params[i].expr)
            g_set_error (error, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_PARAM,
                         _("Confidence interval of “%s”: it is not fitted but computed "
                           "from “%s”"), names[a], result->params[i].expr);
          else
            g_set_error (error, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_PARAM,
                         _("Confidence interval of “%s”: it is fixed in this fit"),
                         names[a]);
          return NULL;
        }
      idx[a] = (gsize) k;
    }
  return xrlab_fit_conf_interval (result->ctx->fit, result->fit, idx, n_names, sigmas,
                                  n_sigmas, cancellable, error);
}

double *
xrlab_fitflow_result_model (XrlabFitflow *flow, const XrlabFitflowResult *result,
                            gsize *n_rows, gsize *n_cols, GError **error)
{
  const gboolean is2d = (result->stage == XRLAB_FITFLOW_STAGE_2D);
  XrlabPlanFlags flags = XRLAB_PLAN_DEFAULT;
  g_autoptr(XrlabPlan) plan = NULL;
  g_autofree double *theta = NULL;
  double *out;

  g_return_val_if_fail (flow != NULL && result != NULL, NULL);
  if (!is2d && xrlab_model_has_dynamics (result->model))
    flags |= XRLAB_PLAN_IGNORE_DYNAMICS;
  plan = xrlab_plan_new_full (result->model, flow->energy, flow->n_e,
                              is2d ? flow->time : NULL, is2d ? flow->n_t : 0, flow->aux,
                              flow->n_a, flags, error);
  if (plan == NULL)
    return NULL;
  theta = g_new (double, MAX (xrlab_plan_n_theta (plan), 1));
  xrlab_plan_theta_initial (plan, theta);
  out = g_new (double, xrlab_plan_n_data (plan));
  xrlab_plan_eval (plan, theta, out);
  *n_rows = xrlab_plan_n_rows (plan);
  *n_cols = xrlab_plan_n_energy (plan);
  return out;
}
