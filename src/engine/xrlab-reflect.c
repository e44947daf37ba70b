/* xrlab-reflect.c -- Parratt reflectivity, filter and gas transmission
 *
 * Plans (the reduction of a stack to distinct media, slabs and
 * interfaces), curves and maps in blocks of points, and filters. The block
 * kernels are in xrlab-reflect-kernels.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-reflect.h"
#include "xrlab-reflect-private.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "xrlab-util.h"

G_DEFINE_QUARK (xrlab-reflect-error-quark, xrlab_reflect_error)

/* ---- building a plan ---------------------------------------------------- */

static guint
find_or_add_slab (XrlabReflectPlan *plan, GHashTable *slabs, guint medium, double d)
{
  g_autofree char *key = g_strdup_printf ("%u/%.17g", medium, d);
  gpointer v;

  if (g_hash_table_lookup_extended (slabs, key, NULL, &v))
    return GPOINTER_TO_UINT (v);
  plan->slab_medium[plan->n_slabs] = medium;
  plan->slab_d[plan->n_slabs] = d;
  g_hash_table_insert (slabs, g_steal_pointer (&key), GUINT_TO_POINTER (plan->n_slabs));
  return (guint) plan->n_slabs++;
}

static guint
find_or_add_iface (XrlabReflectPlan *plan, GHashTable *ifaces, guint upper, guint lower, double sigma)
{
  g_autofree char *key = g_strdup_printf ("%u/%u/%.17g", upper, lower, sigma);
  gpointer v;

  if (g_hash_table_lookup_extended (ifaces, key, NULL, &v))
    return GPOINTER_TO_UINT (v);
  plan->iface_upper[plan->n_ifaces] = upper;
  plan->iface_lower[plan->n_ifaces] = lower;
  plan->iface_sigma2[plan->n_ifaces] = sigma * sigma;
  g_hash_table_insert (ifaces, g_steal_pointer (&key), GUINT_TO_POINTER (plan->n_ifaces));
  return (guint) plan->n_ifaces++;
}

/* Media, slabs, interfaces and the steps; then the workspace. */
static void
plan_reduce (XrlabReflectPlan *plan)
{
  const XrlabStack *stack = plan->stack;
  const XrlabStackLayer *layers = xrlab_stack_get_layers (stack);
  gsize n = xrlab_stack_get_n_layers (stack);
  g_autoptr(GHashTable) slabs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) ifaces = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree int *medium_of = g_new (int, MAX (plan->n_materials, (gsize) 1));
  int substrate = xrlab_stack_get_substrate (stack);
  gsize per_point;
  guint upper;

  plan->n_layers = n;
  plan->medium_material = g_new (int, plan->n_materials + 1);
  plan->slab_medium = g_new (guint, MAX (n, (gsize) 1));
  plan->slab_d = g_new (double, MAX (n, (gsize) 1));
  plan->iface_upper = g_new (guint, n + 1);
  plan->iface_lower = g_new (guint, n + 1);
  plan->iface_sigma2 = g_new (double, n + 1);
  plan->step_iface = g_new (guint, n + 1);
  plan->step_slab = g_new (guint, n + 1);

  for (gsize m = 0; m < plan->n_materials; m++)
    medium_of[m] = -1;
  plan->medium_material[0] = xrlab_stack_get_ambient (stack);
  if (plan->medium_material[0] >= 0)
    medium_of[plan->medium_material[0]] = 0;
  plan->n_media = 1;
  for (gsize j = 0; j <= n; j++)
    {
      int mat = (j < n) ? (int) layers[j].material : substrate;
      if (mat >= 0 && medium_of[mat] < 0)
        {
          medium_of[mat] = (int) plan->n_media;
          plan->medium_material[plan->n_media++] = mat;
        }
    }
  plan->bottom = substrate >= 0 ? (guint) medium_of[substrate] : 0;

  upper = 0;
  for (gsize j = 0; j <= n; j++)
    {
      guint lower = (j < n) ? (guint) medium_of[layers[j].material] : plan->bottom;
      double sigma_nm = (j < n) ? layers[j].roughness_nm
                                : xrlab_stack_get_substrate_roughness_nm (stack);

      plan->step_iface[j] = find_or_add_iface (plan, ifaces, upper, lower, sigma_nm * 10.0);
      plan->step_slab[j] = (j < n) ? find_or_add_slab (plan, slabs, lower, layers[j].thickness_nm * 10.0) : 0;
      upper = lower;
    }

  per_point = P_N + plan->n_media * M_N + plan->n_slabs * S_N + plan->n_ifaces * I_N;
  plan->block = BLOCK_MAX;
  while (plan->block > BLOCK_MIN && per_point * plan->block * sizeof (double) > WORKSPACE_MAX_BYTES)
    plan->block /= 2;
  xrlab_reflect_plan_alloc_workspace (plan);
}

void
xrlab_reflect_plan_alloc_workspace (XrlabReflectPlan *plan)
{
  gsize per_point = P_N + plan->n_media * M_N + plan->n_slabs * S_N + plan->n_ifaces * I_N;

  plan->ws = g_new0 (double, per_point * plan->block);
  for (int q = 0; q < P_N; q++)
    plan->pt[q] = plan->ws + (gsize) q * plan->block;
  plan->md = plan->ws + (gsize) P_N * plan->block;
  plan->sl = plan->md + plan->n_media * M_N * plan->block;
  plan->fc = plan->sl + plan->n_slabs * S_N * plan->block;
}

static XrlabReflectPlan *
plan_alloc (XrlabStack *stack, XrlabEnergyGrid *grid, GError **error)
{
  XrlabReflectPlan *plan;

  if (xrlab_stack_get_kind (stack) != XRLAB_STACK_REFLECT)
    {
      g_set_error (error, XRLAB_REFLECT_ERROR, XRLAB_REFLECT_ERROR_STACK,
                   _("“%s” is a filter stack, not a reflectivity stack"),
                   xrlab_stack_get_text (stack));
      return NULL;
    }
  plan = g_new0 (XrlabReflectPlan, 1);
  plan->stack = xrlab_stack_ref (stack);
  plan->grid = xrlab_energy_grid_ref (grid);
  plan->n_e = xrlab_energy_grid_get_size (grid);
  plan->n_materials = xrlab_stack_get_n_materials (stack);
  plan->delta = g_new (double, MAX (plan->n_materials * plan->n_e, (gsize) 1));
  plan->beta = g_new (double, MAX (plan->n_materials * plan->n_e, (gsize) 1));
  return plan;
}

XrlabReflectPlan *
xrlab_reflect_plan_new (XrlabStack *stack, XrlabOpticsCache *cache, GError **error)
{
  XrlabReflectPlan *plan;

  g_return_val_if_fail (stack != NULL && cache != NULL, NULL);
  plan = plan_alloc (stack, xrlab_optics_cache_get_grid (cache), error);
  if (plan == NULL)
    return NULL;
  for (gsize m = 0; m < plan->n_materials; m++)
    {
      const XrlabStackMaterial *sm = xrlab_stack_get_material (stack, m);
      XrlabOpticsMaterial om = { sm->formula, sm->density_g_cm3, NAN };
      double *out[XRLAB_QUANTITY_N] = { NULL, };

      out[XRLAB_QUANTITY_DELTA] = plan->delta + m * plan->n_e;
      out[XRLAB_QUANTITY_BETA] = plan->beta + m * plan->n_e;
      if (!xrlab_optics_compute (cache, &om,
                                 XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_DELTA) | XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_BETA),
                                 out, error))
        {
          g_prefix_error (error, _("Stack material “%s”: "), sm->name);
          xrlab_reflect_plan_free (plan);
          return NULL;
        }
    }
  plan_reduce (plan);
  return plan;
}

XrlabReflectPlan *
xrlab_reflect_plan_new_with_constants (XrlabStack *stack, XrlabEnergyGrid *grid,
                                       const double *delta, const double *beta,
                                       GError **error)
{
  XrlabReflectPlan *plan;
  gsize n;

  g_return_val_if_fail (stack != NULL && grid != NULL, NULL);
  n = xrlab_stack_get_n_materials (stack) * xrlab_energy_grid_get_size (grid);
  g_return_val_if_fail (n == 0 || (delta != NULL && beta != NULL), NULL);
  for (gsize i = 0; i < n; i++)
    if (!isfinite (delta[i]) || !isfinite (beta[i]) || beta[i] < 0.0)
      {
        char b1[XRLAB_DTOA_BUFSIZE], b2[XRLAB_DTOA_BUFSIZE];
        g_set_error (error, XRLAB_REFLECT_ERROR, XRLAB_REFLECT_ERROR_CONSTANTS,
                     _("Optical constants δ = %s, β = %s (value %zu) must be finite, with β ≥ 0"),
                     xrlab_format_double (delta[i], b1), xrlab_format_double (beta[i], b2), i + 1);
        return NULL;
      }
  plan = plan_alloc (stack, grid, error);
  if (plan == NULL)
    return NULL;
  if (n > 0)
    {
      memcpy (plan->delta, delta, n * sizeof (double));
      memcpy (plan->beta, beta, n * sizeof (double));
    }
  plan_reduce (plan);
  return plan;
}

void
xrlab_reflect_plan_free (XrlabReflectPlan *plan)
{
  if (plan == NULL)
    return;
  g_free (plan->ws);
  g_free (plan->medium_material);
  g_free (plan->slab_medium);
  g_free (plan->slab_d);
  g_free (plan->iface_upper);
  g_free (plan->iface_lower);
  g_free (plan->iface_sigma2);
  g_free (plan->step_iface);
  g_free (plan->step_slab);
  g_free (plan->delta);
  g_free (plan->beta);
  xrlab_energy_grid_unref (plan->grid);
  xrlab_stack_unref (plan->stack);
  g_free (plan);
}

XrlabStack *
xrlab_reflect_plan_get_stack (const XrlabReflectPlan *plan)
{
  return plan->stack;
}

XrlabEnergyGrid *
xrlab_reflect_plan_get_grid (const XrlabReflectPlan *plan)
{
  return plan->grid;
}

const double *
xrlab_reflect_plan_get_delta (const XrlabReflectPlan *plan, gsize material)
{
  g_return_val_if_fail (material < plan->n_materials, NULL);
  return plan->delta + material * plan->n_e;
}

const double *
xrlab_reflect_plan_get_beta (const XrlabReflectPlan *plan, gsize material)
{
  g_return_val_if_fail (material < plan->n_materials, NULL);
  return plan->beta + material * plan->n_e;
}

void
xrlab_reflect_plan_get_sizes (const XrlabReflectPlan *plan, gsize *n_media,
                              gsize *n_slabs, gsize *n_interfaces, gsize *n_steps)
{
  if (n_media)
    *n_media = plan->n_media;
  if (n_slabs)
    *n_slabs = plan->n_slabs;
  if (n_interfaces)
    *n_interfaces = plan->n_ifaces;
  if (n_steps)
    *n_steps = plan->n_layers + 1;
}

/* ---- curves -------------------------------------------------------------- */

static gboolean
check_output (const XrlabReflectOutput *out, GError **error)
{
  char buf[XRLAB_DTOA_BUFSIZE];

  if (!(out->polarization >= -1.0 && out->polarization <= 1.0))
    {
      g_set_error (error, XRLAB_REFLECT_ERROR, XRLAB_REFLECT_ERROR_POLARIZATION,
                   _("The polarization degree %s must be from −1 (p) to 1 (s)"),
                   xrlab_format_double (out->polarization, buf));
      return FALSE;
    }
  return TRUE;
}

gboolean
xrlab_reflect_check_angle (double angle, gsize i, gsize n, GError **error)
{
  char buf[XRLAB_DTOA_BUFSIZE];

  if (angle >= 0.0 && angle <= G_PI / 2)
    return TRUE;
  if (n > 1)
    g_set_error (error, XRLAB_REFLECT_ERROR, XRLAB_REFLECT_ERROR_ANGLE,
                 _("The grazing angle %s rad (point %zu) must be from 0 to π/2 (90°)"),
                 xrlab_format_double (angle, buf), i + 1);
  else
    g_set_error (error, XRLAB_REFLECT_ERROR, XRLAB_REFLECT_ERROR_ANGLE,
                 _("The grazing angle %s rad must be from 0 to π/2 (90°)"),
                 xrlab_format_double (angle, buf));
  return FALSE;
}

static gboolean
check_angles (const double *angles, gsize n, GError **error)
{
  gboolean ok = TRUE;

  /* All at once (no branch per angle), then the first bad one. */
  for (gsize i = 0; i < n; i++)
    ok &= (angles[i] >= 0.0) & (angles[i] <= G_PI / 2);
  if (ok)
    return TRUE;
  for (gsize i = 0; i < n; i++)
    if (!xrlab_reflect_check_angle (angles[i], i, n, error))
      return FALSE;
  return TRUE;
}

gboolean
xrlab_reflect_check_map (const XrlabReflectOutput *out, const double *angles, gsize n,
                         GError **error)
{
  return check_output (out, error) && check_angles (angles, n, error);
}

static inline gsize
pad4 (gsize n)
{
  return (n + 3) & ~(gsize) 3;
}

/* Every angle at energy @e into @out from @row_offset on. */
void
xrlab_reflect_angles_row (XrlabReflectPlan *plan, gsize e, const double *angles, gsize n_angles,
            const XrlabReflectOutput *out, gsize row_offset)
{
  gboolean want_t = xrlab_reflect_wants_t (out);

  for (gsize a0 = 0; a0 < n_angles; a0 += plan->block)
    {
      gsize n = MIN (plan->block, n_angles - a0);
      gsize nb = pad4 (n);

      xrlab_reflect_fill_angles (plan, e, angles, a0, n, nb);
      xrlab_reflect_compute_block (plan, nb, want_t);
      xrlab_reflect_write_block (plan, out, n, row_offset + a0, 1);
    }
}

gboolean
xrlab_reflect_plan_angles (XrlabReflectPlan *plan, gsize energy_index,
                           const double *angles_rad, gsize n_angles,
                           const XrlabReflectOutput *out, GError **error)
{
  g_return_val_if_fail (plan != NULL && out != NULL, FALSE);
  g_return_val_if_fail (n_angles == 0 || angles_rad != NULL, FALSE);
  if (energy_index >= plan->n_e)
    {
      g_set_error (error, XRLAB_REFLECT_ERROR, XRLAB_REFLECT_ERROR_STACK,
                   _("Energy index %zu is outside the grid of %zu energies"),
                   energy_index, plan->n_e);
      return FALSE;
    }
  if (!check_output (out, error) || !check_angles (angles_rad, n_angles, error))
    return FALSE;
  xrlab_reflect_angles_row (plan, energy_index, angles_rad, n_angles, out, 0);
  return TRUE;
}

gboolean
xrlab_reflect_plan_energies (XrlabReflectPlan *plan, double angle_rad,
                             const XrlabReflectOutput *out, GError **error)
{
  gboolean want_t;
  double s;

  g_return_val_if_fail (plan != NULL && out != NULL, FALSE);
  if (!check_output (out, error) || !xrlab_reflect_check_angle (angle_rad, 0, 1, error))
    return FALSE;
  want_t = xrlab_reflect_wants_t (out);
  s = sin (angle_rad);
  for (gsize e0 = 0; e0 < plan->n_e; e0 += plan->block)
    {
      gsize n = MIN (plan->block, plan->n_e - e0);
      gsize nb = pad4 (n);

      xrlab_reflect_fill_energies (plan, s, e0, n, nb);
      xrlab_reflect_compute_block (plan, nb, want_t);
      xrlab_reflect_write_block (plan, out, n, e0, 1);
    }
  return TRUE;
}

gboolean
xrlab_reflect_plan_map (XrlabReflectPlan *plan, const double *angles_rad, gsize n_angles,
                        const XrlabReflectOutput *out, GCancellable *cancellable,
                        GError **error)
{
  g_return_val_if_fail (plan != NULL && out != NULL, FALSE);
  g_return_val_if_fail (n_angles == 0 || angles_rad != NULL, FALSE);
  if (!xrlab_reflect_check_map (out, angles_rad, n_angles, error))
    return FALSE;
  for (gsize e = 0; e < plan->n_e; e++)
    {
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      xrlab_reflect_angles_row (plan, e, angles_rad, n_angles, out, e * n_angles);
    }
  return TRUE;
}

/* ---- filters -------------------------------------------------------------- */

gboolean
xrlab_filter_attenuation (XrlabOpticsCache *cache, const XrlabStackMaterial *material,
                          gboolean photo_only, double *mu_per_cm, GError **error)
{
  XrlabOpticsMaterial m = { material->formula, material->density_g_cm3, NAN };
  XrlabQuantity q = photo_only ? XRLAB_QUANTITY_MU : XRLAB_QUANTITY_MU_TOTAL;
  double *out[XRLAB_QUANTITY_N] = { NULL, };

  out[q] = mu_per_cm;
  if (!xrlab_optics_compute (cache, &m, XRLAB_QUANTITY_BIT (q), out, error))
    {
      g_prefix_error (error, _("Filter material “%s”: "), material->name);
      return FALSE;
    }
  return TRUE;
}

gboolean
xrlab_filter_transmission (XrlabOpticsCache *cache, XrlabStack *filter, gboolean photo_only,
                           double *transmission, double *layer_transmission,
                           GError **error)
{
  const XrlabStackLayer *layers;
  gsize n_e, n_layers, n_mat;
  g_autofree double *mu = NULL;
  g_autofree double *path_cm = NULL;

  g_return_val_if_fail (cache != NULL && filter != NULL && transmission != NULL, FALSE);
  if (xrlab_stack_get_kind (filter) != XRLAB_STACK_FILTER)
    {
      g_set_error (error, XRLAB_REFLECT_ERROR, XRLAB_REFLECT_ERROR_STACK,
                   _("“%s” is a reflectivity stack, not a filter stack"),
                   xrlab_stack_get_text (filter));
      return FALSE;
    }
  n_e = xrlab_energy_grid_get_size (xrlab_optics_cache_get_grid (cache));
  n_layers = xrlab_stack_get_n_layers (filter);
  n_mat = xrlab_stack_get_n_materials (filter);
  layers = xrlab_stack_get_layers (filter);

  /* Σ_l μ_l t_l = Σ_m μ_m (Σ of the thicknesses of material m). */
  path_cm = g_new0 (double, MAX (n_mat, (gsize) 1));
  for (gsize l = 0; l < n_layers; l++)
    path_cm[layers[l].material] += layers[l].thickness_nm * 1e-7;
  mu = g_new (double, MAX (n_e, (gsize) 1));
  for (gsize e = 0; e < n_e; e++)
    transmission[e] = 0.0;
  for (gsize m = 0; m < n_mat; m++)
    {
      if (!xrlab_filter_attenuation (cache, xrlab_stack_get_material (filter, m), photo_only, mu,
                                     error))
        return FALSE;
      for (gsize e = 0; e < n_e; e++)
        transmission[e] += mu[e] * path_cm[m];
      if (layer_transmission)
        for (gsize l = 0; l < n_layers; l++)
          if (layers[l].material == m)
            {
              double t_cm = layers[l].thickness_nm * 1e-7;
              double *o = layer_transmission + l * n_e;
              for (gsize e = 0; e < n_e; e++)
                o[e] = exp (-mu[e] * t_cm);
            }
    }
  for (gsize e = 0; e < n_e; e++)
    transmission[e] = exp (-transmission[e]);
  return TRUE;
}
