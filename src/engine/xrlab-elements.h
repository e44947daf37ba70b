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
 * updates (data/henke/README.md), compiled in as a GResource and loaded
 * lazily, once per element, thread safe; afterwards read-only.
 *
 * Absorption edges: xraylib's EdgeEnergy() (T. Schoonjans et al.,
 * Spectrochim. Acta B 66, 776 (2011)).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "xrlab-pchip.h"

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
 * interpolated by PCHIP on linear energy (eV), split at repeated energies
 * (xrlab-pchip.h). f1 is tabulated from f1_min_ev (29.3 eV for most
 * elements, lower for the updated ones; the table's -9999 rows are dropped),
 * f2 from f2_min_ev (10 eV; 1 eV for Zr), both to max_ev (30 keV). The f1 values contain
 * Henke's relativistic correction Z* = Z - (Z/82.5)^2.37. */
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
