/* bench-io-process.c -- xrlab-bench io: xrlab-cli as a user runs it, each
 * figure beside its in-process counterpart measured in the same run
 * (alternately, so that both see the same load)
 *
 *   io.fit_au4f_process_s          the README's `xrlab-cli fit` (baseline +
 *                                  2D on $XRLAB_SHARED_DATA/trspecfit-au4f,
 *                                  every file written) as a whole process
 *   io.fit_au4f_inprocess_s        the same workflow as one job of the fit
 *                                  service in this process (no files)
 *   io.fit_au4f_process_over_fit   the ratio of the two
 *   io.batch_1e5_distinct_energies_s   `xrlab-cli batch` of 100,000 rows,
 *                                  each its own energy, every quantity, CSV
 *   io.batch_1e5_inprocess_s       the same rows as one engine request
 *   io.batch_1e6_s                 `xrlab-cli batch` of 10^6 rows at one
 *                                  energy, δ and β, CSV
 *   io.batch_1e6_inprocess_s       the same as one engine request
 *   io.calc_one_point_process_ms   `xrlab-cli calc SiO2 -d 2.2 -e 8.048`
 *   io.calc_one_point_inprocess_us xrlab_optics_compute_point() of it
 *   io.cli_start_ms                `xrlab-cli --version`: the same program
 *                                  started and ended with no work (its
 *                                  libraries loaded), the floor of the above
 *   io.spawn_true_ms               /bin/true, the floor of any process here
 *   io.fit_2000x2000_process_s     `xrlab-cli fit` of a 2000 delays × 2000
 *                                  energies measurement simulated once
 *                                  (CSV in, CSV out)
 *   io.fit_2000x2000_h5_process_s  the same with HDF5 in and out
 *   io.fit_2000x2000_inprocess_s   that fit as a job of the fit service
 *
 * The processes are started with posix_spawn, as a shell starts them (no
 * copy of this process's page tables, which fork would make), stdout into a
 * pipe (calc) or /dev/null, stderr into a file.
 *
 * Checks: the processes exit 0; the Au 4f fits reach trspecfit's reduced
 * χ²; sampled batch and calc lines hold xrlab_optics_compute_point()'s
 * numbers bit for bit (the Henke tables, the batch's default); the 2000 × 2000 fits find the simulated position.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib-unix.h>
#include <glib/gstdio.h>

#include "bench-models-config.h"
#include "bench-private.h"
#include "xrlab-engine-fit.h"
#include "xrlab-formula.h"
#include "xrlab-optics.h"
#include "xrlab-util.h"

extern char **environ;

#define AU4F_2D_REDCHI 197.27072574211948

static const char *
cli_path (void)
{
  const char *env = g_getenv ("XRLAB_CLI");

  return env != NULL ? env : XRLAB_CLI_PATH;
}

static char *
model_path (const char *file)
{
  return g_build_filename (XRLAB_MODELS_DIR, file, NULL);
}

/* A file of its own for a child's stderr: the path (static), the file made
 * once (it stays empty unless a run fails, so truncating it costs nothing). */
static const char *
capture_path (void)
{
  static char *path;

  if (path == NULL)
    {
      int fd = g_file_open_tmp ("xrlab-bench-err-XXXXXX", &path, NULL);
      if (fd >= 0)
        close (fd);
    }
  return path;
}

/* Runs @program with @argv (NULL-terminated, its name first) as a user's
 * shell would: posix_spawn (vfork semantics, so that this large process is
 * not copied),
 * stdout into a pipe read to its end (as `xrlab-cli ... | cat`; a file
 * would add the file system's cost of truncating and writing it) or
 * /dev/null, stderr into a file; returns the wall time [s] (spawn to exit),
 * NaN when it failed. @out: its stdout, when not NULL. */
static double
run_argv (const char *program, char **out, GPtrArray *argv)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *err = NULL;
  posix_spawn_file_actions_t fa;
  const char *err_path = capture_path ();
  int status = 0, rc, fds[2] = { -1, -1 };
  double t0, t;
  pid_t pid;

  if (err_path == NULL || (out != NULL && !g_unix_open_pipe (fds, FD_CLOEXEC, NULL)))
    {
      xrlab_bench_check (FALSE, "io: no temporary file or pipe for the output of xrlab-cli");
      return NAN;
    }
  posix_spawn_file_actions_init (&fa);
  posix_spawn_file_actions_addopen (&fa, 0, "/dev/null", O_RDONLY, 0);
  if (out != NULL)
    posix_spawn_file_actions_adddup2 (&fa, fds[1], 1);
  else
    posix_spawn_file_actions_addopen (&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen (&fa, 2, err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  t0 = xrlab_now ();
  rc = posix_spawn (&pid, program, &fa, NULL, (char **) argv->pdata, environ);
  if (out != NULL)
    {
      char buf[4096];
      gssize n;

      close (fds[1]);
      while (rc == 0 && ((n = read (fds[0], buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR)))
        if (n > 0)
          g_string_append_len (text, buf, n);
      close (fds[0]);
    }
  while (rc == 0 && waitpid (pid, &status, 0) < 0 && errno == EINTR)
    ;
  t = xrlab_now () - t0;
  posix_spawn_file_actions_destroy (&fa);
  if (rc != 0)
    {
      xrlab_bench_check (FALSE, "io: %s: %s", program, g_strerror (rc));
      return NAN;
    }
  if (out)
    *out = g_string_free (g_steal_pointer (&text), FALSE);
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
    {
      g_file_get_contents (err_path, &err, NULL, NULL);
      xrlab_bench_check (FALSE, "io: %s %s failed: %s", program,
                         argv->len > 2 ? (char *) g_ptr_array_index (argv, 1) : "", err ? err : "");
      return NAN;
    }
  return t;
}

/* xrlab-cli with the NULL-terminated arguments after @out, by run_argv(). */
static double
run_cli (char **out, ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  const char *a;
  va_list ap;

  g_ptr_array_add (argv, (char *) cli_path ());
  va_start (ap, out);
  while ((a = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (argv, (char *) a);
  va_end (ap);
  g_ptr_array_add (argv, NULL);
  return run_argv (cli_path (), out, argv);
}

/* @program without arguments, as run_cli() runs xrlab-cli. */
static double
run_program (const char *program)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();

  g_ptr_array_add (argv, (char *) program);
  g_ptr_array_add (argv, NULL);
  return run_argv (program, NULL, argv);
}

/* A number of a CSV file: row @row (0: the header), column @col. */
static double
csv_number (const char *path, guint row, guint col)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL, f = NULL;
  double v = NAN;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return NAN;
  lines = g_strsplit (text, "\n", row + 2);
  if (g_strv_length (lines) <= row)
    return NAN;
  f = g_strsplit (lines[row], ",", -1);
  if (g_strv_length (f) <= col || !xrlab_parse_double (f[col], TRUE, &v))
    return NAN;
  return v;
}

/* ---- the fit service in this process ---------------------------------------------- */

typedef struct {
  const char *data, *energy, *time;
  const char *model, *baseline_model;
  double b0, b1, e0, e1, t0, t1;
  gboolean pin;
} FitCase;

/* The workflow of `xrlab-cli fit` on @fc as one job; the job's time [s],
 * the main fit's reduced χ² and, when @x0 is not NULL, GLP_01_x0. */
static double
service_fit (const FitCase *fc, double *redchi, double *x0)
{
  g_autoptr(GMainContext) ctx = g_main_context_new ();
  g_autofree char *models = model_path ("au4f.yaml"), *tm = model_path ("au4f-time.yaml");
  const char *sine[] = { "SineWave" };
  XrlabFitDynamics dyn = { "GLP_01_x0", tm, sine, 1, 0 };
  XrlabDatasetSource src = { .kind = XRLAB_DATASET_FILES, .data = fc->data,
                             .energy = fc->energy, .time = fc->time };
  XrlabFitJobSpec job = { .kind = XRLAB_FIT_JOB_WORKFLOW,
                          .stages = XRLAB_FIT_STAGES_MAIN
                                    | (fc->baseline_model ? XRLAB_FIT_STAGES_BASELINE : 0) };
  g_autoptr(XrlabFitResults) res = NULL;
  g_autoptr(GError) error = NULL;
  XrlabEngineReply rd = { 0 }, rs = { 0 }, rj = { 0 }, rr = { 0 };
  XrlabFitSetupSpec spec;
  XrlabEngine *e;
  double t0, t = NAN;
  guint setup;

  g_main_context_push_thread_default (ctx);
  e = xrlab_engine_new ();
  xrlab_fit_setup_spec_init (&spec);
  spec.dataset = xrlab_engine_dataset_open_async (e, &src, NULL, xrlab_engine_reply_cb, &rd);
  spec.models = models;
  spec.model = fc->model;
  spec.dynamics = &dyn;
  spec.n_dynamics = 1;
  spec.baseline_model = fc->baseline_model;
  spec.b0 = fc->b0, spec.b1 = fc->b1;
  spec.e0 = fc->e0, spec.e1 = fc->e1, spec.t0 = fc->t0, spec.t1 = fc->t1;
  spec.pin_to_baseline = fc->pin;
  setup = xrlab_engine_fit_setup_new_async (e, &spec, NULL, xrlab_engine_reply_cb, &rs);
  g_free (xrlab_engine_dataset_open_finish (e, xrlab_engine_reply_wait (&rd), &error));
  if (error == NULL)
    xrlab_engine_fit_setup_finish (e, xrlab_engine_reply_wait (&rs), &error);
  if (error == NULL)
    {
      t0 = xrlab_now ();
      xrlab_engine_fit_run_async (e, setup, &job, NULL, NULL, NULL, NULL,
                                  xrlab_engine_reply_cb, &rj);
      if (xrlab_engine_fit_run_finish (e, xrlab_engine_reply_wait (&rj), &error))
        t = xrlab_now () - t0;
    }
  if (error == NULL)
    {
      xrlab_engine_fit_results_async (e, setup, "bench", NULL, xrlab_engine_reply_cb, &rr);
      res = xrlab_engine_fit_results_finish (e, xrlab_engine_reply_wait (&rr), &error);
    }
  xrlab_bench_check (error == NULL, "io: the in-process fit: %s", error ? error->message : "");
  *redchi = res ? res->main->fit->redchi : NAN;
  for (gsize i = 0; x0 && res && i < res->main->n_params; i++)
    if (g_str_equal (res->main->params[i].name, "GLP_01_x0"))
      *x0 = res->main->params[i].value;
  xrlab_engine_reply_clear (&rd);
  xrlab_engine_reply_clear (&rs);
  xrlab_engine_reply_clear (&rj);
  xrlab_engine_reply_clear (&rr);
  xrlab_engine_shutdown (e);
  g_object_unref (e);
  while (g_main_context_iteration (ctx, FALSE))
    ;
  g_main_context_pop_thread_default (ctx);
  return t;
}

/* ---- the Au 4f fit ------------------------------------------------------------------ */

static void
bench_fit_au4f (const char *tmp)
{
  const char *shared = g_getenv ("XRLAB_SHARED_DATA");
  g_autofree char *dir = NULL, *data = NULL, *energy = NULL, *time = NULL;
  g_autofree char *models = model_path ("au4f.yaml"), *tm = model_path ("au4f-time.yaml");
  g_autofree char *dyn = g_strdup_printf ("GLP_01_x0=%s:SineWave", tm);
  g_autofree char *outdir = g_build_filename (tmp, "au4f-fit", NULL);
  g_autofree char *metrics = g_build_filename (outdir, "metrics.csv", NULL);
  double proc[5], inproc[5];

  dir = g_build_filename (shared ? shared : XRLAB_SHARED_DATA_DEFAULT, "trspecfit-au4f", NULL);
  data = g_build_filename (dir, "data.csv", NULL);
  energy = g_build_filename (dir, "energy.csv", NULL);
  time = g_build_filename (dir, "time.csv", NULL);
  if (!g_file_test (data, G_FILE_TEST_EXISTS))
    {
      printf ("# io: %s missing: the Au 4f figures are left out\n", data);
      return;
    }
  for (int r = 0; r < 5; r++)
    {
      FitCase fc = { data, energy, time, "2D", "base", -0.4, -0.05, 81, 91, -0.3, 16.5, TRUE };
      double redchi = NAN;

      proc[r] = run_cli (NULL, "fit", "--models", models, "--model", "2D", "--dynamics", dyn,
                         "--data", data, "--energy", energy, "--time", time,
                         "--baseline-model", "base", "--baseline=-0.4:-0.05", "--pin-baseline",
                         "--elim", "81:91", "--tlim=-0.3:16.5", "-o", outdir, NULL);
      xrlab_bench_check (fabs (csv_number (metrics, 1, 1) / AU4F_2D_REDCHI - 1) < 1e-6,
                         "io: xrlab-cli fit: reduced χ² %g, not trspecfit's %g",
                         csv_number (metrics, 1, 1), AU4F_2D_REDCHI);
      inproc[r] = service_fit (&fc, &redchi, NULL);
      xrlab_bench_check (fabs (redchi / AU4F_2D_REDCHI - 1) < 1e-6,
                         "io: the in-process fit: reduced χ² %g", redchi);
    }
  {
    double p = xrlab_bench_median (proc, 5), f = xrlab_bench_median (inproc, 5);

    xrlab_bench_report ("io.fit_au4f_process_s", p);
    xrlab_bench_report ("io.fit_au4f_inprocess_s", f);
    xrlab_bench_report ("io.fit_au4f_process_over_fit", p / f);
  }
}

/* ---- batches --------------------------------------------------------------------- */

static const struct { const char *formula; double density; } batch_mats[] = {
  { "SiO2", 2.2 }, { "Au", 19.3 }, { "Si", 2.33 }, { "Al2O3", 3.95 }, { "Fe2O3", 5.24 },
  { "C22H10N2O5", 1.42 }, { "GaAs", 5.32 },
};

/* Row @i of a batch: its material and energy [keV]. */
static void
batch_row (gsize i, gboolean distinct, gsize n, guint *mat, double *energy)
{
  *mat = (guint) (i % G_N_ELEMENTS (batch_mats));
  *energy = distinct ? 1.0 + 29.0 * (double) i / (double) n : 8.048;
}

static char *
batch_input (const char *tmp, const char *name, gsize n, gboolean distinct)
{
  char *path = g_build_filename (tmp, name, NULL);
  GString *s = g_string_sized_new (n * 24);

  g_string_append (s, "formula,density,energy\n");
  for (gsize i = 0; i < n; i++)
    {
      char b[XRLAB_DTOA_BUFSIZE];
      guint m;
      double e;

      batch_row (i, distinct, n, &m, &e);
      g_string_append_printf (s, "%s,%s,", batch_mats[m].formula,
                              xrlab_format_double (batch_mats[m].density, b));
      g_string_append_printf (s, "%s\n", xrlab_format_double (e, b));
    }
  g_file_set_contents (path, s->str, s->len, NULL);
  g_string_free (s, TRUE);
  return path;
}

/* 200 lines of @out (one per row, in order) against compute_point. */
static void
batch_verify (const char *out, gsize n, gboolean distinct, XrlabQuantityMask mask)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL, header = NULL;
  GRand *rand = g_rand_new_with_seed (11);
  gsize bad = 0;

  if (!g_file_get_contents (out, &text, NULL, NULL))
    {
      xrlab_bench_check (FALSE, "io: %s was not written", out);
      g_rand_free (rand);
      return;
    }
  lines = g_strsplit (text, "\n", -1);
  xrlab_bench_check (g_strv_length (lines) == n + 2, "io: %s has %u lines, not %zu", out,
                     g_strv_length (lines), n + 2);
  header = g_strsplit (lines[0], ",", -1);
  for (int k = 0; k < 200 && g_strv_length (lines) == n + 2; k++)
    {
      gsize i = (gsize) g_rand_int_range (rand, 0, (gint32) n);
      g_auto(GStrv) f = g_strsplit (lines[i + 1], ",", -1);
      g_autoptr(XrlabFormula) formula = NULL;
      XrlabOpticsMaterial mat;
      double v[XRLAB_QUANTITY_N], e;
      guint m;

      batch_row (i, distinct, n, &m, &e);
      formula = xrlab_formula_parse (batch_mats[m].formula, NULL);
      mat = (XrlabOpticsMaterial) { formula, batch_mats[m].density, 0 };
      if (!xrlab_optics_compute_point (&mat, e, mask, v, NULL) || g_strv_length (f) < 3
          || strcmp (f[0], batch_mats[m].formula) != 0)
        {
          bad++;
          continue;
        }
      for (guint c = 3; header[c] && f[c]; c++)
        {
          XrlabQuantity q;
          double x;

          if (g_str_equal (header[c], "table"))
            {
              bad += !g_str_equal (f[c], "henke");
              continue;
            }
          if (!xrlab_quantity_from_column (header[c], &q) || !xrlab_parse_double (f[c], TRUE, &x)
              || !(memcmp (&x, &v[q], sizeof x) == 0 || (isnan (x) && isnan (v[q]))))
            bad++;
        }
    }
  g_rand_free (rand);
  xrlab_bench_check (bad == 0, "io: %zu numbers of %s differ from compute_point", bad, out);
}

/* The rows as one engine request (groups of equal energies, as the CLI
 * makes them); seconds. */
static double
batch_inprocess (gsize n, gboolean distinct, XrlabQuantityMask mask)
{
  g_autoptr(XrlabEngine) engine = xrlab_engine_new ();
  g_autofree XrlabMaterialSpec *specs = g_new0 (XrlabMaterialSpec, n);
  g_autofree XrlabEngineBatchGroup *groups = g_new0 (XrlabEngineBatchGroup, distinct ? n : 1);
  g_autofree XrlabEnergyGrid **grids = g_new0 (XrlabEnergyGrid *, distinct ? n : 1);
  g_autoptr(GError) error = NULL;
  gsize n_groups = distinct ? n : 1;
  XrlabEngineBatch **b;
  double t0, t;

  t0 = xrlab_now ();
  for (gsize i = 0; i < n; i++)
    {
      guint m;
      double e;

      batch_row (i, distinct, n, &m, &e);
      specs[i] = (XrlabMaterialSpec) { 0, NULL, batch_mats[m].formula, batch_mats[m].density, 0 };
      if (distinct || i == 0)
        grids[distinct ? i : 0] = xrlab_energy_grid_new (&e, 1, XRLAB_ENERGY_UNIT_KEV, &error);
    }
  for (gsize g = 0; g < n_groups; g++)
    groups[g] = (XrlabEngineBatchGroup) { specs + (distinct ? g : 0), distinct ? 1 : n,
                                          grids[g] };
  b = xrlab_engine_batch_groups_sync (engine, groups, n_groups, mask, NULL, NULL, NULL, &error);
  t = xrlab_now () - t0;
  xrlab_bench_check (b != NULL, "io: the in-process batch: %s", error ? error->message : "");
  xrlab_engine_batch_groups_free (b, n_groups);
  for (gsize g = 0; g < n_groups; g++)
    xrlab_energy_grid_unref (grids[g]);
  xrlab_engine_shutdown (engine);
  return t;
}

static void
bench_batch (const char *tmp, const char *key, gsize n, gboolean distinct, const char *fields,
             XrlabQuantityMask mask)
{
  g_autofree char *in = batch_input (tmp, "batch-in.csv", n, distinct);
  g_autofree char *out = g_build_filename (tmp, "batch-out.csv", NULL);
  g_autofree char *key_in = g_strdup_printf ("%s_inprocess_s",
                                             distinct ? "io.batch_1e5" : "io.batch_1e6");
  double proc[3], inproc[3];

  for (int r = 0; r < 3; r++)
    {
      proc[r] = fields ? run_cli (NULL, "batch", in, "--fields", fields, "-o", out, NULL)
                       : run_cli (NULL, "batch", in, "-o", out, NULL);
      inproc[r] = batch_inprocess (n, distinct, mask);
    }
  batch_verify (out, n, distinct, mask);
  g_unlink (in);
  g_unlink (out);
  xrlab_bench_report (key, xrlab_bench_median (proc, 3));
  xrlab_bench_report (key_in, xrlab_bench_median (inproc, 3));
}

/* ---- one point ----------------------------------------------------------------------- */

static void
bench_calc (void)
{
  g_autoptr(XrlabFormula) f = xrlab_formula_parse ("SiO2", NULL);
  XrlabOpticsMaterial mat = { f, 2.2, 0 };
  double proc[21], inproc[21], start[21], none[21], v[XRLAB_QUANTITY_N];
  g_autofree char *out = NULL;
  char b[XRLAB_DTOA_BUFSIZE];

  for (int r = 0; r < 21; r++)
    {
      double t0;

      g_clear_pointer (&out, g_free);
      proc[r] = run_cli (&out, "calc", "SiO2", "-d", "2.2", "-e", "8.048", "--format", "csv",
                         NULL) * 1e3;
      t0 = xrlab_now ();
      xrlab_optics_compute_point (&mat, 8.048, XRLAB_QUANTITY_MASK_NO_THICKNESS, v, NULL);
      inproc[r] = (xrlab_now () - t0) * 1e6;
      start[r] = run_cli (NULL, "--version", NULL) * 1e3;
      none[r] = run_program ("/bin/true") * 1e3;
    }
  xrlab_bench_check (out && strstr (out, xrlab_format_double (v[XRLAB_QUANTITY_DELTA], b)),
                     "io: xrlab-cli calc does not print compute_point's δ %s", b);
  xrlab_bench_report ("io.calc_one_point_process_ms", xrlab_bench_median (proc, 21));
  xrlab_bench_report ("io.calc_one_point_inprocess_us", xrlab_bench_median (inproc, 21));
  xrlab_bench_report ("io.cli_start_ms", xrlab_bench_median (start, 21));
  xrlab_bench_report ("io.spawn_true_ms", xrlab_bench_median (none, 21));
}

/* ---- 2000 × 2000 --------------------------------------------------------------------- */

static char *
axis_file (const char *tmp, const char *name, double a, double b, int n)
{
  char *path = g_build_filename (tmp, name, NULL);
  GString *s = g_string_new (NULL);

  for (int i = 0; i < n; i++)
    {
      char buf[XRLAB_DTOA_BUFSIZE];
      g_string_append_printf (s, "%s\n", xrlab_format_double (a + (b - a) * i / (n - 1), buf));
    }
  g_file_set_contents (path, s->str, s->len, NULL);
  g_string_free (s, TRUE);
  return path;
}

static void
bench_fit_2000 (const char *tmp)
{
  g_autofree char *models = model_path ("au4f.yaml"), *tm = model_path ("au4f-time.yaml");
  g_autofree char *dyn = g_strdup_printf ("GLP_01_x0=%s:SineWave", tm);
  g_autofree char *energy = axis_file (tmp, "e2000.csv", 81, 91, 2000);
  g_autofree char *time = axis_file (tmp, "t2000.csv", -0.3, 16.5, 2000);
  g_autofree char *data = g_build_filename (tmp, "d2000.csv", NULL);
  g_autofree char *data_h5 = g_build_filename (tmp, "d2000.h5", NULL);
  g_autofree char *outdir = g_build_filename (tmp, "fit2000", NULL);
  g_autofree char *out_h5 = g_build_filename (tmp, "fit2000.h5", NULL);
  g_autofree char *params = g_build_filename (outdir, "params.csv", NULL);
  double proc[3], proc_h5[3], inproc[3];

  run_cli (NULL, "simulate", "--models", models, "--model", "2D", "--dynamics", dyn, "--energy",
           energy, "--time", time, "--level", "0.01", "-o", data, NULL);
  run_cli (NULL, "simulate", "--models", models, "--model", "2D", "--dynamics", dyn, "--energy",
           energy, "--time", time, "--level", "0.01", "-o", data_h5, NULL);
  for (int r = 0; r < 3; r++)
    {
      FitCase fc = { data, energy, time, "2D", NULL, NAN, NAN, NAN, NAN, NAN, NAN, FALSE };
      double redchi = NAN, x0 = NAN;

      proc[r] = run_cli (NULL, "fit", "--models", models, "--model", "2D", "--dynamics", dyn,
                         "--data", data, "--energy", energy, "--time", time, "-o", outdir, NULL);
      proc_h5[r] = run_cli (NULL, "fit", "--models", models, "--model", "2D", "--dynamics", dyn,
                            "--data", data_h5, "-o", out_h5, NULL);
      inproc[r] = service_fit (&fc, &redchi, &x0);
      xrlab_bench_check (fabs (x0 - 84.1) < 0.01 && isfinite (redchi),
                         "io: the 2000 × 2000 fit: GLP_01_x0 = %g, not 84.1", x0);
    }
  xrlab_bench_check (g_file_test (params, G_FILE_TEST_EXISTS) && g_file_test (out_h5, G_FILE_TEST_EXISTS),
                     "io: the 2000 × 2000 fits wrote no results");
  xrlab_bench_report ("io.fit_2000x2000_process_s", xrlab_bench_median (proc, 3));
  xrlab_bench_report ("io.fit_2000x2000_h5_process_s", xrlab_bench_median (proc_h5, 3));
  xrlab_bench_report ("io.fit_2000x2000_inprocess_s", xrlab_bench_median (inproc, 3));
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

void
xrlab_bench_io_process (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("xrlab-bench-io-process-XXXXXX", NULL);
  XrlabQuantityMask db = XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_DELTA)
                         | XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_BETA);

  if (!g_file_test (cli_path (), G_FILE_TEST_IS_EXECUTABLE))
    {
      printf ("# io: %s is not there: the process figures are left out\n", cli_path ());
      return;
    }
  bench_fit_au4f (tmp);
  bench_batch (tmp, "io.batch_1e5_distinct_energies_s", 100000, TRUE, NULL,
               XRLAB_QUANTITY_MASK_NO_THICKNESS);
  bench_batch (tmp, "io.batch_1e6_s", 1000000, FALSE, "delta,beta", db);
  bench_calc ();
  bench_fit_2000 (tmp);
  remove_tree (tmp);
  g_unlink (capture_path ());
}
