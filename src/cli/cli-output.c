/* cli-output.c -- tables written as aligned text, CSV or JSON
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "cli-output.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib/gi18n.h>

#include "cli-private.h"
#include "xrlab-util.h"

/* ---- formats and files ---------------------------------------------------- */

gboolean
xrlab_cli_parse_format (const char *cmd, const char *text, XrlabCliFormat *format)
{
  if (text == NULL || strcmp (text, "table") == 0)
    *format = XRLAB_CLI_FORMAT_TABLE;
  else if (strcmp (text, "csv") == 0)
    *format = XRLAB_CLI_FORMAT_CSV;
  else if (strcmp (text, "json") == 0)
    *format = XRLAB_CLI_FORMAT_JSON;
  else
    {
      xrlab_cli_usage (cmd, _("--format must be table, csv or json, not “%s”"), text);
      return FALSE;
    }
  return TRUE;
}

int
xrlab_cli_write_output (const char *path, const GString *text)
{
  g_autoptr(GError) error = NULL;

  if (path == NULL || strcmp (path, "-") == 0)
    {
      if (!xrlab_cli_stdout_write (text->str, text->len) || !xrlab_cli_stdout_flush ())
        return xrlab_cli_stdout_fail ();
      return XRLAB_CLI_OK;
    }
  if (!xrlab_write_file_atomic (path, text->str, (gssize) text->len, &error))
    return xrlab_cli_fail (error);
  return XRLAB_CLI_OK;
}

/* ---- text for people ------------------------------------------------------ */

char *
xrlab_cli_format_number (double x)
{
  if (isnan (x))
    return g_strdup ("—");
  return g_strdup_printf ("%.6g", x);
}

int
xrlab_cli_text_width (const char *text)
{
  return (int) g_utf8_strlen (text, -1);
}

void
xrlab_cli_append_padded (GString *out, const char *text, int width, gboolean right)
{
  int pad = width - xrlab_cli_text_width (text);

  if (right)
    for (int i = 0; i < pad; i++)
      g_string_append_c (out, ' ');
  g_string_append (out, text);
  if (!right)
    for (int i = 0; i < pad; i++)
      g_string_append_c (out, ' ');
}

/* ---- JSON ------------------------------------------------------------------ */

void
xrlab_cli_json_init (XrlabCliJson *json, GString *out)
{
  memset (json, 0, sizeof *json);
  json->out = out;
}

static void
json_indent (XrlabCliJson *json, guint depth)
{
  for (guint i = 0; i < depth; i++)
    g_string_append (json->out, "  ");
}

/* What comes before a value: the separator of the enclosing container and
 * the key. */
static void
json_member (XrlabCliJson *json, const char *key)
{
  if (json->depth > 0)
    {
      XrlabCliJsonLevel *l = &json->level[json->depth - 1];

      if (l->layout == XRLAB_CLI_JSON_LINES)
        {
          g_string_append (json->out, l->empty ? "\n" : ",\n");
          json_indent (json, json->depth);
        }
      else if (!l->empty)
        g_string_append (json->out, ", ");
      l->empty = FALSE;
    }
  if (key != NULL)
    {
      xrlab_json_append_string (json->out, key);
      g_string_append (json->out, ": ");
    }
}

static void
json_begin (XrlabCliJson *json, const char *key, XrlabCliJsonLayout layout, char open,
            char close)
{
  g_return_if_fail (json->depth < XRLAB_CLI_JSON_MAX_DEPTH);

  json_member (json, key);
  g_string_append_c (json->out, open);
  json->level[json->depth].layout = layout;
  json->level[json->depth].empty = TRUE;
  json->level[json->depth].close = close;
  json->depth++;
}

void
xrlab_cli_json_begin_object (XrlabCliJson *json, const char *key, XrlabCliJsonLayout layout)
{
  json_begin (json, key, layout, '{', '}');
}

void
xrlab_cli_json_begin_array (XrlabCliJson *json, const char *key, XrlabCliJsonLayout layout)
{
  json_begin (json, key, layout, '[', ']');
}

void
xrlab_cli_json_end (XrlabCliJson *json)
{
  g_return_if_fail (json->depth > 0);

  json->depth--;
  if (json->level[json->depth].layout == XRLAB_CLI_JSON_LINES)
    {
      g_string_append_c (json->out, '\n');
      json_indent (json, json->depth);
    }
  g_string_append_c (json->out, json->level[json->depth].close);
  if (json->depth == 0)
    g_string_append_c (json->out, '\n');
}

void
xrlab_cli_json_number (XrlabCliJson *json, const char *key, double value)
{
  json_member (json, key);
  xrlab_json_append_number (json->out, value);
}

void
xrlab_cli_json_integer (XrlabCliJson *json, const char *key, gint64 value)
{
  json_member (json, key);
  g_string_append_printf (json->out, "%" G_GINT64_FORMAT, value);
}

void
xrlab_cli_json_string (XrlabCliJson *json, const char *key, const char *value)
{
  json_member (json, key);
  xrlab_json_append_string (json->out, value);
}

void
xrlab_cli_json_null (XrlabCliJson *json, const char *key)
{
  json_member (json, key);
  g_string_append (json->out, "null");
}

void
xrlab_cli_json_numbers (XrlabCliJson *json, const char *key, const double *values, gsize n)
{
  xrlab_cli_json_begin_array (json, key, XRLAB_CLI_JSON_INLINE);
  for (gsize i = 0; i < n; i++)
    xrlab_cli_json_number (json, NULL, values[i]);
  xrlab_cli_json_end (json);
}

/* ---- tables ---------------------------------------------------------------- */

typedef struct {
  XrlabCliColumnKind kind;
  char *key;            /* NULL: text table only */
  char *label;          /* NULL: CSV and JSON only */
  char *unit;
  char *text_format;    /* NULL: xrlab_cli_format_number() */
  double text_scale;
} Column;

typedef struct {
  gboolean set;
  union {
    double number;
    gint64 integer;
    char *text;
  };
} Cell;

struct _XrlabCliTable {
  GArray *columns;      /* of Column */
  GArray *cells;        /* of Cell, row-major */
  gsize n_rows;
};

static void
column_clear (gpointer data)
{
  Column *c = data;

  g_free (c->key);
  g_free (c->label);
  g_free (c->unit);
  g_free (c->text_format);
}

XrlabCliTable *
xrlab_cli_table_new (void)
{
  XrlabCliTable *t = g_new0 (XrlabCliTable, 1);

  t->columns = g_array_new (FALSE, TRUE, sizeof (Column));
  g_array_set_clear_func (t->columns, column_clear);
  t->cells = g_array_new (FALSE, TRUE, sizeof (Cell));
  return t;
}

void
xrlab_cli_table_free (XrlabCliTable *table)
{
  if (table == NULL)
    return;
  xrlab_cli_table_clear_rows (table);
  g_array_unref (table->cells);
  g_array_unref (table->columns);
  g_free (table);
}

guint
xrlab_cli_table_add_column (XrlabCliTable *table, XrlabCliColumnKind kind, const char *key,
                            const char *label, const char *unit)
{
  Column c = { 0, };

  g_return_val_if_fail (table->n_rows == 0, 0);
  g_return_val_if_fail (key != NULL || label != NULL, 0);

  c.kind = kind;
  c.key = g_strdup (key);
  c.label = g_strdup (label);
  c.unit = g_strdup (unit ? unit : "");
  c.text_scale = 1.0;
  g_array_append_val (table->columns, c);
  return table->columns->len - 1;
}

guint
xrlab_cli_table_add_quantity (XrlabCliTable *table, XrlabQuantity quantity)
{
  return xrlab_cli_table_add_column (table, XRLAB_CLI_COLUMN_NUMBER,
                                     xrlab_quantity_get_column (quantity),
                                     xrlab_quantity_get_label (quantity),
                                     xrlab_quantity_get_unit (quantity));
}

static Column *
column_at (const XrlabCliTable *table, guint column)
{
  return &g_array_index (table->columns, Column, column);
}

/* Who reads a column: people (the text table) or programs (CSV, JSON). */
typedef enum {
  FOR_PEOPLE,
  FOR_PROGRAMS,
} Reader;

/* The indices of the columns that @reader sees, into @shown (room for every
 * column); returns how many. */
static guint
shown_columns (const XrlabCliTable *table, Reader reader, guint *shown)
{
  guint n = 0;

  for (guint c = 0; c < table->columns->len; c++)
    {
      const Column *col = column_at (table, c);

      if ((reader == FOR_PEOPLE ? col->label : col->key) != NULL)
        shown[n++] = c;
    }
  return n;
}

void
xrlab_cli_table_set_text_format (XrlabCliTable *table, guint column, const char *format,
                                 double scale)
{
  Column *c;

  g_return_if_fail (column < table->columns->len);
  c = column_at (table, column);
  g_return_if_fail (c->kind == XRLAB_CLI_COLUMN_NUMBER);
  g_free (c->text_format);
  c->text_format = g_strdup (format);
  c->text_scale = scale;
}

guint
xrlab_cli_table_get_n_columns (const XrlabCliTable *table)
{
  return table->columns->len;
}

gsize
xrlab_cli_table_get_n_rows (const XrlabCliTable *table)
{
  return table->n_rows;
}

gsize
xrlab_cli_table_add_row (XrlabCliTable *table)
{
  g_array_set_size (table->cells, table->cells->len + table->columns->len);
  return table->n_rows++;
}

static void
cell_clear (const Column *c, Cell *cell)
{
  if (c->kind == XRLAB_CLI_COLUMN_TEXT && cell->set)
    g_free (cell->text);
  memset (cell, 0, sizeof *cell);
}

void
xrlab_cli_table_clear_rows (XrlabCliTable *table)
{
  guint n_cols = table->columns->len;

  for (guint i = 0; i < table->cells->len; i++)
    cell_clear (column_at (table, i % n_cols), &g_array_index (table->cells, Cell, i));
  g_array_set_size (table->cells, 0);
  table->n_rows = 0;
}

static Cell *
cell_at (const XrlabCliTable *table, gsize row, guint column)
{
  return &g_array_index (table->cells, Cell, row * table->columns->len + column);
}

/* The cell to set, emptied; NULL (after a critical) when @row, @column or
 * @kind are wrong. */
static Cell *
cell_for_setting (XrlabCliTable *table, gsize row, guint column, XrlabCliColumnKind kind)
{
  Cell *cell;

  g_return_val_if_fail (row < table->n_rows && column < table->columns->len, NULL);
  g_return_val_if_fail (column_at (table, column)->kind == kind, NULL);
  cell = cell_at (table, row, column);
  cell_clear (column_at (table, column), cell);
  cell->set = TRUE;
  return cell;
}

void
xrlab_cli_table_set_number (XrlabCliTable *table, gsize row, guint column, double value)
{
  Cell *cell = cell_for_setting (table, row, column, XRLAB_CLI_COLUMN_NUMBER);

  if (cell)
    cell->number = value;
}

void
xrlab_cli_table_set_integer (XrlabCliTable *table, gsize row, guint column, gint64 value)
{
  Cell *cell = cell_for_setting (table, row, column, XRLAB_CLI_COLUMN_INTEGER);

  if (cell)
    cell->integer = value;
}

void
xrlab_cli_table_take_text (XrlabCliTable *table, gsize row, guint column, char *text)
{
  Cell *cell = cell_for_setting (table, row, column, XRLAB_CLI_COLUMN_TEXT);

  if (cell)
    cell->text = text;
  else
    g_free (text);
}

void
xrlab_cli_table_set_text (XrlabCliTable *table, gsize row, guint column, const char *text)
{
  xrlab_cli_table_take_text (table, row, column, g_strdup (text));
}

void
xrlab_cli_table_set_numbers (XrlabCliTable *table, guint column, const double *values, gsize n)
{
  while (table->n_rows < n)
    xrlab_cli_table_add_row (table);
  for (gsize i = 0; i < n; i++)
    xrlab_cli_table_set_number (table, i, column, values[i]);
}

double
xrlab_cli_table_get_number (const XrlabCliTable *table, gsize row, guint column)
{
  const Cell *cell;

  g_return_val_if_fail (row < table->n_rows && column < table->columns->len, NAN);
  cell = cell_at (table, row, column);
  if (!cell->set)
    return column_at (table, column)->kind == XRLAB_CLI_COLUMN_NUMBER ? NAN : 0.0;
  switch (column_at (table, column)->kind)
    {
    case XRLAB_CLI_COLUMN_NUMBER:
      return cell->number;
    case XRLAB_CLI_COLUMN_INTEGER:
      return (double) cell->integer;
    case XRLAB_CLI_COLUMN_TEXT:
    default:
      return NAN;
    }
}

const char *
xrlab_cli_table_get_text (const XrlabCliTable *table, gsize row, guint column)
{
  const Cell *cell;

  g_return_val_if_fail (row < table->n_rows && column < table->columns->len, NULL);
  g_return_val_if_fail (column_at (table, column)->kind == XRLAB_CLI_COLUMN_TEXT, NULL);
  cell = cell_at (table, row, column);
  return cell->set ? cell->text : NULL;
}

/* ---- text ------------------------------------------------------------------ */

/* A cell as the text table shows it. */
static char *
cell_text (const Column *c, const Cell *cell)
{
  if (!cell->set)
    return g_strdup ("");
  switch (c->kind)
    {
    case XRLAB_CLI_COLUMN_NUMBER:
      if (c->text_format == NULL)
        return xrlab_cli_format_number (cell->number);
      if (isnan (cell->number))
        return g_strdup ("—");
      return g_strdup_printf (c->text_format, c->text_scale * cell->number);
    case XRLAB_CLI_COLUMN_INTEGER:
      return g_strdup_printf ("%" G_GINT64_FORMAT, cell->integer);
    case XRLAB_CLI_COLUMN_TEXT:
    default:
      return g_strdup (cell->text);
    }
}

/* One line of the text table: @texts[c] of the columns @shown. */
static void
append_text_line (const XrlabCliTable *table, GString *out, const guint *shown, guint n_shown,
                  char *const *texts, const int *widths)
{
  for (guint i = 0; i < n_shown; i++)
    {
      guint c = shown[i];

      if (i > 0)
        g_string_append (out, "  ");
      xrlab_cli_append_padded (out, texts[c], widths[c],
                               column_at (table, c)->kind != XRLAB_CLI_COLUMN_TEXT);
    }
  while (out->len > 0 && out->str[out->len - 1] == ' ')
    g_string_truncate (out, out->len - 1);
  g_string_append_c (out, '\n');
}

void
xrlab_cli_table_append_text (const XrlabCliTable *table, GString *out)
{
  guint n_cols = table->columns->len;
  g_autofree guint *shown = g_new (guint, MAX (n_cols, 1));
  guint n_shown = shown_columns (table, FOR_PEOPLE, shown);
  g_autofree int *widths = g_new0 (int, MAX (n_cols, 1));
  g_autofree char **labels = g_new0 (char *, MAX (n_cols, 1));
  g_autofree char **units = g_new0 (char *, MAX (n_cols, 1));
  char **texts = g_new0 (char *, MAX (table->cells->len, 1));
  gboolean any_unit = FALSE;

  for (guint i = 0; i < n_shown; i++)
    {
      guint c = shown[i];
      const Column *col = column_at (table, c);

      labels[c] = col->label;
      units[c] = col->unit;
      any_unit |= col->unit[0] != '\0';
      widths[c] = MAX (xrlab_cli_text_width (col->label), xrlab_cli_text_width (col->unit));
      for (gsize r = 0; r < table->n_rows; r++)
        {
          char **t = &texts[r * n_cols + c];
          *t = cell_text (col, cell_at (table, r, c));
          widths[c] = MAX (widths[c], xrlab_cli_text_width (*t));
        }
    }
  append_text_line (table, out, shown, n_shown, labels, widths);
  if (any_unit)
    append_text_line (table, out, shown, n_shown, units, widths);
  for (gsize r = 0; r < table->n_rows; r++)
    append_text_line (table, out, shown, n_shown, texts + r * n_cols, widths);
  for (guint i = 0; i < table->cells->len; i++)
    g_free (texts[i]);
  g_free (texts);
}

/* ---- CSV ------------------------------------------------------------------- */

void
xrlab_cli_table_append_csv_header (const XrlabCliTable *table, GString *out)
{
  g_autofree guint *shown = g_new (guint, MAX (table->columns->len, 1));
  guint n_shown = shown_columns (table, FOR_PROGRAMS, shown);

  for (guint i = 0; i < n_shown; i++)
    {
      if (i > 0)
        g_string_append_c (out, ',');
      xrlab_csv_append_field (out, column_at (table, shown[i])->key);
    }
  g_string_append_c (out, '\n');
}

static void
append_csv_cell (GString *out, const Column *c, const Cell *cell)
{
  char buf[XRLAB_DTOA_BUFSIZE];

  if (!cell->set)
    return;
  switch (c->kind)
    {
    case XRLAB_CLI_COLUMN_NUMBER:
      g_string_append (out, xrlab_format_double (cell->number, buf));
      break;
    case XRLAB_CLI_COLUMN_INTEGER:
      g_string_append_printf (out, "%" G_GINT64_FORMAT, cell->integer);
      break;
    case XRLAB_CLI_COLUMN_TEXT:
    default:
      xrlab_csv_append_field (out, cell->text);
      break;
    }
}

void
xrlab_cli_table_append_csv_rows (const XrlabCliTable *table, GString *out)
{
  g_autofree guint *shown = g_new (guint, MAX (table->columns->len, 1));
  guint n_shown = shown_columns (table, FOR_PROGRAMS, shown);

  for (gsize r = 0; r < table->n_rows; r++)
    {
      for (guint i = 0; i < n_shown; i++)
        {
          if (i > 0)
            g_string_append_c (out, ',');
          append_csv_cell (out, column_at (table, shown[i]), cell_at (table, r, shown[i]));
        }
      g_string_append_c (out, '\n');
    }
}

void
xrlab_cli_table_append_csv (const XrlabCliTable *table, GString *out)
{
  xrlab_cli_table_append_csv_header (table, out);
  xrlab_cli_table_append_csv_rows (table, out);
}

/* ---- JSON ------------------------------------------------------------------ */

static void
write_json_cell (XrlabCliJson *json, const char *key, const Column *c, const Cell *cell)
{
  if (!cell->set)
    xrlab_cli_json_null (json, key);
  else if (c->kind == XRLAB_CLI_COLUMN_NUMBER)
    xrlab_cli_json_number (json, key, cell->number);
  else if (c->kind == XRLAB_CLI_COLUMN_INTEGER)
    xrlab_cli_json_integer (json, key, cell->integer);
  else
    xrlab_cli_json_string (json, key, cell->text);
}

void
xrlab_cli_table_write_json_rows (const XrlabCliTable *table, XrlabCliJson *json,
                                 const char *key)
{
  xrlab_cli_json_begin_array (json, key, XRLAB_CLI_JSON_LINES);
  for (gsize r = 0; r < table->n_rows; r++)
    {
      xrlab_cli_json_begin_object (json, NULL, XRLAB_CLI_JSON_INLINE);
      for (guint c = 0; c < table->columns->len; c++)
        {
          const Column *col = column_at (table, c);

          if (col->key != NULL)
            write_json_cell (json, col->key, col, cell_at (table, r, c));
        }
      xrlab_cli_json_end (json);
    }
  xrlab_cli_json_end (json);
}

void
xrlab_cli_table_write_json_column (const XrlabCliTable *table, XrlabCliJson *json,
                                   const char *key, guint column)
{
  const Column *col;

  g_return_if_fail (column < table->columns->len);
  col = column_at (table, column);
  xrlab_cli_json_begin_array (json, key, XRLAB_CLI_JSON_INLINE);
  for (gsize r = 0; r < table->n_rows; r++)
    write_json_cell (json, NULL, col, cell_at (table, r, column));
  xrlab_cli_json_end (json);
}

void
xrlab_cli_table_write_json_columns (const XrlabCliTable *table, XrlabCliJson *json,
                                    const char *key)
{
  xrlab_cli_json_begin_object (json, key, XRLAB_CLI_JSON_LINES);
  for (guint c = 0; c < table->columns->len; c++)
    {
      const Column *col = column_at (table, c);

      if (col->key != NULL)
        xrlab_cli_table_write_json_column (table, json, col->key, c);
    }
  xrlab_cli_json_end (json);
}

void
xrlab_cli_table_append (const XrlabCliTable *table, XrlabCliFormat format, GString *out)
{
  XrlabCliJson json;

  switch (format)
    {
    case XRLAB_CLI_FORMAT_CSV:
      xrlab_cli_table_append_csv (table, out);
      break;
    case XRLAB_CLI_FORMAT_JSON:
      xrlab_cli_json_init (&json, out);
      xrlab_cli_table_write_json_rows (table, &json, NULL);
      break;
    case XRLAB_CLI_FORMAT_TABLE:
    default:
      xrlab_cli_table_append_text (table, out);
      break;
    }
}
