/* xrlab-renderer.h -- GTK's cairo renderer where OpenGL is only software
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* TRUE for the GL_RENDERER string of a software rasteriser (llvmpipe,
 * softpipe, swrast, ...); FALSE for NULL. */
gboolean    xrlab_gl_renderer_is_software (const char *renderer);

/* Once, before the first window is realised: where OpenGL on @display is a
 * software rasteriser and GSK_RENDERER is unset, sets GSK_RENDERER=cairo.
 * Returns a line saying what was found and chosen (owned, the same on every
 * later call). */
const char *xrlab_renderer_choose         (GdkDisplay *display);

G_END_DECLS
