/* xrlab-yaml-tree.h -- a YAML document as a tree that keeps the order of keys,
 * repeated keys and the line of every node (private to the model reader)
 *
 * Errors are XRLAB_MODEL_ERROR_SYNTAX and name the file and line.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum { XRLAB_YN_SCALAR, XRLAB_YN_SEQ, XRLAB_YN_MAP } XrlabYNodeKind;

typedef struct _XrlabYNode XrlabYNode;
struct _XrlabYNode {
  XrlabYNodeKind kind;
  int line, col;      /* 1-based */
  char *text;         /* scalars */
  gboolean plain;     /* a plain (unquoted) scalar */
  GPtrArray *kids;    /* sequences: items; mappings: key, value, key, value, ... */
};

void        xrlab_ynode_free      (XrlabYNode *n);
/* A plain scalar that is empty, "~" or "null". */
gboolean    xrlab_ynode_is_null   (const XrlabYNode *n);
/* "a list", "a mapping", "a single value", "nothing": for messages. */
const char *xrlab_ynode_kind_name (const XrlabYNode *n);

/* Reads a whole stream of @len bytes: exactly one document, not empty.
 * @file names it in messages. */
XrlabYNode *xrlab_yaml_read_document (const char *data, gsize len, const char *file,
                                      GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (XrlabYNode, xrlab_ynode_free)

G_END_DECLS
