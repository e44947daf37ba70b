/* gui-test-util.h -- helpers of the GUI tests: the application started on a
 * private state folder and stopped, run the main loop until a condition
 * holds, pixels of a cairo surface (test-common.h counts them)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "test-common.h"
#include "xrlab-application.h"
#include "xrlab-plot.h"
#include "xrlab-window.h"

typedef gboolean (*XrlabTestCondition) (gpointer data);

/* Iterates the default main context until @cond returns TRUE or @timeout_s
 * passes (then the test fails with @what). */
static inline void
xrlab_test_wait_for (XrlabTestCondition cond, gpointer data, double timeout_s, const char *what)
{
  gint64 end = g_get_monotonic_time () + (gint64) (timeout_s * G_USEC_PER_SEC);

  while (!cond (data))
    {
      if (g_get_monotonic_time () > end)
        g_error ("timed out after %.1f s waiting for: %s", timeout_s, what);
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
}

/* Runs the main loop for @seconds. */
static inline void
xrlab_test_spin (double seconds)
{
  gint64 end = g_get_monotonic_time () + (gint64) (seconds * G_USEC_PER_SEC);

  while (g_get_monotonic_time () < end)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
}

/* A new temporary folder (from @tmpl, "NAME-XXXXXX") whose "state" the
 * application takes for XDG_STATE_HOME: no saved session of the user's is
 * read or touched. Call it before g_test_init(). */
static inline char *
xrlab_test_private_state (const char *tmpl)
{
  char *dir = g_dir_make_tmp (tmpl, NULL);
  g_autofree char *state = NULL;

  g_assert_nonnull (dir);
  state = g_build_filename (dir, "state", NULL);
  g_setenv ("XDG_STATE_HOME", state, TRUE);
  return dir;
}

/* The application, registered and activated (its saved session restored
 * when @restore), and its window in @win. */
static inline XrlabApplication *
xrlab_test_app_start (gboolean restore, XrlabWindow **win)
{
  XrlabApplication *app = xrlab_application_new ();
  g_autoptr(GError) error = NULL;

  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  xrlab_application_set_restore (app, restore);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);
  g_application_activate (G_APPLICATION (app));
  *win = XRLAB_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (app)));
  g_assert_nonnull (*win);
  return app;
}

/* Closes @win, lets the main loop finish with it, frees @app (*app set to
 * NULL) and removes the folder @tmpdir (freed). */
static inline void
xrlab_test_app_stop (XrlabApplication **app, XrlabWindow *win, char *tmpdir)
{
  gtk_window_destroy (GTK_WINDOW (win));
  xrlab_test_spin (0.1);
  g_clear_object (app);
  xrlab_test_rm_rf (tmpdir);
  g_free (tmpdir);
}

static inline gboolean
xrlab_test_window_idle_and_drawn (gpointer data)
{
  XrlabWindow *win = data;

  return !xrlab_window_is_busy (win) && xrlab_plot_get_render_count (xrlab_window_get_plot (win)) > 0;
}

/* Waits until the pending edits of @win are computed and a frame of its plot
 * was drawn after them (when the plot is on screen). */
static inline void
xrlab_test_window_settle (XrlabWindow *win)
{
  XrlabPlot *plot = xrlab_window_get_plot (win);
  guint before;

  xrlab_test_wait_for (xrlab_test_window_idle_and_drawn, win, 20, "the window to compute and draw");
  before = xrlab_plot_get_render_count (plot);
  gtk_widget_queue_draw (GTK_WIDGET (plot));
  /* One more frame, so that anything queued is on screen. */
  for (int i = 0; i < 50 && xrlab_plot_get_render_count (plot) == before
                  && gtk_widget_get_mapped (GTK_WIDGET (plot)); i++)
    {
      gtk_widget_queue_draw (GTK_WIDGET (plot));
      xrlab_test_spin (0.02);
    }
  xrlab_test_spin (0.05);
}

static inline gboolean
xrlab_test_fit_page_idle (gpointer data)
{
  return !xrlab_fit_page_is_busy (xrlab_window_get_fit_page (data));
}

/* Waits until the Fit page of @win has computed what it asked for (three
 * times over, with a few frames between: a reply may ask for more). */
static inline void
xrlab_test_fit_settle (XrlabWindow *win)
{
  for (int k = 0; k < 3; k++)
    {
      xrlab_test_wait_for (xrlab_test_fit_page_idle, win, 60, "the Fit page to compute");
      xrlab_test_spin (0.05);
    }
}

/* The transfers the engine of @win counted for @consumer. */
static inline guint64
xrlab_test_transfers (XrlabWindow *win, const char *consumer)
{
  XrlabEngineStats st = { 0 };

  xrlab_engine_get_stats (xrlab_window_get_engine (win), consumer, &st);
  return st.n_transfers;
}

/* Counts pixels of an ARGB32 surface that differ from @bg (0xAARRGGBB)
 * by more than @tolerance in any channel, within columns [x0, x1). */
static inline guint
xrlab_test_count_pixels (cairo_surface_t *s, guint32 bg, int tolerance, int x0, int x1)
{
  XrlabTestImage img = xrlab_test_image (s);

  return xrlab_test_count_unlike (&img, bg & 0xffffff, tolerance, x0, 0, x1, img.height);
}

/* Counts pixels close (within @tolerance per channel) to colour @rgb. */
static inline guint
xrlab_test_count_color (cairo_surface_t *s, guint32 rgb, int tolerance, int x0, int x1)
{
  XrlabTestImage img = xrlab_test_image (s);

  return xrlab_test_count_near (&img, rgb, tolerance, x0, 0, x1, img.height);
}
