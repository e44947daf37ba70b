/* xrlab-sweep.h -- an energy sweep and the units it is entered in
 *
 * A sweep is what the user typed: start, stop, points and spacing in one
 * unit. Its conversions, range checks and points are the engine's
 * (xrlab-energy.h): the window's grid holds exactly the points a CLI grid
 * of the same range would.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

#include "xrlab-energy.h"

G_BEGIN_DECLS

/* A sweep as the user entered it: @start and @stop in @unit (for Å, the
 * wavelength range), @points samples spaced linearly or logarithmically in
 * that unit, computed with the tables of @table (xrlab-table.h: henke,
 * chantler, or auto for the whole sweep). A sweep written without @table
 * (0) is Henke's. */
typedef struct {
  double start;
  double stop;
  guint points;
  gboolean log;
  XrlabEnergyUnit unit;
  XrlabTableChoice table;
} XrlabSweep;

#define XRLAB_SWEEP_MIN_POINTS 2
#define XRLAB_SWEEP_MAX_POINTS 20000

gboolean xrlab_sweep_equal (const XrlabSweep *a, const XrlabSweep *b);

/* The energies the window accepts for the table choice of @sweep: the
 * range of the choice (xrlab_energy_range_get_for_choice(): Henke 30 eV -
 * 30 keV, Chantler and auto 1.01 eV - 966 keV) where every element has
 * every quantity, since the engine computes all quantities of a material
 * together. Sweeps, the values table and session files are checked
 * against it. */
const XrlabEnergyRange *xrlab_sweep_get_range (const XrlabSweep *sweep);

/* The range of the Henke choice, xrlab_sweep_get_range() of a sweep
 * without a table. */
const XrlabEnergyRange *xrlab_sweep_get_default_range (void);

/* Checks the sweep: finite, positive, start < stop, 2 … 20000 points, and
 * every energy within [@range->complete_min_ev, @range->max_ev]. The
 * message names the offending value and the table, and shows the valid
 * range in the sweep's unit. */
gboolean xrlab_sweep_validate (const XrlabSweep       *sweep,
                               const XrlabEnergyRange *range,
                               GError                **error);

/* Fills @x (sweep->points values, in the sweep's unit, ascending) and, when
 * @ev is not NULL, the same points as energies in eV. */
void xrlab_sweep_fill (const XrlabSweep *sweep, double *x, double *ev);

/* The lowest and highest energy of the sweep, in eV. */
void xrlab_sweep_energy_range (const XrlabSweep *sweep, double *min_ev, double *max_ev);

/* Formats @ev in @unit with 4–6 significant digits ("29.3 eV", "0.4133 Å"). */
char *xrlab_format_energy (double ev, XrlabEnergyUnit unit);

#define XRLAB_SWEEP_ERROR (xrlab_sweep_error_quark ())
GQuark xrlab_sweep_error_quark (void);

typedef enum {
  XRLAB_SWEEP_ERROR_INVALID,
  XRLAB_SWEEP_ERROR_RANGE,
} XrlabSweepError;

G_END_DECLS
