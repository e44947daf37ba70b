/* fuzz-driver.c -- runs a fuzz target over files, without libFuzzer
 *
 * The normal build links every target of tests/fuzz/ with this main(), and
 * the test suite runs each over its corpus (tests/fuzz/corpus/TARGET/):
 * every reproducer and seed stays a regression test on any compiler.
 * Arguments: files or folders (every file inside, sorted).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "fuzz-common.h"

static int
cmp_str (gconstpointer a, gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

static guint
run_path (const char *path)
{
  gchar *contents = NULL;
  gsize len = 0;
  guint n = 0;

  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      GDir *dir = g_dir_open (path, 0, NULL);
      GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
      const char *name;

      if (dir == NULL)
        {
          fprintf (stderr, "cannot open %s\n", path);
          exit (1);
        }
      while ((name = g_dir_read_name (dir)) != NULL)
        g_ptr_array_add (names, g_build_filename (path, name, NULL));
      g_dir_close (dir);
      g_ptr_array_sort (names, cmp_str);
      for (guint i = 0; i < names->len; i++)
        n += run_path (g_ptr_array_index (names, i));
      g_ptr_array_unref (names);
      return n;
    }
  if (!g_file_get_contents (path, &contents, &len, NULL))
    {
      fprintf (stderr, "cannot read %s\n", path);
      exit (1);
    }
  LLVMFuzzerTestOneInput ((const uint8_t *) contents, len);
  g_free (contents);
  return 1;
}

int
main (int argc, char **argv)
{
  guint n = 0;

  LLVMFuzzerInitialize (&argc, &argv);
  for (int i = 1; i < argc; i++)
    n += run_path (argv[i]);
  printf ("%u inputs, no finding\n", n);
  return 0;
}
