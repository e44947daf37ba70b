/* xrlab-engine-fit-setup.c -- fit setups: their configuration, parameter
 * edits, and the rebuild after a burst
 *
 * A configuration edit is checked whole when it is applied (models loaded,
 * σ read, the window set, the preview plans built: the order and the
 * messages of xrlab-cli fit) and replaces the setup's state only when all of
 * it is valid. Parameter edits change the setup's models in place (the
 * edits of one request together or not at all). What depends on the
 * structure -- preview plans after an expression edit, the checks of the
 * stages -- is rebuilt once per burst, in the service's commit.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-engine-fit-private.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "xrlab-util.h"

/* Ids of setups: unique in the process, never 0. */
static gint next_setup_id;

/* ---- configurations -------------------------------------------------------------- */

struct _FitConfig {
  XrlabFitSetupSpec spec;           /* pointers into the storage below */
  GStringChunk *strings;
  GPtrArray *blocks;                /* arrays, freed with the config */
};

void
xrlab_fit_setup_spec_init (XrlabFitSetupSpec *spec)
{
  memset (spec, 0, sizeof *spec);
  spec->e0 = spec->e1 = spec->t0 = spec->t1 = spec->b0 = spec->b1 = NAN;
  spec->method = XRLAB_FIT_METHOD_LM;
  spec->track_peaks = TRUE;
}

static void
config_free (FitConfig *c)
{
  if (c == NULL)
    return;
  g_string_chunk_free (c->strings);
  g_ptr_array_unref (c->blocks);
  g_free (c);
}

static const char *
keep_str (FitConfig *c, const char *s)
{
  return s ? g_string_chunk_insert (c->strings, s) : NULL;
}

static gpointer
keep_block (FitConfig *c, gconstpointer data, gsize size)
{
  gpointer copy;

  if (data == NULL || size == 0)
    return NULL;
  copy = g_memdup2 (data, size);
  g_ptr_array_add (c->blocks, copy);
  return copy;
}

static const XrlabFitProfile *
keep_profiles (FitConfig *c, const XrlabFitProfile *src, gsize n)
{
  XrlabFitProfile *p = keep_block (c, src, n * sizeof *src);

  for (gsize i = 0; p && i < n; i++)
    {
      p[i].param = keep_str (c, src[i].param);
      p[i].file = keep_str (c, src[i].file);
      p[i].model = keep_str (c, src[i].model);
    }
  return p;
}

static const XrlabFitValue *
keep_values (FitConfig *c, const XrlabFitValue *src, gsize n)
{
  XrlabFitValue *v = keep_block (c, src, n * sizeof *src);

  for (gsize i = 0; v && i < n; i++)
    v[i].param = keep_str (c, src[i].param);
  return v;
}

static const XrlabFitDynamics *
keep_dynamics (FitConfig *c, const XrlabFitDynamics *src, gsize n)
{
  XrlabFitDynamics *d = keep_block (c, src, n * sizeof *src);

  for (gsize i = 0; d && i < n; i++)
    {
      const char **models = keep_block (c, src[i].models, src[i].n_models * sizeof (char *));
      d[i].param = keep_str (c, src[i].param);
      d[i].file = keep_str (c, src[i].file);
      for (gsize k = 0; models && k < src[i].n_models; k++)
        models[k] = keep_str (c, src[i].models[k]);
      d[i].models = models;
    }
  return d;
}

/* A deep copy of @base with @fields taken from @update (@base NULL: all). */
static FitConfig *
config_merge (const XrlabFitSetupSpec *base, const XrlabFitSetupSpec *update,
              XrlabFitSetupFields fields)
{
  FitConfig *c = g_new0 (FitConfig, 1);
  XrlabFitSetupSpec s = base ? *base : *update;
  const XrlabFitSetupSpec *u = update;

  if (base == NULL)
    fields = XRLAB_FIT_SETUP_ALL;
  c->strings = g_string_chunk_new (256);
  c->blocks = g_ptr_array_new_with_free_func (g_free);
  if (fields & XRLAB_FIT_SETUP_DATASET)
    s.dataset = u->dataset;
  if (fields & XRLAB_FIT_SETUP_MODEL)
    {
      s.models = u->models, s.model = u->model;
      s.dynamics = u->dynamics, s.n_dynamics = u->n_dynamics;
      s.profiles = u->profiles, s.n_profiles = u->n_profiles;
      s.values = u->values, s.n_values = u->n_values;
    }
  if (fields & XRLAB_FIT_SETUP_BASELINE_MODEL)
    {
      s.baseline_models = u->baseline_models;
      s.baseline_model = u->baseline_model;
      s.baseline_profiles = u->baseline_profiles;
      s.n_baseline_profiles = u->n_baseline_profiles;
      s.baseline_values = u->baseline_values, s.n_baseline_values = u->n_baseline_values;
    }
  if (fields & XRLAB_FIT_SETUP_WINDOW)
    s.e0 = u->e0, s.e1 = u->e1, s.t0 = u->t0, s.t1 = u->t1;
  if (fields & XRLAB_FIT_SETUP_BASELINE_DELAYS)
    s.b0 = u->b0, s.b1 = u->b1;
  if (fields & XRLAB_FIT_SETUP_SIGMA)
    s.sigma = u->sigma;
  if (fields & XRLAB_FIT_SETUP_OPTIONS)
    {
      s.method = u->method, s.pin_to_baseline = u->pin_to_baseline;
      s.track_peaks = u->track_peaks, s.n_threads = u->n_threads;
      s.max_values = u->max_values;
      s.scale_covar = u->scale_covar;
    }
  c->spec = s;
  c->spec.models = keep_str (c, s.models);
  c->spec.model = keep_str (c, s.model);
  c->spec.dynamics = keep_dynamics (c, s.dynamics, s.n_dynamics);
  c->spec.profiles = keep_profiles (c, s.profiles, s.n_profiles);
  c->spec.values = keep_values (c, s.values, s.n_values);
  c->spec.baseline_models = keep_str (c, s.baseline_models);
  c->spec.baseline_model = keep_str (c, s.baseline_model);
  c->spec.baseline_profiles = keep_profiles (c, s.baseline_profiles, s.n_baseline_profiles);
  c->spec.baseline_values = keep_values (c, s.baseline_values, s.n_baseline_values);
  c->spec.sigma.file = keep_str (c, s.sigma.file);
  c->spec.sigma.values = keep_block (c, s.sigma.values, s.sigma.n_values * sizeof (double));
  return c;
}

FitConfig *
xrlab_fit_config_new (const XrlabFitSetupSpec *spec)
{
  return config_merge (NULL, spec, XRLAB_FIT_SETUP_ALL);
}

const XrlabFitSetupSpec *
xrlab_fit_config_spec (const FitConfig *config)
{
  return &config->spec;
}

void
xrlab_fit_config_free (FitConfig *config)
{
  config_free (config);
}

/* ---- models ------------------------------------------------------------------------ */

XrlabModel *
xrlab_fit_build_model (const char *models, const char *name, const XrlabFitDynamics *dyn,
                       gsize n_dyn, const XrlabFitProfile *prof, gsize n_prof,
                       const XrlabFitValue *values, gsize n_values, gboolean lenient,
                       GError **error)
{
  g_autoptr(XrlabModel) m = NULL;
  g_autofree gboolean *first = NULL;

  if (models == NULL || name == NULL)
    {
      g_set_error (error, XRLAB_ENGINE_FIT_ERROR, XRLAB_ENGINE_FIT_ERROR_NOT_READY,
                   _("A fit needs a model file and the name of a model in it"));
      return NULL;
    }
  m = xrlab_model_load (models, name, error);
  if (m == NULL)
    return NULL;
  /* time dependence of the model's own parameters, the profiles, then time
   * dependence of the profiles' parameters (trspecfit's order) */
  first = g_new0 (gboolean, n_dyn + 1);
  for (gsize i = 0; i < n_dyn; i++)
    first[i] = xrlab_model_find_param (m, dyn[i].param) >= 0;
  for (int later = 0; later < 2; later++)
    {
      for (gsize i = 0; i < n_dyn; i++)
        if (first[i] != later
            && !xrlab_model_add_dynamics (m, dyn[i].param, dyn[i].file, dyn[i].models,
                                          dyn[i].n_models, dyn[i].frequency, error))
          return NULL;
      for (gsize i = 0; !later && i < n_prof; i++)
        if ((!lenient || xrlab_model_find_param (m, prof[i].param) >= 0)
            && !xrlab_model_add_profile (m, prof[i].param, prof[i].file, prof[i].model, error))
          return NULL;
    }
  for (gsize i = 0; i < n_values; i++)
    if ((!lenient || xrlab_model_find_param (m, values[i].param) >= 0)
        && !xrlab_model_set_value (m, values[i].param, values[i].value, error))
      return NULL;
  return g_steal_pointer (&m);
}

XrlabModel *
xrlab_fit_setup_model (FitSetup *setup, XrlabFitModelRole role)
{
  return role == XRLAB_FIT_MODEL_BASELINE ? setup->bmodel : setup->model;
}

const XrlabFitSetupSpec *
xrlab_fit_setup_spec (FitSetup *setup)
{
  return &setup->config->spec;
}

gboolean
xrlab_fit_setup_seeded (FitSetup *setup)
{
  return setup->stages[FIT_SLOT_BASELINE] != NULL && setup->stages[FIT_SLOT_BASELINE]->complete;
}

/* ---- σ ----------------------------------------------------------------------------- */

/* σ over the whole data: one value, a matrix of the data's shape (per
 * point), or one column of n_energy (per energy) or n_time (per delay)
 * values. */
static gboolean
sigma_read (const XrlabFitSigma *spec, const FitDataset *ds, XrlabFitSigmaKind *kind,
            double **sigma, gsize *n_sigma, GError **error)
{
  gboolean has_time = ds->time != NULL;
  gsize n_rows = ds->n_rows, n_cols = ds->n_cols, rows, cols;
  double *m;

  *kind = XRLAB_FIT_SIGMA_NONE, *sigma = NULL, *n_sigma = 0;
  switch (spec->from)
    {
    case XRLAB_FIT_SIGMA_FROM_NONE:
      return TRUE;
    case XRLAB_FIT_SIGMA_FROM_VALUE:
      *kind = XRLAB_FIT_SIGMA_SCALAR;
      *sigma = g_memdup2 (&spec->value, sizeof (double));
      *n_sigma = 1;
      return TRUE;
    case XRLAB_FIT_SIGMA_FROM_ARRAY:
      *kind = spec->kind;
      *sigma = g_memdup2 (spec->values, spec->n_values * sizeof (double));
      *n_sigma = spec->n_values;
      return TRUE;
    case XRLAB_FIT_SIGMA_FROM_FILE:
    default:
      break;
    }
  m = xrlab_read_csv_matrix (spec->file, TRUE, &rows, &cols, error);
  if (m == NULL)
    return FALSE;
  *sigma = m;
  if (rows == n_rows && cols == n_cols)
    *kind = XRLAB_FIT_SIGMA_FULL, *n_sigma = rows * cols;
  else if (cols == 1 && rows == n_cols && !(has_time && n_rows == n_cols))
    *kind = XRLAB_FIT_SIGMA_COLUMNS, *n_sigma = rows;
  else if (cols == 1 && has_time && rows == n_rows && n_rows != n_cols)
    *kind = XRLAB_FIT_SIGMA_ROWS, *n_sigma = rows;
  else
    {
      g_set_error (error, XRLAB_ENGINE_FIT_ERROR, XRLAB_ENGINE_FIT_ERROR_SIGMA,
                   g_dngettext (GETTEXT_PACKAGE,
                                "σ from %s: %zu × %zu value fits neither the data "
                                "(%zu × %zu), one per energy nor one per delay",
                                "σ from %s: %zu × %zu values fit neither the data "
                                "(%zu × %zu), one per energy nor one per delay",
                                rows * cols),
                   spec->file, rows, cols, n_rows, n_cols);
      g_clear_pointer (sigma, g_free);
      return FALSE;
    }
  return TRUE;
}

/* ---- the state of a setup ------------------------------------------------------------ */

void
xrlab_fit_setup_set_stage (FitSetup *setup, FitSlot slot, FitStage *stage)
{
  g_clear_pointer (&setup->stages[slot], xrlab_fit_stage_unref);
  setup->stages[slot] = stage;
}

void
xrlab_fit_setup_free (FitSetup *setup)
{
  if (setup == NULL)
    return;
  for (int s = 0; s < FIT_N_SLOTS; s++)
    xrlab_fit_setup_set_stage (setup, s, NULL);
  for (int r = 0; r < 2; r++)
    xrlab_fit_preview_clear (&setup->preview[r]);
  g_clear_pointer (&setup->live, xrlab_fit_live_unref);
  g_clear_error (&setup->not_ready);
  g_clear_pointer (&setup->config, config_free);
  g_clear_pointer (&setup->ds, xrlab_fit_dataset_unref);
  g_clear_pointer (&setup->model, xrlab_model_free);
  g_clear_pointer (&setup->bmodel, xrlab_model_free);
  g_clear_pointer (&setup->flow, xrlab_fitflow_free);
  g_free (setup->sigma);
  g_free (setup->base_data);
  g_free (setup);
}

/* The mean of the data rows at the baseline delays, over every energy (as
 * the baseline stage averages them), or NULL when there are none. */
static double *
baseline_spectrum (const FitDataset *ds, double b0, double b1)
{
  double lo = fmin (b0, b1), hi = fmax (b0, b1), *y;
  gsize r0 = 0, k = 0;

  if (ds->time == NULL || isnan (b0) || isnan (b1))
    return NULL;
  for (gsize i = 0; i < ds->n_t; i++)
    if (ds->time[i] >= lo && ds->time[i] <= hi)
      {
        if (k++ == 0)
          r0 = i;
      }
  if (k == 0)
    return NULL;
  y = g_new (double, ds->n_cols);
  for (gsize e = 0; e < ds->n_cols; e++)
    {
      double s = 0.0;
      for (gsize j = 0; j < k; j++)
        s += ds->data[(r0 + j) * ds->n_cols + e];
      y[e] = s / (double) k;
    }
  return y;
}

/* What a new configuration makes; installed only when all of it is valid. */
typedef struct {
  FitDataset *ds;
  XrlabModel *model, *bmodel;
  XrlabFitflow *flow;
  double *sigma;
  gsize n_sigma;
  XrlabFitSigmaKind sigma_kind;
} Candidate;

static void
candidate_clear (Candidate *c)
{
  g_clear_pointer (&c->ds, xrlab_fit_dataset_unref);
  g_clear_pointer (&c->model, xrlab_model_free);
  g_clear_pointer (&c->bmodel, xrlab_model_free);
  g_clear_pointer (&c->flow, xrlab_fitflow_free);
  g_clear_pointer (&c->sigma, g_free);
}

/* Builds what @fields of @s change (in the order of xrlab-cli fit: the
 * models, the data, σ, the window, σ against the window); the rest is
 * copied from @setup, so that a new window keeps the edited models. */
static gboolean
candidate_build (FitState *state, FitSetup *setup, const XrlabFitSetupSpec *s,
                 XrlabFitSetupFields fields, Candidate *c, GError **error)
{
  const gboolean all = !setup->valid;
  const gboolean models = all || (fields & (XRLAB_FIT_SETUP_MODEL
                                            | XRLAB_FIT_SETUP_BASELINE_MODEL));
  XrlabFitflowOptions opts;

  if (models)
    {
      c->model = xrlab_fit_build_model (s->models, s->model, s->dynamics, s->n_dynamics,
                                        s->profiles, s->n_profiles, s->values, s->n_values,
                                        FALSE, error);
      if (c->model == NULL)
        return FALSE;
      if (s->baseline_model != NULL
          && (c->bmodel = xrlab_fit_build_model (s->baseline_models != NULL ? s->baseline_models
                                                                          : s->models,
                                                 s->baseline_model, NULL, 0,
                                                 s->baseline_profiles,
                                                 s->n_baseline_profiles, s->baseline_values,
                                                 s->n_baseline_values, TRUE, error)) == NULL)
        return FALSE;
    }
  else
    {
      c->model = xrlab_model_copy (setup->model);
      c->bmodel = setup->bmodel ? xrlab_model_copy (setup->bmodel) : NULL;
    }
  if (all || (fields & XRLAB_FIT_SETUP_DATASET))
    c->ds = g_hash_table_lookup (state->datasets, GUINT_TO_POINTER (s->dataset));
  else
    c->ds = setup->ds;
  if (c->ds == NULL)
    {
      g_set_error (error, XRLAB_ENGINE_FIT_ERROR, XRLAB_ENGINE_FIT_ERROR_NO_DATASET,
                   _("There is no open dataset %u"), s->dataset);
      return FALSE;
    }
  xrlab_fit_dataset_ref (c->ds);
  if (!xrlab_fit_model_size_check (c->model, c->ds->n_e, c->ds->n_t, c->ds->n_a, TRUE,
                                   s->max_values, error))
    return FALSE;
  if (all || (fields & (XRLAB_FIT_SETUP_SIGMA | XRLAB_FIT_SETUP_DATASET)))
    {
      if (!sigma_read (&s->sigma, c->ds, &c->sigma_kind, &c->sigma, &c->n_sigma, error))
        return FALSE;
    }
  else
    {
      c->sigma_kind = setup->sigma_kind;
      c->n_sigma = setup->n_sigma;
      c->sigma = g_memdup2 (setup->sigma, setup->n_sigma * sizeof (double));
    }
  if ((c->flow = xrlab_fit_dataset_flow (c->ds, error)) == NULL)
    return FALSE;
  xrlab_fitflow_options_init (&opts);
  opts.method = s->method;
  opts.pin_to_baseline = s->pin_to_baseline;
  opts.track_peaks = s->track_peaks;
  opts.n_threads = s->n_threads;
  opts.scale_covar = s->scale_covar;
  xrlab_fitflow_set_options (c->flow, &opts);
  if (!xrlab_fitflow_set_window (c->flow, s->e0, s->e1, s->t0, s->t1, error)
      || (c->sigma != NULL && !xrlab_fitflow_set_sigma (c->flow, c->sigma_kind, c->sigma,
                                                        c->n_sigma, error)))
    return FALSE;
  return TRUE;
}

/* Installs @c and @cfg in @setup: every result dropped. */
static void
setup_install (FitSetup *setup, Candidate *c, FitConfig *cfg)
{
  g_clear_pointer (&setup->config, config_free);
  setup->config = cfg;
#define SWAP(field, free_func) \
  G_STMT_START { g_clear_pointer (&setup->field, free_func); setup->field = g_steal_pointer (&c->field); } G_STMT_END
  SWAP (ds, xrlab_fit_dataset_unref);
  SWAP (model, xrlab_model_free);
  SWAP (bmodel, xrlab_model_free);
  SWAP (flow, xrlab_fitflow_free);
  SWAP (sigma, g_free);
#undef SWAP
  setup->n_sigma = c->n_sigma;
  setup->sigma_kind = c->sigma_kind;
  g_free (setup->base_data);
  setup->base_data = baseline_spectrum (setup->ds, cfg->spec.b0, cfg->spec.b1);
  for (int s = 0; s < FIT_N_SLOTS; s++)
    xrlab_fit_setup_set_stage (setup, s, NULL);
  setup->valid = TRUE;
}

/* New preview plans for the models of @c (part of the check: a model that
 * cannot be evaluated on the data's axes is refused); the old ones come
 * back when that fails. */
static gboolean
candidate_plans (FitSetup *setup, Candidate *c, GError **error)
{
  FitPreview old[2] = { setup->preview[0], setup->preview[1] };
  XrlabModel *old_model = setup->model, *old_bmodel = setup->bmodel;
  FitDataset *old_ds = setup->ds;
  gboolean ok;

  setup->model = c->model;
  setup->bmodel = c->bmodel;
  setup->ds = c->ds;
  memset (setup->preview, 0, sizeof setup->preview);
  ok = xrlab_fit_preview_build (setup, XRLAB_FIT_MODEL_MAIN, error)
       && (c->bmodel == NULL || xrlab_fit_preview_build (setup, XRLAB_FIT_MODEL_BASELINE, error));
  setup->model = old_model;
  setup->bmodel = old_bmodel;
  setup->ds = old_ds;
  for (int r = 0; r < 2; r++)
    {
      FitPreview *drop = ok ? &old[r] : &setup->preview[r];
      xrlab_fit_preview_clear (drop);
      if (!ok)
        setup->preview[r] = old[r];
    }
  if (ok)
    setup->stats.n_preview_plans += 1 + (c->bmodel != NULL);
  return ok;
}

/* Applies @cfg (whose @fields changed) to @setup when it is valid. Takes
 * @cfg. */
static gboolean
setup_configure (FitState *state, FitSetup *setup, FitConfig *cfg, XrlabFitSetupFields fields,
                 GError **error)
{
  Candidate c = { 0 };
  gboolean plans = !setup->valid || (fields & (XRLAB_FIT_SETUP_MODEL
                                               | XRLAB_FIT_SETUP_BASELINE_MODEL
                                               | XRLAB_FIT_SETUP_DATASET));
  gboolean ok = candidate_build (state, setup, &cfg->spec, fields, &c, error)
                && (!plans || candidate_plans (setup, &c, error));

  if (!ok)
    {
      candidate_clear (&c);
      if (setup->valid)
        config_free (cfg);
      else
        {
          g_clear_pointer (&setup->config, config_free);
          setup->config = cfg;
        }
      return FALSE;
    }
  setup_install (setup, &c, cfg);
  candidate_clear (&c);
  if (!plans)
    for (int r = 0; r < 2; r++)
      xrlab_fit_preview_values_changed (setup, r);
  /* the stages are checked again once after the burst (a rebuild) */
  setup->recheck = TRUE;
  return TRUE;
}

/* ---- checks ------------------------------------------------------------------------ */

gboolean
xrlab_fit_setup_check (FitSetup *setup, XrlabFitStages stages, GError **error)
{
  const XrlabFitSetupSpec *s = &setup->config->spec;
  /* before the baseline has run, the later stages pin by its names */
  const XrlabModel *names = xrlab_fit_setup_seeded (setup) ? NULL : setup->bmodel;
  gboolean is2d = setup->ds->time != NULL;

  if ((stages & XRLAB_FIT_STAGES_BASELINE) && setup->bmodel == NULL)
    {
      g_set_error (error, XRLAB_ENGINE_FIT_ERROR, XRLAB_ENGINE_FIT_ERROR_NOT_READY,
                   _("The fit setup has no baseline model"));
      return FALSE;
    }
  if ((stages & XRLAB_FIT_STAGES_BASELINE)
      && !xrlab_fitflow_check (setup->flow, XRLAB_FITFLOW_STAGE_BASELINE, setup->bmodel, s->b0,
                               s->b1, 0, NULL, error))
    return FALSE;
  if ((stages & XRLAB_FIT_STAGES_SBS)
      && !xrlab_fitflow_check (setup->flow, XRLAB_FITFLOW_STAGE_SBS, setup->model, NAN, NAN, 0,
                               names, error))
    return FALSE;
  if ((stages & XRLAB_FIT_STAGES_MAIN)
      && !xrlab_fitflow_check (setup->flow, is2d ? XRLAB_FITFLOW_STAGE_2D
                                                 : XRLAB_FITFLOW_STAGE_SPECTRUM,
                               setup->model, NAN, NAN, 0, names, error))
    return FALSE;
  return TRUE;
}

void
xrlab_fit_setup_commit (FitSetup *setup)
{
  gboolean rebuilt = FALSE;

  if (!setup->valid)
    return;
  for (int r = 0; r < 2; r++)
    if (setup->rebuild_plan[r])
      {
        g_autoptr(GError) error = NULL;

        setup->rebuild_plan[r] = FALSE;
        if (xrlab_fit_setup_model (setup, r) == NULL)
          continue;
        /* a model that passed its edits always compiles; a failure keeps
         * the last plan (the previews then show its last values) */
        if (xrlab_fit_preview_build (setup, r, &error))
          setup->stats.n_preview_plans++;
        else
          g_warning ("fit setup %u: %s", setup->id, error->message);
        rebuilt = TRUE;
      }
  if (setup->recheck)
    {
      XrlabFitStages stages = XRLAB_FIT_STAGES_MAIN
                              | (setup->bmodel ? XRLAB_FIT_STAGES_BASELINE : 0);

      setup->recheck = FALSE;
      g_clear_error (&setup->not_ready);
      xrlab_fit_setup_check (setup, stages, &setup->not_ready);
      rebuilt = TRUE;
    }
  if (rebuilt)
    setup->stats.n_rebuilds++;
}

void
xrlab_fit_setup_take_values (FitSetup *setup, XrlabFitModelRole role, const XrlabModel *from)
{
  XrlabModel *m = xrlab_fit_setup_model (setup, role);

  if (m == NULL || from == NULL)
    return;
  for (gsize i = 0; i < xrlab_model_n_params (m); i++)
    {
      XrlabParamInfo info, src;
      gssize j;

      xrlab_model_get_param (m, i, &info);
      j = xrlab_model_find_param (from, info.name);
      if (info.expr != NULL || j < 0)
        continue;
      xrlab_model_get_param (from, j, &src);
      if (src.expr == NULL && src.value != info.value)
        xrlab_model_set_value (m, info.name, src.value, NULL);
    }
  xrlab_fit_preview_values_changed (setup, role);
}

/* ---- configuration edits ---------------------------------------------------------- */

typedef struct {
  guint id;
  gboolean create, close;
  XrlabFitSetupFields fields;
  FitConfig *config;                /* the asked configuration (a spec copy) */
  guint keys[8];
  gsize n_keys;
  gboolean superseded;
  GError *error;
} SetupPayload;

static void
setup_payload_free (gpointer data)
{
  SetupPayload *p = data;

  config_free (p->config);
  g_clear_error (&p->error);
  g_free (p);
}

static void
setup_apply (XrlabEngineWorker *worker, gpointer state, XrlabRequest *req)
{
  FitState *st = state;
  SetupPayload *p = req->payload;
  FitSetup *setup;
  FitConfig *cfg;

  if (p->close)
    {
      g_hash_table_remove (st->setups, GUINT_TO_POINTER (p->id));
      return;
    }
  setup = g_hash_table_lookup (st->setups, GUINT_TO_POINTER (p->id));
  if (setup == NULL && p->create)
    {
      setup = g_new0 (FitSetup, 1);
      setup->id = p->id;
      g_hash_table_insert (st->setups, GUINT_TO_POINTER (p->id), setup);
    }
  if (setup == NULL)
    {
      xrlab_fit_state_setup (st, p->id, &p->error);
      return;
    }
  if (xrlab_fit_keys_superseded (req, p->keys, p->n_keys))
    {
      p->superseded = TRUE;
      return;
    }
  cfg = config_merge (setup->config ? &setup->config->spec : NULL, &p->config->spec,
                      p->fields);
  setup_configure (st, setup, cfg, p->fields, &p->error);
}

static void
setup_serve (XrlabEngineWorker *worker, gpointer state, XrlabRequest *req)
{
  SetupPayload *p = req->payload;

  if (p->superseded)
    xrlab_request_return_superseded (req, "superseded by a newer edit of the setup");
  else if (p->error != NULL)
    xrlab_request_return_error (req, g_steal_pointer (&p->error));
  else
    xrlab_request_return_boolean (req, TRUE);
}

static const XrlabRequestKind setup_kind = {
  .name = "fit-setup",
  .service = &xrlab_engine_fit_service,
  .role = XRLAB_REQUEST_EDIT,
  .payload_free = setup_payload_free,
  .apply = setup_apply,
  .serve = setup_serve,
};

static void
setup_submit (XrlabEngine *self, SetupPayload *p, const XrlabFitSetupSpec *spec,
              gpointer tag, GCancellable *cancellable, GAsyncReadyCallback callback,
              gpointer user_data)
{
  XrlabRequest *req;

  if (spec != NULL)
    p->config = config_merge (NULL, spec, XRLAB_FIT_SETUP_ALL);
  for (guint bit = 0; bit < 7; bit++)
    if (p->fields & (1u << bit))
      p->keys[p->n_keys++] = xrlab_fit_key_setup (p->id, 1u << bit);
  req = xrlab_request_new (self, &setup_kind, p, tag, cancellable, callback, user_data);
  xrlab_request_begin_edit (req, p->keys, p->n_keys);
  xrlab_request_submit (req);
}

guint
xrlab_engine_fit_setup_new_async (XrlabEngine             *self,
                                  const XrlabFitSetupSpec *spec,
                                  GCancellable            *cancellable,
                                  GAsyncReadyCallback      callback,
                                  gpointer                 user_data)
{
  SetupPayload *p;

  g_return_val_if_fail (XRLAB_IS_ENGINE (self), 0);
  g_return_val_if_fail (spec != NULL, 0);
  p = g_new0 (SetupPayload, 1);
  p->id = (guint) g_atomic_int_add (&next_setup_id, 1) + 1;
  p->create = TRUE;
  p->fields = XRLAB_FIT_SETUP_ALL;
  setup_submit (self, p, spec, xrlab_engine_fit_setup_new_async, cancellable, callback,
                user_data);
  return p->id;
}

void
xrlab_engine_fit_setup_update_async (XrlabEngine             *self,
                                     guint                    setup,
                                     const XrlabFitSetupSpec *spec,
                                     XrlabFitSetupFields      fields,
                                     GCancellable            *cancellable,
                                     GAsyncReadyCallback      callback,
                                     gpointer                 user_data)
{
  SetupPayload *p;

  g_return_if_fail (XRLAB_IS_ENGINE (self));
  g_return_if_fail (spec != NULL);
  p = g_new0 (SetupPayload, 1);
  p->id = setup;
  p->fields = fields & XRLAB_FIT_SETUP_ALL;
  setup_submit (self, p, spec, xrlab_engine_fit_setup_update_async, cancellable, callback,
                user_data);
}

gboolean
xrlab_engine_fit_setup_finish (XrlabEngine   *self,
                               GAsyncResult  *result,
                               GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

void
xrlab_engine_fit_setup_close (XrlabEngine *self, guint setup)
{
  SetupPayload *p;

  g_return_if_fail (XRLAB_IS_ENGINE (self));
  p = g_new0 (SetupPayload, 1);
  p->id = setup;
  p->close = TRUE;
  setup_submit (self, p, NULL, xrlab_engine_fit_setup_close, NULL, NULL, NULL);
}
