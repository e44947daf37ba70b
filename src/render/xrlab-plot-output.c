/* xrlab-plot-output.c -- a scene as a PNG, SVG or PDF document
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-plot-render.h"

#include <errno.h>
#include <math.h>

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <glib/gi18n-lib.h>

gboolean
xrlab_plot_output_check (XrlabPlotFormat  format,
                         int              width,
                         int              height,
                         double           scale,
                         GError         **error)
{
  if (width < 120 || height < 90 || width > 20000 || height > 20000)
    {
      g_set_error (error, XRLAB_PLOT_ERROR, XRLAB_PLOT_ERROR_FAILED,
                   _("Plot size %d × %d is outside 120 × 90 … 20000 × 20000"), width, height);
      return FALSE;
    }
  if (format == XRLAB_PLOT_FORMAT_PNG &&
      !(scale >= 0.25 && scale <= 8 && width * scale <= 32000 && height * scale <= 32000))
    {
      g_set_error (error, XRLAB_PLOT_ERROR, XRLAB_PLOT_ERROR_FAILED,
                   _("PNG scale %g is outside 0.25 … 8"), scale);
      return FALSE;
    }
  return TRUE;
}

gboolean
xrlab_plot_renderer_write (XrlabPlotRenderer    *renderer,
                           const XrlabPlotScene *scene,
                           XrlabPlotFormat       format,
                           int                   width,
                           int                   height,
                           double                scale,
                           cairo_write_func_t    write_func,
                           void                 *closure,
                           const char           *name,
                           GError              **error)
{
  cairo_surface_t *surface = NULL;
  cairo_t *cr;
  cairo_status_t status;
  gboolean ok;

  g_return_val_if_fail (renderer != NULL, FALSE);
  g_return_val_if_fail (scene != NULL, FALSE);
  g_return_val_if_fail (write_func != NULL, FALSE);

  if (!xrlab_plot_output_check (format, width, height, scale, error) ||
      !xrlab_plot_check_driver (error))
    return FALSE;

  switch (format)
    {
    case XRLAB_PLOT_FORMAT_PNG:
      surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32,
                                            (int) ceil (width * scale), (int) ceil (height * scale));
      cairo_surface_set_device_scale (surface, scale, scale);
      break;
    case XRLAB_PLOT_FORMAT_SVG:
      surface = cairo_svg_surface_create_for_stream (write_func, closure, width, height);
      break;
    case XRLAB_PLOT_FORMAT_PDF:
      surface = cairo_pdf_surface_create_for_stream (write_func, closure, width, height);
      break;
    default:
      g_return_val_if_reached (FALSE);
    }

  cr = cairo_create (surface);
  ok = xrlab_plot_renderer_draw (renderer, scene, cr, width, height, NULL, error);
  cairo_destroy (cr);
  if (ok && format == XRLAB_PLOT_FORMAT_PNG)
    status = cairo_surface_write_to_png_stream (surface, write_func, closure);
  else
    {
      cairo_surface_finish (surface);
      status = cairo_surface_status (surface);
    }
  cairo_surface_destroy (surface);

  if (ok && status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, XRLAB_PLOT_ERROR, XRLAB_PLOT_ERROR_FAILED,
                   _("Could not write “%s”: %s"), name != NULL ? name : "",
                   status == CAIRO_STATUS_WRITE_ERROR ? g_strerror (errno) : cairo_status_to_string (status));
      ok = FALSE;
    }
  return ok;
}
