/* xrlab-fit-page.c -- the Fit page: construction, the toolbar, the map's
 * input and the public API
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-fit-page-private.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

G_DEFINE_FINAL_TYPE (XrlabFitPage, xrlab_fit_page, GTK_TYPE_BOX)

enum { OPENED, OPEN_FAILED, FIT_DONE, CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

/* ---- messages and controls -------------------------------------------------------- */

void
xrlab_fit_page_set_message (XrlabFitPage *self, const char *text)
{
  g_free (self->message_text);
  self->message_text = g_strdup (text);
  gtk_label_set_text (self->message, text != NULL ? text : "");
  gtk_revealer_set_reveal_child (self->message_revealer, text != NULL);
}

void
xrlab_fit_page_sync_controls (XrlabFitPage *self)
{
  gboolean open = self->has_workspace;
  gboolean has_time = open && self->info->has_time;
  gboolean has_base = open && self->ws.baseline_model != NULL;

  gtk_stack_set_visible_child_name (self->content, open ? "workspace" : "empty");
  if (open)
    {
      g_autofree char *base = g_path_get_basename (self->ws.data);
      g_autofree char *dims = NULL;

      if (has_time)
        /* TRANSLATORS: the size of a measurement: delays × energies */
        dims = g_strdup_printf (_("%zu delays × %zu energies"), self->info->n_rows, self->info->n_energies);
      else
        dims = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "one spectrum of %zu energy",
                                             "one spectrum of %zu energies", self->info->n_energies),
                                self->info->n_energies);
      g_autofree char *t = g_strdup_printf ("%s — %s", base, dims);
      gtk_label_set_text (self->title, t);
    }
  gtk_widget_set_sensitive (self->fit_buttons, open && !self->fitting);
  gtk_widget_set_sensitive (GTK_WIDGET (self->baseline_choice), open && !self->fitting && self->ws.models != NULL);
  gtk_widget_set_visible (self->baseline_button, has_base);
  gtk_widget_set_visible (self->sbs_button, has_time);
  gtk_widget_set_visible (self->fit2d_button, has_time);
  gtk_widget_set_visible (self->spectrum_button, open && !has_time);
  gtk_widget_set_visible (self->cancel_button, self->fitting);
  gtk_revealer_set_reveal_child (self->progress_revealer, self->fitting);
  gtk_widget_set_sensitive (GTK_WIDGET (self->map_choice), has_time);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "fit.export-results", open && !self->fitting);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "fit.export-map", open && has_time);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "fit.save-model", open && !self->fitting);
}

/* ---- the cursor ----------------------------------------------------------------- */

void
xrlab_fit_page_set_cursor (XrlabFitPage *self, double delay, double energy)
{
  g_return_if_fail (XRLAB_IS_FIT_PAGE (self));
  if (delay != self->delay && !(isnan (delay) && isnan (self->delay)))
    {
      self->delay = delay;
      self->spectrum_dirty = TRUE;
    }
  if (energy != self->energy)
    {
      self->energy = energy;
      self->trace_dirty = TRUE;
    }
  xrlab_fit_page_update_overlays (self);
  xrlab_fit_page_schedule (self);
}

void
xrlab_fit_page_get_cursor (XrlabFitPage *self, double *delay, double *energy)
{
  g_return_if_fail (XRLAB_IS_FIT_PAGE (self));
  if (delay != NULL)
    *delay = self->delay;
  if (energy != NULL)
    *energy = self->energy;
}

/* ---- files ------------------------------------------------------------------------ */

void
xrlab_fit_page_open_path (XrlabFitPage *self, const char *path)
{
  XrlabFitWorkspace ws;

  g_return_if_fail (XRLAB_IS_FIT_PAGE (self));
  xrlab_fit_workspace_init (&ws);
  ws.data = g_strdup (path);
  xrlab_fit_page_open (self, &ws);
  xrlab_fit_workspace_clear (&ws);
}

static gboolean
on_drop (GtkDropTarget *target, const GValue *value, double x, double y, XrlabFitPage *self)
{
  GFile *file = NULL;
  g_autofree char *path = NULL;

  if (G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    {
      GSList *list = g_value_get_boxed (value);
      file = list != NULL ? list->data : NULL;
    }
  else if (G_VALUE_HOLDS (value, G_TYPE_FILE))
    file = g_value_get_object (value);
  if (file == NULL || (path = g_file_get_path (file)) == NULL)
    return FALSE;
  xrlab_fit_page_open_path (self, path);
  return TRUE;
}

typedef enum { CHOOSE_FOLDER, CHOOSE_FILE, CHOOSE_MODELS, CHOOSE_RESULTS, CHOOSE_MAP, CHOOSE_SAVE_MODEL } ChooseKind;

static void
on_model_saved (GObject *source, GAsyncResult *result, gpointer data)
{
  XrlabFitPage *self = XRLAB_FIT_PAGE (source);
  g_autoptr(GError) error = NULL;

  if (!xrlab_fit_page_save_model_finish (self, result, &error))
    xrlab_fit_page_set_message (self, error->message);
}

static void
on_results_written (GObject *source, GAsyncResult *result, gpointer data)
{
  XrlabFitPage *self = XRLAB_FIT_PAGE (source);
  g_autoptr(GError) error = NULL;

  if (!xrlab_fit_page_write_results_finish (self, result, &error))
    xrlab_fit_page_set_message (self, error->message);
}

static void
on_chosen (GtkNativeDialog *native, int response, XrlabFitPage *self)
{
  ChooseKind kind = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (native), "kind"));
  g_autoptr(GFile) file = NULL;
  g_autofree char *path = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (native));
  if (file != NULL)
    path = g_file_get_path (file);
  if (path != NULL)
    switch (kind)
      {
      case CHOOSE_FOLDER:
      case CHOOSE_FILE:
        xrlab_fit_page_open_path (self, path);
        break;
      case CHOOSE_MODELS:
        if (self->has_workspace)
          {
            XrlabFitWorkspace ws;
            xrlab_fit_workspace_copy (&ws, &self->ws);
            g_free (ws.models);
            ws.models = g_strdup (path);
            g_clear_pointer (&ws.model, g_free);
            g_clear_pointer (&ws.baseline_model, g_free);
            g_clear_pointer (&ws.dynamics, g_strfreev);
            g_clear_pointer (&ws.profiles, g_strfreev);
            g_clear_pointer (&ws.baseline_profiles, g_strfreev);
            g_clear_pointer (&ws.value_names, g_strfreev);
            g_clear_pointer (&ws.values, g_free);
            ws.n_values = 0;
            xrlab_fit_workspace_clear_result (&ws);
            xrlab_fit_page_open (self, &ws);
            xrlab_fit_workspace_clear (&ws);
          }
        break;
      case CHOOSE_RESULTS:
        xrlab_fit_page_write_results (self, path, on_results_written, NULL);
        break;
      case CHOOSE_SAVE_MODEL:
        xrlab_fit_page_save_model (self, path, on_model_saved, NULL);
        break;
      case CHOOSE_MAP:
        {
          g_autoptr(GError) error = NULL;
          XrlabPlotFormat format = g_str_has_suffix (path, ".svg") ? XRLAB_PLOT_FORMAT_SVG
                                   : g_str_has_suffix (path, ".pdf") ? XRLAB_PLOT_FORMAT_PDF
                                   : XRLAB_PLOT_FORMAT_PNG;
          int w = MAX (gtk_widget_get_width (GTK_WIDGET (self->map_view)), 400);
          int h = MAX (gtk_widget_get_height (GTK_WIDGET (self->map_view)), 300);

          if (!xrlab_map_view_export (self->map_view, path, format, w, h, 2.0,
                                      xrlab_map_view_get_dark (self->map_view), &error))
            xrlab_fit_page_set_message (self, error->message);
        }
        break;
      }
  g_object_unref (native);
}

static void
choose (XrlabFitPage *self, ChooseKind kind)
{
  static const GtkFileChooserAction actions[] = {
    GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, GTK_FILE_CHOOSER_ACTION_OPEN, GTK_FILE_CHOOSER_ACTION_OPEN,
    GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, GTK_FILE_CHOOSER_ACTION_SAVE, GTK_FILE_CHOOSER_ACTION_SAVE,
  };
  const char *titles[] = {
    _("Open Measurement Folder"), _("Open Data File"), _("Open Model File"),
    _("Export Fit Results to a Folder"), _("Export Map"), _("Save Model"),
  };
  GtkWindow *parent = GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (self)));
  GtkFileChooserNative *native = gtk_file_chooser_native_new (titles[kind], parent, actions[kind], NULL, NULL);

  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (native), TRUE);
  if (kind == CHOOSE_MAP)
    gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (native), "xrlab-fit-map.png");
  if (kind == CHOOSE_SAVE_MODEL)
    gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (native), "models.yaml");
  g_object_set_data (G_OBJECT (native), "kind", GINT_TO_POINTER (kind));
  g_signal_connect (native, "response", G_CALLBACK (on_chosen), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
}

static void
action_choose (GtkWidget *widget, const char *name, GVariant *param)
{
  static const char *const names[] = {
    "fit.open-folder", "fit.open-file", "fit.open-models", "fit.export-results", "fit.export-map",
    "fit.save-model",
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (g_str_equal (name, names[i]))
      choose (XRLAB_FIT_PAGE (widget), (ChooseKind) i);
}

/* ---- construction -------------------------------------------------------------------- */

static void
on_fit_clicked (GtkButton *button, XrlabFitPage *self)
{
  xrlab_fit_page_run (self, GPOINTER_TO_INT (g_object_get_data (G_OBJECT (button), "job")));
}

static GtkWidget *
fit_button (XrlabFitPage *self, const char *label, const char *tooltip, XrlabFitJobKind job)
{
  GtkWidget *b = gtk_button_new_with_mnemonic (label);

  gtk_widget_set_tooltip_text (b, tooltip);
  g_object_set_data (G_OBJECT (b), "job", GINT_TO_POINTER (job));
  g_signal_connect (b, "clicked", G_CALLBACK (on_fit_clicked), self);
  gtk_box_append (GTK_BOX (self->fit_buttons), b);
  return b;
}

static void
on_map_choice (XrlabFitPage *self)
{
  if (!self->building)
    xrlab_fit_page_set_map_kind (self, gtk_drop_down_get_selected (self->map_choice));
}

static void
on_model_choice (XrlabFitPage *self)
{
  if (!self->building)
    xrlab_fit_page_update_model (self);
}

static void
on_log_toggled (XrlabFitPage *self)
{
  self->map_dirty = TRUE;
  xrlab_fit_page_schedule (self);
}

static GtkWidget *
build_toolbar (XrlabFitPage *self)
{
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *open = adw_split_button_new ();
  g_autoptr(GMenu) menu = g_menu_new ();
  const char *const maps[] = { _("Data"), _("Model"), _("Residual"), NULL };

  gtk_widget_add_css_class (bar, "plot-toolbar");
  g_menu_append (menu, _("Open Data _File…"), "fit.open-file");
  g_menu_append (menu, _("Open _Model File…"), "fit.open-models");
  g_menu_append (menu, _("_Export Fit Results…"), "fit.export-results");
  g_menu_append (menu, _("Export _Map…"), "fit.export-map");
  adw_split_button_set_label (ADW_SPLIT_BUTTON (open), _("_Open"));
  adw_split_button_set_use_underline (ADW_SPLIT_BUTTON (open), TRUE);
  gtk_widget_set_tooltip_text (open, _("Open a measurement folder"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (open), "fit.open-folder");
  adw_split_button_set_menu_model (ADW_SPLIT_BUTTON (open), G_MENU_MODEL (menu));
  gtk_box_append (GTK_BOX (bar), open);

  self->model_names = gtk_string_list_new (NULL);
  self->model_choice = GTK_DROP_DOWN (gtk_drop_down_new (G_LIST_MODEL (g_object_ref (self->model_names)), NULL));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->model_choice), _("The model of the model file"));
  g_signal_connect_swapped (self->model_choice, "notify::selected", G_CALLBACK (on_model_choice), self);
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->model_choice));
  gtk_box_append (GTK_BOX (bar), xrlab_fit_page_baseline_build (self));

  self->map_choice = GTK_DROP_DOWN (gtk_drop_down_new_from_strings (maps));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->map_choice), _("What the map shows"));
  g_signal_connect_swapped (self->map_choice, "notify::selected", G_CALLBACK (on_map_choice), self);
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->map_choice));
  self->log_button = GTK_TOGGLE_BUTTON (gtk_toggle_button_new_with_mnemonic (_("_Log")));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->log_button), _("Colours over the logarithm of the intensity"));
  g_signal_connect_swapped (self->log_button, "toggled", G_CALLBACK (on_log_toggled), self);
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->log_button));
  gtk_box_append (GTK_BOX (bar), xrlab_fit_page_build_ranges (self));

  self->title = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_ellipsize (self->title, PANGO_ELLIPSIZE_MIDDLE);
  gtk_widget_set_hexpand (GTK_WIDGET (self->title), TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->title), "dim-label");
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->title));

  self->fit_buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  self->baseline_button = fit_button (self, _("_Baseline"), _("Fit the baseline model to the baseline spectrum"),
                                      XRLAB_FIT_JOB_BASELINE);
  self->sbs_button = fit_button (self, _("_Slice by Slice"), _("Fit every delay on its own"), XRLAB_FIT_JOB_SBS);
  self->fit2d_button = fit_button (self, _("Fit _2D"), _("Fit the whole map with the time dependence"),
                                   XRLAB_FIT_JOB_2D);
  self->spectrum_button = fit_button (self, _("_Fit Spectrum"), _("Fit the spectrum"), XRLAB_FIT_JOB_SPECTRUM);
  self->ci_button = fit_button (self, _("_Intervals"), _("Confidence intervals of the fitted parameters"),
                                XRLAB_FIT_JOB_CI);
  gtk_widget_add_css_class (self->fit2d_button, "suggested-action");
  gtk_widget_add_css_class (self->spectrum_button, "suggested-action");
  gtk_box_append (GTK_BOX (bar), self->fit_buttons);
  self->cancel_button = gtk_button_new_with_mnemonic (_("_Cancel"));
  gtk_widget_add_css_class (self->cancel_button, "destructive-action");
  g_signal_connect_swapped (self->cancel_button, "clicked", G_CALLBACK (xrlab_fit_page_cancel), self);
  gtk_box_append (GTK_BOX (bar), self->cancel_button);
  return bar;
}

static XrlabPlot *
new_plot (const char *x_name, const char *x_unit, const char *y_name, int height)
{
  XrlabPlot *plot = XRLAB_PLOT (xrlab_plot_new ());

  xrlab_plot_set_axes (plot, x_name, x_unit, y_name, NULL);
  /* two side by side beside the table in a window 1100 wide: narrower
   * than a plot's usual 320 (a paned clips a child below its minimum, on
   * the side away from the handle: the axes went first) */
  gtk_drawing_area_set_content_width (GTK_DRAWING_AREA (plot), 200);
  gtk_widget_set_hexpand (GTK_WIDGET (plot), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (plot), height == 0);
  if (height > 0)
    gtk_widget_set_size_request (GTK_WIDGET (plot), -1, height);
  return plot;
}

static GtkWidget *
build_plots (XrlabFitPage *self)
{
  GtkWidget *vpaned = gtk_paned_new (GTK_ORIENTATION_VERTICAL);
  GtkWidget *curves = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  GtkWidget *spectrum_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

  self->map_view = XRLAB_MAP_VIEW (xrlab_map_view_new ());
  xrlab_map_view_set_axes (self->map_view, _("Energy"), "eV", FALSE, _("Delay"), NULL, FALSE);
  xrlab_map_view_set_message (self->map_view, _("Loading…"));
  gtk_widget_set_size_request (GTK_WIDGET (self->map_view), 300, 220);
  xrlab_fit_page_map_input_init (self);
  gtk_paned_set_start_child (GTK_PANED (vpaned), GTK_WIDGET (self->map_view));
  gtk_paned_set_resize_start_child (GTK_PANED (vpaned), TRUE);

  self->spectrum = new_plot (_("Energy"), "eV", _("Intensity"), 0);
  self->residual = new_plot (_("Energy"), "eV", _("Residual"), 110);
  xrlab_plot_set_show_legend (self->residual, FALSE);
  xrlab_fit_page_drag_init (self);
  gtk_box_append (GTK_BOX (spectrum_box), GTK_WIDGET (self->spectrum));
  gtk_box_append (GTK_BOX (spectrum_box), GTK_WIDGET (self->residual));
  gtk_box_append (GTK_BOX (curves), spectrum_box);
  self->trace = new_plot (_("Delay"), NULL, _("Intensity"), 0);
  gtk_box_append (GTK_BOX (curves), GTK_WIDGET (self->trace));
  gtk_box_set_homogeneous (GTK_BOX (curves), TRUE);
  gtk_widget_set_size_request (curves, -1, 260);
  gtk_paned_set_end_child (GTK_PANED (vpaned), curves);
  return vpaned;
}

static GtkWidget *
build_empty (void)
{
  GtkWidget *status = adw_status_page_new ();
  GtkWidget *button = gtk_button_new_with_mnemonic (_("_Open Measurement…"));

  adw_status_page_set_icon_name (ADW_STATUS_PAGE (status), "document-open-symbolic");
  adw_status_page_set_title (ADW_STATUS_PAGE (status), _("No Measurement"));
  adw_status_page_set_description (ADW_STATUS_PAGE (status),
                                   _("Open a time-resolved measurement: a folder with data.csv, energy.csv "
                                     "and time.csv, or drop it here."));
  gtk_widget_set_halign (button, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (button, "pill");
  gtk_widget_add_css_class (button, "suggested-action");
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "fit.open-folder");
  adw_status_page_set_child (ADW_STATUS_PAGE (status), button);
  return status;
}

static void
build (XrlabFitPage *self)
{
  GtkWidget *hpaned = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  GtkWidget *box;
  GtkDropTarget *drop = gtk_drop_target_new (G_TYPE_INVALID, GDK_ACTION_COPY);
  GType types[] = { GDK_TYPE_FILE_LIST, G_TYPE_FILE };

  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  gtk_box_append (GTK_BOX (self), build_toolbar (self));

  self->progress = GTK_PROGRESS_BAR (gtk_progress_bar_new ());
  gtk_progress_bar_set_show_text (self->progress, TRUE);
  gtk_progress_bar_set_pulse_step (self->progress, 0.05);
  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_widget_set_margin_bottom (box, 6);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->progress));
  self->progress_revealer = GTK_REVEALER (gtk_revealer_new ());
  gtk_revealer_set_child (self->progress_revealer, box);
  gtk_box_append (GTK_BOX (self), GTK_WIDGET (self->progress_revealer));

  self->message = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->message, TRUE);
  gtk_label_set_xalign (self->message, 0);
  gtk_label_set_selectable (self->message, TRUE);
  box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  gtk_widget_add_css_class (box, "stale-notice");
  gtk_box_append (GTK_BOX (box), gtk_image_new_from_icon_name ("dialog-warning-symbolic"));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->message));
  self->message_revealer = GTK_REVEALER (gtk_revealer_new ());
  gtk_revealer_set_child (self->message_revealer, box);
  gtk_box_append (GTK_BOX (self), GTK_WIDGET (self->message_revealer));

  self->content = GTK_STACK (gtk_stack_new ());
  gtk_widget_set_vexpand (GTK_WIDGET (self->content), TRUE);
  gtk_stack_add_named (self->content, build_empty (), "empty");
  gtk_paned_set_start_child (GTK_PANED (hpaned), build_plots (self));
  gtk_paned_set_resize_start_child (GTK_PANED (hpaned), TRUE);
  /* a wider window widens the plots; the table keeps its width */
  gtk_paned_set_resize_end_child (GTK_PANED (hpaned), FALSE);
  gtk_paned_set_shrink_end_child (GTK_PANED (hpaned), FALSE);
  xrlab_fit_page_table_init (self);
  gtk_stack_add_named (self->content, hpaned, "workspace");
  gtk_box_append (GTK_BOX (self), GTK_WIDGET (self->content));
  g_object_set_data (G_OBJECT (self), "paned", hpaned);

  gtk_drop_target_set_gtypes (drop, types, G_N_ELEMENTS (types));
  g_signal_connect (drop, "drop", G_CALLBACK (on_drop), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));
}

static void
xrlab_fit_page_dispose (GObject *object)
{
  XrlabFitPage *self = XRLAB_FIT_PAGE (object);

  xrlab_fit_page_data_dispose (self);
  g_clear_pointer (&self->map_input, g_free);
  xrlab_fit_page_drag_dispose (self);
  g_clear_object (&self->engine);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->job_cancellable);
  g_clear_object (&self->model_names);
  g_clear_object (&self->baseline_names);
  g_clear_object (&self->component_names);
  g_clear_object (&self->bcomponent_names);
  G_OBJECT_CLASS (xrlab_fit_page_parent_class)->dispose (object);
}

static void
xrlab_fit_page_finalize (GObject *object)
{
  XrlabFitPage *self = XRLAB_FIT_PAGE (object);

  xrlab_fit_workspace_clear (&self->ws);
  g_free (self->info);
  g_clear_pointer (&self->replies, g_main_context_unref);
  g_free (self->data_only_models);
  g_free (self->listed_models);
  g_free (self->baseline_file);
  g_free (self->bparams);
  g_free (self->message_text);
  g_free (self->energies);
  g_free (self->delays);
  g_free (self->params);
  g_clear_pointer (&self->results, xrlab_fit_results_free);
  g_free (self->summary_text);
  g_clear_pointer (&self->rows, g_ptr_array_unref);
  G_OBJECT_CLASS (xrlab_fit_page_parent_class)->finalize (object);
}

static void
xrlab_fit_page_class_init (XrlabFitPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = xrlab_fit_page_dispose;
  object_class->finalize = xrlab_fit_page_finalize;
  signals[OPENED] = g_signal_new ("opened", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                  NULL, G_TYPE_NONE, 0);
  signals[OPEN_FAILED] = g_signal_new ("open-failed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                       NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
  signals[FIT_DONE] = g_signal_new ("fit-done", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                    NULL, G_TYPE_NONE, 0);
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                   NULL, G_TYPE_NONE, 0);
  gtk_widget_class_install_action (widget_class, "fit.open-folder", NULL, action_choose);
  gtk_widget_class_install_action (widget_class, "fit.open-file", NULL, action_choose);
  gtk_widget_class_install_action (widget_class, "fit.open-models", NULL, action_choose);
  gtk_widget_class_install_action (widget_class, "fit.export-results", NULL, action_choose);
  gtk_widget_class_install_action (widget_class, "fit.export-map", NULL, action_choose);
  gtk_widget_class_install_action (widget_class, "fit.save-model", NULL, action_choose);
}

static void
xrlab_fit_page_init (XrlabFitPage *self)
{
  self->cancellable = g_cancellable_new ();
  self->delay = self->energy = NAN;
  xrlab_fit_workspace_init (&self->ws);
  build (self);
  xrlab_fit_page_sync_controls (self);
}

/* ---- API ---------------------------------------------------------------------------- */

GtkWidget *
xrlab_fit_page_new (void)
{
  return g_object_new (XRLAB_TYPE_FIT_PAGE, NULL);
}

void
xrlab_fit_page_set_engine (XrlabFitPage *self, XrlabEngine *engine)
{
  g_return_if_fail (XRLAB_IS_FIT_PAGE (self));
  g_set_object (&self->engine, engine);
}

const XrlabFitWorkspace *
xrlab_fit_page_get_workspace (XrlabFitPage *self)
{
  g_return_val_if_fail (XRLAB_IS_FIT_PAGE (self), NULL);
  self->ws.delay = self->delay;
  self->ws.energy = self->energy;
  self->ws.map = self->map_kind;
  return self->has_workspace ? &self->ws : NULL;
}

const char *
xrlab_fit_page_get_message (XrlabFitPage *self)
{
  g_return_val_if_fail (XRLAB_IS_FIT_PAGE (self), NULL);
  return self->message_text;
}

void
xrlab_fit_page_set_active (XrlabFitPage *self, gboolean active)
{
  g_return_if_fail (XRLAB_IS_FIT_PAGE (self));
  self->active = active;
  xrlab_fit_page_schedule (self);
}

void
xrlab_fit_page_set_map_kind (XrlabFitPage *self, XrlabFitMapKind kind)
{
  g_return_if_fail (XRLAB_IS_FIT_PAGE (self));
  if (self->map_kind == kind)
    return;
  self->map_kind = kind;
  self->building = TRUE;
  gtk_drop_down_set_selected (self->map_choice, kind);
  self->building = FALSE;
  self->map_dirty = TRUE;
  xrlab_fit_page_schedule (self);
  g_signal_emit (self, signals[CHANGED], 0);
}

gboolean
xrlab_fit_page_is_fitting (XrlabFitPage *self)
{
  g_return_val_if_fail (XRLAB_IS_FIT_PAGE (self), FALSE);
  return self->fitting;
}

gsize
xrlab_fit_page_get_n_params (XrlabFitPage *self)
{
  g_return_val_if_fail (XRLAB_IS_FIT_PAGE (self), 0);
  return self->params != NULL ? self->params->n_params : 0;
}

gboolean
xrlab_fit_page_get_param_value (XrlabFitPage *self, const char *name, double *value, double *error)
{
  g_return_val_if_fail (XRLAB_IS_FIT_PAGE (self), FALSE);
  for (gsize i = 0; self->params != NULL && i < self->params->n_params; i++)
    if (g_strcmp0 (self->params->params[i].name, name) == 0)
      {
        if (value != NULL)
          *value = self->params->params[i].value;
        if (error != NULL)
          *error = xrlab_fit_page_shown_error (self, &self->params->params[i]);
        return TRUE;
      }
  return FALSE;
}

gboolean
xrlab_fit_page_has_main_result (XrlabFitPage *self)
{
  g_return_val_if_fail (XRLAB_IS_FIT_PAGE (self), FALSE);
  return self->results != NULL && self->results->main != NULL && self->results->main_complete;
}

const char *
xrlab_fit_page_get_summary (XrlabFitPage *self)
{
  g_return_val_if_fail (XRLAB_IS_FIT_PAGE (self), NULL);
  return self->summary_text != NULL ? self->summary_text : "";
}

XrlabMapView *
xrlab_fit_page_get_map_view (XrlabFitPage *self)
{
  g_return_val_if_fail (XRLAB_IS_FIT_PAGE (self), NULL);
  return self->map_view;
}

XrlabPlot *
xrlab_fit_page_get_spectrum (XrlabFitPage *self)
{
  g_return_val_if_fail (XRLAB_IS_FIT_PAGE (self), NULL);
  return self->spectrum;
}

XrlabPlot *
xrlab_fit_page_get_residual (XrlabFitPage *self)
{
  g_return_val_if_fail (XRLAB_IS_FIT_PAGE (self), NULL);
  return self->residual;
}

XrlabPlot *
xrlab_fit_page_get_trace (XrlabFitPage *self)
{
  g_return_val_if_fail (XRLAB_IS_FIT_PAGE (self), NULL);
  return self->trace;
}

XrlabPlot *
xrlab_fit_page_get_sbs_plot (XrlabFitPage *self)
{
  g_return_val_if_fail (XRLAB_IS_FIT_PAGE (self), NULL);
  return self->sbs_plot;
}

GtkWidget *
xrlab_fit_page_get_shown_view (XrlabFitPage *self)
{
  GtkWidget *plots[] = { GTK_WIDGET (self->spectrum), GTK_WIDGET (self->residual), GTK_WIDGET (self->trace),
                         GTK_WIDGET (self->sbs_plot) };

  g_return_val_if_fail (XRLAB_IS_FIT_PAGE (self), NULL);
  for (guint i = 0; i < G_N_ELEMENTS (plots); i++)
    if (plots[i] != NULL && gtk_widget_has_focus (plots[i]))
      return plots[i];
  return GTK_WIDGET (self->map_view);
}
