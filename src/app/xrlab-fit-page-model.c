/* xrlab-fit-page-model.c -- the Fit page's model builder: the components
 * of the model, a palette to add one, remove and reorder, save as a
 * trspecfit model file
 *
 * Structure edits go to the fit service (xrlab-engine-fit-model.h): each is
 * one request, checked there with the rules of the model files; a refused
 * one leaves the model as it was and shows its message. After an edit the
 * tree (consumer "fit-tree") and the parameter table are fetched again and
 * the previews redrawn.
 *
 * With a baseline model its components are a section of their own below
 * the model's, edited with the same buttons and palette: the edits name
 * the baseline model (each widget of a section carries its model,
 * xrlab_fit_page_mark_role()), and are kept with the session in the kept
 * model file as the main model's are (the save writes both models).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-fit-page-private.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "xrlab-engine-fit-model.h"

static void fetch_tree (XrlabFitPage *self, XrlabFitModelRole role);

/* ---- the model a widget edits ---------------------------------------------------- */

void
xrlab_fit_page_mark_role (GtkWidget *widget, XrlabFitModelRole role)
{
  g_object_set_data (G_OBJECT (widget), "xrlab-model-role", GINT_TO_POINTER ((int) role + 1));
}

XrlabFitModelRole
xrlab_fit_page_widget_role (GtkWidget *widget)
{
  for (GtkWidget *w = widget; w != NULL; w = gtk_widget_get_parent (w))
    {
      int r = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (w), "xrlab-model-role"));
      if (r > 0)
        return (XrlabFitModelRole) (r - 1);
    }
  return XRLAB_FIT_MODEL_MAIN;
}

/* ---- edits -------------------------------------------------------------------- */

typedef struct {
  XrlabFitPage *self;
  XrlabFitModelRole role;
} EditOp;

static void
on_model_edited (GObject *source, GAsyncResult *result, gpointer data)
{
  EditOp *op = data;
  g_autoptr(XrlabFitPage) self = op->self;
  XrlabFitModelRole role = op->role;
  g_autoptr(GError) error = NULL;
  g_autofree XrlabModelEditResult *r = xrlab_engine_fit_edit_model_finish (XRLAB_ENGINE (source), result,
                                                                           &error);

  g_free (op);
  self->pending--;
  if (r == NULL)
    {
      if (!xrlab_fit_page_error_is_quiet (error))
        xrlab_fit_page_set_message (self, error->message);
      return;
    }
  xrlab_fit_page_set_message (self, NULL);
  if (role == XRLAB_FIT_MODEL_MAIN)
    {
      /* The values typed may name renumbered parameters: the model file's
       * structure is the session's no longer, so they are dropped. (The
       * baseline model's values are kept in the kept model file.) */
      g_clear_pointer (&self->ws.value_names, g_strfreev);
      g_clear_pointer (&self->ws.values, g_free);
      self->ws.n_values = 0;
      self->model_edited = TRUE;
      xrlab_fit_page_traces_follow (self);
      self->map_dirty = self->map_kind != XRLAB_FIT_MAP_DATA;
      self->spectrum_dirty = self->trace_dirty = TRUE;
    }
  /* the engine dropped every result of the setup */
  xrlab_fit_workspace_clear_result (&self->ws);
  fetch_tree (self, role);
  self->params_dirty = self->bparams_dirty = TRUE;
  xrlab_fit_page_schedule (self);
  g_signal_emit_by_name (self, "changed");
  xrlab_fit_page_keep_edits (self);
}

void
xrlab_fit_page_send_model_edits_for (XrlabFitPage *self, XrlabFitModelRole role, const XrlabModelEdit *edits,
                                     gsize n)
{
  EditOp *op;

  if (self->setup == 0 || self->fitting)
    return;
  if (role == XRLAB_FIT_MODEL_BASELINE && self->ws.baseline_model == NULL)
    return;
  op = g_new0 (EditOp, 1);
  op->self = g_object_ref (self);
  op->role = role;
  self->pending++;
  xrlab_engine_fit_edit_model_async (self->engine, self->setup, role, edits, n, self->cancellable,
                                     on_model_edited, op);
}

void
xrlab_fit_page_send_model_edits (XrlabFitPage *self, const XrlabModelEdit *edits, gsize n)
{
  xrlab_fit_page_send_model_edits_for (self, XRLAB_FIT_MODEL_MAIN, edits, n);
}

static void
add_component (XrlabFitPage *self, XrlabFitModelRole role, const char *function)
{
  XrlabModelEdit e = { 0 };

  e.kind = XRLAB_MODEL_EDIT_ADD;
  e.part = XRLAB_MODEL_PART_ENERGY;
  e.function = function;
  e.position = -1;
  xrlab_fit_page_send_model_edits_for (self, role, &e, 1);
}

static void
remove_component (XrlabFitPage *self, XrlabFitModelRole role, const char *component)
{
  XrlabModelEdit e = { 0 };

  e.kind = XRLAB_MODEL_EDIT_REMOVE;
  e.part = XRLAB_MODEL_PART_ENERGY;
  e.component = component;
  xrlab_fit_page_send_model_edits_for (self, role, &e, 1);
}

static void
move_component (XrlabFitPage *self, XrlabFitModelRole role, const char *component, gssize position)
{
  XrlabModelEdit e = { 0 };

  e.kind = XRLAB_MODEL_EDIT_MOVE;
  e.part = XRLAB_MODEL_PART_ENERGY;
  e.component = component;
  e.position = position;
  xrlab_fit_page_send_model_edits_for (self, role, &e, 1);
}

void
xrlab_fit_page_add_component (XrlabFitPage *self, const char *function)
{
  g_return_if_fail (XRLAB_IS_FIT_PAGE (self));
  add_component (self, XRLAB_FIT_MODEL_MAIN, function);
}

void
xrlab_fit_page_remove_component (XrlabFitPage *self, const char *component)
{
  g_return_if_fail (XRLAB_IS_FIT_PAGE (self));
  remove_component (self, XRLAB_FIT_MODEL_MAIN, component);
}

void
xrlab_fit_page_move_component (XrlabFitPage *self, const char *component, gssize position)
{
  g_return_if_fail (XRLAB_IS_FIT_PAGE (self));
  move_component (self, XRLAB_FIT_MODEL_MAIN, component, position);
}

void
xrlab_fit_page_remove_component_of (XrlabFitPage *self, GtkWidget *widget, const char *component)
{
  remove_component (self, xrlab_fit_page_widget_role (widget), component);
}

/* ---- the component list ------------------------------------------------------- */

static void
on_row_button (GtkButton *button, XrlabFitPage *self)
{
  const char *name = g_object_get_data (G_OBJECT (button), "component");
  int what = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (button), "what"));
  gssize index = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (button), "index"));

  XrlabFitModelRole role = xrlab_fit_page_widget_role (GTK_WIDGET (button));

  if (what == 0)
    remove_component (self, role, name);
  else
    move_component (self, role, name, index + (what < 0 ? -1 : 1));
}

static GtkWidget *
row_button (XrlabFitPage *self, const char *icon, const char *tooltip, const char *component, int what,
            gsize index, gboolean sensitive)
{
  GtkWidget *b = gtk_button_new_from_icon_name (icon);

  gtk_widget_set_tooltip_text (b, tooltip);
  gtk_widget_add_css_class (b, "flat");
  gtk_widget_set_sensitive (b, sensitive);
  g_object_set_data_full (G_OBJECT (b), "component", g_strdup (component), g_free);
  g_object_set_data (G_OBJECT (b), "what", GINT_TO_POINTER (what));
  g_object_set_data (G_OBJECT (b), "index", GINT_TO_POINTER ((int) index));
  g_signal_connect (b, "clicked", G_CALLBACK (on_row_button), self);
  return b;
}

/* The components of the model @role in its list. */
static void
show_tree (XrlabFitPage *self, XrlabFitModelRole role, const XrlabModelDesc *desc)
{
  GtkListBox *list = role == XRLAB_FIT_MODEL_BASELINE ? self->bcomponents : self->components;
  GtkStringList *names = role == XRLAB_FIT_MODEL_BASELINE ? self->bcomponent_names : self->component_names;
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (list))) != NULL)
    gtk_list_box_remove (list, child);
  gtk_string_list_splice (names, 0, g_list_model_get_n_items (G_LIST_MODEL (names)), NULL);
  for (gsize i = 0; desc != NULL && i < desc->n_components; i++)
    {
      const XrlabModelDescComponent *c = &desc->components[i];
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
      GtkWidget *label = gtk_label_new (c->full_name);
      g_autofree char *sub = g_strdup_printf ("%s · %s", c->function,
                                              c->kind == XRLAB_MODEL_FN_BACKGROUND ? _("background") : _("peak"));
      GtkWidget *kind = gtk_label_new (sub);

      gtk_string_list_append (names, c->full_name);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_widget_set_hexpand (label, TRUE);
      gtk_widget_add_css_class (kind, "dim-label");
      gtk_box_append (GTK_BOX (box), label);
      gtk_box_append (GTK_BOX (box), kind);
      gtk_box_append (GTK_BOX (box), row_button (self, "go-up-symbolic", _("Move up"), c->full_name, -1, i, i > 0));
      gtk_box_append (GTK_BOX (box), row_button (self, "go-down-symbolic", _("Move down"), c->full_name, 1, i,
                                                 i + 1 < desc->n_components));
      gtk_box_append (GTK_BOX (box), row_button (self, "list-remove-symbolic", _("Remove"), c->full_name, 0, i,
                                                 desc->n_components > 1));
      gtk_widget_set_margin_start (box, 6);
      gtk_widget_set_margin_end (box, 6);
      gtk_list_box_append (list, box);
      xrlab_fit_page_attached_rows (self, c, list);
    }
}

static void
on_tree (GObject *source, GAsyncResult *result, gpointer data)
{
  EditOp *op = data;
  g_autoptr(XrlabFitPage) self = op->self;
  XrlabFitModelRole role = op->role;
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabModelDesc) desc = xrlab_engine_fit_describe_finish (XRLAB_ENGINE (source), result, &error);

  g_free (op);
  self->pending--;
  if (desc != NULL && (role == XRLAB_FIT_MODEL_MAIN || self->ws.baseline_model != NULL))
    show_tree (self, role, desc);
}

static void
fetch_tree (XrlabFitPage *self, XrlabFitModelRole role)
{
  EditOp *op;

  if (self->setup == 0)
    return;
  op = g_new0 (EditOp, 1);
  op->self = g_object_ref (self);
  op->role = role;
  self->pending++;
  xrlab_engine_fit_describe_async (self->engine, self->setup,
                                   role == XRLAB_FIT_MODEL_BASELINE ? "fit-baseline-tree" : "fit-tree", role,
                                   self->cancellable, on_tree, op);
}

void
xrlab_fit_page_model_opened (XrlabFitPage *self)
{
  const char *kept = g_object_get_data (G_OBJECT (self), "xrlab-keep-path");

  /* A workspace of another file: the edits start from it. */
  if (g_strcmp0 (self->ws.models, kept) != 0)
    g_object_set_data (G_OBJECT (self), "xrlab-source-models", NULL);
  self->model_edited = FALSE;
  show_tree (self, XRLAB_FIT_MODEL_MAIN, NULL);
  show_tree (self, XRLAB_FIT_MODEL_BASELINE, NULL);
  fetch_tree (self, XRLAB_FIT_MODEL_MAIN);
  gtk_widget_set_visible (self->bcomponents_box, self->ws.baseline_model != NULL);
  if (self->ws.baseline_model != NULL)
    {
      gtk_label_set_text (self->bcomponents_name, self->ws.baseline_model);
      fetch_tree (self, XRLAB_FIT_MODEL_BASELINE);
    }
}

/* ---- saving -------------------------------------------------------------------- */

/* The workspace names the saved file from now on (a session restores the
 * edited model from it): its models, time dependence, values. */
static void
adopt_saved (XrlabFitPage *self, const XrlabFitModelSaved *saved, gboolean keep_values)
{
  GPtrArray *dyn = g_ptr_array_new ();

  g_free (self->ws.models);
  self->ws.models = g_strdup (saved->models);
  g_free (self->ws.model);
  self->ws.model = g_strdup (saved->model);
  g_free (self->ws.baseline_model);
  self->ws.baseline_model = g_strdup (saved->baseline_model);
  for (gsize i = 0; i < saved->n_dynamics; i++)
    {
      const XrlabFitDynamics *d = &saved->dynamics[i];
      g_autoptr(GString) models = g_string_new (NULL);
      char freq[G_ASCII_DTOSTR_BUF_SIZE] = "";

      for (gsize k = 0; k < d->n_models; k++)
        g_string_append_printf (models, "%s%s", k > 0 ? "," : "", d->models[k]);
      if (d->frequency > 0)
        g_ascii_dtostr (freq, sizeof freq, d->frequency);
      g_ptr_array_add (dyn, g_strdup_printf ("%s=%s:%s%s%s", d->param, d->file, models->str, freq[0] ? "@" : "", freq));
    }
  g_ptr_array_add (dyn, NULL);
  g_strfreev (self->ws.dynamics);
  self->ws.dynamics = (char **) g_ptr_array_free (dyn, FALSE);
  xrlab_fit_page_adopt_profiles (self, saved);
  /* the file has both models */
  g_clear_pointer (&self->baseline_file, g_free);
  if (!keep_values)
    {
      g_clear_pointer (&self->ws.value_names, g_strfreev);
      g_clear_pointer (&self->ws.values, g_free);
      self->ws.n_values = 0;
      xrlab_fit_workspace_clear_result (&self->ws);
    }
  self->model_edited = FALSE;
  g_signal_emit_by_name (self, "changed");
}

static void
on_saved (GObject *source, GAsyncResult *result, gpointer data)
{
  GTask *task = data;
  GError *error = NULL;
  g_autoptr(XrlabFitModelSaved) saved = xrlab_engine_fit_save_model_finish (XRLAB_ENGINE (source), result,
                                                                           &error);

  if (saved == NULL)
    g_task_return_error (task, error);
  else
    {
      adopt_saved (g_task_get_source_object (task), saved, FALSE);
      g_task_return_boolean (task, TRUE);
    }
  g_object_unref (task);
}

void
xrlab_fit_page_save_model (XrlabFitPage *self, const char *path, GAsyncReadyCallback callback,
                           gpointer user_data)
{
  GTask *task;

  g_return_if_fail (XRLAB_IS_FIT_PAGE (self));
  task = g_task_new (self, NULL, callback, user_data);
  if (self->setup == 0)
    {
      g_task_return_new_error (task, XRLAB_ENGINE_FIT_ERROR, XRLAB_ENGINE_FIT_ERROR_NOT_READY,
                               _("No measurement is open"));
      g_object_unref (task);
      return;
    }
  xrlab_engine_fit_save_model_async (self->engine, self->setup, path, self->cancellable, on_saved, task);
}

gboolean
xrlab_fit_page_save_model_finish (XrlabFitPage *self, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

/* ---- keeping the edits ------------------------------------------------------------- */

/* The edited model is saved after each edit of its structure, vary, bounds
 * or expressions into a file of the state folder
 * (XDG_STATE_HOME/xrlab/fit-models/), which the workspace names from then
 * on as it names a model saved by hand: the session keeps the edits and
 * the next start opens them. A page keeps one such file (the one its
 * workspace came from when it is one). */
static char *
keep_path (XrlabFitPage *self)
{
  g_autofree char *dir = g_build_filename (g_get_user_state_dir (), "xrlab", "fit-models", NULL);
  const char *kept = g_object_get_data (G_OBJECT (self), "xrlab-keep-path");
  g_autofree char *name = NULL;

  if (kept != NULL)
    return g_strdup (kept);
  if (self->ws.models != NULL && g_str_has_prefix (self->ws.models, dir)
      && self->ws.models[strlen (dir)] == G_DIR_SEPARATOR)
    name = g_path_get_basename (self->ws.models);
  else
    name = g_strdup_printf ("edited-%08x.yaml", g_random_int ());
  g_mkdir_with_parents (dir, 0700);
  g_object_set_data_full (G_OBJECT (self), "xrlab-keep-path", g_build_filename (dir, name, NULL), g_free);
  return g_strdup (g_object_get_data (G_OBJECT (self), "xrlab-keep-path"));
}

static void
on_kept (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr(XrlabFitPage) self = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabFitModelSaved) saved = xrlab_engine_fit_save_model_finish (XRLAB_ENGINE (source), result,
                                                                           &error);

  self->pending--;
  if (saved != NULL)
    {
      /* the file the edits started from, for the model menu (its other models) */
      if (g_object_get_data (G_OBJECT (self), "xrlab-source-models") == NULL
          && g_strcmp0 (self->ws.models, saved->models) != 0)
        g_object_set_data_full (G_OBJECT (self), "xrlab-source-models", g_strdup (self->ws.models), g_free);
      adopt_saved (self, saved, TRUE);
    }
  else if (!xrlab_fit_page_error_is_quiet (error))
    {
      g_autofree char *m = g_strdup_printf (_("The edited model was not kept for the session: %s"),
                                            error->message);
      xrlab_fit_page_set_message (self, m);
    }
}

const char *
xrlab_fit_page_source_models (XrlabFitPage *self)
{
  return g_object_get_data (G_OBJECT (self), "xrlab-source-models");
}

static gboolean
keep_idle (gpointer data)
{
  XrlabFitPage *self = data;
  g_autofree char *path = NULL;

  g_object_set_data (G_OBJECT (self), "xrlab-keep-id", NULL);
  self->pending--;
  if (self->setup == 0 || g_cancellable_is_cancelled (self->cancellable))
    return G_SOURCE_REMOVE;
  path = keep_path (self);
  self->pending++;
  xrlab_engine_fit_save_model_async (self->engine, self->setup, path, self->cancellable, on_kept,
                                     g_object_ref (self));
  return G_SOURCE_REMOVE;
}

void
xrlab_fit_page_keep_edits (XrlabFitPage *self)
{
  if (self->setup == 0 || g_object_get_data (G_OBJECT (self), "xrlab-keep-id") != NULL)
    return;
  /* after the edits of this turn of the main loop have been sent */
  self->pending++;
  g_object_set_data (G_OBJECT (self), "xrlab-keep-id",
                     GUINT_TO_POINTER (g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, keep_idle, g_object_ref (self),
                                                        g_object_unref)));
}

guint
xrlab_fit_page_get_n_components (XrlabFitPage *self)
{
  g_return_val_if_fail (XRLAB_IS_FIT_PAGE (self), 0);
  return g_list_model_get_n_items (G_LIST_MODEL (self->component_names));
}

const char *
xrlab_fit_page_get_component (XrlabFitPage *self, guint i)
{
  g_return_val_if_fail (XRLAB_IS_FIT_PAGE (self), NULL);
  return gtk_string_list_get_string (self->component_names, i);
}

guint
xrlab_fit_page_get_n_baseline_components (XrlabFitPage *self)
{
  g_return_val_if_fail (XRLAB_IS_FIT_PAGE (self), 0);
  return gtk_widget_get_visible (self->bcomponents_box)
         ? g_list_model_get_n_items (G_LIST_MODEL (self->bcomponent_names)) : 0;
}

const char *
xrlab_fit_page_get_baseline_component (XrlabFitPage *self, guint i)
{
  g_return_val_if_fail (XRLAB_IS_FIT_PAGE (self), NULL);
  return gtk_string_list_get_string (self->bcomponent_names, i);
}

GtkWidget *
xrlab_fit_page_get_component_section (XrlabFitPage *self, gboolean baseline)
{
  g_return_val_if_fail (XRLAB_IS_FIT_PAGE (self), NULL);
  return baseline ? self->bcomponents_box : gtk_widget_get_parent (GTK_WIDGET (self->components));
}

/* ---- construction ---------------------------------------------------------------- */

static void
on_palette_activated (GtkListBox *list, GtkListBoxRow *row, XrlabFitPage *self)
{
  GtkWidget *popover = gtk_widget_get_ancestor (GTK_WIDGET (list), GTK_TYPE_POPOVER);

  add_component (self, xrlab_fit_page_widget_role (GTK_WIDGET (list)), g_object_get_data (G_OBJECT (row), "function"));
  if (popover != NULL)
    gtk_popover_popdown (GTK_POPOVER (popover));
}

GtkWidget *
xrlab_fit_page_palette_row (const XrlabModelPaletteEntry *p)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *name = gtk_label_new (p->name);
  GtkWidget *formula = gtk_label_new (p->formula);

  gtk_label_set_xalign (GTK_LABEL (name), 0);
  gtk_label_set_xalign (GTK_LABEL (formula), 0);
  gtk_label_set_ellipsize (GTK_LABEL (formula), PANGO_ELLIPSIZE_END);
  gtk_label_set_max_width_chars (GTK_LABEL (formula), 48);
  gtk_widget_add_css_class (formula, "dim-label");
  gtk_widget_add_css_class (formula, "caption");
  gtk_box_append (GTK_BOX (box), name);
  gtk_box_append (GTK_BOX (box), formula);
  gtk_widget_set_margin_top (box, 4);
  gtk_widget_set_margin_bottom (box, 4);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  g_object_set_data (G_OBJECT (row), "function", (gpointer) p->name);
  return row;
}

/* The energy functions of the palette, each with its formula. */
static GtkWidget *
build_palette (XrlabFitPage *self, const char *tooltip)
{
  GtkWidget *button = gtk_menu_button_new ();
  GtkWidget *popover = gtk_popover_new ();
  GtkWidget *scroll = gtk_scrolled_window_new ();
  GtkWidget *list = gtk_list_box_new ();
  gsize n;
  const XrlabModelPaletteEntry *p = xrlab_model_palette (&n);

  for (gsize i = 0; i < n; i++)
    if (p[i].kind == XRLAB_MODEL_FN_PEAK || p[i].kind == XRLAB_MODEL_FN_BACKGROUND)
      gtk_list_box_append (GTK_LIST_BOX (list), xrlab_fit_page_palette_row (&p[i]));
  g_signal_connect (list, "row-activated", G_CALLBACK (on_palette_activated), self);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroll), list);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroll), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (scroll), 320);
  gtk_popover_set_child (GTK_POPOVER (popover), scroll);
  gtk_menu_button_set_popover (GTK_MENU_BUTTON (button), popover);
  gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (button), "list-add-symbolic");
  gtk_widget_set_tooltip_text (button, tooltip);
  return button;
}

/* The baseline model's components, below the model's (hidden without a
 * baseline model). */
static GtkWidget *
build_baseline_section (XrlabFitPage *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *head = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *title = gtk_label_new (_("Baseline Components"));

  xrlab_fit_page_mark_role (box, XRLAB_FIT_MODEL_BASELINE);
  self->bcomponent_names = gtk_string_list_new (NULL);
  self->bcomponents_name = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_widget_add_css_class (title, "heading");
  gtk_label_set_xalign (self->bcomponents_name, 0);
  gtk_label_set_ellipsize (self->bcomponents_name, PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (GTK_WIDGET (self->bcomponents_name), TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->bcomponents_name), "dim-label");
  gtk_widget_set_tooltip_text (head, _("The baseline model, fitted to the baseline spectrum before the other fits"));
  gtk_box_append (GTK_BOX (head), title);
  gtk_box_append (GTK_BOX (head), GTK_WIDGET (self->bcomponents_name));
  gtk_box_append (GTK_BOX (head), build_palette (self, _("Add a component to the baseline model")));
  gtk_box_append (GTK_BOX (box), head);
  self->bcomponents = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (self->bcomponents, GTK_SELECTION_NONE);
  gtk_widget_add_css_class (GTK_WIDGET (self->bcomponents), "boxed-list");
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->bcomponents));
  gtk_widget_set_margin_top (box, 6);
  gtk_widget_set_visible (box, FALSE);
  self->bcomponents_box = box;
  return box;
}

GtkWidget *
xrlab_fit_page_model_build (XrlabFitPage *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *head = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *title = gtk_label_new (_("Components"));
  GtkWidget *save = gtk_button_new_from_icon_name ("document-save-symbolic");

  GtkWidget *section = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);

  gtk_box_append (GTK_BOX (box), xrlab_fit_page_project_build (self));
  xrlab_fit_page_mark_role (section, XRLAB_FIT_MODEL_MAIN);
  self->component_names = gtk_string_list_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_widget_set_hexpand (title, TRUE);
  gtk_widget_add_css_class (title, "heading");
  gtk_widget_set_tooltip_text (save, _("Save the model as a trspecfit model file"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (save), "fit.save-model");
  gtk_box_append (GTK_BOX (head), title);
  gtk_box_append (GTK_BOX (head), build_palette (self, _("Add a component")));
  gtk_box_append (GTK_BOX (head), save);
  gtk_box_append (GTK_BOX (section), head);
  self->components = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (self->components, GTK_SELECTION_NONE);
  gtk_widget_add_css_class (GTK_WIDGET (self->components), "boxed-list");
  gtk_box_append (GTK_BOX (section), GTK_WIDGET (self->components));
  gtk_box_append (GTK_BOX (box), section);
  gtk_box_append (GTK_BOX (box), build_baseline_section (self));
  return box;
}
