/* cli-batch-h5.c -- the rows of xrlab-cli batch as one HDF5 file
 *
 * /entry (NXentry) / results (NXcollection): one 1D dataset per column of
 * the CSV output, as long as it has rows: formula (strings), density_g_cm3,
 * energy_keV and the quantities, each with its "units" attribute. Written
 * into a temporary file and renamed over the target (xrlab-h5.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "cli-optics-batch.h"
#include "xrlab-h5.h"

gboolean
xrlab_cli_batch_write_h5 (const char *path, const char *const *formula, gsize n,
                          const double *v, const XrlabCliFields *fields,
                          GCancellable *cancellable, GError **error)
{
  XrlabH5Writer *w = xrlab_h5_writer_new (path, error);
  const char *group = "/entry/results";
  gboolean ok;

  if (w == NULL)
    return FALSE;
  ok = xrlab_h5_writer_add_group (w, "/entry", "NXentry", error)
       && xrlab_h5_writer_set_string (w, "/entry", "program", "xrlab", error)
       && xrlab_h5_writer_add_group (w, group, "NXcollection", error)
       && xrlab_h5_writer_add_strings_dataset (w, "/entry/results/formula", formula, n, error);
  for (guint c = 0; ok && c < 2 + fields->n; c++)
    {
      const char *name = c == 0 ? "density_g_cm3" : c == 1 ? "energy_keV"
                         : xrlab_quantity_get_column (fields->order[c - 2]);
      const char *units = c == 0 ? "g/cm3" : c == 1 ? "keV"
                          : xrlab_quantity_get_unit (fields->order[c - 2]);
      g_autofree char *p = g_build_path ("/", group, name, NULL);
      gsize dims[2] = { n, 1 };

      ok = !g_cancellable_set_error_if_cancelled (cancellable, error)
           && xrlab_h5_writer_add_dataset (w, p, v + c * n, 1, dims,
                                           units && *units ? units : NULL, error);
    }
  if (!ok || g_cancellable_set_error_if_cancelled (cancellable, error))
    {
      xrlab_h5_writer_abort (w);
      return FALSE;
    }
  return xrlab_h5_writer_commit (w, error);
}
