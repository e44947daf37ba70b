/* bench-gui-fit.c -- the Fit page of the window: a measurement opened, a
 * start value typed
 *
 * The real window (engine thread, map, plots, PLplot) on the Au 4f
 * measurement ($XRLAB_SHARED_DATA/trspecfit-au4f, 212 delays × 1131
 * energies) with the README's model (data/models/au4f.yaml "2D", GLP_01_x0
 * following au4f-time.yaml "SineWave"):
 *   guifit.open_to_map_ms: from the open (the command line's
 *     g_application_open) to the end of the first frame that shows the map;
 *   guifit.value_edit_to_frame_ms_median: a value typed into the table (the
 *     peak's area, alternately up and down) to the end of the frame that
 *     draws the new spectrum, trace and residual map (every reply in), each
 *     edit from an idle window.
 * The engine's accounting is checked against one spectrum transfer and one
 * map transfer per edit. Needs a display (xvfb-run).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include <adwaita.h>
#include <glib/gstdio.h>

#include "bench-models-config.h"
#include "bench-private.h"
#include "xrlab-application.h"
#include "xrlab-renderer.h"
#include "xrlab-engine.h"
#include "xrlab-util.h"
#include "xrlab-window.h"

#define N_EDITS 100
#define N_WARMUP 10

typedef struct {
  gboolean armed;         /* the next frame ends the measurement */
  double t_frame;
  double t_replies;       /* when every reply was in */
} Wait;

static void
on_after_paint (GdkFrameClock *clock, Wait *w)
{
  if (w->armed && w->t_frame == 0)
    w->t_frame = xrlab_now ();
}

static void
spin (double seconds)
{
  double end = xrlab_now () + seconds;

  while (xrlab_now () < end)
    g_main_context_iteration (NULL, FALSE);
}

static gboolean
wake (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

/* Until @page has its replies and a frame after them was painted; the time
 * of that frame, or 0 after @timeout_s. */
static double
wait_frame (XrlabFitPage *page, Wait *w, gboolean (*ready) (XrlabFitPage *page), double timeout_s)
{
  double end = xrlab_now () + timeout_s;
  guint timeout = g_timeout_add (100, wake, NULL);

  w->armed = FALSE;
  w->t_frame = 0;
  while (xrlab_now () < end && (xrlab_fit_page_is_busy (page) || !ready (page)))
    g_main_context_iteration (NULL, TRUE);
  w->armed = TRUE;
  w->t_replies = xrlab_now ();
  while (xrlab_now () < end && w->t_frame == 0)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (timeout);
  w->armed = FALSE;
  return w->t_frame;
}

static gboolean
has_map (XrlabFitPage *page)
{
  return xrlab_map_view_has_map (xrlab_fit_page_get_map_view (page));
}

static gboolean
always (XrlabFitPage *page)
{
  return TRUE;
}

static guint64
transfers (XrlabWindow *win, const char *consumer)
{
  XrlabEngineStats st = { 0 };

  xrlab_engine_get_stats (xrlab_window_get_engine (win), consumer, &st);
  return st.n_transfers;
}

static void
open_au4f (XrlabApplication *app, const char *folder)
{
  g_autoptr(GVariantDict) options = g_variant_dict_new (NULL);
  g_autofree char *models = g_build_filename (XRLAB_MODELS_DIR, "au4f.yaml", NULL);
  g_autofree char *time_models = g_build_filename (XRLAB_MODELS_DIR, "au4f-time.yaml", NULL);
  g_autofree char *dyn = g_strdup_printf ("GLP_01_x0=%s:SineWave", time_models);
  const char *dyns[] = { dyn, NULL };
  g_autoptr(GFile) file = g_file_new_for_path (folder);
  int ret = 0;

  g_variant_dict_insert_value (options, "models", g_variant_new_bytestring (models));
  g_variant_dict_insert (options, "model", "s", "2D");
  g_variant_dict_insert_value (options, "dynamics", g_variant_new_strv (dyns, -1));
  g_signal_emit_by_name (app, "handle-local-options", options, &ret);
  g_application_open (G_APPLICATION (app), &file, 1, "");
}

int
xrlab_bench_gui_fit (int argc, char **argv)
{
  g_autofree char *state = g_dir_make_tmp ("xrlab-bench-XXXXXX", NULL);
  const char *shared = g_getenv ("XRLAB_SHARED_DATA");
  g_autofree char *folder = g_build_filename (shared && *shared ? shared : XRLAB_SHARED_DATA_DEFAULT,
                                              "trspecfit-au4f", NULL);
  g_autoptr(XrlabApplication) app = NULL;
  g_autoptr(GError) error = NULL;
  XrlabWindow *win;
  XrlabFitPage *page;
  GdkFrameClock *clock;
  Wait w = { 0 };
  double t0, t_map, ms[N_EDITS], replies[N_EDITS], plots[N_EDITS];
  double t_open;
  int n = 0;
  guint64 spectra = 0, maps = 0;

  g_setenv ("XDG_STATE_HOME", state, TRUE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_setenv ("GTK_A11Y", "none", TRUE);
  if (!g_file_test (folder, G_FILE_TEST_IS_DIR))
    {
      fprintf (stderr, "xrlab-bench gui-fit: %s is missing\n", folder);
      return 1;
    }
  if (!gtk_init_check ())
    {
      fprintf (stderr, "xrlab-bench gui-fit: needs a display; run it under xvfb-run\n");
      return 1;
    }
  adw_init ();
  app = xrlab_application_new ();
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE | G_APPLICATION_HANDLES_OPEN);
  xrlab_application_set_restore (app, FALSE);
  if (!g_application_register (G_APPLICATION (app), NULL, &error))
    {
      fprintf (stderr, "xrlab-bench gui-fit: %s\n", error->message);
      return 1;
    }
  g_application_activate (G_APPLICATION (app));
  win = XRLAB_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (app)));
  gtk_window_set_default_size (GTK_WINDOW (win), 1400, 880);
  page = xrlab_window_get_fit_page (win);
  spin (0.5);
  clock = gtk_widget_get_frame_clock (GTK_WIDGET (win));
  g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), &w);

  t_open = xrlab_now ();
  open_au4f (app, folder);
  t_map = wait_frame (page, &w, has_map, 30);
  xrlab_bench_check (t_map > 0, "no map within 30 s of the open");
  xrlab_bench_check (xrlab_fit_page_get_message (page) == NULL, "the open failed: %s",
                     xrlab_fit_page_get_message (page));

  /* Edits redraw the residual map too. */
  xrlab_fit_page_set_map_kind (page, XRLAB_FIT_MAP_RESIDUAL);
  wait_frame (page, &w, always, 10);
  for (int i = 0; i < N_WARMUP + N_EDITS; i++)
    {
      char text[32];
      double t;

      if (i == N_WARMUP)
        {
          spectra = transfers (win, "fit-spectrum");
          maps = transfers (win, "fit-map");
        }
      g_snprintf (text, sizeof text, "%d", i % 2 == 0 ? 310 : 290);
      t = xrlab_now ();
      xrlab_fit_page_set_param_text (page, "GLP_01_A", text);
      t0 = t;
      t = wait_frame (page, &w, always, 10) - t;
      if (i >= N_WARMUP)
        {
          replies[n] = (w.t_replies - t0) * 1e3;
          plots[n] = xrlab_plot_get_last_render_ms (xrlab_fit_page_get_spectrum (page))
                     + xrlab_plot_get_last_render_ms (xrlab_fit_page_get_residual (page))
                     + xrlab_plot_get_last_render_ms (xrlab_fit_page_get_trace (page));
        }
      xrlab_bench_check (t > 0, "edit %d: no frame within 10 s", i);
      if (i >= N_WARMUP && t > 0)
        ms[n++] = t * 1e3;
      spin (0.03);
    }
  xrlab_bench_check (transfers (win, "fit-spectrum") - spectra == (guint64) N_EDITS,
                     "%llu spectrum transfers for %d edits",
                     (unsigned long long) (transfers (win, "fit-spectrum") - spectra), N_EDITS);
  xrlab_bench_check (transfers (win, "fit-map") - maps == (guint64) N_EDITS, "%llu map transfers for %d edits",
                     (unsigned long long) (transfers (win, "fit-map") - maps), N_EDITS);
  {
    double v = NAN;
    xrlab_bench_check (xrlab_fit_page_get_param_value (page, "GLP_01_A", &v, NULL) && v == 290,
                       "GLP_01_A is %g after the edits, not 290", v);
  }

  printf ("gui-fit: the Fit page on the Au 4f measurement (212 delays x 1131 energies), model 2D; "
          "open -> map on screen; %d values typed, each -> spectrum, trace and residual map redrawn\n", N_EDITS);
  printf ("# renderer: %s\n", xrlab_renderer_choose (NULL));
  xrlab_bench_report ("guifit.open_to_map_ms", (t_map - t_open) * 1e3);
  xrlab_bench_report ("guifit.value_edit_to_frame_ms_median", xrlab_bench_median (ms, n));
  xrlab_bench_report ("guifit.value_edit_to_frame_ms_p95", xrlab_bench_quantile (ms, n, 0.95));
  /* The part until every reply is on the page (the rest: the frame). */
  xrlab_bench_report ("guifit.value_edit_to_replies_ms_median", xrlab_bench_median (replies, n));
  /* PLplot drawing the spectrum, its residual and the trace. */
  xrlab_bench_report ("guifit.plots_render_ms_median", xrlab_bench_median (plots, n));

  g_signal_handlers_disconnect_by_func (clock, on_after_paint, &w);
  gtk_window_destroy (GTK_WINDOW (win));
  spin (0.1);
  {
    g_autofree char *file = g_build_filename (state, "xrlab", "session.json", NULL);
    g_autofree char *dir = g_build_filename (state, "xrlab", NULL);
    g_remove (file);
    g_rmdir (dir);
    g_rmdir (state);
  }
  return 0;
}
