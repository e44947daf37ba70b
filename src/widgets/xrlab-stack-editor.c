/* xrlab-stack-editor.c -- the editor of one stack
 *
 * The model is the text split into items: a layer (its material with the
 * density, its thickness, its roughness, each as typed) or a group (a
 * count and a body of layers). Typing in a row changes its item and writes
 * the text; typing the text rebuilds the items and the rows.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-stack-editor.h"

#include <stdio.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "xrlab-material.h"
#include "xrlab-presets.h"

/* ---- the model ---------------------------------------------------------------- */

typedef struct {
  char *material;    /* FORMULA[:DENSITY], or a raw part (a nested group) */
  char *thickness;   /* "" when none */
  char *roughness;   /* "" when none */
} EdLayer;

typedef struct {
  gboolean  group;
  EdLayer  *layer;   /* a layer */
  guint     count;   /* a group */
  GPtrArray *body;   /* EdLayer*, a group's */
} EdItem;

static EdLayer *
layer_new (const char *material, const char *thickness, const char *roughness)
{
  EdLayer *l = g_new0 (EdLayer, 1);

  l->material = g_strdup (material ? material : "");
  l->thickness = g_strdup (thickness ? thickness : "");
  l->roughness = g_strdup (roughness ? roughness : "");
  return l;
}

static void
layer_free (gpointer data)
{
  EdLayer *l = data;

  g_free (l->material);
  g_free (l->thickness);
  g_free (l->roughness);
  g_free (l);
}

static void
item_free (gpointer data)
{
  EdItem *it = data;

  if (it->layer != NULL)
    layer_free (it->layer);
  if (it->body != NULL)
    g_ptr_array_unref (it->body);
  g_free (it);
}

static EdItem *
item_new_layer (EdLayer *layer)
{
  EdItem *it = g_new0 (EdItem, 1);

  it->layer = layer;
  return it;
}

static EdItem *
item_new_group (guint count)
{
  EdItem *it = g_new0 (EdItem, 1);

  it->group = TRUE;
  it->count = count;
  it->body = g_ptr_array_new_with_free_func (layer_free);
  return it;
}

/* The parts of s[a..b) at its top-level "/" (not one of "//"). */
static GPtrArray *
split_parts (const char *s, gsize a, gsize b)
{
  GPtrArray *parts = g_ptr_array_new_with_free_func (g_free);
  int depth = 0;
  gsize start = a;

  for (gsize i = a; i < b; i++)
    {
      if (s[i] == '{')
        depth++;
      else if (s[i] == '}' && depth > 0)
        depth--;
      else if (s[i] == '/' && depth == 0)
        {
          if (i + 1 < b && s[i + 1] == '/')
            {
              i++;   /* "//" of a mixture */
              continue;
            }
          g_ptr_array_add (parts, g_strstrip (g_strndup (s + start, i - start)));
          start = i + 1;
        }
    }
  g_ptr_array_add (parts, g_strstrip (g_strndup (s + start, b - start)));
  return parts;
}

static gboolean
has_unit (const char *t)
{
  gsize n = strlen (t);

  return n > 0 && (g_ascii_isalpha (t[n - 1]) || (guchar) t[n - 1] >= 0x80);
}

static EdLayer *
parse_layer (const char *text)
{
  g_autofree char *rest = g_strdup (text);
  char *tilde = strrchr (rest, '~');
  const char *roughness = "";
  g_auto(GStrv) parts = NULL;
  g_autoptr(GString) material = NULL;
  const char *thickness = "";

  if (strchr (rest, '{') != NULL)
    return layer_new (text, "", "");   /* a nested group: one row of text */
  if (tilde != NULL)
    {
      *tilde = '\0';
      roughness = g_strstrip (tilde + 1);
    }
  parts = g_strsplit (rest, ":", -1);
  material = g_string_new (g_strstrip (parts[0]));
  for (guint k = 1; parts[k] != NULL; k++)
    {
      char *p = g_strstrip (parts[k]);
      if (has_unit (p) && thickness[0] == '\0')
        thickness = p;
      else
        g_string_append_printf (material, ":%s", p);
    }
  return layer_new (material->str, thickness, roughness);
}

/* A group "{...}xN" at @t, or NULL when @t is not one. */
static EdItem *
parse_group (const char *t)
{
  gsize n = strlen (t), close = 0;
  int depth = 0;
  const char *p;
  guint64 count;
  EdItem *it;
  g_autoptr(GPtrArray) parts = NULL;

  if (t[0] != '{')
    return NULL;
  for (gsize i = 0; i < n; i++)
    {
      depth += t[i] == '{' ? 1 : t[i] == '}' ? -1 : 0;
      if (depth == 0)
        {
          close = i;
          break;
        }
    }
  if (close == 0)
    return NULL;
  p = t + close + 1;
  while (*p == ' ')
    p++;
  if (*p == 'x' || *p == 'X' || *p == '*')
    p++;
  else if (g_str_has_prefix (p, "×"))
    p += strlen ("×");
  else
    return NULL;
  while (*p == ' ')
    p++;
  if (!g_ascii_string_to_unsigned (p, 10, 1, 10000, &count, NULL))
    return NULL;
  it = item_new_group ((guint) count);
  parts = split_parts (t, 1, close);
  for (guint k = 0; k < parts->len; k++)
    g_ptr_array_add (it->body, parse_layer (g_ptr_array_index (parts, k)));
  return it;
}

static GPtrArray *
parse_items (const char *text)
{
  GPtrArray *items = g_ptr_array_new_with_free_func (item_free);
  g_autoptr(GPtrArray) parts = NULL;

  if (text == NULL || text[0] == '\0')
    return items;
  parts = split_parts (text, 0, strlen (text));
  for (guint k = 0; k < parts->len; k++)
    {
      const char *t = g_ptr_array_index (parts, k);
      EdItem *group = parse_group (t);
      g_ptr_array_add (items, group != NULL ? group : item_new_layer (parse_layer (t)));
    }
  return items;
}

static void
append_layer (GString *s, const EdLayer *l)
{
  g_string_append (s, l->material);
  if (l->thickness[0] != '\0')
    g_string_append_printf (s, ":%s", l->thickness);
  if (l->roughness[0] != '\0')
    g_string_append_printf (s, "~%s", l->roughness);
}

static char *
join_items (GPtrArray *items)
{
  GString *s = g_string_new (NULL);

  for (guint k = 0; k < items->len; k++)
    {
      EdItem *it = g_ptr_array_index (items, k);

      if (k > 0)
        g_string_append_c (s, '/');
      if (!it->group)
        {
          append_layer (s, it->layer);
          continue;
        }
      g_string_append_c (s, '{');
      for (guint j = 0; j < it->body->len; j++)
        {
          if (j > 0)
            g_string_append_c (s, '/');
          append_layer (s, g_ptr_array_index (it->body, j));
        }
      g_string_append_printf (s, "}x%u", it->count);
    }
  return g_string_free (s, FALSE);
}

char *
xrlab_stack_editor_normalize (const char *text)
{
  g_autoptr(GPtrArray) items = parse_items (text);

  return join_items (items);
}

/* ---- the widget ---------------------------------------------------------------- */

struct _XrlabStackEditor {
  GtkBox parent_instance;

  GtkEntry *name_entry;
  GtkEntry *text_entry;
  GtkLabel *error_label;
  GtkListBox *rows;
  GtkWidget *add_box;

  XrlabStackItem *item;
  gulong item_handler;
  GListModel *materials;
  GPtrArray *items;      /* EdItem* of the text */
  gboolean updating;     /* writing into the entries ourselves */
};

G_DEFINE_FINAL_TYPE (XrlabStackEditor, xrlab_stack_editor, GTK_TYPE_BOX)

static void rebuild_rows (XrlabStackEditor *self);

/* The items changed: the text anew, into the entry and the item. */
static void
write_text (XrlabStackEditor *self)
{
  g_autofree char *text = join_items (self->items);

  self->updating = TRUE;
  gtk_editable_set_text (GTK_EDITABLE (self->text_entry), text);
  self->updating = FALSE;
  if (self->item != NULL)
    xrlab_stack_item_set_text (self->item, text);
}

static void
show_error (XrlabStackEditor *self)
{
  const char *error = self->item != NULL ? xrlab_stack_item_get_error (self->item) : NULL;

  gtk_label_set_text (self->error_label, error != NULL ? error : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), error != NULL);
  if (error != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (self->text_entry), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->text_entry), "error");
}

static void
on_item_changed (XrlabStackItem *item, XrlabStackEditor *self)
{
  const char *text = xrlab_stack_item_get_text (item);

  show_error (self);
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->text_entry)), text) != 0)
    {
      self->updating = TRUE;
      gtk_editable_set_text (GTK_EDITABLE (self->text_entry), text);
      self->updating = FALSE;
      g_clear_pointer (&self->items, g_ptr_array_unref);
      self->items = parse_items (text);
      rebuild_rows (self);
    }
}

static void
on_text_changed (GtkEditable *editable, XrlabStackEditor *self)
{
  const char *text = gtk_editable_get_text (editable);

  if (self->updating || self->item == NULL)
    return;
  g_clear_pointer (&self->items, g_ptr_array_unref);
  self->items = parse_items (text);
  rebuild_rows (self);
  xrlab_stack_item_set_text (self->item, text);
}

static void
on_name_changed (GtkEditable *editable, XrlabStackEditor *self)
{
  if (!self->updating && self->item != NULL)
    xrlab_stack_item_set_name (self->item, gtk_editable_get_text (editable));
}

/* Selects the column of the error in the text (the user presses the error). */
static void
on_error_pressed (GtkGestureClick *gesture, int n, double x, double y, XrlabStackEditor *self)
{
  int column = self->item != NULL ? xrlab_stack_item_get_error_column (self->item) : 0;
  int len = (int) g_utf8_strlen (gtk_editable_get_text (GTK_EDITABLE (self->text_entry)), -1);

  if (column <= 0)
    return;
  gtk_widget_grab_focus (GTK_WIDGET (self->text_entry));
  gtk_editable_select_region (GTK_EDITABLE (self->text_entry), MIN (column - 1, len),
                              MIN (column, len));
}

/* ---- paths ------------------------------------------------------------------ */

/* "t:I" or "g:I:J" → I (and J, -1 for a top-level row). */
static gboolean
parse_path (const char *path, guint n_items, int *i, int *j)
{
  unsigned a = 0, b = 0;

  if (path == NULL)
    return FALSE;
  if (sscanf (path, "g:%u:%u", &a, &b) == 2)
    *j = (int) b;
  else if (sscanf (path, "t:%u", &a) == 1)
    *j = -1;
  else
    return FALSE;
  *i = (int) a;
  return a < n_items;
}

static EdLayer *
layer_at (XrlabStackEditor *self, int i, int j)
{
  EdItem *it = g_ptr_array_index (self->items, i);

  if (j < 0)
    return it->group ? NULL : it->layer;
  return it->group && (guint) j < it->body->len ? g_ptr_array_index (it->body, j) : NULL;
}

gboolean
xrlab_stack_editor_move (XrlabStackEditor *self, const char *from, const char *to)
{
  int fi, fj, ti, tj;
  EdItem *src, *dst;

  g_return_val_if_fail (XRLAB_IS_STACK_EDITOR (self), FALSE);
  if (self->items == NULL || !parse_path (from, self->items->len, &fi, &fj)
      || !parse_path (to, self->items->len, &ti, &tj))
    return FALSE;
  src = g_ptr_array_index (self->items, fi);
  dst = g_ptr_array_index (self->items, ti);
  if ((fj >= 0 && (!src->group || (guint) fj >= src->body->len))
      || (tj >= 0 && (!dst->group || (guint) tj >= dst->body->len))
      || (fi == ti && fj == tj))
    return FALSE;

  if (fj < 0 && tj < 0)
    {
      /* A top-level row takes the place of another. */
      EdItem *it = g_ptr_array_steal_index (self->items, fi);
      g_ptr_array_insert (self->items, ti, it);
    }
  else if (fj >= 0 && tj >= 0 && fi == ti)
    {
      EdLayer *l = g_ptr_array_steal_index (src->body, fj);
      g_ptr_array_insert (src->body, tj, l);
    }
  else if (fj >= 0)
    {
      /* A layer out of a group: into another group, or to the top level. */
      EdLayer *l = g_ptr_array_steal_index (src->body, fj);
      if (tj >= 0)
        g_ptr_array_insert (dst->body, tj, l);
      else
        g_ptr_array_insert (self->items, ti, item_new_layer (l));
    }
  else
    {
      /* A top-level layer into a group; a group does not go into one. */
      EdItem *it;
      if (src->group)
        return FALSE;
      it = g_ptr_array_steal_index (self->items, fi);
      g_ptr_array_insert (dst->body, tj, it->layer);
      it->layer = NULL;
      item_free (it);
    }
  rebuild_rows (self);
  write_text (self);
  return TRUE;
}

/* ---- rows ------------------------------------------------------------------ */

typedef struct {
  XrlabStackEditor *self;
  int i, j;
  int field;         /* 0 material, 1 thickness, 2 roughness */
} FieldRef;

static void
on_field_changed (GtkEditable *editable, FieldRef *ref)
{
  XrlabStackEditor *self = ref->self;
  EdLayer *l;
  char **field;

  if (self->updating || self->items == NULL || (guint) ref->i >= self->items->len
      || (l = layer_at (self, ref->i, ref->j)) == NULL)
    return;
  field = ref->field == 0 ? &l->material : ref->field == 1 ? &l->thickness : &l->roughness;
  g_free (*field);
  *field = g_strstrip (g_strdup (gtk_editable_get_text (editable)));
  write_text (self);
}

static void
on_count_changed (GtkSpinButton *spin, FieldRef *ref)
{
  XrlabStackEditor *self = ref->self;
  EdItem *it;

  if (self->updating || (guint) ref->i >= self->items->len)
    return;
  it = g_ptr_array_index (self->items, ref->i);
  if (!it->group)
    return;
  it->count = (guint) gtk_spin_button_get_value_as_int (spin);
  write_text (self);
}

static void
on_remove_clicked (GtkButton *button, FieldRef *ref)
{
  XrlabStackEditor *self = ref->self;

  if ((guint) ref->i >= self->items->len)
    return;
  if (ref->j < 0)
    g_ptr_array_remove_index (self->items, ref->i);
  else
    {
      EdItem *it = g_ptr_array_index (self->items, ref->i);
      if (it->group && (guint) ref->j < it->body->len)
        g_ptr_array_remove_index (it->body, ref->j);
    }
  rebuild_rows (self);
  write_text (self);
}

static void
on_add_to_group (GtkButton *button, FieldRef *ref)
{
  XrlabStackEditor *self = ref->self;
  EdItem *it = g_ptr_array_index (self->items, ref->i);

  g_ptr_array_add (it->body, layer_new ("Si:2.33", "1nm", ""));
  rebuild_rows (self);
  write_text (self);
}

static GdkContentProvider *
on_drag_prepare (GtkDragSource *source, double x, double y, const char *path)
{
  return gdk_content_provider_new_typed (G_TYPE_STRING, path);
}

typedef struct {
  XrlabStackEditor *self;
  char *from, *to;
} Drop;

static gboolean
drop_later (gpointer data)
{
  Drop *d = data;

  xrlab_stack_editor_move (d->self, d->from, d->to);
  g_object_unref (d->self);
  g_free (d->from);
  g_free (d->to);
  g_free (d);
  return G_SOURCE_REMOVE;
}

static gboolean
on_drop (GtkDropTarget *target, const GValue *value, double x, double y, XrlabStackEditor *self)
{
  GtkWidget *widget = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (target));
  Drop *d = g_new (Drop, 1);

  /* The move rebuilds the rows, this one too: after the drop is over. */
  d->self = g_object_ref (self);
  d->from = g_value_dup_string (value);
  d->to = g_strdup (g_object_get_data (G_OBJECT (widget), "path"));
  g_idle_add (drop_later, d);
  return TRUE;
}

static FieldRef *
ref_new (XrlabStackEditor *self, int i, int j, int field)
{
  FieldRef *ref = g_new (FieldRef, 1);

  ref->self = self;
  ref->i = i;
  ref->j = j;
  ref->field = field;
  return ref;
}

static GtkWidget *
field_entry (XrlabStackEditor *self, GtkWidget *row, const char *text, const char *placeholder,
             int width, int i, int j, int field)
{
  GtkWidget *entry = gtk_entry_new ();
  FieldRef *ref = ref_new (self, i, j, field);

  gtk_editable_set_text (GTK_EDITABLE (entry), text);
  gtk_entry_set_placeholder_text (GTK_ENTRY (entry), placeholder);
  gtk_editable_set_width_chars (GTK_EDITABLE (entry), width);
  if (field == 0)
    gtk_widget_set_hexpand (entry, TRUE);
  g_object_set_data_full (G_OBJECT (row), field == 0 ? "ref0" : field == 1 ? "ref1" : "ref2", ref, g_free);
  g_signal_connect (entry, "changed", G_CALLBACK (on_field_changed), ref);
  return entry;
}

/* The material menu: the window's materials, then the common presets. */
typedef struct {
  GtkEntry *entry;
  char *value;
} Pick;

static void
pick_free (gpointer data, GClosure *closure)
{
  Pick *p = data;

  g_free (p->value);
  g_free (p);
}

static void
on_pick (GtkButton *button, Pick *pick)
{
  GtkWidget *popover = gtk_widget_get_ancestor (GTK_WIDGET (button), GTK_TYPE_POPOVER);

  gtk_editable_set_text (GTK_EDITABLE (pick->entry), pick->value);
  if (popover != NULL)
    gtk_popover_popdown (GTK_POPOVER (popover));
}

static void
add_pick (GtkBox *box, GtkEntry *entry, const char *label, const char *value)
{
  GtkWidget *b = gtk_button_new_with_label (label);
  Pick *pick = g_new (Pick, 1);

  pick->entry = entry;
  pick->value = g_strdup (value);
  gtk_widget_add_css_class (b, "flat");
  gtk_widget_set_halign (gtk_button_get_child (GTK_BUTTON (b)), GTK_ALIGN_START);
  g_signal_connect_data (b, "clicked", G_CALLBACK (on_pick), pick, pick_free, 0);
  gtk_box_append (box, b);
}

static void
fill_picker (XrlabStackEditor *self, GtkBox *box, GtkEntry *entry)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (self->materials != NULL)
    for (guint k = 0; k < g_list_model_get_n_items (self->materials); k++)
      {
        g_autoptr(XrlabMaterial) m = g_list_model_get_item (self->materials, k);
        g_autofree char *value = g_strdup_printf ("%s:%s", xrlab_material_get_formula (m),
                                                  g_ascii_dtostr (buf, sizeof buf, xrlab_material_get_density (m)));
        g_autofree char *label = g_strdup_printf ("%s  (%s)", xrlab_material_get_display_name (m), value);
        add_pick (box, entry, label, value);
      }
  for (gsize k = 0; k < xrlab_presets_get_n (); k++)
    {
      const XrlabPreset *p = xrlab_presets_get (k);
      g_autofree char *value = NULL, *label = NULL;

      if (p->source != XRLAB_PRESET_COMMON)
        break;
      value = g_strdup_printf ("%s:%s", p->formula, g_ascii_dtostr (buf, sizeof buf, p->density_g_cm3));
      label = g_strdup_printf ("%s  (%s)", p->name, value);
      add_pick (box, entry, label, value);
    }
}

static void
on_picker_show (GtkPopover *popover, XrlabStackEditor *self)
{
  GtkWidget *scroll = gtk_popover_get_child (popover);
  GtkWidget *box = gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (scroll));
  GtkWidget *child;

  if (GTK_IS_VIEWPORT (box))
    box = gtk_viewport_get_child (GTK_VIEWPORT (box));
  while ((child = gtk_widget_get_first_child (box)) != NULL)
    gtk_box_remove (GTK_BOX (box), child);
  fill_picker (self, GTK_BOX (box), g_object_get_data (G_OBJECT (popover), "entry"));
}

static GtkWidget *
picker_button (XrlabStackEditor *self, GtkWidget *entry)
{
  GtkWidget *button = gtk_menu_button_new ();
  GtkWidget *popover = gtk_popover_new ();
  GtkWidget *scroll = gtk_scrolled_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

  gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (button), "view-list-symbolic");
  gtk_widget_set_tooltip_text (button, _("Pick a material"));
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroll), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scroll), 360);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scroll), TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroll), box);
  gtk_popover_set_child (GTK_POPOVER (popover), scroll);
  g_object_set_data (G_OBJECT (popover), "entry", entry);
  g_signal_connect (popover, "show", G_CALLBACK (on_picker_show), self);
  gtk_menu_button_set_popover (GTK_MENU_BUTTON (button), popover);
  return button;
}

static GtkWidget *
handle (XrlabStackEditor *self, const char *path)
{
  GtkWidget *image = gtk_image_new_from_icon_name ("list-drag-handle-symbolic");
  GtkDragSource *source = gtk_drag_source_new ();

  gtk_widget_set_tooltip_text (image, _("Drag to reorder"));
  gtk_drag_source_set_actions (source, GDK_ACTION_MOVE);
  g_signal_connect_data (source, "prepare", G_CALLBACK (on_drag_prepare), g_strdup (path),
                         (GClosureNotify) (void (*) (void)) g_free, 0);
  gtk_widget_add_controller (image, GTK_EVENT_CONTROLLER (source));
  return image;
}

static void
make_drop_target (XrlabStackEditor *self, GtkWidget *widget, const char *path)
{
  GtkDropTarget *target = gtk_drop_target_new (G_TYPE_STRING, GDK_ACTION_MOVE);

  g_object_set_data_full (G_OBJECT (widget), "path", g_strdup (path), g_free);
  g_signal_connect (target, "drop", G_CALLBACK (on_drop), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (target));
}

static GtkWidget *
remove_button (XrlabStackEditor *self, GtkWidget *owner, int i, int j)
{
  GtkWidget *b = gtk_button_new_from_icon_name ("user-trash-symbolic");
  FieldRef *ref = ref_new (self, i, j, -1);

  gtk_widget_add_css_class (b, "flat");
  gtk_widget_set_tooltip_text (b, j < 0 ? _("Remove this row") : _("Remove this layer"));
  g_object_set_data_full (G_OBJECT (owner), j < 0 ? "remove" : "remove-j", ref, g_free);
  g_signal_connect (b, "clicked", G_CALLBACK (on_remove_clicked), ref);
  return b;
}

/* One layer: handle, material and its menu, thickness, roughness, remove. */
static GtkWidget *
layer_box (XrlabStackEditor *self, const EdLayer *l, int i, int j, gboolean substrate)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  g_autofree char *path = j < 0 ? g_strdup_printf ("t:%d", i) : g_strdup_printf ("g:%d:%d", i, j);
  gboolean filter = self->item != NULL && xrlab_stack_item_get_kind (self->item) == XRLAB_STACK_FILTER;
  GtkWidget *material;

  gtk_box_append (GTK_BOX (box), handle (self, path));
  material = field_entry (self, box, l->material, _("Material"), 10, i, j, 0);
  gtk_box_append (GTK_BOX (box), material);
  gtk_box_append (GTK_BOX (box), picker_button (self, material));
  gtk_box_append (GTK_BOX (box), field_entry (self, box, l->thickness,
                                              substrate ? _("substrate") : _("thickness"), 6, i, j, 1));
  if (!filter)
    gtk_box_append (GTK_BOX (box), field_entry (self, box, l->roughness, _("σ"), 5, i, j, 2));
  gtk_box_append (GTK_BOX (box), remove_button (self, box, i, j));
  make_drop_target (self, box, path);
  return box;
}

static GtkWidget *
group_box (XrlabStackEditor *self, const EdItem *it, int i)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *head = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *spin = gtk_spin_button_new_with_range (1, 10000, 1);
  GtkWidget *add = gtk_button_new_from_icon_name ("list-add-symbolic");
  g_autofree char *path = g_strdup_printf ("t:%d", i);
  FieldRef *ref = ref_new (self, i, -1, -1), *add_ref = ref_new (self, i, -1, -1);

  gtk_box_append (GTK_BOX (head), handle (self, path));
  gtk_box_append (GTK_BOX (head), gtk_label_new (_("Repeat")));
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), it->count);
  g_object_set_data_full (G_OBJECT (head), "count", ref, g_free);
  g_signal_connect (spin, "value-changed", G_CALLBACK (on_count_changed), ref);
  gtk_box_append (GTK_BOX (head), spin);
  gtk_box_append (GTK_BOX (head), gtk_label_new (_("times")));
  gtk_widget_set_hexpand (gtk_widget_get_last_child (head), TRUE);
  gtk_widget_set_halign (gtk_widget_get_last_child (head), GTK_ALIGN_START);
  gtk_widget_set_tooltip_text (add, _("Add a layer to the group"));
  gtk_widget_add_css_class (add, "flat");
  g_object_set_data_full (G_OBJECT (head), "add", add_ref, g_free);
  g_signal_connect (add, "clicked", G_CALLBACK (on_add_to_group), add_ref);
  gtk_box_append (GTK_BOX (head), add);
  gtk_box_append (GTK_BOX (head), remove_button (self, head, i, -1));
  make_drop_target (self, head, path);
  gtk_box_append (GTK_BOX (box), head);
  for (guint j = 0; j < it->body->len; j++)
    {
      GtkWidget *l = layer_box (self, g_ptr_array_index (it->body, j), i, (int) j, FALSE);
      gtk_widget_set_margin_start (l, 24);
      gtk_box_append (GTK_BOX (box), l);
    }
  return box;
}

static void
rebuild_rows (XrlabStackEditor *self)
{
  GtkWidget *child;
  gboolean reflect = self->item == NULL || xrlab_stack_item_get_kind (self->item) == XRLAB_STACK_REFLECT;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->rows))) != NULL)
    gtk_list_box_remove (self->rows, child);
  if (self->items == NULL)
    return;
  for (guint i = 0; i < self->items->len; i++)
    {
      EdItem *it = g_ptr_array_index (self->items, i);
      GtkWidget *w = it->group ? group_box (self, it, (int) i)
                               : layer_box (self, it->layer, (int) i, -1,
                                            reflect && i + 1 == self->items->len);
      gtk_widget_set_margin_top (w, 3);
      gtk_widget_set_margin_bottom (w, 3);
      gtk_widget_set_margin_start (w, 6);
      gtk_widget_set_margin_end (w, 6);
      gtk_list_box_append (self->rows, w);
    }
}

static void
on_add_layer (GtkButton *button, XrlabStackEditor *self)
{
  gboolean filter = self->item != NULL && xrlab_stack_item_get_kind (self->item) == XRLAB_STACK_FILTER;
  EdLayer *l = filter ? layer_new ("Al:2.7", "100um", "") : layer_new ("Pt:21.45", "30nm", "0.4nm");

  if (self->item == NULL)
    return;
  /* A reflectivity stack keeps its substrate last. */
  if (!filter && self->items->len > 0)
    g_ptr_array_insert (self->items, (int) self->items->len - 1, item_new_layer (l));
  else
    g_ptr_array_add (self->items, item_new_layer (l));
  rebuild_rows (self);
  write_text (self);
}

static void
on_add_group (GtkButton *button, XrlabStackEditor *self)
{
  gboolean filter = self->item != NULL && xrlab_stack_item_get_kind (self->item) == XRLAB_STACK_FILTER;
  EdItem *g = item_new_group (filter ? 3 : 40);

  if (self->item == NULL)
    return;
  g_ptr_array_add (g->body, filter ? layer_new ("Al:2.7", "10um", "") : layer_new ("W:19.3", "1nm", "0.3nm"));
  g_ptr_array_add (g->body, filter ? layer_new ("Kapton", "25um", "") : layer_new ("B4C:2.52", "1.5nm", "0.3nm"));
  if (!filter && self->items->len > 0)
    g_ptr_array_insert (self->items, (int) self->items->len - 1, g);
  else
    g_ptr_array_add (self->items, g);
  rebuild_rows (self);
  write_text (self);
}

/* ---- GObject ----------------------------------------------------------------- */

static void
xrlab_stack_editor_dispose (GObject *object)
{
  XrlabStackEditor *self = XRLAB_STACK_EDITOR (object);

  if (self->item != NULL)
    g_clear_signal_handler (&self->item_handler, self->item);
  g_clear_object (&self->item);
  g_clear_object (&self->materials);
  g_clear_pointer (&self->items, g_ptr_array_unref);
  G_OBJECT_CLASS (xrlab_stack_editor_parent_class)->dispose (object);
}

static void
xrlab_stack_editor_class_init (XrlabStackEditorClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = xrlab_stack_editor_dispose;
  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "stackeditor");
}

static void
xrlab_stack_editor_init (XrlabStackEditor *self)
{
  GtkWidget *scroll, *buttons, *add_layer, *add_group, *label;
  GtkGesture *click;

  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  gtk_box_set_spacing (GTK_BOX (self), 6);

  label = gtk_label_new (_("Stack"));
  gtk_widget_add_css_class (label, "heading");
  gtk_widget_set_halign (label, GTK_ALIGN_START);
  gtk_box_append (GTK_BOX (self), label);

  self->name_entry = GTK_ENTRY (gtk_entry_new ());
  gtk_entry_set_placeholder_text (self->name_entry, _("Name"));
  g_signal_connect (self->name_entry, "changed", G_CALLBACK (on_name_changed), self);
  gtk_box_append (GTK_BOX (self), GTK_WIDGET (self->name_entry));

  self->text_entry = GTK_ENTRY (gtk_entry_new ());
  gtk_entry_set_placeholder_text (self->text_entry, _("Layers from the top, “/” between them"));
  gtk_widget_add_css_class (GTK_WIDGET (self->text_entry), "monospace");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->text_entry),
                               _("FORMULA[:DENSITY][:THICKNESS][~ROUGHNESS] from the top, “/” "
                                 "between layers, the substrate last; {LAYER/LAYER}xN repeats; "
                                 "a gas ambient first (He@1atm/Rh). Filters: FORMULA:THICKNESS "
                                 "and GAS@PRESSURE,TEMPERATURE:LENGTH."));
  g_signal_connect (self->text_entry, "changed", G_CALLBACK (on_text_changed), self);
  gtk_box_append (GTK_BOX (self), GTK_WIDGET (self->text_entry));

  self->error_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->error_label, TRUE);
  gtk_label_set_xalign (self->error_label, 0);
  gtk_widget_add_css_class (GTK_WIDGET (self->error_label), "error");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->error_label), _("Click to select the column"));
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), FALSE);
  click = gtk_gesture_click_new ();
  g_signal_connect (click, "pressed", G_CALLBACK (on_error_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self->error_label), GTK_EVENT_CONTROLLER (click));
  gtk_box_append (GTK_BOX (self), GTK_WIDGET (self->error_label));

  scroll = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroll), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_vexpand (scroll, TRUE);
  self->rows = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (self->rows, GTK_SELECTION_NONE);
  gtk_widget_add_css_class (GTK_WIDGET (self->rows), "boxed-list");
  gtk_widget_set_valign (GTK_WIDGET (self->rows), GTK_ALIGN_START);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroll), GTK_WIDGET (self->rows));
  gtk_box_append (GTK_BOX (self), scroll);

  buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  add_layer = gtk_button_new_with_mnemonic (_("Add _Layer"));
  add_group = gtk_button_new_with_mnemonic (_("Add _Repeat Group"));
  g_signal_connect (add_layer, "clicked", G_CALLBACK (on_add_layer), self);
  g_signal_connect (add_group, "clicked", G_CALLBACK (on_add_group), self);
  gtk_box_append (GTK_BOX (buttons), add_layer);
  gtk_box_append (GTK_BOX (buttons), add_group);
  self->add_box = buttons;
  gtk_box_append (GTK_BOX (self), buttons);
  gtk_widget_set_sensitive (GTK_WIDGET (self), FALSE);
}

GtkWidget *
xrlab_stack_editor_new (void)
{
  return g_object_new (XRLAB_TYPE_STACK_EDITOR, NULL);
}

void
xrlab_stack_editor_set_item (XrlabStackEditor *self, XrlabStackItem *item)
{
  g_return_if_fail (XRLAB_IS_STACK_EDITOR (self));

  if (self->item == item)
    return;
  if (self->item != NULL)
    g_clear_signal_handler (&self->item_handler, self->item);
  g_set_object (&self->item, item);
  g_clear_pointer (&self->items, g_ptr_array_unref);
  self->updating = TRUE;
  gtk_editable_set_text (GTK_EDITABLE (self->name_entry), item ? xrlab_stack_item_get_name (item) : "");
  gtk_editable_set_text (GTK_EDITABLE (self->text_entry), item ? xrlab_stack_item_get_text (item) : "");
  self->updating = FALSE;
  if (item != NULL)
    {
      self->items = parse_items (xrlab_stack_item_get_text (item));
      self->item_handler = g_signal_connect (item, "changed", G_CALLBACK (on_item_changed), self);
    }
  rebuild_rows (self);
  show_error (self);
  gtk_widget_set_sensitive (GTK_WIDGET (self), item != NULL);
}

XrlabStackItem *
xrlab_stack_editor_get_item (XrlabStackEditor *self)
{
  g_return_val_if_fail (XRLAB_IS_STACK_EDITOR (self), NULL);
  return self->item;
}

void
xrlab_stack_editor_set_materials (XrlabStackEditor *self, GListModel *materials)
{
  g_return_if_fail (XRLAB_IS_STACK_EDITOR (self));
  g_set_object (&self->materials, materials);
}

GtkEditable *
xrlab_stack_editor_get_text_entry (XrlabStackEditor *self)
{
  g_return_val_if_fail (XRLAB_IS_STACK_EDITOR (self), NULL);
  return GTK_EDITABLE (self->text_entry);
}

GtkLabel *
xrlab_stack_editor_get_error_label (XrlabStackEditor *self)
{
  g_return_val_if_fail (XRLAB_IS_STACK_EDITOR (self), NULL);
  return self->error_label;
}

guint
xrlab_stack_editor_get_n_rows (XrlabStackEditor *self)
{
  g_return_val_if_fail (XRLAB_IS_STACK_EDITOR (self), 0);
  return self->items != NULL ? self->items->len : 0;
}
