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
  /* strtod read hexadecimal; numbers in files are decimal. */
  g_assert_false (xrlab_parse_double ("0x10", FALSE, &v));
  g_assert_false (xrlab_parse_double ("0x1p3", TRUE, &v));
  g_assert_true (xrlab_parse_double ("+5", FALSE, &v));
  g_assert_cmpfloat (v, ==, 5.0);
  g_assert_false (xrlab_parse_double ("+-5", FALSE, &v));
  g_assert_true (xrlab_parse_double ("-Infinity", TRUE, &v));
  g_assert_true (isinf (v) && v < 0);
  g_assert_false (xrlab_parse_double ("-1e999", TRUE, &v));
  /* Underflow is not an error: 0 or the subnormal. */
  g_assert_true (xrlab_parse_double ("1e-400", FALSE, &v));
  g_assert_cmpfloat (v, ==, 0.0);
  g_assert_true (xrlab_parse_double ("4.9e-324", FALSE, &v));
  g_assert_cmpfloat (v, ==, 5e-324);
}

static void
test_append_numbers (void)
{
  g_autoptr(GString) s = g_string_new ("x=");
  const double row[] = { 0.1, -2.5e-7, 1e15, NAN };

  xrlab_string_append_double (s, 1.0 / 3.0);
  g_assert_cmpstr (s->str, ==, "x=0.3333333333333333");
  g_string_assign (s, "");
  xrlab_csv_append_row (s, row, G_N_ELEMENTS (row));
  xrlab_csv_append_row (s, row, 1);
  g_assert_cmpstr (s->str, ==, "0.1,-2.5e-07,1e+15,nan\n0.1\n");
  g_string_assign (s, "");
  xrlab_json_append_number (s, 12.5);
  g_string_append_c (s, ',');
  xrlab_json_append_number (s, INFINITY);
  g_assert_cmpstr (s->str, ==, "12.5,null");
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

/* Every error keeps its message, line and column. */
static void
test_read_errors (void)
{
  static const struct {
    const char *contents;
    gboolean matrix, allow_nonfinite;
    const char *message;   /* after "PATH" */
  } cases[] = {
    { "1\n2\n  x3 \n", FALSE, FALSE, ":3: “x3” is not a finite number" },
    { "1\n2,3\n", FALSE, FALSE, ":2: “2,3” is not a finite number" },
    { "1\n,\n", FALSE, FALSE, ":2: “” is not a finite number" },
    { "1\r\nnan\r\n", FALSE, FALSE, ":2: “nan” is not a finite number" },
    { "1\n0x10\n", FALSE, FALSE, ":2: “0x10” is not a finite number" },
    { "1\n1e999\n", FALSE, FALSE, ":2: “1e999” is not a finite number" },
    { "# c\n\n1,2\n3, x ,4\n", TRUE, FALSE, ":4: column 2: “x” is not a finite number" },
    { "1,2\n3,,4\n", TRUE, FALSE, ":2: column 2: “” is not a finite number" },
    { "1,nan\n", TRUE, FALSE, ":1: column 2: “nan” is not a finite number" },
    { "1,2\n3,4 5\n", TRUE, TRUE, ":2: column 2: “4 5” is not a number" },
    { "1,2\n3,1e999\n", TRUE, TRUE, ":2: column 2: “1e999” is not a number" },
    { " ,1\n", TRUE, FALSE, ":1: column 1: “” is not a finite number" },
    { "1 #c\n", TRUE, FALSE, ":1: column 1: “1 #c” is not a finite number" },
    { "1,2\n3\n", TRUE, FALSE, ":2: 1 column, but the first row has 2" },
    { "1\n\n3,4,5\n", TRUE, FALSE, ":3: 3 columns, but the first row has 1" },
    { "# only\n  \n", TRUE, FALSE, ": no numbers in the file" },
    { "", FALSE, FALSE, ": no numbers in the file" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = write_tmp (cases[i].contents);
      g_autofree char *expected = g_strconcat (path, cases[i].message, NULL);
      g_autoptr(GError) error = NULL;
      gsize n, r, c;
      double *v;

      if (cases[i].matrix)
        v = xrlab_read_csv_matrix (path, cases[i].allow_nonfinite, &r, &c, &error);
      else
        v = xrlab_read_column_file (path, &n, &error);
      g_assert_null (v);
      g_assert_nonnull (error);
      g_assert_cmpstr (error->message, ==, expected);
      g_unlink (path);
    }
}

/* What the readers tolerate: comments, blanks, CRLF, a trailing comma (or a
 * trailing comment field), '+', nan/inf when asked for. */
static void
test_read_tolerated (void)
{
  g_autofree char *mat = write_tmp ("# header\n 1 , +2,3,\r\n\n4,5e0,6, # note\n\t7,8,9");
  g_autofree char *nonfinite = write_tmp ("1,nan\n-inf,Infinity\n");
  g_autofree char *col = write_tmp ("  1.5  \r\n# x\n-2,\n 3e2 ,\n");
  g_autoptr(GError) error = NULL;
  gsize r = 0, c = 0, n = 0;
  double *v;

  v = xrlab_read_csv_matrix (mat, FALSE, &r, &c, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (r, ==, 3);
  g_assert_cmpuint (c, ==, 3);
  for (int i = 0; i < 9; i++)
    g_assert_cmpfloat (v[i], ==, i + 1);
  g_free (v);

  v = xrlab_read_csv_matrix (nonfinite, TRUE, &r, &c, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (r * c, ==, 4);
  g_assert_true (isnan (v[1]) && isinf (v[2]) && v[2] < 0 && isinf (v[3]));
  g_free (v);

  v = xrlab_read_column_file (col, &n, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpfloat (v[0], ==, 1.5);
  g_assert_cmpfloat (v[1], ==, -2.0);
  g_assert_cmpfloat (v[2], ==, 300.0);
  g_free (v);

  g_unlink (mat); g_unlink (nonfinite); g_unlink (col);
}

/* A matrix larger than one write block: written and read back exactly, and
 * the text is the formatter's, row by row. */
static void
test_matrix_roundtrip (void)
{
  g_autofree char *dir = g_dir_make_tmp ("xrlab-test-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "m.csv", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GString) expected = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  const gsize rows = 3000, cols = 37;
  double *m = g_new (double, rows * cols);
  gsize r = 0, c = 0;
  double *back;

  for (gsize i = 0; i < rows * cols; i++)
    m[i] = g_test_rand_double_range (-1.0, 1.0) * pow (10.0, g_test_rand_int_range (-30, 30));
  m[5] = -0.0;
  m[6] = 5e-324;
  for (gsize i = 0; i < rows; i++)
    xrlab_csv_append_row (expected, m + i * cols, cols);
  g_assert_cmpuint (expected->len, >, 2 << 20);

  g_assert_true (xrlab_write_csv_matrix (path, m, rows, cols, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_true (strcmp (contents, expected->str) == 0);

  back = xrlab_read_csv_matrix (path, FALSE, &r, &c, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (r, ==, rows);
  g_assert_cmpuint (c, ==, cols);
  g_assert_true (memcmp (back, m, rows * cols * sizeof *m) == 0);

  g_free (back);
  g_free (m);
  g_unlink (path);
  g_rmdir (dir);
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
  g_test_add_func ("/util/read-errors", test_read_errors);
  g_test_add_func ("/util/read-tolerated", test_read_tolerated);
  g_test_add_func ("/util/matrix-roundtrip", test_matrix_roundtrip);
  g_test_add_func ("/util/append-numbers", test_append_numbers);
  return g_test_run ();
}
