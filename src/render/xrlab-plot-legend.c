/* xrlab-plot-legend.c -- the legend of a frame, in the corner of the plot
 * area where it hides the fewest data points (beside the plot, or under it
 * in columns, when it would hide much of it), and the notes under the x
 * axis
 *
 * Each curve has a row: a line sample in its colour, width and style, and
 * its label ("(last valid)" after a stale one). The notes -- that a log
 * axis shows the magnitude of negative values, which markers had no room
 * for a label -- are lines of small italics across the foot of the page.
 *
 * Drawn with cairo after the PLplot passes, so the sample dashes are the
 * curves' dashes (xrlab_plot_line_dashes()) and the text is Pango's.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-plot-render-private.h"

#include <string.h>

#include <glib/gi18n-lib.h>


GPtrArray *
xrlab_plot_legend_wrap (XrlabPlotText *text, const char *note, double size, double width)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  g_auto(GStrv) words = g_strsplit (note, " ", -1);
  GString *line = g_string_new (NULL);

  for (guint i = 0; words[i] != NULL; i++)
    {
      g_autofree char *trial = line->len > 0 ? g_strconcat (line->str, " ", words[i], NULL)
                                             : g_strdup (words[i]);
      g_autofree char *esc = xrlab_plot_text_escape (trial);
      double w, h;
      xrlab_plot_text_size (text, esc, size, TRUE, &w, &h);
      if (w > width && line->len > 0)
        {
          g_ptr_array_add (lines, g_strdup (line->str));
          g_string_assign (line, words[i]);
        }
      else
        g_string_assign (line, trial);
    }
  if (line->len > 0)
    g_ptr_array_add (lines, g_string_free (line, FALSE));
  else
    g_string_free (line, TRUE);
  return lines;
}

static char *
entry_text (const XrlabPlotCurve *c)
{
  g_autofree char *esc = xrlab_plot_text_escape (c->label != NULL ? c->label : "");

  /* TRANSLATORS: legend entry of a curve whose input is now invalid */
  return c->stale ? g_strdup_printf (_("%s (last valid)"), esc) : g_steal_pointer (&esc);
}

static void
set_source (cairo_t *cr, const XrlabPlotColor *c)
{
  cairo_set_source_rgba (cr, c->red, c->green, c->blue, c->alpha);
}

static void
draw_sample (XrlabPlotLayout *l, const XrlabPlotScene *scene, cairo_t *cr, guint s,
             double x0, double x1, double y)
{
  const XrlabPlotCurve *c = &scene->curves[s];
  XrlabPlotColor color = xrlab_plot_series_color (&c->color, scene->dark, c->stale);
  double width = MAX (l->line_width, 1.5), dashes[4];
  guint n = xrlab_plot_line_dashes (c->stale ? XRLAB_PLOT_LINE_STALE : l->styles[s], l->line_width, dashes);

  cairo_save (cr);
  set_source (cr, &color);
  cairo_set_line_width (cr, width);
  cairo_set_line_cap (cr, CAIRO_LINE_CAP_BUTT);
  cairo_set_dash (cr, dashes, (int) n, 0);
  cairo_move_to (cr, x0, y);
  cairo_line_to (cr, x1, y);
  cairo_stroke (cr);
  cairo_restore (cr);
}

void
xrlab_plot_legend_measure (XrlabPlotLayout      *l,
                           const XrlabPlotScene *scene,
                           XrlabPlotText        *text)
{
  guint ns = scene->show_legend ? scene->n_curves : 0;
  double fs = l->fs_legend, pad = 0.55 * fs, sample = 2.2 * fs, gap = 0.5 * fs;
  double max_text = 0, w, h, col_w;
  guint cols = MAX (l->legend_cols, 1), rows;

  g_ptr_array_set_size (l->legend_entries, 0);
  l->legend_w = l->legend_h = 0;
  if (ns == 0)
    return;
  for (guint s = 0; s < ns; s++)
    {
      char *t = entry_text (&scene->curves[s]);
      xrlab_plot_text_size (text, t, fs, FALSE, &w, &h);
      max_text = MAX (max_text, w);
      l->h_legend = h;
      g_ptr_array_add (l->legend_entries, t);
    }
  col_w = sample + gap + max_text + pad;
  l->legend_col_w = col_w;
  cols = MIN (cols, ns);
  rows = (ns + cols - 1) / cols;
  l->legend_w = pad + cols * col_w;
  l->legend_h = 2 * pad + rows * l->h_legend * 1.2;
}

void
xrlab_plot_legend_draw (XrlabPlotLayout      *l,
                        const XrlabPlotScene *scene,
                        XrlabPlotText        *text,
                        cairo_t              *cr)
{
  const XrlabPlotPalette *pal = xrlab_plot_palette_get (scene->dark);
  guint ns = l->legend_entries->len, cols = MAX (l->legend_cols, 1);
  double fs = l->fs_legend, pad = 0.55 * fs, sample = 2.2 * fs, gap = 0.5 * fs;
  double row_h = l->h_legend * 1.2, w = l->legend_w, h = l->legend_h, bx, by, y;

  /* The notes, under the x axis' title (and a legend below the plot). */
  for (guint i = 0; i < l->note_lines->len; i++)
    xrlab_plot_text_show (text, XRLAB_PLOT_TEXT_NOTE, g_ptr_array_index (l->note_lines, i), l->fs_note, TRUE,
                          &pal->muted, 8, l->height - l->notes_h + i * l->h_note * 1.1, 0.0, 0.0, FALSE);

  if (w <= 0 || h <= 0)
    return;
  if (l->legend_below)
    {
      l->legend_right = l->legend_top = FALSE;
      bx = MAX (2, l->left + (l->plot_w - w) / 2);
      by = l->height - l->notes_h - h - 2;
    }
  else if (l->legend_outside)
    {
      l->legend_right = l->legend_top = TRUE;
      bx = l->left + l->plot_w + XRLAB_PLOT_LEGEND_INSET;
      by = l->top;
    }
  else
    {
      xrlab_plot_layout_legend_corner (l, scene, w, h);
      bx = l->legend_right ? l->left + l->plot_w - XRLAB_PLOT_LEGEND_INSET - w : l->left + XRLAB_PLOT_LEGEND_INSET;
      by = l->legend_top ? l->top + XRLAB_PLOT_LEGEND_INSET : l->top + l->plot_h - XRLAB_PLOT_LEGEND_INSET - h;
    }
  l->legend_x = bx;
  l->legend_y = by;

  cairo_save (cr);
  cairo_rectangle (cr, bx + 0.5, by + 0.5, w - 1, h - 1);
  set_source (cr, &pal->legend_bg);
  cairo_fill_preserve (cr);
  set_source (cr, &pal->grid);
  cairo_set_line_width (cr, 1.0);
  cairo_stroke (cr);
  cairo_restore (cr);

  y = by + pad;
  for (guint s = 0; s < ns; s++)
    {
      double cy = y + (s / cols) * row_h + row_h / 2, x = bx + pad + (s % cols) * l->legend_col_w;
      draw_sample (l, scene, cr, s, x, x + sample, cy);
      xrlab_plot_text_show (text, XRLAB_PLOT_TEXT_LEGEND, g_ptr_array_index (l->legend_entries, s), fs, FALSE,
                            &pal->fg, x + sample + gap, cy, 0.0, 0.5, FALSE);
    }
}
