/* xrlab-energy.h -- photon energies: units, grids and energy specs
 *
 * Tables and their ranges. Each table of atomic scattering factors
 * (xrlab-table.h) covers an energy range, given as data (XrlabEnergyRange),
 * not as constants in the code that checks it: Henke 30 eV - 30 keV (its
 * documented range: below 30 eV every quantity is refused, although f2 is
 * tabulated from 10 eV and f1 from 29.3 eV at the latest), Chantler
 * 1.01 eV - 966.27 keV (its first and last rows). A grid is made for a
 * table choice (henke, chantler, auto) and checked against the range of
 * that choice when it is made; auto's range is the widest (Chantler's), and
 * the grid then carries the table auto chose for all of its energies
 * (xrlab_energy_choose_table()). An energy outside gets an error naming it,
 * the table and the valid range, printed with enough digits to show which
 * side it lies on; NaN and infinite energies are rejected when the grid is
 * made. Every check counts an energy within XRLAB_ENERGY_SLACK of an end as
 * that end (xrlab_energy_place()).
 *
 * Units. Energies are entered in keV, eV or as wavelengths in Å; inside the
 * engine they are keV, with λ = hc/E (XRLAB_HC_KEV_A, xrlab-constants.h).
 *
 * A grid is immutable and reference counted: it may be shared between
 * threads.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "xrlab-table.h"

G_BEGIN_DECLS

/* Energies, grids and the optics computations share one error domain. */
#define XRLAB_OPTICS_ERROR (xrlab_optics_error_quark ())
GQuark xrlab_optics_error_quark (void);

typedef enum {
  XRLAB_OPTICS_ERROR_ENERGY,    /* an energy that is not a number, not positive, or outside the tables */
  XRLAB_OPTICS_ERROR_SPEC,      /* an energy SPEC or unit that does not parse */
  XRLAB_OPTICS_ERROR_MATERIAL,  /* a density or thickness that is not valid */
  XRLAB_OPTICS_ERROR_DATA,      /* the built-in tables could not be read */
} XrlabOpticsError;

/* ---- tables and their energy ranges -------------------------------------- */

/* The tables of atomic scattering factors are XrlabTable (xrlab-table.h);
 * these are older names for them. */
typedef XrlabTable XrlabFactorTable;
#define XRLAB_FACTOR_TABLE_HENKE    XRLAB_TABLE_HENKE
#define XRLAB_FACTOR_TABLE_CHANTLER XRLAB_TABLE_CHANTLER
#define XRLAB_FACTOR_TABLE_N        XRLAB_TABLE_N_TABLES

/* The energies a table covers, in eV (the unit the tables are given in). */
typedef struct {
  XrlabTable table;
  const char *id;            /* machine name ("henke"): options and files, never translated */
  const char *name;          /* proper name ("Henke") in messages: "outside the Henke tables" */
  double min_ev;             /* every energy of a grid lies within [min_ev, max_ev] */
  double max_ev;
  double complete_min_ev;    /* from here to max_ev every element has every quantity (the
                              * window's range: it computes all quantities together) */
} XrlabEnergyRange;

const XrlabEnergyRange *xrlab_energy_range_get (XrlabTable table);

/* The range a choice accepts: its table's, and for auto the widest of the
 * tables' (Chantler's, which contains Henke's). */
const XrlabEnergyRange *xrlab_energy_range_get_for_choice (XrlabTableChoice choice);

/* The table @choice takes for a request whose energies span [@min_kev,
 * @max_kev]: the chosen table itself, or for auto Henke when the whole span
 * lies within Henke's range (counting XRLAB_ENERGY_SLACK), Chantler
 * otherwise. */
XrlabTable xrlab_energy_choose_table (XrlabTableChoice choice, double min_kev, double max_kev);

/* The range of the Henke tables [keV], as constants for older callers: the
 * code checks against xrlab_energy_range_get (XRLAB_TABLE_HENKE). */
#define XRLAB_ENERGY_MIN_KEV 0.03
#define XRLAB_ENERGY_MAX_KEV 30.0

/* An energy within this relative distance outside an end of a range counts
 * as that end: a limit that went through a unit conversion (keV, eV, Å) or
 * a printed and re-read number may come back a few units in the last place
 * outside, and must still count as the limit. */
#define XRLAB_ENERGY_SLACK 1e-9

typedef enum {
  XRLAB_ENERGY_INSIDE,
  XRLAB_ENERGY_BELOW,
  XRLAB_ENERGY_ABOVE,
  XRLAB_ENERGY_UNORDERED,    /* NaN */
} XrlabEnergyPlace;

/* Where @energy lies with respect to [@min, @max] (all three in one unit:
 * the slack is relative), counting XRLAB_ENERGY_SLACK. @snapped (may be
 * NULL) gets the end when @energy is within the slack outside it, @energy
 * otherwise. The one range check of the engine and of the window. */
static inline XrlabEnergyPlace
xrlab_energy_place (double energy, double min, double max, double *snapped)
{
  double e = energy;

  if (e < min && e >= min * (1 - XRLAB_ENERGY_SLACK))
    e = min;
  else if (e > max && e <= max * (1 + XRLAB_ENERGY_SLACK))
    e = max;
  if (snapped != NULL)
    *snapped = e;
  if (e >= min && e <= max)
    return XRLAB_ENERGY_INSIDE;
  if (e < min)
    return XRLAB_ENERGY_BELOW;
  if (e > max)
    return XRLAB_ENERGY_ABOVE;
  return XRLAB_ENERGY_UNORDERED;
}

/* ---- units and grids ------------------------------------------------------ */

/* The most points of one grid. */
#define XRLAB_ENERGY_GRID_MAX_POINTS 1000000

typedef enum {
  XRLAB_ENERGY_UNIT_KEV,
  XRLAB_ENERGY_UNIT_EV,
  XRLAB_ENERGY_UNIT_ANGSTROM,   /* values are wavelengths */
} XrlabEnergyUnit;

/* "keV", "eV", "A" / "Å" / "Angstrom" (case-insensitive); FALSE if none. */
gboolean    xrlab_energy_unit_parse (const char *text, XrlabEnergyUnit *unit);
/* The unit as printed: "keV", "eV", "Å". */
const char *xrlab_energy_unit_get_name (XrlabEnergyUnit unit);
/* The unit in files (ASCII): "keV", "eV", "A"; and back, exactly "keV",
 * "eV", "A" or "Å" (FALSE for anything else). */
const char *xrlab_energy_unit_get_id   (XrlabEnergyUnit unit);
gboolean    xrlab_energy_unit_from_id  (const char *id, XrlabEnergyUnit *unit);

/* Photon energy [keV] ↔ wavelength [Å]: λ E = hc = 12.398419843320026 keV Å. */
double xrlab_kev_to_angstrom (double energy_kev);
double xrlab_angstrom_to_kev (double wavelength_a);

/* @value in @unit to keV (E = hc/λ for wavelengths). */
double xrlab_energy_to_kev (double value, XrlabEnergyUnit unit);
/* @energy_kev in @unit (λ = hc/E for wavelengths). */
double xrlab_energy_from_kev (double energy_kev, XrlabEnergyUnit unit);
/* @value in @from to @to: exact when the units are the same, one
 * multiplication or division by 1000 between eV and keV, through keV
 * otherwise. The one conversion of the engine and the window. */
double xrlab_energy_convert (double value, XrlabEnergyUnit from, XrlabEnergyUnit to);

typedef enum {
  XRLAB_GRID_LINEAR,
  XRLAB_GRID_LOG,
} XrlabGridSpacing;

/* @n >= 2 values from @start to @stop inclusive (in any one unit), equally
 * spaced (LINEAR) or equally spaced in their logarithm (LOG); the end
 * points are exact. The points of xrlab_energy_grid_new_range() and of the
 * window's sweep. */
void xrlab_energy_fill_range (double start, double stop, gsize n,
                              XrlabGridSpacing spacing, double *values);

/* An immutable, reference-counted set of photon energies with what every
 * computation on it needs precomputed (λ, λ² and λ factors). */
typedef struct _XrlabEnergyGrid XrlabEnergyGrid;

/* The @n values (in @unit, in the given order, repeats allowed) for the
 * table choice @choice. Every value must be finite, positive, and within
 * the range of @choice (xrlab_energy_range_get_for_choice(); a value within
 * XRLAB_ENERGY_SLACK of a limit is taken as the limit); the error names the
 * first that is not, its position, the table and its range. The grid
 * carries the table @choice takes for all of them. */
XrlabEnergyGrid *xrlab_energy_grid_new_for_table (const double *values, gsize n,
                                                  XrlabEnergyUnit unit,
                                                  XrlabTableChoice choice,
                                                  GError **error);

/* @n >= 2 points from @start to @stop inclusive (either order), equally
 * spaced in the value of @unit (LINEAR) or in its logarithm (LOG; for Å the
 * wavelengths are spaced, then converted). The end points are exact. */
XrlabEnergyGrid *xrlab_energy_grid_new_range_for_table (double start, double stop, gsize n,
                                                        XrlabGridSpacing spacing,
                                                        XrlabEnergyUnit unit,
                                                        XrlabTableChoice choice,
                                                        GError **error);

/* An energy SPEC in @unit:
 *   "10"              one energy
 *   "5,10,15"         a list
 *   "5:15:11"         11 points from 5 to 15, linear ("5:15:11:lin" too)
 *   "1:30:100:log"    100 points, logarithmic
 *   "5-15:11"         the same as "5:15:11" (also with ":log")
 * Spaces around the parts are ignored; numbers are decimal (no "0x10").
 * Errors name the offending part. */
XrlabEnergyGrid *xrlab_energy_grid_parse_for_table (const char *spec, XrlabEnergyUnit unit,
                                                    XrlabTableChoice choice, GError **error);

/* The same for the Henke tables (choice henke). */
XrlabEnergyGrid *xrlab_energy_grid_new (const double *values, gsize n,
                                        XrlabEnergyUnit unit, GError **error);
XrlabEnergyGrid *xrlab_energy_grid_new_range (double start, double stop, gsize n,
                                              XrlabGridSpacing spacing,
                                              XrlabEnergyUnit unit, GError **error);
XrlabEnergyGrid *xrlab_energy_grid_parse (const char *spec, XrlabEnergyUnit unit, GError **error);

XrlabEnergyGrid *xrlab_energy_grid_ref   (XrlabEnergyGrid *grid);
void             xrlab_energy_grid_unref (XrlabEnergyGrid *grid);

gsize         xrlab_energy_grid_get_size         (const XrlabEnergyGrid *grid);
const double *xrlab_energy_grid_get_energies_kev (const XrlabEnergyGrid *grid);
/* λ [Å]; exactly the given values for a grid made in Å. */
const double *xrlab_energy_grid_get_wavelengths_a (const XrlabEnergyGrid *grid);
double        xrlab_energy_grid_get_min_kev      (const XrlabEnergyGrid *grid);
double        xrlab_energy_grid_get_max_kev      (const XrlabEnergyGrid *grid);
/* The table every computation on the grid uses, and the choice that took it. */
XrlabTable       xrlab_energy_grid_get_table        (const XrlabEnergyGrid *grid);
XrlabTableChoice xrlab_energy_grid_get_table_choice (const XrlabEnergyGrid *grid);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (XrlabEnergyGrid, xrlab_energy_grid_unref)

G_END_DECLS
