/* xrlab-optics.h -- X-ray optical constants of materials on energy grids
 *
 * Physics (units in brackets). A material is a formula (xrlab-formula.h)
 * with n_i atoms of element i per formula unit, molar mass M [g/mol] and a
 * mass density ρ [g/cm³]. At photon energy E [keV], wavelength
 * λ = hc/E [Å] (XRLAB_HC_KEV_A, xrlab-constants.h), with the Henke atomic
 * scattering factors f1_i(E), f2_i(E) [electrons] (xrlab-elements.h):
 *
 *   f1 = Σ n_i f1_i, f2 = Σ n_i f2_i              per formula unit [e]
 *   δ  = r_e λ² N_A ρ f1 / (2π M)                  [1]  (λ, r_e in cm)
 *   β  = r_e λ² N_A ρ f2 / (2π M)                  [1]
 *   n  = 1 - δ + iβ                                refractive index
 *   θc = √(2δ)                                     critical angle [rad],
 *                                                  reported in ° and mrad
 *   μ  = 4π β / λ = 2 r_e λ N_A ρ f2 / M           linear attenuation [1/cm]
 *   1/μ                                            1/e attenuation length [cm]
 *   μ/ρ                                            mass attenuation [cm²/g]
 *   SLD = 2π δ / λ² = r_e N_A ρ f1 / M             real SLD [Å⁻²]
 *         2π β / λ² = r_e N_A ρ f2 / M             imaginary SLD [Å⁻²]
 *   T  = exp(-μ t)                                 transmission of a layer
 *                                                  of thickness t [µm]
 *
 * and the scalars M, Σ n_i Z_i (electrons per formula unit) and the
 * electron density ρ_e = ρ N_A Σ n_i Z_i / M [e/Å³].
 *
 * A negative total f1 (below some soft X-ray edges) is physics: δ < 0 there,
 * so θc is NaN at those energies and every other quantity is computed as
 * usual. It is the only NaN the engine ever writes.
 *
 * Energies. The Henke tables cover 10 eV–30 keV for f2 and from 29.3 eV
 * (19.1–19.3 eV for the updated Be, Mo, Ru, Sc, Ti, W, Zr, La, Gd) to 30 keV
 * for f1. A grid is checked against 10 eV–30 keV when it is made; a
 * computation that needs f1 is checked against each element's f1 range.
 * Either way an energy outside gets an error naming it and the valid range;
 * NaN and infinite energies are rejected when the grid is made.
 *
 * Caches. An XrlabOpticsCache belongs to one XrlabEnergyGrid and holds the
 * interpolated f1_i, f2_i of every element it has met on that grid, so a
 * change of density or stoichiometry, or another material with the same
 * elements, never interpolates again. A cache is not thread safe: one
 * thread (the engine thread) owns it; the batch call shares its loop with
 * the one pool's threads (xrlab-parallel.h) and returns only when they are
 * done. Grids, formulas
 * and the element tables are immutable and may be shared between threads.
 * Nothing here allocates per energy or per material in the hot path.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "xrlab-formula.h"

G_BEGIN_DECLS

#define XRLAB_OPTICS_ERROR (xrlab_optics_error_quark ())
GQuark xrlab_optics_error_quark (void);

typedef enum {
  XRLAB_OPTICS_ERROR_ENERGY,    /* an energy that is not a number, not positive, or outside the tables */
  XRLAB_OPTICS_ERROR_SPEC,      /* an energy SPEC or unit that does not parse */
  XRLAB_OPTICS_ERROR_MATERIAL,  /* a density or thickness that is not valid */
  XRLAB_OPTICS_ERROR_DATA,      /* the built-in tables could not be read */
} XrlabOpticsError;

/* ---- quantities --------------------------------------------------------- */

typedef enum {
  XRLAB_QUANTITY_WAVELENGTH,          /* λ [Å] */
  XRLAB_QUANTITY_DELTA,               /* δ [1] */
  XRLAB_QUANTITY_BETA,                /* β [1] */
  XRLAB_QUANTITY_F1,                  /* Σ n_i f1_i [e per formula unit] */
  XRLAB_QUANTITY_F2,                  /* Σ n_i f2_i [e per formula unit] */
  XRLAB_QUANTITY_CRITICAL_ANGLE_DEG,  /* θc [°], NaN where δ < 0 */
  XRLAB_QUANTITY_CRITICAL_ANGLE_MRAD, /* θc [mrad], NaN where δ < 0 */
  XRLAB_QUANTITY_ATTENUATION_LENGTH,  /* 1/μ [cm] */
  XRLAB_QUANTITY_MU,                  /* μ [1/cm] */
  XRLAB_QUANTITY_MU_RHO,              /* μ/ρ [cm²/g] */
  XRLAB_QUANTITY_RE_SLD,              /* 2πδ/λ² [Å⁻²] */
  XRLAB_QUANTITY_IM_SLD,              /* 2πβ/λ² [Å⁻²] */
  XRLAB_QUANTITY_TRANSMISSION,        /* exp(-μ t) [1], needs a thickness */
  XRLAB_QUANTITY_N                    /* the number of quantities (not one) */
} XrlabQuantity;

/* A set of quantities: bit q for XrlabQuantity q. */
typedef guint32 XrlabQuantityMask;

#define XRLAB_QUANTITY_BIT(q)          ((XrlabQuantityMask) 1u << (q))
#define XRLAB_QUANTITY_MASK_ALL        (XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_N) - 1u)
/* Everything but the transmission, which needs a thickness. */
#define XRLAB_QUANTITY_MASK_NO_THICKNESS \
  (XRLAB_QUANTITY_MASK_ALL & ~XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_TRANSMISSION))

/* The column name of the CSV and JSON output: "wavelength_A", "delta",
 * "beta", "f1", "f2", "critical_angle_deg", "critical_angle_mrad",
 * "attenuation_length_cm", "mu_per_cm", "mu_rho_cm2_g", "re_sld_per_A2",
 * "im_sld_per_A2", "transmission". */
const char *xrlab_quantity_get_column (XrlabQuantity quantity);

/* A label for people ("Wavelength", "δ", "Critical angle", ...; translated)
 * and the unit as printed ("Å", "°", "mrad", "cm", "1/cm", "cm²/g", "Å⁻²";
 * "" when dimensionless, "e" for scattering factors). */
const char *xrlab_quantity_get_label (XrlabQuantity quantity);
const char *xrlab_quantity_get_unit  (XrlabQuantity quantity);

/* The quantity of column name @column (exact spelling); FALSE if none. */
gboolean xrlab_quantity_from_column (const char *column, XrlabQuantity *quantity);

/* Number of quantities in @mask, and the position of @quantity among them
 * (in enum order; -1 when not in @mask): the layout of the batch output. */
guint xrlab_quantity_mask_count (XrlabQuantityMask mask);
int   xrlab_quantity_mask_index (XrlabQuantityMask mask, XrlabQuantity quantity);

/* ---- energies ----------------------------------------------------------- */

/* The range of the Henke tables taken together [keV]. */
#define XRLAB_ENERGY_MIN_KEV 0.01
#define XRLAB_ENERGY_MAX_KEV 30.0

/* The most points of one grid. */
#define XRLAB_ENERGY_GRID_MAX_POINTS 1000000

typedef enum {
  XRLAB_ENERGY_UNIT_KEV,
  XRLAB_ENERGY_UNIT_EV,
  XRLAB_ENERGY_UNIT_ANGSTROM,   /* values are wavelengths */
} XrlabEnergyUnit;

/* "keV", "eV", "A" / "Å" / "Angstrom" (case-insensitive); FALSE if none. */
gboolean    xrlab_energy_unit_parse (const char *text, XrlabEnergyUnit *unit);
const char *xrlab_energy_unit_get_name (XrlabEnergyUnit unit);

/* Photon energy [keV] ↔ wavelength [Å]: λ E = hc = 12.398419843320026 keV Å. */
double xrlab_kev_to_angstrom (double energy_kev);
double xrlab_angstrom_to_kev (double wavelength_a);

/* @value in @unit to keV (E = hc/λ for wavelengths). */
double xrlab_energy_to_kev (double value, XrlabEnergyUnit unit);

typedef enum {
  XRLAB_GRID_LINEAR,
  XRLAB_GRID_LOG,
} XrlabGridSpacing;

/* An immutable, reference-counted set of photon energies with what every
 * computation on it needs precomputed (λ, λ² and λ factors). */
typedef struct _XrlabEnergyGrid XrlabEnergyGrid;

/* The @n values (in @unit, in the given order, repeats allowed). Every value
 * must be finite, positive, and within 10 eV–30 keV (a value within 1e-9
 * relative of a limit is taken as the limit); the error names the first
 * that is not, and its position. */
XrlabEnergyGrid *xrlab_energy_grid_new (const double *values, gsize n,
                                        XrlabEnergyUnit unit, GError **error);

/* @n >= 2 points from @start to @stop inclusive (either order), equally
 * spaced in the value of @unit (LINEAR) or in its logarithm (LOG; for Å the
 * wavelengths are spaced, then converted). The end points are exact. */
XrlabEnergyGrid *xrlab_energy_grid_new_range (double start, double stop, gsize n,
                                              XrlabGridSpacing spacing,
                                              XrlabEnergyUnit unit, GError **error);

/* An energy SPEC in @unit:
 *   "10"              one energy
 *   "5,10,15"         a list
 *   "5:15:11"         11 points from 5 to 15, linear ("5:15:11:lin" too)
 *   "1:30:100:log"    100 points, logarithmic
 *   "5-15:11"         the same as "5:15:11" (also with ":log")
 * Spaces around the parts are ignored. Errors name the offending part. */
XrlabEnergyGrid *xrlab_energy_grid_parse (const char *spec, XrlabEnergyUnit unit, GError **error);

XrlabEnergyGrid *xrlab_energy_grid_ref   (XrlabEnergyGrid *grid);
void             xrlab_energy_grid_unref (XrlabEnergyGrid *grid);

gsize         xrlab_energy_grid_get_size         (const XrlabEnergyGrid *grid);
const double *xrlab_energy_grid_get_energies_kev (const XrlabEnergyGrid *grid);
/* λ [Å]; exactly the given values for a grid made in Å. */
const double *xrlab_energy_grid_get_wavelengths_a (const XrlabEnergyGrid *grid);
double        xrlab_energy_grid_get_min_kev      (const XrlabEnergyGrid *grid);
double        xrlab_energy_grid_get_max_kev      (const XrlabEnergyGrid *grid);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (XrlabEnergyGrid, xrlab_energy_grid_unref)

/* ---- materials ---------------------------------------------------------- */

/* One material: a formula, its mass density ρ [g/cm³] (finite, > 0) and,
 * for XRLAB_QUANTITY_TRANSMISSION only, a layer thickness t [µm] (finite,
 * >= 0; ignored otherwise). */
typedef struct {
  const XrlabFormula *formula;
  double density_g_cm3;
  double thickness_um;
} XrlabOpticsMaterial;

/* ρ_e = ρ N_A Σ n_i Z_i / M [e/Å³]. */
double xrlab_optics_electron_density (const XrlabFormula *formula, double density_g_cm3);

/* ---- the per-grid cache and the computations --------------------------- */

typedef struct _XrlabOpticsCache XrlabOpticsCache;

/* A cache of the f1_i, f2_i of elements on @grid (which it references).
 * Empty at first; elements are interpolated the first time a material needs
 * them. */
XrlabOpticsCache *xrlab_optics_cache_new  (XrlabEnergyGrid *grid);
void              xrlab_optics_cache_free (XrlabOpticsCache *cache);
XrlabEnergyGrid  *xrlab_optics_cache_get_grid (const XrlabOpticsCache *cache);

/* Threads of xrlab_optics_batch(): 1 to stay on the calling thread; any
 * other value (0, the default) shares the loop with the one pool
 * (xrlab-parallel.h: one thread per processor). */
void  xrlab_optics_cache_set_n_threads (XrlabOpticsCache *cache, guint n_threads);
guint xrlab_optics_cache_get_n_threads (const XrlabOpticsCache *cache);

/* How many element tables this cache has interpolated onto its grid so far
 * (each element once, f1 and f2 together). */
guint xrlab_optics_cache_get_n_interpolations (const XrlabOpticsCache *cache);

/* The interpolated f1 or f2 [e] of element @z on the grid, interpolating it
 * now if needed; NULL with @error when the tables are damaged. f1 values
 * below the element's f1 table (and only those) are NaN. */
const double *xrlab_optics_cache_get_f1 (XrlabOpticsCache *cache, int z, GError **error);
const double *xrlab_optics_cache_get_f2 (XrlabOpticsCache *cache, int z, GError **error);

/* Computes the quantities in @quantities for @material on the cache's grid
 * into the caller's arrays: @out[q] (grid size) for every q in
 * @quantities; the other entries of @out are not touched and may be NULL.
 * Fails, writing nothing, on a bad density or thickness, or an energy
 * outside the f1 table of an element when a quantity needs f1 (δ, f1, θc,
 * real SLD). */
gboolean xrlab_optics_compute (XrlabOpticsCache          *cache,
                               const XrlabOpticsMaterial *material,
                               XrlabQuantityMask          quantities,
                               double *const              out[XRLAB_QUANTITY_N],
                               GError                   **error);

/* Called on the thread that called xrlab_optics_batch(), with the number of
 * materials done so far. */
typedef void (*XrlabOpticsProgressFunc) (gsize done, gsize total, gpointer user_data);

/* Many materials on the cache's grid in one call: the chosen quantities
 * only, in parallel over materials (xrlab_optics_cache_set_n_threads()),
 * checking @cancellable between chunks of at most ~64k values.
 *
 * @out holds n_materials × n_q × n_e doubles (n_q =
 * xrlab_quantity_mask_count (@quantities), n_e the grid size), material by
 * material, quantity by quantity in enum order, energy by energy:
 *   out[(m * n_q + xrlab_quantity_mask_index (@quantities, q)) * n_e + e].
 *
 * A material that cannot be computed (bad density, energy outside its f1
 * tables) is reported in @material_errors[m] when @material_errors is not
 * NULL (an array of n_materials NULL-initialised GError pointers) and its
 * block of @out is left untouched; every other material is still computed.
 * When @material_errors is NULL, such a material fails the whole call.
 * Returns FALSE with @error when cancelled (G_IO_ERROR_CANCELLED; @out then
 * partly written) or on a failure that concerns every material. */
gboolean xrlab_optics_batch (XrlabOpticsCache          *cache,
                             const XrlabOpticsMaterial *materials,
                             gsize                      n_materials,
                             XrlabQuantityMask          quantities,
                             double                    *out,
                             GError                   **material_errors,
                             XrlabOpticsProgressFunc    progress,
                             gpointer                   progress_data,
                             GCancellable              *cancellable,
                             GError                   **error);

/* One material at one energy [keV], all of @quantities into
 * @values[quantity], without a grid or cache: the element tables are
 * interpolated directly. Allocates nothing. */
gboolean xrlab_optics_compute_point (const XrlabOpticsMaterial *material,
                                     double                     energy_kev,
                                     XrlabQuantityMask          quantities,
                                     double                     values[XRLAB_QUANTITY_N],
                                     GError                   **error);

/* The rule for a material's numbers, in one place (the computations, the
 * engine's materials and its batches all check with it): a formula, a
 * density that is finite and > 0 and, when @quantities include the
 * transmission, a thickness that is finite and >= 0. FALSE with
 * XRLAB_OPTICS_ERROR_MATERIAL saying which number is wrong. */
gboolean xrlab_optics_check_material (const XrlabOpticsMaterial *material,
                                      XrlabQuantityMask          quantities,
                                      GError                   **error);

G_END_DECLS
