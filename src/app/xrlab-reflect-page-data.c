/* xrlab-reflect-page-data.c -- the Reflectivity page's link to the engine
 *
 * A round (at high idle priority, one per burst of edits): the stacks the
 * engine has not seen (one update each, which answers with the column of a
 * parse error, or the whole list when stacks came or went), then, when the
 * page is shown and its view is out of date, one fetch of the shown view.
 * Replies of an older round are dropped by a serial number; what a newer
 * edit replaced the engine answers SUPERSEDED. The plot and the map keep
 * the reply buffer and borrow their arrays from it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-reflect-page-private.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "xrlab-engine-reflect.h"
#include "xrlab-util.h"

/* The smallest transmission drawn on a log axis. */
#define TRANSMISSION_FLOOR 1e-12

static gboolean
is_superseded (const GError *error)
{
  return g_error_matches (error, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_SUPERSEDED)
         || g_error_matches (error, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_SHUT_DOWN)
         || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

/* ---- requests --------------------------------------------------------------------- */

typedef struct {
  XrlabReflectPage *self;
  XrlabStackItem *item;
  guint64 serial;
  XrlabReflectView view;
  double *x;                /* the x axis in display units (angle views) */
  gsize n_x;
} Closure;

static Closure *
closure_new (XrlabReflectPage *self)
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
  g_clear_object (&c->self);
  g_clear_object (&c->item);
  g_free (c->x);
  g_free (c);
}

static void
on_stack_updated (GObject *source, GAsyncResult *result, gpointer data)
{
  Closure *c = data;
  g_autoptr(GError) error = NULL;
  int column = 0;

  if (xrlab_engine_update_stack_finish (XRLAB_ENGINE (source), result, &column, &error))
    xrlab_stack_item_set_error (c->item, NULL, 0);
  else if (!is_superseded (error))
    xrlab_stack_item_set_error (c->item, error->message, column);
  closure_free (c);
}

static void
on_stacks_set (GObject *source, GAsyncResult *result, gpointer data)
{
  Closure *c = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) errors = NULL;

  if (xrlab_engine_set_stacks_finish (XRLAB_ENGINE (source), result, &errors, &error))
    for (guint i = 0; i < errors->len && i < g_list_model_get_n_items (G_LIST_MODEL (c->self->stacks)); i++)
      {
        GError *e = g_ptr_array_index (errors, i);
        XrlabStackItem *item = xrlab_reflect_page_item_at (c->self, i);

        /* The column comes with the fetch (or the next update). */
        if (e == NULL)
          xrlab_stack_item_set_error (item, NULL, 0);
        else if (g_strcmp0 (xrlab_stack_item_get_error (item), e->message) != 0)
          xrlab_stack_item_set_error (item, e->message, 0);
      }
  closure_free (c);
}

static void
send_stacks (XrlabReflectPage *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->stacks));

  if (self->list_dirty)
    {
      g_autofree XrlabStackSpec *specs = g_new0 (XrlabStackSpec, MAX (n, 1));

      for (guint i = 0; i < n; i++)
        {
          XrlabStackItem *item = xrlab_reflect_page_item_at (self, i);
          specs[i].id = xrlab_stack_item_get_id (item);
          specs[i].name = xrlab_stack_item_get_name (item);
          specs[i].text = xrlab_stack_item_get_text (item);
          specs[i].kind = xrlab_stack_item_get_kind (item);
          g_object_set_data_full (G_OBJECT (item), "sent-text", g_strdup (specs[i].text), g_free);
        }
      xrlab_engine_set_stacks_async (self->engine, specs, n, self->cancellable, on_stacks_set,
                                     closure_new (self));
    }
  for (guint i = 0; i < n; i++)
    {
      XrlabStackItem *item = xrlab_reflect_page_item_at (self, i);
      XrlabStackSpec spec = { xrlab_stack_item_get_id (item), xrlab_stack_item_get_name (item),
                              xrlab_stack_item_get_text (item), xrlab_stack_item_get_kind (item) };
      Closure *c;

      /* An update also after a new list: it answers with the column. */
      if (!self->list_dirty && !g_hash_table_contains (self->dirty, GUINT_TO_POINTER (spec.id)))
        continue;
      g_object_set_data_full (G_OBJECT (item), "sent-text", g_strdup (spec.text), g_free);
      c = closure_new (self);
      c->item = g_object_ref (item);
      xrlab_engine_update_stack_async (self->engine, &spec, self->cancellable, on_stack_updated, c);
    }
  g_hash_table_remove_all (self->dirty);
  self->list_dirty = FALSE;
}

/* The ids of the visible stacks of @kind. */
static GArray *
shown_ids (XrlabReflectPage *self, XrlabStackKind kind)
{
  GArray *ids = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->stacks)); i++)
    {
      XrlabStackItem *item = xrlab_reflect_page_item_at (self, i);
      if (xrlab_stack_item_get_kind (item) == kind && xrlab_stack_item_get_visible (item))
        {
          guint id = xrlab_stack_item_get_id (item);
          g_array_append_val (ids, id);
        }
    }
  return ids;
}

static XrlabStackItem *
item_by_id (XrlabReflectPage *self, guint id)
{
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->stacks)); i++)
    if (xrlab_stack_item_get_id (xrlab_reflect_page_item_at (self, i)) == id)
      return xrlab_reflect_page_item_at (self, i);
  return NULL;
}

static gboolean
monotonic (const double *v, gsize n)
{
  int sign = 0;

  for (gsize i = 1; i < n; i++)
    {
      int s = v[i] > v[i - 1] ? 1 : v[i] < v[i - 1] ? -1 : 0;
      if (s == 0 || (sign != 0 && s != sign))
        return FALSE;
      sign = s;
    }
  return TRUE;
}

/* The query of the shown view from the controls; FALSE with the message. */
static gboolean
build_query (XrlabReflectPage *self, XrlabReflectQuery *q, XrlabEnergyGrid **grid,
             double **angles_unit, double **angles_rad, gsize *n_a, GError **error)
{
  XrlabReflectView view = xrlab_reflect_page_view (self);
  XrlabAngleUnit unit = xrlab_reflect_page_degrees (self) ? XRLAB_ANGLE_UNIT_DEG : XRLAB_ANGLE_UNIT_MRAD;
  gboolean need_angles = view == XRLAB_REFLECT_VIEW_ANGLES || view == XRLAB_REFLECT_VIEW_MAP;

  memset (q, 0, sizeof *q);
  q->values = XRLAB_REFLECT_VALUE_BIT (XRLAB_REFLECT_VALUE_R);
  q->polarization = xrlab_reflect_page_polarization (self);
  *n_a = 0;
  if (need_angles)
    {
      *angles_unit = xrlab_angle_spec_parse (gtk_editable_get_text (GTK_EDITABLE (self->angles_entry)),
                                             unit, n_a, error);
      if (*angles_unit == NULL)
        return FALSE;
      if (!monotonic (*angles_unit, *n_a))
        {
          g_set_error (error, XRLAB_REFLECT_ERROR, XRLAB_REFLECT_ERROR_ANGLE_SPEC,
                       _("The angles must rise or fall, each once"));
          return FALSE;
        }
      *angles_rad = g_new (double, *n_a);
      for (gsize a = 0; a < *n_a; a++)
        (*angles_rad)[a] = xrlab_angle_to_rad ((*angles_unit)[a], unit);
      q->angles_rad = *angles_rad;
      q->n_angles = *n_a;
    }
  switch (view)
    {
    case XRLAB_REFLECT_VIEW_ANGLES:
      q->curve = XRLAB_REFLECT_CURVE_ANGLES;
      if (!xrlab_parse_double (gtk_editable_get_text (GTK_EDITABLE (self->energy_entry)), TRUE,
                               &q->energy_kev))
        {
          g_set_error (error, XRLAB_OPTICS_ERROR, XRLAB_OPTICS_ERROR_SPEC,
                       _("The energy “%s” is not a number of keV"),
                       gtk_editable_get_text (GTK_EDITABLE (self->energy_entry)));
          return FALSE;
        }
      q->table = xrlab_energy_choose_table (xrlab_reflect_page_table (self), q->energy_kev, q->energy_kev);
      return TRUE;
    case XRLAB_REFLECT_VIEW_ENERGIES:
      {
        g_autofree double *one = NULL;
        gsize n = 0;

        q->curve = XRLAB_REFLECT_CURVE_ENERGIES;
        one = xrlab_angle_spec_parse (gtk_editable_get_text (GTK_EDITABLE (self->angle_entry)), unit, &n, error);
        if (one == NULL)
          return FALSE;
        q->angle_rad = xrlab_angle_to_rad (one[0], unit);
      }
      break;
    case XRLAB_REFLECT_VIEW_MAP:
      q->curve = XRLAB_REFLECT_CURVE_MAP;
      break;
    case XRLAB_REFLECT_VIEW_FILTERS:
      q->curve = XRLAB_REFLECT_CURVE_FILTER;
      break;
    }
  *grid = xrlab_energy_grid_parse_for_table (gtk_editable_get_text (GTK_EDITABLE (self->energies_entry)),
                                             XRLAB_ENERGY_UNIT_KEV, xrlab_reflect_page_table (self), error);
  if (*grid == NULL)
    return FALSE;
  if (!monotonic (xrlab_energy_grid_get_energies_kev (*grid), xrlab_energy_grid_get_size (*grid)))
    {
      g_set_error (error, XRLAB_OPTICS_ERROR, XRLAB_OPTICS_ERROR_SPEC,
                   _("The energies must rise or fall, each once"));
      return FALSE;
    }
  q->grid = *grid;
  q->table = xrlab_energy_grid_get_table (*grid);
  return TRUE;
}

static gboolean
spaced_in_log (const double *v, gsize n)
{
  if (n < 3 || !(v[0] > 0) || !(v[n - 1] > 0))
    return FALSE;
  return fabs (log (v[1] / v[0]) - log (v[n - 1] / v[n - 2])) < 1e-6 * fabs (log (v[1] / v[0]))
         && fabs ((v[1] - v[0]) - (v[n - 1] - v[n - 2])) > 1e-6 * fabs (v[1] - v[0]);
}

static gboolean refresh (gpointer data);

/* ---- replies: the plot -------------------------------------------------------------- */

static const char *
value_label (XrlabReflectView view)
{
  return view == XRLAB_REFLECT_VIEW_FILTERS ? _("Transmission (total)") : _("Reflectivity");
}

/* "Henke tables": the note that names the table of a reply. */
static char *
table_note (const XrlabEngineCurves *c)
{
  /* TRANSLATORS: a note under the plot; %s is the name of a table ("Henke") */
  return g_strdup_printf (_("%s tables"), xrlab_table_get_info (c->table)->title);
}

/* The markers of a reply: one per material name (the first stack's). */
static void
set_markers (XrlabReflectPage *self, const XrlabEngineCurves *c, XrlabReflectView view, double scale)
{
  g_autoptr(GArray) markers = g_array_new (FALSE, TRUE, sizeof (XrlabPlotMarker));
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  for (gsize k = 0; k < c->mark_start[c->n_stacks]; k++)
    {
      XrlabPlotMarker mk;

      if (!isfinite (c->marks[k]) || !g_hash_table_add (seen, (gpointer) c->mark_names[k]))
        continue;
      mk.x = c->marks[k] * scale;
      mk.label = view == XRLAB_REFLECT_VIEW_ANGLES ? g_strdup_printf ("%s θc", c->mark_names[k])
                                                   : g_strdup_printf (_("%s cut-off"), c->mark_names[k]);
      g_array_append_val (markers, mk);
    }
  xrlab_plot_set_markers (self->plot, (XrlabPlotMarker *) (void *) markers->data, markers->len);
  for (guint k = 0; k < markers->len; k++)
    g_free (g_array_index (markers, XrlabPlotMarker, k).label);
}

static void
show_curves (XrlabReflectPage *self, Closure *cl, XrlabEngineCurves *c)
{
  g_autoptr(XrlabPlotData) data = xrlab_plot_data_new ();
  g_autofree char *note = table_note (c);
  XrlabReflectValue value = cl->view == XRLAB_REFLECT_VIEW_FILTERS ? XRLAB_REFLECT_VALUE_T
                                                                    : XRLAB_REFLECT_VALUE_R;
  gboolean angles = cl->view == XRLAB_REFLECT_VIEW_ANGLES;
  const double *x = angles ? cl->x : c->energies_kev;
  gsize n = c->n_points;
  gboolean deg = xrlab_reflect_page_degrees (self);

  for (gsize s = 0; s < c->n_stacks; s++)
    {
      XrlabStackItem *item = item_by_id (self, c->ids[s]);

      if (item == NULL || c->status[s] == XRLAB_ENGINE_VALUES_NONE)
        continue;
      /* A filter's transmission falls below 1e-100 in the soft X-rays: on a
       * log axis only what a detector could see is drawn. */
      if (cl->view == XRLAB_REFLECT_VIEW_FILTERS && xrlab_plot_get_y_log (self->plot))
        {
          double *t = (double *) xrlab_engine_curves_get (c, s, value);
          for (gsize i = 0; i < n; i++)
            if (t[i] < TRANSMISSION_FLOOR)
              t[i] = NAN;
        }
      xrlab_plot_data_add_series (data, xrlab_stack_item_get_label (item), xrlab_stack_item_get_color (item),
                                  x, xrlab_engine_curves_get (c, s, value), n,
                                  c->status[s] == XRLAB_ENGINE_VALUES_STALE);
      /* The fetch knows the column of a parse error. */
      if (c->messages[s] != NULL && c->error_columns[s] > 0)
        xrlab_stack_item_set_error (item, c->messages[s], c->error_columns[s]);
    }
  if (angles)
    {
      xrlab_plot_data_take_buffer (data, g_steal_pointer (&cl->x), g_free);
      xrlab_plot_set_axes (self->plot, _("Grazing angle"), deg ? "°" : "mrad", value_label (cl->view), NULL);
      xrlab_plot_set_x_log (self->plot, FALSE);
    }
  else
    {
      xrlab_plot_set_axes (self->plot, _("Photon energy"), "keV", value_label (cl->view), NULL);
      xrlab_plot_set_x_log (self->plot, spaced_in_log (c->energies_kev, c->n_energies));
    }
  if (cl->view != XRLAB_REFLECT_VIEW_FILTERS)
    set_markers (self, c, cl->view, angles ? (deg ? 180.0 / G_PI : 1e3) : 1.0);
  else
    xrlab_plot_set_markers (self->plot, NULL, 0);
  xrlab_plot_set_note (self->plot, note);
  xrlab_plot_data_take_buffer (data, c, (GDestroyNotify) xrlab_engine_curves_free);
  xrlab_plot_set_message (self->plot, cl->view == XRLAB_REFLECT_VIEW_FILTERS
                          ? _("Add a filter stack, or show one") : _("Add a stack, or show one"));
  xrlab_plot_set_data (self->plot, data);
}

typedef struct {
  XrlabEngineCurves *c;
  double *x;
} MapOwner;

static void
map_owner_free (gpointer data)
{
  MapOwner *owner = data;

  xrlab_engine_curves_free (owner->c);
  g_free (owner->x);
  g_free (owner);
}

static void
show_map (XrlabReflectPage *self, Closure *cl, XrlabEngineCurves *c)
{
  XrlabStackItem *item = c->n_stacks > 0 ? item_by_id (self, c->ids[0]) : NULL;
  gboolean deg = xrlab_reflect_page_degrees (self);
  double *x = g_steal_pointer (&cl->x);
  gsize n_x = cl->n_x;

  if (item == NULL || c->status[0] == XRLAB_ENGINE_VALUES_NONE)
    {
      xrlab_map_view_set_message (self->map_view, c->n_stacks > 0 && c->messages[0] != NULL
                                  ? c->messages[0] : _("Select a mirror or multilayer for its map"));
      xrlab_map_view_set_map (self->map_view, NULL, NULL, 0, NULL, 0, NULL, NULL);
      xrlab_engine_curves_free (c);
      g_free (x);
      return;
    }
  xrlab_map_view_set_axes (self->map_view, _("Grazing angle"), deg ? "°" : "mrad", FALSE,
                           _("Photon energy"), "keV", spaced_in_log (c->energies_kev, c->n_energies));
  xrlab_map_view_set_values (self->map_view, "R", TRUE);
  {
    /* TRANSLATORS: the map's title: the stack, then a table's name ("Henke") */
    g_autofree char *title = g_strdup_printf (_("%s · %s tables"), xrlab_stack_item_get_label (item),
                                              xrlab_table_get_info (c->table)->title);
    xrlab_map_view_set_title (self->map_view, title);
  }
  /* The x axis in display units lives with the reply. */
  {
    MapOwner *owner = g_new (MapOwner, 1);

    owner->c = c;
    owner->x = x;
    xrlab_map_view_set_map (self->map_view, xrlab_engine_curves_get (c, 0, XRLAB_REFLECT_VALUE_R),
                            x, n_x, c->energies_kev, c->n_energies, owner, map_owner_free);
  }
}

static void
on_fetched (GObject *source, GAsyncResult *result, gpointer data)
{
  Closure *cl = data;
  XrlabReflectPage *self = cl->self;
  g_autoptr(GError) error = NULL;
  XrlabEngineCurves *c;

  if (g_async_result_is_tagged (result, xrlab_engine_reflect_map_async))
    c = xrlab_engine_reflect_map_finish (XRLAB_ENGINE (source), result, &error);
  else
    c = xrlab_engine_reflect_fetch_finish (XRLAB_ENGINE (source), result, &error);
  if (c == NULL)
    {
      if (!is_superseded (error) && cl->serial == self->serial)
        xrlab_reflect_page_set_message (self, error->message);
    }
  else if (cl->serial != self->serial)
    xrlab_engine_curves_free (c);
  else if (cl->view == XRLAB_REFLECT_VIEW_MAP)
    show_map (self, cl, c);
  else
    show_curves (self, cl, c);
  closure_free (cl);
}

/* The stacks of the shown view: the visible ones of its kind, or the
 * selected one for a map (NULL with the message when there is none). */
static GArray *
view_ids (XrlabReflectPage *self, GError **error)
{
  XrlabReflectView view = xrlab_reflect_page_view (self);
  XrlabStackItem *item = xrlab_stack_editor_get_item (self->editor);
  GArray *ids;
  guint id;

  if (view != XRLAB_REFLECT_VIEW_MAP)
    return shown_ids (self, view == XRLAB_REFLECT_VIEW_FILTERS ? XRLAB_STACK_FILTER : XRLAB_STACK_REFLECT);
  if (item == NULL || xrlab_stack_item_get_kind (item) != XRLAB_STACK_REFLECT)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("Select a mirror or multilayer for its map"));
      return NULL;
    }
  ids = g_array_new (FALSE, FALSE, sizeof (guint));
  id = xrlab_stack_item_get_id (item);
  g_array_append_val (ids, id);
  return ids;
}

static void
fetch_view (XrlabReflectPage *self)
{
  XrlabReflectView view = xrlab_reflect_page_view (self);
  g_autoptr(XrlabEnergyGrid) grid = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree double *angles_unit = NULL, *angles_rad = NULL;
  g_autoptr(GArray) ids = NULL;
  XrlabReflectQuery q;
  Closure *cl;
  gsize n_a = 0;

  self->view_dirty = FALSE;
  if (!build_query (self, &q, &grid, &angles_unit, &angles_rad, &n_a, &error))
    {
      xrlab_reflect_page_set_message (self, error->message);
      return;
    }
  xrlab_reflect_page_set_message (self, NULL);
  ids = view_ids (self, &error);
  if (ids == NULL)
    {
      xrlab_map_view_set_message (self->map_view, error->message);
      xrlab_map_view_set_map (self->map_view, NULL, NULL, 0, NULL, 0, NULL, NULL);
      return;
    }

  cl = closure_new (self);
  cl->serial = ++self->serial;
  cl->view = view;
  cl->x = g_steal_pointer (&angles_unit);
  cl->n_x = n_a;
  if (view == XRLAB_REFLECT_VIEW_MAP)
    {
      if (self->map_cancellable != NULL)
        g_cancellable_cancel (self->map_cancellable);
      g_clear_object (&self->map_cancellable);
      self->map_cancellable = g_cancellable_new ();
      xrlab_engine_reflect_map_async (self->engine, "reflect-map", &q, (guint *) (void *) ids->data,
                                      ids->len, NULL, NULL, self->map_cancellable, on_fetched, cl);
    }
  else
    xrlab_engine_reflect_fetch_async (self->engine, "reflect-plot", &q, (guint *) (void *) ids->data,
                                      ids->len, self->cancellable, on_fetched, cl);
}

/* ---- export ------------------------------------------------------------------------ */

static void
on_csv_written (GObject *source, GAsyncResult *result, gpointer data)
{
  GTask *task = data;
  GError *error = NULL;

  if (xrlab_engine_reflect_export_csv_finish (XRLAB_ENGINE (source), result, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
  g_object_unref (task);
}

void
xrlab_reflect_page_export_csv (XrlabReflectPage    *self,
                               const char          *path,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  GTask *task;
  g_autoptr(XrlabEnergyGrid) grid = NULL;
  g_autofree double *angles_unit = NULL, *angles_rad = NULL;
  g_autoptr(GArray) ids = NULL;
  GError *error = NULL;
  XrlabReflectQuery q;
  gsize n_a = 0;

  g_return_if_fail (XRLAB_IS_REFLECT_PAGE (self));
  task = g_task_new (self, NULL, callback, user_data);
  g_task_set_source_tag (task, xrlab_reflect_page_export_csv);
  /* The edits so far go first: the file shows what the page shows. */
  g_clear_handle_id (&self->refresh_id, g_source_remove);
  refresh (self);
  if (self->engine == NULL
      || !build_query (self, &q, &grid, &angles_unit, &angles_rad, &n_a, &error)
      || (ids = view_ids (self, &error)) == NULL)
    {
      if (error == NULL)
        g_set_error_literal (&error, G_IO_ERROR, G_IO_ERROR_FAILED, _("There is no engine"));
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }
  /* The file has both polarizations beside the mix the plot shows. */
  q.values = XRLAB_REFLECT_VALUES_R;
  xrlab_engine_reflect_export_csv_async (self->engine, path, &q, (guint *) (void *) ids->data, ids->len,
                                         self->cancellable, on_csv_written, task);
}

gboolean
xrlab_reflect_page_export_csv_finish (XrlabReflectPage *self, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

static gboolean
refresh (gpointer data)
{
  XrlabReflectPage *self = data;

  self->refresh_id = 0;
  if (self->engine == NULL)
    return G_SOURCE_REMOVE;
  send_stacks (self);
  if (self->active && self->view_dirty)
    fetch_view (self);
  return G_SOURCE_REMOVE;
}

void
xrlab_reflect_page_schedule (XrlabReflectPage *self)
{
  if (self->refresh_id == 0 && self->engine != NULL)
    self->refresh_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE, refresh, self, NULL);
}

