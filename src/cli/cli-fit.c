/* cli-fit.c -- xrlab-cli fit and fit-trace: options in, requests to the
 * engine's fit service (xrlab-engine-fit.h), the replies printed
 *
 *   xrlab-cli fit --models FILE --model NAME --data data.csv [--data ...]
 *                 --energy energy.csv [--time time.csv]
 *                 [--dynamics PAR=FILE:MODEL[,MODEL...][@FREQ]]... [--profile ...]
 *                 [--baseline-model NAME --baseline T0:T1 [--baseline-profile ...]]
 *                 [--sbs | --sbs-only | --baseline-only] [--elim E0:E1] [--tlim T0:T1]
 *                 [--sigma S] [--scale-covar yes|no] [--ci PAR,...]
 *                 [--mcmc STEPS[,WALKERS[,BURN]]] [--independent]
 *                 [--method lm|lmaccel|fd] -o OUTDIR
 *   xrlab-cli fit-trace (the options of fit) --param PAR [--2d] -o OUTDIR
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

#include "cli-fit-private.h"
#include "xrlab-engine-fit.h"
#include "xrlab-fitflow.h"
#include "xrlab-h5.h"
#include "xrlab-model.h"
#include "xrlab-simulate.h"
#include "xrlab-util.h"

/* ---- fit ---------------------------------------------------------------------------------- */

typedef struct {
  char **data;
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
  gboolean sbs_only;
  char **baseline_profiles;
  char *mcmc;
  char *mcmc_seed;
  gboolean baseline_only;
  char *scale_covar;
  gboolean independent;
} FitOptions;

static void
fit_options_clear (FitOptions *f)
{
  g_strfreev (f->data);
  g_strfreev (f->baseline_profiles);
  g_free (f->mcmc);
  g_free (f->mcmc_seed);
  g_free (f->scale_covar);
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
    case XRLAB_FITFLOW_STAGE_TRACE:
      return _("trace");
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

/* One measurement of a fit: its files, its setup, its results. */
typedef struct {
  char *name;                     /* the folder of its results (several files), messages */
  XrlabDatasetFiles found;        /* a folder in trspecfit's layout */
  const char *data, *energy, *time, *aux;
  gboolean nexus;                 /* a NeXus file alone: its NXdata brings the axes */
  gboolean has_time;              /* the dataset has a delay axis */
  guint setup;
  XrlabFitResults *results;
} FitFile;

static void
fit_file_clear (gpointer data)
{
  FitFile *f = data;

  g_free (f->name);
  xrlab_dataset_files_clear (&f->found);
  g_clear_pointer (&f->results, xrlab_fit_results_free);
}

/* A fit: its options, as requests to the fit service, and its results. */
typedef struct {
  const char *cmd;                /* "fit" or "fit-trace" */
  gboolean trace;                 /* fit-trace */
  char *trace_param;              /* --param */
  gboolean then_2d;               /* --2d */
  XrlabCliModelOptions o;
  FitOptions fo;
  /* the options, parsed */
  double b0, b1, e0, e1, t0, t1;  /* --baseline, --elim, --tlim (NaN: open) */
  XrlabFitMethod method;
  XrlabFitScaleCovar scale_covar;
  guint mcmc_steps, mcmc_walkers, mcmc_burn;
  guint64 mcmc_seed;
  char **ci_names;
  XrlabCliModelParts parts;
  XrlabCliModelParts baseline_parts;      /* --baseline-profile */
  double sigma_value;
  GArray *files;                  /* FitFile, one per measurement */
  /* the service */
  XrlabCliClient client;
  Progress progress;
  XrlabFitProject *project;       /* a joint fit's shared result */
} FitCommand;

static void
fit_command_clear (FitCommand *c)
{
  g_clear_pointer (&c->files, g_array_unref);
  g_clear_pointer (&c->project, g_free);
  xrlab_cli_client_clear (&c->client);
  xrlab_cli_model_parts_clear (&c->parts);
  xrlab_cli_model_parts_clear (&c->baseline_parts);
  g_clear_pointer (&c->ci_names, g_strfreev);
  g_clear_pointer (&c->trace_param, g_free);
  fit_options_clear (&c->fo);
  xrlab_cli_model_options_clear (&c->o);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (FitCommand, fit_command_clear)

static gboolean
fit_is_2d (const FitFile *f)
{
  return f->time != NULL || f->has_time;
}

/* Several measurements fitted as one project (not --independent). */
static gboolean
fit_is_joint (const FitCommand *c)
{
  return c->files->len > 1 && !c->fo.independent;
}

/* --mcmc STEPS[,WALKERS[,BURN]]; burn-in by default a tenth of the steps. */
static gboolean
parse_mcmc (FitCommand *c)
{
  g_auto(GStrv) parts = g_strsplit (c->fo.mcmc, ",", -1);
  guint64 v[3] = { 0, 0, 0 };
  guint n = g_strv_length (parts);

  if (n < 1 || n > 3)
    return FALSE;
  for (guint i = 0; i < n; i++)
    if (!g_ascii_string_to_unsigned (g_strstrip (parts[i]), 10, i == 0 ? 1 : 0, G_MAXINT, &v[i],
                                     NULL))
      return FALSE;
  c->mcmc_steps = (guint) v[0];
  c->mcmc_walkers = (guint) v[1];
  c->mcmc_burn = n == 3 ? (guint) v[2] : c->mcmc_steps / 10;
  return c->mcmc_burn < c->mcmc_steps;
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
  c->scale_covar = XRLAB_FIT_SCALE_COVAR_YES;
  c->mcmc_seed = 1;
  if (argc > 1)
    status = xrlab_cli_usage (c->cmd, _("unexpected argument “%s”"), argv[1]);
  else if (fo->data == NULL || c->o.output == NULL)
    status = xrlab_cli_usage (c->cmd, _("--data, --energy and -o are required"));
  else if ((fo->baseline_model == NULL) != (fo->baseline == NULL))
    status = xrlab_cli_usage (c->cmd, _("--baseline-model and --baseline go together"));
  else if (fo->baseline && !parse_range (fo->baseline, &c->b0, &c->b1))
    status = xrlab_cli_usage (c->cmd, _("--baseline “%s”: expected T0:T1"), fo->baseline);
  else if (fo->baseline && (isnan (c->b0) || isnan (c->b1)))
    status = xrlab_cli_usage (c->cmd, _("--baseline “%s”: both delays are needed"),
                              fo->baseline);
  else if (fo->elim && !parse_range (fo->elim, &c->e0, &c->e1))
    status = xrlab_cli_usage (c->cmd, _("--elim “%s”: expected E0:E1"), fo->elim);
  else if (fo->tlim && !parse_range (fo->tlim, &c->t0, &c->t1))
    status = xrlab_cli_usage (c->cmd, _("--tlim “%s”: expected T0:T1"), fo->tlim);
  else if (fo->pin && fo->baseline_model == NULL)
    status = xrlab_cli_usage (c->cmd, _("--pin-baseline needs --baseline-model"));
  else if (fo->baseline_profiles && fo->baseline_model == NULL)
    status = xrlab_cli_usage (c->cmd, _("--baseline-profile needs --baseline-model"));
  else if (fo->threads < 0)
    status = xrlab_cli_usage (c->cmd, _("--threads must not be negative"));
  else if (fo->scale_covar && !(xrlab_fit_scale_covar_from_string (fo->scale_covar,
                                                                  &c->scale_covar)
                                && c->scale_covar != XRLAB_FIT_SCALE_COVAR_AUTO))
    status = xrlab_cli_usage (c->cmd, _("--scale-covar “%s”: expected yes or no"),
                              fo->scale_covar);
  else if (fo->mcmc && !parse_mcmc (c))
    status = xrlab_cli_usage (c->cmd, _("--mcmc “%s”: expected STEPS[,WALKERS[,BURN]] with "
                                       "STEPS ≥ 1 and BURN < STEPS"), fo->mcmc);
  else if (fo->mcmc_seed && !g_ascii_string_to_unsigned (fo->mcmc_seed, 10, 0, G_MAXUINT32,
                                                         &c->mcmc_seed, NULL))
    status = xrlab_cli_usage (c->cmd, _("--mcmc-seed “%s”: expected an integer from 0 to %u"),
                              fo->mcmc_seed, G_MAXUINT32);
  else if (fo->mcmc_seed && fo->mcmc == NULL)
    status = xrlab_cli_usage (c->cmd, _("--mcmc-seed needs --mcmc"));
  else if (fo->baseline_only && fo->baseline_model == NULL)
    status = xrlab_cli_usage (c->cmd, _("--baseline-only needs --baseline-model"));
  else if (fo->baseline_only && (fo->sbs || fo->sbs_only))
    status = xrlab_cli_usage (c->cmd, _("--baseline-only fits the baseline alone: no --sbs or "
                                       "--sbs-only"));
  else if (fo->sbs_only && (fo->ci || fo->mcmc))
    status = xrlab_cli_usage (c->cmd, _("--sbs-only fits no 2D model: --ci and --mcmc need "
                                       "one (or --baseline-only, for the baseline's)"));
  else if (c->trace && c->trace_param == NULL)
    status = xrlab_cli_usage (c->cmd, _("--param is required"));
  else if (c->trace && (fo->sbs_only || fo->baseline_only || fo->independent))
    status = xrlab_cli_usage (c->cmd, _("--sbs-only, --baseline-only and --independent are "
                                        "options of fit"));
  else if (c->trace && !c->then_2d && (fo->ci || fo->mcmc))
    status = xrlab_cli_usage (c->cmd, _("--ci and --mcmc need --2d"));
  else if (fo->method && g_str_equal (fo->method, "lm"))
    c->method = XRLAB_FIT_METHOD_LM;
  else if (fo->method && g_str_equal (fo->method, "lmaccel"))
    c->method = XRLAB_FIT_METHOD_LM_ACCEL;
  else if (fo->method && g_str_equal (fo->method, "fd"))
    c->method = XRLAB_FIT_METHOD_FD;
  else if (fo->method)
    status = xrlab_cli_usage (c->cmd, _("--method “%s”: expected lm, lmaccel or fd"),
                              fo->method);
  if (status == XRLAB_CLI_OK && fo->ci)
    {
      c->ci_names = g_strsplit (fo->ci, ",", -1);
      for (guint i = 0; c->ci_names[i]; i++)
        if (*g_strstrip (c->ci_names[i]) == '\0')
          return xrlab_cli_usage (c->cmd, _("--ci “%s”: expected PAR,PAR,..."), fo->ci);
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
        "summary."), "\n",
      _("--profile and --dynamics attach to the model of --model only; the baseline model "
        "gets the profiles of --baseline-profile (and the values of --set that name its "
        "parameters)."), "\n",
      _("Several files (--data given again, or a quoted pattern such as 'data_*.csv'): with "
        "the same --energy and --time for all, or each a folder in trspecfit's layout "
        "(data.csv, energy.csv, time.csv, aux_axis.csv) with axes of its own. They are "
        "fitted jointly as one project: parameters with vary project are shared by all "
        "files, those with vary file (and True) are fitted per file, each file from its own "
        "baseline; --independent fits each file alone instead. OUTDIR then holds one "
        "folder per file (named after it) with its result set, and project.csv with the "
        "shared parameters and the joint metrics (a joint fit)."), "\n",
      limit, NULL);
  const GOptionEntry fit_entries[] = {
    { "data", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &fo->data,
      N_("The measurement: one row per delay, one column per energy, comma separated, no "
         "header (one row for a single spectrum); nan allowed outside the fit window. "
         "FILE.h5:/PATH reads an HDF5 dataset; a NeXus file alone its NXdata group "
         "(@signal and @axes: data, delays and energies). "
         "Repeat it (or give a quoted pattern) for several files"),
      N_("FILE") },
    { "baseline-model", 0, 0, G_OPTION_ARG_STRING, &fo->baseline_model,
      N_("Fit the baseline spectrum with this model of --models first; the later fits "
         "start from its result"), N_("NAME") },
    { "baseline-profile", 0, 0, G_OPTION_ARG_STRING_ARRAY, &fo->baseline_profiles,
      N_("A profile of a parameter of the baseline model (as --profile; repeatable)"),
      N_("PAR=FILE:MODEL") },
    { "baseline", 0, 0, G_OPTION_ARG_STRING, &fo->baseline,
      N_("The delays whose mean is the baseline spectrum"), N_("T0:T1") },
    { "sbs", 0, 0, G_OPTION_ARG_NONE, &fo->sbs,
      N_("Also fit every delay of the window alone (slice by slice, on all processors)"),
      NULL },
    { "sbs-only", 0, 0, G_OPTION_ARG_NONE, &fo->sbs_only,
      N_("Fit every delay alone and no 2D model (the slice table, after the baseline)"),
      NULL },
    { "elim", 0, 0, G_OPTION_ARG_STRING, &fo->elim,
      N_("Fit window in energy (either side may be empty)"), N_("E0:E1") },
    { "tlim", 0, 0, G_OPTION_ARG_STRING, &fo->tlim,
      N_("Fit window in delay (either side may be empty)"), N_("T0:T1") },
    { "sigma", 0, 0, G_OPTION_ARG_STRING, &fo->sigma,
      N_("Standard deviation of the data: a number, or a file with one value per point "
         "(the data's shape), per energy or per delay (one column); without it the fit "
         "is unweighted and errors are scaled by the reduced χ²"), N_("S") },
    { "scale-covar", 0, 0, G_OPTION_ARG_STRING, &fo->scale_covar,
      N_("Scale the errors by the reduced χ² (yes, lmfit's default) or not (no, for σ that "
         "are the true uncertainties); the summary says which was done"), N_("yes|no") },
    { "ci", 0, 0, G_OPTION_ARG_STRING, &fo->ci,
      N_("Profile-likelihood confidence intervals at 1, 2 and 3σ of these fitted "
         "parameters (comma separated)"), N_("PAR,...") },
    { "mcmc", 0, 0, G_OPTION_ARG_STRING, &fo->mcmc,
      N_("MCMC uncertainties of the main fit (emcee's stretch moves, the bounds as priors; "
         "without --sigma the noise scale is sampled as __lnsigma): STEPS, WALKERS "
         "(default max(2 (parameters + 1), 32)) and the burn-in (default STEPS/10); writes "
         "mcmc.csv (per parameter the median, the 2σ and 1σ quantiles and the "
         "autocorrelation time; the acceptance fraction) and mcmc_chain.csv (the kept chain)"),
      N_("STEPS[,WALKERS[,BURN]]") },
    { "mcmc-seed", 0, 0, G_OPTION_ARG_STRING, &fo->mcmc_seed,
      N_("Seed of the MCMC random numbers (default 1)"), N_("N") },
    { "baseline-only", 0, 0, G_OPTION_ARG_NONE, &fo->baseline_only,
      N_("Fit the baseline alone (no 2D fit); --ci and --mcmc then analyse the baseline "
         "fit"), NULL },
    { "independent", 0, 0, G_OPTION_ARG_NONE, &fo->independent,
      N_("Several files: fit each alone, not jointly"), NULL },
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
  const GOptionEntry trace_entries[] = {
    { "param", 0, 0, G_OPTION_ARG_STRING, &c->trace_param,
      N_("The parameter whose slice-by-slice trace is fitted against delay with its "
         "--dynamics"), N_("PAR") },
    { "2d", 0, 0, G_OPTION_ARG_NONE, &c->then_2d,
      N_("Then the 2D fit, starting its time model from the trace fit"), NULL },
    G_OPTION_ENTRY_NULL
  };
  const XrlabCliSpec trace_spec = {
    .parameter_string = _("— fit a slice-by-slice trace against delay"),
    .summary =
      _("Fits every delay alone (slice by slice, after the baseline with --baseline-model) "
        "and then the trace of --param, its values against delay weighted by their errors, "
        "with the time dependence that --dynamics gives it (exponentials, IRF convolution, "
        "...): the time model alone, without the spectra, as the start of a 2D fit (--2d "
        "runs it from there). The options are those of fit.\n\n"
        "Writes into OUTDIR sbs.csv and the baseline's files as fit does, trace_params.csv "
        "and trace_metrics.csv (the formats of params.csv and metrics.csv), trace.csv "
        "(delay,value,error,model: the slices used and the fitted trace), and with --2d the "
        "files of the 2D fit."),
    .description = description,
    .entries = { entries, fit_entries, trace_entries },
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

  xrlab_cli_set_output_help (entries, N_("Folder for the results (created if needed), or one "
                                         "HDF5 file FILE.h5"), N_("OUTDIR"));
  if (!xrlab_cli_parse_options (c->trace ? &trace_spec : &spec, &argc, &argv))
    return XRLAB_CLI_USAGE;
  return fit_check_options (c, argc, argv);
}

static gint
compare_filenames (gconstpointer a, gconstpointer b)
{
  g_autofree char *ka = g_utf8_collate_key_for_filename (*(char *const *) a, -1);
  g_autofree char *kb = g_utf8_collate_key_for_filename (*(char *const *) b, -1);

  return strcmp (ka, kb);
}

/* The files a --data names: itself, or what a pattern (* ? [) matches in
 * its folder, in the order of their names (data_2 before data_10). */
static gboolean
expand_data (const char *arg, GPtrArray *out)
{
  g_autofree char *dir = NULL, *base = NULL;
  g_autoptr(GPatternSpec) pattern = NULL;
  g_autoptr(GDir) d = NULL;
  g_autoptr(GPtrArray) hits = NULL;
  const char *name;

  if (g_file_test (arg, G_FILE_TEST_EXISTS) || strpbrk (arg, "*?[") == NULL)
    {
      g_ptr_array_add (out, g_strdup (arg));
      return TRUE;
    }
  dir = g_path_get_dirname (arg);
  base = g_path_get_basename (arg);
  pattern = g_pattern_spec_new (base);
  if ((d = g_dir_open (dir, 0, NULL)) == NULL)
    return FALSE;
  hits = g_ptr_array_new ();
  while ((name = g_dir_read_name (d)) != NULL)
    if (g_pattern_spec_match_string (pattern, name))
      g_ptr_array_add (hits, g_build_filename (dir, name, NULL));
  g_ptr_array_sort (hits, compare_filenames);
  for (guint i = 0; i < hits->len; i++)
    g_ptr_array_add (out, hits->pdata[i]);
  return hits->len > 0;
}

/* The name of a file's results: its base name without the extension,
 * made unique with _2, _3, ... */
static char *
file_name (const char *path, GArray *files)
{
  g_autofree char *base = g_path_get_basename (path);
  char *dot = strrchr (base, '.');
  char *name;

  if (dot != NULL && dot != base && !g_file_test (path, G_FILE_TEST_IS_DIR))
    *dot = '\0';
  name = g_strdup (base);
  for (guint k = 2;; k++)
    {
      gboolean taken = FALSE;

      for (guint i = 0; i < files->len && !taken; i++)
        taken = g_str_equal (g_array_index (files, FitFile, i).name, name);
      if (!taken)
        return name;
      g_free (name);
      name = g_strdup_printf ("%s_%u", base, k);
    }
}

/* Every --data as a measurement: a file with the axes of --energy, --time
 * and --aux, or a folder with axes of its own. Returns the exit status. */
static int
fit_files (FitCommand *c)
{
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; c->fo.data[i]; i++)
    if (!expand_data (c->fo.data[i], paths))
      return xrlab_cli_failf (_("--data “%s”: no file matches"), c->fo.data[i]);
  c->files = g_array_new (FALSE, TRUE, sizeof (FitFile));
  g_array_set_clear_func (c->files, fit_file_clear);
  for (guint i = 0; i < paths->len; i++)
    {
      const char *path = paths->pdata[i];
      FitFile f = { .name = file_name (path, c->files) };

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        {
          g_autoptr(GError) error = NULL;
          XrlabDatasetSource src;

          if (!xrlab_dataset_files_find (path, &f.found, &src, &error))
            {
              g_free (f.name);
              return xrlab_cli_fail (error);
            }
          f.data = f.found.data, f.energy = f.found.energy;
          f.time = f.found.time, f.aux = f.found.aux;
        }
      else
        {
          g_autofree char *h5file = NULL, *h5path = NULL;

          f.data = path, f.energy = c->o.energy, f.time = c->o.time, f.aux = c->o.aux;
          f.nexus = !xrlab_h5_split_spec (path, &h5file, &h5path) && xrlab_h5_is_hdf5 (path);
        }
      if (f.nexus && (f.energy != NULL || f.time != NULL))
        {
          int status = xrlab_cli_usage (c->cmd, _("--data %s: a NeXus file alone brings its own "
                                                  "axes; leave out --energy and --time, or name "
                                                  "each dataset as FILE:/PATH"), path);
          g_free (f.name);
          return status;
        }
      if (f.energy == NULL && !f.nexus)
        {
          g_free (f.name);
          return xrlab_cli_usage (c->cmd, _("--data, --energy and -o are required"));
        }
      if (f.time == NULL && !f.nexus && (c->fo.baseline || c->fo.sbs || c->fo.sbs_only || c->fo.tlim
                             || c->trace))
        {
          g_free (f.name);
          return xrlab_cli_usage (c->cmd, _("--baseline, --sbs and --tlim need --time"));
        }
      g_array_append_val (c->files, f);
    }
  /* the paths of files stay alive: FitFile.data points into them */
  for (guint i = 0; i < c->files->len; i++)
    {
      FitFile *f = &g_array_index (c->files, FitFile, i);

      if (f->found.data == NULL)
        {
          f->found.data = g_strdup (f->data);
          f->data = f->found.data;
        }
    }
  if (c->fo.independent && c->files->len < 2)
    return xrlab_cli_usage (c->cmd, _("--independent needs several --data"));
  if (fit_is_joint (c) && (c->fo.sbs || c->fo.sbs_only || c->fo.baseline_only || c->fo.ci
                           || c->fo.mcmc))
    return xrlab_cli_usage (c->cmd, _("a joint fit of several files offers no --sbs, "
                                     "--sbs-only, --baseline-only, --ci or --mcmc (fit them "
                                     "one by one with --independent)"));
  if (fit_is_joint (c) && c->fo.baseline_model == NULL)
    return xrlab_cli_usage (c->cmd, _("a joint fit of several files needs --baseline-model "
                                     "(each file starts from its own baseline)"));
  return XRLAB_CLI_OK;
}

/* The model options as the service takes them, the files, OUTDIR, and
 * --sigma: a number or a file. Returns the exit status. */
static int
fit_prepare (FitCommand *c)
{
  int status = XRLAB_CLI_OK;
  XrlabCliModelOptions bo = { 0 };

  g_autoptr(GError) error = NULL;

  if (!xrlab_cli_model_parts_parse (c->cmd, &c->o, &c->parts, &status))
    return status;
  /* --baseline-profile (and --set) for the baseline model */
  bo.models = c->o.models, bo.model = c->o.model;
  bo.profiles = c->fo.baseline_profiles, bo.sets = c->o.sets;
  if (!xrlab_cli_model_parts_parse (c->cmd, &bo, &c->baseline_parts, &status))
    return status;
  if ((status = fit_files (c)) != XRLAB_CLI_OK)
    return status;
  if (!xrlab_fit_result_dir_check (c->o.output, &error))
    return xrlab_cli_fail (error);
  if (c->fo.sigma && !xrlab_parse_double (c->fo.sigma, FALSE, &c->sigma_value)
      && !g_file_test (c->fo.sigma, G_FILE_TEST_EXISTS))
    return xrlab_cli_failf (_("--sigma “%s”: neither a number nor a file"), c->fo.sigma);
  return XRLAB_CLI_OK;
}

/* The dataset and the setup of @f; the setup's error first (the models are
 * read before the data), the dataset's when the setup only lacks it.
 * Returns the exit status. */
static int
fit_open (FitCommand *c, FitFile *f)
{
  XrlabCliModelParts *mp = &c->parts, *bp = &c->baseline_parts;
  XrlabDatasetSource src = { .kind = f->nexus ? XRLAB_DATASET_NEXUS : XRLAB_DATASET_FILES,
                             .data = f->data,
                             .energy = f->energy, .time = f->time, .aux = f->aux,
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
  /* its own profiles; the --set options that name a parameter of it */
  spec.baseline_profiles = (const XrlabFitProfile *) bp->profiles->data;
  spec.n_baseline_profiles = bp->profiles->len;
  spec.baseline_values = spec.values, spec.n_baseline_values = spec.n_values;
  spec.e0 = c->e0, spec.e1 = c->e1, spec.t0 = c->t0, spec.t1 = c->t1;
  spec.b0 = c->b0, spec.b1 = c->b1;
  spec.method = c->method;
  spec.scale_covar = c->scale_covar;
  spec.pin_to_baseline = c->fo.pin;
  spec.n_threads = (guint) c->fo.threads;
  spec.max_values = xrlab_cli_max_values ();
  if (c->fo.sigma && xrlab_parse_double (c->fo.sigma, FALSE, &c->sigma_value))
    spec.sigma.from = XRLAB_FIT_SIGMA_FROM_VALUE, spec.sigma.value = c->sigma_value;
  else if (c->fo.sigma)
    spec.sigma.from = XRLAB_FIT_SIGMA_FROM_FILE, spec.sigma.file = c->fo.sigma;
  f->setup = xrlab_engine_fit_setup_new_async (c->client.engine, &spec, NULL, xrlab_engine_reply_cb, &rs);

  info = xrlab_engine_dataset_open_finish (c->client.engine, xrlab_engine_reply_wait (&rd), &ds_error);
  ok = xrlab_engine_fit_setup_finish (c->client.engine, xrlab_engine_reply_wait (&rs), &error);
  xrlab_engine_reply_clear (&rd);
  xrlab_engine_reply_clear (&rs);
  f->has_time = info != NULL && info->has_time;
  if (ok)
    return XRLAB_CLI_OK;
  if (ds_error != NULL
      && g_error_matches (error, XRLAB_ENGINE_FIT_ERROR, XRLAB_ENGINE_FIT_ERROR_NO_DATASET))
    {
      g_clear_error (&error);
      error = g_steal_pointer (&ds_error);
    }
  if (c->files->len > 1)
    g_prefix_error (&error, "%s: ", f->name);
  return xrlab_cli_fail (error);
}

/* The workflow of one file as one job: every stage checked before any fit,
 * then the baseline, slice by slice, the main fit (2D or one spectrum), the
 * confidence intervals, MCMC. Ctrl-C stops the fits between iterations.
 * Returns the exit status. */
static int
fit_run (FitCommand *c, FitFile *f)
{
  XrlabFitJobSpec job = {
    .kind = XRLAB_FIT_JOB_WORKFLOW,
    .stages = (c->fo.sbs_only || c->fo.baseline_only || (c->trace && !c->then_2d)
               ? 0 : XRLAB_FIT_STAGES_MAIN)
              | (c->fo.baseline_model ? XRLAB_FIT_STAGES_BASELINE : 0)
              | (c->fo.sbs || c->fo.sbs_only || c->trace ? XRLAB_FIT_STAGES_SBS : 0)
              | (c->trace ? XRLAB_FIT_STAGES_TRACE : 0),
    .trace_param = c->trace_param,
    .ci_names = (const char *const *) c->ci_names,
    .n_ci_names = c->ci_names ? g_strv_length (c->ci_names) : 0,
    .mcmc_steps = c->mcmc_steps, .mcmc_walkers = c->mcmc_walkers, .mcmc_burn = c->mcmc_burn,
    .mcmc_seed = c->mcmc_seed,
  };
  g_autoptr(GError) error = NULL;
  XrlabEngineReply r = { 0 };
  gboolean ok;

  xrlab_engine_fit_run_async (c->client.engine, f->setup, &job, progress_cb, &c->progress, NULL,
                              xrlab_cli_interrupt_cancellable (), xrlab_engine_reply_cb, &r);
  ok = xrlab_engine_fit_run_finish (c->client.engine, xrlab_engine_reply_wait (&r), &error);
  xrlab_engine_reply_clear (&r);
  progress_end (&c->progress);
  if (!ok && c->files->len > 1 && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_prefix_error (&error, "%s: ", f->name);
  return ok ? XRLAB_CLI_OK : fit_failed (error);
}

/* The joint fit of every file as one job. Returns the exit status. */
static int
fit_run_project (FitCommand *c)
{
  g_autofree guint *setups = g_new (guint, c->files->len);
  g_autofree const char **names = g_new0 (const char *, c->files->len + 1);
  XrlabFitProjectSpec spec = {
    .setups = setups, .n_setups = c->files->len, .names = names,
    .stages = XRLAB_FIT_STAGES_BASELINE | XRLAB_FIT_STAGES_MAIN,
  };
  g_autoptr(GError) error = NULL;
  XrlabEngineReply r = { 0 };

  for (guint i = 0; i < c->files->len; i++)
    {
      setups[i] = g_array_index (c->files, FitFile, i).setup;
      names[i] = g_array_index (c->files, FitFile, i).name;
    }
  xrlab_engine_fit_project_run_async (c->client.engine, &spec, progress_cb, &c->progress, NULL,
                                      xrlab_cli_interrupt_cancellable (), xrlab_engine_reply_cb,
                                      &r);
  c->project = xrlab_engine_fit_project_run_finish (c->client.engine,
                                                    xrlab_engine_reply_wait (&r), &error);
  xrlab_engine_reply_clear (&r);
  progress_end (&c->progress);
  return c->project ? XRLAB_CLI_OK : fit_failed (error);
}

/* The result set of @f, written by the engine into @outdir; then the
 * results for the summary. Returns the exit status. */
static int
fit_write (FitCommand *c, FitFile *f, const char *outdir)
{
  g_autoptr(GError) error = NULL;
  XrlabEngineReply r = { 0 };
  gboolean ok;

  xrlab_engine_fit_write_async (c->client.engine, f->setup, outdir,
                                xrlab_cli_interrupt_cancellable (), xrlab_engine_reply_cb, &r);
  ok = xrlab_engine_fit_write_finish (c->client.engine, xrlab_engine_reply_wait (&r), &error);
  xrlab_engine_reply_clear (&r);
  if (!ok)
    return fit_failed (error);
  xrlab_engine_fit_results_async (c->client.engine, f->setup, "summary", NULL, xrlab_engine_reply_cb, &r);
  f->results = xrlab_engine_fit_results_finish (c->client.engine, xrlab_engine_reply_wait (&r), &error);
  xrlab_engine_reply_clear (&r);
  return f->results ? XRLAB_CLI_OK : xrlab_cli_fail (error);
}

/* Every file's result set: into OUTDIR (one file) or OUTDIR/NAME, and
 * project.csv of a joint fit. Returns the exit status. */
static int
fit_write_all (FitCommand *c)
{
  int status = XRLAB_CLI_OK;

  g_autoptr(GError) error = NULL;

  if (c->files->len == 1)
    return fit_write (c, &g_array_index (c->files, FitFile, 0), c->o.output);
  if (g_mkdir_with_parents (c->o.output, 0777) != 0)
    return xrlab_cli_failf (_("Cannot create the folder %s: %s"), c->o.output,
                            g_strerror (errno));
  for (guint i = 0; i < c->files->len && status == XRLAB_CLI_OK; i++)
    {
      FitFile *f = &g_array_index (c->files, FitFile, i);
      g_autofree char *dir = g_build_filename (c->o.output, f->name, NULL);

      status = fit_write (c, f, dir);
    }
  if (status == XRLAB_CLI_OK && c->project != NULL)
    {
      g_autofree char *path = g_build_filename (c->o.output, "project.csv", NULL);

      if (!xrlab_fit_project_write (c->project, path, &error))
        status = xrlab_cli_fail (error);
    }
  return status;
}

/* The MCMC of a result: its chain's health, then per parameter the median
 * and the 1σ and 2σ quantiles. */
static void
print_mcmc (const XrlabFitResults *r)
{
  const XrlabMcmcResult *m = r->mcmc;
  char a[XRLAB_DTOA_BUFSIZE], b[XRLAB_DTOA_BUFSIZE], d[XRLAB_DTOA_BUFSIZE],
       e[XRLAB_DTOA_BUFSIZE], t[XRLAB_DTOA_BUFSIZE], u[XRLAB_DTOA_BUFSIZE];

  g_print (_("MCMC (%s): %u walkers × %u steps, %u kept per walker, acceptance %s, "
             "autocorrelation times %s\n"),
           stage_title (r->mcmc_stage), m->n_walkers, m->n_steps, m->n_kept,
           xrlab_format_double (m->acceptance_mean, a),
           m->tau_reliable ? _("reliable") : _("not reliable (the chain is shorter than 50 τ)"));
  for (gsize j = 0; j < m->p; j++)
    g_print ("  %-32s %s −%s +%s (2σ: %s … %s), τ %s\n", m->names[j],
             xrlab_format_double (m->median[j], a),
             xrlab_format_double (m->median[j] - m->lo1[j], b),
             xrlab_format_double (m->hi1[j] - m->median[j], d),
             xrlab_format_double (m->lo2[j], e), xrlab_format_double (m->hi2[j], t),
             xrlab_format_double (m->tau[j], u));
}

/* The summary of one file: each stage's fit quality and fitted parameters. */
static void
fit_print_file (const FitCommand *c, const FitFile *f)
{
  const XrlabFitResults *r = f->results;
  const XrlabFitflowResult *last = r->main ? r->main : r->baseline;

  if (c->files->len > 1)
    g_print ("== %s\n", f->name);
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
  if (r->trace)
    print_result (stage_title (XRLAB_FITFLOW_STAGE_TRACE), r->trace);
  if (r->main)
    print_result (stage_title (fit_is_2d (f) ? XRLAB_FITFLOW_STAGE_2D
                                             : XRLAB_FITFLOW_STAGE_SPECTRUM), r->main);
  if (r->mcmc)
    print_mcmc (r);
  /* which error convention, where it is a choice (with σ or asked for) */
  if (last != NULL && (c->fo.sigma || c->fo.scale_covar))
    g_print ("%s\n", last->fit->covar_scaled
                     ? _("errors: the covariance scaled by the reduced χ² (--scale-covar yes)")
                     : _("errors: the covariance not scaled (--scale-covar no)"));
}

/* The shared result of a joint fit. */
static void
fit_print_project (const XrlabFitProject *p)
{
  char a[XRLAB_DTOA_BUFSIZE], b[XRLAB_DTOA_BUFSIZE];

  g_print (g_dngettext (GETTEXT_PACKAGE,
                        "project (%zu files): reduced χ² %s, %u iteration, %s\n",
                        "project (%zu files): reduced χ² %s, %u iterations, %s\n", p->niter),
           p->n_files, xrlab_format_double (p->redchi, a), p->niter, p->message);
  for (gsize j = 0; j < p->n_shared; j++)
    g_print ("  %-32s %s ± %s\n", p->shared_names[j],
             xrlab_format_double (p->shared_values[j], a),
             xrlab_format_double (p->shared_errors[j], b));
}

/* parse options → the setups → the workflows (or the joint fit) → the
 * result sets → the summary */
static int
fit_main (int argc, char **argv, gboolean trace)
{
  g_auto(FitCommand) c = { .cmd = trace ? "fit-trace" : "fit", .trace = trace,
                           .progress = { .tty = isatty (STDERR_FILENO) } };
  int status = fit_parse_options (&c, argc, argv);

  if (status == XRLAB_CLI_OK)
    status = fit_prepare (&c);
  if (status == XRLAB_CLI_OK)
    xrlab_cli_client_init (&c.client);
  for (guint i = 0; status == XRLAB_CLI_OK && i < c.files->len; i++)
    status = fit_open (&c, &g_array_index (c.files, FitFile, i));
  if (status == XRLAB_CLI_OK && fit_is_joint (&c))
    status = fit_run_project (&c);
  for (guint i = 0; status == XRLAB_CLI_OK && !fit_is_joint (&c) && i < c.files->len; i++)
    status = fit_run (&c, &g_array_index (c.files, FitFile, i));
  if (status == XRLAB_CLI_OK)
    status = fit_write_all (&c);
  for (guint i = 0; status == XRLAB_CLI_OK && i < c.files->len; i++)
    fit_print_file (&c, &g_array_index (c.files, FitFile, i));
  if (status == XRLAB_CLI_OK && c.project != NULL)
    fit_print_project (c.project);
  return status;
}

int
xrlab_cli_fit (int argc, char **argv)
{
  return fit_main (argc, argv, FALSE);
}

int
xrlab_cli_fit_trace (int argc, char **argv)
{
  return fit_main (argc, argv, TRUE);
}
