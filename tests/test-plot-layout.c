/* test-plot-layout.c -- what the renderer puts where: the palette and the
 * line styles, edge labels that never overlap, the notes, the minus sign,
 * axis limits and type sizes; from the text boxes of a frame
 * (xrlab_plot_renderer_get_texts()), without a display
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "xrlab-plot-render.h"

#define W 800
#define H 500
#define N 500

static double xs[N], ys[16][N];

static void
make_arrays (void)
{
  /* 0.03 .. 30 keV, log spaced; curve k = (1 + k / 4) 1e-4 / x^2 */
  for (int i = 0; i < N; i++)
    {
      xs[i] = 0.03 * pow (1000.0, (double) i / (N - 1));
      for (int k = 0; k < 16; k++)
        ys[k][i] = (1 + k * 0.25) * 1e-4 / (xs[i] * xs[i]);
    }
}

static XrlabPlotCurve curves[16];

static void
make_scene (XrlabPlotScene *scene, guint n_curves)
{
  for (guint k = 0; k < n_curves; k++)
    curves[k] = (XrlabPlotCurve) { "Material", xrlab_plot_palette_series (k), xs, ys[k], N, 1.0, FALSE,
                                   XRLAB_PLOT_LINE_AUTO };
  xrlab_plot_scene_init (scene);
  scene->curves = curves;
  scene->n_curves = n_curves;
  scene->x = (XrlabPlotAxisSpec) { "Photon energy", "keV", TRUE, 0, 0, NULL };
  scene->y = (XrlabPlotAxisSpec) { "Refractive index decrement δ", NULL, TRUE, 0, 0, "δ" };
}

static guint
draw (XrlabPlotRenderer *r, const XrlabPlotScene *scene, int w, int h, XrlabPlotFrame *f,
      const XrlabPlotTextBox **texts)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  cairo_t *cr = cairo_create (s);
  g_autoptr(GError) error = NULL;

  g_assert_true (xrlab_plot_renderer_draw (r, scene, cr, w, h, f, &error));
  g_assert_no_error (error);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
  return xrlab_plot_renderer_get_texts (r, texts);
}

static gboolean
boxes_overlap (const XrlabPlotTextBox *a, const XrlabPlotTextBox *b)
{
  return a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 && b->y0 < a->y1;
}

/* No two texts of the frame overlap, and every one is on the page. */
static void
assert_disjoint (const XrlabPlotTextBox *t, guint n, int w, int h)
{
  for (guint i = 0; i < n; i++)
    {
      g_assert_cmpfloat (t[i].x0, >=, -0.5);
      g_assert_cmpfloat (t[i].x1, <=, w + 0.5);
      g_assert_cmpfloat (t[i].y0, >=, -0.5);
      g_assert_cmpfloat (t[i].y1, <=, h + 0.5);
      for (guint k = i + 1; k < n; k++)
        if (boxes_overlap (&t[i], &t[k]))
          g_error ("“%s” (%d: %.1f %.1f %.1f %.1f) overlaps “%s” (%d: %.1f %.1f %.1f %.1f)",
                   t[i].text, t[i].role, t[i].x0, t[i].y0, t[i].x1, t[i].y1,
                   t[k].text, t[k].role, t[k].x0, t[k].y0, t[k].x1, t[k].y1);
    }
}

static const XrlabPlotTextBox *
find_text (const XrlabPlotTextBox *t, guint n, XrlabPlotTextRole role, const char *part)
{
  for (guint i = 0; i < n; i++)
    if (t[i].role == role && (part == NULL || strstr (t[i].text, part) != NULL))
      return &t[i];
  return NULL;
}

static guint
count_role (const XrlabPlotTextBox *t, guint n, XrlabPlotTextRole role)
{
  guint k = 0;
  for (guint i = 0; i < n; i++)
    k += t[i].role == role;
  return k;
}

/* ---- the palette: CIEDE2000 distances under simulated colour blindness ---------- */

static double
srgb_to_linear (double c)
{
  return c <= 0.04045 ? c / 12.92 : pow ((c + 0.055) / 1.055, 2.4);
}

/* Machado, Oliveira & Fernandes (2009), severity 1, on linear RGB. */
static const double cvd[4][3][3] = {
  { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } },
  { { 0.152286, 1.052583, -0.204868 }, { 0.114503, 0.786281, 0.099216 }, { -0.003882, -0.048116, 1.051998 } },
  { { 0.367322, 0.860646, -0.227968 }, { 0.280085, 0.672501, 0.047413 }, { -0.011820, 0.042940, 0.968881 } },
  { { 1.255528, -0.076749, -0.178779 }, { -0.078411, 0.930809, 0.147602 }, { 0.004733, 0.691367, 0.303900 } },
};

static void
to_lab (const XrlabPlotColor *c, int kind, double lab[3])
{
  double lin[3] = { srgb_to_linear (c->red), srgb_to_linear (c->green), srgb_to_linear (c->blue) };
  double s[3], xyz[3], f[3];
  static const double white[3] = { 0.95047, 1.0, 1.08883 };

  for (int i = 0; i < 3; i++)
    s[i] = CLAMP (cvd[kind][i][0] * lin[0] + cvd[kind][i][1] * lin[1] + cvd[kind][i][2] * lin[2], 0, 1);
  xyz[0] = 0.4124 * s[0] + 0.3576 * s[1] + 0.1805 * s[2];
  xyz[1] = 0.2126 * s[0] + 0.7152 * s[1] + 0.0722 * s[2];
  xyz[2] = 0.0193 * s[0] + 0.1192 * s[1] + 0.9505 * s[2];
  for (int i = 0; i < 3; i++)
    {
      double t = xyz[i] / white[i];
      f[i] = t > 216.0 / 24389 ? cbrt (t) : (24389.0 / 27 * t + 16) / 116;
    }
  lab[0] = 116 * f[1] - 16;
  lab[1] = 500 * (f[0] - f[1]);
  lab[2] = 200 * (f[1] - f[2]);
}

static double
deg (double r)
{
  return r * 180 / G_PI;
}

static double
rad (double d)
{
  return d * G_PI / 180;
}

/* Sharma, Wu & Dalal (2005). */
static double
ciede2000 (const double *p, const double *q)
{
  double C1 = hypot (p[1], p[2]), C2 = hypot (q[1], q[2]), Cb = (C1 + C2) / 2;
  double G = 0.5 * (1 - sqrt (pow (Cb, 7) / (pow (Cb, 7) + pow (25, 7))));
  double a1 = (1 + G) * p[1], a2 = (1 + G) * q[1];
  double C1p = hypot (a1, p[2]), C2p = hypot (a2, q[2]);
  double h1 = fmod (deg (atan2 (p[2], a1)) + 360, 360), h2 = fmod (deg (atan2 (q[2], a2)) + 360, 360);
  double dL = q[0] - p[0], dC = C2p - C1p, dh = h2 - h1, dH, Lb, Cbp, hb, T, dth, Rc, Sl, Sc, Sh, Rt;

  if (C1p * C2p == 0)
    dh = 0;
  else if (dh > 180)
    dh -= 360;
  else if (dh < -180)
    dh += 360;
  dH = 2 * sqrt (C1p * C2p) * sin (rad (dh / 2));
  Lb = (p[0] + q[0]) / 2;
  Cbp = (C1p + C2p) / 2;
  if (C1p * C2p == 0)
    hb = h1 + h2;
  else if (fabs (h1 - h2) <= 180)
    hb = (h1 + h2) / 2;
  else
    hb = h1 + h2 < 360 ? (h1 + h2 + 360) / 2 : (h1 + h2 - 360) / 2;
  T = 1 - 0.17 * cos (rad (hb - 30)) + 0.24 * cos (rad (2 * hb)) + 0.32 * cos (rad (3 * hb + 6)) -
      0.20 * cos (rad (4 * hb - 63));
  dth = 30 * exp (-pow ((hb - 275) / 25, 2));
  Rc = 2 * sqrt (pow (Cbp, 7) / (pow (Cbp, 7) + pow (25, 7)));
  Sl = 1 + 0.015 * pow (Lb - 50, 2) / sqrt (20 + pow (Lb - 50, 2));
  Sc = 1 + 0.045 * Cbp;
  Sh = 1 + 0.015 * Cbp * T;
  Rt = -sin (rad (2 * dth)) * Rc;
  return sqrt (pow (dL / Sl, 2) + pow (dC / Sc, 2) + pow (dH / Sh, 2) + Rt * (dC / Sc) * (dH / Sh));
}

static double
luminance (const XrlabPlotColor *c)
{
  return 0.2126 * srgb_to_linear (c->red) + 0.7152 * srgb_to_linear (c->green) + 0.0722 * srgb_to_linear (c->blue);
}

static double
contrast (const XrlabPlotColor *a, const XrlabPlotColor *b)
{
  double la = luminance (a), lb = luminance (b);
  return (MAX (la, lb) + 0.05) / (MIN (la, lb) + 0.05);
}

static double
min_distance (gboolean dark)
{
  double best = INFINITY;

  for (int kind = 0; kind < 4; kind++)
    for (guint i = 0; i < XRLAB_PLOT_N_SERIES_COLORS; i++)
      for (guint k = i + 1; k < XRLAB_PLOT_N_SERIES_COLORS; k++)
        {
          XrlabPlotColor a = dark ? xrlab_plot_palette_series_dark (i) : xrlab_plot_palette_series (i);
          XrlabPlotColor b = dark ? xrlab_plot_palette_series_dark (k) : xrlab_plot_palette_series (k);
          double la[3], lb[3];
          to_lab (&a, kind, la);
          to_lab (&b, kind, lb);
          best = MIN (best, ciede2000 (la, lb));
        }
  return best;
}

static void
test_palette (void)
{
  const XrlabPlotPalette *light = xrlab_plot_palette_get (FALSE), *dark = xrlab_plot_palette_get (TRUE);
  double lab_a[3] = { 50, 2.6772, -79.7751 }, lab_b[3] = { 50, 0, -82.7485 };

  /* CIEDE2000 against Sharma et al.'s first test pair (2.0425). */
  g_assert_cmpfloat_with_epsilon (ciede2000 (lab_a, lab_b), 2.0425, 1e-4);

  g_assert_cmpuint (XRLAB_PLOT_N_SERIES_COLORS, >=, 12);
  /* Twelve colours apart for normal vision and protan, deutan and tritan
   * colour blindness, on both backgrounds. */
  g_assert_cmpfloat (min_distance (FALSE), >=, 8.0);
  g_assert_cmpfloat (min_distance (TRUE), >=, 7.0);
  for (guint i = 0; i < XRLAB_PLOT_N_SERIES_COLORS; i++)
    {
      XrlabPlotColor c = xrlab_plot_palette_series (i), d = xrlab_plot_palette_series_dark (i);
      XrlabPlotColor drawn = xrlab_plot_series_color (&c, TRUE, FALSE);
      g_assert_cmpfloat (contrast (&c, &light->bg), >=, 2.0);
      g_assert_cmpfloat (contrast (&d, &dark->bg), >=, 3.0);
      /* On the dark background a palette colour is drawn as its variant. */
      g_assert_cmpint (xrlab_plot_palette_series_index (&c), ==, (int) i);
      g_assert_cmpfloat_with_epsilon (drawn.red, d.red, 1e-9);
      g_assert_cmpfloat_with_epsilon (drawn.blue, d.blue, 1e-9);
      /* Distinct entries. */
      for (guint k = 0; k < i; k++)
        {
          XrlabPlotColor o = xrlab_plot_palette_series (k);
          g_assert_false (o.red == c.red && o.green == c.green && o.blue == c.blue);
        }
    }
  /* The index wraps around. */
  {
    XrlabPlotColor a = xrlab_plot_palette_series (0), b = xrlab_plot_palette_series (XRLAB_PLOT_N_SERIES_COLORS);
    g_assert_true (a.red == b.red && a.green == b.green && a.blue == b.blue);
  }
}

/* Colours repeat after the palette, line styles tell the curves apart. */
static void
test_line_styles (void)
{
  XrlabPlotScene scene;
  guint n = XRLAB_PLOT_N_SERIES_COLORS + 4;

  make_scene (&scene, n);
  for (guint i = 0; i < n; i++)
    {
      XrlabPlotLineStyle st = xrlab_plot_scene_get_line_style (&scene, i);
      g_assert_cmpint (st, ==, i < XRLAB_PLOT_N_SERIES_COLORS ? XRLAB_PLOT_LINE_SOLID : XRLAB_PLOT_LINE_DASHED);
    }
  /* No two curves of the 16 look alike: colour or style differ. */
  for (guint i = 0; i < n; i++)
    for (guint k = 0; k < i; k++)
      g_assert_false (curves[i].color.red == curves[k].color.red &&
                      curves[i].color.green == curves[k].color.green &&
                      curves[i].color.blue == curves[k].color.blue &&
                      xrlab_plot_scene_get_line_style (&scene, i) == xrlab_plot_scene_get_line_style (&scene, k));
  /* Three curves of one colour: solid, dashed, dash-dot; a style set by
   * the caller is kept. */
  for (guint i = 0; i < 3; i++)
    curves[i].color = xrlab_plot_palette_series (5);
  curves[3].color = xrlab_plot_palette_series (5);
  curves[3].style = XRLAB_PLOT_LINE_DOTTED;
  g_assert_cmpint (xrlab_plot_scene_get_line_style (&scene, 0), ==, XRLAB_PLOT_LINE_SOLID);
  g_assert_cmpint (xrlab_plot_scene_get_line_style (&scene, 1), ==, XRLAB_PLOT_LINE_DASHED);
  g_assert_cmpint (xrlab_plot_scene_get_line_style (&scene, 2), ==, XRLAB_PLOT_LINE_DASH_DOT);
  g_assert_cmpint (xrlab_plot_scene_get_line_style (&scene, 3), ==, XRLAB_PLOT_LINE_DOTTED);
}

/* ---- edge labels ------------------------------------------------------------------ */

/* The edges of Si, O, Al, S, Ti, Fe, Ni, Cu, Zn and Au between 30 eV and
 * 30 keV (xraylib's energies), priority K 0, L3 1, L2 2, L1 3, M5 4 ... */
static XrlabPlotMarker edges[] = {
  { 1.8389, "Si K", 14, 0 }, { 0.0998, "Si L3", 14, 1 }, { 0.0995, "Si L2", 14, 2 }, { 0.1497, "Si L1", 14, 3 },
  { 0.5431, "O K", 8, 0 }, { 1.5596, "Al K", 13, 0 }, { 2.4720, "S K", 16, 0 }, { 4.9664, "Ti K", 22, 0 },
  { 7.1120, "Fe K", 26, 0 }, { 0.7067, "Fe L3", 26, 1 }, { 0.7197, "Fe L2", 26, 2 }, { 0.8455, "Fe L1", 26, 3 },
  { 8.3328, "Ni K", 28, 0 }, { 0.8547, "Ni L3", 28, 1 }, { 0.8717, "Ni L2", 28, 2 },
  { 8.9789, "Cu K", 29, 0 }, { 0.9327, "Cu L3", 29, 1 }, { 0.9523, "Cu L2", 29, 2 },
  { 9.6586, "Zn K", 30, 0 }, { 1.0216, "Zn L3", 30, 1 }, { 1.0449, "Zn L2", 30, 2 },
  { 11.9187, "Au L3", 79, 1 }, { 13.7336, "Au L2", 79, 2 }, { 14.3528, "Au L1", 79, 3 },
  { 2.2057, "Au M5", 79, 4 }, { 2.2911, "Au M4", 79, 5 }, { 2.7430, "Au M3", 79, 6 },
  { 3.1478, "Au M2", 79, 7 }, { 3.4249, "Au M1", 79, 8 }, { 0.0836, "Au N7", 79, 9 }, { 0.0874, "Au N6", 79, 10 },
};

/* Each group has a label, or is named in the note. */
static void
assert_every_group_shown (const XrlabPlotTextBox *t, guint n, const XrlabPlotScene *scene, const XrlabPlotFrame *f)
{
  const XrlabPlotTextBox *note = find_text (t, n, XRLAB_PLOT_TEXT_NOTE, "Not labelled");
  guint missing = 0;

  for (guint i = 0; i < scene->n_markers; i++)
    {
      int group = scene->markers[i].group;
      gboolean labelled = FALSE, in_range = FALSE;
      for (guint k = 0; k < scene->n_markers; k++)
        {
          double px;
          if (scene->markers[k].group != group)
            continue;
          px = xrlab_plot_frame_x_to_px (f, scene->markers[k].x);
          in_range |= px >= f->px0 - 0.5 && px <= f->px1 + 0.5;
          for (guint j = 0; j < n && !labelled; j++)
            labelled = t[j].role == XRLAB_PLOT_TEXT_MARKER && strcmp (t[j].text, scene->markers[k].label) == 0;
        }
      if (!in_range || labelled)
        continue;
      /* The note names the group's most important marker. */
      missing++;
      g_assert_nonnull (note);
    }
  g_assert_cmpuint (missing > 0 ? f->n_unlabelled_groups : 0, <=, scene->n_markers);
  if (missing == 0)
    g_assert_null (note);
}

static void
test_edge_labels (void)
{
  g_autoptr(XrlabPlotRenderer) r = xrlab_plot_renderer_new ();
  int sizes[][2] = { { W, H }, { 1400, 700 }, { 480, 320 }, { 241, 170 } };
  XrlabPlotScene scene;
  XrlabPlotFrame f;
  const XrlabPlotTextBox *t;
  guint n;

  make_scene (&scene, 3);
  scene.markers = edges;
  scene.n_markers = G_N_ELEMENTS (edges);
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      n = draw (r, &scene, sizes[s][0], sizes[s][1], &f, &t);
      g_assert_true (f.valid);
      /* No label over another, nor over a tick label or axis title. */
      assert_disjoint (t, n, sizes[s][0], sizes[s][1]);
      /* The labels sit above the plot area. */
      for (guint i = 0; i < n; i++)
        if (t[i].role == XRLAB_PLOT_TEXT_MARKER)
          g_assert_cmpfloat (t[i].y1, <=, f.py0);
      assert_every_group_shown (t, n, &scene, &f);
      g_assert_cmpuint (count_role (t, n, XRLAB_PLOT_TEXT_MARKER), >, 0);
      /* Thinning goes by priority: a K edge is never dropped while an L2
       * or M edge of the same element keeps its label. */
      for (guint i = 0; i < G_N_ELEMENTS (edges); i++)
        for (guint k = 0; k < G_N_ELEMENTS (edges); k++)
          if (edges[i].group == edges[k].group && edges[i].priority < edges[k].priority &&
              find_text (t, n, XRLAB_PLOT_TEXT_MARKER, edges[k].label) != NULL &&
              find_text (t, n, XRLAB_PLOT_TEXT_MARKER, edges[i].label) == NULL)
            {
              /* Only when the more important one had no room: it lies
               * within a label's width of others. */
              double px = xrlab_plot_frame_x_to_px (&f, edges[i].x);
              gboolean crowded = FALSE;
              for (guint j = 0; j < n; j++)
                crowded |= t[j].role == XRLAB_PLOT_TEXT_MARKER && t[j].x0 < px + 40 && t[j].x1 > px - 40;
              g_assert_true (crowded);
            }
    }

  /* A wide plot labels them all: no note. */
  n = draw (r, &scene, 3000, 700, &f, &t);
  g_assert_cmpuint (f.n_unlabelled_groups, ==, 0);
  g_assert_null (find_text (t, n, XRLAB_PLOT_TEXT_NOTE, NULL));

  /* A narrow one names what has no label. */
  n = draw (r, &scene, 300, 220, &f, &t);
  g_assert_cmpuint (f.n_unlabelled_groups, >, 0);
  g_assert_nonnull (find_text (t, n, XRLAB_PLOT_TEXT_NOTE, "Not labelled"));
}

/* The common factor of a linear axis goes into the title, never over a
 * marker label ("×10⁻³" was drawn over "Si K"). */
static void
test_axis_factor (void)
{
  g_autoptr(XrlabPlotRenderer) r = xrlab_plot_renderer_new ();
  static double lin_y[N];
  XrlabPlotMarker si = { 1.8389, (char *) "Si K", 14, 0 };
  XrlabPlotScene scene;
  XrlabPlotFrame f;
  const XrlabPlotTextBox *t, *title;
  guint n;

  for (int i = 0; i < N; i++)
    lin_y[i] = 1e-3 * (1 + sin (i * 0.01));
  make_scene (&scene, 1);
  curves[0].y = lin_y;
  scene.x.log = scene.y.log = FALSE;
  scene.x.min = 1.8;   /* the marker at the left end, under the factor's old place */
  scene.x.max = 3.0;
  scene.markers = &si;
  scene.n_markers = 1;
  n = draw (r, &scene, W, H, &f, &t);
  title = find_text (t, n, XRLAB_PLOT_TEXT_TITLE_Y, NULL);
  g_assert_nonnull (title);
  g_assert_nonnull (strstr (title->text, "×10−3"));
  g_assert_nonnull (find_text (t, n, XRLAB_PLOT_TEXT_MARKER, "Si K"));
  assert_disjoint (t, n, W, H);
}

/* ---- notes and typography ----------------------------------------------------------- */

static void
test_log_negative (void)
{
  g_autoptr(XrlabPlotRenderer) r = xrlab_plot_renderer_new ();
  static double delta[N];
  XrlabPlotScene scene;
  XrlabPlotFrame f;
  const XrlabPlotTextBox *t, *note;
  guint n;

  /* δ of Si goes negative between 95 and 125 eV. */
  for (int i = 0; i < N; i++)
    delta[i] = (xs[i] > 0.095 && xs[i] < 0.125 ? -2e-3 : 1e-2) / (xs[i] * 10);
  make_scene (&scene, 1);
  curves[0].y = delta;
  n = draw (r, &scene, W, H, &f, &t);
  g_assert_true (f.y_abs);
  note = find_text (t, n, XRLAB_PLOT_TEXT_NOTE, NULL);
  g_assert_nonnull (note);
  g_assert_nonnull (strstr (note->text, "|δ|"));
  /* The negative stretch is on the axis: its magnitude is placed. */
  g_assert_true (isfinite (xrlab_plot_frame_y_to_py (&f, -2e-3 / 1.1)));
  assert_disjoint (t, n, W, H);

  /* All positive: no note. */
  curves[0].y = ys[0];
  n = draw (r, &scene, W, H, &f, &t);
  g_assert_false (f.y_abs);
  g_assert_null (find_text (t, n, XRLAB_PLOT_TEXT_NOTE, NULL));

  /* On a linear axis negative values are just drawn. */
  curves[0].y = delta;
  scene.y.log = FALSE;
  n = draw (r, &scene, W, H, &f, &t);
  g_assert_false (f.y_abs);
  g_assert_null (find_text (t, n, XRLAB_PLOT_TEXT_NOTE, NULL));
}

static void
test_minus_sign (void)
{
  g_autoptr(XrlabPlotRenderer) r = xrlab_plot_renderer_new ();
  static double lin[N];
  XrlabPlotScene scene;
  XrlabPlotFrame f;
  const XrlabPlotTextBox *t;
  guint n, n_exp = 0, n_neg = 0;

  make_scene (&scene, 2);
  n = draw (r, &scene, W, H, &f, &t);
  for (guint i = 0; i < n; i++)
    {
      if (t[i].role != XRLAB_PLOT_TEXT_TICK_Y)
        continue;
      /* "10−4": the exponent with U+2212, no hyphen anywhere. */
      g_assert_null (strchr (t[i].text, '-'));
      n_exp += strstr (t[i].text, "10−") != NULL;
    }
  g_assert_cmpuint (n_exp, >=, 3);

  /* Negative tick values on a linear axis. */
  for (int i = 0; i < N; i++)
    lin[i] = sin (i * 0.02);
  curves[0].y = curves[1].y = lin;
  scene.y.log = FALSE;
  n = draw (r, &scene, W, H, &f, &t);
  for (guint i = 0; i < n; i++)
    if (t[i].role == XRLAB_PLOT_TEXT_TICK_Y)
      {
        g_assert_null (strchr (t[i].text, '-'));
        n_neg += g_str_has_prefix (t[i].text, "−");
      }
  g_assert_cmpuint (n_neg, >=, 2);
}

/* Tick labels: at least 12 units (9 pt at 96 dpi) on screen by default,
 * the size asked for, more labels on a decade and a half. */
static void
test_type_sizes (void)
{
  g_autoptr(XrlabPlotRenderer) r = xrlab_plot_renderer_new ();
  XrlabPlotScene scene;
  XrlabPlotFrame f;
  const XrlabPlotTextBox *t, *tick, *title;
  double h_default, h_small;
  guint n, n_x = 0;

  make_scene (&scene, 2);
  n = draw (r, &scene, W, H, &f, &t);
  tick = find_text (t, n, XRLAB_PLOT_TEXT_TICK_X, NULL);
  title = find_text (t, n, XRLAB_PLOT_TEXT_TITLE_Y, NULL);
  h_default = tick->y1 - tick->y0;
  g_assert_cmpfloat (h_default, >=, 12.0);
  /* The y title reads as words and the symbol, turned a quarter. */
  g_assert_cmpstr (title->text, ==, "Refractive index decrement δ");
  g_assert_cmpfloat (title->y1 - title->y0, >, title->x1 - title->x0);
  assert_disjoint (t, n, W, H);

  scene.font_size = 7;
  n = draw (r, &scene, W, H, &f, &t);
  tick = find_text (t, n, XRLAB_PLOT_TEXT_TICK_X, NULL);
  h_small = tick->y1 - tick->y0;
  g_assert_cmpfloat (h_small, <, h_default * 0.7);
  g_assert_cmpfloat (h_small, >, 7.0);

  /* 1–30 keV on a log axis: 1, 2, 3, 5, 10, 20, 30. */
  scene.font_size = 0;
  scene.x.min = 1;
  scene.x.max = 30;
  n = draw (r, &scene, W, H, &f, &t);
  for (guint i = 0; i < n; i++)
    n_x += t[i].role == XRLAB_PLOT_TEXT_TICK_X;
  g_assert_cmpuint (n_x, >=, 7);
  g_assert_nonnull (find_text (t, n, XRLAB_PLOT_TEXT_TICK_X, "3"));
  assert_disjoint (t, n, W, H);
}

/* ---- limits ------------------------------------------------------------------------- */

static void
test_limits (void)
{
  g_autoptr(XrlabPlotRenderer) r = xrlab_plot_renderer_new ();
  XrlabPlotScene scene;
  XrlabPlotFrame f, full;
  const XrlabPlotTextBox *t;
  double x0, x1, y0, y1;
  guint n;

  make_scene (&scene, 1);
  draw (r, &scene, W, H, &full, &t);

  /* x limits: exactly those; y follows the data inside them. */
  scene.x.min = 8.5;
  scene.x.max = 9.5;
  n = draw (r, &scene, W, H, &f, &t);
  xrlab_plot_frame_get_limits (&f, &x0, &x1, &y0, &y1);
  g_assert_cmpfloat_with_epsilon (x0, 8.5, 1e-9);
  g_assert_cmpfloat_with_epsilon (x1, 9.5, 1e-9);
  g_assert_cmpfloat (y0, >, 1e-4 / (9.5 * 9.5) * 0.9);
  g_assert_cmpfloat (y1, <, 1e-4 / (8.5 * 8.5) * 1.1);
  g_assert_cmpfloat (f.wy1 - f.wy0, <, (full.wy1 - full.wy0) / 10);
  /* Less than a decade: at least four labelled ticks. */
  g_assert_cmpuint (count_role (t, n, XRLAB_PLOT_TEXT_TICK_X), >=, 4);
  g_assert_cmpuint (count_role (t, n, XRLAB_PLOT_TEXT_TICK_Y), >=, 4);
  assert_disjoint (t, n, W, H);

  /* Both axes fixed. */
  scene.y.min = 1e-7;
  scene.y.max = 1e-5;
  draw (r, &scene, W, H, &f, &t);
  xrlab_plot_frame_get_limits (&f, &x0, &x1, &y0, &y1);
  g_assert_cmpfloat_with_epsilon (y0, 1e-7, 1e-16);
  g_assert_cmpfloat_with_epsilon (y1, 1e-5, 1e-14);
  g_assert_cmpfloat_with_epsilon (xrlab_plot_frame_py_to_y (&f, xrlab_plot_frame_y_to_py (&f, 3e-6)), 3e-6, 1e-15);

  /* Limits a log axis cannot show are ignored: automatic. */
  scene.y.min = -1;
  g_assert_false (xrlab_plot_axis_is_fixed (&scene.y));
  draw (r, &scene, W, H, &f, &t);
  g_assert_cmpfloat (f.wy1 - f.wy0, >, 0.01);

  /* A window without data still draws a frame (y from all the data). */
  scene.x.min = 100;
  scene.x.max = 200;
  draw (r, &scene, W, H, &f, &t);
  g_assert_true (f.valid);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  make_arrays ();

  g_test_add_func ("/plot-layout/palette", test_palette);
  g_test_add_func ("/plot-layout/line-styles", test_line_styles);
  g_test_add_func ("/plot-layout/edge-labels", test_edge_labels);
  g_test_add_func ("/plot-layout/axis-factor", test_axis_factor);
  g_test_add_func ("/plot-layout/log-negative", test_log_negative);
  g_test_add_func ("/plot-layout/minus-sign", test_minus_sign);
  g_test_add_func ("/plot-layout/type-sizes", test_type_sizes);
  g_test_add_func ("/plot-layout/limits", test_limits);
  return g_test_run ();
}
