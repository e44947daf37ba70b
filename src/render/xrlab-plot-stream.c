/* xrlab-plot-stream.c -- PLplot's driver probe, its error handlers and the
 * renderers' streams
 *
 * All of PLplot's global state is touched here and in the passes of
 * xrlab-plot-render.c, always after the renderer's own stream has been
 * selected, and from one thread only.
 *
 * Streams: each renderer owns one PLplot stream (plmkstrm). The extcairo
 * page size is fixed at plinit, so a size change ends the stream and opens
 * it again at the new size (a fraction of a millisecond).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-plot-render-private.h"

#include <setjmp.h>
#include <string.h>

#include <glib/gi18n-lib.h>

G_DEFINE_QUARK (xrlab-plot-error-quark, xrlab_plot_error)

/* ---- thread ---------------------------------------------------------------- */

gboolean
xrlab_plot_stream_thread_ok (void)
{
  static GThread *owner;
  GThread *self = g_thread_self ();
  GThread *expected = NULL;

  if (g_atomic_pointer_compare_and_exchange_full (&owner, NULL, self, &expected))
    return TRUE;
  return expected == self;
}

/* ---- driver probe and error handlers ------------------------------------------ */

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

  if (!xrlab_plot_stream_thread_ok ())
    {
      /* A programming error: PLplot is not thread safe. */
      g_critical ("PLplot is used from a second thread; every plot renderer must run on one thread");
      g_set_error_literal (error, XRLAB_PLOT_ERROR, XRLAB_PLOT_ERROR_FAILED,
                           "PLplot is used from a second thread");
      return FALSE;
    }

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

/* ---- streams -------------------------------------------------------------------- */

void
xrlab_plot_stream_select (XrlabPlotStream *stream, int width, int height)
{
  if (stream->id >= 0 && stream->width == width && stream->height == height)
    {
      plsstrm (stream->id);
      return;
    }
  if (stream->id >= 0)
    {
      plsstrm (stream->id);
      plend1 ();                   /* frees the stream and selects stream 0 */
      plsstrm (stream->id);        /* allocates it again */
    }
  else
    plmkstrm (&stream->id);

  plsdev ("extcairo");
  plspage (0, 0, width, height, 0, 0);
  plspause (0);
  plscmap0n (XRLAB_PLOT_COL_SERIES0 + 8);
  plinit ();
  stream->width = width;
  stream->height = height;
}

void
xrlab_plot_stream_end (XrlabPlotStream *stream)
{
  if (stream->id < 0)
    return;
  plsstrm (stream->id);
  plend1 ();
  stream->id = -1;
}

void
xrlab_plot_stream_set_color (int index, const XrlabPlotColor *c)
{
  plscol0a (index,
            (PLINT) lround (CLAMP (c->red, 0, 1) * 255),
            (PLINT) lround (CLAMP (c->green, 0, 1) * 255),
            (PLINT) lround (CLAMP (c->blue, 0, 1) * 255),
            CLAMP (c->alpha, 0, 1));
}
