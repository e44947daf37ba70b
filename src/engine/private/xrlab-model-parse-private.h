/* xrlab-model-parse-private.h -- what the files of the model reader share
 * (xrlab-model.c, xrlab-model-parse.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stdarg.h>

#include "xrlab-model-private.h"
#include "xrlab-yaml-tree.h"

G_BEGIN_DECLS

struct _XrlabModelFile {
  char *path;
  XrlabYNode *root;        /* mapping: model name -> components */
};

typedef enum { CTX_ENERGY, CTX_TIME, CTX_PROFILE } Context;

typedef struct {
  XrlabFn fn;
  const XrlabYNode *key;
  const XrlabYNode *value;
  const char *model_name;
  guint model_index;
  int number;         /* numbering; -1 for unnumbered functions */
} CompSpec;

/* Sets @error (XRLAB_MODEL_ERROR, @code) to "file:line: message" ("file:
 * message" when @line is 0). */
static inline void G_GNUC_PRINTF (5, 6)
set_error (GError **error, int code, const char *file, int line, const char *format, ...)
{
  g_autofree char *msg = NULL;
  va_list args;

  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);
  if (line > 0)
    g_set_error (error, XRLAB_MODEL_ERROR, code, "%s:%d: %s", file, line, msg);
  else
    g_set_error (error, XRLAB_MODEL_ERROR, code, "%s: %s", file, msg);
}

/* xrlab-model-parse.c: components and their parameters from the tree */
gboolean xrlab_model_collect_specs (const XrlabModelFile *file, const char *model_name,
                                    guint model_index, Context ctx, GArray *specs,
                                    GError **error);
void     xrlab_model_number_across_models (GArray *specs);
gboolean xrlab_model_build_components (const GArray *specs, Context ctx, const char *file,
                                       XrlabParam *host, GPtrArray *comps, GPtrArray *params,
                                       GError **error);

/* xrlab-model.c: life cycle, the flattened order, names and cycles */
void        xrlab_model_param_free      (XrlabParam *p);
void        xrlab_model_comp_free       (XrlabComponent *c);
void        xrlab_model_attachment_free (XrlabAttachment *a);
XrlabModel *xrlab_model_alloc           (void);
/* Rebuilds the flattened order (xrlab-model.h) and the name index. */
void        xrlab_model_reindex         (XrlabModel *model);
/* Could @name be a parameter of an attachment still to come? */
gboolean    xrlab_model_may_be_attached_later (const XrlabModel *model, const char *name);
/* The names of the expressions of @att's own parameters. */
gboolean    xrlab_model_resolve_attachment (XrlabAttachment *att, GError **error);
/* The names of the energy model's expressions; with @final every one. */
gboolean    xrlab_model_resolve_energy  (XrlabModel *model, gboolean final, GError **error);
/* Refuses an expression that depends on itself. */
gboolean    xrlab_model_check_cycles    (const GPtrArray *params, GError **error);

G_END_DECLS
