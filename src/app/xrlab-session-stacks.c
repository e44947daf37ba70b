/* xrlab-session-stacks.c -- the Reflectivity page in a session: its stacks
 * (as typed) and its controls
 *
 * Both members are optional, so sessions written before the page load as
 * they did; when present they are checked like the rest of the document:
 * types, ranges, no unknown members. The stack texts are not parsed here
 * (an invalid stack is kept as typed, as an invalid material is).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-session-stacks.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "xrlab-stack.h"
#include "xrlab-util.h"

/* The view names, in XrlabReflectView order. */
static const char *const view_ids[] = { "angles", "energies", "map", "filters", NULL };

#define MAX_SPEC_CHARS 1000
#define MAX_NAME_CHARS 200

/* The page's example: what a session without stacks shows. */
static const struct {
  const char *name, *text;
  gboolean filter;
  guint32 color;
} examples[] = {
  { "Rh", "Rh:12.41~0.3nm", FALSE, 0x1c71d8 },
  { "Pt", "Pt:21.45~0.3nm", FALSE, 0xe66100 },
  { "W/B4C × 50", "B4C:2.52:3nm/{W:19.3:1nm~0.3nm/B4C:2.52:1.5nm~0.3nm}x50/Si:2.33~0.3nm", FALSE, 0x26a269 },
  { "Al + Kapton + air", "Al:100um/Kapton:50um/air@1atm,295K:1m", TRUE, 0x9141ac },
};

/* The controls of a session without them. */
static const XrlabSessionReflect reflect_defaults = {
  0, (char *) "10", (char *) "5:30:500", (char *) "3", (char *) "0:10:500", FALSE, 0.0, TRUE,
  XRLAB_TABLE_CHOICE_AUTO
};

static void
stack_free (gpointer data)
{
  XrlabSessionStack *st = data;

  g_free (st->name);
  g_free (st->text);
  g_free (st);
}

static void
reflect_free (XrlabSessionReflect *r)
{
  if (r == NULL)
    return;
  g_free (r->energy);
  g_free (r->energies);
  g_free (r->angle);
  g_free (r->angles);
  g_free (r);
}

void
xrlab_session_add_stack (XrlabSession *session, const char *name, const char *text,
                         gboolean filter, guint32 color, gboolean visible)
{
  XrlabSessionStack *st = g_new0 (XrlabSessionStack, 1);

  if (session->stacks == NULL)
    session->stacks = g_ptr_array_new_with_free_func (stack_free);
  st->name = g_strdup (name != NULL ? name : "");
  st->text = g_strdup (text != NULL ? text : "");
  st->filter = !!filter;
  st->color = color == XRLAB_SESSION_COLOR_AUTO ? color : color & 0xffffff;
  st->visible = !!visible;
  g_ptr_array_add (session->stacks, st);
}

void
xrlab_session_add_example_stacks (XrlabSession *session)
{
  for (gsize i = 0; i < G_N_ELEMENTS (examples); i++)
    xrlab_session_add_stack (session, examples[i].name, examples[i].text, examples[i].filter,
                             examples[i].color, TRUE);
}

const XrlabSessionReflect *
xrlab_session_get_reflect (const XrlabSession *session)
{
  return session->reflect != NULL ? session->reflect : &reflect_defaults;
}

void
xrlab_session_clear_stacks (XrlabSession *session)
{
  g_clear_pointer (&session->stacks, g_ptr_array_unref);
  session->stacks = g_ptr_array_new_with_free_func (stack_free);
}

void
xrlab_session_set_reflect (XrlabSession *session, const XrlabSessionReflect *reflect)
{
  XrlabSessionReflect *r = g_new0 (XrlabSessionReflect, 1);

  *r = *reflect;
  r->energy = g_strdup (reflect->energy ? reflect->energy : "");
  r->energies = g_strdup (reflect->energies ? reflect->energies : "");
  r->angle = g_strdup (reflect->angle ? reflect->angle : "");
  r->angles = g_strdup (reflect->angles ? reflect->angles : "");
  reflect_free (session->reflect);
  session->reflect = r;
}

void
xrlab_session_stacks_free (XrlabSession *session)
{
  g_clear_pointer (&session->stacks, g_ptr_array_unref);
  g_clear_pointer (&session->reflect, reflect_free);
}

void
xrlab_session_stacks_copy (XrlabSession *copy, const XrlabSession *session)
{
  xrlab_session_stacks_free (copy);
  if (session->stacks != NULL)
    {
      copy->stacks = g_ptr_array_new_with_free_func (stack_free);
      for (guint i = 0; i < session->stacks->len; i++)
        {
          const XrlabSessionStack *st = g_ptr_array_index (session->stacks, i);
          xrlab_session_add_stack (copy, st->name, st->text, st->filter, st->color, st->visible);
        }
    }
  if (session->reflect != NULL)
    xrlab_session_set_reflect (copy, session->reflect);
}

static gboolean
stack_equal (const XrlabSessionStack *x, const char *name, const char *text, gboolean filter,
             guint32 color, gboolean visible)
{
  return g_strcmp0 (x->name, name) == 0 && g_strcmp0 (x->text, text) == 0 && !x->filter == !filter
         && x->color == color && !x->visible == !visible;
}

/* The stacks @s shows (its own, or the example when it has none) are
 * @other's. */
static gboolean
stacks_shown_equal (const XrlabSession *s, const GPtrArray *other)
{
  if (s->stacks == NULL)
    {
      if (other->len != G_N_ELEMENTS (examples))
        return FALSE;
      for (guint i = 0; i < other->len; i++)
        if (!stack_equal (g_ptr_array_index (other, i), examples[i].name, examples[i].text,
                          examples[i].filter, examples[i].color, TRUE))
          return FALSE;
      return TRUE;
    }
  if (s->stacks->len != other->len)
    return FALSE;
  for (guint i = 0; i < other->len; i++)
    {
      const XrlabSessionStack *y = g_ptr_array_index (s->stacks, i);
      if (!stack_equal (g_ptr_array_index (other, i), y->name, y->text, y->filter, y->color, y->visible))
        return FALSE;
    }
  return TRUE;
}

/* Equal when they show the same: a session without stacks or controls
 * shows the example and the defaults. */
gboolean
xrlab_session_stacks_equal (const XrlabSession *a, const XrlabSession *b)
{
  const XrlabSessionReflect *ra = xrlab_session_get_reflect (a), *rb = xrlab_session_get_reflect (b);

  if (a->stacks == NULL && b->stacks == NULL)
    ;
  else if (!stacks_shown_equal (a->stacks == NULL ? a : b, a->stacks == NULL ? b->stacks : a->stacks))
    return FALSE;
  return ra->view == rb->view && g_strcmp0 (ra->energy, rb->energy) == 0
         && g_strcmp0 (ra->energies, rb->energies) == 0 && g_strcmp0 (ra->angle, rb->angle) == 0
         && g_strcmp0 (ra->angles, rb->angles) == 0 && !ra->degrees == !rb->degrees
         && ra->polarization == rb->polarization && !ra->y_log == !rb->y_log && ra->table == rb->table;
}

/* ---- writing ------------------------------------------------------------------------ */

static void
append_member (GString *out, const char *indent, const char *name, const char *value, gboolean last)
{
  g_string_append_printf (out, "%s\"%s\": ", indent, name);
  xrlab_json_append_string (out, value);
  g_string_append (out, last ? "\n" : ",\n");
}

void
xrlab_session_stacks_append_json (const XrlabSession *session, GString *out)
{
  const XrlabSessionReflect *r = session->reflect;

  if (session->stacks != NULL)
    {
      g_string_append (out, "  \"stacks\": [");
      for (guint i = 0; i < session->stacks->len; i++)
        {
          const XrlabSessionStack *st = g_ptr_array_index (session->stacks, i);

          g_string_append (out, i == 0 ? "\n    {\n" : ",\n    {\n");
          append_member (out, "      ", "name", st->name, FALSE);
          append_member (out, "      ", "stack", st->text, FALSE);
          append_member (out, "      ", "kind", st->filter ? "filter" : "reflect", FALSE);
          if (st->color != XRLAB_SESSION_COLOR_AUTO)
            g_string_append_printf (out, "      \"color\": \"#%06x\",\n", st->color & 0xffffff);
          g_string_append_printf (out, "      \"visible\": %s\n    }", st->visible ? "true" : "false");
        }
      g_string_append (out, session->stacks->len > 0 ? "\n  ],\n" : "],\n");
    }
  if (r != NULL)
    {
      g_string_append_printf (out, "  \"reflect\": {\n    \"view\": \"%s\",\n",
                              view_ids[CLAMP (r->view, 0, 3)]);
      append_member (out, "    ", "energy_keV", r->energy, FALSE);
      append_member (out, "    ", "energies_keV", r->energies, FALSE);
      append_member (out, "    ", "angle", r->angle, FALSE);
      append_member (out, "    ", "angles", r->angles, FALSE);
      append_member (out, "    ", "angle_unit", r->degrees ? "deg" : "mrad", FALSE);
      g_string_append (out, "    \"polarization\": ");
      xrlab_json_append_number (out, r->polarization);
      if (r->table != XRLAB_TABLE_CHOICE_AUTO)
        g_string_append_printf (out, ",\n    \"table\": \"%s\"", xrlab_table_choice_get_name (r->table));
      g_string_append_printf (out, ",\n    \"y_log\": %s\n  },\n", r->y_log ? "true" : "false");
    }
}

/* ---- reading ------------------------------------------------------------------------ */

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

/* Member @name of @obj when it is of @type (a GType of a value, or
 * JSON_NODE_OBJECT / ARRAY through @node_type); NULL when absent. */
static JsonNode *
member (JsonObject *obj, const char *path, const char *name, JsonNodeType node_type, GType type,
        const char *expected, gboolean required, gboolean *ok, GError **error)
{
  JsonNode *node = json_object_get_member (obj, name);
  gboolean good;

  *ok = TRUE;
  if (node == NULL)
    {
      if (required)
        *ok = fail (error, path, _("the member “%s” is missing"), name);
      return NULL;
    }
  good = JSON_NODE_TYPE (node) == node_type
         && (node_type != JSON_NODE_VALUE || json_node_get_value_type (node) == type
             || (type == G_TYPE_DOUBLE && json_node_get_value_type (node) == G_TYPE_INT64));
  if (!good)
    {
      g_autofree char *p = g_strdup_printf ("%s.%s", path, name);
      /* TRANSLATORS: "stacks[0].stack: expected a string" */
      *ok = fail (error, p, _("expected %s"), expected);
      return NULL;
    }
  return node;
}

static gboolean
get_string (JsonObject *obj, const char *path, const char *name, gboolean required, gsize max_chars,
            const char **out, GError **error)
{
  gboolean ok;
  JsonNode *node = member (obj, path, name, JSON_NODE_VALUE, G_TYPE_STRING, _("a string"), required,
                           &ok, error);

  if (node == NULL)
    return ok;
  *out = json_node_get_string (node);
  if (g_utf8_strlen (*out, -1) > (glong) max_chars)
    {
      g_autofree char *p = g_strdup_printf ("%s.%s", path, name);
      return fail (error, p, _("longer than %zu characters"), max_chars);
    }
  return TRUE;
}

static gboolean
get_bool (JsonObject *obj, const char *path, const char *name, gboolean *out, GError **error)
{
  gboolean ok;
  JsonNode *node = member (obj, path, name, JSON_NODE_VALUE, G_TYPE_BOOLEAN, _("true or false"), FALSE,
                           &ok, error);

  if (node != NULL)
    *out = json_node_get_boolean (node);
  return ok;
}

static gboolean
only_members (JsonObject *obj, const char *path, const char *const *allowed, GError **error)
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
parse_stack (JsonNode *node, guint index, XrlabSession *session, GError **error)
{
  static const char *const allowed[] = { "name", "stack", "kind", "color", "visible", NULL };
  g_autofree char *path = g_strdup_printf ("stacks[%u]", index);
  const char *name = "", *text = NULL, *kind = "reflect", *color_text = NULL;
  gboolean visible = TRUE;
  guint32 color = XRLAB_SESSION_COLOR_AUTO;
  JsonObject *obj;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return fail (error, path, _("expected %s"), _("an object"));
  obj = json_node_get_object (node);
  if (!only_members (obj, path, allowed, error)
      || !get_string (obj, path, "name", FALSE, MAX_NAME_CHARS, &name, error)
      || !get_string (obj, path, "stack", TRUE, XRLAB_STACK_MAX_CHARS, &text, error)
      || !get_string (obj, path, "kind", FALSE, 16, &kind, error)
      || !get_string (obj, path, "color", FALSE, 16, &color_text, error)
      || !get_bool (obj, path, "visible", &visible, error))
    return FALSE;
  if (strcmp (kind, "reflect") != 0 && strcmp (kind, "filter") != 0)
    {
      g_autofree char *p = g_strdup_printf ("%s.kind", path);
      return fail (error, p, _("“%s” is not one of reflect, filter"), kind);
    }
  if (color_text != NULL && !parse_color (color_text, &color))
    {
      g_autofree char *p = g_strdup_printf ("%s.color", path);
      return fail (error, p, _("“%s” is not of the form #rrggbb"), color_text);
    }
  xrlab_session_add_stack (session, name, text, strcmp (kind, "filter") == 0, color, visible);
  return TRUE;
}

static gboolean
parse_reflect (JsonObject *obj, XrlabSession *session, GError **error)
{
  static const char *const allowed[] = {
    "view", "energy_keV", "energies_keV", "angle", "angles", "angle_unit", "polarization", "table",
    "y_log", NULL
  };
  XrlabSessionReflect r = reflect_defaults;
  const char *view = "angles", *unit = "mrad", *table = NULL;
  JsonNode *pol;
  gboolean ok;

  if (!only_members (obj, "reflect", allowed, error)
      || !get_string (obj, "reflect", "view", FALSE, 16, &view, error)
      || !get_string (obj, "reflect", "energy_keV", FALSE, MAX_SPEC_CHARS, (const char **) &r.energy, error)
      || !get_string (obj, "reflect", "energies_keV", FALSE, MAX_SPEC_CHARS, (const char **) &r.energies, error)
      || !get_string (obj, "reflect", "angle", FALSE, MAX_SPEC_CHARS, (const char **) &r.angle, error)
      || !get_string (obj, "reflect", "angles", FALSE, MAX_SPEC_CHARS, (const char **) &r.angles, error)
      || !get_string (obj, "reflect", "angle_unit", FALSE, 16, &unit, error)
      || !get_string (obj, "reflect", "table", FALSE, 16, &table, error)
      || !get_bool (obj, "reflect", "y_log", &r.y_log, error))
    return FALSE;
  pol = member (obj, "reflect", "polarization", JSON_NODE_VALUE, G_TYPE_DOUBLE, _("a number"), FALSE,
                &ok, error);
  if (!ok)
    return FALSE;
  if (pol != NULL)
    {
      r.polarization = json_node_get_double (pol);
      if (!(r.polarization >= -1.0 && r.polarization <= 1.0))
        return fail (error, "reflect.polarization", _("%g is not from −1 to 1"), r.polarization);
    }
  for (r.view = 0; view_ids[r.view] != NULL && strcmp (view_ids[r.view], view) != 0; r.view++)
    ;
  if (view_ids[r.view] == NULL)
    return fail (error, "reflect.view", _("“%s” is not one of angles, energies, map, filters"), view);
  if (strcmp (unit, "mrad") != 0 && strcmp (unit, "deg") != 0)
    return fail (error, "reflect.angle_unit", _("“%s” is not one of mrad, deg"), unit);
  r.degrees = strcmp (unit, "deg") == 0;
  /* Without "table": auto (earlier versions had Henke's tables only, which
   * auto takes for every energy they accepted). */
  if (table != NULL && !xrlab_table_choice_lookup (table, &r.table))
    return fail (error, "reflect.table", _("“%s” is not one of henke, chantler, auto"), table);
  xrlab_session_set_reflect (session, &r);
  return TRUE;
}

gboolean
xrlab_session_stacks_parse (JsonObject *root, XrlabSession *session, GError **error)
{
  gboolean ok;
  JsonNode *stacks = member (root, "session", "stacks", JSON_NODE_ARRAY, G_TYPE_INVALID,
                             _("an array"), FALSE, &ok, error);
  JsonNode *reflect;

  if (!ok)
    return FALSE;
  if (stacks != NULL)
    {
      JsonArray *a = json_node_get_array (stacks);

      if (json_array_get_length (a) > XRLAB_SESSION_MAX_STACKS)
        return fail (error, "stacks",
                     g_dngettext (GETTEXT_PACKAGE, "%u stack; at most %d are allowed",
                                  "%u stacks; at most %d are allowed", json_array_get_length (a)),
                     json_array_get_length (a), XRLAB_SESSION_MAX_STACKS);
      xrlab_session_clear_stacks (session);
      for (guint i = 0; i < json_array_get_length (a); i++)
        if (!parse_stack (json_array_get_element (a, i), i, session, error))
          return FALSE;
    }
  reflect = member (root, "session", "reflect", JSON_NODE_OBJECT, G_TYPE_INVALID, _("an object"),
                    FALSE, &ok, error);
  if (!ok)
    return FALSE;
  return reflect == NULL || parse_reflect (json_node_get_object (reflect), session, error);
}
