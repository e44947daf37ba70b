/* xrlab-plot-output.c -- a scene as a PNG, SVG or PDF document
 *
 * A page has a size in points and, for PNG, a resolution. The layout runs
 * on a page of whole units (points rounded up), scaled by less than a
 * part in a thousand to the exact size, so a figure of 8.5 cm is 8.5 cm.
 *
 *   PNG  pixels = points × dpi / 72, rounded; a pHYs chunk records the
 *        resolution (cairo writes none), so layout programs place the image
 *        at its physical size.
 *   SVG  cairo draws the lines; the text is written as <text> elements
 *        (xrlab-plot-text.c) and put in before </svg>, and the root's width
 *        and height are given in mm. Inkscape opens the labels as text.
 *   PDF  a page of the exact size; cairo embeds the fonts (as subsets).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-plot-render-private.h"

#include <errno.h>
#include <string.h>

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <glib/gi18n-lib.h>

/* ---- formats and lengths ---------------------------------------------------------- */

const char *
xrlab_plot_format_get_extension (XrlabPlotFormat format)
{
  switch (format)
    {
    case XRLAB_PLOT_FORMAT_SVG: return "svg";
    case XRLAB_PLOT_FORMAT_PDF: return "pdf";
    case XRLAB_PLOT_FORMAT_PNG:
    default: return "png";
    }
}

gboolean
xrlab_plot_format_from_name (const char *name, XrlabPlotFormat *format)
{
  const char *dot = name != NULL ? strrchr (name, '.') : NULL;

  if (dot == NULL || strchr (dot, G_DIR_SEPARATOR) != NULL)
    return FALSE;
  for (int f = XRLAB_PLOT_FORMAT_PNG; f <= XRLAB_PLOT_FORMAT_PDF; f++)
    if (g_ascii_strcasecmp (dot + 1, xrlab_plot_format_get_extension ((XrlabPlotFormat) f)) == 0)
      {
        if (format != NULL)
          *format = (XrlabPlotFormat) f;
        return TRUE;
      }
  return FALSE;
}

gboolean
xrlab_plot_length_to_pt (double value, const char *unit, double dpi, double *pt)
{
  double f;

  if (g_strcmp0 (unit, "pt") == 0)
    f = 1.0;
  else if (g_strcmp0 (unit, "mm") == 0)
    f = 72.0 / 25.4;
  else if (g_strcmp0 (unit, "cm") == 0)
    f = 72.0 / 2.54;
  else if (g_strcmp0 (unit, "in") == 0)
    f = 72.0;
  else if (g_strcmp0 (unit, "px") == 0 && dpi > 0)
    f = 72.0 / dpi;
  else
    return FALSE;
  *pt = value * f;
  return TRUE;
}

/* ---- checks --------------------------------------------------------------------- */

gboolean
xrlab_plot_output_check (XrlabPlotFormat  format,
                         int              width,
                         int              height,
                         double           scale,
                         GError         **error)
{
  if (width < 120 || height < 90 || width > 20000 || height > 20000)
    {
      g_set_error (error, XRLAB_PLOT_ERROR, XRLAB_PLOT_ERROR_FAILED,
                   _("Plot size %d × %d is outside 120 × 90 … 20000 × 20000"), width, height);
      return FALSE;
    }
  if (format == XRLAB_PLOT_FORMAT_PNG &&
      !(scale >= 0.25 && scale <= 8 && width * scale <= 32000 && height * scale <= 32000))
    {
      g_set_error (error, XRLAB_PLOT_ERROR, XRLAB_PLOT_ERROR_FAILED,
                   _("PNG scale %g is outside 0.25 … 8"), scale);
      return FALSE;
    }
  return TRUE;
}

static void
png_pixels (const XrlabPlotPage *page, long *pw, long *ph)
{
  *pw = lround (page->width_pt * page->dpi / 72.0);
  *ph = lround (page->height_pt * page->dpi / 72.0);
}

gboolean
xrlab_plot_page_check (const XrlabPlotPage *page, GError **error)
{
  long pw, ph;

  g_return_val_if_fail (page != NULL, FALSE);
  if (!(page->width_pt >= 60 && page->width_pt <= 14400 && page->height_pt >= 60 && page->height_pt <= 14400))
    {
      g_set_error (error, XRLAB_PLOT_ERROR, XRLAB_PLOT_ERROR_FAILED,
                   _("Figure size %.4g × %.4g pt (%.3g × %.3g cm) is outside 60 × 60 … 14400 × 14400 pt (2.1 cm … 5 m)"),
                   page->width_pt, page->height_pt, page->width_pt * 2.54 / 72, page->height_pt * 2.54 / 72);
      return FALSE;
    }
  if (page->format != XRLAB_PLOT_FORMAT_PNG)
    return TRUE;
  if (!(page->dpi >= 18 && page->dpi <= 1200))
    {
      g_set_error (error, XRLAB_PLOT_ERROR, XRLAB_PLOT_ERROR_FAILED,
                   _("Resolution %g dpi is outside 18 … 1200 dpi"), page->dpi);
      return FALSE;
    }
  png_pixels (page, &pw, &ph);
  if (pw > 32000 || ph > 32000 || (double) pw * ph > 1e8)
    {
      g_set_error (error, XRLAB_PLOT_ERROR, XRLAB_PLOT_ERROR_FAILED,
                   _("A PNG of %ld × %ld pixels is too large (at most 32000 a side and 100 million in all): lower the resolution or the size"),
                   pw, ph);
      return FALSE;
    }
  return TRUE;
}

/* ---- PNG: the pHYs chunk --------------------------------------------------------- */

static guint32
crc32_update (guint32 crc, const guchar *p, gsize n)
{
  static guint32 table[256];
  static gsize init = 0;

  if (g_once_init_enter (&init))
    {
      for (guint32 i = 0; i < 256; i++)
        {
          guint32 c = i;
          for (int k = 0; k < 8; k++)
            c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
          table[i] = c;
        }
      g_once_init_leave (&init, 1);
    }
  crc = ~crc;
  for (gsize i = 0; i < n; i++)
    crc = table[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
  return ~crc;
}

static void
put_be32 (guchar *p, guint32 v)
{
  p[0] = (guchar) (v >> 24);
  p[1] = (guchar) (v >> 16);
  p[2] = (guchar) (v >> 8);
  p[3] = (guchar) v;
}

/* @png with a pHYs chunk of @dpi after its IHDR (signature 8 bytes, IHDR
 * 25). Returns FALSE when @png is not cairo's PNG. */
static gboolean
png_add_phys (GByteArray *png, double dpi)
{
  guchar chunk[21];
  guint32 ppm = (guint32) lround (dpi / 0.0254);

  if (png->len < 33 || memcmp (png->data, "\x89PNG\r\n\x1a\n", 8) != 0 ||
      memcmp (png->data + 12, "IHDR", 4) != 0)
    return FALSE;
  put_be32 (chunk, 9);
  memcpy (chunk + 4, "pHYs", 4);
  put_be32 (chunk + 8, ppm);
  put_be32 (chunk + 12, ppm);
  chunk[16] = 1;                         /* unit: the metre */
  put_be32 (chunk + 17, crc32_update (0, chunk + 4, 13));
  {
    GByteArray *tail = g_byte_array_new ();
    g_byte_array_append (tail, png->data + 33, png->len - 33);
    g_byte_array_set_size (png, 33);
    g_byte_array_append (png, chunk, sizeof chunk);
    g_byte_array_append (png, tail->data, tail->len);
    g_byte_array_unref (tail);
  }
  return TRUE;
}

/* ---- SVG ------------------------------------------------------------------------ */

/* Sets the root element's width and height to @w_mm x @h_mm and puts
 * @text before the closing tag. */
static GString *
svg_finish (const GByteArray *svg, double w_mm, double h_mm, const GString *text)
{
  GString *out = g_string_new_len ((const char *) svg->data, (gssize) svg->len);
  char *root = strstr (out->str, "<svg");
  char *end = root != NULL ? strchr (root, '>') : NULL;
  char *close = g_strrstr (out->str, "</svg>");

  if (root == NULL || end == NULL || close == NULL)
    return out;
  g_string_insert (out, close - out->str, text->str);
  for (int k = 0; k < 2; k++)
    {
      const char *attr = k == 0 ? " width=\"" : " height=\"";
      char *a, *q;
      gsize pos;
      char num[G_ASCII_DTOSTR_BUF_SIZE + 3];

      root = strstr (out->str, "<svg");
      end = strchr (root, '>');
      a = g_strstr_len (root, end - root, attr);
      if (a == NULL)
        continue;
      a += strlen (attr);
      q = strchr (a, '"');
      if (q == NULL || q > end)
        continue;
      pos = (gsize) (a - out->str);
      g_string_erase (out, (gssize) pos, q - a);
      g_ascii_formatd (num, G_ASCII_DTOSTR_BUF_SIZE, "%.2f", k == 0 ? w_mm : h_mm);
      strcat (num, "mm");
      g_string_insert (out, (gssize) pos, num);
    }
  return out;
}

/* ---- writing --------------------------------------------------------------------- */

static cairo_status_t
append_bytes (void *closure, const unsigned char *data, unsigned int length)
{
  g_byte_array_append (closure, data, length);
  return CAIRO_STATUS_SUCCESS;
}

static gboolean
fail_status (cairo_status_t status, const char *name, GError **error)
{
  g_set_error (error, XRLAB_PLOT_ERROR, XRLAB_PLOT_ERROR_FAILED,
               _("Could not write “%s”: %s"), name != NULL ? name : "",
               status == CAIRO_STATUS_WRITE_ERROR ? g_strerror (errno) : cairo_status_to_string (status));
  return FALSE;
}

gboolean
xrlab_plot_renderer_write_page (XrlabPlotRenderer    *renderer,
                                const XrlabPlotScene *scene,
                                const XrlabPlotPage  *page,
                                cairo_write_func_t    write_func,
                                void                 *closure,
                                const char           *name,
                                GError              **error)
{
  g_autoptr(GByteArray) buffer = g_byte_array_new ();
  g_autoptr(GString) svg_text = NULL;
  cairo_surface_t *surface = NULL;
  cairo_status_t status;
  cairo_t *cr;
  int uw, uh;
  long pw = 0, ph = 0;
  gboolean ok;

  g_return_val_if_fail (renderer != NULL, FALSE);
  g_return_val_if_fail (scene != NULL, FALSE);
  g_return_val_if_fail (page != NULL, FALSE);
  g_return_val_if_fail (write_func != NULL, FALSE);

  if (!xrlab_plot_page_check (page, error) || !xrlab_plot_check_driver (error))
    return FALSE;

  uw = (int) ceil (page->width_pt - 1e-6);
  uh = (int) ceil (page->height_pt - 1e-6);
  switch (page->format)
    {
    case XRLAB_PLOT_FORMAT_PNG:
      png_pixels (page, &pw, &ph);
      surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) pw, (int) ph);
      break;
    case XRLAB_PLOT_FORMAT_SVG:
      surface = cairo_svg_surface_create_for_stream (append_bytes, buffer, page->width_pt, page->height_pt);
      cairo_svg_surface_restrict_to_version (surface, CAIRO_SVG_VERSION_1_1);
      svg_text = g_string_new (NULL);
      break;
    case XRLAB_PLOT_FORMAT_PDF:
      surface = cairo_pdf_surface_create_for_stream (write_func, closure, page->width_pt, page->height_pt);
      cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_CREATOR, "xrlab " PACKAGE_VERSION);
      break;
    default:
      g_return_val_if_reached (FALSE);
    }

  cr = cairo_create (surface);
  if (page->format == XRLAB_PLOT_FORMAT_PNG)
    cairo_scale (cr, (double) pw / uw, (double) ph / uh);
  else
    cairo_scale (cr, page->width_pt / uw, page->height_pt / uh);
  ok = xrlab_plot_renderer_draw_full (renderer, scene, cr, uw, uh, NULL, svg_text, error);
  cairo_destroy (cr);

  if (ok && page->format == XRLAB_PLOT_FORMAT_PNG)
    status = cairo_surface_write_to_png_stream (surface, append_bytes, buffer);
  else
    {
      cairo_surface_finish (surface);
      status = cairo_surface_status (surface);
    }
  cairo_surface_destroy (surface);
  if (!ok)
    return FALSE;
  if (status != CAIRO_STATUS_SUCCESS)
    return fail_status (status, name, error);

  if (page->format == XRLAB_PLOT_FORMAT_PNG)
    {
      png_add_phys (buffer, page->dpi);
      status = write_func (closure, buffer->data, buffer->len);
    }
  else if (page->format == XRLAB_PLOT_FORMAT_SVG)
    {
      g_autoptr(GString) svg = svg_finish (buffer, page->width_pt * 25.4 / 72, page->height_pt * 25.4 / 72,
                                           svg_text);
      status = write_func (closure, (const unsigned char *) svg->str, (unsigned int) svg->len);
    }
  if (status != CAIRO_STATUS_SUCCESS)
    return fail_status (status, name, error);
  return TRUE;
}

gboolean
xrlab_plot_renderer_write (XrlabPlotRenderer    *renderer,
                           const XrlabPlotScene *scene,
                           XrlabPlotFormat       format,
                           int                   width,
                           int                   height,
                           double                scale,
                           cairo_write_func_t    write_func,
                           void                 *closure,
                           const char           *name,
                           GError              **error)
{
  XrlabPlotPage page = { format, width, height, 72.0 * scale };

  g_return_val_if_fail (renderer != NULL, FALSE);
  g_return_val_if_fail (scene != NULL, FALSE);
  g_return_val_if_fail (write_func != NULL, FALSE);

  if (!xrlab_plot_output_check (format, width, height, scale, error))
    return FALSE;
  if (format != XRLAB_PLOT_FORMAT_PNG)
    page.dpi = 72.0;
  return xrlab_plot_renderer_write_page (renderer, scene, &page, write_func, closure, name, error);
}
