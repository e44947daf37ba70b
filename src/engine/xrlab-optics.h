/* xrlab-optics.h -- X-ray optical constants of materials on energy grids
 *
 * Physics (units in brackets). A material is a formula (xrlab-formula.h)
 * with n_i atoms of element i per formula unit, molar mass M [g/mol] and a
 * mass density ρ [g/cm³]. At photon energy E [keV], wavelength
 * λ = hc/E [Å] (XRLAB_HC_KEV_A, xrlab-constants.h), with the atomic
 * scattering factors f1_i(E), f2_i(E) [electrons] of the table in use
 * (Henke or Chantler, xrlab-table.h; the grid carries it, xrlab-energy.h):
 *
 *   f1 = Σ n_i f1_i, f2 = Σ n_i f2_i              per formula unit [e]
 *   δ  = r_e λ² N_A ρ f1 / (2π M)                  [1]  (λ, r_e in cm)
 *   β  = r_e λ² N_A ρ f2 / (2π M)                  [1]
 *   n  = 1 - δ + iβ                                refractive index
 *   θc = arccos(1 - δ)                             critical angle [rad],
 *                                                  reported in ° and mrad
 *                                                  (√(2δ) within a
 *                                                  relative δ/12)
 *   μ  = 4π β / λ = 2 r_e λ N_A ρ f2 / M           linear attenuation by
 *                                                  photoabsorption [1/cm]
 *   1/μ                                            1/e attenuation length [cm]
 *   μ/ρ                                            mass attenuation [cm²/g]
 *   μ_total = μ + ρ Σ n_i A_i σ_i / M              total attenuation [1/cm]:
 *                                                  photoabsorption + coherent
 *                                                  + incoherent scattering,
 *                                                  σ_i [cm²/g] of the table in
 *                                                  use (Chantler's own column,
 *                                                  xraylib's CS_Rayl + CS_Compt
 *                                                  with Henke; A_i σ_i is
 *                                                  xrlab_scattering_table_eval_scatter())
 *   1/μ_total, μ_total/ρ                           the same in total
 *   SLD = 2π δ / λ² = r_e N_A ρ f1 / M             real SLD [Å⁻²]
 *         2π β / λ² = r_e N_A ρ f2 / M             imaginary SLD [Å⁻²]
 *   T  = exp(-μ_total t)                           transmission of a layer
 *                                                  of thickness t [µm];
 *   T_photo = exp(-μ t)                            by photoabsorption only
 *
 * and the scalars M, Σ n_i Z_i (electrons per formula unit) and the
 * electron density ρ_e = ρ N_A Σ n_i Z_i / M [e/Å³].
 *
 * A negative total f1 (below some soft X-ray edges) is physics: δ < 0 there,
 * so θc is NaN at those energies and every other quantity is computed as
 * usual. It is the only NaN the engine ever writes.
 *
 * The quantities and how they are named and shown: xrlab-quantity.h;
 * energies, units and grids: xrlab-energy.h (both included here). A grid is
 * checked against the tables when it is made; a computation that needs f1
 * is checked against each element's f1 range (an error naming the energy
 * and the valid range).
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

#include "xrlab-energy.h"
#include "xrlab-formula.h"
#include "xrlab-quantity.h"

G_BEGIN_DECLS

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

/* A cache of the f1_i, f2_i of elements on @grid (which it references),
 * from the grid's table (xrlab_energy_grid_get_table()). Empty at first;
 * elements are interpolated the first time a material needs them. */
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
 * @values[quantity], without a grid or cache: the element tables of
 * @table are interpolated directly. The energy must lie within @table's
 * range (xrlab_energy_range_get()). Allocates nothing. */
gboolean xrlab_optics_compute_point_for_table (const XrlabOpticsMaterial *material,
                                               double                     energy_kev,
                                               XrlabTable                 table,
                                               XrlabQuantityMask          quantities,
                                               double                     values[XRLAB_QUANTITY_N],
                                               GError                   **error);

/* The same with the Henke tables. */
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
