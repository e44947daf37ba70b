/* test-cli-models.c -- xrlab-cli eval and params, good and bad input
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>
#include <sys/wait.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "xrlab-init.h"
#include "xrlab-model.h"
#include "xrlab-plan.h"
#include "xrlab-util.h"

static char *tmpdir;

static char *
tmp_file (const char *name, const char *contents)
{
  char *path = g_build_filename (tmpdir, name, NULL);
  g_assert_true (g_file_set_contents (path, contents, -1, NULL));
  return path;
}

static char *
models_dir_file (const char *name)
{
  return g_build_filename (XRLAB_TEST_SRCDIR, "..", "data", "models", name, NULL);
}

/* Runs xrlab-cli with @args (NULL-terminated); returns the exit status. */
static int
run_cli (char **out, char **err, ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  const char *cli = g_getenv ("XRLAB_CLI");
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
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                               out, err, &status, &error));
  g_assert_no_error (error);
  if (WIFEXITED (status))
    return WEXITSTATUS (status);
  return -1;
}

static const char *energy_txt =
  "# energies\n92\n91.5\n91\n90.5\n90\n89.5\n89\n88.5\n88\n87.5\n87\n86.5\n86\n85.5\n85\n"
  "84.5\n84\n83.5\n83\n82.5\n82\n81.5\n81\n80.5\n80\n";
static const char *time_txt = "-1\n-0.5\n0\n0.25\n0.5\n1\n2\n3.5\n5\n7\n9\n";
static const char *aux_txt = "0\n1\n2.5\n";

static const char *profile_yaml = "depth: {pExpDecay: {A: [-50, True], tau: [1.5, True]}}\n";

/* The model written by eval agrees with the plan evaluated here. */
static void
check_eval_output (const char *csv_path, XrlabModel *m, const char *const *axes)
{
  g_autoptr(GError) error = NULL;
  gsize n_e = 0, n_t = 0, n_a = 0, rows, cols;
  g_autofree double *e = xrlab_read_column_file (axes[0], &n_e, &error);
  g_autofree double *t = axes[1] ? xrlab_read_column_file (axes[1], &n_t, &error) : NULL;
  g_autofree double *a = axes[2] ? xrlab_read_column_file (axes[2], &n_a, &error) : NULL;
  g_autofree double *got = xrlab_read_csv_matrix (csv_path, FALSE, &rows, &cols, &error);
  g_autoptr(XrlabPlan) plan = NULL;
  g_autofree double *theta = NULL, *want = NULL;

  g_assert_no_error (error);
  plan = xrlab_plan_new (m, e, n_e, t, n_t, a, n_a, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rows, ==, t ? n_t : 1);
  g_assert_cmpuint (cols, ==, n_e);
  theta = g_new (double, MAX (xrlab_plan_n_theta (plan), 1));
  want = g_new (double, rows * cols);
  xrlab_plan_theta_initial (plan, theta);
  xrlab_plan_eval (plan, theta, want);
  for (gsize i = 0; i < rows * cols; i++)
    g_assert_cmpfloat (got[i], ==, want[i]);   /* round-trip number formatting */
}

static void
test_eval (void)
{
  g_autofree char *energy = tmp_file ("energy.csv", energy_txt);
  g_autofree char *time = tmp_file ("time.csv", time_txt);
  g_autofree char *aux = tmp_file ("aux.csv", aux_txt);
  g_autofree char *profile = tmp_file ("profile.yaml", profile_yaml);
  g_autofree char *au4f = models_dir_file ("au4f.yaml");
  g_autofree char *tmodels = models_dir_file ("time.yaml");
  g_autofree char *out1 = g_build_filename (tmpdir, "model1d.csv", NULL);
  g_autofree char *out2 = g_build_filename (tmpdir, "model2d.csv", NULL);
  g_autofree char *dyn = g_strdup_printf ("GLP_01_x0=%s:MonoSin,MonoExpPos,ModelNone@0.125", tmodels);
  g_autofree char *dyn2 = g_strdup_printf ("GLP_01_A=%s:MonoExpIRF", tmodels);
  g_autofree char *prof = g_strdup_printf ("GLP_01_F=%s:depth", profile);
  g_autofree char *sout = NULL, *serr = NULL;
  g_autoptr(GError) error = NULL;

  /* 1D */
  g_assert_cmpint (run_cli (&sout, &serr, "eval", "--models", au4f, "--model", "base",
                            "--energy", energy, "--set", "GLP_01_A=250", "-o", out1, NULL), ==, 0);
  g_assert_cmpstr (sout, ==, "");
  {
    g_autoptr(XrlabModel) m = xrlab_model_load (au4f, "base", &error);
    const char *axes[] = { energy, NULL, NULL };
    g_assert_true (xrlab_model_set_value (m, "GLP_01_A", 250, &error));
    check_eval_output (out1, m, axes);
  }
  g_clear_pointer (&sout, g_free);
  g_clear_pointer (&serr, g_free);

  /* 2D: multi-cycle dynamics, a kernel, a profile */
  g_assert_cmpint (run_cli (&sout, &serr, "eval", "--models", au4f, "--model", "2D",
                            "--energy", energy, "--time", time, "--dynamics", dyn,
                            "--dynamics", dyn2, "--aux", aux, "--profile", prof,
                            "--set", "GLP_01_A_gaussCONV_SD=0.4", "--set",
                            "GLP_01_x0_expFun_01_tau=1.5", "-o", out2, NULL), ==, 0);
  g_assert_cmpstr (serr, ==, "");
  {
    g_autoptr(XrlabModel) m = xrlab_model_load (au4f, "2D", &error);
    const char *models[] = { "MonoSin", "MonoExpPos", "ModelNone" };
    const char *models2[] = { "MonoExpIRF" };
    const char *axes[] = { energy, time, aux };
    g_assert_true (xrlab_model_add_dynamics (m, "GLP_01_x0", tmodels, models, 3, 0.125, &error));
    g_assert_true (xrlab_model_add_dynamics (m, "GLP_01_A", tmodels, models2, 1, 0, &error));
    g_assert_true (xrlab_model_add_profile (m, "GLP_01_F", profile, "depth", &error));
    g_assert_true (xrlab_model_set_value (m, "GLP_01_A_gaussCONV_SD", 0.4, &error));
    g_assert_true (xrlab_model_set_value (m, "GLP_01_x0_expFun_01_tau", 1.5, &error));
    g_assert_no_error (error);
    check_eval_output (out2, m, axes);
  }
}

static void
test_params (void)
{
  g_autofree char *energy = tmp_file ("energy.csv", energy_txt);
  g_autofree char *time = tmp_file ("time.csv", time_txt);
  g_autofree char *au4f = models_dir_file ("au4f.yaml");
  g_autofree char *ttime = models_dir_file ("au4f-time.yaml");
  g_autofree char *dyn = g_strdup_printf ("GLP_01_x0=%s:SinOsc", ttime);
  g_autofree char *out = g_build_filename (tmpdir, "params.csv", NULL);
  g_autofree char *sout = NULL, *serr = NULL, *contents = NULL;
  g_auto(GStrv) lines = NULL;

  g_assert_cmpint (run_cli (&sout, &serr, "params", "--models", au4f, "--model", "2D",
                            "--dynamics", dyn, "--set", "Offset_y0=60", NULL), ==, 0);
  lines = g_strsplit (sout, "\n", -1);
  g_assert_cmpstr (lines[0], ==, "name,value,vary,min,max,expr,theta");
  g_assert_cmpstr (lines[1], ==, "Offset_y0,60,True,0,500,,0");
  g_assert_cmpstr (lines[2], ==, "Shirley_pShirley,0.0004,True,1e-09,0.01,,1");
  g_assert_cmpstr (lines[5], ==, "GLP_01_x0_sinFun_01_A,0.9,True,0,3,,4");
  g_assert_cmpstr (lines[8], ==, "GLP_01_x0_sinFun_01_t0,0,False,-1,1,,");
  g_assert_cmpstr (lines[10], ==, "GLP_01_m,0.3,True,0,1,,8");
  /* an expression: its current value (3/4 of 300) */
  g_assert_cmpstr (lines[11], ==, "GLP_02_A,225,,,,3/4*GLP_01_A,");
  g_assert_cmpuint (g_strv_length (lines), ==, 16);   /* header, 14 parameters, "" */

  /* with axes, to a file: the same */
  g_clear_pointer (&serr, g_free);
  {
    g_autofree char *sout2 = NULL;
    g_assert_cmpint (run_cli (&sout2, &serr, "params", "--models", au4f, "--model", "2D",
                              "--dynamics", dyn, "--set", "Offset_y0=60", "--energy", energy,
                              "--time", time, "-o", out, NULL), ==, 0);
    g_assert_cmpstr (sout2, ==, "");
  }
  g_assert_true (g_file_get_contents (out, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, sout);
}

typedef struct {
  const char *what;
  int status;
  const char *stderr_has;
} Expect;

static void
expect (const Expect *x, int status, const char *sout, const char *serr)
{
  if (status != x->status || strstr (serr, x->stderr_has) == NULL)
    g_error ("%s: exit %d (want %d), stderr “%s” (want “%s”)", x->what, status, x->status,
             serr, x->stderr_has);
  g_assert_cmpstr (sout, ==, "");
}

static void
test_bad_input (void)
{
  g_autofree char *energy = tmp_file ("energy.csv", energy_txt);
  g_autofree char *bad_energy = tmp_file ("bad-energy.csv", "84\n85\nabc\n86\n");
  g_autofree char *time = tmp_file ("time.csv", time_txt);
  g_autofree char *bad_time = tmp_file ("bad-time.csv", "0\n1\n1\n2\n");
  g_autofree char *bad_yaml = tmp_file ("bad.yaml", "m:\n  Gauss: {A: [1, True], x0: [1, True], SD: [7, True, 0, 5]}\n");
  g_autofree char *syntax = tmp_file ("syntax.yaml", "m:\n  Gauss: {A: [1, True\n");
  g_autofree char *au4f = models_dir_file ("au4f.yaml");
  g_autofree char *tmodels = models_dir_file ("time.yaml");
  g_autofree char *out = g_build_filename (tmpdir, "never.csv", NULL);
  g_autofree char *nodir = g_build_filename (tmpdir, "no-such-dir", "m.csv", NULL);
  g_autofree char *dyn_bad_par = g_strdup_printf ("GLP_07_x0=%s:MonoExpPos", tmodels);
  g_autofree char *dyn_bad_model = g_strdup_printf ("GLP_01_x0=%s:NoSuchModel", tmodels);
  g_autofree char *dyn_kernel = g_strdup_printf ("GLP_01_x0=%s:MonoExpIRF", tmodels);
  g_autofree char *dyn_multi = g_strdup_printf ("GLP_01_x0=%s:MonoSin,MonoExpPos", tmodels);
  struct {
    Expect x;
    const char *args[16];
  } cases[] = {
    { { "no model file", 1, "/nonexistent.yaml" },
      { "eval", "--models", "/nonexistent.yaml", "--model", "base", "--energy", energy, "-o", out } },
    { { "bad parameter", 1, "bad.yaml:2: model “m”: parameter Gauss_01_SD" },
      { "eval", "--models", bad_yaml, "--model", "m", "--energy", energy, "-o", out } },
    { { "YAML syntax", 1, "syntax.yaml:3:" },
      { "eval", "--models", syntax, "--model", "m", "--energy", energy, "-o", out } },
    { { "no such model", 1, "no model “2d”" },
      { "eval", "--models", au4f, "--model", "2d", "--energy", energy, "-o", out } },
    { { "bad energy file", 1, "bad-energy.csv:3" },
      { "eval", "--models", au4f, "--model", "base", "--energy", bad_energy, "-o", out } },
    { { "--set unknown", 1, "no parameter “GLP_05_A”" },
      { "eval", "--models", au4f, "--model", "base", "--energy", energy, "--set", "GLP_05_A=3", "-o", out } },
    { { "--set outside bounds", 1, "GLP_01_m: the value 3 is outside its bounds [0, 1]" },
      { "eval", "--models", au4f, "--model", "base", "--energy", energy, "--set", "GLP_01_m=3", "-o", out } },
    { { "--set expression", 1, "GLP_02_A is defined by the expression" },
      { "eval", "--models", au4f, "--model", "base", "--energy", energy, "--set", "GLP_02_A=3", "-o", out } },
    { { "--set not a number", 1, "“x” is not a finite number" },
      { "eval", "--models", au4f, "--model", "base", "--energy", energy, "--set", "GLP_01_A=x", "-o", out } },
    { { "dynamics on a missing parameter", 1, "no parameter “GLP_07_x0”" },
      { "eval", "--models", au4f, "--model", "2D", "--energy", energy, "--time", time, "--dynamics", dyn_bad_par, "-o", out } },
    { { "no such time model", 1, "no time model “NoSuchModel”" },
      { "eval", "--models", au4f, "--model", "2D", "--energy", energy, "--time", time, "--dynamics", dyn_bad_model, "-o", out } },
    { { "dynamics without delays", 1, "GLP_01_x0 has time dependence" },
      { "eval", "--models", au4f, "--model", "2D", "--energy", energy, "--dynamics", dyn_kernel, "-o", out } },
    { { "kernel on a non-increasing axis", 1, "must increase strictly" },
      { "eval", "--models", au4f, "--model", "2D", "--energy", energy, "--time", bad_time, "--dynamics", dyn_kernel, "-o", out } },
    { { "subcycles without a frequency", 1, "needs a frequency" },
      { "eval", "--models", au4f, "--model", "2D", "--energy", energy, "--time", time, "--dynamics", dyn_multi, "-o", out } },
    { { "output folder missing", 1, "no-such-dir" },
      { "eval", "--models", au4f, "--model", "base", "--energy", energy, "-o", nodir } },
    { { "params: bad parameter", 1, "bad.yaml:2:" },
      { "params", "--models", bad_yaml, "--model", "m" } },
    { { "missing --energy", 2, "--energy and -o are required" },
      { "eval", "--models", au4f, "--model", "base", "-o", out } },
    { { "missing --model", 2, "--models and --model are required" },
      { "params", "--models", au4f } },
    { { "malformed --dynamics", 2, "PAR=FILE:MODEL" },
      { "eval", "--models", au4f, "--model", "2D", "--energy", energy, "--dynamics", "GLP_01_x0", "-o", out } },
    { { "bad frequency", 2, "FREQ > 0" },
      { "eval", "--models", au4f, "--model", "2D", "--energy", energy, "--dynamics", "GLP_01_x0=a.yaml:M@-1", "-o", out } },
    { { "malformed --set", 2, "PAR=VALUE" },
      { "eval", "--models", au4f, "--model", "base", "--energy", energy, "--set", "3", "-o", out } },
    { { "unknown option", 2, "Unknown option" },
      { "eval", "--frobnicate" } },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *sout = NULL, *serr = NULL;
      const char **a = cases[i].args;
      int status = run_cli (&sout, &serr, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8],
                            a[9], a[10], a[11], a[12], a[13], a[14], a[15], NULL);
      expect (&cases[i].x, status, sout, serr);
      g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));   /* nothing partial */
    }
}

static void
test_help (void)
{
  g_autofree char *sout = NULL, *serr = NULL;

  g_assert_cmpint (run_cli (&sout, &serr, "eval", "--help", NULL), ==, 0);
  g_assert_nonnull (strstr (sout, "--dynamics"));
  g_assert_nonnull (strstr (sout, "PAR=FILE:MODEL[,MODEL...][@FREQ]"));
  g_clear_pointer (&sout, g_free);
  g_clear_pointer (&serr, g_free);
  g_assert_cmpint (run_cli (&sout, &serr, "params", "--help", NULL), ==, 0);
  g_assert_nonnull (strstr (sout, "--profile"));
  g_clear_pointer (&sout, g_free);
  g_clear_pointer (&serr, g_free);
  g_assert_cmpint (run_cli (&sout, &serr, "--help", NULL), ==, 0);
  g_assert_nonnull (strstr (sout, "eval"));
  g_assert_nonnull (strstr (sout, "params"));
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  xrlab_init ();
  tmpdir = g_dir_make_tmp ("xrlab-cli-models-XXXXXX", NULL);
  g_test_add_func ("/cli-models/eval", test_eval);
  g_test_add_func ("/cli-models/params", test_params);
  g_test_add_func ("/cli-models/bad-input", test_bad_input);
  g_test_add_func ("/cli-models/help", test_help);
  status = g_test_run ();
  {
    GDir *d = g_dir_open (tmpdir, 0, NULL);
    const char *name;
    while ((name = g_dir_read_name (d)) != NULL)
      {
        g_autofree char *p = g_build_filename (tmpdir, name, NULL);
        g_unlink (p);
      }
    g_dir_close (d);
    g_rmdir (tmpdir);
    g_free (tmpdir);
  }
  return status;
}
