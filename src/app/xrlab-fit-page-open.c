/* xrlab-fit-page-open.c -- the Fit page opens a workspace: the files of a
 * measurement, its model, the setup on the engine
 *
 * The dataset is opened, then a setup made on it; the pair replaces the
 * shown one when both replied without an error (the old pair is then
 * closed), else it is closed and the message shown, the shown workspace
 * untouched. A measurement without a model file is shown with a model of
 * no area (the data alone).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-fit-page-private.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "xrlab-model.h"
#include "xrlab-util.h"

/* ---- the model of a workspace without one -------------------------------------------- */

static const char data_only_yaml[] =
  "# the data alone: a model that is zero everywhere (a peak of no area)\n"
  "data:\n"
  "  Gauss:\n"
  "    A: [0, False]\n"
  "    x0: [0, False]\n"
  "    SD: [1, False]\n";

static const char *
data_only_models (XrlabFitPage *self, GError **error)
{
  if (self->data_only_models == NULL)
    {
      g_autofree char *dir = g_build_filename (g_get_user_cache_dir (), "xrlab", NULL);
      g_autofree char *path = g_build_filename (dir, "data-only-1.yaml", NULL);

      if (g_mkdir_with_parents (dir, 0700) != 0
          || !g_file_set_contents (path, data_only_yaml, -1, error))
        {
          if (error != NULL && *error == NULL)
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("%s: cannot be written"), path);
          return NULL;
        }
      self->data_only_models = g_steal_pointer (&path);
    }
  return self->data_only_models;
}

/* ---- opening ----------------------------------------------------------------------- */

typedef struct {
  XrlabFitPage *self;
  guint64 serial;
  XrlabFitWorkspace ws;
  char *models, *model;        /* as used (the defaults filled in) */
  char *baseline_models;       /* the baseline model's file, NULL: @models */
  char *notice;                /* shown once it opened (a baseline model left out) */
  XrlabDatasetFiles files;
  guint dataset, setup;
  XrlabDatasetInfo *info;
} OpenOp;

static void
open_op_free (OpenOp *op)
{
  op->self->pending--;
  g_clear_object (&op->self);
  xrlab_fit_workspace_clear (&op->ws);
  g_free (op->models);
  g_free (op->model);
  g_free (op->baseline_models);
  g_free (op->notice);
  xrlab_dataset_files_clear (&op->files);
  g_free (op->info);
  g_free (op);
}

static void
open_failed (OpenOp *op, const GError *error)
{
  XrlabFitPage *self = op->self;

  if (op->setup != 0)
    xrlab_engine_fit_setup_close (self->engine, op->setup);
  if (op->dataset != 0)
    xrlab_engine_dataset_close (self->engine, op->dataset);
  if (op->serial == self->open_serial)
    {
      xrlab_fit_page_set_message (self, error->message);
      g_signal_emit_by_name (self, "open-failed", error->message);
    }
  open_op_free (op);
}

/* The source of @path: a folder in trspecfit's layout, or a data file with
 * energy.csv (and time.csv) beside it. */
static gboolean
find_source (const char *path, XrlabDatasetFiles *files, XrlabDatasetSource *source, GError **error)
{
  g_autofree char *dir = NULL;
  g_autofree char *data_1 = NULL;

  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      /* A folder of several measurements (data_1.csv, ...): the first. */
      data_1 = g_build_filename (path, "data", "data_1.csv", NULL);
      if (!g_file_test (data_1, G_FILE_TEST_IS_REGULAR))
        return xrlab_dataset_files_find (path, files, source, error);
      dir = g_path_get_dirname (data_1);
      files->data = g_steal_pointer (&data_1);
    }
  else
    {
      if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("%s: no such file or folder"), path);
          return FALSE;
        }
      dir = g_path_get_dirname (path);
      files->data = g_strdup (path);
    }
  files->energy = g_build_filename (dir, "energy.csv", NULL);
  if (!g_file_test (files->energy, G_FILE_TEST_IS_REGULAR))
    {
      g_set_error (error, XRLAB_ENGINE_FIT_ERROR, XRLAB_ENGINE_FIT_ERROR_SOURCE,
                   _("%s: the measurement has no energy.csv beside its data"), files->data);
      xrlab_dataset_files_clear (files);
      return FALSE;
    }
  files->time = g_build_filename (dir, "time.csv", NULL);
  if (!g_file_test (files->time, G_FILE_TEST_IS_REGULAR))
    g_clear_pointer (&files->time, g_free);
  memset (source, 0, sizeof *source);
  source->kind = XRLAB_DATASET_FILES;
  source->data = files->data;
  source->energy = files->energy;
  source->time = files->time;
  return TRUE;
}

/* trspecfit's project folder keeps its models beside the data folder. */
static char *
find_models (const char *path)
{
  g_autofree char *dir = g_file_test (path, G_FILE_TEST_IS_DIR) ? g_strdup (path) : g_path_get_dirname (path);

  for (int up = 0; up < 2; up++)
    {
      g_autofree char *m = g_build_filename (dir, "models_energy.yaml", NULL);
      g_autofree char *parent = NULL;

      if (g_file_test (m, G_FILE_TEST_IS_REGULAR))
        return g_steal_pointer (&m);
      parent = g_path_get_dirname (dir);
      g_free (dir);
      dir = g_steal_pointer (&parent);
    }
  return NULL;
}

/* "PAR=FILE:MODEL[,MODEL...][@FREQ]" */
static gboolean
parse_dynamics (const char *text, XrlabFitDynamics *d, GStrv *models_out, char **par, char **file,
                GError **error)
{
  const char *eq = strchr (text, '='), *colon = strrchr (text, ':'), *at;
  g_autofree char *list = NULL;

  memset (d, 0, sizeof *d);
  if (eq == NULL || colon == NULL || colon < eq || eq == text || colon == eq + 1 || colon[1] == '\0')
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("Time dependence “%s”: expected PARAMETER=FILE:MODEL"), text);
      return FALSE;
    }
  *par = g_strndup (text, eq - text);
  *file = g_strndup (eq + 1, colon - eq - 1);
  at = strchr (colon, '@');
  list = at != NULL ? g_strndup (colon + 1, at - colon - 1) : g_strdup (colon + 1);
  *models_out = g_strsplit (list, ",", -1);
  d->param = *par;
  d->file = *file;
  d->models = (const char *const *) *models_out;
  d->n_models = g_strv_length (*models_out);
  d->frequency = at != NULL ? g_ascii_strtod (at + 1, NULL) : 0.0;
  return TRUE;
}

typedef struct {
  GArray *dyn;                 /* XrlabFitDynamics */
  GArray *prof, *bprof;        /* XrlabFitProfile: of the model, of the baseline model */
  GArray *values;              /* XrlabFitValue (names borrowed from the workspace) */
  GPtrArray *keep;             /* the strings they point to */
} Dynamics;

static void
dynamics_clear (Dynamics *d)
{
  g_clear_pointer (&d->dyn, g_array_unref);
  g_clear_pointer (&d->prof, g_array_unref);
  g_clear_pointer (&d->bprof, g_array_unref);
  g_clear_pointer (&d->values, g_array_unref);
  g_clear_pointer (&d->keep, g_ptr_array_unref);
}

/* "PAR=FILE:MODEL" each */
static gboolean
profiles_of (char **texts, GArray *out, GPtrArray *keep, GError **error)
{
  for (guint i = 0; texts != NULL && texts[i] != NULL; i++)
    {
      XrlabFitDynamics one;
      XrlabFitProfile p;
      GStrv models = NULL;
      char *par = NULL, *file = NULL;

      if (!parse_dynamics (texts[i], &one, &models, &par, &file, error))
        return FALSE;
      g_ptr_array_add (keep, par);
      g_ptr_array_add (keep, file);
      g_ptr_array_add (keep, models);
      for (guint k = 0; models[k] != NULL; k++)
        g_ptr_array_add (keep, models[k]);
      p.param = par, p.file = file, p.model = models[0];
      g_array_append_val (out, p);
    }
  return TRUE;
}

static gboolean
dynamics_of (const XrlabFitWorkspace *ws, Dynamics *d, GError **error)
{
  d->dyn = g_array_new (FALSE, TRUE, sizeof (XrlabFitDynamics));
  d->keep = g_ptr_array_new_with_free_func (g_free);
  d->values = g_array_new (FALSE, TRUE, sizeof (XrlabFitValue));
  for (gsize i = 0; i < ws->n_values; i++)
    {
      XrlabFitValue v = { ws->value_names[i], ws->values[i] };
      g_array_append_val (d->values, v);
    }
  for (guint i = 0; ws->dynamics != NULL && ws->dynamics[i] != NULL; i++)
    {
      XrlabFitDynamics one;
      GStrv models = NULL;
      char *par = NULL, *file = NULL;

      if (!parse_dynamics (ws->dynamics[i], &one, &models, &par, &file, error))
        return FALSE;
      g_ptr_array_add (d->keep, par);
      g_ptr_array_add (d->keep, file);
      /* the vector and each of its strings, each freed alone */
      g_ptr_array_add (d->keep, models);
      for (guint k = 0; models[k] != NULL; k++)
        g_ptr_array_add (d->keep, models[k]);
      g_array_append_val (d->dyn, one);
    }
  d->prof = g_array_new (FALSE, TRUE, sizeof (XrlabFitProfile));
  d->bprof = g_array_new (FALSE, TRUE, sizeof (XrlabFitProfile));
  return profiles_of (ws->profiles, d->prof, d->keep, error)
         && profiles_of (ws->baseline_profiles, d->bprof, d->keep, error);
}

static void
spec_of (const XrlabFitWorkspace *ws, const char *models, const char *model, const char *baseline_models,
         guint dataset, const Dynamics *d, XrlabFitSetupSpec *spec)
{
  xrlab_fit_setup_spec_init (spec);
  spec->dataset = dataset;
  spec->models = models;
  spec->model = model;
  spec->dynamics = (const XrlabFitDynamics *) d->dyn->data;
  spec->n_dynamics = d->dyn->len;
  spec->profiles = (const XrlabFitProfile *) d->prof->data;
  spec->n_profiles = d->prof->len;
  spec->baseline_profiles = (const XrlabFitProfile *) d->bprof->data;
  spec->n_baseline_profiles = d->bprof->len;
  spec->baseline_model = ws->baseline_model;
  spec->baseline_models = ws->baseline_model != NULL ? baseline_models : NULL;
  spec->e0 = ws->e0, spec->e1 = ws->e1, spec->t0 = ws->t0, spec->t1 = ws->t1;
  spec->b0 = ws->b0, spec->b1 = ws->b1;
  spec->pin_to_baseline = ws->pin_baseline;
  spec->max_values = 400000000;
  spec->values = (const XrlabFitValue *) d->values->data;
  spec->n_values = d->values->len;
}

static void
fill_model_names (XrlabFitPage *self, const char *models, const char *model)
{
  g_autoptr(XrlabModelFile) file = xrlab_model_file_load (models, NULL);
  gsize n = file != NULL ? xrlab_model_file_n_models (file) : 0;
  guint selected = 0;

  g_free (self->listed_models);
  self->listed_models = g_strdup (models);
  self->building = TRUE;
  gtk_string_list_splice (self->model_names, 0, g_list_model_get_n_items (G_LIST_MODEL (self->model_names)), NULL);
  for (gsize i = 0; i < n; i++)
    {
      gtk_string_list_append (self->model_names, xrlab_model_file_model_name (file, i));
      if (g_strcmp0 (xrlab_model_file_model_name (file, i), model) == 0)
        selected = i;
    }
  gtk_drop_down_set_selected (self->model_choice, selected);
  gtk_widget_set_sensitive (GTK_WIDGET (self->model_choice), n > 1);
  self->building = FALSE;
  xrlab_fit_page_baseline_fill (self, self->ws.models != NULL ? file : NULL);
}

/* The file whose models the choosers list: the one the kept edits started
 * from when @op opens the kept file again, else the one it opens. */
static const char *
listed_models (XrlabFitPage *self, OpenOp *op)
{
  const char *kept = g_object_get_data (G_OBJECT (self), "xrlab-keep-path");

  if (kept != NULL && g_strcmp0 (op->ws.models, kept) == 0 && xrlab_fit_page_source_models (self) != NULL)
    return xrlab_fit_page_source_models (self);
  return op->models;
}

static void
open_commit (OpenOp *op)
{
  XrlabFitPage *self = op->self;

  if (self->setup != 0)
    xrlab_engine_fit_setup_close (self->engine, self->setup);
  if (self->dataset != 0)
    xrlab_engine_dataset_close (self->engine, self->dataset);
  if (self->job_cancellable != NULL)
    g_cancellable_cancel (self->job_cancellable);
  self->dataset = op->dataset;
  self->setup = op->setup;
  g_free (self->info);
  self->info = g_steal_pointer (&op->info);
  xrlab_fit_workspace_clear (&self->ws);
  xrlab_fit_workspace_copy (&self->ws, &op->ws);
  g_free (self->ws.models);
  self->ws.models = op->ws.models != NULL ? g_strdup (op->ws.models) : NULL;
  g_free (self->ws.model);
  self->ws.model = g_strdup (op->model);
  /* the last baseline fit, restored on the first baseline table */
  if (self->ws.baseline_model == NULL)
    xrlab_fit_workspace_clear_baseline (&self->ws);
  self->restore_baseline = self->ws.n_baseline > 0;
  self->traces_edited = self->traces_dirty = FALSE;
  self->record_baseline = FALSE;
  self->has_workspace = TRUE;
  g_free (self->baseline_file);
  self->baseline_file = g_steal_pointer (&op->baseline_models);
  fill_model_names (self, listed_models (self, op), op->model);
  self->delay = self->info->has_time ? 0.5 * (self->info->time_first + self->info->time_last) : NAN;
  if (self->info->has_time && 0.0 >= MIN (self->info->time_first, self->info->time_last)
      && 0.0 <= MAX (self->info->time_first, self->info->time_last))
    self->delay = 0.0;
  self->energy = 0.5 * (self->info->energy_first + self->info->energy_last);
  if (isfinite (op->ws.delay) && self->info->has_time)
    self->delay = op->ws.delay;
  if (isfinite (op->ws.energy))
    self->energy = op->ws.energy;
  if (op->ws.map >= XRLAB_FIT_MAP_DATA && op->ws.map <= XRLAB_FIT_MAP_RESIDUAL)
    {
      self->map_kind = op->ws.map;
      self->building = TRUE;
      gtk_drop_down_set_selected (self->map_choice, self->map_kind);
      self->building = FALSE;
    }
  g_clear_pointer (&self->energies, g_free);
  g_clear_pointer (&self->delays, g_free);
  g_clear_pointer (&self->last_spectrum, xrlab_fit_preview_ref_release);
  g_clear_pointer (&self->results, xrlab_fit_results_free);
  g_clear_pointer (&self->summary_text, g_free);
  self->stale = FALSE;
  xrlab_fit_page_table_clear (self);
  xrlab_fit_page_results_show (self, NULL);
  xrlab_map_view_set_limits (self->map_view, NAN, NAN, NAN, NAN);
  xrlab_fit_page_set_message (self, op->notice);
  xrlab_fit_page_sync_controls (self);
  xrlab_fit_page_model_opened (self);
  self->map_dirty = self->spectrum_dirty = self->trace_dirty = self->params_dirty = TRUE;
  self->bparams_dirty = TRUE;
  xrlab_fit_page_schedule (self);
  /* A baseline model of another file than the kept edits: the kept file
   * is written again with both. */
  if (self->baseline_file != NULL)
    xrlab_fit_page_keep_edits (self);
  g_signal_emit_by_name (self, "opened");
}

static void
on_setup_made (GObject *source, GAsyncResult *result, gpointer data)
{
  OpenOp *op = data;
  g_autoptr(GError) error = NULL;

  if (!xrlab_engine_fit_setup_finish (XRLAB_ENGINE (source), result, &error))
    {
      open_failed (op, error);
      return;
    }
  if (op->serial != op->self->open_serial)
    {
      /* A newer open came. */
      xrlab_engine_fit_setup_close (op->self->engine, op->setup);
      xrlab_engine_dataset_close (op->self->engine, op->dataset);
      open_op_free (op);
      return;
    }
  open_commit (op);
  open_op_free (op);
}

static void
on_dataset_opened (GObject *source, GAsyncResult *result, gpointer data)
{
  OpenOp *op = data;
  g_autoptr(GError) error = NULL;
  Dynamics d = { 0 };
  XrlabFitSetupSpec spec;

  op->info = xrlab_engine_dataset_open_finish (XRLAB_ENGINE (source), result, &error);
  if (op->info == NULL)
    {
      open_failed (op, error);
      return;
    }
  if (!dynamics_of (&op->ws, &d, &error))
    {
      dynamics_clear (&d);
      open_failed (op, error);
      return;
    }
  spec_of (&op->ws, op->models, op->model, op->baseline_models, op->dataset, &d, &spec);
  op->setup = xrlab_engine_fit_setup_new_async (op->self->engine, &spec, op->self->cancellable,
                                                on_setup_made, op);
  dynamics_clear (&d);
}

/* A baseline model that its file lacks (a session of an older file, say):
 * the workspace opens without it, with @op's notice saying so. */
static void
check_baseline (OpenOp *op)
{
  const char *path = op->baseline_models != NULL ? op->baseline_models : op->models;
  g_autoptr(XrlabModelFile) file = NULL;
  g_autofree char *name = NULL, *where = NULL;
  gsize n;

  if (op->ws.baseline_model == NULL || (file = xrlab_model_file_load (path, NULL)) == NULL)
    return;    /* none, or the engine says what is wrong with the file */
  n = xrlab_model_file_n_models (file);
  for (gsize i = 0; i < n; i++)
    if (g_strcmp0 (xrlab_model_file_model_name (file, i), op->ws.baseline_model) == 0)
      return;
  name = xrlab_escape_text (op->ws.baseline_model, -1, 80);
  where = xrlab_escape_text (path, -1, 200);
  op->notice = g_strdup_printf (_("The baseline model “%s” is not in %s: opened without a baseline model"), name,
                                where);
  g_clear_pointer (&op->ws.baseline_model, g_free);
  g_clear_pointer (&op->ws.baseline_profiles, g_strfreev);
  g_clear_pointer (&op->baseline_models, g_free);
}

void
xrlab_fit_page_open (XrlabFitPage *self, const XrlabFitWorkspace *ws)
{
  xrlab_fit_page_open_full (self, ws, NULL);
}

void
xrlab_fit_page_open_full (XrlabFitPage *self, const XrlabFitWorkspace *ws, const char *baseline_models)
{
  OpenOp *op;
  XrlabDatasetSource source;
  g_autoptr(GError) error = NULL;

  g_return_if_fail (XRLAB_IS_FIT_PAGE (self));
  g_return_if_fail (ws != NULL && ws->data != NULL);
  g_return_if_fail (self->engine != NULL);

  op = g_new0 (OpenOp, 1);
  op->self = g_object_ref (self);
  op->serial = ++self->open_serial;
  self->pending++;
  xrlab_fit_workspace_copy (&op->ws, ws);
  op->baseline_models = g_strdup (baseline_models);
  if (!find_source (ws->data, &op->files, &source, &error))
    {
      open_failed (op, error);
      return;
    }
  if (ws->models == NULL)
    op->ws.models = find_models (ws->data);
  op->models = g_strdup (op->ws.models != NULL ? op->ws.models : data_only_models (self, &error));
  if (op->models == NULL)
    {
      open_failed (op, error);
      return;
    }
  if (ws->model != NULL)
    op->model = g_strdup (ws->model);
  else
    {
      g_autoptr(XrlabModelFile) file = xrlab_model_file_load (op->models, &error);
      if (file == NULL || xrlab_model_file_n_models (file) == 0)
        {
          if (error == NULL)
            g_set_error (&error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("%s holds no model"), op->models);
          open_failed (op, error);
          return;
        }
      op->model = g_strdup (xrlab_model_file_model_name (file, 0));
    }
  check_baseline (op);
  source.max_values = 400000000;
  op->dataset = xrlab_engine_dataset_open_async (self->engine, &source, self->cancellable,
                                                 on_dataset_opened, op);
}

/* The model of the shown workspace changed (the model menu). */
void
xrlab_fit_page_update_model (XrlabFitPage *self)
{
  XrlabFitWorkspace ws;
  guint k = gtk_drop_down_get_selected (self->model_choice);
  const char *name;

  if (!self->has_workspace || k == GTK_INVALID_LIST_POSITION)
    return;
  name = gtk_string_list_get_string (self->model_names, k);
  if (g_strcmp0 (name, self->ws.model) == 0)
    return;
  xrlab_fit_workspace_copy (&ws, &self->ws);
  g_free (ws.model);
  ws.model = g_strdup (name);
  /* Another model of the file the edits started from (the kept file has
   * the edited one only). */
  if (xrlab_fit_page_source_models (self) != NULL)
    {
      g_free (ws.models);
      ws.models = g_strdup (xrlab_fit_page_source_models (self));
      /* and its baseline model, as the chooser lists it */
      g_free (ws.baseline_model);
      ws.baseline_model = g_strdup (xrlab_fit_page_baseline_listed (self));
    }
  /* The values typed and the result were the other model's. */
  g_clear_pointer (&ws.value_names, g_strfreev);
  g_clear_pointer (&ws.values, g_free);
  ws.n_values = 0;
  xrlab_fit_workspace_clear_result (&ws);
  /* The same data, another model: a new setup is the simplest whole edit. */
  xrlab_fit_page_open (self, &ws);
  xrlab_fit_workspace_clear (&ws);
}

/* ---- ranges ------------------------------------------------------------------------ */

static void
on_ranges_set (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr(XrlabFitPage) self = data;
  g_autoptr(GError) error = NULL;

  self->pending--;
  if (!xrlab_engine_fit_setup_finish (XRLAB_ENGINE (source), result, &error)
      && !xrlab_fit_page_error_is_quiet (error))
    xrlab_fit_page_set_message (self, error->message);
  else if (error == NULL)
    xrlab_fit_page_set_message (self, NULL);
}

static gboolean
same_range (double a, double b)
{
  return a == b || (isnan (a) && isnan (b));
}

void
xrlab_fit_page_set_ranges (XrlabFitPage *self, double e0, double e1, double t0, double t1, double b0,
                           double b1)
{
  XrlabFitSetupSpec spec;
  Dynamics d = { 0 };

  g_return_if_fail (XRLAB_IS_FIT_PAGE (self));
  if (!self->has_workspace)
    return;
  /* a fit on other ranges is not these ranges' */
  if (!same_range (self->ws.e0, e0) || !same_range (self->ws.e1, e1) || !same_range (self->ws.t0, t0)
      || !same_range (self->ws.t1, t1) || !same_range (self->ws.b0, b0) || !same_range (self->ws.b1, b1))
    xrlab_fit_workspace_clear_result (&self->ws);
  self->ws.e0 = e0, self->ws.e1 = e1, self->ws.t0 = t0, self->ws.t1 = t1;
  self->ws.b0 = b0, self->ws.b1 = b1;
  if (!dynamics_of (&self->ws, &d, NULL))
    {
      dynamics_clear (&d);
      return;
    }
  spec_of (&self->ws, self->ws.models != NULL ? self->ws.models : self->data_only_models, self->ws.model,
           self->baseline_file, self->dataset, &d, &spec);
  xrlab_engine_fit_setup_update_async (self->engine, self->setup, &spec,
                                       XRLAB_FIT_SETUP_WINDOW | XRLAB_FIT_SETUP_BASELINE_DELAYS,
                                       self->cancellable, on_ranges_set, g_object_ref (self));
  self->pending++;
  dynamics_clear (&d);
  xrlab_fit_page_update_overlays (self);
  self->params_dirty = self->results_dirty = self->bparams_dirty = TRUE;
  xrlab_fit_page_schedule (self);
  g_signal_emit_by_name (self, "changed");
}

gboolean
xrlab_fit_parse_range (const char *text, double *a, double *b)
{
  const char *colon = text != NULL ? strchr (text, ':') : NULL;
  g_autofree char *left = NULL;
  char *end;

  *a = *b = NAN;
  if (colon == NULL)
    return text != NULL && *text == '\0';
  left = g_strstrip (g_strndup (text, colon - text));
  if (*left != '\0')
    {
      *a = g_ascii_strtod (left, &end);
      if (*end != '\0' || !isfinite (*a))
        return FALSE;
    }
  while (g_ascii_isspace (*++colon))
    ;
  if (*colon != '\0')
    {
      *b = g_ascii_strtod (colon, &end);
      while (g_ascii_isspace (*end))
        end++;
      if (*end != '\0' || !isfinite (*b))
        return FALSE;
    }
  return TRUE;
}

/* ---- the ranges popover ---------------------------------------------------------- */

static char *
range_text (double a, double b)
{
  char sa[G_ASCII_DTOSTR_BUF_SIZE] = "", sb[G_ASCII_DTOSTR_BUF_SIZE] = "";

  if (isnan (a) && isnan (b))
    return g_strdup ("");
  if (!isnan (a))
    g_ascii_formatd (sa, sizeof sa, "%.6g", a);
  if (!isnan (b))
    g_ascii_formatd (sb, sizeof sb, "%.6g", b);
  return g_strdup_printf ("%s:%s", sa, sb);
}

static void
on_ranges_shown (XrlabFitPage *self)
{
  const double v[3][2] = { { self->ws.e0, self->ws.e1 }, { self->ws.t0, self->ws.t1 },
                           { self->ws.b0, self->ws.b1 } };

  for (int i = 0; i < 3; i++)
    {
      g_autofree char *t = range_text (v[i][0], v[i][1]);
      gtk_editable_set_text (GTK_EDITABLE (self->range_entries[i]), t);
      gtk_widget_remove_css_class (self->range_entries[i], "error");
    }
}

static void
on_range_activate (XrlabFitPage *self)
{
  double v[3][2];
  gboolean ok = TRUE;

  for (int i = 0; i < 3; i++)
    {
      gboolean this_ok = xrlab_fit_parse_range (gtk_editable_get_text (GTK_EDITABLE (self->range_entries[i])),
                                                &v[i][0], &v[i][1]);
      if (this_ok)
        gtk_widget_remove_css_class (self->range_entries[i], "error");
      else
        gtk_widget_add_css_class (self->range_entries[i], "error");
      ok = ok && this_ok;
    }
  if (ok)
    xrlab_fit_page_set_ranges (self, v[0][0], v[0][1], v[1][0], v[1][1], v[2][0], v[2][1]);
}

GtkWidget *
xrlab_fit_page_build_ranges (XrlabFitPage *self)
{
  GtkWidget *button = gtk_menu_button_new ();
  GtkWidget *popover = gtk_popover_new ();
  GtkWidget *grid = gtk_grid_new ();
  const char *labels[] = { _("_Energies"), _("_Delays"), _("_Baseline delays") };
  const char *tips[] = { _("The energies fitted, FROM:TO (empty: all)"),
                         _("The delays fitted, FROM:TO (empty: all)"),
                         _("The delays averaged into the baseline spectrum, FROM:TO") };

  gtk_menu_button_set_label (GTK_MENU_BUTTON (button), _("Ranges"));
  gtk_widget_set_tooltip_text (button, _("The fit window and the baseline delays"));
  gtk_grid_set_row_spacing (GTK_GRID (grid), 6);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  for (int i = 0; i < 3; i++)
    {
      GtkWidget *l = gtk_label_new_with_mnemonic (labels[i]);
      self->range_entries[i] = gtk_entry_new ();
      gtk_widget_set_tooltip_text (self->range_entries[i], tips[i]);
      gtk_label_set_mnemonic_widget (GTK_LABEL (l), self->range_entries[i]);
      gtk_label_set_xalign (GTK_LABEL (l), 0);
      g_signal_connect_swapped (self->range_entries[i], "activate", G_CALLBACK (on_range_activate), self);
      gtk_grid_attach (GTK_GRID (grid), l, 0, i, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), self->range_entries[i], 1, i, 1, 1);
    }
  gtk_popover_set_child (GTK_POPOVER (popover), grid);
  g_signal_connect_swapped (popover, "show", G_CALLBACK (on_ranges_shown), self);
  gtk_menu_button_set_popover (GTK_MENU_BUTTON (button), popover);
  return button;
}

/* ---- the other files of a project ------------------------------------------------- */

typedef struct {
  XrlabFitPage *self;
  XrlabDatasetFiles files;
  guint dataset, setup;
  XrlabFitSiblingFunc done;
  gpointer data;
} SiblingOp;

static void
sibling_done (SiblingOp *op, const GError *error)
{
  op->self->pending--;
  if (error != NULL)
    {
      if (op->setup != 0)
        xrlab_engine_fit_setup_close (op->self->engine, op->setup);
      if (op->dataset != 0)
        xrlab_engine_dataset_close (op->self->engine, op->dataset);
      op->dataset = op->setup = 0;
    }
  op->done (op->self, op->dataset, op->setup, error, op->data);
  g_object_unref (op->self);
  xrlab_dataset_files_clear (&op->files);
  g_free (op);
}

static void
on_sibling_setup (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr(GError) error = NULL;

  xrlab_engine_fit_setup_finish (XRLAB_ENGINE (source), result, &error);
  sibling_done (data, error);
}

static void
on_sibling_dataset (GObject *source, GAsyncResult *result, gpointer data)
{
  SiblingOp *op = data;
  XrlabFitPage *self = op->self;
  g_autoptr(GError) error = NULL;
  g_autofree XrlabDatasetInfo *info = xrlab_engine_dataset_open_finish (XRLAB_ENGINE (source), result, &error);
  Dynamics d = { 0 };
  XrlabFitSetupSpec spec;

  if (info == NULL || !self->has_workspace || !dynamics_of (&self->ws, &d, &error))
    {
      if (error == NULL)
        g_set_error (&error, XRLAB_ENGINE_FIT_ERROR, XRLAB_ENGINE_FIT_ERROR_NO_SETUP, _("No measurement is open"));
      dynamics_clear (&d);
      sibling_done (op, error);
      return;
    }
  spec_of (&self->ws, self->ws.models != NULL ? self->ws.models : self->data_only_models, self->ws.model,
           self->baseline_file, op->dataset, &d, &spec);
  op->setup = xrlab_engine_fit_setup_new_async (self->engine, &spec, self->cancellable, on_sibling_setup, op);
  dynamics_clear (&d);
}

void
xrlab_fit_page_open_sibling (XrlabFitPage *self, const char *data, XrlabFitSiblingFunc done,
                             gpointer user_data)
{
  SiblingOp *op = g_new0 (SiblingOp, 1);
  XrlabDatasetSource source;
  g_autoptr(GError) error = NULL;

  op->self = g_object_ref (self);
  op->done = done;
  op->data = user_data;
  self->pending++;
  if (!find_source (data, &op->files, &source, &error))
    {
      sibling_done (op, error);
      return;
    }
  source.max_values = 400000000;
  op->dataset = xrlab_engine_dataset_open_async (self->engine, &source, self->cancellable, on_sibling_dataset,
                                                 op);
}
