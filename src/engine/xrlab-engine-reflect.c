/* xrlab-engine-reflect.c -- the stacks service of the engine: its state,
 * its edits (the list, one stack) and the caches per stack and grid
 *
 * State (worker only, XrlabEngineReflect in
 * xrlab-engine-reflect-private.h): the stacks with their current text,
 * their last valid XrlabStack and, per grid, a plan or a transmission.
 * Edits only take the text; the commit after a burst parses each changed
 * stack once. Plans and transmissions are made when a fetch first needs
 * them (xrlab-engine-reflect-fetch.c), since the grid and angles come with
 * the fetch.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-engine-reflect-private.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "xrlab-engine-optics-private.h"

/* ---- payloads ---------------------------------------------------------------- */

typedef struct {
  XrlabStackSpec *specs;     /* one allocation with their strings */
  gsize           n;
  int             error_column;   /* update: set by serve */
} StacksPayload;

static void
stacks_payload_free (gpointer data)
{
  StacksPayload *p = data;

  g_free (p->specs);
  g_free (p);
}

static StacksPayload *
stacks_payload_new (const XrlabStackSpec *specs, gsize n)
{
  StacksPayload *p = g_new0 (StacksPayload, 1);
  gsize size = n * sizeof (XrlabStackSpec);
  char *strings;

  for (gsize i = 0; i < n; i++)
    size += (specs[i].name ? strlen (specs[i].name) + 1 : 0)
            + (specs[i].text ? strlen (specs[i].text) + 1 : 0);
  p->specs = g_malloc (MAX (size, 1));
  p->n = n;
  strings = (char *) (p->specs + n);
  for (gsize i = 0; i < n; i++)
    {
      p->specs[i] = specs[i];
      if (specs[i].name != NULL)
        {
          gsize len = strlen (specs[i].name) + 1;
          p->specs[i].name = memcpy (strings, specs[i].name, len);
          strings += len;
        }
      if (specs[i].text != NULL)
        {
          gsize len = strlen (specs[i].text) + 1;
          p->specs[i].text = memcpy (strings, specs[i].text, len);
          strings += len;
        }
    }
  return p;
}

/* ---- the state ------------------------------------------------------------------ */

static void
cache_slot_clear (XrlabEngineStackCache *c)
{
  g_clear_pointer (&c->grid, xrlab_energy_grid_unref);
  g_clear_pointer (&c->plan, xrlab_reflect_plan_free);
  g_clear_pointer (&c->transmission, g_free);
}

static void
stack_clear_caches (XrlabEngineStack *s)
{
  for (int i = 0; i < XRLAB_ENGINE_STACK_N_CACHED; i++)
    cache_slot_clear (&s->cache[i]);
}

static void
stack_free (XrlabEngineStack *s)
{
  stack_clear_caches (s);
  g_free (s->name);
  g_free (s->text);
  g_free (s->canonical);
  g_clear_pointer (&s->stack, xrlab_stack_unref);
  g_clear_error (&s->error);
  g_free (s);
}

static gpointer
reflect_state_new (XrlabEngineWorker *worker)
{
  XrlabEngineReflect *r = g_new0 (XrlabEngineReflect, 1);

  r->stacks = g_ptr_array_new_with_free_func ((GDestroyNotify) stack_free);
  r->by_id = g_hash_table_new (NULL, NULL);
  return r;
}

static void
reflect_state_free (gpointer state)
{
  XrlabEngineReflect *r = state;

  g_ptr_array_unref (r->stacks);
  g_hash_table_unref (r->by_id);
  g_free (r);
}

static void reflect_commit (XrlabEngineWorker *worker, gpointer state);

const XrlabEngineService xrlab_engine_reflect_service = {
  .name = "stacks",
  .state_new = reflect_state_new,
  .state_free = reflect_state_free,
  .commit = reflect_commit,
};

XrlabEngineReflect *
xrlab_engine_reflect_get (XrlabEngineWorker *worker)
{
  return xrlab_engine_worker_get_state (worker, &xrlab_engine_reflect_service);
}

GPtrArray *
xrlab_engine_reflect_resolve (XrlabEngineReflect *reflect,
                              const guint        *ids,
                              gsize               n_ids,
                              XrlabStackKind      kind,
                              GError            **error)
{
  GPtrArray *list = g_ptr_array_new ();

  if (ids == NULL)
    {
      for (guint i = 0; i < reflect->stacks->len; i++)
        {
          XrlabEngineStack *s = g_ptr_array_index (reflect->stacks, i);
          if (s->kind == kind)
            g_ptr_array_add (list, s);
        }
      return list;
    }
  for (gsize i = 0; i < n_ids; i++)
    {
      XrlabEngineStack *s = g_hash_table_lookup (reflect->by_id, GUINT_TO_POINTER (ids[i]));

      if (s == NULL || s->kind != kind)
        {
          if (s == NULL)
            g_set_error (error, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_NO_MATERIAL,
                         "no stack with id %u", ids[i]);
          else
            g_set_error (error, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_INVALID,
                         "stack %u is a %s stack", ids[i],
                         s->kind == XRLAB_STACK_FILTER ? "filter" : "reflectivity");
          g_ptr_array_unref (list);
          return NULL;
        }
      g_ptr_array_add (list, s);
    }
  return list;
}

gboolean
xrlab_engine_reflect_check_table (XrlabTable table, XrlabEnergyGrid *grid, GError **error)
{
  if (!((int) table >= 0 && table < XRLAB_TABLE_N_TABLES))
    {
      g_set_error (error, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_INVALID, "no such table %d", (int) table);
      return FALSE;
    }
  if (grid != NULL && xrlab_energy_grid_get_table (grid) != table)
    {
      /* TRANSLATORS: two tables' names, "Henke", "Chantler" */
      g_set_error (error, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_INVALID,
                   _("The energies were made for the %s tables, not for the %s tables the curves ask for"),
                   xrlab_table_get_info (xrlab_energy_grid_get_table (grid))->title,
                   xrlab_table_get_info (table)->title);
      return FALSE;
    }
  return TRUE;
}

/* ---- caches ------------------------------------------------------------------ */

/* The slot of @grid, @table and @photo_only in @s, moved to the front;
 * NULL when none. */
static XrlabEngineStackCache *
cache_find (XrlabEngineStack *s, XrlabEnergyGrid *grid, XrlabTable table, gboolean photo_only)
{
  for (int i = 0; i < XRLAB_ENGINE_STACK_N_CACHED && s->cache[i].grid != NULL; i++)
    if (s->cache[i].table == table && !s->cache[i].photo_only == !photo_only
        && xrlab_engine_grids_equal (s->cache[i].grid, grid))
      {
        XrlabEngineStackCache hit = s->cache[i];

        memmove (&s->cache[1], &s->cache[0], (gsize) i * sizeof s->cache[0]);
        s->cache[0] = hit;
        return &s->cache[0];
      }
  return NULL;
}

/* A new slot at the front for @grid (the last one dropped). */
static XrlabEngineStackCache *
cache_add (XrlabEngineStack *s, XrlabEnergyGrid *grid, XrlabTable table, gboolean photo_only)
{
  cache_slot_clear (&s->cache[XRLAB_ENGINE_STACK_N_CACHED - 1]);
  memmove (&s->cache[1], &s->cache[0], (XRLAB_ENGINE_STACK_N_CACHED - 1) * sizeof s->cache[0]);
  memset (&s->cache[0], 0, sizeof s->cache[0]);
  s->cache[0].grid = xrlab_energy_grid_ref (grid);
  s->cache[0].table = table;
  s->cache[0].photo_only = photo_only;
  return &s->cache[0];
}

/* Removes an empty slot (a failed computation) from the front. */
static void
cache_drop_front (XrlabEngineStack *s)
{
  cache_slot_clear (&s->cache[0]);
  memmove (&s->cache[0], &s->cache[1], (XRLAB_ENGINE_STACK_N_CACHED - 1) * sizeof s->cache[0]);
  memset (&s->cache[XRLAB_ENGINE_STACK_N_CACHED - 1], 0, sizeof s->cache[0]);
}

/* An optics cache of @grid: the optics service's, or a kept one taken out
 * (*taken: give it back with xrlab_engine_optics_keep_cache()). */
static XrlabOpticsCache *
optics_cache_for (XrlabEngineWorker *worker, XrlabEnergyGrid *grid, gboolean *taken)
{
  XrlabEngineOptics *optics = xrlab_engine_optics_get (worker);
  XrlabOpticsCache *cache;

  *taken = FALSE;
  if (optics->grid != NULL && xrlab_engine_grids_equal (optics->grid, grid))
    return optics->cache;
  cache = xrlab_engine_optics_take_cache (optics, grid);
  xrlab_optics_cache_set_n_threads (cache, 1);
  *taken = TRUE;
  return cache;
}

/* A plan at the single energy of @grid, δ and β from the grid's tables at
 * that energy. */
static XrlabReflectPlan *
plan_at_energy (XrlabStack *stack, XrlabEnergyGrid *grid, GError **error)
{
  gsize n_m = xrlab_stack_get_n_materials (stack);
  double energy = xrlab_energy_grid_get_energies_kev (grid)[0];
  g_autofree double *delta = g_new (double, MAX (n_m, (gsize) 1));
  g_autofree double *beta = g_new (double, MAX (n_m, (gsize) 1));

  for (gsize m = 0; m < n_m; m++)
    {
      const XrlabStackMaterial *sm = xrlab_stack_get_material (stack, m);
      XrlabOpticsMaterial om = { sm->formula, sm->density_g_cm3, NAN };
      double v[XRLAB_QUANTITY_N];

      if (!xrlab_optics_compute_point_for_table (&om, energy, xrlab_energy_grid_get_table (grid),
                                                 XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_DELTA)
                                                 | XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_BETA),
                                                 v, error))
        {
          g_prefix_error (error, _("Stack material “%s”: "), sm->name);
          return NULL;
        }
      delta[m] = v[XRLAB_QUANTITY_DELTA];
      beta[m] = v[XRLAB_QUANTITY_BETA];
    }
  return xrlab_reflect_plan_new_with_constants (stack, grid, delta, beta, error);
}

static XrlabReflectPlan *
plan_new (XrlabEngineWorker *worker, XrlabStack *stack, XrlabEnergyGrid *grid, GError **error)
{
  XrlabOpticsCache *cache;
  XrlabReflectPlan *plan;
  gboolean taken;

  if (xrlab_energy_grid_get_size (grid) == 1)
    return plan_at_energy (stack, grid, error);
  cache = optics_cache_for (worker, grid, &taken);
  plan = xrlab_reflect_plan_new (stack, cache, error);
  if (taken)
    xrlab_engine_optics_keep_cache (xrlab_engine_optics_get (worker), cache);
  return plan;
}

static gboolean
check_valid (XrlabEngineStack *s, XrlabStackKind kind, GError **error)
{
  if (s->stack != NULL && xrlab_stack_get_kind (s->stack) == kind)
    return TRUE;
  if (s->error != NULL)
    g_propagate_error (error, g_error_copy (s->error));
  else
    g_set_error (error, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_INVALID,
                 _("The stack has never been valid"));
  return FALSE;
}

XrlabReflectPlan *
xrlab_engine_stack_plan (XrlabEngineWorker *worker,
                         XrlabEngineStack  *s,
                         XrlabEnergyGrid   *grid,
                         XrlabTable         table,
                         GError           **error)
{
  XrlabEngineStackCache *c;

  if (!check_valid (s, XRLAB_STACK_REFLECT, error)
      || !xrlab_engine_reflect_check_table (table, grid, error))
    return NULL;
  c = cache_find (s, grid, table, FALSE);
  if (c != NULL && c->plan != NULL)
    return c->plan;
  if (c == NULL)
    c = cache_add (s, grid, table, FALSE);
  c->plan = plan_new (worker, s->stack, grid, error);
  if (c->plan == NULL)
    {
      cache_drop_front (s);
      return NULL;
    }
  return c->plan;
}

XrlabReflectPlan *
xrlab_engine_stack_take_plan (XrlabEngineWorker *worker,
                              XrlabEngineStack  *s,
                              XrlabEnergyGrid   *grid,
                              XrlabTable         table,
                              GError           **error)
{
  XrlabReflectPlan *plan = xrlab_engine_stack_plan (worker, s, grid, table, error);

  if (plan == NULL)
    return NULL;
  /* It is in the front slot now: leave the slot without it. */
  s->cache[0].plan = NULL;
  cache_drop_front (s);
  return plan;
}

void
xrlab_engine_stack_give_plan (XrlabEngineReflect *reflect,
                              guint               id,
                              XrlabTable          table,
                              XrlabReflectPlan   *plan)
{
  XrlabEngineStack *s = g_hash_table_lookup (reflect->by_id, GUINT_TO_POINTER (id));
  XrlabEnergyGrid *grid = xrlab_reflect_plan_get_grid (plan);
  XrlabEngineStackCache *c;

  if (s == NULL || s->stack != xrlab_reflect_plan_get_stack (plan)
      || ((c = cache_find (s, grid, table, FALSE)) != NULL && c->plan != NULL))
    {
      xrlab_reflect_plan_free (plan);
      return;
    }
  if (c == NULL)
    c = cache_add (s, grid, table, FALSE);
  c->plan = plan;
}

const double *
xrlab_engine_stack_transmission (XrlabEngineWorker *worker,
                                 XrlabEngineStack  *s,
                                 XrlabEnergyGrid   *grid,
                                 XrlabTable         table,
                                 gboolean           photo_only,
                                 GError           **error)
{
  XrlabEngineStackCache *c;
  XrlabOpticsCache *cache;
  gboolean taken = FALSE, ok;

  if (!check_valid (s, XRLAB_STACK_FILTER, error)
      || !xrlab_engine_reflect_check_table (table, grid, error))
    return NULL;
  c = cache_find (s, grid, table, photo_only);
  if (c != NULL && c->transmission != NULL)
    return c->transmission;
  if (c == NULL)
    c = cache_add (s, grid, table, photo_only);
  c->transmission = g_new (double, xrlab_energy_grid_get_size (grid));
  /* One energy: a cache of its own, not kept (it would push the kept
   * caches of whole grids out). */
  cache = xrlab_energy_grid_get_size (grid) == 1 ? xrlab_optics_cache_new (grid)
                                                 : optics_cache_for (worker, grid, &taken);
  ok = xrlab_filter_transmission (cache, s->stack, photo_only, c->transmission, NULL, error);
  if (taken)
    xrlab_engine_optics_keep_cache (xrlab_engine_optics_get (worker), cache);
  else if (xrlab_energy_grid_get_size (grid) == 1)
    xrlab_optics_cache_free (cache);
  if (!ok)
    {
      cache_drop_front (s);
      return NULL;
    }
  return c->transmission;
}

/* ---- edits ------------------------------------------------------------------- */

/* Takes the new input of a stack; the commit parses it. */
static void
stack_apply (XrlabEngineStack *s, const XrlabStackSpec *spec)
{
  const char *text = spec->text != NULL ? spec->text : "";

  g_free (s->name);
  s->name = g_strdup (spec->name);
  if (s->text != NULL && s->kind == spec->kind && strcmp (s->text, text) == 0)
    return;  /* nothing changed */
  g_free (s->text);
  s->text = g_strdup (text);
  s->kind = spec->kind;
  s->pending = TRUE;
}

/* Parses the pending input of @s: a valid one becomes the stack (its
 * caches dropped when it differs from the last), an invalid one leaves the
 * last valid stack alone. */
static void
stack_parse_pending (XrlabEngineStack *s)
{
  g_autoptr(XrlabStack) stack = NULL;
  GError *error = NULL;
  int column = 0;

  s->pending = FALSE;
  g_clear_error (&s->error);
  s->error_column = 0;
  if (s->kind == XRLAB_STACK_FILTER)
    stack = xrlab_stack_parse_filter (s->text, &column, &error);
  else
    stack = xrlab_stack_parse_reflect (s->text, &column, &error);
  if (stack == NULL)
    {
      s->error = error;
      s->error_column = column;
      return;
    }

  {
    g_autofree char *canonical = xrlab_stack_to_string (stack);

    if (s->stack != NULL && xrlab_stack_get_kind (s->stack) == s->kind
        && strcmp (s->canonical, canonical) == 0)
      return;  /* the same stack, written differently: keep the caches */
    stack_clear_caches (s);
    g_clear_pointer (&s->stack, xrlab_stack_unref);
    s->stack = g_steal_pointer (&stack);
    g_free (s->canonical);
    s->canonical = g_steal_pointer (&canonical);
  }
}

static gpointer
stack_new (guint id)
{
  XrlabEngineStack *s = g_new0 (XrlabEngineStack, 1);

  s->id = id;
  return s;
}

static void
stack_apply_cb (gpointer item, gconstpointer spec)
{
  stack_apply (item, spec);
}

static void
apply_set_stacks (XrlabEngineWorker *worker, gpointer state, XrlabRequest *req)
{
  XrlabEngineReflect *r = state;
  StacksPayload *p = req->payload;

  xrlab_engine_items_set (&r->stacks, &r->by_id, p->specs, p->n, sizeof *p->specs,
                          G_STRUCT_OFFSET (XrlabStackSpec, id), stack_new, stack_apply_cb,
                          (GDestroyNotify) stack_free);
}

static void
apply_update_stack (XrlabEngineWorker *worker, gpointer state, XrlabRequest *req)
{
  XrlabEngineReflect *r = state;

  xrlab_engine_items_update (r->stacks, r->by_id, &((StacksPayload *) req->payload)->specs[0],
                             G_STRUCT_OFFSET (XrlabStackSpec, id), stack_new, stack_apply_cb);
}

/* After a burst of edits, once: parses every changed stack. */
static void
reflect_commit (XrlabEngineWorker *worker, gpointer state)
{
  XrlabEngineReflect *r = state;

  for (guint i = 0; i < r->stacks->len; i++)
    {
      XrlabEngineStack *s = g_ptr_array_index (r->stacks, i);
      if (s->pending)
        stack_parse_pending (s);
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
serve_set_stacks (XrlabEngineWorker *worker, gpointer state, XrlabRequest *req)
{
  XrlabEngineReflect *r = state;
  StacksPayload *p = req->payload;
  GPtrArray *errors = g_ptr_array_new_full (p->n, error_free0);

  for (gsize k = 0; k < p->n; k++)
    {
      XrlabEngineStack *s = g_hash_table_lookup (r->by_id, GUINT_TO_POINTER (p->specs[k].id));
      g_ptr_array_add (errors, s != NULL && s->error != NULL ? g_error_copy (s->error) : NULL);
    }
  xrlab_request_return_pointer (req, errors, (GDestroyNotify) g_ptr_array_unref);
}

static void
serve_update_stack (XrlabEngineWorker *worker, gpointer state, XrlabRequest *req)
{
  XrlabEngineReflect *r = state;
  StacksPayload *p = req->payload;
  guint id = p->specs[0].id;
  XrlabEngineStack *s = g_hash_table_lookup (r->by_id, GUINT_TO_POINTER (id));

  if (s == NULL || xrlab_engine_shared_key_superseded (req->shared, &xrlab_engine_reflect_service,
                                                       id, req->generation))
    xrlab_request_return_new_error (req, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_SUPERSEDED,
                                    "superseded by a newer edit");
  else if (s->error != NULL)
    {
      p->error_column = s->error_column;
      xrlab_request_return_error (req, g_error_copy (s->error));
    }
  else
    xrlab_request_return_boolean (req, TRUE);
}

static const XrlabRequestKind set_stacks_kind = {
  .name = "set-stacks",
  .service = &xrlab_engine_reflect_service,
  .role = XRLAB_REQUEST_EDIT,
  .payload_free = stacks_payload_free,
  .apply = apply_set_stacks,
  .serve = serve_set_stacks,
};

static const XrlabRequestKind update_stack_kind = {
  .name = "update-stack",
  .service = &xrlab_engine_reflect_service,
  .role = XRLAB_REQUEST_EDIT,
  .payload_free = stacks_payload_free,
  .apply = apply_update_stack,
  .serve = serve_update_stack,
};

/* ---- the public API ------------------------------------------------------------- */

guint64
xrlab_engine_get_stack_generation (XrlabEngine *self)
{
  g_return_val_if_fail (XRLAB_IS_ENGINE (self), 0);
  return xrlab_engine_shared_get_generation (xrlab_engine_get_shared (self),
                                             &xrlab_engine_reflect_service);
}

static void
submit_specs (XrlabRequest *req, const XrlabStackSpec *specs, gsize n)
{
  for (gsize i = 0; i < n; i++)
    if (specs[i].kind != XRLAB_STACK_REFLECT && specs[i].kind != XRLAB_STACK_FILTER)
      {
        xrlab_request_fail (req, g_error_new (XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_INVALID,
                                              "stack %u has no valid kind", specs[i].id));
        return;
      }
  xrlab_request_submit_items_edit (req, stacks_payload_new (specs, n), specs, n, sizeof *specs,
                                   G_STRUCT_OFFSET (XrlabStackSpec, id), "stack");
}

void
xrlab_engine_set_stacks_async (XrlabEngine          *self,
                               const XrlabStackSpec *specs,
                               gsize                 n,
                               GCancellable         *cancellable,
                               GAsyncReadyCallback   callback,
                               gpointer              user_data)
{
  g_return_if_fail (XRLAB_IS_ENGINE (self));
  g_return_if_fail (specs != NULL || n == 0);

  submit_specs (xrlab_request_new (self, &set_stacks_kind, NULL, xrlab_engine_set_stacks_async,
                                   cancellable, callback, user_data),
                specs, n);
}

gboolean
xrlab_engine_set_stacks_finish (XrlabEngine   *self,
                                GAsyncResult  *result,
                                GPtrArray    **stack_errors,
                                GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return xrlab_request_propagate_item_errors (result, stack_errors, error);
}

void
xrlab_engine_update_stack_async (XrlabEngine          *self,
                                 const XrlabStackSpec *spec,
                                 GCancellable         *cancellable,
                                 GAsyncReadyCallback   callback,
                                 gpointer              user_data)
{
  g_return_if_fail (XRLAB_IS_ENGINE (self));
  g_return_if_fail (spec != NULL);

  submit_specs (xrlab_request_new (self, &update_stack_kind, NULL,
                                   xrlab_engine_update_stack_async, cancellable, callback,
                                   user_data),
                spec, 1);
}

gboolean
xrlab_engine_update_stack_finish (XrlabEngine   *self,
                                  GAsyncResult  *result,
                                  int           *error_column,
                                  GError       **error)
{
  XrlabRequest *req;
  StacksPayload *p;

  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  req = xrlab_request_from_result (result);
  p = req->payload;
  if (error_column != NULL)
    *error_column = 0;
  /* A newer edit of the same stack may have been submitted after the
   * worker answered: its answer is the one that counts. */
  if (p != NULL && xrlab_request_edit_superseded (result, p->specs[0].id, error))
    return FALSE;
  if (g_task_propagate_boolean (G_TASK (result), error))
    return TRUE;
  if (error_column != NULL && p != NULL)
    *error_column = p->error_column;
  return FALSE;
}
