/* xrlab-plot.c -- a PLplot chart in a GtkDrawingArea
 *
 * Rendering: PLplot draws through its extcairo driver into a cairo context we
 * own. The widget renders once per change (data, axes, size, style) into an
 * image surface and paints that surface on every frame; the crosshair and
 * its readout are plain cairo/Pango on top, so pointer motion costs a paint,
 * not a PLplot run.
 *
 * Streams: each widget owns one PLplot stream (plmkstrm). The extcairo page
 * size is fixed at plinit, so a size change ends the stream and opens it
 * again at the new size (a fraction of a millisecond). Every PLplot call
 * selects the widget's stream first and runs on the main thread.
 *
 * Geometry: the page is in cairo units (1 unit = 1 pixel on screen, 1 point
 * in a PDF/SVG). PLplot's text heights are in mm at 72 units per inch; Pango
 * renders those "points" at 96 dpi, so a label of F points is F * 4/3 units
 * tall. Margins are computed from measured label widths.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-plot.h"

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include <adwaita.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <glib/gi18n-lib.h>
#include <plplot.h>

#include "xrlab-plot-ticks.h"
#include "xrlab-util.h"

G_DEFINE_QUARK (xrlab-plot-error-quark, xrlab_plot_error)

/* ---- palettes ------------------------------------------------------------ */

typedef struct {
  GdkRGBA bg;
  GdkRGBA fg;          /* tick labels, axis labels, legend text */
  GdkRGBA muted;       /* marker labels, exponent labels */
  GdkRGBA frame;       /* axes box and ticks */
  GdkRGBA grid;
  GdkRGBA marker;      /* edge lines */
  GdkRGBA legend_bg;
  GdkRGBA watermark;
} Palette;

/* Matches libadwaita's view colours (view_bg_color, view_fg_color). */
static const Palette light_palette = {
  .bg        = { 1.000, 1.000, 1.000, 1.0 },
  .fg        = { 0.137, 0.137, 0.137, 1.0 },
  .muted     = { 0.380, 0.380, 0.400, 1.0 },
  .frame     = { 0.350, 0.350, 0.360, 1.0 },
  .grid      = { 0.000, 0.000, 0.000, 0.085 },
  .marker    = { 0.420, 0.420, 0.470, 0.60 },
  .legend_bg = { 1.000, 1.000, 1.000, 0.88 },
  .watermark = { 0.750, 0.110, 0.157, 0.22 },
};

static const Palette dark_palette = {
  .bg        = { 0.118, 0.118, 0.118, 1.0 },
  .fg        = { 0.925, 0.925, 0.925, 1.0 },
  .muted     = { 0.680, 0.680, 0.700, 1.0 },
  .frame     = { 0.700, 0.700, 0.720, 1.0 },
  .grid      = { 1.000, 1.000, 1.000, 0.095 },
  .marker    = { 0.700, 0.700, 0.760, 0.55 },
  .legend_bg = { 0.160, 0.160, 0.160, 0.90 },
  .watermark = { 0.965, 0.380, 0.318, 0.26 },
};

enum {
  COL_BG = 0,
  COL_FG,
  COL_MUTED,
  COL_FRAME,
  COL_GRID,
  COL_MARKER,
  COL_LEGEND_BG,
  COL_WATERMARK,
  COL_SERIES0,
};

/* Type sizes in points (see the geometry note above). */
#define TICK_PT      9.0
#define LABEL_PT    10.0
#define LEGEND_PT    9.0
#define MARKER_PT    8.0
#define PT_TO_MM(pt) ((pt) * 25.4 / 72.0)
#define PT_TO_PX(pt) ((pt) * 96.0 / 72.0)

/* Geometry of the last on-screen frame, for the crosshair. */
typedef struct {
  gboolean valid;
  double px0, px1, py0, py1;    /* plot area in widget pixels (py0 top) */
  double wx0, wx1, wy0, wy1;    /* world window */
  gboolean x_log, y_log;
  double lx0, lx1, ly0, ly1;    /* legend box in widget pixels (empty: none) */
} Frame;

struct _XrlabPlot {
  GtkDrawingArea parent_instance;

  XrlabPlotData *data;
  char *x_name, *x_unit, *y_name, *y_unit;
  gboolean x_log, y_log;
  GArray *markers;               /* XrlabPlotMarker */
  char *watermark;
  char *message;
  char *overlay_text;
  gboolean dark;
  gboolean follow_style;
  gboolean show_markers;
  gboolean show_legend;
  double line_width;

  /* PLplot stream */
  PLINT stream;                  /* -1: none */
  int stream_width, stream_height;

  /* offscreen frame */
  cairo_surface_t *cache;
  gboolean dirty;
  Frame frame;

  /* crosshair */
  double cross_x;                /* data units; NaN: hidden */
  double cross_py;               /* pointer y in pixels; NaN: none */
  GtkEventController *motion;

  /* workspace for transformed coordinates */
  double *wx, *wy;
  gsize work_len;

  /* statistics */
  guint render_count;
  double last_render_ms;
  double data_set_time;          /* xrlab_now() at the last set_data, 0: shown */
  double data_to_frame_ms;

  gulong style_handler;
};

G_DEFINE_FINAL_TYPE (XrlabPlot, xrlab_plot, GTK_TYPE_DRAWING_AREA)

enum {
  PROP_0,
  PROP_DATA,
  PROP_X_LOG,
  PROP_Y_LOG,
  PROP_DARK,
  PROP_FOLLOW_STYLE,
  PROP_WATERMARK,
  PROP_MESSAGE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  SIGNAL_RENDERED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* ---- PLplot driver probe and error handlers ------------------------------- */

static gboolean probing;
static jmp_buf probe_env;
static char *probe_error;

static int
plplot_exit_handler (const char *message)
{
  if (probing)
    {
      g_free (probe_error);
      probe_error = g_strdup (message);
      longjmp (probe_env, 1);
    }
  /* PLplot exits the process after this returns; say why first. */
  g_printerr ("xrlab: PLplot stopped the program: %s\n", message);
  return 1;
}

static void
plplot_abort_handler (const char *message)
{
  if (!probing)
    g_warning ("PLplot: %s", message);
}

gboolean
xrlab_plot_check_driver (GError **error)
{
  static int state = 0;          /* 0 unknown, 1 available, 2 missing */
  static char *reason;

  if (state == 0)
    {
      const char *menu[128], *devices[128];
      const char **menu_p = menu, **devices_p = devices;
      int n = G_N_ELEMENTS (devices);
      volatile gboolean found = FALSE;

      plsexit (plplot_exit_handler);
      plsabort (plplot_abort_handler);

      probing = TRUE;
      if (setjmp (probe_env) == 0)
        {
          plgDevs (&menu_p, &devices_p, &n);
          for (int i = 0; i < n; i++)
            if (devices[i] != NULL && strcmp (devices[i], "extcairo") == 0)
              found = TRUE;
          if (found)
            {
              /* A trial stream: plinit loads the driver module. */
              PLINT strm = -1, old = 0;
              plgstrm (&old);
              plmkstrm (&strm);
              plsdev ("extcairo");
              plspage (0, 0, 16, 16, 0, 0);
              plspause (0);
              plinit ();
              plend1 ();
              plsstrm (old);
              state = 1;
            }
          else
            {
              state = 2;
              reason = g_strdup (_("PLplot has no “extcairo” device. Install the PLplot cairo driver (Debian: plplot-driver-cairo)."));
            }
        }
      else
        {
          state = 2;
          reason = g_strdup_printf (_("PLplot could not open its cairo device: %s. Install the PLplot cairo driver (Debian: plplot-driver-cairo)."),
                                    probe_error != NULL ? g_strstrip (probe_error) : "?");
        }
      probing = FALSE;
    }

  if (state == 2)
    {
      g_set_error_literal (error, XRLAB_PLOT_ERROR, XRLAB_PLOT_ERROR_NO_DRIVER, reason);
      return FALSE;
    }
  return TRUE;
}

/* ---- small helpers ---------------------------------------------------------- */

static void
set_color (int index, const GdkRGBA *c)
{
  plscol0a (index,
            (PLINT) lround (CLAMP (c->red, 0, 1) * 255),
            (PLINT) lround (CLAMP (c->green, 0, 1) * 255),
            (PLINT) lround (CLAMP (c->blue, 0, 1) * 255),
            CLAMP (c->alpha, 0, 1));
}

/* Series colours are chosen for a white background; on the dark one the
 * darker ones are lifted so they keep their contrast. */
static GdkRGBA
series_color (const GdkRGBA *c, gboolean dark, gboolean stale)
{
  GdkRGBA out = *c;

  if (dark)
    {
      double lum = 0.2126 * c->red + 0.7152 * c->green + 0.0722 * c->blue;
      if (lum < 0.45)
        {
          double t = MIN (0.45, (0.45 - lum) * 1.2);
          out.red += (1 - out.red) * t;
          out.green += (1 - out.green) * t;
          out.blue += (1 - out.blue) * t;
        }
    }
  if (stale)
    out.alpha *= 0.55;
  return out;
}

/* Escapes PLplot's text escape character. */
static char *
pl_escape (const char *text)
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

/* Text as it will be displayed, without PLplot escapes, for measuring. */
static void
strip_escapes (const char *text, char *out, gsize out_size)
{
  gsize j = 0;

  for (const char *p = text; *p != '\0' && j + 1 < out_size; p++)
    {
      if (p[0] == '#' && (p[1] == 'u' || p[1] == 'd'))
        {
          p++;
          continue;
        }
      if (p[0] == '#' && p[1] == '#')
        p++;
      out[j++] = *p;
    }
  out[j] = '\0';
}

static double
text_width (PangoLayout *layout, const char *pl_text)
{
  char plain[256];
  int w, h;

  strip_escapes (pl_text, plain, sizeof plain);
  pango_layout_set_text (layout, plain, -1);
  pango_layout_get_pixel_size (layout, &w, &h);
  return w;
}

static void
set_layout_font (PangoLayout *layout, double pt)
{
  PangoFontDescription *desc = pango_font_description_from_string ("sans");

  pango_font_description_set_size (desc, (int) (pt * PANGO_SCALE));
  pango_layout_set_font_description (layout, desc);
  pango_font_description_free (desc);
}

/* ---- data ranges ------------------------------------------------------------ */

static gboolean
usable (double v, gboolean log)
{
  return isfinite (v) && (!log || v > 0);
}

static gboolean
data_ranges (XrlabPlot *self,
             double *x0, double *x1, double *y0, double *y1)
{
  double xmin = INFINITY, xmax = -INFINITY, ymin = INFINITY, ymax = -INFINITY;
  guint ns;

  if (self->data == NULL)
    return FALSE;
  ns = xrlab_plot_data_get_n_series (self->data);
  for (guint s = 0; s < ns; s++)
    {
      const XrlabPlotSeries *ser = xrlab_plot_data_get_series (self->data, s);
      for (gsize i = 0; i < ser->n; i++)
        {
          if (!usable (ser->x[i], self->x_log))
            continue;
          xmin = MIN (xmin, ser->x[i]);
          xmax = MAX (xmax, ser->x[i]);
          double y = xrlab_plot_series_y (ser, i);
          if (!usable (y, self->y_log))
            continue;
          ymin = MIN (ymin, y);
          ymax = MAX (ymax, y);
        }
    }
  if (!(xmin <= xmax) || !(ymin <= ymax))
    return FALSE;

  if (self->x_log)
    {
      xmin = log10 (xmin);
      xmax = log10 (xmax);
    }
  if (self->y_log)
    {
      ymin = log10 (ymin);
      ymax = log10 (ymax);
    }
  if (xmax - xmin < 1e-12 * MAX (1.0, fabs (xmax)))
    {
      double pad = self->x_log ? 0.1 : MAX (fabs (xmin) * 0.05, 1e-12);
      xmin -= pad;
      xmax += pad;
    }
  if (ymax - ymin < 1e-12 * MAX (1e-300, fabs (ymax)))
    {
      double pad = self->y_log ? 0.5 : (ymin != 0 ? fabs (ymin) * 0.5 : 1.0);
      ymin -= pad;
      ymax += pad;
    }
  else
    {
      double pad = (ymax - ymin) * 0.045;
      ymin -= pad;
      ymax += pad;
    }
  *x0 = xmin;
  *x1 = xmax;
  *y0 = ymin;
  *y1 = ymax;
  return TRUE;
}

/* ---- PLplot stream ------------------------------------------------------------ */

static void
ensure_stream (XrlabPlot *self, int width, int height)
{
  if (self->stream >= 0 && self->stream_width == width && self->stream_height == height)
    {
      plsstrm (self->stream);
      return;
    }
  if (self->stream >= 0)
    {
      plsstrm (self->stream);
      plend1 ();                   /* frees the stream and selects stream 0 */
      plsstrm (self->stream);      /* allocates it again */
    }
  else
    plmkstrm (&self->stream);

  plsdev ("extcairo");
  plspage (0, 0, width, height, 0, 0);
  plspause (0);
  plscmap0n (COL_SERIES0 + 8);
  plinit ();
  self->stream_width = width;
  self->stream_height = height;
}

static void
end_stream (XrlabPlot *self)
{
  if (self->stream < 0)
    return;
  plsstrm (self->stream);
  plend1 ();
  self->stream = -1;
}

/* ---- the chart ---------------------------------------------------------------- */

static char *
axis_title (const char *name, const char *unit)
{
  g_autofree char *n = pl_escape (name != NULL ? name : "");
  g_autofree char *u = pl_escape (unit != NULL ? unit : "");

  if (u[0] == '\0')
    return g_steal_pointer (&n);
  return g_strdup_printf ("%s (%s)", n, u);
}

static void
ensure_work (XrlabPlot *self, gsize n)
{
  if (self->work_len >= n)
    return;
  self->wx = g_renew (double, self->wx, n);
  self->wy = g_renew (double, self->wy, n);
  self->work_len = n;
}

static void
draw_message (cairo_t *cr, int width, int height, const Palette *pal, const char *text)
{
  PangoLayout *layout;
  int w, h;

  if (text == NULL || *text == '\0')
    return;
  layout = pango_cairo_create_layout (cr);
  set_layout_font (layout, 12);
  pango_layout_set_width (layout, (int) (MAX (width - 48, 50) * PANGO_SCALE));
  pango_layout_set_alignment (layout, PANGO_ALIGN_CENTER);
  pango_layout_set_wrap (layout, PANGO_WRAP_WORD_CHAR);
  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &w, &h);
  cairo_move_to (cr, 24, (height - h) / 2.0);
  gdk_cairo_set_source_rgba (cr, &pal->muted);
  pango_cairo_show_layout (cr, layout);
  g_object_unref (layout);
}

/* Draws the polyline of one series, split at gaps (NaN, or <= 0 on a log
 * axis), in world coordinates. */
static void
draw_series (XrlabPlot *self, const XrlabPlotSeries *s)
{
  gsize m = 0;

  ensure_work (self, s->n);
  for (gsize i = 0; i <= s->n; i++)
    {
      double y = i < s->n ? xrlab_plot_series_y (s, i) : NAN;
      gboolean ok = i < s->n && usable (s->x[i], self->x_log) && usable (y, self->y_log);
      if (ok)
        {
          self->wx[m] = self->x_log ? log10 (s->x[i]) : s->x[i];
          self->wy[m] = self->y_log ? log10 (y) : y;
          m++;
          continue;
        }
      if (m == 1)
        plpoin (1, self->wx, self->wy, 1);    /* an isolated point */
      else if (m > 1)
        plline ((PLINT) m, self->wx, self->wy);
      m = 0;
    }
}

/* Draws the tick marks of one side set; @len_major/@len_minor in world units
 * of the other axis. */
static void
draw_ticks_x (const XrlabPlotTicks *axis, double y0, double y1, double len_major, double len_minor)
{
  for (guint i = 0; i < axis->n; i++)
    {
      double l = axis->ticks[i].major ? len_major : len_minor;
      pljoin (axis->ticks[i].pos, y0, axis->ticks[i].pos, y0 + l);
      pljoin (axis->ticks[i].pos, y1, axis->ticks[i].pos, y1 - l);
    }
}

static void
draw_ticks_y (const XrlabPlotTicks *axis, double x0, double x1, double len_major, double len_minor)
{
  for (guint i = 0; i < axis->n; i++)
    {
      double l = axis->ticks[i].major ? len_major : len_minor;
      pljoin (x0, axis->ticks[i].pos, x0 + l, axis->ticks[i].pos);
      pljoin (x1, axis->ticks[i].pos, x1 - l, axis->ticks[i].pos);
    }
}

typedef struct {
  double x;            /* world */
  const char *label;
} VisibleMarker;

static int
compare_visible_marker (gconstpointer a, gconstpointer b)
{
  const VisibleMarker *ma = a, *mb = b;
  return (ma->x > mb->x) - (ma->x < mb->x);
}

/* The inside corner of the plot area whose legend box (@w x @h pixels,
 * inset 12 px) covers the fewest data points; top right on a tie. */
static PLINT
choose_legend_corner (XrlabPlot *self, double left, double top, double plot_w, double plot_h,
                      double x0, double x1, double y0, double y1, double w, double h,
                      gboolean *at_right, gboolean *at_top)
{
  static const struct { gboolean right, top; PLINT pos; } corners[] = {
    { TRUE, TRUE, PL_POSITION_TOP | PL_POSITION_RIGHT },
    { FALSE, TRUE, PL_POSITION_TOP | PL_POSITION_LEFT },
    { TRUE, FALSE, PL_POSITION_BOTTOM | PL_POSITION_RIGHT },
    { FALSE, FALSE, PL_POSITION_BOTTOM | PL_POSITION_LEFT },
  };
  guint counts[4] = { 0 };
  guint ns = xrlab_plot_data_get_n_series (self->data);
  guint best = 0;

  for (guint s = 0; s < ns; s++)
    {
      const XrlabPlotSeries *ser = xrlab_plot_data_get_series (self->data, s);
      for (gsize i = 0; i < ser->n; i++)
        {
          double y = xrlab_plot_series_y (ser, i), px, py;
          if (!usable (ser->x[i], self->x_log) || !usable (y, self->y_log))
            continue;
          px = left + ((self->x_log ? log10 (ser->x[i]) : ser->x[i]) - x0) / (x1 - x0) * plot_w;
          py = top + (y1 - (self->y_log ? log10 (y) : y)) / (y1 - y0) * plot_h;
          for (guint c = 0; c < 4; c++)
            {
              double bx0 = corners[c].right ? left + plot_w - 12 - w : left + 12;
              double by0 = corners[c].top ? top + 12 : top + plot_h - 12 - h;
              if (px >= bx0 && px <= bx0 + w && py >= by0 && py <= by0 + h)
                counts[c]++;
            }
        }
    }
  for (guint c = 1; c < 4; c++)
    if (counts[c] < counts[best])
      best = c;
  *at_right = corners[best].right;
  *at_top = corners[best].top;
  return corners[best].pos | PL_POSITION_INSIDE;
}

static gboolean
render_chart (XrlabPlot  *self,
              cairo_t    *cr,
              int         width,
              int         height,
              gboolean    dark,
              Frame      *frame_out,
              GError    **error)
{
  const Palette *pal = dark ? &dark_palette : &light_palette;
  double x0, x1, y0, y1;
  double left, right, top, bottom, em_tick, em_label, em_marker;
  double legend_w = 0, legend_h = 0;
  gboolean legend_right = TRUE, legend_top = TRUE;
  double plot_w, plot_h;
  XrlabPlotTicks *xa = NULL, *ya = NULL;
  PangoLayout *measure;
  guint ns, n_rows = 0;
  g_autofree char *x_title = NULL;
  g_autofree char *y_title = NULL;
  g_autoptr(GArray) vis = NULL;
  int *row_of = NULL;
  GError *local_error = NULL;

  if (frame_out != NULL)
    frame_out->valid = FALSE;

  cairo_save (cr);
  gdk_cairo_set_source_rgba (cr, &pal->bg);
  cairo_paint (cr);
  cairo_restore (cr);

  if (!xrlab_plot_check_driver (&local_error))
    {
      draw_message (cr, width, height, pal, local_error->message);
      g_propagate_error (error, local_error);
      return FALSE;
    }

  if (width < 120 || height < 90)
    return TRUE;

  if (!data_ranges (self, &x0, &x1, &y0, &y1))
    {
      const char *msg = self->message;
      if (self->data != NULL && xrlab_plot_data_get_n_series (self->data) > 0)
        msg = self->y_log ? _("Nothing to draw: no positive finite values for a logarithmic axis.")
                          : _("Nothing to draw: no finite values.");
      draw_message (cr, width, height, pal, msg);
      return TRUE;
    }

  ns = xrlab_plot_data_get_n_series (self->data);
  x_title = axis_title (self->x_name, self->x_unit);
  y_title = axis_title (self->y_name, self->y_unit);

  em_tick = PT_TO_PX (TICK_PT);
  em_label = PT_TO_PX (LABEL_PT);
  em_marker = PT_TO_PX (MARKER_PT);

  xa = g_new0 (XrlabPlotTicks, 1);
  ya = g_new0 (XrlabPlotTicks, 1);

  /* First estimate of the plot area to choose tick densities. */
  plot_w = width - 90.0;
  plot_h = height - 70.0;
  if (self->x_log)
    xrlab_plot_ticks_log (xa, x0, x1, MAX (2.0, plot_w / (em_tick * 4.5)));
  else
    xrlab_plot_ticks_linear (xa, x0, x1, MAX (2.0, plot_w / (em_tick * 6.5)), FALSE, TRUE);
  if (self->y_log)
    xrlab_plot_ticks_log (ya, y0, y1, MAX (2.0, plot_h / (em_tick * 3.2)));
  else
    xrlab_plot_ticks_linear (ya, y0, y1, MAX (2.0, plot_h / (em_tick * 5.0)), FALSE, TRUE);

  /* Margins from measured labels. */
  measure = pango_cairo_create_layout (cr);
  set_layout_font (measure, TICK_PT);
  {
    double max_w = 0;
    for (guint i = 0; i < ya->n; i++)
      if (ya->ticks[i].label[0] != '\0')
        max_w = MAX (max_w, text_width (measure, ya->ticks[i].label));
    left = 10 + em_label + 10 + max_w + 7;
  }
  bottom = 7 + em_tick + 8 + em_label + 8;
  right = 18;
  {
    /* Room for half of the last x label. */
    for (guint i = 0; i < xa->n; i++)
      if (xa->ticks[i].label[0] != '\0' && fabs (xa->ticks[i].pos - x1) < 1e-9 * MAX (1, fabs (x1)))
        right = MAX (right, text_width (measure, xa->ticks[i].label) / 2 + 4);
  }

  /* Marker labels: above the plot area, in as many rows as they need. */
  vis = g_array_new (FALSE, FALSE, sizeof (VisibleMarker));
  if (self->show_markers)
    for (guint i = 0; i < self->markers->len; i++)
      {
        const XrlabPlotMarker *m = &g_array_index (self->markers, XrlabPlotMarker, i);
        VisibleMarker v;
        if (!usable (m->x, self->x_log))
          continue;
        v.x = self->x_log ? log10 (m->x) : m->x;
        if (v.x < x0 || v.x > x1)
          continue;
        v.label = m->label;
        g_array_append_val (vis, v);
      }
  g_array_sort (vis, compare_visible_marker);

  top = 12;
  if (ya->exponent != 0)
    top = MAX (top, em_tick + 8);
  plot_w = width - left - right;

  if (vis->len > 0)
    {
      /* Greedy row assignment: a label goes into the first row where it does
       * not overlap the previous one; at most three rows, the rest unlabelled. */
      double row_end[3] = { -INFINITY, -INFINITY, -INFINITY };
      set_layout_font (measure, MARKER_PT);
      row_of = g_new (int, vis->len);
      for (guint i = 0; i < vis->len; i++)
        {
          VisibleMarker *v = &g_array_index (vis, VisibleMarker, i);
          g_autofree char *esc = pl_escape (v->label != NULL ? v->label : "");
          double w = text_width (measure, esc) + 6;
          double px = left + (v->x - x0) / (x1 - x0) * plot_w;
          row_of[i] = -1;
          for (int r = 0; r < 3; r++)
            if (px - w / 2 > row_end[r])
              {
                row_of[i] = r;
                row_end[r] = px + w / 2;
                n_rows = MAX (n_rows, (guint) r + 1);
                break;
              }
        }
      top = MAX (top, 6 + n_rows * (em_marker + 3) + 4);
    }
  g_object_unref (measure);

  plot_w = width - left - right;
  plot_h = height - top - bottom;
  if (plot_w < 40 || plot_h < 30)
    {
      g_free (xa);
      g_free (ya);
      g_free (row_of);
      return TRUE;
    }

  /* ---- PLplot ---- */
  ensure_stream (self, width, height);
  cairo_save (cr);
  pl_cmd (PLESC_DEVINIT, cr);
  pladv (0);

  plscmap0n (COL_SERIES0 + MAX (ns, 1));
  set_color (COL_BG, &pal->bg);
  set_color (COL_FG, &pal->fg);
  set_color (COL_MUTED, &pal->muted);
  set_color (COL_FRAME, &pal->frame);
  set_color (COL_GRID, &pal->grid);
  set_color (COL_MARKER, &pal->marker);
  set_color (COL_LEGEND_BG, &pal->legend_bg);
  set_color (COL_WATERMARK, &pal->watermark);
  for (guint s = 0; s < ns; s++)
    {
      const XrlabPlotSeries *ser = xrlab_plot_data_get_series (self->data, s);
      GdkRGBA c = series_color (&ser->color, dark, ser->stale);
      set_color (COL_SERIES0 + s, &c);
    }

  plvpor (left / width, 1.0 - right / width, bottom / height, 1.0 - top / height);
  plwind (x0, x1, y0, y1);

  /* grid */
  plcol0 (COL_GRID);
  plwidth (1.0);
  pllsty (1);
  for (guint i = 0; i < xa->n; i++)
    if (xa->ticks[i].major)
      pljoin (xa->ticks[i].pos, y0, xa->ticks[i].pos, y1);
  for (guint i = 0; i < ya->n; i++)
    if (ya->ticks[i].major)
      pljoin (x0, ya->ticks[i].pos, x1, ya->ticks[i].pos);

  /* edge markers */
  if (vis->len > 0)
    {
      PLINT mark = 1500, space = 1200;
      plcol0 (COL_MARKER);
      plwidth (1.0);
      plstyl (1, &mark, &space);
      for (guint i = 0; i < vis->len; i++)
        {
          double x = g_array_index (vis, VisibleMarker, i).x;
          pljoin (x, y0, x, y1);
        }
      plstyl (0, NULL, NULL);
    }

  /* curves: stale ones first, so valid curves are drawn over them */
  for (int pass = 0; pass < 2; pass++)
    for (guint s = 0; s < ns; s++)
      {
        const XrlabPlotSeries *ser = xrlab_plot_data_get_series (self->data, s);
        if (ser->stale != (pass == 0))
          continue;
        plcol0 (COL_SERIES0 + s);
        plwidth (self->line_width);
        if (ser->stale)
          {
            PLINT mark = 2500, space = 1800;
            plstyl (1, &mark, &space);
          }
        draw_series (self, ser);
        if (ser->stale)
          plstyl (0, NULL, NULL);
      }

  /* frame and ticks */
  {
    double tx_major = (y1 - y0) * 5.0 / plot_h, tx_minor = (y1 - y0) * 2.5 / plot_h;
    double ty_major = (x1 - x0) * 5.0 / plot_w, ty_minor = (x1 - x0) * 2.5 / plot_w;
    plcol0 (COL_FRAME);
    plwidth (1.0);
    draw_ticks_x (xa, y0, y1, tx_major, tx_minor);
    draw_ticks_y (ya, x0, x1, ty_major, ty_minor);
    plbox ("bc", 0, 0, "bc", 0, 0);
  }

  /* tick labels (plmtex: displacement in character heights, position as a
   * fraction of the side) */
  plcol0 (COL_FG);
  plschr (PT_TO_MM (TICK_PT), 1.0);
  {
    double chr_px = TICK_PT;      /* PLplot character height in page units */
    for (guint i = 0; i < xa->n; i++)
      if (xa->ticks[i].label[0] != '\0')
        plmtex ("b", (7 + em_tick / 2) / chr_px,
                (xa->ticks[i].pos - x0) / (x1 - x0), 0.5, xa->ticks[i].label);
    for (guint i = 0; i < ya->n; i++)
      if (ya->ticks[i].label[0] != '\0')
        plmtex ("lv", 7 / chr_px, (ya->ticks[i].pos - y0) / (y1 - y0), 1.0, ya->ticks[i].label);

    plcol0 (COL_MUTED);
    if (xa->exponent != 0)
      {
        char e[48];
        g_snprintf (e, sizeof e, "×10#u%d#d", xa->exponent);
        plmtex ("b", (7 + em_tick * 1.5 + 8) / chr_px, 1.0, 1.0, e);
      }
    if (ya->exponent != 0)
      {
        char e[48];
        g_snprintf (e, sizeof e, "×10#u%d#d", ya->exponent);
        plmtex ("t", (em_tick / 2 + 4) / chr_px, 0.0, 0.0, e);
      }
  }

  /* axis titles */
  plcol0 (COL_FG);
  plschr (PT_TO_MM (LABEL_PT), 1.0);
  plmtex ("b", (bottom - 8 - em_label / 2) / LABEL_PT, 0.5, 0.5, x_title);
  plmtex ("l", (left - 10 - em_label / 2) / LABEL_PT, 0.5, 0.5, y_title);

  /* marker labels */
  if (vis->len > 0)
    {
      plcol0 (COL_MUTED);
      plschr (PT_TO_MM (MARKER_PT), 1.0);
      for (guint i = 0; i < vis->len; i++)
        {
          VisibleMarker *v = &g_array_index (vis, VisibleMarker, i);
          g_autofree char *esc = NULL;
          if (row_of[i] < 0)
            continue;
          esc = pl_escape (v->label != NULL ? v->label : "");
          plmtex ("t", (4 + em_marker / 2 + row_of[i] * (em_marker + 3)) / MARKER_PT,
                  (v->x - x0) / (x1 - x0), 0.5, esc);
        }
    }

  /* legend */
  legend_w = legend_h = 0;
  if (self->show_legend && ns > 0)
    {
      PLINT *opts = g_new (PLINT, ns), *text_colors = g_new (PLINT, ns);
      PLINT *line_colors = g_new (PLINT, ns), *line_styles = g_new (PLINT, ns);
      PLFLT *line_widths = g_new (PLFLT, ns);
      char **texts = g_new0 (char *, ns);
      PLFLT lw, lh;
      PLINT position;

      for (guint s = 0; s < ns; s++)
        {
          const XrlabPlotSeries *ser = xrlab_plot_data_get_series (self->data, s);
          g_autofree char *esc = pl_escape (ser->label);
          opts[s] = PL_LEGEND_LINE;
          text_colors[s] = COL_FG;
          line_colors[s] = COL_SERIES0 + s;
          line_styles[s] = ser->stale ? 2 : 1;
          line_widths[s] = MAX (self->line_width, 2.0);
          texts[s] = ser->stale ? g_strdup_printf (_("%s (last valid)"), esc) : g_steal_pointer (&esc);
        }
      /* Where the legend hides the least data: its size estimated from
       * the labels (PLplot: rows 1.9 character heights apart, a line sample
       * of 7 % of the plot width, text 0.9 characters after it). */
      {
        PangoLayout *l = pango_cairo_create_layout (cr);
        double max_text = 0;
        set_layout_font (l, LEGEND_PT);
        for (guint s = 0; s < ns; s++)
          max_text = MAX (max_text, text_width (l, texts[s]));
        g_object_unref (l);
        position = choose_legend_corner (self, left, top, plot_w, plot_h, x0, x1, y0, y1,
                                         0.07 * plot_w + 0.9 * LEGEND_PT + max_text + 2 * LEGEND_PT,
                                         ns * 1.9 * LEGEND_PT + LEGEND_PT,
                                         &legend_right, &legend_top);
      }
      plschr (PT_TO_MM (LEGEND_PT), 1.0);
      pllegend (&lw, &lh,
                PL_LEGEND_BACKGROUND | PL_LEGEND_BOUNDING_BOX,
                position,
                12.0 / plot_w, 12.0 / plot_h, 0.07,
                COL_LEGEND_BG, COL_GRID, 1,
                0, 0, (PLINT) ns,
                opts, 0.9, 1.0, 1.9, 0.0,
                text_colors, (const char * const *) texts,
                NULL, NULL, NULL, NULL,
                line_colors, line_styles, line_widths,
                NULL, NULL, NULL, NULL);
      legend_w = lw * plot_w;
      legend_h = lh * plot_h;
      for (guint s = 0; s < ns; s++)
        g_free (texts[s]);
      g_free (texts);
      g_free (opts);
      g_free (text_colors);
      g_free (line_colors);
      g_free (line_styles);
      g_free (line_widths);
    }

  /* watermark */
  if (self->watermark != NULL && self->watermark[0] != '\0')
    {
      g_autofree char *esc = pl_escape (self->watermark);
      plcol0 (COL_WATERMARK);
      plschr (PT_TO_MM (MIN (18.0, MAX (9.0, plot_w / 45.0))), 1.0);
      plptex (x0 + (x1 - x0) * 0.5, y0 + (y1 - y0) * 0.12, 1.0, 0.0, 0.5, esc);
    }

  cairo_restore (cr);

  if (frame_out != NULL)
    {
      frame_out->valid = TRUE;
      frame_out->px0 = left;
      frame_out->px1 = width - right;
      frame_out->py0 = top;
      frame_out->py1 = height - bottom;
      frame_out->wx0 = x0;
      frame_out->wx1 = x1;
      frame_out->wy0 = y0;
      frame_out->wy1 = y1;
      frame_out->x_log = self->x_log;
      frame_out->y_log = self->y_log;
      frame_out->lx0 = legend_right ? width - right - 12 - legend_w : left + 12;
      frame_out->lx1 = frame_out->lx0 + legend_w;
      frame_out->ly0 = legend_top ? top + 12 : height - bottom - 12 - legend_h;
      frame_out->ly1 = frame_out->ly0 + legend_h;
    }

  g_free (row_of);
  g_free (xa);
  g_free (ya);
  return TRUE;
}

/* ---- crosshair ---------------------------------------------------------------- */

static double
frame_x_to_px (const Frame *f, double x)
{
  double w = f->x_log ? log10 (x) : x;
  return f->px0 + (w - f->wx0) / (f->wx1 - f->wx0) * (f->px1 - f->px0);
}

static double
frame_px_to_x (const Frame *f, double px)
{
  double w = f->wx0 + (px - f->px0) / (f->px1 - f->px0) * (f->wx1 - f->wx0);
  return f->x_log ? pow (10, w) : w;
}

static double
frame_y_to_py (const Frame *f, double y)
{
  double w;
  if (!usable (y, f->y_log))
    return NAN;
  w = f->y_log ? log10 (y) : y;
  return f->py1 - (w - f->wy0) / (f->wy1 - f->wy0) * (f->py1 - f->py0);
}

/* "1.234×10<sup>−5</sup>" (markup) or plain "%.4g". */
static char *
format_value_markup (double v)
{
  double a = fabs (v);

  if (!isfinite (v))
    return g_strdup ("—");
  if (a != 0 && (a < 1e-3 || a >= 1e5))
    {
      int e = (int) floor (log10 (a));
      double m = v / pow (10, e);
      if (fabs (m) >= 9.9995)
        {
          m /= 10;
          e++;
        }
      return g_strdup_printf ("%s%.4g×10<sup>%s%d</sup>", m < 0 ? "−" : "", fabs (m),
                              e < 0 ? "−" : "", ABS (e));
    }
  if (v < 0)
    return g_strdup_printf ("−%.4g", -v);
  return g_strdup_printf ("%.4g", v);
}

static char *
format_value_plain (double v)
{
  if (!isfinite (v))
    return g_strdup ("—");
  return g_strdup_printf ("%.6g", v);
}

static void
draw_crosshair (XrlabPlot *self, cairo_t *cr, int width, int height, const Palette *pal)
{
  const Frame *f = &self->frame;
  double px, box_x, box_y, box_w, box_h, line_h;
  guint ns;
  GPtrArray *layouts;
  PangoLayout *head;
  int w, h;
  g_autofree char *xv = NULL;
  g_autofree char *head_markup = NULL;

  if (!f->valid || !isfinite (self->cross_x) || self->data == NULL)
    return;
  px = frame_x_to_px (f, self->cross_x);
  if (!(px >= f->px0 - 0.5 && px <= f->px1 + 0.5))
    return;

  /* vertical line */
  cairo_save (cr);
  cairo_set_line_width (cr, 1.0);
  cairo_set_source_rgba (cr, pal->fg.red, pal->fg.green, pal->fg.blue, 0.45);
  cairo_move_to (cr, floor (px) + 0.5, f->py0);
  cairo_line_to (cr, floor (px) + 0.5, f->py1);
  cairo_stroke (cr);

  ns = xrlab_plot_data_get_n_series (self->data);

  /* dots where the line meets each curve */
  for (guint s = 0; s < ns; s++)
    {
      const XrlabPlotSeries *ser = xrlab_plot_data_get_series (self->data, s);
      double y = xrlab_plot_series_value_at (ser, self->cross_x, f->x_log);
      double py = frame_y_to_py (f, y);
      GdkRGBA c = series_color (&ser->color, self->dark, ser->stale);
      if (!isfinite (py) || py < f->py0 || py > f->py1)
        continue;
      cairo_arc (cr, px, py, 3.5, 0, 2 * G_PI);
      gdk_cairo_set_source_rgba (cr, &pal->bg);
      cairo_fill_preserve (cr);
      gdk_cairo_set_source_rgba (cr, &c);
      cairo_set_line_width (cr, 2.0);
      cairo_stroke (cr);
    }

  /* readout box */
  layouts = g_ptr_array_new_with_free_func (g_object_unref);
  head = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  xv = format_value_markup (self->cross_x);
  {
    g_autofree char *unit = g_markup_escape_text (self->x_unit != NULL ? self->x_unit : "", -1);
    head_markup = g_strdup_printf ("<b>%s %s</b>", xv, unit);
  }
  pango_layout_set_markup (head, head_markup, -1);
  pango_layout_get_pixel_size (head, &w, &h);
  box_w = w;
  box_h = h;
  line_h = h;
  for (guint s = 0; s < ns; s++)
    {
      const XrlabPlotSeries *ser = xrlab_plot_data_get_series (self->data, s);
      double y = xrlab_plot_series_value_at (ser, self->cross_x, f->x_log);
      g_autofree char *val = format_value_markup (y);
      g_autofree char *label = g_markup_escape_text (ser->label, -1);
      g_autofree char *markup = NULL;
      PangoLayout *l = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
      markup = g_strdup_printf ("%s  <span font_features=\"tnum\">%s</span>%s%s%s", label, val,
                                ser->stale ? "  <span alpha=\"60%\">" : "",
                                /* TRANSLATORS: crosshair readout of a stale curve */
                                ser->stale ? _("(last valid)") : "",
                                ser->stale ? "</span>" : "");
      pango_layout_set_markup (l, markup, -1);
      pango_layout_get_pixel_size (l, &w, &h);
      box_w = MAX (box_w, w + 16);
      box_h += h;
      g_ptr_array_add (layouts, l);
    }
  box_w += 16;
  box_h += 12;
  box_x = px + 12;
  if (box_x + box_w > f->px1)
    box_x = px - 12 - box_w;
  box_x = MAX (box_x, 2);
  /* Next to the pointer, inside the plot area, clear of the legend. */
  box_y = isfinite (self->cross_py) ? self->cross_py + 16 : f->py0 + (f->py1 - f->py0) * 0.45;
  if (box_y + box_h > f->py1)
    box_y = (isfinite (self->cross_py) ? self->cross_py - 16 : f->py1) - box_h;
  box_y = CLAMP (box_y, f->py0 + 4, MAX (f->py0 + 4, f->py1 - box_h - 4));
  if (f->lx1 > f->lx0 && box_x < f->lx1 && box_x + box_w > f->lx0 &&
      box_y < f->ly1 && box_y + box_h > f->ly0)
    box_y = f->ly1 + 6;

  cairo_rectangle (cr, box_x, box_y, box_w, box_h);
  cairo_set_source_rgba (cr, pal->legend_bg.red, pal->legend_bg.green, pal->legend_bg.blue, 0.94);
  cairo_fill_preserve (cr);
  cairo_set_source_rgba (cr, pal->fg.red, pal->fg.green, pal->fg.blue, 0.18);
  cairo_set_line_width (cr, 1);
  cairo_stroke (cr);

  gdk_cairo_set_source_rgba (cr, &pal->fg);
  cairo_move_to (cr, box_x + 8, box_y + 6);
  pango_cairo_show_layout (cr, head);
  {
    double y = box_y + 6 + line_h;
    for (guint s = 0; s < ns; s++)
      {
        const XrlabPlotSeries *ser = xrlab_plot_data_get_series (self->data, s);
        PangoLayout *l = g_ptr_array_index (layouts, s);
        GdkRGBA c = series_color (&ser->color, self->dark, ser->stale);
        pango_layout_get_pixel_size (l, &w, &h);
        gdk_cairo_set_source_rgba (cr, &c);
        cairo_rectangle (cr, box_x + 8, y + h / 2.0 - 4, 9, 9);
        cairo_fill (cr);
        gdk_cairo_set_source_rgba (cr, &pal->fg);
        cairo_move_to (cr, box_x + 24, y);
        pango_cairo_show_layout (cr, l);
        y += h;
      }
  }
  g_object_unref (head);
  g_ptr_array_unref (layouts);
  cairo_restore (cr);
  (void) width;
  (void) height;
}

static void
draw_overlay_text (XrlabPlot *self, cairo_t *cr, int width, int height, const Palette *pal)
{
  PangoLayout *l;
  PangoFontDescription *desc;
  int w, h;

  if (self->overlay_text == NULL || self->overlay_text[0] == '\0')
    return;
  l = gtk_widget_create_pango_layout (GTK_WIDGET (self), self->overlay_text);
  desc = pango_font_description_from_string ("monospace 8");
  pango_layout_set_font_description (l, desc);
  pango_font_description_free (desc);
  pango_layout_get_pixel_size (l, &w, &h);
  /* Bottom left of the plot area (where falling curves leave room), or of
   * the widget before the first frame. */
  {
    double x0 = self->frame.valid ? self->frame.px0 + 6 : 6;
    double y0 = (self->frame.valid ? self->frame.py1 - 6 : height - 6) - h;
    cairo_save (cr);
    cairo_rectangle (cr, x0 - 4, y0 - 3, w + 8, h + 6);
    cairo_set_source_rgba (cr, pal->bg.red, pal->bg.green, pal->bg.blue, 0.88);
    cairo_fill (cr);
    gdk_cairo_set_source_rgba (cr, &pal->muted);
    cairo_move_to (cr, x0, y0);
  }
  pango_cairo_show_layout (cr, l);
  cairo_restore (cr);
  g_object_unref (l);
}

/* ---- widget drawing -------------------------------------------------------------- */

static void
xrlab_plot_draw (GtkDrawingArea *area,
                 cairo_t        *cr,
                 int             width,
                 int             height,
                 gpointer        user_data)
{
  XrlabPlot *self = XRLAB_PLOT (area);
  const Palette *pal = self->dark ? &dark_palette : &light_palette;
  int scale = gtk_widget_get_scale_factor (GTK_WIDGET (self));

  if (self->cache != NULL &&
      (cairo_image_surface_get_width (self->cache) != width * scale ||
       cairo_image_surface_get_height (self->cache) != height * scale))
    {
      g_clear_pointer (&self->cache, cairo_surface_destroy);
      self->dirty = TRUE;
    }

  if (self->cache == NULL || self->dirty)
    {
      cairo_t *ccr;
      double t0 = xrlab_now ();

      if (self->cache == NULL)
        {
          self->cache = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width * scale, height * scale);
          cairo_surface_set_device_scale (self->cache, scale, scale);
        }
      ccr = cairo_create (self->cache);
      render_chart (self, ccr, width, height, self->dark, &self->frame, NULL);
      cairo_destroy (ccr);
      cairo_surface_flush (self->cache);
      self->dirty = FALSE;
      self->render_count++;
      self->last_render_ms = (xrlab_now () - t0) * 1e3;
      if (self->data_set_time > 0)
        {
          self->data_to_frame_ms = (xrlab_now () - self->data_set_time) * 1e3;
          self->data_set_time = 0;
        }
      g_signal_emit (self, signals[SIGNAL_RENDERED], 0, self->last_render_ms);
    }

  cairo_set_source_surface (cr, self->cache, 0, 0);
  cairo_paint (cr);
  draw_crosshair (self, cr, width, height, pal);
  draw_overlay_text (self, cr, width, height, pal);
}

static void
invalidate (XrlabPlot *self)
{
  self->dirty = TRUE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_motion (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           XrlabPlot                *self)
{
  const Frame *f = &self->frame;
  double cx = NAN;

  if (f->valid && x >= f->px0 && x <= f->px1 && y >= f->py0 && y <= f->py1)
    cx = frame_px_to_x (f, x);
  if (isnan (cx) && isnan (self->cross_x))
    return;
  self->cross_x = cx;
  self->cross_py = isnan (cx) ? NAN : y;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_leave (GtkEventControllerMotion *controller,
          XrlabPlot                *self)
{
  if (isnan (self->cross_x))
    return;
  self->cross_x = NAN;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_dark_changed (AdwStyleManager *manager,
                 GParamSpec      *pspec,
                 XrlabPlot       *self)
{
  if (self->follow_style)
    xrlab_plot_set_dark (self, adw_style_manager_get_dark (manager));
}

/* ---- GObject ---------------------------------------------------------------------- */

static void
clear_marker (gpointer p)
{
  XrlabPlotMarker *m = p;
  g_clear_pointer (&m->label, g_free);
}

static void
xrlab_plot_dispose (GObject *object)
{
  XrlabPlot *self = XRLAB_PLOT (object);

  if (self->style_handler != 0)
    {
      g_clear_signal_handler (&self->style_handler, adw_style_manager_get_default ());
    }
  end_stream (self);
  g_clear_pointer (&self->cache, cairo_surface_destroy);
  g_clear_pointer (&self->data, xrlab_plot_data_unref);

  G_OBJECT_CLASS (xrlab_plot_parent_class)->dispose (object);
}

static void
xrlab_plot_finalize (GObject *object)
{
  XrlabPlot *self = XRLAB_PLOT (object);

  g_free (self->x_name);
  g_free (self->x_unit);
  g_free (self->y_name);
  g_free (self->y_unit);
  g_free (self->watermark);
  g_free (self->message);
  g_free (self->overlay_text);
  g_array_unref (self->markers);
  g_free (self->wx);
  g_free (self->wy);

  G_OBJECT_CLASS (xrlab_plot_parent_class)->finalize (object);
}

static void
xrlab_plot_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  XrlabPlot *self = XRLAB_PLOT (object);

  switch (prop_id)
    {
    case PROP_DATA:
      g_value_set_boxed (value, self->data);
      break;
    case PROP_X_LOG:
      g_value_set_boolean (value, self->x_log);
      break;
    case PROP_Y_LOG:
      g_value_set_boolean (value, self->y_log);
      break;
    case PROP_DARK:
      g_value_set_boolean (value, self->dark);
      break;
    case PROP_FOLLOW_STYLE:
      g_value_set_boolean (value, self->follow_style);
      break;
    case PROP_WATERMARK:
      g_value_set_string (value, self->watermark);
      break;
    case PROP_MESSAGE:
      g_value_set_string (value, self->message);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
xrlab_plot_set_property (GObject      *object,
                         guint         prop_id,
                         const GValue *value,
                         GParamSpec   *pspec)
{
  XrlabPlot *self = XRLAB_PLOT (object);

  switch (prop_id)
    {
    case PROP_DATA:
      xrlab_plot_set_data (self, g_value_get_boxed (value));
      break;
    case PROP_X_LOG:
      xrlab_plot_set_x_log (self, g_value_get_boolean (value));
      break;
    case PROP_Y_LOG:
      xrlab_plot_set_y_log (self, g_value_get_boolean (value));
      break;
    case PROP_DARK:
      xrlab_plot_set_dark (self, g_value_get_boolean (value));
      break;
    case PROP_FOLLOW_STYLE:
      xrlab_plot_set_follow_style (self, g_value_get_boolean (value));
      break;
    case PROP_WATERMARK:
      xrlab_plot_set_watermark (self, g_value_get_string (value));
      break;
    case PROP_MESSAGE:
      xrlab_plot_set_message (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
xrlab_plot_class_init (XrlabPlotClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = xrlab_plot_dispose;
  object_class->finalize = xrlab_plot_finalize;
  object_class->get_property = xrlab_plot_get_property;
  object_class->set_property = xrlab_plot_set_property;

  properties[PROP_DATA] =
    g_param_spec_boxed ("data", NULL, NULL, XRLAB_TYPE_PLOT_DATA,
                        G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_X_LOG] =
    g_param_spec_boolean ("x-log", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_Y_LOG] =
    g_param_spec_boolean ("y-log", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_DARK] =
    g_param_spec_boolean ("dark", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_FOLLOW_STYLE] =
    g_param_spec_boolean ("follow-style", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_WATERMARK] =
    g_param_spec_string ("watermark", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_MESSAGE] =
    g_param_spec_string ("message", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* Emitted after each PLplot render of the widget, with its duration (ms). */
  signals[SIGNAL_RENDERED] =
    g_signal_new ("rendered", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_DOUBLE);

  gtk_widget_class_set_css_name (widget_class, "xrlab-plot");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
xrlab_plot_init (XrlabPlot *self)
{
  AdwStyleManager *style = adw_style_manager_get_default ();

  self->stream = -1;
  self->cross_x = NAN;
  self->cross_py = NAN;
  self->line_width = 2.0;
  self->show_markers = TRUE;
  self->show_legend = TRUE;
  self->follow_style = TRUE;
  self->dirty = TRUE;
  self->markers = g_array_new (FALSE, TRUE, sizeof (XrlabPlotMarker));
  g_array_set_clear_func (self->markers, clear_marker);

  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self), xrlab_plot_draw, NULL, NULL);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
  gtk_drawing_area_set_content_width (GTK_DRAWING_AREA (self), 320);
  gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (self), 240);

  self->motion = gtk_event_controller_motion_new ();
  g_signal_connect (self->motion, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (self->motion, "enter", G_CALLBACK (on_motion), self);
  g_signal_connect (self->motion, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), self->motion);

  self->dark = adw_style_manager_get_dark (style);
  self->style_handler = g_signal_connect (style, "notify::dark", G_CALLBACK (on_dark_changed), self);
}

/* ---- public API ------------------------------------------------------------------ */

GtkWidget *
xrlab_plot_new (void)
{
  return g_object_new (XRLAB_TYPE_PLOT, NULL);
}

void
xrlab_plot_set_data (XrlabPlot     *self,
                     XrlabPlotData *data)
{
  g_return_if_fail (XRLAB_IS_PLOT (self));

  if (data != NULL)
    xrlab_plot_data_ref (data);
  g_clear_pointer (&self->data, xrlab_plot_data_unref);
  self->data = data;
  self->data_set_time = xrlab_now ();
  invalidate (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DATA]);
}

XrlabPlotData *
xrlab_plot_get_data (XrlabPlot *self)
{
  g_return_val_if_fail (XRLAB_IS_PLOT (self), NULL);
  return self->data;
}

void
xrlab_plot_set_axes (XrlabPlot  *self,
                     const char *x_name,
                     const char *x_unit,
                     const char *y_name,
                     const char *y_unit)
{
  g_return_if_fail (XRLAB_IS_PLOT (self));

  g_free (self->x_name);
  g_free (self->x_unit);
  g_free (self->y_name);
  g_free (self->y_unit);
  self->x_name = g_strdup (x_name);
  self->x_unit = g_strdup (x_unit);
  self->y_name = g_strdup (y_name);
  self->y_unit = g_strdup (y_unit);
  invalidate (self);
}

void
xrlab_plot_set_x_log (XrlabPlot *self, gboolean x_log)
{
  g_return_if_fail (XRLAB_IS_PLOT (self));
  x_log = !!x_log;
  if (self->x_log == x_log)
    return;
  self->x_log = x_log;
  invalidate (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_X_LOG]);
}

gboolean
xrlab_plot_get_x_log (XrlabPlot *self)
{
  g_return_val_if_fail (XRLAB_IS_PLOT (self), FALSE);
  return self->x_log;
}

void
xrlab_plot_set_y_log (XrlabPlot *self, gboolean y_log)
{
  g_return_if_fail (XRLAB_IS_PLOT (self));
  y_log = !!y_log;
  if (self->y_log == y_log)
    return;
  self->y_log = y_log;
  invalidate (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_Y_LOG]);
}

gboolean
xrlab_plot_get_y_log (XrlabPlot *self)
{
  g_return_val_if_fail (XRLAB_IS_PLOT (self), FALSE);
  return self->y_log;
}

void
xrlab_plot_set_markers (XrlabPlot             *self,
                        const XrlabPlotMarker *markers,
                        guint                  n_markers)
{
  g_return_if_fail (XRLAB_IS_PLOT (self));
  g_return_if_fail (n_markers == 0 || markers != NULL);

  g_array_set_size (self->markers, 0);
  for (guint i = 0; i < n_markers; i++)
    {
      XrlabPlotMarker m = { markers[i].x, g_strdup (markers[i].label) };
      g_array_append_val (self->markers, m);
    }
  invalidate (self);
}

guint
xrlab_plot_get_n_markers (XrlabPlot *self)
{
  g_return_val_if_fail (XRLAB_IS_PLOT (self), 0);
  return self->markers->len;
}

void
xrlab_plot_set_watermark (XrlabPlot *self, const char *text)
{
  g_return_if_fail (XRLAB_IS_PLOT (self));
  if (g_strcmp0 (self->watermark, text) == 0)
    return;
  g_free (self->watermark);
  self->watermark = g_strdup (text);
  invalidate (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_WATERMARK]);
}

void
xrlab_plot_set_message (XrlabPlot *self, const char *text)
{
  g_return_if_fail (XRLAB_IS_PLOT (self));
  if (g_strcmp0 (self->message, text) == 0)
    return;
  g_free (self->message);
  self->message = g_strdup (text);
  invalidate (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MESSAGE]);
}

void
xrlab_plot_set_overlay_text (XrlabPlot *self, const char *text)
{
  g_return_if_fail (XRLAB_IS_PLOT (self));
  if (g_strcmp0 (self->overlay_text, text) == 0)
    return;
  g_free (self->overlay_text);
  self->overlay_text = g_strdup (text);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
xrlab_plot_set_dark (XrlabPlot *self, gboolean dark)
{
  g_return_if_fail (XRLAB_IS_PLOT (self));
  dark = !!dark;
  if (self->dark == dark)
    return;
  self->dark = dark;
  invalidate (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DARK]);
}

gboolean
xrlab_plot_get_dark (XrlabPlot *self)
{
  g_return_val_if_fail (XRLAB_IS_PLOT (self), FALSE);
  return self->dark;
}

void
xrlab_plot_set_follow_style (XrlabPlot *self, gboolean follow)
{
  g_return_if_fail (XRLAB_IS_PLOT (self));
  follow = !!follow;
  if (self->follow_style == follow)
    return;
  self->follow_style = follow;
  if (follow)
    xrlab_plot_set_dark (self, adw_style_manager_get_dark (adw_style_manager_get_default ()));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FOLLOW_STYLE]);
}

void
xrlab_plot_set_line_width (XrlabPlot *self, double width_px)
{
  g_return_if_fail (XRLAB_IS_PLOT (self));
  width_px = CLAMP (width_px, 0.5, 8.0);
  if (self->line_width == width_px)
    return;
  self->line_width = width_px;
  invalidate (self);
}

void
xrlab_plot_set_show_markers (XrlabPlot *self, gboolean show)
{
  g_return_if_fail (XRLAB_IS_PLOT (self));
  if (self->show_markers == !!show)
    return;
  self->show_markers = !!show;
  invalidate (self);
}

void
xrlab_plot_set_show_legend (XrlabPlot *self, gboolean show)
{
  g_return_if_fail (XRLAB_IS_PLOT (self));
  if (self->show_legend == !!show)
    return;
  self->show_legend = !!show;
  invalidate (self);
}

void
xrlab_plot_set_crosshair (XrlabPlot *self, double x)
{
  g_return_if_fail (XRLAB_IS_PLOT (self));
  self->cross_x = x;
  self->cross_py = NAN;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

char *
xrlab_plot_get_readout (XrlabPlot *self)
{
  GString *s;
  guint ns;

  g_return_val_if_fail (XRLAB_IS_PLOT (self), NULL);
  if (!isfinite (self->cross_x) || self->data == NULL)
    return g_strdup ("");

  s = g_string_new (NULL);
  {
    g_autofree char *xv = format_value_plain (self->cross_x);
    g_string_append_printf (s, "%s %s\n", xv, self->x_unit != NULL ? self->x_unit : "");
  }
  ns = xrlab_plot_data_get_n_series (self->data);
  for (guint i = 0; i < ns; i++)
    {
      const XrlabPlotSeries *ser = xrlab_plot_data_get_series (self->data, i);
      double y = xrlab_plot_series_value_at (ser, self->cross_x, self->x_log);
      g_autofree char *v = format_value_plain (y);
      g_string_append_printf (s, "%s\t%s\n", ser->label, v);
    }
  return g_string_free (s, FALSE);
}

gboolean
xrlab_plot_render (XrlabPlot *self,
                   cairo_t   *cr,
                   int        width,
                   int        height,
                   gboolean   dark,
                   GError   **error)
{
  g_return_val_if_fail (XRLAB_IS_PLOT (self), FALSE);
  g_return_val_if_fail (cr != NULL, FALSE);
  g_return_val_if_fail (width > 0 && height > 0, FALSE);

  if (!render_chart (self, cr, width, height, dark, NULL, error))
    return FALSE;
  /* The stream now has the export size; the next frame re-opens it. */
  self->dirty = TRUE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  if (cairo_status (cr) != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, XRLAB_PLOT_ERROR, XRLAB_PLOT_ERROR_FAILED,
                   _("Drawing failed: %s"), cairo_status_to_string (cairo_status (cr)));
      return FALSE;
    }
  return TRUE;
}

static cairo_status_t
write_to_file (void *closure, const unsigned char *data, unsigned int length)
{
  FILE *f = closure;

  if (fwrite (data, 1, length, f) != length)
    return CAIRO_STATUS_WRITE_ERROR;
  return CAIRO_STATUS_SUCCESS;
}

gboolean
xrlab_plot_export (XrlabPlot       *self,
                   const char      *path,
                   XrlabPlotFormat  format,
                   int              width,
                   int              height,
                   double           scale,
                   gboolean         dark,
                   GError         **error)
{
  XrlabAtomicFile *af;
  cairo_surface_t *surface = NULL;
  cairo_t *cr;
  cairo_status_t status;
  FILE *stream;
  gboolean ok;

  g_return_val_if_fail (XRLAB_IS_PLOT (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (width < 120 || height < 90 || width > 20000 || height > 20000)
    {
      g_set_error (error, XRLAB_PLOT_ERROR, XRLAB_PLOT_ERROR_FAILED,
                   _("Plot size %d × %d is outside 120 × 90 … 20000 × 20000"), width, height);
      return FALSE;
    }
  if (format == XRLAB_PLOT_FORMAT_PNG && !(scale >= 0.25 && scale <= 8 && width * scale <= 32000 && height * scale <= 32000))
    {
      g_set_error (error, XRLAB_PLOT_ERROR, XRLAB_PLOT_ERROR_FAILED,
                   _("PNG scale %g is outside 0.25 … 8"), scale);
      return FALSE;
    }
  if (!xrlab_plot_check_driver (error))
    return FALSE;

  af = xrlab_atomic_file_open (path, error);
  if (af == NULL)
    return FALSE;
  stream = xrlab_atomic_file_stream (af);

  switch (format)
    {
    case XRLAB_PLOT_FORMAT_PNG:
      surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32,
                                            (int) ceil (width * scale), (int) ceil (height * scale));
      cairo_surface_set_device_scale (surface, scale, scale);
      break;
    case XRLAB_PLOT_FORMAT_SVG:
      surface = cairo_svg_surface_create_for_stream (write_to_file, stream, width, height);
      break;
    case XRLAB_PLOT_FORMAT_PDF:
      surface = cairo_pdf_surface_create_for_stream (write_to_file, stream, width, height);
      break;
    default:
      g_assert_not_reached ();
    }

  cr = cairo_create (surface);
  ok = xrlab_plot_render (self, cr, width, height, dark, error);
  cairo_destroy (cr);
  if (ok && format == XRLAB_PLOT_FORMAT_PNG)
    status = cairo_surface_write_to_png_stream (surface, write_to_file, stream);
  else
    {
      cairo_surface_finish (surface);
      status = cairo_surface_status (surface);
    }
  cairo_surface_destroy (surface);

  if (ok && status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, XRLAB_PLOT_ERROR, XRLAB_PLOT_ERROR_FAILED,
                   _("Could not write “%s”: %s"), path,
                   status == CAIRO_STATUS_WRITE_ERROR ? g_strerror (errno) : cairo_status_to_string (status));
      ok = FALSE;
    }
  if (!ok)
    {
      xrlab_atomic_file_abort (af);
      return FALSE;
    }
  return xrlab_atomic_file_commit (af, error);
}

guint
xrlab_plot_get_render_count (XrlabPlot *self)
{
  g_return_val_if_fail (XRLAB_IS_PLOT (self), 0);
  return self->render_count;
}

double
xrlab_plot_get_last_render_ms (XrlabPlot *self)
{
  g_return_val_if_fail (XRLAB_IS_PLOT (self), 0);
  return self->last_render_ms;
}

double
xrlab_plot_get_data_to_frame_ms (XrlabPlot *self)
{
  g_return_val_if_fail (XRLAB_IS_PLOT (self), 0);
  return self->data_to_frame_ms;
}
