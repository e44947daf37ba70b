/* xrlab-quantity-info.h -- how the window presents the engine's quantities
 *
 * The engine (xrlab-optics.h) computes XrlabQuantity values in its units
 * (cm, Å⁻², …; the column names of `xrlab-cli calc`). The GUI shows some in
 * units that read better on a plot (µm, 10⁻⁶ Å⁻²): display value = engine
 * value × scale. The id is the name in session files.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "xrlab-optics.h"

G_BEGIN_DECLS

typedef struct {
  XrlabQuantity quantity;
  const char *id;            /* stable name in session files */
  const char *title;         /* for menus and the table (translated by the getter) */
  const char *symbol;        /* axis name, e.g. "δ", "θc" */
  const char *unit;          /* display unit, NULL when dimensionless */
  double scale;              /* display value = engine value × scale */
  gboolean plottable;        /* offered in the plot's quantity selector */
  gboolean log_y;            /* natural default for the y axis */
} XrlabQuantityInfo;

/* Translated copy of the table entry for @q (static storage). */
const XrlabQuantityInfo *xrlab_quantity_info_get    (XrlabQuantity q);
/* By stable id; NULL when unknown. */
const XrlabQuantityInfo *xrlab_quantity_info_lookup (const char *id);

G_END_DECLS
