/* cli-optics-batch-read.c -- xrlab-cli batch: reading IN.csv and grouping
 * its rows (cli-optics-batch-private.h)
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

#include "cli-optics-batch-private.h"
#include "cli-private.h"
#include "xrlab-util.h"

/* ---- problems ------------------------------------------------------------- */

/* Collects a problem of input line @line and counts the row as failed;
 * printed in line order at the end, each as "xrlab-cli: <message>". */

void
xrlab_cli_batch_report (Batch *b, guint line, const char *format, ...)
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

int
xrlab_cli_batch_compare_problems (gconstpointer a, gconstpointer b)
{
  guint x = ((const Problem *) a)->line, y = ((const Problem *) b)->line;
  return (x > y) - (x < y);
}

void
xrlab_cli_batch_print_problems (const Batch *b)
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
  g_clear_pointer (&g->energies, g_array_unref);
  g_clear_pointer (&g->batch, xrlab_engine_batch_free);
}

static GHashTable *point_table_new (void);

void
xrlab_cli_batch_init (Batch *b, const char *path)
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
  b->group_of_point = point_table_new ();
  b->formula_of_text = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                              (GDestroyNotify) xrlab_formula_unref);
  b->progress.tty = isatty (STDERR_FILENO);
}

void
xrlab_cli_batch_clear (Batch *b)
{
  g_clear_pointer (&b->group_of_spec, g_hash_table_unref);
  g_clear_pointer (&b->group_of_point, g_hash_table_unref);
  g_clear_pointer (&b->formula_of_text, g_hash_table_unref);
  g_clear_pointer (&b->groups, g_array_unref);
  g_clear_pointer (&b->problems, g_array_unref);
  g_clear_pointer (&b->rows, g_array_unref);
  g_clear_object (&b->engine);
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
        xrlab_cli_batch_report (b, ln,
                g_dngettext (GETTEXT_PACKAGE,
                             "%s line %u: expected %u field like the header, found %u",
                             "%s line %u: expected %u fields like the header, found %u",
                             b->n_header),
                b->path, ln, b->n_header, fields->len);
      else
        xrlab_cli_batch_report (b, ln, _("%s line %u: expected 3 fields formula,density,energy "
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
      xrlab_cli_batch_report (b, ln, _("%s line %u: formula “%s”: %s"), b->path, ln, q, error->message);
    }
  else if (!xrlab_parse_double (dens, FALSE, &row.density))
    {
      g_autofree char *q = quote (dens);
      xrlab_cli_batch_report (b, ln, _("%s line %u: density “%s” is not a number"), b->path, ln, q);
    }
  else if (thick != NULL && thick[0] != '\0' && !xrlab_parse_double (thick, FALSE, &row.thickness))
    {
      g_autofree char *q = quote (thick);
      xrlab_cli_batch_report (b, ln, _("%s line %u: thickness “%s” is not a number"), b->path, ln, q);
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
gboolean
xrlab_cli_batch_read (Batch *b, const char *data, gsize len, GError **error)
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
          xrlab_cli_batch_report (b, ln + 1, _("%s line %u, column %d: unterminated or misplaced quote"),
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
gboolean
xrlab_cli_batch_has_thickness (const Batch *b, gboolean option_given)
{
  if (option_given || b->col_thickness >= 0)
    return TRUE;
  for (guint r = 0; r < b->rows->len; r++)
    if (isfinite (xrlab_cli_batch_row_at (b, r)->thickness))
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

/* Whether @spec is one energy, within the range of the table its choice
 * takes for it alone: its value (in the batch's unit) and that table. */
static gboolean
single_energy (const Batch *b, const char *spec, double *value, XrlabTable *table)
{
  const XrlabEnergyRange *r;
  double v, kev;

  if (!xrlab_parse_double_n (spec, strlen (spec), FALSE, &v) || !(v > 0))
    return FALSE;
  kev = xrlab_energy_convert (v, b->unit, XRLAB_ENERGY_UNIT_KEV);
  *table = xrlab_energy_choose_table (b->choice, kev, kev);
  r = xrlab_energy_range_get (*table);
  if (xrlab_energy_place (kev * 1000.0, r->min_ev, r->max_ev, NULL) != XRLAB_ENERGY_INSIDE)
    return FALSE;   /* the spec's own grid says why */
  *value = v;
  return TRUE;
}

/* What a point group is of (the formula text is a row's, borrowed). */
typedef struct {
  XrlabTable table;
  double density, thickness;
  const char *formula;
} PointKey;

static guint
point_key_hash (gconstpointer data)
{
  const PointKey *k = data;
  guint64 d, t;

  memcpy (&d, &k->density, sizeof d);
  memcpy (&t, &k->thickness, sizeof t);
  return g_str_hash (k->formula) ^ (guint) (d ^ (d >> 32)) * 31u ^ (guint) (t ^ (t >> 29)) ^ (guint) k->table;
}

static gboolean
point_key_equal (gconstpointer a, gconstpointer b)
{
  const PointKey *x = a, *y = b;

  /* bit for bit (a NaN thickness equals itself) */
  return x->table == y->table && memcmp (&x->density, &y->density, sizeof (double)) == 0
         && memcmp (&x->thickness, &y->thickness, sizeof (double)) == 0
         && strcmp (x->formula, y->formula) == 0;
}

/* Point groups by material and table (keys borrow the rows' formula texts). */
static GHashTable *
point_table_new (void)
{
  return g_hash_table_new_full (point_key_hash, point_key_equal, g_free, NULL);
}

/* Adds row @r of one energy @v to the point group of its material and
 * @table. */
static void
add_point (Batch *b, guint r, BatchRow *row, double v, XrlabTable table)
{
  PointKey key = { table, row->density, row->thickness, row->formula_text };
  gpointer found;
  BatchGroup *g;

  if (g_hash_table_lookup_extended (b->group_of_point, &key, NULL, &found))
    row->group = GPOINTER_TO_SIZE (found);
  else
    {
      BatchGroup ng = { .points = TRUE, .table = table };

      ng.rows = g_array_new (FALSE, FALSE, sizeof (guint));
      ng.energies = g_array_new (FALSE, FALSE, sizeof (double));
      row->group = b->groups->len;
      g_array_append_val (b->groups, ng);
      g_hash_table_insert (b->group_of_point, g_memdup2 (&key, sizeof key), GSIZE_TO_POINTER (row->group));
    }
  g = &g_array_index (b->groups, BatchGroup, row->group);
  row->index = g->energies->len;
  g_array_append_val (g->energies, v);
  g_array_append_val (g->rows, r);
}

/* The grids of the point groups, from their energies. */
static void
point_grids (Batch *b)
{
  for (guint gi = 0; gi < b->groups->len; gi++)
    {
      BatchGroup *g = &g_array_index (b->groups, BatchGroup, gi);
      g_autoptr(GError) grid_error = NULL;

      if (!g->points)
        continue;
      g->grid = xrlab_energy_grid_new_for_table ((const double *) (const void *) g->energies->data,
                                                 g->energies->len, b->unit, (XrlabTableChoice) g->table,
                                                 &grid_error);
      if (g->grid == NULL)
        g->grid_error = g_strdup (grid_error->message);
      g_clear_pointer (&g->energies, g_array_unref);
    }
}

/* Groups the rows by energy spec: one grid (or the reason why there is none)
 * per spec; the rows of one energy each by material and table instead (one
 * grid of their energies per group: 10^5 rows of as many energies are a
 * handful of groups, not 10^5). FALSE with @error set when the grids and
 * the values to compute would be more than the limit (b->max_values). */
gboolean
xrlab_cli_batch_group (Batch *b, GError **error)
{
  guint n_quantities = MAX (xrlab_quantity_mask_count (b->fields.mask), 1);

  for (guint r = 0; r < b->rows->len; r++)
    {
      BatchRow *row = xrlab_cli_batch_row_at (b, r);
      BatchGroup *g;
      gpointer found;

      if ((b->fields.mask & XRLAB_QUANTITY_MASK_TRANSMISSIONS) && !isfinite (row->thickness))
        {
          xrlab_cli_batch_report (b, row->line, _("%s line %u: no thickness for the transmission column "
                                  "(add one to the row or give --thickness UM)"),
                  b->path, row->line);
          row->failed = TRUE;
          continue;
        }

      {
        double v;
        XrlabTable table;

        if (single_energy (b, row->spec, &v, &table))
          {
            /* its energy and its values */
            add_point (b, r, row, v, table);
            if (!count_values (b, (guint64) n_quantities + 1, error))
              return FALSE;
            continue;
          }
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
  point_grids (b);
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
  xrlab_cli_batch_init (&b, name);
  b.unit = unit;
  b.max_values = max_values;
  b.choice = XRLAB_TABLE_CHOICE_AUTO;   /* the command's default */
  xrlab_cli_parse_fields ("batch", NULL, transmission, XRLAB_QUANTITY_TRANSMISSION, &b.fields);
  if (!xrlab_cli_batch_read (&b, data, len, error) || !xrlab_cli_batch_group (&b, error))
    return FALSE;
  g_array_sort (b.problems, xrlab_cli_batch_compare_problems);
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

