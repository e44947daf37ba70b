/* xrlab-presets.h -- materials with known densities, and absorption edges
 *
 * The preset list is a short list of materials common at beamlines (mirror
 * and multilayer coatings, windows, substrates, filters, solvents) with
 * handbook densities, followed by the NIST compound list of xraylib
 * (GetCompoundDataNISTList(), from the NIST ESTAR/XCOM material
 * compositions, with their mass fractions and densities). Every preset's
 * formula is a valid xrlab formula: NIST compounds are written as mass
 * fraction mixtures of their elements ("11.1898wt% H // O"). Compounds with
 * elements beyond U (Plutonium Dioxide) are left out.
 *
 * The list is built once on first use (thread safe) and is read-only.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "xrlab-elements.h"
#include "xrlab-formula.h"

G_BEGIN_DECLS

typedef enum {
  XRLAB_PRESET_COMMON,   /* xrlab's own list */
  XRLAB_PRESET_NIST,     /* xraylib's NIST compounds */
} XrlabPresetSource;

typedef struct {
  const char *name;            /* "Silicon", "Kapton Polyimide Film" */
  const char *formula;         /* parses with xrlab_formula_parse() */
  double density_g_cm3;
  XrlabPresetSource source;
  const char *note;            /* "fused silica", "(100) wafer", ...; may be "" */
} XrlabPreset;

/* All presets: the common ones first, then the NIST compounds. */
gsize              xrlab_presets_get_n (void);
const XrlabPreset *xrlab_presets_get   (gsize index);

/* The preset named @text (case-insensitive), else the first whose formula is
 * exactly @text ("SiO2" → fused silica, 2.2 g/cm³); NULL when none. */
const XrlabPreset *xrlab_presets_lookup (const char *text);

/* The presets whose name, formula or note contains @text
 * (case-insensitive); all of them for NULL or "". A new array of
 * const XrlabPreset * (free with g_ptr_array_unref). */
GPtrArray *xrlab_presets_search (const char *text);

/* ---- absorption edges ------------------------------------------------- */

typedef struct {
  int z;
  XrlabEdge edge;
  double energy_kev;
} XrlabEdgeEnergy;

/* The K, L1–L3, M1–M5 edges that element @z (1..92) has, in that order
 * (xraylib's EdgeEnergy()), into @edges; returns how many. */
gsize xrlab_presets_get_edges (int z, XrlabEdgeEnergy edges[XRLAB_EDGE_N_EDGES]);

/* The edges of the elements of @formula within [@min_kev, @max_kev], sorted
 * by energy: markers for a plot. A new array of XrlabEdgeEnergy. */
GArray *xrlab_presets_get_formula_edges (const XrlabFormula *formula,
                                         double min_kev, double max_kev);

/* ---- plot markers ------------------------------------------------------ */

/* An edge of an xraylib shell, K = 0, L1–L3 = 1–3, M1–M5 = 4–8, N1–N7 =
 * 9–15, O1–O7 = 16–22 (xrlab_edges_shell_name()). */
typedef struct {
  int z;
  int shell;
  double energy_kev;
} XrlabShellEdge;

#define XRLAB_SHELL_M5 8
#define XRLAB_SHELL_O7 22

/* How important an edge of @shell is among those of its element, for
 * thinning a crowded axis (0 first): K, L3, L2, L1, M5, M4, ... M1, N7 ...
 * N1, O7 ... O1, i.e. by shell and, within one, the highest subshell first
 * (the strongest jump in absorption). */
int     xrlab_presets_shell_priority      (int shell);

/* The edges of shells K … @max_shell (XRLAB_SHELL_O7: the N and O edges
 * of soft X-rays too) of the elements of @formula within [@min_kev,
 * @max_kev], sorted by energy (xraylib's EdgeEnergy()). A new array of
 * XrlabShellEdge. */
GArray *xrlab_presets_get_formula_shells  (const XrlabFormula *formula,
                                           double              min_kev,
                                           double              max_kev,
                                           int                 max_shell);

/* An absorption edge as a table shows it (xrlab-elements.h: the jump
 * positions, one per xraylib shell). */
typedef struct {
  int z;
  XrlabTable table;
  const XrlabTableEdge *edge;   /* of xrlab_scattering_table_get (table, z) */
  int shell;                    /* edge->shell as xraylib's shell number (K = 0 ...,
                                 * xrlab_edges_shell_name()), -1 when none */
} XrlabTableEdgeRef;

/* The edges of the elements @z[0 .. @n_z - 1] (1..92, repeats allowed) that
 * the tables of @choice show within [@min_kev, @max_kev], sorted by energy:
 * `xrlab-cli edges` and a plot's markers. A table's edges count within its
 * valid range only (Henke's from 30 eV); auto takes Henke's within 30 eV -
 * 30 keV and Chantler's outside, as it would for a computation at that
 * energy. A new array of XrlabTableEdgeRef; NULL with @error when a table
 * cannot be read. */
GArray *xrlab_presets_get_table_edges (const int *z, gsize n_z, XrlabTableChoice choice,
                                       double min_kev, double max_kev, GError **error);

G_END_DECLS
