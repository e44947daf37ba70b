/* xrlab-h5.c -- numeric data in HDF5 and NeXus files
 *
 * Only the parts of the HDF5 C API that are the same in 1.10 (Debian 12) and
 * 1.14 (the Flatpak) are used: no H5Oget_info / H5Ovisit, whose signatures
 * changed; objects are told apart with H5Oopen + H5Iget_type.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-h5.h"
#include "xrlab-h5-private.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <hdf5.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

G_DEFINE_QUARK (xrlab-h5-error-quark, xrlab_h5_error)

/* HDF5 may be built without thread safety: every entry point holds this. */
static GMutex h5_lock;

#define MAX_LISTED 8      /* datasets named in a "not found" message */
#define MAX_DEPTH 16      /* groups below groups, when searching */

void
xrlab_h5_enter (void)
{
  g_mutex_lock (&h5_lock);
  /* Errors are reported through GError, not printed (the setting is per
   * thread in a thread-safe HDF5). */
  H5Eset_auto2 (H5E_DEFAULT, NULL, NULL);
}

void
xrlab_h5_leave (void)
{
  g_mutex_unlock (&h5_lock);
}

void
xrlab_h5_array_clear (XrlabH5Array *a)
{
  g_clear_pointer (&a->data, g_free);
  g_clear_pointer (&a->units, g_free);
  a->dims[0] = a->dims[1] = 0;
  a->rank = 0;
}

void
xrlab_nexus_data_clear (XrlabNexusData *d)
{
  g_clear_pointer (&d->group, g_free);
  g_clear_pointer (&d->signal_path, g_free);
  xrlab_h5_array_clear (&d->signal);
  for (int i = 0; i < 2; i++)
    {
      g_clear_pointer (&d->axis_path[i], g_free);
      xrlab_h5_array_clear (&d->axis[i]);
    }
}

gboolean
xrlab_h5_split_spec (const char *spec, char **file, char **path)
{
  /* The last ":/" whose left part is an existing file. */
  for (const char *p = spec + strlen (spec); p > spec; p--)
    {
      if (p[-1] != ':' || p[0] != '/')
        continue;
      {
        g_autofree char *f = g_strndup (spec, p - 1 - spec);

        if (g_file_test (f, G_FILE_TEST_IS_REGULAR))
          {
            *file = g_steal_pointer (&f);
            *path = g_strdup (p);
            return TRUE;
          }
      }
    }
  return FALSE;
}

gboolean
xrlab_h5_is_hdf5 (const char *path)
{
  static const char signature[8] = { '\x89', 'H', 'D', 'F', '\r', '\n', '\x1a', '\n' };
  char head[8];
  gboolean ok = FALSE;
  struct stat st;
  int fd = g_open (path, O_RDONLY | O_CLOEXEC, 0);

  /* The signature is at offset 0, or after a user block at 512, 1024,
   * 2048, ... (where HDF5 itself looks: H5FD_locate_signature); checked
   * here without loading the library (a CSV file is the usual answer). */
  if (fd < 0)
    return FALSE;
  if (fstat (fd, &st) == 0 && S_ISREG (st.st_mode))
    for (gint64 at = 0; !ok && at + (gint64) sizeof head <= (gint64) st.st_size; at = at == 0 ? 512 : 2 * at)
      ok = pread (fd, head, sizeof head, (off_t) at) == (ssize_t) sizeof head
           && memcmp (head, signature, sizeof head) == 0;
  close (fd);
  return ok;
}

/* ---- reading ------------------------------------------------------------- */

static hid_t
open_file (const char *file, GError **error)
{
  hid_t fid;

  if (!g_file_test (file, G_FILE_TEST_EXISTS))
    {
      g_set_error (error, XRLAB_H5_ERROR, XRLAB_H5_ERROR_OPEN,
                   _("Cannot open %s: %s"), file, g_strerror (ENOENT));
      return -1;
    }
  if (H5Fis_hdf5 (file) <= 0)
    {
      g_set_error (error, XRLAB_H5_ERROR, XRLAB_H5_ERROR_OPEN,
                   _("%s is not an HDF5 file (expected an .h5 or .nxs file "
                     "written by HDF5)"), file);
      return -1;
    }
  fid = H5Fopen (file, H5F_ACC_RDONLY, H5P_DEFAULT);
  if (fid < 0)
    g_set_error (error, XRLAB_H5_ERROR, XRLAB_H5_ERROR_OPEN,
                 _("Cannot open the HDF5 file %s"), file);
  return fid;
}

gboolean
xrlab_h5_path_exists (hid_t fid, const char *path)
{
  g_auto(GStrv) parts = g_strsplit (path, "/", -1);
  g_autoptr(GString) sofar = g_string_new ("");

  for (gsize i = 0; parts[i] != NULL; i++)
    {
      if (parts[i][0] == '\0')
        continue;
      g_string_append_c (sofar, '/');
      g_string_append (sofar, parts[i]);
      if (H5Lexists (fid, sofar->str, H5P_DEFAULT) <= 0)
        return FALSE;
    }
  return TRUE;
}

H5I_type_t
xrlab_h5_object_type (hid_t loc, const char *name)
{
  hid_t obj = H5Oopen (loc, name, H5P_DEFAULT);
  H5I_type_t type;

  if (obj < 0)
    return H5I_BADID;
  type = H5Iget_type (obj);
  H5Oclose (obj);
  return type;
}

typedef struct {
  GPtrArray *found;     /* paths of datasets */
  char *prefix;
  int depth;
} ListData;

static herr_t
list_datasets_cb (hid_t group, const char *name, const H5L_info_t *info, void *user_data)
{
  ListData *ld = user_data;
  g_autofree char *path = g_strconcat (ld->prefix, "/", name, NULL);
  H5I_type_t type;

  if (ld->found->len >= MAX_LISTED + 1)
    return 1;
  type = xrlab_h5_object_type (group, name);
  if (type == H5I_DATASET)
    g_ptr_array_add (ld->found, g_steal_pointer (&path));
  else if (type == H5I_GROUP && ld->depth < MAX_DEPTH)
    {
      hid_t sub = H5Gopen2 (group, name, H5P_DEFAULT);
      ListData inner = { ld->found, path, ld->depth + 1 };

      if (sub >= 0)
        {
          H5Literate (sub, H5_INDEX_NAME, H5_ITER_INC, NULL, list_datasets_cb, &inner);
          H5Gclose (sub);
        }
    }
  return 0;
}

/* "/a/x, /a/y, ..." : the first datasets of the file, for messages. */
static char *
list_datasets (hid_t fid)
{
  g_autoptr(GPtrArray) found = g_ptr_array_new_with_free_func (g_free);
  ListData ld = { found, (char *) "", 0 };
  g_autoptr(GString) s = g_string_new (NULL);

  H5Literate (fid, H5_INDEX_NAME, H5_ITER_INC, NULL, list_datasets_cb, &ld);
  for (guint i = 0; i < found->len && i < MAX_LISTED; i++)
    {
      if (i > 0)
        g_string_append (s, ", ");
      g_string_append (s, g_ptr_array_index (found, i));
    }
  if (found->len > MAX_LISTED)
    g_string_append (s, ", …");
  return g_string_free (g_steal_pointer (&s), FALSE);
}

/* Reads the string attribute @name of @obj (scalar, or the first of an
 * array), fixed or variable length; NULL when absent or not a string. */
static char **
read_string_attr (hid_t obj, const char *name)
{
  hid_t attr = -1, ftype = -1, mtype = -1, space = -1;
  char **result = NULL;
  hssize_t n;

  if (H5Aexists (obj, name) <= 0)
    return NULL;
  attr = H5Aopen (obj, name, H5P_DEFAULT);
  if (attr < 0)
    return NULL;
  ftype = H5Aget_type (attr);
  space = H5Aget_space (attr);
  n = space >= 0 ? H5Sget_simple_extent_npoints (space) : -1;
  if (ftype < 0 || H5Tget_class (ftype) != H5T_STRING || n < 1 || n > 4096)
    goto out;
  mtype = H5Tcopy (H5T_C_S1);
  /* HDF5 converts between no two character sets: read as stored. */
  H5Tset_cset (mtype, H5Tget_cset (ftype));
  if (H5Tis_variable_str (ftype) > 0)
    {
      char **strings = g_new0 (char *, n);

      H5Tset_size (mtype, H5T_VARIABLE);
      if (H5Aread (attr, mtype, strings) >= 0)
        {
          result = g_new0 (char *, n + 1);
          for (hssize_t i = 0; i < n; i++)
            {
              result[i] = g_strdup (strings[i] != NULL ? strings[i] : "");
              H5free_memory (strings[i]);
            }
        }
      g_free (strings);
    }
  else
    {
      size_t size = H5Tget_size (ftype);
      g_autofree char *buf = g_malloc0 (size * n + 1);

      H5Tset_size (mtype, size);
      H5Tset_strpad (mtype, H5T_STR_NULLPAD);
      if (H5Aread (attr, mtype, buf) >= 0)
        {
          result = g_new0 (char *, n + 1);
          for (hssize_t i = 0; i < n; i++)
            result[i] = g_strchomp (g_strndup (buf + i * size, size));
        }
    }
out:
  xrlab_h5_close_id (&mtype, H5Tclose);
  xrlab_h5_close_id (&space, H5Sclose);
  xrlab_h5_close_id (&ftype, H5Tclose);
  xrlab_h5_close_id (&attr, H5Aclose);
  return result;
}

static char *
read_string_attr1 (hid_t obj, const char *name)
{
  g_auto(GStrv) v = read_string_attr (obj, name);

  return v != NULL && v[0] != NULL ? g_strdup (v[0]) : NULL;
}

/* "a × b × c" */
static char *
dims_text (const hsize_t *dims, int rank)
{
  g_autoptr(GString) s = g_string_new (NULL);

  for (int i = 0; i < rank; i++)
    g_string_append_printf (s, i > 0 ? " × %llu" : "%llu", (unsigned long long) dims[i]);
  return g_string_free (g_steal_pointer (&s), FALSE);
}

/* Reads the dataset @did (at @path of @file) into @out. */
static gboolean
read_open_dataset (hid_t did, const char *file, const char *path,
                   XrlabH5Array *out, GError **error)
{
  hid_t type = H5Dget_type (did), space = H5Dget_space (did);
  H5T_class_t cls = type >= 0 ? H5Tget_class (type) : H5T_NO_CLASS;
  hsize_t dims[H5S_MAX_RANK] = { 0 };
  int rank = space >= 0 ? H5Sget_simple_extent_ndims (space) : -1;
  gboolean ok = FALSE;
  double *data = NULL;
  hsize_t n;

  if (cls != H5T_INTEGER && cls != H5T_FLOAT)
    {
      g_set_error (error, XRLAB_H5_ERROR, XRLAB_H5_ERROR_TYPE,
                   _("%s:%s holds %s, expected numbers (integers or floating point)"),
                   file, path,
                   cls == H5T_STRING ? _("text") : cls == H5T_COMPOUND ? _("records (a compound type)")
                                                 : _("values of another kind"));
      goto out;
    }
  if (rank >= 0)
    H5Sget_simple_extent_dims (space, dims, NULL);
  if (rank < 1 || rank > 2)
    {
      g_autofree char *shape = dims_text (dims, rank);

      if (rank == 0)
        g_set_error (error, XRLAB_H5_ERROR, XRLAB_H5_ERROR_SHAPE,
                     _("%s:%s is a single value, expected a 1D or 2D array"),
                     file, path);
      else
        g_set_error (error, XRLAB_H5_ERROR, XRLAB_H5_ERROR_SHAPE,
                     _("%s:%s has %d dimensions (%s), expected 1 or 2"),
                     file, path, rank, shape);
      goto out;
    }
  n = rank == 1 ? dims[0] : dims[0] * dims[1];
  if (n == 0 || (rank == 2 && dims[1] != 0 && n / dims[1] != dims[0])
      || n > G_MAXSIZE / sizeof (double)
      || (data = g_try_new (double, n)) == NULL)
    {
      g_autofree char *shape = dims_text (dims, rank);

      g_set_error (error, XRLAB_H5_ERROR, XRLAB_H5_ERROR_SHAPE,
                   n == 0 ? _("%s:%s is empty (%s), expected at least one value")
                          : _("%s:%s is too large to read (%s)"),
                   file, path, shape);
      goto out;
    }
  if (H5Dread (did, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0)
    {
      g_set_error (error, XRLAB_H5_ERROR, XRLAB_H5_ERROR_TYPE,
                   _("Cannot read %s:%s as numbers (a filter that is not "
                     "available, or a damaged file)"), file, path);
      g_free (data);
      goto out;
    }
  out->data = data;
  out->rank = rank;
  out->dims[0] = dims[0];
  out->dims[1] = rank == 2 ? dims[1] : 1;
  out->units = read_string_attr1 (did, "units");
  ok = TRUE;
out:
  xrlab_h5_close_id (&space, H5Sclose);
  xrlab_h5_close_id (&type, H5Tclose);
  return ok;
}

static gboolean
read_dataset (hid_t fid, const char *file, const char *path, XrlabH5Array *out,
              GError **error)
{
  H5I_type_t type;
  hid_t did;
  gboolean ok;

  if (path[0] != '/')
    {
      g_set_error (error, XRLAB_H5_ERROR, XRLAB_H5_ERROR_NOT_FOUND,
                   _("%s:%s: a dataset path starts with “/”, as in %s:/entry/data/y"),
                   file, path, file);
      return FALSE;
    }
  type = xrlab_h5_path_exists (fid, path) ? xrlab_h5_object_type (fid, path) : H5I_BADID;
  if (type != H5I_DATASET)
    {
      g_autofree char *have = list_datasets (fid);

      if (type == H5I_GROUP)
        g_set_error (error, XRLAB_H5_ERROR, XRLAB_H5_ERROR_NOT_FOUND,
                     _("%s:%s is a group, expected a dataset of numbers "
                       "(the file has %s)"), file, path, *have ? have : _("no datasets"));
      else
        g_set_error (error, XRLAB_H5_ERROR, XRLAB_H5_ERROR_NOT_FOUND,
                     _("%s has no dataset “%s” (it has %s)"),
                     file, path, *have ? have : _("no datasets"));
      return FALSE;
    }
  did = H5Dopen2 (fid, path, H5P_DEFAULT);
  if (did < 0)
    {
      g_set_error (error, XRLAB_H5_ERROR, XRLAB_H5_ERROR_NOT_FOUND,
                   _("Cannot open the dataset %s:%s"), file, path);
      return FALSE;
    }
  ok = read_open_dataset (did, file, path, out, error);
  H5Dclose (did);
  return ok;
}

gboolean
xrlab_h5_read (const char *file, const char *path, XrlabH5Array *out,
               GError **error)
{
  gboolean ok = FALSE;
  hid_t fid;

  g_return_val_if_fail (file != NULL && path != NULL && out != NULL, FALSE);

  memset (out, 0, sizeof *out);
  if (!xrlab_h5_load (error))
    return FALSE;
  xrlab_h5_enter ();
  fid = open_file (file, error);
  if (fid >= 0)
    {
      ok = read_dataset (fid, file, path, out, error);
      H5Fclose (fid);
    }
  xrlab_h5_leave ();
  return ok;
}

gboolean
xrlab_h5_read_spec (const char *spec, XrlabH5Array *out, GError **error)
{
  g_autofree char *file = NULL;
  g_autofree char *path = NULL;

  if (!xrlab_h5_split_spec (spec, &file, &path))
    {
      g_set_error (error, XRLAB_H5_ERROR, XRLAB_H5_ERROR_NOT_FOUND,
                   _("“%s” is not FILE:/PATH with an existing file (expected "
                     "e.g. data.h5:/entry/data/y)"), spec);
      return FALSE;
    }
  return xrlab_h5_read (file, path, out, error);
}

/* ---- NeXus ----------------------------------------------------------------- */

static gboolean
has_nx_class (hid_t loc, const char *name, const char *nx_class)
{
  hid_t obj = H5Oopen (loc, name, H5P_DEFAULT);
  g_autofree char *cls = NULL;

  if (obj < 0)
    return FALSE;
  if (H5Iget_type (obj) == H5I_GROUP)
    cls = read_string_attr1 (obj, "NX_class");
  H5Oclose (obj);
  return cls != NULL && strcmp (cls, nx_class) == 0;
}

static char *
child_path (const char *parent, const char *name)
{
  return strcmp (parent, "/") == 0 ? g_strconcat ("/", name, NULL)
                                   : g_strconcat (parent, "/", name, NULL);
}

/* Follows @default attributes from the root to an NXdata group. */
static char *
find_by_default (hid_t fid)
{
  g_autofree char *here = g_strdup ("/");

  for (int depth = 0; depth < MAX_DEPTH; depth++)
    {
      hid_t obj = H5Oopen (fid, here, H5P_DEFAULT);
      g_autofree char *def = NULL;
      g_autofree char *next = NULL;

      if (obj < 0)
        return NULL;
      def = read_string_attr1 (obj, "default");
      H5Oclose (obj);
      if (def == NULL || def[0] == '\0' || strchr (def, '/') != NULL)
        return NULL;
      next = child_path (here, def);
      if (!xrlab_h5_path_exists (fid, next) || xrlab_h5_object_type (fid, next) != H5I_GROUP)
        return NULL;
      if (has_nx_class (fid, next, "NXdata"))
        return g_steal_pointer (&next);
      g_free (here);
      here = g_steal_pointer (&next);
    }
  return NULL;
}

typedef struct {
  const char *nx_class;
  char *prefix;
  char *found;
  gboolean recurse;
  int depth;
} FindData;

static herr_t
find_class_cb (hid_t group, const char *name, const H5L_info_t *info, void *user_data)
{
  FindData *fd = user_data;
  g_autofree char *path = child_path (fd->prefix, name);

  if (xrlab_h5_object_type (group, name) != H5I_GROUP)
    return 0;
  if (has_nx_class (group, name, fd->nx_class))
    {
      fd->found = g_steal_pointer (&path);
      return 1;
    }
  if (fd->recurse && fd->depth < MAX_DEPTH)
    {
      hid_t sub = H5Gopen2 (group, name, H5P_DEFAULT);
      FindData inner = { fd->nx_class, path, NULL, TRUE, fd->depth + 1 };

      if (sub >= 0)
        {
          H5Literate (sub, H5_INDEX_NAME, H5_ITER_INC, NULL, find_class_cb, &inner);
          H5Gclose (sub);
        }
      if (inner.found != NULL)
        {
          fd->found = inner.found;
          return 1;
        }
    }
  return 0;
}

/* The first group of class @nx_class directly below (or, with @recurse,
 * anywhere below) @path, by name. */
static char *
find_class (hid_t fid, const char *path, const char *nx_class, gboolean recurse)
{
  FindData fd = { nx_class, (char *) path, NULL, recurse, 0 };
  hid_t group = H5Gopen2 (fid, path, H5P_DEFAULT);

  if (group < 0)
    return NULL;
  H5Literate (group, H5_INDEX_NAME, H5_ITER_INC, NULL, find_class_cb, &fd);
  H5Gclose (group);
  return fd.found;
}

static char *
find_nxdata (hid_t fid)
{
  char *found = find_by_default (fid);
  g_autofree char *entry = NULL;

  if (found != NULL)
    return found;
  entry = find_class (fid, "/", "NXentry", FALSE);
  if (entry != NULL && (found = find_class (fid, entry, "NXdata", FALSE)) != NULL)
    return found;
  return find_class (fid, "/", "NXdata", TRUE);
}

/* The axis names of the NXdata group @group (or of its signal @sig, the
 * older convention): "a", "b" from ["a", "b"], "a:b" or "a,b". */
static char **
axis_names (hid_t group, hid_t sig)
{
  g_auto(GStrv) raw = read_string_attr (group, "axes");
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);

  if (raw == NULL)
    raw = read_string_attr (sig, "axes");
  if (raw == NULL)
    return NULL;
  for (gsize i = 0; raw[i] != NULL; i++)
    {
      g_auto(GStrv) parts = g_strsplit_set (raw[i], ":,", -1);

      for (gsize j = 0; parts[j] != NULL; j++)
        {
          g_strstrip (parts[j]);
          if (parts[j][0] != '\0')
            g_ptr_array_add (names, g_strdup (parts[j]));
        }
    }
  g_ptr_array_add (names, NULL);
  return (char **) g_ptr_array_free (g_steal_pointer (&names), FALSE);
}

/* The signal's name: @signal of the group, else (older files) the dataset
 * whose own @signal is 1. */
typedef struct {
  char *name;
} SignalData;

static herr_t
find_signal_cb (hid_t group, const char *name, const H5L_info_t *info, void *user_data)
{
  SignalData *sd = user_data;
  hid_t did, attr;
  int value = 0;

  if (xrlab_h5_object_type (group, name) != H5I_DATASET)
    return 0;
  did = H5Dopen2 (group, name, H5P_DEFAULT);
  if (did < 0)
    return 0;
  if (H5Aexists (did, "signal") > 0 && (attr = H5Aopen (did, "signal", H5P_DEFAULT)) >= 0)
    {
      hid_t type = H5Aget_type (attr);
      g_autofree char *text = NULL;

      if (H5Tget_class (type) == H5T_INTEGER)
        H5Aread (attr, H5T_NATIVE_INT, &value);
      else
        {
          text = read_string_attr1 (did, "signal");
          value = text != NULL && strcmp (text, "1") == 0;
        }
      H5Tclose (type);
      H5Aclose (attr);
    }
  H5Dclose (did);
  if (value == 1)
    {
      sd->name = g_strdup (name);
      return 1;
    }
  return 0;
}

static char *
signal_name (hid_t group)
{
  char *name = read_string_attr1 (group, "signal");
  SignalData sd = { NULL };

  if (name != NULL)
    return name;
  H5Literate (group, H5_INDEX_NAME, H5_ITER_INC, NULL, find_signal_cb, &sd);
  return sd.name;
}

/* Reads the axes of @d's signal from the NXdata group @group. */
static gboolean
read_axes (hid_t fid, hid_t group, hid_t sig, const char *file, XrlabNexusData *d,
           GError **error)
{
  g_auto(GStrv) names = axis_names (group, sig);
  int rank = d->signal.rank;
  gsize n = names != NULL ? g_strv_length (names) : 0;

  if (n == 0)
    return TRUE;
  if (n != (gsize) rank)
    {
      g_set_error (error, XRLAB_H5_ERROR, XRLAB_H5_ERROR_NEXUS,
                   _("%s:%s: @axes names %zu axes, but the signal %s has %d dimensions"),
                   file, d->group, n, d->signal_path, rank);
      return FALSE;
    }
  for (int i = 0; i < rank; i++)
    {
      g_autofree char *indices_name = g_strconcat (names[i], "_indices", NULL);
      int dim = i;
      gsize want;

      if (strcmp (names[i], ".") == 0)
        continue;
      /* NeXus: AXISNAME_indices tells which dimension the axis is for. */
      if (H5Aexists (group, indices_name) > 0)
        {
          hid_t attr = H5Aopen (group, indices_name, H5P_DEFAULT);

          if (attr < 0 || H5Aread (attr, H5T_NATIVE_INT, &dim) < 0 || dim < 0 || dim >= rank)
            dim = i;
          if (attr >= 0)
            H5Aclose (attr);
        }
      if (d->axis_path[dim] != NULL)
        continue;
      d->axis_path[dim] = child_path (d->group, names[i]);
      if (!read_dataset (fid, file, d->axis_path[dim], &d->axis[dim], error))
        return FALSE;
      want = d->signal.dims[dim];
      if (d->axis[dim].rank != 1 || d->axis[dim].dims[0] != want)
        {
          g_set_error (error, XRLAB_H5_ERROR, XRLAB_H5_ERROR_NEXUS,
                       _("%s:%s has %zu × %zu values, expected %zu (dimension %d "
                         "of the signal %s)"),
                       file, d->axis_path[dim], d->axis[dim].dims[0],
                       d->axis[dim].dims[1], want, dim + 1, d->signal_path);
          return FALSE;
        }
    }
  return TRUE;
}

static gboolean
read_nxdata (hid_t fid, const char *file, XrlabNexusData *d, GError **error)
{
  g_autofree char *sig_name = NULL;
  hid_t group, sig;
  gboolean ok = FALSE;

  group = H5Gopen2 (fid, d->group, H5P_DEFAULT);
  if (group < 0)
    {
      g_set_error (error, XRLAB_H5_ERROR, XRLAB_H5_ERROR_NEXUS,
                   _("Cannot open the group %s:%s"), file, d->group);
      return FALSE;
    }
  sig_name = signal_name (group);
  if (sig_name == NULL)
    {
      g_set_error (error, XRLAB_H5_ERROR, XRLAB_H5_ERROR_NEXUS,
                   _("%s:%s: the NXdata group has no @signal attribute naming "
                     "its data (give the dataset as %s:/path/to/data)"),
                   file, d->group, file);
      H5Gclose (group);
      return FALSE;
    }
  d->signal_path = child_path (d->group, sig_name);
  if (!read_dataset (fid, file, d->signal_path, &d->signal, error))
    {
      H5Gclose (group);
      return FALSE;
    }
  sig = H5Dopen2 (fid, d->signal_path, H5P_DEFAULT);
  if (sig >= 0)
    {
      ok = read_axes (fid, group, sig, file, d, error);
      H5Dclose (sig);
    }
  H5Gclose (group);
  return ok;
}

gboolean
xrlab_nexus_read (const char *file, XrlabNexusData *out, GError **error)
{
  gboolean ok = FALSE;
  hid_t fid;

  g_return_val_if_fail (file != NULL && out != NULL, FALSE);

  memset (out, 0, sizeof *out);
  if (!xrlab_h5_load (error))
    return FALSE;
  xrlab_h5_enter ();
  fid = open_file (file, error);
  if (fid >= 0)
    {
      out->group = find_nxdata (fid);
      if (out->group == NULL)
        g_set_error (error, XRLAB_H5_ERROR, XRLAB_H5_ERROR_NEXUS,
                     _("%s has no NeXus NXdata group (a group with "
                       "NX_class=NXdata); give the dataset as %s:/path/to/data"),
                     file, file);
      else
        ok = read_nxdata (fid, file, out, error);
      H5Fclose (fid);
    }
  xrlab_h5_leave ();
  if (!ok)
    xrlab_nexus_data_clear (out);
  return ok;
}

