/* fuzz-energy.c -- energy specs (xrlab_energy_grid_parse) in every unit
 *
 * Invariants: a grid that parses has at least one point, every energy
 * finite and positive, and at most the documented maximum of points; a
 * refused spec has a message.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include "fuzz-common.h"
#include "xrlab-optics.h"

FUZZ_DEFINE_INITIALIZE ()

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static const char *units[] = { "keV", "eV", "A" };
  g_autofree char *text = NULL;

  if (size < 1 || size > 1024)
    return 0;
  fuzz_init_once ();
  /* the first byte picks the unit */
  text = fuzz_string (data + 1, size - 1);
  {
    XrlabEnergyUnit unit;
    g_autoptr(GError) error = NULL;
    XrlabEnergyGrid *grid;

    FUZZ_CHECK (xrlab_energy_unit_parse (units[data[0] % 3], &unit), "unit");
    grid = xrlab_energy_grid_parse (text, unit, &error);
    if (grid == NULL)
      {
        FUZZ_CHECK (error != NULL && error->message[0] != '\0', "refused without a message");
        return 0;
      }
    {
      gsize n = xrlab_energy_grid_get_size (grid);
      const double *e = xrlab_energy_grid_get_energies_kev (grid);
      FUZZ_CHECK (n >= 1, "“%s”: an empty grid", text);
      for (gsize i = 0; i < n; i++)
        FUZZ_CHECK (isfinite (e[i]) && e[i] > 0, "“%s”: energy %zu is %g", text, i, e[i]);
    }
    xrlab_energy_grid_unref (grid);
  }
  return 0;
}
