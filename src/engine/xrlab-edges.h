/* xrlab-edges.h -- absorption edges in tabulated scattering factors
 *
 * A table of f2(E) shows an absorption edge in one of two ways:
 *
 *   a step: the table lists a row just below and one just above the edge
 *     (Henke: mostly E - 0.1 eV and E + 0.1 eV; Chantler: its edges below
 *     86 eV, 10^-4 eV apart or listed twice), and f2 jumps between them.
 *     Interpolating across a step distorts the neighbouring intervals (Cu
 *     f1 at 8943.81 eV: 19.11 with one PCHIP across the Henke K edge, 20.66
 *     with PCHIP on the rows below it), so the tables' interpolants are
 *     split at every step (xrlab_pchip_new_split()): PCHIP up to the lower
 *     row, the straight line to the upper row, PCHIP from the upper row on.
 *
 *     Rows k, k+1 are a step when (both)
 *       1. E_k+1 - E_k <= XRLAB_EDGE_STEP_MAX_WIDTH_EV (0.5 eV), and
 *       2. f2_k+1 > XRLAB_EDGE_MIN_RISE (1.05) * f2_k: f2 rises by more than 5 %;
 *     a repeated energy is always one (the definition of an edge in issue
 *     15). It also admits row pairs that are no edge: the regular grids
 *     below ~40 eV (Henke: rows 0.2-0.5 eV apart on which f2 rises by 5-40 %
 *     per row; Chantler: its 1 % grid below 50 eV), the measured near-edge
 *     structure of the updated Henke tables (Be K, Si L, Sc L, Ru, La, Gd)
 *     and the rows of Chantler's resolved edges that lie within 0.5 eV (C K,
 *     N K, O K, ...). There the interpolant is the straight line between
 *     the two rows instead of PCHIP -- at most a small change between two
 *     rows that close (1276 steps in the Henke tables, 1546 in Chantler's).
 *
 *   a resolved rise: the table's grid is refined around the edge and f2
 *     rises over a few rows (Chantler above ~100 eV: rows at the edge energy
 *     times 1 -+ 0.00014 .. 0.003, f2 already rising below). The table
 *     resolves the shape itself, no split is needed. A rise is the steepest
 *     interval that is not a step: f2 rises by more than 5 %, the rows are
 *     at most 0.5 eV or XRLAB_EDGE_RISE_MAX_WIDTH (0.5 %) of E apart (closer
 *     than the tables' regular grids, 1 % and 1.6 % in E), its slope on a
 *     log-log scale, s_k = ln(f2_k+1 / f2_k) / ln(E_k+1 / E_k), is at least
 *     XRLAB_EDGE_RISE_MIN_SLOPE (100: steeper than any smooth cross section)
 *     and s_k is a local maximum (>= the slope before, > the slope after).
 *     Rises only place edges; they never split an interpolant.
 *
 * Edge positions (what `xrlab-cli edges` lists and the plot marks): the
 * jumps of the table, one per xraylib shell. The candidates are the steps
 * whose rows are at most XRLAB_EDGE_RISE_MAX_WIDTH of E apart (closer than
 * the regular grid: this leaves out the low-energy grid pairs) and the
 * resolved rises; each is labelled with xraylib's nearest edge (on a log
 * scale), and of the candidates with the same label the steepest (largest
 * s_k; the lowest of equally steep ones) is the position of that edge.
 *
 * Rows out of order (Henke Si: 1838.8, 1839.0, 1838.9 eV): where E steps
 * back, the earlier rows at or above the new energy are dropped (the 1839.0
 * eV row, half-way up the K jump), which leaves 1838.8 and 1838.9 eV as one
 * step. Repeated energies stay: a step of zero width.
 *
 * The functions here work on plain arrays; xrlab-elements.h applies them to
 * the built-in tables and labels each edge with xraylib's nearest one.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define XRLAB_EDGE_STEP_MAX_WIDTH_EV  0.5
#define XRLAB_EDGE_MIN_RISE           1.05
#define XRLAB_EDGE_RISE_MAX_WIDTH     0.005
#define XRLAB_EDGE_RISE_MIN_SLOPE     100.0

/* Marks in @keep[0..n-1] the rows of @e that stay once rows out of order are
 * resolved (see above); returns how many stay. */
gsize xrlab_edges_keep_in_order (const double *e, gsize n, gboolean *keep);

/* TRUE when rows @k, @k + 1 of the table are a step (see above). */
gboolean xrlab_edges_is_step (const double *e, const double *f2, gsize k);

/* The steps of the table (@e strictly increasing, or equal across a step;
 * @f2 >= 0): their lower rows k into @rows (room for n - 1), ascending;
 * returns how many. */
gsize xrlab_edges_find_steps (const double *e, const double *f2, gsize n, gsize *rows);

/* The resolved rises (see above), which are never steps: their lower rows
 * into @rows (room for n - 1), ascending; returns how many. */
gsize xrlab_edges_find_rises (const double *e, const double *f2, gsize n, gsize *rows);

/* An edge position (see above): the lower row of the pair, whether the pair
 * is a step, xraylib's nearest shell (-1 when xraylib knows no edge of the
 * element) and that edge's energy [eV] (NaN when none). */
typedef struct {
  gsize row;
  gboolean step;
  int shell;
  double xraylib_ev;
} XrlabEdgePosition;

/* The edge positions of element @z's table into @positions (room for
 * n - 1), ascending in row; returns how many. */
gsize xrlab_edges_find_positions (int z, const double *e, const double *f2, gsize n,
                                  XrlabEdgePosition *positions);

/* The log-log slope of f2 across rows a < b: +inf where f2 rises from 0,
 * 0 where it stays 0 or the energies are equal. */
double xrlab_edges_log_slope (const double *e, const double *f2, gsize a, gsize b);

/* xraylib's shells, K = 0 .. P5 = 27 (its *_SHELL macros): "K", "L1" .. "P5". */
enum { XRLAB_EDGES_N_SHELLS = 28 };
const char *xrlab_edges_shell_name (int shell);

/* The xraylib edge of element @z (1..92) nearest to @energy_ev (on a log
 * scale): its shell, and its energy in eV into *@xraylib_ev. -1 when
 * xraylib knows no edge of @z. */
int xrlab_edges_nearest_shell (int z, double energy_ev, double *xraylib_ev);

G_END_DECLS
