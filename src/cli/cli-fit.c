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
  g_autoptr(XrlabModel) m = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree double *y = NULL;
  XrlabNoiseKind kind = XRLAB_NOISE_NONE;
  double level = 0.0, scale = NAN;
  guint64 seed = 1;
  int status = XRLAB_CLI_OK;

  set_output_help (entries, N_("Output file (the layout of eval)"), N_("FILE"));
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

  if (status == XRLAB_CLI_OK && (m = xrlab_cli_load_model ("simulate", &o, &status)) != NULL
      && xrlab_cli_read_axes (&o, &ax, &status)
      && xrlab_cli_check_model_size (m, &ax, FALSE, &status))
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

/* FALSE when Ctrl-C came: the files stop there (the exit status says so). */
static gboolean
not_interrupted (GError **error)
{
  return !g_cancellable_set_error_if_cancelled (xrlab_cli_interrupt_cancellable (), error);
}

static gboolean
write_text (const char *dir, const char *name, char *text, GError **error)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *owned = text;

  return not_interrupted (error) && xrlab_write_file_atomic (path, owned, -1, error);
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
      return xrlab_cli_interrupt_status ();
    }
  return xrlab_cli_fail (error);
}

/* A fit: its options, its inputs, the workflow and what the stages found. */
typedef struct {
  XrlabCliModelOptions o;
  FitOptions fo;
  /* the options, parsed */
  double b0, b1, e0, e1, t0, t1;  /* --baseline, --elim, --tlim (NaN: open) */
  XrlabFitMethod method;
  char **ci_names;
  /* the inputs */
  XrlabModel *m;
  XrlabModel *bm;                 /* the baseline model, or NULL */
  XrlabCliAxes ax;
  double *data;
  gsize rows, cols;
  double *sigma;
  gsize n_sigma;
  XrlabFitSigmaKind sigma_kind;
  /* the workflow and its results */
  XrlabFitflow *flow;
  Progress progress;
  XrlabFitflowResult *base;
  XrlabFitflowSbs *sbs;
  XrlabFitflowResult *main_fit;
  XrlabFitCI *ci;
} FitCommand;

static void
fit_command_clear (FitCommand *c)
{
  g_clear_pointer (&c->ci, xrlab_fit_ci_free);
  g_clear_pointer (&c->main_fit, xrlab_fitflow_result_free);
  g_clear_pointer (&c->sbs, xrlab_fitflow_sbs_free);
  g_clear_pointer (&c->base, xrlab_fitflow_result_free);
  g_clear_pointer (&c->flow, xrlab_fitflow_free);
  g_clear_pointer (&c->bm, xrlab_model_free);
  g_clear_pointer (&c->m, xrlab_model_free);
  g_clear_pointer (&c->sigma, g_free);
  g_clear_pointer (&c->data, g_free);
  xrlab_cli_axes_clear (&c->ax);
  g_clear_pointer (&c->ci_names, g_strfreev);
  fit_options_clear (&c->fo);
  xrlab_cli_model_options_clear (&c->o);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (FitCommand, fit_command_clear)

static gboolean
fit_is_2d (const FitCommand *c)
{
  return c->ax.time != NULL;
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
  if (argc > 1)
    status = xrlab_cli_usage ("fit", _("unexpected argument “%s”"), argv[1]);
  else if (fo->data == NULL || c->o.energy == NULL || c->o.output == NULL)
    status = xrlab_cli_usage ("fit", _("--data, --energy and -o are required"));
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
  else if (c->o.time == NULL && (fo->baseline || fo->sbs || fo->tlim))
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
        "and the exit status is 130 (143). While the results are written, it stops before "
        "the next file, with the same exit status and no summary."), "\n", limit, NULL);
  const GOptionEntry fit_entries[] = {
    { "data", 0, 0, G_OPTION_ARG_FILENAME, &fo->data,
      N_("The measurement: one row per delay, one column per energy, comma separated, no "
         "header (one row for a single spectrum); nan allowed outside the fit window"),
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
        "(name,-3sigma,-2sigma,-1sigma,best,+1sigma,+2sigma,+3sigma) with --ci. Every file "
        "is written whole or not at all, and only when every fit succeeded. Progress goes "
        "to stderr when it is a terminal; a summary to stdout."),
    .description = description,
    .entries = { entries, fit_entries },
  };

  set_output_help (entries, N_("Folder for the results (created if needed)"), N_("OUTDIR"));
  if (!xrlab_cli_parse_options (&spec, &argc, &argv))
    return XRLAB_CLI_USAGE;
  return fit_check_options (c, argc, argv);
}

/* The models, the axes, the data and their σ. Returns the exit status. */
static int
fit_read_inputs (FitCommand *c)
{
  g_autoptr(GError) error = NULL;
  int status = XRLAB_CLI_OK;

  if ((c->m = xrlab_cli_load_model ("fit", &c->o, &status)) == NULL)
    return status;
  if (c->fo.baseline_model
      && (c->bm = load_baseline_model (&c->o, c->fo.baseline_model, &status)) == NULL)
    return status;
  if (!xrlab_cli_read_axes (&c->o, &c->ax, &status)
      || !xrlab_cli_check_model_size (c->m, &c->ax, TRUE, &status))
    return status;
  c->data = xrlab_read_csv_matrix (c->fo.data, TRUE, &c->rows, &c->cols, &error);
  if (c->data == NULL)
    return xrlab_cli_fail (error);
  if (c->fo.sigma && !read_sigma (c->fo.sigma, c->rows, c->cols, fit_is_2d (c), &c->sigma_kind,
                                  &c->sigma, &c->n_sigma, &status))
    return status;
  return XRLAB_CLI_OK;
}

/* The workflow over the data, with the options, the window and σ, and
 * every stage checked before any fit. Returns the exit status. */
static int
fit_build_workflow (FitCommand *c)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dn = g_path_get_basename (c->fo.data);
  g_autofree char *en = g_path_get_basename (c->o.energy);
  g_autofree char *tn = c->o.time ? g_path_get_basename (c->o.time) : NULL;
  XrlabFitflowData fd = {
    .data = c->data, .n_rows = c->rows, .n_cols = c->cols,
    .energy = c->ax.energy, .n_energy = c->ax.n_e, .time = c->ax.time, .n_time = c->ax.n_t,
    .aux = c->ax.aux, .n_aux = c->ax.n_a,
    .data_name = dn, .energy_name = en, .time_name = tn,
  };
  XrlabFitflowOptions opts;

  c->flow = xrlab_fitflow_new (&fd, &error);
  if (c->flow == NULL)
    return xrlab_cli_fail (error);
  xrlab_fitflow_options_init (&opts);
  opts.method = c->method;
  opts.pin_to_baseline = c->fo.pin;
  opts.n_threads = (guint) c->fo.threads;
  opts.progress = progress_cb;
  opts.progress_data = &c->progress;
  xrlab_fitflow_set_options (c->flow, &opts);
  if (!xrlab_fitflow_set_window (c->flow, c->e0, c->e1, c->t0, c->t1, &error)
      || (c->sigma && !xrlab_fitflow_set_sigma (c->flow, c->sigma_kind, c->sigma, c->n_sigma,
                                                &error)))
    return xrlab_cli_fail (error);

  if ((c->bm && !xrlab_fitflow_check (c->flow, XRLAB_FITFLOW_STAGE_BASELINE, c->bm, c->b0, c->b1,
                                      0, NULL, &error))
      || (c->fo.sbs && !xrlab_fitflow_check (c->flow, XRLAB_FITFLOW_STAGE_SBS, c->m, NAN, NAN, 0,
                                             c->bm, &error))
      || !xrlab_fitflow_check (c->flow, fit_is_2d (c) ? XRLAB_FITFLOW_STAGE_2D
                                                      : XRLAB_FITFLOW_STAGE_SPECTRUM,
                               c->m, NAN, NAN, 0, c->bm, &error))
    return xrlab_cli_fail (error);
  return XRLAB_CLI_OK;
}

/* The end of a stage that returned @ok. Returns the exit status. */
static int
stage_done (FitCommand *c, gboolean ok, const GError *error)
{
  progress_end (&c->progress);
  return ok ? XRLAB_CLI_OK : fit_failed (error);
}

/* The stages: the baseline, slice by slice, the main fit (2D or one
 * spectrum), the confidence intervals. Ctrl-C stops the fits between
 * iterations. Returns the exit status. */
static int
fit_run_stages (FitCommand *c)
{
  GCancellable *interrupt = xrlab_cli_interrupt_cancellable ();
  g_autoptr(GError) error = NULL;
  int status = XRLAB_CLI_OK;
  gboolean ok;

  if (c->bm)
    {
      ok = xrlab_fitflow_fit_baseline (c->flow, c->bm, c->b0, c->b1, interrupt, &c->base, &error);
      if ((status = stage_done (c, ok, error)) != XRLAB_CLI_OK)
        return status;
    }
  if (c->fo.sbs)
    {
      ok = xrlab_fitflow_fit_sbs (c->flow, c->m, interrupt, &c->sbs, &error);
      if ((status = stage_done (c, ok, error)) != XRLAB_CLI_OK)
        return status;
    }
  ok = fit_is_2d (c) ? xrlab_fitflow_fit_2d (c->flow, c->m, interrupt, &c->main_fit, &error)
                     : xrlab_fitflow_fit_spectrum (c->flow, c->m, 0, interrupt, &c->main_fit,
                                                   &error);
  if ((status = stage_done (c, ok, error)) != XRLAB_CLI_OK)
    return status;
  if (c->ci_names)
    {
      if (!c->main_fit->fit->converged || !c->main_fit->fit->errors_valid)
        return xrlab_cli_failf (_("--ci: the fit did not converge to a minimum with "
                                  "valid errors (%s)"), c->main_fit->fit->message);
      c->ci = xrlab_fitflow_conf_interval (c->main_fit, (const char *const *) c->ci_names,
                                           g_strv_length (c->ci_names), NULL, 0, NULL, &error);
      if (c->ci == NULL)
        return xrlab_cli_fail (error);
    }
  return XRLAB_CLI_OK;
}

/* Every file of OUTDIR (see the summary of --help). Returns the exit
 * status. */
static int
fit_write_results (FitCommand *c)
{
  g_autoptr(GError) error = NULL;
  g_autofree double *model_map = NULL, *resid = NULL;
  g_autofree char *fit_path = NULL, *res_path = NULL;
  const char *dir = c->o.output;
  gsize mr, mc;

  model_map = xrlab_fitflow_result_model (c->flow, c->main_fit, &mr, &mc, &error);
  if (model_map == NULL)
    return xrlab_cli_fail (error);
  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      int e = errno;
      return xrlab_cli_failf (_("Cannot create the folder %s: %s"), dir, g_strerror (e));
    }
  resid = g_new (double, mr * mc);
  for (gsize i = 0; i < mr * mc; i++)
    resid[i] = c->data[i] - model_map[i];
  fit_path = g_build_filename (dir, "fit.csv", NULL);
  res_path = g_build_filename (dir, "residual.csv", NULL);
  if (!write_text (dir, "params.csv", params_csv (c->main_fit), &error)
      || !write_text (dir, "metrics.csv", metrics_csv (c->main_fit), &error)
      || !write_text (dir, "correl.csv", correl_csv (c->main_fit), &error)
      || !not_interrupted (&error) || !xrlab_write_csv_matrix (fit_path, model_map, mr, mc, &error)
      || !not_interrupted (&error) || !xrlab_write_csv_matrix (res_path, resid, mr, mc, &error)
      || (c->base && !write_text (dir, "baseline_params.csv", params_csv (c->base), &error))
      || (c->base && !write_text (dir, "baseline_metrics.csv", metrics_csv (c->base), &error))
      || (c->sbs && !write_text (dir, "sbs.csv", sbs_csv (c->sbs), &error))
      || (c->ci && !write_text (dir, "ci.csv", ci_csv (c->ci, c->ci_names), &error))
      || !not_interrupted (&error))
    {
      /* interrupted: nothing more is printed */
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return xrlab_cli_interrupt_status ();
      return xrlab_cli_fail (error);
    }
  return XRLAB_CLI_OK;
}

/* The summary on stdout: each stage's fit quality and fitted parameters. */
static void
fit_print_summary (const FitCommand *c)
{
  if (c->base)
    print_result (stage_title (XRLAB_FITFLOW_STAGE_BASELINE), c->base);
  if (c->sbs)
    {
      gsize conv = 0;
      for (gsize k = 0; k < c->sbs->n_slices; k++)
        conv += c->sbs->done[k] && c->sbs->converged[k];
      g_print (g_dngettext (GETTEXT_PACKAGE, "slice-by-slice: %zu of %zu delay converged\n",
                            "slice-by-slice: %zu of %zu delays converged\n", c->sbs->n_slices),
               conv, c->sbs->n_slices);
    }
  print_result (stage_title (fit_is_2d (c) ? XRLAB_FITFLOW_STAGE_2D
                                           : XRLAB_FITFLOW_STAGE_SPECTRUM), c->main_fit);
}

/* parse options → read the inputs → build the workflow → run the stages →
 * write the results */
int
xrlab_cli_fit (int argc, char **argv)
{
  g_auto(FitCommand) c = { .progress = { .tty = isatty (STDERR_FILENO) } };
  int status = fit_parse_options (&c, argc, argv);

  if (status == XRLAB_CLI_OK)
    status = fit_read_inputs (&c);
  if (status == XRLAB_CLI_OK)
    status = fit_build_workflow (&c);
  if (status == XRLAB_CLI_OK)
    status = fit_run_stages (&c);
  if (status == XRLAB_CLI_OK)
    status = fit_write_results (&c);
  if (status == XRLAB_CLI_OK)
    fit_print_summary (&c);
  return status;
}
