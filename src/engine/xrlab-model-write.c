/* xrlab-model-write.c -- models written as a trspecfit model file
 *
 * The file is block-style YAML as trspecfit's examples write it: the energy
 * models first, then every time and profile model their attachments use,
 * each a mapping of components (in order) to mappings of parameters (in
 * their function's order) to [value, vary, min, max], [value, vary] or
 * ["expression"]. Numbers are written with the fewest digits that read back
 * to the same double, in the form YAML 1.1 (PyYAML) reads as a float: an
 * exponent always with a point and a sign (1.0e-06), infinite bounds .inf.
 * Which parameter an attachment belongs to is not part of trspecfit's
 * format (its scripts call add_time_dependence / add_par_profile); the
 * header comment says it and the caller gets it as XrlabModelSaved.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-model-doc-private.h"
#include "xrlab-util.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

/* ---- scalars ------------------------------------------------------------------------ */

static void
append_number (GString *out, double x)
{
  char buf[XRLAB_DTOA_BUFSIZE];
  const char *e;

  if (isinf (x))
    {
      g_string_append (out, x < 0 ? "-.inf" : ".inf");
      return;
    }
  xrlab_format_double (x, buf);
  e = strchr (buf, 'e');
  if (e == NULL)
    {
      g_string_append (out, buf);
      return;
    }
  g_string_append_len (out, buf, e - buf);
  if (memchr (buf, '.', e - buf) == NULL)
    g_string_append (out, ".0");
  g_string_append_c (out, 'e');
  if (e[1] != '-' && e[1] != '+')
    g_string_append_c (out, '+');
  g_string_append (out, e + 1);
}

static gboolean
plain_safe (const char *s)
{
  static const char *const words[] = { "true", "false", "yes", "no", "on", "off", "null",
                                       "y", "n", "none" };

  gboolean word = FALSE;

  /* a leading digit only with a letter that no number has (2D, not 1e5,
   * 0x1F, 0o17) */
  if (g_ascii_isdigit (*s))
    {
      if (s[0] == '0' && strchr ("xXoObB", s[1]) != NULL && s[1] != '\0')
        return FALSE;
      for (const char *p = s; *p; p++)
        word |= g_ascii_isalpha (*p) && strchr ("eE", *p) == NULL;
      if (!word)
        return FALSE;
    }
  else if (!(g_ascii_isalpha (*s) || *s == '_'))
    return FALSE;
  for (const char *p = s; *p; p++)
    if (!(g_ascii_isalnum (*p) || *p == '_' || *p == '-' || *p == '.'))
      return FALSE;
  for (gsize i = 0; i < G_N_ELEMENTS (words); i++)
    if (g_ascii_strcasecmp (s, words[i]) == 0)
      return FALSE;
  return TRUE;
}

static void
append_quoted (GString *out, const char *s)
{
  g_string_append_c (out, '"');
  for (const char *p = s; *p; p++)
    {
      guchar c = (guchar) *p;

      if (c == '"' || c == '\\')
        g_string_append_c (out, '\\');
      if (c == '\n')
        g_string_append (out, "\\n");
      else if (c == '\t')
        g_string_append (out, "\\t");
      else if (c < 0x20 || c == 0x7f)
        g_string_append_printf (out, "\\x%02X", c);
      else
        g_string_append_c (out, c);
    }
  g_string_append_c (out, '"');
}

static void
append_key (GString *out, const char *s)
{
  if (plain_safe (s))
    g_string_append (out, s);
  else
    append_quoted (out, s);
}

/* ---- models ---------------------------------------------------------------------------- */

static void
append_param (GString *out, const DocParam *r)
{
  g_string_append (out, "        ");
  append_key (out, r->name);
  g_string_append (out, ": [");
  if (r->expr != NULL)
    {
      append_quoted (out, r->expr);
      g_string_append (out, "]\n");
      return;
    }
  append_number (out, r->value);
  g_string_append (out, ", ");
  g_string_append (out, xrlab_doc_param_vary (r));
  if (isfinite (r->min) || isfinite (r->max))
    {
      g_string_append (out, ", ");
      append_number (out, r->min);
      g_string_append (out, ", ");
      append_number (out, r->max);
    }
  g_string_append (out, "]\n");
}

static void
append_model (GString *out, const char *name, const DocModel *m)
{
  append_key (out, name);
  g_string_append (out, ":\n");
  for (guint i = 0; i < m->comps->len; i++)
    {
      const DocComp *c = g_ptr_array_index (m->comps, i);
      const char *fn = xrlab_fn_info (c->fn)->name;

      g_string_append_printf (out, "    %s:%s\n", fn, c->n_params == 0 ? " {}" : "");
      for (guint q = 0; q < c->n_params; q++)
        append_param (out, &c->params[q]);
    }
}

/* ---- the file -------------------------------------------------------------------------- */

void
xrlab_model_saved_free (XrlabModelSaved *saved)
{
  if (saved == NULL)
    return;
  for (gsize i = 0; i < saved->n_attach; i++)
    {
      XrlabModelSavedAttach *a = &saved->attach[i];
      g_free (a->model);
      g_free (a->param);
      g_strfreev (a->models);
    }
  g_free (saved->attach);
  g_free (saved);
}

static void
append_header (GString *out, const XrlabModelSaved *saved)
{
  g_string_append (out, "# trspecfit model file (written by xrlab)\n");
  if (saved->n_attach > 0)
    g_string_append (out, "#\n# Attached at run time:\n");
  for (gsize i = 0; i < saved->n_attach; i++)
    {
      const XrlabModelSavedAttach *a = &saved->attach[i];
      g_autofree char *list = g_strjoinv (", ", a->models);

      if (a->profile)
        g_string_append_printf (out, "#   add_par_profile(%s, %s, %s", a->model, a->param, list);
      else
        g_string_append_printf (out, "#   add_time_dependence(%s, %s, [%s]", a->model, a->param,
                                list);
      if (a->frequency > 0)
        {
          g_string_append (out, ", frequency=");
          append_number (out, a->frequency);
        }
      g_string_append (out, ")\n");
    }
  g_string_append_c (out, '\n');
}

/* The attachments of @doc with their models' names in the file; the
 * models not in @emitted (the names written so far) appended to @body. */
static void
write_attachments (const XrlabModelDoc *doc, GHashTable *written, GHashTable *emitted,
                   GArray *attach, GString *body)
{
  const GPtrArray *lists[2] = { doc->profiles, doc->dyns };

  for (int l = 0; l < 2; l++)
    for (guint i = 0; i < lists[l]->len; i++)
      {
        const DocAttach *a = g_ptr_array_index (lists[l], i);
        XrlabModelSavedAttach s = { 0 };

        s.model = g_strdup (doc->name);
        s.param = g_strdup (a->host);
        s.profile = a->profile;
        s.frequency = a->frequency;
        s.n_models = a->models->len;
        s.models = xrlab_model_doc_unique_names (a, written);
        for (guint k = 0; k < a->models->len; k++)
          if (g_hash_table_add (emitted, g_strdup (s.models[k])))
            {
              g_string_append_c (body, '\n');
              append_model (body, s.models[k], g_ptr_array_index (a->models, k));
            }
        g_array_append_val (attach, s);
      }
}

char *
xrlab_model_write_text (const XrlabModel *const *models, gsize n_models,
                        XrlabModelSaved **saved)
{
  g_autoptr(GHashTable) written = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) emitted = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GPtrArray) docs = g_ptr_array_new_with_free_func ((GDestroyNotify)
                                                              xrlab_model_doc_free);
  GArray *attach = g_array_new (FALSE, TRUE, sizeof (XrlabModelSavedAttach));
  GString *body = g_string_new (NULL);
  GString *out = g_string_new (NULL);
  XrlabModelSaved *info = g_new0 (XrlabModelSaved, 1);

  for (gsize i = 0; i < n_models; i++)
    {
      XrlabModelDoc *doc = xrlab_model_doc_new (models[i]);

      g_ptr_array_add (docs, doc);
      if (g_hash_table_contains (written, doc->name))
        continue;
      g_hash_table_insert (written, g_strdup (doc->name), doc->energy);
      g_hash_table_add (emitted, g_strdup (doc->name));
      if (body->len > 0)
        g_string_append_c (body, '\n');
      append_model (body, doc->name, doc->energy);
    }
  for (guint i = 0; i < docs->len; i++)
    write_attachments (g_ptr_array_index (docs, i), written, emitted, attach, body);
  info->n_attach = attach->len;
  info->attach = (XrlabModelSavedAttach *) g_array_free (attach, FALSE);
  append_header (out, info);
  g_string_append_len (out, body->str, body->len);
  g_string_free (body, TRUE);
  if (saved != NULL)
    *saved = info;
  else
    xrlab_model_saved_free (info);
  return g_string_free (out, FALSE);
}

gboolean
xrlab_model_save (const XrlabModel *const *models, gsize n_models, const char *path,
                  XrlabModelSaved **saved, GError **error)
{
  g_autoptr(GError) local = NULL;
  XrlabModelSaved *info = NULL;
  g_autofree char *text = xrlab_model_write_text (models, n_models, &info);

  if (!xrlab_write_file_atomic (path, text, -1, &local))
    {
      xrlab_model_saved_free (info);
      g_set_error (error, XRLAB_MODEL_ERROR, XRLAB_MODEL_ERROR_FILE,
                   _("The model cannot be saved: %s"), local->message);
      return FALSE;
    }
  if (saved != NULL)
    *saved = info;
  else
    xrlab_model_saved_free (info);
  return TRUE;
}

XrlabModel *
xrlab_model_load_saved_from_file (const XrlabModelFile *file, const char *name,
                                  const XrlabModelSaved *saved, GError **error)
{
  g_autoptr(XrlabModel) model = xrlab_model_new (file, name, error);

  if (model == NULL)
    return NULL;
  for (gsize i = 0; saved != NULL && i < saved->n_attach; i++)
    {
      const XrlabModelSavedAttach *a = &saved->attach[i];
      gboolean ok;

      if (g_strcmp0 (a->model, name) != 0)
        continue;
      if (a->profile)
        ok = xrlab_model_add_profile_from_file (model, a->param, file, a->models[0], error);
      else
        ok = xrlab_model_add_dynamics_from_file (model, a->param, file,
                                                 (const char *const *) a->models, a->n_models,
                                                 a->frequency, error);
      if (!ok)
        return NULL;
    }
  if (!xrlab_model_resolve (model, error))
    return NULL;
  return g_steal_pointer (&model);
}

XrlabModel *
xrlab_model_load_saved (const char *path, const char *name, const XrlabModelSaved *saved,
                        GError **error)
{
  g_autoptr(XrlabModelFile) file = xrlab_model_file_load (path, error);

  if (file == NULL)
    return NULL;
  return xrlab_model_load_saved_from_file (file, name, saved, error);
}
