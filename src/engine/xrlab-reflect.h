/* xrlab-reflect.h -- X-ray reflectivity of mirrors and multilayers, and the
 * transmission of filters and gas paths
 *
 * ## Reflectivity
 *
 * A stack (xrlab-stack.h) has media j = 0 (the ambient: vacuum or a gas),
 * 1..N (the layers, top down, thickness d_j) and N+1 (the substrate, or the
 * ambient again below a free-standing stack), each with the refractive
 * index n_j = 1 − δ_j + iβ_j of the optics engine (xrlab-optics.h) at the
 * photon energy E, wavelength λ, k = 2π/λ. At the grazing angle θ (in the
 * ambient, from the surface), the normal wave-vector components are
 *
 *   k_z,j = k √(n_j² − n_0² cos²θ) = k √((n_j² − n_0²) + n_0² sin²θ)
 *
 * with the root of Im k_z,j ≥ 0 (waves decay into the stack; for β ≥ 0 this
 * is the principal root), computed from n_j² − n_0² = (n_j − n_0)(n_j + n_0)
 * so that nothing cancels at small angles; k_z,0 = k n_0 sin θ. The Fresnel
 * coefficients of interface j (between media j and j+1) are
 *
 *   s:  r_j = (k_z,j − k_z,j+1) / (k_z,j + k_z,j+1)
 *   p:  r_j = (n_j+1² k_z,j − n_j² k_z,j+1) / (n_j+1² k_z,j + n_j² k_z,j+1)
 *
 * (p exactly, with n², for the magnetic field; xraydb's mirror_reflectivity
 * divides k_z by n instead, an approximation of relative size δ), each
 * multiplied by the Névot–Croce factor exp(−2 k_z,j k_z,j+1 σ_j²) of the rms
 * roughness σ_j of the interface. Where both media are evanescent the
 * factor exceeds 1; its exponent is held at ≤ 40 (beyond the model's range
 * of validity, σ|k_z| ≪ 1) so that nothing overflows. Parratt's recursion
 * from the substrate up, with φ_j = exp(i k_z,j d_j),
 *
 *   X_N+1 = 0,   X_j = (r_j + X_j+1 φ_j+1²) / (1 + r_j X_j+1 φ_j+1²)
 *
 * gives the reflectivity R = |X_0|² of each polarization, and
 *
 *   R = ((1 + P) R_s + (1 − P) R_p) / 2
 *
 * for the polarization degree P (1: the electric field in the surface, s;
 * −1: in the plane of incidence, p; 0: unpolarized). The transmitted
 * fraction T is the flux that crosses the last interface into medium N+1
 * (into the substrate; through a free-standing stack), relative to the
 * incident flux: with the transmission coefficients t_j = 1 + r_j (of the
 * electric field for s, of the magnetic field for p; with roughness this
 * keeps t_j t'_j = 1 − r_j², as Parratt's recursion assumes),
 *
 *   τ = Π_j t_j φ_j+1 / (1 + r_j X_j+1 φ_j+1²)   (φ_N+1 = 1)
 *   T_s = |τ_s|² Re k_z,N+1 / Re k_z,0
 *   T_p = |τ_p|² Re(k_z,N+1 / n_N+1²) / Re(k_z,0 / n_0²)
 *
 * and T = 0 at θ = 0. Without absorption and roughness R + T = 1.
 *
 * ## The plan
 *
 * An XrlabReflectPlan binds a stack to an energy grid: δ and β of every
 * distinct material on every energy (from an XrlabOpticsCache, once), the
 * stack reduced to its distinct media, slabs (medium, thickness) and
 * interfaces (media above and below, roughness) -- a 50-period multilayer
 * has 4 interfaces to compute and 102 steps of the recursion -- and a
 * workspace, all allocated once. Curves are computed in blocks of angles
 * or energies: per block, k_z of each medium, φ of each slab and r of each
 * interface, then the recursion as plain loops over the block. Nothing is
 * allocated per call. A plan belongs to one thread (the engine thread);
 * the stack and grid it references are immutable.
 *
 * ## Filters and gas paths
 *
 * T = exp(−Σ_l μ_l t_l) over the layers of a filter stack. μ is the
 * total attenuation μ_total of the optics engine (photoabsorption +
 * coherent + incoherent scattering, from the table of the grid: Chantler's
 * own scattering column, xraylib's with Henke), as CXRO's filter and gas
 * transmissions count Compton scattering; or, when asked for, the
 * photoabsorption μ = 4πβ/λ alone (xrlab_filter_attenuation()). Gases get
 * their density from the ideal gas law (xrlab_gas_density(),
 * xrlab-stack.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "xrlab-optics.h"
#include "xrlab-stack.h"

G_BEGIN_DECLS

#define XRLAB_REFLECT_ERROR (xrlab_reflect_error_quark ())
GQuark xrlab_reflect_error_quark (void);

typedef enum {
  XRLAB_REFLECT_ERROR_ANGLE,         /* a grazing angle not in 0..π/2 */
  XRLAB_REFLECT_ERROR_POLARIZATION,  /* a polarization degree not in −1..1 */
  XRLAB_REFLECT_ERROR_STACK,         /* the wrong kind of stack, an index out of range */
  XRLAB_REFLECT_ERROR_CONSTANTS,     /* given δ or β not finite, or β < 0 */
  XRLAB_REFLECT_ERROR_ANGLE_SPEC,    /* an angle spec or unit that does not parse */
} XrlabReflectError;

/* What to compute. Any array may be NULL; the others get one value per
 * point (angles, energies, or energies × angles for a map). */
typedef struct {
  double polarization;   /* P in [−1, 1] for r and t */
  double *r;             /* ((1 + P) R_s + (1 − P) R_p) / 2 */
  double *r_s;
  double *r_p;
  double *t;             /* ((1 + P) T_s + (1 − P) T_p) / 2 */
  double *t_s;
  double *t_p;
} XrlabReflectOutput;

typedef struct _XrlabReflectPlan XrlabReflectPlan;

/* A plan of @stack (a reflectivity stack) on the grid of @cache, with δ
 * and β of its materials from @cache (interpolating elements it lacks).
 * Fails when an energy lies outside a material's f1 table. */
XrlabReflectPlan *xrlab_reflect_plan_new (XrlabStack       *stack,
                                          XrlabOpticsCache *cache,
                                          GError          **error);

/* The same with δ and β given: @delta and @beta hold
 * n_materials × n_energies values, material by material in the stack's
 * material order (finite, β ≥ 0). For comparisons with other tables and
 * for tests (β = 0). */
XrlabReflectPlan *xrlab_reflect_plan_new_with_constants (XrlabStack      *stack,
                                                         XrlabEnergyGrid *grid,
                                                         const double    *delta,
                                                         const double    *beta,
                                                         GError         **error);

void xrlab_reflect_plan_free (XrlabReflectPlan *plan);

XrlabStack      *xrlab_reflect_plan_get_stack (const XrlabReflectPlan *plan);
XrlabEnergyGrid *xrlab_reflect_plan_get_grid  (const XrlabReflectPlan *plan);

/* δ and β of material @material of the stack on the plan's grid. */
const double *xrlab_reflect_plan_get_delta (const XrlabReflectPlan *plan, gsize material);
const double *xrlab_reflect_plan_get_beta  (const XrlabReflectPlan *plan, gsize material);

/* The plan's reduction of the stack: distinct media (ambient included),
 * slabs and interfaces, and the steps of the recursion (interfaces,
 * N + 1). */
void xrlab_reflect_plan_get_sizes (const XrlabReflectPlan *plan, gsize *n_media,
                                   gsize *n_slabs, gsize *n_interfaces, gsize *n_steps);

/* A curve vs grazing angle [rad] at energy @energy_index of the grid:
 * @n_angles values into each array of @out. */
gboolean xrlab_reflect_plan_angles (XrlabReflectPlan         *plan,
                                    gsize                     energy_index,
                                    const double             *angles_rad,
                                    gsize                     n_angles,
                                    const XrlabReflectOutput *out,
                                    GError                  **error);

/* A curve vs energy (every energy of the grid) at one grazing angle. */
gboolean xrlab_reflect_plan_energies (XrlabReflectPlan         *plan,
                                      double                    angle_rad,
                                      const XrlabReflectOutput *out,
                                      GError                  **error);

/* A map: n_energies × @n_angles values, energy by energy
 * (out[e * n_angles + a]). Checks @cancellable between blocks. */
gboolean xrlab_reflect_plan_map (XrlabReflectPlan         *plan,
                                 const double             *angles_rad,
                                 gsize                     n_angles,
                                 const XrlabReflectOutput *out,
                                 GCancellable             *cancellable,
                                 GError                  **error);

/* Called with the energies (rows) of a map done so far. */
typedef void (*XrlabReflectProgressFunc) (gsize done, gsize total, gpointer user_data);

/* The map of xrlab_reflect_plan_map() on @n_threads threads: 1 on the
 * calling thread alone, 0 on the one pool (xrlab-parallel.h), which shares
 * the energies among its idle threads; each thread has a workspace of its
 * own (allocated per call), the plan's reduction is shared, read only.
 * The values are those of xrlab_reflect_plan_map(), bit for bit.
 * @progress (may be NULL) runs on the calling thread; @cancellable is
 * checked before every energy. */
gboolean xrlab_reflect_plan_map_parallel (XrlabReflectPlan         *plan,
                                          const double             *angles_rad,
                                          gsize                     n_angles,
                                          const XrlabReflectOutput *out,
                                          guint                     n_threads,
                                          XrlabReflectProgressFunc  progress,
                                          gpointer                  progress_data,
                                          GCancellable             *cancellable,
                                          GError                  **error);

/* ---- grazing angles ------------------------------------------------------- */

/* The units grazing angles are entered and printed in. */
typedef enum {
  XRLAB_ANGLE_UNIT_MRAD,
  XRLAB_ANGLE_UNIT_DEG,
} XrlabAngleUnit;

/* The most angles one spec makes. */
#define XRLAB_ANGLE_SPEC_MAX_POINTS 100000

/* "mrad" or "deg" (also "°"): FALSE for anything else. */
gboolean    xrlab_angle_unit_parse  (const char *text, XrlabAngleUnit *unit);
/* "mrad", "deg": machine names (CSV column suffixes, option values). */
const char *xrlab_angle_unit_get_id (XrlabAngleUnit unit);
/* @value in @unit in radians; 90° (and 1570.796... mrad) are π/2 exactly. */
double      xrlab_angle_to_rad      (double value, XrlabAngleUnit unit);
double      xrlab_angle_from_rad    (double angle_rad, XrlabAngleUnit unit);

/* Grazing angles in @unit: "5", a list "1,2,5", or a range "a:b:n" or
 * "a:b:n:log" (n ≥ 2 points from a to b inclusive, equally spaced or, for
 * log, in ratio; a, b > 0 then), each from 0 to 90°. Returns the @n angles
 * in @unit (g_free(); xrlab_angle_to_rad() turns each into radians within
 * 0..π/2), NULL with XRLAB_REFLECT_ERROR_ANGLE_SPEC or
 * XRLAB_REFLECT_ERROR_ANGLE naming the item that is wrong. */
double *xrlab_angle_spec_parse (const char *spec, XrlabAngleUnit unit, gsize *n, GError **error);

/* ---- filters and gas paths ---------------------------------------------- */

/* The linear attenuation coefficient μ [1/cm] of @material on the grid of
 * @cache that filters and gas paths use: the total attenuation
 * (XRLAB_QUANTITY_MU_TOTAL), or with @photo_only the photoabsorption alone
 * (XRLAB_QUANTITY_MU). */
gboolean xrlab_filter_attenuation (XrlabOpticsCache         *cache,
                                   const XrlabStackMaterial *material,
                                   gboolean                  photo_only,
                                   double                   *mu_per_cm,
                                   GError                  **error);

/* The transmission of filter stack @filter on the grid of @cache:
 * @transmission (grid size) = Π_l exp(−μ_l t_l), μ of
 * xrlab_filter_attenuation() (@photo_only), and, when not NULL,
 * @layer_transmission (n_layers × grid size, layer by layer) each layer's
 * own. μ is computed once per distinct material (into one grid-sized
 * scratch array, allocated per call). */
gboolean xrlab_filter_transmission (XrlabOpticsCache *cache,
                                    XrlabStack       *filter,
                                    gboolean          photo_only,
                                    double           *transmission,
                                    double           *layer_transmission,
                                    GError          **error);

G_END_DECLS
