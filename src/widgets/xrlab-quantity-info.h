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

/* The energies the window accepts (eV): the Henke tables run from 10 eV, but
 * f1 only from 29.3 eV, and the engine computes every quantity of a
 * material together (δ, θc and the real SLD need f1), so sweeps and the
 * values table start at 29.3 eV. */
#define XRLAB_HENKE_MIN_EV      10.0
#define XRLAB_HENKE_MIN_F1_EV   29.3
#define XRLAB_HENKE_MAX_EV   30000.0

/* Translated copy of the table entry for @q (static storage). */
const XrlabQuantityInfo *xrlab_quantity_info_get    (XrlabQuantity q);
/* By stable id; NULL when unknown. */
const XrlabQuantityInfo *xrlab_quantity_info_lookup (const char *id);

/* The lowest energy (eV) at which the window shows @q. */
double xrlab_quantity_min_ev (XrlabQuantity q);

G_END_DECLS
