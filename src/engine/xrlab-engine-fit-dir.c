/* xrlab-engine-fit-dir.c -- the folder of a result set, replaced as a whole
 *
 * A new set is written into a sibling of OUTDIR, ".NAME.xrlab-new-PID-XXXXXX",
 * and swapped in:
 *   - OUTDIR does not exist: rename(new, OUTDIR);
 *   - Linux with RENAME_EXCHANGE on the file system: one renameat2() swaps
 *     the two folders atomically, then the old set (now at the new's name)
 *     is removed;
 *   - otherwise rename(OUTDIR, ".NAME.xrlab-old-PID-XXXXXX"),
 *     rename(new, OUTDIR), and the old set is removed.
 * At every moment OUTDIR holds the complete previous set or the complete
 * new one -- except, on the last path, between its two renames, when OUTDIR
 * is missing and the old set whole at its old name. Whoever writes next
 * recovers first: an old set with no OUTDIR is renamed back, and the
 * folders of writers that are gone (their process no longer runs) are
 * removed.
 *
 * Files of OUTDIR that are not part of a result set (anything but the names
 * in xrlab_fit_result_names) stay: regular files are hard-linked into the
 * new folder before the swap, everything else is moved back right after it
 * (and by the recovery, should a writer die in between).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-engine-fit-private.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/syscall.h>
#endif

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "xrlab-h5.h"

const char *const xrlab_fit_result_names[] = {
  "params.csv", "metrics.csv", "correl.csv", "fit.csv", "residual.csv",
  "baseline_params.csv", "baseline_metrics.csv", "sbs.csv", "ci.csv",
  "mcmc.csv", "mcmc_chain.csv", "trace_params.csv", "trace_metrics.csv", "trace.csv", NULL,
};

#define EXCHANGE_FLAG (1 << 1)   /* RENAME_EXCHANGE */

struct _FitResultDir {
  char *outdir;                     /* the folder (symbolic links resolved) */
  char *parent, *base;
  char *tmp;                        /* the new set */
  gboolean existed;
  GPtrArray *move_back;             /* names to move back from the old set */
};

/* ---- the test hook -------------------------------------------------------- */

static XrlabFitWriteHook write_hook;
static gpointer write_hook_data;
static gboolean write_no_exchange;

void
xrlab_fit_set_write_hook (XrlabFitWriteHook hook, gpointer user_data, gboolean no_exchange)
{
  write_hook = hook;
  write_hook_data = user_data;
  write_no_exchange = no_exchange;
}

gboolean
xrlab_fit_write_hook_step (const char *step)
{
  return write_hook == NULL || write_hook (step, write_hook_data);
}

/* ---- small helpers ------------------------------------------------------------ */

/* A file of a result set, or a temporary file of a writer of one
 * (".NAME.XXXXXX", xrlab_write_file_atomic()): never kept as the user's. */
static gboolean
is_result_name (const char *name)
{
  for (const char *const *n = xrlab_fit_result_names; *n; n++)
    {
      gsize len = strlen (*n);

      if (strcmp (*n, name) == 0
          || (name[0] == '.' && strncmp (name + 1, *n, len) == 0 && name[1 + len] == '.'))
        return TRUE;
    }
  return FALSE;
}

/* rm -rf, without following symbolic links. */
static void
remove_tree (const char *path)
{
  GStatBuf st;
  GDir *dir;
  const char *name;

  if (g_lstat (path, &st) != 0)
    return;
  if (!S_ISDIR (st.st_mode))
    {
      g_unlink (path);
      return;
    }
  dir = g_dir_open (path, 0, NULL);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);
      remove_tree (child);
    }
  if (dir != NULL)
    g_dir_close (dir);
  g_rmdir (path);
}

static void
sync_dir (const char *path)
{
  int fd = open (path, O_RDONLY | O_DIRECTORY);

  if (fd >= 0)
    {
      fsync (fd);
      close (fd);
    }
}

/* An exchange of two paths; FALSE with errno when the system or the file
 * system cannot. */
static gboolean
exchange (const char *a, const char *b)
{
#if defined(__linux__) && defined(SYS_renameat2)
  if (write_no_exchange)
    {
      errno = EINVAL;
      return FALSE;
    }
  return syscall (SYS_renameat2, AT_FDCWD, a, AT_FDCWD, b, EXCHANGE_FLAG) == 0;
#else
  errno = ENOSYS;
  return FALSE;
#endif
}

/* Moves the entries of @from that are not result files and that @to lacks
 * into @to. */
static void
move_foreign (const char *from, const char *to)
{
  GDir *dir = g_dir_open (from, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *src = NULL, *dst = NULL;
      GStatBuf st;

      if (is_result_name (name))
        continue;
      src = g_build_filename (from, name, NULL);
      dst = g_build_filename (to, name, NULL);
      if (g_lstat (dst, &st) != 0)
        g_rename (src, dst);
    }
  if (dir != NULL)
    g_dir_close (dir);
}

/* ---- recovery ------------------------------------------------------------------- */

/* Parses ".BASE.xrlab-KIND-PID-XXXXXX"; FALSE when @name is none. */
static gboolean
parse_temp (const char *name, const char *base, gboolean *is_old, long *pid)
{
  gsize nb = strlen (base);
  const char *rest;
  char *end;

  if (name[0] != '.' || strncmp (name + 1, base, nb) != 0)
    return FALSE;
  rest = name + 1 + nb;
  if (g_str_has_prefix (rest, ".xrlab-new-"))
    *is_old = FALSE;
  else if (g_str_has_prefix (rest, ".xrlab-old-"))
    *is_old = TRUE;
  else
    return FALSE;
  *pid = strtol (rest + strlen (".xrlab-new-"), &end, 10);
  return end != rest + strlen (".xrlab-new-") && *end == '-';
}

static gboolean
process_alive (long pid)
{
  if (pid == (long) getpid ())
    return FALSE;   /* this process writes one set at a time */
  return kill ((pid_t) pid, 0) == 0 || errno == EPERM;
}

/* The temporary folders beside @outdir of writers that are gone: old sets
 * (restored when OUTDIR is missing) before new ones. */
static void
recover_in (const char *parent, const char *base, const char *outdir)
{
  g_autoptr(GPtrArray) olds = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) news = g_ptr_array_new_with_free_func (g_free);
  GDir *dir = g_dir_open (parent, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      gboolean is_old;
      long pid;

      if (parse_temp (name, base, &is_old, &pid) && !process_alive (pid))
        g_ptr_array_add (is_old ? olds : news, g_build_filename (parent, name, NULL));
    }
  if (dir != NULL)
    g_dir_close (dir);
  for (int pass = 0; pass < 2; pass++)
    {
      GPtrArray *list = pass == 0 ? olds : news;

      for (guint i = 0; i < list->len; i++)
        {
          const char *path = g_ptr_array_index (list, i);
          GStatBuf st;

          if (pass == 0 && g_lstat (outdir, &st) != 0 && errno == ENOENT
              && g_rename (path, outdir) == 0)
            continue;   /* killed between the two renames: the old set is back */
          if (g_lstat (outdir, &st) == 0 && S_ISDIR (st.st_mode))
            move_foreign (path, outdir);
          remove_tree (path);
        }
    }
}

/* The folder @outdir names, symbolic links resolved (it need not exist). */
static char *
resolve_outdir (const char *outdir, GError **error)
{
  GStatBuf st;
  char *real;

  if (g_lstat (outdir, &st) == 0 && S_ISLNK (st.st_mode))
    {
      real = realpath (outdir, NULL);
      if (real == NULL)
        {
          int e = errno;
          g_set_error (error, XRLAB_ENGINE_FIT_ERROR, XRLAB_ENGINE_FIT_ERROR_OUTPUT,
                       _("%s is a symbolic link to a folder that cannot be reached: %s"),
                       outdir, g_strerror (e));
          return NULL;
        }
      return real;
    }
  return g_strdup (outdir);
}

void
xrlab_fit_result_dir_recover (const char *outdir)
{
  g_autofree char *target = resolve_outdir (outdir, NULL);
  g_autofree char *parent = NULL, *base = NULL;

  if (target == NULL)
    return;
  parent = g_path_get_dirname (target);
  base = g_path_get_basename (target);
  recover_in (parent, base, target);
}

/* ---- a new set ------------------------------------------------------------------ */

static void
result_dir_free (FitResultDir *d)
{
  g_free (d->outdir);
  g_free (d->parent);
  g_free (d->base);
  g_free (d->tmp);
  g_ptr_array_unref (d->move_back);
  g_free (d);
}

/* FALSE when @target is the current folder or holds it. */
static gboolean
check_not_cwd (const char *target, GError **error)
{
  g_autofree char *real = realpath (target, NULL);
  g_autofree char *cwd = g_get_current_dir ();
  g_autofree char *real_cwd = realpath (cwd, NULL);
  gsize n;

  if (real == NULL || real_cwd == NULL)
    return TRUE;
  n = strlen (real);
  if (strcmp (real, real_cwd) == 0
      || (strncmp (real, real_cwd, n) == 0 && (real_cwd[n] == '/' || n == 1)))
    {
      g_set_error (error, XRLAB_ENGINE_FIT_ERROR, XRLAB_ENGINE_FIT_ERROR_OUTPUT,
                   _("%s is the current folder or holds it: a result set replaces its "
                     "folder as a whole, so it needs a folder of its own (such as %s)"),
                   target, "fit-results");
      return FALSE;
    }
  return TRUE;
}

/* Links the regular files of the old folder that are not results into the
 * new one; lists the rest to be moved back after the swap. */
static gboolean
keep_foreign (FitResultDir *d, GError **error)
{
  g_autoptr(GError) local = NULL;
  GDir *dir = g_dir_open (d->outdir, 0, &local);
  const char *name;

  if (dir == NULL)
    {
      g_set_error (error, XRLAB_ENGINE_FIT_ERROR, XRLAB_ENGINE_FIT_ERROR_OUTPUT,
                   _("Cannot read the folder %s: %s"), d->outdir, local->message);
      return FALSE;
    }
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *src = NULL, *dst = NULL;
      GStatBuf st;

      if (is_result_name (name))
        continue;
      src = g_build_filename (d->outdir, name, NULL);
      dst = g_build_filename (d->tmp, name, NULL);
      if (g_lstat (src, &st) == 0 && S_ISREG (st.st_mode) && link (src, dst) == 0)
        continue;
      g_ptr_array_add (d->move_back, g_strdup (name));
    }
  g_dir_close (dir);
  return TRUE;
}

gboolean
xrlab_fit_result_dir_check (const char *outdir, GError **error)
{
  g_autofree char *target = resolve_outdir (outdir, error);
  GStatBuf st;

  if (target == NULL)
    return FALSE;
  if (g_stat (target, &st) != 0)
    return TRUE;
  if (xrlab_h5_is_h5_name (target))
    {
      if (!S_ISDIR (st.st_mode))
        return TRUE;
      g_set_error (error, XRLAB_ENGINE_FIT_ERROR, XRLAB_ENGINE_FIT_ERROR_OUTPUT,
                   _("%s is a folder, not an HDF5 file"), target);
      return FALSE;
    }
  if (!S_ISDIR (st.st_mode))
    {
      g_set_error (error, XRLAB_ENGINE_FIT_ERROR, XRLAB_ENGINE_FIT_ERROR_OUTPUT,
                   _("%s exists and is not a folder"), target);
      return FALSE;
    }
  return check_not_cwd (target, error);
}

FitResultDir *
xrlab_fit_result_dir_begin (const char *outdir, GError **error)
{
  FitResultDir *d = g_new0 (FitResultDir, 1);
  GStatBuf st;
  int mode = 0755;

  d->move_back = g_ptr_array_new_with_free_func (g_free);
  if ((d->outdir = resolve_outdir (outdir, error)) == NULL)
    goto fail;
  d->parent = g_path_get_dirname (d->outdir);
  d->base = g_path_get_basename (d->outdir);
  if (g_mkdir_with_parents (d->parent, 0755) != 0)
    {
      int e = errno;
      g_set_error (error, XRLAB_ENGINE_FIT_ERROR, XRLAB_ENGINE_FIT_ERROR_OUTPUT,
                   _("Cannot create the folder %s: %s"), d->parent, g_strerror (e));
      goto fail;
    }
  recover_in (d->parent, d->base, d->outdir);
  d->existed = g_stat (d->outdir, &st) == 0;
  if (d->existed && !S_ISDIR (st.st_mode))
    {
      g_set_error (error, XRLAB_ENGINE_FIT_ERROR, XRLAB_ENGINE_FIT_ERROR_OUTPUT,
                   _("%s exists and is not a folder"), d->outdir);
      goto fail;
    }
  if (d->existed && !check_not_cwd (d->outdir, error))
    goto fail;
  if (d->existed)
    mode = st.st_mode & 07777;
  d->tmp = g_strdup_printf ("%s%s.%s.xrlab-new-%ld-XXXXXX", d->parent, G_DIR_SEPARATOR_S,
                            d->base, (long) getpid ());
  if (g_mkdtemp_full (d->tmp, 0755) == NULL)
    {
      int e = errno;
      g_set_error (error, XRLAB_ENGINE_FIT_ERROR, XRLAB_ENGINE_FIT_ERROR_OUTPUT,
                   _("Cannot create the folder %s: %s"), d->outdir, g_strerror (e));
      g_clear_pointer (&d->tmp, g_free);
      goto fail;
    }
  if (d->existed)
    g_chmod (d->tmp, mode);
  if (d->existed && !keep_foreign (d, error))
    {
      xrlab_fit_result_dir_abort (d);
      return NULL;
    }
  return d;

fail:
  result_dir_free (d);
  return NULL;
}

const char *
xrlab_fit_result_dir_path (FitResultDir *d)
{
  return d->tmp;
}

void
xrlab_fit_result_dir_leave (FitResultDir *d)
{
  result_dir_free (d);
}

void
xrlab_fit_result_dir_abort (FitResultDir *d)
{
  if (d == NULL)
    return;
  if (d->tmp != NULL)
    remove_tree (d->tmp);
  result_dir_free (d);
}

/* After the swap: what must stay comes back from the old set at @old, which
 * is then removed. */
static void
finish_swap (FitResultDir *d, const char *old)
{
  for (guint i = 0; i < d->move_back->len; i++)
    {
      const char *name = g_ptr_array_index (d->move_back, i);
      g_autofree char *src = g_build_filename (old, name, NULL);
      g_autofree char *dst = g_build_filename (d->outdir, name, NULL);
      g_rename (src, dst);
    }
  remove_tree (old);
  sync_dir (d->parent);
}

static gboolean
rename_failed (FitResultDir *d, const char *what, GError **error)
{
  int e = errno;

  g_set_error (error, XRLAB_ENGINE_FIT_ERROR, XRLAB_ENGINE_FIT_ERROR_OUTPUT,
               _("Cannot put the new results in place of %s (%s): %s"), d->outdir, what,
               g_strerror (e));
  return FALSE;
}

/* The two renames; FALSE (the old set back in place) when the second
 * fails. */
static gboolean
swap_by_renames (FitResultDir *d, gboolean *stopped, GError **error)
{
  g_autofree char *old = g_strdup_printf ("%s%s.%s.xrlab-old-%ld-XXXXXX", d->parent,
                                          G_DIR_SEPARATOR_S, d->base, (long) getpid ());

  /* an empty folder reserves the name; the rename replaces it */
  if (g_mkdtemp_full (old, 0700) == NULL || g_rename (d->outdir, old) != 0)
    {
      rename_failed (d, "rename", error);
      g_rmdir (old);
      return FALSE;
    }
  if (!xrlab_fit_write_hook_step ("renamed-old"))
    return *stopped = TRUE, FALSE;
  if (g_rename (d->tmp, d->outdir) != 0)
    {
      rename_failed (d, "rename", error);
      g_rename (old, d->outdir);
      return FALSE;
    }
  if (!xrlab_fit_write_hook_step ("renamed-new"))
    return *stopped = TRUE, FALSE;
  g_clear_pointer (&d->tmp, g_free);
  finish_swap (d, old);
  return TRUE;
}

gboolean
xrlab_fit_result_dir_commit (FitResultDir *d, GError **error)
{
  gboolean ok = TRUE, stopped = FALSE;

  sync_dir (d->tmp);
  if (!d->existed)
    {
      if (g_rename (d->tmp, d->outdir) != 0)
        ok = rename_failed (d, "rename", error);
      else
        {
          g_clear_pointer (&d->tmp, g_free);
          sync_dir (d->parent);
          stopped = !xrlab_fit_write_hook_step ("renamed-new");
        }
    }
  else if (exchange (d->tmp, d->outdir))
    {
      /* the old set now lies at the temporary name */
      if (!xrlab_fit_write_hook_step ("exchanged"))
        stopped = TRUE;
      else
        finish_swap (d, d->tmp);
      g_clear_pointer (&d->tmp, g_free);
    }
  else
    ok = swap_by_renames (d, &stopped, error);
  if (stopped)
    {
      /* the test hook: leave everything as a kill would */
      g_clear_pointer (&d->tmp, g_free);
      g_set_error (error, XRLAB_ENGINE_FIT_ERROR, XRLAB_ENGINE_FIT_ERROR_OUTPUT,
                   "stopped by the test hook");
      ok = FALSE;
    }
  if (!ok && d->tmp != NULL)
    remove_tree (d->tmp);
  result_dir_free (d);
  return ok;
}
