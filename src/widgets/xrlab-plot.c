/* xrlab-plot.c -- a PLplot chart in a GtkDrawingArea
 *
 * Rendering: the plot renderer (src/render) draws the chart with PLplot into
 * a cairo context. The widget renders once per change (data, axes, size,
 * style) into an image surface and paints that surface on every frame; the
 * crosshair and its readout are plain cairo/Pango on top, so pointer motion
 * costs a paint, not a PLplot run.
 *
 * The widget keeps the input (pointer, style manager), the state and the
 * properties; each frame hands the renderer a scene that borrows the
 * widget's data.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-plot-private.h"

#include <math.h>
#include <stdio.h>

#include <adwaita.h>

#include "xrlab-plot-crosshair.h"
#include "xrlab-util.h"

G_DEFINE_FINAL_TYPE (XrlabPlot, xrlab_plot, GTK_TYPE_DRAWING_AREA)

enum {
  PROP_0,
  PROP_DATA,
  PROP_X_LOG,
  PROP_Y_LOG,
  PROP_DARK,
  PROP_FOLLOW_STYLE,
  PROP_WATERMARK,
  PROP_MESSAGE,
  PROP_LINE_WIDTH,
  PROP_SHOW_LEGEND,
  PROP_SHOW_MARKERS,
  PROP_ZOOMED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  SIGNAL_RENDERED,
  SIGNAL_VIEW_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* ---- overlay ------------------------------------------------------------------ */

static void
draw_overlay_text (XrlabPlot *self, cairo_t *cr, int width, int height, const XrlabPlotPalette *pal)
{
  PangoLayout *l;
  PangoFontDescription *desc;
  int w, h;

  if (self->overlay_text == NULL || self->overlay_text[0] == '\0')
    return;
  l = gtk_widget_create_pango_layout (GTK_WIDGET (self), self->overlay_text);
  desc = pango_font_description_from_string ("monospace 8");
  pango_layout_set_font_description (l, desc);
  pango_font_description_free (desc);
  pango_layout_get_pixel_size (l, &w, &h);
  /* Bottom left of the plot area (where falling curves leave room), or of
   * the widget before the first frame. */
  {
    double x0 = self->frame.valid ? self->frame.px0 + 6 : 6;
    double y0 = (self->frame.valid ? self->frame.py1 - 6 : height - 6) - h;
    cairo_save (cr);
    cairo_rectangle (cr, x0 - 4, y0 - 3, w + 8, h + 6);
    cairo_set_source_rgba (cr, pal->bg.red, pal->bg.green, pal->bg.blue, 0.88);
    cairo_fill (cr);
    cairo_set_source_rgba (cr, pal->muted.red, pal->muted.green, pal->muted.blue, pal->muted.alpha);
    cairo_move_to (cr, x0, y0);
  }
  pango_cairo_show_layout (cr, l);
  cairo_restore (cr);
  g_object_unref (l);
}

/* ---- the scene ------------------------------------------------------------------ */

/* What the renderer draws: the widget's state, borrowing its data. */
void
xrlab_plot_build_scene (XrlabPlot *self, XrlabPlotScene *scene, gboolean dark)
{
  guint ns = self->data != NULL ? xrlab_plot_data_get_n_series (self->data) : 0;

  g_array_set_size (self->curves, ns);
  for (guint i = 0; i < ns; i++)
    {
      const XrlabPlotSeries *ser = xrlab_plot_data_get_series (self->data, i);
      g_array_index (self->curves, XrlabPlotCurve, i) = (XrlabPlotCurve) {
        .label = ser->label,
        .color = xrlab_plot_series_get_color (ser),
        .x = ser->x,
        .y = ser->y,
        .n = ser->n,
        .y_scale = ser->y_scale,
        .stale = ser->stale,
        .live = ser->live,
      };
    }

  xrlab_plot_scene_init (scene);
  scene->curves = (const XrlabPlotCurve *) (const void *) self->curves->data;
  scene->n_curves = ns;
  scene->markers = (const XrlabPlotMarker *) (const void *) self->markers->data;
  scene->n_markers = self->markers->len;
  scene->x = (XrlabPlotAxisSpec) { self->x_name, self->x_unit, self->x_log, self->x_min, self->x_max, NULL,
                                   self->x_reversed };
  scene->y = (XrlabPlotAxisSpec) { self->y_name, self->y_unit, self->y_log, self->y_min, self->y_max,
                                   self->y_symbol };
  scene->watermark = self->watermark;
  scene->note = self->note;
  scene->message = self->message;
  scene->dark = dark;
  scene->show_legend = self->show_legend;
  scene->show_markers = self->show_markers;
  scene->line_width = self->line_width;
}

static gboolean
render_chart (XrlabPlot      *self,
              cairo_t        *cr,
              int             width,
              int             height,
              gboolean        dark,
              XrlabPlotFrame *frame_out,
              GError        **error)
{
  XrlabPlotScene scene;

  xrlab_plot_build_scene (self, &scene, dark);
  return xrlab_plot_renderer_draw (self->renderer, &scene, cr, width, height, frame_out, error);
}

/* ---- widget drawing -------------------------------------------------------------- */

static void
xrlab_plot_draw (GtkDrawingArea *area,
                 cairo_t        *cr,
                 int             width,
                 int             height,
                 gpointer        user_data)
{
  XrlabPlot *self = XRLAB_PLOT (area);
  const XrlabPlotPalette *pal = xrlab_plot_palette_get (self->dark);
  int scale = gtk_widget_get_scale_factor (GTK_WIDGET (self));

  if (self->cache != NULL &&
      (cairo_image_surface_get_width (self->cache) != width * scale ||
       cairo_image_surface_get_height (self->cache) != height * scale))
    {
      g_clear_pointer (&self->cache, cairo_surface_destroy);
      self->dirty = TRUE;
    }

  if (self->cache == NULL || self->dirty)
    {
      XrlabPlotScene scene;
      cairo_t *ccr;
      gboolean keep;
      double t0 = xrlab_now ();

      if (self->cache == NULL)
        {
          self->cache = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width * scale, height * scale);
          cairo_surface_set_device_scale (self->cache, scale, scale);
        }
      ccr = cairo_create (self->cache);
      /* The layers below and above the live curves are kept while only
       * their values changed since the last frame. */
      keep = !self->layers_stale && self->data != NULL && self->drawn_data != NULL
             && xrlab_plot_data_same_static (self->drawn_data, self->data);
      xrlab_plot_build_scene (self, &scene, self->dark);
      xrlab_plot_renderer_draw_layered (self->renderer, &scene, keep, ccr, width, height, &self->frame, NULL);
      self->layers_stale = FALSE;
      g_clear_pointer (&self->drawn_data, xrlab_plot_data_unref);
      if (self->data != NULL)
        self->drawn_data = xrlab_plot_data_ref (self->data);
      cairo_destroy (ccr);
      cairo_surface_flush (self->cache);
      self->dirty = FALSE;
      self->render_count++;
      self->last_render_ms = (xrlab_now () - t0) * 1e3;
      if (self->data_set_time > 0)
        {
          self->data_to_frame_ms = (xrlab_now () - self->data_set_time) * 1e3;
          self->data_set_time = 0;
        }
      g_signal_emit (self, signals[SIGNAL_RENDERED], 0, self->last_render_ms);
      xrlab_plot_input_frame_changed (self);
    }

  cairo_set_source_surface (cr, self->cache, 0, 0);
  cairo_paint (cr);
  {
    XrlabPlotCrosshair crosshair = {
      &self->frame, self->data, self->x_unit, self->cross_x, self->cross_py, self->dark,
    };
    xrlab_plot_crosshair_draw_pins (&crosshair, (const double *) (const void *) self->pins->data,
                                    self->pins->len, GTK_WIDGET (self), cr);
    xrlab_plot_crosshair_draw (&crosshair, GTK_WIDGET (self), cr);
  }
  xrlab_plot_input_draw (self, cr);
  draw_overlay_text (self, cr, width, height, pal);
}

void
xrlab_plot_invalidate (XrlabPlot *self)
{
  self->dirty = TRUE;
  self->layers_stale = TRUE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
xrlab_plot_view_changed (XrlabPlot *self)
{
  xrlab_plot_invalidate (self);
  xrlab_plot_input_update (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOMED]);
  g_signal_emit (self, signals[SIGNAL_VIEW_CHANGED], 0);
}

static void
xrlab_plot_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  GTK_WIDGET_CLASS (xrlab_plot_parent_class)->size_allocate (widget, width, height, baseline);
  xrlab_plot_input_allocate (XRLAB_PLOT (widget), width, height);
}

static void
xrlab_plot_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  GTK_WIDGET_CLASS (xrlab_plot_parent_class)->snapshot (widget, snapshot);
  xrlab_plot_input_snapshot (XRLAB_PLOT (widget), snapshot);
}

static void
on_motion (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           XrlabPlot                *self)
{
  const XrlabPlotFrame *f = &self->frame;
  double cx = NAN;

  if (f->valid && x >= f->px0 && x <= f->px1 && y >= f->py0 && y <= f->py1)
    cx = xrlab_plot_frame_px_to_x (f, x);
  if (isnan (cx) && isnan (self->cross_x))
    return;
  self->cross_x = cx;
  self->cross_py = isnan (cx) ? NAN : y;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_leave (GtkEventControllerMotion *controller,
          XrlabPlot                *self)
{
  if (isnan (self->cross_x))
    return;
  self->cross_x = NAN;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_dark_changed (AdwStyleManager *manager,
                 GParamSpec      *pspec,
                 XrlabPlot       *self)
{
  if (self->follow_style)
    xrlab_plot_set_dark (self, adw_style_manager_get_dark (manager));
}

/* ---- GObject ---------------------------------------------------------------------- */

static void
clear_marker (gpointer p)
{
  XrlabPlotMarker *m = p;
  g_clear_pointer (&m->label, g_free);
}

static void
xrlab_plot_dispose (GObject *object)
{
  XrlabPlot *self = XRLAB_PLOT (object);

  if (self->style_handler != 0)
    {
      g_clear_signal_handler (&self->style_handler, adw_style_manager_get_default ());
    }
  xrlab_plot_input_dispose (self);
  g_clear_pointer (&self->renderer, xrlab_plot_renderer_free);
  g_clear_pointer (&self->cache, cairo_surface_destroy);
  g_clear_pointer (&self->data, xrlab_plot_data_unref);
  g_clear_pointer (&self->drawn_data, xrlab_plot_data_unref);

  G_OBJECT_CLASS (xrlab_plot_parent_class)->dispose (object);
}

static void
xrlab_plot_finalize (GObject *object)
{
  XrlabPlot *self = XRLAB_PLOT (object);

  g_free (self->x_name);
  g_free (self->x_unit);
  g_free (self->y_name);
  g_free (self->y_unit);
  g_free (self->y_symbol);
  g_free (self->watermark);
  g_free (self->note);
  g_free (self->message);
  g_free (self->overlay_text);
  g_array_unref (self->markers);
  g_array_unref (self->curves);
  g_array_unref (self->pins);

  G_OBJECT_CLASS (xrlab_plot_parent_class)->finalize (object);
}

static void
xrlab_plot_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  XrlabPlot *self = XRLAB_PLOT (object);

  switch (prop_id)
    {
    case PROP_DATA:
      g_value_set_boxed (value, self->data);
      break;
    case PROP_X_LOG:
      g_value_set_boolean (value, self->x_log);
      break;
    case PROP_Y_LOG:
      g_value_set_boolean (value, self->y_log);
      break;
    case PROP_DARK:
      g_value_set_boolean (value, self->dark);
      break;
    case PROP_FOLLOW_STYLE:
      g_value_set_boolean (value, self->follow_style);
      break;
    case PROP_WATERMARK:
      g_value_set_string (value, self->watermark);
      break;
    case PROP_MESSAGE:
      g_value_set_string (value, self->message);
      break;
    case PROP_LINE_WIDTH:
      g_value_set_double (value, self->line_width);
      break;
    case PROP_SHOW_LEGEND:
      g_value_set_boolean (value, self->show_legend);
      break;
    case PROP_SHOW_MARKERS:
      g_value_set_boolean (value, self->show_markers);
      break;
    case PROP_ZOOMED:
      g_value_set_boolean (value, xrlab_plot_get_zoomed (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
xrlab_plot_set_property (GObject      *object,
                         guint         prop_id,
                         const GValue *value,
                         GParamSpec   *pspec)
{
  XrlabPlot *self = XRLAB_PLOT (object);

  switch (prop_id)
    {
    case PROP_DATA:
      xrlab_plot_set_data (self, g_value_get_boxed (value));
      break;
    case PROP_X_LOG:
      xrlab_plot_set_x_log (self, g_value_get_boolean (value));
      break;
    case PROP_Y_LOG:
      xrlab_plot_set_y_log (self, g_value_get_boolean (value));
      break;
    case PROP_DARK:
      xrlab_plot_set_dark (self, g_value_get_boolean (value));
      break;
    case PROP_FOLLOW_STYLE:
      xrlab_plot_set_follow_style (self, g_value_get_boolean (value));
      break;
    case PROP_WATERMARK:
      xrlab_plot_set_watermark (self, g_value_get_string (value));
      break;
    case PROP_MESSAGE:
      xrlab_plot_set_message (self, g_value_get_string (value));
      break;
    case PROP_LINE_WIDTH:
      xrlab_plot_set_line_width (self, g_value_get_double (value));
      break;
    case PROP_SHOW_LEGEND:
      xrlab_plot_set_show_legend (self, g_value_get_boolean (value));
      break;
    case PROP_SHOW_MARKERS:
      xrlab_plot_set_show_markers (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
xrlab_plot_class_init (XrlabPlotClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = xrlab_plot_dispose;
  object_class->finalize = xrlab_plot_finalize;
  object_class->get_property = xrlab_plot_get_property;
  object_class->set_property = xrlab_plot_set_property;

  properties[PROP_DATA] =
    g_param_spec_boxed ("data", NULL, NULL, XRLAB_TYPE_PLOT_DATA,
                        G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_X_LOG] =
    g_param_spec_boolean ("x-log", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_Y_LOG] =
    g_param_spec_boolean ("y-log", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_DARK] =
    g_param_spec_boolean ("dark", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_FOLLOW_STYLE] =
    g_param_spec_boolean ("follow-style", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_WATERMARK] =
    g_param_spec_string ("watermark", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_MESSAGE] =
    g_param_spec_string ("message", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* Width of the curves in pixels (the settings' "line-width"). */
  properties[PROP_LINE_WIDTH] =
    g_param_spec_double ("line-width", NULL, NULL, 0.5, 8.0, 2.0,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* The legend of the series ("show-legend"). */
  properties[PROP_SHOW_LEGEND] =
    g_param_spec_boolean ("show-legend", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* The vertical markers and their labels ("show-edges"). */
  properties[PROP_SHOW_MARKERS] =
    g_param_spec_boolean ("show-markers", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* Whether an axis has limits of its own (read-only; "Reset View"). */
  properties[PROP_ZOOMED] =
    g_param_spec_boolean ("zoomed", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* Emitted after each PLplot render of the widget, with its duration (ms). */
  signals[SIGNAL_RENDERED] =
    g_signal_new ("rendered", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_DOUBLE);

  /* Emitted when the axis limits or the pins change, by the user or by a
   * call. */
  signals[SIGNAL_VIEW_CHANGED] =
    g_signal_new ("view-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  widget_class->size_allocate = xrlab_plot_size_allocate;
  widget_class->snapshot = xrlab_plot_snapshot;
  xrlab_plot_input_class_init (widget_class);
  gtk_widget_class_set_css_name (widget_class, "xrlab-plot");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
xrlab_plot_init (XrlabPlot *self)
{
  AdwStyleManager *style = adw_style_manager_get_default ();

  self->renderer = xrlab_plot_renderer_new ();
  self->curves = g_array_new (FALSE, TRUE, sizeof (XrlabPlotCurve));
  self->cross_x = NAN;
  self->cross_py = NAN;
  self->line_width = 2.0;
  self->show_markers = TRUE;
  self->show_legend = TRUE;
  self->follow_style = TRUE;
  self->dirty = TRUE;
  self->markers = g_array_new (FALSE, TRUE, sizeof (XrlabPlotMarker));
  g_array_set_clear_func (self->markers, clear_marker);
  self->pins = g_array_new (FALSE, FALSE, sizeof (double));
  self->x_min = self->x_max = self->y_min = self->y_max = NAN;

  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self), xrlab_plot_draw, NULL, NULL);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
  gtk_drawing_area_set_content_width (GTK_DRAWING_AREA (self), 320);
  gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (self), 240);

  self->motion = gtk_event_controller_motion_new ();
  g_signal_connect (self->motion, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (self->motion, "enter", G_CALLBACK (on_motion), self);
  g_signal_connect (self->motion, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), self->motion);

  self->dark = adw_style_manager_get_dark (style);
  self->style_handler = g_signal_connect (style, "notify::dark", G_CALLBACK (on_dark_changed), self);
  xrlab_plot_input_init (self);
}

/* ---- public API ------------------------------------------------------------------ */

GtkWidget *
xrlab_plot_new (void)
{
  return g_object_new (XRLAB_TYPE_PLOT, NULL);
}

void
xrlab_plot_set_data (XrlabPlot     *self,
                     XrlabPlotData *data)
{
  g_return_if_fail (XRLAB_IS_PLOT (self));

  if (data != NULL)
    xrlab_plot_data_ref (data);
  g_clear_pointer (&self->data, xrlab_plot_data_unref);
  self->data = data;
  self->data_set_time = xrlab_now ();
  self->dirty = TRUE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DATA]);
}

XrlabPlotData *
xrlab_plot_get_data (XrlabPlot *self)
{
  g_return_val_if_fail (XRLAB_IS_PLOT (self), NULL);
  return self->data;
}

void
xrlab_plot_set_axes (XrlabPlot  *self,
                     const char *x_name,
                     const char *x_unit,
                     const char *y_name,
                     const char *y_unit)
{
  gboolean x_changed, y_changed;

  g_return_if_fail (XRLAB_IS_PLOT (self));

  /* Limits (and pins) in units that are no longer shown go. */
  x_changed = self->x_name != NULL && (g_strcmp0 (self->x_name, x_name) != 0 || g_strcmp0 (self->x_unit, x_unit) != 0);
  y_changed = self->y_name != NULL && (g_strcmp0 (self->y_name, y_name) != 0 || g_strcmp0 (self->y_unit, y_unit) != 0);
  g_free (self->x_name);
  g_free (self->x_unit);
  g_free (self->y_name);
  g_free (self->y_unit);
  self->x_name = g_strdup (x_name);
  self->x_unit = g_strdup (x_unit);
  self->y_name = g_strdup (y_name);
  self->y_unit = g_strdup (y_unit);
  if ((x_changed && (xrlab_plot_get_x_limits (self, NULL, NULL) || self->pins->len > 0)) ||
      (y_changed && xrlab_plot_get_y_limits (self, NULL, NULL)))
    {
      if (x_changed)
        {
          self->x_min = self->x_max = NAN;
          g_array_set_size (self->pins, 0);
        }
      if (y_changed)
        self->y_min = self->y_max = NAN;
      xrlab_plot_view_changed (self);
    }
  xrlab_plot_invalidate (self);
}

const char *
xrlab_plot_get_x_unit (XrlabPlot *self)
{
  g_return_val_if_fail (XRLAB_IS_PLOT (self), NULL);
  return self->x_unit != NULL ? self->x_unit : "";
}

void
xrlab_plot_set_y_symbol (XrlabPlot *self, const char *symbol)
{
  g_return_if_fail (XRLAB_IS_PLOT (self));
  if (g_strcmp0 (self->y_symbol, symbol) == 0)
    return;
  g_free (self->y_symbol);
  self->y_symbol = g_strdup (symbol);
  xrlab_plot_invalidate (self);
}

void
xrlab_plot_set_x_log (XrlabPlot *self, gboolean x_log)
{
  g_return_if_fail (XRLAB_IS_PLOT (self));
  x_log = !!x_log;
  if (self->x_log == x_log)
    return;
  self->x_log = x_log;
  if (x_log && xrlab_plot_get_x_limits (self, NULL, NULL) && !(self->x_min > 0))
    {
      self->x_min = self->x_max = NAN;
      xrlab_plot_view_changed (self);
    }
  xrlab_plot_invalidate (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_X_LOG]);
}

void
xrlab_plot_set_x_reversed (XrlabPlot *self, gboolean reversed)
{
  g_return_if_fail (XRLAB_IS_PLOT (self));
  if (self->x_reversed == !!reversed)
    return;
  self->x_reversed = !!reversed;
  xrlab_plot_view_changed (self);
}

gboolean
xrlab_plot_get_x_reversed (XrlabPlot *self)
{
  g_return_val_if_fail (XRLAB_IS_PLOT (self), FALSE);
  return self->x_reversed;
}

gboolean
xrlab_plot_get_x_log (XrlabPlot *self)
{
  g_return_val_if_fail (XRLAB_IS_PLOT (self), FALSE);
  return self->x_log;
}

void
xrlab_plot_set_y_log (XrlabPlot *self, gboolean y_log)
{
  g_return_if_fail (XRLAB_IS_PLOT (self));
  y_log = !!y_log;
  if (self->y_log == y_log)
    return;
  self->y_log = y_log;
  if (y_log && xrlab_plot_get_y_limits (self, NULL, NULL) && !(self->y_min > 0))
    {
      self->y_min = self->y_max = NAN;
      xrlab_plot_view_changed (self);
    }
  xrlab_plot_invalidate (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_Y_LOG]);
}

gboolean
xrlab_plot_get_y_log (XrlabPlot *self)
{
  g_return_val_if_fail (XRLAB_IS_PLOT (self), FALSE);
  return self->y_log;
}

void
xrlab_plot_set_markers (XrlabPlot             *self,
                        const XrlabPlotMarker *markers,
                        guint                  n_markers)
{
  g_return_if_fail (XRLAB_IS_PLOT (self));
  g_return_if_fail (n_markers == 0 || markers != NULL);

  g_array_set_size (self->markers, 0);
  for (guint i = 0; i < n_markers; i++)
    {
      XrlabPlotMarker m = { markers[i].x, g_strdup (markers[i].label), markers[i].group, markers[i].priority };
      g_array_append_val (self->markers, m);
    }
  xrlab_plot_invalidate (self);
}

guint
xrlab_plot_get_n_markers (XrlabPlot *self)
{
  g_return_val_if_fail (XRLAB_IS_PLOT (self), 0);
  return self->markers->len;
}

void
xrlab_plot_set_watermark (XrlabPlot *self, const char *text)
{
  g_return_if_fail (XRLAB_IS_PLOT (self));
  if (g_strcmp0 (self->watermark, text) == 0)
    return;
  g_free (self->watermark);
  self->watermark = g_strdup (text);
  xrlab_plot_invalidate (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_WATERMARK]);
}

void
xrlab_plot_set_note (XrlabPlot *self, const char *text)
{
  g_return_if_fail (XRLAB_IS_PLOT (self));
  if (g_strcmp0 (self->note, text) == 0)
    return;
  g_free (self->note);
  self->note = g_strdup (text);
  xrlab_plot_invalidate (self);
}

const char *
xrlab_plot_get_note (XrlabPlot *self)
{
  g_return_val_if_fail (XRLAB_IS_PLOT (self), NULL);
  return self->note;
}

void
xrlab_plot_set_message (XrlabPlot *self, const char *text)
{
  g_return_if_fail (XRLAB_IS_PLOT (self));
  if (g_strcmp0 (self->message, text) == 0)
    return;
  g_free (self->message);
  self->message = g_strdup (text);
  xrlab_plot_invalidate (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MESSAGE]);
}

void
xrlab_plot_set_overlay_text (XrlabPlot *self, const char *text)
{
  g_return_if_fail (XRLAB_IS_PLOT (self));
  if (g_strcmp0 (self->overlay_text, text) == 0)
    return;
  g_free (self->overlay_text);
  self->overlay_text = g_strdup (text);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
xrlab_plot_set_dark (XrlabPlot *self, gboolean dark)
{
  g_return_if_fail (XRLAB_IS_PLOT (self));
  dark = !!dark;
  if (self->dark == dark)
    return;
  self->dark = dark;
  xrlab_plot_invalidate (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DARK]);
}

gboolean
xrlab_plot_get_dark (XrlabPlot *self)
{
  g_return_val_if_fail (XRLAB_IS_PLOT (self), FALSE);
  return self->dark;
}

void
xrlab_plot_set_follow_style (XrlabPlot *self, gboolean follow)
{
  g_return_if_fail (XRLAB_IS_PLOT (self));
  follow = !!follow;
  if (self->follow_style == follow)
    return;
  self->follow_style = follow;
  if (follow)
    xrlab_plot_set_dark (self, adw_style_manager_get_dark (adw_style_manager_get_default ()));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FOLLOW_STYLE]);
}

void
xrlab_plot_set_line_width (XrlabPlot *self, double width_px)
{
  g_return_if_fail (XRLAB_IS_PLOT (self));
  width_px = CLAMP (width_px, 0.5, 8.0);
  if (self->line_width == width_px)
    return;
  self->line_width = width_px;
  xrlab_plot_invalidate (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LINE_WIDTH]);
}

double
xrlab_plot_get_line_width (XrlabPlot *self)
{
  g_return_val_if_fail (XRLAB_IS_PLOT (self), 0);
  return self->line_width;
}

void
xrlab_plot_set_show_markers (XrlabPlot *self, gboolean show)
{
  g_return_if_fail (XRLAB_IS_PLOT (self));
  if (self->show_markers == !!show)
    return;
  self->show_markers = !!show;
  xrlab_plot_invalidate (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOW_MARKERS]);
}

gboolean
xrlab_plot_get_show_markers (XrlabPlot *self)
{
  g_return_val_if_fail (XRLAB_IS_PLOT (self), FALSE);
  return self->show_markers;
}

void
xrlab_plot_set_show_legend (XrlabPlot *self, gboolean show)
{
  g_return_if_fail (XRLAB_IS_PLOT (self));
  if (self->show_legend == !!show)
    return;
  self->show_legend = !!show;
  xrlab_plot_invalidate (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOW_LEGEND]);
}

gboolean
xrlab_plot_get_show_legend (XrlabPlot *self)
{
  g_return_val_if_fail (XRLAB_IS_PLOT (self), FALSE);
  return self->show_legend;
}

gboolean
xrlab_plot_render (XrlabPlot *self,
                   cairo_t   *cr,
                   int        width,
                   int        height,
                   gboolean   dark,
                   GError   **error)
{
  GError *local_error = NULL;

  g_return_val_if_fail (XRLAB_IS_PLOT (self), FALSE);
  g_return_val_if_fail (cr != NULL, FALSE);
  g_return_val_if_fail (width > 0 && height > 0, FALSE);

  if (!render_chart (self, cr, width, height, dark, NULL, &local_error) &&
      g_error_matches (local_error, XRLAB_PLOT_ERROR, XRLAB_PLOT_ERROR_NO_DRIVER))
    {
      g_propagate_error (error, local_error);
      return FALSE;
    }
  /* The stream now has the export size; the next frame re-opens it. */
  self->dirty = TRUE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      return FALSE;
    }
  return TRUE;
}

const XrlabPlotFrame *
xrlab_plot_get_frame (XrlabPlot *self)
{
  g_return_val_if_fail (XRLAB_IS_PLOT (self), NULL);
  return &self->frame;
}

guint
xrlab_plot_get_render_count (XrlabPlot *self)
{
  g_return_val_if_fail (XRLAB_IS_PLOT (self), 0);
  return self->render_count;
}

double
xrlab_plot_get_last_render_ms (XrlabPlot *self)
{
  g_return_val_if_fail (XRLAB_IS_PLOT (self), 0);
  return self->last_render_ms;
}

gboolean
xrlab_plot_get_layers_kept (XrlabPlot *self)
{
  g_return_val_if_fail (XRLAB_IS_PLOT (self), FALSE);
  return xrlab_plot_renderer_get_layers_kept (self->renderer);
}

gboolean
xrlab_plot_get_redraw_pending (XrlabPlot *self)
{
  g_return_val_if_fail (XRLAB_IS_PLOT (self), FALSE);
  return self->dirty || self->cache == NULL;
}

double
xrlab_plot_get_data_to_frame_ms (XrlabPlot *self)
{
  g_return_val_if_fail (XRLAB_IS_PLOT (self), 0);
  return self->data_to_frame_ms;
}
