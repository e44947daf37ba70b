/* xrlab-model-doc.c -- a model as the documents of a model file, numbered as
 * the model reader numbers them, and read back by it (see
 * xrlab-model-doc-private.h)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-model-doc-private.h"
#include "xrlab-model-parse-private.h"
#include "xrlab-util.h"

#include <math.h>
#include <string.h>

/* ---- life cycle ------------------------------------------------------------------- */

DocComp *
xrlab_doc_comp_new (XrlabFn fn, const char *name)
{
  DocComp *c = g_new0 (DocComp, 1);
  const XrlabFnInfo *info = xrlab_fn_info (fn);

  c->fn = fn;
  c->name = g_strdup (name);
  c->n_params = info->n_params;
  for (guint q = 0; q < info->n_params; q++)
    {
      c->params[q].name = g_strdup (info->params[q]);
      c->params[q].min = -INFINITY;
      c->params[q].max = INFINITY;
    }
  return c;
}

void
xrlab_doc_comp_free (DocComp *c)
{
  if (c == NULL)
    return;
  for (guint q = 0; q < c->n_params; q++)
    {
      g_free (c->params[q].name);
      g_free (c->params[q].expr);
      g_free (c->params[q].file);
    }
  g_free (c->name);
  g_free (c->origin);
  g_free (c->file);
  g_free (c);
}

DocModel *
xrlab_doc_model_new (const char *name)
{
  DocModel *m = g_new0 (DocModel, 1);

  m->name = g_strdup (name);
  m->comps = g_ptr_array_new_with_free_func ((GDestroyNotify) xrlab_doc_comp_free);
  return m;
}

void
xrlab_doc_model_free (DocModel *m)
{
  if (m == NULL)
    return;
  g_free (m->name);
  g_ptr_array_unref (m->comps);
  g_free (m);
}

void
xrlab_doc_attach_free (DocAttach *a)
{
  if (a == NULL)
    return;
  g_free (a->host);
  g_free (a->file);
  g_ptr_array_unref (a->models);
  g_free (a);
}

void
xrlab_model_doc_free (XrlabModelDoc *doc)
{
  if (doc == NULL)
    return;
  g_free (doc->name);
  g_free (doc->file);
  xrlab_doc_model_free (doc->energy);
  g_ptr_array_unref (doc->profiles);
  g_ptr_array_unref (doc->dyns);
  g_free (doc);
}

/* ---- from a model ------------------------------------------------------------------ */

static DocComp *
comp_from_model (const XrlabComponent *c, const char *prefix)
{
  DocComp *d = xrlab_doc_comp_new (c->fn, c->name);

  d->origin = prefix ? g_strdup_printf ("%s_%s", prefix, c->name) : g_strdup (c->name);
  d->file = g_strdup (c->file);
  d->line = c->line;
  for (guint q = 0; q < c->n_params; q++)
    {
      const XrlabParam *p = c->params[q];
      DocParam *r = &d->params[q];

      r->value = p->value;
      r->min = p->min;
      r->max = p->max;
      r->vary = p->vary;
      r->is_static = p->is_static;
      r->share = p->share;
      r->expr = g_strdup (p->expr_text);
      r->file = g_strdup (p->file);
      r->line = p->line;
    }
  return d;
}

DocAttach *
xrlab_doc_attach_from_model (const XrlabAttachment *a)
{
  DocAttach *d = g_new0 (DocAttach, 1);

  d->profile = a->is_profile;
  d->host = g_strdup (a->host->name);
  d->file = g_strdup (a->file);
  d->frequency = a->frequency;
  d->models = g_ptr_array_new_with_free_func ((GDestroyNotify) xrlab_doc_model_free);
  for (guint k = 0; k < a->n_models; k++)
    {
      DocModel *m = xrlab_doc_model_new (a->models[k]);
      for (guint i = 0; i < a->comps->len; i++)
        {
          const XrlabComponent *c = g_ptr_array_index (a->comps, i);
          if ((guint) c->subcycle == k)
            g_ptr_array_add (m->comps, comp_from_model (c, d->host));
        }
      g_ptr_array_add (d->models, m);
    }
  return d;
}

XrlabModelDoc *
xrlab_model_doc_new (const XrlabModel *model)
{
  XrlabModelDoc *doc = g_new0 (XrlabModelDoc, 1);

  doc->name = g_strdup (model->name);
  doc->file = g_strdup (model->file);
  doc->energy = xrlab_doc_model_new (model->name);
  for (guint i = 0; i < model->comps->len; i++)
    g_ptr_array_add (doc->energy->comps, comp_from_model (g_ptr_array_index (model->comps, i),
                                                          NULL));
  doc->profiles = g_ptr_array_new_with_free_func ((GDestroyNotify) xrlab_doc_attach_free);
  doc->dyns = g_ptr_array_new_with_free_func ((GDestroyNotify) xrlab_doc_attach_free);
  for (guint i = 0; i < model->profiles->len; i++)
    g_ptr_array_add (doc->profiles,
                     xrlab_doc_attach_from_model (g_ptr_array_index (model->profiles, i)));
  for (guint i = 0; i < model->dyns->len; i++)
    g_ptr_array_add (doc->dyns, xrlab_doc_attach_from_model (g_ptr_array_index (model->dyns, i)));
  return doc;
}

DocAttach *
xrlab_model_doc_find_attach (XrlabModelDoc *doc, const char *host, gboolean profile)
{
  GPtrArray *list = profile ? doc->profiles : doc->dyns;

  for (guint i = 0; i < list->len; i++)
    {
      DocAttach *a = g_ptr_array_index (list, i);
      if (strcmp (a->host, host) == 0)
        return a;
    }
  return NULL;
}

const char *
xrlab_doc_param_vary (const DocParam *r)
{
  if (r->share == XRLAB_PARAM_SHARE_PROJECT)
    return "project";
  if (r->share == XRLAB_PARAM_SHARE_FILE)
    return "file";
  return r->is_static ? "static" : r->vary ? "True" : "False";
}

char *
xrlab_model_doc_param_name (const DocAttach *att, const DocComp *c, guint q)
{
  if (att == NULL)
    return g_strdup_printf ("%s_%s", c->name, c->params[q].name);
  return g_strdup_printf ("%s_%s_%s", att->host, c->name, c->params[q].name);
}

/* ---- identifiers of expressions ------------------------------------------------------ */

void
xrlab_expr_foreach_ident (const char *text, XrlabExprIdentFunc func, gpointer data)
{
  const char *p = text;

  while (*p)
    {
      if (g_ascii_isalpha (*p) || *p == '_')
        {
          const char *start = p;
          while (g_ascii_isalnum (*p) || *p == '_')
            p++;
          func (start, (gsize) (p - start), data);
        }
      else if (g_ascii_isdigit (*p) || *p == '.')
        {
          /* a number: digits, a point, an exponent with its sign */
          while (g_ascii_isalnum (*p) || *p == '.' || *p == '_'
                 || ((*p == '+' || *p == '-') && (p[-1] == 'e' || p[-1] == 'E')))
            p++;
        }
      else
        p++;
    }
}

typedef struct {
  GString *out;
  const char *last;          /* the end of what has been copied */
  GHashTable *maps[2];       /* old name -> new name, tried in order */
  gboolean changed;
} Rewrite;

static void
rewrite_ident (const char *start, gsize len, gpointer data)
{
  Rewrite *rw = data;
  g_autofree char *name = g_strndup (start, len);
  const char *to = NULL;

  for (int k = 0; k < 2 && to == NULL; k++)
    if (rw->maps[k] != NULL)
      to = g_hash_table_lookup (rw->maps[k], name);
  if (to == NULL)
    return;
  g_string_append_len (rw->out, rw->last, start - rw->last);
  g_string_append (rw->out, to);
  rw->last = start + len;
  rw->changed = TRUE;
}

/* @text with the names of @a (then @b) replaced, or NULL when none is. */
static char *
rewrite_expr (const char *text, GHashTable *a, GHashTable *b)
{
  Rewrite rw = { g_string_new (NULL), text, { a, b }, FALSE };

  xrlab_expr_foreach_ident (text, rewrite_ident, &rw);
  if (!rw.changed)
    {
      g_string_free (rw.out, TRUE);
      return NULL;
    }
  g_string_append (rw.out, rw.last);
  return g_string_free (rw.out, FALSE);
}

/* ---- numbering --------------------------------------------------------------------- */

static gboolean
fn_numbered (XrlabFn fn)
{
  XrlabFnClass c = xrlab_fn_info (fn)->cls;
  return c != XRLAB_FN_CLASS_BACKGROUND && c != XRLAB_FN_CLASS_KERNEL;
}

static char *
numbered_name (XrlabFn fn, int number)
{
  const char *fn_name = xrlab_fn_info (fn)->name;
  return number > 0 ? g_strdup_printf ("%s_%02d", fn_name, number) : g_strdup (fn_name);
}

/* The names the reader gives the components of @models (one list, or the
 * models of one time dependence numbered across), in order. */
static GPtrArray *
number_models (GPtrArray *models)
{
  g_autoptr(GArray) specs = g_array_new (FALSE, TRUE, sizeof (CompSpec));
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);

  for (guint k = 0; k < models->len; k++)
    {
      const DocModel *m = g_ptr_array_index (models, k);
      int counts[XRLAB_FN_COUNT] = { 0 };

      for (guint i = 0; i < m->comps->len; i++)
        {
          const DocComp *c = g_ptr_array_index (m->comps, i);
          CompSpec s = { .fn = c->fn, .model_index = k };
          s.number = fn_numbered (c->fn) ? ++counts[c->fn] : -1;
          g_array_append_val (specs, s);
        }
    }
  if (models->len > 1)
    xrlab_model_number_across_models (specs);
  for (guint i = 0; i < specs->len; i++)
    {
      const CompSpec *s = &g_array_index (specs, CompSpec, i);
      g_ptr_array_add (names, numbered_name (s->fn, s->number));
    }
  return names;
}

static void
map_add (GHashTable *map, char *from, char *to)
{
  if (strcmp (from, to) == 0)
    {
      g_free (from);
      g_free (to);
      return;
    }
  g_hash_table_replace (map, from, to);
}

/* Renames the components of @models to @names, recording old -> new of
 * the components and parameters in @local (names in the list) and @full
 * (full names, with @old_host / @new_host in front; NULL: the energy
 * model). */
static void
rename_comps (GPtrArray *models, GPtrArray *names, const char *old_host, const char *new_host,
              GHashTable *local, GHashTable *full)
{
  guint n = 0;

  for (guint k = 0; k < models->len; k++)
    {
      DocModel *m = g_ptr_array_index (models, k);
      for (guint i = 0; i < m->comps->len; i++)
        {
          DocComp *c = g_ptr_array_index (m->comps, i);
          const char *to = g_ptr_array_index (names, n++);

          if (old_host == NULL)
            map_add (full, g_strdup (c->name), g_strdup (to));
          else
            {
              map_add (local, g_strdup (c->name), g_strdup (to));
              map_add (full, g_strdup_printf ("%s_%s", old_host, c->name),
                       g_strdup_printf ("%s_%s", new_host, to));
            }
          for (guint q = 0; q < c->n_params; q++)
            {
              const char *pn = c->params[q].name;
              if (old_host == NULL)
                map_add (full, g_strdup_printf ("%s_%s", c->name, pn),
                         g_strdup_printf ("%s_%s", to, pn));
              else
                {
                  map_add (local, g_strdup_printf ("%s_%s", c->name, pn),
                           g_strdup_printf ("%s_%s", to, pn));
                  map_add (full, g_strdup_printf ("%s_%s_%s", old_host, c->name, pn),
                           g_strdup_printf ("%s_%s_%s", new_host, to, pn));
                }
            }
          g_free (c->name);
          c->name = g_strdup (to);
        }
    }
}

/* The name a model made by an edit has: after its host, and its subcycle. */
static char *
auto_model_name (const char *host, gboolean profile, guint k)
{
  if (profile)
    return g_strdup_printf ("%s_profile", host);
  return k == 0 ? g_strdup_printf ("%s_time", host) : g_strdup_printf ("%s_time_%u", host, k);
}

static gboolean
is_auto_model_name (const char *name, const char *host, gboolean profile)
{
  gsize n = strlen (host);
  const char *rest;

  if (strncmp (name, host, n) != 0)
    return FALSE;
  rest = name + n;
  if (profile)
    return strcmp (rest, "_profile") == 0;
  if (strcmp (rest, "_time") == 0)
    return TRUE;
  if (!g_str_has_prefix (rest, "_time_") || rest[6] == '\0')
    return FALSE;
  for (rest += 6; *rest; rest++)
    if (!g_ascii_isdigit (*rest))
      return FALSE;
  return TRUE;
}

static void
rewrite_params (GPtrArray *models, GHashTable *local, GHashTable *full)
{
  for (guint k = 0; k < models->len; k++)
    {
      DocModel *m = g_ptr_array_index (models, k);
      for (guint i = 0; i < m->comps->len; i++)
        {
          DocComp *c = g_ptr_array_index (m->comps, i);
          for (guint q = 0; q < c->n_params; q++)
            {
              DocParam *r = &c->params[q];
              char *to = r->expr ? rewrite_expr (r->expr, local, full) : NULL;
              if (to != NULL)
                {
                  g_free (r->expr);
                  r->expr = to;
                }
            }
        }
    }
}

void
xrlab_model_doc_renumber (XrlabModelDoc *doc)
{
  g_autoptr(GHashTable) full = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GPtrArray) energy_models = g_ptr_array_new ();
  g_autoptr(GPtrArray) names = NULL;
  GPtrArray *lists[2] = { doc->profiles, doc->dyns };
  GPtrArray *locals = g_ptr_array_new_with_free_func ((GDestroyNotify) g_hash_table_unref);

  g_ptr_array_add (energy_models, doc->energy);
  names = number_models (energy_models);
  rename_comps (energy_models, names, NULL, NULL, NULL, full);

  /* profiles first: the time dependence of a profile's parameter is named
   * after it */
  for (int l = 0; l < 2; l++)
    for (guint i = 0; i < lists[l]->len; i++)
      {
        DocAttach *a = g_ptr_array_index (lists[l], i);
        GHashTable *local = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
        const char *renamed = g_hash_table_lookup (full, a->host);
        g_autofree char *old_host = g_strdup (a->host);
        g_autoptr(GPtrArray) att_names = number_models (a->models);

        if (renamed != NULL)
          {
            g_free (a->host);
            a->host = g_strdup (renamed);
          }
        rename_comps (a->models, att_names, old_host, a->host, local, full);
        for (guint k = 0; k < a->models->len; k++)
          {
            DocModel *m = g_ptr_array_index (a->models, k);
            if (is_auto_model_name (m->name, old_host, a->profile))
              {
                g_free (m->name);
                m->name = auto_model_name (a->host, a->profile, k);
              }
          }
        g_ptr_array_add (locals, local);
      }

  /* every expression follows, once all the names are known */
  rewrite_params (energy_models, NULL, full);
  for (int l = 0, n = 0; l < 2; l++)
    for (guint i = 0; i < lists[l]->len; i++, n++)
      rewrite_params (((DocAttach *) g_ptr_array_index (lists[l], i))->models,
                      g_ptr_array_index (locals, n), full);
  g_ptr_array_unref (locals);
}

/* ---- equality and names in a file ------------------------------------------------------ */

static gboolean
same_double (double a, double b)
{
  return memcmp (&a, &b, sizeof a) == 0;
}

gboolean
xrlab_doc_model_equal (const DocModel *a, const DocModel *b)
{
  if (a->comps->len != b->comps->len)
    return FALSE;
  for (guint i = 0; i < a->comps->len; i++)
    {
      const DocComp *x = g_ptr_array_index (a->comps, i);
      const DocComp *y = g_ptr_array_index (b->comps, i);

      if (x->fn != y->fn)
        return FALSE;
      for (guint q = 0; q < x->n_params; q++)
        {
          const DocParam *r = &x->params[q], *s = &y->params[q];
          if (g_strcmp0 (r->expr, s->expr) != 0)
            return FALSE;
          if (r->expr == NULL
              && (!same_double (r->value, s->value) || !same_double (r->min, s->min)
                  || !same_double (r->max, s->max) || r->vary != s->vary
                  || r->is_static != s->is_static || r->share != s->share))
            return FALSE;
        }
    }
  return TRUE;
}

char **
xrlab_model_doc_unique_names (const DocAttach *att, GHashTable *written)
{
  char **names = g_new0 (char *, att->models->len + 1);

  for (guint k = 0; k < att->models->len; k++)
    {
      const DocModel *m = g_ptr_array_index (att->models, k);
      g_autofree char *name = g_strdup (m->name);
      const DocModel *there;

      for (guint n = 2; (there = g_hash_table_lookup (written, name)) != NULL
                        && !xrlab_doc_model_equal (there, m); n++)
        {
          g_free (name);
          name = g_strdup_printf ("%s_%u", m->name, n);
        }
      if (there == NULL)
        g_hash_table_insert (written, g_strdup (name), (gpointer) m);
      names[k] = g_steal_pointer (&name);
    }
  return names;
}

/* ---- back to a model ------------------------------------------------------------------ */

static XrlabYNode *
ynode (XrlabYNodeKind kind, const char *text, gboolean plain)
{
  XrlabYNode *n = g_new0 (XrlabYNode, 1);

  n->kind = kind;
  n->text = g_strdup (text);
  n->plain = plain;
  if (kind != XRLAB_YN_SCALAR)
    n->kids = g_ptr_array_new_with_free_func ((GDestroyNotify) xrlab_ynode_free);
  return n;
}

static void
ynode_add_number (XrlabYNode *seq, double x)
{
  char buf[XRLAB_DTOA_BUFSIZE];

  g_ptr_array_add (seq->kids, ynode (XRLAB_YN_SCALAR, xrlab_format_double (x, buf), TRUE));
}

static XrlabYNode *
param_node (const DocParam *r)
{
  XrlabYNode *seq = ynode (XRLAB_YN_SEQ, NULL, FALSE);

  if (r->expr != NULL)
    {
      g_ptr_array_add (seq->kids, ynode (XRLAB_YN_SCALAR, r->expr, FALSE));
      return seq;
    }
  ynode_add_number (seq, r->value);
  g_ptr_array_add (seq->kids, ynode (XRLAB_YN_SCALAR, xrlab_doc_param_vary (r), TRUE));
  if (isfinite (r->min) || isfinite (r->max))
    {
      ynode_add_number (seq, r->min);
      ynode_add_number (seq, r->max);
    }
  return seq;
}

static XrlabYNode *
model_node (const DocModel *m)
{
  XrlabYNode *map = ynode (XRLAB_YN_MAP, NULL, FALSE);

  for (guint i = 0; i < m->comps->len; i++)
    {
      const DocComp *c = g_ptr_array_index (m->comps, i);
      XrlabYNode *params = ynode (XRLAB_YN_MAP, NULL, FALSE);

      g_ptr_array_add (map->kids, ynode (XRLAB_YN_SCALAR, xrlab_fn_info (c->fn)->name, TRUE));
      for (guint q = 0; q < c->n_params; q++)
        {
          g_ptr_array_add (params->kids, ynode (XRLAB_YN_SCALAR, c->params[q].name, TRUE));
          g_ptr_array_add (params->kids, param_node (&c->params[q]));
        }
      g_ptr_array_add (map->kids, params);
    }
  return map;
}

static XrlabModelFile *
file_new (const char *path)
{
  XrlabModelFile *f = g_new0 (XrlabModelFile, 1);

  f->path = g_strdup (path);
  f->root = ynode (XRLAB_YN_MAP, NULL, FALSE);
  return f;
}

static void
file_add_model (XrlabModelFile *f, const char *name, const DocModel *m)
{
  g_ptr_array_add (f->root->kids, ynode (XRLAB_YN_SCALAR, name, TRUE));
  g_ptr_array_add (f->root->kids, model_node (m));
}

static void
set_str (char **field, const char *value)
{
  if (g_strcmp0 (*field, value) == 0)
    return;
  g_free (*field);
  *field = g_strdup (value);
}

/* Gives the components of @comps (from @from on) and their parameters the
 * files and lines of @dm's, and expressions the value and bounds they had
 * (a file does not hold them). Returns the index after the last. */
static guint
restore_comps (GPtrArray *comps, guint from, const DocModel *dm)
{
  for (guint i = 0; i < dm->comps->len && from < comps->len; i++, from++)
    {
      const DocComp *d = g_ptr_array_index (dm->comps, i);
      XrlabComponent *c = g_ptr_array_index (comps, from);

      if (d->file != NULL)
        {
          set_str (&c->file, d->file);
          c->line = d->line;
        }
      for (guint q = 0; q < c->n_params && q < d->n_params; q++)
        {
          XrlabParam *p = c->params[q];
          const DocParam *r = &d->params[q];

          if (r->file != NULL)
            {
              set_str (&p->file, r->file);
              p->line = r->line;
            }
          if (p->expr != NULL)
            {
              p->value = r->value;
              p->min = r->min;
              p->max = r->max;
            }
        }
    }
  return from;
}

static void
restore_attach (XrlabAttachment *a, const DocAttach *d)
{
  guint next = 0;

  for (guint k = 0; k < d->models->len; k++)
    next = restore_comps (a->comps, next, g_ptr_array_index (d->models, k));
}

static gboolean
doc_attach (XrlabModel *model, const XrlabModelDoc *doc, const DocAttach *a, GError **error)
{
  g_autoptr(GHashTable) written = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_auto(GStrv) names = xrlab_model_doc_unique_names (a, written);
  g_autoptr(XrlabModelFile) file = file_new (a->file ? a->file : doc->file);
  g_autoptr(GHashTable) added = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint k = 0; k < a->models->len; k++)
    if (g_hash_table_add (added, names[k]))
      file_add_model (file, names[k], g_ptr_array_index (a->models, k));
  if (a->profile)
    return xrlab_model_add_profile_from_file (model, a->host, file, names[0], error);
  return xrlab_model_add_dynamics_from_file (model, a->host, file, (const char *const *) names,
                                             a->models->len, a->frequency, error);
}

XrlabModel *
xrlab_model_doc_build (const XrlabModelDoc *doc, gboolean complete, GError **error)
{
  g_autoptr(XrlabModelFile) file = file_new (doc->file);
  g_autoptr(XrlabModel) model = NULL;
  const GPtrArray *lists[2] = { doc->profiles, doc->dyns };

  file_add_model (file, doc->name, doc->energy);
  model = xrlab_model_new (file, doc->name, error);
  if (model == NULL)
    return NULL;
  for (int l = 0; l < 2; l++)
    for (guint i = 0; i < lists[l]->len; i++)
      if (!doc_attach (model, doc, g_ptr_array_index (lists[l], i), error))
        return NULL;
  if (complete && !xrlab_model_resolve (model, error))
    return NULL;

  restore_comps (model->comps, 0, doc->energy);
  for (int l = 0; l < 2; l++)
    {
      GPtrArray *atts = l == 0 ? model->profiles : model->dyns;
      for (guint i = 0; i < lists[l]->len && i < atts->len; i++)
        {
          const DocAttach *d = g_ptr_array_index (lists[l], i);
          XrlabAttachment *a = g_ptr_array_index (atts, i);
          restore_attach (a, d);
          set_str (&a->file, d->file ? d->file : doc->file);
        }
    }
  return g_steal_pointer (&model);
}
