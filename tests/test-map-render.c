/* test-map-render.c -- maps drawn without a window: the colour map, the
 * cells where their values are, decreasing and log axes, the message when
 * there is nothing, files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include <glib.h>

#include "xrlab-map-render.h"
#include "test-common.h"

static guint32
pixel_at (cairo_surface_t *s, int x, int y)
{
  XrlabTestImage img = xrlab_test_image (s);

  return xrlab_test_pixel (&img, x, y);
}

static guint32
rgb_of (XrlabPlotColor c)
{
  return ((guint32) lround (c.red * 255) << 16) | ((guint32) lround (c.green * 255) << 8)
         | (guint32) lround (c.blue * 255);
}

/* viridis' ends and middle (matplotlib's table: #440154, #21918c,
 * #fde725), and a lightness that rises all the way. */
static void
test_colormap (void)
{
  double last = -1;

  g_assert_true (xrlab_test_rgb_close (rgb_of (xrlab_map_colormap (0.0)), 0x440154, 6));
  g_assert_true (xrlab_test_rgb_close (rgb_of (xrlab_map_colormap (0.5)), 0x21918c, 6));
  g_assert_true (xrlab_test_rgb_close (rgb_of (xrlab_map_colormap (1.0)), 0xfde725, 6));
  g_assert_true (xrlab_test_rgb_close (rgb_of (xrlab_map_colormap (-3.0)), rgb_of (xrlab_map_colormap (0.0)), 0));
  g_assert_true (xrlab_test_rgb_close (rgb_of (xrlab_map_colormap (NAN)), rgb_of (xrlab_map_colormap (0.0)), 0));
  for (int i = 0; i <= 100; i++)
    {
      XrlabPlotColor c = xrlab_map_colormap (i / 100.0);
      double l = 0.2126 * c.red + 0.7152 * c.green + 0.0722 * c.blue;
      g_assert_cmpfloat (l, >, last);
      last = l;
    }
}

/* A 4 × 3 map with a value per cell: the colour at the centre of each
 * cell is its value's, and xrlab_map_value_at() finds it. */
static void
test_cells (void)
{
  double x[4] = { 0, 1, 2, 3 }, y[3] = { 10, 20, 30 };
  double v[12];
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 640, 480);
  cairo_t *cr = cairo_create (s);
  XrlabMapScene scene;
  XrlabPlotFrame f;

  for (int i = 0; i < 12; i++)
    v[i] = i;
  xrlab_map_scene_init (&scene);
  scene.values = v;
  scene.x = x;
  scene.n_x = 4;
  scene.y = y;
  scene.n_y = 3;
  scene.x_axis = (XrlabPlotAxisSpec) { "Angle", "mrad", FALSE };
  scene.y_axis = (XrlabPlotAxisSpec) { "Energy", "keV", FALSE };
  scene.value_name = "R";
  g_assert_true (xrlab_map_render (&scene, cr, 640, 480, &f));
  g_assert_true (f.valid);
  g_assert_cmpfloat (f.wx0, ==, -0.5);
  g_assert_cmpfloat (f.wx1, ==, 3.5);
  g_assert_cmpfloat (f.wy0, ==, 5);
  g_assert_cmpfloat (f.wy1, ==, 35);
  for (int iy = 0; iy < 3; iy++)
    for (int ix = 0; ix < 4; ix++)
      {
        double px = f.px0 + (ix + 0.5) / 4 * (f.px1 - f.px0);
        double py = f.py1 - (iy + 0.5) / 3 * (f.py1 - f.py0);
        guint32 want = rgb_of (xrlab_map_colormap ((iy * 4 + ix) / 11.0));
        g_assert_true (xrlab_test_rgb_close (pixel_at (s, (int) px, (int) py), want, 2));
        g_assert_cmpfloat (xrlab_map_value_at (&scene, x[ix], y[iy]), ==, iy * 4 + ix);
      }
  g_assert_true (isnan (xrlab_map_value_at (&scene, 5, 20)));

  /* Decreasing x: the image is mirrored, values stay at their points. */
  {
    double xr[4] = { 3, 2, 1, 0 };
    scene.x = xr;
    g_assert_true (xrlab_map_render (&scene, cr, 640, 480, &f));
    {
      double px = f.px0 + 0.5 / 4 * (f.px1 - f.px0);   /* x = 0: the last column */
      double py = f.py1 - 0.5 / 3 * (f.py1 - f.py0);
      g_assert_true (xrlab_test_rgb_close (pixel_at (s, (int) px, (int) py), rgb_of (xrlab_map_colormap (3 / 11.0)), 2));
    }
    scene.x = x;
  }

  /* Cells that are not finite: the missing colour (the palette's grid),
   * and the range of the others. */
  v[5] = NAN;
  v[6] = INFINITY;
  v[0] = -INFINITY;
  g_assert_true (xrlab_map_render (&scene, cr, 640, 480, &f));
  {
    guint32 none = rgb_of (xrlab_plot_palette_get (FALSE)->grid);
    double px1 = f.px0 + 1.5 / 4 * (f.px1 - f.px0), px2 = f.px0 + 2.5 / 4 * (f.px1 - f.px0);
    double py = f.py1 - 1.5 / 3 * (f.py1 - f.py0), py0 = f.py1 - 0.5 / 3 * (f.py1 - f.py0);
    double lo, hi;

    g_assert_true (xrlab_test_rgb_close (pixel_at (s, (int) px1, (int) py), none, 2));
    g_assert_true (xrlab_test_rgb_close (pixel_at (s, (int) px2, (int) py), none, 2));
    /* v[1] = 1 is the lowest finite value now */
    g_assert_true (xrlab_test_rgb_close (pixel_at (s, (int) px1, (int) py0), rgb_of (xrlab_map_colormap (0.0)), 2));
    g_assert_true (xrlab_map_value_range (&scene, &lo, &hi));
    g_assert_cmpfloat (lo, ==, 1);
    g_assert_cmpfloat (hi, ==, 11);
  }

  /* Log colours of a range wider than ten decades: the lowest clamp. */
  for (int i = 0; i < 12; i++)
    v[i] = pow (10.0, -2.0 * i);
  scene.value_log = TRUE;
  g_assert_true (xrlab_map_render (&scene, cr, 640, 480, &f));
  {
    double px = f.px0 + 0.5 / 4 * (f.px1 - f.px0);
    double py0 = f.py1 - 0.5 / 3 * (f.py1 - f.py0), py2 = f.py1 - 2.5 / 3 * (f.py1 - f.py0);
    g_assert_true (xrlab_test_rgb_close (pixel_at (s, (int) px, (int) py0), rgb_of (xrlab_map_colormap (1.0)), 2));
    g_assert_true (xrlab_test_rgb_close (pixel_at (s, (int) px, (int) py2), rgb_of (xrlab_map_colormap (0.0)), 2));
  }
  cairo_destroy (cr);
  cairo_surface_destroy (s);
}

/* Nothing to draw: the background and the message, in either style. */
static void
test_message (void)
{
  for (int dark = 0; dark < 2; dark++)
    {
      cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 400, 300);
      cairo_t *cr = cairo_create (s);
      const XrlabPlotPalette *pal = xrlab_plot_palette_get (dark);
      XrlabMapScene scene;
      XrlabPlotFrame f;
      guint n_text = 0;

      xrlab_map_scene_init (&scene);
      scene.message = "No map";
      scene.dark = dark;
      g_assert_true (xrlab_map_render (&scene, cr, 400, 300, &f));
      g_assert_false (f.valid);
      g_assert_true (xrlab_test_rgb_close (pixel_at (s, 5, 5), rgb_of (pal->bg), 1));
      for (int x = 150; x < 250; x++)
        n_text += !xrlab_test_rgb_close (pixel_at (s, x, 150), rgb_of (pal->bg), 8);
      g_assert_cmpuint (n_text, >, 0);
      cairo_destroy (cr);
      cairo_surface_destroy (s);
    }
}

static void
test_write (void)
{
  double x[2] = { 1, 10 }, y[3] = { 5, 10, 20 }, v[6] = { 1, 0.5, 0.1, NAN, 1e-3, 1e-4 };
  XrlabMapScene scene;
  XrlabPlotFormat formats[] = { XRLAB_PLOT_FORMAT_PNG, XRLAB_PLOT_FORMAT_SVG, XRLAB_PLOT_FORMAT_PDF };
  const char *magic[] = { "\x89PNG", "<?xml", "%PDF" };

  xrlab_map_scene_init (&scene);
  scene.values = v;
  scene.x = x;
  scene.n_x = 2;
  scene.y = y;
  scene.n_y = 3;
  scene.x_axis.log = TRUE;
  scene.y_axis.log = TRUE;
  scene.value_log = TRUE;
  scene.title = "Rh <1>";
  for (gsize k = 0; k < G_N_ELEMENTS (formats); k++)
    {
      g_autoptr(GByteArray) bytes = g_byte_array_new ();
      g_autoptr(GError) error = NULL;

      g_assert_true (xrlab_map_write (&scene, formats[k], 400, 300, 1.0, xrlab_test_append_bytes, bytes, "m", &error));
      g_assert_no_error (error);
      g_assert_cmpuint (bytes->len, >, 100);
      g_assert_cmpmem (bytes->data, strlen (magic[k]), magic[k], strlen (magic[k]));
    }
  {
    g_autoptr(GByteArray) bytes = g_byte_array_new ();
    g_autoptr(GError) error = NULL;
    g_assert_false (xrlab_map_write (&scene, XRLAB_PLOT_FORMAT_PNG, 10, 10, 1.0, xrlab_test_append_bytes, bytes, "m", &error));
    g_assert_error (error, XRLAB_PLOT_ERROR, XRLAB_PLOT_ERROR_FAILED);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/map-render/colormap", test_colormap);
  g_test_add_func ("/map-render/cells", test_cells);
  g_test_add_func ("/map-render/message", test_message);
  g_test_add_func ("/map-render/write", test_write);
  return g_test_run ();
}
