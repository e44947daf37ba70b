/* xrlab-renderer.c -- GTK's cairo renderer where OpenGL is only software
 *
 * GTK 4 draws with OpenGL wherever a GL context can be made, and also where
 * that GL is Mesa's software rasteriser (llvmpipe, softpipe, swrast): a
 * remote X display, VNC, X forwarding from a beamline machine, Xvfb, a
 * computer without a GPU driver. There the GL renderer runs an emulated GPU
 * on the CPU: on the Fit page a value edit took 47 ms from edit to frame
 * with llvmpipe, against 10.5 ms with GTK's cairo renderer on the same
 * machine (`xvfb-run xrlab-bench gui-fit`). GTK reads GSK_RENDERER once,
 * when it makes the first window's renderer, so the choice is made at
 * start-up, before any window exists. A GSK_RENDERER set by the user is
 * left as it is.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-renderer.h"

#include <string.h>

#include <epoxy/gl.h>

gboolean
xrlab_gl_renderer_is_software (const char *renderer)
{
  static const char *const software[] = {
    "llvmpipe", "softpipe", "swrast", "software rasterizer", "lavapipe",
  };
  g_autofree char *lower = NULL;

  if (renderer == NULL)
    return FALSE;
  lower = g_ascii_strdown (renderer, -1);
  for (guint i = 0; i < G_N_ELEMENTS (software); i++)
    if (strstr (lower, software[i]) != NULL)
      return TRUE;
  return FALSE;
}

static char *note;

const char *
xrlab_renderer_choose (GdkDisplay *display)
{
  g_autoptr(GdkGLContext) context = NULL;
  g_autoptr(GError) error = NULL;
  const char *renderer;

  if (note != NULL)
    return note;
  if (g_getenv ("GSK_RENDERER") != NULL)
    return note = g_strdup_printf ("GSK_RENDERER=%s, as set", g_getenv ("GSK_RENDERER"));
  if (display == NULL)
    return note = g_strdup ("no display");
  context = gdk_display_create_gl_context (display, &error);
  if (context == NULL || !gdk_gl_context_realize (context, &error))
    return note = g_strdup_printf ("no OpenGL (%s): GTK draws with cairo",
                                   error != NULL ? error->message : "no context");
  gdk_gl_context_make_current (context);
  renderer = (const char *) glGetString (GL_RENDERER);
  if (xrlab_gl_renderer_is_software (renderer))
    {
      g_setenv ("GSK_RENDERER", "cairo", FALSE);
      note = g_strdup_printf ("OpenGL is software (%s): cairo renderer", renderer);
    }
  else
    note = g_strdup_printf ("OpenGL renderer %s", renderer != NULL ? renderer : "(unnamed)");
  gdk_gl_context_clear_current ();
  return note;
}
