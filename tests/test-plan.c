/* test-plan.c -- the plan against the plain reference, its Jacobian against
 * finite differences, kernels against integrals and analytic convolutions
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include <glib.h>
#include <gsl/gsl_integration.h>

#include "model-reference.h"
#include "xrlab-init.h"
#include "xrlab-model.h"
#include "xrlab-plan.h"
#include "xrlab-plan-private.h"

/* The axes every check uses; the defaults (setup_axes) are a uniform,
 * descending energy axis, a non-uniform delay axis and 5 aux points;
 * test_other_axes swaps in others. */
static double *energy;
static gsize N_E;
static double *time_axis;       /* ascending, contains 0 */
static gsize n_time;
static double *aux_axis;
static gsize N_A;

static char *
models_dir (void)
{
  return g_build_filename (XRLAB_TEST_SRCDIR, "..", "data", "models", NULL);
}

static void
setup_axes (void)
{
  GArray *t = g_array_new (FALSE, FALSE, sizeof (double));
  static const double aux5[] = { 0.0, 0.7, 1.5, 2.6, 4.0 };

  /* descending, like a binding-energy axis */
  N_E = 96;
  energy = g_new (double, N_E);
  for (gsize i = 0; i < N_E; i++)
    energy[i] = 92.0 - 0.125 * i;
  N_A = G_N_ELEMENTS (aux5);
  aux_axis = g_memdup2 (aux5, sizeof aux5);
  /* fine steps around 0, coarse later, one odd step: non-uniform */
  for (int i = 0; i <= 16; i++)
    {
      double v = -2.0 + 0.25 * i;
      g_array_append_val (t, v);
    }
  for (int i = 1; i <= 20; i++)
    {
      double v = 2.0 + 0.75 * i;
      g_array_append_val (t, v);
    }
  {
    double v = 17.3;
    g_array_append_val (t, v);
  }
  n_time = t->len;
  time_axis = (double *) g_array_free (t, FALSE);
}

static XrlabModel *
model_from_text (const char *yaml, const char *name)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabModelFile) file = xrlab_model_file_new_from_data (yaml, -1, "test.yaml", &error);
  XrlabModel *m;

  g_assert_no_error (error);
  m = xrlab_model_new (file, name, &error);
  g_assert_no_error (error);
  return m;
}

static void
attach_time (XrlabModel *m, const char *param, const char *models_csv, double freq)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = models_dir ();
  g_autofree char *path = g_build_filename (dir, "time.yaml", NULL);
  g_auto(GStrv) models = g_strsplit (models_csv, ",", -1);

  xrlab_model_add_dynamics (m, param, path, (const char *const *) models,
                            g_strv_length (models), freq, &error);
  g_assert_no_error (error);
}

static void
attach_time_text (XrlabModel *m, const char *param, const char *yaml, const char *models_csv,
                  double freq)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabModelFile) file = xrlab_model_file_new_from_data (yaml, -1, "time-test.yaml", &error);
  g_auto(GStrv) models = g_strsplit (models_csv, ",", -1);

  g_assert_no_error (error);
  xrlab_model_add_dynamics_from_file (m, param, file, (const char *const *) models,
                                      g_strv_length (models), freq, &error);
  g_assert_no_error (error);
}

static const char *profile_yaml =
  "pExp:\n"
  "  pExpDecay: {A: [-40, True, -100, 100], tau: [2.0, True, 0.5, 10.0]}\n"
  "pLin:\n"
  "  pLinear: {m: [0.3, True, -2, 2], b: [-0.2, True, -1.0, 1.0]}\n"
  "pGau:\n"
  "  pGauss: {A: [1.0E-3, True, 0, 1], x0: [2.0, True, 0, 4], SD: [1.5, True, 0.5, 5]}\n";

static void
attach_profile (XrlabModel *m, const char *param, const char *model)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabModelFile) file = xrlab_model_file_new_from_data (profile_yaml, -1, "profile.yaml", &error);

  g_assert_no_error (error);
  xrlab_model_add_profile_from_file (m, param, file, model, &error);
  g_assert_no_error (error);
}

/* Moves every θ entry by a few percent (alternating sign). */
static void
perturb (const XrlabPlan *plan, double *theta)
{
  for (gsize k = 0; k < xrlab_plan_n_theta (plan); k++)
    theta[k] += ((k % 3) == 0 ? 0.031 : (k % 3) == 1 ? -0.022 : 0.017) * (fabs (theta[k]) + 0.05);
}

static void
compare_to_reference (const char *what, const XrlabModel *m, XrlabPlanFlags flags,
                      const XrlabPlan *plan, const double *theta, gboolean use_time,
                      gboolean use_aux)
{
  gsize n = xrlab_plan_n_data (plan);
  g_autofree double *out = g_new (double, n);
  g_autofree double *ref = xrlab_reference_eval (m, flags, theta, energy, N_E,
                                                 use_time ? time_axis : NULL, n_time,
                                                 use_aux ? aux_axis : NULL, N_A);
  double scale = 0.0, worst = 0.0;

  xrlab_plan_eval (plan, theta, out);
  for (gsize i = 0; i < n; i++)
    scale = MAX (scale, fabs (ref[i]));
  g_assert_cmpfloat (scale, >, 0.0);
  for (gsize i = 0; i < n; i++)
    {
      double err = fabs (out[i] - ref[i]) / MAX (fabs (ref[i]), 1e-6 * scale);
      g_assert_true (isfinite (out[i]));
      worst = MAX (worst, err);
    }
  if (worst > 1e-10)
    g_error ("%s: plan and reference differ by %g (relative)", what, worst);
}

static void
check_jacobian (const char *what, const XrlabPlan *plan, const double *theta0)
{
  gsize n = xrlab_plan_n_data (plan), nth = xrlab_plan_n_theta (plan);
  g_autofree double *jac = g_new (double, n * nth);
  g_autofree double *jac2 = g_new (double, n * nth);
  g_autofree double *out = g_new (double, n);
  g_autofree double *out2 = g_new (double, n);
  g_autofree double *fp = g_new (double, n);
  g_autofree double *fm = g_new (double, n);
  g_autofree double *theta = g_memdup2 (theta0, nth * sizeof (double));
  g_autoptr(XrlabPlanWorkspace) ws1 = xrlab_plan_workspace_new (plan, 1);
  g_autoptr(XrlabPlanWorkspace) ws3 = xrlab_plan_workspace_new (plan, 3);
  double jmax = 0.0;

  /* the Jacobian call's values are the evaluation's; threads change nothing */
  xrlab_plan_eval_jacobian_ws (plan, ws1, theta, out, jac);
  xrlab_plan_eval_ws (plan, ws1, theta, out2);
  {
    double scale = 0.0;
    for (gsize i = 0; i < n; i++)
      scale = MAX (scale, fabs (out2[i]));
    for (gsize i = 0; i < n; i++)
      g_assert_cmpfloat (fabs (out[i] - out2[i]), <=, 1e-13 * (fabs (out2[i]) + 1e-3 * scale));
  }
  xrlab_plan_eval_jacobian_ws (plan, ws3, theta, out2, jac2);
  g_assert_true (memcmp (out, out2, n * sizeof (double)) == 0);
  g_assert_true (memcmp (jac, jac2, n * nth * sizeof (double)) == 0);
  xrlab_plan_jacobian (plan, theta, jac2);
  g_assert_true (memcmp (jac, jac2, n * nth * sizeof (double)) == 0);

  for (gsize i = 0; i < n * nth; i++)
    {
      g_assert_true (isfinite (jac[i]));
      jmax = MAX (jmax, fabs (jac[i]));
    }
  for (gsize k = 0; k < nth; k++)
    {
      double h = 1e-6 * MAX (1.0, fabs (theta0[k])), worst = 0.0;
      theta[k] = theta0[k] + h;
      xrlab_plan_eval_ws (plan, ws1, theta, fp);
      theta[k] = theta0[k] - h;
      xrlab_plan_eval_ws (plan, ws1, theta, fm);
      theta[k] = theta0[k];
      for (gsize i = 0; i < n; i++)
        {
          double fd = (fp[i] - fm[i]) / (2 * h);
          worst = MAX (worst, fabs (fd - jac[i * nth + k]));
        }
      if (worst > 1e-5 * jmax)
        g_error ("%s: ∂/∂%s differs from central differences by %g (largest entry %g)",
                 what, xrlab_plan_theta_name (plan, k), worst, jmax);
    }
}

/* The whole check for one model: θ order, reference at the initial and a
 * perturbed θ, Jacobian at both. */
static void
check_model (const char *what, const XrlabModel *m, XrlabPlanFlags flags, gboolean use_time,
             gboolean use_aux)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabPlan) plan = xrlab_plan_new_full (m, energy, N_E,
                                                   use_time ? time_axis : NULL, n_time,
                                                   use_aux ? aux_axis : NULL, N_A,
                                                   flags, &error);
  g_auto(GStrv) names = xrlab_reference_theta_names (m, flags);
  g_autofree double *theta = NULL;
  gsize nth;

  g_assert_no_error (error);
  nth = xrlab_plan_n_theta (plan);
  g_assert_cmpuint (nth, ==, g_strv_length (names));
  for (gsize k = 0; k < nth; k++)
    g_assert_cmpstr (xrlab_plan_theta_name (plan, k), ==, names[k]);
  g_assert_cmpuint (xrlab_plan_n_rows (plan), ==, use_time ? n_time : 1);

  theta = g_new (double, MAX (nth, 1));
  xrlab_plan_theta_initial (plan, theta);
  compare_to_reference (what, m, flags, plan, theta, use_time, use_aux);
  if (nth > 0)
    check_jacobian (what, plan, theta);
  perturb (plan, theta);
  compare_to_reference (what, m, flags, plan, theta, use_time, use_aux);
  if (nth > 0)
    check_jacobian (what, plan, theta);
}

/* ---- every component ----------------------------------------------------------------- */

static const struct {
  const char *name;
  const char *yaml;
} components[] = {
  { "Gauss", "m:\n  Gauss: {A: [10, True, 0, 100], x0: [85.3, True, 80, 90], SD: [0.8, True, 0.1, 3]}\n" },
  { "GaussAsym", "m:\n  GaussAsym: {A: [10, True], x0: [85.3, True], SD: [0.8, True], ratio: [1.7, True, 0.2, 5]}\n" },
  { "Lorentz", "m:\n  Lorentz: {A: [10, True], x0: [85.3, True], W: [1.2, True, 0.1, 5]}\n" },
  { "Voigt", "m:\n  Voigt: {A: [10, True], x0: [85.3, True], SD: [0.6, True, 0.05, 3], W: [0.9, True, 0.05, 5]}\n" },
  { "GLS", "m:\n  GLS: {A: [10, True], x0: [85.3, True], F: [1.1, True], m: [0.35, True, 0, 1]}\n" },
  { "GLP", "m:\n  GLP: {A: [10, True], x0: [85.3, True], F: [1.1, True], m: [0.35, True, 0, 1]}\n" },
  { "DS", "m:\n  DS: {A: [10, True], x0: [85.3, True], F: [0.7, True], alpha: [0.12, True, 0, 0.5]}\n" },
  { "Offset", "m:\n  Offset: {y0: [3.5, True]}\n  Gauss: {A: [10, False], x0: [85.3, False], SD: [0.8, False]}\n" },
  { "LinBack", "m:\n  LinBack: {m: [0.4, True], b: [2, True], xStart: [83.05, True], xStop: [88.93, True]}\n"
               "  GLP: {A: [10, True], x0: [85.3, True], F: [1.1, True], m: [0.35, True]}\n" },
  /* narrow: the Gaussian factors underflow over most of the axis */
  { "narrow Gauss", "m:\n  Gauss: {A: [10, True], x0: [85.31, True], SD: [0.07, True, 0.01, 3]}\n" },
  { "narrow GLP", "m:\n  GLP: {A: [10, True], x0: [85.31, True], F: [0.12, True], m: [0.05, True, 0, 1]}\n" },
  { "Shirley", "m:\n  Shirley: {pShirley: [0.02, True, 0, 1]}\n"
               "  GLP: {A: [10, True], x0: [85.3, True], F: [1.1, True], m: [0.35, True]}\n"
               "  Lorentz: {A: [4, True], x0: [88.1, True], W: [1.2, True]}\n" },
};

static void
test_components (void)
{
  for (gsize i = 0; i < G_N_ELEMENTS (components); i++)
    {
      g_autoptr(XrlabModel) m = model_from_text (components[i].yaml, "m");
      check_model (components[i].name, m, 0, FALSE, FALSE);
      /* the same on a delay axis: every row alike */
      check_model (components[i].name, m, 0, TRUE, FALSE);
    }
}

/* ---- the Au 4f model, its sine, Shirley through expressions ---------------------------- */

static XrlabModel *
load_au4f (const char *name)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = models_dir ();
  g_autofree char *path = g_build_filename (dir, "au4f.yaml", NULL);
  XrlabModel *m = xrlab_model_load (path, name, &error);

  g_assert_no_error (error);
  return m;
}

static void
test_au4f (void)
{
  g_autoptr(XrlabModel) base = load_au4f ("base");
  g_autoptr(XrlabModel) m = load_au4f ("2D");
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = models_dir ();
  g_autofree char *path = g_build_filename (dir, "au4f-time.yaml", NULL);
  const char *models[] = { "SinOsc" };

  check_model ("Au 4f baseline", base, 0, FALSE, FALSE);
  g_assert_true (xrlab_model_add_dynamics (m, "GLP_01_x0", path, models, 1, 0, &error));
  g_assert_no_error (error);
  g_assert_cmpint (xrlab_model_find_param (m, "GLP_01_x0_sinFun_01_phi"), >=, 0);
  check_model ("Au 4f 2D", m, 0, TRUE, FALSE);
  /* with the dynamics left out: a 1D plan and the baseline's θ */
  check_model ("Au 4f 2D without dynamics", m, XRLAB_PLAN_IGNORE_DYNAMICS, FALSE, FALSE);
}

/* ---- time functions ---------------------------------------------------------------------- */

static const char *peak_yaml =
  "m:\n"
  "  Offset: {y0: [1.5, True, 0, 10]}\n"
  "  GLP: {A: [10, True, 0, 100], x0: [85.3, True, 80, 90], F: [1.1, True, 0.2, 4], m: [0.35, True, 0, 1]}\n"
  "  Gauss: {A: [5, True, 0, 100], x0: [\"GLP_01_x0 + 2.5\"], SD: [0.7, True, 0.1, 4]}\n";

static void
test_time_functions (void)
{
  const char *models[] = { "MonoExpPos", "MonoExpNeg", "MonoStep", "MonoSin", "MonoLin",
                           "MonoSinDivX", "MonoErf", "MonoSqrt", "BiExp" };
  for (gsize i = 0; i < G_N_ELEMENTS (models); i++)
    {
      g_autoptr(XrlabModel) m = model_from_text (peak_yaml, "m");
      g_autoptr(XrlabModel) m2 = model_from_text (peak_yaml, "m");
      attach_time (m, "GLP_01_x0", models[i], 0);
      check_model (models[i], m, 0, TRUE, FALSE);
      /* on an amplitude */
      attach_time (m2, "GLP_01_A", models[i], 0);
      check_model (models[i], m2, 0, TRUE, FALSE);
    }
}

/* time functions whose t0 is free, off the axis points */
static void
test_free_onsets (void)
{
  static const char *yaml =
    "E: {expFun: {A: [0.8, True], tau: [3.0, True], t0: [0.37, True, -1, 2]}}\n"
    "S: {stepFun: {A: [0.6, True], t0: [1.13, True, -1, 2]}}\n"
    "L: {linFun: {m: [0.05, True], t0: [0.61, True, -1, 2]}}\n"
    "W: {sinFun: {A: [0.4, True], f: [0.11, True], phi: [0.2, True], t0: [-0.62, True, -1, 2]}}\n"
    "X: {sinDivX: {A: [0.7, True], f: [0.2, True], t0: [0.13, True, -1, 2]}}\n"
    "R: {erfFun: {A: [0.5, True], SD: [1.3, True], t0: [2.2, True, -1, 5]}}\n"
    "Q: {sqrtFun: {A: [0.3, True], t0: [0.38, True, -1, 2]}}\n";
  const char *models[] = { "E", "S", "L", "W", "X", "R", "Q" };

  for (gsize i = 0; i < G_N_ELEMENTS (models); i++)
    {
      g_autoptr(XrlabModel) m = model_from_text (peak_yaml, "m");
      attach_time_text (m, "GLP_01_x0", yaml, models[i], 0);
      check_model (models[i], m, 0, TRUE, FALSE);
    }
}

/* ---- kernels ------------------------------------------------------------------------------- */

static const char *kernel_yaml =
  "G: {gaussCONV: {SD: [0.6, True, 0.01, 5]}, expFun: {A: [0.9, True], tau: [2.5, True], t0: [0.2, False]}}\n"
  "ES: {expSymCONV: {tau: [0.8, True, 0.01, 5]}, expFun: {A: [0.9, True], tau: [2.5, True], t0: [0.2, False]}}\n"
  "ED: {expDecayCONV: {tau: [0.8, True, 0.01, 5]}, expFun: {A: [0.9, True], tau: [2.5, True], t0: [0.2, False]}}\n"
  "ER: {expRiseCONV: {tau: [0.8, True, 0.01, 5]}, expFun: {A: [0.9, True], tau: [2.5, True], t0: [0.2, False]}}\n"
  "B: {boxCONV: {width: [2.3, True, 0.01, 10]}, expFun: {A: [0.9, True], tau: [2.5, True], t0: [0.2, False]}}\n"
  "GB: {gaussCONV: {SD: [0.4, True, 0.01, 5]}, boxCONV: {width: [1.3, True, 0.01, 10]}, "
  "     expFun: {A: [0.9, True], tau: [2.5, True], t0: [0.2, False]}}\n"
  "GE: {gaussCONV: {SD: [\"expFun_01_tau / 4\"]}, expFun: {A: [0.9, True], tau: [2.5, True], t0: [0.2, False]}}\n"
  /* a constant trace (the step before the axis) */
  "Gc: {gaussCONV: {SD: [0.6, True]}, stepFun: {A: [0.9, True], t0: [-5, False]}}\n"
  "ESc: {expSymCONV: {tau: [0.8, True]}, stepFun: {A: [0.9, True], t0: [-5, False]}}\n"
  "EDc: {expDecayCONV: {tau: [0.8, True]}, stepFun: {A: [0.9, True], t0: [-5, False]}}\n"
  "ERc: {expRiseCONV: {tau: [0.8, True]}, stepFun: {A: [0.9, True], t0: [-5, False]}}\n"
  "Bc: {boxCONV: {width: [2.3, True]}, stepFun: {A: [0.9, True], t0: [-5, False]}}\n"
  /* smooth: erf(SD1) convolved with a Gaussian (SD2) is erf(sqrt(SD1^2 + SD2^2)) */
  "GR: {gaussCONV: {SD: [0.9, True]}, erfFun: {A: [1.0, True], SD: [1.2, True], t0: [3.1, False]}}\n";

static void
test_kernels (void)
{
  const char *models[] = { "G", "ES", "ED", "ER", "B", "GB", "GE", "GR" };

  for (gsize i = 0; i < G_N_ELEMENTS (models); i++)
    {
      g_autoptr(XrlabModel) m = model_from_text (peak_yaml, "m");
      attach_time_text (m, "GLP_01_x0", kernel_yaml, models[i], 0);
      check_model (models[i], m, 0, TRUE, FALSE);
    }
}

/* A constant stays constant through every kernel on a non-uniform axis. */
static void
test_kernel_constant (void)
{
  const char *models[] = { "Gc", "ESc", "EDc", "ERc", "Bc" };

  for (gsize i = 0; i < G_N_ELEMENTS (models); i++)
    {
      g_autoptr(XrlabModel) m = model_from_text (peak_yaml, "m");
      g_autoptr(GError) error = NULL;
      g_autoptr(XrlabPlan) plan = NULL;
      g_autoptr(XrlabPlanWorkspace) ws = NULL;
      g_autofree double *theta = NULL, *trace = NULL;
      gsize idx;

      attach_time_text (m, "GLP_01_x0", kernel_yaml, models[i], 0);
      plan = xrlab_plan_new (m, energy, N_E, time_axis, n_time, NULL, 0, &error);
      g_assert_no_error (error);
      ws = xrlab_plan_workspace_new (plan, 1);
      theta = g_new (double, xrlab_plan_n_theta (plan));
      trace = g_new (double, n_time);
      xrlab_plan_theta_initial (plan, theta);
      idx = xrlab_model_find_param (m, "GLP_01_x0");
      g_assert_cmpuint (xrlab_plan_param_trace (plan, ws, theta, idx, trace), ==, n_time);
      for (gsize t = 0; t < n_time; t++)
        g_assert_cmpfloat_with_epsilon (trace[t], 85.3 + 0.9, 1e-12);
    }
}

/* The plan's convolution approaches the continuous one on a fine,
 * non-uniform axis: erf(SD1) ⊗ gauss(SD2) = erf(sqrt(SD1² + SD2²)). */
static void
test_kernel_analytic (void)
{
  g_autoptr(XrlabModel) m = model_from_text (peak_yaml, "m");
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) t = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(XrlabPlan) plan = NULL;
  g_autoptr(XrlabPlanWorkspace) ws = NULL;
  g_autofree double *theta = NULL, *trace = NULL;
  double sd = sqrt (0.9 * 0.9 + 1.2 * 1.2), worst = 0.0;

  for (double v = -6.0; v < 14.0; v += (v < 3.0 ? 0.02 : 0.05))
    g_array_append_val (t, v);
  attach_time_text (m, "GLP_01_x0", kernel_yaml, "GR", 0);
  plan = xrlab_plan_new (m, energy, N_E, (double *) t->data, t->len, NULL, 0, &error);
  g_assert_no_error (error);
  ws = xrlab_plan_workspace_new (plan, 1);
  theta = g_new (double, xrlab_plan_n_theta (plan));
  trace = g_new (double, t->len);
  xrlab_plan_theta_initial (plan, theta);
  xrlab_plan_param_trace (plan, ws, theta, xrlab_model_find_param (m, "GLP_01_x0"), trace);
  for (guint i = 0; i < t->len; i++)
    {
      double x = g_array_index (t, double, i);
      double exact = 85.3 + 0.5 * (1 + erf ((x - 3.1) / (sd * M_SQRT2)));
      worst = MAX (worst, fabs (trace[i] - exact));
    }
  g_assert_cmpfloat (worst, <, 2e-4);
}

/* Edge masses against numerical integration of the kernel, and their
 * derivatives against finite differences. */
typedef struct {
  XrlabFn fn;
  double s;
} KParams;

static double
kernel_integrand (double u, void *data)
{
  KParams *p = data;
  return xrlab_kernel_g (p->fn, u, p->s, NULL);
}

static double
integrate (XrlabFn fn, double s, double from, double to)
{
  gsl_integration_workspace *w = gsl_integration_workspace_alloc (1000);
  KParams kp = { fn, s };
  gsl_function f = { kernel_integrand, &kp };
  double lo, hi, result = 0.0, abserr;
  double pts[5];
  gsize np = 0;

  /* finite pieces between the kernel's kinks, within its support */
  xrlab_kernel_support (fn, s, &lo, &hi);
  lo = MAX (lo, from);
  hi = MIN (hi, to);
  if (hi > lo)
    {
      pts[np++] = lo;
      if (fn == XRLAB_FN_BOXCONV)
        {
          if (-s / 2 > lo && -s / 2 < hi)
            pts[np++] = -s / 2;
          if (s / 2 > lo && s / 2 < hi)
            pts[np++] = s / 2;
        }
      else if (0.0 > lo && 0.0 < hi)
        pts[np++] = 0.0;
      pts[np++] = hi;
      g_assert_cmpint (gsl_integration_qagp (&f, pts, np, 1e-14, 1e-12, 1000, w, &result,
                                             &abserr), ==, 0);
    }
  gsl_integration_workspace_free (w);
  return result;
}

static void
test_kernel_masses (void)
{
  const XrlabFn fns[] = { XRLAB_FN_GAUSSCONV, XRLAB_FN_EXPSYMCONV, XRLAB_FN_EXPDECAYCONV,
                          XRLAB_FN_EXPRISECONV, XRLAB_FN_BOXCONV };
  const double ss[] = { 0.3, 1.0, 2.7 };
  const double xs[] = { -3.1, -0.9, -0.2, 0.0, 0.15, 0.8, 2.4, 7.0 };

  for (gsize f = 0; f < G_N_ELEMENTS (fns); f++)
    for (gsize i = 0; i < G_N_ELEMENTS (ss); i++)
      for (gsize j = 0; j < G_N_ELEMENTS (xs); j++)
        {
          double s = ss[i], x = xs[j], dm, dm2, h = 1e-6 * s;
          double above = xrlab_kernel_mass_above (fns[f], x, s, &dm);
          double below = xrlab_kernel_mass_below (fns[f], x, s, &dm2);
          double num_above = integrate (fns[f], s, x, INFINITY);
          double num_below = integrate (fns[f], s, -INFINITY, x);
          double total = integrate (fns[f], s, -INFINITY, INFINITY);

          g_assert_cmpfloat_with_epsilon (above, num_above, 1e-10 * total);
          g_assert_cmpfloat_with_epsilon (below, num_below, 1e-10 * total);
          g_assert_cmpfloat_with_epsilon (above + below, total, 1e-10 * total);
          /* derivatives with respect to the kernel parameter (away from the
           * box's corners, where the mass has a kink in s) */
          if (fns[f] == XRLAB_FN_BOXCONV && fabs (fabs (x) - s / 2) < 1e-3)
            continue;
          g_assert_cmpfloat_with_epsilon (dm, (xrlab_kernel_mass_above (fns[f], x, s + h, NULL)
                                               - xrlab_kernel_mass_above (fns[f], x, s - h, NULL)) / (2 * h),
                                          1e-6);
          g_assert_cmpfloat_with_epsilon (dm2, (xrlab_kernel_mass_below (fns[f], x, s + h, NULL)
                                                - xrlab_kernel_mass_below (fns[f], x, s - h, NULL)) / (2 * h),
                                          1e-6);
        }
}

/* ---- functions in expressions ------------------------------------------------------------------ */

static void
test_expr_functions (void)
{
  g_autoptr(XrlabModel) m = model_from_text (
    "m:\n"
    "  Offset: {y0: [\"exp(-GLP_01_m) * 2\"]}\n"
    "  GLP: {A: [10, True, 0, 100], x0: [85.3, True, 80, 90], F: [1.1, True, 0.2, 4], "
    "m: [0.35, True, 0, 1]}\n"
    "  GLP: {A: [\"sqrt(GLP_01_A) * 3\"], x0: [\"GLP_01_x0 + log(GLP_01_F + 1)\"], "
    "F: [\"abs(GLP_01_F - 0.1)\"], m: [\"pow(GLP_01_m, 1.5)\"]}\n"
    "  Gauss: {A: [\"5 + sin(GLP_01_x0) * cos(GLP_01_F)\"], x0: [83, True, 80, 90], "
    "SD: [0.7, True, 0.1, 4]}\n", "m");

  check_model ("functions in energy expressions", m, 0, FALSE, FALSE);
  attach_time_text (m, "GLP_01_x0",
                    "E: {expFun: {A: [0.8, True], tau: [3.0, True, 1, 10], "
                    "t0: [\"sqrt(expFun_01_tau) - 1.5\"]}}\n", "E", 0);
  check_model ("functions in time-model expressions", m, 0, TRUE, FALSE);
}

/* ---- multi-cycle dynamics --------------------------------------------------------------------- */

static void
test_subcycles (void)
{
  {
    /* two models: MonoExpPosExpr follows MonoExpNeg's parameters and is
     * renumbered expFun_02 */
    g_autoptr(XrlabModel) m = model_from_text (peak_yaml, "m");
    attach_time (m, "GLP_01_x0", "MonoExpNeg,MonoExpPosExpr", 0.1);
    g_assert_cmpint (xrlab_model_find_param (m, "GLP_01_x0_expFun_02_t0"), >=, 0);
    g_assert_cmpint (xrlab_model_find_param (m, "GLP_01_x0_expFun_02_A"), >=, 0);
    check_model ("subcycles (2 models)", m, 0, TRUE, FALSE);
  }
  {
    /* a whole-axis model and two subcycles, one of them empty */
    g_autoptr(XrlabModel) m = model_from_text (peak_yaml, "m");
    attach_time (m, "GLP_01_x0", "MonoSin,MonoExpPos,ModelNone", 0.0625);
    check_model ("subcycles (3 models)", m, 0, TRUE, FALSE);
  }
  {
    /* subcycles and a kernel */
    g_autoptr(XrlabModel) m = model_from_text (peak_yaml, "m");
    g_autoptr(XrlabModel) m2 = NULL;
    attach_time_text (m, "GLP_01_A",
                      "IRF: {gaussCONV: {SD: [0.5, True]}, stepFun: {A: [0.5, True], t0: [1.1, True, -1, 3]}}\n"
                      "Sub1: {expFun: {A: [2, True], tau: [1.5, True], t0: [0.4, True, -1, 3]}}\n"
                      "Sub2: {linFun: {m: [0.3, True], t0: [0.2, True, -1, 3]}}\n",
                      "IRF,Sub1,Sub2", 0.1);
    check_model ("subcycles with a kernel", m, 0, TRUE, FALSE);

    /* copies evaluate alike */
    m2 = xrlab_model_copy (m);
    check_model ("copy", m2, 0, TRUE, FALSE);
  }
  {
    /* trspecfit's instrument response as a model of its own, first of the
     * list: it convolves the whole trace, subcycles included (example 03) */
    g_autoptr(XrlabModel) m = model_from_text (peak_yaml, "m");
    g_autoptr(XrlabModel) m_inside = model_from_text (peak_yaml, "m");
    static const char *yaml =
      "IRF: {gaussCONV: {SD: [0.5, True, 1.0E-6, 1]}}\n"
      "None: {none: {}}\n"
      "Neg: {expFun: {A: [-1.5, True, -5, -1.0E-3], tau: [1, True, 0.05, 5], t0: [0, False]}}\n"
      "NegIRF: {gaussCONV: {SD: [0.5, True, 1.0E-6, 1]}, "
      "expFun: {A: [-1.5, True, -5, -1.0E-3], tau: [1, True, 0.05, 5], t0: [0, False]}}\n"
      "Pos: {expFun: {A: [\"-expFun_01_A\"], tau: [2, True, 0.05, 5], t0: [0, False]}}\n";
    g_autoptr(XrlabPlan) p1 = NULL, p2 = NULL;
    g_autofree double *o1 = NULL, *o2 = NULL, *th = NULL;
    g_autoptr(GError) error = NULL;

    attach_time_text (m, "GLP_01_x0", yaml, "IRF,Neg,Pos", 0.25);
    g_assert_cmpint (xrlab_model_find_param (m, "GLP_01_x0_gaussCONV_SD"), >=, 0);
    g_assert_cmpint (xrlab_model_find_param (m, "GLP_01_x0_expFun_02_tau"), >=, 0);
    check_model ("an IRF model first, then subcycles", m, 0, TRUE, FALSE);
    /* the same as the kernel written into a subcycle model, which also
     * convolves the whole trace */
    attach_time_text (m_inside, "GLP_01_x0", yaml, "None,NegIRF,Pos", 0.25);
    p1 = xrlab_plan_new (m, energy, N_E, time_axis, n_time, NULL, 0, &error);
    p2 = xrlab_plan_new (m_inside, energy, N_E, time_axis, n_time, NULL, 0, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (xrlab_plan_n_theta (p1), ==, xrlab_plan_n_theta (p2));
    o1 = g_new (double, xrlab_plan_n_data (p1));
    o2 = g_new (double, xrlab_plan_n_data (p2));
    th = g_new (double, xrlab_plan_n_theta (p1));
    xrlab_plan_theta_initial (p1, th);
    xrlab_plan_eval (p1, th, o1);
    xrlab_plan_theta_initial (p2, th);
    xrlab_plan_eval (p2, th, o2);
    for (gsize i = 0; i < xrlab_plan_n_data (p1); i++)
      g_assert_cmpfloat_with_epsilon (o1[i], o2[i], 1e-12 * (1 + fabs (o2[i])));
  }
}

/* ---- profiles ------------------------------------------------------------------------------------ */

static const char *profile_model_yaml =
  "m:\n"
  "  Offset: {y0: [1.5, True, 0, 10]}\n"
  "  Shirley: {pShirley: [0.01, True, 0, 1]}\n"
  "  GLP: {A: [100, True, 0, 1000], x0: [85.3, True, 80, 90], F: [1.1, True, 0.2, 4], m: [0.35, True, 0, 1]}\n"
  "  GLP: {A: [\"0.5*GLP_01_A\"], x0: [\"GLP_01_x0 + 2.5\"], F: [\"GLP_01_F\"], m: [0.2, True, 0, 1]}\n"
  "  Gauss: {A: [5, True, 0, 100], x0: [83.2, True, 80, 90], SD: [0.7, True, 0.1, 4]}\n";

static void
test_profiles (void)
{
  {
    g_autoptr(XrlabModel) m = model_from_text (profile_model_yaml, "m");
    attach_profile (m, "GLP_01_A", "pExp");
    g_assert_cmpint (xrlab_model_find_param (m, "GLP_01_A_pExpDecay_01_tau"), >=, 0);
    check_model ("pExpDecay on A (and A of the second peak through its expression)", m, 0,
                 FALSE, TRUE);
    check_model ("pExpDecay on A, 2D", m, 0, TRUE, TRUE);
    check_model ("profiles left out", m, XRLAB_PLAN_IGNORE_PROFILES, FALSE, FALSE);
  }
  {
    g_autoptr(XrlabModel) m = model_from_text (profile_model_yaml, "m");
    attach_profile (m, "GLP_01_x0", "pLin");
    attach_profile (m, "Gauss_01_A", "pGau");
    attach_profile (m, "Shirley_pShirley", "pGau");
    check_model ("pLinear on x0, pGauss on A and pShirley", m, 0, FALSE, TRUE);
  }
  {
    /* a profile and time dependence on the same parameter */
    g_autoptr(XrlabModel) m = model_from_text (profile_model_yaml, "m");
    attach_profile (m, "GLP_01_x0", "pLin");
    attach_time (m, "GLP_01_x0", "MonoExpPos", 0);
    attach_time (m, "Gauss_01_A", "MonoSin", 0);
    check_model ("profile and dynamics", m, 0, TRUE, TRUE);
  }
  {
    /* time dependence of a profile's parameter (trspecfit's example 04:
     * the band bending gradient follows a time model) */
    g_autoptr(XrlabModel) m = model_from_text (profile_model_yaml, "m");
    g_autoptr(GError) error = NULL;
    XrlabParamInfo info;
    gssize i;

    attach_profile (m, "GLP_01_A", "pExp");
    attach_profile (m, "GLP_01_x0", "pLin");
    attach_time (m, "GLP_01_x0_pLinear_01_m", "MonoExpIRF", 0);
    attach_time (m, "GLP_01_A_pExpDecay_01_A", "MonoSin", 0);
    i = xrlab_model_find_param (m, "GLP_01_x0_pLinear_01_m_expFun_01_tau");
    g_assert_cmpint (i, >=, 0);
    xrlab_model_get_param (m, i, &info);
    g_assert_cmpint (info.role, ==, XRLAB_PARAM_DYNAMICS);
    g_assert_cmpstr (info.host, ==, "GLP_01_x0_pLinear_01_m");
    xrlab_model_get_param (m, xrlab_model_find_param (m, "GLP_01_x0_pLinear_01_m"), &info);
    g_assert_true (info.has_dynamics);
    /* trspecfit's order: the parameter, its profile, then the time
     * dependence of the profile's parameters */
    g_assert_cmpint (xrlab_model_find_param (m, "GLP_01_x0_pLinear_01_b"), <, i);
    g_assert_cmpint (xrlab_model_find_param (m, "GLP_01_x0_pLinear_01_b") + 1, ==,
                     xrlab_model_find_param (m, "GLP_01_x0_pLinear_01_m_gaussCONV_SD"));
    check_model ("dynamics of profile parameters", m, 0, TRUE, TRUE);
    check_model ("dynamics of profile parameters, profiles left out", m,
                 XRLAB_PLAN_IGNORE_PROFILES, TRUE, FALSE);
    check_model ("dynamics of profile parameters, dynamics left out", m,
                 XRLAB_PLAN_IGNORE_DYNAMICS, FALSE, TRUE);
    /* and the same after a copy */
    {
      g_autoptr(XrlabModel) c = xrlab_model_copy (m);
      check_model ("dynamics of profile parameters (copy)", c, 0, TRUE, TRUE);
    }
    /* a profile's parameter takes no profile, a dynamics parameter no dynamics */
    g_assert_false (xrlab_model_add_profile (m, "GLP_01_x0_pLinear_01_b", "/nonexistent", "p",
                                             &error));
    g_assert_error (error, XRLAB_MODEL_ERROR, XRLAB_MODEL_ERROR_FILE);
    g_clear_error (&error);
  }
  {
    /* named before the profile exists: the message says what to do */
    g_autoptr(XrlabModel) m = model_from_text (profile_model_yaml, "m");
    g_autoptr(GError) error = NULL;
    g_autofree char *dir = models_dir ();
    g_autofree char *path = g_build_filename (dir, "time.yaml", NULL);
    const char *models[] = { "MonoExpIRF" };

    g_assert_false (xrlab_model_add_dynamics (m, "GLP_01_x0_pLinear_01_m", path, models, 1, 0,
                                              &error));
    g_assert_error (error, XRLAB_MODEL_ERROR, XRLAB_MODEL_ERROR_NOT_FOUND);
    g_assert_nonnull (strstr (error->message, "attach the profile first"));
  }
}

/* ---- expressions, constants --------------------------------------------------------------------- */

static void
test_expressions (void)
{
  static const char *yaml =
    "m:\n"
    "  LinBack: {m: [0.1, True], b: [\"Offset_y0 / 2\"], xStart: [80.5, False], xStop: [89.7, False]}\n"
    "  Offset: {y0: [2.0, True, 0, 5]}\n"
    "  GLP: {A: [10, True], x0: [85.3, True], F: [1.1, True, 0.2, 4], m: [0.35, True, 0, 1]}\n"
    "  Gauss: {A: [\"(GLP_01_A/2)**1.5 - -1\"], x0: [\"GLP_01_x0 + 0.5*GLP_01_F\"], SD: [\"GLP_01_F ** 2 / 3\"]}\n"
    "  Lorentz: {A: [\"-(-Gauss_01_A) / 2 + GLP_01_m*4\"], x0: [\"Gauss_01_x0 - 4\"], W: [1.0, False]}\n";
  g_autoptr(XrlabModel) m = model_from_text (yaml, "m");
  g_autoptr(XrlabModel) m2 = model_from_text (yaml, "m");

  check_model ("expressions 1D", m, 0, FALSE, FALSE);
  attach_time (m, "GLP_01_x0", "MonoSin", 0);
  attach_time (m, "GLP_01_F", "MonoExpPos", 0);
  check_model ("expressions through time dependence", m, 0, TRUE, FALSE);
  /* names of time dependence in energy expressions */
  attach_time (m2, "GLP_01_x0", "MonoExpPos", 0);
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(XrlabModelFile) f = xrlab_model_file_new_from_data (
      "m:\n  GLP: {A: [10, True], x0: [85.3, True], F: [1.1, True], m: [0.35, True]}\n"
      "  Gauss: {A: [\"GLP_01_x0_expFun_01_A * 3\"], x0: [84, True], SD: [0.7, True]}\n",
      -1, "t.yaml", &error);
    g_autoptr(XrlabModel) m3 = xrlab_model_new (f, "m", &error);
    g_assert_no_error (error);
    attach_time (m3, "GLP_01_x0", "MonoExpPos", 0);
    check_model ("energy expression naming a dynamics parameter", m3, 0, TRUE, FALSE);
  }
}

static void
test_constants (void)
{
  /* fixed components, fixed dynamics (precomputed per delay), fixed Shirley */
  static const char *yaml =
    "m:\n"
    "  Shirley: {pShirley: [0.01, False]}\n"
    "  Offset: {y0: [2.0, False]}\n"
    "  Gauss: {A: [10, False], x0: [85.3, False], SD: [0.7, False]}\n"
    "  GLP: {A: [6, False], x0: [87.0, False], F: [1.1, False], m: [0.3, False]}\n"
    "  Lorentz: {A: [3, True], x0: [83.1, True], W: [0.8, True]}\n";
  static const char *fixed_time =
    "Fixed: {gaussCONV: {SD: [0.5, False]}, expFun: {A: [0.7, False], tau: [2.5, False], t0: [0.3, False]}}\n";
  g_autoptr(XrlabModel) m = model_from_text (yaml, "m");
  g_autoptr(XrlabModel) m2 = NULL;

  check_model ("constants", m, 0, FALSE, FALSE);
  attach_time_text (m, "Gauss_01_x0", fixed_time, "Fixed", 0);
  check_model ("constant dynamics", m, 0, TRUE, FALSE);
  /* everything fixed: no θ at all */
  m2 = xrlab_model_copy (m);
  g_assert_true (xrlab_model_set_vary (m2, "Lorentz_01_A", FALSE, NULL));
  g_assert_true (xrlab_model_set_vary (m2, "Lorentz_01_x0", FALSE, NULL));
  g_assert_true (xrlab_model_set_vary (m2, "Lorentz_01_W", FALSE, NULL));
  check_model ("all fixed", m2, 0, TRUE, FALSE);
}

/* Seeding and fixing by name changes θ as a fitter expects. */
static void
test_seed_and_fix (void)
{
  g_autoptr(XrlabModel) m = load_au4f ("2D");
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabPlan) plan = NULL;
  g_autofree char *dir = models_dir ();
  g_autofree char *path = g_build_filename (dir, "au4f-time.yaml", NULL);
  const char *models[] = { "SinOsc" };
  double values[64], theta[16];

  g_assert_true (xrlab_model_add_dynamics (m, "GLP_01_x0", path, models, 1, 0, &error));
  g_assert_true (xrlab_model_fix (m, "GLP_01_F", 1.234, &error));
  g_assert_true (xrlab_model_fix (m, "Offset_y0", 55.0, &error));
  g_assert_true (xrlab_model_set_value (m, "GLP_01_A", 321.0, &error));
  g_assert_no_error (error);
  g_assert_false (xrlab_model_fix (m, "GLP_02_F", 1.0, &error));
  g_assert_error (error, XRLAB_MODEL_ERROR, XRLAB_MODEL_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_false (xrlab_model_set_value (m, "GLP_01_m", 2.0, &error));   /* outside [0, 1] */
  g_assert_nonnull (strstr (error->message, "GLP_01_m"));
  g_clear_error (&error);
  g_assert_false (xrlab_model_set_value (m, "GLP_09_m", 0.5, &error));
  g_assert_error (error, XRLAB_MODEL_ERROR, XRLAB_MODEL_ERROR_NOT_FOUND);
  g_clear_error (&error);

  plan = xrlab_plan_new (m, energy, N_E, time_axis, n_time, NULL, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (xrlab_plan_n_theta (plan), ==, 7);
  g_assert_cmpint (xrlab_plan_find_theta (plan, "GLP_01_F"), ==, -1);
  g_assert_cmpint (xrlab_plan_find_theta (plan, "GLP_01_x0_sinFun_01_f"), ==, 4);
  xrlab_plan_theta_initial (plan, theta);
  g_assert_cmpfloat (theta[xrlab_plan_find_theta (plan, "GLP_01_A")], ==, 321.0);
  xrlab_plan_param_values (plan, theta, values);
  g_assert_cmpuint (xrlab_plan_n_params (plan), <=, G_N_ELEMENTS (values));
  g_assert_cmpfloat (values[xrlab_model_find_param (m, "GLP_02_A")], ==, 0.75 * 321.0);
  g_assert_cmpfloat (values[xrlab_model_find_param (m, "GLP_02_F")], ==, 1.234);
  g_assert_cmpfloat_with_epsilon (values[xrlab_model_find_param (m, "GLP_02_x0")], 84.1 + 3.67, 1e-12);
  g_assert_cmpfloat (values[xrlab_model_find_param (m, "Offset_y0")], ==, 55.0);

  /* derivatives of every parameter's value with respect to θ */
  {
    gsize nth = xrlab_plan_n_theta (plan), np = xrlab_plan_n_params (plan);
    g_autofree double *d = g_new (double, np * nth);
    double values2[64];
    gssize kA = xrlab_plan_find_theta (plan, "GLP_01_A");
    gssize kx = xrlab_plan_find_theta (plan, "GLP_01_x0");
    gssize iA2 = xrlab_model_find_param (m, "GLP_02_A");
    gssize ix2 = xrlab_model_find_param (m, "GLP_02_x0");
    gssize iF2 = xrlab_model_find_param (m, "GLP_02_F");

    xrlab_plan_param_gradients (plan, theta, values2, d);
    for (gsize i = 0; i < np; i++)
      g_assert_cmpfloat (values2[i], ==, values[i]);
    g_assert_cmpfloat (d[iA2 * nth + kA], ==, 0.75);
    g_assert_cmpfloat (d[ix2 * nth + kx], ==, 1.0);
    for (gsize k = 0; k < nth; k++)
      {
        g_assert_cmpfloat (d[iF2 * nth + k], ==, 0.0);     /* follows a fixed parameter */
        g_assert_cmpfloat (d[xrlab_plan_theta_param (plan, k) * nth + k], ==, 1.0);
      }

    /* which parameters change with θ: those with a nonzero gradient here */
    g_assert_true (xrlab_plan_param_depends_on_theta (plan, iA2));
    g_assert_true (xrlab_plan_param_depends_on_theta (plan, ix2));
    g_assert_false (xrlab_plan_param_depends_on_theta (plan, iF2));
    g_assert_false (xrlab_plan_param_depends_on_theta (plan,
                                                        xrlab_model_find_param (m, "Offset_y0")));
    for (gsize i = 0; i < np; i++)
      {
        gboolean any = FALSE;
        for (gsize k = 0; k < nth; k++)
          any |= d[i * nth + k] != 0.0;
        g_assert_cmpint (xrlab_plan_param_depends_on_theta (plan, i), ==, any);
      }
  }
}

static gsize
count_nonfinite (const double *v, gsize n)
{
  gsize bad = 0;

  for (gsize i = 0; i < n; i++)
    bad += !isfinite (v[i]);
  return bad;
}

/* Non-finite θ gives non-finite values, not a crash or a hang: NaN in any
 * θ entry makes every value of the model NaN; an infinite entry makes every
 * value non-finite, or none where the model has a finite limit (a width or
 * a decay time going to infinity). The Jacobian is computed too (its
 * entries stay finite where θ_k enters linearly). Widths of zero are
 * evaluated without a crash. */
static void
test_nonfinite (void)
{
  g_autoptr(XrlabModel) m = model_from_text (peak_yaml, "m");
  g_autoptr(XrlabPlan) plan = NULL;
  g_autoptr(XrlabPlanWorkspace) ws3 = NULL;
  g_autofree double *theta = NULL, *out = NULL, *jac = NULL;
  gsize n, nth;

  attach_time_text (m, "GLP_01_x0", kernel_yaml, "GB", 0);
  plan = xrlab_plan_new (m, energy, N_E, time_axis, n_time, NULL, 0, NULL);
  ws3 = xrlab_plan_workspace_new (plan, 3);
  n = xrlab_plan_n_data (plan);
  nth = xrlab_plan_n_theta (plan);
  theta = g_new (double, nth);
  out = g_new (double, n);
  jac = g_new (double, n * nth);
  for (gsize k = 0; k < nth; k++)
    {
      gsize bad;

      xrlab_plan_theta_initial (plan, theta);
      theta[k] = NAN;
      xrlab_plan_eval (plan, theta, out);
      for (gsize i = 0; i < n; i++)
        g_assert_true (isnan (out[i]));
      memset (out, 0, n * sizeof (double));
      xrlab_plan_eval_jacobian_ws (plan, ws3, theta, out, jac);
      for (gsize i = 0; i < n; i++)
        g_assert_true (isnan (out[i]));

      theta[k] = INFINITY;
      xrlab_plan_eval (plan, theta, out);
      bad = count_nonfinite (out, n);
      if (g_str_has_suffix (xrlab_plan_theta_name (plan, k), "_A")
          || g_str_has_suffix (xrlab_plan_theta_name (plan, k), "_y0"))
        g_assert_cmpuint (bad, ==, n);     /* an infinite amplitude */
      else
        g_assert_true (bad == 0 || bad == n);
      xrlab_plan_jacobian (plan, theta, jac);
    }

  xrlab_plan_theta_initial (plan, theta);
  theta[xrlab_plan_find_theta (plan, "GLP_01_x0_gaussCONV_SD")] = 0.0;
  xrlab_plan_eval (plan, theta, out);
  theta[xrlab_plan_find_theta (plan, "GLP_01_F")] = 0.0;
  xrlab_plan_eval (plan, theta, out);
  xrlab_plan_jacobian (plan, theta, jac);
}

static void
test_plan_errors (void)
{
  g_autoptr(XrlabModel) m = model_from_text (peak_yaml, "m");
  g_autoptr(GError) error = NULL;
  double bad_e[3] = { 84.0, NAN, 86.0 };
  double bad_t[4] = { 0.0, 1.0, 1.0, 2.0 };
  XrlabPlan *plan;

  plan = xrlab_plan_new (m, bad_e, 3, NULL, 0, NULL, 0, &error);
  g_assert_null (plan);
  g_assert_error (error, XRLAB_PLAN_ERROR, XRLAB_PLAN_ERROR_AXIS);
  g_assert_nonnull (strstr (error->message, "value 2"));
  g_clear_error (&error);
  plan = xrlab_plan_new (m, energy, 0, NULL, 0, NULL, 0, &error);
  g_assert_null (plan);
  g_assert_error (error, XRLAB_PLAN_ERROR, XRLAB_PLAN_ERROR_AXIS);
  g_clear_error (&error);

  /* one rule for energy axes (the fits' rule): strictly monotonic, either way */
  {
    double dup_e[4] = { 84.0, 85.0, 85.0, 86.0 };
    double zigzag_e[4] = { 84.0, 86.0, 85.0, 87.0 };
    double down_e[3] = { 86.0, 85.0, 84.0 };
    double one_e[1] = { 85.0 };

    plan = xrlab_plan_new (m, dup_e, 4, NULL, 0, NULL, 0, &error);
    g_assert_null (plan);
    g_assert_error (error, XRLAB_PLAN_ERROR, XRLAB_PLAN_ERROR_AXIS);
    g_assert_nonnull (strstr (error->message, "the energy axis is not strictly monotonic: "
                                              "value 3 (85) after 85"));
    g_clear_error (&error);
    plan = xrlab_plan_new (m, zigzag_e, 4, NULL, 0, NULL, 0, &error);
    g_assert_null (plan);
    g_assert_error (error, XRLAB_PLAN_ERROR, XRLAB_PLAN_ERROR_AXIS);
    g_assert_nonnull (strstr (error->message, "value 3"));
    g_clear_error (&error);
    g_assert_false (xrlab_plan_check_energy_axis (zigzag_e, 4, "e.csv", &error));
    g_assert_nonnull (strstr (error->message, "e.csv is not strictly monotonic"));
    g_clear_error (&error);
    g_assert_true (xrlab_plan_check_energy_axis (down_e, 3, NULL, &error));
    g_assert_true (xrlab_plan_check_energy_axis (one_e, 1, NULL, &error));
    g_assert_no_error (error);
    plan = xrlab_plan_new (m, down_e, 3, NULL, 0, NULL, 0, &error);
    g_assert_no_error (error);
    g_clear_pointer (&plan, xrlab_plan_free);
  }

  attach_time_text (m, "GLP_01_x0", kernel_yaml, "G", 0);
  plan = xrlab_plan_new (m, energy, N_E, NULL, 0, NULL, 0, &error);
  g_assert_null (plan);
  g_assert_error (error, XRLAB_PLAN_ERROR, XRLAB_PLAN_ERROR_MODEL);
  g_assert_nonnull (strstr (error->message, "GLP_01_x0"));
  g_clear_error (&error);
  plan = xrlab_plan_new (m, energy, N_E, bad_t, 4, NULL, 0, &error);
  g_assert_null (plan);
  g_assert_error (error, XRLAB_PLAN_ERROR, XRLAB_PLAN_ERROR_AXIS);
  g_assert_nonnull (strstr (error->message, "delay 3"));
  g_clear_error (&error);

  attach_profile (m, "Gauss_01_A", "pExp");
  plan = xrlab_plan_new (m, energy, N_E, time_axis, n_time, NULL, 0, &error);
  g_assert_null (plan);
  g_assert_error (error, XRLAB_PLAN_ERROR, XRLAB_PLAN_ERROR_MODEL);
  g_assert_nonnull (strstr (error->message, "Gauss_01_A"));
  g_clear_error (&error);
}

/* The same checks on other axes: a non-uniform energy axis (no Gaussian
 * recurrence), a uniform delay axis (kernels tabulated per lag), many aux
 * points (more partials per θ block than the assembly keeps in registers). */
static void
test_other_axes (void)
{
  double *e0 = energy, *t0 = time_axis, *a0 = aux_axis;
  gsize ne0 = N_E, nt0 = n_time, na0 = N_A;
  g_autofree double *e = g_new (double, 90);
  g_autofree double *t = g_new (double, 61);
  g_autofree double *a = g_new (double, 20);

  for (int i = 0; i < 90; i++)
    e[i] = 80.0 + 0.14 * i + 0.03 * sin (0.7 * i);
  for (int i = 0; i < 61; i++)
    t[i] = -3.0 + 0.35 * i;
  for (int i = 0; i < 20; i++)
    a[i] = 0.21 * i;
  energy = e;
  N_E = 90;
  time_axis = t;
  n_time = 61;
  aux_axis = a;
  N_A = 20;

  for (gsize i = 0; i < G_N_ELEMENTS (components); i++)
    {
      g_autoptr(XrlabModel) m = model_from_text (components[i].yaml, "m");
      check_model (components[i].name, m, 0, TRUE, FALSE);
    }
  {
    const char *models[] = { "G", "ES", "ED", "ER", "B", "GB", "GE" };
    for (gsize i = 0; i < G_N_ELEMENTS (models); i++)
      {
        g_autoptr(XrlabModel) m = model_from_text (peak_yaml, "m");
        attach_time_text (m, "GLP_01_x0", kernel_yaml, models[i], 0);
        check_model (models[i], m, 0, TRUE, FALSE);
      }
  }
  {
    const char *models[] = { "Gc", "ESc", "EDc", "ERc", "Bc" };
    for (gsize i = 0; i < G_N_ELEMENTS (models); i++)
      {
        g_autoptr(XrlabModel) m = model_from_text (peak_yaml, "m");
        g_autoptr(XrlabPlan) plan = NULL;
        g_autoptr(XrlabPlanWorkspace) ws = NULL;
        g_autofree double *theta = NULL, *trace = NULL;
        attach_time_text (m, "GLP_01_x0", kernel_yaml, models[i], 0);
        plan = xrlab_plan_new (m, energy, N_E, time_axis, n_time, NULL, 0, NULL);
        ws = xrlab_plan_workspace_new (plan, 1);
        theta = g_new (double, xrlab_plan_n_theta (plan));
        trace = g_new (double, n_time);
        xrlab_plan_theta_initial (plan, theta);
        xrlab_plan_param_trace (plan, ws, theta, xrlab_model_find_param (m, "GLP_01_x0"), trace);
        for (gsize k = 0; k < n_time; k++)
          g_assert_cmpfloat_with_epsilon (trace[k], 85.3 + 0.9, 1e-12);
      }
  }
  {
    /* a profiled op that changes with delay: 20 samples of x0, each with its
     * own θ coefficients, all in the first θ block */
    g_autoptr(XrlabModel) m = model_from_text (profile_model_yaml, "m");
    attach_profile (m, "GLP_01_x0", "pLin");
    attach_time (m, "GLP_01_A", "MonoExpPos", 0);
    check_model ("many aux points", m, 0, TRUE, TRUE);
  }
  energy = e0;
  N_E = ne0;
  time_axis = t0;
  n_time = nt0;
  aux_axis = a0;
  N_A = na0;
}

/* The vectorised exp against libm. */
static void
test_fast_exp (void)
{
  double worst = 0.0;

  for (double x = -708.0; x < 709.0; x += 0.0137)
    worst = MAX (worst, fabs (xrlab_fast_exp (x) - exp (x)) / exp (x));
  g_assert_cmpfloat (worst, <, 4e-16);
  g_assert_cmpfloat (xrlab_fast_exp (-800.0), ==, 0.0);
  g_assert_cmpfloat (xrlab_fast_exp (0.0), ==, 1.0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  xrlab_init ();
  setup_axes ();
  g_test_add_func ("/plan/fast-exp", test_fast_exp);
  g_test_add_func ("/plan/components", test_components);
  g_test_add_func ("/plan/au4f", test_au4f);
  g_test_add_func ("/plan/time-functions", test_time_functions);
  g_test_add_func ("/plan/free-onsets", test_free_onsets);
  g_test_add_func ("/plan/kernels", test_kernels);
  g_test_add_func ("/plan/kernel-constant", test_kernel_constant);
  g_test_add_func ("/plan/kernel-analytic", test_kernel_analytic);
  g_test_add_func ("/plan/kernel-masses", test_kernel_masses);
  g_test_add_func ("/plan/subcycles", test_subcycles);
  g_test_add_func ("/plan/expr-functions", test_expr_functions);
  g_test_add_func ("/plan/profiles", test_profiles);
  g_test_add_func ("/plan/expressions", test_expressions);
  g_test_add_func ("/plan/constants", test_constants);
  g_test_add_func ("/plan/other-axes", test_other_axes);
  g_test_add_func ("/plan/seed-and-fix", test_seed_and_fix);
  g_test_add_func ("/plan/errors", test_plan_errors);
  g_test_add_func ("/plan/non-finite", test_nonfinite);
  return g_test_run ();
}
