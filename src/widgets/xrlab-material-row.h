/* xrlab-material-row.h -- the editor row of one material
 *
 * Name, formula, density, layer thickness, colour and visibility of an
 * XrlabMaterial, edited in place; the material's error (from the engine, or
 * from a number that does not parse) appears under the row. The row's menu
 * and its drag handle ask the list to duplicate, remove or move it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "xrlab-material.h"

G_BEGIN_DECLS

#define XRLAB_TYPE_MATERIAL_ROW (xrlab_material_row_get_type ())
G_DECLARE_FINAL_TYPE (XrlabMaterialRow, xrlab_material_row, XRLAB, MATERIAL_ROW, GtkListBoxRow)

GtkWidget     *xrlab_material_row_new          (XrlabMaterial *material);
XrlabMaterial *xrlab_material_row_get_material (XrlabMaterialRow *self);

/* Parts, for tests and keyboard focus. */
GtkEditable   *xrlab_material_row_get_name_editable      (XrlabMaterialRow *self);
GtkEditable   *xrlab_material_row_get_formula_editable   (XrlabMaterialRow *self);
GtkEditable   *xrlab_material_row_get_density_editable   (XrlabMaterialRow *self);
GtkEditable   *xrlab_material_row_get_thickness_editable (XrlabMaterialRow *self);
/* The inline message label; visible when the material has an error. */
/* The drag source of the row's handle (tests drive a drag with it). */
GtkDragSource *xrlab_material_row_get_drag_source        (XrlabMaterialRow *self);
GtkLabel      *xrlab_material_row_get_error_label        (XrlabMaterialRow *self);
gboolean       xrlab_material_row_get_error_visible      (XrlabMaterialRow *self);
/* The warning shown about accepted but suspicious input ("Si02", a density
 * beyond 1e-6 … 30 g/cm³), or NULL. */
const char    *xrlab_material_row_get_warning            (XrlabMaterialRow *self);
/* Enables Move Up and Move Down (the list does, by position). */
void           xrlab_material_row_set_movable            (XrlabMaterialRow *self,
                                                          gboolean          up,
                                                          gboolean          down);
/* Whether Move Up (@delta < 0) or Move Down is enabled. */
gboolean       xrlab_material_row_can_move               (XrlabMaterialRow *self,
                                                          int               delta);

G_END_DECLS
