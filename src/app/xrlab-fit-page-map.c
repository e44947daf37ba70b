/* xrlab-fit-page-map.c -- the Fit page's map: its overlays and its input
 *
 *   click, primary drag        the cursor (delay and energy) follows
 *   primary drag on an edge or a corner of the fit window
 *                              resizes it
 *   primary drag on the fit window's title (inside its top left corner)
 *                              moves it
 *   Shift + primary drag       a new fit window
 *   middle drag, Ctrl + drag   pan
 *   secondary drag             zoom to the rectangle (flat: energy only,
 *                              narrow: delay only)
 *   wheel                      zoom about the pointer
 *   double click               the whole map again
 *   arrow keys                 the cursor a column or a row
 *
 * A fit window being dragged is drawn dashed as it goes; when the drag
 * ends, its ranges reach the engine (xrlab_fit_page_set_ranges()), which
 * updates the setup's fit limits, and the toolbar's ranges follow.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-fit-page-private.h"

#include <math.h>

#include <glib/gi18n-lib.h>

typedef enum {
  MAP_DRAG_NONE,
  MAP_DRAG_CURSOR,
  MAP_DRAG_NEW,          /* a new fit window */
  MAP_DRAG_MOVE,         /* the fit window moved */
  MAP_DRAG_RESIZE,       /* some of its edges moved */
  MAP_DRAG_PAN,
  MAP_DRAG_ZOOM,
} MapDrag;

/* The edges of the fit window a resize moves. */
enum { EDGE_E0 = 1 << 0, EDGE_E1 = 1 << 1, EDGE_T0 = 1 << 2, EDGE_T1 = 1 << 3 };

/* How near an edge (pixels) the pointer grabs it. */
#define GRAB_PX 6.0
/* The title of the fit window, inside its top left corner (pixels). */
#define TITLE_W 90.0
#define TITLE_H 22.0

struct _XrlabFitMapInput {
  MapDrag drag;
  guint edges;
  double x0, y0;                   /* where the drag began (widget pixels) */
  double win[4];                   /* the fit window when it began: e0, e1, t0, t1 (finite) */
  double now[4];                   /* as dragged */
  double view[4];                  /* the world window when it began: x0, x1, y0, y1 */
  double zoom[4];                  /* the zoom rectangle: e0, e1, t0, t1 */
};

static XrlabFitMapInput *
input (XrlabFitPage *self)
{
  if (self->map_input == NULL)
    self->map_input = g_new0 (XrlabFitMapInput, 1);
  return self->map_input;
}

/* ---- geometry ------------------------------------------------------------------ */

static void
extent (const double *v, gsize n, double *lo, double *hi)
{
  *lo = INFINITY, *hi = -INFINITY;
  for (gsize i = 0; v != NULL && i < n; i++)
    *lo = MIN (*lo, v[i]), *hi = MAX (*hi, v[i]);
}

/* The fit window with the data's edges for the open sides: FALSE before
 * the axes are known. */
static gboolean
fit_window (XrlabFitPage *self, double w[4])
{
  double elo, ehi, tlo, thi;

  extent (self->energies, self->n_energies, &elo, &ehi);
  extent (self->delays, self->n_delays, &tlo, &thi);
  if (!(elo < ehi) || !(tlo < thi))
    return FALSE;
  w[0] = isfinite (self->ws.e0) ? self->ws.e0 : elo;
  w[1] = isfinite (self->ws.e1) ? self->ws.e1 : ehi;
  w[2] = isfinite (self->ws.t0) ? self->ws.t0 : tlo;
  w[3] = isfinite (self->ws.t1) ? self->ws.t1 : thi;
  return TRUE;
}

gboolean
xrlab_fit_page_map_to_px (XrlabFitPage *self, double energy, double delay, double *px, double *py)
{
  const XrlabPlotFrame *f;

  g_return_val_if_fail (XRLAB_IS_FIT_PAGE (self), FALSE);
  f = xrlab_map_view_get_frame (self->map_view);
  if (!f->valid || f->wx1 == f->wx0 || f->wy1 == f->wy0)
    return FALSE;
  if (f->x_log)
    energy = log10 (energy);
  if (f->y_log)
    delay = log10 (delay);
  *px = f->px0 + (energy - f->wx0) / (f->wx1 - f->wx0) * (f->px1 - f->px0);
  *py = f->py1 - (delay - f->wy0) / (f->wy1 - f->wy0) * (f->py1 - f->py0);
  return TRUE;
}

/* What a press at (@x, @y) grabs of the fit window: its edges, the whole
 * window (its title), or nothing. */
static MapDrag
hit_window (XrlabFitPage *self, double x, double y, guint *edges)
{
  double w[4], pe0, pe1, pt0, pt1, py;
  double l, r, t, b;

  *edges = 0;
  if (!self->has_workspace || !self->info->has_time || !fit_window (self, w)
      || !xrlab_fit_page_map_to_px (self, w[0], w[2], &pe0, &pt0)
      || !xrlab_fit_page_map_to_px (self, w[1], w[3], &pe1, &pt1))
    return MAP_DRAG_NONE;
  l = MIN (pe0, pe1), r = MAX (pe0, pe1), t = MIN (pt0, pt1), b = MAX (pt0, pt1);
  if (x < l - GRAB_PX || x > r + GRAB_PX || y < t - GRAB_PX || y > b + GRAB_PX)
    return MAP_DRAG_NONE;
  if (fabs (x - pe0) <= GRAB_PX)
    *edges |= EDGE_E0;
  else if (fabs (x - pe1) <= GRAB_PX)
    *edges |= EDGE_E1;
  py = y;
  if (fabs (py - pt0) <= GRAB_PX)
    *edges |= EDGE_T0;
  else if (fabs (py - pt1) <= GRAB_PX)
    *edges |= EDGE_T1;
  if (*edges != 0)
    return MAP_DRAG_RESIZE;
  if (x >= l && x <= l + TITLE_W && y >= t && y <= t + TITLE_H)
    return MAP_DRAG_MOVE;
  return MAP_DRAG_NONE;
}

/* ---- overlays ------------------------------------------------------------------ */

void
xrlab_fit_page_update_overlays (XrlabFitPage *self)
{
  XrlabFitMapInput *in = input (self);
  XrlabMapOverlay o[4];
  guint n = 0;
  const XrlabFitWorkspace *ws = &self->ws;
  gboolean dragged = in->drag == MAP_DRAG_MOVE || in->drag == MAP_DRAG_RESIZE || in->drag == MAP_DRAG_NEW;
  gboolean descending = self->info != NULL && self->info->energy_first > self->info->energy_last;

  if (!self->has_workspace)
    return;
  if (dragged)
    o[n++] = (XrlabMapOverlay) { XRLAB_MAP_OVERLAY_RECT, in->now[0], in->now[1], in->now[2], in->now[3],
                                 _("Fit window"), { 1.0, 0.47, 0.0, 1.0 }, TRUE };
  else if (isfinite (ws->e0) || isfinite (ws->e1) || isfinite (ws->t0) || isfinite (ws->t1))
    o[n++] = (XrlabMapOverlay) { XRLAB_MAP_OVERLAY_RECT, ws->e0, ws->e1, ws->t0, ws->t1,
                                 _("Fit window"), { 1.0, 0.47, 0.0, 1.0 }, FALSE };
  if (isfinite (ws->b0) && isfinite (ws->b1))
    o[n++] = (XrlabMapOverlay) { XRLAB_MAP_OVERLAY_HBAND, NAN, NAN, ws->b0, ws->b1,
                                 _("Baseline"), { 0.88, 0.88, 0.88, 1.0 }, TRUE };
  o[n++] = (XrlabMapOverlay) { XRLAB_MAP_OVERLAY_CURSOR, self->energy, NAN, self->delay, NAN,
                               NULL, { 1.0, 1.0, 1.0, 1.0 }, FALSE };
  if (in->drag == MAP_DRAG_ZOOM && isfinite (in->zoom[0]))
    o[n++] = (XrlabMapOverlay) { XRLAB_MAP_OVERLAY_RECT, in->zoom[0], in->zoom[1], in->zoom[2], in->zoom[3],
                                 NULL, { 1.0, 1.0, 1.0, 1.0 }, TRUE };
  xrlab_map_view_set_overlays (self->map_view, o, n);
  /* Descending energies (binding energies) are drawn as the data have
   * them, on the map and the spectrum alike. */
  xrlab_map_view_set_reversed (self->map_view, descending, FALSE);
  xrlab_plot_set_x_reversed (self->spectrum, descending);
  xrlab_plot_set_x_reversed (self->residual, descending);
}

/* ---- the cursor ---------------------------------------------------------------- */

/* The index of the point of @v nearest @x. */
static gsize
nearest (const double *v, gsize n, double x)
{
  gsize best = 0;

  for (gsize i = 1; i < n; i++)
    if (fabs (v[i] - x) < fabs (v[best] - x))
      best = i;
  return best;
}

static void
pick_at (XrlabFitPage *self, double px, double py)
{
  double e, t;

  if (self->info != NULL && self->info->has_time
      && xrlab_map_view_pick (self->map_view, px, py, &e, &t))
    xrlab_fit_page_set_cursor (self, t, e);
}

/* ---- drags --------------------------------------------------------------------- */

static void
map_drag_begin (XrlabFitPage *self, guint button, GdkModifierType state, double x, double y)
{
  XrlabFitMapInput *in = input (self);
  const XrlabPlotFrame *f = xrlab_map_view_get_frame (self->map_view);
  gboolean has_time = self->has_workspace && self->info->has_time;

  in->x0 = x, in->y0 = y;
  in->zoom[0] = NAN;
  in->view[0] = f->wx0, in->view[1] = f->wx1, in->view[2] = f->wy0, in->view[3] = f->wy1;
  if (!has_time || !f->valid)
    in->drag = MAP_DRAG_NONE;
  else if (button == GDK_BUTTON_MIDDLE || (button == GDK_BUTTON_PRIMARY && (state & GDK_CONTROL_MASK)))
    in->drag = MAP_DRAG_PAN;
  else if (button == GDK_BUTTON_SECONDARY)
    in->drag = MAP_DRAG_ZOOM;
  else if (button != GDK_BUTTON_PRIMARY)
    in->drag = MAP_DRAG_NONE;
  else if (state & GDK_SHIFT_MASK)
    in->drag = MAP_DRAG_NEW;
  else if ((in->drag = hit_window (self, x, y, &in->edges)) == MAP_DRAG_NONE)
    in->drag = MAP_DRAG_CURSOR;
  if ((in->drag == MAP_DRAG_MOVE || in->drag == MAP_DRAG_RESIZE || in->drag == MAP_DRAG_NEW)
      && !fit_window (self, in->win))
    in->drag = MAP_DRAG_NONE;
  for (int i = 0; i < 4; i++)
    in->now[i] = in->win[i];
  if (in->drag == MAP_DRAG_CURSOR)
    pick_at (self, x, y);
}

/* The fit window moved by (@de, @dt), kept inside the data. */
static void
move_window (XrlabFitPage *self, XrlabFitMapInput *in, double de, double dt)
{
  double elo, ehi, tlo, thi;

  extent (self->energies, self->n_energies, &elo, &ehi);
  extent (self->delays, self->n_delays, &tlo, &thi);
  de = CLAMP (de, elo - MIN (in->win[0], in->win[1]), ehi - MAX (in->win[0], in->win[1]));
  dt = CLAMP (dt, tlo - MIN (in->win[2], in->win[3]), thi - MAX (in->win[2], in->win[3]));
  in->now[0] = in->win[0] + de, in->now[1] = in->win[1] + de;
  in->now[2] = in->win[2] + dt, in->now[3] = in->win[3] + dt;
}

static void
pan (XrlabFitPage *self, XrlabFitMapInput *in, double dx, double dy)
{
  const XrlabPlotFrame *f = xrlab_map_view_get_frame (self->map_view);
  double sx = (in->view[1] - in->view[0]) / MAX (f->px1 - f->px0, 1);
  double sy = (in->view[3] - in->view[2]) / MAX (f->py1 - f->py0, 1);
  double x0 = in->view[0] - dx * sx, x1 = in->view[1] - dx * sx;
  double y0 = in->view[2] + dy * sy, y1 = in->view[3] + dy * sy;

  xrlab_map_view_set_limits (self->map_view, MIN (x0, x1), MAX (x0, x1), MIN (y0, y1), MAX (y0, y1));
}

static void
map_drag_update (XrlabFitPage *self, double dx, double dy)
{
  XrlabFitMapInput *in = input (self);
  double e0, t0, e1, t1;

  if (in->drag == MAP_DRAG_CURSOR)
    pick_at (self, in->x0 + dx, in->y0 + dy);
  if (in->drag == MAP_DRAG_PAN)
    pan (self, in, dx, dy);
  if (in->drag == MAP_DRAG_NONE || in->drag == MAP_DRAG_CURSOR || in->drag == MAP_DRAG_PAN
      || !xrlab_map_view_pick (self->map_view, in->x0, in->y0, &e0, &t0)
      || !xrlab_map_view_pick (self->map_view, in->x0 + dx, in->y0 + dy, &e1, &t1))
    return;
  switch (in->drag)
    {
    case MAP_DRAG_NEW:
      in->now[0] = e0, in->now[1] = e1, in->now[2] = t0, in->now[3] = t1;
      break;
    case MAP_DRAG_MOVE:
      move_window (self, in, e1 - e0, t1 - t0);
      break;
    case MAP_DRAG_RESIZE:
      if (in->edges & EDGE_E0)
        in->now[0] = in->win[0] + (e1 - e0);
      if (in->edges & EDGE_E1)
        in->now[1] = in->win[1] + (e1 - e0);
      if (in->edges & EDGE_T0)
        in->now[2] = in->win[2] + (t1 - t0);
      if (in->edges & EDGE_T1)
        in->now[3] = in->win[3] + (t1 - t0);
      break;
    case MAP_DRAG_ZOOM:
      in->zoom[0] = e0, in->zoom[1] = e1, in->zoom[2] = t0, in->zoom[3] = t1;
      break;
    default:
      break;
    }
  xrlab_fit_page_update_overlays (self);
}

/* The zoom rectangle shown: both axes, or one when it is flat. */
static void
zoom_to (XrlabFitPage *self, XrlabFitMapInput *in, double dx, double dy)
{
  double x0 = NAN, x1 = NAN, y0 = NAN, y1 = NAN;

  if (!isfinite (in->zoom[0]) || (fabs (dx) <= 3 && fabs (dy) <= 3))
    return;
  xrlab_map_view_get_limits (self->map_view, &x0, &x1, &y0, &y1);
  if (fabs (dx) > 3)
    x0 = MIN (in->zoom[0], in->zoom[1]), x1 = MAX (in->zoom[0], in->zoom[1]);
  if (fabs (dy) > 3)
    y0 = MIN (in->zoom[2], in->zoom[3]), y1 = MAX (in->zoom[2], in->zoom[3]);
  xrlab_map_view_set_limits (self->map_view, x0, x1, y0, y1);
}

static void
map_drag_end (XrlabFitPage *self, double dx, double dy)
{
  XrlabFitMapInput *in = input (self);
  MapDrag drag = in->drag;
  const XrlabFitWorkspace *ws = &self->ws;
  double e0, e1, t0, t1;

  map_drag_update (self, dx, dy);
  e0 = MIN (in->now[0], in->now[1]), e1 = MAX (in->now[0], in->now[1]);
  t0 = MIN (in->now[2], in->now[3]), t1 = MAX (in->now[2], in->now[3]);
  in->drag = MAP_DRAG_NONE;
  if (drag == MAP_DRAG_ZOOM)
    zoom_to (self, in, dx, dy);
  if ((drag == MAP_DRAG_NEW && fabs (dx) > 3 && fabs (dy) > 3) || ((drag == MAP_DRAG_MOVE || drag == MAP_DRAG_RESIZE)
                                                                   && (dx != 0 || dy != 0) && e0 < e1 && t0 < t1))
    {
      /* The sides a resize left alone keep what they were (open: the
       * data's edge), unless the moved edge crossed them. */
      if (drag == MAP_DRAG_RESIZE && in->now[0] <= in->now[1])
        {
          e0 = in->edges & EDGE_E0 ? e0 : ws->e0;
          e1 = in->edges & EDGE_E1 ? e1 : ws->e1;
        }
      if (drag == MAP_DRAG_RESIZE && in->now[2] <= in->now[3])
        {
          t0 = in->edges & EDGE_T0 ? t0 : ws->t0;
          t1 = in->edges & EDGE_T1 ? t1 : ws->t1;
        }
      xrlab_fit_page_set_ranges (self, e0, e1, t0, t1, ws->b0, ws->b1);
    }
  else
    xrlab_fit_page_update_overlays (self);
}

void
xrlab_fit_page_map_drag (XrlabFitPage *self, guint button, GdkModifierType state, double x0, double y0,
                         double x1, double y1)
{
  g_return_if_fail (XRLAB_IS_FIT_PAGE (self));
  map_drag_begin (self, button, state, x0, y0);
  for (int k = 1; k <= 4; k++)
    map_drag_update (self, (x1 - x0) * k / 4, (y1 - y0) * k / 4);
  map_drag_end (self, x1 - x0, y1 - y0);
}

static void
on_drag_begin (GtkGestureDrag *drag, double x, double y, XrlabFitPage *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (drag));

  gtk_widget_grab_focus (GTK_WIDGET (self->map_view));
  map_drag_begin (self, gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (drag)), state, x, y);
}

static void
on_drag_update (GtkGestureDrag *drag, double dx, double dy, XrlabFitPage *self)
{
  map_drag_update (self, dx, dy);
}

static void
on_drag_end (GtkGestureDrag *drag, double dx, double dy, XrlabFitPage *self)
{
  map_drag_end (self, dx, dy);
}

/* ---- clicks, the pointer, the wheel, keys ---------------------------------------------- */

static void
on_map_pressed (GtkGestureClick *click, int n_press, double x, double y, XrlabFitPage *self)
{
  if (n_press == 2)
    xrlab_map_view_set_limits (self->map_view, NAN, NAN, NAN, NAN);
}

/* The pointer's shape says what a drag from here does. */
static void
on_map_motion (GtkEventControllerMotion *motion, double x, double y, XrlabFitPage *self)
{
  static const char *const resize[16] = {
    [EDGE_E0] = "ew-resize", [EDGE_E1] = "ew-resize", [EDGE_T0] = "ns-resize", [EDGE_T1] = "ns-resize",
    [EDGE_E0 | EDGE_T0] = "move", [EDGE_E0 | EDGE_T1] = "move", [EDGE_E1 | EDGE_T0] = "move",
    [EDGE_E1 | EDGE_T1] = "move",
  };
  guint edges = 0;
  MapDrag hit;

  self->pointer_x = x;
  self->pointer_y = y;
  if (input (self)->drag != MAP_DRAG_NONE)
    return;
  hit = hit_window (self, x, y, &edges);
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self->map_view),
                                   hit == MAP_DRAG_MOVE ? "grab" : hit == MAP_DRAG_RESIZE ? resize[edges] : NULL);
}

/* Zooms both axes about the pointer. */
static gboolean
on_map_scroll (GtkEventControllerScroll *scroll, double dx, double dy, XrlabFitPage *self)
{
  const XrlabPlotFrame *f = xrlab_map_view_get_frame (self->map_view);
  double factor = dy < 0 ? 1 / 1.25 : 1.25, wx, wy;
  double x0, x1, y0, y1;

  if (!f->valid || f->x_log || f->y_log
      || !xrlab_map_view_pick (self->map_view, self->pointer_x, self->pointer_y, &wx, &wy))
    return FALSE;
  x0 = MIN (f->wx0, f->wx1), x1 = MAX (f->wx0, f->wx1);
  y0 = MIN (f->wy0, f->wy1), y1 = MAX (f->wy0, f->wy1);
  xrlab_map_view_set_limits (self->map_view, wx + (x0 - wx) * factor, wx + (x1 - wx) * factor,
                             wy + (y0 - wy) * factor, wy + (y1 - wy) * factor);
  return TRUE;
}

/* Arrows step the cursor a column (energy) or a row (delay). */
static gboolean
on_map_key (GtkEventControllerKey *key, guint keyval, guint keycode, GdkModifierType state,
            XrlabFitPage *self)
{
  int de = 0, dt = 0;
  gsize i;

  switch (keyval)
    {
    case GDK_KEY_Left: case GDK_KEY_KP_Left: de = -1; break;
    case GDK_KEY_Right: case GDK_KEY_KP_Right: de = 1; break;
    case GDK_KEY_Up: case GDK_KEY_KP_Up: dt = 1; break;
    case GDK_KEY_Down: case GDK_KEY_KP_Down: dt = -1; break;
    default: return FALSE;
    }
  if (self->energies == NULL)
    return FALSE;
  if (de != 0)
    {
      /* A descending axis is drawn reversed: right is the next column either way. */
      gssize j;

      i = nearest (self->energies, self->n_energies, self->energy);
      j = (gssize) i + de;
      if (j >= 0 && (gsize) j < self->n_energies)
        xrlab_fit_page_set_cursor (self, self->delay, self->energies[j]);
    }
  if (dt != 0 && self->delays != NULL)
    {
      gssize j;
      gboolean desc = self->n_delays > 1 && self->delays[0] > self->delays[1];

      i = nearest (self->delays, self->n_delays, self->delay);
      j = (gssize) i + (desc ? -dt : dt);
      if (j >= 0 && (gsize) j < self->n_delays)
        xrlab_fit_page_set_cursor (self, self->delays[j], self->energy);
    }
  return TRUE;
}

void
xrlab_fit_page_map_input_init (XrlabFitPage *self)
{
  GtkGesture *drag = gtk_gesture_drag_new ();
  GtkGesture *click = gtk_gesture_click_new ();
  GtkEventController *scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
  GtkEventController *key = gtk_event_controller_key_new ();
  GtkEventController *motion = gtk_event_controller_motion_new ();

  /* Every button: primary (cursor, fit window), middle (pan), secondary (zoom). */
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), 0);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (on_drag_end), self);
  gtk_widget_add_controller (GTK_WIDGET (self->map_view), GTK_EVENT_CONTROLLER (drag));
  g_signal_connect (click, "pressed", G_CALLBACK (on_map_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self->map_view), GTK_EVENT_CONTROLLER (click));
  g_signal_connect (scroll, "scroll", G_CALLBACK (on_map_scroll), self);
  gtk_widget_add_controller (GTK_WIDGET (self->map_view), scroll);
  g_signal_connect (key, "key-pressed", G_CALLBACK (on_map_key), self);
  gtk_widget_add_controller (GTK_WIDGET (self->map_view), key);
  g_signal_connect (motion, "motion", G_CALLBACK (on_map_motion), self);
  gtk_widget_add_controller (GTK_WIDGET (self->map_view), motion);
  gtk_widget_set_focusable (GTK_WIDGET (self->map_view), TRUE);
}
