/* bench-private.h -- shared pieces of xrlab-bench
 *
 * Benchmarks print medians and the figures the issues ask for as
 * "group.name=value" lines, verify their own results (exit 1 when a result is
 * wrong) and make no timing assertions.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef int (*XrlabBenchRun) (int argc, char **argv);

typedef struct {
  const char *name;
  const char *summary;
  XrlabBenchRun run;
} XrlabBenchGroup;

/* Sorts @v in place and returns its median / the @q quantile (0..1,
 * nearest-rank). */
double xrlab_bench_median   (double *v, gsize n);
double xrlab_bench_quantile (double *v, gsize n, double q);

/* Prints "key=value" with enough digits, flushed. */
void xrlab_bench_report (const char *key, double value);

/* Records a failed self-check (printed as "CHECK FAILED: ..."); the process
 * exits 1 at the end. */
void xrlab_bench_check (gboolean ok, const char *format, ...) G_GNUC_PRINTF (2, 3);
gboolean xrlab_bench_failed (void);

/* Prevents the compiler from optimising a result away. */
void xrlab_bench_consume (const void *p);

/* Groups, one per file. */
int xrlab_bench_optics (int argc, char **argv);   /* bench-optics.c */
int xrlab_bench_engine (int argc, char **argv);   /* bench-engine.c */
int xrlab_bench_models (int argc, char **argv);   /* bench-models.c */
int xrlab_bench_fit (int argc, char **argv);      /* bench-fit.c */
int xrlab_bench_fitengine (int argc, char **argv); /* bench-fitengine.c */
int xrlab_bench_io (int argc, char **argv);       /* bench-io.c */
void xrlab_bench_io_process (void);               /* bench-io-process.c: part of io */
int xrlab_bench_reflect (int argc, char **argv);  /* bench-reflect.c */
int xrlab_bench_gui (int argc, char **argv);      /* bench-gui.c, built with the GUI */
int xrlab_bench_gui_fit (int argc, char **argv);  /* bench-gui-fit.c, likewise */

G_END_DECLS
