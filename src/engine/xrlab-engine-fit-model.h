/* xrlab-engine-fit-model.h -- building the model of a fit setup: its
 * structure edited, described and saved, on the engine thread
 *
 * The model of a setup is loaded from a trspecfit model file with the setup
 * (XrlabFitSetupSpec: models, model, dynamics, profiles, baseline_model) and
 * then lives in the engine. A window shows it and changes it with three
 * requests besides the parameter edits of xrlab-engine-fit.h:
 *
 *   xrlab_engine_fit_describe_async (engine, s, "tree", MAIN, ...)
 *       the model as a tree: components, parameters, attachments
 *   xrlab_engine_fit_edit_model_async (engine, s, MAIN, edits, n, ...)
 *       add (from xrlab_model_palette()), remove, move components; attach
 *       or detach time dependence and profiles; subcycles
 *   xrlab_engine_fit_edit_params_async (engine, s, edits, n, ...)
 *       value, vary, min, max, expression (xrlab-engine-fit.h)
 *   xrlab_engine_fit_save_model_async (engine, s, "model.yaml", ...)
 *       a trspecfit model file of both models; its reply says how to load
 *       it back (XrlabFitModelSaved)
 *
 * An edited model stays the setup's across updates of its window, σ,
 * options and dataset; an update of XRLAB_FIT_SETUP_MODEL or
 * XRLAB_FIT_SETUP_BASELINE_MODEL loads both models from their files again
 * (the edits are gone: save first, and load the saved file).
 *
 * A typical window: after a structure edit, re-fetch the tree and the
 * parameter table (xrlab_engine_fit_params_async), and follow the renames
 * of the reply in its own selection; after a value edit, only the preview.
 *
 * The types of the edits and the tree are those of xrlab-model-edit.h
 * (XrlabModelEdit, XrlabModelEditResult, XrlabModelDesc, the palette:
 * xrlab_model_palette(), any thread). The names of the models of a file, for
 * a chooser: xrlab_model_file_load() and xrlab_model_file_model_name()
 * (xrlab-model.h, any thread).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "xrlab-engine-fit.h"
#include "xrlab-model-edit.h"

G_BEGIN_DECLS

/* ---- structure edits --------------------------------------------------------- */

/* Applies @edits (xrlab_model_edit(): in order, all or nothing, each seeing
 * the names the ones before gave) to the model @model of @setup. An edit
 * like this has a generation, like every edit of the fit service, but is
 * never superseded: each one builds on the model the ones before made.
 *
 * A request that passes is checked against the setup's dataset too: the
 * model must be able to be evaluated on its axes (no time dependence
 * without a delay axis, no profile without an aux axis) and stay within the
 * setup's max_values. Then the preview plan of that model is rebuilt once
 * after the burst, the stages are checked again (the parameter table's
 * not_ready) and every result of the setup is dropped (its names may have
 * changed). A parameter edit that follows in the same burst may use the
 * new names.
 *
 * A request that fails leaves the setup's model as it was (the previews keep
 * showing it) and its reply is the message, naming the component or
 * parameter (or the file, line and model of a file an ATTACH_FILE reads).
 * Errors: XRLAB_MODEL_ERROR_*, XRLAB_ENGINE_FIT_ERROR_NO_SETUP, NOT_READY
 * (no valid state; no baseline model; a fit job of the setup is running),
 * SIZE. */
void                  xrlab_engine_fit_edit_model_async  (XrlabEngine          *self,
                                                          guint                 setup,
                                                          XrlabFitModelRole     model,
                                                          const XrlabModelEdit *edits,
                                                          gsize                 n,
                                                          GCancellable         *cancellable,
                                                          GAsyncReadyCallback   callback,
                                                          gpointer              user_data);
/* What the edits did (g_free; its generation the edit's), or NULL. */
XrlabModelEditResult *xrlab_engine_fit_edit_model_finish (XrlabEngine   *self,
                                                          GAsyncResult  *result,
                                                          GError       **error);

/* ---- the model as a tree ---------------------------------------------------- */

/* The model @model of @setup as a tree (xrlab_model_describe()): a fetch
 * for @consumer (one transfer). Its generation is the state it shows; it is
 * not dropped when value edits came since (its values may then be older
 * than the parameter table's). */
void            xrlab_engine_fit_describe_async  (XrlabEngine         *self,
                                                  guint                setup,
                                                  const char          *consumer,
                                                  XrlabFitModelRole    model,
                                                  GCancellable        *cancellable,
                                                  GAsyncReadyCallback  callback,
                                                  gpointer             user_data);
/* Free with xrlab_model_desc_free(). */
XrlabModelDesc *xrlab_engine_fit_describe_finish (XrlabEngine   *self,
                                                  GAsyncResult  *result,
                                                  GError       **error);

/* ---- saving ------------------------------------------------------------------- */

/* How to load a saved file back into a setup: set the model fields of an
 * XrlabFitSetupSpec from it (xrlab_fit_model_saved_apply()) and update the
 * setup with XRLAB_FIT_SETUP_MODEL | XRLAB_FIT_SETUP_BASELINE_MODEL. */
typedef struct {
  const char *models;             /* the file written */
  const char *model;              /* the main model's name in it */
  const char *baseline_model;     /* NULL without a baseline model */
  gsize n_dynamics;
  const XrlabFitDynamics *dynamics;
  gsize n_profiles;
  const XrlabFitProfile *profiles;
  gsize n_baseline_profiles;
  const XrlabFitProfile *baseline_profiles;
  gpointer priv;
} XrlabFitModelSaved;

void xrlab_fit_model_saved_free (XrlabFitModelSaved *saved);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (XrlabFitModelSaved, xrlab_fit_model_saved_free)

/* Sets models, model, dynamics, profiles, baseline_model and
 * baseline_profiles of @spec to @saved's (pointers into @saved, which must
 * outlive @spec's use) and clears baseline_models (the file has both
 * models), values and baseline_values (the file has them). */
void xrlab_fit_model_saved_apply (const XrlabFitModelSaved *saved, XrlabFitSetupSpec *spec);

/* Writes the models of @setup -- the baseline model first when there is
 * one, then the main model, then every time and profile model they use --
 * as one trspecfit model file at @path (xrlab_model_save(): atomic, the
 * previous file kept whole on failure), with the values the setup has now
 * (a running fit's are not taken). A baseline model of the main model's
 * name is written as NAME_baseline. The header comment of the file names
 * the attachments as trspecfit's add_time_dependence / add_par_profile
 * calls. Errors: XRLAB_MODEL_ERROR_FILE (naming @path), NO_SETUP,
 * NOT_READY. */
void                xrlab_engine_fit_save_model_async  (XrlabEngine         *self,
                                                        guint                setup,
                                                        const char          *path,
                                                        GCancellable        *cancellable,
                                                        GAsyncReadyCallback  callback,
                                                        gpointer             user_data);
XrlabFitModelSaved *xrlab_engine_fit_save_model_finish (XrlabEngine   *self,
                                                        GAsyncResult  *result,
                                                        GError       **error);

G_END_DECLS
