/* xrlab-engine-fit-h5.c -- a fit's result set, and a model's values, as one
 * HDF5 file
 *
 * The layout (NeXus, readable by h5py):
 *   /entry                NXentry, @default = "data"
 *   /entry/data           NXdata: the signal "data" (delays × energies, or
 *                         one spectrum), "fit" and "residual" beside it
 *                         (@auxiliary_signals), "time" (ps), "energy" (eV)
 *   /entry/params         NXparameters: one attribute per parameter (its
 *                         value), and the table of params.csv as datasets
 *                         name, value, stderr, min, max, vary, expr
 *   /entry/metrics        NXcollection: the columns of metrics.csv as attributes
 *   /entry/correl         θ × θ, @names
 *   /entry/baseline/...   params and metrics of the baseline fit
 *   /entry/sbs            NXcollection: delay, each parameter and PAR_stderr,
 *                         chi2, redchi, niter, converged (1 or 0)
 *   /entry/ci             NXcollection: "intervals" (parameters × levels,
 *                         the columns of ci.csv), @names, @columns
 * A model's values (simulate, eval): /entry/data with the signal "data",
 * /entry/params with the model's parameter values as attributes, and on
 * /entry the model, its file and the noise.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-engine-fit-private.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "xrlab-h5.h"

typedef struct {
  XrlabH5Writer *w;
  GError **error;
} Out;

static gboolean
put_column (Out *o, const char *group, const char *name, const double *v, gsize n,
            const char *units)
{
  g_autofree char *path = g_build_path ("/", group, name, NULL);
  gsize dims[2] = { n, 1 };

  return xrlab_h5_writer_add_dataset (o->w, path, v, 1, dims, units, o->error);
}

static gboolean
put_strings (Out *o, const char *group, const char *name, const char *const *v, gsize n)
{
  g_autofree char *path = g_build_path ("/", group, name, NULL);

  return xrlab_h5_writer_add_strings_dataset (o->w, path, v, n, o->error);
}

/* The parameter table of @r under @group. */
static gboolean
put_params (Out *o, const char *group, const XrlabFitflowResult *r)
{
  const gsize n = r->n_params;
  g_autofree double *value = g_new (double, MAX (n, 1));
  g_autofree double *err = g_new (double, MAX (n, 1));
  g_autofree double *lo = g_new (double, MAX (n, 1));
  g_autofree double *hi = g_new (double, MAX (n, 1));
  g_autofree const char **names = g_new0 (const char *, n + 1);
  g_autofree const char **vary = g_new0 (const char *, n + 1);
  g_autofree const char **expr = g_new0 (const char *, n + 1);

  if (!xrlab_h5_writer_add_group (o->w, group, "NXparameters", o->error))
    return FALSE;
  for (gsize i = 0; i < n; i++)
    {
      const XrlabFitflowParam *q = &r->params[i];

      names[i] = q->name;
      value[i] = q->value;
      err[i] = q->std_error;
      lo[i] = q->expr ? NAN : q->min;
      hi[i] = q->expr ? NAN : q->max;
      vary[i] = q->expr ? "" : q->vary ? "True" : q->is_static ? "static" : "False";
      expr[i] = q->expr ? q->expr : "";
      if (!xrlab_h5_writer_set_double (o->w, group, q->name, q->value, o->error))
        return FALSE;
    }
  return put_strings (o, group, "name", names, n)
         && put_column (o, group, "value", value, n, NULL)
         && put_column (o, group, "stderr", err, n, NULL)
         && put_column (o, group, "min", lo, n, NULL)
         && put_column (o, group, "max", hi, n, NULL)
         && put_strings (o, group, "vary", vary, n)
         && put_strings (o, group, "expr", expr, n);
}

static gboolean
put_metrics (Out *o, const char *group, const XrlabFitflowResult *r)
{
  const XrlabFitResult *f = r->fit;
  const struct { const char *name; double v; } m[] = {
    { "chi2", f->chi2 }, { "redchi", f->redchi }, { "r2", f->r2 }, { "aic", f->aic },
    { "bic", f->bic }, { "ndata", (double) f->ndata }, { "nvarys", (double) f->p },
    { "niter", f->niter }, { "nfev", f->nfev }, { "njev", f->njev }, { "wall_s", f->wall_s },
  };

  if (!xrlab_h5_writer_add_group (o->w, group, "NXcollection", o->error))
    return FALSE;
  for (gsize i = 0; i < G_N_ELEMENTS (m); i++)
    if (!xrlab_h5_writer_set_double (o->w, group, m[i].name, m[i].v, o->error))
      return FALSE;
  return TRUE;
}

static gboolean
put_correl (Out *o, const XrlabFitflowResult *r)
{
  gsize dims[2] = { r->n_theta, r->n_theta };

  if (r->n_theta == 0)
    return TRUE;
  return xrlab_h5_writer_add_dataset (o->w, "/entry/correl", r->fit->correl, 2, dims, NULL,
                                      o->error)
         && xrlab_h5_writer_set_strings (o->w, "/entry/correl", "names",
                                         (const char *const *) r->theta_names, r->n_theta,
                                         o->error);
}

static gboolean
put_sbs (Out *o, const XrlabFitflowSbs *sb)
{
  const gsize ns = sb->n_slices, n = sb->n_params;
  g_autofree double *col = g_new (double, MAX (ns, 1));
  const char *g = "/entry/sbs";

  if (!xrlab_h5_writer_add_group (o->w, g, "NXcollection", o->error)
      || !put_column (o, g, "delay", sb->delay, ns, "ps"))
    return FALSE;
  for (gsize i = 0; i < n; i++)
    {
      g_autofree char *err_name = g_strconcat (sb->names[i], "_stderr", NULL);

      for (gsize k = 0; k < ns; k++)
        col[k] = sb->values[k * n + i];
      if (!put_column (o, g, sb->names[i], col, ns, NULL))
        return FALSE;
      for (gsize k = 0; k < ns; k++)
        col[k] = sb->errors[k * n + i];
      if (!put_column (o, g, err_name, col, ns, NULL))
        return FALSE;
    }
  if (!put_column (o, g, "chi2", sb->chi2, ns, NULL)
      || !put_column (o, g, "redchi", sb->redchi, ns, NULL))
    return FALSE;
  for (gsize k = 0; k < ns; k++)
    col[k] = sb->niter[k];
  if (!put_column (o, g, "niter", col, ns, NULL))
    return FALSE;
  for (gsize k = 0; k < ns; k++)
    col[k] = sb->done[k] && sb->converged[k];
  return put_column (o, g, "converged", col, ns, NULL);
}

static gboolean
put_ci (Out *o, const XrlabFitCI *ci, char **names)
{
  const gsize ns = ci->n_sigmas, nc = 2 * ns + 1;
  g_autofree double *m = g_new (double, MAX (ci->n_params * nc, 1));
  g_autoptr(GPtrArray) cols = g_ptr_array_new_with_free_func (g_free);
  gsize dims[2] = { ci->n_params, nc };

  for (gsize k = ns; k-- > 0;)
    g_ptr_array_add (cols, g_strdup_printf ("-%gsigma", ci->sigmas[k]));
  g_ptr_array_add (cols, g_strdup ("best"));
  for (gsize k = 0; k < ns; k++)
    g_ptr_array_add (cols, g_strdup_printf ("+%gsigma", ci->sigmas[k]));
  for (gsize a = 0; a < ci->n_params; a++)
    {
      double *row = m + a * nc;

      for (gsize k = 0; k < ns; k++)
        {
          row[ns - 1 - k] = ci->lower[a * ns + k];
          row[ns + 1 + k] = ci->upper[a * ns + k];
        }
      row[ns] = ci->best[a];
    }
  return xrlab_h5_writer_add_group (o->w, "/entry/ci", "NXcollection", o->error)
         && (ci->n_params == 0
             || xrlab_h5_writer_add_dataset (o->w, "/entry/ci/intervals", m, 2, dims, NULL,
                                             o->error))
         && xrlab_h5_writer_set_strings (o->w, "/entry/ci", "names",
                                         (const char *const *) names, ci->n_params, o->error)
         && xrlab_h5_writer_set_strings (o->w, "/entry/ci", "columns",
                                         (const char *const *) cols->pdata, cols->len,
                                         o->error);
}

static gboolean
put_signals (Out *o, const FitDataset *ds, const double *model_map, const double *resid)
{
  const char *aux[] = { "fit", "residual" };
  const gboolean two_d = ds->time != NULL;
  gsize dims[2] = { two_d ? ds->n_rows : ds->n_cols, two_d ? ds->n_cols : 1 };

  return xrlab_h5_writer_add_nxdata (o->w, "/entry/data", "data", ds->data, ds->n_rows,
                                     ds->n_cols, NULL, ds->energy, ds->time, o->error)
         && xrlab_h5_writer_add_dataset (o->w, "/entry/data/fit", model_map, two_d ? 2 : 1,
                                         dims, NULL, o->error)
         && xrlab_h5_writer_add_dataset (o->w, "/entry/data/residual", resid, two_d ? 2 : 1,
                                         dims, NULL, o->error)
         && xrlab_h5_writer_set_strings (o->w, "/entry/data", "auxiliary_signals", aux, 2,
                                         o->error);
}

gboolean
xrlab_fit_write_results_h5 (const char *path, FitStage *const *st, const double *model_map,
                            const double *resid, GCancellable *cancellable, GError **error)
{
  const FitStage *main = st[FIT_SLOT_MAIN];
  const XrlabFitflowResult *base = st[FIT_SLOT_BASELINE] ? st[FIT_SLOT_BASELINE]->result : NULL;
  Out o = { .error = error };
  gboolean ok;

  if ((o.w = xrlab_h5_writer_new (path, error)) == NULL)
    return FALSE;
  ok = put_signals (&o, main->ds, model_map, resid)
       && xrlab_h5_writer_set_string (o.w, "/entry", "program", "xrlab", error)
       && put_params (&o, "/entry/params", main->result)
       && put_metrics (&o, "/entry/metrics", main->result)
       && put_correl (&o, main->result)
       && (base == NULL
           || (xrlab_h5_writer_add_group (o.w, "/entry/baseline", "NXcollection", error)
               && put_params (&o, "/entry/baseline/params", base)
               && put_metrics (&o, "/entry/baseline/metrics", base)))
       && (st[FIT_SLOT_SBS] == NULL || put_sbs (&o, st[FIT_SLOT_SBS]->sbs))
       && (st[FIT_SLOT_CI] == NULL
           || put_ci (&o, st[FIT_SLOT_CI]->ci, st[FIT_SLOT_CI]->ci_names))
       && !g_cancellable_set_error_if_cancelled (cancellable, error);
  if (!ok)
    {
      xrlab_h5_writer_abort (o.w);
      return FALSE;
    }
  return xrlab_h5_writer_commit (o.w, error);
}

static const char *
noise_name (XrlabNoiseKind kind)
{
  switch (kind)
    {
    case XRLAB_NOISE_GAUSSIAN:
      return "gaussian";
    case XRLAB_NOISE_POISSON:
      return "poisson";
    case XRLAB_NOISE_COUNTING:
      return "counting";
    case XRLAB_NOISE_NONE:
    default:
      return "none";
    }
}

gboolean
xrlab_fit_write_model_h5 (const char *path, const XrlabModel *m, const double *y,
                          const double *energy, gsize n_e, const double *time, gsize n_t,
                          XrlabNoiseKind noise, double level, guint64 seed, double scale,
                          GError **error)
{
  Out o = { .error = error };
  gboolean ok;

  if ((o.w = xrlab_h5_writer_new (path, error)) == NULL)
    return FALSE;
  ok = xrlab_h5_writer_add_nxdata (o.w, "/entry/data", "data", y, time ? n_t : 1, n_e, NULL,
                                   energy, time, error)
       && xrlab_h5_writer_set_string (o.w, "/entry", "program", "xrlab", error)
       && xrlab_h5_writer_set_string (o.w, "/entry", "model", xrlab_model_get_name (m), error)
       && (xrlab_model_get_file (m) == NULL
           || xrlab_h5_writer_set_string (o.w, "/entry", "models",
                                          xrlab_model_get_file (m), error))
       && xrlab_h5_writer_set_string (o.w, "/entry", "noise", noise_name (noise), error)
       && (noise == XRLAB_NOISE_NONE
           || (xrlab_h5_writer_set_double (o.w, "/entry", "noise_level", level, error)
               && xrlab_h5_writer_set_double (o.w, "/entry", "seed", (double) seed, error)
               && (isnan (scale)
                   || xrlab_h5_writer_set_double (o.w, "/entry",
                                                  noise == XRLAB_NOISE_GAUSSIAN
                                                  ? "noise_sigma" : "noise_counts_per_unit",
                                                  scale, error))))
       && xrlab_h5_writer_add_group (o.w, "/entry/params", "NXparameters", error);
  for (gsize i = 0; ok && i < xrlab_model_n_params (m); i++)
    {
      XrlabParamInfo info;

      xrlab_model_get_param (m, i, &info);
      ok = xrlab_h5_writer_set_double (o.w, "/entry/params", info.name, info.value, error);
    }
  if (!ok)
    {
      xrlab_h5_writer_abort (o.w);
      return FALSE;
    }
  return xrlab_h5_writer_commit (o.w, error);
}
