/* xrlab-window-data.c -- the window's link to the engine thread
 *
 * Every edit (material, sweep, quantity) marks the views dirty and schedules
 * one recompute at high idle priority, so a burst of edits within a frame
 * becomes one round of requests: the material list (only when it changed),
 * the grid (only when the sweep changed), then a fetch for each consumer
 * that is visible and needs new arrays. A hidden consumer asks for nothing
 * and fetches once when it is shown again.
 *
 * Same frame. The round runs at high idle priority, before the frame clock
 * paints; its requests are made with a private GMainContext as the thread's
 * default, so their replies are dispatched there, and the round waits for
 * them on that context (which runs nothing else) for up to a frame budget.
 * The reply to an edit then reaches the plot before the frame that shows the
 * keystroke is painted, and both appear together. Work that takes longer
 * (a large new grid) is not waited for: a pump on the main loop dispatches
 * its replies when they come.
 *
 * A reply the engine marks SUPERSEDED is ignored (a newer request follows). The plot's reply is one allocation,
 * XrlabEngineArrays, which the plot data keeps and borrows its rows from:
 * nothing is copied between the engine and the frame. The table's reply is
 * handed to the values view the same way.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-window-private.h"

#include <math.h>

#include <glib/gi18n-lib.h>

#include "xrlab-elements.h"
#include "xrlab-formula.h"
#include "xrlab-optics.h"
#include "xrlab-presets.h"
#include "xrlab-user-number.h"
#include "xrlab-util.h"

static gboolean
plot_visible (XrlabWindow *self)
{
  return g_strcmp0 (adw_view_stack_get_visible_child_name (self->view_stack), "plot") == 0 &&
         gtk_widget_get_mapped (GTK_WIDGET (self));
}

static gboolean
values_visible (XrlabWindow *self)
{
  return g_strcmp0 (adw_view_stack_get_visible_child_name (self->view_stack), "values") == 0 &&
         gtk_widget_get_mapped (GTK_WIDGET (self));
}

static XrlabMaterial *
material_by_id (XrlabWindow *self, guint id, guint *position)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->materials));

  for (guint i = 0; i < n; i++)
    {
      XrlabMaterial *m = g_list_model_get_item (G_LIST_MODEL (self->materials), i);
      g_object_unref (m);   /* the store keeps it */
      if (xrlab_material_get_id (m) == id)
        {
          if (position != NULL)
            *position = i;
          return m;
        }
    }
  return NULL;
}

/* A material the views can show: visible, and valid now or earlier (the
 * engine then still has its last valid values). */
static gboolean
showable (XrlabWindow *self, XrlabMaterial *m)
{
  if (!xrlab_material_get_visible (m))
    return FALSE;
  if (xrlab_material_get_error (m) == NULL)
    return TRUE;
  return g_hash_table_contains (self->valid_once, GUINT_TO_POINTER (xrlab_material_get_id (m)));
}

/* The ids of the visible materials. With @strict, only those that have (or
 * had) a valid input; without, also those whose verdict is still on its way
 * (a fetch answers "no values" for a material that never was valid). */
static guint *
shown_ids (XrlabWindow *self, gboolean strict, gsize *n_out)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->materials));
  guint *ids = g_new (guint, n + 1);
  gsize k = 0;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(XrlabMaterial) m = g_list_model_get_item (G_LIST_MODEL (self->materials), i);
      if (strict ? showable (self, m) : xrlab_material_get_visible (m))
        ids[k++] = xrlab_material_get_id (m);
    }
  *n_out = k;
  return ids;
}

static gboolean
is_superseded (const GError *error)
{
  return g_error_matches (error, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_SUPERSEDED) ||
         g_error_matches (error, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_SHUT_DOWN) ||
         g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

static void
update_stale (XrlabWindow *self, XrlabMaterial *m)
{
  gboolean has_error = xrlab_material_has_error (m);
  gboolean had_valid = g_hash_table_contains (self->valid_once, GUINT_TO_POINTER (xrlab_material_get_id (m)));

  xrlab_material_set_stale (m, has_error && had_valid);
}

/* ---- requests ------------------------------------------------------------------------ */

typedef struct {
  XrlabWindow *self;
  guint *ids;           /* of the request */
  gsize n_ids;
  GBytes *x;            /* the sweep points the request belongs to */
  XrlabQuantity quantity;
  XrlabSweep sweep;
} Closure;

static Closure *
closure_new (XrlabWindow *self)
{
  Closure *c = g_new0 (Closure, 1);

  c->self = g_object_ref (self);
  self->pending++;
  return c;
}

static void
closure_free (Closure *c)
{
  c->self->pending--;
  g_object_unref (c->self);
  g_free (c->ids);
  g_clear_pointer (&c->x, g_bytes_unref);
  g_free (c);
}

static void
on_materials_set (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  Closure *c = user_data;
  XrlabWindow *self = c->self;
  g_autoptr(GPtrArray) errors = NULL;
  g_autoptr(GError) error = NULL;

  if (!xrlab_engine_set_materials_finish (XRLAB_ENGINE (source), result, &errors, &error))
    {
      if (!is_superseded (error))
        {
          g_autofree char *msg = g_strdup_printf (_("The engine refused the materials: %s"), error->message);
          xrlab_window_toast (self, msg, 10);
        }
      closure_free (c);
      return;
    }
  /* The engine's verdict on each material, shown at its row. */
  for (gsize i = 0; i < c->n_ids && errors != NULL && i < errors->len; i++)
    {
      XrlabMaterial *m = material_by_id (self, c->ids[i], NULL);
      const GError *e = g_ptr_array_index (errors, i);
      if (m == NULL)
        continue;
      if (e == NULL)
        g_hash_table_add (self->valid_once, GUINT_TO_POINTER (c->ids[i]));
      xrlab_material_set_error (m, e != NULL ? e->message : NULL);
      update_stale (self, m);
    }
  closure_free (c);
}

static void
send_materials (XrlabWindow *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->materials));
  g_autofree XrlabMaterialSpec *specs = g_new0 (XrlabMaterialSpec, n + 1);
  g_autoptr(GPtrArray) keep = g_ptr_array_new_with_free_func (g_object_unref);
  Closure *c = closure_new (self);

  c->ids = g_new (guint, n + 1);
  c->n_ids = n;
  for (guint i = 0; i < n; i++)
    {
      XrlabMaterial *m = g_list_model_get_item (G_LIST_MODEL (self->materials), i);
      g_ptr_array_add (keep, m);
      specs[i].id = c->ids[i] = xrlab_material_get_id (m);
      specs[i].name = xrlab_material_get_display_name (m);
      specs[i].formula = xrlab_material_get_formula (m);
      specs[i].density_g_cm3 = xrlab_material_get_density (m);
      specs[i].thickness_um = xrlab_material_get_thickness (m);
    }
  /* The engine copies the specs before this returns. */
  xrlab_engine_set_materials_async (self->engine, specs, n, self->cancellable, on_materials_set, c);
  self->materials_dirty = FALSE;
}

static void
on_grid_set (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  Closure *c = user_data;
  g_autoptr(GError) error = NULL;

  if (!xrlab_engine_set_grid_finish (XRLAB_ENGINE (source), result, &error) && !is_superseded (error))
    {
      /* Materials that cannot be computed on this grid keep their curves,
       * marked stale by the fetches; say why once. */
      xrlab_window_toast (c->self, error->message, 10);
    }
  closure_free (c);
}

/* Sends the grid of the current sweep when it changed. */
static void
send_grid (XrlabWindow *self)
{
  XrlabSweep sweep;
  double *x;
  g_autoptr(XrlabEnergyGrid) grid = NULL;
  g_autoptr(GError) error = NULL;

  if (!xrlab_sweep_controls_is_valid (self->sweep_controls) && self->grid_x != NULL)
    return;
  xrlab_sweep_controls_get_sweep (self->sweep_controls, &sweep);
  if (self->grid_x != NULL && xrlab_sweep_equal (&sweep, &self->grid_sweep))
    return;

  x = g_new (double, sweep.points);
  xrlab_sweep_fill (&sweep, x, NULL);
  /* The engine's grid is made of exactly the plotted points, with the
   * sweep's table choice for all of them. */
  grid = xrlab_energy_grid_new_for_table (x, sweep.points, sweep.unit, sweep.table, &error);
  if (grid == NULL)
    {
      xrlab_window_toast (self, error->message, 10);
      g_free (x);
      return;
    }
  g_clear_pointer (&self->grid_x, g_bytes_unref);
  self->grid_x = g_bytes_new_take (x, sweep.points * sizeof (double));
  self->grid_sweep = sweep;
  xrlab_engine_set_grid_async (self->engine, grid, self->cancellable, on_grid_set, closure_new (self));
}

/* ---- the plot consumer -------------------------------------------------------------- */

/* The table the plotted curves come from: the one the grid's choice takes
 * for the whole grid; -1 before there is a grid. */
static int
grid_table (XrlabWindow *self)
{
  double lo_ev, hi_ev;

  if (self->grid_x == NULL)
    return -1;
  xrlab_sweep_energy_range (&self->grid_sweep, &lo_ev, &hi_ev);
  return (int) xrlab_energy_choose_table (self->grid_sweep.table, lo_ev * 1e-3, hi_ev * 1e-3);
}

/* The view in the sweep's new unit: limits and pins converted (a
 * wavelength axis runs the other way), as the plot drops them when its
 * unit changes. A note under the plot names the table the curves come
 * from. */
static void
set_axes (XrlabWindow *self, XrlabQuantity quantity, XrlabEnergyUnit unit)
{
  const XrlabQuantityInfo *info = xrlab_quantity_get_info (quantity);
  const char *old_name = xrlab_plot_get_x_unit (self->plot);
  gboolean convert = FALSE, x_fixed;
  XrlabEnergyUnit old = unit;
  double x0, x1;
  guint n_pins;
  const double *pins;
  g_autofree double *pins_new = NULL;
  g_autofree char *note = NULL;
  int table = grid_table (self);

  for (int u = XRLAB_ENERGY_UNIT_KEV; u <= XRLAB_ENERGY_UNIT_ANGSTROM; u++)
    if (g_strcmp0 (old_name, xrlab_energy_unit_get_name ((XrlabEnergyUnit) u)) == 0)
      {
        old = (XrlabEnergyUnit) u;
        convert = old != unit;
      }
  x_fixed = xrlab_plot_get_x_limits (self->plot, &x0, &x1);
  pins = xrlab_plot_get_pins (self->plot, &n_pins);
  if (convert)
    {
      pins_new = g_new (double, n_pins + 1);
      for (guint i = 0; i < n_pins; i++)
        pins_new[i] = xrlab_energy_convert (pins[i], old, unit);
    }

  xrlab_plot_set_axes (self->plot,
                       unit == XRLAB_ENERGY_UNIT_ANGSTROM ? _("Wavelength") : _("Photon energy"),
                       xrlab_energy_unit_get_name (unit), xrlab_quantity_get_axis_name (quantity),
                       info->display_unit);
  if (table >= 0)
    /* TRANSLATORS: a note under the plot; %s is the name of a table ("Henke") */
    note = g_strdup_printf (_("%s tables"), xrlab_table_get_info ((XrlabTable) table)->title);
  xrlab_plot_set_note (self->plot, note);
  xrlab_plot_set_y_symbol (self->plot, info->symbol);
  if (convert)
    {
      if (x_fixed)
        {
          double a = xrlab_energy_convert (x0, old, unit), b = xrlab_energy_convert (x1, old, unit);
          xrlab_plot_set_x_limits (self->plot, MIN (a, b), MAX (a, b));
        }
      if (n_pins > 0)
        xrlab_plot_set_pins (self->plot, pins_new, n_pins);
    }
}

void
xrlab_window_data_set_axes (XrlabWindow *self, XrlabQuantity quantity, XrlabEnergyUnit unit)
{
  set_axes (self, quantity, unit);
}

/* Absorption edges of the elements in the current (valid) formulas shown,
 * within the sweep, in its unit: where the curves of @table jump
 * (xrlab_presets_get_table_edges(), one per xraylib shell: K to O and
 * beyond where the table has them), each labelled "Si K", grouped by
 * element, its priority for a crowded axis from its shell. Constant data,
 * looked up here without a round trip to the engine. */
static void
update_edges (XrlabWindow *self, const guint *ids, gsize n_ids, const XrlabSweep *sweep,
              XrlabTable table)
{
  g_autoptr(GArray) markers = g_array_new (FALSE, TRUE, sizeof (XrlabPlotMarker));
  g_autoptr(GArray) z = g_array_new (FALSE, FALSE, sizeof (int));
  g_autoptr(GArray) edges = NULL;
  double lo_ev, hi_ev;

  xrlab_sweep_energy_range (sweep, &lo_ev, &hi_ev);
  for (gsize i = 0; i < n_ids; i++)
    {
      XrlabMaterial *m = material_by_id (self, ids[i], NULL);
      g_autoptr(XrlabFormula) formula = NULL;

      if (m == NULL || xrlab_material_has_error (m))
        continue;
      formula = xrlab_formula_parse (xrlab_material_get_formula (m), NULL);
      if (formula != NULL)
        g_array_append_vals (z, xrlab_formula_get_z (formula), xrlab_formula_get_n_atoms (formula));
    }
  /* Repeated elements count once. */
  edges = xrlab_presets_get_table_edges ((const int *) (void *) z->data, z->len,
                                         (XrlabTableChoice) table, lo_ev * 1e-3, hi_ev * 1e-3, NULL);
  for (guint k = 0; edges != NULL && k < edges->len; k++)
    {
      const XrlabTableEdgeRef *e = &g_array_index (edges, XrlabTableEdgeRef, k);
      XrlabPlotMarker mk;

      mk.x = xrlab_energy_from_kev (e->edge->energy_ev * 1e-3, sweep->unit);
      mk.label = g_strdup_printf ("%s %s", xrlab_element_get_symbol (e->z),
                                  e->edge->shell != NULL ? e->edge->shell : "");
      mk.group = e->z;
      mk.priority = e->shell >= 0 ? xrlab_presets_shell_priority (e->shell) : G_MAXINT;
      g_array_append_val (markers, mk);
    }
  xrlab_plot_set_markers (self->plot, (XrlabPlotMarker *) (void *) markers->data, markers->len);
  for (guint k = 0; k < markers->len; k++)
    g_free (g_array_index (markers, XrlabPlotMarker, k).label);
}

static void
on_plot_fetched (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  Closure *c = user_data;
  XrlabWindow *self = c->self;
  g_autoptr(GError) error = NULL;
  XrlabEngineArrays *arrays;
  const XrlabQuantityInfo *info = xrlab_quantity_get_info (c->quantity);
  gsize n_points;
  const double *x;
  XrlabPlotData *data;

  arrays = xrlab_engine_fetch_finish (XRLAB_ENGINE (source), result, &error);
  if (arrays == NULL)
    {
      if (!is_superseded (error))
        {
          /* Nothing to draw with (no grid, a material gone): ask again. */
          g_debug ("plot fetch: %s", error->message);
          self->plot_dirty = TRUE;
        }
      closure_free (c);
      return;
    }

  x = g_bytes_get_data (c->x, &n_points);
  n_points /= sizeof (double);
  if (arrays->n_energies != n_points || arrays->n_quantities != 1)
    {
      /* A reply for another grid: a newer fetch is on its way. */
      xrlab_engine_arrays_free (arrays);
      closure_free (c);
      return;
    }

  data = xrlab_plot_data_new ();
  xrlab_plot_data_take_buffer (data, arrays, (GDestroyNotify) xrlab_engine_arrays_free);
  xrlab_plot_data_take_buffer (data, g_bytes_ref (c->x), (GDestroyNotify) g_bytes_unref);
  for (gsize i = 0; i < arrays->n_materials; i++)
    {
      XrlabMaterial *m = material_by_id (self, arrays->ids[i], NULL);
      gboolean stale;
      char *label;
      if (m == NULL || arrays->status[i] == XRLAB_ENGINE_VALUES_NONE)
        continue;
      /* A number that does not parse leaves the engine with the last valid
       * input: that curve is stale too, and so is every curve while the
       * sweep is not the one typed. */
      stale = arrays->status[i] == XRLAB_ENGINE_VALUES_STALE || xrlab_material_get_input_error (m) != NULL ||
              !xrlab_sweep_controls_is_valid (self->sweep_controls);
      if (arrays->status[i] == XRLAB_ENGINE_VALUES_STALE && arrays->messages[i] != NULL &&
          xrlab_material_get_error (m) == NULL)
        xrlab_material_set_error (m, arrays->messages[i]);
      xrlab_material_set_stale (m, stale);
      /* A transmission is that of a layer: its thickness belongs in the legend. */
      if (c->quantity == XRLAB_QUANTITY_TRANSMISSION)
        {
          g_autofree char *t = xrlab_format_user_number (xrlab_material_get_thickness (m), FALSE);
          /* TRANSLATORS: legend entry of a layer's transmission, e.g. "Si, 1 µm" */
          label = g_strdup_printf (_("%s, %s µm"), xrlab_material_get_display_name (m), t);
        }
      else
        label = g_strdup (xrlab_material_get_display_name (m));
      xrlab_plot_data_add_series_scaled (data, label, xrlab_material_get_color (m),
                                         x, xrlab_engine_arrays_get (arrays, i, c->quantity), n_points,
                                         stale, info->display_scale);
      g_clear_pointer (&label, g_free);
    }
  set_axes (self, c->quantity, c->sweep.unit);
  xrlab_plot_set_data (self->plot, data);
  update_edges (self, arrays->ids, arrays->n_materials, &c->sweep, arrays->table);
  xrlab_plot_data_unref (data);
  closure_free (c);
}

static void
fetch_plot (XrlabWindow *self)
{
  Closure *c;
  guint n_all = g_list_model_get_n_items (G_LIST_MODEL (self->materials));
  XrlabQuantity q = xrlab_plot_controls_get_quantity (self->plot_controls);
  g_autofree guint *ids = NULL;
  gsize n;

  self->plot_dirty = FALSE;
  ids = shown_ids (self, FALSE, &n);
  if (n == 0 || self->grid_x == NULL)
    {
      set_axes (self, q, self->grid_sweep.unit);
      xrlab_plot_set_message (self->plot,
                              n_all == 0 ? _("No materials yet. Add one in the sidebar (Ctrl+N).")
                                         : _("No material to show: switch one on, or correct its input."));
      xrlab_plot_set_data (self->plot, NULL);
      xrlab_plot_set_markers (self->plot, NULL, 0);
      return;
    }

  c = closure_new (self);
  c->quantity = q;
  c->x = g_bytes_ref (self->grid_x);
  c->sweep = self->grid_sweep;
  c->ids = g_steal_pointer (&ids);
  c->n_ids = n;
  xrlab_engine_fetch_async (self->engine, "plot", XRLAB_QUANTITY_BIT (q), c->ids, n,
                            self->cancellable, on_plot_fetched, c);
}

/* ---- the table consumer ------------------------------------------------------------- */

/* Molar mass, electron density and composition of the table's materials:
 * constant data, computed here from the formulas (no engine round trip). */
static void
set_value_properties (XrlabWindow *self, const guint *ids, gsize n)
{
  g_autofree double *molar = g_new (double, n + 1);
  g_autofree double *rho_e = g_new (double, n + 1);
  g_autoptr(GPtrArray) comp = g_ptr_array_new_with_free_func (g_free);

  for (gsize i = 0; i < n; i++)
    {
      XrlabMaterial *m = material_by_id (self, ids[i], NULL);
      g_autoptr(XrlabFormula) f = m != NULL ? xrlab_formula_parse (xrlab_material_get_formula (m), NULL) : NULL;
      GString *text = g_string_new (NULL);

      molar[i] = rho_e[i] = NAN;
      if (f != NULL)
        {
          const double *w = xrlab_formula_get_mass_fractions (f);
          const int *z = xrlab_formula_get_ids (f);
          molar[i] = xrlab_formula_get_molecular_weight (f);
          rho_e[i] = xrlab_optics_electron_density (f, xrlab_material_get_density (m));
          for (gsize a = 0; a < xrlab_formula_get_n_atoms (f); a++)
            {
              char pct[G_ASCII_DTOSTR_BUF_SIZE];
              /* With '.': the table puts in the locale's separator. */
              g_ascii_formatd (pct, sizeof pct, "%.3g", w[a] * 100);
              g_string_append_printf (text, "%s%s %s %%", a > 0 ? "; " : "", xrlab_element_get_symbol (z[a]), pct);
            }
        }
      g_ptr_array_add (comp, g_string_free (text, FALSE));
    }
  g_ptr_array_add (comp, NULL);
  xrlab_values_view_set_properties (self->values_view, (guint) n, molar, rho_e, (const char * const *) comp->pdata);
}

static void
on_values_fetched (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  Closure *c = user_data;
  XrlabWindow *self = c->self;
  g_autoptr(GError) error = NULL;
  XrlabEngineArrays *arrays;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autofree const char **notes = NULL;
  gsize k = 0;

  arrays = xrlab_engine_fetch_at_finish (XRLAB_ENGINE (source), result, &error);
  if (arrays == NULL)
    {
      if (!is_superseded (error))
        {
          g_debug ("table fetch: %s", error->message);
          self->values_dirty = TRUE;
        }
      closure_free (c);
      return;
    }
  g_assert (arrays->n_quantities == XRLAB_QUANTITY_N);

  notes = g_new0 (const char *, arrays->n_materials + 1);
  for (gsize i = 0; i < arrays->n_materials; i++)
    {
      XrlabMaterial *m = material_by_id (self, arrays->ids[i], NULL);
      g_ptr_array_add (names, g_strdup (m != NULL ? xrlab_material_get_display_name (m) : "?"));
      if (arrays->status[i] == XRLAB_ENGINE_VALUES_NONE)
        /* TRANSLATORS: column title note of a material whose input never was valid */
        notes[i] = _("no valid input");
      else if (arrays->status[i] == XRLAB_ENGINE_VALUES_STALE ||
               (m != NULL && xrlab_material_get_input_error (m) != NULL))
        /* TRANSLATORS: column title note of a material whose input is invalid */
        notes[i] = _("last valid");
      k++;
    }
  g_ptr_array_add (names, NULL);
  xrlab_values_view_set_table (self->values_view, (int) arrays->table);
  /* The table keeps the reply; its values are read in place. */
  xrlab_values_view_set_values (self->values_view, (guint) k, (const char * const *) names->pdata,
                                notes, arrays->values, arrays, (GDestroyNotify) xrlab_engine_arrays_free);
  set_value_properties (self, c->ids, k);
  closure_free (c);
}

static void
fetch_values (XrlabWindow *self)
{
  Closure *c;
  g_autofree guint *ids = NULL;
  gsize n;

  self->values_dirty = FALSE;
  ids = shown_ids (self, FALSE, &n);
  if (n == 0)
    {
      xrlab_values_view_clear (self->values_view);
      return;
    }
  c = closure_new (self);
  c->ids = g_steal_pointer (&ids);
  c->n_ids = n;
  xrlab_engine_fetch_at_async (self->engine, "table", xrlab_values_view_get_energy (self->values_view) * 1e-3,
                               XRLAB_QUANTITY_MASK_ALL, c->ids, n, self->cancellable, on_values_fetched, c);
}

/* ---- the round of requests ---------------------------------------------------------- */

/* How long a round waits for its replies before the frame is painted. */
#define ROUND_BUDGET_MS 10

static gboolean
pump_cb (gpointer user_data)
{
  XrlabWindow *self = user_data;

  while (g_main_context_iteration (self->replies, FALSE))
    ;
  if (self->pending > 0)
    return G_SOURCE_CONTINUE;
  self->pump_id = 0;
  return G_SOURCE_REMOVE;
}

static gboolean
deadline_cb (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Dispatches the replies of this round as they come, for at most
 * @budget_ms; what is still outstanding then is left to the pump. */
static void
wait_for_replies (XrlabWindow *self, guint budget_ms)
{
  gboolean expired = FALSE;
  GSource *deadline;

  if (self->pending == 0)
    return;
  deadline = g_timeout_source_new (budget_ms);
  g_source_set_callback (deadline, deadline_cb, &expired, NULL);
  g_source_attach (deadline, self->replies);
  while (self->pending > 0 && !expired)
    g_main_context_iteration (self->replies, TRUE);
  g_source_destroy (deadline);
  g_source_unref (deadline);
  if (self->pending > 0 && self->pump_id == 0)
    self->pump_id = g_timeout_add (1, pump_cb, self);
}

/* The diagnostics overlay: short lines, so that it stays in the corner of
 * the plot at any window size. */
static void
update_stats (XrlabWindow *self)
{
  static const char *const consumers[] = { "plot", "table" };
  g_autoptr(GString) text = NULL;

  if (!self->show_stats)
    {
      xrlab_plot_set_overlay_text (self->plot, NULL);
      return;
    }
  text = g_string_new (NULL);
  for (guint i = 0; i < G_N_ELEMENTS (consumers); i++)
    {
      XrlabEngineStats st = { 0 };
      xrlab_engine_get_stats (self->engine, consumers[i], &st);
      g_string_append_printf (text, "%-5s %llu req  %llu xfer  %.1f kB\n"
                                    "      compute %.2f ms  xfer %.2f ms\n",
                              consumers[i], (unsigned long long) st.n_requests,
                              (unsigned long long) st.n_transfers, st.bytes / 1024.0,
                              st.compute_s * 1e3, st.transfer_s * 1e3);
    }
  g_string_append_printf (text, "frame %.2f ms  data→frame %.2f ms",
                          xrlab_plot_get_last_render_ms (self->plot),
                          xrlab_plot_get_data_to_frame_ms (self->plot));
  xrlab_plot_set_overlay_text (self->plot, text->str);
}

static gboolean
refresh_cb (gpointer user_data)
{
  XrlabWindow *self = user_data;

  self->refresh_id = 0;
  g_main_context_push_thread_default (self->replies);
  if (self->materials_dirty)
    send_materials (self);
  send_grid (self);
  if (self->plot_dirty && plot_visible (self))
    fetch_plot (self);
  if (self->values_dirty && values_visible (self))
    fetch_values (self);
  g_main_context_pop_thread_default (self->replies);
  wait_for_replies (self, ROUND_BUDGET_MS);
  update_stats (self);
  return G_SOURCE_REMOVE;
}

static void
schedule (XrlabWindow *self)
{
  if (self->refresh_id == 0)
    /* Before the frame clock's redraw (GDK_PRIORITY_REDRAW). */
    self->refresh_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE, refresh_cb, self, NULL);
}

void
xrlab_window_data_invalidate (XrlabWindow *self)
{
  self->plot_dirty = TRUE;
  self->values_dirty = TRUE;
  schedule (self);
}

void
xrlab_window_data_flush (XrlabWindow *self)
{
  if (self->refresh_id == 0)
    return;
  g_clear_handle_id (&self->refresh_id, g_source_remove);
  refresh_cb (self);
}

/* ---- what triggers a recompute ------------------------------------------------------- */

static void
on_material_notify (XrlabMaterial *m,
                    GParamSpec    *pspec,
                    XrlabWindow   *self)
{
  const char *name = g_param_spec_get_name (pspec);

  /* Outputs of the engine's verdict are no reason for another round. */
  if (g_str_equal (name, "error") || g_str_equal (name, "stale") || g_str_equal (name, "message") ||
      g_str_equal (name, "display-name") || g_str_equal (name, "note"))
    return;
  if (g_str_equal (name, "input-error"))
    update_stale (self, m);
  /* Name and colour only change how the curve is drawn; visibility only
   * which curves are fetched. The engine needs the rest. */
  if (!g_str_equal (name, "color") && !g_str_equal (name, "visible"))
    self->materials_dirty = TRUE;
  xrlab_window_data_invalidate (self);
  xrlab_window_session_changed (self);
}

static void
on_materials_changed (GListModel  *model,
                      guint        position,
                      guint        removed,
                      guint        added,
                      XrlabWindow *self)
{
  for (guint i = position; i < position + added; i++)
    {
      g_autoptr(XrlabMaterial) m = g_list_model_get_item (model, i);
      /* Connected once per object, even when it moves. */
      g_signal_handlers_disconnect_by_func (m, on_material_notify, self);
      g_signal_connect_object (m, "notify", G_CALLBACK (on_material_notify), self, 0);
    }
  self->materials_dirty = TRUE;
  xrlab_window_data_invalidate (self);
  xrlab_window_session_changed (self);
}

/* The plot drawn again from what it has, every curve marked stale. */
static void
mark_plot_stale (XrlabWindow *self)
{
  XrlabPlotData *old = xrlab_plot_get_data (self->plot);
  XrlabPlotData *data;
  guint n;

  if (old == NULL)
    return;
  n = xrlab_plot_data_get_n_series (old);
  data = xrlab_plot_data_new ();
  xrlab_plot_data_take_buffer (data, xrlab_plot_data_ref (old), (GDestroyNotify) xrlab_plot_data_unref);
  for (guint i = 0; i < n; i++)
    {
      const XrlabPlotSeries *s = xrlab_plot_data_get_series (old, i);
      xrlab_plot_data_add_series_scaled (data, s->label, &s->color, s->x, s->y, s->n, TRUE, s->y_scale);
    }
  xrlab_plot_set_data (self->plot, data);
  xrlab_plot_data_unref (data);
}

/* An invalid sweep: the plot keeps the last valid one, marked stale, and
 * says why above it (the sidebar's message may be scrolled away). */
static void
on_sweep_error (XrlabSweepControls *controls,
                GParamSpec         *pspec,
                XrlabWindow        *self)
{
  const char *error = xrlab_sweep_controls_get_error (controls);
  gboolean was = gtk_revealer_get_reveal_child (self->plot_notice);

  if (error != NULL)
    {
      g_autofree char *start = xrlab_format_user_number (self->grid_sweep.start, FALSE);
      g_autofree char *stop = xrlab_format_user_number (self->grid_sweep.stop, FALSE);
      /* TRANSLATORS: the message of the sweep, then the sweep shown, e.g. "1 – 30 keV" */
      g_autofree char *text = g_strdup_printf (_("%s — the plot shows the last valid sweep, %s – %s %s."),
                                               error, start, stop,
                                               xrlab_energy_unit_get_name (self->grid_sweep.unit));
      gtk_label_set_text (self->plot_notice_label, text);
      gtk_revealer_set_reveal_child (self->plot_notice, TRUE);
      xrlab_plot_set_watermark (self->plot, _("last valid sweep"));
      if (!was)
        mark_plot_stale (self);
      return;
    }
  gtk_revealer_set_reveal_child (self->plot_notice, FALSE);
  xrlab_plot_set_watermark (self->plot, NULL);
  /* Valid again (perhaps the same sweep as before): fresh curves. */
  if (was)
    xrlab_window_data_invalidate (self);
}

static void
on_sweep_changed (XrlabSweepControls *controls,
                  XrlabWindow        *self)
{
  XrlabSweep sweep;

  /* The table's energy is typed in the unit of the sweep, within the
   * energies of the sweep's table choice. */
  xrlab_sweep_controls_get_sweep (controls, &sweep);
  xrlab_values_view_set_unit (self->values_view, sweep.unit);
  xrlab_values_view_set_range (self->values_view, xrlab_sweep_get_range (&sweep), sweep.table);
  xrlab_window_data_invalidate (self);
  xrlab_window_session_changed (self);
}

void
xrlab_window_data_quantity_changed (XrlabWindow *self)
{
  self->plot_dirty = TRUE;
  schedule (self);
  xrlab_window_session_changed (self);
}

static void
on_quantity_changed (XrlabPlotControls *controls,
                     GParamSpec        *pspec,
                     XrlabWindow       *self)
{
  xrlab_window_data_quantity_changed (self);
}

static void
on_axis_log_changed (XrlabPlotControls *controls,
                     GParamSpec        *pspec,
                     XrlabWindow       *self)
{
  /* No new data needed: the plot re-renders what it has. */
  xrlab_plot_set_x_log (self->plot, xrlab_plot_controls_get_x_log (controls));
  xrlab_plot_set_y_log (self->plot, xrlab_plot_controls_get_y_log (controls));
  xrlab_window_session_changed (self);
}

static void
on_values_energy_changed (XrlabValuesView *view,
                          GParamSpec      *pspec,
                          XrlabWindow     *self)
{
  self->values_dirty = TRUE;
  schedule (self);
  xrlab_window_session_changed (self);
}

static void
on_page_changed (AdwViewStack *stack,
                 GParamSpec   *pspec,
                 XrlabWindow  *self)
{
  /* A consumer that becomes visible fetches what it missed. */
  if (self->plot_dirty || self->values_dirty)
    schedule (self);
}

static void
on_plot_rendered (XrlabPlot   *plot,
                  double       ms,
                  XrlabWindow *self)
{
  if (self->show_stats)
    update_stats (self);
}

static void
on_plot_view_changed (XrlabPlot   *plot,
                      XrlabWindow *self)
{
  if (!self->applying)
    xrlab_window_session_changed (self);
}

static void
on_map (GtkWidget   *widget,
        XrlabWindow *self)
{
  on_page_changed (self->view_stack, NULL, self);
}

void
xrlab_window_data_init (XrlabWindow *self)
{
  self->engine = xrlab_engine_new ();
  self->cancellable = g_cancellable_new ();
  self->replies = g_main_context_new ();
  self->valid_once = g_hash_table_new (NULL, NULL);

  g_signal_connect_object (self->materials, "items-changed", G_CALLBACK (on_materials_changed), self, 0);
  g_signal_connect_object (self->sweep_controls, "changed", G_CALLBACK (on_sweep_changed), self, 0);
  g_signal_connect_object (self->sweep_controls, "notify::error", G_CALLBACK (on_sweep_error), self, 0);
  g_signal_connect_object (self->plot_controls, "notify::quantity", G_CALLBACK (on_quantity_changed), self, 0);
  g_signal_connect_object (self->plot_controls, "notify::x-log", G_CALLBACK (on_axis_log_changed), self, 0);
  g_signal_connect_object (self->plot_controls, "notify::y-log", G_CALLBACK (on_axis_log_changed), self, 0);
  g_signal_connect_object (self->values_view, "notify::energy-ev", G_CALLBACK (on_values_energy_changed), self, 0);
  g_signal_connect_object (self->view_stack, "notify::visible-child-name", G_CALLBACK (on_page_changed), self, 0);
  g_signal_connect_object (self->plot, "rendered", G_CALLBACK (on_plot_rendered), self, 0);
  g_signal_connect_object (self->plot, "view-changed", G_CALLBACK (on_plot_view_changed), self, 0);
  g_signal_connect (self, "map", G_CALLBACK (on_map), self);
  {
    XrlabSweep sweep;

    xrlab_sweep_controls_get_sweep (self->sweep_controls, &sweep);
    xrlab_values_view_set_range (self->values_view, xrlab_sweep_get_range (&sweep), sweep.table);
  }

  xrlab_plot_set_x_log (self->plot, xrlab_plot_controls_get_x_log (self->plot_controls));
  xrlab_plot_set_y_log (self->plot, xrlab_plot_controls_get_y_log (self->plot_controls));
  self->materials_dirty = TRUE;
  xrlab_window_data_invalidate (self);
}

void
xrlab_window_data_dispose (XrlabWindow *self)
{
  g_clear_handle_id (&self->refresh_id, g_source_remove);
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  /* Joins the worker; requests in flight complete with SHUT_DOWN, and
   * their callbacks (which hold a reference on the window) run here. */
  if (self->engine != NULL)
    xrlab_engine_shutdown (self->engine);
  if (self->replies != NULL)
    while (g_main_context_iteration (self->replies, FALSE))
      ;
  g_clear_handle_id (&self->pump_id, g_source_remove);
  g_clear_pointer (&self->replies, g_main_context_unref);
  g_clear_object (&self->engine);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->grid_x, g_bytes_unref);
  g_clear_pointer (&self->valid_once, g_hash_table_unref);
  g_clear_object (&self->presets);
}

/* ---- export ------------------------------------------------------------------------------ */

static void
on_exported (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  GTask *task = user_data;
  GError *error = NULL;

  if (xrlab_engine_export_csv_finish (XRLAB_ENGINE (source), result, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
  g_object_unref (task);
}

void
xrlab_window_data_export_csv (XrlabWindow         *self,
                              const char          *path,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  GTask *task = g_task_new (self, NULL, callback, user_data);
  g_autofree guint *ids = NULL;
  gsize n;

  g_task_set_source_tag (task, xrlab_window_data_export_csv);
  /* The edits made so far go first: the file shows what the window shows. */
  xrlab_window_data_flush (self);
  ids = shown_ids (self, TRUE, &n);
  if (n == 0)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                               _("There is no visible material with a valid input to export."));
      g_object_unref (task);
      return;
    }
  /* Written by the engine thread; no array passes through the window. */
  xrlab_engine_export_csv_async (self->engine, path, XRLAB_QUANTITY_MASK_ALL, ids, n,
                                 self->cancellable, on_exported, task);
}
