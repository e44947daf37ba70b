/* test-common.c -- helpers shared by the tests (see test-common.h)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <glib/gstdio.h>

#include "test-common.h"
#include "xrlab-engine.h"

/* ---- programs ----------------------------------------------------------------------- */

int
xrlab_test_spawn (const char *const *argv, const char *const *envp, char **out, char **err)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *o = NULL, *e = NULL;
  int status = 0;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, (char **) envp, G_SPAWN_SEARCH_PATH, NULL, NULL,
                               &o, &e, &status, &error));
  g_assert_no_error (error);
  if (out != NULL)
    *out = g_steal_pointer (&o);
  if (err != NULL)
    *err = g_steal_pointer (&e);
  return WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status);
}

int
xrlab_test_cli_argv (const char *language, const char *const *args, char **out, char **err)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_auto(GStrv) envp = NULL;
  const char *cli = g_getenv ("XRLAB_CLI");
  g_autofree char *e = NULL;
  int status;

  g_assert_nonnull (cli);
  if (language != NULL)
    envp = g_environ_setenv (g_get_environ (), "LANGUAGE", language, TRUE);
  g_ptr_array_add (argv, (gpointer) cli);
  for (; *args != NULL; args++)
    g_ptr_array_add (argv, (gpointer) *args);
  g_ptr_array_add (argv, NULL);
  status = xrlab_test_spawn ((const char *const *) argv->pdata, (const char *const *) envp, out,
                             &e);
  if (status > 128)
    g_error ("xrlab-cli %s ended by signal %d; its standard error:\n%s",
             (const char *) argv->pdata[1], status - 128, e);
  if (err != NULL)
    *err = g_steal_pointer (&e);
  return status;
}

int
xrlab_test_cli_valist (const char *language, char **out, char **err, va_list args)
{
  g_autoptr(GPtrArray) list = g_ptr_array_new ();
  const char *a;

  while ((a = va_arg (args, const char *)) != NULL)
    g_ptr_array_add (list, (gpointer) a);
  g_ptr_array_add (list, NULL);
  return xrlab_test_cli_argv (language, (const char *const *) list->pdata, out, err);
}

int
xrlab_test_cli (char **out, char **err, ...)
{
  va_list args;
  int status;

  va_start (args, err);
  status = xrlab_test_cli_valist (NULL, out, err, args);
  va_end (args);
  return status;
}

/* ---- text --------------------------------------------------------------------------- */

void
xrlab_test_assert_contains (const char *haystack, const char *needle)
{
  g_assert_nonnull (haystack);
  if (strstr (haystack, needle) == NULL)
    g_error ("“%s” not found in:\n%s", needle, haystack);
}

void
xrlab_test_assert_printable (const char *text)
{
  g_assert_nonnull (text);
  g_assert_true (g_utf8_validate (text, -1, NULL));
  for (const char *p = text; *p; p = g_utf8_next_char (p))
    {
      gunichar u = g_utf8_get_char (p);
      if (u < 0x20 || (u >= 0x7f && u < 0xa0) || (u >= 0x202a && u <= 0x202e)
          || (u >= 0x2066 && u <= 0x2069))
        g_error ("U+%04X at byte %zu of “%s”", u, (gsize) (p - text), text);
    }
}

guint
xrlab_test_count_substr (const char *haystack, const char *needle)
{
  guint n = 0;

  for (const char *p = strstr (haystack, needle); p != NULL; p = strstr (p + 1, needle))
    n++;
  return n;
}

/* ---- files and folders -------------------------------------------------------------- */

char *
xrlab_test_write_file (const char *dir, const char *name, const char *contents)
{
  char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, contents, -1, &error);
  g_assert_no_error (error);
  return path;
}

void
xrlab_test_rm_rf (const char *path)
{
  GStatBuf st;
  GDir *d;
  const char *name;

  if (g_lstat (path, &st) != 0)
    return;
  if (!S_ISDIR (st.st_mode))
    {
      g_unlink (path);
      return;
    }
  d = g_dir_open (path, 0, NULL);
  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);
      xrlab_test_rm_rf (child);
    }
  if (d != NULL)
    g_dir_close (d);
  g_rmdir (path);
}

/* ---- reference data ----------------------------------------------------------------- */

char *
xrlab_test_shared_path (const char *rel, const char *what)
{
  const char *shared = g_getenv ("XRLAB_SHARED_DATA");
  g_autofree char *path = NULL;

  if (shared != NULL && *shared != '\0')
    path = g_build_filename (shared, rel, NULL);
  if (path != NULL && g_file_test (path, G_FILE_TEST_EXISTS))
    return g_steal_pointer (&path);
  if (g_strcmp0 (g_getenv ("CI"), "true") == 0)
    g_error ("CI: reference data missing: %s (%s)", what,
             path ? path : "$XRLAB_SHARED_DATA is not set");
  {
    g_autofree char *msg = g_strdup_printf ("reference data missing: %s (%s); set "
                                            "XRLAB_SHARED_DATA to ../shared/data", what,
                                            path ? path : "$XRLAB_SHARED_DATA is not set");
    g_test_skip (msg);
  }
  return NULL;
}

/* ---- models ------------------------------------------------------------------------- */

XrlabModel *
xrlab_test_model_from_text (const char *yaml, const char *name)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabModelFile) file = xrlab_model_file_new_from_data (yaml, -1, "test.yaml", &error);
  XrlabModel *m;

  g_assert_no_error (error);
  m = xrlab_model_new (file, name, &error);
  g_assert_no_error (error);
  return m;
}

void
xrlab_test_add_dynamics_text (XrlabModel *m, const char *param, const char *yaml,
                              const char *models_csv, double freq)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabModelFile) file = xrlab_model_file_new_from_data (yaml, -1, "time-test.yaml",
                                                                   &error);
  g_auto(GStrv) models = g_strsplit (models_csv, ",", -1);

  g_assert_no_error (error);
  xrlab_model_add_dynamics_from_file (m, param, file, (const char *const *) models,
                                      g_strv_length (models), freq, &error);
  g_assert_no_error (error);
}

/* ---- threads ------------------------------------------------------------------------ */

void
xrlab_test_run_threads (GThreadFunc func, gpointer data, guint n)
{
  g_autofree GThread **t = g_new (GThread *, n);

  for (guint i = 0; i < n; i++)
    t[i] = g_thread_new ("test", func, data);
  for (guint i = 0; i < n; i++)
    g_thread_join (t[i]);
}

/* ---- the main loop ------------------------------------------------------------------ */

static gboolean
set_flag (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

void
xrlab_test_iterate_for (guint ms)
{
  gboolean done = FALSE;

  g_timeout_add (ms, set_flag, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

void
xrlab_test_tally_note_error (XrlabTestTally *t, GError *error)
{
  if (g_error_matches (error, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_SUPERSEDED))
    {
      t->superseded++;
      g_error_free (error);
      return;
    }
  g_clear_error (&t->error);
  t->error = error;
}

void
xrlab_test_tally_replied (XrlabTestTally *t, GError *error)
{
  if (error != NULL)
    xrlab_test_tally_note_error (t, error);
  t->replies++;
  t->pending--;
}

void
xrlab_test_tally_wait (XrlabTestTally *t)
{
  while (t->pending > 0)
    g_main_context_iteration (NULL, TRUE);
}

/* ---- images ------------------------------------------------------------------------- */

guint32
xrlab_test_pixel (const XrlabTestImage *img, int x, int y)
{
  g_assert_true (x >= 0 && x < img->width && y >= 0 && y < img->height);
  return ((const guint32 *) (const void *) (img->data + (gsize) y * img->stride))[x] & 0xffffff;
}

gboolean
xrlab_test_rgb_close (guint32 a, guint32 b, int tolerance)
{
  for (int c = 0; c < 24; c += 8)
    if (ABS ((int) ((a >> c) & 0xff) - (int) ((b >> c) & 0xff)) > tolerance)
      return FALSE;
  return TRUE;
}

guint
xrlab_test_count_near (const XrlabTestImage *img, guint32 rgb, int tolerance, int x0, int y0,
                       int x1, int y1)
{
  guint n = 0;

  x0 = CLAMP (x0, 0, img->width);
  x1 = CLAMP (x1, 0, img->width);
  y0 = CLAMP (y0, 0, img->height);
  y1 = CLAMP (y1, 0, img->height);
  for (int y = y0; y < y1; y++)
    for (int x = x0; x < x1; x++)
      n += xrlab_test_rgb_close (xrlab_test_pixel (img, x, y), rgb, tolerance);
  return n;
}

guint
xrlab_test_count_unlike (const XrlabTestImage *img, guint32 bg, int tolerance, int x0, int y0,
                         int x1, int y1)
{
  guint all;

  x0 = CLAMP (x0, 0, img->width);
  x1 = CLAMP (x1, 0, img->width);
  y0 = CLAMP (y0, 0, img->height);
  y1 = CLAMP (y1, 0, img->height);
  all = (guint) (MAX (x1 - x0, 0) * MAX (y1 - y0, 0));
  return all - xrlab_test_count_near (img, bg, tolerance, x0, y0, x1, y1);
}
