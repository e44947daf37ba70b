/* xrlab-session-json.c -- reading the members of a session document: the
 * typed getters, the member check and the messages, shared by the parts of
 * the document (materials and sweep, stacks, fit)
 *
 * A message names the member's path ("materials[0].density_g_cm3"), what
 * was expected and what was found; text quoted from the file is escaped.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-session-private.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "xrlab-util.h"

gboolean
xrlab_session_fail (GError **error, const char *path, const char *format, ...)
{
  va_list args;
  g_autofree char *msg = NULL, *safe = NULL, *safe_path = NULL;

  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);
  /* both quote the file (the path its member names): control characters
   * and stray bytes escaped */
  safe = xrlab_escape_text (msg, -1, 0);
  safe_path = xrlab_escape_text (path, -1, 0);
  g_set_error (error, XRLAB_SESSION_ERROR, XRLAB_SESSION_ERROR_INVALID, "%s: %s", safe_path, safe);
  return FALSE;
}

char *
xrlab_session_echo (const char *text)
{
  if (g_utf8_strlen (text, -1) <= 40)
    return g_strdup (text);
  {
    g_autofree char *head = g_utf8_substring (text, 0, 39);
    return g_strconcat (head, "…", NULL);
  }
}

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

gboolean
xrlab_session_wrong_type (GError **error, const char *path, const char *expected, JsonNode *node)
{
  /* TRANSLATORS: "expected a number, found a string" */
  return xrlab_session_fail (error, path, _("expected %s, found %s"), expected,
                             node_type_name (node));
}

/* Member @name of @obj, or NULL when absent (*@ok FALSE when it was
 * required). */
static JsonNode *
get_member (JsonObject *obj, const char *name, const char *path, gboolean required,
            gboolean *ok, GError **error)
{
  JsonNode *node = json_object_get_member (obj, name);

  *ok = TRUE;
  if (node == NULL && required)
    *ok = xrlab_session_fail (error, path, _("the member “%s” is missing"), name);
  return node;
}

gboolean
xrlab_session_is_number (JsonNode *node)
{
  GType t;

  if (!JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  t = json_node_get_value_type (node);
  return t == G_TYPE_DOUBLE || t == G_TYPE_INT64 || t == G_TYPE_INT;
}

gboolean
xrlab_session_get_number (JsonObject *obj, const char *name, const char *path, gboolean required,
                          double *out, GError **error)
{
  gboolean ok;
  JsonNode *node = get_member (obj, name, path, required, &ok, error);
  g_autofree char *p = NULL;
  double v;

  if (node == NULL)
    return ok;
  p = g_strdup_printf ("%s.%s", path, name);
  if (!xrlab_session_is_number (node))
    return xrlab_session_wrong_type (error, p, _("a number"), node);
  v = json_node_get_double (node);
  if (!isfinite (v))
    return xrlab_session_fail (error, p, _("the number is not finite"));
  /* -0 reads back as 0 (json-glib makes "-0" an integer): one zero. */
  *out = v == 0 ? 0.0 : v;
  return TRUE;
}

gboolean
xrlab_session_get_string (JsonObject *obj, const char *name, const char *path, gboolean required,
                          gsize max_chars, const char **out, GError **error)
{
  gboolean ok;
  JsonNode *node = get_member (obj, name, path, required, &ok, error);
  g_autofree char *p = NULL;
  const char *s;

  if (node == NULL)
    return ok;
  p = g_strdup_printf ("%s.%s", path, name);
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return xrlab_session_wrong_type (error, p, _("a string"), node);
  s = json_node_get_string (node);
  /* xrlab_session_scan() leaves nothing json-glib decodes into bytes that
   * are not UTF-8; this is the last line of defence. */
  if (!g_utf8_validate (s, -1, NULL))
    return xrlab_session_fail (error, p, _("the string is not UTF-8"));
  if (max_chars > 0 && g_utf8_strlen (s, -1) > (glong) max_chars)
    return xrlab_session_fail (error, p, _("longer than %zu characters"), max_chars);
  *out = s;
  return TRUE;
}

gboolean
xrlab_session_get_bool (JsonObject *obj, const char *name, const char *path, gboolean required,
                        gboolean *out, GError **error)
{
  gboolean ok;
  JsonNode *node = get_member (obj, name, path, required, &ok, error);
  g_autofree char *p = NULL;

  if (node == NULL)
    return ok;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    {
      p = g_strdup_printf ("%s.%s", path, name);
      return xrlab_session_wrong_type (error, p, _("true or false"), node);
    }
  *out = json_node_get_boolean (node);
  return TRUE;
}

JsonObject *
xrlab_session_get_object (JsonObject *obj, const char *name, const char *path, gboolean required,
                          gboolean *ok, GError **error)
{
  JsonNode *node = get_member (obj, name, path, required, ok, error);

  if (node == NULL)
    return NULL;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_autofree char *p = g_strdup_printf ("%s.%s", path, name);
      *ok = xrlab_session_wrong_type (error, p, _("an object"), node);
      return NULL;
    }
  return json_node_get_object (node);
}

JsonArray *
xrlab_session_get_array (JsonObject *obj, const char *name, const char *path, gboolean required,
                         gboolean *ok, GError **error)
{
  JsonNode *node = get_member (obj, name, path, required, ok, error);

  if (node == NULL)
    return NULL;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      g_autofree char *p = g_strdup_printf ("%s.%s", path, name);
      *ok = xrlab_session_wrong_type (error, p, _("an array"), node);
      return NULL;
    }
  return json_node_get_array (node);
}

const char *
xrlab_session_unknown_member (JsonObject *obj, const char *const *allowed)
{
  g_autoptr(GList) members = json_object_get_members (obj);

  for (GList *l = members; l != NULL; l = l->next)
    if (!g_strv_contains (allowed, l->data))
      return l->data;
  return NULL;
}

gboolean
xrlab_session_only_members (JsonObject *obj, const char *path, const char *const *allowed,
                            GError **error)
{
  const char *name = xrlab_session_unknown_member (obj, allowed);
  g_autofree char *list = NULL, *shown = NULL;

  if (name == NULL)
    return TRUE;
  list = g_strjoinv (", ", (char **) allowed);
  shown = xrlab_session_echo (name);
  return xrlab_session_fail (error, path, _("unknown member “%s” (allowed: %s)"), shown, list);
}

gboolean
xrlab_session_parse_color (const char *text, guint32 *out)
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
