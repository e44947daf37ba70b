/* xrlab-fn.h -- the function vocabulary of the model files and the scalar
 * time, profile and kernel functions (internal to the engine: the model
 * reader, the plan and the tests)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The vocabulary. Definitions (amplitude-normalised, as in trspecfit):
 *
 * Energy peaks, x the energy axis:
 *   Gauss[A,x0,SD]          A exp(-(x-x0)^2 / (2 SD^2))
 *   GaussAsym[A,x0,SD,ratio] Gauss with SD below x0 and SD*ratio from x0 on
 *   Lorentz[A,x0,W]         A / (1 + (2 (x-x0)/W)^2)              (W = FWHM)
 *   Voigt[A,x0,SD,W]        A Re w(z) / Re w(z0), z = (x-x0 + iW/2)/(SD sqrt2),
 *                           z0 = i W/(2 SD sqrt2), w the Faddeeva function
 *   GLS[A,x0,F,m]           A [(1-m) exp(-4 ln2 u^2) + m/(1+4u^2)], u = (x-x0)/F
 *   GLP[A,x0,F,m]           A exp(-4 ln2 (1-m) u^2) / (1 + 4 m u^2)
 *   DS[A,x0,F,alpha]        A cos(pi alpha/2 + (1-alpha) atan((x-x0)/F))
 *                             / (F^2 + (x-x0)^2)^((1-alpha)/2)
 * Backgrounds:
 *   Offset[y0]              y0
 *   LinBack[m,b,xStart,xStop]  b for x < xStart, m (x-xStart) + b up to xStop,
 *                           m (xStop-xStart) + b above
 *   Shirley[pShirley]       B_i = pShirley sum_{j>=i} S_j, S the sum of the peaks
 * Time functions, t the delay (0 before t0 except erfFun):
 *   stepFun[A,t0]           A
 *   linFun[m,t0]            m (t-t0)
 *   expFun[A,tau,t0]        A exp(-(t-t0)/tau)
 *   sinFun[A,f,phi,t0]      A sin(2 pi f (t-t0) + phi)
 *   sinDivX[A,f,t0]         A sin(x)/x, x = 2 pi f (t-t0)
 *   erfFun[A,SD,t0]         A/2 (1 + erf((t-t0)/(SD sqrt2)))
 *   sqrtFun[A,t0]           A sqrt(t-t0)
 * Kernels g(u), u = t_i - t_j:
 *   gaussCONV[SD]           exp(-u^2/(2 SD^2))
 *   expSymCONV[tau]         exp(-|u|/tau)
 *   expDecayCONV[tau]       exp(-u/tau) for u >= 0, else 0 (causal)
 *   expRiseCONV[tau]        exp(u/tau) for u <= 0, else 0 (anti-causal)
 *   boxCONV[width]          1 for |u| <= width/2, else 0
 * Profiles along the aux axis x:
 *   pExpDecay[A,tau]        A exp(-x/tau)
 *   pLinear[m,b]            m x + b
 *   pGauss[A,x0,SD]         A exp(-(x-x0)^2/(2 SD^2))
 * none{}                    an empty time model (a subcycle without dynamics)
 */
typedef enum {
  XRLAB_FN_GAUSS,
  XRLAB_FN_GAUSS_ASYM,
  XRLAB_FN_LORENTZ,
  XRLAB_FN_VOIGT,
  XRLAB_FN_GLS,
  XRLAB_FN_GLP,
  XRLAB_FN_DS,
  XRLAB_FN_OFFSET,
  XRLAB_FN_LINBACK,
  XRLAB_FN_SHIRLEY,
  XRLAB_FN_STEP,
  XRLAB_FN_LIN,
  XRLAB_FN_EXP,
  XRLAB_FN_SIN,
  XRLAB_FN_SINDIVX,
  XRLAB_FN_ERF,
  XRLAB_FN_SQRT,
  XRLAB_FN_GAUSSCONV,
  XRLAB_FN_EXPSYMCONV,
  XRLAB_FN_EXPDECAYCONV,
  XRLAB_FN_EXPRISECONV,
  XRLAB_FN_BOXCONV,
  XRLAB_FN_PEXPDECAY,
  XRLAB_FN_PLINEAR,
  XRLAB_FN_PGAUSS,
  XRLAB_FN_NONE,
  XRLAB_FN_COUNT
} XrlabFn;

typedef enum {
  XRLAB_FN_CLASS_PEAK,
  XRLAB_FN_CLASS_BACKGROUND,
  XRLAB_FN_CLASS_TIME,
  XRLAB_FN_CLASS_KERNEL,
  XRLAB_FN_CLASS_PROFILE,
  XRLAB_FN_CLASS_NONE,
} XrlabFnClass;

#define XRLAB_FN_MAX_PARAMS 4

typedef struct {
  const char *name;
  XrlabFnClass cls;
  guint n_params;
  const char *params[XRLAB_FN_MAX_PARAMS];
} XrlabFnInfo;

const XrlabFnInfo *xrlab_fn_info   (XrlabFn fn);
gboolean           xrlab_fn_lookup (const char *name, XrlabFn *fn);

/* "Gauss, GaussAsym, ..." (file order): the names of the functions of class
 * @a or @b, for messages. Free with g_free(). */
char *xrlab_fn_list_names  (XrlabFnClass a, XrlabFnClass b);

/* "A, x0, SD" (or "no parameters"): the parameters of @fn, for messages. */
char *xrlab_fn_list_params (XrlabFn fn);

/* ---- time functions, kernels, profiles ------------------------------------------ */

/* f(t; p) of a time function and, when @d is not NULL, d[q] = ∂f/∂p_q. */
double xrlab_time_fn (XrlabFn fn, double t, const double *p, double *d);

/* f(x; p) of a profile function and its partials. */
double xrlab_profile_fn (XrlabFn fn, double x, const double *p, double *d);

/* The kernel g(u; s) (s = SD, tau or width) and ∂g/∂s. */
double xrlab_kernel_g (XrlabFn fn, double u, double s, double *dg_ds);

/* The kernel's mass above @a, ∫_a^∞ g(u) du, and below @b, ∫_{-∞}^b g(u)
 * du, with their derivatives with respect to s. */
double xrlab_kernel_mass_above (XrlabFn fn, double a, double s, double *dm_ds);
double xrlab_kernel_mass_below (XrlabFn fn, double b, double s, double *dm_ds);

/* Lags u outside [*lo, *hi] give g(u) = 0 exactly in double precision. */
void   xrlab_kernel_support (XrlabFn fn, double s, double *lo, double *hi);

G_END_DECLS
