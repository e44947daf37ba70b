/* xrlab-session-fit.c -- the Fit page in a session: the measurement, its
 * model, the fit window, the edited start values and the view
 *
 *   "fit": { "data": "/data/au4f", "models": "/data/au4f.yaml", "model": "2D",
 *            "baseline_model": "base",
 *            "dynamics": [ "GLP_01_x0=/data/au4f-time.yaml:SineWave" ],
 *            "profiles": [ "GLP_01_A=/data/profiles.yaml:pLin" ],
 *            "baseline_profiles": [],
 *            "energies": [81, 91], "delays": [-0.3, 16.5],
 *            "baseline_delays": [-0.4, -0.05], "pin_baseline": true,
 *            "values": { "GLP_01_A": 310 },
 *            "result": { "summary": "2D: χ² 2.53e+07, ...", "errors": { "GLP_01_A": 0.42 },
 *                        "baseline": { "values": { "Offset_y0": 49.9 }, "errors": { "Offset_y0": 0.05 } } },
 *            "map": "data", "delay": 0, "energy": 84.2 }
 *
 * "result" is the last fit as the page showed it: its summary (and a
 * project's joint summary, "project_summary") and the standard errors of
 * its parameters, whose fitted values are among "values"; and the baseline
 * fit's values and standard errors ("baseline": its "errors" name only
 * parameters of its "values"), which the page opens as the baseline
 * model's start values. A "baseline" that is not sound is refused alone:
 * xrlab_session_fit_parse() then leaves it out with a warning when asked
 * to salvage, and fails otherwise.
 *
 * An edited model (its structure, vary, bounds, expressions, time
 * dependence and profiles) is a model file the page saved (see
 * xrlab-fit-page-model.c), named by "models" like any other.
 *
 * Only "data" is required; an open end of a range is null. The member is
 * optional (sessions written before the page have none) and is checked like
 * the rest of the document: types, no unknown members. The files are not
 * read here; the page opens them, and a file that cannot be read then
 * leaves the page empty with its message.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-session-fit.h"
#include "xrlab-session-private.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "xrlab-util.h"

#define MAX_PATH_CHARS 4096
#define MAX_NAME_CHARS 200
#define MAX_DYNAMICS 64
#define MAX_VALUES 1024
#define MAX_SUMMARY_CHARS 8000

static const char *const map_ids[] = { "data", "model", "residual", NULL };

void
xrlab_session_set_fit (XrlabSession *session, const XrlabSessionFit *fit)
{
  XrlabSessionFit *f = NULL;

  if (fit != NULL)
    {
      f = g_new0 (XrlabSessionFit, 1);
      xrlab_fit_workspace_copy (f, fit);
      if (f->data == NULL)
        f->data = g_strdup ("");
    }
  xrlab_session_fit_free (session);
  session->fit = f;
}

const XrlabSessionFit *
xrlab_session_get_fit (const XrlabSession *session)
{
  return session->fit;
}

void
xrlab_session_fit_free (XrlabSession *session)
{
  if (session->fit != NULL)
    xrlab_fit_workspace_clear (session->fit);
  g_clear_pointer (&session->fit, g_free);
}

void
xrlab_session_fit_copy (XrlabSession *copy, const XrlabSession *session)
{
  xrlab_session_set_fit (copy, session->fit);
}

gboolean
xrlab_session_fit_equal (const XrlabSession *a, const XrlabSession *b)
{
  const XrlabSessionFit *x = a->fit, *y = b->fit;

  if (x == NULL || y == NULL)
    return x == y;
  return xrlab_fit_workspace_equal (x, y);
}

/* ---- writing ------------------------------------------------------------------------ */

static void
append_string (GString *out, const char *name, const char *value)
{
  if (value == NULL)
    return;
  g_string_append_printf (out, "    \"%s\": ", name);
  xrlab_json_append_string (out, value);
  g_string_append (out, ",\n");
}

static void
append_range (GString *out, const char *name, double a, double b)
{
  if (isnan (a) && isnan (b))
    return;
  g_string_append_printf (out, "    \"%s\": [", name);
  xrlab_json_append_number (out, a);
  g_string_append (out, ", ");
  xrlab_json_append_number (out, b);
  g_string_append (out, "],\n");
}

static void
append_strings (GString *out, const char *name, char **strv)
{
  if (strv == NULL || strv[0] == NULL)
    return;
  g_string_append_printf (out, "    \"%s\": [", name);
  for (guint i = 0; strv[i] != NULL; i++)
    {
      g_string_append (out, i == 0 ? " " : ", ");
      xrlab_json_append_string (out, strv[i]);
    }
  g_string_append (out, " ],\n");
}

/* { "NAME": number, ... } of the finite ones */
static void
append_named_numbers (GString *out, char **names, const double *v, gsize n)
{
  gboolean first = TRUE;

  g_string_append_c (out, '{');
  for (gsize i = 0; i < n; i++)
    if (isfinite (v[i]))
      {
        g_string_append (out, first ? " " : ", ");
        xrlab_json_append_string (out, names[i]);
        g_string_append (out, ": ");
        xrlab_json_append_number (out, v[i]);
        first = FALSE;
      }
  g_string_append (out, " }");
}

void
xrlab_session_fit_append_json (const XrlabSession *session, GString *out)
{
  const XrlabSessionFit *f = session->fit;

  if (f == NULL)
    return;
  g_string_append (out, "  \"fit\": {\n");
  append_string (out, "data", f->data);
  append_string (out, "models", f->models);
  append_string (out, "model", f->model);
  append_string (out, "baseline_model", f->baseline_model);
  append_strings (out, "dynamics", f->dynamics);
  append_strings (out, "profiles", f->profiles);
  append_strings (out, "baseline_profiles", f->baseline_profiles);
  append_range (out, "energies", f->e0, f->e1);
  append_range (out, "delays", f->t0, f->t1);
  append_range (out, "baseline_delays", f->b0, f->b1);
  if (f->n_values > 0)
    {
      g_string_append (out, "    \"values\": ");
      append_named_numbers (out, f->value_names, f->values, f->n_values);
      g_string_append (out, ",\n");
    }
  if (f->result_summary != NULL || f->project_summary != NULL || f->n_errors > 0 || f->n_baseline > 0)
    {
      g_string_append (out, "    \"result\": { ");
      if (f->result_summary != NULL)
        {
          g_string_append (out, "\"summary\": ");
          xrlab_json_append_string (out, f->result_summary);
          g_string_append (out, ", ");
        }
      if (f->project_summary != NULL)
        {
          g_string_append (out, "\"project_summary\": ");
          xrlab_json_append_string (out, f->project_summary);
          g_string_append (out, ", ");
        }
      if (f->n_baseline > 0)
        {
          g_string_append (out, "\"baseline\": { \"values\": ");
          append_named_numbers (out, f->baseline_names, f->baseline_values, f->n_baseline);
          g_string_append (out, ", \"errors\": ");
          append_named_numbers (out, f->baseline_names, f->baseline_errors, f->n_baseline);
          g_string_append (out, " }, ");
        }
      g_string_append (out, "\"errors\": ");
      append_named_numbers (out, f->error_names, f->errors, f->n_errors);
      g_string_append (out, " },\n");
    }
  if (isfinite (f->delay))
    {
      g_string_append (out, "    \"delay\": ");
      xrlab_json_append_number (out, f->delay);
      g_string_append (out, ",\n");
    }
  if (isfinite (f->energy))
    {
      g_string_append (out, "    \"energy\": ");
      xrlab_json_append_number (out, f->energy);
      g_string_append (out, ",\n");
    }
  g_string_append_printf (out, "    \"pin_baseline\": %s,\n    \"map\": \"%s\"\n  },\n",
                          f->pin_baseline ? "true" : "false", map_ids[CLAMP (f->map, 0, 2)]);
}

/* ---- reading ------------------------------------------------------------------------ */

static gboolean
get_string (JsonObject *obj, const char *name, gboolean required, gsize max_chars, char **out,
            GError **error)
{
  const char *s = NULL;

  if (!xrlab_session_get_string (obj, name, "fit", required, max_chars, &s, error))
    return FALSE;
  if (s != NULL)
    {
      g_free (*out);
      *out = g_strdup (s);
    }
  return TRUE;
}

/* A number, or null for NaN. */
static gboolean
number_of (JsonNode *node, const char *path, double *out, GError **error)
{
  if (JSON_NODE_HOLDS_NULL (node))
    {
      *out = NAN;
      return TRUE;
    }
  if (!JSON_NODE_HOLDS_VALUE (node)
      || (json_node_get_value_type (node) != G_TYPE_DOUBLE && json_node_get_value_type (node) != G_TYPE_INT64))
    return xrlab_session_fail (error, path, _("expected %s"), _("a number"));
  *out = json_node_get_double (node);
  return TRUE;
}

static gboolean
get_number (JsonObject *obj, const char *name, double *out, GError **error)
{
  JsonNode *node = json_object_get_member (obj, name);
  g_autofree char *path = g_strdup_printf ("fit.%s", name);

  return node == NULL || number_of (node, path, out, error);
}

static gboolean
get_range (JsonObject *obj, const char *name, double *a, double *b, GError **error)
{
  JsonNode *node = json_object_get_member (obj, name);
  g_autofree char *path = g_strdup_printf ("fit.%s", name);
  JsonArray *arr;

  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (node) || json_array_get_length (arr = json_node_get_array (node)) != 2)
    return xrlab_session_fail (error, path, _("expected %s"), _("an array of two numbers"));
  return number_of (json_array_get_element (arr, 0), path, a, error)
         && number_of (json_array_get_element (arr, 1), path, b, error);
}

/* An array of strings ("PAR=FILE:MODEL..."). */
static gboolean
get_strings (JsonObject *obj, const char *name, char ***out, GError **error)
{
  JsonNode *node = json_object_get_member (obj, name);
  g_autofree char *path = g_strdup_printf ("fit.%s", name);
  JsonArray *arr;
  guint n;

  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    return xrlab_session_fail (error, path, _("expected %s"), _("an array"));
  arr = json_node_get_array (node);
  n = json_array_get_length (arr);
  if (n > MAX_DYNAMICS)
    return xrlab_session_fail (error, path, _("more than %d entries"), MAX_DYNAMICS);
  g_strfreev (*out);
  *out = g_new0 (char *, n + 1);
  for (guint i = 0; i < n; i++)
    {
      JsonNode *e = json_array_get_element (arr, i);
      if (!JSON_NODE_HOLDS_VALUE (e) || json_node_get_value_type (e) != G_TYPE_STRING
          || g_utf8_strlen (json_node_get_string (e), -1) > MAX_PATH_CHARS)
        {
          g_autofree char *p = g_strdup_printf ("fit.%s[%u]", name, i);
          return xrlab_session_fail (error, p, _("expected %s"), _("a string"));
        }
      (*out)[i] = g_strdup (json_node_get_string (e));
    }
  return TRUE;
}

/* An object of finite numbers by name at @path ("fit.values"). */
static gboolean
get_named_numbers (JsonNode *node, const char *path, char ***names_out, double **v_out, gsize *n_out,
                   GError **error)
{
  g_autoptr(GList) names = NULL;
  guint i = 0;

  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    return xrlab_session_fail (error, path, _("expected %s"), _("an object"));
  names = json_object_get_members (json_node_get_object (node));
  if (g_list_length (names) > MAX_VALUES)
    return xrlab_session_fail (error, path, _("more than %d values"), MAX_VALUES);
  *n_out = g_list_length (names);
  *names_out = g_new0 (char *, *n_out + 1);
  *v_out = g_new0 (double, MAX (*n_out, 1));
  for (GList *l = names; l != NULL; l = l->next, i++)
    {
      g_autofree char *p = g_strdup_printf ("%s.%s", path, (const char *) l->data);
      (*names_out)[i] = g_strdup (l->data);
      if (g_utf8_strlen (l->data, -1) > MAX_NAME_CHARS)
        return xrlab_session_fail (error, path, _("the name is longer than 200 characters"));
      if (!number_of (json_object_get_member (json_node_get_object (node), l->data), p, &(*v_out)[i], error))
        return FALSE;
      if (!isfinite ((*v_out)[i]))
        return xrlab_session_fail (error, p, _("expected %s"), _("a number"));
    }
  return TRUE;
}

/* "baseline": { "values": { NAME: v, ... }, "errors": { NAME: σ, ... } } of
 * "result" (@node). */
static gboolean
get_baseline_result (JsonNode *node, XrlabSessionFit *f, GError **error)
{
  static const char *const allowed[] = { "values", "errors", NULL };
  const char *path = "fit.result.baseline";
  g_autoptr(GList) members = NULL;
  g_auto(GStrv) names = NULL, error_names = NULL;
  g_autofree double *values = NULL, *errors = NULL;
  gsize n = 0, n_errors = 0;
  JsonObject *b;

  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    return xrlab_session_fail (error, path, _("expected %s"), _("an object"));
  b = json_node_get_object (node);
  members = json_object_get_members (b);
  for (GList *l = members; l != NULL; l = l->next)
    if (!g_strv_contains (allowed, l->data))
      return xrlab_session_fail (error, path, _("unknown member “%s” (allowed: %s)"), (const char *) l->data,
                                 "values, errors");
  if (json_object_get_member (b, "values") == NULL)
    return xrlab_session_fail (error, path, _("no member “%s”"), "values");
  if (!get_named_numbers (json_object_get_member (b, "values"), "fit.result.baseline.values", &names, &values, &n,
                          error)
      || !get_named_numbers (json_object_get_member (b, "errors"), "fit.result.baseline.errors", &error_names,
                             &errors, &n_errors, error))
    return FALSE;
  for (gsize i = 0; i < n_errors; i++)
    {
      g_autofree char *p = g_strdup_printf ("fit.result.baseline.errors.%s", error_names[i]);

      if (!g_strv_contains ((const char *const *) names, error_names[i]))
        return xrlab_session_fail (error, p, _("not a parameter of “values”"));
      if (errors[i] < 0)
        return xrlab_session_fail (error, p, _("expected %s"), _("a number ≥ 0"));
    }
  for (gsize i = 0; i < n; i++)
    {
      double e = NAN;

      for (gsize k = 0; k < n_errors; k++)
        if (strcmp (error_names[k], names[i]) == 0)
          e = errors[k];
      xrlab_fit_workspace_set_baseline (f, names[i], values[i], e);
    }
  return TRUE;
}

/* "result": { "summary": "...", "errors": { NAME: σ, ... }, "baseline": ... };
 * a "baseline" that is not sound is left out with @warning when it is
 * given, else an error. */
static gboolean
get_result (JsonObject *obj, XrlabSessionFit *f, char **warning, GError **error)
{
  static const char *const allowed[] = { "summary", "project_summary", "errors", "baseline", NULL };
  JsonNode *node = json_object_get_member (obj, "result");
  g_autoptr(GList) members = NULL;
  JsonObject *r;
  const char *summary = NULL;

  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    return xrlab_session_fail (error, "fit.result", _("expected %s"), _("an object"));
  r = json_node_get_object (node);
  members = json_object_get_members (r);
  for (GList *l = members; l != NULL; l = l->next)
    if (!g_strv_contains (allowed, l->data))
      return xrlab_session_fail (error, "fit.result", _("unknown member “%s” (allowed: %s)"),
                                 (const char *) l->data, "summary, project_summary, errors, baseline");
  if (!xrlab_session_get_string (r, "summary", "fit.result", FALSE, MAX_SUMMARY_CHARS, &summary, error))
    return FALSE;
  f->result_summary = g_strdup (summary);
  summary = NULL;
  if (!xrlab_session_get_string (r, "project_summary", "fit.result", FALSE, MAX_SUMMARY_CHARS, &summary, error))
    return FALSE;
  f->project_summary = g_strdup (summary);
  if (!get_named_numbers (json_object_get_member (r, "errors"), "fit.result.errors", &f->error_names,
                          &f->errors, &f->n_errors, error))
    return FALSE;
  {
    g_autoptr(GError) local = NULL;

    if (get_baseline_result (json_object_get_member (r, "baseline"), f, &local))
      return TRUE;
    xrlab_fit_workspace_clear_baseline (f);
    if (warning == NULL)
      {
        g_propagate_error (error, g_steal_pointer (&local));
        return FALSE;
      }
    g_free (*warning);
    *warning = g_strdup (local->message);
    return TRUE;
  }
}

static gboolean
parse_fit (JsonObject *obj, XrlabSessionFit *f, char **warning, GError **error)
{
  static const char *const allowed[] = {
    "data", "models", "model", "baseline_model", "dynamics", "profiles", "baseline_profiles",
    "energies", "delays", "baseline_delays",
    "pin_baseline", "values", "map", "delay", "energy", "result", NULL
  };
  g_autoptr(GList) members = json_object_get_members (obj);
  g_autofree char *map = NULL;
  JsonNode *pin;

  for (GList *l = members; l != NULL; l = l->next)
    if (!g_strv_contains (allowed, l->data))
      {
        g_autofree char *list = g_strjoinv (", ", (char **) allowed);
        return xrlab_session_fail (error, "fit", _("unknown member “%s” (allowed: %s)"), (const char *) l->data, list);
      }
  if (!get_string (obj, "data", TRUE, MAX_PATH_CHARS, &f->data, error)
      || !get_string (obj, "models", FALSE, MAX_PATH_CHARS, &f->models, error)
      || !get_string (obj, "model", FALSE, MAX_NAME_CHARS, &f->model, error)
      || !get_string (obj, "baseline_model", FALSE, MAX_NAME_CHARS, &f->baseline_model, error)
      || !get_string (obj, "map", FALSE, 16, &map, error)
      || !get_strings (obj, "dynamics", &f->dynamics, error)
      || !get_strings (obj, "profiles", &f->profiles, error)
      || !get_strings (obj, "baseline_profiles", &f->baseline_profiles, error)
      || !get_named_numbers (json_object_get_member (obj, "values"), "fit.values", &f->value_names,
                             &f->values, &f->n_values, error)
      || !get_result (obj, f, warning, error)
      || !get_range (obj, "energies", &f->e0, &f->e1, error)
      || !get_range (obj, "delays", &f->t0, &f->t1, error)
      || !get_range (obj, "baseline_delays", &f->b0, &f->b1, error)
      || !get_number (obj, "delay", &f->delay, error) || !get_number (obj, "energy", &f->energy, error))
    return FALSE;
  if ((pin = json_object_get_member (obj, "pin_baseline")) != NULL)
    {
      if (!JSON_NODE_HOLDS_VALUE (pin) || json_node_get_value_type (pin) != G_TYPE_BOOLEAN)
        return xrlab_session_fail (error, "fit.pin_baseline", _("expected %s"), _("true or false"));
      f->pin_baseline = json_node_get_boolean (pin);
    }
  if (map != NULL)
    {
      for (f->map = 0; map_ids[f->map] != NULL && strcmp (map_ids[f->map], map) != 0; f->map++)
        ;
      if (map_ids[f->map] == NULL)
        return xrlab_session_fail (error, "fit.map", _("“%s” is not one of data, model, residual"), map);
    }
  if (f->model != NULL && f->models == NULL)
    return xrlab_session_fail (error, "fit.model", _("a model needs its file (“models”)"));
  return TRUE;
}

gboolean
xrlab_session_fit_parse (JsonObject *root, XrlabSession *session, char **warning, GError **error)
{
  JsonNode *node = json_object_get_member (root, "fit");
  XrlabSessionFit f;
  gboolean ok;

  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    return xrlab_session_fail (error, "fit", _("expected %s"), _("an object"));
  xrlab_fit_workspace_init (&f);
  ok = parse_fit (json_node_get_object (node), &f, warning, error);
  if (ok)
    xrlab_session_set_fit (session, &f);
  xrlab_fit_workspace_clear (&f);
  return ok;
}
