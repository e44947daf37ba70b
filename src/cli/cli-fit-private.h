/* cli-fit-private.h -- what xrlab-cli simulate, fit and fit-trace share:
 * an engine waited for, the model options as the fit service takes them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "cli-private.h"
#include "xrlab-engine-fit.h"

G_BEGIN_DECLS

/* An engine whose replies come to a main context of the command's own. */
typedef struct {
  GMainContext *context;
  XrlabEngine *engine;
} XrlabCliClient;

void xrlab_cli_client_init  (XrlabCliClient *c);
void xrlab_cli_client_clear (XrlabCliClient *c);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (XrlabCliClient, xrlab_cli_client_clear)

/* --dynamics, --profile and --set as the service takes them. */
typedef struct {
  GArray *dynamics;   /* XrlabFitDynamics */
  GArray *profiles;   /* XrlabFitProfile */
  GArray *values;     /* XrlabFitValue */
  GPtrArray *owned;   /* the strings and string vectors they point to */
} XrlabCliModelParts;

void     xrlab_cli_model_parts_clear (XrlabCliModelParts *mp);
/* --models, --model, --dynamics, --profile and --set, checked (usage errors
 * exit 2, a --set value that is not a number 1); FALSE with *@status. */
gboolean xrlab_cli_model_parts_parse (const char *cmd, const XrlabCliModelOptions *o,
                                      XrlabCliModelParts *mp, int *status);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (XrlabCliModelParts, xrlab_cli_model_parts_clear)

/* Replaces the help text of -o in the shared model entries. */
void xrlab_cli_set_output_help (GOptionEntry *entries, const char *desc, const char *arg);

G_END_DECLS
