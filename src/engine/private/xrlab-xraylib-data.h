/* xrlab-xraylib-data.h -- the numbers xrlab takes from xraylib (T.
 * Schoonjans et al., Spectrochim. Acta B 66, 776 (2011)), evaluated when
 * xrlab is built (data/gen-xraylib-data.c writes xrlab-xraylib-data.c):
 * the programs neither load xraylib nor compute these at run time.
 * Bit for bit what the library returned (tests/test-xraylib-data.c).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

enum {
  XRLAB_XRAYLIB_Z_MAX = 92,      /* U */
  XRLAB_XRAYLIB_N_SHELLS = 28,   /* xraylib's K_SHELL (0) … P5_SHELL (27) */
};

/* The xraylib the numbers come from, "4.0.0". */
extern const char xrlab_xraylib_version[];

/* EdgeEnergy (z, shell) [keV], 0 where xraylib has no such edge (row 0:
 * no element). */
extern const double xrlab_xraylib_edge_kev[XRLAB_XRAYLIB_Z_MAX + 1][XRLAB_XRAYLIB_N_SHELLS];

/* A NIST compound of xraylib's list, in its order: its elements and mass
 * fractions are xrlab_xraylib_nist_z[first …] and
 * xrlab_xraylib_nist_fraction[first …], n_elements of each. */
typedef struct {
  const char *name;
  double density_g_cm3;
  int n_elements;
  int first;
} XrlabXraylibCompound;

extern const XrlabXraylibCompound xrlab_xraylib_nist[];
extern const unsigned xrlab_xraylib_n_nist;
extern const int xrlab_xraylib_nist_z[];
extern const double xrlab_xraylib_nist_fraction[];

/* The Henke table of element z has n rows: its scattering, (CS_Rayl +
 * CS_Compt)(z, max (E, 0.1 keV)) × AtomicWeight (z) [cm²/mol] at the
 * energy E of every row, is xrlab_xraylib_henke_scatter[first …] (NaN where
 * xraylib has none); n = 0 for an element without a table. */
typedef struct {
  unsigned first;
  unsigned n;
} XrlabXraylibSpan;

extern const double xrlab_xraylib_henke_scatter[];
extern const XrlabXraylibSpan xrlab_xraylib_henke_scatter_rows[XRLAB_XRAYLIB_Z_MAX + 1];

/* xrlab_xraylib_edge_kev[z][shell], 0 for a @z or @shell out of range. */
static inline double
xrlab_xraylib_edge (int z, int shell)
{
  return z >= 1 && z <= XRLAB_XRAYLIB_Z_MAX && shell >= 0 && shell < XRLAB_XRAYLIB_N_SHELLS
           ? xrlab_xraylib_edge_kev[z][shell]
           : 0.0;
}
