/* test-gui-plot.c -- XrlabPlot: rendering, gaps, stale curves, readout,
 * export, properties bound to settings
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <adwaita.h>
#include <glib/gstdio.h>

#include "gui-test-util.h"
#include "xrlab-plot.h"

#define W 800
#define H 500
#define N 400

static const GdkRGBA blue = { 0x1c / 255.0, 0x71 / 255.0, 0xd8 / 255.0, 1.0 };
static const GdkRGBA orange = { 0xe6 / 255.0, 0x61 / 255.0, 0x00 / 255.0, 1.0 };

/* x from 1 to 30 (log spaced); series 0 = 1e-5 x^-2, series 1 = 3 x^-1. */
static XrlabPlotData *
make_data (gboolean stale_second, gboolean gap_middle)
{
  double *buf = g_new (double, 3 * N);
  double *x = buf, *a = buf + N, *b = buf + 2 * N;
  XrlabPlotData *d = xrlab_plot_data_new ();

  for (int i = 0; i < N; i++)
    {
      x[i] = pow (30.0, (double) i / (N - 1));
      a[i] = 1e-5 / (x[i] * x[i]);
      b[i] = 3.0 / x[i];
      /* x in (3.3, 9): NaN in the first series */
      if (gap_middle && x[i] > 3.3 && x[i] < 9.0)
        a[i] = NAN;
    }
  xrlab_plot_data_take_buffer (d, buf, g_free);
  xrlab_plot_data_add_series (d, "A", &blue, x, a, N, FALSE);
  xrlab_plot_data_add_series (d, "B", &orange, x, b, N, stale_second);
  return d;
}

static XrlabPlot *
make_plot (void)
{
  XrlabPlot *plot = XRLAB_PLOT (xrlab_plot_new ());

  g_object_ref_sink (plot);
  xrlab_plot_set_follow_style (plot, FALSE);
  xrlab_plot_set_axes (plot, "Energy", "keV", "δ", NULL);
  xrlab_plot_set_x_log (plot, TRUE);
  xrlab_plot_set_y_log (plot, TRUE);
  return plot;
}

static cairo_surface_t *
render (XrlabPlot *plot, gboolean dark)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W, H);
  cairo_t *cr = cairo_create (s);
  g_autoptr(GError) error = NULL;

  g_assert_true (xrlab_plot_render (plot, cr, W, H, dark, &error));
  g_assert_no_error (error);
  cairo_destroy (cr);
  return s;
}

static void
test_driver (void)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (xrlab_plot_check_driver (&error));
  g_assert_no_error (error);
  /* Cached: the second call gives the same answer. */
  g_assert_true (xrlab_plot_check_driver (NULL));
}

static void
test_render_series_colors (void)
{
  g_autoptr(XrlabPlot) plot = make_plot ();
  g_autoptr(XrlabPlotData) data = make_data (FALSE, FALSE);
  cairo_surface_t *s;
  guint n_blue, n_orange, n_ink;

  xrlab_plot_set_data (plot, data);
  s = render (plot, FALSE);
  n_blue = xrlab_test_count_color (s, 0x1c71d8, 40, 0, W);
  n_orange = xrlab_test_count_color (s, 0xe66100, 40, 0, W);
  n_ink = xrlab_test_count_pixels (s, 0xffffffff, 30, 0, W);
  /* Each curve spans most of the width with a 2 px line. */
  g_assert_cmpuint (n_blue, >, W / 2);
  g_assert_cmpuint (n_orange, >, W / 2);
  /* Axes, labels and curves, but far from a filled image. */
  g_assert_cmpuint (n_ink, >, 4000);
  g_assert_cmpuint (n_ink, <, W * H / 4);
  cairo_surface_destroy (s);
}

static void
test_render_dark (void)
{
  g_autoptr(XrlabPlot) plot = make_plot ();
  g_autoptr(XrlabPlotData) data = make_data (FALSE, FALSE);
  cairo_surface_t *s;
  XrlabTestImage img;
  guint32 corner;

  xrlab_plot_set_data (plot, data);
  s = render (plot, TRUE);
  img = xrlab_test_image (s);
  corner = xrlab_test_pixel (&img, 0, 0);
  /* The corner is background: dark. */
  g_assert_cmpuint ((corner >> 16) & 0xff, <, 0x40);
  g_assert_cmpuint (corner & 0xff, <, 0x40);
  /* Light text and lines exist. */
  g_assert_cmpuint (xrlab_test_count_pixels (s, 0xff1e1e1e, 60, 0, W), >, 2000);
  cairo_surface_destroy (s);
}

static void
test_render_gap (void)
{
  g_autoptr(XrlabPlot) plot = make_plot ();
  g_autoptr(XrlabPlotData) with_gap = make_data (FALSE, TRUE);
  g_autoptr(XrlabPlotData) without = make_data (FALSE, FALSE);
  cairo_surface_t *s;
  guint left, mid, mid_without;

  /* log10(3.3)/log10(30) = 0.35 and log10(9)/log10(30) = 0.65 of the plot
   * width: the columns around the middle of the image are inside the gap. */
  xrlab_plot_set_data (plot, with_gap);
  s = render (plot, FALSE);
  left = xrlab_test_count_color (s, 0x1c71d8, 40, W / 5, W / 3);
  mid = xrlab_test_count_color (s, 0x1c71d8, 40, W * 48 / 100, W * 56 / 100);
  cairo_surface_destroy (s);

  xrlab_plot_set_data (plot, without);
  s = render (plot, FALSE);
  mid_without = xrlab_test_count_color (s, 0x1c71d8, 40, W * 48 / 100, W * 56 / 100);
  cairo_surface_destroy (s);

  g_assert_cmpuint (left, >, 20);
  g_assert_cmpuint (mid_without, >, 20);
  g_assert_cmpuint (mid, ==, 0);
}

static void
test_render_stale (void)
{
  g_autoptr(XrlabPlot) plot = make_plot ();
  g_autoptr(XrlabPlotData) fresh = make_data (FALSE, FALSE);
  g_autoptr(XrlabPlotData) stale = make_data (TRUE, FALSE);
  cairo_surface_t *s;
  guint solid, faded, faded_exact;

  xrlab_plot_set_data (plot, fresh);
  s = render (plot, FALSE);
  solid = xrlab_test_count_color (s, 0xe66100, 30, 0, W);
  cairo_surface_destroy (s);

  xrlab_plot_set_data (plot, stale);
  s = render (plot, FALSE);
  faded_exact = xrlab_test_count_color (s, 0xe66100, 30, 0, W);
  /* 55 % orange over white */
  faded = xrlab_test_count_color (s, 0xee9e66, 40, 0, W);
  cairo_surface_destroy (s);

  /* The stale curve is dashed and faded: almost no full-strength pixels,
   * fewer pixels overall, and faded ones exist. */
  g_assert_cmpuint (faded_exact, <, solid / 10);
  g_assert_cmpuint (faded, >, 50);
  g_assert_cmpuint (faded, <, solid);
}

static void
test_render_log_nonpositive (void)
{
  g_autoptr(XrlabPlot) plot = make_plot ();
  double *buf = g_new (double, 2 * N);
  XrlabPlotData *d = xrlab_plot_data_new ();
  cairo_surface_t *s;

  for (int i = 0; i < N; i++)
    {
      buf[i] = 1 + i;
      buf[N + i] = (i % 50 < 10) ? -1.0 : (i % 50 < 20 ? 0.0 : 1e-6 * (1 + i));
    }
  xrlab_plot_data_take_buffer (d, buf, g_free);
  xrlab_plot_data_add_series (d, "neg", &blue, buf, buf + N, N, FALSE);
  xrlab_plot_set_data (plot, d);
  xrlab_plot_data_unref (d);
  s = render (plot, FALSE);
  g_assert_cmpuint (xrlab_test_count_color (s, 0x1c71d8, 40, 0, W), >, 100);
  cairo_surface_destroy (s);
}

static void
test_render_nothing (void)
{
  g_autoptr(XrlabPlot) plot = make_plot ();
  double *buf = g_new (double, 2 * N);
  XrlabPlotData *d = xrlab_plot_data_new ();
  cairo_surface_t *s;

  for (int i = 0; i < N; i++)
    {
      buf[i] = 1 + i;
      buf[N + i] = 0.0;
    }
  xrlab_plot_data_take_buffer (d, buf, g_free);
  xrlab_plot_data_add_series (d, "zero", &blue, buf, buf + N, N, FALSE);
  xrlab_plot_set_data (plot, d);
  xrlab_plot_data_unref (d);
  /* Nothing but zeros on a log axis: a message instead of a chart
   * (negative values are drawn at their magnitude: test-plot-layout). */
  s = render (plot, FALSE);
  g_assert_cmpuint (xrlab_test_count_color (s, 0x1c71d8, 40, 0, W), ==, 0);
  g_assert_cmpuint (xrlab_test_count_pixels (s, 0xffffffff, 30, 0, W), >, 50);
  cairo_surface_destroy (s);

  /* No data at all, no message: a blank frame. */
  xrlab_plot_set_data (plot, NULL);
  s = render (plot, FALSE);
  g_assert_cmpuint (xrlab_test_count_pixels (s, 0xffffffff, 2, 0, W), ==, 0);
  cairo_surface_destroy (s);
}

static void
test_value_at (void)
{
  double x[] = { 1, 2, 4, 8 };
  double y[] = { 10, 20, NAN, 80 };
  XrlabPlotSeries s = { (char *) "s", { 0, 0, 0, 1 }, x, y, 4, FALSE, 1.0 };

  g_assert_cmpfloat (xrlab_plot_series_value_at (&s, 1, FALSE), ==, 10);
  g_assert_cmpfloat (xrlab_plot_series_value_at (&s, 2, FALSE), ==, 20);
  g_assert_cmpfloat_with_epsilon (xrlab_plot_series_value_at (&s, 1.5, FALSE), 15, 1e-12);
  /* In log x, 2^0.5 is half way from 1 to 2. */
  g_assert_cmpfloat_with_epsilon (xrlab_plot_series_value_at (&s, sqrt (2), TRUE), 15, 1e-12);
  /* Next to a gap and outside the range: NaN. */
  g_assert_true (isnan (xrlab_plot_series_value_at (&s, 3, FALSE)));
  g_assert_true (isnan (xrlab_plot_series_value_at (&s, 0.5, FALSE)));
  g_assert_true (isnan (xrlab_plot_series_value_at (&s, 9, FALSE)));
  g_assert_true (isnan (xrlab_plot_series_value_at (&s, NAN, FALSE)));

  /* Decreasing x (wavelengths) works the same way. */
  {
    double xd[] = { 8, 4, 2, 1 };
    double yd[] = { 80, 40, 20, 10 };
    XrlabPlotSeries sd = { (char *) "d", { 0, 0, 0, 1 }, xd, yd, 4, FALSE, 1.0 };
    g_assert_cmpfloat_with_epsilon (xrlab_plot_series_value_at (&sd, 3, FALSE), 30, 1e-12);
  }
}

static void
test_readout (void)
{
  g_autoptr(XrlabPlot) plot = make_plot ();
  g_autoptr(XrlabPlotData) data = make_data (FALSE, FALSE);
  g_autofree char *hidden = NULL;
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  double b;

  xrlab_plot_set_data (plot, data);
  hidden = xrlab_plot_get_readout (plot);
  g_assert_cmpstr (hidden, ==, "");

  xrlab_plot_set_crosshair (plot, 10.0);
  text = xrlab_plot_get_readout (plot);
  lines = g_strsplit (text, "\n", -1);
  g_assert_cmpstr (lines[0], ==, "10 keV");
  g_assert_true (g_str_has_prefix (lines[1], "A\t"));
  g_assert_true (g_str_has_prefix (lines[2], "B\t"));
  /* 3/x at 10, interpolated in log x between grid points: within 0.1 %. */
  b = g_ascii_strtod (strchr (lines[2], '\t') + 1, NULL);
  g_assert_cmpfloat_with_epsilon (b, 0.3, 3e-4);
}

static void
test_markers (void)
{
  g_autoptr(XrlabPlot) plot = make_plot ();
  g_autoptr(XrlabPlotData) data = make_data (FALSE, FALSE);
  XrlabPlotMarker m[] = { { 1.839, (char *) "Si K" }, { 11.919, (char *) "Au L3" }, { 100, (char *) "out" } };
  cairo_surface_t *with, *without;
  guint a, b;

  xrlab_plot_set_data (plot, data);
  without = render (plot, FALSE);
  xrlab_plot_set_markers (plot, m, G_N_ELEMENTS (m));
  g_assert_cmpuint (xrlab_plot_get_n_markers (plot), ==, 3);
  with = render (plot, FALSE);
  a = xrlab_test_count_pixels (without, 0xffffffff, 30, 0, W);
  b = xrlab_test_count_pixels (with, 0xffffffff, 30, 0, W);
  /* Two dashed lines across the plot and two labels. */
  g_assert_cmpuint (b, >, a + 200);
  cairo_surface_destroy (with);
  cairo_surface_destroy (without);
}

static void
check_png (const char *path, int width, int height)
{
  cairo_surface_t *s = cairo_image_surface_create_from_png (path);

  g_assert_cmpint (cairo_surface_status (s), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (s), ==, width);
  g_assert_cmpint (cairo_image_surface_get_height (s), ==, height);
  g_assert_cmpuint (xrlab_test_count_color (s, 0x1c71d8, 40, 0, width), >, (guint) width / 2);
  cairo_surface_destroy (s);
}

static void
test_export (void)
{
  g_autoptr(XrlabPlot) plot = make_plot ();
  g_autoptr(XrlabPlotData) data = make_data (FALSE, FALSE);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("xrlab-plot-XXXXXX", NULL);
  g_autofree char *png = g_build_filename (dir, "p.png", NULL);
  g_autofree char *svg = g_build_filename (dir, "p.svg", NULL);
  g_autofree char *pdf = g_build_filename (dir, "p.pdf", NULL);
  g_autofree char *contents = NULL;
  gsize len;

  xrlab_plot_set_data (plot, data);

  g_assert_true (xrlab_plot_export (plot, png, XRLAB_PLOT_FORMAT_PNG, 640, 400, 2.0, FALSE, &error));
  g_assert_no_error (error);
  check_png (png, 1280, 800);

  g_assert_true (xrlab_plot_export (plot, svg, XRLAB_PLOT_FORMAT_SVG, 640, 400, 1.0, FALSE, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (svg, &contents, &len, NULL));
  g_assert_nonnull (strstr (contents, "<svg"));
  g_assert_nonnull (strstr (contents, "width=\"640\""));
  g_clear_pointer (&contents, g_free);

  g_assert_true (xrlab_plot_export (plot, pdf, XRLAB_PLOT_FORMAT_PDF, 640, 400, 1.0, FALSE, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (pdf, &contents, &len, NULL));
  g_assert_true (len > 1000 && memcmp (contents, "%PDF", 4) == 0);

  /* Bad sizes are refused before anything is written. */
  g_assert_false (xrlab_plot_export (plot, png, XRLAB_PLOT_FORMAT_PNG, 10, 10, 1.0, FALSE, &error));
  g_assert_error (error, XRLAB_PLOT_ERROR, XRLAB_PLOT_ERROR_FAILED);
  g_clear_error (&error);
  check_png (png, 1280, 800);

  g_unlink (png);
  g_unlink (svg);
  g_unlink (pdf);
  g_rmdir (dir);
}

static void
test_export_failure_leaves_nothing (void)
{
  g_autoptr(XrlabPlot) plot = make_plot ();
  g_autoptr(XrlabPlotData) data = make_data (FALSE, FALSE);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("xrlab-plot-XXXXXX", NULL);
  g_autofree char *missing = g_build_filename (dir, "no-such-folder", "p.png", NULL);
  GDir *d;

  xrlab_plot_set_data (plot, data);
  g_assert_false (xrlab_plot_export (plot, missing, XRLAB_PLOT_FORMAT_PNG, 640, 400, 1.0, FALSE, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "no-such-folder"));

  /* A folder where the file would go: refused, nothing left behind. */
  g_clear_error (&error);
  g_assert_false (xrlab_plot_export (plot, dir, XRLAB_PLOT_FORMAT_PNG, 640, 400, 1.0, FALSE, &error));
  g_assert_nonnull (error);
  d = g_dir_open (dir, 0, NULL);
  g_assert_null (g_dir_read_name (d));
  g_dir_close (d);
  g_rmdir (dir);
}

static void
count_notify (GObject *object, GParamSpec *pspec, guint *n)
{
  (*n)++;
}

static void
test_properties (void)
{
  g_autoptr(XrlabPlot) plot = make_plot ();
  g_autoptr(XrlabPlotData) data = make_data (FALSE, FALSE);
  XrlabPlotMarker m[] = { { 11.919, (char *) "Au L3" } };
  cairo_surface_t *thin, *thick, *bare;
  guint n_width = 0, n_legend = 0, n_markers = 0;
  double width;
  gboolean legend, markers;

  xrlab_plot_set_data (plot, data);
  xrlab_plot_set_markers (plot, m, G_N_ELEMENTS (m));
  g_signal_connect (plot, "notify::line-width", G_CALLBACK (count_notify), &n_width);
  g_signal_connect (plot, "notify::show-legend", G_CALLBACK (count_notify), &n_legend);
  g_signal_connect (plot, "notify::show-markers", G_CALLBACK (count_notify), &n_markers);

  g_object_get (plot, "line-width", &width, "show-legend", &legend, "show-markers", &markers, NULL);
  g_assert_cmpfloat (width, ==, 2.0);
  g_assert_true (legend);
  g_assert_true (markers);
  thin = render (plot, FALSE);

  g_object_set (plot, "line-width", 5.0, NULL);
  g_assert_cmpfloat (xrlab_plot_get_line_width (plot), ==, 5.0);
  g_assert_cmpuint (n_width, ==, 1);
  /* The same value again: no notification. */
  xrlab_plot_set_line_width (plot, 5.0);
  g_assert_cmpuint (n_width, ==, 1);
  /* Clamped to 0.5 … 8. */
  xrlab_plot_set_line_width (plot, 20.0);
  g_assert_cmpfloat (xrlab_plot_get_line_width (plot), ==, 8.0);
  g_assert_cmpuint (n_width, ==, 2);
  xrlab_plot_set_line_width (plot, 5.0);
  thick = render (plot, FALSE);
  g_assert_cmpuint (xrlab_test_count_color (thick, 0x1c71d8, 40, 0, W), >,
                    xrlab_test_count_color (thin, 0x1c71d8, 40, 0, W) * 3 / 2);

  g_object_set (plot, "show-legend", FALSE, "show-markers", FALSE, NULL);
  g_assert_false (xrlab_plot_get_show_legend (plot));
  g_assert_false (xrlab_plot_get_show_markers (plot));
  g_assert_cmpuint (n_legend, ==, 1);
  g_assert_cmpuint (n_markers, ==, 1);
  xrlab_plot_set_line_width (plot, 2.0);
  bare = render (plot, FALSE);
  /* No legend text, no marker line or label. */
  g_assert_cmpuint (xrlab_test_count_pixels (bare, 0xffffffff, 30, 0, W), <,
                    xrlab_test_count_pixels (thin, 0xffffffff, 30, 0, W));
  cairo_surface_destroy (thin);
  cairo_surface_destroy (thick);
  cairo_surface_destroy (bare);
}

static void
test_settings_bind (void)
{
  g_autoptr(XrlabPlot) plot = make_plot ();
  g_autoptr(GSettings) settings = g_settings_new ("io.github.xrlab.Xrlab");

  g_settings_set_double (settings, "line-width", 3.5);
  g_settings_set_boolean (settings, "show-legend", FALSE);
  g_settings_bind (settings, "line-width", plot, "line-width", G_SETTINGS_BIND_GET);
  g_settings_bind (settings, "show-legend", plot, "show-legend", G_SETTINGS_BIND_GET);
  g_settings_bind (settings, "show-edges", plot, "show-markers", G_SETTINGS_BIND_GET);
  g_assert_cmpfloat (xrlab_plot_get_line_width (plot), ==, 3.5);
  g_assert_false (xrlab_plot_get_show_legend (plot));
  g_assert_true (xrlab_plot_get_show_markers (plot));

  g_settings_set_double (settings, "line-width", 1.0);
  g_settings_set_boolean (settings, "show-legend", TRUE);
  g_settings_set_boolean (settings, "show-edges", FALSE);
  g_assert_cmpfloat (xrlab_plot_get_line_width (plot), ==, 1.0);
  g_assert_true (xrlab_plot_get_show_legend (plot));
  g_assert_false (xrlab_plot_get_show_markers (plot));
  g_settings_reset (settings, "line-width");
  g_settings_reset (settings, "show-legend");
  g_settings_reset (settings, "show-edges");
}

static void
test_widget_draws (void)
{
  GtkWidget *window = gtk_window_new ();
  XrlabPlot *plot = XRLAB_PLOT (xrlab_plot_new ());
  g_autoptr(XrlabPlotData) data = make_data (FALSE, FALSE);
  guint before;

  gtk_window_set_default_size (GTK_WINDOW (window), 600, 400);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (plot));
  gtk_window_present (GTK_WINDOW (window));
  xrlab_plot_set_data (plot, data);
  before = xrlab_plot_get_render_count (plot);
  while (xrlab_plot_get_render_count (plot) == before)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpfloat (xrlab_plot_get_last_render_ms (plot), >, 0);
  g_assert_cmpfloat (xrlab_plot_get_data_to_frame_ms (plot), >=, xrlab_plot_get_last_render_ms (plot));

  /* Moving the crosshair does not re-render the chart. */
  before = xrlab_plot_get_render_count (plot);
  xrlab_plot_set_crosshair (plot, 5.0);
  xrlab_test_spin (0.2);
  g_assert_cmpuint (xrlab_plot_get_render_count (plot), ==, before);

  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  gtk_init ();
  adw_init ();

  g_test_add_func ("/plot/driver", test_driver);
  g_test_add_func ("/plot/render-series-colors", test_render_series_colors);
  g_test_add_func ("/plot/render-dark", test_render_dark);
  g_test_add_func ("/plot/render-gap", test_render_gap);
  g_test_add_func ("/plot/render-stale", test_render_stale);
  g_test_add_func ("/plot/render-log-nonpositive", test_render_log_nonpositive);
  g_test_add_func ("/plot/render-nothing", test_render_nothing);
  g_test_add_func ("/plot/value-at", test_value_at);
  g_test_add_func ("/plot/readout", test_readout);
  g_test_add_func ("/plot/markers", test_markers);
  g_test_add_func ("/plot/export", test_export);
  g_test_add_func ("/plot/export-failure", test_export_failure_leaves_nothing);
  g_test_add_func ("/plot/properties", test_properties);
  g_test_add_func ("/plot/settings-bind", test_settings_bind);
  g_test_add_func ("/plot/widget-draws", test_widget_draws);
  return g_test_run ();
}
