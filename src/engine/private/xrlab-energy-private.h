/* xrlab-energy-private.h -- what the optics kernels need of a grid
 *
 * Internal to the engine: the layout of XrlabEnergyGrid (the kernels of
 * xrlab-optics.c read its per-energy arrays directly) and the one energy
 * check that grids and single points share.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "xrlab-constants.h"
#include "xrlab-energy.h"

G_BEGIN_DECLS

struct _XrlabEnergyGrid {
  gatomicrefcount ref;
  gsize n;
  double *energy_kev;
  double *energy_ev;     /* clamped into the table range, for interpolation */
  double *wavelength_a;
  double *k_delta;       /* r_e λ² N_A / (2π) [cm³/mol]: δ = k_delta (ρ/M) f1 */
  double *k_mu;          /* 2 r_e λ N_A [cm²/mol]:       μ = k_mu (ρ/M) f2 */
  double min_kev, max_kev;
  XrlabTable table;          /* the table of every computation on the grid */
  XrlabTableChoice choice;   /* the choice that took it */
};

/* The per-energy factors. Shared by grids and xrlab_optics_compute_point()
 * so that both give the same numbers. */
static inline void
xrlab_energy_factors (double wavelength_a, double *k_delta, double *k_mu)
{
  double lambda_cm = wavelength_a * 1e-8;

  *k_delta = XRLAB_ELECTRON_RADIUS_CM * lambda_cm * lambda_cm * XRLAB_AVOGADRO_PER_MOL / (2 * G_PI);
  *k_mu = 2 * XRLAB_ELECTRON_RADIUS_CM * lambda_cm * XRLAB_AVOGADRO_PER_MOL;
}

/* " (point 3)" for grids of more than one point, "" otherwise. */
char *xrlab_energy_point_suffix (gsize i, gsize n);

/* Checks @value in @unit (point @i of @n, for the message) against @range
 * and converts it to keV (a value within XRLAB_ENERGY_SLACK of a limit is
 * taken as the limit). */
gboolean xrlab_energy_check_value (double value, XrlabEnergyUnit unit, gsize i, gsize n,
                                   const XrlabEnergyRange *range, double *energy_kev,
                                   GError **error);

G_END_DECLS
