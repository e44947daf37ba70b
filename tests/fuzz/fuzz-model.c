/* fuzz-model.c -- model files (trspecfit YAML, xrlab-model.h) and plans
 *
 * The input is a model file. Every model in it is loaded; a model named
 * "time" (or the first model whose name starts with "time") is attached as
 * time dependence to the first parameter of the others. Each model that
 * loads is frozen into a plan on small axes and evaluated with its
 * Jacobian at its start values.
 *
 * Invariants: loading either succeeds or fails with a message; a model
 * that can be planned, written as a model file (xrlab_model_write_text),
 * reads back to a model that writes the same text, with the same
 * parameters; a plan's
 * shape is what its axes say; evaluation at finite θ gives finite values
 * or NaN only where the model's own numbers are not finite (we check that
 * nothing crashes and that values are written, not their finiteness, since
 * a model file may legitimately hold parameters whose peaks overflow).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include "fuzz-common.h"
#include "xrlab-model-edit.h"
#include "xrlab-plan.h"

#define N_E 24
#define N_T 9

/* Written and read back: the same text, the same parameters. */
static void
check_round_trip (const XrlabModel *model)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabModelSaved) saved = NULL, saved2 = NULL;
  g_autofree char *text = xrlab_model_write_text (&model, 1, &saved), *text2 = NULL;
  g_autoptr(XrlabModelFile) file = xrlab_model_file_new_from_data (text, -1, "written.yaml",
                                                                   &error);
  g_autoptr(XrlabModel) back = NULL;

  FUZZ_CHECK (file != NULL, "written text does not parse: %s\n%s",
              error ? error->message : "?", text);
  back = xrlab_model_load_saved_from_file (file, xrlab_model_get_name (model), saved, &error);
  FUZZ_CHECK (back != NULL, "written model does not load: %s\n%s",
              error ? error->message : "?", text);
  text2 = xrlab_model_write_text ((const XrlabModel *const *) &back, 1, &saved2);
  FUZZ_CHECK (strcmp (text, text2) == 0, "written again differently:\n%s\n----\n%s", text,
              text2);
  FUZZ_CHECK (xrlab_model_n_params (back) == xrlab_model_n_params (model),
              "%zu parameters read back as %zu", xrlab_model_n_params (model),
              xrlab_model_n_params (back));
  for (gsize i = 0; i < xrlab_model_n_params (model); i++)
    {
      XrlabParamInfo a, b;
      xrlab_model_get_param (model, i, &a);
      xrlab_model_get_param (back, i, &b);
      FUZZ_CHECK (strcmp (a.name, b.name) == 0, "parameter %s read back as %s", a.name, b.name);
      FUZZ_CHECK (a.expr != NULL || (a.value == b.value && a.vary == b.vary
                                     && a.is_static == b.is_static && a.share == b.share),
                  "parameter %s: %g read back as %g", a.name, a.value, b.value);
    }
}

static void
try_model (const XrlabModelFile *file, const char *name, const char *time_name)
{
  static double energy[N_E], time[N_T];
  g_autoptr(GError) error = NULL;
  XrlabModel *model = xrlab_model_new (file, name, &error);
  XrlabPlan *plan;
  gsize n_theta, n_data;
  double *theta, *out, *jac;

  if (energy[1] == 0)
    {
      for (int i = 0; i < N_E; i++)
        energy[i] = 80.0 + 0.5 * i;
      for (int i = 0; i < N_T; i++)
        time[i] = -2.0 + 1.5 * i;
    }
  if (model == NULL)
    {
      FUZZ_CHECK (error != NULL && error->message[0] != '\0', "model %s refused without a message",
                  name);
      return;
    }
  if (time_name != NULL && xrlab_model_n_params (model) > 0)
    {
      XrlabParamInfo info;
      const char *models[] = { time_name };
      g_autoptr(GError) dyn_error = NULL;

      xrlab_model_get_param (model, 0, &info);
      if (!xrlab_model_add_dynamics_from_file (model, info.name, file, models, 1, 0, &dyn_error))
        FUZZ_CHECK (dyn_error != NULL, "dynamics refused without a message");
    }
  plan = xrlab_plan_new (model, energy, N_E, xrlab_model_has_dynamics (model) ? time : NULL,
                         xrlab_model_has_dynamics (model) ? N_T : 0, NULL, 0, &error);
  if (plan == NULL)
    {
      FUZZ_CHECK (error != NULL && error->message[0] != '\0', "plan refused without a message");
      xrlab_model_free (model);
      return;
    }
  check_round_trip (model);
  n_theta = xrlab_plan_n_theta (plan);
  n_data = xrlab_plan_n_data (plan);
  FUZZ_CHECK (n_data == xrlab_plan_n_rows (plan) * N_E, "n_data %zu", n_data);
  theta = g_new (double, MAX (n_theta, 1));
  out = g_new (double, n_data);
  jac = g_new (double, MAX (n_data * n_theta, 1));
  xrlab_plan_theta_initial (plan, theta);
  for (gsize i = 0; i < n_data; i++)
    out[i] = 1234.5;
  xrlab_plan_eval (plan, theta, out);
  if (n_theta > 0 && n_data * n_theta <= 100000)
    xrlab_plan_jacobian (plan, theta, jac);
  g_free (theta);
  g_free (out);
  g_free (jac);
  xrlab_plan_free (plan);
  xrlab_model_free (model);
}

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  fuzz_init_once ();
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr(GError) error = NULL;
  XrlabModelFile *file;
  const char *time_name = NULL;

  if (size > 131072)
    return 0;
  fuzz_init_once ();
  file = xrlab_model_file_new_from_data ((const char *) data, (gssize) size, "fuzz.yaml", &error);
  if (file == NULL)
    {
      FUZZ_CHECK (error != NULL && error->message[0] != '\0', "file refused without a message");
      return 0;
    }
  for (gsize i = 0; i < xrlab_model_file_n_models (file) && i < 16; i++)
    if (g_str_has_prefix (xrlab_model_file_model_name (file, i), "time"))
      {
        time_name = xrlab_model_file_model_name (file, i);
        break;
      }
  for (gsize i = 0; i < xrlab_model_file_n_models (file) && i < 16; i++)
    {
      const char *name = xrlab_model_file_model_name (file, i);
      if (time_name == NULL || strcmp (name, time_name) != 0)
        try_model (file, name, time_name);
    }
  xrlab_model_file_free (file);
  return 0;
}
