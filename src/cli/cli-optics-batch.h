/* cli-optics-batch.h -- the reading step of xrlab-cli batch on its own,
 * for the fuzz target (tests/fuzz/fuzz-batch.c) and tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "cli-optics.h"
#include "xrlab-energy.h"

G_BEGIN_DECLS

/* What reading and grouping the rows found, before anything is computed. */
typedef struct {
  gsize n_rows;       /* materials kept (some may fail at grouping) */
  gsize n_failed;     /* rows reported: a problem each */
  gsize n_groups;     /* energy specs of the rows kept */
  gsize n_grids;      /* of those, the specs that parse */
  char *problems;     /* the problems, "xrlab-cli: …\n" each, in line order */
} XrlabCliBatchInput;

/* Reads the @len bytes at @data as xrlab-cli batch reads its IN.csv (named
 * @name in messages): the header, the rows, their grids (energies in
 * @unit), the thickness of every row when @transmission (the default set
 * of columns otherwise). At most @max_values values for the grids and the
 * results (xrlab_cli_max_values() in the command). FALSE with @error set
 * when the whole file is refused: not text, a bad header, too large. */
gboolean xrlab_cli_batch_read_input (const char *name, const char *data, gsize len,
                                     XrlabEnergyUnit unit, gboolean transmission,
                                     guint64 max_values, XrlabCliBatchInput *input,
                                     GError **error);
void     xrlab_cli_batch_input_clear (XrlabCliBatchInput *input);

/* A good row of the output: its material, its n_e energies and its values
 * (the quantities of the fields in mask order, n_e each, the quantity k at
 * values[k × stride], as the engine's batch holds them), the table they
 * come from. */
typedef struct {
  const char *formula;
  double density;
  const double *energies_kev;
  gsize n_e;
  const double *values;
  const char *table;
  gsize stride;
} XrlabCliBatchRowOut;

/* The rows (one line per energy of each) as an HDF5 file at @path,
 * atomically (cli-batch-h5.c): /entry/results holds one dataset per column
 * of the CSV output. Stops without a file when @cancellable is cancelled. */
gboolean xrlab_cli_batch_write_h5 (const char *path, const XrlabCliBatchRowOut *rows,
                                   gsize n_rows, const XrlabCliFields *fields,
                                   GCancellable *cancellable, GError **error);

G_END_DECLS
