/* xrlab-fit-page.h -- the Fit page of the window: a time-resolved
 * measurement as a map, a spectrum and a trace, its model's parameters,
 * fits on the engine's job lane and their results
 *
 * The page is a client of the engine's fit service (xrlab-engine-fit.h):
 * opening a workspace opens a dataset and makes a setup on it; only when
 * both succeeded do they replace the shown ones (a file that cannot be read
 * leaves the previous workspace as it was, its message on the page). A
 * value typed into the parameter table is one parameter edit; the page then
 * fetches what it shows, one transfer per plot (consumers "fit-map",
 * "fit-spectrum", "fit-trace", "fit-params"; the data map is fetched once
 * per setup, a model or residual map after every edit). Nothing is fetched
 * while the page is hidden. An invalid value is shown at its row and the
 * model curves keep the last valid model, drawn stale.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

/* Not xrlab-engine-fit.h: its simulator's XrlabSweep is not the window's
 * (xrlab-sweep.h); the page's files include it themselves. */
#include "xrlab-engine.h"
#include "xrlab-fit-workspace.h"
#include "xrlab-map-view.h"
#include "xrlab-plot.h"

G_BEGIN_DECLS

/* What the map shows. */
typedef enum {
  XRLAB_FIT_MAP_DATA,
  XRLAB_FIT_MAP_MODEL,
  XRLAB_FIT_MAP_RESIDUAL,   /* data − model, on a diverging colour scale symmetric about 0 */
} XrlabFitMapKind;

#define XRLAB_TYPE_FIT_PAGE (xrlab_fit_page_get_type ())
G_DECLARE_FINAL_TYPE (XrlabFitPage, xrlab_fit_page, XRLAB, FIT_PAGE, GtkBox)

GtkWidget *xrlab_fit_page_new        (void);
void       xrlab_fit_page_set_engine (XrlabFitPage *self, XrlabEngine *engine);

/* Opens @ws (copied); "opened" tells when it replaced the shown workspace,
 * "open-failed" (with the message) when it did not. */
void       xrlab_fit_page_open       (XrlabFitPage *self, const XrlabFitWorkspace *ws);
/* Opens a data file or folder with the models of the shown workspace when
 * it has none of its own (the file chooser, drag and drop). */
void       xrlab_fit_page_open_path  (XrlabFitPage *self, const char *path);
/* The shown workspace (with the values typed and the view as they are
 * now), or NULL. */
const XrlabFitWorkspace *xrlab_fit_page_get_workspace (XrlabFitPage *self);
/* The message on the page (a file that was not read, a fit that failed), or NULL. */
const char *xrlab_fit_page_get_message (XrlabFitPage *self);

/* The page is shown (the window's view stack): fetches what changed. */
void       xrlab_fit_page_set_active (XrlabFitPage *self, gboolean active);
/* TRUE while requests are pending or scheduled (not counting a fit job). */
gboolean   xrlab_fit_page_is_busy    (XrlabFitPage *self);

/* The fit window and the baseline delays of the shown workspace (NaN:
 * open; an update of the setup; the reply's error is the page's message). */
void       xrlab_fit_page_set_ranges (XrlabFitPage *self, double e0, double e1, double t0, double t1,
                                      double b0, double b1);
/* "A:B" as two numbers (either side may be empty: NaN). */
gboolean   xrlab_fit_parse_range     (const char *text, double *a, double *b);

/* The selected delay and energy (data units). */
void       xrlab_fit_page_set_cursor (XrlabFitPage *self, double delay, double energy);
/* A drag on the map from widget pixel (@x0, @y0) to (@x1, @y1) with mouse
 * @button and modifiers @state, as the map's gesture handles it (moves the
 * cursor, moves or resizes the fit window, pans or zooms: see
 * xrlab-fit-page-map.c). */
void       xrlab_fit_page_map_drag   (XrlabFitPage *self, guint button, GdkModifierType state,
                                      double x0, double y0, double x1, double y1);
/* Where the map draws (@energy, @delay), in widget pixels; FALSE before
 * the map was drawn. */
gboolean   xrlab_fit_page_map_to_px  (XrlabFitPage *self, double energy, double delay,
                                      double *px, double *py);
/* Where the spectrum plot draws the maximum of component @k (widget
 * pixels); FALSE when it has none. */
gboolean   xrlab_fit_page_peak_at    (XrlabFitPage *self, guint k, double *px, double *py);
/* A peak dragged on the spectrum from (@x0, @y0) to (@x1, @y1), as the
 * plot's gesture does it (its position and height into the table); FALSE
 * when no peak is within reach of (@x0, @y0). */
gboolean   xrlab_fit_page_spectrum_drag (XrlabFitPage *self, double x0, double y0, double x1, double y1);
/* The parameter the slice-by-slice plot shows (with the 2D fit's time
 * dependence over it when it has one); FALSE when it is not one of them. */
gboolean   xrlab_fit_page_set_sbs_param (XrlabFitPage *self, const char *name);
/* The value entry of parameter @name in the table, or NULL. */
GtkWidget *xrlab_fit_page_get_param_entry (XrlabFitPage *self, const char *name);
void       xrlab_fit_page_get_cursor (XrlabFitPage *self, double *delay, double *energy);
void       xrlab_fit_page_set_map_kind (XrlabFitPage *self, XrlabFitMapKind kind);

/* Types @text into the value of parameter @name, as the table's entry
 * does. FALSE when the table has no such parameter. */
gboolean   xrlab_fit_page_set_param_text (XrlabFitPage *self, const char *name, const char *text);
/* The parameters of the last fetch of the table: how many; the value and
 * the error shown (the fit's, or the one kept with the session before a
 * fit; NaN: none) of @name (FALSE: no such parameter); the message at the
 * row of @name (NULL: none). */
gsize      xrlab_fit_page_get_n_params    (XrlabFitPage *self);
gboolean   xrlab_fit_page_get_param_value (XrlabFitPage *self, const char *name, double *value,
                                           double *error);
const char *xrlab_fit_page_get_param_error (XrlabFitPage *self, const char *name);
/* How @name is shared in a joint fit of a project's files (the row's menu:
 * every file one value, one value per file, neither; an edit of the model
 * kept with the session like the others), and as the table has it
 * (XrlabParamShare, xrlab-model.h; -1: no such parameter). */
void       xrlab_fit_page_set_param_share (XrlabFitPage *self, const char *name, int share);
int        xrlab_fit_page_get_param_share (XrlabFitPage *self, const char *name);

/* The baseline model (xrlab-fit-page-baseline.c): its chooser in the
 * toolbar ("None", then the models of the model file; a choice opens the
 * workspace again with it, as a choice of the model does), and its
 * parameters as the table's section shows them: how many rows it has (0:
 * no section), the value and the error of the baseline fit (NaN: none) of
 * @name (FALSE: no such parameter), the widget at @column of its row (0
 * the name, 1 value, 2 vary, 3 min, 4 max, 5 expression, 6 error, 7 its
 * menu: a profile attached or removed, as the model's rows have it) or
 * NULL. */
GtkDropDown *xrlab_fit_page_get_baseline_choice (XrlabFitPage *self);
gsize      xrlab_fit_page_get_n_baseline_params (XrlabFitPage *self);
gboolean   xrlab_fit_page_get_baseline_param_value (XrlabFitPage *self, const char *name, double *value,
                                                    double *error);
GtkWidget *xrlab_fit_page_get_baseline_param_cell (XrlabFitPage *self, const char *name, int column);
/* The message at the row of baseline parameter @name (NULL: none). */
const char *xrlab_fit_page_get_baseline_param_error (XrlabFitPage *self, const char *name);

/* The fits of the page's buttons (XrlabFitJobKind's). */
typedef enum {
  XRLAB_FIT_PAGE_JOB_BASELINE,
  XRLAB_FIT_PAGE_JOB_SBS,
  XRLAB_FIT_PAGE_JOB_2D,
  XRLAB_FIT_PAGE_JOB_SPECTRUM,
  XRLAB_FIT_PAGE_JOB_CI,        /* every fitted parameter of the 2D or spectrum fit */
  /* the stages of xrlab-cli fit: the baseline (with a baseline model), then
   * the 2D fit (or the spectrum's) */
  XRLAB_FIT_PAGE_JOB_ALL,
} XrlabFitPageJob;

void       xrlab_fit_page_run        (XrlabFitPage *self, XrlabFitPageJob job);
void       xrlab_fit_page_cancel     (XrlabFitPage *self);
gboolean   xrlab_fit_page_is_fitting (XrlabFitPage *self);
/* Whether the last fetched results hold a complete main (2D or spectrum)
 * fit; FALSE also before any. */
gboolean   xrlab_fit_page_has_main_result (XrlabFitPage *self);
/* The correlations of the main fit's free parameters as shown ("" before
 * one). */
const char *xrlab_fit_page_get_correlations (XrlabFitPage *self);
/* The result summary as shown ("" before a fit). */
const char *xrlab_fit_page_get_summary (XrlabFitPage *self);
/* Writes the result set into @outdir on the engine thread. */
void       xrlab_fit_page_write_results (XrlabFitPage *self, const char *outdir,
                                         GAsyncReadyCallback callback, gpointer user_data);
gboolean   xrlab_fit_page_write_results_finish (XrlabFitPage *self, GAsyncResult *result,
                                                GError **error);

/* The model builder: the energy model's components (their full names, in
 * order), structure edits of the fit service (a refused one shows its
 * message), the model saved as a trspecfit file on the engine thread. */
guint       xrlab_fit_page_get_n_components (XrlabFitPage *self);
const char *xrlab_fit_page_get_component    (XrlabFitPage *self, guint i);
void        xrlab_fit_page_add_component    (XrlabFitPage *self, const char *function);
void        xrlab_fit_page_remove_component (XrlabFitPage *self, const char *component);
void        xrlab_fit_page_move_component   (XrlabFitPage *self, const char *component,
                                             gssize position);
void        xrlab_fit_page_save_model       (XrlabFitPage *self, const char *path,
                                             GAsyncReadyCallback callback, gpointer user_data);
gboolean    xrlab_fit_page_save_model_finish (XrlabFitPage *self, GAsyncResult *result,
                                              GError **error);

/* The baseline model's components as its section of the component list
 * shows them (0 without a baseline model), edited with the same buttons
 * and palette; the section (@baseline) or the model's, for tests. */
guint       xrlab_fit_page_get_n_baseline_components (XrlabFitPage *self);
const char *xrlab_fit_page_get_baseline_component    (XrlabFitPage *self, guint i);
GtkWidget  *xrlab_fit_page_get_component_section     (XrlabFitPage *self, gboolean baseline);

/* Time dependence and profiles (xrlab-fit-page-dynamics.c): attached to
 * the parameter @param (full name: GLP_01_x0) of the model, from the
 * models @models of the trspecfit model file @file (time dependence: the
 * first for the whole delay axis, the others subcycles repeating at
 * @frequency, 0 without; a profile: one model), or built from the
 * palette's functions: @cycles[0] the functions of the whole delay axis
 * ("gaussCONV,expFun"), @cycles[k] those of subcycle k ("" or "none": an
 * empty one); detached. Each is one structure edit: the table then shows
 * the attached parameters under @param. */
void        xrlab_fit_page_attach_file      (XrlabFitPage *self, const char *param, gboolean profile,
                                             const char *file, const char *const *models,
                                             double frequency);
void        xrlab_fit_page_attach_new       (XrlabFitPage *self, const char *param, gboolean profile,
                                             const char *const *cycles, double frequency);
void        xrlab_fit_page_detach           (XrlabFitPage *self, const char *param, gboolean profile);
/* A function of the palette added to the time dependence of @param (its
 * subcycle @subcycle, 0 the model of every delay) or to its profile; an
 * attached component is removed with xrlab_fit_page_remove_component()
 * and its full name (GLP_01_x0_expFun_01). */
void        xrlab_fit_page_add_time_function (XrlabFitPage *self, const char *param, gboolean profile,
                                              guint subcycle, const char *function);
/* The dialog that attaches time dependence (or a profile) to @param; it
 * is returned (owned by the page's window) for tests. */
GtkWindow  *xrlab_fit_page_show_attach_dialog (XrlabFitPage *self, const char *param, gboolean profile);

/* A project (xrlab-fit-page-project.c): a folder whose data/ holds
 * several measurements (data_1.csv, data_2.csv ...) opens as one: its
 * files (in order), the one shown (another is opened with the shown
 * workspace's model, attachments, values and ranges), the joint fit of all
 * (the engine's project fit: the parameters marked `project` shared, those
 * marked `file` per file; the table then shows the shown file's result),
 * its summary ("" before one) and its shared parameters. */
guint       xrlab_fit_page_get_n_files      (XrlabFitPage *self);
const char *xrlab_fit_page_get_file         (XrlabFitPage *self, guint i);
guint       xrlab_fit_page_get_shown_file   (XrlabFitPage *self);
void        xrlab_fit_page_select_file      (XrlabFitPage *self, guint i);
void        xrlab_fit_page_run_project      (XrlabFitPage *self);
const char *xrlab_fit_page_get_project_summary (XrlabFitPage *self);
gboolean    xrlab_fit_page_get_shared_value (XrlabFitPage *self, const char *name, double *value,
                                             double *error);

XrlabMapView *xrlab_fit_page_get_map_view (XrlabFitPage *self);
XrlabPlot    *xrlab_fit_page_get_spectrum (XrlabFitPage *self);
XrlabPlot    *xrlab_fit_page_get_residual (XrlabFitPage *self);
XrlabPlot    *xrlab_fit_page_get_trace    (XrlabFitPage *self);
XrlabPlot    *xrlab_fit_page_get_sbs_plot (XrlabFitPage *self);
/* The plot or map with the keyboard focus (the map when none), for export. */
GtkWidget    *xrlab_fit_page_get_shown_view (XrlabFitPage *self);

G_END_DECLS
