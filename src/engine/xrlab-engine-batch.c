/* xrlab-engine-batch.c -- the batch service of the engine: many materials on
 * one grid, as a job on the job lane
 *
 * A batch touches no material of the list. On the worker, prepare takes a
 * cache of element tables for its grid (a kept one or a new one) out of the
 * optics service's state; on the lane, run parses and checks every material
 * and computes them in parallel (xrlab_optics_batch() on the one pool),
 * posting progress; back on the worker, finish gives the cache back to be
 * kept and answers. Edits and fetches are answered meanwhile.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-engine-optics-private.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "xrlab-parallel.h"
#include "xrlab-util.h"

/* How often progress reaches the caller at most [s]. */
#define BATCH_PROGRESS_INTERVAL_S 0.05

static const XrlabEngineService batch_service = {
  .name = "batch",
};

typedef struct {
  /* The input (one transfer). */
  XrlabMaterialSpec *specs;
  gsize              n;
  XrlabEnergyGrid   *grid;
  XrlabQuantityMask  quantities;
  /* Taken by prepare, given back by finish. */
  XrlabOpticsCache  *cache;
  /* What run made. */
  XrlabEngineBatch  *batch;
  GError            *error;
  double             compute_s;
} BatchPayload;

static void
batch_payload_free (gpointer data)
{
  BatchPayload *p = data;

  g_free (p->specs);
  g_clear_pointer (&p->grid, xrlab_energy_grid_unref);
  g_clear_pointer (&p->cache, xrlab_optics_cache_free);
  g_clear_pointer (&p->batch, xrlab_engine_batch_free);
  g_clear_error (&p->error);
  g_free (p);
}

/* ---- progress -------------------------------------------------------------- */

/* From xrlab_optics_batch(), on the lane. */
static void
post_progress (gsize done, gsize total, gpointer data)
{
  XrlabRequest *req = data;
  XrlabEngineCount s = { done, ((BatchPayload *) req->payload)->n };

  xrlab_engine_progress_post (req->progress, &s);
}

/* ---- the job ------------------------------------------------------------------ */

static gboolean
batch_prepare (XrlabEngineWorker *worker, gpointer state, XrlabRequest *req)
{
  BatchPayload *p = req->payload;

  if (xrlab_quantity_mask_count (p->quantities) == 0)
    {
      xrlab_request_return_new_error (req, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_INVALID,
                                      _("No quantity was asked for"));
      return FALSE;
    }
  p->cache = xrlab_engine_optics_take_cache (xrlab_engine_optics_get (worker), p->grid);
  xrlab_optics_cache_set_n_threads (p->cache, 0);
  return TRUE;
}

/* The reply, one allocation; NULL with @error when there is not memory for
 * it. */
static XrlabEngineBatch *
batch_alloc (BatchPayload *p, GError **error)
{
  gsize n_m = p->n;
  gsize n_e = xrlab_energy_grid_get_size (p->grid);
  gsize n_q = xrlab_quantity_mask_count (p->quantities);
  gsize off_energies = xrlab_engine_align8 (sizeof (XrlabEngineBatch));
  gsize off_scalars = off_energies + n_e * sizeof (double);
  gsize off_errors = off_scalars + 3 * n_m * sizeof (double);
  gsize off_values = xrlab_engine_align8 (off_errors + n_m * sizeof (GError *));
  gsize size = off_values + n_m * n_q * n_e * sizeof (double);
  char *base = g_try_malloc (size);
  XrlabEngineBatch *batch;
  double *mw;

  if (base == NULL)
    {
      g_autofree char *materials = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%zu material",
                                                                 "%zu materials", n_m), n_m);
      g_autofree char *energies = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%zu energy",
                                                                "%zu energies", n_e), n_e);

      /* TRANSLATORS: "%zu materials" × "%zu energies" */
      g_set_error (error, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_INVALID,
                   _("Not enough memory for %s × %s"), materials, energies);
      return NULL;
    }
  batch = (XrlabEngineBatch *) base;
  memset (batch, 0, sizeof *batch);
  batch->n_materials = n_m;
  batch->n_energies = n_e;
  batch->n_quantities = n_q;
  batch->quantities = p->quantities;
  batch->table = xrlab_energy_grid_get_table (p->grid);
  batch->energies_kev = (const double *) (base + off_energies);
  memcpy ((double *) batch->energies_kev, xrlab_energy_grid_get_energies_kev (p->grid),
          n_e * sizeof (double));
  mw = (double *) (base + off_scalars);
  batch->molecular_weight_g_mol = mw;
  batch->electrons = mw + n_m;
  batch->electron_density_per_a3 = mw + 2 * n_m;
  for (gsize i = 0; i < 3 * n_m; i++)
    mw[i] = NAN;
  batch->errors = (GError **) (base + off_errors);
  memset (batch->errors, 0, n_m * sizeof (GError *));
  batch->values = (double *) (base + off_values);
  return batch;
}

/* A formula of @text, parsed once per @memo (text → formula). */
static XrlabFormula *
memo_parse (GHashTable *memo, const char *text, GError **error)
{
  XrlabFormula *f = g_hash_table_lookup (memo, text);

  if (f != NULL)
    return xrlab_formula_ref (f);
  f = xrlab_formula_parse (text, error);
  if (f != NULL)
    g_hash_table_insert (memo, g_strdup (text), xrlab_formula_ref (f));
  return f;
}

static GHashTable *
memo_new (void)
{
  return g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                (GDestroyNotify) xrlab_formula_unref);
}

/* Parses (once per text of @memo) and checks every material; the good ones
 * go into @om, packed, with their index in @index. Returns how many are
 * good. */
static gsize
batch_parse (BatchPayload *p, XrlabEngineBatch *batch, XrlabFormula **formulas,
             XrlabOpticsMaterial *om, gsize *index, GHashTable *memo)
{
  gsize n_ok = 0;

  for (gsize m = 0; m < p->n; m++)
    {
      const XrlabMaterialSpec *spec = &p->specs[m];

      formulas[m] = memo_parse (memo, spec->formula ? spec->formula : "", &batch->errors[m]);
      if (formulas[m] == NULL)
        continue;
      om[n_ok].formula = formulas[m];
      om[n_ok].density_g_cm3 = spec->density_g_cm3;
      om[n_ok].thickness_um = spec->thickness_um;
      /* A material always comes with a thickness, checked as in the list. */
      if (!xrlab_optics_check_material (&om[n_ok], XRLAB_QUANTITY_MASK_ALL, &batch->errors[m]))
        continue;
      index[n_ok] = m;
      n_ok++;
    }
  return n_ok;
}

/* Spreads the packed blocks to their materials, from the back so that
 * nothing is overwritten before it is moved; failed ones are NaN. */
static void
batch_spread (BatchPayload *p, XrlabEngineBatch *batch, XrlabFormula **formulas,
              const gsize *index, gsize n_ok, GError **om_errors)
{
  gsize block = batch->n_quantities * batch->n_energies;
  double *mw = (double *) batch->molecular_weight_g_mol;
  double *electrons = (double *) batch->electrons;
  double *edens = (double *) batch->electron_density_per_a3;
  gsize k = n_ok;

  for (gsize m = p->n; m-- > 0;)
    {
      double *dst = batch->values + m * block;

      if (k > 0 && index[k - 1] == m)
        {
          k--;
          if (om_errors[k] == NULL)
            {
              if (k != m)
                memmove (dst, batch->values + k * block, block * sizeof (double));
              mw[m] = xrlab_formula_get_molecular_weight (formulas[m]);
              electrons[m] = xrlab_formula_get_electrons (formulas[m]);
              edens[m] = xrlab_optics_electron_density (formulas[m], p->specs[m].density_g_cm3);
              continue;
            }
          batch->errors[m] = g_steal_pointer (&om_errors[k]);
        }
      for (gsize j = 0; j < block; j++)
        dst[j] = NAN;
    }
}

/* On the lane: touches only the payload (its cache included). */
static void
batch_run (XrlabRequest *req, GCancellable *cancellable)
{
  BatchPayload *p = req->payload;
  double t0 = xrlab_now ();
  gsize n_m = p->n;
  XrlabFormula **formulas;
  XrlabOpticsMaterial *om;
  gsize *index;
  GError **om_errors;
  gsize n_ok;

  p->batch = batch_alloc (p, &p->error);
  if (p->batch == NULL)
    return;

  formulas = g_new0 (XrlabFormula *, MAX (n_m, 1));
  om = g_new (XrlabOpticsMaterial, MAX (n_m, 1));
  index = g_new (gsize, MAX (n_m, 1));
  om_errors = g_new0 (GError *, MAX (n_m, 1));
  {
    g_autoptr(GHashTable) memo = memo_new ();
    n_ok = batch_parse (p, p->batch, formulas, om, index, memo);
  }

  if (xrlab_optics_batch (p->cache, om, n_ok, p->quantities, p->batch->values, om_errors,
                          req->progress ? post_progress : NULL, req, cancellable, &p->error))
    batch_spread (p, p->batch, formulas, index, n_ok, om_errors);
  else
    g_clear_pointer (&p->batch, xrlab_engine_batch_free);

  for (gsize m = 0; m < n_m; m++)
    g_clear_pointer (&formulas[m], xrlab_formula_unref);
  for (gsize k = 0; k < n_ok; k++)
    g_clear_error (&om_errors[k]);
  g_free (formulas);
  g_free (om);
  g_free (index);
  g_free (om_errors);
  p->compute_s = xrlab_now () - t0;
}

static void
batch_finish (XrlabEngineWorker *worker, gpointer state, XrlabRequest *req)
{
  BatchPayload *p = req->payload;
  XrlabEngineStats delta = { .n_requests = 1, .compute_s = p->compute_s };

  xrlab_engine_optics_keep_cache (xrlab_engine_optics_get (worker), g_steal_pointer (&p->cache));
  if (p->batch == NULL)
    {
      xrlab_engine_shared_account (req->shared, req->consumer, &delta);
      xrlab_request_return_error (req, g_steal_pointer (&p->error));
      return;
    }
  delta.n_transfers = 1;
  delta.bytes = (p->batch->n_energies + 3 * p->batch->n_materials
                 + p->batch->n_materials * p->batch->n_quantities * p->batch->n_energies)
                * sizeof (double);
  xrlab_engine_shared_note_transfer (req->shared, req->consumer, &delta);
  xrlab_request_return_pointer (req, g_steal_pointer (&p->batch),
                                (GDestroyNotify) xrlab_engine_batch_free);
}

static const XrlabRequestKind batch_kind = {
  .name = "batch",
  .service = &batch_service,
  .role = XRLAB_REQUEST_JOB,
  .payload_free = batch_payload_free,
  .prepare = batch_prepare,
  .run = batch_run,
  .finish = batch_finish,
};

/* ---- many grids in one request ----------------------------------------------------- */

/* Groups with at most this many values (energies × materials) are computed
 * point by point, many groups to a part of one parallel loop; larger ones
 * on a cache of their grid (xrlab_optics_batch()), one after the other. */
#define SMALL_GROUP_VALUES 256
/* Values per part of the loop over small groups. */
#define PART_VALUES 16384

typedef struct {
  BatchPayload       p;           /* specs, n, grid, quantities; batch and error */
  XrlabFormula     **formulas;
  XrlabOpticsMaterial *om;
  gsize             *index;
  GError           **om_errors;
  gsize              n_ok;
} GroupWork;

typedef struct {
  GroupWork         *groups;
  gsize              n_groups;
  XrlabQuantityMask  quantities;
  gsize              n_materials;   /* in all */
  /* what run made */
  XrlabEngineBatch **batches;
  GError            *error;
  double             compute_s;
  /* the loop over the groups */
  gsize             *part_start;    /* n_parts + 1 group indices */
  guint              n_parts;
  gsize              done;          /* atomic: materials done */
  GCancellable      *cancellable;
  GThread           *caller;
  XrlabRequest      *req;
} GroupsPayload;

static void
group_work_clear (GroupWork *g)
{
  for (gsize m = 0; g->formulas && m < g->p.n; m++)
    g_clear_pointer (&g->formulas[m], xrlab_formula_unref);
  for (gsize k = 0; g->om_errors && k < g->n_ok; k++)
    g_clear_error (&g->om_errors[k]);
  g_clear_pointer (&g->formulas, g_free);
  g_clear_pointer (&g->om, g_free);
  g_clear_pointer (&g->index, g_free);
  g_clear_pointer (&g->om_errors, g_free);
  g_free (g->p.specs);
  g->p.specs = NULL;
  g_clear_pointer (&g->p.grid, xrlab_energy_grid_unref);
  g_clear_pointer (&g->p.batch, xrlab_engine_batch_free);
  g_clear_error (&g->p.error);
}

static void
groups_payload_free (gpointer data)
{
  GroupsPayload *p = data;

  for (gsize i = 0; i < p->n_groups; i++)
    group_work_clear (&p->groups[i]);
  if (p->batches != NULL)
    xrlab_engine_batch_groups_free (p->batches, p->n_groups);
  g_free (p->groups);
  g_free (p->part_start);
  g_clear_error (&p->error);
  g_free (p);
}

static gboolean
group_is_small (const GroupWork *g)
{
  return (guint64) g->p.n * xrlab_energy_grid_get_size (g->p.grid) <= SMALL_GROUP_VALUES;
}

/* The reply block and the parsed materials of @g (formulas parsed once
 * per @memo). FALSE without memory. */
static gboolean
group_begin (GroupWork *g, GHashTable *memo)
{
  gsize n_m = MAX (g->p.n, 1);

  if ((g->p.batch = batch_alloc (&g->p, &g->p.error)) == NULL)
    return FALSE;
  g->formulas = g_new0 (XrlabFormula *, n_m);
  g->om = g_new (XrlabOpticsMaterial, n_m);
  g->index = g_new (gsize, n_m);
  g->om_errors = g_new0 (GError *, n_m);
  g->n_ok = batch_parse (&g->p, g->p.batch, g->formulas, g->om, g->index, memo);
  return TRUE;
}

/* A small group, point by point: the values of xrlab_optics_batch(). */
static void
group_compute_points (GroupWork *g)
{
  XrlabEngineBatch *b = g->p.batch;
  const double *e = xrlab_energy_grid_get_energies_kev (g->p.grid);
  const gsize n_e = b->n_energies, n_q = b->n_quantities;

  for (gsize k = 0; k < g->n_ok; k++)
    {
      double *block = b->values + k * n_q * n_e;

      for (gsize i = 0; i < n_e && g->om_errors[k] == NULL; i++)
        {
          double v[XRLAB_QUANTITY_N];
          gsize qi = 0;

          if (!xrlab_optics_compute_point_for_table (&g->om[k], e[i],
                                                     xrlab_energy_grid_get_table (g->p.grid),
                                                     g->p.quantities, v, &g->om_errors[k]))
            break;
          for (int q = 0; q < XRLAB_QUANTITY_N; q++)
            if (g->p.quantities & XRLAB_QUANTITY_BIT (q))
              block[(qi++) * n_e + i] = v[q];
        }
    }
  batch_spread (&g->p, b, g->formulas, g->index, g->n_ok, g->om_errors);
}

/* One part of the loop: the groups [part_start[part], part_start[part + 1]),
 * parsed, and computed when small. */
static void
groups_part (gpointer data, guint part)
{
  GroupsPayload *p = data;
  g_autoptr(GHashTable) memo = NULL;
  gsize n = 0;

  if (p->cancellable && g_cancellable_is_cancelled (p->cancellable))
    return;
  memo = memo_new ();
  for (gsize i = p->part_start[part]; i < p->part_start[part + 1]; i++)
    {
      GroupWork *g = &p->groups[i];

      if (!group_begin (g, memo))
        continue;
      if (group_is_small (g))
        {
          group_compute_points (g);
          n += g->p.n;
        }
    }
  g_atomic_pointer_add (&p->done, (gssize) n);
  if (p->req->progress != NULL && g_thread_self () == p->caller)
    {
      XrlabEngineCount snap = { (gsize) g_atomic_pointer_get (&p->done), p->n_materials };
      xrlab_engine_progress_post (p->req->progress, &snap);
    }
}

/* A large group on a cache of its grid (the pool inside). */
static gboolean
group_compute_cache (GroupsPayload *p, GroupWork *g, GError **error)
{
  g_autoptr(GError) local = NULL;
  XrlabOpticsCache *cache = xrlab_optics_cache_new (g->p.grid);
  gboolean ok;

  xrlab_optics_cache_set_n_threads (cache, 0);
  ok = xrlab_optics_batch (cache, g->om, g->n_ok, g->p.quantities, g->p.batch->values,
                           g->om_errors, NULL, NULL, p->cancellable, &local);
  xrlab_optics_cache_free (cache);
  if (!ok)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  batch_spread (&g->p, g->p.batch, g->formulas, g->index, g->n_ok, g->om_errors);
  return TRUE;
}

/* Cuts the groups into parts of about PART_VALUES values. */
static void
groups_plan_parts (GroupsPayload *p)
{
  GArray *starts = g_array_new (FALSE, FALSE, sizeof (gsize));
  gsize acc = 0, zero = 0;

  g_array_append_val (starts, zero);
  for (gsize i = 0; i < p->n_groups; i++)
    {
      const GroupWork *g = &p->groups[i];

      acc += group_is_small (g) ? g->p.n * xrlab_energy_grid_get_size (g->p.grid) + 1 : 1;
      if (acc >= PART_VALUES || i + 1 == p->n_groups)
        {
          gsize next = i + 1;
          g_array_append_val (starts, next);
          acc = 0;
        }
    }
  p->n_parts = starts->len - 1;
  p->part_start = (gsize *) g_array_free (starts, FALSE);
}

static void
groups_run (XrlabRequest *req, GCancellable *cancellable)
{
  GroupsPayload *p = req->payload;
  double t0 = xrlab_now ();
  gsize n_values = 0;

  p->cancellable = cancellable;
  p->caller = g_thread_self ();
  p->req = req;
  for (gsize i = 0; i < p->n_groups; i++)
    n_values += p->groups[i].p.n * xrlab_energy_grid_get_size (p->groups[i].p.grid);
  groups_plan_parts (p);
  xrlab_parallel_run (n_values >= 4096 ? xrlab_parallel_default () : NULL, p->n_parts,
                      groups_part, p);
  for (gsize i = 0; i < p->n_groups && p->error == NULL; i++)
    {
      GroupWork *g = &p->groups[i];

      if (g->p.error != NULL)
        p->error = g_steal_pointer (&g->p.error);
      else if (g_cancellable_set_error_if_cancelled (cancellable, &p->error))
        break;
      else if (!group_is_small (g))
        {
          group_compute_cache (p, g, &p->error);
          g_atomic_pointer_add (&p->done, (gssize) g->p.n);
          if (req->progress)
            {
              XrlabEngineCount snap = { (gsize) g_atomic_pointer_get (&p->done), p->n_materials };
              xrlab_engine_progress_post (req->progress, &snap);
            }
        }
    }
  if (p->error == NULL)
    {
      p->batches = g_new0 (XrlabEngineBatch *, MAX (p->n_groups, 1));
      for (gsize i = 0; i < p->n_groups; i++)
        p->batches[i] = g_steal_pointer (&p->groups[i].p.batch);
    }
  for (gsize i = 0; i < p->n_groups; i++)
    group_work_clear (&p->groups[i]);
  p->compute_s = xrlab_now () - t0;
}

static gboolean
groups_prepare (XrlabEngineWorker *worker, gpointer state, XrlabRequest *req)
{
  GroupsPayload *p = req->payload;

  if (xrlab_quantity_mask_count (p->quantities) == 0)
    {
      xrlab_request_return_new_error (req, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_INVALID,
                                      _("No quantity was asked for"));
      return FALSE;
    }
  return TRUE;
}

static void
groups_finish (XrlabEngineWorker *worker, gpointer state, XrlabRequest *req)
{
  GroupsPayload *p = req->payload;
  XrlabEngineStats delta = { .n_requests = 1, .compute_s = p->compute_s };

  if (p->batches == NULL)
    {
      xrlab_engine_shared_account (req->shared, req->consumer, &delta);
      xrlab_request_return_error (req, g_steal_pointer (&p->error));
      return;
    }
  delta.n_transfers = 1;
  for (gsize i = 0; i < p->n_groups; i++)
    delta.bytes += (p->batches[i]->n_energies + 3 * p->batches[i]->n_materials
                    + p->batches[i]->n_materials * p->batches[i]->n_quantities
                      * p->batches[i]->n_energies) * sizeof (double);
  xrlab_engine_shared_note_transfer (req->shared, req->consumer, &delta);
  xrlab_request_return_pointer (req, g_steal_pointer (&p->batches), g_free);
}

static const XrlabRequestKind groups_kind = {
  .name = "batch-groups",
  .service = &batch_service,
  .role = XRLAB_REQUEST_JOB,
  .payload_free = groups_payload_free,
  .prepare = groups_prepare,
  .run = groups_run,
  .finish = groups_finish,
};

void
xrlab_engine_batch_groups_async (XrlabEngine                 *self,
                                 const XrlabEngineBatchGroup *groups,
                                 gsize                        n_groups,
                                 XrlabQuantityMask            quantities,
                                 XrlabEngineProgressFunc      progress,
                                 gpointer                     progress_data,
                                 GCancellable                *cancellable,
                                 GAsyncReadyCallback          callback,
                                 gpointer                     user_data)
{
  GroupsPayload *p;
  XrlabRequest *req;

  g_return_if_fail (XRLAB_IS_ENGINE (self));
  g_return_if_fail (groups != NULL || n_groups == 0);

  p = g_new0 (GroupsPayload, 1);
  p->groups = g_new0 (GroupWork, MAX (n_groups, 1));
  p->n_groups = n_groups;
  p->quantities = quantities & XRLAB_QUANTITY_MASK_ALL;
  for (gsize i = 0; i < n_groups; i++)
    {
      g_return_if_fail (groups[i].grid != NULL);
      p->groups[i].p.specs = xrlab_engine_specs_copy (groups[i].specs, groups[i].n);
      p->groups[i].p.n = groups[i].n;
      p->groups[i].p.grid = xrlab_energy_grid_ref (groups[i].grid);
      p->groups[i].p.quantities = p->quantities;
      p->n_materials += groups[i].n;
    }
  req = xrlab_request_new (self, &groups_kind, p, xrlab_engine_batch_groups_async,
                           cancellable, callback, user_data);
  xrlab_request_set_consumer (req, "batch");
  xrlab_request_attach_progress (req, sizeof (XrlabEngineCount), BATCH_PROGRESS_INTERVAL_S,
                                 xrlab_engine_progress_count, G_CALLBACK (progress),
                                 progress_data, NULL);
  xrlab_request_submit (req);
}

XrlabEngineBatch **
xrlab_engine_batch_groups_finish (XrlabEngine   *self,
                                  GAsyncResult  *result,
                                  GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

void
xrlab_engine_batch_groups_free (XrlabEngineBatch **batches, gsize n_groups)
{
  if (batches == NULL)
    return;
  for (gsize i = 0; i < n_groups; i++)
    xrlab_engine_batch_free (batches[i]);
  g_free (batches);
}

/* ---- the public API ------------------------------------------------------------- */

void
xrlab_engine_batch_async (XrlabEngine             *self,
                          const XrlabMaterialSpec *specs,
                          gsize                    n,
                          XrlabEnergyGrid         *grid,
                          XrlabQuantityMask        quantities,
                          XrlabEngineProgressFunc  progress,
                          gpointer                 progress_data,
                          GCancellable            *cancellable,
                          GAsyncReadyCallback      callback,
                          gpointer                 user_data)
{
  BatchPayload *p;
  XrlabRequest *req;

  g_return_if_fail (XRLAB_IS_ENGINE (self));
  g_return_if_fail (specs != NULL || n == 0);
  g_return_if_fail (grid != NULL);

  p = g_new0 (BatchPayload, 1);
  p->specs = xrlab_engine_specs_copy (specs, n);
  p->n = n;
  p->grid = xrlab_energy_grid_ref (grid);
  p->quantities = quantities & XRLAB_QUANTITY_MASK_ALL;
  req = xrlab_request_new (self, &batch_kind, p, xrlab_engine_batch_async,
                           cancellable, callback, user_data);
  xrlab_request_set_consumer (req, "batch");
  xrlab_request_attach_progress (req, sizeof (XrlabEngineCount), BATCH_PROGRESS_INTERVAL_S,
                                 xrlab_engine_progress_count, G_CALLBACK (progress),
                                 progress_data, NULL);
  xrlab_request_submit (req);
}

XrlabEngineBatch *
xrlab_engine_batch_finish (XrlabEngine   *self,
                           GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

typedef struct {
  GMainContext     *context;
  XrlabEngineBatch *batch;
  GError           *error;
  gboolean          done;
} SyncBatch;

static void
sync_batch_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  SyncBatch *sync = user_data;

  sync->batch = xrlab_engine_batch_finish (XRLAB_ENGINE (source), result, &sync->error);
  sync->done = TRUE;
  g_main_context_wakeup (sync->context);
}

XrlabEngineBatch *
xrlab_engine_batch_sync (XrlabEngine             *self,
                         const XrlabMaterialSpec *specs,
                         gsize                    n,
                         XrlabEnergyGrid         *grid,
                         XrlabQuantityMask        quantities,
                         XrlabEngineProgressFunc  progress,
                         gpointer                 progress_data,
                         GCancellable            *cancellable,
                         GError                 **error)
{
  SyncBatch sync = { 0 };

  sync.context = g_main_context_new ();
  g_main_context_push_thread_default (sync.context);
  xrlab_engine_batch_async (self, specs, n, grid, quantities, progress, progress_data,
                            cancellable, sync_batch_done, &sync);
  while (!sync.done)
    g_main_context_iteration (sync.context, TRUE);
  g_main_context_pop_thread_default (sync.context);
  g_main_context_unref (sync.context);
  if (sync.error != NULL)
    g_propagate_error (error, sync.error);
  return sync.batch;
}

typedef struct {
  GMainContext      *context;
  XrlabEngineBatch **batches;
  GError            *error;
  gboolean           done;
} SyncGroups;

static void
sync_groups_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  SyncGroups *sync = user_data;

  sync->batches = xrlab_engine_batch_groups_finish (XRLAB_ENGINE (source), result, &sync->error);
  sync->done = TRUE;
  g_main_context_wakeup (sync->context);
}

XrlabEngineBatch **
xrlab_engine_batch_groups_sync (XrlabEngine                 *self,
                                const XrlabEngineBatchGroup *groups,
                                gsize                        n_groups,
                                XrlabQuantityMask            quantities,
                                XrlabEngineProgressFunc      progress,
                                gpointer                     progress_data,
                                GCancellable                *cancellable,
                                GError                     **error)
{
  SyncGroups sync = { 0 };

  sync.context = g_main_context_new ();
  g_main_context_push_thread_default (sync.context);
  xrlab_engine_batch_groups_async (self, groups, n_groups, quantities, progress, progress_data,
                                   cancellable, sync_groups_done, &sync);
  while (!sync.done)
    g_main_context_iteration (sync.context, TRUE);
  g_main_context_pop_thread_default (sync.context);
  g_main_context_unref (sync.context);
  if (sync.error != NULL)
    g_propagate_error (error, sync.error);
  return sync.batches;
}

void
xrlab_engine_batch_free (XrlabEngineBatch *batch)
{
  if (batch == NULL)
    return;
  for (gsize m = 0; m < batch->n_materials; m++)
    g_clear_error (&batch->errors[m]);
  g_free (batch);
}
