/* xrlab-model-edit.c -- structure edits of a model: applied to its document
 * (xrlab-model-doc-private.h), renumbered, and read back by the model
 * reader, all or nothing (see xrlab-model-edit.h)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-model-doc-private.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#define EDIT_ERROR(error, ...) \
  g_set_error (error, XRLAB_MODEL_ERROR, XRLAB_MODEL_ERROR_INVALID, __VA_ARGS__)

/* ---- finding things in the document -------------------------------------------------- */

typedef struct {
  DocAttach *att;             /* NULL: the energy model */
  DocModel *model;
  guint index;
} CompPlace;

static char *
comp_full_name (const DocAttach *att, const DocComp *c)
{
  return att ? g_strdup_printf ("%s_%s", att->host, c->name) : g_strdup (c->name);
}

static gboolean
find_in_model (DocAttach *att, DocModel *m, const char *full, CompPlace *place)
{
  for (guint i = 0; i < m->comps->len; i++)
    {
      g_autofree char *name = comp_full_name (att, g_ptr_array_index (m->comps, i));
      if (strcmp (name, full) == 0)
        {
          *place = (CompPlace) { att, m, i };
          return TRUE;
        }
    }
  return FALSE;
}

static gboolean
find_comp (XrlabModelDoc *doc, const char *full, CompPlace *place, GError **error)
{
  GPtrArray *lists[2] = { doc->profiles, doc->dyns };

  if (full != NULL && find_in_model (NULL, doc->energy, full, place))
    return TRUE;
  for (int l = 0; l < 2 && full != NULL; l++)
    for (guint i = 0; i < lists[l]->len; i++)
      {
        DocAttach *a = g_ptr_array_index (lists[l], i);
        for (guint k = 0; k < a->models->len; k++)
          if (find_in_model (a, g_ptr_array_index (a->models, k), full, place))
            return TRUE;
      }
  EDIT_ERROR (error, _("model “%s”: there is no component %s"), doc->name,
              full ? full : "(null)");
  return FALSE;
}

static gboolean
comp_has_param (const DocAttach *att, const DocComp *c, const char *name)
{
  for (guint q = 0; q < c->n_params; q++)
    {
      g_autofree char *full = xrlab_model_doc_param_name (att, c, q);
      if (strcmp (full, name) == 0)
        return TRUE;
    }
  return FALSE;
}

/* Whether @name is a parameter of the model (of the energy model or of an
 * attachment). */
static gboolean
param_exists (XrlabModelDoc *doc, const char *name)
{
  GPtrArray *lists[2] = { doc->profiles, doc->dyns };

  for (guint i = 0; i < doc->energy->comps->len; i++)
    if (comp_has_param (NULL, g_ptr_array_index (doc->energy->comps, i), name))
      return TRUE;
  for (int l = 0; l < 2; l++)
    for (guint i = 0; i < lists[l]->len; i++)
      {
        DocAttach *a = g_ptr_array_index (lists[l], i);
        for (guint k = 0; k < a->models->len; k++)
          {
            DocModel *am = g_ptr_array_index (a->models, k);
            for (guint j = 0; j < am->comps->len; j++)
              if (comp_has_param (a, g_ptr_array_index (am->comps, j), name))
                return TRUE;
          }
      }
  return FALSE;
}

/* ---- who names what ---------------------------------------------------------------- */

typedef struct {
  GHashTable *names;          /* the names that go */
  const char *found;
} IdentCheck;

static void
check_ident (const char *start, gsize len, gpointer data)
{
  IdentCheck *ic = data;
  g_autofree char *name = g_strndup (start, len);
  const char *orig;

  if (ic->found == NULL && g_hash_table_lookup_extended (ic->names, name, (gpointer *) &orig,
                                                         NULL))
    ic->found = orig;
}

/* Adds the full (and, in an attachment, local) names of @c's parameters to
 * @names. */
static void
add_param_names (GHashTable *names, const DocAttach *att, const DocComp *c)
{
  for (guint q = 0; q < c->n_params; q++)
    {
      g_hash_table_add (names, xrlab_model_doc_param_name (att, c, q));
      if (att != NULL)
        g_hash_table_add (names, g_strdup_printf ("%s_%s", c->name, c->params[q].name));
    }
}

static void
add_attach_names (GHashTable *names, const DocAttach *a)
{
  for (guint k = 0; k < a->models->len; k++)
    {
      const DocModel *m = g_ptr_array_index (a->models, k);
      for (guint i = 0; i < m->comps->len; i++)
        add_param_names (names, a, g_ptr_array_index (m->comps, i));
    }
}

/* The first parameter outside @skip (components that go) whose expression
 * names one of @names: its full name (g_free), or NULL. */
static char *
named_by (XrlabModelDoc *doc, GHashTable *names, GHashTable *skip)
{
  GPtrArray *lists[2] = { doc->profiles, doc->dyns };

  for (int l = -1; l < 2; l++)
    for (guint i = 0; i < (l < 0 ? 1 : lists[l]->len); i++)
      {
        DocAttach *a = l < 0 ? NULL : g_ptr_array_index (lists[l], i);
        GPtrArray *models = a ? a->models : NULL;
        guint n_models = a ? models->len : 1;

        for (guint k = 0; k < n_models; k++)
          {
            DocModel *m = a ? g_ptr_array_index (models, k) : doc->energy;
            for (guint j = 0; j < m->comps->len; j++)
              {
                DocComp *c = g_ptr_array_index (m->comps, j);
                if (g_hash_table_contains (skip, c))
                  continue;
                for (guint q = 0; q < c->n_params; q++)
                  {
                    IdentCheck ic = { names, NULL };
                    if (c->params[q].expr == NULL)
                      continue;
                    xrlab_expr_foreach_ident (c->params[q].expr, check_ident, &ic);
                    if (ic.found != NULL)
                      return xrlab_model_doc_param_name (a, c, q);
                  }
              }
          }
      }
  return NULL;
}

static void
skip_attach (GHashTable *skip, const DocAttach *a)
{
  for (guint k = 0; k < a->models->len; k++)
    {
      const DocModel *m = g_ptr_array_index (a->models, k);
      for (guint i = 0; i < m->comps->len; i++)
        g_hash_table_add (skip, g_ptr_array_index (m->comps, i));
    }
}

/* Adds to @out the attachments hosted by the parameters of @c, and theirs
 * (the time dependence of a profile's parameters). */
static void
add_hosted (XrlabModelDoc *doc, const DocAttach *att, const DocComp *c, GPtrArray *out)
{
  GPtrArray *lists[2] = { doc->profiles, doc->dyns };

  for (guint q = 0; q < c->n_params; q++)
    {
      g_autofree char *full = xrlab_model_doc_param_name (att, c, q);
      for (int l = 0; l < 2; l++)
        for (guint i = 0; i < lists[l]->len; i++)
          {
            DocAttach *a = g_ptr_array_index (lists[l], i);
            if (strcmp (a->host, full) == 0 && !g_ptr_array_find (out, a, NULL))
              {
                g_ptr_array_add (out, a);
                for (guint k = 0; k < a->models->len; k++)
                  {
                    DocModel *m = g_ptr_array_index (a->models, k);
                    for (guint j = 0; j < m->comps->len; j++)
                      add_hosted (doc, a, g_ptr_array_index (m->comps, j), out);
                  }
              }
          }
    }
}

static GPtrArray *
hosted_by (XrlabModelDoc *doc, const DocAttach *att, const DocComp *c)
{
  GPtrArray *out = g_ptr_array_new ();

  add_hosted (doc, att, c, out);
  return out;
}

/* ---- components ---------------------------------------------------------------------- */

static const XrlabModelParamRow *
find_row (const XrlabModelParamRow *rows, gsize n, const char *name)
{
  for (gsize i = 0; i < n; i++)
    if (rows[i].name != NULL && strcmp (rows[i].name, name) == 0)
      return &rows[i];
  return NULL;
}

static void
set_row (DocParam *r, const XrlabModelParamRow *row)
{
  g_clear_pointer (&r->expr, g_free);
  r->value = row->value;
  r->vary = row->vary && !row->is_static;
  r->is_static = row->is_static;
  r->share = XRLAB_PARAM_SHARE_NONE;
  r->min = isnan (row->min) ? -INFINITY : row->min;
  r->max = isnan (row->max) ? INFINITY : row->max;
  r->expr = row->expr && *row->expr ? g_strdup (row->expr) : NULL;
}

/* A component of @function with the palette's rows and those of @rows. */
static DocComp *
new_comp (const char *function, const XrlabModelParamRow *rows, gsize n_rows, GError **error)
{
  const XrlabModelPaletteEntry *e = xrlab_model_palette_find (function);
  XrlabFn fn;
  DocComp *c;

  if (e == NULL || !xrlab_fn_lookup (function, &fn))
    {
      EDIT_ERROR (error, _("There is no function “%s”"), function ? function : "(null)");
      return NULL;
    }
  c = xrlab_doc_comp_new (fn, e->name);
  for (guint q = 0; q < c->n_params; q++)
    {
      const XrlabModelParamRow *row = find_row (rows, n_rows, c->params[q].name);
      set_row (&c->params[q], row ? row : &e->params[q]);
    }
  for (gsize i = 0; i < n_rows; i++)
    if (rows[i].name == NULL || find_row (e->params, e->n_params, rows[i].name) == NULL)
      {
        g_autofree char *list = xrlab_fn_list_params (fn);
        EDIT_ERROR (error, _("%s has no parameter “%s” (its parameters: %s)"), e->name,
                    rows[i].name ? rows[i].name : "(null)", list);
        xrlab_doc_comp_free (c);
        return NULL;
      }
  return c;
}

static gboolean
kind_fits (XrlabModelPart part, XrlabFn fn)
{
  XrlabFnClass c = xrlab_fn_info (fn)->cls;

  switch (part)
    {
    case XRLAB_MODEL_PART_ENERGY:
      return c == XRLAB_FN_CLASS_PEAK || c == XRLAB_FN_CLASS_BACKGROUND;
    case XRLAB_MODEL_PART_DYNAMICS:
      return c == XRLAB_FN_CLASS_TIME || c == XRLAB_FN_CLASS_KERNEL || c == XRLAB_FN_CLASS_NONE;
    case XRLAB_MODEL_PART_PROFILE:
      return c == XRLAB_FN_CLASS_PROFILE;
    default:
      return FALSE;
    }
}

static void
insert_comp (DocModel *m, DocComp *c, gssize position)
{
  XrlabFnClass cls = xrlab_fn_info (c->fn)->cls;
  guint at;

  if (position < 0)
    at = (cls == XRLAB_FN_CLASS_BACKGROUND || cls == XRLAB_FN_CLASS_KERNEL) ? 0 : m->comps->len;
  else
    at = MIN ((guint) position, m->comps->len);
  g_ptr_array_insert (m->comps, at, c);
}

static DocAttach *
attach_new (XrlabModelDoc *doc, const char *host, gboolean profile)
{
  DocAttach *a = g_new0 (DocAttach, 1);

  a->profile = profile;
  a->host = g_strdup (host);
  a->models = g_ptr_array_new_with_free_func ((GDestroyNotify) xrlab_doc_model_free);
  g_ptr_array_add (profile ? doc->profiles : doc->dyns, a);
  return a;
}

static char *
model_name_for (const char *host, gboolean profile, guint k, const char *name)
{
  if (name != NULL && *name)
    return g_strdup (name);
  if (profile)
    return g_strdup_printf ("%s_profile", host);
  return k == 0 ? g_strdup_printf ("%s_time", host) : g_strdup_printf ("%s_time_%u", host, k);
}

/* The host of an attachment: an energy parameter (or, for time dependence,
 * a profile's), with none of @profile's kind yet when @fresh. */
static gboolean
check_host (XrlabModelDoc *doc, const char *param, gboolean profile, gboolean fresh,
            GError **error)
{
  if (param == NULL || !param_exists (doc, param))
    {
      EDIT_ERROR (error, _("model “%s”: there is no parameter %s"), doc->name,
                  param ? param : "(null)");
      return FALSE;
    }
  if (fresh && xrlab_model_doc_find_attach (doc, param, profile) != NULL)
    {
      EDIT_ERROR (error, profile ? _("%s has a profile already; detach it first")
                                 : _("%s has time dependence already; detach it first"),
                  param);
      return FALSE;
    }
  return TRUE;
}

static gboolean
edit_add (XrlabModelDoc *doc, const XrlabModelEdit *e, GPtrArray *added, GError **error)
{
  gboolean profile = e->part == XRLAB_MODEL_PART_PROFILE;
  DocComp *c = new_comp (e->function, e->rows, e->n_rows, error);
  DocModel *m = doc->energy;

  if (c == NULL)
    return FALSE;
  if (!kind_fits (e->part, c->fn))
    {
      EDIT_ERROR (error, e->part == XRLAB_MODEL_PART_ENERGY
                         ? _("%s is not a function of an energy model")
                         : e->part == XRLAB_MODEL_PART_PROFILE
                         ? _("%s is not a profile function")
                         : _("%s is not a function of a time model"),
                  e->function);
      xrlab_doc_comp_free (c);
      return FALSE;
    }
  if (e->part != XRLAB_MODEL_PART_ENERGY)
    {
      DocAttach *a;

      if (!check_host (doc, e->param, profile, FALSE, error))
        {
          xrlab_doc_comp_free (c);
          return FALSE;
        }
      a = xrlab_model_doc_find_attach (doc, e->param, profile);
      if (a == NULL)
        {
          DocModel *m0 = xrlab_doc_model_new (NULL);

          m0->name = model_name_for (e->param, profile, 0, NULL);
          a = attach_new (doc, e->param, profile);
          g_ptr_array_add (a->models, m0);
        }
      if (e->subcycle >= a->models->len)
        {
          EDIT_ERROR (error, _("The time dependence of %s has no subcycle %u"), e->param,
                      e->subcycle);
          xrlab_doc_comp_free (c);
          return FALSE;
        }
      m = g_ptr_array_index (a->models, e->subcycle);
    }
  insert_comp (m, c, e->position);
  g_ptr_array_add (added, c);
  return TRUE;
}

static gboolean
edit_remove (XrlabModelDoc *doc, const XrlabModelEdit *e, GError **error)
{
  g_autoptr(GHashTable) names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) skip = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr(GPtrArray) hosted = NULL;
  g_autofree char *who = NULL;
  CompPlace at;
  DocComp *c;

  if (!find_comp (doc, e->component, &at, error))
    return FALSE;
  c = g_ptr_array_index (at.model->comps, at.index);
  hosted = hosted_by (doc, at.att, c);
  add_param_names (names, at.att, c);
  g_hash_table_add (skip, c);
  for (guint i = 0; i < hosted->len; i++)
    {
      add_attach_names (names, g_ptr_array_index (hosted, i));
      skip_attach (skip, g_ptr_array_index (hosted, i));
    }
  if ((who = named_by (doc, names, skip)) != NULL)
    {
      EDIT_ERROR (error, _("%s cannot be removed: the expression of %s names its parameters"),
                  e->component, who);
      return FALSE;
    }
  for (guint i = 0; i < hosted->len; i++)
    {
      DocAttach *a = g_ptr_array_index (hosted, i);
      g_ptr_array_remove (a->profile ? doc->profiles : doc->dyns, a);
    }
  g_ptr_array_remove_index (at.model->comps, at.index);
  /* the last component of a time or profile model: the attachment goes
   * when that was all it had, an emptied subcycle becomes "none" */
  if (at.att != NULL && at.model->comps->len == 0)
    {
      if (at.att->models->len == 1)
        g_ptr_array_remove (at.att->profile ? doc->profiles : doc->dyns, at.att);
      else
        g_ptr_array_add (at.model->comps, xrlab_doc_comp_new (XRLAB_FN_NONE, "none"));
    }
  return TRUE;
}

static gboolean
edit_move (XrlabModelDoc *doc, const XrlabModelEdit *e, GError **error)
{
  CompPlace at;
  DocComp *c;

  if (!find_comp (doc, e->component, &at, error))
    return FALSE;
  c = g_ptr_array_steal_index (at.model->comps, at.index);
  if (e->position < 0 || (guint) e->position >= at.model->comps->len)
    g_ptr_array_add (at.model->comps, c);
  else
    g_ptr_array_insert (at.model->comps, e->position, c);
  return TRUE;
}

/* ---- attachments ------------------------------------------------------------------------ */

static gboolean
edit_attach_file (XrlabModelDoc *doc, const XrlabModelEdit *e, GError **error)
{
  gboolean profile = e->part == XRLAB_MODEL_PART_PROFILE;
  g_autoptr(XrlabModel) model = NULL;
  GPtrArray *list;
  gboolean ok;

  if (!check_host (doc, e->param, profile, TRUE, error))
    return FALSE;
  if (e->file == NULL || e->models == NULL || e->n_models == 0)
    {
      EDIT_ERROR (error, _("The attachment to %s names no file or model"), e->param);
      return FALSE;
    }
  /* the reader attaches it to the model as it stands */
  if ((model = xrlab_model_doc_build (doc, FALSE, error)) == NULL)
    return FALSE;
  if (profile)
    ok = xrlab_model_add_profile (model, e->param, e->file, e->models[0], error);
  else
    ok = xrlab_model_add_dynamics (model, e->param, e->file, e->models, e->n_models,
                                   e->frequency, error);
  if (!ok)
    return FALSE;
  list = profile ? model->profiles : model->dyns;
  g_ptr_array_add (profile ? doc->profiles : doc->dyns,
                   xrlab_doc_attach_from_model (g_ptr_array_index (list, list->len - 1)));
  return TRUE;
}

static DocModel *
model_of_functions (const XrlabModelEdit *e, XrlabModelPart part, char *name, GPtrArray *added,
                    GError **error)
{
  DocModel *m = xrlab_doc_model_new (NULL);

  m->name = name;
  for (gsize i = 0; i < e->n_functions; i++)
    {
      DocComp *c = new_comp (e->functions[i], NULL, 0, error);
      if (c == NULL || !kind_fits (part, c->fn))
        {
          if (c != NULL)
            EDIT_ERROR (error, part == XRLAB_MODEL_PART_PROFILE
                               ? _("%s is not a profile function")
                               : _("%s is not a function of a time model"),
                        e->functions[i]);
          xrlab_doc_comp_free (c);
          xrlab_doc_model_free (m);
          return NULL;
        }
      g_ptr_array_add (m->comps, c);
      g_ptr_array_add (added, c);
    }
  if (m->comps->len == 0 && part == XRLAB_MODEL_PART_DYNAMICS)
    g_ptr_array_add (m->comps, xrlab_doc_comp_new (XRLAB_FN_NONE, "none"));
  return m;
}

static gboolean
edit_attach_new (XrlabModelDoc *doc, const XrlabModelEdit *e, GPtrArray *added,
                 GError **error)
{
  gboolean profile = e->part == XRLAB_MODEL_PART_PROFILE;
  DocModel *m;

  if (!check_host (doc, e->param, profile, TRUE, error))
    return FALSE;
  if (e->n_functions == 0 || e->functions == NULL)
    {
      EDIT_ERROR (error, _("The new model of %s has no functions"), e->param);
      return FALSE;
    }
  m = model_of_functions (e, e->part, model_name_for (e->param, profile, 0, e->name), added,
                          error);
  if (m == NULL)
    return FALSE;
  g_ptr_array_add (attach_new (doc, e->param, profile)->models, m);
  return TRUE;
}

static DocAttach *
find_attach (XrlabModelDoc *doc, const XrlabModelEdit *e, gboolean profile, GError **error)
{
  DocAttach *a = e->param ? xrlab_model_doc_find_attach (doc, e->param, profile) : NULL;

  if (a == NULL)
    EDIT_ERROR (error, profile ? _("%s has no profile") : _("%s has no time dependence"),
                e->param ? e->param : "(null)");
  return a;
}

static gboolean
edit_detach (XrlabModelDoc *doc, const XrlabModelEdit *e, GError **error)
{
  gboolean profile = e->part == XRLAB_MODEL_PART_PROFILE;
  g_autoptr(GHashTable) names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) skip = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr(GPtrArray) gone = g_ptr_array_new ();
  g_autofree char *who = NULL;
  DocAttach *a = find_attach (doc, e, profile, error);

  if (a == NULL)
    return FALSE;
  g_ptr_array_add (gone, a);
  for (guint k = 0; k < a->models->len; k++)
    {
      DocModel *m = g_ptr_array_index (a->models, k);
      for (guint j = 0; j < m->comps->len; j++)
        add_hosted (doc, a, g_ptr_array_index (m->comps, j), gone);
    }
  for (guint i = 0; i < gone->len; i++)
    {
      add_attach_names (names, g_ptr_array_index (gone, i));
      skip_attach (skip, g_ptr_array_index (gone, i));
    }
  if ((who = named_by (doc, names, skip)) != NULL)
    {
      EDIT_ERROR (error, profile ? _("The profile of %s cannot be detached: the expression "
                                     "of %s names its parameters")
                                 : _("The time dependence of %s cannot be detached: the "
                                     "expression of %s names its parameters"),
                  e->param, who);
      return FALSE;
    }
  for (guint i = 0; i < gone->len; i++)
    {
      DocAttach *g = g_ptr_array_index (gone, i);
      g_ptr_array_remove (g->profile ? doc->profiles : doc->dyns, g);
    }
  return TRUE;
}

static gboolean
edit_subcycles (XrlabModelDoc *doc, const XrlabModelEdit *e, GPtrArray *added,
                GError **error)
{
  DocAttach *a = find_attach (doc, e, FALSE, error);
  double frequency = e->frequency > 0 ? e->frequency : a ? a->frequency : 0;

  if (a == NULL)
    return FALSE;
  if (e->kind == XRLAB_MODEL_EDIT_ADD_SUBCYCLE)
    {
      guint n = a->models->len;
      guint at = e->position < 1 || (guint) e->position > n ? n : (guint) e->position;
      DocModel *m;

      if (!(frequency > 0))
        {
          EDIT_ERROR (error, _("The subcycles of %s need a frequency > 0"), e->param);
          return FALSE;
        }
      if ((m = model_of_functions (e, XRLAB_MODEL_PART_DYNAMICS,
                                   model_name_for (a->host, FALSE, at, e->name), added,
                                   error)) == NULL)
        return FALSE;
      g_ptr_array_insert (a->models, at, m);
      a->frequency = frequency;
      return TRUE;
    }
  if (e->kind == XRLAB_MODEL_EDIT_REMOVE_SUBCYCLE)
    {
      if (e->subcycle < 1 || e->subcycle >= a->models->len)
        {
          EDIT_ERROR (error, _("The time dependence of %s has no subcycle %u"), e->param,
                      e->subcycle);
          return FALSE;
        }
      g_ptr_array_remove_index (a->models, e->subcycle);
      if (a->models->len == 1)
        a->frequency = 0;
      return TRUE;
    }
  if (a->models->len < 2 || !(e->frequency > 0) || !isfinite (e->frequency))
    {
      EDIT_ERROR (error, a->models->len < 2
                         ? _("The time dependence of %s has no subcycles")
                         : _("The frequency of %s must be finite and > 0"),
                  e->param);
      return FALSE;
    }
  a->frequency = e->frequency;
  return TRUE;
}

/* ---- a request ---------------------------------------------------------------------------- */

static gboolean
apply_one (XrlabModelDoc *doc, const XrlabModelEdit *e, GPtrArray *added, GError **error)
{
  switch (e->kind)
    {
    case XRLAB_MODEL_EDIT_ADD:
      return edit_add (doc, e, added, error);
    case XRLAB_MODEL_EDIT_REMOVE:
      return edit_remove (doc, e, error);
    case XRLAB_MODEL_EDIT_MOVE:
      return edit_move (doc, e, error);
    case XRLAB_MODEL_EDIT_ATTACH_FILE:
      return edit_attach_file (doc, e, error);
    case XRLAB_MODEL_EDIT_ATTACH_NEW:
      return edit_attach_new (doc, e, added, error);
    case XRLAB_MODEL_EDIT_DETACH:
      return edit_detach (doc, e, error);
    case XRLAB_MODEL_EDIT_ADD_SUBCYCLE:
    case XRLAB_MODEL_EDIT_REMOVE_SUBCYCLE:
    case XRLAB_MODEL_EDIT_SET_FREQUENCY:
      return edit_subcycles (doc, e, added, error);
    default:
      EDIT_ERROR (error, _("Unknown model edit %d"), (int) e->kind);
      return FALSE;
    }
}

/* The full name of @c in @doc after renumbering (NULL: not there). */
static char *
comp_name_now (XrlabModelDoc *doc, const DocComp *c, const DocAttach **att_out)
{
  GPtrArray *lists[2] = { doc->profiles, doc->dyns };

  for (int l = -1; l < 2; l++)
    for (guint i = 0; i < (l < 0 ? 1 : lists[l]->len); i++)
      {
        const DocAttach *a = l < 0 ? NULL : g_ptr_array_index (lists[l], i);
        for (guint k = 0; k < (a ? a->models->len : 1); k++)
          {
            const DocModel *m = a ? g_ptr_array_index (a->models, k) : doc->energy;
            for (guint j = 0; j < m->comps->len; j++)
              if (g_ptr_array_index (m->comps, j) == c)
                {
                  if (att_out)
                    *att_out = a;
                  return comp_full_name (a, c);
                }
          }
      }
  return NULL;
}

static void
collect_renames (XrlabModelDoc *doc, const DocComp *c, GPtrArray *pairs)
{
  const DocAttach *a = NULL;
  char *now;

  if (c->origin == NULL || (now = comp_name_now (doc, c, &a)) == NULL)
    return;
  if (strcmp (now, c->origin) != 0)
    {
      g_ptr_array_add (pairs, g_strdup (c->origin));
      g_ptr_array_add (pairs, g_strdup (now));
      for (guint q = 0; q < c->n_params; q++)
        {
          g_ptr_array_add (pairs, g_strdup_printf ("%s_%s", c->origin, c->params[q].name));
          g_ptr_array_add (pairs, g_strdup_printf ("%s_%s", now, c->params[q].name));
        }
    }
  g_free (now);
}

static void
foreach_comp (XrlabModelDoc *doc, void (*func) (XrlabModelDoc *, const DocComp *, GPtrArray *),
              GPtrArray *data)
{
  GPtrArray *lists[2] = { doc->profiles, doc->dyns };

  for (guint j = 0; j < doc->energy->comps->len; j++)
    func (doc, g_ptr_array_index (doc->energy->comps, j), data);
  for (int l = 0; l < 2; l++)
    for (guint i = 0; i < lists[l]->len; i++)
      {
        DocAttach *a = g_ptr_array_index (lists[l], i);
        for (guint k = 0; k < a->models->len; k++)
          {
            DocModel *m = g_ptr_array_index (a->models, k);
            for (guint j = 0; j < m->comps->len; j++)
              func (doc, g_ptr_array_index (m->comps, j), data);
          }
      }
}

/* One allocation: the structs, then the strings. */
static XrlabModelEditResult *
make_result (XrlabModelDoc *doc, GPtrArray *added)
{
  g_autoptr(GPtrArray) pairs = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  gsize n_ren, size, text = 0;
  XrlabModelEditResult *r;
  XrlabModelRename *ren;
  const char **add;
  char *p;

  foreach_comp (doc, collect_renames, pairs);
  for (guint i = 0; i < added->len; i++)
    {
      char *now = comp_name_now (doc, g_ptr_array_index (added, i), NULL);
      if (now != NULL)
        g_ptr_array_add (names, now);
    }
  n_ren = pairs->len / 2;
  for (guint i = 0; i < pairs->len; i++)
    text += strlen (g_ptr_array_index (pairs, i)) + 1;
  for (guint i = 0; i < names->len; i++)
    text += strlen (g_ptr_array_index (names, i)) + 1;
  size = sizeof *r + n_ren * sizeof *ren + (names->len + 1) * sizeof (char *);
  r = g_malloc0 (size + text);
  ren = (XrlabModelRename *) (r + 1);
  add = (const char **) (ren + n_ren);
  p = (char *) r + size;
  for (guint i = 0; i < pairs->len; i++)
    {
      const char *s = g_ptr_array_index (pairs, i);
      gsize n = strlen (s) + 1;
      memcpy (p, s, n);
      if (i % 2 == 0)
        ren[i / 2].from = p;
      else
        ren[i / 2].to = p;
      p += n;
    }
  for (guint i = 0; i < names->len; i++)
    {
      const char *s = g_ptr_array_index (names, i);
      gsize n = strlen (s) + 1;
      memcpy (p, s, n);
      add[i] = p;
      p += n;
    }
  r->n_renames = n_ren;
  r->renames = ren;
  r->n_added = names->len;
  r->added = add;
  return r;
}

XrlabModel *
xrlab_model_edited (const XrlabModel *model, const XrlabModelEdit *edits, gsize n,
                    XrlabModelEditResult **result, GError **error)
{
  XrlabModelDoc *doc;
  g_autoptr(GPtrArray) added = g_ptr_array_new ();
  XrlabModel *out = NULL;
  gboolean ok = TRUE;

  g_return_val_if_fail (model != NULL, NULL);
  g_return_val_if_fail (edits != NULL || n == 0, NULL);
  doc = xrlab_model_doc_new (model);
  for (gsize i = 0; i < n && ok; i++)
    {
      ok = apply_one (doc, &edits[i], added, error);
      /* numbered after each edit: the next one names what this one made */
      if (ok)
        xrlab_model_doc_renumber (doc);
    }
  if (ok && doc->energy->comps->len == 0)
    {
      EDIT_ERROR (error, _("model “%s”: a model needs at least one component"), doc->name);
      ok = FALSE;
    }
  if (ok)
    out = xrlab_model_doc_build (doc, TRUE, error);
  if (out != NULL && result != NULL)
    *result = make_result (doc, added);
  xrlab_model_doc_free (doc);
  return out;
}

gboolean
xrlab_model_edit (XrlabModel *model, const XrlabModelEdit *edits, gsize n,
                  XrlabModelEditResult **result, GError **error)
{
  XrlabModel *out = xrlab_model_edited (model, edits, n, result, error);
  XrlabModel tmp;

  if (out == NULL)
    return FALSE;
  tmp = *model;
  *model = *out;
  *out = tmp;
  xrlab_model_free (out);
  return TRUE;
}
