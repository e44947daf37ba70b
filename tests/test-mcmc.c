/* test-mcmc.c -- the ensemble sampler: posterior quantiles of a linear-Gaussian
 * problem against the analytic ones, the sampled noise scale, emcee's
 * autocorrelation time on an AR(1) process, independence of the threads,
 * bad input and cancellation, and MCMC on a fit of the workflow
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include <glib.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "xrlab-fitflow.h"
#include "xrlab-init.h"
#include "xrlab-mcmc.h"
#include "xrlab-model.h"
#include "xrlab-simulate.h"

#define N_PTS 50

/* y = a + b x + σ ε */
typedef struct {
  double x[N_PTS], y[N_PTS];
  double sigma;          /* the σ the residual divides by */
  gboolean fail;         /* the model fails everywhere */
} Line;

static gboolean
line_residual (const double *th, double *r, guint slot, gpointer data)
{
  Line *l = data;

  if (l->fail)
    return FALSE;
  for (gsize i = 0; i < N_PTS; i++)
    r[i] = (th[0] + th[1] * l->x[i] - l->y[i]) / l->sigma;
  return TRUE;
}

static void
line_data (Line *l, double sigma)
{
  gsl_rng *rng = gsl_rng_alloc (gsl_rng_mt19937);

  gsl_rng_set (rng, 2024);
  for (gsize i = 0; i < N_PTS; i++)
    {
      l->x[i] = -1.0 + 3.0 * (double) i / (N_PTS - 1);
      l->y[i] = 1.5 + 0.8 * l->x[i] + gsl_ran_gaussian (rng, sigma);
    }
  l->sigma = sigma;
  l->fail = FALSE;
  gsl_rng_free (rng);
}

/* The least-squares solution and its covariance: the posterior of flat
 * priors is N(θ̂, (XᵀX)⁻¹σ²). */
static void
line_posterior (const Line *l, double *mean, double *sd, double *cov01)
{
  double s = 0, sx = 0, sxx = 0, sy = 0, sxy = 0, det;

  for (gsize i = 0; i < N_PTS; i++)
    {
      s += 1;
      sx += l->x[i];
      sxx += l->x[i] * l->x[i];
      sy += l->y[i];
      sxy += l->x[i] * l->y[i];
    }
  det = s * sxx - sx * sx;
  mean[0] = (sxx * sy - sx * sxy) / det;
  mean[1] = (s * sxy - sx * sy) / det;
  sd[0] = l->sigma * sqrt (sxx / det);
  sd[1] = l->sigma * sqrt (s / det);
  *cov01 = -l->sigma * l->sigma * sx / det;
}

static XrlabMcmcResult *
run_line (Line *l, guint n_slots, XrlabMcmcNoise noise, guint steps, guint burn)
{
  g_autoptr(GError) error = NULL;
  const char *names[] = { "a", "b" };
  double lower[] = { -100, -100 }, upper[] = { 100, 100 };
  double mean[2], sd[2], c01;
  XrlabMcmcProblem pb = { .n = N_PTS, .p = 2, .residual = line_residual, .user_data = l,
                          .n_slots = n_slots, .names = names, .lower = lower, .upper = upper };
  XrlabMcmcOptions o;
  XrlabMcmcResult *r = NULL;

  line_posterior (l, mean, sd, &c01);
  pb.start = mean;
  pb.start_scale = sd;
  xrlab_mcmc_options_init (&o);
  o.n_walkers = 32;
  o.n_steps = steps;
  o.burn = burn;
  o.seed = 7;
  o.noise = noise;
  o.sigma_ini = 1.0;
  g_assert_true (xrlab_mcmc_run (&pb, &o, NULL, &r, &error));
  g_assert_no_error (error);
  return r;
}

/* The quantiles of a linear-Gaussian posterior match the analytic ones
 * within the sampling error (N_eff = samples / τ). */
static void
test_linear_gaussian (void)
{
  Line l;
  g_autoptr(XrlabMcmcResult) r = NULL, r1 = NULL;
  double mean[2], sd[2], c01;
  const double z1 = 1.0, z2 = 2.0;

  line_data (&l, 0.3);
  line_posterior (&l, mean, sd, &c01);
  r = run_line (&l, 4, XRLAB_MCMC_NOISE_KNOWN, 4000, 500);
  g_assert_cmpuint (r->p, ==, 2);
  g_assert_cmpstr (r->names[1], ==, "b");
  g_assert_cmpuint (r->n_walkers, ==, 32);
  g_assert_cmpuint (r->n_kept, ==, 3500);
  g_assert_cmpuint (r->n_steps, ==, 4000);
  g_assert_true (r->tau_reliable);
  g_assert_cmpfloat (r->acceptance_mean, >, 0.3);
  g_assert_cmpfloat (r->acceptance_mean, <, 0.9);
  for (gsize j = 0; j < 2; j++)
    {
      double n_eff = (double) r->n_kept * r->n_walkers / r->tau[j];
      double se_med = 1.2533 * sd[j] / sqrt (n_eff);
      double se_q1 = 1.51 * sd[j] / sqrt (n_eff), se_q2 = 2.76 * sd[j] / sqrt (n_eff);

      g_test_message ("%s: median %.5f (analytic %.5f ± %.5f), 1σ %.5f … %.5f, τ %.1f, "
                      "N_eff %.0f", r->names[j], r->median[j], mean[j], sd[j], r->lo1[j],
                      r->hi1[j], r->tau[j], n_eff);
      g_assert_cmpfloat (r->tau[j], >, 1.0);
      g_assert_cmpfloat (r->tau[j], <, 100.0);
      g_assert_cmpfloat (fabs (r->median[j] - mean[j]), <, 5 * se_med);
      g_assert_cmpfloat (fabs (r->lo1[j] - (mean[j] - z1 * sd[j])), <, 5 * se_q1);
      g_assert_cmpfloat (fabs (r->hi1[j] - (mean[j] + z1 * sd[j])), <, 5 * se_q1);
      g_assert_cmpfloat (fabs (r->lo2[j] - (mean[j] - z2 * sd[j])), <, 5 * se_q2);
      g_assert_cmpfloat (fabs (r->hi2[j] - (mean[j] + z2 * sd[j])), <, 5 * se_q2);
      /* and the test can fail: a width 10 % off is many errors away */
      g_assert_cmpfloat (fabs (0.5 * (r->hi1[j] - r->lo1[j]) - 1.1 * sd[j]), >, 2 * se_q1);
      g_assert_cmpfloat (fabs (r->best[j] - mean[j]), <, 0.2 * sd[j]);
    }
  /* the correlation of the samples */
  {
    double ma = 0, mb = 0, cab = 0;
    gsize N = (gsize) r->n_kept * r->n_walkers;
    for (gsize i = 0; i < N; i++)
      {
        ma += r->chain[2 * i] / N;
        mb += r->chain[2 * i + 1] / N;
      }
    for (gsize i = 0; i < N; i++)
      cab += (r->chain[2 * i] - ma) * (r->chain[2 * i + 1] - mb) / (N - 1);
    g_assert_cmpfloat (fabs (cab / (sd[0] * sd[1]) - c01 / (sd[0] * sd[1])), <, 0.05);
  }

  /* the same chain on one thread */
  r1 = run_line (&l, 1, XRLAB_MCMC_NOISE_KNOWN, 4000, 500);
  g_assert_cmpmem (r->chain, (gsize) r->n_kept * r->n_walkers * 2 * sizeof (double), r1->chain,
                   (gsize) r1->n_kept * r1->n_walkers * 2 * sizeof (double));
  g_assert_cmpmem (r->acceptance, r->n_walkers * sizeof (double), r1->acceptance,
                   r1->n_walkers * sizeof (double));
}

/* Unweighted residuals: the noise scale is sampled as ln s and finds σ. */
static void
test_sampled_noise (void)
{
  Line l;
  g_autoptr(XrlabMcmcResult) r = NULL;
  double mean[2], sd[2], c01, chi2 = 0;

  line_data (&l, 0.3);
  line_posterior (&l, mean, sd, &c01);
  for (gsize i = 0; i < N_PTS; i++)
    chi2 += pow (mean[0] + mean[1] * l.x[i] - l.y[i], 2);
  l.sigma = 1.0;
  r = run_line (&l, 4, XRLAB_MCMC_NOISE_SAMPLED, 3000, 500);
  g_assert_cmpuint (r->p, ==, 3);
  g_assert_cmpstr (r->names[2], ==, "__lnsigma");
  /* the posterior of s peaks near the residuals' rms */
  g_assert_cmpfloat (fabs (exp (r->median[2]) / sqrt (chi2 / (N_PTS - 2)) - 1.0), <, 0.1);
  g_assert_cmpfloat (fabs (exp (r->median[2]) / 0.3 - 1.0), <, 0.25);
  for (gsize j = 0; j < 2; j++)
    g_assert_cmpfloat (fabs (r->median[j] - mean[j]), <, 0.3 * sd[j]);
}

/* emcee's integrated autocorrelation time of AR(1): τ = (1 + φ)/(1 − φ). */
static void
test_autocorr (void)
{
  const gsize n = 40000, K = 4;
  const double phi = 0.8;
  g_autofree double *x = g_new (double, n * K);
  gsl_rng *rng = gsl_rng_alloc (gsl_rng_mt19937);
  double tau;

  gsl_rng_set (rng, 5);
  for (gsize k = 0; k < K; k++)
    {
      double v = 0;
      for (gsize t = 0; t < n; t++)
        {
          v = phi * v + gsl_ran_gaussian (rng, 1.0);
          x[t * K + k] = v;
        }
    }
  gsl_rng_free (rng);
  tau = xrlab_mcmc_autocorr_time (x, n, K, 5.0);
  g_assert_cmpfloat (fabs (tau / ((1 + phi) / (1 - phi)) - 1.0), <, 0.1);
  /* white noise: τ near 1 */
  for (gsize i = 0; i < n * K; i++)
    x[i] = sin (1e3 * (double) i * (double) i);
  tau = xrlab_mcmc_autocorr_time (x, n, K, 5.0);
  g_assert_cmpfloat (tau, <, 1.5);
}

static void
cancel_at (guint step, guint n_steps, double acceptance, gpointer data)
{
  if (step == 10)
    g_cancellable_cancel (data);
}

static void
test_errors_and_cancel (void)
{
  Line l;
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabMcmcResult) r = NULL;
  g_autoptr(GCancellable) cancel = g_cancellable_new ();
  double start[2] = { 1.5, 0.8 }, lower[2] = { 0, 0 }, upper[2] = { 1, 1 };
  XrlabMcmcProblem pb = { .n = N_PTS, .p = 2, .residual = line_residual, .user_data = &l,
                          .start = start };
  XrlabMcmcOptions o;

  line_data (&l, 0.3);
  xrlab_mcmc_options_init (&o);
  o.n_walkers = 2;
  g_assert_false (xrlab_mcmc_run (&pb, &o, NULL, &r, &error));
  g_assert_error (error, XRLAB_MCMC_ERROR, XRLAB_MCMC_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "2 walkers are too few for 2 sampled parameters"));
  g_clear_error (&error);
  o.n_walkers = 16;
  o.burn = o.n_steps;
  g_assert_false (xrlab_mcmc_run (&pb, &o, NULL, &r, &error));
  g_assert_nonnull (strstr (error->message, "burn-in"));
  g_clear_error (&error);
  o.burn = 0;
  pb.lower = lower;
  pb.upper = upper;
  g_assert_false (xrlab_mcmc_run (&pb, &o, NULL, &r, &error));
  g_assert_nonnull (strstr (error->message, "outside its bounds"));
  g_clear_error (&error);
  pb.lower = pb.upper = NULL;
  l.fail = TRUE;
  g_assert_false (xrlab_mcmc_run (&pb, &o, NULL, &r, &error));
  g_assert_error (error, XRLAB_MCMC_ERROR, XRLAB_MCMC_ERROR_MODEL);
  g_clear_error (&error);
  g_assert_null (r);

  l.fail = FALSE;
  o.progress = cancel_at;
  o.progress_data = cancel;
  g_assert_false (xrlab_mcmc_run (&pb, &o, cancel, &r, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_nonnull (r);
  g_assert_cmpuint (r->n_steps, ==, 10);
  g_assert_cmpuint (r->n_kept, ==, 10);
}

/* MCMC on a fitted spectrum: the medians sit at the fit, the 1σ widths
 * are the standard errors (a well-determined, nearly Gaussian problem). */
static void
test_fitflow_mcmc (void)
{
  static const char *yaml =
    "m:\n"
    "  Offset: {y0: [2, True, 0, 5]}\n"
    "  GLP: {A: [10, True, 5, 15], x0: [10, True, 5, 15], F: [1.0, True, 0.75, 2.5], "
    "m: [0.3, False]}\n";
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabModelFile) f = xrlab_model_file_new_from_data (yaml, -1, "m.yaml", &error);
  g_autoptr(XrlabModel) m = xrlab_model_new (f, "m", &error);
  g_autoptr(XrlabFitflow) flow = NULL;
  g_autoptr(XrlabFitflowResult) fit = NULL;
  g_autoptr(XrlabMcmcResult) r = NULL;
  g_autofree double *y = NULL;
  double energy[400], sigma;
  XrlabFitflowData fd = { 0 };
  XrlabMcmcOptions o;

  for (gsize i = 0; i < 400; i++)
    energy[i] = 0.05 * (double) i;
  y = xrlab_simulate (m, energy, 400, NULL, 0, NULL, 0, XRLAB_NOISE_GAUSSIAN, 0.02, 3, &sigma,
                      &error);
  g_assert_no_error (error);
  fd.data = y;
  fd.n_rows = 1;
  fd.n_cols = 400;
  fd.energy = energy;
  fd.n_energy = 400;
  flow = xrlab_fitflow_new (&fd, &error);
  g_assert_true (xrlab_fitflow_set_sigma (flow, XRLAB_FIT_SIGMA_SCALAR, &sigma, 1, &error));
  g_assert_true (xrlab_fitflow_fit_spectrum (flow, m, 0, NULL, &fit, &error));
  g_assert_no_error (error);

  xrlab_mcmc_options_init (&o);
  o.n_walkers = 24;
  o.n_steps = 2500;
  o.burn = 500;
  o.seed = 11;
  g_assert_true (xrlab_fitflow_mcmc (fit, &o, NULL, &r, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (r->p, ==, fit->n_theta);      /* σ known: no __lnsigma */
  for (gsize j = 0; j < r->p; j++)
    {
      double half = 0.5 * (r->hi1[j] - r->lo1[j]);
      g_test_message ("%s: fit %.5f ± %.5f, MCMC %.5f (%.5f … %.5f), τ %.1f", r->names[j],
                      fit->fit->values[j], fit->fit->errors[j], r->median[j], r->lo1[j],
                      r->hi1[j], r->tau[j]);
      g_assert_cmpstr (r->names[j], ==, fit->theta_names[j]);
      g_assert_cmpfloat (fabs (r->median[j] - fit->fit->values[j]), <, 0.25 * fit->fit->errors[j]);
      g_assert_cmpfloat (fabs (half / fit->fit->errors[j] - 1.0), <, 0.15);
    }
  /* unweighted: the noise scale is sampled and finds σ */
  {
    g_autoptr(XrlabFitflow) f2 = xrlab_fitflow_new (&fd, &error);
    g_autoptr(XrlabFitflowResult) fit2 = NULL;
    g_autoptr(XrlabMcmcResult) r2 = NULL;
    g_assert_true (xrlab_fitflow_fit_spectrum (f2, m, 0, NULL, &fit2, &error));
    g_assert_true (xrlab_fitflow_mcmc (fit2, &o, NULL, &r2, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (r2->p, ==, fit2->n_theta + 1);
    g_assert_cmpfloat (fabs (exp (r2->median[r2->p - 1]) / sigma - 1.0), <, 0.1);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  xrlab_init ();
  g_test_add_func ("/mcmc/linear-gaussian", test_linear_gaussian);
  g_test_add_func ("/mcmc/sampled-noise", test_sampled_noise);
  g_test_add_func ("/mcmc/autocorr", test_autocorr);
  g_test_add_func ("/mcmc/errors-and-cancel", test_errors_and_cancel);
  g_test_add_func ("/mcmc/fitflow", test_fitflow_mcmc);
  return g_test_run ();
}
