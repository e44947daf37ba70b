/* test-cli-golden.c -- xrlab-cli's outputs stay byte-identical
 *
 * Every case of tests/data/cli-golden/cases runs xrlab-cli and compares its
 * exit status, standard output, standard error and the files it writes into
 * a fresh folder with the recorded ones in tests/data/cli-golden/expected/.
 * Only the timings are masked (the wall_s column of the metrics files).
 * Files over 64 KiB are compared by their SHA-256, and by the count and
 * sums of their numbers where the SHA-256 cannot match (below).
 *
 * XRLAB_GOLDEN_UPDATE=1 records the current outputs instead (do that only
 * for a change of output that is meant, and say so in the commit).
 *
 * The plan's vectorised kernels are compiled for several instruction sets
 * and picked at load time; the cases that evaluate models (eval, simulate,
 * fit) can differ in the last bits on a processor of another level than the
 * one that recorded them (expected/cpu-level), and in a build without
 * optimisation (the sanitizer build: its kernels for AVX2 fuse no
 * multiply-adds, so the last bits differ from an optimised build's on the
 * same processor; the records come from an optimised build). There they
 * are compared number by number to 1e-9 relative instead (values under
 * 1e-13 are noise), long
 * files by how many numbers they hold and the sums of their magnitudes and
 * squares, and the test says so.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>
#include <sys/wait.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "test-common.h"

#define INLINE_MAX 65536

static const char *golden_dir;
static gboolean updating;
static gboolean inexact;   /* model outputs compared to 1e-9: another CPU level, or -O0 */
static GPtrArray *cases;

typedef struct {
  char *name;
  char *args;
} Case;

static const char *
cpu_level (void)
{
#if defined(__x86_64__) && defined(__GNUC__)
  __builtin_cpu_init ();
  if (__builtin_cpu_supports ("avx512f"))
    return "x86-64-v4";
  if (__builtin_cpu_supports ("avx2") && __builtin_cpu_supports ("fma"))
    return "x86-64-v3";
  return "x86-64";
#else
  return "other";
#endif
}

/* The wall_s column of a CSV (header first) replaced by "WALL". */
static char *
mask_wall (const char *text)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  g_auto(GStrv) header = NULL;
  int col = -1;

  if (!lines[0])
    return g_strdup (text);
  header = g_strsplit (lines[0], ",", -1);
  for (int i = 0; header[i]; i++)
    if (strcmp (header[i], "wall_s") == 0)
      col = i;
  if (col < 0)
    return g_strdup (text);
  for (int l = 1; lines[l]; l++)
    {
      g_auto(GStrv) f = g_strsplit (lines[l], ",", -1);
      if ((int) g_strv_length (f) > col)
        {
          g_free (f[col]);
          f[col] = g_strdup ("WALL");
          g_free (lines[l]);
          lines[l] = g_strjoinv (",", f);
        }
    }
  return g_strjoinv ("\n", lines);
}

/* The numbers of a text too long to keep, for another CPU level: how many,
 * the sum of their magnitudes and of their squares. */
static char *
number_stats (const char *text)
{
  g_auto(GStrv) tokens = g_strsplit_set (text, ",; \t\n", -1);
  double sum_abs = 0, sum_sq = 0;
  gsize count = 0;
  char a[G_ASCII_DTOSTR_BUF_SIZE], b[G_ASCII_DTOSTR_BUF_SIZE];

  for (int i = 0; tokens[i]; i++)
    {
      char *end;
      double x = g_ascii_strtod (tokens[i], &end);

      if (*tokens[i] == '\0' || *end != '\0' || !isfinite (x))
        continue;
      count++;
      sum_abs += fabs (x);
      sum_sq += x * x;
    }
  return g_strdup_printf ("numbers %zu sum|x| %s sum(x^2) %s", count,
                          g_ascii_formatd (a, sizeof a, "%.15e", sum_abs),
                          g_ascii_formatd (b, sizeof b, "%.15e", sum_sq));
}

/* @text without the bytes and SHA-256 of its long files, whose numbers
 * another CPU level writes in the last bits differently: their counts and
 * sums stay, for close_enough(). */
static char *
without_hashes (const char *text)
{
  g_autoptr(GRegex) re = g_regex_new ("^(--- file \\S+) \\(\\d+ bytes\\) sha256 [0-9a-f]{64} ",
                                      G_REGEX_MULTILINE, 0, NULL);

  return g_regex_replace (re, text, -1, 0, "\\1 ", 0, NULL);
}

static int
cmp_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

/* What a case produced, as one text. */
static char *
run_case (const Case *c, const char *outdir)
{
  const char *shared = g_getenv ("XRLAB_SHARED_DATA");
  g_autofree char *models = g_build_filename (XRLAB_TEST_SRCDIR, "..", "data", "models", NULL);
  g_autofree char *au4f = g_build_filename (shared ? shared : "", "trspecfit-au4f", NULL);
  g_autoptr(GString) args = g_string_new (c->args);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) argv = NULL;
  g_autoptr(GPtrArray) full = g_ptr_array_new ();
  g_autofree char *sout = NULL, *serr = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  GString *res = g_string_new (NULL);
  GDir *dir;
  const char *n;
  int status = 0, argc = 0;

  g_string_replace (args, "@DATA@", golden_dir, 0);
  g_string_replace (args, "@MODELS@", models, 0);
  g_string_replace (args, "@AU4F@", au4f, 0);
  g_string_replace (args, "@OUT@", outdir, 0);
  g_assert_true (g_shell_parse_argv (args->str, &argc, &argv, &error));
  g_assert_no_error (error);
  for (int i = 0; i < argc; i++)
    g_ptr_array_add (full, argv[i]);
  g_ptr_array_add (full, NULL);
  status = xrlab_test_cli_argv (NULL, (const char *const *) full->pdata, &sout, &serr);

  g_string_append_printf (res, "exit: %d\n", status);
  g_string_append_printf (res, "--- stdout\n%s", sout);
  g_string_append_printf (res, "--- stderr\n%s", serr);

  dir = g_dir_open (outdir, 0, NULL);
  g_assert_nonnull (dir);
  while ((n = g_dir_read_name (dir)) != NULL)
    g_ptr_array_add (names, g_strdup (n));
  g_dir_close (dir);
  g_ptr_array_sort (names, cmp_names);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (outdir, names->pdata[i], NULL);
      g_autofree char *text = NULL, *masked = NULL;
      gsize len = 0;

      g_assert_true (g_file_get_contents (path, &text, &len, NULL));
      masked = mask_wall (text);
      if (strlen (masked) > INLINE_MAX)
        {
          g_autofree char *sum = g_compute_checksum_for_string (G_CHECKSUM_SHA256, masked, -1);
          g_autofree char *stats = number_stats (masked);

          g_string_append_printf (res, "--- file %s (%zu bytes) sha256 %s %s\n",
                                  (char *) names->pdata[i], len, sum, stats);
        }
      else
        g_string_append_printf (res, "--- file %s\n%s", (char *) names->pdata[i], masked);
    }
  /* paths of this machine back to their placeholders */
  g_string_replace (res, outdir, "@OUT@", 0);
  g_string_replace (res, golden_dir, "@DATA@", 0);
  g_string_replace (res, models, "@MODELS@", 0);
  g_string_replace (res, au4f, "@AU4F@", 0);
  return g_string_free (res, FALSE);
}

/* Numbers and words of two texts agree to 1e-9 relative (for another CPU);
 * numbers below 1e-13 in magnitude, the rounding noise of quantities of
 * order one (a correlation of two independent parameters), agree with
 * each other. */
static gboolean
close_enough (const char *a, const char *b)
{
  const char *delims = ",; \t\n±:()";
  g_auto(GStrv) ta = g_strsplit_set (a, delims, -1);
  g_auto(GStrv) tb = g_strsplit_set (b, delims, -1);

  if (g_strv_length (ta) != g_strv_length (tb))
    return FALSE;
  for (int i = 0; ta[i]; i++)
    {
      char *ea, *eb;
      double x = g_ascii_strtod (ta[i], &ea), y = g_ascii_strtod (tb[i], &eb);
      if (strcmp (ta[i], tb[i]) == 0)
        continue;
      if (*ta[i] == '\0' || *ea != '\0' || *eb != '\0')
        return FALSE;
      if (!(fabs (x - y) <= 1e-9 * fmax (fabs (x), fabs (y)) + 1e-13))
        return FALSE;
    }
  return TRUE;
}

static void
test_case (gconstpointer data)
{
  const Case *c = data;
  g_autofree char *outdir = g_dir_make_tmp ("xrlab-golden-XXXXXX", NULL);
  g_autofree char *expected_path = NULL, *expected = NULL, *got = NULL;
  gboolean model_case = g_str_has_prefix (c->args, "eval") || g_str_has_prefix (c->args, "simulate")
                        || g_str_has_prefix (c->args, "fit");

  if (strstr (c->args, "@AU4F@"))
    {
      g_autofree char *probe = xrlab_test_shared_path ("trspecfit-au4f/data.csv",
                                                       "the Au 4f measurement");
      if (probe == NULL)
        return;
    }

  g_assert_nonnull (outdir);
  got = run_case (c, outdir);
  xrlab_test_rm_rf (outdir);
  expected_path = g_strdup_printf ("%s/expected/%s.txt", golden_dir, c->name);
  if (updating)
    {
      g_assert_true (g_file_set_contents (expected_path, got, -1, NULL));
      return;
    }
  if (!g_file_get_contents (expected_path, &expected, NULL, NULL))
    g_error ("no recorded output %s (XRLAB_GOLDEN_UPDATE=1 records it)", expected_path);
  if (strcmp (got, expected) == 0)
    return;
  if (inexact && model_case)
    {
      g_autofree char *a = without_hashes (got), *b = without_hashes (expected);

      if (close_enough (a, b))
        {
          g_test_message ("%s: equal to 1e-9, not byte for byte (recorded on another CPU level or "
                          "by an optimised build)", c->name);
          return;
        }
    }
  {
    g_autofree char *got_path = g_strdup_printf ("%s/xrlab-golden-%s.txt", g_get_tmp_dir (), c->name);
    g_file_set_contents (got_path, got, -1, NULL);
    g_test_fail_printf ("%s: the output differs from %s (this run's output: %s)", c->name, expected_path,
                        got_path);
  }
}

int
main (int argc, char **argv)
{
  g_autofree char *cases_path = NULL, *text = NULL, *level_path = NULL, *level = NULL;
  g_auto(GStrv) lines = NULL;

  g_test_init (&argc, &argv, NULL);
  golden_dir = XRLAB_TEST_SRCDIR "/data/cli-golden";
  updating = g_strcmp0 (g_getenv ("XRLAB_GOLDEN_UPDATE"), "1") == 0;
  cases_path = g_build_filename (golden_dir, "cases", NULL);
  level_path = g_build_filename (golden_dir, "expected", "cpu-level", NULL);
  g_assert_true (g_file_get_contents (cases_path, &text, NULL, NULL));
  if (updating)
    {
      g_autofree char *lv;

#ifndef __OPTIMIZE__
      g_error ("record with an optimised build (debugoptimized or release), not this one");
#endif
      lv = g_strdup_printf ("%s\n", cpu_level ());
      g_mkdir_with_parents (XRLAB_TEST_SRCDIR "/data/cli-golden/expected", 0755);
      g_assert_true (g_file_set_contents (level_path, lv, -1, NULL));
    }
  if (g_file_get_contents (level_path, &level, NULL, NULL))
    inexact = strcmp (g_strstrip (level), cpu_level ()) != 0;
#ifndef __OPTIMIZE__
  inexact = TRUE;
#endif

  cases = g_ptr_array_new ();
  lines = g_strsplit (text, "\n", -1);
  for (int i = 0; lines[i]; i++)
    {
      char *bar;
      Case *c;
      g_autofree char *path = NULL;

      if (lines[i][0] == '#' || lines[i][0] == '\0')
        continue;
      bar = strchr (lines[i], '|');
      g_assert_nonnull (bar);
      *bar = '\0';
      c = g_new0 (Case, 1);
      c->name = g_strstrip (g_strdup (lines[i]));
      c->args = g_strstrip (g_strdup (bar + 1));
      g_ptr_array_add (cases, c);
      path = g_strdup_printf ("/cli-golden/%s", c->name);
      g_test_add_data_func (path, c, test_case);
    }
  return g_test_run ();
}
