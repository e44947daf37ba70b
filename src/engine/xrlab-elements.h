/* xrlab-elements.h -- the elements H to U: symbols, names, atomic weights,
 * Henke scattering-factor tables and absorption edges
 *
 * Atoms are named by an id: 1..92 are the elements by atomic number Z with
 * their natural isotopic composition; XRLAB_ELEMENT_D and XRLAB_ELEMENT_T are
 * hydrogen's heavy isotopes deuterium (²H) and tritium (³H), which scatter
 * X-rays like hydrogen (Z = 1) but have their own mass.
 *
 * Atomic weights (g/mol), in one place (xrlab-elements.c):
 *   IUPAC/CIAAW standard atomic weights 2021 (T. Prohaska et al., Pure Appl.
 *   Chem. 94, 573 (2022), https://www.ciaaw.org), the conventional values of
 *   the abridged table for elements whose standard weight is an interval
 *   (H 1.008, Li 6.94, B 10.81, C 12.011, N 14.007, O 15.999, Mg 24.305,
 *   Si 28.085, S 32.06, Cl 35.45, Ar 39.95, Br 79.904, Tl 204.38, Pb 207.2);
 *   for Tc, Pm, Po, At, Rn, Fr, Ra, Ac (no stable isotope, no standard
 *   weight) the mass number of the longest-lived isotope. D and T: the atomic
 *   masses of ²H and ³H from the Atomic Mass Evaluation AME2020 (M. Wang et
 *   al., Chin. Phys. C 45, 030003 (2021)).
 *
 * Scattering factors: the Henke, Gullikson & Davis tables with the CXRO
 * updates (data/henke/README.md, 10 eV - 30 keV) and Chantler's NIST FFAST
 * tables (data/chantler/README.md, 1 eV - ~1 MeV), compiled in as binary
 * arrays (data/gen-table-blob.py) and loaded lazily, once per table and
 * element, thread safe;
 * afterwards read-only. Both are interpolated by PCHIP, split at the
 * absorption edges that the tables list as steps (xrlab-edges.h).
 *
 * Absorption edges: xraylib's EdgeEnergy() (T. Schoonjans et al.,
 * Spectrochim. Acta B 66, 776 (2011)), evaluated when xrlab is built
 * (xrlab-xraylib-data.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "xrlab-edges.h"
#include "xrlab-pchip.h"
#include "xrlab-table.h"

G_BEGIN_DECLS

#define XRLAB_ELEMENT_ERROR (xrlab_element_error_quark ())
GQuark xrlab_element_error_quark (void);

typedef enum {
  XRLAB_ELEMENT_ERROR_UNKNOWN,  /* no such element / id */
  XRLAB_ELEMENT_ERROR_DATA,     /* a built-in table could not be read */
} XrlabElementError;

enum {
  XRLAB_ELEMENT_Z_MAX = 92,   /* U: the last element with a Henke table */
  XRLAB_ELEMENT_D = 93,       /* deuterium, ²H */
  XRLAB_ELEMENT_T = 94,       /* tritium, ³H */
  XRLAB_ELEMENT_N_IDS = 95,   /* ids are 1 .. XRLAB_ELEMENT_N_IDS - 1 */
};

/* TRUE for 1..92, D and T. */
gboolean    xrlab_element_id_is_valid (int id);

/* Atomic number: id for 1..92, 1 for D and T. */
int         xrlab_element_get_z       (int id);

/* "H" .. "U", "D", "T". */
const char *xrlab_element_get_symbol  (int id);

/* English name: "Hydrogen" .. "Uranium", "Deuterium", "Tritium"; the
 * translation is g_dpgettext2 (GETTEXT_PACKAGE, "element", name). */
const char *xrlab_element_get_name    (int id);

/* Atomic weight (g/mol), see the top of this file. */
double      xrlab_element_get_weight  (int id);

/* The id of the symbol @symbol (@len bytes, or -1 when NUL-terminated),
 * case-sensitive ("Si", not "si" or "SI"); 0 when unknown. */
int         xrlab_element_lookup      (const char *symbol, gssize len);

/* ---- Henke tables ------------------------------------------------------- */

/* The scattering factors f1(E) and f2(E) (electrons per atom) of one element,
 * interpolated by PCHIP on linear energy (eV), split at the absorption
 * edges that the table lists as steps (xrlab-edges.h; Si's out-of-order
 * row at 1839.0 eV is dropped). f1 is tabulated from f1_min_ev (29.3 eV for
 * most elements, lower for the updated ones; the table's -9999 rows are
 * dropped), f2 from f2_min_ev (10 eV; 1 eV for Zr), both to max_ev (30
 * keV). The f1 values contain Henke's relativistic correction
 * Z* = Z - (Z/82.5)^2.37. The same interpolants as
 * xrlab_scattering_table_get (XRLAB_TABLE_HENKE, z). */
typedef struct {
  int z;
  const XrlabPchip *f1;
  const XrlabPchip *f2;
  double f1_min_ev;
  double f2_min_ev;
  double max_ev;
  gsize n_rows;           /* rows of the table */
} XrlabHenkeTable;

/* The table of element @z (1..92; D and T use hydrogen's: pass
 * xrlab_element_get_z (id)). Loaded on first use, thread safe; the table is
 * shared, read-only, and lives until exit. NULL with @error when @z is out of
 * range or the built-in data are damaged. */
const XrlabHenkeTable *xrlab_henke_get (int z, GError **error);

/* ---- scattering-factor tables: Henke or Chantler ------------------------ */

/* The tables (XrlabTable), their names and the choice between them:
 * xrlab-table.h. */

/* An absorption edge in a table: the position of the jump, one per xraylib
 * shell (xrlab-edges.h, "Edge positions"), the rows either side of it,
 * labelled with xraylib's nearest edge. */
typedef struct {
  double lower_ev;       /* the row below the jump */
  double upper_ev;       /* the row above it */
  double energy_ev;      /* the jump position: (lower_ev + upper_ev) / 2 */
  double f2_ratio;       /* f2 at upper_ev / f2 at lower_ev */
  gboolean step;         /* a step (the interpolants are split there), or a
                          * rise that the table resolves over several rows */
  const char *shell;     /* xraylib's nearest edge: "K", "L3", "N5", ...; NULL if none */
  double xraylib_ev;     /* its energy (EdgeEnergy), NAN if none */
} XrlabTableEdge;

/* One element of one table. f1 is the real part of the forward atomic
 * scattering factor in electrons per atom, with the corrections the table
 * defines (f1_relativistic and f1_nuclear_thomson, included); f2 the
 * imaginary part; scatter_cm2_g the coherent + incoherent scattering cross
 * section per mass (cm²/g), NULL when the table has none (Henke). All are
 * PCHIP on linear energy (eV), split at the table's steps.
 *
 * Ranges, per element: f1 is tabulated on [f1_min_ev, max_ev], f2 and
 * scatter_cm2_g on [f2_min_ev, max_ev]. valid_min_ev .. valid_max_ev is the
 * range the table is meant for, inside the tabulated one: Henke 30 eV -
 * 30 keV (its documentation: below 30 eV neither the tables nor the
 * refractive-index formula built on them hold), Chantler its first to its
 * last row (1.01 eV - 966.3 keV). Callers enforce it. */
typedef struct {
  XrlabTable table;
  int z;
  const XrlabPchip *f1;
  const XrlabPchip *f2;
  const XrlabPchip *scatter_cm2_g;
  double f1_min_ev;
  double f2_min_ev;
  double max_ev;
  double valid_min_ev;
  double valid_max_ev;
  double f1_relativistic;     /* Henke: -(Z/82.5)^2.37; Chantler: frel (3/5 CL) */
  double f1_nuclear_thomson;  /* Henke: 0 (not included); Chantler: fNT */
  gsize n_rows;               /* rows used (after rows out of order are dropped) */
  const XrlabTableEdge *edges;   /* the edge positions, ascending in energy */
  gsize n_edges;
} XrlabScatteringTable;

/* The table @table of element @z (1..92; D and T use hydrogen's). Loaded on
 * first use, thread safe; shared, read-only, lives until exit. NULL with
 * @error when @z or @table is out of range or the built-in data are
 * damaged. */
const XrlabScatteringTable *xrlab_scattering_table_get (XrlabTable table, int z,
                                                        GError **error);

/* The coherent + incoherent scattering cross section of one atom of the
 * table's element at @energy_ev, times N_A [cm²/mol] (divide by the molar
 * mass of a material for its share of μ/ρ): Chantler: its own column
 * (cm²/g, PCHIP like f1 and f2) times xrlab's atomic weight of the
 * element; Henke, which has none: xraylib's CS_Rayl + CS_Compt (cm²/g)
 * times xraylib's atomic weight, the per-atom cross sections xraylib's are
 * made from, evaluated at the table's rows when xrlab is built
 * (xrlab-xraylib-data.h) and interpolated by PCHIP between them (within 2e-4 of xraylib's own at any
 * energy: the cross sections are smooth). xraylib's scattering tables
 * start at 0.1 keV: below, the value at 0.1 keV (scattering there is at
 * most 0.3 % of any element's photoabsorption: Fr at 50 eV). @energy_ev
 * within [f2_min_ev, max_ev]; NaN otherwise. @hint as xrlab_pchip_eval().
 * Allocates nothing; thread safe. */
double xrlab_scattering_table_eval_scatter (const XrlabScatteringTable *table, double energy_ev,
                                            gsize *hint);

/* ---- absorption edges --------------------------------------------------- */

typedef enum {
  XRLAB_EDGE_K,
  XRLAB_EDGE_L1,
  XRLAB_EDGE_L2,
  XRLAB_EDGE_L3,
  XRLAB_EDGE_M1,
  XRLAB_EDGE_M2,
  XRLAB_EDGE_M3,
  XRLAB_EDGE_M4,
  XRLAB_EDGE_M5,
  XRLAB_EDGE_N_EDGES,
} XrlabEdge;

/* "K", "L1", "L2", "L3", "M1" .. "M5". */
const char *xrlab_edge_get_name (XrlabEdge edge);

/* The absorption-edge energy (keV) of @edge of element @z (1..92), from
 * xraylib. FALSE when the element has no such edge (the M edges of light
 * elements, the K edge of nothing) or @z is out of range. */
gboolean xrlab_element_get_edge_kev (int z, XrlabEdge edge, double *energy_kev);

G_END_DECLS
