/* xrlab-engine-optics-private.h -- the optics service's state, shared with
 * the services that read it (export, batch)
 *
 * Everything here belongs to the engine's worker thread
 * (xrlab-engine-private.h): only handlers running there may touch it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "xrlab-engine-private.h"
#include "xrlab-formula.h"

G_BEGIN_DECLS

/* Caches kept for other grids (batches of the CLI use a few grids; the
 * window may switch back to an earlier grid). */
#define XRLAB_ENGINE_N_KEPT_CACHES 4

typedef struct {
  guint         id;
  char         *name;
  /* The current input, as last edited. */
  char         *formula_text;
  double        density_g_cm3;
  double        thickness_um;
  /* A valid input not yet computed. */
  XrlabFormula *pending_formula;
  double        pending_density;
  double        pending_thickness;
  gboolean      pending;
  /* The last valid input and its values on the current grid. */
  XrlabFormula *formula;
  double        good_density;
  double        good_thickness;
  double       *values;         /* XRLAB_QUANTITY_N × n_e, or NULL */
  /* Why the current input has no current values (NULL when it has). */
  GError       *error;
} XrlabEngineMaterial;

typedef struct {
  GPtrArray        *materials;  /* XrlabEngineMaterial*, in list order */
  GHashTable       *by_id;      /* id -> XrlabEngineMaterial* */
  XrlabEnergyGrid  *grid;
  XrlabOpticsCache *cache;      /* on grid */
  gboolean          new_grid;   /* set in this round: recompute everything */
  XrlabOpticsCache *kept[XRLAB_ENGINE_N_KEPT_CACHES];  /* most recent first */
} XrlabEngineOptics;

extern const XrlabEngineService xrlab_engine_optics_service;

/* The optics state of the worker. */
XrlabEngineOptics *xrlab_engine_optics_get (XrlabEngineWorker *worker);

/* The materials of @ids (all in list order when @ids is NULL); NULL with
 * XRLAB_ENGINE_ERROR_NO_MATERIAL for an id that is not in the list. */
GPtrArray *xrlab_engine_optics_resolve_ids (XrlabEngineOptics *optics,
                                            const guint       *ids,
                                            gsize              n_ids,
                                            GError           **error);

/* The name, or the formula when it has none. */
const char *xrlab_engine_material_label (const XrlabEngineMaterial *m);

/* TRUE when @a and @b hold the same energies in the same order. */
gboolean xrlab_engine_grids_equal (XrlabEnergyGrid *a, XrlabEnergyGrid *b);

/* A cache on @grid for a job: a kept one (removed from the kept ones) or a
 * new one; the job owns it until it gives it back with
 * xrlab_engine_optics_keep_cache(). */
XrlabOpticsCache *xrlab_engine_optics_take_cache (XrlabEngineOptics *optics, XrlabEnergyGrid *grid);
void              xrlab_engine_optics_keep_cache (XrlabEngineOptics *optics, XrlabOpticsCache *cache);

/* Copies @n specs and every string they point to into one allocation
 * (g_free() it). */
XrlabMaterialSpec *xrlab_engine_specs_copy (const XrlabMaterialSpec *specs, gsize n);

/* The input of a fetch or an export: which quantities of which materials. */
typedef struct {
  XrlabQuantityMask quantities;
  guint            *ids;         /* NULL: all materials */
  gsize             n_ids;
  double            energy_kev;  /* fetch-at */
  char             *path;        /* export */
} XrlabEngineSelection;

XrlabEngineSelection *xrlab_engine_selection_new  (XrlabQuantityMask quantities,
                                                   const guint      *ids,
                                                   gsize             n_ids);
void                  xrlab_engine_selection_free (gpointer selection);

G_END_DECLS
