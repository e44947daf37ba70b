/* test-cli-h5.c -- xrlab-cli eval, simulate, fit and batch with HDF5 and
 * NeXus files: datasets by path, NXdata found alone, the files written read
 * back (here and, when it is installed, by h5py) equal to the CSV ones, the
 * errors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>
#include <sys/wait.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <hdf5.h>

#include "xrlab-h5.h"
#include "xrlab-init.h"
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

/* Runs the NULL-terminated @argv; returns the exit status. */
static int
run_argv (const char *const *argv, char **out, char **err)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *sout = NULL, *serr = NULL;
  int status = 0;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                               &sout, &serr, &status, &error));
  g_assert_no_error (error);
  if (out)
    *out = g_steal_pointer (&sout);
  if (err)
    *err = g_steal_pointer (&serr);
  return WIFEXITED (status) ? WEXITSTATUS (status) : -1;
}

/* Runs xrlab-cli with the NULL-terminated arguments. */
static int
run_cli (char **out, char **err, ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  const char *a;
  va_list ap;

  g_assert_nonnull (g_getenv ("XRLAB_CLI"));
  g_ptr_array_add (argv, (char *) g_getenv ("XRLAB_CLI"));
  va_start (ap, err);
  while ((a = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (argv, (char *) a);
  va_end (ap);
  g_ptr_array_add (argv, NULL);
  return run_argv ((const char *const *) argv->pdata, out, err);
}

static const char *models_yaml =
  "truth:\n"
  "  Offset: {y0: [10, True, 0, 100]}\n"
  "  GLP: {A: [100, True, 10, 500], x0: [85.0, True, 83, 87], F: [0.9, True, 0.2, 3], "
  "m: [0.5, True, 0, 1]}\n"
  "start:\n"
  "  Offset: {y0: [5, True, 0, 100]}\n"
  "  GLP: {A: [80, True, 10, 500], x0: [85.1, True, 83, 87], F: [1.1, True, 0.2, 3], "
  "m: [0.4, True, 0, 1]}\n";

static const char *time_yaml =
  "irf:\n"
  "  gaussCONV: {SD: [1.0, True, 0.1, 5]}\n"
  "  expFun: {A: [0.9, True, -5, 5], tau: [8, True, 0.5, 50], t0: [0, False]}\n";

static char *models_path, *energy_path, *delay_path, *dyn;

static void
setup_files (void)
{
  g_autoptr(GString) e = g_string_new ("");
  g_autoptr(GString) t = g_string_new ("");
  g_autofree char *time_path = tmp_file ("time.yaml", time_yaml);

  for (int i = 0; i < 61; i++)
    g_string_append_printf (e, "%.3f\n", 88.0 - 0.1 * i);
  for (int i = 0; i < 24; i++)
    g_string_append_printf (t, "%g\n", -4.0 + i);
  models_path = tmp_file ("models.yaml", models_yaml);
  energy_path = tmp_file ("energy.csv", e->str);
  delay_path = tmp_file ("time.csv", t->str);
  dyn = g_strdup_printf ("GLP_01_x0=%s:irf", time_path);
}

/* A scalar double attribute, NaN when absent. */
static double
attr_double (const char *file, const char *object, const char *name)
{
  hid_t f = H5Fopen (file, H5F_ACC_RDONLY, H5P_DEFAULT), a;
  double v = NAN;

  g_assert_cmpint (f, >=, 0);
  if (H5Aexists_by_name (f, object, name, H5P_DEFAULT) > 0)
    {
      a = H5Aopen_by_name (f, object, name, H5P_DEFAULT, H5P_DEFAULT);
      g_assert_cmpint (H5Aread (a, H5T_NATIVE_DOUBLE, &v), >=, 0);
      H5Aclose (a);
    }
  H5Fclose (f);
  return v;
}

static void
assert_same (const double *a, const double *b, gsize n)
{
  for (gsize i = 0; i < n; i++)
    g_assert_true (memcmp (&a[i], &b[i], sizeof (double)) == 0
                   || (isnan (a[i]) && isnan (b[i])));
}

static void
assert_matrix_equals_csv (const char *h5, const char *path, const char *csv)
{
  XrlabH5Array a = { 0 };
  g_autoptr(GError) error = NULL;
  g_autofree double *m = NULL;
  gsize rows, cols;

  g_assert_true (xrlab_h5_read (h5, path, &a, &error));
  g_assert_no_error (error);
  m = xrlab_read_csv_matrix (csv, TRUE, &rows, &cols, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rows * cols, ==, a.dims[0] * a.dims[1]);
  assert_same (a.data, m, rows * cols);
  xrlab_h5_array_clear (&a);
}

/* Whether @what is in @text (a message says which was missing). */
static gboolean
contains (const char *text, const char *what)
{
  if (strstr (text, what) == NULL)
    {
      g_test_message ("“%s” not in “%s”", what, text);
      return FALSE;
    }
  return TRUE;
}

/* simulate and eval write HDF5 with units and parameters; their axes and
 * data read back as NeXus and by path give the numbers of the CSV files */
static void
test_simulate_eval (void)
{
  g_autofree char *sim_h5 = tmp_path ("sim.h5"), *sim_csv = tmp_path ("sim.csv");
  g_autofree char *ev_csv = tmp_path ("ev.csv"), *ev2_csv = tmp_path ("ev2.csv");
  g_autofree char *ev_h5 = tmp_path ("ev.h5"), *a = NULL, *b = NULL;
  g_autofree char *e_spec = NULL, *t_spec = NULL;
  g_autofree double *energy = NULL;
  g_autoptr(GError) error = NULL;
  XrlabNexusData nx = { 0 };
  gsize n_e = 0;

  g_assert_cmpint (run_cli (NULL, NULL, "simulate", "--models", models_path, "--model",
                            "truth", "--dynamics", dyn, "--energy", energy_path, "--time",
                            delay_path, "-o", sim_h5, NULL), ==, 0);
  g_assert_cmpint (run_cli (NULL, NULL, "simulate", "--models", models_path, "--model",
                            "truth", "--dynamics", dyn, "--energy", energy_path, "--time",
                            delay_path, "-o", sim_csv, NULL), ==, 0);
  g_assert_true (xrlab_nexus_read (sim_h5, &nx, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (nx.signal_path, ==, "/entry/data/data");
  g_assert_cmpint (nx.signal.rank, ==, 2);
  g_assert_cmpuint (nx.signal.dims[0], ==, 24);
  g_assert_cmpuint (nx.signal.dims[1], ==, 61);
  g_assert_cmpstr (nx.axis[0].units, ==, "ps");
  g_assert_cmpstr (nx.axis[1].units, ==, "eV");
  energy = xrlab_read_column_file (energy_path, &n_e, &error);
  g_assert_cmpuint (n_e, ==, 61);
  assert_same (nx.axis[1].data, energy, n_e);
  xrlab_nexus_data_clear (&nx);
  assert_matrix_equals_csv (sim_h5, "/entry/data/data", sim_csv);
  g_assert_cmpfloat (attr_double (sim_h5, "/entry/params", "GLP_01_A"), ==, 100.0);
  g_assert_cmpfloat (attr_double (sim_h5, "/entry/params", "GLP_01_x0_expFun_01_tau"), ==, 8.0);

  /* the axes of the NeXus file alone, and by path */
  g_assert_cmpint (run_cli (NULL, NULL, "eval", "--models", models_path, "--model", "truth",
                            "--dynamics", dyn, "--energy", sim_h5, "--time", sim_h5,
                            "-o", ev_csv, NULL), ==, 0);
  e_spec = g_strconcat (sim_h5, ":/entry/data/energy", NULL);
  t_spec = g_strconcat (sim_h5, ":/entry/data/time", NULL);
  g_assert_cmpint (run_cli (NULL, NULL, "eval", "--models", models_path, "--model", "truth",
                            "--dynamics", dyn, "--energy", e_spec, "--time", t_spec,
                            "-o", ev2_csv, NULL), ==, 0);
  g_assert_true (g_file_get_contents (sim_csv, &a, NULL, NULL));
  g_assert_true (g_file_get_contents (ev_csv, &b, NULL, NULL));
  g_assert_cmpstr (a, ==, b);
  g_clear_pointer (&b, g_free);
  g_assert_true (g_file_get_contents (ev2_csv, &b, NULL, NULL));
  g_assert_cmpstr (a, ==, b);

  /* eval to HDF5: one spectrum is 1D */
  g_assert_cmpint (run_cli (NULL, NULL, "eval", "--models", models_path, "--model", "start",
                            "--energy", energy_path, "-o", ev_h5, NULL), ==, 0);
  g_assert_true (xrlab_nexus_read (ev_h5, &nx, &error));
  g_assert_cmpint (nx.signal.rank, ==, 1);
  g_assert_cmpuint (nx.signal.dims[0], ==, 61);
  g_assert_null (nx.axis_path[1]);
  xrlab_nexus_data_clear (&nx);
}

/* The value column of a params.csv. */
static double *
params_values (const char *csv, gsize *n)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  GArray *v = g_array_new (FALSE, FALSE, sizeof (double));

  g_assert_true (g_file_get_contents (csv, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 1; lines[i] && *lines[i]; i++)
    {
      g_auto(GStrv) f = g_strsplit (lines[i], ",", -1);
      double x = NAN;

      g_assert_true (xrlab_parse_double (f[1], TRUE, &x));
      g_array_append_val (v, x);
    }
  *n = v->len;
  return (double *) g_array_free (v, FALSE);
}

/* fit on the NeXus file alone gives the fit of the CSV files; -o FILE.h5
 * holds the result set */
static void
test_fit (void)
{
  g_autofree char *sim_h5 = tmp_path ("sim.h5"), *sim_csv = tmp_path ("sim.csv");
  g_autofree char *res_h5 = tmp_path ("res.h5"), *res_dir = tmp_path ("res");
  g_autofree char *params = NULL, *fit_csv = NULL, *metrics = NULL;
  g_autofree double *pv = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) mlines = NULL;
  g_autofree char *mtext = NULL;
  XrlabH5Array a = { 0 };
  double chi2 = NAN;
  gsize n = 0;

  if (!g_file_test (sim_h5, G_FILE_TEST_EXISTS))
    test_simulate_eval ();
  g_assert_cmpint (run_cli (NULL, NULL, "fit", "--models", models_path, "--model", "start",
                            "--dynamics", dyn, "--data", sim_h5, "-o", res_h5, NULL), ==, 0);
  g_assert_cmpint (run_cli (NULL, NULL, "fit", "--models", models_path, "--model", "start",
                            "--dynamics", dyn, "--data", sim_csv, "--energy", energy_path,
                            "--time", delay_path, "-o", res_dir, NULL), ==, 0);
  params = g_build_filename (res_dir, "params.csv", NULL);
  fit_csv = g_build_filename (res_dir, "fit.csv", NULL);
  metrics = g_build_filename (res_dir, "metrics.csv", NULL);
  pv = params_values (params, &n);
  g_assert_cmpuint (n, >, 5);
  g_assert_true (xrlab_h5_read (res_h5, "/entry/params/value", &a, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (a.dims[0], ==, n);
  assert_same (a.data, pv, n);
  xrlab_h5_array_clear (&a);
  g_assert_cmpfloat (attr_double (res_h5, "/entry/params", "Offset_y0"), ==, pv[0]);
  assert_matrix_equals_csv (res_h5, "/entry/data/fit", fit_csv);
  assert_matrix_equals_csv (res_h5, "/entry/data/data", sim_csv);
  g_assert_true (g_file_get_contents (metrics, &mtext, NULL, NULL));
  mlines = g_strsplit (mtext, "\n", -1);
  {
    g_auto(GStrv) f = g_strsplit (mlines[1], ",", -1);
    g_assert_true (xrlab_parse_double (f[0], TRUE, &chi2));
  }
  g_assert_cmpfloat (attr_double (res_h5, "/entry/metrics", "chi2"), ==, chi2);
  /* and the file it wrote is a measurement again */
  g_assert_cmpint (run_cli (NULL, NULL, "fit", "--models", models_path, "--model", "start",
                            "--dynamics", dyn, "--data", res_h5, "-o", res_h5, NULL), ==, 0);
}

/* batch -o FILE.h5: the columns of the CSV output */
static void
test_batch (void)
{
  g_autofree char *in = tmp_file ("batch.csv", "formula,density,energy\nSiO2,2.2,\"8,10\"\n"
                                               "Au,19.3,1:30:5\n");
  g_autofree char *out_h5 = tmp_path ("batch.h5"), *out = NULL;
  g_auto(GStrv) lines = NULL;
  XrlabH5Array a = { 0 }, e = { 0 };
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (run_cli (&out, NULL, "batch", in, "--fields", "delta", NULL), ==, 0);
  g_assert_cmpint (run_cli (NULL, NULL, "batch", in, "--fields", "delta", "-o", out_h5, NULL),
                   ==, 0);
  g_assert_true (xrlab_h5_read (out_h5, "/entry/results/delta", &a, &error));
  g_assert_true (xrlab_h5_read (out_h5, "/entry/results/energy_keV", &e, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (e.units, ==, "keV");
  lines = g_strsplit (out, "\n", -1);
  g_assert_cmpuint (a.dims[0], ==, 7);
  for (gsize i = 0; i < 7; i++)
    {
      g_auto(GStrv) f = g_strsplit (lines[i + 1], ",", -1);
      double d = NAN, en = NAN;

      g_assert_true (xrlab_parse_double (f[2], TRUE, &en));
      g_assert_true (xrlab_parse_double (f[3], TRUE, &d));
      g_assert_cmpfloat (e.data[i], ==, en);
      g_assert_cmpfloat (a.data[i], ==, d);
    }
  xrlab_h5_array_clear (&a);
  xrlab_h5_array_clear (&e);

  /* units in NeXus's ASCII (UDUNITS-2) spelling, not the screen's symbols */
  {
    static const char *const want[][2] = {
      { "critical_angle_deg", "degree" }, { "re_sld_per_A2", "angstrom-2" },
      { "mu_rho_cm2_g", "cm2/g" }, { "wavelength_A", "angstrom" }, { "mu_per_cm", "1/cm" },
      { "density_g_cm3", "g/cm3" },
    };

    g_assert_cmpint (run_cli (NULL, NULL, "batch", in, "--fields",
                              "critical_angle_deg,re_sld_per_A2,mu_rho_cm2_g,wavelength_A,mu_per_cm",
                              "-o", out_h5, NULL), ==, 0);
    for (guint i = 0; i < G_N_ELEMENTS (want); i++)
      {
        g_autofree char *path = g_strdup_printf ("/entry/results/%s", want[i][0]);
        XrlabH5Array q = { 0 };

        g_assert_true (xrlab_h5_read (out_h5, path, &q, &error));
        g_assert_no_error (error);
        g_assert_cmpstr (q.units, ==, want[i][1]);
        xrlab_h5_array_clear (&q);
      }
  }
}

/* Errors name the file, the path and what was expected; nothing partial */
static void
test_errors (void)
{
  g_autofree char *sim_h5 = tmp_path ("sim.h5"), *bad = tmp_file ("bad.h5", "not hdf5\n");
  g_autofree char *folder = tmp_path ("folder.h5"), *out = tmp_path ("never.h5");
  g_autofree char *ev_h5 = tmp_path ("ev.h5");
  g_autofree char *nope = NULL, *axis2d = NULL, *bad_spec = NULL, *err = NULL;
  g_autoptr(GDir) dir = NULL;
  const char *name;

  if (!g_file_test (sim_h5, G_FILE_TEST_EXISTS))
    test_simulate_eval ();
  nope = g_strconcat (sim_h5, ":/entry/nope", NULL);
  axis2d = g_strconcat (sim_h5, ":/entry/data/data", NULL);
  bad_spec = g_strconcat (bad, ":/x", NULL);

  g_assert_cmpint (run_cli (NULL, &err, "fit", "--models", models_path, "--model", "start",
                            "--data", nope, "--energy", energy_path, "-o", out, NULL), ==, 1);
  g_assert_true (contains (err, "sim.h5") && contains (err, "/entry/nope"));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_cli (NULL, &err, "eval", "--models", models_path, "--model", "start",
                            "--energy", axis2d, "-o", out, NULL), ==, 1);
  g_assert_true (contains (err, "/entry/data/data") && contains (err, "one column"));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_cli (NULL, &err, "eval", "--models", models_path, "--model", "start",
                            "--energy", bad_spec, "-o", out, NULL), ==, 1);
  g_assert_true (contains (err, "bad.h5") && contains (err, "not an HDF5 file"));
  g_clear_pointer (&err, g_free);
  /* a spectrum has no delay axis */
  g_assert_cmpint (run_cli (NULL, &err, "eval", "--models", models_path, "--model", "start",
                            "--energy", energy_path, "--time", ev_h5, "-o", out,
                            NULL), ==, 1);
  g_assert_true (contains (err, "ev.h5") && contains (err, "no delay axis"));
  g_clear_pointer (&err, g_free);
  /* NeXus alone brings its axes */
  g_assert_cmpint (run_cli (NULL, &err, "fit", "--models", models_path, "--model", "start",
                            "--data", sim_h5, "--energy", energy_path, "-o", out, NULL), ==, 2);
  g_clear_pointer (&err, g_free);
  /* a folder named like an HDF5 file */
  g_assert_cmpint (g_mkdir (folder, 0755), ==, 0);
  g_assert_cmpint (run_cli (NULL, &err, "fit", "--models", models_path, "--model", "start",
                            "--dynamics", dyn, "--data", sim_h5, "-o", folder, NULL), ==, 1);
  g_assert_true (contains (err, "folder.h5"));
  g_clear_pointer (&err, g_free);
  /* a failed simulate leaves neither the file nor a temporary one */
  g_assert_cmpint (run_cli (NULL, &err, "simulate", "--models", models_path, "--model",
                            "nosuch", "--energy", energy_path, "-o", out, NULL), ==, 1);
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
  dir = g_dir_open (tmpdir, 0, NULL);
  while ((name = g_dir_read_name (dir)) != NULL)
    g_assert_null (strstr (name, "never"));
}

/* h5py reads what fit wrote: NXdata, axes, units, parameters */
static void
test_h5py (void)
{
  g_autofree char *res_h5 = tmp_path ("res.h5"), *out = NULL, *err = NULL;
  const char *script =
    "import sys, h5py\n"
    "f = h5py.File(sys.argv[1], 'r')\n"
    "d = f[f['entry'].attrs['default'].join(['entry/', ''])]\n"
    "assert d.attrs['NX_class'] == 'NXdata'\n"
    "assert list(d.attrs['axes']) == ['time', 'energy']\n"
    "s = d[d.attrs['signal']]\n"
    "assert s.shape == (24, 61), s.shape\n"
    "assert d['energy'].attrs['units'] == 'eV'\n"
    "assert d['fit'].shape == s.shape\n"
    "p = f['entry/params']\n"
    "assert abs(p.attrs['GLP_01_x0'] - 85.0) < 0.05, p.attrs['GLP_01_x0']\n"
    "print('ok')\n";
  const char *probe[] = { "/usr/bin/python3", "-c", "import h5py", NULL };
  const char *argv[] = { "/usr/bin/python3", "-c", script, res_h5, NULL };

  if (!g_file_test (probe[0], G_FILE_TEST_IS_EXECUTABLE)
      || run_argv (probe, NULL, NULL) != 0)
    {
      g_test_skip ("h5py is not installed (python3-h5py)");
      return;
    }
  if (!g_file_test (res_h5, G_FILE_TEST_EXISTS))
    test_fit ();
  g_assert_cmpint (run_argv (argv, &out, &err), ==, 0);
  g_assert_cmpstr (out, ==, "ok\n");
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
  int status;

  xrlab_init ();
  g_test_init (&argc, &argv, NULL);
  tmpdir = g_dir_make_tmp ("xrlab-cli-h5-XXXXXX", NULL);
  setup_files ();
  g_test_add_func ("/cli-h5/simulate-eval", test_simulate_eval);
  g_test_add_func ("/cli-h5/fit", test_fit);
  g_test_add_func ("/cli-h5/batch", test_batch);
  g_test_add_func ("/cli-h5/errors", test_errors);
  g_test_add_func ("/cli-h5/h5py", test_h5py);
  status = g_test_run ();
  remove_tree (tmpdir);
  g_free (tmpdir);
  return status;
}
