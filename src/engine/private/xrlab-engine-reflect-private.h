/* xrlab-engine-reflect-private.h -- the stacks service's state, shared by
 * xrlab-engine-reflect.c (the list, its edits, the caches) and
 * xrlab-engine-reflect-fetch.c (fetches and the map job)
 *
 * Everything here belongs to the engine's worker thread
 * (xrlab-engine-private.h), but for a plan lent to a map job, which the job
 * owns until its finish gives it back.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "xrlab-engine-private.h"
#include "xrlab-engine-reflect.h"

G_BEGIN_DECLS

/* Grids a stack keeps its plan or transmission for. */
#define XRLAB_ENGINE_STACK_N_CACHED 4

typedef struct {
  XrlabEnergyGrid  *grid;           /* NULL: an empty slot */
  XrlabTable        table;
  gboolean          photo_only;     /* a filter's transmission by photoabsorption alone */
  XrlabReflectPlan *plan;           /* a reflectivity stack's */
  double           *transmission;   /* a filter stack's, grid size */
} XrlabEngineStackCache;

typedef struct {
  guint                 id;
  char                 *name;
  /* The current input, as last edited. */
  XrlabStackKind        kind;
  char                 *text;
  gboolean              pending;    /* changed since the last commit */
  /* The last valid stack (NULL: never valid) and its canonical text. */
  XrlabStack           *stack;
  char                 *canonical;
  /* Why the current input has no current values (NULL when it has). */
  GError               *error;
  int                   error_column;
  /* Most recently used first; the slots after the first empty one are
   * empty. */
  XrlabEngineStackCache cache[XRLAB_ENGINE_STACK_N_CACHED];
} XrlabEngineStack;

typedef struct {
  GPtrArray  *stacks;   /* XrlabEngineStack*, in list order */
  GHashTable *by_id;    /* id -> XrlabEngineStack* */
} XrlabEngineReflect;

extern const XrlabEngineService xrlab_engine_reflect_service;

XrlabEngineReflect *xrlab_engine_reflect_get (XrlabEngineWorker *worker);

/* The stacks of @ids (all stacks of @kind in list order when @ids is
 * NULL); NULL with XRLAB_ENGINE_ERROR_NO_MATERIAL for an id that is not in
 * the list, XRLAB_ENGINE_ERROR_INVALID for one of another kind. */
GPtrArray *xrlab_engine_reflect_resolve (XrlabEngineReflect *reflect,
                                         const guint        *ids,
                                         gsize               n_ids,
                                         XrlabStackKind      kind,
                                         GError            **error);

/* The plan of the valid stack of @s on @grid, from the cache or made now
 * (δ and β from the optics service's cache of @grid; at one energy from
 * the tables directly). The stack keeps it. NULL with @error when a
 * material's constants cannot be had. */
XrlabReflectPlan *xrlab_engine_stack_plan (XrlabEngineWorker *worker,
                                           XrlabEngineStack  *s,
                                           XrlabEnergyGrid   *grid,
                                           XrlabTable         table,
                                           GError           **error);

/* The same, taken out of the cache for a job; given back with
 * xrlab_engine_stack_give_plan() (freed when the stack @plan belongs to is
 * no longer the valid stack of @id, or the cache has one already). */
XrlabReflectPlan *xrlab_engine_stack_take_plan (XrlabEngineWorker *worker,
                                                XrlabEngineStack  *s,
                                                XrlabEnergyGrid   *grid,
                                                XrlabTable         table,
                                                GError           **error);
void              xrlab_engine_stack_give_plan (XrlabEngineReflect *reflect,
                                                guint               id,
                                                XrlabTable          table,
                                                XrlabReflectPlan   *plan);

/* The transmission of the valid filter stack of @s on @grid (grid size),
 * from the cache or computed now: by the total attenuation, or with
 * @photo_only by photoabsorption alone. The stack keeps it. */
const double *xrlab_engine_stack_transmission (XrlabEngineWorker *worker,
                                               XrlabEngineStack  *s,
                                               XrlabEnergyGrid   *grid,
                                               XrlabTable         table,
                                               gboolean           photo_only,
                                               GError           **error);

/* Writes @curves as CSV to @path atomically (xrlab-engine-reflect-export.c),
 * the stacks named @names, with their canonical @texts; *bytes the size. */
gboolean xrlab_engine_curves_write_csv (const XrlabEngineCurves *curves,
                                        const char *const       *names,
                                        const char *const       *texts,
                                        const char              *path,
                                        gsize                   *bytes,
                                        GError                 **error);

/* Checks @table: one of the tables and, when @grid is not NULL, the table
 * @grid was made for. */
gboolean xrlab_engine_reflect_check_table (XrlabTable table, XrlabEnergyGrid *grid, GError **error);

G_END_DECLS
