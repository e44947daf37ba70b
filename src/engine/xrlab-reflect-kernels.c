/* xrlab-reflect-kernels.c -- the block kernels of xrlab-reflect.c
 *
 * Layout for speed. A plan owns one workspace of BLOCK-point arrays (real
 * and imaginary parts apart, so that every loop is a plain loop over
 * doubles): per point k, n_0 sin θ and the recursion's state; per medium
 * n² − n_0², n² and k_z; per slab φ and φ²; per interface r, t. A block
 * is padded to a multiple of 4 points (copies of its last point) so that
 * the loops have no remainder and vectorize. Nothing here allocates.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-reflect.h"
#include "xrlab-reflect-private.h"

#include <math.h>
#include <string.h>

/* ---- filling a block ---------------------------------------------------- */

/* n − 1 = −δ + iβ of medium @m at energy @e (vacuum: 0). */
static inline void
index_minus_one (const XrlabReflectPlan *plan, guint m, gsize e, double *d, double *b)
{
  int mat = plan->medium_material[m];

  if (mat < 0)
    {
      *d = 0.0;
      *b = 0.0;
      return;
    }
  *d = plan->delta[(gsize) mat * plan->n_e + e];
  *b = plan->beta[(gsize) mat * plan->n_e + e];
}

/* c = n² − n_0² and e = n² of medium @m at energy @e, given δ_0, β_0. With
 * n = 1 − δ + iβ: n² − n_0² = (δ_0 − δ)(2 − δ − δ_0) − (β² − β_0²)
 * + 2i((1 − δ)β − (1 − δ_0)β_0), without cancellation. */
static inline void
medium_terms (double d, double b, double d0, double b0,
              double *c_re, double *c_im, double *e_re, double *e_im)
{
  *c_re = (d0 - d) * (2.0 - d - d0) - (b * b - b0 * b0);
  *c_im = 2.0 * ((1.0 - d) * b - (1.0 - d0) * b0);
  *e_re = (1.0 - d) * (1.0 - d) - b * b;
  *e_im = 2.0 * (1.0 - d) * b;
}

static void
fill_medium_constant (XrlabReflectPlan *plan, gsize e, gsize nb)
{
  double d0, b0;

  index_minus_one (plan, 0, e, &d0, &b0);
  for (guint m = 0; m < plan->n_media; m++)
    {
      double d, b, c_re, c_im, e_re, e_im;
      double *restrict cr = MD (plan, m, M_C_RE), *restrict ci = MD (plan, m, M_C_IM);
      double *restrict er = MD (plan, m, M_E_RE), *restrict ei = MD (plan, m, M_E_IM);

      index_minus_one (plan, m, e, &d, &b);
      medium_terms (d, b, d0, b0, &c_re, &c_im, &e_re, &e_im);
      for (gsize p = 0; p < nb; p++)
        {
          cr[p] = c_re;
          ci[p] = c_im;
          er[p] = e_re;
          ei[p] = e_im;
        }
    }
}

/* Points [a0, a0 + n) of @angles at energy @e, padded to @nb. */
void
xrlab_reflect_fill_angles (XrlabReflectPlan *plan, gsize e, const double *angles, gsize a0, gsize n, gsize nb)
{
  const double k = 2.0 * G_PI / xrlab_energy_grid_get_wavelengths_a (plan->grid)[e];
  double *restrict pk = plan->pt[P_K], *restrict sr = plan->pt[P_SN_RE], *restrict si = plan->pt[P_SN_IM];
  double d0, b0;

  index_minus_one (plan, 0, e, &d0, &b0);
  for (gsize p = 0; p < nb; p++)
    {
      double s = sin (angles[a0 + MIN (p, n - 1)]);
      pk[p] = k;
      sr[p] = (1.0 - d0) * s;
      si[p] = b0 * s;
    }
  fill_medium_constant (plan, e, nb);
}

/* Energies [e0, e0 + n) at one angle, padded to @nb. */
void
xrlab_reflect_fill_energies (XrlabReflectPlan *plan, double sin_theta, gsize e0, gsize n, gsize nb)
{
  const double *wl = xrlab_energy_grid_get_wavelengths_a (plan->grid);
  double *restrict pk = plan->pt[P_K], *restrict sr = plan->pt[P_SN_RE], *restrict si = plan->pt[P_SN_IM];

  for (gsize p = 0; p < nb; p++)
    {
      gsize e = e0 + MIN (p, n - 1);
      double d0, b0;

      index_minus_one (plan, 0, e, &d0, &b0);
      pk[p] = 2.0 * G_PI / wl[e];
      sr[p] = (1.0 - d0) * sin_theta;
      si[p] = b0 * sin_theta;
      for (guint m = 0; m < plan->n_media; m++)
        {
          double d, b;
          index_minus_one (plan, m, e, &d, &b);
          medium_terms (d, b, d0, b0, &MD (plan, m, M_C_RE)[p], &MD (plan, m, M_C_IM)[p],
                        &MD (plan, m, M_E_RE)[p], &MD (plan, m, M_E_IM)[p]);
        }
    }
}

/* ---- the kernel --------------------------------------------------------- */

/* k_z of every medium: k n_0 sin θ for the ambient, k √(c + (n_0 sin θ)²)
 * with Im ≥ 0 for the others. */
static void
compute_kz (XrlabReflectPlan *plan, gsize nb)
{
  /* nb is a multiple of 4: saying so lets the loops vectorize without a
   * remainder loop. */
  nb &= ~(gsize) 3;
  const double *restrict pk = plan->pt[P_K];
  const double *restrict sr = plan->pt[P_SN_RE], *restrict si = plan->pt[P_SN_IM];

  {
    double *restrict kr = MD (plan, 0, M_KZ_RE), *restrict ki = MD (plan, 0, M_KZ_IM);
XRLAB_IVDEP
    for (gsize p = 0; p < nb; p++)
      {
        kr[p] = pk[p] * sr[p];
        ki[p] = pk[p] * si[p];
      }
  }
  for (guint m = 1; m < plan->n_media; m++)
    {
      const double *restrict cr = MD (plan, m, M_C_RE), *restrict ci = MD (plan, m, M_C_IM);
      double *restrict kr = MD (plan, m, M_KZ_RE), *restrict ki = MD (plan, m, M_KZ_IM);

XRLAB_IVDEP
      for (gsize p = 0; p < nb; p++)
        {
          double a = cr[p] + (sr[p] * sr[p] - si[p] * si[p]);
          double b = ci[p] + 2.0 * sr[p] * si[p];
          double r = sqrt (a * a + b * b);
          double t = sqrt (0.5 * (r + fabs (a)));
          double u = 0.5 * b / (t + (t == 0.0));   /* t = 0 only where b = 0 */
          /* The principal root, then the one with Im ≥ 0. */
          double x = a >= 0.0 ? t : fabs (u);
          double y = a >= 0.0 ? u : copysign (t, b);
          double sg = y < 0.0 ? -1.0 : 1.0;

          kr[p] = pk[p] * sg * x;
          ki[p] = pk[p] * sg * y;
        }
    }
}

/* φ = exp(i k_z d) and φ² of every slab. */
static void
compute_slabs (XrlabReflectPlan *plan, gsize nb)
{
  /* nb is a multiple of 4: saying so lets the loops vectorize without a
   * remainder loop. */
  nb &= ~(gsize) 3;
  for (gsize u = 0; u < plan->n_slabs; u++)
    {
      const double d = plan->slab_d[u];
      const double *restrict kr = MD (plan, plan->slab_medium[u], M_KZ_RE);
      const double *restrict ki = MD (plan, plan->slab_medium[u], M_KZ_IM);
      double *restrict pr = SL (plan, u, S_PH_RE), *restrict pi = SL (plan, u, S_PH_IM);
      double *restrict qr = SL (plan, u, S_PH2_RE), *restrict qi = SL (plan, u, S_PH2_IM);

XRLAB_IVDEP
      for (gsize p = 0; p < nb; p++)
        {
          double mag = exp (-ki[p] * d), arg = kr[p] * d;
          double c = mag * cos (arg), s = mag * sin (arg);
          pr[p] = c;
          pi[p] = s;
          qr[p] = c * c - s * s;
          qi[p] = 2.0 * c * s;
        }
    }
}

/* The Névot–Croce factor f = exp(z), z = −2σ² k_a k_b, with Re z held at
 * ≤ NC_EXPONENT_MAX, and f − 1 (for the transmission coefficients, without
 * cancellation where |z| ≪ 1). */
static void
nevot_croce (gsize nb, double s2, gboolean want_g,
             const double *restrict ar, const double *restrict ai,
             const double *restrict br, const double *restrict bi,
             double *restrict fr, double *restrict fi,
             double *restrict gr, double *restrict gi)
{
  for (gsize p = 0; p < nb; p++)
    {
      double zr = -2.0 * s2 * (ar[p] * br[p] - ai[p] * bi[p]);
      double zi = -2.0 * s2 * (ar[p] * bi[p] + ai[p] * br[p]);
      double x = MIN (zr, NC_EXPONENT_MAX);
      double mag = exp (x), c = cos (zi);

      fr[p] = mag * c;
      fi[p] = mag * sin (zi);
      if (want_g)
        {
          /* f − 1 = expm1(x) cos + (cos − 1) + i e^x sin, cos − 1 = −2 sin²(zi/2) */
          double h = sin (0.5 * zi);
          gr[p] = expm1 (x) * c - 2.0 * h * h;
          gi[p] = fi[p];
        }
    }
}

/* r_s and r_p of every interface, with the Névot–Croce factor. The
 * numerators are written without the cancellation of k_a − k_b at steep
 * angles and near Brewster's angle: with c = n² − n_0², ε = n² and
 * S = n_0² sin²θ (so k_z² = k² (c + S)),
 *
 *   r_s = k² (c_a − c_b) / (k_a + k_b)²
 *   r_p = k² (c_a − c_b) (ε_a² − (c_a + S)(ε_a + ε_b)) / (ε_b k_a + ε_a k_b)²
 *
 * which are (k_a − k_b)/(k_a + k_b) and (ε_b k_a − ε_a k_b)/(ε_b k_a + ε_a k_b)
 * multiplied out. With @want_t also t = 1 + r, as t_s = 2 k_a / (k_a + k_b)
 * and t_p = 2 ε_b k_a / (ε_b k_a + ε_a k_b) (no cancellation where r ≈ −1),
 * and with roughness t + r (f − 1) for the Névot–Croce factor f. */
static void
compute_ifaces (XrlabReflectPlan *plan, gsize nb, gboolean want_t)
{
  /* nb is a multiple of 4: saying so lets the loops vectorize without a
   * remainder loop. */
  nb &= ~(gsize) 3;
  const double *restrict pk = plan->pt[P_K];
  const double *restrict sr = plan->pt[P_SN_RE], *restrict si = plan->pt[P_SN_IM];

  for (gsize i = 0; i < plan->n_ifaces; i++)
    {
      const guint a = plan->iface_upper[i], b = plan->iface_lower[i];
      const double s2 = plan->iface_sigma2[i];
      const double *restrict ar = MD (plan, a, M_KZ_RE), *restrict ai = MD (plan, a, M_KZ_IM);
      const double *restrict br = MD (plan, b, M_KZ_RE), *restrict bi = MD (plan, b, M_KZ_IM);
      const double *restrict car = MD (plan, a, M_C_RE), *restrict cai = MD (plan, a, M_C_IM);
      const double *restrict cbr = MD (plan, b, M_C_RE), *restrict cbi = MD (plan, b, M_C_IM);
      const double *restrict ear = MD (plan, a, M_E_RE), *restrict eai = MD (plan, a, M_E_IM);
      const double *restrict ebr = MD (plan, b, M_E_RE), *restrict ebi = MD (plan, b, M_E_IM);
      double *restrict rsr = FC (plan, i, I_RS_RE), *restrict rsi = FC (plan, i, I_RS_IM);
      double *restrict rpr = FC (plan, i, I_RP_RE), *restrict rpi = FC (plan, i, I_RP_IM);
      double *restrict tsr = FC (plan, i, I_TS_RE), *restrict tsi = FC (plan, i, I_TS_IM);
      double *restrict tpr = FC (plan, i, I_TP_RE), *restrict tpi = FC (plan, i, I_TP_IM);

XRLAB_IVDEP
      for (gsize p = 0; p < nb; p++)
        {
          double k2 = pk[p] * pk[p];
          double gr = k2 * (car[p] - cbr[p]), gi = k2 * (cai[p] - cbi[p]);   /* k² (c_a − c_b) */
          double dr = ar[p] + br[p], di = ai[p] + bi[p];
          double qr = dr * dr - di * di, qi = 2.0 * dr * di;                 /* (k_a + k_b)² */
          /* den = 0 only where k_a = k_b = 0, and then c_a = c_b: r = 0 */
          double den = qr * qr + qi * qi, inv = 1.0 / (den + (den == 0.0));
          double ur, ui, vr, vi, wr, wi, hr, hi;

          rsr[p] = (gr * qr + gi * qi) * inv;
          rsi[p] = (gi * qr - gr * qi) * inv;

          /* u = c_a + S, v = ε_a + ε_b, w = ε_a² − u v */
          ur = car[p] + sr[p] * sr[p] - si[p] * si[p];
          ui = cai[p] + 2.0 * sr[p] * si[p];
          vr = ear[p] + ebr[p];
          vi = eai[p] + ebi[p];
          wr = ear[p] * ear[p] - eai[p] * eai[p] - (ur * vr - ui * vi);
          wi = 2.0 * ear[p] * eai[p] - (ur * vi + ui * vr);
          hr = gr * wr - gi * wi;
          hi = gr * wi + gi * wr;
          /* (ε_b k_a + ε_a k_b)² */
          dr = ebr[p] * ar[p] - ebi[p] * ai[p] + ear[p] * br[p] - eai[p] * bi[p];
          di = ebr[p] * ai[p] + ebi[p] * ar[p] + ear[p] * bi[p] + eai[p] * br[p];
          qr = dr * dr - di * di;
          qi = 2.0 * dr * di;
          den = qr * qr + qi * qi;
          inv = 1.0 / (den + (den == 0.0));
          rpr[p] = (hr * qr + hi * qi) * inv;
          rpi[p] = (hi * qr - hr * qi) * inv;
        }

      if (want_t)
        {
XRLAB_IVDEP
          for (gsize p = 0; p < nb; p++)
            {
              /* t_s = 2 k_a / (k_a + k_b), t_p = 2 ε_b k_a / (ε_b k_a + ε_a k_b) */
              double dr = ar[p] + br[p], di = ai[p] + bi[p];
              double den = dr * dr + di * di, inv = 2.0 / (den + (den == 0.0));
              double xr = ebr[p] * ar[p] - ebi[p] * ai[p], xi = ebr[p] * ai[p] + ebi[p] * ar[p];

              tsr[p] = (ar[p] * dr + ai[p] * di) * inv;
              tsi[p] = (ai[p] * dr - ar[p] * di) * inv;
              dr = xr + ear[p] * br[p] - eai[p] * bi[p];
              di = xi + ear[p] * bi[p] + eai[p] * br[p];
              den = dr * dr + di * di;
              inv = 2.0 / (den + (den == 0.0));
              tpr[p] = (xr * dr + xi * di) * inv;
              tpi[p] = (xi * dr - xr * di) * inv;
            }
        }

      if (s2 > 0.0)
        {
          double *restrict fr = plan->pt[P_FR], *restrict fi = plan->pt[P_FI];
          double *restrict gr = plan->pt[P_GR], *restrict gi = plan->pt[P_GI];

          nevot_croce (nb, s2, want_t, ar, ai, br, bi, fr, fi, gr, gi);
          if (want_t)
            {
              /* t + r (f − 1) */
XRLAB_IVDEP
              for (gsize p = 0; p < nb; p++)
                {
                  tsr[p] += rsr[p] * gr[p] - rsi[p] * gi[p];
                  tsi[p] += rsr[p] * gi[p] + rsi[p] * gr[p];
                  tpr[p] += rpr[p] * gr[p] - rpi[p] * gi[p];
                  tpi[p] += rpr[p] * gi[p] + rpi[p] * gr[p];
                }
            }
XRLAB_IVDEP
          for (gsize p = 0; p < nb; p++)
            {
              double t = rsr[p] * fr[p] - rsi[p] * fi[p];

              rsi[p] = rsr[p] * fi[p] + rsi[p] * fr[p];
              rsr[p] = t;
              t = rpr[p] * fr[p] - rpi[p] * fi[p];
              rpi[p] = rpr[p] * fi[p] + rpi[p] * fr[p];
              rpr[p] = t;
            }
        }
    }
}

/* One step of the recursion for one polarization: Y = X φ²,
 * X ← (r + Y)/(1 + rY), and with @tr, τ ← τ t φ / (1 + rY) in a second
 * loop (each loop stays free of branches). */
static inline void
recursion_step (XrlabReflectPlan *plan, gsize nb,
                const double *restrict rr, const double *restrict ri,
                const double *restrict cr_t, const double *restrict ci_t,
                const double *restrict qr, const double *restrict qi,
                const double *restrict fr, const double *restrict fi,
                double *restrict xr, double *restrict xi,
                double *restrict tr, double *restrict ti)
{
  double *restrict sdr = plan->pt[P_DR], *restrict sdi = plan->pt[P_DI], *restrict sinv = plan->pt[P_INV];

XRLAB_IVDEP
  for (gsize p = 0; p < nb; p++)
    {
      double yr = xr[p] * qr[p] - xi[p] * qi[p];
      double yi = xr[p] * qi[p] + xi[p] * qr[p];
      double dr = 1.0 + rr[p] * yr - ri[p] * yi;
      double di = rr[p] * yi + ri[p] * yr;
      double inv = 1.0 / (dr * dr + di * di);
      double nr = rr[p] + yr, ni = ri[p] + yi;

      xr[p] = (nr * dr + ni * di) * inv;
      xi[p] = (ni * dr - nr * di) * inv;
      sdr[p] = dr;
      sdi[p] = di;
      sinv[p] = inv;
    }
  if (tr == NULL)
    return;
XRLAB_IVDEP
  for (gsize p = 0; p < nb; p++)
    {
      /* τ t φ conj(d) / |d|² */
      double ar = cr_t[p], ai = ci_t[p];
      double br = ar * fr[p] - ai * fi[p], bi = ar * fi[p] + ai * fr[p];
      double cr = br * sdr[p] + bi * sdi[p], ci = bi * sdr[p] - br * sdi[p];
      double t = (tr[p] * cr - ti[p] * ci) * sinv[p];

      ti[p] = (tr[p] * ci + ti[p] * cr) * sinv[p];
      tr[p] = t;
    }
}

/* The whole recursion over the block. */
void
xrlab_reflect_compute_block (XrlabReflectPlan *plan, gsize nb, gboolean want_t)
{
  const gsize n = plan->n_layers;
  double *restrict xsr = plan->pt[P_XS_RE], *restrict xsi = plan->pt[P_XS_IM];
  double *restrict xpr = plan->pt[P_XP_RE], *restrict xpi = plan->pt[P_XP_IM];
  double *restrict tsr = plan->pt[P_TS_RE], *restrict tsi = plan->pt[P_TS_IM];
  double *restrict tpr = plan->pt[P_TP_RE], *restrict tpi = plan->pt[P_TP_IM];

  compute_kz (plan, nb);
  compute_slabs (plan, nb);
  compute_ifaces (plan, nb, want_t);

  /* The bottom interface: X = r, τ = t. */
  {
    guint i = plan->step_iface[n];
    const double *rsr = FC (plan, i, I_RS_RE), *rsi = FC (plan, i, I_RS_IM);
    const double *rpr = FC (plan, i, I_RP_RE), *rpi = FC (plan, i, I_RP_IM);

    memcpy (xsr, rsr, nb * sizeof (double));
    memcpy (xsi, rsi, nb * sizeof (double));
    memcpy (xpr, rpr, nb * sizeof (double));
    memcpy (xpi, rpi, nb * sizeof (double));
    if (want_t)
      {
        memcpy (tsr, FC (plan, i, I_TS_RE), nb * sizeof (double));
        memcpy (tsi, FC (plan, i, I_TS_IM), nb * sizeof (double));
        memcpy (tpr, FC (plan, i, I_TP_RE), nb * sizeof (double));
        memcpy (tpi, FC (plan, i, I_TP_IM), nb * sizeof (double));
      }
  }
  for (gsize jj = n; jj > 0; jj--)
    {
      gsize j = jj - 1;
      guint i = plan->step_iface[j], u = plan->step_slab[j];
      const double *qr = SL (plan, u, S_PH2_RE), *qi = SL (plan, u, S_PH2_IM);
      const double *fr = SL (plan, u, S_PH_RE), *fi = SL (plan, u, S_PH_IM);

      recursion_step (plan, nb, FC (plan, i, I_RS_RE), FC (plan, i, I_RS_IM),
                      FC (plan, i, I_TS_RE), FC (plan, i, I_TS_IM), qr, qi, fr, fi,
                      xsr, xsi, want_t ? tsr : NULL, tsi);
      recursion_step (plan, nb, FC (plan, i, I_RP_RE), FC (plan, i, I_RP_IM),
                      FC (plan, i, I_TP_RE), FC (plan, i, I_TP_IM), qr, qi, fr, fi,
                      xpr, xpi, want_t ? tpr : NULL, tpi);
    }
}

gboolean
xrlab_reflect_wants_t (const XrlabReflectOutput *out)
{
  return out->t != NULL || out->t_s != NULL || out->t_p != NULL;
}

/* The block's results into @out at @stride steps from @offset. */
void
xrlab_reflect_write_block (XrlabReflectPlan *plan, const XrlabReflectOutput *out, gsize n,
             gsize offset, gsize stride)
{
  const double ws = 0.5 * (1.0 + out->polarization), wp = 0.5 * (1.0 - out->polarization);
  const double *xsr = plan->pt[P_XS_RE], *xsi = plan->pt[P_XS_IM];
  const double *xpr = plan->pt[P_XP_RE], *xpi = plan->pt[P_XP_IM];

  for (gsize p = 0; p < n; p++)
    {
      double rs = xsr[p] * xsr[p] + xsi[p] * xsi[p];
      double rp = xpr[p] * xpr[p] + xpi[p] * xpi[p];
      gsize o = offset + p * stride;

      if (out->r_s)
        out->r_s[o] = rs;
      if (out->r_p)
        out->r_p[o] = rp;
      if (out->r)
        out->r[o] = ws * rs + wp * rp;
    }

  if (xrlab_reflect_wants_t (out))
    {
      const double *k0r = MD (plan, 0, M_KZ_RE), *k0i = MD (plan, 0, M_KZ_IM);
      const double *e0r = MD (plan, 0, M_E_RE), *e0i = MD (plan, 0, M_E_IM);
      const double *kbr = MD (plan, plan->bottom, M_KZ_RE), *kbi = MD (plan, plan->bottom, M_KZ_IM);
      const double *ebr = MD (plan, plan->bottom, M_E_RE), *ebi = MD (plan, plan->bottom, M_E_IM);
      const double *tsr = plan->pt[P_TS_RE], *tsi = plan->pt[P_TS_IM];
      const double *tpr = plan->pt[P_TP_RE], *tpi = plan->pt[P_TP_IM];

      for (gsize p = 0; p < n; p++)
        {
          /* Re(k/ε) = (k_re ε_re + k_im ε_im) / |ε|² */
          double f0 = k0r[p], fb = kbr[p];
          double g0 = (k0r[p] * e0r[p] + k0i[p] * e0i[p]) / (e0r[p] * e0r[p] + e0i[p] * e0i[p]);
          double gb = (kbr[p] * ebr[p] + kbi[p] * ebi[p]) / (ebr[p] * ebr[p] + ebi[p] * ebi[p]);
          double ts = f0 > 0.0 ? (tsr[p] * tsr[p] + tsi[p] * tsi[p]) * fb / f0 : 0.0;
          double tp = g0 > 0.0 ? (tpr[p] * tpr[p] + tpi[p] * tpi[p]) * gb / g0 : 0.0;
          gsize o = offset + p * stride;

          if (out->t_s)
            out->t_s[o] = ts;
          if (out->t_p)
            out->t_p[o] = tp;
          if (out->t)
            out->t[o] = ws * ts + wp * tp;
        }
    }
}

