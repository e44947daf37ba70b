/* xrlab-values-view.c -- every quantity of every material at one energy
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-values-view.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "xrlab-sweep.h"
#include "xrlab-user-number.h"
#include "xrlab-util.h"

/* Kα₁ / Lα₁ energies (keV), X-ray Data Booklet, rounded to 1 eV. */
static const struct {
  const char *label;
  double kev;
} lines[] = {
  { "Cu Kα₁", 8.048 },
  { "Mo Kα₁", 17.479 },
  { "Ag Kα₁", 22.163 },
  { "Cr Kα₁", 5.415 },
  { "Fe Kα₁", 6.404 },
  { "Co Kα₁", 6.930 },
  { "Ga Kα₁", 9.252 },
  { "Rh Kα₁", 20.216 },
  { "In Kα₁", 24.210 },
  { "W Lα₁", 8.398 },
  { "Al Kα₁", 1.487 },
  { "Mg Kα₁", 1.254 },
};

struct _XrlabValuesView {
  GtkWidget parent_instance;

  GtkEntry *energy_entry;
  GtkDropDown *line_dropdown;
  GtkLabel *wavelength_label;
  GtkLabel *error_label;
  GtkColumnView *column_view;

  double energy_ev;
  gboolean updating;

  guint n_materials;
  char **names;
  char **notes;
  const double *values;
  gpointer owner;
  GDestroyNotify free_owner;
};

G_DEFINE_FINAL_TYPE (XrlabValuesView, xrlab_values_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_ENERGY_EV,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* ---- formatting -------------------------------------------------------------------- */

static const char *const superscripts[] = {
  "⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"
};

/* 6 significant digits; "1.23456×10⁻⁵" outside [1e-3, 1e5). */
static char *
format_display (double v)
{
  double a = fabs (v);
  GString *s;
  int e;
  double m;
  char digits[16];

  if (isnan (v))
    return g_strdup ("—");
  if (isinf (v))
    return g_strdup (v > 0 ? "∞" : "−∞");
  if (a == 0 || (a >= 1e-3 && a < 1e5))
    {
      g_autofree char *t = g_strdup_printf ("%.6g", v);
      if (t[0] == '-')
        return g_strdup_printf ("−%s", t + 1);
      return g_steal_pointer (&t);
    }
  e = (int) floor (log10 (a));
  m = v / pow (10, e);
  if (fabs (m) >= 9.999995)
    {
      m /= 10;
      e++;
    }
  s = g_string_new (NULL);
  if (m < 0)
    g_string_append (s, "−");
  g_string_append_printf (s, "%.5f×10", fabs (m));
  if (e < 0)
    g_string_append (s, "⁻");
  g_snprintf (digits, sizeof digits, "%d", ABS (e));
  for (char *p = digits; *p != '\0'; p++)
    g_string_append (s, superscripts[*p - '0']);
  return g_string_free (s, FALSE);
}

static double
display_value (XrlabValuesView *self, XrlabQuantity q, guint m)
{
  const XrlabQuantityInfo *info = xrlab_quantity_get_info (q);

  if (self->values == NULL || m >= self->n_materials)
    return NAN;
  return self->values[(gsize) m * XRLAB_QUANTITY_N + q] * info->display_scale;
}

/* ---- column view -------------------------------------------------------------------- */

static XrlabQuantity
item_quantity (GtkListItem *item)
{
  GtkStringObject *obj = gtk_list_item_get_item (item);
  XrlabQuantity q = XRLAB_QUANTITY_DELTA;

  xrlab_quantity_from_column (gtk_string_object_get_string (obj), &q);
  return q;
}

static void
setup_label (GtkSignalListItemFactory *factory,
             GtkListItem              *item,
             gpointer                  user_data)
{
  GtkWidget *label = gtk_label_new (NULL);
  gboolean numeric = GPOINTER_TO_INT (user_data);

  gtk_label_set_xalign (GTK_LABEL (label), numeric ? 1.0 : 0.0);
  gtk_label_set_selectable (GTK_LABEL (label), FALSE);
  if (numeric)
    gtk_widget_add_css_class (label, "numeric");
  gtk_list_item_set_child (item, label);
}

static void
bind_quantity (GtkSignalListItemFactory *factory,
               GtkListItem              *item,
               gpointer                  user_data)
{
  const XrlabQuantityInfo *info = xrlab_quantity_get_info (item_quantity (item));
  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)), info->title);
}

static void
bind_unit (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           gpointer                  user_data)
{
  const XrlabQuantityInfo *info = xrlab_quantity_get_info (item_quantity (item));
  GtkWidget *label = gtk_list_item_get_child (item);

  gtk_label_set_text (GTK_LABEL (label), info->display_unit != NULL ? info->display_unit : "—");
  gtk_widget_add_css_class (label, "dim-label");
}

typedef struct {
  XrlabValuesView *view;
  guint material;
} ColumnData;

static void
bind_value (GtkSignalListItemFactory *factory,
            GtkListItem              *item,
            gpointer                  user_data)
{
  ColumnData *cd = user_data;
  g_autofree char *text = format_display (display_value (cd->view, item_quantity (item), cd->material));

  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)), text);
}

static void
add_column (XrlabValuesView *self, const char *title, GtkListItemFactory *factory, gboolean expand)
{
  GtkColumnViewColumn *col = gtk_column_view_column_new (title, factory);

  gtk_column_view_column_set_resizable (col, TRUE);
  gtk_column_view_column_set_expand (col, expand);
  gtk_column_view_append_column (self->column_view, col);
  g_object_unref (col);
}

static void
rebuild (XrlabValuesView *self)
{
  GListModel *columns = gtk_column_view_get_columns (self->column_view);
  g_autoptr(GtkStringList) rows = gtk_string_list_new (NULL);
  GtkListItemFactory *factory;

  while (g_list_model_get_n_items (columns) > 0)
    {
      g_autoptr(GtkColumnViewColumn) col = g_list_model_get_item (columns, 0);
      gtk_column_view_remove_column (self->column_view, col);
    }

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (setup_label), GINT_TO_POINTER (FALSE));
  g_signal_connect (factory, "bind", G_CALLBACK (bind_quantity), NULL);
  add_column (self, _("Quantity"), factory, TRUE);

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (setup_label), GINT_TO_POINTER (FALSE));
  g_signal_connect (factory, "bind", G_CALLBACK (bind_unit), NULL);
  add_column (self, _("Unit"), factory, FALSE);

  for (guint m = 0; m < self->n_materials; m++)
    {
      ColumnData *cd = g_new0 (ColumnData, 1);
      g_autofree char *title = NULL;
      cd->view = self;
      cd->material = m;
      factory = gtk_signal_list_item_factory_new ();
      g_signal_connect (factory, "setup", G_CALLBACK (setup_label), GINT_TO_POINTER (TRUE));
      g_signal_connect_data (factory, "bind", G_CALLBACK (bind_value), cd,
                             (GClosureNotify) (void (*) (void)) g_free, 0);
      title = self->notes[m] != NULL ? g_strdup_printf ("%s (%s)", self->names[m], self->notes[m])
                                     : g_strdup (self->names[m]);
      add_column (self, title, factory, FALSE);
    }

  for (guint q = 0; q < XRLAB_QUANTITY_N; q++)
    gtk_string_list_append (rows, xrlab_quantity_get_column (q));
  {
    GtkNoSelection *sel = gtk_no_selection_new (G_LIST_MODEL (g_steal_pointer (&rows)));
    gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (sel));
    g_object_unref (sel);
  }
}

static void
clear_values (XrlabValuesView *self)
{
  if (self->free_owner != NULL && self->owner != NULL)
    self->free_owner (self->owner);
  self->owner = NULL;
  self->free_owner = NULL;
  self->values = NULL;
  g_clear_pointer (&self->names, g_strfreev);
  if (self->notes != NULL)
    for (guint m = 0; m < self->n_materials; m++)
      g_free (self->notes[m]);
  g_clear_pointer (&self->notes, g_free);
  self->n_materials = 0;
}

/* ---- energy ------------------------------------------------------------------------ */

static void
show_wavelength (XrlabValuesView *self)
{
  double wavelength_a = xrlab_energy_convert (self->energy_ev, XRLAB_ENERGY_UNIT_EV,
                                              XRLAB_ENERGY_UNIT_ANGSTROM);
  g_autofree char *text = g_strdup_printf ("λ = %.5g Å", wavelength_a);
  gtk_label_set_text (self->wavelength_label, text);
}

static void
select_line_for_energy (XrlabValuesView *self)
{
  guint sel = 0;

  for (guint i = 0; i < G_N_ELEMENTS (lines); i++)
    if (fabs (lines[i].kev * 1e3 - self->energy_ev) < 1e-6)
      sel = i + 1;
  self->updating = TRUE;
  gtk_drop_down_set_selected (self->line_dropdown, sel);
  self->updating = FALSE;
}

static void
on_energy_changed (GtkEditable     *editable,
                   XrlabValuesView *self)
{
  const XrlabEnergyRange *range = xrlab_sweep_get_default_range ();
  const char *text = gtk_editable_get_text (editable);
  double kev, ev = NAN;
  g_autofree char *msg = NULL;

  if (self->updating)
    return;
  if (!xrlab_parse_user_number (text, &kev))
    msg = g_strdup_printf (_("Energy “%s” is not a number."), text);
  else if (xrlab_energy_place (xrlab_energy_convert (kev, XRLAB_ENERGY_UNIT_KEV, XRLAB_ENERGY_UNIT_EV),
                               range->complete_min_ev, range->max_ev, &ev) != XRLAB_ENERGY_INSIDE)
    /* TRANSLATORS: the second %s is the name of a table ("Henke") */
    msg = g_strdup_printf (_("%g keV is outside the %s tables with f1 data (valid: %g – %g keV)."),
                           kev, range->name,
                           xrlab_energy_convert (range->complete_min_ev, XRLAB_ENERGY_UNIT_EV,
                                                 XRLAB_ENERGY_UNIT_KEV),
                           xrlab_energy_convert (range->max_ev, XRLAB_ENERGY_UNIT_EV,
                                                 XRLAB_ENERGY_UNIT_KEV));

  gtk_label_set_text (self->error_label, msg != NULL ? msg : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), msg != NULL);
  if (msg != NULL)
    {
      gtk_widget_add_css_class (GTK_WIDGET (self->energy_entry), "error");
      return;
    }
  gtk_widget_remove_css_class (GTK_WIDGET (self->energy_entry), "error");
  if (ev == self->energy_ev)
    return;
  self->energy_ev = ev;
  show_wavelength (self);
  select_line_for_energy (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ENERGY_EV]);
}

static void
on_line_selected (GtkDropDown     *dropdown,
                  GParamSpec      *pspec,
                  XrlabValuesView *self)
{
  guint sel = gtk_drop_down_get_selected (dropdown);

  if (self->updating || sel == 0 || sel > G_N_ELEMENTS (lines))
    return;
  xrlab_values_view_set_energy (self, lines[sel - 1].kev * 1e3);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ENERGY_EV]);
}

static void
action_copy (GtkWidget *widget, const char *name, GVariant *param)
{
  xrlab_values_view_copy (XRLAB_VALUES_VIEW (widget));
}

/* ---- GObject ---------------------------------------------------------------------- */

static void
xrlab_values_view_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  XrlabValuesView *self = XRLAB_VALUES_VIEW (object);

  switch (prop_id)
    {
    case PROP_ENERGY_EV: g_value_set_double (value, self->energy_ev); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
xrlab_values_view_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  XrlabValuesView *self = XRLAB_VALUES_VIEW (object);

  switch (prop_id)
    {
    case PROP_ENERGY_EV: xrlab_values_view_set_energy (self, g_value_get_double (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
xrlab_values_view_dispose (GObject *object)
{
  XrlabValuesView *self = XRLAB_VALUES_VIEW (object);

  if (self->column_view != NULL)
    gtk_column_view_set_model (self->column_view, NULL);
  clear_values (self);
  gtk_widget_dispose_template (GTK_WIDGET (self), XRLAB_TYPE_VALUES_VIEW);
  /* Template children without an id are not unparented by the above. */
  for (GtkWidget *child; (child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL;)
    gtk_widget_unparent (child);
  G_OBJECT_CLASS (xrlab_values_view_parent_class)->dispose (object);
}

static void
xrlab_values_view_class_init (XrlabValuesViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = xrlab_values_view_dispose;
  object_class->get_property = xrlab_values_view_get_property;
  object_class->set_property = xrlab_values_view_set_property;

  properties[PROP_ENERGY_EV] =
    g_param_spec_double ("energy-ev", NULL, NULL, xrlab_sweep_get_default_range ()->complete_min_ev,
                         xrlab_sweep_get_default_range ()->max_ev,
                         XRLAB_VALUES_DEFAULT_EV,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/xrlab/Xrlab/xrlab-values-view.ui");
  gtk_widget_class_bind_template_child (widget_class, XrlabValuesView, energy_entry);
  gtk_widget_class_bind_template_child (widget_class, XrlabValuesView, line_dropdown);
  gtk_widget_class_bind_template_child (widget_class, XrlabValuesView, wavelength_label);
  gtk_widget_class_bind_template_child (widget_class, XrlabValuesView, error_label);
  gtk_widget_class_bind_template_child (widget_class, XrlabValuesView, column_view);

  gtk_widget_class_install_action (widget_class, "values.copy", NULL, action_copy);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "xrlab-values-view");
}

static void
xrlab_values_view_init (XrlabValuesView *self)
{
  g_autoptr(GtkStringList) items = gtk_string_list_new (NULL);

  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                                  GTK_ORIENTATION_VERTICAL);

  gtk_string_list_append (items, _("Custom energy"));
  for (guint i = 0; i < G_N_ELEMENTS (lines); i++)
    {
      g_autofree char *s = g_strdup_printf ("%s — %.3f keV", lines[i].label, lines[i].kev);
      gtk_string_list_append (items, s);
    }
  gtk_drop_down_set_model (self->line_dropdown, G_LIST_MODEL (items));

  g_signal_connect (self->energy_entry, "changed", G_CALLBACK (on_energy_changed), self);
  g_signal_connect (self->line_dropdown, "notify::selected", G_CALLBACK (on_line_selected), self);

  self->names = g_new0 (char *, 1);
  self->notes = g_new0 (char *, 1);
  xrlab_values_view_set_energy (self, XRLAB_VALUES_DEFAULT_EV);
  rebuild (self);
}

/* ---- public API ------------------------------------------------------------------- */

GtkWidget *
xrlab_values_view_new (void)
{
  return g_object_new (XRLAB_TYPE_VALUES_VIEW, NULL);
}

double
xrlab_values_view_get_energy (XrlabValuesView *self)
{
  g_return_val_if_fail (XRLAB_IS_VALUES_VIEW (self), NAN);
  return self->energy_ev;
}

void
xrlab_values_view_set_energy (XrlabValuesView *self,
                              double           energy_ev)
{
  const XrlabEnergyRange *range = xrlab_sweep_get_default_range ();
  g_autofree char *text = NULL;
  XrlabEnergyPlace place;

  g_return_if_fail (XRLAB_IS_VALUES_VIEW (self));
  place = xrlab_energy_place (energy_ev, range->complete_min_ev, range->max_ev, &energy_ev);
  g_return_if_fail (place == XRLAB_ENERGY_INSIDE);

  self->energy_ev = energy_ev;
  text = xrlab_format_user_number (energy_ev * 1e-3, FALSE);
  self->updating = TRUE;
  gtk_editable_set_text (GTK_EDITABLE (self->energy_entry), text);
  self->updating = FALSE;
  gtk_widget_remove_css_class (GTK_WIDGET (self->energy_entry), "error");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), FALSE);
  show_wavelength (self);
  select_line_for_energy (self);
}

void
xrlab_values_view_set_values (XrlabValuesView    *self,
                              guint               n_materials,
                              const char * const *names,
                              const char * const *notes,
                              const double       *values,
                              gpointer            owner,
                              GDestroyNotify      free_func)
{
  g_return_if_fail (XRLAB_IS_VALUES_VIEW (self));
  g_return_if_fail (n_materials == 0 || (names != NULL && values != NULL));

  clear_values (self);
  self->n_materials = n_materials;
  self->names = g_new0 (char *, n_materials + 1);
  self->notes = g_new0 (char *, n_materials + 1);
  for (guint m = 0; m < n_materials; m++)
    {
      self->names[m] = g_strdup (names[m]);
      self->notes[m] = notes != NULL ? g_strdup (notes[m]) : NULL;
    }
  self->values = values;
  self->owner = owner;
  self->free_owner = free_func;
  rebuild (self);
}

void
xrlab_values_view_clear (XrlabValuesView *self)
{
  g_return_if_fail (XRLAB_IS_VALUES_VIEW (self));
  clear_values (self);
  self->names = g_new0 (char *, 1);
  self->notes = g_new0 (char *, 1);
  rebuild (self);
}

guint
xrlab_values_view_get_n_materials (XrlabValuesView *self)
{
  g_return_val_if_fail (XRLAB_IS_VALUES_VIEW (self), 0);
  return self->n_materials;
}

char *
xrlab_values_view_to_tsv (XrlabValuesView *self)
{
  GString *s;
  char buf[XRLAB_DTOA_BUFSIZE];

  g_return_val_if_fail (XRLAB_IS_VALUES_VIEW (self), NULL);

  s = g_string_new (NULL);
  g_string_append_printf (s, "# %s keV\n", xrlab_format_double (self->energy_ev * 1e-3, buf));
  g_string_append_printf (s, "%s\t%s", _("Quantity"), _("Unit"));
  for (guint m = 0; m < self->n_materials; m++)
    g_string_append_printf (s, "\t%s", self->names[m]);
  g_string_append_c (s, '\n');
  for (guint q = 0; q < XRLAB_QUANTITY_N; q++)
    {
      const XrlabQuantityInfo *info = xrlab_quantity_get_info (q);
      g_string_append_printf (s, "%s\t%s", info->title, info->display_unit != NULL ? info->display_unit : "");
      for (guint m = 0; m < self->n_materials; m++)
        g_string_append_printf (s, "\t%s", xrlab_format_double (display_value (self, q, m), buf));
      g_string_append_c (s, '\n');
    }
  return g_string_free (s, FALSE);
}

void
xrlab_values_view_copy (XrlabValuesView *self)
{
  g_autofree char *text = NULL;

  g_return_if_fail (XRLAB_IS_VALUES_VIEW (self));
  text = xrlab_values_view_to_tsv (self);
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), text);
}

char *
xrlab_values_view_get_cell_text (XrlabValuesView   *self,
                                 XrlabQuantity  quantity,
                                 guint              material)
{
  g_return_val_if_fail (XRLAB_IS_VALUES_VIEW (self), NULL);
  return format_display (display_value (self, quantity, material));
}
