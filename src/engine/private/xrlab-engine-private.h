/* xrlab-engine-private.h -- the engine's request core and its service interface
 *
 * The core (xrlab-engine.c, xrlab-engine-progress.c) knows nothing of
 * optics or fits. It owns the object, the two threads, the request queue,
 * the generations of edits, the accounting, progress marshalling and
 * shutdown. Everything a request does is written in a service: optics
 * (xrlab-engine-optics.c: materials, grid; xrlab-engine-optics-fetch.c:
 * fetch, fetch-at), export (xrlab-engine-export.c), batch
 * (xrlab-engine-batch.c), and the like. A service that reads another's
 * state includes that service's private header (optics:
 * xrlab-engine-optics-private.h) and asks the worker for its state.
 *
 * Threads and ownership
 *   caller   The thread that calls xrlab_engine_*_async() (main thread, CLI).
 *            Builds a request (its payload is a private copy of the input),
 *            submits it, and later runs the reply callback and *_finish().
 *   worker   "xrlab-engine": owns every service's state (its `state` pointer,
 *            created at the service's first request, freed at shutdown). Runs
 *            apply/commit/serve of edits and reads, and prepare/finish of jobs.
 *   job lane "xrlab-jobs": runs the `run` step of one job at a time. It may
 *            touch only the request's payload (which prepare filled with what
 *            the job needs, moved out of the service's state) -- never the
 *            service state, never the task. Long loops inside run use the one
 *            pool (xrlab-parallel.h).
 *   A request is the task data of its GTask (one struct, freed with the task).
 *   The core holds one reference on the task from submit until the reply.
 *
 * A round. The worker takes every request waiting at once and handles them:
 *   1. EDIT: kind->apply (state, req) for each edit, in submission order
 *      (also when the caller has cancelled: later edits build on it);
 *   2. service->commit (state) once per service that had an edit (compute
 *      the new state once for a burst); then its applied generation is set;
 *   3. EDIT: kind->serve answers each edit (a cancelled one: CANCELLED);
 *   4. READ: kind->serve, in order; NEWEST_PER_CONSUMER: an older request of
 *      the same kind and consumer in the round is answered SUPERSEDED;
 *      STALE_AFTER_EDIT: SUPERSEDED while a newer edit of its service waits;
 *   5. JOB completions: kind->finish (state, req) answers, back on the worker;
 *   6. new JOBs are queued; when the lane is free the next one's
 *      kind->prepare (state, req) runs (FALSE: it has answered, nothing runs),
 *      then kind->run (req, cancellable) runs on the lane; cancelling the
 *      caller's GCancellable or shutting down cancels @cancellable.
 * Every request is answered exactly once, with xrlab_request_return_*().
 * finish runs for every job that ran, cancelled or not: it is where what
 * prepare moved out of the state goes back. Shutdown answers everything
 * waiting SHUT_DOWN, cancels the running job, finishes it when it comes
 * back, then frees the states (newest service first) and joins both threads.
 *
 * Adding a request kind (a service = handlers + state, in one file):
 *   - a payload struct and its free function; a static const
 *     XrlabRequestKind with the role, flags, service and handlers;
 *   - a static const XrlabEngineService (name, state_new/state_free, commit)
 *     -- the core creates its state lazily, nothing is registered;
 *   - the public *_async(): xrlab_request_new (engine, &kind, payload, ...),
 *     for an edit xrlab_request_begin_edit (req, keys, n), then
 *     xrlab_request_submit (req); input errors: xrlab_request_fail (req, e);
 *   - the public *_finish(): g_task_propagate_*(); xrlab_request_from_result()
 *     gives the request back (generation, consumer, payload).
 *   - progress of a job: xrlab_request_attach_progress() on the caller's
 *     thread (it captures the thread-default main context) with the caller's
 *     callback, its data and their destroy notify, and a deliver function
 *     that calls the callback with a snapshot (xrlab_engine_progress_count()
 *     for a count of items done); the lane calls xrlab_engine_progress_post().
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "xrlab-engine.h"

G_BEGIN_DECLS

typedef struct _XrlabEngineShared   XrlabEngineShared;
typedef struct _XrlabEngineWorker   XrlabEngineWorker;
typedef struct _XrlabEngineService  XrlabEngineService;
typedef struct _XrlabRequestKind    XrlabRequestKind;
typedef struct _XrlabRequest        XrlabRequest;
typedef struct _XrlabEngineProgress XrlabEngineProgress;

/* Calls @callback (the caller's, cast back to its type) with @snapshot. */
typedef void (*XrlabEngineProgressDeliver) (gconstpointer snapshot, GCallback callback,
                                            gpointer user_data);

/* ---- services and kinds -------------------------------------------------- */

struct _XrlabEngineService {
  const char *name;
  /* On the worker, at the first request of the service (NULL: no state). */
  gpointer (*state_new)  (XrlabEngineWorker *worker);
  /* On the worker, when it stops. */
  void     (*state_free) (gpointer state);
  /* On the worker, once after the edits of a round were applied (NULL: none).
   * Its time counts as compute time in the totals. */
  void     (*commit)     (XrlabEngineWorker *worker, gpointer state);
};

typedef enum {
  XRLAB_REQUEST_EDIT,   /* changes the service's state; has a generation */
  XRLAB_REQUEST_READ,   /* reads the state (fetches, previews, exports) */
  XRLAB_REQUEST_JOB,    /* long work on the job lane, one at a time */
} XrlabRequestRole;

typedef enum {
  XRLAB_REQUEST_NEWEST_PER_CONSUMER = 1 << 0,
  XRLAB_REQUEST_STALE_AFTER_EDIT    = 1 << 1,
} XrlabRequestFlags;

typedef void     (*XrlabRequestFunc)    (XrlabEngineWorker *worker, gpointer state, XrlabRequest *req);
typedef gboolean (*XrlabRequestPrepare) (XrlabEngineWorker *worker, gpointer state, XrlabRequest *req);
typedef void     (*XrlabRequestRun)     (XrlabRequest *req, GCancellable *cancellable);

struct _XrlabRequestKind {
  const char               *name;
  const XrlabEngineService *service;
  XrlabRequestRole          role;
  XrlabRequestFlags         flags;
  GDestroyNotify            payload_free;  /* any thread */
  XrlabRequestFunc          apply;    /* EDIT: change the state, answer nothing */
  XrlabRequestFunc          serve;    /* EDIT, READ: answer */
  XrlabRequestPrepare       prepare;  /* JOB, worker: fill the payload (NULL: nothing) */
  XrlabRequestRun           run;      /* JOB, lane: the work, into the payload */
  XrlabRequestFunc          finish;   /* JOB, worker: give back to the state, answer */
};

/* ---- requests ------------------------------------------------------------ */

struct _XrlabRequest {
  const XrlabRequestKind *kind;
  GTask                  *task;
  XrlabEngineShared      *shared;
  /* An edit: its own generation; others: the newest of the service when
   * the request was made. */
  guint64                 generation;
  char                   *consumer;    /* for the accounting; NULL: totals only */
  XrlabEngineProgress    *progress;    /* NULL when the caller asked for none */
  gpointer                payload;
  /* the core's */
  int                     stage;
  gboolean                answered;
  GCancellable           *job_cancellable;
  gulong                  cancel_handler;
};

/* Caller side. A new request with its task (the task's data is the request,
 * freed with it; @payload is freed by the kind's payload_free). */
XrlabRequest *xrlab_request_new (XrlabEngine         *engine,
                                 const XrlabRequestKind *kind,
                                 gpointer             payload,
                                 gpointer             source_tag,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data);
void xrlab_request_set_consumer (XrlabRequest *req, const char *consumer);
/* Progress for @req (see below): when @callback is NULL nothing is attached
 * and @user_data is freed at once. */
void xrlab_request_attach_progress (XrlabRequest               *req,
                                    gsize                       size,
                                    double                      interval_s,
                                    XrlabEngineProgressDeliver  deliver,
                                    GCallback                   callback,
                                    gpointer                    user_data,
                                    GDestroyNotify              user_data_free);
/* Makes @req an edit: the next generation of its service, remembered as the
 * newest edit of each of @keys (ids within the service). */
void xrlab_request_begin_edit   (XrlabRequest *req, const guint *keys, gsize n_keys);
/* Queues @req (answered SHUT_DOWN at once after shutdown). Consumes it. */
void xrlab_request_submit       (XrlabRequest *req);
/* Answers @req before it was submitted (bad input) and drops it. */
void xrlab_request_fail         (XrlabRequest *req, GError *error);
/* The request of a reply, for *_finish(). */
XrlabRequest *xrlab_request_from_result (GAsyncResult *result);
/* For *_finish() of a reply computed at @generation of its service: whether
 * a newer edit has replaced that state since (counted as superseded for the
 * request's consumer, @error set to XRLAB_ENGINE_ERROR_SUPERSEDED). */
gboolean xrlab_request_result_superseded (GAsyncResult *result, guint64 generation,
                                          GError **error);
/* For *_finish() of an edit of @key: whether a newer edit of the same key
 * was submitted after the worker answered (its answer is the one that
 * counts); the reply is then dropped and @error set to SUPERSEDED. */
gboolean xrlab_request_edit_superseded (GAsyncResult *result, guint key, GError **error);
XrlabEngineShared *xrlab_engine_get_shared (XrlabEngine *engine);

/* Worker side: the one answer of a request. The progress of a request is
 * finished before the answer leaves, so no progress follows its reply. A
 * job cancelled by shutdown is answered XRLAB_ENGINE_ERROR_SHUT_DOWN. */
void          xrlab_request_return_pointer   (XrlabRequest *req, gpointer result, GDestroyNotify result_free);
void          xrlab_request_return_boolean   (XrlabRequest *req, gboolean result);
void          xrlab_request_return_error     (XrlabRequest *req, GError *error);
void          xrlab_request_return_new_error (XrlabRequest *req, GQuark domain, gint code,
                                              const char *format, ...) G_GNUC_PRINTF (4, 5);
/* SUPERSEDED, counted for the request's consumer. */
void          xrlab_request_return_superseded (XrlabRequest *req, const char *why);
GCancellable *xrlab_request_get_cancellable  (XrlabRequest *req);

/* ---- the worker ------------------------------------------------------------ */

/* The state of @service, created now if this is its first use. Worker only. */
gpointer           xrlab_engine_worker_get_state  (XrlabEngineWorker *worker,
                                                   const XrlabEngineService *service);
XrlabEngineShared *xrlab_engine_worker_get_shared (XrlabEngineWorker *worker);

/* ---- shared: thread safe ------------------------------------------------- */

/* The newest generation submitted for @service, and the newest applied. */
guint64  xrlab_engine_shared_get_generation (XrlabEngineShared *shared, const XrlabEngineService *service);
guint64  xrlab_engine_shared_get_applied    (XrlabEngineShared *shared, const XrlabEngineService *service);
/* TRUE when an edit newer than @generation was submitted for @key. */
gboolean xrlab_engine_shared_key_superseded (XrlabEngineShared *shared, const XrlabEngineService *service,
                                             guint key, guint64 generation);
gboolean xrlab_engine_shared_is_shut_down   (XrlabEngineShared *shared);
/* Adds @delta to the counters of @consumer (NULL: the totals only). */
void     xrlab_engine_shared_account        (XrlabEngineShared *shared, const char *consumer,
                                             const XrlabEngineStats *delta);
/* The same for a transfer, printed when XRLAB_ENGINE_STATS is set. */
void     xrlab_engine_shared_note_transfer  (XrlabEngineShared *shared, const char *consumer,
                                             const XrlabEngineStats *delta);

/* ---- progress --------------------------------------------------------------
 * Progress of one request, marshalled to the main context that was the
 * thread default when it was made. Any thread posts a snapshot of @size
 * bytes; the newest one is delivered (coalesced), at most every @interval_s,
 * by @deliver, which calls the caller's @callback with @user_data, on that
 * context; nothing is delivered once the request has been answered
 * (xrlab_request_return_*() finishes it). @user_data_free frees @user_data
 * when the progress goes. */
XrlabEngineProgress *xrlab_engine_progress_new    (gsize                      size,
                                                   double                     interval_s,
                                                   XrlabEngineProgressDeliver deliver,
                                                   GCallback                  callback,
                                                   gpointer                   user_data,
                                                   GDestroyNotify             user_data_free);
/* A count of items done: the snapshot of jobs whose callback is an
 * XrlabEngineProgressFunc, delivered by xrlab_engine_progress_count(). */
typedef struct {
  gsize done;
  gsize total;
} XrlabEngineCount;
void                 xrlab_engine_progress_count  (gconstpointer snapshot,
                                                   GCallback     callback,
                                                   gpointer      user_data);
void                 xrlab_engine_progress_post   (XrlabEngineProgress *progress,
                                                   gconstpointer        snapshot);
void                 xrlab_engine_progress_finish (XrlabEngineProgress *progress);
XrlabEngineProgress *xrlab_engine_progress_ref    (XrlabEngineProgress *progress);
void                 xrlab_engine_progress_unref  (XrlabEngineProgress *progress);

/* ---- small helpers ----------------------------------------------------------- */

static inline gsize
xrlab_engine_align8 (gsize n)
{
  return (n + 7) & ~(gsize) 7;
}

/* The ids of @n items of @stride bytes (a guint at @id_offset in each):
 * none 0 (reserved), none twice; @what names an item in the message
 * ("material", "stack"). */
gboolean xrlab_engine_check_ids (gconstpointer items, gsize n, gsize stride, gsize id_offset,
                                 const char *what, GError **error);
/* A service's items with ids (materials, stacks): @items in their order,
 * @by_id from each id to its item. xrlab_engine_items_set(): the items
 * become those of the @n specs (of @stride bytes, a guint id at
 * @id_offset), in their order: an item whose id stays keeps its state and
 * is changed by @item_apply, a new id gets @item_new, the others go with
 * @item_free (the array's free function). xrlab_engine_items_update(): one spec, a new
 * item added at the end. */
typedef gpointer (*XrlabEngineItemNew)   (guint id);
typedef void     (*XrlabEngineItemApply) (gpointer item, gconstpointer spec);
void xrlab_engine_items_set    (GPtrArray **items, GHashTable **by_id, gconstpointer specs,
                                gsize n, gsize stride, gsize id_offset,
                                XrlabEngineItemNew item_new, XrlabEngineItemApply item_apply,
                                GDestroyNotify item_free);
void xrlab_engine_items_update (GPtrArray *items, GHashTable *by_id, gconstpointer spec,
                                gsize id_offset, XrlabEngineItemNew item_new,
                                XrlabEngineItemApply item_apply);
/* Submits @req as an edit of the @n items (as above), each id a key of the
 * edit, with @payload (taken) -- or fails it when the ids are not valid. */
void xrlab_request_submit_items_edit (XrlabRequest *req, gpointer payload, gconstpointer items,
                                      gsize n, gsize stride, gsize id_offset, const char *what);
/* The finish of an edit answered with a GPtrArray of per-item errors. */
gboolean xrlab_request_propagate_item_errors (GAsyncResult *result, GPtrArray **item_errors,
                                              GError **error);

G_END_DECLS
