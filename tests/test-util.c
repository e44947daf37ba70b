/* test-util.c -- number formatting, parsing, atomic files, numeric files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "xrlab-init.h"
#include "xrlab-util.h"

static void
test_format_roundtrip (void)
{
  const double values[] = { 0.0, -0.0, 0.1, 1.0 / 3.0, 2.98814e-5, 1e-300,
                            -1.7976931348623157e308, 4.9e-324, 12.398419843320026,
                            123456789.123456789, 1e22, 5e-324 };
  char buf[XRLAB_DTOA_BUFSIZE];

  for (gsize i = 0; i < G_N_ELEMENTS (values); i++)
    {
      double back;
      xrlab_format_double (values[i], buf);
      g_assert_true (xrlab_parse_double (buf, FALSE, &back));
      g_assert_true (memcmp (&back, &values[i], sizeof back) == 0 || back == values[i]);
    }
  /* Random doubles over many magnitudes. */
  for (int i = 0; i < 20000; i++)
    {
      double x = g_test_rand_double_range (-1.0, 1.0) * pow (10.0, g_test_rand_int_range (-300, 300));
      double back;
      xrlab_format_double (x, buf);
      g_assert_true (xrlab_parse_double (buf, FALSE, &back));
      g_assert_cmpfloat (back, ==, x);
    }
  g_assert_cmpstr (xrlab_format_double (0.1, buf), ==, "0.1");
  g_assert_cmpstr (xrlab_format_double (NAN, buf), ==, "nan");
  g_assert_cmpstr (xrlab_format_double (-INFINITY, buf), ==, "-inf");
}

static void
test_parse_double (void)
{
  double v = 0;

  g_assert_true (xrlab_parse_double (" 8.048 ", FALSE, &v));
  g_assert_cmpfloat (v, ==, 8.048);
  g_assert_false (xrlab_parse_double ("", FALSE, &v));
  g_assert_false (xrlab_parse_double ("   ", FALSE, &v));
  g_assert_false (xrlab_parse_double ("8.0x", FALSE, &v));
  g_assert_false (xrlab_parse_double ("nan", FALSE, &v));
  g_assert_false (xrlab_parse_double ("inf", FALSE, &v));
  g_assert_false (xrlab_parse_double ("1e999", TRUE, &v));
  g_assert_true (xrlab_parse_double ("nan", TRUE, &v));
  g_assert_true (isnan (v));
}

static void
test_atomic_write (void)
{
  g_autofree char *dir = g_dir_make_tmp ("xrlab-test-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "out.txt", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  XrlabAtomicFile *af;
  GDir *d;

  g_assert_true (xrlab_write_file_atomic (path, "first\n", -1, &error));
  g_assert_no_error (error);

  /* An aborted write leaves the old contents and no temporary file. */
  af = xrlab_atomic_file_open (path, &error);
  g_assert_no_error (error);
  fputs ("partial", xrlab_atomic_file_stream (af));
  xrlab_atomic_file_abort (af);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "first\n");

  d = g_dir_open (dir, 0, NULL);
  g_assert_cmpstr (g_dir_read_name (d), ==, "out.txt");
  g_assert_null (g_dir_read_name (d));
  g_dir_close (d);

  /* A folder that does not exist: a clear error, nothing written. */
  {
    g_autofree char *bad = g_build_filename (dir, "no-such-dir", "x.csv", NULL);
    g_assert_false (xrlab_write_file_atomic (bad, "x", -1, &error));
    g_assert_error (error, XRLAB_IO_ERROR, XRLAB_IO_ERROR_FAILED);
    g_assert_nonnull (strstr (error->message, "no-such-dir"));
    g_clear_error (&error);
  }

  g_unlink (path);
  g_rmdir (dir);
}

static char *
write_tmp (const char *contents)
{
  g_autoptr(GError) error = NULL;
  char *path = NULL;
  int fd = g_file_open_tmp ("xrlab-test-XXXXXX.csv", &path, &error);

  g_assert_no_error (error);
  close (fd);
  g_assert_true (g_file_set_contents (path, contents, -1, NULL));
  return path;
}

static void
test_read_files (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *col = write_tmp ("# energies\n1.5\n\n2.5,\n3\n");
  g_autofree char *mat = write_tmp ("1,2,3\r\n4,5,6\n");
  g_autofree char *ragged = write_tmp ("1,2,3\n4,5\n");
  g_autofree char *junk = write_tmp ("1,2,3\n4,x5,6\n");
  g_autofree char *empty = write_tmp ("\n# nothing\n");
  gsize n, r, c;
  double *v;

  v = xrlab_read_column_file (col, &n, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpfloat (v[1], ==, 2.5);
  g_free (v);

  v = xrlab_read_csv_matrix (mat, FALSE, &r, &c, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (r, ==, 2);
  g_assert_cmpuint (c, ==, 3);
  g_assert_cmpfloat (v[5], ==, 6.0);
  g_free (v);

  g_assert_null (xrlab_read_csv_matrix (ragged, FALSE, &r, &c, &error));
  g_assert_error (error, XRLAB_IO_ERROR, XRLAB_IO_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, ":2:"));
  g_clear_error (&error);

  g_assert_null (xrlab_read_csv_matrix (junk, FALSE, &r, &c, &error));
  g_assert_error (error, XRLAB_IO_ERROR, XRLAB_IO_ERROR_PARSE);
  g_assert_nonnull (strstr (error->message, ":2: column 2"));
  g_clear_error (&error);

  g_assert_null (xrlab_read_column_file (empty, &n, &error));
  g_assert_error (error, XRLAB_IO_ERROR, XRLAB_IO_ERROR_SHAPE);
  g_clear_error (&error);

  g_unlink (col); g_unlink (mat); g_unlink (ragged); g_unlink (junk); g_unlink (empty);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  xrlab_init ();
  g_test_add_func ("/util/format-roundtrip", test_format_roundtrip);
  g_test_add_func ("/util/parse-double", test_parse_double);
  g_test_add_func ("/util/atomic-write", test_atomic_write);
  g_test_add_func ("/util/read-files", test_read_files);
  return g_test_run ();
}
