/* xrlab-material.h -- one material of the editor: what the user typed and
 * what the engine said about it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gdk/gdk.h>

G_BEGIN_DECLS

#define XRLAB_TYPE_MATERIAL (xrlab_material_get_type ())
G_DECLARE_FINAL_TYPE (XrlabMaterial, xrlab_material, XRLAB, MATERIAL, GObject)

XrlabMaterial *xrlab_material_new (const char    *name,
                                   const char    *formula,
                                   double         density_g_cm3,
                                   double         thickness_um,
                                   const GdkRGBA *color);
/* A copy with a new id (and no error). */
XrlabMaterial *xrlab_material_copy (XrlabMaterial *self);

/* Unique per process; stable while the material exists (the engine keys its
 * per-material state on it). */
guint          xrlab_material_get_id            (XrlabMaterial *self);

const char    *xrlab_material_get_name          (XrlabMaterial *self);
void           xrlab_material_set_name          (XrlabMaterial *self, const char *name);
const char    *xrlab_material_get_formula       (XrlabMaterial *self);
void           xrlab_material_set_formula       (XrlabMaterial *self, const char *formula);
double         xrlab_material_get_density       (XrlabMaterial *self);
void           xrlab_material_set_density       (XrlabMaterial *self, double density_g_cm3);
double         xrlab_material_get_thickness     (XrlabMaterial *self);
void           xrlab_material_set_thickness     (XrlabMaterial *self, double thickness_um);
const GdkRGBA *xrlab_material_get_color         (XrlabMaterial *self);
void           xrlab_material_set_color         (XrlabMaterial *self, const GdkRGBA *color);
gboolean       xrlab_material_get_visible       (XrlabMaterial *self);
void           xrlab_material_set_visible       (XrlabMaterial *self, gboolean visible);

/* The message of the engine (or of the row's own number parsing) when the
 * input is invalid; NULL when it is fine. */
const char    *xrlab_material_get_error         (XrlabMaterial *self);
void           xrlab_material_set_error         (XrlabMaterial *self, const char *message);
/* Set by the editor when a number field does not parse ("2,3x"); the
 * material keeps its last valid value meanwhile. NULL when fine. */
const char    *xrlab_material_get_input_error   (XrlabMaterial *self);
void           xrlab_material_set_input_error   (XrlabMaterial *self, const char *message);
/* What the row shows: the input error, else the engine's error. */
const char    *xrlab_material_get_message       (XrlabMaterial *self);
/* TRUE when the input or the engine's answer is an error. */
gboolean       xrlab_material_has_error         (XrlabMaterial *self);

/* The plot shows the last valid curve of this material (input invalid). */
gboolean       xrlab_material_get_stale         (XrlabMaterial *self);
void           xrlab_material_set_stale         (XrlabMaterial *self, gboolean stale);

/* Optional description for presets ("NIST compound", "crystalline"). */
const char    *xrlab_material_get_note          (XrlabMaterial *self);
void           xrlab_material_set_note          (XrlabMaterial *self, const char *note);

/* The label used in legends and tables: the name, or the formula when the
 * name is empty. */
const char    *xrlab_material_get_display_name  (XrlabMaterial *self);

G_END_DECLS
