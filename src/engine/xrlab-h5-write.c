/* xrlab-h5-write.c -- writing HDF5 files (see xrlab-h5.h)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* O_DIRECT */
#define _GNU_SOURCE
#include "config.h"

#include "xrlab-h5.h"
#include "xrlab-h5-private.h"
#include "xrlab-util.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <hdf5.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

/* ---- writing --------------------------------------------------------------- */

struct _XrlabH5Writer {
  char *path;
  char *tmp_path;
  hid_t fid;
  hid_t lcpl;     /* creates missing parent groups */
  /* reserved datasets: written past HDF5, through direct I/O where it
   * works (direct_fd, -1 when the file system refuses it or a write
   * failed with EINVAL), else through plain_fd */
  int plain_fd, direct_fd;
  int direct_ok;  /* atomic: direct_fd may still be used */
};

/* Datasets of at least this many bytes start at multiples of
 * XRLAB_H5_DIRECT_ALIGN in the file. */
#define ALIGN_THRESHOLD ((hsize_t) 1 << 20)

static void
writer_free (XrlabH5Writer *w)
{
  g_free (w->path);
  g_free (w->tmp_path);
  g_free (w);
}

XrlabH5Writer *
xrlab_h5_writer_new (const char *path, GError **error)
{
  g_autoptr(GError) io_error = NULL;
  XrlabH5Writer *w;
  char *tmp_path = NULL;
  int fd;

  g_return_val_if_fail (path != NULL, NULL);

  if (!xrlab_h5_load (error))
    return NULL;
  fd = xrlab_atomic_temp_open (path, &tmp_path, &io_error);
  if (fd < 0)
    {
      g_set_error_literal (error, XRLAB_H5_ERROR, XRLAB_H5_ERROR_WRITE,
                           io_error->message);
      return NULL;
    }
  close (fd);
  w = g_new0 (XrlabH5Writer, 1);
  w->path = g_strdup (path);
  w->tmp_path = tmp_path;
  w->fid = w->lcpl = -1;
  w->plain_fd = w->direct_fd = -1;
  xrlab_h5_enter ();
  {
    hid_t fapl = H5Pcreate (H5P_FILE_ACCESS);

    if (fapl >= 0)
      H5Pset_alignment (fapl, ALIGN_THRESHOLD, XRLAB_H5_DIRECT_ALIGN);
    w->fid = H5Fcreate (w->tmp_path, H5F_ACC_TRUNC, H5P_DEFAULT,
                        fapl >= 0 ? fapl : H5P_DEFAULT);
    xrlab_h5_close_id (&fapl, H5Pclose);
  }
  w->lcpl = H5Pcreate (H5P_LINK_CREATE);
  if (w->lcpl >= 0)
    H5Pset_create_intermediate_group (w->lcpl, 1);
  xrlab_h5_leave ();
  if (w->fid < 0 || w->lcpl < 0)
    {
      g_set_error (error, XRLAB_H5_ERROR, XRLAB_H5_ERROR_WRITE,
                   _("Cannot create the HDF5 file %s"), path);
      xrlab_h5_writer_abort (w);
      return NULL;
    }
  return w;
}

static void
writer_close (XrlabH5Writer *w, gboolean *ok)
{
  if (w->plain_fd >= 0 && close (w->plain_fd) != 0 && ok != NULL)
    *ok = FALSE;
  if (w->direct_fd >= 0 && close (w->direct_fd) != 0 && ok != NULL)
    *ok = FALSE;
  w->plain_fd = w->direct_fd = -1;
  xrlab_h5_enter ();
  if (w->lcpl >= 0)
    H5Pclose (w->lcpl);
  if (w->fid >= 0 && H5Fclose (w->fid) < 0 && ok != NULL)
    *ok = FALSE;
  w->fid = w->lcpl = -1;
  xrlab_h5_leave ();
}

void
xrlab_h5_writer_abort (XrlabH5Writer *w)
{
  if (w == NULL)
    return;
  writer_close (w, NULL);
  g_unlink (w->tmp_path);
  writer_free (w);
}

gboolean
xrlab_h5_writer_commit (XrlabH5Writer *w, GError **error)
{
  gboolean ok = TRUE;
  int err = 0, fd;

  g_return_val_if_fail (w != NULL, FALSE);

  writer_close (w, &ok);
  if (!ok)
    err = EIO;
  if (err == 0 && (fd = g_open (w->tmp_path, O_RDONLY | O_CLOEXEC, 0)) >= 0)
    {
      if (fsync (fd) != 0 && errno != EINVAL)
        err = errno;
      close (fd);
    }
  if (err == 0)
    {
      g_autoptr(GError) io_error = NULL;

      /* over the target of a link; never over a device */
      if (!xrlab_atomic_temp_rename (w->tmp_path, w->path, &io_error))
        {
          g_set_error_literal (error, XRLAB_H5_ERROR, XRLAB_H5_ERROR_WRITE, io_error->message);
          g_unlink (w->tmp_path);
          writer_free (w);
          return FALSE;
        }
    }
  if (err != 0)
    {
      g_set_error (error, XRLAB_H5_ERROR, XRLAB_H5_ERROR_WRITE,
                   "%s %s: %s", _("Cannot write"), w->path, g_strerror (err));
      g_unlink (w->tmp_path);
      writer_free (w);
      return FALSE;
    }
  writer_free (w);
  return TRUE;
}

gboolean
xrlab_h5_writer_add_group (XrlabH5Writer *w, const char *path,
                           const char *nx_class, GError **error)
{
  gboolean ok = TRUE;

  xrlab_h5_enter ();
  if (strcmp (path, "/") != 0 && !xrlab_h5_path_exists (w->fid, path))
    {
      hid_t gid = H5Gcreate2 (w->fid, path, w->lcpl, H5P_DEFAULT, H5P_DEFAULT);

      if (gid < 0)
        ok = FALSE;
      else
        H5Gclose (gid);
    }
  else if (strcmp (path, "/") != 0 && xrlab_h5_object_type (w->fid, path) != H5I_GROUP)
    ok = FALSE;
  xrlab_h5_leave ();
  if (!ok)
    {
      g_set_error (error, XRLAB_H5_ERROR, XRLAB_H5_ERROR_WRITE,
                   _("Cannot create the group %s in %s"), path, w->path);
      return FALSE;
    }
  if (nx_class != NULL)
    return xrlab_h5_writer_set_string (w, path, "NX_class", nx_class, error);
  return TRUE;
}

gboolean
xrlab_h5_writer_add_dataset (XrlabH5Writer *w, const char *path,
                             const double *data, int rank,
                             const gsize dims[2], const char *units,
                             GError **error)
{
  hsize_t hdims[2] = { dims[0], rank == 2 ? dims[1] : 1 };
  hid_t space = -1, did = -1;
  gboolean ok = FALSE;

  g_return_val_if_fail (rank == 1 || rank == 2, FALSE);

  xrlab_h5_enter ();
  space = H5Screate_simple (rank, hdims, NULL);
  if (space >= 0)
    did = H5Dcreate2 (w->fid, path, H5T_IEEE_F64LE, space, w->lcpl,
                      H5P_DEFAULT, H5P_DEFAULT);
  if (did >= 0)
    ok = H5Dwrite (did, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) >= 0;
  xrlab_h5_close_id (&did, H5Dclose);
  xrlab_h5_close_id (&space, H5Sclose);
  xrlab_h5_leave ();
  if (!ok)
    {
      g_set_error (error, XRLAB_H5_ERROR, XRLAB_H5_ERROR_WRITE,
                   _("Cannot write the dataset %s in %s"), path, w->path);
      return FALSE;
    }
  if (units != NULL)
    return xrlab_h5_writer_set_string (w, path, "units", units, error);
  return TRUE;
}

/* ---- reserved datasets ---------------------------------------------------- */

/* The descriptors of reserved writes, opened at the first reservation. */
static gboolean
open_raw (XrlabH5Writer *w, GError **error)
{
  if (w->plain_fd >= 0)
    return TRUE;
  w->plain_fd = g_open (w->tmp_path, O_WRONLY | O_CLOEXEC, 0);
  if (w->plain_fd < 0)
    {
      int e = errno;
      g_set_error (error, XRLAB_H5_ERROR, XRLAB_H5_ERROR_WRITE, "%s %s: %s",
                   _("Cannot write"), w->path, g_strerror (e));
      return FALSE;
    }
  /* EINVAL where the file system has no direct I/O (tmpfs, some FUSE) */
  w->direct_fd = g_open (w->tmp_path, O_WRONLY | O_CLOEXEC | O_DIRECT, 0);
  w->direct_ok = w->direct_fd >= 0;
  return TRUE;
}

gboolean
xrlab_h5_writer_reserve_dataset (XrlabH5Writer *w, const char *path, int rank,
                                 const gsize dims[2], const char *units,
                                 XrlabH5Reserved *out, GError **error)
{
  hsize_t hdims[2] = { dims[0], rank == 2 ? dims[1] : 1 };
  hid_t space = -1, dcpl = -1, did = -1;
  haddr_t addr = HADDR_UNDEF;
  const gsize size = (gsize) hdims[0] * (gsize) hdims[1] * sizeof (double);

  g_return_val_if_fail (rank == 1 || rank == 2, FALSE);

  if (!open_raw (w, error))
    return FALSE;
  xrlab_h5_enter ();
  space = H5Screate_simple (rank, hdims, NULL);
  dcpl = H5Pcreate (H5P_DATASET_CREATE);
  /* contiguous (the default layout), its space allocated now, never
   * filled: the bytes are the caller's */
  if (space >= 0 && dcpl >= 0 && H5Pset_alloc_time (dcpl, H5D_ALLOC_TIME_EARLY) >= 0
      && H5Pset_fill_time (dcpl, H5D_FILL_TIME_NEVER) >= 0)
    did = H5Dcreate2 (w->fid, path, H5T_NATIVE_DOUBLE, space, w->lcpl, dcpl, H5P_DEFAULT);
  if (did >= 0)
    addr = H5Dget_offset (did);
  xrlab_h5_close_id (&did, H5Dclose);
  xrlab_h5_close_id (&dcpl, H5Pclose);
  xrlab_h5_close_id (&space, H5Sclose);
  xrlab_h5_leave ();
  if (addr == HADDR_UNDEF && size > 0)
    {
      g_set_error (error, XRLAB_H5_ERROR, XRLAB_H5_ERROR_WRITE,
                   _("Cannot write the dataset %s in %s"), path, w->path);
      return FALSE;
    }
  out->offset = addr == HADDR_UNDEF ? 0 : (guint64) addr;
  out->size = size;
  if (units != NULL)
    return xrlab_h5_writer_set_string (w, path, "units", units, error);
  return TRUE;
}

/* pwrite() of all @n bytes; FALSE with *@err set. */
static gboolean
pwrite_all (int fd, const char *p, gsize n, guint64 off, int *err)
{
  while (n > 0)
    {
      ssize_t k = pwrite (fd, p, MIN (n, (gsize) 1 << 30), (off_t) off);

      if (k < 0 && errno == EINTR)
        continue;
      if (k <= 0)
        {
          *err = k < 0 ? errno : EIO;
          return FALSE;
        }
      p += k;
      n -= (gsize) k;
      off += (guint64) k;
    }
  return TRUE;
}

gboolean
xrlab_h5_writer_write_reserved (XrlabH5Writer *w, const XrlabH5Reserved *r, gsize from,
                                const void *data, gsize n_bytes, GError **error)
{
  const gsize a = XRLAB_H5_DIRECT_ALIGN;
  const char *p = data;
  const guint64 off = r->offset + from;
  gsize head = n_bytes, mid = 0;
  int err = 0;

  g_return_val_if_fail (from <= r->size && n_bytes <= r->size - from, FALSE);

  if (g_atomic_int_get (&w->direct_ok))
    {
      /* the whole blocks in the middle go direct when the data lies at the
       * same place within a block as its bytes in the file */
      head = MIN ((gsize) ((a - off % a) % a), n_bytes);
      if (((guintptr) (p + head)) % a == 0)
        mid = (n_bytes - head) / a * a;
      else
        head = n_bytes;
    }
  if (!pwrite_all (w->plain_fd, p, head, off, &err))
    goto fail;
  if (mid > 0 && !pwrite_all (w->direct_fd, p + head, mid, off + head, &err))
    {
      if (err != EINVAL)
        goto fail;
      /* a block size larger than XRLAB_H5_DIRECT_ALIGN: plain writes from now on */
      g_atomic_int_set (&w->direct_ok, 0);
      if (!pwrite_all (w->plain_fd, p + head, mid, off + head, &err))
        goto fail;
    }
  if (!pwrite_all (w->plain_fd, p + head + mid, n_bytes - head - mid, off + head + mid, &err))
    goto fail;
  return TRUE;

fail:
  g_set_error (error, XRLAB_H5_ERROR, XRLAB_H5_ERROR_WRITE, "%s %s: %s",
               _("Cannot write"), w->path, g_strerror (err));
  return FALSE;
}

/* Writes the attribute @name of type @type and shape @space on the object at
 * @path from @value, replacing one of that name. */
static gboolean
write_attr (XrlabH5Writer *w, const char *path, const char *name, hid_t type,
            hid_t mem_type, hid_t space, const void *value, GError **error)
{
  hid_t obj, attr = -1;
  gboolean ok = FALSE;

  xrlab_h5_enter ();
  obj = H5Oopen (w->fid, path, H5P_DEFAULT);
  if (obj >= 0)
    {
      if (H5Aexists (obj, name) > 0)
        H5Adelete (obj, name);
      attr = H5Acreate2 (obj, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
      if (attr >= 0)
        ok = H5Awrite (attr, mem_type, value) >= 0;
      xrlab_h5_close_id (&attr, H5Aclose);
      H5Oclose (obj);
    }
  xrlab_h5_leave ();
  if (!ok)
    g_set_error (error, XRLAB_H5_ERROR, XRLAB_H5_ERROR_WRITE,
                 obj < 0 ? _("Cannot set the attribute %s of %s in %s: no such object")
                         : _("Cannot set the attribute %s of %s in %s"),
                 name, path, w->path);
  return ok;
}

gboolean
xrlab_h5_writer_set_double (XrlabH5Writer *w, const char *path,
                            const char *name, double value, GError **error)
{
  hid_t space;
  gboolean ok;

  xrlab_h5_enter ();
  space = H5Screate (H5S_SCALAR);
  xrlab_h5_leave ();
  ok = write_attr (w, path, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, space,
                   &value, error);
  xrlab_h5_enter ();
  H5Sclose (space);
  xrlab_h5_leave ();
  return ok;
}

static gboolean
set_strings (XrlabH5Writer *w, const char *path, const char *name,
             const char *const *values, gsize n, gboolean scalar, GError **error)
{
  hsize_t dims[1] = { n };
  hid_t type, space;
  gboolean ok;

  xrlab_h5_enter ();
  type = H5Tcopy (H5T_C_S1);
  H5Tset_size (type, H5T_VARIABLE);
  H5Tset_cset (type, H5T_CSET_UTF8);
  space = scalar ? H5Screate (H5S_SCALAR) : H5Screate_simple (1, dims, NULL);
  xrlab_h5_leave ();
  ok = write_attr (w, path, name, type, type, space, values, error);
  xrlab_h5_enter ();
  H5Sclose (space);
  H5Tclose (type);
  xrlab_h5_leave ();
  return ok;
}

gboolean
xrlab_h5_writer_set_string (XrlabH5Writer *w, const char *path,
                            const char *name, const char *value, GError **error)
{
  return set_strings (w, path, name, &value, 1, TRUE, error);
}

gboolean
xrlab_h5_writer_set_strings (XrlabH5Writer *w, const char *path,
                             const char *name, const char *const *values,
                             gsize n, GError **error)
{
  return set_strings (w, path, name, values, n, FALSE, error);
}

gboolean
xrlab_h5_writer_add_strings_dataset (XrlabH5Writer *w, const char *path,
                                     const char *const *values, gsize n,
                                     GError **error)
{
  hsize_t dims[1] = { n };
  hid_t type, space, did = -1;
  gboolean ok = FALSE;

  xrlab_h5_enter ();
  type = H5Tcopy (H5T_C_S1);
  H5Tset_size (type, H5T_VARIABLE);
  H5Tset_cset (type, H5T_CSET_UTF8);
  space = H5Screate_simple (1, dims, NULL);
  if (type >= 0 && space >= 0)
    did = H5Dcreate2 (w->fid, path, type, space, w->lcpl, H5P_DEFAULT, H5P_DEFAULT);
  if (did >= 0)
    ok = n == 0 || H5Dwrite (did, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values) >= 0;
  xrlab_h5_close_id (&did, H5Dclose);
  xrlab_h5_close_id (&space, H5Sclose);
  xrlab_h5_close_id (&type, H5Tclose);
  xrlab_h5_leave ();
  if (!ok)
    g_set_error (error, XRLAB_H5_ERROR, XRLAB_H5_ERROR_WRITE,
                 _("Cannot write the dataset %s in %s"), path, w->path);
  return ok;
}
