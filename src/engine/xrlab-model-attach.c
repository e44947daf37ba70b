/* xrlab-model-attach.c -- time dependence and profiles attached to the
 * parameters of a model, and the model of one parameter's trace
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-model-parse-private.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

/* ---- attachments ------------------------------------------------------------------ */

static XrlabParam *
find_host (XrlabModel *model, const char *param, gboolean profile, GError **error)
{
  XrlabParam *p = g_hash_table_lookup (model->by_name, param);
  const char *what = profile ? _("a profile") : _("time dependence");

  if (p == NULL)
    {
      if (xrlab_model_may_be_attached_later (model, param))
        set_error (error, XRLAB_MODEL_ERROR_NOT_FOUND, model->file, 0,
                   _("model “%s” has no parameter “%s” (yet) to attach %s to: the "
                     "parameters of a profile exist once the profile is attached, so "
                     "attach the profile first"),
                   model->name, param, what);
      else
        set_error (error, XRLAB_MODEL_ERROR_NOT_FOUND, model->file, 0,
                   _("model “%s” has no parameter “%s” to attach %s to"),
                   model->name, param, what);
      return NULL;
    }
  if (p->role == XRLAB_PARAM_PROFILE && profile)
    {
      set_error (error, XRLAB_MODEL_ERROR_INVALID, p->file, p->line,
                 _("model “%s”: %s is a parameter of the profile of %s; a profile "
                   "attaches only to parameters of the energy model"),
                 model->name, p->name, p->host->name);
      return NULL;
    }
  if (p->role == XRLAB_PARAM_DYNAMICS)
    {
      set_error (error, XRLAB_MODEL_ERROR_INVALID, p->file, p->line,
                 _("model “%s”: %s is a parameter of %s of %s; %s attaches only to "
                   "parameters of the energy model"),
                 model->name, p->name, _("the time dependence"), p->host->name, what);
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

/* A kernel convolves the functions listed after it, so it cannot end a
 * model that has time functions; a model made only of kernels (trspecfit's
 * IRF model) convolves the whole trace and stands only first among several
 * models, where trspecfit accepts it. */
static gboolean
check_kernels (const XrlabAttachment *att, const char *path, GError **error)
{
  for (guint i = 0; i < att->comps->len; i++)
    {
      XrlabComponent *c = g_ptr_array_index (att->comps, i);
      XrlabComponent *next = i + 1 < att->comps->len ? g_ptr_array_index (att->comps, i + 1) : NULL;
      gboolean only_kernels = TRUE;

      if (xrlab_fn_info (c->fn)->cls != XRLAB_FN_CLASS_KERNEL
          || (next != NULL && next->subcycle == c->subcycle))
        continue;
      for (guint j = 0; j < att->comps->len; j++)
        {
          XrlabComponent *o = g_ptr_array_index (att->comps, j);
          XrlabFnClass cls = xrlab_fn_info (o->fn)->cls;
          if (o->subcycle == c->subcycle && cls != XRLAB_FN_CLASS_KERNEL
              && cls != XRLAB_FN_CLASS_NONE)
            only_kernels = FALSE;
        }
      if (!only_kernels)
        {
          set_error (error, XRLAB_MODEL_ERROR_INVALID, path, c->line,
                     _("time model “%s”: the kernel %s is its last component; a "
                       "kernel convolves the time functions listed after it"),
                     c->model_name, c->name);
          return FALSE;
        }
      if (c->subcycle != 0 || att->n_models < 2)
        {
          set_error (error, XRLAB_MODEL_ERROR_INVALID, path, c->line,
                     _("time model “%s” holds only kernels: such a model (an instrument "
                       "response) convolves the whole trace and comes first among "
                       "several models, before the subcycle models (e.g. %s, MonoExpNeg, "
                       "MonoExpPos with a frequency)"),
                     c->model_name, c->model_name);
          return FALSE;
        }
    }
  return TRUE;
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
    if (!xrlab_model_collect_specs (file, models[i], i, profile ? CTX_PROFILE : CTX_TIME, specs,
                                    error))
      return FALSE;
  if (n_models > 1)
    xrlab_model_number_across_models (specs);

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
  att->comps = g_ptr_array_new_with_free_func ((GDestroyNotify) xrlab_model_comp_free);
  att->params = g_ptr_array_new_with_free_func ((GDestroyNotify) xrlab_model_param_free);

  if (!xrlab_model_build_components (specs, profile ? CTX_PROFILE : CTX_TIME, file->path, host,
                                     att->comps, att->params, error))
    goto fail;

  if (!profile && !check_kernels (att, file->path, error))
    goto fail;

  if (!xrlab_model_resolve_attachment (att, error) || !xrlab_model_check_cycles (att->params, error))
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
  xrlab_model_reindex (model);
  /* Names left open may resolve now; no new cycle can arise, since the new
   * parameters refer only to one another. */
  xrlab_model_resolve_energy (model, FALSE, NULL);
  return TRUE;

fail:
  xrlab_model_attachment_free (att);
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

/* ---- the trace of one parameter ----------------------------------------------------- */

XrlabModel *
xrlab_model_new_trace (const XrlabModel *model, const char *param, GError **error)
{
  g_autoptr(XrlabModel) src = xrlab_model_copy (model);
  XrlabModel *m;
  XrlabParam *p = g_hash_table_lookup (src->by_name, param);
  XrlabAttachment *dyn;
  XrlabComponent *c;
  GPtrArray *home;
  guint i;

  if (p == NULL)
    {
      set_error (error, XRLAB_MODEL_ERROR_NOT_FOUND, model->file, 0,
                 _("model “%s” has no parameter “%s”"), model->name, param);
      return NULL;
    }
  if (p->dyn == NULL)
    {
      set_error (error, XRLAB_MODEL_ERROR_INVALID, p->file, p->line,
                 _("model “%s”: parameter %s has no time dependence to fit its trace with"),
                 model->name, p->name);
      return NULL;
    }
  /* take the parameter and its time dependence out of the copy */
  dyn = p->dyn;
  home = p->role == XRLAB_PARAM_PROFILE ? p->host->profile->params : src->eparams;
  g_assert (g_ptr_array_find (home, p, &i));
  g_ptr_array_steal_index (home, i);
  g_assert (g_ptr_array_find (src->dyns, dyn, &i));
  g_ptr_array_steal_index (src->dyns, i);

  m = xrlab_model_alloc ();
  m->name = g_strdup (model->name);
  m->file = g_strdup (model->file);
  c = g_new0 (XrlabComponent, 1);
  c->fn = XRLAB_FN_OFFSET;
  c->name = g_strdup (xrlab_fn_info (XRLAB_FN_OFFSET)->name);
  c->model_name = g_strdup (p->model_name);
  c->file = g_strdup (p->file);
  c->line = p->line;
  c->n_params = 1;
  c->params[0] = p;
  g_ptr_array_add (m->comps, c);
  g_free (p->local);
  p->local = g_strdup (p->name);
  p->role = XRLAB_PARAM_ENERGY;
  p->comp = c;
  p->host = NULL;
  p->profile = NULL;
  g_ptr_array_add (m->eparams, p);
  g_ptr_array_add (m->dyns, dyn);
  xrlab_model_reindex (m);
  return m;
}

