/* test-trspecfit.c -- trspecfit's examples with xrlab's library: every model
 * file of $XRLAB_SHARED_DATA/trspecfit-examples loads, or is refused exactly
 * where trspecfit refuses it (one test per file), and the fitting workflows
 * the examples' notebooks run (01, 03, 04, 12, 20) reach the truth of their
 * generators (data/models_*_truth.yaml)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include <glib.h>

#include "examples-data.h"
#include "xrlab-fitflow.h"
#include "xrlab-init.h"
#include "xrlab-mcmc.h"
#include "xrlab-model.h"
#include "xrlab-plan.h"

/* ---- model files ------------------------------------------------------------------------ */

typedef enum { K_ENERGY, K_TIME, K_PROFILE } Kind;

typedef struct {
  Kind kind;
  const char *models;      /* the model, or the list of time models (comma separated) */
  double frequency;
  const char *target;      /* the parameter a time or profile model attaches to */
  /* the energy model it attaches to: "file:model" (relative to the file's
   * folder) followed by "|param=file:profile" for profiles attached first;
   * NULL: a GLP peak */
  const char *host;
  const char *refused;     /* NULL: loads (and evaluates); else part of the message */
} Case;

typedef struct {
  const char *path;
  Case cases[32];
} FileCases;

static const char *ref_yaml =
  "ref:\n"
  "  Offset: {y0: [1, True, 0, 10]}\n"
  "  GLP: {A: [10, True, 0, 100], x0: [10, True, 0, 20], F: [1, True, 0.5, 3], "
  "m: [0.3, True, 0, 1]}\n";

#define E(m) { K_ENERGY, m, 0, NULL, NULL, NULL }
#define E_BAD(m, msg) { K_ENERGY, m, 0, NULL, NULL, msg }
#define T(m) { K_TIME, m, 0, "GLP_01_x0", NULL, NULL }
#define T_F(m, f) { K_TIME, m, f, "GLP_01_x0", NULL, NULL }
#define T_BAD(m, f, msg) { K_TIME, m, f, "GLP_01_x0", NULL, msg }

static const FileCases model_files[] = {
  { "fitting_workflows/01_basic_fitting/models_energy.yaml", { E ("base"), E ("SbS"), E ("2D") } },
  { "fitting_workflows/01_basic_fitting/models_time.yaml", { T ("MonoExpIRF") } },
  { "fitting_workflows/01_basic_fitting/data/models_energy_truth.yaml", { E ("base") } },
  { "fitting_workflows/01_basic_fitting/data/models_time_truth.yaml", { T ("MonoExpIRF") } },
  { "fitting_workflows/02_dependent_parameters/models_energy.yaml", { E ("base"), E ("2D") } },
  { "fitting_workflows/02_dependent_parameters/models_time.yaml", { T ("sine_wave") } },
  { "fitting_workflows/03_multi_cycle_dynamics/models_energy.yaml",
    { E ("base"), E ("SbS"), E ("2D") } },
  /* the instrument response alone first, then the subcycles (a kernel-only
   * model is valid exactly in that slot) */
  { "fitting_workflows/03_multi_cycle_dynamics/models_time.yaml",
    { T_F ("IRF,MonoExpNeg,MonoExpPos", 0.25),
      T_BAD ("IRF", 0, "holds only kernels") } },
  { "fitting_workflows/03_multi_cycle_dynamics/data/models_energy_truth.yaml", { E ("base") } },
  { "fitting_workflows/03_multi_cycle_dynamics/data/models_time_truth.yaml",
    { T_F ("IRF,MonoExpNeg,MonoExpPos", 0.25) } },
  { "fitting_workflows/04_parameter_profiles/models_energy.yaml",
    { E ("base"), E ("profile_base"), E ("SbS"), E ("2D") } },
  { "fitting_workflows/04_parameter_profiles/models_profile.yaml",
    { { K_PROFILE, "IMFP", 0, "GLP_01_A", "models_energy.yaml:profile_base", NULL },
      { K_PROFILE, "IMFPfixed", 0, "GLP_01_A", "models_energy.yaml:SbS", NULL },
      { K_PROFILE, "BandBending", 0, "GLP_01_x0", "models_energy.yaml:profile_base", NULL } } },
  /* time dependence of a profile's parameter */
  { "fitting_workflows/04_parameter_profiles/models_time.yaml",
    { { K_TIME, "BandBendingRecovery", 0, "GLP_01_x0_pLinear_01_m",
        "models_energy.yaml:2D|GLP_01_A=models_profile.yaml:IMFPfixed"
        "|GLP_01_x0=models_profile.yaml:BandBending", NULL } } },
  { "fitting_workflows/04_parameter_profiles/data/models_energy_truth.yaml", { E ("truth") } },
  { "fitting_workflows/04_parameter_profiles/data/models_profile_truth.yaml",
    { { K_PROFILE, "IMFP", 0, "GLP_01_A", "models_energy_truth.yaml:truth", NULL },
      { K_PROFILE, "BandBending", 0, "GLP_01_x0", "models_energy_truth.yaml:truth", NULL } } },
  { "fitting_workflows/04_parameter_profiles/data/models_time_truth.yaml",
    { { K_TIME, "BandBendingRecovery", 0, "GLP_01_x0_pLinear_01_m",
        "models_energy_truth.yaml:truth|GLP_01_A=models_profile_truth.yaml:IMFP"
        "|GLP_01_x0=models_profile_truth.yaml:BandBending", NULL } } },
  { "fitting_workflows/10_model_comparison/models_energy.yaml",
    { E ("baseA"), E ("baseB"), E ("sbsA"), E ("sbsB"), E ("m2dA"), E ("m2dB") } },
  { "fitting_workflows/10_model_comparison/models_time.yaml",
    { T ("MonoExpPosIRF"), T ("MonoExpPos") } },
  /* vary project, file and static */
  { "fitting_workflows/20_multi_file_independent_fit/models_energy.yaml", { E ("base"), E ("2D") } },
  { "fitting_workflows/20_multi_file_independent_fit/models_time.yaml", { T ("MonoExpPosIRF") } },
  { "fitting_workflows/21_multi_file_shared_fit/models_energy.yaml", { E ("base"), E ("2D") } },
  { "fitting_workflows/21_multi_file_shared_fit/models_time.yaml", { T ("MonoExpPosIRF") } },
  { "fitting_workflows/21_multi_file_shared_fit/data/models_energy_truth.yaml",
    { E ("single_peak") } },
  { "fitting_workflows/21_multi_file_shared_fit/data/models_time_truth.yaml",
    { T ("MonoExpPosIRF") } },
  { "synthetic_data/01_simulator/models_energy.yaml",
    { E ("single_peak"), E ("single_peak_only"), E ("dependent_peaks") } },
  { "synthetic_data/01_simulator/models_time.yaml",
    { T_F ("IRF,MonoExpPos,MonoExpNeg", 0.1), T_BAD ("IRF", 0, "holds only kernels"),
      T ("MonoExpPos"), T ("MonoExpNeg"), T ("MonoExpPosIRF") } },
  { "synthetic_data/02_ml_training_data/models_energy.yaml",
    { E ("single_peak"), E ("single_peak_only"), E ("dependent_peaks") } },
  { "synthetic_data/02_ml_training_data/models_time.yaml",
    { T_F ("IRF,MonoExpPos,MonoExpNeg", 0.1), T_BAD ("IRF", 0, "holds only kernels"),
      T ("MonoExpPos"), T ("MonoExpNeg"), T ("MonoExpPosIRF") } },
  { "test-models/eval_2d_energy.yaml",
    { E ("gauss_only"), E ("gauss_asym_only"), E ("lorentz_only"), E ("voigt_only"),
      E ("gls_only"), E ("glp_only"), E ("ds_only"), E ("offset_only"), E ("linback_peak"),
      E ("shirley_peak"), E ("cached_offset_peak"), E ("cached_shirley_peak"),
      E ("glp_expression") } },
  /* trspecfit's test_model_parser.py: the models after "all following models
   * should fail" fail, except wrong_order (YAML mappings are unordered) */
  { "test-models/file_energy.yaml",
    { E ("simple_energy"), E ("energy_expression"), E ("energy_expression_forward_reference"),
      E ("expression_fan_out"), E ("expression_chain"), E ("single_gauss"), E ("single_glp"),
      E ("pinned_gauss_offset"), E ("glp_one_fixed"), E ("two_glp_expr_amplitude"),
      E ("two_glp_mixed_profile_dynamics"), E ("wrong_order"),
      E_BAD ("wrong_parameter_name", "GLP_01 has no parameter “q” (GLP takes A, x0, F, m)"),
      E_BAD ("background_last", "the last component, Offset, is a background"),
      E_BAD ("energy_convolution_unsupported", "“gaussCONV” is a convolution kernel"),
      E_BAD ("unknown_function_name", "unknown component “GLLP”"),
      E_BAD ("vary_int_bad", "vary (the second item) must be True, False, static, project or "
                             "file, found “0”"),
      E_BAD ("non_numeric_value", "the value “abc” is not a finite number") } },
  { "test-models/file_profile.yaml",
    { { K_PROFILE, "profile_pExpDecay", 0, "GLP_01_A", "file_energy.yaml:single_glp", NULL },
      { K_PROFILE, "profile_pLinear", 0, "GLP_01_x0", "file_energy.yaml:single_glp", NULL },
      { K_PROFILE, "profile_pGauss", 0, "GLP_01_A", "file_energy.yaml:single_glp", NULL },
      { K_PROFILE, "profile_pExpDecayFixed", 0, "Gauss_01_A",
        "file_energy.yaml:pinned_gauss_offset", NULL },
      { K_PROFILE, "roundtrip_pLinear_x0", 0, "Gauss_01_x0", "file_energy.yaml:single_gauss",
        NULL },
      { K_PROFILE, "roundtrip_pExpDecay_A", 0, "Gauss_01_A", "file_energy.yaml:single_gauss",
        NULL } } },
  /* trspecfit's test_model_parser.py: conv_last fails its ordering check,
   * CrossModelExpr at add_time_dependence */
  { "test-models/file_time.yaml",
    { T_F ("IRF,MonoExpPos,MonoExpNeg", 0.1), T_BAD ("IRF", 0, "holds only kernels"),
      T ("MonoExpPos"), T ("MonoExpPosStrong"), T ("MonoExpNeg"), T ("MonoStep"),
      T ("MonoSin"), T ("MonoLin"), T ("MonoSinDivX"), T ("MonoErf"), T ("MonoSqrt"),
      T ("MonoSqrtVaryT0"), T ("MonoExpPosIRF"), T ("MonoExpPosIRFNarrow"),
      T ("MonoExpPosExpSymIRF"), T ("MonoExpPosExpDecayIRF"), T ("MonoExpPosExpRiseIRF"),
      T ("MonoExpPosBoxIRF"), T ("MonoExpPosDoubleIRF"),
      T_F ("ModelNone,MonoExpNeg,MonoExpPosExpr", 0.1), T ("BiExpSharedT0"),
      T_BAD ("conv_last", 0, "the kernel gaussCONV is its last component"),
      T_BAD ("CrossModelExpr", 0, "names “GLP_01_x0”, which is not a parameter of this time "
                                  "dependence") } },
  { "test-models/project_energy.yaml",
    { E ("project_glp_base"), E ("project_glp"), E ("project_glp_expr_base"),
      E ("project_glp_expr") } },
  { "test-models/project_time.yaml", { T ("MonoExpProject"), T ("BiExpProject") } },
};

/* The host energy model of a case: "file:model|param=file:profile|…". */
static XrlabModel *
host_model (const char *dir, const char *host, GError **error)
{
  g_auto(GStrv) parts = NULL;
  g_auto(GStrv) fm = NULL;
  g_autofree char *path = NULL;
  XrlabModel *m;

  if (host == NULL)
    {
      g_autoptr(XrlabModelFile) f = xrlab_model_file_new_from_data (ref_yaml, -1, "ref.yaml",
                                                                    error);
      return f ? xrlab_model_new (f, "ref", error) : NULL;
    }
  parts = g_strsplit (host, "|", -1);
  fm = g_strsplit (parts[0], ":", 2);
  path = g_build_filename (dir, fm[0], NULL);
  m = xrlab_model_load (path, fm[1], error);
  for (guint i = 1; m && parts[i]; i++)
    {
      g_auto(GStrv) pv = g_strsplit (parts[i], "=", 2);
      g_auto(GStrv) pf = g_strsplit (pv[1], ":", 2);
      g_autofree char *ppath = g_build_filename (dir, pf[0], NULL);
      if (!xrlab_model_add_profile (m, pv[0], ppath, pf[1], error))
        g_clear_pointer (&m, xrlab_model_free);
    }
  return m;
}

/* The model of @c ready for a plan, or NULL with @error. */
static XrlabModel *
case_model (const char *path, const Case *c, GError **error)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr(XrlabModelFile) file = xrlab_model_file_load (path, error);
  g_autoptr(XrlabModel) m = NULL;
  g_auto(GStrv) models = NULL;

  if (file == NULL)
    return NULL;
  if (c->kind == K_ENERGY)
    return xrlab_model_new (file, c->models, error);
  m = host_model (dir, c->host, error);
  if (m == NULL)
    return NULL;
  models = g_strsplit (c->models, ",", -1);
  if (c->kind == K_PROFILE
      ? !xrlab_model_add_profile_from_file (m, c->target, file, models[0], error)
      : !xrlab_model_add_dynamics_from_file (m, c->target, file, (const char *const *) models,
                                             g_strv_length (models), c->frequency, error))
    return NULL;
  return g_steal_pointer (&m);
}

static void
test_model_file (gconstpointer data)
{
  const FileCases *fc = data;
  g_autofree char *path = examples_path (fc->path);
  g_autoptr(XrlabModelFile) file = NULL;
  g_autoptr(GError) error = NULL;
  double energy[64], time[40], aux[5] = { 0, 0.5, 1, 2, 4 };

  if (path == NULL)
    return;
  for (gsize i = 0; i < G_N_ELEMENTS (energy); i++)
    energy[i] = 0.5 * (double) i + 0.25 * (i > 40 ? (double) (i - 40) : 0.0);
  for (gsize i = 0; i < G_N_ELEMENTS (time); i++)
    time[i] = -5.0 + 0.5 * (double) i;

  /* every model of the file is one of the cases */
  file = xrlab_model_file_load (path, &error);
  g_assert_no_error (error);
  for (gsize k = 0; k < xrlab_model_file_n_models (file); k++)
    {
      const char *name = xrlab_model_file_model_name (file, k);
      gboolean covered = FALSE;
      for (const Case *c = fc->cases; c->models; c++)
        {
          g_auto(GStrv) models = g_strsplit (c->models, ",", -1);
          covered |= g_strv_contains ((const char *const *) models, name);
        }
      if (!covered)
        g_error ("%s: model “%s” has no case", fc->path, name);
    }

  for (const Case *c = fc->cases; c->models; c++)
    {
      g_autoptr(XrlabModel) m = case_model (path, c, &error);
      g_autoptr(XrlabPlan) plan = NULL;

      if (c->refused)
        {
          if (m != NULL)
            g_error ("%s: “%s” is accepted; trspecfit refuses it", fc->path, c->models);
          g_assert_true (error->domain == XRLAB_MODEL_ERROR);
          if (strstr (error->message, c->refused) == NULL)
            g_error ("%s: “%s”: the message “%s” lacks “%s”", fc->path, c->models,
                     error->message, c->refused);
          g_clear_error (&error);
          continue;
        }
      if (m == NULL)
        g_error ("%s: “%s” is refused: %s", fc->path, c->models, error->message);
      /* it evaluates: every expression resolved, every function known */
      plan = xrlab_plan_new (m, energy, G_N_ELEMENTS (energy), time, G_N_ELEMENTS (time),
                             xrlab_model_has_profiles (m) ? aux : NULL, G_N_ELEMENTS (aux),
                             &error);
      if (plan == NULL)
        g_error ("%s: “%s” does not evaluate: %s", fc->path, c->models, error->message);
      {
        g_autofree double *theta = g_new (double, MAX (xrlab_plan_n_theta (plan), 1));
        g_autofree double *out = g_new (double, xrlab_plan_n_data (plan));
        xrlab_plan_theta_initial (plan, theta);
        xrlab_plan_eval (plan, theta, out);
        for (gsize i = 0; i < xrlab_plan_n_data (plan); i++)
          g_assert_true (isfinite (out[i]));
      }
    }
}

/* ---- workflows -------------------------------------------------------------------------- */

typedef struct {
  char *dir;
  double *data, *energy, *time, *aux;
  gsize rows, cols, ne, nt, na;
  XrlabFitflow *flow;
} Example;

static gboolean
example_open (Example *ex, const char *rel, const char *data, gboolean aux)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *d = g_strdup_printf ("data/%s", data);
  XrlabFitflowData fd = { 0 };

  memset (ex, 0, sizeof *ex);
  ex->dir = examples_path (rel);
  if (ex->dir == NULL)
    return FALSE;
  ex->data = examples_matrix (ex->dir, d, &ex->rows, &ex->cols);
  ex->energy = examples_column (ex->dir, "data/energy.csv", &ex->ne);
  ex->time = examples_column (ex->dir, "data/time.csv", &ex->nt);
  if (aux)
    ex->aux = examples_column (ex->dir, "data/aux_axis.csv", &ex->na);
  fd.data = ex->data;
  fd.n_rows = ex->rows;
  fd.n_cols = ex->cols;
  fd.energy = ex->energy;
  fd.n_energy = ex->ne;
  fd.time = ex->time;
  fd.n_time = ex->nt;
  fd.aux = ex->aux;
  fd.n_aux = ex->na;
  ex->flow = xrlab_fitflow_new (&fd, &error);
  g_assert_no_error (error);
  return TRUE;
}

static void
example_close (Example *ex)
{
  xrlab_fitflow_free (ex->flow);
  g_free (ex->dir);
  g_free (ex->data);
  g_free (ex->energy);
  g_free (ex->time);
  g_free (ex->aux);
}

static XrlabModel *
example_model (const Example *ex, const char *file, const char *name)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (ex->dir, file, NULL);
  XrlabModel *m = xrlab_model_load (path, name, &error);

  g_assert_no_error (error);
  return m;
}

static void
example_dynamics (const Example *ex, XrlabModel *m, const char *param, const char *file,
                  const char *models_csv, double frequency)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (ex->dir, file, NULL);
  g_auto(GStrv) models = g_strsplit (models_csv, ",", -1);

  g_assert_true (xrlab_model_add_dynamics (m, param, path, (const char *const *) models,
                                           g_strv_length (models), frequency, &error));
  g_assert_no_error (error);
}

static void
example_profile (const Example *ex, XrlabModel *m, const char *param, const char *profile)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (ex->dir, "models_profile.yaml", NULL);

  g_assert_true (xrlab_model_add_profile (m, param, path, profile, &error));
  g_assert_no_error (error);
}

/* The truth value of @name in @file (…_truth.yaml of the example). */
static double
truth_of (const Example *ex, const char *file, const char *model, const char *name,
          const char *attach_to, const char *profile_file)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (ex->dir, "data", file, NULL);
  g_autoptr(XrlabModelFile) f = xrlab_model_file_load (path, &error);
  g_autoptr(XrlabModel) m = NULL;
  XrlabParamInfo info;
  gssize i;

  g_assert_no_error (error);
  if (attach_to == NULL)
    m = xrlab_model_new (f, model, &error);
  else
    {
      /* a time or profile model: attach it to a plain host */
      g_autoptr(XrlabModelFile) h = xrlab_model_file_new_from_data (ref_yaml, -1, "ref.yaml",
                                                                    &error);
      const char *models[] = { model };
      m = xrlab_model_new (h, "ref", &error);
      if (profile_file)
        g_assert_true (xrlab_model_add_profile_from_file (m, attach_to, f, model, &error));
      else
        g_assert_true (xrlab_model_add_dynamics_from_file (m, attach_to, f, models, 1, 0,
                                                           &error));
    }
  g_assert_no_error (error);
  i = xrlab_model_find_param (m, name);
  if (i < 0)
    g_error ("no truth for %s", name);
  xrlab_model_get_param (m, i, &info);
  return info.value;
}

/* @name of @r within @nsig of @truth (and its error below @rel of it). */
static void
check_truth (const XrlabFitflowResult *r, const char *name, double truth, double nsig)
{
  gssize i = xrlab_fitflow_result_find (r, name);
  const XrlabFitflowParam *q;

  g_assert_cmpint (i, >=, 0);
  q = &r->params[i];
  g_test_message ("%s: %s = %.5g ± %.2g (truth %.5g, %.1f σ)",
                  xrlab_fitflow_stage_name (r->stage), name, q->value, q->std_error, truth,
                  fabs (q->value - truth) / q->std_error);
  g_assert_true (q->fitted);
  if (!(fabs (q->value - truth) < nsig * q->std_error))
    g_error ("%s: %s = %g ± %g, truth %g", xrlab_fitflow_stage_name (r->stage), name,
             q->value, q->std_error, truth);
}

/* @name of @r within @rel of @truth (relative). */
static void
check_rel (const XrlabFitflowResult *r, const char *name, double truth, double rel)
{
  const XrlabFitflowParam *q = &r->params[xrlab_fitflow_result_find (r, name)];

  g_test_message ("%s: %s = %.5g ± %.2g (truth %.5g, %.2g relative)",
                  xrlab_fitflow_stage_name (r->stage), name, q->value, q->std_error, truth,
                  fabs (q->value / truth - 1.0));
  g_assert_true (q->fitted);
  g_assert_cmpfloat (fabs (q->value / truth - 1.0), <, rel);
}

/* Example 01: baseline, slice by slice, 2D with an IRF-convolved shift. */
static void
test_workflow_01 (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabModel) base = NULL, sbs_m = NULL, m2d = NULL;
  g_autoptr(XrlabFitflowResult) b = NULL, g = NULL;
  g_autoptr(XrlabFitflowSbs) sbs = NULL;
  const char *bnames[] = { "LinBack_m", "LinBack_b", "GLP_01_A", "GLP_01_x0", "GLP_01_F",
                           "GLP_01_m" };
  const char *dnames[] = { "GLP_01_x0_gaussCONV_SD", "GLP_01_x0_expFun_01_A",
                           "GLP_01_x0_expFun_01_tau" };
  Example ex;

  if (!example_open (&ex, "fitting_workflows/01_basic_fitting", "data.csv", FALSE))
    return;
  base = example_model (&ex, "models_energy.yaml", "base");
  sbs_m = example_model (&ex, "models_energy.yaml", "SbS");
  m2d = example_model (&ex, "models_energy.yaml", "2D");
  example_dynamics (&ex, m2d, "GLP_01_x0", "models_time.yaml", "MonoExpIRF", 0);
  g_assert_true (xrlab_fitflow_set_window (ex.flow, 5, 18, -20, 100, &error));
  g_assert_true (xrlab_fitflow_fit_baseline (ex.flow, base, -20, -10, NULL, &b, &error));
  g_assert_no_error (error);
  for (gsize k = 0; k < G_N_ELEMENTS (bnames); k++)
    check_truth (b, bnames[k],
                 truth_of (&ex, "models_energy_truth.yaml", "base", bnames[k], NULL, NULL), 3);
  g_assert_true (xrlab_fitflow_fit_sbs (ex.flow, sbs_m, NULL, &sbs, &error));
  g_assert_no_error (error);
  for (gsize s = 0; s < sbs->n_slices; s++)
    g_assert_true (sbs->done[s] && sbs->converged[s]);
  g_assert_true (xrlab_fitflow_fit_2d (ex.flow, m2d, NULL, &g, &error));
  g_assert_no_error (error);
  g_test_message ("example 01: baseline χ²_ν %.5g, 2D χ²_ν %.5g", b->fit->redchi,
                  g->fit->redchi);
  for (gsize k = 0; k < G_N_ELEMENTS (dnames); k++)
    check_truth (g, dnames[k], truth_of (&ex, "models_time_truth.yaml", "MonoExpIRF", dnames[k],
                                         "GLP_01_x0", NULL), 3);
  check_truth (g, "GLP_01_x0", truth_of (&ex, "models_energy_truth.yaml", "base", "GLP_01_x0",
                                         NULL, NULL), 3);

  /* example 12: MCMC on the baseline, the noise scale sampled */
  {
    g_autoptr(XrlabMcmcResult) mc = NULL;
    XrlabMcmcOptions o;
    xrlab_mcmc_options_init (&o);
    o.n_walkers = 20;
    o.n_steps = 3000;
    o.burn = 300;
    o.seed = 12;
    g_assert_true (xrlab_fitflow_mcmc (b, &o, NULL, &mc, &error));
    g_assert_no_error (error);
    g_test_message ("example 12: acceptance %.2f", mc->acceptance_mean);
    g_assert_cmpfloat (mc->acceptance_mean, >, 0.15);
    g_assert_cmpfloat (mc->acceptance_mean, <, 0.7);
    g_assert_cmpstr (mc->names[mc->p - 1], ==, "__lnsigma");
    for (gsize j = 0; j + 1 < mc->p; j++)
      {
        double t = truth_of (&ex, "models_energy_truth.yaml", "base", mc->names[j], NULL, NULL);
        double half = 0.5 * (mc->hi1[j] - mc->lo1[j]);
        g_test_message ("  %s: median %.5g (%.5g … %.5g), τ %.0f, truth %.5g", mc->names[j],
                        mc->median[j], mc->lo1[j], mc->hi1[j], mc->tau[j], t);
        /* the truth within the 2σ interval widened by 3σ of MCMC noise */
        g_assert_cmpfloat (t, >, mc->lo2[j] - half);
        g_assert_cmpfloat (t, <, mc->hi2[j] + half);
      }
    /* the sampled noise scale is the residuals' */
    g_assert_cmpfloat (fabs (exp (mc->median[mc->p - 1]) / sqrt (b->fit->redchi) - 1.0), <, 0.1);
  }
  example_close (&ex);
}

/* Example 03: the instrument response as a model of its own, first of a
 * multi-cycle list. */
static void
test_workflow_03 (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabModel) base = NULL, m2d = NULL;
  g_autoptr(XrlabFitflowResult) b = NULL, g = NULL;
  Example ex;

  if (!example_open (&ex, "fitting_workflows/03_multi_cycle_dynamics", "data.csv", FALSE))
    return;
  base = example_model (&ex, "models_energy.yaml", "base");
  m2d = example_model (&ex, "models_energy.yaml", "2D");
  example_dynamics (&ex, m2d, "GLP_01_x0", "models_time.yaml", "IRF,MonoExpNeg,MonoExpPos", 0.25);
  g_assert_true (xrlab_fitflow_set_window (ex.flow, 4, 14, -4, 15.75, &error));
  g_assert_true (xrlab_fitflow_fit_baseline (ex.flow, base, -4, -0.5, NULL, &b, &error));
  g_assert_true (xrlab_fitflow_fit_2d (ex.flow, m2d, NULL, &g, &error));
  g_assert_no_error (error);
  g_test_message ("example 03: 2D χ²_ν %.5g after %u iterations", g->fit->redchi,
                  g->fit->niter);
  g_assert_true (g->fit->converged);
  /* Photon counts fitted unweighted, as the notebook does: xrlab lands 1–2 %
   * from the truth of the IRF width, the amplitude and the fast time
   * constant, 4–5 of the reported errors, but χ² at the truth is only 33
   * above the minimum (85 790, χ²_ν 1.08), and on xrlab's own simulations
   * of this example (the same counts) the fitted values scatter over about
   * twice the reported errors, which the unweighted Poisson noise
   * understates. Held to 3 % here. */
  g_assert_cmpfloat (g->fit->redchi, <, 1.1);
  check_rel (g, "GLP_01_x0_gaussCONV_SD", 0.15, 0.03);
  check_rel (g, "GLP_01_x0_expFun_01_A", -2, 0.03);
  check_rel (g, "GLP_01_x0_expFun_01_tau", 0.4, 0.03);
  check_rel (g, "GLP_01_x0_expFun_02_tau", 0.8, 0.03);
  g_assert_cmpfloat (g->params[xrlab_fitflow_result_find (g, "GLP_01_x0_expFun_02_A")].value, ==,
                     -g->params[xrlab_fitflow_result_find (g, "GLP_01_x0_expFun_01_A")].value);
  example_close (&ex);
}

/* Example 04: profiles over depth, and time dependence of a profile's
 * parameter (the band-bending gradient). */
static void
test_workflow_04 (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabModel) base = NULL, m2d = NULL;
  g_autoptr(XrlabFitflowResult) b = NULL, g = NULL;
  Example ex;

  if (!example_open (&ex, "fitting_workflows/04_parameter_profiles", "data.csv", TRUE))
    return;
  base = example_model (&ex, "models_energy.yaml", "profile_base");
  example_profile (&ex, base, "GLP_01_A", "IMFP");
  example_profile (&ex, base, "GLP_01_x0", "BandBending");
  m2d = example_model (&ex, "models_energy.yaml", "2D");
  example_profile (&ex, m2d, "GLP_01_A", "IMFPfixed");
  example_profile (&ex, m2d, "GLP_01_x0", "BandBending");
  example_dynamics (&ex, m2d, "GLP_01_x0_pLinear_01_m", "models_time.yaml",
                    "BandBendingRecovery", 0);
  g_assert_true (xrlab_fitflow_set_window (ex.flow, 95.5, 101.5, -50, 298, &error));
  g_assert_true (xrlab_fitflow_fit_baseline (ex.flow, base, -50, -30, NULL, &b, &error));
  g_assert_no_error (error);
  check_truth (b, "GLP_01_A_pExpDecay_01_A", 100, 3);
  check_truth (b, "GLP_01_x0", 99.5, 3);
  check_truth (b, "GLP_01_x0_pLinear_01_m", -0.5, 3);
  g_assert_true (xrlab_fitflow_fit_2d (ex.flow, m2d, NULL, &g, &error));
  g_assert_no_error (error);
  g_test_message ("example 04: baseline χ²_ν %.5g, 2D χ²_ν %.5g (%u iterations, %.2f s)",
                  b->fit->redchi, g->fit->redchi, g->fit->niter, g->fit->wall_s);
  g_assert_true (g->fit->converged);
  check_truth (g, "GLP_01_x0", 99.5, 3);
  check_truth (g, "GLP_01_x0_pLinear_01_m", -0.5, 3);
  check_truth (g, "GLP_01_x0_pLinear_01_m_gaussCONV_SD", 10, 3);
  check_truth (g, "GLP_01_x0_pLinear_01_m_expFun_01_A", 0.5, 3);
  check_truth (g, "GLP_01_x0_pLinear_01_m_expFun_01_tau", 100, 3);
  example_close (&ex);
}

/* Example 20: each file of example 21 alone; the static shape comes from
 * the file's baseline, and every 2D fit reaches χ²_ν ≈ 0.97 (trspecfit),
 * not a bound. */
static void
test_workflow_20 (void)
{
  const double amps[6] = { 5, 2, 1, 0.5, 0.2, 0.1 };

  for (gsize f = 0; f < 6; f++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(XrlabModel) base = NULL, m2d = NULL;
      g_autoptr(XrlabFitflowResult) b = NULL, g = NULL;
      g_autofree char *data = g_strdup_printf ("data_%zu.csv", f + 1);
      Example ex;
      Example ex20;

      if (!example_open (&ex, "fitting_workflows/21_multi_file_shared_fit", data, FALSE))
        return;
      /* the models of example 20's folder */
      ex20.dir = examples_path ("fitting_workflows/20_multi_file_independent_fit");
      base = example_model (&ex20, "models_energy.yaml", "base");
      m2d = example_model (&ex20, "models_energy.yaml", "2D");
      example_dynamics (&ex20, m2d, "GLP_01_x0", "models_time.yaml", "MonoExpPosIRF", 0);
      g_assert_true (xrlab_fitflow_set_window (ex.flow, 5, 18, -20, 99, &error));
      g_assert_true (xrlab_fitflow_fit_baseline (ex.flow, base, ex.time[0], ex.time[22], NULL, &b,
                                                 &error));
      g_assert_true (xrlab_fitflow_fit_2d (ex.flow, m2d, NULL, &g, &error));
      g_assert_no_error (error);
      g_test_message ("example 20, %s: χ²_ν %.4f, A %.4f", data, g->fit->redchi,
                      g->params[xrlab_fitflow_result_find (g, "GLP_01_x0_expFun_01_A")].value);
      g_assert_cmpuint (g->n_theta, ==, 3);
      g_assert_cmpfloat (g->fit->redchi, <, 1.0);
      for (gsize k = 0; k < g->n_theta; k++)
        g_assert_false (g->fit->at_bound[k]);
      check_truth (g, "GLP_01_x0_expFun_01_A", amps[f], 4);
      g_assert_cmpfloat (g->params[xrlab_fitflow_result_find (g, "GLP_01_F")].value, ==,
                         b->params[xrlab_fitflow_result_find (b, "GLP_01_F")].value);
      g_free (ex20.dir);
      example_close (&ex);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  xrlab_init ();
  for (gsize i = 0; i < G_N_ELEMENTS (model_files); i++)
    {
      g_autofree char *name = g_strdup_printf ("/trspecfit/model-file/%s", model_files[i].path);
      g_test_add_data_func (name, &model_files[i], test_model_file);
    }
  g_test_add_func ("/trspecfit/workflow/01-and-12", test_workflow_01);
  g_test_add_func ("/trspecfit/workflow/03", test_workflow_03);
  g_test_add_func ("/trspecfit/workflow/04", test_workflow_04);
  g_test_add_func ("/trspecfit/workflow/20", test_workflow_20);
  return g_test_run ();
}
