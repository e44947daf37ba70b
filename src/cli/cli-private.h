/* cli-private.h -- shared pieces of xrlab-cli
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "xrlab-model.h"

G_BEGIN_DECLS

/* Exit status of every subcommand. */
enum {
  XRLAB_CLI_OK = 0,         /* success */
  XRLAB_CLI_BAD_INPUT = 1,  /* bad input: message on stderr, nothing partial on stdout */
  XRLAB_CLI_USAGE = 2,      /* usage error (unknown option, missing argument) */
};

/* A subcommand: argv[0] is the subcommand's name. */
typedef int (*XrlabCliRun) (int argc, char **argv);

typedef struct {
  const char *name;
  const char *summary;   /* one line for the command list */
  XrlabCliRun run;
} XrlabCliCommand;

/* What a subcommand's --help says and which options it takes. */
typedef struct {
  /* After "COMMAND [OPTION…]" in the usage line; NULL when the
   * G_OPTION_REMAINING entry's argument description says it. */
  const char *parameter_string;
  const char *summary;       /* above the options (translated), or NULL */
  const char *description;   /* below the options (translated), or NULL */
  /* Groups of main entries (each ending in G_OPTION_ENTRY_NULL, translated
   * in GETTEXT_PACKAGE), NULL after the last. */
  const GOptionEntry *entries[4];
} XrlabCliSpec;

/* The prologue of every subcommand: parses @argv (argv[0] is the
 * subcommand's name) with the options of @spec. --help prints and exits 0;
 * on a usage error prints "xrlab-cli NAME: message" and a hint to stderr and
 * returns FALSE (exit with XRLAB_CLI_USAGE). */
gboolean xrlab_cli_parse_options (const XrlabCliSpec *spec, int *argc, char ***argv);

/* The options the optics commands share (calc, compare, reflect, filter):
 * --table, -e, -u, -f, -o. xrlab_cli_optics_options_init() fills @entries
 * (a group for XrlabCliSpec.entries) pointing at the strings. */
typedef struct {
  char        *table, *energy, *unit, *format, *output;
  GOptionEntry entries[6];
} XrlabCliOpticsOptions;

void xrlab_cli_optics_options_init  (XrlabCliOpticsOptions *o);
void xrlab_cli_optics_options_clear (XrlabCliOpticsOptions *o);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (XrlabCliOpticsOptions, xrlab_cli_optics_options_clear)

/* A number given on the command line; FALSE after printing @message (a
 * format with one %s, the text) when it is not one (exit with
 * XRLAB_CLI_BAD_INPUT). */
gboolean xrlab_cli_parse_number (const char *message, const char *text, double *value);

/* Sizes. A command refuses, before allocating, any matrix of more than
 * xrlab_cli_max_values() values (doubles): a quarter of the physical
 * memory, at least XRLAB_CLI_MIN_VALUES. xrlab_cli_check_values(): FALSE
 * after printing why (exit with XRLAB_CLI_BAD_INPUT) when @a × @b values
 * are more; @what names them in the message ("the energy axis × the delay
 * axis"). */
#define XRLAB_CLI_MIN_VALUES ((guint64) 1 << 24)
guint64  xrlab_cli_max_values   (void);
gboolean xrlab_cli_check_values (const char *what, guint64 a, guint64 b);

/* Standard output. Every write to stdout goes through these (g_print() too,
 * once xrlab_cli_stdout_init() ran), which keep the errno of the first
 * failure: a full disk, a closed pipe with SIGPIPE ignored, /dev/full.
 * xrlab_cli_stdout_init() (main, first): routes g_print() here and makes
 * exit() check stdout too. write: FALSE once a write failed (later ones are
 * skipped); flush: fflush(). xrlab_cli_stdout_fail(): prints "Cannot write
 * to standard output: <strerror>" (once) and returns XRLAB_CLI_BAD_INPUT.
 * xrlab_cli_stdout_close(): main's epilogue: flushes and closes stdout;
 * when anything failed, prints that (unless printed already) and returns
 * XRLAB_CLI_BAD_INPUT in place of XRLAB_CLI_OK, else @status. */
void     xrlab_cli_stdout_init  (void);
gboolean xrlab_cli_stdout_write (const char *data, gsize len);
gboolean xrlab_cli_stdout_flush (void);
int      xrlab_cli_stdout_fail  (void);
int      xrlab_cli_stdout_close (int status);

/* Exit status after an interrupt (Ctrl-C), as a shell reports SIGINT. */
#define XRLAB_CLI_INTERRUPTED 130

/* A cancellable that Ctrl-C (SIGINT) or SIGTERM cancels, for long work: the
 * first signal cancels it (the work stops at its next check and the command
 * exits with xrlab_cli_interrupt_status()); a later one removes the file of
 * xrlab_cli_interrupt_set_temp_file() and ends the process at once. Made on
 * first use; the process keeps it. */
GCancellable *xrlab_cli_interrupt_cancellable (void);
/* 128 + the signal that cancelled it, as a shell reports a process killed
 * by it: 130 for SIGINT, 143 for SIGTERM. */
int           xrlab_cli_interrupt_status (void);
/* The temporary file being written (NULL: none), removed by a second
 * signal before the process ends. */
void          xrlab_cli_interrupt_set_temp_file (const char *path);

/* Prints "xrlab-cli: <message>" to stderr; returns XRLAB_CLI_BAD_INPUT. */
int xrlab_cli_fail (const GError *error);
int xrlab_cli_failf (const char *format, ...) G_GNUC_PRINTF (1, 2);
/* Prints a usage error for subcommand @name; returns XRLAB_CLI_USAGE. */
int xrlab_cli_usage (const char *name, const char *format, ...) G_GNUC_PRINTF (2, 3);

/* Subcommands, one group per file. */
int xrlab_cli_version (int argc, char **argv);

/* Optical constants (the pieces they share: cli-optics.h).
 * cli-optics-calc.c: one material or several on an energy grid. */
int xrlab_cli_calc      (int argc, char **argv);
int xrlab_cli_compare   (int argc, char **argv);
int xrlab_cli_convert   (int argc, char **argv);
/* cli-optics-batch.c: many materials from a CSV file. */
int xrlab_cli_batch     (int argc, char **argv);
/* cli-optics-info.c: formulas, elements and presets. */
int xrlab_cli_formula   (int argc, char **argv);
int xrlab_cli_edges     (int argc, char **argv);
int xrlab_cli_materials (int argc, char **argv);

/* cli-plot.c: figures with the plot renderer (in xrlab-cli-plot, or a
 * message when the renderer is not built). */
int xrlab_cli_plot      (int argc, char **argv);
/* cli-plot-exec.c: xrlab-cli plot, which replaces the process with the
 * helper xrlab-cli-plot (returns only when that fails). */
int xrlab_cli_plot_exec (int argc, char **argv);

/* cli-reflect.c: mirrors, multilayers, filters and gas paths. */
int xrlab_cli_reflect (int argc, char **argv);
int xrlab_cli_filter  (int argc, char **argv);

/* cli-models.c: spectral models. */
int xrlab_cli_eval   (int argc, char **argv);
int xrlab_cli_params (int argc, char **argv);

/* The model options shared by eval, params, simulate and fit:
 * --models --model --energy --time --dynamics --aux --profile --set -o. */
typedef struct {
  char *models;
  char *model;
  char *energy;
  char *time;
  char *aux;
  char **dynamics;
  char **profiles;
  char **sets;
  char *output;
} XrlabCliModelOptions;

typedef struct {
  double *energy, *time, *aux;
  gsize n_e, n_t, n_a;
} XrlabCliAxes;

/* The option entries (g_free the array; the strings stay in @o). */
GOptionEntry *xrlab_cli_model_entries (XrlabCliModelOptions *o);
void          xrlab_cli_model_options_clear (XrlabCliModelOptions *o);
/* Splits "PAR=FILE:MODEL[,MODEL...][@FREQ]" (@with_freq: @FREQ allowed). */
gboolean      xrlab_cli_parse_attachment (const char *spec, gboolean with_freq, char **par,
                                          char **file, char ***models, double *freq);
/* Loads the model and applies --dynamics, --profile and --set. Returns
 * NULL after printing the error (exit status in *status). */
XrlabModel   *xrlab_cli_load_model (const char *cmd, const XrlabCliModelOptions *o,
                                     int *status);
/* Reads --energy, --time and --aux (those given). */
gboolean      xrlab_cli_read_axes (const XrlabCliModelOptions *o, XrlabCliAxes *a,
                                   int *status);
/* Whether @m on the axes @a fits the size limit (xrlab_cli_max_values()):
 * the energy axis × the delay axis, the delay axis squared when @m has time
 * dependence (the kernels of convolutions), the delay axis × the aux axis
 * when it has profiles, and with @fit the Jacobian (points × free
 * parameters). Else prints why and sets *@status. */
gboolean      xrlab_cli_check_model_size (const XrlabModel *m, const XrlabCliAxes *a,
                                          gboolean fit, int *status);
/* The sentence of --help that states the limit (g_free). */
char         *xrlab_cli_size_limit_help (void);
void          xrlab_cli_axes_clear (XrlabCliAxes *a);

/* cli-fit.c: synthetic data and fits. */
int xrlab_cli_simulate (int argc, char **argv);
int xrlab_cli_fit      (int argc, char **argv);
int xrlab_cli_fit_trace (int argc, char **argv);

G_END_DECLS
