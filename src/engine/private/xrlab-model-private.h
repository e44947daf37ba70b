/* xrlab-model-private.h -- the parsed model, for the plan builder and the tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "xrlab-expr.h"
#include "xrlab-fn.h"
#include "xrlab-model.h"

G_BEGIN_DECLS

typedef struct _XrlabParam XrlabParam;
typedef struct _XrlabComponent XrlabComponent;
typedef struct _XrlabAttachment XrlabAttachment;

struct _XrlabParam {
  char *name;              /* full name */
  char *local;             /* name inside its attachment (expFun_01_tau); = name for energy */
  double value, min, max;
  gboolean vary;
  gboolean is_static;
  XrlabParamShare share;
  char *expr_text;         /* NULL unless defined by an expression */
  char *expr_full;         /* the same with full names (time, profile models), or NULL */
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

/* A model whose value is the parameter @param of @model with its time
 * dependence: one Offset component whose y0 is @param (same name, value,
 * bounds and vary), its time dependence attached. On one energy and the
 * delays of a trace, its plan is the trace p(t). Errors: no such parameter,
 * one without time dependence. */
XrlabModel *xrlab_model_new_trace (const XrlabModel *model, const char *param, GError **error);

/* Checks that every expression of @model names existing parameters and that
 * none depends on itself; resolves names that were left for later. */
gboolean xrlab_model_resolve (XrlabModel *model, GError **error);

G_END_DECLS
