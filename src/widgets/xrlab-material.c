/* xrlab-material.c -- one material of the editor
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-material.h"

#include <math.h>

struct _XrlabMaterial {
  GObject parent_instance;

  guint id;
  char *name;
  char *formula;
  double density;
  double thickness;
  GdkRGBA color;
  gboolean visible;
  char *error;
  char *input_error;
  gboolean stale;
  char *note;
};

G_DEFINE_FINAL_TYPE (XrlabMaterial, xrlab_material, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_ID,
  PROP_NAME,
  PROP_FORMULA,
  PROP_DENSITY,
  PROP_THICKNESS,
  PROP_COLOR,
  PROP_VISIBLE,
  PROP_ERROR,
  PROP_INPUT_ERROR,
  PROP_MESSAGE,
  PROP_STALE,
  PROP_NOTE,
  PROP_DISPLAY_NAME,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
xrlab_material_finalize (GObject *object)
{
  XrlabMaterial *self = XRLAB_MATERIAL (object);

  g_free (self->name);
  g_free (self->formula);
  g_free (self->error);
  g_free (self->input_error);
  g_free (self->note);

  G_OBJECT_CLASS (xrlab_material_parent_class)->finalize (object);
}

static void
xrlab_material_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  XrlabMaterial *self = XRLAB_MATERIAL (object);

  switch (prop_id)
    {
    case PROP_ID: g_value_set_uint (value, self->id); break;
    case PROP_NAME: g_value_set_string (value, self->name); break;
    case PROP_FORMULA: g_value_set_string (value, self->formula); break;
    case PROP_DENSITY: g_value_set_double (value, self->density); break;
    case PROP_THICKNESS: g_value_set_double (value, self->thickness); break;
    case PROP_COLOR: g_value_set_boxed (value, &self->color); break;
    case PROP_VISIBLE: g_value_set_boolean (value, self->visible); break;
    case PROP_ERROR: g_value_set_string (value, self->error); break;
    case PROP_INPUT_ERROR: g_value_set_string (value, self->input_error); break;
    case PROP_MESSAGE: g_value_set_string (value, xrlab_material_get_message (self)); break;
    case PROP_STALE: g_value_set_boolean (value, self->stale); break;
    case PROP_NOTE: g_value_set_string (value, self->note); break;
    case PROP_DISPLAY_NAME: g_value_set_string (value, xrlab_material_get_display_name (self)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
xrlab_material_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  XrlabMaterial *self = XRLAB_MATERIAL (object);

  switch (prop_id)
    {
    case PROP_NAME: xrlab_material_set_name (self, g_value_get_string (value)); break;
    case PROP_FORMULA: xrlab_material_set_formula (self, g_value_get_string (value)); break;
    case PROP_DENSITY: xrlab_material_set_density (self, g_value_get_double (value)); break;
    case PROP_THICKNESS: xrlab_material_set_thickness (self, g_value_get_double (value)); break;
    case PROP_COLOR:
      if (g_value_get_boxed (value) != NULL)
        xrlab_material_set_color (self, g_value_get_boxed (value));
      break;
    case PROP_VISIBLE: xrlab_material_set_visible (self, g_value_get_boolean (value)); break;
    case PROP_ERROR: xrlab_material_set_error (self, g_value_get_string (value)); break;
    case PROP_INPUT_ERROR: xrlab_material_set_input_error (self, g_value_get_string (value)); break;
    case PROP_STALE: xrlab_material_set_stale (self, g_value_get_boolean (value)); break;
    case PROP_NOTE: xrlab_material_set_note (self, g_value_get_string (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
xrlab_material_class_init (XrlabMaterialClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;

  object_class->finalize = xrlab_material_finalize;
  object_class->get_property = xrlab_material_get_property;
  object_class->set_property = xrlab_material_set_property;

  properties[PROP_ID] = g_param_spec_uint ("id", NULL, NULL, 0, G_MAXUINT, 0,
                                           G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, "", rw);
  properties[PROP_FORMULA] = g_param_spec_string ("formula", NULL, NULL, "", rw);
  properties[PROP_DENSITY] = g_param_spec_double ("density", NULL, NULL, 0, G_MAXDOUBLE, 1.0, rw);
  properties[PROP_THICKNESS] = g_param_spec_double ("thickness", NULL, NULL, 0, G_MAXDOUBLE, 1.0, rw);
  properties[PROP_COLOR] = g_param_spec_boxed ("color", NULL, NULL, GDK_TYPE_RGBA, rw);
  properties[PROP_VISIBLE] = g_param_spec_boolean ("visible", NULL, NULL, TRUE, rw);
  properties[PROP_ERROR] = g_param_spec_string ("error", NULL, NULL, NULL, rw);
  properties[PROP_INPUT_ERROR] = g_param_spec_string ("input-error", NULL, NULL, NULL, rw);
  properties[PROP_MESSAGE] = g_param_spec_string ("message", NULL, NULL, NULL,
                                                  G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_STALE] = g_param_spec_boolean ("stale", NULL, NULL, FALSE, rw);
  properties[PROP_NOTE] = g_param_spec_string ("note", NULL, NULL, NULL, rw);
  properties[PROP_DISPLAY_NAME] = g_param_spec_string ("display-name", NULL, NULL, NULL,
                                                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
xrlab_material_init (XrlabMaterial *self)
{
  static guint next_id = 1;

  self->id = next_id++;
  self->name = g_strdup ("");
  self->formula = g_strdup ("");
  self->density = 1.0;
  self->thickness = 1.0;
  self->color = (GdkRGBA) { 0.11, 0.44, 0.85, 1.0 };
  self->visible = TRUE;
}

XrlabMaterial *
xrlab_material_new (const char    *name,
                    const char    *formula,
                    double         density_g_cm3,
                    double         thickness_um,
                    const GdkRGBA *color)
{
  XrlabMaterial *self = g_object_new (XRLAB_TYPE_MATERIAL, NULL);

  g_free (self->name);
  g_free (self->formula);
  self->name = g_strdup (name != NULL ? name : "");
  self->formula = g_strdup (formula != NULL ? formula : "");
  self->density = density_g_cm3;
  self->thickness = thickness_um;
  if (color != NULL)
    self->color = *color;
  return self;
}

XrlabMaterial *
xrlab_material_copy (XrlabMaterial *self)
{
  XrlabMaterial *copy;

  g_return_val_if_fail (XRLAB_IS_MATERIAL (self), NULL);
  copy = xrlab_material_new (self->name, self->formula, self->density, self->thickness, &self->color);
  copy->visible = self->visible;
  copy->note = g_strdup (self->note);
  return copy;
}

guint
xrlab_material_get_id (XrlabMaterial *self)
{
  g_return_val_if_fail (XRLAB_IS_MATERIAL (self), 0);
  return self->id;
}

static gboolean
set_string (char **field, const char *value)
{
  if (g_strcmp0 (*field, value) == 0)
    return FALSE;
  g_free (*field);
  *field = g_strdup (value);
  return TRUE;
}

const char *
xrlab_material_get_name (XrlabMaterial *self)
{
  g_return_val_if_fail (XRLAB_IS_MATERIAL (self), NULL);
  return self->name;
}

void
xrlab_material_set_name (XrlabMaterial *self, const char *name)
{
  g_return_if_fail (XRLAB_IS_MATERIAL (self));
  if (set_string (&self->name, name != NULL ? name : ""))
    {
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NAME]);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DISPLAY_NAME]);
    }
}

const char *
xrlab_material_get_formula (XrlabMaterial *self)
{
  g_return_val_if_fail (XRLAB_IS_MATERIAL (self), NULL);
  return self->formula;
}

void
xrlab_material_set_formula (XrlabMaterial *self, const char *formula)
{
  g_return_if_fail (XRLAB_IS_MATERIAL (self));
  if (set_string (&self->formula, formula != NULL ? formula : ""))
    {
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FORMULA]);
      if (self->name[0] == '\0')
        g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DISPLAY_NAME]);
    }
}

double
xrlab_material_get_density (XrlabMaterial *self)
{
  g_return_val_if_fail (XRLAB_IS_MATERIAL (self), NAN);
  return self->density;
}

void
xrlab_material_set_density (XrlabMaterial *self, double density_g_cm3)
{
  g_return_if_fail (XRLAB_IS_MATERIAL (self));
  if (self->density == density_g_cm3)
    return;
  self->density = density_g_cm3;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DENSITY]);
}

double
xrlab_material_get_thickness (XrlabMaterial *self)
{
  g_return_val_if_fail (XRLAB_IS_MATERIAL (self), NAN);
  return self->thickness;
}

void
xrlab_material_set_thickness (XrlabMaterial *self, double thickness_um)
{
  g_return_if_fail (XRLAB_IS_MATERIAL (self));
  if (self->thickness == thickness_um)
    return;
  self->thickness = thickness_um;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_THICKNESS]);
}

const GdkRGBA *
xrlab_material_get_color (XrlabMaterial *self)
{
  g_return_val_if_fail (XRLAB_IS_MATERIAL (self), NULL);
  return &self->color;
}

void
xrlab_material_set_color (XrlabMaterial *self, const GdkRGBA *color)
{
  g_return_if_fail (XRLAB_IS_MATERIAL (self));
  g_return_if_fail (color != NULL);
  if (gdk_rgba_equal (&self->color, color))
    return;
  self->color = *color;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COLOR]);
}

gboolean
xrlab_material_get_visible (XrlabMaterial *self)
{
  g_return_val_if_fail (XRLAB_IS_MATERIAL (self), FALSE);
  return self->visible;
}

void
xrlab_material_set_visible (XrlabMaterial *self, gboolean visible)
{
  g_return_if_fail (XRLAB_IS_MATERIAL (self));
  if (self->visible == !!visible)
    return;
  self->visible = !!visible;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VISIBLE]);
}

const char *
xrlab_material_get_error (XrlabMaterial *self)
{
  g_return_val_if_fail (XRLAB_IS_MATERIAL (self), NULL);
  return self->error;
}

void
xrlab_material_set_error (XrlabMaterial *self, const char *message)
{
  g_return_if_fail (XRLAB_IS_MATERIAL (self));
  if (message != NULL && message[0] == '\0')
    message = NULL;
  if (set_string (&self->error, message))
    {
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR]);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MESSAGE]);
    }
}

const char *
xrlab_material_get_input_error (XrlabMaterial *self)
{
  g_return_val_if_fail (XRLAB_IS_MATERIAL (self), NULL);
  return self->input_error;
}

void
xrlab_material_set_input_error (XrlabMaterial *self, const char *message)
{
  g_return_if_fail (XRLAB_IS_MATERIAL (self));
  if (message != NULL && message[0] == '\0')
    message = NULL;
  if (set_string (&self->input_error, message))
    {
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_INPUT_ERROR]);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MESSAGE]);
    }
}

const char *
xrlab_material_get_message (XrlabMaterial *self)
{
  g_return_val_if_fail (XRLAB_IS_MATERIAL (self), NULL);
  return self->input_error != NULL ? self->input_error : self->error;
}

gboolean
xrlab_material_has_error (XrlabMaterial *self)
{
  g_return_val_if_fail (XRLAB_IS_MATERIAL (self), FALSE);
  return self->input_error != NULL || self->error != NULL;
}

gboolean
xrlab_material_get_stale (XrlabMaterial *self)
{
  g_return_val_if_fail (XRLAB_IS_MATERIAL (self), FALSE);
  return self->stale;
}

void
xrlab_material_set_stale (XrlabMaterial *self, gboolean stale)
{
  g_return_if_fail (XRLAB_IS_MATERIAL (self));
  if (self->stale == !!stale)
    return;
  self->stale = !!stale;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STALE]);
}

const char *
xrlab_material_get_note (XrlabMaterial *self)
{
  g_return_val_if_fail (XRLAB_IS_MATERIAL (self), NULL);
  return self->note;
}

void
xrlab_material_set_note (XrlabMaterial *self, const char *note)
{
  g_return_if_fail (XRLAB_IS_MATERIAL (self));
  if (set_string (&self->note, note))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NOTE]);
}

const char *
xrlab_material_get_display_name (XrlabMaterial *self)
{
  g_return_val_if_fail (XRLAB_IS_MATERIAL (self), NULL);
  if (self->name[0] != '\0')
    return self->name;
  return self->formula;
}
