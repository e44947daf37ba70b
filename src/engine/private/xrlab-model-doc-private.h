/* xrlab-model-doc-private.h -- a model as the documents of a model file:
 * what the structure edits (xrlab-model-edit.c) change and the writer
 * (xrlab-model-write.c) writes
 *
 * A document holds the energy model and each time dependence and profile as
 * lists of components whose parameters are rows [value, vary, min, max] or
 * ["expression"] -- exactly what a model file says. It is made from a model
 * (xrlab_model_doc_new) and made into one again (xrlab_model_doc_build) by
 * the model reader itself: the components and parameters go through the
 * parser's own functions as the tree of a file, so that an edited model is
 * refused for the reasons a file would be and a written one reads back the
 * same. xrlab_model_doc_renumber() numbers the components as the reader
 * would and makes every name follow.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "xrlab-model-edit.h"
#include "xrlab-model-private.h"

G_BEGIN_DECLS

typedef struct {
  char *name;               /* the function's name of it: x0 */
  double value, min, max;
  gboolean vary, is_static;
  XrlabParamShare share;    /* project / file */
  char *expr;               /* NULL: not an expression */
  char *file;               /* where it was defined (NULL: made by an edit) */
  int line;
} DocParam;

typedef struct {
  XrlabFn fn;
  char *name;               /* its numbered name in its list: GLP_01, expFun_02 */
  /* the full name it has in the model the document was made from (NULL:
   * made since), to follow it through renumbering */
  char *origin;
  guint n_params;
  DocParam params[XRLAB_FN_MAX_PARAMS];
  char *file;
  int line;
} DocComp;

typedef struct {
  char *name;               /* the model's name in a file: MonoExpIRF */
  GPtrArray *comps;         /* DocComp* */
} DocModel;

typedef struct {
  gboolean profile;
  char *host;               /* full name of the parameter it is attached to */
  char *file;               /* where its models were read */
  double frequency;         /* > 0 with subcycles */
  GPtrArray *models;        /* DocModel*: [0] the whole delay axis, [k] subcycle k */
} DocAttach;

typedef struct {
  char *name;               /* the energy model's: 2D */
  char *file;
  DocModel *energy;
  GPtrArray *profiles;      /* DocAttach*, in the model's order */
  GPtrArray *dyns;          /* DocAttach*, in the model's order */
} XrlabModelDoc;

XrlabModelDoc *xrlab_model_doc_new  (const XrlabModel *model);
void           xrlab_model_doc_free (XrlabModelDoc *doc);

DocComp  *xrlab_doc_comp_new   (XrlabFn fn, const char *name);
void      xrlab_doc_comp_free  (DocComp *c);
DocModel *xrlab_doc_model_new  (const char *name);
void      xrlab_doc_model_free (DocModel *m);
void      xrlab_doc_attach_free (DocAttach *a);
/* The document of an attachment of a model (its components' origins their
 * full names). */
DocAttach *xrlab_doc_attach_from_model (const XrlabAttachment *a);

/* The attachment of @host (@profile or time dependence), or NULL. */
DocAttach *xrlab_model_doc_find_attach (XrlabModelDoc *doc, const char *host, gboolean profile);

/* Numbers the components as the model reader does and renames whatever
 * named the old names: the parameters' expressions, the hosts of
 * attachments, the models named after their host (GLP_01_x0_time). */
void xrlab_model_doc_renumber (XrlabModelDoc *doc);

/* The vary item of @r in a file: True, False, static, project or file. */
const char *xrlab_doc_param_vary (const DocParam *r);

/* The full name of parameter @q of @c in @att (NULL: the energy model). */
char *xrlab_model_doc_param_name (const DocAttach *att, const DocComp *c, guint q);

/* The model the document describes, read by the model reader; its
 * parameters keep the files and lines the document has. With @complete,
 * every expression must name a parameter the model has. */
XrlabModel *xrlab_model_doc_build (const XrlabModelDoc *doc, gboolean complete,
                                   GError **error);

/* The names of a model's models in a file, each used once: @att's models
 * keep their names, made unique within @taken (a set of names already
 * used, updated) by a suffix _2, _3 ... unless a model of the same name
 * and the same components is there already (@written: name -> DocModel*
 * of what was written under it). Returns a NULL-terminated array. */
char **xrlab_model_doc_unique_names (const DocAttach *att, GHashTable *written);

/* Whether two models have the same components and rows. */
gboolean xrlab_doc_model_equal (const DocModel *a, const DocModel *b);

/* Calls @func for every identifier of the expression @text (names of
 * parameters; numbers and operators are skipped): its start and length. */
typedef void (*XrlabExprIdentFunc) (const char *start, gsize len, gpointer data);
void xrlab_expr_foreach_ident (const char *text, XrlabExprIdentFunc func, gpointer data);

G_END_DECLS
