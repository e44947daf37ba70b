/* xrlab-model.c -- spectral models from trspecfit-format model files
 *
 * The file is read into a tree that keeps the order of keys and repeated
 * keys (a model may list GLP twice) and the line of every node, so that
 * every error can name file and line (xrlab-yaml-tree.c). Models are checked
 * when they are used, like trspecfit does.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-model-private.h"
#include "xrlab-yaml-tree.h"
#include "xrlab-util.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include <glib/gi18n-lib.h>

G_DEFINE_QUARK (xrlab-model-error-quark, xrlab_model_error)

/* ---- model files --------------------------------------------------------- */

struct _XrlabModelFile {
  char *path;
  XrlabYNode *root;        /* mapping: model name -> components */
};

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
  for (guint i = 0; i < file->root->kids->len; i += 2)
    {
      XrlabYNode *key = g_ptr_array_index (file->root->kids, i);
      for (guint j = 0; j < i; j += 2)
        {
          XrlabYNode *other = g_ptr_array_index (file->root->kids, j);
          if (strcmp (other->text, key->text) == 0)
            {
              g_set_error (error, XRLAB_MODEL_ERROR, XRLAB_MODEL_ERROR_SYNTAX,
                           _("%s:%d: model “%s” is defined twice (first at line %d)"),
                           name, key->line, key->text, other->line);
              return NULL;
            }
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

static XrlabYNode *
model_file_find (const XrlabModelFile *file, const char *name, XrlabYNode **key_out)
{
  for (guint i = 0; i < file->root->kids->len; i += 2)
    {
      XrlabYNode *key = g_ptr_array_index (file->root->kids, i);
      if (strcmp (key->text, name) == 0)
        {
          if (key_out)
            *key_out = key;
          return g_ptr_array_index (file->root->kids, i + 1);
        }
    }
  return NULL;
}

static char *
model_file_names (const XrlabModelFile *file)
{
  GString *s = g_string_new (NULL);

  for (gsize i = 0; i < xrlab_model_file_n_models (file); i++)
    g_string_append_printf (s, "%s%s", i ? ", " : "", xrlab_model_file_model_name (file, i));
  return g_string_free (s, FALSE);
}

/* ---- parameters, components, attachments: life cycle ---------------------- */

static void
param_free (XrlabParam *p)
{
  if (p == NULL)
    return;
  g_free (p->name);
  g_free (p->local);
  g_free (p->expr_text);
  xrlab_expr_free (p->expr);
  g_free (p->refs);
  g_free (p->file);
  g_free (p->model_name);
  g_free (p);
}

static void
comp_free (XrlabComponent *c)
{
  if (c == NULL)
    return;
  g_free (c->name);
  g_free (c->model_name);
  g_free (c->file);
  g_free (c);
}

static void
attachment_free (XrlabAttachment *a)
{
  if (a == NULL)
    return;
  g_free (a->file);
  g_strfreev (a->models);
  g_ptr_array_unref (a->comps);
  g_ptr_array_unref (a->params);
  g_free (a);
}

static XrlabModel *
model_alloc (void)
{
  XrlabModel *m = g_new0 (XrlabModel, 1);

  m->comps = g_ptr_array_new_with_free_func ((GDestroyNotify) comp_free);
  m->eparams = g_ptr_array_new_with_free_func ((GDestroyNotify) param_free);
  m->dyns = g_ptr_array_new_with_free_func ((GDestroyNotify) attachment_free);
  m->profiles = g_ptr_array_new_with_free_func ((GDestroyNotify) attachment_free);
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
static void
model_reindex (XrlabModel *model)
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
    }
  for (guint i = 0; i < model->all->len; i++)
    {
      XrlabParam *p = g_ptr_array_index (model->all, i);
      p->index = i;
      g_hash_table_insert (model->by_name, p->name, p);
    }
}

/* ---- errors --------------------------------------------------------------- */

static void G_GNUC_PRINTF (5, 6)
set_error (GError **error, int code, const char *file, int line, const char *format, ...)
{
  g_autofree char *msg = NULL;
  va_list args;

  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);
  if (line > 0)
    g_set_error (error, XRLAB_MODEL_ERROR, code, "%s:%d: %s", file, line, msg);
  else
    g_set_error (error, XRLAB_MODEL_ERROR, code, "%s: %s", file, msg);
}

/* ---- parsing one parameter ------------------------------------------------ */

static gboolean
parse_number (const XrlabYNode *n, gboolean allow_inf, double *out)
{
  const char *t;

  if (n->kind != XRLAB_YN_SCALAR)
    return FALSE;
  t = n->text;
  if (allow_inf)
    {
      const char *u = (*t == '+' || *t == '-') ? t + 1 : t;
      double sign = (*t == '-') ? -1.0 : 1.0;
      if (g_ascii_strcasecmp (u, ".inf") == 0 || g_ascii_strcasecmp (u, "inf") == 0
          || g_ascii_strcasecmp (u, "infinity") == 0)
        {
          *out = sign * INFINITY;
          return TRUE;
        }
      if (n->plain && (g_ascii_strcasecmp (t, "none") == 0 || xrlab_ynode_is_null (n)))
        {
          *out = NAN;   /* unbounded; the caller picks the side */
          return TRUE;
        }
    }
  return xrlab_parse_double (t, FALSE, out);
}

/* Parses [value, vary, min, max] / [value, vary] / ["expr"] into @p. */
static gboolean
parse_param_spec (XrlabParam *p, const XrlabYNode *spec, const char *file,
                  const char *model_name, GError **error)
{
  const XrlabYNode *items[4];
  guint n;

  if (spec->kind != XRLAB_YN_SEQ)
    {
      set_error (error, XRLAB_MODEL_ERROR_INVALID, file, spec->line,
                 _("model “%s”: parameter %s: expected [value, vary, min, max], "
                   "[value, vary] or [\"expression\"], found %s"),
                 model_name, p->name, xrlab_ynode_kind_name (spec));
      return FALSE;
    }
  n = spec->kids->len;
  for (guint i = 0; i < n && i < 4; i++)
    {
      items[i] = g_ptr_array_index (spec->kids, i);
      if (items[i]->kind != XRLAB_YN_SCALAR)
        {
          set_error (error, XRLAB_MODEL_ERROR_INVALID, file, items[i]->line,
                     _("model “%s”: parameter %s: item %u is %s; the items are "
                       "plain values"),
                     model_name, p->name, i + 1, xrlab_ynode_kind_name (items[i]));
          return FALSE;
        }
    }
  if (n == 1)
    {
      double dummy;
      g_autoptr(GError) local = NULL;

      if (items[0]->plain && xrlab_parse_double (items[0]->text, FALSE, &dummy))
        {
          set_error (error, XRLAB_MODEL_ERROR_INVALID, file, spec->line,
                     _("model “%s”: parameter %s: a one-item list is an expression "
                       "in quotes (e.g. [\"GLP_01_x0 + 3.6\"]); a number needs "
                       "[value, vary] or [value, vary, min, max]"),
                     model_name, p->name);
          return FALSE;
        }
      p->expr = xrlab_expr_parse (items[0]->text, &local);
      if (p->expr == NULL)
        {
          set_error (error, XRLAB_MODEL_ERROR_EXPR, file, items[0]->line,
                     _("model “%s”: parameter %s: %s"), model_name, p->name,
                     local->message);
          return FALSE;
        }
      p->expr_text = g_strdup (items[0]->text);
      p->refs = g_new0 (XrlabParam *, MAX (1, xrlab_expr_n_refs (p->expr)));
      p->value = 0.0;
      p->min = -INFINITY;
      p->max = INFINITY;
      p->vary = FALSE;
      return TRUE;
    }
  if (n != 2 && n != 4)
    {
      set_error (error, XRLAB_MODEL_ERROR_INVALID, file, spec->line,
                 g_dngettext (GETTEXT_PACKAGE,
                              "model “%s”: parameter %s: expected [value, vary, min, max], "
                              "[value, vary] or [\"expression\"], found %u item",
                              "model “%s”: parameter %s: expected [value, vary, min, max], "
                              "[value, vary] or [\"expression\"], found %u items", n),
                 model_name, p->name, n);
      return FALSE;
    }
  if (!parse_number (items[0], FALSE, &p->value))
    {
      set_error (error, XRLAB_MODEL_ERROR_INVALID, file, items[0]->line,
                 _("model “%s”: parameter %s: the value “%s” is not a finite number"),
                 model_name, p->name, items[0]->text);
      return FALSE;
    }
  {
    const char *v = items[1]->text;
    if (g_ascii_strcasecmp (v, "true") == 0)
      p->vary = TRUE;
    else if (g_ascii_strcasecmp (v, "false") == 0)
      p->vary = FALSE;
    else if (g_ascii_strcasecmp (v, "static") == 0)
      {
        p->vary = FALSE;
        p->is_static = TRUE;
      }
    else
      {
        set_error (error, XRLAB_MODEL_ERROR_INVALID, file, items[1]->line,
                   _("model “%s”: parameter %s: vary (the second item) must be "
                     "True, False or static, found “%s”"),
                   model_name, p->name, v);
        return FALSE;
      }
  }
  p->min = -INFINITY;
  p->max = INFINITY;
  if (n == 4)
    {
      if (!parse_number (items[2], TRUE, &p->min))
        {
          set_error (error, XRLAB_MODEL_ERROR_INVALID, file, items[2]->line,
                     _("model “%s”: parameter %s: the lower bound “%s” is not a number"),
                     model_name, p->name, items[2]->text);
          return FALSE;
        }
      if (!parse_number (items[3], TRUE, &p->max))
        {
          set_error (error, XRLAB_MODEL_ERROR_INVALID, file, items[3]->line,
                     _("model “%s”: parameter %s: the upper bound “%s” is not a number"),
                     model_name, p->name, items[3]->text);
          return FALSE;
        }
      if (isnan (p->min))
        p->min = -INFINITY;
      if (isnan (p->max))
        p->max = INFINITY;
      if (p->min > p->max)
        {
          char a[XRLAB_DTOA_BUFSIZE], b[XRLAB_DTOA_BUFSIZE];
          set_error (error, XRLAB_MODEL_ERROR_INVALID, file, spec->line,
                     _("model “%s”: parameter %s: min (%s) is greater than max (%s)"),
                     model_name, p->name, xrlab_format_double (p->min, a),
                     xrlab_format_double (p->max, b));
          return FALSE;
        }
      if (p->value < p->min || p->value > p->max)
        {
          char v[XRLAB_DTOA_BUFSIZE], a[XRLAB_DTOA_BUFSIZE], b[XRLAB_DTOA_BUFSIZE];
          set_error (error, XRLAB_MODEL_ERROR_INVALID, file, spec->line,
                     _("model “%s”: parameter %s: the value %s is outside its bounds "
                       "[%s, %s]"),
                     model_name, p->name, xrlab_format_double (p->value, v),
                     xrlab_format_double (p->min, a), xrlab_format_double (p->max, b));
          return FALSE;
        }
    }
  return TRUE;
}

/* ---- parsing components ---------------------------------------------------- */

typedef enum { CTX_ENERGY, CTX_TIME, CTX_PROFILE } Context;

typedef struct {
  XrlabFn fn;
  const XrlabYNode *key;
  const XrlabYNode *value;
  const char *model_name;
  guint model_index;
  int number;         /* numbering; -1 for unnumbered functions */
} CompSpec;

static gboolean
fn_is_numbered (XrlabFn fn)
{
  XrlabFnClass c = xrlab_fn_info (fn)->cls;
  return c != XRLAB_FN_CLASS_BACKGROUND && c != XRLAB_FN_CLASS_KERNEL;
}

/* Checks that @fn may stand in a model of context @ctx. */
static gboolean
check_fn_class (Context ctx, const char *fn_name, gboolean known, XrlabFn fn,
                const char *file, int line, const char *model_name, GError **error)
{
  XrlabFnClass c = known ? xrlab_fn_info (fn)->cls : XRLAB_FN_CLASS_NONE;
  g_autofree char *list = NULL;

  switch (ctx)
    {
    case CTX_ENERGY:
      if (known && (c == XRLAB_FN_CLASS_PEAK || c == XRLAB_FN_CLASS_BACKGROUND))
        return TRUE;
      if (known && c == XRLAB_FN_CLASS_TIME)
        set_error (error, XRLAB_MODEL_ERROR_INVALID, file, line,
                   _("model “%s”: “%s” is a time function, not an energy component: "
                     "time functions belong in a time model attached to a parameter"),
                   model_name, fn_name);
      else if (known && c == XRLAB_FN_CLASS_KERNEL)
        set_error (error, XRLAB_MODEL_ERROR_INVALID, file, line,
                   _("model “%s”: “%s” is a convolution kernel: kernels act only inside "
                     "a time model, on the time dependence of a parameter"),
                   model_name, fn_name);
      else if (known && c == XRLAB_FN_CLASS_PROFILE)
        set_error (error, XRLAB_MODEL_ERROR_INVALID, file, line,
                   _("model “%s”: “%s” is a profile function, not an energy component: "
                     "attach it to a parameter as a profile"),
                   model_name, fn_name);
      else if (known)
        set_error (error, XRLAB_MODEL_ERROR_INVALID, file, line,
                   _("model “%s”: “%s” marks an empty time model; it has no place in "
                     "an energy model"),
                   model_name, fn_name);
      else
        {
          list = xrlab_fn_list_names (XRLAB_FN_CLASS_PEAK, XRLAB_FN_CLASS_BACKGROUND);
          set_error (error, XRLAB_MODEL_ERROR_INVALID, file, line,
                     _("model “%s”: unknown component “%s” (energy components: %s)"),
                     model_name, fn_name, list);
        }
      return FALSE;

    case CTX_TIME:
      if (known && (c == XRLAB_FN_CLASS_TIME || c == XRLAB_FN_CLASS_KERNEL
                    || c == XRLAB_FN_CLASS_NONE))
        return TRUE;
      list = xrlab_fn_list_names (XRLAB_FN_CLASS_TIME, XRLAB_FN_CLASS_KERNEL);
      if (known && (c == XRLAB_FN_CLASS_PEAK || c == XRLAB_FN_CLASS_BACKGROUND))
        set_error (error, XRLAB_MODEL_ERROR_INVALID, file, line,
                   _("time model “%s”: “%s” is an energy component, not a time function "
                     "(time functions and kernels: %s, none)"),
                   model_name, fn_name, list);
      else if (known)
        set_error (error, XRLAB_MODEL_ERROR_INVALID, file, line,
                   _("time model “%s”: “%s” is a profile function, not a time function "
                     "(time functions and kernels: %s, none)"),
                   model_name, fn_name, list);
      else
        set_error (error, XRLAB_MODEL_ERROR_INVALID, file, line,
                   _("time model “%s”: unknown time function “%s” (time functions and "
                     "kernels: %s, none)"),
                   model_name, fn_name, list);
      return FALSE;

    case CTX_PROFILE:
    default:
      if (known && c == XRLAB_FN_CLASS_PROFILE)
        return TRUE;
      list = xrlab_fn_list_names (XRLAB_FN_CLASS_PROFILE, XRLAB_FN_CLASS_PROFILE);
      if (known)
        set_error (error, XRLAB_MODEL_ERROR_INVALID, file, line,
                   _("profile model “%s”: “%s” is not a profile function (profile "
                     "functions: %s)"),
                   model_name, fn_name, list);
      else
        set_error (error, XRLAB_MODEL_ERROR_INVALID, file, line,
                   _("profile model “%s”: unknown profile function “%s” (profile "
                     "functions: %s)"),
                   model_name, fn_name, list);
      return FALSE;
    }
}

/* Collects the components of model @model_name of @file, numbered within the
 * model (GLP_01, GLP_02; backgrounds and kernels unnumbered). */
static gboolean
collect_specs (const XrlabModelFile *file, const char *model_name, guint model_index,
               Context ctx, GArray *specs, GError **error)
{
  XrlabYNode *key = NULL;
  XrlabYNode *node = model_file_find (file, model_name, &key);
  int counts[XRLAB_FN_COUNT] = { 0 };
  const char *what = ctx == CTX_ENERGY ? _("model")
                     : ctx == CTX_TIME ? _("time model") : _("profile model");

  if (node == NULL)
    {
      g_autofree char *names = model_file_names (file);
      set_error (error, XRLAB_MODEL_ERROR_NOT_FOUND, file->path, 0,
                 _("no %s “%s” in the file (models: %s)"), what, model_name, names);
      return FALSE;
    }
  if (xrlab_ynode_is_null (node) || (node->kind == XRLAB_YN_MAP && node->kids->len == 0))
    {
      set_error (error, XRLAB_MODEL_ERROR_INVALID, file->path, key->line,
                 _("%s “%s” has no components"), what, model_name);
      return FALSE;
    }
  if (node->kind != XRLAB_YN_MAP)
    {
      set_error (error, XRLAB_MODEL_ERROR_INVALID, file->path, node->line,
                 _("%s “%s”: expected its components (“Name:” followed by the "
                   "parameters), found %s"),
                 what, model_name, xrlab_ynode_kind_name (node));
      return FALSE;
    }
  for (guint i = 0; i < node->kids->len; i += 2)
    {
      const XrlabYNode *k = g_ptr_array_index (node->kids, i);
      CompSpec spec = { 0 };
      gboolean known = xrlab_fn_lookup (k->text, &spec.fn);

      if (!check_fn_class (ctx, k->text, known, spec.fn, file->path, k->line,
                           model_name, error))
        return FALSE;
      spec.key = k;
      spec.value = g_ptr_array_index (node->kids, i + 1);
      spec.model_name = key->text;
      spec.model_index = model_index;
      spec.number = fn_is_numbered (spec.fn) ? ++counts[spec.fn] : -1;
      g_array_append_val (specs, spec);
    }
  return TRUE;
}

/* Numbering across the models of one time dependence, as trspecfit resolves
 * it: numbers given within each model are kept where they are free, a number
 * already taken by an earlier model moves to the next free one. */
static void
number_across_models (GArray *specs)
{
  int next[XRLAB_FN_COUNT];
  GHashTable *assigned[XRLAB_FN_COUNT] = { NULL };

  for (guint f = 0; f < XRLAB_FN_COUNT; f++)
    next[f] = 1;
  for (guint i = 0; i < specs->len; i++)
    {
      CompSpec *s = &g_array_index (specs, CompSpec, i);
      if (s->number > 0)
        next[s->fn] = MAX (next[s->fn], s->number + 1);
    }
  for (guint i = 0; i < specs->len; i++)
    {
      CompSpec *s = &g_array_index (specs, CompSpec, i);
      if (s->number < 0)
        continue;
      if (assigned[s->fn] == NULL)
        assigned[s->fn] = g_hash_table_new (g_direct_hash, g_direct_equal);
      if (g_hash_table_contains (assigned[s->fn], GINT_TO_POINTER (s->number)))
        {
          while (g_hash_table_contains (assigned[s->fn], GINT_TO_POINTER (next[s->fn])))
            next[s->fn]++;
          s->number = next[s->fn]++;
        }
      g_hash_table_add (assigned[s->fn], GINT_TO_POINTER (s->number));
    }
  for (guint f = 0; f < XRLAB_FN_COUNT; f++)
    if (assigned[f])
      g_hash_table_unref (assigned[f]);
}

/* Creates the components of @specs and their parameters. @host is NULL for
 * the energy model. */
static gboolean
build_components (const GArray *specs, Context ctx, const char *file, XrlabParam *host,
                  GPtrArray *comps, GPtrArray *params, GError **error)
{
  for (guint i = 0; i < specs->len; i++)
    {
      const CompSpec *s = &g_array_index (specs, CompSpec, i);
      const XrlabFnInfo *info = xrlab_fn_info (s->fn);
      XrlabComponent *c = g_new0 (XrlabComponent, 1);
      const XrlabYNode *v = s->value;

      c->fn = s->fn;
      c->name = s->number > 0 ? g_strdup_printf ("%s_%02d", info->name, s->number)
                              : g_strdup (info->name);
      c->model_name = g_strdup (s->model_name);
      c->file = g_strdup (file);
      c->line = s->key->line;
      c->subcycle = ctx == CTX_TIME ? (int) s->model_index : 0;
      c->n_params = info->n_params;
      g_ptr_array_add (comps, c);

      for (guint j = 0; j + 1 < comps->len; j++)
        {
          XrlabComponent *o = g_ptr_array_index (comps, j);
          if (strcmp (o->name, c->name) == 0)
            {
              set_error (error, XRLAB_MODEL_ERROR_INVALID, file, c->line,
                         _("model “%s”: “%s” appears twice (also at line %d): "
                           "backgrounds and kernels are not numbered, so each may "
                           "appear only once"),
                         s->model_name, c->name, o->line);
              return FALSE;
            }
        }

      if (info->n_params == 0)
        {
          if (!(xrlab_ynode_is_null (v) || (v->kind == XRLAB_YN_MAP && v->kids->len == 0)))
            {
              set_error (error, XRLAB_MODEL_ERROR_INVALID, file, v->line,
                         _("model “%s”: “%s” takes no parameters (write “%s: {}”)"),
                         s->model_name, c->name, info->name);
              return FALSE;
            }
          continue;
        }
      if (v->kind != XRLAB_YN_MAP)
        {
          g_autofree char *plist = xrlab_fn_list_params (s->fn);
          set_error (error, XRLAB_MODEL_ERROR_INVALID, file,
                     xrlab_ynode_is_null (v) ? c->line : v->line,
                     _("model “%s”: %s: expected its parameters (%s) as “name: [value, "
                       "vary, min, max]”, found %s"),
                     s->model_name, c->name, plist, xrlab_ynode_kind_name (v));
          return FALSE;
        }
      /* Unknown or repeated parameter names. */
      for (guint k = 0; k < v->kids->len; k += 2)
        {
          const XrlabYNode *pk = g_ptr_array_index (v->kids, k);
          gboolean found = FALSE;

          for (guint q = 0; q < info->n_params; q++)
            found |= strcmp (info->params[q], pk->text) == 0;
          if (!found)
            {
              g_autofree char *plist = xrlab_fn_list_params (s->fn);
              set_error (error, XRLAB_MODEL_ERROR_INVALID, file, pk->line,
                         _("model “%s”: %s has no parameter “%s” (%s takes %s)"),
                         s->model_name, c->name, pk->text, info->name, plist);
              return FALSE;
            }
          for (guint q = 0; q < k; q += 2)
            {
              const XrlabYNode *other = g_ptr_array_index (v->kids, q);
              if (strcmp (other->text, pk->text) == 0)
                {
                  set_error (error, XRLAB_MODEL_ERROR_INVALID, file, pk->line,
                             _("model “%s”: parameter “%s” of %s is given twice (also "
                               "at line %d)"),
                             s->model_name, pk->text, c->name, other->line);
                  return FALSE;
                }
            }
        }
      for (guint q = 0; q < info->n_params; q++)
        {
          const XrlabYNode *spec = NULL;
          int line = c->line;
          XrlabParam *p;

          for (guint k = 0; k < v->kids->len; k += 2)
            {
              const XrlabYNode *pk = g_ptr_array_index (v->kids, k);
              if (strcmp (pk->text, info->params[q]) == 0)
                {
                  spec = g_ptr_array_index (v->kids, k + 1);
                  line = pk->line;
                }
            }
          if (spec == NULL)
            {
              g_autofree char *plist = xrlab_fn_list_params (s->fn);
              set_error (error, XRLAB_MODEL_ERROR_INVALID, file, c->line,
                         _("model “%s”: %s lacks parameter “%s” (%s takes %s)"),
                         s->model_name, c->name, info->params[q], info->name, plist);
              return FALSE;
            }
          p = g_new0 (XrlabParam, 1);
          p->local = g_strdup_printf ("%s_%s", c->name, info->params[q]);
          p->name = host ? g_strdup_printf ("%s_%s", host->name, p->local) : g_strdup (p->local);
          p->role = ctx == CTX_ENERGY ? XRLAB_PARAM_ENERGY
                    : ctx == CTX_TIME ? XRLAB_PARAM_DYNAMICS : XRLAB_PARAM_PROFILE;
          p->comp = c;
          p->host = host;
          p->file = g_strdup (file);
          p->line = line;
          p->model_name = g_strdup (s->model_name);
          c->params[q] = p;
          g_ptr_array_add (params, p);
          if (!parse_param_spec (p, spec, file, s->model_name, error))
            return FALSE;
        }
      if (s->fn == XRLAB_FN_LINBACK)
        {
          XrlabParam *a = c->params[2], *b = c->params[3];
          if (a->expr == NULL && b->expr == NULL && !(a->value < b->value))
            {
              char x[XRLAB_DTOA_BUFSIZE], y[XRLAB_DTOA_BUFSIZE];
              set_error (error, XRLAB_MODEL_ERROR_INVALID, file, a->line,
                         _("model “%s”: parameter %s: LinBack needs xStart < xStop "
                           "(found %s and %s)"),
                         s->model_name, a->name, xrlab_format_double (a->value, x),
                         xrlab_format_double (b->value, y));
              return FALSE;
            }
        }
    }
  return TRUE;
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
static gboolean
may_be_attached_later (const XrlabModel *model, const char *name)
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
static gboolean
resolve_attachment (XrlabAttachment *att, GError **error)
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
    }
  return TRUE;
}

/* Resolves the names of energy-model expressions. With @final, a name that
 * is still unknown is an error; otherwise one that may belong to time
 * dependence attached later stays open. */
static gboolean
resolve_energy (XrlabModel *model, gboolean final, GError **error)
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
          if (p->refs[r] == NULL && (final || !may_be_attached_later (model, name)))
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
static gboolean
check_cycles (const GPtrArray *params, GError **error)
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
  return resolve_energy (model, TRUE, error) && check_cycles (model->all, error);
}

/* ---- energy models ------------------------------------------------------------ */

XrlabModel *
xrlab_model_new (const XrlabModelFile *file, const char *name, GError **error)
{
  g_autoptr(GArray) specs = g_array_new (FALSE, TRUE, sizeof (CompSpec));
  g_autoptr(XrlabModel) model = NULL;
  XrlabComponent *last;

  g_return_val_if_fail (file != NULL && name != NULL, NULL);

  if (!collect_specs (file, name, 0, CTX_ENERGY, specs, error))
    return NULL;
  model = model_alloc ();
  model->name = g_strdup (name);
  model->file = g_strdup (file->path);
  if (!build_components (specs, CTX_ENERGY, file->path, NULL, model->comps,
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
  model_reindex (model);
  if (!resolve_energy (model, FALSE, error) || !check_cycles (model->all, error))
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

/* ---- attachments ------------------------------------------------------------------ */

static XrlabParam *
find_host (XrlabModel *model, const char *param, gboolean profile, GError **error)
{
  XrlabParam *p = g_hash_table_lookup (model->by_name, param);
  const char *what = profile ? _("a profile") : _("time dependence");

  if (p == NULL)
    {
      set_error (error, XRLAB_MODEL_ERROR_NOT_FOUND, model->file, 0,
                 _("model “%s” has no parameter “%s” to attach %s to"),
                 model->name, param, what);
      return NULL;
    }
  if (p->role != XRLAB_PARAM_ENERGY)
    {
      set_error (error, XRLAB_MODEL_ERROR_INVALID, p->file, p->line,
                 _("model “%s”: %s is a parameter of %s of %s; %s attaches only to "
                   "parameters of the energy model"),
                 model->name, p->name,
                 p->role == XRLAB_PARAM_DYNAMICS ? _("the time dependence") : _("the profile"),
                 p->host->name, what);
      return NULL;
    }
  if (p->expr != NULL)
    {
      set_error (error, XRLAB_MODEL_ERROR_EXPR, p->file, p->line,
                 _("model “%s”: parameter %s follows the expression “%s”, so it "
                   "cannot have %s of its own; attach it to the parameter the "
                   "expression names"),
                 model->name, p->name, p->expr_text, what);
      return NULL;
    }
  if ((profile && p->profile) || (!profile && p->dyn))
    {
      set_error (error, XRLAB_MODEL_ERROR_INVALID, p->file, p->line,
                 _("model “%s”: parameter %s already has %s"), model->name, p->name, what);
      return NULL;
    }
  return p;
}

static gboolean
attach (XrlabModel *model, const char *param, const XrlabModelFile *file,
        const char *const *models, gsize n_models, double frequency,
        gboolean profile, GError **error)
{
  g_autoptr(GArray) specs = g_array_new (FALSE, TRUE, sizeof (CompSpec));
  XrlabAttachment *att;
  XrlabParam *host;

  g_return_val_if_fail (model != NULL && param != NULL && file != NULL, FALSE);
  g_return_val_if_fail (models != NULL && n_models > 0, FALSE);

  host = find_host (model, param, profile, error);
  if (host == NULL)
    return FALSE;
  if (!profile)
    {
      if (n_models == 1 && frequency > 0)
        {
          set_error (error, XRLAB_MODEL_ERROR_INVALID, file->path, 0,
                     _("time dependence of %s: a frequency needs several time models "
                       "(the first for the whole delay axis, the others for the "
                       "subcycles)"),
                     param);
          return FALSE;
        }
      if (n_models > 1 && !(frequency > 0 && isfinite (frequency)))
        {
          set_error (error, XRLAB_MODEL_ERROR_INVALID, file->path, 0,
                     g_dngettext (GETTEXT_PACKAGE,
                                  "time dependence of %s: %u time model makes a multi-cycle "
                                  "dependence, which needs a frequency > 0",
                                  "time dependence of %s: %u time models make a multi-cycle "
                                  "dependence, which needs a frequency > 0", n_models),
                     param, (guint) n_models);
          return FALSE;
        }
    }

  for (gsize i = 0; i < n_models; i++)
    if (!collect_specs (file, models[i], i, profile ? CTX_PROFILE : CTX_TIME, specs, error))
      return FALSE;
  if (n_models > 1)
    number_across_models (specs);

  att = g_new0 (XrlabAttachment, 1);
  att->is_profile = profile;
  att->host = host;
  att->file = g_strdup (file->path);
  att->n_models = n_models;
  att->models = g_new0 (char *, n_models + 1);
  for (gsize i = 0; i < n_models; i++)
    att->models[i] = g_strdup (models[i]);
  att->frequency = n_models > 1 ? frequency : 0.0;
  att->n_sub = n_models - 1;
  att->comps = g_ptr_array_new_with_free_func ((GDestroyNotify) comp_free);
  att->params = g_ptr_array_new_with_free_func ((GDestroyNotify) param_free);

  if (!build_components (specs, profile ? CTX_PROFILE : CTX_TIME, file->path, host,
                         att->comps, att->params, error))
    goto fail;

  /* A kernel convolves the functions listed after it: it cannot end a model. */
  if (!profile)
    for (guint i = 0; i < att->comps->len; i++)
      {
        XrlabComponent *c = g_ptr_array_index (att->comps, i);
        XrlabComponent *next = i + 1 < att->comps->len ? g_ptr_array_index (att->comps, i + 1) : NULL;
        if (xrlab_fn_info (c->fn)->cls == XRLAB_FN_CLASS_KERNEL
            && (next == NULL || next->subcycle != c->subcycle))
          {
            set_error (error, XRLAB_MODEL_ERROR_INVALID, file->path, c->line,
                       _("time model “%s”: the kernel %s is its last component; a "
                         "kernel convolves the time functions listed after it"),
                       c->model_name, c->name);
            goto fail;
          }
      }

  if (!resolve_attachment (att, error) || !check_cycles (att->params, error))
    goto fail;

  for (guint i = 0; i < att->params->len; i++)
    {
      XrlabParam *q = g_ptr_array_index (att->params, i);
      if (g_hash_table_contains (model->by_name, q->name))
        {
          set_error (error, XRLAB_MODEL_ERROR_INVALID, q->file, q->line,
                     _("model “%s”: the parameter name %s is already taken"),
                     model->name, q->name);
          goto fail;
        }
    }

  if (profile)
    {
      host->profile = att;
      g_ptr_array_add (model->profiles, att);
    }
  else
    {
      host->dyn = att;
      g_ptr_array_add (model->dyns, att);
    }
  model_reindex (model);
  /* Names left open may resolve now; no new cycle can arise, since the new
   * parameters refer only to one another. */
  resolve_energy (model, FALSE, NULL);
  return TRUE;

fail:
  attachment_free (att);
  return FALSE;
}

gboolean
xrlab_model_add_dynamics_from_file (XrlabModel *model, const char *param,
                                    const XrlabModelFile *file, const char *const *models,
                                    gsize n_models, double frequency, GError **error)
{
  return attach (model, param, file, models, n_models, frequency, FALSE, error);
}

gboolean
xrlab_model_add_dynamics (XrlabModel *model, const char *param, const char *path,
                          const char *const *models, gsize n_models, double frequency,
                          GError **error)
{
  g_autoptr(XrlabModelFile) file = xrlab_model_file_load (path, error);

  if (file == NULL)
    return FALSE;
  return attach (model, param, file, models, n_models, frequency, FALSE, error);
}

gboolean
xrlab_model_add_profile_from_file (XrlabModel *model, const char *param,
                                   const XrlabModelFile *file, const char *profile_model,
                                   GError **error)
{
  const char *models[] = { profile_model };
  return attach (model, param, file, models, 1, 0.0, TRUE, error);
}

gboolean
xrlab_model_add_profile (XrlabModel *model, const char *param, const char *path,
                         const char *profile_model, GError **error)
{
  g_autoptr(XrlabModelFile) file = xrlab_model_file_load (path, error);
  const char *models[] = { profile_model };

  if (file == NULL)
    return FALSE;
  return attach (model, param, file, models, 1, 0.0, TRUE, error);
}

gboolean
xrlab_model_has_dynamics (const XrlabModel *model)
{
  return model->dyns->len > 0;
}

gboolean
xrlab_model_has_profiles (const XrlabModel *model)
{
  return model->profiles->len > 0;
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
  d->comps = g_ptr_array_new_with_free_func ((GDestroyNotify) comp_free);
  d->params = g_ptr_array_new_with_free_func ((GDestroyNotify) param_free);
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
  XrlabModel *m = model_alloc ();
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
  model_reindex (m);
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
  return TRUE;
}
