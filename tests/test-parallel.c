/* test-parallel.c -- the thread pool: every part once, nested and concurrent
 * loops
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib.h>

#include "xrlab-parallel.h"
#include "test-common.h"

typedef struct {
  gint *hits;
  guint n;
  gint  in_worker;
} Count;

static void
count_part (gpointer data, guint part)
{
  Count *c = data;
  g_atomic_int_inc (&c->hits[part]);
  if (xrlab_parallel_in_worker ())
    g_atomic_int_inc (&c->in_worker);
}

static void
test_every_part_once (void)
{
  XrlabParallel *pool = xrlab_parallel_default ();

  g_assert_cmpuint (xrlab_parallel_n_threads (pool), >=, 1);
  for (guint n = 0; n < 200; n += 7)
    {
      Count c = { g_new0 (gint, MAX (n, 1)), n, 0 };
      xrlab_parallel_run (pool, n, count_part, &c);
      for (guint p = 0; p < n; p++)
        g_assert_cmpint (c.hits[p], ==, 1);
      /* every part runs flagged as inside the pool, the caller's too */
      g_assert_cmpint (c.in_worker, ==, (gint) n);
      g_free (c.hits);
    }
  g_assert_false (xrlab_parallel_in_worker ());
}

static void
nested_part (gpointer data, guint part)
{
  Count *outer = data;
  Count inner = { g_new0 (gint, 5), 5, 0 };

  xrlab_parallel_run (xrlab_parallel_default (), 5, count_part, &inner);
  for (guint p = 0; p < 5; p++)
    g_assert_cmpint (inner.hits[p], ==, 1);
  g_free (inner.hits);
  g_atomic_int_inc (&outer->hits[part]);
}

static void
test_nested (void)
{
  Count c = { g_new0 (gint, 16), 16, 0 };

  xrlab_parallel_run (xrlab_parallel_default (), 16, nested_part, &c);
  for (guint p = 0; p < 16; p++)
    g_assert_cmpint (c.hits[p], ==, 1);
  g_free (c.hits);
}

static gpointer
concurrent_caller (gpointer data)
{
  for (guint round = 0; round < 300; round++)
    {
      Count c = { g_new0 (gint, 13), 13, 0 };
      xrlab_parallel_run (xrlab_parallel_default (), 13, count_part, &c);
      for (guint p = 0; p < 13; p++)
        g_assert_cmpint (c.hits[p], ==, 1);
      g_free (c.hits);
    }
  return NULL;
}

/* Loops started by several threads at once all complete, each part once. */
static void
test_concurrent (void)
{
  xrlab_test_run_threads (concurrent_caller, NULL, 4);
}

static void
test_no_pool (void)
{
  Count c = { g_new0 (gint, 9), 9, 0 };

  xrlab_parallel_run (NULL, 9, count_part, &c);
  for (guint p = 0; p < 9; p++)
    g_assert_cmpint (c.hits[p], ==, 1);
  g_free (c.hits);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/parallel/every-part-once", test_every_part_once);
  g_test_add_func ("/parallel/nested", test_nested);
  g_test_add_func ("/parallel/concurrent", test_concurrent);
  g_test_add_func ("/parallel/no-pool", test_no_pool);
  return g_test_run ();
}
