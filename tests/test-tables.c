/* test-tables.c -- the binary Henke and Chantler tables of the build hold
 * the numbers of the text files in data/henke and data/chantler, bit for bit
 * (parsed here with xrlab_parse_double(), as the engine once parsed them)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include <glib.h>

#include "xrlab-elements-private.h"
#include "xrlab-init.h"
#include "xrlab-util.h"

/* The text rules: blank and '#' lines skipped, "key value" headers (a line
 * starting with a letter), then @n_cols numbers a line. */
static void
parse_text (const char *path, guint n_cols, GArray **cols, double keys[3])
{
  static const char *const key_names[3] = { "Z", "frel_3/5CL", "fNT" };
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  keys[0] = keys[1] = keys[2] = NAN;
  lines = g_strsplit (text, "\n", -1);
  for (guint l = 0; lines[l] != NULL; l++)
    {
      g_auto(GStrv) f = NULL;
      guint nf = 0;
      char *row = g_strstrip (lines[l]);
      const char *fields[8];

      if (row[0] == '\0' || row[0] == '#')
        continue;
      f = g_strsplit_set (row, " \t", -1);
      for (guint i = 0; f[i] != NULL; i++)
        if (f[i][0] != '\0' && nf < G_N_ELEMENTS (fields))
          fields[nf++] = f[i];
      if (g_ascii_isalpha (row[0]))
        {
          for (int k = 0; k < 3; k++)
            if (nf == 2 && strcmp (fields[0], key_names[k]) == 0)
              g_assert_true (xrlab_parse_double (fields[1], FALSE, &keys[k]));
          continue;
        }
      g_assert_cmpuint (nf, ==, n_cols);
      for (guint c = 0; c < n_cols; c++)
        {
          double v;
          g_assert_true (xrlab_parse_double (fields[c], FALSE, &v));
          g_array_append_val (cols[c], v);
        }
    }
}

static void
check_table (XrlabTable table, const char *folder, const char *ext, guint n_cols)
{
  g_autofree char *dir = g_test_build_filename (G_TEST_DIST, "..", "data", folder, NULL);
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  guint n_files = 0;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autofree char *elem = NULL;
      g_autoptr(GError) error = NULL;
      GArray *text[5], *bin[5];
      double tk[3], bk[3];

      if (!g_str_has_suffix (name, ext))
        continue;
      elem = g_strndup (name, strlen (name) - strlen (ext));
      for (guint c = 0; c < n_cols; c++)
        {
          text[c] = g_array_new (FALSE, FALSE, sizeof (double));
          bin[c] = g_array_new (FALSE, FALSE, sizeof (double));
        }
      parse_text (path, n_cols, text, tk);
      g_assert_true (xrlab_table_read_columns (table, elem, n_cols, bin, bk, &error));
      g_assert_no_error (error);
      for (guint c = 0; c < n_cols; c++)
        {
          g_assert_cmpuint (bin[c]->len, ==, text[c]->len);
          g_assert_cmpmem (bin[c]->data, bin[c]->len * sizeof (double),
                           text[c]->data, text[c]->len * sizeof (double));
          g_array_unref (text[c]);
          g_array_unref (bin[c]);
        }
      for (int k = 0; k < 3; k++)
        g_assert_true ((isnan (tk[k]) && isnan (bk[k]))
                       || memcmp (&tk[k], &bk[k], sizeof (double)) == 0);
      n_files++;
    }
  g_assert_cmpuint (n_files, ==, XRLAB_ELEMENT_Z_MAX);
}

static void
test_henke (void)
{
  check_table (XRLAB_TABLE_HENKE, "henke", ".nff", 3);
}

static void
test_chantler (void)
{
  check_table (XRLAB_TABLE_CHANTLER, "chantler", ".dat", 5);
}

/* A name that is not in a table, and the wrong number of columns */
static void
test_missing (void)
{
  GArray *c[5];
  double k[3];
  g_autoptr(GError) error = NULL;

  for (int i = 0; i < 5; i++)
    c[i] = g_array_new (FALSE, FALSE, sizeof (double));
  g_assert_false (xrlab_table_read_columns (XRLAB_TABLE_HENKE, "xx", 3, c, k, &error));
  g_assert_error (error, XRLAB_ELEMENT_ERROR, XRLAB_ELEMENT_ERROR_DATA);
  g_clear_error (&error);
  g_assert_false (xrlab_table_read_columns (XRLAB_TABLE_HENKE, "au", 5, c, k, &error));
  g_assert_error (error, XRLAB_ELEMENT_ERROR, XRLAB_ELEMENT_ERROR_DATA);
  for (int i = 0; i < 5; i++)
    g_array_unref (c[i]);
}

int
main (int argc, char **argv)
{
  xrlab_init ();
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/tables/henke", test_henke);
  g_test_add_func ("/tables/chantler", test_chantler);
  g_test_add_func ("/tables/missing", test_missing);
  return g_test_run ();
}
