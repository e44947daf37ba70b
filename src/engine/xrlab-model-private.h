/* xrlab-model-private.h -- the parsed model, for the plan builder and the tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "xrlab-expr.h"
#include "xrlab-model.h"

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

typedef struct _XrlabParam XrlabParam;
typedef struct _XrlabComponent XrlabComponent;
typedef struct _XrlabAttachment XrlabAttachment;

struct _XrlabParam {
  char *name;              /* full name */
  char *local;             /* name inside its attachment (expFun_01_tau); = name for energy */
  double value, min, max;
  gboolean vary;
  gboolean is_static;
  char *expr_text;         /* NULL unless defined by an expression */
  XrlabExpr *expr;
  XrlabParam **refs;       /* expr refs; NULL entries are resolved when the plan is built */
  XrlabParamRole role;
  XrlabComponent *comp;    /* the component it belongs to */
  XrlabParam *host;        /* dynamics/profile parameters: the parameter they describe */
  XrlabAttachment *dyn;    /* energy parameters: their time dependence, or NULL */
  XrlabAttachment *profile;/* energy parameters: their profile, or NULL */
  guint index;             /* position in XrlabModel.all */
  char *file;
  int line;
  char *model_name;        /* the model (of the file) that defined it */
};

struct _XrlabComponent {
  XrlabFn fn;
  char *name;              /* GLP_01, Offset, expFun_02, gaussCONV */
  char *model_name;
  char *file;
  int line;
  int subcycle;            /* time components: 0 = whole axis, k >= 1 = subcycle k */
  guint n_params;
  XrlabParam *params[XRLAB_FN_MAX_PARAMS];  /* in the function's order */
};

struct _XrlabAttachment {
  gboolean is_profile;
  XrlabParam *host;
  char *file;
  guint n_models;
  char **models;           /* names of the time / profile models */
  double frequency;        /* > 0 with subcycles */
  guint n_sub;             /* number of subcycles N = n_models - 1 */
  GPtrArray *comps;        /* XrlabComponent*, listed order, all models */
  GPtrArray *params;       /* XrlabParam*, in order */
};

struct _XrlabModel {
  char *name;
  char *file;
  GPtrArray *comps;        /* XrlabComponent*: the energy components */
  GPtrArray *eparams;      /* XrlabParam*: energy parameters, model order */
  GPtrArray *dyns;         /* XrlabAttachment*: time dependences */
  GPtrArray *profiles;     /* XrlabAttachment*: profiles */
  GPtrArray *all;          /* XrlabParam*: every parameter, model order (see xrlab-model.h) */
  GHashTable *by_name;     /* full name -> XrlabParam* */
};

/* The name of a parameter an expression refers to, as written. */
static inline const char *
xrlab_param_ref_name (const XrlabParam *p, guint i)
{
  return xrlab_expr_ref (p->expr, i);
}

/* Checks that every expression of @model names existing parameters and that
 * none depends on itself; resolves names that were left for later. */
gboolean xrlab_model_resolve (XrlabModel *model, GError **error);

G_END_DECLS
