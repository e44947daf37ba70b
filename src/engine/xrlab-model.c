/* xrlab-model.c -- spectral models from trspecfit-format model files
 *
 * The file is read into a tree that keeps the order of keys and repeated
 * keys (a model may list GLP twice) and the line of every node, so that
 * every error can name file and line (xrlab-yaml-tree.c); components and
 * parameters are read from it in xrlab-model-parse.c. Models are checked
 * when they are used, like trspecfit does.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-model-parse-private.h"
#include "xrlab-util.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

G_DEFINE_QUARK (xrlab-model-error-quark, xrlab_model_error)

/* ---- model files --------------------------------------------------------- */

static XrlabModelFile *
model_file_from_data (const char *data, gsize len, const char *name, GError **error)
{
  g_autoptr(XrlabModelFile) file = g_new0 (XrlabModelFile, 1);

  file->path = g_strdup (name);
  if (!g_utf8_validate (data, len, NULL))
    {
      g_set_error (error, XRLAB_MODEL_ERROR, XRLAB_MODEL_ERROR_SYNTAX,
                   _("%s: the file is not UTF-8 text"), name);
      return NULL;
    }
  file->root = xrlab_yaml_read_document (data, len, name, error);
  if (file->root == NULL)
    return NULL;
  if (file->root->kind != XRLAB_YN_MAP)
    {
      g_set_error (error, XRLAB_MODEL_ERROR, XRLAB_MODEL_ERROR_SYNTAX,
                   _("%s:%d: expected model names at the top level (“name:” followed "
                     "by its components), found %s"),
                   name, file->root->line, xrlab_ynode_kind_name (file->root));
      return NULL;
    }
  {
    /* Each name once: one lookup a model, not a scan of those before. */
    g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

    for (guint i = 0; i < file->root->kids->len; i += 2)
      {
        XrlabYNode *key = g_ptr_array_index (file->root->kids, i);
        XrlabYNode *other = g_hash_table_lookup (seen, key->text);

        if (other != NULL)
          {
            g_autofree char *shown = xrlab_escape_text (key->text, -1, 0);
            g_set_error (error, XRLAB_MODEL_ERROR, XRLAB_MODEL_ERROR_SYNTAX,
                         _("%s:%d: model “%s” is defined twice (first at line %d)"),
                         name, key->line, shown, other->line);
            return NULL;
          }
        g_hash_table_insert (seen, key->text, key);
      }
  }
  return g_steal_pointer (&file);
}

XrlabModelFile *
xrlab_model_file_load (const char *path, GError **error)
{
  g_autofree char *data = NULL;
  g_autoptr(GError) local = NULL;
  gsize len = 0;

  g_return_val_if_fail (path != NULL, NULL);
  if (!g_file_get_contents (path, &data, &len, &local))
    {
      g_set_error (error, XRLAB_MODEL_ERROR, XRLAB_MODEL_ERROR_FILE,
                   _("cannot read model file: %s"), local->message);
      return NULL;
    }
  return model_file_from_data (data, len, path, error);
}

XrlabModelFile *
xrlab_model_file_new_from_data (const char *data, gssize len, const char *display_name,
                                GError **error)
{
  g_return_val_if_fail (data != NULL, NULL);
  return model_file_from_data (data, len < 0 ? strlen (data) : (gsize) len,
                               display_name ? display_name : "<model>", error);
}

void
xrlab_model_file_free (XrlabModelFile *file)
{
  if (file == NULL)
    return;
  g_free (file->path);
  xrlab_ynode_free (file->root);
  g_free (file);
}

const char *
xrlab_model_file_get_path (const XrlabModelFile *file)
{
  return file->path;
}

gsize
xrlab_model_file_n_models (const XrlabModelFile *file)
{
  return file->root->kids->len / 2;
}

const char *
xrlab_model_file_model_name (const XrlabModelFile *file, gsize i)
{
  g_return_val_if_fail (2 * i < file->root->kids->len, NULL);
  return ((XrlabYNode *) g_ptr_array_index (file->root->kids, 2 * i))->text;
}

/* ---- parameters, components, attachments: life cycle ---------------------- */

void
xrlab_model_param_free (XrlabParam *p)
{
  if (p == NULL)
    return;
  g_free (p->name);
  g_free (p->local);
  g_free (p->expr_text);
  g_free (p->expr_full);
  xrlab_expr_free (p->expr);
  g_free (p->refs);
  g_free (p->file);
  g_free (p->model_name);
  g_free (p);
}

void
xrlab_model_comp_free (XrlabComponent *c)
{
  if (c == NULL)
    return;
  g_free (c->name);
  g_free (c->model_name);
  g_free (c->file);
  g_free (c);
}

void
xrlab_model_attachment_free (XrlabAttachment *a)
{
  if (a == NULL)
    return;
  g_free (a->file);
  g_strfreev (a->models);
  g_ptr_array_unref (a->comps);
  g_ptr_array_unref (a->params);
  g_free (a);
}

XrlabModel *
xrlab_model_alloc (void)
{
  XrlabModel *m = g_new0 (XrlabModel, 1);

  m->comps = g_ptr_array_new_with_free_func ((GDestroyNotify) xrlab_model_comp_free);
  m->eparams = g_ptr_array_new_with_free_func ((GDestroyNotify) xrlab_model_param_free);
  m->dyns = g_ptr_array_new_with_free_func ((GDestroyNotify) xrlab_model_attachment_free);
  m->profiles = g_ptr_array_new_with_free_func ((GDestroyNotify) xrlab_model_attachment_free);
  m->all = g_ptr_array_new ();
  m->by_name = g_hash_table_new (g_str_hash, g_str_equal);
  return m;
}

void
xrlab_model_free (XrlabModel *model)
{
  if (model == NULL)
    return;
  g_free (model->name);
  g_free (model->file);
  g_ptr_array_unref (model->all);
  g_hash_table_unref (model->by_name);
  g_ptr_array_unref (model->dyns);
  g_ptr_array_unref (model->profiles);
  g_ptr_array_unref (model->eparams);
  g_ptr_array_unref (model->comps);
  g_free (model);
}

/* Rebuilds the flattened order and the name index. */
void
xrlab_model_reindex (XrlabModel *model)
{
  g_ptr_array_set_size (model->all, 0);
  g_hash_table_remove_all (model->by_name);
  for (guint i = 0; i < model->eparams->len; i++)
    {
      XrlabParam *p = g_ptr_array_index (model->eparams, i);
      XrlabAttachment *att[2] = { p->dyn, p->profile };

      g_ptr_array_add (model->all, p);
      for (guint k = 0; k < 2; k++)
        if (att[k])
          for (guint j = 0; j < att[k]->params->len; j++)
            g_ptr_array_add (model->all, g_ptr_array_index (att[k]->params, j));
      /* then the time dependence of its profile's parameters (trspecfit
       * appends it to the list of the parameter the profile describes) */
      if (p->profile)
        for (guint j = 0; j < p->profile->params->len; j++)
          {
            XrlabParam *q = g_ptr_array_index (p->profile->params, j);
            if (q->dyn)
              for (guint k = 0; k < q->dyn->params->len; k++)
                g_ptr_array_add (model->all, g_ptr_array_index (q->dyn->params, k));
          }
    }
  for (guint i = 0; i < model->all->len; i++)
    {
      XrlabParam *p = g_ptr_array_index (model->all, i);
      p->index = i;
      g_hash_table_insert (model->by_name, p->name, p);
    }
}

/* ---- expressions: names and cycles ------------------------------------------ */

static XrlabParam *
lookup_in_attachment (const XrlabAttachment *att, const char *name)
{
  for (guint i = 0; i < att->params->len; i++)
    {
      XrlabParam *q = g_ptr_array_index (att->params, i);
      if (strcmp (q->local, name) == 0 || strcmp (q->name, name) == 0)
        return q;
    }
  return NULL;
}

/* Could @name be a parameter of time dependence or profile attached later to
 * an existing energy parameter? */
gboolean
xrlab_model_may_be_attached_later (const XrlabModel *model, const char *name)
{
  for (guint i = 0; i < model->eparams->len; i++)
    {
      const XrlabParam *p = g_ptr_array_index (model->eparams, i);
      gsize n = strlen (p->name);
      if (strncmp (name, p->name, n) == 0 && name[n] == '_')
        return TRUE;
    }
  return FALSE;
}

/* Resolves the names of the expressions of the parameters of @att (its own
 * parameters only, by local or full name). */
gboolean
xrlab_model_resolve_attachment (XrlabAttachment *att, GError **error)
{
  for (guint i = 0; i < att->params->len; i++)
    {
      XrlabParam *p = g_ptr_array_index (att->params, i);
      if (p->expr == NULL)
        continue;
      for (guint r = 0; r < xrlab_expr_n_refs (p->expr); r++)
        {
          const char *name = xrlab_param_ref_name (p, r);
          p->refs[r] = lookup_in_attachment (att, name);
          if (p->refs[r] == NULL)
            {
              set_error (error, XRLAB_MODEL_ERROR_EXPR, p->file, p->line,
                         att->is_profile
                           ? _("profile model “%s”: parameter %s: the expression “%s” "
                               "names “%s”, which is not a parameter of this profile "
                               "(its expressions may name only its own parameters, "
                               "e.g. %s)")
                           : _("time model “%s”: parameter %s: the expression “%s” "
                               "names “%s”, which is not a parameter of this time "
                               "dependence (its expressions may name only its own "
                               "parameters, e.g. %s)"),
                         p->model_name, p->name, p->expr_text, name,
                         ((XrlabParam *) g_ptr_array_index (att->params, 0))->local);
              return FALSE;
            }
        }
      {
        g_autofree const char **names = g_new (const char *, MAX (1, xrlab_expr_n_refs (p->expr)));
        for (guint r = 0; r < xrlab_expr_n_refs (p->expr); r++)
          names[r] = p->refs[r]->name;
        g_free (p->expr_full);
        p->expr_full = xrlab_expr_rename (p->expr, names);
      }
    }
  return TRUE;
}

/* Resolves the names of energy-model expressions. With @final, a name that
 * is still unknown is an error; otherwise one that may belong to time
 * dependence attached later stays open. */
gboolean
xrlab_model_resolve_energy (XrlabModel *model, gboolean final, GError **error)
{
  for (guint i = 0; i < model->eparams->len; i++)
    {
      XrlabParam *p = g_ptr_array_index (model->eparams, i);
      if (p->expr == NULL)
        continue;
      for (guint r = 0; r < xrlab_expr_n_refs (p->expr); r++)
        {
          const char *name = xrlab_param_ref_name (p, r);
          p->refs[r] = g_hash_table_lookup (model->by_name, name);
          if (p->refs[r] == NULL && (final || !xrlab_model_may_be_attached_later (model, name)))
            {
              set_error (error, XRLAB_MODEL_ERROR_EXPR, p->file, p->line,
                         _("model “%s”: parameter %s: the expression “%s” names “%s”, "
                           "which is not a parameter of the model"),
                         p->model_name, p->name, p->expr_text, name);
              return FALSE;
            }
        }
    }
  return TRUE;
}

/* Depth-first search for a cycle through expression references. */
gboolean
xrlab_model_check_cycles (const GPtrArray *params, GError **error)
{
  g_autoptr(GHashTable) state = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr(GPtrArray) path = g_ptr_array_new ();

  for (guint i = 0; i < params->len; i++)
    {
      XrlabParam *start = g_ptr_array_index (params, i);
      g_autoptr(GArray) next_ref = g_array_new (FALSE, TRUE, sizeof (guint));

      if (start->expr == NULL || g_hash_table_contains (state, start))
        continue;
      g_ptr_array_add (path, start);
      g_array_set_size (next_ref, 1);
      g_hash_table_insert (state, start, GINT_TO_POINTER (1));   /* on the path */
      while (path->len > 0)
        {
          XrlabParam *p = g_ptr_array_index (path, path->len - 1);
          guint *r = &g_array_index (next_ref, guint, path->len - 1);
          XrlabParam *q = NULL;

          while (p->expr && *r < xrlab_expr_n_refs (p->expr) && q == NULL)
            q = p->refs[(*r)++];
          if (q == NULL)
            {
              g_hash_table_insert (state, p, GINT_TO_POINTER (2));  /* done */
              g_ptr_array_set_size (path, path->len - 1);
              g_array_set_size (next_ref, path->len);
              continue;
            }
          if (GPOINTER_TO_INT (g_hash_table_lookup (state, q)) == 1)
            {
              GString *s = g_string_new (NULL);
              guint from = 0;
              while (g_ptr_array_index (path, from) != q)
                from++;
              for (guint k = from; k < path->len; k++)
                g_string_append_printf (s, "%s → ",
                                        ((XrlabParam *) g_ptr_array_index (path, k))->name);
              g_string_append (s, q->name);
              set_error (error, XRLAB_MODEL_ERROR_EXPR, q->file, q->line,
                         _("model “%s”: parameter %s: its expression depends on itself "
                           "(%s)"),
                         q->model_name, q->name, s->str);
              g_string_free (s, TRUE);
              return FALSE;
            }
          if (g_hash_table_contains (state, q) || q->expr == NULL)
            continue;
          g_hash_table_insert (state, q, GINT_TO_POINTER (1));
          g_ptr_array_add (path, q);
          g_array_set_size (next_ref, path->len);
          g_array_index (next_ref, guint, path->len - 1) = 0;
        }
    }
  return TRUE;
}

gboolean
xrlab_model_resolve (XrlabModel *model, GError **error)
{
  return xrlab_model_resolve_energy (model, TRUE, error) && xrlab_model_check_cycles (model->all, error);
}

/* ---- energy models ------------------------------------------------------------ */

XrlabModel *
xrlab_model_new (const XrlabModelFile *file, const char *name, GError **error)
{
  g_autoptr(GArray) specs = g_array_new (FALSE, TRUE, sizeof (CompSpec));
  g_autoptr(XrlabModel) model = NULL;
  XrlabComponent *last;

  g_return_val_if_fail (file != NULL && name != NULL, NULL);

  if (!xrlab_model_collect_specs (file, name, 0, CTX_ENERGY, specs, error))
    return NULL;
  model = xrlab_model_alloc ();
  model->name = g_strdup (name);
  model->file = g_strdup (file->path);
  if (!xrlab_model_build_components (specs, CTX_ENERGY, file->path, NULL, model->comps,
                                     model->eparams, error))
    return NULL;
  last = g_ptr_array_index (model->comps, model->comps->len - 1);
  if (xrlab_fn_info (last->fn)->cls == XRLAB_FN_CLASS_BACKGROUND)
    {
      set_error (error, XRLAB_MODEL_ERROR_INVALID, file->path, last->line,
                 _("model “%s”: the last component, %s, is a background; backgrounds "
                   "act on the peaks listed after them, so a model ends with a peak"),
                 name, last->name);
      return NULL;
    }
  xrlab_model_reindex (model);
  if (!xrlab_model_resolve_energy (model, FALSE, error) || !xrlab_model_check_cycles (model->all, error))
    return NULL;
  return g_steal_pointer (&model);
}

XrlabModel *
xrlab_model_load (const char *path, const char *name, GError **error)
{
  g_autoptr(XrlabModelFile) file = xrlab_model_file_load (path, error);

  if (file == NULL)
    return NULL;
  return xrlab_model_new (file, name, error);
}

const char *
xrlab_model_get_name (const XrlabModel *model)
{
  return model->name;
}

const char *
xrlab_model_get_file (const XrlabModel *model)
{
  return model->file;
}

/* ---- copies ------------------------------------------------------------------------ */

static XrlabComponent *
comp_copy (const XrlabComponent *c, GHashTable *map)
{
  XrlabComponent *d = g_memdup2 (c, sizeof *c);

  d->name = g_strdup (c->name);
  d->model_name = g_strdup (c->model_name);
  d->file = g_strdup (c->file);
  g_hash_table_insert (map, (gpointer) c, d);
  return d;
}

static XrlabParam *
param_copy (const XrlabParam *p, GHashTable *map)
{
  XrlabParam *d = g_memdup2 (p, sizeof *p);

  d->name = g_strdup (p->name);
  d->local = g_strdup (p->local);
  d->expr_text = g_strdup (p->expr_text);
  d->expr_full = g_strdup (p->expr_full);
  d->expr = p->expr ? xrlab_expr_parse (p->expr_text, NULL) : NULL;
  d->refs = p->expr ? g_memdup2 (p->refs, MAX (1, xrlab_expr_n_refs (p->expr)) * sizeof (XrlabParam *))
                    : NULL;
  d->file = g_strdup (p->file);
  d->model_name = g_strdup (p->model_name);
  g_hash_table_insert (map, (gpointer) p, d);
  return d;
}

static XrlabAttachment *
attachment_copy (const XrlabAttachment *a, GHashTable *map)
{
  XrlabAttachment *d = g_memdup2 (a, sizeof *a);

  d->file = g_strdup (a->file);
  d->models = g_strdupv (a->models);
  d->comps = g_ptr_array_new_with_free_func ((GDestroyNotify) xrlab_model_comp_free);
  d->params = g_ptr_array_new_with_free_func ((GDestroyNotify) xrlab_model_param_free);
  for (guint i = 0; i < a->comps->len; i++)
    g_ptr_array_add (d->comps, comp_copy (g_ptr_array_index (a->comps, i), map));
  for (guint i = 0; i < a->params->len; i++)
    g_ptr_array_add (d->params, param_copy (g_ptr_array_index (a->params, i), map));
  g_hash_table_insert (map, (gpointer) a, d);
  return d;
}

#define REMAP(map, ptr) ((ptr) ? g_hash_table_lookup ((map), (ptr)) : NULL)

XrlabModel *
xrlab_model_copy (const XrlabModel *model)
{
  XrlabModel *m = xrlab_model_alloc ();
  g_autoptr(GHashTable) map = g_hash_table_new (g_direct_hash, g_direct_equal);

  m->name = g_strdup (model->name);
  m->file = g_strdup (model->file);
  for (guint i = 0; i < model->comps->len; i++)
    g_ptr_array_add (m->comps, comp_copy (g_ptr_array_index (model->comps, i), map));
  for (guint i = 0; i < model->eparams->len; i++)
    g_ptr_array_add (m->eparams, param_copy (g_ptr_array_index (model->eparams, i), map));
  for (guint i = 0; i < model->dyns->len; i++)
    g_ptr_array_add (m->dyns, attachment_copy (g_ptr_array_index (model->dyns, i), map));
  for (guint i = 0; i < model->profiles->len; i++)
    g_ptr_array_add (m->profiles, attachment_copy (g_ptr_array_index (model->profiles, i), map));

  /* Rewire every pointer to the copies. */
  for (guint k = 0; k < 2; k++)
    {
      GPtrArray *atts = k == 0 ? m->dyns : m->profiles;
      for (guint i = 0; i < atts->len; i++)
        {
          XrlabAttachment *a = g_ptr_array_index (atts, i);
          a->host = REMAP (map, a->host);
          for (guint j = 0; j < a->comps->len; j++)
            {
              XrlabComponent *c = g_ptr_array_index (a->comps, j);
              for (guint q = 0; q < c->n_params; q++)
                c->params[q] = REMAP (map, c->params[q]);
            }
          for (guint j = 0; j < a->params->len; j++)
            {
              XrlabParam *p = g_ptr_array_index (a->params, j);
              p->comp = REMAP (map, p->comp);
              p->host = REMAP (map, p->host);
              p->dyn = REMAP (map, p->dyn);
              for (guint r = 0; p->expr && r < xrlab_expr_n_refs (p->expr); r++)
                p->refs[r] = REMAP (map, p->refs[r]);
            }
        }
    }
  for (guint i = 0; i < m->comps->len; i++)
    {
      XrlabComponent *c = g_ptr_array_index (m->comps, i);
      for (guint q = 0; q < c->n_params; q++)
        c->params[q] = REMAP (map, c->params[q]);
    }
  for (guint i = 0; i < m->eparams->len; i++)
    {
      XrlabParam *p = g_ptr_array_index (m->eparams, i);
      p->comp = REMAP (map, p->comp);
      p->dyn = REMAP (map, p->dyn);
      p->profile = REMAP (map, p->profile);
      for (guint r = 0; p->expr && r < xrlab_expr_n_refs (p->expr); r++)
        p->refs[r] = REMAP (map, p->refs[r]);
    }
  xrlab_model_reindex (m);
  return m;
}

/* ---- components and parameters: access -------------------------------------------- */

gsize
xrlab_model_n_components (const XrlabModel *model)
{
  return model->comps->len;
}

const char *
xrlab_model_component_name (const XrlabModel *model, gsize i)
{
  g_return_val_if_fail (i < model->comps->len, NULL);
  return ((XrlabComponent *) g_ptr_array_index (model->comps, i))->name;
}

const char *
xrlab_model_component_function (const XrlabModel *model, gsize i)
{
  g_return_val_if_fail (i < model->comps->len, NULL);
  return xrlab_fn_info (((XrlabComponent *) g_ptr_array_index (model->comps, i))->fn)->name;
}

gsize
xrlab_model_n_params (const XrlabModel *model)
{
  return model->all->len;
}

gssize
xrlab_model_find_param (const XrlabModel *model, const char *name)
{
  XrlabParam *p = g_hash_table_lookup (model->by_name, name);
  return p ? (gssize) p->index : -1;
}

void
xrlab_model_get_param (const XrlabModel *model, gsize i, XrlabParamInfo *info)
{
  const XrlabParam *p;

  g_return_if_fail (i < model->all->len);
  p = g_ptr_array_index (model->all, i);
  info->name = p->name;
  info->component = p->comp->name;
  info->function = xrlab_fn_info (p->comp->fn)->name;
  info->role = p->role;
  info->host = p->host ? p->host->name : NULL;
  info->value = p->value;
  info->min = p->min;
  info->max = p->max;
  info->vary = p->vary;
  info->is_static = p->is_static;
  info->expr = p->expr_text;
  info->has_dynamics = p->dyn != NULL;
  info->has_profile = p->profile != NULL;
  info->file = p->file;
  info->line = p->line;
  info->share = p->share;
  info->expr_full = p->expr_full ? p->expr_full : p->expr_text;
}

/* The value of @p into @values (its index), with what it refers to. */
static void
value_of (const XrlabParam *p, double *values, gboolean *done)
{
  guint n;
  double *refs;
  double *stack;
  const XrlabExprInsn *code;
  const double *consts;
  guint n_code, n_consts;

  if (done[p->index])
    return;
  done[p->index] = TRUE;   /* no cycles: refused when the model was read */
  if (p->expr == NULL)
    {
      values[p->index] = p->value;
      return;
    }
  n = xrlab_expr_n_refs (p->expr);
  refs = g_newa (double, MAX (n, 1));
  stack = g_newa (double, MAX (xrlab_expr_depth (p->expr), 1));
  for (guint r = 0; r < n; r++)
    {
      value_of (p->refs[r], values, done);
      refs[r] = values[p->refs[r]->index];
    }
  code = xrlab_expr_code (p->expr, &n_code);
  consts = xrlab_expr_consts (p->expr, &n_consts);
  values[p->index] = xrlab_expr_eval (code, n_code, consts, refs, stack);
}

gboolean
xrlab_model_get_values (const XrlabModel *model, double *values, GError **error)
{
  g_autoptr(XrlabModel) m = xrlab_model_copy (model);
  g_autofree gboolean *done = NULL;

  g_return_val_if_fail (model != NULL && values != NULL, FALSE);
  if (!xrlab_model_resolve (m, error))
    return FALSE;
  done = g_new0 (gboolean, MAX (m->all->len, 1));
  for (guint i = 0; i < m->all->len; i++)
    value_of (g_ptr_array_index (m->all, i), values, done);
  return TRUE;
}

static XrlabParam *
settable (XrlabModel *model, const char *name, GError **error)
{
  XrlabParam *p = g_hash_table_lookup (model->by_name, name);

  if (p == NULL)
    {
      set_error (error, XRLAB_MODEL_ERROR_NOT_FOUND, model->file, 0,
                 _("model “%s” has no parameter “%s”"), model->name, name);
      return NULL;
    }
  if (p->expr)
    {
      set_error (error, XRLAB_MODEL_ERROR_INVALID, p->file, p->line,
                 _("model “%s”: parameter %s is defined by the expression “%s”; it "
                   "follows the parameters it names"),
                 model->name, p->name, p->expr_text);
      return NULL;
    }
  return p;
}

static gboolean
check_in_bounds (XrlabModel *model, XrlabParam *p, double value, double min, double max,
                 GError **error)
{
  char v[XRLAB_DTOA_BUFSIZE], a[XRLAB_DTOA_BUFSIZE], b[XRLAB_DTOA_BUFSIZE];

  if (!isfinite (value))
    {
      set_error (error, XRLAB_MODEL_ERROR_INVALID, p->file, p->line,
                 _("model “%s”: parameter %s: the value %s is not finite"),
                 model->name, p->name, xrlab_format_double (value, v));
      return FALSE;
    }
  if (isnan (min) || isnan (max) || min > max)
    {
      set_error (error, XRLAB_MODEL_ERROR_INVALID, p->file, p->line,
                 _("model “%s”: parameter %s: min (%s) is greater than max (%s)"),
                 model->name, p->name, xrlab_format_double (min, a),
                 xrlab_format_double (max, b));
      return FALSE;
    }
  if (value < min || value > max)
    {
      set_error (error, XRLAB_MODEL_ERROR_INVALID, p->file, p->line,
                 _("model “%s”: parameter %s: the value %s is outside its bounds "
                   "[%s, %s]"),
                 model->name, p->name, xrlab_format_double (value, v),
                 xrlab_format_double (min, a), xrlab_format_double (max, b));
      return FALSE;
    }
  return TRUE;
}

gboolean
xrlab_model_set_value (XrlabModel *model, const char *name, double value, GError **error)
{
  XrlabParam *p = settable (model, name, error);

  if (p == NULL || !check_in_bounds (model, p, value, p->min, p->max, error))
    return FALSE;
  p->value = value;
  return TRUE;
}

gboolean
xrlab_model_set_vary (XrlabModel *model, const char *name, gboolean vary, GError **error)
{
  XrlabParam *p = settable (model, name, error);

  if (p == NULL)
    return FALSE;
  p->vary = vary;
  if (vary)
    p->is_static = FALSE;
  else
    p->share = XRLAB_PARAM_SHARE_NONE;
  return TRUE;
}

gboolean
xrlab_model_set_share (XrlabModel *model, const char *name, XrlabParamShare share,
                       GError **error)
{
  XrlabParam *p = settable (model, name, error);

  if (p == NULL)
    return FALSE;
  p->share = share;
  if (share != XRLAB_PARAM_SHARE_NONE)
    {
      p->vary = TRUE;
      p->is_static = FALSE;
    }
  return TRUE;
}

gboolean
xrlab_model_set_bounds (XrlabModel *model, const char *name, double min, double max,
                        GError **error)
{
  XrlabParam *p = settable (model, name, error);

  if (p == NULL || !check_in_bounds (model, p, p->value, min, max, error))
    return FALSE;
  p->min = min;
  p->max = max;
  return TRUE;
}

gboolean
xrlab_model_fix (XrlabModel *model, const char *name, double value, GError **error)
{
  XrlabParam *p = settable (model, name, error);

  if (p == NULL || !check_in_bounds (model, p, value, p->min, p->max, error))
    return FALSE;
  p->value = value;
  p->vary = FALSE;
  p->share = XRLAB_PARAM_SHARE_NONE;
  return TRUE;
}

/* The attachment whose expressions may name @p's neighbours, or NULL for an
 * energy parameter. */
static XrlabAttachment *
scope_of (const XrlabParam *p)
{
  if (p->role == XRLAB_PARAM_DYNAMICS)
    return p->host->dyn;
  if (p->role == XRLAB_PARAM_PROFILE)
    return p->host->profile;
  return NULL;
}

gboolean
xrlab_model_set_expr (XrlabModel *model, const char *name, const char *expr,
                      GError **error)
{
  XrlabParam *p = g_hash_table_lookup (model->by_name, name);
  g_autoptr(GError) local = NULL;
  XrlabAttachment *scope;
  XrlabExpr *old_expr, *parsed = NULL;
  XrlabParam **old_refs, **refs = NULL;
  char *old_text;

  if (p == NULL)
    {
      set_error (error, XRLAB_MODEL_ERROR_NOT_FOUND, model->file, 0,
                 _("model “%s” has no parameter “%s”"), model->name, name);
      return FALSE;
    }
  scope = scope_of (p);
  if (expr != NULL && *expr != '\0')
    {
      parsed = xrlab_expr_parse (expr, &local);
      if (parsed == NULL)
        {
          set_error (error, XRLAB_MODEL_ERROR_EXPR, p->file, p->line,
                     _("model “%s”: parameter %s: %s"), p->model_name, p->name,
                     local->message);
          return FALSE;
        }
      refs = g_new0 (XrlabParam *, MAX (1, xrlab_expr_n_refs (parsed)));
      for (guint r = 0; r < xrlab_expr_n_refs (parsed); r++)
        {
          const char *ref = xrlab_expr_ref (parsed, r);
          refs[r] = scope ? lookup_in_attachment (scope, ref)
                          : g_hash_table_lookup (model->by_name, ref);
          if (refs[r] == NULL)
            {
              set_error (error, XRLAB_MODEL_ERROR_EXPR, p->file, p->line,
                         _("model “%s”: parameter %s: the expression “%s” names “%s”, "
                           "which is not a parameter of the model"),
                         p->model_name, p->name, expr, ref);
              xrlab_expr_free (parsed);
              g_free (refs);
              return FALSE;
            }
        }
    }
  old_expr = p->expr;
  old_refs = p->refs;
  old_text = p->expr_text;
  p->expr = parsed;
  p->refs = refs;
  p->expr_text = parsed ? g_strdup (expr) : NULL;
  if (parsed && !xrlab_model_check_cycles (model->all, error))
    {
      xrlab_expr_free (p->expr);
      g_free (p->refs);
      g_free (p->expr_text);
      p->expr = old_expr;
      p->refs = old_refs;
      p->expr_text = old_text;
      return FALSE;
    }
  xrlab_expr_free (old_expr);
  g_free (old_refs);
  g_free (old_text);
  if (parsed)
    {
      p->vary = FALSE;
      p->is_static = FALSE;
    }
  return TRUE;
}
