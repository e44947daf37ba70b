/* fuzz-formula.c -- the formula parser (xrlab-formula.h)
 *
 * Invariants: a formula that parses has at least one atom, finite positive
 * counts, a finite positive molar mass and electron count, mass fractions
 * that sum to 1; its canonical text parses again to the same atoms and
 * counts (to the 6 digits the text keeps). A refused formula has a
 * message.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include "fuzz-common.h"
#include "xrlab-formula.h"

FUZZ_DEFINE_INITIALIZE ()

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autofree char *text = NULL;
  g_autoptr(XrlabFormula) f = NULL;
  g_autoptr(XrlabFormula) again = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *canon = NULL;
  int column = -1;
  gsize n;
  double sum = 0;

  if (size > 4096)
    return 0;
  fuzz_init_once ();
  text = fuzz_string (data, size);
  f = xrlab_formula_parse_full (text, &column, &error);
  if (f == NULL)
    {
      FUZZ_CHECK (error != NULL && error->message[0] != '\0', "refused without a message");
      fuzz_check_printable (error->message, FALSE);
      return 0;
    }
  n = xrlab_formula_get_n_atoms (f);
  FUZZ_CHECK (n >= 1, "“%s” parsed with no atoms", text);
  for (gsize i = 0; i < n; i++)
    {
      double c = xrlab_formula_get_counts (f)[i];
      FUZZ_CHECK (isfinite (c) && c > 0, "“%s”: count %g", text, c);
      sum += xrlab_formula_get_mass_fractions (f)[i];
    }
  FUZZ_CHECK (fabs (sum - 1) < 1e-9, "“%s”: mass fractions sum to %.17g", text, sum);
  FUZZ_CHECK (isfinite (xrlab_formula_get_molecular_weight (f))
              && xrlab_formula_get_molecular_weight (f) > 0, "“%s”: molar mass %g", text,
              xrlab_formula_get_molecular_weight (f));
  FUZZ_CHECK (isfinite (xrlab_formula_get_electrons (f)) && xrlab_formula_get_electrons (f) > 0,
              "“%s”: electrons %g", text, xrlab_formula_get_electrons (f));

  canon = xrlab_formula_to_string (f);
  again = xrlab_formula_parse (canon, &error);
  FUZZ_CHECK (again != NULL, "“%s” → “%s” does not parse again: %s", text, canon,
              error ? error->message : "");
  FUZZ_CHECK (xrlab_formula_get_n_atoms (again) == n, "“%s” → “%s”: %zu atoms, then %zu", text,
              canon, n, xrlab_formula_get_n_atoms (again));
  for (gsize i = 0; i < n; i++)
    {
      double c0 = xrlab_formula_get_counts (f)[i], c1 = xrlab_formula_get_counts (again)[i];
      FUZZ_CHECK (xrlab_formula_get_z (f)[i] == xrlab_formula_get_z (again)[i],
                  "“%s” → “%s”: element %zu differs", text, canon, i);
      FUZZ_CHECK (fabs (c0 - c1) <= 1e-5 * fabs (c0), "“%s” → “%s”: count %.17g, then %.17g", text,
                  canon, c0, c1);
    }
  return 0;
}
