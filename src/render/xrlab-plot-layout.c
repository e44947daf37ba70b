/* xrlab-plot-layout.c -- where a frame puts its parts: data ranges (or the
 * scene's limits), ticks, margins from measured labels, the curves' line
 * styles, the legend's corner
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-plot-render-private.h"

#include <string.h>

#include <glib/gi18n-lib.h>

gboolean
xrlab_plot_axis_is_fixed (const XrlabPlotAxisSpec *axis)
{
  return isfinite (axis->min) && isfinite (axis->max) && axis->min < axis->max &&
         (!axis->log || axis->min > 0);
}

/* "name (unit)", with the common factor of the labels inside the
 * parentheses: "δ (×10#u−3#d)", "Length (×10#u3#d µm)". */
static char *
axis_title (const XrlabPlotAxisSpec *axis, int exponent)
{
  g_autofree char *n = xrlab_plot_text_escape (axis->name != NULL ? axis->name : "");
  g_autofree char *u = xrlab_plot_text_escape (axis->unit != NULL ? axis->unit : "");
  g_autofree char *factor = NULL;

  if (exponent != 0)
    factor = g_strdup_printf ("×10#u%s%d#d", exponent < 0 ? "−" : "", ABS (exponent));
  if (u[0] == '\0' && factor == NULL)
    return g_steal_pointer (&n);
  return g_strdup_printf ("%s (%s%s%s)", n, factor != NULL ? factor : "",
                          factor != NULL && u[0] != '\0' ? " " : "", u);
}

/* ---- data ranges ------------------------------------------------------------ */

static double
to_world (double v, gboolean log)
{
  return log ? log10 (v) : v;
}

/* The y value drawn for @y: its magnitude on a log axis when negative. */
static double
shown_y (double y, gboolean y_log)
{
  return y_log && y < 0 ? -y : y;
}

/* The world window: the axes' limits, or the range of the finite (and, on
 * a log axis, non-zero) values, padded; FALSE when there is nothing to
 * show. The y range follows the data within the x range; on a log y axis
 * negative values count with their magnitude (@l->y_abs is set when there
 * are some). */
static gboolean
data_ranges (XrlabPlotLayout *l, const XrlabPlotScene *scene)
{
  double xmin = INFINITY, xmax = -INFINITY, ymin = INFINITY, ymax = -INFINITY;
  double yamin = INFINITY, yamax = -INFINITY;  /* of all x, when none is inside */
  gboolean x_log = scene->x.log, y_log = scene->y.log;
  gboolean x_fixed = xrlab_plot_axis_is_fixed (&scene->x), y_fixed = xrlab_plot_axis_is_fixed (&scene->y);
  gboolean any_x = FALSE;

  l->y_abs = FALSE;
  for (guint s = 0; s < scene->n_curves; s++)
    {
      const XrlabPlotCurve *c = &scene->curves[s];
      for (gsize i = 0; i < c->n; i++)
        {
          double y;
          if (!xrlab_plot_usable (c->x[i], x_log))
            continue;
          any_x = TRUE;
          xmin = MIN (xmin, c->x[i]);
          xmax = MAX (xmax, c->x[i]);
          y = xrlab_plot_curve_y (c, i);
          if (!xrlab_plot_usable (shown_y (y, y_log), y_log))
            continue;
          if (x_fixed && (c->x[i] < scene->x.min || c->x[i] > scene->x.max))
            {
              yamin = MIN (yamin, shown_y (y, y_log));
              yamax = MAX (yamax, shown_y (y, y_log));
              continue;
            }
          if (y_log && y < 0)
            l->y_abs = TRUE;
          ymin = MIN (ymin, shown_y (y, y_log));
          ymax = MAX (ymax, shown_y (y, y_log));
        }
    }
  if (!any_x)
    return FALSE;
  if (!(ymin <= ymax))
    {
      ymin = yamin;
      ymax = yamax;
    }
  if (!(ymin <= ymax) && !y_fixed)
    return FALSE;

  if (x_fixed)
    {
      xmin = scene->x.min;
      xmax = scene->x.max;
    }
  xmin = to_world (xmin, x_log);
  xmax = to_world (xmax, x_log);
  if (xmax - xmin < 1e-12 * MAX (1.0, fabs (xmax)))
    {
      double pad = x_log ? 0.1 : MAX (fabs (xmin) * 0.05, 1e-12);
      xmin -= pad;
      xmax += pad;
    }

  if (y_fixed)
    {
      ymin = to_world (scene->y.min, y_log);
      ymax = to_world (scene->y.max, y_log);
    }
  else
    {
      ymin = to_world (ymin, y_log);
      ymax = to_world (ymax, y_log);
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
    }
  l->x0 = xmin;
  l->x1 = xmax;
  l->y0 = ymin;
  l->y1 = ymax;
  return TRUE;
}

gboolean
xrlab_plot_layout_ranges (XrlabPlotLayout *l, const XrlabPlotScene *scene)
{
  return data_ranges (l, scene);
}

/* ---- ticks and margins -------------------------------------------------------- */

static void
make_ticks (XrlabPlotTicks *t, gboolean log, double lo, double hi, double target, double log_target)
{
  if (log)
    xrlab_plot_ticks_log (t, lo, hi, MAX (2.0, log_target));
  else
    xrlab_plot_ticks_linear (t, lo, hi, MAX (2.0, target), FALSE, TRUE);
}

/* Whether the labelled x ticks of @t, centred at their positions, leave a
 * gap of at least one space between neighbours. */
static gboolean
x_labels_fit (const XrlabPlotLayout *l, const XrlabPlotTicks *t, XrlabPlotText *text, double plot_w)
{
  double prev_end = -INFINITY;

  for (guint i = 0; i < t->n; i++)
    {
      double w, h, px;
      if (t->ticks[i].label[0] == '\0')
        continue;
      xrlab_plot_text_size (text, t->ticks[i].label, l->fs_tick, FALSE, &w, &h);
      px = (t->ticks[i].pos - l->x0) / (l->x1 - l->x0) * plot_w;
      if (px - w / 2 < prev_end + l->fs_tick * 0.5)
        return FALSE;
      prev_end = px + w / 2;
    }
  return TRUE;
}

static gboolean
y_labels_fit (const XrlabPlotLayout *l, const XrlabPlotTicks *t, double plot_h)
{
  double prev = -INFINITY;

  for (guint i = 0; i < t->n; i++)
    {
      double py;
      if (t->ticks[i].label[0] == '\0')
        continue;
      py = (t->ticks[i].pos - l->y0) / (l->y1 - l->y0) * plot_h;
      if (py - prev < l->h_tick * 1.15)
        return FALSE;
      prev = py;
    }
  return TRUE;
}

/* A y title longer than the page is high goes on two lines, split at the
 * space nearest its middle. */
static void
split_long_title (XrlabPlotLayout *l, XrlabPlotText *text)
{
  double w, h;
  const char *best = NULL;
  gsize len = strlen (l->y_title);

  xrlab_plot_text_size (text, l->y_title, l->fs_title, FALSE, &w, &h);
  if (w <= 0.8 * (l->height - 8))
    return;
  for (const char *p = strchr (l->y_title, ' '); p != NULL; p = strchr (p + 1, ' '))
    if (best == NULL || fabs ((double) (p - l->y_title) - len / 2.0) < fabs ((double) (best - l->y_title) - len / 2.0))
      best = p;
  if (best == NULL)
    return;
  l->y_title2 = g_strdup (best + 1);
  l->y_title[best - l->y_title] = '\0';
}

/* Ticks for an estimate of the plot area, thinned until neighbouring labels
 * keep apart; then the left margin from the widest y label and the right
 * one from half of the last x label. */
static void
ticks_and_margins (XrlabPlotLayout *l, const XrlabPlotScene *scene, XrlabPlotText *text,
                   double extra_right, double extra_bottom)
{
  double plot_w = l->width - 6.0 * l->fs_tick - 18 - extra_right;
  double plot_h = l->height - 5.0 * l->fs_tick - 12 - extra_bottom;
  double max_w = 0, w, h, tx = 1.0, ty = 1.0;

  for (int k = 0; k < 6; k++, tx *= 0.75)
    {
      make_ticks (&l->xa, scene->x.log, l->x0, l->x1, plot_w / (l->fs_tick * 5.5) * tx,
                  plot_w / (l->fs_tick * 3.6) * tx);
      if (x_labels_fit (l, &l->xa, text, plot_w))
        break;
    }
  for (int k = 0; k < 6; k++, ty *= 0.75)
    {
      make_ticks (&l->ya, scene->y.log, l->y0, l->y1, plot_h / (l->fs_tick * 3.4) * ty,
                  plot_h / (l->fs_tick * 2.5) * ty);
      if (y_labels_fit (l, &l->ya, plot_h))
        break;
    }

  g_free (l->x_title);
  g_free (l->y_title);
  g_clear_pointer (&l->y_title2, g_free);
  l->x_title = axis_title (&scene->x, l->xa.exponent);
  l->y_title = axis_title (&scene->y, l->ya.exponent);
  split_long_title (l, text);

  for (guint i = 0; i < l->ya.n; i++)
    if (l->ya.ticks[i].label[0] != '\0')
      {
        xrlab_plot_text_size (text, l->ya.ticks[i].label, l->fs_tick, FALSE, &w, &h);
        max_w = MAX (max_w, w);
      }
  l->left = 8 + l->h_title * (l->y_title2 != NULL ? 2 : 1) + 6 + max_w + 6;
  l->bottom = 5 + l->h_tick + 4 + l->h_title + 6 + extra_bottom;
  l->right = MAX (12, l->fs_tick) + extra_right;
  for (guint i = 0; i < l->xa.n; i++)
    if (l->xa.ticks[i].label[0] != '\0' &&
        fabs (l->xa.ticks[i].pos - l->x1) < 1e-3 * fabs (l->x1 - l->x0))
      {
        xrlab_plot_text_size (text, l->xa.ticks[i].label, l->fs_tick, FALSE, &w, &h);
        l->right = MAX (l->right, w / 2 + 4);
      }
  /* The top y label sticks out above the plot area by half its height. */
  l->top = MAX (10, l->h_tick / 2 + 4);
}

/* ---- line styles ------------------------------------------------------------- */

static gboolean
same_color (const XrlabPlotColor *a, const XrlabPlotColor *b)
{
  return fabs (a->red - b->red) < 1e-3 && fabs (a->green - b->green) < 1e-3 &&
         fabs (a->blue - b->blue) < 1e-3;
}

/* AUTO: the n-th curve of a colour (counting from 0) gets style n of
 * solid, dashed, dash-dot, long dash, dotted. */
XrlabPlotLineStyle
xrlab_plot_scene_get_line_style (const XrlabPlotScene *scene, guint index)
{
  static const XrlabPlotLineStyle order[] = {
    XRLAB_PLOT_LINE_SOLID, XRLAB_PLOT_LINE_DASHED, XRLAB_PLOT_LINE_DASH_DOT,
    XRLAB_PLOT_LINE_LONG_DASH, XRLAB_PLOT_LINE_DOTTED,
  };
  const XrlabPlotCurve *c;
  guint same = 0;

  g_return_val_if_fail (scene != NULL && index < scene->n_curves, XRLAB_PLOT_LINE_SOLID);
  c = &scene->curves[index];
  if (c->style > XRLAB_PLOT_LINE_AUTO && c->style < XRLAB_PLOT_N_LINE_STYLES)
    return c->style;
  for (guint k = 0; k < index; k++)
    if (same_color (&scene->curves[k].color, &c->color))
      same++;
  return order[same % G_N_ELEMENTS (order)];
}

static void
resolve_styles (XrlabPlotLayout *l, const XrlabPlotScene *scene)
{
  if (l->n_styles < scene->n_curves)
    {
      l->styles = g_renew (XrlabPlotLineStyle, l->styles, scene->n_curves);
      l->n_styles = scene->n_curves;
    }
  for (guint s = 0; s < scene->n_curves; s++)
    l->styles[s] = xrlab_plot_scene_get_line_style (scene, s);
}

guint
xrlab_plot_line_dashes (XrlabPlotLineStyle style, double width, double d[4])
{
  double u = MAX (width, 1.0);

  switch ((int) style)
    {
    case XRLAB_PLOT_LINE_DASHED:
      d[0] = 5 * u, d[1] = 3.5 * u;
      return 2;
    case XRLAB_PLOT_LINE_DASH_DOT:
      d[0] = 5 * u, d[1] = 2.5 * u, d[2] = 1.2 * u, d[3] = 2.5 * u;
      return 4;
    case XRLAB_PLOT_LINE_LONG_DASH:
      d[0] = 11 * u, d[1] = 4 * u;
      return 2;
    case XRLAB_PLOT_LINE_DOTTED:
      d[0] = 1.5 * u, d[1] = 2.5 * u;
      return 2;
    case XRLAB_PLOT_LINE_STALE:
      d[0] = 3.5 * u, d[1] = 2.8 * u;
      return 2;
    case XRLAB_PLOT_LINE_NEGATIVE:
      d[0] = 0.9 * u, d[1] = 1.8 * u;
      return 2;
    default:
      return 0;
    }
}

/* ---- the layout --------------------------------------------------------------- */

void
xrlab_plot_layout_init (XrlabPlotLayout *layout)
{
  memset (layout, 0, sizeof *layout);
  layout->markers = g_array_new (FALSE, FALSE, sizeof (XrlabPlotVisibleMarker));
  layout->notes = g_ptr_array_new_with_free_func (g_free);
  layout->legend_entries = g_ptr_array_new_with_free_func (g_free);
  layout->note_lines = g_ptr_array_new_with_free_func (g_free);
  layout->unlabelled = g_string_new (NULL);
}

void
xrlab_plot_layout_clear (XrlabPlotLayout *layout)
{
  g_clear_pointer (&layout->markers, g_array_unref);
  g_clear_pointer (&layout->notes, g_ptr_array_unref);
  g_clear_pointer (&layout->legend_entries, g_ptr_array_unref);
  g_clear_pointer (&layout->note_lines, g_ptr_array_unref);
  if (layout->unlabelled != NULL)
    g_string_free (layout->unlabelled, TRUE);
  layout->unlabelled = NULL;
  g_clear_pointer (&layout->x_title, g_free);
  g_clear_pointer (&layout->y_title, g_free);
  g_clear_pointer (&layout->y_title2, g_free);
  g_clear_pointer (&layout->styles, g_free);
}

static void
type_sizes (XrlabPlotLayout *l, const XrlabPlotScene *scene, XrlabPlotText *text)
{
  double base = scene->font_size > 0 ? CLAMP (scene->font_size, 4.0, 48.0) : XRLAB_PLOT_DEFAULT_FONT;
  double w;

  l->fs_tick = base;
  l->fs_title = base * XRLAB_PLOT_TITLE_SCALE;
  l->fs_marker = base * XRLAB_PLOT_MARKER_SCALE;
  l->fs_note = base * XRLAB_PLOT_NOTE_SCALE;
  l->fs_legend = base;
  xrlab_plot_text_size (text, "0", l->fs_tick, FALSE, &w, &l->h_tick);
  xrlab_plot_text_size (text, "0", l->fs_title, FALSE, &w, &l->h_title);
  xrlab_plot_text_size (text, "0", l->fs_marker, FALSE, &w, &l->h_marker);
  xrlab_plot_text_size (text, "0", l->fs_note, TRUE, &w, &l->h_note);
  l->line_width = CLAMP (scene->line_width, 0.25, 8.0);
}

static void
make_notes (XrlabPlotLayout *l, const XrlabPlotScene *scene)
{
  g_ptr_array_set_size (l->notes, 0);
  if (scene->note != NULL && scene->note[0] != '\0')
    g_ptr_array_add (l->notes, g_strdup (scene->note));
  if (l->y_abs)
    {
      const char *sym = scene->y.symbol;
      if (sym != NULL && sym[0] != '\0')
        /* TRANSLATORS: a note on a plot with a logarithmic y axis; %s is the
         * quantity's symbol (δ) */
        g_ptr_array_add (l->notes, g_strdup_printf (_("Dotted: |%s| where %s < 0"), sym, sym));
      else
        g_ptr_array_add (l->notes, g_strdup (_("Dotted: magnitude of negative values")));
    }
  if (l->n_unlabelled_groups > 0)
    /* TRANSLATORS: a note on a plot: markers (absorption edges) drawn without a
     * label for lack of room; %s lists them ("Fe L3, Ni K") */
    g_ptr_array_add (l->notes, g_strdup_printf (_("Not labelled (no room): %s"), l->unlabelled->str));
}

/* The notes joined and wrapped to the page's width. */
static double
wrap_notes (XrlabPlotLayout *l, XrlabPlotText *text)
{
  g_autofree char *all = NULL;
  g_autoptr(GPtrArray) lines = NULL;

  g_ptr_array_set_size (l->note_lines, 0);
  if (l->notes->len == 0)
    return 0;
  g_ptr_array_add (l->notes, NULL);
  all = g_strjoinv ("  ·  ", (char **) l->notes->pdata);
  g_ptr_array_set_size (l->notes, l->notes->len - 1);
  lines = xrlab_plot_legend_wrap (text, all, l->fs_note, l->width - 16);
  for (guint i = 0; i < lines->len; i++)
    g_ptr_array_add (l->note_lines, xrlab_plot_text_escape (g_ptr_array_index (lines, i)));
  return l->note_lines->len * l->h_note * 1.1 + 4;
}

/* Margins, plot area, marker rows, notes and the legend's size, for a
 * legend inside the plot area, beside it (@extra_right) or below it
 * (@extra_bottom). The notes' height depends on the plot's width (through
 * the markers left without a label): a second round settles it. */
static void
arrange (XrlabPlotLayout *l, const XrlabPlotScene *scene, XrlabPlotText *text,
         double extra_right, double extra_bottom)
{
  double notes_h = 0;

  for (int round = 0; round < 3; round++)
    {
      double h;
      ticks_and_margins (l, scene, text, extra_right, extra_bottom + notes_h);
      l->plot_w = l->width - l->left - l->right;
      l->n_rows = 0;
      l->n_unlabelled_groups = 0;
      g_string_truncate (l->unlabelled, 0);
      xrlab_plot_layout_markers (l, scene, text);
      make_notes (l, scene);
      h = wrap_notes (l, text);
      if (h == notes_h)
        break;
      notes_h = h;
    }
  l->notes_h = notes_h;
  l->extra_bottom = extra_bottom + notes_h;
  l->plot_h = l->height - l->top - l->bottom;
  xrlab_plot_legend_measure (l, scene, text);
}

XrlabPlotLayoutResult
xrlab_plot_layout_compute (XrlabPlotLayout      *l,
                           const XrlabPlotScene *scene,
                           XrlabPlotText        *text,
                           int                   width,
                           int                   height)
{
  l->width = width;
  l->height = height;
  l->x_reversed = scene->x.reversed;
  l->legend_w = l->legend_h = 0;
  l->legend_right = l->legend_top = TRUE;
  l->legend_outside = l->legend_below = FALSE;
  l->legend_cols = 1;
  g_array_set_size (l->markers, 0);
  g_ptr_array_set_size (l->notes, 0);
  g_ptr_array_set_size (l->legend_entries, 0);
  g_ptr_array_set_size (l->note_lines, 0);
  l->notes_h = 0;
  if (!data_ranges (l, scene))
    return XRLAB_PLOT_LAYOUT_NO_DATA;

  type_sizes (l, scene, text);
  resolve_styles (l, scene);
  arrange (l, scene, text, 0, 0);
  /* A legend that would cover much of the plot goes beside it, when the
   * page leaves the plot area at least half of its width, else below it in
   * columns. */
  if (l->legend_w > 0 &&
      (l->legend_h > l->plot_h - 2 * XRLAB_PLOT_LEGEND_INSET || l->legend_w > 0.45 * l->plot_w ||
       l->legend_w * l->legend_h > 0.2 * l->plot_w * l->plot_h))
    {
      if (l->legend_w + XRLAB_PLOT_LEGEND_INSET < 0.5 * l->plot_w && l->legend_h < height - 8)
        {
          arrange (l, scene, text, l->legend_w + XRLAB_PLOT_LEGEND_INSET, 0);
          l->legend_outside = TRUE;
        }
      else
        {
          double pad = 0.55 * l->fs_tick;
          l->legend_cols = (guint) MAX (1.0, floor ((width - 16 - 2 * pad) / MAX (l->legend_col_w, 1)));
          xrlab_plot_legend_measure (l, scene, text);
          arrange (l, scene, text, 0, l->legend_h + 4);
          l->legend_below = TRUE;
          if (l->plot_h < 40)
            {
              /* No room below either: inside after all, over the data, in
               * as many columns as the plot area's width allows. */
              l->legend_cols = (guint) MAX (1.0, floor ((l->plot_w - 2 * XRLAB_PLOT_LEGEND_INSET - 2 * pad) /
                                                        MAX (l->legend_col_w, 1)));
              arrange (l, scene, text, 0, 0);
              l->legend_below = FALSE;
              /* Still too tall: smaller type, down to 60 %. */
              if (l->legend_h > l->plot_h - 2 * XRLAB_PLOT_LEGEND_INSET)
                {
                  l->fs_legend = l->fs_tick * MAX (0.6, (l->plot_h - 2 * XRLAB_PLOT_LEGEND_INSET) / l->legend_h);
                  xrlab_plot_legend_measure (l, scene, text);
                }
            }
        }
    }
  if (l->plot_w < 40 || l->plot_h < 30)
    return XRLAB_PLOT_LAYOUT_TOO_SMALL;
  return XRLAB_PLOT_LAYOUT_OK;
}

void
xrlab_plot_layout_legend_corner (XrlabPlotLayout      *l,
                                 const XrlabPlotScene *scene,
                                 double                w,
                                 double                h)
{
  static const struct { gboolean right, top; } corners[] = {
    { TRUE, TRUE }, { FALSE, TRUE }, { TRUE, FALSE }, { FALSE, FALSE },
  };
  guint counts[4] = { 0 };
  guint best = 0;

  for (guint s = 0; s < scene->n_curves; s++)
    {
      const XrlabPlotCurve *c = &scene->curves[s];
      for (gsize i = 0; i < c->n; i++)
        {
          double y = shown_y (xrlab_plot_curve_y (c, i), scene->y.log), px, py;
          if (!xrlab_plot_usable (c->x[i], scene->x.log) || !xrlab_plot_usable (y, scene->y.log))
            continue;
          px = (to_world (c->x[i], scene->x.log) - l->x0) / (l->x1 - l->x0) * l->plot_w;
          px = l->left + (l->x_reversed ? l->plot_w - px : px);
          py = l->top + (l->y1 - to_world (y, scene->y.log)) / (l->y1 - l->y0) * l->plot_h;
          for (guint k = 0; k < 4; k++)
            {
              double bx0 = corners[k].right ? l->left + l->plot_w - 10 - w : l->left + 10;
              double by0 = corners[k].top ? l->top + 10 : l->top + l->plot_h - 10 - h;
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
}
