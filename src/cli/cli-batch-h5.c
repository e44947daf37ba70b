/* cli-batch-h5.c -- the rows of xrlab-cli batch as one HDF5 file
 *
 * /entry (NXentry) / results (NXcollection): one 1D dataset per column of
 * the CSV output, as long as it has lines: formula and table (strings),
 * density_g_cm3, energy_keV and the quantities, each with its "units". Written
 * into a temporary file and renamed over the target (xrlab-h5.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "cli-optics-batch.h"
#include "xrlab-h5.h"

#include <string.h>

/* The "units" attribute as NeXus asks for it, in UDUNITS-2 spelling with
 * ASCII only ("angstrom-2", "cm2/g", "degree"); the table's own symbols
 * (Å⁻², cm²/g, °) stay for the screen and the CSV headers. */
static const char *
nexus_units (const char *unit)
{
  static const struct { const char *symbol, *udunits; } map[] = {
    { "Å", "angstrom" }, { "Å⁻²", "angstrom-2" }, { "cm²/g", "cm2/g" }, { "°", "degree" },
    { "µm", "um" },
  };

  for (guint i = 0; unit != NULL && i < G_N_ELEMENTS (map); i++)
    if (strcmp (unit, map[i].symbol) == 0)
      return map[i].udunits;
  return unit;
}

/* The columns of @rows: density, energy and the fields, n values each,
 * and the formula and table of every line. Returns n. */
static gsize
gather (const XrlabCliBatchRowOut *rows, gsize n_rows, const XrlabCliFields *fields,
        double **v, const char ***formula, const char ***table)
{
  const guint nq = fields->n;
  gsize n = 0, at = 0;

  for (gsize r = 0; r < n_rows; r++)
    n += rows[r].n_e;
  *v = g_new (double, MAX (n, 1) * (2 + nq));
  *formula = g_new (const char *, MAX (n, 1));
  *table = g_new (const char *, MAX (n, 1));
  for (gsize r = 0; r < n_rows; r++)
    {
      const XrlabCliBatchRowOut *row = &rows[r];

      for (guint k = 0; k < nq; k++)
        {
          int idx = xrlab_quantity_mask_index (fields->mask, fields->order[k]);
          memcpy (*v + (2 + k) * n + at, row->values + (gsize) idx * (row->stride > 0 ? row->stride : row->n_e),
                  row->n_e * sizeof (double));
        }
      for (gsize i = 0; i < row->n_e; i++, at++)
        {
          (*formula)[at] = row->formula;
          (*table)[at] = row->table;
          (*v)[at] = row->density;
          (*v)[n + at] = row->energies_kev[i];
        }
    }
  return n;
}

gboolean
xrlab_cli_batch_write_h5 (const char *path, const XrlabCliBatchRowOut *rows, gsize n_rows,
                          const XrlabCliFields *fields, GCancellable *cancellable,
                          GError **error)
{
  g_autofree double *v = NULL;
  g_autofree const char **formula = NULL, **table = NULL;
  gsize n = gather (rows, n_rows, fields, &v, &formula, &table);
  XrlabH5Writer *w = xrlab_h5_writer_new (path, error);
  const char *group = "/entry/results";
  gboolean ok;

  if (w == NULL)
    return FALSE;
  ok = xrlab_h5_writer_add_group (w, "/entry", "NXentry", error)
       && xrlab_h5_writer_set_string (w, "/entry", "program", "xrlab", error)
       && xrlab_h5_writer_add_group (w, group, "NXcollection", error)
       && xrlab_h5_writer_add_strings_dataset (w, "/entry/results/formula", formula, n, error)
       && xrlab_h5_writer_add_strings_dataset (w, "/entry/results/table", table, n, error);
  for (guint c = 0; ok && c < 2 + fields->n; c++)
    {
      const char *name = c == 0 ? "density_g_cm3" : c == 1 ? "energy_keV"
                         : xrlab_quantity_get_column (fields->order[c - 2]);
      const char *units = c == 0 ? "g/cm3" : c == 1 ? "keV"
                          : nexus_units (xrlab_quantity_get_unit (fields->order[c - 2]));
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
