/* cli-simulate.c -- xrlab-cli simulate: options in, a request to the
 * engine's fit service (xrlab-engine-fit.h), the reply printed
 *
 *   xrlab-cli simulate (the model options of eval) [--noise KIND] [--level L]
 *                      [--seed N] [--realisations N] [--sweep PAR=SPEC]...
 *                      [--sweep-strategy grid|random|auto] [--sweep-seed N]
 *                      -o data.csv|FOLDER|FILE.h5
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
#include "xrlab-model.h"
#include "xrlab-simulate.h"
#include "xrlab-util.h"

/* ---- simulate ------------------------------------------------------------------------- */

/* --sweep PAR=V1,V2,... | PAR=uniform:MIN:MAX:N | PAR=normal:MEAN:SD:N |
 * PAR=lognormal:MEAN:SD:N, its strings and values kept in @owned. */
static gboolean
parse_sweep (const char *text, XrlabFitSweepParam *q, GPtrArray *owned)
{
  const char *eq = strchr (text, '=');
  g_auto(GStrv) parts = NULL;
  static const char *const kinds[] = { "uniform", "normal", "lognormal" };

  memset (q, 0, sizeof *q);
  if (eq == NULL || eq == text || eq[1] == '\0')
    return FALSE;
  q->param = g_strndup (text, eq - text);
  g_ptr_array_add (owned, (char *) q->param);
  parts = g_strsplit (eq + 1, ":", -1);
  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    if (g_str_equal (parts[0], kinds[k]))
      {
        guint64 n;

        q->kind = XRLAB_FIT_SWEEP_UNIFORM + k;
        return g_strv_length (parts) == 4 && xrlab_parse_double (parts[1], FALSE, &q->a)
               && xrlab_parse_double (parts[2], FALSE, &q->b)
               && g_ascii_string_to_unsigned (parts[3], 10, 1, G_MAXINT, &n, NULL)
               && (q->n_samples = n) > 0;
      }
  {
    g_auto(GStrv) vals = g_strsplit (eq + 1, ",", -1);
    double *v = g_new (double, g_strv_length (vals) + 1);

    g_ptr_array_add (owned, v);
    q->kind = XRLAB_FIT_SWEEP_VALUES;
    q->values = v;
    for (guint k = 0; vals[k]; k++)
      if (!xrlab_parse_double (vals[k], FALSE, &v[q->n_values++]))
        return FALSE;
    return q->n_values > 0;
  }
}

typedef struct {
  char *noise, *level_text, *seed_text, *real_text, *strategy_text, *sweep_seed_text;
  char **sweeps;
} SimOptions;

static void
sim_options_clear (SimOptions *so)
{
  g_free (so->noise);
  g_free (so->level_text);
  g_free (so->seed_text);
  g_free (so->real_text);
  g_free (so->strategy_text);
  g_free (so->sweep_seed_text);
  g_strfreev (so->sweeps);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (SimOptions, sim_options_clear)

/* The realisations and the sweep of @spec, as the engine writes them.
 * Returns the exit status. */
static int
simulate_set (XrlabCliClient *c, XrlabFitSimulateSetSpec *spec)
{
  g_autoptr(GError) error = NULL;
  XrlabEngineReply r = { 0 };
  char b[XRLAB_DTOA_BUFSIZE];
  gsize n_configs = 0;
  double scale = NAN;
  gboolean ok;

  xrlab_engine_fit_simulate_set_async (c->engine, spec, xrlab_cli_interrupt_cancellable (),
                                       xrlab_engine_reply_cb, &r);
  ok = xrlab_engine_fit_simulate_set_finish (c->engine, xrlab_engine_reply_wait (&r),
                                             &n_configs, &scale, &error);
  xrlab_engine_reply_clear (&r);
  if (!ok)
    return xrlab_cli_fail (error);
  g_print ("configurations=%zu\nrealisations=%u\n", n_configs, MAX (spec->n_real, 1));
  if (spec->base.noise != XRLAB_NOISE_NONE && spec->base.level > 0)
    g_print ("%s=%s\n", spec->base.noise == XRLAB_NOISE_GAUSSIAN ? "noise_sigma"
                                                                 : "noise_counts_per_unit",
             xrlab_format_double (scale, b));
  return XRLAB_CLI_OK;
}

/* The options of simulate, parsed and checked into @p. Returns the exit
 * status. */
typedef struct {
  XrlabNoiseKind kind;
  XrlabSweepStrategy strategy;
  double level;
  guint64 seed, n_real, sweep_seed;
} SimParsed;

static int
simulate_check (const XrlabCliModelOptions *o, const SimOptions *so, GArray *sweep,
                GPtrArray *owned, int argc, char **argv, SimParsed *p)
{
  int status = XRLAB_CLI_OK;

  p->kind = XRLAB_NOISE_NONE;
  p->strategy = XRLAB_SWEEP_AUTO;
  p->level = 0.0;
  p->seed = 1, p->n_real = 1, p->sweep_seed = 42;
  if (argc > 1)
    status = xrlab_cli_usage ("simulate", _("unexpected argument “%s”"), argv[1]);
  else if (o->energy == NULL || o->output == NULL)
    status = xrlab_cli_usage ("simulate", _("--energy and -o are required"));
  else if (so->noise && !xrlab_noise_kind_from_string (so->noise, &p->kind))
    status = xrlab_cli_usage ("simulate", _("--noise “%s”: expected none, gaussian, poisson "
                                            "or counting"), so->noise);
  else if (so->level_text && !(xrlab_parse_double (so->level_text, FALSE, &p->level) && p->level >= 0))
    status = xrlab_cli_usage ("simulate", _("--level “%s”: expected a number ≥ 0"),
                              so->level_text);
  else if (so->seed_text && !g_ascii_string_to_unsigned (so->seed_text, 10, 0, G_MAXUINT32, &p->seed,
                                                        NULL))
    status = xrlab_cli_usage ("simulate", _("--seed “%s”: expected an integer from 0 to %u"),
                              so->seed_text, G_MAXUINT32);
  else if (so->real_text && !g_ascii_string_to_unsigned (so->real_text, 10, 1, 1000000, &p->n_real,
                                                        NULL))
    status = xrlab_cli_usage ("simulate", _("--realisations “%s”: expected an integer from 1 "
                                            "to 1000000"), so->real_text);
  else if (so->strategy_text && !xrlab_sweep_strategy_from_string (so->strategy_text, &p->strategy))
    status = xrlab_cli_usage ("simulate", _("--sweep-strategy “%s”: expected grid, random or "
                                            "auto"), so->strategy_text);
  else if (so->sweep_seed_text && !g_ascii_string_to_unsigned (so->sweep_seed_text, 10, 0,
                                                              G_MAXUINT32, &p->sweep_seed, NULL))
    status = xrlab_cli_usage ("simulate", _("--sweep-seed “%s”: expected an integer from 0 to "
                                            "%u"), so->sweep_seed_text, G_MAXUINT32);
  for (guint i = 0; status == XRLAB_CLI_OK && so->sweeps && so->sweeps[i]; i++)
    {
      XrlabFitSweepParam q;

      if (!parse_sweep (so->sweeps[i], &q, owned))
        status = xrlab_cli_usage ("simulate", _("--sweep “%s”: expected PAR=V1,V2,... or "
                                                "PAR=uniform|normal|lognormal:A:B:N"),
                                  so->sweeps[i]);
      g_array_append_val (sweep, q);
    }
  if (status == XRLAB_CLI_OK && so->noise == NULL && p->level > 0)
    p->kind = XRLAB_NOISE_GAUSSIAN;
  if (status == XRLAB_CLI_OK && p->kind != XRLAB_NOISE_NONE && so->level_text == NULL)
    status = xrlab_cli_usage ("simulate", _("--noise needs --level"));
  return status;
}

int
xrlab_cli_simulate (int argc, char **argv)
{
  XrlabCliModelOptions o = { 0 };
  g_auto(XrlabCliModelParts) mp = { 0 };
  g_auto(SimOptions) so = { 0 };
  g_autoptr(GArray) sweep = g_array_new (FALSE, TRUE, sizeof (XrlabFitSweepParam));
  g_autoptr(GPtrArray) owned = g_ptr_array_new_with_free_func (g_free);
  g_autofree GOptionEntry *entries = xrlab_cli_model_entries (&o);
  g_autofree char *limit = xrlab_cli_size_limit_help ();
  GOptionEntry sim_entries[] = {
    { "noise", 0, 0, G_OPTION_ARG_STRING, &so.noise,
      N_("Noise: none, gaussian, poisson or counting (photon counting; default gaussian when "
         "--level is given)"), N_("KIND") },
    { "level", 0, 0, G_OPTION_ARG_STRING, &so.level_text,
      N_("Noise level relative to the largest model value (0.01 = 1 %; default 0); for "
         "counting the expected photons per delay"), N_("L") },
    { "seed", 0, 0, G_OPTION_ARG_STRING, &so.seed_text,
      N_("Seed of the random numbers (default 1)"), N_("N") },
    { "realisations", 0, 0, G_OPTION_ARG_STRING, &so.real_text,
      N_("Noisy realisations of each configuration (default 1)"), N_("N") },
    { "sweep", 0, 0, G_OPTION_ARG_STRING_ARRAY, &so.sweeps,
      N_("Values of a parameter to sweep: a list, or N draws uniform:MIN:MAX:N, "
         "normal:MEAN:SD:N or lognormal:MEAN:SD:N (repeatable)"), N_("PAR=SPEC") },
    { "sweep-strategy", 0, 0, G_OPTION_ARG_STRING, &so.strategy_text,
      N_("grid (every combination), random (one draw of every parameter per "
         "configuration) or auto (grid when every sweep is a list; default)"), N_("KIND") },
    { "sweep-seed", 0, 0, G_OPTION_ARG_STRING, &so.sweep_seed_text,
      N_("Seed of the sweep's draws (default 42; numpy's as trspecfit seeds it)"), N_("N") },
    G_OPTION_ENTRY_NULL
  };
  const XrlabCliSpec spec = {
    .parameter_string = _("— synthetic data from a model"),
    .summary =
      _("Writes the model at its parameter values plus noise, in the layout of eval and "
        "of the data of fit: one row per delay, one column per energy. Gaussian noise has "
        "σ = L·max|model|; Poisson noise draws counts N ~ Poisson(s·model) and writes N/s "
        "with s = 1/(L²·max model), so the relative noise at the maximum is L. Gaussian "
        "noise comes from GSL's MT19937 seeded with --seed (gsl_ran_gaussian, one draw per "
        "point, row by row), Poisson counts from one xoshiro256++ generator per block of "
        "65536 points, seeded from --seed and the block, drawn in parallel: the same seed "
        "gives the same data on any number of threads. Prints noise_sigma= (Gaussian) or "
        "noise_counts_per_unit= (Poisson) on stdout."),
    .description = NULL,
    .entries = { entries, sim_entries },
  };
  g_autofree char *description = g_strconcat (
      _("Photon counting (trspecfit's detection='photon_counting') reads the model as the "
        "distribution of L photons per delay on average: N ~ Poisson(s·|model|) with "
        "s = L / the mean over the delays of Σ|model|, written as N/s.\n"
        "With --realisations or --sweep, -o names a folder or an HDF5 file FILE.h5: every "
        "configuration of the sweep (the model's values without one) and its noisy "
        "realisations, configuration c's realisation r drawn with seed --seed + c·N + r. A "
        "folder gets configs.csv (config and the swept values) and config_NNNNNN/clean.csv "
        "with noisy_NNNN.csv; an HDF5 file the layout of trspecfit's SweepDataset "
        "(/metadata, /axes, /parameter_configs, /simulated_data/config_NNNNNN/"
        "realization_NNNN, /clean_data). Prints configurations= and realisations= too."),
      "\n", limit, NULL);
  XrlabCliSpec full = spec;
  g_autoptr(GError) error = NULL;
  SimParsed sp;
  double scale = NAN;
  int status;

  full.description = description;
  xrlab_cli_set_output_help (entries, N_("Output file (the layout of eval): CSV, or HDF5 when it "
                                         "is named FILE.h5 (or .nxs), readable again with --data "
                                         "FILE.h5; with --realisations or --sweep a folder or "
                                         "FILE.h5"), N_("FILE"));
  if (!xrlab_cli_parse_options (&full, &argc, &argv))
    {
      xrlab_cli_model_options_clear (&o);
      return XRLAB_CLI_USAGE;
    }
  status = simulate_check (&o, &so, sweep, owned, argc, argv, &sp);

  if (status == XRLAB_CLI_OK && xrlab_cli_model_parts_parse ("simulate", &o, &mp, &status))
    {
      g_auto(XrlabCliClient) c = { 0 };
      XrlabFitSimulateSpec sim = {
        .models = o.models, .model = o.model,
        .dynamics = (const XrlabFitDynamics *) mp.dynamics->data, .n_dynamics = mp.dynamics->len,
        .profiles = (const XrlabFitProfile *) mp.profiles->data, .n_profiles = mp.profiles->len,
        .values = (const XrlabFitValue *) mp.values->data, .n_values = mp.values->len,
        .energy = o.energy, .time = o.time, .aux = o.aux,
        .noise = sp.kind, .level = sp.level, .seed = sp.seed, .output = o.output,
        .max_values = xrlab_cli_max_values (),
      };
      XrlabEngineReply r = { 0 };

      xrlab_cli_client_init (&c);
      if (so.real_text || so.sweeps)
        {
          XrlabFitSimulateSetSpec set = {
            .base = sim, .n_real = (guint) sp.n_real,
            .sweep = (const XrlabFitSweepParam *) sweep->data, .n_sweep = sweep->len,
            .strategy = sp.strategy, .sweep_seed = sp.sweep_seed,
          };
          status = simulate_set (&c, &set);
        }
      else
        {
          xrlab_engine_fit_simulate_async (c.engine, &sim, NULL, xrlab_engine_reply_cb, &r);
          if (!xrlab_engine_fit_simulate_finish (c.engine, xrlab_engine_reply_wait (&r), &scale,
                                                 &error))
            status = xrlab_cli_fail (error);
          else if (sp.kind != XRLAB_NOISE_NONE && sp.level > 0)
            {
              char b[XRLAB_DTOA_BUFSIZE];
              g_print ("%s=%s\n", sp.kind == XRLAB_NOISE_GAUSSIAN ? "noise_sigma"
                                                               : "noise_counts_per_unit",
                       xrlab_format_double (scale, b));
            }
          xrlab_engine_reply_clear (&r);
        }
    }
  xrlab_cli_model_options_clear (&o);
  return status;
}

