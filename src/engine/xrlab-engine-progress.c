/* xrlab-engine-progress.c -- progress of a request, marshalled to the
 * caller's main context: coalesced (the newest snapshot wins), at most once
 * per interval, never after the reply
 *
 * Any thread posts; one GSource at a time is queued on the caller's context
 * (an idle, or a timeout when the last delivery was less than the interval
 * ago) and delivers whatever is newest when it runs. Finishing (done by the
 * core before it answers the request) destroys the queued source and stops
 * every later delivery; since the reply is delivered on the same context, a
 * delivery that has already started cannot follow it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-engine-private.h"

#include <string.h>

struct _XrlabEngineProgress {
  gatomicrefcount             ref_count;
  GMainContext               *context;
  gint64                      interval_us;
  XrlabEngineProgressDeliver  deliver;
  GCallback                   callback;
  gpointer                    user_data;
  GDestroyNotify              user_data_free;
  gsize                       size;

  GMutex                      mutex;      /* guards everything below */
  gboolean                    finished;   /* the request has been answered */
  gboolean                    fresh;      /* a snapshot not yet delivered */
  GSource                    *pending;    /* the delivery that is queued */
  gint64                      last_us;    /* when the last delivery ran */
  guint8                     *snapshot;   /* the newest, @size bytes */
  guint8                     *delivered;  /* the copy handed to @deliver */
};

XrlabEngineProgress *
xrlab_engine_progress_new (gsize                      size,
                           double                     interval_s,
                           XrlabEngineProgressDeliver deliver,
                           GCallback                  callback,
                           gpointer                   user_data,
                           GDestroyNotify             user_data_free)
{
  XrlabEngineProgress *p = g_new0 (XrlabEngineProgress, 1);

  g_atomic_ref_count_init (&p->ref_count);
  p->context = g_main_context_ref_thread_default ();
  p->interval_us = (gint64) (MAX (interval_s, 0.0) * G_USEC_PER_SEC);
  p->deliver = deliver;
  p->callback = callback;
  p->user_data = user_data;
  p->user_data_free = user_data_free;
  p->size = size;
  p->snapshot = g_malloc0 (MAX (size, 1));
  p->delivered = g_malloc0 (MAX (size, 1));
  p->last_us = G_MININT64 / 2;
  g_mutex_init (&p->mutex);
  return p;
}

XrlabEngineProgress *
xrlab_engine_progress_ref (XrlabEngineProgress *p)
{
  g_atomic_ref_count_inc (&p->ref_count);
  return p;
}

void
xrlab_engine_progress_unref (XrlabEngineProgress *p)
{
  if (p == NULL || !g_atomic_ref_count_dec (&p->ref_count))
    return;
  if (p->user_data_free != NULL)
    p->user_data_free (p->user_data);
  g_main_context_unref (p->context);
  g_mutex_clear (&p->mutex);
  g_free (p->snapshot);
  g_free (p->delivered);
  g_free (p);
}

/* On the caller's context: the newest snapshot, unless the reply left. */
static gboolean
progress_dispatch (gpointer data)
{
  XrlabEngineProgress *p = data;
  gboolean deliver;

  g_mutex_lock (&p->mutex);
  p->pending = NULL;
  deliver = p->fresh && !p->finished;
  if (deliver)
    {
      memcpy (p->delivered, p->snapshot, p->size);
      p->fresh = FALSE;
      p->last_us = g_get_monotonic_time ();
    }
  g_mutex_unlock (&p->mutex);
  /* The reply is delivered on this same context, so it cannot overtake
   * this call even if the request is answered meanwhile. */
  if (deliver)
    p->deliver (p->delivered, p->callback, p->user_data);
  return G_SOURCE_REMOVE;
}

void
xrlab_engine_progress_post (XrlabEngineProgress *p, gconstpointer snapshot)
{
  gint64 wait_us;
  GSource *source;

  g_mutex_lock (&p->mutex);
  if (p->finished)
    {
      g_mutex_unlock (&p->mutex);
      return;
    }
  memcpy (p->snapshot, snapshot, p->size);
  p->fresh = TRUE;
  if (p->pending == NULL)
    {
      /* One delivery at a time, no sooner than the interval after the
       * last: it takes whatever is newest when it runs. */
      wait_us = p->last_us + p->interval_us - g_get_monotonic_time ();
      source = wait_us > 0 ? g_timeout_source_new ((guint) ((wait_us + 999) / 1000))
                           : g_idle_source_new ();
      g_source_set_priority (source, G_PRIORITY_DEFAULT);
      g_source_set_callback (source, progress_dispatch, xrlab_engine_progress_ref (p),
                             (GDestroyNotify) xrlab_engine_progress_unref);
      g_source_set_static_name (source, "xrlab-engine-progress");
      p->pending = source;
      g_source_attach (source, p->context);
      g_source_unref (source);
    }
  g_mutex_unlock (&p->mutex);
}

void
xrlab_engine_progress_finish (XrlabEngineProgress *p)
{
  g_mutex_lock (&p->mutex);
  p->finished = TRUE;
  if (p->pending != NULL)
    g_source_destroy (p->pending);
  p->pending = NULL;
  g_mutex_unlock (&p->mutex);
}

void
xrlab_engine_progress_count (gconstpointer snapshot, GCallback callback, gpointer user_data)
{
  const XrlabEngineCount *c = snapshot;

  ((XrlabEngineProgressFunc) callback) (c->done, c->total, user_data);
}

void
xrlab_request_attach_progress (XrlabRequest               *req,
                               gsize                       size,
                               double                      interval_s,
                               XrlabEngineProgressDeliver  deliver,
                               GCallback                   callback,
                               gpointer                    user_data,
                               GDestroyNotify              user_data_free)
{
  g_clear_pointer (&req->progress, xrlab_engine_progress_unref);
  if (callback == NULL)
    {
      if (user_data_free != NULL)
        user_data_free (user_data);
      return;
    }
  req->progress = xrlab_engine_progress_new (size, interval_s, deliver, callback, user_data,
                                             user_data_free);
}
