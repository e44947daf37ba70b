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
 *            "map": "data", "delay": 0, "energy": 84.2 }
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

static const char *const map_ids[] = { "data", "model", "residual", NULL };

void
xrlab_session_fit_clear (XrlabSessionFit *fit)
{
  g_clear_pointer (&fit->data, g_free);
  g_clear_pointer (&fit->models, g_free);
  g_clear_pointer (&fit->model, g_free);
  g_clear_pointer (&fit->baseline_model, g_free);
  g_clear_pointer (&fit->dynamics, g_strfreev);
  g_clear_pointer (&fit->profiles, g_strfreev);
  g_clear_pointer (&fit->baseline_profiles, g_strfreev);
  g_clear_pointer (&fit->value_names, g_strfreev);
  g_clear_pointer (&fit->values, g_free);
  fit->n_values = 0;
}

void
xrlab_session_fit_init (XrlabSessionFit *fit)
{
  memset (fit, 0, sizeof *fit);
  fit->e0 = fit->e1 = fit->t0 = fit->t1 = fit->b0 = fit->b1 = NAN;
  fit->delay = fit->energy = NAN;
}

void
xrlab_session_set_fit (XrlabSession *session, const XrlabSessionFit *fit)
{
  XrlabSessionFit *f = NULL;

  if (fit != NULL)
    {
      f = g_new0 (XrlabSessionFit, 1);
      *f = *fit;
      f->data = g_strdup (fit->data != NULL ? fit->data : "");
      f->models = g_strdup (fit->models);
      f->model = g_strdup (fit->model);
      f->baseline_model = g_strdup (fit->baseline_model);
      f->dynamics = g_strdupv (fit->dynamics);
      f->profiles = g_strdupv (fit->profiles);
      f->baseline_profiles = g_strdupv (fit->baseline_profiles);
      f->value_names = g_strdupv (fit->value_names);
      f->values = fit->n_values > 0 ? g_memdup2 (fit->values, fit->n_values * sizeof (double)) : NULL;
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
    xrlab_session_fit_clear (session->fit);
  g_clear_pointer (&session->fit, g_free);
}

void
xrlab_session_fit_copy (XrlabSession *copy, const XrlabSession *session)
{
  xrlab_session_set_fit (copy, session->fit);
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

gboolean
xrlab_session_fit_equal (const XrlabSession *a, const XrlabSession *b)
{
  const XrlabSessionFit *x = a->fit, *y = b->fit;

  if (x == NULL || y == NULL)
    return x == y;
  if (g_strcmp0 (x->data, y->data) != 0 || g_strcmp0 (x->models, y->models) != 0
      || g_strcmp0 (x->model, y->model) != 0 || g_strcmp0 (x->baseline_model, y->baseline_model) != 0
      || !same_strv (x->dynamics, y->dynamics) || !same_strv (x->profiles, y->profiles)
      || !same_strv (x->baseline_profiles, y->baseline_profiles) || !same_strv (x->value_names, y->value_names)
      || x->n_values != y->n_values || !x->pin_baseline != !y->pin_baseline || x->map != y->map)
    return FALSE;
  for (gsize i = 0; i < x->n_values; i++)
    if (!same_double (x->values[i], y->values[i]))
      return FALSE;
  return same_double (x->e0, y->e0) && same_double (x->e1, y->e1) && same_double (x->t0, y->t0)
         && same_double (x->t1, y->t1) && same_double (x->b0, y->b0) && same_double (x->b1, y->b1)
         && same_double (x->delay, y->delay) && same_double (x->energy, y->energy);
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
      g_string_append (out, "    \"values\": {");
      for (gsize i = 0; i < f->n_values; i++)
        {
          g_string_append (out, i == 0 ? " " : ", ");
          xrlab_json_append_string (out, f->value_names[i]);
          g_string_append (out, ": ");
          xrlab_json_append_number (out, f->values[i]);
        }
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

static gboolean
get_values (JsonObject *obj, XrlabSessionFit *f, GError **error)
{
  JsonNode *node = json_object_get_member (obj, "values");
  g_autoptr(GList) names = NULL;
  guint i = 0;

  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    return xrlab_session_fail (error, "fit.values", _("expected %s"), _("an object"));
  names = json_object_get_members (json_node_get_object (node));
  if (g_list_length (names) > MAX_VALUES)
    return xrlab_session_fail (error, "fit.values", _("more than %d values"), MAX_VALUES);
  f->n_values = g_list_length (names);
  f->value_names = g_new0 (char *, f->n_values + 1);
  f->values = g_new0 (double, MAX (f->n_values, 1));
  for (GList *l = names; l != NULL; l = l->next, i++)
    {
      g_autofree char *p = g_strdup_printf ("fit.values.%s", (const char *) l->data);
      f->value_names[i] = g_strdup (l->data);
      if (strlen (l->data) > MAX_NAME_CHARS
          || !number_of (json_object_get_member (json_node_get_object (node), l->data), p, &f->values[i], error))
        return FALSE;
      if (!isfinite (f->values[i]))
        return xrlab_session_fail (error, p, _("expected %s"), _("a number"));
    }
  return TRUE;
}

static gboolean
parse_fit (JsonObject *obj, XrlabSessionFit *f, GError **error)
{
  static const char *const allowed[] = {
    "data", "models", "model", "baseline_model", "dynamics", "profiles", "baseline_profiles",
    "energies", "delays", "baseline_delays",
    "pin_baseline", "values", "map", "delay", "energy", NULL
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
      || !get_values (obj, f, error)
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
xrlab_session_fit_parse (JsonObject *root, XrlabSession *session, GError **error)
{
  JsonNode *node = json_object_get_member (root, "fit");
  XrlabSessionFit f;
  gboolean ok;

  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    return xrlab_session_fail (error, "fit", _("expected %s"), _("an object"));
  xrlab_session_fit_init (&f);
  ok = parse_fit (json_node_get_object (node), &f, error);
  if (ok)
    xrlab_session_set_fit (session, &f);
  xrlab_session_fit_clear (&f);
  return ok;
}
