/* examples-data.h -- where the tests find trspecfit's examples
 * ($XRLAB_SHARED_DATA/trspecfit-examples)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "xrlab-util.h"

/* The path of @rel inside trspecfit's examples, or NULL after
 * g_test_skip() when they are missing; with CI=true missing data fail the
 * test instead. */
static inline char *
examples_path (const char *rel)
{
  const char *shared = g_getenv ("XRLAB_SHARED_DATA");
  char *path = shared ? g_build_filename (shared, "trspecfit-examples", rel, NULL) : NULL;

  if (path != NULL && g_file_test (path, G_FILE_TEST_EXISTS))
    return path;
  if (g_strcmp0 (g_getenv ("CI"), "true") == 0)
    g_error ("CI: trspecfit's examples are missing (%s)", path ? path : "$XRLAB_SHARED_DATA");
  g_test_skip ("trspecfit's examples ($XRLAB_SHARED_DATA/trspecfit-examples) are missing");
  g_free (path);
  return NULL;
}

/* Reads @rel (a CSV matrix or a column) of the examples; NULL on error. */
static inline double *
examples_matrix (const char *dir, const char *rel, gsize *rows, gsize *cols)
{
  g_autofree char *path = g_build_filename (dir, rel, NULL);
  g_autoptr(GError) error = NULL;
  double *m = xrlab_read_csv_matrix (path, TRUE, rows, cols, &error);

  g_assert_no_error (error);
  return m;
}

static inline double *
examples_column (const char *dir, const char *rel, gsize *n)
{
  g_autofree char *path = g_build_filename (dir, rel, NULL);
  g_autoptr(GError) error = NULL;
  double *v = xrlab_read_column_file (path, n, &error);

  g_assert_no_error (error);
  return v;
}
