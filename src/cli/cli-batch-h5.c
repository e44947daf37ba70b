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
                          const XrlabCliBatchColumn *columns, gsize n_columns,
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
  for (gsize c = 0; ok && c < n_columns; c++)
    {
      g_autofree char *p = g_build_path ("/", group, columns[c].name, NULL);
      const char *units = columns[c].units && *columns[c].units ? columns[c].units : NULL;
      gsize dims[2] = { n, 1 };

      ok = !g_cancellable_set_error_if_cancelled (cancellable, error)
           && xrlab_h5_writer_add_dataset (w, p, columns[c].values, 1, dims, units, error);
    }
  if (!ok || g_cancellable_set_error_if_cancelled (cancellable, error))
    {
      xrlab_h5_writer_abort (w);
      return FALSE;
    }
  return xrlab_h5_writer_commit (w, error);
}
