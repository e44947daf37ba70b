/* xrlab-fit-page-attached.c -- the time dependence and profiles of the
 * model's parameters in the Fit page's component list: under each
 * component, a row per time model (every delay, then each subcycle) and
 * per profile of its parameters, with their functions, each removable,
 * and the palette of time functions and kernels (or profile functions) to
 * add one, as the energy model's components are edited
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-fit-page-private.h"

#include <glib/gi18n-lib.h>

/* ---- the palette ------------------------------------------------------------------- */

static gboolean
fits_part (XrlabModelFnKind kind, gboolean profile)
{
  return profile ? kind == XRLAB_MODEL_FN_PROFILE : kind == XRLAB_MODEL_FN_TIME || kind == XRLAB_MODEL_FN_KERNEL;
}

static void
on_palette_row (GtkListBox *list, GtkListBoxRow *row, gpointer data)
{
  XrlabFitPalettePicked picked = (XrlabFitPalettePicked) g_object_get_data (G_OBJECT (list), "picked");
  GtkWidget *popover = gtk_widget_get_ancestor (GTK_WIDGET (list), GTK_TYPE_POPOVER);

  if (popover != NULL)
    gtk_popover_popdown (GTK_POPOVER (popover));
  picked (list, g_object_get_data (G_OBJECT (row), "function"), data);
}

GtkWidget *
xrlab_fit_page_time_palette (gboolean profile, XrlabFitPalettePicked picked, gpointer data)
{
  GtkWidget *button = gtk_menu_button_new ();
  GtkWidget *popover = gtk_popover_new ();
  GtkWidget *list = gtk_list_box_new ();
  gsize n;
  const XrlabModelPaletteEntry *p = xrlab_model_palette (&n);

  for (gsize i = 0; i < n; i++)
    if (fits_part (p[i].kind, profile))
      gtk_list_box_append (GTK_LIST_BOX (list), xrlab_fit_page_palette_row (&p[i]));
  g_object_set_data (G_OBJECT (list), "picked", (gpointer) picked);
  g_signal_connect (list, "row-activated", G_CALLBACK (on_palette_row), data);
  gtk_popover_set_child (GTK_POPOVER (popover), list);
  gtk_menu_button_set_popover (GTK_MENU_BUTTON (button), popover);
  gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (button), "list-add-symbolic");
  gtk_widget_set_tooltip_text (button, profile ? _("Add a profile function") : _("Add a time function or kernel"));
  gtk_widget_add_css_class (button, "flat");
  return button;
}

/* ---- the edits ---------------------------------------------------------------------- */

static void
add_time_function (XrlabFitPage *self, XrlabFitModelRole role, const char *param, gboolean profile,
                   guint subcycle, const char *function)
{
  XrlabModelEdit e = { 0 };

  e.kind = XRLAB_MODEL_EDIT_ADD;
  e.part = profile ? XRLAB_MODEL_PART_PROFILE : XRLAB_MODEL_PART_DYNAMICS;
  e.param = param;
  e.subcycle = profile ? 0 : subcycle;
  e.function = function;
  e.position = -1;
  xrlab_fit_page_send_model_edits_for (self, role, &e, 1);
}

void
xrlab_fit_page_add_time_function (XrlabFitPage *self, const char *param, gboolean profile, guint subcycle,
                                  const char *function)
{
  g_return_if_fail (XRLAB_IS_FIT_PAGE (self));
  add_time_function (self, XRLAB_FIT_MODEL_MAIN, param, profile, subcycle, function);
}

/* ---- the rows ------------------------------------------------------------------------ */

static void
on_picked (GtkListBox *list, const char *function, gpointer data)
{
  XrlabFitPage *self = data;
  GtkWidget *button = gtk_widget_get_ancestor (GTK_WIDGET (list), GTK_TYPE_MENU_BUTTON);
  g_autofree char *param = g_strdup (g_object_get_data (G_OBJECT (button), "param"));
  guint subcycle = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "subcycle"));
  gboolean profile = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (button), "profile"));

  /* the model of the list the row is in */
  add_time_function (self, xrlab_fit_page_widget_role (button), param, profile, subcycle, function);
}

static void
on_remove (GtkButton *button, XrlabFitPage *self)
{
  g_autofree char *name = g_strdup (g_object_get_data (G_OBJECT (button), "component"));

  xrlab_fit_page_remove_component_of (self, GTK_WIDGET (button), name);
}

static GtkWidget *
chip (XrlabFitPage *self, const XrlabModelDescComponent *c)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  GtkWidget *label = gtk_label_new (c->kind == XRLAB_MODEL_FN_NONE ? _("none") : c->name);

  gtk_widget_set_tooltip_text (label, c->function);
  gtk_widget_set_margin_start (label, 8);
  gtk_widget_set_margin_end (label, c->kind == XRLAB_MODEL_FN_NONE ? 8 : 0);
  gtk_box_append (GTK_BOX (box), label);
  if (c->kind != XRLAB_MODEL_FN_NONE)
    {
      GtkWidget *remove = gtk_button_new_from_icon_name ("window-close-symbolic");

      gtk_widget_add_css_class (remove, "flat");
      gtk_widget_set_tooltip_text (remove, _("Remove"));
      g_object_set_data_full (G_OBJECT (remove), "component", g_strdup (c->full_name), g_free);
      g_signal_connect (remove, "clicked", G_CALLBACK (on_remove), self);
      gtk_box_append (GTK_BOX (box), remove);
    }
  gtk_widget_add_css_class (box, "card");
  gtk_widget_set_valign (box, GTK_ALIGN_CENTER);
  gtk_widget_set_halign (box, GTK_ALIGN_START);
  return box;
}

/* The row of model @k of attachment @a of parameter @p. */
static GtkWidget *
model_row (XrlabFitPage *self, const XrlabModelDescParam *p, const XrlabModelDescAttachment *a, guint k)
{
  gboolean profile = a->part == XRLAB_MODEL_PART_PROFILE;
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *flow = gtk_flow_box_new ();
  GtkWidget *add = xrlab_fit_page_time_palette (profile, on_picked, self);
  g_autofree char *what = NULL;
  GtkWidget *label;

  if (profile)
    /* TRANSLATORS: the profile of parameter %s */
    what = g_strdup_printf (_("↳ %s · profile"), p->name);
  else if (k == 0)
    /* TRANSLATORS: the time dependence of parameter %s, its model for every delay */
    what = g_strdup_printf (_("↳ %s · every delay"), p->name);
  else
    /* TRANSLATORS: the time dependence of parameter %s, subcycle %u */
    what = g_strdup_printf (_("↳ %s · subcycle %u"), p->name, k);
  label = gtk_label_new (what);
  if (a->n_models > k && a->frequency > 0)
    {
      /* TRANSLATORS: a time model of a multi-cycle time dependence and its frequency */
      g_autofree char *tip = g_strdup_printf (_("%s, frequency %g"), a->models[k], a->frequency);
      gtk_widget_set_tooltip_text (label, tip);
    }
  else if (a->n_models > k)
    gtk_widget_set_tooltip_text (label, a->models[k]);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_width_chars (GTK_LABEL (label), 18);
  gtk_widget_add_css_class (label, "dim-label");
  gtk_widget_set_margin_start (label, 12);
  gtk_flow_box_set_selection_mode (GTK_FLOW_BOX (flow), GTK_SELECTION_NONE);
  gtk_flow_box_set_max_children_per_line (GTK_FLOW_BOX (flow), 8);
  gtk_widget_set_hexpand (flow, TRUE);
  for (gsize i = 0; i < a->n_components; i++)
    if (a->components[i].subcycle == k)
      gtk_flow_box_append (GTK_FLOW_BOX (flow), chip (self, &a->components[i]));
  g_object_set_data_full (G_OBJECT (add), "param", g_strdup (p->full_name), g_free);
  g_object_set_data (G_OBJECT (add), "subcycle", GUINT_TO_POINTER (k));
  g_object_set_data (G_OBJECT (add), "profile", GINT_TO_POINTER (profile));
  gtk_widget_set_valign (add, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (row), label);
  gtk_box_append (GTK_BOX (row), flow);
  gtk_box_append (GTK_BOX (row), add);
  gtk_widget_set_margin_start (row, 6);
  gtk_widget_set_margin_end (row, 6);
  return row;
}

void
xrlab_fit_page_attached_rows (XrlabFitPage *self, const XrlabModelDescComponent *c, GtkListBox *list)
{
  for (gsize i = 0; i < c->n_params; i++)
    {
      const XrlabModelDescParam *p = &c->params[i];
      const XrlabModelDescAttachment *att[] = { p->dynamics, p->profile };

      for (guint j = 0; j < G_N_ELEMENTS (att); j++)
        {
          guint n = att[j] == NULL ? 0 : att[j]->part == XRLAB_MODEL_PART_PROFILE ? 1 : MAX (att[j]->n_models, 1);

          for (guint k = 0; k < n; k++)
            gtk_list_box_append (list, model_row (self, p, att[j], k));
          /* the profile's parameters may have time dependence of their own */
          for (gsize m = 0; att[j] != NULL && m < att[j]->n_components; m++)
            if (att[j]->part == XRLAB_MODEL_PART_PROFILE)
              xrlab_fit_page_attached_rows (self, &att[j]->components[m], list);
        }
    }
}
