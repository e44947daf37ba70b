/* xrlab-model-describe.c -- a model as a tree for a user interface (see
 * xrlab-model-edit.h)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-model-edit.h"
#include "xrlab-model-private.h"

#include <string.h>

typedef struct {
  GStringChunk *strings;
  GPtrArray *blocks;          /* g_free */
} DescPriv;

static gpointer
block (DescPriv *pv, gsize n, gsize size)
{
  gpointer p = g_malloc0 (MAX (n, 1) * size);

  g_ptr_array_add (pv->blocks, p);
  return p;
}

static const char *
str (DescPriv *pv, const char *s)
{
  return s ? g_string_chunk_insert_const (pv->strings, s) : NULL;
}

static XrlabModelFnKind
fn_kind (XrlabFn fn)
{
  switch (xrlab_fn_info (fn)->cls)
    {
    case XRLAB_FN_CLASS_PEAK:
      return XRLAB_MODEL_FN_PEAK;
    case XRLAB_FN_CLASS_BACKGROUND:
      return XRLAB_MODEL_FN_BACKGROUND;
    case XRLAB_FN_CLASS_TIME:
      return XRLAB_MODEL_FN_TIME;
    case XRLAB_FN_CLASS_KERNEL:
      return XRLAB_MODEL_FN_KERNEL;
    case XRLAB_FN_CLASS_PROFILE:
      return XRLAB_MODEL_FN_PROFILE;
    default:
      return XRLAB_MODEL_FN_NONE;
    }
}

static const XrlabModelDescAttachment *describe_attach (DescPriv *pv, const XrlabModel *model,
                                                        const XrlabAttachment *a);

static void
describe_comp (DescPriv *pv, const XrlabModel *model, const XrlabComponent *c,
               const XrlabAttachment *att, XrlabModelDescComponent *d)
{
  XrlabModelDescParam *params = block (pv, c->n_params, sizeof *params);
  g_autofree char *full = att ? g_strdup_printf ("%s_%s", att->host->name, c->name)
                              : g_strdup (c->name);

  d->name = str (pv, c->name);
  d->full_name = str (pv, full);
  d->function = str (pv, xrlab_fn_info (c->fn)->name);
  d->kind = fn_kind (c->fn);
  d->subcycle = att ? (guint) c->subcycle : 0;
  d->n_params = c->n_params;
  d->params = params;
  for (guint q = 0; q < c->n_params; q++)
    {
      const XrlabParam *p = c->params[q];
      XrlabModelDescParam *r = &params[q];

      r->name = str (pv, xrlab_fn_info (c->fn)->params[q]);
      r->full_name = str (pv, p->name);
      r->index = p->index;
      r->value = p->value;
      r->min = p->min;
      r->max = p->max;
      r->vary = p->vary;
      r->is_static = p->is_static;
      r->share = p->share;
      r->expr = str (pv, p->expr_text);
      r->dynamics = p->dyn ? describe_attach (pv, model, p->dyn) : NULL;
      r->profile = p->profile ? describe_attach (pv, model, p->profile) : NULL;
    }
}

static const XrlabModelDescAttachment *
describe_attach (DescPriv *pv, const XrlabModel *model, const XrlabAttachment *a)
{
  XrlabModelDescAttachment *d = block (pv, 1, sizeof *d);
  const char **models = block (pv, a->n_models + 1, sizeof (char *));
  XrlabModelDescComponent *comps = block (pv, a->comps->len, sizeof *comps);

  d->part = a->is_profile ? XRLAB_MODEL_PART_PROFILE : XRLAB_MODEL_PART_DYNAMICS;
  d->host = str (pv, a->host->name);
  d->file = str (pv, a->file);
  d->n_models = a->n_models;
  for (guint k = 0; k < a->n_models; k++)
    models[k] = str (pv, a->models[k]);
  d->models = models;
  d->frequency = a->frequency;
  d->n_components = a->comps->len;
  d->components = comps;
  for (guint i = 0; i < a->comps->len; i++)
    describe_comp (pv, model, g_ptr_array_index (a->comps, i), a, &comps[i]);
  return d;
}

XrlabModelDesc *
xrlab_model_describe (const XrlabModel *model)
{
  XrlabModelDesc *desc = g_new0 (XrlabModelDesc, 1);
  DescPriv *pv = g_new0 (DescPriv, 1);
  XrlabModelDescComponent *comps;

  g_return_val_if_fail (model != NULL, NULL);
  pv->strings = g_string_chunk_new (256);
  pv->blocks = g_ptr_array_new_with_free_func (g_free);
  desc->priv = pv;
  desc->name = str (pv, model->name);
  desc->file = str (pv, model->file);
  desc->n_params = model->all->len;
  desc->n_components = model->comps->len;
  comps = block (pv, model->comps->len, sizeof *comps);
  desc->components = comps;
  for (guint i = 0; i < model->comps->len; i++)
    describe_comp (pv, model, g_ptr_array_index (model->comps, i), NULL, &comps[i]);
  return desc;
}

void
xrlab_model_desc_free (XrlabModelDesc *desc)
{
  DescPriv *pv;

  if (desc == NULL)
    return;
  pv = desc->priv;
  g_string_chunk_free (pv->strings);
  g_ptr_array_unref (pv->blocks);
  g_free (pv);
  g_free (desc);
}
