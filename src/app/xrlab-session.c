/* xrlab-session.c -- the window's state as a JSON document
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-session.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "xrlab-session-stacks.h"
#include "xrlab-util.h"

G_DEFINE_QUARK (xrlab-session-error-quark, xrlab_session_error)

static void
material_free (gpointer p)
{
  XrlabSessionMaterial *m = p;

  g_free (m->name);
  g_free (m->formula);
  g_free (m);
}

XrlabSession *
xrlab_session_new (void)
{
  XrlabSession *s = g_new0 (XrlabSession, 1);

  s->materials = g_ptr_array_new_with_free_func (material_free);
  s->sweep = (XrlabSweep) { 1.0, 30.0, 1000, TRUE, XRLAB_ENERGY_UNIT_KEV };
  s->quantity = XRLAB_QUANTITY_DELTA;
  s->x_log = TRUE;
  s->y_log = TRUE;
  s->values_energy_ev = 8048.0;
  return s;
}

XrlabSession *
xrlab_session_new_default (void)
{
  XrlabSession *s = xrlab_session_new ();

  xrlab_session_add_material (s, "Si", "Si", 2.33, 1.0, 0x1c71d8, TRUE);
  xrlab_session_add_material (s, "SiO₂", "SiO2", 2.2, 1.0, 0xe66100, TRUE);
  xrlab_session_add_material (s, "Au", "Au", 19.3, 1.0, 0x26a269, TRUE);
  return s;
}

void
xrlab_session_free (XrlabSession *session)
{
  if (session == NULL)
    return;
  g_ptr_array_unref (session->materials);
  xrlab_session_stacks_free (session);
  g_free (session);
}

void
xrlab_session_add_material (XrlabSession *session,
                            const char   *name,
                            const char   *formula,
                            double        density_g_cm3,
                            double        thickness_um,
                            guint32       color,
                            gboolean      visible)
{
  XrlabSessionMaterial *m = g_new0 (XrlabSessionMaterial, 1);

  m->name = g_strdup (name != NULL ? name : "");
  m->formula = g_strdup (formula != NULL ? formula : "");
  m->density_g_cm3 = density_g_cm3;
  m->thickness_um = thickness_um;
  m->color = color & 0xffffff;
  m->visible = !!visible;
  g_ptr_array_add (session->materials, m);
}

XrlabSession *
xrlab_session_copy (const XrlabSession *session)
{
  XrlabSession *copy = xrlab_session_new ();

  for (guint i = 0; i < session->materials->len; i++)
    {
      const XrlabSessionMaterial *m = g_ptr_array_index (session->materials, i);
      xrlab_session_add_material (copy, m->name, m->formula, m->density_g_cm3, m->thickness_um,
                                  m->color, m->visible);
    }
  copy->sweep = session->sweep;
  copy->quantity = session->quantity;
  copy->x_log = session->x_log;
  copy->y_log = session->y_log;
  copy->values_energy_ev = session->values_energy_ev;
  xrlab_session_stacks_copy (copy, session);
  return copy;
}

gboolean
xrlab_session_equal (const XrlabSession *a,
                     const XrlabSession *b)
{
  if (a->materials->len != b->materials->len ||
      !xrlab_sweep_equal (&a->sweep, &b->sweep) ||
      a->quantity != b->quantity || !a->x_log != !b->x_log || !a->y_log != !b->y_log ||
      a->values_energy_ev != b->values_energy_ev || !xrlab_session_stacks_equal (a, b))
    return FALSE;
  for (guint i = 0; i < a->materials->len; i++)
    {
      const XrlabSessionMaterial *ma = g_ptr_array_index (a->materials, i);
      const XrlabSessionMaterial *mb = g_ptr_array_index (b->materials, i);
      if (g_strcmp0 (ma->name, mb->name) != 0 || g_strcmp0 (ma->formula, mb->formula) != 0 ||
          ma->density_g_cm3 != mb->density_g_cm3 || ma->thickness_um != mb->thickness_um ||
          ma->color != mb->color || !ma->visible != !mb->visible)
        return FALSE;
    }
  return TRUE;
}

/* ---- writing ------------------------------------------------------------------------ */

/* JSON text is written here rather than with JsonGenerator: numbers in the
 * shortest form that reads back to the same double ("2.33", not
 * "2.3300000000000001"; json-glib 1.6 also writes "1e-300.0"); JSON has no
 * NaN or infinity, and the loader refuses null where a number goes. */
char *
xrlab_session_to_json (const XrlabSession *session,
                       gsize              *length)
{
  const XrlabQuantityInfo *info = xrlab_quantity_get_info (session->quantity);
  GString *s = g_string_new (NULL);

  g_string_append_printf (s, "{\n  \"format\": \"%s\",\n  \"version\": %d,\n  \"materials\": [",
                          XRLAB_SESSION_FORMAT, XRLAB_SESSION_VERSION);
  for (guint i = 0; i < session->materials->len; i++)
    {
      const XrlabSessionMaterial *m = g_ptr_array_index (session->materials, i);
      g_string_append (s, i == 0 ? "\n    {\n      \"name\": " : ",\n    {\n      \"name\": ");
      xrlab_json_append_string (s, m->name);
      g_string_append (s, ",\n      \"formula\": ");
      xrlab_json_append_string (s, m->formula);
      g_string_append (s, ",\n      \"density_g_cm3\": ");
      xrlab_json_append_number (s, m->density_g_cm3);
      g_string_append (s, ",\n      \"thickness_um\": ");
      xrlab_json_append_number (s, m->thickness_um);
      g_string_append_printf (s, ",\n      \"color\": \"#%06x\",\n      \"visible\": %s\n    }",
                              m->color & 0xffffff, m->visible ? "true" : "false");
    }
  g_string_append (s, session->materials->len > 0 ? "\n  ],\n" : "],\n");

  g_string_append (s, "  \"sweep\": {\n    \"start\": ");
  xrlab_json_append_number (s, session->sweep.start);
  g_string_append (s, ",\n    \"stop\": ");
  xrlab_json_append_number (s, session->sweep.stop);
  g_string_append_printf (s, ",\n    \"unit\": \"%s\",\n    \"points\": %u,\n    \"spacing\": \"%s\"\n  },\n",
                          xrlab_energy_unit_get_id (session->sweep.unit), session->sweep.points,
                          session->sweep.log ? "log" : "linear");
  g_string_append_printf (s, "  \"plot\": {\n    \"quantity\": \"%s\",\n    \"x_log\": %s,\n    \"y_log\": %s\n  },\n",
                          info->session_id, session->x_log ? "true" : "false", session->y_log ? "true" : "false");
  xrlab_session_stacks_append_json (session, s);
  g_string_append (s, "  \"values\": {\n    \"energy_eV\": ");
  xrlab_json_append_number (s, session->values_energy_ev);
  g_string_append (s, "\n  }\n}\n");

  if (length != NULL)
    *length = s->len;
  return g_string_free (s, FALSE);
}

gboolean
xrlab_session_save (const XrlabSession  *session,
                    const char          *path,
                    GError             **error)
{
  gsize len;
  g_autofree char *text = xrlab_session_to_json (session, &len);
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr(GError) local = NULL;

  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      int err = errno;
      g_set_error (error, XRLAB_SESSION_ERROR, XRLAB_SESSION_ERROR_IO,
                   _("Cannot create the folder %s: %s"), dir, g_strerror (err));
      return FALSE;
    }
  if (!xrlab_write_file_atomic (path, text, (gssize) len, &local))
    {
      g_set_error_literal (error, XRLAB_SESSION_ERROR, XRLAB_SESSION_ERROR_IO, local->message);
      return FALSE;
    }
  return TRUE;
}

/* ---- reading ------------------------------------------------------------------------ */

static const char *
node_type_name (JsonNode *node)
{
  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT: return _("an object");
    case JSON_NODE_ARRAY: return _("an array");
    case JSON_NODE_NULL: return _("null");
    case JSON_NODE_VALUE:
      {
        GType t = json_node_get_value_type (node);
        if (t == G_TYPE_STRING)
          return _("a string");
        if (t == G_TYPE_BOOLEAN)
          return _("true/false");
        return _("a number");
      }
    default:
      return "?";
    }
}

static gboolean
fail (GError **error, const char *path, const char *format, ...) G_GNUC_PRINTF (3, 4);

static gboolean
fail (GError **error, const char *path, const char *format, ...)
{
  va_list args;
  g_autofree char *msg = NULL;

  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, XRLAB_SESSION_ERROR, XRLAB_SESSION_ERROR_INVALID, "%s: %s", path, msg);
  return FALSE;
}

static gboolean
wrong_type (GError **error, const char *path, const char *expected, JsonNode *node)
{
  /* TRANSLATORS: "expected a number, found a string" */
  return fail (error, path, _("expected %s, found %s"), expected, node_type_name (node));
}

static gboolean
is_number (JsonNode *node)
{
  GType t;

  if (!JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  t = json_node_get_value_type (node);
  return t == G_TYPE_DOUBLE || t == G_TYPE_INT64 || t == G_TYPE_INT;
}

static gboolean
get_number (JsonObject *obj, const char *member, const char *path, gboolean required,
            double *out, GError **error)
{
  JsonNode *node = json_object_get_member (obj, member);
  g_autofree char *p = g_strdup_printf ("%s.%s", path, member);

  if (node == NULL)
    return required ? fail (error, path, _("the member “%s” is missing"), member) : TRUE;
  if (!is_number (node))
    return wrong_type (error, p, _("a number"), node);
  *out = json_node_get_double (node);
  if (!isfinite (*out))
    return fail (error, p, _("the number is not finite"));
  return TRUE;
}

static gboolean
get_string (JsonObject *obj, const char *member, const char *path, gboolean required,
            const char **out, GError **error)
{
  JsonNode *node = json_object_get_member (obj, member);
  g_autofree char *p = g_strdup_printf ("%s.%s", path, member);

  if (node == NULL)
    return required ? fail (error, path, _("the member “%s” is missing"), member) : TRUE;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return wrong_type (error, p, _("a string"), node);
  *out = json_node_get_string (node);
  return TRUE;
}

static gboolean
get_bool (JsonObject *obj, const char *member, const char *path, gboolean required,
          gboolean *out, GError **error)
{
  JsonNode *node = json_object_get_member (obj, member);
  g_autofree char *p = g_strdup_printf ("%s.%s", path, member);

  if (node == NULL)
    return required ? fail (error, path, _("the member “%s” is missing"), member) : TRUE;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    return wrong_type (error, p, _("true or false"), node);
  *out = json_node_get_boolean (node);
  return TRUE;
}

static JsonObject *
get_object (JsonObject *obj, const char *member, const char *path, gboolean required,
            GError **error, gboolean *ok)
{
  JsonNode *node = json_object_get_member (obj, member);
  g_autofree char *p = g_strdup_printf ("%s.%s", path, member);

  *ok = TRUE;
  if (node == NULL)
    {
      if (required)
        *ok = fail (error, path, _("the member “%s” is missing"), member);
      return NULL;
    }
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      *ok = wrong_type (error, p, _("an object"), node);
      return NULL;
    }
  return json_node_get_object (node);
}

static gboolean
check_members (JsonObject *obj, const char *path, const char *const *allowed, GError **error)
{
  g_autoptr(GList) members = json_object_get_members (obj);

  for (GList *l = members; l != NULL; l = l->next)
    if (!g_strv_contains (allowed, l->data))
      {
        g_autofree char *list = g_strjoinv (", ", (char **) allowed);
        return fail (error, path, _("unknown member “%s” (allowed: %s)"), (const char *) l->data, list);
      }
  return TRUE;
}

static gboolean
parse_color (const char *text, guint32 *out)
{
  guint32 v = 0;

  if (text == NULL || text[0] != '#' || strlen (text) != 7)
    return FALSE;
  for (int i = 1; i < 7; i++)
    {
      int d = g_ascii_xdigit_value (text[i]);
      if (d < 0)
        return FALSE;
      v = (v << 4) | (guint32) d;
    }
  *out = v;
  return TRUE;
}

static gboolean
parse_material (JsonNode *node, guint index, XrlabSession *session, GError **error)
{
  static const char *const allowed[] = {
    "name", "formula", "density_g_cm3", "thickness_um", "color", "visible", NULL
  };
  g_autofree char *path = g_strdup_printf ("materials[%u]", index);
  JsonObject *obj;
  const char *name = "", *formula = NULL, *color_text = NULL;
  double density = NAN, thickness = 1.0;
  gboolean visible = TRUE;
  guint32 color = 0x1c71d8;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return wrong_type (error, path, _("an object"), node);
  obj = json_node_get_object (node);
  if (!check_members (obj, path, allowed, error) ||
      !get_string (obj, "name", path, FALSE, &name, error) ||
      !get_string (obj, "formula", path, TRUE, &formula, error) ||
      !get_number (obj, "density_g_cm3", path, TRUE, &density, error) ||
      !get_number (obj, "thickness_um", path, FALSE, &thickness, error) ||
      !get_string (obj, "color", path, FALSE, &color_text, error) ||
      !get_bool (obj, "visible", path, FALSE, &visible, error))
    return FALSE;

  if (strlen (name) > 200)
    return fail (error, path, _("the name is longer than 200 characters"));
  if (strlen (formula) > 1000)
    return fail (error, path, _("the formula is longer than 1000 characters"));
  if (thickness < 0)
    return fail (error, path, _("thickness_um %g is negative"), thickness);
  if (color_text != NULL && !parse_color (color_text, &color))
    return fail (error, path, _("color “%s” is not of the form #rrggbb"), color_text);

  xrlab_session_add_material (session, name, formula, density, thickness, color, visible);
  return TRUE;
}

static gboolean
parse_sweep (JsonObject *obj, XrlabSession *session, GError **error)
{
  static const char *const allowed[] = { "start", "stop", "unit", "points", "spacing", NULL };
  const char *unit = NULL, *spacing = NULL;
  double points = 0;
  XrlabSweep sweep = { 0 };

  if (!check_members (obj, "sweep", allowed, error) ||
      !get_number (obj, "start", "sweep", TRUE, &sweep.start, error) ||
      !get_number (obj, "stop", "sweep", TRUE, &sweep.stop, error) ||
      !get_string (obj, "unit", "sweep", TRUE, &unit, error) ||
      !get_number (obj, "points", "sweep", TRUE, &points, error) ||
      !get_string (obj, "spacing", "sweep", TRUE, &spacing, error))
    return FALSE;
  if (!xrlab_energy_unit_from_id (unit, &sweep.unit))
    return fail (error, "sweep.unit", _("“%s” is not one of eV, keV, A"), unit);
  if (points != floor (points) || points < XRLAB_SWEEP_MIN_POINTS || points > XRLAB_SWEEP_MAX_POINTS)
    return fail (error, "sweep.points", _("%g is not a whole number in %d – %d"),
                 points, XRLAB_SWEEP_MIN_POINTS, XRLAB_SWEEP_MAX_POINTS);
  sweep.points = (guint) points;
  if (strcmp (spacing, "log") == 0)
    sweep.log = TRUE;
  else if (strcmp (spacing, "linear") == 0)
    sweep.log = FALSE;
  else
    return fail (error, "sweep.spacing", _("“%s” is not one of linear, log"), spacing);
  session->sweep = sweep;
  return TRUE;
}

static gboolean
parse_plot (JsonObject *obj, XrlabSession *session, GError **error)
{
  static const char *const allowed[] = { "quantity", "x_log", "y_log", NULL };
  const char *quantity = NULL;
  XrlabQuantity q;

  if (!check_members (obj, "plot", allowed, error) ||
      !get_string (obj, "quantity", "plot", FALSE, &quantity, error) ||
      !get_bool (obj, "x_log", "plot", FALSE, &session->x_log, error) ||
      !get_bool (obj, "y_log", "plot", FALSE, &session->y_log, error))
    return FALSE;
  if (quantity != NULL)
    {
      if (!xrlab_quantity_from_session_id (quantity, &q) || !xrlab_quantity_get_info (q)->plottable)
        {
          GString *ids = g_string_new (NULL);
          for (guint k = 0; k < XRLAB_QUANTITY_N; k++)
            if (xrlab_quantity_get_info (k)->plottable)
              g_string_append_printf (ids, "%s%s", ids->len ? ", " : "", xrlab_quantity_get_info (k)->session_id);
          fail (error, "plot.quantity", _("“%s” is not a quantity (one of: %s)"), quantity, ids->str);
          g_string_free (ids, TRUE);
          return FALSE;
        }
      session->quantity = q;
    }
  return TRUE;
}

static gboolean
parse_values (JsonObject *obj, XrlabSession *session, GError **error)
{
  static const char *const allowed[] = { "energy_eV", NULL };
  const XrlabEnergyRange *range = xrlab_sweep_get_default_range ();
  double ev = session->values_energy_ev;

  if (!check_members (obj, "values", allowed, error) ||
      !get_number (obj, "energy_eV", "values", FALSE, &ev, error))
    return FALSE;
  if (xrlab_energy_place (ev, range->complete_min_ev, range->max_ev, &ev) != XRLAB_ENERGY_INSIDE)
    return fail (error, "values.energy_eV", _("%g eV is outside %g – %g eV"), ev,
                 range->complete_min_ev, range->max_ev);
  session->values_energy_ev = ev;
  return TRUE;
}

XrlabSession *
xrlab_session_from_json (const char  *data,
                         gssize       length,
                         GError     **error)
{
  static const char *const allowed[] = {
    "format", "version", "materials", "sweep", "plot", "values", "stacks", "reflect", NULL
  };
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(XrlabSession) session = NULL;
  g_autoptr(GError) local = NULL;
  JsonNode *root, *node;
  JsonObject *obj, *sub;
  JsonArray *materials;
  const char *format = NULL;
  double version = 0;
  gboolean ok;

  if (length < 0)
    length = (gssize) strlen (data);
  if (!g_utf8_validate (data, length, NULL))
    {
      g_set_error_literal (error, XRLAB_SESSION_ERROR, XRLAB_SESSION_ERROR_PARSE,
                           _("The file is not UTF-8 text."));
      return NULL;
    }
  if (!json_parser_load_from_data (parser, data, length, &local))
    {
      g_set_error (error, XRLAB_SESSION_ERROR, XRLAB_SESSION_ERROR_PARSE,
                   _("The file is not valid JSON: %s"), local->message);
      return NULL;
    }
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error_literal (error, XRLAB_SESSION_ERROR, XRLAB_SESSION_ERROR_FOREIGN,
                           _("The file is not an xrlab session (its top level is not a JSON object)."));
      return NULL;
    }
  obj = json_node_get_object (root);
  node = json_object_get_member (obj, "format");
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING ||
      strcmp ((format = json_node_get_string (node)), XRLAB_SESSION_FORMAT) != 0)
    {
      g_set_error (error, XRLAB_SESSION_ERROR, XRLAB_SESSION_ERROR_FOREIGN,
                   _("The file is not an xrlab session (no \"format\": \"%s\")."), XRLAB_SESSION_FORMAT);
      return NULL;
    }
  if (!get_number (obj, "version", "session", TRUE, &version, error))
    return NULL;
  if (version != floor (version) || version < 1)
    {
      fail (error, "version", _("%g is not a valid version"), version);
      return NULL;
    }
  if (version > XRLAB_SESSION_VERSION)
    {
      g_set_error (error, XRLAB_SESSION_ERROR, XRLAB_SESSION_ERROR_VERSION,
                   _("The session was written by a newer xrlab (format version %g; this one reads %d)."),
                   version, XRLAB_SESSION_VERSION);
      return NULL;
    }
  if (!check_members (obj, "session", allowed, error))
    return NULL;

  session = xrlab_session_new ();

  node = json_object_get_member (obj, "materials");
  if (node == NULL)
    {
      fail (error, "session", _("the member “%s” is missing"), "materials");
      return NULL;
    }
  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      wrong_type (error, "materials", _("an array"), node);
      return NULL;
    }
  materials = json_node_get_array (node);
  if (json_array_get_length (materials) > XRLAB_SESSION_MAX_MATERIALS)
    {
      fail (error, "materials",
            g_dngettext (GETTEXT_PACKAGE, "%u material; at most %d are allowed",
                         "%u materials; at most %d are allowed",
                         json_array_get_length (materials)),
            json_array_get_length (materials), XRLAB_SESSION_MAX_MATERIALS);
      return NULL;
    }
  for (guint i = 0; i < json_array_get_length (materials); i++)
    if (!parse_material (json_array_get_element (materials, i), i, session, error))
      return NULL;

  sub = get_object (obj, "sweep", "session", TRUE, error, &ok);
  if (!ok || !parse_sweep (sub, session, error))
    return NULL;
  sub = get_object (obj, "plot", "session", FALSE, error, &ok);
  if (!ok || (sub != NULL && !parse_plot (sub, session, error)))
    return NULL;
  sub = get_object (obj, "values", "session", FALSE, error, &ok);
  if (!ok || (sub != NULL && !parse_values (sub, session, error)))
    return NULL;
  if (!xrlab_session_stacks_parse (obj, session, error))
    return NULL;

  /* The sweep must be valid for the quantity it is shown with. */
  if (!xrlab_sweep_validate (&session->sweep, xrlab_sweep_get_default_range (), &local))
    {
      fail (error, "sweep", "%s", local->message);
      return NULL;
    }
  return g_steal_pointer (&session);
}

XrlabSession *
xrlab_session_load (const char  *path,
                    GError     **error)
{
  g_autofree char *data = NULL;
  gsize len = 0;
  g_autoptr(GError) local = NULL;
  XrlabSession *session;
  GStatBuf st;

  if (g_stat (path, &st) == 0 && st.st_size > XRLAB_SESSION_MAX_BYTES)
    {
      g_set_error (error, XRLAB_SESSION_ERROR, XRLAB_SESSION_ERROR_FOREIGN,
                   _("%s is not an xrlab session: it is larger than %d MiB."),
                   path, XRLAB_SESSION_MAX_BYTES / (1024 * 1024));
      return NULL;
    }
  if (!g_file_get_contents (path, &data, &len, &local))
    {
      g_set_error_literal (error, XRLAB_SESSION_ERROR, XRLAB_SESSION_ERROR_IO, local->message);
      return NULL;
    }
  session = xrlab_session_from_json (data, (gssize) len, &local);
  if (session == NULL)
    {
      g_autofree char *base = g_path_get_basename (path);
      g_set_error (error, XRLAB_SESSION_ERROR, local->code, "%s: %s", base, local->message);
      return NULL;
    }
  return session;
}

char *
xrlab_session_get_autosave_path (void)
{
  return g_build_filename (g_get_user_state_dir (), "xrlab", "session.json", NULL);
}
