/* xrlab-material-row.c -- the editor row of one material
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-material-row.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "xrlab-formula.h"
#include "xrlab-optics.h"
#include "xrlab-user-number.h"
#include "xrlab-widget-util.h"

/* Densities beyond these are accepted (gases and foams are real) but
 * questioned: nothing solid is denser than osmium, 22.6 g/cm³. */
#define DENSITY_WARN_MIN_G_CM3 1e-6
#define DENSITY_WARN_MAX_G_CM3 30.0

struct _XrlabMaterialRow {
  GtkListBoxRow parent_instance;

  /* template children */
  GtkImage *handle;
  GtkColorButton *color_button;
  GtkEntry *name_entry;
  GtkSwitch *visible_switch;
  GtkMenuButton *menu_button;
  GtkEntry *formula_entry;
  GtkEntry *density_entry;
  GtkEntry *thickness_entry;
  GtkLabel *error_label;

  XrlabMaterial *material;
  GBinding *name_binding;
  GBinding *formula_binding;
  GBinding *visible_binding;
  char *density_error;
  char *thickness_error;
  gboolean updating;
  gboolean can_move_up;
  gboolean can_move_down;
};

G_DEFINE_FINAL_TYPE (XrlabMaterialRow, xrlab_material_row, GTK_TYPE_LIST_BOX_ROW)

enum {
  PROP_0,
  PROP_MATERIAL,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  SIGNAL_DUPLICATE,
  SIGNAL_REMOVE,
  SIGNAL_MOVE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* A count that starts with a zero digit ("Si02"): most likely a letter O
 * typed as a zero. Returns the count as typed, or NULL. */
static char *
find_zero_count (const char *formula)
{
  for (const char *p = formula; p != NULL && *p != '\0'; p++)
    if (p[0] == '0' && p != formula && (g_ascii_isalpha (p[-1]) || p[-1] == ')' || p[-1] == ']') &&
        g_ascii_isdigit (p[1]))
      {
        const char *end = p + 1;
        while (g_ascii_isdigit (*end))
          end++;
        return g_strndup (p, end - p);
      }
  return NULL;
}

/* What is accepted but looks wrong, for the message line; NULL if nothing. */
static char *
input_warning (XrlabMaterialRow *self, GtkEntry **field)
{
  g_autofree char *zero = find_zero_count (xrlab_material_get_formula (self->material));
  double density = xrlab_material_get_density (self->material);
  g_autofree char *d = NULL;

  *field = zero != NULL ? self->formula_entry : self->density_entry;
  if (zero != NULL)
    /* TRANSLATORS: %s is a count as typed in a formula, e.g. “02” in Si02 */
    return g_strdup_printf (_("“%s” is read as a count: is its first character meant to be the letter O?"),
                            zero);
  if (self->density_error != NULL || (density >= DENSITY_WARN_MIN_G_CM3 && density <= DENSITY_WARN_MAX_G_CM3))
    return NULL;
  d = xrlab_format_user_number (density, FALSE);
  if (density > DENSITY_WARN_MAX_G_CM3)
    return g_strdup_printf (_("A density of %s g/cm³ is above that of any element (osmium, 22.6 g/cm³): "
                              "is it right?"), d);
  return g_strdup_printf (_("A density of %s g/cm³ is below that of a gas at 1 mbar (about 1e-6 g/cm³): "
                            "is it right?"), d);
}

/* When the input is fine: molar mass and electron density. */
static char *
input_summary (XrlabMaterialRow *self)
{
  g_autoptr(XrlabFormula) f = xrlab_formula_parse (xrlab_material_get_formula (self->material), NULL);
  g_autofree char *m = NULL;
  g_autofree char *rho_e = NULL;

  if (f == NULL)
    return NULL;
  m = g_strdup_printf ("%.5g", xrlab_formula_get_molecular_weight (f));
  rho_e = g_strdup_printf ("%.4g", xrlab_optics_electron_density (f, xrlab_material_get_density (self->material)));
  /* TRANSLATORS: molar mass and electron density of a material */
  return g_strdup_printf (_("M = %s g/mol, ρₑ = %s e/Å³"), m, rho_e);
}

static void
update_message (XrlabMaterialRow *self)
{
  const char *msg = NULL;
  g_autofree char *warning = NULL;
  g_autofree char *summary = NULL;
  gboolean formula_bad;
  GtkEntry *questioned = NULL;

  if (self->material == NULL || self->error_label == NULL)
    return;

  /* The row's own number errors go to the material (the window marks its
   * curve stale); the first one is shown. */
  if (self->density_error != NULL)
    msg = self->density_error;
  else if (self->thickness_error != NULL)
    msg = self->thickness_error;
  xrlab_material_set_input_error (self->material, msg);

  msg = xrlab_material_get_message (self->material);
  formula_bad = xrlab_material_get_error (self->material) != NULL && self->density_error == NULL
                && self->thickness_error == NULL;
  warning = input_warning (self, &questioned);
  if (warning == NULL)
    questioned = NULL;

  if (msg != NULL)
    xrlab_message_label_set (self->error_label, XRLAB_MARK_ERROR, msg);
  else if (warning != NULL)
    xrlab_message_label_set (self->error_label, XRLAB_MARK_WARNING, warning);
  else
    {
      summary = input_summary (self);
      xrlab_message_label_set (self->error_label, XRLAB_MARK_NONE, summary);
    }

  if (msg != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (self), "invalid");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self), "invalid");
  xrlab_entry_mark (GTK_WIDGET (self->formula_entry),
                    formula_bad ? XRLAB_MARK_ERROR
                    : questioned == self->formula_entry ? XRLAB_MARK_WARNING : XRLAB_MARK_NONE,
                    formula_bad ? msg : warning);
  xrlab_entry_mark (GTK_WIDGET (self->density_entry),
                    self->density_error != NULL ? XRLAB_MARK_ERROR
                    : questioned == self->density_entry ? XRLAB_MARK_WARNING : XRLAB_MARK_NONE,
                    self->density_error != NULL ? self->density_error : warning);
  xrlab_entry_mark (GTK_WIDGET (self->thickness_entry), self->thickness_error != NULL ? XRLAB_MARK_ERROR : XRLAB_MARK_NONE,
                    self->thickness_error);
}

static void
on_density_changed (GtkEditable      *editable,
                    XrlabMaterialRow *self)
{
  const char *text = gtk_editable_get_text (editable);
  g_autofree char *stripped = g_strstrip (g_strdup (text));
  double v;

  if (self->updating || self->material == NULL)
    return;
  g_clear_pointer (&self->density_error, g_free);
  if (xrlab_parse_user_number (text, &v))
    xrlab_material_set_density (self->material, v);
  else if (stripped[0] == '\0')
    self->density_error = g_strdup (_("Enter the density in g/cm³."));
  else
    self->density_error = g_strdup_printf (_("Density “%s” is not a number."), text);
  update_message (self);
}

static void
on_thickness_changed (GtkEditable      *editable,
                      XrlabMaterialRow *self)
{
  const char *text = gtk_editable_get_text (editable);
  double v;

  if (self->updating || self->material == NULL)
    return;
  g_clear_pointer (&self->thickness_error, g_free);
  if (xrlab_parse_user_number (text, &v))
    xrlab_material_set_thickness (self->material, v);
  else
    self->thickness_error = g_strdup_printf (_("Thickness “%s” is not a number."), text);
  update_message (self);
}

static void
set_entry_number (XrlabMaterialRow *self, GtkEntry *entry, double value)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));
  double current;
  g_autofree char *s = NULL;

  /* Leave the text alone while it already says this value ("2.30"). */
  if (xrlab_parse_user_number (text, &current) && current == value)
    return;
  s = xrlab_format_user_number (value, TRUE);
  self->updating = TRUE;
  gtk_editable_set_text (GTK_EDITABLE (entry), s);
  self->updating = FALSE;
}

static void
on_material_notify (XrlabMaterial    *material,
                    GParamSpec       *pspec,
                    XrlabMaterialRow *self)
{
  const char *name = g_param_spec_get_name (pspec);

  if (strcmp (name, "density") == 0)
    {
      if (self->density_error == NULL)
        set_entry_number (self, self->density_entry, xrlab_material_get_density (material));
      update_message (self);
    }
  else if (strcmp (name, "thickness") == 0)
    {
      if (self->thickness_error == NULL)
        set_entry_number (self, self->thickness_entry, xrlab_material_get_thickness (material));
    }
  else if (strcmp (name, "color") == 0)
    {
      GdkRGBA current;
      gtk_color_chooser_get_rgba (GTK_COLOR_CHOOSER (self->color_button), &current);
      if (!gdk_rgba_equal (&current, xrlab_material_get_color (material)))
        gtk_color_chooser_set_rgba (GTK_COLOR_CHOOSER (self->color_button),
                                    xrlab_material_get_color (material));
    }
  else if (strcmp (name, "message") == 0 || strcmp (name, "formula") == 0)
    update_message (self);
}

static void
on_color_set (GtkColorButton   *button,
              XrlabMaterialRow *self)
{
  GdkRGBA rgba;

  if (self->material == NULL)
    return;
  gtk_color_chooser_get_rgba (GTK_COLOR_CHOOSER (button), &rgba);
  xrlab_material_set_color (self->material, &rgba);
}

static void
update_accessible_label (XrlabMaterialRow *self)
{
  if (self->material == NULL)
    return;
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  xrlab_material_get_display_name (self->material),
                                  -1);
}

static void
set_material (XrlabMaterialRow *self, XrlabMaterial *material)
{
  g_assert (self->material == NULL);
  if (material == NULL)
    return;

  self->material = g_object_ref (material);
  self->updating = TRUE;
  gtk_editable_set_text (GTK_EDITABLE (self->name_entry), xrlab_material_get_name (material));
  gtk_editable_set_text (GTK_EDITABLE (self->formula_entry), xrlab_material_get_formula (material));
  self->updating = FALSE;
  set_entry_number (self, self->density_entry, xrlab_material_get_density (material));
  set_entry_number (self, self->thickness_entry, xrlab_material_get_thickness (material));
  gtk_color_chooser_set_rgba (GTK_COLOR_CHOOSER (self->color_button), xrlab_material_get_color (material));

  self->name_binding = g_object_bind_property (material, "name", self->name_entry, "text",
                                               G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  self->formula_binding = g_object_bind_property (material, "formula", self->formula_entry, "text",
                                                  G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  self->visible_binding = g_object_bind_property (material, "visible", self->visible_switch, "active",
                                                  G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  g_signal_connect_object (material, "notify", G_CALLBACK (on_material_notify), self, 0);
  g_signal_connect_object (material, "notify::display-name", G_CALLBACK (update_accessible_label),
                           self, G_CONNECT_SWAPPED);
  update_message (self);
  update_accessible_label (self);
}

/* ---- actions ------------------------------------------------------------------ */

static void
action_duplicate (GtkWidget *widget, const char *name, GVariant *param)
{
  g_signal_emit (widget, signals[SIGNAL_DUPLICATE], 0);
}

static void
action_remove (GtkWidget *widget, const char *name, GVariant *param)
{
  g_signal_emit (widget, signals[SIGNAL_REMOVE], 0);
}

static void
action_move_up (GtkWidget *widget, const char *name, GVariant *param)
{
  g_signal_emit (widget, signals[SIGNAL_MOVE], 0, -1);
}

static void
action_move_down (GtkWidget *widget, const char *name, GVariant *param)
{
  g_signal_emit (widget, signals[SIGNAL_MOVE], 0, 1);
}

/* ---- drag and drop -------------------------------------------------------------- */

static GdkContentProvider *
on_drag_prepare (GtkDragSource    *source,
                 double            x,
                 double            y,
                 XrlabMaterialRow *self)
{
  if (self->material == NULL)
    return NULL;
  return gdk_content_provider_new_typed (XRLAB_TYPE_MATERIAL, self->material);
}

static void
on_drag_begin (GtkDragSource    *source,
               GdkDrag          *drag,
               XrlabMaterialRow *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GdkPaintable *paintable = gtk_widget_paintable_new (widget);
  double x = 0, y = 0;

  gtk_widget_translate_coordinates (GTK_WIDGET (self->handle), widget, 8, 8, &x, &y);
  gtk_drag_source_set_icon (source, paintable, (int) x, (int) y);
  g_object_unref (paintable);
  gtk_widget_add_css_class (widget, "dragging");
}

static void
on_drag_end (GtkDragSource    *source,
             GdkDrag          *drag,
             gboolean          delete_data,
             XrlabMaterialRow *self)
{
  gtk_widget_remove_css_class (GTK_WIDGET (self), "dragging");
}

/* ---- GObject ------------------------------------------------------------------------ */

static void
xrlab_material_row_dispose (GObject *object)
{
  XrlabMaterialRow *self = XRLAB_MATERIAL_ROW (object);

  g_clear_pointer (&self->name_binding, g_binding_unbind);
  g_clear_pointer (&self->formula_binding, g_binding_unbind);
  g_clear_pointer (&self->visible_binding, g_binding_unbind);
  g_clear_object (&self->material);
  gtk_widget_dispose_template (GTK_WIDGET (self), XRLAB_TYPE_MATERIAL_ROW);

  G_OBJECT_CLASS (xrlab_material_row_parent_class)->dispose (object);
}

static void
xrlab_material_row_finalize (GObject *object)
{
  XrlabMaterialRow *self = XRLAB_MATERIAL_ROW (object);

  g_free (self->density_error);
  g_free (self->thickness_error);

  G_OBJECT_CLASS (xrlab_material_row_parent_class)->finalize (object);
}

static void
xrlab_material_row_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  XrlabMaterialRow *self = XRLAB_MATERIAL_ROW (object);

  switch (prop_id)
    {
    case PROP_MATERIAL:
      g_value_set_object (value, self->material);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
xrlab_material_row_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  XrlabMaterialRow *self = XRLAB_MATERIAL_ROW (object);

  switch (prop_id)
    {
    case PROP_MATERIAL:
      set_material (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
xrlab_material_row_class_init (XrlabMaterialRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = xrlab_material_row_dispose;
  object_class->finalize = xrlab_material_row_finalize;
  object_class->get_property = xrlab_material_row_get_property;
  object_class->set_property = xrlab_material_row_set_property;

  properties[PROP_MATERIAL] =
    g_param_spec_object ("material", NULL, NULL, XRLAB_TYPE_MATERIAL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[SIGNAL_DUPLICATE] =
    g_signal_new ("duplicate", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[SIGNAL_REMOVE] =
    g_signal_new ("remove", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* Move by @delta positions (-1 up, +1 down). */
  signals[SIGNAL_MOVE] =
    g_signal_new ("move", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_INT);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/xrlab/Xrlab/xrlab-material-row.ui");
  gtk_widget_class_bind_template_child (widget_class, XrlabMaterialRow, handle);
  gtk_widget_class_bind_template_child (widget_class, XrlabMaterialRow, color_button);
  gtk_widget_class_bind_template_child (widget_class, XrlabMaterialRow, name_entry);
  gtk_widget_class_bind_template_child (widget_class, XrlabMaterialRow, visible_switch);
  gtk_widget_class_bind_template_child (widget_class, XrlabMaterialRow, menu_button);
  gtk_widget_class_bind_template_child (widget_class, XrlabMaterialRow, formula_entry);
  gtk_widget_class_bind_template_child (widget_class, XrlabMaterialRow, density_entry);
  gtk_widget_class_bind_template_child (widget_class, XrlabMaterialRow, thickness_entry);
  gtk_widget_class_bind_template_child (widget_class, XrlabMaterialRow, error_label);

  gtk_widget_class_install_action (widget_class, "row.duplicate", NULL, action_duplicate);
  gtk_widget_class_install_action (widget_class, "row.remove", NULL, action_remove);
  gtk_widget_class_install_action (widget_class, "row.move-up", NULL, action_move_up);
  gtk_widget_class_install_action (widget_class, "row.move-down", NULL, action_move_down);
}

static void
xrlab_material_row_init (XrlabMaterialRow *self)
{
  GtkDragSource *source;

  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_widget_add_css_class (GTK_WIDGET (self), "material-row");
  self->can_move_up = self->can_move_down = TRUE;

  g_signal_connect (self->color_button, "color-set", G_CALLBACK (on_color_set), self);
  g_signal_connect (self->density_entry, "changed", G_CALLBACK (on_density_changed), self);
  g_signal_connect (self->thickness_entry, "changed", G_CALLBACK (on_thickness_changed), self);
  xrlab_message_label_init (self->error_label, 2);
  xrlab_hide_tooltip_while_open (GTK_WIDGET (self->menu_button));

  source = gtk_drag_source_new ();
  gtk_drag_source_set_actions (source, GDK_ACTION_MOVE);
  /* The drag can outlive the row (a drop elsewhere that replaces it). */
  g_signal_connect_object (source, "prepare", G_CALLBACK (on_drag_prepare), self, 0);
  g_signal_connect_object (source, "drag-begin", G_CALLBACK (on_drag_begin), self, 0);
  g_signal_connect_object (source, "drag-end", G_CALLBACK (on_drag_end), self, 0);
  gtk_widget_add_controller (GTK_WIDGET (self->handle), GTK_EVENT_CONTROLLER (source));
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self->handle), "grab");
}

GtkWidget *
xrlab_material_row_new (XrlabMaterial *material)
{
  return g_object_new (XRLAB_TYPE_MATERIAL_ROW, "material", material, NULL);
}

XrlabMaterial *
xrlab_material_row_get_material (XrlabMaterialRow *self)
{
  g_return_val_if_fail (XRLAB_IS_MATERIAL_ROW (self), NULL);
  return self->material;
}

GtkEditable *
xrlab_material_row_get_name_editable (XrlabMaterialRow *self)
{
  return GTK_EDITABLE (self->name_entry);
}

GtkEditable *
xrlab_material_row_get_formula_editable (XrlabMaterialRow *self)
{
  return GTK_EDITABLE (self->formula_entry);
}

GtkEditable *
xrlab_material_row_get_density_editable (XrlabMaterialRow *self)
{
  return GTK_EDITABLE (self->density_entry);
}

GtkEditable *
xrlab_material_row_get_thickness_editable (XrlabMaterialRow *self)
{
  return GTK_EDITABLE (self->thickness_entry);
}

GtkDragSource *
xrlab_material_row_get_drag_source (XrlabMaterialRow *self)
{
  GListModel *controllers;
  GtkDragSource *source = NULL;

  g_return_val_if_fail (XRLAB_IS_MATERIAL_ROW (self), NULL);
  controllers = gtk_widget_observe_controllers (GTK_WIDGET (self->handle));
  for (guint i = 0; i < g_list_model_get_n_items (controllers) && source == NULL; i++)
    {
      g_autoptr(GObject) c = g_list_model_get_item (controllers, i);
      if (GTK_IS_DRAG_SOURCE (c))
        source = GTK_DRAG_SOURCE (c);
    }
  g_object_unref (controllers);
  return source;
}

GtkLabel *
xrlab_material_row_get_error_label (XrlabMaterialRow *self)
{
  return self->error_label;
}

gboolean
xrlab_material_row_get_error_visible (XrlabMaterialRow *self)
{
  g_return_val_if_fail (XRLAB_IS_MATERIAL_ROW (self), FALSE);
  return gtk_widget_has_css_class (GTK_WIDGET (self->error_label), "error") &&
         gtk_label_get_text (self->error_label)[0] != '\0';
}

const char *
xrlab_material_row_get_warning (XrlabMaterialRow *self)
{
  g_return_val_if_fail (XRLAB_IS_MATERIAL_ROW (self), NULL);
  if (!gtk_widget_has_css_class (GTK_WIDGET (self->error_label), "warning"))
    return NULL;
  return gtk_label_get_text (self->error_label);
}

void
xrlab_material_row_set_movable (XrlabMaterialRow *self,
                                gboolean          up,
                                gboolean          down)
{
  g_return_if_fail (XRLAB_IS_MATERIAL_ROW (self));
  self->can_move_up = up;
  self->can_move_down = down;
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "row.move-up", up);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "row.move-down", down);
}

gboolean
xrlab_material_row_can_move (XrlabMaterialRow *self,
                             int               delta)
{
  g_return_val_if_fail (XRLAB_IS_MATERIAL_ROW (self), FALSE);
  return delta < 0 ? self->can_move_up : self->can_move_down;
}
