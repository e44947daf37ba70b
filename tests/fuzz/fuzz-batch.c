/* fuzz-batch.c -- the rows of xrlab-cli batch (src/cli/cli-optics-batch-read.c:
 * header, quoting, formulas, densities, thicknesses, energy specs and their
 * grids, through xrlab_cli_batch_read_input())
 *
 * Each input is read twice: energies in keV with the default columns, and
 * wavelengths in Å with the transmission (every row needs a thickness).
 * Invariants: a refused file has a message; the problems are one line each,
 * "xrlab-cli: in.csv line N…", in line order, at most one per line; every
 * message is valid UTF-8 without control characters (file content is
 * quoted escaped); there are no more grids than specs and no more specs
 * than rows. The grids and results are held to 2^22 values (32 MB).
 *
 * Under libFuzzer (XRLAB_FUZZING) inputs with a number over 10^4 after a
 * ':' are skipped: grids of up to 10^6 points made a run crawl at 30
 * executions/s, and the energy spec parser has its own target. The corpus
 * run (fuzz-driver.c) reads every input, the large ones included.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "fuzz-common.h"
#include "cli-optics-batch.h"

#define PREFIX "xrlab-cli: in.csv line "

FUZZ_DEFINE_INITIALIZE ()

static void
check_text (const char *text)
{
  fuzz_check_printable (text, TRUE);
}

static void
read_once (const char *text, size_t size, XrlabEnergyUnit unit, gboolean transmission)
{
  g_autoptr(GError) error = NULL;
  XrlabCliBatchInput in;
  gsize n_lines = 1;
  guint last = 0;
  g_auto(GStrv) problems = NULL;

  for (size_t i = 0; i < size; i++)
    n_lines += text[i] == '\n';
  if (!xrlab_cli_batch_read_input ("in.csv", text, size, unit, transmission, 1 << 22, &in,
                                   &error))
    {
      FUZZ_CHECK (error != NULL && error->message[0] != '\0', "refused without a message");
      check_text (error->message);
      return;
    }
  FUZZ_CHECK (in.n_grids <= in.n_groups && in.n_groups <= in.n_rows,
              "%zu grids, %zu specs, %zu rows", in.n_grids, in.n_groups, in.n_rows);
  FUZZ_CHECK (in.n_failed <= n_lines, "%zu problems in %zu lines", in.n_failed, n_lines);
  check_text (in.problems);
  /* "A\nB\n" splits into A, B and "" */
  problems = g_strsplit (in.problems, "\n", -1);
  FUZZ_CHECK (in.n_failed == 0 ? in.problems[0] == '\0'
                               : g_strv_length (problems) == in.n_failed + 1,
              "%zu problems in: %s", in.n_failed, in.problems);
  for (gsize i = 0; i < in.n_failed; i++)
    {
      guint64 line;

      FUZZ_CHECK (g_str_has_prefix (problems[i], PREFIX), "problem %zu: %s", i, problems[i]);
      line = g_ascii_strtoull (problems[i] + strlen (PREFIX), NULL, 10);
      FUZZ_CHECK (line >= 1 && line <= n_lines && line > last, "line %" G_GUINT64_FORMAT
                  " after %u of %zu: %s", line, last, n_lines, problems[i]);
      last = (guint) line;
    }
  xrlab_cli_batch_input_clear (&in);
}

#ifdef XRLAB_FUZZING
/* Whether the @size bytes at @text have a number over 10^4 after a ':' (a
 * range spec's point count, maybe). */
static gboolean
has_large_count (const char *text, size_t size)
{
  for (const char *p = memchr (text, ':', size); p != NULL;
       p = memchr (p + 1, ':', text + size - p - 1))
    {
      char buf[32];
      gsize n = MIN ((gsize) (text + size - p - 1), sizeof buf - 1);

      memcpy (buf, p + 1, n);
      buf[n] = '\0';
      if (g_ascii_strtod (buf, NULL) > 1e4)
        return TRUE;
    }
  return FALSE;
}
#endif

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  /* exactly @size bytes, nothing after them */
  char *text;

  if (size > 65536)
    return 0;
  fuzz_init_once ();
  text = fuzz_bytes (data, size);
#ifdef XRLAB_FUZZING
  if (has_large_count (text, size))
    {
      g_free (text);
      return 0;
    }
#endif
  read_once (text, size, XRLAB_ENERGY_UNIT_KEV, FALSE);
  read_once (text, size, XRLAB_ENERGY_UNIT_ANGSTROM, TRUE);
  g_free (text);
  return 0;
}
