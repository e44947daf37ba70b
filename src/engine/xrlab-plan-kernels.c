/* xrlab-plan-kernels.c -- the energy components of the plan, vectorised
 *
 * The loops over the energy axis are written so that the compiler
 * vectorises them (an exp that is plain arithmetic, no branches in the
 * loop bodies) and, with GCC on x86-64, compiled for AVX-512, AVX2+FMA and
 * the baseline, picked at load time. Formulas: xrlab-model-private.h.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize ("O3", "no-trapping-math")
#endif

#include "config.h"

#include "xrlab-plan-private.h"

#include <complex.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include <cerf.h>

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && __GNUC__ >= 11 \
    && defined(__ELF__)
# define CLONES __attribute__ ((target_clones ("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
# define CLONES
#endif

#define INLINE static inline __attribute__ ((always_inline))

#define LN2x4 2.7725887222397812377   /* 4 ln 2 */

INLINE double
as_double (uint64_t u)
{
  double d;
  memcpy (&d, &u, sizeof d);
  return d;
}

INLINE uint64_t
as_u64 (double d)
{
  uint64_t u;
  memcpy (&u, &d, sizeof u);
  return u;
}

/* exp(x): x = k ln2 + r with |r| <= ln2/2 (k by the 1.5*2^52 rounding
 * trick, ln2 split in two so that k*ln2_hi is exact), exp(r) by its Taylor
 * polynomial of degree 13 (truncation below 5e-18), times 2^k built in the
 * exponent bits. Relative error about one ulp; 0 below -708, where the
 * result would be subnormal. */
INLINE double
fexp (double x)
{
  const double shift = 0x1.8p52;
  double xc = x < -708.0 ? -708.0 : (x > 709.0 ? 709.0 : x);
  double kd = xc * 0x1.71547652b82fep0 + shift;
  uint64_t ki = as_u64 (kd);
  double r, p, s;

  kd -= shift;
  r = xc - kd * 0x1.62e42fee00000p-1 - kd * 0x1.a39ef35793c76p-33;
  p = 1.0 / 6227020800.0;
  p = p * r + 1.0 / 479001600.0;
  p = p * r + 1.0 / 39916800.0;
  p = p * r + 1.0 / 3628800.0;
  p = p * r + 1.0 / 362880.0;
  p = p * r + 1.0 / 40320.0;
  p = p * r + 1.0 / 5040.0;
  p = p * r + 1.0 / 720.0;
  p = p * r + 1.0 / 120.0;
  p = p * r + 1.0 / 24.0;
  p = p * r + 1.0 / 6.0;
  p = p * r + 0.5;
  p = p * r + 1.0;
  p = p * r + 1.0;
  s = as_double ((ki + 1023) << 52);
  return x < -708.0 ? 0.0 : p * s;
}

double
xrlab_fast_exp (double x)
{
  return fexp (x);
}

/* ---- value loops ------------------------------------------------------------- */

INLINE void
gauss_eval (const double *restrict x, gsize n, double A, double x0, double sd,
            double w, double *restrict acc)
{
  const double c = -0.5 / (sd * sd), Aw = A * w;
  for (gsize i = 0; i < n; i++)
    {
      double v = x[i] - x0;
      acc[i] += Aw * fexp (c * v * v);
    }
}

INLINE void
gauss_asym_eval (const double *restrict x, gsize n, double A, double x0, double sd,
                 double ratio, double w, double *restrict acc)
{
  const double sd2 = sd * ratio;
  const double cl = -0.5 / (sd * sd), cr = -0.5 / (sd2 * sd2), Aw = A * w;
  for (gsize i = 0; i < n; i++)
    {
      double v = x[i] - x0;
      double c = x[i] < x0 ? cl : cr;
      acc[i] += Aw * fexp (c * v * v);
    }
}

INLINE void
lorentz_eval (const double *restrict x, gsize n, double A, double x0, double W,
              double w, double *restrict acc)
{
  const double s = 2.0 / W, Aw = A * w;
  for (gsize i = 0; i < n; i++)
    {
      double v = (x[i] - x0) * s;
      acc[i] += Aw / (1.0 + v * v);
    }
}

INLINE void
gls_eval (const double *restrict x, gsize n, double A, double x0, double F, double m,
          double w, double *restrict acc)
{
  const double invF = 1.0 / F, Ag = A * w * (1.0 - m), Al = A * w * m;
  for (gsize i = 0; i < n; i++)
    {
      double u = (x[i] - x0) * invF, u2 = u * u;
      acc[i] += Ag * fexp (-LN2x4 * u2) + Al / (1.0 + 4.0 * u2);
    }
}

INLINE void
glp_eval (const double *restrict x, gsize n, double A, double x0, double F, double m,
          double w, double *restrict acc)
{
  const double invF = 1.0 / F, c = -LN2x4 * (1.0 - m), m4 = 4.0 * m, Aw = A * w;
  for (gsize i = 0; i < n; i++)
    {
      double u = (x[i] - x0) * invF, u2 = u * u;
      acc[i] += Aw * fexp (c * u2) / (1.0 + m4 * u2);
    }
}

static void
voigt_eval (const double *x, gsize n, double A, double x0, double sd, double W, double w,
            double *acc)
{
  const double s = 1.0 / (sd * M_SQRT2), y = 0.5 * W * s;
  const double scale = A * w / erfcx (y);    /* Re w(iy) = erfcx(y) */
  for (gsize i = 0; i < n; i++)
    acc[i] += scale * re_w_of_z ((x[i] - x0) * s, y);
}

static void
ds_eval (const double *x, gsize n, double A, double x0, double F, double alpha, double w,
         double *acc)
{
  const double h = -0.5 * (1.0 - alpha), phase = M_PI * alpha / 2.0, Aw = A * w;
  for (gsize i = 0; i < n; i++)
    {
      double dx = x[i] - x0;
      acc[i] += Aw * cos (phase + (1.0 - alpha) * atan (dx / F)) * pow (F * F + dx * dx, h);
    }
}

INLINE void
linback_eval (const double *restrict x, gsize n, double m, double b, double xs, double xe,
              double w, double *restrict acc)
{
  const double top = m * (xe - xs) + b;
  for (gsize i = 0; i < n; i++)
    {
      double y = m * (x[i] - xs) + b;
      y = x[i] < xs ? b : (x[i] > xe ? top : y);
      acc[i] += w * y;
    }
}

CLONES void
xrlab_op_eval (XrlabFn fn, const double *x, gsize n, const double *p, double w, double *acc)
{
  switch (fn)
    {
    case XRLAB_FN_GAUSS:
      gauss_eval (x, n, p[0], p[1], p[2], w, acc);
      break;
    case XRLAB_FN_GAUSS_ASYM:
      gauss_asym_eval (x, n, p[0], p[1], p[2], p[3], w, acc);
      break;
    case XRLAB_FN_LORENTZ:
      lorentz_eval (x, n, p[0], p[1], p[2], w, acc);
      break;
    case XRLAB_FN_VOIGT:
      voigt_eval (x, n, p[0], p[1], p[2], p[3], w, acc);
      break;
    case XRLAB_FN_GLS:
      gls_eval (x, n, p[0], p[1], p[2], p[3], w, acc);
      break;
    case XRLAB_FN_GLP:
      glp_eval (x, n, p[0], p[1], p[2], p[3], w, acc);
      break;
    case XRLAB_FN_DS:
      ds_eval (x, n, p[0], p[1], p[2], p[3], w, acc);
      break;
    case XRLAB_FN_OFFSET:
      for (gsize i = 0; i < n; i++)
        acc[i] += w * p[0];
      break;
    case XRLAB_FN_LINBACK:
      linback_eval (x, n, p[0], p[1], p[2], p[3], w, acc);
      break;
    default:
      g_assert_not_reached ();
    }
}

/* ---- value and partials ----------------------------------------------------------- */

INLINE void
gauss_grad (const double *restrict x, gsize n, double A, double x0, double sd,
            double *restrict val, double *restrict dA, double *restrict dx0,
            double *restrict dsd)
{
  const double c = -0.5 / (sd * sd), isd = 1.0 / sd;
  for (gsize i = 0; i < n; i++)
    {
      double v = (x[i] - x0) * isd;
      double g = fexp (c * (x[i] - x0) * (x[i] - x0));
      double V = A * g;
      val[i] = V;
      dA[i] = g;
      dx0[i] = V * v * isd;
      dsd[i] = V * v * v * isd;
    }
}

INLINE void
gauss_asym_grad (const double *restrict x, gsize n, double A, double x0, double sd,
                 double ratio, double *restrict val, double *restrict dA,
                 double *restrict dx0, double *restrict dsd, double *restrict dratio)
{
  const double isd = 1.0 / sd, isd2 = 1.0 / (sd * ratio), iratio = 1.0 / ratio;
  for (gsize i = 0; i < n; i++)
    {
      int left = x[i] < x0;
      double is = left ? isd : isd2;
      double v = (x[i] - x0) * is;
      double V = A * fexp (-0.5 * v * v);
      val[i] = V;
      dA[i] = V / A;
      dx0[i] = V * v * is;
      dsd[i] = V * v * v * isd;
      dratio[i] = left ? 0.0 : V * v * v * iratio;
    }
}

INLINE void
lorentz_grad (const double *restrict x, gsize n, double A, double x0, double W,
              double *restrict val, double *restrict dA, double *restrict dx0,
              double *restrict dW)
{
  const double s = 2.0 / W, iW = 1.0 / W;
  for (gsize i = 0; i < n; i++)
    {
      double v = (x[i] - x0) * s;
      double L = 1.0 / (1.0 + v * v);
      double AL2 = A * L * L;
      val[i] = A * L;
      dA[i] = L;
      dx0[i] = 4.0 * AL2 * v * iW;
      dW[i] = 2.0 * AL2 * v * v * iW;
    }
}

INLINE void
gls_grad (const double *restrict x, gsize n, double A, double x0, double F, double m,
          double *restrict val, double *restrict dA, double *restrict dx0,
          double *restrict dF, double *restrict dm)
{
  const double invF = 1.0 / F;
  for (gsize i = 0; i < n; i++)
    {
      double u = (x[i] - x0) * invF, u2 = u * u;
      double G = fexp (-LN2x4 * u2);
      double L = 1.0 / (1.0 + 4.0 * u2);
      double shape = (1.0 - m) * G + m * L;
      double dVdu = A * ((1.0 - m) * G * (-2.0 * LN2x4 * u) - 8.0 * m * u * L * L);
      val[i] = A * shape;
      dA[i] = shape;
      dx0[i] = -dVdu * invF;
      dF[i] = -dVdu * u * invF;
      dm[i] = A * (L - G);
    }
}

INLINE void
glp_grad (const double *restrict x, gsize n, double A, double x0, double F, double m,
          double *restrict val, double *restrict dA, double *restrict dx0,
          double *restrict dF, double *restrict dm)
{
  const double invF = 1.0 / F, c = LN2x4 * (1.0 - m), m4 = 4.0 * m;
  for (gsize i = 0; i < n; i++)
    {
      double u = (x[i] - x0) * invF, u2 = u * u;
      double G = fexp (-c * u2);
      double L = 1.0 / (1.0 + m4 * u2);
      double GL = G * L;
      double V = A * GL;
      /* minus d ln V / du */
      double g = 2.0 * c * u + 2.0 * m4 * u * L;
      val[i] = V;
      dA[i] = GL;
      dx0[i] = V * g * invF;
      dF[i] = V * g * u * invF;
      dm[i] = V * (LN2x4 * u2 - 4.0 * u2 * L);
    }
}

static void
voigt_grad (const double *x, gsize n, double A, double x0, double sd, double W,
            double *val, double *dA, double *dx0, double *dsd, double *dW)
{
  const double s = 1.0 / (sd * M_SQRT2);       /* z = (x - x0 + iW/2) s */
  const double y = 0.5 * W * s;
  const double w0 = erfcx (y);                 /* Re w(iy) */
  const double dw0_dy = 2.0 * y * w0 - M_2_SQRTPI;
  const double dw0_dW = dw0_dy * 0.5 * s;
  const double dw0_dsd = dw0_dy * (-y / sd);
  const double iw0 = 1.0 / w0;

  for (gsize i = 0; i < n; i++)
    {
      double complex z = (x[i] - x0) * s + I * y;
      double complex w = w_of_z (z);
      double complex dw = -2.0 * z * w + I * M_2_SQRTPI;     /* w'(z) */
      double rw = creal (w);
      double V = A * rw * iw0;
      /* ∂z/∂x0 = -s, ∂z/∂W = i s/2, ∂z/∂sd = -z/sd */
      double drw_dx0 = -creal (dw) * s;
      double drw_dW = creal (dw * I) * 0.5 * s;
      double drw_dsd = -creal (dw * z) / sd;
      val[i] = V;
      dA[i] = rw * iw0;
      dx0[i] = A * drw_dx0 * iw0;
      dW[i] = A * (drw_dW - rw * iw0 * dw0_dW) * iw0;
      dsd[i] = A * (drw_dsd - rw * iw0 * dw0_dsd) * iw0;
    }
}

static void
ds_grad (const double *x, gsize n, double A, double x0, double F, double alpha,
         double *val, double *dA, double *dx0, double *dF, double *dalpha)
{
  const double a1 = 1.0 - alpha;
  for (gsize i = 0; i < n; i++)
    {
      double dx = x[i] - x0;
      double D = F * F + dx * dx;
      double at = atan (dx / F);
      double phi = M_PI * alpha / 2.0 + a1 * at;
      double L = pow (D, -0.5 * a1);
      double c = cos (phi), sn = sin (phi);
      double V = A * c * L;
      /* ∂/∂dx, ∂/∂F, ∂/∂alpha of phi and ln L */
      double dphi_ddx = a1 * F / D, dlnL_ddx = -a1 * dx / D;
      double dphi_dF = -a1 * dx / D, dlnL_dF = -a1 * F / D;
      double dphi_da = M_PI / 2.0 - at, dlnL_da = 0.5 * log (D);
      val[i] = V;
      dA[i] = c * L;
      dx0[i] = -A * L * (-sn * dphi_ddx + c * dlnL_ddx);
      dF[i] = A * L * (-sn * dphi_dF + c * dlnL_dF);
      dalpha[i] = A * L * (-sn * dphi_da + c * dlnL_da);
    }
}

INLINE void
linback_grad (const double *restrict x, gsize n, double m, double b, double xs,
              double xe, double *restrict val, double *restrict dm, double *restrict db,
              double *restrict dxs, double *restrict dxe)
{
  const double top = m * (xe - xs) + b;
  for (gsize i = 0; i < n; i++)
    {
      int lo = x[i] < xs, hi = x[i] > xe;
      double y = m * (x[i] - xs) + b;
      val[i] = lo ? b : (hi ? top : y);
      dm[i] = lo ? 0.0 : (hi ? xe - xs : x[i] - xs);
      db[i] = 1.0;
      dxs[i] = lo ? 0.0 : -m;
      dxe[i] = hi ? m : 0.0;
    }
}

CLONES void
xrlab_op_grad (XrlabFn fn, const double *x, gsize n, const double *p, double *val,
               double *const *d)
{
  switch (fn)
    {
    case XRLAB_FN_GAUSS:
      gauss_grad (x, n, p[0], p[1], p[2], val, d[0], d[1], d[2]);
      break;
    case XRLAB_FN_GAUSS_ASYM:
      gauss_asym_grad (x, n, p[0], p[1], p[2], p[3], val, d[0], d[1], d[2], d[3]);
      break;
    case XRLAB_FN_LORENTZ:
      lorentz_grad (x, n, p[0], p[1], p[2], val, d[0], d[1], d[2]);
      break;
    case XRLAB_FN_VOIGT:
      voigt_grad (x, n, p[0], p[1], p[2], p[3], val, d[0], d[1], d[2], d[3]);
      break;
    case XRLAB_FN_GLS:
      gls_grad (x, n, p[0], p[1], p[2], p[3], val, d[0], d[1], d[2], d[3]);
      break;
    case XRLAB_FN_GLP:
      glp_grad (x, n, p[0], p[1], p[2], p[3], val, d[0], d[1], d[2], d[3]);
      break;
    case XRLAB_FN_DS:
      ds_grad (x, n, p[0], p[1], p[2], p[3], val, d[0], d[1], d[2], d[3]);
      break;
    case XRLAB_FN_OFFSET:
      for (gsize i = 0; i < n; i++)
        {
          val[i] = p[0];
          d[0][i] = 1.0;
        }
      break;
    case XRLAB_FN_LINBACK:
      linback_grad (x, n, p[0], p[1], p[2], p[3], val, d[0], d[1], d[2], d[3]);
      break;
    default:
      g_assert_not_reached ();
    }
}

/* ---- sums ------------------------------------------------------------------------ */

/* Suffix sums in four interleaved chunks (independent chains, so the adds do
 * not wait on one another), then each chunk's carry from the chunks above. */
CLONES void
xrlab_revcumsum (const double *in, gsize n, double *out)
{
  double acc0 = 0.0, acc1 = 0.0, acc2 = 0.0, acc3 = 0.0, carry;
  gsize L, L3;

  if (n < 64)
    {
      double acc = 0.0;
      for (gsize i = n; i-- > 0;)
        {
          acc += in[i];
          out[i] = acc;
        }
      return;
    }
  L = n / 4;            /* chunks 0..2 have L elements, chunk 3 the rest (>= L) */
  L3 = n - 3 * L;
  for (gsize k = 0; k < L; k++)
    {
      gsize i0 = L - 1 - k, i1 = 2 * L - 1 - k, i2 = 3 * L - 1 - k, i3 = n - 1 - k;
      acc0 += in[i0];
      acc1 += in[i1];
      acc2 += in[i2];
      acc3 += in[i3];
      out[i0] = acc0;
      out[i1] = acc1;
      out[i2] = acc2;
      out[i3] = acc3;
    }
  for (gsize k = L; k < L3; k++)
    {
      gsize i3 = n - 1 - k;
      acc3 += in[i3];
      out[i3] = acc3;
    }
  carry = acc3;
  for (gsize i = 2 * L; i < 3 * L; i++)
    out[i] += carry;
  carry += acc2;
  for (gsize i = L; i < 2 * L; i++)
    out[i] += carry;
  carry += acc1;
  for (gsize i = 0; i < L; i++)
    out[i] += carry;
}

CLONES void
xrlab_shirley_combine (const double *peak, const double *other, double p, gsize n,
                       double *tmp, double *out)
{
  xrlab_revcumsum (peak, n, tmp);
  for (gsize i = 0; i < n; i++)
    out[i] = other[i] + peak[i] + p * tmp[i];
}

CLONES void
xrlab_axpy (double a, const double *x, double *y, gsize n)
{
  for (gsize i = 0; i < n; i++)
    y[i] += a * x[i];
}
