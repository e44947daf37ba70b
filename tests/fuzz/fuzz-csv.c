/* fuzz-csv.c -- numeric text: CSV matrices and axis columns
 * (xrlab_parse_csv_matrix_data, xrlab_parse_column_data: what
 * xrlab_read_csv_matrix and xrlab_read_column_file read, from memory)
 *
 * The input is read both ways, as it is (no NUL after it: a read past the
 * end is a finding). Invariants: a matrix that reads has rows × cols
 * values, all finite unless non-finite values were allowed; a column that
 * reads has n ≥ 1 finite values; a refusal has a message, valid UTF-8
 * without control characters (file content is quoted escaped).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include "fuzz-common.h"
#include "xrlab-util.h"

FUZZ_DEFINE_INITIALIZE ()

static void
check_message (const GError *error)
{
  FUZZ_CHECK (error != NULL && error->message[0] != '\0', "refused without a message");
  fuzz_check_printable (error->message, FALSE);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  /* exactly @size bytes, nothing after them */
  char *text = fuzz_bytes (data, size);

  if (size > 65536)
    {
      g_free (text);
      return 0;
    }
  fuzz_init_once ();
  for (int allow = 0; allow < 2; allow++)
    {
      g_autoptr(GError) error = NULL;
      gsize rows = 0, cols = 0;
      g_autofree double *m = xrlab_parse_csv_matrix_data (text, size, "in.csv", allow, &rows,
                                                          &cols, &error);
      if (m == NULL)
        check_message (error);
      else
        {
          FUZZ_CHECK (rows >= 1 && cols >= 1, "matrix %zu × %zu", rows, cols);
          FUZZ_CHECK (rows * cols <= size, "matrix %zu × %zu from %zu bytes", rows, cols, size);
          for (gsize i = 0; i < rows * cols; i++)
            FUZZ_CHECK (allow || isfinite (m[i]), "value %zu is %g", i, m[i]);
        }
    }
  {
    g_autoptr(GError) error = NULL;
    gsize n = 0;
    g_autofree double *v = xrlab_parse_column_data (text, size, "in.csv", &n, &error);
    if (v == NULL)
      check_message (error);
    else
      {
        FUZZ_CHECK (n >= 1 && n <= size, "%zu values from %zu bytes", n, size);
        for (gsize i = 0; i < n; i++)
          FUZZ_CHECK (isfinite (v[i]), "value %zu is %g", i, v[i]);
      }
  }
  g_free (text);
  return 0;
}
