/* xrlab-export-dialog.h -- the plot as a figure for a paper: format, size
 * in cm, inches or pixels, PNG resolution, type size, line width, with a
 * preview of the page
 *
 * The view exported is an XrlabPlot, or an XrlabMapView (a map: its own
 * type and lines, so those fields are off).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "xrlab-map-view.h"
#include "xrlab-plot.h"

G_BEGIN_DECLS

#define XRLAB_TYPE_EXPORT_DIALOG (xrlab_export_dialog_get_type ())
G_DECLARE_FINAL_TYPE (XrlabExportDialog, xrlab_export_dialog, XRLAB, EXPORT_DIALOG, AdwWindow)

/* A dialog for @view (an XrlabPlot or an XrlabMapView), its choices from
 * @settings (export-format,
 * export-width, export-height, export-unit, export-dpi, export-font-size,
 * export-line-width, export-light, export-folder), transient for @parent.
 * Its Export button asks for a file name in the last folder; @written is
 * called with each file written (or an error). */
typedef void (*XrlabExportDone) (gpointer     user_data,
                                 const char  *path,
                                 const GError *error);

XrlabExportDialog *xrlab_export_dialog_new (GtkWindow       *parent,
                                            GtkWidget       *view,
                                            GSettings       *settings,
                                            XrlabExportDone  written,
                                            gpointer         user_data);

/* The figure as the dialog's fields describe it. */
void     xrlab_export_dialog_get_figure (XrlabExportDialog *self,
                                         XrlabPlotFigure   *figure);
/* The name the file chooser proposes: "xrlab-plot.png", ".svg", ".pdf". */
char    *xrlab_export_dialog_get_proposed_name (XrlabExportDialog *self);
/* "1004 × 709 pixels, 8.5 × 6 cm at 300 dpi", as shown under the size. */
char    *xrlab_export_dialog_get_summary (XrlabExportDialog *self);

/* The fields (also what a test types). @unit: "cm", "in", "px". Changing
 * the unit converts the size shown. */
void     xrlab_export_dialog_set_format     (XrlabExportDialog *self, XrlabPlotFormat format);
void     xrlab_export_dialog_set_unit       (XrlabExportDialog *self, const char *unit);
void     xrlab_export_dialog_set_size       (XrlabExportDialog *self, double width, double height);
void     xrlab_export_dialog_set_dpi        (XrlabExportDialog *self, double dpi);
void     xrlab_export_dialog_set_font_size  (XrlabExportDialog *self, double pt);
void     xrlab_export_dialog_set_line_width (XrlabExportDialog *self, double pt);

/* What the Export button does once a file is chosen: the name gets the
 * format's extension unless it has one of png, svg or pdf (then that
 * format is written), the figure is written, the choices and the folder
 * are remembered. Returns the path written (g_free), or NULL with @error. */
char    *xrlab_export_dialog_export_to (XrlabExportDialog  *self,
                                        const char         *chosen_path,
                                        GError            **error);

/* @path with the extension of @format unless it ends in a known one
 * (whose format goes to @format_out). */
char    *xrlab_export_path_for_format (const char      *path,
                                       XrlabPlotFormat  format,
                                       XrlabPlotFormat *format_out);

G_END_DECLS
