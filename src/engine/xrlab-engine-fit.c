/* xrlab-engine-fit.c -- the fit service of the engine: its state, datasets,
 * keys of edits, counters
 *
 * A dataset is read and checked when its open (an edit) is applied on the
 * worker, so that a setup submitted right after it finds it; once read it
 * never changes and is shared by reference with the setups and jobs that use
 * it. The other parts of the service are listed in
 * xrlab-engine-fit-private.h.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-engine-fit-private.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "xrlab-h5.h"
#include "xrlab-util.h"

G_DEFINE_QUARK (xrlab-engine-fit-error-quark, xrlab_engine_fit_error)

/* Ids of datasets: unique in the process, never 0. */
static gint next_dataset_id;

/* ---- the state ---------------------------------------------------------------- */

static gpointer
fit_state_new (XrlabEngineWorker *worker)
{
  FitState *state = g_new0 (FitState, 1);

  state->datasets = g_hash_table_new_full (NULL, NULL, NULL,
                                           (GDestroyNotify) xrlab_fit_dataset_unref);
  state->setups = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) xrlab_fit_setup_free);
  return state;
}

static void
fit_state_free (gpointer data)
{
  FitState *state = data;

  g_hash_table_unref (state->setups);
  g_hash_table_unref (state->datasets);
  g_free (state);
}

/* Rebuilds, once after a burst, what the edits of the round made stale. */
static void
fit_commit (XrlabEngineWorker *worker, gpointer data)
{
  FitState *state = data;
  GHashTableIter it;
  gpointer value;

  g_hash_table_iter_init (&it, state->setups);
  while (g_hash_table_iter_next (&it, NULL, &value))
    xrlab_fit_setup_commit (value);
}

const XrlabEngineService xrlab_engine_fit_service = {
  .name = "fit",
  .state_new = fit_state_new,
  .state_free = fit_state_free,
  .commit = fit_commit,
};

FitState *
xrlab_fit_state (XrlabEngineWorker *worker)
{
  return xrlab_engine_worker_get_state (worker, &xrlab_engine_fit_service);
}

FitSetup *
xrlab_fit_state_setup (FitState *state, guint id, GError **error)
{
  FitSetup *setup = g_hash_table_lookup (state->setups, GUINT_TO_POINTER (id));

  if (setup == NULL)
    g_set_error (error, XRLAB_ENGINE_FIT_ERROR, XRLAB_ENGINE_FIT_ERROR_NO_SETUP,
                 _("There is no fit setup %u"), id);
  return setup;
}

FitSetup *
xrlab_fit_state_ready_setup (FitState *state, guint id, GError **error)
{
  FitSetup *setup = xrlab_fit_state_setup (state, id, error);

  if (setup != NULL && !setup->valid)
    {
      g_set_error (error, XRLAB_ENGINE_FIT_ERROR, XRLAB_ENGINE_FIT_ERROR_NOT_READY,
                   _("Fit setup %u has no valid model and data yet"), id);
      return NULL;
    }
  return setup;
}

void
xrlab_engine_reply_cb (GObject *source, GAsyncResult *result, gpointer reply)
{
  ((XrlabEngineReply *) reply)->result = g_object_ref (result);
}

GAsyncResult *
xrlab_engine_reply_wait (XrlabEngineReply *reply)
{
  while (reply->result == NULL)
    g_main_context_iteration (g_main_context_get_thread_default (), TRUE);
  return reply->result;
}

void
xrlab_engine_reply_clear (XrlabEngineReply *reply)
{
  g_clear_object (&reply->result);
}

guint64
xrlab_engine_fit_get_generation (XrlabEngine *self)
{
  g_return_val_if_fail (XRLAB_IS_ENGINE (self), 0);
  return xrlab_engine_shared_get_generation (xrlab_engine_get_shared (self),
                                             &xrlab_engine_fit_service);
}

/* ---- keys and accounting -------------------------------------------------------- */

guint
xrlab_fit_key_setup (guint setup, XrlabFitSetupFields field)
{
  g_autofree char *s = g_strdup_printf ("fit-setup:%u:%x", setup, (guint) field);

  return g_quark_from_string (s);
}

guint
xrlab_fit_key_param (guint setup, XrlabFitModelRole role, const char *name,
                     XrlabFitParamFields field)
{
  g_autofree char *s = g_strdup_printf ("fit-param:%u:%d:%x:%s", setup, (int) role,
                                        (guint) field, name);

  return g_quark_from_string (s);
}

gboolean
xrlab_fit_keys_superseded (XrlabRequest *req, const guint *keys, gsize n)
{
  if (n == 0)
    return FALSE;
  for (gsize i = 0; i < n; i++)
    if (!xrlab_engine_shared_key_superseded (req->shared, &xrlab_engine_fit_service, keys[i],
                                             req->generation))
      return FALSE;
  return TRUE;
}

void
xrlab_fit_note_transfer (XrlabRequest *req, gsize bytes, double compute_s)
{
  XrlabEngineStats delta = { .n_requests = 1, .n_transfers = 1, .bytes = bytes,
                             .compute_s = compute_s };

  xrlab_engine_shared_note_transfer (req->shared, req->consumer, &delta);
}

/* ---- datasets ------------------------------------------------------------------- */

FitDataset *
xrlab_fit_dataset_ref (FitDataset *ds)
{
  g_atomic_ref_count_inc (&ds->ref);
  return ds;
}

void
xrlab_fit_dataset_unref (FitDataset *ds)
{
  if (ds == NULL || !g_atomic_ref_count_dec (&ds->ref))
    return;
  g_free (ds->data);
  g_free (ds->energy);
  g_free (ds->time);
  g_free (ds->aux);
  g_free (ds->data_name);
  g_free (ds->energy_name);
  g_free (ds->time_name);
  g_free (ds);
}

XrlabFitflow *
xrlab_fit_dataset_flow (const FitDataset *ds, GError **error)
{
  XrlabFitflowData fd = {
    .data = ds->data, .n_rows = ds->n_rows, .n_cols = ds->n_cols,
    .energy = ds->energy, .n_energy = ds->n_e, .time = ds->time, .n_time = ds->n_t,
    .aux = ds->aux, .n_aux = ds->n_a,
    .data_name = ds->data_name, .energy_name = ds->energy_name, .time_name = ds->time_name,
  };

  return xrlab_fitflow_new (&fd, error);
}

static gsize
nearest (const double *v, gsize n, double x)
{
  gsize best = 0;

  if (v == NULL || n == 0 || isnan (x))
    return 0;
  for (gsize i = 1; i < n; i++)
    if (fabs (v[i] - x) < fabs (v[best] - x))
      best = i;
  return best;
}

gsize
xrlab_fit_dataset_row (const FitDataset *ds, double delay)
{
  return nearest (ds->time, ds->n_t, delay);
}

gsize
xrlab_fit_dataset_col (const FitDataset *ds, double energy)
{
  return nearest (ds->energy, ds->n_e, energy);
}

/* The name of a file or of an HDF5 dataset in messages: "data.csv",
 * "scan.h5:/entry/data/counts". */
static char *
source_name (const char *spec)
{
  g_autofree char *file = NULL, *path = NULL;

  if (spec == NULL)
    return NULL;
  if (xrlab_h5_split_spec (spec, &file, &path))
    {
      g_autofree char *base = g_path_get_basename (file);
      return g_strdup_printf ("%s:%s", base, path);
    }
  return g_path_get_basename (spec);
}

/* ---- sizes -------------------------------------------------------------------- */

static gboolean
check_values (const char *what, guint64 a, guint64 b, guint64 limit, GError **error)
{
  if (limit == 0 || a == 0 || b == 0 || (a <= limit && b <= limit / a))
    return TRUE;
  /* TRANSLATORS: the first %s names the sizes ("the energy axis × the delay
   * axis"); the numbers are counts of values */
  g_set_error (error, XRLAB_ENGINE_FIT_ERROR, XRLAB_ENGINE_FIT_ERROR_SIZE,
               _("%s: %llu × %llu values are more than the limit of %llu "
                 "(a quarter of this machine's memory)"),
               what, (unsigned long long) a, (unsigned long long) b,
               (unsigned long long) limit);
  return FALSE;
}

gboolean
xrlab_fit_model_size_check (const XrlabModel *m, gsize n_e, gsize n_t, gsize n_a,
                            gboolean fit, guint64 max_values, GError **error)
{
  guint64 rows = MAX (n_t, 1), n_free = 0;

  for (gsize i = 0; fit && i < xrlab_model_n_params (m); i++)
    {
      XrlabParamInfo info;

      xrlab_model_get_param (m, i, &info);
      n_free += info.vary && info.expr == NULL;
    }
  return check_values (_("the energy axis × the delay axis"), n_e, rows, max_values, error)
         && (!xrlab_model_has_dynamics (m) || n_t == 0
             || check_values (_("the delay axis × the delay axis (time dependence)"), n_t, n_t,
                              max_values, error))
         && (!xrlab_model_has_profiles (m) || n_a == 0
             || check_values (_("the delay axis × the aux axis (profiles)"), rows, n_a,
                              max_values, error))
         && (!fit || check_values (_("the points × (the free parameters + 1) of the Jacobian"),
                                   (guint64) n_e * rows, n_free + 1, max_values, error));
}

/* FILES: the axes first, then the data (the order of xrlab-cli fit). */
static gboolean
read_files (const XrlabDatasetSource *src, FitDataset *ds, GError **error)
{
  if (src->data == NULL || src->energy == NULL)
    {
      g_set_error (error, XRLAB_ENGINE_FIT_ERROR, XRLAB_ENGINE_FIT_ERROR_SOURCE,
                   _("A measurement needs its data and its energy axis"));
      return FALSE;
    }
  if ((ds->energy = xrlab_data_read_column (src->energy, XRLAB_DATA_AXIS_ENERGY, &ds->n_e,
                                             error)) == NULL
      || (src->time && (ds->time = xrlab_data_read_column (src->time, XRLAB_DATA_AXIS_TIME,
                                                           &ds->n_t, error)) == NULL)
      || (src->aux && (ds->aux = xrlab_data_read_column (src->aux, XRLAB_DATA_AXIS_OTHER,
                                                         &ds->n_a, error)) == NULL)
      || !check_values (_("the energy axis × the delay axis"), ds->n_e, MAX (ds->n_t, 1),
                        src->max_values, error))
    return FALSE;
  ds->data = xrlab_data_read_matrix (src->data, &ds->n_rows, &ds->n_cols, error);
  if (ds->data == NULL)
    return FALSE;
  ds->data_name = source_name (src->data);
  ds->energy_name = source_name (src->energy);
  ds->time_name = source_name (src->time);
  return TRUE;
}

static gboolean
read_nexus (const XrlabDatasetSource *src, FitDataset *ds, GError **error)
{
  XrlabNexusData nx = { 0 };
  gboolean two_d;
  int e_dim;

  if (src->data == NULL || !xrlab_nexus_read (src->data, &nx, error))
    {
      if (src->data == NULL)
        g_set_error (error, XRLAB_ENGINE_FIT_ERROR, XRLAB_ENGINE_FIT_ERROR_SOURCE,
                     _("A NeXus measurement needs its file"));
      return FALSE;
    }
  two_d = nx.signal.rank == 2 && nx.signal.dims[0] > 1;
  e_dim = two_d ? 1 : (nx.signal.rank == 2 ? 1 : 0);
  if (nx.axis_path[e_dim] == NULL || (two_d && nx.axis_path[0] == NULL))
    {
      g_set_error (error, XRLAB_ENGINE_FIT_ERROR, XRLAB_ENGINE_FIT_ERROR_SOURCE,
                   _("%s: the signal %s needs an axis for each dimension (@axes)"),
                   src->data, nx.signal_path);
      xrlab_nexus_data_clear (&nx);
      return FALSE;
    }
  ds->n_rows = nx.signal.rank == 2 ? nx.signal.dims[0] : 1;
  ds->n_cols = nx.signal.rank == 2 ? nx.signal.dims[1] : nx.signal.dims[0];
  ds->data = g_steal_pointer (&nx.signal.data);
  ds->energy = g_steal_pointer (&nx.axis[e_dim].data);
  ds->n_e = nx.axis[e_dim].dims[0];
  if (two_d)
    {
      ds->time = g_steal_pointer (&nx.axis[0].data);
      ds->n_t = nx.axis[0].dims[0];
      ds->time_name = source_name (nx.axis_path[0]);
    }
  ds->data_name = g_strdup_printf ("%s:%s", src->data, nx.signal_path);
  ds->energy_name = g_strdup (nx.axis_path[e_dim]);
  xrlab_nexus_data_clear (&nx);
  /* an aux axis is not part of NXdata: named on its own */
  return src->aux == NULL
         || (ds->aux = xrlab_data_read_column (src->aux, XRLAB_DATA_AXIS_OTHER, &ds->n_a,
                                               error)) != NULL;
}

static gboolean
copy_arrays (const XrlabDatasetSource *src, FitDataset *ds, GError **error)
{
  if (src->data_values == NULL || src->energy_values == NULL)
    {
      g_set_error (error, XRLAB_ENGINE_FIT_ERROR, XRLAB_ENGINE_FIT_ERROR_SOURCE,
                   _("A measurement needs its data and its energy axis"));
      return FALSE;
    }
  ds->n_rows = src->n_rows;
  ds->n_cols = src->n_cols;
  ds->data = g_memdup2 (src->data_values, src->n_rows * src->n_cols * sizeof (double));
  ds->n_e = src->n_energy;
  ds->energy = g_memdup2 (src->energy_values, src->n_energy * sizeof (double));
  if (src->time_values)
    {
      ds->n_t = src->n_time;
      ds->time = g_memdup2 (src->time_values, src->n_time * sizeof (double));
    }
  if (src->aux_values)
    {
      ds->n_a = src->n_aux;
      ds->aux = g_memdup2 (src->aux_values, src->n_aux * sizeof (double));
    }
  ds->data_name = g_strdup (src->name);
  return TRUE;
}

/* Reads and checks @src into a new dataset. */
static FitDataset *
dataset_read (const XrlabDatasetSource *src, guint id, GError **error)
{
  FitDataset *ds = g_new0 (FitDataset, 1);
  g_autoptr(XrlabFitflow) flow = NULL;
  gboolean ok;

  g_atomic_ref_count_init (&ds->ref);
  ds->id = id;
  switch (src->kind)
    {
    case XRLAB_DATASET_NEXUS:
      ok = read_nexus (src, ds, error);
      break;
    case XRLAB_DATASET_ARRAYS:
      ok = copy_arrays (src, ds, error);
      break;
    case XRLAB_DATASET_FILES:
    default:
      ok = read_files (src, ds, error);
      break;
    }
  /* the shapes and the axes, as every fit checks them */
  if (ok && (flow = xrlab_fit_dataset_flow (ds, error)) == NULL)
    ok = FALSE;
  if (!ok)
    {
      xrlab_fit_dataset_unref (ds);
      return NULL;
    }
  return ds;
}

static XrlabDatasetInfo *
dataset_info (const FitDataset *ds)
{
  XrlabDatasetInfo *info = g_new0 (XrlabDatasetInfo, 1);
  gsize n = ds->n_rows * ds->n_cols;

  info->id = ds->id;
  info->n_rows = ds->n_rows;
  info->n_energies = ds->n_e;
  info->n_aux = ds->n_a;
  info->has_time = ds->time != NULL;
  info->energy_first = ds->energy[0];
  info->energy_last = ds->energy[ds->n_e - 1];
  info->time_first = ds->time ? ds->time[0] : NAN;
  info->time_last = ds->time ? ds->time[ds->n_t - 1] : NAN;
  info->data_min = info->data_max = NAN;
  for (gsize i = 0; i < n; i++)
    {
      double v = ds->data[i];
      if (!isfinite (v))
        info->n_nonfinite++;
      else
        {
          if (!(v >= info->data_min))
            info->data_min = v;
          if (!(v <= info->data_max))
            info->data_max = v;
        }
    }
  return info;
}

typedef struct {
  guint id;
  gboolean close;
  XrlabDatasetSource src;           /* its strings and arrays owned below */
  char *strings[5];
  double *arrays[4];
  FitDataset *ds;                   /* read by apply */
  GError *error;
} DatasetPayload;

static void
dataset_payload_free (gpointer data)
{
  DatasetPayload *p = data;

  for (gsize i = 0; i < G_N_ELEMENTS (p->strings); i++)
    g_free (p->strings[i]);
  for (gsize i = 0; i < G_N_ELEMENTS (p->arrays); i++)
    g_free (p->arrays[i]);
  g_clear_pointer (&p->ds, xrlab_fit_dataset_unref);
  g_clear_error (&p->error);
  g_free (p);
}

static void
dataset_apply (XrlabEngineWorker *worker, gpointer state, XrlabRequest *req)
{
  FitState *st = state;
  DatasetPayload *p = req->payload;

  if (p->close)
    {
      g_hash_table_remove (st->datasets, GUINT_TO_POINTER (p->id));
      return;
    }
  p->ds = dataset_read (&p->src, p->id, &p->error);
  if (p->ds != NULL)
    g_hash_table_replace (st->datasets, GUINT_TO_POINTER (p->id), xrlab_fit_dataset_ref (p->ds));
}

static void
dataset_serve (XrlabEngineWorker *worker, gpointer state, XrlabRequest *req)
{
  DatasetPayload *p = req->payload;

  if (p->close)
    xrlab_request_return_boolean (req, TRUE);
  else if (p->ds == NULL)
    xrlab_request_return_error (req, g_steal_pointer (&p->error));
  else
    xrlab_request_return_pointer (req, dataset_info (p->ds), g_free);
}

static const XrlabRequestKind dataset_kind = {
  .name = "fit-dataset",
  .service = &xrlab_engine_fit_service,
  .role = XRLAB_REQUEST_EDIT,
  .payload_free = dataset_payload_free,
  .apply = dataset_apply,
  .serve = dataset_serve,
};

static DatasetPayload *
dataset_payload_new (const XrlabDatasetSource *src)
{
  DatasetPayload *p = g_new0 (DatasetPayload, 1);

  p->src = *src;
  p->src.data = p->strings[0] = g_strdup (src->data);
  p->src.energy = p->strings[1] = g_strdup (src->energy);
  p->src.time = p->strings[2] = g_strdup (src->time);
  p->src.aux = p->strings[3] = g_strdup (src->aux);
  p->src.name = p->strings[4] = g_strdup (src->name);
  if (src->kind == XRLAB_DATASET_ARRAYS)
    {
      p->src.data_values = p->arrays[0]
        = g_memdup2 (src->data_values, src->n_rows * src->n_cols * sizeof (double));
      p->src.energy_values = p->arrays[1]
        = g_memdup2 (src->energy_values, src->n_energy * sizeof (double));
      p->src.time_values = p->arrays[2]
        = g_memdup2 (src->time_values, src->n_time * sizeof (double));
      p->src.aux_values = p->arrays[3] = g_memdup2 (src->aux_values, src->n_aux * sizeof (double));
    }
  return p;
}

guint
xrlab_engine_dataset_open_async (XrlabEngine              *self,
                                 const XrlabDatasetSource *source,
                                 GCancellable             *cancellable,
                                 GAsyncReadyCallback       callback,
                                 gpointer                  user_data)
{
  DatasetPayload *p;
  XrlabRequest *req;

  g_return_val_if_fail (XRLAB_IS_ENGINE (self), 0);
  g_return_val_if_fail (source != NULL, 0);

  p = dataset_payload_new (source);
  p->id = (guint) g_atomic_int_add (&next_dataset_id, 1) + 1;
  req = xrlab_request_new (self, &dataset_kind, p, xrlab_engine_dataset_open_async,
                           cancellable, callback, user_data);
  xrlab_request_begin_edit (req, NULL, 0);
  xrlab_request_submit (req);
  return p->id;
}

XrlabDatasetInfo *
xrlab_engine_dataset_open_finish (XrlabEngine   *self,
                                  GAsyncResult  *result,
                                  GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

void
xrlab_engine_dataset_close (XrlabEngine *self, guint dataset)
{
  DatasetPayload *p;
  XrlabRequest *req;

  g_return_if_fail (XRLAB_IS_ENGINE (self));
  p = g_new0 (DatasetPayload, 1);
  p->id = dataset;
  p->close = TRUE;
  req = xrlab_request_new (self, &dataset_kind, p, xrlab_engine_dataset_close, NULL, NULL, NULL);
  xrlab_request_begin_edit (req, NULL, 0);
  xrlab_request_submit (req);
}

/* ---- the folder of a measurement ------------------------------------------------ */

void
xrlab_dataset_files_clear (XrlabDatasetFiles *files)
{
  g_clear_pointer (&files->data, g_free);
  g_clear_pointer (&files->energy, g_free);
  g_clear_pointer (&files->time, g_free);
  g_clear_pointer (&files->aux, g_free);
}

/* @name in @dir when it is a regular file, else NULL. */
static char *
file_in (const char *dir, const char *name)
{
  char *path = g_build_filename (dir, name, NULL);

  if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
    return path;
  g_free (path);
  return NULL;
}

gboolean
xrlab_dataset_files_find (const char *folder, XrlabDatasetFiles *files,
                          XrlabDatasetSource *source, GError **error)
{
  g_autofree char *sub = g_build_filename (folder, "data", NULL);
  const char *dir = folder;

  memset (files, 0, sizeof *files);
  if (g_file_test (folder, G_FILE_TEST_IS_REGULAR) && xrlab_h5_is_hdf5 (folder))
    {
      /* a NeXus file: its NXdata, read on the engine thread */
      files->data = g_strdup (folder);
      memset (source, 0, sizeof *source);
      source->kind = XRLAB_DATASET_NEXUS;
      source->data = files->data;
      return TRUE;
    }
  files->data = file_in (folder, "data.csv");
  if (files->data == NULL && (files->data = file_in (sub, "data.csv")) != NULL)
    dir = sub;
  if (files->data != NULL)
    files->energy = file_in (dir, "energy.csv");
  if (files->data == NULL || files->energy == NULL)
    {
      g_set_error (error, XRLAB_ENGINE_FIT_ERROR, XRLAB_ENGINE_FIT_ERROR_SOURCE,
                   files->data == NULL
                     ? _("%s holds no measurement: neither data.csv nor data/data.csv")
                     : _("%s: the measurement has no energy.csv beside its data.csv"),
                   folder);
      xrlab_dataset_files_clear (files);
      return FALSE;
    }
  files->time = file_in (dir, "time.csv");
  files->aux = file_in (dir, "aux_axis.csv");
  if (files->aux == NULL)
    files->aux = file_in (dir, "aux.csv");
  memset (source, 0, sizeof *source);
  source->kind = XRLAB_DATASET_FILES;
  source->data = files->data;
  source->energy = files->energy;
  source->time = files->time;
  source->aux = files->aux;
  return TRUE;
}

/* ---- counters ------------------------------------------------------------------- */

typedef struct {
  guint setup;
} StatsPayload;

static void
stats_serve (XrlabEngineWorker *worker, gpointer state, XrlabRequest *req)
{
  StatsPayload *p = req->payload;
  GError *error = NULL;
  FitSetup *setup = xrlab_fit_state_setup (state, p->setup, &error);

  if (setup == NULL)
    xrlab_request_return_error (req, error);
  else
    xrlab_request_return_pointer (req, g_memdup2 (&setup->stats, sizeof setup->stats), g_free);
}

static const XrlabRequestKind stats_kind = {
  .name = "fit-stats",
  .service = &xrlab_engine_fit_service,
  .role = XRLAB_REQUEST_READ,
  .payload_free = g_free,
  .serve = stats_serve,
};

void
xrlab_engine_fit_stats_async (XrlabEngine         *self,
                              guint                setup,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  StatsPayload *p = g_new0 (StatsPayload, 1);

  g_return_if_fail (XRLAB_IS_ENGINE (self));
  p->setup = setup;
  xrlab_request_submit (xrlab_request_new (self, &stats_kind, p, xrlab_engine_fit_stats_async,
                                           cancellable, callback, user_data));
}

gboolean
xrlab_engine_fit_stats_finish (XrlabEngine         *self,
                               GAsyncResult        *result,
                               XrlabFitSetupStats  *stats,
                               GError             **error)
{
  g_autofree XrlabFitSetupStats *s = NULL;

  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  s = g_task_propagate_pointer (G_TASK (result), error);
  if (s == NULL)
    return FALSE;
  if (stats != NULL)
    *stats = *s;
  return TRUE;
}

/* ---- results of stages ---------------------------------------------------------- */

FitStage *
xrlab_fit_stage_ref (FitStage *st)
{
  g_atomic_ref_count_inc (&st->ref);
  return st;
}

void
xrlab_fit_stage_unref (FitStage *st)
{
  if (st == NULL || !g_atomic_ref_count_dec (&st->ref))
    return;
  g_clear_pointer (&st->result, xrlab_fitflow_result_free);
  g_clear_pointer (&st->sbs, xrlab_fitflow_sbs_free);
  g_clear_pointer (&st->ci, xrlab_fit_ci_free);
  g_strfreev (st->ci_names);
  g_clear_pointer (&st->mcmc, xrlab_mcmc_result_free);
  g_free (st->trace_param);
  g_free (st->trace);
  g_clear_pointer (&st->ds, xrlab_fit_dataset_unref);
  g_free (st);
}

/* ---- live parameters -------------------------------------------------------------- */

static void
live_set_start (FitLive *live, XrlabFitModelRole role, const XrlabModel *start)
{
  live->role = role;
  live->n_start = xrlab_model_n_params (start);
  g_free (live->start);
  live->start = g_new (double, MAX (live->n_start, 1));
  for (gsize i = 0; i < live->n_start; i++)
    {
      XrlabParamInfo info;
      xrlab_model_get_param (start, i, &info);
      live->start[i] = info.value;
    }
  g_clear_pointer (&live->names, g_strfreev);
  g_clear_pointer (&live->theta, g_free);
  live->p = 0;
  live->serial++;
}

FitLive *
xrlab_fit_live_new (XrlabFitModelRole role, const XrlabModel *start)
{
  FitLive *live = g_new0 (FitLive, 1);

  g_atomic_ref_count_init (&live->ref);
  g_mutex_init (&live->lock);
  live_set_start (live, role, start);
  return live;
}

void
xrlab_fit_live_restart (FitLive *live, XrlabFitModelRole role, const XrlabModel *start)
{
  g_mutex_lock (&live->lock);
  live_set_start (live, role, start);
  g_mutex_unlock (&live->lock);
}

FitLive *
xrlab_fit_live_ref (FitLive *live)
{
  g_atomic_ref_count_inc (&live->ref);
  return live;
}

void
xrlab_fit_live_unref (FitLive *live)
{
  if (live == NULL || !g_atomic_ref_count_dec (&live->ref))
    return;
  g_mutex_clear (&live->lock);
  g_free (live->start);
  g_strfreev (live->names);
  g_free (live->theta);
  g_free (live);
}

void
xrlab_fit_live_post (FitLive *live, const char *const *names, const double *theta, gsize p)
{
  g_mutex_lock (&live->lock);
  if (live->names == NULL || live->p != p)
    {
      g_strfreev (live->names);
      g_free (live->theta);
      live->names = g_strdupv ((char **) names);
      live->theta = g_new (double, MAX (p, 1));
      live->p = p;
    }
  memcpy (live->theta, theta, p * sizeof (double));
  live->serial++;
  g_mutex_unlock (&live->lock);
}
