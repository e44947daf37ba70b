/* xrlab-session-restore.c -- restoring the auto-saved session at start
 * without a crash loop and without losing a file
 *
 * A file that cannot be read, or could only be read in part, is kept
 * beside the auto-save under the first free name of session.json.bad,
 * session.json.bad.1, ... (hard links: an existing one is never
 * replaced). Before the auto-save is read a marker, session.json.restoring,
 * is written; the window removes it once the restored session is on screen.
 * A marker found at start means the last start stopped while restoring:
 * then the file is kept aside and not read again.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-session-private.h"

#include <errno.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "xrlab-util.h"

/* Names tried for a kept file: .bad, .bad.1, ... .bad.N. */
#define MAX_KEPT 9999

char *
xrlab_session_get_restore_marker_path (const char *path)
{
  g_return_val_if_fail (path != NULL, NULL);
  return g_strconcat (path, ".restoring", NULL);
}

static char *
kept_name (const char *path, guint n)
{
  return n == 0 ? g_strconcat (path, ".bad", NULL) : g_strdup_printf ("%s.bad.%u", path, n);
}

/* Gives the file @from the first free kept name of @path, never replacing
 * one: a hard link where the file system has them, else a rename after a
 * check. */
static char *
link_to_free_name (const char *from, const char *path, GError **error)
{
  for (guint n = 0; n <= MAX_KEPT; n++)
    {
      g_autofree char *name = kept_name (path, n);
      int err;

      if (link (from, name) == 0)
        return g_steal_pointer (&name);
      err = errno;
      if (err == EEXIST)
        continue;
      if (err == EPERM || err == ENOTSUP || err == EOPNOTSUPP || err == ENOSYS || err == EMLINK)
        {
          GStatBuf st;
          if (g_lstat (name, &st) == 0)
            continue;
          if (g_rename (from, name) == 0)
            return g_steal_pointer (&name);
          err = errno;
        }
      g_set_error (error, XRLAB_SESSION_ERROR, XRLAB_SESSION_ERROR_IO,
                   _("Cannot keep %s as %s: %s"), path, name, g_strerror (err));
      return NULL;
    }
  g_set_error (error, XRLAB_SESSION_ERROR, XRLAB_SESSION_ERROR_IO,
               _("Cannot keep %s: %s.bad to %s.bad.%d exist already"), path, path, path, MAX_KEPT);
  return NULL;
}

char *
xrlab_session_keep_aside (const char  *path,
                          const char  *contents,
                          gssize       length,
                          GError     **error)
{
  g_autofree char *dir = NULL;
  g_autofree char *base = NULL;
  g_autofree char *tmp = NULL;
  g_autoptr(GError) local = NULL;
  char *kept;

  g_return_val_if_fail (path != NULL, NULL);

  if (contents == NULL)
    {
      /* Move: a link under the new name, then the old name goes. */
      kept = link_to_free_name (path, path, error);
      if (kept != NULL && g_unlink (path) != 0 && errno != ENOENT)
        {
          int err = errno;
          g_set_error (error, XRLAB_SESSION_ERROR, XRLAB_SESSION_ERROR_IO,
                       _("Cannot remove %s: %s"), path, g_strerror (err));
          g_free (kept);
          return NULL;
        }
      return kept;
    }

  /* Copy: written whole (atomically) under a name of our own, which the
   * kept name then links to; a copy left by a crash is replaced next time. */
  dir = g_path_get_dirname (path);
  base = g_path_get_basename (path);
  tmp = g_strdup_printf ("%s%c.%s.bad-copy", dir, G_DIR_SEPARATOR, base);
  if (!xrlab_write_file_atomic (tmp, contents, length, &local))
    {
      g_set_error (error, XRLAB_SESSION_ERROR, XRLAB_SESSION_ERROR_IO,
                   _("Cannot keep a copy of %s: %s"), path, local->message);
      return NULL;
    }
  kept = link_to_free_name (tmp, path, error);
  g_unlink (tmp);
  return kept;
}

/* ---- restore ------------------------------------------------------------------------- */

void
xrlab_session_restore_free (XrlabSessionRestore *restore)
{
  if (restore == NULL)
    return;
  g_clear_pointer (&restore->session, xrlab_session_free);
  g_clear_pointer (&restore->warnings, g_strfreev);
  g_clear_error (&restore->error);
  g_free (restore->kept_path);
  g_free (restore->marker_path);
  g_free (restore);
}

void
xrlab_session_restore_finish (const char *marker_path)
{
  if (marker_path != NULL)
    g_unlink (marker_path);
}

XrlabSessionRestore *
xrlab_session_restore_begin (const char *path)
{
  XrlabSessionRestore *r = g_new0 (XrlabSessionRestore, 1);
  g_autofree char *marker = xrlab_session_get_restore_marker_path (path);
  g_autofree char *data = NULL;
  g_autofree char *stamp = NULL;
  g_autoptr(GError) local = NULL;
  gsize len = 0;

  if (g_file_test (marker, G_FILE_TEST_EXISTS))
    {
      /* The last start did not get past restoring this file. */
      r->status = XRLAB_SESSION_RESTORE_CRASHED;
      if (g_file_test (path, G_FILE_TEST_EXISTS))
        r->kept_path = xrlab_session_keep_aside (path, NULL, 0, &r->error);
      else
        r->status = XRLAB_SESSION_RESTORE_NONE;
      /* Kept or not, it is not read again by itself. */
      if (r->kept_path != NULL || r->status == XRLAB_SESSION_RESTORE_NONE)
        g_unlink (marker);
      return r;
    }
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      r->status = XRLAB_SESSION_RESTORE_NONE;
      return r;
    }

  stamp = g_strdup_printf ("restoring %s (process %d)\n", path, (int) getpid ());
  if (xrlab_write_file_atomic (marker, stamp, -1, &local))
    r->marker_path = g_steal_pointer (&marker);
  else
    g_message ("cannot mark the restore of %s: %s", path, local->message);
  g_clear_error (&local);

  r->session = xrlab_session_load_full (path, XRLAB_SESSION_LOAD_SALVAGE, &r->warnings, &r->error);
  if (r->session == NULL)
    {
      r->status = XRLAB_SESSION_RESTORE_REFUSED;
      r->kept_path = xrlab_session_keep_aside (path, NULL, 0, &local);
      if (r->kept_path == NULL)
        g_message ("%s", local->message);
      g_clear_pointer (&r->warnings, g_strfreev);
      xrlab_session_restore_finish (r->marker_path);
      g_clear_pointer (&r->marker_path, g_free);
      return r;
    }
  r->status = XRLAB_SESSION_RESTORE_DONE;
  /* Read in part: the file as it was is kept before the next auto-save
   * replaces it. */
  if (r->warnings != NULL && g_file_get_contents (path, &data, &len, &local))
    r->kept_path = xrlab_session_keep_aside (path, data, (gssize) len, &local);
  if (local != NULL)
    g_message ("%s", local->message);
  return r;
}
