/* xrlab-stack-editor.h -- the editor of one stack: its text, and its
 * layers and repeat groups as rows
 *
 * The text (xrlab-stack.h) is what counts: typing it rebuilds the rows;
 * editing a row (material, thickness, roughness, a group's count), adding,
 * removing or dragging rows writes the text anew. The editor writes into
 * an XrlabStackItem, which the page hands to the engine, and shows the
 * item's error (the engine names the layer and the column; the editor
 * selects that column in the text).
 *
 * The rows split the text at its top-level "/" (a formula's "//" stays
 * whole) into layers FORMULA[:DENSITY][:THICKNESS][~ROUGHNESS] and groups
 * {LAYER/...}xN; a group inside a group is one row of text.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "xrlab-stack-item.h"

G_BEGIN_DECLS

#define XRLAB_TYPE_STACK_EDITOR (xrlab_stack_editor_get_type ())
G_DECLARE_FINAL_TYPE (XrlabStackEditor, xrlab_stack_editor, XRLAB, STACK_EDITOR, GtkBox)

GtkWidget      *xrlab_stack_editor_new (void);

/* The stack edited (NULL: none; the editor is then insensitive). */
void            xrlab_stack_editor_set_item (XrlabStackEditor *self, XrlabStackItem *item);
XrlabStackItem *xrlab_stack_editor_get_item (XrlabStackEditor *self);

/* What the material menu of a layer offers besides the presets: a list of
 * XrlabMaterial (the window's materials), or NULL. */
void            xrlab_stack_editor_set_materials (XrlabStackEditor *self, GListModel *materials);

/* For tests and the page: the text entry, the rows (layers and groups,
 * top level), the error label. */
GtkEditable    *xrlab_stack_editor_get_text_entry  (XrlabStackEditor *self);
GtkLabel       *xrlab_stack_editor_get_error_label (XrlabStackEditor *self);
guint           xrlab_stack_editor_get_n_rows      (XrlabStackEditor *self);

/* Moves the row at @from before the row at @to, as a drop does. Paths:
 * "t:I" the I-th top-level row, "g:I:J" layer J of the group in row I. A
 * group does not go into a group. FALSE when nothing moved. */
gboolean        xrlab_stack_editor_move (XrlabStackEditor *self, const char *from, const char *to);

/* The text of @items rows split and joined again: exposed for tests. */
char           *xrlab_stack_editor_normalize (const char *text);

G_END_DECLS
