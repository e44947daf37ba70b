/* xrlab-engine-export.c -- the export service of the engine: CSV files of
 * the optics service's values, written by the worker itself
 *
 * No state of its own: an export reads the materials and the grid of the
 * optics service (xrlab-engine-optics-private.h) and writes the file
 * atomically (xrlab_atomic_file_*()), so nothing passes through the caller.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-engine-optics-private.h"

#include <stdio.h>

#include <glib/gi18n-lib.h>

#include "xrlab-util.h"

static const XrlabEngineService export_service = {
  .name = "export",
};

/* Materials that have no values cannot be exported. */
static gboolean
check_exportable (GPtrArray *materials, GError **error)
{
  for (guint i = 0; i < materials->len; i++)
    {
      XrlabEngineMaterial *m = g_ptr_array_index (materials, i);
      if (m->values == NULL)
        {
          g_set_error (error, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_INVALID,
                       _("“%s” has no valid values to export: %s"),
                       xrlab_engine_material_label (m),
                       m->error ? m->error->message : _("no input"));
          return FALSE;
        }
    }
  return TRUE;
}

/* The comment lines and the header line. */
static void
write_header (FILE *f, XrlabEnergyGrid *grid, GPtrArray *materials, XrlabQuantityMask per_material,
              gboolean wavelength)
{
  const XrlabTableInfo *table = xrlab_table_get_info (xrlab_energy_grid_get_table (grid));
  g_autofree char *comment = xrlab_table_format_comment (xrlab_energy_grid_get_table (grid),
                                                         xrlab_energy_grid_get_table_choice (grid));
  char buf[XRLAB_DTOA_BUFSIZE];

  fprintf (f, "# xrlab %s: X-ray optical constants from the %s atomic scattering factors\n",
           PACKAGE_VERSION, table->title);
  fputs (comment, f);
  for (guint i = 0; i < materials->len; i++)
    {
      XrlabEngineMaterial *m = g_ptr_array_index (materials, i);
      fprintf (f, "# %s: formula %s, density %s g/cm3", xrlab_engine_material_label (m),
               xrlab_formula_get_text (m->formula), xrlab_format_double (m->good_density, buf));
      fprintf (f, ", thickness %s um%s\n", xrlab_format_double (m->good_thickness, buf),
               m->error ? " (the current input is not valid; these are the last valid values)" : "");
    }
  fputs ("energy_keV", f);
  if (wavelength)
    fputs (",wavelength_A", f);
  for (guint i = 0; i < materials->len; i++)
    {
      XrlabEngineMaterial *m = g_ptr_array_index (materials, i);
      for (int q = 0; q < XRLAB_QUANTITY_N; q++)
        if (per_material & XRLAB_QUANTITY_BIT (q))
          {
            g_autofree char *col = g_strdup_printf ("%s:%s", xrlab_engine_material_label (m),
                                                    xrlab_quantity_get_column (q));
            g_autoptr(GString) field = g_string_new (NULL);
            xrlab_csv_append_field (field, col);
            fputc (',', f);
            fputs (field->str, f);
          }
    }
  fputc ('\n', f);
}

/* One row per energy; FALSE when cancelled. */
static gboolean
write_rows (FILE *f, XrlabEnergyGrid *grid, GPtrArray *materials, XrlabQuantityMask per_material,
            gboolean wavelength, GCancellable *cancellable)
{
  gsize n_e = xrlab_energy_grid_get_size (grid);
  const double *energies = xrlab_energy_grid_get_energies_kev (grid);
  char buf[XRLAB_DTOA_BUFSIZE];

  for (gsize e = 0; e < n_e; e++)
    {
      if (e % 4096 == 0 && g_cancellable_is_cancelled (cancellable))
        return FALSE;
      fputs (xrlab_format_double (energies[e], buf), f);
      if (wavelength)
        {
          XrlabEngineMaterial *m0 = materials->len > 0 ? g_ptr_array_index (materials, 0) : NULL;
          fputc (',', f);
          fputs (xrlab_format_double (m0 ? m0->values[XRLAB_QUANTITY_WAVELENGTH * n_e + e]
                                         : xrlab_kev_to_angstrom (energies[e]), buf), f);
        }
      for (guint i = 0; i < materials->len; i++)
        {
          XrlabEngineMaterial *m = g_ptr_array_index (materials, i);
          for (int q = 0; q < XRLAB_QUANTITY_N; q++)
            if (per_material & XRLAB_QUANTITY_BIT (q))
              {
                fputc (',', f);
                fputs (xrlab_format_double (m->values[(gsize) q * n_e + e], buf), f);
              }
        }
      fputc ('\n', f);
    }
  return TRUE;
}

static void
serve_export (XrlabEngineWorker *worker, gpointer state, XrlabRequest *req)
{
  XrlabEngineOptics *optics = xrlab_engine_optics_get (worker);
  XrlabEngineSelection *sel = req->payload;
  double t0 = xrlab_now ();
  g_autoptr(GPtrArray) materials = NULL;
  GError *error = NULL;
  XrlabAtomicFile *af;
  FILE *f;
  XrlabEngineStats delta = { .n_requests = 1, .n_exports = 1 };
  XrlabQuantityMask per_material = sel->quantities & ~XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_WAVELENGTH);
  gboolean wavelength = (sel->quantities & XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_WAVELENGTH)) != 0;
  long size;

  if (optics->grid == NULL)
    {
      xrlab_request_return_new_error (req, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_NO_GRID,
                                      _("No energy range has been set"));
      return;
    }
  materials = xrlab_engine_optics_resolve_ids (optics, sel->ids, sel->n_ids, &error);
  if (materials == NULL || !check_exportable (materials, &error))
    {
      xrlab_request_return_error (req, error);
      return;
    }

  af = xrlab_atomic_file_open (sel->path, &error);
  if (af == NULL)
    {
      xrlab_request_return_error (req, error);
      return;
    }
  f = xrlab_atomic_file_stream (af);
  write_header (f, optics->grid, materials, per_material, wavelength);
  if (!write_rows (f, optics->grid, materials, per_material, wavelength,
                   xrlab_request_get_cancellable (req)))
    {
      xrlab_atomic_file_abort (af);
      xrlab_request_return_new_error (req, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                      _("The export was cancelled"));
      return;
    }
  size = ftell (f);
  if (!xrlab_atomic_file_commit (af, &error))
    {
      xrlab_request_return_error (req, error);
      return;
    }
  delta.export_bytes = size > 0 ? (guint64) size : 0;
  delta.transfer_s = xrlab_now () - t0;
  xrlab_engine_shared_account (req->shared, req->consumer, &delta);
  xrlab_request_return_boolean (req, TRUE);
}

static const XrlabRequestKind export_kind = {
  .name = "export-csv",
  .service = &export_service,
  .role = XRLAB_REQUEST_READ,
  .payload_free = xrlab_engine_selection_free,
  .serve = serve_export,
};

void
xrlab_engine_export_csv_async (XrlabEngine         *self,
                               const char          *path,
                               XrlabQuantityMask    quantities,
                               const guint         *ids,
                               gsize                n_ids,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  XrlabEngineSelection *sel;
  XrlabRequest *req;

  g_return_if_fail (XRLAB_IS_ENGINE (self));
  g_return_if_fail (path != NULL);

  sel = xrlab_engine_selection_new (quantities, ids, n_ids);
  sel->path = g_strdup (path);
  req = xrlab_request_new (self, &export_kind, sel, xrlab_engine_export_csv_async,
                           cancellable, callback, user_data);
  xrlab_request_set_consumer (req, "export");
  xrlab_request_submit (req);
}

gboolean
xrlab_engine_export_csv_finish (XrlabEngine   *self,
                                GAsyncResult  *result,
                                GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}
