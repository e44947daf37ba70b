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
#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "xrlab-session-fit.h"
#include "xrlab-session-stacks.h"
#include "xrlab-session-private.h"
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
  s->sweep = (XrlabSweep) { 1.0, 30.0, 1000, TRUE, XRLAB_ENERGY_UNIT_KEV, XRLAB_TABLE_CHOICE_AUTO };
  s->quantity = XRLAB_QUANTITY_DELTA;
  s->x_log = TRUE;
  s->y_log = TRUE;
  s->values_energy_ev = 8048.0;
  s->view_x_min = s->view_x_max = s->view_y_min = s->view_y_max = NAN;
  return s;
}

XrlabSession *
xrlab_session_new_default (void)
{
  XrlabSession *s = xrlab_session_new ();

  /* The plot palette's first three colours. */
  xrlab_session_add_material (s, "Si", "Si", 2.33, 1.0, 0x0072b2, TRUE);
  xrlab_session_add_material (s, "SiO₂", "SiO2", 2.2, 1.0, 0xe69f00, TRUE);
  xrlab_session_add_material (s, "Au", "Au", 19.3, 1.0, 0x009e73, TRUE);
  return s;
}

void
xrlab_session_free (XrlabSession *session)
{
  if (session == NULL)
    return;
  g_ptr_array_unref (session->materials);
  xrlab_session_stacks_free (session);
  xrlab_session_fit_free (session);
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
  m->color = color == XRLAB_SESSION_COLOR_AUTO ? color : color & 0xffffff;
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
  xrlab_session_view_copy (copy, session);
  xrlab_session_stacks_copy (copy, session);
  xrlab_session_fit_copy (copy, session);
  return copy;
}

gboolean
xrlab_session_equal (const XrlabSession *a,
                     const XrlabSession *b)
{
  if (a->materials->len != b->materials->len ||
      !xrlab_sweep_equal (&a->sweep, &b->sweep) ||
      a->quantity != b->quantity || !a->x_log != !b->x_log || !a->y_log != !b->y_log ||
      a->values_energy_ev != b->values_energy_ev || !xrlab_session_view_equal (a, b) || !xrlab_session_stacks_equal (a, b)
      || !xrlab_session_fit_equal (a, b))
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

/* A JSON string of UTF-8 text, always: bytes that are not UTF-8 (a caller's
 * bug; the reader never returns them) are written as U+FFFD. */
static void
append_text (GString *s, const char *text)
{
  if (g_utf8_validate (text, -1, NULL))
    xrlab_json_append_string (s, text);
  else
    {
      g_autofree char *valid = g_utf8_make_valid (text, -1);
      xrlab_json_append_string (s, valid);
    }
}

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
      append_text (s, m->name);
      g_string_append (s, ",\n      \"formula\": ");
      append_text (s, m->formula);
      g_string_append (s, ",\n      \"density_g_cm3\": ");
      xrlab_json_append_number (s, m->density_g_cm3);
      g_string_append (s, ",\n      \"thickness_um\": ");
      xrlab_json_append_number (s, m->thickness_um);
      if (m->color != XRLAB_SESSION_COLOR_AUTO)
        g_string_append_printf (s, ",\n      \"color\": \"#%06x\"", m->color & 0xffffff);
      g_string_append_printf (s, ",\n      \"visible\": %s\n    }", m->visible ? "true" : "false");
    }
  g_string_append (s, session->materials->len > 0 ? "\n  ],\n" : "],\n");

  g_string_append (s, "  \"sweep\": {\n    \"start\": ");
  xrlab_json_append_number (s, session->sweep.start);
  g_string_append (s, ",\n    \"stop\": ");
  xrlab_json_append_number (s, session->sweep.stop);
  g_string_append_printf (s, ",\n    \"unit\": \"%s\",\n    \"points\": %u,\n    \"spacing\": \"%s\"",
                          xrlab_energy_unit_get_id (session->sweep.unit), session->sweep.points,
                          session->sweep.log ? "log" : "linear");
  /* Henke's is what a sweep without "table" means (files of earlier
   * versions): written only for the other choices. */
  if (session->sweep.table != XRLAB_TABLE_CHOICE_HENKE)
    g_string_append_printf (s, ",\n    \"table\": \"%s\"", xrlab_table_choice_get_name (session->sweep.table));
  g_string_append (s, "\n  },\n");
  g_string_append_printf (s, "  \"plot\": {\n    \"quantity\": \"%s\",\n    \"x_log\": %s,\n    \"y_log\": %s\n  },\n",
                          info->session_id, session->x_log ? "true" : "false", session->y_log ? "true" : "false");
  xrlab_session_stacks_append_json (session, s);
  xrlab_session_fit_append_json (session, s);
  g_string_append (s, "  \"values\": {\n    \"energy_eV\": ");
  xrlab_json_append_number (s, session->values_energy_ev);
  g_string_append (s, "\n  }");
  xrlab_session_view_append_json (session, s);
  g_string_append (s, "\n}\n");

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

/* What the reader carries along: the mode and where warnings go. */
typedef struct {
  XrlabSessionLoadFlags flags;
  GPtrArray *warnings;         /* char *; never NULL */
  guint n_unlisted;            /* warnings beyond MAX_WARNINGS, counted */
} Ctx;

/* Warnings listed; the rest are counted in a last one. */
#define MAX_WARNINGS 20

static gboolean
salvage (const Ctx *ctx)
{
  return (ctx->flags & XRLAB_SESSION_LOAD_SALVAGE) != 0;
}

static void G_GNUC_PRINTF (2, 3)
warn (Ctx *ctx, const char *format, ...)
{
  va_list args;

  if (ctx->warnings->len >= MAX_WARNINGS)
    {
      ctx->n_unlisted++;
      return;
    }
  va_start (args, format);
  g_ptr_array_add (ctx->warnings, g_strdup_vprintf (format, args));
  va_end (args);
}

/* Unknown members are typos: an error, or when salvaging, ignored with a
 * warning. */
static gboolean
check_members (Ctx *ctx, JsonObject *obj, const char *path, const char *const *allowed, GError **error)
{
  g_autoptr(GList) members = NULL;

  if (!salvage (ctx))
    return xrlab_session_only_members (obj, path, allowed, error);
  members = json_object_get_members (obj);
  for (GList *l = members; l != NULL; l = l->next)
    if (!g_strv_contains (allowed, l->data))
      {
        g_autofree char *list = g_strjoinv (", ", (char **) allowed);
        g_autofree char *name = xrlab_session_echo (l->data);
        warn (ctx, _("%s: unknown member “%s” (allowed: %s); it was ignored"), path, name, list);
      }
  return TRUE;
}

static gboolean
parse_material (Ctx *ctx, JsonNode *node, guint index, XrlabSession *session, GError **error)
{
  static const char *const allowed[] = {
    "name", "formula", "density_g_cm3", "thickness_um", "color", "visible", NULL
  };
  g_autofree char *path = g_strdup_printf ("materials[%u]", index);
  JsonObject *obj;
  const char *name = "", *formula = NULL, *color_text = NULL;
  double density = NAN, thickness = 1.0;
  gboolean visible = TRUE;
  guint32 color = XRLAB_SESSION_COLOR_AUTO;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return xrlab_session_wrong_type (error, path, _("an object"), node);
  obj = json_node_get_object (node);
  if (!check_members (ctx, obj, path, allowed, error) ||
      !xrlab_session_get_string (obj, "name", path, FALSE, 0, &name, error) ||
      !xrlab_session_get_string (obj, "formula", path, TRUE, 0, &formula, error) ||
      !xrlab_session_get_number (obj, "density_g_cm3", path, TRUE, &density, error) ||
      !xrlab_session_get_number (obj, "thickness_um", path, FALSE, &thickness, error) ||
      !xrlab_session_get_string (obj, "color", path, FALSE, 0, &color_text, error) ||
      !xrlab_session_get_bool (obj, "visible", path, FALSE, &visible, error))
    return FALSE;

  if (strlen (name) > 200)
    return xrlab_session_fail (error, path, _("the name is longer than 200 characters"));
  if (strlen (formula) > 1000)
    return xrlab_session_fail (error, path, _("the formula is longer than 1000 characters"));
  if (thickness < 0)
    return xrlab_session_fail (error, path, _("thickness_um %g is negative"), thickness);
  if (color_text != NULL && !xrlab_session_parse_color (color_text, &color))
    {
      g_autofree char *shown = xrlab_session_echo (color_text);
      return xrlab_session_fail (error, path, _("color “%s” is not of the form #rrggbb"), shown);
    }

  xrlab_session_add_material (session, name, formula, density, thickness, color, visible);
  return TRUE;
}

static gboolean
parse_materials (Ctx *ctx, JsonObject *obj, XrlabSession *session, GError **error)
{
  JsonNode *node = json_object_get_member (obj, "materials");
  g_autoptr(GError) local = NULL;
  JsonArray *materials;
  guint n;

  if (node == NULL)
    return xrlab_session_fail (error, "session", _("the member “%s” is missing"), "materials");
  if (!JSON_NODE_HOLDS_ARRAY (node))
    return xrlab_session_wrong_type (error, "materials", _("an array"), node);
  materials = json_node_get_array (node);
  n = json_array_get_length (materials);
  if (n > XRLAB_SESSION_MAX_MATERIALS)
    {
      g_autofree char *msg =
        g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u material; at most %d are allowed",
                                      "%u materials; at most %d are allowed", n),
                         n, XRLAB_SESSION_MAX_MATERIALS);
      if (!salvage (ctx))
        return xrlab_session_fail (error, "materials", "%s", msg);
      warn (ctx, _("materials: %s; the first %d were read"), msg, XRLAB_SESSION_MAX_MATERIALS);
      n = XRLAB_SESSION_MAX_MATERIALS;
    }
  for (guint i = 0; i < n; i++)
    if (!parse_material (ctx, json_array_get_element (materials, i), i, session, &local))
      {
        if (!salvage (ctx))
          {
            g_propagate_error (error, g_steal_pointer (&local));
            return FALSE;
          }
        warn (ctx, _("%s; that material was left out"), local->message);
        g_clear_error (&local);
      }
  return TRUE;
}

static gboolean
parse_sweep (Ctx *ctx, JsonObject *obj, XrlabSession *session, GError **error)
{
  static const char *const allowed[] = { "start", "stop", "unit", "points", "spacing", "table", NULL };
  const char *unit = NULL, *spacing = NULL, *table = NULL;
  double points = 0;
  XrlabSweep sweep = { 0 };

  if (!check_members (ctx, obj, "sweep", allowed, error) ||
      !xrlab_session_get_number (obj, "start", "sweep", TRUE, &sweep.start, error) ||
      !xrlab_session_get_number (obj, "stop", "sweep", TRUE, &sweep.stop, error) ||
      !xrlab_session_get_string (obj, "unit", "sweep", TRUE, 0, &unit, error) ||
      !xrlab_session_get_number (obj, "points", "sweep", TRUE, &points, error) ||
      !xrlab_session_get_string (obj, "spacing", "sweep", TRUE, 0, &spacing, error) ||
      !xrlab_session_get_string (obj, "table", "sweep", FALSE, 0, &table, error))
    return FALSE;
  /* Without "table" (earlier versions): Henke. */
  if (table != NULL && !xrlab_table_choice_lookup (table, &sweep.table))
    return xrlab_session_fail (error, "sweep.table", _("“%s” is not one of henke, chantler, auto"), table);
  if (!xrlab_energy_unit_from_id (unit, &sweep.unit))
    {
      g_autofree char *shown = xrlab_session_echo (unit);
      return xrlab_session_fail (error, "sweep.unit", _("“%s” is not one of eV, keV, A"), shown);
    }
  if (points != floor (points) || points < XRLAB_SWEEP_MIN_POINTS || points > XRLAB_SWEEP_MAX_POINTS)
    return xrlab_session_fail (error, "sweep.points", _("%g is not a whole number in %d – %d"),
                 points, XRLAB_SWEEP_MIN_POINTS, XRLAB_SWEEP_MAX_POINTS);
  sweep.points = (guint) points;
  if (strcmp (spacing, "log") == 0)
    sweep.log = TRUE;
  else if (strcmp (spacing, "linear") == 0)
    sweep.log = FALSE;
  else
    {
      g_autofree char *shown = xrlab_session_echo (spacing);
      return xrlab_session_fail (error, "sweep.spacing", _("“%s” is not one of linear, log"), shown);
    }
  session->sweep = sweep;
  return TRUE;
}

static gboolean
parse_plot (Ctx *ctx, JsonObject *obj, XrlabSession *session, GError **error)
{
  static const char *const allowed[] = { "quantity", "x_log", "y_log", NULL };
  const char *quantity = NULL;
  gboolean x_log = session->x_log, y_log = session->y_log;
  XrlabQuantity q = session->quantity;

  if (!check_members (ctx, obj, "plot", allowed, error) ||
      !xrlab_session_get_string (obj, "quantity", "plot", FALSE, 0, &quantity, error) ||
      !xrlab_session_get_bool (obj, "x_log", "plot", FALSE, &x_log, error) ||
      !xrlab_session_get_bool (obj, "y_log", "plot", FALSE, &y_log, error))
    return FALSE;
  if (quantity != NULL &&
      (!xrlab_quantity_from_session_id (quantity, &q) || !xrlab_quantity_get_info (q)->plottable))
    {
      g_autoptr(GString) ids = g_string_new (NULL);
      g_autofree char *shown = xrlab_session_echo (quantity);
      for (guint k = 0; k < XRLAB_QUANTITY_N; k++)
        if (xrlab_quantity_get_info (k)->plottable)
          g_string_append_printf (ids, "%s%s", ids->len ? ", " : "", xrlab_quantity_get_info (k)->session_id);
      return xrlab_session_fail (error, "plot.quantity", _("“%s” is not a quantity (one of: %s)"), shown, ids->str);
    }
  session->quantity = q;
  session->x_log = x_log;
  session->y_log = y_log;
  return TRUE;
}

static gboolean
parse_values (Ctx *ctx, JsonObject *obj, XrlabSession *session, GError **error)
{
  static const char *const allowed[] = { "energy_eV", NULL };
  const XrlabEnergyRange *range = xrlab_sweep_get_range (&session->sweep);
  double ev = session->values_energy_ev;

  if (!check_members (ctx, obj, "values", allowed, error) ||
      !xrlab_session_get_number (obj, "energy_eV", "values", FALSE, &ev, error))
    return FALSE;
  if (xrlab_energy_place (ev, range->complete_min_ev, range->max_ev, &ev) != XRLAB_ENERGY_INSIDE)
    return xrlab_session_fail (error, "values.energy_eV", _("%g eV is outside %g – %g eV"), ev,
                 range->complete_min_ev, range->max_ev);
  session->values_energy_ev = ev;
  return TRUE;
}

/* An array of finite numbers at @obj.@member: at most @max into @out. */
static gboolean
get_numbers (JsonObject *obj, const char *member, const char *path, double *out, guint max,
             guint *n_out, GError **error)
{
  JsonNode *node = json_object_get_member (obj, member);
  g_autofree char *p = g_strdup_printf ("%s.%s", path, member);
  JsonArray *array;
  guint n;

  *n_out = 0;
  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    return xrlab_session_wrong_type (error, p, _("an array"), node);
  array = json_node_get_array (node);
  n = json_array_get_length (array);
  if (n > max)
    return xrlab_session_fail (error, p, g_dngettext (GETTEXT_PACKAGE, "%u number; at most %u are allowed",
                                        "%u numbers; at most %u are allowed", n), n, max);
  for (guint i = 0; i < n; i++)
    {
      JsonNode *v = json_array_get_element (array, i);
      g_autofree char *pi = g_strdup_printf ("%s[%u]", p, i);
      if (!xrlab_session_is_number (v))
        return xrlab_session_wrong_type (error, pi, _("a number"), v);
      out[i] = json_node_get_double (v);
      if (!isfinite (out[i]))
        return xrlab_session_fail (error, pi, _("the number is not finite"));
    }
  *n_out = n;
  return TRUE;
}

/* All or nothing: a bad view leaves the session's (automatic) one. */
static gboolean
parse_view (Ctx *ctx, JsonObject *obj, XrlabSession *session, GError **error)
{
  static const char *const allowed[] = { "x", "y", "pins", NULL };
  double limits[4] = { NAN, NAN, NAN, NAN }, pins[XRLAB_SESSION_MAX_PINS];
  double range[2];
  guint n, n_pins;

  if (!check_members (ctx, obj, "view", allowed, error))
    return FALSE;
  for (int k = 0; k < 2; k++)
    {
      const char *axis = k == 0 ? "x" : "y";
      if (!get_numbers (obj, axis, "view", range, 2, &n, error))
        return FALSE;
      if (n == 0 && json_object_get_member (obj, axis) == NULL)
        continue;
      if (n != 2 || !(range[0] < range[1]))
        {
          g_autofree char *p = g_strdup_printf ("view.%s", axis);
          return xrlab_session_fail (error, p, _("expected [from, to] with from < to"));
        }
      limits[2 * k] = range[0];
      limits[2 * k + 1] = range[1];
    }
  if (!get_numbers (obj, "pins", "view", pins, XRLAB_SESSION_MAX_PINS, &n_pins, error))
    return FALSE;
  session->view_x_min = limits[0];
  session->view_x_max = limits[1];
  session->view_y_min = limits[2];
  session->view_y_max = limits[3];
  memcpy (session->pins, pins, n_pins * sizeof (double));
  session->n_pins = n_pins;
  return TRUE;
}

typedef gboolean (*SectionFunc) (Ctx *ctx, JsonObject *obj, XrlabSession *session, GError **error);

/* One section of the document ("sweep", "plot", "values"): parsed, or when
 * salvaging and it is bad, left at its default with a warning that says
 * which (@fallback). */
static gboolean
parse_section (Ctx *ctx, JsonObject *root, const char *member, gboolean required, SectionFunc func,
               const char *fallback, XrlabSession *session, GError **error)
{
  g_autoptr(GError) local = NULL;
  gboolean ok;
  JsonObject *obj = xrlab_session_get_object (root, member, "session", required, &ok, &local);

  if (ok && obj != NULL)
    ok = func (ctx, obj, session, &local);
  if (ok)
    return TRUE;
  if (!salvage (ctx))
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  /* TRANSLATORS: "<what is wrong>; <what is used instead>" */
  warn (ctx, _("%s; %s"), local->message, fallback);
  return TRUE;
}

/* The sweep must be valid for the quantity it is shown with. */
static gboolean
check_sweep (Ctx *ctx, XrlabSession *session, GError **error)
{
  g_autoptr(GError) local = NULL;
  g_autoptr(XrlabSession) defaults = NULL;

  if (xrlab_sweep_validate (&session->sweep, xrlab_sweep_get_range (&session->sweep), &local))
    return TRUE;
  if (!salvage (ctx))
    return xrlab_session_fail (error, "sweep", "%s", local->message);
  defaults = xrlab_session_new ();
  session->sweep = defaults->sweep;
  warn (ctx, _("sweep: %s; the sweep 1 – 30 keV was used instead"), local->message);
  return TRUE;
}

/* json-glib says "<data>:2:7: Parse error: unexpected end of file, ...":
 * the position as the scanner's messages give it. json-glib cuts a token it
 * quotes after so many bytes, in the middle of a character perhaps: the
 * message is made UTF-8. */
static char *
parse_error_text (const char *raw)
{
  /* json-glib quotes what it read raw (newlines, control characters):
   * escaped, as every message that quotes a file. */
  g_autofree char *message = xrlab_escape_text (raw, -1, 0);
  guint line = 0, column = 0;
  int used = 0;
  const char *rest;

  if (sscanf (message, "<data>:%u:%u: %n", &line, &column, &used) < 2 || used == 0)
    return g_steal_pointer (&message);
  rest = message + used;
  if (g_str_has_prefix (rest, "Parse error: "))
    rest += strlen ("Parse error: ");
  {
    g_autofree char *pos = xrlab_session_position (line, column);
    return g_strdup_printf ("%s: %s", pos, rest);
  }
}

/* Format and version: whatever the mode, a foreign or newer document is
 * refused. */
static gboolean
check_head (JsonObject *obj, GError **error)
{
  JsonNode *node = json_object_get_member (obj, "format");
  double version = 0;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING ||
      strcmp (json_node_get_string (node), XRLAB_SESSION_FORMAT) != 0)
    {
      g_set_error (error, XRLAB_SESSION_ERROR, XRLAB_SESSION_ERROR_FOREIGN,
                   _("The file is not an xrlab session (no \"format\": \"%s\")."), XRLAB_SESSION_FORMAT);
      return FALSE;
    }
  if (!xrlab_session_get_number (obj, "version", "session", TRUE, &version, error))
    return FALSE;
  if (version != floor (version) || version < 1)
    return xrlab_session_fail (error, "version", _("%g is not a valid version"), version);
  if (version > XRLAB_SESSION_VERSION)
    {
      g_set_error (error, XRLAB_SESSION_ERROR, XRLAB_SESSION_ERROR_VERSION,
                   _("The session was written by a newer xrlab (format version %g; this one reads %d)."),
                   version, XRLAB_SESSION_VERSION);
      return FALSE;
    }
  return TRUE;
}

static XrlabSession *
session_from_object (Ctx *ctx, JsonObject *obj, GError **error)
{
  static const char *const allowed[] = {
    "format", "version", "materials", "sweep", "plot", "values", "view", "stacks", "reflect", "fit", NULL
  };
  g_autoptr(XrlabSession) session = NULL;
  g_autoptr(GError) local = NULL;
  g_autofree char *fit_warning = NULL;

  if (!check_head (obj, error) || !check_members (ctx, obj, "session", allowed, error))
    return NULL;

  session = xrlab_session_new ();
  if (!parse_materials (ctx, obj, session, &local))
    {
      if (!salvage (ctx))
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return NULL;
        }
      warn (ctx, _("%s; the session has no materials"), local->message);
    }
  if (!parse_section (ctx, obj, "sweep", TRUE, parse_sweep, _("the sweep 1 – 30 keV was used instead"),
                      session, error) ||
      !parse_section (ctx, obj, "plot", FALSE, parse_plot, _("the plot shows δ on logarithmic axes"),
                      session, error) ||
      !parse_section (ctx, obj, "values", FALSE, parse_values, _("the values table is at 8048 eV"),
                      session, error) ||
      !parse_section (ctx, obj, "view", FALSE, parse_view, _("the plot follows the data"),
                      session, error) ||
      !check_sweep (ctx, session, error))
    return NULL;
  /* The Reflectivity page's: a bad one is left out when salvaging. */
  g_clear_error (&local);
  if (!xrlab_session_stacks_parse (obj, session, &local))
    {
      if (!salvage (ctx))
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return NULL;
        }
      xrlab_session_stacks_free (session);
      warn (ctx, _("%s; the Reflectivity page has its example"), local->message);
    }
  /* The Fit page's: likewise (a bad baseline fit of its result alone is
   * left out). */
  g_clear_error (&local);
  if (!xrlab_session_fit_parse (obj, session, salvage (ctx) ? &fit_warning : NULL, &local))
    {
      if (!salvage (ctx))
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return NULL;
        }
      xrlab_session_fit_free (session);
      warn (ctx, _("%s; the Fit page is empty"), local->message);
    }
  else if (fit_warning != NULL)
    /* TRANSLATORS: a session's Fit page opened without its last baseline fit */
    warn (ctx, _("%s; the Fit page opens without the last baseline fit"), fit_warning);
  return g_steal_pointer (&session);
}

XrlabSession *
xrlab_session_from_json_full (const char              *data,
                              gssize                   length,
                              XrlabSessionLoadFlags    flags,
                              char                  ***warnings,
                              GError                 **error)
{
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GError) local = NULL;
  g_autoptr(GPtrArray) list = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *repaired = NULL;
  Ctx ctx = { flags, list, 0 };
  XrlabSession *session;
  JsonNode *root;

  g_return_val_if_fail (data != NULL || length == 0, NULL);

  if (warnings != NULL)
    *warnings = NULL;
  if (length < 0)
    length = (gssize) strlen (data);
  /* Before json-glib: its recursion, its extensions, its decoding. */
  if (!xrlab_session_scan (data, (gsize) length, &repaired, list, error))
    return NULL;
  parser = json_parser_new ();
  if (!json_parser_load_from_data (parser, repaired != NULL ? repaired : data, length, &local))
    {
      g_autofree char *text = parse_error_text (local->message);
      g_set_error (error, XRLAB_SESSION_ERROR, XRLAB_SESSION_ERROR_PARSE,
                   _("The file is not valid JSON: %s"), text);
      return NULL;
    }
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error_literal (error, XRLAB_SESSION_ERROR, XRLAB_SESSION_ERROR_FOREIGN,
                           _("The file is not an xrlab session (its top level is not a JSON object)."));
      return NULL;
    }
  session = session_from_object (&ctx, json_node_get_object (root), error);
  if (ctx.n_unlisted > 0)
    g_ptr_array_add (list, g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "and %u more warning",
                                                         "and %u more warnings", ctx.n_unlisted),
                                            ctx.n_unlisted));
  if (session != NULL && warnings != NULL && list->len > 0)
    {
      g_ptr_array_add (list, NULL);
      *warnings = (char **) g_ptr_array_steal (list, NULL);
    }
  return session;
}

XrlabSession *
xrlab_session_from_json (const char  *data,
                         gssize       length,
                         GError     **error)
{
  return xrlab_session_from_json_full (data, length, XRLAB_SESSION_LOAD_STRICT, NULL, error);
}

/* The whole file, refused beyond XRLAB_SESSION_MAX_BYTES without reading
 * further: a session is a regular file (not /dev/zero, not a FIFO). */
static char *
read_session_file (const char *path, gsize *length, GError **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) local = NULL;
  g_autoptr(GFileInputStream) in = NULL;
  g_autoptr(GFileInfo) info = NULL;
  g_autofree char *data = NULL;
  gsize n = 0;

  in = g_file_read (file, NULL, &local);
  if (in != NULL)
    info = g_file_input_stream_query_info (in, G_FILE_ATTRIBUTE_STANDARD_TYPE, NULL, &local);
  if (info == NULL)
    {
      g_set_error_literal (error, XRLAB_SESSION_ERROR, XRLAB_SESSION_ERROR_IO, local->message);
      return NULL;
    }
  if (g_file_info_get_file_type (info) != G_FILE_TYPE_REGULAR)
    {
      g_set_error (error, XRLAB_SESSION_ERROR, XRLAB_SESSION_ERROR_FOREIGN,
                   _("%s is not an xrlab session: it is not a regular file."), path);
      return NULL;
    }
  data = g_malloc (XRLAB_SESSION_MAX_BYTES + 2);
  if (!g_input_stream_read_all (G_INPUT_STREAM (in), data, XRLAB_SESSION_MAX_BYTES + 1, &n, NULL, &local))
    {
      g_set_error (error, XRLAB_SESSION_ERROR, XRLAB_SESSION_ERROR_IO, _("Cannot read %s: %s"), path,
                   local->message);
      return NULL;
    }
  if (n > XRLAB_SESSION_MAX_BYTES)
    {
      g_set_error (error, XRLAB_SESSION_ERROR, XRLAB_SESSION_ERROR_FOREIGN,
                   _("%s is not an xrlab session: it is larger than %d MiB."),
                   path, XRLAB_SESSION_MAX_BYTES / (1024 * 1024));
      return NULL;
    }
  data[n] = '\0';
  *length = n;
  return g_realloc (g_steal_pointer (&data), n + 1);
}

XrlabSession *
xrlab_session_load_full (const char              *path,
                         XrlabSessionLoadFlags    flags,
                         char                  ***warnings,
                         GError                 **error)
{
  g_autofree char *data = NULL;
  gsize len = 0;
  g_autoptr(GError) local = NULL;
  XrlabSession *session;
  GStatBuf st;

  if (warnings != NULL)
    *warnings = NULL;
  /* A huge file is refused without being read. */
  if (g_stat (path, &st) == 0 && st.st_size > XRLAB_SESSION_MAX_BYTES)
    {
      g_set_error (error, XRLAB_SESSION_ERROR, XRLAB_SESSION_ERROR_FOREIGN,
                   _("%s is not an xrlab session: it is larger than %d MiB."),
                   path, XRLAB_SESSION_MAX_BYTES / (1024 * 1024));
      return NULL;
    }
  data = read_session_file (path, &len, error);
  if (data == NULL)
    return NULL;
  session = xrlab_session_from_json_full (data, (gssize) len, flags, warnings, &local);
  if (session == NULL)
    {
      g_autofree char *base = g_path_get_basename (path);
      g_set_error (error, XRLAB_SESSION_ERROR, local->code, "%s: %s", base, local->message);
      return NULL;
    }
  return session;
}

XrlabSession *
xrlab_session_load (const char  *path,
                    GError     **error)
{
  return xrlab_session_load_full (path, XRLAB_SESSION_LOAD_STRICT, NULL, error);
}

char *
xrlab_session_get_autosave_path (void)
{
  return g_build_filename (g_get_user_state_dir (), "xrlab", "session.json", NULL);
}
