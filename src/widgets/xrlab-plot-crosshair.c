/* xrlab-plot-crosshair.c -- the crosshair of XrlabPlot and its readout
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-plot-crosshair.h"

#include <math.h>

#include <glib/gi18n-lib.h>

/* ---- values ------------------------------------------------------------------- */

/* "1.234×10<sup>−5</sup>" (markup) or plain "%.4g". */
static char *
format_value_markup (double v)
{
  double a = fabs (v);

  if (!isfinite (v))
    return g_strdup ("—");
  if (a != 0 && (a < 1e-3 || a >= 1e5))
    {
      int e = (int) floor (log10 (a));
      double m = v / pow (10, e);
      if (fabs (m) >= 9.9995)
        {
          m /= 10;
          e++;
        }
      return g_strdup_printf ("%s%.4g×10<sup>%s%d</sup>", m < 0 ? "−" : "", fabs (m),
                              e < 0 ? "−" : "", ABS (e));
    }
  if (v < 0)
    return g_strdup_printf ("−%.4g", -v);
  return g_strdup_printf ("%.4g", v);
}

static char *
format_value_plain (double v)
{
  if (!isfinite (v))
    return g_strdup ("—");
  return g_strdup_printf ("%.6g", v);
}

char *
xrlab_plot_crosshair_readout (const XrlabPlotData *data,
                              const char          *x_unit,
                              double               x,
                              gboolean             x_log)
{
  GString *s;
  guint ns;

  if (!isfinite (x) || data == NULL)
    return g_strdup ("");

  s = g_string_new (NULL);
  {
    g_autofree char *xv = format_value_plain (x);
    g_string_append_printf (s, "%s %s\n", xv, x_unit != NULL ? x_unit : "");
  }
  ns = xrlab_plot_data_get_n_series (data);
  for (guint i = 0; i < ns; i++)
    {
      const XrlabPlotSeries *ser = xrlab_plot_data_get_series (data, i);
      double y = xrlab_plot_series_value_at (ser, x, x_log);
      g_autofree char *v = format_value_plain (y);
      g_string_append_printf (s, "%s\t%s\n", ser->label, v);
    }
  return g_string_free (s, FALSE);
}

/* ---- drawing -------------------------------------------------------------------- */

static void
set_source (cairo_t *cr, const XrlabPlotColor *c)
{
  cairo_set_source_rgba (cr, c->red, c->green, c->blue, c->alpha);
}

/* A series' colour as the renderer draws it. */
static XrlabPlotColor
series_color (const XrlabPlotSeries *series, gboolean dark)
{
  XrlabPlotColor c = xrlab_plot_series_get_color (series);
  return xrlab_plot_series_color (&c, dark, series->stale);
}

/* The vertical line at @px and a dot where it meets each curve. */
static void
draw_line_and_dots (const XrlabPlotCrosshair *c,
                    cairo_t                  *cr,
                    const XrlabPlotPalette   *pal,
                    double                    px)
{
  const XrlabPlotFrame *f = c->frame;
  guint ns = xrlab_plot_data_get_n_series (c->data);

  cairo_set_line_width (cr, 1.0);
  cairo_set_source_rgba (cr, pal->fg.red, pal->fg.green, pal->fg.blue, 0.45);
  cairo_move_to (cr, floor (px) + 0.5, f->py0);
  cairo_line_to (cr, floor (px) + 0.5, f->py1);
  cairo_stroke (cr);

  for (guint s = 0; s < ns; s++)
    {
      const XrlabPlotSeries *ser = xrlab_plot_data_get_series (c->data, s);
      double y = xrlab_plot_series_value_at (ser, c->x, f->x_log);
      double py = xrlab_plot_frame_y_to_py (f, y);
      XrlabPlotColor color = series_color (ser, c->dark);
      if (!isfinite (py) || py < f->py0 || py > f->py1)
        continue;
      cairo_arc (cr, px, py, 3.5, 0, 2 * G_PI);
      set_source (cr, &pal->bg);
      cairo_fill_preserve (cr);
      set_source (cr, &color);
      cairo_set_line_width (cr, 2.0);
      cairo_stroke (cr);
    }
}

/* The readout's lines: the x value in bold, then one line per series. */
static GPtrArray *
readout_layouts (const XrlabPlotCrosshair *c, GtkWidget *widget, guint number)
{
  GPtrArray *layouts = g_ptr_array_new_with_free_func (g_object_unref);
  guint ns = xrlab_plot_data_get_n_series (c->data);
  PangoLayout *head = gtk_widget_create_pango_layout (widget, NULL);
  g_autofree char *xv = format_value_markup (c->x);
  g_autofree char *unit = g_markup_escape_text (c->x_unit != NULL ? c->x_unit : "", -1);
  g_autofree char *head_markup = number > 0 ? g_strdup_printf ("<b>%u  ·  %s %s</b>", number, xv, unit)
                                            : g_strdup_printf ("<b>%s %s</b>", xv, unit);

  pango_layout_set_markup (head, head_markup, -1);
  g_ptr_array_add (layouts, head);
  for (guint s = 0; s < ns; s++)
    {
      const XrlabPlotSeries *ser = xrlab_plot_data_get_series (c->data, s);
      double y = xrlab_plot_series_value_at (ser, c->x, c->frame->x_log);
      g_autofree char *val = format_value_markup (y);
      g_autofree char *label = g_markup_escape_text (ser->label, -1);
      g_autofree char *markup = NULL;
      PangoLayout *l = gtk_widget_create_pango_layout (widget, NULL);
      markup = g_strdup_printf ("%s  <span font_features=\"tnum\">%s</span>%s%s%s", label, val,
                                ser->stale ? "  <span alpha=\"60%\">" : "",
                                /* TRANSLATORS: crosshair readout of a stale curve */
                                ser->stale ? _("(last valid)") : "",
                                ser->stale ? "</span>" : "");
      pango_layout_set_markup (l, markup, -1);
      g_ptr_array_add (layouts, l);
    }
  return layouts;
}

static void
readout_size (GPtrArray *layouts, double *box_w, double *box_h, double *line_h)
{
  int w, h;

  pango_layout_get_pixel_size (g_ptr_array_index (layouts, 0), &w, &h);
  *box_w = w;
  *box_h = h;
  *line_h = h;
  for (guint i = 1; i < layouts->len; i++)
    {
      pango_layout_get_pixel_size (g_ptr_array_index (layouts, i), &w, &h);
      *box_w = MAX (*box_w, w + 16);
      *box_h += h;
    }
  *box_w += 16;
  *box_h += 12;
}

static void
paint_readout (const XrlabPlotCrosshair *c, GPtrArray *layouts, cairo_t *cr, const XrlabPlotPalette *pal,
               double box_x, double box_y, double box_w, double box_h, double line_h)
{
  double y;
  int w, h;

  cairo_rectangle (cr, box_x, box_y, box_w, box_h);
  cairo_set_source_rgba (cr, pal->legend_bg.red, pal->legend_bg.green, pal->legend_bg.blue, 0.94);
  cairo_fill_preserve (cr);
  cairo_set_source_rgba (cr, pal->fg.red, pal->fg.green, pal->fg.blue, 0.18);
  cairo_set_line_width (cr, 1);
  cairo_stroke (cr);

  set_source (cr, &pal->fg);
  cairo_move_to (cr, box_x + 8, box_y + 6);
  pango_cairo_show_layout (cr, g_ptr_array_index (layouts, 0));
  y = box_y + 6 + line_h;
  for (guint i = 1; i < layouts->len; i++)
    {
      const XrlabPlotSeries *ser = xrlab_plot_data_get_series (c->data, i - 1);
      PangoLayout *l = g_ptr_array_index (layouts, i);
      XrlabPlotColor color = series_color (ser, c->dark);
      pango_layout_get_pixel_size (l, &w, &h);
      set_source (cr, &color);
      cairo_rectangle (cr, box_x + 8, y + h / 2.0 - 4, 9, 9);
      cairo_fill (cr);
      set_source (cr, &pal->fg);
      cairo_move_to (cr, box_x + 24, y);
      pango_cairo_show_layout (cr, l);
      y += h;
    }
}

/* The readout box next to the line at @px: beside the pointer, inside the
 * plot area, clear of the legend. */
static void
draw_readout (const XrlabPlotCrosshair *c,
              GtkWidget                *widget,
              cairo_t                  *cr,
              const XrlabPlotPalette   *pal,
              double                    px)
{
  const XrlabPlotFrame *f = c->frame;
  g_autoptr(GPtrArray) layouts = readout_layouts (c, widget, 0);
  double box_x, box_y, box_w, box_h, line_h;

  readout_size (layouts, &box_w, &box_h, &line_h);
  box_x = px + 12;
  if (box_x + box_w > f->px1)
    box_x = px - 12 - box_w;
  box_x = MAX (box_x, 2);
  box_y = isfinite (c->pointer_y) ? c->pointer_y + 16 : f->py0 + (f->py1 - f->py0) * 0.45;
  if (box_y + box_h > f->py1)
    box_y = (isfinite (c->pointer_y) ? c->pointer_y - 16 : f->py1) - box_h;
  box_y = CLAMP (box_y, f->py0 + 4, MAX (f->py0 + 4, f->py1 - box_h - 4));
  if (f->lx1 > f->lx0 && box_x < f->lx1 && box_x + box_w > f->lx0 &&
      box_y < f->ly1 && box_y + box_h > f->ly0)
    box_y = f->ly1 + 6;
  paint_readout (c, layouts, cr, pal, box_x, box_y, box_w, box_h, line_h);
}

typedef struct {
  double x0, y0, x1, y1;
} Box;

static gboolean
box_hits (const GArray *boxes, double x0, double y0, double x1, double y1, double *below)
{
  for (guint i = 0; i < boxes->len; i++)
    {
      const Box *b = &g_array_index (boxes, Box, i);
      if (x0 < b->x1 + 4 && x1 > b->x0 - 4 && y0 < b->y1 + 4 && y1 > b->y0 - 4)
        {
          *below = b->y1 + 6;
          return TRUE;
        }
    }
  return FALSE;
}

void
xrlab_plot_crosshair_draw_pins (const XrlabPlotCrosshair *c,
                                const double             *pins,
                                guint                     n_pins,
                                GtkWidget                *widget,
                                cairo_t                  *cr)
{
  const XrlabPlotFrame *f = c->frame;
  const XrlabPlotPalette *pal = xrlab_plot_palette_get (c->dark);
  g_autoptr(GArray) boxes = NULL;

  if (n_pins == 0 || f == NULL || !f->valid || c->data == NULL)
    return;
  boxes = g_array_new (FALSE, FALSE, sizeof (Box));
  if (f->lx1 > f->lx0)
    {
      Box legend = { f->lx0, f->ly0, f->lx1, f->ly1 };
      g_array_append_val (boxes, legend);
    }
  cairo_save (cr);
  for (guint k = 0; k < n_pins; k++)
    {
      XrlabPlotCrosshair pin = *c;
      double px = xrlab_plot_frame_x_to_px (f, pins[k]);
      g_autoptr(GPtrArray) layouts = NULL;
      double box_x, box_y, box_w, box_h, line_h, below;
      Box placed;

      if (!(px >= f->px0 - 0.5 && px <= f->px1 + 0.5))
        continue;
      pin.x = pins[k];
      pin.pointer_y = NAN;
      draw_line_and_dots (&pin, cr, pal, px);
      layouts = readout_layouts (&pin, widget, k + 1);
      readout_size (layouts, &box_w, &box_h, &line_h);
      box_x = px + 8 + box_w <= f->px1 ? px + 8 : MAX (px - 8 - box_w, 2);
      box_y = f->py0 + 6;
      /* Below the boxes already there (other pins', the legend). */
      for (int tries = 0; tries < 32 && box_hits (boxes, box_x, box_y, box_x + box_w, box_y + box_h, &below); tries++)
        box_y = below;
      paint_readout (&pin, layouts, cr, pal, box_x, box_y, box_w, box_h, line_h);
      placed = (Box) { box_x, box_y, box_x + box_w, box_y + box_h };
      g_array_append_val (boxes, placed);
    }
  cairo_restore (cr);
}

void
xrlab_plot_crosshair_draw (const XrlabPlotCrosshair *c,
                           GtkWidget                *widget,
                           cairo_t                  *cr)
{
  const XrlabPlotPalette *pal = xrlab_plot_palette_get (c->dark);
  double px;

  if (c->frame == NULL || !c->frame->valid || !isfinite (c->x) || c->data == NULL)
    return;
  px = xrlab_plot_frame_x_to_px (c->frame, c->x);
  if (!(px >= c->frame->px0 - 0.5 && px <= c->frame->px1 + 0.5))
    return;

  cairo_save (cr);
  draw_line_and_dots (c, cr, pal, px);
  draw_readout (c, widget, cr, pal, px);
  cairo_restore (cr);
}
