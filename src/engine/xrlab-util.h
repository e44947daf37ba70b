/* xrlab-util.h -- small shared helpers: number formatting, atomic files,
 * numeric text files (axis columns and CSV matrices)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stdio.h>
#include <glib.h>

#include "xrlab-dtoa.h"

G_BEGIN_DECLS

#define XRLAB_IO_ERROR (xrlab_io_error_quark ())
GQuark xrlab_io_error_quark (void);

typedef enum {
  XRLAB_IO_ERROR_FAILED,      /* open/write/rename failed: message has strerror */
  XRLAB_IO_ERROR_PARSE,       /* a value that is not a number: message has line:column */
  XRLAB_IO_ERROR_SHAPE,       /* ragged rows, empty file */
} XrlabIOError;

/* Large enough for any double written by xrlab_format_double(). */
#define XRLAB_DTOA_BUFSIZE 32

/* Writes @x into @buf with the fewest significant digits that read back to
 * the same double (shortest round trip, Dragonbox), laid out as "%.Pg" with
 * P = max (15, digits): "0.1", "2.98814e-05", "4.768128222487068e-05",
 * "1e+15". NaN is written "nan", infinities "inf" / "-inf", negative zero
 * "-0". Locale independent. Returns @buf. */
char *xrlab_format_double (double x, char buf[XRLAB_DTOA_BUFSIZE]);

/* The same, returning the length of the text (no strlen() needed). */
gsize xrlab_format_double_len (double x, char buf[XRLAB_DTOA_BUFSIZE]);

/* Parses a whole string as one double (surrounding blanks allowed, a leading
 * '+' too), correctly rounded and locale independent (fast_float). Rejects
 * empty strings, trailing junk, hexadecimal ("0x10") and overflow; underflow
 * gives 0 or the subnormal. Accepts "nan" and "inf"/"infinity" (any case)
 * only when @allow_nonfinite. */
gboolean xrlab_parse_double (const char *text, gboolean allow_nonfinite, double *out);

/* What xrlab_parse_double_n() leaves to a call: blanks, '+', nan and inf,
 * overflow, junk, and numbers of more than 19 digits. */
gboolean xrlab_parse_double_n_slow (const char *text, gsize len,
                                    gboolean allow_nonfinite, double *out);

/* The same for the @len bytes at @text (no NUL needed; a NUL inside is junk).
 * Inline: a plain finite number (the numbers of a data file) costs one call. */
static inline gboolean
xrlab_parse_double_n (const char *text, gsize len, gboolean allow_nonfinite, double *out)
{
  if (G_LIKELY (text != NULL && xrlab_dtoa_parse_whole (text, text + len, out)))
    return TRUE;
  return xrlab_parse_double_n_slow (text, len, allow_nonfinite, out);
}

/* Appends @x to @out as xrlab_format_double() writes it. */
void xrlab_string_append_double (GString *out, double x);

/* Appends @n numbers as one CSV row: comma separated, '\n' at the end. */
void xrlab_csv_append_row (GString *out, const double *v, gsize n);

/* Atomic file writing (xrlab-util-atomic.c): everything goes to a temporary
 * file beside the target (same folder, so rename is atomic); commit
 * flushes, fsyncs and renames it over the target; abort (or a failed
 * commit) removes it, so a failed write never leaves a partial file and
 * never touches an existing one.
 *
 * The target is @path with symbolic links followed: writing through a link
 * replaces the file it points to and keeps the link. Only a regular file is
 * replaced: a folder, a device, a named pipe or a socket is refused
 * (XRLAB_IO_ERROR_FAILED, naming @path and what it is). A replaced file
 * keeps its permission bits. Errors name @path and the errno of the write
 * that failed (ENOSPC on a full disk). The temporary file is named
 * ".NAME.xrlab-PID-XXXXXX"; opening a target removes the ones of that
 * target left by writers that died (their process gone and their lock
 * free). */
typedef struct _XrlabAtomicFile XrlabAtomicFile;

XrlabAtomicFile *xrlab_atomic_file_open   (const char *path, GError **error);
FILE            *xrlab_atomic_file_stream (XrlabAtomicFile *af);
gboolean         xrlab_atomic_file_commit (XrlabAtomicFile *af, GError **error);
void             xrlab_atomic_file_abort  (XrlabAtomicFile *af);
/* The temporary file's path, for a signal handler that must remove it
 * before the process ends. */
const char      *xrlab_atomic_file_get_temp_path (XrlabAtomicFile *af);

/* The same in two steps, for writers that need a file name rather than a
 * stream (HDF5): xrlab_atomic_temp_open() creates an empty temporary file
 * for @path, sets *@tmp_path (g_free) and returns its descriptor, or -1
 * with @error set; xrlab_atomic_temp_rename() renames it over @path's
 * target (checked again), or sets @error (the caller removes the file). */
int      xrlab_atomic_temp_open   (const char *path, char **tmp_path, GError **error);
gboolean xrlab_atomic_temp_rename (const char *tmp_path, const char *path, GError **error);

/* Deferred syncs, for a set of files that is itself replaced as a whole
 * (a fit's result folder): between xrlab_atomic_defer_sync_begin() and
 * xrlab_atomic_defer_sync_end() on one thread, a commit only starts the
 * file's write-back (sync_file_range) before its rename and notes it; the
 * end waits for every noted file (fsync), so the disk writes one file
 * while the next is formatted and the file system commits its journal
 * once for all of them. FALSE (with the first error, naming the file)
 * when one could not be synced. Not nested. */
void     xrlab_atomic_defer_sync_begin (void);
gboolean xrlab_atomic_defer_sync_end   (GError **error);

/* Writes @len bytes of @contents to @path atomically (see above). */
gboolean xrlab_write_file_atomic (const char *path, const char *contents,
                                  gssize len, GError **error);

/* Reads a file of numbers, one per line (blank lines and lines starting with
 * '#' are skipped; a single value per line, a trailing comma tolerated).
 * Non-finite values are an error naming the line. Returns a newly allocated
 * array (g_free) and its length in @n. An empty file is an error.
 * Both readers skip a UTF-8 byte order mark at the start, refuse a NUL byte
 * anywhere (an error naming its line, and for a matrix its column), and
 * quote what is not a number escaped (xrlab_escape_text()). */
double *xrlab_read_column_file (const char *path, gsize *n, GError **error);

/* The same on the @len bytes at @data (no NUL needed at the end): messages
 * name @name where the file readers name the path. */
double *xrlab_parse_column_data (const char *data, gsize len, const char *name,
                                 gsize *n, GError **error);

/* Reads a comma separated matrix of numbers without a header (blank lines and
 * '#' comments skipped). Every row must have the same number of columns.
 * Returns a row-major array (g_free) of @rows x @cols. When @allow_nonfinite
 * is FALSE, "nan"/"inf" are parse errors naming line and column. */
double *xrlab_read_csv_matrix (const char *path, gboolean allow_nonfinite,
                               gsize *rows, gsize *cols, GError **error);
double *xrlab_parse_csv_matrix_data (const char *data, gsize len, const char *name,
                                     gboolean allow_nonfinite, gsize *rows, gsize *cols,
                                     GError **error);

/* Writes a row-major matrix as comma separated text, round-trip precision. */
gboolean xrlab_write_csv_matrix (const char *path, const double *m,
                                 gsize rows, gsize cols, GError **error);

/* Content of a file (or any untrusted text) made safe for a message on a
 * terminal: control characters (C0, DEL, C1), bidirectional formatting
 * characters and bytes that are not UTF-8 are written as \xNN (\uNNNN for
 * the bidirectional ones); after @max_chars characters (0: no limit) the
 * rest is cut and "…" appended. @len -1: up to the NUL. Always valid UTF-8
 * (g_free). */
char *xrlab_escape_text (const char *text, gssize len, gsize max_chars);

/* What messages quote of a value: the first 60 characters. */
#define XRLAB_ESCAPE_MAX_CHARS 60

/* Appends @text to @out as one CSV field, quoted when it holds a comma, a
 * quote or a line break (RFC 4180: quotes doubled). */
void xrlab_csv_append_field (GString *out, const char *text);

/* Appends @text to @out as a JSON string, quotes included: '"', '\\' and
 * control characters escaped (\n, \r, \t, \u00XX), everything else as is. */
void xrlab_json_append_string (GString *out, const char *text);

/* Appends @x to @out as a JSON number in round-trip precision
 * (xrlab_format_double()); null when it is not finite. */
void xrlab_json_append_number (GString *out, double x);

/* Monotonic time in seconds (nanosecond resolution). */
double xrlab_now (void);

/* Asks the kernel for transparent huge pages under the whole 2 MiB pages
 * of @bytes at @p, memory not yet written (a large array just allocated):
 * a new 4 KiB page costs a fault and a clear of its own, a huge page one of
 * each for 512 of them (a 288 MB Jacobian: 70,000 faults, or 144). Nothing
 * for less than 4 MiB, and nothing where the system has no such pages. */
void xrlab_advise_huge_pages (void *p, gsize bytes);

G_END_DECLS
