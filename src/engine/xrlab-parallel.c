/* xrlab-parallel.c -- the one pool of worker threads (see the header for the
 * list of every thread of the program)
 *
 * A loop is a Job on the caller's stack. It sits in the pool's queue while it
 * has parts nobody has claimed; parts are claimed under the pool's lock (they
 * are coarse: a chunk of materials, a block of rows, a slice), so a Job is
 * never touched after its caller has seen every part done.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-parallel.h"

#include <stdlib.h>

typedef struct _Job Job;
struct _Job {
  XrlabParallelFunc func;
  gpointer          data;
  guint             n_parts;
  guint             next;      /* the next part to claim (under the lock) */
  gint              done;      /* parts that have returned (atomic) */
  Job              *link;      /* the next job of the queue */
};

struct _XrlabParallel {
  GMutex  lock;
  GCond   work;     /* a job was queued */
  GCond   done;     /* the last part of a job returned */
  Job    *head, *tail;
  guint   n_threads;
};

static __thread gboolean in_part;

gboolean
xrlab_parallel_in_worker (void)
{
  return in_part;
}

/* The next part of the queue's first job, under the lock; NULL when empty. */
static Job *
claim_locked (XrlabParallel *pool, guint *part)
{
  Job *j = pool->head;

  if (j == NULL)
    return NULL;
  *part = j->next++;
  if (j->next == j->n_parts)
    {
      pool->head = j->link;
      if (pool->head == NULL)
        pool->tail = NULL;
    }
  return j;
}

static void
run_part (XrlabParallel *pool, Job *j, guint part)
{
  gboolean saved = in_part;
  guint n = j->n_parts;

  in_part = TRUE;
  j->func (j->data, part);
  in_part = saved;
  /* after this increment the job may be gone: only the pool is touched */
  if ((guint) g_atomic_int_add (&j->done, 1) + 1 == n)
    {
      g_mutex_lock (&pool->lock);
      g_cond_broadcast (&pool->done);
      g_mutex_unlock (&pool->lock);
    }
}

static gpointer
worker_main (gpointer data)
{
  XrlabParallel *pool = data;

  for (;;)
    {
      Job *j;
      guint part = 0;

      g_mutex_lock (&pool->lock);
      while ((j = claim_locked (pool, &part)) == NULL)
        g_cond_wait (&pool->work, &pool->lock);
      g_mutex_unlock (&pool->lock);
      run_part (pool, j, part);
    }
  return NULL;
}

static guint
threads_from_env (void)
{
  const char *s = g_getenv ("XRLAB_THREADS");
  guint n = g_get_num_processors ();

  if (s != NULL && *s != '\0')
    {
      char *end = NULL;
      guint64 v = g_ascii_strtoull (s, &end, 10);
      if (end != s && *end == '\0' && v >= 1 && v <= 256)
        n = (guint) v;
    }
  return MAX (n, 1u);
}

XrlabParallel *
xrlab_parallel_default (void)
{
  static XrlabParallel *pool;

  if (g_once_init_enter (&pool))
    {
      XrlabParallel *p = g_new0 (XrlabParallel, 1);

      g_mutex_init (&p->lock);
      g_cond_init (&p->work);
      g_cond_init (&p->done);
      p->n_threads = threads_from_env ();
      for (guint i = 1; i < p->n_threads; i++)
        {
          GThread *t = g_thread_try_new ("xrlab-pool", worker_main, p, NULL);
          if (t == NULL)
            {
              p->n_threads = i;    /* fewer threads: still correct */
              break;
            }
          g_thread_unref (t);
        }
      g_once_init_leave (&pool, p);
    }
  return pool;
}

guint
xrlab_parallel_n_threads (XrlabParallel *pool)
{
  return pool ? pool->n_threads : 1;
}

void
xrlab_parallel_run (XrlabParallel *pool, guint n_parts, XrlabParallelFunc func, gpointer data)
{
  Job job = { func, data, n_parts, 0, 0, NULL };
  guint part;

  if (n_parts == 0)
    return;
  if (pool == NULL || n_parts == 1 || pool->n_threads <= 1 || in_part)
    {
      gboolean saved = in_part;
      in_part = TRUE;
      for (guint p = 0; p < n_parts; p++)
        func (data, p);
      in_part = saved;
      return;
    }

  g_mutex_lock (&pool->lock);
  if (pool->tail)
    pool->tail->link = &job;
  else
    pool->head = &job;
  pool->tail = &job;
  g_cond_broadcast (&pool->work);
  g_mutex_unlock (&pool->lock);

  /* The caller takes its own job's parts until none is left. */
  for (;;)
    {
      gboolean mine = FALSE;

      g_mutex_lock (&pool->lock);
      if (job.next < job.n_parts)
        {
          part = job.next++;
          mine = TRUE;
          if (job.next == job.n_parts)
            {
              /* unlink it: it may sit anywhere in the queue */
              Job **pp = &pool->head, *prev = NULL;
              while (*pp != &job)
                {
                  prev = *pp;
                  pp = &(*pp)->link;
                }
              *pp = job.link;
              if (pool->tail == &job)
                pool->tail = prev;
            }
        }
      g_mutex_unlock (&pool->lock);
      if (!mine)
        break;
      run_part (pool, &job, part);
    }

  g_mutex_lock (&pool->lock);
  while ((guint) g_atomic_int_get (&job.done) < job.n_parts)
    g_cond_wait (&pool->done, &pool->lock);
  g_mutex_unlock (&pool->lock);
}
