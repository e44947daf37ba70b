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
#include "xrlab-session-private.h"

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
parse_stack (JsonNode *node, guint index, XrlabSession *session, GError **error)
{
  static const char *const allowed[] = { "name", "stack", "kind", "color", "visible", NULL };
  g_autofree char *path = g_strdup_printf ("stacks[%u]", index);
  const char *name = "", *text = NULL, *kind = "reflect", *color_text = NULL;
  gboolean visible = TRUE;
  guint32 color = XRLAB_SESSION_COLOR_AUTO;
  JsonObject *obj;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return xrlab_session_fail (error, path, _("expected %s"), _("an object"));
  obj = json_node_get_object (node);
  if (!xrlab_session_only_members (obj, path, allowed, error)
      || !xrlab_session_get_string (obj, "name", path, FALSE, MAX_NAME_CHARS, &name, error)
      || !xrlab_session_get_string (obj, "stack", path, TRUE, XRLAB_STACK_MAX_CHARS, &text, error)
      || !xrlab_session_get_string (obj, "kind", path, FALSE, 16, &kind, error)
      || !xrlab_session_get_string (obj, "color", path, FALSE, 16, &color_text, error)
      || !xrlab_session_get_bool (obj, "visible", path, FALSE, &visible, error))
    return FALSE;
  if (strcmp (kind, "reflect") != 0 && strcmp (kind, "filter") != 0)
    {
      g_autofree char *p = g_strdup_printf ("%s.kind", path);
      return xrlab_session_fail (error, p, _("“%s” is not one of reflect, filter"), kind);
    }
  if (color_text != NULL && !xrlab_session_parse_color (color_text, &color))
    {
      g_autofree char *p = g_strdup_printf ("%s.color", path);
      return xrlab_session_fail (error, p, _("“%s” is not of the form #rrggbb"), color_text);
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
  double pol = NAN;

  if (!xrlab_session_only_members (obj, "reflect", allowed, error)
      || !xrlab_session_get_string (obj, "view", "reflect", FALSE, 16, &view, error)
      || !xrlab_session_get_string (obj, "energy_keV", "reflect", FALSE, MAX_SPEC_CHARS, (const char **) &r.energy, error)
      || !xrlab_session_get_string (obj, "energies_keV", "reflect", FALSE, MAX_SPEC_CHARS, (const char **) &r.energies, error)
      || !xrlab_session_get_string (obj, "angle", "reflect", FALSE, MAX_SPEC_CHARS, (const char **) &r.angle, error)
      || !xrlab_session_get_string (obj, "angles", "reflect", FALSE, MAX_SPEC_CHARS, (const char **) &r.angles, error)
      || !xrlab_session_get_string (obj, "angle_unit", "reflect", FALSE, 16, &unit, error)
      || !xrlab_session_get_string (obj, "table", "reflect", FALSE, 16, &table, error)
      || !xrlab_session_get_bool (obj, "y_log", "reflect", FALSE, &r.y_log, error))
    return FALSE;
  if (!xrlab_session_get_number (obj, "polarization", "reflect", FALSE, &pol, error))
    return FALSE;
  if (!isnan (pol))
    {
      r.polarization = pol;
      if (!(r.polarization >= -1.0 && r.polarization <= 1.0))
        return xrlab_session_fail (error, "reflect.polarization", _("%g is not from −1 to 1"), r.polarization);
    }
  for (r.view = 0; view_ids[r.view] != NULL && strcmp (view_ids[r.view], view) != 0; r.view++)
    ;
  if (view_ids[r.view] == NULL)
    return xrlab_session_fail (error, "reflect.view", _("“%s” is not one of angles, energies, map, filters"), view);
  if (strcmp (unit, "mrad") != 0 && strcmp (unit, "deg") != 0)
    return xrlab_session_fail (error, "reflect.angle_unit", _("“%s” is not one of mrad, deg"), unit);
  r.degrees = strcmp (unit, "deg") == 0;
  /* Without "table": auto (earlier versions had Henke's tables only, which
   * auto takes for every energy they accepted). */
  if (table != NULL && !xrlab_table_choice_lookup (table, &r.table))
    return xrlab_session_fail (error, "reflect.table", _("“%s” is not one of henke, chantler, auto"), table);
  xrlab_session_set_reflect (session, &r);
  return TRUE;
}

gboolean
xrlab_session_stacks_parse (JsonObject *root, XrlabSession *session, GError **error)
{
  gboolean ok;
  JsonArray *a = xrlab_session_get_array (root, "stacks", "session", FALSE, &ok, error);
  JsonObject *reflect;

  if (!ok)
    return FALSE;
  if (a != NULL)
    {
      if (json_array_get_length (a) > XRLAB_SESSION_MAX_STACKS)
        return xrlab_session_fail (error, "stacks",
                     g_dngettext (GETTEXT_PACKAGE, "%u stack; at most %d are allowed",
                                  "%u stacks; at most %d are allowed", json_array_get_length (a)),
                     json_array_get_length (a), XRLAB_SESSION_MAX_STACKS);
      xrlab_session_clear_stacks (session);
      for (guint i = 0; i < json_array_get_length (a); i++)
        if (!parse_stack (json_array_get_element (a, i), i, session, error))
          return FALSE;
    }
  reflect = xrlab_session_get_object (root, "reflect", "session", FALSE, &ok, error);
  if (!ok)
    return FALSE;
  return reflect == NULL || parse_reflect (reflect, session, error);
}
