/* cli-optics-batch-private.h -- the state of xrlab-cli batch, shared by
 * its reading (cli-optics-batch-read.c) and the command
 * (cli-optics-batch.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stdio.h>

#include "cli-optics.h"
#include "cli-optics-batch.h"
#include "xrlab-engine.h"
#include "xrlab-formula.h"

G_BEGIN_DECLS

/* One material of the input. */
typedef struct {
  guint line;
  char *formula_text;
  XrlabFormula *formula;
  double density;
  double thickness;     /* NaN: none */
  char *spec;
  gsize group;          /* index into the groups */
  gsize index;          /* material index within its group (a point group: energy index) */
  gboolean failed;
} BatchRow;

/* The rows of one energy spec; or a point group: the rows whose spec is
 * one energy, of one material (formula, density, thickness) and one table,
 * computed as that material on the grid of their energies, one each. */
typedef struct {
  char *spec;           /* NULL for a point group */
  XrlabEnergyGrid *grid;
  char *grid_error;     /* why the spec does not parse, when grid is NULL */
  GArray *rows;         /* of guint: row numbers */
  XrlabEngineBatch *batch;  /* the engine's reply: values of every row */
  gboolean points;
  GArray *energies;     /* a point group's (in the batch's unit), while grouping */
  XrlabTable table;     /* a point group's */
} BatchGroup;

/* Progress of a batch on a terminal: computing the rows, then writing them
 * (each counts one step per row). */
typedef struct {
  gboolean tty;
  gboolean shown;
  gsize done_before;    /* rows of earlier groups */
  gsize total;          /* 2 × rows */
  double last;
} Progress;

typedef struct {
  guint line;
  char *message;
} Problem;

typedef struct {
  const char *path;             /* IN.csv, named in messages */
  XrlabEnergyUnit unit;
  XrlabTableChoice choice;      /* --table: each group takes its table by it */
  XrlabQuantity transmission;   /* --transmission */
  double thickness_default;     /* --thickness, NaN when not given */

  /* read: the columns (0-based; -1 when absent) and the rows */
  int col_formula, col_density, col_energy, col_thickness;
  guint n_header;               /* fields of the header, 0 without one */
  gboolean header_seen;         /* a header may only come first */
  GArray *rows;                 /* of BatchRow */
  GArray *problems;             /* of Problem */
  gsize n_failed;

  /* group and compute */
  XrlabCliFields fields;
  GArray *groups;               /* of BatchGroup */
  GHashTable *group_of_spec;    /* spec → group index */
  GHashTable *group_of_point;   /* table, density, thickness, formula → point group index */
  GHashTable *formula_of_text;  /* formula text → XrlabFormula (parsed once) */
  XrlabEngine *engine;
  Progress progress;
  GCancellable *interrupt;      /* Ctrl-C, SIGTERM */
  guint64 max_values;           /* of the grids and the results together */
  guint64 n_values;
} Batch;

void     xrlab_cli_batch_init   (Batch *b, const char *path);
void     xrlab_cli_batch_clear  (Batch *b);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Batch, xrlab_cli_batch_clear)

static inline BatchRow *
xrlab_cli_batch_row_at (const Batch *b, guint r)
{
  return &g_array_index (b->rows, BatchRow, r);
}

/* A problem of the row at @line, reported after the good rows. */
void     xrlab_cli_batch_report (Batch *b, guint line, const char *format, ...) G_GNUC_PRINTF (3, 4);
int      xrlab_cli_batch_compare_problems (gconstpointer a, gconstpointer b);
void     xrlab_cli_batch_print_problems (const Batch *b);

/* The rows of the @len bytes at @data; FALSE with @error when the whole
 * file is refused. */
gboolean xrlab_cli_batch_read   (Batch *b, const char *data, gsize len, GError **error);
/* Whether any row has a thickness (or --thickness gave one). */
gboolean xrlab_cli_batch_has_thickness (const Batch *b, gboolean option_given);
/* The rows grouped for the engine; FALSE with @error when they need more
 * than b->max_values values. */
gboolean xrlab_cli_batch_group  (Batch *b, GError **error);

G_END_DECLS
