/* xrlab-fit-workspace.h -- what the Fit page shows, as a session keeps it:
 * the measurement, its model, the fit window, the start values and the
 * view, and the last fit's result as the page showed it
 *
 * GLib only: the session documents (xrlab-session-fit.c) and the page
 * (xrlab-fit-page.h) share it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  char *data;             /* a data file (CSV, its axes beside it) or a measurement folder */
  char *models;           /* a trspecfit model file; NULL: none (the data only) */
  char *model;            /* a model of it; NULL: the file's first */
  char *baseline_model;   /* NULL: no baseline stage */
  char **dynamics;        /* "PAR=FILE:MODEL[,MODEL...][@FREQ]", as xrlab-cli fit's --dynamics */
  char **profiles;        /* "PAR=FILE:MODEL", as --profile */
  char **baseline_profiles;   /* of the baseline model, as --baseline-profile */
  double e0, e1, t0, t1;  /* the fit window (NaN: open) */
  double b0, b1;          /* the baseline delays (NaN: none) */
  gboolean pin_baseline;
  /* start values (typed into the table, or a fit's), applied in order
   * after the model is read */
  char **value_names;
  double *values;
  gsize n_values;
  /* the view: the cursor (NaN: the middle of the data), the map shown */
  double delay, energy;
  int map;                /* XrlabFitMapKind */
  /* The last fit, as the page showed it: its summary and the standard
   * errors of its parameters (their values are among the start values);
   * NULL and 0 when there is none. */
  char *result_summary;
  char *project_summary;  /* a project's joint fit: its summary, NULL: none */
  char **error_names;
  double *errors;
  gsize n_errors;
  /* The last baseline fit (part of the result): the fitted values of the
   * baseline model's parameters and their standard errors (NaN: none, a
   * fixed parameter); NULL and 0 when there is none. The page opens them
   * as the baseline model's start values, and refuses them when they do
   * not fit its parameters. */
  char **baseline_names;
  double *baseline_values;
  double *baseline_errors;
  gsize n_baseline;
} XrlabFitWorkspace;

/* Empty: NaN ranges and cursor, no strings. */
void     xrlab_fit_workspace_init      (XrlabFitWorkspace *ws);
void     xrlab_fit_workspace_clear     (XrlabFitWorkspace *ws);
/* A deep copy into @dst (not initialized). */
void     xrlab_fit_workspace_copy      (XrlabFitWorkspace *dst, const XrlabFitWorkspace *src);
gboolean xrlab_fit_workspace_equal     (const XrlabFitWorkspace *a, const XrlabFitWorkspace *b);
/* Sets (or adds) the start value of @name. */
void     xrlab_fit_workspace_set_value (XrlabFitWorkspace *ws, const char *name, double value);
/* Sets (or adds) the standard error of @name in the result. */
void     xrlab_fit_workspace_set_error (XrlabFitWorkspace *ws, const char *name, double error);
/* The result's standard error of @name, or NaN. */
double   xrlab_fit_workspace_get_error (const XrlabFitWorkspace *ws, const char *name);
/* Forgets the result (the summary, the errors and the baseline fit; the
 * values stay). */
void     xrlab_fit_workspace_clear_result (XrlabFitWorkspace *ws);
/* The baseline fit of the result: sets (or adds) @name's value and
 * error; gets them (FALSE: the result has no @name); forgets it all. */
void     xrlab_fit_workspace_set_baseline (XrlabFitWorkspace *ws, const char *name, double value, double error);
gboolean xrlab_fit_workspace_get_baseline (const XrlabFitWorkspace *ws, const char *name, double *value,
                                           double *error);
void     xrlab_fit_workspace_clear_baseline (XrlabFitWorkspace *ws);

G_END_DECLS
