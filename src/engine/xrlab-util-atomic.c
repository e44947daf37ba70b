/* xrlab-util-atomic.c -- files written whole or not at all (xrlab-util.h)
 *
 * A write goes to a temporary file beside its target, which commit renames
 * over the target. The pieces around that:
 *
 *  - The target: a symbolic link is followed (to its end, at most 40
 *    links), so the temporary file lies in the target's folder and the
 *    rename replaces the target, never the link. Only a regular file (or
 *    nothing) is replaced: a folder, a device, a named pipe or a socket is
 *    refused with a message naming the path and what it is, before
 *    anything is written and again just before the rename. An existing
 *    target keeps its permission bits.
 *
 *  - The temporary file is ".NAME.xrlab-PID-XXXXXX" (NAME the target's
 *    name, PID the writer's process id), held with an exclusive flock() for
 *    as long as its stream is open. A writer that dies (SIGKILL, a crash, a
 *    power cut) leaves its file behind; the next write of the same target
 *    removes such stale files: those of its exact pattern whose PID is not a
 *    live process of this machine AND whose lock nobody holds. The PID test
 *    alone would be fooled by writers on other machines sharing the folder
 *    (NFS) or in other PID namespaces (containers), whose PIDs look dead
 *    here; the lock test alone has a window between mkstemp() and flock()
 *    in which a concurrent writer's new file looks abandoned. Together a
 *    live writer is never touched; a reused PID only delays the clean-up.
 *    An age threshold was not chosen: it either removes the file of a slow
 *    live writer or leaves a killed run's hundreds of megabytes for hours.
 *
 *  - The stream reports the error that happened: its writes go through a
 *    cookie that keeps the first errno of a failed write(2) (ENOSPC on a
 *    full disk, EDQUOT, EIO), which commit reports rather than whatever
 *    errno holds by then.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* fopencookie() */
#define _GNU_SOURCE
#include "config.h"

#include "xrlab-util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

/* The files of this thread's deferral (xrlab_atomic_defer_sync_begin). */
static GPrivate deferred = G_PRIVATE_INIT ((GDestroyNotify) g_ptr_array_unref);

/* As the kernel's limit on links followed in one path lookup. */
#define MAX_LINKS 40

/* The tag between the target's name and the PID of a temporary file. */
#define TEMP_TAG ".xrlab-"

static void
set_errno_error (GError **error, int err, const char *path)
{
  g_set_error (error, XRLAB_IO_ERROR, XRLAB_IO_ERROR_FAILED,
               "%s %s: %s", _("Cannot write"), path, g_strerror (err));
}

/* What the file of @mode is, in words, when it is not a regular file. */
void
xrlab_atomic_defer_sync_begin (void)
{
  g_private_replace (&deferred, g_ptr_array_new_with_free_func (g_free));
}

gboolean
xrlab_atomic_defer_sync_end (GError **error)
{
  GPtrArray *paths = g_private_get (&deferred);
  gboolean ok = TRUE;

  for (guint i = 0; paths != NULL && i < paths->len; i++)
    {
      const char *path = paths->pdata[i];
      int fd = open (path, O_RDONLY | O_CLOEXEC);

      if ((fd < 0 || (fsync (fd) != 0 && errno != EINVAL)) && ok)
        {
          set_errno_error (error, errno, path);
          ok = FALSE;
        }
      if (fd >= 0)
        close (fd);
    }
  g_private_replace (&deferred, NULL);
  return ok;
}

static const char *
kind_of_file (mode_t mode)
{
  if (S_ISDIR (mode))
    return _("a folder");
  if (S_ISCHR (mode))
    return _("a character device");
  if (S_ISBLK (mode))
    return _("a block device");
  if (S_ISFIFO (mode))
    return _("a named pipe");
  if (S_ISSOCK (mode))
    return _("a socket");
  return _("not a regular file");
}

static void
set_kind_error (GError **error, const char *path, const char *target, mode_t mode)
{
  if (strcmp (path, target) == 0)
    g_set_error (error, XRLAB_IO_ERROR, XRLAB_IO_ERROR_FAILED,
                 /* TRANSLATORS: the second %s is "a folder", "a character device", ... */
                 _("Cannot write %s: it is %s, and only a regular file is replaced"),
                 path, kind_of_file (mode));
  else
    g_set_error (error, XRLAB_IO_ERROR, XRLAB_IO_ERROR_FAILED,
                 /* TRANSLATORS: %s (a link to %s): the third %s is "a folder", ... */
                 _("Cannot write %s: it links to %s, which is %s, and only a regular file "
                   "is replaced"),
                 path, target, kind_of_file (mode));
}

/* The file that writing @path replaces: @path with the symbolic links at its
 * end followed. Sets *@exists and, when it exists, *@st. NULL with @error
 * set when the target is something other than a regular file, or the links
 * do not end. */
static char *
resolve_target (const char *path, gboolean *exists, struct stat *st, GError **error)
{
  g_autofree char *p = g_strdup (path);

  for (int hops = 0; hops <= MAX_LINKS; hops++)
    {
      g_autofree char *link = NULL;
      g_autofree char *dir = NULL;

      if (lstat (p, st) != 0)
        {
          int err = errno;

          if (err != ENOENT)
            {
              set_errno_error (error, err, path);
              return NULL;
            }
          *exists = FALSE;
          return g_steal_pointer (&p);
        }
      if (S_ISREG (st->st_mode))
        {
          *exists = TRUE;
          return g_steal_pointer (&p);
        }
      if (!S_ISLNK (st->st_mode))
        {
          set_kind_error (error, path, p, st->st_mode);
          return NULL;
        }
      link = g_file_read_link (p, NULL);
      if (link == NULL)
        {
          set_errno_error (error, errno, path);
          return NULL;
        }
      if (g_path_is_absolute (link))
        {
          g_free (p);
          p = g_steal_pointer (&link);
          continue;
        }
      dir = g_path_get_dirname (p);
      g_free (p);
      p = g_build_filename (dir, link, NULL);
    }
  set_errno_error (error, ELOOP, path);
  return NULL;
}

/* Whether the temporary file @name of the folder @dirfd was left by a
 * writer that is gone (see the top of the file): it starts with the
 * @prefix_len bytes of ".NAME" TEMP_TAG. Removes it then. */
static void
remove_if_stale (int dirfd, const char *name, gsize prefix_len)
{
  const char *p = name + prefix_len;
  const char *digits = p;
  guint64 pid = 0;
  struct stat st;
  int fd;

  while (g_ascii_isdigit (*p) && p - digits < 10)
    pid = pid * 10 + (guint64) (*p++ - '0');
  if (p == digits || *digits == '0' || *p != '-' || pid > G_MAXINT32)
    return;
  p++;
  for (int i = 0; i < 6; i++, p++)
    if (!g_ascii_isalnum (*p))
      return;
  if (*p != '\0')
    return;

  /* A live process of this machine (kill() succeeds, or it is another
   * user's): keep it, it may be writing. */
  if (kill ((pid_t) pid, 0) == 0 || errno != ESRCH)
    return;
  fd = openat (dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    return;
  if (fstat (fd, &st) == 0 && S_ISREG (st.st_mode)
      && flock (fd, LOCK_EX | LOCK_NB) == 0)
    (void) unlinkat (dirfd, name, 0);
  close (fd);
}

/* Removes the stale temporary files of target @base in folder @dir. */
static void
remove_stale_temps (const char *dir, const char *base)
{
  g_autofree char *prefix = g_strconcat (".", base, TEMP_TAG, NULL);
  gsize prefix_len = strlen (prefix);
  GDir *d = g_dir_open (dir, 0, NULL);
  const char *name;
  int dirfd;

  if (d == NULL)
    return;
  dirfd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dirfd >= 0)
    {
      while ((name = g_dir_read_name (d)) != NULL)
        if (strncmp (name, prefix, prefix_len) == 0)
          remove_if_stale (dirfd, name, prefix_len);
      close (dirfd);
    }
  g_dir_close (d);
}

/* Creates the temporary file for @target (see above), locked. */
static int
create_temp (const char *path, const char *target, gboolean exists, const struct stat *st,
             char **tmp_path, GError **error)
{
  g_autofree char *dir = g_path_get_dirname (target);
  g_autofree char *base = g_path_get_basename (target);
  char *tmp;
  int fd;

  remove_stale_temps (dir, base);
  tmp = g_strdup_printf ("%s%c.%s" TEMP_TAG "%d-XXXXXX", dir, G_DIR_SEPARATOR, base,
                         (int) getpid ());
  /* Mode 0666 less the umask, as a new file gets it. */
  fd = g_mkstemp_full (tmp, O_WRONLY | O_CLOEXEC, 0666);
  if (fd < 0)
    {
      set_errno_error (error, errno, path);
      g_free (tmp);
      return -1;
    }
  /* The lock tells other writers this file is in use (it may fail on file
   * systems without locks; the PID still protects it). */
  (void) flock (fd, LOCK_EX | LOCK_NB);
  /* A file that is replaced keeps its permissions (a private file stays
   * private). */
  if (exists)
    (void) fchmod (fd, st->st_mode & 0777);
  *tmp_path = tmp;
  return fd;
}

int
xrlab_atomic_temp_open (const char *path, char **tmp_path, GError **error)
{
  g_autofree char *target = NULL;
  gboolean exists = FALSE;
  struct stat st;

  g_return_val_if_fail (path != NULL && tmp_path != NULL, -1);

  target = resolve_target (path, &exists, &st, error);
  if (target == NULL)
    return -1;
  return create_temp (path, target, exists, &st, tmp_path, error);
}

gboolean
xrlab_atomic_temp_rename (const char *tmp_path, const char *path, GError **error)
{
  g_autofree char *target = NULL;
  gboolean exists = FALSE;
  struct stat st;

  g_return_val_if_fail (tmp_path != NULL && path != NULL, FALSE);

  /* Again: what @path is may have changed while the file was written. */
  target = resolve_target (path, &exists, &st, error);
  if (target == NULL)
    return FALSE;
  if (g_rename (tmp_path, target) != 0)
    {
      set_errno_error (error, errno, path);
      return FALSE;
    }
  return TRUE;
}

/* ---- the stream ------------------------------------------------------------ */

struct _XrlabAtomicFile {
  char *path;
  char *tmp_path;
  int fd;
  int write_errno;      /* the first failed write's, 0 if none */
  FILE *stream;
};

static ssize_t
cookie_write (void *cookie, const char *buf, size_t size)
{
  XrlabAtomicFile *af = cookie;
  size_t done = 0;

  while (done < size)
    {
      ssize_t n = write (af->fd, buf + done, size - done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          if (af->write_errno == 0)
            af->write_errno = n < 0 ? errno : ENOSPC;
          errno = af->write_errno;
          return -1;
        }
      done += (size_t) n;
    }
  return (ssize_t) size;
}

static int
cookie_seek (void *cookie, off64_t *offset, int whence)
{
  XrlabAtomicFile *af = cookie;
  off_t r = lseek (af->fd, (off_t) *offset, whence);

  if (r < 0)
    return -1;
  *offset = r;
  return 0;
}

static int
cookie_close (void *cookie)
{
  XrlabAtomicFile *af = cookie;
  int r = close (af->fd);

  /* Network file systems may report a failed write only here. */
  if (r != 0 && af->write_errno == 0 && errno != EINTR)
    af->write_errno = errno;
  af->fd = -1;
  return r == 0 || errno == EINTR ? 0 : -1;
}

static void
atomic_file_free (XrlabAtomicFile *af)
{
  g_free (af->tmp_path);
  g_free (af->path);
  g_free (af);
}

XrlabAtomicFile *
xrlab_atomic_file_open (const char *path, GError **error)
{
  static const cookie_io_functions_t io = {
    .write = cookie_write,
    .seek = cookie_seek,
    .close = cookie_close,
  };
  XrlabAtomicFile *af;
  char *tmp_path = NULL;
  int fd;

  g_return_val_if_fail (path != NULL, NULL);

  fd = xrlab_atomic_temp_open (path, &tmp_path, error);
  if (fd < 0)
    return NULL;
  af = g_new0 (XrlabAtomicFile, 1);
  af->path = g_strdup (path);
  af->tmp_path = tmp_path;
  af->fd = fd;
  af->stream = fopencookie (af, "w", io);
  if (af->stream == NULL)
    {
      int err = errno;
      close (fd);
      g_unlink (af->tmp_path);
      set_errno_error (error, err, path);
      atomic_file_free (af);
      return NULL;
    }
  return af;
}

FILE *
xrlab_atomic_file_stream (XrlabAtomicFile *af)
{
  return af->stream;
}

const char *
xrlab_atomic_file_get_temp_path (XrlabAtomicFile *af)
{
  return af->tmp_path;
}

void
xrlab_atomic_file_abort (XrlabAtomicFile *af)
{
  if (af == NULL)
    return;
  if (af->stream != NULL)
    fclose (af->stream);
  g_unlink (af->tmp_path);
  atomic_file_free (af);
}

gboolean
xrlab_atomic_file_commit (XrlabAtomicFile *af, GError **error)
{
  int err = 0;

  g_return_val_if_fail (af != NULL, FALSE);

  if (fflush (af->stream) != 0 || ferror (af->stream))
    err = af->write_errno ? af->write_errno : errno ? errno : EIO;
  if (err == 0 && g_private_get (&deferred) != NULL)
    {
#ifdef SYNC_FILE_RANGE_WRITE
      /* the write-back starts now; the deferral's end waits for it */
      (void) sync_file_range (af->fd, 0, 0, SYNC_FILE_RANGE_WRITE);
#endif
    }
  else if (err == 0 && fsync (af->fd) != 0 && errno != EINVAL)
    err = errno;
  /* The lock goes with the descriptor; the PID in the name still keeps
   * other writers' clean-up away until the rename. */
  if (fclose (af->stream) != 0 && err == 0)
    err = af->write_errno ? af->write_errno : errno ? errno : EIO;
  af->stream = NULL;
  if (err != 0)
    {
      set_errno_error (error, err, af->path);
      g_unlink (af->tmp_path);
      atomic_file_free (af);
      return FALSE;
    }
  if (!xrlab_atomic_temp_rename (af->tmp_path, af->path, error))
    {
      g_unlink (af->tmp_path);
      atomic_file_free (af);
      return FALSE;
    }
  if (g_private_get (&deferred) != NULL)
    g_ptr_array_add (g_private_get (&deferred), g_strdup (af->path));
  atomic_file_free (af);
  return TRUE;
}

gboolean
xrlab_write_file_atomic (const char *path, const char *contents, gssize len,
                         GError **error)
{
  XrlabAtomicFile *af = xrlab_atomic_file_open (path, error);

  if (af == NULL)
    return FALSE;
  if (len < 0)
    len = strlen (contents);
  if (len > 0 && fwrite (contents, 1, len, af->stream) != (size_t) len)
    {
      int err = af->write_errno ? af->write_errno : EIO;
      xrlab_atomic_file_abort (af);
      set_errno_error (error, err, path);
      return FALSE;
    }
  return xrlab_atomic_file_commit (af, error);
}
