/* xrlab-window-private.h -- what the files of XrlabWindow share
 *
 * xrlab-window.c          construction, template, settings, window state
 * xrlab-window-data.c     the link to the data source: requests and replies
 * xrlab-window-actions.c  win.* actions, file choosers, export
 * xrlab-window-session.c  session snapshot/apply, auto-save and restore
 * xrlab-window-plot.c     the plot's export dialog and pins
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "xrlab-window.h"
#include "xrlab-engine.h"
#include "xrlab-fit-page.h"
#include "xrlab-reflect-page.h"

G_BEGIN_DECLS

typedef struct _XrlabUndoItem XrlabUndoItem;
void xrlab_undo_item_free (XrlabUndoItem *item);

struct _XrlabWindow {
  AdwApplicationWindow parent_instance;

  /* template children */
  AdwToastOverlay *toast_overlay;
  AdwHeaderBar *header_bar;
  AdwViewSwitcherTitle *switcher_title;
  GtkToggleButton *sidebar_button;
  GtkMenuButton *primary_menu_button;
  AdwFlap *flap;
  XrlabMaterialList *material_list;
  XrlabSweepControls *sweep_controls;
  AdwViewStack *view_stack;
  XrlabPlotControls *plot_controls;
  XrlabPlot *plot;
  XrlabValuesView *values_view;
  XrlabReflectPage *reflect_page;
  XrlabFitPage *fit_page;
  GtkStack *content_stack;      /* the pages, or the empty state */
  GtkRevealer *plot_notice;
  GtkLabel *plot_notice_label;

  GSettings *settings;
  GListStore *materials;

  /* data link (xrlab-window-data.c) */
  XrlabEngine *engine;
  GCancellable *cancellable;
  guint refresh_id;             /* coalesced recompute */
  guint pending;                /* engine requests in flight */
  GMainContext *replies;        /* where the engine's replies are dispatched */
  guint pump_id;                /* drains @replies when a round outlives its budget */
  gboolean materials_dirty;     /* the engine has not seen the latest list */
  gboolean plot_dirty;          /* the plot needs a fetch when it is shown */
  gboolean values_dirty;
  GBytes *grid_x;               /* sweep points in the sweep's unit */
  XrlabSweep grid_sweep;        /* the sweep grid_x (and the engine's grid) was made for */
  GHashTable *valid_once;       /* ids of materials that had a valid input (engine keeps it) */
  GListStore *presets;
  gboolean show_stats;

  /* undo (xrlab-window-actions.c) */
  GPtrArray *undo_stack;        /* XrlabUndoItem, newest last */
  guint undo_serial;
  AdwToast *undo_toast;         /* offers the newest step while shown */
  gint64 undo_toast_added_us;   /* when it was added to the overlay (monotonic) */

  /* session (xrlab-window-session.c) */
  guint autosave_id;
  gboolean applying;            /* apply_session in progress: no autosave */
  char *autosave_path;
  char *session_path;           /* the file saved to or opened, for Ctrl+S and the title */
  gboolean autosave_failed;
  char *restore_marker;         /* removed once the restored session is on screen */
  guint restore_check_id;
  char *previous_session;       /* kept file of a restore that crashed: offered to open */
};

void xrlab_window_data_init        (XrlabWindow *self);
void xrlab_window_data_dispose     (XrlabWindow *self);
/* Something the views depend on changed: recompute soon (coalesced). */
void xrlab_window_data_invalidate  (XrlabWindow *self);
/* The quantity changed: new axis labels, sweep limits, data. */
void xrlab_window_data_quantity_changed (XrlabWindow *self);
/* The plot's axes for @quantity over a sweep in @unit (the view
 * converted to a new unit). */
void xrlab_window_data_set_axes    (XrlabWindow *self, XrlabQuantity quantity, XrlabEnergyUnit unit);
/* Runs a pending recompute now (tests, export). */
void xrlab_window_data_flush       (XrlabWindow *self);
void xrlab_window_data_export_csv (XrlabWindow *self, const char *path,
                                   GAsyncReadyCallback callback, gpointer user_data);

void xrlab_window_class_install_actions (GtkWidgetClass *widget_class);
void xrlab_window_actions_init     (XrlabWindow *self);
void xrlab_window_actions_update   (XrlabWindow *self);

void xrlab_window_class_install_plot_actions (GtkWidgetClass *widget_class);
void xrlab_window_plot_init        (XrlabWindow *self);

void xrlab_window_session_init     (XrlabWindow *self, gboolean restore);
void xrlab_window_session_dispose  (XrlabWindow *self);
void xrlab_window_session_changed  (XrlabWindow *self);

G_END_DECLS
