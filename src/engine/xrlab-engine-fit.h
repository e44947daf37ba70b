/* xrlab-engine-fit.h -- spectral fitting as a service of the engine: datasets,
 * fit setups, live previews, fit jobs and result sets
 *
 * The engine owns the measurements, the models, the compiled plans, their
 * workspaces and the results; the caller (the window, xrlab-cli fit) holds
 * ids and sends requests (GIO style, replies on the caller's thread-default
 * main context, as every request of xrlab-engine.h). Arrays cross to the
 * caller only when a consumer fetches them: one fetch is one transfer of
 * exactly the doubles it asked for, counted for its consumer
 * (xrlab_engine_get_stats()).
 *
 *   id = xrlab_engine_dataset_open_async (engine, &source, ...)
 *        the files read and checked on the engine thread
 *   s  = xrlab_engine_fit_setup_new_async (engine, &spec, ...)
 *        dataset + model + baseline model + windows + σ + options
 *   xrlab_engine_fit_edit_params_async (engine, s, edits, n, ...)
 *   xrlab_engine_fit_preview_async (engine, s, "spectrum", &view, ...)
 *   xrlab_engine_fit_run_async (engine, s, &job, progress, ...)   the job lane
 *   xrlab_engine_fit_results_async (engine, s, "table", ...)
 *   xrlab_engine_fit_write_async (engine, s, "au4f-fit", ...)
 *
 * Edits (opening and closing datasets, setting up and changing setups,
 * parameter edits) carry generations like the material edits: a burst is
 * applied in order and computed once; an edit that a newer edit of the same
 * thing (the same fields of a setup, the same field of a parameter) has
 * replaced before it was served is answered XRLAB_ENGINE_ERROR_SUPERSEDED
 * without being checked; an invalid edit keeps the last valid state and its
 * reply carries the message (model errors name file, line, model and
 * parameter; read errors file, line and column).
 *
 * The compiled state of a setup lives across requests: the preview plans on
 * the dataset's own axes (every parameter that is not an expression is an
 * input of them, so a value edit only re-evaluates), their workspaces and
 * the kept model map. Structure edits (vary, bounds, expressions, a model,
 * the window, σ, the options) rebuild what depends on them -- the preview
 * plans for new expressions or models, the checks of every stage (which
 * compile the stages' plans) -- on the engine thread, once per burst
 * (xrlab_engine_fit_stats_async() counts them). Previews are computed when
 * fetched: edits without a consumer compute nothing.
 *
 * Fit jobs run on the job lane (one at a time; previews, edits and optics
 * requests are answered meanwhile). Progress comes on the caller's context at
 * most every ~30 ms; cancelling stops the fit at its next iteration and keeps
 * its best parameters (the reply is G_IO_ERROR_CANCELLED; the results hold
 * them, marked incomplete); shutting the engine down cancels a running job.
 * While a fit runs, previews and the parameter table of its setup show its
 * current parameters (XrlabFitPreview.live). When a job ends, its parameters
 * become the setup's values: after a baseline fit the baseline model's, and
 * the model's seeded from them (xrlab_fitflow_seeded_model() without
 * pinning's vary flags); after a 2D or spectrum fit the model's. A baseline
 * job drops the later stages' results, a 2D or spectrum job the
 * confidence intervals; a change of the dataset, a model, the windows, σ or
 * the options drops every result.
 *
 * A result set (xrlab_engine_fit_write_async) is the files `xrlab-cli fit`
 * writes, written by the engine into a folder beside OUTDIR and swapped in
 * with renames: a kill at any moment leaves the complete previous set or the
 * complete new one, and the next write removes what a killed one left.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "xrlab-engine.h"
#include "xrlab-fitflow.h"
#include "xrlab-simulate.h"

G_BEGIN_DECLS

#define XRLAB_ENGINE_FIT_ERROR (xrlab_engine_fit_error_quark ())
GQuark xrlab_engine_fit_error_quark (void);

typedef enum {
  XRLAB_ENGINE_FIT_ERROR_NO_DATASET,  /* an id that is not an open dataset */
  XRLAB_ENGINE_FIT_ERROR_NO_SETUP,    /* an id that is not a setup */
  XRLAB_ENGINE_FIT_ERROR_NOT_READY,   /* a setup without a valid state, a result not there */
  XRLAB_ENGINE_FIT_ERROR_SOURCE,      /* a dataset source that cannot be read (folder layout) */
  XRLAB_ENGINE_FIT_ERROR_SIGMA,       /* σ of a shape that fits neither the data nor an axis */
  XRLAB_ENGINE_FIT_ERROR_OUTPUT,      /* a result-set folder that cannot be replaced */
  XRLAB_ENGINE_FIT_ERROR_SIZE,        /* arrays over the caller's limit (max_values) */
} XrlabEngineFitError;

/* Whether @model on axes of @n_e energies, @n_t delays (0: none) and @n_a
 * aux values (0: none) stays within @max_values values (0: no limit): the
 * energies × the delays, the delays squared when it has time dependence
 * (the kernels of convolutions), the delays × the aux values when it has
 * profiles, and with @fit the Jacobian (points × free parameters + 1). The
 * error names the product over the limit. Any thread. */
gboolean xrlab_fit_model_size_check (const XrlabModel *model, gsize n_e, gsize n_t, gsize n_a,
                                     gboolean fit, guint64 max_values, GError **error);

/* Waiting for a reply, for callers that wait (the CLI, tests, benchmarks):
 * pass xrlab_engine_reply_cb and a zeroed XrlabEngineReply as the callback
 * and its data; xrlab_engine_reply_wait() iterates the thread-default main
 * context until the reply came and returns it for the *_finish() call. */
typedef struct {
  GAsyncResult *result;
} XrlabEngineReply;

void          xrlab_engine_reply_cb    (GObject *source, GAsyncResult *result, gpointer reply);
GAsyncResult *xrlab_engine_reply_wait  (XrlabEngineReply *reply);
void          xrlab_engine_reply_clear (XrlabEngineReply *reply);

/* The generation of the newest edit of the fit service submitted so far
 * (replies carry the one they show). */
guint64 xrlab_engine_fit_get_generation (XrlabEngine *self);

/* ---- datasets ------------------------------------------------------------ */

typedef enum {
  /* Each of data, energy, time and aux is a file: a comma separated matrix
   * (data) or a column of numbers (axes), or an HDF5 dataset "FILE:/PATH". */
  XRLAB_DATASET_FILES,
  /* The NXdata group of the HDF5 file @data: its signal (delays × energies,
   * or one spectrum) and the axes of its dimensions. */
  XRLAB_DATASET_NEXUS,
  /* Arrays in memory (copied): data_values, energy_values, ... */
  XRLAB_DATASET_ARRAYS,
} XrlabDatasetSourceKind;

typedef struct {
  XrlabDatasetSourceKind kind;
  const char *data;               /* FILES, NEXUS */
  const char *energy;             /* FILES */
  const char *time;               /* FILES; NULL: a single spectrum */
  const char *aux;                /* FILES; NULL: no aux axis */
  const char *name;               /* ARRAYS: the data's name in messages (NULL: "the data") */
  const double *data_values;      /* ARRAYS: n_rows × n_cols, row-major */
  gsize n_rows, n_cols;
  const double *energy_values;
  gsize n_energy;
  const double *time_values;      /* NULL: a single spectrum */
  gsize n_time;
  const double *aux_values;       /* NULL: none */
  gsize n_aux;
  /* FILES: the most values the axes may imply (energies × delays), checked
   * before the data are read; 0: no limit */
  guint64 max_values;
} XrlabDatasetSource;

/* The files of a measurement folder in trspecfit's layout: data.csv (or
 * data/data.csv) with energy.csv and time.csv beside it, and aux_axis.csv
 * or aux.csv when there is one; a folder with data.csv directly is taken as
 * it is. Fills @source (kind FILES, its strings owned by @files). An HDF5
 * file instead of a folder is taken as a NeXus file (kind NEXUS). */
typedef struct {
  char *data, *energy, *time, *aux;
} XrlabDatasetFiles;

gboolean xrlab_dataset_files_find  (const char *folder, XrlabDatasetFiles *files,
                                    XrlabDatasetSource *source, GError **error);
void     xrlab_dataset_files_clear (XrlabDatasetFiles *files);

/* The reply of an open (g_free). */
typedef struct {
  guint id;
  gsize n_rows;                   /* delays (1 for a single spectrum) */
  gsize n_energies;
  gsize n_aux;
  gboolean has_time;
  double energy_first, energy_last;   /* as the axis runs (descending stays descending) */
  double time_first, time_last;       /* NaN without a delay axis */
  double data_min, data_max;          /* over the finite values (NaN: none) */
  gsize n_nonfinite;                  /* NaN or infinite values (allowed outside a window) */
} XrlabDatasetInfo;

/* Reads and checks a measurement on the engine thread (the shapes of the
 * data and the axes, the axes finite and monotonic: xrlab_fitflow_new()).
 * Returns the id the dataset will have, usable in later requests at once
 * (a setup on a dataset that failed to open fails with NO_DATASET). */
guint             xrlab_engine_dataset_open_async  (XrlabEngine              *self,
                                                    const XrlabDatasetSource *source,
                                                    GCancellable             *cancellable,
                                                    GAsyncReadyCallback       callback,
                                                    gpointer                  user_data);
XrlabDatasetInfo *xrlab_engine_dataset_open_finish (XrlabEngine   *self,
                                                    GAsyncResult  *result,
                                                    GError       **error);
/* Frees the engine's copy (setups and jobs on it keep theirs until they
 * end). No reply. */
void              xrlab_engine_dataset_close       (XrlabEngine *self, guint dataset);

/* ---- setups -------------------------------------------------------------- */

/* Time dependence of @param: the time models @models of @file (several and
 * a @frequency: multi-cycle, see xrlab_model_add_dynamics()). */
typedef struct {
  const char *param;
  const char *file;
  const char *const *models;
  gsize n_models;
  double frequency;               /* 0: one model */
} XrlabFitDynamics;

typedef struct {
  const char *param;
  const char *file;
  const char *model;
} XrlabFitProfile;

typedef struct {
  const char *param;
  double value;
} XrlabFitValue;

typedef enum {
  XRLAB_FIT_SIGMA_FROM_NONE,      /* unweighted; errors scaled by χ²_ν */
  XRLAB_FIT_SIGMA_FROM_VALUE,     /* one σ for every point */
  /* A file: a matrix of the data's shape (per point), or one column of one
   * value per energy or per delay. */
  XRLAB_FIT_SIGMA_FROM_FILE,
  XRLAB_FIT_SIGMA_FROM_ARRAY,     /* @kind and @values over the whole data (copied) */
} XrlabFitSigmaFrom;

typedef struct {
  XrlabFitSigmaFrom from;
  double value;
  const char *file;
  XrlabFitSigmaKind kind;
  const double *values;
  gsize n_values;
} XrlabFitSigma;

typedef struct {
  guint dataset;
  /* the model: @model of the file @models, with @dynamics, @profiles and
   * then @values applied in order */
  const char *models;
  const char *model;
  const XrlabFitDynamics *dynamics;
  gsize n_dynamics;
  const XrlabFitProfile *profiles;
  gsize n_profiles;
  const XrlabFitValue *values;
  gsize n_values;
  /* the baseline model: @baseline_model of the file @baseline_models (NULL:
   * @models; @baseline_model NULL: no baseline stage), with those of
   * @baseline_profiles and @baseline_values that name one of its
   * parameters */
  const char *baseline_models;
  const char *baseline_model;
  const XrlabFitProfile *baseline_profiles;
  gsize n_baseline_profiles;
  const XrlabFitValue *baseline_values;
  gsize n_baseline_values;
  double e0, e1, t0, t1;          /* the fit window (xrlab_fitflow_set_window; NaN: open) */
  double b0, b1;                  /* the baseline delays */
  XrlabFitSigma sigma;
  XrlabFitMethod method;
  gboolean pin_to_baseline;
  gboolean track_peaks;
  guint n_threads;                /* of slice-by-slice fits (0: the pool's) */
  /* the errors scaled by χ²_ν (xrlab-fit.h; AUTO: unless σ is given) */
  XrlabFitScaleCovar scale_covar;
  /* the most values of the model's arrays (xrlab_fit_model_size_check(),
   * with the Jacobian); 0: no limit */
  guint64 max_values;
} XrlabFitSetupSpec;

/* Windows open, no baseline, no σ, LM, peak tracking on. */
void xrlab_fit_setup_spec_init (XrlabFitSetupSpec *spec);

typedef enum {
  XRLAB_FIT_SETUP_DATASET         = 1 << 0,
  XRLAB_FIT_SETUP_MODEL           = 1 << 1,  /* models, model, dynamics, profiles, values */
  XRLAB_FIT_SETUP_BASELINE_MODEL  = 1 << 2,  /* baseline_models, baseline_model, its profiles
                                              * and values */
  XRLAB_FIT_SETUP_WINDOW          = 1 << 3,  /* e0, e1, t0, t1 */
  XRLAB_FIT_SETUP_BASELINE_DELAYS = 1 << 4,  /* b0, b1 */
  XRLAB_FIT_SETUP_SIGMA           = 1 << 5,
  XRLAB_FIT_SETUP_OPTIONS         = 1 << 6,  /* method, pin, track_peaks, n_threads, max_values,
                                              * scale_covar */
  XRLAB_FIT_SETUP_ALL             = 0x7f,
} XrlabFitSetupFields;

/* A new setup; returns its id (usable at once). The models are loaded and
 * checked, σ read and checked against the data, the window set, in that
 * order; the first error is the reply, and the setup then has no valid
 * state until an update makes one. */
guint    xrlab_engine_fit_setup_new_async    (XrlabEngine             *self,
                                              const XrlabFitSetupSpec *spec,
                                              GCancellable            *cancellable,
                                              GAsyncReadyCallback      callback,
                                              gpointer                 user_data);
/* Changes @fields of a setup to those of @spec. */
void     xrlab_engine_fit_setup_update_async (XrlabEngine             *self,
                                              guint                    setup,
                                              const XrlabFitSetupSpec *spec,
                                              XrlabFitSetupFields      fields,
                                              GCancellable            *cancellable,
                                              GAsyncReadyCallback      callback,
                                              gpointer                 user_data);
/* The reply of both. */
gboolean xrlab_engine_fit_setup_finish       (XrlabEngine   *self,
                                              GAsyncResult  *result,
                                              GError       **error);
/* Frees a setup and its results (a job of it that is running runs to its
 * end, and what it makes is dropped). No reply. */
void     xrlab_engine_fit_setup_close        (XrlabEngine *self, guint setup);

typedef enum {
  XRLAB_FIT_MODEL_MAIN,           /* the model (2D or spectrum stages, slice by slice) */
  XRLAB_FIT_MODEL_BASELINE,       /* the baseline model */
} XrlabFitModelRole;

typedef enum {
  XRLAB_FIT_PARAM_VALUE  = 1 << 0,
  XRLAB_FIT_PARAM_VARY   = 1 << 1,
  XRLAB_FIT_PARAM_BOUNDS = 1 << 2,
  XRLAB_FIT_PARAM_EXPR   = 1 << 3,  /* @expr NULL: a plain parameter again */
  XRLAB_FIT_PARAM_SHARE  = 1 << 4,  /* project / file in a joint fit (xrlab_model_set_share) */
} XrlabFitParamFields;

typedef struct {
  XrlabFitModelRole model;
  const char *name;
  XrlabFitParamFields fields;     /* applied in the order EXPR, BOUNDS, VALUE, VARY, SHARE */
  double value;
  gboolean vary;
  double min, max;
  const char *expr;
  XrlabParamShare share;
} XrlabFitParamEdit;

/* Edits parameters by name; the edits of one request apply together or not
 * at all. */
void     xrlab_engine_fit_edit_params_async  (XrlabEngine             *self,
                                              guint                    setup,
                                              const XrlabFitParamEdit *edits,
                                              gsize                    n,
                                              GCancellable            *cancellable,
                                              GAsyncReadyCallback      callback,
                                              gpointer                 user_data);
gboolean xrlab_engine_fit_edit_params_finish (XrlabEngine   *self,
                                              GAsyncResult  *result,
                                              GError       **error);

/* ---- previews (fetches) ------------------------------------------------------ */

typedef enum {
  XRLAB_FIT_VIEW_MAP,             /* delays × energies */
  XRLAB_FIT_VIEW_SPECTRUM,        /* the delay nearest @delay */
  XRLAB_FIT_VIEW_TRACE,           /* the energy nearest @energy */
} XrlabFitView;

typedef enum {
  XRLAB_FIT_SERIES_DATA       = 1 << 0,
  XRLAB_FIT_SERIES_MODEL      = 1 << 1,
  XRLAB_FIT_SERIES_RESIDUAL   = 1 << 2,   /* data − model */
  XRLAB_FIT_SERIES_COMPONENTS = 1 << 3,   /* each component, in model order */
  XRLAB_FIT_SERIES_AXES       = 1 << 4,   /* the energies and delays of the block */
} XrlabFitSeries;

typedef struct {
  /* MAIN: the dataset's delays and energies; BASELINE: the baseline model on
   * the baseline spectrum (the mean of the baseline delays; one row) */
  XrlabFitModelRole model;
  XrlabFitView view;
  XrlabFitSeries series;
  double delay;                   /* SPECTRUM */
  double energy;                  /* TRACE */
  gboolean window_only;           /* only the rows and columns of the fit window */
} XrlabFitPreviewSpec;

/* One allocation (g_free). Each asked series is an n_rows × n_cols block,
 * row-major, of rows [row0, row0 + n_rows) and energy columns
 * [col0, col0 + n_cols) of the data (a trace: n_cols = 1). */
typedef struct {
  guint64 generation;             /* the state of the fit service it shows */
  gboolean live;                  /* the parameters of a running fit */
  gsize row0, n_rows, col0, n_cols;
  gsize n_components;
  const char *const *component_names;   /* GLP_01, Shirley, ... */
  const double *energy;           /* n_cols (AXES) */
  const double *delay;            /* n_rows (AXES, and a delay axis) */
  const double *data;
  const double *model;
  const double *residual;
  const double *components;       /* n_components blocks */
} XrlabFitPreview;

void             xrlab_engine_fit_preview_async  (XrlabEngine               *self,
                                                  guint                      setup,
                                                  const char                *consumer,
                                                  const XrlabFitPreviewSpec *spec,
                                                  GCancellable              *cancellable,
                                                  GAsyncReadyCallback        callback,
                                                  gpointer                   user_data);
XrlabFitPreview *xrlab_engine_fit_preview_finish (XrlabEngine   *self,
                                                  GAsyncResult  *result,
                                                  GError       **error);

typedef struct {
  const char *name;
  const char *component;
  XrlabParamRole role;
  const char *host;               /* of a dynamics or profile parameter */
  double value;                   /* the base value (an expression's evaluated) */
  /* the error of the last fit of this model, while the value is still the
   * fitted one; NaN otherwise */
  double error;
  gboolean vary;
  gboolean is_static;
  gboolean fitted;                /* free in the last fit of this model */
  double min, max;
  const char *expr;               /* NULL: not an expression */
  XrlabParamShare share;          /* project / file in a joint fit, as the model has it */
  gboolean time_dependent;        /* has dynamics */
  double value_at_delay;          /* at the delay nearest the one asked (= value otherwise) */
} XrlabFitParamRow;

/* One allocation (g_free). */
typedef struct {
  guint64 generation;
  gboolean live;
  double delay;                   /* the delay of value_at_delay (NaN: none) */
  gsize n_params;
  const XrlabFitParamRow *params; /* model order */
  /* The first check of the setup's stages that fails, or NULL (a fit job
   * would then fail with this message). */
  const char *not_ready;
} XrlabFitParamTable;

void                xrlab_engine_fit_params_async  (XrlabEngine         *self,
                                                    guint                setup,
                                                    const char          *consumer,
                                                    XrlabFitModelRole    model,
                                                    double               delay,
                                                    GCancellable        *cancellable,
                                                    GAsyncReadyCallback  callback,
                                                    gpointer             user_data);
XrlabFitParamTable *xrlab_engine_fit_params_finish (XrlabEngine   *self,
                                                    GAsyncResult  *result,
                                                    GError       **error);

/* The time-dependent parameters of a setup's model against delay: each
 * one's value at every delay of the data, at the model's values (after a
 * 2D fit, its fitted time dependence; a profiled parameter's mean over the
 * aux axis). One allocation (g_free); no parameters for a 1D measurement. */
typedef struct {
  guint64 generation;
  gsize n_delays, n_params;
  const double *delay;              /* n_delays */
  const char *const *names;         /* n_params, model order */
  const double *values;             /* n_params rows of n_delays */
} XrlabFitParamTraces;

void                 xrlab_engine_fit_param_traces_async  (XrlabEngine         *self,
                                                           guint                setup,
                                                           const char          *consumer,
                                                           XrlabFitModelRole    model,
                                                           GCancellable        *cancellable,
                                                           GAsyncReadyCallback  callback,
                                                           gpointer             user_data);
XrlabFitParamTraces *xrlab_engine_fit_param_traces_finish (XrlabEngine   *self,
                                                           GAsyncResult  *result,
                                                           GError       **error);

/* ---- fit jobs ------------------------------------------------------------ */

typedef enum {
  XRLAB_FIT_STAGES_BASELINE = 1 << 0,
  XRLAB_FIT_STAGES_SBS      = 1 << 1,
  XRLAB_FIT_STAGES_MAIN     = 1 << 2,  /* 2D, or the spectrum of a single spectrum */
  /* the slice-by-slice trace of XrlabFitJobSpec.trace_param fitted against
   * delay with its time dependence (xrlab_fitflow_fit_trace(); needs SBS);
   * a 2D fit after it starts from its result */
  XRLAB_FIT_STAGES_TRACE    = 1 << 3,
} XrlabFitStages;

/* Every check the @stages make before they start, without fitting
 * (xrlab_fitflow_check(); before the baseline has run, the later stages
 * are checked with the baseline model's names). */
void     xrlab_engine_fit_check_async  (XrlabEngine         *self,
                                        guint                setup,
                                        XrlabFitStages       stages,
                                        GCancellable        *cancellable,
                                        GAsyncReadyCallback  callback,
                                        gpointer             user_data);
gboolean xrlab_engine_fit_check_finish (XrlabEngine   *self,
                                        GAsyncResult  *result,
                                        GError       **error);

typedef enum {
  XRLAB_FIT_JOB_BASELINE,
  XRLAB_FIT_JOB_SBS,
  XRLAB_FIT_JOB_2D,
  XRLAB_FIT_JOB_SPECTRUM,         /* one data row with the model (1D data: row 0) */
  XRLAB_FIT_JOB_CI,               /* confidence intervals on the 2D or spectrum result */
  /* The workflow of xrlab-cli fit in one job: every stage of @stages
   * checked first (xrlab_engine_fit_check_async()), then the baseline, slice
   * by slice, the main fit (2D, or the spectrum of a single spectrum) and,
   * with @ci_names, the confidence intervals of the main fit, and with
   * mcmc_steps > 0 MCMC uncertainties (xrlab_fitflow_mcmc()) of the main fit,
   * each starting from the ones before; it stops at the first failure,
   * keeping the results of the stages done. @stages without MAIN: no main
   * fit (the slice table alone, or the baseline alone), and the confidence
   * intervals and MCMC are the baseline fit's. */
  XRLAB_FIT_JOB_WORKFLOW,
} XrlabFitJobKind;

typedef struct {
  XrlabFitJobKind kind;
  gsize row;                      /* SPECTRUM */
  XrlabFitStages stages;          /* WORKFLOW */
  const char *const *ci_names;    /* CI, WORKFLOW: fitted parameters */
  gsize n_ci_names;
  const double *ci_sigmas;        /* NULL for 1, 2, 3 */
  gsize n_ci_sigmas;
  /* WORKFLOW: MCMC (0 steps: none); walkers 0: the sampler's default; the
   * noise scale as xrlab_fitflow_mcmc() has it (AUTO) */
  guint mcmc_steps, mcmc_walkers, mcmc_burn, mcmc_thin;
  guint64 mcmc_seed;
  const char *trace_param;        /* WORKFLOW with TRACE */
} XrlabFitJobSpec;

typedef struct {
  XrlabFitJobKind job;
  XrlabFitflowStage stage;        /* of the running fit (CI: the main fit's) */
  guint iteration;                /* of a fit (0: the start) */
  double chi2;                    /* NaN for slice by slice and CIs */
  guint slices_done, n_slices;    /* slice by slice */
  double elapsed_s;
} XrlabFitJobProgress;

typedef void (*XrlabFitJobProgressFunc) (const XrlabFitJobProgress *progress, gpointer user_data);

/* Runs @job on the job lane. TRUE when it ran to the end; cancelled: FALSE
 * with G_IO_ERROR_CANCELLED and the best parameters kept in the results;
 * any other error: FALSE (nothing kept). */
void     xrlab_engine_fit_run_async  (XrlabEngine            *self,
                                      guint                   setup,
                                      const XrlabFitJobSpec  *job,
                                      XrlabFitJobProgressFunc progress,
                                      gpointer                progress_data,
                                      GDestroyNotify          progress_data_free,
                                      GCancellable           *cancellable,
                                      GAsyncReadyCallback     callback,
                                      gpointer                user_data);
gboolean xrlab_engine_fit_run_finish (XrlabEngine   *self,
                                      GAsyncResult  *result,
                                      GError       **error);

/* The results of a setup (a fetch): the engine's own, immutable results,
 * shared until freed with xrlab_fit_results_free(). NULL members: stages
 * not run (or dropped). */
typedef struct {
  guint64 generation;
  const XrlabFitflowResult *baseline;
  gboolean baseline_complete;     /* FALSE: cancelled, the best so far */
  const XrlabFitflowSbs *sbs;
  gboolean sbs_complete;
  const XrlabFitflowResult *main; /* 2D or spectrum */
  gboolean main_complete;
  const XrlabFitflowResult *trace;   /* a slice-by-slice trace against delay */
  const XrlabFitCI *ci;           /* of the main fit, or of the baseline without one */
  const char *const *ci_names;
  const XrlabMcmcResult *mcmc;    /* of the stage mcmc_stage */
  XrlabFitflowStage mcmc_stage;
} XrlabFitResults;

void             xrlab_engine_fit_results_async  (XrlabEngine         *self,
                                                  guint                setup,
                                                  const char          *consumer,
                                                  GCancellable        *cancellable,
                                                  GAsyncReadyCallback  callback,
                                                  gpointer             user_data);
XrlabFitResults *xrlab_engine_fit_results_finish (XrlabEngine   *self,
                                                  GAsyncResult  *result,
                                                  GError       **error);
void             xrlab_fit_results_free          (XrlabFitResults *results);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (XrlabFitResults, xrlab_fit_results_free)

/* ---- multi-file projects --------------------------------------------------- */

/* Several measurements fitted jointly with one model (xrlab-project.h,
 * trspecfit's Project.fit_2d): one setup per file, each with its dataset,
 * window, σ and baseline model; the model of the first setup is the joint
 * model (its `project` parameters shared by all files, `file` ones per
 * file). With BASELINE in @stages every file's baseline is fitted first
 * (else each starts from the baseline result its setup has); MAIN is the
 * joint 2D fit. Every file's stages are checked before any fit. When the
 * job ends, every file's baseline and 2D results become its setup's (a
 * setup's own results, as after its own jobs: xrlab_engine_fit_results_async,
 * xrlab_engine_fit_write_async per file; confidence intervals and MCMC are
 * not offered for joint results). Progress: the stage and iteration of the
 * joint fit with its χ² (baselines: the file's index in slices_done). */
typedef struct {
  const guint *setups;
  gsize n_setups;
  const char *const *names;       /* the files in messages and results; NULL: file_1, ... */
  XrlabFitStages stages;          /* BASELINE, MAIN */
} XrlabFitProjectSpec;

/* The joint result (one allocation, g_free). */
typedef struct {
  gsize n_files;
  gsize n_shared;
  const char *const *shared_names;
  const double *shared_values, *shared_errors;
  gsize ndata, nvarys;            /* all points, all free parameters */
  double chi2, redchi, aic, bic;
  guint niter, nfev;
  gboolean converged;
  gboolean complete;              /* FALSE: cancelled, the best so far */
  gboolean covar_scaled;          /* errors scaled by the joint χ²_ν */
  const char *message;            /* why the fit stopped */
  double wall_s;
} XrlabFitProject;

void             xrlab_engine_fit_project_run_async  (XrlabEngine               *self,
                                                      const XrlabFitProjectSpec *spec,
                                                      XrlabFitJobProgressFunc    progress,
                                                      gpointer                   progress_data,
                                                      GDestroyNotify             progress_data_free,
                                                      GCancellable              *cancellable,
                                                      GAsyncReadyCallback        callback,
                                                      gpointer                   user_data);
/* NULL with the error; cancelled: NULL with G_IO_ERROR_CANCELLED (the
 * setups keep the best parameters, marked incomplete). */
XrlabFitProject *xrlab_engine_fit_project_run_finish (XrlabEngine   *self,
                                                      GAsyncResult  *result,
                                                      GError       **error);

/* Writes @project's shared parameters and joint metrics as CSV into
 * @path: name,value,stderr (one row per shared parameter), then
 * chi2,redchi,aic,bic,ndata,nvarys,niter,nfev,covar_scaled,wall_s under a
 * header of their own after an empty line. Any thread. */
gboolean xrlab_fit_project_write (const XrlabFitProject *project, const char *path,
                                  GError **error);

/* ---- result sets ---------------------------------------------------------- */

/* Writes the result set of the setup into @outdir (a job): params.csv,
 * metrics.csv, correl.csv, fit.csv, residual.csv of the 2D or spectrum
 * result; baseline_params.csv, baseline_metrics.csv, sbs.csv, ci.csv,
 * mcmc.csv, mcmc_chain.csv and of a trace fit trace_params.csv,
 * trace_metrics.csv and trace.csv (delay,value,error,model) when those
 * results exist (the formats of
 * `xrlab-cli fit --help`; without a main fit, the others alone). The
 * folder is replaced as a whole (result files of an earlier set that this
 * one lacks go): files and folders in it that are not part of a result set
 * stay; a symbolic link is followed; the current folder, or one that holds
 * it, is refused. A cancelled write leaves the previous set. An @outdir
 * named FILE.h5 (xrlab_h5_is_h5_name()) is one HDF5 file instead, written
 * atomically (the layout of xrlab-engine-fit-h5.c: the data, the fit and
 * the residual as NXdata, the parameters as attributes, every table). */
void     xrlab_engine_fit_write_async  (XrlabEngine         *self,
                                        guint                setup,
                                        const char          *outdir,
                                        GCancellable        *cancellable,
                                        GAsyncReadyCallback  callback,
                                        gpointer             user_data);
gboolean xrlab_engine_fit_write_finish (XrlabEngine   *self,
                                        GAsyncResult  *result,
                                        GError       **error);

/* The checks of @outdir that a write makes first (a folder or nothing yet,
 * not the current folder nor one that holds it; for FILE.h5 not a folder),
 * for a caller that wants to know before it fits. Any thread. */
gboolean xrlab_fit_result_dir_check (const char *outdir, GError **error);

/* ---- synthetic data -------------------------------------------------------- */

typedef struct {
  const char *models;
  const char *model;
  const XrlabFitDynamics *dynamics;
  gsize n_dynamics;
  const XrlabFitProfile *profiles;
  gsize n_profiles;
  const XrlabFitValue *values;
  gsize n_values;
  const char *energy, *time, *aux;   /* axis files (time, aux may be NULL) */
  XrlabNoiseKind noise;
  double level;
  guint64 seed;
  const char *output;                /* CSV, the layout of the data of a fit */
  guint64 max_values;                /* xrlab_fit_model_size_check(); 0: no limit */
} XrlabFitSimulateSpec;

/* The model plus noise (xrlab_simulate()) written to @output (a job). The
 * reply's @scale: σ of Gaussian noise, counts per unit of Poisson noise. */
void     xrlab_engine_fit_simulate_async  (XrlabEngine                *self,
                                           const XrlabFitSimulateSpec *spec,
                                           GCancellable               *cancellable,
                                           GAsyncReadyCallback         callback,
                                           gpointer                    user_data);
gboolean xrlab_engine_fit_simulate_finish (XrlabEngine   *self,
                                           GAsyncResult  *result,
                                           double        *scale,
                                           GError       **error);

/* ---- realisations and parameter sweeps ------------------------------------- */

typedef enum {
  XRLAB_FIT_SWEEP_VALUES,         /* @values */
  XRLAB_FIT_SWEEP_UNIFORM,        /* @n_samples draws in [a, b] */
  XRLAB_FIT_SWEEP_NORMAL,         /* mean a, sd b */
  XRLAB_FIT_SWEEP_LOGNORMAL,      /* of the logarithm: mean a, sd b */
} XrlabFitSweepKind;

typedef struct {
  const char *param;
  XrlabFitSweepKind kind;
  const double *values;
  gsize n_values;
  double a, b;
  gsize n_samples;
} XrlabFitSweepParam;

typedef struct {
  /* the model, the axes, the noise and its seed; @output is FILE.h5 or a
   * folder (see xrlab_engine_fit_simulate_set_async) */
  XrlabFitSimulateSpec base;
  guint n_real;                   /* noisy realisations per configuration (0: 1) */
  const XrlabFitSweepParam *sweep;   /* none: one configuration, the model's values */
  gsize n_sweep;
  XrlabSweepStrategy strategy;
  guint64 sweep_seed;             /* of the draws (xrlab-simulate.h: trspecfit's for a seed) */
} XrlabFitSimulateSetSpec;

/* Noisy realisations of a model, for every configuration of a parameter
 * sweep (trspecfit's Simulator.simulate_n and simulate_parameter_sweep), as
 * a job: configuration c's realisation r is drawn with seed base.seed +
 * c·n_real + r (in parallel on the pool; the same data for any number of
 * threads). Written as
 *   FILE.h5: one HDF5 file (written whole, then renamed over @output) in
 *     the layout of trspecfit's SweepDataset: /metadata (attributes
 *     n_configs, n_realizations_per_config, noise, level, seed), /axes
 *     (energy, time, aux), /parameter_configs/config_NNNNNN (the swept
 *     values as attributes), /simulated_data/config_NNNNNN/realization_NNNN
 *     and /clean_data/config_NNNNNN;
 *   a folder: configs.csv (config, then the swept parameters) and
 *     config_NNNNNN/clean.csv, config_NNNNNN/noisy_NNNN.csv per
 *     configuration (the layout of the data of a fit).
 * The reply: the number of configurations and the noise scale of the first
 * realisation (σ, or the counts per unit). */
void     xrlab_engine_fit_simulate_set_async  (XrlabEngine                   *self,
                                               const XrlabFitSimulateSetSpec *spec,
                                               GCancellable                  *cancellable,
                                               GAsyncReadyCallback            callback,
                                               gpointer                       user_data);
gboolean xrlab_engine_fit_simulate_set_finish (XrlabEngine   *self,
                                               GAsyncResult  *result,
                                               gsize         *n_configs,
                                               double        *scale,
                                               GError       **error);

/* A model's values @y (@n_t delays × @n_e energies; one spectrum when @time
 * is NULL) as an HDF5 file (written atomically) in the layout of a
 * measurement: the NXdata /entry/data (signal "data", axes "time" in ps and
 * "energy" in eV), the parameter values of @m as attributes of
 * /entry/params, the model and the noise (@noise, @level, @seed, σ or the
 * counts per unit @scale) as attributes of /entry. `xrlab-cli simulate` and
 * `eval` with -o FILE.h5. Any thread. */
gboolean xrlab_fit_write_model_h5 (const char *path, const XrlabModel *m, const double *y,
                                   const double *energy, gsize n_e, const double *time,
                                   gsize n_t, XrlabNoiseKind noise, double level,
                                   guint64 seed, double scale, GError **error);

/* ---- counters ---------------------------------------------------------------- */

typedef struct {
  guint64 n_rebuilds;             /* structure changes compiled (plans, stage checks) */
  guint64 n_preview_plans;        /* preview plans built */
  guint64 n_evaluations;          /* preview evaluations (a map, some rows, a component) */
  guint64 n_value_edits;          /* parameter edits that changed values only */
  guint64 n_jobs;                 /* jobs run */
} XrlabFitSetupStats;

void     xrlab_engine_fit_stats_async  (XrlabEngine         *self,
                                        guint                setup,
                                        GCancellable        *cancellable,
                                        GAsyncReadyCallback  callback,
                                        gpointer             user_data);
gboolean xrlab_engine_fit_stats_finish (XrlabEngine         *self,
                                        GAsyncResult        *result,
                                        XrlabFitSetupStats  *stats,
                                        GError             **error);

G_END_DECLS
