/* xrlab-fit-page-table.c -- the Fit page's parameter table, result summary
 * and slice-by-slice plot
 *
 * A row per parameter of the model: name, value, vary, min, max,
 * expression and, after a fit, its error; with a baseline model its
 * parameters follow in a section of their own, edited the same way (the
 * edits name the baseline model; each is kept with the session in the
 * kept model file, as the main model's structure edits are). A typed value is one edit (an
 * invalid one is marked at its row and not sent); bounds and expressions are
 * sent when the entry is activated. Replies that refuse an edit show their
 * message under the row, and the model curves are drawn stale until every
 * row is valid again.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-fit-page-private.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "xrlab-util.h"

struct _XrlabFitRow {
  XrlabFitPage *page;
  XrlabFitModelRole role;
  char *name;
  GtkWidget *name_label, *value, *vary, *min, *max, *expr, *error, *message;
  char *message_text;
};

static void
row_free (gpointer data)
{
  XrlabFitRow *row = data;

  g_free (row->name);
  g_free (row->message_text);
  g_free (row);
}

GtkEditable *
xrlab_fit_row_get_value_entry (XrlabFitRow *row)
{
  return GTK_EDITABLE (row->value);
}

const char *
xrlab_fit_row_get_error (XrlabFitRow *row)
{
  return row->message_text;
}

XrlabFitRow *
xrlab_fit_page_table_find_role (XrlabFitPage *self, XrlabFitModelRole role, const char *name)
{
  for (guint i = 0; i < self->rows->len; i++)
    {
      XrlabFitRow *row = g_ptr_array_index (self->rows, i);
      if (row->role == role && g_strcmp0 (row->name, name) == 0)
        return row;
    }
  return NULL;
}

XrlabFitRow *
xrlab_fit_page_table_find (XrlabFitPage *self, const char *name)
{
  return xrlab_fit_page_table_find_role (self, XRLAB_FIT_MODEL_MAIN, name);
}

static gboolean
any_error (XrlabFitPage *self)
{
  for (guint i = 0; i < self->rows->len; i++)
    if (((XrlabFitRow *) g_ptr_array_index (self->rows, i))->message_text != NULL)
      return TRUE;
  return FALSE;
}

void
xrlab_fit_page_table_set_error (XrlabFitPage *self, XrlabFitModelRole role, const char *name,
                                const char *message)
{
  XrlabFitRow *row = xrlab_fit_page_table_find_role (self, role, name);
  gboolean stale;

  if (row == NULL || g_strcmp0 (row->message_text, message) == 0)
    return;
  g_free (row->message_text);
  row->message_text = g_strdup (message);
  gtk_label_set_text (GTK_LABEL (row->message), message != NULL ? message : "");
  gtk_widget_set_visible (row->message, message != NULL);
  if (message != NULL)
    gtk_widget_add_css_class (row->value, "error");
  else
    gtk_widget_remove_css_class (row->value, "error");
  stale = any_error (self);
  if (stale != self->stale)
    {
      self->stale = stale;
      xrlab_fit_page_redraw_spectrum (self);
    }
}

/* A number as typed: the whole text, finite. */
static gboolean
parse_number (const char *text, double *v)
{
  char *end = NULL;

  while (g_ascii_isspace (*text))
    text++;
  if (*text == '\0')
    return FALSE;
  *v = g_ascii_strtod (text, &end);
  while (end != NULL && g_ascii_isspace (*end))
    end++;
  return end != NULL && *end == '\0' && isfinite (*v);
}

static void
on_value_changed (GtkEditable *editable, XrlabFitRow *row)
{
  XrlabFitPage *self = row->page;
  XrlabFitParamEdit edit = { 0 };
  const char *text = gtk_editable_get_text (editable);

  if (self->building)
    return;
  /* Emptied (before a number is typed, or as a new text replaces the old):
   * nothing to send and nothing wrong yet; the row's message, if any, stays
   * until a number or another text comes. */
  if (text[strspn (text, " \t")] == '\0')
    return;
  if (!parse_number (text, &edit.value))
    {
      g_autofree char *m = g_strdup_printf (_("“%s” is not a number"), text);
      xrlab_fit_page_table_set_error (self, row->role, row->name, m);
      return;
    }
  edit.model = row->role;
  edit.name = row->name;
  edit.fields = XRLAB_FIT_PARAM_VALUE;
  xrlab_fit_page_send_edit (self, &edit);
  g_signal_emit_by_name (self, "changed");
  /* the main model's values are the workspace's; the baseline model's are
   * kept in the kept model file */
  if (row->role == XRLAB_FIT_MODEL_BASELINE)
    xrlab_fit_page_keep_edits (self);
}

static void
on_vary_toggled (GtkCheckButton *check, XrlabFitRow *row)
{
  XrlabFitParamEdit edit = { 0 };

  if (row->page->building)
    return;
  edit.model = row->role;
  edit.name = row->name;
  edit.fields = XRLAB_FIT_PARAM_VARY;
  edit.vary = gtk_check_button_get_active (check);
  xrlab_fit_page_send_edit (row->page, &edit);
  g_signal_emit_by_name (row->page, "changed");
  xrlab_fit_page_keep_edits (row->page);
}

static void
on_bounds_activate (GtkEntry *entry, XrlabFitRow *row)
{
  XrlabFitParamEdit edit = { 0 };
  const char *lo = gtk_editable_get_text (GTK_EDITABLE (row->min));
  const char *hi = gtk_editable_get_text (GTK_EDITABLE (row->max));

  edit.model = row->role;
  edit.name = row->name;
  edit.fields = XRLAB_FIT_PARAM_BOUNDS;
  edit.min = -INFINITY, edit.max = INFINITY;
  if ((*lo != '\0' && !parse_number (lo, &edit.min)) || (*hi != '\0' && !parse_number (hi, &edit.max)))
    {
      g_autofree char *m = g_strdup_printf (_("The bounds “%s”, “%s” are not numbers"), lo, hi);
      xrlab_fit_page_table_set_error (row->page, row->role, row->name, m);
      return;
    }
  xrlab_fit_page_send_edit (row->page, &edit);
  g_signal_emit_by_name (row->page, "changed");
  xrlab_fit_page_keep_edits (row->page);
}

static void
on_expr_activate (GtkEntry *entry, XrlabFitRow *row)
{
  XrlabFitParamEdit edit = { 0 };
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));

  edit.model = row->role;
  edit.name = row->name;
  edit.fields = XRLAB_FIT_PARAM_EXPR;
  edit.expr = *text != '\0' ? text : NULL;
  xrlab_fit_page_send_edit (row->page, &edit);
  g_signal_emit_by_name (row->page, "changed");
  xrlab_fit_page_keep_edits (row->page);
}

static GtkWidget *
small_entry (int chars, const char *tooltip)
{
  GtkWidget *e = gtk_entry_new ();

  gtk_editable_set_width_chars (GTK_EDITABLE (e), chars);
  gtk_editable_set_max_width_chars (GTK_EDITABLE (e), chars);
  gtk_widget_set_tooltip_text (e, tooltip);
  return e;
}

static char *
format_number (double v)
{
  return isfinite (v) ? g_strdup_printf ("%.6g", v) : g_strdup ("");
}

static void
set_text (GtkWidget *entry, const char *text)
{
  if (!gtk_widget_has_focus (entry) && g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (entry)), text) != 0)
    gtk_editable_set_text (GTK_EDITABLE (entry), text);
}

/* The standard error shown for @p: the fit's, or before any fit on this
 * setup the one the workspace kept from the last session. */
double
xrlab_fit_page_shown_error (XrlabFitPage *self, const XrlabFitParamRow *p)
{
  const XrlabFitResults *r = self->results;

  if (isfinite (p->error) || (r != NULL && (r->main != NULL || r->baseline != NULL)))
    return p->error;
  return xrlab_fit_workspace_get_error (&self->ws, p->name);
}

void
xrlab_fit_page_name_show_share (GtkWidget *name, XrlabParamShare share)
{
  const char *base = g_object_get_data (G_OBJECT (name), "xrlab-base-text");
  g_autofree char *text = NULL;

  if (base == NULL)
    {
      g_object_set_data_full (G_OBJECT (name), "xrlab-base-text", g_strdup (gtk_label_get_text (GTK_LABEL (name))),
                              g_free);
      base = g_object_get_data (G_OBJECT (name), "xrlab-base-text");
    }
  /* TRANSLATORS: after a parameter's name: trspecfit's "project" (one
   * value shared by every file of a joint fit) and "file" (one per file) */
  text = share == XRLAB_PARAM_SHARE_PROJECT ? g_strdup_printf (_("%s · shared"), base)
         : share == XRLAB_PARAM_SHARE_FILE  ? g_strdup_printf (_("%s · per file"), base)
                                            : g_strdup (base);
  if (g_strcmp0 (gtk_label_get_text (GTK_LABEL (name)), text) != 0)
    gtk_label_set_text (GTK_LABEL (name), text);
}

static void
row_update (XrlabFitRow *row, const XrlabFitParamRow *p)
{
  g_autofree char *value = format_number (p->value);
  g_autofree char *lo = format_number (p->min);
  g_autofree char *hi = format_number (p->max);
  double e = row->role == XRLAB_FIT_MODEL_BASELINE ? xrlab_fit_page_baseline_error (row->page, p)
                                                   : xrlab_fit_page_shown_error (row->page, p);
  g_autofree char *err = isfinite (e) ? g_strdup_printf ("± %.3g", e) : g_strdup ("");
  GtkWidget *focus = gtk_root_get_focus (gtk_widget_get_root (row->value));

  /* A value being typed (or refused) stays as typed. */
  if (row->message_text == NULL && (focus == NULL || !gtk_widget_is_ancestor (focus, row->value)))
    set_text (row->value, value);
  gtk_editable_set_editable (GTK_EDITABLE (row->value), p->expr == NULL);
  gtk_widget_set_sensitive (row->value, p->expr == NULL);
  gtk_check_button_set_active (GTK_CHECK_BUTTON (row->vary), p->vary);
  gtk_widget_set_sensitive (row->vary, p->expr == NULL);
  set_text (row->min, lo);
  set_text (row->max, hi);
  set_text (row->expr, p->expr != NULL ? p->expr : "");
  gtk_label_set_text (GTK_LABEL (row->error), err);
  xrlab_fit_page_name_show_share (row->name_label, p->share);
}

static void
add_row (XrlabFitPage *self, XrlabFitModelRole role, const XrlabFitParamRow *p, int line)
{
  XrlabFitRow *row = g_new0 (XrlabFitRow, 1);
  GtkWidget *name = gtk_label_new (p->name);

  row->page = self;
  row->role = role;
  row->name = g_strdup (p->name);
  gtk_label_set_xalign (GTK_LABEL (name), 0);
  gtk_widget_set_tooltip_text (name, p->component);
  row->value = small_entry (11, _("Start value"));
  row->vary = gtk_check_button_new ();
  gtk_widget_set_tooltip_text (row->vary, _("Free in the fit"));
  row->min = small_entry (6, _("Lower bound"));
  row->max = small_entry (6, _("Upper bound"));
  row->expr = small_entry (12, _("An expression of other parameters (empty: none)"));
  row->error = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (row->error), 0);
  gtk_widget_add_css_class (row->error, "numeric");
  row->message = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (row->message), 0);
  gtk_label_set_wrap (GTK_LABEL (row->message), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (row->message), 50);
  gtk_widget_add_css_class (row->message, "error");
  gtk_widget_add_css_class (row->message, "caption");
  gtk_widget_set_visible (row->message, FALSE);
  row->name_label = name;
  gtk_grid_attach (self->table, name, 0, line, 1, 1);
  gtk_grid_attach (self->table, row->value, 1, line, 1, 1);
  gtk_grid_attach (self->table, row->vary, 2, line, 1, 1);
  gtk_grid_attach (self->table, row->min, 3, line, 1, 1);
  gtk_grid_attach (self->table, row->max, 4, line, 1, 1);
  gtk_grid_attach (self->table, row->expr, 5, line, 1, 1);
  gtk_grid_attach (self->table, row->error, 6, line, 1, 1);
  gtk_grid_attach (self->table, row->message, 0, line + 1, 7, 1);
  row_update (row, p);
  g_signal_connect (row->value, "changed", G_CALLBACK (on_value_changed), row);
  xrlab_fit_page_drag_attach_value (row->value);
  g_signal_connect (row->vary, "toggled", G_CALLBACK (on_vary_toggled), row);
  g_signal_connect (row->min, "activate", G_CALLBACK (on_bounds_activate), row);
  g_signal_connect (row->max, "activate", G_CALLBACK (on_bounds_activate), row);
  g_signal_connect (row->expr, "activate", G_CALLBACK (on_expr_activate), row);
  g_ptr_array_add (self->rows, row);
}

static void
add_header (XrlabFitPage *self)
{
  const char *titles[] = { _("Parameter"), _("Value"), _("Vary"), _("Min"), _("Max"), _("Expression"),
                           _("Error") };

  for (int i = 0; i < (int) G_N_ELEMENTS (titles); i++)
    {
      GtkWidget *l = gtk_label_new (titles[i]);
      gtk_label_set_xalign (GTK_LABEL (l), 0);
      gtk_widget_add_css_class (l, "heading");
      gtk_grid_attach (self->table, l, i, 0, 1, 1);
    }
}

/* The heading of the baseline model's section, at grid line @line. */
static void
add_section (XrlabFitPage *self, int line)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *title = gtk_label_new (_("Baseline model"));
  const char *listed = xrlab_fit_page_baseline_listed (self);
  GtkWidget *name = gtk_label_new (listed != NULL ? listed : self->ws.baseline_model);

  gtk_widget_add_css_class (title, "heading");
  gtk_widget_add_css_class (name, "dim-label");
  gtk_label_set_ellipsize (GTK_LABEL (name), PANGO_ELLIPSIZE_END);
  gtk_widget_set_tooltip_text (box, _("Fitted to the baseline spectrum, the mean of the baseline delays; "
                                      "its result is the start of the other fits"));
  gtk_box_append (GTK_BOX (box), title);
  gtk_box_append (GTK_BOX (box), name);
  gtk_widget_set_margin_top (box, 12);
  gtk_grid_attach (self->table, box, 0, line, 7, 1);
}

/* The grid emptied (the tables stay). */
static void
grid_clear (XrlabFitPage *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->table))) != NULL)
    gtk_grid_remove (self->table, child);
  g_ptr_array_set_size (self->rows, 0);
}

void
xrlab_fit_page_table_clear (XrlabFitPage *self)
{
  grid_clear (self);
  g_clear_pointer (&self->params, g_free);
  g_clear_pointer (&self->bparams, g_free);
  gtk_label_set_text (self->not_ready, "");
  gtk_widget_set_visible (GTK_WIDGET (self->not_ready), FALSE);
}

/* Whether the rows of @role are those of @t (NULL: none), in order. */
static gboolean
same_names (XrlabFitPage *self, XrlabFitModelRole role, const XrlabFitParamTable *t)
{
  gsize k = 0, n = t != NULL ? t->n_params : 0;

  for (guint i = 0; i < self->rows->len; i++)
    {
      XrlabFitRow *row = g_ptr_array_index (self->rows, i);

      if (row->role != role)
        continue;
      if (k >= n || g_strcmp0 (row->name, t->params[k].name) != 0)
        return FALSE;
      k++;
    }
  return k == n;
}

/* Every row made again: the main model's, then the baseline model's
 * section. */
static void
relayout (XrlabFitPage *self)
{
  int line = 1;

  grid_clear (self);
  add_header (self);
  for (gsize i = 0; self->params != NULL && i < self->params->n_params; i++, line += 2)
    {
      add_row (self, XRLAB_FIT_MODEL_MAIN, &self->params->params[i], line);
      xrlab_fit_page_dynamics_decorate (self, XRLAB_FIT_MODEL_MAIN, self->params, i, line);
    }
  if (self->bparams == NULL || self->bparams->n_params == 0)
    return;
  add_section (self, line++);
  for (gsize i = 0; i < self->bparams->n_params; i++, line += 2)
    {
      add_row (self, XRLAB_FIT_MODEL_BASELINE, &self->bparams->params[i], line);
      xrlab_fit_page_dynamics_decorate (self, XRLAB_FIT_MODEL_BASELINE, self->bparams, i, line);
    }
}

void
xrlab_fit_page_table_set (XrlabFitPage *self, XrlabFitModelRole role, XrlabFitParamTable *t)
{
  XrlabFitParamTable **slot = role == XRLAB_FIT_MODEL_BASELINE ? &self->bparams : &self->params;

  self->building = TRUE;
  if (!same_names (self, role, t))
    {
      g_free (*slot);
      *slot = t;
      relayout (self);
    }
  else
    {
      gsize k = 0;

      for (guint i = 0; i < self->rows->len; i++)
        if (((XrlabFitRow *) g_ptr_array_index (self->rows, i))->role == role)
          row_update (g_ptr_array_index (self->rows, i), &t->params[k++]);
      g_free (*slot);
      *slot = t;
    }
  self->building = FALSE;
  if (role == XRLAB_FIT_MODEL_BASELINE && t != NULL)
    {
      if (self->restore_baseline)
        xrlab_fit_page_baseline_restore (self, t);
      else if (self->record_baseline)
        xrlab_fit_page_baseline_record (self, t);
      self->restore_baseline = self->record_baseline = FALSE;
    }
  if (role == XRLAB_FIT_MODEL_BASELINE || t == NULL)
    return;
  if (self->record_values)
    {
      /* the fitted values become the start values, the session's */
      for (gsize i = 0; i < t->n_params; i++)
        if (t->params[i].expr == NULL && isfinite (t->params[i].value))
          {
            xrlab_fit_workspace_set_value (&self->ws, t->params[i].name, t->params[i].value);
            if (isfinite (t->params[i].error))
              xrlab_fit_workspace_set_error (&self->ws, t->params[i].name, t->params[i].error);
          }
      self->record_values = FALSE;
      g_signal_emit_by_name (self, "changed");
    }
  gtk_label_set_text (self->not_ready, t->not_ready != NULL ? t->not_ready : "");
  gtk_widget_set_visible (GTK_WIDGET (self->not_ready), t->not_ready != NULL);
}

/* ---- results ------------------------------------------------------------------------ */

static void
append_result (GString *s, const char *stage, const XrlabFitflowResult *r, gboolean complete)
{
  const XrlabFitResult *f = r->fit;

  /* TRANSLATORS: a fit's result: stage, χ², reduced χ², R², AIC, BIC, iterations, seconds */
  g_string_append_printf (s, _("%s%s: χ² %.6g, reduced χ² %.6g, R² %.6f, AIC %.6g, BIC %.6g, "
                               "%u iterations, %.3g s"),
                          stage, complete ? "" : _(" (cancelled: the best so far)"), f->chi2, f->redchi,
                          f->r2, f->aic, f->bic, f->niter, f->wall_s);
  g_string_append_c (s, '\n');
}

/* "name: [lower, upper] at 1σ; ..." for every parameter analysed. */
static void
append_ci (GString *s, const XrlabFitCI *ci, const XrlabFitflowResult *main)
{
  for (gsize a = 0; a < ci->n_params; a++)
    {
      gsize k = ci->params[a];

      g_string_append_printf (s, "%s %.6g", k < main->n_theta ? main->theta_names[k] : "?", ci->best[a]);
      for (gsize l = 0; l < ci->n_sigmas; l++)
        /* TRANSLATORS: a confidence interval: [lower, upper] at a level */
        g_string_append_printf (s, _(", [%.6g, %.6g] at %gσ"), ci->lower[a * ci->n_sigmas + l],
                                ci->upper[a * ci->n_sigmas + l], ci->sigmas[l]);
      g_string_append_c (s, '\n');
    }
}

void
xrlab_fit_page_draw_sbs (XrlabFitPage *self)
{
  const XrlabFitflowSbs *sbs = self->results != NULL ? self->results->sbs : NULL;
  guint k = gtk_drop_down_get_selected (self->sbs_choice);
  g_autoptr(XrlabPlotData) data = NULL;
  const char *name;
  double *buf;
  gsize n, j;
  GdkRGBA c;

  if (sbs == NULL || k == GTK_INVALID_LIST_POSITION)
    {
      xrlab_plot_set_data (self->sbs_plot, NULL);
      xrlab_plot_set_message (self->sbs_plot, _("Fit slice by slice to see the parameters against delay"));
      return;
    }
  name = gtk_string_list_get_string (self->sbs_names, k);
  for (j = 0; j < sbs->n_params && g_strcmp0 (sbs->names[j], name) != 0; j++)
    ;
  if (j == sbs->n_params)
    return;
  n = sbs->n_slices;
  /* delay, value, value − error, value + error */
  buf = g_new (double, 4 * n);
  for (gsize i = 0; i < n; i++)
    {
      double v = sbs->values[i * sbs->n_params + j], e = sbs->errors[i * sbs->n_params + j];
      buf[i] = sbs->delay[i];
      buf[n + i] = v;
      buf[2 * n + i] = isfinite (e) ? v - e : NAN;
      buf[3 * n + i] = isfinite (e) ? v + e : NAN;
    }
  data = xrlab_plot_data_new ();
  xrlab_plot_data_take_buffer (data, buf, g_free);
  gdk_rgba_parse (&c, "#1c71d8");
  xrlab_plot_data_add_series (data, name, &c, buf, buf + n, n, FALSE);
  /* The error bars as the band they span. */
  xrlab_plot_data_add_series (data, _("− error"), &c, buf, buf + 2 * n, n, TRUE);
  xrlab_plot_data_add_series (data, _("+ error"), &c, buf, buf + 3 * n, n, TRUE);
  xrlab_fit_page_sbs_overlay (self, data, name);
  xrlab_plot_set_axes (self->sbs_plot, _("Delay"), NULL, name, NULL);
  xrlab_plot_set_data (self->sbs_plot, data);
}

typedef struct {
  double rho;
  gsize i, j;
} Pair;

static int
by_strength (gconstpointer a, gconstpointer b)
{
  double x = fabs (((const Pair *) a)->rho), y = fabs (((const Pair *) b)->rho);

  return x < y ? 1 : x > y ? -1 : 0;
}

/* The correlations of the main fit's free parameters, strongest first,
 * those with |ρ| ≥ 0.1 (every pair is in the result set's correl.csv). */
static char *
correlations_text (const XrlabFitflowResult *r)
{
  const XrlabFitResult *f = r->fit;
  g_autoptr(GString) s = g_string_new (NULL);
  g_autoptr(GArray) pairs = g_array_new (FALSE, FALSE, sizeof (Pair));

  if (f->correl == NULL || !f->errors_valid)
    return g_strdup (_("Not estimated: the covariance could not be computed."));
  for (gsize i = 0; i < f->p; i++)
    for (gsize j = i + 1; j < f->p; j++)
      {
        Pair pr = { f->correl[i * f->p + j], i, j };
        if (isfinite (pr.rho) && fabs (pr.rho) >= 0.1)
          g_array_append_val (pairs, pr);
      }
  if (pairs->len == 0)
    return g_strdup (_("No pair of fitted parameters is correlated by 0.1 or more."));
  g_array_sort (pairs, by_strength);
  for (guint k = 0; k < pairs->len && k < 20; k++)
    {
      const Pair *pr = &g_array_index (pairs, Pair, k);
      g_string_append_printf (s, "%s%s – %s: %+.3f", k > 0 ? "\n" : "", r->theta_names[pr->i],
                              r->theta_names[pr->j], pr->rho);
    }
  return g_strdup (s->str);
}

static void
on_sbs_choice (XrlabFitPage *self)
{
  if (!self->building)
    xrlab_fit_page_draw_sbs (self);
}

void
xrlab_fit_page_results_show (XrlabFitPage *self, XrlabFitResults *r)
{
  g_autoptr(GString) s = g_string_new (NULL);

  g_clear_pointer (&self->results, xrlab_fit_results_free);
  self->results = r;
  if (r != NULL && r->baseline != NULL)
    append_result (s, _("Baseline"), r->baseline, r->baseline_complete);
  if (r != NULL && r->sbs != NULL)
    {
      /* TRANSLATORS: slice-by-slice fits: slices and their time */
      g_string_append_printf (s, _("Slice by slice: %zu slices, %.3g s"), r->sbs->n_slices, r->sbs->wall_s);
      g_string_append_c (s, '\n');
    }
  if (r != NULL && r->main != NULL)
    append_result (s, self->info != NULL && self->info->has_time ? _("2D") : _("Spectrum"), r->main,
                   r->main_complete);
  if (r != NULL && r->ci != NULL && r->main != NULL)
    append_ci (s, r->ci, r->main);
  if (s->len > 0 && s->str[s->len - 1] == '\n')
    g_string_truncate (s, s->len - 1);
  if (self->record_summary && s->len > 0)
    {
      g_free (self->ws.result_summary);
      self->ws.result_summary = g_strdup (s->str);
      self->record_summary = FALSE;
      g_signal_emit_by_name (self, "changed");
    }
  else if (s->len == 0 && self->ws.result_summary != NULL)
    /* TRANSLATORS: the fit summary kept with the session, before any fit of this start */
    g_string_printf (s, _("Last fit (kept with the session):\n%s"), self->ws.result_summary);
  g_free (self->summary_text);
  self->summary_text = g_strdup (s->str);
  gtk_label_set_text (self->summary, s->str);
  gtk_widget_set_visible (GTK_WIDGET (self->summary), s->len > 0);
  if (r != NULL && r->main != NULL)
    {
      g_autofree char *c = correlations_text (r->main);
      gtk_label_set_text (self->correlations, c);
    }
  gtk_widget_set_visible (self->correlations_expander, r != NULL && r->main != NULL);

  self->building = TRUE;
  gtk_string_list_splice (self->sbs_names, 0, g_list_model_get_n_items (G_LIST_MODEL (self->sbs_names)), NULL);
  if (r != NULL && r->sbs != NULL)
    for (gsize j = 0; j < r->sbs->n_params; j++)
      if (r->sbs->fitted[j])
        gtk_string_list_append (self->sbs_names, r->sbs->names[j]);
  self->building = FALSE;
  gtk_widget_set_visible (gtk_widget_get_parent (GTK_WIDGET (self->sbs_plot)), r != NULL && r->sbs != NULL);
  xrlab_fit_page_draw_sbs (self);
  /* edits came while it was hidden */
  if (self->traces_dirty)
    xrlab_fit_page_schedule (self);
}

void
xrlab_fit_page_table_init (XrlabFitPage *self)
{
  GtkPaned *paned = GTK_PANED (gtk_widget_get_parent (gtk_widget_get_parent (GTK_WIDGET (self->map_view))));
  GtkWidget *scroll = gtk_scrolled_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *sbs_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);

  self->rows = g_ptr_array_new_with_free_func (row_free);
  self->table = GTK_GRID (gtk_grid_new ());
  gtk_grid_set_row_spacing (self->table, 4);
  gtk_grid_set_column_spacing (self->table, 6);
  self->not_ready = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->not_ready, TRUE);
  gtk_label_set_xalign (self->not_ready, 0);
  gtk_widget_add_css_class (GTK_WIDGET (self->not_ready), "warning");
  gtk_widget_set_visible (GTK_WIDGET (self->not_ready), FALSE);
  self->summary = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->summary, TRUE);
  gtk_label_set_xalign (self->summary, 0);
  gtk_label_set_selectable (self->summary, TRUE);
  gtk_widget_set_visible (GTK_WIDGET (self->summary), FALSE);
  gtk_box_append (GTK_BOX (box), xrlab_fit_page_model_build (self));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->summary));
  self->correlations = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->correlations, 0);
  gtk_label_set_selectable (self->correlations, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->correlations), "numeric");
  self->correlations_expander = gtk_expander_new_with_mnemonic (_("_Correlations"));
  gtk_expander_set_child (GTK_EXPANDER (self->correlations_expander), GTK_WIDGET (self->correlations));
  gtk_widget_set_visible (self->correlations_expander, FALSE);
  gtk_box_append (GTK_BOX (box), self->correlations_expander);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->not_ready));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->table));

  self->sbs_names = gtk_string_list_new (NULL);
  self->sbs_choice = GTK_DROP_DOWN (gtk_drop_down_new (G_LIST_MODEL (self->sbs_names), NULL));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->sbs_choice), _("The parameter plotted against delay"));
  g_signal_connect_swapped (self->sbs_choice, "notify::selected", G_CALLBACK (on_sbs_choice), self);
  self->sbs_plot = XRLAB_PLOT (xrlab_plot_new ());
  gtk_widget_set_size_request (GTK_WIDGET (self->sbs_plot), -1, 220);
  gtk_box_append (GTK_BOX (sbs_box), GTK_WIDGET (self->sbs_choice));
  gtk_box_append (GTK_BOX (sbs_box), GTK_WIDGET (self->sbs_plot));
  gtk_widget_set_visible (sbs_box, FALSE);
  gtk_box_append (GTK_BOX (box), sbs_box);

  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_widget_set_margin_top (box, 12);
  gtk_widget_set_margin_bottom (box, 12);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroll), box);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroll), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_size_request (scroll, 480, -1);
  gtk_paned_set_end_child (paned, scroll);
}

gboolean
xrlab_fit_page_set_param_text (XrlabFitPage *self, const char *name, const char *text)
{
  XrlabFitRow *row;

  g_return_val_if_fail (XRLAB_IS_FIT_PAGE (self), FALSE);
  row = xrlab_fit_page_table_find (self, name);
  if (row == NULL)
    return FALSE;
  gtk_editable_set_text (GTK_EDITABLE (row->value), text);
  return TRUE;
}

const char *
xrlab_fit_page_get_correlations (XrlabFitPage *self)
{
  g_return_val_if_fail (XRLAB_IS_FIT_PAGE (self), NULL);
  return gtk_widget_get_visible (self->correlations_expander) ? gtk_label_get_text (self->correlations) : "";
}

const char *
xrlab_fit_page_get_param_error (XrlabFitPage *self, const char *name)
{
  XrlabFitRow *row;

  g_return_val_if_fail (XRLAB_IS_FIT_PAGE (self), NULL);
  row = xrlab_fit_page_table_find (self, name);
  return row != NULL ? row->message_text : NULL;
}

void
xrlab_fit_page_set_param_share (XrlabFitPage *self, const char *name, int share)
{
  XrlabFitParamEdit edit = { 0 };

  g_return_if_fail (XRLAB_IS_FIT_PAGE (self));
  g_return_if_fail (share >= XRLAB_PARAM_SHARE_NONE && share <= XRLAB_PARAM_SHARE_FILE);
  edit.model = XRLAB_FIT_MODEL_MAIN;
  edit.name = name;
  edit.fields = XRLAB_FIT_PARAM_SHARE;
  edit.share = (XrlabParamShare) share;
  xrlab_fit_page_send_edit (self, &edit);
  g_signal_emit_by_name (self, "changed");
  xrlab_fit_page_keep_edits (self);
}

int
xrlab_fit_page_get_param_share (XrlabFitPage *self, const char *name)
{
  g_return_val_if_fail (XRLAB_IS_FIT_PAGE (self), -1);
  for (gsize i = 0; self->params != NULL && i < self->params->n_params; i++)
    if (g_strcmp0 (self->params->params[i].name, name) == 0)
      return (int) self->params->params[i].share;
  return -1;
}

gsize
xrlab_fit_page_get_n_baseline_params (XrlabFitPage *self)
{
  gsize n = 0;

  g_return_val_if_fail (XRLAB_IS_FIT_PAGE (self), 0);
  for (guint i = 0; i < self->rows->len; i++)
    n += ((XrlabFitRow *) g_ptr_array_index (self->rows, i))->role == XRLAB_FIT_MODEL_BASELINE;
  return n;
}

gboolean
xrlab_fit_page_get_baseline_param_value (XrlabFitPage *self, const char *name, double *value, double *error)
{
  g_return_val_if_fail (XRLAB_IS_FIT_PAGE (self), FALSE);
  for (gsize i = 0; self->bparams != NULL && i < self->bparams->n_params; i++)
    if (g_strcmp0 (self->bparams->params[i].name, name) == 0)
      {
        if (value != NULL)
          *value = self->bparams->params[i].value;
        if (error != NULL)
          *error = xrlab_fit_page_baseline_error (self, &self->bparams->params[i]);
        return TRUE;
      }
  return FALSE;
}

GtkWidget *
xrlab_fit_page_get_baseline_param_cell (XrlabFitPage *self, const char *name, int column)
{
  XrlabFitRow *row;

  g_return_val_if_fail (XRLAB_IS_FIT_PAGE (self), NULL);
  row = xrlab_fit_page_table_find_role (self, XRLAB_FIT_MODEL_BASELINE, name);
  if (row == NULL)
    return NULL;
  switch (column)
    {
    case 0: return row->name_label;
    case 1: return row->value;
    case 2: return row->vary;
    case 3: return row->min;
    case 4: return row->max;
    case 5: return row->expr;
    case 6: return row->error;
    case 7:
      {
        int line = 0;
        gtk_grid_query_child (self->table, row->name_label, NULL, &line, NULL, NULL);
        return gtk_grid_get_child_at (self->table, 7, line);
      }
    default: return NULL;
    }
}

const char *
xrlab_fit_page_get_baseline_param_error (XrlabFitPage *self, const char *name)
{
  XrlabFitRow *row;

  g_return_val_if_fail (XRLAB_IS_FIT_PAGE (self), NULL);
  row = xrlab_fit_page_table_find_role (self, XRLAB_FIT_MODEL_BASELINE, name);
  return row != NULL ? row->message_text : NULL;
}
