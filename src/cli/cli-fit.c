/* cli-fit.c -- xrlab-cli simulate and fit
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
#include "xrlab-fitflow.h"
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

/* ---- simulate ------------------------------------------------------------------------- */

int
xrlab_cli_simulate (int argc, char **argv)
{
  XrlabCliModelOptions o = { 0 };
  XrlabCliAxes ax = { 0 };
  g_autofree GOptionEntry *entries = xrlab_cli_model_entries (&o);
  g_autofree char *noise = NULL, *level_text = NULL, *seed_text = NULL;
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
  g_autoptr(GOptionContext) ctx = g_option_context_new (_("— synthetic data from a model"));
  g_autoptr(XrlabModel) m = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree double *y = NULL;
  XrlabNoiseKind kind = XRLAB_NOISE_NONE;
  double level = 0.0, scale = NAN;
  guint64 seed = 1;
  int status = XRLAB_CLI_OK;

  set_output_help (entries, N_("Output file (the layout of eval)"), N_("FILE"));
  g_option_context_set_summary (ctx,
    _("Writes the model at its parameter values plus noise, in the layout of eval and "
      "of the data of fit: one row per delay, one column per energy. Gaussian noise has "
      "σ = L·max|model|; Poisson noise draws counts N ~ Poisson(s·model) and writes N/s "
      "with s = 1/(L²·max model), so the relative noise at the maximum is L. The random "
      "numbers are GSL's MT19937 seeded with --seed (gsl_ran_gaussian, gsl_ran_poisson; "
      "one draw per point, row by row): the same seed gives the same data. Prints "
      "noise_sigma= (Gaussian) or noise_counts_per_unit= (Poisson) on stdout."));
  g_option_context_add_main_entries (ctx, entries, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (ctx, sim_entries, GETTEXT_PACKAGE);
  if (!xrlab_cli_parse (ctx, &argc, &argv))
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

  if (status == XRLAB_CLI_OK && (m = xrlab_cli_load_model ("simulate", &o, &status)) != NULL
      && xrlab_cli_read_axes (&o, &ax, &status))
    {
      gsize rows = ax.time ? ax.n_t : 1;
      y = xrlab_simulate (m, ax.energy, ax.n_e, ax.time, ax.n_t, ax.aux, ax.n_a, kind, level,
                          seed, &scale, &error);
      if (y == NULL)
        status = xrlab_cli_fail (error);
      else if (!xrlab_write_csv_matrix (o.output, y, rows, ax.n_e, &error))
        status = xrlab_cli_fail (error);
      else if (kind != XRLAB_NOISE_NONE && level > 0)
        {
          char b[XRLAB_DTOA_BUFSIZE];
          g_print ("%s=%s\n", kind == XRLAB_NOISE_GAUSSIAN ? "noise_sigma"
                                                            : "noise_counts_per_unit",
                   xrlab_format_double (scale, b));
        }
    }
  xrlab_cli_axes_clear (&ax);
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
progress_cb (XrlabFitflowStage stage, guint step, guint total, double chi2, gpointer data)
{
  Progress *p = data;
  char b[XRLAB_DTOA_BUFSIZE];

  if (!p->tty)
    return;
  fprintf (stderr, "\r%s: ", stage_title (stage));
  if (stage == XRLAB_FITFLOW_STAGE_SBS)
    fprintf (stderr, g_dngettext (GETTEXT_PACKAGE, "%u/%u slice", "%u/%u slices", total),
             step, total);
  else
    fprintf (stderr, _("iteration %u, χ² = %s"), step, xrlab_format_double (chi2, b));
  fputs ("   ", stderr);
  fflush (stderr);
  p->line_open = TRUE;
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

static void
append_num (GString *s, double v)
{
  char b[XRLAB_DTOA_BUFSIZE];
  g_string_append (s, xrlab_format_double (v, b));
}

/* name,value,stderr,vary,min,max,expr */
static char *
params_csv (const XrlabFitflowResult *r)
{
  GString *s = g_string_new ("name,value,stderr,vary,min,max,expr\n");

  for (gsize i = 0; i < r->n_params; i++)
    {
      const XrlabFitflowParam *q = &r->params[i];

      g_string_append_printf (s, "%s,", q->name);
      append_num (s, q->value);
      g_string_append_c (s, ',');
      /* an error for what was fitted or derived from it; nothing for the fixed */
      if (q->fitted || !isnan (q->std_error))
        append_num (s, q->std_error);
      else if (q->expr && r->fit && !r->fit->errors_valid)
        append_num (s, NAN);
      g_string_append_printf (s, ",%s,", q->expr ? "" : q->vary ? "True"
                                         : q->is_static ? "static" : "False");
      if (q->expr == NULL)
        {
          append_num (s, q->min);
          g_string_append_c (s, ',');
          append_num (s, q->max);
        }
      else
        g_string_append_c (s, ',');
      g_string_append_printf (s, ",%s\n", q->expr ? q->expr : "");
    }
  return g_string_free (s, FALSE);
}

/* chi2,redchi,r2,aic,bic,ndata,nvarys,niter,nfev,njev,wall_s */
static char *
metrics_csv (const XrlabFitflowResult *r)
{
  GString *s = g_string_new ("chi2,redchi,r2,aic,bic,ndata,nvarys,niter,nfev,njev,wall_s\n");
  const XrlabFitResult *f = r->fit;

  append_num (s, f->chi2);
  g_string_append_c (s, ',');
  append_num (s, f->redchi);
  g_string_append_c (s, ',');
  append_num (s, f->r2);
  g_string_append_c (s, ',');
  append_num (s, f->aic);
  g_string_append_c (s, ',');
  append_num (s, f->bic);
  g_string_append_printf (s, ",%" G_GSIZE_FORMAT ",%" G_GSIZE_FORMAT ",%u,%u,%u,", f->ndata,
                          f->p, f->niter, f->nfev, f->njev);
  append_num (s, f->wall_s);
  g_string_append_c (s, '\n');
  return g_string_free (s, FALSE);
}

/* The correlation matrix of θ: a header of names, one row per name. */
static char *
correl_csv (const XrlabFitflowResult *r)
{
  GString *s = g_string_new ("name");
  const gsize p = r->n_theta;

  for (gsize j = 0; j < p; j++)
    g_string_append_printf (s, ",%s", r->theta_names[j]);
  g_string_append_c (s, '\n');
  for (gsize i = 0; i < p; i++)
    {
      g_string_append (s, r->theta_names[i]);
      for (gsize j = 0; j < p; j++)
        {
          g_string_append_c (s, ',');
          append_num (s, r->fit->correl[i * p + j]);
        }
      g_string_append_c (s, '\n');
    }
  return g_string_free (s, FALSE);
}

/* delay, every parameter and its error, chi2, redchi, niter, converged */
static char *
sbs_csv (const XrlabFitflowSbs *sb)
{
  GString *s = g_string_new ("delay");
  const gsize n = sb->n_params;

  for (gsize i = 0; i < n; i++)
    g_string_append_printf (s, ",%s,%s_stderr", sb->names[i], sb->names[i]);
  g_string_append (s, ",chi2,redchi,niter,converged\n");
  for (gsize k = 0; k < sb->n_slices; k++)
    {
      append_num (s, sb->delay[k]);
      for (gsize i = 0; i < n; i++)
        {
          double e = sb->errors[k * n + i];
          g_string_append_c (s, ',');
          append_num (s, sb->values[k * n + i]);
          g_string_append_c (s, ',');
          if (sb->fitted[i] || !isnan (e))
            append_num (s, e);
        }
      g_string_append_c (s, ',');
      append_num (s, sb->chi2[k]);
      g_string_append_c (s, ',');
      append_num (s, sb->redchi[k]);
      g_string_append_printf (s, ",%u,%s\n", sb->niter[k],
                              sb->done[k] && sb->converged[k] ? "True" : "False");
    }
  return g_string_free (s, FALSE);
}

/* name,-3sigma,-2sigma,-1sigma,best,+1sigma,+2sigma,+3sigma (absolute values) */
static char *
ci_csv (const XrlabFitCI *ci, char **names)
{
  GString *s = g_string_new ("name");
  const gsize ns = ci->n_sigmas;

  for (gsize k = ns; k-- > 0;)
    g_string_append_printf (s, ",-%gsigma", ci->sigmas[k]);
  g_string_append (s, ",best");
  for (gsize k = 0; k < ns; k++)
    g_string_append_printf (s, ",+%gsigma", ci->sigmas[k]);
  g_string_append_c (s, '\n');
  for (gsize a = 0; a < ci->n_params; a++)
    {
      g_string_append (s, names[a]);
      for (gsize k = ns; k-- > 0;)
        {
          g_string_append_c (s, ',');
          append_num (s, ci->lower[a * ns + k]);
        }
      g_string_append_c (s, ',');
      append_num (s, ci->best[a]);
      for (gsize k = 0; k < ns; k++)
        {
          g_string_append_c (s, ',');
          append_num (s, ci->upper[a * ns + k]);
        }
      g_string_append_c (s, '\n');
    }
  return g_string_free (s, FALSE);
}

static gboolean
write_text (const char *dir, const char *name, char *text, GError **error)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *owned = text;

  return xrlab_write_file_atomic (path, owned, -1, error);
}

/* --sigma: a number, or a file: a matrix of the data's shape (per point),
 * or one column of n_energy (per energy) or n_time (per delay) values. */
static gboolean
read_sigma (const char *text, gsize n_rows, gsize n_cols, gboolean has_time,
            XrlabFitSigmaKind *kind, double **sigma, gsize *n_sigma, int *status)
{
  g_autoptr(GError) error = NULL;
  double v;
  gsize rows, cols;
  double *m;

  if (xrlab_parse_double (text, FALSE, &v))
    {
      *kind = XRLAB_FIT_SIGMA_SCALAR;
      *sigma = g_memdup2 (&v, sizeof v);
      *n_sigma = 1;
      return TRUE;
    }
  if (!g_file_test (text, G_FILE_TEST_EXISTS))
    {
      *status = xrlab_cli_failf (_("--sigma “%s”: neither a number nor a file"), text);
      return FALSE;
    }
  m = xrlab_read_csv_matrix (text, TRUE, &rows, &cols, &error);
  if (m == NULL)
    {
      *status = xrlab_cli_fail (error);
      return FALSE;
    }
  *sigma = m;
  if (rows == n_rows && cols == n_cols)
    *kind = XRLAB_FIT_SIGMA_FULL, *n_sigma = rows * cols;
  else if (cols == 1 && rows == n_cols && !(has_time && n_rows == n_cols))
    *kind = XRLAB_FIT_SIGMA_COLUMNS, *n_sigma = rows;
  else if (cols == 1 && has_time && rows == n_rows && n_rows != n_cols)
    *kind = XRLAB_FIT_SIGMA_ROWS, *n_sigma = rows;
  else
    {
      *status = xrlab_cli_failf (g_dngettext (GETTEXT_PACKAGE,
                                              "--sigma %s: %zu × %zu value fits neither the data "
                                              "(%zu × %zu), one per energy nor one per delay",
                                              "--sigma %s: %zu × %zu values fit neither the data "
                                              "(%zu × %zu), one per energy nor one per delay",
                                              rows * cols),
                                 text, rows, cols, n_rows, n_cols);
      g_clear_pointer (sigma, g_free);
      return FALSE;
    }
  return TRUE;
}

/* The baseline model: the named model of the same file, with the --profile
 * and --set options that name its parameters. */
static XrlabModel *
load_baseline_model (const XrlabCliModelOptions *o, const char *name, int *status)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabModel) m = xrlab_model_load (o->models, name, &error);

  if (m == NULL)
    {
      *status = xrlab_cli_fail (error);
      return NULL;
    }
  for (guint i = 0; o->profiles && o->profiles[i]; i++)
    {
      g_autofree char *par = NULL, *file = NULL;
      g_auto(GStrv) models = NULL;
      double freq;

      if (xrlab_cli_parse_attachment (o->profiles[i], FALSE, &par, &file, &models, &freq)
          && xrlab_model_find_param (m, par) >= 0
          && !xrlab_model_add_profile (m, par, file, models[0], &error))
        {
          *status = xrlab_cli_fail (error);
          return NULL;
        }
    }
  for (guint i = 0; o->sets && o->sets[i]; i++)
    {
      const char *eq = strchr (o->sets[i], '=');
      g_autofree char *par = eq ? g_strndup (o->sets[i], eq - o->sets[i]) : NULL;
      double v;

      if (par && xrlab_model_find_param (m, par) >= 0
          && xrlab_parse_double (eq + 1, FALSE, &v)
          && !xrlab_model_set_value (m, par, v, &error))
        {
          *status = xrlab_cli_fail (error);
          return NULL;
        }
    }
  return g_steal_pointer (&m);
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
      return XRLAB_CLI_INTERRUPTED;
    }
  return xrlab_cli_fail (error);
}

int
xrlab_cli_fit (int argc, char **argv)
{
  XrlabCliModelOptions o = { 0 };
  FitOptions fo = { 0 };
  XrlabCliAxes ax = { 0 };
  g_autofree GOptionEntry *entries = xrlab_cli_model_entries (&o);
  GOptionEntry fit_entries[] = {
    { "data", 0, 0, G_OPTION_ARG_FILENAME, &fo.data,
      N_("The measurement: one row per delay, one column per energy, comma separated, no "
         "header (one row for a single spectrum); nan allowed outside the fit window"),
      N_("FILE") },
    { "baseline-model", 0, 0, G_OPTION_ARG_STRING, &fo.baseline_model,
      N_("Fit the baseline spectrum with this model of --models first; the later fits "
         "start from its result"), N_("NAME") },
    { "baseline", 0, 0, G_OPTION_ARG_STRING, &fo.baseline,
      N_("The delays whose mean is the baseline spectrum"), N_("T0:T1") },
    { "sbs", 0, 0, G_OPTION_ARG_NONE, &fo.sbs,
      N_("Also fit every delay of the window alone (slice by slice, on all processors)"),
      NULL },
    { "elim", 0, 0, G_OPTION_ARG_STRING, &fo.elim,
      N_("Fit window in energy (either side may be empty)"), N_("E0:E1") },
    { "tlim", 0, 0, G_OPTION_ARG_STRING, &fo.tlim,
      N_("Fit window in delay (either side may be empty)"), N_("T0:T1") },
    { "sigma", 0, 0, G_OPTION_ARG_STRING, &fo.sigma,
      N_("Standard deviation of the data: a number, or a file with one value per point "
         "(the data's shape), per energy or per delay (one column); without it the fit "
         "is unweighted and errors are scaled by the reduced χ²"), N_("S") },
    { "ci", 0, 0, G_OPTION_ARG_STRING, &fo.ci,
      N_("Profile-likelihood confidence intervals at 1, 2 and 3σ of these fitted "
         "parameters (comma separated)"), N_("PAR,...") },
    { "method", 0, 0, G_OPTION_ARG_STRING, &fo.method,
      N_("lm (Levenberg–Marquardt, default), lmaccel (with geodesic acceleration) or fd "
         "(finite-difference Jacobian, for comparison)"), N_("METHOD") },
    { "pin-baseline", 0, 0, G_OPTION_ARG_NONE, &fo.pin,
      N_("Fix every parameter with a baseline namesake and no time dependence at its "
         "baseline value in the slice-by-slice and 2D fits"), NULL },
    { "threads", 0, 0, G_OPTION_ARG_INT, &fo.threads,
      N_("Threads of the slice-by-slice fit (default: one per processor)"), N_("N") },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new (_("— fit a spectral model to data"));
  g_autoptr(XrlabModel) m = NULL;
  g_autoptr(XrlabModel) bm = NULL;
  g_autoptr(XrlabFitflow) flow = NULL;
  g_autoptr(XrlabFitflowResult) base = NULL;
  g_autoptr(XrlabFitflowResult) main_fit = NULL;
  g_autoptr(XrlabFitflowSbs) sbs = NULL;
  g_autoptr(XrlabFitCI) ci = NULL;
  g_autoptr(GError) error = NULL;
  GCancellable *interrupt;
  g_auto(GStrv) ci_names = NULL;
  g_autofree double *data = NULL, *sigma = NULL, *model_map = NULL;
  XrlabFitflowOptions opts;
  XrlabFitSigmaKind sigma_kind = XRLAB_FIT_SIGMA_NONE;
  XrlabFitMethod method = XRLAB_FIT_METHOD_LM;
  Progress progress = { .tty = isatty (STDERR_FILENO) };
  double b0 = NAN, b1 = NAN, e0 = NAN, e1 = NAN, t0 = NAN, t1 = NAN;
  gsize rows = 0, cols = 0, n_sigma = 0, mr, mc;
  gboolean is2d;
  int status = XRLAB_CLI_OK;

  set_output_help (entries, N_("Folder for the results (created if needed)"), N_("OUTDIR"));
  g_option_context_set_summary (ctx,
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
      "(name,-3sigma,-2sigma,-1sigma,best,+1sigma,+2sigma,+3sigma) with --ci. Every file "
      "is written whole or not at all, and only when every fit succeeded. Progress goes "
      "to stderr when it is a terminal; a summary to stdout."));
  g_option_context_set_description (ctx,
    _("Ctrl-C stops the fits after the current iteration; nothing is written and the "
      "exit status is 130."));
  g_option_context_add_main_entries (ctx, entries, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (ctx, fit_entries, GETTEXT_PACKAGE);
  if (!xrlab_cli_parse (ctx, &argc, &argv))
    {
      xrlab_cli_model_options_clear (&o);
      fit_options_clear (&fo);
      return XRLAB_CLI_USAGE;
    }

  /* usage */
  if (argc > 1)
    status = xrlab_cli_usage ("fit", _("unexpected argument “%s”"), argv[1]);
  else if (fo.data == NULL || o.energy == NULL || o.output == NULL)
    status = xrlab_cli_usage ("fit", _("--data, --energy and -o are required"));
  else if ((fo.baseline_model == NULL) != (fo.baseline == NULL))
    status = xrlab_cli_usage ("fit", _("--baseline-model and --baseline go together"));
  else if (fo.baseline && !parse_range (fo.baseline, &b0, &b1))
    status = xrlab_cli_usage ("fit", _("--baseline “%s”: expected T0:T1"), fo.baseline);
  else if (fo.baseline && (isnan (b0) || isnan (b1)))
    status = xrlab_cli_usage ("fit", _("--baseline “%s”: both delays are needed"),
                              fo.baseline);
  else if (fo.elim && !parse_range (fo.elim, &e0, &e1))
    status = xrlab_cli_usage ("fit", _("--elim “%s”: expected E0:E1"), fo.elim);
  else if (fo.tlim && !parse_range (fo.tlim, &t0, &t1))
    status = xrlab_cli_usage ("fit", _("--tlim “%s”: expected T0:T1"), fo.tlim);
  else if (fo.pin && fo.baseline_model == NULL)
    status = xrlab_cli_usage ("fit", _("--pin-baseline needs --baseline-model"));
  else if (o.time == NULL && (fo.baseline || fo.sbs || fo.tlim))
    status = xrlab_cli_usage ("fit", _("--baseline, --sbs and --tlim need --time"));
  else if (fo.threads < 0)
    status = xrlab_cli_usage ("fit", _("--threads must not be negative"));
  else if (fo.method && g_str_equal (fo.method, "lm"))
    method = XRLAB_FIT_METHOD_LM;
  else if (fo.method && g_str_equal (fo.method, "lmaccel"))
    method = XRLAB_FIT_METHOD_LM_ACCEL;
  else if (fo.method && g_str_equal (fo.method, "fd"))
    method = XRLAB_FIT_METHOD_FD;
  else if (fo.method)
    status = xrlab_cli_usage ("fit", _("--method “%s”: expected lm, lmaccel or fd"),
                              fo.method);
  if (status == XRLAB_CLI_OK && fo.ci)
    {
      ci_names = g_strsplit (fo.ci, ",", -1);
      for (guint i = 0; ci_names[i]; i++)
        if (*g_strstrip (ci_names[i]) == '\0')
          {
            status = xrlab_cli_usage ("fit", _("--ci “%s”: expected PAR,PAR,..."), fo.ci);
            break;
          }
    }
  if (status != XRLAB_CLI_OK)
    goto out;

  /* input */
  if ((m = xrlab_cli_load_model ("fit", &o, &status)) == NULL)
    goto out;
  if (fo.baseline_model && (bm = load_baseline_model (&o, fo.baseline_model, &status)) == NULL)
    goto out;
  if (!xrlab_cli_read_axes (&o, &ax, &status))
    goto out;
  if ((data = xrlab_read_csv_matrix (fo.data, TRUE, &rows, &cols, &error)) == NULL)
    {
      status = xrlab_cli_fail (error);
      goto out;
    }
  if (fo.sigma && !read_sigma (fo.sigma, rows, cols, ax.time != NULL, &sigma_kind, &sigma,
                               &n_sigma, &status))
    goto out;

  {
    g_autofree char *dn = g_path_get_basename (fo.data);
    g_autofree char *en = g_path_get_basename (o.energy);
    g_autofree char *tn = o.time ? g_path_get_basename (o.time) : NULL;
    XrlabFitflowData fd = {
      .data = data, .n_rows = rows, .n_cols = cols,
      .energy = ax.energy, .n_energy = ax.n_e, .time = ax.time, .n_time = ax.n_t,
      .aux = ax.aux, .n_aux = ax.n_a,
      .data_name = dn, .energy_name = en, .time_name = tn,
    };
    flow = xrlab_fitflow_new (&fd, &error);
  }
  if (flow == NULL)
    {
      status = xrlab_cli_fail (error);
      goto out;
    }
  xrlab_fitflow_options_init (&opts);
  opts.method = method;
  opts.pin_to_baseline = fo.pin;
  opts.n_threads = (guint) fo.threads;
  opts.progress = progress_cb;
  opts.progress_data = &progress;
  xrlab_fitflow_set_options (flow, &opts);
  if (!xrlab_fitflow_set_window (flow, e0, e1, t0, t1, &error)
      || (sigma && !xrlab_fitflow_set_sigma (flow, sigma_kind, sigma, n_sigma, &error)))
    {
      status = xrlab_cli_fail (error);
      goto out;
    }

  /* every check before any fit */
  is2d = ax.time != NULL;
  if ((bm && !xrlab_fitflow_check (flow, XRLAB_FITFLOW_STAGE_BASELINE, bm, b0, b1, 0, NULL,
                                   &error))
      || (fo.sbs && !xrlab_fitflow_check (flow, XRLAB_FITFLOW_STAGE_SBS, m, NAN, NAN, 0, bm,
                                          &error))
      || !xrlab_fitflow_check (flow, is2d ? XRLAB_FITFLOW_STAGE_2D
                                          : XRLAB_FITFLOW_STAGE_SPECTRUM,
                               m, NAN, NAN, 0, bm, &error))
    {
      status = xrlab_cli_fail (error);
      goto out;
    }

  /* the fits; Ctrl-C stops them between iterations */
  interrupt = xrlab_cli_interrupt_cancellable ();
  if (bm)
    {
      gboolean ok = xrlab_fitflow_fit_baseline (flow, bm, b0, b1, interrupt, &base, &error);
      progress_end (&progress);
      if (!ok)
        {
          status = fit_failed (error);
          goto out;
        }
    }
  if (fo.sbs)
    {
      gboolean ok = xrlab_fitflow_fit_sbs (flow, m, interrupt, &sbs, &error);
      progress_end (&progress);
      if (!ok)
        {
          status = fit_failed (error);
          goto out;
        }
    }
  {
    gboolean ok = is2d ? xrlab_fitflow_fit_2d (flow, m, interrupt, &main_fit, &error)
                       : xrlab_fitflow_fit_spectrum (flow, m, 0, interrupt, &main_fit, &error);
    progress_end (&progress);
    if (!ok)
      {
        status = fit_failed (error);
        goto out;
      }
  }
  if (ci_names)
    {
      if (!main_fit->fit->converged || !main_fit->fit->errors_valid)
        {
          status = xrlab_cli_failf (_("--ci: the fit did not converge to a minimum with "
                                      "valid errors (%s)"), main_fit->fit->message);
          goto out;
        }
      ci = xrlab_fitflow_conf_interval (main_fit, (const char *const *) ci_names,
                                        g_strv_length (ci_names), NULL, 0, NULL, &error);
      if (ci == NULL)
        {
          status = xrlab_cli_fail (error);
          goto out;
        }
    }
  model_map = xrlab_fitflow_result_model (flow, main_fit, &mr, &mc, &error);
  if (model_map == NULL)
    {
      status = xrlab_cli_fail (error);
      goto out;
    }

  /* the results */
  if (g_mkdir_with_parents (o.output, 0755) != 0)
    {
      int e = errno;
      status = xrlab_cli_failf (_("Cannot create the folder %s: %s"), o.output,
                                g_strerror (e));
      goto out;
    }
  {
    g_autofree double *resid = g_new (double, mr * mc);
    g_autofree char *fit_path = g_build_filename (o.output, "fit.csv", NULL);
    g_autofree char *res_path = g_build_filename (o.output, "residual.csv", NULL);

    for (gsize i = 0; i < mr * mc; i++)
      resid[i] = data[i] - model_map[i];
    if (!write_text (o.output, "params.csv", params_csv (main_fit), &error)
        || !write_text (o.output, "metrics.csv", metrics_csv (main_fit), &error)
        || !write_text (o.output, "correl.csv", correl_csv (main_fit), &error)
        || !xrlab_write_csv_matrix (fit_path, model_map, mr, mc, &error)
        || !xrlab_write_csv_matrix (res_path, resid, mr, mc, &error)
        || (base && !write_text (o.output, "baseline_params.csv", params_csv (base), &error))
        || (base && !write_text (o.output, "baseline_metrics.csv", metrics_csv (base),
                                 &error))
        || (sbs && !write_text (o.output, "sbs.csv", sbs_csv (sbs), &error))
        || (ci && !write_text (o.output, "ci.csv", ci_csv (ci, ci_names), &error)))
      {
        status = xrlab_cli_fail (error);
        goto out;
      }
  }

  if (base)
    print_result (stage_title (XRLAB_FITFLOW_STAGE_BASELINE), base);
  if (sbs)
    {
      gsize conv = 0;
      for (gsize k = 0; k < sbs->n_slices; k++)
        conv += sbs->done[k] && sbs->converged[k];
      g_print (g_dngettext (GETTEXT_PACKAGE, "slice-by-slice: %zu of %zu delay converged\n",
                            "slice-by-slice: %zu of %zu delays converged\n", sbs->n_slices),
               conv, sbs->n_slices);
    }
  print_result (stage_title (is2d ? XRLAB_FITFLOW_STAGE_2D : XRLAB_FITFLOW_STAGE_SPECTRUM), main_fit);

out:
  xrlab_cli_axes_clear (&ax);
  xrlab_cli_model_options_clear (&o);
  fit_options_clear (&fo);
  return status;
}
