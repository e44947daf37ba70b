/* xrlab-plot-input.c -- exploring an XrlabPlot: zoom, pan, pins, typed
 * axis limits, the context menu and the plot.* actions
 *
 * The view is two pairs of limits in data units (NaN: automatic). Zooming
 * and panning work in world coordinates (log10 of the value on a log axis)
 * on the last frame's window, which is updated at once, so a burst of
 * wheel events before the next frame zooms from where the previous one
 * left off. Zooming x alone leaves y automatic: y then follows the data
 * inside the new x range.
 *
 *   wheel                  zoom x about the pointer (Shift: y, Ctrl: both)
 *   primary drag           zoom to the rectangle (flat: x only, narrow: y only)
 *   middle drag, Space+drag  pan
 *   double click, Home     automatic limits ("Reset View" button too)
 *   click                  pin the readout at that x; on a pin: remove it
 *   click under the x axis / left of the y axis   type that axis' limits
 *   secondary click        the menu of the actions
 *   + / -                  zoom in / out about the middle
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-plot-private.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "xrlab-user-number.h"

enum { DRAG_NONE, DRAG_RECT, DRAG_PAN };

struct _XrlabPlotInput {
  GtkGesture *click, *drag, *middle;
  GtkEventController *scroll, *keys, *motion;
  gboolean space;
  double pointer_x, pointer_y;

  /* a drag: its start and offset in widget pixels, the world window then */
  int mode;
  double x0, y0, dx, dy;
  double start[4];
  gboolean moved;

  /* the pin change of the last single click, undone by a double click */
  int click_pin;                 /* 0 none, 1 added, 2 removed */
  double click_pin_x;

  GtkWidget *reset_button;
  double button_px1, button_py1; /* the frame the button was placed for */
  GtkWidget *menu;
  GtkWidget *limits;             /* the popover */
  GtkWidget *limits_title, *from_entry, *to_entry, *limits_error;
  gboolean limits_y;
};

/* ---- the view ------------------------------------------------------------------- */

static gboolean
limits_ok (double min, double max, gboolean log)
{
  return isfinite (min) && isfinite (max) && min < max && (!log || min > 0);
}

/* Sets the frame's world window along one axis at once, so a following
 * zoom starts from there before the next frame is rendered. */
static void
frame_follow (XrlabPlot *self, gboolean y)
{
  XrlabPlotFrame *f = &self->frame;
  double min = y ? self->y_min : self->x_min, max = y ? self->y_max : self->x_max;
  gboolean log = y ? self->y_log : self->x_log;

  if (!f->valid || !limits_ok (min, max, log))
    return;
  if (y)
    {
      f->wy0 = log ? log10 (min) : min;
      f->wy1 = log ? log10 (max) : max;
    }
  else
    {
      /* a reversed axis has its high end at px0 */
      f->wx0 = log ? log10 (self->x_reversed ? max : min) : self->x_reversed ? max : min;
      f->wx1 = log ? log10 (self->x_reversed ? min : max) : self->x_reversed ? min : max;
    }
}

static gboolean
set_limits (XrlabPlot *self, gboolean y, double min, double max)
{
  double *pmin = y ? &self->y_min : &self->x_min, *pmax = y ? &self->y_max : &self->x_max;
  gboolean log = y ? self->y_log : self->x_log;

  if (!limits_ok (min, max, log))
    min = max = NAN;
  if ((isnan (*pmin) && isnan (min)) || (*pmin == min && *pmax == max))
    return FALSE;
  *pmin = min;
  *pmax = max;
  frame_follow (self, y);
  return TRUE;
}

void
xrlab_plot_set_x_limits (XrlabPlot *self, double min, double max)
{
  g_return_if_fail (XRLAB_IS_PLOT (self));
  if (set_limits (self, FALSE, min, max))
    xrlab_plot_view_changed (self);
}

void
xrlab_plot_set_y_limits (XrlabPlot *self, double min, double max)
{
  g_return_if_fail (XRLAB_IS_PLOT (self));
  if (set_limits (self, TRUE, min, max))
    xrlab_plot_view_changed (self);
}

gboolean
xrlab_plot_get_x_limits (XrlabPlot *self, double *min, double *max)
{
  g_return_val_if_fail (XRLAB_IS_PLOT (self), FALSE);
  if (min != NULL)
    *min = self->x_min;
  if (max != NULL)
    *max = self->x_max;
  return !isnan (self->x_min);
}

gboolean
xrlab_plot_get_y_limits (XrlabPlot *self, double *min, double *max)
{
  g_return_val_if_fail (XRLAB_IS_PLOT (self), FALSE);
  if (min != NULL)
    *min = self->y_min;
  if (max != NULL)
    *max = self->y_max;
  return !isnan (self->y_min);
}

gboolean
xrlab_plot_get_zoomed (XrlabPlot *self)
{
  g_return_val_if_fail (XRLAB_IS_PLOT (self), FALSE);
  return !isnan (self->x_min) || !isnan (self->y_min);
}

void
xrlab_plot_reset_view (XrlabPlot *self)
{
  gboolean changed;

  g_return_if_fail (XRLAB_IS_PLOT (self));
  changed = set_limits (self, FALSE, NAN, NAN);
  changed |= set_limits (self, TRUE, NAN, NAN);
  if (changed)
    xrlab_plot_view_changed (self);
}

/* World window [@w0, @w1] of one axis as data limits (either order: a
 * reversed axis gives its high end first). */
static gboolean
set_world (XrlabPlot *self, gboolean y, double a, double b)
{
  gboolean log = y ? self->y_log : self->x_log;
  double w0 = MIN (a, b), w1 = MAX (a, b);
  double span = w1 - w0, mid = (w0 + w1) / 2;

  /* Not narrower than the numbers can tell apart, nor wider than sense. */
  if (!(span > (log ? 1e-9 : 1e-12 * MAX (fabs (mid), 1e-300))) || !(span < (log ? 300 : 1e300)))
    return FALSE;
  if (log)
    return set_limits (self, y, pow (10, w0), pow (10, w1));
  return set_limits (self, y, w0, w1);
}

gboolean
xrlab_plot_zoom_at (XrlabPlot *self, double factor_x, double factor_y, double px, double py)
{
  const XrlabPlotFrame *f = &self->frame;
  gboolean changed = FALSE;

  g_return_val_if_fail (XRLAB_IS_PLOT (self), FALSE);
  if (!f->valid || !(factor_x > 0) || !(factor_y > 0))
    return FALSE;
  px = CLAMP (px, f->px0, f->px1);
  py = CLAMP (py, f->py0, f->py1);
  if (factor_x != 1)
    {
      double w = f->wx0 + (px - f->px0) / (f->px1 - f->px0) * (f->wx1 - f->wx0);
      changed |= set_world (self, FALSE, w - (w - f->wx0) / factor_x, w + (f->wx1 - w) / factor_x);
    }
  if (factor_y != 1)
    {
      double w = f->wy0 + (f->py1 - py) / (f->py1 - f->py0) * (f->wy1 - f->wy0);
      changed |= set_world (self, TRUE, w - (w - f->wy0) / factor_y, w + (f->wy1 - w) / factor_y);
    }
  if (changed)
    xrlab_plot_view_changed (self);
  return changed;
}

/* Moves the world window @start by (@dx, @dy) pixels of the frame. */
static gboolean
pan_from (XrlabPlot *self, const double start[4], double dx, double dy)
{
  const XrlabPlotFrame *f = &self->frame;
  gboolean changed = FALSE;

  if (!f->valid)
    return FALSE;
  if (dx != 0)
    {
      double s = dx / (f->px1 - f->px0) * (start[1] - start[0]);
      changed |= set_world (self, FALSE, start[0] - s, start[1] - s);
    }
  if (dy != 0)
    {
      double s = dy / (f->py1 - f->py0) * (start[3] - start[2]);
      changed |= set_world (self, TRUE, start[2] + s, start[3] + s);
    }
  if (changed)
    xrlab_plot_view_changed (self);
  return changed;
}

gboolean
xrlab_plot_pan (XrlabPlot *self, double dx, double dy)
{
  const XrlabPlotFrame *f = &self->frame;
  double start[4] = { f->wx0, f->wx1, f->wy0, f->wy1 };

  g_return_val_if_fail (XRLAB_IS_PLOT (self), FALSE);
  return pan_from (self, start, dx, dy);
}

gboolean
xrlab_plot_zoom_to_rect (XrlabPlot *self, double px0, double py0, double px1, double py1)
{
  const XrlabPlotFrame *f = &self->frame;
  gboolean changed = FALSE;
  double w = fabs (px1 - px0), h = fabs (py1 - py0);

  g_return_val_if_fail (XRLAB_IS_PLOT (self), FALSE);
  if (!f->valid || (w < 6 && h < 6))
    return FALSE;
  px0 = CLAMP (px0, f->px0, f->px1);
  px1 = CLAMP (px1, f->px0, f->px1);
  py0 = CLAMP (py0, f->py0, f->py1);
  py1 = CLAMP (py1, f->py0, f->py1);
  /* A flat band zooms x only, a narrow one y only. */
  if (w >= 6)
    {
      double a = f->wx0 + (MIN (px0, px1) - f->px0) / (f->px1 - f->px0) * (f->wx1 - f->wx0);
      double b = f->wx0 + (MAX (px0, px1) - f->px0) / (f->px1 - f->px0) * (f->wx1 - f->wx0);
      changed |= set_world (self, FALSE, a, b);
    }
  if (h >= 6)
    {
      double a = f->wy0 + (f->py1 - MAX (py0, py1)) / (f->py1 - f->py0) * (f->wy1 - f->wy0);
      double b = f->wy0 + (f->py1 - MIN (py0, py1)) / (f->py1 - f->py0) * (f->wy1 - f->wy0);
      changed |= set_world (self, TRUE, a, b);
    }
  if (changed)
    xrlab_plot_view_changed (self);
  return changed;
}

/* ---- the axis limits popover ----------------------------------------------------- */

/* A number as typed ('.' or ',' as the decimal mark, an exponent), and
 * as shown (the locale's mark): xrlab-user-number.h. */
static gboolean
parse_limit (const char *text, double *v)
{
  return xrlab_parse_user_number (text, v);
}

static char *
format_limit (double v)
{
  return xrlab_format_user_number (v, FALSE);
}

static void
limits_error (XrlabPlotInput *in, const char *message)
{
  gtk_label_set_text (GTK_LABEL (in->limits_error), message != NULL ? message : "");
  gtk_widget_set_visible (in->limits_error, message != NULL);
}

static void
on_limits_apply (XrlabPlot *self)
{
  XrlabPlotInput *in = self->input;
  const char *from = gtk_editable_get_text (GTK_EDITABLE (in->from_entry));
  const char *to = gtk_editable_get_text (GTK_EDITABLE (in->to_entry));
  gboolean log = in->limits_y ? self->y_log : self->x_log;
  double a, b;

  gtk_widget_remove_css_class (in->from_entry, "error");
  gtk_widget_remove_css_class (in->to_entry, "error");
  if (!parse_limit (from, &a) || !parse_limit (to, &b))
    {
      g_autofree char *msg = g_strdup_printf (_("“%s” is not a number"), !parse_limit (from, &a) ? from : to);
      gtk_widget_add_css_class (!parse_limit (from, &a) ? in->from_entry : in->to_entry, "error");
      limits_error (in, msg);
      return;
    }
  if (a > b)
    {
      double t = a;
      a = b;
      b = t;
    }
  if (!(a < b))
    {
      gtk_widget_add_css_class (in->to_entry, "error");
      limits_error (in, _("The limits must differ"));
      return;
    }
  if (log && a <= 0)
    {
      gtk_widget_add_css_class (in->from_entry, "error");
      limits_error (in, _("A logarithmic axis needs limits above 0"));
      return;
    }
  limits_error (in, NULL);
  if (in->limits_y)
    xrlab_plot_set_y_limits (self, a, b);
  else
    xrlab_plot_set_x_limits (self, a, b);
  gtk_popover_popdown (GTK_POPOVER (in->limits));
}

static void
on_limits_automatic (XrlabPlot *self)
{
  if (self->input->limits_y)
    xrlab_plot_set_y_limits (self, NAN, NAN);
  else
    xrlab_plot_set_x_limits (self, NAN, NAN);
  gtk_popover_popdown (GTK_POPOVER (self->input->limits));
}

static GtkWidget *
limits_row (GtkGrid *grid, int row, const char *label, GtkWidget **entry, XrlabPlot *self)
{
  GtkWidget *l = gtk_label_new_with_mnemonic (label);

  gtk_widget_set_halign (l, GTK_ALIGN_END);
  *entry = gtk_entry_new ();
  gtk_editable_set_width_chars (GTK_EDITABLE (*entry), 12);
  gtk_entry_set_input_purpose (GTK_ENTRY (*entry), GTK_INPUT_PURPOSE_NUMBER);
  gtk_label_set_mnemonic_widget (GTK_LABEL (l), *entry);
  g_signal_connect_swapped (*entry, "activate", G_CALLBACK (on_limits_apply), self);
  gtk_grid_attach (grid, l, 0, row, 1, 1);
  gtk_grid_attach (grid, *entry, 1, row, 1, 1);
  return l;
}

static void
build_limits_popover (XrlabPlot *self)
{
  XrlabPlotInput *in = self->input;
  GtkWidget *grid = gtk_grid_new (), *buttons, *apply, *automatic;

  gtk_grid_set_row_spacing (GTK_GRID (grid), 6);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 8);
  in->limits_title = gtk_label_new (NULL);
  gtk_widget_add_css_class (in->limits_title, "heading");
  gtk_widget_set_halign (in->limits_title, GTK_ALIGN_START);
  gtk_grid_attach (GTK_GRID (grid), in->limits_title, 0, 0, 2, 1);
  limits_row (GTK_GRID (grid), 1, _("_From"), &in->from_entry, self);
  limits_row (GTK_GRID (grid), 2, _("_To"), &in->to_entry, self);
  in->limits_error = gtk_label_new (NULL);
  gtk_widget_add_css_class (in->limits_error, "error");
  gtk_label_set_wrap (GTK_LABEL (in->limits_error), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (in->limits_error), 28);
  gtk_widget_set_visible (in->limits_error, FALSE);
  gtk_grid_attach (GTK_GRID (grid), in->limits_error, 0, 3, 2, 1);

  buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_set_halign (buttons, GTK_ALIGN_END);
  automatic = gtk_button_new_with_mnemonic (_("_Automatic"));
  gtk_widget_set_tooltip_text (automatic, _("Follow the data again"));
  apply = gtk_button_new_with_mnemonic (_("_Apply"));
  gtk_widget_add_css_class (apply, "suggested-action");
  g_signal_connect_swapped (apply, "clicked", G_CALLBACK (on_limits_apply), self);
  g_signal_connect_swapped (automatic, "clicked", G_CALLBACK (on_limits_automatic), self);
  gtk_box_append (GTK_BOX (buttons), automatic);
  gtk_box_append (GTK_BOX (buttons), apply);
  gtk_grid_attach (GTK_GRID (grid), buttons, 0, 4, 2, 1);

  in->limits = gtk_popover_new ();
  gtk_popover_set_child (GTK_POPOVER (in->limits), grid);
  gtk_widget_set_parent (in->limits, GTK_WIDGET (self));
}

/* Opens the popover for the y axis (or x) pointing at (@px, @py). */
static void
open_limits (XrlabPlot *self, gboolean y, double px, double py)
{
  XrlabPlotInput *in = self->input;
  const char *name = y ? self->y_name : self->x_name, *unit = y ? self->y_unit : self->x_unit;
  double min, max;
  g_autofree char *title = NULL, *a = NULL, *b = NULL;
  GdkRectangle rect = { (int) px, (int) py, 1, 1 };

  if (!self->frame.valid)
    return;
  in->limits_y = y;
  xrlab_plot_frame_get_limits (&self->frame, &min, &max, NULL, NULL);
  if (y)
    xrlab_plot_frame_get_limits (&self->frame, NULL, NULL, &min, &max);
  title = unit != NULL && unit[0] != '\0' ? g_strdup_printf ("%s (%s)", name != NULL ? name : "", unit)
                                          : g_strdup (name != NULL ? name : "");
  gtk_label_set_text (GTK_LABEL (in->limits_title), title);
  a = format_limit (min);
  b = format_limit (max);
  gtk_editable_set_text (GTK_EDITABLE (in->from_entry), a);
  gtk_editable_set_text (GTK_EDITABLE (in->to_entry), b);
  gtk_widget_remove_css_class (in->from_entry, "error");
  gtk_widget_remove_css_class (in->to_entry, "error");
  limits_error (in, NULL);
  gtk_popover_set_pointing_to (GTK_POPOVER (in->limits), &rect);
  gtk_popover_set_position (GTK_POPOVER (in->limits), y ? GTK_POS_RIGHT : GTK_POS_TOP);
  gtk_popover_popup (GTK_POPOVER (in->limits));
  gtk_widget_grab_focus (in->from_entry);
}

/* ---- pointer and keys ------------------------------------------------------------- */

static gboolean
in_plot (const XrlabPlotFrame *f, double x, double y)
{
  return f->valid && x >= f->px0 && x <= f->px1 && y >= f->py0 && y <= f->py1;
}

static void
on_click_pressed (GtkGestureClick *gesture, int n_press, double x, double y, XrlabPlot *self)
{
  XrlabPlotInput *in = self->input;
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));

  if (button == GDK_BUTTON_SECONDARY)
    {
      GdkRectangle rect = { (int) x, (int) y, 1, 1 };
      gtk_popover_set_pointing_to (GTK_POPOVER (in->menu), &rect);
      gtk_popover_popup (GTK_POPOVER (in->menu));
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
      return;
    }
  gtk_widget_grab_focus (GTK_WIDGET (self));
  if (n_press == 2 && in_plot (&self->frame, x, y))
    {
      /* Undo what the first click did to the pins, then reset. */
      if (in->click_pin == 1 && self->pins->len > 0)
        g_array_set_size (self->pins, self->pins->len - 1);
      else if (in->click_pin == 2)
        g_array_append_val (self->pins, in->click_pin_x);
      in->click_pin = 0;
      xrlab_plot_reset_view (self);
      xrlab_plot_view_changed (self);
    }
}

static void
on_click_released (GtkGestureClick *gesture, int n_press, double x, double y, XrlabPlot *self)
{
  XrlabPlotInput *in = self->input;
  const XrlabPlotFrame *f = &self->frame;
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));
  int near;

  if (button != GDK_BUTTON_PRIMARY || n_press != 1 || in->moved || in->space || !f->valid)
    return;
  in->click_pin = 0;
  if (in_plot (f, x, y))
    {
      near = xrlab_plot_pin_near (self, x);
      if (near >= 0)
        {
          in->click_pin = 2;
          in->click_pin_x = g_array_index (self->pins, double, near);
          xrlab_plot_remove_pin (self, (guint) near);
        }
      else if (self->data != NULL && xrlab_plot_data_get_n_series (self->data) > 0)
        {
          in->click_pin = 1;
          xrlab_plot_add_pin (self, xrlab_plot_frame_px_to_x (f, x));
        }
    }
  else if (y > f->py1 && x >= f->px0 - 10 && x <= f->px1 + 10)
    open_limits (self, FALSE, x, y);
  else if (x < f->px0 && y >= f->py0 - 10 && y <= f->py1 + 10)
    open_limits (self, TRUE, x, y);
}

static void
drag_begin (XrlabPlot *self, double x, double y, int mode)
{
  XrlabPlotInput *in = self->input;
  const XrlabPlotFrame *f = &self->frame;

  in->mode = mode;
  in->x0 = x;
  in->y0 = y;
  in->dx = in->dy = 0;
  in->moved = FALSE;
  in->start[0] = f->wx0;
  in->start[1] = f->wx1;
  in->start[2] = f->wy0;
  in->start[3] = f->wy1;
}

static void
on_drag_begin (GtkGestureDrag *gesture, double x, double y, XrlabPlot *self)
{
  XrlabPlotInput *in = self->input;
  gboolean middle = GTK_GESTURE (gesture) == in->middle;

  in->moved = FALSE;
  if (!in_plot (&self->frame, x, y))
    {
      in->mode = DRAG_NONE;
      return;
    }
  drag_begin (self, x, y, middle || in->space ? DRAG_PAN : DRAG_RECT);
}

static void
on_drag_update (GtkGestureDrag *gesture, double dx, double dy, XrlabPlot *self)
{
  XrlabPlotInput *in = self->input;

  if (in->mode == DRAG_NONE)
    return;
  in->dx = dx;
  in->dy = dy;
  if (!in->moved && gtk_drag_check_threshold (GTK_WIDGET (self), 0, 0, (int) dx, (int) dy))
    {
      in->moved = TRUE;
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
    }
  if (!in->moved)
    return;
  if (in->mode == DRAG_PAN)
    pan_from (self, in->start, dx, dy);
  else
    gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_drag_end (GtkGestureDrag *gesture, double dx, double dy, XrlabPlot *self)
{
  XrlabPlotInput *in = self->input;
  int mode = in->mode;

  in->mode = DRAG_NONE;
  if (!in->moved)
    return;
  if (mode == DRAG_RECT)
    {
      xrlab_plot_zoom_to_rect (self, in->x0, in->y0, in->x0 + dx, in->y0 + dy);
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

static void
on_drag_cancel (GtkGesture *gesture, GdkEventSequence *sequence, XrlabPlot *self)
{
  self->input->mode = DRAG_NONE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static gboolean
on_scroll (GtkEventControllerScroll *controller, double dx, double dy, XrlabPlot *self)
{
  XrlabPlotInput *in = self->input;
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));
  double steps = dy != 0 ? dy : dx, factor;
  gboolean y_axis = (state & GDK_SHIFT_MASK) != 0 || (dy == 0 && dx != 0);
  gboolean both = (state & GDK_CONTROL_MASK) != 0;

  if (!in_plot (&self->frame, in->pointer_x, in->pointer_y) || steps == 0)
    return FALSE;
  /* A wheel's notch is one step; a touchpad's pixels, a twentieth each. */
  if (gtk_event_controller_scroll_get_unit (controller) == GDK_SCROLL_UNIT_SURFACE)
    steps /= 20;
  factor = pow (1.25, -steps);
  xrlab_plot_zoom_at (self, both || !y_axis ? factor : 1, both || y_axis ? factor : 1,
                      in->pointer_x, in->pointer_y);
  return TRUE;
}

static void
on_pointer (GtkEventControllerMotion *controller, double x, double y, XrlabPlot *self)
{
  self->input->pointer_x = x;
  self->input->pointer_y = y;
}

static gboolean
on_key_pressed (GtkEventControllerKey *keys, guint keyval, guint keycode, GdkModifierType state,
                XrlabPlot *self)
{
  XrlabPlotInput *in = self->input;

  if (keyval == GDK_KEY_space)
    {
      in->space = TRUE;
      return TRUE;
    }
  if (keyval == GDK_KEY_Escape && in->mode != DRAG_NONE)
    {
      in->mode = DRAG_NONE;
      gtk_gesture_set_state (in->drag, GTK_EVENT_SEQUENCE_DENIED);
      gtk_widget_queue_draw (GTK_WIDGET (self));
      return TRUE;
    }
  return FALSE;
}

static void
on_key_released (GtkEventControllerKey *keys, guint keyval, guint keycode, GdkModifierType state,
                 XrlabPlot *self)
{
  if (keyval == GDK_KEY_space)
    self->input->space = FALSE;
}

/* ---- actions ------------------------------------------------------------------- */

static void
zoom_centre (XrlabPlot *self, double factor)
{
  const XrlabPlotFrame *f = &self->frame;
  gboolean y_fixed = !isnan (self->y_min);

  xrlab_plot_zoom_at (self, factor, y_fixed ? factor : 1, (f->px0 + f->px1) / 2, (f->py0 + f->py1) / 2);
}

static void
action_reset_view (GtkWidget *widget, const char *name, GVariant *param)
{
  xrlab_plot_reset_view (XRLAB_PLOT (widget));
}

static void
action_zoom_in (GtkWidget *widget, const char *name, GVariant *param)
{
  zoom_centre (XRLAB_PLOT (widget), 1.5);
}

static void
action_zoom_out (GtkWidget *widget, const char *name, GVariant *param)
{
  zoom_centre (XRLAB_PLOT (widget), 1 / 1.5);
}

static void
action_set_limits (GtkWidget *widget, const char *name, GVariant *param)
{
  XrlabPlot *self = XRLAB_PLOT (widget);
  const XrlabPlotFrame *f = &self->frame;
  gboolean y = g_str_equal (name, "plot.set-y-limits");

  if (y)
    open_limits (self, TRUE, f->px0 - 6, (f->py0 + f->py1) / 2);
  else
    open_limits (self, FALSE, (f->px0 + f->px1) / 2, f->py1 + 6);
}

static guint signal_pins_copied;

static void
action_copy_pins (GtkWidget *widget, const char *name, GVariant *param)
{
  XrlabPlot *self = XRLAB_PLOT (widget);
  g_autofree char *table = xrlab_plot_get_pins_table (self, '\t');

  if (table == NULL)
    return;
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), table);
  g_signal_emit (self, signal_pins_copied, 0, self->pins->len);
}

static void
action_clear_pins (GtkWidget *widget, const char *name, GVariant *param)
{
  xrlab_plot_clear_pins (XRLAB_PLOT (widget));
}

void
xrlab_plot_input_update (XrlabPlot *self)
{
  GtkWidget *w = GTK_WIDGET (self);
  gboolean zoomed = xrlab_plot_get_zoomed (self);

  gtk_widget_action_set_enabled (w, "plot.reset-view", zoomed);
  gtk_widget_action_set_enabled (w, "plot.copy-pins", self->pins->len > 0);
  gtk_widget_action_set_enabled (w, "plot.clear-pins", self->pins->len > 0);
  if (self->input != NULL && self->input->reset_button != NULL)
    gtk_widget_set_visible (self->input->reset_button, zoomed);
}

void
xrlab_plot_input_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "plot.reset-view", NULL, action_reset_view);
  gtk_widget_class_install_action (widget_class, "plot.zoom-in", NULL, action_zoom_in);
  gtk_widget_class_install_action (widget_class, "plot.zoom-out", NULL, action_zoom_out);
  gtk_widget_class_install_action (widget_class, "plot.set-x-limits", NULL, action_set_limits);
  gtk_widget_class_install_action (widget_class, "plot.set-y-limits", NULL, action_set_limits);
  gtk_widget_class_install_action (widget_class, "plot.copy-pins", NULL, action_copy_pins);
  gtk_widget_class_install_action (widget_class, "plot.clear-pins", NULL, action_clear_pins);

  /* The last binding of an action is the one menus show. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_0, 0, "plot.reset-view", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Home, 0, "plot.reset-view", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Home, 0, "plot.reset-view", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Add, 0, "plot.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_equal, 0, "plot.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_plus, 0, "plot.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Subtract, 0, "plot.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_minus, 0, "plot.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Delete, 0, "plot.clear-pins", NULL);

  /* Emitted after plot.copy-pins put the pins' table on the clipboard,
   * with the number of pins. */
  signal_pins_copied =
    g_signal_new ("pins-copied", G_TYPE_FROM_CLASS (widget_class), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
}

/* ---- children: the Reset View button, the popovers --------------------------------- */

static GMenuModel *
make_menu (void)
{
  GMenu *menu = g_menu_new ();
  GMenu *view = g_menu_new (), *limits = g_menu_new (), *pins = g_menu_new ();

  g_menu_append (view, _("_Reset View"), "plot.reset-view");
  g_menu_append (view, _("Zoom _In"), "plot.zoom-in");
  g_menu_append (view, _("Zoom _Out"), "plot.zoom-out");
  g_menu_append (limits, _("Set _X Limits…"), "plot.set-x-limits");
  g_menu_append (limits, _("Set _Y Limits…"), "plot.set-y-limits");
  g_menu_append (pins, _("_Copy Pinned Values"), "plot.copy-pins");
  g_menu_append (pins, _("C_lear Pins"), "plot.clear-pins");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (view));
  g_menu_append_section (menu, NULL, G_MENU_MODEL (limits));
  g_menu_append_section (menu, NULL, G_MENU_MODEL (pins));
  g_object_unref (view);
  g_object_unref (limits);
  g_object_unref (pins);
  return G_MENU_MODEL (menu);
}

void
xrlab_plot_input_init (XrlabPlot *self)
{
  XrlabPlotInput *in = g_new0 (XrlabPlotInput, 1);
  GtkWidget *w = GTK_WIDGET (self);
  g_autoptr(GMenuModel) model = make_menu ();

  self->input = in;
  gtk_widget_set_focusable (w, TRUE);

  in->click = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (in->click), 0);
  g_signal_connect (in->click, "pressed", G_CALLBACK (on_click_pressed), self);
  g_signal_connect (in->click, "released", G_CALLBACK (on_click_released), self);
  gtk_widget_add_controller (w, GTK_EVENT_CONTROLLER (in->click));

  in->drag = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (in->drag), GDK_BUTTON_PRIMARY);
  in->middle = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (in->middle), GDK_BUTTON_MIDDLE);
  for (int i = 0; i < 2; i++)
    {
      GtkGesture *g = i == 0 ? in->drag : in->middle;
      g_signal_connect (g, "drag-begin", G_CALLBACK (on_drag_begin), self);
      g_signal_connect (g, "drag-update", G_CALLBACK (on_drag_update), self);
      g_signal_connect (g, "drag-end", G_CALLBACK (on_drag_end), self);
      g_signal_connect (g, "cancel", G_CALLBACK (on_drag_cancel), self);
      gtk_widget_add_controller (w, GTK_EVENT_CONTROLLER (g));
    }

  in->scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect (in->scroll, "scroll", G_CALLBACK (on_scroll), self);
  gtk_widget_add_controller (w, in->scroll);

  in->motion = gtk_event_controller_motion_new ();
  g_signal_connect (in->motion, "motion", G_CALLBACK (on_pointer), self);
  g_signal_connect (in->motion, "enter", G_CALLBACK (on_pointer), self);
  gtk_widget_add_controller (w, in->motion);

  in->keys = gtk_event_controller_key_new ();
  g_signal_connect (in->keys, "key-pressed", G_CALLBACK (on_key_pressed), self);
  g_signal_connect (in->keys, "key-released", G_CALLBACK (on_key_released), self);
  gtk_widget_add_controller (w, in->keys);

  in->reset_button = gtk_button_new_with_mnemonic (_("_Reset View"));
  gtk_widget_set_tooltip_text (in->reset_button, _("Back to the automatic limits (Home, or double-click)"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (in->reset_button), "plot.reset-view");
  gtk_widget_add_css_class (in->reset_button, "osd");
  gtk_widget_set_visible (in->reset_button, FALSE);
  gtk_widget_set_parent (in->reset_button, w);

  in->menu = gtk_popover_menu_new_from_model (model);
  gtk_popover_set_has_arrow (GTK_POPOVER (in->menu), FALSE);
  gtk_widget_set_halign (in->menu, GTK_ALIGN_START);
  gtk_widget_set_parent (in->menu, w);

  build_limits_popover (self);
  xrlab_plot_input_update (self);
}

void
xrlab_plot_input_dispose (XrlabPlot *self)
{
  XrlabPlotInput *in = self->input;

  if (in == NULL)
    return;
  g_clear_pointer (&in->reset_button, gtk_widget_unparent);
  g_clear_pointer (&in->menu, gtk_widget_unparent);
  g_clear_pointer (&in->limits, gtk_widget_unparent);
  g_clear_pointer (&self->input, g_free);
}

void
xrlab_plot_input_allocate (XrlabPlot *self, int width, int height)
{
  XrlabPlotInput *in = self->input;
  int w, h;

  if (in == NULL)
    return;
  if (in->reset_button != NULL && gtk_widget_get_visible (in->reset_button))
    {
      GtkAllocation a;
      gtk_widget_measure (in->reset_button, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &w, NULL, NULL);
      gtk_widget_measure (in->reset_button, GTK_ORIENTATION_VERTICAL, w, NULL, &h, NULL, NULL);
      /* Inside the plot area's bottom right corner (left when the legend
       * is there), clear of the tick labels. */
      const XrlabPlotFrame *f = &self->frame;
      int x = width - w - 6, y = height - h - 4;
      in->button_px1 = f->valid ? f->px1 : -1;
      in->button_py1 = f->valid ? f->py1 : -1;
      if (f->valid)
        {
          x = (int) (f->px1 - w - 8);
          y = (int) (f->py1 - h - 8);
          if (f->lx1 > f->lx0 && f->ly1 > y && f->lx1 > x && f->lx0 < f->px1 - 1)
            x = (int) (f->px0 + 8);
        }
      a = (GtkAllocation) { MAX (0, x), MAX (0, y), w, h };
      gtk_widget_size_allocate (in->reset_button, &a, -1);
    }
  if (in->menu != NULL)
    gtk_popover_present (GTK_POPOVER (in->menu));
  if (in->limits != NULL)
    gtk_popover_present (GTK_POPOVER (in->limits));
}

void
xrlab_plot_input_frame_changed (XrlabPlot *self)
{
  XrlabPlotInput *in = self->input;
  const XrlabPlotFrame *f = &self->frame;

  /* The Reset View button follows the plot area. */
  if (in != NULL && in->reset_button != NULL && gtk_widget_get_visible (in->reset_button) &&
      (in->button_px1 != (f->valid ? f->px1 : -1) || in->button_py1 != (f->valid ? f->py1 : -1)))
    gtk_widget_queue_allocate (GTK_WIDGET (self));
}

void
xrlab_plot_input_snapshot (XrlabPlot *self, GtkSnapshot *snapshot)
{
  XrlabPlotInput *in = self->input;

  if (in == NULL)
    return;
  if (in->reset_button != NULL && gtk_widget_get_visible (in->reset_button))
    gtk_widget_snapshot_child (GTK_WIDGET (self), in->reset_button, snapshot);
  if (in->menu != NULL && gtk_widget_get_visible (in->menu))
    gtk_widget_snapshot_child (GTK_WIDGET (self), in->menu, snapshot);
  if (in->limits != NULL && gtk_widget_get_visible (in->limits))
    gtk_widget_snapshot_child (GTK_WIDGET (self), in->limits, snapshot);
}

void
xrlab_plot_input_draw (XrlabPlot *self, cairo_t *cr)
{
  XrlabPlotInput *in = self->input;
  const XrlabPlotPalette *pal = xrlab_plot_palette_get (self->dark);
  const XrlabPlotFrame *f = &self->frame;
  double x0, y0, x1, y1;

  if (in == NULL || in->mode != DRAG_RECT || !in->moved || !f->valid)
    return;
  x0 = CLAMP (MIN (in->x0, in->x0 + in->dx), f->px0, f->px1);
  x1 = CLAMP (MAX (in->x0, in->x0 + in->dx), f->px0, f->px1);
  y0 = CLAMP (MIN (in->y0, in->y0 + in->dy), f->py0, f->py1);
  y1 = CLAMP (MAX (in->y0, in->y0 + in->dy), f->py0, f->py1);
  /* A flat band: the whole height (x only); a narrow one: the whole width. */
  if (y1 - y0 < 6)
    y0 = f->py0, y1 = f->py1;
  else if (x1 - x0 < 6)
    x0 = f->px0, x1 = f->px1;
  cairo_save (cr);
  cairo_rectangle (cr, floor (x0) + 0.5, floor (y0) + 0.5, floor (x1 - x0), floor (y1 - y0));
  cairo_set_source_rgba (cr, pal->fg.red, pal->fg.green, pal->fg.blue, 0.08);
  cairo_fill_preserve (cr);
  cairo_set_source_rgba (cr, pal->fg.red, pal->fg.green, pal->fg.blue, 0.55);
  cairo_set_line_width (cr, 1);
  cairo_stroke (cr);
  cairo_restore (cr);
}
