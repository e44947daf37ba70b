/* xrlab-fit-page-private.h -- what the files of XrlabFitPage share
 *
 * xrlab-fit-page.c         construction, the toolbar, the public API
 * xrlab-fit-page-map.c     the map's overlays and input
 * xrlab-fit-page-drag.c    peaks dragged on the spectrum, numbers dragged in
 *                          the table
 * xrlab-fit-page-table.c   the parameter table and the result summary
 * xrlab-fit-page-open.c    opening a workspace: files, models, the setup
 * xrlab-fit-page-baseline.c  the baseline model chosen
 * xrlab-fit-page-data.c    the link to the engine: edits, fetches, fit
 *                          jobs and their replies
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "xrlab-fit-page.h"

#include <adwaita.h>

#include "xrlab-engine-fit.h"
#include "xrlab-engine-fit-model.h"

G_BEGIN_DECLS

typedef struct _XrlabFitRow XrlabFitRow;
typedef struct _XrlabFitMapInput XrlabFitMapInput;
typedef struct _XrlabFitPeakDrag XrlabFitPeakDrag;

struct _XrlabFitPage {
  GtkBox parent_instance;

  /* the toolbar */
  GtkLabel *title;
  GtkDropDown *model_choice;
  GtkStringList *model_names;
  GtkDropDown *baseline_choice;    /* "None", then the models of the file listed */
  GtkStringList *baseline_names;
  char *listed_models;             /* the file whose models the two choosers list */
  GtkDropDown *map_choice;
  GtkToggleButton *log_button;
  GtkWidget *range_entries[3];     /* energies, delays, baseline delays */
  GtkWidget *fit_buttons;          /* the box of the fit buttons */
  GtkWidget *baseline_button, *sbs_button, *fit2d_button, *spectrum_button, *ci_button;
  GtkWidget *cancel_button;
  GtkRevealer *progress_revealer;
  GtkProgressBar *progress;
  GtkRevealer *message_revealer;
  GtkLabel *message;
  GtkStack *content;               /* "empty" or "workspace" */
  /* the plots */
  XrlabMapView *map_view;
  XrlabPlot *spectrum, *residual, *trace, *sbs_plot;
  GtkDropDown *sbs_choice;         /* the parameter plotted against delay */
  GtkStringList *sbs_names;
  /* the table */
  GtkGrid *table;
  GPtrArray *rows;                 /* XrlabFitRow */
  GtkListBox *components;          /* the model builder (xrlab-fit-page-model.c) */
  GtkStringList *component_names;
  GtkWidget *bcomponents_box;      /* the baseline model's section of it (hidden: none) */
  GtkLabel *bcomponents_name;
  GtkListBox *bcomponents;
  GtkStringList *bcomponent_names;
  gboolean model_edited;           /* the setup's model is no longer its file's */
  GtkLabel *summary;
  GtkWidget *correlations_expander;
  GtkLabel *correlations;          /* of the main fit's free parameters */
  GtkLabel *not_ready;

  XrlabEngine *engine;
  GCancellable *cancellable;       /* of every request; cancelled at dispose */
  GCancellable *job_cancellable;   /* of the running fit */
  gboolean active;
  gboolean building;               /* setting controls ourselves */

  /* the workspace shown */
  gboolean has_workspace;
  XrlabFitWorkspace ws;
  guint dataset, setup;
  XrlabDatasetInfo *info;
  char *data_only_models;          /* the file of the model of a workspace without one */
  /* the file of the baseline model while it is not the workspace's model
   * file (chosen from the file the kept edits started from), until the
   * kept edits hold it too; NULL otherwise */
  char *baseline_file;
  char *message_text;
  guint64 open_serial;             /* of the newest open */

  /* the view */
  XrlabFitMapKind map_kind;
  double delay, energy;
  double pointer_x, pointer_y;     /* over the map */
  XrlabFitMapInput *map_input;     /* a drag on the map (xrlab-fit-page-map.c) */
  XrlabFitPeakDrag *peak_drag;     /* a peak dragged on the spectrum (xrlab-fit-page-drag.c) */
  double *energies, *delays;       /* the axes of the data (from the first map) */
  gsize n_energies, n_delays;
  gboolean map_dirty, spectrum_dirty, trace_dirty, params_dirty, results_dirty;
  gboolean bparams_dirty;          /* the baseline model's table */
  guint refresh_id;
  guint pending;
  guint round_pending;             /* fetches of rounds not answered yet */
  GMainContext *replies;           /* where they are answered */
  guint pump_id;                   /* dispatches them after the round's budget */
  guint64 serial[6];               /* of the newest fetch of each consumer */
  gpointer last_spectrum;          /* the reply drawn (again, stale, while a value is invalid) */
  XrlabFitParamTraces *param_traces;   /* the main model's time dependence, after a fit */
  guint traces_setup;              /* the setup they are of */
  gboolean traces_fitted;          /* they are the fit's ("2D fit"), not of values edited since ("2D model") */
  gboolean traces_edited;          /* the main model changed since the last fit */
  gboolean traces_dirty;           /* to be fetched again when the slice-by-slice plot is shown */
  gpointer curve_base[2];          /* the axes and data of the spectrum and the trace (xrlab-fit-page-data.c) */
  gboolean stale;

  /* parameters and results */
  XrlabFitParamTable *params;
  XrlabFitParamTable *bparams;     /* of the baseline model (NULL: none) */
  XrlabFitResults *results;
  char *summary_text;
  gboolean fitting;
  /* a fit ended: the next parameter table and results become the
   * workspace's result (the session's) */
  gboolean record_values, record_summary, record_project;
  gboolean record_baseline;        /* the baseline table's values and errors, when a fit gave them */
  gboolean restore_baseline;       /* the workspace's baseline fit, on the first baseline table */
  XrlabFitJobKind job_kind;
};

/* xrlab-fit-page.c */
void        xrlab_fit_page_set_message (XrlabFitPage *self, const char *text);
void        xrlab_fit_page_sync_controls (XrlabFitPage *self);

/* xrlab-fit-page-map.c */
void        xrlab_fit_page_update_overlays (XrlabFitPage *self);
void        xrlab_fit_page_map_input_init  (XrlabFitPage *self);

/* xrlab-fit-page-drag.c */
void        xrlab_fit_page_drag_init       (XrlabFitPage *self);
void        xrlab_fit_page_drag_dispose    (XrlabFitPage *self);
/* A horizontal drag on the number of a value @entry of the table changes it. */
void        xrlab_fit_page_drag_attach_value (GtkWidget *entry);

/* xrlab-fit-page-table.c */
void        xrlab_fit_page_table_init    (XrlabFitPage *self);
void        xrlab_fit_page_table_clear   (XrlabFitPage *self);
/* The name cell @name of a parameter's row with its sharing in a joint
 * fit after it (the label's first text, or the one set as its
 * "xrlab-base-text", stays the name). */
void        xrlab_fit_page_name_show_share (GtkWidget *name, XrlabParamShare share);
/* The standard error the table shows for @p: the fit's, or before any
 * fit on this setup the one the workspace kept from the last session. */
double      xrlab_fit_page_shown_error   (XrlabFitPage *self, const XrlabFitParamRow *p);
/* The table of the model @role from @table (taken; NULL: the baseline
 * model's section goes). */
void        xrlab_fit_page_table_set     (XrlabFitPage *self, XrlabFitModelRole role,
                                          XrlabFitParamTable *table);
/* The message at the row of @name of the model @role (NULL clears it). */
void        xrlab_fit_page_table_set_error (XrlabFitPage *self, XrlabFitModelRole role, const char *name,
                                            const char *message);
/* The row of @name of the main model, or NULL. */
XrlabFitRow *xrlab_fit_page_table_find   (XrlabFitPage *self, const char *name);
XrlabFitRow *xrlab_fit_page_table_find_role (XrlabFitPage *self, XrlabFitModelRole role, const char *name);
GtkEditable *xrlab_fit_row_get_value_entry (XrlabFitRow *row);
const char *xrlab_fit_row_get_error      (XrlabFitRow *row);
void        xrlab_fit_page_results_show  (XrlabFitPage *self, XrlabFitResults *results);
/* The slice-by-slice plot drawn again (the chosen parameter). */
void        xrlab_fit_page_draw_sbs      (XrlabFitPage *self);

/* xrlab-fit-page-open.c: the Ranges button of the toolbar */
GtkWidget  *xrlab_fit_page_build_ranges (XrlabFitPage *self);
/* Opens @ws with its baseline model read from @baseline_models (NULL: the
 * workspace's model file). */
void        xrlab_fit_page_open_full    (XrlabFitPage *self, const XrlabFitWorkspace *ws,
                                         const char *baseline_models);

/* xrlab-fit-page-baseline.c */
/* The baseline model's chooser of the toolbar. */
GtkWidget  *xrlab_fit_page_baseline_build (XrlabFitPage *self);
/* Lists "None" and the models of @file (NULL: none) in the chooser, the
 * workspace's baseline model selected. */
void        xrlab_fit_page_baseline_fill  (XrlabFitPage *self, XrlabModelFile *file);
/* The name the chooser has selected (NULL: None). */
const char *xrlab_fit_page_baseline_listed (XrlabFitPage *self);
/* The baseline table @t (of a new setup) and the workspace's baseline fit
 * (kept with the session): its values sent as start values of the
 * baseline model, or, when they do not fit @t, refused with a message. */
void        xrlab_fit_page_baseline_restore (XrlabFitPage *self, const XrlabFitParamTable *t);
/* The baseline table @t of a fit that ended: its fitted values and errors
 * become the workspace's baseline fit (none when @t shows no fit). */
void        xrlab_fit_page_baseline_record  (XrlabFitPage *self, const XrlabFitParamTable *t);
/* The standard error shown for baseline parameter @p: the fit's, or
 * before any on this setup the one of the workspace's baseline fit. */
double      xrlab_fit_page_baseline_error   (XrlabFitPage *self, const XrlabFitParamRow *p);

/* A setup like the shown one (its model file, model, attachments, values,
 * ranges) on another measurement @data of a project: @done gets the
 * dataset and setup (0 with @error; the caller closes them). */
typedef void (*XrlabFitSiblingFunc) (XrlabFitPage *self, guint dataset, guint setup, const GError *error,
                                     gpointer user_data);
void        xrlab_fit_page_open_sibling (XrlabFitPage *self, const char *data, XrlabFitSiblingFunc done,
                                         gpointer user_data);

/* xrlab-fit-page-attached.c */
typedef void (*XrlabFitPalettePicked) (GtkListBox *list, const char *function, gpointer data);
/* A menu button of the palette's time functions and kernels (@profile:
 * profile functions); @picked gets the function chosen. */
GtkWidget  *xrlab_fit_page_time_palette (gboolean profile, XrlabFitPalettePicked picked, gpointer data);
/* The rows of the time and profile models attached to the parameters of
 * @c, appended to @list (the component list). */
void        xrlab_fit_page_attached_rows (XrlabFitPage *self, const XrlabModelDescComponent *c,
                                          GtkListBox *list);

/* xrlab-fit-page-project.c: a folder of several measurements (data_1.csv,
 * data_2.csv ...) as one project: the file shown, the joint fit */
GtkWidget  *xrlab_fit_page_project_build (XrlabFitPage *self);

/* xrlab-fit-page-model.c */
GtkWidget  *xrlab_fit_page_model_build  (XrlabFitPage *self);
/* A new setup: its tree fetched. */
void        xrlab_fit_page_model_opened (XrlabFitPage *self);
/* A row of a palette popover: the function's name and formula ("function"
 * its name). */
GtkWidget  *xrlab_fit_page_palette_row  (const XrlabModelPaletteEntry *p);
/* The edited model saved into the state folder after this turn of the
 * main loop, and named by the workspace from then on (the session keeps the
 * edits). */
void        xrlab_fit_page_keep_edits   (XrlabFitPage *self);
/* The model file the kept edits started from (NULL: none, or not known). */
const char *xrlab_fit_page_source_models (XrlabFitPage *self);
/* The profiles of @saved into the workspace (xrlab-fit-page-dynamics.c). */
void        xrlab_fit_page_adopt_profiles (XrlabFitPage *self, const XrlabFitModelSaved *saved);
/* One request of structure edits (in order, all or nothing) of the main
 * model (_for: of the model @role); the reply fetches the tree and the
 * table again, or shows its message. */
void        xrlab_fit_page_send_model_edits (XrlabFitPage *self, const XrlabModelEdit *edits, gsize n);
void        xrlab_fit_page_send_model_edits_for (XrlabFitPage *self, XrlabFitModelRole role,
                                                 const XrlabModelEdit *edits, gsize n);
/* The model a widget of the component list (or of a row of the table)
 * edits: the role marked on it or on the nearest of its ancestors
 * (xrlab_fit_page_mark_role()), the main model when none is. */
XrlabFitModelRole xrlab_fit_page_widget_role (GtkWidget *widget);
void        xrlab_fit_page_mark_role    (GtkWidget *widget, XrlabFitModelRole role);
/* Removes @component of the model @widget edits. */
void        xrlab_fit_page_remove_component_of (XrlabFitPage *self, GtkWidget *widget, const char *component);

/* xrlab-fit-page-dynamics.c: the menu of a parameter's row of the model
 * @role (time dependence, profile: attach from a file or build, detach;
 * the baseline model's: a profile); NULL for a parameter that can have
 * none of it. */
GtkWidget  *xrlab_fit_page_dynamics_row_menu (XrlabFitPage *self, XrlabFitModelRole role,
                                              const XrlabFitParamRow *p, gboolean has_profile);
/* Row @i of @t (the table of the model @role) at grid line @line: the
 * name of an attached parameter indented under the one it belongs to, the
 * row's menu. */
void        xrlab_fit_page_dynamics_decorate (XrlabFitPage *self, XrlabFitModelRole role,
                                              const XrlabFitParamTable *t, gsize i, int line);

/* xrlab-fit-page-data.c */
/* Errors that are no news: superseded, cancelled, shut down. */
gboolean    xrlab_fit_page_error_is_quiet (const GError *error);
void        xrlab_fit_page_schedule      (XrlabFitPage *self);
void        xrlab_fit_page_data_dispose  (XrlabFitPage *self);
/* One parameter edit of @fields; the reply marks the row. */
void        xrlab_fit_page_send_edit     (XrlabFitPage *self, const XrlabFitParamEdit *edit);
/* The stale spectrum drawn again (a value became invalid or valid). */
void        xrlab_fit_page_redraw_spectrum (XrlabFitPage *self);
void        xrlab_fit_page_update_model  (XrlabFitPage *self);
void        xrlab_fit_preview_ref_release (gpointer ref);
/* The main model's time dependence of parameter @name as a series of
 * @data (the slice-by-slice plot), when a fit gave it one. */
void        xrlab_fit_page_sbs_overlay   (XrlabFitPage *self, XrlabPlotData *data, const char *name);
/* The main model changed (a value, an attachment, its structure): after a
 * 2D fit, its time dependence is fetched again for the slice-by-slice
 * plot (in the next round, while the plot is shown), no longer the fit's. */
void        xrlab_fit_page_traces_follow (XrlabFitPage *self);

G_END_DECLS
