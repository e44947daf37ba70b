/* xrlab-model.h -- spectral models from trspecfit-format model files
 *
 * A model file (YAML) holds named models. Each model is an ordered list of
 * components, each component a function with its parameters:
 *
 *   base:
 *     Offset:  {y0: [50, True, 0, 500]}
 *     Shirley: {pShirley: [4.0E-4, True, 1.0E-9, 1.0]}
 *     GLP:     {A: [300, True, 0, 1000], x0: [84.1, True, 82, 88], F: [1.0, True, 0.5, 2.5], m: [0.3, True, 0, 1]}
 *     GLP:     {A: ["3/4*GLP_01_A"], x0: ["GLP_01_x0 + 3.67"], F: ["GLP_01_F"], m: ["GLP_01_m"]}
 *
 * A parameter is [value, vary, min, max], [value, vary] (unbounded) or
 * ["expression"] (see xrlab-expr.h); vary is True, False, static (fixed,
 * never freed by a fitting workflow, and set from the baseline result in
 * the stages after a baseline), project or file (both free; in a joint fit
 * of several files, xrlab-project.h, a project parameter has one value for
 * all files and a file parameter one value per file; a single file's fit
 * takes both as True, like trspecfit). Block and flow style both
 * work; order matters and a component may repeat. Repeated peaks and time,
 * profile functions are numbered GLP_01, GLP_02, ...; backgrounds (Offset,
 * LinBack, Shirley) and kernels (*CONV) are not. A parameter's full name is
 * {component}_{parameter}: GLP_01_x0, Shirley_pShirley.
 *
 * Time dependence: a time model (from the same or another file) attached to
 * one parameter of the energy model, like trspecfit's
 * add_time_dependence (model, "GLP_01_x0", file, "MonoExpIRF"). Its
 * parameters are named on from the parameter: GLP_01_x0_expFun_01_tau,
 * GLP_01_x0_gaussCONV_SD. The parameter then is
 *
 *   p(t) = K_n ... K_1 [p + sum_k m_k(t) f_k(tau_k(t))]
 *
 * with the time functions f_k of the time model(s) and the kernels K of the
 * time model(s) applied in the order they are listed (see xrlab-plan.h for
 * the functions, kernels and the multi-cycle clock tau_k, m_k).
 *
 * A profile (pExpDecay, pLinear, pGauss) attached to one parameter adds
 * f(aux) to it at every point of an auxiliary axis (depth, fluence, ...);
 * the component is then averaged over the aux points. Profile parameters are
 * named {parameter}_{function}_NN_{name}: GLP_01_A_pExpDecay_01_tau. A
 * profile's parameter may have time dependence of its own (attach the
 * profile first): GLP_01_x0_pLinear_01_m_expFun_01_tau.
 *
 * Every error names the file, the line, the model and the parameter.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define XRLAB_MODEL_ERROR (xrlab_model_error_quark ())
GQuark xrlab_model_error_quark (void);

typedef enum {
  XRLAB_MODEL_ERROR_FILE,       /* the file cannot be read */
  XRLAB_MODEL_ERROR_SYNTAX,     /* YAML syntax, or a shape that is not a model file */
  XRLAB_MODEL_ERROR_INVALID,    /* arity, bounds, unknown component, order, ... */
  XRLAB_MODEL_ERROR_NOT_FOUND,  /* no model or parameter of that name */
  XRLAB_MODEL_ERROR_EXPR,       /* expression: syntax, unknown name, cycle, not defined */
} XrlabModelError;

/* ---- model files --------------------------------------------------------- */

typedef struct _XrlabModelFile XrlabModelFile;

/* Reads a model file. Only YAML syntax and the overall shape (a mapping of
 * model names) are checked here; each model is checked when it is used. */
XrlabModelFile *xrlab_model_file_load (const char *path, GError **error);
/* The same from memory; @display_name stands for the file in messages. */
XrlabModelFile *xrlab_model_file_new_from_data (const char *data, gssize len,
                                                const char *display_name,
                                                GError **error);
void            xrlab_model_file_free (XrlabModelFile *file);

const char *xrlab_model_file_get_path   (const XrlabModelFile *file);
gsize       xrlab_model_file_n_models   (const XrlabModelFile *file);
const char *xrlab_model_file_model_name (const XrlabModelFile *file, gsize i);

/* ---- models -------------------------------------------------------------- */

typedef struct _XrlabModel XrlabModel;

/* The energy model @name of @file (components numbered, parameters checked,
 * expressions compiled and their names resolved). */
XrlabModel *xrlab_model_new  (const XrlabModelFile *file, const char *name,
                              GError **error);
XrlabModel *xrlab_model_load (const char *path, const char *name, GError **error);
XrlabModel *xrlab_model_copy (const XrlabModel *model);
void        xrlab_model_free (XrlabModel *model);

const char *xrlab_model_get_name (const XrlabModel *model);
const char *xrlab_model_get_file (const XrlabModel *model);

/* Attaches time dependence to the energy-model parameter @param: the time
 * models @models[0 .. n_models) of @path. With one model, @frequency must be
 * <= 0 (no repetition). With several, @frequency (> 0, in inverse delay
 * units) sets the cycle: the first model applies to the whole delay axis,
 * model k (k >= 1) to subcycle k of N = n_models - 1 on a local clock that
 * restarts every 1/(frequency N), from delay 0 on. A kernel convolves the
 * functions after it and cannot end a model that has time functions; a
 * model made only of kernels (trspecfit's IRF model) is accepted as the
 * first of several models, where it convolves the whole trace, every
 * subcycle included (trspecfit's example 03: IRF, MonoExpNeg, MonoExpPos). */
gboolean xrlab_model_add_dynamics (XrlabModel *model, const char *param,
                                   const char *path,
                                   const char *const *models, gsize n_models,
                                   double frequency, GError **error);
gboolean xrlab_model_add_dynamics_from_file (XrlabModel *model, const char *param,
                                             const XrlabModelFile *file,
                                             const char *const *models,
                                             gsize n_models, double frequency,
                                             GError **error);

/* Attaches the profile model @profile_model of @path to @param. */
gboolean xrlab_model_add_profile (XrlabModel *model, const char *param,
                                  const char *path, const char *profile_model,
                                  GError **error);
gboolean xrlab_model_add_profile_from_file (XrlabModel *model, const char *param,
                                            const XrlabModelFile *file,
                                            const char *profile_model,
                                            GError **error);

gboolean xrlab_model_has_dynamics (const XrlabModel *model);
gboolean xrlab_model_has_profiles (const XrlabModel *model);

/* ---- components ---------------------------------------------------------- */

gsize       xrlab_model_n_components        (const XrlabModel *model);
const char *xrlab_model_component_name      (const XrlabModel *model, gsize i); /* GLP_01 */
const char *xrlab_model_component_function  (const XrlabModel *model, gsize i); /* GLP */

/* ---- parameters ----------------------------------------------------------
 *
 * Parameters are listed in model order: the energy model's components in
 * file order, each component's parameters in the order of its function's
 * definition (GLP: A, x0, F, m), and right after a parameter the parameters
 * of its time dependence, then of its profile, then of the time dependence
 * of its profile's parameters (GLP_01_x0, GLP_01_x0_pLinear_01_m,
 * GLP_01_x0_pLinear_01_b, GLP_01_x0_pLinear_01_m_expFun_01_A, ...). */

typedef enum {
  XRLAB_PARAM_ENERGY,     /* a parameter of the energy model */
  XRLAB_PARAM_DYNAMICS,   /* a parameter of a time model attached to one */
  XRLAB_PARAM_PROFILE,    /* a parameter of a profile attached to one */
} XrlabParamRole;

typedef enum {
  XRLAB_PARAM_SHARE_NONE,     /* True, False, static or an expression */
  XRLAB_PARAM_SHARE_PROJECT,  /* written "project": free, shared by all files */
  XRLAB_PARAM_SHARE_FILE,     /* written "file": free, one value per file */
} XrlabParamShare;

typedef struct {
  const char *name;        /* GLP_01_x0, GLP_01_x0_expFun_01_tau */
  const char *component;   /* GLP_01, expFun_01 */
  const char *function;    /* GLP, expFun */
  XrlabParamRole role;
  const char *host;        /* the parameter a dynamics/profile one describes, else NULL */
  double value;            /* the base value (before dynamics and profile) */
  double min, max;         /* -inf / inf when unbounded */
  gboolean vary;           /* free in a fit (never for expressions) */
  gboolean is_static;      /* written "static": fixed in every fit */
  const char *expr;        /* the expression, or NULL */
  gboolean has_dynamics;
  gboolean has_profile;
  const char *file;        /* where it was defined */
  int line;
  XrlabParamShare share;   /* project / file (then vary is TRUE), else NONE */
  /* the expression with every name in full ("-GLP_01_x0_expFun_01_A" for
   * "-expFun_01_A" of a time model; = expr for the energy model), or NULL */
  const char *expr_full;
} XrlabParamInfo;

gsize    xrlab_model_n_params   (const XrlabModel *model);
/* Index of @name, or -1. */
gssize   xrlab_model_find_param (const XrlabModel *model, const char *name);
/* Fills @info; its strings belong to the model and stay valid until the
 * model changes. */
void     xrlab_model_get_param  (const XrlabModel *model, gsize i, XrlabParamInfo *info);

/* The base value of every parameter (@values has xrlab_model_n_params
 * entries; before time dependence and profiles), expressions evaluated on
 * the current values: what a parameter defined by an expression is now.
 * Error: an expression naming a parameter the model does not have (yet). */
gboolean xrlab_model_get_values (const XrlabModel *model, double *values, GError **error);

/* Setting values, vary and bounds by name (a fitting workflow fixes
 * parameters at baseline results and seeds others); set_vary (FALSE)
 * also ends the sharing of a project or file parameter. Errors: no such
 * parameter, a parameter defined by an expression, a value that is not
 * finite or lies outside the bounds, min > max. */
gboolean xrlab_model_set_value  (XrlabModel *model, const char *name, double value,
                                 GError **error);
gboolean xrlab_model_set_vary   (XrlabModel *model, const char *name, gboolean vary,
                                 GError **error);
gboolean xrlab_model_set_bounds (XrlabModel *model, const char *name, double min,
                                 double max, GError **error);
/* The sharing of a free parameter in a joint fit of several files (it
 * sets vary TRUE unless @share is NONE, which keeps vary as it is). */
gboolean xrlab_model_set_share  (XrlabModel *model, const char *name, XrlabParamShare share,
                                 GError **error);
/* set_value + set_vary (FALSE). */
gboolean xrlab_model_fix        (XrlabModel *model, const char *name, double value,
                                 GError **error);

/* Makes @name follow the expression @expr (xrlab-expr.h; an energy
 * parameter's may name any parameter of the model, one of a time model or
 * profile only the parameters of its own attachment), or, with @expr NULL
 * or empty, a plain parameter again at its current value. Errors: no such
 * parameter, a syntax error, a name that is not a parameter, a cycle (the
 * parameter is then unchanged). */
gboolean xrlab_model_set_expr   (XrlabModel *model, const char *name, const char *expr,
                                 GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (XrlabModelFile, xrlab_model_file_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (XrlabModel, xrlab_model_free)

G_END_DECLS
