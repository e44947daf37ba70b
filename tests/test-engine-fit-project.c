/* test-engine-fit-project.c -- several setups fitted as one project through
 * the fit service (xrlab_engine_fit_project_run_async): the joint result
 * equals xrlab_project_fit_2d's on the same files, every file's results
 * become its setup's, a cancel stops the joint fit and keeps its best
 * parameters; and the realisations and sweeps job refuses what it cannot
 * do with a message naming it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include <glib.h>

#include "examples-data.h"
#include "xrlab-engine-fit.h"
#include "xrlab-init.h"
#include "xrlab-project.h"

#define N_FILES 3
#define EX "fitting_workflows/21_multi_file_shared_fit"

typedef struct {
  XrlabEngine *engine;
  GMainContext *context;
  char *dir;
  guint setups[N_FILES];
  char *data[N_FILES];
  char *energy, *time, *models, *tmodels;
} Fixture;

static gboolean
fixture_open (Fixture *f)
{
  memset (f, 0, sizeof *f);
  f->dir = examples_path (EX);
  if (f->dir == NULL)
    return FALSE;
  f->context = g_main_context_new ();
  g_main_context_push_thread_default (f->context);
  f->engine = xrlab_engine_new ();
  f->energy = g_build_filename (f->dir, "data", "energy.csv", NULL);
  f->time = g_build_filename (f->dir, "data", "time.csv", NULL);
  f->models = g_build_filename (f->dir, "models_energy.yaml", NULL);
  f->tmodels = g_build_filename (f->dir, "models_time.yaml", NULL);
  for (gsize k = 0; k < N_FILES; k++)
    {
      g_autofree char *name = g_strdup_printf ("data_%zu.csv", k + 1);
      const char *irf[] = { "MonoExpPosIRF" };
      XrlabFitDynamics dyn = { "GLP_01_x0", f->tmodels, irf, 1, 0 };
      XrlabDatasetSource src = { .kind = XRLAB_DATASET_FILES };
      g_autoptr(GError) error = NULL;
      XrlabEngineReply r = { 0 }, rs = { 0 };
      XrlabFitSetupSpec spec;

      f->data[k] = g_build_filename (f->dir, "data", name, NULL);
      src.data = f->data[k], src.energy = f->energy, src.time = f->time;
      xrlab_fit_setup_spec_init (&spec);
      spec.dataset = xrlab_engine_dataset_open_async (f->engine, &src, NULL,
                                                      xrlab_engine_reply_cb, &r);
      spec.models = f->models;
      spec.model = "2D";
      spec.dynamics = &dyn, spec.n_dynamics = 1;
      spec.baseline_model = "base";
      spec.e0 = 5, spec.e1 = 18, spec.t0 = -20, spec.t1 = 99;
      spec.b0 = -20, spec.b1 = -9;
      f->setups[k] = xrlab_engine_fit_setup_new_async (f->engine, &spec, NULL,
                                                       xrlab_engine_reply_cb, &rs);
      g_free (xrlab_engine_dataset_open_finish (f->engine, xrlab_engine_reply_wait (&r), &error));
      g_assert_no_error (error);
      g_assert_true (xrlab_engine_fit_setup_finish (f->engine, xrlab_engine_reply_wait (&rs),
                                                    &error));
      g_assert_no_error (error);
      xrlab_engine_reply_clear (&r);
      xrlab_engine_reply_clear (&rs);
    }
  return TRUE;
}

static void
fixture_close (Fixture *f)
{
  if (f->engine)
    {
      xrlab_engine_shutdown (f->engine);
      g_clear_object (&f->engine);
      while (g_main_context_iteration (f->context, FALSE))
        ;
      g_main_context_pop_thread_default (f->context);
      g_main_context_unref (f->context);
    }
  for (gsize k = 0; k < N_FILES; k++)
    g_free (f->data[k]);
  g_free (f->energy);
  g_free (f->time);
  g_free (f->models);
  g_free (f->tmodels);
  g_free (f->dir);
}

static XrlabFitProject *
run_project (Fixture *f, GCancellable *cancellable, GError **error)
{
  const char *names[N_FILES] = { "a", "b", "c" };
  XrlabFitProjectSpec spec = { f->setups, N_FILES, names,
                               XRLAB_FIT_STAGES_BASELINE | XRLAB_FIT_STAGES_MAIN };
  XrlabEngineReply r = { 0 };
  XrlabFitProject *p;

  xrlab_engine_fit_project_run_async (f->engine, &spec, NULL, NULL, NULL, cancellable,
                                      xrlab_engine_reply_cb, &r);
  p = xrlab_engine_fit_project_run_finish (f->engine, xrlab_engine_reply_wait (&r), error);
  xrlab_engine_reply_clear (&r);
  return p;
}

static XrlabFitResults *
results_of (Fixture *f, guint setup)
{
  g_autoptr(GError) error = NULL;
  XrlabEngineReply r = { 0 };
  XrlabFitResults *res;

  xrlab_engine_fit_results_async (f->engine, setup, "test", NULL, xrlab_engine_reply_cb, &r);
  res = xrlab_engine_fit_results_finish (f->engine, xrlab_engine_reply_wait (&r), &error);
  g_assert_no_error (error);
  xrlab_engine_reply_clear (&r);
  return res;
}

/* The service's joint fit is the library's on the same files, bit for bit,
 * and every file's baseline and 2D results are its setup's. */
static void
test_project (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree XrlabFitProject *p = NULL;
  g_autoptr(XrlabProjectResult) direct = NULL;
  g_autoptr(XrlabProject) proj = xrlab_project_new ();
  XrlabFitflow *flows[N_FILES] = { 0 };
  double *arrays[3 * N_FILES] = { 0 };
  XrlabFitflowResult *bases[N_FILES] = { 0 };
  g_autoptr(XrlabModel) base = NULL, m2d = NULL;
  const char *irf[] = { "MonoExpPosIRF" };
  Fixture f;

  if (!fixture_open (&f))
    return;
  p = run_project (&f, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (p);
  g_assert_cmpuint (p->n_files, ==, N_FILES);
  g_assert_cmpuint (p->n_shared, ==, 2);
  g_assert_cmpuint (p->nvarys, ==, 2 + N_FILES);
  g_assert_true (p->converged && p->complete);
  g_assert_cmpstr (p->shared_names[0], ==, "GLP_01_x0_gaussCONV_SD");
  g_assert_cmpstr (p->shared_names[1], ==, "GLP_01_x0_expFun_01_tau");
  g_test_message ("project: SD %.6g ± %.2g, τ %.6g ± %.2g, χ²_ν %.5g", p->shared_values[0],
                  p->shared_errors[0], p->shared_values[1], p->shared_errors[1], p->redchi);

  /* the same with the library */
  base = xrlab_model_load (f.models, "base", &error);
  m2d = xrlab_model_load (f.models, "2D", &error);
  g_assert_no_error (error);
  g_assert_true (xrlab_model_add_dynamics (m2d, "GLP_01_x0", f.tmodels, irf, 1, 0, &error));
  for (gsize k = 0; k < N_FILES; k++)
    {
      gsize rows, cols, ne, nt;
      XrlabFitflowData fd = { 0 };

      arrays[3 * k] = xrlab_read_csv_matrix (f.data[k], TRUE, &rows, &cols, &error);
      arrays[3 * k + 1] = xrlab_read_column_file (f.energy, &ne, &error);
      arrays[3 * k + 2] = xrlab_read_column_file (f.time, &nt, &error);
      g_assert_no_error (error);
      fd.data = arrays[3 * k], fd.n_rows = rows, fd.n_cols = cols;
      fd.energy = arrays[3 * k + 1], fd.n_energy = ne;
      fd.time = arrays[3 * k + 2], fd.n_time = nt;
      flows[k] = xrlab_fitflow_new (&fd, &error);
      g_assert_true (xrlab_fitflow_set_window (flows[k], 5, 18, -20, 99, &error));
      g_assert_true (xrlab_fitflow_fit_baseline (flows[k], base, -20, -9, NULL, &bases[k],
                                                 &error));
      g_assert_no_error (error);
      xrlab_project_add_file (proj, flows[k], "x");
    }
  g_assert_true (xrlab_project_fit_2d (proj, m2d, NULL, &direct, &error));
  g_assert_no_error (error);
  for (gsize j = 0; j < 2; j++)
    g_assert_cmpfloat (p->shared_values[j], ==, direct->shared_values[j]);
  g_assert_cmpfloat (p->chi2, ==, direct->chi2);

  /* every setup holds its file's results */
  for (gsize k = 0; k < N_FILES; k++)
    {
      g_autoptr(XrlabFitResults) res = results_of (&f, f.setups[k]);
      gssize i;

      g_assert_nonnull (res->baseline);
      g_assert_nonnull (res->main);
      g_assert_true (res->main_complete);
      i = xrlab_fitflow_result_find (res->main, "GLP_01_x0_expFun_01_A");
      g_assert_cmpint (i, >=, 0);
      g_assert_cmpfloat (res->main->params[i].value, ==,
                         direct->files[k]->params[xrlab_fitflow_result_find (direct->files[k],
                                                                             "GLP_01_x0_expFun_01_A")]
                           .value);
    }
  for (gsize k = 0; k < N_FILES; k++)
    {
      xrlab_fitflow_result_free (bases[k]);
      xrlab_fitflow_free (flows[k]);
    }
  for (gsize k = 0; k < 3 * N_FILES; k++)
    g_free (arrays[k]);
  fixture_close (&f);
}

static gboolean
cancel_soon (gpointer data)
{
  g_cancellable_cancel (data);
  return G_SOURCE_REMOVE;
}

/* Cancelled: the reply says so; the files' baselines that ran stay. */
static void
test_cancel (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autofree XrlabFitProject *p = NULL;
  Fixture f;

  if (!fixture_open (&f))
    return;
  {
    /* on the context the replies come to */
    g_autoptr(GSource) timer = g_timeout_source_new (5);

    g_source_set_callback (timer, cancel_soon, cancellable, NULL);
    g_source_attach (timer, f.context);
  }
  p = run_project (&f, cancellable, &error);
  g_assert_null (p);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  {
    g_autoptr(XrlabFitResults) res = results_of (&f, f.setups[0]);
    /* the first baseline ran or was stopped; a 2D result is marked incomplete */
    if (res->main != NULL)
      g_assert_false (res->main_complete);
  }
  /* the setups still work: the whole project again */
  g_clear_error (&error);
  g_clear_pointer (&p, g_free);
  p = run_project (&f, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (p->complete);
  fixture_close (&f);
}

/* A sweep of a parameter the model lacks, and a setup that is not there. */
static void
test_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *out = g_build_filename (g_get_tmp_dir (), "xrlab-sweep-never.h5", NULL);
  const double v[] = { 1, 2 };
  XrlabFitSweepParam sw = { .param = "GLP_09_A", .kind = XRLAB_FIT_SWEEP_VALUES, .values = v,
                            .n_values = 2 };
  XrlabFitSimulateSetSpec set = { 0 };
  XrlabEngineReply r = { 0 };
  Fixture f;

  if (!fixture_open (&f))
    return;
  set.base.models = f.models;
  set.base.model = "base";
  set.base.energy = f.energy;
  set.base.output = out;
  set.sweep = &sw, set.n_sweep = 1;
  xrlab_engine_fit_simulate_set_async (f.engine, &set, NULL, xrlab_engine_reply_cb, &r);
  g_assert_false (xrlab_engine_fit_simulate_set_finish (f.engine, xrlab_engine_reply_wait (&r),
                                                        NULL, NULL, &error));
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "GLP_09_A"));
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
  xrlab_engine_reply_clear (&r);
  g_clear_error (&error);
  {
    const guint bad[] = { f.setups[0], 999 };
    XrlabFitProjectSpec spec = { bad, 2, NULL, XRLAB_FIT_STAGES_MAIN };

    xrlab_engine_fit_project_run_async (f.engine, &spec, NULL, NULL, NULL, NULL,
                                        xrlab_engine_reply_cb, &r);
    g_assert_null (xrlab_engine_fit_project_run_finish (f.engine, xrlab_engine_reply_wait (&r),
                                                        &error));
    g_assert_error (error, XRLAB_ENGINE_FIT_ERROR, XRLAB_ENGINE_FIT_ERROR_NO_SETUP);
    xrlab_engine_reply_clear (&r);
  }
  fixture_close (&f);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  xrlab_init ();
  g_test_add_func ("/engine-fit-project/joint", test_project);
  g_test_add_func ("/engine-fit-project/cancel", test_cancel);
  g_test_add_func ("/engine-fit-project/errors", test_errors);
  return g_test_run ();
}
