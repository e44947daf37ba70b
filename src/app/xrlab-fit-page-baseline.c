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
 * The last baseline fit is part of the workspace's result (kept with the
 * session): its values and errors, taken from the baseline table after a
 * fit. A workspace opened with one sends its values as start values of
 * the baseline model, all in one request, once the first baseline table
 * came and showed that every one names a parameter of the model that has
 * no expression; otherwise it is refused with a message (and forgotten),
 * the rest opened as it was.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-fit-page-private.h"

#include <glib/gi18n-lib.h>

#include "xrlab-model.h"
#include "xrlab-util.h"

#include <math.h>

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

/* ---- its last fit -------------------------------------------------------------------- */

double
xrlab_fit_page_baseline_error (XrlabFitPage *self, const XrlabFitParamRow *p)
{
  double e = NAN;

  if (isfinite (p->error) || (self->results != NULL && self->results->baseline != NULL))
    return p->error;
  xrlab_fit_workspace_get_baseline (&self->ws, p->name, NULL, &e);
  return e;
}

void
xrlab_fit_page_baseline_record (XrlabFitPage *self, const XrlabFitParamTable *t)
{
  gboolean fitted = FALSE;

  for (gsize i = 0; i < t->n_params; i++)
    fitted |= isfinite (t->params[i].error);
  xrlab_fit_workspace_clear_baseline (&self->ws);
  for (gsize i = 0; fitted && i < t->n_params; i++)
    if (t->params[i].expr == NULL && isfinite (t->params[i].value))
      xrlab_fit_workspace_set_baseline (&self->ws, t->params[i].name, t->params[i].value, t->params[i].error);
  g_signal_emit_by_name (self, "changed");
}

static void
refuse_kept (XrlabFitPage *self, const char *why)
{
  g_autofree char *m = g_strdup_printf (_("The last baseline fit kept with the session is not shown: %s"), why);

  xrlab_fit_workspace_clear_baseline (&self->ws);
  xrlab_fit_page_set_message (self, m);
  self->bparams_dirty = TRUE;
  xrlab_fit_page_schedule (self);
  g_signal_emit_by_name (self, "changed");
}

static void
on_restored (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr(XrlabFitPage) self = data;
  g_autoptr(GError) error = NULL;

  self->pending--;
  if (!xrlab_engine_fit_edit_params_finish (XRLAB_ENGINE (source), result, &error)
      && !xrlab_fit_page_error_is_quiet (error))
    refuse_kept (self, error->message);
}

void
xrlab_fit_page_baseline_restore (XrlabFitPage *self, const XrlabFitParamTable *t)
{
  const XrlabFitWorkspace *ws = &self->ws;
  g_autofree XrlabFitParamEdit *edits = NULL;

  if (ws->n_baseline == 0)
    return;
  edits = g_new0 (XrlabFitParamEdit, ws->n_baseline);
  for (gsize i = 0; i < ws->n_baseline; i++)
    {
      gsize k;

      for (k = 0; k < t->n_params && g_strcmp0 (t->params[k].name, ws->baseline_names[i]) != 0; k++)
        ;
      if (k == t->n_params || t->params[k].expr != NULL)
        {
          g_autofree char *name = xrlab_escape_text (ws->baseline_names[i], -1, 80);
          g_autofree char *m = k == t->n_params
                               ? g_strdup_printf (_("the baseline model “%s” has no parameter “%s”"),
                                                  ws->baseline_model, name)
                               : g_strdup_printf (_("the parameter “%s” of the baseline model is an expression"),
                                                  name);
          refuse_kept (self, m);
          return;
        }
      edits[i].model = XRLAB_FIT_MODEL_BASELINE;
      edits[i].name = ws->baseline_names[i];
      edits[i].fields = XRLAB_FIT_PARAM_VALUE;
      edits[i].value = ws->baseline_values[i];
    }
  self->pending++;
  xrlab_engine_fit_edit_params_async (self->engine, self->setup, edits, ws->n_baseline, self->cancellable,
                                      on_restored, g_object_ref (self));
  self->bparams_dirty = TRUE;
  xrlab_fit_page_schedule (self);
}

/* ---- choosing it ------------------------------------------------------------------------ */

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
