/* xrlab-engine.c -- the engine thread: one worker that owns every cache
 *
 * Threads. The object (XrlabEngine) lives on the caller's side; the worker
 * thread runs worker_main() over an EngineState that only it ever touches.
 * The two share an EngineShared: the request queue, the generation counters
 * (atomics) and, under a mutex, the accounting and the latest generation per
 * material. Requests carry their GTask; the worker returns it, and GTask
 * delivers the reply on the requester's main context.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-engine.h"

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "xrlab-formula.h"
#include "xrlab-util.h"

G_DEFINE_QUARK (xrlab-engine-error-quark, xrlab_engine_error)

/* Keeps caches of other grids for batches (the CLI asks with a few grids). */
#define N_BATCH_CACHES 4

/* ---- requests ------------------------------------------------------------ */

typedef enum {
  REQUEST_SET_MATERIALS,
  REQUEST_UPDATE_MATERIAL,
  REQUEST_SET_GRID,
  REQUEST_FETCH,
  REQUEST_FETCH_AT,
  REQUEST_EXPORT,
  REQUEST_BATCH,
  REQUEST_QUIT,
} RequestKind;

typedef struct _BatchProgress BatchProgress;

typedef struct {
  RequestKind        kind;
  GTask             *task;         /* NULL for REQUEST_QUIT */
  guint64            generation;   /* edits: their own; others: the newest at submission */
  char              *consumer;
  /* One allocation: the specs and their strings (the "input transfer"). */
  XrlabMaterialSpec *specs;
  gsize              n_specs;
  XrlabEnergyGrid   *grid;
  XrlabQuantityMask  quantities;
  guint             *ids;          /* NULL: all materials */
  gsize              n_ids;
  double             energy_kev;
  char              *path;
  BatchProgress     *progress;
} Request;

struct _BatchProgress {
  gatomicrefcount          ref_count;
  XrlabEngineProgressFunc  func;
  gpointer                 data;
  GMainContext            *context;
  atomic_int               finished;
  atomic_int               pending;    /* an idle is queued */
  _Atomic gsize            done;
  gsize                    total;
  double                   last_report; /* worker side only */
};

static BatchProgress *
batch_progress_ref (BatchProgress *p)
{
  g_atomic_ref_count_inc (&p->ref_count);
  return p;
}

static void
batch_progress_unref (BatchProgress *p)
{
  if (p != NULL && g_atomic_ref_count_dec (&p->ref_count))
    {
      g_main_context_unref (p->context);
      g_free (p);
    }
}

static void
request_free (Request *req)
{
  g_clear_object (&req->task);
  g_free (req->consumer);
  g_free (req->specs);
  g_clear_pointer (&req->grid, xrlab_energy_grid_unref);
  g_free (req->ids);
  g_free (req->path);
  g_clear_pointer (&req->progress, batch_progress_unref);
  g_free (req);
}

/* Copies @n specs and every string they point to into one allocation. */
static XrlabMaterialSpec *
specs_copy (const XrlabMaterialSpec *specs, gsize n)
{
  gsize size = n * sizeof (XrlabMaterialSpec);
  XrlabMaterialSpec *copy;
  char *p;

  for (gsize i = 0; i < n; i++)
    {
      size += (specs[i].name ? strlen (specs[i].name) + 1 : 0);
      size += (specs[i].formula ? strlen (specs[i].formula) + 1 : 0);
    }
  copy = g_malloc (MAX (size, 1));
  p = (char *) (copy + n);
  for (gsize i = 0; i < n; i++)
    {
      copy[i] = specs[i];
      if (specs[i].name != NULL)
        {
          gsize len = strlen (specs[i].name) + 1;
          memcpy (p, specs[i].name, len);
          copy[i].name = p;
          p += len;
        }
      if (specs[i].formula != NULL)
        {
          gsize len = strlen (specs[i].formula) + 1;
          memcpy (p, specs[i].formula, len);
          copy[i].formula = p;
          p += len;
        }
    }
  return copy;
}

/* ---- state shared by the object and the worker -------------------------- */

typedef struct {
  XrlabEngineStats stats;
} ConsumerStats;

typedef struct {
  gatomicrefcount  ref_count;
  GAsyncQueue     *queue;
  atomic_int       shut_down;
  /* Generations: submitted on the caller's side, applied on the worker. */
  _Atomic guint64  submitted_generation;
  _Atomic guint64  applied_generation;
  gboolean         print_stats;

  GMutex           mutex;                /* guards everything below */
  GHashTable      *consumers;            /* char* -> ConsumerStats* */
  XrlabEngineStats totals;
  GHashTable      *material_generation;  /* id -> newest edit generation (guint64*) */
  GCancellable    *busy;                 /* cancelled by shutdown */
} EngineShared;

static EngineShared *
engine_shared_ref (EngineShared *shared)
{
  g_atomic_ref_count_inc (&shared->ref_count);
  return shared;
}

static void
engine_shared_unref (EngineShared *shared)
{
  if (g_atomic_ref_count_dec (&shared->ref_count))
    {
      g_async_queue_unref (shared->queue);
      g_hash_table_unref (shared->consumers);
      g_hash_table_unref (shared->material_generation);
      g_clear_object (&shared->busy);
      g_mutex_clear (&shared->mutex);
      g_free (shared);
    }
}

/* Adds to the counters of @consumer (NULL: totals only). Called with the
 * mutex NOT held. */
static void
account (EngineShared *shared, const char *consumer, const XrlabEngineStats *delta)
{
  XrlabEngineStats *targets[2] = { &shared->totals, NULL };

  g_mutex_lock (&shared->mutex);
  if (consumer != NULL)
    {
      ConsumerStats *cs = g_hash_table_lookup (shared->consumers, consumer);
      if (cs == NULL)
        {
          cs = g_new0 (ConsumerStats, 1);
          g_hash_table_insert (shared->consumers, g_strdup (consumer), cs);
        }
      targets[1] = &cs->stats;
    }
  for (int i = 0; i < 2; i++)
    {
      XrlabEngineStats *t = targets[i];
      if (t == NULL)
        continue;
      t->n_requests += delta->n_requests;
      t->n_transfers += delta->n_transfers;
      t->bytes += delta->bytes;
      t->n_superseded += delta->n_superseded;
      t->n_exports += delta->n_exports;
      t->export_bytes += delta->export_bytes;
      t->compute_s += delta->compute_s;
      t->transfer_s += delta->transfer_s;
    }
  g_mutex_unlock (&shared->mutex);
}

/* ---- the object -------------------------------------------------------- */

struct _XrlabEngine {
  GObject       parent_instance;
  EngineShared *shared;
  GThread      *thread;
};

G_DEFINE_FINAL_TYPE (XrlabEngine, xrlab_engine, G_TYPE_OBJECT)

static gpointer worker_main (gpointer data);

static void
xrlab_engine_dispose (GObject *object)
{
  xrlab_engine_shutdown (XRLAB_ENGINE (object));
  G_OBJECT_CLASS (xrlab_engine_parent_class)->dispose (object);
}

static void
xrlab_engine_finalize (GObject *object)
{
  XrlabEngine *self = XRLAB_ENGINE (object);

  engine_shared_unref (self->shared);
  G_OBJECT_CLASS (xrlab_engine_parent_class)->finalize (object);
}

static void
xrlab_engine_class_init (XrlabEngineClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = xrlab_engine_dispose;
  object_class->finalize = xrlab_engine_finalize;
}

static void
xrlab_engine_init (XrlabEngine *self)
{
  EngineShared *shared = g_new0 (EngineShared, 1);
  const char *env = g_getenv ("XRLAB_ENGINE_STATS");

  g_atomic_ref_count_init (&shared->ref_count);
  shared->queue = g_async_queue_new ();
  shared->consumers = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  shared->material_generation = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  shared->print_stats = env != NULL && *env != '\0' && strcmp (env, "0") != 0;
  g_mutex_init (&shared->mutex);
  self->shared = shared;
  self->thread = g_thread_new ("xrlab-engine", worker_main, engine_shared_ref (shared));
}

XrlabEngine *
xrlab_engine_new (void)
{
  return g_object_new (XRLAB_TYPE_ENGINE, NULL);
}

guint64
xrlab_engine_get_generation (XrlabEngine *self)
{
  g_return_val_if_fail (XRLAB_IS_ENGINE (self), 0);
  return atomic_load (&self->shared->submitted_generation);
}

/* Completes a request that never reached the worker (or that the worker left
 * behind at shutdown). */
static void
request_fail_shut_down (Request *req)
{
  if (req->task != NULL)
    g_task_return_new_error (req->task, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_SHUT_DOWN,
                             _("The computation engine has been shut down"));
  request_free (req);
}

void
xrlab_engine_shutdown (XrlabEngine *self)
{
  EngineShared *shared;
  Request *quit;
  Request *req;

  g_return_if_fail (XRLAB_IS_ENGINE (self));

  shared = self->shared;
  if (self->thread == NULL)
    return;

  atomic_store (&shared->shut_down, 1);
  g_mutex_lock (&shared->mutex);
  if (shared->busy != NULL)
    g_cancellable_cancel (shared->busy);
  g_mutex_unlock (&shared->mutex);

  quit = g_new0 (Request, 1);
  quit->kind = REQUEST_QUIT;
  g_async_queue_push_front (shared->queue, quit);

  if (g_thread_self () == self->thread)
    {
      /* The worker dropped the last reference (a task of one of its
       * requests held it): it cannot join itself, so it finishes on its own
       * and answers what is left. */
      g_thread_unref (self->thread);
      self->thread = NULL;
      return;
    }
  g_thread_join (self->thread);
  self->thread = NULL;

  /* The worker is gone: answer whatever it left in the queue. */
  while ((req = g_async_queue_try_pop (shared->queue)) != NULL)
    request_fail_shut_down (req);

  if (shared->print_stats)
    {
      g_autofree char *text = xrlab_engine_format_stats (self);
      g_printerr ("xrlab engine statistics at shutdown:\n%s", text);
    }
}

/* Makes a request with its task; NULL (and the task already answered) when
 * the engine is shut down. */
static Request *
request_new (XrlabEngine         *self,
             RequestKind          kind,
             gpointer             source_tag,
             GCancellable        *cancellable,
             GAsyncReadyCallback  callback,
             gpointer             user_data)
{
  Request *req = g_new0 (Request, 1);

  req->kind = kind;
  req->task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (req->task, source_tag);
  g_task_set_check_cancellable (req->task, FALSE);
  req->generation = atomic_load (&self->shared->submitted_generation);
  return req;
}

static void
request_submit (XrlabEngine *self, Request *req)
{
  if (atomic_load (&self->shared->shut_down) || self->thread == NULL)
    {
      request_fail_shut_down (req);
      return;
    }
  g_async_queue_push (self->shared->queue, req);
}

/* Gives an edit the next generation, and remembers it as the newest edit of
 * each material it names. */
static void
request_set_edit_generation (XrlabEngine *self, Request *req, const guint *ids, gsize n)
{
  EngineShared *shared = self->shared;

  g_mutex_lock (&shared->mutex);
  req->generation = atomic_fetch_add (&shared->submitted_generation, 1) + 1;
  for (gsize i = 0; i < n; i++)
    {
      guint64 *gen = g_hash_table_lookup (shared->material_generation, GUINT_TO_POINTER (ids[i]));
      if (gen == NULL)
        {
          gen = g_new (guint64, 1);
          g_hash_table_insert (shared->material_generation, GUINT_TO_POINTER (ids[i]), gen);
        }
      *gen = req->generation;
    }
  g_mutex_unlock (&shared->mutex);
}

/* TRUE when an edit newer than @generation was submitted for material @id. */
static gboolean
material_superseded (EngineShared *shared, guint id, guint64 generation)
{
  guint64 *gen;
  gboolean superseded;

  g_mutex_lock (&shared->mutex);
  gen = g_hash_table_lookup (shared->material_generation, GUINT_TO_POINTER (id));
  superseded = gen != NULL && *gen > generation;
  g_mutex_unlock (&shared->mutex);
  return superseded;
}

static gboolean
check_specs (const XrlabMaterialSpec *specs, gsize n, GError **error)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);

  for (gsize i = 0; i < n; i++)
    {
      if (specs[i].id == 0)
        {
          g_set_error (error, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_INVALID,
                       "material %" G_GSIZE_FORMAT " has the id 0, which is reserved", i + 1);
          return FALSE;
        }
      if (!g_hash_table_add (seen, GUINT_TO_POINTER (specs[i].id)))
        {
          g_set_error (error, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_INVALID,
                       "material id %u appears twice", specs[i].id);
          return FALSE;
        }
    }
  return TRUE;
}

void
xrlab_engine_set_materials_async (XrlabEngine             *self,
                                  const XrlabMaterialSpec *specs,
                                  gsize                    n,
                                  GCancellable            *cancellable,
                                  GAsyncReadyCallback      callback,
                                  gpointer                 user_data)
{
  Request *req;
  GError *error = NULL;
  g_autofree guint *ids = NULL;

  g_return_if_fail (XRLAB_IS_ENGINE (self));
  g_return_if_fail (specs != NULL || n == 0);

  req = request_new (self, REQUEST_SET_MATERIALS, xrlab_engine_set_materials_async,
                     cancellable, callback, user_data);
  if (!check_specs (specs, n, &error))
    {
      g_task_return_error (req->task, error);
      request_free (req);
      return;
    }
  req->specs = specs_copy (specs, n);
  req->n_specs = n;
  ids = g_new (guint, MAX (n, 1));
  for (gsize i = 0; i < n; i++)
    ids[i] = specs[i].id;
  request_set_edit_generation (self, req, ids, n);
  request_submit (self, req);
}

gboolean
xrlab_engine_set_materials_finish (XrlabEngine   *self,
                                   GAsyncResult  *result,
                                   GPtrArray    **material_errors,
                                   GError       **error)
{
  GPtrArray *errors;

  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  errors = g_task_propagate_pointer (G_TASK (result), error);
  if (errors == NULL)
    return FALSE;
  if (material_errors != NULL)
    *material_errors = errors;
  else
    g_ptr_array_unref (errors);
  return TRUE;
}

void
xrlab_engine_update_material_async (XrlabEngine             *self,
                                    const XrlabMaterialSpec *spec,
                                    GCancellable            *cancellable,
                                    GAsyncReadyCallback      callback,
                                    gpointer                 user_data)
{
  Request *req;
  GError *error = NULL;

  g_return_if_fail (XRLAB_IS_ENGINE (self));
  g_return_if_fail (spec != NULL);

  req = request_new (self, REQUEST_UPDATE_MATERIAL, xrlab_engine_update_material_async,
                     cancellable, callback, user_data);
  if (!check_specs (spec, 1, &error))
    {
      g_task_return_error (req->task, error);
      request_free (req);
      return;
    }
  req->specs = specs_copy (spec, 1);
  req->n_specs = 1;
  request_set_edit_generation (self, req, &spec->id, 1);
  g_task_set_task_data (req->task, g_memdup2 (&req->generation, sizeof req->generation), g_free);
  g_object_set_data (G_OBJECT (req->task), "xrlab-id", GUINT_TO_POINTER (spec->id));
  request_submit (self, req);
}

gboolean
xrlab_engine_update_material_finish (XrlabEngine   *self,
                                     GAsyncResult  *result,
                                     GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  /* A newer edit of the same material may have been submitted after the
   * worker answered: its answer is the one that counts. */
  {
    const guint64 *gen = g_task_get_task_data (G_TASK (result));
    guint id = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (result), "xrlab-id"));

    if (gen != NULL && material_superseded (self->shared, id, *gen))
      {
        GError *ignored = NULL;

        if (!g_task_propagate_boolean (G_TASK (result), &ignored))
          g_clear_error (&ignored);
        g_set_error_literal (error, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_SUPERSEDED,
                             "superseded by a newer edit");
        return FALSE;
      }
  }
  return g_task_propagate_boolean (G_TASK (result), error);
}

void
xrlab_engine_set_grid_async (XrlabEngine         *self,
                             XrlabEnergyGrid     *grid,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  Request *req;

  g_return_if_fail (XRLAB_IS_ENGINE (self));
  g_return_if_fail (grid != NULL);

  req = request_new (self, REQUEST_SET_GRID, xrlab_engine_set_grid_async,
                     cancellable, callback, user_data);
  req->grid = xrlab_energy_grid_ref (grid);
  request_set_edit_generation (self, req, NULL, 0);
  request_submit (self, req);
}

gboolean
xrlab_engine_set_grid_finish (XrlabEngine   *self,
                              GAsyncResult  *result,
                              GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

static Request *
fetch_request_new (XrlabEngine         *self,
                   RequestKind          kind,
                   gpointer             source_tag,
                   const char          *consumer,
                   XrlabQuantityMask    quantities,
                   const guint         *ids,
                   gsize                n_ids,
                   GCancellable        *cancellable,
                   GAsyncReadyCallback  callback,
                   gpointer             user_data)
{
  Request *req = request_new (self, kind, source_tag, cancellable, callback, user_data);

  req->consumer = g_strdup (consumer != NULL ? consumer : "default");
  g_object_set_data_full (G_OBJECT (req->task), "xrlab-consumer", g_strdup (req->consumer), g_free);
  req->quantities = quantities & XRLAB_QUANTITY_MASK_ALL;
  if (ids != NULL)
    {
      req->ids = g_memdup2 (ids, MAX (n_ids, 1) * sizeof (guint));
      req->n_ids = n_ids;
    }
  return req;
}

void
xrlab_engine_fetch_async (XrlabEngine         *self,
                          const char          *consumer,
                          XrlabQuantityMask    quantities,
                          const guint         *ids,
                          gsize                n_ids,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_return_if_fail (XRLAB_IS_ENGINE (self));
  request_submit (self, fetch_request_new (self, REQUEST_FETCH, xrlab_engine_fetch_async,
                                           consumer, quantities, ids, n_ids,
                                           cancellable, callback, user_data));
}

/* Drops a reply whose state a newer edit has replaced since it was made. */
static XrlabEngineArrays *
arrays_propagate (XrlabEngine *self, GAsyncResult *result, GError **error)
{
  XrlabEngineArrays *arrays = g_task_propagate_pointer (G_TASK (result), error);

  if (arrays != NULL && arrays->generation < atomic_load (&self->shared->submitted_generation))
    {
      XrlabEngineStats delta = { .n_superseded = 1 };
      account (self->shared, g_object_get_data (G_OBJECT (result), "xrlab-consumer"), &delta);
      xrlab_engine_arrays_free (arrays);
      g_set_error (error, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_SUPERSEDED,
                   "superseded by a newer edit");
      return NULL;
    }
  return arrays;
}

XrlabEngineArrays *
xrlab_engine_fetch_finish (XrlabEngine   *self,
                           GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return arrays_propagate (self, result, error);
}

void
xrlab_engine_fetch_at_async (XrlabEngine         *self,
                             const char          *consumer,
                             double               energy_kev,
                             XrlabQuantityMask    quantities,
                             const guint         *ids,
                             gsize                n_ids,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  Request *req;

  g_return_if_fail (XRLAB_IS_ENGINE (self));
  req = fetch_request_new (self, REQUEST_FETCH_AT, xrlab_engine_fetch_at_async,
                           consumer, quantities, ids, n_ids, cancellable, callback, user_data);
  req->energy_kev = energy_kev;
  request_submit (self, req);
}

XrlabEngineArrays *
xrlab_engine_fetch_at_finish (XrlabEngine   *self,
                              GAsyncResult  *result,
                              GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return arrays_propagate (self, result, error);
}

void
xrlab_engine_export_csv_async (XrlabEngine         *self,
                               const char          *path,
                               XrlabQuantityMask    quantities,
                               const guint         *ids,
                               gsize                n_ids,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  Request *req;

  g_return_if_fail (XRLAB_IS_ENGINE (self));
  g_return_if_fail (path != NULL);
  req = fetch_request_new (self, REQUEST_EXPORT, xrlab_engine_export_csv_async,
                           "export", quantities, ids, n_ids, cancellable, callback, user_data);
  req->path = g_strdup (path);
  request_submit (self, req);
}

gboolean
xrlab_engine_export_csv_finish (XrlabEngine   *self,
                                GAsyncResult  *result,
                                GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

void
xrlab_engine_batch_async (XrlabEngine             *self,
                          const XrlabMaterialSpec *specs,
                          gsize                    n,
                          XrlabEnergyGrid         *grid,
                          XrlabQuantityMask        quantities,
                          XrlabEngineProgressFunc  progress,
                          gpointer                 progress_data,
                          GCancellable            *cancellable,
                          GAsyncReadyCallback      callback,
                          gpointer                 user_data)
{
  Request *req;

  g_return_if_fail (XRLAB_IS_ENGINE (self));
  g_return_if_fail (specs != NULL || n == 0);
  g_return_if_fail (grid != NULL);

  req = request_new (self, REQUEST_BATCH, xrlab_engine_batch_async,
                     cancellable, callback, user_data);
  req->consumer = g_strdup ("batch");
  req->specs = specs_copy (specs, n);
  req->n_specs = n;
  req->grid = xrlab_energy_grid_ref (grid);
  req->quantities = quantities & XRLAB_QUANTITY_MASK_ALL;
  if (progress != NULL)
    {
      BatchProgress *p = g_new0 (BatchProgress, 1);
      g_atomic_ref_count_init (&p->ref_count);
      p->func = progress;
      p->data = progress_data;
      p->context = g_main_context_ref_thread_default ();
      p->total = n;
      req->progress = p;
    }
  request_submit (self, req);
}

XrlabEngineBatch *
xrlab_engine_batch_finish (XrlabEngine   *self,
                           GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

typedef struct {
  GMainContext     *context;
  XrlabEngineBatch *batch;
  GError           *error;
  gboolean          done;
} SyncBatch;

static void
sync_batch_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  SyncBatch *sync = user_data;

  sync->batch = xrlab_engine_batch_finish (XRLAB_ENGINE (source), result, &sync->error);
  sync->done = TRUE;
  g_main_context_wakeup (sync->context);
}

XrlabEngineBatch *
xrlab_engine_batch_sync (XrlabEngine             *self,
                         const XrlabMaterialSpec *specs,
                         gsize                    n,
                         XrlabEnergyGrid         *grid,
                         XrlabQuantityMask        quantities,
                         XrlabEngineProgressFunc  progress,
                         gpointer                 progress_data,
                         GCancellable            *cancellable,
                         GError                 **error)
{
  SyncBatch sync = { 0 };

  sync.context = g_main_context_new ();
  g_main_context_push_thread_default (sync.context);
  xrlab_engine_batch_async (self, specs, n, grid, quantities, progress, progress_data,
                            cancellable, sync_batch_done, &sync);
  while (!sync.done)
    g_main_context_iteration (sync.context, TRUE);
  g_main_context_pop_thread_default (sync.context);
  g_main_context_unref (sync.context);
  if (sync.error != NULL)
    g_propagate_error (error, sync.error);
  return sync.batch;
}

/* ---- replies --------------------------------------------------------------- */

const double *
xrlab_engine_arrays_get (const XrlabEngineArrays *arrays,
                         gsize                    material_index,
                         XrlabQuantity            quantity)
{
  g_return_val_if_fail (arrays != NULL, NULL);
  g_return_val_if_fail (material_index < arrays->n_materials, NULL);

  for (gsize q = 0; q < arrays->n_quantities; q++)
    if (arrays->quantities[q] == quantity)
      return arrays->values + (material_index * arrays->n_quantities + q) * arrays->n_energies;
  return NULL;
}

void
xrlab_engine_arrays_free (XrlabEngineArrays *arrays)
{
  g_free (arrays);
}

void
xrlab_engine_batch_free (XrlabEngineBatch *batch)
{
  if (batch == NULL)
    return;
  for (gsize m = 0; m < batch->n_materials; m++)
    g_clear_error (&batch->errors[m]);
  g_free (batch);
}

/* ---- accounting ------------------------------------------------------------ */

gboolean
xrlab_engine_get_stats (XrlabEngine      *self,
                        const char       *consumer,
                        XrlabEngineStats *stats)
{
  EngineShared *shared;
  gboolean found = TRUE;

  g_return_val_if_fail (XRLAB_IS_ENGINE (self), FALSE);
  g_return_val_if_fail (stats != NULL, FALSE);

  shared = self->shared;
  g_mutex_lock (&shared->mutex);
  if (consumer == NULL)
    *stats = shared->totals;
  else
    {
      ConsumerStats *cs = g_hash_table_lookup (shared->consumers, consumer);
      if (cs != NULL)
        *stats = cs->stats;
      else
        {
          memset (stats, 0, sizeof *stats);
          found = FALSE;
        }
    }
  g_mutex_unlock (&shared->mutex);
  return found;
}

static void
format_stats_line (GString *s, const char *name, const XrlabEngineStats *st)
{
  g_string_append_printf (s,
                          "%-8s requests %" G_GUINT64_FORMAT ", transfers %" G_GUINT64_FORMAT
                          " (%.1f kB), superseded %" G_GUINT64_FORMAT ", exports %" G_GUINT64_FORMAT
                          " (%.1f kB), compute %.3f ms, transfer %.3f ms\n",
                          name, st->n_requests, st->n_transfers, st->bytes / 1024.0,
                          st->n_superseded, st->n_exports, st->export_bytes / 1024.0,
                          st->compute_s * 1e3, st->transfer_s * 1e3);
}

char *
xrlab_engine_format_stats (XrlabEngine *self)
{
  EngineShared *shared;
  GString *s = g_string_new (NULL);
  g_autoptr(GList) names = NULL;

  g_return_val_if_fail (XRLAB_IS_ENGINE (self), NULL);

  shared = self->shared;
  g_mutex_lock (&shared->mutex);
  names = g_list_sort (g_hash_table_get_keys (shared->consumers), (GCompareFunc) strcmp);
  for (GList *l = names; l != NULL; l = l->next)
    {
      ConsumerStats *cs = g_hash_table_lookup (shared->consumers, l->data);
      format_stats_line (s, l->data, &cs->stats);
    }
  format_stats_line (s, "total", &shared->totals);
  g_mutex_unlock (&shared->mutex);
  return g_string_free (s, FALSE);
}

void
xrlab_engine_reset_stats (XrlabEngine *self)
{
  EngineShared *shared;

  g_return_if_fail (XRLAB_IS_ENGINE (self));
  shared = self->shared;
  g_mutex_lock (&shared->mutex);
  g_hash_table_remove_all (shared->consumers);
  memset (&shared->totals, 0, sizeof shared->totals);
  g_mutex_unlock (&shared->mutex);
}

/* ==== the worker thread ====================================================
 * Everything below runs on the engine thread only. */

typedef struct {
  guint             id;
  char             *name;
  /* The current input, as last edited. */
  char             *formula_text;
  double            density_g_cm3;
  double            thickness_um;
  /* A valid input not yet computed. */
  XrlabFormula     *pending_formula;
  double            pending_density;
  double            pending_thickness;
  gboolean          pending;
  /* The last valid input and its values on the current grid. */
  XrlabFormula     *formula;
  double            good_density;
  double            good_thickness;
  double           *values;         /* XRLAB_QUANTITY_N × n_e, or NULL */
  /* Why the current input has no current values (NULL when it has). */
  GError           *error;
} Material;

typedef struct {
  EngineShared     *shared;
  GPtrArray        *materials;      /* Material*, in list order */
  GHashTable       *by_id;          /* id -> Material* */
  XrlabEnergyGrid  *grid;
  XrlabOpticsCache *cache;          /* on grid */
  XrlabOpticsCache *batch_caches[N_BATCH_CACHES];  /* most recent first */
} EngineState;

static void
material_free (Material *m)
{
  g_free (m->name);
  g_free (m->formula_text);
  g_clear_pointer (&m->pending_formula, xrlab_formula_unref);
  g_clear_pointer (&m->formula, xrlab_formula_unref);
  g_free (m->values);
  g_clear_error (&m->error);
  g_free (m);
}

static void
engine_state_free (EngineState *state)
{
  g_ptr_array_unref (state->materials);
  g_hash_table_unref (state->by_id);
  g_clear_pointer (&state->cache, xrlab_optics_cache_free);
  for (int i = 0; i < N_BATCH_CACHES; i++)
    g_clear_pointer (&state->batch_caches[i], xrlab_optics_cache_free);
  g_clear_pointer (&state->grid, xrlab_energy_grid_unref);
  engine_shared_unref (state->shared);
  g_free (state);
}

/* Takes the new input of a material. A valid input becomes pending (computed
 * once all waiting edits are applied); an invalid one sets the error and
 * leaves the last valid state alone. */
static void
material_apply (Material *m, const XrlabMaterialSpec *spec)
{
  g_autoptr(XrlabFormula) formula = NULL;
  GError *error = NULL;

  g_free (m->name);
  m->name = g_strdup (spec->name);

  if (m->formula_text != NULL && spec->formula != NULL
      && strcmp (m->formula_text, spec->formula) == 0
      && m->density_g_cm3 == spec->density_g_cm3
      && m->thickness_um == spec->thickness_um)
    return;  /* nothing changed */

  g_free (m->formula_text);
  m->formula_text = g_strdup (spec->formula ? spec->formula : "");
  m->density_g_cm3 = spec->density_g_cm3;
  m->thickness_um = spec->thickness_um;
  g_clear_pointer (&m->pending_formula, xrlab_formula_unref);
  m->pending = FALSE;
  g_clear_error (&m->error);

  /* The same formula as the valid one: no need to parse again. */
  if (m->formula != NULL && strcmp (xrlab_formula_get_text (m->formula), m->formula_text) == 0)
    formula = xrlab_formula_ref (m->formula);
  else
    formula = xrlab_formula_parse (m->formula_text, &error);

  /* A material of the list always has a thickness (its transmission is
   * computed with the rest). */
  if (formula == NULL
      || !xrlab_optics_check_material (&(XrlabOpticsMaterial) { formula, spec->density_g_cm3,
                                                                spec->thickness_um },
                                       XRLAB_QUANTITY_MASK_ALL, &error))
    {
      m->error = error;
      return;
    }
  if (m->formula == formula && m->values != NULL
      && m->good_density == spec->density_g_cm3 && m->good_thickness == spec->thickness_um)
    return;  /* back to the valid state */

  m->pending_formula = g_steal_pointer (&formula);
  m->pending_density = spec->density_g_cm3;
  m->pending_thickness = spec->thickness_um;
  m->pending = TRUE;
}

/* Computes every quantity of @formula on the grid into a new block; NULL with
 * @error when it cannot. */
static double *
compute_all (EngineState *state, XrlabFormula *formula, double density, double thickness,
             GError **error)
{
  gsize n_e = xrlab_energy_grid_get_size (state->grid);
  double *block = g_new (double, XRLAB_QUANTITY_N * MAX (n_e, 1));
  double *out[XRLAB_QUANTITY_N];
  XrlabOpticsMaterial material = { formula, density, thickness };

  for (int q = 0; q < XRLAB_QUANTITY_N; q++)
    out[q] = block + (gsize) q * n_e;
  if (!xrlab_optics_compute (state->cache, &material, XRLAB_QUANTITY_MASK_ALL, out, error))
    {
      g_free (block);
      return NULL;
    }
  return block;
}

/* Computes the pending input of every material (after a burst of edits,
 * once), or everything when @all (a new grid). Returns the time taken. */
static double
compute_pending (EngineState *state, gboolean all)
{
  double t0 = xrlab_now ();

  if (state->grid == NULL)
    return 0.0;

  for (guint i = 0; i < state->materials->len; i++)
    {
      Material *m = g_ptr_array_index (state->materials, i);
      GError *error = NULL;
      double *values;

      if (m->pending)
        {
          values = compute_all (state, m->pending_formula, m->pending_density,
                                m->pending_thickness, &error);
          if (values != NULL)
            {
              g_free (m->values);
              m->values = values;
              g_clear_pointer (&m->formula, xrlab_formula_unref);
              m->formula = g_steal_pointer (&m->pending_formula);
              m->good_density = m->pending_density;
              m->good_thickness = m->pending_thickness;
              g_clear_error (&m->error);
            }
          else
            {
              g_clear_pointer (&m->pending_formula, xrlab_formula_unref);
              g_clear_error (&m->error);
              m->error = error;
            }
          m->pending = FALSE;
        }
      else if (all && m->formula != NULL)
        {
          g_clear_pointer (&m->values, g_free);
          values = compute_all (state, m->formula, m->good_density, m->good_thickness, &error);
          if (values != NULL)
            m->values = values;
          else if (m->error == NULL)
            m->error = error;
          else
            g_clear_error (&error);
        }
    }
  return xrlab_now () - t0;
}

static void
error_free0 (gpointer error)
{
  if (error != NULL)
    g_error_free (error);
}

static GError *
material_error_copy (Material *m)
{
  return m->error != NULL ? g_error_copy (m->error) : NULL;
}

static void
apply_set_materials (EngineState *state, Request *req)
{
  GPtrArray *materials = g_ptr_array_new_with_free_func ((GDestroyNotify) material_free);
  GHashTable *by_id = g_hash_table_new (NULL, NULL);

  for (gsize i = 0; i < req->n_specs; i++)
    {
      const XrlabMaterialSpec *spec = &req->specs[i];
      Material *m = g_hash_table_lookup (state->by_id, GUINT_TO_POINTER (spec->id));

      if (m != NULL)
        {
          /* Move it over, keeping its state. */
          g_hash_table_remove (state->by_id, GUINT_TO_POINTER (spec->id));
          g_ptr_array_set_free_func (state->materials, NULL);
          g_ptr_array_remove_fast (state->materials, m);
          g_ptr_array_set_free_func (state->materials, (GDestroyNotify) material_free);
        }
      else
        {
          m = g_new0 (Material, 1);
          m->id = spec->id;
        }
      material_apply (m, spec);
      g_ptr_array_add (materials, m);
      g_hash_table_insert (by_id, GUINT_TO_POINTER (m->id), m);
    }
  g_ptr_array_unref (state->materials);
  g_hash_table_unref (state->by_id);
  state->materials = materials;
  state->by_id = by_id;
}

static void
apply_update_material (EngineState *state, Request *req)
{
  const XrlabMaterialSpec *spec = &req->specs[0];
  Material *m = g_hash_table_lookup (state->by_id, GUINT_TO_POINTER (spec->id));

  if (m == NULL)
    {
      m = g_new0 (Material, 1);
      m->id = spec->id;
      g_ptr_array_add (state->materials, m);
      g_hash_table_insert (state->by_id, GUINT_TO_POINTER (m->id), m);
    }
  material_apply (m, spec);
}

static gboolean
grids_equal (XrlabEnergyGrid *a, XrlabEnergyGrid *b)
{
  gsize n = xrlab_energy_grid_get_size (a);

  if (a == b)
    return TRUE;
  return n == xrlab_energy_grid_get_size (b)
         && memcmp (xrlab_energy_grid_get_energies_kev (a),
                    xrlab_energy_grid_get_energies_kev (b), n * sizeof (double)) == 0;
}

static void
apply_set_grid (EngineState *state, Request *req)
{
  if (state->grid != NULL)
    {
      /* Keep the old grid's cache for batches: the user may switch back. */
      XrlabOpticsCache *old = g_steal_pointer (&state->cache);
      g_clear_pointer (&state->batch_caches[N_BATCH_CACHES - 1], xrlab_optics_cache_free);
      memmove (&state->batch_caches[1], &state->batch_caches[0],
               (N_BATCH_CACHES - 1) * sizeof state->batch_caches[0]);
      state->batch_caches[0] = old;
      xrlab_energy_grid_unref (state->grid);
    }
  state->grid = xrlab_energy_grid_ref (req->grid);
  state->cache = NULL;
  /* A cache of an earlier batch may be on the same grid. */
  for (int i = 0; i < N_BATCH_CACHES; i++)
    {
      XrlabOpticsCache *c = state->batch_caches[i];
      if (c != NULL && grids_equal (xrlab_optics_cache_get_grid (c), state->grid))
        {
          state->cache = c;
          state->batch_caches[i] = NULL;
          break;
        }
    }
  if (state->cache == NULL)
    state->cache = xrlab_optics_cache_new (state->grid);
  /* The GUI's material list is small: compute on this thread. */
  xrlab_optics_cache_set_n_threads (state->cache, 1);
}

/* ---- fetches ----------------------------------------------------------- */

static gsize
align8 (gsize n)
{
  return (n + 7) & ~(gsize) 7;
}

/* Resolves the ids of a request into materials; NULL with @error for an id
 * that is not in the list. */
static GPtrArray *
resolve_ids (EngineState *state, Request *req, GError **error)
{
  GPtrArray *list = g_ptr_array_new ();

  if (req->ids == NULL)
    {
      for (guint i = 0; i < state->materials->len; i++)
        g_ptr_array_add (list, g_ptr_array_index (state->materials, i));
      return list;
    }
  for (gsize i = 0; i < req->n_ids; i++)
    {
      Material *m = g_hash_table_lookup (state->by_id, GUINT_TO_POINTER (req->ids[i]));
      if (m == NULL)
        {
          g_set_error (error, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_NO_MATERIAL,
                       "no material with id %u", req->ids[i]);
          g_ptr_array_unref (list);
          return NULL;
        }
      g_ptr_array_add (list, m);
    }
  return list;
}

/* Allocates the reply of a fetch for @n_m materials, @n_e energies and the
 * quantities of @mask, with room for the messages of @materials. */
static XrlabEngineArrays *
arrays_alloc (GPtrArray *materials, gsize n_e, XrlabQuantityMask mask, gsize *payload_bytes)
{
  gsize n_m = materials->len;
  gsize n_q = xrlab_quantity_mask_count (mask);
  gsize off_energies = align8 (sizeof (XrlabEngineArrays));
  gsize off_values = off_energies + n_e * sizeof (double);
  gsize off_ids = off_values + n_m * n_q * n_e * sizeof (double);
  gsize off_status = off_ids + n_m * sizeof (guint);
  gsize off_messages = align8 (off_status + n_m);
  gsize off_strings = off_messages + n_m * sizeof (char *);
  gsize size = off_strings;
  XrlabEngineArrays *a;
  char *base;
  char *strings;
  guint8 *status;
  const char **messages;
  guint *ids;

  for (guint i = 0; i < n_m; i++)
    {
      Material *m = g_ptr_array_index (materials, i);
      if (m->error != NULL)
        size += strlen (m->error->message) + 1;
    }

  base = g_malloc (size);
  a = (XrlabEngineArrays *) base;
  memset (a, 0, sizeof *a);
  a->n_energies = n_e;
  a->n_materials = n_m;
  a->n_quantities = n_q;
  for (int q = 0, k = 0; q < XRLAB_QUANTITY_N; q++)
    if (mask & XRLAB_QUANTITY_BIT (q))
      a->quantities[k++] = q;
  a->energies_kev = (const double *) (base + off_energies);
  a->values = (const double *) (base + off_values);
  ids = (guint *) (base + off_ids);
  status = (guint8 *) (base + off_status);
  messages = (const char **) (base + off_messages);
  strings = base + off_strings;
  for (guint i = 0; i < n_m; i++)
    {
      Material *m = g_ptr_array_index (materials, i);
      ids[i] = m->id;
      messages[i] = NULL;
      if (m->error != NULL)
        {
          gsize len = strlen (m->error->message) + 1;
          memcpy (strings, m->error->message, len);
          messages[i] = strings;
          strings += len;
        }
    }
  a->ids = ids;
  a->status = status;
  a->messages = messages;
  *payload_bytes = (n_e + n_m * n_q * n_e) * sizeof (double);
  return a;
}

static void
print_transfer (EngineState *state, const char *consumer, const XrlabEngineStats *delta)
{
  if (!state->shared->print_stats)
    return;
  g_printerr ("xrlab engine: transfer to %s: %" G_GUINT64_FORMAT " bytes, compute %.3f ms, "
              "transfer %.3f ms\n", consumer, delta->bytes, delta->compute_s * 1e3,
              delta->transfer_s * 1e3);
}

/* TRUE (and the request answered) when a newer edit is waiting. */
static gboolean
supersede_if_stale (EngineState *state, Request *req)
{
  if (atomic_load (&state->shared->submitted_generation)
      <= atomic_load (&state->shared->applied_generation))
    return FALSE;
  {
    XrlabEngineStats delta = { .n_requests = 1, .n_superseded = 1 };
    account (state->shared, req->consumer, &delta);
  }
  g_task_return_new_error (req->task, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_SUPERSEDED,
                           "superseded by a newer edit");
  return TRUE;
}

static void
serve_fetch (EngineState *state, Request *req)
{
  double t0 = xrlab_now ();
  g_autoptr(GPtrArray) materials = NULL;
  GError *error = NULL;
  XrlabEngineArrays *a;
  XrlabEngineStats delta = { .n_requests = 1, .n_transfers = 1 };
  gsize n_e, bytes;
  double *values;
  guint8 *status;

  if (supersede_if_stale (state, req))
    return;
  if (state->grid == NULL)
    {
      g_task_return_new_error (req->task, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_NO_GRID,
                               _("No energy range has been set"));
      return;
    }
  materials = resolve_ids (state, req, &error);
  if (materials == NULL)
    {
      g_task_return_error (req->task, error);
      return;
    }

  n_e = xrlab_energy_grid_get_size (state->grid);
  a = arrays_alloc (materials, n_e, req->quantities, &bytes);
  a->generation = atomic_load (&state->shared->applied_generation);
  memcpy ((double *) a->energies_kev, xrlab_energy_grid_get_energies_kev (state->grid),
          n_e * sizeof (double));
  values = (double *) a->values;
  status = (guint8 *) a->status;
  for (gsize i = 0; i < a->n_materials; i++)
    {
      Material *m = g_ptr_array_index (materials, i);

      status[i] = m->values == NULL ? XRLAB_ENGINE_VALUES_NONE
                  : m->error != NULL ? XRLAB_ENGINE_VALUES_STALE
                  : XRLAB_ENGINE_VALUES_CURRENT;
      for (gsize q = 0; q < a->n_quantities; q++)
        {
          double *dst = values + (i * a->n_quantities + q) * n_e;
          if (m->values != NULL)
            memcpy (dst, m->values + (gsize) a->quantities[q] * n_e, n_e * sizeof (double));
          else
            for (gsize e = 0; e < n_e; e++)
              dst[e] = NAN;
        }
    }
  delta.bytes = bytes;
  delta.transfer_s = xrlab_now () - t0;
  account (state->shared, req->consumer, &delta);
  print_transfer (state, req->consumer, &delta);
  g_task_return_pointer (req->task, a, g_free);
}

static void
serve_fetch_at (EngineState *state, Request *req)
{
  double t0 = xrlab_now ();
  g_autoptr(GPtrArray) materials = NULL;
  GError *error = NULL;
  XrlabEngineArrays *a;
  XrlabEngineStats delta = { .n_requests = 1, .n_transfers = 1 };
  gsize bytes;
  double *values;
  guint8 *status;
  double t1;

  if (supersede_if_stale (state, req))
    return;
  if (!isfinite (req->energy_kev) || req->energy_kev <= 0.0)
    {
      g_task_return_new_error (req->task, XRLAB_OPTICS_ERROR, XRLAB_OPTICS_ERROR_ENERGY,
                               _("The energy must be a positive number of keV, not %g"),
                               req->energy_kev);
      return;
    }
  materials = resolve_ids (state, req, &error);
  if (materials == NULL)
    {
      g_task_return_error (req->task, error);
      return;
    }

  a = arrays_alloc (materials, 1, req->quantities, &bytes);
  a->generation = atomic_load (&state->shared->applied_generation);
  *(double *) a->energies_kev = req->energy_kev;
  values = (double *) a->values;
  status = (guint8 *) a->status;
  for (gsize i = 0; i < a->n_materials; i++)
    {
      Material *m = g_ptr_array_index (materials, i);
      double point[XRLAB_QUANTITY_N];
      gboolean ok = FALSE;

      if (m->formula != NULL)
        {
          XrlabOpticsMaterial om = { m->formula, m->good_density, m->good_thickness };
          g_autoptr(GError) point_error = NULL;
          ok = xrlab_optics_compute_point (&om, req->energy_kev, req->quantities, point,
                                           &point_error);
          if (!ok && i == 0 && a->n_materials == 1)
            {
              /* One material and it fails: say why. */
              g_free (a);
              g_task_return_error (req->task, g_steal_pointer (&point_error));
              return;
            }
        }
      status[i] = !ok ? XRLAB_ENGINE_VALUES_NONE
                  : m->error != NULL ? XRLAB_ENGINE_VALUES_STALE
                  : XRLAB_ENGINE_VALUES_CURRENT;
      for (gsize q = 0; q < a->n_quantities; q++)
        values[i * a->n_quantities + q] = ok ? point[a->quantities[q]] : NAN;
    }
  t1 = xrlab_now ();
  delta.bytes = bytes;
  delta.compute_s = t1 - t0;
  account (state->shared, req->consumer, &delta);
  print_transfer (state, req->consumer, &delta);
  g_task_return_pointer (req->task, a, g_free);
}

/* ---- exports ------------------------------------------------------------ */

static const char *
material_label (Material *m)
{
  return (m->name != NULL && *m->name != '\0') ? m->name : m->formula_text;
}

static void
serve_export (EngineState *state, Request *req)
{
  double t0 = xrlab_now ();
  g_autoptr(GPtrArray) materials = NULL;
  GError *error = NULL;
  XrlabAtomicFile *af;
  FILE *f;
  gsize n_e;
  const double *energies;
  char buf[XRLAB_DTOA_BUFSIZE];
  XrlabEngineStats delta = { .n_requests = 1, .n_exports = 1 };
  XrlabQuantityMask per_material = req->quantities & ~XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_WAVELENGTH);
  gboolean wavelength = (req->quantities & XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_WAVELENGTH)) != 0;
  long size;

  if (state->grid == NULL)
    {
      g_task_return_new_error (req->task, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_NO_GRID,
                               _("No energy range has been set"));
      return;
    }
  materials = resolve_ids (state, req, &error);
  if (materials == NULL)
    {
      g_task_return_error (req->task, error);
      return;
    }
  for (guint i = 0; i < materials->len; i++)
    {
      Material *m = g_ptr_array_index (materials, i);
      if (m->values == NULL)
        {
          g_task_return_new_error (req->task, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_INVALID,
                                   _("“%s” has no valid values to export: %s"),
                                   material_label (m),
                                   m->error ? m->error->message : _("no input"));
          return;
        }
    }

  af = xrlab_atomic_file_open (req->path, &error);
  if (af == NULL)
    {
      g_task_return_error (req->task, error);
      return;
    }
  f = xrlab_atomic_file_stream (af);
  n_e = xrlab_energy_grid_get_size (state->grid);
  energies = xrlab_energy_grid_get_energies_kev (state->grid);

  fprintf (f, "# xrlab %s: X-ray optical constants from the Henke/CXRO atomic scattering factors\n",
           PACKAGE_VERSION);
  for (guint i = 0; i < materials->len; i++)
    {
      Material *m = g_ptr_array_index (materials, i);
      fprintf (f, "# %s: formula %s, density %s g/cm3", material_label (m),
               xrlab_formula_get_text (m->formula), xrlab_format_double (m->good_density, buf));
      fprintf (f, ", thickness %s um%s\n", xrlab_format_double (m->good_thickness, buf),
               m->error ? " (the current input is not valid; these are the last valid values)" : "");
    }
  fputs ("energy_keV", f);
  if (wavelength)
    fputs (",wavelength_A", f);
  for (guint i = 0; i < materials->len; i++)
    {
      Material *m = g_ptr_array_index (materials, i);
      for (int q = 0; q < XRLAB_QUANTITY_N; q++)
        if (per_material & XRLAB_QUANTITY_BIT (q))
          {
            g_autofree char *col = g_strdup_printf ("%s:%s", material_label (m),
                                                    xrlab_quantity_get_column (q));
            g_autoptr(GString) field = g_string_new (NULL);
            xrlab_csv_append_field (field, col);
            fputc (',', f);
            fputs (field->str, f);
          }
    }
  fputc ('\n', f);

  for (gsize e = 0; e < n_e; e++)
    {
      if (e % 4096 == 0 && g_cancellable_is_cancelled (g_task_get_cancellable (req->task)))
        {
          xrlab_atomic_file_abort (af);
          g_task_return_new_error (req->task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                   _("The export was cancelled"));
          return;
        }
      fputs (xrlab_format_double (energies[e], buf), f);
      if (wavelength)
        {
          Material *m0 = materials->len > 0 ? g_ptr_array_index (materials, 0) : NULL;
          fputc (',', f);
          fputs (xrlab_format_double (m0 ? m0->values[XRLAB_QUANTITY_WAVELENGTH * n_e + e]
                                         : xrlab_kev_to_angstrom (energies[e]), buf), f);
        }
      for (guint i = 0; i < materials->len; i++)
        {
          Material *m = g_ptr_array_index (materials, i);
          for (int q = 0; q < XRLAB_QUANTITY_N; q++)
            if (per_material & XRLAB_QUANTITY_BIT (q))
              {
                fputc (',', f);
                fputs (xrlab_format_double (m->values[(gsize) q * n_e + e], buf), f);
              }
        }
      fputc ('\n', f);
    }
  size = ftell (f);
  if (!xrlab_atomic_file_commit (af, &error))
    {
      g_task_return_error (req->task, error);
      return;
    }
  delta.export_bytes = size > 0 ? (guint64) size : 0;
  delta.transfer_s = xrlab_now () - t0;
  account (state->shared, req->consumer, &delta);
  g_task_return_boolean (req->task, TRUE);
}

/* ---- batches ------------------------------------------------------------- */

static gboolean
progress_idle (gpointer data)
{
  BatchProgress *p = data;

  atomic_store (&p->pending, 0);
  if (!atomic_load (&p->finished))
    p->func (atomic_load (&p->done), p->total, p->data);
  return G_SOURCE_REMOVE;
}

static void
batch_progress_cb (gsize done, gsize total, gpointer data)
{
  BatchProgress *p = data;
  double now = xrlab_now ();
  GSource *source;

  atomic_store (&p->done, done);
  if (now - p->last_report < 0.05 || atomic_exchange (&p->pending, 1))
    return;
  p->last_report = now;
  source = g_idle_source_new ();
  g_source_set_callback (source, progress_idle, batch_progress_ref (p),
                         (GDestroyNotify) batch_progress_unref);
  g_source_attach (source, p->context);
  g_source_unref (source);
}

/* A cache on @grid: the GUI's one, a kept one (moved to the front), or new. */
static XrlabOpticsCache *
batch_cache_for (EngineState *state, XrlabEnergyGrid *grid)
{
  XrlabOpticsCache *cache = NULL;
  int i;

  if (state->cache != NULL && grids_equal (state->grid, grid))
    return state->cache;
  for (i = 0; i < N_BATCH_CACHES; i++)
    if (state->batch_caches[i] != NULL
        && grids_equal (xrlab_optics_cache_get_grid (state->batch_caches[i]), grid))
      {
        cache = state->batch_caches[i];
        break;
      }
  if (cache == NULL)
    {
      i = N_BATCH_CACHES - 1;
      g_clear_pointer (&state->batch_caches[i], xrlab_optics_cache_free);
      cache = xrlab_optics_cache_new (grid);
    }
  memmove (&state->batch_caches[1], &state->batch_caches[0], i * sizeof state->batch_caches[0]);
  state->batch_caches[0] = cache;
  return cache;
}

static void
cancel_busy (GCancellable *cancellable, gpointer data)
{
  g_cancellable_cancel (G_CANCELLABLE (data));
}

static void
serve_batch (EngineState *state, Request *req)
{
  double t0 = xrlab_now ();
  gsize n_m = req->n_specs;
  gsize n_e = xrlab_energy_grid_get_size (req->grid);
  gsize n_q = xrlab_quantity_mask_count (req->quantities);
  gsize block = n_q * n_e;
  gsize off_energies = align8 (sizeof (XrlabEngineBatch));
  gsize off_scalars = off_energies + n_e * sizeof (double);
  gsize off_errors = off_scalars + 3 * n_m * sizeof (double);
  gsize off_values = align8 (off_errors + n_m * sizeof (GError *));
  gsize size = off_values + n_m * block * sizeof (double);
  char *base;
  XrlabEngineBatch *batch;
  double *mw, *electrons, *edens;
  XrlabFormula **formulas;
  XrlabOpticsMaterial *om;
  gsize *index;
  GError **om_errors;
  gsize n_ok = 0;
  XrlabOpticsCache *cache;
  GCancellable *busy;
  gulong handler = 0;
  GCancellable *user = g_task_get_cancellable (req->task);
  GError *error = NULL;
  gboolean ok;
  XrlabEngineStats delta = { .n_requests = 1 };

  if (n_q == 0)
    {
      g_task_return_new_error (req->task, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_INVALID,
                               _("No quantity was asked for"));
      return;
    }
  base = g_try_malloc (size);
  if (base == NULL)
    {
      g_autofree char *materials = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%zu material",
                                                                 "%zu materials", n_m), n_m);
      g_autofree char *energies = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%zu energy",
                                                                "%zu energies", n_e), n_e);

      /* TRANSLATORS: "%zu materials" × "%zu energies" */
      g_task_return_new_error (req->task, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_INVALID,
                               _("Not enough memory for %s × %s"), materials, energies);
      return;
    }
  batch = (XrlabEngineBatch *) base;
  memset (batch, 0, sizeof *batch);
  batch->n_materials = n_m;
  batch->n_energies = n_e;
  batch->n_quantities = n_q;
  batch->quantities = req->quantities;
  batch->energies_kev = (const double *) (base + off_energies);
  memcpy ((double *) batch->energies_kev, xrlab_energy_grid_get_energies_kev (req->grid),
          n_e * sizeof (double));
  mw = (double *) (base + off_scalars);
  electrons = mw + n_m;
  edens = electrons + n_m;
  batch->molecular_weight_g_mol = mw;
  batch->electrons = electrons;
  batch->electron_density_per_a3 = edens;
  batch->errors = (GError **) (base + off_errors);
  memset (batch->errors, 0, n_m * sizeof (GError *));
  batch->values = (double *) (base + off_values);

  /* Parse every formula; the good ones go to the optics batch, packed. */
  formulas = g_new0 (XrlabFormula *, MAX (n_m, 1));
  om = g_new (XrlabOpticsMaterial, MAX (n_m, 1));
  index = g_new (gsize, MAX (n_m, 1));
  om_errors = g_new0 (GError *, MAX (n_m, 1));
  for (gsize m = 0; m < n_m; m++)
    {
      const XrlabMaterialSpec *spec = &req->specs[m];

      mw[m] = electrons[m] = edens[m] = NAN;
      formulas[m] = xrlab_formula_parse (spec->formula ? spec->formula : "", &batch->errors[m]);
      if (formulas[m] == NULL)
        continue;
      om[n_ok].formula = formulas[m];
      om[n_ok].density_g_cm3 = spec->density_g_cm3;
      om[n_ok].thickness_um = spec->thickness_um;
      /* A material always comes with a thickness, checked as in the list. */
      if (!xrlab_optics_check_material (&om[n_ok], XRLAB_QUANTITY_MASK_ALL, &batch->errors[m]))
        continue;
      index[n_ok] = m;
      n_ok++;
    }

  cache = batch_cache_for (state, req->grid);
  xrlab_optics_cache_set_n_threads (cache, 0);

  busy = g_cancellable_new ();
  if (user != NULL)
    handler = g_cancellable_connect (user, G_CALLBACK (cancel_busy), g_object_ref (busy),
                                     g_object_unref);
  g_mutex_lock (&state->shared->mutex);
  g_set_object (&state->shared->busy, busy);
  if (atomic_load (&state->shared->shut_down))
    g_cancellable_cancel (busy);
  g_mutex_unlock (&state->shared->mutex);

  ok = xrlab_optics_batch (cache, om, n_ok, req->quantities, batch->values, om_errors,
                           req->progress ? batch_progress_cb : NULL, req->progress,
                           busy, &error);

  g_mutex_lock (&state->shared->mutex);
  g_clear_object (&state->shared->busy);
  g_mutex_unlock (&state->shared->mutex);
  if (handler != 0)
    g_cancellable_disconnect (user, handler);
  g_object_unref (busy);
  if (cache == state->cache)
    xrlab_optics_cache_set_n_threads (cache, 1);

  if (req->progress != NULL)
    atomic_store (&req->progress->finished, 1);

  if (ok)
    {
      /* Spread the packed blocks to their materials, from the back so that
       * nothing is overwritten before it is moved; failed ones are NaN. */
      gsize k = n_ok;
      for (gsize m = n_m; m-- > 0;)
        {
          double *dst = batch->values + m * block;
          if (k > 0 && index[k - 1] == m)
            {
              k--;
              if (om_errors[k] != NULL)
                {
                  batch->errors[m] = om_errors[k];
                  om_errors[k] = NULL;
                  for (gsize j = 0; j < block; j++)
                    dst[j] = NAN;
                  continue;
                }
              if (k != m)
                memmove (dst, batch->values + k * block, block * sizeof (double));
              mw[m] = xrlab_formula_get_molecular_weight (formulas[m]);
              electrons[m] = xrlab_formula_get_electrons (formulas[m]);
              edens[m] = xrlab_optics_electron_density (formulas[m], req->specs[m].density_g_cm3);
            }
          else
            for (gsize j = 0; j < block; j++)
              dst[j] = NAN;
        }
    }

  for (gsize m = 0; m < n_m; m++)
    g_clear_pointer (&formulas[m], xrlab_formula_unref);
  for (gsize k = 0; k < n_ok; k++)
    g_clear_error (&om_errors[k]);
  g_free (formulas);
  g_free (om);
  g_free (index);
  g_free (om_errors);

  delta.compute_s = xrlab_now () - t0;
  if (!ok)
    {
      xrlab_engine_batch_free (batch);
      account (state->shared, req->consumer, &delta);
      if (atomic_load (&state->shared->shut_down) && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_clear_error (&error);
          g_set_error_literal (&error, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_SHUT_DOWN,
                               _("The computation engine has been shut down"));
        }
      g_task_return_error (req->task, error);
      return;
    }
  delta.n_transfers = 1;
  delta.bytes = (n_e + 3 * n_m + n_m * block) * sizeof (double);
  account (state->shared, req->consumer, &delta);
  print_transfer (state, req->consumer, &delta);
  g_task_return_pointer (req->task, batch, (GDestroyNotify) xrlab_engine_batch_free);
}

/* ---- the loop ------------------------------------------------------------ */

static gboolean
request_cancelled (Request *req)
{
  GCancellable *c = g_task_get_cancellable (req->task);
  GError *error = NULL;

  if (g_cancellable_set_error_if_cancelled (c, &error))
    {
      g_task_return_error (req->task, error);
      return TRUE;
    }
  return FALSE;
}

static gboolean
is_edit (Request *req)
{
  return req->kind == REQUEST_SET_MATERIALS || req->kind == REQUEST_UPDATE_MATERIAL
         || req->kind == REQUEST_SET_GRID;
}

/* Handles every request that was waiting at once: first the edits in order,
 * then one computation of the new state, then the replies to the edits,
 * then the fetches (the last of each consumer), exports and batches. */
static gboolean
process (EngineState *state, GPtrArray *requests)
{
  gboolean quit = FALSE;
  gboolean new_grid = FALSE;
  guint64 newest = 0;
  XrlabEngineStats delta = { 0 };

  for (guint i = 0; i < requests->len; i++)
    {
      Request *req = g_ptr_array_index (requests, i);

      if (req->kind == REQUEST_QUIT)
        {
          quit = TRUE;
          continue;
        }
      if (!is_edit (req))
        continue;
      /* An edit always applies (later edits build on it), even when its
       * caller has cancelled the reply. */
      switch (req->kind)
        {
        case REQUEST_SET_MATERIALS: apply_set_materials (state, req); break;
        case REQUEST_UPDATE_MATERIAL: apply_update_material (state, req); break;
        case REQUEST_SET_GRID: apply_set_grid (state, req); new_grid = TRUE; break;
        default: g_assert_not_reached ();
        }
      newest = MAX (newest, req->generation);
    }

  if (newest != 0)
    {
      delta.compute_s = compute_pending (state, new_grid);
      account (state->shared, NULL, &delta);
      atomic_store (&state->shared->applied_generation, newest);
    }

  /* Replies to the edits. */
  for (guint i = 0; i < requests->len; i++)
    {
      Request *req = g_ptr_array_index (requests, i);

      if (!is_edit (req) || request_cancelled (req))
        continue;
      if (req->kind == REQUEST_SET_MATERIALS)
        {
          GPtrArray *errors = g_ptr_array_new_full (req->n_specs, error_free0);
          for (gsize k = 0; k < req->n_specs; k++)
            g_ptr_array_add (errors, material_error_copy (
                               g_hash_table_lookup (state->by_id,
                                                    GUINT_TO_POINTER (req->specs[k].id))));
          g_task_return_pointer (req->task, errors, (GDestroyNotify) g_ptr_array_unref);
        }
      else if (req->kind == REQUEST_UPDATE_MATERIAL)
        {
          guint id = req->specs[0].id;
          Material *m = g_hash_table_lookup (state->by_id, GUINT_TO_POINTER (id));

          if (material_superseded (state->shared, id, req->generation))
            g_task_return_new_error (req->task, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_SUPERSEDED,
                                     "superseded by a newer edit");
          else if (m == NULL)  /* a newer set_materials removed it */
            g_task_return_new_error (req->task, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_SUPERSEDED,
                                     "superseded by a newer edit");
          else if (m->error != NULL)
            g_task_return_error (req->task, g_error_copy (m->error));
          else
            g_task_return_boolean (req->task, TRUE);
        }
      else
        {
          /* The grid: say which materials it leaves without values. */
          GString *msg = NULL;
          for (guint k = 0; k < state->materials->len; k++)
            {
              Material *m = g_ptr_array_index (state->materials, k);
              if (m->formula != NULL && m->values == NULL && m->error != NULL)
                {
                  if (msg == NULL)
                    msg = g_string_new (NULL);
                  else
                    g_string_append (msg, "; ");
                  g_string_append_printf (msg, "%s: %s", material_label (m), m->error->message);
                }
            }
          if (msg != NULL)
            g_task_return_new_error (req->task, XRLAB_OPTICS_ERROR, XRLAB_OPTICS_ERROR_ENERGY,
                                     "%s", msg->str);
          else
            g_task_return_boolean (req->task, TRUE);
          if (msg != NULL)
            g_string_free (msg, TRUE);
        }
    }

  /* Fetches: only the last of each consumer is served. */
  for (guint i = 0; i < requests->len; i++)
    {
      Request *req = g_ptr_array_index (requests, i);
      gboolean later = FALSE;

      if (req->kind != REQUEST_FETCH && req->kind != REQUEST_FETCH_AT)
        continue;
      for (guint j = i + 1; j < requests->len && !later; j++)
        {
          Request *other = g_ptr_array_index (requests, j);
          later = other->kind == req->kind && strcmp (other->consumer, req->consumer) == 0;
        }
      if (later)
        {
          XrlabEngineStats sup = { .n_requests = 1, .n_superseded = 1 };
          account (state->shared, req->consumer, &sup);
          g_task_return_new_error (req->task, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_SUPERSEDED,
                                   "superseded by a newer fetch");
          continue;
        }
      if (request_cancelled (req))
        continue;
      if (req->kind == REQUEST_FETCH)
        serve_fetch (state, req);
      else
        serve_fetch_at (state, req);
    }

  for (guint i = 0; i < requests->len; i++)
    {
      Request *req = g_ptr_array_index (requests, i);

      if (req->kind != REQUEST_EXPORT && req->kind != REQUEST_BATCH)
        continue;
      if (atomic_load (&state->shared->shut_down))
        {
          g_task_return_new_error (req->task, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_SHUT_DOWN,
                                   _("The computation engine has been shut down"));
          continue;
        }
      if (request_cancelled (req))
        continue;
      if (req->kind == REQUEST_EXPORT)
        serve_export (state, req);
      else
        serve_batch (state, req);
    }
  return quit;
}

static gpointer
worker_main (gpointer data)
{
  EngineState *state = g_new0 (EngineState, 1);
  GPtrArray *requests = g_ptr_array_new_with_free_func ((GDestroyNotify) request_free);
  gboolean quit = FALSE;

  state->shared = data;
  state->materials = g_ptr_array_new_with_free_func ((GDestroyNotify) material_free);
  state->by_id = g_hash_table_new (NULL, NULL);

  while (!quit)
    {
      Request *req = g_async_queue_pop (state->shared->queue);

      do
        g_ptr_array_add (requests, req);
      while ((req = g_async_queue_try_pop (state->shared->queue)) != NULL);

      quit = process (state, requests);
      g_ptr_array_set_size (requests, 0);
    }

  /* Whatever came after the quit request. */
  {
    Request *req;
    while ((req = g_async_queue_try_pop (state->shared->queue)) != NULL)
      request_fail_shut_down (req);
  }
  g_ptr_array_unref (requests);
  engine_state_free (state);
  return NULL;
}
