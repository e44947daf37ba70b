/* test-util.c -- number formatting, parsing, atomic files, numeric files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/sysmacros.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "xrlab-init.h"
#include "xrlab-util.h"
#include "test-common.h"

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

/* Matrices larger than one write block (formatted in bands on the pool),
 * one as wide as a megabyte of text, and a small one: written and read
 * back exactly, and the text is the formatter's, row by row. */
static void
test_matrix_roundtrip (void)
{
  static const gsize shapes[][2] = { { 3000, 37 }, { 2, 70000 }, { 1, 90000 }, { 7, 3 } };
  g_autofree char *dir = g_dir_make_tmp ("xrlab-test-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "m.csv", NULL);

  for (guint k = 0; k < G_N_ELEMENTS (shapes); k++)
    {
      g_autofree char *contents = NULL;
      g_autoptr(GString) expected = g_string_new (NULL);
      g_autoptr(GError) error = NULL;
      const gsize rows = shapes[k][0], cols = shapes[k][1];
      double *m = g_new (double, rows * cols);
      gsize r = 0, c = 0;
      double *back;

      for (gsize i = 0; i < rows * cols; i++)
        m[i] = g_test_rand_double_range (-1.0, 1.0) * pow (10.0, g_test_rand_int_range (-30, 30));
      m[5] = -0.0;
      m[6] = 5e-324;
      for (gsize i = 0; i < rows; i++)
        xrlab_csv_append_row (expected, m + i * cols, cols);
      if (rows * cols > 1000)
        g_assert_cmpuint (expected->len, >, 1 << 20);

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
    }
  g_unlink (path);
  g_rmdir (dir);
}

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

/* The names in @dir, sorted, joined with spaces. */
static char *
dir_names (const char *dir)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  GDir *d = g_dir_open (dir, 0, NULL);
  const char *name;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_dir_close (d);
  g_ptr_array_sort (names, compare_names);
  g_ptr_array_add (names, NULL);
  return g_strjoinv (" ", (char **) names->pdata);
}

/* -o onto a symlink: the file it points to is replaced, beside it, and the
 * link stays a link (also a chain of relative links, and a dangling one). */
static void
test_atomic_symlink_written_through (void)
{
  g_autofree char *dir = g_dir_make_tmp ("xrlab-test-XXXXXX", NULL);
  g_autofree char *a = g_build_filename (dir, "a", NULL);
  g_autofree char *b = g_build_filename (dir, "b", NULL);
  g_autofree char *real = g_build_filename (a, "real.csv", NULL);
  g_autofree char *link1 = g_build_filename (b, "link1.csv", NULL);
  g_autofree char *link2 = g_build_filename (b, "link2.csv", NULL);
  g_autofree char *dangling = g_build_filename (b, "dangling.csv", NULL);
  g_autofree char *created = g_build_filename (a, "new.csv", NULL);
  g_autofree char *contents = NULL;
  g_autofree char *names = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir (a, 0755), ==, 0);
  g_assert_cmpint (g_mkdir (b, 0755), ==, 0);
  g_assert_true (g_file_set_contents (real, "old\n", -1, NULL));
  g_assert_cmpint (symlink ("../a/real.csv", link1), ==, 0);
  g_assert_cmpint (symlink ("link1.csv", link2), ==, 0);
  g_assert_cmpint (symlink ("../a/new.csv", dangling), ==, 0);

  g_assert_true (xrlab_write_file_atomic (link2, "new\n", -1, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (link1, G_FILE_TEST_IS_SYMLINK));
  g_assert_true (g_file_test (link2, G_FILE_TEST_IS_SYMLINK));
  g_assert_true (g_file_get_contents (real, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "new\n");
  g_clear_pointer (&contents, g_free);

  g_assert_true (xrlab_write_csv_matrix (dangling, (const double[]) { 1, 2 }, 1, 2, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (dangling, G_FILE_TEST_IS_SYMLINK));
  g_assert_true (g_file_get_contents (created, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "1,2\n");

  /* nothing else in either folder: no temporary file left */
  names = dir_names (a);
  g_assert_cmpstr (names, ==, "new.csv real.csv");
  g_free (names);
  names = dir_names (b);
  g_assert_cmpstr (names, ==, "dangling.csv link1.csv link2.csv");

  /* a loop of links: an error naming the path */
  {
    g_autofree char *loop = g_build_filename (b, "loop", NULL);
    g_assert_cmpint (symlink ("loop", loop), ==, 0);
    g_assert_false (xrlab_write_file_atomic (loop, "x", -1, &error));
    g_assert_error (error, XRLAB_IO_ERROR, XRLAB_IO_ERROR_FAILED);
    g_assert_nonnull (strstr (error->message, loop));
    g_assert_nonnull (strstr (error->message, g_strerror (ELOOP)));
    g_clear_error (&error);
  }
  xrlab_test_rm_rf (dir);
}

/* Writes @path with each writer; each must fail with a message holding
 * @what and @path, and leave @dir as it was. */
static void
assert_not_replaced (const char *dir, const char *path, const char *what)
{
  g_autofree char *before = dir_names (dir);
  g_autoptr(GError) error = NULL;
  XrlabAtomicFile *af;
  int fd;
  char *tmp = NULL;

  g_assert_false (xrlab_write_file_atomic (path, "x\n", -1, &error));
  g_assert_error (error, XRLAB_IO_ERROR, XRLAB_IO_ERROR_FAILED);
  if (strstr (error->message, what) == NULL || strstr (error->message, path) == NULL)
    g_error ("“%s” or “%s” not in “%s”", what, path, error->message);
  g_clear_error (&error);
  g_assert_false (xrlab_write_csv_matrix (path, (const double[]) { 1 }, 1, 1, &error));
  g_assert_nonnull (strstr (error->message, what));
  g_clear_error (&error);
  af = xrlab_atomic_file_open (path, &error);
  g_assert_null (af);
  g_assert_nonnull (strstr (error->message, what));
  g_clear_error (&error);
  fd = xrlab_atomic_temp_open (path, &tmp, &error);
  g_assert_cmpint (fd, ==, -1);
  g_assert_null (tmp);
  g_clear_error (&error);
  {
    g_autofree char *after = dir_names (dir);
    g_assert_cmpstr (after, ==, before);
  }
}

/* -o onto a device node, a named pipe, a socket or a folder (or a link to
 * one): refused, naming the path and what it is; nothing replaced. */
static void
test_atomic_device_node_refused (void)
{
  g_autofree char *dir = g_dir_make_tmp ("xrlab-test-XXXXXX", NULL);
  g_autofree char *to_null = g_build_filename (dir, "to-null", NULL);
  g_autofree char *fifo = g_build_filename (dir, "fifo", NULL);
  g_autofree char *sub = g_build_filename (dir, "sub", NULL);
  g_autofree char *node = g_build_filename (dir, "null-node", NULL);
  struct stat st;

  /* Never /dev/null itself: a regression would replace the machine's. A
   * link to it is enough: before the fix the link was replaced. */
  g_assert_cmpint (symlink ("/dev/null", to_null), ==, 0);
  assert_not_replaced (dir, to_null, "/dev/null, which is a character device");
  g_assert_true (g_file_test (to_null, G_FILE_TEST_IS_SYMLINK));
  g_assert_cmpint (stat ("/dev/null", &st), ==, 0);
  g_assert_true (S_ISCHR (st.st_mode));

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  assert_not_replaced (dir, fifo, "it is a named pipe");
  g_assert_cmpint (lstat (fifo, &st), ==, 0);
  g_assert_true (S_ISFIFO (st.st_mode));

  g_assert_cmpint (g_mkdir (sub, 0755), ==, 0);
  assert_not_replaced (dir, sub, "it is a folder");

  /* A device node of our own (as root): /dev/null's numbers. */
  if (mknod (node, S_IFCHR | 0666, makedev (1, 3)) == 0)
    {
      assert_not_replaced (dir, node, "it is a character device");
      g_assert_cmpint (lstat (node, &st), ==, 0);
      g_assert_true (S_ISCHR (st.st_mode));
    }
  else
    g_test_message ("mknod: %s; the device node itself is not tried", g_strerror (errno));
  xrlab_test_rm_rf (dir);
}

/* A replaced file keeps its permissions: a private file stays private. */
static void
test_atomic_keeps_mode (void)
{
  g_autofree char *dir = g_dir_make_tmp ("xrlab-test-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "private.csv", NULL);
  struct stat st;

  g_assert_true (g_file_set_contents (path, "old\n", -1, NULL));
  g_assert_cmpint (g_chmod (path, 0600), ==, 0);
  g_assert_true (xrlab_write_file_atomic (path, "new\n", -1, NULL));
  g_assert_cmpint (stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);
  xrlab_test_rm_rf (dir);
}

/* The name of a temporary file of @target's name, for PID @pid. */
static char *
temp_name (const char *dir, const char *target, long pid, const char *suffix)
{
  g_autofree char *name = g_strdup_printf (".%s.xrlab-%ld-%s", target, pid, suffix);
  return g_build_filename (dir, name, NULL);
}

/* A PID that no process has: a child that has exited and been reaped. */
static pid_t
dead_pid (void)
{
  pid_t pid = fork ();

  if (pid == 0)
    _exit (0);
  g_assert_cmpint (pid, >, 0);
  g_assert_cmpint (waitpid (pid, NULL, 0), ==, pid);
  return pid;
}

/* A writer killed mid-write leaves its temporary file; the next write of
 * the same target removes it -- and only the temporary files of that
 * target whose writer is gone. */
static void
test_atomic_stale_temp_removed (void)
{
  if (g_test_subprocess ())
    {
      XrlabAtomicFile *af = xrlab_atomic_file_open (g_getenv ("XRLAB_TEST_TARGET"), NULL);

      g_assert_nonnull (af);
      fputs ("partial\n", xrlab_atomic_file_stream (af));
      fflush (xrlab_atomic_file_stream (af));
      kill (getpid (), SIGKILL);
      return;
    }

  g_autofree char *dir = g_dir_make_tmp ("xrlab-test-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "out.csv", NULL);
  pid_t dead = dead_pid ();
  g_autofree char *stale = temp_name (dir, "out.csv", dead, "AbC123");
  g_autofree char *live = temp_name (dir, "out.csv", getpid (), "AbC123");
  g_autofree char *locked = temp_name (dir, "out.csv", dead, "LoCkEd");
  g_autofree char *other = temp_name (dir, "other.csv", dead, "AbC123");
  g_autofree char *longer = temp_name (dir, "out.csv", dead, "AbC1234");
  g_autofree char *prefix = temp_name (dir, "out", dead, "AbC123");
  g_autofree char *user = g_build_filename (dir, ".out.csv.AbC123", NULL);
  g_autofree char *names = NULL;
  int lock_fd;

  for (const char *const *p = (const char *const[]) { stale, live, locked, other, longer,
                                                      prefix, user, NULL };
       *p != NULL; p++)
    g_assert_true (g_file_set_contents (*p, "partial", -1, NULL));
  /* a writer elsewhere (another machine, another PID namespace) holds its
   * lock: kept although its PID is not alive here */
  lock_fd = open (locked, O_RDONLY | O_CLOEXEC);
  g_assert_cmpint (flock (lock_fd, LOCK_EX | LOCK_NB), ==, 0);

  g_assert_true (xrlab_write_file_atomic (path, "new\n", -1, NULL));
  g_assert_false (g_file_test (stale, G_FILE_TEST_EXISTS));
  for (const char *const *p = (const char *const[]) { live, locked, other, longer, prefix,
                                                      user, NULL };
       *p != NULL; p++)
    if (!g_file_test (*p, G_FILE_TEST_EXISTS))
      g_error ("%s was removed", *p);

  /* A real writer, killed: its file is found and removed. */
  names = dir_names (dir);
  g_setenv ("XRLAB_TEST_TARGET", path, TRUE);
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_failed ();
  g_unsetenv ("XRLAB_TEST_TARGET");
  {
    g_auto(GStrv) before = g_strsplit (names, " ", -1);
    g_autofree char *killed = NULL;
    g_autofree char *after = dir_names (dir);
    g_auto(GStrv) now = g_strsplit (after, " ", -1);

    /* the one new name is the killed writer's temporary file */
    g_assert_cmpuint (g_strv_length (now), ==, g_strv_length (before) + 1);
    for (guint i = 0; now[i] != NULL && killed == NULL; i++)
      if (!g_strv_contains ((const char *const *) before, now[i]))
        killed = g_build_filename (dir, now[i], NULL);
    g_assert_nonnull (strstr (killed, ".out.csv.xrlab-"));
    g_assert_true (xrlab_write_file_atomic (path, "newer\n", -1, NULL));
    g_assert_false (g_file_test (killed, G_FILE_TEST_EXISTS));
    g_free (after);
    after = dir_names (dir);
    g_assert_cmpstr (after, ==, names);
  }
  close (lock_fd);
  xrlab_test_rm_rf (dir);
}

/* A write that fails reports its own errno, not "Input/output error": the
 * file-size limit makes write(2) fail with EFBIG, as a full disk does with
 * ENOSPC (tests/test-cli-safety.c fills a real tmpfs). Nothing is left. */
static void
test_atomic_write_errno_reported (void)
{
  g_autofree char *dir = g_dir_make_tmp ("xrlab-test-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "big.csv", NULL);
  g_autofree char *names = NULL;
  g_autofree char *contents = NULL;
  g_autofree double *m = g_new0 (double, 100000);
  g_autofree char *text = g_strnfill (300000, 'x');
  g_autoptr(GError) error = NULL;
  struct rlimit old, small;
  void (*old_handler) (int);
  XrlabAtomicFile *af;

  g_assert_true (g_file_set_contents (path, "old\n", -1, NULL));
  g_assert_cmpint (getrlimit (RLIMIT_FSIZE, &old), ==, 0);
  small = old;
  small.rlim_cur = 65536;
  old_handler = signal (SIGXFSZ, SIG_IGN);
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &small), ==, 0);

  g_assert_false (xrlab_write_csv_matrix (path, m, 1000, 100, &error));
  g_assert_error (error, XRLAB_IO_ERROR, XRLAB_IO_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, g_strerror (EFBIG)));
  g_assert_nonnull (strstr (error->message, path));
  g_clear_error (&error);

  g_assert_false (xrlab_write_file_atomic (path, text, -1, &error));
  g_assert_nonnull (strstr (error->message, g_strerror (EFBIG)));
  g_clear_error (&error);

  /* through the stream, with errno changed by later calls before commit */
  af = xrlab_atomic_file_open (path, &error);
  g_assert_nonnull (af);
  for (int i = 0; i < 4000; i++)
    fprintf (xrlab_atomic_file_stream (af), "%s\n", "0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9");
  errno = 0;
  g_assert_false (xrlab_atomic_file_commit (af, &error));
  g_assert_nonnull (strstr (error->message, g_strerror (EFBIG)));
  g_clear_error (&error);

  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &old), ==, 0);
  signal (SIGXFSZ, old_handler);
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "old\n");
  names = dir_names (dir);
  g_assert_cmpstr (names, ==, "big.csv");
  xrlab_test_rm_rf (dir);
}

/* A NUL byte dropped every later row (exit 0): an error naming its line
 * (and its column in a matrix), for the file readers and the in-memory
 * parsers alike. */
static void
test_read_nul_byte_refused (void)
{
  static const char matrix[] = "1,2\n3,\0004\n5,6\n";
  static const char column[] = "1\n2\n\0003\n4\n";
  g_autofree char *mpath = write_tmp ("");
  g_autofree char *cpath = write_tmp ("");
  g_autofree char *expected = NULL;
  g_autoptr(GError) error = NULL;
  gsize r, c, n;

  g_assert_true (g_file_set_contents (mpath, matrix, sizeof matrix - 1, NULL));
  g_assert_true (g_file_set_contents (cpath, column, sizeof column - 1, NULL));
  g_assert_null (xrlab_read_csv_matrix (mpath, TRUE, &r, &c, &error));
  g_assert_error (error, XRLAB_IO_ERROR, XRLAB_IO_ERROR_PARSE);
  expected = g_strconcat (mpath, ":2: column 2: a NUL byte (this is not a text file)", NULL);
  g_assert_cmpstr (error->message, ==, expected);
  g_clear_error (&error);
  g_assert_null (xrlab_parse_csv_matrix_data (matrix, sizeof matrix - 1, "m", FALSE, &r, &c,
                                              &error));
  g_assert_cmpstr (error->message, ==, "m:2: column 2: a NUL byte (this is not a text file)");
  g_clear_error (&error);

  g_assert_null (xrlab_read_column_file (cpath, &n, &error));
  g_clear_pointer (&expected, g_free);
  expected = g_strconcat (cpath, ":3: a NUL byte (this is not a text file)", NULL);
  g_assert_cmpstr (error->message, ==, expected);
  g_clear_error (&error);
  g_assert_null (xrlab_parse_column_data (column, sizeof column - 1, "c", &n, &error));
  g_assert_cmpstr (error->message, ==, "c:3: a NUL byte (this is not a text file)");
  g_unlink (mpath);
  g_unlink (cpath);
}

/* A UTF-8 byte order mark made the first row fail: skipped (only at the
 * start). */
static void
test_read_bom_skipped (void)
{
  g_autofree char *mpath = write_tmp ("\xEF\xBB\xBF" "1,2\n3,4\n");
  g_autofree char *cpath = write_tmp ("\xEF\xBB\xBF" "# energies\n1\n2\n");
  g_autoptr(GError) error = NULL;
  g_autofree double *m = NULL, *v = NULL;
  gsize r = 0, c = 0, n = 0;

  m = xrlab_read_csv_matrix (mpath, FALSE, &r, &c, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (r * c, ==, 4);
  g_assert_cmpfloat (m[0], ==, 1.0);
  v = xrlab_read_column_file (cpath, &n, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, 2);
  /* a second one is junk like any other */
  g_assert_null (xrlab_parse_column_data ("1\n\xEF\xBB\xBF" "2\n", 7, "c", &n, &error));
  g_assert_cmpstr (error->message, ==, "c:2: “\xEF\xBB\xBF" "2” is not a finite number");
  g_unlink (mpath);
  g_unlink (cpath);
}

/* Binary bytes of a bad file were echoed raw to the terminal: escaped. */
static void
test_escape_text (void)
{
  static const struct {
    const char *in;
    gssize len;
    gsize max;
    const char *out;
  } cases[] = {
    { "plain 1.5e3 ÅÖ", -1, 0, "plain 1.5e3 ÅÖ" },
    { "\033[31mred\033[0m", -1, 0, "\\x1B[31mred\\x1B[0m" },
    { "tab\there\r\n", -1, 0, "tab\\x09here\\x0D\\x0A" },
    { "a\000b", 3, 0, "a\\x00b" },
    { "latin1 \xE9t\xE9", -1, 0, "latin1 \\xE9t\\xE9" },
    { "cut \xC3", -1, 0, "cut \\xC3" },
    { "c1 \xC2\x9B" "31m", -1, 0, "c1 \\xC2\\x9B31m" },
    { "bidi \xE2\x80\xAE" "evil", -1, 0, "bidi \\u202Eevil" },
    { "del \x7F", -1, 0, "del \\x7F" },
    { "0123456789", -1, 4, "0123…" },
    { "ÅÅÅÅÅ", -1, 3, "ÅÅÅ…" },
    { "0123", -1, 4, "0123" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *out = xrlab_escape_text (cases[i].in, cases[i].len, cases[i].max);

      g_assert_cmpstr (out, ==, cases[i].out);
      g_assert_true (g_utf8_validate (out, -1, NULL));
    }
  /* the messages of the readers quote escaped and cut */
  {
    g_autoptr(GError) error = NULL;
    g_autofree char *long_field = g_strnfill (200, 'x');
    g_autofree char *data = g_strconcat ("1,\033]0;pwned\007\n2,", long_field, "\n", NULL);
    const char *second = strchr (data, '\n') + 1;
    gsize r, c;

    g_assert_null (xrlab_parse_csv_matrix_data (data, second - data, "f", FALSE, &r, &c,
                                                &error));
    g_assert_cmpstr (error->message, ==,
                     "f:1: column 2: “\\x1B]0;pwned\\x07” is not a finite number");
    g_clear_error (&error);
    g_assert_null (xrlab_parse_csv_matrix_data (data, strlen (data), "f", TRUE, &r, &c,
                                                &error));
    g_assert_null (strstr (error->message, "\033"));
    g_clear_error (&error);
    g_assert_null (xrlab_parse_csv_matrix_data (second, strlen (second), "f", FALSE, &r, &c,
                                                &error));
    g_assert_nonnull (strstr (error->message, "xxx…” is not"));
    g_assert_cmpuint (g_utf8_strlen (error->message, -1), <, 120);
  }
}

/* The in-memory parsers read what the file readers read, without a NUL at
 * the end of the data. */
static void
test_parse_data_in_memory (void)
{
  const char *text = "# c\n1,2,3\r\n4,5,6\n7,8,9";
  g_autofree char *path = write_tmp (text);
  g_autofree char *exact = g_strndup (text, strlen (text) - 1);
  g_autoptr(GError) error = NULL;
  g_autofree double *a = NULL, *b = NULL, *v = NULL;
  gsize r1, c1, r2, c2, n;

  a = xrlab_read_csv_matrix (path, FALSE, &r1, &c1, &error);
  g_assert_no_error (error);
  b = xrlab_parse_csv_matrix_data (text, strlen (text), path, FALSE, &r2, &c2, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (r1, ==, r2);
  g_assert_cmpuint (c1, ==, c2);
  g_assert_cmpmem (a, r1 * c1 * sizeof *a, b, r2 * c2 * sizeof *b);
  g_clear_pointer (&b, g_free);
  /* the length is the end: "7,8,9" cut to "7,8," reads 7 and 8 */
  b = xrlab_parse_csv_matrix_data (exact, strlen (exact) - 1, "x", FALSE, &r2, &c2, &error);
  g_assert_null (b);
  g_assert_cmpstr (error->message, ==, "x:4: 2 columns, but the first row has 3");
  g_clear_error (&error);
  v = xrlab_parse_column_data ("1\n2\n3", 3, "x", &n, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, 2);
  g_unlink (path);
}

/* A matrix of a few megabytes (parsed in bands on several threads): its
 * values, and the first bad line of the file named wherever it lies, as
 * one pass would name it. */
static GString *
big_matrix (gsize rows, double *expect)
{
  GString *s = g_string_new (NULL);

  for (gsize i = 0; i < rows; i++)
    {
      if (i % 997 == 0)
        g_string_append (s, "# a comment\n\n");
      for (int j = 0; j < 3; j++)
        {
          char buf[XRLAB_DTOA_BUFSIZE];

          expect[3 * i + j] = (double) i + j / 7.0 + 1e-3 * sin ((double) i);
          g_string_append (s, xrlab_format_double (expect[3 * i + j], buf));
          g_string_append (s, j < 2 ? "," : (i % 5 == 0 ? "\r\n" : "\n"));
        }
    }
  return s;
}

/* The line (from 1) that row @row is on in big_matrix()'s text. */
static gsize
big_matrix_line (gsize row)
{
  return row + 1 + 2 * (row / 997 + 1);
}

static void
replace_row (GString *s, gsize row, const char *text)
{
  gsize line = big_matrix_line (row), at = 0;

  for (gsize l = 1; l < line; l++)
    at = strchr (s->str + at, '\n') - s->str + 1;
  g_string_erase (s, at, strchr (s->str + at, '\n') - (s->str + at));
  g_string_insert (s, at, text);
}

static void
test_read_large_banded (void)
{
  const gsize rows = 120000;
  double *expect = g_new (double, 3 * rows);
  g_autoptr(GString) s = big_matrix (rows, expect);
  const struct { gsize row; const char *text; gsize row2; const char *text2; const char *want; } cases[] = {
    { 70000, "1,2,x", 0, NULL, "column 3: “x” is not a finite number" },
    { 119999, "1,2", 0, NULL, "2 columns, but the first row has 3" },
    { 61000, "1,2,3,4", 100000, "1,zz,3", "4 columns, but the first row has 3" },
    { 30000, "nan,1,1", 90000, "1,1", "column 1: “nan” is not a finite number" },
    { 1, "1", 0, NULL, "1 column, but the first row has 3" },
  };
  g_autoptr(GError) error = NULL;
  gsize r = 0, c = 0;
  double *m;

  g_assert_cmpuint (s->len, >, 4u << 20);
  m = xrlab_parse_csv_matrix_data (s->str, s->len, "big.csv", FALSE, &r, &c, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (r, ==, rows);
  g_assert_cmpuint (c, ==, 3);
  g_assert_true (memcmp (m, expect, 3 * rows * sizeof (double)) == 0);
  g_free (m);
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GString) t = g_string_new_len (s->str, s->len);
      g_autofree char *where = g_strdup_printf ("big.csv:%zu: ", big_matrix_line (cases[i].row));

      replace_row (t, cases[i].row, cases[i].text);
      if (cases[i].text2 != NULL)
        replace_row (t, cases[i].row2, cases[i].text2);
      g_clear_error (&error);
      g_assert_null (xrlab_parse_csv_matrix_data (t->str, t->len, "big.csv", FALSE, &r, &c, &error));
      g_assert_nonnull (error);
      g_test_message ("%s", error->message);
      g_assert_true (g_str_has_prefix (error->message, where));
      g_assert_nonnull (strstr (error->message, cases[i].want));
    }
  g_free (expect);
}

/* A file of 17 MB is read in blocks of whole lines (never whole): every
 * case gives what the whole text parsed in memory gives, the same numbers
 * or the same message (the line counted across blocks): a byte order mark,
 * bad rows in the first, a middle and the last block, two bad rows (the
 * first is named), a NUL byte, and a row longer than a block. */
static void
test_read_file_in_blocks (void)
{
  const gsize rows = 450000;
  double *expect = g_new (double, 3 * rows);
  g_autoptr(GString) s = big_matrix (rows, expect);
  g_autofree char *dir = g_dir_make_tmp ("xrlab-test-util-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "big.csv", NULL);
  g_autoptr(GString) long_row = g_string_new ("1");
  const struct { gsize row; const char *text; gsize row2; const char *text2; gboolean bom; } cases[] = {
    { 0, NULL, 0, NULL, FALSE },
    { 0, NULL, 0, NULL, TRUE },
    { 449990, "1,2,x", 0, NULL, FALSE },
    { 250000, "1,2", 0, NULL, TRUE },
    { 61000, "1,2,3,4", 400000, "1,zz,3", FALSE },
    { 5, "1,1", 0, NULL, FALSE },
    { 300000, "1,\x01\x02,3", 0, NULL, FALSE },
    { 300000, NULL, 0, NULL, FALSE },      /* a NUL byte, put below */
    { 200000, "", 0, NULL, FALSE },        /* the long row */
  };

  while (long_row->len < (9u << 20))
    g_string_append (long_row, ",1");
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GString) t = g_string_new_len (s->str, s->len);
      g_autoptr(GError) e_mem = NULL, e_file = NULL;
      g_autofree double *m_mem = NULL, *m_file = NULL;
      gsize r1 = 0, c1 = 0, r2 = 0, c2 = 0;

      if (cases[i].text != NULL)
        replace_row (t, cases[i].row, cases[i].text[0] != '\0' ? cases[i].text : long_row->str);
      else if (i == 7)
        t->str[strchr (t->str + 15u * 1000 * 1000, ',') - t->str + 2] = '\0';
      if (cases[i].text2 != NULL)
        replace_row (t, cases[i].row2, cases[i].text2);
      if (cases[i].bom)
        g_string_prepend (t, "\xEF\xBB\xBF");
      g_assert_cmpuint (t->len, >, 16u << 20);
      g_assert_true (g_file_set_contents (path, t->str, t->len, NULL));
      m_mem = xrlab_parse_csv_matrix_data (t->str, t->len, path, FALSE, &r1, &c1, &e_mem);
      m_file = xrlab_read_csv_matrix (path, FALSE, &r2, &c2, &e_file);
      if (e_mem != NULL)
        {
          g_test_message ("%s", e_mem->message);
          g_assert_nonnull (e_file);
          g_assert_cmpstr (e_file->message, ==, e_mem->message);
          g_assert_null (m_file);
          continue;
        }
      g_assert_no_error (e_file);
      g_assert_cmpuint (r2, ==, rows);
      g_assert_cmpuint (c2, ==, 3);
      g_assert_cmpuint (r1, ==, r2);
      g_assert_true (memcmp (m_file, expect, 3 * rows * sizeof (double)) == 0);
      g_assert_true (memcmp (m_mem, m_file, 3 * rows * sizeof (double)) == 0);
    }
  g_unlink (path);
  g_rmdir (dir);
  g_free (expect);
}

/* The VmFlags of the mapping of this process that holds @addr ("" when
 * /proc/self/smaps is not there). */
static char *
vm_flags_at (guintptr addr)
{
  g_autofree char *smaps = NULL;
  g_auto(GStrv) lines = NULL;
  gboolean inside = FALSE;

  if (!g_file_get_contents ("/proc/self/smaps", &smaps, NULL, NULL))
    return g_strdup ("");
  lines = g_strsplit (smaps, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      unsigned long lo, hi;

      if (sscanf (lines[i], "%lx-%lx ", &lo, &hi) == 2 && strchr (lines[i], '-') < strchr (lines[i], ' '))
        inside = (addr >= lo && addr < hi);
      else if (inside && g_str_has_prefix (lines[i], "VmFlags:"))
        return g_strdup (lines[i] + 8);
    }
  return g_strdup ("");
}

/* Huge-page advice on arrays of every alignment and size (and none): the
 * memory stays the caller's, written and read back whole; and where the
 * kernel has transparent huge pages, the advised part of a large array is
 * marked for them ("hg" in its VmFlags). */
static void
test_advise_huge_pages (void)
{
  static const gsize sizes[] = { 0, 1, 4096, (4u << 20) - 1, 4u << 20, (6u << 20) + 123, 32u << 20 };
  const gboolean thp = g_file_test ("/sys/kernel/mm/transparent_hugepage/enabled", G_FILE_TEST_EXISTS);

  xrlab_advise_huge_pages (NULL, 1u << 30);
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    for (gsize shift = 0; shift < 64; shift += 24)
      {
        guchar *block = g_malloc (sizes[i] + shift + 1);
        guchar *p = block + shift;
        const guintptr inner = ((guintptr) p + (2u << 20) - 1) & ~(guintptr) ((2u << 20) - 1);

        xrlab_advise_huge_pages (p, sizes[i]);
        if (thp && sizes[i] >= (6u << 20))
          {
            g_autofree char *flags = vm_flags_at (inner);
            g_autofree char *padded = g_strdup_printf ("%s ", flags);

            g_test_message ("%zu bytes: VmFlags%s", sizes[i], flags);
            g_assert_nonnull (strstr (padded, " hg "));
          }
        for (gsize k = 0; k < sizes[i]; k += 4093)
          p[k] = (guchar) (k * 7);
        for (gsize k = 0; k < sizes[i]; k += 4093)
          g_assert_cmpuint (p[k], ==, (guchar) (k * 7));
        g_free (block);
      }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  xrlab_init ();
  g_test_add_func ("/util/format-roundtrip", test_format_roundtrip);
  g_test_add_func ("/util/parse-double", test_parse_double);
  g_test_add_func ("/util/atomic-write", test_atomic_write);
  g_test_add_func ("/util/atomic/symlink-written-through", test_atomic_symlink_written_through);
  g_test_add_func ("/util/atomic/device-node-refused", test_atomic_device_node_refused);
  g_test_add_func ("/util/atomic/keeps-mode", test_atomic_keeps_mode);
  g_test_add_func ("/util/atomic/stale-temp-removed", test_atomic_stale_temp_removed);
  g_test_add_func ("/util/atomic/write-errno-reported", test_atomic_write_errno_reported);
  g_test_add_func ("/util/read-files", test_read_files);
  g_test_add_func ("/util/read-errors", test_read_errors);
  g_test_add_func ("/util/read-tolerated", test_read_tolerated);
  g_test_add_func ("/util/read-nul-byte-refused", test_read_nul_byte_refused);
  g_test_add_func ("/util/read-bom-skipped", test_read_bom_skipped);
  g_test_add_func ("/util/escape-text", test_escape_text);
  g_test_add_func ("/util/parse-data-in-memory", test_parse_data_in_memory);
  g_test_add_func ("/util/matrix-roundtrip", test_matrix_roundtrip);
  g_test_add_func ("/util/read-large-banded", test_read_large_banded);
  g_test_add_func ("/util/append-numbers", test_append_numbers);
  g_test_add_func ("/util/advise-huge-pages", test_advise_huge_pages);
  g_test_add_func ("/util/read-file-in-blocks", test_read_file_in_blocks);
  return g_test_run ();
}
