/* xrlab-engine-reflect.h -- the engine's stacks: reflectivity of mirrors
 * and multilayers, transmission of filters and gas paths
 *
 * The caller keeps a list of stacks in the engine (xrlab-stack.h: a text
 * and its grammar, reflectivity or filter), each with an id it chose, as
 * it keeps materials (xrlab-engine.h): the same rules hold.
 *
 * Edits. xrlab_engine_set_stacks_async() replaces the list,
 * xrlab_engine_update_stack_async() one stack (appended for a new id).
 * Every edit gets a generation of the stacks (xrlab_engine_get_stack_
 * generation(), apart from the materials' generation); the worker applies
 * every edit waiting at once and parses each changed stack once, so a
 * burst of edits is parsed and computed once, for the newest text; an edit
 * of a stack that a newer edit of the same stack replaces completes with
 * XRLAB_ENGINE_ERROR_SUPERSEDED. A stack whose text does not parse keeps
 * its last valid stack and what was computed for it (fetches mark it
 * stale); the reply carries the parser's XRLAB_STACK_ERROR, whose message
 * names the layer and the column, and the column.
 *
 * Caches. The worker keeps, per stack and per energy grid, the plan of a
 * reflectivity stack (xrlab-reflect.h: δ and β of its materials on the
 * grid, its reduction, a workspace) or the transmission of a filter stack,
 * for the few grids used last. The optical constants come from the optics
 * service's cache of that grid (the materials' grid, or a kept one); a
 * curve at one energy uses the tables at that energy directly. A changed
 * stack drops its caches; an edit that leaves the stack the same (spaces,
 * a density written out) keeps them.
 *
 * Transfers. Nothing crosses to the caller after an edit. A consumer
 * fetches the curves of several stacks in one reply (XrlabEngineCurves,
 * one allocation) and each fetch is one transfer, counted for its consumer
 * (xrlab_engine_get_stats()) with the bytes of its doubles. The newest
 * fetch of a consumer is served; one that a newer edit of the stacks
 * replaces completes SUPERSEDED. A map of more than
 * XRLAB_ENGINE_REFLECT_INLINE_POINTS values per stack runs as a job on the
 * job lane, in parallel over energies, cancellable, with progress
 * (xrlab_engine_reflect_map_async()); edits and fetches are answered while
 * it runs.
 *
 * Tables. A query names the table of atomic scattering factors its optical
 * constants come from, Henke or Chantler (xrlab-table.h): a curve at one
 * energy is computed with it; a curve on a grid with the grid's table,
 * which must be the query's (the grid was made for the caller's choice;
 * xrlab_energy_grid_get_table()). The reply names the table. A filter's
 * transmission is the total attenuation's (photoabsorption + scattering)
 * unless the query asks for photoabsorption alone.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "xrlab-elements.h"
#include "xrlab-engine.h"
#include "xrlab-reflect.h"
#include "xrlab-stack.h"

G_BEGIN_DECLS

/* A stack as the caller describes it. */
typedef struct {
  guint          id;      /* chosen by the caller, not 0 */
  const char    *name;    /* free text, may be NULL */
  const char    *text;    /* the stack (xrlab-stack.h) */
  XrlabStackKind kind;    /* its grammar: XRLAB_STACK_REFLECT or XRLAB_STACK_FILTER */
} XrlabStackSpec;

/* ---- edits ------------------------------------------------------------------ */

/* Replaces the list of stacks (new order = @specs order); stacks whose
 * text and kind did not change keep their caches. FALSE only when the
 * request failed (shut down, a zero or repeated id); a stack's parse error
 * comes back in @stack_errors (when not NULL: a new GPtrArray of @n
 * GError* or NULL, in @specs order). */
void     xrlab_engine_set_stacks_async  (XrlabEngine          *self,
                                         const XrlabStackSpec *specs,
                                         gsize                 n,
                                         GCancellable         *cancellable,
                                         GAsyncReadyCallback   callback,
                                         gpointer              user_data);
gboolean xrlab_engine_set_stacks_finish (XrlabEngine   *self,
                                         GAsyncResult  *result,
                                         GPtrArray    **stack_errors,
                                         GError       **error);

/* Replaces (or appends, for a new id) one stack. FALSE with the parse
 * error (XRLAB_STACK_ERROR; @error_column, when not NULL, gets its 1-based
 * column, else 0), or XRLAB_ENGINE_ERROR_SUPERSEDED when a newer edit of
 * the same stack was submitted before this one completed. */
void     xrlab_engine_update_stack_async  (XrlabEngine          *self,
                                           const XrlabStackSpec *spec,
                                           GCancellable         *cancellable,
                                           GAsyncReadyCallback   callback,
                                           gpointer              user_data);
gboolean xrlab_engine_update_stack_finish (XrlabEngine   *self,
                                           GAsyncResult  *result,
                                           int           *error_column,
                                           GError       **error);

/* The generation of the newest edit of the stacks (0 before any). */
guint64 xrlab_engine_get_stack_generation (XrlabEngine *self);

/* ---- queries and replies --------------------------------------------------------- */

typedef enum {
  XRLAB_REFLECT_CURVE_ANGLES,     /* reflectivity stacks vs grazing angle at one energy */
  XRLAB_REFLECT_CURVE_ENERGIES,   /* reflectivity stacks vs energy at one angle */
  XRLAB_REFLECT_CURVE_MAP,        /* reflectivity stacks on energies × angles */
  XRLAB_REFLECT_CURVE_FILTER,     /* filter stacks: transmission vs energy */
} XrlabReflectCurve;

/* The values of a curve (XrlabReflectOutput). A filter's is T. */
typedef enum {
  XRLAB_REFLECT_VALUE_R,
  XRLAB_REFLECT_VALUE_R_S,
  XRLAB_REFLECT_VALUE_R_P,
  XRLAB_REFLECT_VALUE_T,
  XRLAB_REFLECT_VALUE_T_S,
  XRLAB_REFLECT_VALUE_T_P,
  XRLAB_REFLECT_VALUE_N,
} XrlabReflectValue;

typedef guint XrlabReflectValueMask;
#define XRLAB_REFLECT_VALUE_BIT(v) (1u << (v))
#define XRLAB_REFLECT_VALUES_R (XRLAB_REFLECT_VALUE_BIT (XRLAB_REFLECT_VALUE_R)      \
                                | XRLAB_REFLECT_VALUE_BIT (XRLAB_REFLECT_VALUE_R_S)  \
                                | XRLAB_REFLECT_VALUE_BIT (XRLAB_REFLECT_VALUE_R_P))

/* What to fetch. The caller's arrays and grid are copied (referenced) when
 * the request is made. */
typedef struct {
  XrlabReflectCurve     curve;
  XrlabTable            table;         /* ANGLES: the energy's; else the grid's table */
  gboolean              photo_only;    /* FILTER: T by photoabsorption alone, not the total */
  XrlabReflectValueMask values;        /* at least one; FILTER: ignored (T) */
  double                polarization;  /* P in [−1, 1]: 1 s, −1 p, 0 unpolarized */
  double                energy_kev;    /* ANGLES */
  double                angle_rad;     /* ENERGIES */
  XrlabEnergyGrid      *grid;          /* ENERGIES, MAP, FILTER */
  const double         *angles_rad;    /* ANGLES, MAP: 0..π/2 */
  gsize                 n_angles;
} XrlabReflectQuery;

/* The reply of a fetch: one allocation. Free with
 * xrlab_engine_curves_free(). */
typedef struct {
  guint64           generation;     /* the stacks' state these values belong to */
  XrlabReflectCurve curve;
  XrlabTable        table;          /* the table the optical constants came from */
  XrlabTableChoice  table_choice;   /* the grid's choice (ANGLES: the table's) */
  gboolean          photo_only;     /* FILTER: T by photoabsorption alone */
  double            polarization;
  gsize             n_energies;     /* ANGLES: 1 */
  gsize             n_angles;       /* ENERGIES: 1; FILTER: 0 */
  /* Values per stack and value: ANGLES n_angles, ENERGIES and FILTER
   * n_energies, MAP n_energies × n_angles (energy by energy:
   * [e * n_angles + a]). */
  gsize             n_points;
  gsize             n_stacks;
  gsize             n_values;
  XrlabReflectValue values_of[XRLAB_REFLECT_VALUE_N];  /* the first n_values, in enum order */
  const double     *energies_kev;   /* n_energies */
  const double     *angles_rad;     /* n_angles */
  const guint      *ids;            /* n_stacks, in the order asked for */
  const guint8     *status;         /* XRLAB_ENGINE_VALUES_* (xrlab-engine.h) */
  /* Why a stack is stale or has no values (NULL when current), and the
   * 1-based column of a parse error in its text (0: none). */
  const char      **messages;
  const int        *error_columns;
  /* Marks of the stacks' materials (the ambient's excluded), stack s
   * having marks [mark_start[s], mark_start[s + 1]): ANGLES the critical
   * angle [rad] of each material below the ambient at the energy,
   * arccos((1 − δ)/(1 − δ_0)), NaN where δ ≤ δ_0; ENERGIES the energy
   * [keV] at which that critical angle falls to the angle (linear between
   * the first two neighbouring grid energies, in grid order, on either side
   * of it), NaN when it does not on the grid; MAP and FILTER none. */
  const gsize      *mark_start;     /* n_stacks + 1 */
  const double     *marks;
  const char      **mark_names;     /* the material as written */
  /* values[(s * n_values + v) * n_points + p]; NaN for a stack without
   * values. */
  const double     *values;
} XrlabEngineCurves;

/* The values @value of stack @stack_index, or NULL when not fetched. */
const double *xrlab_engine_curves_get  (const XrlabEngineCurves *curves,
                                        gsize                    stack_index,
                                        XrlabReflectValue        value);
void          xrlab_engine_curves_free (XrlabEngineCurves *curves);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (XrlabEngineCurves, xrlab_engine_curves_free)

/* The bytes a reply counts as transferred: its doubles, (n_energies +
 * n_angles + n_stacks × n_values × n_points + marks) × sizeof (double). */
gsize xrlab_engine_curves_get_payload_bytes (const XrlabEngineCurves *curves);

/* ---- fetches ------------------------------------------------------------------- */

/* Values per stack above which a map runs as a job on the job lane. */
#define XRLAB_ENGINE_REFLECT_INLINE_POINTS 16384

/* Fetches @query for the stacks @ids (all stacks of the query's kind, in
 * list order, when @ids is NULL) for consumer @consumer. A stack of the
 * wrong kind among @ids is XRLAB_ENGINE_ERROR_INVALID; a bad query
 * (polarization, angle, energy, table) fails the request. A stack whose
 * plan cannot be made (an energy outside a material's tables) has no
 * values and says why. One fetch = one transfer. A map of more than
 * XRLAB_ENGINE_REFLECT_INLINE_POINTS values per stack runs as
 * xrlab_engine_reflect_map_async() without progress. */
void               xrlab_engine_reflect_fetch_async  (XrlabEngine             *self,
                                                      const char              *consumer,
                                                      const XrlabReflectQuery *query,
                                                      const guint             *ids,
                                                      gsize                    n_ids,
                                                      GCancellable            *cancellable,
                                                      GAsyncReadyCallback      callback,
                                                      gpointer                 user_data);
XrlabEngineCurves *xrlab_engine_reflect_fetch_finish (XrlabEngine   *self,
                                                      GAsyncResult  *result,
                                                      GError       **error);

/* A map (@query->curve XRLAB_REFLECT_CURVE_MAP) as a job on the job lane:
 * the plans are made on the worker, the values computed on the lane in
 * parallel over energies. @progress (may be NULL) gets the energies done
 * over all stacks, on the requesting thread's main context, at most every
 * ~50 ms. Cancel with @cancellable: the reply is then G_IO_ERROR_CANCELLED,
 * promptly. A reply whose stacks a newer edit replaced while it ran is
 * XRLAB_ENGINE_ERROR_SUPERSEDED. */
void               xrlab_engine_reflect_map_async  (XrlabEngine             *self,
                                                    const char              *consumer,
                                                    const XrlabReflectQuery *query,
                                                    const guint             *ids,
                                                    gsize                    n_ids,
                                                    XrlabEngineProgressFunc  progress,
                                                    gpointer                 progress_data,
                                                    GCancellable            *cancellable,
                                                    GAsyncReadyCallback      callback,
                                                    gpointer                 user_data);
XrlabEngineCurves *xrlab_engine_reflect_map_finish (XrlabEngine   *self,
                                                    GAsyncResult  *result,
                                                    GError       **error);

/* ---- exports ------------------------------------------------------------------- */

/* Writes @query's curves of the stacks @ids (as a fetch) as CSV to @path,
 * from the engine thread, atomically: '#' lines naming the curve, the
 * table (xrlab_table_format_comment()), for filters what the transmission
 * counts, and each stack (its name and canonical text), a header
 * "energy_keV,angle_mrad,<name>:R,<name>:R_s,..." (filters:
 * "energy_keV,<name>:T"), a row per point (energy by energy for a map),
 * numbers in round-trip precision. A stack without values is refused. The
 * curves are computed on the worker, a map too. */
void     xrlab_engine_reflect_export_csv_async  (XrlabEngine             *self,
                                                 const char              *path,
                                                 const XrlabReflectQuery *query,
                                                 const guint             *ids,
                                                 gsize                    n_ids,
                                                 GCancellable            *cancellable,
                                                 GAsyncReadyCallback      callback,
                                                 gpointer                 user_data);
gboolean xrlab_engine_reflect_export_csv_finish (XrlabEngine   *self,
                                                 GAsyncResult  *result,
                                                 GError       **error);

G_END_DECLS
