/* test-gui-fit.c -- the Fit page of the window, driven like a user would:
 * the Au 4f measurement opened from the command line and its map drawn, a
 * typed start value (one transfer, a new spectrum), an invalid one (marked
 * at its row, the curves stale), baseline and 2D fits to the numbers of
 * `xrlab-cli fit` (README), a cancelled fit, a file that cannot be read
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "gui-test-util.h"
#include "xrlab-application.h"
#include "xrlab-model.h"
#include "xrlab-window.h"

#define W 800
#define H 500

static XrlabApplication *app;
static XrlabWindow *win;
static char *tmpdir;
static char *au4f;          /* the measurement folder, NULL: missing */

static XrlabFitPage *
page (void)
{
  return xrlab_window_get_fit_page (win);
}

static void
settle (void)
{
  xrlab_test_fit_settle (win);
}

static guint64
transfers (const char *consumer)
{
  return xrlab_test_transfers (win, consumer);
}

static const XrlabPlotSeries *
series_named (XrlabPlot *plot, const char *label)
{
  XrlabPlotData *data = xrlab_plot_get_data (plot);

  for (guint i = 0; data != NULL && i < xrlab_plot_data_get_n_series (data); i++)
    if (g_strcmp0 (xrlab_plot_data_get_series (data, i)->label, label) == 0)
      return xrlab_plot_data_get_series (data, i);
  return NULL;
}

static double
param (const char *name)
{
  double v = NAN;

  g_assert_true (xrlab_fit_page_get_param_value (page (), name, &v, NULL));
  return v;
}

static gboolean
skip_without_data (void)
{
  if (au4f != NULL)
    return FALSE;
  g_test_skip ("the Au 4f measurement ($XRLAB_SHARED_DATA/trspecfit-au4f) is missing");
  return TRUE;
}

static gboolean
not_fitting (gpointer data)
{
  return !xrlab_fit_page_is_fitting (page ());
}

/* ---- opening ---------------------------------------------------------------------- */

static void
test_open (void)
{
  g_autofree char *models = g_test_build_filename (G_TEST_DIST, "..", "data", "models", "au4f.yaml", NULL);
  g_autofree char *time_models = g_test_build_filename (G_TEST_DIST, "..", "data", "models", "au4f-time.yaml", NULL);
  g_autofree char *dyn = g_strdup_printf ("GLP_01_x0=%s:SineWave", time_models);
  g_autoptr(GVariantDict) options = g_variant_dict_new (NULL);
  g_autoptr(GFile) folder = NULL;
  const char *dyns[] = { dyn, NULL };
  cairo_surface_t *s;
  cairo_t *cr;
  int ret = 0;

  if (skip_without_data ())
    return;
  /* xrlab --models au4f.yaml --model 2D ... FOLDER */
  g_variant_dict_insert_value (options, "models", g_variant_new_bytestring (models));
  g_variant_dict_insert (options, "model", "s", "2D");
  g_variant_dict_insert (options, "baseline-model", "s", "base");
  g_variant_dict_insert_value (options, "dynamics", g_variant_new_strv (dyns, -1));
  g_variant_dict_insert (options, "elim", "s", "81:91");
  g_variant_dict_insert (options, "tlim", "s", "-0.3:16.5");
  g_variant_dict_insert (options, "baseline", "s", "-0.4:-0.05");
  g_variant_dict_insert (options, "pin-baseline", "b", TRUE);
  g_signal_emit_by_name (app, "handle-local-options", options, &ret);
  g_assert_cmpint (ret, ==, -1);
  folder = g_file_new_for_path (au4f);
  g_application_open (G_APPLICATION (app), &folder, 1, "");
  settle ();

  g_assert_cmpstr (adw_view_stack_get_visible_child_name (xrlab_window_get_view_stack (win)), ==, "fit");
  g_assert_nonnull (xrlab_fit_page_get_workspace (page ()));
  g_assert_cmpstr (xrlab_fit_page_get_workspace (page ())->model, ==, "2D");
  g_assert_null (xrlab_fit_page_get_message (page ()));
  g_assert_true (xrlab_map_view_has_map (xrlab_fit_page_get_map_view (page ())));
  g_assert_cmpuint (xrlab_fit_page_get_n_params (page ()), >=, 10);

  /* The map's image: viridis from dark purple to yellow. */
  s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W, H);
  cr = cairo_create (s);
  g_assert_true (xrlab_map_view_render (xrlab_fit_page_get_map_view (page ()), cr, W, H, FALSE));
  cairo_destroy (cr);
  g_assert_cmpuint (xrlab_test_count_color (s, 0x440154, 30, 0, W), >, 2000);
  g_assert_cmpuint (xrlab_test_count_color (s, 0xfde725, 40, 0, W), >, 50);
  cairo_surface_destroy (s);

  /* The spectrum: data, model, its components, and the residual below. */
  g_assert_nonnull (series_named (xrlab_fit_page_get_spectrum (page ()), "Data"));
  g_assert_nonnull (series_named (xrlab_fit_page_get_spectrum (page ()), "Model"));
  g_assert_nonnull (series_named (xrlab_fit_page_get_spectrum (page ()), "GLP_01"));
  g_assert_nonnull (series_named (xrlab_fit_page_get_residual (page ()), "Residual"));
  g_assert_nonnull (series_named (xrlab_fit_page_get_trace (page ()), "Model"));
}

/* ---- editing ---------------------------------------------------------------------- */

static double
model_max (void)
{
  const XrlabPlotSeries *m = series_named (xrlab_fit_page_get_spectrum (page ()), "Model");
  double mx = -INFINITY;

  g_assert_nonnull (m);
  for (gsize i = 0; i < m->n; i++)
    mx = MAX (mx, m->y[i]);
  return mx;
}

static gboolean
spectrum_drawn (gpointer data)
{
  return !xrlab_plot_get_redraw_pending (xrlab_fit_page_get_spectrum (page ()));
}

static gboolean
layers_kept (gpointer data)
{
  return xrlab_plot_get_layers_kept (xrlab_fit_page_get_spectrum (page ()));
}

static void
test_edit (void)
{
  guint64 before;
  double peak, peak2;
  const XrlabPlotSeries *m;

  if (skip_without_data ())
    return;
  settle ();
  peak = model_max ();
  before = transfers ("fit-spectrum");
  g_assert_true (xrlab_fit_page_set_param_text (page (), "GLP_01_A", "450"));
  settle ();
  g_assert_cmpuint (transfers ("fit-spectrum"), ==, before + 1);
  peak2 = model_max ();
  g_assert_cmpfloat (peak2, >, peak + 50);
  g_assert_cmpfloat_with_epsilon (param ("GLP_01_A"), 450, 1e-9);

  /* Emptied: nothing sent, nothing marked (the row does not grow a
   * message while a number is being typed). */
  before = transfers ("fit-spectrum");
  g_assert_true (xrlab_fit_page_set_param_text (page (), "GLP_01_A", ""));
  settle ();
  g_assert_null (xrlab_fit_page_get_param_error (page (), "GLP_01_A"));
  g_assert_cmpuint (transfers ("fit-spectrum"), ==, before);

  /* Not a number: marked at its row, nothing sent, the curves stale. */
  before = transfers ("fit-spectrum");
  g_assert_true (xrlab_fit_page_set_param_text (page (), "GLP_01_A", "4x0"));
  settle ();
  g_assert_nonnull (xrlab_fit_page_get_param_error (page (), "GLP_01_A"));
  g_assert_cmpuint (transfers ("fit-spectrum"), ==, before);
  m = series_named (xrlab_fit_page_get_spectrum (page ()), "Model");
  g_assert_true (m->stale);
  g_assert_cmpfloat (model_max (), ==, peak2);

  /* Out of its bounds [0, 1000]: the engine's message, the last valid model. */
  g_assert_true (xrlab_fit_page_set_param_text (page (), "GLP_01_A", "5000"));
  settle ();
  g_assert_nonnull (xrlab_fit_page_get_param_error (page (), "GLP_01_A"));
  g_assert_cmpfloat_with_epsilon (param ("GLP_01_A"), 450, 1e-9);

  /* Valid again: no message, fresh curves. */
  g_assert_true (xrlab_fit_page_set_param_text (page (), "GLP_01_A", "300"));
  settle ();
  g_assert_null (xrlab_fit_page_get_param_error (page (), "GLP_01_A"));
  m = series_named (xrlab_fit_page_get_spectrum (page ()), "Model");
  g_assert_false (m->stale);
  g_assert_cmpfloat_with_epsilon (model_max (), peak, 1e-9 * fabs (peak));

  /* A small step: the model's curves only (the data and axes are kept from
   * the last fetch at this delay, and so are the plots' layers). */
  {
    XrlabEngineStats st0 = { 0 }, st1 = { 0 };
    const XrlabPlotSeries *data_before = series_named (xrlab_fit_page_get_spectrum (page ()), "Data");
    const double *data_y = data_before->y;
    gsize n_e = data_before->n;

    xrlab_test_wait_for (spectrum_drawn, NULL, 10, "the spectrum to be drawn");
    xrlab_engine_get_stats (xrlab_window_get_engine (win), "fit-spectrum", &st0);
    g_assert_true (xrlab_fit_page_set_param_text (page (), "GLP_01_A", "303"));
    settle ();
    /* the frame after the reply: the curves between the kept layers */
    xrlab_test_wait_for (layers_kept, NULL, 10, "a frame of the spectrum with its layers kept");
    xrlab_engine_get_stats (xrlab_window_get_engine (win), "fit-spectrum", &st1);
    g_assert_cmpuint (st1.n_transfers, ==, st0.n_transfers + 1);
    /* model, residual and the components: no energies, no data */
    g_assert_cmpuint (st1.bytes - st0.bytes, <, (2 + 8) * n_e * sizeof (double));
    g_assert_true (series_named (xrlab_fit_page_get_spectrum (page ()), "Data")->y == data_y);
    g_assert_cmpfloat (model_max (), >, peak);
  }
  g_assert_true (xrlab_fit_page_set_param_text (page (), "GLP_01_A", "300"));
  settle ();
}

static gboolean
spectrum_has_frame (gpointer data)
{
  return xrlab_plot_get_frame (xrlab_fit_page_get_spectrum (page ()))->valid;
}

/* A peak dragged on the spectrum: its position and height follow the
 * pointer into the table; a number dragged in the table changes it by a
 * step of its magnitude. */
static void
test_peak_drag (void)
{
  XrlabPlot *spectrum;
  XrlabPlotData *data;
  const XrlabPlotFrame *f;
  g_autofree char *x0_text = NULL;
  double x0, a, px, py, px1, py1, want_x0, want_a;
  guint k = G_MAXUINT;
  GtkWidget *entry;
  GtkEventController *drag = NULL;

  if (skip_without_data ())
    return;
  settle ();
  xrlab_test_wait_for (spectrum_has_frame, NULL, 10, "the spectrum to be drawn");
  spectrum = xrlab_fit_page_get_spectrum (page ());
  data = xrlab_plot_get_data (spectrum);
  for (guint i = 1; i + 1 < xrlab_plot_data_get_n_series (data); i++)
    if (g_strcmp0 (xrlab_plot_data_get_series (data, i)->label, "GLP_01") == 0)
      k = i - 1;
  g_assert_cmpuint (k, !=, G_MAXUINT);
  x0 = param ("GLP_01_x0");
  a = param ("GLP_01_A");
  x0_text = g_strdup (gtk_editable_get_text (GTK_EDITABLE (xrlab_fit_page_get_param_entry (page (), "GLP_01_x0"))));
  g_assert_true (xrlab_fit_page_peak_at (page (), k, &px, &py));
  f = xrlab_plot_get_frame (spectrum);
  /* Far from every peak: the plot's own drags have it. */
  g_assert_false (xrlab_fit_page_spectrum_drag (page (), f->px0 + 2, f->py0 + 2, f->px0 + 40, f->py0 + 2));

  px1 = px + 8;
  py1 = py - 0.2 * (f->py1 - py);
  want_x0 = x0 + xrlab_plot_frame_px_to_x (f, px1) - xrlab_plot_frame_px_to_x (f, px);
  want_a = a * xrlab_plot_frame_py_to_y (f, py1) / xrlab_plot_frame_py_to_y (f, py);
  /* pressed a little beside the top: it moves by the pointer's move */
  g_assert_true (xrlab_fit_page_spectrum_drag (page (), px + 3, py + 2, px1 + 3, py1 + 2));
  settle ();
  g_assert_null (xrlab_fit_page_get_param_error (page (), "GLP_01_x0"));
  g_assert_null (xrlab_fit_page_get_param_error (page (), "GLP_01_A"));
  g_assert_cmpfloat_with_epsilon (param ("GLP_01_x0"), want_x0, 1e-5 * fabs (want_x0));
  g_assert_cmpfloat_with_epsilon (param ("GLP_01_A"), want_a, 1e-5 * want_a);
  g_assert_cmpfloat (param ("GLP_01_A"), >, a * 1.1);
  /* The peak is drawn where it was dragged. */
  xrlab_test_wait_for (spectrum_has_frame, NULL, 10, "the spectrum to be drawn");
  g_assert_true (xrlab_fit_page_peak_at (page (), k, &px, &py));
  g_assert_cmpfloat (fabs (px - px1), <, 3);

  /* 40 pixels to the right on the table's 300: 40 steps of 1. */
  g_assert_true (xrlab_fit_page_set_param_text (page (), "GLP_01_A", "300"));
  settle ();
  entry = xrlab_fit_page_get_param_entry (page (), "GLP_01_A");
  g_assert_nonnull (entry);
  {
    g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (entry);
    for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
      {
        g_autoptr(GtkEventController) c = g_list_model_get_item (controllers, i);
        if (g_object_get_data (G_OBJECT (c), "xrlab-value-drag") != NULL)
          drag = c;
      }
  }
  g_assert_nonnull (drag);
  g_signal_emit_by_name (drag, "drag-update", 4.0, 1.0);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "300");
  g_signal_emit_by_name (drag, "drag-update", 40.0, 2.0);
  g_signal_emit_by_name (drag, "drag-end", 40.0, 2.0);
  settle ();
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "340");
  g_assert_cmpfloat_with_epsilon (param ("GLP_01_A"), 340, 1e-9);

  g_assert_true (xrlab_fit_page_set_param_text (page (), "GLP_01_A", "300"));
  g_assert_true (xrlab_fit_page_set_param_text (page (), "GLP_01_x0", x0_text));
  settle ();
  g_assert_cmpfloat (param ("GLP_01_A"), ==, 300);
}


/* Descending energies (binding energies) are drawn as the map draws them:
 * high on the left, zoom and the frame's window alike. */
static void
test_reversed (void)
{
  XrlabPlot *spectrum;
  const XrlabPlotSeries *d;
  const XrlabPlotFrame *f;
  gboolean desc;
  double a, b, mid;

  if (skip_without_data ())
    return;
  settle ();
  spectrum = xrlab_fit_page_get_spectrum (page ());
  d = series_named (spectrum, "Data");
  g_assert_nonnull (d);
  desc = d->x[0] > d->x[d->n - 1];
  g_assert_cmpint (xrlab_plot_get_x_reversed (spectrum), ==, desc);
  g_assert_cmpint (xrlab_plot_get_x_reversed (xrlab_fit_page_get_residual (page ())), ==, desc);
  xrlab_test_wait_for (spectrum_drawn, NULL, 10, "the spectrum to be drawn");
  f = xrlab_plot_get_frame (spectrum);
  g_assert_cmpint (f->wx0 > f->wx1, ==, desc);
  /* The left half of the plot: its energies, in order. */
  mid = (d->x[0] + d->x[d->n - 1]) / 2;
  g_assert_true (xrlab_plot_zoom_to_rect (spectrum, f->px0 + 1, f->py0 + 10, (f->px0 + f->px1) / 2, f->py1 - 10));
  g_assert_true (xrlab_plot_get_x_limits (spectrum, &a, &b));
  g_assert_cmpfloat (a, <, b);
  if (desc)
    g_assert_cmpfloat (a, >, mid - 1e-9);
  else
    g_assert_cmpfloat (b, <, mid + 1e-9);
  xrlab_test_wait_for (spectrum_drawn, NULL, 10, "the spectrum to be drawn");
  g_assert_cmpint (f->wx0 > f->wx1, ==, desc);
  xrlab_plot_reset_view (spectrum);
}

/* ---- fitting ---------------------------------------------------------------------- */

static void
run (XrlabFitPageJob job)
{
  xrlab_fit_page_run (page (), job);
  g_assert_true (xrlab_fit_page_is_fitting (page ()));
  xrlab_test_wait_for (not_fitting, NULL, 120, "the fit");
  settle ();
  g_assert_null (xrlab_fit_page_get_message (page ()));
}

static void
test_fit (void)
{
  /* README: xrlab-cli fit ... --pin-baseline --elim 81:91 --tlim=-0.3:16.5 */
  static const struct { const char *name; double value; } expect[] = {
    { "GLP_01_x0", 84.20991081817021 },
    { "GLP_01_x0_sinFun_01_A", -0.8437997516974587 },
    { "GLP_01_x0_sinFun_01_f", 0.25016566156678816 },
    { "GLP_01_x0_sinFun_01_phi", 0.3985178342761144 },
  };
  double err = NAN;

  if (skip_without_data ())
    return;
  run (XRLAB_FIT_PAGE_JOB_BASELINE);
  g_assert_cmpfloat (fabs (param ("Offset_y0") - 49.86874091677579), <, 1e-6 * 49.87);
  run (XRLAB_FIT_PAGE_JOB_2D);
  g_assert_true (xrlab_fit_page_has_main_result (page ()));
  for (guint i = 0; i < G_N_ELEMENTS (expect); i++)
    g_assert_cmpfloat (fabs (param (expect[i].name) - expect[i].value), <, 1e-6 * fabs (expect[i].value));
  g_assert_true (xrlab_fit_page_get_param_value (page (), "GLP_01_x0", NULL, &err));
  g_assert_true (isfinite (err));
  g_assert_nonnull (strstr (xrlab_fit_page_get_summary (page ()), "χ²"));
  g_assert_nonnull (strstr (xrlab_fit_page_get_summary (page ()), "AIC"));
  /* The sine's amplitude and phase go together. */
  g_assert_nonnull (strstr (xrlab_fit_page_get_correlations (page ()), "GLP_01_x0_sinFun_01_"));
}

static void
test_ci (void)
{
  if (skip_without_data ())
    return;
  run (XRLAB_FIT_PAGE_JOB_CI);
  g_assert_nonnull (strstr (xrlab_fit_page_get_summary (page ()), "at 1σ"));
  g_assert_true (xrlab_fit_page_has_main_result (page ()));
}

/* Slice by slice after the 2D fit: the parameters against delay. */
static void
test_sbs (void)
{
  XrlabPlotData *data;

  if (skip_without_data ())
    return;
  run (XRLAB_FIT_PAGE_JOB_SBS);
  g_assert_true (gtk_widget_get_visible (gtk_widget_get_parent (GTK_WIDGET (xrlab_fit_page_get_sbs_plot (page ())))));
  data = xrlab_plot_get_data (xrlab_fit_page_get_sbs_plot (page ()));
  g_assert_nonnull (data);
  /* the values and their error band (and a 2D fit's time dependence) */
  g_assert_cmpuint (xrlab_plot_data_get_n_series (data), >=, 3);
  g_assert_cmpuint (xrlab_plot_data_get_series (data, 0)->n, >, 100);
  g_assert_nonnull (strstr (xrlab_fit_page_get_summary (page ()), "Slice by slice"));
  /* The 2D result stays. */
  g_assert_true (xrlab_fit_page_has_main_result (page ()));

  /* A time-dependent parameter: the 2D fit's time dependence over the
   * slices. */
  g_assert_true (xrlab_fit_page_set_sbs_param (page (), "GLP_01_x0"));
  data = xrlab_plot_get_data (xrlab_fit_page_get_sbs_plot (page ()));
  g_assert_cmpuint (xrlab_plot_data_get_n_series (data), ==, 4);
  {
    const XrlabPlotSeries *fit = xrlab_plot_data_get_series (data, 3);
    double lo = INFINITY, hi = -INFINITY;

    g_assert_cmpstr (fit->label, ==, "2D fit");
    g_assert_cmpuint (fit->n, ==, 212);
    for (gsize i = 0; i < fit->n; i++)
      lo = MIN (lo, fit->y[i]), hi = MAX (hi, fit->y[i]);
    /* the sine of the model, about 84.2 eV */
    g_assert_cmpfloat (hi - lo, >, 0.5);
    g_assert_cmpfloat (lo, >, 82);
    g_assert_cmpfloat (hi, <, 88);
  }
  g_assert_false (xrlab_fit_page_set_sbs_param (page (), "no such parameter"));
}

/* The span (max − min) of the time dependence over the slices, and its label. */
static double
overlay_span (const char **label)
{
  XrlabPlotData *data = xrlab_plot_get_data (xrlab_fit_page_get_sbs_plot (page ()));
  const XrlabPlotSeries *fit;
  double lo = INFINITY, hi = -INFINITY;

  g_assert_cmpuint (xrlab_plot_data_get_n_series (data), ==, 4);
  fit = xrlab_plot_data_get_series (data, 3);
  for (gsize i = 0; i < fit->n; i++)
    lo = MIN (lo, fit->y[i]), hi = MAX (hi, fit->y[i]);
  *label = fit->label;
  return hi - lo;
}

/* After the 2D fit, an edit of a time-model parameter: the time dependence
 * over the slices is fetched again (once a burst, only while the plot is
 * shown) and is the model's, no longer the fit's. */
static void
test_sbs_follow (void)
{
  AdwViewStack *stack = xrlab_window_get_view_stack (win);
  g_autofree char *fitted = NULL;
  const char *label = NULL;
  double span, a;
  guint64 before;

  if (skip_without_data ())
    return;
  g_assert_true (xrlab_fit_page_set_sbs_param (page (), "GLP_01_x0"));
  span = overlay_span (&label);
  g_assert_cmpstr (label, ==, "2D fit");
  a = param ("GLP_01_x0_sinFun_01_A");
  fitted = g_strdup_printf ("%.17g", a);

  /* A burst of edits of the amplitude: one fetch, twice the span. */
  before = transfers ("fit-traces");
  g_assert_true (xrlab_fit_page_set_param_text (page (), "GLP_01_x0_sinFun_01_A", "-0.5"));
  g_assert_true (xrlab_fit_page_set_param_text (page (), "GLP_01_x0_sinFun_01_A", "-1"));
  {
    g_autofree char *twice = g_strdup_printf ("%.17g", 2 * a);
    g_assert_true (xrlab_fit_page_set_param_text (page (), "GLP_01_x0_sinFun_01_A", twice));
  }
  settle ();
  g_assert_cmpuint (transfers ("fit-traces"), ==, before + 1);
  g_assert_cmpfloat (fabs (overlay_span (&label) / span - 2), <, 0.01);
  g_assert_cmpstr (label, ==, "2D model");

  /* Hidden (another page): nothing fetched; shown again: fetched. */
  adw_view_stack_set_visible_child_name (stack, "plot");
  settle ();
  before = transfers ("fit-traces");
  g_assert_true (xrlab_fit_page_set_param_text (page (), "GLP_01_x0_sinFun_01_A", fitted));
  settle ();
  xrlab_test_spin (0.2);
  g_assert_cmpuint (transfers ("fit-traces"), ==, before);
  adw_view_stack_set_visible_child_name (stack, "fit");
  settle ();
  g_assert_cmpuint (transfers ("fit-traces"), ==, before + 1);
  g_assert_cmpfloat (fabs (overlay_span (&label) / span - 1), <, 1e-9);
  /* the fit's values again, but edited since: the model's */
  g_assert_cmpstr (label, ==, "2D model");
  g_assert_true (xrlab_fit_page_has_main_result (page ()));
}

static void
on_written (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (xrlab_fit_page_write_results_finish (XRLAB_FIT_PAGE (source), result, &error));
  g_assert_no_error (error);
  *(gboolean *) data = TRUE;
}

static gboolean
flag_set (gpointer data)
{
  return *(gboolean *) data;
}

/* The result set (written by the engine) and the plots (as the optics plot's). */
static void
test_export (void)
{
  g_autofree char *outdir = g_build_filename (tmpdir, "au4f-fit", NULL);
  g_autofree char *params = g_build_filename (outdir, "params.csv", NULL);
  g_autofree char *baseline = g_build_filename (outdir, "baseline_params.csv", NULL);
  g_autofree char *png = g_build_filename (tmpdir, "map.png", NULL);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  gboolean done = FALSE;

  if (skip_without_data ())
    return;
  xrlab_fit_page_write_results (page (), outdir, on_written, &done);
  xrlab_test_wait_for (flag_set, &done, 30, "the result set");
  g_assert_true (g_file_get_contents (params, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, "GLP_01_x0_sinFun_01_f"));
  g_assert_true (g_file_test (baseline, G_FILE_TEST_IS_REGULAR));
  g_assert_true (xrlab_window_export_plot_file (win, png, XRLAB_PLOT_FORMAT_PNG, 600, 400, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (png, G_FILE_TEST_IS_REGULAR));
}

static gboolean
fit_started (gpointer data)
{
  return transfers ("fit-params") > *(guint64 *) data;
}

static gboolean
fit_started_spectrum (gpointer data)
{
  return transfers ("fit-spectrum") > *(guint64 *) data;
}

static void
test_cancel (void)
{
  guint64 before;
  double f_before;

  if (skip_without_data ())
    return;
  settle ();
  /* From a start far from the fit: many iterations. */
  g_assert_true (xrlab_fit_page_set_param_text (page (), "GLP_01_x0_sinFun_01_f", "0.2"));
  settle ();
  f_before = param ("GLP_01_x0_sinFun_01_f");
  before = transfers ("fit-params");
  xrlab_fit_page_run (page (), XRLAB_FIT_PAGE_JOB_2D);
  /* the first progress fetches the live parameters */
  xrlab_test_wait_for (fit_started, &before, 60, "the fit's first progress");
  /* Meanwhile the page answers: a new delay fetches its spectrum. */
  if (xrlab_fit_page_is_fitting (page ()))
    {
      before = transfers ("fit-spectrum");
      xrlab_fit_page_set_cursor (page (), 7.5, 84.0);
      xrlab_test_wait_for (fit_started_spectrum, &before, 30, "a spectrum during the fit");
    }
  xrlab_fit_page_cancel (page ());
  xrlab_test_wait_for (not_fitting, NULL, 10, "the cancelled fit");
  settle ();
  g_assert_null (xrlab_fit_page_get_message (page ()));
  g_assert_cmpuint (xrlab_fit_page_get_n_params (page ()), >=, 10);
  if (strstr (xrlab_fit_page_get_summary (page ()), "cancelled") != NULL)
    {
      /* The best parameters so far are the setup's: moved from the start. */
      g_assert_false (xrlab_fit_page_has_main_result (page ()));
      g_assert_cmpfloat (param ("GLP_01_x0_sinFun_01_f"), !=, f_before);
    }
  else
    g_test_message ("the fit ended before the cancel reached it");
  /* The window still answers. */
  before = transfers ("fit-spectrum");
  g_assert_true (xrlab_fit_page_set_param_text (page (), "GLP_01_A", "310"));
  settle ();
  g_assert_cmpuint (transfers ("fit-spectrum"), ==, before + 1);
}

/* The fit window: one that holds no energy is the engine's message; a good
 * one clears it. */
static void
test_ranges (void)
{
  const XrlabFitWorkspace *ws;

  if (skip_without_data ())
    return;
  xrlab_fit_page_set_ranges (page (), 200, 300, -0.3, 16.5, -0.4, -0.05);
  settle ();
  g_assert_nonnull (xrlab_fit_page_get_message (page ()));
  xrlab_fit_page_set_ranges (page (), 81, 91, -0.3, 16.5, -0.4, -0.05);
  settle ();
  g_assert_cmpstr (xrlab_fit_page_get_message (page ()), ==, NULL);
  ws = xrlab_fit_page_get_workspace (page ());
  g_assert_cmpfloat (ws->e0, ==, 81);
  g_assert_cmpfloat (ws->b1, ==, -0.05);
}


static gboolean
map_drawn (gpointer data)
{
  return xrlab_map_view_get_frame (xrlab_fit_page_get_map_view (page ()))->valid;
}

/* Drags on the map: an edge of the fit window resizes it, its title moves
 * it (the engine takes the new limits), Ctrl pans, the secondary button
 * zooms, a plain drag moves the cursor. */
static void
test_map_drag (void)
{
  XrlabMapView *map;
  const XrlabFitWorkspace *ws;
  double px0, py0, px1, py1, ea, eb, ta, tb, x0, x1, y0, y1, delay, energy;

  if (skip_without_data ())
    return;
  map = xrlab_fit_page_get_map_view (page ());
  xrlab_fit_page_set_ranges (page (), 81, 91, 2, 12, -0.4, -0.05);
  settle ();
  xrlab_test_wait_for (map_drawn, NULL, 10, "the map to be drawn");

  /* The edge at 91 eV, 40 pixels sideways: only that edge moves. */
  g_assert_true (xrlab_fit_page_map_to_px (page (), 91, 7, &px0, &py0));
  g_assert_true (xrlab_map_view_pick (map, px0, py0, &ea, &ta));
  g_assert_true (xrlab_map_view_pick (map, px0 - 40, py0, &eb, &tb));
  xrlab_fit_page_map_drag (page (), GDK_BUTTON_PRIMARY, 0, px0, py0, px0 - 40, py0);
  settle ();
  ws = xrlab_fit_page_get_workspace (page ());
  g_assert_null (xrlab_fit_page_get_message (page ()));
  g_assert_cmpfloat (ws->e0, ==, 81);
  g_assert_cmpfloat_with_epsilon (ws->e1, 91 + (eb - ea), 1e-9);
  g_assert_cmpfloat (fabs (ws->e1 - 91), >, 0.5);
  g_assert_cmpfloat (ws->t0, ==, 2);
  g_assert_cmpfloat (ws->t1, ==, 12);

  /* A corner: both of its edges. */
  g_assert_true (xrlab_fit_page_map_to_px (page (), ws->e1, 12, &px0, &py0));
  xrlab_fit_page_map_drag (page (), GDK_BUTTON_PRIMARY, 0, px0, py0, px0 + 20, py0 - 20);
  settle ();
  g_assert_cmpfloat (ws->e0, ==, 81);
  g_assert_cmpfloat (ws->t1, >, 12);
  g_assert_cmpfloat (ws->t0, ==, 2);

  /* The title, inside the top left corner: the whole window moves. */
  {
    double span_e = ws->e1 - ws->e0, span_t = ws->t1 - ws->t0, e0 = ws->e0, t0 = ws->t0;
    double left = 0, top = 0, pxa, pya, pxb, pyb;

    g_assert_true (xrlab_fit_page_map_to_px (page (), ws->e0, ws->t0, &pxa, &pya));
    g_assert_true (xrlab_fit_page_map_to_px (page (), ws->e1, ws->t1, &pxb, &pyb));
    left = MIN (pxa, pxb), top = MIN (pya, pyb);
    xrlab_fit_page_map_drag (page (), GDK_BUTTON_PRIMARY, 0, left + 20, top + 10, left + 50, top + 40);
    settle ();
    g_assert_null (xrlab_fit_page_get_message (page ()));
    g_assert_cmpfloat_with_epsilon (ws->e1 - ws->e0, span_e, 1e-6);
    g_assert_cmpfloat_with_epsilon (ws->t1 - ws->t0, span_t, 1e-6);
    g_assert_cmpfloat (fabs (ws->e0 - e0), >, 0.1);
    g_assert_cmpfloat (ws->t0, <, t0);
  }

  /* Ctrl + drag pans: the same width, elsewhere. */
  {
    const XrlabPlotFrame *f = xrlab_map_view_get_frame (map);
    double w0 = fabs (f->wx1 - f->wx0), c0 = (f->wx0 + f->wx1) / 2;

    xrlab_fit_page_map_drag (page (), GDK_BUTTON_PRIMARY, GDK_CONTROL_MASK, f->px0 + 100, f->py0 + 100,
                             f->px0 + 160, f->py0 + 100);
    g_assert_true (xrlab_map_view_get_limits (map, &x0, &x1, &y0, &y1));
    g_assert_cmpfloat_with_epsilon (x1 - x0, w0, 1e-6 * w0);
    g_assert_cmpfloat (fabs ((x0 + x1) / 2 - c0), >, 0.01 * w0);
    xrlab_map_view_set_limits (map, NAN, NAN, NAN, NAN);
  }

  /* The secondary button zooms to the rectangle. */
  xrlab_test_spin (0.2);
  {
    const XrlabPlotFrame *f = xrlab_map_view_get_frame (map);
    double w0 = fabs (f->wx1 - f->wx0);

    xrlab_fit_page_map_drag (page (), GDK_BUTTON_SECONDARY, 0, f->px0 + 50, f->py0 + 30, f->px0 + 150,
                             f->py0 + 90);
    g_assert_true (xrlab_map_view_get_limits (map, &x0, &x1, &y0, &y1));
    g_assert_cmpfloat (x1 - x0, <, w0 / 2);
    g_assert_cmpfloat (y0, <, y1);
    xrlab_map_view_set_limits (map, NAN, NAN, NAN, NAN);
  }

  /* A plain drag outside the window moves the cursor. */
  xrlab_test_spin (0.2);
  g_assert_true (xrlab_fit_page_map_to_px (page (), 78, -0.2, &px1, &py1));
  xrlab_fit_page_map_drag (page (), GDK_BUTTON_PRIMARY, 0, px1, py1, px1 + 5, py1);
  xrlab_fit_page_get_cursor (page (), &delay, &energy);
  g_assert_true (xrlab_map_view_pick (map, px1 + 5, py1, &ea, &ta));
  g_assert_cmpfloat_with_epsilon (energy, ea, 1e-9);
  g_assert_cmpfloat_with_epsilon (delay, ta, 1e-9);

  xrlab_fit_page_set_ranges (page (), 81, 91, -0.3, 16.5, -0.4, -0.05);
  settle ();
  g_assert_null (xrlab_fit_page_get_message (page ()));
}

/* ---- sessions --------------------------------------------------------------------- */

static void
test_session (void)
{
  g_autoptr(XrlabSession) saved = NULL;
  g_autoptr(XrlabSession) loaded = NULL;
  g_autoptr(XrlabSession) empty = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL;
  g_autofree char *path = g_build_filename (tmpdir, "fit-session.json", NULL);
  g_autofree char *bad = NULL;
  g_autofree char *data = NULL;
  const XrlabSessionFit *f;
  double x0 = NAN, x0_err = NAN, restored = NAN, restored_err = NAN;

  if (skip_without_data ())
    return;
  settle ();
  /* A 2D fit: its values, errors and summary go with the session. Started
   * near the sine's frequency (test_cancel left the fit far from it: from
   * there it takes a thousand iterations). */
  g_assert_true (xrlab_fit_page_set_param_text (page (), "GLP_01_x0_sinFun_01_f", "0.25"));
  settle ();
  run (XRLAB_FIT_PAGE_JOB_2D);
  g_assert_true (xrlab_fit_page_get_param_value (page (), "GLP_01_x0", &x0, &x0_err));
  g_assert_true (isfinite (x0_err));
  g_assert_true (xrlab_fit_page_set_param_text (page (), "GLP_01_m", "0.4"));
  xrlab_fit_page_set_map_kind (page (), XRLAB_FIT_MAP_RESIDUAL);
  xrlab_fit_page_set_cursor (page (), 5.0, 84.0);
  settle ();
  saved = xrlab_window_get_session (win);
  f = xrlab_session_get_fit (saved);
  g_assert_nonnull (f);
  g_assert_cmpstr (f->data, ==, au4f);
  g_assert_cmpstr (f->model, ==, "2D");
  g_assert_cmpstr (f->baseline_model, ==, "base");
  g_assert_cmpuint (g_strv_length (f->dynamics), ==, 1);
  g_assert_cmpfloat (f->e0, ==, 81);
  g_assert_true (f->pin_baseline);
  g_assert_cmpint (f->map, ==, XRLAB_FIT_MAP_RESIDUAL);
  g_assert_true (g_strv_contains ((const char *const *) f->value_names, "GLP_01_m"));
  g_assert_true (g_strv_contains ((const char *const *) f->value_names, "GLP_01_x0"));
  g_assert_nonnull (f->result_summary);
  g_assert_nonnull (strstr (f->result_summary, "χ²"));
  g_assert_cmpfloat (xrlab_fit_workspace_get_error (f, "GLP_01_x0"), ==, x0_err);

  /* Written and read back: the same. */
  json = xrlab_session_to_json (saved, NULL);
  loaded = xrlab_session_from_json (json, -1, &error);
  g_assert_no_error (error);
  g_assert_true (xrlab_session_equal (saved, loaded));

  /* A corrupt member is refused with where, and the page keeps its workspace. */
  bad = g_strdup (json);
  {
    char *p = strstr (bad, "\"pin_baseline\": true");
    g_assert_nonnull (p);
    memcpy (p + strlen ("\"pin_baseline\": "), "\"ye\"", 4);
  }
  g_assert_true (g_file_set_contents (path, bad, -1, NULL));
  g_assert_null (xrlab_session_load (path, &error));
  g_assert_nonnull (strstr (error->message, "fit.pin_baseline"));
  g_clear_error (&error);
  /* The window's open salvages the rest: the page keeps what it shows. */
  if (xrlab_window_open_session_file (win, path, &error))
    settle ();
  g_clear_error (&error);
  g_assert_cmpstr (xrlab_fit_page_get_workspace (page ())->data, ==, au4f);

  /* Restored: another workspace first, then the session's again. */
  {
    g_autofree char *dir = g_build_filename (tmpdir, "other", NULL);
    g_autofree char *energy = g_build_filename (dir, "energy.csv", NULL);

    data = g_build_filename (dir, "data.csv", NULL);
    g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
    g_assert_true (g_file_set_contents (data, "1,5,2\n", -1, NULL));
    g_assert_true (g_file_set_contents (energy, "1\n2\n3\n", -1, NULL));
  }
  xrlab_fit_page_open_path (page (), data);
  settle ();
  g_assert_cmpstr (xrlab_fit_page_get_workspace (page ())->data, ==, data);
  xrlab_window_apply_session (win, loaded);
  settle ();
  g_assert_cmpstr (xrlab_fit_page_get_message (page ()), ==, NULL);
  g_assert_cmpstr (xrlab_fit_page_get_workspace (page ())->data, ==, au4f);
  g_assert_cmpfloat_with_epsilon (param ("GLP_01_m"), 0.4, 1e-12);
  g_assert_cmpint (xrlab_fit_page_get_workspace (page ())->map, ==, XRLAB_FIT_MAP_RESIDUAL);
  /* the fit's values, its errors and its summary, before any fit of this start */
  g_assert_true (xrlab_fit_page_get_param_value (page (), "GLP_01_x0", &restored, &restored_err));
  g_assert_cmpfloat (restored, ==, x0);
  g_assert_cmpfloat (restored_err, ==, x0_err);
  g_assert_false (xrlab_fit_page_has_main_result (page ()));
  g_assert_nonnull (strstr (xrlab_fit_page_get_summary (page ()), "χ²"));
  /* a fit on other ranges forgets it */
  xrlab_fit_page_set_ranges (page (), 81.5, 91, -0.3, 16.5, -0.4, -0.05);
  settle ();
  g_assert_true (xrlab_fit_page_get_param_value (page (), "GLP_01_x0", NULL, &restored_err));
  g_assert_true (isnan (restored_err));
  g_assert_null (xrlab_fit_page_get_workspace (page ())->result_summary);
  xrlab_fit_page_set_ranges (page (), 81, 91, -0.3, 16.5, -0.4, -0.05);
  settle ();
  {
    double delay, energy;
    xrlab_fit_page_get_cursor (page (), &delay, &energy);
    g_assert_cmpfloat (delay, ==, 5.0);
    g_assert_cmpfloat (energy, ==, 84.0);
  }
  xrlab_fit_page_set_map_kind (page (), XRLAB_FIT_MAP_DATA);
  settle ();
}

/* ---- the model builder ------------------------------------------------------------ */

static gboolean
n_components_is (gpointer data)
{
  return xrlab_fit_page_get_n_components (page ()) == GPOINTER_TO_UINT (data) && !xrlab_fit_page_is_busy (page ());
}

static void
on_model_saved (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (xrlab_fit_page_save_model_finish (XRLAB_FIT_PAGE (source), result, &error));
  g_assert_no_error (error);
  *(gboolean *) data = TRUE;
}

static void
test_model (void)
{
  g_autofree char *path = g_build_filename (tmpdir, "edited.yaml", NULL);
  g_autoptr(XrlabModelFile) file = NULL;
  g_autoptr(GError) error = NULL;
  gboolean done = FALSE;
  guint n;

  if (skip_without_data ())
    return;
  settle ();
  n = xrlab_fit_page_get_n_components (page ());
  g_assert_cmpuint (n, ==, 4);   /* Offset, Shirley, GLP_01, GLP_02 */
  g_assert_cmpstr (xrlab_fit_page_get_component (page (), 2), ==, "GLP_01");
  /* From the palette: a peak at the end, its parameters in the table. */
  xrlab_fit_page_add_component (page (), "Gauss");
  xrlab_test_wait_for (n_components_is, GUINT_TO_POINTER (n + 1), 30, "the added component");
  settle ();
  g_assert_cmpstr (xrlab_fit_page_get_component (page (), n), ==, "Gauss_01");
  g_assert_true (xrlab_fit_page_get_param_value (page (), "Gauss_01_A", NULL, NULL));
  /* Refused: GLP_02's expressions name GLP_01's parameters. */
  xrlab_fit_page_remove_component (page (), "GLP_01");
  settle ();
  g_assert_nonnull (xrlab_fit_page_get_message (page ()));
  g_assert_cmpuint (xrlab_fit_page_get_n_components (page ()), ==, n + 1);
  /* Reordered, then removed. */
  xrlab_fit_page_move_component (page (), "Gauss_01", 2);
  settle ();
  g_assert_cmpstr (xrlab_fit_page_get_component (page (), 2), ==, "Gauss_01");
  g_assert_cmpstr (xrlab_fit_page_get_component (page (), 3), ==, "GLP_01");
  g_assert_cmpstr (xrlab_fit_page_get_component (page (), 4), ==, "GLP_02");
  xrlab_fit_page_remove_component (page (), "Gauss_01");
  xrlab_test_wait_for (n_components_is, GUINT_TO_POINTER (n), 30, "the removed component");
  settle ();
  g_assert_cmpstr (xrlab_fit_page_get_message (page ()), ==, NULL);
  g_assert_cmpstr (xrlab_fit_page_get_component (page (), 2), ==, "GLP_01");
  /* Saved: a model file the workspace names from now on. */
  xrlab_fit_page_save_model (page (), path, on_model_saved, &done);
  xrlab_test_wait_for (flag_set, &done, 30, "the saved model");
  file = xrlab_model_file_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (xrlab_model_file_n_models (file), >=, 2);
  g_assert_cmpstr (xrlab_fit_page_get_workspace (page ())->models, ==, path);
}

/* ---- errors ----------------------------------------------------------------------- */

static void
test_broken (void)
{
  g_autofree char *dir = g_build_filename (tmpdir, "broken", NULL);
  g_autofree char *data = g_build_filename (dir, "data.csv", NULL);
  g_autofree char *energy = g_build_filename (dir, "energy.csv", NULL);
  g_autofree char *time = g_build_filename (dir, "time.csv", NULL);
  const XrlabFitWorkspace *ws;
  g_autofree char *before = NULL;

  if (skip_without_data ())
    return;
  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_assert_true (g_file_set_contents (data, "1,2,3\n4,x5,6\n", -1, NULL));
  g_assert_true (g_file_set_contents (energy, "1\n2\n3\n", -1, NULL));
  g_assert_true (g_file_set_contents (time, "0\n1\n", -1, NULL));
  before = g_strdup (xrlab_fit_page_get_workspace (page ())->data);
  xrlab_fit_page_open_path (page (), dir);
  settle ();
  g_assert_nonnull (xrlab_fit_page_get_message (page ()));
  g_assert_nonnull (strstr (xrlab_fit_page_get_message (page ()), "data.csv"));
  g_assert_nonnull (strstr (xrlab_fit_page_get_message (page ()), "2"));
  ws = xrlab_fit_page_get_workspace (page ());
  g_assert_nonnull (ws);
  g_assert_cmpstr (ws->data, ==, before);
  g_assert_true (xrlab_map_view_has_map (xrlab_fit_page_get_map_view (page ())));
  g_assert_cmpuint (xrlab_fit_page_get_n_params (page ()), >=, 10);

  /* A folder without a measurement says so. */
  xrlab_fit_page_open_path (page (), tmpdir);
  settle ();
  g_assert_nonnull (strstr (xrlab_fit_page_get_message (page ()), "data.csv"));
  g_assert_cmpstr (xrlab_fit_page_get_workspace (page ())->data, ==, before);
}

/* A single spectrum (one row, no delay axis) opens too, with the model of
 * the shown workspace's file left out: the data alone. */
static void
test_spectrum (void)
{
  g_autofree char *dir = g_build_filename (tmpdir, "spectrum", NULL);
  g_autofree char *data = g_build_filename (dir, "data.csv", NULL);
  g_autofree char *energy = g_build_filename (dir, "energy.csv", NULL);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_assert_true (g_file_set_contents (data, "1,5,2,1\n", -1, NULL));
  g_assert_true (g_file_set_contents (energy, "1\n2\n3\n4\n", -1, NULL));
  xrlab_fit_page_open_path (page (), data);
  settle ();
  g_assert_cmpstr (xrlab_fit_page_get_message (page ()), ==, NULL);
  g_assert_cmpstr (xrlab_fit_page_get_workspace (page ())->data, ==, data);
  g_assert_false (xrlab_map_view_has_map (xrlab_fit_page_get_map_view (page ())));
  g_assert_nonnull (series_named (xrlab_fit_page_get_spectrum (page ()), "Data"));
  g_assert_cmpuint (series_named (xrlab_fit_page_get_spectrum (page ()), "Data")->n, ==, 4);
}

/* trspecfit's example folders: the data under data/, the models beside. */
static void
test_examples (void)
{
  static const char *const folders[] = {
    "01_basic_fitting", "02_dependent_parameters", "03_multi_cycle_dynamics", "04_parameter_profiles",
    "21_multi_file_shared_fit",
  };
  const char *shared = g_getenv ("XRLAB_SHARED_DATA");

  adw_view_stack_set_visible_child_name (xrlab_window_get_view_stack (win), "fit");
  for (guint i = 0; i < G_N_ELEMENTS (folders); i++)
    {
      g_autofree char *dir = g_build_filename (shared != NULL ? shared : "", "trspecfit-examples",
                                               "fitting_workflows", folders[i], NULL);
      g_autofree char *models = g_build_filename (dir, "models_energy.yaml", NULL);

      if (shared == NULL || !g_file_test (dir, G_FILE_TEST_IS_DIR))
        {
          g_test_skip ("trspecfit's examples ($XRLAB_SHARED_DATA/trspecfit-examples) are missing");
          return;
        }
      xrlab_fit_page_open_path (page (), dir);
      settle ();
      g_assert_cmpstr (xrlab_fit_page_get_message (page ()), ==, NULL);
      g_assert_cmpstr (xrlab_fit_page_get_workspace (page ())->data, ==, dir);
      g_assert_cmpstr (xrlab_fit_page_get_workspace (page ())->models, ==, models);
      g_assert_true (xrlab_map_view_has_map (xrlab_fit_page_get_map_view (page ())));
      g_assert_cmpuint (xrlab_fit_page_get_n_params (page ()), >, 0);
    }

  /* xrlab --models models_energy.yaml --model profile_base
   *       --profile GLP_01_A=models_profile.yaml:IMFP
   *       --profile GLP_01_x0=models_profile.yaml:BandBending 04_parameter_profiles
   * (the files relative to here: made absolute) */
  {
    g_autofree char *dir = g_build_filename (shared, "trspecfit-examples", "fitting_workflows",
                                             "04_parameter_profiles", NULL);
    g_autofree char *models = g_build_filename (dir, "models_energy.yaml", NULL);
    g_autofree char *here = g_get_current_dir ();
    g_autofree char *rel = NULL;
    g_autofree char *amp = NULL, *shift = NULL;
    g_autoptr(GVariantDict) options = g_variant_dict_new (NULL);
    g_autoptr(GFile) folder = g_file_new_for_path (dir);
    const char *none[] = { NULL };
    const XrlabFitWorkspace *ws;
    int ret = 0;

    g_assert_cmpint (g_chdir (dir), ==, 0);
    /* as the application makes it absolute: from the working folder (links resolved) */
    rel = g_canonicalize_filename ("models_profile.yaml", NULL);
    amp = g_strdup ("GLP_01_A=models_profile.yaml:IMFP");
    shift = g_strdup ("GLP_01_x0=models_profile.yaml:BandBending");
    {
      const char *profiles[] = { amp, shift, NULL };

      g_variant_dict_insert_value (options, "models", g_variant_new_bytestring (models));
      g_variant_dict_insert (options, "model", "s", "profile_base");
      g_variant_dict_insert (options, "baseline-model", "s", "base");
      g_variant_dict_insert_value (options, "dynamics", g_variant_new_strv (none, -1));
      g_variant_dict_insert_value (options, "profile", g_variant_new_strv (profiles, -1));
      /* open ranges (the earlier command line's were the Au 4f's) */
      g_variant_dict_insert (options, "elim", "s", ":");
      g_variant_dict_insert (options, "tlim", "s", ":");
      g_variant_dict_insert (options, "baseline", "s", ":");
      g_signal_emit_by_name (app, "handle-local-options", options, &ret);
    }
    g_assert_cmpint (g_chdir (here), ==, 0);
    g_assert_cmpint (ret, ==, -1);
    g_application_open (G_APPLICATION (app), &folder, 1, "");
    settle ();
    g_assert_cmpstr (xrlab_fit_page_get_message (page ()), ==, NULL);
    ws = xrlab_fit_page_get_workspace (page ());
    g_assert_cmpuint (g_strv_length (ws->profiles), ==, 2);
    {
      g_autofree char *want = g_strdup_printf ("GLP_01_A=%s:IMFP", rel);
      g_assert_cmpstr (ws->profiles[0], ==, want);
    }
    g_assert_true (xrlab_fit_page_get_param_value (page (), "GLP_01_A_pExpDecay_01_tau", NULL, NULL));
    g_assert_true (xrlab_fit_page_get_param_value (page (), "GLP_01_x0_pLinear_01_m", NULL, NULL));
  }
}

static int
rm_rf (const char *path)
{
  GDir *d = g_dir_open (path, 0, NULL);
  const char *name;

  if (d == NULL)
    return g_remove (path);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);
      rm_rf (child);
    }
  g_dir_close (d);
  return g_rmdir (path);
}

int
main (int argc, char *argv[])
{
  g_autoptr(GError) error = NULL;
  const char *shared = g_getenv ("XRLAB_SHARED_DATA");
  int status;

  tmpdir = g_dir_make_tmp ("xrlab-fit-XXXXXX", NULL);
  {
    g_autofree char *state = g_build_filename (tmpdir, "state", NULL);
    g_autofree char *cache = g_build_filename (tmpdir, "cache", NULL);
    g_setenv ("XDG_STATE_HOME", state, TRUE);
    g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  }
  if (shared != NULL)
    {
      g_autofree char *path = g_build_filename (shared, "trspecfit-au4f", NULL);
      /* as a command line's GFile has it */
      au4f = g_canonicalize_filename (path, NULL);
      if (!g_file_test (au4f, G_FILE_TEST_IS_DIR))
        g_clear_pointer (&au4f, g_free);
    }

  g_test_init (&argc, &argv, NULL);

  app = xrlab_application_new ();
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE | G_APPLICATION_HANDLES_OPEN);
  xrlab_application_set_restore (app, FALSE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);
  g_application_activate (G_APPLICATION (app));
  win = XRLAB_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (app)));
  g_assert_nonnull (win);
  xrlab_test_spin (0.3);

  g_test_add_func ("/fit/open", test_open);
  g_test_add_func ("/fit/edit", test_edit);
  g_test_add_func ("/fit/peak-drag", test_peak_drag);
  g_test_add_func ("/fit/reversed", test_reversed);
  g_test_add_func ("/fit/fit", test_fit);
  g_test_add_func ("/fit/ci", test_ci);
  g_test_add_func ("/fit/sbs", test_sbs);
  g_test_add_func ("/fit/sbs-follow", test_sbs_follow);
  g_test_add_func ("/fit/export", test_export);
  g_test_add_func ("/fit/cancel", test_cancel);
  g_test_add_func ("/fit/ranges", test_ranges);
  g_test_add_func ("/fit/map-drag", test_map_drag);
  g_test_add_func ("/fit/model", test_model);
  g_test_add_func ("/fit/session", test_session);
  g_test_add_func ("/fit/broken", test_broken);
  g_test_add_func ("/fit/spectrum", test_spectrum);
  g_test_add_func ("/fit/examples", test_examples);
  status = g_test_run ();

  gtk_window_destroy (GTK_WINDOW (win));
  xrlab_test_spin (0.1);
  g_clear_object (&app);
  rm_rf (tmpdir);
  g_free (tmpdir);
  g_free (au4f);
  return status;
}
