/* xrlab-model-parse.c -- the components of a model and their parameters, read
 * from the tree of a model file and checked against the vocabulary
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-model-parse-private.h"
#include "xrlab-util.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

/* ---- finding a model in the file ------------------------------------------ */

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
    else if (g_ascii_strcasecmp (v, "project") == 0)
      {
        p->vary = TRUE;
        p->share = XRLAB_PARAM_SHARE_PROJECT;
      }
    else if (g_ascii_strcasecmp (v, "file") == 0)
      {
        p->vary = TRUE;
        p->share = XRLAB_PARAM_SHARE_FILE;
      }
    else
      {
        set_error (error, XRLAB_MODEL_ERROR_INVALID, file, items[1]->line,
                   _("model “%s”: parameter %s: vary (the second item) must be "
                     "True, False, static, project or file, found “%s”"),
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
gboolean
xrlab_model_collect_specs (const XrlabModelFile *file, const char *model_name, guint model_index,
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
void
xrlab_model_number_across_models (GArray *specs)
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
gboolean
xrlab_model_build_components (const GArray *specs, Context ctx, const char *file, XrlabParam *host,
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
