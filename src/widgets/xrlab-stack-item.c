/* xrlab-stack-item.c -- one stack of the Reflectivity page
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-stack-item.h"

struct _XrlabStackItem {
  GObject parent_instance;
  guint id;
  char *name;
  char *text;
  XrlabStackKind kind;
  GdkRGBA color;
  gboolean visible;
  char *error;
  int error_column;
};

G_DEFINE_FINAL_TYPE (XrlabStackItem, xrlab_stack_item, G_TYPE_OBJECT)

enum { CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

static void
xrlab_stack_item_finalize (GObject *object)
{
  XrlabStackItem *self = XRLAB_STACK_ITEM (object);

  g_free (self->name);
  g_free (self->text);
  g_free (self->error);
  G_OBJECT_CLASS (xrlab_stack_item_parent_class)->finalize (object);
}

static void
xrlab_stack_item_class_init (XrlabStackItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = xrlab_stack_item_finalize;
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
xrlab_stack_item_init (XrlabStackItem *self)
{
  static guint next_id = 1;

  /* Ids apart from the materials': both count from 1, but the engine keys
   * stacks and materials in services of their own. */
  self->id = next_id++;
  self->visible = TRUE;
  self->name = g_strdup ("");
  self->text = g_strdup ("");
}

XrlabStackItem *
xrlab_stack_item_new (const char *name, const char *text, XrlabStackKind kind, const GdkRGBA *color)
{
  XrlabStackItem *self = g_object_new (XRLAB_TYPE_STACK_ITEM, NULL);

  g_free (self->name);
  self->name = g_strdup (name != NULL ? name : "");
  g_free (self->text);
  self->text = g_strdup (text != NULL ? text : "");
  self->kind = kind;
  self->color = color != NULL ? *color : (GdkRGBA) { 0.11, 0.44, 0.85, 1.0 };
  return self;
}

static gboolean
set_string (char **field, const char *value)
{
  if (g_strcmp0 (*field, value != NULL ? value : "") == 0)
    return FALSE;
  g_free (*field);
  *field = g_strdup (value != NULL ? value : "");
  return TRUE;
}

guint
xrlab_stack_item_get_id (XrlabStackItem *self)
{
  g_return_val_if_fail (XRLAB_IS_STACK_ITEM (self), 0);
  return self->id;
}

const char *
xrlab_stack_item_get_name (XrlabStackItem *self)
{
  g_return_val_if_fail (XRLAB_IS_STACK_ITEM (self), NULL);
  return self->name;
}

void
xrlab_stack_item_set_name (XrlabStackItem *self, const char *name)
{
  g_return_if_fail (XRLAB_IS_STACK_ITEM (self));
  if (set_string (&self->name, name))
    g_signal_emit (self, signals[CHANGED], 0);
}

const char *
xrlab_stack_item_get_label (XrlabStackItem *self)
{
  g_return_val_if_fail (XRLAB_IS_STACK_ITEM (self), NULL);
  return self->name[0] != '\0' ? self->name : self->text;
}

const char *
xrlab_stack_item_get_text (XrlabStackItem *self)
{
  g_return_val_if_fail (XRLAB_IS_STACK_ITEM (self), NULL);
  return self->text;
}

void
xrlab_stack_item_set_text (XrlabStackItem *self, const char *text)
{
  g_return_if_fail (XRLAB_IS_STACK_ITEM (self));
  if (set_string (&self->text, text))
    g_signal_emit (self, signals[CHANGED], 0);
}

XrlabStackKind
xrlab_stack_item_get_kind (XrlabStackItem *self)
{
  g_return_val_if_fail (XRLAB_IS_STACK_ITEM (self), XRLAB_STACK_REFLECT);
  return self->kind;
}

const GdkRGBA *
xrlab_stack_item_get_color (XrlabStackItem *self)
{
  g_return_val_if_fail (XRLAB_IS_STACK_ITEM (self), NULL);
  return &self->color;
}

void
xrlab_stack_item_set_color (XrlabStackItem *self, const GdkRGBA *color)
{
  g_return_if_fail (XRLAB_IS_STACK_ITEM (self) && color != NULL);
  if (gdk_rgba_equal (&self->color, color))
    return;
  self->color = *color;
  g_signal_emit (self, signals[CHANGED], 0);
}

gboolean
xrlab_stack_item_get_visible (XrlabStackItem *self)
{
  g_return_val_if_fail (XRLAB_IS_STACK_ITEM (self), FALSE);
  return self->visible;
}

void
xrlab_stack_item_set_visible (XrlabStackItem *self, gboolean visible)
{
  g_return_if_fail (XRLAB_IS_STACK_ITEM (self));
  if (self->visible == !!visible)
    return;
  self->visible = !!visible;
  g_signal_emit (self, signals[CHANGED], 0);
}

const char *
xrlab_stack_item_get_error (XrlabStackItem *self)
{
  g_return_val_if_fail (XRLAB_IS_STACK_ITEM (self), NULL);
  return self->error;
}

int
xrlab_stack_item_get_error_column (XrlabStackItem *self)
{
  g_return_val_if_fail (XRLAB_IS_STACK_ITEM (self), 0);
  return self->error_column;
}

void
xrlab_stack_item_set_error (XrlabStackItem *self, const char *message, int column)
{
  g_return_if_fail (XRLAB_IS_STACK_ITEM (self));
  if (g_strcmp0 (self->error, message) == 0 && self->error_column == column)
    return;
  g_free (self->error);
  self->error = g_strdup (message);
  self->error_column = message != NULL ? column : 0;
  g_signal_emit (self, signals[CHANGED], 0);
}
