/* xrlab-plot-text.c -- every text of a frame: set with Pango on the frame's
 * cairo context, its box recorded, or written as an SVG <text> element
 *
 * Texts are written in the tick module's notation: "#u" starts and "#d"
 * ends a superscript, "##" is a '#'. Pango draws a superscript as a smaller
 * run raised from the baseline; SVG as a <tspan> with baseline-shift, so
 * Inkscape and Illustrator open the labels as editable text.
 *
 * Metrics are unhinted, so a label has the same size on screen, in a PNG
 * and in a vector document, and the layout of a figure does not depend on
 * the surface it is drawn on.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-plot-render-private.h"

#include <string.h>

#define SUPER_SCALE 0.7
#define SUPER_RISE  0.38

/* ---- markup ------------------------------------------------------------------ */

typedef struct {
  GString *plain;                /* the text without escapes */
  guint    n_runs;
  struct { gsize start, end; gboolean super; } runs[16];
} Runs;

static void
runs_parse (Runs *r, const char *text)
{
  gboolean super = FALSE;
  gsize start = 0;

  r->plain = g_string_new (NULL);
  r->n_runs = 0;
  for (const char *p = text != NULL ? text : ""; *p != '\0'; p++)
    {
      if (p[0] == '#' && (p[1] == 'u' || p[1] == 'd'))
        {
          gboolean next = p[1] == 'u';
          if (next != super && r->plain->len > start && r->n_runs < G_N_ELEMENTS (r->runs))
            {
              r->runs[r->n_runs].start = start;
              r->runs[r->n_runs].end = r->plain->len;
              r->runs[r->n_runs].super = super;
              r->n_runs++;
            }
          if (next != super)
            start = r->plain->len;
          super = next;
          p++;
          continue;
        }
      if (p[0] == '#' && p[1] == '#')
        p++;
      g_string_append_c (r->plain, *p);
    }
  if (r->plain->len > start && r->n_runs < G_N_ELEMENTS (r->runs))
    {
      r->runs[r->n_runs].start = start;
      r->runs[r->n_runs].end = r->plain->len;
      r->runs[r->n_runs].super = super;
      r->n_runs++;
    }
}

static void
runs_clear (Runs *r)
{
  g_string_free (r->plain, TRUE);
}

/* ---- the context --------------------------------------------------------------- */

static void
clear_box (gpointer p)
{
  XrlabPlotTextBox *b = p;
  g_clear_pointer (&b->text, g_free);
}

GArray *
xrlab_plot_text_boxes_new (void)
{
  GArray *boxes = g_array_new (FALSE, TRUE, sizeof (XrlabPlotTextBox));

  g_array_set_clear_func (boxes, clear_box);
  return boxes;
}

void
xrlab_plot_text_init (XrlabPlotText *t, cairo_t *cr, GArray *boxes, GString *svg)
{
  PangoContext *ctx;
  cairo_font_options_t *opts;

  t->cr = cr;
  t->boxes = boxes;
  t->svg = svg;
  t->layout = pango_cairo_create_layout (cr);
  ctx = pango_layout_get_context (t->layout);
  opts = cairo_font_options_create ();
  cairo_font_options_set_hint_metrics (opts, CAIRO_HINT_METRICS_OFF);
  cairo_font_options_set_hint_style (opts, CAIRO_HINT_STYLE_NONE);
  pango_cairo_context_set_font_options (ctx, opts);
  cairo_font_options_destroy (opts);
  pango_layout_context_changed (t->layout);
  t->desc = pango_font_description_from_string ("Sans");
  t->family = NULL;
}

void
xrlab_plot_text_clear (XrlabPlotText *t)
{
  g_clear_object (&t->layout);
  g_clear_pointer (&t->desc, pango_font_description_free);
  g_clear_pointer (&t->family, g_free);
}

/* Sets @text (escapes resolved) at @size units on the layout. */
static void
set_text (XrlabPlotText *t, const Runs *r, double size, gboolean italic)
{
  PangoAttrList *attrs = pango_attr_list_new ();

  pango_font_description_set_absolute_size (t->desc, size * PANGO_SCALE);
  pango_font_description_set_style (t->desc, italic ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL);
  pango_layout_set_font_description (t->layout, t->desc);
  pango_layout_set_width (t->layout, -1);
  for (guint i = 0; i < r->n_runs; i++)
    {
      PangoAttribute *a;
      if (!r->runs[i].super)
        continue;
      a = pango_attr_size_new_absolute ((int) (size * SUPER_SCALE * PANGO_SCALE));
      a->start_index = (guint) r->runs[i].start;
      a->end_index = (guint) r->runs[i].end;
      pango_attr_list_insert (attrs, a);
      a = pango_attr_rise_new ((int) (size * SUPER_RISE * PANGO_SCALE));
      a->start_index = (guint) r->runs[i].start;
      a->end_index = (guint) r->runs[i].end;
      pango_attr_list_insert (attrs, a);
    }
  pango_layout_set_text (t->layout, r->plain->str, (int) r->plain->len);
  pango_layout_set_attributes (t->layout, attrs);
  pango_attr_list_unref (attrs);
}

void
xrlab_plot_text_size (XrlabPlotText *t, const char *text, double size, gboolean italic,
                      double *w, double *h)
{
  Runs r;
  PangoRectangle logical;

  runs_parse (&r, text);
  set_text (t, &r, size, italic);
  pango_layout_get_extents (t->layout, NULL, &logical);
  *w = (double) logical.width / PANGO_SCALE;
  *h = (double) logical.height / PANGO_SCALE;
  runs_clear (&r);
}

/* ---- SVG ---------------------------------------------------------------------- */

static const char *
family (XrlabPlotText *t)
{
  if (t->family == NULL)
    {
      PangoFont *font = pango_context_load_font (pango_layout_get_context (t->layout), t->desc);
      PangoFontDescription *d = font != NULL ? pango_font_describe (font) : NULL;
      t->family = g_strdup (d != NULL && pango_font_description_get_family (d) != NULL
                            ? pango_font_description_get_family (d) : "sans-serif");
      if (d != NULL)
        pango_font_description_free (d);
      g_clear_object (&font);
    }
  return t->family;
}

static void
svg_color (GString *s, const char *attr, const XrlabPlotColor *c)
{
  g_string_append_printf (s, " %s=\"#%02x%02x%02x\"", attr,
                          (int) lround (CLAMP (c->red, 0, 1) * 255),
                          (int) lround (CLAMP (c->green, 0, 1) * 255),
                          (int) lround (CLAMP (c->blue, 0, 1) * 255));
  if (c->alpha < 1)
    {
      char buf[G_ASCII_DTOSTR_BUF_SIZE];
      g_string_append_printf (s, " %s-opacity=\"%s\"", attr,
                              g_ascii_formatd (buf, sizeof buf, "%.3g", CLAMP (c->alpha, 0, 1)));
    }
}

static void
svg_number (GString *s, double v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  g_string_append (s, g_ascii_formatd (buf, sizeof buf, "%.2f", v));
}

/* One <text>: its anchor point (@ax, @ay: on the baseline) in the
 * coordinates after @rotate (-90 or 0) about (@ox, @oy). */
static void
svg_text (XrlabPlotText *t, const Runs *r, double size, gboolean italic, const XrlabPlotColor *color,
          const char *anchor, double ox, double oy, gboolean vertical, double ax, double ay)
{
  g_autofree char *fam = g_markup_escape_text (family (t), -1);
  GString *s = t->svg;

  g_string_append (s, "<text");
  if (vertical)
    {
      g_string_append (s, " transform=\"translate(");
      svg_number (s, ox);
      g_string_append_c (s, ' ');
      svg_number (s, oy);
      g_string_append (s, ") rotate(-90)\"");
    }
  g_string_append (s, " x=\"");
  svg_number (s, ax);
  g_string_append (s, "\" y=\"");
  svg_number (s, ay);
  g_string_append_printf (s, "\" font-family=\"%s, sans-serif\" font-size=\"", fam);
  svg_number (s, size);
  g_string_append_printf (s, "\"%s text-anchor=\"%s\"", italic ? " font-style=\"italic\"" : "", anchor);
  svg_color (s, "fill", color);
  g_string_append (s, " xml:space=\"preserve\">");
  for (guint i = 0; i < r->n_runs; i++)
    {
      g_autofree char *esc = g_markup_escape_text (r->plain->str + r->runs[i].start,
                                                   (gssize) (r->runs[i].end - r->runs[i].start));
      if (r->runs[i].super)
        g_string_append_printf (s, "<tspan baseline-shift=\"super\" font-size=\"%d%%\">%s</tspan>",
                                (int) lround (SUPER_SCALE * 100), esc);
      else
        g_string_append (s, esc);
    }
  g_string_append (s, "</text>\n");
}

/* ---- showing ------------------------------------------------------------------- */

static void
record (XrlabPlotText *t, XrlabPlotTextRole role, const char *plain,
        double x0, double y0, double x1, double y1)
{
  XrlabPlotTextBox b = { role, x0, y0, x1, y1, g_strdup (plain) };

  if (t->boxes != NULL)
    g_array_append_val (t->boxes, b);
  else
    g_free (b.text);
}

void
xrlab_plot_text_show (XrlabPlotText        *t,
                      XrlabPlotTextRole     role,
                      const char           *text,
                      double                size,
                      gboolean              italic,
                      const XrlabPlotColor *color,
                      double                x,
                      double                y,
                      double                fx,
                      double                fy,
                      gboolean              vertical)
{
  Runs r;
  PangoRectangle logical;
  double w, h, baseline, bx, by;
  const char *anchor = fx < 0.25 ? "start" : fx > 0.75 ? "end" : "middle";

  runs_parse (&r, text);
  if (r.plain->len == 0)
    {
      runs_clear (&r);
      return;
    }
  set_text (t, &r, size, italic);
  pango_layout_get_extents (t->layout, NULL, &logical);
  w = (double) logical.width / PANGO_SCALE;
  h = (double) logical.height / PANGO_SCALE;
  baseline = (double) pango_layout_get_baseline (t->layout) / PANGO_SCALE;

  if (!vertical)
    {
      bx = x - fx * w;
      by = y - fy * h;
      record (t, role, r.plain->str, bx, by, bx + w, by + h);
      if (t->svg != NULL)
        svg_text (t, &r, size, italic, color, anchor, 0, 0, FALSE,
                  bx + (anchor[0] == 's' ? 0 : anchor[0] == 'e' ? w : w / 2), by + baseline);
      else
        {
          cairo_save (t->cr);
          cairo_set_source_rgba (t->cr, color->red, color->green, color->blue, color->alpha);
          cairo_move_to (t->cr, bx, by);
          pango_cairo_show_layout (t->cr, t->layout);
          cairo_restore (t->cr);
        }
    }
  else
    {
      /* Rotated a quarter turn counter-clockwise: the box is h wide and w
       * tall; (fx, fy) are fractions of that box, x across, y down. */
      double cx = x - fx * h + h / 2, cy = y - fy * w + w / 2;
      record (t, role, r.plain->str, cx - h / 2, cy - w / 2, cx + h / 2, cy + w / 2);
      if (t->svg != NULL)
        svg_text (t, &r, size, italic, color, "middle", cx, cy, TRUE, 0, -h / 2 + baseline);
      else
        {
          cairo_save (t->cr);
          cairo_translate (t->cr, cx, cy);
          cairo_rotate (t->cr, -G_PI / 2);
          cairo_set_source_rgba (t->cr, color->red, color->green, color->blue, color->alpha);
          cairo_move_to (t->cr, -w / 2, -h / 2);
          pango_cairo_show_layout (t->cr, t->layout);
          cairo_restore (t->cr);
        }
    }
  runs_clear (&r);
}

void
xrlab_plot_text_show_wrapped (XrlabPlotText        *t,
                              XrlabPlotTextRole     role,
                              const char           *plain,
                              double                size,
                              const XrlabPlotColor *color,
                              double                x,
                              double                y,
                              double                width)
{
  PangoLayoutIter *iter;
  int pw, ph;

  if (plain == NULL || plain[0] == '\0')
    return;
  pango_font_description_set_absolute_size (t->desc, size * PANGO_SCALE);
  pango_font_description_set_style (t->desc, PANGO_STYLE_NORMAL);
  pango_layout_set_font_description (t->layout, t->desc);
  pango_layout_set_attributes (t->layout, NULL);
  pango_layout_set_width (t->layout, (int) (width * PANGO_SCALE));
  pango_layout_set_alignment (t->layout, PANGO_ALIGN_CENTER);
  pango_layout_set_wrap (t->layout, PANGO_WRAP_WORD_CHAR);
  pango_layout_set_text (t->layout, plain, -1);
  pango_layout_get_pixel_size (t->layout, &pw, &ph);
  y -= ph / 2.0;
  record (t, role, plain, x, y, x + width, y + ph);

  if (t->svg == NULL)
    {
      cairo_save (t->cr);
      cairo_set_source_rgba (t->cr, color->red, color->green, color->blue, color->alpha);
      cairo_move_to (t->cr, x, y);
      pango_cairo_show_layout (t->cr, t->layout);
      cairo_restore (t->cr);
    }
  else
    {
      iter = pango_layout_get_iter (t->layout);
      do
        {
          PangoLayoutLine *line = pango_layout_iter_get_line_readonly (iter);
          Runs r;
          g_autofree char *piece = g_strndup (plain + line->start_index, (gsize) line->length);
          g_autofree char *esc = xrlab_plot_text_escape (piece);
          runs_parse (&r, esc);
          svg_text (t, &r, size, FALSE, color, "middle", 0, 0, FALSE, x + width / 2,
                    y + (double) pango_layout_iter_get_baseline (iter) / PANGO_SCALE);
          runs_clear (&r);
        }
      while (pango_layout_iter_next_line (iter));
      pango_layout_iter_free (iter);
    }
  pango_layout_set_width (t->layout, -1);
  pango_layout_set_alignment (t->layout, PANGO_ALIGN_LEFT);
}

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
