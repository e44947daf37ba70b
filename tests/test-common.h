/* test-common.h -- helpers shared by the tests: running xrlab-cli and other
 * programs with their output captured, temporary files and folders, the
 * reference data of ../shared/data, models from YAML text, the main loop,
 * pixels of an image
 *
 * Built once into a static library (tests/meson.build) that every test
 * links. GLib and the engine only: the image helpers read a plain ARGB32
 * buffer, and xrlab_test_image() (defined when <cairo.h> comes first) turns
 * a cairo image surface into one.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stdarg.h>

#include <glib.h>

#include "xrlab-model.h"

G_BEGIN_DECLS

/* ---- programs ----------------------------------------------------------------------- */

/* Runs @argv (NULL-terminated; the program is looked for on PATH) in the
 * environment @envp (NULL: the test's own) with standard output and
 * standard error always captured (a child must not write into the TAP
 * stream). Returns the exit status, or 128 + the signal that ended the
 * child. @out and @err (each may be NULL) receive what it wrote. */
int xrlab_test_spawn (const char *const *argv, const char *const *envp, char **out, char **err);

/* Runs xrlab-cli ($XRLAB_CLI, set by tests/meson.build) with @args
 * (NULL-terminated), in @language (NULL: the test's English). Returns the
 * exit status; a child ended by a signal (a crash) fails the test. */
int xrlab_test_cli_argv (const char *language, const char *const *args, char **out, char **err);
int xrlab_test_cli_valist (const char *language, char **out, char **err, va_list args);
int xrlab_test_cli (char **out, char **err, ...) G_GNUC_NULL_TERMINATED;

/* ---- text --------------------------------------------------------------------------- */

/* Fails the test, showing @haystack, unless @needle is in it. */
void xrlab_test_assert_contains (const char *haystack, const char *needle);

/* Fails the test unless @text is valid UTF-8 without control characters
 * (C0, DEL, C1) and bidirectional controls: safe to print on a terminal. */
void xrlab_test_assert_printable (const char *text);

/* How many times @needle is in @haystack (overlapping ones too). */
guint xrlab_test_count_substr (const char *haystack, const char *needle);

/* ---- files and folders -------------------------------------------------------------- */

/* Writes @contents into @dir/@name and returns the path. */
char *xrlab_test_write_file (const char *dir, const char *name, const char *contents);

/* Removes @path and, for a folder, everything below it; links are removed,
 * never followed. A path that does not exist is no error. */
void xrlab_test_rm_rf (const char *path);

/* ---- reference data ----------------------------------------------------------------- */

/* The path of @rel inside the reference data ($XRLAB_SHARED_DATA, which
 * tests/meson.build points at ../shared/data), or NULL when it is not there:
 * then the test is skipped (a user's clone may lack ../shared), except with
 * CI=true, where missing data fail the test. @what names the data in the
 * message. */
char *xrlab_test_shared_path (const char *rel, const char *what);

/* ---- models ------------------------------------------------------------------------- */

/* Model @name of the YAML text @yaml (a model file's contents); a parse
 * error fails the test. */
XrlabModel *xrlab_test_model_from_text (const char *yaml, const char *name);

/* Gives parameter @param of @m the dynamics of the models @models_csv
 * (comma-separated names) of the YAML text @yaml, at frequency @freq (0:
 * none); an error fails the test. */
void xrlab_test_add_dynamics_text (XrlabModel *m, const char *param, const char *yaml,
                                   const char *models_csv, double freq);

/* ---- threads ------------------------------------------------------------------------ */

/* Runs @func (@data) on @n threads at the same time and joins them all. */
void xrlab_test_run_threads (GThreadFunc func, gpointer data, guint n);

/* ---- the main loop ------------------------------------------------------------------ */

/* Iterates the default main context for @ms milliseconds: whatever is queued
 * for it (a late reply, a late progress report) runs now. */
void xrlab_test_iterate_for (guint ms);

/* The tally of an engine test's replies: @pending is raised before each
 * request; xrlab_test_tally_replied() counts an answer (taking @error:
 * SUPERSEDED counted apart, any other kept as the last real error);
 * xrlab_test_tally_wait() iterates until nothing is pending. */
typedef struct {
  int     pending;
  int     replies;
  int     superseded;
  GError *error;
} XrlabTestTally;

void xrlab_test_tally_note_error (XrlabTestTally *t, GError *error);
void xrlab_test_tally_replied    (XrlabTestTally *t, GError *error);
void xrlab_test_tally_wait       (XrlabTestTally *t);

/* ---- images ------------------------------------------------------------------------- */

/* An ARGB32 image (cairo's layout: one guint32 a pixel, 0xAARRGGBB in the
 * machine's order, rows @stride bytes apart). */
typedef struct {
  const guchar *data;
  int           width;
  int           height;
  int           stride;
} XrlabTestImage;

/* The pixel at (@x, @y), without its alpha (0xRRGGBB). */
guint32 xrlab_test_pixel (const XrlabTestImage *img, int x, int y);

/* Whether every channel of @a and @b (0xRRGGBB) is within @tolerance. */
gboolean xrlab_test_rgb_close (guint32 a, guint32 b, int tolerance);

/* Pixels of the rectangle [@x0, @x1) × [@y0, @y1) (clamped to the image)
 * whose colour is within @tolerance of @rgb in every channel. */
guint xrlab_test_count_near (const XrlabTestImage *img, guint32 rgb, int tolerance, int x0, int y0,
                             int x1, int y1);

/* Pixels of the rectangle that differ from @bg by more than @tolerance in
 * some channel: the ink on a background. */
guint xrlab_test_count_unlike (const XrlabTestImage *img, guint32 bg, int tolerance, int x0, int y0,
                               int x1, int y1);

#ifdef CAIRO_H
/* The image of a cairo ARGB32 image surface (flushed first); it stays valid
 * while the surface lives and is not drawn on. */
static inline XrlabTestImage
xrlab_test_image (cairo_surface_t *s)
{
  XrlabTestImage img;

  cairo_surface_flush (s);
  img.data = cairo_image_surface_get_data (s);
  img.width = cairo_image_surface_get_width (s);
  img.height = cairo_image_surface_get_height (s);
  img.stride = cairo_image_surface_get_stride (s);
  return img;
}

/* A cairo_write_func_t that appends to the GByteArray @closure. */
static inline cairo_status_t
xrlab_test_append_bytes (void *closure, const unsigned char *data, unsigned int length)
{
  g_byte_array_append (closure, data, length);
  return CAIRO_STATUS_SUCCESS;
}
#endif

G_END_DECLS
