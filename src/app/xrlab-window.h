/* xrlab-window.h -- the main window: material editor and sweep in a
 * sidebar, the plot and the values table as the main area
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "xrlab-engine.h"
#include "xrlab-export-dialog.h"
#include "xrlab-material-list.h"
#include "xrlab-plot.h"
#include "xrlab-plot-controls.h"
#include "xrlab-fit-page.h"
#include "xrlab-reflect-page.h"
#include "xrlab-session.h"
#include "xrlab-sweep-controls.h"
#include "xrlab-values-view.h"

G_BEGIN_DECLS

#define XRLAB_TYPE_WINDOW (xrlab_window_get_type ())
G_DECLARE_FINAL_TYPE (XrlabWindow, xrlab_window, XRLAB, WINDOW, AdwApplicationWindow)

/* @settings: the application's GSettings (io.github.xrlab.Xrlab).
 * @restore: restore the auto-saved session (else start with the example). */
XrlabWindow        *xrlab_window_new (GtkApplication *application,
                                      GSettings      *settings,
                                      gboolean        restore);

XrlabPlot          *xrlab_window_get_plot           (XrlabWindow *self);
XrlabMaterialList  *xrlab_window_get_material_list  (XrlabWindow *self);
XrlabSweepControls *xrlab_window_get_sweep_controls (XrlabWindow *self);
XrlabPlotControls  *xrlab_window_get_plot_controls  (XrlabWindow *self);
XrlabValuesView    *xrlab_window_get_values_view    (XrlabWindow *self);
XrlabReflectPage   *xrlab_window_get_reflect_page   (XrlabWindow *self);
XrlabFitPage       *xrlab_window_get_fit_page       (XrlabWindow *self);
GListStore         *xrlab_window_get_materials      (XrlabWindow *self);
AdwViewStack       *xrlab_window_get_view_stack     (XrlabWindow *self);

/* TRUE while the window shows its empty state (no materials). */
gboolean            xrlab_window_get_empty          (XrlabWindow *self);

/* The notice over the plot (why it shows the last valid sweep), or NULL
 * when none is shown. */
const char         *xrlab_window_get_plot_notice    (XrlabWindow *self);

/* The window's engine thread. */
XrlabEngine        *xrlab_window_get_engine         (XrlabWindow *self);

/* TRUE while a recompute is scheduled or an engine reply is pending. */
gboolean            xrlab_window_is_busy            (XrlabWindow *self);
/* Transfers the engine made to this window's consumers ("plot", "table"),
 * from the engine's own accounting. */
guint64             xrlab_window_get_transfers      (XrlabWindow *self);

/* The state as a session document, and back. Applying replaces materials,
 * sweep and plot settings. */
XrlabSession       *xrlab_window_get_session        (XrlabWindow        *self);
void                xrlab_window_apply_session      (XrlabWindow        *self,
                                                     const XrlabSession *session);

/* What the Save/Open/Export actions do once a file is chosen. Opening a bad
 * file returns FALSE with the reason and leaves the window as it was; a
 * file bad in part opens with what is sound (XRLAB_SESSION_LOAD_SALVAGE)
 * and a toast says what was left out. */
gboolean            xrlab_window_save_session_file  (XrlabWindow  *self,
                                                     const char   *path,
                                                     GError      **error);
gboolean            xrlab_window_open_session_file  (XrlabWindow  *self,
                                                     const char   *path,
                                                     GError      **error);
/* CSV of every quantity of the visible materials, written by the engine. */
void                xrlab_window_export_csv         (XrlabWindow         *self,
                                                     const char          *path,
                                                     GAsyncReadyCallback  callback,
                                                     gpointer             user_data);
gboolean            xrlab_window_export_csv_finish  (XrlabWindow   *self,
                                                     GAsyncResult  *result,
                                                     GError       **error);
/* The plot as @width x @height (PNG pixels, SVG/PDF points), as shown. */
gboolean            xrlab_window_export_plot_file   (XrlabWindow     *self,
                                                     const char      *path,
                                                     XrlabPlotFormat  format,
                                                     int              width,
                                                     int              height,
                                                     GError         **error);
/* The plot as a figure of a physical size (the export dialog's choice). */
gboolean            xrlab_window_export_figure      (XrlabWindow           *self,
                                                     const char            *path,
                                                     const XrlabPlotFigure *figure,
                                                     GError               **error);
/* The export dialog (win.export-plot), shown. */
XrlabExportDialog  *xrlab_window_show_export_dialog (XrlabWindow *self);
/* The pins' values as CSV (win.export-pins). */
gboolean            xrlab_window_export_pins        (XrlabWindow  *self,
                                                     const char   *path,
                                                     GError      **error);

/* The session file last saved to or opened (NULL after a reset or at the
 * start): Ctrl+S saves there, the title shows its name. */
void                xrlab_window_set_session_path   (XrlabWindow *self,
                                                     const char  *path);
const char         *xrlab_window_get_session_path   (XrlabWindow *self);

/* @path, with @extension (".csv") added when its name has none. */
char               *xrlab_window_complete_file_name (const char *path,
                                                     const char *extension);

/* Writes the auto-save file now (also done shortly after each change). */
gboolean            xrlab_window_autosave_now       (XrlabWindow  *self,
                                                     GError      **error);

/* Undo: the number of steps win.undo (Ctrl+Z) can take back (removed
 * materials, a reset), and the toast of the newest while it is shown. */
guint               xrlab_window_get_n_undo         (XrlabWindow *self);
AdwToast           *xrlab_window_get_undo_toast     (XrlabWindow *self);

/* Shows a toast. */
void                xrlab_window_toast              (XrlabWindow *self,
                                                     const char  *message,
                                                     guint        timeout_s);

G_END_DECLS
