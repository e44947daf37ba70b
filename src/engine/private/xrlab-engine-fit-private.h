/* xrlab-engine-fit-private.h -- inside the fit service of the engine
 *
 * The files of the service (one concern each):
 *   xrlab-engine-fit.c          the service and its state, datasets, counters
 *   xrlab-engine-fit-setup.c    setups: their configuration, the rebuild
 *                               after a burst
 *   xrlab-engine-fit-params.c   parameter edits
 *   xrlab-engine-fit-preview.c  preview plans, previews, the parameter table,
 *                               results as fetches
 *   xrlab-engine-fit-job.c      fit jobs and checks: prepare, run on the lane,
 *                               finish; progress and the live parameters
 *   xrlab-engine-fit-write.c    result sets (the files of xrlab-cli fit) and
 *                               synthetic data, as jobs
 *   xrlab-engine-fit-dir.c      the folder of a result set replaced whole
 *
 * Ownership. The state (FitState: datasets and setups by id) belongs to the
 * worker. What a job needs is handed to it by reference to immutable
 * objects (FitDataset, FitStage, the σ array) or as copies (the models);
 * the one object the lane and the worker share while a job runs is its
 * FitLive (a mutex inside), through which previews show a running fit's
 * parameters.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "xrlab-engine-fit.h"
#include "xrlab-engine-private.h"
#include "xrlab-model.h"
#include "xrlab-plan.h"

G_BEGIN_DECLS

extern const XrlabEngineService xrlab_engine_fit_service;

/* ---- datasets (xrlab-engine-fit.c): immutable once read ------------------- */

typedef struct {
  gatomicrefcount ref;
  guint id;
  double *data;
  gsize n_rows, n_cols;
  double *energy, *time, *aux;      /* time, aux NULL when absent */
  gsize n_e, n_t, n_a;
  char *data_name, *energy_name, *time_name;   /* as messages name them */
} FitDataset;

FitDataset *xrlab_fit_dataset_ref   (FitDataset *ds);
void        xrlab_fit_dataset_unref (FitDataset *ds);
/* A workflow over the whole dataset (its window the whole data). */
XrlabFitflow *xrlab_fit_dataset_flow (const FitDataset *ds, GError **error);
/* The row nearest @delay (0 without a delay axis), the column nearest
 * @energy. */
gsize xrlab_fit_dataset_row (const FitDataset *ds, double delay);
gsize xrlab_fit_dataset_col (const FitDataset *ds, double energy);

/* ---- results of a stage: immutable once made --------------------------------- */

typedef enum {
  FIT_SLOT_BASELINE,
  FIT_SLOT_SBS,
  FIT_SLOT_MAIN,
  FIT_SLOT_CI,
  FIT_SLOT_MCMC,
  FIT_SLOT_TRACE,
  FIT_N_SLOTS,
} FitSlot;

typedef struct {
  gatomicrefcount ref;
  FitSlot slot;
  gboolean complete;                /* FALSE: cancelled, the best so far */
  XrlabFitflowResult *result;       /* BASELINE, MAIN, TRACE */
  char *trace_param;                /* TRACE */
  double *trace;                    /* TRACE: n_trace × (delay, value, error, model) */
  gsize n_trace;
  XrlabFitflowSbs *sbs;             /* SBS */
  XrlabFitCI *ci;                   /* CI */
  char **ci_names;
  XrlabMcmcResult *mcmc;            /* MCMC */
  XrlabFitflowStage mcmc_stage;     /* the stage MCMC sampled */
  guint mcmc_burn, mcmc_thin;
  FitDataset *ds;                   /* what it was fitted on */
} FitStage;

FitStage *xrlab_fit_stage_new   (FitSlot slot, gboolean complete, FitDataset *ds);
FitStage *xrlab_fit_stage_ref   (FitStage *st);
void      xrlab_fit_stage_unref (FitStage *st);

/* ---- the parameters of a running fit --------------------------------------- */

typedef struct {
  gatomicrefcount ref;
  XrlabFitModelRole role;
  GMutex lock;                      /* guards everything below */
  guint64 serial;                   /* bumped by every post */
  gsize n_start;
  double *start;                    /* every parameter of the start model, model order */
  char **names;                     /* θ of the fit (set with the first post) */
  double *theta;
  gsize p;
} FitLive;

FitLive *xrlab_fit_live_new   (XrlabFitModelRole role, const XrlabModel *start);
/* The next stage of a job: another model, its start values, no θ yet. */
void     xrlab_fit_live_restart (FitLive *live, XrlabFitModelRole role, const XrlabModel *start);
FitLive *xrlab_fit_live_ref   (FitLive *live);
void     xrlab_fit_live_unref (FitLive *live);
void     xrlab_fit_live_post  (FitLive *live, const char *const *names, const double *theta,
                               gsize p);

/* ---- setups ------------------------------------------------------------------- */

/* A setup's configuration, deep copied (xrlab-engine-fit-setup.c). */
typedef struct _FitConfig FitConfig;

FitConfig               *xrlab_fit_config_new  (const XrlabFitSetupSpec *spec);
const XrlabFitSetupSpec *xrlab_fit_config_spec (const FitConfig *config);
void                     xrlab_fit_config_free (FitConfig *config);

/* The compiled preview of one model on the dataset's axes
 * (xrlab-engine-fit-preview.c). */
typedef struct {
  XrlabPlan *plan;                  /* every non-expression parameter free */
  XrlabPlanWorkspace *ws;           /* maps (rows on the pool) */
  XrlabPlanWorkspace *ws1;          /* rows and components, on the worker */
  double *theta;
  gsize n_theta;
  double *map;                      /* the model on the plan's rows, when map_valid */
  gboolean map_valid;
  guint64 live_serial;              /* of the live values in theta, 0: the model's */
} FitPreview;

typedef struct {
  guint id;
  gboolean valid;                   /* has a valid state */
  FitConfig *config;                /* the valid one, or the last asked while none is */
  FitDataset *ds;
  XrlabModel *model, *bmodel;       /* bmodel NULL without a baseline */
  XrlabFitflow *flow;               /* window, σ, options, seed; for checks */
  double *sigma;                    /* over the whole data, or NULL */
  gsize n_sigma;
  XrlabFitSigmaKind sigma_kind;
  double *base_data;                /* the baseline spectrum (n_cols), or NULL */

  FitPreview preview[2];            /* by XrlabFitModelRole */
  gboolean rebuild_plan[2];         /* after the burst: a new preview plan */
  gboolean recheck;                 /* after the burst: check the stages again */
  GError *not_ready;                /* the first check that failed */

  FitStage *stages[FIT_N_SLOTS];
  FitLive *live;                    /* of the running job, or NULL */
  XrlabFitSetupStats stats;
} FitSetup;

typedef struct {
  GHashTable *datasets;             /* id -> FitDataset* */
  GHashTable *setups;               /* id -> FitSetup* */
} FitState;

FitState *xrlab_fit_state (XrlabEngineWorker *worker);
FitSetup *xrlab_fit_state_setup (FitState *state, guint id, GError **error);
/* A valid setup, or NULL with NOT_READY / NO_SETUP. */
FitSetup *xrlab_fit_state_ready_setup (FitState *state, guint id, GError **error);

void xrlab_fit_setup_free (FitSetup *setup);
/* The rebuild after a burst (plans, checks). */
void xrlab_fit_setup_commit (FitSetup *setup);
/* Replaces the stage of @slot (takes @stage; NULL clears it). */
void xrlab_fit_setup_set_stage (FitSetup *setup, FitSlot slot, FitStage *stage);
/* Sets the values of the non-expression parameters of @model (@role) that
 * @from has (errors skipped). */
void xrlab_fit_setup_take_values (FitSetup *setup, XrlabFitModelRole role,
                                  const XrlabModel *from);
/* A baseline result (taken) becomes the setup's: the later stages'
 * results go, the models start where the later stages start them
 * (xrlab-engine-fit-job.c). */
void xrlab_fit_setup_keep_baseline (FitSetup *setup, FitDataset *ds, XrlabFitflowResult *result,
                                    gboolean complete);
/* A 2D or spectrum result (taken) becomes the setup's; its confidence
 * intervals and MCMC go. */
void xrlab_fit_setup_keep_main (FitSetup *setup, FitDataset *ds, XrlabFitflowResult *result,
                                gboolean complete);
/* A workflow over @ds set up as @s says (window, σ, options) and seeded
 * with @seed's result (NULL: none), reporting to @progress and @theta. */
XrlabFitflow *xrlab_fit_job_flow_new (const FitDataset *ds, const XrlabFitSetupSpec *s,
                                      XrlabFitSigmaKind sigma_kind, const double *sigma,
                                      gsize n_sigma, const FitStage *seed,
                                      XrlabFitflowProgressFunc progress,
                                      XrlabFitflowThetaFunc theta, gpointer data,
                                      GError **error);
/* Delivers an XrlabFitJobProgress to an XrlabFitJobProgressFunc (the
 * deliver of xrlab_request_attach_progress() for fit jobs and projects). */
void xrlab_fit_job_progress_deliver (gconstpointer snapshot, GCallback callback,
                                     gpointer user_data);
/* The checks of @stages (see xrlab_engine_fit_check_async). */
gboolean xrlab_fit_setup_check (FitSetup *setup, XrlabFitStages stages, GError **error);
XrlabModel *xrlab_fit_setup_model (FitSetup *setup, XrlabFitModelRole role);
/* The valid configuration. */
const XrlabFitSetupSpec *xrlab_fit_setup_spec (FitSetup *setup);
/* The baseline has run to the end: later stages start from it. */
gboolean xrlab_fit_setup_seeded (FitSetup *setup);

/* Builds the model of a configuration part: @models/@name with dynamics,
 * profiles and values (@lenient: profiles and values that name no
 * parameter of it are skipped). */
XrlabModel *xrlab_fit_build_model (const char *models, const char *name,
                                   const XrlabFitDynamics *dyn, gsize n_dyn,
                                   const XrlabFitProfile *prof, gsize n_prof,
                                   const XrlabFitValue *values, gsize n_values,
                                   gboolean lenient, GError **error);

/* ---- previews (xrlab-engine-fit-preview.c) ----------------------------------- */

void     xrlab_fit_preview_clear      (FitPreview *pv);
/* A new preview plan of @setup's model @role; FALSE with @error. */
gboolean xrlab_fit_preview_build      (FitSetup *setup, XrlabFitModelRole role, GError **error);
/* The model's values changed: θ from the model, the map stale. */
void     xrlab_fit_preview_values_changed (FitSetup *setup, XrlabFitModelRole role);

/* ---- keys of edits (xrlab-engine-fit.c) --------------------------------------- */

guint    xrlab_fit_key_setup (guint setup, XrlabFitSetupFields field);
guint    xrlab_fit_key_param (guint setup, XrlabFitModelRole role, const char *name,
                              XrlabFitParamFields field);
/* TRUE when every key of @keys (@n > 0) has a newer edit than @req. */
gboolean xrlab_fit_keys_superseded (XrlabRequest *req, const guint *keys, gsize n);
/* Counts one transfer of @bytes for the request's consumer. */
void     xrlab_fit_note_transfer (XrlabRequest *req, gsize bytes, double compute_s);

/* ---- result sets (xrlab-engine-fit-dir.c) ------------------------------------- */

/* The names of the files of a result set. */
extern const char *const xrlab_fit_result_names[];

typedef struct _FitResultDir FitResultDir;

/* Prepares a new set for @outdir: recovers and removes what killed writers
 * left beside it, refuses an @outdir that cannot be replaced, creates the
 * temporary folder. */
FitResultDir *xrlab_fit_result_dir_begin  (const char *outdir, GError **error);
const char   *xrlab_fit_result_dir_path   (FitResultDir *dir);   /* the temporary folder */
/* Swaps the new set in and removes the old one; frees @dir either way. */
gboolean      xrlab_fit_result_dir_commit (FitResultDir *dir, GError **error);
/* Removes the temporary folder; frees @dir. */
void          xrlab_fit_result_dir_abort  (FitResultDir *dir);
/* Frees @dir and leaves its folder, as a kill would (the test hook). */
void          xrlab_fit_result_dir_leave  (FitResultDir *dir);
/* Restores a whole set after a writer died between the renames and removes
 * the temporary folders of dead writers beside @outdir. */
void          xrlab_fit_result_dir_recover (const char *outdir);

/* A test hook: called at every step of a write (after each file, between
 * the renames); returning FALSE stops the write there, as a kill would
 * (nothing is cleaned up). Step names: "file:NAME", "renamed-old",
 * "exchanged", "renamed-new". @no_exchange forces the two-rename path. */
typedef gboolean (*XrlabFitWriteHook) (const char *step, gpointer user_data);
void xrlab_fit_set_write_hook (XrlabFitWriteHook hook, gpointer user_data,
                               gboolean no_exchange);
gboolean xrlab_fit_write_hook_step (const char *step);

/* The result set as one HDF5 file at @path (xrlab-engine-fit-h5.c): the
 * stages of @st, the model on the data's axes and data − model. */
gboolean xrlab_fit_write_results_h5 (const char *path, FitStage *const *st,
                                     const double *model_map, const double *resid,
                                     GCancellable *cancellable, GError **error);

G_END_DECLS
