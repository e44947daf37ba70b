/* xrlab-engine-optics.c -- the optics service of the engine: its state and
 * its edits (the material list, one material, the energy grid)
 *
 * State (worker only): the materials with their parsed formulas and their
 * computed quantities on the current grid, the grid's cache of element
 * tables and a few caches of earlier grids (XrlabEngineOptics,
 * xrlab-engine-optics-private.h). Edits are applied in order and computed
 * once per round (commit); the fetches (xrlab-engine-optics-fetch.c) copy
 * the kept values into one reply.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-engine-optics-private.h"

#include <string.h>

#include "xrlab-util.h"

/* ---- payloads ---------------------------------------------------------------- */

typedef struct {
  XrlabMaterialSpec *specs;   /* one allocation with their strings */
  gsize              n;
} SpecsPayload;

static void
specs_payload_free (gpointer data)
{
  SpecsPayload *p = data;

  g_free (p->specs);
  g_free (p);
}

static SpecsPayload *
specs_payload_new (const XrlabMaterialSpec *specs, gsize n)
{
  SpecsPayload *p = g_new0 (SpecsPayload, 1);

  p->specs = xrlab_engine_specs_copy (specs, n);
  p->n = n;
  return p;
}

XrlabMaterialSpec *
xrlab_engine_specs_copy (const XrlabMaterialSpec *specs, gsize n)
{
  gsize size = n * sizeof (XrlabMaterialSpec);
  XrlabMaterialSpec *copy;
  char *p;

  for (gsize i = 0; i < n; i++)
    {
      size += (specs[i].name ? strlen (specs[i].name) + 1 : 0);
      size += (specs[i].formula ? strlen (specs[i].formula) + 1 : 0);
    }
  copy = g_malloc (MAX (size, 1));
  p = (char *) (copy + n);
  for (gsize i = 0; i < n; i++)
    {
      copy[i] = specs[i];
      if (specs[i].name != NULL)
        {
          gsize len = strlen (specs[i].name) + 1;
          memcpy (p, specs[i].name, len);
          copy[i].name = p;
          p += len;
        }
      if (specs[i].formula != NULL)
        {
          gsize len = strlen (specs[i].formula) + 1;
          memcpy (p, specs[i].formula, len);
          copy[i].formula = p;
          p += len;
        }
    }
  return copy;
}

/* ---- the state ------------------------------------------------------------------ */

static void
material_free (XrlabEngineMaterial *m)
{
  g_free (m->name);
  g_free (m->formula_text);
  g_clear_pointer (&m->pending_formula, xrlab_formula_unref);
  g_clear_pointer (&m->formula, xrlab_formula_unref);
  g_free (m->values);
  g_clear_error (&m->error);
  g_free (m);
}

static gpointer
optics_state_new (XrlabEngineWorker *worker)
{
  XrlabEngineOptics *optics = g_new0 (XrlabEngineOptics, 1);

  optics->materials = g_ptr_array_new_with_free_func ((GDestroyNotify) material_free);
  optics->by_id = g_hash_table_new (NULL, NULL);
  return optics;
}

static void
optics_state_free (gpointer state)
{
  XrlabEngineOptics *optics = state;

  g_ptr_array_unref (optics->materials);
  g_hash_table_unref (optics->by_id);
  g_clear_pointer (&optics->cache, xrlab_optics_cache_free);
  for (int i = 0; i < XRLAB_ENGINE_N_KEPT_CACHES; i++)
    g_clear_pointer (&optics->kept[i], xrlab_optics_cache_free);
  g_clear_pointer (&optics->grid, xrlab_energy_grid_unref);
  g_free (optics);
}

static void optics_commit (XrlabEngineWorker *worker, gpointer state);

const XrlabEngineService xrlab_engine_optics_service = {
  .name = "optics",
  .state_new = optics_state_new,
  .state_free = optics_state_free,
  .commit = optics_commit,
};

XrlabEngineOptics *
xrlab_engine_optics_get (XrlabEngineWorker *worker)
{
  return xrlab_engine_worker_get_state (worker, &xrlab_engine_optics_service);
}

const char *
xrlab_engine_material_label (const XrlabEngineMaterial *m)
{
  return (m->name != NULL && *m->name != '\0') ? m->name : m->formula_text;
}

GPtrArray *
xrlab_engine_optics_resolve_ids (XrlabEngineOptics *optics,
                                 const guint       *ids,
                                 gsize              n_ids,
                                 GError           **error)
{
  GPtrArray *list = g_ptr_array_new ();

  if (ids == NULL)
    {
      for (guint i = 0; i < optics->materials->len; i++)
        g_ptr_array_add (list, g_ptr_array_index (optics->materials, i));
      return list;
    }
  for (gsize i = 0; i < n_ids; i++)
    {
      XrlabEngineMaterial *m = g_hash_table_lookup (optics->by_id, GUINT_TO_POINTER (ids[i]));
      if (m == NULL)
        {
          g_set_error (error, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_NO_MATERIAL,
                       "no material with id %u", ids[i]);
          g_ptr_array_unref (list);
          return NULL;
        }
      g_ptr_array_add (list, m);
    }
  return list;
}

/* ---- caches ------------------------------------------------------------------ */

gboolean
xrlab_engine_grids_equal (XrlabEnergyGrid *a, XrlabEnergyGrid *b)
{
  gsize n = xrlab_energy_grid_get_size (a);

  if (a == b)
    return TRUE;
  return n == xrlab_energy_grid_get_size (b)
         && xrlab_energy_grid_get_table (a) == xrlab_energy_grid_get_table (b)
         && memcmp (xrlab_energy_grid_get_energies_kev (a),
                    xrlab_energy_grid_get_energies_kev (b), n * sizeof (double)) == 0;
}

XrlabOpticsCache *
xrlab_engine_optics_take_cache (XrlabEngineOptics *optics, XrlabEnergyGrid *grid)
{
  for (int i = 0; i < XRLAB_ENGINE_N_KEPT_CACHES; i++)
    {
      XrlabOpticsCache *c = optics->kept[i];
      if (c != NULL && xrlab_engine_grids_equal (xrlab_optics_cache_get_grid (c), grid))
        {
          memmove (&optics->kept[i], &optics->kept[i + 1],
                   (XRLAB_ENGINE_N_KEPT_CACHES - 1 - i) * sizeof optics->kept[0]);
          optics->kept[XRLAB_ENGINE_N_KEPT_CACHES - 1] = NULL;
          return c;
        }
    }
  return xrlab_optics_cache_new (grid);
}

void
xrlab_engine_optics_keep_cache (XrlabEngineOptics *optics, XrlabOpticsCache *cache)
{
  g_clear_pointer (&optics->kept[XRLAB_ENGINE_N_KEPT_CACHES - 1], xrlab_optics_cache_free);
  memmove (&optics->kept[1], &optics->kept[0],
           (XRLAB_ENGINE_N_KEPT_CACHES - 1) * sizeof optics->kept[0]);
  optics->kept[0] = cache;
}

/* ---- edits ------------------------------------------------------------------- */

/* Takes the new input of a material. A valid input becomes pending (computed
 * once all waiting edits are applied); an invalid one sets the error and
 * leaves the last valid state alone. */
static void
material_apply (XrlabEngineMaterial *m, const XrlabMaterialSpec *spec)
{
  g_autoptr(XrlabFormula) formula = NULL;
  GError *error = NULL;

  g_free (m->name);
  m->name = g_strdup (spec->name);

  if (m->formula_text != NULL && spec->formula != NULL
      && strcmp (m->formula_text, spec->formula) == 0
      && m->density_g_cm3 == spec->density_g_cm3
      && m->thickness_um == spec->thickness_um)
    return;  /* nothing changed */

  g_free (m->formula_text);
  m->formula_text = g_strdup (spec->formula ? spec->formula : "");
  m->density_g_cm3 = spec->density_g_cm3;
  m->thickness_um = spec->thickness_um;
  g_clear_pointer (&m->pending_formula, xrlab_formula_unref);
  m->pending = FALSE;
  g_clear_error (&m->error);

  /* The same formula as the valid one: no need to parse again. */
  if (m->formula != NULL && strcmp (xrlab_formula_get_text (m->formula), m->formula_text) == 0)
    formula = xrlab_formula_ref (m->formula);
  else
    formula = xrlab_formula_parse (m->formula_text, &error);

  /* A material of the list always has a thickness (its transmission is
   * computed with the rest). */
  if (formula == NULL
      || !xrlab_optics_check_material (&(XrlabOpticsMaterial) { formula, spec->density_g_cm3,
                                                                spec->thickness_um },
                                       XRLAB_QUANTITY_MASK_ALL, &error))
    {
      m->error = error;
      return;
    }
  if (m->formula == formula && m->values != NULL
      && m->good_density == spec->density_g_cm3 && m->good_thickness == spec->thickness_um)
    return;  /* back to the valid state */

  m->pending_formula = g_steal_pointer (&formula);
  m->pending_density = spec->density_g_cm3;
  m->pending_thickness = spec->thickness_um;
  m->pending = TRUE;
}

static gpointer
material_new (guint id)
{
  XrlabEngineMaterial *m = g_new0 (XrlabEngineMaterial, 1);

  m->id = id;
  return m;
}

static void
material_apply_cb (gpointer item, gconstpointer spec)
{
  material_apply (item, spec);
}

static void
apply_set_materials (XrlabEngineWorker *worker, gpointer state, XrlabRequest *req)
{
  XrlabEngineOptics *optics = state;
  SpecsPayload *p = req->payload;

  xrlab_engine_items_set (&optics->materials, &optics->by_id, p->specs, p->n, sizeof *p->specs,
                          G_STRUCT_OFFSET (XrlabMaterialSpec, id), material_new,
                          material_apply_cb, (GDestroyNotify) material_free);
}

static void
apply_update_material (XrlabEngineWorker *worker, gpointer state, XrlabRequest *req)
{
  XrlabEngineOptics *optics = state;

  xrlab_engine_items_update (optics->materials, optics->by_id,
                             &((SpecsPayload *) req->payload)->specs[0],
                             G_STRUCT_OFFSET (XrlabMaterialSpec, id), material_new,
                             material_apply_cb);
}

static void
apply_set_grid (XrlabEngineWorker *worker, gpointer state, XrlabRequest *req)
{
  XrlabEngineOptics *optics = state;
  XrlabEnergyGrid *grid = req->payload;

  if (optics->grid != NULL)
    {
      /* Keep the old grid's cache: the user may switch back, a batch may
       * use it. */
      xrlab_engine_optics_keep_cache (optics, g_steal_pointer (&optics->cache));
      xrlab_energy_grid_unref (optics->grid);
    }
  optics->grid = xrlab_energy_grid_ref (grid);
  optics->cache = xrlab_engine_optics_take_cache (optics, grid);
  /* The GUI's material list is small: compute on this thread. */
  xrlab_optics_cache_set_n_threads (optics->cache, 1);
  optics->new_grid = TRUE;
}

/* Computes every quantity of @formula on the grid into a new block; NULL with
 * @error when it cannot. */
static double *
compute_all (XrlabEngineOptics *optics, XrlabFormula *formula, double density, double thickness,
             GError **error)
{
  gsize n_e = xrlab_energy_grid_get_size (optics->grid);
  double *block = g_new (double, XRLAB_QUANTITY_N * MAX (n_e, 1));
  double *out[XRLAB_QUANTITY_N];
  XrlabOpticsMaterial material = { formula, density, thickness };

  for (int q = 0; q < XRLAB_QUANTITY_N; q++)
    out[q] = block + (gsize) q * n_e;
  if (!xrlab_optics_compute (optics->cache, &material, XRLAB_QUANTITY_MASK_ALL, out, error))
    {
      g_free (block);
      return NULL;
    }
  return block;
}

/* The pending input of @m becomes its valid state, or its error. */
static void
compute_pending_material (XrlabEngineOptics *optics, XrlabEngineMaterial *m)
{
  GError *error = NULL;
  double *values = compute_all (optics, m->pending_formula, m->pending_density,
                                m->pending_thickness, &error);

  if (values != NULL)
    {
      g_free (m->values);
      m->values = values;
      g_clear_pointer (&m->formula, xrlab_formula_unref);
      m->formula = g_steal_pointer (&m->pending_formula);
      m->good_density = m->pending_density;
      m->good_thickness = m->pending_thickness;
      g_clear_error (&m->error);
    }
  else
    {
      g_clear_pointer (&m->pending_formula, xrlab_formula_unref);
      g_clear_error (&m->error);
      m->error = error;
    }
  m->pending = FALSE;
}

/* After a burst of edits, once: computes the pending input of every
 * material, or everything when the grid is new. */
static void
optics_commit (XrlabEngineWorker *worker, gpointer state)
{
  XrlabEngineOptics *optics = state;
  gboolean all = optics->new_grid;

  optics->new_grid = FALSE;
  if (optics->grid == NULL)
    return;
  for (guint i = 0; i < optics->materials->len; i++)
    {
      XrlabEngineMaterial *m = g_ptr_array_index (optics->materials, i);
      GError *error = NULL;

      if (m->pending)
        compute_pending_material (optics, m);
      else if (all && m->formula != NULL)
        {
          g_clear_pointer (&m->values, g_free);
          m->values = compute_all (optics, m->formula, m->good_density, m->good_thickness, &error);
          if (m->values == NULL && m->error == NULL)
            m->error = error;
          else
            g_clear_error (&error);
        }
    }
}

/* ---- replies to edits ---------------------------------------------------------- */

static void
error_free0 (gpointer error)
{
  if (error != NULL)
    g_error_free (error);
}

static void
serve_set_materials (XrlabEngineWorker *worker, gpointer state, XrlabRequest *req)
{
  XrlabEngineOptics *optics = state;
  SpecsPayload *p = req->payload;
  GPtrArray *errors = g_ptr_array_new_full (p->n, error_free0);

  for (gsize k = 0; k < p->n; k++)
    {
      XrlabEngineMaterial *m = g_hash_table_lookup (optics->by_id, GUINT_TO_POINTER (p->specs[k].id));
      g_ptr_array_add (errors, m != NULL && m->error != NULL ? g_error_copy (m->error) : NULL);
    }
  xrlab_request_return_pointer (req, errors, (GDestroyNotify) g_ptr_array_unref);
}

static void
serve_update_material (XrlabEngineWorker *worker, gpointer state, XrlabRequest *req)
{
  XrlabEngineOptics *optics = state;
  guint id = ((SpecsPayload *) req->payload)->specs[0].id;
  XrlabEngineMaterial *m = g_hash_table_lookup (optics->by_id, GUINT_TO_POINTER (id));

  /* A newer edit of the same material, or a newer list without it. */
  if (m == NULL || xrlab_engine_shared_key_superseded (req->shared, &xrlab_engine_optics_service,
                                                       id, req->generation))
    xrlab_request_return_new_error (req, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_SUPERSEDED,
                                    "superseded by a newer edit");
  else if (m->error != NULL)
    xrlab_request_return_error (req, g_error_copy (m->error));
  else
    xrlab_request_return_boolean (req, TRUE);
}

/* The grid: says which materials it leaves without values. */
static void
serve_set_grid (XrlabEngineWorker *worker, gpointer state, XrlabRequest *req)
{
  XrlabEngineOptics *optics = state;
  g_autoptr(GString) msg = NULL;

  for (guint k = 0; k < optics->materials->len; k++)
    {
      XrlabEngineMaterial *m = g_ptr_array_index (optics->materials, k);
      if (m->formula != NULL && m->values == NULL && m->error != NULL)
        {
          if (msg == NULL)
            msg = g_string_new (NULL);
          else
            g_string_append (msg, "; ");
          g_string_append_printf (msg, "%s: %s", xrlab_engine_material_label (m), m->error->message);
        }
    }
  if (msg != NULL)
    xrlab_request_return_new_error (req, XRLAB_OPTICS_ERROR, XRLAB_OPTICS_ERROR_ENERGY, "%s", msg->str);
  else
    xrlab_request_return_boolean (req, TRUE);
}

/* ---- the kinds --------------------------------------------------------------- */

static const XrlabRequestKind set_materials_kind = {
  .name = "set-materials",
  .service = &xrlab_engine_optics_service,
  .role = XRLAB_REQUEST_EDIT,
  .payload_free = specs_payload_free,
  .apply = apply_set_materials,
  .serve = serve_set_materials,
};

static const XrlabRequestKind update_material_kind = {
  .name = "update-material",
  .service = &xrlab_engine_optics_service,
  .role = XRLAB_REQUEST_EDIT,
  .payload_free = specs_payload_free,
  .apply = apply_update_material,
  .serve = serve_update_material,
};

static const XrlabRequestKind set_grid_kind = {
  .name = "set-grid",
  .service = &xrlab_engine_optics_service,
  .role = XRLAB_REQUEST_EDIT,
  .payload_free = (GDestroyNotify) xrlab_energy_grid_unref,
  .apply = apply_set_grid,
  .serve = serve_set_grid,
};

/* ---- the public API ------------------------------------------------------------- */

guint64
xrlab_engine_get_generation (XrlabEngine *self)
{
  g_return_val_if_fail (XRLAB_IS_ENGINE (self), 0);
  return xrlab_engine_shared_get_generation (xrlab_engine_get_shared (self),
                                             &xrlab_engine_optics_service);
}

static void
submit_specs (XrlabRequest *req, const XrlabMaterialSpec *specs, gsize n)
{
  xrlab_request_submit_items_edit (req, specs_payload_new (specs, n), specs, n, sizeof *specs,
                                   G_STRUCT_OFFSET (XrlabMaterialSpec, id), "material");
}

void
xrlab_engine_set_materials_async (XrlabEngine             *self,
                                  const XrlabMaterialSpec *specs,
                                  gsize                    n,
                                  GCancellable            *cancellable,
                                  GAsyncReadyCallback      callback,
                                  gpointer                 user_data)
{
  g_return_if_fail (XRLAB_IS_ENGINE (self));
  g_return_if_fail (specs != NULL || n == 0);

  submit_specs (xrlab_request_new (self, &set_materials_kind, NULL,
                                   xrlab_engine_set_materials_async, cancellable, callback,
                                   user_data),
                specs, n);
}

gboolean
xrlab_engine_set_materials_finish (XrlabEngine   *self,
                                   GAsyncResult  *result,
                                   GPtrArray    **material_errors,
                                   GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return xrlab_request_propagate_item_errors (result, material_errors, error);
}

void
xrlab_engine_update_material_async (XrlabEngine             *self,
                                    const XrlabMaterialSpec *spec,
                                    GCancellable            *cancellable,
                                    GAsyncReadyCallback      callback,
                                    gpointer                 user_data)
{
  g_return_if_fail (XRLAB_IS_ENGINE (self));
  g_return_if_fail (spec != NULL);

  submit_specs (xrlab_request_new (self, &update_material_kind, NULL,
                                   xrlab_engine_update_material_async, cancellable, callback,
                                   user_data),
                spec, 1);
}

gboolean
xrlab_engine_update_material_finish (XrlabEngine   *self,
                                     GAsyncResult  *result,
                                     GError       **error)
{
  XrlabRequest *req;
  SpecsPayload *p;

  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  /* A newer edit of the same material may have been submitted after the
   * worker answered: its answer is the one that counts. */
  req = xrlab_request_from_result (result);
  p = req->payload;
  if (p != NULL && xrlab_request_edit_superseded (result, p->specs[0].id, error))
    return FALSE;
  return g_task_propagate_boolean (G_TASK (result), error);
}

void
xrlab_engine_set_grid_async (XrlabEngine         *self,
                             XrlabEnergyGrid     *grid,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  XrlabRequest *req;

  g_return_if_fail (XRLAB_IS_ENGINE (self));
  g_return_if_fail (grid != NULL);

  req = xrlab_request_new (self, &set_grid_kind, xrlab_energy_grid_ref (grid),
                           xrlab_engine_set_grid_async, cancellable, callback, user_data);
  xrlab_request_begin_edit (req, NULL, 0);
  xrlab_request_submit (req);
}

gboolean
xrlab_engine_set_grid_finish (XrlabEngine   *self,
                              GAsyncResult  *result,
                              GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}
