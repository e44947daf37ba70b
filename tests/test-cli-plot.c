/* test-cli-plot.c -- xrlab-cli plot: every option, its file read back (PNG
 * size and resolution, SVG text, PDF page size), and its errors
 *
 * Runs the built xrlab-cli ($XRLAB_CLI).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include <cairo.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "plot-file-util.h"

static char *tmpdir;

/* Runs xrlab-cli plot with the NULL-terminated arguments; returns the exit
 * status, stderr into @err. */
static int
plot (char **err, ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  const char *cli = g_getenv ("XRLAB_CLI");
  char *e = NULL;
  int status = 0;
  const char *a;
  va_list args;

  g_assert_nonnull (cli);
  g_ptr_array_add (argv, (gpointer) cli);
  g_ptr_array_add (argv, (gpointer) "plot");
  va_start (args, err);
  while ((a = va_arg (args, const char *)) != NULL)
    g_ptr_array_add (argv, (gpointer) a);
  va_end (args);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                               NULL, &e, &status, &error));
  g_assert_no_error (error);
  if (err != NULL)
    *err = e;
  else
    g_free (e);
  g_assert_true (WIFEXITED (status));
  return WEXITSTATUS (status);
}

static char *
out_path (const char *name)
{
  return g_build_filename (tmpdir, name, NULL);
}

/* The <text> elements' contents of an SVG, one per line, after a newline. */
static char *
svg_texts (const char *svg)
{
  GString *s = g_string_new ("\n");

  for (const char *p = strstr (svg, "<text"); p != NULL; p = strstr (p + 1, "<text"))
    {
      const char *start = strchr (p, '>'), *end = strstr (p, "</text>");
      g_assert_nonnull (start);
      g_assert_nonnull (end);
      g_string_append_len (s, start + 1, end - start - 1);
      g_string_append_c (s, '\n');
    }
  return g_string_free (s, FALSE);
}

static void
test_png (void)
{
  g_autofree char *path = out_path ("delta.png");
  g_autoptr(GBytes) png = NULL;
  cairo_surface_t *s;
  guint32 w, h;

  /* --size and --dpi: 8.5 × 6 cm at 300 dpi, recorded. */
  g_assert_cmpint (plot (NULL, "Si", "Au:19.3", "-e", "1:30:200:log", "--quantity", "delta", "--log-x", "--log-y",
                         "--size", "8.5x6cm", "--dpi", "300", "-o", path, NULL), ==, 0);
  png = xrlab_test_read_file (path);
  g_assert_cmpuint (xrlab_test_png_info (g_bytes_get_data (png, NULL), g_bytes_get_size (png), &w, &h), ==, 11811);
  g_assert_cmpuint (w, ==, 1004);
  g_assert_cmpuint (h, ==, 709);

  /* Pixels are pixels; the light background by default, --dark's dark one. */
  g_clear_pointer (&png, g_bytes_unref);
  g_assert_cmpint (plot (NULL, "Kapton", "-e", "1:30:50", "--size", "640x400px", "--dpi", "96",
                         "-o", path, NULL), ==, 0);
  png = xrlab_test_read_file (path);
  g_assert_cmpuint (xrlab_test_png_info (g_bytes_get_data (png, NULL), g_bytes_get_size (png), &w, &h), ==, (guint32) lround (96 / 0.0254));
  g_assert_cmpuint (w, ==, 640);
  g_assert_cmpuint (h, ==, 400);
  s = cairo_image_surface_create_from_png (path);
  g_assert_cmpuint (*(guint32 *) (void *) cairo_image_surface_get_data (s) & 0xffffff, ==, 0xffffff);
  cairo_surface_destroy (s);

  g_assert_cmpint (plot (NULL, "Kapton", "-e", "1:30:50", "--size", "640x400px", "--dpi", "96", "--dark",
                         "-o", path, NULL), ==, 0);
  s = cairo_image_surface_create_from_png (path);
  g_assert_cmpuint (*(guint32 *) (void *) cairo_image_surface_get_data (s) & 0xffffff, ==, 0x1e1e1e);
  cairo_surface_destroy (s);
}

static void
test_svg (void)
{
  g_autofree char *path = out_path ("beta.svg");
  g_autoptr(GBytes) svg = NULL;
  g_autofree char *text = NULL, *texts = NULL;

  g_assert_cmpint (plot (NULL, "Si", "Au:19.3", "-e", "5:15:101", "-q", "beta", "--log-y", "--font-size", "9",
                         "--size", "85x60mm", "--xlim", "8:12", "-o", path, NULL), ==, 0);
  svg = xrlab_test_read_file (path);
  text = xrlab_test_flatten (g_bytes_get_data (svg, NULL), g_bytes_get_size (svg));
  texts = svg_texts (text);
  /* 85 × 60 mm, text as text at the size asked for. */
  g_assert_nonnull (strstr (text, "width=\"85.00mm\""));
  g_assert_nonnull (strstr (text, "height=\"60.00mm\""));
  g_assert_nonnull (strstr (text, "font-size=\"9.00\""));
  g_assert_nonnull (strstr (texts, "Photon energy (keV)\n"));
  g_assert_nonnull (strstr (texts, "Absorption index β"));
  g_assert_nonnull (strstr (texts, "\nSi\n"));
  g_assert_nonnull (strstr (texts, "\nAu\n"));
  /* --xlim 8:12: ticks from 8 to 12, nothing from outside; the Au L3 edge
   * (11.92 keV) is labelled, the Au M edges (2–3.4 keV) are not. */
  g_assert_nonnull (strstr (texts, "\n8\n"));
  g_assert_nonnull (strstr (texts, "\n12\n"));
  g_assert_null (strstr (texts, "\n5\n"));
  g_assert_null (strstr (texts, "\n15\n"));
  g_assert_nonnull (strstr (texts, "Au L3\n"));
  g_assert_null (strstr (texts, "Au M5"));
  /* A note names the table the curves come from. */
  g_assert_nonnull (strstr (texts, "Henke tables"));

  /* Chantler's tables to 150 keV: the table named, its Au K edge marked. */
  g_clear_pointer (&svg, g_bytes_unref);
  g_clear_pointer (&text, g_free);
  g_clear_pointer (&texts, g_free);
  g_assert_cmpint (plot (NULL, "Au:19.3", "-e", "50:150:101", "-q", "mu_rho_total_cm2_g", "--log-y",
                         "--table", "auto", "-o", path, NULL), ==, 0);
  svg = xrlab_test_read_file (path);
  text = xrlab_test_flatten (g_bytes_get_data (svg, NULL), g_bytes_get_size (svg));
  texts = svg_texts (text);
  g_assert_nonnull (strstr (texts, "Chantler tables"));
  g_assert_nonnull (strstr (texts, "Au K\n"));
  g_assert_nonnull (strstr (texts, "Mass attenuation coefficient"));
  g_assert_nonnull (strstr (texts, ", total"));

  /* --ylim on a linear axis: its ticks. */
  g_clear_pointer (&svg, g_bytes_unref);
  g_clear_pointer (&text, g_free);
  g_clear_pointer (&texts, g_free);
  g_assert_cmpint (plot (NULL, "Si", "-e", "5:15:101", "-q", "f1", "--ylim", "13:15", "-o", path, NULL), ==, 0);
  svg = xrlab_test_read_file (path);
  text = xrlab_test_flatten (g_bytes_get_data (svg, NULL), g_bytes_get_size (svg));
  texts = svg_texts (text);
  g_assert_nonnull (strstr (texts, "\n13.00\n"));
  g_assert_nonnull (strstr (texts, "\n15.00\n"));
  g_assert_null (strstr (texts, "\n12.00\n"));
  g_assert_nonnull (strstr (texts, "Scattering factor f₁ (e/formula unit)"));
}

static void
test_pdf (void)
{
  g_autofree char *path = out_path ("mu.pdf");
  g_autofree char *text = NULL;
  double w, h;

  g_assert_cmpint (plot (NULL, "Kapton", "Al:2.7", "-e", "1:30:100:log", "-q", "mu_per_cm", "--log-x", "--log-y",
                         "--size", "3.5x2.5in", "--line-width", "0.5", "-o", path, NULL), ==, 0);
  text = xrlab_test_file_text (path);
  g_assert_true (g_str_has_prefix (text, "%PDF"));
  xrlab_test_pdf_page (text, &w, &h);
  g_assert_cmpfloat_with_epsilon (w, 252, 0.01);
  g_assert_cmpfloat_with_epsilon (h, 180, 0.01);
  g_assert_nonnull (strstr (text, "/FontFile"));

  /* Transmission needs a thickness; with one, the figure is written. */
  g_assert_cmpint (plot (NULL, "Kapton", "-e", "1:30:20", "-q", "transmission", "-o", path, NULL), ==, 2);
  g_assert_cmpint (plot (NULL, "Kapton", "-e", "1:30:20", "-q", "transmission", "-t", "25", "-o", path, NULL), ==, 0);
}

static void
test_errors (void)
{
  g_autofree char *path = out_path ("bad.png");
  g_autofree char *err = NULL;

#define EXPECT(status, part, ...)                                    \
  do {                                                               \
    g_clear_pointer (&err, g_free);                                  \
    g_assert_cmpint (plot (&err, __VA_ARGS__, NULL), ==, status);    \
    g_assert_nonnull (strstr (err, part));                           \
  } while (0)

  EXPECT (2, "missing -o", "Si", "-e", "1:30:20");
  EXPECT (2, ".png, .svg or .pdf", "Si", "-e", "1:30:20", "-o", "figure.jpg");
  EXPECT (2, "missing -e", "Si", "-o", path);
  EXPECT (2, "missing FORMULA", "-e", "1:30:20", "-o", path);
  EXPECT (2, "--size", "Si", "-e", "1:30:20", "--size", "big", "-o", path);
  EXPECT (2, "--size", "Si", "-e", "1:30:20", "--size", "8.5x6furlong", "-o", path);
  EXPECT (2, "--xlim", "Si", "-e", "1:30:20", "--xlim", "10:5", "-o", path);
  EXPECT (2, "--ylim", "Si", "-e", "1:30:20", "--ylim", "one:two", "-o", path);
  EXPECT (2, "above 0", "Si", "-e", "1:30:20", "--log-y", "--ylim", "-1:1", "-o", path);
  EXPECT (2, "--dpi", "Si", "-e", "1:30:20", "--dpi", "5000", "-o", path);
  EXPECT (2, "--quantity", "Si", "-e", "1:30:20", "-q", "colour", "-o", path);
  EXPECT (1, "Xx", "Xx:1", "-e", "1:30:20", "-o", path);
  EXPECT (1, "no density", "Si7C3", "-e", "1:30:20", "-o", path);
  /* Too big a PNG: refused, nothing written. */
  EXPECT (1, "pixels", "Si", "-e", "1:30:20", "--size", "100x100in", "--dpi", "1200", "-o", path);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  /* Into a folder that does not exist. */
  {
    g_autofree char *nowhere = g_build_filename (tmpdir, "missing", "f.svg", NULL);
    EXPECT (1, "missing", "Si", "-e", "1:30:20", "-o", nowhere);
  }
#undef EXPECT

  /* --help lists the options. */
  {
    g_autofree char *out = NULL;
    const char *argv[] = { g_getenv ("XRLAB_CLI"), "plot", "--help", NULL };
    int status;
    g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL,
                                 &status, NULL));
    g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
    g_assert_nonnull (strstr (out, "--xlim"));
    g_assert_nonnull (strstr (out, "--font-size"));
  }
}

int
main (int argc, char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmpdir = g_dir_make_tmp ("xrlab-cli-plot-XXXXXX", NULL);
  g_assert_nonnull (tmpdir);

  g_test_add_func ("/cli-plot/png", test_png);
  g_test_add_func ("/cli-plot/svg", test_svg);
  g_test_add_func ("/cli-plot/pdf", test_pdf);
  g_test_add_func ("/cli-plot/errors", test_errors);
  status = g_test_run ();

  {
    GDir *dir = g_dir_open (tmpdir, 0, NULL);
    const char *name;
    while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
      {
        g_autofree char *p = g_build_filename (tmpdir, name, NULL);
        g_unlink (p);
      }
    if (dir != NULL)
      g_dir_close (dir);
    g_rmdir (tmpdir);
  }
  return status;
}
