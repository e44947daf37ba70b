/* xrlab-engine.h -- the engine thread: one worker that owns every cache
 *
 * An XrlabEngine owns one worker thread, a job lane beside it and a request
 * queue. All numerical state that lives across requests belongs to the
 * worker alone: the element interpolants on each energy grid
 * (XrlabOpticsCache), the current materials with their parsed formulas and
 * their computed quantities. Long work (a batch) runs on the job lane, one
 * job at a time, so edits and fetches are answered while it runs. Nothing
 * mutable is shared with the caller; there are no locks on the hot path.
 *
 * Requests are asynchronous (GIO style: *_async + *_finish). Each reply runs
 * on the thread-default GMainContext of the thread that made the request.
 *
 * The transfer rule. The engine side is the "device", the caller the "host".
 * An edit (materials, one material, the grid) makes the engine compute and
 * keep the results, but transfers nothing. Arrays cross to the caller only
 * when a consumer asks for them (xrlab_engine_fetch_async()), as one
 * allocation holding every array it asked for (XrlabEngineArrays), handed
 * over without further copies. An export is written by the engine thread
 * itself and never passes arrays through the caller.
 *
 * Coalescing. Every edit gets a generation number when it is submitted. The
 * worker takes all requests that are waiting at once and applies the edits
 * in order before it computes, so a burst of edits is computed once, for the
 * newest state. An edit of a material that a newer edit of the same material
 * replaces, and a fetch for a state that a newer edit replaces, complete with
 * XRLAB_ENGINE_ERROR_SUPERSEDED: the caller never sees superseded results
 * (callers simply ignore that error). Long work (batches) takes a
 * GCancellable and stops between chunks; shutting down cancels it too.
 *
 * Accounting. The engine counts transfers, bytes transferred, compute time and
 * transfer time, per consumer and in total (xrlab_engine_get_stats()). With
 * XRLAB_ENGINE_STATS=1 in the environment it prints every transfer and the
 * totals at shutdown on stderr.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "xrlab-optics.h"

G_BEGIN_DECLS

#define XRLAB_ENGINE_ERROR (xrlab_engine_error_quark ())
GQuark xrlab_engine_error_quark (void);

typedef enum {
  XRLAB_ENGINE_ERROR_SUPERSEDED,   /* a newer request replaced this one; ignore */
  XRLAB_ENGINE_ERROR_SHUT_DOWN,    /* the engine was shut down */
  XRLAB_ENGINE_ERROR_NO_MATERIAL,  /* an id that is not in the material list */
  XRLAB_ENGINE_ERROR_NO_GRID,      /* no energy grid has been set */
  XRLAB_ENGINE_ERROR_INVALID,      /* an argument that is not valid (duplicate id, ...) */
} XrlabEngineError;

/* A material as the caller describes it. @id is chosen by the caller (not 0)
 * and identifies the material in every later request. */
typedef struct {
  guint       id;
  const char *name;           /* free text, may be NULL */
  const char *formula;        /* xrlab-formula.h */
  double      density_g_cm3;  /* finite, > 0 */
  double      thickness_um;   /* finite, >= 0; only for the transmission */
} XrlabMaterialSpec;

#define XRLAB_TYPE_ENGINE (xrlab_engine_get_type ())
G_DECLARE_FINAL_TYPE (XrlabEngine, xrlab_engine, XRLAB, ENGINE, GObject)

/* Starts the worker thread. */
XrlabEngine *xrlab_engine_new (void);

/* Stops the worker: a batch in progress is cancelled, every request still
 * waiting completes with XRLAB_ENGINE_ERROR_SHUT_DOWN, and the thread is
 * joined before this returns. Later requests fail at once with the same
 * error. Idempotent; disposing the engine calls it. */
void xrlab_engine_shutdown (XrlabEngine *self);

/* The generation of the newest edit submitted so far (0 before any). */
guint64 xrlab_engine_get_generation (XrlabEngine *self);

/* ---- edits ---------------------------------------------------------------
 * An edit replaces state and computes every quantity of the materials it
 * touches on the current grid. A material whose formula, density or
 * thickness is not valid keeps its last valid state and results, which
 * fetches then mark stale; the reply carries the error. */

/* Replaces the whole material list (new order = @specs order). Materials
 * whose spec did not change keep their results. The finish function returns
 * FALSE only when the request itself failed (shut down, duplicate or zero
 * id); per-material errors come back in @material_errors (when not NULL: a
 * new GPtrArray of @n GError* or NULL, in @specs order). */
void     xrlab_engine_set_materials_async  (XrlabEngine             *self,
                                            const XrlabMaterialSpec *specs,
                                            gsize                    n,
                                            GCancellable            *cancellable,
                                            GAsyncReadyCallback      callback,
                                            gpointer                 user_data);
gboolean xrlab_engine_set_materials_finish (XrlabEngine   *self,
                                            GAsyncResult  *result,
                                            GPtrArray    **material_errors,
                                            GError       **error);

/* Replaces (or appends, for a new id) one material. FALSE with the formula,
 * density or thickness error (XRLAB_FORMULA_ERROR, XRLAB_OPTICS_ERROR), or
 * XRLAB_ENGINE_ERROR_SUPERSEDED when a newer edit of the same material was
 * submitted before this one completed. */
void     xrlab_engine_update_material_async  (XrlabEngine             *self,
                                              const XrlabMaterialSpec *spec,
                                              GCancellable            *cancellable,
                                              GAsyncReadyCallback      callback,
                                              gpointer                 user_data);
gboolean xrlab_engine_update_material_finish (XrlabEngine   *self,
                                              GAsyncResult  *result,
                                              GError       **error);

/* Sets the energy grid (the engine takes a reference) and recomputes every
 * material on it, with the grid's table (xrlab_energy_grid_get_table()).
 * Fetches at one energy use the grid's table choice. FALSE when a material
 * cannot be computed on it (those materials keep their old results and
 * become stale) -- the error names the material and why. */
void     xrlab_engine_set_grid_async  (XrlabEngine         *self,
                                       XrlabEnergyGrid     *grid,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data);
gboolean xrlab_engine_set_grid_finish (XrlabEngine   *self,
                                       GAsyncResult  *result,
                                       GError       **error);

/* ---- transfers ----------------------------------------------------------- */

/* The reply of a fetch: one allocation holding every array a consumer asked
 * for. Free with xrlab_engine_arrays_free(). */
typedef struct {
  guint64          generation;      /* the state these values belong to */
  gsize            n_energies;
  gsize            n_materials;
  gsize            n_quantities;
  XrlabQuantity    quantities[XRLAB_QUANTITY_N];  /* the first n_quantities */
  const double    *energies_kev;    /* n_energies */
  const guint     *ids;             /* n_materials, in the order asked for */
  /* Per material: XRLAB_ENGINE_VALUES_* */
  const guint8    *status;
  /* The first error message of a material that is stale or has no values,
   * NULL otherwise (strings in the same allocation). */
  const char     **messages;
  /* Per material, quantity and energy:
   * values[(m * n_quantities + q) * n_energies + e]. */
  const double    *values;
  /* The table the values come from: the grid's (a fetch), or the one the
   * grid's choice takes at the energy (a fetch at one energy). */
  XrlabTable       table;
} XrlabEngineArrays;

enum {
  XRLAB_ENGINE_VALUES_CURRENT = 0,  /* computed from the material's current input */
  XRLAB_ENGINE_VALUES_STALE   = 1,  /* the input is not valid: the last valid values */
  XRLAB_ENGINE_VALUES_NONE    = 2,  /* never valid: all NaN */
};

const double *xrlab_engine_arrays_get (const XrlabEngineArrays *arrays,
                                       gsize                    material_index,
                                       XrlabQuantity            quantity);
void          xrlab_engine_arrays_free (XrlabEngineArrays *arrays);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (XrlabEngineArrays, xrlab_engine_arrays_free)

/* Fetches @quantities of the materials @ids (all materials in list order when
 * @ids is NULL) on the current grid for the consumer named @consumer (for the
 * accounting: "plot", "table", ...). One fetch = one transfer of
 * n_energies × (1 + n_materials × n_quantities) doubles (the energy axis and
 * the requested arrays). A newer fetch of the same consumer, or a newer edit,
 * supersedes a fetch that has not been served. */
void               xrlab_engine_fetch_async  (XrlabEngine         *self,
                                              const char          *consumer,
                                              XrlabQuantityMask    quantities,
                                              const guint         *ids,
                                              gsize                n_ids,
                                              GCancellable        *cancellable,
                                              GAsyncReadyCallback  callback,
                                              gpointer             user_data);
XrlabEngineArrays *xrlab_engine_fetch_finish (XrlabEngine   *self,
                                              GAsyncResult  *result,
                                              GError       **error);

/* As xrlab_engine_fetch_async() at the single energy @energy_kev instead of
 * the grid (the values table): a reply with n_energies = 1, computed with
 * the table that the current grid's choice takes for that energy (Henke
 * when no grid is set): with auto, Chantler above 30 keV even when the grid
 * is Henke's, and the reply's table says so. */
void               xrlab_engine_fetch_at_async  (XrlabEngine         *self,
                                                 const char          *consumer,
                                                 double               energy_kev,
                                                 XrlabQuantityMask    quantities,
                                                 const guint         *ids,
                                                 gsize                n_ids,
                                                 GCancellable        *cancellable,
                                                 GAsyncReadyCallback  callback,
                                                 gpointer             user_data);
XrlabEngineArrays *xrlab_engine_fetch_at_finish (XrlabEngine   *self,
                                                 GAsyncResult  *result,
                                                 GError       **error);

/* Writes @quantities of the materials @ids (all when NULL) on the current
 * grid as CSV to @path, from the engine thread, atomically (a temporary file
 * renamed over @path; a failed export leaves no file). Layout: '#' comment
 * lines naming the table and each material (name, formula, density,
 * thickness), then a
 * header "energy_keV,<name>:<column>,..." (units are in the column names),
 * then one row per energy, numbers in round-trip precision. Materials
 * without valid values are refused. */
void     xrlab_engine_export_csv_async  (XrlabEngine         *self,
                                         const char          *path,
                                         XrlabQuantityMask    quantities,
                                         const guint         *ids,
                                         gsize                n_ids,
                                         GCancellable        *cancellable,
                                         GAsyncReadyCallback  callback,
                                         gpointer             user_data);
gboolean xrlab_engine_export_csv_finish (XrlabEngine   *self,
                                         GAsyncResult  *result,
                                         GError       **error);

/* ---- batches ------------------------------------------------------------- */

/* The reply of a batch: one allocation. values has the layout of
 * xrlab_optics_batch(): values[(m * n_quantities + qi) * n_energies + e],
 * quantities in enum order. A material that failed has errors[m] != NULL
 * (its values are NaN) and every other material is computed. Free with
 * xrlab_engine_batch_free(). */
typedef struct {
  gsize             n_materials;
  gsize             n_energies;
  gsize             n_quantities;
  XrlabQuantityMask quantities;
  const double     *energies_kev;
  /* Per material: molecular weight [g/mol], electrons per formula unit and
   * electron density [e/Å³] (NaN when the material failed). */
  const double     *molecular_weight_g_mol;
  const double     *electrons;
  const double     *electron_density_per_a3;
  GError          **errors;
  double           *values;
  XrlabTable        table;   /* the grid's table, that every value comes from */
} XrlabEngineBatch;

void xrlab_engine_batch_free (XrlabEngineBatch *batch);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (XrlabEngineBatch, xrlab_engine_batch_free)

/* Progress of a batch: called on the requesting thread's main context, at
 * most every ~50 ms. */
typedef void (*XrlabEngineProgressFunc) (gsize done, gsize total, gpointer user_data);

/* Computes @quantities of many materials (the @id of each spec is ignored)
 * on @grid, on the engine thread (in parallel over materials), without
 * touching the material list. One input and one output transfer. Cancel with
 * @cancellable: the reply then is G_IO_ERROR_CANCELLED, promptly. */
void              xrlab_engine_batch_async  (XrlabEngine             *self,
                                             const XrlabMaterialSpec *specs,
                                             gsize                    n,
                                             XrlabEnergyGrid         *grid,
                                             XrlabQuantityMask        quantities,
                                             XrlabEngineProgressFunc  progress,
                                             gpointer                 progress_data,
                                             GCancellable            *cancellable,
                                             GAsyncReadyCallback      callback,
                                             gpointer                 user_data);
XrlabEngineBatch *xrlab_engine_batch_finish (XrlabEngine   *self,
                                             GAsyncResult  *result,
                                             GError       **error);

/* Runs a batch to completion on the calling thread's own loop (for the CLI):
 * creates a private main context, makes the request, iterates until the
 * reply. */
XrlabEngineBatch *xrlab_engine_batch_sync (XrlabEngine             *self,
                                           const XrlabMaterialSpec *specs,
                                           gsize                    n,
                                           XrlabEnergyGrid         *grid,
                                           XrlabQuantityMask        quantities,
                                           XrlabEngineProgressFunc  progress,
                                           gpointer                 progress_data,
                                           GCancellable            *cancellable,
                                           GError                 **error);

/* Several batches in one request: each group its own materials on its own
 * grid (a row of `xrlab-cli batch` with its own energies is a group). Small
 * groups (up to a few hundred values) are computed point by point, many
 * at a time on the pool; larger ones as xrlab_engine_batch_async() does,
 * on a cache of their grid. The values are those of one batch per group,
 * bit for bit. The reply is an array of @n_groups batches in the order of
 * @groups (xrlab_engine_batch_groups_free()); progress counts materials
 * over all groups. */
typedef struct {
  const XrlabMaterialSpec *specs;
  gsize                    n;
  XrlabEnergyGrid         *grid;
} XrlabEngineBatchGroup;

void               xrlab_engine_batch_groups_async  (XrlabEngine                 *self,
                                                     const XrlabEngineBatchGroup *groups,
                                                     gsize                        n_groups,
                                                     XrlabQuantityMask            quantities,
                                                     XrlabEngineProgressFunc      progress,
                                                     gpointer                     progress_data,
                                                     GCancellable                *cancellable,
                                                     GAsyncReadyCallback          callback,
                                                     gpointer                     user_data);
XrlabEngineBatch **xrlab_engine_batch_groups_finish (XrlabEngine   *self,
                                                     GAsyncResult  *result,
                                                     GError       **error);
/* The same, waited for on a private main context (for the CLI). */
XrlabEngineBatch **xrlab_engine_batch_groups_sync   (XrlabEngine                 *self,
                                                     const XrlabEngineBatchGroup *groups,
                                                     gsize                        n_groups,
                                                     XrlabQuantityMask            quantities,
                                                     XrlabEngineProgressFunc      progress,
                                                     gpointer                     progress_data,
                                                     GCancellable                *cancellable,
                                                     GError                     **error);
void               xrlab_engine_batch_groups_free   (XrlabEngineBatch **batches,
                                                     gsize              n_groups);

/* ---- accounting ---------------------------------------------------------- */

typedef struct {
  guint64 n_requests;     /* requests of this consumer (fetches, exports, batches) */
  guint64 n_transfers;    /* replies carrying arrays to the caller */
  guint64 bytes;          /* bytes of those arrays */
  guint64 n_superseded;   /* requests answered SUPERSEDED */
  guint64 n_exports;      /* files written by the engine */
  guint64 export_bytes;   /* bytes written to them */
  double  compute_s;      /* engine time computing for this consumer */
  double  transfer_s;     /* engine time assembling the replies */
} XrlabEngineStats;

/* The counters of @consumer, or the totals over everything when @consumer is
 * NULL (the totals' compute_s includes the computation after edits). FALSE
 * when @consumer has made no request (the counters are then zero). */
gboolean xrlab_engine_get_stats (XrlabEngine      *self,
                                 const char       *consumer,
                                 XrlabEngineStats *stats);

/* The counters as text, one line per consumer and one of totals (for a
 * debug overlay). */
char *xrlab_engine_format_stats (XrlabEngine *self);

/* Zeroes every counter. */
void xrlab_engine_reset_stats (XrlabEngine *self);

G_END_DECLS
