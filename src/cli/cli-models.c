/* cli-models.c -- xrlab-cli eval and params: spectral models from model files
 *
 *   xrlab-cli eval --models FILE --model NAME --energy energy.csv
 *                  [--time time.csv] [--dynamics PAR=FILE:MODEL[,MODEL...][@FREQ]]...
 *                  [--aux aux.csv] [--profile PAR=FILE:MODEL]... [--set PAR=VALUE]...
 *                  -o model.csv
 *   xrlab-cli params (the same model options; the axes optional) [-o params.csv]
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib/gi18n.h>

#include "cli-output.h"
#include "cli-private.h"
#include "xrlab-engine-fit.h"
#include "xrlab-h5.h"
#include "xrlab-model.h"
#include "xrlab-plan.h"
#include "xrlab-util.h"

void
xrlab_cli_model_options_clear (XrlabCliModelOptions *o)
{
  g_free (o->models);
  g_free (o->model);
  g_free (o->energy);
  g_free (o->time);
  g_free (o->aux);
  g_strfreev (o->dynamics);
  g_strfreev (o->profiles);
  g_strfreev (o->sets);
  g_free (o->output);
}

GOptionEntry *
xrlab_cli_model_entries (XrlabCliModelOptions *o)
{
  GOptionEntry entries[] = {
    { "models", 0, 0, G_OPTION_ARG_FILENAME, &o->models,
      N_("Model file (trspecfit YAML)"), N_("FILE") },
    { "model", 0, 0, G_OPTION_ARG_STRING, &o->model,
      N_("Name of the model in the file"), N_("NAME") },
    { "energy", 0, 0, G_OPTION_ARG_FILENAME, &o->energy,
      N_("Energy axis: one value per line, FILE.h5:/PATH of an HDF5 dataset, or a NeXus "
         "file alone (the energy axis of its NXdata)"), N_("FILE") },
    { "time", 0, 0, G_OPTION_ARG_FILENAME, &o->time,
      N_("Delay axis (a 2D model): one value per line, FILE.h5:/PATH, or a NeXus file "
         "alone (the delay axis of its NXdata)"), N_("FILE") },
    { "dynamics", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->dynamics,
      N_("Time dependence of parameter PAR: time models of FILE; several models and a "
         "frequency make multi-cycle dynamics (repeatable)"),
      N_("PAR=FILE:MODEL[,MODEL...][@FREQ]") },
    { "aux", 0, 0, G_OPTION_ARG_FILENAME, &o->aux,
      N_("Auxiliary axis for profiles: one value per line or FILE.h5:/PATH"), N_("FILE") },
    { "profile", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->profiles,
      N_("Profile of parameter PAR along the aux axis (repeatable)"), N_("PAR=FILE:MODEL") },
    { "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->sets,
      N_("Set a parameter's value (repeatable)"), N_("PAR=VALUE") },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &o->output,
      N_("Output file: CSV, or HDF5 when it is named FILE.h5 (or .nxs)"), N_("FILE") },
    G_OPTION_ENTRY_NULL
  };
  return g_memdup2 (entries, sizeof entries);
}

gboolean
xrlab_cli_parse_attachment (const char *spec, gboolean with_freq, char **par, char **file,
                  char ***models, double *freq)
{
  const char *eq = strchr (spec, '=');
  const char *colon;
  g_autofree char *rest = NULL;
  char *at;

  if (eq == NULL || eq == spec)
    return FALSE;
  colon = strrchr (eq + 1, ':');
  if (colon == NULL || colon == eq + 1 || colon[1] == '\0')
    return FALSE;
  rest = g_strdup (colon + 1);
  *freq = 0.0;
  at = strrchr (rest, '@');
  if (at)
    {
      if (!with_freq || !xrlab_parse_double (at + 1, FALSE, freq) || !(*freq > 0))
        return FALSE;
      *at = '\0';
    }
  *models = g_strsplit (rest, ",", -1);
  for (guint i = 0; (*models)[i]; i++)
    if ((*models)[i][0] == '\0')
      {
        g_clear_pointer (models, g_strfreev);
        return FALSE;
      }
  *par = g_strndup (spec, eq - spec);
  *file = g_strndup (eq + 1, colon - eq - 1);
  return TRUE;
}

/* The --dynamics of @o: with @later FALSE those whose parameter @m has
 * (marked in @first), with @later TRUE the others (parameters of profiles,
 * attached after the profiles). FALSE after printing the error. */
static gboolean
load_dynamics (const char *cmd, const XrlabCliModelOptions *o, XrlabModel *m, gboolean later,
               gboolean *first, int *status)
{
  g_autoptr(GError) error = NULL;

  for (guint i = 0; o->dynamics && o->dynamics[i]; i++)
    {
      g_autofree char *par = NULL, *file = NULL;
      g_auto(GStrv) models = NULL;
      double freq;

      if (!xrlab_cli_parse_attachment (o->dynamics[i], TRUE, &par, &file, &models, &freq))
        {
          *status = xrlab_cli_usage (cmd, _("--dynamics “%s”: expected "
                                            "PAR=FILE:MODEL[,MODEL...][@FREQ] with FREQ > 0"),
                                     o->dynamics[i]);
          return FALSE;
        }
      if (!later)
        first[i] = xrlab_model_find_param (m, par) >= 0;
      if (first[i] == later)
        continue;
      if (!xrlab_model_add_dynamics (m, par, file, (const char *const *) models,
                                     g_strv_length (models), freq, &error))
        {
          *status = xrlab_cli_fail (error);
          return FALSE;
        }
    }
  return TRUE;
}

XrlabModel *
xrlab_cli_load_model (const char *cmd, const XrlabCliModelOptions *o, int *status)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabModel) m = NULL;
  g_autofree gboolean *first = NULL;

  if (o->models == NULL || o->model == NULL)
    {
      *status = xrlab_cli_usage (cmd, _("--models and --model are required"));
      return NULL;
    }
  m = xrlab_model_load (o->models, o->model, &error);
  if (m == NULL)
    {
      *status = xrlab_cli_fail (error);
      return NULL;
    }
  first = g_new0 (gboolean, o->dynamics ? g_strv_length (o->dynamics) + 1 : 1);
  if (!load_dynamics (cmd, o, m, FALSE, first, status))
    return NULL;
  for (guint i = 0; o->profiles && o->profiles[i]; i++)
    {
      g_autofree char *par = NULL, *file = NULL;
      g_auto(GStrv) models = NULL;
      double freq;

      if (!xrlab_cli_parse_attachment (o->profiles[i], FALSE, &par, &file, &models, &freq)
          || g_strv_length (models) != 1)
        {
          *status = xrlab_cli_usage (cmd, _("--profile “%s”: expected PAR=FILE:MODEL"),
                                     o->profiles[i]);
          return NULL;
        }
      if (!xrlab_model_add_profile (m, par, file, models[0], &error))
        {
          *status = xrlab_cli_fail (error);
          return NULL;
        }
    }
  /* dynamics of profile parameters, now that they exist */
  if (!load_dynamics (cmd, o, m, TRUE, first, status))
    return NULL;
  for (guint i = 0; o->sets && o->sets[i]; i++)
    {
      const char *eq = strchr (o->sets[i], '=');
      g_autofree char *par = NULL;
      double v;

      if (eq == NULL || eq == o->sets[i])
        {
          *status = xrlab_cli_usage (cmd, _("--set “%s”: expected PAR=VALUE"), o->sets[i]);
          return NULL;
        }
      if (!xrlab_parse_double (eq + 1, FALSE, &v))
        {
          *status = xrlab_cli_failf (_("--set “%s”: “%s” is not a finite number"),
                                     o->sets[i], eq + 1);
          return NULL;
        }
      par = g_strndup (o->sets[i], eq - o->sets[i]);
      if (!xrlab_model_set_value (m, par, v, &error))
        {
          *status = xrlab_cli_fail (error);
          return NULL;
        }
    }
  return g_steal_pointer (&m);
}

void
xrlab_cli_axes_clear (XrlabCliAxes *a)
{
  g_free (a->energy);
  g_free (a->time);
  g_free (a->aux);
}

gboolean
xrlab_cli_read_axes (const XrlabCliModelOptions *o, XrlabCliAxes *a, int *status)
{
  g_autoptr(GError) error = NULL;

  if (o->energy && (a->energy = xrlab_data_read_column (o->energy, XRLAB_DATA_AXIS_ENERGY,
                                                        &a->n_e, &error)) == NULL)
    goto fail;
  if (o->time && (a->time = xrlab_data_read_column (o->time, XRLAB_DATA_AXIS_TIME, &a->n_t,
                                                    &error)) == NULL)
    goto fail;
  if (o->aux && (a->aux = xrlab_data_read_column (o->aux, XRLAB_DATA_AXIS_OTHER, &a->n_a,
                                                  &error)) == NULL)
    goto fail;
  return TRUE;

fail:
  *status = xrlab_cli_fail (error);
  return FALSE;
}

gboolean
xrlab_cli_check_model_size (const XrlabModel *m, const XrlabCliAxes *a, gboolean fit,
                            int *status)
{
  g_autoptr(GError) error = NULL;

  if (xrlab_fit_model_size_check (m, a->n_e, a->n_t, a->n_a, fit, xrlab_cli_max_values (),
                                  &error))
    return TRUE;
  *status = xrlab_cli_fail (error);
  return FALSE;
}

char *
xrlab_cli_size_limit_help (void)
{
  return g_strdup_printf (_("Axes of more than %llu values in all (energies × delays; the "
                            "delays squared with time dependence; delays × aux values with "
                            "profiles) are refused before anything is allocated: a quarter of "
                            "this machine's memory in 8-byte numbers."),
                          (unsigned long long) xrlab_cli_max_values ());
}

int
xrlab_cli_eval (int argc, char **argv)
{
  XrlabCliModelOptions o = { 0 };
  XrlabCliAxes ax = { 0 };
  g_autofree GOptionEntry *entries = xrlab_cli_model_entries (&o);
  g_autofree char *limit = xrlab_cli_size_limit_help ();
  const XrlabCliSpec spec = {
    .parameter_string = _("— evaluate a spectral model"),
    .summary =
      _("Writes the model at its parameter values: one row per delay (one row for a 1D "
        "model), one column per energy, comma separated, no header."),
    .description = limit,
    .entries = { entries },
  };
  g_autoptr(XrlabModel) m = NULL;
  g_autoptr(XrlabPlan) plan = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree double *theta = NULL, *out = NULL;
  int status = XRLAB_CLI_OK;

  if (!xrlab_cli_parse_options (&spec, &argc, &argv))
    {
      xrlab_cli_model_options_clear (&o);
      return XRLAB_CLI_USAGE;
    }
  if (argc > 1)
    status = xrlab_cli_usage ("eval", _("unexpected argument “%s”"), argv[1]);
  else if (o.energy == NULL || o.output == NULL)
    status = xrlab_cli_usage ("eval", _("--energy and -o are required"));
  else if ((m = xrlab_cli_load_model ("eval", &o, &status)) != NULL
           && xrlab_cli_read_axes (&o, &ax, &status)
           && xrlab_cli_check_model_size (m, &ax, FALSE, &status))
    {
      plan = xrlab_plan_new (m, ax.energy, ax.n_e, ax.time, ax.n_t, ax.aux, ax.n_a, &error);
      if (plan == NULL)
        status = xrlab_cli_fail (error);
      else
        {
          theta = g_new (double, MAX (xrlab_plan_n_theta (plan), 1));
          out = g_new (double, xrlab_plan_n_data (plan));
          xrlab_plan_theta_initial (plan, theta);
          xrlab_plan_eval (plan, theta, out);
          for (gsize i = 0; i < xrlab_plan_n_data (plan); i++)
            if (!isfinite (out[i]))
              {
                status = xrlab_cli_failf (_("the model is not finite at delay row %zu, "
                                            "energy %zu (check widths and bounds)"),
                                          i / xrlab_plan_n_energy (plan) + 1,
                                          i % xrlab_plan_n_energy (plan) + 1);
                break;
              }
          if (status == XRLAB_CLI_OK && xrlab_h5_is_h5_name (o.output)
              && !xrlab_fit_write_model_h5 (o.output, m, out, ax.energy, ax.n_e, ax.time,
                                            ax.n_t, XRLAB_NOISE_NONE, 0.0, 0, NAN, &error))
            status = xrlab_cli_fail (error);
          else if (status == XRLAB_CLI_OK && !xrlab_h5_is_h5_name (o.output)
                   && !xrlab_write_csv_matrix (o.output, out, xrlab_plan_n_rows (plan),
                                               xrlab_plan_n_energy (plan), &error))
            status = xrlab_cli_fail (error);
        }
    }
  xrlab_cli_axes_clear (&ax);
  xrlab_cli_model_options_clear (&o);
  return status;
}

static const char *
vary_text (const XrlabParamInfo *info)
{
  if (info->expr)
    return "";
  return info->vary ? "True" : info->is_static ? "static" : "False";
}

int
xrlab_cli_params (int argc, char **argv)
{
  XrlabCliModelOptions o = { 0 };
  XrlabCliAxes ax = { 0 };
  g_autofree GOptionEntry *entries = xrlab_cli_model_entries (&o);
  const XrlabCliSpec spec = {
    .parameter_string = _("— list the parameters of a model"),
    .summary =
      _("Lists every parameter (name, value, vary, min, max, expression) and, for the free "
        "ones, their position in θ, as CSV; a parameter defined by an expression shows its "
        "current value and the expression with every name in full. With --energy (and "
        "--time, --aux) the model is also compiled on those axes, which checks it fully."),
    .entries = { entries },
  };
  g_autoptr(XrlabModel) m = NULL;
  g_autoptr(XrlabPlan) plan = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) csv = g_string_new ("name,value,vary,min,max,expr,theta\n");
  g_autofree double *values = NULL;
  int status = XRLAB_CLI_OK;

  if (!xrlab_cli_parse_options (&spec, &argc, &argv))
    {
      xrlab_cli_model_options_clear (&o);
      return XRLAB_CLI_USAGE;
    }
  if (argc > 1)
    status = xrlab_cli_usage ("params", _("unexpected argument “%s”"), argv[1]);
  else if ((m = xrlab_cli_load_model ("params", &o, &status)) != NULL && xrlab_cli_read_axes (&o, &ax, &status))
    {
      if (ax.energy)
        {
          plan = xrlab_plan_new (m, ax.energy, ax.n_e, ax.time, ax.n_t, ax.aux, ax.n_a, &error);
          if (plan == NULL)
            status = xrlab_cli_fail (error);
        }
      /* the current values, expressions evaluated */
      values = g_new (double, MAX (xrlab_model_n_params (m), 1));
      if (status == XRLAB_CLI_OK && !xrlab_model_get_values (m, values, &error))
        status = xrlab_cli_fail (error);
      if (status == XRLAB_CLI_OK)
        {
          gsize k = 0;
          for (gsize i = 0; i < xrlab_model_n_params (m); i++)
            {
              XrlabParamInfo info;
              char v[XRLAB_DTOA_BUFSIZE], a[XRLAB_DTOA_BUFSIZE], b[XRLAB_DTOA_BUFSIZE];
              gboolean free_param;

              xrlab_model_get_param (m, i, &info);
              free_param = info.vary && info.expr == NULL;
              /* an expression: its current value, and its names in full */
              g_string_append_printf (csv, "%s,%s,%s,%s,%s,%s,", info.name,
                                      xrlab_format_double (values[i], v),
                                      vary_text (&info),
                                      info.expr ? "" : xrlab_format_double (info.min, a),
                                      info.expr ? "" : xrlab_format_double (info.max, b),
                                      info.expr ? (info.expr_full ? info.expr_full : info.expr)
                                                : "");
              if (free_param)
                {
                  if (plan)
                    g_assert (g_strcmp0 (xrlab_plan_theta_name (plan, k), info.name) == 0);
                  g_string_append_printf (csv, "%" G_GSIZE_FORMAT, k++);
                }
              g_string_append_c (csv, '\n');
            }
          status = xrlab_cli_write_output (o.output, csv);
        }
    }
  xrlab_cli_axes_clear (&ax);
  xrlab_cli_model_options_clear (&o);
  return status;
}
