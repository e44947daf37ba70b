/* xrlab-engine-optics-fetch.c -- the optics service of the engine: fetches
 * of the materials' values on the grid and at one energy
 *
 * A fetch copies the values the edits left in the optics state
 * (xrlab-engine-optics.c) into one allocation (XrlabEngineArrays): one
 * transfer per consumer, counted. Only the newest fetch of a consumer is
 * served, and none while a newer edit waits.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-engine-optics-private.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "xrlab-util.h"

/* ---- fetches ----------------------------------------------------------------- */

XrlabEngineSelection *
xrlab_engine_selection_new (XrlabQuantityMask quantities, const guint *ids, gsize n_ids)
{
  XrlabEngineSelection *s = g_new0 (XrlabEngineSelection, 1);

  s->quantities = quantities & XRLAB_QUANTITY_MASK_ALL;
  if (ids != NULL)
    {
      s->ids = g_memdup2 (ids, MAX (n_ids, 1) * sizeof (guint));
      s->n_ids = n_ids;
    }
  return s;
}

void
xrlab_engine_selection_free (gpointer data)
{
  XrlabEngineSelection *s = data;

  g_free (s->ids);
  g_free (s->path);
  g_free (s);
}

/* Allocates the reply of a fetch for @materials, @n_e energies and the
 * quantities of @mask, with room for the messages of @materials. */
static XrlabEngineArrays *
arrays_alloc (GPtrArray *materials, gsize n_e, XrlabQuantityMask mask, gsize *payload_bytes)
{
  gsize n_m = materials->len;
  gsize n_q = xrlab_quantity_mask_count (mask);
  gsize off_energies = xrlab_engine_align8 (sizeof (XrlabEngineArrays));
  gsize off_values = off_energies + n_e * sizeof (double);
  gsize off_ids = off_values + n_m * n_q * n_e * sizeof (double);
  gsize off_status = off_ids + n_m * sizeof (guint);
  gsize off_messages = xrlab_engine_align8 (off_status + n_m);
  gsize off_strings = off_messages + n_m * sizeof (char *);
  gsize size = off_strings;
  XrlabEngineArrays *a;
  char *base;
  char *strings;
  const char **messages;
  guint *ids;

  for (guint i = 0; i < n_m; i++)
    {
      XrlabEngineMaterial *m = g_ptr_array_index (materials, i);
      if (m->error != NULL)
        size += strlen (m->error->message) + 1;
    }

  base = g_malloc (size);
  a = (XrlabEngineArrays *) base;
  memset (a, 0, sizeof *a);
  a->n_energies = n_e;
  a->n_materials = n_m;
  a->n_quantities = n_q;
  for (int q = 0, k = 0; q < XRLAB_QUANTITY_N; q++)
    if (mask & XRLAB_QUANTITY_BIT (q))
      a->quantities[k++] = q;
  a->energies_kev = (const double *) (base + off_energies);
  a->values = (const double *) (base + off_values);
  ids = (guint *) (base + off_ids);
  messages = (const char **) (base + off_messages);
  strings = base + off_strings;
  for (guint i = 0; i < n_m; i++)
    {
      XrlabEngineMaterial *m = g_ptr_array_index (materials, i);
      ids[i] = m->id;
      messages[i] = NULL;
      if (m->error != NULL)
        {
          gsize len = strlen (m->error->message) + 1;
          memcpy (strings, m->error->message, len);
          messages[i] = strings;
          strings += len;
        }
    }
  a->ids = ids;
  a->status = (const guint8 *) (base + off_status);
  a->messages = messages;
  *payload_bytes = (n_e + n_m * n_q * n_e) * sizeof (double);
  return a;
}

static guint8
material_status (const XrlabEngineMaterial *m, gboolean has_values)
{
  return !has_values ? XRLAB_ENGINE_VALUES_NONE
         : m->error != NULL ? XRLAB_ENGINE_VALUES_STALE
         : XRLAB_ENGINE_VALUES_CURRENT;
}

static void
serve_fetch (XrlabEngineWorker *worker, gpointer state, XrlabRequest *req)
{
  XrlabEngineOptics *optics = state;
  XrlabEngineSelection *sel = req->payload;
  double t0 = xrlab_now ();
  g_autoptr(GPtrArray) materials = NULL;
  GError *error = NULL;
  XrlabEngineArrays *a;
  XrlabEngineStats delta = { .n_requests = 1, .n_transfers = 1 };
  gsize n_e, bytes;
  double *values;
  guint8 *status;

  if (optics->grid == NULL)
    {
      xrlab_request_return_new_error (req, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_NO_GRID,
                                      _("No energy range has been set"));
      return;
    }
  materials = xrlab_engine_optics_resolve_ids (optics, sel->ids, sel->n_ids, &error);
  if (materials == NULL)
    {
      xrlab_request_return_error (req, error);
      return;
    }

  n_e = xrlab_energy_grid_get_size (optics->grid);
  a = arrays_alloc (materials, n_e, sel->quantities, &bytes);
  a->generation = xrlab_engine_shared_get_applied (req->shared, &xrlab_engine_optics_service);
  a->table = xrlab_energy_grid_get_table (optics->grid);
  memcpy ((double *) a->energies_kev, xrlab_energy_grid_get_energies_kev (optics->grid),
          n_e * sizeof (double));
  values = (double *) a->values;
  status = (guint8 *) a->status;
  for (gsize i = 0; i < a->n_materials; i++)
    {
      XrlabEngineMaterial *m = g_ptr_array_index (materials, i);

      status[i] = material_status (m, m->values != NULL);
      for (gsize q = 0; q < a->n_quantities; q++)
        {
          double *dst = values + (i * a->n_quantities + q) * n_e;
          if (m->values != NULL)
            memcpy (dst, m->values + (gsize) a->quantities[q] * n_e, n_e * sizeof (double));
          else
            for (gsize e = 0; e < n_e; e++)
              dst[e] = NAN;
        }
    }
  delta.bytes = bytes;
  delta.transfer_s = xrlab_now () - t0;
  xrlab_engine_shared_note_transfer (req->shared, req->consumer, &delta);
  xrlab_request_return_pointer (req, a, g_free);
}

static void
serve_fetch_at (XrlabEngineWorker *worker, gpointer state, XrlabRequest *req)
{
  XrlabEngineOptics *optics = state;
  XrlabEngineSelection *sel = req->payload;
  double t0 = xrlab_now ();
  g_autoptr(GPtrArray) materials = NULL;
  GError *error = NULL;
  XrlabEngineArrays *a;
  XrlabEngineStats delta = { .n_requests = 1, .n_transfers = 1 };
  gsize bytes;
  double *values;
  guint8 *status;

  if (!isfinite (sel->energy_kev) || sel->energy_kev <= 0.0)
    {
      xrlab_request_return_new_error (req, XRLAB_OPTICS_ERROR, XRLAB_OPTICS_ERROR_ENERGY,
                                      _("The energy must be a positive number of keV, not %g"),
                                      sel->energy_kev);
      return;
    }
  materials = xrlab_engine_optics_resolve_ids (optics, sel->ids, sel->n_ids, &error);
  if (materials == NULL)
    {
      xrlab_request_return_error (req, error);
      return;
    }

  a = arrays_alloc (materials, 1, sel->quantities, &bytes);
  a->generation = xrlab_engine_shared_get_applied (req->shared, &xrlab_engine_optics_service);
  a->table = xrlab_energy_choose_table (optics->grid != NULL
                                        ? xrlab_energy_grid_get_table_choice (optics->grid)
                                        : XRLAB_TABLE_CHOICE_HENKE,
                                        sel->energy_kev, sel->energy_kev);
  *(double *) a->energies_kev = sel->energy_kev;
  values = (double *) a->values;
  status = (guint8 *) a->status;
  for (gsize i = 0; i < a->n_materials; i++)
    {
      XrlabEngineMaterial *m = g_ptr_array_index (materials, i);
      double point[XRLAB_QUANTITY_N];
      gboolean ok = FALSE;

      if (m->formula != NULL)
        {
          XrlabOpticsMaterial om = { m->formula, m->good_density, m->good_thickness };
          g_autoptr(GError) point_error = NULL;
          ok = xrlab_optics_compute_point_for_table (&om, sel->energy_kev, a->table,
                                                     sel->quantities, point, &point_error);
          if (!ok && i == 0 && a->n_materials == 1)
            {
              /* One material and it fails: say why. */
              g_free (a);
              xrlab_request_return_error (req, g_steal_pointer (&point_error));
              return;
            }
        }
      status[i] = material_status (m, ok);
      for (gsize q = 0; q < a->n_quantities; q++)
        values[i * a->n_quantities + q] = ok ? point[a->quantities[q]] : NAN;
    }
  delta.bytes = bytes;
  delta.compute_s = xrlab_now () - t0;
  xrlab_engine_shared_note_transfer (req->shared, req->consumer, &delta);
  xrlab_request_return_pointer (req, a, g_free);
}

/* ---- the kinds --------------------------------------------------------------- */

static const XrlabRequestKind fetch_kind = {
  .name = "fetch",
  .service = &xrlab_engine_optics_service,
  .role = XRLAB_REQUEST_READ,
  .flags = XRLAB_REQUEST_NEWEST_PER_CONSUMER | XRLAB_REQUEST_STALE_AFTER_EDIT,
  .payload_free = xrlab_engine_selection_free,
  .serve = serve_fetch,
};

static const XrlabRequestKind fetch_at_kind = {
  .name = "fetch-at",
  .service = &xrlab_engine_optics_service,
  .role = XRLAB_REQUEST_READ,
  .flags = XRLAB_REQUEST_NEWEST_PER_CONSUMER | XRLAB_REQUEST_STALE_AFTER_EDIT,
  .payload_free = xrlab_engine_selection_free,
  .serve = serve_fetch_at,
};

/* ---- the public API ------------------------------------------------------------- */

static XrlabRequest *
fetch_request_new (XrlabEngine            *self,
                   const XrlabRequestKind *kind,
                   gpointer                source_tag,
                   const char             *consumer,
                   XrlabQuantityMask       quantities,
                   const guint            *ids,
                   gsize                   n_ids,
                   GCancellable           *cancellable,
                   GAsyncReadyCallback     callback,
                   gpointer                user_data)
{
  XrlabRequest *req = xrlab_request_new (self, kind, xrlab_engine_selection_new (quantities, ids, n_ids),
                                         source_tag, cancellable, callback, user_data);

  xrlab_request_set_consumer (req, consumer != NULL ? consumer : "default");
  return req;
}

void
xrlab_engine_fetch_async (XrlabEngine         *self,
                          const char          *consumer,
                          XrlabQuantityMask    quantities,
                          const guint         *ids,
                          gsize                n_ids,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_return_if_fail (XRLAB_IS_ENGINE (self));
  xrlab_request_submit (fetch_request_new (self, &fetch_kind, xrlab_engine_fetch_async,
                                           consumer, quantities, ids, n_ids,
                                           cancellable, callback, user_data));
}

/* Drops a reply whose state a newer edit has replaced since it was made. */
static XrlabEngineArrays *
arrays_propagate (GAsyncResult *result, GError **error)
{
  XrlabEngineArrays *arrays = g_task_propagate_pointer (G_TASK (result), error);

  if (arrays != NULL && xrlab_request_result_superseded (result, arrays->generation, error))
    g_clear_pointer (&arrays, xrlab_engine_arrays_free);
  return arrays;
}

XrlabEngineArrays *
xrlab_engine_fetch_finish (XrlabEngine   *self,
                           GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return arrays_propagate (result, error);
}

void
xrlab_engine_fetch_at_async (XrlabEngine         *self,
                             const char          *consumer,
                             double               energy_kev,
                             XrlabQuantityMask    quantities,
                             const guint         *ids,
                             gsize                n_ids,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  XrlabRequest *req;

  g_return_if_fail (XRLAB_IS_ENGINE (self));
  req = fetch_request_new (self, &fetch_at_kind, xrlab_engine_fetch_at_async,
                           consumer, quantities, ids, n_ids, cancellable, callback, user_data);
  ((XrlabEngineSelection *) req->payload)->energy_kev = energy_kev;
  xrlab_request_submit (req);
}

XrlabEngineArrays *
xrlab_engine_fetch_at_finish (XrlabEngine   *self,
                              GAsyncResult  *result,
                              GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return arrays_propagate (result, error);
}

const double *
xrlab_engine_arrays_get (const XrlabEngineArrays *arrays,
                         gsize                    material_index,
                         XrlabQuantity            quantity)
{
  g_return_val_if_fail (arrays != NULL, NULL);
  g_return_val_if_fail (material_index < arrays->n_materials, NULL);

  for (gsize q = 0; q < arrays->n_quantities; q++)
    if (arrays->quantities[q] == quantity)
      return arrays->values + (material_index * arrays->n_quantities + q) * arrays->n_energies;
  return NULL;
}

void
xrlab_engine_arrays_free (XrlabEngineArrays *arrays)
{
  g_free (arrays);
}
