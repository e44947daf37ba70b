/* xrlab-util.c -- small shared helpers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-util.h"
#include "xrlab-dtoa.h"
#include "xrlab-parallel.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef G_OS_UNIX
#include <sys/mman.h>
#endif

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

G_DEFINE_QUARK (xrlab-io-error-quark, xrlab_io_error)

/* ---- numbers to text and back ------------------------------------------ */

char *
xrlab_format_double (double x, char buf[XRLAB_DTOA_BUFSIZE])
{
  xrlab_dtoa_format (x, buf);
  return buf;
}

gsize
xrlab_format_double_len (double x, char buf[XRLAB_DTOA_BUFSIZE])
{
  return xrlab_dtoa_format (x, buf);
}

/* Reads one number at @p (blanks before it skipped, a '+' allowed) up to
 * @end. Returns the end of the number, or NULL when there is none, it
 * overflowed, or it is nan/inf and @allow_nonfinite is FALSE. */
static inline const char *
scan_double (const char *p, const char *end, gboolean allow_nonfinite, double *out)
{
  XrlabDtoaKind kind;
  const char *q;

  /* Leading blanks as strtod skips them (C locale isspace(), which unlike
   * g_ascii_isspace() includes '\v'); trailing ones are the caller's. */
  while (p < end && (g_ascii_isspace (*p) || *p == '\v'))
    p++;
  if (p < end && *p == '+')
    {
      p++;
      if (p < end && *p == '-')
        return NULL;
    }
  q = xrlab_dtoa_scan (p, end, out, &kind);
  if (q == NULL)
    return NULL;
  if (G_UNLIKELY (!isfinite (*out)))
    {
      /* Digits that overflowed are refused like strtod's ERANGE; "nan" and
       * "inf" only when asked for. */
      if (kind == XRLAB_DTOA_NUMBER && !isnan (*out))
        return NULL;
      if (!allow_nonfinite)
        return NULL;
    }
  return q;
}

gboolean
xrlab_parse_double_n_slow (const char *text, gsize len, gboolean allow_nonfinite,
                           double *out)
{
  const char *end = text + len;
  const char *q;
  double v;

  if (text == NULL)
    return FALSE;
  q = scan_double (text, end, allow_nonfinite, &v);
  if (q == NULL)
    return FALSE;
  while (q < end && g_ascii_isspace (*q))
    q++;
  if (q != end)
    return FALSE;
  *out = v;
  return TRUE;
}

gboolean
xrlab_parse_double (const char *text, gboolean allow_nonfinite, double *out)
{
  if (text == NULL)
    return FALSE;
  return xrlab_parse_double_n (text, strlen (text), allow_nonfinite, out);
}

void
xrlab_string_append_double (GString *out, double x)
{
  gsize len = out->len;

  g_string_set_size (out, len + XRLAB_DTOA_BUFSIZE);
  len += xrlab_dtoa_format (x, out->str + len);
  g_string_truncate (out, len);
}

/* Writes the row @v[0..n) at @o, which has room for n * XRLAB_DTOA_BUFSIZE
 * bytes; returns the end (no NUL). */
static char *
format_row (char *o, const double *v, gsize n)
{
  for (gsize j = 0; j < n; j++)
    {
      o += xrlab_dtoa_format (v[j], o);
      *o++ = j + 1 < n ? ',' : '\n';
    }
  return o;
}

void
xrlab_csv_append_row (GString *out, const double *v, gsize n)
{
  gsize len = out->len;

  if (n == 0)
    {
      g_string_append_c (out, '\n');
      return;
    }
  g_string_set_size (out, len + n * XRLAB_DTOA_BUFSIZE);
  len = format_row (out->str + len, v, n) - out->str;
  g_string_truncate (out, len);
}

/* ---- numeric text files ------------------------------------------------ */

/* A growing array of doubles, appended to inline. */
typedef struct {
  double *v;
  gsize n, cap;
} Values;

static inline void
values_push (Values *vals, double x)
{
  if (G_UNLIKELY (vals->n == vals->cap))
    {
      vals->cap = MAX (1024, vals->cap * 2);
      vals->v = g_renew (double, vals->v, vals->cap);
    }
  vals->v[vals->n++] = x;
}

/* Blank, or a '#' comment (after blanks). */
static gboolean
skip_line_n (const char *p, const char *end)
{
  while (p < end && g_ascii_isspace (*p))
    p++;
  return p == end || *p == '#';
}

/* [*start, *end) without blanks on either side. */
static void
strip_n (const char **start, const char **end)
{
  while (*start < *end && g_ascii_isspace (**start))
    (*start)++;
  while (*end > *start && g_ascii_isspace ((*end)[-1]))
    (*end)--;
}

static const char *
line_end (const char *p, const char *end)
{
  const char *nl = memchr (p, '\n', end - p);

  return nl != NULL ? nl : end;
}

/* FALSE with @error set when there is a NUL byte in [p, end) (a binary
 * file): the message names its line, counted from @line0 + 1 at @p, and,
 * with @csv, its column (the field). */
static gboolean
check_no_nul (const char *p, const char *end, const char *name, gboolean csv, gsize line0,
              GError **error)
{
  const char *nul = memchr (p, '\0', end - p);
  gsize line = line0 + 1, column = 1;

  if (nul == NULL)
    return TRUE;
  for (const char *q = p; q < nul; q++)
    if (*q == '\n')
      line++, column = 1;
    else if (*q == ',')
      column++;
  if (csv)
    g_set_error (error, XRLAB_IO_ERROR, XRLAB_IO_ERROR_PARSE,
                 _("%s:%zu: column %zu: a NUL byte (this is not a text file)"),
                 name, line, column);
  else
    g_set_error (error, XRLAB_IO_ERROR, XRLAB_IO_ERROR_PARSE,
                 _("%s:%zu: a NUL byte (this is not a text file)"), name, line);
  return FALSE;
}

/* The length of a UTF-8 byte order mark at @p (0 or 3). */
static gsize
bom_length (const char *p, const char *end)
{
  return end - p >= 3 && memcmp (p, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
}

/* The text of the @len bytes at @data (NULL when @len is 0) as [*p, *end):
 * after a UTF-8 byte order mark. FALSE with @error set when there is a NUL
 * byte in it (check_no_nul()). */
static gboolean
text_range (const char *data, gsize len, const char *name, gboolean csv, const char **p,
            const char **end, GError **error)
{
  if (data == NULL)
    data = "";
  *p = data + bom_length (data, data + len);
  *end = data + len;
  return check_no_nul (*p, *end, name, csv, 0, error);
}

/* The text of a value that is not a number, for a message. */
static char *
quote_field (const char *s, const char *e)
{
  return xrlab_escape_text (s, e - s, XRLAB_ESCAPE_MAX_CHARS);
}

double *
xrlab_parse_column_data (const char *data, gsize len, const char *name, gsize *n,
                         GError **error)
{
  gsize lineno = 0;
  Values vals = { NULL, 0, 0 };
  const char *p, *end;

  g_return_val_if_fail (data != NULL || len == 0, NULL);
  if (!text_range (data, len, name, FALSE, &p, &end, error))
    return NULL;
  for (; p < end; p++)
    {
      const char *eol = line_end (p, end);
      const char *s = p, *e = eol;
      double v;

      lineno++;
      p = eol;
      if (skip_line_n (s, e))
        continue;
      strip_n (&s, &e);
      if (e > s && e[-1] == ',')
        e--;
      if (!xrlab_parse_double_n (s, e - s, FALSE, &v))
        {
          g_autofree char *text = quote_field (s, e);

          g_set_error (error, XRLAB_IO_ERROR, XRLAB_IO_ERROR_PARSE,
                       _("%s:%zu: “%s” is not a finite number"),
                       name, lineno, text);
          g_free (vals.v);
          return NULL;
        }
      values_push (&vals, v);
    }
  if (vals.n == 0)
    {
      g_set_error (error, XRLAB_IO_ERROR, XRLAB_IO_ERROR_SHAPE,
                   _("%s: no numbers in the file"), name);
      return NULL;
    }
  *n = vals.n;
  return vals.v;
}

double *
xrlab_read_column_file (const char *path, gsize *n, GError **error)
{
  g_autofree char *contents = NULL;
  gsize size = 0;

  if (!g_file_get_contents (path, &contents, &size, error))
    return NULL;
  return xrlab_parse_column_data (contents, size, path, n, error);
}

/* Reads the comma separated numbers of the line [p, eol) into @vals; returns
 * their count, or 0 with @error set (line @lineno of @path). */
static gsize
read_csv_row (const char *p, const char *eol, gboolean allow_nonfinite,
              Values *vals, const char *path, gsize lineno, GError **error)
{
  gsize count = 0;
  const char *field = p;

  for (;;)
    {
      double v;
      const char *q = scan_double (field, eol, allow_nonfinite, &v);
      const char *comma, *s, *e;

      if (G_LIKELY (q != NULL))
        {
          while (q < eol && g_ascii_isspace (*q))
            q++;
          if (q == eol || *q == ',')
            {
              values_push (vals, v);
              count++;
              if (q == eol)
                return count;
              field = q + 1;
              continue;
            }
        }
      comma = memchr (field, ',', eol - field);
      /* A trailing comma at the end of a row is tolerated. */
      if (comma == NULL && count > 0 && skip_line_n (field, eol))
        return count;
      s = field;
      e = comma != NULL ? comma : eol;
      strip_n (&s, &e);
      {
        g_autofree char *text = quote_field (s, e);

        g_set_error (error, XRLAB_IO_ERROR, XRLAB_IO_ERROR_PARSE,
                     _("%s:%zu: column %zu: “%s” is not a %snumber"),
                     path, lineno, count + 1, text,
                     allow_nonfinite ? "" : _("finite "));
      }
      return 0;
    }
}

/* A band of whole lines of a CSV matrix, parsed on its own: its rows, and
 * where it stopped if a line was bad (the message is made once the line's
 * number in the file is known). */
typedef struct {
  const char *start, *end;
  Values vals;
  gsize n_rows, n_lines;        /* n_lines: the lines before the stop, or all */
  gsize cols;                   /* of its first row (0: no row) */
  gsize first_row_line;         /* its line within the band, from 1 */
  const char *bad_line;         /* the start of the line it stopped at */
  const char *bad_end;          /* its end (before "\r\n") */
  gsize bad_count;              /* 0: a field is no number; else its columns */
} CsvBand;

typedef struct {
  CsvBand *bands;
  gboolean allow_nonfinite;
} CsvBands;

static void
parse_csv_band (gpointer data, guint k)
{
  CsvBands *bs = data;
  CsvBand *b = &bs->bands[k];
  const char *p = b->start, *end = b->end;

  for (; p < end; p++)
    {
      const char *eol = line_end (p, end);
      const char *e = eol;
      gsize count;

      if (eol < end && e > p && e[-1] == '\r')
        e--;
      if (skip_line_n (p, e))
        {
          b->n_lines++;
          p = eol;
          continue;
        }
      count = read_csv_row (p, e, bs->allow_nonfinite, &b->vals, NULL, 0, NULL);
      if (count == 0 || (b->cols != 0 && count != b->cols))
        {
          b->bad_line = p;
          b->bad_end = e;
          b->bad_count = count;
          return;
        }
      b->n_lines++;
      if (b->cols == 0)
        {
          gsize expect = count * ((gsize) (end - b->start) / MAX (1, eol - p + 1) + 1);

          b->cols = count;
          b->first_row_line = b->n_lines;
          /* The first row tells how much to expect. */
          if (b->vals.cap < expect)
            {
              b->vals.cap = expect;
              b->vals.v = g_renew (double, b->vals.v, b->vals.cap);
            }
        }
      b->n_rows++;
      p = eol;
    }
}

/* The error of the first bad line, @line of the file, which has @count
 * columns (0: a field that is no number) where the rows have @cols. */
static void
csv_line_error (const CsvBand *b, const char *name, gboolean allow_nonfinite,
                gsize line, gsize count, gsize cols, GError **error)
{
  if (count == 0)
    {
      /* parsed again, for the message that names the field */
      Values scratch = { NULL, 0, 0 };

      read_csv_row (b->bad_line, b->bad_end, allow_nonfinite, &scratch, name, line, error);
      g_free (scratch.v);
      return;
    }
  g_set_error (error, XRLAB_IO_ERROR, XRLAB_IO_ERROR_SHAPE,
               g_dngettext (GETTEXT_PACKAGE,
                            "%s:%zu: %zu column, but the first row has %zu",
                            "%s:%zu: %zu columns, but the first row has %zu", count),
               name, line, count, cols);
}

/* A CSV matrix read in blocks of whole lines: what the blocks so far gave. */
typedef struct {
  const char *name;
  gboolean allow_nonfinite;
  gsize lines;                  /* the lines before the next block */
  gsize nrows, ncols;
  Values out;                   /* every value so far */
} CsvMatrix;

/* The whole lines [p, end) of a matrix, from line m->lines + 1 on: cut into
 * bands of whole lines (about a megabyte, at most four a thread), parsed on
 * the pool's threads and appended in order; the first bad line is reported,
 * as one pass would. */
static gboolean
csv_matrix_block (CsvMatrix *m, const char *p, const char *end, GError **error)
{
  const gsize band_min = 1 << 20;
  CsvBands bs = { NULL, m->allow_nonfinite };
  gsize n_bands, lines = m->lines, nrows = m->nrows, ncols = m->ncols, n_values = 0;
  guint n_threads;
  gboolean ok = FALSE;

  n_threads = xrlab_parallel_in_worker () ? 1 : xrlab_parallel_n_threads (xrlab_parallel_default ());
  n_bands = CLAMP ((gsize) (end - p) / band_min, 1, 4 * (gsize) n_threads);
  bs.bands = g_new0 (CsvBand, n_bands);
  for (gsize k = 0; k < n_bands; k++)
    {
      const char *cut = k + 1 < n_bands ? p + (gsize) (end - p) * (k + 1) / n_bands : end;

      bs.bands[k].start = k == 0 ? p : bs.bands[k - 1].end;
      if (cut < bs.bands[k].start)
        cut = bs.bands[k].start;
      bs.bands[k].end = cut < end ? line_end (cut, end) + (line_end (cut, end) < end) : end;
    }
  if (n_bands > 1)
    xrlab_parallel_run (xrlab_parallel_default (), (guint) n_bands, parse_csv_band, &bs);
  else
    parse_csv_band (&bs, 0);

  for (gsize k = 0; k < n_bands; k++)
    {
      const CsvBand *b = &bs.bands[k];

      if (b->cols != 0 && ncols != 0 && b->cols != ncols)
        {
          /* its first row is the file's first bad line */
          csv_line_error (b, m->name, m->allow_nonfinite, lines + b->first_row_line, b->cols,
                          ncols, error);
          goto out;
        }
      if (ncols == 0)
        ncols = b->cols;
      if (b->bad_line != NULL)
        {
          csv_line_error (b, m->name, m->allow_nonfinite, lines + b->n_lines + 1, b->bad_count,
                          ncols, error);
          goto out;
        }
      lines += b->n_lines;
      nrows += b->n_rows;
      n_values += b->vals.n;
    }
  if (m->out.v == NULL && n_bands == 1)
    {
      /* the band's array is the matrix */
      m->out = bs.bands[0].vals;
      bs.bands[0].vals.v = NULL;
    }
  else if (n_values > 0)
    {
      if (m->out.cap - m->out.n < n_values)
        {
          m->out.cap = MAX (m->out.n + n_values, 2 * m->out.cap);
          m->out.v = g_renew (double, m->out.v, m->out.cap);
        }
      for (gsize k = 0; k < n_bands; k++)
        {
          /* (a band of comments or blank lines has none) */
          if (bs.bands[k].vals.n > 0)
            memcpy (m->out.v + m->out.n, bs.bands[k].vals.v, bs.bands[k].vals.n * sizeof (double));
          m->out.n += bs.bands[k].vals.n;
        }
    }
  m->lines = lines;
  m->nrows = nrows;
  m->ncols = ncols;
  ok = TRUE;

out:
  for (gsize k = 0; k < n_bands; k++)
    g_free (bs.bands[k].vals.v);
  g_free (bs.bands);
  return ok;
}

/* The matrix @m holds once every block is in; NULL with @error set (and @m
 * cleared) when it has no numbers. */
static double *
csv_matrix_finish (CsvMatrix *m, gsize *rows, gsize *cols, GError **error)
{
  if (m->nrows == 0)
    {
      g_set_error (error, XRLAB_IO_ERROR, XRLAB_IO_ERROR_SHAPE,
                   _("%s: no numbers in the file"), m->name);
      g_clear_pointer (&m->out.v, g_free);
      return NULL;
    }
  *rows = m->nrows;
  *cols = m->ncols;
  return g_renew (double, m->out.v, m->out.n);
}

double *
xrlab_parse_csv_matrix_data (const char *data, gsize len, const char *name,
                             gboolean allow_nonfinite, gsize *rows, gsize *cols,
                             GError **error)
{
  CsvMatrix m = { name, allow_nonfinite, 0, 0, 0, { NULL, 0, 0 } };
  const char *p, *end;

  g_return_val_if_fail (data != NULL || len == 0, NULL);
  if (!text_range (data, len, name, TRUE, &p, &end, error))
    return NULL;
  if (!csv_matrix_block (&m, p, end, error))
    {
      g_free (m.out.v);
      return NULL;
    }
  return csv_matrix_finish (&m, rows, cols, error);
}

/* Files are read in blocks of about READ_BLOCK bytes of whole lines, each
 * parsed as it comes: the text of a whole file is never held (a 2000 ×
 * 2000 matrix is 73 MB of text). */
#define READ_BLOCK ((gsize) 8 << 20)

static void
read_failed (const char *path, gboolean opening, int errsv, GError **error)
{
  g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errsv),
               opening ? _("Failed to open file “%s”: %s") : _("Failed to read from file “%s”: %s"),
               path, g_strerror (errsv));
}

/* The end of the last whole line of [p, end) (after its '\n'), NULL when
 * there is no '\n'. */
static const char *
last_line_end (const char *p, const char *end)
{
  for (const char *q = end; q > p; q--)
    if (q[-1] == '\n')
      return q;
  return NULL;
}

double *
xrlab_read_csv_matrix (const char *path, gboolean allow_nonfinite,
                       gsize *rows, gsize *cols, GError **error)
{
  CsvMatrix m = { path, allow_nonfinite, 0, 0, 0, { NULL, 0, 0 } };
  g_autofree char *contents = NULL;
  gsize cap = READ_BLOCK, have = 0;
  gboolean eof = FALSE, first = TRUE;
  int fd;

  fd = g_open (path, O_RDONLY | O_CLOEXEC, 0);
  if (fd < 0)
    {
      read_failed (path, TRUE, errno, error);
      return NULL;
    }
  contents = g_malloc (cap);
  while (!eof || have > 0)
    {
      const char *p = contents, *end, *cut;

      while (!eof && have < cap)
        {
          gssize got = read (fd, contents + have, cap - have);

          if (got < 0 && errno == EINTR)
            continue;
          if (got < 0)
            {
              read_failed (path, FALSE, errno, error);
              goto fail;
            }
          eof = (got == 0);
          have += (gsize) got;
        }
      if (first && bom_length (contents, contents + have) > 0)
        {
          have -= 3;
          memmove (contents, contents + 3, have);
        }
      first = FALSE;
      end = contents + have;
      if (!check_no_nul (p, end, path, TRUE, m.lines, error))
        goto fail;
      cut = eof ? end : last_line_end (p, end);
      if (cut == NULL)
        {
          /* a line longer than the buffer: a larger one */
          cap *= 2;
          contents = g_realloc (contents, cap);
          continue;
        }
      if (!csv_matrix_block (&m, p, cut, error))
        goto fail;
      have = (gsize) (end - cut);
      memmove (contents, cut, have);
    }
  close (fd);
  return csv_matrix_finish (&m, rows, cols, error);

fail:
  close (fd);
  g_free (m.out.v);
  return NULL;
}

/* Output is formatted into blocks of this size and written with one fwrite
 * each. */
#define WRITE_BLOCK (1 << 20)

/* Rows [@r0, @r1) of @m as CSV text at @o (room for XRLAB_DTOA_BUFSIZE + 1
 * bytes a number); returns the end. */
static char *
format_rows (char *o, const double *m, gsize cols, gsize r0, gsize r1)
{
  for (gsize i = r0; i < r1; i++)
    {
      const double *row = m + i * cols;

      if (cols == 0)
        *o++ = '\n';
      for (gsize j = 0; j < cols; j++)
        {
          o += xrlab_dtoa_format (row[j], o);
          *o++ = j + 1 < cols ? ',' : '\n';
        }
    }
  return o;
}

/* Bands of rows formatted on the pool, one band a part, written in order. */
typedef struct {
  const double *m;
  gsize rows, cols, band_rows, first_band;
  char **text;
  gsize *len;
} Bands;

static void
format_band (gpointer data, guint part)
{
  Bands *b = data;
  gsize r0 = (b->first_band + part) * b->band_rows, r1 = MIN (r0 + b->band_rows, b->rows);

  b->len[part] = r0 < r1 ? (gsize) (format_rows (b->text[part], b->m, b->cols, r0, r1) - b->text[part]) : 0;
}

/* Large matrices: the numbers are formatted by every thread of the pool
 * (at 60–70 ns a number, a 2000 × 2000 matrix is 0.26 s on one core), a
 * band of about a megabyte of text each, the bands written in order. */
static void
write_rows_parallel (FILE *f, const double *m, gsize rows, gsize cols, guint n_threads)
{
  Bands b = { m, rows, cols, MAX ((gsize) 1, WRITE_BLOCK / ((MAX (cols, 1)) * 20)), 0, NULL, NULL };
  gsize n_bands = (rows + b.band_rows - 1) / b.band_rows;

  b.text = g_new (char *, n_threads);
  b.len = g_new0 (gsize, n_threads);
  for (guint t = 0; t < n_threads; t++)
    b.text[t] = g_malloc (b.band_rows * (MAX (cols, 1) * (XRLAB_DTOA_BUFSIZE + 1) + 1));
  for (b.first_band = 0; b.first_band < n_bands; b.first_band += n_threads)
    {
      guint n = (guint) MIN ((gsize) n_threads, n_bands - b.first_band);

      xrlab_parallel_run (xrlab_parallel_default (), n, format_band, &b);
      for (guint t = 0; t < n; t++)
        if (fwrite (b.text[t], 1, b.len[t], f) != b.len[t])
          goto done;   /* the stream's error flag: the commit reports it */
    }
done:
  for (guint t = 0; t < n_threads; t++)
    g_free (b.text[t]);
  g_free (b.text);
  g_free (b.len);
}

gboolean
xrlab_write_csv_matrix (const char *path, const double *m, gsize rows,
                        gsize cols, GError **error)
{
  XrlabAtomicFile *af = xrlab_atomic_file_open (path, error);
  guint n_threads;
  FILE *f;

  if (af == NULL)
    return FALSE;
  f = xrlab_atomic_file_stream (af);
  n_threads = xrlab_parallel_in_worker () ? 1 : xrlab_parallel_n_threads (xrlab_parallel_default ());
  if (n_threads > 1 && rows > 1 && rows * cols >= 65536)
    write_rows_parallel (f, m, rows, cols, n_threads);
  else if (cols > WRITE_BLOCK / (XRLAB_DTOA_BUFSIZE + 1))
    {
      /* rows wider than a block: written a block at a time */
      g_autofree char *block = g_malloc (WRITE_BLOCK + XRLAB_DTOA_BUFSIZE + 1);
      gsize len = 0;

      for (gsize i = 0; i < rows; i++)
        for (gsize j = 0; j < cols; j++)
          {
            len += xrlab_dtoa_format (m[i * cols + j], block + len);
            block[len++] = j + 1 < cols ? ',' : '\n';
            if ((len >= WRITE_BLOCK || (i + 1 == rows && j + 1 == cols)) && fwrite (block, 1, len, f) != len)
              goto done;   /* the stream's error flag: the commit reports it */
            if (len >= WRITE_BLOCK)
              len = 0;
          }
    }
  else
    {
      g_autofree char *block = g_malloc (WRITE_BLOCK + MAX (cols, 1) * (XRLAB_DTOA_BUFSIZE + 1) + 1);
      gsize len = 0;

      /* whole rows into a block of about a megabyte, written when full */
      for (gsize i = 0; i < rows; i++)
        {
          len = (gsize) (format_rows (block + len, m, cols, i, i + 1) - block);
          if (len >= WRITE_BLOCK || i + 1 == rows)
            {
              if (fwrite (block, 1, len, f) != len)
                break;   /* the stream's error flag: the commit reports it */
              len = 0;
            }
        }
    }
done:
  return xrlab_atomic_file_commit (af, error);
}

double
xrlab_now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

void
xrlab_advise_huge_pages (void *p, gsize bytes)
{
#ifdef MADV_HUGEPAGE
  const guintptr huge = (guintptr) 2 << 20;
  guintptr a = ((guintptr) p + huge - 1) & ~(huge - 1);
  guintptr b = ((guintptr) p + bytes) & ~(huge - 1);

  if (p == NULL || bytes < 2 * huge || b <= a)
    return;
  /* advice: a kernel without huge pages refuses it, and nothing changes */
  (void) madvise ((void *) a, b - a, MADV_HUGEPAGE);
#else
  (void) p;
  (void) bytes;
#endif
}

/* ---- CSV and JSON text ---------------------------------------------------- */

/* Bidirectional formatting characters (U+202A..U+202E, U+2066..U+2069):
 * they reorder what a terminal shows. */
static gboolean
is_bidi_control (gunichar u)
{
  return (u >= 0x202A && u <= 0x202E) || (u >= 0x2066 && u <= 0x2069);
}

char *
xrlab_escape_text (const char *text, gssize len, gsize max_chars)
{
  const char *p = text, *end;
  GString *out;
  gsize chars = 0;

  if (text == NULL)
    return g_strdup ("");
  end = text + (len < 0 ? strlen (text) : (gsize) len);
  out = g_string_sized_new (MIN ((gsize) (end - p), 256) + 8);
  for (; p < end; chars++)
    {
      unsigned char c = (unsigned char) *p;
      gunichar u;

      if (max_chars > 0 && chars == max_chars)
        {
          g_string_append (out, "…");
          break;
        }
      if (c < 0x80)
        {
          const char *q = p;

          if (c < 0x20 || c == 0x7F)
            {
              g_string_append_printf (out, "\\x%02X", c);
              p++;
              continue;
            }
          /* a run of printable ASCII at once */
          while (q < end && (guchar) *q >= 0x20 && (guchar) *q < 0x7F
                 && (max_chars == 0 || chars < max_chars))
            q++, chars++;
          g_string_append_len (out, p, q - p);
          p = q;
          chars--;
          continue;
        }
      u = g_utf8_get_char_validated (p, end - p);
      if (u == (gunichar) -1 || u == (gunichar) -2)
        {
          /* not UTF-8: the byte */
          g_string_append_printf (out, "\\x%02X", c);
          p++;
          continue;
        }
      if (u < 0xA0)
        /* C1 controls (ESC's 8-bit twins): their bytes */
        for (const char *q = p; q < g_utf8_next_char (p); q++)
          g_string_append_printf (out, "\\x%02X", (unsigned char) *q);
      else if (is_bidi_control (u))
        g_string_append_printf (out, "\\u%04X", u);
      else
        g_string_append_len (out, p, g_utf8_next_char (p) - p);
      p = g_utf8_next_char (p);
    }
  return g_string_free (out, FALSE);
}

void
xrlab_csv_append_field (GString *out, const char *text)
{
  if (strpbrk (text, ",\"\r\n") == NULL)
    {
      g_string_append (out, text);
      return;
    }
  g_string_append_c (out, '"');
  for (const char *p = text; *p; p++)
    {
      if (*p == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

void
xrlab_json_append_string (GString *out, const char *text)
{
  g_string_append_c (out, '"');
  for (const unsigned char *p = (const unsigned char *) text; *p != '\0'; p++)
    {
      switch (*p)
        {
        case '"': g_string_append (out, "\\\""); break;
        case '\\': g_string_append (out, "\\\\"); break;
        case '\n': g_string_append (out, "\\n"); break;
        case '\r': g_string_append (out, "\\r"); break;
        case '\t': g_string_append (out, "\\t"); break;
        default:
          if (*p < 0x20)
            g_string_append_printf (out, "\\u%04x", *p);
          else
            g_string_append_c (out, (char) *p);
        }
    }
  g_string_append_c (out, '"');
}

void
xrlab_json_append_number (GString *out, double x)
{
  if (!isfinite (x))
    g_string_append (out, "null");
  else
    xrlab_string_append_double (out, x);
}
