/* xrlab-reflect-page.c -- the Reflectivity page: stacks and their editor on
 * the left, the view's controls, the plot or the map on the right
 *
 * Edits schedule one refresh at high idle priority (a burst of keystrokes
 * is one round): the changed stacks go to the engine (one update each, or
 * the whole list when stacks came or went), then the shown view fetches.
 * Replies of older rounds are ignored by a serial number; the engine marks
 * what a newer edit replaced SUPERSEDED.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-reflect-page-private.h"

#include <math.h>
#include <string.h>

#include <adwaita.h>
#include <glib/gi18n-lib.h>

#include "xrlab-engine-reflect.h"
#include "xrlab-util.h"

/* Curve colours, as the materials' (xrlab-material-list.c). */
static const char *const palette[] = {
  "#1c71d8", "#e66100", "#26a269", "#9141ac", "#c01c28",
  "#986a44", "#1a8a97", "#c88800", "#c061cb", "#5e5c64",
};


G_DEFINE_FINAL_TYPE (XrlabReflectPage, xrlab_reflect_page, GTK_TYPE_BOX)

enum { CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

static void rebuild_list (XrlabReflectPage *self);

/* ---- settings ------------------------------------------------------------------- */

void
xrlab_reflect_settings_clear (XrlabReflectSettings *s)
{
  g_clear_pointer (&s->energy, g_free);
  g_clear_pointer (&s->energies, g_free);
  g_clear_pointer (&s->angle, g_free);
  g_clear_pointer (&s->angles, g_free);
}

void
xrlab_reflect_settings_init_default (XrlabReflectSettings *s)
{
  memset (s, 0, sizeof *s);
  s->view = XRLAB_REFLECT_VIEW_ANGLES;
  s->energy = g_strdup ("10");
  s->energies = g_strdup ("5:30:500");
  s->angle = g_strdup ("3");
  s->angles = g_strdup ("0:10:500");
  s->degrees = FALSE;
  s->polarization = 0.0;
  s->y_log = TRUE;
  s->table = XRLAB_TABLE_CHOICE_AUTO;
}

/* The table dropdown's entries, in order (as the sweep's). */
static const XrlabTableChoice table_choices[] = {
  XRLAB_TABLE_CHOICE_AUTO, XRLAB_TABLE_CHOICE_HENKE, XRLAB_TABLE_CHOICE_CHANTLER,
};

XrlabTableChoice
xrlab_reflect_page_table (XrlabReflectPage *self)
{
  return table_choices[MIN (gtk_drop_down_get_selected (self->table_choice),
                            G_N_ELEMENTS (table_choices) - 1)];
}

static guint
table_position (XrlabTableChoice choice)
{
  for (guint i = 0; i < G_N_ELEMENTS (table_choices); i++)
    if (table_choices[i] == choice)
      return i;
  return 0;
}

XrlabReflectView
xrlab_reflect_page_view (XrlabReflectPage *self)
{
  return (XrlabReflectView) gtk_drop_down_get_selected (self->view_choice);
}

gboolean
xrlab_reflect_page_degrees (XrlabReflectPage *self)
{
  return gtk_drop_down_get_selected (self->angle_unit) == 1;
}

double
xrlab_reflect_page_polarization (XrlabReflectPage *self)
{
  static const double p[] = { 0.0, 1.0, -1.0 };
  guint k = gtk_drop_down_get_selected (self->polarization);

  return p[MIN (k, 2u)];
}

/* ---- messages -------------------------------------------------------------------- */

void
xrlab_reflect_page_set_message (XrlabReflectPage *self, const char *text)
{
  g_free (self->message_text);
  self->message_text = g_strdup (text);
  gtk_label_set_text (self->message, text != NULL ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (self->message), text != NULL);
}


/* ---- the stack list --------------------------------------------------------------- */

XrlabStackItem *
xrlab_reflect_page_item_at (XrlabReflectPage *self, guint i)
{
  XrlabStackItem *item = g_list_model_get_item (G_LIST_MODEL (self->stacks), i);

  g_object_unref (item);   /* the store keeps it */
  return item;
}

static gboolean
find_item (XrlabReflectPage *self, XrlabStackItem *item, guint *position)
{
  return g_list_store_find (self->stacks, item, position);
}

static void
next_color (XrlabReflectPage *self, GdkRGBA *color)
{
  guint uses[G_N_ELEMENTS (palette)] = { 0 };
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->stacks)), best = 0;

  for (guint i = 0; i < n; i++)
    for (guint p = 0; p < G_N_ELEMENTS (palette); p++)
      {
        GdkRGBA c;
        gdk_rgba_parse (&c, palette[p]);
        uses[p] += gdk_rgba_equal (&c, xrlab_stack_item_get_color (xrlab_reflect_page_item_at (self, i)));
      }
  for (guint p = 1; p < G_N_ELEMENTS (palette); p++)
    if (uses[p] < uses[best])
      best = p;
  gdk_rgba_parse (color, palette[best]);
}

static void
on_visible_toggled (GtkCheckButton *check, XrlabStackItem *item)
{
  xrlab_stack_item_set_visible (item, gtk_check_button_get_active (check));
}

static void
draw_swatch (GtkDrawingArea *area, cairo_t *cr, int w, int h, gpointer data)
{
  const GdkRGBA *c = xrlab_stack_item_get_color (data);

  gdk_cairo_set_source_rgba (cr, c);
  cairo_arc (cr, w / 2.0, h / 2.0, MIN (w, h) / 2.0 - 1, 0, 2 * G_PI);
  cairo_fill (cr);
}

/* A row: visible, colour, label and kind, error icon. */
static GtkWidget *
stack_row (XrlabReflectPage *self, XrlabStackItem *item)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *check = gtk_check_button_new ();
  GtkWidget *swatch = gtk_drawing_area_new ();
  GtkWidget *labels = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *title = gtk_label_new (xrlab_stack_item_get_label (item));
  GtkWidget *subtitle = gtk_label_new (xrlab_stack_item_get_kind (item) == XRLAB_STACK_FILTER
                                       ? _("Filter and gas path") : _("Mirror or multilayer"));
  const char *error = xrlab_stack_item_get_error (item);

  gtk_check_button_set_active (GTK_CHECK_BUTTON (check), xrlab_stack_item_get_visible (item));
  gtk_widget_set_tooltip_text (check, _("Show in the plot"));
  g_signal_connect_object (check, "toggled", G_CALLBACK (on_visible_toggled), item, 0);
  gtk_box_append (GTK_BOX (box), check);
  gtk_widget_set_size_request (swatch, 14, 14);
  gtk_widget_set_valign (swatch, GTK_ALIGN_CENTER);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (swatch), draw_swatch, g_object_ref (item), g_object_unref);
  gtk_box_append (GTK_BOX (box), swatch);
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_ellipsize (GTK_LABEL (title), PANGO_ELLIPSIZE_END);
  gtk_label_set_xalign (GTK_LABEL (subtitle), 0);
  gtk_widget_add_css_class (subtitle, "dim-label");
  gtk_widget_add_css_class (subtitle, "caption");
  gtk_box_append (GTK_BOX (labels), title);
  gtk_box_append (GTK_BOX (labels), subtitle);
  gtk_widget_set_hexpand (labels, TRUE);
  gtk_box_append (GTK_BOX (box), labels);
  if (error != NULL)
    {
      GtkWidget *icon = gtk_image_new_from_icon_name ("dialog-warning-symbolic");
      gtk_widget_add_css_class (icon, "error");
      gtk_widget_set_tooltip_text (icon, error);
      gtk_box_append (GTK_BOX (box), icon);
    }
  gtk_widget_set_margin_top (box, 6);
  gtk_widget_set_margin_bottom (box, 6);
  gtk_widget_set_margin_start (box, 8);
  gtk_widget_set_margin_end (box, 8);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  g_object_set_data (G_OBJECT (row), "item", item);
  return row;
}

static void
rebuild_list (XrlabReflectPage *self)
{
  XrlabStackItem *selected = xrlab_stack_editor_get_item (self->editor);
  GtkWidget *child;

  self->building = TRUE;
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->stack_list))) != NULL)
    gtk_list_box_remove (self->stack_list, child);
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->stacks)); i++)
    {
      XrlabStackItem *item = xrlab_reflect_page_item_at (self, i);
      GtkWidget *row = stack_row (self, item);

      gtk_list_box_append (self->stack_list, row);
      if (item == selected)
        gtk_list_box_select_row (self->stack_list, GTK_LIST_BOX_ROW (row));
    }
  self->building = FALSE;
}

/* The row of @item shows its label and error anew (without rebuilding the
 * list, which would take the focus from the editor). */
static void
update_row (XrlabReflectPage *self, XrlabStackItem *item)
{
  guint position;
  GtkListBoxRow *row;
  GtkWidget *fresh;

  if (!find_item (self, item, &position)
      || (row = gtk_list_box_get_row_at_index (self->stack_list, (int) position)) == NULL)
    return;
  fresh = stack_row (self, item);
  /* Move the new row's box into the old row. */
  {
    GtkWidget *box = gtk_list_box_row_get_child (GTK_LIST_BOX_ROW (fresh));
    g_object_ref (box);
    gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (fresh), NULL);
    gtk_list_box_row_set_child (row, box);
    g_object_unref (box);
  }
  g_object_ref_sink (fresh);
  g_object_unref (fresh);
}

static void
on_row_selected (GtkListBox *list, GtkListBoxRow *row, XrlabReflectPage *self)
{
  if (self->building)
    return;
  xrlab_stack_editor_set_item (self->editor, row != NULL ? g_object_get_data (G_OBJECT (row), "item") : NULL);
  if (xrlab_reflect_page_view (self) == XRLAB_REFLECT_VIEW_MAP)
    {
      self->view_dirty = TRUE;
      xrlab_reflect_page_schedule (self);
    }
}

/* ---- edits -------------------------------------------------------------------------- */

static void
on_item_changed (XrlabStackItem *item, XrlabReflectPage *self)
{
  const char *sent = g_object_get_data (G_OBJECT (item), "sent-text");

  update_row (self, item);
  if (g_strcmp0 (xrlab_stack_item_get_text (item), sent) != 0)
    g_hash_table_add (self->dirty, GUINT_TO_POINTER (xrlab_stack_item_get_id (item)));
  /* Visibility, colour and name show in the plot; an error's column, which
   * a reply brings, too. */
  self->view_dirty = TRUE;
  xrlab_reflect_page_schedule (self);
  g_signal_emit (self, signals[CHANGED], 0);
}

static void
on_stacks_changed (GListModel *model, guint position, guint removed, guint added, XrlabReflectPage *self)
{
  for (guint i = position; i < position + added; i++)
    {
      XrlabStackItem *item = xrlab_reflect_page_item_at (self, i);
      if (g_object_get_data (G_OBJECT (item), "page-handler") == NULL)
        g_object_set_data (G_OBJECT (item), "page-handler",
                           GSIZE_TO_POINTER (g_signal_connect_object (item, "changed",
                                                                      G_CALLBACK (on_item_changed),
                                                                      self, 0)));
    }
  self->list_dirty = TRUE;
  self->view_dirty = TRUE;
  rebuild_list (self);
  xrlab_reflect_page_schedule (self);
  g_signal_emit (self, signals[CHANGED], 0);
}

/* ---- the controls ------------------------------------------------------------------ */

static void
show_controls (XrlabReflectPage *self)
{
  XrlabReflectView view = xrlab_reflect_page_view (self);

  gtk_widget_set_visible (self->energy_box, view == XRLAB_REFLECT_VIEW_ANGLES);
  gtk_widget_set_visible (self->energies_box, view != XRLAB_REFLECT_VIEW_ANGLES);
  gtk_widget_set_visible (self->angle_box, view == XRLAB_REFLECT_VIEW_ENERGIES);
  gtk_widget_set_visible (self->angles_box, view == XRLAB_REFLECT_VIEW_ANGLES || view == XRLAB_REFLECT_VIEW_MAP);
  gtk_widget_set_sensitive (GTK_WIDGET (self->polarization), view != XRLAB_REFLECT_VIEW_FILTERS);
  gtk_widget_set_sensitive (GTK_WIDGET (self->angle_unit), view != XRLAB_REFLECT_VIEW_FILTERS);
  gtk_widget_set_sensitive (GTK_WIDGET (self->y_log), view != XRLAB_REFLECT_VIEW_MAP);
  gtk_stack_set_visible_child_name (self->views, view == XRLAB_REFLECT_VIEW_MAP ? "map" : "plot");
}

static void
on_control_changed (XrlabReflectPage *self)
{
  if (self->building)
    return;
  show_controls (self);
  xrlab_plot_set_y_log (self->plot, gtk_toggle_button_get_active (self->y_log));
  self->view_dirty = TRUE;
  xrlab_reflect_page_schedule (self);
  g_signal_emit (self, signals[CHANGED], 0);
}

static void
on_add_reflect (GtkButton *button, XrlabReflectPage *self)
{
  XrlabStackItem *item = xrlab_reflect_page_add_stack (self, "", "Pt:21.45:30nm~0.4nm/Si:2.33~0.3nm",
                                                       XRLAB_STACK_REFLECT, NULL, TRUE);
  xrlab_reflect_page_select (self, item);
}

static void
on_add_filter (GtkButton *button, XrlabReflectPage *self)
{
  XrlabStackItem *item = xrlab_reflect_page_add_stack (self, "", "Al:100um/air@1atm,295K:1m",
                                                       XRLAB_STACK_FILTER, NULL, TRUE);
  xrlab_reflect_page_select (self, item);
}

static void
on_remove (GtkButton *button, XrlabReflectPage *self)
{
  XrlabStackItem *item = xrlab_stack_editor_get_item (self->editor);
  guint position;

  if (item == NULL || !find_item (self, item, &position))
    return;
  xrlab_stack_editor_set_item (self->editor, NULL);
  g_list_store_remove (self->stacks, position);
  if (g_list_model_get_n_items (G_LIST_MODEL (self->stacks)) > 0)
    xrlab_reflect_page_select (self, xrlab_reflect_page_item_at (self, MIN (position, g_list_model_get_n_items (G_LIST_MODEL (self->stacks)) - 1)));
}

static GtkWidget *
labelled (const char *label, GtkWidget *widget, const char *unit)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  GtkWidget *l = gtk_label_new_with_mnemonic (label);

  gtk_label_set_mnemonic_widget (GTK_LABEL (l), widget);
  gtk_box_append (GTK_BOX (box), l);
  gtk_box_append (GTK_BOX (box), widget);
  if (unit != NULL)
    {
      GtkWidget *u = gtk_label_new (unit);
      gtk_widget_add_css_class (u, "dim-label");
      gtk_box_append (GTK_BOX (box), u);
    }
  return box;
}

static GtkEntry *
spec_entry (XrlabReflectPage *self, const char *text, int width, const char *tooltip)
{
  GtkEntry *e = GTK_ENTRY (gtk_entry_new ());

  gtk_editable_set_text (GTK_EDITABLE (e), text);
  gtk_editable_set_width_chars (GTK_EDITABLE (e), width);
  gtk_widget_set_tooltip_text (GTK_WIDGET (e), tooltip);
  g_signal_connect_swapped (e, "changed", G_CALLBACK (on_control_changed), self);
  return e;
}

static GtkWidget *
build_toolbar (XrlabReflectPage *self)
{
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  const char *views[] = { _("R vs angle"), _("R vs energy"), _("Map"), _("Filters"), NULL };
  const char *units[] = { "mrad", "°", NULL };
  const char *pols[] = { _("Unpolarized"), _("s"), _("p"), NULL };
  const char *tables[] = { _("Auto"), "Henke", "Chantler", NULL };

  gtk_widget_add_css_class (bar, "plot-toolbar");
  gtk_widget_set_margin_start (bar, 12);
  gtk_widget_set_margin_end (bar, 12);
  gtk_widget_set_margin_top (bar, 6);
  gtk_widget_set_margin_bottom (bar, 6);
  self->view_choice = GTK_DROP_DOWN (gtk_drop_down_new_from_strings (views));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->view_choice), _("What to plot"));
  g_signal_connect_swapped (self->view_choice, "notify::selected", G_CALLBACK (on_control_changed), self);
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->view_choice));

  self->energy_entry = spec_entry (self, "10", 6, _("The photon energy of the curves vs angle"));
  self->energy_box = labelled (_("_Energy"), GTK_WIDGET (self->energy_entry), "keV");
  gtk_box_append (GTK_BOX (bar), self->energy_box);
  self->energies_entry = spec_entry (self, "5:30:500", 12, _("Energies: 10, 5,10,15, 5:30:500 or 1:30:500:log"));
  self->energies_box = labelled (_("_Energies"), GTK_WIDGET (self->energies_entry), "keV");
  gtk_box_append (GTK_BOX (bar), self->energies_box);
  self->angle_entry = spec_entry (self, "3", 6, _("The grazing angle of the curves vs energy"));
  self->angle_box = labelled (_("_Angle"), GTK_WIDGET (self->angle_entry), NULL);
  gtk_box_append (GTK_BOX (bar), self->angle_box);
  self->angles_entry = spec_entry (self, "0:10:500", 12, _("Grazing angles: 5, 1,2,5, 0:10:500 or 0.1:10:200:log"));
  self->angles_box = labelled (_("_Angles"), GTK_WIDGET (self->angles_entry), NULL);
  gtk_box_append (GTK_BOX (bar), self->angles_box);

  self->angle_unit = GTK_DROP_DOWN (gtk_drop_down_new_from_strings (units));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->angle_unit), _("Unit of the angles"));
  g_signal_connect_swapped (self->angle_unit, "notify::selected", G_CALLBACK (on_control_changed), self);
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->angle_unit));
  self->polarization = GTK_DROP_DOWN (gtk_drop_down_new_from_strings (pols));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->polarization), _("Polarization of the beam"));
  g_signal_connect_swapped (self->polarization, "notify::selected", G_CALLBACK (on_control_changed), self);
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->polarization));
  self->table_choice = GTK_DROP_DOWN (gtk_drop_down_new_from_strings (tables));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->table_choice),
                               _("Scattering factors: Henke (30 eV – 30 keV), Chantler (1 eV – 966 keV), "
                                 "or Auto: Henke when all the energies lie within 30 eV – 30 keV, "
                                 "Chantler for all of them otherwise"));
  g_signal_connect_swapped (self->table_choice, "notify::selected", G_CALLBACK (on_control_changed), self);
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->table_choice));
  self->y_log = GTK_TOGGLE_BUTTON (gtk_toggle_button_new_with_label (_("Log")));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->y_log), _("Logarithmic y axis"));
  gtk_toggle_button_set_active (self->y_log, TRUE);
  g_signal_connect_swapped (self->y_log, "toggled", G_CALLBACK (on_control_changed), self);
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->y_log));
  return bar;
}

static GtkWidget *
build_sidebar (XrlabReflectPage *self)
{
  GtkWidget *side = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *heading = gtk_label_new (_("Stacks"));
  GtkWidget *scroll = gtk_scrolled_window_new ();
  GtkWidget *buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *add_reflect = gtk_button_new_with_mnemonic (_("_Mirror"));
  GtkWidget *add_filter = gtk_button_new_with_mnemonic (_("_Filter"));
  GtkWidget *remove = gtk_button_new_from_icon_name ("user-trash-symbolic");

  gtk_widget_set_margin_start (side, 12);
  gtk_widget_set_margin_end (side, 12);
  gtk_widget_set_margin_top (side, 12);
  gtk_widget_set_margin_bottom (side, 12);
  gtk_widget_add_css_class (heading, "heading");
  gtk_widget_set_halign (heading, GTK_ALIGN_START);
  gtk_box_append (GTK_BOX (side), heading);

  self->stack_list = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_widget_add_css_class (GTK_WIDGET (self->stack_list), "boxed-list");
  gtk_list_box_set_selection_mode (self->stack_list, GTK_SELECTION_SINGLE);
  g_signal_connect (self->stack_list, "row-selected", G_CALLBACK (on_row_selected), self);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroll), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scroll), TRUE);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scroll), 260);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroll), GTK_WIDGET (self->stack_list));
  gtk_box_append (GTK_BOX (side), scroll);

  gtk_widget_set_tooltip_text (add_reflect, _("Add a mirror or multilayer"));
  gtk_widget_set_tooltip_text (add_filter, _("Add a stack of filters and gas paths"));
  gtk_widget_set_tooltip_text (remove, _("Remove the selected stack"));
  g_signal_connect (add_reflect, "clicked", G_CALLBACK (on_add_reflect), self);
  g_signal_connect (add_filter, "clicked", G_CALLBACK (on_add_filter), self);
  g_signal_connect (remove, "clicked", G_CALLBACK (on_remove), self);
  gtk_box_append (GTK_BOX (buttons), add_reflect);
  gtk_box_append (GTK_BOX (buttons), add_filter);
  gtk_widget_set_hexpand (remove, TRUE);
  gtk_widget_set_halign (remove, GTK_ALIGN_END);
  gtk_box_append (GTK_BOX (buttons), remove);
  gtk_box_append (GTK_BOX (side), buttons);

  self->editor = XRLAB_STACK_EDITOR (xrlab_stack_editor_new ());
  gtk_widget_set_vexpand (GTK_WIDGET (self->editor), TRUE);
  gtk_box_append (GTK_BOX (side), GTK_WIDGET (self->editor));
  return side;
}

/* ---- GObject ----------------------------------------------------------------------- */

static void
xrlab_reflect_page_dispose (GObject *object)
{
  XrlabReflectPage *self = XRLAB_REFLECT_PAGE (object);

  g_clear_handle_id (&self->refresh_id, g_source_remove);
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  if (self->map_cancellable != NULL)
    g_cancellable_cancel (self->map_cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->map_cancellable);
  g_clear_object (&self->engine);
  g_clear_object (&self->materials);
  g_clear_object (&self->stacks);
  g_clear_pointer (&self->dirty, g_hash_table_unref);
  G_OBJECT_CLASS (xrlab_reflect_page_parent_class)->dispose (object);
}

static void
xrlab_reflect_page_finalize (GObject *object)
{
  g_free (XRLAB_REFLECT_PAGE (object)->message_text);
  G_OBJECT_CLASS (xrlab_reflect_page_parent_class)->finalize (object);
}

static void
xrlab_reflect_page_class_init (XrlabReflectPageClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = xrlab_reflect_page_dispose;
  G_OBJECT_CLASS (klass)->finalize = xrlab_reflect_page_finalize;
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
xrlab_reflect_page_init (XrlabReflectPage *self)
{
  GtkWidget *right = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_HORIZONTAL);
  self->stacks = g_list_store_new (XRLAB_TYPE_STACK_ITEM);
  self->dirty = g_hash_table_new (NULL, NULL);
  self->cancellable = g_cancellable_new ();
  g_signal_connect (self->stacks, "items-changed", G_CALLBACK (on_stacks_changed), self);

  {
    /* As wide whatever the view's toolbar needs: the editor scrolls. */
    GtkWidget *scroll = gtk_scrolled_window_new ();

    gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroll), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
    gtk_scrolled_window_set_propagate_natural_width (GTK_SCROLLED_WINDOW (scroll), FALSE);
    gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroll), build_sidebar (self));
    gtk_widget_set_size_request (scroll, 420, -1);
    gtk_box_append (GTK_BOX (self), scroll);
  }
  gtk_box_append (GTK_BOX (self), gtk_separator_new (GTK_ORIENTATION_VERTICAL));

  gtk_box_append (GTK_BOX (right), build_toolbar (self));
  self->message = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_add_css_class (GTK_WIDGET (self->message), "error");
  gtk_label_set_xalign (self->message, 0);
  gtk_label_set_wrap (self->message, TRUE);
  gtk_widget_set_margin_start (GTK_WIDGET (self->message), 12);
  gtk_widget_set_visible (GTK_WIDGET (self->message), FALSE);
  gtk_box_append (GTK_BOX (right), GTK_WIDGET (self->message));

  self->views = GTK_STACK (gtk_stack_new ());
  self->plot = XRLAB_PLOT (xrlab_plot_new ());
  gtk_widget_set_hexpand (GTK_WIDGET (self->plot), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self->plot), TRUE);
  xrlab_plot_set_y_log (self->plot, TRUE);
  xrlab_plot_set_axes (self->plot, _("Grazing angle"), "mrad", _("Reflectivity"), NULL);
  xrlab_plot_set_message (self->plot, _("Add a stack, or show one"));
  self->map_view = XRLAB_MAP_VIEW (xrlab_map_view_new ());
  xrlab_map_view_set_message (self->map_view, _("Select a mirror or multilayer for its map"));
  gtk_stack_add_named (self->views, GTK_WIDGET (self->plot), "plot");
  gtk_stack_add_named (self->views, GTK_WIDGET (self->map_view), "map");
  gtk_box_append (GTK_BOX (right), GTK_WIDGET (self->views));
  gtk_widget_set_hexpand (right, TRUE);
  gtk_box_append (GTK_BOX (self), right);
  show_controls (self);
}

/* ---- the public API ----------------------------------------------------------------- */

GtkWidget *
xrlab_reflect_page_new (void)
{
  return g_object_new (XRLAB_TYPE_REFLECT_PAGE, NULL);
}

void
xrlab_reflect_page_set_engine (XrlabReflectPage *self, XrlabEngine *engine)
{
  g_return_if_fail (XRLAB_IS_REFLECT_PAGE (self));
  g_set_object (&self->engine, engine);
  self->list_dirty = TRUE;
  self->view_dirty = TRUE;
  xrlab_reflect_page_schedule (self);
}

void
xrlab_reflect_page_set_materials (XrlabReflectPage *self, GListModel *materials)
{
  g_return_if_fail (XRLAB_IS_REFLECT_PAGE (self));
  g_set_object (&self->materials, materials);
  xrlab_stack_editor_set_materials (self->editor, materials);
}

GListStore *
xrlab_reflect_page_get_stacks (XrlabReflectPage *self)
{
  g_return_val_if_fail (XRLAB_IS_REFLECT_PAGE (self), NULL);
  return self->stacks;
}

XrlabStackItem *
xrlab_reflect_page_get_selected (XrlabReflectPage *self)
{
  g_return_val_if_fail (XRLAB_IS_REFLECT_PAGE (self), NULL);
  return xrlab_stack_editor_get_item (self->editor);
}

void
xrlab_reflect_page_select (XrlabReflectPage *self, XrlabStackItem *item)
{
  guint position;

  g_return_if_fail (XRLAB_IS_REFLECT_PAGE (self));
  if (item != NULL && find_item (self, item, &position))
    gtk_list_box_select_row (self->stack_list, gtk_list_box_get_row_at_index (self->stack_list, (int) position));
  else
    gtk_list_box_unselect_all (self->stack_list);
}

XrlabStackItem *
xrlab_reflect_page_add_stack (XrlabReflectPage *self, const char *name, const char *text,
                              XrlabStackKind kind, const GdkRGBA *color, gboolean visible)
{
  GdkRGBA c;
  g_autoptr(XrlabStackItem) item = NULL;

  g_return_val_if_fail (XRLAB_IS_REFLECT_PAGE (self), NULL);
  if (color == NULL)
    next_color (self, &c);
  item = xrlab_stack_item_new (name, text, kind, color != NULL ? color : &c);
  xrlab_stack_item_set_visible (item, visible);
  g_list_store_append (self->stacks, item);
  return item;
}

void
xrlab_reflect_page_clear (XrlabReflectPage *self)
{
  g_return_if_fail (XRLAB_IS_REFLECT_PAGE (self));
  xrlab_stack_editor_set_item (self->editor, NULL);
  g_list_store_remove_all (self->stacks);
}

void
xrlab_reflect_page_get_settings (XrlabReflectPage *self, XrlabReflectSettings *s)
{
  g_return_if_fail (XRLAB_IS_REFLECT_PAGE (self));
  memset (s, 0, sizeof *s);
  s->view = xrlab_reflect_page_view (self);
  s->energy = g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->energy_entry)));
  s->energies = g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->energies_entry)));
  s->angle = g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->angle_entry)));
  s->angles = g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->angles_entry)));
  s->degrees = xrlab_reflect_page_degrees (self);
  s->polarization = xrlab_reflect_page_polarization (self);
  s->y_log = gtk_toggle_button_get_active (self->y_log);
  s->table = xrlab_reflect_page_table (self);
}

void
xrlab_reflect_page_set_settings (XrlabReflectPage *self, const XrlabReflectSettings *s)
{
  g_return_if_fail (XRLAB_IS_REFLECT_PAGE (self));
  self->building = TRUE;
  gtk_drop_down_set_selected (self->view_choice, MIN ((guint) s->view, 3u));
  gtk_editable_set_text (GTK_EDITABLE (self->energy_entry), s->energy ? s->energy : "10");
  gtk_editable_set_text (GTK_EDITABLE (self->energies_entry), s->energies ? s->energies : "5:30:500");
  gtk_editable_set_text (GTK_EDITABLE (self->angle_entry), s->angle ? s->angle : "3");
  gtk_editable_set_text (GTK_EDITABLE (self->angles_entry), s->angles ? s->angles : "0:10:500");
  gtk_drop_down_set_selected (self->angle_unit, s->degrees ? 1 : 0);
  gtk_drop_down_set_selected (self->polarization, s->polarization > 0.5 ? 1 : s->polarization < -0.5 ? 2 : 0);
  gtk_toggle_button_set_active (self->y_log, s->y_log);
  gtk_drop_down_set_selected (self->table_choice, table_position (s->table));
  self->building = FALSE;
  on_control_changed (self);
}

void
xrlab_reflect_page_set_active (XrlabReflectPage *self, gboolean active)
{
  g_return_if_fail (XRLAB_IS_REFLECT_PAGE (self));
  if (self->active == !!active)
    return;
  self->active = !!active;
  if (self->active)
    xrlab_reflect_page_schedule (self);
}

gboolean
xrlab_reflect_page_is_busy (XrlabReflectPage *self)
{
  g_return_val_if_fail (XRLAB_IS_REFLECT_PAGE (self), FALSE);
  return self->refresh_id != 0 || self->pending > 0;
}

XrlabPlot *
xrlab_reflect_page_get_plot (XrlabReflectPage *self)
{
  g_return_val_if_fail (XRLAB_IS_REFLECT_PAGE (self), NULL);
  return self->plot;
}

XrlabMapView *
xrlab_reflect_page_get_map_view (XrlabReflectPage *self)
{
  g_return_val_if_fail (XRLAB_IS_REFLECT_PAGE (self), NULL);
  return self->map_view;
}

XrlabStackEditor *
xrlab_reflect_page_get_editor (XrlabReflectPage *self)
{
  g_return_val_if_fail (XRLAB_IS_REFLECT_PAGE (self), NULL);
  return self->editor;
}

const char *
xrlab_reflect_page_get_message (XrlabReflectPage *self)
{
  g_return_val_if_fail (XRLAB_IS_REFLECT_PAGE (self), NULL);
  return self->message_text;
}

GtkWidget *
xrlab_reflect_page_get_shown_view (XrlabReflectPage *self)
{
  g_return_val_if_fail (XRLAB_IS_REFLECT_PAGE (self), NULL);
  return xrlab_reflect_page_view (self) == XRLAB_REFLECT_VIEW_MAP ? GTK_WIDGET (self->map_view) : GTK_WIDGET (self->plot);
}

gboolean
xrlab_reflect_page_export (XrlabReflectPage *self, const char *path, XrlabPlotFormat format,
                           int width, int height, double scale, gboolean dark, GError **error)
{
  g_return_val_if_fail (XRLAB_IS_REFLECT_PAGE (self), FALSE);
  if (xrlab_reflect_page_view (self) == XRLAB_REFLECT_VIEW_MAP)
    return xrlab_map_view_export (self->map_view, path, format, width, height, scale, dark, error);
  return xrlab_plot_export (self->plot, path, format, width, height, scale, dark, error);
}
