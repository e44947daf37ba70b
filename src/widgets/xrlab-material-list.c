/* xrlab-material-list.c -- the material editor
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-material-list.h"

#include "xrlab-plot-palette.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "xrlab-widget-util.h"

struct _XrlabMaterialList {
  GtkWidget parent_instance;

  /* template children */
  GtkMenuButton *add_button;
  GtkListBox *list_box;
  GtkPopover *add_popover;
  GtkSearchEntry *preset_search;
  GtkListBox *preset_list;
  GtkLabel *preset_status;

  GListStore *store;
  GListModel *presets;
  GtkCustomFilter *preset_filter;
  GtkFilterListModel *filtered_presets;
  char *search_text;
};

G_DEFINE_FINAL_TYPE (XrlabMaterialList, xrlab_material_list, GTK_TYPE_WIDGET)

enum {
  SIGNAL_REMOVED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* Curve colours: the plot's palette (xrlab-plot-palette.h), colour-blind
 * safe; the least used one next, so no two materials share a colour until
 * every one is used. */
void
xrlab_material_palette_next (GListModel *store,
                             GdkRGBA    *color)
{
  guint uses[XRLAB_PLOT_N_SERIES_COLORS] = { 0 };
  guint n = store != NULL ? g_list_model_get_n_items (store) : 0;
  guint best = 0;
  XrlabPlotColor c;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(XrlabMaterial) m = g_list_model_get_item (store, i);
      const GdkRGBA *rgba = xrlab_material_get_color (m);
      XrlabPlotColor mc = { rgba->red, rgba->green, rgba->blue, 1.0 };
      int p = xrlab_plot_palette_series_index (&mc);
      if (p >= 0)
        uses[p]++;
    }
  for (guint p = 1; p < XRLAB_PLOT_N_SERIES_COLORS; p++)
    if (uses[p] < uses[best])
      best = p;
  c = xrlab_plot_palette_series (best);
  *color = (GdkRGBA) { (float) c.red, (float) c.green, (float) c.blue, 1.0f };
}

/* ---- rows ------------------------------------------------------------------------- */

static guint
position_of (XrlabMaterialList *self, XrlabMaterial *material)
{
  guint pos = G_MAXUINT;

  if (self->store == NULL || !g_list_store_find (self->store, material, &pos))
    return G_MAXUINT;
  return pos;
}

static void
focus_formula_later (XrlabMaterialList *self, XrlabMaterial *material)
{
  guint pos = position_of (self, material);
  XrlabMaterialRow *row;

  if (pos == G_MAXUINT)
    return;
  row = xrlab_material_list_get_row (self, pos);
  if (row != NULL)
    gtk_widget_grab_focus (GTK_WIDGET (xrlab_material_row_get_formula_editable (row)));
}

static void
on_row_duplicate (XrlabMaterialRow  *row,
                  XrlabMaterialList *self)
{
  xrlab_material_list_duplicate (self, xrlab_material_row_get_material (row));
}

static void
on_row_remove (XrlabMaterialRow  *row,
               XrlabMaterialList *self)
{
  xrlab_material_list_remove (self, xrlab_material_row_get_material (row));
}

static void
on_row_move (XrlabMaterialRow  *row,
             int                delta,
             XrlabMaterialList *self)
{
  XrlabMaterial *m = xrlab_material_row_get_material (row);
  guint pos = position_of (self, m);

  if (pos == G_MAXUINT)
    return;
  if (delta < 0 && pos == 0)
    return;
  xrlab_material_list_move (self, m, (guint) ((int) pos + delta));
  /* Keep the keyboard where the user is. */
  row = xrlab_material_list_get_row (self, position_of (self, m));
  if (row != NULL)
    gtk_widget_grab_focus (GTK_WIDGET (xrlab_material_row_get_name_editable (row)));
}

/* A drop moves the material after the drag has ended: the move replaces
 * the rows, the dragged one included, and its drag source still has to
 * report the end of the drag. */
typedef struct {
  XrlabMaterialList *self;
  XrlabMaterial *dragged;
  XrlabMaterial *target;
} DeferredMove;

static gboolean
deferred_move_cb (gpointer user_data)
{
  DeferredMove *d = user_data;
  guint to = position_of (d->self, d->target);

  if (to != G_MAXUINT && position_of (d->self, d->dragged) != G_MAXUINT)
    xrlab_material_list_move (d->self, d->dragged, to);
  g_object_unref (d->self);
  g_object_unref (d->dragged);
  g_object_unref (d->target);
  g_free (d);
  return G_SOURCE_REMOVE;
}

static gboolean
on_row_drop (GtkDropTarget    *target,
             const GValue     *value,
             double            x,
             double            y,
             XrlabMaterialRow *row)
{
  XrlabMaterialList *self;
  XrlabMaterial *dragged;
  DeferredMove *d;

  if (!G_VALUE_HOLDS (value, XRLAB_TYPE_MATERIAL))
    return FALSE;
  self = XRLAB_MATERIAL_LIST (gtk_widget_get_ancestor (GTK_WIDGET (row), XRLAB_TYPE_MATERIAL_LIST));
  if (self == NULL)
    return FALSE;
  dragged = g_value_get_object (value);
  if (position_of (self, xrlab_material_row_get_material (row)) == G_MAXUINT ||
      position_of (self, dragged) == G_MAXUINT)
    return FALSE;
  d = g_new0 (DeferredMove, 1);
  d->self = g_object_ref (self);
  d->dragged = g_object_ref (dragged);
  d->target = g_object_ref (xrlab_material_row_get_material (row));
  g_idle_add (deferred_move_cb, d);
  return TRUE;
}

static GtkWidget *
create_row (gpointer item,
            gpointer user_data)
{
  XrlabMaterialList *self = user_data;
  GtkWidget *row = xrlab_material_row_new (XRLAB_MATERIAL (item));
  GtkDropTarget *drop;

  g_signal_connect (row, "duplicate", G_CALLBACK (on_row_duplicate), self);
  g_signal_connect (row, "remove", G_CALLBACK (on_row_remove), self);
  g_signal_connect (row, "move", G_CALLBACK (on_row_move), self);

  drop = gtk_drop_target_new (XRLAB_TYPE_MATERIAL, GDK_ACTION_MOVE);
  g_signal_connect (drop, "drop", G_CALLBACK (on_row_drop), row);
  gtk_widget_add_controller (row, GTK_EVENT_CONTROLLER (drop));
  return row;
}

/* Move Up on the first row and Move Down on the last are off. */
static void
update_movable (XrlabMaterialList *self)
{
  guint n = self->store != NULL ? g_list_model_get_n_items (G_LIST_MODEL (self->store)) : 0;

  for (guint i = 0; i < n; i++)
    {
      XrlabMaterialRow *r = xrlab_material_list_get_row (self, i);
      if (r != NULL)
        xrlab_material_row_set_movable (r, i > 0, i + 1 < n);
    }
}

/* @base, or "@base 2", "@base 3"… when a material of the list is already
 * called that: legends, tables and CSV columns tell them apart. */
static char *
unique_name (XrlabMaterialList *self, const char *base)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->store));
  char *name = g_strdup (base);

  for (guint k = 2; ; k++)
    {
      gboolean taken = FALSE;
      for (guint i = 0; i < n && !taken; i++)
        {
          g_autoptr(XrlabMaterial) m = g_list_model_get_item (G_LIST_MODEL (self->store), i);
          taken = g_strcmp0 (xrlab_material_get_display_name (m), name) == 0;
        }
      if (!taken)
        return name;
      g_free (name);
      /* TRANSLATORS: the second material of one name, e.g. "Kapton 2" */
      name = g_strdup_printf (_("%s %u"), base, k);
    }
}

/* ---- presets ------------------------------------------------------------------------ */

static gboolean
preset_matches (gpointer item,
                gpointer user_data)
{
  XrlabMaterialList *self = user_data;
  XrlabMaterial *m = item;
  g_autofree char *hay = NULL;
  g_autofree char *hay_fold = NULL;
  g_autofree char *needle = NULL;

  if (self->search_text == NULL || self->search_text[0] == '\0')
    return TRUE;
  hay = g_strdup_printf ("%s %s %s", xrlab_material_get_name (m), xrlab_material_get_formula (m),
                         xrlab_material_get_note (m) != NULL ? xrlab_material_get_note (m) : "");
  hay_fold = g_utf8_casefold (hay, -1);
  needle = g_utf8_casefold (self->search_text, -1);
  /* Every word of the query must occur. */
  {
    g_auto(GStrv) words = g_strsplit_set (needle, " \t", -1);
    for (guint i = 0; words[i] != NULL; i++)
      if (words[i][0] != '\0' && strstr (hay_fold, words[i]) == NULL)
        return FALSE;
  }
  return TRUE;
}

static void
update_preset_status (XrlabMaterialList *self)
{
  guint n = self->filtered_presets != NULL
            ? g_list_model_get_n_items (G_LIST_MODEL (self->filtered_presets)) : 0;

  if (self->presets == NULL || g_list_model_get_n_items (self->presets) == 0)
    gtk_label_set_text (self->preset_status, _("No presets available."));
  else if (n == 0)
    gtk_label_set_text (self->preset_status, _("No preset matches the search."));
  gtk_widget_set_visible (GTK_WIDGET (self->preset_status), n == 0);
}

static GtkWidget *
create_preset_row (gpointer item,
                   gpointer user_data)
{
  XrlabMaterial *m = item;
  GtkWidget *row, *grid, *name, *formula, *density;
  g_autofree char *d = g_strdup_printf ("%g g/cm³", xrlab_material_get_density (m));

  grid = gtk_grid_new ();
  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  name = gtk_label_new (xrlab_material_get_name (m));
  gtk_label_set_xalign (GTK_LABEL (name), 0);
  gtk_label_set_ellipsize (GTK_LABEL (name), PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (name, TRUE);
  formula = gtk_label_new (xrlab_material_get_formula (m));
  gtk_label_set_xalign (GTK_LABEL (formula), 0);
  gtk_label_set_ellipsize (GTK_LABEL (formula), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (formula, "dim-label");
  gtk_widget_add_css_class (formula, "caption");
  gtk_widget_add_css_class (formula, "monospace");
  density = gtk_label_new (d);
  gtk_label_set_xalign (GTK_LABEL (density), 1);
  gtk_widget_add_css_class (density, "dim-label");
  gtk_widget_add_css_class (density, "caption");
  gtk_widget_add_css_class (density, "numeric");
  gtk_grid_attach (GTK_GRID (grid), name, 0, 0, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), density, 1, 0, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), formula, 0, 1, 2, 1);
  if (xrlab_material_get_note (m) != NULL)
    gtk_widget_set_tooltip_text (grid, xrlab_material_get_note (m));

  row = gtk_list_box_row_new ();
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), grid);
  return row;
}

static void
on_preset_activated (GtkListBox        *box,
                     GtkListBoxRow     *row,
                     XrlabMaterialList *self)
{
  xrlab_material_list_add_preset (self, (guint) gtk_list_box_row_get_index (row));
}

static void
on_search_changed (GtkSearchEntry    *entry,
                   XrlabMaterialList *self)
{
  xrlab_material_list_filter_presets (self, gtk_editable_get_text (GTK_EDITABLE (entry)));
}

static void
on_search_activate (GtkSearchEntry    *entry,
                    XrlabMaterialList *self)
{
  if (self->filtered_presets != NULL &&
      g_list_model_get_n_items (G_LIST_MODEL (self->filtered_presets)) > 0)
    xrlab_material_list_add_preset (self, 0);
}

static void
on_popover_show (GtkPopover        *popover,
                 XrlabMaterialList *self)
{
  gtk_editable_set_text (GTK_EDITABLE (self->preset_search), "");
  gtk_widget_grab_focus (GTK_WIDGET (self->preset_search));
}

/* ---- actions ------------------------------------------------------------------------ */

static void
action_add_empty (GtkWidget *widget, const char *name, GVariant *param)
{
  xrlab_material_list_add_empty (XRLAB_MATERIAL_LIST (widget));
}

/* ---- GObject --------------------------------------------------------------------------- */

static void
xrlab_material_list_dispose (GObject *object)
{
  XrlabMaterialList *self = XRLAB_MATERIAL_LIST (object);

  if (self->list_box != NULL)
    gtk_list_box_bind_model (self->list_box, NULL, NULL, NULL, NULL);
  if (self->preset_list != NULL)
    gtk_list_box_bind_model (self->preset_list, NULL, NULL, NULL, NULL);
  g_clear_object (&self->store);
  g_clear_object (&self->presets);
  g_clear_object (&self->filtered_presets);
  g_clear_object (&self->preset_filter);
  gtk_widget_dispose_template (GTK_WIDGET (self), XRLAB_TYPE_MATERIAL_LIST);
  /* Template children without an id are not unparented by the above. */
  for (GtkWidget *child; (child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL;)
    gtk_widget_unparent (child);

  G_OBJECT_CLASS (xrlab_material_list_parent_class)->dispose (object);
}

static void
xrlab_material_list_finalize (GObject *object)
{
  XrlabMaterialList *self = XRLAB_MATERIAL_LIST (object);

  g_free (self->search_text);

  G_OBJECT_CLASS (xrlab_material_list_parent_class)->finalize (object);
}

static void
xrlab_material_list_class_init (XrlabMaterialListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = xrlab_material_list_dispose;
  object_class->finalize = xrlab_material_list_finalize;

  /* A material was removed from @position (the owner may offer undo). */
  signals[SIGNAL_REMOVED] =
    g_signal_new ("removed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 2, XRLAB_TYPE_MATERIAL, G_TYPE_UINT);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/xrlab/Xrlab/xrlab-material-list.ui");
  gtk_widget_class_bind_template_child (widget_class, XrlabMaterialList, add_button);
  gtk_widget_class_bind_template_child (widget_class, XrlabMaterialList, list_box);
  gtk_widget_class_bind_template_child (widget_class, XrlabMaterialList, add_popover);
  gtk_widget_class_bind_template_child (widget_class, XrlabMaterialList, preset_search);
  gtk_widget_class_bind_template_child (widget_class, XrlabMaterialList, preset_list);
  gtk_widget_class_bind_template_child (widget_class, XrlabMaterialList, preset_status);

  gtk_widget_class_install_action (widget_class, "materials.add-empty", NULL, action_add_empty);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "xrlab-material-list");
}

static void
xrlab_material_list_init (XrlabMaterialList *self)
{
  GtkLayoutManager *layout;

  gtk_widget_init_template (GTK_WIDGET (self));
  layout = gtk_widget_get_layout_manager (GTK_WIDGET (self));
  gtk_orientable_set_orientation (GTK_ORIENTABLE (layout), GTK_ORIENTATION_VERTICAL);
  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (layout), 8);

  {
    GtkWidget *placeholder = gtk_label_new (_("No materials. Add one with the + button."));
    gtk_widget_add_css_class (placeholder, "dim-label");
    gtk_label_set_wrap (GTK_LABEL (placeholder), TRUE);
    gtk_widget_set_margin_top (placeholder, 18);
    gtk_widget_set_margin_bottom (placeholder, 18);
    gtk_widget_set_margin_start (placeholder, 12);
    gtk_widget_set_margin_end (placeholder, 12);
    gtk_list_box_set_placeholder (self->list_box, placeholder);
  }

  self->preset_filter = gtk_custom_filter_new (preset_matches, self, NULL);
  g_signal_connect (self->preset_list, "row-activated", G_CALLBACK (on_preset_activated), self);
  g_signal_connect (self->preset_search, "search-changed", G_CALLBACK (on_search_changed), self);
  g_signal_connect (self->preset_search, "activate", G_CALLBACK (on_search_activate), self);
  g_signal_connect (self->add_popover, "show", G_CALLBACK (on_popover_show), self);
  xrlab_hide_tooltip_while_open (GTK_WIDGET (self->add_button));
  update_preset_status (self);
}

/* ---- public API ------------------------------------------------------------------------ */

GtkWidget *
xrlab_material_list_new (void)
{
  return g_object_new (XRLAB_TYPE_MATERIAL_LIST, NULL);
}

void
xrlab_material_list_set_store (XrlabMaterialList *self,
                               GListStore        *store)
{
  g_return_if_fail (XRLAB_IS_MATERIAL_LIST (self));
  g_return_if_fail (store == NULL || G_IS_LIST_STORE (store));

  if (self->store != NULL)
    g_signal_handlers_disconnect_by_func (self->store, update_movable, self);
  if (!g_set_object (&self->store, store))
    return;
  gtk_list_box_bind_model (self->list_box, G_LIST_MODEL (store), create_row, self, NULL);
  /* After the list box's own handler: the rows exist. */
  if (store != NULL)
    g_signal_connect_object (store, "items-changed", G_CALLBACK (update_movable), self, G_CONNECT_SWAPPED);
  update_movable (self);
}

GListStore *
xrlab_material_list_get_store (XrlabMaterialList *self)
{
  g_return_val_if_fail (XRLAB_IS_MATERIAL_LIST (self), NULL);
  return self->store;
}

void
xrlab_material_list_set_presets (XrlabMaterialList *self,
                                 GListModel        *presets)
{
  g_return_if_fail (XRLAB_IS_MATERIAL_LIST (self));

  if (!g_set_object (&self->presets, presets))
    return;
  g_clear_object (&self->filtered_presets);
  if (presets != NULL)
    {
      self->filtered_presets = gtk_filter_list_model_new (g_object_ref (presets),
                                                          g_object_ref (GTK_FILTER (self->preset_filter)));
      gtk_list_box_bind_model (self->preset_list, G_LIST_MODEL (self->filtered_presets),
                               create_preset_row, NULL, NULL);
      g_signal_connect_object (self->filtered_presets, "items-changed",
                               G_CALLBACK (update_preset_status), self, G_CONNECT_SWAPPED);
    }
  else
    gtk_list_box_bind_model (self->preset_list, NULL, NULL, NULL, NULL);
  update_preset_status (self);
}

guint
xrlab_material_list_filter_presets (XrlabMaterialList *self,
                                    const char        *text)
{
  g_return_val_if_fail (XRLAB_IS_MATERIAL_LIST (self), 0);

  g_free (self->search_text);
  self->search_text = g_strdup (text);
  gtk_filter_changed (GTK_FILTER (self->preset_filter), GTK_FILTER_CHANGE_DIFFERENT);
  update_preset_status (self);
  return self->filtered_presets != NULL
         ? g_list_model_get_n_items (G_LIST_MODEL (self->filtered_presets)) : 0;
}

static void
append_and_focus (XrlabMaterialList *self, XrlabMaterial *m, guint position)
{
  g_list_store_insert (self->store, position, m);
  gtk_popover_popdown (self->add_popover);
  focus_formula_later (self, m);
}

XrlabMaterial *
xrlab_material_list_add_preset (XrlabMaterialList *self,
                                guint              index)
{
  g_autoptr(XrlabMaterial) preset = NULL;
  XrlabMaterial *m;
  GdkRGBA color;

  g_return_val_if_fail (XRLAB_IS_MATERIAL_LIST (self), NULL);
  g_return_val_if_fail (self->store != NULL, NULL);
  if (self->filtered_presets == NULL)
    return NULL;
  preset = g_list_model_get_item (G_LIST_MODEL (self->filtered_presets), index);
  if (preset == NULL)
    return NULL;

  m = xrlab_material_copy (preset);
  {
    g_autofree char *name = unique_name (self, xrlab_material_get_display_name (preset));
    xrlab_material_set_name (m, name);
  }
  xrlab_material_palette_next (G_LIST_MODEL (self->store), &color);
  xrlab_material_set_color (m, &color);
  xrlab_material_set_visible (m, TRUE);
  xrlab_material_set_note (m, NULL);
  append_and_focus (self, m, g_list_model_get_n_items (G_LIST_MODEL (self->store)));
  g_object_unref (m);
  return m;
}

XrlabMaterial *
xrlab_material_list_add_empty (XrlabMaterialList *self)
{
  XrlabMaterial *m;
  GdkRGBA color;

  g_return_val_if_fail (XRLAB_IS_MATERIAL_LIST (self), NULL);
  g_return_val_if_fail (self->store != NULL, NULL);

  xrlab_material_palette_next (G_LIST_MODEL (self->store), &color);
  m = xrlab_material_new ("", "", 1.0, 1.0, &color);
  append_and_focus (self, m, g_list_model_get_n_items (G_LIST_MODEL (self->store)));
  g_object_unref (m);
  return m;
}

XrlabMaterial *
xrlab_material_list_duplicate (XrlabMaterialList *self,
                               XrlabMaterial     *material)
{
  XrlabMaterial *m;
  guint pos;
  GdkRGBA color;
  g_autofree char *name = NULL;

  g_return_val_if_fail (XRLAB_IS_MATERIAL_LIST (self), NULL);
  pos = position_of (self, material);
  if (pos == G_MAXUINT)
    return NULL;

  m = xrlab_material_copy (material);
  if (xrlab_material_get_name (material)[0] != '\0')
    {
      /* TRANSLATORS: name of a duplicated material, e.g. "Si (copy)" */
      name = g_strdup_printf (_("%s (copy)"), xrlab_material_get_name (material));
      xrlab_material_set_name (m, name);
    }
  xrlab_material_palette_next (G_LIST_MODEL (self->store), &color);
  xrlab_material_set_color (m, &color);
  append_and_focus (self, m, pos + 1);
  g_object_unref (m);
  return m;
}

void
xrlab_material_list_remove (XrlabMaterialList *self,
                            XrlabMaterial     *material)
{
  g_autoptr(XrlabMaterial) keep = NULL;
  guint pos;

  g_return_if_fail (XRLAB_IS_MATERIAL_LIST (self));
  pos = position_of (self, material);
  if (pos == G_MAXUINT)
    return;
  keep = g_object_ref (material);
  g_list_store_remove (self->store, pos);
  g_signal_emit (self, signals[SIGNAL_REMOVED], 0, keep, pos);
}

void
xrlab_material_list_move (XrlabMaterialList *self,
                          XrlabMaterial     *material,
                          guint              to)
{
  g_autoptr(XrlabMaterial) keep = NULL;
  guint from, n;

  g_return_if_fail (XRLAB_IS_MATERIAL_LIST (self));
  from = position_of (self, material);
  if (from == G_MAXUINT)
    return;
  n = g_list_model_get_n_items (G_LIST_MODEL (self->store));
  to = MIN (to, n - 1);
  if (to == from)
    return;
  keep = g_object_ref (material);
  g_list_store_remove (self->store, from);
  g_list_store_insert (self->store, to, keep);
}

XrlabMaterialRow *
xrlab_material_list_get_row (XrlabMaterialList *self,
                             guint              index)
{
  GtkListBoxRow *row;

  g_return_val_if_fail (XRLAB_IS_MATERIAL_LIST (self), NULL);
  row = gtk_list_box_get_row_at_index (self->list_box, (int) index);
  return row != NULL ? XRLAB_MATERIAL_ROW (row) : NULL;
}

void
xrlab_material_list_popup_add (XrlabMaterialList *self)
{
  g_return_if_fail (XRLAB_IS_MATERIAL_LIST (self));
  gtk_menu_button_popup (self->add_button);
}
