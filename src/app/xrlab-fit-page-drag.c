/* xrlab-fit-page-drag.c -- values dragged with the pointer: a peak on the
 * spectrum, a number in the parameter table
 *
 * A press near the maximum of a component on the spectrum (within
 * PEAK_GRAB_PX) grabs it: its top then moves as the pointer does -- its
 * position (the component's "_x0" parameter) by the pointer's move in
 * energy, its height (the "_A" parameter, scaled) by the move in
 * intensity. Elsewhere the
 * plot's own gestures (zoom, pan, pins) have the press. A horizontal drag
 * on a value of the table changes it by a step scaled to its magnitude
 * (a hundredth of its decade per pixel, ten times finer with Shift).
 *
 * Either way the new values go into the table's entries, which send them
 * as typed values (xrlab-fit-page-table.c): the table follows, and the
 * preview round that answers them is one per burst of edits. The spectrum
 * sends what a drag changed once per frame at most.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-fit-page-private.h"

#include <math.h>
#include <stdlib.h>

#define PEAK_GRAB_PX 12.0

struct _XrlabFitPeakDrag {
  gboolean active;
  char *x0_name, *a_name;          /* NULL: the component has none */
  double x0, a;                    /* their values when the drag began */
  double height;                   /* the peak's maximum then */
  double press_e, press_h;         /* the pointer then, in data units */
  double new_x0, new_a;            /* as dragged, not sent yet (NaN: sent) */
  guint tick_id;
};

static XrlabFitPeakDrag *
peak_drag (XrlabFitPage *self)
{
  if (self->peak_drag == NULL)
    self->peak_drag = g_new0 (XrlabFitPeakDrag, 1);
  return self->peak_drag;
}

void
xrlab_fit_page_drag_dispose (XrlabFitPage *self)
{
  XrlabFitPeakDrag *d = self->peak_drag;

  if (d == NULL)
    return;
  if (d->tick_id != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self->spectrum), d->tick_id);
  g_free (d->x0_name);
  g_free (d->a_name);
  g_clear_pointer (&self->peak_drag, g_free);
}

/* ---- peaks --------------------------------------------------------------------- */

static char *
param_of (XrlabFitPage *self, const char *component, const char *suffix, double *value)
{
  g_autofree char *name = g_strconcat (component, suffix, NULL);
  XrlabFitRow *row = xrlab_fit_page_table_find (self, name);

  if (row == NULL || !gtk_editable_get_editable (xrlab_fit_row_get_value_entry (row))
      || !xrlab_fit_page_get_param_value (self, name, value, NULL) || !isfinite (*value))
    return NULL;
  return g_steal_pointer (&name);
}

gboolean
xrlab_fit_page_peak_at (XrlabFitPage *self, guint k, double *px, double *py)
{
  const XrlabPlotSeries *s;
  XrlabPlotData *data = xrlab_plot_get_data (self->spectrum);
  const XrlabPlotFrame *f = xrlab_plot_get_frame (self->spectrum);
  gsize best = 0;

  g_return_val_if_fail (XRLAB_IS_FIT_PAGE (self), FALSE);
  /* the series: data, the components, the model (xrlab-fit-page-data.c) */
  if (data == NULL || !f->valid || k + 2 >= xrlab_plot_data_get_n_series (data))
    return FALSE;
  s = xrlab_plot_data_get_series (data, k + 1);
  for (gsize i = 1; i < s->n; i++)
    if (s->y[i] > s->y[best] || !isfinite (s->y[best]))
      best = i;
  if (s->n == 0 || !isfinite (s->y[best]))
    return FALSE;
  *px = xrlab_plot_frame_x_to_px (f, s->x[best]);
  *py = xrlab_plot_frame_y_to_py (f, s->y[best]);
  return isfinite (*px) && isfinite (*py);
}

/* Grabs the component whose maximum is nearest (@x, @y), within reach:
 * the peak then follows the pointer's moves. */
static gboolean
peak_grab (XrlabFitPage *self, double x, double y)
{
  XrlabFitPeakDrag *d = peak_drag (self);
  XrlabPlotData *data = xrlab_plot_get_data (self->spectrum);
  const XrlabPlotFrame *f = xrlab_plot_get_frame (self->spectrum);
  guint n = data != NULL ? xrlab_plot_data_get_n_series (data) : 0, best = G_MAXUINT;
  double best_d = PEAK_GRAB_PX, px, py;
  const XrlabPlotSeries *s;

  if (self->fitting || self->stale)
    return FALSE;
  for (guint k = 0; k + 2 < n; k++)
    if (xrlab_fit_page_peak_at (self, k, &px, &py) && hypot (px - x, py - y) <= best_d)
      best_d = hypot (px - x, py - y), best = k;
  if (best == G_MAXUINT)
    return FALSE;
  s = xrlab_plot_data_get_series (data, best + 1);
  g_clear_pointer (&d->x0_name, g_free);
  g_clear_pointer (&d->a_name, g_free);
  d->x0_name = param_of (self, s->label, "_x0", &d->x0);
  d->a_name = param_of (self, s->label, "_A", &d->a);
  if (d->x0_name == NULL && d->a_name == NULL)
    return FALSE;
  xrlab_fit_page_peak_at (self, best, &px, &py);
  d->height = xrlab_plot_frame_py_to_y (f, py);
  d->press_e = xrlab_plot_frame_px_to_x (f, x);
  d->press_h = xrlab_plot_frame_py_to_y (f, y);
  d->new_x0 = d->new_a = NAN;
  d->active = TRUE;
  return TRUE;
}

static void
send_value (XrlabFitPage *self, const char *name, double *value)
{
  char text[G_ASCII_DTOSTR_BUF_SIZE];

  if (name == NULL || !isfinite (*value))
    return;
  g_snprintf (text, sizeof text, "%.6g", *value);
  xrlab_fit_page_set_param_text (self, name, text);
  *value = NAN;
}

/* What the drag changed since the last frame, into the table. */
static void
peak_flush (XrlabFitPage *self)
{
  XrlabFitPeakDrag *d = peak_drag (self);

  send_value (self, d->x0_name, &d->new_x0);
  send_value (self, d->a_name, &d->new_a);
}

static gboolean
peak_tick (GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
  XrlabFitPage *self = data;

  peak_flush (self);
  self->peak_drag->tick_id = 0;
  return G_SOURCE_REMOVE;
}

static void
peak_move (XrlabFitPage *self, double x, double y, gboolean now)
{
  XrlabFitPeakDrag *d = peak_drag (self);
  const XrlabPlotFrame *f = xrlab_plot_get_frame (self->spectrum);
  double e, h;

  if (!d->active || !f->valid)
    return;
  e = xrlab_plot_frame_px_to_x (f, x);
  h = xrlab_plot_frame_py_to_y (f, y);
  if (d->x0_name != NULL)
    d->new_x0 = d->x0 + (e - d->press_e);
  /* The top of the peak moves as the pointer does (never below 1 % of it). */
  if (d->a_name != NULL && d->height > 0)
    d->new_a = d->a * MAX ((d->height + h - d->press_h) / d->height, 0.01);
  if (now)
    peak_flush (self);
  else if (d->tick_id == 0)
    d->tick_id = gtk_widget_add_tick_callback (GTK_WIDGET (self->spectrum), peak_tick, self, NULL);
}

static void
on_peak_begin (GtkGestureDrag *gesture, double x, double y, XrlabFitPage *self)
{
  if (peak_grab (self, x, y))
    gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  else
    gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
}

static void
on_peak_update (GtkGestureDrag *gesture, double dx, double dy, XrlabFitPage *self)
{
  double x0, y0;

  if (gtk_gesture_drag_get_start_point (gesture, &x0, &y0))
    peak_move (self, x0 + dx, y0 + dy, FALSE);
}

static void
on_peak_end (GtkGestureDrag *gesture, double dx, double dy, XrlabFitPage *self)
{
  double x0, y0;

  if (gtk_gesture_drag_get_start_point (gesture, &x0, &y0))
    peak_move (self, x0 + dx, y0 + dy, TRUE);
  peak_drag (self)->active = FALSE;
}

gboolean
xrlab_fit_page_spectrum_drag (XrlabFitPage *self, double x0, double y0, double x1, double y1)
{
  g_return_val_if_fail (XRLAB_IS_FIT_PAGE (self), FALSE);
  if (!peak_grab (self, x0, y0))
    return FALSE;
  peak_move (self, x1, y1, TRUE);
  peak_drag (self)->active = FALSE;
  return TRUE;
}

void
xrlab_fit_page_drag_init (XrlabFitPage *self)
{
  GtkGesture *drag = gtk_gesture_drag_new ();

  /* Before the plot's own drags: it claims a press near a peak only. */
  gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (drag), GTK_PHASE_CAPTURE);
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), GDK_BUTTON_PRIMARY);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_peak_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_peak_update), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (on_peak_end), self);
  gtk_widget_add_controller (GTK_WIDGET (self->spectrum), GTK_EVENT_CONTROLLER (drag));
}

/* ---- numbers of the table ----------------------------------------------------------- */

typedef struct {
  GtkWidget *entry;
  double v0;
  gboolean dragging;
} ValueDrag;

/* The step per pixel of a value: a hundredth of its decade. */
static double
value_step (double v)
{
  return v != 0 ? pow (10, floor (log10 (fabs (v)))) / 100 : 0.01;
}

static double
drag_value (double v0, double dx, gboolean fine)
{
  return v0 + dx * value_step (v0) * (fine ? 0.1 : 1.0);
}

static void
on_value_drag_update (GtkGestureDrag *gesture, double dx, double dy, ValueDrag *vd)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));
  char text[G_ASCII_DTOSTR_BUF_SIZE];
  char *end;

  if (!vd->dragging)
    {
      const char *t = gtk_editable_get_text (GTK_EDITABLE (vd->entry));

      /* Horizontal, past the threshold, on a number one may edit: a drag. */
      if (fabs (dx) < 8 || fabs (dx) < 2 * fabs (dy) || !gtk_editable_get_editable (GTK_EDITABLE (vd->entry)))
        return;
      vd->v0 = g_ascii_strtod (t, &end);
      if (end == t || *end != '\0' || !isfinite (vd->v0))
        {
          gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
          return;
        }
      vd->dragging = TRUE;
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
    }
  g_snprintf (text, sizeof text, "%.6g", drag_value (vd->v0, dx, (state & GDK_SHIFT_MASK) != 0));
  gtk_editable_set_text (GTK_EDITABLE (vd->entry), text);
}

static void
on_value_drag_end (GtkGestureDrag *gesture, double dx, double dy, ValueDrag *vd)
{
  vd->dragging = FALSE;
}

void
xrlab_fit_page_drag_attach_value (GtkWidget *entry)
{
  GtkGesture *drag = gtk_gesture_drag_new ();
  ValueDrag *vd = g_new0 (ValueDrag, 1);

  vd->entry = entry;
  gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (drag), GTK_PHASE_CAPTURE);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_value_drag_update), vd);
  g_signal_connect (drag, "drag-end", G_CALLBACK (on_value_drag_end), vd);
  g_object_set_data_full (G_OBJECT (drag), "xrlab-value-drag", vd, g_free);
  gtk_widget_add_controller (entry, GTK_EVENT_CONTROLLER (drag));
}

GtkWidget *
xrlab_fit_page_get_param_entry (XrlabFitPage *self, const char *name)
{
  XrlabFitRow *row;

  g_return_val_if_fail (XRLAB_IS_FIT_PAGE (self), NULL);
  row = xrlab_fit_page_table_find (self, name);
  return row != NULL ? GTK_WIDGET (xrlab_fit_row_get_value_entry (row)) : NULL;
}
