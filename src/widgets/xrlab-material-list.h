/* xrlab-material-list.h -- the material editor: a list of XrlabMaterialRow
 * with Add (empty or from a searchable preset list), duplicate, remove and
 * reorder (menu, keyboard or drag and drop)
 *
 * The list edits a GListStore of XrlabMaterial that its owner provides.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "xrlab-material.h"
#include "xrlab-material-row.h"

G_BEGIN_DECLS

#define XRLAB_TYPE_MATERIAL_LIST (xrlab_material_list_get_type ())
G_DECLARE_FINAL_TYPE (XrlabMaterialList, xrlab_material_list, XRLAB, MATERIAL_LIST, GtkWidget)

GtkWidget        *xrlab_material_list_new         (void);

void              xrlab_material_list_set_store   (XrlabMaterialList *self,
                                                   GListStore        *store);
GListStore       *xrlab_material_list_get_store   (XrlabMaterialList *self);

/* Presets: a list model of XrlabMaterial (name, formula, density, note). */
void              xrlab_material_list_set_presets (XrlabMaterialList *self,
                                                   GListModel        *presets);
/* Filters the preset list as the search entry does; returns the number of
 * matches. */
guint             xrlab_material_list_filter_presets (XrlabMaterialList *self,
                                                      const char        *text);
/* Adds a copy of the @index-th visible preset; returns the new material. */
XrlabMaterial    *xrlab_material_list_add_preset  (XrlabMaterialList *self,
                                                   guint              index);

XrlabMaterial    *xrlab_material_list_add_empty   (XrlabMaterialList *self);
XrlabMaterial    *xrlab_material_list_duplicate   (XrlabMaterialList *self,
                                                   XrlabMaterial     *material);
void              xrlab_material_list_remove      (XrlabMaterialList *self,
                                                   XrlabMaterial     *material);
/* Moves @material to position @to (clamped). */
void              xrlab_material_list_move        (XrlabMaterialList *self,
                                                   XrlabMaterial     *material,
                                                   guint              to);

XrlabMaterialRow *xrlab_material_list_get_row     (XrlabMaterialList *self,
                                                   guint              index);
/* Opens the Add popover. */
void              xrlab_material_list_popup_add   (XrlabMaterialList *self);

/* A colour from the curve palette that no material in @store uses yet (the
 * least used one when all are taken). */
void              xrlab_material_palette_next     (GListModel *store,
                                                   GdkRGBA    *color);

G_END_DECLS
