/* xrlab-map-render.c -- maps as an image with axes and a colour bar
 *
 * A frame: margins from the measured tick labels, the image (one pixel per
 * grid point, scaled up without smoothing into the plot area), the frame
 * and ticks, the axis titles, the colour bar with its ticks. Tick labels
 * are the PLplot text of xrlab-plot-ticks.h turned into Pango markup.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-map-render.h"
#include "xrlab-plot-ticks.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <glib/gi18n-lib.h>
#include <pango/pangocairo.h>

#define FONT_PT 9.0
#define PAD 8.0
#define TICK_MAJOR 6.0
#define TICK_MINOR 3.0
#define BAR_GAP 16.0
#define BAR_WIDTH 16.0

void
xrlab_map_scene_init (XrlabMapScene *scene)
{
  memset (scene, 0, sizeof *scene);
  scene->value_min = NAN;
  scene->value_max = NAN;
}

/* viridis, as a polynomial of degree 6 fitted to its 256 entries (each
 * channel within 0.01 of the table). */
XrlabPlotColor
xrlab_map_colormap (double t)
{
  static const double c[7][3] = {
    { 0.2777273272234177, 0.005407344544966578, 0.3340998053353061 },
    { 0.1050930431085774, 1.404613529898575, 1.384590162594685 },
    { -0.3308618287255563, 0.214847559468213, 0.09509516302823659 },
    { -4.634230498983486, -5.799100973351585, -19.33244095627987 },
    { 6.228269936347081, 14.17993336680509, 56.69055260068105 },
    { 4.776384997670288, -13.74514537774601, -65.35303263337234 },
    { -5.435455855934631, 4.645852612178535, 26.3124352495832 },
  };
  double rgb[3];

  t = isnan (t) ? 0.0 : CLAMP (t, 0.0, 1.0);
  for (int k = 0; k < 3; k++)
    {
      double v = c[6][k];
      for (int i = 5; i >= 0; i--)
        v = c[i][k] + t * v;
      rgb[k] = CLAMP (v, 0.0, 1.0);
    }
  return (XrlabPlotColor) { rgb[0], rgb[1], rgb[2], 1.0 };
}

/* ColorBrewer RdBu (11 classes), from blue to red. */
static XrlabPlotColor
diverging (double t)
{
  static const guint32 stops[] = {
    0x053061, 0x2166ac, 0x4393c3, 0x92c5de, 0xd1e5f0, 0xf7f7f7,
    0xfddbc7, 0xf4a582, 0xd6604d, 0xb2182b, 0x67001f,
  };
  const int n = G_N_ELEMENTS (stops) - 1;
  double f, u;
  int k;

  t = isnan (t) ? 0.5 : CLAMP (t, 0.0, 1.0);
  f = t * n;
  k = MIN ((int) f, n - 1);
  u = f - k;
#define CH(c, sh) ((((c) >> (sh)) & 0xff) / 255.0)
  return (XrlabPlotColor) { CH (stops[k], 16) + u * (CH (stops[k + 1], 16) - CH (stops[k], 16)),
                            CH (stops[k], 8) + u * (CH (stops[k + 1], 8) - CH (stops[k], 8)),
                            CH (stops[k], 0) + u * (CH (stops[k + 1], 0) - CH (stops[k], 0)), 1.0 };
#undef CH
}

XrlabPlotColor
xrlab_map_colormap_of (XrlabMapColormapKind kind, double t)
{
  return kind == XRLAB_MAP_COLORMAP_DIVERGING ? diverging (t) : xrlab_map_colormap (t);
}

/* Each colour map as 1024 packed pixels, made once. */
#define LUT_SIZE 1024

static const guint32 *
lut_of (XrlabMapColormapKind kind)
{
  static guint32 luts[2][LUT_SIZE];
  static gsize made = 0;

  if (g_once_init_enter (&made))
    {
      for (int m = 0; m < 2; m++)
        for (int i = 0; i < LUT_SIZE; i++)
          {
            XrlabPlotColor c = xrlab_map_colormap_of (m, i / (double) (LUT_SIZE - 1));
            luts[m][i] = 0xff000000u | ((guint32) lround (c.red * 255) << 16)
                         | ((guint32) lround (c.green * 255) << 8) | (guint32) lround (c.blue * 255);
          }
      g_once_init_leave (&made, 1);
    }
  return luts[kind == XRLAB_MAP_COLORMAP_DIVERGING];
}

/* ---- geometry ---------------------------------------------------------------- */

typedef struct {
  double w0, w1;      /* world coordinates of the first and last cell edges */
  double lo, hi;      /* the axis window: min and max of them, or the limits shown */
  gboolean log;
  gboolean reversed;  /* drawn from hi to lo */
} Axis;

/* Where world @w lies along the axis, 0 at its start (left, bottom) and
 * 1 at its end. */
static double
axis_frac (const Axis *a, double w)
{
  double f = (w - a->lo) / (a->hi - a->lo);

  return a->reversed ? 1.0 - f : f;
}

static double
world (double v, gboolean log)
{
  return log ? (v > 0 ? log10 (v) : NAN) : v;
}

static gboolean
axis_of (const double *v, gsize n, gboolean log, Axis *a)
{
  double first, last, step;

  a->reversed = FALSE;
  if (n == 0)
    return FALSE;
  first = world (v[0], log);
  last = world (v[n - 1], log);
  if (!isfinite (first) || !isfinite (last))
    return FALSE;
  step = n > 1 ? (last - first) / (double) (n - 1) : 0.0;
  if (step == 0.0)
    step = fabs (first) > 0 ? 0.02 * fabs (first) : 1.0;
  a->w0 = first - step / 2;
  a->w1 = last + step / 2;
  a->lo = MIN (a->w0, a->w1);
  a->hi = MAX (a->w0, a->w1);
  a->log = log;
  return TRUE;
}

/* The axis of the scene: its cells, the view (limits), the direction. */
static gboolean
scene_axis (const double *v, gsize n, const XrlabPlotAxisSpec *spec, gboolean reversed, Axis *a)
{
  if (!axis_of (v, n, spec->log, a))
    return FALSE;
  if (xrlab_plot_axis_is_fixed (spec))
    {
      double lo = world (spec->min, spec->log), hi = world (spec->max, spec->log);
      if (isfinite (lo) && isfinite (hi) && lo < hi)
        a->lo = lo, a->hi = hi;
    }
  a->reversed = reversed;
  return TRUE;
}

/* The colour range [lo, hi] of the finite values (log10 of the positive
 * ones on a log scale). */
gboolean
xrlab_map_value_range (const XrlabMapScene *s, double *lo, double *hi)
{
  double mn = INFINITY, mx = -INFINITY;
  gsize n = s->n_x * s->n_y;

  /* a range given whole needs no pass over the values (the residual map's,
   * redrawn with every edit) */
  if (!isnan (s->value_min) && !isnan (s->value_max))
    n = 0;
  if (!s->value_log)
    /* branch-free, the non-finite values left out */
    for (gsize i = 0; i < n; i++)
      {
        double v = s->values[i];
        gboolean ok = fabs (v) <= G_MAXDOUBLE;
        double a = ok ? v : INFINITY, b = ok ? v : -INFINITY;

        mn = a < mn ? a : mn;
        mx = b > mx ? b : mx;
      }
  else
    for (gsize i = 0; i < n; i++)
      {
        double v = world (s->values[i], TRUE);
        if (isfinite (v))
          {
            mn = MIN (mn, v);
            mx = MAX (mx, v);
          }
      }
  if (!isnan (s->value_min))
    mn = world (s->value_min, s->value_log);
  if (!isnan (s->value_max))
    mx = world (s->value_max, s->value_log);
  if (!(isfinite (mn) && isfinite (mx)))
    return FALSE;
  if (s->value_log && isnan (s->value_min))
    mn = MAX (mn, mx - XRLAB_MAP_MAX_DECADES);
  if (mx <= mn)
    {
      double pad = mn != 0 ? 0.05 * fabs (mn) : 0.5;
      mn -= pad;
      mx += pad;
    }
  *lo = mn;
  *hi = mx;
  return TRUE;
}

/* ---- text -------------------------------------------------------------------- */

/* PLplot text ("10#u-3#d") as Pango markup. */
static char *
markup_of (const char *pl)
{
  GString *s = g_string_new (NULL);

  for (const char *p = pl; *p; p++)
    {
      if (p[0] == '#' && p[1] == 'u')
        g_string_append (s, "<sup>"), p++;
      else if (p[0] == '#' && p[1] == 'd')
        g_string_append (s, "</sup>"), p++;
      else if (*p == '<')
        g_string_append (s, "&lt;");
      else if (*p == '>')
        g_string_append (s, "&gt;");
      else if (*p == '&')
        g_string_append (s, "&amp;");
      else
        g_string_append_c (s, *p);
    }
  return g_string_free (s, FALSE);
}

static PangoLayout *
layout_new (cairo_t *cr, double pt)
{
  PangoLayout *layout = pango_cairo_create_layout (cr);
  PangoFontDescription *desc = pango_font_description_from_string ("sans");

  pango_font_description_set_size (desc, (int) (pt * PANGO_SCALE));
  pango_layout_set_font_description (layout, desc);
  pango_font_description_free (desc);
  return layout;
}

static void
text_size (PangoLayout *layout, const char *markup, double *w, double *h)
{
  int iw, ih;

  pango_layout_set_markup (layout, markup, -1);
  pango_layout_get_pixel_size (layout, &iw, &ih);
  *w = iw;
  *h = ih;
}

/* Draws @markup with its anchor (@ax, @ay in 0..1 of its box) at (x, y). */
static void
draw_text (cairo_t *cr, PangoLayout *layout, const char *markup, double x, double y,
           double ax, double ay, gboolean vertical)
{
  double w, h;

  text_size (layout, markup, &w, &h);
  cairo_save (cr);
  cairo_translate (cr, x, y);
  if (vertical)
    cairo_rotate (cr, -G_PI / 2);
  cairo_move_to (cr, -ax * w, -ay * h);
  pango_cairo_show_layout (cr, layout);
  cairo_restore (cr);
}

static char *
axis_title (const XrlabPlotAxisSpec *axis)
{
  g_autofree char *n = g_markup_escape_text (axis->name != NULL ? axis->name : "", -1);
  g_autofree char *u = g_markup_escape_text (axis->unit != NULL ? axis->unit : "", -1);

  return u[0] == '\0' ? g_steal_pointer (&n) : g_strdup_printf ("%s (%s)", n, u);
}

static void
set_color (cairo_t *cr, const XrlabPlotColor *c)
{
  cairo_set_source_rgba (cr, c->red, c->green, c->blue, c->alpha);
}

static void
ticks_of (XrlabPlotTicks *t, double lo, double hi, gboolean log, double target)
{
  if (log)
    xrlab_plot_ticks_log (t, lo, hi, target);
  else
    xrlab_plot_ticks_linear (t, lo, hi, target, FALSE, FALSE);
}

/* The widest tick label of @t. */
static double
widest_label (PangoLayout *layout, const XrlabPlotTicks *t)
{
  double best = 0, w, h;

  for (guint i = 0; i < t->n; i++)
    if (t->ticks[i].label[0] != '\0')
      {
        g_autofree char *m = markup_of (t->ticks[i].label);
        text_size (layout, m, &w, &h);
        best = MAX (best, w);
      }
  return best;
}

/* ---- drawing ------------------------------------------------------------------ */

/* The values as an image, a pixel per grid point, row iy of the values in
 * image row iy. */
static cairo_surface_t *
map_image (const XrlabMapScene *s, double lo, double hi, const XrlabPlotColor *none)
{
  cairo_surface_t *img = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) s->n_x, (int) s->n_y);
  int stride = cairo_image_surface_get_stride (img);
  guchar *data = cairo_image_surface_get_data (img);
  const guint32 *lut = lut_of (s->colormap);
  guint32 missing = 0xff000000u | ((guint32) lround (none->red * 255) << 16)
                    | ((guint32) lround (none->green * 255) << 8) | (guint32) lround (none->blue * 255);
  double scale = (LUT_SIZE - 1) / (hi - lo);

  for (gsize iy = 0; iy < s->n_y; iy++)
    {
      guint32 *row = (guint32 *) (void *) (data + (gsize) iy * stride);
      const double *v = s->values + iy * s->n_x;

      if (!s->value_log)
        {
          for (gsize ix = 0; ix < s->n_x; ix++)
            {
              gboolean ok = fabs (v[ix]) <= G_MAXDOUBLE;
              double k = ((ok ? v[ix] : lo) - lo) * scale + 0.5;
              int idx = k <= 0 ? 0 : k >= LUT_SIZE - 1 ? LUT_SIZE - 1 : (int) k;

              row[ix] = ok ? lut[idx] : missing;
            }
          continue;
        }
      for (gsize ix = 0; ix < s->n_x; ix++)
        {
          double w = s->value_log ? (v[ix] > 0 ? log10 (v[ix]) : NAN) : v[ix];
          if (isfinite (w))
            {
              double k = (w - lo) * scale + 0.5;
              row[ix] = lut[k <= 0 ? 0 : k >= LUT_SIZE - 1 ? LUT_SIZE - 1 : (int) k];
            }
          else
            row[ix] = s->value_log && v[ix] == 0.0 ? lut[0] : missing;
        }
    }
  cairo_surface_mark_dirty (img);
  return img;
}

cairo_surface_t *
xrlab_map_image_new (const XrlabMapScene *scene)
{
  double lo, hi;

  g_return_val_if_fail (scene != NULL, NULL);
  if (scene->values == NULL || scene->n_x == 0 || scene->n_y == 0 || scene->n_x > 32767
      || scene->n_y > 32767 || !xrlab_map_value_range (scene, &lo, &hi))
    return NULL;
  return map_image (scene, lo, hi, &xrlab_plot_palette_get (scene->dark)->grid);
}

static void
draw_axis_ticks (cairo_t *cr, PangoLayout *layout, const XrlabPlotTicks *t, const Axis *a,
                 const XrlabPlotFrame *f, gboolean horizontal, const XrlabPlotPalette *pal)
{
  for (guint i = 0; i < t->n; i++)
    {
      const XrlabPlotTick *tick = &t->ticks[i];
      double len = tick->major ? TICK_MAJOR : TICK_MINOR;
      double frac = axis_frac (a, tick->pos);

      if (frac < -1e-9 || frac > 1 + 1e-9)
        continue;
      set_color (cr, &pal->frame);
      if (horizontal)
        {
          double px = f->px0 + frac * (f->px1 - f->px0);
          cairo_move_to (cr, px, f->py1);
          cairo_line_to (cr, px, f->py1 + len);
        }
      else
        {
          double py = f->py1 - frac * (f->py1 - f->py0);
          cairo_move_to (cr, f->px0, py);
          cairo_line_to (cr, f->px0 - len, py);
        }
      cairo_stroke (cr);
      if (tick->label[0] != '\0')
        {
          g_autofree char *m = markup_of (tick->label);
          set_color (cr, &pal->fg);
          if (horizontal)
            draw_text (cr, layout, m, f->px0 + frac * (f->px1 - f->px0), f->py1 + TICK_MAJOR + 2,
                       0.5, 0.0, FALSE);
          else
            draw_text (cr, layout, m, f->px0 - TICK_MAJOR - 3, f->py1 - frac * (f->py1 - f->py0),
                       1.0, 0.5, FALSE);
        }
    }
}

static void
draw_colour_bar (cairo_t *cr, PangoLayout *layout, const XrlabMapScene *s, double lo, double hi,
                 double bx, const XrlabPlotFrame *f, const XrlabPlotPalette *pal)
{
  XrlabPlotTicks *t = g_new (XrlabPlotTicks, 1);
  g_autofree char *title = g_markup_escape_text (s->value_name ? s->value_name : "", -1);
  int steps = 128;

  for (int k = 0; k < steps; k++)
    {
      XrlabPlotColor c = xrlab_map_colormap_of (s->colormap, (k + 0.5) / steps);
      double y0 = f->py1 - (f->py1 - f->py0) * k / steps;
      double y1 = f->py1 - (f->py1 - f->py0) * (k + 1) / steps;

      set_color (cr, &c);
      cairo_rectangle (cr, bx, y1, BAR_WIDTH, y0 - y1 + 0.5);
      cairo_fill (cr);
    }
  set_color (cr, &pal->frame);
  cairo_set_line_width (cr, 1.0);
  cairo_rectangle (cr, bx + 0.5, f->py0 + 0.5, BAR_WIDTH - 1, f->py1 - f->py0 - 1);
  cairo_stroke (cr);

  ticks_of (t, lo, hi, s->value_log, 6);
  for (guint i = 0; i < t->n; i++)
    {
      double frac = (t->ticks[i].pos - lo) / (hi - lo);
      double py = f->py1 - frac * (f->py1 - f->py0);

      if (frac < -1e-9 || frac > 1 + 1e-9)
        continue;
      set_color (cr, &pal->frame);
      cairo_move_to (cr, bx + BAR_WIDTH, py);
      cairo_line_to (cr, bx + BAR_WIDTH + (t->ticks[i].major ? TICK_MAJOR : TICK_MINOR), py);
      cairo_stroke (cr);
      if (t->ticks[i].label[0] != '\0')
        {
          g_autofree char *m = markup_of (t->ticks[i].label);
          set_color (cr, &pal->fg);
          draw_text (cr, layout, m, bx + BAR_WIDTH + TICK_MAJOR + 3, py, 0.0, 0.5, FALSE);
        }
    }
  set_color (cr, &pal->fg);
  draw_text (cr, layout, title, bx + BAR_WIDTH / 2, f->py0 - 4, 0.5, 1.0, FALSE);
  g_free (t);
}

static void
draw_message (cairo_t *cr, PangoLayout *layout, const char *message, int width, int height,
              const XrlabPlotPalette *pal)
{
  g_autofree char *m = g_markup_escape_text (message != NULL ? message : "", -1);

  set_color (cr, &pal->muted);
  draw_text (cr, layout, m, width / 2.0, height / 2.0, 0.5, 0.5, FALSE);
}

/* The overlays, clipped to the plot area. */
static void
draw_overlays (cairo_t *cr, PangoLayout *layout, const XrlabMapScene *scene, const Axis *ax,
               const Axis *ay, const XrlabPlotFrame *f)
{
  const double dash[] = { 6.0, 4.0 };

  cairo_save (cr);
  cairo_rectangle (cr, f->px0, f->py0, f->px1 - f->px0, f->py1 - f->py0);
  cairo_clip (cr);
  for (guint i = 0; i < scene->n_overlays; i++)
    {
      const XrlabMapOverlay *o = &scene->overlays[i];
      double wx0 = world (o->x0, ax->log), wx1 = world (o->x1, ax->log);
      double wy0 = world (o->y0, ay->log), wy1 = world (o->y1, ay->log);
      double px0 = isfinite (wx0) ? f->px0 + axis_frac (ax, wx0) * (f->px1 - f->px0) : f->px0;
      double px1 = isfinite (wx1) ? f->px0 + axis_frac (ax, wx1) * (f->px1 - f->px0) : f->px1;
      double py0 = isfinite (wy0) ? f->py1 - axis_frac (ay, wy0) * (f->py1 - f->py0) : f->py1;
      double py1 = isfinite (wy1) ? f->py1 - axis_frac (ay, wy1) * (f->py1 - f->py0) : f->py0;
      double l = MIN (px0, px1), r = MAX (px0, px1), t = MIN (py0, py1), b = MAX (py0, py1);

      cairo_set_dash (cr, dash, o->dashed ? 2 : 0, 0);
      switch (o->kind)
        {
        case XRLAB_MAP_OVERLAY_RECT:
          /* A dark halo under the line keeps it visible on light colours. */
          cairo_set_line_width (cr, 3.5);
          cairo_set_source_rgba (cr, 0, 0, 0, 0.45);
          cairo_rectangle (cr, l, t, r - l, b - t);
          cairo_stroke (cr);
          cairo_set_line_width (cr, 1.5);
          set_color (cr, &o->color);
          cairo_rectangle (cr, l, t, r - l, b - t);
          cairo_stroke (cr);
          break;
        case XRLAB_MAP_OVERLAY_HBAND:
          l = f->px0, r = f->px1;
          cairo_set_source_rgba (cr, o->color.red, o->color.green, o->color.blue, 0.28);
          cairo_rectangle (cr, l, t, r - l, b - t);
          cairo_fill (cr);
          cairo_set_line_width (cr, 1.0);
          set_color (cr, &o->color);
          cairo_move_to (cr, l, t + 0.5);
          cairo_line_to (cr, r, t + 0.5);
          cairo_move_to (cr, l, b - 0.5);
          cairo_line_to (cr, r, b - 0.5);
          cairo_stroke (cr);
          break;
        case XRLAB_MAP_OVERLAY_CURSOR:
          cairo_set_line_width (cr, 1.0);
          set_color (cr, &o->color);
          if (isfinite (wx0))
            {
              cairo_move_to (cr, round (px0) + 0.5, f->py0);
              cairo_line_to (cr, round (px0) + 0.5, f->py1);
            }
          if (isfinite (wy0))
            {
              cairo_move_to (cr, f->px0, round (py0) + 0.5);
              cairo_line_to (cr, f->px1, round (py0) + 0.5);
            }
          cairo_stroke (cr);
          t = isfinite (wy0) ? py0 : t;
          l = isfinite (wx0) ? px0 : l;
          break;
        }
      if (o->label != NULL)
        {
          g_autofree char *m = g_markup_escape_text (o->label, -1);
          double w, h;

          text_size (layout, m, &w, &h);
          cairo_set_source_rgba (cr, 0, 0, 0, 0.5);
          cairo_rectangle (cr, MAX (l, f->px0) + 3, MAX (t, f->py0) + 3, w + 6, h + 2);
          cairo_fill (cr);
          set_color (cr, &o->color);
          draw_text (cr, layout, m, MAX (l, f->px0) + 6, MAX (t, f->py0) + 4, 0.0, 0.0, FALSE);
        }
    }
  cairo_set_dash (cr, NULL, 0, 0);
  cairo_restore (cr);
}

gboolean
xrlab_map_render (const XrlabMapScene *scene,
                  cairo_t             *cr,
                  int                  width,
                  int                  height,
                  XrlabPlotFrame      *frame_out)
{
  const XrlabPlotPalette *pal = xrlab_plot_palette_get (scene->dark);
  XrlabPlotTicks *xt = NULL, *yt = NULL, *bt = NULL;
  g_autoptr(PangoLayout) layout = NULL;
  g_autofree char *xtitle = NULL, *ytitle = NULL;
  XrlabPlotFrame f = { 0 };
  Axis ax, ay;
  double lo, hi, tw, th, left, right, bottom, top;
  cairo_surface_t *img;
  cairo_pattern_t *pattern;
  cairo_matrix_t m;

  g_return_val_if_fail (scene != NULL && cr != NULL, FALSE);
  if (frame_out != NULL)
    *frame_out = f;
  if (cairo_status (cr) != CAIRO_STATUS_SUCCESS)
    return FALSE;

  set_color (cr, &pal->bg);
  cairo_paint (cr);
  layout = layout_new (cr, FONT_PT);
  if (scene->values == NULL || scene->n_x == 0 || scene->n_y == 0 || width < 120 || height < 90
      || !scene_axis (scene->x, scene->n_x, &scene->x_axis, scene->x_reversed, &ax)
      || !scene_axis (scene->y, scene->n_y, &scene->y_axis, scene->y_reversed, &ay)
      || !xrlab_map_value_range (scene, &lo, &hi))
    {
      draw_message (cr, layout, scene->message, width, height, pal);
      return TRUE;
    }

  xt = g_new (XrlabPlotTicks, 1);
  yt = g_new (XrlabPlotTicks, 1);
  bt = g_new (XrlabPlotTicks, 1);
  ticks_of (xt, ax.lo, ax.hi, ax.log, 7);
  ticks_of (yt, ay.lo, ay.hi, ay.log, 6);
  ticks_of (bt, lo, hi, scene->value_log, 6);
  xtitle = axis_title (&scene->x_axis);
  ytitle = axis_title (&scene->y_axis);
  text_size (layout, "0", &tw, &th);

  /* Margins from what goes into them. */
  left = PAD + th + 6 + widest_label (layout, yt) + TICK_MAJOR + 3;
  right = PAD + BAR_GAP + BAR_WIDTH + TICK_MAJOR + 3 + widest_label (layout, bt);
  bottom = PAD + th + 4 + th + TICK_MAJOR + 2;
  top = PAD + th + 6 + (scene->title != NULL ? th + 4 : 0);
  f.valid = TRUE;
  f.px0 = left;
  f.px1 = width - right;
  f.py0 = top;
  f.py1 = height - bottom;
  f.wx0 = ax.reversed ? ax.hi : ax.lo;
  f.wx1 = ax.reversed ? ax.lo : ax.hi;
  f.wy0 = ay.reversed ? ay.hi : ay.lo;
  f.wy1 = ay.reversed ? ay.lo : ay.hi;
  f.x_log = ax.log;
  f.y_log = ay.log;
  if (f.px1 - f.px0 < 20 || f.py1 - f.py0 < 20)
    {
      draw_message (cr, layout, scene->message, width, height, pal);
      goto done;
    }

  /* The image: pixel ix covers world [w0 + ix step, w0 + (ix + 1) step]
   * (step < 0 on a decreasing axis), placed by axis_frac (linear in the
   * world coordinate), so a decreasing or reversed axis mirrors it and a
   * zoom scales it. */
  img = scene->image != NULL ? cairo_surface_reference (scene->image) : map_image (scene, lo, hi, &pal->grid);
  pattern = cairo_pattern_create_for_surface (img);
  cairo_pattern_set_filter (pattern, CAIRO_FILTER_NEAREST);
  {
    double W = f.px1 - f.px0, H = f.py1 - f.py0;
    double stx = (ax.w1 - ax.w0) / (double) scene->n_x, sty = (ay.w1 - ay.w0) / (double) scene->n_y;
    double ox = f.px0 + axis_frac (&ax, ax.w0) * W;
    double sx = (axis_frac (&ax, ax.w0 + stx) - axis_frac (&ax, ax.w0)) * W;
    double oy = f.py1 - axis_frac (&ay, ay.w0) * H;
    double sy = -(axis_frac (&ay, ay.w0 + sty) - axis_frac (&ay, ay.w0)) * H;

    /* user = o + s · pixel: the pattern matrix is its inverse. */
    cairo_matrix_init (&m, sx, 0, 0, sy, ox, oy);
    if (cairo_matrix_invert (&m) == CAIRO_STATUS_SUCCESS)
      cairo_pattern_set_matrix (pattern, &m);
  }
  cairo_save (cr);
  cairo_rectangle (cr, f.px0, f.py0, f.px1 - f.px0, f.py1 - f.py0);
  cairo_clip (cr);
  set_color (cr, &pal->grid);
  cairo_paint (cr);
  cairo_set_source (cr, pattern);
  cairo_pattern_set_extend (pattern, CAIRO_EXTEND_NONE);
  cairo_paint (cr);
  cairo_restore (cr);
  cairo_pattern_destroy (pattern);
  cairo_surface_destroy (img);
  draw_overlays (cr, layout, scene, &ax, &ay, &f);

  set_color (cr, &pal->frame);
  cairo_set_line_width (cr, 1.0);
  cairo_rectangle (cr, f.px0 + 0.5, f.py0 + 0.5, f.px1 - f.px0 - 1, f.py1 - f.py0 - 1);
  cairo_stroke (cr);
  draw_axis_ticks (cr, layout, xt, &ax, &f, TRUE, pal);
  draw_axis_ticks (cr, layout, yt, &ay, &f, FALSE, pal);
  set_color (cr, &pal->fg);
  draw_text (cr, layout, xtitle, (f.px0 + f.px1) / 2, height - PAD, 0.5, 1.0, FALSE);
  draw_text (cr, layout, ytitle, PAD, (f.py0 + f.py1) / 2, 0.5, 0.0, TRUE);
  if (scene->title != NULL)
    {
      g_autofree char *t = g_markup_escape_text (scene->title, -1);
      draw_text (cr, layout, t, f.px0, PAD, 0.0, 0.0, FALSE);
    }
  draw_colour_bar (cr, layout, scene, lo, hi, f.px1 + BAR_GAP, &f, pal);

done:
  g_free (xt);
  g_free (yt);
  g_free (bt);
  if (frame_out != NULL)
    *frame_out = f;
  return cairo_status (cr) == CAIRO_STATUS_SUCCESS;
}

double
xrlab_map_value_at (const XrlabMapScene *scene, double x, double y)
{
  Axis ax, ay;
  double fx, fy;
  gsize ix, iy;

  if (scene->values == NULL || !axis_of (scene->x, scene->n_x, scene->x_axis.log, &ax)
      || !axis_of (scene->y, scene->n_y, scene->y_axis.log, &ay))
    return NAN;
  fx = (world (x, ax.log) - ax.w0) / (ax.w1 - ax.w0) * (double) scene->n_x;
  fy = (world (y, ay.log) - ay.w0) / (ay.w1 - ay.w0) * (double) scene->n_y;
  if (!(fx >= 0 && fx < (double) scene->n_x && fy >= 0 && fy < (double) scene->n_y))
    return NAN;
  ix = (gsize) fx;
  iy = (gsize) fy;
  return scene->values[iy * scene->n_x + ix];
}

gboolean
xrlab_map_write (const XrlabMapScene *scene,
                 XrlabPlotFormat      format,
                 int                  width,
                 int                  height,
                 double               scale,
                 cairo_write_func_t   write_func,
                 void                *closure,
                 const char          *name,
                 GError             **error)
{
  cairo_surface_t *surface;
  cairo_status_t status;
  cairo_t *cr;
  gboolean ok;

  g_return_val_if_fail (scene != NULL && write_func != NULL, FALSE);
  if (!xrlab_plot_output_check (format, width, height, scale, error))
    return FALSE;
  switch (format)
    {
    case XRLAB_PLOT_FORMAT_PNG:
      surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) ceil (width * scale),
                                            (int) ceil (height * scale));
      cairo_surface_set_device_scale (surface, scale, scale);
      break;
    case XRLAB_PLOT_FORMAT_SVG:
      surface = cairo_svg_surface_create_for_stream (write_func, closure, width, height);
      break;
    case XRLAB_PLOT_FORMAT_PDF:
      surface = cairo_pdf_surface_create_for_stream (write_func, closure, width, height);
      break;
    default:
      g_return_val_if_reached (FALSE);
    }
  cr = cairo_create (surface);
  ok = xrlab_map_render (scene, cr, width, height, NULL);
  cairo_destroy (cr);
  if (format == XRLAB_PLOT_FORMAT_PNG)
    status = cairo_surface_write_to_png_stream (surface, write_func, closure);
  else
    {
      cairo_surface_finish (surface);
      status = cairo_surface_status (surface);
    }
  cairo_surface_destroy (surface);
  if (!ok || status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, XRLAB_PLOT_ERROR, XRLAB_PLOT_ERROR_FAILED,
                   _("Could not write “%s”: %s"), name != NULL ? name : "",
                   status == CAIRO_STATUS_WRITE_ERROR ? g_strerror (errno) : cairo_status_to_string (status));
      return FALSE;
    }
  return TRUE;
}
