/* cli-fit-common.c -- what xrlab-cli simulate, fit and fit-trace share
 * (cli-fit-private.h)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "cli-fit-private.h"
#include "xrlab-engine-fit.h"
#include "xrlab-fitflow.h"
#include "xrlab-model.h"
#include "xrlab-simulate.h"
#include "xrlab-util.h"

/* Replaces the help text of -o in the shared model entries. */
void
xrlab_cli_set_output_help (GOptionEntry *entries, const char *desc, const char *arg)
{
  for (GOptionEntry *e = entries; e->long_name; e++)
    if (g_str_equal (e->long_name, "output"))
      {
        e->description = desc;
        e->arg_description = arg;
      }
}

/* ---- the engine, waited for ------------------------------------------------------------- */

void
xrlab_cli_client_init (XrlabCliClient *c)
{
  c->context = g_main_context_new ();
  g_main_context_push_thread_default (c->context);
  c->engine = xrlab_engine_new ();
}

void
xrlab_cli_client_clear (XrlabCliClient *c)
{
  if (c->engine == NULL)
    return;
  xrlab_engine_shutdown (c->engine);
  g_clear_object (&c->engine);
  while (g_main_context_iteration (c->context, FALSE))
    ;
  g_main_context_pop_thread_default (c->context);
  g_clear_pointer (&c->context, g_main_context_unref);
}

/* ---- the model options as the service takes them ------------------------------------ */

void
xrlab_cli_model_parts_clear (XrlabCliModelParts *mp)
{
  g_clear_pointer (&mp->dynamics, g_array_unref);
  g_clear_pointer (&mp->profiles, g_array_unref);
  g_clear_pointer (&mp->values, g_array_unref);
  g_clear_pointer (&mp->owned, g_ptr_array_unref);
}

/* --models, --model, --dynamics, --profile and --set, checked (usage errors
 * exit 2, a --set value that is not a number 1). */
gboolean
xrlab_cli_model_parts_parse (const char *cmd, const XrlabCliModelOptions *o, XrlabCliModelParts *mp, int *status)
{
  mp->dynamics = g_array_new (FALSE, TRUE, sizeof (XrlabFitDynamics));
  mp->profiles = g_array_new (FALSE, TRUE, sizeof (XrlabFitProfile));
  mp->values = g_array_new (FALSE, TRUE, sizeof (XrlabFitValue));
  mp->owned = g_ptr_array_new_with_free_func (g_free);
  if (o->models == NULL || o->model == NULL)
    {
      *status = xrlab_cli_usage (cmd, _("--models and --model are required"));
      return FALSE;
    }
  for (guint i = 0; o->dynamics && o->dynamics[i]; i++)
    {
      XrlabFitDynamics d = { 0 };
      char *par = NULL, *file = NULL, **models = NULL;

      if (!xrlab_cli_parse_attachment (o->dynamics[i], TRUE, &par, &file, &models, &d.frequency))
        {
          *status = xrlab_cli_usage (cmd, _("--dynamics “%s”: expected "
                                            "PAR=FILE:MODEL[,MODEL...][@FREQ] with FREQ > 0"),
                                     o->dynamics[i]);
          return FALSE;
        }
      g_ptr_array_add (mp->owned, par);
      d.param = par;
      g_ptr_array_add (mp->owned, file);
      d.file = file;
      g_ptr_array_add (mp->owned, models);   /* freed as a block: its strings below */
      for (guint k = 0; models[k]; k++)
        g_ptr_array_add (mp->owned, models[k]);
      d.models = (const char *const *) models;
      d.n_models = g_strv_length (models);
      g_array_append_val (mp->dynamics, d);
    }
  for (guint i = 0; o->profiles && o->profiles[i]; i++)
    {
      XrlabFitProfile pr = { 0 };
      char *par = NULL, *file = NULL;
      g_auto(GStrv) models = NULL;
      double freq;

      if (!xrlab_cli_parse_attachment (o->profiles[i], FALSE, &par, &file, &models, &freq)
          || g_strv_length (models) != 1)
        {
          g_free (par);
          g_free (file);
          *status = xrlab_cli_usage (cmd, _("--profile “%s”: expected PAR=FILE:MODEL"),
                                     o->profiles[i]);
          return FALSE;
        }
      g_ptr_array_add (mp->owned, par);
      pr.param = par;
      g_ptr_array_add (mp->owned, file);
      pr.file = file;
      g_ptr_array_add (mp->owned, (char *) (pr.model = g_strdup (models[0])));
      g_array_append_val (mp->profiles, pr);
    }
  for (guint i = 0; o->sets && o->sets[i]; i++)
    {
      const char *eq = strchr (o->sets[i], '=');
      XrlabFitValue v = { 0 };

      if (eq == NULL || eq == o->sets[i])
        {
          *status = xrlab_cli_usage (cmd, _("--set “%s”: expected PAR=VALUE"), o->sets[i]);
          return FALSE;
        }
      if (!xrlab_parse_double (eq + 1, FALSE, &v.value))
        {
          *status = xrlab_cli_failf (_("--set “%s”: “%s” is not a finite number"),
                                     o->sets[i], eq + 1);
          return FALSE;
        }
      g_ptr_array_add (mp->owned, (char *) (v.param = g_strndup (o->sets[i], eq - o->sets[i])));
      g_array_append_val (mp->values, v);
    }
  return TRUE;
}

