/* test-cli-fit.c -- xrlab-cli simulate and fit: the files, their columns and
 * numbers, good and bad input
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>
#include <sys/wait.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "xrlab-fitflow.h"
#include "xrlab-init.h"
#include "xrlab-model.h"
#include "xrlab-util.h"

static char *tmpdir;

static char *
tmp_path (const char *name)
{
  return g_build_filename (tmpdir, name, NULL);
}

static char *
tmp_file (const char *name, const char *contents)
{
  char *path = tmp_path (name);
  g_assert_true (g_file_set_contents (path, contents, -1, NULL));
  return path;
}

/* Runs xrlab-cli with the NULL-terminated arguments; returns the exit status. */
static int
run_cli (char **out, char **err, ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  const char *cli = g_getenv ("XRLAB_CLI");
  g_autofree char *sout = NULL, *serr = NULL;
  int status = 0;
  va_list ap;
  const char *a;

  g_assert_nonnull (cli);
  g_ptr_array_add (argv, (char *) cli);
  va_start (ap, err);
  while ((a = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (argv, (char *) a);
  va_end (ap);
  g_ptr_array_add (argv, NULL);
  /* always captured: the child must not write into the TAP stream */
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                               &sout, &serr, &status, &error));
  g_assert_no_error (error);
  if (out)
    *out = g_steal_pointer (&sout);
  if (err)
    *err = g_steal_pointer (&serr);
  if (WIFEXITED (status))
    return WEXITSTATUS (status);
  return -1;
}

static const char *models_yaml =
  "truth:\n"
  "  Offset: {y0: [10, True, 0, 100]}\n"
  "  Shirley: {pShirley: [4.0E-3, True, 1.0E-6, 0.1]}\n"
  "  GLP: {A: [100, True, 10, 500], x0: [85.0, True, 83, 87], F: [0.9, True, 0.2, 3], "
  "m: [0.5, True, 0, 1]}\n"
  "  GLP: {A: [\"0.75*GLP_01_A\"], x0: [\"GLP_01_x0 + 1.6\"], F: [\"GLP_01_F\"], "
  "m: [\"GLP_01_m\"]}\n"
  "base:\n"
  "  Offset: {y0: [5, True, 0, 100]}\n"
  "  Shirley: {pShirley: [2.0E-3, True, 1.0E-6, 0.1]}\n"
  "  GLP: {A: [80, True, 10, 500], x0: [85.1, True, 83, 87], F: [1.1, True, 0.2, 3], "
  "m: [0.4, True, 0, 1]}\n"
  "  GLP: {A: [\"0.75*GLP_01_A\"], x0: [\"GLP_01_x0 + 1.6\"], F: [\"GLP_01_F\"], "
  "m: [\"GLP_01_m\"]}\n";

static const char *time_yaml =
  "irf:\n"
  "  gaussCONV: {SD: [1.0, True, 0.1, 5]}\n"
  "  expFun: {A: [0.9, True, -5, 5], tau: [8, True, 0.5, 50], t0: [0, False]}\n"
  "start:\n"
  "  gaussCONV: {SD: [0.7, True, 0.1, 5]}\n"
  "  expFun: {A: [0.6, True, -5, 5], tau: [12, True, 0.5, 50], t0: [0, False]}\n";

static char *models_path, *time_path, *energy_path, *delay_path, *data_path;
static char *dyn_truth, *dyn_start;

static void
setup_files (void)
{
  g_autoptr(GString) e = g_string_new ("# binding energy\n");
  g_autoptr(GString) t = g_string_new ("");

  for (int i = 0; i < 81; i++)
    g_string_append_printf (e, "%.3f\n", 88.0 - 0.075 * i);
  for (int i = 0; i < 40; i++)
    g_string_append_printf (t, "%g\n", i < 8 ? -10.0 + i : -2.0 + 0.75 * (i - 8));
  models_path = tmp_file ("models.yaml", models_yaml);
  time_path = tmp_file ("time.yaml", time_yaml);
  energy_path = tmp_file ("energy.csv", e->str);
  delay_path = tmp_file ("time.csv", t->str);
  data_path = tmp_path ("data.csv");
  dyn_truth = g_strdup_printf ("GLP_01_x0=%s:irf", time_path);
  dyn_start = g_strdup_printf ("GLP_01_x0=%s:start", time_path);
}

static char **
read_lines (const char *path)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_true (g_str_has_suffix (text, "\n"));
  text[strlen (text) - 1] = '\0';
  return g_strsplit (text, "\n", -1);
}

static double
num (const char *text)
{
  double v = NAN;
  g_assert_true (xrlab_parse_double (text, TRUE, &v));
  return v;
}

/* simulate: deterministic, σ on stdout, the layout of the data */
static void
test_simulate (void)
{
  g_autofree char *out = NULL, *err = NULL, *out2 = NULL, *a = NULL, *b = NULL;
  g_autofree char *other = tmp_path ("data-other.csv");
  gsize rows, cols;
  g_autofree double *m = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (run_cli (&out, &err, "simulate", "--models", models_path, "--model",
                            "truth", "--dynamics", dyn_truth, "--energy", energy_path,
                            "--time", delay_path, "--noise", "gaussian", "--level", "0.01",
                            "--seed", "5", "-o", data_path, NULL), ==, 0);
  g_assert_cmpstr (err, ==, "");
  g_assert_true (g_str_has_prefix (out, "noise_sigma="));
  g_assert_cmpint (run_cli (&out2, NULL, "simulate", "--models", models_path, "--model",
                            "truth", "--dynamics", dyn_truth, "--energy", energy_path,
                            "--time", delay_path, "--level", "0.01", "--seed", "5", "-o",
                            other, NULL), ==, 0);
  g_assert_cmpstr (out, ==, out2);
  g_assert_true (g_file_get_contents (data_path, &a, NULL, NULL));
  g_assert_true (g_file_get_contents (other, &b, NULL, NULL));
  g_assert_cmpstr (a, ==, b);
  m = xrlab_read_csv_matrix (data_path, FALSE, &rows, &cols, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rows, ==, 40);
  g_assert_cmpuint (cols, ==, 81);

  /* bad input */
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_cli (NULL, &err, "simulate", "--models", models_path, "--model",
                            "truth", "--energy", energy_path, "--noise", "pink", "--level",
                            "0.1", "-o", other, NULL), ==, 2);
  g_assert_nonnull (strstr (err, "--noise “pink”"));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_cli (NULL, &err, "simulate", "--models", models_path, "--model",
                            "truth", "--energy", energy_path, "--level", "-1", "-o", other,
                            NULL), ==, 2);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_cli (NULL, &err, "simulate", "--models", models_path, "--model",
                            "truth", "--energy", energy_path, "--set", "Offset_y0=0",
                            "--set", "GLP_01_A=10", "--noise", "poisson", "--level", "0.1",
                            "--set", "Shirley_pShirley=1e-6", "-o", other, NULL), ==, 0);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_cli (NULL, &err, "simulate", "--models", models_path, "--model",
                            "truth", "--energy", energy_path, "--noise", "poisson", "-o",
                            other, NULL), ==, 2);
  g_assert_nonnull (strstr (err, "--noise needs --level"));
}

/* The whole workflow from the command line, compared number for number
 * with the same fits run here through the engine. */
static void
test_fit_2d (void)
{
  g_autofree char *out = NULL, *err = NULL, *sigma_text = NULL;
  g_autofree char *outdir = tmp_path ("out2d");
  g_autoptr(GError) error = NULL;
  g_autofree double *data = NULL, *e = NULL, *t = NULL, *fit = NULL, *res = NULL;
  g_autoptr(XrlabModel) base = NULL, m2d = NULL;
  g_autoptr(XrlabFitflow) flow = NULL;
  g_autoptr(XrlabFitflowResult) b = NULL, g = NULL;
  g_autoptr(XrlabFitflowSbs) sbs = NULL;
  g_auto(GStrv) params = NULL, metrics = NULL, bparams = NULL, sbs_lines = NULL, ci = NULL;
  g_auto(GStrv) correl = NULL;
  gsize rows, cols, ne, nt, fr, fc, rr, rc, row0, nrw, col0, ncw;
  double sigma;
  const char *start[] = { "start" };

  /* data with known σ */
  g_assert_cmpint (run_cli (&sigma_text, NULL, "simulate", "--models", models_path, "--model",
                            "truth", "--dynamics", dyn_truth, "--energy", energy_path,
                            "--time", delay_path, "--level", "0.01", "--seed", "5", "-o",
                            data_path, NULL), ==, 0);
  g_strstrip (sigma_text);
  sigma = num (sigma_text + strlen ("noise_sigma="));

  g_assert_cmpint (run_cli (&out, &err, "fit", "--models", models_path, "--model", "base",
                            "--dynamics", dyn_start, "--data", data_path, "--energy",
                            energy_path, "--time", delay_path, "--baseline-model", "base",
                            "--baseline", "-10:-4", "--sbs", "--elim", "83:87.6", "--tlim",
                            ":20", "--sigma", sigma_text + strlen ("noise_sigma="),
                            "--scale-covar", "no", "--ci",
                            "GLP_01_x0_expFun_01_tau", "-o", outdir, NULL), ==, 0);
  /* stderr is not a terminal here: no progress */
  g_assert_cmpstr (err, ==, "");
  g_assert_nonnull (strstr (out, "baseline: reduced χ²"));
  g_assert_nonnull (strstr (out, "2D: reduced χ²"));
  /* σ given: the summary says which error convention it used */
  g_assert_nonnull (strstr (out, "errors: the covariance not scaled (--scale-covar no)"));

  /* the same through the engine */
  data = xrlab_read_csv_matrix (data_path, FALSE, &rows, &cols, &error);
  e = xrlab_read_column_file (energy_path, &ne, &error);
  t = xrlab_read_column_file (delay_path, &nt, &error);
  g_assert_no_error (error);
  base = xrlab_model_load (models_path, "base", &error);
  m2d = xrlab_model_load (models_path, "base", &error);
  g_assert_no_error (error);
  g_assert_true (xrlab_model_add_dynamics (m2d, "GLP_01_x0", time_path, start, 1, 0, &error));
  {
    XrlabFitflowData fd = { .data = data, .n_rows = rows, .n_cols = cols, .energy = e,
                            .n_energy = ne, .time = t, .n_time = nt };
    flow = xrlab_fitflow_new (&fd, &error);
    g_assert_no_error (error);
  }
  g_assert_true (xrlab_fitflow_set_window (flow, 83, 87.6, NAN, 20, &error));
  g_assert_true (xrlab_fitflow_set_sigma (flow, XRLAB_FIT_SIGMA_SCALAR, &sigma, 1, &error));
  g_assert_true (xrlab_fitflow_fit_baseline (flow, base, -10, -4, NULL, &b, &error));
  g_assert_true (xrlab_fitflow_fit_sbs (flow, m2d, NULL, &sbs, &error));
  g_assert_true (xrlab_fitflow_fit_2d (flow, m2d, NULL, &g, &error));
  g_assert_no_error (error);
  xrlab_fitflow_get_window (flow, &row0, &nrw, &col0, &ncw);

  /* params.csv: every parameter, the numbers exactly (round-trip text) */
  {
    g_autofree char *p = g_build_filename (outdir, "params.csv", NULL);
    params = read_lines (p);
  }
  g_assert_cmpstr (params[0], ==, "name,value,stderr,vary,min,max,expr");
  g_assert_cmpuint (g_strv_length (params) - 1, ==, g->n_params);
  for (gsize i = 0; i < g->n_params; i++)
    {
      g_auto(GStrv) f = g_strsplit (params[i + 1], ",", -1);
      const XrlabFitflowParam *q = &g->params[i];

      g_assert_cmpuint (g_strv_length (f), ==, 7);
      g_assert_cmpstr (f[0], ==, q->name);
      g_assert_cmpfloat (num (f[1]), ==, q->value);
      if (q->fitted)
        {
          g_assert_cmpfloat (num (f[2]), ==, q->std_error);
          g_assert_cmpstr (f[3], ==, "True");
          g_assert_cmpfloat (num (f[4]), ==, q->min);
          g_assert_cmpfloat (num (f[5]), ==, q->max);
        }
      if (q->expr)
        {
          g_assert_cmpstr (f[6], ==, q->expr);
          g_assert_cmpstr (f[3], ==, "");
          g_assert_cmpfloat (num (f[2]), ==, q->std_error);   /* propagated */
        }
      if (!q->fitted && !q->expr)
        g_assert_cmpstr (f[2], ==, "");   /* fixed: no error */
    }
  g_assert_true (g_str_has_prefix (params[1], "Offset_y0,"));

  /* metrics.csv */
  {
    g_autofree char *p = g_build_filename (outdir, "metrics.csv", NULL);
    g_auto(GStrv) f = NULL;
    metrics = read_lines (p);
    g_assert_cmpuint (g_strv_length (metrics), ==, 2);
    g_assert_cmpstr (metrics[0], ==, "chi2,redchi,r2,aic,bic,ndata,nvarys,niter,nfev,njev,"
                                    "wall_s");
    f = g_strsplit (metrics[1], ",", -1);
    g_assert_cmpfloat (num (f[0]), ==, g->fit->chi2);
    g_assert_cmpfloat (num (f[1]), ==, g->fit->redchi);
    g_assert_cmpfloat (num (f[2]), ==, g->fit->r2);
    g_assert_cmpfloat (num (f[3]), ==, g->fit->aic);
    g_assert_cmpfloat (num (f[4]), ==, g->fit->bic);
    g_assert_cmpfloat (num (f[5]), ==, (double) (nrw * ncw));
    g_assert_cmpfloat (num (f[6]), ==, (double) g->n_theta);
    g_assert_cmpfloat (num (f[7]), ==, g->fit->niter);
    g_assert_cmpfloat (num (f[10]), >, 0);
    /* σ was the noise */
    g_assert_cmpfloat (fabs (num (f[1]) - 1.0), <, 0.1);
  }

  /* fit.csv and residual.csv: the layout of the data, residual = data − fit */
  {
    g_autofree char *p = g_build_filename (outdir, "fit.csv", NULL);
    g_autofree char *q = g_build_filename (outdir, "residual.csv", NULL);
    fit = xrlab_read_csv_matrix (p, TRUE, &fr, &fc, &error);
    res = xrlab_read_csv_matrix (q, TRUE, &rr, &rc, &error);
    g_assert_no_error (error);
    g_assert_true (fr == rows && fc == cols && rr == rows && rc == cols);
    for (gsize i = 0; i < rows * cols; i++)
      g_assert_cmpfloat (res[i], ==, data[i] - fit[i]);
    /* inside the window the residual is that of the fit: Σ(r/σ)² = χ² */
    {
      double chi2 = 0;
      for (gsize r = row0; r < row0 + nrw; r++)
        for (gsize c = col0; c < col0 + ncw; c++)
          chi2 += res[r * cols + c] * res[r * cols + c] / (sigma * sigma);
      g_assert_cmpfloat (fabs (chi2 / g->fit->chi2 - 1.0), <, 1e-9);
    }
  }

  /* baseline_params.csv */
  {
    g_autofree char *p = g_build_filename (outdir, "baseline_params.csv", NULL);
    g_autofree char *bm = g_build_filename (outdir, "baseline_metrics.csv", NULL);
    bparams = read_lines (p);
    g_assert_cmpuint (g_strv_length (bparams) - 1, ==, b->n_params);
    for (gsize i = 0; i < b->n_params; i++)
      {
        g_auto(GStrv) f = g_strsplit (bparams[i + 1], ",", -1);
        g_assert_cmpfloat (num (f[1]), ==, b->params[i].value);
      }
    g_assert_true (g_file_test (bm, G_FILE_TEST_EXISTS));
  }

  /* sbs.csv: a row per delay of the window, parameter and error columns */
  {
    g_autofree char *p = g_build_filename (outdir, "sbs.csv", NULL);
    g_auto(GStrv) head = NULL;
    sbs_lines = read_lines (p);
    g_assert_cmpuint (g_strv_length (sbs_lines) - 1, ==, nrw);
    head = g_strsplit (sbs_lines[0], ",", -1);
    g_assert_cmpuint (g_strv_length (head), ==, 1 + 2 * sbs->n_params + 4);
    g_assert_cmpstr (head[0], ==, "delay");
    g_assert_cmpstr (head[1], ==, "Offset_y0");
    g_assert_cmpstr (head[2], ==, "Offset_y0_stderr");
    for (gsize k = 0; k < nrw; k++)
      {
        g_auto(GStrv) f = g_strsplit (sbs_lines[k + 1], ",", -1);
        g_assert_cmpfloat (num (f[0]), ==, t[row0 + k]);
        for (gsize i = 0; i < sbs->n_params; i++)
          g_assert_cmpfloat (num (f[1 + 2 * i]), ==, sbs->values[k * sbs->n_params + i]);
        g_assert_cmpstr (f[1 + 2 * sbs->n_params + 3], ==, "True");
      }
  }

  /* ci.csv */
  {
    g_autofree char *p = g_build_filename (outdir, "ci.csv", NULL);
    g_auto(GStrv) f = NULL;
    ci = read_lines (p);
    g_assert_cmpstr (ci[0], ==, "name,-3sigma,-2sigma,-1sigma,best,+1sigma,+2sigma,+3sigma");
    f = g_strsplit (ci[1], ",", -1);
    g_assert_cmpstr (f[0], ==, "GLP_01_x0_expFun_01_tau");
    for (int k = 1; k < 7; k++)
      g_assert_cmpfloat (num (f[k]), <, num (f[k + 1]));
  }

  /* correl.csv: symmetric, ones on the diagonal */
  {
    g_autofree char *p = g_build_filename (outdir, "correl.csv", NULL);
    correl = read_lines (p);
    g_assert_cmpuint (g_strv_length (correl), ==, g->n_theta + 1);
  }
}

/* A single spectrum: one data row, no delay axis. */
static void
test_fit_spectrum (void)
{
  g_autofree char *out = NULL, *err = NULL, *o2 = NULL;
  g_autofree char *outdir = tmp_path ("out1d");
  g_autofree char *spec = tmp_path ("spectrum.csv");
  g_autofree char *p = NULL;
  g_auto(GStrv) params = NULL;
  gsize rows, cols;
  g_autoptr(GError) error = NULL;
  g_autofree double *fit = NULL;

  g_assert_cmpint (run_cli (&o2, NULL, "simulate", "--models", models_path, "--model", "truth",
                            "--energy", energy_path, "--level", "0.005", "--seed", "9", "-o",
                            spec, NULL), ==, 0);
  g_assert_cmpint (run_cli (&out, &err, "fit", "--models", models_path, "--model", "base",
                            "--data", spec, "--energy", energy_path, "--elim", "82.5:", "--method",
                            "lmaccel", "-o", outdir, NULL), ==, 0);
  g_assert_cmpstr (err, ==, "");
  g_assert_nonnull (strstr (out, "spectrum: reduced χ²"));
  p = g_build_filename (outdir, "params.csv", NULL);
  params = read_lines (p);
  g_assert_cmpuint (g_strv_length (params), ==, 11);
  g_clear_pointer (&p, g_free);
  p = g_build_filename (outdir, "fit.csv", NULL);
  fit = xrlab_read_csv_matrix (p, FALSE, &rows, &cols, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rows, ==, 1);
  g_assert_cmpuint (cols, ==, 81);
  g_clear_pointer (&p, g_free);
  p = g_build_filename (outdir, "baseline_params.csv", NULL);
  g_assert_false (g_file_test (p, G_FILE_TEST_EXISTS));

  /* the same with finite differences lands on the same minimum */
  {
    g_autofree char *outfd = tmp_path ("out1d-fd");
    g_autofree char *p1 = g_build_filename (outdir, "metrics.csv", NULL);
    g_autofree char *p2 = g_build_filename (outfd, "metrics.csv", NULL);
    g_auto(GStrv) m1 = NULL, m2 = NULL, f1 = NULL, f2 = NULL;

    g_assert_cmpint (run_cli (NULL, NULL, "fit", "--models", models_path, "--model", "base",
                              "--data", spec, "--energy", energy_path, "--elim", "82.5:",
                              "--method", "fd", "-o", outfd, NULL), ==, 0);
    m1 = read_lines (p1);
    m2 = read_lines (p2);
    f1 = g_strsplit (m1[1], ",", -1);
    f2 = g_strsplit (m2[1], ",", -1);
    g_assert_cmpfloat (fabs (num (f1[0]) / num (f2[0]) - 1.0), <, 1e-7);
  }
}

/* Bad input: exit 1 with a message, and no results written. */
static void
expect_fail (const char *frag, const char *outdir, ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(GError) error = NULL;
  const char *cli = g_getenv ("XRLAB_CLI");
  int status;
  va_list ap;
  const char *a;

  g_ptr_array_add (argv, (char *) cli);
  g_ptr_array_add (argv, "fit");
  va_start (ap, outdir);
  while ((a = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (argv, (char *) a);
  va_end (ap);
  g_ptr_array_add (argv, "-o");
  g_ptr_array_add (argv, (char *) outdir);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                               &out, &err, &status, &error));
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status));
  if (WEXITSTATUS (status) != 1 || strstr (err, frag) == NULL)
    g_error ("expected exit 1 with “%s”, got %d: %s", frag, WEXITSTATUS (status), err);
  g_assert_cmpstr (out, ==, "");
  g_assert_true (g_str_has_prefix (err, "xrlab-cli: "));
  g_assert_false (g_file_test (outdir, G_FILE_TEST_EXISTS));
}

static void
test_bad_input (void)
{
  g_autofree char *outdir = tmp_path ("never");
  g_autofree char *nan_data = NULL, *short_e = NULL, *sig = NULL;
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;

  /* data with a NaN at row 12, column 30 */
  g_assert_true (g_file_get_contents (data_path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  {
    g_auto(GStrv) f = g_strsplit (lines[11], ",", -1);
    g_free (f[29]);
    f[29] = g_strdup ("nan");
    g_free (lines[11]);
    lines[11] = g_strjoinv (",", f);
  }
  {
    g_autofree char *joined = g_strjoinv ("\n", lines);
    nan_data = tmp_file ("nan.csv", joined);
  }
  short_e = tmp_file ("short.csv", "88\n87\n86\n");
  sig = tmp_file ("sigma-bad.csv", "1\n2\n");

  expect_fail ("nan.csv: NaN at row 12, column 30", outdir, "--models", models_path,
               "--model", "base", "--data", nan_data, "--energy", energy_path, "--time",
               delay_path, NULL);
  /* outside the window it is fine: the energies stop before column 30 */
  {
    g_autofree char *ok_dir = tmp_path ("nan-outside");
    g_assert_cmpint (run_cli (NULL, NULL, "fit", "--models", models_path, "--model", "base",
                              "--data", nan_data, "--energy", energy_path, "--time", delay_path,
                              "--elim", "88:86", "-o", ok_dir, NULL), ==, 0);
  }
  expect_fail ("data.csv has 81 columns but short.csv has 3 energies", outdir, "--models",
               models_path, "--model", "base", "--data", data_path, "--energy", short_e,
               "--time", delay_path, NULL);
  expect_fail ("data.csv has 40 rows: a 2D measurement needs its delay axis", outdir,
               "--models", models_path, "--model", "base", "--data", data_path, "--energy",
               energy_path, NULL);
  expect_fail ("holds no energy of energy.csv", outdir, "--models", models_path, "--model",
               "base", "--data", data_path, "--energy", energy_path, "--time", delay_path,
               "--elim", "95:99", NULL);
  expect_fail ("The baseline range", outdir, "--models", models_path, "--model", "base",
               "--data", data_path, "--energy", energy_path, "--time", delay_path,
               "--baseline-model", "base", "--baseline", "100:200", NULL);
  expect_fail ("free parameters", outdir, "--models", models_path, "--model", "base",
               "--data", data_path, "--energy", energy_path, "--time", delay_path,
               "--baseline-model", "base", "--baseline", "-10:-4", "--elim", "85:85.2", NULL);
  expect_fail ("Confidence interval of “GLP_02_A”", outdir, "--models", models_path,
               "--model", "base", "--data", data_path, "--energy", energy_path, "--time",
               delay_path, "--ci", "GLP_02_A", NULL);
  expect_fail ("σ = -1 is not a positive finite number", outdir, "--models", models_path,
               "--model", "base", "--data", data_path, "--energy", energy_path, "--time",
               delay_path, "--sigma", "-1", NULL);
  expect_fail ("fit neither the data", outdir, "--models", models_path, "--model", "base",
               "--data", data_path, "--energy", energy_path, "--time", delay_path, "--sigma",
               sig, NULL);
  expect_fail ("no-such.csv", outdir, "--models", models_path, "--model", "base", "--data",
               "no-such.csv", "--energy", energy_path, NULL);
  expect_fail ("no-model", outdir, "--models", models_path, "--model", "base", "--data",
               data_path, "--energy", energy_path, "--time", delay_path, "--baseline-model",
               "no-model", "--baseline", "-10:-4", NULL);
}

/* Usage errors: exit 2 with a hint. */
static void
test_usage (void)
{
  static const char *const cases[][8] = {
    { "--model", "base", NULL },
    { "--data", "x.csv", "--energy", "e.csv", "--sbs", NULL },
    { "--data", "x.csv", "--energy", "e.csv", "--baseline", "-1:0", NULL },
    { "--data", "x.csv", "--energy", "e.csv", "--method", "newton", NULL },
    { "--data", "x.csv", "--energy", "e.csv", "--elim", "81-91", NULL },
    { "--data", "x.csv", "--energy", "e.csv", "--ci", "a,,b", NULL },
    { "--data", "x.csv", "--energy", "e.csv", "--threads", "-2", NULL },
    { "--data", "x.csv", "--energy", "e.csv", "--pin-baseline", NULL },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GPtrArray) argv = g_ptr_array_new ();
      g_autofree char *out = NULL, *err = NULL;
      int status;

      g_ptr_array_add (argv, (char *) g_getenv ("XRLAB_CLI"));
      g_ptr_array_add (argv, "fit");
      g_ptr_array_add (argv, "--models");
      g_ptr_array_add (argv, models_path);
      g_ptr_array_add (argv, "--model");
      g_ptr_array_add (argv, "base");
      g_ptr_array_add (argv, "-o");
      g_ptr_array_add (argv, "unused-dir");
      for (int k = 0; cases[i][k]; k++)
        g_ptr_array_add (argv, (char *) cases[i][k]);
      g_ptr_array_add (argv, NULL);
      g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL,
                                   NULL, &out, &err, &status, NULL));
      g_assert_cmpstr (out, ==, "");
      g_assert_true (WIFEXITED (status));
      g_assert_cmpint (WEXITSTATUS (status), ==, 2);
      g_assert_nonnull (strstr (err, "xrlab-cli fit --help"));
    }
}

static void
test_help (void)
{
  g_autofree char *out = NULL;

  g_assert_cmpint (run_cli (&out, NULL, "fit", "--help", NULL), ==, 0);
  g_assert_nonnull (strstr (out, "params.csv"));
  g_assert_nonnull (strstr (out, "--baseline-model"));
  g_assert_nonnull (strstr (out, "--pin-baseline"));
  g_clear_pointer (&out, g_free);
  g_assert_cmpint (run_cli (&out, NULL, "simulate", "--help", NULL), ==, 0);
  g_assert_nonnull (strstr (out, "MT19937"));
}

static void
remove_tree (const char *path)
{
  GDir *d = g_dir_open (path, 0, NULL);
  const char *name;

  while (d && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *p = g_build_filename (path, name, NULL);
      if (g_file_test (p, G_FILE_TEST_IS_DIR))
        remove_tree (p);
      else
        g_unlink (p);
    }
  if (d)
    g_dir_close (d);
  g_rmdir (path);
}

int
main (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  int status;

  xrlab_init ();
  g_test_init (&argc, &argv, NULL);
  tmpdir = g_dir_make_tmp ("xrlab-cli-fit-XXXXXX", &error);
  g_assert_no_error (error);
  setup_files ();

  g_test_add_func ("/cli-fit/simulate", test_simulate);
  g_test_add_func ("/cli-fit/fit-2d", test_fit_2d);
  g_test_add_func ("/cli-fit/fit-spectrum", test_fit_spectrum);
  g_test_add_func ("/cli-fit/bad-input", test_bad_input);
  g_test_add_func ("/cli-fit/usage", test_usage);
  g_test_add_func ("/cli-fit/help", test_help);
  status = g_test_run ();

  remove_tree (tmpdir);
  g_free (tmpdir);
  return status;
}
