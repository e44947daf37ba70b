/* xrlab-plot-export.c -- an XrlabPlot written as PNG, SVG or PDF, and the
 * preview of a figure
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-plot-private.h"

#include <math.h>
#include <stdio.h>

#include "xrlab-util.h"

static cairo_status_t
write_to_file (void *closure, const unsigned char *data, unsigned int length)
{
  FILE *f = closure;

  if (fwrite (data, 1, length, f) != length)
    return CAIRO_STATUS_WRITE_ERROR;
  return CAIRO_STATUS_SUCCESS;
}

/* Writes @scene on @page to @path atomically. */
static gboolean
write_scene (XrlabPlot *self, const XrlabPlotScene *scene, const XrlabPlotPage *page,
             const char *path, GError **error)
{
  XrlabAtomicFile *af;
  gboolean ok;

  af = xrlab_atomic_file_open (path, error);
  if (af == NULL)
    return FALSE;
  ok = xrlab_plot_renderer_write_page (self->renderer, scene, page, write_to_file,
                                       xrlab_atomic_file_stream (af), path, error);
  /* The stream now has the export size; the next frame re-opens it. */
  xrlab_plot_invalidate (self);
  if (!ok)
    {
      xrlab_atomic_file_abort (af);
      return FALSE;
    }
  return xrlab_atomic_file_commit (af, error);
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
  XrlabPlotPage page = { format, width, height, format == XRLAB_PLOT_FORMAT_PNG ? 72.0 * scale : 72.0 };
  XrlabPlotScene scene;

  g_return_val_if_fail (XRLAB_IS_PLOT (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  /* Refused before anything is written. */
  if (!xrlab_plot_output_check (format, width, height, scale, error) ||
      !xrlab_plot_check_driver (error))
    return FALSE;
  xrlab_plot_build_scene (self, &scene, dark);
  return write_scene (self, &scene, &page, path, error);
}

/* The scene of @figure: its type and lines in points. */
static void
figure_scene (XrlabPlot *self, const XrlabPlotFigure *figure, XrlabPlotScene *scene)
{
  xrlab_plot_build_scene (self, scene, figure->dark);
  scene->font_size = figure->font_size_pt > 0 ? figure->font_size_pt : 9.0;
  scene->line_width = figure->line_width_pt > 0 ? figure->line_width_pt : self->line_width * 0.5;
}

GdkTexture *
xrlab_plot_render_figure_preview (XrlabPlot             *self,
                                  const XrlabPlotFigure *figure,
                                  int                    max_width,
                                  int                    max_height)
{
  XrlabPlotScene scene;
  cairo_surface_t *s;
  cairo_t *cr;
  GBytes *bytes;
  GdkTexture *texture;
  int uw, uh, w, h;
  double k;

  g_return_val_if_fail (XRLAB_IS_PLOT (self), NULL);
  g_return_val_if_fail (figure != NULL, NULL);
  if (!xrlab_plot_page_check (&figure->page, NULL))
    return NULL;
  uw = (int) ceil (figure->page.width_pt - 1e-6);
  uh = (int) ceil (figure->page.height_pt - 1e-6);
  k = MIN ((double) max_width / uw, (double) max_height / uh);
  w = MAX (1, (int) ceil (uw * k));
  h = MAX (1, (int) ceil (uh * k));
  figure_scene (self, figure, &scene);
  s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  cr = cairo_create (s);
  cairo_scale (cr, k, k);
  xrlab_plot_renderer_draw (self->renderer, &scene, cr, uw, uh, NULL, NULL);
  cairo_destroy (cr);
  cairo_surface_flush (s);
  /* The stream now has the page's size; the next frame re-opens it. */
  xrlab_plot_invalidate (self);
  bytes = g_bytes_new (cairo_image_surface_get_data (s), (gsize) cairo_image_surface_get_stride (s) * h);
  texture = gdk_memory_texture_new (w, h, GDK_MEMORY_DEFAULT, bytes, (gsize) cairo_image_surface_get_stride (s));
  g_bytes_unref (bytes);
  cairo_surface_destroy (s);
  return texture;
}

gboolean
xrlab_plot_export_figure (XrlabPlot               *self,
                          const char              *path,
                          const XrlabPlotFigure   *figure,
                          GError                 **error)
{
  XrlabPlotScene scene;

  g_return_val_if_fail (XRLAB_IS_PLOT (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (figure != NULL, FALSE);

  if (!xrlab_plot_page_check (&figure->page, error) || !xrlab_plot_check_driver (error))
    return FALSE;
  figure_scene (self, figure, &scene);
  return write_scene (self, &scene, &figure->page, path, error);
}
