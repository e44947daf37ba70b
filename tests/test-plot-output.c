/* test-plot-output.c -- figures written as PNG, SVG and PDF and read back:
 * pixel size and resolution, text kept as text, the page's physical size,
 * embedded fonts
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "plot-file-util.h"
#include "xrlab-plot-render.h"
#include "test-common.h"

#define N 300

static double xs[N], ys[N];
static XrlabPlotCurve curve;
static XrlabPlotMarker marker = { 1.8389, (char *) "Si K", 14, 0 };

static void
make_scene (XrlabPlotScene *scene)
{
  for (int i = 0; i < N; i++)
    {
      xs[i] = pow (30.0, (double) i / (N - 1));
      ys[i] = 1e-4 / (xs[i] * xs[i]);
    }
  curve = (XrlabPlotCurve) { "Si", xrlab_plot_palette_series (0), xs, ys, N, 1.0, FALSE, 0 };
  xrlab_plot_scene_init (scene);
  scene->curves = &curve;
  scene->n_curves = 1;
  scene->markers = &marker;
  scene->n_markers = 1;
  scene->x = (XrlabPlotAxisSpec) { "Photon energy", "keV", TRUE, 0, 0, NULL };
  scene->y = (XrlabPlotAxisSpec) { "Refractive index decrement δ", NULL, TRUE, 0, 0, "δ" };
}

static GByteArray *
write_page (const XrlabPlotScene *scene, XrlabPlotFormat format, double w_pt, double h_pt, double dpi)
{
  g_autoptr(XrlabPlotRenderer) r = xrlab_plot_renderer_new ();
  XrlabPlotPage page = { format, w_pt, h_pt, dpi };
  GByteArray *out = g_byte_array_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (xrlab_plot_renderer_write_page (r, scene, &page, xrlab_test_append_bytes, out, "figure", &error));
  g_assert_no_error (error);
  return out;
}

/* The pHYs chunk's pixels per metre (0: none). */
static guint32
png_ppm (const GByteArray *png, guint32 *w, guint32 *h)
{
  return xrlab_test_png_info (png->data, png->len, w, h);
}

static void
test_png (void)
{
  XrlabPlotScene scene;
  guint32 w, h;
  double pt;

  make_scene (&scene);
  /* 8.5 × 6 cm at 300 dpi: 1004 × 709 pixels, 11811 pixels per metre. */
  {
    double wpt, hpt;
    g_autoptr(GByteArray) png = NULL;
    g_assert_true (xrlab_plot_length_to_pt (8.5, "cm", 300, &wpt));
    g_assert_true (xrlab_plot_length_to_pt (6.0, "cm", 300, &hpt));
    png = write_page (&scene, XRLAB_PLOT_FORMAT_PNG, wpt, hpt, 300);
    g_assert_cmpuint (png_ppm (png, &w, &h), ==, 11811);
    g_assert_cmpuint (w, ==, 1004);
    g_assert_cmpuint (h, ==, 709);
  }
  /* 1600 × 1000 pixels at 150 dpi are 1600 × 1000 pixels. */
  {
    double wpt, hpt;
    g_autoptr(GByteArray) png = NULL;
    g_assert_true (xrlab_plot_length_to_pt (1600, "px", 150, &wpt));
    g_assert_true (xrlab_plot_length_to_pt (1000, "px", 150, &hpt));
    png = write_page (&scene, XRLAB_PLOT_FORMAT_PNG, wpt, hpt, 150);
    g_assert_cmpuint (png_ppm (png, &w, &h), ==, (guint32) lround (150 / 0.0254));
    g_assert_cmpuint (w, ==, 1600);
    g_assert_cmpuint (h, ==, 1000);
  }
  /* The older call: points and a scale, 72 dpi × scale. */
  {
    g_autoptr(XrlabPlotRenderer) r = xrlab_plot_renderer_new ();
    g_autoptr(GByteArray) png = g_byte_array_new ();
    g_assert_true (xrlab_plot_renderer_write (r, &scene, XRLAB_PLOT_FORMAT_PNG, 640, 400, 2.0,
                                              xrlab_test_append_bytes, png, "p.png", NULL));
    g_assert_cmpuint (png_ppm (png, &w, &h), ==, (guint32) lround (144 / 0.0254));
    g_assert_cmpuint (w, ==, 1280);
  }
  g_assert_true (xrlab_plot_length_to_pt (2, "in", 0, &pt));
  g_assert_cmpfloat_with_epsilon (pt, 144, 1e-9);
  g_assert_false (xrlab_plot_length_to_pt (2, "furlong", 0, &pt));
  g_assert_false (xrlab_plot_length_to_pt (2, "px", 0, &pt));
}

static void
test_svg (void)
{
  XrlabPlotScene scene;
  g_autoptr(GByteArray) svg = NULL;
  g_autofree char *text = NULL;
  guint n_text = 0;
  const char *p;

  make_scene (&scene);
  scene.font_size = 9;
  svg = write_page (&scene, XRLAB_PLOT_FORMAT_SVG, 240.94, 170.08, 0);
  text = g_strndup ((const char *) svg->data, svg->len);
  /* 85 × 60 mm, the drawing in points. */
  g_assert_nonnull (strstr (text, "width=\"85.00mm\""));
  g_assert_nonnull (strstr (text, "height=\"60.00mm\""));
  g_assert_nonnull (strstr (text, "viewBox=\"0 0 240"));
  /* Labels as <text> elements: the ticks, the titles, the marker, the
   * legend; superscripts as tspans; the size asked for. */
  for (p = strstr (text, "<text"); p != NULL; p = strstr (p + 1, "<text"))
    n_text++;
  g_assert_cmpuint (n_text, >=, 8);
  g_assert_nonnull (strstr (text, ">Photon energy (keV)</text>"));
  /* (on two lines on a page this small) */
  g_assert_nonnull (strstr (text, ">Refractive index"));
  g_assert_nonnull (strstr (text, "δ</text>"));
  g_assert_nonnull (strstr (text, ">Si K</text>"));
  g_assert_nonnull (strstr (text, ">Si</text>"));
  g_assert_nonnull (strstr (text, "10<tspan baseline-shift=\"super\" font-size=\"70%\">−5</tspan>"));
  g_assert_nonnull (strstr (text, "font-size=\"9.00\""));
  /* The y title turned a quarter. */
  g_assert_nonnull (strstr (text, "rotate(-90)"));
  /* Text goes in before the end, and the document stays one document. */
  g_assert_true (g_str_has_suffix (g_strchomp (text), "</svg>"));
  g_assert_null (strstr (strstr (text, "</svg>") + 1, "<text"));
  /* No glyph outlines: cairo drew no text. */
  g_assert_null (strstr (text, "<symbol"));
}

/* The MediaBox of the first page: "[ 0 0 W H ]". */
static char *
flatten (const GByteArray *bytes)
{
  return xrlab_test_flatten (bytes->data, bytes->len);
}

static void
pdf_media_box (const GByteArray *pdf, double *w, double *h)
{
  g_autofree char *text = flatten (pdf);
  xrlab_test_pdf_page (text, w, h);
}

static void
test_pdf (void)
{
  XrlabPlotScene scene;
  g_autoptr(GByteArray) pdf = NULL;
  g_autofree char *flat = NULL;
  double w, h, wpt, hpt;

  make_scene (&scene);
  g_assert_true (xrlab_plot_length_to_pt (3.5, "in", 0, &wpt));
  g_assert_true (xrlab_plot_length_to_pt (2.5, "in", 0, &hpt));
  pdf = write_page (&scene, XRLAB_PLOT_FORMAT_PDF, wpt, hpt, 0);
  g_assert_cmpint (memcmp (pdf->data, "%PDF", 4), ==, 0);
  pdf_media_box (pdf, &w, &h);
  g_assert_cmpfloat_with_epsilon (w, 252, 0.01);
  g_assert_cmpfloat_with_epsilon (h, 180, 0.01);

  /* A fractional size: 8.5 × 6 cm. */
  g_clear_pointer (&pdf, g_byte_array_unref);
  pdf = write_page (&scene, XRLAB_PLOT_FORMAT_PDF, 8.5 * 72 / 2.54, 6 * 72 / 2.54, 0);
  pdf_media_box (pdf, &w, &h);
  g_assert_cmpfloat_with_epsilon (w * 2.54 / 72, 8.5, 0.001);
  g_assert_cmpfloat_with_epsilon (h * 2.54 / 72, 6.0, 0.001);
  /* The fonts are embedded (a FontFile stream per font). */
  flat = flatten (pdf);
  g_assert_nonnull (strstr (flat, "/FontFile"));
  g_assert_nonnull (strstr (flat, "/FontDescriptor"));
}

static void
test_checks (void)
{
  XrlabPlotPage page = { XRLAB_PLOT_FORMAT_PNG, 240, 170, 300 };
  XrlabPlotFormat format;
  g_autoptr(GError) error = NULL;

  g_assert_true (xrlab_plot_page_check (&page, NULL));
  page.dpi = 5000;
  g_assert_false (xrlab_plot_page_check (&page, &error));
  g_assert_nonnull (strstr (error->message, "5000 dpi"));
  g_clear_error (&error);
  page.dpi = 1200;
  page.width_pt = page.height_pt = 14000;
  g_assert_false (xrlab_plot_page_check (&page, &error));
  g_assert_nonnull (strstr (error->message, "pixels"));
  g_clear_error (&error);
  page.format = XRLAB_PLOT_FORMAT_PDF;
  g_assert_true (xrlab_plot_page_check (&page, NULL));
  page.width_pt = 10;
  g_assert_false (xrlab_plot_page_check (&page, &error));
  g_assert_nonnull (strstr (error->message, "cm"));

  g_assert_true (xrlab_plot_format_from_name ("fig.SVG", &format));
  g_assert_cmpint (format, ==, XRLAB_PLOT_FORMAT_SVG);
  g_assert_true (xrlab_plot_format_from_name ("/a.b/fig.pdf", &format));
  g_assert_cmpint (format, ==, XRLAB_PLOT_FORMAT_PDF);
  g_assert_false (xrlab_plot_format_from_name ("/a.png/fig", &format));
  g_assert_false (xrlab_plot_format_from_name ("fig.jpeg", &format));
  g_assert_cmpstr (xrlab_plot_format_get_extension (XRLAB_PLOT_FORMAT_PNG), ==, "png");
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/plot-output/png", test_png);
  g_test_add_func ("/plot-output/svg", test_svg);
  g_test_add_func ("/plot-output/pdf", test_pdf);
  g_test_add_func ("/plot-output/checks", test_checks);
  return g_test_run ();
}
