/* xrlab-stack-item.h -- one stack of the Reflectivity page: what the user
 * typed and what the engine said about it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gdk/gdk.h>

#include "xrlab-stack.h"

G_BEGIN_DECLS

#define XRLAB_TYPE_STACK_ITEM (xrlab_stack_item_get_type ())
G_DECLARE_FINAL_TYPE (XrlabStackItem, xrlab_stack_item, XRLAB, STACK_ITEM, GObject)

/* Emits "changed" after every setter that changed something. */
XrlabStackItem *xrlab_stack_item_new (const char     *name,
                                      const char     *text,
                                      XrlabStackKind  kind,
                                      const GdkRGBA  *color);

/* Unique per process (the engine keys the stack on it). */
guint           xrlab_stack_item_get_id      (XrlabStackItem *self);
const char     *xrlab_stack_item_get_name    (XrlabStackItem *self);
void            xrlab_stack_item_set_name    (XrlabStackItem *self, const char *name);
/* The name, or the text when the name is empty. */
const char     *xrlab_stack_item_get_label   (XrlabStackItem *self);
const char     *xrlab_stack_item_get_text    (XrlabStackItem *self);
void            xrlab_stack_item_set_text    (XrlabStackItem *self, const char *text);
XrlabStackKind  xrlab_stack_item_get_kind    (XrlabStackItem *self);
const GdkRGBA  *xrlab_stack_item_get_color   (XrlabStackItem *self);
void            xrlab_stack_item_set_color   (XrlabStackItem *self, const GdkRGBA *color);
gboolean        xrlab_stack_item_get_visible (XrlabStackItem *self);
void            xrlab_stack_item_set_visible (XrlabStackItem *self, gboolean visible);

/* The engine's message about the text (it names the layer and the
 * column), NULL when the text is valid; the 1-based column, 0 for none. */
const char     *xrlab_stack_item_get_error   (XrlabStackItem *self);
int             xrlab_stack_item_get_error_column (XrlabStackItem *self);
void            xrlab_stack_item_set_error   (XrlabStackItem *self, const char *message, int column);

G_END_DECLS
