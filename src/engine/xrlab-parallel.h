/* xrlab-parallel.h -- the one pool of worker threads
 *
 * The threads of xrlab, and what each may touch:
 *
 *  - the main thread (xrlab, xrlab-cli, the tests): GTK, PLplot, GSettings,
 *    the widgets; it talks to the engine only through requests and replies.
 *  - "xrlab-engine", the engine's worker (xrlab-engine.c): owns every cache,
 *    material, grid, plan, dataset and result of the engine's services; runs
 *    edits, fetches and exports.
 *  - "xrlab-jobs", the engine's job lane (xrlab-engine.c): runs long
 *    requests (batches, fits) one at a time on state handed to it by the
 *    worker and owned by the job until it replies.
 *  - "xrlab-pool" threads (this file): run the parts of a parallel loop
 *    started by one of the threads above (optics batches over materials, a
 *    plan's rows, slice-by-slice fits). A part touches only what its caller
 *    gave it (the caller waits until every part is done) and never GTK.
 *  - "xrlab-cli-signals" (cli-common.c): turns SIGINT/SIGTERM into a
 *    cancellation of the running command.
 *
 * Nothing else starts threads. A plan, an optics batch, the fits (and GSL's
 * BLAS calls in them: xrlab-blas.c), large CSV files read and written use this
 * pool through xrlab_parallel_run(); they never start threads of their own.
 *
 * The pool holds xrlab_parallel_n_threads() - 1 threads (the caller of a run
 * works too), started on first use. Several threads may run loops at the
 * same time; parts of every running loop are shared among the idle threads.
 * A run from inside a part (nested parallelism) runs its parts on the
 * calling thread, in order.
 *
 * Atomics: GLib's g_atomic_*() everywhere (no <stdatomic.h>).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _XrlabParallel XrlabParallel;

/* One part of a loop: @part in [0, n_parts). */
typedef void (*XrlabParallelFunc) (gpointer data, guint part);

/* The process's pool, sized to the processors (XRLAB_THREADS in the
 * environment overrides it: 1 = no threads). Never freed. */
XrlabParallel *xrlab_parallel_default (void);

/* The number of threads that can work on one loop at once (the pool's
 * threads + the caller), at least 1. */
guint xrlab_parallel_n_threads (XrlabParallel *pool);

/* Calls @func (@data, part) once for every part in [0, @n_parts), on the
 * calling thread and the pool's idle threads, and returns when every part
 * has returned. The parts may run in any order and at the same time; a
 * part must not wait for another. @pool NULL or @n_parts <= 1 runs on the
 * calling thread. */
void xrlab_parallel_run (XrlabParallel     *pool,
                         guint              n_parts,
                         XrlabParallelFunc  func,
                         gpointer           data);

/* TRUE on a thread of a pool (inside a part). */
gboolean xrlab_parallel_in_worker (void);

G_END_DECLS
