/* test-plot-render.c -- the plot renderer without GTK and without a display:
 * a scene drawn into a cairo image surface, its pixels checked; documents
 * written to memory
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "xrlab-plot-render.h"
#include "xrlab-plot-render-private.h"
#include "test-common.h"

#define W 800
#define H 500
#define N 400

/* Colours as 0xRRGGBB. */
#define BLUE   0x1c71d8
#define ORANGE 0xe66100

static double xs[N], ya[N], yb[N];

static void
make_arrays (void)
{
  /* x from 1 to 30 (log spaced); a = 1e-5 x^-2, b = 3 x^-1 */
  for (int i = 0; i < N; i++)
    {
      xs[i] = pow (30.0, (double) i / (N - 1));
      ya[i] = 1e-5 / (xs[i] * xs[i]);
      yb[i] = 3.0 / xs[i];
    }
}

static XrlabPlotColor
rgb (guint32 c)
{
  return (XrlabPlotColor) { ((c >> 16) & 0xff) / 255.0, ((c >> 8) & 0xff) / 255.0, (c & 0xff) / 255.0, 1.0 };
}

static XrlabPlotCurve curves[2];
static XrlabPlotMarker markers[] = { { 1.839, (char *) "Si K" }, { 11.919, (char *) "Au L3" } };

/* Two curves on log axes, two markers, the legend on. */
static void
make_scene (XrlabPlotScene *scene)
{
  curves[0] = (XrlabPlotCurve) { "A", rgb (BLUE), xs, ya, N, 1.0, FALSE };
  curves[1] = (XrlabPlotCurve) { "B", rgb (ORANGE), xs, yb, N, 1.0, FALSE };
  xrlab_plot_scene_init (scene);
  scene->curves = curves;
  scene->n_curves = G_N_ELEMENTS (curves);
  scene->markers = markers;
  scene->n_markers = G_N_ELEMENTS (markers);
  scene->x = (XrlabPlotAxisSpec) { "Photon energy", "keV", TRUE };
  scene->y = (XrlabPlotAxisSpec) { "δ", NULL, TRUE };
}

static cairo_surface_t *
draw (XrlabPlotRenderer *r, const XrlabPlotScene *scene, XrlabPlotFrame *frame)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W, H);
  cairo_t *cr = cairo_create (s);
  g_autoptr(GError) error = NULL;

  g_assert_true (xrlab_plot_renderer_draw (r, scene, cr, W, H, frame, &error));
  g_assert_no_error (error);
  cairo_destroy (cr);
  cairo_surface_flush (s);
  return s;
}

/* Pixels of @s in the rectangle [x0, x1) x [y0, y1) whose channels are all
 * within @tolerance of @color (0xRRGGBB). */
static guint
count_near (cairo_surface_t *s, guint32 color, int tolerance, double x0, double y0, double x1, double y1)
{
  XrlabTestImage img = xrlab_test_image (s);

  return xrlab_test_count_near (&img, color, tolerance, (int) floor (x0), (int) floor (y0),
                                (int) ceil (x1), (int) ceil (y1));
}

/* Pixels in the rectangle that are not the background @bg. */
static guint
count_ink (cairo_surface_t *s, guint32 bg, double x0, double y0, double x1, double y1)
{
  XrlabTestImage img = xrlab_test_image (s);

  return xrlab_test_count_unlike (&img, bg, 24, (int) floor (x0), (int) floor (y0),
                                  (int) ceil (x1), (int) ceil (y1));
}

static void
test_driver (void)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (xrlab_plot_check_driver (&error));
  g_assert_no_error (error);
}

static void
test_axes_and_curves (void)
{
  g_autoptr(XrlabPlotRenderer) r = xrlab_plot_renderer_new ();
  XrlabPlotScene scene;
  XrlabPlotFrame f;
  cairo_surface_t *s;
  guint left_edge, bottom_edge;

  make_scene (&scene);
  s = draw (r, &scene, &f);

  /* The plot area sits inside the image with room for labels. */
  g_assert_true (f.valid);
  g_assert_cmpfloat (f.px0, >, 40);
  g_assert_cmpfloat (f.px1, <, W);
  g_assert_cmpfloat (f.py0, >, 0);
  g_assert_cmpfloat (f.py1, <, H - 30);
  g_assert_true (f.x_log && f.y_log);
  g_assert_cmpfloat_with_epsilon (f.wx0, 0, 1e-12);               /* log10 (1) */
  g_assert_cmpfloat_with_epsilon (f.wx1, log10 (30), 1e-12);

  /* The axes: the box's left and bottom sides in the frame colour (the
   * light palette's #595a5c). */
  left_edge = count_near (s, 0x595a5c, 60, f.px0 - 1, f.py0, f.px0 + 1, f.py1);
  bottom_edge = count_near (s, 0x595a5c, 60, f.px0, f.py1 - 1, f.px1, f.py1 + 1);
  g_assert_cmpuint (left_edge, >, (f.py1 - f.py0) * 0.8);
  g_assert_cmpuint (bottom_edge, >, (f.px1 - f.px0) * 0.8);
  /* Tick labels and the axis title below and left of the plot area. */
  g_assert_cmpuint (count_ink (s, 0xffffff, f.px0, f.py1 + 3, f.px1, H), >, 300);
  g_assert_cmpuint (count_ink (s, 0xffffff, 0, f.py0, f.px0 - 3, f.py1), >, 300);

  /* Both curves, in their colours, across most of the plot width. */
  g_assert_cmpuint (count_near (s, BLUE, 40, f.px0, f.py0, f.px1, f.py1), >, W / 2);
  g_assert_cmpuint (count_near (s, ORANGE, 40, f.px0, f.py0, f.px1, f.py1), >, W / 2);
  /* Nothing in those colours outside the plot area but the legend. */
  g_assert_cmpuint (count_near (s, BLUE, 40, 0, f.py1 + 2, W, H), ==, 0);

  /* Frame geometry round trip. */
  g_assert_cmpfloat_with_epsilon (xrlab_plot_frame_x_to_px (&f, 1.0), f.px0, 1e-9);
  g_assert_cmpfloat_with_epsilon (xrlab_plot_frame_px_to_x (&f, xrlab_plot_frame_x_to_px (&f, 7.5)), 7.5, 1e-9);
  g_assert_true (isnan (xrlab_plot_frame_y_to_py (&f, -1.0)));
  g_assert_cmpfloat (xrlab_plot_frame_y_to_py (&f, 1e-3), <, xrlab_plot_frame_y_to_py (&f, 1e-6));
  cairo_surface_destroy (s);
}

static void
test_legend (void)
{
  g_autoptr(XrlabPlotRenderer) r = xrlab_plot_renderer_new ();
  XrlabPlotScene scene;
  XrlabPlotFrame with, without;
  cairo_surface_t *s, *t;
  guint text_with, text_without;

  make_scene (&scene);
  s = draw (r, &scene, &with);
  /* A box in a corner of the plot area, with a line sample in each curve's
   * colour and dark text. */
  g_assert_cmpfloat (with.lx1 - with.lx0, >, 30);
  g_assert_cmpfloat (with.ly1 - with.ly0, >, 20);
  g_assert_cmpfloat (with.lx0, >=, with.px0);
  g_assert_cmpfloat (with.lx1, <=, with.px1);
  g_assert_cmpfloat (with.ly0, >=, with.py0);
  g_assert_cmpfloat (with.ly1, <=, with.py1);
  g_assert_cmpuint (count_near (s, BLUE, 40, with.lx0, with.ly0, with.lx1, with.ly1), >, 10);
  g_assert_cmpuint (count_near (s, ORANGE, 40, with.lx0, with.ly0, with.lx1, with.ly1), >, 10);
  text_with = count_near (s, 0x232323, 90, with.lx0, with.ly0, with.lx1, with.ly1);
  g_assert_cmpuint (text_with, >, 10);

  scene.show_legend = FALSE;
  t = draw (r, &scene, &without);
  g_assert_cmpfloat (without.lx1, ==, without.lx0);
  text_without = count_near (t, 0x232323, 90, with.lx0, with.ly0, with.lx1, with.ly1);
  g_assert_cmpuint (text_without, <, text_with);
  cairo_surface_destroy (s);
  cairo_surface_destroy (t);
}

static void
test_markers (void)
{
  g_autoptr(XrlabPlotRenderer) r = xrlab_plot_renderer_new ();
  XrlabPlotScene scene;
  XrlabPlotFrame f, g;
  cairo_surface_t *with, *without;
  double px;

  make_scene (&scene);
  with = draw (r, &scene, &f);
  scene.show_markers = FALSE;
  without = draw (r, &scene, &g);

  /* The labels need room above the plot area. */
  g_assert_cmpfloat (f.py0, >, g.py0);
  /* A dashed line at Au L3 (11.919 keV): ink in its column where the
   * plot without markers has only the grid. */
  px = xrlab_plot_frame_x_to_px (&f, 11.919);
  g_assert_cmpuint (count_ink (with, 0xffffff, px - 1, f.py0, px + 1, f.py1), >,
                    count_ink (without, 0xffffff, px - 1, f.py0, px + 1, f.py1) + 50);
  /* Its label above the plot area. */
  g_assert_cmpuint (count_ink (with, 0xffffff, px - 20, 0, px + 20, f.py0 - 2), >, 20);
  cairo_surface_destroy (with);
  cairo_surface_destroy (without);
}

static void
test_dark (void)
{
  g_autoptr(XrlabPlotRenderer) r = xrlab_plot_renderer_new ();
  XrlabPlotScene scene;
  XrlabPlotFrame f;
  cairo_surface_t *s;

  make_scene (&scene);
  scene.dark = TRUE;
  s = draw (r, &scene, &f);
  /* The dark palette's background (#1e1e1e), light text and lines. */
  g_assert_cmpuint (count_near (s, 0x1e1e1e, 2, 0, 0, 10, 10), ==, 100);
  g_assert_cmpuint (count_near (s, 0xececec, 80, 0, 0, W, H), >, 1000);
  cairo_surface_destroy (s);
}

static void
test_stale (void)
{
  g_autoptr(XrlabPlotRenderer) r = xrlab_plot_renderer_new ();
  XrlabPlotScene scene;
  XrlabPlotFrame f;
  cairo_surface_t *s;
  guint solid;

  make_scene (&scene);
  s = draw (r, &scene, &f);
  solid = count_near (s, ORANGE, 30, f.px0, f.py0, f.px1, f.py1);
  cairo_surface_destroy (s);

  curves[1].stale = TRUE;
  s = draw (r, &scene, &f);
  /* Dashed and faded (55 % orange over white: #ee9e66). */
  g_assert_cmpuint (count_near (s, ORANGE, 30, f.px0, f.py0, f.px1, f.py1), <, solid / 10);
  g_assert_cmpuint (count_near (s, 0xee9e66, 40, f.px0, f.py0, f.px1, f.py1), >, 50);
  cairo_surface_destroy (s);
}

static void
test_nothing_to_draw (void)
{
  g_autoptr(XrlabPlotRenderer) r = xrlab_plot_renderer_new ();
  double neg[N];
  XrlabPlotCurve c = { "neg", rgb (BLUE), xs, neg, N, 1.0, FALSE };
  XrlabPlotScene scene;
  XrlabPlotFrame f;
  cairo_surface_t *s;

  for (int i = 0; i < N; i++)
    neg[i] = 0;
  xrlab_plot_scene_init (&scene);
  scene.curves = &c;
  scene.n_curves = 1;
  scene.y.log = TRUE;
  /* Only zeros on a log axis: a message, no curve, no frame. */
  s = draw (r, &scene, &f);
  g_assert_false (f.valid);
  g_assert_cmpuint (count_near (s, BLUE, 40, 0, 0, W, H), ==, 0);
  g_assert_cmpuint (count_ink (s, 0xffffff, 0, 0, W, H), >, 50);
  cairo_surface_destroy (s);

  /* Only negative values: their magnitudes, dotted, and a note saying so
   * (test_log_negative). */
  for (int i = 0; i < N; i++)
    neg[i] = -1;
  s = draw (r, &scene, &f);
  g_assert_true (f.valid);
  g_assert_true (f.y_abs);
  cairo_surface_destroy (s);

  /* No curves: the scene's message, or a blank frame without one. */
  scene.n_curves = 0;
  scene.message = "Add a material";
  s = draw (r, &scene, &f);
  g_assert_cmpuint (count_ink (s, 0xffffff, 0, 0, W, H), >, 50);
  cairo_surface_destroy (s);
  scene.message = NULL;
  s = draw (r, &scene, &f);
  g_assert_cmpuint (count_ink (s, 0xffffff, 0, 0, W, H), ==, 0);
  cairo_surface_destroy (s);
}

static void
test_linear_and_sizes (void)
{
  g_autoptr(XrlabPlotRenderer) r = xrlab_plot_renderer_new ();
  XrlabPlotScene scene;
  XrlabPlotFrame f;
  int sizes[][2] = { { 300, 200 }, { W, H }, { 100, 80 }, { W, H } };

  make_scene (&scene);
  scene.x.log = scene.y.log = FALSE;
  /* One stream, reopened at each size; too small a size gives a blank
   * background and no frame. */
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      int w = sizes[i][0], h = sizes[i][1];
      cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
      cairo_t *cr = cairo_create (s);
      g_assert_true (xrlab_plot_renderer_draw (r, &scene, cr, w, h, &f, NULL));
      cairo_destroy (cr);
      g_assert_cmpint (f.valid, ==, w >= 120);
      if (f.valid)
        {
          g_assert_cmpfloat (f.px1, <, w);
          g_assert_cmpfloat (f.py1, <, h);
          g_assert_cmpuint (count_near (s, BLUE, 40, f.px0, f.py0, f.px1, f.py1), >, (guint) w / 4);
        }
      else
        g_assert_cmpuint (count_near (s, 0xffffff, 0, 0, 0, w, h), ==, (guint) (w * h));
      cairo_surface_destroy (s);
    }
}

static cairo_status_t
fail_write (void *closure, const unsigned char *data, unsigned int length)
{
  return CAIRO_STATUS_WRITE_ERROR;
}

static void
test_write (void)
{
  g_autoptr(XrlabPlotRenderer) r = xrlab_plot_renderer_new ();
  g_autoptr(GByteArray) png = g_byte_array_new ();
  g_autoptr(GByteArray) svg = g_byte_array_new ();
  g_autoptr(GByteArray) pdf = g_byte_array_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *svg_text = NULL;
  XrlabPlotScene scene;

  make_scene (&scene);

  g_assert_true (xrlab_plot_renderer_write (r, &scene, XRLAB_PLOT_FORMAT_PNG, 640, 400, 2.0,
                                            xrlab_test_append_bytes, png, "p.png", &error));
  g_assert_no_error (error);
  g_assert_cmpuint (png->len, >, 24);
  g_assert_cmpint (memcmp (png->data, "\x89PNG", 4), ==, 0);
  /* IHDR: width and height (big-endian) at bytes 16 and 20: 2 × 640 x 400. */
  g_assert_cmpuint (GUINT32_FROM_BE (*(guint32 *) (void *) (png->data + 16)), ==, 1280);
  g_assert_cmpuint (GUINT32_FROM_BE (*(guint32 *) (void *) (png->data + 20)), ==, 800);

  g_assert_true (xrlab_plot_renderer_write (r, &scene, XRLAB_PLOT_FORMAT_SVG, 640, 400, 1.0,
                                            xrlab_test_append_bytes, svg, "p.svg", &error));
  g_assert_no_error (error);
  svg_text = g_strndup ((const char *) svg->data, svg->len);
  g_assert_nonnull (strstr (svg_text, "<svg"));
  g_assert_nonnull (strstr (svg_text, "width=\"640\""));

  g_assert_true (xrlab_plot_renderer_write (r, &scene, XRLAB_PLOT_FORMAT_PDF, 640, 400, 1.0,
                                            xrlab_test_append_bytes, pdf, "p.pdf", &error));
  g_assert_no_error (error);
  g_assert_cmpuint (pdf->len, >, 1000);
  g_assert_cmpint (memcmp (pdf->data, "%PDF", 4), ==, 0);

  /* Sizes and scales out of range, and a failing writer, name the problem. */
  g_assert_false (xrlab_plot_output_check (XRLAB_PLOT_FORMAT_SVG, 10, 10, 1.0, &error));
  g_assert_error (error, XRLAB_PLOT_ERROR, XRLAB_PLOT_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "10 × 10"));
  g_clear_error (&error);
  g_assert_false (xrlab_plot_output_check (XRLAB_PLOT_FORMAT_PNG, 640, 400, 20.0, &error));
  g_assert_error (error, XRLAB_PLOT_ERROR, XRLAB_PLOT_ERROR_FAILED);
  g_clear_error (&error);
  g_assert_true (xrlab_plot_output_check (XRLAB_PLOT_FORMAT_SVG, 640, 400, 20.0, NULL));
  g_assert_false (xrlab_plot_renderer_write (r, &scene, XRLAB_PLOT_FORMAT_PNG, 640, 400, 1.0,
                                             fail_write, NULL, "out.png", &error));
  g_assert_error (error, XRLAB_PLOT_ERROR, XRLAB_PLOT_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "out.png"));
}

static gpointer
draw_in_thread (gpointer data)
{
  XrlabPlotRenderer *r = data;
  XrlabPlotScene scene;
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W, H);
  cairo_t *cr = cairo_create (s);
  gboolean ok;

  make_scene (&scene);
  ok = xrlab_plot_renderer_draw (r, &scene, cr, W, H, NULL, NULL);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
  return GINT_TO_POINTER (ok);
}

static void
test_one_thread (void)
{
  if (g_test_subprocess ())
    {
      g_autoptr(XrlabPlotRenderer) r = xrlab_plot_renderer_new ();
      XrlabPlotScene scene;
      cairo_surface_t *s;
      XrlabPlotFrame f;

      make_scene (&scene);
      s = draw (r, &scene, &f);
      cairo_surface_destroy (s);
      /* PLplot belongs to this thread now: another one is refused. */
      g_thread_join (g_thread_new ("second", draw_in_thread, r));
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_failed ();
  g_test_trap_assert_stderr ("*second thread*");
}


/* A reversed x axis: high values on the left, the ticks' labels falling
 * from left to right, the frame's window reversed with them. */
static void
test_reversed (void)
{
  g_autoptr(XrlabPlotRenderer) r = xrlab_plot_renderer_new ();
  static double lin[N];
  XrlabPlotScene scene;
  XrlabPlotFrame f;
  const XrlabPlotTextBox *texts;
  guint n, n_ticks = 0;
  double last_x = INFINITY, last_v = -INFINITY, lo, hi;
  cairo_surface_t *s;
  guint left, right;

  if (!xrlab_plot_check_driver (NULL))
    {
      g_test_skip ("PLplot's extcairo driver is missing");
      return;
    }
  /* a line rising with x: on a reversed axis it falls to the right */
  for (int i = 0; i < N; i++)
    lin[i] = xs[i];
  make_scene (&scene);
  scene.n_curves = 1;
  curves[0].y = lin;
  scene.n_markers = 0;
  scene.x.log = scene.y.log = FALSE;
  scene.x.reversed = TRUE;
  scene.show_legend = FALSE;
  s = draw (r, &scene, &f);
  g_assert_true (f.valid);
  g_assert_cmpfloat (f.wx0, >, f.wx1);
  g_assert_cmpfloat_with_epsilon (xrlab_plot_frame_px_to_x (&f, xrlab_plot_frame_x_to_px (&f, 12.0)), 12.0, 1e-9);
  g_assert_cmpfloat (xrlab_plot_frame_x_to_px (&f, 25.0), <, xrlab_plot_frame_x_to_px (&f, 5.0));
  xrlab_plot_frame_get_limits (&f, &lo, &hi, NULL, NULL);
  g_assert_cmpfloat (lo, <, hi);
  n = xrlab_plot_renderer_get_texts (r, &texts);
  for (guint i = 0; i < n; i++)
    if (texts[i].role == XRLAB_PLOT_TEXT_TICK_X)
      {
        double v = g_ascii_strtod (texts[i].text, NULL);
        /* written by value: each further left */
        g_assert_cmpfloat (v, >, last_v);
        g_assert_cmpfloat (texts[i].x0, <, last_x);
        last_x = texts[i].x0, last_v = v;
        n_ticks++;
      }
  g_assert_cmpuint (n_ticks, >=, 3);
  /* The curve's high end (top) is at the left: blue in the top left
   * quarter of the plot area, none in the top right one. */
  left = count_near (s, BLUE, 40, f.px0, f.py0, (f.px0 + f.px1) / 2, (f.py0 + f.py1) / 2);
  right = count_near (s, BLUE, 40, (f.px0 + f.px1) / 2 + 1, f.py0, f.px1 - 2, (f.py0 + f.py1) / 2 - 2);
  g_assert_cmpuint (left, >, 100);
  g_assert_cmpuint (right, <, 10);
  cairo_surface_destroy (s);
}

/* ---- layers ------------------------------------------------------------------------ */

static cairo_surface_t *
draw_layered (XrlabPlotRenderer *r, const XrlabPlotScene *scene, gboolean keep, XrlabPlotFrame *frame)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W, H);
  cairo_t *cr = cairo_create (s);
  g_autoptr(GError) error = NULL;

  g_assert_true (xrlab_plot_renderer_draw_layered (r, scene, keep, cr, W, H, frame, &error));
  g_assert_no_error (error);
  cairo_destroy (cr);
  cairo_surface_flush (s);
  return s;
}

/* Pixels where @a and @b differ by more than @tolerance in a channel. */
static guint
count_different (cairo_surface_t *a, cairo_surface_t *b, int tolerance)
{
  XrlabTestImage ia = xrlab_test_image (a), ib = xrlab_test_image (b);
  guint n = 0;

  for (int y = 0; y < ia.height; y++)
    for (int x = 0; x < ia.width; x++)
      if (!xrlab_test_rgb_close (xrlab_test_pixel (&ia, x, y), xrlab_test_pixel (&ib, x, y), tolerance))
        n++;
  return n;
}

/* A static curve (the data) and a live one (the model): the layered frame
 * looks as the full one; new live values inside the y range are drawn
 * between the kept layers, values beyond it draw everything again. */
static void
test_layers (void)
{
  g_autoptr(XrlabPlotRenderer) r = xrlab_plot_renderer_new ();
  static double live[N];
  XrlabPlotScene scene;
  XrlabPlotFrame f1, f2, f3;
  cairo_surface_t *full, *layered, *moved;
  guint orange;

  if (!xrlab_plot_check_driver (NULL))
    {
      g_test_skip ("PLplot's extcairo driver is missing");
      return;
    }
  for (int i = 0; i < N; i++)
    live[i] = 2.5 / xs[i];
  make_scene (&scene);
  curves[0].y = yb;
  curves[1].y = live;
  curves[1].live = TRUE;
  scene.x.log = scene.y.log = FALSE;
  scene.n_markers = 0;

  full = draw (r, &scene, NULL);
  layered = draw_layered (r, &scene, TRUE, &f1);
  /* keep_layers after a plain draw: drawn again all the same */
  g_assert_false (xrlab_plot_renderer_get_layers_kept (r));
  g_assert_true (f1.valid);
  g_assert_cmpuint (count_different (full, layered, 48), <, W * H / 500);
  orange = count_near (layered, ORANGE, 40, f1.px0, f1.py0, f1.px1, f1.py1);
  g_assert_cmpuint (orange, >, 300);

  /* The model a little lower: the layers kept, the curve moved. */
  for (int i = 0; i < N; i++)
    live[i] = 2.4 / xs[i];
  moved = draw_layered (r, &scene, TRUE, &f2);
  g_assert_true (xrlab_plot_renderer_get_layers_kept (r));
  g_assert_cmpfloat (f2.wy0, ==, f1.wy0);
  g_assert_cmpfloat (f2.wy1, ==, f1.wy1);
  g_assert_cmpuint (count_different (layered, moved, 48), >, 100);
  g_assert_cmpuint (count_near (moved, ORANGE, 40, f2.px0, f2.py0, f2.px1, f2.py1), >, orange / 2);
  cairo_surface_destroy (moved);

  /* Without the caller's word: drawn again. */
  cairo_surface_destroy (draw_layered (r, &scene, FALSE, NULL));
  g_assert_false (xrlab_plot_renderer_get_layers_kept (r));

  /* Beyond the y range drawn: drawn again, on a wider range. */
  for (int i = 0; i < N; i++)
    live[i] = 9.0 / xs[i];
  cairo_surface_destroy (draw_layered (r, &scene, TRUE, &f3));
  g_assert_false (xrlab_plot_renderer_get_layers_kept (r));
  g_assert_cmpfloat (f3.wy1, >, f1.wy1);

  /* Below it, as a residual changes sign: drawn again over both ranges;
   * back up: kept. */
  for (int i = 0; i < N; i++)
    live[i] = -3.0 / xs[i];
  cairo_surface_destroy (draw_layered (r, &scene, TRUE, &f2));
  g_assert_false (xrlab_plot_renderer_get_layers_kept (r));
  g_assert_cmpfloat (f2.wy1, ==, f3.wy1);
  g_assert_cmpfloat (f2.wy0, <, -2.9);
  for (int i = 0; i < N; i++)
    live[i] = 9.0 / xs[i];
  cairo_surface_destroy (draw_layered (r, &scene, TRUE, NULL));
  g_assert_true (xrlab_plot_renderer_get_layers_kept (r));
  f3 = f2;

  /* Down to 8: the wider axes kept (a value dragged up and down does
   * not make them jump), to 2 (under a third of them): drawn again. */
  for (int i = 0; i < N; i++)
    live[i] = 8.0 / xs[i];
  cairo_surface_destroy (draw_layered (r, &scene, TRUE, &f2));
  g_assert_true (xrlab_plot_renderer_get_layers_kept (r));
  g_assert_cmpfloat (f2.wy1, ==, f3.wy1);
  for (int i = 0; i < N; i++)
    live[i] = 2.0 / xs[i];
  cairo_surface_destroy (draw_layered (r, &scene, TRUE, &f2));
  g_assert_false (xrlab_plot_renderer_get_layers_kept (r));
  g_assert_cmpfloat (f2.wy1, <, f3.wy1);

  curves[1].live = FALSE;
  cairo_surface_destroy (full);
  cairo_surface_destroy (layered);
}

/* A curve far denser than the pixel columns (10^5 noisy points) is thinned
 * to each column's first, extremes and last on a raster target: it looks as
 * the full polyline does (drawn through a recording surface, which is not
 * thinned), with the same spikes (one point high, one point low). */
/* @s drawn by @r into an image, through a recording surface: a vector
 * target, so the curves are stroked point for point (no thinning, no
 * envelopes). */
static cairo_surface_t *
draw_via_vector (XrlabPlotRenderer *r, const XrlabPlotScene *scene)
{
  cairo_surface_t *rec = cairo_recording_surface_create (CAIRO_CONTENT_COLOR_ALPHA, NULL);
  cairo_surface_t *full = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W, H);
  cairo_t *cr = cairo_create (rec);

  g_assert_true (xrlab_plot_renderer_draw (r, scene, cr, W, H, NULL, NULL));
  cairo_destroy (cr);
  cr = cairo_create (full);
  cairo_set_source_surface (cr, rec, 0, 0);
  cairo_paint (cr);
  cairo_destroy (cr);
  cairo_surface_flush (full);
  cairo_surface_destroy (rec);
  return full;
}

/* The blue curve of @scene on a raster target looks as it does stroked
 * point for point on a vector one: antialiasing shades differ a little; a
 * lost spike would be a line of pixels. */
static void
assert_raster_like_vector (XrlabPlotRenderer *r, const XrlabPlotScene *scene, const char *what)
{
  cairo_surface_t *raster = draw (r, scene, NULL), *full = draw_via_vector (r, scene);
  guint ink = count_near (full, BLUE, 60, 0, 0, W, H), diff = count_different (raster, full, 96);

  g_test_message ("%s: %u pixels of the curve, %u differ", what, ink, diff);
  g_assert_cmpuint (ink, >, 1000);
  g_assert_cmpuint (diff, <, ink / 200);
  cairo_surface_destroy (full);
  cairo_surface_destroy (raster);
}

static void
test_thinned (void)
{
  enum { M = 100000 };
  g_autoptr(XrlabPlotRenderer) r = xrlab_plot_renderer_new ();
  g_autofree double *x = g_new (double, M), *y = g_new (double, M);
  XrlabPlotCurve dense;
  XrlabPlotScene scene;

  /* smooth: stroked (thinned), not filled as an envelope */
  for (int i = 0; i < M; i++)
    {
      x[i] = i / (double) (M - 1);
      y[i] = sin (6.0 * x[i]) + 0.3 * sin (150.0 * x[i]);
    }
  y[M / 3] = 3.0;      /* the spikes thinning must keep */
  y[2 * M / 3] = -3.0;
  dense = (XrlabPlotCurve) { "dense", rgb (BLUE), x, y, M, 1.0, FALSE };
  xrlab_plot_scene_init (&scene);
  scene.curves = &dense;
  scene.n_curves = 1;
  scene.x = (XrlabPlotAxisSpec) { "x", NULL, FALSE };
  scene.y = (XrlabPlotAxisSpec) { "y", NULL, FALSE };
  assert_raster_like_vector (r, &scene, "dense");

  /* a model peak of 1131 points: stroked through fewer of them on the
   * raster, looking the same */
  for (int i = 0; i < 1131; i++)
    {
      x[i] = 93.0 - 16.0 * i / 1130.0;
      y[i] = 300.0 * exp (-pow ((x[i] - 86.0) / 0.4, 2)) + 220.0 / (1.0 + pow ((x[i] - 82.3) / 0.3, 2));
    }
  dense.n = 1131;
  assert_raster_like_vector (r, &scene, "a peak");
}

/* The rows of column @x of @s covered more than half by the blue curve
 * (on white: blue minus red channel; grey grid and frame have none). */
static void
column_ink (cairo_surface_t *s, int x, gboolean *ink)
{
  XrlabTestImage img = xrlab_test_image (s);

  for (int y = 0; y < H; y++)
    {
      guint32 p = xrlab_test_pixel (&img, x, y);

      ink[y] = (int) (p & 0xff) - (int) ((p >> 16) & 0xff) > 94;
    }
}

/* The first and the last inked row of @ink (-1 when none). */
static void
ink_extent (const gboolean *ink, int *top, int *bottom)
{
  *top = *bottom = -1;
  for (int y = 0; y < H; y++)
    if (ink[y])
      {
        if (*top < 0)
          *top = y;
        *bottom = y;
      }
}

/* A residual-like curve: 3000 noisy points on a plot 800 wide, drawn on a
 * raster as the band it covers: in each pixel column the band is solid
 * from the row of the highest point in the column to the row of the
 * lowest, and ends within the pen's reach of the points in and beside the
 * column; it covers what the stroked line covers, and in most columns no
 * more than a row beyond (the stroke's bevel joins cut needle tips short
 * of their points, the band's round pen does not). */
static void
test_envelope (void)
{
  enum { M = 3000 };
  g_autoptr(XrlabPlotRenderer) r = xrlab_plot_renderer_new ();
  g_autofree double *x = g_new (double, M), *y = g_new (double, M);
  XrlabPlotCurve noisy;
  XrlabPlotScene scene;
  XrlabPlotFrame frame;
  cairo_surface_t *band, *full;
  guint32 seed = 777;
  gboolean a[H], b[H];
  int columns = 0, above = 0, below = 0;

  for (int i = 0; i < M; i++)
    {
      seed = seed * 1664525u + 1013904223u;
      x[i] = 93.0 - 16.0 * i / (M - 1);
      y[i] = 100.0 * exp (-pow ((x[i] - 85.0) / 0.6, 2)) + 40.0 * ((seed >> 8) / 16777216.0 - 0.5);
    }
  noisy = (XrlabPlotCurve) { "residual", rgb (BLUE), x, y, M, 1.0, FALSE };
  xrlab_plot_scene_init (&scene);
  scene.curves = &noisy;
  scene.n_curves = 1;
  scene.show_legend = FALSE;
  scene.x = (XrlabPlotAxisSpec) { "Energy", "eV", FALSE, .reversed = TRUE };
  scene.y = (XrlabPlotAxisSpec) { "Residual", NULL, FALSE };
  band = draw (r, &scene, &frame);
  full = draw_via_vector (r, &scene);
  g_assert_true (frame.valid);
  for (int px = (int) ceil (frame.px0) + 3; px < (int) frame.px1 - 3; px += 3)
    {
      double in_lo = INFINITY, in_hi = -INFINITY, near_lo = INFINITY, near_hi = -INFINITY;
      int ta, ba, tb, bb;

      for (int i = 0; i < M; i++)
        {
          double u = xrlab_plot_frame_x_to_px (&frame, x[i]), v = xrlab_plot_frame_y_to_py (&frame, y[i]);

          if (u >= px && u < px + 1)
            {
              in_lo = MIN (in_lo, v);
              in_hi = MAX (in_hi, v);
            }
          if (u >= px - 1.5 && u < px + 2.5)
            {
              near_lo = MIN (near_lo, v);
              near_hi = MAX (near_hi, v);
            }
        }
      g_assert_true (isfinite (in_lo));
      /* inked: covered more than about half */
      column_ink (full, px, a);
      column_ink (band, px, b);
      ink_extent (a, &ta, &ba);
      ink_extent (b, &tb, &bb);
      if (tb < 0 || tb > (int) floor (in_lo) || bb < (int) floor (in_hi)
          || tb < (int) floor (near_lo) - 2 || bb > (int) ceil (near_hi) + 1)
        g_error ("column %d: the band covers rows %d to %d; the points in it %.1f to %.1f, beside it %.1f to %.1f",
                 px, tb, bb, in_lo, in_hi, near_lo, near_hi);
      for (int row = tb; row <= bb; row++)
        if (!b[row])
          g_error ("column %d: row %d inside the band is not drawn", px, row);
      /* the band holds what the stroke covers; it reaches further at
       * needle tips, which the stroke's bevel joins cut short */
      if (ta < 0 || tb > ta + 1 || bb < ba - 1)
        g_error ("column %d: the stroked line covers rows %d to %d, the band only %d to %d",
                 px, ta, ba, tb, bb);
      above += ta - tb > 1;
      below += bb - ba > 1;
      columns++;
    }
  g_test_message ("of %d columns, %d reach more than a row above the stroked line, %d below",
                  columns, above, below);
  g_assert_cmpint (above, <, columns / 4);
  g_assert_cmpint (below, <, columns / 4);
  g_assert_cmpint (columns, >, 50);
  cairo_surface_destroy (full);
  cairo_surface_destroy (band);
}

static double
distance_to_segment (double x, double y, double ax, double ay, double bx, double by)
{
  double dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy;
  double t = len2 > 0 ? CLAMP (((x - ax) * dx + (y - ay) * dy) / len2, 0.0, 1.0) : 0.0;

  return hypot (ax + t * dx - x, ay + t * dy - y);
}

/* Smooth, noisy, back-tracking and still polylines: every point dropped
 * lies within the tolerance of the segment between the points kept around
 * it, the ends are kept, the world coordinates follow, and a smooth curve
 * keeps few points. */
static void
test_simplify (void)
{
  enum { M = 1131 };
  GRand *rand = g_rand_new_with_seed (4);
  const double tol = 0.125;

  for (int shape = 0; shape < 5; shape++)
    for (int round = 0; round < 20; round++)
      {
        double ux[M], uy[M], wx[M], wy[M], ox[M], oy[M];
        gsize kept, k = 0;

        for (gsize i = 0; i < M; i++)
          {
            double t = (double) i / (M - 1);

            ox[i] = shape == 3 ? 400 + 300 * cos (6 * t) : 800 * t;
            oy[i] = shape == 0 ? 200 + 150 * sin (9 * t + round)
                    : shape == 1 ? 200 + g_rand_double_range (rand, -3, 3)
                    : shape == 2 ? 200 + (i % 50 < 25 ? 0.01 : 40) * ((double) (i % 7) - 3)
                    : shape == 3 ? 200 + 300 * sin (6 * t) + 0.05 * sin (200 * t)
                    : 100 + 0.01 * (double) (i % 3);
            if (shape == 4 && i > 10 && i < 400)
              ox[i] = ox[10] + 0.02 * (double) (i % 5);   /* a still stretch */
            ux[i] = ox[i];
            uy[i] = oy[i];
            wx[i] = ox[i] / 10;
            wy[i] = oy[i] / 10;
          }
        kept = xrlab_plot_simplify (ux, uy, wx, wy, M, tol);
        g_assert_cmpuint (kept, >=, 2);
        g_assert_cmpfloat (ux[0], ==, ox[0]);
        g_assert_cmpfloat (ux[kept - 1], ==, ox[M - 1]);
        g_assert_cmpfloat (uy[kept - 1], ==, oy[M - 1]);
        /* walk the original points along the kept ones */
        for (gsize j = 0; j + 1 < kept; j++)
          {
            g_assert_cmpfloat (wx[j + 1], ==, ux[j + 1] / 10);
            g_assert_cmpfloat (wy[j + 1], ==, uy[j + 1] / 10);
            for (k++; !(ox[k] == ux[j + 1] && oy[k] == uy[j + 1]); k++)
              {
                g_assert_cmpuint (k, <, M - 1);
                g_assert_cmpfloat (distance_to_segment (ox[k], oy[k], ux[j], uy[j], ux[j + 1], uy[j + 1]),
                                   <=, tol * (1 + 1e-9));
              }
          }
        g_assert_cmpuint (k, ==, M - 1);
        if (shape == 0)
          g_assert_cmpuint (kept, <, M / 4);
      }
  g_rand_free (rand);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  make_arrays ();

  g_test_add_func ("/plot-render/driver", test_driver);
  g_test_add_func ("/plot-render/axes-and-curves", test_axes_and_curves);
  g_test_add_func ("/plot-render/legend", test_legend);
  g_test_add_func ("/plot-render/markers", test_markers);
  g_test_add_func ("/plot-render/dark", test_dark);
  g_test_add_func ("/plot-render/stale", test_stale);
  g_test_add_func ("/plot-render/nothing-to-draw", test_nothing_to_draw);
  g_test_add_func ("/plot-render/linear-and-sizes", test_linear_and_sizes);
  g_test_add_func ("/plot-render/write", test_write);
  g_test_add_func ("/plot-render/layers", test_layers);
  g_test_add_func ("/plot-render/thinned", test_thinned);
  g_test_add_func ("/plot-render/envelope", test_envelope);
  g_test_add_func ("/plot-render/simplify", test_simplify);
  g_test_add_func ("/plot-render/reversed", test_reversed);
  g_test_add_func ("/plot-render/one-thread", test_one_thread);
  return g_test_run ();
}
