/* cli-fit.c -- xrlab-cli simulate and fit: options in, requests to the
 * engine's fit service (xrlab-engine-fit.h), the reply printed
 *
 *   xrlab-cli simulate (the model options of eval) [--noise gaussian|poisson]
 *                      [--level L] [--seed N] -o data.csv
 *   xrlab-cli fit --models FILE --model NAME --data data.csv --energy energy.csv
 *                 [--time time.csv] [--dynamics PAR=FILE:MODEL[,MODEL...][@FREQ]]...
 *                 [--baseline-model NAME --baseline T0:T1] [--sbs] [--elim E0:E1]
 *                 [--tlim T0:T1] [--sigma S] [--ci PAR,...] [--method lm|lmaccel|fd]
 *                 -o OUTDIR
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "cli-private.h"
#include "xrlab-engine-fit.h"
#include "xrlab-fitflow.h"
#include "xrlab-h5.h"
#include "xrlab-model.h"
#include "xrlab-simulate.h"
#include "xrlab-util.h"

/* Replaces the help text of -o in the shared model entries. */
static void
set_output_help (GOptionEntry *entries, const char *desc, const char *arg)
{
  for (GOptionEntry *e = entries; e->long_name; e++)
    if (g_str_equal (e->long_name, "output"))
      {
        e->description = desc;
        e->arg_description = arg;
      }
}

/* ---- the engine, waited for ------------------------------------------------------------- */

/* An engine whose replies come to a main context of the command's own. */
typedef struct {
  GMainContext *context;
  XrlabEngine *engine;
} Client;

static void
client_init (Client *c)
{
  c->context = g_main_context_new ();
  g_main_context_push_thread_default (c->context);
  c->engine = xrlab_engine_new ();
}

static void
client_clear (Client *c)
{
  if (c->engine == NULL)
    return;
  xrlab_engine_shutdown (c->engine);
  g_clear_object (&c->engine);
  while (g_main_context_iteration (c->context, FALSE))
    ;
  g_main_context_pop_thread_default (c->context);
  g_clear_pointer (&c->context, g_main_context_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Client, client_clear)

/* ---- the model options as the service takes them ------------------------------------ */

typedef struct {
  GArray *dynamics;   /* XrlabFitDynamics */
  GArray *profiles;   /* XrlabFitProfile */
  GArray *values;     /* XrlabFitValue */
  GPtrArray *owned;   /* the strings and string vectors they point to */
} ModelParts;

static void
model_parts_clear (ModelParts *mp)
{
  g_clear_pointer (&mp->dynamics, g_array_unref);
  g_clear_pointer (&mp->profiles, g_array_unref);
  g_clear_pointer (&mp->values, g_array_unref);
  g_clear_pointer (&mp->owned, g_ptr_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (ModelParts, model_parts_clear)

/* --models, --model, --dynamics, --profile and --set, checked (usage errors
 * exit 2, a --set value that is not a number 1). */
static gboolean
model_parts_parse (const char *cmd, const XrlabCliModelOptions *o, ModelParts *mp, int *status)
{
  mp->dynamics = g_array_new (FALSE, TRUE, sizeof (XrlabFitDynamics));
  mp->profiles = g_array_new (FALSE, TRUE, sizeof (XrlabFitProfile));
  mp->values = g_array_new (FALSE, TRUE, sizeof (XrlabFitValue));
  mp->owned = g_ptr_array_new_with_free_func (g_free);
  if (o->models == NULL || o->model == NULL)
    {
      *status = xrlab_cli_usage (cmd, _("--models and --model are required"));
      return FALSE;
    }
  for (guint i = 0; o->dynamics && o->dynamics[i]; i++)
    {
      XrlabFitDynamics d = { 0 };
      char *par = NULL, *file = NULL, **models = NULL;

      if (!xrlab_cli_parse_attachment (o->dynamics[i], TRUE, &par, &file, &models, &d.frequency))
        {
          *status = xrlab_cli_usage (cmd, _("--dynamics “%s”: expected "
                                            "PAR=FILE:MODEL[,MODEL...][@FREQ] with FREQ > 0"),
                                     o->dynamics[i]);
          return FALSE;
        }
      g_ptr_array_add (mp->owned, par);
      d.param = par;
      g_ptr_array_add (mp->owned, file);
      d.file = file;
      g_ptr_array_add (mp->owned, models);   /* freed as a block: its strings below */
      for (guint k = 0; models[k]; k++)
        g_ptr_array_add (mp->owned, models[k]);
      d.models = (const char *const *) models;
      d.n_models = g_strv_length (models);
      g_array_append_val (mp->dynamics, d);
    }
  for (guint i = 0; o->profiles && o->profiles[i]; i++)
    {
      XrlabFitProfile pr = { 0 };
      char *par = NULL, *file = NULL;
      g_auto(GStrv) models = NULL;
      double freq;

      if (!xrlab_cli_parse_attachment (o->profiles[i], FALSE, &par, &file, &models, &freq)
          || g_strv_length (models) != 1)
        {
          g_free (par);
          g_free (file);
          *status = xrlab_cli_usage (cmd, _("--profile “%s”: expected PAR=FILE:MODEL"),
                                     o->profiles[i]);
          return FALSE;
        }
      g_ptr_array_add (mp->owned, par);
      pr.param = par;
      g_ptr_array_add (mp->owned, file);
      pr.file = file;
      g_ptr_array_add (mp->owned, (char *) (pr.model = g_strdup (models[0])));
      g_array_append_val (mp->profiles, pr);
    }
  for (guint i = 0; o->sets && o->sets[i]; i++)
    {
      const char *eq = strchr (o->sets[i], '=');
      XrlabFitValue v = { 0 };

      if (eq == NULL || eq == o->sets[i])
        {
          *status = xrlab_cli_usage (cmd, _("--set “%s”: expected PAR=VALUE"), o->sets[i]);
          return FALSE;
        }
      if (!xrlab_parse_double (eq + 1, FALSE, &v.value))
        {
          *status = xrlab_cli_failf (_("--set “%s”: “%s” is not a finite number"),
                                     o->sets[i], eq + 1);
          return FALSE;
        }
      g_ptr_array_add (mp->owned, (char *) (v.param = g_strndup (o->sets[i], eq - o->sets[i])));
      g_array_append_val (mp->values, v);
    }
  return TRUE;
}

/* ---- simulate ------------------------------------------------------------------------- */

int
xrlab_cli_simulate (int argc, char **argv)
{
  XrlabCliModelOptions o = { 0 };
  g_auto(ModelParts) mp = { 0 };
  g_autofree GOptionEntry *entries = xrlab_cli_model_entries (&o);
  g_autofree char *noise = NULL, *level_text = NULL, *seed_text = NULL;
  g_autofree char *limit = xrlab_cli_size_limit_help ();
  GOptionEntry sim_entries[] = {
    { "noise", 0, 0, G_OPTION_ARG_STRING, &noise,
      N_("Noise: none, gaussian or poisson (default gaussian when --level is given)"),
      N_("KIND") },
    { "level", 0, 0, G_OPTION_ARG_STRING, &level_text,
      N_("Noise level relative to the largest model value (0.01 = 1 %; default 0)"),
      N_("L") },
    { "seed", 0, 0, G_OPTION_ARG_STRING, &seed_text,
      N_("Seed of the random numbers (default 1)"), N_("N") },
    G_OPTION_ENTRY_NULL
  };
  const XrlabCliSpec spec = {
    .parameter_string = _("— synthetic data from a model"),
    .summary =
      _("Writes the model at its parameter values plus noise, in the layout of eval and "
        "of the data of fit: one row per delay, one column per energy. Gaussian noise has "
        "σ = L·max|model|; Poisson noise draws counts N ~ Poisson(s·model) and writes N/s "
        "with s = 1/(L²·max model), so the relative noise at the maximum is L. The random "
        "numbers are GSL's MT19937 seeded with --seed (gsl_ran_gaussian, gsl_ran_poisson; "
        "one draw per point, row by row): the same seed gives the same data. Prints "
        "noise_sigma= (Gaussian) or noise_counts_per_unit= (Poisson) on stdout."),
    .description = limit,
    .entries = { entries, sim_entries },
  };
  g_autoptr(GError) error = NULL;
  XrlabNoiseKind kind = XRLAB_NOISE_NONE;
  double level = 0.0, scale = NAN;
  guint64 seed = 1;
  int status = XRLAB_CLI_OK;

  set_output_help (entries, N_("Output file (the layout of eval): CSV, or HDF5 when it is "
                               "named FILE.h5 (or .nxs), readable again with --data FILE.h5"),
                   N_("FILE"));
  if (!xrlab_cli_parse_options (&spec, &argc, &argv))
    {
      xrlab_cli_model_options_clear (&o);
      return XRLAB_CLI_USAGE;
    }
  if (argc > 1)
    status = xrlab_cli_usage ("simulate", _("unexpected argument “%s”"), argv[1]);
  else if (o.energy == NULL || o.output == NULL)
    status = xrlab_cli_usage ("simulate", _("--energy and -o are required"));
  else if (noise && !xrlab_noise_kind_from_string (noise, &kind))
    status = xrlab_cli_usage ("simulate", _("--noise “%s”: expected none, gaussian or "
                                            "poisson"), noise);
  else if (level_text && !(xrlab_parse_double (level_text, FALSE, &level) && level >= 0))
    status = xrlab_cli_usage ("simulate", _("--level “%s”: expected a number ≥ 0"),
                              level_text);
  else if (seed_text && !g_ascii_string_to_unsigned (seed_text, 10, 0, G_MAXUINT32, &seed,
                                                     NULL))
    status = xrlab_cli_usage ("simulate", _("--seed “%s”: expected an integer from 0 to %u"),
                              seed_text, G_MAXUINT32);
  if (status == XRLAB_CLI_OK && noise == NULL && level > 0)
    kind = XRLAB_NOISE_GAUSSIAN;
  if (status == XRLAB_CLI_OK && kind != XRLAB_NOISE_NONE && level_text == NULL)
    status = xrlab_cli_usage ("simulate", _("--noise needs --level"));

  if (status == XRLAB_CLI_OK && model_parts_parse ("simulate", &o, &mp, &status))
    {
      g_auto(Client) c = { 0 };
      XrlabFitSimulateSpec sim = {
        .models = o.models, .model = o.model,
        .dynamics = (const XrlabFitDynamics *) mp.dynamics->data, .n_dynamics = mp.dynamics->len,
        .profiles = (const XrlabFitProfile *) mp.profiles->data, .n_profiles = mp.profiles->len,
        .values = (const XrlabFitValue *) mp.values->data, .n_values = mp.values->len,
        .energy = o.energy, .time = o.time, .aux = o.aux,
        .noise = kind, .level = level, .seed = seed, .output = o.output,
        .max_values = xrlab_cli_max_values (),
      };
      XrlabEngineReply r = { 0 };

      client_init (&c);
      xrlab_engine_fit_simulate_async (c.engine, &sim, NULL, xrlab_engine_reply_cb, &r);
      if (!xrlab_engine_fit_simulate_finish (c.engine, xrlab_engine_reply_wait (&r), &scale, &error))
        status = xrlab_cli_fail (error);
      else if (kind != XRLAB_NOISE_NONE && level > 0)
        {
          char b[XRLAB_DTOA_BUFSIZE];
          g_print ("%s=%s\n", kind == XRLAB_NOISE_GAUSSIAN ? "noise_sigma"
                                                            : "noise_counts_per_unit",
                   xrlab_format_double (scale, b));
        }
      xrlab_engine_reply_clear (&r);
    }
  xrlab_cli_model_options_clear (&o);
  return status;
}

/* ---- fit ---------------------------------------------------------------------------------- */

typedef struct {
  char *data;
  char *baseline_model;
  char *baseline;
  gboolean sbs;
  char *elim;
  char *tlim;
  char *sigma;
  char *ci;
  char *method;
  gboolean pin;
  int threads;
} FitOptions;

static void
fit_options_clear (FitOptions *f)
{
  g_free (f->data);
  g_free (f->baseline_model);
  g_free (f->baseline);
  g_free (f->elim);
  g_free (f->tlim);
  g_free (f->sigma);
  g_free (f->ci);
  g_free (f->method);
}

/* "A:B" with either side empty (open: NaN). */
static gboolean
parse_range (const char *text, double *a, double *b)
{
  const char *colon = strchr (text, ':');
  g_autofree char *left = NULL;

  if (colon == NULL || strchr (colon + 1, ':') != NULL)
    return FALSE;
  left = g_strndup (text, colon - text);
  *a = *b = NAN;
  if (*g_strstrip (left) != '\0' && !xrlab_parse_double (left, FALSE, a))
    return FALSE;
  if (colon[1] != '\0' && !xrlab_parse_double (colon + 1, FALSE, b))
    return FALSE;
  return TRUE;
}

typedef struct {
  gboolean tty;
  gboolean line_open;
  XrlabFitflowStage stage;
} Progress;

/* The stage as the summary names it, in the user's language. */
static const char *
stage_title (XrlabFitflowStage stage)
{
  switch (stage)
    {
    case XRLAB_FITFLOW_STAGE_BASELINE:
      return _("baseline");
    case XRLAB_FITFLOW_STAGE_SPECTRUM:
      return _("spectrum");
    case XRLAB_FITFLOW_STAGE_SBS:
      return _("slice-by-slice");
    case XRLAB_FITFLOW_STAGE_2D:
    default:
      return _("2D");
    }
}

static void
progress_end (Progress *p)
{
  if (p->tty && p->line_open)
    {
      fputc ('\n', stderr);
      p->line_open = FALSE;
    }
}

/* A line per stage on a terminal, rewritten as the stage goes on. */
static void
progress_cb (const XrlabFitJobProgress *jp, gpointer data)
{
  Progress *p = data;
  char b[XRLAB_DTOA_BUFSIZE];

  if (!p->tty)
    return;
  if (p->line_open && jp->stage != p->stage)
    progress_end (p);
  p->stage = jp->stage;
  fprintf (stderr, "\r%s: ", stage_title (jp->stage));
  if (jp->stage == XRLAB_FITFLOW_STAGE_SBS)
    fprintf (stderr, g_dngettext (GETTEXT_PACKAGE, "%u/%u slice", "%u/%u slices",
                                  jp->n_slices),
             jp->slices_done, jp->n_slices);
  else
    fprintf (stderr, _("iteration %u, χ² = %s"), jp->iteration, xrlab_format_double (jp->chi2, b));
  fputs ("   ", stderr);
  fflush (stderr);
  p->line_open = TRUE;
}

static void
print_result (const char *title, const XrlabFitflowResult *r)
{
  char a[XRLAB_DTOA_BUFSIZE], b[XRLAB_DTOA_BUFSIZE];

  g_print (g_dngettext (GETTEXT_PACKAGE, "%s: reduced χ² %s, R² %s, %u iteration, %s\n",
                        "%s: reduced χ² %s, R² %s, %u iterations, %s\n", r->fit->niter),
           title,
           xrlab_format_double (r->fit->redchi, a), xrlab_format_double (r->fit->r2, b),
           r->fit->niter, r->fit->message);
  for (gsize i = 0; i < r->n_params; i++)
    if (r->params[i].fitted)
      g_print ("  %-32s %s ± %s\n", r->params[i].name,
               xrlab_format_double (r->params[i].value, a),
               xrlab_format_double (r->params[i].std_error, b));
}

/* A fit that stopped with @error: interrupted (Ctrl-C) or failed. */
static int
fit_failed (const GError *error)
{
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED)
      && g_cancellable_is_cancelled (xrlab_cli_interrupt_cancellable ()))
    {
      g_printerr ("xrlab-cli: %s\n", _("the fit was interrupted; nothing was written"));
      return xrlab_cli_interrupt_status ();
    }
  return xrlab_cli_fail (error);
}

/* A fit: its options, as requests to the fit service, and its results. */
typedef struct {
  XrlabCliModelOptions o;
  FitOptions fo;
  /* the options, parsed */
  double b0, b1, e0, e1, t0, t1;  /* --baseline, --elim, --tlim (NaN: open) */
  XrlabFitMethod method;
  char **ci_names;
  ModelParts parts;
  double sigma_value;
  /* the service */
  Client client;
  guint setup;
  Progress progress;
  gboolean nexus;                 /* --data is a NeXus file alone */
  gboolean has_time;              /* the dataset has a delay axis */
  XrlabFitResults *results;
} FitCommand;

static void
fit_command_clear (FitCommand *c)
{
  g_clear_pointer (&c->results, xrlab_fit_results_free);
  client_clear (&c->client);
  model_parts_clear (&c->parts);
  g_clear_pointer (&c->ci_names, g_strfreev);
  fit_options_clear (&c->fo);
  xrlab_cli_model_options_clear (&c->o);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (FitCommand, fit_command_clear)

static gboolean
fit_is_2d (const FitCommand *c)
{
  return c->o.time != NULL || c->has_time;
}

/* The options that go together, the ranges and the method. Returns the
 * exit status. */
static int
fit_check_options (FitCommand *c, int argc, char **argv)
{
  const FitOptions *fo = &c->fo;
  int status = XRLAB_CLI_OK;

  c->b0 = c->b1 = c->e0 = c->e1 = c->t0 = c->t1 = NAN;
  c->method = XRLAB_FIT_METHOD_LM;
  if (fo->data != NULL)
    {
      g_autofree char *file = NULL, *path = NULL;

      c->nexus = !xrlab_h5_split_spec (fo->data, &file, &path) && xrlab_h5_is_hdf5 (fo->data);
    }
  if (argc > 1)
    status = xrlab_cli_usage ("fit", _("unexpected argument “%s”"), argv[1]);
  else if (c->nexus && (c->o.energy != NULL || c->o.time != NULL))
    status = xrlab_cli_usage ("fit", _("--data %s: a NeXus file alone brings its own axes; "
                                       "leave out --energy and --time, or name each "
                                       "dataset as FILE:/PATH"),
                              fo->data);
  else if (fo->data == NULL || (c->o.energy == NULL && !c->nexus) || c->o.output == NULL)
    status = xrlab_cli_usage ("fit", _("--data, --energy and -o are required (--energy not "
                                       "with a NeXus file)"));
  else if ((fo->baseline_model == NULL) != (fo->baseline == NULL))
    status = xrlab_cli_usage ("fit", _("--baseline-model and --baseline go together"));
  else if (fo->baseline && !parse_range (fo->baseline, &c->b0, &c->b1))
    status = xrlab_cli_usage ("fit", _("--baseline “%s”: expected T0:T1"), fo->baseline);
  else if (fo->baseline && (isnan (c->b0) || isnan (c->b1)))
    status = xrlab_cli_usage ("fit", _("--baseline “%s”: both delays are needed"),
                              fo->baseline);
  else if (fo->elim && !parse_range (fo->elim, &c->e0, &c->e1))
    status = xrlab_cli_usage ("fit", _("--elim “%s”: expected E0:E1"), fo->elim);
  else if (fo->tlim && !parse_range (fo->tlim, &c->t0, &c->t1))
    status = xrlab_cli_usage ("fit", _("--tlim “%s”: expected T0:T1"), fo->tlim);
  else if (fo->pin && fo->baseline_model == NULL)
    status = xrlab_cli_usage ("fit", _("--pin-baseline needs --baseline-model"));
  else if (c->o.time == NULL && !c->nexus && (fo->baseline || fo->sbs || fo->tlim))
    status = xrlab_cli_usage ("fit", _("--baseline, --sbs and --tlim need --time"));
  else if (fo->threads < 0)
    status = xrlab_cli_usage ("fit", _("--threads must not be negative"));
  else if (fo->method && g_str_equal (fo->method, "lm"))
    c->method = XRLAB_FIT_METHOD_LM;
  else if (fo->method && g_str_equal (fo->method, "lmaccel"))
    c->method = XRLAB_FIT_METHOD_LM_ACCEL;
  else if (fo->method && g_str_equal (fo->method, "fd"))
    c->method = XRLAB_FIT_METHOD_FD;
  else if (fo->method)
    status = xrlab_cli_usage ("fit", _("--method “%s”: expected lm, lmaccel or fd"),
                              fo->method);
  if (status == XRLAB_CLI_OK && fo->ci)
    {
      c->ci_names = g_strsplit (fo->ci, ",", -1);
      for (guint i = 0; c->ci_names[i]; i++)
        if (*g_strstrip (c->ci_names[i]) == '\0')
          return xrlab_cli_usage ("fit", _("--ci “%s”: expected PAR,PAR,..."), fo->ci);
    }
  return status;
}

/* Parses and checks the options. Returns the exit status. */
static int
fit_parse_options (FitCommand *c, int argc, char **argv)
{
  FitOptions *fo = &c->fo;
  g_autofree GOptionEntry *entries = xrlab_cli_model_entries (&c->o);
  g_autofree char *limit = xrlab_cli_size_limit_help ();
  g_autofree char *description = g_strconcat (
      _("Ctrl-C (or SIGTERM) stops the fits after the current iteration; nothing is written "
        "and the exit status is 130 (143). While the results are written, it stops them: "
        "OUTDIR keeps the previous set, the exit status is the same and there is no "
        "summary."), "\n", limit, NULL);
  const GOptionEntry fit_entries[] = {
    { "data", 0, 0, G_OPTION_ARG_FILENAME, &fo->data,
      N_("The measurement: one row per delay, one column per energy, comma separated, no "
         "header (one row for a single spectrum); nan allowed outside the fit window. "
         "FILE.h5:/PATH reads an HDF5 dataset; a NeXus file alone its NXdata group "
         "(@signal and @axes: data, delays and energies)"),
      N_("FILE") },
    { "baseline-model", 0, 0, G_OPTION_ARG_STRING, &fo->baseline_model,
      N_("Fit the baseline spectrum with this model of --models first; the later fits "
         "start from its result"), N_("NAME") },
    { "baseline", 0, 0, G_OPTION_ARG_STRING, &fo->baseline,
      N_("The delays whose mean is the baseline spectrum"), N_("T0:T1") },
    { "sbs", 0, 0, G_OPTION_ARG_NONE, &fo->sbs,
      N_("Also fit every delay of the window alone (slice by slice, on all processors)"),
      NULL },
    { "elim", 0, 0, G_OPTION_ARG_STRING, &fo->elim,
      N_("Fit window in energy (either side may be empty)"), N_("E0:E1") },
    { "tlim", 0, 0, G_OPTION_ARG_STRING, &fo->tlim,
      N_("Fit window in delay (either side may be empty)"), N_("T0:T1") },
    { "sigma", 0, 0, G_OPTION_ARG_STRING, &fo->sigma,
      N_("Standard deviation of the data: a number, or a file with one value per point "
         "(the data's shape), per energy or per delay (one column); without it the fit "
         "is unweighted and errors are scaled by the reduced χ²"), N_("S") },
    { "ci", 0, 0, G_OPTION_ARG_STRING, &fo->ci,
      N_("Profile-likelihood confidence intervals at 1, 2 and 3σ of these fitted "
         "parameters (comma separated)"), N_("PAR,...") },
    { "method", 0, 0, G_OPTION_ARG_STRING, &fo->method,
      N_("lm (Levenberg–Marquardt, default), lmaccel (with geodesic acceleration) or fd "
         "(finite-difference Jacobian, for comparison)"), N_("METHOD") },
    { "pin-baseline", 0, 0, G_OPTION_ARG_NONE, &fo->pin,
      N_("Fix every parameter with a baseline namesake and no time dependence at its "
         "baseline value in the slice-by-slice and 2D fits"), NULL },
    { "threads", 0, 0, G_OPTION_ARG_INT, &fo->threads,
      N_("Threads of the slice-by-slice fit (default: one per processor)"), N_("N") },
    G_OPTION_ENTRY_NULL
  };
  const XrlabCliSpec spec = {
    .parameter_string = _("— fit a spectral model to data"),
    .summary =
      _("Fits the model to the data inside the fit window: a 2D (global) fit when --time is "
        "given, else a single spectrum. With --baseline-model, the mean of the delays in "
        "--baseline is fitted first and every later fit starts its parameters from their "
        "baseline namesakes; --sbs fits every delay alone (time dependence left out).\n\n"
        "Writes into OUTDIR: params.csv (name,value,stderr,vary,min,max,expr: every "
        "parameter, fitted or derived, errors of derived ones propagated), metrics.csv "
        "(chi2,redchi,r2,aic,bic,ndata,nvarys,niter,nfev,njev,wall_s), correl.csv, fit.csv "
        "(the fitted model on all delays and energies of the data) and residual.csv (data − "
        "model), both in the layout of the data; baseline_params.csv and "
        "baseline_metrics.csv with a baseline; sbs.csv (one row per delay: every parameter "
        "and its error, chi2, redchi, niter, converged) with --sbs; ci.csv "
        "(name,-3sigma,-2sigma,-1sigma,best,+1sigma,+2sigma,+3sigma) with --ci. The files "
        "are written as one set, only when every fit succeeded, and replace the set of an "
        "earlier run whole (its files that this run does not write go, other files in "
        "OUTDIR stay): a run interrupted or killed at any moment leaves the previous set or "
        "the new one, never a mix. With -o FILE.h5 (or .nxs) the set is one HDF5 file "
        "instead, written as a whole: /entry/data (NXdata: data, fit, residual, time, "
        "energy), /entry/params (the parameters as attributes, and the columns of "
        "params.csv), /entry/metrics, /entry/correl, /entry/baseline, /entry/sbs, /entry/ci. "
        "Progress goes to stderr when it is a terminal; a summary "
        "to stdout."),
    .description = description,
    .entries = { entries, fit_entries },
  };

  set_output_help (entries, N_("Folder for the results (created if needed), or one HDF5 "
                               "file FILE.h5"), N_("OUTDIR"));
  if (!xrlab_cli_parse_options (&spec, &argc, &argv))
    return XRLAB_CLI_USAGE;
  return fit_check_options (c, argc, argv);
}

/* The model options as the service takes them, OUTDIR, and --sigma: a
 * number or a file. Returns the exit status. */
static int
fit_prepare (FitCommand *c)
{
  int status = XRLAB_CLI_OK;

  g_autoptr(GError) error = NULL;

  if (!model_parts_parse ("fit", &c->o, &c->parts, &status))
    return status;
  if (!xrlab_fit_result_dir_check (c->o.output, &error))
    return xrlab_cli_fail (error);
  if (c->fo.sigma && !xrlab_parse_double (c->fo.sigma, FALSE, &c->sigma_value)
      && !g_file_test (c->fo.sigma, G_FILE_TEST_EXISTS))
    return xrlab_cli_failf (_("--sigma “%s”: neither a number nor a file"), c->fo.sigma);
  return XRLAB_CLI_OK;
}

/* The dataset and the setup; the setup's error first (the models are read
 * before the data), the dataset's when the setup only lacks it. Returns
 * the exit status. */
static int
fit_open (FitCommand *c)
{
  ModelParts *mp = &c->parts;
  XrlabDatasetSource src = { .kind = c->nexus ? XRLAB_DATASET_NEXUS : XRLAB_DATASET_FILES,
                             .data = c->fo.data,
                             .energy = c->o.energy, .time = c->o.time, .aux = c->o.aux,
                             .max_values = xrlab_cli_max_values () };
  g_autoptr(GError) ds_error = NULL, error = NULL;
  g_autofree XrlabDatasetInfo *info = NULL;
  XrlabFitSetupSpec spec;
  XrlabEngineReply rd = { 0 }, rs = { 0 };
  gboolean ok;

  xrlab_fit_setup_spec_init (&spec);
  spec.dataset = xrlab_engine_dataset_open_async (c->client.engine, &src, NULL, xrlab_engine_reply_cb, &rd);
  spec.models = c->o.models;
  spec.model = c->o.model;
  spec.dynamics = (const XrlabFitDynamics *) mp->dynamics->data;
  spec.n_dynamics = mp->dynamics->len;
  spec.profiles = (const XrlabFitProfile *) mp->profiles->data;
  spec.n_profiles = mp->profiles->len;
  spec.values = (const XrlabFitValue *) mp->values->data;
  spec.n_values = mp->values->len;
  spec.baseline_model = c->fo.baseline_model;
  /* the --profile and --set options that name a parameter of it */
  spec.baseline_profiles = spec.profiles, spec.n_baseline_profiles = spec.n_profiles;
  spec.baseline_values = spec.values, spec.n_baseline_values = spec.n_values;
  spec.e0 = c->e0, spec.e1 = c->e1, spec.t0 = c->t0, spec.t1 = c->t1;
  spec.b0 = c->b0, spec.b1 = c->b1;
  spec.method = c->method;
  spec.pin_to_baseline = c->fo.pin;
  spec.n_threads = (guint) c->fo.threads;
  spec.max_values = xrlab_cli_max_values ();
  if (c->fo.sigma && xrlab_parse_double (c->fo.sigma, FALSE, &c->sigma_value))
    spec.sigma.from = XRLAB_FIT_SIGMA_FROM_VALUE, spec.sigma.value = c->sigma_value;
  else if (c->fo.sigma)
    spec.sigma.from = XRLAB_FIT_SIGMA_FROM_FILE, spec.sigma.file = c->fo.sigma;
  c->setup = xrlab_engine_fit_setup_new_async (c->client.engine, &spec, NULL, xrlab_engine_reply_cb, &rs);

  info = xrlab_engine_dataset_open_finish (c->client.engine, xrlab_engine_reply_wait (&rd), &ds_error);
  ok = xrlab_engine_fit_setup_finish (c->client.engine, xrlab_engine_reply_wait (&rs), &error);
  xrlab_engine_reply_clear (&rd);
  xrlab_engine_reply_clear (&rs);
  c->has_time = info != NULL && info->has_time;
  if (ok)
    return XRLAB_CLI_OK;
  if (ds_error != NULL
      && g_error_matches (error, XRLAB_ENGINE_FIT_ERROR, XRLAB_ENGINE_FIT_ERROR_NO_DATASET))
    return xrlab_cli_fail (ds_error);
  return xrlab_cli_fail (error);
}

/* The workflow as one job: every stage checked before any fit, then the
 * baseline, slice by slice, the main fit (2D or one spectrum), the
 * confidence intervals. Ctrl-C stops the fits between iterations. Returns
 * the exit status. */
static int
fit_run (FitCommand *c)
{
  XrlabFitJobSpec job = {
    .kind = XRLAB_FIT_JOB_WORKFLOW,
    .stages = XRLAB_FIT_STAGES_MAIN | (c->fo.baseline_model ? XRLAB_FIT_STAGES_BASELINE : 0)
              | (c->fo.sbs ? XRLAB_FIT_STAGES_SBS : 0),
    .ci_names = (const char *const *) c->ci_names,
    .n_ci_names = c->ci_names ? g_strv_length (c->ci_names) : 0,
  };
  g_autoptr(GError) error = NULL;
  XrlabEngineReply r = { 0 };
  gboolean ok;

  xrlab_engine_fit_run_async (c->client.engine, c->setup, &job, progress_cb, &c->progress, NULL,
                              xrlab_cli_interrupt_cancellable (), xrlab_engine_reply_cb, &r);
  ok = xrlab_engine_fit_run_finish (c->client.engine, xrlab_engine_reply_wait (&r), &error);
  xrlab_engine_reply_clear (&r);
  progress_end (&c->progress);
  return ok ? XRLAB_CLI_OK : fit_failed (error);
}

/* Every file of OUTDIR (see the summary of --help), written by the engine
 * as one set; then the results for the summary. Returns the exit status. */
static int
fit_write (FitCommand *c)
{
  g_autoptr(GError) error = NULL;
  XrlabEngineReply r = { 0 };
  gboolean ok;

  xrlab_engine_fit_write_async (c->client.engine, c->setup, c->o.output,
                                xrlab_cli_interrupt_cancellable (), xrlab_engine_reply_cb, &r);
  ok = xrlab_engine_fit_write_finish (c->client.engine, xrlab_engine_reply_wait (&r), &error);
  xrlab_engine_reply_clear (&r);
  if (!ok)
    return fit_failed (error);
  xrlab_engine_fit_results_async (c->client.engine, c->setup, "summary", NULL, xrlab_engine_reply_cb, &r);
  c->results = xrlab_engine_fit_results_finish (c->client.engine, xrlab_engine_reply_wait (&r), &error);
  xrlab_engine_reply_clear (&r);
  return c->results ? XRLAB_CLI_OK : xrlab_cli_fail (error);
}

/* The summary on stdout: each stage's fit quality and fitted parameters. */
static void
fit_print_summary (const FitCommand *c)
{
  const XrlabFitResults *r = c->results;

  if (r->baseline)
    print_result (stage_title (XRLAB_FITFLOW_STAGE_BASELINE), r->baseline);
  if (r->sbs)
    {
      gsize conv = 0;
      for (gsize k = 0; k < r->sbs->n_slices; k++)
        conv += r->sbs->done[k] && r->sbs->converged[k];
      g_print (g_dngettext (GETTEXT_PACKAGE, "slice-by-slice: %zu of %zu delay converged\n",
                            "slice-by-slice: %zu of %zu delays converged\n", r->sbs->n_slices),
               conv, r->sbs->n_slices);
    }
  print_result (stage_title (fit_is_2d (c) ? XRLAB_FITFLOW_STAGE_2D
                                           : XRLAB_FITFLOW_STAGE_SPECTRUM), r->main);
}

/* parse options → the setup → the workflow → the result set → the summary */
int
xrlab_cli_fit (int argc, char **argv)
{
  g_auto(FitCommand) c = { .progress = { .tty = isatty (STDERR_FILENO) } };
  int status = fit_parse_options (&c, argc, argv);

  if (status == XRLAB_CLI_OK)
    status = fit_prepare (&c);
  if (status == XRLAB_CLI_OK)
    {
      client_init (&c.client);
      status = fit_open (&c);
    }
  if (status == XRLAB_CLI_OK)
    status = fit_run (&c);
  if (status == XRLAB_CLI_OK)
    status = fit_write (&c);
  if (status == XRLAB_CLI_OK)
    fit_print_summary (&c);
  return status;
}
