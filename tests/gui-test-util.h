/* gui-test-util.h -- helpers of the GUI tests: run the main loop until a
 * condition holds, temporary folders
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

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

/* Counts pixels of an ARGB32 surface that differ from @bg (0xAARRGGBB)
 * by more than @tolerance in any channel, within columns [x0, x1). */
static inline guint
xrlab_test_count_pixels (cairo_surface_t *s, guint32 bg, int tolerance, int x0, int x1)
{
  int w = cairo_image_surface_get_width (s), h = cairo_image_surface_get_height (s);
  int stride = cairo_image_surface_get_stride (s);
  const guchar *data;
  guint n = 0;

  cairo_surface_flush (s);
  data = cairo_image_surface_get_data (s);
  x0 = CLAMP (x0, 0, w);
  x1 = CLAMP (x1, 0, w);
  for (int y = 0; y < h; y++)
    {
      const guint32 *row = (const guint32 *) (const void *) (data + (gsize) y * stride);
      for (int x = x0; x < x1; x++)
        {
          guint32 p = row[x];
          for (int c = 0; c < 24; c += 8)
            if (ABS ((int) ((p >> c) & 0xff) - (int) ((bg >> c) & 0xff)) > tolerance)
              {
                n++;
                break;
              }
        }
    }
  return n;
}

/* Counts pixels close (within @tolerance per channel) to colour @rgb. */
static inline guint
xrlab_test_count_color (cairo_surface_t *s, guint32 rgb, int tolerance, int x0, int x1)
{
  int w = cairo_image_surface_get_width (s), h = cairo_image_surface_get_height (s);
  int stride = cairo_image_surface_get_stride (s);
  const guchar *data;
  guint n = 0;

  cairo_surface_flush (s);
  data = cairo_image_surface_get_data (s);
  x0 = CLAMP (x0, 0, w);
  x1 = CLAMP (x1, 0, w);
  for (int y = 0; y < h; y++)
    {
      const guint32 *row = (const guint32 *) (const void *) (data + (gsize) y * stride);
      for (int x = x0; x < x1; x++)
        {
          guint32 p = row[x];
          gboolean close = TRUE;
          for (int c = 0; c < 24; c += 8)
            if (ABS ((int) ((p >> c) & 0xff) - (int) ((rgb >> c) & 0xff)) > tolerance)
              close = FALSE;
          if (close)
            n++;
        }
    }
  return n;
}
