/* xrlab-fit-page-data.c -- the Fit page's link to the engine
 *
 * Opening is xrlab-fit-page-open.c's. A round (at high idle priority,
 * one per burst of edits) fetches what is out of date and shown: the map,
 * the spectrum at the cursor's delay, the trace at its energy, the
 * parameter table, the results after a fit. Replies of older rounds are
 * dropped by a serial number per consumer. As the window's own rounds
 * (xrlab-window-data.c), a round's fetches reply on a context of the page's
 * own, which the round dispatches for at most ROUND_BUDGET_MS: the frame
 * that follows an edit draws its new curves, not the one after it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-fit-page-private.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>


enum { C_MAP, C_SPECTRUM, C_TRACE, C_PARAMS, C_TRACES, C_BPARAMS };

/* How long a round waits for its replies before the frame is painted. */
#define ROUND_BUDGET_MS 12
static const char *const consumers[] = { "fit-map", "fit-spectrum", "fit-trace", "fit-params" };

/* Curve colours (readable on the light and the dark palette). */
static const char *const component_colors[] = {
  "#26a269", "#9141ac", "#c88800", "#1a8a97", "#c061cb", "#986a44", "#5e5c64",
};
#define DATA_COLOR "#77767b"
#define MODEL_COLOR "#e66100"
#define RESIDUAL_COLOR "#1c71d8"

gboolean
xrlab_fit_page_error_is_quiet (const GError *error)
{
  return g_error_matches (error, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_SUPERSEDED)
         || g_error_matches (error, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_SHUT_DOWN)
         || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

/* ---- closures ------------------------------------------------------------------ */

typedef struct {
  XrlabFitPage *self;
  guint64 serial;
  int consumer;
  char *name;                  /* of an edited parameter */
  XrlabFitModelRole role;      /* of its model */
  gboolean in_round;           /* a fetch of a round (replies on self->replies) */
  gboolean is_value;           /* a value edit of @value */
  gboolean fitted;             /* time dependence at a fit's values */
  double value;
  double at;                   /* the delay of a spectrum, the energy of a trace */
} Closure;

static Closure *
closure_new (XrlabFitPage *self, int consumer)
{
  Closure *c = g_new0 (Closure, 1);

  c->self = g_object_ref (self);
  c->consumer = consumer;
  if (consumer >= 0)
    c->serial = ++self->serial[consumer];
  self->pending++;
  return c;
}

static Closure *
round_closure_new (XrlabFitPage *self, int consumer)
{
  Closure *c = closure_new (self, consumer);

  c->in_round = TRUE;
  self->round_pending++;
  return c;
}

static void
closure_free (Closure *c)
{
  if (c->in_round)
    c->self->round_pending--;
  c->self->pending--;
  g_clear_object (&c->self);
  g_free (c->name);
  g_free (c);
}

static gboolean
closure_current (Closure *c)
{
  return c->consumer < 0 || c->serial == c->self->serial[c->consumer];
}

/* ---- parameter edits --------------------------------------------------------------- */

static void
on_edited (GObject *source, GAsyncResult *result, gpointer data)
{
  Closure *c = data;
  g_autoptr(GError) error = NULL;

  if (xrlab_engine_fit_edit_params_finish (XRLAB_ENGINE (source), result, &error))
    {
      double e;

      xrlab_fit_page_table_set_error (c->self, c->role, c->name, NULL);
      if (c->is_value && c->role == XRLAB_FIT_MODEL_MAIN)
        {
          xrlab_fit_workspace_set_value (&c->self->ws, c->name, c->value);
          g_signal_emit_by_name (c->self, "changed");
        }
      /* a baseline value typed after its fit: the one to open with */
      else if (c->is_value && xrlab_fit_workspace_get_baseline (&c->self->ws, c->name, NULL, &e))
        {
          xrlab_fit_workspace_set_baseline (&c->self->ws, c->name, c->value, e);
          g_signal_emit_by_name (c->self, "changed");
        }
    }
  else if (!xrlab_fit_page_error_is_quiet (error))
    xrlab_fit_page_table_set_error (c->self, c->role, c->name, error->message);
  closure_free (c);
}

void
xrlab_fit_page_send_edit (XrlabFitPage *self, const XrlabFitParamEdit *edit)
{
  Closure *c;

  if (self->setup == 0)
    return;
  c = closure_new (self, -1);
  c->name = g_strdup (edit->name);
  c->role = edit->model;
  c->is_value = edit->fields == XRLAB_FIT_PARAM_VALUE;
  c->value = edit->value;
  xrlab_engine_fit_edit_params_async (self->engine, self->setup, edit, 1, self->cancellable, on_edited, c);
  if (edit->model == XRLAB_FIT_MODEL_BASELINE)
    {
      /* The baseline model's table; the checks of the stages (the main
       * table's message) after other edits than a value's. */
      self->bparams_dirty = TRUE;
      self->params_dirty |= edit->fields != XRLAB_FIT_PARAM_VALUE;
      xrlab_fit_page_schedule (self);
      return;
    }
  /* The model changed: what shows it is out of date. */
  xrlab_fit_page_traces_follow (self);
  self->spectrum_dirty = self->trace_dirty = self->params_dirty = TRUE;
  if (self->map_kind != XRLAB_FIT_MAP_DATA)
    self->map_dirty = TRUE;
  xrlab_fit_page_schedule (self);
}

/* ---- kept previews ------------------------------------------------------------------ */

/* A reply shared by the plots that borrow from it and the page. */
typedef struct {
  XrlabFitPreview *pv;
} PreviewRef;

static void
preview_ref_clear (gpointer data)
{
  g_free (((PreviewRef *) data)->pv);
}

void
xrlab_fit_preview_ref_release (gpointer ref)
{
  g_rc_box_release_full (ref, preview_ref_clear);
}

static PreviewRef *
preview_ref_new (XrlabFitPreview *pv)
{
  PreviewRef *ref = g_rc_box_new0 (PreviewRef);

  ref->pv = pv;
  return ref;
}

/* The axes and the data of a spectrum or a trace, fetched once per
 * position: the edits that follow fetch only what the model changes. */
typedef struct {
  PreviewRef *ref;
  guint setup;
  double at;
} CurveBase;

enum { BASE_SPECTRUM, BASE_TRACE };

static void
curve_base_free (CurveBase *b)
{
  if (b == NULL)
    return;
  xrlab_fit_preview_ref_release (b->ref);
  g_free (b);
}

static gboolean
same_position (double a, double b)
{
  return a == b || (isnan (a) && isnan (b));
}

/* The base for a curve at @at, or NULL. */
static CurveBase *
curve_base_get (XrlabFitPage *self, int which, double at)
{
  CurveBase *b = self->curve_base[which];

  return b != NULL && b->setup == self->setup && same_position (b->at, at) ? b : NULL;
}

static void
curve_base_set (XrlabFitPage *self, int which, PreviewRef *ref, double at)
{
  CurveBase *b = g_new0 (CurveBase, 1);

  b->ref = g_rc_box_acquire (ref);
  b->setup = self->setup;
  b->at = at;
  curve_base_free (self->curve_base[which]);
  self->curve_base[which] = b;
}

/* The base a reply without axes is drawn with: of the same block, or NULL
 * (then it is fetched again, whole). */
static CurveBase *
curve_base_match (XrlabFitPage *self, int which, const XrlabFitPreview *pv, double at)
{
  CurveBase *b = curve_base_get (self, which, at);

  if (b != NULL && b->ref->pv->row0 == pv->row0 && b->ref->pv->n_rows == pv->n_rows
      && b->ref->pv->col0 == pv->col0 && b->ref->pv->n_cols == pv->n_cols)
    return b;
  g_clear_pointer (&self->curve_base[which], curve_base_free);
  return NULL;
}

/* ---- the map ---------------------------------------------------------------------- */

static void
on_map (GObject *source, GAsyncResult *result, gpointer data)
{
  Closure *c = data;
  XrlabFitPage *self = c->self;
  g_autoptr(GError) error = NULL;
  XrlabFitPreview *pv = xrlab_engine_fit_preview_finish (XRLAB_ENGINE (source), result, &error);
  const double *values;

  if (pv == NULL || !closure_current (c))
    {
      if (pv == NULL && !xrlab_fit_page_error_is_quiet (error) && closure_current (c))
        xrlab_map_view_set_message (self->map_view, error->message);
      g_free (pv);
      closure_free (c);
      return;
    }
  if (self->energies == NULL)
    {
      self->energies = g_memdup2 (pv->energy, pv->n_cols * sizeof (double));
      self->n_energies = pv->n_cols;
      self->n_delays = pv->n_rows;
      self->delays = pv->delay != NULL ? g_memdup2 (pv->delay, pv->n_rows * sizeof (double)) : NULL;
    }
  values = self->map_kind == XRLAB_FIT_MAP_DATA ? pv->data
           : self->map_kind == XRLAB_FIT_MAP_MODEL ? pv->model : pv->residual;
  if (self->map_kind == XRLAB_FIT_MAP_RESIDUAL)
    {
      double m = 0.0;

      /* the largest finite |r|, without a branch */
      for (gsize i = 0; i < pv->n_rows * pv->n_cols; i++)
        {
          double a = fabs (values[i]);
          m = a > m && a <= G_MAXDOUBLE ? a : m;
        }
      xrlab_map_view_set_colormap (self->map_view, XRLAB_MAP_COLORMAP_DIVERGING, -MAX (m, 1e-300), MAX (m, 1e-300));
    }
  else
    xrlab_map_view_set_colormap (self->map_view, XRLAB_MAP_COLORMAP_VIRIDIS, NAN, NAN);
  xrlab_map_view_set_values (self->map_view,
                             self->map_kind == XRLAB_FIT_MAP_RESIDUAL ? _("Residual")
                             : self->map_kind == XRLAB_FIT_MAP_MODEL ? _("Model") : _("Intensity"),
                             self->map_kind != XRLAB_FIT_MAP_RESIDUAL && gtk_toggle_button_get_active (self->log_button));
  if (pv->delay != NULL && pv->n_rows > 1)
    xrlab_map_view_set_map (self->map_view, values, pv->energy, pv->n_cols, pv->delay, pv->n_rows, pv, g_free);
  else
    {
      xrlab_map_view_set_map (self->map_view, NULL, NULL, 0, NULL, 0, NULL, NULL);
      xrlab_map_view_set_message (self->map_view, _("A single spectrum: no delay axis"));
      g_free (pv);
    }
  xrlab_fit_page_update_overlays (self);
  closure_free (c);
}

static void
fetch_map (XrlabFitPage *self)
{
  XrlabFitPreviewSpec spec = { 0 };

  spec.model = XRLAB_FIT_MODEL_MAIN;
  spec.view = XRLAB_FIT_VIEW_MAP;
  spec.series = XRLAB_FIT_SERIES_AXES
                | (self->map_kind == XRLAB_FIT_MAP_DATA ? XRLAB_FIT_SERIES_DATA
                   : self->map_kind == XRLAB_FIT_MAP_MODEL ? XRLAB_FIT_SERIES_MODEL : XRLAB_FIT_SERIES_RESIDUAL);
  xrlab_engine_fit_preview_async (self->engine, self->setup, consumers[C_MAP], &spec, self->cancellable,
                                  on_map, round_closure_new (self, C_MAP));
}

/* ---- the spectrum and the trace ------------------------------------------------------ */

static GdkRGBA
rgba (const char *spec)
{
  GdkRGBA c;

  gdk_rgba_parse (&c, spec);
  return c;
}

/* Plot data that keep the replies @ref and @base alive. */
static XrlabPlotData *
plot_data_new (PreviewRef *ref, PreviewRef *base)
{
  XrlabPlotData *d = xrlab_plot_data_new ();

  xrlab_plot_data_take_buffer (d, g_rc_box_acquire (ref), xrlab_fit_preview_ref_release);
  xrlab_plot_data_take_buffer (d, g_rc_box_acquire (base), xrlab_fit_preview_ref_release);
  return d;
}

/* @ref's model with the axes and data of @base (which may be @ref). */
static void
draw_spectrum (XrlabFitPage *self, PreviewRef *ref, PreviewRef *base)
{
  g_autoptr(XrlabPlotData) data = plot_data_new (ref, base);
  g_autoptr(XrlabPlotData) res = plot_data_new (ref, base);
  XrlabFitPreview *pv = ref->pv;
  const double *energy = base->pv->energy;
  GdkRGBA c;

  c = rgba (DATA_COLOR);
  xrlab_plot_data_add_series (data, _("Data"), &c, energy, base->pv->data, pv->n_cols, FALSE);
  for (gsize k = 0; k < pv->n_components; k++)
    {
      c = rgba (component_colors[k % G_N_ELEMENTS (component_colors)]);
      xrlab_plot_data_add_series (data, pv->component_names[k], &c, energy,
                                  pv->components + k * pv->n_cols, pv->n_cols, self->stale);
    }
  c = rgba (MODEL_COLOR);
  xrlab_plot_data_add_series (data, _("Model"), &c, energy, pv->model, pv->n_cols, self->stale);
  /* The model's curves change with each edit, the data's do not. */
  for (guint i = 1; i < xrlab_plot_data_get_n_series (data); i++)
    xrlab_plot_data_set_live (data, i, TRUE);
  xrlab_plot_set_data (self->spectrum, data);
  c = rgba (RESIDUAL_COLOR);
  xrlab_plot_data_add_series (res, _("Residual"), &c, energy, pv->residual, pv->n_cols, self->stale);
  xrlab_plot_data_set_live (res, 0, TRUE);
  xrlab_plot_set_data (self->residual, res);
}

void
xrlab_fit_page_redraw_spectrum (XrlabFitPage *self)
{
  PreviewRef *ref = self->last_spectrum;
  CurveBase *b = self->curve_base[BASE_SPECTRUM];

  if (ref == NULL)
    return;
  if (ref->pv->data != NULL)
    draw_spectrum (self, ref, ref);
  else if (b != NULL && b->ref->pv->n_cols == ref->pv->n_cols)
    draw_spectrum (self, ref, b->ref);
}

static void
on_spectrum (GObject *source, GAsyncResult *result, gpointer data)
{
  Closure *c = data;
  XrlabFitPage *self = c->self;
  g_autoptr(GError) error = NULL;
  XrlabFitPreview *pv = xrlab_engine_fit_preview_finish (XRLAB_ENGINE (source), result, &error);

  if (pv != NULL && closure_current (c))
    {
      if (pv->data == NULL && curve_base_match (self, BASE_SPECTRUM, pv, c->at) == NULL)
        {
          /* The block moved under the kept data: fetched again, whole. */
          self->spectrum_dirty = TRUE;
          xrlab_fit_page_schedule (self);
          g_free (pv);
          closure_free (c);
          return;
        }
      g_clear_pointer (&self->last_spectrum, xrlab_fit_preview_ref_release);
      self->last_spectrum = preview_ref_new (pv);
      if (pv->data != NULL)
        curve_base_set (self, BASE_SPECTRUM, self->last_spectrum, c->at);
      pv = NULL;
      xrlab_fit_page_redraw_spectrum (self);
    }
  else if (pv == NULL && !xrlab_fit_page_error_is_quiet (error) && closure_current (c))
    xrlab_plot_set_message (self->spectrum, error->message);
  g_free (pv);
  closure_free (c);
}

static void
draw_trace (XrlabFitPage *self, PreviewRef *ref, PreviewRef *base)
{
  g_autoptr(XrlabPlotData) d = plot_data_new (ref, base);
  XrlabFitPreview *pv = ref->pv;
  const double *delay = base->pv->delay;
  GdkRGBA col;

  col = rgba (DATA_COLOR);
  xrlab_plot_data_add_series (d, _("Data"), &col, delay, base->pv->data, pv->n_rows, FALSE);
  col = rgba (MODEL_COLOR);
  xrlab_plot_data_add_series (d, _("Model"), &col, delay, pv->model, pv->n_rows, self->stale);
  col = rgba (RESIDUAL_COLOR);
  xrlab_plot_data_add_series (d, _("Residual"), &col, delay, pv->residual, pv->n_rows, self->stale);
  xrlab_plot_data_set_live (d, 1, TRUE);
  xrlab_plot_data_set_live (d, 2, TRUE);
  xrlab_plot_set_data (self->trace, d);
}

static void
on_trace (GObject *source, GAsyncResult *result, gpointer data)
{
  Closure *c = data;
  XrlabFitPage *self = c->self;
  g_autoptr(GError) error = NULL;
  XrlabFitPreview *pv = xrlab_engine_fit_preview_finish (XRLAB_ENGINE (source), result, &error);
  CurveBase *b = NULL;

  if (pv == NULL || !closure_current (c))
    {
      if (pv == NULL && !xrlab_fit_page_error_is_quiet (error) && closure_current (c))
        xrlab_plot_set_message (self->trace, error->message);
    }
  else if (pv->data != NULL && pv->delay == NULL)
    xrlab_plot_set_message (self->trace, _("A single spectrum: no delay axis"));
  else if (pv->data == NULL && (b = curve_base_match (self, BASE_TRACE, pv, c->at)) == NULL)
    {
      /* The block moved under the kept data: fetched again, whole. */
      self->trace_dirty = TRUE;
      xrlab_fit_page_schedule (self);
    }
  else
    {
      PreviewRef *ref = preview_ref_new (g_steal_pointer (&pv));

      if (b == NULL)
        curve_base_set (self, BASE_TRACE, ref, c->at);
      draw_trace (self, ref, b != NULL ? b->ref : ref);
      xrlab_fit_preview_ref_release (ref);
    }
  g_free (pv);
  closure_free (c);
}

static void
fetch_curve (XrlabFitPage *self, XrlabFitView view)
{
  XrlabFitPreviewSpec spec = { 0 };
  int consumer = view == XRLAB_FIT_VIEW_SPECTRUM ? C_SPECTRUM : C_TRACE;

  int which = view == XRLAB_FIT_VIEW_SPECTRUM ? BASE_SPECTRUM : BASE_TRACE;
  double at = view == XRLAB_FIT_VIEW_SPECTRUM ? self->delay : self->energy;
  Closure *c;

  spec.model = XRLAB_FIT_MODEL_MAIN;
  spec.view = view;
  /* The axes and the data only once per position: an edit changes the model. */
  spec.series = (curve_base_get (self, which, at) == NULL ? XRLAB_FIT_SERIES_AXES | XRLAB_FIT_SERIES_DATA : 0)
                | XRLAB_FIT_SERIES_MODEL | XRLAB_FIT_SERIES_RESIDUAL
                | (view == XRLAB_FIT_VIEW_SPECTRUM ? XRLAB_FIT_SERIES_COMPONENTS : 0);
  spec.delay = isfinite (self->delay) ? self->delay : 0.0;
  spec.energy = self->energy;
  c = round_closure_new (self, consumer);
  c->at = at;
  xrlab_engine_fit_preview_async (self->engine, self->setup, consumers[consumer], &spec, self->cancellable,
                                  view == XRLAB_FIT_VIEW_SPECTRUM ? on_spectrum : on_trace, c);
}

/* ---- the parameter table and the results ---------------------------------------------- */

/* The table of the model c->role. */
static void
on_params (GObject *source, GAsyncResult *result, gpointer data)
{
  Closure *c = data;
  g_autoptr(GError) error = NULL;
  XrlabFitParamTable *t = xrlab_engine_fit_params_finish (XRLAB_ENGINE (source), result, &error);

  if (t != NULL && closure_current (c)
      && (c->role == XRLAB_FIT_MODEL_MAIN || c->self->ws.baseline_model != NULL))
    xrlab_fit_page_table_set (c->self, c->role, g_steal_pointer (&t));
  g_free (t);
  closure_free (c);
}

static void
fetch_params (XrlabFitPage *self, XrlabFitModelRole role)
{
  Closure *c = round_closure_new (self, role == XRLAB_FIT_MODEL_MAIN ? C_PARAMS : C_BPARAMS);

  c->role = role;
  xrlab_engine_fit_params_async (self->engine, self->setup,
                                 role == XRLAB_FIT_MODEL_MAIN ? consumers[C_PARAMS] : "fit-baseline-params", role,
                                 isfinite (self->delay) ? self->delay : 0.0, self->cancellable, on_params, c);
}

/* ---- the time dependence of a fit ------------------------------------------------ */

static void
on_traces (GObject *source, GAsyncResult *result, gpointer data)
{
  Closure *c = data;
  XrlabFitPage *self = c->self;
  g_autoptr(GError) error = NULL;
  XrlabFitParamTraces *t = xrlab_engine_fit_param_traces_finish (XRLAB_ENGINE (source), result, &error);

  if (t != NULL && closure_current (c))
    {
      g_free (self->param_traces);
      self->param_traces = g_steal_pointer (&t);
      self->traces_setup = self->setup;
      self->traces_fitted = c->fitted;
      xrlab_fit_page_draw_sbs (self);
    }
  g_free (t);
  closure_free (c);
}

/* The time dependence of the main model at its values now. */
static void
fetch_traces (XrlabFitPage *self)
{
  Closure *c = round_closure_new (self, C_TRACES);

  c->fitted = !self->traces_edited;
  self->traces_dirty = FALSE;
  xrlab_engine_fit_param_traces_async (self->engine, self->setup, "fit-traces", XRLAB_FIT_MODEL_MAIN,
                                       self->cancellable, on_traces, c);
}

void
xrlab_fit_page_traces_follow (XrlabFitPage *self)
{
  self->traces_edited = TRUE;
  if (self->param_traces == NULL || self->traces_setup != self->setup)
    return;
  /* a reply already on its way shows the values before this edit */
  self->serial[C_TRACES]++;
  self->traces_dirty = TRUE;
  xrlab_fit_page_schedule (self);
}

/* Whether the slice-by-slice plot is on the page. */
static gboolean
sbs_shown (XrlabFitPage *self)
{
  return gtk_widget_is_visible (GTK_WIDGET (self->sbs_plot));
}

void
xrlab_fit_page_sbs_overlay (XrlabFitPage *self, XrlabPlotData *data, const char *name)
{
  const XrlabFitParamTraces *t = self->param_traces;
  double *buf;
  gsize k, n;
  GdkRGBA c;

  if (t == NULL || self->traces_setup != self->setup || t->n_delays == 0)
    return;
  for (k = 0; k < t->n_params && g_strcmp0 (t->names[k], name) != 0; k++)
    ;
  if (k == t->n_params)
    return;
  n = t->n_delays;
  buf = g_new (double, 2 * n);
  memcpy (buf, t->delay, n * sizeof (double));
  memcpy (buf + n, t->values + k * n, n * sizeof (double));
  xrlab_plot_data_take_buffer (data, buf, g_free);
  c = rgba (MODEL_COLOR);
  xrlab_plot_data_add_series (data,
                              self->traces_fitted
                              /* TRANSLATORS: a parameter's time dependence as the 2D fit has it */
                              ? _("2D fit")
                              /* TRANSLATORS: a parameter's time dependence at the values edited after the 2D fit */
                              : _("2D model"),
                              &c, buf, buf + n, n, FALSE);
}

gboolean
xrlab_fit_page_set_sbs_param (XrlabFitPage *self, const char *name)
{
  g_return_val_if_fail (XRLAB_IS_FIT_PAGE (self), FALSE);
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->sbs_names)); i++)
    if (g_strcmp0 (gtk_string_list_get_string (self->sbs_names, i), name) == 0)
      {
        gtk_drop_down_set_selected (self->sbs_choice, i);
        return TRUE;
      }
  return FALSE;
}

static void
on_results (GObject *source, GAsyncResult *result, gpointer data)
{
  Closure *c = data;
  XrlabFitPage *self = c->self;
  g_autoptr(GError) error = NULL;
  XrlabFitResults *r = xrlab_engine_fit_results_finish (XRLAB_ENGINE (source), result, &error);
  gboolean fitted_2d = r != NULL && r->main != NULL && self->info != NULL && self->info->has_time;

  if (r != NULL)
    xrlab_fit_page_results_show (self, r);
  /* After a 2D fit: its time dependence, for the slice-by-slice plot. */
  if (fitted_2d)
    fetch_traces (self);
  else
    g_clear_pointer (&self->param_traces, g_free);
  closure_free (c);
}

/* ---- rounds ---------------------------------------------------------------------- */

static gboolean
pump_cb (gpointer data)
{
  XrlabFitPage *self = data;

  while (g_main_context_iteration (self->replies, FALSE))
    ;
  if (self->round_pending > 0)
    return G_SOURCE_CONTINUE;
  self->pump_id = 0;
  return G_SOURCE_REMOVE;
}

static gboolean
deadline_cb (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Dispatches the round's replies as they come, for at most @budget_ms;
 * what is still outstanding then is left to the pump. */
static void
wait_for_replies (XrlabFitPage *self, guint budget_ms)
{
  gboolean expired = FALSE;
  GSource *deadline;

  if (self->round_pending == 0)
    return;
  deadline = g_timeout_source_new (budget_ms);
  g_source_set_callback (deadline, deadline_cb, &expired, NULL);
  g_source_attach (deadline, self->replies);
  while (self->round_pending > 0 && !expired)
    g_main_context_iteration (self->replies, TRUE);
  g_source_destroy (deadline);
  g_source_unref (deadline);
  if (self->round_pending > 0 && self->pump_id == 0)
    self->pump_id = g_timeout_add (1, pump_cb, self);
}

static gboolean
refresh (gpointer data)
{
  XrlabFitPage *self = data;

  self->refresh_id = 0;
  if (!self->active || self->setup == 0)
    return G_SOURCE_REMOVE;
  if (self->replies == NULL)
    self->replies = g_main_context_new ();
  g_main_context_push_thread_default (self->replies);
  if (self->map_dirty)
    fetch_map (self);
  if (self->spectrum_dirty)
    fetch_curve (self, XRLAB_FIT_VIEW_SPECTRUM);
  if (self->trace_dirty)
    fetch_curve (self, XRLAB_FIT_VIEW_TRACE);
  if (self->params_dirty)
    fetch_params (self, XRLAB_FIT_MODEL_MAIN);
  if (self->bparams_dirty && self->ws.baseline_model != NULL)
    fetch_params (self, XRLAB_FIT_MODEL_BASELINE);
  if (self->traces_dirty && !self->fitting && sbs_shown (self))
    fetch_traces (self);
  if (self->results_dirty)
    xrlab_engine_fit_results_async (self->engine, self->setup, "fit-results", self->cancellable,
                                    on_results, round_closure_new (self, -1));
  self->map_dirty = self->spectrum_dirty = self->trace_dirty = self->params_dirty = FALSE;
  self->results_dirty = self->bparams_dirty = FALSE;
  g_main_context_pop_thread_default (self->replies);
  wait_for_replies (self, ROUND_BUDGET_MS);
  return G_SOURCE_REMOVE;
}

void
xrlab_fit_page_schedule (XrlabFitPage *self)
{
  if (self->refresh_id == 0 && self->active && self->setup != 0)
    self->refresh_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE, refresh, self, NULL);
}

gboolean
xrlab_fit_page_is_busy (XrlabFitPage *self)
{
  g_return_val_if_fail (XRLAB_IS_FIT_PAGE (self), FALSE);
  return self->pending > 0 || self->refresh_id != 0;
}

/* ---- fit jobs -------------------------------------------------------------------- */

static void
on_progress (const XrlabFitJobProgress *p, gpointer data)
{
  XrlabFitPage *self = data;
  g_autofree char *text = NULL;

  if (p->job == XRLAB_FIT_JOB_SBS && p->n_slices > 0)
    {
      /* TRANSLATORS: the progress of slice-by-slice fits */
      text = g_strdup_printf (_("Slice by slice: %u of %u slices"), p->slices_done, p->n_slices);
      gtk_progress_bar_set_fraction (self->progress, (double) p->slices_done / p->n_slices);
    }
  else
    {
      /* TRANSLATORS: stage of the fit (baseline, 2D, ...), its iteration and χ² */
      text = isfinite (p->chi2)
             ? g_strdup_printf (_("%s: iteration %u, χ² %.6g"), xrlab_fitflow_stage_name (p->stage), p->iteration, p->chi2)
             : g_strdup_printf (_("%s: iteration %u"), xrlab_fitflow_stage_name (p->stage), p->iteration);
      gtk_progress_bar_pulse (self->progress);
    }
  gtk_progress_bar_set_text (self->progress, text);
  /* The live parameters show in the spectrum (a baseline fit's in its
   * table). */
  self->spectrum_dirty = self->params_dirty = TRUE;
  self->bparams_dirty |= p->stage == XRLAB_FITFLOW_STAGE_BASELINE;
  xrlab_fit_page_schedule (self);
}

static void
on_fit_done (GObject *source, GAsyncResult *result, gpointer data)
{
  Closure *c = data;
  XrlabFitPage *self = c->self;
  g_autoptr(GError) error = NULL;
  gboolean ok = xrlab_engine_fit_run_finish (XRLAB_ENGINE (source), result, &error);

  if (!ok && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED)
      && !g_error_matches (error, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_SHUT_DOWN))
    xrlab_fit_page_set_message (self, error->message);
  /* a fit that ended, or was cancelled with its best parameters kept */
  if (ok || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    self->record_values = self->record_summary = self->record_baseline = TRUE;
  /* the time dependence after it is the fit's */
  self->traces_edited = FALSE;
  self->fitting = FALSE;
  g_clear_object (&self->job_cancellable);
  self->map_dirty = self->map_kind != XRLAB_FIT_MAP_DATA;
  self->spectrum_dirty = self->trace_dirty = self->params_dirty = self->results_dirty = TRUE;
  self->bparams_dirty = TRUE;
  xrlab_fit_page_sync_controls (self);
  xrlab_fit_page_schedule (self);
  g_signal_emit_by_name (self, "fit-done");
  closure_free (c);
}

G_STATIC_ASSERT ((int) XRLAB_FIT_PAGE_JOB_BASELINE == (int) XRLAB_FIT_JOB_BASELINE);
G_STATIC_ASSERT ((int) XRLAB_FIT_PAGE_JOB_SBS == (int) XRLAB_FIT_JOB_SBS);
G_STATIC_ASSERT ((int) XRLAB_FIT_PAGE_JOB_2D == (int) XRLAB_FIT_JOB_2D);
G_STATIC_ASSERT ((int) XRLAB_FIT_PAGE_JOB_SPECTRUM == (int) XRLAB_FIT_JOB_SPECTRUM);
G_STATIC_ASSERT ((int) XRLAB_FIT_PAGE_JOB_CI == (int) XRLAB_FIT_JOB_CI);
G_STATIC_ASSERT ((int) XRLAB_FIT_PAGE_JOB_ALL == (int) XRLAB_FIT_JOB_WORKFLOW);

void
xrlab_fit_page_run (XrlabFitPage *self, XrlabFitPageJob page_job)
{
  static const double one_sigma[] = { 1.0 };
  XrlabFitJobKind kind = (XrlabFitJobKind) page_job;
  XrlabFitJobSpec job = { 0 };
  g_autoptr(GPtrArray) ci = g_ptr_array_new ();

  g_return_if_fail (XRLAB_IS_FIT_PAGE (self));
  if (self->setup == 0 || self->fitting)
    return;
  job.kind = kind;
  if (kind == XRLAB_FIT_JOB_WORKFLOW)
    job.stages = XRLAB_FIT_STAGES_MAIN | (self->ws.baseline_model != NULL ? XRLAB_FIT_STAGES_BASELINE : 0);
  if (kind == XRLAB_FIT_JOB_CI && self->params != NULL)
    {
      /* The fitted parameters of the main fit. */
      for (gsize i = 0; i < self->params->n_params; i++)
        if (self->params->params[i].fitted)
          g_ptr_array_add (ci, (gpointer) self->params->params[i].name);
      job.ci_names = (const char *const *) ci->pdata;
      job.n_ci_names = ci->len;
      /* 1σ: the level of the table's errors */
      job.ci_sigmas = one_sigma;
      job.n_ci_sigmas = 1;
    }
  /* the result shown (perhaps from the last session) is about to be replaced */
  xrlab_fit_workspace_clear_result (&self->ws);
  self->fitting = TRUE;
  self->job_kind = kind;
  self->job_cancellable = g_cancellable_new ();
  xrlab_fit_page_set_message (self, NULL);
  gtk_progress_bar_set_fraction (self->progress, 0.0);
  gtk_progress_bar_set_text (self->progress, _("Starting…"));
  xrlab_fit_page_sync_controls (self);
  xrlab_engine_fit_run_async (self->engine, self->setup, &job, on_progress, g_object_ref (self), g_object_unref,
                              self->job_cancellable, on_fit_done, closure_new (self, -1));
}

void
xrlab_fit_page_cancel (XrlabFitPage *self)
{
  g_return_if_fail (XRLAB_IS_FIT_PAGE (self));
  if (self->job_cancellable != NULL)
    g_cancellable_cancel (self->job_cancellable);
}

/* ---- result sets -------------------------------------------------------------------- */

static void
on_written (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr(GTask) task = data;
  GError *error = NULL;

  if (xrlab_engine_fit_write_finish (XRLAB_ENGINE (source), result, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

void
xrlab_fit_page_write_results (XrlabFitPage *self, const char *outdir, GAsyncReadyCallback callback,
                              gpointer user_data)
{
  GTask *task;

  g_return_if_fail (XRLAB_IS_FIT_PAGE (self));
  task = g_task_new (self, NULL, callback, user_data);
  g_task_set_source_tag (task, xrlab_fit_page_write_results);
  if (self->setup == 0)
    {
      g_task_return_new_error (task, XRLAB_ENGINE_FIT_ERROR, XRLAB_ENGINE_FIT_ERROR_NOT_READY,
                               _("No measurement is open"));
      g_object_unref (task);
      return;
    }
  xrlab_engine_fit_write_async (self->engine, self->setup, outdir, self->cancellable, on_written, task);
}

gboolean
xrlab_fit_page_write_results_finish (XrlabFitPage *self, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

void
xrlab_fit_page_data_dispose (XrlabFitPage *self)
{
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  if (self->job_cancellable != NULL)
    g_cancellable_cancel (self->job_cancellable);
  g_clear_handle_id (&self->refresh_id, g_source_remove);
  /* The cancelled fetches answer soon: their replies free their closures. */
  if (self->replies != NULL)
    wait_for_replies (self, 2000);
  g_clear_handle_id (&self->pump_id, g_source_remove);
  if (self->engine != NULL)
    {
      if (self->setup != 0)
        xrlab_engine_fit_setup_close (self->engine, self->setup);
      if (self->dataset != 0)
        xrlab_engine_dataset_close (self->engine, self->dataset);
    }
  self->setup = self->dataset = 0;
  g_clear_pointer (&self->last_spectrum, xrlab_fit_preview_ref_release);
  g_clear_pointer (&self->curve_base[BASE_SPECTRUM], curve_base_free);
  g_clear_pointer (&self->param_traces, g_free);
  g_clear_pointer (&self->curve_base[BASE_TRACE], curve_base_free);
}
