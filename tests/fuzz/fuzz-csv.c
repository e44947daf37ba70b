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

/* Exactly the @size bytes of the input, nothing after them (never NULL). */
static char *
fuzz_bytes (const uint8_t *data, size_t size)
{
  char *copy = g_malloc (MAX (size, 1));

  if (size > 0)
    memcpy (copy, data, size);
  return copy;
}

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  fuzz_init_once ();
  return 0;
}

static void
check_message (const GError *error)
{
  FUZZ_CHECK (error != NULL && error->message[0] != '\0', "refused without a message");
  FUZZ_CHECK (g_utf8_validate (error->message, -1, NULL), "message not UTF-8: %s",
              error->message);
  for (const char *p = error->message; *p != '\0'; p++)
    FUZZ_CHECK ((guchar) *p >= 0x20 && *p != 0x7F, "control character 0x%02x in: %s",
                (guchar) *p, error->message);
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
