/* xrlab-sweep.h -- an energy sweep and the units it is entered in
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

#include "xrlab-constants.h"
#include "xrlab-optics.h"     /* XrlabEnergyUnit */

G_BEGIN_DECLS

/* h·c in eV·Å: λ[Å] = HC / E[eV] (xrlab-constants.h, CODATA 2018). */
#define XRLAB_HC_EV_ANGSTROM (XRLAB_HC_KEV_A * 1e3)

/* A sweep as the user entered it: @start and @stop in @unit (for Å, the
 * wavelength range), @points samples spaced linearly or logarithmically in
 * that unit. */
typedef struct {
  double start;
  double stop;
  guint points;
  gboolean log;
  XrlabEnergyUnit unit;
} XrlabSweep;

#define XRLAB_SWEEP_MIN_POINTS 2
#define XRLAB_SWEEP_MAX_POINTS 20000

gboolean xrlab_sweep_equal (const XrlabSweep *a, const XrlabSweep *b);

/* "eV", "keV", "Å" (display) and "eV", "keV", "A" (files). */
const char *xrlab_energy_unit_symbol (XrlabEnergyUnit unit);
const char *xrlab_energy_unit_id     (XrlabEnergyUnit unit);
gboolean    xrlab_energy_unit_from_id (const char *id, XrlabEnergyUnit *unit);

double xrlab_energy_unit_to_ev   (double value, XrlabEnergyUnit unit);
double xrlab_energy_unit_from_ev (double ev, XrlabEnergyUnit unit);

/* Checks the sweep: finite, positive, start < stop, 2 … 20000 points, and
 * every energy within [@min_ev, @max_ev]. The message names the offending
 * value and shows the valid range in the sweep's unit. */
gboolean xrlab_sweep_validate (const XrlabSweep *sweep,
                               double            min_ev,
                               double            max_ev,
                               GError          **error);

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
