/* xrlab-engine.c -- the engine's request core: the object, the worker and the
 * job lane, generations, accounting and shutdown
 *
 * The services (xrlab-engine-optics.c, -optics-fetch.c, -export.c,
 * -batch.c, ...) and the interface between them and this file are described
 * in xrlab-engine-private.h; progress marshalling is in
 * xrlab-engine-progress.c.
 *
 * Threads. The object (XrlabEngine) lives on the caller's side. The worker
 * ("xrlab-engine") runs worker_main() and owns every service's state; the job
 * lane ("xrlab-jobs") runs lane_main() and the `run` step of one job at a
 * time. They share an XrlabEngineShared: the two queues, the shutdown flag
 * and, under a mutex, the accounting, the generations of each service and
 * the cancellable of the running job. The worker starts the lane's work and
 * joins the lane when it stops; shutdown joins the worker.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-engine-private.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "xrlab-util.h"

G_DEFINE_QUARK (xrlab-engine-error-quark, xrlab_engine_error)

/* Where a request is. */
enum {
  STAGE_NEW,       /* submitted, not yet seen by the worker */
  STAGE_WAITING,   /* a job waiting for the lane */
  STAGE_RUNNING,   /* a job on the lane */
  STAGE_RAN,       /* a job back from the lane, to be finished */
};

/* Queue markers (never dereferenced). */
static XrlabRequest quit_marker;
static XrlabRequest lane_quit_marker;

/* ---- state shared by the object, the worker and the lane ------------------ */

typedef struct {
  guint64     submitted;
  guint64     applied;
  GHashTable *keys;       /* key -> newest edit generation (guint64*) */
} ServiceShared;

typedef struct {
  XrlabEngineStats stats;
} ConsumerStats;

struct _XrlabEngineShared {
  gatomicrefcount  ref_count;
  GAsyncQueue     *queue;        /* XrlabRequest*: to the worker */
  GAsyncQueue     *lane_queue;   /* XrlabRequest*: to the job lane */
  GThread         *lane;         /* joined by the worker */
  gint             shut_down;    /* atomic */
  gboolean         print_stats;

  GMutex           mutex;        /* guards everything below */
  GHashTable      *services;     /* XrlabEngineService* -> ServiceShared* */
  GHashTable      *consumers;    /* char* -> ConsumerStats* */
  XrlabEngineStats totals;
  GCancellable    *busy;         /* the running job's; cancelled by shutdown */
};

static XrlabEngineShared *
shared_ref (XrlabEngineShared *shared)
{
  g_atomic_ref_count_inc (&shared->ref_count);
  return shared;
}

static void
service_shared_free (gpointer data)
{
  ServiceShared *ss = data;

  g_hash_table_unref (ss->keys);
  g_free (ss);
}

static void
shared_unref (XrlabEngineShared *shared)
{
  if (!g_atomic_ref_count_dec (&shared->ref_count))
    return;
  g_async_queue_unref (shared->queue);
  g_async_queue_unref (shared->lane_queue);
  g_hash_table_unref (shared->services);
  g_hash_table_unref (shared->consumers);
  g_clear_object (&shared->busy);
  g_mutex_clear (&shared->mutex);
  g_free (shared);
}

/* The generations of @service; with the mutex held. */
static ServiceShared *
service_shared_locked (XrlabEngineShared *shared, const XrlabEngineService *service)
{
  ServiceShared *ss = g_hash_table_lookup (shared->services, service);

  if (ss == NULL)
    {
      ss = g_new0 (ServiceShared, 1);
      ss->keys = g_hash_table_new_full (NULL, NULL, NULL, g_free);
      g_hash_table_insert (shared->services, (gpointer) service, ss);
    }
  return ss;
}

guint64
xrlab_engine_shared_get_generation (XrlabEngineShared *shared, const XrlabEngineService *service)
{
  guint64 generation;

  g_mutex_lock (&shared->mutex);
  generation = service_shared_locked (shared, service)->submitted;
  g_mutex_unlock (&shared->mutex);
  return generation;
}

guint64
xrlab_engine_shared_get_applied (XrlabEngineShared *shared, const XrlabEngineService *service)
{
  guint64 generation;

  g_mutex_lock (&shared->mutex);
  generation = service_shared_locked (shared, service)->applied;
  g_mutex_unlock (&shared->mutex);
  return generation;
}

static void
set_applied (XrlabEngineShared *shared, const XrlabEngineService *service, guint64 generation)
{
  g_mutex_lock (&shared->mutex);
  service_shared_locked (shared, service)->applied = generation;
  g_mutex_unlock (&shared->mutex);
}

gboolean
xrlab_engine_shared_key_superseded (XrlabEngineShared        *shared,
                                    const XrlabEngineService *service,
                                    guint                     key,
                                    guint64                   generation)
{
  guint64 *newest;
  gboolean superseded;

  g_mutex_lock (&shared->mutex);
  newest = g_hash_table_lookup (service_shared_locked (shared, service)->keys, GUINT_TO_POINTER (key));
  superseded = newest != NULL && *newest > generation;
  g_mutex_unlock (&shared->mutex);
  return superseded;
}

gboolean
xrlab_engine_shared_is_shut_down (XrlabEngineShared *shared)
{
  return g_atomic_int_get (&shared->shut_down) != 0;
}

static void
stats_add (XrlabEngineStats *t, const XrlabEngineStats *delta)
{
  t->n_requests += delta->n_requests;
  t->n_transfers += delta->n_transfers;
  t->bytes += delta->bytes;
  t->n_superseded += delta->n_superseded;
  t->n_exports += delta->n_exports;
  t->export_bytes += delta->export_bytes;
  t->compute_s += delta->compute_s;
  t->transfer_s += delta->transfer_s;
}

void
xrlab_engine_shared_account (XrlabEngineShared      *shared,
                             const char             *consumer,
                             const XrlabEngineStats *delta)
{
  g_mutex_lock (&shared->mutex);
  if (consumer != NULL)
    {
      ConsumerStats *cs = g_hash_table_lookup (shared->consumers, consumer);
      if (cs == NULL)
        {
          cs = g_new0 (ConsumerStats, 1);
          g_hash_table_insert (shared->consumers, g_strdup (consumer), cs);
        }
      stats_add (&cs->stats, delta);
    }
  stats_add (&shared->totals, delta);
  g_mutex_unlock (&shared->mutex);
}

void
xrlab_engine_shared_note_transfer (XrlabEngineShared      *shared,
                                   const char             *consumer,
                                   const XrlabEngineStats *delta)
{
  xrlab_engine_shared_account (shared, consumer, delta);
  if (shared->print_stats)
    g_printerr ("xrlab engine: transfer to %s: %" G_GUINT64_FORMAT " bytes, compute %.3f ms, "
                "transfer %.3f ms\n", consumer ? consumer : "-", delta->bytes,
                delta->compute_s * 1e3, delta->transfer_s * 1e3);
}

/* ---- the object -------------------------------------------------------------- */

struct _XrlabEngine {
  GObject            parent_instance;
  XrlabEngineShared *shared;
  GThread           *thread;
};

G_DEFINE_FINAL_TYPE (XrlabEngine, xrlab_engine, G_TYPE_OBJECT)

static gpointer worker_main (gpointer data);
static gpointer lane_main (gpointer data);

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

  shared_unref (self->shared);
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
  XrlabEngineShared *shared = g_new0 (XrlabEngineShared, 1);
  const char *env = g_getenv ("XRLAB_ENGINE_STATS");

  g_atomic_ref_count_init (&shared->ref_count);
  shared->queue = g_async_queue_new ();
  shared->lane_queue = g_async_queue_new ();
  shared->services = g_hash_table_new_full (NULL, NULL, NULL, service_shared_free);
  shared->consumers = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  shared->print_stats = env != NULL && *env != '\0' && strcmp (env, "0") != 0;
  g_mutex_init (&shared->mutex);
  self->shared = shared;
  shared->lane = g_thread_new ("xrlab-jobs", lane_main, shared_ref (shared));
  self->thread = g_thread_new ("xrlab-engine", worker_main, shared_ref (shared));
}

XrlabEngine *
xrlab_engine_new (void)
{
  return g_object_new (XRLAB_TYPE_ENGINE, NULL);
}

XrlabEngineShared *
xrlab_engine_get_shared (XrlabEngine *engine)
{
  return engine->shared;
}

static void
release (XrlabRequest *req)
{
  g_object_unref (req->task);   /* may free @req */
}

static void
answer_shut_down (XrlabRequest *req)
{
  xrlab_request_return_new_error (req, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_SHUT_DOWN,
                                  _("The computation engine has been shut down"));
}

void
xrlab_engine_shutdown (XrlabEngine *self)
{
  XrlabEngineShared *shared;
  XrlabRequest *req;

  g_return_if_fail (XRLAB_IS_ENGINE (self));

  shared = self->shared;
  if (self->thread == NULL)
    return;

  g_atomic_int_set (&shared->shut_down, 1);
  g_mutex_lock (&shared->mutex);
  if (shared->busy != NULL)
    g_cancellable_cancel (shared->busy);
  g_mutex_unlock (&shared->mutex);
  g_async_queue_push_front (shared->queue, &quit_marker);

  if (g_thread_self () == self->thread)
    {
      /* The worker dropped the last reference (a task of one of its
       * requests held it): it cannot join itself, so it finishes on its own
       * (joining the lane) and answers what is left. */
      g_thread_unref (self->thread);
      self->thread = NULL;
      return;
    }
  g_thread_join (self->thread);
  self->thread = NULL;

  /* The worker is gone: answer whatever it left in the queue. */
  while ((req = g_async_queue_try_pop (shared->queue)) != NULL)
    if (req != &quit_marker)
      {
        answer_shut_down (req);
        release (req);
      }

  if (shared->print_stats)
    {
      g_autofree char *text = xrlab_engine_format_stats (self);
      g_printerr ("xrlab engine statistics at shutdown:\n%s", text);
    }
}

/* ---- requests, on the caller's side ------------------------------------------ */

static void
request_free (gpointer data)
{
  XrlabRequest *req = data;

  if (req->payload != NULL && req->kind->payload_free != NULL)
    req->kind->payload_free (req->payload);
  g_free (req->consumer);
  g_clear_pointer (&req->progress, xrlab_engine_progress_unref);
  g_clear_object (&req->job_cancellable);
  shared_unref (req->shared);
  g_free (req);
}

XrlabRequest *
xrlab_request_new (XrlabEngine            *engine,
                   const XrlabRequestKind *kind,
                   gpointer                payload,
                   gpointer                source_tag,
                   GCancellable           *cancellable,
                   GAsyncReadyCallback     callback,
                   gpointer                user_data)
{
  XrlabRequest *req = g_new0 (XrlabRequest, 1);

  req->kind = kind;
  req->payload = payload;
  req->shared = shared_ref (engine->shared);
  req->generation = xrlab_engine_shared_get_generation (engine->shared, kind->service);
  req->task = g_task_new (engine, cancellable, callback, user_data);
  g_task_set_source_tag (req->task, source_tag);
  g_task_set_check_cancellable (req->task, FALSE);
  g_task_set_task_data (req->task, req, request_free);
  return req;
}

void
xrlab_request_set_consumer (XrlabRequest *req, const char *consumer)
{
  g_free (req->consumer);
  req->consumer = g_strdup (consumer);
}

void
xrlab_request_begin_edit (XrlabRequest *req, const guint *keys, gsize n_keys)
{
  XrlabEngineShared *shared = req->shared;
  ServiceShared *ss;

  g_mutex_lock (&shared->mutex);
  ss = service_shared_locked (shared, req->kind->service);
  req->generation = ++ss->submitted;
  for (gsize i = 0; i < n_keys; i++)
    {
      guint64 *gen = g_hash_table_lookup (ss->keys, GUINT_TO_POINTER (keys[i]));
      if (gen == NULL)
        {
          gen = g_new (guint64, 1);
          g_hash_table_insert (ss->keys, GUINT_TO_POINTER (keys[i]), gen);
        }
      *gen = req->generation;
    }
  g_mutex_unlock (&shared->mutex);
}

void
xrlab_request_submit (XrlabRequest *req)
{
  if (xrlab_engine_shared_is_shut_down (req->shared))
    {
      answer_shut_down (req);
      release (req);
      return;
    }
  req->stage = STAGE_NEW;
  g_async_queue_push (req->shared->queue, req);
}

void
xrlab_request_fail (XrlabRequest *req, GError *error)
{
  xrlab_request_return_error (req, error);
  release (req);
}

XrlabRequest *
xrlab_request_from_result (GAsyncResult *result)
{
  return g_task_get_task_data (G_TASK (result));
}

gboolean
xrlab_request_result_superseded (GAsyncResult *result, guint64 generation, GError **error)
{
  XrlabRequest *req = xrlab_request_from_result (result);
  XrlabEngineStats delta = { .n_superseded = 1 };

  if (generation >= xrlab_engine_shared_get_generation (req->shared, req->kind->service))
    return FALSE;
  xrlab_engine_shared_account (req->shared, req->consumer, &delta);
  g_set_error (error, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_SUPERSEDED,
               "superseded by a newer edit");
  return TRUE;
}

gboolean
xrlab_request_edit_superseded (GAsyncResult *result, guint key, GError **error)
{
  XrlabRequest *req = xrlab_request_from_result (result);
  GError *ignored = NULL;

  if (!xrlab_engine_shared_key_superseded (req->shared, req->kind->service, key,
                                           req->generation))
    return FALSE;
  if (!g_task_propagate_boolean (G_TASK (result), &ignored))
    g_clear_error (&ignored);
  g_set_error_literal (error, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_SUPERSEDED,
                       "superseded by a newer edit");
  return TRUE;
}

/* ---- replies, on the worker's side ---------------------------------------- */

static void
request_answering (XrlabRequest *req)
{
  g_warn_if_fail (!req->answered);
  req->answered = TRUE;
  if (req->progress != NULL)
    xrlab_engine_progress_finish (req->progress);
}

void
xrlab_request_return_pointer (XrlabRequest *req, gpointer result, GDestroyNotify result_free)
{
  request_answering (req);
  g_task_return_pointer (req->task, result, result_free);
}

void
xrlab_request_return_boolean (XrlabRequest *req, gboolean result)
{
  request_answering (req);
  g_task_return_boolean (req->task, result);
}

void
xrlab_request_return_error (XrlabRequest *req, GError *error)
{
  if (req->kind->role == XRLAB_REQUEST_JOB && xrlab_engine_shared_is_shut_down (req->shared)
      && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_clear_error (&error);
      g_set_error_literal (&error, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_SHUT_DOWN,
                           _("The computation engine has been shut down"));
    }
  request_answering (req);
  g_task_return_error (req->task, error);
}

void
xrlab_request_return_new_error (XrlabRequest *req, GQuark domain, gint code, const char *format, ...)
{
  va_list args;
  GError *error;

  va_start (args, format);
  error = g_error_new_valist (domain, code, format, args);
  va_end (args);
  xrlab_request_return_error (req, error);
}

void
xrlab_request_return_superseded (XrlabRequest *req, const char *why)
{
  XrlabEngineStats delta = { .n_requests = 1, .n_superseded = 1 };

  xrlab_engine_shared_account (req->shared, req->consumer, &delta);
  xrlab_request_return_new_error (req, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_SUPERSEDED, "%s", why);
}

GCancellable *
xrlab_request_get_cancellable (XrlabRequest *req)
{
  return g_task_get_cancellable (req->task);
}

/* ---- accounting ------------------------------------------------------------ */

gboolean
xrlab_engine_get_stats (XrlabEngine      *self,
                        const char       *consumer,
                        XrlabEngineStats *stats)
{
  XrlabEngineShared *shared;
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
  XrlabEngineShared *shared;
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
  XrlabEngineShared *shared;

  g_return_if_fail (XRLAB_IS_ENGINE (self));
  shared = self->shared;
  g_mutex_lock (&shared->mutex);
  g_hash_table_remove_all (shared->consumers);
  memset (&shared->totals, 0, sizeof shared->totals);
  g_mutex_unlock (&shared->mutex);
}

/* ==== the worker ===========================================================
 * Everything below until the lane runs on the worker thread only. */

typedef struct {
  const XrlabEngineService *service;
  gpointer                  state;
} ServiceSlot;

struct _XrlabEngineWorker {
  XrlabEngineShared *shared;
  GArray            *slots;     /* ServiceSlot, in order of creation */
  GQueue             waiting;   /* jobs waiting for the lane */
  XrlabRequest      *running;   /* the job on the lane, or NULL */
};

XrlabEngineShared *
xrlab_engine_worker_get_shared (XrlabEngineWorker *worker)
{
  return worker->shared;
}

gpointer
xrlab_engine_worker_get_state (XrlabEngineWorker *worker, const XrlabEngineService *service)
{
  ServiceSlot slot = { service, NULL };

  for (guint i = 0; i < worker->slots->len; i++)
    if (g_array_index (worker->slots, ServiceSlot, i).service == service)
      return g_array_index (worker->slots, ServiceSlot, i).state;
  if (service->state_new != NULL)
    slot.state = service->state_new (worker);
  g_array_append_val (worker->slots, slot);
  return slot.state;
}

static gpointer
request_state (XrlabEngineWorker *worker, XrlabRequest *req)
{
  return xrlab_engine_worker_get_state (worker, req->kind->service);
}

/* TRUE (and the request answered) when its caller has cancelled it. */
static gboolean
answer_if_cancelled (XrlabRequest *req)
{
  GError *error = NULL;

  if (!g_cancellable_set_error_if_cancelled (xrlab_request_get_cancellable (req), &error))
    return FALSE;
  xrlab_request_return_error (req, error);
  return TRUE;
}

static void
ensure_answered (XrlabRequest *req)
{
  if (req->answered)
    return;
  g_critical ("xrlab engine: a %s request was not answered", req->kind->name);
  xrlab_request_return_new_error (req, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_INVALID,
                                  "internal error: the request was not answered");
}

static void
cancel_job (GCancellable *cancellable, gpointer data)
{
  g_cancellable_cancel (G_CANCELLABLE (data));
}

/* Starts the next waiting job when the lane is free. */
static void
dispatch_jobs (XrlabEngineWorker *w)
{
  XrlabEngineShared *shared = w->shared;
  XrlabRequest *req;

  while (w->running == NULL && (req = g_queue_pop_head (&w->waiting)) != NULL)
    {
      GCancellable *user = xrlab_request_get_cancellable (req);

      if (xrlab_engine_shared_is_shut_down (shared))
        answer_shut_down (req);
      else if (!answer_if_cancelled (req)
               && (req->kind->prepare == NULL || req->kind->prepare (w, request_state (w, req), req)))
        {
          req->job_cancellable = g_cancellable_new ();
          if (user != NULL)
            req->cancel_handler = g_cancellable_connect (user, G_CALLBACK (cancel_job),
                                                         g_object_ref (req->job_cancellable),
                                                         g_object_unref);
          g_mutex_lock (&shared->mutex);
          g_set_object (&shared->busy, req->job_cancellable);
          if (xrlab_engine_shared_is_shut_down (shared))
            g_cancellable_cancel (req->job_cancellable);
          g_mutex_unlock (&shared->mutex);
          req->stage = STAGE_RUNNING;
          w->running = req;
          g_async_queue_push (shared->lane_queue, req);
          return;
        }
      ensure_answered (req);
      release (req);
    }
}

/* A job is back from the lane: give it to its service, answer. */
static void
finish_job (XrlabEngineWorker *w, XrlabRequest *req)
{
  XrlabEngineShared *shared = w->shared;

  g_mutex_lock (&shared->mutex);
  if (shared->busy == req->job_cancellable)
    g_clear_object (&shared->busy);
  g_mutex_unlock (&shared->mutex);
  if (req->cancel_handler != 0)
    g_cancellable_disconnect (xrlab_request_get_cancellable (req), req->cancel_handler);
  req->cancel_handler = 0;
  req->kind->finish (w, request_state (w, req), req);
  ensure_answered (req);
  w->running = NULL;
  release (req);
}

typedef struct {
  const XrlabEngineService *service;
  guint64                   newest;
} Touched;

/* Applies every edit of the round in order, then commits each service
 * once and marks its newest generation applied. */
static void
apply_edits (XrlabEngineWorker *w, GPtrArray *round)
{
  g_autoptr(GArray) touched = g_array_new (FALSE, FALSE, sizeof (Touched));
  XrlabEngineStats delta = { 0 };

  for (guint i = 0; i < round->len; i++)
    {
      XrlabRequest *req = g_ptr_array_index (round, i);
      guint k;

      if (req->kind->role != XRLAB_REQUEST_EDIT)
        continue;
      req->kind->apply (w, request_state (w, req), req);
      for (k = 0; k < touched->len; k++)
        if (g_array_index (touched, Touched, k).service == req->kind->service)
          break;
      if (k == touched->len)
        {
          Touched t = { req->kind->service, 0 };
          g_array_append_val (touched, t);
        }
      g_array_index (touched, Touched, k).newest = MAX (g_array_index (touched, Touched, k).newest,
                                                         req->generation);
    }
  for (guint k = 0; k < touched->len; k++)
    {
      const Touched *t = &g_array_index (touched, Touched, k);
      if (t->service->commit != NULL)
        {
          double t0 = xrlab_now ();
          t->service->commit (w, xrlab_engine_worker_get_state (w, t->service));
          delta.compute_s += xrlab_now () - t0;
        }
      set_applied (w->shared, t->service, t->newest);
    }
  if (touched->len > 0)
    xrlab_engine_shared_account (w->shared, NULL, &delta);
}

/* TRUE when a later request of the round has the same kind and consumer. */
static gboolean
newer_in_round (GPtrArray *round, guint i)
{
  XrlabRequest *req = g_ptr_array_index (round, i);

  for (guint j = i + 1; j < round->len; j++)
    {
      XrlabRequest *other = g_ptr_array_index (round, j);
      if (other->kind == req->kind && other->stage == STAGE_NEW
          && g_strcmp0 (other->consumer, req->consumer) == 0)
        return TRUE;
    }
  return FALSE;
}

static void
serve_read (XrlabEngineWorker *w, GPtrArray *round, guint i)
{
  XrlabRequest *req = g_ptr_array_index (round, i);
  const XrlabEngineService *service = req->kind->service;

  if ((req->kind->flags & XRLAB_REQUEST_NEWEST_PER_CONSUMER) && newer_in_round (round, i))
    xrlab_request_return_superseded (req, "superseded by a newer fetch");
  else if (xrlab_engine_shared_is_shut_down (w->shared))
    answer_shut_down (req);
  else if (answer_if_cancelled (req))
    ;
  else if ((req->kind->flags & XRLAB_REQUEST_STALE_AFTER_EDIT)
           && xrlab_engine_shared_get_generation (w->shared, service)
              > xrlab_engine_shared_get_applied (w->shared, service))
    xrlab_request_return_superseded (req, "superseded by a newer edit");
  else
    req->kind->serve (w, request_state (w, req), req);
}

/* Handles every request that was waiting at once (see the private header).
 * Returns TRUE when the engine is shutting down. */
static gboolean
worker_round (XrlabEngineWorker *w, GPtrArray *round)
{
  for (guint i = 0; i < round->len; i++)
    if (g_ptr_array_index (round, i) == &quit_marker)
      {
        for (guint j = 0; j < round->len; j++)
          {
            XrlabRequest *req = g_ptr_array_index (round, j);
            if (req == &quit_marker)
              continue;
            if (req->stage == STAGE_RAN)
              finish_job (w, req);
            else
              {
                answer_shut_down (req);
                release (req);
              }
          }
        return TRUE;
      }

  apply_edits (w, round);
  for (guint i = 0; i < round->len; i++)
    {
      XrlabRequest *req = g_ptr_array_index (round, i);
      if (req->stage == STAGE_NEW && req->kind->role == XRLAB_REQUEST_EDIT
          && !answer_if_cancelled (req))
        req->kind->serve (w, request_state (w, req), req);
    }
  for (guint i = 0; i < round->len; i++)
    {
      XrlabRequest *req = g_ptr_array_index (round, i);
      if (req->stage == STAGE_NEW && req->kind->role == XRLAB_REQUEST_READ)
        serve_read (w, round, i);
    }
  /* Answered edits and reads are released only now: newer_in_round()
   * looks at the whole round. */
  for (guint i = 0; i < round->len; i++)
    {
      XrlabRequest *req = g_ptr_array_index (round, i);
      if (req->stage == STAGE_NEW && req->kind->role != XRLAB_REQUEST_JOB)
        {
          ensure_answered (req);
          release (req);
        }
      else if (req->stage == STAGE_RAN)
        finish_job (w, req);
      else if (req->stage == STAGE_NEW)
        {
          req->stage = STAGE_WAITING;
          g_queue_push_tail (&w->waiting, req);
        }
    }
  dispatch_jobs (w);
  return FALSE;
}

/* After the quit: the waiting jobs and anything still queued are answered
 * SHUT_DOWN; the running job (cancelled) comes back and is finished. */
static void
worker_drain (XrlabEngineWorker *w)
{
  XrlabRequest *req;

  while ((req = g_queue_pop_head (&w->waiting)) != NULL)
    {
      answer_shut_down (req);
      release (req);
    }
  for (;;)
    {
      /* Wait while a job runs; then take what is left. */
      req = w->running != NULL ? g_async_queue_pop (w->shared->queue)
                               : g_async_queue_try_pop (w->shared->queue);
      if (req == NULL)
        break;
      if (req == &quit_marker)
        continue;
      if (req->stage == STAGE_RAN)
        finish_job (w, req);
      else
        {
          answer_shut_down (req);
          release (req);
        }
    }
}

static gpointer
worker_main (gpointer data)
{
  XrlabEngineWorker w = { 0 };
  g_autoptr(GPtrArray) round = g_ptr_array_new ();
  gboolean quit = FALSE;

  w.shared = data;
  w.slots = g_array_new (FALSE, FALSE, sizeof (ServiceSlot));
  g_queue_init (&w.waiting);

  while (!quit)
    {
      XrlabRequest *req = g_async_queue_pop (w.shared->queue);

      do
        g_ptr_array_add (round, req);
      while ((req = g_async_queue_try_pop (w.shared->queue)) != NULL);
      quit = worker_round (&w, round);
      g_ptr_array_set_size (round, 0);
    }
  worker_drain (&w);

  g_async_queue_push (w.shared->lane_queue, &lane_quit_marker);
  g_thread_join (w.shared->lane);
  w.shared->lane = NULL;

  for (guint i = w.slots->len; i-- > 0;)
    {
      ServiceSlot *slot = &g_array_index (w.slots, ServiceSlot, i);
      if (slot->service->state_free != NULL)
        slot->service->state_free (slot->state);
    }
  g_array_unref (w.slots);
  shared_unref (w.shared);
  return NULL;
}

/* ==== the job lane ========================================================= */

static gpointer
lane_main (gpointer data)
{
  XrlabEngineShared *shared = data;

  for (;;)
    {
      XrlabRequest *req = g_async_queue_pop (shared->lane_queue);

      if (req == &lane_quit_marker)
        break;
      req->kind->run (req, req->job_cancellable);
      req->stage = STAGE_RAN;
      g_async_queue_push (shared->queue, req);
    }
  shared_unref (shared);
  return NULL;
}
