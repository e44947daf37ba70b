/* xrlab-fitflow.c -- the fitting workflow: window, baseline, slice-by-slice,
 * global 2D (see xrlab-fitflow.h). This file prepares and runs the stages;
 * the data and the window are in xrlab-fitflow-data.c, slice-by-slice fits
 * in xrlab-fitflow-sbs.c, the results in xrlab-fitflow-result.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-fitflow.h"
#include "xrlab-fitflow-private.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "xrlab-plan.h"
#include "xrlab-util.h"

G_DEFINE_QUARK (xrlab-fitflow-error-quark, xrlab_fitflow_error)

const char *
xrlab_fitflow_stage_name (XrlabFitflowStage stage)
{
  switch (stage)
    {
    case XRLAB_FITFLOW_STAGE_BASELINE:
      return "baseline";
    case XRLAB_FITFLOW_STAGE_SPECTRUM:
      return "spectrum";
    case XRLAB_FITFLOW_STAGE_SBS:
      return "slice-by-slice";
    case XRLAB_FITFLOW_STAGE_TRACE:
      return "trace";
    case XRLAB_FITFLOW_STAGE_2D:
    default:
      return "2D";
    }
}

/* The stage in translated messages ("the baseline fit"); the name above is
 * an identifier and stays English. */
static const char *
stage_label (XrlabFitflowStage stage)
{
  switch (stage)
    {
    case XRLAB_FITFLOW_STAGE_BASELINE:
      /* TRANSLATORS: "%s fit" is "baseline fit", "spectrum fit",
       * "slice-by-slice fit" or "2D fit" */
      return C_("fit stage", "baseline");
    case XRLAB_FITFLOW_STAGE_SPECTRUM:
      return C_("fit stage", "spectrum");
    case XRLAB_FITFLOW_STAGE_SBS:
      return C_("fit stage", "slice-by-slice");
    case XRLAB_FITFLOW_STAGE_TRACE:
      return C_("fit stage", "trace");
    case XRLAB_FITFLOW_STAGE_2D:
    default:
      return C_("fit stage", "2D");
    }
}

void
xrlab_fitflow_options_init (XrlabFitflowOptions *options)
{
  memset (options, 0, sizeof *options);
  options->method = XRLAB_FIT_METHOD_LM;
  options->track_peaks = TRUE;
}

void
xrlab_fitflow_set_options (XrlabFitflow *flow, const XrlabFitflowOptions *options)
{
  g_return_if_fail (flow != NULL && options != NULL);
  flow->options = *options;
}

/* ---- seeding ----------------------------------------------------------------- */

void
xrlab_fitflow_set_seed (XrlabFitflow *flow, const XrlabFitflowResult *baseline)
{
  g_return_if_fail (flow != NULL);
  g_clear_pointer (&flow->seed, g_hash_table_unref);
  g_clear_pointer (&flow->seed_spectrum, g_free);
  if (baseline == NULL)
    return;
  flow->seed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  for (gsize i = 0; i < baseline->n_params; i++)
    g_hash_table_insert (flow->seed, g_strdup (baseline->params[i].name),
                         g_memdup2 (&baseline->params[i].value, sizeof (double)));
  if (baseline->data && baseline->n_cols > 0)
    {
      flow->seed_spectrum = g_memdup2 (baseline->data, baseline->n_cols * sizeof (double));
      flow->seed_col0 = baseline->col0;
      flow->seed_ncols = baseline->n_cols;
    }
}

/* A copy of @model with the seed applied (and pinned). With @names_from,
 * the namesakes are those of that model and no value changes (a check
 * before the baseline has run). */
static XrlabModel *
seeded_copy (const XrlabFitflow *f, const XrlabModel *model, gboolean seed,
             const XrlabModel *names_from, GError **error)
{
  g_autoptr(XrlabModel) m = xrlab_model_copy (model);

  if (!seed || (f->seed == NULL && names_from == NULL))
    return g_steal_pointer (&m);
  for (gsize i = 0; i < xrlab_model_n_params (m); i++)
    {
      XrlabParamInfo info;
      const double *v = NULL;
      g_autoptr(GError) err = NULL;

      xrlab_model_get_param (m, i, &info);
      if (info.expr != NULL)
        continue;
      if (names_from != NULL)
        {
          if (xrlab_model_find_param (names_from, info.name) < 0)
            continue;
        }
      else if ((v = g_hash_table_lookup (f->seed, info.name)) == NULL)
        continue;
      if (v != NULL && !xrlab_model_set_value (m, info.name, *v, &err))
        {
          g_set_error (error, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_MODEL,
                       _("Starting “%s” from the baseline result: %s"), info.name,
                       err->message);
          return NULL;
        }
      xrlab_model_get_param (m, i, &info);
      if (f->options.pin_to_baseline && info.role != XRLAB_PARAM_DYNAMICS
          && !info.has_dynamics && info.vary)
        {
          g_autofree char *name = g_strdup (info.name);
          if (!xrlab_model_set_vary (m, name, FALSE, error))
            return NULL;
        }
    }
  return g_steal_pointer (&m);
}

static gboolean
model_has_shirley (const XrlabModel *m)
{
  for (gsize i = 0; i < xrlab_model_n_components (m); i++)
    if (g_str_equal (xrlab_model_component_function (m, i), "Shirley"))
      return TRUE;
  return FALSE;
}

static gboolean
model_has_kernels (const XrlabModel *m)
{
  for (gsize i = 0; i < xrlab_model_n_params (m); i++)
    {
      XrlabParamInfo info;
      xrlab_model_get_param (m, i, &info);
      if (info.role == XRLAB_PARAM_DYNAMICS && info.function
          && g_str_has_suffix (info.function, "CONV"))
        return TRUE;
    }
  return FALSE;
}

XrlabModel *
xrlab_fitflow_seeded_model (XrlabFitflow *flow, XrlabFitflowStage stage,
                            const XrlabModel *model, GError **error)
{
  g_return_val_if_fail (flow != NULL && model != NULL, NULL);
  return seeded_copy (flow, model, stage != XRLAB_FITFLOW_STAGE_BASELINE, NULL, error);
}

/* ---- preparing a stage ------------------------------------------------------- */

void
xrlab_fitflow_prep_clear (Prep *pr)
{
  g_clear_pointer (&pr->model, xrlab_model_free);
  g_clear_pointer (&pr->plan, xrlab_plan_free);
  g_clear_pointer (&pr->theta0, g_free);
  g_clear_pointer (&pr->lower, g_free);
  g_clear_pointer (&pr->upper, g_free);
  g_clear_pointer (&pr->names, g_strfreev);
}

gboolean
xrlab_fitflow_prepare (XrlabFitflow *f, XrlabFitflowStage stage, const XrlabModel *model,
                       double b0, double b1, gsize row, const XrlabModel *names_from, Prep *pr,
                       GError **error)
{
  const gboolean is2d = (stage == XRLAB_FITFLOW_STAGE_2D);
  XrlabPlanFlags flags = XRLAB_PLAN_DEFAULT;
  gsize n_points;
  g_autoptr(GError) err = NULL;

  memset (pr, 0, sizeof *pr);
  pr->stage = stage;

  if (f->time == NULL && stage != XRLAB_FITFLOW_STAGE_SPECTRUM)
    {
      g_set_error (error, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_MODEL,
                   _("A %s fit needs a delay axis; %s is a single spectrum"),
                   stage_label (stage), xrlab_fitflow_data_name (f));
      return FALSE;
    }

  /* the data rows */
  switch (stage)
    {
    case XRLAB_FITFLOW_STAGE_BASELINE:
      {
        double lo, hi;
        char a[XRLAB_DTOA_BUFSIZE], b[XRLAB_DTOA_BUFSIZE];

        if (isnan (b0) || isnan (b1))
          {
            g_set_error (error, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_WINDOW,
                         _("The baseline needs a delay range"));
            return FALSE;
          }
        xrlab_fitflow_limits (b0, b1, &lo, &hi);
        xrlab_fitflow_axis_range (f->time, f->n_t, lo, hi, &pr->row0, &pr->rows);
        if (pr->rows == 0)
          {
            char c[XRLAB_DTOA_BUFSIZE], d[XRLAB_DTOA_BUFSIZE];
            g_set_error (error, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_WINDOW,
                         _("The baseline range %s … %s holds no delay of %s (%s … %s)"),
                         xrlab_format_double (lo, a), xrlab_format_double (hi, b),
                         xrlab_fitflow_time_name (f), xrlab_format_double (f->time[0], c),
                         xrlab_format_double (f->time[f->n_t - 1], d));
            return FALSE;
          }
        if (!xrlab_fitflow_check_finite (f, pr->row0, pr->rows, _("in the baseline"), error)
            || !xrlab_fitflow_check_sigma_cells (f, pr->row0, pr->rows, error))
          return FALSE;
      }
      break;
    case XRLAB_FITFLOW_STAGE_SPECTRUM:
      if (row >= f->n_rows)
        {
          g_set_error (error, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_WINDOW,
                       _("%s has no row %zu (it has %zu)"),
                       xrlab_fitflow_data_name (f), row + 1, f->n_rows);
          return FALSE;
        }
      pr->row0 = row;
      pr->rows = 1;
      if (!xrlab_fitflow_check_finite (f, row, 1, _("in the spectrum to fit"), error)
          || !xrlab_fitflow_check_sigma_cells (f, row, 1, error))
        return FALSE;
      break;
    case XRLAB_FITFLOW_STAGE_SBS:
    case XRLAB_FITFLOW_STAGE_2D:
    default:
      pr->row0 = f->row0;
      pr->rows = f->nrw;
      if (!xrlab_fitflow_check_sigma_cells (f, pr->row0, pr->rows, error))
        return FALSE;
      break;
    }

  /* the model, seeded */
  pr->model = seeded_copy (f, model, stage != XRLAB_FITFLOW_STAGE_BASELINE, names_from,
                           error);
  if (pr->model == NULL)
    return FALSE;
  if (!is2d && xrlab_model_has_dynamics (pr->model))
    flags |= XRLAB_PLAN_IGNORE_DYNAMICS;

  /* the domain of the plan */
  pr->dom_cols = model_has_shirley (pr->model) ? f->n_e - f->col0 : f->ncw;
  if (is2d)
    {
      if (model_has_kernels (pr->model))
        pr->dom_row0 = 0, pr->dom_rows = f->n_t;
      else
        pr->dom_row0 = f->row0, pr->dom_rows = f->nrw;
    }
  pr->plan = xrlab_plan_new_full (pr->model, f->energy + f->col0, pr->dom_cols,
                                  is2d ? f->time + pr->dom_row0 : NULL,
                                  is2d ? pr->dom_rows : 0, f->aux, f->n_a, flags, &err);
  if (pr->plan == NULL)
    {
      g_set_error (error, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_MODEL,
                   _("Model “%s” (%s fit): %s"), xrlab_model_get_name (pr->model),
                   stage_label (stage), err->message);
      return FALSE;
    }

  pr->n_theta = xrlab_plan_n_theta (pr->plan);
  if (pr->n_theta == 0)
    {
      g_set_error (error, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_MODEL,
                   _("Model “%s” has no free parameters in the %s fit"),
                   xrlab_model_get_name (pr->model), stage_label (stage));
      return FALSE;
    }
  n_points = (is2d ? pr->rows : 1) * f->ncw;
  if (n_points < pr->n_theta)
    {
      char a[XRLAB_DTOA_BUFSIZE], b[XRLAB_DTOA_BUFSIZE];
      g_autofree char *points = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%zu point",
                                                              "%zu points", n_points), n_points);
      g_autofree char *params = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                              "%zu free parameter",
                                                              "%zu free parameters",
                                                              pr->n_theta), pr->n_theta);

      /* TRANSLATORS: "The fit window holds 3 points (energies 80 … 82) but the
       * spectrum fit of “Au4f” has 7 free parameters: ..." */
      g_set_error (error, XRLAB_FITFLOW_ERROR, XRLAB_FITFLOW_ERROR_TOO_FEW_POINTS,
                   _("The fit window holds %s (energies %s … %s) "
                     "but the %s fit of “%s” has %s: widen "
                     "the window or fix parameters"),
                   points, xrlab_format_double (f->energy[f->col0], a),
                   xrlab_format_double (f->energy[f->col0 + f->ncw - 1], b),
                   stage_label (stage), xrlab_model_get_name (pr->model), params);
      return FALSE;
    }

  pr->theta0 = g_new (double, pr->n_theta);
  pr->lower = g_new (double, pr->n_theta);
  pr->upper = g_new (double, pr->n_theta);
  pr->names = g_new0 (char *, pr->n_theta + 1);
  xrlab_plan_theta_initial (pr->plan, pr->theta0);
  xrlab_plan_theta_bounds (pr->plan, pr->lower, pr->upper);
  for (gsize k = 0; k < pr->n_theta; k++)
    pr->names[k] = g_strdup (xrlab_plan_theta_name (pr->plan, k));
  return TRUE;
}

gboolean
xrlab_fitflow_check (XrlabFitflow *flow, XrlabFitflowStage stage, const XrlabModel *model,
                     double b0, double b1, gsize row, const XrlabModel *baseline_model,
                     GError **error)
{
  Prep pr;
  gboolean ok;

  g_return_val_if_fail (flow != NULL && model != NULL, FALSE);
  ok = xrlab_fitflow_prepare (flow, stage, model, b0, b1, row, baseline_model, &pr, error);
  xrlab_fitflow_prep_clear (&pr);
  return ok;
}

/* ---- evaluation contexts ----------------------------------------------------- */

void
xrlab_fitflow_ctx_free (XrlabFitflowCtx *c)
{
  if (c == NULL)
    return;
  g_clear_pointer (&c->fit, xrlab_fit_free);
  g_clear_pointer (&c->ws, xrlab_plan_workspace_free);
  g_clear_pointer (&c->plan, xrlab_plan_free);
  g_free (c->buf);
  g_free (c->jbuf);
  g_free (c->y);
  g_free (c->sig);
  g_strfreev (c->names);
  g_free (c);
}

static gboolean
ctx_model (const double *theta, double *out, gpointer data, GError **error)
{
  XrlabFitflowCtx *c = data;

  if (c->direct)
    {
      xrlab_plan_eval_ws (c->plan, c->ws, theta, out);
      return TRUE;
    }
  xrlab_plan_eval_ws (c->plan, c->ws, theta, c->buf);
  for (gsize r = 0; r < c->rows; r++)
    memcpy (out + r * c->cols, c->buf + (r + c->row_off) * c->dom_cols,
            c->cols * sizeof (double));
  return TRUE;
}

static gboolean
ctx_jacobian (const double *theta, double *jac, gpointer data, GError **error)
{
  XrlabFitflowCtx *c = data;
  const gsize p = c->p;

  if (c->direct)
    {
      xrlab_plan_jacobian_ws (c->plan, c->ws, theta, jac);
      return TRUE;
    }
  xrlab_plan_jacobian_ws (c->plan, c->ws, theta, c->jbuf);
  for (gsize r = 0; r < c->rows; r++)
    memcpy (jac + r * c->cols * p, c->jbuf + (r + c->row_off) * c->dom_cols * p,
            c->cols * p * sizeof (double));
  return TRUE;
}

static void
ctx_progress (guint iter, double chi2, const double *theta, gsize p, gpointer data)
{
  XrlabFitflowCtx *c = data;

  if (c->progress)
    c->progress (c->stage, iter, 0, chi2, c->progress_data);
  if (c->progress_theta)
    c->progress_theta (c->stage, (const char *const *) c->names, theta, p, c->progress_data);
}

/* A context evaluating @plan (taken) for a fit of @rows × @cols points whose
 * first row is row @row_off of the plan's output. */
XrlabFitflowCtx *
xrlab_fitflow_ctx_new (const XrlabFitflow *f, XrlabPlan *plan, guint n_threads, gsize row_off,
                       gsize rows, gsize cols, XrlabFitflowStage stage)
{
  XrlabFitflowCtx *c = g_new0 (XrlabFitflowCtx, 1);

  c->plan = plan;
  c->stage = stage;
  c->ws = xrlab_plan_workspace_new (plan, n_threads);
  c->dom_rows = xrlab_plan_n_rows (plan);
  c->dom_cols = xrlab_plan_n_energy (plan);
  c->row_off = row_off;
  c->rows = rows;
  c->cols = cols;
  c->p = xrlab_plan_n_theta (plan);
  c->direct = (row_off == 0 && rows == c->dom_rows && cols == c->dom_cols);
  if (!c->direct)
    {
      c->buf = g_new (double, c->dom_rows * c->dom_cols);
      c->jbuf = g_new (double, c->dom_rows * c->dom_cols * c->p);
    }
  c->progress = f->options.progress;
  c->progress_theta = f->options.progress_theta;
  c->progress_data = f->options.progress_data;
  return c;
}

/* The optimizer for @c with data @y and σ (@sk, @sig); NULL on error. */
XrlabFit *
xrlab_fitflow_ctx_fit_new (const XrlabFitflow *f, XrlabFitflowCtx *c, const Prep *pr,
                           const double *y, XrlabFitSigmaKind sk, const double *sig,
                           gboolean progress, GError **error)
{
  XrlabFit *fit;
  XrlabFitOptions o;
  XrlabFitProblem prob = {
    .n = c->rows * c->cols, .p = c->p, .n_rows = c->rows, .n_cols = c->cols,
    .model = ctx_model, .jacobian = ctx_jacobian, .user_data = c,
    .data = y, .names = (const char *const *) pr->names,
    .lower = pr->lower, .upper = pr->upper,
    .sigma_kind = sk, .sigma = sig,
  };

  xrlab_fit_options_init (&o);
  o.method = f->options.method;
  o.scale_covar = f->options.scale_covar;
  if (progress && (f->options.progress || f->options.progress_theta))
    {
      o.progress = ctx_progress;
      o.progress_data = c;
      if (c->names == NULL)
        c->names = g_strdupv (pr->names);
    }
  fit = xrlab_fit_new (&prob, &o, error);
  /* a cancel cuts the evaluation in progress short */
  if (fit != NULL)
    xrlab_plan_workspace_set_abort (c->ws, xrlab_fit_abort_flag (fit));
  return fit;
}

/* ---- 1D and 2D stages -------------------------------------------------------- */

/* The data a prepared stage fits (the mean of the rows for the baseline)
 * and their σ into c->y, c->sig and c->sigma_kind. */
void
xrlab_fitflow_ctx_load (const XrlabFitflow *f, const Prep *pr, XrlabFitflowCtx *c)
{
  const gboolean is2d = (pr->stage == XRLAB_FITFLOW_STAGE_2D);
  const gsize rows = is2d ? pr->rows : 1, cols = f->ncw;
  XrlabFitSigmaKind sk = f->sigma_kind;

  c->y = g_new (double, rows * cols);
  xrlab_advise_huge_pages (c->y, rows * cols * sizeof (double));

  /* the data (the mean of the rows for the baseline) and σ */
  if (pr->stage == XRLAB_FITFLOW_STAGE_BASELINE)
    {
      const double K = (double) pr->rows;
      for (gsize e = 0; e < cols; e++)
        {
          double s = 0.0;
          for (gsize k = 0; k < pr->rows; k++)
            s += f->data[(pr->row0 + k) * f->n_cols + f->col0 + e];
          c->y[e] = s / K;
        }
      if (sk != XRLAB_FIT_SIGMA_NONE)
        {
          /* σ of the mean: √(Σ σ_k²)/K per energy */
          sk = (sk == XRLAB_FIT_SIGMA_SCALAR) ? XRLAB_FIT_SIGMA_SCALAR : XRLAB_FIT_SIGMA_FULL;
          c->sig = g_new (double, cols);
          for (gsize e = 0; e < (sk == XRLAB_FIT_SIGMA_SCALAR ? 1 : cols); e++)
            {
              double s2 = 0.0;
              for (gsize k = 0; k < pr->rows; k++)
                {
                  double s = xrlab_fitflow_sigma_at (f, pr->row0 + k, f->col0 + e);
                  s2 += s * s;
                }
              c->sig[e] = sqrt (s2) / K;
            }
        }
    }
  else
    {
      for (gsize r = 0; r < rows; r++)
        memcpy (c->y + r * cols, f->data + (pr->row0 + r) * f->n_cols + f->col0,
                cols * sizeof (double));
      switch (sk)
        {
        case XRLAB_FIT_SIGMA_SCALAR:
          c->sig = g_memdup2 (f->sigma, sizeof (double));
          break;
        case XRLAB_FIT_SIGMA_ROWS:
          c->sig = g_new (double, rows);
          for (gsize r = 0; r < rows; r++)
            c->sig[r] = f->sigma[pr->row0 + r];
          break;
        case XRLAB_FIT_SIGMA_COLUMNS:
          c->sig = g_memdup2 (f->sigma + f->col0, cols * sizeof (double));
          break;
        case XRLAB_FIT_SIGMA_FULL:
          c->sig = g_new (double, rows * cols);
          for (gsize r = 0; r < rows; r++)
            memcpy (c->sig + r * cols, f->sigma + (pr->row0 + r) * f->n_cols + f->col0,
                    cols * sizeof (double));
          break;
        case XRLAB_FIT_SIGMA_NONE:
        default:
          break;
        }
    }
  c->sigma_kind = sk;
}


/* Runs a prepared baseline, spectrum or 2D stage. Takes the plan of @pr. */
static gboolean
run_stage (XrlabFitflow *f, Prep *pr, GCancellable *cancellable,
           XrlabFitflowResult **result, GError **error)
{
  const gboolean is2d = (pr->stage == XRLAB_FITFLOW_STAGE_2D);
  const gsize rows = is2d ? pr->rows : 1, cols = f->ncw;
  XrlabFitflowCtx *c;
  XrlabFitSigmaKind sk;
  XrlabFitResult *fr = NULL;
  g_autoptr(GError) err = NULL;
  gboolean ok;

  c = xrlab_fitflow_ctx_new (f, g_steal_pointer (&pr->plan), is2d ? 0 : 1,
                             is2d ? pr->row0 - pr->dom_row0 : 0, rows, cols, pr->stage);
  xrlab_fitflow_ctx_load (f, pr, c);
  sk = c->sigma_kind;

  c->fit = xrlab_fitflow_ctx_fit_new (f, c, pr, c->y, sk, c->sig, TRUE, error);
  if (c->fit == NULL)
    {
      xrlab_fitflow_ctx_free (c);
      return FALSE;
    }
  ok = xrlab_fit_run (c->fit, pr->theta0, cancellable, &fr, &err);
  if (fr == NULL)
    {
      xrlab_fitflow_ctx_free (c);
      g_propagate_prefixed_error (error, g_steal_pointer (&err), _("%s fit: "),
                                  stage_label (pr->stage));
      return FALSE;
    }
  *result = xrlab_fitflow_result_new (f, pr, c, fr, error);
  if (*result == NULL)
    {
      xrlab_fitflow_ctx_free (c);
      xrlab_fit_result_free (fr);
      return FALSE;
    }
  if (!ok)
    {
      g_propagate_error (error, g_steal_pointer (&err));
      return FALSE;
    }
  return TRUE;
}

gboolean
xrlab_fitflow_fit_baseline (XrlabFitflow *flow, const XrlabModel *model, double b0, double b1,
                            GCancellable *cancellable, XrlabFitflowResult **result,
                            GError **error)
{
  Prep pr;
  gboolean ok;

  g_return_val_if_fail (flow != NULL && model != NULL && result != NULL, FALSE);
  *result = NULL;
  if (!xrlab_fitflow_prepare (flow, XRLAB_FITFLOW_STAGE_BASELINE, model, b0, b1, 0, NULL, &pr,
                              error))
    {
      xrlab_fitflow_prep_clear (&pr);
      return FALSE;
    }
  ok = run_stage (flow, &pr, cancellable, result, error);
  xrlab_fitflow_prep_clear (&pr);
  if (ok)
    xrlab_fitflow_set_seed (flow, *result);
  return ok;
}

gboolean
xrlab_fitflow_fit_spectrum (XrlabFitflow *flow, const XrlabModel *model, gsize row,
                            GCancellable *cancellable, XrlabFitflowResult **result,
                            GError **error)
{
  Prep pr;
  gboolean ok;

  g_return_val_if_fail (flow != NULL && model != NULL && result != NULL, FALSE);
  *result = NULL;
  if (!xrlab_fitflow_prepare (flow, XRLAB_FITFLOW_STAGE_SPECTRUM, model, NAN, NAN, row, NULL,
                              &pr, error))
    {
      xrlab_fitflow_prep_clear (&pr);
      return FALSE;
    }
  ok = run_stage (flow, &pr, cancellable, result, error);
  xrlab_fitflow_prep_clear (&pr);
  return ok;
}

gboolean
xrlab_fitflow_fit_2d (XrlabFitflow *flow, const XrlabModel *model, GCancellable *cancellable,
                      XrlabFitflowResult **result, GError **error)
{
  Prep pr;
  gboolean ok;

  g_return_val_if_fail (flow != NULL && model != NULL && result != NULL, FALSE);
  *result = NULL;
  if (!xrlab_fitflow_prepare (flow, XRLAB_FITFLOW_STAGE_2D, model, NAN, NAN, 0, NULL, &pr, error))
    {
      xrlab_fitflow_prep_clear (&pr);
      return FALSE;
    }
  ok = run_stage (flow, &pr, cancellable, result, error);
  xrlab_fitflow_prep_clear (&pr);
  return ok;
}
