/* bench-fitengine.c -- the fit service of the engine on the Au 4f measurement
 *
 * The README's model ($XRLAB_SHARED_DATA/trspecfit-au4f, data/models/
 * au4f.yaml "2D" with GLP_01_x0 following au4f-time.yaml "SineWave",
 * baseline "base" on the delays −0.4 … −0.05, window 81 … 91 eV ×
 * −0.3 … 16.5, pinned to the baseline):
 *
 *   fitengine.value_edit_to_spectrum_ms_median  edit one parameter's value,
 *       then fetch the model spectrum at one delay: from the edit request to
 *       the reply on the main loop (300 edits)
 *   fitengine.value_edit_to_map_ms_median       the same for the whole
 *       212 × 1131 model map
 *   fitengine.transfers_per_preview             transfers per fetch, from
 *       the engine's own accounting (1)
 *   fitengine.cancel_ms_max                     cancelling a running Au 4f
 *       2D fit: the longest time from the cancel to the reply (10 fits,
 *       cancelled at different moments)
 *   fitengine.cancel_slow_ms_max                the same for a slower 2D fit
 *       (400 × 1000 points, a position through an IRF-convolved exponential):
 *       a fit stops between evaluations, so this is about one Jacobian
 *   fitengine.au4f_fit_s                        baseline + 2D through the
 *       service (a baseline job and a 2D job sent at once, from the first
 *       request to the second reply); median of 15
 *   fitengine.au4f_direct_s                     the same two fits with
 *       xrlab_fitflow_* in process, measured alternately with the above
 *       (what fit.au4f_total_s measures), so both see the same load
 *   fitengine.load_avg                          the 1-minute load average
 *       when the group started (other builds share the machine)
 *
 * Checks: both fits reach trspecfit's reduced χ² of the 2D fit, and the
 * service's numbers equal the direct ones bit for bit.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench-models-config.h"
#include "bench-private.h"
#include "xrlab-engine-fit.h"
#include "xrlab-simulate.h"
#include "xrlab-util.h"

#define N_EDITS 300
#define N_REPEATS 15
#define AU4F_2D_REDCHI 197.27072574211948

static char *
model_path (const char *file)
{
  return g_build_filename (XRLAB_MODELS_DIR, file, NULL);
}

static double
load_average (void)
{
  g_autofree char *text = NULL;

  if (!g_file_get_contents ("/proc/loadavg", &text, NULL, NULL))
    return NAN;
  return g_ascii_strtod (text, NULL);
}

/* ---- the setup ---------------------------------------------------------------------- */

typedef struct {
  char *models, *time_models;
  const char *sine[1];
  XrlabFitDynamics dyn;
  XrlabFitSetupSpec spec;
} Au4fSpec;

static void
au4f_spec (Au4fSpec *a, guint dataset)
{
  a->models = model_path ("au4f.yaml");
  a->time_models = model_path ("au4f-time.yaml");
  a->sine[0] = "SineWave";
  a->dyn = (XrlabFitDynamics) { "GLP_01_x0", a->time_models, a->sine, 1, 0 };
  xrlab_fit_setup_spec_init (&a->spec);
  a->spec.dataset = dataset;
  a->spec.models = a->models;
  a->spec.model = "2D";
  a->spec.dynamics = &a->dyn;
  a->spec.n_dynamics = 1;
  a->spec.baseline_model = "base";
  a->spec.b0 = -0.4, a->spec.b1 = -0.05;
  a->spec.e0 = 81, a->spec.e1 = 91, a->spec.t0 = -0.3, a->spec.t1 = 16.5;
  a->spec.pin_to_baseline = TRUE;
}

static void
au4f_spec_clear (Au4fSpec *a)
{
  g_free (a->models);
  g_free (a->time_models);
}

static guint
new_setup (XrlabEngine *e, const XrlabFitSetupSpec *spec)
{
  g_autoptr(GError) error = NULL;
  XrlabEngineReply r = { 0 };
  guint s = xrlab_engine_fit_setup_new_async (e, spec, NULL, xrlab_engine_reply_cb, &r);

  if (!xrlab_engine_fit_setup_finish (e, xrlab_engine_reply_wait (&r), &error))
    xrlab_bench_check (FALSE, "fitengine: setup: %s", error->message);
  xrlab_engine_reply_clear (&r);
  return s;
}

/* ---- edit → preview ------------------------------------------------------------------ */

static double
edit_to_preview (XrlabEngine *e, guint s, XrlabFitView view, const char *consumer,
                 XrlabFitPreview **last)
{
  g_autofree double *lat = g_new (double, N_EDITS);
  XrlabFitPreviewSpec spec = { .view = view, .series = XRLAB_FIT_SERIES_MODEL, .delay = 5 };

  for (int i = 0; i < N_EDITS; i++)
    {
      XrlabFitParamEdit ed = { .name = "GLP_01_A", .fields = XRLAB_FIT_PARAM_VALUE,
                               .value = 300 + (i % 2 ? 1.0 : -1.0) * (1 + i % 7) };
      g_autoptr(GError) error = NULL;
      XrlabEngineReply re = { 0 }, rp = { 0 };
      double t0 = xrlab_now ();
      XrlabFitPreview *p;

      xrlab_engine_fit_edit_params_async (e, s, &ed, 1, NULL, xrlab_engine_reply_cb, &re);
      xrlab_engine_fit_preview_async (e, s, consumer, &spec, NULL, xrlab_engine_reply_cb, &rp);
      p = xrlab_engine_fit_preview_finish (e, xrlab_engine_reply_wait (&rp), &error);
      lat[i] = xrlab_now () - t0;
      if (p == NULL)
        xrlab_bench_check (FALSE, "fitengine: preview: %s", error->message);
      xrlab_bench_check (xrlab_engine_fit_edit_params_finish (e, xrlab_engine_reply_wait (&re), NULL),
                         "fitengine: the edit is answered");
      xrlab_engine_reply_clear (&re);
      xrlab_engine_reply_clear (&rp);
      g_clear_pointer (last, g_free);
      *last = p;
    }
  return xrlab_bench_median (lat, N_EDITS) * 1e3;
}

/* ---- the fits ------------------------------------------------------------------------- */

static XrlabFitflowResult *
direct_fit (const char *dir, double *seconds)
{
  static double *data, *energy, *time;
  static gsize rows, cols, ne, nt;
  g_autofree char *models = model_path ("au4f.yaml"), *tm = model_path ("au4f-time.yaml");
  g_autoptr(XrlabModel) base = xrlab_model_load (models, "base", NULL);
  g_autoptr(XrlabModel) m2d = xrlab_model_load (models, "2D", NULL);
  g_autoptr(XrlabFitflow) flow = NULL;
  g_autoptr(XrlabFitflowResult) b = NULL;
  const char *sine[] = { "SineWave" };
  XrlabFitflowResult *g = NULL;
  XrlabFitflowOptions o;
  double t0;

  if (data == NULL)
    {
      g_autofree char *dp = g_build_filename (dir, "data.csv", NULL);
      g_autofree char *ep = g_build_filename (dir, "energy.csv", NULL);
      g_autofree char *tp = g_build_filename (dir, "time.csv", NULL);
      data = xrlab_read_csv_matrix (dp, TRUE, &rows, &cols, NULL);
      energy = xrlab_read_column_file (ep, &ne, NULL);
      time = xrlab_read_column_file (tp, &nt, NULL);
    }
  xrlab_model_add_dynamics (m2d, "GLP_01_x0", tm, sine, 1, 0, NULL);
  t0 = xrlab_now ();
  {
    XrlabFitflowData fd = { .data = data, .n_rows = rows, .n_cols = cols, .energy = energy,
                            .n_energy = ne, .time = time, .n_time = nt,
                            .data_name = "data.csv", .energy_name = "energy.csv",
                            .time_name = "time.csv" };
    flow = xrlab_fitflow_new (&fd, NULL);
  }
  xrlab_fitflow_options_init (&o);
  o.pin_to_baseline = TRUE;
  xrlab_fitflow_set_options (flow, &o);
  if (!xrlab_fitflow_set_window (flow, 81, 91, -0.3, 16.5, NULL)
      || !xrlab_fitflow_fit_baseline (flow, base, -0.4, -0.05, NULL, &b, NULL)
      || !xrlab_fitflow_fit_2d (flow, m2d, NULL, &g, NULL))
    xrlab_bench_check (FALSE, "fitengine: the direct fits");
  *seconds = xrlab_now () - t0;
  return g;
}

/* Baseline + 2D on a fresh setup: the two jobs sent at once (the lane runs
 * them in turn), from the first request to the second reply; the main
 * result. */
static XrlabFitResults *
service_fit (XrlabEngine *e, const XrlabFitSetupSpec *spec, double *seconds)
{
  XrlabFitJobSpec base = { .kind = XRLAB_FIT_JOB_BASELINE }, twod = { .kind = XRLAB_FIT_JOB_2D };
  g_autoptr(GError) error = NULL;
  guint s = new_setup (e, spec);
  XrlabFitResults *res;
  XrlabEngineReply rb = { 0 }, r2 = { 0 }, r = { 0 };
  double t0 = xrlab_now ();

  xrlab_engine_fit_run_async (e, s, &base, NULL, NULL, NULL, NULL, xrlab_engine_reply_cb, &rb);
  xrlab_engine_fit_run_async (e, s, &twod, NULL, NULL, NULL, NULL, xrlab_engine_reply_cb, &r2);
  xrlab_engine_reply_wait (&r2);
  *seconds = xrlab_now () - t0;
  if (!xrlab_engine_fit_run_finish (e, xrlab_engine_reply_wait (&rb), &error)
      || !xrlab_engine_fit_run_finish (e, r2.result, &error))
    xrlab_bench_check (FALSE, "fitengine: the fit jobs: %s", error->message);
  xrlab_engine_reply_clear (&rb);
  xrlab_engine_reply_clear (&r2);
  xrlab_engine_fit_results_async (e, s, "bench", NULL, xrlab_engine_reply_cb, &r);
  res = xrlab_engine_fit_results_finish (e, xrlab_engine_reply_wait (&r), NULL);
  xrlab_engine_reply_clear (&r);
  xrlab_engine_fit_setup_close (e, s);
  return res;
}

/* ---- cancelling ------------------------------------------------------------------------- */

typedef struct {
  GCancellable *cancel;
  double at;
} Cancel;

static gboolean
cancel_now (gpointer data)
{
  Cancel *c = data;

  c->at = xrlab_now ();
  g_cancellable_cancel (c->cancel);
  return G_SOURCE_REMOVE;
}

/* A 2D fit of @setup cancelled @after_ms after its request: the time from
 * the cancel to the reply, or NaN when the fit ended first. */
static double
cancel_once (XrlabEngine *e, guint setup, double after_ms)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  XrlabFitJobSpec job = { .kind = XRLAB_FIT_JOB_2D };
  g_autoptr(GError) error = NULL;
  Cancel c = { cancellable, NAN };
  XrlabEngineReply r = { 0 };
  guint timer;
  double ms = NAN;

  xrlab_engine_fit_run_async (e, setup, &job, NULL, NULL, NULL, cancellable, xrlab_engine_reply_cb, &r);
  timer = g_timeout_add_full (G_PRIORITY_HIGH, (guint) after_ms, cancel_now, &c, NULL);
  if (!xrlab_engine_fit_run_finish (e, xrlab_engine_reply_wait (&r), &error)
      && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    ms = (xrlab_now () - c.at) * 1e3;
  if (isnan (c.at))
    g_source_remove (timer);
  xrlab_engine_reply_clear (&r);
  return ms;
}

/* A slower 2D fit: the expirf model (position through an IRF-convolved
 * exponential) on 400 delays × 1000 energies, far from its start. */
static guint
slow_setup (XrlabEngine *e)
{
  g_autofree char *models = model_path ("expirf.yaml"), *tm = model_path ("time.yaml");
  g_autoptr(XrlabModel) m = xrlab_model_load (models, "base", NULL);
  const char *irf[] = { "MonoExpIRF" };
  const gsize n_t = 400, n_e = 1000;
  g_autofree double *energy = g_new (double, n_e), *time = g_new (double, n_t), *y = NULL;
  XrlabDatasetSource src = { .kind = XRLAB_DATASET_ARRAYS };
  XrlabFitDynamics dyn = { "GLP_01_x0", tm, irf, 1, 0 };
  XrlabFitSetupSpec spec;
  XrlabFitParamEdit start = { .name = "GLP_01_x0_expFun_01_tau",
                              .fields = XRLAB_FIT_PARAM_VALUE, .value = 90 };
  XrlabEngineReply r = { 0 };
  double scale;
  guint s;

  xrlab_model_add_dynamics (m, "GLP_01_x0", tm, irf, 1, 0, NULL);
  xrlab_model_set_value (m, "GLP_01_x0_expFun_01_tau", 40, NULL);
  for (gsize i = 0; i < n_e; i++)
    energy[i] = 20.0 * i / (n_e - 1);
  for (gsize i = 0; i < n_t; i++)
    time[i] = -20.0 + 240.0 * i / (n_t - 1);
  y = xrlab_simulate (m, energy, n_e, time, n_t, NULL, 0, XRLAB_NOISE_GAUSSIAN, 0.05, 3, &scale,
                      NULL);
  src.data_values = y, src.n_rows = n_t, src.n_cols = n_e;
  src.energy_values = energy, src.n_energy = n_e;
  src.time_values = time, src.n_time = n_t;
  xrlab_fit_setup_spec_init (&spec);
  spec.dataset = xrlab_engine_dataset_open_async (e, &src, NULL, xrlab_engine_reply_cb, &r);
  g_free (xrlab_engine_dataset_open_finish (e, xrlab_engine_reply_wait (&r), NULL));
  xrlab_engine_reply_clear (&r);
  spec.models = models;
  spec.model = "base";
  spec.dynamics = &dyn, spec.n_dynamics = 1;
  s = new_setup (e, &spec);
  xrlab_engine_fit_edit_params_async (e, s, &start, 1, NULL, xrlab_engine_reply_cb, &r);
  xrlab_engine_fit_edit_params_finish (e, xrlab_engine_reply_wait (&r), NULL);
  xrlab_engine_reply_clear (&r);
  return s;
}

/* The longest time from a cancel to the reply over 10 Au 4f 2D fits and
 * 10 of the slower synthetic ones, each cancelled at another moment. */
static void
cancel_max (XrlabEngine *e, const XrlabFitSetupSpec *au4f, double *au4f_ms, double *slow_ms)
{
  guint n = 0;

  *au4f_ms = *slow_ms = 0.0;
  for (int k = 0; k < 10; k++)
    {
      /* the Au 4f fit lasts some tens of ms: cancel inside it */
      guint s = new_setup (e, au4f);
      double ms = cancel_once (e, s, 2 + 3 * k);

      xrlab_engine_fit_setup_close (e, s);
      if (!isnan (ms))
        *au4f_ms = fmax (*au4f_ms, ms), n++;
      s = slow_setup (e);
      ms = cancel_once (e, s, 20 + 40 * k);
      xrlab_engine_fit_setup_close (e, s);
      if (!isnan (ms))
        *slow_ms = fmax (*slow_ms, ms), n++;
    }
  printf ("# fitengine: %u of 20 fits were cancelled while they ran\n", n);
  xrlab_bench_check (n > 0, "fitengine: some fit was cancelled while it ran");
}

/* ---- the group -------------------------------------------------------------------------- */

static gboolean
same_bits (const XrlabFitflowResult *a, const XrlabFitflowResult *b)
{
  if (a->n_params != b->n_params || memcmp (&a->fit->chi2, &b->fit->chi2, sizeof (double)))
    return FALSE;
  for (gsize i = 0; i < a->n_params; i++)
    if (memcmp (&a->params[i].value, &b->params[i].value, sizeof (double))
        || memcmp (&a->params[i].std_error, &b->params[i].std_error, sizeof (double)))
      return FALSE;
  return TRUE;
}

int
xrlab_bench_fitengine (int argc, char **argv)
{
  const char *shared = g_getenv ("XRLAB_SHARED_DATA");
  g_autofree char *dir = g_build_filename (shared && *shared ? shared : XRLAB_SHARED_DATA_DEFAULT,
                                           "trspecfit-au4f", NULL);
  g_autoptr(XrlabEngine) e = NULL;
  g_autofree XrlabDatasetInfo *info = NULL;
  g_autofree XrlabFitPreview *spectrum = NULL, *map = NULL;
  g_autoptr(GError) error = NULL;
  double service_s[N_REPEATS], direct_s[N_REPEATS];
  XrlabEngineStats st;
  XrlabDatasetFiles files;
  XrlabDatasetSource src;
  Au4fSpec a = { 0 };
  XrlabEngineReply r = { 0 };
  guint s;

  xrlab_bench_report ("fitengine.load_avg", load_average ());
  if (!xrlab_dataset_files_find (dir, &files, &src, &error))
    {
      printf ("# fitengine: the Au 4f measurement is missing (%s)\n", error->message);
      xrlab_bench_check (FALSE, "fitengine: no data in %s", dir);
      return 1;
    }
  e = xrlab_engine_new ();
  xrlab_engine_dataset_open_async (e, &src, NULL, xrlab_engine_reply_cb, &r);
  info = xrlab_engine_dataset_open_finish (e, xrlab_engine_reply_wait (&r), &error);
  xrlab_engine_reply_clear (&r);
  xrlab_dataset_files_clear (&files);
  if (info == NULL)
    {
      xrlab_bench_check (FALSE, "fitengine: %s", error->message);
      return 1;
    }
  au4f_spec (&a, info->id);
  s = new_setup (e, &a.spec);

  xrlab_bench_report ("fitengine.value_edit_to_spectrum_ms_median",
                      edit_to_preview (e, s, XRLAB_FIT_VIEW_SPECTRUM, "spectrum", &spectrum));
  xrlab_bench_report ("fitengine.value_edit_to_map_ms_median",
                      edit_to_preview (e, s, XRLAB_FIT_VIEW_MAP, "map", &map));
  xrlab_bench_check (map->n_rows == 212 && map->n_cols == 1131, "fitengine: the map is 212 × 1131");
  xrlab_bench_check (memcmp (spectrum->model, map->model + spectrum->row0 * 1131,
                             1131 * sizeof (double)) == 0,
                     "fitengine: the spectrum is the map's row");
  xrlab_engine_get_stats (e, "spectrum", &st);
  xrlab_bench_report ("fitengine.transfers_per_preview", (double) st.n_transfers / N_EDITS);
  xrlab_bench_check (st.bytes == (guint64) N_EDITS * 1131 * sizeof (double),
                     "fitengine: a spectrum fetch transfers its 1131 doubles");

  for (int k = 0; k < N_REPEATS; k++)
    {
      g_autoptr(XrlabFitflowResult) g = direct_fit (dir, &direct_s[k]);
      g_autoptr(XrlabFitResults) res = service_fit (e, &a.spec, &service_s[k]);

      if (k == 0)
        {
          xrlab_bench_check (res->main && same_bits (res->main, g),
                             "fitengine: the service's 2D fit equals the direct one bit for bit");
          xrlab_bench_check (fabs (g->fit->redchi / AU4F_2D_REDCHI - 1.0) < 1e-6,
                             "fitengine: 2D reduced χ² %.10g, trspecfit reaches %.10g",
                             g->fit->redchi, AU4F_2D_REDCHI);
        }
    }
  {
    double au4f_ms, slow_ms;

    cancel_max (e, &a.spec, &au4f_ms, &slow_ms);
    xrlab_bench_report ("fitengine.cancel_ms_max", au4f_ms);
    xrlab_bench_report ("fitengine.cancel_slow_ms_max", slow_ms);
  }
  xrlab_bench_report ("fitengine.au4f_fit_s", xrlab_bench_median (service_s, N_REPEATS));
  xrlab_bench_report ("fitengine.au4f_direct_s", xrlab_bench_median (direct_s, N_REPEATS));
  au4f_spec_clear (&a);
  return xrlab_bench_failed () ? 1 : 0;
}
