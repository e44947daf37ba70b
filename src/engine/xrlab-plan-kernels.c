/* xrlab-plan-kernels.c -- the energy components of the plan, vectorised
 *
 * The loops over the energy axis are written so that the compiler
 * vectorises them (an exp that is plain arithmetic, no branches in the
 * loop bodies) and, with GCC on x86-64, compiled for AVX-512, AVX2+FMA and
 * the baseline, picked at load time. Formulas: xrlab-fn.h.
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

#include "xrlab-clones.h"

#define CLONES XRLAB_CLONES

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

/* 1/d for d >= 1 (the Lorentzian denominators): a single-precision
 * reciprocal (relative error below 6e-8) and two Newton steps, which square
 * the error twice: to rounding in double precision, at a fraction of a
 * vector division's cost. Beyond 1e30 the result is 1e-30, where it only
 * multiplies negligible values. */
INLINE double
rcp1 (double d)
{
  double dc = d < 1e30 ? d : 1e30;
  double r = (double) (1.0f / (float) dc);
  r = r * (2.0 - dc * r);
  return r * (2.0 - dc * r);
}

double
xrlab_fast_exp (double x)
{
  return fexp (x);
}

typedef double v8d __attribute__ ((vector_size (64)));
typedef long long v8l __attribute__ ((vector_size (64)));

/* unaligned loads and stores of 8 doubles (macros: no 64-byte vectors
 * cross a call even without inlining) */
#define ld8(p) __extension__ ({ v8d ld8_v_; memcpy (&ld8_v_, (p), sizeof ld8_v_); ld8_v_; })
#define st8(p, v) do { v8d st8_v_ = (v); memcpy ((p), &st8_v_, sizeof st8_v_); } while (0)

/* ---- the Gaussian factor on a uniform axis ------------------------------------------ */

/* out[start + dir j] = exp(c u_j^2), u_j = u + j step, for j < count, by
 * recurrence in 8 lanes: g_{j+8} = g_j R_j, R_{j+8} = R_j Q with
 * R_j = exp(c (16 u_j step + 64 step^2)) and Q = exp(128 c step^2), seeded
 * exactly every 256 points (rounding grows like 32^2/2 ulp at most). With
 * c <= 0 and u_0 the point nearest the centre, the factor only decreases,
 * so an underflow to 0 is final. Values below 1e-300 are returned as 0. */
INLINE void
gauss_sweep (double *restrict out, gsize start, int dir, gsize count, double u, double step,
             double c)
{
  const double Q = fexp (128.0 * c * step * step);
  const v8d tiny = { 1e-300, 1e-300, 1e-300, 1e-300, 1e-300, 1e-300, 1e-300, 1e-300 };

  for (gsize j0 = 0; j0 < count; j0 += 256)
    {
      gsize j1 = MIN (j0 + 256, count);
      v8d g, R;
      for (int l = 0; l < 8; l++)
        {
          double uj = u + (double) (j0 + l) * step;
          g[l] = fexp (c * uj * uj);
          R[l] = fexp (c * (16.0 * uj * step + 64.0 * step * step));
        }
      for (gsize jb = j0; jb < j1; jb += 8)
        {
          if (dir > 0 && jb + 8 <= j1)
            st8 (out + start + jb, g);
          else if (jb + 8 <= j1)
            {
              /* lanes 0..7 go to start - jb - 0 .. start - jb - 7: reversed */
#if defined(__clang__)
              st8 (out + start - jb - 7, __builtin_shufflevector (g, g, 7, 6, 5, 4, 3, 2, 1, 0));
#else
              const v8l rev = { 7, 6, 5, 4, 3, 2, 1, 0 };
              st8 (out + start - jb - 7, __builtin_shuffle (g, rev));
#endif
            }
          else
            for (gsize l = 0; l < 8 && jb + l < j1; l++)
              out[dir > 0 ? start + jb + l : start - jb - l] = g[l];
          g *= R;
          R *= Q;
          /* below 1e-300 the factor is 0 for every purpose here; flushing it
           * keeps the products out of the slow subnormal range */
          g = (v8d) ((v8l) g & (g >= tiny));
          R = (v8d) ((v8l) R & (R >= tiny));
        }
    }
}

/* out[i] = exp(c (u0 + i du)^2) for i < n, c <= 0: from the point nearest
 * the centre outward in both directions. */
INLINE void
gauss_factor (double u0, double du, gsize n, double c, double *restrict out)
{
  double ic = du != 0.0 ? -u0 / du : 0.0;
  gsize i_c = ic <= 0.0 ? 0 : ic >= (double) (n - 1) ? n - 1 : (gsize) (ic + 0.5);
  double uc = u0 + (double) i_c * du;

  gauss_sweep (out, i_c, +1, n - i_c, uc, du, c);
  if (i_c > 0)
    gauss_sweep (out, i_c - 1, -1, i_c, uc - du, -du, c);
}

/* Whether the recurrence applies: a uniform axis (dx != 0), a decreasing
 * factor, a finite step and start. */
#define RECUR_OK(dx, c, du, u0) \
  ((dx) != 0.0 && (c) <= 0.0 && isfinite (du) && isfinite (c) && isfinite (u0))

/* ---- value loops ------------------------------------------------------------- */

INLINE void
gauss_eval (const double *restrict x, gsize n, double dx, double A, double x0, double sd,
            double w, double *restrict acc, double *restrict tmp)
{
  const double c = -0.5 / (sd * sd), Aw = A * w;
  if (RECUR_OK (dx, c, dx, x[0] - x0))
    {
      gauss_factor (x[0] - x0, dx, n, c, tmp);
      for (gsize i = 0; i < n; i++)
        acc[i] += Aw * tmp[i];
      return;
    }
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
      acc[i] += Aw * rcp1 (1.0 + v * v);
    }
}

INLINE void
gls_eval (const double *restrict x, gsize n, double dx, double A, double x0, double F,
          double m, double w, double *restrict acc, double *restrict tmp)
{
  const double invF = 1.0 / F, Ag = A * w * (1.0 - m), Al = A * w * m;
  if (RECUR_OK (dx, -LN2x4, dx * invF, (x[0] - x0) * invF))
    {
      gauss_factor ((x[0] - x0) * invF, dx * invF, n, -LN2x4, tmp);
      for (gsize i = 0; i < n; i++)
        {
          double u = (x[i] - x0) * invF;
          acc[i] += Ag * tmp[i] + Al * rcp1 (1.0 + 4.0 * u * u);
        }
      return;
    }
  for (gsize i = 0; i < n; i++)
    {
      double u = (x[i] - x0) * invF, u2 = u * u;
      acc[i] += Ag * fexp (-LN2x4 * u2) + Al * rcp1 (1.0 + 4.0 * u2);
    }
}

INLINE void
glp_eval (const double *restrict x, gsize n, double dx, double A, double x0, double F,
          double m, double w, double *restrict acc, double *restrict tmp)
{
  const double invF = 1.0 / F, c = -LN2x4 * (1.0 - m), m4 = 4.0 * m, Aw = A * w;
  if (RECUR_OK (dx, c, dx * invF, (x[0] - x0) * invF))
    {
      gauss_factor ((x[0] - x0) * invF, dx * invF, n, c, tmp);
      for (gsize i = 0; i < n; i++)
        {
          double u = (x[i] - x0) * invF;
          acc[i] += Aw * tmp[i] * rcp1 (1.0 + m4 * u * u);
        }
      return;
    }
  for (gsize i = 0; i < n; i++)
    {
      double u = (x[i] - x0) * invF, u2 = u * u;
      acc[i] += Aw * fexp (c * u2) * rcp1 (1.0 + m4 * u2);
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
xrlab_op_eval (XrlabFn fn, const double *x, gsize n, double dx, const double *p, double w,
               double *acc, double *tmp)
{
  switch (fn)
    {
    case XRLAB_FN_GAUSS:
      gauss_eval (x, n, dx, p[0], p[1], p[2], w, acc, tmp);
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
      gls_eval (x, n, dx, p[0], p[1], p[2], p[3], w, acc, tmp);
      break;
    case XRLAB_FN_GLP:
      glp_eval (x, n, dx, p[0], p[1], p[2], p[3], w, acc, tmp);
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
gauss_grad (const double *restrict x, gsize n, double dx, double A, double x0, double sd,
            double *restrict val, double *restrict dA, double *restrict dx0,
            double *restrict dsd, double *restrict tmp)
{
  const double c = -0.5 / (sd * sd), isd = 1.0 / sd;
  gboolean recur = RECUR_OK (dx, c, dx, x[0] - x0);
  if (recur)
    gauss_factor (x[0] - x0, dx, n, c, tmp);
  for (gsize i = 0; i < n; i++)
    {
      double v = (x[i] - x0) * isd;
      double g = recur ? tmp[i] : fexp (c * (x[i] - x0) * (x[i] - x0));
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
      double L = rcp1 (1.0 + v * v);
      double AL2 = A * L * L;
      val[i] = A * L;
      dA[i] = L;
      dx0[i] = 4.0 * AL2 * v * iW;
      dW[i] = 2.0 * AL2 * v * v * iW;
    }
}

INLINE void
gls_grad (const double *restrict x, gsize n, double dx, double A, double x0, double F,
          double m, double *restrict val, double *restrict dA, double *restrict dx0,
          double *restrict dF, double *restrict dm, double *restrict tmp)
{
  const double invF = 1.0 / F;
  gboolean recur = RECUR_OK (dx, -LN2x4, dx * invF, (x[0] - x0) * invF);
  if (recur)
    gauss_factor ((x[0] - x0) * invF, dx * invF, n, -LN2x4, tmp);
  for (gsize i = 0; i < n; i++)
    {
      double u = (x[i] - x0) * invF, u2 = u * u;
      double G = recur ? tmp[i] : fexp (-LN2x4 * u2);
      double L = rcp1 (1.0 + 4.0 * u2);
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
glp_grad (const double *restrict x, gsize n, double dx, double A, double x0, double F,
          double m, double *restrict val, double *restrict dA, double *restrict dx0,
          double *restrict dF, double *restrict dm, double *restrict tmp)
{
  const double invF = 1.0 / F, c = LN2x4 * (1.0 - m), m4 = 4.0 * m;
  gboolean recur = RECUR_OK (dx, -c, dx * invF, (x[0] - x0) * invF);
  if (recur)
    gauss_factor ((x[0] - x0) * invF, dx * invF, n, -c, tmp);
  for (gsize i = 0; i < n; i++)
    {
      double u = (x[i] - x0) * invF, u2 = u * u;
      double G = recur ? tmp[i] : fexp (-c * u2);
      double L = rcp1 (1.0 + m4 * u2);
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
xrlab_op_grad (XrlabFn fn, const double *x, gsize n, double dx, const double *p, double *val,
               double *const *d, double *tmp)
{
  switch (fn)
    {
    case XRLAB_FN_GAUSS:
      gauss_grad (x, n, dx, p[0], p[1], p[2], val, d[0], d[1], d[2], tmp);
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
      gls_grad (x, n, dx, p[0], p[1], p[2], p[3], val, d[0], d[1], d[2], d[3], tmp);
      break;
    case XRLAB_FN_GLP:
      glp_grad (x, n, dx, p[0], p[1], p[2], p[3], val, d[0], d[1], d[2], d[3], tmp);
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

/* Suffix sums in eight interleaved chunks (independent chains, so the adds
 * do not wait on one another); then each chunk's carry from the chunks above
 * is added in a second, vectorised pass that may also combine the result:
 * out[i] = a[i] + b[i] + p * cum[i] (@a, @b may be NULL, p = 1 plain). */
#define N_CHAINS 8

INLINE void
suffix_sums (const double *restrict in, gsize n, double *restrict local, double *carry)
{
  gsize L = n / N_CHAINS, last = n - (N_CHAINS - 1) * L;
  double acc[N_CHAINS] = { 0 };

  for (gsize k = 0; k < L; k++)
    for (int c = 0; c < N_CHAINS; c++)
      {
        gsize i = (c == N_CHAINS - 1 ? n : (gsize) (c + 1) * L) - 1 - k;
        acc[c] += in[i];
        local[i] = acc[c];
      }
  for (gsize k = L; k < last; k++)
    {
      gsize i = n - 1 - k;
      acc[N_CHAINS - 1] += in[i];
      local[i] = acc[N_CHAINS - 1];
    }
  /* carry[c]: the sum of all chunks above chunk c */
  carry[N_CHAINS - 1] = 0.0;
  for (int c = N_CHAINS - 1; c > 0; c--)
    carry[c - 1] = carry[c] + acc[c];
}

CLONES void
xrlab_revcumsum (const double *in, gsize n, double *out)
{
  double carry[N_CHAINS];
  gsize L = n / N_CHAINS;

  if (n < 8 * N_CHAINS)
    {
      double acc = 0.0;
      for (gsize i = n; i-- > 0;)
        {
          acc += in[i];
          out[i] = acc;
        }
      return;
    }
  suffix_sums (in, n, out, carry);
  for (int c = 0; c < N_CHAINS - 1; c++)
    for (gsize i = (gsize) c * L; i < (gsize) (c + 1) * L; i++)
      out[i] += carry[c];
}

CLONES void
xrlab_shirley_combine (const double *peak, const double *other, double p, gsize n,
                       double *tmp, double *out)
{
  double carry[N_CHAINS];
  gsize L = n / N_CHAINS;

  if (n < 8 * N_CHAINS)
    {
      xrlab_revcumsum (peak, n, tmp);
      for (gsize i = 0; i < n; i++)
        out[i] = other[i] + peak[i] + p * tmp[i];
      return;
    }
  suffix_sums (peak, n, tmp, carry);
  for (int c = 0; c < N_CHAINS; c++)
    {
      gsize i0 = (gsize) c * L, i1 = c == N_CHAINS - 1 ? n : (gsize) (c + 1) * L;
      double pc = p * carry[c];
      for (gsize i = i0; i < i1; i++)
        out[i] = other[i] + peak[i] + (p * tmp[i] + pc);
    }
}

CLONES void
xrlab_axpy (double a, const double *x, double *y, gsize n)
{
  for (gsize i = 0; i < n; i++)
    y[i] += a * x[i];
}

/* ---- kernels on the delay axis ------------------------------------------------------- */

CLONES void
xrlab_kernel_row (XrlabFn fn, double ti, const double *restrict t, const double *restrict w,
                  gsize m, double s, double *restrict row, double *restrict drow)
{
  const double is = 1.0 / s, is2 = is * is;

  switch (fn)
    {
    case XRLAB_FN_GAUSSCONV:
      for (gsize j = 0; j < m; j++)
        {
          double u = ti - t[j];
          double g = fexp (-0.5 * u * u * is2);
          row[j] = g * w[j];
          if (drow)
            drow[j] = g * u * u * is2 * is * w[j];
        }
      break;
    case XRLAB_FN_EXPSYMCONV:
    case XRLAB_FN_EXPDECAYCONV:
    case XRLAB_FN_EXPRISECONV:
      for (gsize j = 0; j < m; j++)
        {
          double u = ti - t[j], a = fabs (u);
          double g = fexp (-a * is);
          if (fn == XRLAB_FN_EXPDECAYCONV)
            g = u < 0.0 ? 0.0 : g;
          else if (fn == XRLAB_FN_EXPRISECONV)
            g = u > 0.0 ? 0.0 : g;
          row[j] = g * w[j];
          if (drow)
            drow[j] = g * a * is2 * w[j];
        }
      break;
    case XRLAB_FN_BOXCONV:
      for (gsize j = 0; j < m; j++)
        {
          double u = ti - t[j];
          row[j] = fabs (u) <= s / 2.0 ? w[j] : 0.0;
          if (drow)
            drow[j] = 0.0;
        }
      break;
    default:
      g_assert_not_reached ();
    }
}

/* Sums with eight partial sums, so that they vectorise. */
CLONES double
xrlab_sum (const double *x, gsize n)
{
  double acc[8] = { 0 }, s = 0.0;
  gsize i = 0;

  for (; i + 8 <= n; i += 8)
    for (int q = 0; q < 8; q++)
      acc[q] += x[i + q];
  for (; i < n; i++)
    s += x[i];
  return s + ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
}

CLONES double
xrlab_dot (const double *x, const double *y, gsize n)
{
  double acc[8] = { 0 }, s = 0.0;
  gsize i = 0;

  for (; i + 8 <= n; i += 8)
    for (int q = 0; q < 8; q++)
      acc[q] += x[i + q] * y[i + q];
  for (; i < n; i++)
    s += x[i] * y[i];
  return s + ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
}

CLONES void
xrlab_mul (const double *restrict a, const double *restrict b, gsize n, double *restrict out)
{
  for (gsize i = 0; i < n; i++)
    out[i] = a[i] * b[i];
}

CLONES void
xrlab_scale (double a, double *x, gsize n)
{
  for (gsize i = 0; i < n; i++)
    x[i] *= a;
}

/* acc[i] += x[i] + p * sum_{j >= i} x[j] */
CLONES void
xrlab_shirley_accumulate (const double *x, double p, gsize n, double *tmp, double *acc)
{
  xrlab_revcumsum (x, n, tmp);
  for (gsize i = 0; i < n; i++)
    acc[i] += x[i] + p * tmp[i];
}

/* out[e * n_cols + k] = cols[k * n + e]: column-major to row-major, in
 * tiles of 8 rows so that the reads stay in a few cache lines. */
CLONES void
xrlab_transpose (const double *restrict cols, gsize n_cols, gsize n, double *restrict out)
{
  gsize e = 0;

  for (; e + 8 <= n; e += 8)
    for (gsize k = 0; k < n_cols; k++)
      {
        const double *c = cols + k * n + e;
        double *o = out + e * n_cols + k;
        for (int q = 0; q < 8; q++)
          o[q * n_cols] = c[q];
      }
  for (; e < n; e++)
    for (gsize k = 0; k < n_cols; k++)
      out[e * n_cols + k] = cols[k * n + e];
}

/* ---- one row of the Jacobian, row-major ----------------------------------------------- */

/* See jac_row in xrlab-plan-eval.c. Vectors over θ are nthp long (a multiple of 8),
 * handled in blocks of 8 (one or a few vector registers, written with GCC's
 * vector extension so that every clone gets its widest registers). */
#define MAX_BLOCK_PARTIALS 16

/* One block of 8 θ columns over all energies, from the high-index end. */
INLINE void
combine_block (gsize n, const double *const *dp, const v8d *cv, gsize np,
               const double *const *dpo, const v8d *co, gsize npo, const double *cum,
               gboolean shirley, double ps, const double *sh, double *dst, gsize stride,
               gboolean add)
{
  v8d acc = { 0 }, shv = ld8 (sh), zero = { 0 };

  for (gsize e = n; e-- > 0;)
    {
      v8d pk = zero, r;
      for (gsize i = 0; i < np; i++)
        pk += dp[i][e] * cv[i];
      r = add ? ld8 (dst + e * stride) + pk : pk;
      if (shirley)
        {
          acc += pk;
          r += ps * acc;
          if (!add)
            r += cum[e] * shv;
        }
      for (gsize i = 0; i < npo; i++)
        r += dpo[i][e] * co[i];
      st8 (dst + e * stride, r);
    }
}

CLONES void
xrlab_jac_row_combine (gsize n, gsize nth, gsize nthp, const double *const *peak_d,
                       const double *const *peak_c, const guint32 *peak_off,
                       const double *const *other_d, const double *const *other_c,
                       const guint32 *other_off, const double *restrict peak,
                       const double *restrict other, gboolean shirley, double ps,
                       const double *restrict sh, double *restrict cum,
                       double *restrict tmp, double *restrict jac, double *restrict out)
{
  const double *dp[MAX_BLOCK_PARTIALS], *dpo[MAX_BLOCK_PARTIALS];
  v8d cv[MAX_BLOCK_PARTIALS], co[MAX_BLOCK_PARTIALS];

  if (shirley)
    xrlab_revcumsum (peak, n, cum);
  for (gsize k0 = 0, b = 0; k0 < nth; k0 += 8, b++)
    {
      gboolean full = k0 + 8 <= nth;
      guint32 i0 = peak_off[b], i1 = peak_off[b + 1];
      guint32 o0 = other_off[b], o1 = other_off[b + 1];
      double *dst = full ? jac + k0 : tmp;
      gsize stride = full ? nth : 8;

      /* in groups of as many partials as stay in registers; the first group
       * writes, the others add */
      for (guint32 g = 0; g == 0 || i0 + g < i1 || o0 + g < o1; g += MAX_BLOCK_PARTIALS)
        {
          gsize np = 0, npo = 0;
          for (guint32 i = i0 + g; i < i1 && np < MAX_BLOCK_PARTIALS; i++, np++)
            {
              dp[np] = peak_d[i];
              cv[np] = ld8 (peak_c[i] + k0);
            }
          for (guint32 i = o0 + g; i < o1 && npo < MAX_BLOCK_PARTIALS; i++, npo++)
            {
              dpo[npo] = other_d[i];
              co[npo] = ld8 (other_c[i] + k0);
            }
          combine_block (n, dp, cv, np, dpo, co, npo, cum, shirley, ps, sh + k0, dst, stride,
                         g > 0);
        }
      if (!full)
        {
          gsize rem = nth - k0;   /* 1 .. 7 */
          for (gsize e = 0; e < n; e++)
            {
              const double *src = tmp + e * 8;
              double *d = jac + e * nth + k0;
              switch (rem)
                {
                case 7: d[6] = src[6]; G_GNUC_FALLTHROUGH;
                case 6: d[5] = src[5]; G_GNUC_FALLTHROUGH;
                case 5: d[4] = src[4]; G_GNUC_FALLTHROUGH;
                case 4: d[3] = src[3]; G_GNUC_FALLTHROUGH;
                case 3: d[2] = src[2]; G_GNUC_FALLTHROUGH;
                case 2: d[1] = src[1]; G_GNUC_FALLTHROUGH;
                default: d[0] = src[0];
                }
            }
        }
    }
  if (out)
    for (gsize e = 0; e < n; e++)
      out[e] = other[e] + peak[e] + (shirley ? ps * cum[e] : 0.0);
}
