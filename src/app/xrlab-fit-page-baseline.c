/* xrlab-fit-page-baseline.c -- the Fit page's baseline model: chosen
 * beside the model, from the same model file
 *
 * The chooser lists "None" and every model of the file the model chooser
 * lists. A choice reopens the workspace as a change of its model does (a
 * new setup on the same data): the baseline model chosen, what belonged to
 * the old one dropped (its profiles, the result). When the main model's
 * edits are kept in a file of their own (xrlab_fit_page_keep_edits) and
 * the chooser lists the file they started from, the baseline model is read
 * from that file, and the kept file is written again with both models.
 * The baseline model's parameters are a section of the parameter table
 * (xrlab-fit-page-table.c).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-fit-page-private.h"

#include <glib/gi18n-lib.h>

#include "xrlab-model.h"

const char *
xrlab_fit_page_baseline_listed (XrlabFitPage *self)
{
  guint k = gtk_drop_down_get_selected (self->baseline_choice);

  if (k == GTK_INVALID_LIST_POSITION || k == 0)
    return NULL;
  return gtk_string_list_get_string (self->baseline_names, k);
}

void
xrlab_fit_page_baseline_fill (XrlabFitPage *self, XrlabModelFile *file)
{
  gsize n = file != NULL ? xrlab_model_file_n_models (file) : 0;
  const char *chosen = self->ws.baseline_model;
  guint selected = 0;

  self->building = TRUE;
  gtk_string_list_splice (self->baseline_names, 1,
                          g_list_model_get_n_items (G_LIST_MODEL (self->baseline_names)) - 1, NULL);
  for (gsize i = 0; i < n; i++)
    {
      const char *name = xrlab_model_file_model_name (file, i);

      gtk_string_list_append (self->baseline_names, name);
      if (chosen != NULL && g_strcmp0 (name, chosen) == 0)
        selected = 1 + i;
    }
  gtk_drop_down_set_selected (self->baseline_choice, selected);
  self->building = FALSE;
}

/* The baseline model chosen: a new setup on the same data. */
static void
update_baseline (XrlabFitPage *self)
{
  const char *name = xrlab_fit_page_baseline_listed (self);
  const char *from = NULL;
  XrlabFitWorkspace ws;

  if (!self->has_workspace || g_strcmp0 (name, self->ws.baseline_model) == 0)
    return;
  xrlab_fit_workspace_copy (&ws, &self->ws);
  g_free (ws.baseline_model);
  ws.baseline_model = g_strdup (name);
  /* what belonged to the old baseline model */
  g_clear_pointer (&ws.baseline_profiles, g_strfreev);
  xrlab_fit_workspace_clear_result (&ws);
  /* The chooser lists the file the kept edits started from: the baseline
   * model is that file's, the main model the edited one. */
  if (name != NULL && self->listed_models != NULL && g_strcmp0 (self->listed_models, ws.models) != 0)
    from = self->listed_models;
  xrlab_fit_page_open_full (self, &ws, from);
  xrlab_fit_workspace_clear (&ws);
}

static void
on_baseline_choice (XrlabFitPage *self)
{
  if (!self->building)
    update_baseline (self);
}

GtkWidget *
xrlab_fit_page_baseline_build (XrlabFitPage *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *label = gtk_label_new (_("Baseline"));
  /* TRANSLATORS: no baseline model (the baseline model chooser) */
  const char *const none[] = { C_("baseline model", "None"), NULL };

  gtk_widget_add_css_class (label, "dim-label");
  gtk_widget_set_margin_start (label, 6);
  self->baseline_names = gtk_string_list_new (none);
  self->baseline_choice = GTK_DROP_DOWN (gtk_drop_down_new (G_LIST_MODEL (g_object_ref (self->baseline_names)),
                                                            NULL));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->baseline_choice),
                               _("The baseline model, fitted to the baseline spectrum before the other fits"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->baseline_choice), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Baseline model"), -1);
  g_signal_connect_swapped (self->baseline_choice, "notify::selected", G_CALLBACK (on_baseline_choice), self);
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->baseline_choice));
  return box;
}

GtkDropDown *
xrlab_fit_page_get_baseline_choice (XrlabFitPage *self)
{
  g_return_val_if_fail (XRLAB_IS_FIT_PAGE (self), NULL);
  return self->baseline_choice;
}
