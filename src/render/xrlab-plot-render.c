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

  /* transformed coordinates of one curve */
  double *wx, *wy;
  gsize work_len;
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
  g_free (r->wx);
  g_free (r->wy);
  g_free (r);
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
  if (!xrlab_plot_usable (y, f->y_log))
    return NAN;
  w = f->y_log ? log10 (y) : y;
  return f->py1 - (w - f->wy0) / (f->wy1 - f->wy0) * (f->py1 - f->py0);
}

static void
fill_frame (const XrlabPlotLayout *l, const XrlabPlotScene *scene, XrlabPlotFrame *f)
{
  f->valid = TRUE;
  f->px0 = l->left;
  f->px1 = l->width - l->right;
  f->py0 = l->top;
  f->py1 = l->height - l->bottom;
  f->wx0 = l->x0;
  f->wx1 = l->x1;
  f->wy0 = l->y0;
  f->wy1 = l->y1;
  f->x_log = scene->x.log;
  f->y_log = scene->y.log;
  f->lx0 = l->legend_right ? l->width - l->right - 12 - l->legend_w : l->left + 12;
  f->lx1 = f->lx0 + l->legend_w;
  f->ly0 = l->legend_top ? l->top + 12 : l->height - l->bottom - 12 - l->legend_h;
  f->ly1 = f->ly0 + l->legend_h;
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
pass_message (cairo_t *cr, int width, int height, const XrlabPlotPalette *pal, const char *text)
{
  PangoLayout *layout;
  int w, h;

  if (text == NULL || *text == '\0')
    return;
  layout = pango_cairo_create_layout (cr);
  xrlab_plot_text_font (layout, 12);
  pango_layout_set_width (layout, (int) (MAX (width - 48, 50) * PANGO_SCALE));
  pango_layout_set_alignment (layout, PANGO_ALIGN_CENTER);
  pango_layout_set_wrap (layout, PANGO_WRAP_WORD_CHAR);
  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &w, &h);
  cairo_move_to (cr, 24, (height - h) / 2.0);
  set_source (cr, &pal->muted);
  pango_cairo_show_layout (cr, layout);
  g_object_unref (layout);
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

/* Dashed vertical lines at the markers. */
static void
pass_marker_lines (const XrlabPlotLayout *l)
{
  PLINT mark = 1500, space = 1200;

  if (l->markers->len == 0)
    return;
  plcol0 (XRLAB_PLOT_COL_MARKER);
  plwidth (1.0);
  plstyl (1, &mark, &space);
  for (guint i = 0; i < l->markers->len; i++)
    {
      double x = g_array_index (l->markers, XrlabPlotVisibleMarker, i).x;
      pljoin (x, l->y0, x, l->y1);
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
  r->work_len = n;
}

/* The polyline of one curve, split at gaps (NaN, or <= 0 on a log axis). */
static void
draw_curve (XrlabPlotRenderer *r, const XrlabPlotScene *scene, const XrlabPlotCurve *c)
{
  gboolean x_log = scene->x.log, y_log = scene->y.log;
  gsize m = 0;

  ensure_work (r, c->n);
  for (gsize i = 0; i <= c->n; i++)
    {
      double y = i < c->n ? xrlab_plot_curve_y (c, i) : NAN;
      gboolean ok = i < c->n && xrlab_plot_usable (c->x[i], x_log) && xrlab_plot_usable (y, y_log);
      if (ok)
        {
          r->wx[m] = x_log ? log10 (c->x[i]) : c->x[i];
          r->wy[m] = y_log ? log10 (y) : y;
          m++;
          continue;
        }
      if (m == 1)
        plpoin (1, r->wx, r->wy, 1);    /* an isolated point */
      else if (m > 1)
        plline ((PLINT) m, r->wx, r->wy);
      m = 0;
    }
}

/* Stale curves first, so valid curves are drawn over them. */
static void
pass_curves (XrlabPlotRenderer *r, const XrlabPlotScene *scene)
{
  double line_width = CLAMP (scene->line_width, 0.5, 8.0);

  for (int pass = 0; pass < 2; pass++)
    for (guint s = 0; s < scene->n_curves; s++)
      {
        const XrlabPlotCurve *c = &scene->curves[s];
        if (c->stale != (pass == 0))
          continue;
        plcol0 (XRLAB_PLOT_COL_SERIES0 + s);
        plwidth (line_width);
        if (c->stale)
          {
            PLINT mark = 2500, space = 1800;
            plstyl (1, &mark, &space);
          }
        draw_curve (r, scene, c);
        if (c->stale)
          plstyl (0, NULL, NULL);
      }
}

/* The box and the tick marks on all four sides (in world units of the
 * other axis: 5 px long for major ticks, 2.5 px for minor ones). */
static void
pass_frame (const XrlabPlotLayout *l)
{
  double tx_major = (l->y1 - l->y0) * 5.0 / l->plot_h, tx_minor = (l->y1 - l->y0) * 2.5 / l->plot_h;
  double ty_major = (l->x1 - l->x0) * 5.0 / l->plot_w, ty_minor = (l->x1 - l->x0) * 2.5 / l->plot_w;

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

/* Tick labels and the common factors of linear axes (plmtex: displacement
 * in character heights, position as a fraction of the side). */
static void
pass_tick_labels (const XrlabPlotLayout *l)
{
  double chr_px = XRLAB_PLOT_TICK_PT;      /* PLplot character height in page units */
  double em_tick = l->em_tick;

  plcol0 (XRLAB_PLOT_COL_FG);
  plschr (XRLAB_PLOT_PT_TO_MM (XRLAB_PLOT_TICK_PT), 1.0);
  for (guint i = 0; i < l->xa.n; i++)
    if (l->xa.ticks[i].label[0] != '\0')
      plmtex ("b", (7 + em_tick / 2) / chr_px,
              (l->xa.ticks[i].pos - l->x0) / (l->x1 - l->x0), 0.5, l->xa.ticks[i].label);
  for (guint i = 0; i < l->ya.n; i++)
    if (l->ya.ticks[i].label[0] != '\0')
      plmtex ("lv", 7 / chr_px, (l->ya.ticks[i].pos - l->y0) / (l->y1 - l->y0), 1.0, l->ya.ticks[i].label);

  plcol0 (XRLAB_PLOT_COL_MUTED);
  if (l->xa.exponent != 0)
    {
      char e[48];
      g_snprintf (e, sizeof e, "×10#u%d#d", l->xa.exponent);
      plmtex ("b", (7 + em_tick * 1.5 + 8) / chr_px, 1.0, 1.0, e);
    }
  if (l->ya.exponent != 0)
    {
      char e[48];
      g_snprintf (e, sizeof e, "×10#u%d#d", l->ya.exponent);
      plmtex ("t", (em_tick / 2 + 4) / chr_px, 0.0, 0.0, e);
    }
}

static void
pass_titles (const XrlabPlotLayout *l)
{
  plcol0 (XRLAB_PLOT_COL_FG);
  plschr (XRLAB_PLOT_PT_TO_MM (XRLAB_PLOT_LABEL_PT), 1.0);
  plmtex ("b", (l->bottom - 8 - l->em_label / 2) / XRLAB_PLOT_LABEL_PT, 0.5, 0.5, l->x_title);
  plmtex ("l", (l->left - 10 - l->em_label / 2) / XRLAB_PLOT_LABEL_PT, 0.5, 0.5, l->y_title);
}

static void
pass_marker_labels (const XrlabPlotLayout *l)
{
  if (l->markers->len == 0)
    return;
  plcol0 (XRLAB_PLOT_COL_MUTED);
  plschr (XRLAB_PLOT_PT_TO_MM (XRLAB_PLOT_MARKER_PT), 1.0);
  for (guint i = 0; i < l->markers->len; i++)
    {
      const XrlabPlotVisibleMarker *v = &g_array_index (l->markers, XrlabPlotVisibleMarker, i);
      g_autofree char *esc = NULL;
      if (v->row < 0)
        continue;
      esc = xrlab_plot_text_escape (v->label != NULL ? v->label : "");
      plmtex ("t", (4 + l->em_marker / 2 + v->row * (l->em_marker + 3)) / XRLAB_PLOT_MARKER_PT,
              (v->x - l->x0) / (l->x1 - l->x0), 0.5, esc);
    }
}

/* The legend, in the corner where it hides the least data: its size is
 * estimated from the labels (PLplot: rows 1.9 character heights apart, a
 * line sample of 7 % of the plot width, text 0.9 characters after it). */
static void
pass_legend (XrlabPlotLayout *l, const XrlabPlotScene *scene, cairo_t *cr)
{
  guint ns = scene->n_curves;
  PLINT *opts, *text_colors, *line_colors, *line_styles;
  PLFLT *line_widths, lw, lh;
  char **texts;
  PLINT position;
  double max_text = 0;
  PangoLayout *measure;

  if (!scene->show_legend || ns == 0)
    return;
  opts = g_new (PLINT, ns);
  text_colors = g_new (PLINT, ns);
  line_colors = g_new (PLINT, ns);
  line_styles = g_new (PLINT, ns);
  line_widths = g_new (PLFLT, ns);
  texts = g_new0 (char *, ns + 1);
  for (guint s = 0; s < ns; s++)
    {
      const XrlabPlotCurve *c = &scene->curves[s];
      g_autofree char *esc = xrlab_plot_text_escape (c->label != NULL ? c->label : "");
      opts[s] = PL_LEGEND_LINE;
      text_colors[s] = XRLAB_PLOT_COL_FG;
      line_colors[s] = XRLAB_PLOT_COL_SERIES0 + s;
      line_styles[s] = c->stale ? 2 : 1;
      line_widths[s] = MAX (CLAMP (scene->line_width, 0.5, 8.0), 2.0);
      texts[s] = c->stale ? g_strdup_printf (_("%s (last valid)"), esc) : g_steal_pointer (&esc);
    }

  measure = pango_cairo_create_layout (cr);
  xrlab_plot_text_font (measure, XRLAB_PLOT_LEGEND_PT);
  for (guint s = 0; s < ns; s++)
    max_text = MAX (max_text, xrlab_plot_text_width (measure, texts[s]));
  g_object_unref (measure);
  position = xrlab_plot_layout_legend_corner (l, scene,
                                              0.07 * l->plot_w + 0.9 * XRLAB_PLOT_LEGEND_PT + max_text + 2 * XRLAB_PLOT_LEGEND_PT,
                                              ns * 1.9 * XRLAB_PLOT_LEGEND_PT + XRLAB_PLOT_LEGEND_PT);

  plschr (XRLAB_PLOT_PT_TO_MM (XRLAB_PLOT_LEGEND_PT), 1.0);
  pllegend (&lw, &lh,
            PL_LEGEND_BACKGROUND | PL_LEGEND_BOUNDING_BOX,
            position,
            12.0 / l->plot_w, 12.0 / l->plot_h, 0.07,
            XRLAB_PLOT_COL_LEGEND_BG, XRLAB_PLOT_COL_GRID, 1,
            0, 0, (PLINT) ns,
            opts, 0.9, 1.0, 1.9, 0.0,
            text_colors, (const char * const *) texts,
            NULL, NULL, NULL, NULL,
            line_colors, line_styles, line_widths,
            NULL, NULL, NULL, NULL);
  l->legend_w = lw * l->plot_w;
  l->legend_h = lh * l->plot_h;

  g_strfreev (texts);
  g_free (opts);
  g_free (text_colors);
  g_free (line_colors);
  g_free (line_styles);
  g_free (line_widths);
}

static void
pass_watermark (const XrlabPlotLayout *l, const XrlabPlotScene *scene)
{
  g_autofree char *esc = NULL;

  if (scene->watermark == NULL || scene->watermark[0] == '\0')
    return;
  esc = xrlab_plot_text_escape (scene->watermark);
  plcol0 (XRLAB_PLOT_COL_WATERMARK);
  plschr (XRLAB_PLOT_PT_TO_MM (MIN (18.0, MAX (9.0, l->plot_w / 45.0))), 1.0);
  plptex (l->x0 + (l->x1 - l->x0) * 0.5, l->y0 + (l->y1 - l->y0) * 0.12, 1.0, 0.0, 0.5, esc);
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

gboolean
xrlab_plot_renderer_draw (XrlabPlotRenderer    *r,
                          const XrlabPlotScene *scene,
                          cairo_t              *cr,
                          int                   width,
                          int                   height,
                          XrlabPlotFrame       *frame_out,
                          GError              **error)
{
  const XrlabPlotPalette *pal;
  XrlabPlotLayout *l;
  GError *local_error = NULL;

  g_return_val_if_fail (r != NULL, FALSE);
  g_return_val_if_fail (scene != NULL, FALSE);
  g_return_val_if_fail (scene->n_curves == 0 || scene->curves != NULL, FALSE);
  g_return_val_if_fail (scene->n_markers == 0 || scene->markers != NULL, FALSE);
  g_return_val_if_fail (cr != NULL, FALSE);
  g_return_val_if_fail (width > 0 && height > 0, FALSE);

  pal = xrlab_plot_palette_get (scene->dark);
  l = &r->layout;
  if (frame_out != NULL)
    frame_out->valid = FALSE;

  pass_background (cr, pal);
  if (!xrlab_plot_check_driver (&local_error))
    {
      pass_message (cr, width, height, pal, local_error->message);
      g_propagate_error (error, local_error);
      return FALSE;
    }
  if (width < 120 || height < 90)
    return check_status (cr, error);

  switch (xrlab_plot_layout_compute (l, scene, cr, width, height))
    {
    case XRLAB_PLOT_LAYOUT_NO_DATA:
      pass_message (cr, width, height, pal,
                    scene->n_curves == 0 ? scene->message
                    : scene->y.log ? _("Nothing to draw: no positive finite values for a logarithmic axis.")
                    : _("Nothing to draw: no finite values."));
      return check_status (cr, error);
    case XRLAB_PLOT_LAYOUT_TOO_SMALL:
      return check_status (cr, error);
    case XRLAB_PLOT_LAYOUT_OK:
    default:
      break;
    }

  xrlab_plot_stream_select (&r->stream, width, height);
  cairo_save (cr);
  pl_cmd (PLESC_DEVINIT, cr);
  pladv (0);
  pass_colors (scene, pal);
  plvpor (l->left / width, 1.0 - l->right / width, l->bottom / height, 1.0 - l->top / height);
  plwind (l->x0, l->x1, l->y0, l->y1);

  pass_grid (l);
  pass_marker_lines (l);
  pass_curves (r, scene);
  pass_frame (l);
  pass_tick_labels (l);
  pass_titles (l);
  pass_marker_labels (l);
  pass_legend (l, scene, cr);
  pass_watermark (l, scene);
  cairo_restore (cr);

  if (frame_out != NULL)
    fill_frame (l, scene, frame_out);
  return check_status (cr, error);
}
