/* xrlab-model-edit.h -- the structure of a model changed, described and
 * offered: components added, removed and reordered; time dependence and
 * profiles attached from files, built from functions, detached; the model
 * as a tree for a user interface; the palette of every function
 *
 * Edits. A request is a list of edits applied in order; each one is checked
 * as it applies, with the rules of the model files (xrlab-model.h): a model
 * ends with a peak (backgrounds act on the peaks listed after them, Shirley
 * integrates them), a kernel convolves the time functions after it, an
 * expression names parameters that exist, nothing depends on itself,
 * LinBack has xStart < xStop. The first edit that fails leaves the model as
 * it was before the request (all or nothing) and its message names the
 * component or parameter: "model “2D”: the last component, Shirley, is a
 * background ...", "GLP_01 cannot be removed: the expressions of GLP_02_A,
 * GLP_02_x0 name its parameters".
 *
 * Numbering. Components are numbered by position, as trspecfit numbers the
 * components of a file (GLP_01, GLP_02 in file order; backgrounds and
 * kernels unnumbered; the models of a multi-cycle time dependence numbered
 * across, a number an earlier model took moving to the next free one). A
 * model written to a file and read back must have the same names, so an
 * edit that moves a component renumbers the ones it passes: removing GLP_01
 * makes GLP_02 GLP_01. Everything that names a renamed parameter follows --
 * the expressions, the parameters of its time dependence and profile
 * (GLP_02_x0_expFun_01_tau becomes GLP_01_x0_expFun_01_tau) -- and the
 * result lists every name that changed (XrlabModelEditResult).
 *
 * Components are named in full: GLP_01, Shirley; in the time dependence of
 * a parameter GLP_01_x0_expFun_01, GLP_01_x0_gaussCONV; in a profile
 * GLP_01_A_pExpDecay_01 (the parameters of each are the component's name
 * followed by _NAME, as in xrlab-model.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "xrlab-model.h"

G_BEGIN_DECLS

/* ---- the palette ----------------------------------------------------------- */

typedef enum {
  XRLAB_MODEL_FN_PEAK,            /* energy model */
  XRLAB_MODEL_FN_BACKGROUND,      /* energy model, before the peaks it acts on */
  XRLAB_MODEL_FN_TIME,            /* time models */
  XRLAB_MODEL_FN_KERNEL,          /* time models, before the functions it convolves */
  XRLAB_MODEL_FN_PROFILE,         /* profiles */
  XRLAB_MODEL_FN_NONE,            /* "none": an empty subcycle */
} XrlabModelFnKind;

/* A parameter row: [value, vary, min, max] or ["expression"]. */
typedef struct {
  const char *name;               /* the function's name of it: A, x0, tau */
  double value;
  gboolean vary;
  gboolean is_static;             /* fixed in every fit (vary FALSE) */
  double min, max;                /* -inf / inf: unbounded */
  const char *expr;               /* NULL: not an expression */
} XrlabModelParamRow;

typedef struct {
  const char *name;               /* GLP, expFun, gaussCONV */
  XrlabModelFnKind kind;
  const char *formula;            /* "A exp(-4 ln2 (1-m) u^2) / (1 + 4 m u^2), u = (x-x0)/F" */
  gsize n_params;
  const XrlabModelParamRow *params;   /* the rows a new component starts with */
} XrlabModelPaletteEntry;

/* Every function of the vocabulary (xrlab-fn.h), in the order of the model
 * files' documentation: the peaks, the backgrounds, the time functions, the
 * kernels, the profiles, none. The starting rows are those of trspecfit's
 * own test models (tests/test-models: eval_2d_energy.yaml for the energy
 * functions, file_time.yaml for the time functions and kernels,
 * file_profile.yaml for the profiles; Shirley's that of xrlab-model.h).
 * Static data, any thread. */
const XrlabModelPaletteEntry *xrlab_model_palette (gsize *n_entries);
const XrlabModelPaletteEntry *xrlab_model_palette_find (const char *function);

/* ---- edits ------------------------------------------------------------------ */

typedef enum {
  XRLAB_MODEL_PART_ENERGY,        /* the components of the energy model */
  XRLAB_MODEL_PART_DYNAMICS,      /* the time dependence of @param */
  XRLAB_MODEL_PART_PROFILE,       /* the profile of @param */
} XrlabModelPart;

typedef enum {
  /* A component of @function into @part (of @param; of its @subcycle for
   * DYNAMICS) at @position of that list (-1: peaks and time functions at
   * the end, backgrounds and kernels at the start, where they act on all
   * the others), with the palette's rows or those of @rows that name its
   * parameters. Into the DYNAMICS or PROFILE of a parameter that has none,
   * it attaches a new one (subcycle 0) made of this component. */
  XRLAB_MODEL_EDIT_ADD,
  /* @component, with the time dependence and profiles of its parameters.
   * Refused while an expression outside it names one of its parameters.
   * The last component of a time or profile model: a subcycle is left
   * "none"; a time dependence without subcycles, or a profile, goes. */
  XRLAB_MODEL_EDIT_REMOVE,
  /* @component to @position of its list (-1: the end). */
  XRLAB_MODEL_EDIT_MOVE,
  /* The DYNAMICS of @param from the time models @models of @file
   * (@frequency as xrlab_model_add_dynamics()), or the PROFILE of @param
   * from the profile model @models[0] of @file. */
  XRLAB_MODEL_EDIT_ATTACH_FILE,
  /* The DYNAMICS or PROFILE of @param built from @functions (the palette's
   * rows), a model named @name (NULL: after the parameter, GLP_01_x0_time,
   * GLP_01_A_profile). */
  XRLAB_MODEL_EDIT_ATTACH_NEW,
  /* The DYNAMICS or PROFILE of @param goes. Refused while an expression
   * names one of its parameters. */
  XRLAB_MODEL_EDIT_DETACH,
  /* A subcycle of the DYNAMICS of @param made of @functions (none: "none",
   * an empty subcycle), named @name (NULL: GLP_01_x0_time_K), inserted as
   * subcycle @position (1 ... N+1; -1: the last); @frequency > 0 sets the
   * cycle's frequency (needed with the first subcycle). */
  XRLAB_MODEL_EDIT_ADD_SUBCYCLE,
  /* Subcycle @subcycle (>= 1) of the DYNAMICS of @param goes (the last one
   * leaves a time dependence without repetition). */
  XRLAB_MODEL_EDIT_REMOVE_SUBCYCLE,
  /* The frequency of the DYNAMICS of @param (> 0; it must have subcycles). */
  XRLAB_MODEL_EDIT_SET_FREQUENCY,
} XrlabModelEditKind;

typedef struct {
  XrlabModelEditKind kind;
  XrlabModelPart part;
  const char *param;              /* full name of the parameter (not ENERGY) */
  guint subcycle;                 /* ADD into DYNAMICS, REMOVE_SUBCYCLE */
  const char *component;          /* REMOVE, MOVE: full name */
  const char *function;           /* ADD */
  const XrlabModelParamRow *rows; /* ADD: rows replacing the palette's (by name) */
  gsize n_rows;
  gssize position;                /* ADD, MOVE, ADD_SUBCYCLE */
  const char *file;               /* ATTACH_FILE */
  const char *const *models;      /* ATTACH_FILE */
  gsize n_models;
  const char *const *functions;   /* ATTACH_NEW, ADD_SUBCYCLE */
  gsize n_functions;
  const char *name;               /* ATTACH_NEW, ADD_SUBCYCLE */
  double frequency;               /* ATTACH_FILE, ADD_SUBCYCLE, SET_FREQUENCY */
} XrlabModelEdit;

typedef struct {
  const char *from, *to;
} XrlabModelRename;

/* What a request of edits did; one allocation (g_free). */
typedef struct {
  guint64 generation;             /* the fit service's (0 from xrlab_model_edit()) */
  /* every component and parameter of the model before the edits whose name
   * changed (full names), and where it went */
  gsize n_renames;
  const XrlabModelRename *renames;
  /* the components that ADD and ATTACH_NEW edits made, by their names
   * after all the edits of the request */
  gsize n_added;
  const char *const *added;
} XrlabModelEditResult;

/* Applies @edits to @model in order, all or nothing. @result (may be NULL)
 * receives what they did. Each edit sees the names the ones before it gave
 * (the model is renumbered after each). */
gboolean xrlab_model_edit (XrlabModel *model, const XrlabModelEdit *edits, gsize n,
                           XrlabModelEditResult **result, GError **error);
/* The same as a new model; @model is not changed. NULL with @error. */
XrlabModel *xrlab_model_edited (const XrlabModel *model, const XrlabModelEdit *edits, gsize n,
                                XrlabModelEditResult **result, GError **error);

/* ---- the model as a tree ------------------------------------------------------ */

typedef struct _XrlabModelDescAttachment XrlabModelDescAttachment;

typedef struct {
  const char *name;               /* A, x0 */
  const char *full_name;          /* GLP_01_x0 */
  gsize index;                    /* in the model's parameter order (xrlab_model_get_param) */
  double value, min, max;
  gboolean vary, is_static;
  XrlabParamShare share;          /* project / file in a joint fit */
  const char *expr;               /* NULL: not an expression */
  const XrlabModelDescAttachment *dynamics;   /* NULL: none */
  const XrlabModelDescAttachment *profile;    /* NULL: none */
} XrlabModelDescParam;

typedef struct {
  const char *name;               /* as its list numbers it: GLP_01, expFun_02 */
  const char *full_name;          /* GLP_01, GLP_01_x0_expFun_02 */
  const char *function;           /* GLP */
  XrlabModelFnKind kind;
  guint subcycle;                 /* time models: 0 the whole delay axis, k subcycle k */
  gsize n_params;
  const XrlabModelDescParam *params;
} XrlabModelDescComponent;

struct _XrlabModelDescAttachment {
  XrlabModelPart part;            /* DYNAMICS or PROFILE */
  const char *host;               /* the parameter: GLP_01_x0 */
  const char *file;               /* where its models were read */
  gsize n_models;                 /* DYNAMICS: 1 + the subcycles */
  const char *const *models;      /* their names: [0] the whole delay axis, [k] subcycle k */
  double frequency;               /* > 0 with subcycles */
  gsize n_components;
  const XrlabModelDescComponent *components;  /* subcycle by subcycle, in order */
};

/* Free with xrlab_model_desc_free(): every pointer inside belongs to it. */
typedef struct {
  guint64 generation;             /* the fit service's state it shows (0 here) */
  const char *name;               /* the model's name (2D) */
  const char *file;
  gsize n_params;                 /* every parameter (xrlab_model_n_params) */
  gsize n_components;
  const XrlabModelDescComponent *components;   /* the energy model's, in order */
  gpointer priv;
} XrlabModelDesc;

/* @model as a tree: its components, their parameters, and on each
 * parameter its time dependence and profile with their components. */
XrlabModelDesc *xrlab_model_describe  (const XrlabModel *model);
void            xrlab_model_desc_free (XrlabModelDesc *desc);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (XrlabModelDesc, xrlab_model_desc_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (XrlabModelEditResult, g_free)

/* ---- writing a model file ------------------------------------------------------ */

/* An attachment as a saved file holds it: trspecfit's format has no place
 * for which parameter a time or profile model belongs to (its scripts call
 * add_time_dependence and add_par_profile), so the writer returns it. */
typedef struct {
  char *model;                    /* the energy model: 2D */
  char *param;                    /* its parameter: GLP_01_x0 */
  gboolean profile;               /* a profile (models[0]), else time dependence */
  gsize n_models;
  char **models;                  /* names in the file, NULL-terminated */
  double frequency;               /* > 0 with subcycles */
} XrlabModelSavedAttach;

typedef struct {
  gsize n_attach;
  XrlabModelSavedAttach *attach;  /* profiles, then time dependences, per model */
} XrlabModelSaved;

void xrlab_model_saved_free (XrlabModelSaved *saved);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (XrlabModelSaved, xrlab_model_saved_free)

/* The text of a trspecfit model file holding @models (energy models, of
 * distinct names; a model listed twice is written once) and every time and
 * profile model attached to them, each under its own name (a name used
 * for different components gets a suffix _2, _3 ...; equal models are
 * written once). A header comment lists the attachments as trspecfit calls;
 * @saved (may be NULL) receives them. Read back with
 * xrlab_model_load_saved() it gives the same models. */
char *xrlab_model_write_text (const XrlabModel *const *models, gsize n_models,
                              XrlabModelSaved **saved);
/* The same written to @path atomically (xrlab_write_file_atomic()): the
 * previous file stays whole when anything fails. */
gboolean xrlab_model_save (const XrlabModel *const *models, gsize n_models, const char *path,
                           XrlabModelSaved **saved, GError **error);
/* The energy model @name of @path with the attachments of @saved that
 * belong to it (NULL: none), expressions resolved. */
XrlabModel *xrlab_model_load_saved (const char *path, const char *name,
                                    const XrlabModelSaved *saved, GError **error);
/* The same from a file already read (xrlab_model_file_new_from_data()). */
XrlabModel *xrlab_model_load_saved_from_file (const XrlabModelFile *file, const char *name,
                                              const XrlabModelSaved *saved, GError **error);

G_END_DECLS
