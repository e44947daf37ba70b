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
#include "xrlab-widget-util.h"

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
  GtkLabel *unit_label;
  GtkLabel *wavelength_label;
  GtkLabel *error_label;
  GtkColumnView *column_view;

  double energy_ev;
  XrlabEnergyUnit unit;      /* of the energy entry: the sweep's */
  char *energy_error;        /* the entry does not hold a valid energy */
  gboolean updating;
  const XrlabEnergyRange *range;   /* the energies accepted */
  XrlabTableChoice choice;         /* the choice that range is of */
  int table;                       /* the values' table (XrlabTable), -1 when none */

  /* Properties of the materials that do not depend on the energy. */
  double *molar_mass;        /* g/mol, NaN when unknown */
  double *electron_density;  /* e/Å³ */
  char **composition;
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

/* Rows after the quantities: what a material is, whatever the energy. */
enum {
  ROW_MOLAR_MASS = XRLAB_QUANTITY_N,
  ROW_ELECTRON_DENSITY,
  ROW_COMPOSITION,
  ROW_END
};

static const struct {
  const char *id;
  const char *title;
  const char *unit;
} property_rows[] = {
  { "molar_mass_g_mol", N_("Molar mass M"), "g/mol" },
  { "electron_density_per_A3", N_("Electron density ρₑ"), "e/Å³" },
  { "composition", N_("Composition (mass fractions)"), NULL },
};

/* The row of the item: an XrlabQuantity, or a ROW_* of property_rows. */
static guint
item_row (GtkListItem *item)
{
  GtkStringObject *obj = gtk_list_item_get_item (item);
  const char *id = gtk_string_object_get_string (obj);
  XrlabQuantity q = XRLAB_QUANTITY_DELTA;

  for (guint i = 0; i < G_N_ELEMENTS (property_rows); i++)
    if (g_str_equal (id, property_rows[i].id))
      return ROW_MOLAR_MASS + i;
  xrlab_quantity_from_column (id, &q);
  return q;
}

static const char *
row_title (guint row)
{
  if (row >= ROW_MOLAR_MASS)
    return _(property_rows[row - ROW_MOLAR_MASS].title);
  return xrlab_quantity_get_info (row)->title;
}

static const char *
row_unit (guint row)
{
  if (row >= ROW_MOLAR_MASS)
    return property_rows[row - ROW_MOLAR_MASS].unit;
  return xrlab_quantity_get_info (row)->display_unit;
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
  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)), row_title (item_row (item)));
}

static void
bind_unit (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           gpointer                  user_data)
{
  const char *unit = row_unit (item_row (item));
  GtkWidget *label = gtk_list_item_get_child (item);

  gtk_label_set_text (GTK_LABEL (label), unit != NULL ? unit : "—");
  gtk_widget_add_css_class (label, "dim-label");
}

/* The text of a property row for material @m; NULL when unknown. */
static char *
property_text (XrlabValuesView *self, guint row, guint m, gboolean display, gboolean localize)
{
  char buf[XRLAB_DTOA_BUFSIZE];
  double v;

  if (m >= self->n_materials || self->molar_mass == NULL)
    return NULL;
  if (row == ROW_COMPOSITION)
    return localize ? xrlab_localize_decimal_point (g_strdup (self->composition[m])) : g_strdup (self->composition[m]);
  v = row == ROW_MOLAR_MASS ? self->molar_mass[m] : self->electron_density[m];
  if (isnan (v))
    return NULL;
  if (display)
    return format_display (v);
  return localize ? xrlab_localize_decimal_point (g_strdup (xrlab_format_double (v, buf)))
                  : g_strdup (xrlab_format_double (v, buf));
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
  guint row = item_row (item);
  g_autofree char *text = row >= ROW_MOLAR_MASS ? property_text (cd->view, row, cd->material, TRUE, TRUE)
                                                : format_display (display_value (cd->view, row, cd->material));

  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)), text != NULL ? text : "—");
}

static void
add_column (XrlabValuesView *self, const char *title, GtkListItemFactory *factory, gboolean expand)
{
  GtkColumnViewColumn *col = gtk_column_view_column_new (title, factory);

  gtk_column_view_column_set_resizable (col, TRUE);
  gtk_column_view_column_set_expand (col, expand);
  /* Material columns of one width that the table scrolls through. */
  if (!expand)
    gtk_column_view_column_set_fixed_width (col, 150);
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
  {
    g_autoptr(GtkColumnViewColumn) unit = g_list_model_get_item (columns, 1);
    gtk_column_view_column_set_fixed_width (unit, 140);
  }

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

  /* λ is the same for every material: it is shown beside the energy. */
  for (guint q = 0; q < XRLAB_QUANTITY_N; q++)
    if (q != XRLAB_QUANTITY_WAVELENGTH)
      gtk_string_list_append (rows, xrlab_quantity_get_column (q));
  for (guint i = 0; i < G_N_ELEMENTS (property_rows); i++)
    gtk_string_list_append (rows, property_rows[i].id);
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
  g_clear_pointer (&self->molar_mass, g_free);
  g_clear_pointer (&self->electron_density, g_free);
  g_clear_pointer (&self->composition, g_strfreev);
  self->n_materials = 0;
}

/* ---- energy ------------------------------------------------------------------------ */

/* Beside the entry: the wavelength, or the energy when the entry is in Å. */
static void
show_wavelength (XrlabValuesView *self)
{
  g_autofree char *text = NULL;
  g_autofree char *shown = NULL;

  if (self->unit == XRLAB_ENERGY_UNIT_ANGSTROM)
    shown = g_strdup_printf ("E = %.6g keV", self->energy_ev * 1e-3);
  else
    shown = g_strdup_printf ("λ = %.5g Å", xrlab_energy_convert (self->energy_ev, XRLAB_ENERGY_UNIT_EV,
                                                                  XRLAB_ENERGY_UNIT_ANGSTROM));
  if (self->table >= 0)
    /* TRANSLATORS: "λ = 1.5406 Å" or "E = 8.048 keV", then the name of a table ("Henke") */
    text = g_strdup_printf (_("%s · %s tables"), shown, xrlab_table_get_info ((XrlabTable) self->table)->title);
  else
    text = g_steal_pointer (&shown);
  gtk_label_set_text (self->wavelength_label, text);
}

/* The line above the table: why it is stale, or at which energy it is. */
static void
show_status (XrlabValuesView *self)
{
  g_autofree char *at = xrlab_format_energy (self->energy_ev, self->unit);

  if (self->energy_error != NULL)
    {
      /* TRANSLATORS: the energy entry's message, then the energy the table shows */
      g_autofree char *text = g_strdup_printf (_("%s The table shows the values at %s, the last valid energy."),
                                               self->energy_error, at);
      xrlab_message_label_set (self->error_label, XRLAB_MARK_ERROR, text);
      gtk_widget_add_css_class (GTK_WIDGET (self->column_view), "stale");
    }
  else
    {
      xrlab_message_label_set (self->error_label, XRLAB_MARK_NONE, NULL);
      gtk_widget_remove_css_class (GTK_WIDGET (self->column_view), "stale");
    }
  xrlab_entry_mark (GTK_WIDGET (self->energy_entry), self->energy_error != NULL ? XRLAB_MARK_ERROR : XRLAB_MARK_NONE,
                    self->energy_error);
}

static void
show_energy (XrlabValuesView *self)
{
  g_autofree char *text = xrlab_format_user_number (xrlab_energy_convert (self->energy_ev, XRLAB_ENERGY_UNIT_EV,
                                                                          self->unit), FALSE);
  self->updating = TRUE;
  gtk_editable_set_text (GTK_EDITABLE (self->energy_entry), text);
  self->updating = FALSE;
  gtk_label_set_text (self->unit_label, xrlab_energy_unit_get_name (self->unit));
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
  const XrlabEnergyRange *range = self->range;
  const char *text = gtk_editable_get_text (editable);
  const char *unit = xrlab_energy_unit_get_name (self->unit);
  double typed, ev = NAN;

  if (self->updating)
    return;
  g_clear_pointer (&self->energy_error, g_free);
  if (!xrlab_parse_user_number (text, &typed) || !(typed > 0))
    self->energy_error = g_strdup_printf (_("Energy “%s” is not a positive number."), text);
  else if (xrlab_energy_place (xrlab_energy_convert (typed, self->unit, XRLAB_ENERGY_UNIT_EV),
                               range->complete_min_ev, range->max_ev, &ev) != XRLAB_ENERGY_INSIDE)
    {
      g_autofree char *lo = xrlab_format_energy (self->unit == XRLAB_ENERGY_UNIT_ANGSTROM ? range->max_ev
                                                                                          : range->complete_min_ev,
                                                 self->unit);
      g_autofree char *hi = xrlab_format_energy (self->unit == XRLAB_ENERGY_UNIT_ANGSTROM ? range->complete_min_ev
                                                                                          : range->max_ev,
                                                 self->unit);
      /* TRANSLATORS: the value typed with its unit, the table ("Henke"), the valid range */
      self->energy_error = g_strdup_printf (_("%s %s is outside the %s tables (valid: %s – %s)."),
                                            text, unit, range->name, lo, hi);
    }
  show_status (self);
  if (self->energy_error != NULL || ev == self->energy_ev)
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
  g_clear_pointer (&self->energy_error, g_free);
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
    g_param_spec_double ("energy-ev", NULL, NULL,
                         xrlab_energy_range_get_for_choice (XRLAB_TABLE_CHOICE_AUTO)->complete_min_ev,
                         xrlab_energy_range_get_for_choice (XRLAB_TABLE_CHOICE_AUTO)->max_ev,
                         XRLAB_VALUES_DEFAULT_EV,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/xrlab/Xrlab/xrlab-values-view.ui");
  gtk_widget_class_bind_template_child (widget_class, XrlabValuesView, energy_entry);
  gtk_widget_class_bind_template_child (widget_class, XrlabValuesView, line_dropdown);
  gtk_widget_class_bind_template_child (widget_class, XrlabValuesView, unit_label);
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
  self->range = xrlab_sweep_get_default_range ();
  self->table = -1;

  gtk_string_list_append (items, _("Custom energy"));
  for (guint i = 0; i < G_N_ELEMENTS (lines); i++)
    {
      g_autofree char *s = g_strdup_printf ("%s — %.3f keV", lines[i].label, lines[i].kev);
      gtk_string_list_append (items, s);
    }
  gtk_drop_down_set_model (self->line_dropdown, G_LIST_MODEL (items));

  g_signal_connect (self->energy_entry, "changed", G_CALLBACK (on_energy_changed), self);
  g_signal_connect (self->line_dropdown, "notify::selected", G_CALLBACK (on_line_selected), self);
  xrlab_message_label_init (self->error_label, 2);
  xrlab_hide_tooltip_while_open (GTK_WIDGET (self->line_dropdown));
  self->unit = XRLAB_ENERGY_UNIT_KEV;

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
  const XrlabEnergyRange *range = self->range;
  g_autofree char *text = NULL;
  XrlabEnergyPlace place;

  g_return_if_fail (XRLAB_IS_VALUES_VIEW (self));
  place = xrlab_energy_place (energy_ev, range->complete_min_ev, range->max_ev, &energy_ev);
  g_return_if_fail (place == XRLAB_ENERGY_INSIDE);

  self->energy_ev = energy_ev;
  g_clear_pointer (&self->energy_error, g_free);
  show_energy (self);
  show_status (self);
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

/* A number of the copied text: '.' for programs, or the locale's separator
 * for a spreadsheet of that language. */
static const char *
copied_number (double v, gboolean localize, char buf[XRLAB_DTOA_BUFSIZE])
{
  xrlab_format_double (v, buf);
  return localize ? xrlab_localize_decimal_point (buf) : buf;
}

char *
xrlab_values_view_to_tsv_full (XrlabValuesView *self,
                               gboolean         localize)
{
  GString *s;
  char buf[XRLAB_DTOA_BUFSIZE];

  g_return_val_if_fail (XRLAB_IS_VALUES_VIEW (self), NULL);

  s = g_string_new (NULL);
  g_string_append_printf (s, "# %s keV", copied_number (self->energy_ev * 1e-3, localize, buf));
  /* Nothing stale leaves without saying so. */
  if (self->energy_error != NULL)
    g_string_append_printf (s, " (%s)", _("the last valid energy: the energy typed is not valid"));
  g_string_append_c (s, '\n');
  if (self->table >= 0)
    {
      g_autofree char *comment = xrlab_table_format_comment ((XrlabTable) self->table,
                                                             self->choice);
      g_string_append (s, comment);
    }
  g_string_append_printf (s, "%s\t%s", _("Quantity"), _("Unit"));
  for (guint m = 0; m < self->n_materials; m++)
    if (self->notes[m] != NULL)
      g_string_append_printf (s, "\t%s (%s)", self->names[m], self->notes[m]);
    else
      g_string_append_printf (s, "\t%s", self->names[m]);
  g_string_append_c (s, '\n');
  for (guint q = 0; q < ROW_END; q++)
    {
      const char *unit = row_unit (q);
      g_string_append_printf (s, "%s\t%s", row_title (q), unit != NULL ? unit : "");
      for (guint m = 0; m < self->n_materials; m++)
        {
          g_autofree char *text = q >= ROW_MOLAR_MASS ? property_text (self, q, m, FALSE, localize) : NULL;
          if (q < ROW_MOLAR_MASS)
            g_string_append_printf (s, "\t%s", copied_number (display_value (self, q, m), localize, buf));
          else
            g_string_append_printf (s, "\t%s", text != NULL ? text : "");
        }
      g_string_append_c (s, '\n');
    }
  return g_string_free (s, FALSE);
}

char *
xrlab_values_view_to_tsv (XrlabValuesView *self)
{
  return xrlab_values_view_to_tsv_full (self, FALSE);
}

gboolean
xrlab_values_view_is_stale (XrlabValuesView *self)
{
  g_return_val_if_fail (XRLAB_IS_VALUES_VIEW (self), FALSE);
  if (self->energy_error != NULL)
    return TRUE;
  for (guint m = 0; m < self->n_materials; m++)
    if (self->notes[m] != NULL)
      return TRUE;
  return FALSE;
}

GtkEditable *
xrlab_values_view_get_energy_editable (XrlabValuesView *self)
{
  return GTK_EDITABLE (self->energy_entry);
}

const char *
xrlab_values_view_get_energy_error (XrlabValuesView *self)
{
  g_return_val_if_fail (XRLAB_IS_VALUES_VIEW (self), NULL);
  return self->energy_error;
}

void
xrlab_values_view_set_unit (XrlabValuesView *self,
                            XrlabEnergyUnit  unit)
{
  g_return_if_fail (XRLAB_IS_VALUES_VIEW (self));
  if (self->unit == unit)
    return;
  self->unit = unit;
  /* An energy being typed is left alone; a valid one is shown anew. */
  if (self->energy_error == NULL)
    show_energy (self);
  else
    gtk_label_set_text (self->unit_label, xrlab_energy_unit_get_name (unit));
  show_wavelength (self);
}

void
xrlab_values_view_set_properties (XrlabValuesView    *self,
                                  guint               n_materials,
                                  const double       *molar_mass,
                                  const double       *electron_density,
                                  const char * const *composition)
{
  g_return_if_fail (XRLAB_IS_VALUES_VIEW (self));
  g_return_if_fail (n_materials == self->n_materials);

  g_clear_pointer (&self->molar_mass, g_free);
  g_clear_pointer (&self->electron_density, g_free);
  g_clear_pointer (&self->composition, g_strfreev);
  self->molar_mass = g_memdup2 (molar_mass, MAX (n_materials, 1) * sizeof (double));
  self->electron_density = g_memdup2 (electron_density, MAX (n_materials, 1) * sizeof (double));
  self->composition = g_new0 (char *, n_materials + 1);
  for (guint m = 0; m < n_materials; m++)
    self->composition[m] = g_strdup (composition[m]);
  rebuild (self);
}

void
xrlab_values_view_copy_full (XrlabValuesView *self,
                             gboolean         localize)
{
  g_autofree char *text = NULL;

  g_return_if_fail (XRLAB_IS_VALUES_VIEW (self));
  text = xrlab_values_view_to_tsv_full (self, localize);
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), text);
}

void
xrlab_values_view_copy (XrlabValuesView *self)
{
  xrlab_values_view_copy_full (self, FALSE);
}

char *
xrlab_values_view_get_cell_text (XrlabValuesView   *self,
                                 XrlabQuantity  quantity,
                                 guint              material)
{
  g_return_val_if_fail (XRLAB_IS_VALUES_VIEW (self), NULL);
  return format_display (display_value (self, quantity, material));
}

void
xrlab_values_view_set_range (XrlabValuesView        *self,
                             const XrlabEnergyRange *range,
                             XrlabTableChoice        choice)
{
  g_return_if_fail (XRLAB_IS_VALUES_VIEW (self));
  g_return_if_fail (range != NULL);
  self->range = range;
  self->choice = choice;
  /* Check what is typed against the new range (an error shows inline). */
  on_energy_changed (GTK_EDITABLE (self->energy_entry), self);
}

void
xrlab_values_view_set_table (XrlabValuesView *self,
                             int              table)
{
  g_return_if_fail (XRLAB_IS_VALUES_VIEW (self));
  g_return_if_fail (table >= -1 && table < XRLAB_TABLE_N_TABLES);
  self->table = table;
  show_wavelength (self);
}

int
xrlab_values_view_get_table (XrlabValuesView *self)
{
  g_return_val_if_fail (XRLAB_IS_VALUES_VIEW (self), -1);
  return self->table;
}
