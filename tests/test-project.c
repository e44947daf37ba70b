/* test-project.c -- joint fits of several files: the block solution against a
 * dense fit over all residuals, recovery of shared and per-file parameters,
 * trspecfit's example 21, errors and cancellation
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include <glib.h>

#include "examples-data.h"
#include "xrlab-fit.h"
#include "xrlab-fitflow.h"
#include "xrlab-init.h"
#include "xrlab-model.h"
#include "xrlab-plan.h"
#include "xrlab-project.h"
#include "xrlab-simulate.h"

#define N_E 120
#define N_T 60
#define N_FILES 3
static double energy[N_E], delays[N_T];

static const char *energy_yaml =
  "truth:\n"
  "  LinBack: {m: [0.4, False], b: [1, False], xStart: [0, False], xStop: [20, False]}\n"
  "  GLP: {A: [10, False], x0: [10, True, 5, 15], F: [1.0, False], m: [0.3, False]}\n"
  "2D:\n"
  "  LinBack: {m: [0.4, False], b: [1, False], xStart: [0, False], xStop: [20, False]}\n"
  "  GLP: {A: [10, False], x0: [10, False], F: [1.0, False], m: [0.3, False]}\n";

static const char *time_yaml =
  "truth:\n"
  "  gaussCONV: {SD: [3, True, 1.0E-6, 10]}\n"
  "  expFun: {A: [5, True, 0, 15], tau: [30, True, 1, 100], t0: [0, False]}\n"
  "start:\n"
  "  gaussCONV: {SD: [5, project, 1.0E-6, 10]}\n"
  "  expFun: {A: [4, file, 0, 15], tau: [10, project, 1, 100], t0: [0, False]}\n";

static const double amps[N_FILES] = { 5.0, 2.0, 0.7 };

static void
setup_axes (void)
{
  for (gsize i = 0; i < N_E; i++)
    energy[i] = 4.0 + 0.1 * (double) i;
  for (gsize i = 0; i < N_T; i++)
    delays[i] = -20.0 + 2.0 * (double) i;
}

static XrlabModel *
model_with (const char *name, const char *tname)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabModelFile) f = xrlab_model_file_new_from_data (energy_yaml, -1, "e.yaml", &error);
  g_autoptr(XrlabModelFile) t = xrlab_model_file_new_from_data (time_yaml, -1, "t.yaml", &error);
  const char *models[] = { tname };
  XrlabModel *m;

  g_assert_no_error (error);
  m = xrlab_model_new (f, name, &error);
  g_assert_no_error (error);
  g_assert_true (xrlab_model_add_dynamics_from_file (m, "GLP_01_x0", t, models, 1, 0, &error));
  g_assert_no_error (error);
  return m;
}

typedef struct {
  double *data[N_FILES];
  XrlabFitflow *flow[N_FILES];
  double sigma[N_FILES];
} Files;

static void
files_new (Files *fs, guint64 seed)
{
  for (gsize f = 0; f < N_FILES; f++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(XrlabModel) truth = model_with ("truth", "truth");
      XrlabFitflowData fd = { 0 };

      g_assert_true (xrlab_model_set_value (truth, "GLP_01_x0_expFun_01_A", amps[f], &error));
      fs->data[f] = xrlab_simulate (truth, energy, N_E, delays, N_T, NULL, 0,
                                    XRLAB_NOISE_GAUSSIAN, 0.01, seed + f, &fs->sigma[f], &error);
      g_assert_no_error (error);
      fd.data = fs->data[f];
      fd.n_rows = N_T;
      fd.n_cols = N_E;
      fd.energy = energy;
      fd.n_energy = N_E;
      fd.time = delays;
      fd.n_time = N_T;
      fs->flow[f] = xrlab_fitflow_new (&fd, &error);
      g_assert_no_error (error);
      g_assert_true (xrlab_fitflow_set_sigma (fs->flow[f], XRLAB_FIT_SIGMA_SCALAR, &fs->sigma[f],
                                              1, &error));
      g_assert_true (xrlab_fitflow_set_window (fs->flow[f], 5, 14, NAN, NAN, &error));
      g_assert_no_error (error);
    }
}

static void
files_clear (Files *fs)
{
  for (gsize f = 0; f < N_FILES; f++)
    {
      xrlab_fitflow_free (fs->flow[f]);
      g_free (fs->data[f]);
    }
}

/* ---- a dense reference: one XrlabFit over all residuals ------------------------------ */

typedef struct {
  XrlabPlan *plan[N_FILES];
  gsize col0, ncw, n_f;
} Dense;

/* global θ = SD, tau, A_1 … A_n; each file's plan has SD, A, tau */
static void
local_theta (const double *g, gsize f, double *loc)
{
  loc[0] = g[0];
  loc[1] = g[2 + f];
  loc[2] = g[1];
}

static gboolean
dense_model (const double *theta, double *out, gpointer data, GError **error)
{
  Dense *d = data;
  g_autofree double *buf = g_new (double, N_T * N_E);

  for (gsize f = 0; f < N_FILES; f++)
    {
      double loc[3];
      local_theta (theta, f, loc);
      xrlab_plan_eval (d->plan[f], loc, buf);
      for (gsize r = 0; r < N_T; r++)
        memcpy (out + f * d->n_f + r * d->ncw, buf + r * N_E + d->col0, d->ncw * sizeof (double));
    }
  return TRUE;
}

static gboolean
dense_jac (const double *theta, double *jac, gpointer data, GError **error)
{
  Dense *d = data;
  const gsize P = 2 + N_FILES;
  g_autofree double *buf = g_new (double, N_T * N_E * 3);

  memset (jac, 0, N_FILES * d->n_f * P * sizeof (double));
  for (gsize f = 0; f < N_FILES; f++)
    {
      double loc[3];
      local_theta (theta, f, loc);
      xrlab_plan_jacobian (d->plan[f], loc, buf);
      for (gsize r = 0; r < N_T; r++)
        for (gsize c = 0; c < d->ncw; c++)
          {
            const double *src = buf + (r * N_E + d->col0 + c) * 3;
            double *row = jac + (f * d->n_f + r * d->ncw + c) * P;
            row[0] = src[0];
            row[2 + f] = src[1];
            row[1] = src[2];
          }
    }
  return TRUE;
}

/* The arrowhead solution is the dense one: same minimum, same covariance. */
static void
test_against_dense (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabModel) m = model_with ("2D", "start");
  g_autoptr(XrlabProject) proj = xrlab_project_new ();
  g_autoptr(XrlabProjectResult) res = NULL;
  g_autoptr(XrlabFitResult) dr = NULL;
  g_autoptr(XrlabFit) dense = NULL;
  const gsize P = 2 + N_FILES;
  const char *names[] = { "SD", "tau", "A1", "A2", "A3" };
  double lower[5] = { 1e-6, 1, 0, 0, 0 }, upper[5] = { 10, 100, 15, 15, 15 };
  double start[5] = { 5, 10, 4, 4, 4 };
  g_autofree double *y = NULL, *sig = NULL;
  gsize row0, nrw, col0, ncw;
  Dense d = { { NULL } };
  Files fs;

  files_new (&fs, 100);
  for (gsize f = 0; f < N_FILES; f++)
    {
      g_autofree char *name = g_strdup_printf ("file %zu", f + 1);
      g_assert_cmpuint (xrlab_project_add_file (proj, fs.flow[f], name), ==, f);
    }
  g_assert_cmpuint (xrlab_project_n_files (proj), ==, N_FILES);
  g_assert_true (xrlab_project_fit_2d (proj, m, NULL, &res, &error));
  g_assert_no_error (error);
  g_assert_true (res->converged);
  g_assert_true (res->errors_valid);
  g_assert_false (res->covar_scaled);          /* every file has σ */
  g_assert_cmpuint (res->n_shared, ==, 2);
  g_assert_cmpstr (res->shared_names[0], ==, "GLP_01_x0_gaussCONV_SD");
  g_assert_cmpstr (res->shared_names[1], ==, "GLP_01_x0_expFun_01_tau");
  g_assert_cmpuint (res->n_theta, ==, P);

  /* the dense fit of the same residuals */
  xrlab_fitflow_get_window (fs.flow[0], &row0, &nrw, &col0, &ncw);
  d.col0 = col0;
  d.ncw = ncw;
  d.n_f = N_T * ncw;
  y = g_new (double, N_FILES * d.n_f);
  sig = g_new (double, N_FILES * d.n_f);
  for (gsize f = 0; f < N_FILES; f++)
    {
      d.plan[f] = xrlab_plan_new (m, energy, N_E, delays, N_T, NULL, 0, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (xrlab_plan_n_theta (d.plan[f]), ==, 3);
      for (gsize r = 0; r < N_T; r++)
        memcpy (y + f * d.n_f + r * ncw, fs.data[f] + r * N_E + col0, ncw * sizeof (double));
      for (gsize i = 0; i < d.n_f; i++)
        sig[f * d.n_f + i] = fs.sigma[f];
    }
  {
    XrlabFitProblem prob = { .n = N_FILES * d.n_f, .p = P, .model = dense_model,
                             .jacobian = dense_jac, .user_data = &d, .data = y,
                             .names = names, .lower = lower, .upper = upper,
                             .sigma_kind = XRLAB_FIT_SIGMA_FULL, .sigma = sig };
    dense = xrlab_fit_new (&prob, NULL, &error);
    g_assert_no_error (error);
    g_assert_true (xrlab_fit_run (dense, start, NULL, &dr, &error));
    g_assert_no_error (error);
  }
  g_test_message ("joint: χ² %.10g SD %.8g tau %.8g (%u it, %s); dense: χ² %.10g SD %.8g tau %.8g "
                  "A %.6g %.6g %.6g (%u it, %s)", res->chi2, res->shared_values[0],
                  res->shared_values[1], res->niter, xrlab_fit_stop_to_string (res->stop),
                  dr->chi2, dr->values[0], dr->values[1], dr->values[2], dr->values[3],
                  dr->values[4], dr->niter, dr->message);
  g_assert_cmpfloat_with_epsilon (res->chi2 / dr->chi2, 1.0, 1e-9);
  g_assert_cmpuint (res->ndata, ==, dr->ndata);
  g_assert_cmpfloat_with_epsilon (res->redchi, dr->redchi, 1e-9 * dr->redchi);
  for (gsize a = 0; a < 2; a++)
    {
      g_assert_cmpfloat_with_epsilon (res->shared_values[a], dr->values[a],
                                      1e-4 * dr->errors[a]);
      g_assert_cmpfloat_with_epsilon (res->shared_errors[a], dr->errors[a], 1e-6 * dr->errors[a]);
    }
  for (gsize f = 0; f < N_FILES; f++)
    {
      const XrlabFitflowResult *fr = res->files[f];
      gssize ia = xrlab_fitflow_result_find (fr, "GLP_01_x0_expFun_01_A");
      gssize isd = xrlab_fitflow_result_find (fr, "GLP_01_x0_gaussCONV_SD");
      double chi2 = 0;

      g_assert_cmpint (ia, >=, 0);
      g_assert_cmpint (fr->params[ia].share, ==, XRLAB_PARAM_SHARE_FILE);
      g_assert_cmpint (fr->params[isd].share, ==, XRLAB_PARAM_SHARE_PROJECT);
      g_assert_cmpfloat_with_epsilon (fr->params[ia].value, dr->values[2 + f],
                                      1e-4 * dr->errors[2 + f]);
      g_assert_cmpfloat_with_epsilon (fr->params[ia].std_error, dr->errors[2 + f],
                                      1e-6 * dr->errors[2 + f]);
      g_assert_cmpfloat (fr->params[isd].value, ==, res->shared_values[0]);
      /* the file's covariance is the joint one: SD with A */
      {
        gssize ka = -1, ks = -1;
        for (gsize k = 0; k < fr->n_theta; k++)
          {
            if (g_str_equal (fr->theta_names[k], "GLP_01_x0_expFun_01_A"))
              ka = k;
            if (g_str_equal (fr->theta_names[k], "GLP_01_x0_gaussCONV_SD"))
              ks = k;
          }
        g_assert_cmpfloat_with_epsilon (fr->fit->covar[ka * fr->n_theta + ks],
                                        dr->covar[(2 + f) * P + 0],
                                        1e-6 * dr->errors[0] * dr->errors[2 + f]);
      }
      /* its own χ² adds up to the joint one */
      for (gsize g = 0; g < N_FILES; g++)
        chi2 += res->files[g]->fit->chi2;
      g_assert_cmpfloat_with_epsilon (chi2 / res->chi2, 1.0, 1e-12);
      g_assert_cmpuint (fr->n_rows, ==, N_T);
      g_assert_cmpuint (fr->n_cols, ==, ncw);
      /* no confidence intervals for joint fits */
      {
        const char *ci_names[] = { "GLP_01_x0_expFun_01_A" };
        g_autoptr(GError) e2 = NULL;
        g_assert_null (xrlab_fitflow_conf_interval (res->files[f], ci_names, 1, NULL, 0, NULL,
                                                    &e2));
        g_assert_error (e2, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_PARAM);
      }
    }
  for (gsize f = 0; f < N_FILES; f++)
    xrlab_plan_free (d.plan[f]);
  files_clear (&fs);
}

/* Shared and per-file parameters recovered within 3σ; the same for any
 * number of threads (the files run in parallel); scale_covar. */
static void
test_recovery (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabModel) m = model_with ("2D", "start");
  g_autoptr(XrlabProject) proj = xrlab_project_new ();
  g_autoptr(XrlabProjectResult) res = NULL, res2 = NULL;
  XrlabProjectOptions o;
  Files fs;

  files_new (&fs, 200);
  for (gsize f = 0; f < N_FILES; f++)
    xrlab_project_add_file (proj, fs.flow[f], "f");
  g_assert_true (xrlab_project_fit_2d (proj, m, NULL, &res, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (fabs (res->shared_values[0] - 3.0), <, 3 * res->shared_errors[0]);
  g_assert_cmpfloat (fabs (res->shared_values[1] - 30.0), <, 3 * res->shared_errors[1]);
  g_assert_cmpfloat (fabs (res->redchi - 1.0), <, 0.05);
  for (gsize f = 0; f < N_FILES; f++)
    {
      const XrlabFitflowParam *q =
        &res->files[f]->params[xrlab_fitflow_result_find (res->files[f], "GLP_01_x0_expFun_01_A")];
      g_assert_cmpfloat (fabs (q->value - amps[f]), <, 3 * q->std_error);
    }

  xrlab_project_options_init (&o);
  o.scale_covar = XRLAB_FIT_SCALE_COVAR_YES;
  xrlab_project_set_options (proj, &o);
  g_assert_true (xrlab_project_fit_2d (proj, m, NULL, &res2, &error));
  g_assert_true (res2->covar_scaled);
  g_assert_cmpfloat (res2->chi2, ==, res->chi2);
  g_assert_cmpfloat_with_epsilon (res2->shared_errors[1] / res->shared_errors[1],
                                  sqrt (res->redchi), 1e-9);
  files_clear (&fs);
}

static void
cancel_on_iter (XrlabFitflowStage stage, guint step, guint total, double chi2, gpointer data)
{
  if (step == 2)
    g_cancellable_cancel (data);
}

static void
test_errors_and_cancel (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabModel) m = model_with ("2D", "start");
  g_autoptr(XrlabProject) proj = xrlab_project_new ();
  g_autoptr(XrlabProjectResult) res = NULL;
  g_autoptr(GCancellable) cancel = g_cancellable_new ();
  XrlabProjectOptions o;
  Files fs;

  g_assert_false (xrlab_project_fit_2d (proj, m, NULL, &res, &error));
  g_assert_error (error, XRLAB_PROJECT_ERROR, XRLAB_PROJECT_ERROR_EMPTY);
  g_clear_error (&error);

  files_new (&fs, 300);
  for (gsize f = 0; f < N_FILES; f++)
    xrlab_project_add_file (proj, fs.flow[f], f == 1 ? "data_2" : "other");
  /* a file whose window holds too few points names the file */
  g_assert_true (xrlab_fitflow_set_window (fs.flow[1], 4.95, 5.05, -0.5, 0.5, &error));
  g_assert_false (xrlab_project_fit_2d (proj, m, NULL, &res, &error));
  g_assert_error (error, XRLAB_PROJECT_ERROR, XRLAB_PROJECT_ERROR_FILE);
  g_assert_nonnull (strstr (error->message, "File “data_2”"));
  g_assert_null (res);
  g_clear_error (&error);
  g_assert_true (xrlab_fitflow_set_window (fs.flow[1], 5, 14, NAN, NAN, &error));

  /* cancelled: the best parameters so far */
  xrlab_project_options_init (&o);
  o.progress = cancel_on_iter;
  o.progress_data = cancel;
  xrlab_project_set_options (proj, &o);
  g_assert_false (xrlab_project_fit_2d (proj, m, cancel, &res, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_nonnull (res);
  g_assert_cmpint (res->stop, ==, XRLAB_FIT_STOP_CANCELLED);
  g_assert_cmpuint (res->niter, ==, 2);
  g_assert_cmpfloat (res->chi2, <, res->chi2_start);
  g_assert_false (res->converged);
  files_clear (&fs);
}

/* ---- trspecfit's example 21 ------------------------------------------------------------ */

/* Six files, a baseline each, one joint 2D fit: trspecfit finds the shared
 * IRF width 2.99 and time constant 50.1 and per-file amplitudes near the
 * truth (5, 2, 1, 0.5, 0.2, 0.1). */
static void
test_example_21 (void)
{
  g_autofree char *dir = examples_path ("fitting_workflows/21_multi_file_shared_fit");
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabModel) base = NULL, m2d = NULL;
  g_autoptr(XrlabProject) proj = NULL;
  g_autoptr(XrlabProjectResult) res = NULL;
  g_autofree double *e = NULL, *t = NULL;
  g_autofree char *emodels = NULL, *tmodels = NULL;
  double *data[6] = { NULL };
  XrlabFitflow *flow[6] = { NULL };
  const double truth[6] = { 5, 2, 1, 0.5, 0.2, 0.1 };
  const char *dyn[] = { "MonoExpPosIRF" };
  gsize ne, nt;

  if (dir == NULL)
    return;
  emodels = g_build_filename (dir, "models_energy.yaml", NULL);
  tmodels = g_build_filename (dir, "models_time.yaml", NULL);
  base = xrlab_model_load (emodels, "base", &error);
  m2d = xrlab_model_load (emodels, "2D", &error);
  g_assert_no_error (error);
  g_assert_true (xrlab_model_add_dynamics (m2d, "GLP_01_x0", tmodels, dyn, 1, 0, &error));
  e = examples_column (dir, "data/energy.csv", &ne);
  t = examples_column (dir, "data/time.csv", &nt);
  proj = xrlab_project_new ();
  for (gsize f = 0; f < 6; f++)
    {
      g_autofree char *rel = g_strdup_printf ("data/data_%zu.csv", f + 1);
      g_autofree char *name = g_strdup_printf ("data_%zu", f + 1);
      g_autoptr(XrlabFitflowResult) b = NULL;
      XrlabFitflowData fd = { 0 };
      gsize rows, cols;

      data[f] = examples_matrix (dir, rel, &rows, &cols);
      fd.data = data[f];
      fd.n_rows = rows;
      fd.n_cols = cols;
      fd.energy = e;
      fd.n_energy = ne;
      fd.time = t;
      fd.n_time = nt;
      flow[f] = xrlab_fitflow_new (&fd, &error);
      g_assert_no_error (error);
      /* set_fit_limits([5, 18], [-20, 99]); define_baselines(0, 22, 'ind') */
      g_assert_true (xrlab_fitflow_set_window (flow[f], 5, 18, -20, 99, &error));
      g_assert_true (xrlab_fitflow_fit_baseline (flow[f], base, t[0], t[22], NULL, &b, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (b->n_rows, ==, 23);
      xrlab_project_add_file (proj, flow[f], name);
    }
  g_assert_true (xrlab_project_fit_2d (proj, m2d, NULL, &res, &error));
  g_assert_no_error (error);
  g_test_message ("example 21: SD %.4f ± %.4f, tau %.4f ± %.4f, χ² %.6g (χ²_ν %.6g), "
                  "%u iterations, %.3f s", res->shared_values[0], res->shared_errors[0],
                  res->shared_values[1], res->shared_errors[1], res->chi2, res->redchi,
                  res->niter, res->wall_s);
  g_assert_true (res->converged);
  g_assert_cmpstr (res->shared_names[0], ==, "GLP_01_x0_gaussCONV_SD");
  g_assert_cmpstr (res->shared_names[1], ==, "GLP_01_x0_expFun_01_tau");
  /* trspecfit's shared values */
  g_assert_cmpfloat (fabs (res->shared_values[0] - 2.99), <, 0.01);
  g_assert_cmpfloat (fabs (res->shared_values[1] - 50.1), <, 0.1);
  for (gsize f = 0; f < 6; f++)
    {
      const XrlabFitflowResult *fr = res->files[f];
      const XrlabFitflowParam *q = &fr->params[xrlab_fitflow_result_find (fr, "GLP_01_x0_expFun_01_A")];
      g_test_message ("  %s: A %.4f ± %.4f (truth %g), χ²_ν %.4f", res->file_names[f], q->value,
                      q->std_error, truth[f], fr->fit->redchi);
      g_assert_cmpfloat (fabs (q->value - truth[f]), <, MAX (3 * q->std_error, 0.02 * truth[f]));
      /* the static shape comes from the file's baseline */
      g_assert_false (fr->params[xrlab_fitflow_result_find (fr, "GLP_01_F")].fitted);
    }
  for (gsize f = 0; f < 6; f++)
    {
      xrlab_fitflow_free (flow[f]);
      g_free (data[f]);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  xrlab_init ();
  setup_axes ();
  g_test_add_func ("/project/against-dense", test_against_dense);
  g_test_add_func ("/project/recovery", test_recovery);
  g_test_add_func ("/project/errors-and-cancel", test_errors_and_cancel);
  g_test_add_func ("/project/example-21", test_example_21);
  return g_test_run ();
}
