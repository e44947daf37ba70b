/* test-reflect.c -- reflectivity, filters, gas paths and the stack grammar
 *
 * The Parratt recursion of xrlab-reflect.c is checked against two
 * independent implementations written here in long double complex
 * arithmetic: the characteristic-matrix method (Born & Wolf, §1.6) without
 * roughness, and a direct, layer-by-layer Parratt recursion with the
 * Névot–Croce factor; against python3-xraydb's mirror_reflectivity for
 * thick mirrors (tests/data/xraydb-mirror.csv); and against physics: the
 * refraction-corrected Bragg law, R + T = 1 without absorption, roughness
 * that lowers R (at every angle for mirrors and coatings; at every Bragg
 * peak and in the integral for a multilayer). Then filters, gases, and
 * every form and error of the grammar, with its limits and random input.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <string.h>

#include <gio/gio.h>

#include "xrlab-constants.h"
#include "xrlab-formula.h"
#include "xrlab-init.h"
#include "xrlab-optics.h"
#include "xrlab-reflect.h"
#include "xrlab-stack.h"
#include "xrlab-util.h"

typedef long double complex lcomplex;

/* ---- helpers ------------------------------------------------------------ */

static XrlabStack *
parse_reflect (const char *text)
{
  g_autoptr(GError) error = NULL;
  XrlabStack *s = xrlab_stack_parse_reflect (text, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (s);
  return s;
}

static XrlabStack *
parse_filter (const char *text)
{
  g_autoptr(GError) error = NULL;
  XrlabStack *s = xrlab_stack_parse_filter (text, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (s);
  return s;
}

static XrlabEnergyGrid *
grid_of (const double *energies_kev, gsize n)
{
  g_autoptr(GError) error = NULL;
  XrlabEnergyGrid *g = xrlab_energy_grid_new (energies_kev, n, XRLAB_ENERGY_UNIT_KEV, &error);

  g_assert_no_error (error);
  return g;
}

/* A plan with the optics engine's δ and β; *cache_out keeps the cache. */
static XrlabReflectPlan *
plan_of (XrlabStack *stack, XrlabEnergyGrid *grid, XrlabOpticsCache **cache_out)
{
  g_autoptr(GError) error = NULL;
  XrlabOpticsCache *cache = xrlab_optics_cache_new (grid);
  XrlabReflectPlan *plan = xrlab_reflect_plan_new (stack, cache, &error);

  g_assert_no_error (error);
  g_assert_nonnull (plan);
  if (cache_out)
    *cache_out = cache;
  else
    xrlab_optics_cache_free (cache);
  return plan;
}

static gboolean
close_rel (double a, double b, double tol, double floor)
{
  return fabs (a - b) <= tol * MAX (fabs (b), floor);
}

/* ---- the independent implementations ------------------------------------- */

/* TRUE when long double arithmetic carries more digits than double. Not so
 * where long double is double, nor under valgrind, which runs x87 extended
 * precision as double: there the references below are no more precise
 * than the code they check, and are held to 1e-7 instead of 1e-10. */
static gboolean
long_double_is_wider (void)
{
  volatile long double one = 1.0L;
  volatile long double sum = one + (long double) DBL_EPSILON / 4.0L;

  return sum != one;
}

static double
reference_tolerance (void)
{
  if (long_double_is_wider ())
    return 1e-10;
  g_test_message ("long double is not wider than double here: the references are held to 1e-7");
  return 1e-7;
}

/* One stack at one energy, expanded: media 0..N+1. */
typedef struct {
  gsize n;              /* layers N */
  lcomplex eps[XRLAB_STACK_MAX_LAYERS + 2];      /* n_j² */
  lcomplex nidx[XRLAB_STACK_MAX_LAYERS + 2];     /* n_j */
  long double d[XRLAB_STACK_MAX_LAYERS + 2];     /* thickness [Å], j = 1..N */
  long double sigma[XRLAB_STACK_MAX_LAYERS + 2]; /* σ_j [Å] of interface j (j = 0..N) */
  long double k;        /* 2π/λ [1/Å] */
} Profile;

static void
profile_of (const XrlabReflectPlan *plan, gsize e, Profile *pr)
{
  XrlabStack *stack = xrlab_reflect_plan_get_stack (plan);
  const XrlabStackLayer *layers = xrlab_stack_get_layers (stack);
  gsize n = xrlab_stack_get_n_layers (stack);
  int amb = xrlab_stack_get_ambient (stack), sub = xrlab_stack_get_substrate (stack);
  const double wl = xrlab_energy_grid_get_wavelengths_a (xrlab_reflect_plan_get_grid (plan))[e];

  /* The same inputs as the plan: k, d and σ rounded to double as it does
   * (the phases of a thick stack amplify a difference of 1 ulp). */
  pr->n = n;
  pr->k = (long double) (2.0 * G_PI / wl);
  for (gsize j = 0; j <= n + 1; j++)
    {
      int mat = (j == 0) ? amb : (j <= n) ? (int) layers[j - 1].material : (sub >= 0 ? sub : amb);
      long double d = 0, b = 0;

      if (mat >= 0)
        {
          d = xrlab_reflect_plan_get_delta (plan, (gsize) mat)[e];
          b = xrlab_reflect_plan_get_beta (plan, (gsize) mat)[e];
        }
      pr->nidx[j] = (1.0L - d) + b * I;
      pr->eps[j] = pr->nidx[j] * pr->nidx[j];
      pr->d[j] = (j >= 1 && j <= n) ? (long double) (10.0 * layers[j - 1].thickness_nm) : 0.0L;
      if (j <= n)
        pr->sigma[j] = (long double) (10.0 * ((j < n) ? layers[j].roughness_nm
                                                      : xrlab_stack_get_substrate_roughness_nm (stack)));
    }
}

/* sin θ as the plan rounds it: R of a thick stack in a deep minimum has a
 * condition number of ~1e5 with respect to θ (the phase Σ k_z d is 3e4 rad
 * in a 280 nm multilayer at 24 keV), so 1 ulp of sin θ would move it by
 * 1e-11 -- 1e-10. */
static long double
sin_of (long double theta)
{
  return (long double) sin ((double) theta);
}

/* q_j = √(n_j² − n_0² cos²θ), the root with Im ≥ 0, as
 * √((n_j − n_0)(n_j + n_0) + n_0² sin²θ): even long double loses 1e-6 of
 * 1 − cos²θ at θ = 1e-7. */
static lcomplex
q_of (const Profile *pr, gsize j, long double theta)
{
  long double s = sin_of (theta);
  lcomplex q2 = (pr->nidx[j] - pr->nidx[0]) * (pr->nidx[j] + pr->nidx[0]) + pr->eps[0] * s * s;
  /* (csqrtl (0) is NaN under valgrind.) */
  lcomplex q = (q2 == 0) ? 0 : csqrtl (q2);

  if (cimagl (q) < 0)
    q = -q;
  return q;
}

/* Born & Wolf's characteristic matrix: r and t of the field (s: E, p: H),
 * R and T. *growth gets the largest |m_ij|, the loss of precision to
 * expect. */
static void
matrix_method (const Profile *pr, long double theta, gboolean p_pol,
               long double *R, long double *T, long double *growth)
{
  lcomplex m11 = 1, m12 = 0, m21 = 0, m22 = 1;
  lcomplex p0, ps;
  long double g = 1;

  p0 = pr->nidx[0] * sin_of (theta);
  if (p_pol)
    p0 /= pr->eps[0];
  for (gsize j = 1; j <= pr->n; j++)
    {
      lcomplex q = q_of (pr, j, theta);
      lcomplex pj = p_pol ? q / pr->eps[j] : q;
      lcomplex b = pr->k * q * pr->d[j];
      lcomplex a11 = ccosl (b), a12 = -I * csinl (b) / pj, a21 = -I * pj * csinl (b), a22 = ccosl (b);
      lcomplex n11 = m11 * a11 + m12 * a21, n12 = m11 * a12 + m12 * a22;
      lcomplex n21 = m21 * a11 + m22 * a21, n22 = m21 * a12 + m22 * a22;

      m11 = n11; m12 = n12; m21 = n21; m22 = n22;
      g = fmaxl (g, fmaxl (fmaxl (cabsl (m11), cabsl (m12) * cabsl (pj)),
                           fmaxl (cabsl (m21) / cabsl (pj), cabsl (m22))));
    }
  ps = q_of (pr, pr->n + 1, theta);
  if (p_pol)
    ps /= pr->eps[pr->n + 1];
  {
    lcomplex u = (m11 + m12 * ps) * p0, v = m21 + m22 * ps;
    lcomplex r = (u - v) / (u + v), t = 2 * p0 / (u + v);
    *R = creall (r * conjl (r));
    *T = (creall (p0) > 0) ? creall (ps) / creall (p0) * creall (t * conjl (t)) : 0;
  }
  *growth = g;
}

/* Parratt's recursion written out layer by layer, with the Névot–Croce
 * factor on the Fresnel coefficients, and τ = Π t_j φ_j+1 / (1 + r_j Y). */
static void
direct_parratt (const Profile *pr, long double theta, gboolean p_pol, long double *R, long double *T)
{
  gsize n = pr->n;
  static lcomplex kz[XRLAB_STACK_MAX_LAYERS + 2];
  lcomplex x = 0, tau = 1;

  for (gsize j = 0; j <= n + 1; j++)
    kz[j] = pr->k * (j == 0 ? pr->nidx[0] * sin_of (theta) : q_of (pr, j, theta));
  for (gsize jj = n + 1; jj > 0; jj--)
    {
      gsize j = jj - 1;
      lcomplex a = p_pol ? kz[j] / pr->eps[j] : kz[j];
      lcomplex b = p_pol ? kz[j + 1] / pr->eps[j + 1] : kz[j + 1];
      /* No contrast where both k_z vanish (θ = 0 between equal media). */
      lcomplex r = (a + b == 0) ? 0 : (a - b) / (a + b);
      lcomplex y, phi;

      r *= cexpl (-2 * kz[j] * kz[j + 1] * pr->sigma[j] * pr->sigma[j]);
      phi = (j + 1 <= n) ? cexpl (I * kz[j + 1] * pr->d[j + 1]) : 1;
      y = x * phi * phi;
      tau *= (1 + r) * phi / (1 + r * y);
      x = (r + y) / (1 + r * y);
    }
  *R = creall (x * conjl (x));
  {
    lcomplex f0 = p_pol ? kz[0] / pr->eps[0] : kz[0];
    lcomplex fb = p_pol ? kz[n + 1] / pr->eps[n + 1] : kz[n + 1];
    *T = creall (f0) > 0 ? creall (fb) / creall (f0) * creall (tau * conjl (tau)) : 0;
  }
}

/* ---- against the characteristic matrix ---------------------------------- */

static const char *smooth_stacks[] = {
  "Au:19.3",
  "Rh:12.41:50nm/Si",
  "Pt:21.45:30nm/Cr:7.19:5nm/SiO2:2.2",
  "B4C:2nm/{W:19.3:1.0nm/B4C:2.52:1.5nm}x50/Si:2.33",
  "{Mo:10.28:2.8nm/Si:2.33:4.1nm}x40/Si",
  "Si3N4:100nm",
  "He@1atm,295K/Rh:12.41:20nm/Si",
  "air@1atm,295K/Ni:8.908:40nm/{C:2.2:3nm/Ni:8.908:2nm}x5",
};

typedef struct {
  double tol;
  double worst_r, worst_t;
  guint compared, skipped;
} Agreement;

/* R_s, R_p, T_s, T_p of @plan at energy @e on @angles against the matrix
 * method, to 1e-10 relative, where its growth leaves 1e-16 of precision
 * (long double). Its r = (u − v)/(u + v) cancels where R is tiny (R_p of
 * a multilayer at Brewster's angle is 1e-18): below R = 1e-12 it is held to
 * 1e-22 absolute; the direct recursion (next test), which does not cancel,
 * checks those values to 1e-10 relative. */
static void
compare_matrix (XrlabReflectPlan *plan, gsize e, const double *angles, gsize n,
                const double *rs, const double *rp, const double *ts, const double *tp,
                gsize stride, Agreement *agr)
{
  static Profile pr;

  profile_of (plan, e, &pr);
  for (gsize a = 0; a < n; a++)
    for (int pol = 0; pol < 2; pol++)
      {
        long double R, T, growth;
        double r = pol ? rp[a * stride] : rs[a * stride], t = pol ? tp[a * stride] : ts[a * stride];

        matrix_method (&pr, angles[a], pol, &R, &T, &growth);
        if (growth > 1e3L)
          {
            agr->skipped++;
            continue;
          }
        if (!close_rel (r, (double) R, agr->tol, 1e-12) || !close_rel (t, (double) T, agr->tol, 1e-12))
          g_error ("%s at energy %zu, θ = %.17g, %s: R %.17g vs %.17Lg, T %.17g vs %.17Lg",
                   xrlab_stack_get_text (xrlab_reflect_plan_get_stack (plan)), e, angles[a],
                   pol ? "p" : "s", r, R, t, T);
        agr->worst_r = MAX (agr->worst_r, fabs (r - (double) R) / MAX ((double) R, 1e-300));
        agr->worst_t = MAX (agr->worst_t, fabs (t - (double) T) / MAX ((double) T, 1e-300));
        agr->compared++;
      }
}

static void
test_matrix_method (void)
{
  const double energies[] = { 0.5, 1.5, 8.048, 17.48, 29.0 };
  const gsize n_e = G_N_ELEMENTS (energies), n_a = 301;
  g_autoptr(XrlabEnergyGrid) grid = grid_of (energies, n_e);
  g_autofree double *angles = g_new (double, n_a);
  g_autofree double *rs = g_new (double, n_e * n_a), *rp = g_new (double, n_e * n_a);
  g_autofree double *ts = g_new (double, n_e * n_a), *tp = g_new (double, n_e * n_a);
  g_autofree double *ers = g_new (double, n_e), *erp = g_new (double, n_e);
  g_autofree double *ets = g_new (double, n_e), *etp = g_new (double, n_e);
  Agreement agr = { reference_tolerance (), 0, };

  /* 0 .. π/2, dense at grazing angles: θ = (π/2) u³. */
  for (gsize a = 0; a < n_a; a++)
    {
      double u = (double) a / (double) (n_a - 1);
      angles[a] = G_PI / 2 * u * u * u;
    }
  for (gsize s = 0; s < G_N_ELEMENTS (smooth_stacks); s++)
    {
      g_autoptr(XrlabStack) stack = parse_reflect (smooth_stacks[s]);
      g_autoptr(GError) error = NULL;
      XrlabReflectPlan *plan = plan_of (stack, grid, NULL);
      XrlabReflectOutput out = { 0.0, NULL, rs, rp, NULL, ts, tp };

      /* The map is the angle curves of every energy; check both. */
      g_assert_true (xrlab_reflect_plan_map (plan, angles, n_a, &out, NULL, &error));
      g_assert_no_error (error);
      for (gsize e = 0; e < n_e; e++)
        {
          g_autofree double *r1 = g_new (double, n_a);
          XrlabReflectOutput o1 = { 0.0, NULL, r1, NULL, NULL, NULL, NULL };

          compare_matrix (plan, e, angles, n_a, rs + e * n_a, rp + e * n_a,
                          ts + e * n_a, tp + e * n_a, 1, &agr);
          g_assert_true (xrlab_reflect_plan_angles (plan, e, angles, n_a, &o1, &error));
          for (gsize a = 0; a < n_a; a++)
            g_assert_cmpfloat (r1[a], ==, rs[e * n_a + a]);
        }
      /* Energy curves at a few angles. */
      for (gsize a = 10; a < n_a; a += 70)
        {
          XrlabReflectOutput oe = { 0.0, NULL, ers, erp, NULL, ets, etp };
          g_assert_true (xrlab_reflect_plan_energies (plan, angles[a], &oe, &error));
          g_assert_no_error (error);
          for (gsize e = 0; e < n_e; e++)
            compare_matrix (plan, e, &angles[a], 1, &ers[e], &erp[e], &ets[e], &etp[e], 1, &agr);
        }
      xrlab_reflect_plan_free (plan);
    }
  g_test_message ("matrix method: %u values compared, worst relative difference R %.2g, T %.2g; "
                  "%u skipped where the matrix product grows over 1e3",
                  agr.compared, agr.worst_r, agr.worst_t, agr.skipped);
  g_assert_cmpuint (agr.compared, >, 20000);
  g_assert_cmpuint (agr.skipped, <, agr.compared / 4);
}

/* ---- against a direct Parratt recursion with roughness ------------------- */

/* Smooth and rough stacks on 0..π/2. The worst differences (5e-11) are
 * where R ≈ 1e-13 sits in a deep minimum of a 280 nm multilayer at 71°:
 * there R's condition number with respect to k_z is ~1e5, and the
 * roundings of double arithmetic alone move it by that much. */
static const char *rough_stacks[] = {
  "Au:19.3",
  "B4C:2nm/{W:19.3:1.0nm/B4C:2.52:1.5nm}x50/Si:2.33",
  "{Mo:10.28:2.8nm/Si:2.33:4.1nm}x40/Si",
  "Au:19.3~0.5nm",
  "Rh:12.41:50nm~0.4nm/Si~0.3nm",
  "B4C:2nm~0.5nm/{W:19.3:1.0nm~0.3nm/B4C:2.52:1.5nm~0.35nm}x50/Si:2.33~0.3nm",
  "{Mo:10.28:2.8nm~0.6nm/Si:2.33:4.1nm~0.4nm}x40/SiO2:2.2~1nm",
  "Si3N4:100nm~2nm",
  "He@1atm,295K/Rh:12.41:20nm~1nm/Si~0.2nm",
  "Pt:21.45~3nm",
};

static void
test_direct_parratt (void)
{
  const double energies[] = { 0.5, 8.048, 24.0 };
  const gsize n_e = G_N_ELEMENTS (energies), n_a = 201;
  g_autoptr(XrlabEnergyGrid) grid = grid_of (energies, n_e);
  g_autofree double *angles = g_new (double, n_a);
  g_autofree double *rs = g_new (double, n_a), *rp = g_new (double, n_a);
  g_autofree double *ts = g_new (double, n_a), *tp = g_new (double, n_a);
  static Profile pr;
  double worst = 0.0, tol = reference_tolerance ();
  guint compared = 0;

  for (gsize a = 0; a < n_a; a++)
    {
      double u = (double) a / (double) (n_a - 1);
      angles[a] = G_PI / 2 * u * u * u;
    }
  for (gsize s = 0; s < G_N_ELEMENTS (rough_stacks); s++)
    {
      g_autoptr(XrlabStack) stack = parse_reflect (rough_stacks[s]);
      XrlabReflectPlan *plan = plan_of (stack, grid, NULL);

      for (gsize e = 0; e < n_e; e++)
        {
          g_autoptr(GError) error = NULL;
          XrlabReflectOutput out = { 1.0, NULL, rs, rp, NULL, ts, tp };

          g_assert_true (xrlab_reflect_plan_angles (plan, e, angles, n_a, &out, &error));
          g_assert_no_error (error);
          profile_of (plan, e, &pr);
          for (gsize a = 0; a < n_a; a++)
            for (int pol = 0; pol < 2; pol++)
              {
                long double R, T;
                double r = pol ? rp[a] : rs[a], t = pol ? tp[a] : ts[a];

                direct_parratt (&pr, angles[a], pol, &R, &T);
                if (!close_rel (r, (double) R, tol, 1e-300) || !close_rel (t, (double) T, tol, 1e-300))
                  g_error ("%s at %g keV, θ = %.17g, %s: R %.17g vs %.17Lg, T %.17g vs %.17Lg",
                           rough_stacks[s], energies[e], angles[a], pol ? "p" : "s", r, R, t, T);
                worst = MAX (worst, fabs (r - (double) R) / MAX ((double) R, 1e-300));
                compared++;
              }
        }
      xrlab_reflect_plan_free (plan);
    }
  g_test_message ("direct Parratt: %u values, worst relative difference of R %.2g", compared, worst);
}

/* ---- against xraydb ------------------------------------------------------- */

/* tests/data/xraydb-mirror.csv (see tests/data/README.md): thick mirrors
 * with xraydb's own δ, β (Chantler) given to the plan. R_s is the same
 * formula: within 1e-8 (xraydb's n² − cos²θ in double loses ~1e-9 where
 * δ ≈ 1e-6). xraydb's p divides k_z by n instead of n²: to first order
 * that changes r_p by −2δ k_a k_b / (k_a + k_b)², i.e. R_p relatively by
 * −2 sin θ Re(k_z)/k, from below 1e-4 at grazing incidence to 15 % at
 * 0.2 rad and 1 keV; R_p is held to 1.25 × 2 sin θ |k_z|/k. */
static void
test_xraydb (void)
{
  g_autofree char *path = g_build_filename (XRLAB_TEST_SRCDIR, "data", "xraydb-mirror.csv", NULL);
  g_autoptr(GError) error = NULL;
  gsize rows = 0, cols = 0;
  g_autofree double *m = xrlab_read_csv_matrix (path, FALSE, &rows, &cols, &error);
  double worst_s = 0, worst_p = 0, worst_p_scaled = 0;

  g_assert_no_error (error);
  g_assert_cmpuint (cols, ==, 9);
  g_assert_cmpuint (rows, >, 2000);
  for (gsize i = 0; i < rows; i++)
    {
      const double *row = m + i * cols;
      double energy_kev = row[2] / 1000.0, theta = row[3], rough_a = row[4];
      double delta = row[5], beta = row[6], rs_ref = row[7], rp_ref = row[8];
      g_autofree char *text = g_strdup_printf ("Si:2.33~%.17gA", rough_a);
      g_autoptr(XrlabStack) stack = parse_reflect (text);
      g_autoptr(XrlabEnergyGrid) grid = grid_of (&energy_kev, 1);
      XrlabReflectPlan *plan = xrlab_reflect_plan_new_with_constants (stack, grid, &delta, &beta, &error);
      double rs, rp;
      XrlabReflectOutput out = { 0.0, NULL, &rs, &rp, NULL, NULL, NULL };

      g_assert_no_error (error);
      g_assert_true (xrlab_reflect_plan_angles (plan, 0, &theta, 1, &out, &error));
      g_assert_no_error (error);
      xrlab_reflect_plan_free (plan);
      {
        /* |k_tz|/k = |√(n² − cos²θ)| */
        double complex n = 1.0 - delta + I * beta;
        double c = cos (theta);
        double ktz = cabs (csqrt (n * n - c * c));
        double bound = 2.0 * sin (theta) * ktz;

        worst_s = MAX (worst_s, fabs (rs - rs_ref) / rs_ref);
        worst_p = MAX (worst_p, fabs (rp - rp_ref) / rp_ref);
        worst_p_scaled = MAX (worst_p_scaled, fabs (rp - rp_ref) / rp_ref / bound);
        if (!close_rel (rs, rs_ref, 1e-8, 0))
          g_error ("xraydb row %zu: R_s %.17g vs %.17g", i + 1, rs, rs_ref);
        if (!close_rel (rp, rp_ref, 1.25 * bound + 1e-8, 0))
          g_error ("xraydb row %zu: R_p %.17g vs %.17g, beyond %.3g", i + 1, rp, rp_ref, 1.25 * bound);
      }
    }
  g_test_message ("xraydb: %zu thick-mirror points, worst relative difference R_s %.2g, "
                  "R_p %.2g (%.3g of 2 sin θ |k_tz|/k)", rows, worst_s, worst_p, worst_p_scaled);
}

/* ---- physics --------------------------------------------------------------- */

/* The first Bragg peak of a W/B4C multilayer with d = 2.5 nm against
 * sin²θ = (λ/2d)² + 2δ̄ (δ̄: the thickness-weighted mean). */
static void
test_bragg (void)
{
  const double energies[] = { 8.048, 17.48 };
  const gsize n_a = 4001;
  g_autoptr(XrlabEnergyGrid) grid = grid_of (energies, 2);
  g_autoptr(XrlabStack) stack = parse_reflect ("{W:19.3:1.0nm/B4C:2.52:1.5nm}x50/Si:2.33");
  XrlabReflectPlan *plan = plan_of (stack, grid, NULL);
  g_autofree double *angles = g_new (double, n_a), *r = g_new (double, n_a);

  g_assert_cmpuint (xrlab_stack_get_n_layers (stack), ==, 100);
  for (gsize e = 0; e < 2; e++)
    {
      g_autoptr(GError) error = NULL;
      double lambda = xrlab_energy_grid_get_wavelengths_a (grid)[e];
      double dbar = (10.0 * xrlab_reflect_plan_get_delta (plan, 0)[e]
                     + 15.0 * xrlab_reflect_plan_get_delta (plan, 1)[e]) / 25.0;
      double plain = asin (lambda / 50.0);
      double predicted = asin (sqrt (pow (lambda / 50.0, 2) + 2 * dbar));
      XrlabReflectOutput out = { 0.0, r, NULL, NULL, NULL, NULL, NULL };
      gsize peak = 0;
      double theta, y0, y1, y2;

      for (gsize a = 0; a < n_a; a++)
        angles[a] = plain * (0.8 + 0.4 * (double) a / (double) (n_a - 1));
      g_assert_true (xrlab_reflect_plan_angles (plan, e, angles, n_a, &out, &error));
      g_assert_no_error (error);
      for (gsize a = 1; a + 1 < n_a; a++)
        if (r[a] > r[peak])
          peak = a;
      g_assert_cmpuint (peak, >, 0);
      g_assert_cmpuint (peak, <, n_a - 1);
      /* The vertex of the parabola through the three highest points. */
      y0 = r[peak - 1], y1 = r[peak], y2 = r[peak + 1];
      theta = angles[peak] + 0.5 * (angles[1] - angles[0]) * (y0 - y2) / (y0 - 2 * y1 + y2);
      g_test_message ("%g keV: Bragg peak R = %.3f at %.6g rad; corrected Bragg law %.6g rad "
                      "(%+.2g %%), uncorrected %.6g rad", energies[e], y1, theta, predicted,
                      100 * (theta / predicted - 1), plain);
      g_assert_cmpfloat (fabs (theta / predicted - 1), <, 0.01);
      /* Refraction matters: the uncorrected law is further off. */
      g_assert_cmpfloat (fabs (theta / plain - 1), >, fabs (theta / predicted - 1));
      g_assert_cmpfloat (y1, >, 0.2);
    }
  xrlab_reflect_plan_free (plan);
}

/* β forced to 0 everywhere and no roughness: R + T = 1 for s and p. */
static void
test_conservation (void)
{
  static const char *stacks[] = {
    "Rh:12.41:50nm/Si",
    "B4C:2nm/{W:19.3:1.0nm/B4C:2.52:1.5nm}x50/Si:2.33",
    "Si3N4:100nm",
    "{C:2.2:3nm/Ni:8.908:2nm}x20",
    "He@1atm,295K/Pt:21.45:10nm/SiO2:2.2",
    "Au:19.3",
  };
  const double energies[] = { 0.3, 8.048, 25.0 };
  const gsize n_e = 3, n_a = 400;
  g_autoptr(XrlabEnergyGrid) grid = grid_of (energies, n_e);
  g_autofree double *angles = g_new (double, n_a);
  double worst = 0.0;

  for (gsize a = 0; a < n_a; a++)
    angles[a] = G_PI / 2 * pow ((double) a / (double) (n_a - 1), 3);
  for (gsize s = 0; s < G_N_ELEMENTS (stacks); s++)
    {
      g_autoptr(XrlabStack) stack = parse_reflect (stacks[s]);
      g_autoptr(GError) error = NULL;
      XrlabReflectPlan *with_beta = plan_of (stack, grid, NULL);
      gsize n_mat = xrlab_stack_get_n_materials (stack);
      g_autofree double *delta = g_new (double, n_mat * n_e), *beta = g_new0 (double, n_mat * n_e);
      g_autofree double *rs = g_new (double, n_e * n_a), *rp = g_new (double, n_e * n_a);
      g_autofree double *ts = g_new (double, n_e * n_a), *tp = g_new (double, n_e * n_a);
      XrlabReflectOutput out = { 0.0, NULL, rs, rp, NULL, ts, tp };
      XrlabReflectPlan *plan;

      for (gsize m = 0; m < n_mat; m++)
        memcpy (delta + m * n_e, xrlab_reflect_plan_get_delta (with_beta, m), n_e * sizeof (double));
      plan = xrlab_reflect_plan_new_with_constants (stack, grid, delta, beta, &error);
      g_assert_no_error (error);
      g_assert_true (xrlab_reflect_plan_map (plan, angles, n_a, &out, NULL, &error));
      g_assert_no_error (error);
      for (gsize i = 0; i < n_e * n_a; i++)
        {
          if (fabs (rs[i] + ts[i] - 1) > 1e-12 || fabs (rp[i] + tp[i] - 1) > 1e-12)
            g_error ("%s, point %zu: R_s + T_s = %.17g, R_p + T_p = %.17g",
                     stacks[s], i, rs[i] + ts[i], rp[i] + tp[i]);
          worst = MAX (worst, MAX (fabs (rs[i] + ts[i] - 1), fabs (rp[i] + tp[i] - 1)));
        }
      /* With absorption, R + T < 1 (except at θ = 0, where R = 1). */
      g_assert_true (xrlab_reflect_plan_map (with_beta, angles, n_a, &out, NULL, &error));
      for (gsize i = 0; i < n_e * n_a; i++)
        g_assert_cmpfloat (rs[i] + ts[i], <=, 1.0 + 1e-12);
      g_assert_cmpfloat_with_epsilon (rs[0], 1.0, 1e-15);
      g_assert_cmpfloat (ts[0], ==, 0.0);
      xrlab_reflect_plan_free (plan);
      xrlab_reflect_plan_free (with_beta);
    }
  g_test_message ("R + T = 1 without absorption: worst |R + T − 1| = %.2g", worst);
}

/* Roughness only lowers R: thick mirrors and a coating at every angle
 * (|exp(−2 k_z0 k_z1 σ²)| ≤ 1 at the top surface, where k_z0 is real).
 * In a multilayer the factors damp the inner interfaces more than the top
 * one, which can fill an interference minimum near the critical angle
 * (W/B4C at 8 keV: R 0.716 → 0.717 at 6.4 mrad); there the integral and
 * every Bragg peak are lowered. */
static void
test_roughness_lowers (void)
{
  static const struct {
    const char *smooth, *rough;
    gboolean every_angle;
  } pairs[] = {
    { "Au:19.3", "Au:19.3~0.3nm", TRUE },
    { "Au:19.3", "Au:19.3~3nm", TRUE },
    { "Rh", "Rh~1nm", TRUE },
    { "SiO2", "SiO2~0.5nm", TRUE },
    { "Rh:12.41:50nm/Si", "Rh:12.41:50nm~0.5nm/Si~0.5nm", TRUE },
    { "B4C:2nm/{W:19.3:1.0nm/B4C:2.52:1.5nm}x50/Si:2.33",
      "B4C:2nm~0.3nm/{W:19.3:1.0nm~0.3nm/B4C:2.52:1.5nm~0.3nm}x50/Si:2.33~0.3nm", FALSE },
  };
  const double energies[] = { 1.0, 8.048, 20.0 };
  const gsize n_e = 3, n_a = 500;
  g_autoptr(XrlabEnergyGrid) grid = grid_of (energies, n_e);
  g_autofree double *angles = g_new (double, n_a);
  g_autofree double *r0 = g_new (double, n_e * n_a), *r1 = g_new (double, n_e * n_a);

  for (gsize a = 0; a < n_a; a++)
    angles[a] = 0.1 * (double) (a + 1) / (double) n_a;
  for (gsize k = 0; k < G_N_ELEMENTS (pairs); k++)
    for (int pol = -1; pol <= 1; pol += 2)
      {
        g_autoptr(XrlabStack) smooth = parse_reflect (pairs[k].smooth);
        g_autoptr(XrlabStack) rough = parse_reflect (pairs[k].rough);
        XrlabReflectPlan *p0 = plan_of (smooth, grid, NULL), *p1 = plan_of (rough, grid, NULL);
        XrlabReflectOutput o0 = { pol, r0, NULL, NULL, NULL, NULL, NULL };
        XrlabReflectOutput o1 = { pol, r1, NULL, NULL, NULL, NULL, NULL };
        guint peaks = 0;

        g_assert_true (xrlab_reflect_plan_map (p0, angles, n_a, &o0, NULL, NULL));
        g_assert_true (xrlab_reflect_plan_map (p1, angles, n_a, &o1, NULL, NULL));
        for (gsize e = 0; e < n_e; e++)
          {
            const double *a0 = r0 + e * n_a, *a1 = r1 + e * n_a;
            double sum0 = 0, sum1 = 0;

            for (gsize a = 0; a < n_a; a++)
              {
                if (pairs[k].every_angle)
                  g_assert_cmpfloat (a1[a], <=, a0[a] * (1 + 1e-12));
                sum0 += a0[a];
                sum1 += a1[a];
              }
            g_assert_cmpfloat (sum1, <, sum0);
            /* The Bragg peaks: maxima of R > 1e-3 beyond the plateau. */
            if (!pairs[k].every_angle)
              for (gsize a = 1; a + 1 < n_a; a++)
                if (a0[a] > 1e-3 && a0[a] > a0[a - 1] && a0[a] > a0[a + 1] && a0[a] < 0.9 * a0[0])
                  {
                    g_assert_cmpfloat (MAX (a1[a - 1], MAX (a1[a], a1[a + 1])), <, a0[a]);
                    peaks++;
                  }
          }
        if (!pairs[k].every_angle)
          g_assert_cmpuint (peaks, >=, 4);
        xrlab_reflect_plan_free (p0);
        xrlab_reflect_plan_free (p1);
      }
}

/* P = 1 is s, P = −1 is p, in between their mix; T likewise. */
static void
test_polarization (void)
{
  const double e = 8.048;
  const double angles[] = { 0.0, 0.002, 0.005, 0.02, 0.3, 0.7854, 1.2, G_PI / 2 };
  const gsize n = G_N_ELEMENTS (angles);
  g_autoptr(XrlabEnergyGrid) grid = grid_of (&e, 1);
  g_autoptr(XrlabStack) stack = parse_reflect ("Pt:21.45:20nm~0.4nm/Cr:7.19:3nm/SiO2:2.2~0.3nm");
  XrlabReflectPlan *plan = plan_of (stack, grid, NULL);
  double r[8], rs[8], rp[8], t[8], ts[8], tp[8];
  const double degrees[] = { 1.0, -1.0, 0.0, 0.3 };

  for (gsize k = 0; k < G_N_ELEMENTS (degrees); k++)
    {
      double w = degrees[k];
      XrlabReflectOutput out = { w, r, rs, rp, t, ts, tp };

      g_assert_true (xrlab_reflect_plan_angles (plan, 0, angles, n, &out, NULL));
      for (gsize a = 0; a < n; a++)
        {
          g_assert_cmpfloat_with_epsilon (r[a], 0.5 * (1 + w) * rs[a] + 0.5 * (1 - w) * rp[a], 1e-16);
          g_assert_cmpfloat_with_epsilon (t[a], 0.5 * (1 + w) * ts[a] + 0.5 * (1 - w) * tp[a], 1e-16);
        }
    }
  /* s and p agree at grazing incidence and differ at 45°, where R_p ≪ R_s. */
  g_assert_cmpfloat (fabs (rs[1] / rp[1] - 1), <, 1e-4);
  g_assert_cmpfloat (rp[5], <, 1e-3 * rs[5]);
  g_assert_cmpfloat_with_epsilon (rs[0], 1.0, 1e-15);
  xrlab_reflect_plan_free (plan);
}

static void
test_api_errors (void)
{
  const double e[] = { 8.0, 9.0 };
  g_autoptr(XrlabEnergyGrid) grid = grid_of (e, 2);
  g_autoptr(XrlabStack) stack = parse_reflect ("Rh");
  g_autoptr(XrlabStack) filter = parse_filter ("Al:1um");
  XrlabOpticsCache *cache = xrlab_optics_cache_new (grid);
  XrlabReflectPlan *plan = plan_of (stack, grid, NULL);
  double r[3], bad[] = { 0.01, -0.001, 0.02 }, nanv[] = { NAN }, steep[] = { 1.6 };
  XrlabReflectOutput out = { 0.0, r, NULL, NULL, NULL, NULL, NULL };
  XrlabReflectOutput badp = { 1.5, r, NULL, NULL, NULL, NULL, NULL };
  double delta[] = { 1e-5, 1e-5 }, beta[] = { 1e-7, -1e-9 };
  GError *error = NULL;

  g_assert_false (xrlab_reflect_plan_angles (plan, 0, bad, 3, &out, &error));
  g_assert_error (error, XRLAB_REFLECT_ERROR, XRLAB_REFLECT_ERROR_ANGLE);
  g_assert_cmpstr (error->message, ==, "The grazing angle -0.001 rad (point 2) must be from 0 to π/2 (90°)");
  g_clear_error (&error);
  g_assert_false (xrlab_reflect_plan_angles (plan, 0, nanv, 1, &out, &error));
  g_assert_cmpstr (error->message, ==, "The grazing angle nan rad must be from 0 to π/2 (90°)");
  g_clear_error (&error);
  g_assert_false (xrlab_reflect_plan_energies (plan, steep[0], &out, &error));
  g_assert_error (error, XRLAB_REFLECT_ERROR, XRLAB_REFLECT_ERROR_ANGLE);
  g_clear_error (&error);
  g_assert_false (xrlab_reflect_plan_angles (plan, 0, bad, 1, &badp, &error));
  g_assert_error (error, XRLAB_REFLECT_ERROR, XRLAB_REFLECT_ERROR_POLARIZATION);
  g_assert_cmpstr (error->message, ==, "The polarization degree 1.5 must be from −1 (p) to 1 (s)");
  g_clear_error (&error);
  g_assert_false (xrlab_reflect_plan_angles (plan, 2, bad, 1, &out, &error));
  g_assert_cmpstr (error->message, ==, "Energy index 2 is outside the grid of 2 energies");
  g_clear_error (&error);
  g_assert_false (xrlab_reflect_plan_map (plan, bad, 3, &out, NULL, &error));
  g_assert_error (error, XRLAB_REFLECT_ERROR, XRLAB_REFLECT_ERROR_ANGLE);
  g_clear_error (&error);
  {
    g_autoptr(GCancellable) cancel = g_cancellable_new ();
    g_cancellable_cancel (cancel);
    g_assert_false (xrlab_reflect_plan_map (plan, bad, 1, &out, cancel, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
    g_clear_error (&error);
  }
  g_assert_null (xrlab_reflect_plan_new_with_constants (stack, grid, delta, beta, &error));
  g_assert_error (error, XRLAB_REFLECT_ERROR, XRLAB_REFLECT_ERROR_CONSTANTS);
  g_assert_cmpstr (error->message, ==, "Optical constants δ = 1e-05, β = -1e-09 (value 2) must be finite, with β ≥ 0");
  g_clear_error (&error);
  g_assert_null (xrlab_reflect_plan_new (filter, cache, &error));
  g_assert_error (error, XRLAB_REFLECT_ERROR, XRLAB_REFLECT_ERROR_STACK);
  g_assert_cmpstr (error->message, ==, "“Al:1um” is a filter stack, not a reflectivity stack");
  g_clear_error (&error);
  g_assert_false (xrlab_filter_transmission (cache, stack, FALSE, r, NULL, &error));
  g_assert_cmpstr (error->message, ==, "“Rh” is a reflectivity stack, not a filter stack");
  g_clear_error (&error);

  /* Below the Henke tables (30 eV) there is no grid to compute on. */
  {
    const double low = 0.015;

    g_assert_null (xrlab_energy_grid_new (&low, 1, XRLAB_ENERGY_UNIT_KEV, &error));
    g_assert_error (error, XRLAB_OPTICS_ERROR, XRLAB_OPTICS_ERROR_ENERGY);
    g_assert_cmpstr (error->message, ==, "Energy 0.015 keV is outside the Henke tables: 0.03–30 keV");
    g_clear_error (&error);
  }
  xrlab_reflect_plan_free (plan);
  xrlab_optics_cache_free (cache);
}

/* ---- filters and gases ------------------------------------------------------ */

static void
test_filter (void)
{
  g_autoptr(XrlabEnergyGrid) grid = NULL;
  g_autoptr(XrlabStack) filter = parse_filter ("Al:100um/Cu:8.96:25um/Kapton:50um/air@1atm,295K:1m");
  g_autoptr(XrlabStack) grouped = parse_filter ("{Kapton:25um}x4/{Al:50um/Be:1mm}x2");
  g_autoptr(XrlabStack) flat = parse_filter ("Kapton:100um/Al:100um/Be:2mm");
  g_autoptr(GError) error = NULL;
  const gsize n_e = 200;
  g_autofree double *t = g_new (double, n_e), *tl = g_new (double, 4 * n_e);
  g_autofree double *tg = g_new (double, n_e), *tf = g_new (double, n_e);
  XrlabOpticsCache *cache;
  const XrlabStackLayer *layers = xrlab_stack_get_layers (filter);

  grid = xrlab_energy_grid_new_range (1.0, 30.0, n_e, XRLAB_GRID_LOG, XRLAB_ENERGY_UNIT_KEV, &error);
  g_assert_no_error (error);
  cache = xrlab_optics_cache_new (grid);
  g_autofree double *tp = g_new (double, n_e), *tlp = g_new (double, 4 * n_e);

  g_assert_true (xrlab_filter_transmission (cache, filter, FALSE, t, tl, &error));
  g_assert_no_error (error);
  g_assert_true (xrlab_filter_transmission (cache, filter, TRUE, tp, tlp, &error));
  g_assert_no_error (error);
  /* Each layer against the optics engine's own transmission quantities:
   * the total by default, photoabsorption alone when asked for. */
  for (gsize l = 0; l < 4; l++)
    {
      const XrlabStackMaterial *m = xrlab_stack_get_material (filter, layers[l].material);
      XrlabOpticsMaterial om = { m->formula, m->density_g_cm3, layers[l].thickness_nm * 1e-3 };
      g_autofree double *want = g_new (double, n_e), *want_photo = g_new (double, n_e);
      double *out[XRLAB_QUANTITY_N] = { NULL, };

      out[XRLAB_QUANTITY_TRANSMISSION] = want;
      out[XRLAB_QUANTITY_TRANSMISSION_PHOTO] = want_photo;
      g_assert_true (xrlab_optics_compute (cache, &om, XRLAB_QUANTITY_MASK_TRANSMISSIONS, out, &error));
      for (gsize e = 0; e < n_e; e++)
        {
          g_assert_true (close_rel (tl[l * n_e + e], want[e], 1e-12, 1e-300));
          g_assert_true (close_rel (tlp[l * n_e + e], want_photo[e], 1e-12, 1e-300));
          /* Scattering only ever takes away. */
          g_assert_cmpfloat (tl[l * n_e + e], <=, tlp[l * n_e + e]);
        }
    }
  /* 1 m of air at 30 keV: 0.959 in total, 0.983 by photoabsorption --
   * scattering is most of its attenuation. */
  g_assert_cmpfloat (tl[4 * n_e - 1], <, tlp[4 * n_e - 1] - 0.02);
  for (gsize e = 0; e < n_e; e++)
    g_assert_true (close_rel (t[e], tl[e] * tl[n_e + e] * tl[2 * n_e + e] * tl[3 * n_e + e], 1e-12, 1e-300));
  /* 25 µm Cu stops 1 keV completely; at 30 keV the stack passes a few %. */
  g_assert_cmpfloat (t[0], <, 1e-100);
  g_assert_cmpfloat (t[n_e - 1], >, 0.01);
  /* Air: its argon K edge at 3.2 keV, none above. */
  for (gsize e = 1; e < n_e; e++)
    if (xrlab_energy_grid_get_energies_kev (grid)[e - 1] > 3.21)
      g_assert_cmpfloat (tl[3 * n_e + e], >=, tl[3 * n_e + e - 1]);

  /* Groups are their expansion. */
  g_assert_true (xrlab_filter_transmission (cache, grouped, FALSE, tg, NULL, &error));
  g_assert_true (xrlab_filter_transmission (cache, flat, FALSE, tf, NULL, &error));
  for (gsize e = 0; e < n_e; e++)
    g_assert_true (close_rel (tg[e], tf[e], 1e-12, 1e-300));
  xrlab_optics_cache_free (cache);
}

static void
test_gas (void)
{
  /* The ideal gas law written out: R = N_A k_B (CODATA 2018, exact). */
  const double R = 6.02214076e23 * 1.380649e-23;
  /* Dry air by mole fraction, IUPAC standard atomic weights. */
  const double m_air = 0.78084 * 2 * 14.007 + 0.20946 * 2 * 15.999 + 0.00934 * 39.95
                       + 0.00036 * (12.011 + 2 * 15.999);
  g_autoptr(XrlabStack) air = parse_filter ("air@1atm,295K:1m");
  g_autoptr(XrlabStack) air_default = parse_filter ("air@:1m");
  g_autoptr(XrlabStack) air_c = parse_filter ("air @ 760Torr , 21.85°C : 100 cm");
  g_autoptr(XrlabStack) n2 = parse_filter ("N2@1atm,0C:1m");
  g_autoptr(XrlabStack) mix = parse_filter ("80%He+20%N2@2bar,300K:1m");
  g_autoptr(XrlabStack) rest = parse_filter ("2%H2+Ar@1bar:1cm");
  g_autoptr(XrlabStack) preset = parse_filter ("Helium@1atm,273.15K:1m");
  const XrlabStackMaterial *m = xrlab_stack_get_material (air, 0);
  double rho = 101325.0 * m_air / (R * 295.0) * 1e-6;

  g_assert_true (m->is_gas);
  g_assert_cmpfloat (m->pressure_pa, ==, 101325.0);
  g_assert_cmpfloat (m->temperature_k, ==, 295.0);
  g_assert_true (close_rel (xrlab_formula_get_molecular_weight (m->formula), m_air, 1e-4, 0));
  g_assert_true (close_rel (m->density_g_cm3, rho, 1e-4, 0));
  /* 1.1966 kg/m³: dry air at 295 K and 1 atm. */
  g_assert_true (close_rel (m->density_g_cm3, 1.1966e-3, 2e-4, 0));
  g_assert_cmpfloat (m->density_g_cm3, ==, xrlab_gas_density (xrlab_formula_get_molecular_weight (m->formula),
                                                              101325.0, 295.0));
  g_assert_cmpfloat (xrlab_stack_get_material (air_default, 0)->density_g_cm3, ==, m->density_g_cm3);
  g_assert_cmpfloat (xrlab_stack_get_layers (air)[0].thickness_nm, ==, 1e9);
  g_assert_true (close_rel (xrlab_stack_get_material (air_c, 0)->density_g_cm3, m->density_g_cm3, 1e-14, 0));
  g_assert_true (close_rel (xrlab_stack_get_layers (air_c)[0].thickness_nm, 1e9, 1e-15, 0));
  /* N2 at 0 °C: 1.2498 kg/m³ ideal (the preset's measured 1.2506). */
  g_assert_true (close_rel (xrlab_stack_get_material (n2, 0)->density_g_cm3, 1.2498e-3, 2e-4, 0));
  g_assert_true (close_rel (xrlab_stack_get_material (preset, 0)->density_g_cm3,
                            101325.0 * 4.002602 / (R * 273.15) * 1e-6, 1e-5, 0));
  /* Mixtures by mole fraction: the mean molecule. */
  g_assert_true (close_rel (xrlab_formula_get_molecular_weight (xrlab_stack_get_material (mix, 0)->formula),
                            0.8 * 4.002602 + 0.2 * 28.014, 1e-5, 0));
  g_assert_true (close_rel (xrlab_stack_get_material (mix, 0)->density_g_cm3,
                            2e5 * (0.8 * 4.002602 + 0.2 * 28.014) / (R * 300.0) * 1e-6, 1e-5, 0));
  g_assert_true (close_rel (xrlab_formula_get_molecular_weight (xrlab_stack_get_material (rest, 0)->formula),
                            0.02 * 2.016 + 0.98 * 39.95, 1e-4, 0));
}

/* ---- the grammar ----------------------------------------------------------- */

static void
check_round_trip (XrlabStack *stack)
{
  g_autofree char *canon = xrlab_stack_to_string (stack);
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabStack) again = xrlab_stack_get_kind (stack) == XRLAB_STACK_REFLECT
                                ? xrlab_stack_parse_reflect (canon, NULL, &error)
                                : xrlab_stack_parse_filter (canon, NULL, &error);
  g_autofree char *canon2 = NULL;
  const XrlabStackLayer *a, *b;

  g_assert_no_error (error);
  canon2 = xrlab_stack_to_string (again);
  g_assert_cmpstr (canon, ==, canon2);
  g_assert_cmpuint (xrlab_stack_get_n_layers (again), ==, xrlab_stack_get_n_layers (stack));
  g_assert_cmpuint (xrlab_stack_get_n_materials (again), ==, xrlab_stack_get_n_materials (stack));
  a = xrlab_stack_get_layers (stack);
  b = xrlab_stack_get_layers (again);
  for (gsize i = 0; i < xrlab_stack_get_n_layers (stack); i++)
    {
      g_assert_cmpfloat (a[i].thickness_nm, ==, b[i].thickness_nm);
      g_assert_cmpfloat (a[i].roughness_nm, ==, b[i].roughness_nm);
      g_assert_cmpfloat (xrlab_stack_get_material (stack, a[i].material)->density_g_cm3, ==,
                         xrlab_stack_get_material (again, b[i].material)->density_g_cm3);
    }
  g_assert_cmpint (xrlab_stack_get_substrate (again) >= 0, ==, xrlab_stack_get_substrate (stack) >= 0);
  g_assert_cmpfloat (xrlab_stack_get_substrate_roughness_nm (again), ==,
                     xrlab_stack_get_substrate_roughness_nm (stack));
}

static void
test_grammar_forms (void)
{
  static const struct {
    const char *text;
    gsize n_layers, n_materials, n_groups;
    int ambient, substrate;
    const char *canonical;
  } forms[] = {
    { "Au:19.3", 0, 1, 0, -1, 0, "Au:19.3" },
    { "Rh", 0, 1, 0, -1, 0, "Rh:12.41" },
    { " Rh ~ 0.4 nm ", 0, 1, 0, -1, 0, "Rh:12.41~0.4nm" },
    { "Rh:12.41:50nm~0.4nm/Si~0.3nm", 1, 2, 0, -1, 1, "Rh:12.41:50nm~0.4nm/Si:2.33~0.3nm" },
    { "B4C:3nm/{W:19.3:1.0nm~0.3nm/B4C:2.52:1.5nm~0.3nm}x50/Si:2.33~0.3nm", 101, 3, 1, -1, 2,
      "B4C:2.52:3nm/{W:19.3:1nm~0.3nm/B4C:2.52:1.5nm~0.3nm}x50/Si:2.33~0.3nm" },
    { "{W:1nm/B4C:1.5nm}×3/Si", 6, 3, 1, -1, 2, "{W:19.25:1nm/B4C:2.52:1.5nm}x3/Si:2.33" },
    { "{W:1nm/B4C:1.5nm} * 3 / Si", 6, 3, 1, -1, 2, "{W:19.25:1nm/B4C:2.52:1.5nm}x3/Si:2.33" },
    { "{W:10A/{B4C:0.002um/C:2.2:1nm}x2}X3/Si", 15, 4, 2, -1, 3,
      "{W:19.25:1nm/{B4C:2.52:2nm/C:2.2:1nm}x2}x3/Si:2.33" },
    { "Si3N4:100nm", 1, 1, 0, -1, -1, "Si3N4:3.44:100nm" },
    { "{Mo:10.28:2.8nm/Si:2.33:4.1nm}x40", 80, 2, 1, -1, -1, "{Mo:10.28:2.8nm/Si:2.33:4.1nm}x40" },
    { "He@1atm,295K/Rh:12.41", 0, 2, 0, 0, 1, "He@101325Pa,295K/Rh:12.41" },
    { "air@/Pt~0.2nm", 0, 2, 0, 0, 1, "air@101325Pa,295K/Pt:21.45~0.2nm" },
    { "Kapton:25um/Fused silica", 1, 2, 0, -1, 1, "Kapton:1.42:25000nm/Fused silica:2.2" },
    { "70wt% SiO2 // 30wt% B2O3:2.3:10nm/Si", 1, 2, 0, -1, 1, "70wt% SiO2 // 30wt% B2O3:2.3:10nm/Si:2.33" },
    { "W:1nm/W:19.25:1nm/W:19.3:1nm/Si", 3, 3, 0, -1, 2, "W:19.25:1nm/W:19.25:1nm/W:19.3:1nm/Si:2.33" },
    { "Ni:8.908:0.001mm/Cu:1e1nm/Si:2.33~0.5A", 2, 3, 0, -1, 2,
      "Ni:8.908:1000nm/Cu:8.96:10nm/Si:2.33~0.05nm" },
    { "Au:19.3:1μm/Au:19.3:1µm/Si", 2, 2, 0, -1, 1, "Au:19.3:1000nm/Au:19.3:1000nm/Si:2.33" },
  };
  static const struct {
    const char *text;
    gsize n_layers, n_materials;
    const char *canonical;
  } filters[] = {
    { "Al:100um", 1, 1, "Al:2.7:100000nm" },
    { "Al:100um/Cu:8.96:25um/Kapton:50um/air@1atm,295K:1m", 4, 4,
      "Al:2.7:100000nm/Cu:8.96:25000nm/Kapton:1.42:50000nm/air@101325Pa,295K:1000000000nm" },
    { "80%He+20%N2@1bar,20C:50cm", 1, 1, "80%He+20%N2@100000Pa,293.15K:500000000nm" },
    { "He@295K,0.5atm:2m/Be:0.5mm", 2, 2, "He@50662.5Pa,295K:2000000000nm/Be:1.848:500000nm" },
    { "{Kapton:25um}x4", 4, 1, "{Kapton:1.42:25000nm}x4" },
    { "Ar@1mTorr:1m/Ar@1mbar:1m", 2, 2, "Ar@0.13332236842105263Pa,295K:1000000000nm/Ar@100Pa,295K:1000000000nm" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (forms); i++)
    {
      g_autoptr(XrlabStack) st = parse_reflect (forms[i].text);
      g_autofree char *canon = xrlab_stack_to_string (st);

      g_assert_cmpint (xrlab_stack_get_kind (st), ==, XRLAB_STACK_REFLECT);
      g_assert_cmpstr (xrlab_stack_get_text (st), ==, forms[i].text);
      g_assert_cmpuint (xrlab_stack_get_n_layers (st), ==, forms[i].n_layers);
      g_assert_cmpuint (xrlab_stack_get_n_materials (st), ==, forms[i].n_materials);
      g_assert_cmpuint (xrlab_stack_get_n_groups (st), ==, forms[i].n_groups);
      g_assert_cmpint (xrlab_stack_get_ambient (st), ==, forms[i].ambient);
      g_assert_cmpint (xrlab_stack_get_substrate (st), ==, forms[i].substrate);
      g_assert_cmpstr (canon, ==, forms[i].canonical);
      check_round_trip (st);
    }
  for (gsize i = 0; i < G_N_ELEMENTS (filters); i++)
    {
      g_autoptr(XrlabStack) st = parse_filter (filters[i].text);
      g_autofree char *canon = xrlab_stack_to_string (st);

      g_assert_cmpint (xrlab_stack_get_kind (st), ==, XRLAB_STACK_FILTER);
      g_assert_cmpuint (xrlab_stack_get_n_layers (st), ==, filters[i].n_layers);
      g_assert_cmpuint (xrlab_stack_get_n_materials (st), ==, filters[i].n_materials);
      g_assert_cmpstr (canon, ==, filters[i].canonical);
      check_round_trip (st);
    }

  /* The expansion of a group, its record, and the layers' numbers. */
  {
    g_autoptr(XrlabStack) st = parse_reflect ("Rh:2nm/{W:1nm~0.3nm/{B4C:2nm/C:2.2:1nm}x2}x3/Si~0.4nm");
    const XrlabStackLayer *l = xrlab_stack_get_layers (st);
    const XrlabStackGroup *g = xrlab_stack_get_groups (st);
    const guint sources[] = { 1, 2, 3, 4, 3, 4, 2, 3, 4, 3, 4, 2, 3, 4, 3, 4 };

    g_assert_cmpuint (xrlab_stack_get_n_layers (st), ==, 16);
    for (gsize i = 0; i < 16; i++)
      g_assert_cmpuint (l[i].source, ==, sources[i]);
    g_assert_cmpfloat (l[6].roughness_nm, ==, 0.3);
    g_assert_cmpfloat (l[15].thickness_nm, ==, 1.0);
    g_assert_cmpfloat (xrlab_stack_get_substrate_roughness_nm (st), ==, 0.4);
    g_assert_cmpuint (xrlab_stack_get_n_groups (st), ==, 2);
    g_assert_cmpuint (g[0].first_layer, ==, 1);
    g_assert_cmpuint (g[0].n_period, ==, 5);
    g_assert_cmpuint (g[0].count, ==, 3);
    g_assert_cmpuint (g[0].depth, ==, 1);
    g_assert_cmpuint (g[1].first_layer, ==, 2);
    g_assert_cmpuint (g[1].n_period, ==, 2);
    g_assert_cmpuint (g[1].count, ==, 2);
    g_assert_cmpuint (g[1].depth, ==, 2);
  }
  /* Equal stacks have equal canonical texts. */
  {
    g_autoptr(XrlabStack) a = parse_reflect ("W:1nm/Si");
    g_autoptr(XrlabStack) b = parse_reflect ("W:19.25:10A/Si:2.33~0nm");
    g_autofree char *ca = xrlab_stack_to_string (a), *cb = xrlab_stack_to_string (b);
    g_assert_cmpstr (ca, ==, cb);
  }
}

typedef struct {
  gboolean filter;
  const char *text;
  int code;
  int column;
  const char *message;
} ErrorCase;

static const ErrorCase error_cases[] = {
  { FALSE, "W:1nm/Xx:2nm/Si", XRLAB_STACK_ERROR_MATERIAL, 7,
    "Layer 2 “Xx:2nm”: Unknown element “Xx” at column 7" },
  { FALSE, ":19.3", XRLAB_STACK_ERROR_MATERIAL, 1,
    "Layer 1 “:19.3”, column 1: the formula is missing, as in “Rh:12.41:50nm”" },
  { FALSE, "air", XRLAB_STACK_ERROR_MATERIAL, 1,
    "Layer 1 “air”, column 1: “air” is a gas: write it with its conditions, as in “air@1atm,295K”" },
  { FALSE, "Os:2nm/Si", XRLAB_STACK_ERROR_MATERIAL, 1,
    "Layer 1 “Os:2nm”, column 1: no preset density for “Os”: give one, as in “Os:DENSITY”" },
  { FALSE, "Au:31", XRLAB_STACK_ERROR_MATERIAL, 4,
    "Layer 1 “Au:31”, column 4: the density 31 g/cm³ must be above 0 and at most 30 g/cm³" },
  { FALSE, "Au:0", XRLAB_STACK_ERROR_MATERIAL, 4,
    "Layer 1 “Au:0”, column 4: the density 0 g/cm³ must be above 0 and at most 30 g/cm³" },
  { TRUE, "air@1atm,:1m", XRLAB_STACK_ERROR_GAS, 10,
    "Layer 1 “air@1atm,:1m”, column 10: empty gas condition: give a pressure and a temperature, as in “air@1atm,295K”" },
  { TRUE, "air@abc:1m", XRLAB_STACK_ERROR_GAS, 5,
    "Layer 1 “air@abc:1m”, column 5: a gas condition is a number with a unit, as in “1atm” or “295K”" },
  { TRUE, "air@1:1m", XRLAB_STACK_ERROR_GAS, 5,
    "Layer 1 “air@1:1m”, column 5: the condition “1” needs a unit: Pa, hPa, kPa, mbar, bar, atm, Torr, mTorr, K or °C" },
  { TRUE, "air@1atm,2bar:1m", XRLAB_STACK_ERROR_GAS, 10,
    "Layer 1 “air@1atm,2bar:1m”, column 10: the pressure is given twice" },
  { TRUE, "air@0atm:1m", XRLAB_STACK_ERROR_GAS, 5,
    "Layer 1 “air@0atm:1m”, column 5: the pressure “0atm” must be above 0 and at most 1000 bar" },
  { TRUE, "air@2000bar:1m", XRLAB_STACK_ERROR_GAS, 5,
    "Layer 1 “air@2000bar:1m”, column 5: the pressure “2000bar” must be above 0 and at most 1000 bar" },
  { TRUE, "air@1K,2K:1m", XRLAB_STACK_ERROR_GAS, 8,
    "Layer 1 “air@1K,2K:1m”, column 8: the temperature is given twice" },
  { TRUE, "air@0.5K:1m", XRLAB_STACK_ERROR_GAS, 5,
    "Layer 1 “air@0.5K:1m”, column 5: the temperature “0.5K” must be from 1 K to 10000 K" },
  { TRUE, "air@1psi:1m", XRLAB_STACK_ERROR_GAS, 6,
    "Layer 1 “air@1psi:1m”, column 6: unknown unit “psi”: a pressure in Pa, hPa, kPa, mbar, bar, atm, Torr or mTorr, a temperature in K or °C" },
  { TRUE, "80%He+@1atm:1m", XRLAB_STACK_ERROR_GAS, 7,
    "Layer 1 “80%He+@1atm:1m”, column 7: a gas component is missing, as in “80%He+20%N2”" },
  { TRUE, "70wt% N2 // O2@1atm:1m", XRLAB_STACK_ERROR_GAS, 1,
    "Layer 1 “70wt% N2 // O2@1atm:1m”, column 1: a gas component is one kind of molecule; mix gases by mole fraction, as in “80%He+20%N2”" },
  { TRUE, "0%He+N2@1atm:1m", XRLAB_STACK_ERROR_GAS, 1,
    "Layer 1 “0%He+N2@1atm:1m”, column 1: the mole fraction 0 % must be above 0 and at most 100 %" },
  { TRUE, "He+N2@1atm:1m", XRLAB_STACK_ERROR_GAS, 1,
    "Layer 1 “He+N2@1atm:1m”, column 1: every gas component but the last needs its mole fraction, as in “80%He+20%N2”" },
  { TRUE, "60%He+40%N2+Ar@1atm:1m", XRLAB_STACK_ERROR_GAS, 13,
    "Layer 1 “60%He+40%N2+Ar@1atm:1m”, column 13: the mole fractions add up to 100 %, which leaves nothing for the last component" },
  { TRUE, "50%He+40%N2@1atm:1m", XRLAB_STACK_ERROR_GAS, 1,
    "Layer 1 “50%He+40%N2@1atm:1m”, column 1: the mole fractions add up to 90 %, not 100 %" },
  { TRUE, "air@1atm@2:1m", XRLAB_STACK_ERROR_GAS, 9,
    "Layer 1 “air@1atm@2:1m”, column 9: a gas has one “@”, as in “air@1atm,295K:1m”" },
  { TRUE, "air@1atm:1m~1nm", XRLAB_STACK_ERROR_ROUGHNESS, 12,
    "Layer 1 “air@1atm:1m~1nm”, column 12: a gas has no roughness" },
  { TRUE, "air:1.2@1atm:1m", XRLAB_STACK_ERROR_GAS, 1,
    "Layer 1 “air:1.2@1atm:1m”, column 1: a gas takes no density: write “GAS@PRESSURE,TEMPERATURE:LENGTH”, as in “air@1atm,295K:1m”" },
  { TRUE, "air@1atm:abc", XRLAB_STACK_ERROR_THICKNESS, 10,
    "Layer 1 “air@1atm:abc”, column 10: the length of a gas path is a number with a unit (A, nm, um, mm, cm, m), as in “air@1atm:1m”" },
  { TRUE, "air@1atm:1", XRLAB_STACK_ERROR_THICKNESS, 10,
    "Layer 1 “air@1atm:1”, column 10: the length “1” needs a unit: A, nm, um, mm, cm, m" },
  { TRUE, "air@1atm:1e14nm", XRLAB_STACK_ERROR_THICKNESS, 10,
    "Layer 1 “air@1atm:1e14nm”, column 10: the length “1e14nm” must be above 0 and at most 10 km" },
  { TRUE, "@1atm:1m", XRLAB_STACK_ERROR_GAS, 1,
    "Layer 1 “@1atm:1m”, column 1: the gas is missing before “@”, as in “air@1atm,295K:1m”" },
  { TRUE, "Xx@1atm:1m", XRLAB_STACK_ERROR_MATERIAL, 1,
    "Layer 1 “Xx@1atm:1m”: Unknown element “Xx” at column 1" },
  { FALSE, "Si~1nm~2nm", XRLAB_STACK_ERROR_ROUGHNESS, 7,
    "Layer 1 “Si~1nm~2nm”, column 7: a layer has one roughness “~σ”" },
  { FALSE, "W:19.3:1nm:2nm/Si", XRLAB_STACK_ERROR_SYNTAX, 11,
    "Layer 1 “W:19.3:1nm:2nm”, column 11: too many “:”: a layer is FORMULA[:DENSITY][:THICKNESS][~ROUGHNESS]" },
  { TRUE, "Al:2.7:1um:2um", XRLAB_STACK_ERROR_SYNTAX, 11,
    "Layer 1 “Al:2.7:1um:2um”, column 11: too many “:”: a filter layer is FORMULA[:DENSITY]:THICKNESS" },
  { FALSE, "W:1:2:3:4", XRLAB_STACK_ERROR_SYNTAX, 8,
    "Layer 1 “W:1:2:3:4”, column 8: too many “:”: a layer is FORMULA[:DENSITY][:THICKNESS][~ROUGHNESS]" },
  { FALSE, "W::1nm/Si", XRLAB_STACK_ERROR_SYNTAX, 3,
    "Layer 1 “W::1nm”, column 3: empty field after “:”" },
  { FALSE, "W:abc/Si", XRLAB_STACK_ERROR_SYNTAX, 3,
    "Layer 1 “W:abc”, column 3: “abc” is not a number: expected a density (g/cm³) or a thickness with a unit (A, nm, um, mm, cm, m)" },
  { FALSE, "W:19.3:1/Si", XRLAB_STACK_ERROR_THICKNESS, 8,
    "Layer 1 “W:19.3:1”, column 8: the thickness “1” needs a unit: A, nm, um, mm, cm, m" },
  { FALSE, "W:1xm/Si", XRLAB_STACK_ERROR_THICKNESS, 4,
    "Layer 1 “W:1xm”, column 4: unknown unit “xm”: a thickness is in A, nm, um, mm, cm, m" },
  { FALSE, "W:1nm:19.3/Si", XRLAB_STACK_ERROR_MATERIAL, 3,
    "Layer 1 “W:1nm:19.3”, column 3: the density comes before the thickness and has no unit, as in “W:19.3:1nm”" },
  { FALSE, "W:2mm/Si", XRLAB_STACK_ERROR_THICKNESS, 3,
    "Layer 1 “W:2mm”, column 3: the thickness “2mm” must be above 0 and at most 1 mm" },
  { TRUE, "Al:11m", XRLAB_STACK_ERROR_THICKNESS, 4,
    "Layer 1 “Al:11m”, column 4: the thickness “11m” must be above 0 and at most 10 m" },
  { TRUE, "Al:1um~1nm", XRLAB_STACK_ERROR_ROUGHNESS, 7,
    "Layer 1 “Al:1um~1nm”, column 7: a filter layer has no roughness" },
  { FALSE, "Si~abc", XRLAB_STACK_ERROR_ROUGHNESS, 4,
    "Layer 1 “Si~abc”, column 4: the roughness is a number with a unit (A, nm, um, mm, cm, m), as in “~0.3nm”; it comes last" },
  { FALSE, "Si~0.3", XRLAB_STACK_ERROR_ROUGHNESS, 4,
    "Layer 1 “Si~0.3”, column 4: the roughness “0.3” needs a unit: A, nm, um, mm, cm, m" },
  { FALSE, "Si~200nm", XRLAB_STACK_ERROR_ROUGHNESS, 4,
    "Layer 1 “Si~200nm”, column 4: the roughness “200nm” must be from 0 to 100 nm" },
  { TRUE, "Al", XRLAB_STACK_ERROR_THICKNESS, 3,
    "Layer 1 “Al”, column 3: a filter layer needs a thickness, as in “Al:100um”" },
  { FALSE, "{W:1nm/B4C:1nm}x5001/Si", XRLAB_STACK_ERROR_LIMIT, 1,
    "Column 1: the stack has more than 10000 layers" },
  { FALSE, "{{{{{{{{{W:1nm}x2}x2}x2}x2}x2}x2}x2}x2}x2/Si", XRLAB_STACK_ERROR_LIMIT, 9,
    "Column 9: groups nest more than 8 deep" },
  { FALSE, "{W:1nm", XRLAB_STACK_ERROR_SYNTAX, 1,
    "Column 1: the group “{” is never closed with “}xN”" },
  { FALSE, "{W:1nm}/Si", XRLAB_STACK_ERROR_SYNTAX, 8,
    "Column 8: a group needs its number of periods after “}”, as in “}x50”" },
  { FALSE, "{W:1nm}x/Si", XRLAB_STACK_ERROR_SYNTAX, 9,
    "Column 9: a group needs its number of periods after “}”, as in “}x50”" },
  { FALSE, "{W:1nm}x0/Si", XRLAB_STACK_ERROR_LIMIT, 9,
    "Column 9: a group repeats from 1 to 10000 times" },
  { FALSE, "{W:1nm}x99999999999999999999/Si", XRLAB_STACK_ERROR_LIMIT, 9,
    "Column 9: a group repeats from 1 to 10000 times" },
  { FALSE, "{}x2/Si", XRLAB_STACK_ERROR_SYNTAX, 2,
    "Column 2: empty group “{}”" },
  { FALSE, "{W:1nm/}x2/Si", XRLAB_STACK_ERROR_SYNTAX, 8,
    "Column 8: layer 2 is empty: nothing between “/” and “}”" },
  { FALSE, "W:1nm/", XRLAB_STACK_ERROR_SYNTAX, 7,
    "Column 7: layer 2 is empty: nothing after the last “/”" },
  { FALSE, "/Si", XRLAB_STACK_ERROR_SYNTAX, 1,
    "Column 1: layer 1 is empty: nothing before this “/”" },
  { FALSE, "W:1nm//Si", XRLAB_STACK_ERROR_SYNTAX, 7,
    "Column 7: layer 2 is empty: nothing before this “/”" },
  { FALSE, "Rh{W:1nm}x2/Si", XRLAB_STACK_ERROR_SYNTAX, 3,
    "Column 3: a group “{” follows a “/”, as in “Rh:2nm/{W:1nm/B4C:1.5nm}x50/Si”" },
  { TRUE, "air@1atm", XRLAB_STACK_ERROR_THICKNESS, 9,
    "Layer 1 “air@1atm”, column 9: a gas path needs a length, as in “air@1atm,295K:1m”" },
  { FALSE, "Rh:2nm/He@1atm/Si", XRLAB_STACK_ERROR_GAS, 8,
    "Layer 2 “He@1atm”, column 8: a gas in a reflectivity stack is the ambient: it comes first, without a length" },
  { FALSE, "He@1atm:1m/Rh", XRLAB_STACK_ERROR_GAS, 1,
    "Layer 1 “He@1atm:1m”, column 1: the ambient gas above a stack has no length: write “He@1atm/…”" },
  { FALSE, "He@1atm", XRLAB_STACK_ERROR_SYNTAX, 8,
    "Layer 1 “He@1atm”, column 8: the ambient needs a stack below it, as in “He@1atm/Rh”" },
  { FALSE, "{W}x2/Si", XRLAB_STACK_ERROR_THICKNESS, 3,
    "Layer 1 “W”, column 3: a layer in a group needs a thickness, as in “W:1nm”" },
  { FALSE, "W/Si", XRLAB_STACK_ERROR_THICKNESS, 2,
    "Layer 1 “W”, column 2: the layer needs a thickness, as in “Rh:50nm”: only the last one, the substrate, has none" },
  { FALSE, "W:1nm}/Si", XRLAB_STACK_ERROR_SYNTAX, 6,
    "Column 6: “}” without a “{”" },
  { FALSE, "{W:1nm}x2 Si", XRLAB_STACK_ERROR_SYNTAX, 11,
    "Column 11: unexpected “S” after a group: layers are separated by “/”" },
  { FALSE, "", XRLAB_STACK_ERROR_INVALID, 1,
    "Column 1: empty stack: give at least a substrate, as in “Rh”" },
  { TRUE, "   ", XRLAB_STACK_ERROR_INVALID, 1,
    "Column 1: empty filter: give at least one layer, as in “Al:100um”" },
};

static void
check_error (gboolean filter, const char *text, int code, int column, const char *message)
{
  GError *error = NULL;
  int col = -1;
  XrlabStack *st = filter ? xrlab_stack_parse_filter (text, &col, &error)
                          : xrlab_stack_parse_reflect (text, &col, &error);

  if (st != NULL)
    g_error ("“%s” parsed", text);
  g_assert_error (error, XRLAB_STACK_ERROR, code);
  if (message)
    g_assert_cmpstr (error->message, ==, message);
  g_assert_cmpint (col, ==, column);
  g_error_free (error);
}

static void
test_grammar_errors (void)
{
  for (gsize i = 0; i < G_N_ELEMENTS (error_cases); i++)
    check_error (error_cases[i].filter, error_cases[i].text, error_cases[i].code,
                 error_cases[i].column, error_cases[i].message);
  /* No column out of a NULL error_column, and no crash on NULL text. */
  g_assert_null (xrlab_stack_parse_reflect ("W/Si", NULL, NULL));
  check_error (FALSE, NULL, XRLAB_STACK_ERROR_INVALID, 1,
               "Column 1: empty stack: give at least a substrate, as in “Rh”");
  /* Not UTF-8: the column of the first bad byte. */
  check_error (FALSE, "W:1nm/\xff", XRLAB_STACK_ERROR_INVALID, 7,
               "The stack is not valid UTF-8 text (byte 7)");
  /* A gas of 65 components: the 65th is refused where it starts. */
  {
    GString *gas = g_string_new (NULL);
    for (int i = 0; i < 65; i++)
      g_string_append (gas, "1%He+");
    g_string_append (gas, "N2@1atm:1m");
    check_error (TRUE, gas->str, XRLAB_STACK_ERROR_LIMIT, 321,
                 "Layer 1 “1%He+1%He+1%He+1%He+1%He+1%He+1%He+1%He+1%He+1%…”, column 321: "
                 "a gas has at most 64 components");
    g_string_free (gas, TRUE);
  }
  /* Columns count characters, not bytes. */
  check_error (FALSE, "Au:19.3:1µm/Xx", XRLAB_STACK_ERROR_MATERIAL, 13,
               "Layer 2 “Xx”: Unknown element “Xx” at column 13");
}

/* The limits: text length, layers, counts, nesting, the formula columns
 * of very long stacks. */
static void
test_grammar_limits (void)
{
  GString *s = g_string_new (NULL);
  g_autoptr(XrlabStack) st = NULL;

  /* 10000 layers and a substrate: the most; one more is refused. */
  for (int i = 0; i < 10000; i++)
    g_string_append (s, "W:1nm/");
  g_string_append (s, "Si");
  st = parse_reflect (s->str);
  g_assert_cmpuint (xrlab_stack_get_n_layers (st), ==, XRLAB_STACK_MAX_LAYERS);
  g_clear_pointer (&st, xrlab_stack_unref);
  g_string_prepend (s, "W:1nm/");
  check_error (FALSE, s->str, XRLAB_STACK_ERROR_LIMIT, 60007,
               "Column 60007: the stack has more than 10000 layers");
  g_string_truncate (s, s->len - 3);   /* free-standing: 10001 layers */
  check_error (FALSE, s->str, XRLAB_STACK_ERROR_LIMIT, 1, "Column 1: the stack has more than 10000 layers");
  st = parse_reflect ("{W:1nm/B4C:1nm}x5000/Si");
  g_assert_cmpuint (xrlab_stack_get_n_layers (st), ==, 10000);
  g_clear_pointer (&st, xrlab_stack_unref);
  st = parse_reflect ("{W:1nm}x10000/Si");
  g_assert_cmpuint (xrlab_stack_get_n_layers (st), ==, 10000);
  g_clear_pointer (&st, xrlab_stack_unref);
  /* Products of counts that overflow 64 bits are refused before expanding. */
  check_error (FALSE, "{{{{{{{{W:1nm}x10000}x10000}x10000}x10000}x10000}x10000}x10000}x10000/Si",
               XRLAB_STACK_ERROR_LIMIT, 7, "Column 7: the stack has more than 10000 layers");

  /* Nesting: 8 deep is fine. */
  st = parse_reflect ("{{{{{{{{W:1nm}x2}x2}x2}x2}x2}x2}x2}x2/Si");
  g_assert_cmpuint (xrlab_stack_get_n_layers (st), ==, 256);
  g_assert_cmpuint (xrlab_stack_get_n_groups (st), ==, 8);
  check_round_trip (st);
  g_clear_pointer (&st, xrlab_stack_unref);
  {
    /* 60000 braces deep: refused at the 9th, no deep recursion. */
    GString *deep = g_string_new (NULL);
    for (int i = 0; i < 60000; i++)
      g_string_append_c (deep, '{');
    check_error (FALSE, deep->str, XRLAB_STACK_ERROR_LIMIT, 9, "Column 9: groups nest more than 8 deep");
    g_string_free (deep, TRUE);
  }

  /* Text length. */
  g_string_truncate (s, 0);
  for (int i = 0; i < XRLAB_STACK_MAX_CHARS; i++)
    g_string_append_c (s, ' ');
  g_string_append (s, "Rh");
  check_error (FALSE, s->str, XRLAB_STACK_ERROR_LIMIT, XRLAB_STACK_MAX_CHARS + 1,
               "The stack is longer than 65536 characters");

  /* A formula beyond column 4000: its own column and the layer's. */
  g_string_truncate (s, 0);
  for (int i = 0; i < 1000; i++)
    g_string_append (s, "W:1nm/");
  g_string_append (s, "Si:1nm/Xx");
  check_error (FALSE, s->str, XRLAB_STACK_ERROR_MATERIAL, 6008,
               "Layer 1002 “Xx”, formula at column 6008: Unknown element “Xx” at column 1");
  g_string_free (s, TRUE);
}

/* A random stack that is mostly well formed. */
static void
random_stack (GRand *rand, gboolean filter, int depth, GString *s)
{
  static const char *formulas[] = { "W", "B4C", "Si", "Rh", "Au", "Kapton", "C", "Ni", "SiO2",
                                    "Fused silica", "70wt% SiO2 // B2O3", "Mo" };
  static const char *units[] = { "nm", "A", "Å", "um", "µm", "mm" };
  static const char *gases[] = { "air", "He", "N2", "80%He+20%N2", "Ar" };
  int n = g_rand_int_range (rand, 1, 5);

  for (int i = 0; i < n; i++)
    {
      if (i > 0)
        g_string_append_c (s, '/');
      if (depth < 3 && g_rand_int_range (rand, 0, 5) == 0)
        {
          g_string_append_c (s, '{');
          random_stack (rand, filter, depth + 1, s);
          g_string_append_printf (s, "}x%d", g_rand_int_range (rand, 1, 20));
          continue;
        }
      if (filter && g_rand_int_range (rand, 0, 4) == 0)
        {
          g_string_append_printf (s, "%s@%datm,%dK:%d%s", gases[g_rand_int_range (rand, 0, G_N_ELEMENTS (gases))],
                                  g_rand_int_range (rand, 1, 3), g_rand_int_range (rand, 250, 350),
                                  g_rand_int_range (rand, 1, 100), units[g_rand_int_range (rand, 0, G_N_ELEMENTS (units))]);
          continue;
        }
      g_string_append (s, formulas[g_rand_int_range (rand, 0, G_N_ELEMENTS (formulas))]);
      if (g_rand_boolean (rand))
        g_string_append_printf (s, ":%.3g", g_rand_double_range (rand, 0.5, 22));
      if (filter || i + 1 < n || depth > 0 || g_rand_boolean (rand))
        g_string_append_printf (s, ":%.3g%s", g_rand_double_range (rand, 0.1, 50),
                                units[g_rand_int_range (rand, 0, 3)]);
      if (!filter && g_rand_boolean (rand))
        g_string_append_printf (s, "~%.2gnm", g_rand_double_range (rand, 0, 2));
    }
}

/* Random input: never a crash; a failure has a message and a column inside
 * the text (or just after it); a success round-trips through its canonical
 * text. Half the inputs are stacks of the grammar with a few bytes changed,
 * half are soups of its tokens. */
static void
test_grammar_fuzz (void)
{
  static const char *tokens[] = {
    "W", "B4C", "Si", "Rh", "Au", "Xx", "air", "He", "N2", "Kapton", "(", ")", "[", "]",
    "//", "wt%", "%", "+", "·", "/", "{", "}", "x", "×", "*", ":", "~", "@", ",", " ",
    "1", "0", "19.3", "2.5", "1e9", "1e-400", "1e400", "-1", ".", "e", "nm", "A", "Å", "um", "µm",
    "mm", "m", "atm", "bar", "K", "°C", "Torr", "50", "10000", "10001", "99999999999", "\xff", "\xc3",
  };
  static const char bytes[] = "/{}x:~@,.%+0123456789 e-";
  GRand *rand = g_rand_new_with_seed (20240516);
  guint parsed = 0, failed = 0;

  for (int i = 0; i < 20000; i++)
    {
      GString *s = g_string_new (NULL);
      gboolean filter = g_rand_boolean (rand);
      XrlabStack *st;
      GError *error = NULL;
      int col = -1;

      if (i % 2 == 0)
        {
          int changes = g_rand_int_range (rand, 0, 3);
          random_stack (rand, filter, 0, s);
          for (int c = 0; c < changes && s->len > 0; c++)
            {
              gsize at = (gsize) g_rand_int_range (rand, 0, (gint32) s->len);
              switch (g_rand_int_range (rand, 0, 3))
                {
                case 0: g_string_erase (s, (gssize) at, 1); break;
                case 1: g_string_insert_c (s, (gssize) at, bytes[g_rand_int_range (rand, 0, sizeof bytes - 1)]); break;
                default: s->str[at] = bytes[g_rand_int_range (rand, 0, sizeof bytes - 1)]; break;
                }
            }
        }
      else
        {
          int n = g_rand_int_range (rand, 0, 24);
          for (int k = 0; k < n; k++)
            g_string_append (s, tokens[g_rand_int_range (rand, 0, G_N_ELEMENTS (tokens))]);
        }
      st = filter ? xrlab_stack_parse_filter (s->str, &col, &error)
                  : xrlab_stack_parse_reflect (s->str, &col, &error);
      if (st != NULL)
        {
          g_assert_no_error (error);
          g_assert_cmpint (col, ==, 0);
          check_round_trip (st);
          xrlab_stack_unref (st);
          parsed++;
        }
      else
        {
          glong len = g_utf8_validate (s->str, -1, NULL) ? g_utf8_strlen (s->str, -1) : (glong) s->len;
          g_assert_nonnull (error);
          g_assert_true (error->domain == XRLAB_STACK_ERROR);
          g_assert_cmpint (col, >=, 1);
          g_assert_cmpint (col, <=, len + 1);
          g_error_free (error);
          failed++;
        }
      g_string_free (s, TRUE);
    }
  g_rand_free (rand);
  g_test_message ("fuzz: %u parsed, %u refused", parsed, failed);
  g_assert_cmpuint (parsed, >, 2000);
  g_assert_cmpuint (failed, >, 2000);
}

/* Grazing-angle specs: the forms, the units, the limits and the errors. */
static void
test_angle_spec (void)
{
  struct { const char *spec; XrlabAngleUnit unit; gsize n; double first, last; } good[] = {
    { "5", XRLAB_ANGLE_UNIT_MRAD, 1, 5, 5 },
    { " 1, 2 ,5 ", XRLAB_ANGLE_UNIT_MRAD, 3, 1, 5 },
    { "0:10:101", XRLAB_ANGLE_UNIT_MRAD, 101, 0, 10 },
    { "10:0:3", XRLAB_ANGLE_UNIT_MRAD, 3, 10, 0 },
    { "0.1:10:3:log", XRLAB_ANGLE_UNIT_MRAD, 3, 0.1, 10 },
    { "0:90:2:lin", XRLAB_ANGLE_UNIT_DEG, 2, 0, 90 },
    { "0.5", XRLAB_ANGLE_UNIT_DEG, 1, 0.5, 0.5 },
    { "1570.7963267948966", XRLAB_ANGLE_UNIT_MRAD, 1, 1570.7963267948966, 1570.7963267948966 },
  };
  struct { const char *spec; XrlabAngleUnit unit; int code; const char *says; } bad[] = {
    { "", XRLAB_ANGLE_UNIT_MRAD, XRLAB_REFLECT_ERROR_ANGLE_SPEC, "Empty" },
    { "x", XRLAB_ANGLE_UNIT_MRAD, XRLAB_REFLECT_ERROR_ANGLE_SPEC, "not a number" },
    { "1,,2", XRLAB_ANGLE_UNIT_MRAD, XRLAB_REFLECT_ERROR_ANGLE_SPEC, "item 2" },
    { "1,2:3", XRLAB_ANGLE_UNIT_MRAD, XRLAB_REFLECT_ERROR_ANGLE_SPEC, "mixes" },
    { "0:10", XRLAB_ANGLE_UNIT_MRAD, XRLAB_REFLECT_ERROR_ANGLE_SPEC, "does not parse" },
    { "0:10:1", XRLAB_ANGLE_UNIT_MRAD, XRLAB_REFLECT_ERROR_ANGLE_SPEC, "number of points" },
    { "0:10:2.5", XRLAB_ANGLE_UNIT_MRAD, XRLAB_REFLECT_ERROR_ANGLE_SPEC, "whole number" },
    { "0:10:1e9", XRLAB_ANGLE_UNIT_MRAD, XRLAB_REFLECT_ERROR_ANGLE_SPEC, "100000" },
    { "0:10:5:log", XRLAB_ANGLE_UNIT_MRAD, XRLAB_REFLECT_ERROR_ANGLE_SPEC, "above 0" },
    { "1:10:5:cubic", XRLAB_ANGLE_UNIT_MRAD, XRLAB_REFLECT_ERROR_ANGLE_SPEC, "spacing" },
    { "-1", XRLAB_ANGLE_UNIT_MRAD, XRLAB_REFLECT_ERROR_ANGLE, "outside 0" },
    { "1600", XRLAB_ANGLE_UNIT_MRAD, XRLAB_REFLECT_ERROR_ANGLE, "1570.79" },
    { "91", XRLAB_ANGLE_UNIT_DEG, XRLAB_REFLECT_ERROR_ANGLE, "90 deg" },
    { "nan", XRLAB_ANGLE_UNIT_DEG, XRLAB_REFLECT_ERROR_ANGLE_SPEC, "not a number" },
    { "inf", XRLAB_ANGLE_UNIT_DEG, XRLAB_REFLECT_ERROR_ANGLE_SPEC, "not a number" },
  };
  XrlabAngleUnit unit;

  for (gsize i = 0; i < G_N_ELEMENTS (good); i++)
    {
      g_autoptr(GError) error = NULL;
      gsize n = 0;
      g_autofree double *a = xrlab_angle_spec_parse (good[i].spec, good[i].unit, &n, &error);

      g_assert_no_error (error);
      g_assert_cmpuint (n, ==, good[i].n);
      g_assert_cmpfloat_with_epsilon (a[0], good[i].first, 1e-12 * good[i].first + 1e-300);
      g_assert_cmpfloat_with_epsilon (a[n - 1], good[i].last, 1e-12 * good[i].last + 1e-300);
      if (n == 3 && good[i].first == 0.1)
        g_assert_cmpfloat_with_epsilon (a[1], 1.0, 1e-14);
    }
  for (gsize i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      gsize n = 7;
      double *a = xrlab_angle_spec_parse (bad[i].spec, bad[i].unit, &n, &error);

      g_assert_null (a);
      g_assert_cmpuint (n, ==, 0);
      g_assert_error (error, XRLAB_REFLECT_ERROR, bad[i].code);
      if (strstr (error->message, bad[i].says) == NULL)
        g_error ("“%s”: “%s” does not say “%s”", bad[i].spec, error->message, bad[i].says);
    }
  g_assert_true (xrlab_angle_unit_parse ("deg", &unit) && unit == XRLAB_ANGLE_UNIT_DEG);
  g_assert_true (xrlab_angle_unit_parse ("MRAD", &unit) && unit == XRLAB_ANGLE_UNIT_MRAD);
  g_assert_false (xrlab_angle_unit_parse ("rad", &unit));
  g_assert_cmpstr (xrlab_angle_unit_get_id (XRLAB_ANGLE_UNIT_DEG), ==, "deg");
  g_assert_cmpfloat (xrlab_angle_from_rad (xrlab_angle_to_rad (3.0, XRLAB_ANGLE_UNIT_MRAD),
                                           XRLAB_ANGLE_UNIT_MRAD), ==, 3.0);
  g_assert_cmpfloat (xrlab_angle_to_rad (90.0, XRLAB_ANGLE_UNIT_DEG), ==, G_PI / 2);
  g_assert_cmpfloat (xrlab_angle_to_rad (1570.7963267948966, XRLAB_ANGLE_UNIT_MRAD), <=, G_PI / 2);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  xrlab_init ();
  g_test_add_func ("/reflect/matrix-method", test_matrix_method);
  g_test_add_func ("/reflect/direct-parratt", test_direct_parratt);
  g_test_add_func ("/reflect/xraydb", test_xraydb);
  g_test_add_func ("/reflect/bragg", test_bragg);
  g_test_add_func ("/reflect/conservation", test_conservation);
  g_test_add_func ("/reflect/roughness-lowers", test_roughness_lowers);
  g_test_add_func ("/reflect/polarization", test_polarization);
  g_test_add_func ("/reflect/api-errors", test_api_errors);
  g_test_add_func ("/reflect/filter", test_filter);
  g_test_add_func ("/reflect/gas", test_gas);
  g_test_add_func ("/reflect/grammar-forms", test_grammar_forms);
  g_test_add_func ("/reflect/grammar-errors", test_grammar_errors);
  g_test_add_func ("/reflect/grammar-limits", test_grammar_limits);
  g_test_add_func ("/reflect/grammar-fuzz", test_grammar_fuzz);
  g_test_add_func ("/reflect/angle-spec", test_angle_spec);
  return g_test_run ();
}
