/* cli-output.h -- the output layer of xrlab-cli: tables of columns and rows
 * written as aligned text for people, as CSV or as JSON
 *
 * A table has columns -- a machine key (the CSV header, the JSON key), a
 * label and a unit for people -- and rows of cells: numbers, integers or
 * text. One table renders as
 *   - text: the labels, the units under them, the cells aligned with two
 *     spaces between columns, numbers right and text left; numbers with 6
 *     significant digits unless the column says otherwise, "—" for NaN;
 *   - CSV: the keys, then one line per row; numbers in round-trip precision
 *     (xrlab_format_double(), "nan"), text quoted as RFC 4180 asks;
 *   - JSON, through XrlabCliJson: an array of row objects or an object of
 *     column arrays; numbers in round-trip precision, null where not finite.
 * A column without a key is for people only; one without a label only for
 * CSV and JSON. A cell never set is empty (JSON: null).
 *
 * XrlabCliJson writes the documents around tables: objects and arrays laid
 * out one member a line (indented two spaces a level) or on one line.
 *
 * Tables and labels are in the user's language; keys and everything in CSV
 * and JSON are not.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "xrlab-quantity.h"

G_BEGIN_DECLS

/* ---- formats ------------------------------------------------------------ */

typedef enum {
  XRLAB_CLI_FORMAT_TABLE,   /* aligned text for people */
  XRLAB_CLI_FORMAT_CSV,
  XRLAB_CLI_FORMAT_JSON,
} XrlabCliFormat;

/* --format of subcommand @cmd: "table" (also when @text is NULL), "csv" or
 * "json". Prints a usage error and returns FALSE for anything else. */
gboolean xrlab_cli_parse_format (const char *cmd, const char *text, XrlabCliFormat *format);

/* Writes @text to @path atomically, or to stdout when @path is NULL or "-".
 * Returns the exit status (a message on stderr when it failed). */
int xrlab_cli_write_output (const char *path, const GString *text);

/* ---- text for people ------------------------------------------------------ */

/* A number as the text table shows it by default: 6 significant digits
 * ("%.6g" in the user's locale), "—" for NaN. */
char *xrlab_cli_format_number (double x);

/* Display width of @text (characters: good enough for labels and numbers). */
int  xrlab_cli_text_width (const char *text);
/* Appends @text padded with spaces to @width, on the left when @right. */
void xrlab_cli_append_padded (GString *out, const char *text, int width, gboolean right);

/* ---- JSON ------------------------------------------------------------------ */

typedef enum {
  XRLAB_CLI_JSON_LINES,    /* one member a line, indented two spaces a level */
  XRLAB_CLI_JSON_INLINE,   /* on one line, ", " between members */
} XrlabCliJsonLayout;

#define XRLAB_CLI_JSON_MAX_DEPTH 8

typedef struct {
  XrlabCliJsonLayout layout;
  gboolean empty;       /* nothing written inside yet */
  char close;           /* '}' or ']' */
} XrlabCliJsonLevel;

typedef struct {
  GString *out;
  guint depth;          /* open objects and arrays */
  XrlabCliJsonLevel level[XRLAB_CLI_JSON_MAX_DEPTH];
} XrlabCliJson;

/* Starts a document appended to @out. */
void xrlab_cli_json_init (XrlabCliJson *json, GString *out);

/* Opens an object or an array: a member @key of the enclosing object, or
 * (@key NULL) an element of the enclosing array or the document itself. */
void xrlab_cli_json_begin_object (XrlabCliJson *json, const char *key, XrlabCliJsonLayout layout);
void xrlab_cli_json_begin_array  (XrlabCliJson *json, const char *key, XrlabCliJsonLayout layout);
/* Closes the innermost object or array; the document ends with a newline. */
void xrlab_cli_json_end (XrlabCliJson *json);

/* Values (@key as above). */
void xrlab_cli_json_number  (XrlabCliJson *json, const char *key, double value);
void xrlab_cli_json_integer (XrlabCliJson *json, const char *key, gint64 value);
void xrlab_cli_json_string  (XrlabCliJson *json, const char *key, const char *value);
void xrlab_cli_json_null    (XrlabCliJson *json, const char *key);
/* An array of numbers on one line. */
void xrlab_cli_json_numbers (XrlabCliJson *json, const char *key, const double *values, gsize n);

/* ---- tables ---------------------------------------------------------------- */

typedef enum {
  XRLAB_CLI_COLUMN_NUMBER,    /* double */
  XRLAB_CLI_COLUMN_INTEGER,   /* gint64 */
  XRLAB_CLI_COLUMN_TEXT,      /* a string */
} XrlabCliColumnKind;

typedef struct _XrlabCliTable XrlabCliTable;

XrlabCliTable *xrlab_cli_table_new  (void);
void           xrlab_cli_table_free (XrlabCliTable *table);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (XrlabCliTable, xrlab_cli_table_free)

/* Adds a column and returns its index (columns come before rows). @key: the CSV header and JSON key
 * (NULL: for people only); @label and @unit: the text table's header lines
 * (@label NULL: not in the text table; @unit NULL or "": none). */
guint xrlab_cli_table_add_column (XrlabCliTable *table, XrlabCliColumnKind kind,
                                  const char *key, const char *label, const char *unit);
/* A number column of the engine's quantity table: its column name, label
 * and unit. */
guint xrlab_cli_table_add_quantity (XrlabCliTable *table, XrlabQuantity quantity);
/* How the text table shows the numbers of a number column: @format (one
 * double conversion, e.g. "%.10g") of the value times @scale ("—" for NaN). */
void  xrlab_cli_table_set_text_format (XrlabCliTable *table, guint column,
                                       const char *format, double scale);

guint xrlab_cli_table_get_n_columns (const XrlabCliTable *table);
gsize xrlab_cli_table_get_n_rows    (const XrlabCliTable *table);

/* Adds an empty row and returns its index. */
gsize xrlab_cli_table_add_row (XrlabCliTable *table);
/* Removes every row (the columns stay): for writing a long table in parts. */
void  xrlab_cli_table_clear_rows (XrlabCliTable *table);

/* Sets a cell; the column must be of that kind. */
void xrlab_cli_table_set_number  (XrlabCliTable *table, gsize row, guint column, double value);
void xrlab_cli_table_set_integer (XrlabCliTable *table, gsize row, guint column, gint64 value);
void xrlab_cli_table_set_text    (XrlabCliTable *table, gsize row, guint column, const char *text);
/* The same, taking @text (allocated with g_malloc). */
void xrlab_cli_table_take_text   (XrlabCliTable *table, gsize row, guint column, char *text);
/* Sets rows 0 .. @n-1 of number column @column, adding rows as needed. */
void xrlab_cli_table_set_numbers (XrlabCliTable *table, guint column, const double *values, gsize n);

/* A cell's value: NaN, 0 or NULL when it was never set. */
double      xrlab_cli_table_get_number (const XrlabCliTable *table, gsize row, guint column);
const char *xrlab_cli_table_get_text   (const XrlabCliTable *table, gsize row, guint column);

/* The aligned text table: two header lines (the second only when a column
 * has a unit), then the rows; no spaces at the ends of lines. */
void xrlab_cli_table_append_text (const XrlabCliTable *table, GString *out);

/* CSV: the header line, the rows, or both. */
void xrlab_cli_table_append_csv_header (const XrlabCliTable *table, GString *out);
void xrlab_cli_table_append_csv_rows   (const XrlabCliTable *table, GString *out);
void xrlab_cli_table_append_csv        (const XrlabCliTable *table, GString *out);

/* JSON: an array of row objects (one a line), an object of column arrays
 * (one a line) or one column's array, as member @key (see begin_object). */
void xrlab_cli_table_write_json_rows    (const XrlabCliTable *table, XrlabCliJson *json,
                                         const char *key);
void xrlab_cli_table_write_json_columns (const XrlabCliTable *table, XrlabCliJson *json,
                                         const char *key);
void xrlab_cli_table_write_json_column  (const XrlabCliTable *table, XrlabCliJson *json,
                                         const char *key, guint column);

/* The table alone in @format: text, CSV, or a JSON document that is the
 * array of row objects. */
void xrlab_cli_table_append (const XrlabCliTable *table, XrlabCliFormat format, GString *out);

G_END_DECLS
