/* xrlab-util.c -- small shared helpers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-util.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

G_DEFINE_QUARK (xrlab-io-error-quark, xrlab_io_error)

char *
xrlab_format_double (double x, char buf[XRLAB_DTOA_BUFSIZE])
{
  if (isnan (x))
    {
      strcpy (buf, "nan");
      return buf;
    }
  if (isinf (x))
    {
      strcpy (buf, x > 0 ? "inf" : "-inf");
      return buf;
    }
  /* Shortest of %.15g .. %.17g that reads back exactly. g_ascii_formatd is
   * locale independent. */
  for (int prec = 15; prec <= 17; prec++)
    {
      char fmt[8];
      g_snprintf (fmt, sizeof fmt, "%%.%dg", prec);
      g_ascii_formatd (buf, XRLAB_DTOA_BUFSIZE, fmt, x);
      if (prec == 17 || g_ascii_strtod (buf, NULL) == x)
        break;
    }
  return buf;
}

gboolean
xrlab_parse_double (const char *text, gboolean allow_nonfinite, double *out)
{
  char *end = NULL;
  double v;

  if (text == NULL)
    return FALSE;
  while (g_ascii_isspace (*text))
    text++;
  if (*text == '\0')
    return FALSE;
  errno = 0;
  v = g_ascii_strtod (text, &end);
  if (end == text)
    return FALSE;
  while (g_ascii_isspace (*end))
    end++;
  if (*end != '\0')
    return FALSE;
  if (errno == ERANGE && fabs (v) > 1.0)
    return FALSE;
  if (!allow_nonfinite && !isfinite (v))
    return FALSE;
  *out = v;
  return TRUE;
}

/* ---- atomic files ------------------------------------------------------ */

struct _XrlabAtomicFile {
  char *path;
  char *tmp_path;
  FILE *stream;
};

static void
set_errno_error (GError **error, int err, const char *what, const char *path)
{
  g_set_error (error, XRLAB_IO_ERROR, XRLAB_IO_ERROR_FAILED,
               "%s %s: %s", what, path, g_strerror (err));
}

XrlabAtomicFile *
xrlab_atomic_file_open (const char *path, GError **error)
{
  XrlabAtomicFile *af;
  g_autofree char *dir = NULL;
  g_autofree char *base = NULL;
  int fd;

  g_return_val_if_fail (path != NULL, NULL);

  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, XRLAB_IO_ERROR, XRLAB_IO_ERROR_FAILED,
                   _("Cannot write %s: it is a folder"), path);
      return NULL;
    }

  dir = g_path_get_dirname (path);
  base = g_path_get_basename (path);
  af = g_new0 (XrlabAtomicFile, 1);
  af->path = g_strdup (path);
  af->tmp_path = g_strdup_printf ("%s%c.%s.XXXXXX", dir, G_DIR_SEPARATOR, base);
  fd = g_mkstemp_full (af->tmp_path, O_WRONLY | O_CLOEXEC, 0666);
  if (fd < 0)
    {
      int err = errno;
      set_errno_error (error, err, _("Cannot write"), path);
      g_free (af->tmp_path);
      g_free (af->path);
      g_free (af);
      return NULL;
    }
  /* g_mkstemp creates 0600: give the final file the usual umask-based mode. */
  {
    mode_t mask = umask (0);
    umask (mask);
    (void) fchmod (fd, 0666 & ~mask);
  }
  af->stream = fdopen (fd, "w");
  if (af->stream == NULL)
    {
      int err = errno;
      close (fd);
      g_unlink (af->tmp_path);
      set_errno_error (error, err, _("Cannot write"), path);
      g_free (af->tmp_path);
      g_free (af->path);
      g_free (af);
      return NULL;
    }
  return af;
}

FILE *
xrlab_atomic_file_stream (XrlabAtomicFile *af)
{
  return af->stream;
}

static void
atomic_file_free (XrlabAtomicFile *af)
{
  g_free (af->tmp_path);
  g_free (af->path);
  g_free (af);
}

void
xrlab_atomic_file_abort (XrlabAtomicFile *af)
{
  if (af == NULL)
    return;
  if (af->stream != NULL)
    fclose (af->stream);
  g_unlink (af->tmp_path);
  atomic_file_free (af);
}

gboolean
xrlab_atomic_file_commit (XrlabAtomicFile *af, GError **error)
{
  int err = 0;

  g_return_val_if_fail (af != NULL, FALSE);

  if (ferror (af->stream))
    err = errno ? errno : EIO;
  if (err == 0 && fflush (af->stream) != 0)
    err = errno;
  if (err == 0 && fsync (fileno (af->stream)) != 0 && errno != EINVAL)
    err = errno;
  if (fclose (af->stream) != 0 && err == 0)
    err = errno;
  af->stream = NULL;
  if (err == 0 && g_rename (af->tmp_path, af->path) != 0)
    err = errno;

  if (err != 0)
    {
      set_errno_error (error, err, _("Cannot write"), af->path);
      g_unlink (af->tmp_path);
      atomic_file_free (af);
      return FALSE;
    }
  atomic_file_free (af);
  return TRUE;
}

gboolean
xrlab_write_file_atomic (const char *path, const char *contents, gssize len,
                         GError **error)
{
  XrlabAtomicFile *af = xrlab_atomic_file_open (path, error);

  if (af == NULL)
    return FALSE;
  if (len < 0)
    len = strlen (contents);
  if (len > 0 && fwrite (contents, 1, len, af->stream) != (size_t) len)
    {
      int err = errno;
      xrlab_atomic_file_abort (af);
      set_errno_error (error, err ? err : EIO, _("Cannot write"), path);
      return FALSE;
    }
  return xrlab_atomic_file_commit (af, error);
}

/* ---- numeric text files ------------------------------------------------ */

static gboolean
skip_line (const char *line)
{
  while (g_ascii_isspace (*line))
    line++;
  return *line == '\0' || *line == '#';
}

double *
xrlab_read_column_file (const char *path, gsize *n, GError **error)
{
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  GArray *values;

  if (!g_file_get_contents (path, &contents, NULL, error))
    return NULL;

  values = g_array_new (FALSE, FALSE, sizeof (double));
  lines = g_strsplit (contents, "\n", -1);
  for (gsize i = 0; lines[i] != NULL; i++)
    {
      char *line = lines[i];
      gsize len;
      double v;

      if (skip_line (line))
        continue;
      g_strstrip (line);
      len = strlen (line);
      if (len > 0 && line[len - 1] == ',')
        line[len - 1] = '\0';
      if (!xrlab_parse_double (line, FALSE, &v))
        {
          g_set_error (error, XRLAB_IO_ERROR, XRLAB_IO_ERROR_PARSE,
                       _("%s:%zu: “%s” is not a finite number"),
                       path, i + 1, line);
          g_array_free (values, TRUE);
          return NULL;
        }
      g_array_append_val (values, v);
    }
  if (values->len == 0)
    {
      g_set_error (error, XRLAB_IO_ERROR, XRLAB_IO_ERROR_SHAPE,
                   _("%s: no numbers in the file"), path);
      g_array_free (values, TRUE);
      return NULL;
    }
  *n = values->len;
  return (double *) g_array_free (values, FALSE);
}

double *
xrlab_read_csv_matrix (const char *path, gboolean allow_nonfinite,
                       gsize *rows, gsize *cols, GError **error)
{
  g_autofree char *contents = NULL;
  GArray *values;
  gsize ncols = 0, nrows = 0, lineno = 0;
  char *p, *line_end;

  if (!g_file_get_contents (path, &contents, NULL, error))
    return NULL;

  values = g_array_new (FALSE, FALSE, sizeof (double));
  for (p = contents; p != NULL && *p != '\0'; p = line_end ? line_end + 1 : NULL)
    {
      gsize count = 0;
      char *field;
      char *q;

      lineno++;
      line_end = strchr (p, '\n');
      if (line_end != NULL)
        *line_end = '\0';
      if (line_end != NULL && line_end > p && line_end[-1] == '\r')
        line_end[-1] = '\0';
      if (skip_line (p))
        continue;

      field = p;
      for (;;)
        {
          double v;
          char *comma = strchr (field, ',');

          if (comma != NULL)
            *comma = '\0';
          /* A trailing comma at the end of a row is tolerated. */
          if (comma == NULL && count > 0 && skip_line (field))
            break;
          if (!xrlab_parse_double (field, allow_nonfinite, &v))
            {
              q = g_strstrip (field);
              g_set_error (error, XRLAB_IO_ERROR, XRLAB_IO_ERROR_PARSE,
                           _("%s:%zu: column %zu: “%s” is not a %snumber"),
                           path, lineno, count + 1, q,
                           allow_nonfinite ? "" : _("finite "));
              g_array_free (values, TRUE);
              return NULL;
            }
          g_array_append_val (values, v);
          count++;
          if (comma == NULL)
            break;
          field = comma + 1;
        }
      if (ncols == 0)
        ncols = count;
      else if (count != ncols)
        {
          g_set_error (error, XRLAB_IO_ERROR, XRLAB_IO_ERROR_SHAPE,
                       g_dngettext (GETTEXT_PACKAGE,
                                    "%s:%zu: %zu column, but the first row has %zu",
                                    "%s:%zu: %zu columns, but the first row has %zu", count),
                       path, lineno, count, ncols);
          g_array_free (values, TRUE);
          return NULL;
        }
      nrows++;
    }
  if (nrows == 0)
    {
      g_set_error (error, XRLAB_IO_ERROR, XRLAB_IO_ERROR_SHAPE,
                   _("%s: no numbers in the file"), path);
      g_array_free (values, TRUE);
      return NULL;
    }
  *rows = nrows;
  *cols = ncols;
  return (double *) g_array_free (values, FALSE);
}

gboolean
xrlab_write_csv_matrix (const char *path, const double *m, gsize rows,
                        gsize cols, GError **error)
{
  XrlabAtomicFile *af = xrlab_atomic_file_open (path, error);
  FILE *f;
  char buf[XRLAB_DTOA_BUFSIZE];

  if (af == NULL)
    return FALSE;
  f = xrlab_atomic_file_stream (af);
  for (gsize i = 0; i < rows; i++)
    {
      for (gsize j = 0; j < cols; j++)
        {
          if (j > 0)
            fputc (',', f);
          fputs (xrlab_format_double (m[i * cols + j], buf), f);
        }
      fputc ('\n', f);
    }
  return xrlab_atomic_file_commit (af, error);
}

double
xrlab_now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

/* ---- CSV and JSON text ---------------------------------------------------- */

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
  char buf[XRLAB_DTOA_BUFSIZE];

  if (!isfinite (x))
    g_string_append (out, "null");
  else
    g_string_append (out, xrlab_format_double (x, buf));
}
