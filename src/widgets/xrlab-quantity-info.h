/* xrlab-quantity-info.h -- the optical quantities the window shows, with
 * their symbols, display units and validity
 *
 * The engine computes these in its own units (cm, Å⁻², …, the column names of
 * `xrlab-cli calc`); the GUI shows some of them in units that read better on
 * a plot (µm, 10⁻⁶ Å⁻²): display value = engine value × scale.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  XRLAB_PLOT_QUANTITY_WAVELENGTH,
  XRLAB_PLOT_QUANTITY_DELTA,
  XRLAB_PLOT_QUANTITY_BETA,
  XRLAB_PLOT_QUANTITY_F1,
  XRLAB_PLOT_QUANTITY_F2,
  XRLAB_PLOT_QUANTITY_CRITICAL_ANGLE_DEG,
  XRLAB_PLOT_QUANTITY_CRITICAL_ANGLE,        /* mrad */
  XRLAB_PLOT_QUANTITY_ATTENUATION_LENGTH,
  XRLAB_PLOT_QUANTITY_MU,
  XRLAB_PLOT_QUANTITY_MU_RHO,
  XRLAB_PLOT_QUANTITY_TRANSMISSION,
  XRLAB_PLOT_QUANTITY_SLD_RE,
  XRLAB_PLOT_QUANTITY_SLD_IM,
  XRLAB_PLOT_N_QUANTITIES
} XrlabPlotQuantity;

typedef struct {
  XrlabPlotQuantity quantity;
  const char *id;            /* stable name in session files */
  const char *engine_column; /* the engine's / CLI's column name */
  const char *title;         /* for menus (translated by the getter) */
  const char *symbol;        /* axis name, e.g. "δ", "θc" */
  const char *unit;          /* display unit, NULL when dimensionless */
  double scale;              /* display value = engine value × scale */
  gboolean plottable;        /* offered in the plot's quantity selector */
  gboolean needs_f1;         /* needs f1, tabulated from 29.3 eV (f2: 10 eV) */
  gboolean log_y;            /* natural default for the y axis */
} XrlabQuantityInfo;

/* Energy range of the Henke tables (eV). */
#define XRLAB_HENKE_MIN_EV      10.0
#define XRLAB_HENKE_MIN_F1_EV   29.3
#define XRLAB_HENKE_MAX_EV   30000.0

/* Translated copy of the table entry for @q (static storage). */
const XrlabQuantityInfo *xrlab_quantity_info_get    (XrlabPlotQuantity q);
/* By stable id; NULL when unknown. */
const XrlabQuantityInfo *xrlab_quantity_info_lookup (const char *id);

/* The lowest energy (eV) at which @q is defined. */
double xrlab_quantity_min_ev (XrlabPlotQuantity q);

G_END_DECLS
