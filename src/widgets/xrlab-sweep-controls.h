/* xrlab-sweep-controls.h -- start, stop, number of points, spacing, unit
 * and table choice (auto, Henke, Chantler) of the energy sweep
 *
 * Every edit is checked at once; a value outside the tables is refused
 * inline, with the valid range in the current unit, and "changed" is only
 * emitted for valid sweeps.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "xrlab-sweep.h"

G_BEGIN_DECLS

#define XRLAB_TYPE_SWEEP_CONTROLS (xrlab_sweep_controls_get_type ())
G_DECLARE_FINAL_TYPE (XrlabSweepControls, xrlab_sweep_controls, XRLAB, SWEEP_CONTROLS, GtkWidget)

GtkWidget  *xrlab_sweep_controls_new       (void);

/* The last valid sweep. */
void        xrlab_sweep_controls_get_sweep (XrlabSweepControls *self,
                                            XrlabSweep         *sweep);
/* Shows @sweep (which need not be valid: the error is shown then). */
void        xrlab_sweep_controls_set_sweep (XrlabSweepControls *self,
                                            const XrlabSweep   *sweep);

/* The energies accepted: [@range->complete_min_ev, @range->max_ev]; NULL
 * (the default): the range of the sweep's table choice
 * (xrlab_sweep_get_range(): up to 966 keV with Chantler and auto). @range
 * must stay valid (the engine's rows do). */
void        xrlab_sweep_controls_set_range (XrlabSweepControls     *self,
                                            const XrlabEnergyRange *range);

gboolean    xrlab_sweep_controls_is_valid  (XrlabSweepControls *self);
/* The inline message, or NULL ("error" notifies when it changes). */
const char *xrlab_sweep_controls_get_error (XrlabSweepControls *self);
/* Focuses the entry that is wrong (the start entry when none is). */
void        xrlab_sweep_controls_focus_error (XrlabSweepControls *self);
/* What was changed in the input (points beyond the limits were clamped),
 * or NULL. */
const char *xrlab_sweep_controls_get_note  (XrlabSweepControls *self);

/* The entries, for tests. */
GtkEditable *xrlab_sweep_controls_get_start_editable (XrlabSweepControls *self);
GtkEditable *xrlab_sweep_controls_get_stop_editable  (XrlabSweepControls *self);
GtkSpinButton *xrlab_sweep_controls_get_points_spin  (XrlabSweepControls *self);
void         xrlab_sweep_controls_set_unit  (XrlabSweepControls *self,
                                             XrlabEnergyUnit     unit);
void         xrlab_sweep_controls_set_table (XrlabSweepControls *self,
                                             XrlabTableChoice    table);

G_END_DECLS
