/* test-cli-safety.c -- xrlab-cli under attack: standard output that cannot
 * be written, -o onto devices and links, runs killed or interrupted while
 * writing, full disks
 *
 * Each test is named after the problem it keeps from coming back (issue
 * 18). Interrupts are sent when the file being written appears (inotify),
 * so no test depends on timing; a full disk is a 64 KiB tmpfs mounted in a
 * mount namespace of the child (unshare), skipped where that is not
 * allowed.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "test-common.h"

static char *tmpdir;
static char *model_path, *energy_path, *data_path, *batch_path, *big_batch_path;
static char *big_energy_path, *big_data_path;

static const char *no_space = "Cannot write to standard output: No space left on device";

static char *
tmp_path (const char *name)
{
  return g_build_filename (tmpdir, name, NULL);
}

/* xrlab-cli with @args (NULL-terminated) after "sh -c SCRIPT": the shell
 * gets the program as $0 and the arguments as $@. */
static int
run_sh (const char *script, const char *const *args, char **out, char **err)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();

  g_ptr_array_add (argv, (gpointer) "/bin/sh");
  g_ptr_array_add (argv, (gpointer) "-c");
  g_ptr_array_add (argv, (gpointer) script);
  g_ptr_array_add (argv, (gpointer) g_getenv ("XRLAB_CLI"));
  for (; *args != NULL; args++)
    g_ptr_array_add (argv, (gpointer) *args);
  g_ptr_array_add (argv, NULL);
  return xrlab_test_spawn ((const char *const *) argv->pdata, NULL, out, err);
}

/* A spectrum of @n points (a Lorentzian on an offset): the energies and the
 * data. */
static void
write_spectrum (int n, const char *energy_name, const char *data_name, char **energy,
                char **data)
{
  g_autoptr(GString) e = g_string_new (NULL);
  g_autoptr(GString) d = g_string_new (NULL);

  for (int i = 0; i < n; i++)
    {
      double x = 100.0 * i / n;
      g_string_append_printf (e, "%g\n", x);
      g_string_append_printf (d, "%s%.6g", i ? "," : "", 1.0 + 10.0 / (1.0 + (x - 50) * (x - 50)));
    }
  g_string_append_c (d, '\n');
  *energy = xrlab_test_write_file (tmpdir, energy_name, e->str);
  *data = xrlab_test_write_file (tmpdir, data_name, d->str);
}

static void
setup_files (void)
{
  g_autoptr(GString) big = g_string_new ("formula,density,energy\n");

  model_path = xrlab_test_write_file (tmpdir, "model.yaml",
                         "m:\n"
                         "  Offset: {y0: [1, True, 0, 100]}\n"
                         "  GLP: {A: [10, True, 1, 500], x0: [50.0, True, 40, 60], "
                         "F: [2, True, 0.2, 30], m: [0.5, True, 0, 1]}\n");
  /* every output over 64 KiB */
  write_spectrum (20000, "energy.csv", "data.csv", &energy_path, &data_path);
  /* results of several MB, long enough to be interrupted while written,
   * from data the fit converges on at once (the model, simulated) */
  write_spectrum (200000, "big-energy.csv", "big-data.csv", &big_energy_path, &big_data_path);
  g_assert_cmpint (xrlab_test_cli_argv (NULL, (const char *[]) { "simulate", "--models", model_path, "--model",
                                               "m", "--energy", big_energy_path, "-o",
                                               big_data_path, NULL }, NULL, NULL), ==, 0);
  batch_path = xrlab_test_write_file (tmpdir, "batch.csv", "formula,density,energy\nSi,2.33,1:30:1000\nGe,5.3,8\n");
  /* about 50 MB of output */
  for (int i = 0; i < 20; i++)
    g_string_append (big, "Si,2.33,1:30:10000\n");
  big_batch_path = xrlab_test_write_file (tmpdir, "big-batch.csv", big->str);
}

/* ---- standard output ------------------------------------------------------ */

/* `calc -e 1:30:100 -f csv > /dev/full` exited 0: every subcommand, with
 * small and large output, fails with the reason, once. */
static void
test_stdout_write_error (void)
{
  g_autofree char *fitdir = tmp_path ("fit-stdout");
  g_autofree char *simulated = tmp_path ("simulated.csv");
  const char *const cases[][16] = {
    { "calc", "Si", "-d", "2.33", "-e", "1:30:100", "-f", "csv", NULL },
    { "calc", "Si", "-d", "2.33", "-e", "1:30:5000", "-f", "csv", NULL },
    { "calc", "Si", "-d", "2.33", "-e", "8", NULL },
    { "compare", "Si:2.33", "Ge:5.3", "-e", "1:30:2000", "-f", "json", NULL },
    { "convert", "8keV", NULL },
    { "formula", "H2O", NULL },
    { "edges", "Fe", NULL },
    { "materials", NULL },
    { "batch", batch_path, NULL },
    { "params", "--models", model_path, "--model", "m", NULL },
    { "simulate", "--models", model_path, "--model", "m", "--energy", energy_path,
      "--level", "0.01", "-o", simulated, NULL },
    { "fit", "--models", model_path, "--model", "m", "--energy", energy_path, "--data",
      data_path, "-o", fitdir, NULL },
    { "version", NULL },
    { "--help", NULL },
    { "calc", "--help", NULL },
    { "fit", "--help", NULL },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *err = NULL;
      int status = run_sh ("exec \"$0\" \"$@\" >/dev/full", cases[i], NULL, &err);

      if (status != 1 || xrlab_test_count_substr (err, no_space) != 1)
        g_error ("%s … > /dev/full: exit %d, stderr:\n%s", cases[i][0], status, err);
    }
}

/* ---- -o onto devices and links ------------------------------------------- */

/* As root `calc -o /dev/null` replaced /dev/null with a regular file: refused
 * (tried on a link to /dev/null and on a device node of the test's own, never
 * on /dev/null itself); a link is written through. */
static void
test_output_device_refused (void)
{
  g_autofree char *to_null = tmp_path ("to-null.csv");
  g_autofree char *node = tmp_path ("null-node");
  g_autofree char *real = tmp_path ("real.csv");
  g_autofree char *link = tmp_path ("link.csv");
  g_autofree char *err = NULL, *contents = NULL;
  struct stat st;

  g_assert_cmpint (symlink ("/dev/null", to_null), ==, 0);
  g_assert_cmpint (xrlab_test_cli_argv (NULL, (const char *[]) { "calc", "Si", "-d", "2.33", "-e", "8", "-o",
                                               to_null, NULL }, NULL, &err), ==, 1);
  xrlab_test_assert_contains (err, to_null);
  xrlab_test_assert_contains (err, "/dev/null, which is a character device");
  g_assert_true (g_file_test (to_null, G_FILE_TEST_IS_SYMLINK));
  g_clear_pointer (&err, g_free);

  if (mknod (node, S_IFCHR | 0666, makedev (1, 3)) == 0)
    {
      g_assert_cmpint (xrlab_test_cli_argv (NULL, (const char *[]) { "batch", batch_path, "-o", node, NULL },
                                NULL, &err), ==, 1);
      xrlab_test_assert_contains (err, "it is a character device");
      g_assert_cmpint (lstat (node, &st), ==, 0);
      g_assert_true (S_ISCHR (st.st_mode));
      g_clear_pointer (&err, g_free);
    }
  else
    g_test_message ("mknod: %s; only the link to /dev/null is tried", g_strerror (errno));

  g_assert_true (g_file_set_contents (real, "old\n", -1, NULL));
  g_assert_cmpint (symlink ("real.csv", link), ==, 0);
  g_assert_cmpint (xrlab_test_cli_argv (NULL, (const char *[]) { "batch", batch_path, "-o", link, NULL }, NULL,
                            &err), ==, 0);
  g_assert_true (g_file_test (link, G_FILE_TEST_IS_SYMLINK));
  g_assert_true (g_file_get_contents (real, &contents, NULL, NULL));
  g_assert_true (g_str_has_prefix (contents, "formula,density_g_cm3,energy_keV,"));
}

/* ---- killed and interrupted runs ------------------------------------------ */

/* Runs xrlab-cli with @args; when a file whose name starts with @prefix is
 * created in @dir, sends @signo to it. Returns the exit status (128 + the
 * signal when killed by one), the output and the errors. */
static int
run_and_signal (const char *dir, const char *prefix, int signo, const char *const *args,
                char **out, char **err)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *out_path = tmp_path ("signal-out.txt");
  g_autofree char *err_path = tmp_path ("signal-err.txt");
  int ifd = inotify_init1 (IN_CLOEXEC | IN_NONBLOCK);
  int out_fd = open (out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  int err_fd = open (err_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  gboolean sent = FALSE;
  GPid pid;
  int status;

  g_assert_cmpint (ifd, >=, 0);
  g_assert_cmpint (inotify_add_watch (ifd, dir, IN_CREATE), >=, 0);
  g_ptr_array_add (argv, (gpointer) g_getenv ("XRLAB_CLI"));
  for (; *args != NULL; args++)
    g_ptr_array_add (argv, (gpointer) *args);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_async_with_fds (NULL, (char **) argv->pdata, NULL,
                                         G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &pid, -1,
                                         out_fd, err_fd, &error));
  g_assert_no_error (error);
  close (out_fd);
  close (err_fd);
  for (;;)
    {
      struct pollfd pfd = { ifd, POLLIN, 0 };
      char buf[4096] __attribute__ ((aligned (__alignof__ (struct inotify_event))));
      ssize_t n;

      if (waitpid (pid, &status, WNOHANG) == pid)
        break;
      if (sent || poll (&pfd, 1, 50) <= 0)
        continue;
      n = read (ifd, buf, sizeof buf);
      for (char *p = buf; n > 0 && p < buf + n;)
        {
          const struct inotify_event *ev = (const struct inotify_event *) p;

          if (!sent && ev->len > 0 && g_str_has_prefix (ev->name, prefix))
            {
              kill (pid, signo);
              sent = TRUE;
            }
          p += sizeof *ev + ev->len;
        }
    }
  close (ifd);
  if (!sent)
    g_error ("no file %s… appeared in %s", prefix, dir);
  g_assert_true (g_file_get_contents (out_path, out, NULL, NULL));
  g_assert_true (g_file_get_contents (err_path, err, NULL, NULL));
  return WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status);
}

/* The hidden files of @dir whose names start with @prefix. */
static guint
count_files (const char *dir, const char *prefix)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  const char *name;
  guint n = 0;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    n += g_str_has_prefix (name, prefix);
  g_dir_close (d);
  return n;
}

static const char *interrupted_line =
  "xrlab-cli: interrupted; stopping (press Ctrl-C again to quit at once)\n";

/* A killed batch left its hidden temporary file (up to 200 MB): the next
 * write of the same file removes it. */
static void
test_stale_temp_removed (void)
{
  g_autofree char *dir = tmp_path ("killed");
  g_autofree char *out_csv = g_build_filename (dir, "out.csv", NULL);
  g_autofree char *out = NULL, *err = NULL;
  const char *const args[] = { "batch", big_batch_path, "-o", out_csv, NULL };

  g_assert_cmpint (g_mkdir (dir, 0755), ==, 0);
  g_assert_cmpint (run_and_signal (dir, ".out.csv.xrlab-", SIGKILL, args, &out, &err), ==,
                   128 + SIGKILL);
  g_assert_cmpuint (count_files (dir, ".out.csv.xrlab-"), ==, 1);
  g_assert_false (g_file_test (out_csv, G_FILE_TEST_EXISTS));
  g_clear_pointer (&err, g_free);

  g_assert_cmpint (xrlab_test_cli_argv (NULL, (const char *[]) { "batch", batch_path, "-o", out_csv, NULL },
                            NULL, &err), ==, 0);
  g_assert_cmpuint (count_files (dir, ".out.csv.xrlab-"), ==, 0);
  g_assert_true (g_file_test (out_csv, G_FILE_TEST_IS_REGULAR));
}

/* batch ignored SIGINT and SIGTERM (the default action killed it, leaving
 * its temporary file): it stops, removes the file, keeps the old output and
 * exits 130 or 143, printing nothing after the interrupt line. */
static void
test_batch_interrupted (void)
{
  g_autofree char *dir = tmp_path ("interrupted");
  g_autofree char *out_csv = g_build_filename (dir, "out.csv", NULL);
  const char *const args[] = { "batch", big_batch_path, "-o", out_csv, NULL };
  const int signals[] = { SIGINT, SIGTERM };

  g_assert_cmpint (g_mkdir (dir, 0755), ==, 0);
  g_assert_true (g_file_set_contents (out_csv, "old\n", -1, NULL));
  for (gsize i = 0; i < G_N_ELEMENTS (signals); i++)
    {
      g_autofree char *out = NULL, *err = NULL, *contents = NULL;

      g_assert_cmpint (run_and_signal (dir, ".out.csv.xrlab-", signals[i], args, &out, &err),
                       ==, 128 + signals[i]);
      g_assert_cmpstr (out, ==, "");
      g_assert_true (g_str_has_suffix (err, interrupted_line));
      g_assert_cmpuint (count_files (dir, ".out.csv.xrlab-"), ==, 0);
      g_assert_true (g_file_get_contents (out_csv, &contents, NULL, NULL));
      g_assert_cmpstr (contents, ==, "old\n");
    }
}

/* Ctrl-C while fit wrote its results ended with exit 0 and the summary:
 * the write stops, OUTDIR keeps its previous set (here: none), nothing is
 * left beside it, the exit status is 130. (The result set is written into
 * a folder beside OUTDIR first: the signal comes when that is made.) */
static void
test_fit_interrupted_while_writing (void)
{
  g_autofree char *dir = tmp_path ("fit-interrupted");
  g_autofree char *parent = g_path_get_dirname (dir);
  g_autofree char *out = NULL, *err = NULL;
  const char *const args[] = { "fit", "--models", model_path, "--model", "m", "--energy",
                               big_energy_path, "--data", big_data_path, "-o", dir, NULL };

  g_assert_cmpint (g_mkdir (dir, 0755), ==, 0);
  g_assert_cmpint (run_and_signal (parent, ".fit-interrupted.xrlab-new-", SIGINT, args, &out,
                                   &err), ==, 130);
  g_assert_cmpstr (out, ==, "");
  g_assert_nonnull (strstr (err, interrupted_line));
  g_assert_true (g_str_has_suffix (err, "the fit was interrupted; nothing was written\n"));
  g_assert_cmpuint (count_files (dir, ""), ==, 0);
  g_assert_cmpuint (count_files (parent, ".fit-interrupted.xrlab-"), ==, 0);
}

/* ---- full disks ------------------------------------------------------------ */

/* Runs @args in a mount namespace of its own with a 64 KiB tmpfs on @dir;
 * the names left in @dir go to @listing. Returns the exit status, or 77
 * when the tmpfs could not be mounted. */
static int
run_on_full_disk (const char *dir, const char *listing, const char *const *args, char **err)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();

  g_ptr_array_add (argv, (gpointer) "unshare");
  g_ptr_array_add (argv, (gpointer) "-rm");
  g_ptr_array_add (argv, (gpointer) "/bin/sh");
  g_ptr_array_add (argv, (gpointer) "-c");
  g_ptr_array_add (argv, (gpointer) "d=$1; l=$2; shift 2; "
                   "mount -t tmpfs -o size=64k none \"$d\" 2>/dev/null || exit 77; "
                   "\"$0\" \"$@\"; rc=$?; ls -A \"$d\" >\"$l\"; exit $rc");
  g_ptr_array_add (argv, (gpointer) g_getenv ("XRLAB_CLI"));
  g_ptr_array_add (argv, (gpointer) dir);
  g_ptr_array_add (argv, (gpointer) listing);
  for (; *args != NULL; args++)
    g_ptr_array_add (argv, (gpointer) *args);
  g_ptr_array_add (argv, NULL);
  return xrlab_test_spawn ((const char *const *) argv->pdata, NULL, NULL, err);
}

/* A full disk gave "Input/output error" in batch, eval and fit: each names
 * the file and the errno that happened, and leaves nothing on the disk. */
static void
test_disk_full_errno (void)
{
  g_autofree char *disk = tmp_path ("disk");
  g_autofree char *listing = tmp_path ("disk-listing.txt");
  g_autofree char *out_csv = g_build_filename (disk, "out.csv", NULL);
  g_autofree char *fit_dir = g_build_filename (disk, "fit", NULL);
  g_autofree char *probe_err = NULL;
  const char *const cases[][14] = {
    { "batch", batch_path, "-o", out_csv, NULL },
    { "eval", "--models", model_path, "--model", "m", "--energy", energy_path, "-o", out_csv,
      NULL },
    { "simulate", "--models", model_path, "--model", "m", "--energy", energy_path, "-o",
      out_csv, NULL },
    { "fit", "--models", model_path, "--model", "m", "--energy", energy_path, "--data",
      data_path, "-o", fit_dir, NULL },
    { "calc", "Si", "-d", "2.33", "-e", "1:30:2000", "-f", "csv", "-o", out_csv, NULL },
  };

  g_assert_cmpint (g_mkdir (disk, 0755), ==, 0);
  if (run_on_full_disk (disk, listing, (const char *[]) { "version", NULL }, &probe_err) != 0)
    {
      g_test_skip ("cannot mount a small tmpfs in a mount namespace (unshare -rm): "
                   "the full-disk test needs it");
      return;
    }
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *err = NULL, *left = NULL;
      int status = run_on_full_disk (disk, listing, cases[i], &err);

      if (status != 1 || strstr (err, "No space left on device") == NULL
          || strstr (err, disk) == NULL)
        g_error ("%s on a full disk: exit %d, stderr:\n%s", cases[i][0], status, err);
      /* nothing partial: no temporary file, no output (fit: its folder and
       * the small files written before the big one) */
      g_assert_true (g_file_get_contents (listing, &left, NULL, NULL));
      g_assert_null (strstr (left, ".xrlab-"));
      g_assert_null (strstr (left, "out.csv"));
    }
}

/* ---- what batch reads ------------------------------------------------------ */

/* Writes @len bytes to a file of the test folder. */
static char *
tmp_bytes (const char *name, const char *data, gsize len)
{
  char *path = tmp_path (name);
  g_assert_true (g_file_set_contents (path, data, (gssize) len, NULL));
  return path;
}

/* A NUL byte in a batch CSV dropped every later row with exit 0: the whole
 * file is refused, naming the line and column; eval and fit refuse axis and
 * data files with one the same way. */
static void
test_batch_nul_byte_refused (void)
{
  static const char csv[] = "formula,density,energy\nSi,2.33,8\nGe,5\000.3,8\nC,2.2,8\n";
  static const char axis[] = "1\n2\n3\000\n4\n";
  g_autofree char *path = tmp_bytes ("nul.csv", csv, sizeof csv - 1);
  g_autofree char *axis_path = tmp_bytes ("nul-axis.csv", axis, sizeof axis - 1);
  g_autofree char *out_csv = tmp_path ("nul-out.csv");
  g_autofree char *out = NULL, *err = NULL, *expected = NULL;

  g_assert_cmpint (xrlab_test_cli_argv (NULL, (const char *[]) { "batch", path, NULL }, &out, &err), ==, 1);
  g_assert_cmpstr (out, ==, "");
  expected = g_strdup_printf ("xrlab-cli: %s line 3, column 5: a NUL byte (this is not a "
                              "text file)\n", path);
  g_assert_cmpstr (err, ==, expected);
  g_clear_pointer (&err, g_free);
  g_clear_pointer (&expected, g_free);

  g_assert_cmpint (xrlab_test_cli_argv (NULL, (const char *[]) { "eval", "--models", model_path, "--model", "m",
                                               "--energy", axis_path, "-o", out_csv, NULL },
                            NULL, &err), ==, 1);
  expected = g_strdup_printf ("xrlab-cli: %s:3: a NUL byte (this is not a text file)\n",
                              axis_path);
  g_assert_cmpstr (err, ==, expected);
  g_assert_false (g_file_test (out_csv, G_FILE_TEST_EXISTS));
}

/* A UTF-8 byte order mark made the header fail as a row: skipped. */
static void
test_batch_bom_skipped (void)
{
  g_autofree char *path = xrlab_test_write_file (tmpdir, "bom.csv", "\xEF\xBB\xBF" "formula,energy,density\n"
                                    "Si,8,2.33\n");
  g_autofree char *plain = xrlab_test_write_file (tmpdir, "plain.csv", "formula,energy,density\nSi,8,2.33\n");
  g_autofree char *out = NULL, *err = NULL, *expected = NULL;

  g_assert_cmpint (xrlab_test_cli_argv (NULL, (const char *[]) { "batch", path, NULL }, &out, &err), ==, 0);
  g_assert_cmpstr (err, ==, "");
  g_assert_cmpint (xrlab_test_cli_argv (NULL, (const char *[]) { "batch", plain, NULL }, &expected, NULL), ==, 0);
  g_assert_cmpstr (out, ==, expected);
}

/* A repeated column name won silently: refused, naming both columns. */
static void
test_batch_duplicate_column_refused (void)
{
  static const struct {
    const char *header;
    const char *message;
  } cases[] = {
    { "formula,density,energy,density", "column 4 “density” repeats column 2 “density”" },
    { "formula,density,energy,Density_g_cm3",
      "column 4 “Density_g_cm3” repeats column 2 “density”" },
    { "formula,energy_keV,density,energy", "column 4 “energy” repeats column 2 “energy_keV”" },
    { "formula,formula,density,energy", "column 2 “formula” repeats column 1 “formula”" },
    { "formula,density,energy,thickness,thickness_um",
      "column 5 “thickness_um” repeats column 4 “thickness”" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = g_strconcat (cases[i].header, "\nSi,2.33,8,1,1\n", NULL);
      g_autofree char *path = xrlab_test_write_file (tmpdir, "dup.csv", text);
      g_autofree char *out = NULL, *err = NULL;
      g_autofree char *expected = g_strdup_printf ("xrlab-cli: %s line 1: %s\n", path,
                                                   cases[i].message);

      g_assert_cmpint (xrlab_test_cli_argv (NULL, (const char *[]) { "batch", path, NULL }, &out, &err), ==, 1);
      g_assert_cmpstr (out, ==, "");
      g_assert_cmpstr (err, ==, expected);
    }
}

/* Binary bytes of a bad file were echoed raw to the terminal (escape
 * sequences included): every message quoting a file escapes them. */
static void
test_binary_bytes_escaped (void)
{
  g_autofree char *batch = xrlab_test_write_file (tmpdir, "escape.csv",
                                     "formula,density,energy\n"
                                     "S\033[2J\033]0;pwned\007i,2.33,8\n"
                                     "Si,2\033[31m,8\n"
                                     "Si,2.33,8\302\233\n"
                                     "Si,2.33,8\n");
  g_autofree char *header = xrlab_test_write_file (tmpdir, "escape-header.csv", "formula,density,\033[5menergy\n");
  g_autofree char *latin1 = xrlab_test_write_file (tmpdir, "latin1.csv", "formula,density,energy\nSi,2.33,8 \xE9V\n");
  g_autofree char *axis = xrlab_test_write_file (tmpdir, "escape-axis.csv", "1\n2\n\033[1;1H\xFF\xFE garbage\n");
  g_autofree char *data = xrlab_test_write_file (tmpdir, "escape-data.csv", "1,2\n3,\033[?1049h\n");
  g_autofree char *fit_dir = tmp_path ("escape-fit");
  g_autofree char *out_csv = tmp_path ("escape-out.csv");
  const char *const cases[][12] = {
    { "batch", batch, NULL },
    { "batch", header, NULL },
    { "batch", latin1, NULL },
    { "eval", "--models", model_path, "--model", "m", "--energy", axis, "-o", out_csv, NULL },
    { "fit", "--models", model_path, "--model", "m", "--energy", energy_path, "--data", data,
      "-o", fit_dir, NULL },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *err = NULL;

      g_assert_cmpint (xrlab_test_cli_argv (NULL, cases[i], NULL, &err), ==, 1);
      g_assert_true (g_utf8_validate (err, -1, NULL));
      for (const char *p = err; *p != '\0'; p++)
        if ((guchar) *p < 0x20 && *p != '\n')
          g_error ("%s: control character \\x%02X in:\n%s", cases[i][0], (guchar) *p, err);
      g_assert_null (strstr (err, "\302\233"));
      xrlab_test_assert_contains (err, "\\x");
    }
}

/* ---- sizes ------------------------------------------------------------------ */

/* Axes of 1e5 × 1e5 in eval and simulate aborted in g_malloc (80 GB): axes
 * whose product is over the stated limit are refused before anything is
 * allocated, in eval, simulate and fit; a batch whose results would be over
 * it too. (The test uses 1e6 × 1e6, over the limit of any machine with less
 * than 32 TB.) */
static void
test_axes_too_large_refused (void)
{
  g_autoptr(GString) axis = g_string_new (NULL);
  g_autofree char *axis_path = NULL, *out_csv = tmp_path ("large-out.csv");
  g_autofree char *fit_dir = tmp_path ("large-fit");
  g_autofree char *help = NULL;
  const char *limit_help = "values in all (energies × delays; the delays squared with time "
                           "dependence; delays × aux values with profiles) are refused before "
                           "anything is allocated";

  for (int i = 0; i < 1000000; i++)
    g_string_append_printf (axis, "%d\n", i);
  axis_path = xrlab_test_write_file (tmpdir, "large-axis.csv", axis->str);
  {
    const char *const cases[][14] = {
      { "eval", "--models", model_path, "--model", "m", "--energy", axis_path, "--time",
        axis_path, "-o", out_csv, NULL },
      { "simulate", "--models", model_path, "--model", "m", "--energy", axis_path, "--time",
        axis_path, "-o", out_csv, NULL },
      { "fit", "--models", model_path, "--model", "m", "--energy", axis_path, "--time",
        axis_path, "--data", data_path, "-o", fit_dir, NULL },
    };

    for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
      {
        g_autofree char *err = NULL;

        g_assert_cmpint (xrlab_test_cli_argv (NULL, cases[i], NULL, &err), ==, 1);
        xrlab_test_assert_contains (err, "the energy axis × the delay axis: 1000000 × 1000000 values are "
                              "more than the limit of ");
        g_assert_false (g_file_test (out_csv, G_FILE_TEST_EXISTS));
      }
  }
  /* the limit is stated in --help */
  for (const char *const *cmd = (const char *const[]) { "eval", "simulate", "fit", NULL };
       *cmd != NULL; cmd++)
    {
      g_clear_pointer (&help, g_free);
      g_assert_cmpint (xrlab_test_cli_argv (NULL, (const char *[]) { *cmd, "--help", NULL }, &help, NULL), ==, 0);
      xrlab_test_assert_contains (help, limit_help);
    }

  /* batch: the rows of 10^6 energies, each twelve quantities, until over
   * the limit (read from the help of eval) */
  {
    const char *p = strstr (help, "Axes of more than ");
    guint64 limit;
    g_autoptr(GString) rows = g_string_new ("formula,density,energy\n");
    g_autofree char *path = NULL, *err = NULL, *out = NULL;

    g_assert_nonnull (p);
    limit = g_ascii_strtoull (p + strlen ("Axes of more than "), NULL, 10);
    g_assert_cmpuint (limit, >=, 1 << 24);
    for (guint64 i = 0; i < limit / 12000000 + 2; i++)
      g_string_append (rows, "Si,2.33,1:30:1000000\n");
    path = xrlab_test_write_file (tmpdir, "large-batch.csv", rows->str);
    g_assert_cmpint (xrlab_test_cli_argv (NULL, (const char *[]) { "batch", path, "-o", out_csv, NULL }, &out,
                              &err), ==, 1);
    xrlab_test_assert_contains (err, "split the file");
    g_assert_false (g_file_test (out_csv, G_FILE_TEST_EXISTS));
  }
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  g_assert_nonnull (g_getenv ("XRLAB_CLI"));
  tmpdir = g_dir_make_tmp ("xrlab-cli-safety-XXXXXX", NULL);
  setup_files ();
  g_test_add_func ("/cli-safety/stdout-write-error", test_stdout_write_error);
  g_test_add_func ("/cli-safety/output-device-refused", test_output_device_refused);
  g_test_add_func ("/cli-safety/stale-temp-removed", test_stale_temp_removed);
  g_test_add_func ("/cli-safety/batch-interrupted", test_batch_interrupted);
  g_test_add_func ("/cli-safety/fit-interrupted-while-writing",
                   test_fit_interrupted_while_writing);
  g_test_add_func ("/cli-safety/disk-full-errno", test_disk_full_errno);
  g_test_add_func ("/cli-safety/batch-nul-byte-refused", test_batch_nul_byte_refused);
  g_test_add_func ("/cli-safety/batch-bom-skipped", test_batch_bom_skipped);
  g_test_add_func ("/cli-safety/batch-duplicate-column-refused",
                   test_batch_duplicate_column_refused);
  g_test_add_func ("/cli-safety/binary-bytes-escaped", test_binary_bytes_escaped);
  g_test_add_func ("/cli-safety/axes-too-large-refused", test_axes_too_large_refused);
  status = g_test_run ();
  {
    g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", tmpdir);
    if (system (cmd) != 0)
      g_printerr ("could not remove %s\n", tmpdir);
  }
  return status;
}
