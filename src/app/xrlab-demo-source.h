/* xrlab-demo-source.h -- DEMONSTRATION data for the window until the engine
 * thread exists. NOT PHYSICS. Delete this file when the window talks to
 * XrlabEngine (src/engine/xrlab-engine.h).
 *
 * It imitates the engine's interface closely enough that the window's data
 * link (xrlab-window-data.c) has the same shape: set the materials (each
 * gets its error or none), set the grid, fetch one buffer per consumer
 * (materials x points for one quantity, or every quantity at one energy),
 * list edges and presets, export CSV. The "optical constants" come from a
 * toy model (hydrogen-like edge energies, f2 ~ Z^2.5 E^-2 above each edge)
 * that has the right shape and the wrong numbers; the window marks every
 * view of them as demonstration data.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "xrlab-plot-data.h"
#include "xrlab-quantity-info.h"

G_BEGIN_DECLS

#define XRLAB_TYPE_DEMO_SOURCE (xrlab_demo_source_get_type ())
G_DECLARE_FINAL_TYPE (XrlabDemoSource, xrlab_demo_source, XRLAB, DEMO_SOURCE, GObject)

typedef struct {
  guint id;                /* XrlabMaterial id: the source keeps the last valid input per id */
  const char *formula;
  double density_g_cm3;
  double thickness_um;
} XrlabDemoMaterialSpec;

XrlabDemoSource *xrlab_demo_source_new (void);

/* Replaces the material list. For each material @errors[i] gets a message
 * (g_free) when the input is invalid, NULL otherwise; an invalid material
 * keeps its last valid input, and @stale[i] tells whether such an input
 * exists (its curve is then still available, marked stale). */
void     xrlab_demo_source_set_materials (XrlabDemoSource             *self,
                                          const XrlabDemoMaterialSpec *specs,
                                          guint                        n,
                                          char                       **errors,
                                          gboolean                    *stale);

/* The energy grid (eV, any order). */
void     xrlab_demo_source_set_grid      (XrlabDemoSource *self,
                                          const double    *energies_ev,
                                          guint            n);

/* One buffer with @n_materials rows of grid-length values of @quantity (in
 * the engine's units), for the materials at @indices of the last list.
 * A material without any valid input gives a row of NaN. g_free() it. */
double  *xrlab_demo_source_fetch         (XrlabDemoSource   *self,
                                          XrlabPlotQuantity  quantity,
                                          const guint       *indices,
                                          guint              n_materials);

/* Every quantity at @energy_ev: XRLAB_PLOT_N_QUANTITIES rows of
 * @n_materials values. g_free() it. */
double  *xrlab_demo_source_fetch_values  (XrlabDemoSource *self,
                                          double           energy_ev,
                                          const guint     *indices,
                                          guint            n_materials);

/* Edges (K, L1-L3) of the elements in the materials at @indices within
 * [@min_ev, @max_ev]: an array of XrlabPlotMarker with x in eV. */
GArray  *xrlab_demo_source_edges         (XrlabDemoSource *self,
                                          const guint     *indices,
                                          guint            n_materials,
                                          double           min_ev,
                                          double           max_ev);

/* A list of XrlabMaterial presets (real densities). */
GListModel *xrlab_demo_source_presets    (XrlabDemoSource *self);

/* Writes every quantity of the materials at @indices on the grid as CSV,
 * atomically. */
gboolean xrlab_demo_source_export_csv    (XrlabDemoSource  *self,
                                          const char       *path,
                                          const guint      *indices,
                                          const char *const *names,
                                          guint             n_materials,
                                          GError          **error);

/* Transfers (fetch calls) and bytes handed out. */
void     xrlab_demo_source_get_stats     (XrlabDemoSource *self,
                                          guint64         *transfers,
                                          guint64         *bytes);

G_END_DECLS
