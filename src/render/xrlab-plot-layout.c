/* xrlab-plot-layout.c -- where a frame puts its parts: data ranges, ticks,
 * margins from measured labels, rows of marker labels, the legend's corner
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-plot-render-private.h"

#include <string.h>

/* ---- text ------------------------------------------------------------------- */

char *
xrlab_plot_text_escape (const char *text)
{
  GString *s = g_string_new (NULL);

  for (const char *p = text; p != NULL && *p != '\0'; p++)
    {
      if (*p == '#')
        g_string_append_c (s, '#');
      g_string_append_c (s, *p);
    }
  return g_string_free (s, FALSE);
}

/* Text as it will be displayed, without PLplot escapes, for measuring. */
static void
strip_escapes (const char *text, char *out, gsize out_size)
{
  gsize j = 0;

  for (const char *p = text; *p != '\0' && j + 1 < out_size; p++)
    {
      if (p[0] == '#' && (p[1] == 'u' || p[1] == 'd'))
        {
          p++;
          continue;
        }
      if (p[0] == '#' && p[1] == '#')
        p++;
      out[j++] = *p;
    }
  out[j] = '\0';
}

double
xrlab_plot_text_width (PangoLayout *layout, const char *pl_text)
{
  char plain[256];
  int w, h;

  strip_escapes (pl_text, plain, sizeof plain);
  pango_layout_set_text (layout, plain, -1);
  pango_layout_get_pixel_size (layout, &w, &h);
  return w;
}

void
xrlab_plot_text_font (PangoLayout *layout, double pt)
{
  PangoFontDescription *desc = pango_font_description_from_string ("sans");

  pango_font_description_set_size (desc, (int) (pt * PANGO_SCALE));
  pango_layout_set_font_description (layout, desc);
  pango_font_description_free (desc);
}

static char *
axis_title (const XrlabPlotAxisSpec *axis)
{
  g_autofree char *n = xrlab_plot_text_escape (axis->name != NULL ? axis->name : "");
  g_autofree char *u = xrlab_plot_text_escape (axis->unit != NULL ? axis->unit : "");

  if (u[0] == '\0')
    return g_steal_pointer (&n);
  return g_strdup_printf ("%s (%s)", n, u);
}

/* ---- data ranges ------------------------------------------------------------ */

/* The world window of the finite (and, on a log axis, positive) values,
 * padded; FALSE when there are none. */
static gboolean
data_ranges (const XrlabPlotScene *scene,
             double *x0, double *x1, double *y0, double *y1)
{
  double xmin = INFINITY, xmax = -INFINITY, ymin = INFINITY, ymax = -INFINITY;
  gboolean x_log = scene->x.log, y_log = scene->y.log;

  for (guint s = 0; s < scene->n_curves; s++)
    {
      const XrlabPlotCurve *c = &scene->curves[s];
      for (gsize i = 0; i < c->n; i++)
        {
          if (!xrlab_plot_usable (c->x[i], x_log))
            continue;
          xmin = MIN (xmin, c->x[i]);
          xmax = MAX (xmax, c->x[i]);
          double y = xrlab_plot_curve_y (c, i);
          if (!xrlab_plot_usable (y, y_log))
            continue;
          ymin = MIN (ymin, y);
          ymax = MAX (ymax, y);
        }
    }
  if (!(xmin <= xmax) || !(ymin <= ymax))
    return FALSE;

  if (x_log)
    {
      xmin = log10 (xmin);
      xmax = log10 (xmax);
    }
  if (y_log)
    {
      ymin = log10 (ymin);
      ymax = log10 (ymax);
    }
  if (xmax - xmin < 1e-12 * MAX (1.0, fabs (xmax)))
    {
      double pad = x_log ? 0.1 : MAX (fabs (xmin) * 0.05, 1e-12);
      xmin -= pad;
      xmax += pad;
    }
  if (ymax - ymin < 1e-12 * MAX (1e-300, fabs (ymax)))
    {
      double pad = y_log ? 0.5 : (ymin != 0 ? fabs (ymin) * 0.5 : 1.0);
      ymin -= pad;
      ymax += pad;
    }
  else
    {
      double pad = (ymax - ymin) * 0.045;
      ymin -= pad;
      ymax += pad;
    }
  *x0 = xmin;
  *x1 = xmax;
  *y0 = ymin;
  *y1 = ymax;
  return TRUE;
}

/* ---- margins ------------------------------------------------------------------ */

/* Ticks for a first estimate of the plot area, then the left margin from
 * the widest y label and the right one from half of the last x label. */
static void
ticks_and_margins (XrlabPlotLayout *l, const XrlabPlotScene *scene, PangoLayout *measure)
{
  double plot_w = l->width - 90.0, plot_h = l->height - 70.0;
  double max_w = 0;

  if (scene->x.log)
    xrlab_plot_ticks_log (&l->xa, l->x0, l->x1, MAX (2.0, plot_w / (l->em_tick * 4.5)));
  else
    xrlab_plot_ticks_linear (&l->xa, l->x0, l->x1, MAX (2.0, plot_w / (l->em_tick * 6.5)), FALSE, TRUE);
  if (scene->y.log)
    xrlab_plot_ticks_log (&l->ya, l->y0, l->y1, MAX (2.0, plot_h / (l->em_tick * 3.2)));
  else
    xrlab_plot_ticks_linear (&l->ya, l->y0, l->y1, MAX (2.0, plot_h / (l->em_tick * 5.0)), FALSE, TRUE);

  xrlab_plot_text_font (measure, XRLAB_PLOT_TICK_PT);
  for (guint i = 0; i < l->ya.n; i++)
    if (l->ya.ticks[i].label[0] != '\0')
      max_w = MAX (max_w, xrlab_plot_text_width (measure, l->ya.ticks[i].label));
  l->left = 10 + l->em_label + 10 + max_w + 7;
  l->bottom = 7 + l->em_tick + 8 + l->em_label + 8;
  l->right = 18;
  for (guint i = 0; i < l->xa.n; i++)
    if (l->xa.ticks[i].label[0] != '\0' &&
        fabs (l->xa.ticks[i].pos - l->x1) < 1e-9 * MAX (1, fabs (l->x1)))
      l->right = MAX (l->right, xrlab_plot_text_width (measure, l->xa.ticks[i].label) / 2 + 4);
  l->top = 12;
  if (l->ya.exponent != 0)
    l->top = MAX (l->top, l->em_tick + 8);
}

/* ---- markers ------------------------------------------------------------------ */

static int
compare_visible_marker (gconstpointer a, gconstpointer b)
{
  const XrlabPlotVisibleMarker *ma = a, *mb = b;
  return (ma->x > mb->x) - (ma->x < mb->x);
}

/* The markers inside the x range, by x, with their labels in rows above the
 * plot area: a label goes into the first row where it does not overlap the
 * previous one; at most three rows, the rest unlabelled. */
static void
marker_rows (XrlabPlotLayout *l, const XrlabPlotScene *scene, PangoLayout *measure)
{
  double row_end[3] = { -INFINITY, -INFINITY, -INFINITY };
  double plot_w = l->width - l->left - l->right;
  guint n_rows = 0;

  g_array_set_size (l->markers, 0);
  if (!scene->show_markers)
    return;
  for (guint i = 0; i < scene->n_markers; i++)
    {
      const XrlabPlotMarker *m = &scene->markers[i];
      XrlabPlotVisibleMarker v;
      if (!xrlab_plot_usable (m->x, scene->x.log))
        continue;
      v.x = scene->x.log ? log10 (m->x) : m->x;
      if (v.x < l->x0 || v.x > l->x1)
        continue;
      v.label = m->label;
      v.row = -1;
      g_array_append_val (l->markers, v);
    }
  g_array_sort (l->markers, compare_visible_marker);
  if (l->markers->len == 0)
    return;

  xrlab_plot_text_font (measure, XRLAB_PLOT_MARKER_PT);
  for (guint i = 0; i < l->markers->len; i++)
    {
      XrlabPlotVisibleMarker *v = &g_array_index (l->markers, XrlabPlotVisibleMarker, i);
      g_autofree char *esc = xrlab_plot_text_escape (v->label != NULL ? v->label : "");
      double w = xrlab_plot_text_width (measure, esc) + 6;
      double px = l->left + (v->x - l->x0) / (l->x1 - l->x0) * plot_w;
      for (int r = 0; r < 3; r++)
        if (px - w / 2 > row_end[r])
          {
            v->row = r;
            row_end[r] = px + w / 2;
            n_rows = MAX (n_rows, (guint) r + 1);
            break;
          }
    }
  l->top = MAX (l->top, 6 + n_rows * (l->em_marker + 3) + 4);
}

/* ---- the layout --------------------------------------------------------------- */

void
xrlab_plot_layout_init (XrlabPlotLayout *layout)
{
  memset (layout, 0, sizeof *layout);
  layout->markers = g_array_new (FALSE, FALSE, sizeof (XrlabPlotVisibleMarker));
}

void
xrlab_plot_layout_clear (XrlabPlotLayout *layout)
{
  g_clear_pointer (&layout->markers, g_array_unref);
  g_clear_pointer (&layout->x_title, g_free);
  g_clear_pointer (&layout->y_title, g_free);
}

XrlabPlotLayoutResult
xrlab_plot_layout_compute (XrlabPlotLayout      *l,
                           const XrlabPlotScene *scene,
                           cairo_t              *cr,
                           int                   width,
                           int                   height)
{
  PangoLayout *measure;

  l->width = width;
  l->height = height;
  l->legend_w = l->legend_h = 0;
  l->legend_right = l->legend_top = TRUE;
  g_array_set_size (l->markers, 0);
  if (!data_ranges (scene, &l->x0, &l->x1, &l->y0, &l->y1))
    return XRLAB_PLOT_LAYOUT_NO_DATA;

  g_free (l->x_title);
  g_free (l->y_title);
  l->x_title = axis_title (&scene->x);
  l->y_title = axis_title (&scene->y);
  l->em_tick = XRLAB_PLOT_PT_TO_PX (XRLAB_PLOT_TICK_PT);
  l->em_label = XRLAB_PLOT_PT_TO_PX (XRLAB_PLOT_LABEL_PT);
  l->em_marker = XRLAB_PLOT_PT_TO_PX (XRLAB_PLOT_MARKER_PT);

  measure = pango_cairo_create_layout (cr);
  ticks_and_margins (l, scene, measure);
  marker_rows (l, scene, measure);
  g_object_unref (measure);

  l->plot_w = width - l->left - l->right;
  l->plot_h = height - l->top - l->bottom;
  if (l->plot_w < 40 || l->plot_h < 30)
    return XRLAB_PLOT_LAYOUT_TOO_SMALL;
  return XRLAB_PLOT_LAYOUT_OK;
}

PLINT
xrlab_plot_layout_legend_corner (XrlabPlotLayout      *l,
                                 const XrlabPlotScene *scene,
                                 double                w,
                                 double                h)
{
  static const struct { gboolean right, top; PLINT pos; } corners[] = {
    { TRUE, TRUE, PL_POSITION_TOP | PL_POSITION_RIGHT },
    { FALSE, TRUE, PL_POSITION_TOP | PL_POSITION_LEFT },
    { TRUE, FALSE, PL_POSITION_BOTTOM | PL_POSITION_RIGHT },
    { FALSE, FALSE, PL_POSITION_BOTTOM | PL_POSITION_LEFT },
  };
  guint counts[4] = { 0 };
  guint best = 0;

  for (guint s = 0; s < scene->n_curves; s++)
    {
      const XrlabPlotCurve *c = &scene->curves[s];
      for (gsize i = 0; i < c->n; i++)
        {
          double y = xrlab_plot_curve_y (c, i), px, py;
          if (!xrlab_plot_usable (c->x[i], scene->x.log) || !xrlab_plot_usable (y, scene->y.log))
            continue;
          px = l->left + ((scene->x.log ? log10 (c->x[i]) : c->x[i]) - l->x0) / (l->x1 - l->x0) * l->plot_w;
          py = l->top + (l->y1 - (scene->y.log ? log10 (y) : y)) / (l->y1 - l->y0) * l->plot_h;
          for (guint k = 0; k < 4; k++)
            {
              double bx0 = corners[k].right ? l->left + l->plot_w - 12 - w : l->left + 12;
              double by0 = corners[k].top ? l->top + 12 : l->top + l->plot_h - 12 - h;
              if (px >= bx0 && px <= bx0 + w && py >= by0 && py <= by0 + h)
                counts[k]++;
            }
        }
    }
  for (guint k = 1; k < 4; k++)
    if (counts[k] < counts[best])
      best = k;
  l->legend_right = corners[best].right;
  l->legend_top = corners[best].top;
  return corners[best].pos | PL_POSITION_INSIDE;
}
