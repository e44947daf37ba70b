/* test-h5.c -- HDF5 datasets and NeXus NXdata: reading, writing, errors
 *
 * Fixtures: h5py-nexus.nxs (tests/data/h5, made once by h5py, see the README
 * there) and files this test writes itself, with xrlab's writer and with the
 * plain HDF5 API in the older NeXus conventions.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <hdf5.h>

#include "xrlab-h5.h"
#include "xrlab-init.h"
#include "xrlab-parallel.h"

static char *tmp_dir;

static char *
tmp_path (const char *name)
{
  return g_build_filename (tmp_dir, name, NULL);
}

static const char *
fixture (void)
{
  static char *path;

  if (path == NULL)
    path = g_build_filename (XRLAB_TEST_SRCDIR, "data", "h5", "h5py-nexus.nxs", NULL);
  return path;
}

/* The message contains every one of the NULL-terminated strings. */
static void
assert_message (const GError *error, ...)
{
  va_list ap;

  g_assert_nonnull (error);
  va_start (ap, error);
  for (const char *s = va_arg (ap, const char *); s != NULL; s = va_arg (ap, const char *))
    {
      if (strstr (error->message, s) == NULL)
        g_error ("“%s” not in “%s”", s, error->message);
    }
  va_end (ap);
}

/* ---- what h5py wrote --------------------------------------------------------- */

static void
test_h5py_dataset (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *spec = g_strconcat (fixture (), ":/entry/data/counts", NULL);
  XrlabH5Array a = { 0 };

  /* int32, chunked and gzip-compressed, read as double. */
  g_assert_true (xrlab_h5_read_spec (spec, &a, &error));
  g_assert_no_error (error);
  g_assert_cmpint (a.rank, ==, 2);
  g_assert_cmpuint (a.dims[0], ==, 4);
  g_assert_cmpuint (a.dims[1], ==, 6);
  for (int i = 0; i < 24; i++)
    g_assert_cmpfloat (a.data[i], ==, i * 3 + 7);
  g_assert_cmpstr (a.units, ==, "counts");
  xrlab_h5_array_clear (&a);

  /* float32, 1D. */
  g_assert_true (xrlab_h5_read (fixture (), "/entry/data/energy", &a, &error));
  g_assert_cmpint (a.rank, ==, 1);
  g_assert_cmpuint (a.dims[0], ==, 6);
  g_assert_cmpuint (a.dims[1], ==, 1);
  g_assert_cmpfloat (a.data[0], ==, 80.0);
  g_assert_cmpfloat (a.data[5], ==, 90.0);
  g_assert_cmpstr (a.units, ==, "eV");
  xrlab_h5_array_clear (&a);
  g_assert_null (a.data);
}

static void
test_h5py_nexus (void)
{
  g_autoptr(GError) error = NULL;
  XrlabNexusData d = { 0 };

  g_assert_true (xrlab_nexus_read (fixture (), &d, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (d.group, ==, "/entry/data");
  g_assert_cmpstr (d.signal_path, ==, "/entry/data/counts");
  g_assert_cmpuint (d.signal.dims[0], ==, 4);
  g_assert_cmpuint (d.signal.dims[1], ==, 6);
  g_assert_cmpstr (d.axis_path[0], ==, "/entry/data/delay");
  g_assert_cmpstr (d.axis_path[1], ==, "/entry/data/energy");
  g_assert_cmpuint (d.axis[0].dims[0], ==, 4);
  g_assert_cmpfloat (d.axis[0].data[3], ==, 2.0);
  g_assert_cmpstr (d.axis[0].units, ==, "ps");
  g_assert_cmpuint (d.axis[1].dims[0], ==, 6);
  g_assert_cmpfloat (d.axis[1].data[1], ==, 82.0);
  xrlab_nexus_data_clear (&d);
  g_assert_null (d.group);
}

/* ---- xrlab's writer, read back --------------------------------------------- */

static void
write_nexus (const char *path, const double *signal, const gsize dims[2],
             const double *t, const double *e)
{
  g_autoptr(GError) error = NULL;
  XrlabH5Writer *w = xrlab_h5_writer_new (path, &error);
  const char *axes[] = { "time", "energy" };
  gsize tdims[2] = { dims[0], 1 }, edims[2] = { dims[1], 1 };

  g_assert_no_error (error);
  g_assert_true (xrlab_h5_writer_add_group (w, "/entry", "NXentry", &error));
  g_assert_true (xrlab_h5_writer_add_group (w, "/entry/data", "NXdata", &error));
  g_assert_true (xrlab_h5_writer_set_string (w, "/", "default", "entry", &error));
  g_assert_true (xrlab_h5_writer_set_string (w, "/entry", "default", "data", &error));
  g_assert_true (xrlab_h5_writer_set_string (w, "/entry/data", "signal", "fit", &error));
  g_assert_true (xrlab_h5_writer_set_strings (w, "/entry/data", "axes", axes, 2, &error));
  g_assert_true (xrlab_h5_writer_add_dataset (w, "/entry/data/fit", signal, 2, dims, "counts", &error));
  g_assert_true (xrlab_h5_writer_add_dataset (w, "/entry/data/time", t, 1, tdims, "ps", &error));
  g_assert_true (xrlab_h5_writer_add_dataset (w, "/entry/data/energy", e, 1, edims, "eV", &error));
  /* Parameters as attributes of a group created with its parents. */
  g_assert_true (xrlab_h5_writer_add_group (w, "/entry/parameters", "NXparameters", &error));
  g_assert_true (xrlab_h5_writer_set_double (w, "/entry/parameters", "GLP_01_x0", 84.20991081817021, &error));
  g_assert_true (xrlab_h5_writer_set_double (w, "/entry/parameters", "GLP_01_x0", 84.5, &error));
  g_assert_true (xrlab_h5_writer_set_double (w, "/entry/parameters", "reduced_chi2", 197.2707041008079, &error));
  g_assert_no_error (error);
  g_assert_true (xrlab_h5_writer_commit (w, &error));
  g_assert_no_error (error);
}

static void
test_write_read (void)
{
  g_autofree char *path = tmp_path ("out.h5");
  g_autoptr(GError) error = NULL;
  const gsize dims[2] = { 3, 5 };
  double signal[15], t[3] = { -0.5, 0.0, 1.5 }, e[5];
  XrlabNexusData d = { 0 };
  XrlabH5Array a = { 0 };
  hid_t fid, obj, attr;
  double value = 0;

  for (int i = 0; i < 15; i++)
    signal[i] = sin (i) * 1e-7 + i;
  for (int i = 0; i < 5; i++)
    e[i] = 80.0 + 0.1 * i;
  write_nexus (path, signal, dims, t, e);

  g_assert_true (xrlab_h5_read (path, "/entry/data/fit", &a, &error));
  g_assert_no_error (error);
  g_assert_true (memcmp (a.data, signal, sizeof signal) == 0);
  g_assert_cmpstr (a.units, ==, "counts");
  xrlab_h5_array_clear (&a);

  g_assert_true (xrlab_nexus_read (path, &d, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (d.signal_path, ==, "/entry/data/fit");
  g_assert_true (memcmp (d.axis[0].data, t, sizeof t) == 0);
  g_assert_true (memcmp (d.axis[1].data, e, sizeof e) == 0);
  g_assert_cmpstr (d.axis[1].units, ==, "eV");
  xrlab_nexus_data_clear (&d);

  /* The attribute that was set twice holds the second value, once. */
  fid = H5Fopen (path, H5F_ACC_RDONLY, H5P_DEFAULT);
  g_assert_cmpint (fid, >=, 0);
  obj = H5Oopen (fid, "/entry/parameters", H5P_DEFAULT);
  attr = H5Aopen (obj, "GLP_01_x0", H5P_DEFAULT);
  g_assert_cmpint (H5Aread (attr, H5T_NATIVE_DOUBLE, &value), >=, 0);
  g_assert_cmpfloat (value, ==, 84.5);
  H5Aclose (attr);
  H5Oclose (obj);
  H5Fclose (fid);

  g_assert_true (xrlab_h5_is_hdf5 (path));
  g_unlink (path);
}

/* A failed or aborted write leaves the previous file and no temporary one. */
static void
test_write_atomic (void)
{
  g_autofree char *path = tmp_path ("keep.h5");
  g_autofree char *bad = g_build_filename (tmp_dir, "no-such-dir", "x.h5", NULL);
  g_autoptr(GError) error = NULL;
  const gsize dims[2] = { 2, 1 };
  const double v[2] = { 1, 2 };
  XrlabH5Writer *w;
  XrlabH5Array a = { 0 };
  GDir *dir;
  const char *name;
  int n = 0;

  w = xrlab_h5_writer_new (path, &error);
  g_assert_true (xrlab_h5_writer_add_dataset (w, "/v", v, 1, dims, NULL, &error));
  g_assert_true (xrlab_h5_writer_commit (w, &error));

  w = xrlab_h5_writer_new (path, &error);
  g_assert_true (xrlab_h5_writer_add_dataset (w, "/other", v, 1, dims, NULL, &error));
  /* Not an object of the file. */
  g_assert_false (xrlab_h5_writer_set_double (w, "/nothing", "x", 1, &error));
  assert_message (error, "nothing", path, NULL);
  g_clear_error (&error);
  xrlab_h5_writer_abort (w);

  g_assert_true (xrlab_h5_read (path, "/v", &a, &error));
  g_assert_no_error (error);
  xrlab_h5_array_clear (&a);
  dir = g_dir_open (tmp_dir, 0, NULL);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_assert_false (g_str_has_prefix (name, ".keep.h5."));
      n += strcmp (name, "keep.h5") == 0;
    }
  g_dir_close (dir);
  g_assert_cmpint (n, ==, 1);

  g_assert_null (xrlab_h5_writer_new (bad, &error));
  g_assert_error (error, XRLAB_H5_ERROR, XRLAB_H5_ERROR_WRITE);
  assert_message (error, "no-such-dir", NULL);
  g_clear_error (&error);
  g_unlink (path);
}

/* Reserved datasets written in pieces, at the same time, from aligned and
 * unaligned buffers (direct I/O where the file system takes it, ordinary
 * writes for the rest), beside ordinary datasets: read back unchanged. */
typedef struct {
  XrlabH5Writer *w;
  const XrlabH5Reserved *res;
  const double *data;
  gsize n, n_pieces;
  int failed;
} PieceJob;

static void
write_piece (gpointer data, guint part)
{
  PieceJob *j = data;
  /* uneven pieces: none starts or ends on a block */
  const gsize a = part == 0 ? 0 : part * j->n / j->n_pieces + 3;
  const gsize b = part + 1 == j->n_pieces ? j->n : (part + 1) * j->n / j->n_pieces + 3;
  g_autoptr(GError) error = NULL;

  if (!xrlab_h5_writer_write_reserved (j->w, j->res, a * sizeof (double), j->data + a,
                                       (b - a) * sizeof (double), &error))
    g_atomic_int_set (&j->failed, 1);
}

static void
test_write_reserved (void)
{
  g_autofree char *path = tmp_path ("reserved.h5");
  g_autoptr(GError) error = NULL;
  const gsize n = 300001, rows = 700, cols = 800;
  const gsize d1[2] = { n, 1 }, d2[2] = { rows, cols }, d3[2] = { 5, 1 }, d4[2] = { 3, 1 };
  double *aligned = g_aligned_alloc (n, sizeof (double), XRLAB_H5_DIRECT_ALIGN);
  g_autofree double *raw = g_new (double, rows * cols + 1);
  double *shifted = raw + 1, small[5] = { 1, 2, 3, 4, 5 }, plain[3] = { 7, 8, 9 };
  XrlabH5Reserved r1, r2, r3;
  XrlabH5Array a = { 0 };
  XrlabH5Writer *w;

  for (gsize i = 0; i < n; i++)
    aligned[i] = sin ((double) i) * 1e3;
  for (gsize i = 0; i < rows * cols; i++)
    shifted[i] = (double) i / 7.0;
  w = xrlab_h5_writer_new (path, &error);
  g_assert_no_error (error);
  g_assert_true (xrlab_h5_writer_add_dataset (w, "/before", plain, 1, d4, NULL, &error));
  g_assert_true (xrlab_h5_writer_reserve_dataset (w, "/big/one", 1, d1, "counts", &r1, &error));
  g_assert_true (xrlab_h5_writer_reserve_dataset (w, "/big/two", 2, d2, NULL, &r2, &error));
  g_assert_true (xrlab_h5_writer_reserve_dataset (w, "/small", 1, d3, NULL, &r3, &error));
  g_assert_true (xrlab_h5_writer_add_dataset (w, "/after", plain, 1, d4, NULL, &error));
  g_assert_no_error (error);
  /* 1 MiB and more: aligned in the file */
  g_assert_cmpuint (r1.offset % XRLAB_H5_DIRECT_ALIGN, ==, 0);
  g_assert_cmpuint (r2.offset % XRLAB_H5_DIRECT_ALIGN, ==, 0);
  g_assert_cmpuint (r1.size, ==, n * sizeof (double));
  g_assert_cmpuint (r2.size, ==, rows * cols * sizeof (double));
  {
    PieceJob j1 = { w, &r1, aligned, n, 7, 0 }, j2 = { w, &r2, shifted, rows * cols, 5, 0 };

    xrlab_parallel_run (xrlab_parallel_default (), 7, write_piece, &j1);
    xrlab_parallel_run (xrlab_parallel_default (), 5, write_piece, &j2);
    g_assert_cmpint (j1.failed + j2.failed, ==, 0);
  }
  g_assert_true (xrlab_h5_writer_write_reserved (w, &r3, 0, small, sizeof small, &error));
  g_assert_true (xrlab_h5_writer_commit (w, &error));
  g_assert_no_error (error);

  g_assert_true (xrlab_h5_read (path, "/big/one", &a, &error));
  g_assert_cmpuint (a.dims[0], ==, n);
  g_assert_cmpstr (a.units, ==, "counts");
  g_assert_cmpmem (a.data, n * sizeof (double), aligned, n * sizeof (double));
  xrlab_h5_array_clear (&a);
  g_assert_true (xrlab_h5_read (path, "/big/two", &a, &error));
  g_assert_cmpint (a.rank, ==, 2);
  g_assert_cmpuint (a.dims[0], ==, rows);
  g_assert_cmpuint (a.dims[1], ==, cols);
  g_assert_cmpmem (a.data, rows * cols * sizeof (double), shifted, rows * cols * sizeof (double));
  xrlab_h5_array_clear (&a);
  g_assert_true (xrlab_h5_read (path, "/small", &a, &error));
  g_assert_cmpmem (a.data, sizeof small, small, sizeof small);
  xrlab_h5_array_clear (&a);
  g_assert_true (xrlab_h5_read (path, "/after", &a, &error));
  g_assert_cmpmem (a.data, sizeof plain, plain, sizeof plain);
  xrlab_h5_array_clear (&a);
  g_assert_no_error (error);
  g_aligned_free (aligned);
  g_unlink (path);
}

/* ---- older NeXus conventions, written with the plain HDF5 API ------------- */

static void
set_fixed_string (hid_t obj, const char *name, const char *value)
{
  hid_t type = H5Tcopy (H5T_C_S1), space = H5Screate (H5S_SCALAR), attr;

  H5Tset_size (type, strlen (value));
  H5Tset_strpad (type, H5T_STR_SPACEPAD);
  attr = H5Acreate2 (obj, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
  H5Awrite (attr, type, value);
  H5Aclose (attr);
  H5Sclose (space);
  H5Tclose (type);
}

static void
make_dataset (hid_t loc, const char *name, hid_t type, int rank,
              const hsize_t *dims, const void *data, hid_t mem_type)
{
  hid_t space = H5Screate_simple (rank, dims, NULL);
  hid_t did = H5Dcreate2 (loc, name, type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);

  if (data != NULL)
    H5Dwrite (did, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data);
  H5Dclose (did);
  H5Sclose (space);
}

/* No @default anywhere; NXdata without @signal, whose dataset has signal=1
 * and axes="t:e" (NeXus before 2014), fixed-length strings padded with
 * spaces; plus datasets that are not arrays of numbers. */
static char *
make_legacy_file (void)
{
  char *path = tmp_path ("legacy.nxs");
  hid_t fid = H5Fcreate (path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  hid_t entry = H5Gcreate2 (fid, "/scan", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  hid_t data = H5Gcreate2 (entry, "plot", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  hid_t bad = H5Gcreate2 (fid, "/bad", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  hsize_t d2[2] = { 2, 3 }, dt[1] = { 2 }, de[1] = { 3 }, d3[3] = { 2, 2, 2 }, d0[1] = { 0 };
  const double y[6] = { 1, 2, 3, 4, 5, 6 }, t[2] = { 0.1, 0.2 }, e[3] = { 7, 8, 9 };
  const double cube[8] = { 0 };
  const int one = 1;
  hid_t did, space, attr, str;

  set_fixed_string (entry, "NX_class", "NXentry");
  set_fixed_string (data, "NX_class", "NXdata");
  make_dataset (data, "y", H5T_IEEE_F64BE, 2, d2, y, H5T_NATIVE_DOUBLE);
  make_dataset (data, "t", H5T_IEEE_F64LE, 1, dt, t, H5T_NATIVE_DOUBLE);
  make_dataset (data, "e", H5T_IEEE_F64LE, 1, de, e, H5T_NATIVE_DOUBLE);
  did = H5Dopen2 (data, "y", H5P_DEFAULT);
  space = H5Screate (H5S_SCALAR);
  attr = H5Acreate2 (did, "signal", H5T_STD_I32LE, space, H5P_DEFAULT, H5P_DEFAULT);
  H5Awrite (attr, H5T_NATIVE_INT, &one);
  H5Aclose (attr);
  set_fixed_string (did, "axes", "t:e");
  H5Dclose (did);

  make_dataset (bad, "cube", H5T_IEEE_F64LE, 3, d3, cube, H5T_NATIVE_DOUBLE);
  make_dataset (bad, "empty", H5T_IEEE_F64LE, 1, d0, NULL, H5T_NATIVE_DOUBLE);
  did = H5Dcreate2 (bad, "scalar", H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  H5Dwrite (did, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, &y[0]);
  H5Dclose (did);
  str = H5Tcopy (H5T_C_S1);
  H5Tset_size (str, 5);
  did = H5Dcreate2 (bad, "text", str, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  H5Dwrite (did, str, H5S_ALL, H5S_ALL, H5P_DEFAULT, "hello");
  H5Dclose (did);
  H5Tclose (str);
  H5Sclose (space);

  H5Gclose (bad);
  H5Gclose (data);
  H5Gclose (entry);
  H5Fclose (fid);
  return path;
}

static void
test_legacy_nexus (void)
{
  g_autofree char *path = make_legacy_file ();
  g_autoptr(GError) error = NULL;
  XrlabNexusData d = { 0 };

  g_assert_true (xrlab_nexus_read (path, &d, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (d.group, ==, "/scan/plot");
  g_assert_cmpstr (d.signal_path, ==, "/scan/plot/y");
  /* Big-endian on disk, native in memory. */
  g_assert_cmpfloat (d.signal.data[5], ==, 6.0);
  g_assert_cmpstr (d.axis_path[0], ==, "/scan/plot/t");
  g_assert_cmpstr (d.axis_path[1], ==, "/scan/plot/e");
  g_assert_cmpfloat (d.axis[1].data[2], ==, 9.0);
  xrlab_nexus_data_clear (&d);
  g_unlink (path);
}

/* ---- errors: the file, the path and what was expected ------------------- */

static void
test_read_errors (void)
{
  g_autofree char *legacy = make_legacy_file ();
  g_autofree char *csv = tmp_path ("data.csv");
  g_autofree char *missing = tmp_path ("missing.h5");
  g_autoptr(GError) error = NULL;
  XrlabH5Array a = { 0 };
  XrlabNexusData d = { 0 };

  g_assert_true (g_file_set_contents (csv, "1,2,3\n", -1, NULL));

  g_assert_false (xrlab_h5_read (missing, "/y", &a, &error));
  g_assert_error (error, XRLAB_H5_ERROR, XRLAB_H5_ERROR_OPEN);
  assert_message (error, missing, NULL);
  g_clear_error (&error);

  g_assert_false (xrlab_h5_read (csv, "/y", &a, &error));
  g_assert_error (error, XRLAB_H5_ERROR, XRLAB_H5_ERROR_OPEN);
  assert_message (error, csv, "not an HDF5 file", NULL);
  g_clear_error (&error);
  g_assert_false (xrlab_h5_is_hdf5 (csv));

  /* The signature after a user block (512, 1024, ... bytes): HDF5; cut
   * short, or at another offset: not. */
  {
    static const char sig[8] = { '\x89', 'H', 'D', 'F', '\r', '\n', '\x1a', '\n' };
    g_autofree char *ub = g_strconcat (csv, ".ub", NULL);
    char buf[2048 + 8] = { 0 };

    memcpy (buf + 1024, sig, sizeof sig);
    g_assert_true (g_file_set_contents (ub, buf, 1024 + 8, NULL));
    g_assert_true (xrlab_h5_is_hdf5 (ub));
    g_assert_true (g_file_set_contents (ub, buf, 1024 + 7, NULL));
    g_assert_false (xrlab_h5_is_hdf5 (ub));
    memset (buf, 0, sizeof buf);
    memcpy (buf + 700, sig, sizeof sig);
    g_assert_true (g_file_set_contents (ub, buf, sizeof buf, NULL));
    g_assert_false (xrlab_h5_is_hdf5 (ub));
    g_unlink (ub);
  }

  /* A path that is not there: the message lists what is. */
  g_assert_false (xrlab_h5_read (fixture (), "/entry/data/count", &a, &error));
  g_assert_error (error, XRLAB_H5_ERROR, XRLAB_H5_ERROR_NOT_FOUND);
  assert_message (error, fixture (), "“/entry/data/count”", "/entry/data/counts",
                  "/entry/data/energy", NULL);
  g_clear_error (&error);
  g_assert_false (xrlab_h5_read (fixture (), "/nope/deeper/y", &a, &error));
  assert_message (error, "/nope/deeper/y", NULL);
  g_clear_error (&error);

  g_assert_false (xrlab_h5_read (fixture (), "/entry/data", &a, &error));
  g_assert_error (error, XRLAB_H5_ERROR, XRLAB_H5_ERROR_NOT_FOUND);
  assert_message (error, ":/entry/data is a group, expected a dataset", NULL);
  g_clear_error (&error);

  g_assert_false (xrlab_h5_read (fixture (), "entry/data/counts", &a, &error));
  assert_message (error, "starts with “/”", NULL);
  g_clear_error (&error);

  g_assert_false (xrlab_h5_read (fixture (), "/aaa_calibration/label", &a, &error));
  g_assert_error (error, XRLAB_H5_ERROR, XRLAB_H5_ERROR_TYPE);
  assert_message (error, ":/aaa_calibration/label holds text, expected numbers", NULL);
  g_clear_error (&error);

  g_assert_false (xrlab_h5_read (legacy, "/bad/cube", &a, &error));
  g_assert_error (error, XRLAB_H5_ERROR, XRLAB_H5_ERROR_SHAPE);
  assert_message (error, legacy, ":/bad/cube has 3 dimensions (2 × 2 × 2), expected 1 or 2", NULL);
  g_clear_error (&error);
  g_assert_false (xrlab_h5_read (legacy, "/bad/scalar", &a, &error));
  assert_message (error, ":/bad/scalar is a single value, expected a 1D or 2D array", NULL);
  g_clear_error (&error);
  g_assert_false (xrlab_h5_read (legacy, "/bad/empty", &a, &error));
  assert_message (error, ":/bad/empty is empty", NULL);
  g_clear_error (&error);
  g_assert_false (xrlab_h5_read (legacy, "/bad/text", &a, &error));
  g_assert_error (error, XRLAB_H5_ERROR, XRLAB_H5_ERROR_TYPE);
  g_clear_error (&error);
  g_assert_null (a.data);

  g_assert_false (xrlab_h5_read_spec ("no-such-file.h5:/y", &a, &error));
  assert_message (error, "no-such-file.h5:/y", "FILE:/PATH", NULL);
  g_clear_error (&error);

  /* A file without NXdata. */
  g_assert_false (xrlab_nexus_read (csv, &d, &error));
  g_assert_error (error, XRLAB_H5_ERROR, XRLAB_H5_ERROR_OPEN);
  g_clear_error (&error);
  {
    g_autofree char *plain = tmp_path ("plain.h5");
    XrlabH5Writer *w = xrlab_h5_writer_new (plain, &error);
    const gsize dims[2] = { 2, 1 };
    const double v[2] = { 1, 2 };

    g_assert_true (xrlab_h5_writer_add_dataset (w, "/x/y", v, 1, dims, NULL, &error));
    g_assert_true (xrlab_h5_writer_add_group (w, "/nx", "NXdata", &error));
    g_assert_true (xrlab_h5_writer_commit (w, &error));
    /* An NXdata without a signal. */
    g_assert_false (xrlab_nexus_read (plain, &d, &error));
    g_assert_error (error, XRLAB_H5_ERROR, XRLAB_H5_ERROR_NEXUS);
    assert_message (error, plain, ":/nx", "@signal", NULL);
    g_clear_error (&error);

    w = xrlab_h5_writer_new (plain, &error);
    g_assert_true (xrlab_h5_writer_add_dataset (w, "/x/y", v, 1, dims, NULL, &error));
    g_assert_true (xrlab_h5_writer_commit (w, &error));
    g_assert_false (xrlab_nexus_read (plain, &d, &error));
    g_assert_error (error, XRLAB_H5_ERROR, XRLAB_H5_ERROR_NEXUS);
    assert_message (error, plain, "no NeXus NXdata group", NULL);
    g_clear_error (&error);
    g_assert_null (d.group);
    g_unlink (plain);
  }
  g_unlink (legacy);
  g_unlink (csv);
}

/* @axes that do not fit the signal. */
static void
test_nexus_axes_errors (void)
{
  g_autofree char *path = tmp_path ("axes.nxs");
  g_autoptr(GError) error = NULL;
  const gsize dims[2] = { 2, 3 }, d2[2] = { 2, 1 };
  const double y[6] = { 0 }, t[2] = { 0 };
  const char *one_axis[] = { "t" };
  const char *two_axes[] = { "t", "t" };
  XrlabNexusData d = { 0 };

  for (int round = 0; round < 3; round++)
    {
      XrlabH5Writer *w = xrlab_h5_writer_new (path, &error);

      g_assert_true (xrlab_h5_writer_add_group (w, "/e/d", "NXdata", &error));
      g_assert_true (xrlab_h5_writer_set_string (w, "/e/d", "signal", "y", &error));
      g_assert_true (xrlab_h5_writer_add_dataset (w, "/e/d/y", y, 2, dims, NULL, &error));
      g_assert_true (xrlab_h5_writer_add_dataset (w, "/e/d/t", t, 1, d2, NULL, &error));
      if (round == 0)
        g_assert_true (xrlab_h5_writer_set_strings (w, "/e/d", "axes", one_axis, 1, &error));
      else if (round == 1)
        g_assert_true (xrlab_h5_writer_set_strings (w, "/e/d", "axes", two_axes, 2, &error));
      else
        {
          const char *dot_t[] = { ".", "t" };
          g_assert_true (xrlab_h5_writer_set_strings (w, "/e/d", "axes", dot_t, 2, &error));
        }
      g_assert_true (xrlab_h5_writer_commit (w, &error));
      g_assert_no_error (error);

      g_assert_false (xrlab_nexus_read (path, &d, &error));
      g_assert_error (error, XRLAB_H5_ERROR, XRLAB_H5_ERROR_NEXUS);
      if (round == 0)
        assert_message (error, path, ":/e/d", "names 1 axes", "2 dimensions", NULL);
      else if (round == 1)
        /* t is 2 long, fine for dimension 1; dimension 2 needs 3. */
        assert_message (error, ":/e/d/t", "expected 3 (dimension 2", NULL);
      else
        assert_message (error, ":/e/d/t", "expected 3 (dimension 2", NULL);
      g_clear_error (&error);
    }
  g_unlink (path);
}

static void
test_split_spec (void)
{
  g_autofree char *file = NULL;
  g_autofree char *path = NULL;
  g_autofree char *spec = g_strconcat (fixture (), ":/entry/data/counts", NULL);
  g_autofree char *colon_name = tmp_path ("a:b.h5");

  g_assert_true (xrlab_h5_split_spec (spec, &file, &path));
  g_assert_cmpstr (file, ==, fixture ());
  g_assert_cmpstr (path, ==, "/entry/data/counts");
  g_clear_pointer (&file, g_free);
  g_clear_pointer (&path, g_free);

  /* A colon in the file name. */
  g_assert_true (g_file_set_contents (colon_name, "", 0, NULL));
  {
    g_autofree char *s = g_strconcat (colon_name, ":/x", NULL);

    g_assert_true (xrlab_h5_split_spec (s, &file, &path));
    g_assert_cmpstr (file, ==, colon_name);
    g_assert_cmpstr (path, ==, "/x");
  }
  g_assert_false (xrlab_h5_split_spec (fixture (), &file, &path));
  g_assert_false (xrlab_h5_split_spec ("nothing.h5:/x", &file, &path));
  g_unlink (colon_name);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  xrlab_init ();
  tmp_dir = g_dir_make_tmp ("xrlab-test-h5-XXXXXX", NULL);
  g_test_add_func ("/h5/h5py-dataset", test_h5py_dataset);
  g_test_add_func ("/h5/h5py-nexus", test_h5py_nexus);
  g_test_add_func ("/h5/write-read", test_write_read);
  g_test_add_func ("/h5/write-atomic", test_write_atomic);
  g_test_add_func ("/h5/write-reserved", test_write_reserved);
  g_test_add_func ("/h5/legacy-nexus", test_legacy_nexus);
  g_test_add_func ("/h5/read-errors", test_read_errors);
  g_test_add_func ("/h5/nexus-axes-errors", test_nexus_axes_errors);
  g_test_add_func ("/h5/split-spec", test_split_spec);
  status = g_test_run ();
  g_rmdir (tmp_dir);
  return status;
}
