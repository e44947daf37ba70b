/* plot-file-util.h -- reading figures back in the tests: a file's bytes,
 * a PNG's size and resolution, a document as searchable text, a PDF's page
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stdio.h>
#include <string.h>

#include <glib.h>

static inline GBytes *
xrlab_test_read_file (const char *path)
{
  char *data;
  gsize len;

  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  return g_bytes_new_take (data, len);
}

static inline guint32
xrlab_test_be32 (const guint8 *p)
{
  return (guint32) p[0] << 24 | (guint32) p[1] << 16 | (guint32) p[2] << 8 | p[3];
}

/* A PNG's size (IHDR) and its pHYs chunk's pixels per metre, x and y
 * equal, in metres, before the image data (0: no pHYs). */
static inline guint32
xrlab_test_png_info (const guint8 *d, gsize len, guint32 *w, guint32 *h)
{
  g_assert_cmpuint (len, >, 33);
  g_assert_cmpint (memcmp (d, "\x89PNG\r\n\x1a\n", 8), ==, 0);
  *w = xrlab_test_be32 (d + 16);
  *h = xrlab_test_be32 (d + 20);
  for (gsize pos = 8; pos + 12 <= len; pos += 12 + xrlab_test_be32 (d + pos))
    {
      if (memcmp (d + pos + 4, "IDAT", 4) == 0)
        break;
      if (memcmp (d + pos + 4, "pHYs", 4) == 0)
        {
          g_assert_cmpuint (xrlab_test_be32 (d + pos), ==, 9);
          g_assert_cmpuint (d[pos + 16], ==, 1);
          g_assert_cmpuint (xrlab_test_be32 (d + pos + 8), ==, xrlab_test_be32 (d + pos + 12));
          return xrlab_test_be32 (d + pos + 8);
        }
    }
  return 0;
}

static inline guint32
xrlab_test_png_file_info (const char *path, guint32 *w, guint32 *h)
{
  g_autoptr(GBytes) png = xrlab_test_read_file (path);
  gsize len;
  const guint8 *d = g_bytes_get_data (png, &len);

  return xrlab_test_png_info (d, len, w, h);
}

/* The bytes as a string, NULs (in binary streams) made spaces. */
static inline char *
xrlab_test_flatten (const guint8 *d, gsize len)
{
  char *s = g_malloc (len + 1);

  for (gsize i = 0; i < len; i++)
    s[i] = d[i] != '\0' ? (char) d[i] : ' ';
  s[len] = '\0';
  return s;
}

static inline char *
xrlab_test_file_text (const char *path)
{
  g_autoptr(GBytes) b = xrlab_test_read_file (path);
  gsize len;
  const guint8 *d = g_bytes_get_data (b, &len);

  return xrlab_test_flatten (d, len);
}

/* The first page's MediaBox of a PDF (as flattened text): "[ 0 0 W H ]". */
static inline void
xrlab_test_pdf_page (const char *pdf, double *w, double *h)
{
  const char *box = strstr (pdf, "/MediaBox");
  double x0 = -1, y0 = -1;

  g_assert_nonnull (box);
  box = strchr (box, '[');
  g_assert_nonnull (box);
  g_assert_cmpint (sscanf (box, "[ %lf %lf %lf %lf", &x0, &y0, w, h), ==, 4);
  g_assert_cmpfloat (x0, ==, 0);
  g_assert_cmpfloat (y0, ==, 0);
}
