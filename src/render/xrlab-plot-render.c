/* xrlab-plot-render.c -- a scene drawn on a cairo_t: the passes over a
 * layout
 *
 * PLplot draws through its extcairo driver into the caller's cairo context
 * (PLESC_DEVINIT); every pass runs after the renderer's stream has been
 * selected. Coordinates passed to PLplot are world coordinates: the value on
 * a linear axis, log10 of it on a log axis.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-plot-render-private.h"

#include <glib/gi18n-lib.h>

struct _XrlabPlotRenderer {
  XrlabPlotStream stream;
  XrlabPlotLayout layout;
  GArray *texts;                 /* XrlabPlotTextBox of the last frame */

  /* transformed coordinates of one curve (world, and cairo units for an
   * envelope) */
  double *wx, *wy, *ux, *uy;
  gsize work_len;
  /* On a raster target: the device pixel columns across the plot (runs
   * of points are thinned to what these columns show); 0 on vector ones. */
  double columns;
  /* the PLplot pass's context, its matrix before PLplot set its own, and
   * the colour of the curve being drawn (for envelopes) */
  cairo_t *pass_cr;
  cairo_matrix_t user_matrix;
  XrlabPlotColor curve_color;

  /* the layers of xrlab_plot_renderer_draw_layered(): NULL when none */
  cairo_surface_t *below, *above;
  XrlabPlotFrame layer_frame;
  guint layer_n_curves;
  gboolean layers_kept;
};

/* What a PLplot pass draws. */
enum {
  DRAW_GRID = 1 << 0,            /* the grid and the marker lines */
  DRAW_STATIC = 1 << 1,          /* the curves that are not live */
  DRAW_LIVE = 1 << 2,            /* the live curves */
  DRAW_FRAME = 1 << 3,
  DRAW_ALL = DRAW_GRID | DRAW_STATIC | DRAW_LIVE | DRAW_FRAME,
};

void
xrlab_plot_scene_init (XrlabPlotScene *scene)
{
  g_return_if_fail (scene != NULL);

  *scene = (XrlabPlotScene) {
    .show_legend = TRUE,
    .show_markers = TRUE,
    .line_width = 2.0,
  };
}

XrlabPlotRenderer *
xrlab_plot_renderer_new (void)
{
  XrlabPlotRenderer *r = g_new0 (XrlabPlotRenderer, 1);

  r->stream.id = -1;
  xrlab_plot_layout_init (&r->layout);
  r->texts = xrlab_plot_text_boxes_new ();
  return r;
}

void
xrlab_plot_renderer_free (XrlabPlotRenderer *r)
{
  if (r == NULL)
    return;
  if (r->stream.id >= 0)
    {
      if (xrlab_plot_stream_thread_ok ())
        xrlab_plot_stream_end (&r->stream);
      else
        g_critical ("xrlab_plot_renderer_free: PLplot belongs to another thread; its stream is left open");
    }
  xrlab_plot_layout_clear (&r->layout);
  g_clear_pointer (&r->below, cairo_surface_destroy);
  g_clear_pointer (&r->above, cairo_surface_destroy);
  g_array_unref (r->texts);
  g_free (r->wx);
  g_free (r->wy);
  g_free (r->ux);
  g_free (r->uy);
  g_free (r);
}

guint
xrlab_plot_renderer_get_texts (XrlabPlotRenderer       *r,
                               const XrlabPlotTextBox **texts)
{
  g_return_val_if_fail (r != NULL, 0);
  if (texts != NULL)
    *texts = (const XrlabPlotTextBox *) (const void *) r->texts->data;
  return r->texts->len;
}

/* ---- frame geometry ----------------------------------------------------------- */

double
xrlab_plot_frame_x_to_px (const XrlabPlotFrame *f, double x)
{
  double w = f->x_log ? log10 (x) : x;
  return f->px0 + (w - f->wx0) / (f->wx1 - f->wx0) * (f->px1 - f->px0);
}

double
xrlab_plot_frame_px_to_x (const XrlabPlotFrame *f, double px)
{
  double w = f->wx0 + (px - f->px0) / (f->px1 - f->px0) * (f->wx1 - f->wx0);
  return f->x_log ? pow (10, w) : w;
}

double
xrlab_plot_frame_y_to_py (const XrlabPlotFrame *f, double y)
{
  double w;
  if (f->y_log && f->y_abs && y < 0)
    y = -y;
  if (!xrlab_plot_usable (y, f->y_log))
    return NAN;
  w = f->y_log ? log10 (y) : y;
  return f->py1 - (w - f->wy0) / (f->wy1 - f->wy0) * (f->py1 - f->py0);
}

double
xrlab_plot_frame_py_to_y (const XrlabPlotFrame *f, double py)
{
  double w = f->wy0 + (f->py1 - py) / (f->py1 - f->py0) * (f->wy1 - f->wy0);
  return f->y_log ? pow (10, w) : w;
}

void
xrlab_plot_frame_get_limits (const XrlabPlotFrame *f,
                             double *x_min, double *x_max,
                             double *y_min, double *y_max)
{
  double lo = MIN (f->wx0, f->wx1), hi = MAX (f->wx0, f->wx1);   /* a reversed x axis: wx0 > wx1 */

  if (x_min != NULL)
    *x_min = f->x_log ? pow (10, lo) : lo;
  if (x_max != NULL)
    *x_max = f->x_log ? pow (10, hi) : hi;
  if (y_min != NULL)
    *y_min = f->y_log ? pow (10, f->wy0) : f->wy0;
  if (y_max != NULL)
    *y_max = f->y_log ? pow (10, f->wy1) : f->wy1;
}

static void
fill_frame (const XrlabPlotLayout *l, const XrlabPlotScene *scene, XrlabPlotFrame *f)
{
  f->valid = TRUE;
  f->px0 = l->left;
  f->px1 = l->width - l->right;
  f->py0 = l->top;
  f->py1 = l->height - l->bottom;
  f->wx0 = l->x_reversed ? l->x1 : l->x0;
  f->wx1 = l->x_reversed ? l->x0 : l->x1;
  f->wy0 = l->y0;
  f->wy1 = l->y1;
  f->x_log = scene->x.log;
  f->y_log = scene->y.log;
  f->lx0 = l->legend_x;
  f->lx1 = f->lx0 + l->legend_w;
  f->ly0 = l->legend_y;
  f->ly1 = f->ly0 + l->legend_h;
  f->y_abs = l->y_abs;
  f->n_unlabelled_groups = l->n_unlabelled_groups;
}

/* ---- cairo passes --------------------------------------------------------------- */

static void
set_source (cairo_t *cr, const XrlabPlotColor *c)
{
  cairo_set_source_rgba (cr, c->red, c->green, c->blue, c->alpha);
}

static void
pass_background (cairo_t *cr, const XrlabPlotPalette *pal)
{
  cairo_save (cr);
  set_source (cr, &pal->bg);
  cairo_paint (cr);
  cairo_restore (cr);
}

static void
pass_message (XrlabPlotText *text, int width, int height, const XrlabPlotPalette *pal, const char *msg)
{
  if (msg == NULL || *msg == '\0')
    return;
  xrlab_plot_text_show_wrapped (text, XRLAB_PLOT_TEXT_MESSAGE, msg, 16, &pal->muted,
                                24, height / 2.0, MAX (width - 48, 50));
}

/* ---- PLplot passes ---------------------------------------------------------------- */

static void
pass_colors (const XrlabPlotScene *scene, const XrlabPlotPalette *pal)
{
  plscmap0n (XRLAB_PLOT_COL_SERIES0 + MAX (scene->n_curves, 1));
  xrlab_plot_stream_set_color (XRLAB_PLOT_COL_BG, &pal->bg);
  xrlab_plot_stream_set_color (XRLAB_PLOT_COL_FG, &pal->fg);
  xrlab_plot_stream_set_color (XRLAB_PLOT_COL_MUTED, &pal->muted);
  xrlab_plot_stream_set_color (XRLAB_PLOT_COL_FRAME, &pal->frame);
  xrlab_plot_stream_set_color (XRLAB_PLOT_COL_GRID, &pal->grid);
  xrlab_plot_stream_set_color (XRLAB_PLOT_COL_MARKER, &pal->marker);
  xrlab_plot_stream_set_color (XRLAB_PLOT_COL_LEGEND_BG, &pal->legend_bg);
  xrlab_plot_stream_set_color (XRLAB_PLOT_COL_WATERMARK, &pal->watermark);
  {
    XrlabPlotColor faint = pal->marker;
    faint.alpha *= 0.5;
    xrlab_plot_stream_set_color (XRLAB_PLOT_COL_MARKER_FAINT, &faint);
  }
  for (guint s = 0; s < scene->n_curves; s++)
    {
      const XrlabPlotCurve *c = &scene->curves[s];
      XrlabPlotColor color = xrlab_plot_series_color (&c->color, scene->dark, c->stale);
      xrlab_plot_stream_set_color (XRLAB_PLOT_COL_SERIES0 + s, &color);
    }
}

static void
pass_grid (const XrlabPlotLayout *l)
{
  plcol0 (XRLAB_PLOT_COL_GRID);
  plwidth (1.0);
  pllsty (1);
  for (guint i = 0; i < l->xa.n; i++)
    if (l->xa.ticks[i].major)
      pljoin (l->xa.ticks[i].pos, l->y0, l->xa.ticks[i].pos, l->y1);
  for (guint i = 0; i < l->ya.n; i++)
    if (l->ya.ticks[i].major)
      pljoin (l->x0, l->ya.ticks[i].pos, l->x1, l->ya.ticks[i].pos);
}

static void
set_dashes (XrlabPlotLineStyle style, double width)
{
  double d[4];
  guint n = xrlab_plot_line_dashes (style, width, d);
  PLINT mark[2], space[2];

  if (n == 0)
    {
      plstyl (0, NULL, NULL);
      return;
    }
  for (guint i = 0; i < n / 2; i++)
    {
      mark[i] = (PLINT) lround (XRLAB_PLOT_UNITS_TO_UM (d[2 * i]));
      space[i] = (PLINT) lround (XRLAB_PLOT_UNITS_TO_UM (d[2 * i + 1]));
    }
  plstyl ((PLINT) n / 2, mark, space);
}

/* Dashed vertical lines at the markers; fainter where the label was left
 * out. */
static void
pass_marker_lines (const XrlabPlotLayout *l)
{
  PLINT mark = 1500, space = 1200;

  if (l->markers->len == 0)
    return;
  plwidth (MIN (1.0, l->fs_tick / XRLAB_PLOT_DEFAULT_FONT * 1.2));
  plstyl (1, &mark, &space);
  for (guint i = 0; i < l->markers->len; i++)
    {
      const XrlabPlotVisibleMarker *v = &g_array_index (l->markers, XrlabPlotVisibleMarker, i);
      plcol0 (v->row >= 0 ? XRLAB_PLOT_COL_MARKER : XRLAB_PLOT_COL_MARKER_FAINT);
      pljoin (v->x, l->y0, v->x, l->y1);
    }
  plstyl (0, NULL, NULL);
}

static void
ensure_work (XrlabPlotRenderer *r, gsize n)
{
  if (r->work_len >= n)
    return;
  r->wx = g_renew (double, r->wx, n);
  r->wy = g_renew (double, r->wy, n);
  r->ux = g_renew (double, r->ux, n);
  r->uy = g_renew (double, r->uy, n);
  r->work_len = n;
}

/* Thins the @m points of a run in r->wx, r->wy to what the pixel columns
 * show: of each stretch of consecutive points in one column (half a device
 * pixel wide), the first, the lowest, the highest and the last, in their
 * order. The polyline drawn covers the same pixels; a curve of 10^5 points
 * on a plot 600 pixels wide is stroked as at most ~4800. Returns the new
 * count. */
static gsize
thin_run (XrlabPlotRenderer *r, gsize m)
{
  const XrlabPlotLayout *l = &r->layout;
  double scale = 2.0 * r->columns / (l->x1 - l->x0);
  gsize out = 0, i = 0;

  if (r->columns <= 0 || !(scale > 0) || !isfinite (scale) || (double) m < 8.0 * r->columns)
    return m;
  while (i < m)
    {
      double col = floor ((r->wx[i] - l->x0) * scale);
      gsize j = i + 1, lo = i, hi = i, keep[4];
      guint n = 0;

      col = CLAMP (col, -1.0, 2.0 * r->columns + 1.0);
      while (j < m && CLAMP (floor ((r->wx[j] - l->x0) * scale), -1.0, 2.0 * r->columns + 1.0) == col)
        {
          if (r->wy[j] < r->wy[lo])
            lo = j;
          if (r->wy[j] > r->wy[hi])
            hi = j;
          j++;
        }
      /* first, the extremes in the order they came, last: i <= a <= b < j */
      {
        gsize cand[4] = { i, MIN (lo, hi), MAX (lo, hi), j - 1 };
        for (guint k = 0; k < 4; k++)
          if (n == 0 || cand[k] != keep[n - 1])
            keep[n++] = cand[k];
      }
      for (guint k = 0; k < n; k++)
        {
          r->wx[out] = r->wx[keep[k]];
          r->wy[out] = r->wy[keep[k]];
          out++;
        }
      i = j;
    }
  return out;
}

/* The cairo-unit coordinates of the @m points in r->wx, r->wy into r->ux,
 * r->uy; FALSE when not on a raster target or the frame is degenerate. */
static gboolean
user_coordinates (XrlabPlotRenderer *r, gsize m)
{
  const XrlabPlotLayout *l = &r->layout;
  double wl = l->x_reversed ? l->x1 : l->x0, wr = l->x_reversed ? l->x0 : l->x1;

  if (r->pass_cr == NULL || r->columns <= 0 || !(l->plot_w > 0) || !(l->plot_h > 0) || wr == wl
      || l->y1 == l->y0)
    return FALSE;
  for (gsize i = 0; i < m; i++)
    {
      r->ux[i] = l->left + (r->wx[i] - wl) / (wr - wl) * l->plot_w;
      r->uy[i] = l->top + l->plot_h - (r->wy[i] - l->y0) / (l->y1 - l->y0) * l->plot_h;
    }
  return TRUE;
}

/* The band of the run of @m points (r->ux, r->uy) as its envelope
 * (xrlab-plot-raster.c). */
static void
envelope_run (XrlabPlotRenderer *r, gsize m, double width)
{
  const XrlabPlotLayout *l = &r->layout;
  cairo_t *cr = r->pass_cr;

  cairo_save (cr);
  cairo_set_matrix (cr, &r->user_matrix);
  cairo_new_path (cr);
  set_source (cr, &r->curve_color);
  xrlab_plot_envelope_fill (cr, r->ux, r->uy, m, width / 2, r->columns / l->plot_w, l->left,
                            l->left + l->plot_w, l->top, l->top + l->plot_h);
  cairo_restore (cr);
}

static void
flush_run (XrlabPlotRenderer *r, gsize m, gboolean negative, XrlabPlotLineStyle style, double width)
{
  XrlabPlotRunKind kind = XRLAB_PLOT_RUN_SMOOTH;
  cairo_antialias_t antialias = CAIRO_ANTIALIAS_DEFAULT;
  double dashes[4];

  if (m == 0)
    return;
  if (user_coordinates (r, m))
    kind = xrlab_plot_run_kind (r->ux, r->uy, m, r->columns / r->layout.plot_w);
  if (kind == XRLAB_PLOT_RUN_DENSE && !negative && xrlab_plot_line_dashes (style, width, dashes) == 0)
    {
      envelope_run (r, m, width);
      return;
    }
  m = thin_run (r, m);
  /* within an eighth of a device pixel of what is stroked */
  if (kind == XRLAB_PLOT_RUN_SMOOTH && m > 16 && user_coordinates (r, m))
    m = xrlab_plot_simplify (r->ux, r->uy, r->wx, r->wy, m, 0.125 * r->layout.plot_w / r->columns);
  if (kind != XRLAB_PLOT_RUN_SMOOTH)
    {
      antialias = cairo_get_antialias (r->pass_cr);
      cairo_set_antialias (r->pass_cr, CAIRO_ANTIALIAS_FAST);
    }
  if (negative)
    set_dashes (XRLAB_PLOT_LINE_NEGATIVE, width);
  if (m == 1)
    plpoin (1, r->wx, r->wy, 1);    /* an isolated point */
  else
    plline ((PLINT) m, r->wx, r->wy);
  if (negative)
    set_dashes (style, width);
  if (kind != XRLAB_PLOT_RUN_SMOOTH)
    cairo_set_antialias (r->pass_cr, antialias);
}

/* The polyline of one curve, split at gaps (NaN, or 0 on a log axis). On a
 * log y axis the negative stretches are drawn dotted at their magnitude,
 * each joined to its neighbours at the sign change. */
static void
draw_curve (XrlabPlotRenderer *r, const XrlabPlotScene *scene, const XrlabPlotCurve *c,
            XrlabPlotLineStyle style, double width)
{
  gboolean x_log = scene->x.log, y_log = scene->y.log;
  gboolean negative = FALSE;
  gsize m = 0;

  ensure_work (r, c->n + 1);
  for (gsize i = 0; i <= c->n; i++)
    {
      double y = i < c->n ? xrlab_plot_curve_y (c, i) : NAN;
      gboolean neg = y_log && y < 0;
      double shown = neg ? -y : y;
      gboolean ok = i < c->n && xrlab_plot_usable (c->x[i], x_log) && xrlab_plot_usable (shown, y_log);
      if (ok && m > 0 && neg != negative)
        {
          /* The new run starts at the last point of the old one. */
          double last_x = r->wx[m - 1], last_y = r->wy[m - 1];

          flush_run (r, m, negative, style, width);
          r->wx[0] = last_x;
          r->wy[0] = last_y;
          m = 1;
        }
      if (ok)
        {
          negative = neg;
          r->wx[m] = x_log ? log10 (c->x[i]) : c->x[i];
          r->wy[m] = y_log ? log10 (shown) : shown;
          m++;
          continue;
        }
      flush_run (r, m, negative, style, width);
      m = 0;
    }
}

/* Stale curves first, so valid curves are drawn over them; of @what, the
 * static or the live ones or both. */
static void
pass_curves (XrlabPlotRenderer *r, const XrlabPlotScene *scene, const XrlabPlotLayout *l, guint what)
{
  for (int pass = 0; pass < 2; pass++)
    for (guint s = 0; s < scene->n_curves; s++)
      {
        const XrlabPlotCurve *c = &scene->curves[s];
        XrlabPlotLineStyle style = c->stale ? XRLAB_PLOT_LINE_STALE : l->styles[s];
        if (c->stale != (pass == 0) || !(what & (c->live ? DRAW_LIVE : DRAW_STATIC)))
          continue;
        plcol0 (XRLAB_PLOT_COL_SERIES0 + s);
        r->curve_color = xrlab_plot_series_color (&c->color, scene->dark, c->stale);
        plwidth (l->line_width);
        set_dashes (style, l->line_width);
        draw_curve (r, scene, c, style, l->line_width);
        plstyl (0, NULL, NULL);
      }
}

/* The box and the tick marks on all four sides (in world units of the
 * other axis: 5 px long for major ticks, 2.5 px for minor ones, at the
 * default type size). */
static void
pass_frame (const XrlabPlotLayout *l)
{
  double major = 5.0 * l->fs_tick / XRLAB_PLOT_DEFAULT_FONT, minor = major / 2;
  double tx_major = (l->y1 - l->y0) * major / l->plot_h, tx_minor = (l->y1 - l->y0) * minor / l->plot_h;
  double ty_major = (l->x1 - l->x0) * major / l->plot_w, ty_minor = (l->x1 - l->x0) * minor / l->plot_w;

  /* On a reversed x axis x0 is the right side: its ticks point left. */
  if (l->x_reversed)
    ty_major = -ty_major, ty_minor = -ty_minor;

  plcol0 (XRLAB_PLOT_COL_FRAME);
  plwidth (1.0);
  for (guint i = 0; i < l->xa.n; i++)
    {
      double len = l->xa.ticks[i].major ? tx_major : tx_minor, x = l->xa.ticks[i].pos;
      pljoin (x, l->y0, x, l->y0 + len);
      pljoin (x, l->y1, x, l->y1 - len);
    }
  for (guint i = 0; i < l->ya.n; i++)
    {
      double len = l->ya.ticks[i].major ? ty_major : ty_minor, y = l->ya.ticks[i].pos;
      pljoin (l->x0, y, l->x0 + len, y);
      pljoin (l->x1, y, l->x1 - len, y);
    }
  plbox ("bc", 0, 0, "bc", 0, 0);
}

/* ---- text passes (cairo and Pango) ---------------------------------------------- */

static double
px_of (const XrlabPlotLayout *l, double wx)
{
  double f = (wx - l->x0) / (l->x1 - l->x0);

  return l->left + (l->x_reversed ? 1 - f : f) * l->plot_w;
}

static double
py_of (const XrlabPlotLayout *l, double wy)
{
  return l->top + (l->y1 - wy) / (l->y1 - l->y0) * l->plot_h;
}

static void
pass_tick_labels (const XrlabPlotLayout *l, XrlabPlotText *text, const XrlabPlotPalette *pal)
{
  double below = l->top + l->plot_h + 5;

  for (guint i = 0; i < l->xa.n; i++)
    if (l->xa.ticks[i].label[0] != '\0')
      xrlab_plot_text_show (text, XRLAB_PLOT_TEXT_TICK_X, l->xa.ticks[i].label, l->fs_tick, FALSE,
                            &pal->fg, px_of (l, l->xa.ticks[i].pos), below, 0.5, 0.0, FALSE);
  for (guint i = 0; i < l->ya.n; i++)
    if (l->ya.ticks[i].label[0] != '\0')
      xrlab_plot_text_show (text, XRLAB_PLOT_TEXT_TICK_Y, l->ya.ticks[i].label, l->fs_tick, FALSE,
                            &pal->fg, l->left - 6, py_of (l, l->ya.ticks[i].pos), 1.0, 0.5, FALSE);
}

/* The centre of the y title: the plot area's middle, moved so the title
 * stays on the page. */
static double
y_title_centre (const XrlabPlotLayout *l, XrlabPlotText *text)
{
  double w1, w2 = 0, h, half;

  xrlab_plot_text_size (text, l->y_title, l->fs_title, FALSE, &w1, &h);
  if (l->y_title2 != NULL)
    xrlab_plot_text_size (text, l->y_title2, l->fs_title, FALSE, &w2, &h);
  half = MAX (w1, w2) / 2 + 2;
  if (2 * half > l->height)
    return l->height / 2.0;
  return CLAMP (l->top + l->plot_h / 2, half, l->height - half);
}

static void
pass_titles (const XrlabPlotLayout *l, XrlabPlotText *text, const XrlabPlotPalette *pal)
{
  double cy = y_title_centre (l, text);

  xrlab_plot_text_show (text, XRLAB_PLOT_TEXT_TITLE_X, l->x_title, l->fs_title, FALSE, &pal->fg,
                        l->left + l->plot_w / 2, l->height - 6 - l->extra_bottom, 0.5, 1.0, FALSE);
  xrlab_plot_text_show (text, XRLAB_PLOT_TEXT_TITLE_Y, l->y_title, l->fs_title, FALSE, &pal->fg,
                        8, cy, 0.0, 0.5, TRUE);
  if (l->y_title2 != NULL)
    xrlab_plot_text_show (text, XRLAB_PLOT_TEXT_TITLE_Y, l->y_title2, l->fs_title, FALSE, &pal->fg,
                          8 + l->h_title, cy, 0.0, 0.5, TRUE);
}

static void
pass_marker_labels (const XrlabPlotLayout *l, XrlabPlotText *text, const XrlabPlotPalette *pal)
{
  for (guint i = 0; i < l->markers->len; i++)
    {
      const XrlabPlotVisibleMarker *v = &g_array_index (l->markers, XrlabPlotVisibleMarker, i);
      g_autofree char *esc = NULL;
      if (v->row < 0)
        continue;
      esc = xrlab_plot_text_escape (v->label);
      xrlab_plot_text_show (text, XRLAB_PLOT_TEXT_MARKER, esc, l->fs_marker, FALSE, &pal->muted,
                            l->x_reversed ? 2 * l->left + l->plot_w - (v->lx0 + v->lx1) / 2 : (v->lx0 + v->lx1) / 2,
                            l->top - 4 - v->row * (l->h_marker + 2), 0.5, 1.0, FALSE);
    }
}

static void
pass_watermark (const XrlabPlotLayout *l, const XrlabPlotScene *scene, XrlabPlotText *text,
                const XrlabPlotPalette *pal)
{
  g_autofree char *esc = NULL;

  if (scene->watermark == NULL || scene->watermark[0] == '\0')
    return;
  esc = xrlab_plot_text_escape (scene->watermark);
  xrlab_plot_text_show (text, XRLAB_PLOT_TEXT_WATERMARK, esc,
                        CLAMP (l->plot_w / 34, l->fs_tick, 1.8 * l->fs_tick), FALSE, &pal->watermark,
                        l->left + l->plot_w / 2, l->top + l->plot_h * 0.88, 0.5, 1.0, FALSE);
}

/* ---- a frame -------------------------------------------------------------------- */

static gboolean
check_status (cairo_t *cr, GError **error)
{
  if (cairo_status (cr) != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, XRLAB_PLOT_ERROR, XRLAB_PLOT_ERROR_FAILED,
                   _("Drawing failed: %s"), cairo_status_to_string (cairo_status (cr)));
      return FALSE;
    }
  return TRUE;
}

/* The PLplot passes of @what: grid, marker lines, curves, frame. */
static void
plplot_passes (XrlabPlotRenderer *r, const XrlabPlotScene *scene, const XrlabPlotPalette *pal,
               cairo_t *cr, int width, int height, guint what)
{
  XrlabPlotLayout *l = &r->layout;

  xrlab_plot_stream_select (&r->stream, width, height);
  r->columns = 0;
  if (cairo_surface_get_type (cairo_get_target (cr)) == CAIRO_SURFACE_TYPE_IMAGE)
    {
      double dx = l->plot_w, dy = 0;

      cairo_user_to_device_distance (cr, &dx, &dy);
      r->columns = ceil (fabs (dx));
    }
  cairo_get_matrix (cr, &r->user_matrix);
  r->pass_cr = cr;
  cairo_save (cr);
  pl_cmd (PLESC_DEVINIT, cr);
  pladv (0);
  pass_colors (scene, pal);
  plvpor (l->left / width, 1.0 - l->right / width, l->bottom / height, 1.0 - l->top / height);
  if (l->x_reversed)
    plwind (l->x1, l->x0, l->y0, l->y1);
  else
    plwind (l->x0, l->x1, l->y0, l->y1);
  if (what & DRAW_GRID)
    {
      pass_grid (l);
      pass_marker_lines (l);
    }
  pass_curves (r, scene, l, what);
  if (what & DRAW_FRAME)
    pass_frame (l);
  cairo_restore (cr);
  r->pass_cr = NULL;
}

/* A frame: the background and the passes below the live curves on
 * @below, the frame and the texts on @above (the same context, or the
 * layers of a layered draw, without the live curves). Returns whether a
 * chart was drawn (the layout was OK). */
static gboolean
draw_frame (XrlabPlotRenderer *r, const XrlabPlotScene *scene, cairo_t *below, cairo_t *above,
            int width, int height, XrlabPlotFrame *frame_out, GString *svg_text, GError **error)
{
  const XrlabPlotPalette *pal = xrlab_plot_palette_get (scene->dark);
  XrlabPlotLayout *l = &r->layout;
  XrlabPlotText text;
  GError *local_error = NULL;
  gboolean chart = FALSE;

  if (frame_out != NULL)
    frame_out->valid = FALSE;
  g_array_set_size (r->texts, 0);

  pass_background (below, pal);
  xrlab_plot_text_init (&text, above, r->texts, svg_text);
  if (!xrlab_plot_check_driver (&local_error))
    {
      pass_message (&text, width, height, pal, local_error->message);
      g_propagate_error (error, local_error);
      xrlab_plot_text_clear (&text);
      return FALSE;
    }
  if (width < 120 || height < 90)
    goto done;

  switch (xrlab_plot_layout_compute (l, scene, &text, width, height))
    {
    case XRLAB_PLOT_LAYOUT_NO_DATA:
      pass_message (&text, width, height, pal,
                    scene->n_curves == 0 ? scene->message
                    : scene->y.log ? _("Nothing to draw: no finite non-zero values for a logarithmic axis.")
                    : _("Nothing to draw: no finite values."));
      goto done;
    case XRLAB_PLOT_LAYOUT_TOO_SMALL:
      goto done;
    case XRLAB_PLOT_LAYOUT_OK:
    default:
      break;
    }

  if (below == above)
    plplot_passes (r, scene, pal, below, width, height, DRAW_ALL);
  else
    {
      plplot_passes (r, scene, pal, below, width, height, DRAW_GRID | DRAW_STATIC);
      plplot_passes (r, scene, pal, above, width, height, DRAW_FRAME);
    }
  pass_tick_labels (l, &text, pal);
  pass_titles (l, &text, pal);
  pass_marker_labels (l, &text, pal);
  xrlab_plot_legend_draw (l, scene, &text, above);
  pass_watermark (l, scene, &text, pal);
  if (frame_out != NULL)
    fill_frame (l, scene, frame_out);
  chart = TRUE;

done:
  xrlab_plot_text_clear (&text);
  return chart;
}

gboolean
xrlab_plot_renderer_draw_full (XrlabPlotRenderer    *r,
                               const XrlabPlotScene *scene,
                               cairo_t              *cr,
                               int                   width,
                               int                   height,
                               XrlabPlotFrame       *frame_out,
                               GString              *svg_text,
                               GError              **error)
{
  GError *local_error = NULL;

  g_return_val_if_fail (r != NULL, FALSE);
  g_return_val_if_fail (scene != NULL, FALSE);
  g_return_val_if_fail (scene->n_curves == 0 || scene->curves != NULL, FALSE);
  g_return_val_if_fail (scene->n_markers == 0 || scene->markers != NULL, FALSE);
  g_return_val_if_fail (cr != NULL, FALSE);
  g_return_val_if_fail (width > 0 && height > 0, FALSE);

  /* The layout is this frame's now: the layers are not the next one's. */
  r->layer_frame.valid = FALSE;
  draw_frame (r, scene, cr, cr, width, height, frame_out, svg_text, &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      return FALSE;
    }
  return check_status (cr, error);
}

gboolean
xrlab_plot_renderer_draw (XrlabPlotRenderer    *r,
                          const XrlabPlotScene *scene,
                          cairo_t              *cr,
                          int                   width,
                          int                   height,
                          XrlabPlotFrame       *frame_out,
                          GError              **error)
{
  return xrlab_plot_renderer_draw_full (r, scene, cr, width, height, frame_out, NULL, error);
}

/* ---- layered frames --------------------------------------------------------------- */

/* Whether the kept layers can show @scene: the same x window, and the
 * values of its curves inside the y window drawn, filling at least half of
 * it. (The automatic window pads the values by 4.5 % of their span on
 * either side: xrlab-plot-layout.c.) */
static gboolean
layers_hold (XrlabPlotRenderer *r, const XrlabPlotScene *scene)
{
  const XrlabPlotLayout *l = &r->layout;
  XrlabPlotLayout w = { 0 };
  double span, lo, hi;

  if (!r->layer_frame.valid || r->layer_n_curves != scene->n_curves || !xrlab_plot_layout_ranges (&w, scene))
    return FALSE;
  if (w.x0 != l->x0 || w.x1 != l->x1 || w.y_abs != l->y_abs)
    return FALSE;
  if (xrlab_plot_axis_is_fixed (&scene->y))
    return w.y0 == l->y0 && w.y1 == l->y1;
  span = (w.y1 - w.y0) / 1.09;
  lo = w.y0 + 0.045 * span;
  hi = w.y1 - 0.045 * span;
  return span > 0 && lo >= l->y0 && hi <= l->y1 && w.y1 - w.y0 >= 0.5 * (l->y1 - l->y0);
}

/* For a live update the kept layers cannot show: @scene with its
 * automatic linear y range widened to take in the range drawn last as
 * well, when the new values still fill half of that (a value dragged up
 * and down, a residual that changes sign, keeps its axes); FALSE when the
 * y range is to follow the values alone. */
static gboolean
widen_for_live (XrlabPlotRenderer *r, const XrlabPlotScene *scene, XrlabPlotScene *widened)
{
  const XrlabPlotLayout *l = &r->layout;
  XrlabPlotLayout w = { 0 };
  double lo, hi;

  if (!r->layer_frame.valid || r->layer_n_curves != scene->n_curves || scene->y.log
      || xrlab_plot_axis_is_fixed (&scene->y) || !xrlab_plot_layout_ranges (&w, scene))
    return FALSE;
  if (w.x0 != l->x0 || w.x1 != l->x1 || w.y_abs != l->y_abs)
    return FALSE;
  lo = MIN (w.y0, l->y0);
  hi = MAX (w.y1, l->y1);
  if (!(w.y1 - w.y0 >= 0.5 * (hi - lo)))
    return FALSE;
  *widened = *scene;
  widened->y.min = lo;
  widened->y.max = hi;
  return TRUE;
}

static cairo_surface_t *
layer_new (cairo_surface_t *target, int width, int height)
{
  double sx = 1, sy = 1;
  cairo_surface_t *s;

  cairo_surface_get_device_scale (target, &sx, &sy);
  s = cairo_surface_create_similar_image (target, CAIRO_FORMAT_ARGB32, (int) ceil (width * sx),
                                          (int) ceil (height * sy));
  cairo_surface_set_device_scale (s, sx, sy);
  return s;
}

static gboolean
layer_fits (cairo_surface_t *layer, cairo_surface_t *target, int width, int height)
{
  double sx = 1, sy = 1, lx = 0, ly = 0;

  if (layer == NULL)
    return FALSE;
  cairo_surface_get_device_scale (target, &sx, &sy);
  cairo_surface_get_device_scale (layer, &lx, &ly);
  return sx == lx && sy == ly && cairo_image_surface_get_width (layer) == (int) ceil (width * sx)
         && cairo_image_surface_get_height (layer) == (int) ceil (height * sy);
}

/* The layers drawn again for @scene. */
static void
draw_layers (XrlabPlotRenderer *r, const XrlabPlotScene *scene, cairo_surface_t *target, int width,
             int height, GError **error)
{
  cairo_t *below, *above;

  if (!layer_fits (r->below, target, width, height))
    {
      g_clear_pointer (&r->below, cairo_surface_destroy);
      g_clear_pointer (&r->above, cairo_surface_destroy);
      r->below = layer_new (target, width, height);
      r->above = layer_new (target, width, height);
    }
  below = cairo_create (r->below);
  above = cairo_create (r->above);
  cairo_set_operator (above, CAIRO_OPERATOR_CLEAR);
  cairo_paint (above);
  cairo_set_operator (above, CAIRO_OPERATOR_OVER);
  if (!draw_frame (r, scene, below, above, width, height, &r->layer_frame, NULL, error))
    r->layer_frame.valid = FALSE;
  r->layer_n_curves = scene->n_curves;
  cairo_destroy (below);
  cairo_destroy (above);
  cairo_surface_flush (r->below);
  cairo_surface_flush (r->above);
}

gboolean
xrlab_plot_renderer_draw_layered (XrlabPlotRenderer    *r,
                                  const XrlabPlotScene *scene,
                                  gboolean              keep_layers,
                                  cairo_t              *cr,
                                  int                   width,
                                  int                   height,
                                  XrlabPlotFrame       *frame_out,
                                  GError              **error)
{
  cairo_surface_t *target;
  GError *local_error = NULL;

  g_return_val_if_fail (r != NULL, FALSE);
  g_return_val_if_fail (scene != NULL, FALSE);
  g_return_val_if_fail (scene->n_curves == 0 || scene->curves != NULL, FALSE);
  g_return_val_if_fail (cr != NULL, FALSE);
  g_return_val_if_fail (width > 0 && height > 0, FALSE);

  target = cairo_get_target (cr);
  r->layers_kept = FALSE;
  if (cairo_surface_get_type (target) != CAIRO_SURFACE_TYPE_IMAGE)
    {
      g_clear_pointer (&r->below, cairo_surface_destroy);
      g_clear_pointer (&r->above, cairo_surface_destroy);
      return xrlab_plot_renderer_draw (r, scene, cr, width, height, frame_out, error);
    }
  if (keep_layers && layer_fits (r->below, target, width, height) && layers_hold (r, scene))
    r->layers_kept = TRUE;
  else
    {
      XrlabPlotScene widened;

      draw_layers (r, keep_layers && widen_for_live (r, scene, &widened) ? &widened : scene, target,
                   width, height, &local_error);
    }

  cairo_save (cr);
  cairo_set_operator (cr, CAIRO_OPERATOR_SOURCE);
  cairo_set_source_surface (cr, r->below, 0, 0);
  cairo_paint (cr);
  cairo_restore (cr);
  if (r->layer_frame.valid)
    plplot_passes (r, scene, xrlab_plot_palette_get (scene->dark), cr, width, height, DRAW_LIVE);
  cairo_set_source_surface (cr, r->above, 0, 0);
  cairo_paint (cr);
  if (frame_out != NULL)
    *frame_out = r->layer_frame;
  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      return FALSE;
    }
  return check_status (cr, error);
}

gboolean
xrlab_plot_renderer_get_layers_kept (XrlabPlotRenderer *r)
{
  g_return_val_if_fail (r != NULL, FALSE);
  return r->layers_kept;
}
