/* xrlab-fitflow-data.c -- the data of a fit workflow: shapes and axes, the fit window,
 * σ, and the checks of the cells a stage uses
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-fitflow.h"
#include "xrlab-fitflow-private.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "xrlab-util.h"

const char *
xrlab_fitflow_data_name (const XrlabFitflow *f)
{
  return f->data_name ? f->data_name : _("the data");
}

static const char *
ename (const XrlabFitflow *f)
{
  return f->energy_name ? f->energy_name : _("the energy axis");
}

const char *
xrlab_fitflow_time_name (const XrlabFitflow *f)
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
                   _("%s holds no values"), xrlab_fitflow_data_name (f));
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
                   _("%s is empty"), xrlab_fitflow_time_name (f));
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
                     xrlab_fitflow_data_name (f), rows, xrlab_fitflow_time_name (f), delays);
      else if (d->time && d->n_rows == d->n_energy && d->n_cols == d->n_time)
        /* TRANSLATORS: "data.csv has 20 rows × 5 columns, the transpose of what
         * energy.csv (20 energies) and time.csv (5 delays) need: ..." */
        g_set_error (error, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_SHAPE,
                     _("%s has %s × %s, the transpose of what %s (%s) and %s (%s) "
                       "need: one row per delay, one column per energy"),
                     xrlab_fitflow_data_name (f), rows, cols, ename (f), energies,
                     xrlab_fitflow_time_name (f), delays);
      else
        /* TRANSLATORS: "data.csv has 19 columns but energy.csv has 20 energies (...)" */
        g_set_error (error, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_SHAPE,
                     _("%s has %s but %s has %s (one column per energy)"),
                     xrlab_fitflow_data_name (f), cols, ename (f), energies);
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
                   xrlab_fitflow_data_name (f), d->n_rows);
      return NULL;
    }
  {
    /* the rule of every plan (xrlab_plan_check_energy_axis), in this domain */
    g_autoptr(GError) local = NULL;
    if (!xrlab_plan_check_energy_axis (d->energy, d->n_energy, ename (f), &local))
      {
        g_set_error_literal (error, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_AXIS,
                             local->message);
        return NULL;
      }
  }
  if (d->time && !check_axis_values (d->time, d->n_time, xrlab_fitflow_time_name (f), FALSE, error))
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

/* ---- the fit window ---------------------------------------------------------- */

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
gboolean
xrlab_fitflow_check_finite (const XrlabFitflow *f, gsize r0, gsize n, const char *where,
                            GError **error)
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
                         _("%s: %s at %s, %s"), xrlab_fitflow_data_name (f),
                         isnan (row[c]) ? "NaN" : _("infinity"), cell, where);
            return FALSE;
          }
    }
  return TRUE;
}

/* The index range [*i0, *i0 + *n) of the monotonic @v within [lo, hi]. */
void
xrlab_fitflow_axis_range (const double *v, gsize nv, double lo, double hi, gsize *i0, gsize *n)
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
void
xrlab_fitflow_limits (double a, double b, double *lo, double *hi)
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

  xrlab_fitflow_limits (e0, e1, &elo, &ehi);
  xrlab_fitflow_limits (t0, t1, &tlo, &thi);

  xrlab_fitflow_axis_range (flow->energy, flow->n_e, elo, ehi, &c0, &nc);
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
      xrlab_fitflow_axis_range (flow->time, flow->n_t, tlo, thi, &r0, &nr);
      if (nr == 0)
        {
          g_set_error (error, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_WINDOW,
                       _("The fit window %s … %s holds no delay of %s (%s … %s)"),
                       xrlab_format_double (tlo, a), xrlab_format_double (thi, b),
                       xrlab_fitflow_time_name (flow), xrlab_format_double (flow->time[0], c),
                       xrlab_format_double (flow->time[flow->n_t - 1], d));
          return FALSE;
        }
    }
  else if (!isnan (t0) || !isnan (t1))
    {
      g_set_error (error, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_WINDOW,
                   _("Delay limits need a delay axis (%s is a single spectrum)"),
                   xrlab_fitflow_data_name (flow));
      return FALSE;
    }

  {
    gsize old[4] = { flow->row0, flow->nrw, flow->col0, flow->ncw };
    flow->row0 = r0, flow->nrw = nr, flow->col0 = c0, flow->ncw = nc;
    if (!xrlab_fitflow_check_finite (flow, r0, nr, _("inside the fit window"), error))
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

/* ---- σ ----------------------------------------------------------------------- */

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
                   sigma ? n_sigma : 0, xrlab_fitflow_data_name (flow), want, what);
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
double
xrlab_fitflow_sigma_at (const XrlabFitflow *f, gsize r, gsize c)
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
gboolean
xrlab_fitflow_check_sigma_cells (const XrlabFitflow *f, gsize r0, gsize n, GError **error)
{
  if (f->sigma_kind == XRLAB_FIT_SIGMA_NONE)
    return TRUE;
  for (gsize k = 0; k < n; k++)
    {
      gsize r = r0 + k;
      for (gsize c = f->col0; c < f->col0 + f->ncw; c++)
        {
          double s = xrlab_fitflow_sigma_at (f, r, c);
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
