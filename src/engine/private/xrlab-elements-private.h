/* xrlab-elements-private.h -- the binary scattering-factor tables, for the
 * test that compares them with the text files (tests/test-tables.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "xrlab-elements.h"

G_BEGIN_DECLS

/* The columns of the table file @name (lower-case symbol, "au") of @table
 * as built from data/henke/NAME.nff or data/chantler/NAME.dat: @n_cols
 * arrays of doubles (3 or 5; @cols resized) and the header keys Z,
 * frel_3/5CL and fNT (NaN where absent). */
gboolean xrlab_table_read_columns (XrlabTable table, const char *name, guint n_cols,
                                   GArray **cols, double keys[3], GError **error);

G_END_DECLS
