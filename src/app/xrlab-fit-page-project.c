/* xrlab-fit-page-project.c -- a folder of several measurements as one
 * project on the Fit page: the file shown, chosen from the project's files,
 * and the joint fit of all of them (trspecfit's Project.fit_2d)
 *
 * A folder in trspecfit's layout whose data/ holds data_1.csv, data_2.csv
 * ... (example 21) is a project, and so is one of those files opened (a
 * session names the file shown): the page shows one of its files with the
 * workspace's model, and the file selector shows another with the same
 * model, attachments, values and ranges. Fit Project opens a setup like
 * the shown one on every other file (xrlab_fit_page_open_sibling()) and
 * runs the engine's joint fit (xrlab_engine_fit_project_run_async()) with
 * the shown file's setup first, whose model is the joint one: its
 * `project` parameters shared by every file, its `file` ones fitted per
 * file. The table then shows the shown file's result; the summary below
 * the selector the joint metrics, the shared parameters and each file's
 * own.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-fit-page-private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n-lib.h>

typedef struct {
  XrlabFitPage *page;              /* not a reference: the page owns this */
  char **files;                    /* the measurements, NULL: no project */
  guint shown;                     /* the index of the file shown */
  GtkWidget *box;
  GtkDropDown *selector;
  GtkStringList *names;
  GtkWidget *fit_button;
  GtkLabel *summary;
  char *summary_text;
  /* a joint fit: the setups of the other files, in file order (0 at the shown one's place) */
  GArray *datasets, *setups;
  guint waiting;                   /* files still being opened */
  guint serial;
  char *open_error;
  XrlabFitProject *result;
} Project;

#define PROJECT_KEY "xrlab-fit-project"

static Project *
project_of (XrlabFitPage *self)
{
  return g_object_get_data (G_OBJECT (self), PROJECT_KEY);
}

static void
close_siblings (Project *p)
{
  for (guint i = 0; p->setups != NULL && i < p->setups->len; i++)
    {
      guint s = g_array_index (p->setups, guint, i), d = g_array_index (p->datasets, guint, i);
      if (s != 0)
        xrlab_engine_fit_setup_close (p->page->engine, s);
      if (d != 0)
        xrlab_engine_dataset_close (p->page->engine, d);
    }
  g_clear_pointer (&p->setups, g_array_unref);
  g_clear_pointer (&p->datasets, g_array_unref);
}

static void
project_free (gpointer data)
{
  Project *p = data;

  if (p->page->engine != NULL)
    close_siblings (p);
  g_strfreev (p->files);
  g_free (p->summary_text);
  g_free (p->open_error);
  g_free (p->result);
  g_free (p);
}

static int
compare_numbered (gconstpointer a, gconstpointer b)
{
  const char *x = *(const char *const *) a, *y = *(const char *const *) b;
  long nx = strtol (strrchr (x, '_') + 1, NULL, 10), ny = strtol (strrchr (y, '_') + 1, NULL, 10);

  return nx < ny ? -1 : nx > ny;
}

/* The measurements of @folder: data/data_N.csv in the order of N; NULL
 * when it holds fewer than two. */
static char **
project_files (const char *folder)
{
  g_autofree char *dir = g_build_filename (folder, "data", NULL);
  g_autoptr(GDir) d = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  if (!g_file_test (folder, G_FILE_TEST_IS_DIR) || (d = g_dir_open (dir, 0, NULL)) == NULL)
    return NULL;
  while ((name = g_dir_read_name (d)) != NULL)
    {
      char *end = NULL;
      if (g_str_has_prefix (name, "data_") && g_ascii_isdigit (name[5]) && (strtol (name + 5, &end, 10), TRUE)
          && g_strcmp0 (end, ".csv") == 0)
        g_ptr_array_add (names, g_build_filename (dir, name, NULL));
    }
  if (names->len < 2)
    return NULL;
  g_ptr_array_sort (names, compare_numbered);
  g_ptr_array_add (names, NULL);
  return (char **) g_ptr_array_free (g_steal_pointer (&names), FALSE);
}

static void
show_summary (Project *p, const char *text)
{
  g_free (p->summary_text);
  p->summary_text = g_strdup (text != NULL ? text : "");
  gtk_label_set_text (p->summary, p->summary_text);
  gtk_widget_set_visible (GTK_WIDGET (p->summary), text != NULL && *text != '\0');
}

/* A new workspace: a project folder, a file of the shown project, or
 * neither. The joint result was the old setups'. */
static void
on_opened (XrlabFitPage *self, Project *p)
{
  g_auto(GStrv) files = project_files (self->ws.data);
  guint shown = 0;

  if (files == NULL && self->ws.data != NULL)
    {
      /* one of the files: FOLDER/data/data_N.csv */
      g_autofree char *dir = g_path_get_dirname (self->ws.data);
      g_autofree char *up = g_path_get_dirname (dir);

      files = project_files (up);
      if (files != NULL && !g_strv_contains ((const char *const *) files, self->ws.data))
        g_clear_pointer (&files, g_strfreev);
      while (files != NULL && g_strcmp0 (files[shown], self->ws.data) != 0)
        shown++;
    }
  close_siblings (p);
  g_clear_pointer (&p->result, g_free);
  if (self->ws.project_summary != NULL)
    {
      /* TRANSLATORS: a project's joint fit summary kept with the session */
      g_autofree char *kept = g_strdup_printf (_("Last joint fit (kept with the session):\n%s"),
                                               self->ws.project_summary);
      show_summary (p, kept);
    }
  else
    show_summary (p, NULL);
  p->serial++;
  g_strfreev (p->files);
  p->files = g_steal_pointer (&files);
  p->shown = shown;
  self->building = TRUE;
  gtk_string_list_splice (p->names, 0, g_list_model_get_n_items (G_LIST_MODEL (p->names)), NULL);
  for (guint i = 0; p->files != NULL && p->files[i] != NULL; i++)
    {
      g_autofree char *base = g_path_get_basename (p->files[i]);
      gtk_string_list_append (p->names, base);
    }
  gtk_drop_down_set_selected (p->selector, shown);
  self->building = FALSE;
  gtk_widget_set_visible (p->box, p->files != NULL);
}

/* ---- the file shown --------------------------------------------------------------- */

void
xrlab_fit_page_select_file (XrlabFitPage *self, guint i)
{
  Project *p = project_of (self);
  XrlabFitWorkspace ws;

  g_return_if_fail (XRLAB_IS_FIT_PAGE (self));
  if (p == NULL || p->files == NULL || i >= g_strv_length (p->files) || i == p->shown)
    return;
  if (self->fitting)
    {
      /* the selector back at the file shown */
      self->building = TRUE;
      gtk_drop_down_set_selected (p->selector, p->shown);
      self->building = FALSE;
      return;
    }
  xrlab_fit_workspace_copy (&ws, &self->ws);
  g_free (ws.data);
  ws.data = g_strdup (p->files[i]);
  /* a file's own result was the file's */
  xrlab_fit_workspace_clear_result (&ws);
  xrlab_fit_page_open (self, &ws);
  xrlab_fit_workspace_clear (&ws);
}

static void
on_selected (GtkDropDown *dropdown, GParamSpec *pspec, XrlabFitPage *self)
{
  if (!self->building)
    xrlab_fit_page_select_file (self, gtk_drop_down_get_selected (dropdown));
}

guint
xrlab_fit_page_get_n_files (XrlabFitPage *self)
{
  Project *p = project_of (self);

  g_return_val_if_fail (XRLAB_IS_FIT_PAGE (self), 0);
  return p != NULL && p->files != NULL ? g_strv_length (p->files) : 0;
}

const char *
xrlab_fit_page_get_file (XrlabFitPage *self, guint i)
{
  g_return_val_if_fail (i < xrlab_fit_page_get_n_files (self), NULL);
  return project_of (self)->files[i];
}

guint
xrlab_fit_page_get_shown_file (XrlabFitPage *self)
{
  g_return_val_if_fail (xrlab_fit_page_get_n_files (self) > 0, 0);
  return project_of (self)->shown;
}

/* ---- the joint fit -------------------------------------------------------------------- */

static void
project_failed (XrlabFitPage *self, const char *message)
{
  Project *p = project_of (self);

  close_siblings (p);
  self->fitting = FALSE;
  g_clear_object (&self->job_cancellable);
  if (message != NULL)
    xrlab_fit_page_set_message (self, message);
  xrlab_fit_page_sync_controls (self);
  g_signal_emit_by_name (self, "fit-done");
}

/* "  NAME = VALUE ± ERROR\n" */
static void
append_param (GString *s, const char *name, double value, double error)
{
  if (isfinite (error))
    g_string_append_printf (s, "  %s = %.6g ± %.2g\n", name, value, error);
  else
    g_string_append_printf (s, "  %s = %.6g\n", name, value);
}

/* The joint metrics and the shared parameters, then each file's own
 * (`file`) parameters as its results have them. */
static void
summarize (Project *p, XrlabFitResults *const *results)
{
  const XrlabFitProject *r = p->result;
  g_autoptr(GString) s = g_string_new (NULL);
  guint n = g_strv_length (p->files);

  /* TRANSLATORS: the joint fit of a multi-file project */
  g_string_append_printf (s, _("Joint fit of %u files: χ² %.6g, reduced χ² %.6g, AIC %.6g, BIC %.6g, "
                               "%u iterations, %.2f s%s\n"),
                          n, r->chi2, r->redchi, r->aic, r->bic, r->niter, r->wall_s,
                          r->complete ? "" : _(" (cancelled: the best so far)"));
  if (r->n_shared > 0)
    g_string_append_printf (s, "%s\n", _("Shared by every file:"));
  for (gsize i = 0; i < r->n_shared; i++)
    append_param (s, r->shared_names[i], r->shared_values[i], r->shared_errors[i]);
  for (guint i = 0; i < n; i++)
    {
      const XrlabFitflowResult *m = results[i] != NULL ? results[i]->main : NULL;
      g_autofree char *base = g_path_get_basename (p->files[i]);

      if (m == NULL)
        continue;
      g_string_append_printf (s, "%s:", base);
      for (gsize k = 0; k < m->n_params; k++)
        if (m->params[k].share == XRLAB_PARAM_SHARE_FILE)
          append_param (s, m->params[k].name, m->params[k].value, m->params[k].std_error);
      if (s->str[s->len - 1] != '\n')
        g_string_append_c (s, '\n');
    }
  g_strchomp (s->str);
  show_summary (p, s->str);
  if (p->page->record_project)
    {
      /* kept with the session, as the file's own result */
      g_free (p->page->ws.project_summary);
      p->page->ws.project_summary = g_strdup (s->str);
      p->page->record_project = FALSE;
      g_signal_emit_by_name (p->page, "changed");
    }
}

/* The results of every file, fetched for the summary. */
typedef struct {
  XrlabFitPage *page;
  guint serial;
  guint n, left;
  XrlabFitResults **results;
} ResultsFetch;

typedef struct {
  ResultsFetch *fetch;
  guint index;
} ResultsOne;

static void
on_file_results (GObject *source, GAsyncResult *result, gpointer data)
{
  ResultsOne *one = data;
  ResultsFetch *f = one->fetch;
  XrlabFitPage *self = f->page;
  Project *p = project_of (self);

  f->results[one->index] = xrlab_engine_fit_results_finish (XRLAB_ENGINE (source), result, NULL);
  g_free (one);
  self->pending--;
  if (--f->left > 0)
    return;
  if (p != NULL && p->serial == f->serial && p->result != NULL)
    summarize (p, f->results);
  for (guint i = 0; i < f->n; i++)
    g_clear_pointer (&f->results[i], xrlab_fit_results_free);
  g_free (f->results);
  g_object_unref (f->page);
  g_free (f);
}

static void
fetch_results (XrlabFitPage *self, Project *p)
{
  ResultsFetch *f = g_new0 (ResultsFetch, 1);

  f->page = g_object_ref (self);
  f->serial = p->serial;
  f->n = f->left = g_strv_length (p->files);
  f->results = g_new0 (XrlabFitResults *, f->n);
  for (guint i = 0; i < f->n; i++)
    {
      ResultsOne *one = g_new0 (ResultsOne, 1);
      guint setup = i == p->shown ? self->setup : g_array_index (p->setups, guint, i);
      g_autofree char *consumer = g_strdup_printf ("fit-project-%u", i + 1);

      one->fetch = f;
      one->index = i;
      self->pending++;
      /* a consumer per file: a fetch supersedes the older ones of its consumer */
      xrlab_engine_fit_results_async (self->engine, setup, g_intern_string (consumer), self->cancellable,
                                      on_file_results, one);
    }
}

static void
on_project_progress (const XrlabFitJobProgress *pr, gpointer data)
{
  XrlabFitPage *self = data;
  g_autofree char *text = NULL;

  if (pr->stage == XRLAB_FITFLOW_STAGE_BASELINE)
    /* TRANSLATORS: the baseline fits of a project, file by file */
    text = g_strdup_printf (_("Baseline of file %u, iteration %u"), pr->slices_done + 1, pr->iteration);
  else if (isfinite (pr->chi2))
    /* TRANSLATORS: the joint fit of a project: its iteration and χ² */
    text = g_strdup_printf (_("Joint fit: iteration %u, χ² %.6g"), pr->iteration, pr->chi2);
  else
    text = g_strdup_printf (_("Joint fit: iteration %u"), pr->iteration);
  gtk_progress_bar_pulse (self->progress);
  gtk_progress_bar_set_text (self->progress, text);
}

static void
on_project_done (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr(XrlabFitPage) self = data;
  g_autoptr(GError) error = NULL;
  XrlabFitProject *r = xrlab_engine_fit_project_run_finish (XRLAB_ENGINE (source), result, &error);
  Project *p = project_of (self);

  self->fitting = FALSE;
  g_clear_object (&self->job_cancellable);
  if (r == NULL && error != NULL && !xrlab_fit_page_error_is_quiet (error))
    xrlab_fit_page_set_message (self, error->message);
  if (p != NULL && r != NULL)
    {
      g_free (p->result);
      p->result = r;
      self->record_values = self->record_summary = self->record_project = TRUE;
      fetch_results (self, p);
    }
  else
    g_free (r);
  self->map_dirty = self->map_kind != XRLAB_FIT_MAP_DATA;
  self->spectrum_dirty = self->trace_dirty = self->params_dirty = self->results_dirty = TRUE;
  self->bparams_dirty = TRUE;
  xrlab_fit_page_sync_controls (self);
  xrlab_fit_page_schedule (self);
  g_signal_emit_by_name (self, "fit-done");
}

static void
run_joint (XrlabFitPage *self, Project *p)
{
  guint n = g_strv_length (p->files);
  g_autofree guint *setups = g_new (guint, n);
  g_autofree char **names = g_new0 (char *, n + 1);
  g_auto(GStrv) bases = g_new0 (char *, n + 1);
  XrlabFitProjectSpec spec = { 0 };
  guint k = 0;

  /* the shown file's setup first: its model is the joint one */
  for (guint i = 0; i < n; i++)
    bases[i] = g_path_get_basename (p->files[i]);
  setups[k] = self->setup, names[k++] = bases[p->shown];
  for (guint i = 0; i < n; i++)
    if (i != p->shown)
      setups[k] = g_array_index (p->setups, guint, i), names[k++] = bases[i];
  spec.setups = setups;
  spec.n_setups = n;
  spec.names = (const char *const *) names;
  spec.stages = XRLAB_FIT_STAGES_MAIN | (self->ws.baseline_model != NULL ? XRLAB_FIT_STAGES_BASELINE : 0);
  gtk_progress_bar_set_text (self->progress, _("Joint fit…"));
  xrlab_engine_fit_project_run_async (self->engine, &spec, on_project_progress, g_object_ref (self),
                                      g_object_unref, self->job_cancellable, on_project_done,
                                      g_object_ref (self));
}

typedef struct {
  guint serial;
  guint index;
} SiblingTag;

static void
on_sibling (XrlabFitPage *self, guint dataset, guint setup, const GError *error, gpointer data)
{
  SiblingTag *tag = data;
  Project *p = project_of (self);

  if (p == NULL || p->serial != tag->serial || p->setups == NULL)
    {
      if (setup != 0)
        xrlab_engine_fit_setup_close (self->engine, setup);
      if (dataset != 0)
        xrlab_engine_dataset_close (self->engine, dataset);
      g_free (tag);
      return;
    }
  g_array_index (p->datasets, guint, tag->index) = dataset;
  g_array_index (p->setups, guint, tag->index) = setup;
  if (error != NULL && p->open_error == NULL)
    p->open_error = g_strdup (error->message);
  g_free (tag);
  if (--p->waiting > 0)
    return;
  if (p->open_error != NULL)
    project_failed (self, p->open_error);
  else if (self->job_cancellable == NULL || g_cancellable_is_cancelled (self->job_cancellable))
    project_failed (self, NULL);
  else
    run_joint (self, p);
}

void
xrlab_fit_page_run_project (XrlabFitPage *self)
{
  Project *p = project_of (self);
  guint n;

  g_return_if_fail (XRLAB_IS_FIT_PAGE (self));
  if (p == NULL || p->files == NULL || self->setup == 0 || self->fitting)
    return;
  n = g_strv_length (p->files);
  close_siblings (p);
  g_clear_pointer (&p->result, g_free);
  g_clear_pointer (&p->open_error, g_free);
  show_summary (p, NULL);
  /* the result shown (perhaps from the last session) is about to be replaced */
  xrlab_fit_workspace_clear_result (&self->ws);
  p->serial++;
  p->setups = g_array_new (FALSE, TRUE, sizeof (guint));
  p->datasets = g_array_new (FALSE, TRUE, sizeof (guint));
  g_array_set_size (p->setups, n);
  g_array_set_size (p->datasets, n);
  p->waiting = n - 1;
  self->fitting = TRUE;
  self->job_kind = XRLAB_FIT_JOB_2D;
  self->job_cancellable = g_cancellable_new ();
  xrlab_fit_page_set_message (self, NULL);
  gtk_progress_bar_set_fraction (self->progress, 0.0);
  gtk_progress_bar_set_text (self->progress, _("Opening the project’s files…"));
  xrlab_fit_page_sync_controls (self);
  for (guint i = 0; i < n; i++)
    if (i != p->shown)
      {
        SiblingTag *tag = g_new0 (SiblingTag, 1);
        tag->serial = p->serial;
        tag->index = i;
        xrlab_fit_page_open_sibling (self, p->files[i], on_sibling, tag);
      }
}

const char *
xrlab_fit_page_get_project_summary (XrlabFitPage *self)
{
  Project *p = project_of (self);

  g_return_val_if_fail (XRLAB_IS_FIT_PAGE (self), "");
  return p != NULL && p->summary_text != NULL ? p->summary_text : "";
}

gboolean
xrlab_fit_page_get_shared_value (XrlabFitPage *self, const char *name, double *value, double *error)
{
  Project *p = project_of (self);

  g_return_val_if_fail (XRLAB_IS_FIT_PAGE (self), FALSE);
  for (gsize i = 0; p != NULL && p->result != NULL && i < p->result->n_shared; i++)
    if (g_strcmp0 (p->result->shared_names[i], name) == 0)
      {
        if (value != NULL)
          *value = p->result->shared_values[i];
        if (error != NULL)
          *error = p->result->shared_errors[i];
        return TRUE;
      }
  return FALSE;
}

/* ---- construction ------------------------------------------------------------------------ */

GtkWidget *
xrlab_fit_page_project_build (XrlabFitPage *self)
{
  Project *p = g_new0 (Project, 1);
  GtkWidget *head = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *title = gtk_label_new (_("Project"));

  p->page = self;
  g_object_set_data_full (G_OBJECT (self), PROJECT_KEY, p, project_free);
  p->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  p->names = gtk_string_list_new (NULL);
  p->selector = GTK_DROP_DOWN (gtk_drop_down_new (G_LIST_MODEL (p->names), NULL));
  gtk_widget_set_tooltip_text (GTK_WIDGET (p->selector), _("The file shown"));
  gtk_widget_set_hexpand (GTK_WIDGET (p->selector), TRUE);
  g_signal_connect (p->selector, "notify::selected", G_CALLBACK (on_selected), self);
  p->fit_button = gtk_button_new_with_mnemonic (_("Fit _Project"));
  gtk_widget_set_tooltip_text (p->fit_button, _("One joint fit of every file: the parameters marked "
                                                "“project” shared, those marked “file” fitted per file"));
  g_signal_connect_swapped (p->fit_button, "clicked", G_CALLBACK (xrlab_fit_page_run_project), self);
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_widget_add_css_class (title, "heading");
  gtk_box_append (GTK_BOX (head), title);
  gtk_box_append (GTK_BOX (head), GTK_WIDGET (p->selector));
  gtk_box_append (GTK_BOX (head), p->fit_button);
  p->summary = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (p->summary, 0);
  gtk_label_set_selectable (p->summary, TRUE);
  gtk_label_set_wrap (p->summary, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (p->summary), "numeric");
  gtk_widget_set_visible (GTK_WIDGET (p->summary), FALSE);
  gtk_box_append (GTK_BOX (p->box), head);
  gtk_box_append (GTK_BOX (p->box), GTK_WIDGET (p->summary));
  gtk_widget_set_visible (p->box, FALSE);
  g_signal_connect (self, "opened", G_CALLBACK (on_opened), p);
  return p->box;
}
