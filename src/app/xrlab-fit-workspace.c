/* xrlab-fit-workspace.c -- the Fit page's workspace (xrlab-fit-workspace.h)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-fit-workspace.h"

#include <math.h>
#include <string.h>

void
xrlab_fit_workspace_init (XrlabFitWorkspace *ws)
{
  memset (ws, 0, sizeof *ws);
  ws->e0 = ws->e1 = ws->t0 = ws->t1 = ws->b0 = ws->b1 = NAN;
  ws->delay = ws->energy = NAN;
}

void
xrlab_fit_workspace_clear_result (XrlabFitWorkspace *ws)
{
  g_clear_pointer (&ws->result_summary, g_free);
  g_clear_pointer (&ws->project_summary, g_free);
  g_clear_pointer (&ws->error_names, g_strfreev);
  g_clear_pointer (&ws->errors, g_free);
  ws->n_errors = 0;
  xrlab_fit_workspace_clear_baseline (ws);
}

void
xrlab_fit_workspace_clear_baseline (XrlabFitWorkspace *ws)
{
  g_clear_pointer (&ws->baseline_names, g_strfreev);
  g_clear_pointer (&ws->baseline_values, g_free);
  g_clear_pointer (&ws->baseline_errors, g_free);
  ws->n_baseline = 0;
}

void
xrlab_fit_workspace_clear (XrlabFitWorkspace *ws)
{
  g_clear_pointer (&ws->data, g_free);
  g_clear_pointer (&ws->models, g_free);
  g_clear_pointer (&ws->model, g_free);
  g_clear_pointer (&ws->baseline_model, g_free);
  g_clear_pointer (&ws->dynamics, g_strfreev);
  g_clear_pointer (&ws->profiles, g_strfreev);
  g_clear_pointer (&ws->baseline_profiles, g_strfreev);
  g_clear_pointer (&ws->value_names, g_strfreev);
  g_clear_pointer (&ws->values, g_free);
  ws->n_values = 0;
  xrlab_fit_workspace_clear_result (ws);
}

void
xrlab_fit_workspace_copy (XrlabFitWorkspace *dst, const XrlabFitWorkspace *src)
{
  *dst = *src;
  dst->data = g_strdup (src->data);
  dst->models = g_strdup (src->models);
  dst->model = g_strdup (src->model);
  dst->baseline_model = g_strdup (src->baseline_model);
  dst->dynamics = g_strdupv (src->dynamics);
  dst->profiles = g_strdupv (src->profiles);
  dst->baseline_profiles = g_strdupv (src->baseline_profiles);
  dst->value_names = g_strdupv (src->value_names);
  dst->values = src->n_values > 0 ? g_memdup2 (src->values, src->n_values * sizeof (double)) : NULL;
  dst->result_summary = g_strdup (src->result_summary);
  dst->project_summary = g_strdup (src->project_summary);
  dst->error_names = g_strdupv (src->error_names);
  dst->errors = src->n_errors > 0 ? g_memdup2 (src->errors, src->n_errors * sizeof (double)) : NULL;
  dst->baseline_names = g_strdupv (src->baseline_names);
  dst->baseline_values = src->n_baseline > 0 ? g_memdup2 (src->baseline_values, src->n_baseline * sizeof (double))
                                             : NULL;
  dst->baseline_errors = src->n_baseline > 0 ? g_memdup2 (src->baseline_errors, src->n_baseline * sizeof (double))
                                             : NULL;
}

static gboolean
same_double (double a, double b)
{
  return a == b || (isnan (a) && isnan (b));
}

static gboolean
same_strv (char **a, char **b)
{
  guint na = a != NULL ? g_strv_length (a) : 0, nb = b != NULL ? g_strv_length (b) : 0;

  if (na != nb)
    return FALSE;
  for (guint i = 0; i < na; i++)
    if (strcmp (a[i], b[i]) != 0)
      return FALSE;
  return TRUE;
}

static gboolean
same_doubles (const double *a, const double *b, gsize n)
{
  for (gsize i = 0; i < n; i++)
    if (!same_double (a[i], b[i]))
      return FALSE;
  return TRUE;
}

gboolean
xrlab_fit_workspace_equal (const XrlabFitWorkspace *x, const XrlabFitWorkspace *y)
{
  if (g_strcmp0 (x->data, y->data) != 0 || g_strcmp0 (x->models, y->models) != 0
      || g_strcmp0 (x->model, y->model) != 0 || g_strcmp0 (x->baseline_model, y->baseline_model) != 0
      || !same_strv (x->dynamics, y->dynamics) || !same_strv (x->profiles, y->profiles)
      || !same_strv (x->baseline_profiles, y->baseline_profiles) || !same_strv (x->value_names, y->value_names)
      || x->n_values != y->n_values || !x->pin_baseline != !y->pin_baseline || x->map != y->map
      || g_strcmp0 (x->result_summary, y->result_summary) != 0
      || g_strcmp0 (x->project_summary, y->project_summary) != 0 || !same_strv (x->error_names, y->error_names)
      || x->n_errors != y->n_errors || !same_strv (x->baseline_names, y->baseline_names)
      || x->n_baseline != y->n_baseline)
    return FALSE;
  return same_doubles (x->values, y->values, x->n_values) && same_doubles (x->errors, y->errors, x->n_errors)
         && same_doubles (x->baseline_values, y->baseline_values, x->n_baseline)
         && same_doubles (x->baseline_errors, y->baseline_errors, x->n_baseline)
         && same_double (x->e0, y->e0) && same_double (x->e1, y->e1) && same_double (x->t0, y->t0)
         && same_double (x->t1, y->t1) && same_double (x->b0, y->b0) && same_double (x->b1, y->b1)
         && same_double (x->delay, y->delay) && same_double (x->energy, y->energy);
}

/* Sets (or adds) @name's entry of the named doubles (@names, @v, @n). */
static void
set_named (char ***names, double **v, gsize *n, const char *name, double value)
{
  gsize i;

  for (i = 0; i < *n && g_strcmp0 ((*names)[i], name) != 0; i++)
    ;
  if (i == *n)
    {
      *names = g_renew (char *, *names, *n + 2);
      (*names)[*n] = g_strdup (name);
      (*names)[*n + 1] = NULL;
      *v = g_renew (double, *v, *n + 1);
      (*n)++;
    }
  (*v)[i] = value;
}

void
xrlab_fit_workspace_set_value (XrlabFitWorkspace *ws, const char *name, double value)
{
  set_named (&ws->value_names, &ws->values, &ws->n_values, name, value);
}

void
xrlab_fit_workspace_set_error (XrlabFitWorkspace *ws, const char *name, double error)
{
  set_named (&ws->error_names, &ws->errors, &ws->n_errors, name, error);
}

double
xrlab_fit_workspace_get_error (const XrlabFitWorkspace *ws, const char *name)
{
  for (gsize i = 0; i < ws->n_errors; i++)
    if (g_strcmp0 (ws->error_names[i], name) == 0)
      return ws->errors[i];
  return NAN;
}

void
xrlab_fit_workspace_set_baseline (XrlabFitWorkspace *ws, const char *name, double value, double error)
{
  gsize n = ws->n_baseline, i;

  set_named (&ws->baseline_names, &ws->baseline_values, &ws->n_baseline, name, value);
  for (i = 0; i < ws->n_baseline && g_strcmp0 (ws->baseline_names[i], name) != 0; i++)
    ;
  if (ws->n_baseline > n)
    ws->baseline_errors = g_renew (double, ws->baseline_errors, ws->n_baseline);
  ws->baseline_errors[i] = error;
}

gboolean
xrlab_fit_workspace_get_baseline (const XrlabFitWorkspace *ws, const char *name, double *value, double *error)
{
  for (gsize i = 0; i < ws->n_baseline; i++)
    if (g_strcmp0 (ws->baseline_names[i], name) == 0)
      {
        if (value != NULL)
          *value = ws->baseline_values[i];
        if (error != NULL)
          *error = ws->baseline_errors[i];
        return TRUE;
      }
  return FALSE;
}
