/* xrlab-optics.c -- optical constants on energy grids
 *
 * Layout for speed: a grid keeps its per-energy factors (λ, r_e λ² N_A / 2π,
 * 2 r_e λ N_A) in separate arrays; a cache keeps f1 and f2 of each element
 * as arrays over the grid. A material is computed in blocks of BLOCK
 * energies: Σ n_i f1_i and Σ n_i f2_i go into two stack buffers that stay in
 * L1, then each requested quantity is one simple loop over the block.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-optics.h"
#include "xrlab-energy-private.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "xrlab-constants.h"
#include "xrlab-elements.h"
#include "xrlab-parallel.h"
#include "xrlab-util.h"

#define BLOCK 256

/* The kernel in three builds chosen at load time (x86-64-v4: AVX-512,
 * v3: AVX2, the baseline), as the plan kernels are; never with fused
 * multiply-adds, so that every build gives the baseline's numbers bit for
 * bit (and xrlab_optics_compute_point() the kernel's). Not under
 * ThreadSanitizer: it instruments the clones' resolvers, which run before it
 * is set up. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && __GNUC__ >= 11 \
    && defined(__ELF__) && !defined(__SANITIZE_THREAD__)
# define KERNEL_CLONES __attribute__ ((target_clones ("arch=x86-64-v4", "arch=x86-64-v3", \
                                                      "default"), \
                                       optimize ("O3", "no-trapping-math", "fp-contract=off")))
#else
# define KERNEL_CLONES
#endif

#define BIT(q) XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_##q)

/* Quantities that need Σ n_i f1_i, Σ n_i f2_i, the photoabsorption μ and
 * the scattering sum Σ n_i A_i σ_i (the total attenuation). */
#define NEEDS_F1 (BIT (DELTA) | BIT (F1) | BIT (CRITICAL_ANGLE_DEG) \
                  | BIT (CRITICAL_ANGLE_MRAD) | BIT (RE_SLD))
#define NEEDS_MU (BIT (ATTENUATION_LENGTH) | BIT (MU) | BIT (MU_RHO) | BIT (TRANSMISSION_PHOTO))
#define NEEDS_TOTAL XRLAB_QUANTITY_MASK_TOTAL
#define NEEDS_F2 (BIT (BETA) | BIT (F2) | BIT (IM_SLD) | NEEDS_MU | NEEDS_TOTAL)
#define NEEDS_ANGLE (BIT (CRITICAL_ANGLE_DEG) | BIT (CRITICAL_ANGLE_MRAD))

/* ---- materials ---------------------------------------------------------- */

double
xrlab_optics_electron_density (const XrlabFormula *formula, double density_g_cm3)
{
  return density_g_cm3 * XRLAB_AVOGADRO_PER_MOL * xrlab_formula_get_electrons (formula)
         / xrlab_formula_get_molecular_weight (formula) * 1e-24;
}

/* Within the tables' valid ranges every element has f1 (Henke's f1 starts
 * at 29.3 eV at the latest, Chantler's at its first row), so this guards
 * the built-in data rather than a user's input. */
static void
set_f1_range_error (GError **error, const XrlabScatteringTable *t, double energy_kev, gsize i, gsize n)
{
  g_autofree char *where = xrlab_energy_point_suffix (i, n);
  char buf[XRLAB_DTOA_BUFSIZE];

  g_set_error (error, XRLAB_OPTICS_ERROR, XRLAB_OPTICS_ERROR_ENERGY,
               /* TRANSLATORS: the second %s is the name of a table ("Henke") */
               _("Energy %s keV%s is below the %s f1 table of %s, which starts at %g keV: "
                 "δ, f1, the critical angle and the real SLD need %g–%g keV"),
               xrlab_format_double (energy_kev, buf), where, xrlab_table_get_info (t->table)->title,
               xrlab_element_get_symbol (t->z), t->f1_min_ev / 1000.0,
               t->f1_min_ev / 1000.0, t->max_ev / 1000.0);
}

/* Clamps @x into [lo, hi] when it lies within XRLAB_ENERGY_SLACK of an end. */
static inline double
clamp_slack (double x, double lo, double hi)
{
  xrlab_energy_place (x, lo, hi, &x);
  return x;
}

/* ---- the cache ---------------------------------------------------------- */

typedef struct {
  const XrlabScatteringTable *table;
  double *f1;
  double *f2;
  double *scatter;          /* σ_coh+inc A [cm²/mol]; NULL until a total is asked for */
  gsize f1_first_missing;   /* the first energy below the f1 table, or G_MAXSIZE */
} ElementCache;

struct _XrlabOpticsCache {
  XrlabEnergyGrid *grid;
  ElementCache *elements[XRLAB_ELEMENT_Z_MAX + 1];
  guint n_threads;
  guint n_interpolations;
};

XrlabOpticsCache *
xrlab_optics_cache_new (XrlabEnergyGrid *grid)
{
  XrlabOpticsCache *cache;

  g_return_val_if_fail (grid != NULL, NULL);
  cache = g_new0 (XrlabOpticsCache, 1);
  cache->grid = xrlab_energy_grid_ref (grid);
  return cache;
}

void
xrlab_optics_cache_free (XrlabOpticsCache *cache)
{
  if (cache == NULL)
    return;
  for (int z = 0; z <= XRLAB_ELEMENT_Z_MAX; z++)
    if (cache->elements[z])
      {
        g_free (cache->elements[z]->f1);   /* f1 and f2 are one block */
        g_free (cache->elements[z]->scatter);
        g_free (cache->elements[z]);
      }
  xrlab_energy_grid_unref (cache->grid);
  g_free (cache);
}

XrlabEnergyGrid *
xrlab_optics_cache_get_grid (const XrlabOpticsCache *cache)
{
  return cache->grid;
}

void
xrlab_optics_cache_set_n_threads (XrlabOpticsCache *cache, guint n_threads)
{
  cache->n_threads = n_threads;
}

guint
xrlab_optics_cache_get_n_threads (const XrlabOpticsCache *cache)
{
  return cache->n_threads;
}

guint
xrlab_optics_cache_get_n_interpolations (const XrlabOpticsCache *cache)
{
  return cache->n_interpolations;
}

static ElementCache *
cache_element (XrlabOpticsCache *cache, int z, GError **error)
{
  const XrlabEnergyGrid *g = cache->grid;
  const XrlabScatteringTable *t;
  ElementCache *ec;
  gsize h1 = 0, h2 = 0;

  if (z >= 1 && z <= XRLAB_ELEMENT_Z_MAX && cache->elements[z] != NULL)
    return cache->elements[z];
  t = xrlab_scattering_table_get (g->table, z, error);
  if (t == NULL)
    return NULL;

  ec = g_new0 (ElementCache, 1);
  ec->table = t;
  ec->f1 = g_new (double, 2 * g->n);
  ec->f2 = ec->f1 + g->n;
  ec->f1_first_missing = G_MAXSIZE;
  for (gsize i = 0; i < g->n; i++)
    {
      double x1 = clamp_slack (g->energy_ev[i], t->f1_min_ev, t->max_ev);
      double x2 = clamp_slack (g->energy_ev[i], t->f2_min_ev, t->max_ev);

      if (x1 >= t->f1_min_ev)
        ec->f1[i] = xrlab_pchip_eval (t->f1, x1, &h1);
      else
        {
          ec->f1[i] = NAN;
          if (ec->f1_first_missing == G_MAXSIZE)
            ec->f1_first_missing = i;
        }
      ec->f2[i] = xrlab_pchip_eval (t->f2, x2, &h2);
    }
  cache->elements[z] = ec;
  cache->n_interpolations++;
  return ec;
}

/* The scattering sums of @ec on the grid, computed at the first total. */
static void
cache_scatter (const XrlabOpticsCache *cache, ElementCache *ec)
{
  const XrlabEnergyGrid *g = cache->grid;
  const XrlabScatteringTable *t = ec->table;
  gsize hint = 0;

  if (ec->scatter != NULL)
    return;
  ec->scatter = g_new (double, MAX (g->n, 1));
  for (gsize i = 0; i < g->n; i++)
    ec->scatter[i] = xrlab_scattering_table_eval_scatter (t, clamp_slack (g->energy_ev[i], t->f2_min_ev,
                                                                          t->max_ev), &hint);
}

const double *
xrlab_optics_cache_get_f1 (XrlabOpticsCache *cache, int z, GError **error)
{
  const ElementCache *ec = cache_element (cache, z, error);
  return ec ? ec->f1 : NULL;
}

const double *
xrlab_optics_cache_get_f2 (XrlabOpticsCache *cache, int z, GError **error)
{
  const ElementCache *ec = cache_element (cache, z, error);
  return ec ? ec->f2 : NULL;
}

/* Makes sure every element of @material is cached and the grid lies within
 * the f1 tables when @mask needs f1. Not thread safe (fills the cache). */
static gboolean
prepare_material (XrlabOpticsCache *cache, const XrlabOpticsMaterial *material,
                  XrlabQuantityMask mask, GError **error)
{
  const XrlabFormula *f;
  const int *z;
  gsize n;

  if (!xrlab_optics_check_material (material, mask, error))
    return FALSE;
  f = material->formula;
  z = xrlab_formula_get_z (f);
  n = xrlab_formula_get_n_atoms (f);
  for (gsize i = 0; i < n; i++)
    {
      ElementCache *ec = cache_element (cache, z[i], error);
      if (ec == NULL)
        return FALSE;
      if (mask & NEEDS_TOTAL)
        cache_scatter (cache, ec);
      if ((mask & NEEDS_F1) && ec->f1_first_missing != G_MAXSIZE)
        {
          gsize k = ec->f1_first_missing;
          set_f1_range_error (error, ec->table, cache->grid->energy_kev[k], k, cache->grid->n);
          return FALSE;
        }
    }
  return TRUE;
}

/* ---- the kernel ---------------------------------------------------------- */

/* A material bound to a prepared cache: read-only, so any thread may use it. */
typedef struct {
  gsize n_atoms;
  const double *f1[XRLAB_ELEMENT_N_IDS];
  const double *f2[XRLAB_ELEMENT_N_IDS];
  const double *scatter[XRLAB_ELEMENT_N_IDS];   /* NULL unless a total was asked for */
  double count[XRLAB_ELEMENT_N_IDS];
  double rho;          /* ρ [g/cm³] */
  double inv_rho;      /* 1/ρ */
  double rho_m;        /* ρ/M [mol/cm³] */
  double sld_factor;   /* r_e[Å] N_A ρ/M 1e-24 [Å⁻³ per e]: SLD = sld_factor f */
  double t_cm;         /* thickness [cm] */
} Bound;

static void
bind_material (const XrlabOpticsCache *cache, const XrlabOpticsMaterial *material, Bound *b)
{
  const XrlabFormula *f = material->formula;
  const int *z = xrlab_formula_get_z (f);
  const double *counts = xrlab_formula_get_counts (f);

  b->n_atoms = xrlab_formula_get_n_atoms (f);
  for (gsize i = 0; i < b->n_atoms; i++)
    {
      const ElementCache *ec = cache->elements[z[i]];
      b->f1[i] = ec->f1;
      b->f2[i] = ec->f2;
      b->scatter[i] = ec->scatter;
      b->count[i] = counts[i];
    }
  b->rho = material->density_g_cm3;
  b->inv_rho = 1.0 / material->density_g_cm3;
  b->rho_m = material->density_g_cm3 / xrlab_formula_get_molecular_weight (f);
  b->sld_factor = XRLAB_ELECTRON_RADIUS_A * XRLAB_AVOGADRO_PER_MOL * b->rho_m * 1e-24;
  b->t_cm = isfinite (material->thickness_um) ? material->thickness_um * 1e-4 : 0.0;
}

/* s[j] = Σ_i n_i f_i[e0 + j], j < nb (atoms in formula order). Always
 * inlined: into each build of the kernel. */
static inline __attribute__ ((always_inline)) void
sum_factors (const double *const *f, const double *count, gsize n_atoms,
             gsize e0, gsize nb, double *restrict s)
{
  const double *f0 = f[0] + e0;
  double c0 = count[0];

  for (gsize j = 0; j < nb; j++)
    s[j] = c0 * f0[j];
  for (gsize i = 1; i < n_atoms; i++)
    {
      const double *fi = f[i] + e0;
      double ci = count[i];
      for (gsize j = 0; j < nb; j++)
        s[j] += ci * fi[j];
    }
}

/* Critical angle [rad] from δ: cos θc = 1 - δ (Snell's law at grazing
 * incidence, n = 1 - δ); NaN where δ < 0 (negative f1). θc = 2 asin(√(δ/2))
 * = √(2δ) (1 + δ/12 + 3δ²/160 + 5δ³/896 + 35δ⁴/18432 + 63δ⁵/90112 + ...):
 * below δ = 1e-3 (hard X-rays) the first five terms, whose remainder is
 * under 1e-18 relative, at the cost of one square root; asin above. Either
 * is free of the rounding of 1 - δ. √(2δ) alone is within a relative δ/12. */
static inline __attribute__ ((always_inline)) double
critical_angle (double delta)
{
  if (!(delta >= 0.0))
    return NAN;
  if (delta >= 1e-3)
    return 2.0 * asin (sqrt (0.5 * delta));
  return sqrt (2.0 * delta)
         * (1.0 + delta * (1.0 / 12 + delta * (3.0 / 160 + delta * (5.0 / 896 + delta * (35.0 / 18432)))));
}

/* From the attenuation coefficients @m[0 .. @nb-1] [1/cm] at energies @e0..
 * of material @b: the quantities @mu, @att (1/μ), @mur (μ/ρ) and @tr
 * (exp(-μ t)) that @mask asks for, into @out. */
static inline __attribute__ ((always_inline)) void
write_attenuation (const double *restrict m, gsize nb, const Bound *b, gsize e0,
                   XrlabQuantityMask mask, XrlabQuantity mu, XrlabQuantity att,
                   XrlabQuantity mur, XrlabQuantity tr, double *const out[XRLAB_QUANTITY_N])
{
  const double inv_rho = b->inv_rho, t_cm = b->t_cm;

  /* one loop a quantity, so that each vectorizes */
  if (mask & XRLAB_QUANTITY_BIT (mu))
    memcpy (out[mu] + e0, m, nb * sizeof (double));
  if (mask & XRLAB_QUANTITY_BIT (att))
    {
      double *restrict o = out[att] + e0;
      for (gsize j = 0; j < nb; j++)
        o[j] = 1.0 / m[j];
    }
  if (mask & XRLAB_QUANTITY_BIT (mur))
    {
      double *restrict o = out[mur] + e0;
      for (gsize j = 0; j < nb; j++)
        o[j] = m[j] * inv_rho;
    }
  if (mask & XRLAB_QUANTITY_BIT (tr))
    {
      double *restrict o = out[tr] + e0;
      for (gsize j = 0; j < nb; j++)
        o[j] = exp (-m[j] * t_cm);
    }
}

/* Energies [e0, e1) of material @b into @out[q] (indexed by energy). */
KERNEL_CLONES static void
kernel (const XrlabEnergyGrid *g, const Bound *b, XrlabQuantityMask mask,
        gsize e0, gsize e1, double *const out[XRLAB_QUANTITY_N])
{
  double s1[BLOCK], s2[BLOCK], s3[BLOCK], m[BLOCK];

  for (gsize e = e0; e < e1; e += BLOCK)
    {
      const gsize nb = MIN ((gsize) BLOCK, e1 - e);
      const double *kd = g->k_delta + e;
      const double *km = g->k_mu + e;
      const double rho_m = b->rho_m;

      if (mask & NEEDS_F1)
        sum_factors (b->f1, b->count, b->n_atoms, e, nb, s1);
      if (mask & NEEDS_F2)
        sum_factors (b->f2, b->count, b->n_atoms, e, nb, s2);

      if (mask & BIT (WAVELENGTH))
        memcpy (out[XRLAB_QUANTITY_WAVELENGTH] + e, g->wavelength_a + e, nb * sizeof (double));
      if (mask & BIT (F1))
        memcpy (out[XRLAB_QUANTITY_F1] + e, s1, nb * sizeof (double));
      if (mask & BIT (F2))
        memcpy (out[XRLAB_QUANTITY_F2] + e, s2, nb * sizeof (double));
      if (mask & BIT (DELTA))
        {
          double *restrict o = out[XRLAB_QUANTITY_DELTA] + e;
          for (gsize j = 0; j < nb; j++)
            o[j] = kd[j] * rho_m * s1[j];
        }
      if (mask & BIT (BETA))
        {
          double *restrict o = out[XRLAB_QUANTITY_BETA] + e;
          for (gsize j = 0; j < nb; j++)
            o[j] = kd[j] * rho_m * s2[j];
        }
      if (mask & NEEDS_ANGLE)
        {
          double th[BLOCK];

          for (gsize j = 0; j < nb; j++)
            th[j] = critical_angle (kd[j] * rho_m * s1[j]);
          if (mask & BIT (CRITICAL_ANGLE_DEG))
            {
              double *restrict o = out[XRLAB_QUANTITY_CRITICAL_ANGLE_DEG] + e;
              for (gsize j = 0; j < nb; j++)
                o[j] = th[j] * (180.0 / G_PI);
            }
          if (mask & BIT (CRITICAL_ANGLE_MRAD))
            {
              double *restrict o = out[XRLAB_QUANTITY_CRITICAL_ANGLE_MRAD] + e;
              for (gsize j = 0; j < nb; j++)
                o[j] = th[j] * 1000.0;
            }
        }
      if (mask & NEEDS_MU)
        {
          for (gsize j = 0; j < nb; j++)
            m[j] = km[j] * rho_m * s2[j];
          write_attenuation (m, nb, b, e, mask, XRLAB_QUANTITY_MU, XRLAB_QUANTITY_ATTENUATION_LENGTH,
                             XRLAB_QUANTITY_MU_RHO, XRLAB_QUANTITY_TRANSMISSION_PHOTO, out);
        }
      if (mask & NEEDS_TOTAL)
        {
          sum_factors (b->scatter, b->count, b->n_atoms, e, nb, s3);
          for (gsize j = 0; j < nb; j++)
            m[j] = rho_m * (km[j] * s2[j] + s3[j]);
          write_attenuation (m, nb, b, e, mask, XRLAB_QUANTITY_MU_TOTAL,
                             XRLAB_QUANTITY_ATTENUATION_LENGTH_TOTAL, XRLAB_QUANTITY_MU_RHO_TOTAL,
                             XRLAB_QUANTITY_TRANSMISSION, out);
        }
      if (mask & BIT (RE_SLD))
        {
          double *restrict o = out[XRLAB_QUANTITY_RE_SLD] + e;
          const double k = b->sld_factor;
          for (gsize j = 0; j < nb; j++)
            o[j] = k * s1[j];
        }
      if (mask & BIT (IM_SLD))
        {
          double *restrict o = out[XRLAB_QUANTITY_IM_SLD] + e;
          const double k = b->sld_factor;
          for (gsize j = 0; j < nb; j++)
            o[j] = k * s2[j];
        }
    }
}

gboolean
xrlab_optics_compute (XrlabOpticsCache *cache, const XrlabOpticsMaterial *material,
                      XrlabQuantityMask quantities, double *const out[XRLAB_QUANTITY_N],
                      GError **error)
{
  Bound b;

  g_return_val_if_fail (cache != NULL && material != NULL && out != NULL, FALSE);
  quantities &= XRLAB_QUANTITY_MASK_ALL;
  for (int q = 0; q < XRLAB_QUANTITY_N; q++)
    g_return_val_if_fail (!(quantities & XRLAB_QUANTITY_BIT (q)) || out[q] != NULL, FALSE);

  if (!prepare_material (cache, material, quantities, error))
    return FALSE;
  bind_material (cache, material, &b);
  kernel (cache->grid, &b, quantities, 0, cache->grid->n, out);
  return TRUE;
}

/* ---- batch --------------------------------------------------------------- */

typedef struct {
  const XrlabOpticsCache *cache;
  const XrlabOpticsMaterial *materials;
  const gboolean *skip;       /* materials that failed preparation */
  gsize n_materials;
  XrlabQuantityMask mask;
  guint n_q;
  double *out;
  gsize chunk;                /* materials per chunk: one part of the loop */
  gsize done;                 /* atomic: materials done */
  GCancellable *cancellable;
  GThread *caller;            /* reports progress */
  XrlabOpticsProgressFunc progress;
  gpointer progress_data;
} BatchState;

static void
batch_chunk (BatchState *s, gsize c)
{
  const XrlabEnergyGrid *g = s->cache->grid;
  const gsize n_e = g->n;
  gsize m0 = c * s->chunk, m1 = MIN (m0 + s->chunk, s->n_materials);
  Bound b;

  for (gsize m = m0; m < m1; m++)
    {
      double *out[XRLAB_QUANTITY_N] = { NULL, };
      double *base = s->out + m * (gsize) s->n_q * n_e;
      guint k = 0;

      if (s->skip[m])
        continue;
      for (int q = 0; q < XRLAB_QUANTITY_N; q++)
        if (s->mask & XRLAB_QUANTITY_BIT (q))
          out[q] = base + (gsize) (k++) * n_e;
      bind_material (s->cache, &s->materials[m], &b);
      kernel (g, &b, s->mask, 0, n_e, out);
    }
  g_atomic_pointer_add (&s->done, (gssize) (m1 - m0));
}

/* One part of the pool's loop: one chunk, unless the batch is cancelled.
 * The calling thread reports progress after each of its chunks. */
static void
batch_part (gpointer data, guint part)
{
  BatchState *s = data;

  if (s->cancellable && g_cancellable_is_cancelled (s->cancellable))
    return;
  batch_chunk (s, part);
  if (s->progress != NULL && g_thread_self () == s->caller)
    s->progress ((gsize) g_atomic_pointer_get (&s->done), s->n_materials, s->progress_data);
}

gboolean
xrlab_optics_batch (XrlabOpticsCache *cache, const XrlabOpticsMaterial *materials,
                    gsize n_materials, XrlabQuantityMask quantities, double *out,
                    GError **material_errors, XrlabOpticsProgressFunc progress,
                    gpointer progress_data, GCancellable *cancellable, GError **error)
{
  g_autofree gboolean *skip = NULL;
  BatchState s = { 0, };
  XrlabParallel *pool = NULL;
  gsize n_e, n_chunks, points;

  g_return_val_if_fail (cache != NULL, FALSE);
  g_return_val_if_fail (n_materials == 0 || (materials != NULL && out != NULL), FALSE);
  quantities &= XRLAB_QUANTITY_MASK_ALL;

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;

  /* Check every material and interpolate the elements they need, here on
   * the calling thread: the parts below only read the cache. */
  skip = g_new0 (gboolean, MAX (n_materials, 1));
  for (gsize m = 0; m < n_materials; m++)
    {
      g_autoptr(GError) local = NULL;

      if (prepare_material (cache, &materials[m], quantities, &local))
        continue;
      if (local->domain == XRLAB_ELEMENT_ERROR)   /* damaged built-in data: everyone fails */
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return FALSE;
        }
      if (material_errors == NULL)
        {
          g_propagate_prefixed_error (error, g_steal_pointer (&local),
                                      _("Material %zu: "), m + 1);
          return FALSE;
        }
      skip[m] = TRUE;
      material_errors[m] = g_steal_pointer (&local);
    }

  n_e = cache->grid->n;
  s.cache = cache;
  s.materials = materials;
  s.skip = skip;
  s.n_materials = n_materials;
  s.mask = quantities;
  s.n_q = xrlab_quantity_mask_count (quantities);
  s.out = out;
  s.chunk = MAX ((gsize) 1, (gsize) 65536 / MAX (n_e, (gsize) 1));
  s.chunk = MAX (s.chunk, (n_materials + G_MAXUINT - 1) / G_MAXUINT);   /* parts are guint */
  n_chunks = (n_materials + s.chunk - 1) / s.chunk;
  s.cancellable = cancellable;
  s.caller = g_thread_self ();
  s.progress = progress;
  s.progress_data = progress_data;

  /* The one pool, unless told to stay on this thread; threads pay off from
   * about a million values. */
  points = n_materials * n_e * MAX (s.n_q, 1u);
  if (cache->n_threads != 1 && points >= 1000000)
    pool = xrlab_parallel_default ();
  xrlab_parallel_run (pool, (guint) n_chunks, batch_part, &s);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  if (progress)
    progress (n_materials, n_materials, progress_data);
  return TRUE;
}

/* ---- one point ------------------------------------------------------------ */

gboolean
xrlab_optics_compute_point (const XrlabOpticsMaterial *material, double energy_kev,
                            XrlabQuantityMask quantities, double values[XRLAB_QUANTITY_N],
                            GError **error)
{
  return xrlab_optics_compute_point_for_table (material, energy_kev, XRLAB_TABLE_HENKE,
                                               quantities, values, error);
}

gboolean
xrlab_optics_compute_point_for_table (const XrlabOpticsMaterial *material, double energy_kev,
                                      XrlabTable table, XrlabQuantityMask quantities,
                                      double values[XRLAB_QUANTITY_N], GError **error)
{
  const XrlabFormula *f;
  const int *z;
  const double *counts;
  double e, ev, wl, kd, km, rho_m, s1 = 0.0, s2 = 0.0, s3 = 0.0;
  gsize n;

  g_return_val_if_fail ((guint) table < XRLAB_TABLE_N_TABLES, FALSE);
  quantities &= XRLAB_QUANTITY_MASK_ALL;
  if (!xrlab_optics_check_material (material, quantities, error)
      || !xrlab_energy_check_value (energy_kev, XRLAB_ENERGY_UNIT_KEV, 0, 1,
                                    xrlab_energy_range_get (table), &e, error))
    return FALSE;

  f = material->formula;
  z = xrlab_formula_get_z (f);
  counts = xrlab_formula_get_counts (f);
  n = xrlab_formula_get_n_atoms (f);
  ev = e * 1000.0;
  for (gsize i = 0; i < n; i++)
    {
      const XrlabScatteringTable *t = xrlab_scattering_table_get (table, z[i], error);
      double x;

      if (t == NULL)
        return FALSE;
      if (quantities & NEEDS_F1)
        {
          x = clamp_slack (ev, t->f1_min_ev, t->max_ev);
          if (x < t->f1_min_ev)
            {
              set_f1_range_error (error, t, e, 0, 1);
              return FALSE;
            }
          s1 = (i == 0) ? counts[i] * xrlab_pchip_eval (t->f1, x, NULL)
                        : s1 + counts[i] * xrlab_pchip_eval (t->f1, x, NULL);
        }
      if (quantities & NEEDS_F2)
        {
          x = clamp_slack (ev, t->f2_min_ev, t->max_ev);
          s2 = (i == 0) ? counts[i] * xrlab_pchip_eval (t->f2, x, NULL)
                        : s2 + counts[i] * xrlab_pchip_eval (t->f2, x, NULL);
          if (quantities & NEEDS_TOTAL)
            s3 = (i == 0) ? counts[i] * xrlab_scattering_table_eval_scatter (t, x, NULL)
                          : s3 + counts[i] * xrlab_scattering_table_eval_scatter (t, x, NULL);
        }
    }

  wl = xrlab_kev_to_angstrom (e);
  xrlab_energy_factors (wl, &kd, &km);
  rho_m = material->density_g_cm3 / xrlab_formula_get_molecular_weight (f);

  if (quantities & BIT (WAVELENGTH))
    values[XRLAB_QUANTITY_WAVELENGTH] = wl;
  if (quantities & BIT (F1))
    values[XRLAB_QUANTITY_F1] = s1;
  if (quantities & BIT (F2))
    values[XRLAB_QUANTITY_F2] = s2;
  if (quantities & BIT (DELTA))
    values[XRLAB_QUANTITY_DELTA] = kd * rho_m * s1;
  if (quantities & BIT (BETA))
    values[XRLAB_QUANTITY_BETA] = kd * rho_m * s2;
  if (quantities & NEEDS_ANGLE)
    {
      double theta = critical_angle (kd * rho_m * s1);
      if (quantities & BIT (CRITICAL_ANGLE_DEG))
        values[XRLAB_QUANTITY_CRITICAL_ANGLE_DEG] = theta * (180.0 / G_PI);
      if (quantities & BIT (CRITICAL_ANGLE_MRAD))
        values[XRLAB_QUANTITY_CRITICAL_ANGLE_MRAD] = theta * 1000.0;
    }
  if (quantities & NEEDS_MU)
    {
      double m = km * rho_m * s2;
      if (quantities & BIT (MU))
        values[XRLAB_QUANTITY_MU] = m;
      if (quantities & BIT (ATTENUATION_LENGTH))
        values[XRLAB_QUANTITY_ATTENUATION_LENGTH] = 1.0 / m;
      if (quantities & BIT (MU_RHO))
        values[XRLAB_QUANTITY_MU_RHO] = m * (1.0 / material->density_g_cm3);
      if (quantities & BIT (TRANSMISSION_PHOTO))
        values[XRLAB_QUANTITY_TRANSMISSION_PHOTO] = exp (-m * (material->thickness_um * 1e-4));
    }
  if (quantities & NEEDS_TOTAL)
    {
      double m = rho_m * (km * s2 + s3);
      if (quantities & BIT (MU_TOTAL))
        values[XRLAB_QUANTITY_MU_TOTAL] = m;
      if (quantities & BIT (ATTENUATION_LENGTH_TOTAL))
        values[XRLAB_QUANTITY_ATTENUATION_LENGTH_TOTAL] = 1.0 / m;
      if (quantities & BIT (MU_RHO_TOTAL))
        values[XRLAB_QUANTITY_MU_RHO_TOTAL] = m * (1.0 / material->density_g_cm3);
      if (quantities & BIT (TRANSMISSION))
        values[XRLAB_QUANTITY_TRANSMISSION] = exp (-m * (material->thickness_um * 1e-4));
    }
  if (quantities & (BIT (RE_SLD) | BIT (IM_SLD)))
    {
      double k = XRLAB_ELECTRON_RADIUS_A * XRLAB_AVOGADRO_PER_MOL * rho_m * 1e-24;
      if (quantities & BIT (RE_SLD))
        values[XRLAB_QUANTITY_RE_SLD] = k * s1;
      if (quantities & BIT (IM_SLD))
        values[XRLAB_QUANTITY_IM_SLD] = k * s2;
    }
  return TRUE;
}

/* ---- the rule for a material's numbers ------------------------------------ */

gboolean
xrlab_optics_check_material (const XrlabOpticsMaterial *material, XrlabQuantityMask mask,
                             GError **error)
{
  char buf[XRLAB_DTOA_BUFSIZE];

  if (material->formula == NULL)
    {
      g_set_error (error, XRLAB_OPTICS_ERROR, XRLAB_OPTICS_ERROR_MATERIAL, _("No formula"));
      return FALSE;
    }
  if (!isfinite (material->density_g_cm3) || !(material->density_g_cm3 > 0.0))
    {
      g_set_error (error, XRLAB_OPTICS_ERROR, XRLAB_OPTICS_ERROR_MATERIAL,
                   _("Density %s g/cm³ of %s must be a positive number"),
                   xrlab_format_double (material->density_g_cm3, buf),
                   xrlab_formula_get_text (material->formula));
      return FALSE;
    }
  if ((mask & XRLAB_QUANTITY_MASK_TRANSMISSIONS)
      && (!isfinite (material->thickness_um) || material->thickness_um < 0.0))
    {
      g_set_error (error, XRLAB_OPTICS_ERROR, XRLAB_OPTICS_ERROR_MATERIAL,
                   _("Thickness %s µm must be a number ≥ 0 to compute the transmission"),
                   xrlab_format_double (material->thickness_um, buf));
      return FALSE;
    }
  return TRUE;
}
