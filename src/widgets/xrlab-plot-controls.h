/* xrlab-plot-controls.h -- the quantity on the y axis and the log/linear
 * toggles of both axes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "xrlab-quantity.h"

G_BEGIN_DECLS

#define XRLAB_TYPE_PLOT_CONTROLS (xrlab_plot_controls_get_type ())
G_DECLARE_FINAL_TYPE (XrlabPlotControls, xrlab_plot_controls, XRLAB, PLOT_CONTROLS, GtkWidget)

GtkWidget         *xrlab_plot_controls_new          (void);

XrlabQuantity  xrlab_plot_controls_get_quantity (XrlabPlotControls *self);
/* Only plottable quantities are accepted. */
void               xrlab_plot_controls_set_quantity (XrlabPlotControls *self,
                                                     XrlabQuantity  quantity);
gboolean           xrlab_plot_controls_get_x_log    (XrlabPlotControls *self);
void               xrlab_plot_controls_set_x_log    (XrlabPlotControls *self, gboolean x_log);
gboolean           xrlab_plot_controls_get_y_log    (XrlabPlotControls *self);
void               xrlab_plot_controls_set_y_log    (XrlabPlotControls *self, gboolean y_log);

G_END_DECLS
