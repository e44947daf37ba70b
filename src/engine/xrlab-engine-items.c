/* xrlab-engine-items.c -- what services whose state is a set of items with
 * ids (the optics' materials, the reflectivity's stacks) share: the id
 * checks, the edit submission, the per-item errors of the reply, and the
 * collection kept in order and by id
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-engine-private.h"

#include <string.h>

static guint
spec_id (gconstpointer spec, gsize id_offset)
{
  guint id;

  memcpy (&id, (const guint8 *) spec + id_offset, sizeof id);
  return id;
}

gboolean
xrlab_engine_check_ids (gconstpointer items, gsize n, gsize stride, gsize id_offset,
                        const char *what, GError **error)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);

  for (gsize i = 0; i < n; i++)
    {
      guint id = spec_id ((const guint8 *) items + i * stride, id_offset);

      if (id == 0)
        {
          g_set_error (error, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_INVALID,
                       "%s %" G_GSIZE_FORMAT " has the id 0, which is reserved", what, i + 1);
          return FALSE;
        }
      if (!g_hash_table_add (seen, GUINT_TO_POINTER (id)))
        {
          g_set_error (error, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_INVALID,
                       "%s id %u appears twice", what, id);
          return FALSE;
        }
    }
  return TRUE;
}

void
xrlab_request_submit_items_edit (XrlabRequest *req, gpointer payload, gconstpointer items,
                                 gsize n, gsize stride, gsize id_offset, const char *what)
{
  GError *error = NULL;
  g_autofree guint *ids = NULL;

  req->payload = payload;
  if (!xrlab_engine_check_ids (items, n, stride, id_offset, what, &error))
    {
      xrlab_request_fail (req, error);
      return;
    }
  ids = g_new (guint, MAX (n, 1));
  for (gsize i = 0; i < n; i++)
    ids[i] = spec_id ((const guint8 *) items + i * stride, id_offset);
  xrlab_request_begin_edit (req, ids, n);
  xrlab_request_submit (req);
}

gboolean
xrlab_request_propagate_item_errors (GAsyncResult *result, GPtrArray **item_errors,
                                     GError **error)
{
  GPtrArray *errors = g_task_propagate_pointer (G_TASK (result), error);

  if (errors == NULL)
    return FALSE;
  if (item_errors != NULL)
    *item_errors = errors;
  else
    g_ptr_array_unref (errors);
  return TRUE;
}

void
xrlab_engine_items_set (GPtrArray **items, GHashTable **by_id, gconstpointer specs, gsize n,
                        gsize stride, gsize id_offset, XrlabEngineItemNew item_new,
                        XrlabEngineItemApply item_apply, GDestroyNotify item_free)
{
  GPtrArray *next = g_ptr_array_new_with_free_func (item_free);
  GHashTable *next_by_id = g_hash_table_new (NULL, NULL);

  for (gsize i = 0; i < n; i++)
    {
      gconstpointer spec = (const guint8 *) specs + i * stride;
      guint id = spec_id (spec, id_offset);
      gpointer item = g_hash_table_lookup (*by_id, GUINT_TO_POINTER (id));

      if (item != NULL)
        {
          /* Move it over, keeping its state. */
          g_hash_table_remove (*by_id, GUINT_TO_POINTER (id));
          g_ptr_array_set_free_func (*items, NULL);
          g_ptr_array_remove_fast (*items, item);
          g_ptr_array_set_free_func (*items, item_free);
        }
      else
        item = item_new (id);
      item_apply (item, spec);
      g_ptr_array_add (next, item);
      g_hash_table_insert (next_by_id, GUINT_TO_POINTER (id), item);
    }
  g_ptr_array_unref (*items);
  g_hash_table_unref (*by_id);
  *items = next;
  *by_id = next_by_id;
}

void
xrlab_engine_items_update (GPtrArray *items, GHashTable *by_id, gconstpointer spec,
                           gsize id_offset, XrlabEngineItemNew item_new,
                           XrlabEngineItemApply item_apply)
{
  guint id = spec_id (spec, id_offset);
  gpointer item = g_hash_table_lookup (by_id, GUINT_TO_POINTER (id));

  if (item == NULL)
    {
      item = item_new (id);
      g_ptr_array_add (items, item);
      g_hash_table_insert (by_id, GUINT_TO_POINTER (id), item);
    }
  item_apply (item, spec);
}
