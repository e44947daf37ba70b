/* xrlab-constants.h -- physical constants (CODATA 2018), in one place
 *
 * Every physical constant used by xrlab is defined here and nowhere else.
 * Values: CODATA 2018 recommended values (E. Tiesinga, P. J. Mohr,
 * D. B. Newell and B. N. Taylor, Rev. Mod. Phys. 93, 025010 (2021);
 * https://physics.nist.gov/cuu/Constants/). Since the 2019 SI redefinition
 * h, c, e and N_A are exact; r_e carries a relative standard uncertainty of
 * 4.5e-10.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

/* Classical electron radius r_e (m). CODATA 2018: 2.817 940 3262(13) e-15 m. */
#define XRLAB_ELECTRON_RADIUS_M     2.8179403262e-15

/* Avogadro constant N_A (1/mol), exact. */
#define XRLAB_AVOGADRO_PER_MOL      6.02214076e23

/* Planck constant h (J s), exact. */
#define XRLAB_PLANCK_J_S            6.62607015e-34

/* Speed of light in vacuum c (m/s), exact. */
#define XRLAB_SPEED_OF_LIGHT_M_S    299792458.0

/* Elementary charge e (C), exact. */
#define XRLAB_ELEMENTARY_CHARGE_C   1.602176634e-19

/* Boltzmann constant k_B (J/K), exact: the ideal gas law of gas paths. */
#define XRLAB_BOLTZMANN_J_K         1.380649e-23

/* ---- derived ------------------------------------------------------------ */

/* r_e in cm and in Å. */
#define XRLAB_ELECTRON_RADIUS_CM    (XRLAB_ELECTRON_RADIUS_M * 1e2)
#define XRLAB_ELECTRON_RADIUS_A     (XRLAB_ELECTRON_RADIUS_M * 1e10)

/* h c / e in keV Å: the photon energy E (keV) of wavelength λ (Å) is
 * E = XRLAB_HC_KEV_A / λ. Evaluates to 12.398419843320026 (= h c / e in
 * eV m, 1.239 841 984... e-6, times 1e10 Å/m / 1e3 eV/keV). */
#define XRLAB_HC_KEV_A \
  (XRLAB_PLANCK_J_S * XRLAB_SPEED_OF_LIGHT_M_S / XRLAB_ELEMENTARY_CHARGE_C / 1e3 * 1e10)
