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
#include "cli-optics-batch.h"
#include "cli-private.h"
#include "xrlab-engine.h"
#include "xrlab-h5.h"
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
  XrlabTableChoice choice;      /* --table: each group takes its table by it */
  XrlabQuantity transmission;   /* --transmission */
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
  GHashTable *formula_of_text;  /* formula text → XrlabFormula (parsed once) */
  XrlabEngine *engine;
  Progress progress;
  GCancellable *interrupt;      /* Ctrl-C, SIGTERM */
  guint64 max_values;           /* of the grids and the results together */
  guint64 n_values;
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
  {
    /* Messages of the engine quote the row too (a formula, a spec): the
     * whole line is made safe for the terminal, and kept short. */
    g_autofree char *safe = xrlab_escape_text (message, -1, 6 * XRLAB_ESCAPE_MAX_CHARS);
    p.message = g_strdup_printf ("xrlab-cli: %s\n", safe);
  }
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
  b->formula_of_text = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                              (GDestroyNotify) xrlab_formula_unref);
  b->progress.tty = isatty (STDERR_FILENO);
}

static void
batch_clear (Batch *b)
{
  g_clear_pointer (&b->group_of_spec, g_hash_table_unref);
  g_clear_pointer (&b->formula_of_text, g_hash_table_unref);
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
  g_autoptr(GString) f = NULL;   /* a quoted field, unquoted */

  for (;;)
    {
      while (*p == ' ' || *p == '\t')
        p++;
      if (*p == '"')
        {
          const char *open = p++;

          f = f != NULL ? g_string_truncate (f, 0) : g_string_new (NULL);
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
          g_ptr_array_add (fields, g_strstrip (g_strdup (f->str)));
        }
      else
        {
          const char *start = p;

          p += strcspn (p, ",");
          g_ptr_array_add (fields, g_strstrip (g_strndup (start, (gsize) (p - start))));
        }
      if (*p != ',')
        break;
      p++;
    }
  return TRUE;
}

/* A field of the file as messages quote it: escaped and cut. */
static char *
quote (const char *text)
{
  return xrlab_escape_text (text, -1, XRLAB_ESCAPE_MAX_CHARS);
}

/* Sets column @c of the header as the column *@col; FALSE with @error set
 * when an earlier one has that name (or its other spelling). */
static gboolean
header_column (Batch *b, GPtrArray *fields, guint ln, guint c, int *col, GError **error)
{
  if (*col >= 0)
    {
      g_autofree char *first = quote (g_ptr_array_index (fields, *col));
      g_autofree char *again = quote (g_ptr_array_index (fields, c));

      g_set_error (error, XRLAB_IO_ERROR, XRLAB_IO_ERROR_PARSE,
                   _("%s line %u: column %u “%s” repeats column %u “%s”"),
                   b->path, ln, c + 1, again, (guint) *col + 1, first);
      return FALSE;
    }
  *col = (int) c;
  return TRUE;
}

/* The header line @fields (line @ln) names the columns. FALSE with @error
 * set when a name is unknown or repeated, or one is missing. */
static gboolean
read_header (Batch *b, GPtrArray *fields, guint ln, GError **error)
{
  b->col_formula = b->col_density = b->col_energy = -1;
  for (guint c = 0; c < fields->len; c++)
    {
      const char *h = g_ptr_array_index (fields, c);
      int *col;

      if (g_ascii_strcasecmp (h, "formula") == 0)
        col = &b->col_formula;
      else if (g_ascii_strcasecmp (h, "density") == 0 || g_ascii_strcasecmp (h, "density_g_cm3") == 0)
        col = &b->col_density;
      else if (g_ascii_strcasecmp (h, "energy") == 0 || g_ascii_strcasecmp (h, "energy_keV") == 0)
        col = &b->col_energy;
      else if (g_ascii_strcasecmp (h, "thickness") == 0 || g_ascii_strcasecmp (h, "thickness_um") == 0)
        col = &b->col_thickness;
      else
        {
          g_autofree char *name = quote (h);

          g_set_error (error, XRLAB_IO_ERROR, XRLAB_IO_ERROR_PARSE,
                       _("%s line %u: unknown column “%s” "
                         "(expected formula, density, energy, thickness)"),
                       b->path, ln, name);
          return FALSE;
        }
      if (!header_column (b, fields, ln, c, col, error))
        return FALSE;
    }
  b->n_header = fields->len;
  if (b->col_formula < 0 || b->col_density < 0 || b->col_energy < 0)
    {
      g_set_error (error, XRLAB_IO_ERROR, XRLAB_IO_ERROR_PARSE,
                   _("%s line %u: the header needs the columns formula, density and energy"),
                   b->path, ln);
      return FALSE;
    }
  return TRUE;
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
  row.formula_text = g_steal_pointer (&fields->pdata[b->col_formula]);
  row.spec = g_steal_pointer (&fields->pdata[b->col_energy]);
  row.thickness = b->thickness_default;
  if ((row.formula = g_hash_table_lookup (b->formula_of_text, row.formula_text)) != NULL)
    xrlab_formula_ref (row.formula);
  else if ((row.formula = xrlab_formula_parse (row.formula_text, &error)) != NULL)
    g_hash_table_insert (b->formula_of_text, g_strdup (row.formula_text),
                         xrlab_formula_ref (row.formula));
  if (row.formula == NULL)
    {
      g_autofree char *q = quote (row.formula_text);
      report (b, ln, _("%s line %u: formula “%s”: %s"), b->path, ln, q, error->message);
    }
  else if (!xrlab_parse_double (dens, FALSE, &row.density))
    {
      g_autofree char *q = quote (dens);
      report (b, ln, _("%s line %u: density “%s” is not a number"), b->path, ln, q);
    }
  else if (thick != NULL && thick[0] != '\0' && !xrlab_parse_double (thick, FALSE, &row.thickness))
    {
      g_autofree char *q = quote (thick);
      report (b, ln, _("%s line %u: thickness “%s” is not a number"), b->path, ln, q);
    }
  else
    {
      g_array_append_val (b->rows, row);
      return;
    }
  batch_row_clear (&row);
}

/* Line and column (in characters) of @at in @text. */
static void
position_of (const char *text, const char *at, guint *line, guint *column)
{
  const char *start = text;

  *line = 1;
  for (const char *p = text; p < at; p++)
    if (*p == '\n')
      {
        (*line)++;
        start = p + 1;
      }
  /* the bytes before @at are valid UTF-8 */
  *column = (guint) g_utf8_strlen (start, at - start) + 1;
}

/* Whether the @len bytes at @contents are text: no NUL byte, UTF-8. FALSE
 * with @error naming where they are not. */
static gboolean
check_text (const Batch *b, const char *contents, gsize len, GError **error)
{
  const char *nul = memchr (contents, '\0', len);
  const char *bad = NULL;
  guint line, column;

  if (!g_utf8_validate_len (contents, nul != NULL ? (gsize) (nul - contents) : len, &bad))
    {
      position_of (contents, bad, &line, &column);
      g_set_error (error, XRLAB_IO_ERROR, XRLAB_IO_ERROR_PARSE,
                   _("%s line %u, column %u: byte \\x%02X is not UTF-8 (this is not a UTF-8 "
                     "text file)"),
                   b->path, line, column, (guint) (guchar) *bad);
      return FALSE;
    }
  if (nul != NULL)
    {
      position_of (contents, nul, &line, &column);
      g_set_error (error, XRLAB_IO_ERROR, XRLAB_IO_ERROR_PARSE,
                   _("%s line %u, column %u: a NUL byte (this is not a text file)"),
                   b->path, line, column);
      return FALSE;
    }
  return TRUE;
}

/* Reads the rows of the @len bytes at @data (a UTF-8 byte order mark at the
 * start skipped). FALSE with @error set when the whole file is refused (not
 * text, a bad header); a row that is wrong is reported. */
static gboolean
batch_read (Batch *b, const char *data, gsize len, GError **error)
{
  g_autoptr(GPtrArray) fields = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *text = NULL;
  guint ln = 0;

  if (data == NULL)
    data = "";
  if (len >= 3 && memcmp (data, "\xEF\xBB\xBF", 3) == 0)
    {
      data += 3;
      len -= 3;
    }
  if (!check_text (b, data, len, error))
    return FALSE;
  text = g_strndup (data, len);   /* cut into lines in place */
  for (char *next = text; next != NULL; ln++)
    {
      char *line = next, *nl = strchr (line, '\n');
      int bad_col = 0;

      next = nl != NULL ? nl + 1 : NULL;
      if (nl != NULL)
        *nl = '\0';
      line = g_strstrip (line);
      if (line[0] == '\0' || line[0] == '#')
        continue;
      g_ptr_array_set_size (fields, 0);
      if (!split_csv (line, fields, &bad_col))
        {
          report (b, ln + 1, _("%s line %u, column %d: unterminated or misplaced quote"),
                  b->path, ln + 1, bad_col);
          continue;
        }
      if (!b->header_seen && g_ascii_strcasecmp (g_ptr_array_index (fields, 0), "formula") == 0)
        {
          if (!read_header (b, fields, ln + 1, error))
            return FALSE;
          b->header_seen = TRUE;
          continue;
        }
      b->header_seen = TRUE;
      read_row (b, fields, ln + 1);
    }
  return TRUE;
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

/* Counts @n more values against the limit; FALSE with @error set when they
 * are too many. */
static gboolean
count_values (Batch *b, guint64 n, GError **error)
{
  if (n <= b->max_values - b->n_values)
    {
      b->n_values += n;
      return TRUE;
    }
  g_set_error (error, XRLAB_IO_ERROR, XRLAB_IO_ERROR_SHAPE,
               _("%s: the rows need more than %llu values (the energies of every spec and "
                 "the quantities of every row at each of its energies): more than a quarter of "
                 "this machine's memory; split the file"),
               b->path, (unsigned long long) b->max_values);
  return FALSE;
}

/* Groups the rows by energy spec: one grid (or the reason why there is none)
 * per spec. FALSE with @error set when the grids and the values to compute
 * would be more than the limit (b->max_values). */
static gboolean
batch_group (Batch *b, GError **error)
{
  guint n_quantities = MAX (xrlab_quantity_mask_count (b->fields.mask), 1);

  for (guint r = 0; r < b->rows->len; r++)
    {
      BatchRow *row = row_at (b, r);
      BatchGroup *g;
      gpointer found;

      if ((b->fields.mask & XRLAB_QUANTITY_MASK_TRANSMISSIONS) && !isfinite (row->thickness))
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
          g_autoptr(GError) grid_error = NULL;

          ng.spec = g_strdup (row->spec);
          ng.grid = xrlab_energy_grid_parse_for_table (row->spec, b->unit, b->choice, &grid_error);
          if (ng.grid == NULL)
            /* Every row of this spec fails with the same reason. */
            ng.grid_error = g_strdup (grid_error->message);
          ng.rows = g_array_new (FALSE, FALSE, sizeof (guint));
          row->group = b->groups->len;
          g_array_append_val (b->groups, ng);
          g_hash_table_insert (b->group_of_spec, ng.spec, GSIZE_TO_POINTER (row->group));
        }
      g = &g_array_index (b->groups, BatchGroup, row->group);
      row->index = g->rows->len;
      g_array_append_val (g->rows, r);
      /* the grid when it is new, and the row's values */
      if (g->grid != NULL
          && !count_values (b, (guint64) xrlab_energy_grid_get_size (g->grid)
                                 * (n_quantities + (g->rows->len == 1)), error))
        return FALSE;
    }
  return TRUE;
}

/* ---- read and group on their own -------------------------------------------- */

gboolean
xrlab_cli_batch_read_input (const char *name, const char *data, gsize len,
                            XrlabEnergyUnit unit, gboolean transmission, guint64 max_values,
                            XrlabCliBatchInput *input, GError **error)
{
  g_auto(Batch) b = { 0, };
  g_autoptr(GString) problems = g_string_new (NULL);

  memset (input, 0, sizeof *input);
  batch_init (&b, name);
  b.unit = unit;
  b.max_values = max_values;
  b.choice = XRLAB_TABLE_CHOICE_AUTO;   /* the command's default */
  xrlab_cli_parse_fields ("batch", NULL, transmission, XRLAB_QUANTITY_TRANSMISSION, &b.fields);
  if (!batch_read (&b, data, len, error) || !batch_group (&b, error))
    return FALSE;
  g_array_sort (b.problems, compare_problems);
  for (guint i = 0; i < b.problems->len; i++)
    g_string_append (problems, g_array_index (b.problems, Problem, i).message);
  input->n_rows = b.rows->len;
  input->n_failed = b.n_failed;
  input->n_groups = b.groups->len;
  for (guint g = 0; g < b.groups->len; g++)
    input->n_grids += g_array_index (b.groups, BatchGroup, g).grid != NULL;
  input->problems = g_string_free (g_steal_pointer (&problems), FALSE);
  return TRUE;
}

void
xrlab_cli_batch_input_clear (XrlabCliBatchInput *input)
{
  g_clear_pointer (&input->problems, g_free);
}

/* ---- compute -------------------------------------------------------------- */

static BatchRow *
group_row (const Batch *b, const BatchGroup *g, guint k)
{
  return row_at (b, g_array_index (g->rows, guint, k));
}

/* Every group whose spec parses, in one request to the engine (each group
 * its rows on its grid: one input and one output transfer in all); the
 * rows of a spec that does not parse fail. Returns the exit status. */
static int
batch_compute (Batch *b)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) groups = g_array_new (FALSE, TRUE, sizeof (XrlabEngineBatchGroup));
  g_autoptr(GArray) of_group = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GPtrArray) specs = g_ptr_array_new_with_free_func (g_free);
  XrlabEngineBatch **batches;

  for (guint gi = 0; gi < b->groups->len; gi++)
    {
      BatchGroup *g = &g_array_index (b->groups, BatchGroup, gi);
      XrlabMaterialSpec *sp;

      b->progress.total += 2 * g->rows->len;
      if (g->grid == NULL)
        {
          for (guint k = 0; k < g->rows->len; k++)
            {
              BatchRow *row = group_row (b, g, k);
              report (b, row->line, _("%s line %u: %s"), b->path, row->line, g->grid_error);
              row->failed = TRUE;
            }
          continue;
        }
      sp = g_new0 (XrlabMaterialSpec, MAX (g->rows->len, 1));
      for (guint k = 0; k < g->rows->len; k++)
        {
          const BatchRow *row = group_row (b, g, k);
          sp[k].formula = xrlab_formula_get_text (row->formula);
          sp[k].density_g_cm3 = row->density;
          sp[k].thickness_um = isfinite (row->thickness) ? row->thickness : 0.0;
        }
      g_ptr_array_add (specs, sp);
      g_array_append_vals (groups, &(XrlabEngineBatchGroup) { sp, g->rows->len, g->grid }, 1);
      g_array_append_val (of_group, gi);
    }
  if (b->engine == NULL)
    b->engine = xrlab_engine_new ();
  batches = xrlab_engine_batch_groups_sync (b->engine, (XrlabEngineBatchGroup *) groups->data,
                                            groups->len, b->fields.mask,
                                            b->progress.tty ? progress_cb : NULL, &b->progress,
                                            b->interrupt, &error);
  if (batches == NULL && g_cancellable_is_cancelled (b->interrupt))
    return xrlab_cli_interrupt_status ();
  if (batches == NULL)
    return xrlab_cli_fail (error);
  for (guint i = 0; i < groups->len; i++)
    {
      BatchGroup *g = &g_array_index (b->groups, BatchGroup, g_array_index (of_group, guint, i));

      g->batch = g_steal_pointer (&batches[i]);
      for (guint k = 0; k < g->rows->len; k++)
        if (g->batch->errors[k] != NULL)
          {
            BatchRow *row = group_row (b, g, k);
            report (b, row->line, _("%s line %u: %s"), b->path, row->line,
                    g->batch->errors[k]->message);
            row->failed = TRUE;
          }
    }
  g_free (batches);
  b->progress.done_before = b->progress.total / 2;
  g_array_sort (b->problems, compare_problems);   /* at most one problem per line */
  return XRLAB_CLI_OK;
}

/* ---- write ---------------------------------------------------------------- */

/* The columns of the output: formula,density_g_cm3,energy_keV, the fields
 * and the table of the row's group. */
static XrlabCliTable *
output_table (const Batch *b)
{
  XrlabCliTable *t = xrlab_cli_table_new ();

  xrlab_cli_table_add_column (t, XRLAB_CLI_COLUMN_TEXT, "formula", NULL, NULL);
  xrlab_cli_table_add_column (t, XRLAB_CLI_COLUMN_NUMBER, "density_g_cm3", NULL, NULL);
  xrlab_cli_table_add_energy (t);
  for (guint k = 0; k < b->fields.n; k++)
    xrlab_cli_table_add_quantity (t, b->fields.order[k]);
  xrlab_cli_table_add_column (t, XRLAB_CLI_COLUMN_TEXT, "table", NULL, NULL);
  return t;
}

#define WRITE_BLOCK (1 << 20)   /* bytes per write: the lines of many rows together */

/* Writes @s to @out (stdout when NULL); FALSE when the write failed. */
static gboolean
emit (FILE *out, const GString *s)
{
  if (out == NULL)
    return xrlab_cli_stdout_write (s->str, s->len);
  return fwrite (s->str, 1, s->len, out) == s->len;
}

/* The CSV lines of @row (output_table()'s cells; @index: each field's in the row's values;
 * @head, @tail: room for its first and last cells) into @s, out at WRITE_BLOCK bytes.
 * FALSE when a write failed or the batch was interrupted. */
static gboolean
write_row (const Batch *b, const BatchRow *row, const int *index, GString *head, GString *tail,
           GString *s, FILE *out)
{
  const BatchGroup *g = &g_array_index (b->groups, BatchGroup, row->group);
  gsize n_e = xrlab_energy_grid_get_size (g->grid), n_f = b->fields.n;
  const double *e = xrlab_energy_grid_get_energies_kev (g->grid);
  const double *block = g->batch->values + row->index * n_f * n_e;
  char buf[XRLAB_DTOA_BUFSIZE];

  g_string_truncate (head, 0);
  xrlab_csv_append_field (head, row->formula_text);
  g_string_append_c (head, ',');
  g_string_append_len (head, buf, (gssize) xrlab_format_double_len (row->density, buf));
  g_string_append_c (head, ',');
  g_string_append (g_string_assign (tail, ","), xrlab_table_get_name (g->batch->table));
  g_string_append_c (tail, '\n');   /* the table's name is a plain word */
  for (gsize i = 0; i < n_e; i++)
    {
      gsize len = s->len;
      char *o;

      g_string_set_size (s, len + head->len + (n_f + 1) * (XRLAB_DTOA_BUFSIZE + 1) + tail->len);
      o = (char *) memcpy (s->str + len, head->str, head->len) + head->len;
      o += xrlab_format_double_len (e[i], o);
      for (gsize k = 0; k < n_f; k++)
        {
          *o++ = ',';
          o += xrlab_format_double_len (block[(gsize) index[k] * n_e + i], o);
        }
      memcpy (o, tail->str, tail->len);
      g_string_truncate (s, (gsize) (o - s->str) + tail->len);
      if (s->len >= WRITE_BLOCK && (!emit (out, s) || g_cancellable_is_cancelled (b->interrupt)))
        return FALSE;
      if (s->len >= WRITE_BLOCK)
        g_string_truncate (s, 0);
    }
  return TRUE;
}

/* The good rows in input order as HDF5 (-o FILE.h5). Returns the exit
 * status. */
static int
batch_write_h5 (Batch *b, const char *output)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) rows = g_array_new (FALSE, FALSE, sizeof (XrlabCliBatchRowOut));

  for (guint r = 0; r < b->rows->len; r++)
    {
      const BatchRow *row = row_at (b, r);
      const BatchGroup *g = &g_array_index (b->groups, BatchGroup, row->group);
      gsize n_e = g->grid ? xrlab_energy_grid_get_size (g->grid) : 0;

      if (!row->failed)
        g_array_append_vals (rows, &(XrlabCliBatchRowOut) {
            row->formula_text, row->density, xrlab_energy_grid_get_energies_kev (g->grid), n_e,
            g->batch->values + row->index * b->fields.n * n_e,
            xrlab_table_get_name (g->batch->table) }, 1);
    }
  if (!xrlab_cli_batch_write_h5 (output, (XrlabCliBatchRowOut *) rows->data, rows->len,
                                 &b->fields, b->interrupt, &error))
    return g_cancellable_is_cancelled (b->interrupt) ? xrlab_cli_interrupt_status ()
                                                     : xrlab_cli_fail (error);
  progress_draw (&b->progress, b->progress.total, TRUE);
  print_problems (b);
  return XRLAB_CLI_OK;
}

/* Writes the good rows in input order to @output (stdout when NULL or "-"),
 * then the problems to stderr. A failed write or an interrupt stops it at
 * once (an output file is then removed). Returns the exit status. */
static int
batch_write (Batch *b, const char *output)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabCliTable) t = output_table (b);
  g_autoptr(GString) s = g_string_sized_new (WRITE_BLOCK + 4096);
  g_autoptr(GString) head = g_string_new (NULL), tail = g_string_new (NULL);
  int index[XRLAB_QUANTITY_N];
  XrlabAtomicFile *af = NULL;
  FILE *out = NULL;
  gboolean ok;

  if (output != NULL && xrlab_h5_is_h5_name (output))
    return batch_write_h5 (b, output);
  if (output != NULL && strcmp (output, "-") != 0)
    {
      af = xrlab_atomic_file_open (output, &error);
      if (af == NULL)
        return xrlab_cli_fail (error);
      out = xrlab_atomic_file_stream (af);
      xrlab_cli_interrupt_set_temp_file (xrlab_atomic_file_get_temp_path (af));
    }
  for (guint k = 0; k < b->fields.n; k++)
    index[k] = xrlab_quantity_mask_index (b->fields.mask, b->fields.order[k]);
  xrlab_cli_table_append_csv_header (t, s);
  ok = TRUE;
  for (guint r = 0; ok && r < b->rows->len; r++)
    {
      if ((r & 1023) == 0)
        progress_draw (&b->progress, b->progress.total / 2 + r, FALSE);
      if (!row_at (b, r)->failed)
        ok = write_row (b, row_at (b, r), index, head, tail, s, out);
    }
  ok = ok && !g_cancellable_is_cancelled (b->interrupt) && emit (out, s);
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
  g_autofree char *output = NULL, *table_text = NULL, *transmission_text = NULL;
  g_autofree char *description = g_strdup_printf (
      _("A file whose grids and results need more than %llu values in all (a quarter of this "
        "machine's memory in 8-byte numbers) is refused before anything is computed.\n"
        "Ctrl-C (or SIGTERM) stops the batch: the output file is not written and the exit "
        "status is 130 (143).\n"
        "Exit status: 0 success, 1 bad input, 2 usage error."),
      (unsigned long long) xrlab_cli_max_values ());
  g_auto(GStrv) rest = NULL;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      N_("Write to FILE (atomically) instead of stdout; FILE.h5 (or .nxs) is written as "
         "HDF5: one dataset per column in /entry/results, with units"), N_("FILE") },
    { "unit", 'u', 0, G_OPTION_ARG_STRING, &unit_text,
      N_("Unit of the energy specs: keV (default), eV or A"), N_("UNIT") },
    { "table", 0, 0, G_OPTION_ARG_STRING, &table_text,
      N_("Scattering factors: henke, chantler or auto (default: per energy spec)"), N_("TABLE") },
    { "transmission", 0, 0, G_OPTION_ARG_STRING, &transmission_text,
      N_("Transmission from the total attenuation (default) or photo(absorption) only"),
      N_("total|photo") },
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
        "The output has one row per material and energy: formula,density_g_cm3,\n"
        "the columns of “xrlab-cli calc --format csv”, and the table used. Rows\n"
        "with the same energy spec are computed together, with one table: with\n"
        "--table auto Henke when the spec lies within 30 eV–30 keV, Chantler\n"
        "otherwise. A row that fails is reported on stderr with its line number and\n"
        "reason; every good row is still written, and the exit status is then 1."),
    .description = description,
    .entries = { entries },
  };
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  g_auto(Batch) b = { 0, };
  gsize n_good = 0, len = 0;
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
  if (!xrlab_cli_parse_energy_unit ("batch", unit_text, &b.unit)
      || !xrlab_cli_parse_table ("batch", table_text, &b.choice)
      || !xrlab_cli_parse_transmission ("batch", transmission_text, &b.transmission))
    return XRLAB_CLI_USAGE;
  if (thickness_text != NULL
      && !xrlab_cli_parse_number (_("Thickness “%s” is not a number"), thickness_text,
                                  &b.thickness_default))
    return XRLAB_CLI_BAD_INPUT;
  if (!g_file_get_contents (b.path, &contents, &len, &error))
    return xrlab_cli_fail (error);
  if (!batch_read (&b, contents, len, &error))
    return xrlab_cli_fail (error);
  if (!xrlab_cli_parse_fields ("batch", fields_text,
                               batch_has_thickness (&b, thickness_text != NULL), b.transmission,
                               &b.fields))
    return XRLAB_CLI_USAGE;
  b.max_values = xrlab_cli_max_values ();
  if (!batch_group (&b, &error))
    return xrlab_cli_fail (error);
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
