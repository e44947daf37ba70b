/* cli-optics-batch.c -- xrlab-cli batch: optical constants of many
 * materials from a CSV file
 *
 * The rows of IN.csv are read (a header, when there is one, decides the
 * order of the columns), grouped by energy spec (one grid and one engine
 * request per group), computed, and written in input order. A row that
 * fails is reported on stderr with its line number, in line order, after
 * the good rows are written; the exit status is then 1.
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

#include "cli-optics.h"
#include "cli-private.h"
#include "xrlab-engine.h"
#include "xrlab-util.h"

/* One material of the input. */
typedef struct {
  guint line;
  char *formula_text;
  XrlabFormula *formula;
  double density;
  double thickness;     /* NaN: none */
  char *spec;
  gsize group;          /* index into the groups */
  gsize index;          /* material index within its group */
  gboolean failed;
} BatchRow;

/* The rows of one energy spec. */
typedef struct {
  char *spec;
  XrlabEnergyGrid *grid;
  char *grid_error;     /* why the spec does not parse, when grid is NULL */
  GArray *rows;         /* of guint: row numbers */
  XrlabEngineBatch *batch;  /* the engine's reply: values of every row */
} BatchGroup;

/* Progress of a batch on a terminal: computing the rows, then writing them
 * (each counts one step per row). */
typedef struct {
  gboolean tty;
  gboolean shown;
  gsize done_before;    /* rows of earlier groups */
  gsize total;          /* 2 × rows */
  double last;
} Progress;

typedef struct {
  guint line;
  char *message;
} Problem;

typedef struct {
  const char *path;             /* IN.csv, named in messages */
  XrlabEnergyUnit unit;
  double thickness_default;     /* --thickness, NaN when not given */

  /* read: the columns (0-based; -1 when absent) and the rows */
  int col_formula, col_density, col_energy, col_thickness;
  guint n_header;               /* fields of the header, 0 without one */
  gboolean header_seen;         /* a header may only come first */
  GArray *rows;                 /* of BatchRow */
  GArray *problems;             /* of Problem */
  gsize n_failed;

  /* group and compute */
  XrlabCliFields fields;
  GArray *groups;               /* of BatchGroup */
  GHashTable *group_of_spec;    /* spec → group index */
  XrlabEngine *engine;
  Progress progress;
  GCancellable *interrupt;      /* Ctrl-C, SIGTERM */
} Batch;

/* ---- progress ------------------------------------------------------------- */

static void
progress_draw (Progress *p, gsize done, gboolean final)
{
  double now = xrlab_now ();
  int width = 30, filled;
  double frac;

  if (!p->tty || (!final && now - p->last < 0.1) || (final && !p->shown))
    return;
  p->last = now;
  p->shown = TRUE;
  frac = p->total ? (double) done / (double) p->total : 1.0;
  filled = (int) (frac * width + 0.5);
  fprintf (stderr, "\r[");
  for (int i = 0; i < width; i++)
    fputc (i < filled ? '#' : '.', stderr);
  fprintf (stderr, "] %3d%%  ", (int) (frac * 100 + 0.5));
  {
    /* TRANSLATORS: the state of a batch next to its progress bar; padded
     * to the widest of the three, so that a shorter one overwrites a longer
     * one. */
    const char *states[] = { _("computing"), _("writing"), _("done") };
    const char *state = states[final ? 2 : 2 * done < p->total ? 0 : 1];
    int w = 0;

    for (gsize i = 0; i < G_N_ELEMENTS (states); i++)
      w = MAX (w, xrlab_cli_text_width (states[i]));
    fprintf (stderr, "%s%*s", state, w - xrlab_cli_text_width (state), "");
  }
  if (final)
    fputc ('\n', stderr);
  fflush (stderr);
}

static void
progress_cb (gsize done, gsize total, gpointer data)
{
  Progress *p = data;
  progress_draw (p, p->done_before + done, FALSE);
}

/* ---- problems ------------------------------------------------------------- */

/* Collects a problem of input line @line and counts the row as failed;
 * printed in line order at the end, each as "xrlab-cli: <message>". */
static void report (Batch *b, guint line, const char *format, ...) G_GNUC_PRINTF (3, 4);

static void
report (Batch *b, guint line, const char *format, ...)
{
  va_list args;
  g_autofree char *message = NULL;
  Problem p;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  p.line = line;
  p.message = g_strdup_printf ("xrlab-cli: %s\n", message);
  g_array_append_val (b->problems, p);
  b->n_failed++;
}

static int
compare_problems (gconstpointer a, gconstpointer b)
{
  guint x = ((const Problem *) a)->line, y = ((const Problem *) b)->line;
  return (x > y) - (x < y);
}

static void
print_problems (const Batch *b)
{
  for (guint i = 0; i < b->problems->len; i++)
    fputs (g_array_index (b->problems, Problem, i).message, stderr);
}

/* ---- the batch ------------------------------------------------------------ */

static void
problem_clear (gpointer data)
{
  g_free (((Problem *) data)->message);
}

static void
batch_row_clear (gpointer data)
{
  BatchRow *r = data;
  g_free (r->formula_text);
  g_free (r->spec);
  g_clear_pointer (&r->formula, xrlab_formula_unref);
}

static void
batch_group_clear (gpointer data)
{
  BatchGroup *g = data;
  g_free (g->spec);
  g_free (g->grid_error);
  g_clear_pointer (&g->grid, xrlab_energy_grid_unref);
  g_clear_pointer (&g->rows, g_array_unref);
  g_clear_pointer (&g->batch, xrlab_engine_batch_free);
}

static void
batch_init (Batch *b, const char *path)
{
  memset (b, 0, sizeof *b);
  b->path = path;
  b->thickness_default = NAN;
  b->col_formula = 0;
  b->col_density = 1;
  b->col_energy = 2;
  b->col_thickness = -1;
  b->rows = g_array_new (FALSE, TRUE, sizeof (BatchRow));
  g_array_set_clear_func (b->rows, batch_row_clear);
  b->problems = g_array_new (FALSE, FALSE, sizeof (Problem));
  g_array_set_clear_func (b->problems, problem_clear);
  b->groups = g_array_new (FALSE, TRUE, sizeof (BatchGroup));
  g_array_set_clear_func (b->groups, batch_group_clear);
  b->group_of_spec = g_hash_table_new (g_str_hash, g_str_equal);
  b->progress.tty = isatty (STDERR_FILENO);
}

static void
batch_clear (Batch *b)
{
  g_clear_pointer (&b->group_of_spec, g_hash_table_unref);
  g_clear_pointer (&b->groups, g_array_unref);
  g_clear_pointer (&b->problems, g_array_unref);
  g_clear_pointer (&b->rows, g_array_unref);
  g_clear_object (&b->engine);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Batch, batch_clear)

static BatchRow *
row_at (const Batch *b, guint r)
{
  return &g_array_index (b->rows, BatchRow, r);
}

/* ---- read ----------------------------------------------------------------- */

/* Splits one CSV line into fields (RFC 4180 quoting). FALSE on an
 * unterminated quote. */
static gboolean
split_csv (const char *line, GPtrArray *fields, int *bad_column)
{
  const char *p = line;
  g_autoptr(GString) f = g_string_new (NULL);

  for (;;)
    {
      g_string_truncate (f, 0);
      while (*p == ' ' || *p == '\t')
        p++;
      if (*p == '"')
        {
          const char *open = p++;
          for (;;)
            {
              if (*p == '\0')
                {
                  *bad_column = (int) g_utf8_strlen (line, open - line) + 1;
                  return FALSE;
                }
              if (*p == '"')
                {
                  if (p[1] == '"')
                    {
                      g_string_append_c (f, '"');
                      p += 2;
                      continue;
                    }
                  p++;
                  break;
                }
              g_string_append_c (f, *p++);
            }
          while (*p && *p != ',')
            {
              if (*p != ' ' && *p != '\t' && *p != '\r')
                {
                  *bad_column = (int) g_utf8_strlen (line, p - line) + 1;
                  return FALSE;
                }
              p++;
            }
        }
      else
        {
          while (*p && *p != ',')
            g_string_append_c (f, *p++);
        }
      g_ptr_array_add (fields, g_strstrip (g_strdup (f->str)));
      if (*p != ',')
        break;
      p++;
    }
  return TRUE;
}

/* The header line @fields (line @ln) names the columns. Returns the exit
 * status. */
static int
read_header (Batch *b, GPtrArray *fields, guint ln)
{
  b->col_formula = b->col_density = b->col_energy = -1;
  for (guint c = 0; c < fields->len; c++)
    {
      const char *h = g_ptr_array_index (fields, c);
      if (g_ascii_strcasecmp (h, "formula") == 0)
        b->col_formula = (int) c;
      else if (g_ascii_strcasecmp (h, "density") == 0 || g_ascii_strcasecmp (h, "density_g_cm3") == 0)
        b->col_density = (int) c;
      else if (g_ascii_strcasecmp (h, "energy") == 0 || g_ascii_strcasecmp (h, "energy_keV") == 0)
        b->col_energy = (int) c;
      else if (g_ascii_strcasecmp (h, "thickness") == 0 || g_ascii_strcasecmp (h, "thickness_um") == 0)
        b->col_thickness = (int) c;
      else
        return xrlab_cli_failf (_("%s line %u: unknown column “%s” "
                                  "(expected formula, density, energy, thickness)"),
                                b->path, ln, h);
    }
  b->n_header = fields->len;
  if (b->col_formula < 0 || b->col_density < 0 || b->col_energy < 0)
    return xrlab_cli_failf (_("%s line %u: the header needs the columns formula, "
                              "density and energy"),
                            b->path, ln);
  return XRLAB_CLI_OK;
}

/* One material, line @ln: kept, or reported. */
static void
read_row (Batch *b, GPtrArray *fields, guint ln)
{
  g_autoptr(GError) error = NULL;
  BatchRow row = { 0, };
  const char *dens, *thick = NULL;

  if (b->n_header > 0 ? fields->len != b->n_header : (fields->len != 3 && fields->len != 4))
    {
      if (b->n_header > 0)
        report (b, ln,
                g_dngettext (GETTEXT_PACKAGE,
                             "%s line %u: expected %u field like the header, found %u",
                             "%s line %u: expected %u fields like the header, found %u",
                             b->n_header),
                b->path, ln, b->n_header, fields->len);
      else
        report (b, ln, _("%s line %u: expected 3 fields formula,density,energy "
                         "(and optionally thickness), found %u"),
                b->path, ln, fields->len);
      return;
    }
  dens = g_ptr_array_index (fields, b->col_density);
  if (b->col_thickness >= 0)
    thick = g_ptr_array_index (fields, b->col_thickness);
  else if (b->n_header == 0 && fields->len == 4)
    thick = g_ptr_array_index (fields, 3);   /* formula,density,energy,thickness */

  row.line = ln;
  row.formula_text = g_strdup (g_ptr_array_index (fields, b->col_formula));
  row.spec = g_strdup (g_ptr_array_index (fields, b->col_energy));
  row.thickness = b->thickness_default;
  row.formula = xrlab_formula_parse (row.formula_text, &error);
  if (row.formula == NULL)
    report (b, ln, _("%s line %u: formula “%s”: %s"), b->path, ln, row.formula_text,
            error->message);
  else if (!xrlab_parse_double (dens, FALSE, &row.density))
    report (b, ln, _("%s line %u: density “%s” is not a number"), b->path, ln, dens);
  else if (thick != NULL && thick[0] != '\0' && !xrlab_parse_double (thick, FALSE, &row.thickness))
    report (b, ln, _("%s line %u: thickness “%s” is not a number"), b->path, ln, thick);
  else
    {
      g_array_append_val (b->rows, row);
      return;
    }
  batch_row_clear (&row);
}

/* Reads the rows of @contents. Returns the exit status (a header that is
 * wrong fails the whole batch; a row that is wrong is reported). */
static int
batch_read (Batch *b, const char *contents)
{
  g_auto(GStrv) lines = g_strsplit (contents, "\n", -1);

  for (guint ln = 0; lines[ln] != NULL; ln++)
    {
      g_autoptr(GPtrArray) fields = g_ptr_array_new_with_free_func (g_free);
      char *line = g_strstrip (lines[ln]);
      int bad_col = 0;

      if (line[0] == '\0' || line[0] == '#')
        continue;
      if (!split_csv (line, fields, &bad_col))
        {
          report (b, ln + 1, _("%s line %u, column %d: unterminated or misplaced quote"),
                  b->path, ln + 1, bad_col);
          continue;
        }
      if (!b->header_seen && g_ascii_strcasecmp (g_ptr_array_index (fields, 0), "formula") == 0)
        {
          int status = read_header (b, fields, ln + 1);
          if (status != XRLAB_CLI_OK)
            return status;
          b->header_seen = TRUE;
          continue;
        }
      b->header_seen = TRUE;
      read_row (b, fields, ln + 1);
    }
  return XRLAB_CLI_OK;
}

/* Whether any row has a thickness (or --thickness or a thickness column
 * gave one). */
static gboolean
batch_has_thickness (const Batch *b, gboolean option_given)
{
  if (option_given || b->col_thickness >= 0)
    return TRUE;
  for (guint r = 0; r < b->rows->len; r++)
    if (isfinite (row_at (b, r)->thickness))
      return TRUE;
  return FALSE;
}

/* ---- group ---------------------------------------------------------------- */

/* Groups the rows by energy spec: one grid (or the reason why there is none)
 * per spec. */
static void
batch_group (Batch *b)
{
  g_autoptr(GError) error = NULL;

  for (guint r = 0; r < b->rows->len; r++)
    {
      BatchRow *row = row_at (b, r);
      BatchGroup *g;
      gpointer found;

      if ((b->fields.mask & XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_TRANSMISSION))
          && !isfinite (row->thickness))
        {
          report (b, row->line, _("%s line %u: no thickness for the transmission column "
                                  "(add one to the row or give --thickness UM)"),
                  b->path, row->line);
          row->failed = TRUE;
          continue;
        }

      if (g_hash_table_lookup_extended (b->group_of_spec, row->spec, NULL, &found))
        row->group = GPOINTER_TO_SIZE (found);
      else
        {
          BatchGroup ng = { 0, };
          ng.spec = g_strdup (row->spec);
          ng.grid = xrlab_energy_grid_parse (row->spec, b->unit, &error);
          if (ng.grid == NULL)
            {
              /* Every row of this spec fails with the same reason. */
              ng.grid_error = g_strdup (error->message);
              g_clear_error (&error);
            }
          ng.rows = g_array_new (FALSE, FALSE, sizeof (guint));
          row->group = b->groups->len;
          g_array_append_val (b->groups, ng);
          g_hash_table_insert (b->group_of_spec, ng.spec, GSIZE_TO_POINTER (row->group));
        }
      g = &g_array_index (b->groups, BatchGroup, row->group);
      row->index = g->rows->len;
      g_array_append_val (g->rows, r);
    }
}

/* ---- compute -------------------------------------------------------------- */

static BatchRow *
group_row (const Batch *b, const BatchGroup *g, guint k)
{
  return row_at (b, g_array_index (g->rows, guint, k));
}

/* One request to the engine for group @g: all its rows, one input and one
 * output transfer. Returns the exit status. */
static int
compute_group (Batch *b, BatchGroup *g)
{
  g_autoptr(GError) error = NULL;
  gsize n_mat = g->rows->len;
  g_autofree XrlabMaterialSpec *specs = g_new0 (XrlabMaterialSpec, n_mat);

  for (guint k = 0; k < n_mat; k++)
    {
      const BatchRow *row = group_row (b, g, k);
      specs[k].formula = xrlab_formula_get_text (row->formula);
      specs[k].density_g_cm3 = row->density;
      specs[k].thickness_um = isfinite (row->thickness) ? row->thickness : 0.0;
    }
  if (b->engine == NULL)
    b->engine = xrlab_engine_new ();
  g->batch = xrlab_engine_batch_sync (b->engine, specs, n_mat, g->grid, b->fields.mask,
                                      b->progress.tty ? progress_cb : NULL, &b->progress,
                                      b->interrupt, &error);
  if (g->batch == NULL && g_cancellable_is_cancelled (b->interrupt))
    return xrlab_cli_interrupt_status ();
  if (g->batch == NULL)
    return xrlab_cli_fail (error);
  for (guint k = 0; k < n_mat; k++)
    if (g->batch->errors[k] != NULL)
      {
        BatchRow *row = group_row (b, g, k);
        report (b, row->line, _("%s line %u: %s"), b->path, row->line,
                g->batch->errors[k]->message);
        row->failed = TRUE;
      }
  return XRLAB_CLI_OK;
}

/* Computes every group; the rows of a spec that does not parse fail.
 * Returns the exit status. */
static int
batch_compute (Batch *b)
{
  for (guint gi = 0; gi < b->groups->len; gi++)
    b->progress.total += 2 * g_array_index (b->groups, BatchGroup, gi).rows->len;
  for (guint gi = 0; gi < b->groups->len; gi++)
    {
      BatchGroup *g = &g_array_index (b->groups, BatchGroup, gi);

      if (g->grid == NULL)
        for (guint k = 0; k < g->rows->len; k++)
          {
            BatchRow *row = group_row (b, g, k);
            report (b, row->line, _("%s line %u: %s"), b->path, row->line, g->grid_error);
            row->failed = TRUE;
          }
      else
        {
          int status = compute_group (b, g);
          if (status != XRLAB_CLI_OK)
            return status;
        }
      b->progress.done_before += g->rows->len;
    }
  g_array_sort (b->problems, compare_problems);   /* at most one problem per line */
  return XRLAB_CLI_OK;
}

/* ---- write ---------------------------------------------------------------- */

/* The columns of the output: formula,density_g_cm3,energy_keV and the
 * fields. */
static XrlabCliTable *
output_table (const Batch *b)
{
  XrlabCliTable *t = xrlab_cli_table_new ();

  xrlab_cli_table_add_column (t, XRLAB_CLI_COLUMN_TEXT, "formula", NULL, NULL);
  xrlab_cli_table_add_column (t, XRLAB_CLI_COLUMN_NUMBER, "density_g_cm3", NULL, NULL);
  xrlab_cli_table_add_energy (t);
  for (guint k = 0; k < b->fields.n; k++)
    xrlab_cli_table_add_quantity (t, b->fields.order[k]);
  return t;
}

/* Rows per write: a long grid goes out in parts. */
#define WRITE_CHUNK 4096

/* Writes @s to @out, or to stdout when @out is NULL. FALSE when the write
 * failed (the atomic file's commit or xrlab_cli_stdout_fail() says why). */
static gboolean
emit (FILE *out, const GString *s)
{
  if (out == NULL)
    return xrlab_cli_stdout_write (s->str, s->len);
  return fwrite (s->str, 1, s->len, out) == s->len;
}

/* The lines of @row, one per energy of its grid. FALSE when a write failed
 * or the batch was interrupted. */
static gboolean
write_row (const Batch *b, const BatchRow *row, XrlabCliTable *t, GString *s, FILE *out)
{
  const BatchGroup *g = &g_array_index (b->groups, BatchGroup, row->group);
  gsize n_e = xrlab_energy_grid_get_size (g->grid);
  const double *e = xrlab_energy_grid_get_energies_kev (g->grid);
  const double *block = g->batch->values + row->index * b->fields.n * n_e;

  for (gsize start = 0; start < n_e; start += WRITE_CHUNK)
    {
      gsize end = MIN (n_e, start + WRITE_CHUNK);

      xrlab_cli_table_clear_rows (t);
      for (gsize i = start; i < end; i++)
        {
          gsize r = xrlab_cli_table_add_row (t);

          xrlab_cli_table_set_text (t, r, 0, row->formula_text);
          xrlab_cli_table_set_number (t, r, 1, row->density);
          xrlab_cli_table_set_number (t, r, 2, e[i]);
          for (guint k = 0; k < b->fields.n; k++)
            {
              int idx = xrlab_quantity_mask_index (b->fields.mask, b->fields.order[k]);
              xrlab_cli_table_set_number (t, r, 3 + k, block[(gsize) idx * n_e + i]);
            }
        }
      g_string_truncate (s, 0);
      xrlab_cli_table_append_csv_rows (t, s);
      if (!emit (out, s) || g_cancellable_is_cancelled (b->interrupt))
        return FALSE;
    }
  return TRUE;
}

/* Writes the good rows in input order to @output (stdout when NULL or "-"),
 * then the problems to stderr. A failed write or an interrupt stops it at
 * once (an output file is then removed). Returns the exit status. */
static int
batch_write (Batch *b, const char *output)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabCliTable) t = output_table (b);
  g_autoptr(GString) s = g_string_new (NULL);
  XrlabAtomicFile *af = NULL;
  FILE *out = NULL;
  gboolean ok;

  if (output != NULL && strcmp (output, "-") != 0)
    {
      af = xrlab_atomic_file_open (output, &error);
      if (af == NULL)
        return xrlab_cli_fail (error);
      out = xrlab_atomic_file_stream (af);
      xrlab_cli_interrupt_set_temp_file (xrlab_atomic_file_get_temp_path (af));
    }
  xrlab_cli_table_append_csv_header (t, s);
  ok = emit (out, s);
  for (guint r = 0; ok && r < b->rows->len; r++)
    {
      progress_draw (&b->progress, b->progress.total / 2 + r, FALSE);
      if (!row_at (b, r)->failed)
        ok = write_row (b, row_at (b, r), t, s, out);
    }
  if (g_cancellable_is_cancelled (b->interrupt))
    {
      xrlab_atomic_file_abort (af);
      xrlab_cli_interrupt_set_temp_file (NULL);
      return xrlab_cli_interrupt_status ();
    }
  progress_draw (&b->progress, b->progress.total, TRUE);
  print_problems (b);
  if (af != NULL)
    {
      /* the commit reports a failed write, with its errno */
      ok = xrlab_atomic_file_commit (af, &error);
      xrlab_cli_interrupt_set_temp_file (NULL);
      if (!ok)
        return xrlab_cli_fail (error);
    }
  else if (!ok || !xrlab_cli_stdout_flush ())
    return xrlab_cli_stdout_fail ();
  return XRLAB_CLI_OK;
}

/* ---- the command ---------------------------------------------------------- */

int
xrlab_cli_batch (int argc, char **argv)
{
  g_autofree char *unit_text = NULL, *thickness_text = NULL, *fields_text = NULL;
  g_autofree char *output = NULL;
  g_auto(GStrv) rest = NULL;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      N_("Write to FILE (atomically) instead of stdout"), N_("FILE") },
    { "unit", 'u', 0, G_OPTION_ARG_STRING, &unit_text,
      N_("Unit of the energy specs: keV (default), eV or A"), N_("UNIT") },
    { "thickness", 't', 0, G_OPTION_ARG_STRING, &thickness_text,
      N_("Layer thickness (µm) for rows without a thickness column"), N_("UM") },
    { "fields", 0, 0, G_OPTION_ARG_STRING, &fields_text,
      N_("Columns to compute, comma separated (default: all)"), N_("LIST") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &rest, NULL, N_("IN.csv") },
    G_OPTION_ENTRY_NULL
  };
  const XrlabCliSpec spec = {
    .summary =
      _("Optical constants of many materials from a CSV file.\n\n"
        "IN.csv has the columns formula,density,energy (energy: a SPEC such as\n"
        "8.048 or \"5,10,15\" or 1:30:100:log, quoted when it has commas), an\n"
        "optional thickness column (µm), and an optional header line naming the\n"
        "columns. Blank lines and lines starting with # are skipped.\n\n"
        "The output has one row per material and energy: formula,density_g_cm3\n"
        "and then the columns of “xrlab-cli calc --format csv”. A row that fails\n"
        "is reported on stderr with its line number and reason; every good row is\n"
        "still written, and the exit status is then 1."),
    .description = _("Ctrl-C (or SIGTERM) stops the batch: the output file is not written "
                     "and the exit status is 130 (143).\n"
                     "Exit status: 0 success, 1 bad input, 2 usage error."),
    .entries = { entries },
  };
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  g_auto(Batch) b = { 0, };
  gsize n_good = 0;
  int status;

  batch_init (&b, NULL);
  if (!xrlab_cli_parse_options (&spec, &argc, &argv))
    return XRLAB_CLI_USAGE;
  /* Ctrl-C and SIGTERM stop the batch; the output file is not written */
  b.interrupt = xrlab_cli_interrupt_cancellable ();
  if (rest == NULL || rest[0] == NULL)
    return xrlab_cli_usage ("batch", _("missing IN.csv"));
  if (rest[1] != NULL)
    return xrlab_cli_usage ("batch", _("one input file only, got “%s” too"), rest[1]);
  b.path = rest[0];
  if (!xrlab_cli_parse_energy_unit ("batch", unit_text, &b.unit))
    return XRLAB_CLI_USAGE;
  if (thickness_text != NULL
      && !xrlab_cli_parse_number (_("Thickness “%s” is not a number"), thickness_text,
                                  &b.thickness_default))
    return XRLAB_CLI_BAD_INPUT;
  if (!g_file_get_contents (b.path, &contents, NULL, &error))
    return xrlab_cli_fail (error);
  if (!g_utf8_validate (contents, -1, NULL))
    return xrlab_cli_failf (_("%s is not a UTF-8 text file"), b.path);

  if ((status = batch_read (&b, contents)) != XRLAB_CLI_OK)
    return status;
  if (!xrlab_cli_parse_fields ("batch", fields_text,
                               batch_has_thickness (&b, thickness_text != NULL), &b.fields))
    return XRLAB_CLI_USAGE;
  batch_group (&b);
  if ((status = batch_compute (&b)) != XRLAB_CLI_OK)
    return status;

  for (guint r = 0; r < b.rows->len; r++)
    n_good += !row_at (&b, r)->failed;
  if (n_good == 0)
    {
      progress_draw (&b.progress, b.progress.total, TRUE);
      print_problems (&b);
      if (b.n_failed == 0)
        return xrlab_cli_failf (_("%s has no rows"), b.path);
      return xrlab_cli_failf (_("no row of %s could be computed; nothing written"), b.path);
    }
  if ((status = batch_write (&b, output)) != XRLAB_CLI_OK)
    return status;
  if (b.n_failed > 0)
    return xrlab_cli_failf (g_dngettext (GETTEXT_PACKAGE, "%zu row failed, %zu written",
                                         "%zu rows failed, %zu written", b.n_failed),
                            b.n_failed, n_good);
  return XRLAB_CLI_OK;
}
