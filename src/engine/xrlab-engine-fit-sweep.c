/* xrlab-engine-fit-sweep.c -- noisy realisations and parameter sweeps of a
 * model (trspecfit's simulate_n and simulate_parameter_sweep), written by
 * the engine as a job: into a folder of CSV files, or into one HDF5 file
 * where the parts that draw the realisations on the pool write their
 * values as they are drawn, past the page cache where the file system
 * allows (so the disk works while the processors draw)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-engine-fit-private.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "xrlab-h5.h"
#include "xrlab-parallel.h"
#include "xrlab-util.h"

typedef struct {
  char *param;
  XrlabFitSweepKind kind;
  double *values;
  gsize n_values;
  double a, b;
  gsize n_samples;
} SweepParam;

typedef struct {
  FitConfig *model;                 /* models, model, dynamics, profiles, values */
  char *energy, *time, *aux, *output;
  XrlabNoiseKind noise;
  double level;
  guint64 seed, sweep_seed;
  guint64 max_values;
  guint n_real;
  SweepParam *sweep;
  gsize n_sweep;
  XrlabSweepStrategy strategy;
  /* made by run */
  gsize n_configs;
  double scale;
  GError *error;
  double compute_s;
} SetPayload;

static void
set_payload_free (gpointer data)
{
  SetPayload *p = data;

  xrlab_fit_config_free (p->model);
  g_free (p->energy);
  g_free (p->time);
  g_free (p->aux);
  g_free (p->output);
  for (gsize j = 0; j < p->n_sweep; j++)
    {
      g_free (p->sweep[j].param);
      g_free (p->sweep[j].values);
    }
  g_free (p->sweep);
  g_clear_error (&p->error);
  g_free (p);
}

/* The sweep of @p (NULL without one). */
static XrlabSweep *
set_sweep (SetPayload *p, GError **error)
{
  g_autoptr(XrlabSweep) sw = xrlab_sweep_new (p->strategy, p->sweep_seed);

  for (gsize j = 0; j < p->n_sweep; j++)
    {
      const SweepParam *q = &p->sweep[j];
      gboolean ok = FALSE;

      switch (q->kind)
        {
        case XRLAB_FIT_SWEEP_VALUES:
          ok = xrlab_sweep_add_values (sw, q->param, q->values, q->n_values, error);
          break;
        case XRLAB_FIT_SWEEP_UNIFORM:
          ok = xrlab_sweep_add_uniform (sw, q->param, q->a, q->b, q->n_samples, error);
          break;
        case XRLAB_FIT_SWEEP_NORMAL:
          ok = xrlab_sweep_add_normal (sw, q->param, q->a, q->b, q->n_samples, error);
          break;
        case XRLAB_FIT_SWEEP_LOGNORMAL:
        default:
          ok = xrlab_sweep_add_lognormal (sw, q->param, q->a, q->b, q->n_samples, error);
          break;
        }
      if (!ok)
        return NULL;
    }
  return g_steal_pointer (&sw);
}

/* ---- the outputs ------------------------------------------------------------------ */

/* An HDF5 file rather than a folder: FILE.h5, .hdf5 or .nxs. */
static gboolean
is_h5_name (const char *path)
{
  g_autofree char *lower = g_ascii_strdown (path, -1);

  return g_str_has_suffix (lower, ".h5") || g_str_has_suffix (lower, ".hdf5")
         || g_str_has_suffix (lower, ".nxs");
}

typedef struct {
  gboolean h5;
  XrlabH5Writer *w;
  GString *configs;                 /* configs.csv of a folder */
  gsize rows, cols;
} Out;

static gboolean
out_begin (SetPayload *p, Out *o, XrlabSweep *sw, const double *energy, gsize n_e,
           const double *time, gsize n_t, const double *aux, gsize n_a, GError **error)
{
  o->h5 = is_h5_name (p->output);
  o->rows = time ? n_t : 1;
  o->cols = n_e;
  if (!o->h5)
    {
      if (g_mkdir_with_parents (p->output, 0777) != 0)
        {
          int e = errno;
          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (e),
                       _("Cannot create the folder %s: %s"), p->output, g_strerror (e));
          return FALSE;
        }
      o->configs = g_string_new ("config");
      for (gsize j = 0; sw && j < xrlab_sweep_n_params (sw); j++)
        g_string_append_printf (o->configs, ",%s", xrlab_sweep_param_name (sw, j));
      g_string_append_c (o->configs, '\n');
      return TRUE;
    }
  {
    const gsize de[2] = { n_e, 1 }, dt[2] = { n_t, 1 }, da[2] = { n_a, 1 };

    if ((o->w = xrlab_h5_writer_new (p->output, error)) == NULL
        || !xrlab_h5_writer_add_group (o->w, "/metadata", NULL, error)
        || !xrlab_h5_writer_set_double (o->w, "/metadata", "n_configs", (double) p->n_configs,
                                        error)
        || !xrlab_h5_writer_set_double (o->w, "/metadata", "n_realizations_per_config",
                                        (double) MAX (p->n_real, 1), error)
        || !xrlab_h5_writer_set_double (o->w, "/metadata", "level", p->level, error)
        || !xrlab_h5_writer_set_double (o->w, "/metadata", "seed", (double) p->seed, error)
        || !xrlab_h5_writer_add_dataset (o->w, "/axes/energy", energy, 1, de, NULL, error)
        || (time && !xrlab_h5_writer_add_dataset (o->w, "/axes/time", time, 1, dt, NULL, error))
        || (aux && !xrlab_h5_writer_add_dataset (o->w, "/axes/aux", aux, 1, da, NULL, error))
        || !xrlab_h5_writer_add_group (o->w, "/parameter_configs", NULL, error)
        || !xrlab_h5_writer_add_group (o->w, "/simulated_data", NULL, error)
        || !xrlab_h5_writer_add_group (o->w, "/clean_data", NULL, error))
      return FALSE;
  }
  return TRUE;
}

/* The HDF5 datasets of configuration @c, reserved: res[0] its model,
 * res[1 + r] realisation r; its swept values @v as attributes. */
static gboolean
out_reserve_h5 (Out *o, XrlabSweep *sw, gsize c, const double *v, guint n_real,
                XrlabH5Reserved *res, GError **error)
{
  /* a delay axis: delays × energies; one spectrum: a vector */
  const int rank = o->rows > 1 ? 2 : 1;
  const gsize dims[2] = { rank == 2 ? o->rows : o->cols, rank == 2 ? o->cols : 1 };
  const gsize n_par = sw ? xrlab_sweep_n_params (sw) : 0;
  g_autofree char *pc = g_strdup_printf ("/parameter_configs/config_%06zu", c);
  g_autofree char *cd = g_strdup_printf ("/clean_data/config_%06zu", c);

  if (!xrlab_h5_writer_add_group (o->w, pc, NULL, error)
      || !xrlab_h5_writer_reserve_dataset (o->w, cd, rank, dims, NULL, &res[0], error))
    return FALSE;
  for (gsize j = 0; j < n_par; j++)
    if (!xrlab_h5_writer_set_double (o->w, pc, xrlab_sweep_param_name (sw, j), v[j], error))
      return FALSE;
  for (guint r = 0; r < n_real; r++)
    {
      g_autofree char *path = g_strdup_printf ("/simulated_data/config_%06zu/realization_%04u",
                                               c, r);

      if (!xrlab_h5_writer_reserve_dataset (o->w, path, rank, dims, NULL, &res[1 + r], error))
        return FALSE;
    }
  return TRUE;
}

/* Configuration @c in a folder: its swept values @v in configs.csv, the
 * model @clean and @n_real realisations @noisy as CSV files. */
static gboolean
out_config_csv (SetPayload *p, Out *o, XrlabSweep *sw, gsize c, const double *v,
                const double *clean, const double *noisy, guint n_real, GError **error)
{
  const gsize n = o->rows * o->cols;
  const gsize n_par = sw ? xrlab_sweep_n_params (sw) : 0;
  g_autofree char *name = g_strdup_printf ("config_%06zu", c);
  g_autofree char *dir = g_build_filename (p->output, name, NULL);
  g_autofree char *cpath = g_build_filename (dir, "clean.csv", NULL);
  char b[XRLAB_DTOA_BUFSIZE];

  g_string_append_printf (o->configs, "%zu", c);
  for (gsize j = 0; j < n_par; j++)
    g_string_append_printf (o->configs, ",%s", xrlab_format_double (v[j], b));
  g_string_append_c (o->configs, '\n');
  if (g_mkdir_with_parents (dir, 0777) != 0)
    {
      int e = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (e),
                   _("Cannot create the folder %s: %s"), dir, g_strerror (e));
      return FALSE;
    }
  if (!xrlab_write_csv_matrix (cpath, clean, o->rows, o->cols, error))
    return FALSE;
  for (guint r = 0; r < n_real; r++)
    {
      g_autofree char *f = g_strdup_printf ("noisy_%04u.csv", r);
      g_autofree char *path = g_build_filename (dir, f, NULL);

      if (!xrlab_write_csv_matrix (path, noisy + r * n, o->rows, o->cols, error))
        return FALSE;
    }
  return TRUE;
}

/* ---- one configuration into the HDF5 file ------------------------------------------
 * The realisations are drawn in parts on the pool (xrlab_simulate_draws_part),
 * and each part writes what it drew at once, past the page cache where the
 * file system allows (xrlab_h5_writer_write_reserved): a part waiting for
 * the disk leaves the processors to the parts still drawing. Parts that
 * write the model itself are spread among them. */

typedef struct {
  XrlabH5Writer *w;
  XrlabSimulateDraws d;
  const double *clean;
  double **noisy;
  const XrlabH5Reserved *res;
  guint n_draw, n_clean;
  GMutex lock;
  GError *error;
  int failed;
} H5Job;

static void
h5_part (gpointer data, guint part)
{
  H5Job *j = data;
  const guint64 total = (guint64) j->n_draw + j->n_clean;
  /* the model's pieces before @part: part is one when the count grows */
  const guint c0 = (guint) ((guint64) part * j->n_clean / total);
  const guint c1 = (guint) ((guint64) (part + 1) * j->n_clean / total);
  const gsize z = sizeof (double);
  GError *error = NULL;
  gboolean ok = TRUE;

  if (g_atomic_int_get (&j->failed))
    return;
  if (c1 > c0)
    {
      const gsize a = (gsize) c0 * XRLAB_SIMULATE_BLOCK;
      const gsize b = MIN (a + XRLAB_SIMULATE_BLOCK, j->d.n);

      ok = xrlab_h5_writer_write_reserved (j->w, &j->res[0], a * z, j->clean + a, (b - a) * z,
                                           &error);
    }
  else
    {
      gsize i0, i1;
      guint r0, r1;

      xrlab_simulate_draws_part (&j->d, part - c0, &i0, &i1, &r0, &r1);
      for (guint r = r0; ok && r < r1; r++)
        ok = xrlab_h5_writer_write_reserved (j->w, &j->res[1 + r], i0 * z, j->noisy[r] + i0,
                                             (i1 - i0) * z, &error);
    }
  if (!ok)
    {
      g_mutex_lock (&j->lock);
      if (j->error == NULL)
        j->error = g_steal_pointer (&error);
      g_mutex_unlock (&j->lock);
      g_clear_error (&error);
      g_atomic_int_set (&j->failed, 1);
    }
}

/* Buffers of one configuration, aligned for direct I/O. */
typedef struct {
  gsize n;
  guint n_real;
  double *clean;
  double **noisy;
  XrlabH5Reserved *res;
} H5Buffers;

static void
h5_buffers_init (H5Buffers *b, gsize n, guint n_real)
{
  b->n = n;
  b->n_real = n_real;
  b->clean = g_aligned_alloc (MAX (n, 1), sizeof (double), XRLAB_H5_DIRECT_ALIGN);
  b->noisy = g_new0 (double *, n_real);
  for (guint r = 0; r < n_real; r++)
    b->noisy[r] = g_aligned_alloc (MAX (n, 1), sizeof (double), XRLAB_H5_DIRECT_ALIGN);
  b->res = g_new0 (XrlabH5Reserved, n_real + 1);
}

static void
h5_buffers_clear (H5Buffers *b)
{
  g_aligned_free (b->clean);
  for (guint r = 0; r < b->n_real; r++)
    g_aligned_free (b->noisy[r]);
  g_free (b->noisy);
  g_free (b->res);
}

/* Configuration @c of the model @mc (its values set) into the file. */
static gboolean
h5_config (SetPayload *p, Out *o, XrlabSweep *sw, gsize c, const XrlabModel *mc,
           const double *energy, gsize n_e, const double *time, gsize n_t, const double *aux,
           gsize n_a, H5Buffers *b, double *scale, GError **error)
{
  const double *v = sw ? xrlab_sweep_configs (sw) + c * xrlab_sweep_n_params (sw) : NULL;
  H5Job j = { 0 };

  if (!xrlab_simulate_model_into (mc, energy, n_e, time, n_t, aux, n_a, b->clean, b->n, error)
      || !xrlab_simulate_draws_init (&j.d, b->clean, o->rows, o->cols, p->noise, p->level,
                                     p->seed + c * b->n_real, b->n_real, b->noisy, error)
      || !out_reserve_h5 (o, sw, c, v, b->n_real, b->res, error))
    return FALSE;
  j.w = o->w;
  j.clean = b->clean;
  j.noisy = b->noisy;
  j.res = b->res;
  j.n_draw = xrlab_simulate_draws_n_parts (&j.d);
  j.n_clean = (guint) ((b->n + XRLAB_SIMULATE_BLOCK - 1) / XRLAB_SIMULATE_BLOCK);
  g_mutex_init (&j.lock);
  xrlab_parallel_run (xrlab_parallel_default (), j.n_draw + j.n_clean, h5_part, &j);
  g_mutex_clear (&j.lock);
  *scale = j.d.scale;
  if (j.error != NULL)
    {
      g_propagate_error (error, j.error);
      return FALSE;
    }
  return TRUE;
}

static gboolean
out_end (SetPayload *p, Out *o, gboolean ok, GError **error)
{
  if (o->h5)
    {
      if (ok)
        return xrlab_h5_writer_commit (g_steal_pointer (&o->w), error);
      xrlab_h5_writer_abort (g_steal_pointer (&o->w));
      return FALSE;
    }
  if (ok)
    {
      g_autofree char *path = g_build_filename (p->output, "configs.csv", NULL);

      ok = xrlab_write_file_atomic (path, o->configs->str, (gssize) o->configs->len, error);
    }
  g_string_free (g_steal_pointer (&o->configs), TRUE);
  return ok;
}

/* ---- the job ------------------------------------------------------------------------- */

/* On the lane: the model, the axes, then per configuration the model with
 * its values and its realisations, written as they come. */
static void
set_run (XrlabRequest *req, GCancellable *cancellable)
{
  SetPayload *p = req->payload;
  const XrlabFitSetupSpec *s = xrlab_fit_config_spec (p->model);
  g_autoptr(XrlabModel) m = NULL;
  g_autoptr(XrlabSweep) sw = NULL;
  g_autofree double *energy = NULL, *time = NULL, *aux = NULL;
  gsize n_e = 0, n_t = 0, n_a = 0;
  const guint n_real = MAX (p->n_real, 1);
  double t0 = xrlab_now ();
  gboolean ok = TRUE;
  Out o = { 0 };
  H5Buffers b = { 0 };

  m = xrlab_fit_build_model (s->models, s->model, s->dynamics, s->n_dynamics, s->profiles,
                             s->n_profiles, s->values, s->n_values, FALSE, &p->error);
  if (m == NULL
      || (energy = xrlab_read_column_file (p->energy, &n_e, &p->error)) == NULL
      || (p->time && (time = xrlab_read_column_file (p->time, &n_t, &p->error)) == NULL)
      || (p->aux && (aux = xrlab_read_column_file (p->aux, &n_a, &p->error)) == NULL)
      || !xrlab_fit_model_size_check (m, n_e, n_t, n_a, FALSE, p->max_values, &p->error)
      || (p->n_sweep > 0 && (sw = set_sweep (p, &p->error)) == NULL))
    return;
  p->n_configs = sw ? xrlab_sweep_n_configs (sw) : 1;
  if (!out_begin (p, &o, sw, energy, n_e, time, n_t, aux, n_a, &p->error))
    {
      if (o.w)
        xrlab_h5_writer_abort (o.w);
      return;
    }
  if (o.h5)
    h5_buffers_init (&b, o.rows * o.cols, n_real);
  for (gsize c = 0; ok && c < p->n_configs; c++)
    {
      g_autoptr(XrlabModel) mc = xrlab_model_copy (m);
      g_autofree double *clean = NULL, *noisy = NULL;
      const double *v = sw ? xrlab_sweep_configs (sw) + c * xrlab_sweep_n_params (sw) : NULL;
      double scale = NAN;

      ok = !g_cancellable_set_error_if_cancelled (cancellable, &p->error)
           && (sw == NULL || xrlab_sweep_apply (sw, c, mc, &p->error));
      if (ok && o.h5)
        ok = h5_config (p, &o, sw, c, mc, energy, n_e, time, n_t, aux, n_a, &b, &scale,
                        &p->error);
      else if (ok)
        ok = (noisy = xrlab_simulate_n (mc, energy, n_e, time, n_t, aux, n_a, p->noise,
                                        p->level, p->seed + c * n_real, n_real, &clean, NULL,
                                        &scale, &p->error)) != NULL
             && out_config_csv (p, &o, sw, c, v, clean, noisy, n_real, &p->error);
      if (ok && c == 0)
        p->scale = scale;
    }
  if (o.h5)
    h5_buffers_clear (&b);
  out_end (p, &o, ok, ok ? &p->error : NULL);
  p->compute_s = xrlab_now () - t0;
}

static void
set_finish (XrlabEngineWorker *worker, gpointer state, XrlabRequest *req)
{
  SetPayload *p = req->payload;
  XrlabEngineStats delta = { .n_requests = 1, .compute_s = p->compute_s };

  xrlab_engine_shared_account (req->shared, req->consumer, &delta);
  if (p->error != NULL)
    xrlab_request_return_error (req, g_steal_pointer (&p->error));
  else
    {
      double *r = g_new (double, 2);

      r[0] = (double) p->n_configs;
      r[1] = p->scale;
      xrlab_request_return_pointer (req, r, g_free);
    }
}

static const XrlabRequestKind set_kind = {
  .name = "fit-simulate-set",
  .service = &xrlab_engine_fit_service,
  .role = XRLAB_REQUEST_JOB,
  .payload_free = set_payload_free,
  .run = set_run,
  .finish = set_finish,
};

void
xrlab_engine_fit_simulate_set_async (XrlabEngine                   *self,
                                     const XrlabFitSimulateSetSpec *spec,
                                     GCancellable                  *cancellable,
                                     GAsyncReadyCallback            callback,
                                     gpointer                       user_data)
{
  const XrlabFitSimulateSpec *b;
  SetPayload *p;
  XrlabFitSetupSpec ms;

  g_return_if_fail (XRLAB_IS_ENGINE (self));
  g_return_if_fail (spec != NULL);
  b = &spec->base;
  xrlab_fit_setup_spec_init (&ms);
  ms.models = b->models;
  ms.model = b->model;
  ms.dynamics = b->dynamics, ms.n_dynamics = b->n_dynamics;
  ms.profiles = b->profiles, ms.n_profiles = b->n_profiles;
  ms.values = b->values, ms.n_values = b->n_values;
  p = g_new0 (SetPayload, 1);
  p->model = xrlab_fit_config_new (&ms);
  p->energy = g_strdup (b->energy);
  p->time = g_strdup (b->time);
  p->aux = g_strdup (b->aux);
  p->output = g_strdup (b->output);
  p->noise = b->noise;
  p->level = b->level;
  p->seed = b->seed;
  p->max_values = b->max_values;
  p->n_real = spec->n_real;
  p->strategy = spec->strategy;
  p->sweep_seed = spec->sweep_seed;
  p->scale = NAN;
  p->n_sweep = spec->n_sweep;
  p->sweep = g_new0 (SweepParam, spec->n_sweep + 1);
  for (gsize j = 0; j < spec->n_sweep; j++)
    {
      const XrlabFitSweepParam *q = &spec->sweep[j];

      p->sweep[j].param = g_strdup (q->param);
      p->sweep[j].kind = q->kind;
      p->sweep[j].values = g_memdup2 (q->values, q->n_values * sizeof (double));
      p->sweep[j].n_values = q->n_values;
      p->sweep[j].a = q->a;
      p->sweep[j].b = q->b;
      p->sweep[j].n_samples = q->n_samples;
    }
  xrlab_request_submit (xrlab_request_new (self, &set_kind, p,
                                           xrlab_engine_fit_simulate_set_async, cancellable,
                                           callback, user_data));
}

gboolean
xrlab_engine_fit_simulate_set_finish (XrlabEngine   *self,
                                      GAsyncResult  *result,
                                      gsize         *n_configs,
                                      double        *scale,
                                      GError       **error)
{
  g_autofree double *r = NULL;

  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  r = g_task_propagate_pointer (G_TASK (result), error);
  if (r == NULL)
    return FALSE;
  if (n_configs != NULL)
    *n_configs = (gsize) r[0];
  if (scale != NULL)
    *scale = r[1];
  return TRUE;
}
