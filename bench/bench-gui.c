/* bench-gui.c -- from an edit in the window to the frame that shows it
 *
 * The real window (engine thread, plot, PLplot) with 5 materials x 1000
 * energies, δ on log axes. Each edit is typed into a row's entry as a user
 * would (alternately a density and a formula); the time runs from the edit
 * to the end of the frame that draws the new arrays: the window's request,
 * the engine's reply on the main loop, the frame clock, and PLplot drawing
 * the frame. Under Xvfb, where OpenGL is a software rasteriser, the window
 * draws with GTK's cairo renderer (xrlab-renderer.c), as on a VNC or
 * X-forwarded display; GSK_RENDERER=gl measures llvmpipe instead. Edits
 * are spaced so that each starts from an idle window.
 * Also: the time PLplot takes to draw 5 x 1000 points. The last plotted
 * arrays are checked against a direct computation, and the engine's own
 * accounting against one transfer per edit. Needs a display (xvfb-run).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdio.h>

#include <adwaita.h>
#include <glib/gstdio.h>

#include "bench-private.h"
#include "xrlab-application.h"
#include "xrlab-renderer.h"
#include "xrlab-engine.h"
#include "xrlab-formula.h"
#include "xrlab-util.h"
#include "xrlab-window.h"

#define N_EDITS 300
#define N_WARMUP 20
#define N_POINTS 1000
#define N_RENDERS 100

typedef struct {
  XrlabWindow *win;
  XrlabPlotData *old;
  double t_frame;
  double data_to_frame_ms;   /* of that frame: from set_data to drawn */
  double render_ms;          /* of that frame: PLplot drawing it */
} Wait;

static void
on_rendered (XrlabPlot *plot, double ms, Wait *w)
{
  if (w->t_frame == 0 && xrlab_plot_get_data (plot) != w->old && xrlab_plot_get_data (plot) != NULL)
    {
      w->t_frame = xrlab_now ();
      w->data_to_frame_ms = xrlab_plot_get_data_to_frame_ms (plot);
      w->render_ms = ms;
    }
}

static void
spin (double seconds)
{
  double end = xrlab_now () + seconds;

  while (xrlab_now () < end)
    g_main_context_iteration (NULL, FALSE);
}

static gboolean
wait_idle (XrlabWindow *win, double timeout_s)
{
  double end = xrlab_now () + timeout_s;

  while (xrlab_window_is_busy (win))
    {
      if (xrlab_now () > end)
        return FALSE;
      g_main_context_iteration (NULL, TRUE);
    }
  return TRUE;
}

static gboolean
wake (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

static const char *formulas[] = { "SiO2", "Si3N4", "Al2O3", "SiC", "Si" };

/* One edit; returns the edit-to-frame time in ms (or -1 on a time-out). */
static double
edit (XrlabWindow *win, Wait *w, int i)
{
  XrlabMaterialList *list = xrlab_window_get_material_list (win);
  XrlabMaterialRow *row;
  double t0, end;
  char text[32];

  w->old = xrlab_plot_get_data (xrlab_window_get_plot (win));
  w->t_frame = 0;
  if (i % 2 == 0)
    {
      row = xrlab_material_list_get_row (list, (guint) (i / 2) % 5);
      g_snprintf (text, sizeof text, "%.4f",
                  xrlab_material_get_density (xrlab_material_row_get_material (row)) * (i % 4 == 0 ? 1.001 : 0.999));
      t0 = xrlab_now ();
      gtk_editable_set_text (xrlab_material_row_get_density_editable (row), text);
    }
  else
    {
      row = xrlab_material_list_get_row (list, 1);
      t0 = xrlab_now ();
      /* Row 1 starts as SiO2: the cycle starts with another formula. */
      gtk_editable_set_text (xrlab_material_row_get_formula_editable (row), formulas[(i / 2 + 1) % 5]);
    }
  end = t0 + 5.0;
  {
    /* Wakes the blocking iteration below when nothing comes. */
    guint timeout = g_timeout_add (5000, wake, NULL);
    while (w->t_frame == 0 && xrlab_now () < end)
      g_main_context_iteration (NULL, TRUE);
    g_source_remove (timeout);
  }
  if (w->t_frame == 0)
    return -1;
  return (w->t_frame - t0) * 1e3;
}

static gboolean
check_plot (XrlabWindow *win)
{
  XrlabPlotData *data = xrlab_plot_get_data (xrlab_window_get_plot (win));
  GListModel *materials = G_LIST_MODEL (xrlab_window_get_materials (win));
  const XrlabPlotSeries *s0;
  g_autoptr(XrlabEnergyGrid) grid = NULL;
  XrlabOpticsCache *cache;
  double *expect;
  gboolean ok;

  if (data == NULL || xrlab_plot_data_get_n_series (data) != 5)
    return FALSE;
  s0 = xrlab_plot_data_get_series (data, 0);
  grid = xrlab_energy_grid_new (s0->x, s0->n, XRLAB_ENERGY_UNIT_KEV, NULL);
  if (grid == NULL)
    return FALSE;
  cache = xrlab_optics_cache_new (grid);
  expect = g_new (double, s0->n);
  ok = TRUE;
  for (guint m = 0; ok && m < 5; m++)
    {
      g_autoptr(XrlabMaterial) mat = g_list_model_get_item (materials, m);
      g_autoptr(XrlabFormula) f = xrlab_formula_parse (xrlab_material_get_formula (mat), NULL);
      XrlabOpticsMaterial om = { f, xrlab_material_get_density (mat), 0.0 };
      double *out[XRLAB_QUANTITY_N] = { NULL };
      const XrlabPlotSeries *s = xrlab_plot_data_get_series (data, m);

      out[XRLAB_QUANTITY_DELTA] = expect;
      ok = f != NULL && xrlab_optics_compute (cache, &om, XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_DELTA), out, NULL);
      for (gsize e = 0; ok && e < s->n; e++)
        ok = xrlab_plot_series_y (s, e) == expect[e];
    }
  g_free (expect);
  xrlab_optics_cache_free (cache);
  return ok;
}

int
xrlab_bench_gui (int argc, char **argv)
{
  g_autofree char *state = g_dir_make_tmp ("xrlab-bench-XXXXXX", NULL);
  g_autoptr(XrlabApplication) app = NULL;
  g_autoptr(XrlabSession) session = NULL;
  g_autoptr(GError) error = NULL;
  XrlabWindow *win;
  XrlabPlot *plot;
  Wait w = { 0 };
  double *all, *density, *formula, *render, *reply, *to_frame, *reply_draw;
  int n_all = 0, n_density = 0, n_formula = 0;
  XrlabEngineStats before, after;

  g_setenv ("XDG_STATE_HOME", state, TRUE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_setenv ("GTK_A11Y", "none", TRUE);
  if (!gtk_init_check ())
    {
      fprintf (stderr, "xrlab-bench gui: needs a display; run it under xvfb-run\n");
      return 1;
    }
  adw_init ();

  app = xrlab_application_new ();
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  xrlab_application_set_restore (app, FALSE);
  if (!g_application_register (G_APPLICATION (app), NULL, &error))
    {
      fprintf (stderr, "xrlab-bench gui: %s\n", error->message);
      return 1;
    }
  g_application_activate (G_APPLICATION (app));
  win = XRLAB_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (app)));
  plot = xrlab_window_get_plot (win);
  gtk_window_set_default_size (GTK_WINDOW (win), 1400, 880);

  session = xrlab_session_new ();
  xrlab_session_add_material (session, "Si", "Si", 2.33, 1, 0x1c71d8, TRUE);
  xrlab_session_add_material (session, "SiO2", "SiO2", 2.2, 1, 0xe66100, TRUE);
  xrlab_session_add_material (session, "Au", "Au", 19.3, 1, 0x26a269, TRUE);
  xrlab_session_add_material (session, "Al2O3", "Al2O3", 3.95, 1, 0x9141ac, TRUE);
  xrlab_session_add_material (session, "Pt", "Pt", 21.45, 1, 0xc01c28, TRUE);
  session->sweep = (XrlabSweep) { 1.0, 30.0, N_POINTS, TRUE, XRLAB_ENERGY_UNIT_KEV };
  xrlab_window_apply_session (win, session);
  g_signal_connect (plot, "rendered", G_CALLBACK (on_rendered), &w);
  wait_idle (win, 10);
  spin (0.5);

  all = g_new (double, N_EDITS);
  density = g_new (double, N_EDITS);
  formula = g_new (double, N_EDITS);
  render = g_new (double, N_RENDERS);
  reply = g_new (double, N_EDITS);
  to_frame = g_new (double, N_EDITS);
  reply_draw = g_new (double, N_EDITS);

  for (int i = 0; i < N_WARMUP; i++)
    {
      edit (win, &w, i);
      wait_idle (win, 5);
      spin (0.03);
    }
  xrlab_engine_get_stats (xrlab_window_get_engine (win), "plot", &before);
  for (int i = 0; i < N_EDITS; i++)
    {
      double ms = edit (win, &w, i);
      xrlab_bench_check (ms >= 0, "edit %d: no frame with new data within 5 s", i);
      if (ms >= 0)
        {
          reply[n_all] = ms - w.data_to_frame_ms;
          to_frame[n_all] = w.data_to_frame_ms;
          reply_draw[n_all] = reply[n_all] + w.render_ms;
          all[n_all++] = ms;
          if (i % 2 == 0)
            density[n_density++] = ms;
          else
            formula[n_formula++] = ms;
        }
      wait_idle (win, 5);
      /* Start the next edit from an idle window and frame clock. */
      spin (0.03);
    }
  xrlab_engine_get_stats (xrlab_window_get_engine (win), "plot", &after);

  /* PLplot alone: 5 series x 1000 points into a 1000 x 700 image. */
  {
    cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1000, 700);
    for (int r = 0; r < N_RENDERS; r++)
      {
        cairo_t *cr = cairo_create (s);
        double t0 = xrlab_now ();
        xrlab_plot_render (plot, cr, 1000, 700, FALSE, NULL);
        render[r] = (xrlab_now () - t0) * 1e3;
        cairo_destroy (cr);
      }
    cairo_surface_destroy (s);
  }

  xrlab_bench_check (check_plot (win), "the plotted delta differs from a direct computation");
  xrlab_bench_check (after.n_transfers - before.n_transfers == (guint64) n_all,
                     "%" G_GUINT64_FORMAT " plot transfers for %d edits",
                     after.n_transfers - before.n_transfers, n_all);

  printf ("gui: the window, 5 materials x %d energies, delta on log axes; %d edits typed into the rows "
          "(half densities, half formulas), each from an idle window; edit -> engine -> reply -> frame drawn\n",
          N_POINTS, N_EDITS);
  printf ("# renderer: %s\n", xrlab_renderer_choose (NULL));
  xrlab_bench_report ("gui.edit_to_frame_ms_median", xrlab_bench_median (all, n_all));
  xrlab_bench_report ("gui.edit_to_frame_ms_p95", xrlab_bench_quantile (all, n_all, 0.95));
  xrlab_bench_report ("gui.density_edit_to_frame_ms_median", xrlab_bench_median (density, n_density));
  xrlab_bench_report ("gui.formula_edit_to_frame_ms_median", xrlab_bench_median (formula, n_formula));
  /* The parts: edit -> the engine's reply is on the plot (the window waits
   * for it, within a frame budget, before the frame is painted); -> the
   * frame is drawn; and the work itself, the reply plus PLplot's drawing. */
  xrlab_bench_report ("gui.edit_to_data_ms_median", xrlab_bench_median (reply, n_all));
  xrlab_bench_report ("gui.data_to_frame_ms_median", xrlab_bench_median (to_frame, n_all));
  xrlab_bench_report ("gui.reply_plus_draw_ms_median", xrlab_bench_median (reply_draw, n_all));
  xrlab_bench_report ("gui.reply_plus_draw_ms_p95", xrlab_bench_quantile (reply_draw, n_all, 0.95));
  xrlab_bench_report ("gui.render_5x1000_ms_median", xrlab_bench_median (render, N_RENDERS));
  xrlab_bench_report ("gui.render_5x1000_ms_p95", xrlab_bench_quantile (render, N_RENDERS, 0.95));
  xrlab_bench_report ("gui.transfers_per_edit", (double) (after.n_transfers - before.n_transfers) / MAX (n_all, 1));
  xrlab_bench_report ("gui.bytes_per_edit", (double) (after.bytes - before.bytes) / MAX (n_all, 1));

  gtk_window_destroy (GTK_WINDOW (win));
  spin (0.1);
  g_free (all);
  g_free (density);
  g_free (formula);
  g_free (render);
  g_free (reply);
  g_free (to_frame);
  g_free (reply_draw);
  {
    g_autofree char *file = g_build_filename (state, "xrlab", "session.json", NULL);
    g_autofree char *dir = g_build_filename (state, "xrlab", NULL);
    g_remove (file);
    g_rmdir (dir);
    g_rmdir (state);
  }
  return 0;
}
