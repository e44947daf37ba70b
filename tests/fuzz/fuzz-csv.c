/* fuzz-csv.c -- numeric text files: CSV matrices and axis columns
 * (xrlab_read_csv_matrix, xrlab_read_column_file)
 *
 * The input is written to a file (the readers take paths) and read both ways.
 * Invariants: a matrix that reads has rows × cols values, all finite unless
 * non-finite values were allowed; a column that reads has n ≥ 1 finite
 * values; a refusal has a message.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <unistd.h>

#include "fuzz-common.h"
#include "xrlab-util.h"

static char *path;

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  fuzz_init_once ();
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  if (size > 65536)
    return 0;
  fuzz_init_once ();
  if (path == NULL)
    path = g_strdup_printf ("%s/xrlab-fuzz-csv-%d.csv", g_get_tmp_dir (), (int) getpid ());
  if (!g_file_set_contents (path, (const char *) data, (gssize) size, NULL))
    return 0;
  for (int allow = 0; allow < 2; allow++)
    {
      g_autoptr(GError) error = NULL;
      gsize rows = 0, cols = 0;
      g_autofree double *m = xrlab_read_csv_matrix (path, allow, &rows, &cols, &error);
      if (m == NULL)
        FUZZ_CHECK (error != NULL && error->message[0] != '\0', "matrix refused without a message");
      else
        {
          FUZZ_CHECK (rows >= 1 && cols >= 1, "matrix %zu × %zu", rows, cols);
          for (gsize i = 0; i < rows * cols; i++)
            FUZZ_CHECK (allow || isfinite (m[i]), "value %zu is %g", i, m[i]);
        }
    }
  {
    g_autoptr(GError) error = NULL;
    gsize n = 0;
    g_autofree double *v = xrlab_read_column_file (path, &n, &error);
    if (v == NULL)
      FUZZ_CHECK (error != NULL && error->message[0] != '\0', "column refused without a message");
    else
      {
        FUZZ_CHECK (n >= 1, "empty column");
        for (gsize i = 0; i < n; i++)
          FUZZ_CHECK (isfinite (v[i]), "value %zu is %g", i, v[i]);
      }
  }
  return 0;
}
