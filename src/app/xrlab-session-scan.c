/* xrlab-session-scan.c -- the lexical check of a session's text, before
 * json-glib sees it
 *
 * json-glib 1.6 parses recursively (two megabytes of "[" overflow the
 * stack), accepts more than JSON (comments, single-quoted strings,
 * hexadecimal numbers, a second document after the first), decodes a lone
 * UTF-16 surrogate ("\ud800") into bytes that are not UTF-8, ends a string
 * at "\u0000" without a word, and wraps integers beyond 64 bits (1e20
 * written out in digits reads as -1). This scanner reads the whole text
 * first, with an explicit stack: it refuses what is not JSON and nesting
 * deeper than XRLAB_SESSION_MAX_DEPTH with the line and column, and repairs
 * the rest in a copy of the same length (so json-glib's positions stay
 * true): a lone surrogate or a NUL escape becomes \uFFFD (with a warning),
 * an integer of 19 or more digits a number with an exponent (json-glib
 * reads those as doubles).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-session-private.h"
#include "xrlab-util.h"

#include <string.h>

#include <glib/gi18n-lib.h>

/* Warnings about repaired strings beyond this many are counted, not listed. */
#define MAX_LISTED_REPAIRS 10
/* Echoed tokens are cut to this many bytes. */
#define MAX_ECHO 40

typedef struct {
  const char *data;
  gsize length;
  char *copy;                  /* the repaired text; NULL while nothing was repaired */
  GPtrArray *warnings;         /* may be NULL */
  GError **error;
  guint n_repairs;
  guint line;                  /* of the byte being read, 1-based */
  gsize line_start;            /* offset of that line's first byte */
} Scan;

typedef struct {
  char bracket;
  guint line;
  gsize line_start;
  gsize offset;
} Opener;

char *
xrlab_session_position (guint line, guint column)
{
  /* TRANSLATORS: a position in a file: "line 3, column 12" */
  return g_strdup_printf (_("line %u, column %u"), line, column);
}

/* "line L, column C" of @offset on the line @line that starts at @line_start;
 * columns count characters, from 1. */
static char *
where (const Scan *s, guint line, gsize line_start, gsize offset)
{
  guint column = (guint) g_utf8_strlen (s->data + line_start, (gssize) (offset - line_start)) + 1;
  return xrlab_session_position (line, column);
}

static gboolean G_GNUC_PRINTF (3, 4)
fail_here (Scan *s, gsize offset, const char *format, ...)
{
  g_autofree char *msg = NULL, *safe = NULL;
  g_autofree char *pos = where (s, s->line, s->line_start, offset);
  va_list args;

  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);
  safe = xrlab_escape_text (msg, -1, 0);   /* it quotes the file */
  /* TRANSLATORS: "line 3, column 12: <what is wrong>" */
  g_set_error (s->error, XRLAB_SESSION_ERROR, XRLAB_SESSION_ERROR_PARSE,
               _("The file is not valid JSON: %s: %s"), pos, safe);
  return FALSE;
}

/* The token at @offset as text for a message: up to the next blank or
 * bracket, at most MAX_ECHO bytes (whole characters). */
static char *
echo_token (const Scan *s, gsize offset)
{
  gsize end = offset;

  while (end < s->length && end - offset < MAX_ECHO &&
         strchr (" \t\r\n,:[]{}\"", s->data[end]) == NULL)
    end++;
  if (end == offset)
    end = offset + 1;
  /* back off to a character boundary */
  while (end < s->length && end > offset + 1 && (s->data[end] & 0xc0) == 0x80)
    end--;
  return g_strndup (s->data + offset, end - offset);
}

static char *
writable (Scan *s)
{
  if (s->copy == NULL)
    {
      s->copy = g_malloc (s->length + 1);
      memcpy (s->copy, s->data, s->length);
      s->copy[s->length] = '\0';
    }
  return s->copy;
}

static void
repair_escape (Scan *s, gsize offset, guint value)
{
  char *copy = writable (s);

  /* \uXXXX -> \uFFFD: six bytes either way */
  memcpy (copy + offset + 2, "FFFD", 4);
  s->n_repairs++;
  if (s->warnings != NULL && s->n_repairs <= MAX_LISTED_REPAIRS)
    {
      g_autofree char *pos = where (s, s->line, s->line_start, offset);
      if (value == 0)
        g_ptr_array_add (s->warnings,
                         /* TRANSLATORS: "line 3, column 12: ..." */
                         g_strdup_printf (_("%s: “\\u0000” (a NUL character) was read as U+FFFD (�)"), pos));
      else
        g_ptr_array_add (s->warnings,
                         /* TRANSLATORS: "line 3, column 12: “\ud800” ..." */
                         g_strdup_printf (_("%s: “\\u%04x” is half of a UTF-16 surrogate pair; it was read as U+FFFD (�)"),
                                          pos, value));
    }
}

static gboolean
read_hex4 (const Scan *s, gsize offset, guint *value)
{
  guint v = 0;

  if (offset + 4 > s->length)
    return FALSE;
  for (gsize i = offset; i < offset + 4; i++)
    {
      int d = g_ascii_xdigit_value (s->data[i]);
      if (d < 0)
        return FALSE;
      v = (v << 4) | (guint) d;
    }
  *value = v;
  return TRUE;
}

/* The string that starts at the quote at *pos; *pos ends after its closing
 * quote. */
static gboolean
scan_string (Scan *s, gsize *pos)
{
  gsize start = *pos, p = *pos + 1;
  guint start_line = s->line;
  gsize start_line_start = s->line_start;

  while (p < s->length && s->data[p] != '"')
    {
      char c = s->data[p];
      guint v, w;

      if (c == '\n')
        {
          s->line++;
          s->line_start = p + 1;
          p++;
          continue;
        }
      if (c != '\\')
        {
          p++;
          continue;
        }
      if (p + 1 >= s->length)
        {
          p = s->length;
          break;
        }
      switch (s->data[p + 1])
        {
        case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
          p += 2;
          break;
        case 'u':
          if (!read_hex4 (s, p + 2, &v))
            return fail_here (s, p, _("“\\u” must be followed by four hexadecimal digits"));
          if (v >= 0xd800 && v <= 0xdbff && p + 12 <= s->length && s->data[p + 6] == '\\' &&
              s->data[p + 7] == 'u' && read_hex4 (s, p + 8, &w) && w >= 0xdc00 && w <= 0xdfff)
            {
              p += 12;   /* a surrogate pair: one character beyond U+FFFF */
              break;
            }
          if (v == 0 || (v >= 0xd800 && v <= 0xdfff))
            repair_escape (s, p, v);
          p += 6;
          break;
        default:
          {
            const char *next = g_utf8_next_char (s->data + p + 1);
            g_autofree char *esc = g_strndup (s->data + p, (gsize) (next - (s->data + p)));
            return fail_here (s, p, _("“%s” is not an escape of JSON (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)"),
                              esc);
          }
        }
    }
  if (p >= s->length)
    {
      g_autofree char *opened = where (s, start_line, start_line_start, start);
      return fail_here (s, s->length, _("the text ends inside the string that starts at %s"), opened);
    }
  *pos = p + 1;
  return TRUE;
}

/* A number as JSON writes it: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static gboolean
scan_number (Scan *s, gsize *pos)
{
  const char *d = s->data;
  gsize p = *pos, int_start, int_end;
  gboolean ok = TRUE, is_integer = TRUE;

  if (d[p] == '-')
    p++;
  int_start = p;
  if (p < s->length && d[p] == '0')
    p++;
  else if (p < s->length && g_ascii_isdigit (d[p]))
    while (p < s->length && g_ascii_isdigit (d[p]))
      p++;
  else
    ok = FALSE;
  int_end = p;
  if (ok && p < s->length && d[p] == '.')
    {
      is_integer = FALSE;
      p++;
      ok = p < s->length && g_ascii_isdigit (d[p]);
      while (p < s->length && g_ascii_isdigit (d[p]))
        p++;
    }
  if (ok && p < s->length && (d[p] == 'e' || d[p] == 'E'))
    {
      is_integer = FALSE;
      p++;
      if (p < s->length && (d[p] == '+' || d[p] == '-'))
        p++;
      ok = p < s->length && g_ascii_isdigit (d[p]);
      while (p < s->length && g_ascii_isdigit (d[p]))
        p++;
    }
  /* "0x10", "01", "1.2.3", "1e5e5": not one number */
  if (ok && p < s->length && (g_ascii_isalnum (d[p]) || d[p] == '.' || d[p] == '_' ||
                              d[p] == '+' || d[p] == '-'))
    ok = FALSE;
  if (!ok)
    {
      g_autofree char *token = echo_token (s, *pos);
      return fail_here (s, *pos, _("“%s” is not a number as JSON writes it"), token);
    }
  if (is_integer && int_end - int_start >= 19)
    {
      /* Beyond 64 bits json-glib wraps integers; with an exponent it reads a
       * double. The last two digits become "e2": 17 or more significant
       * digits stay, as many as a double holds. */
      char *copy = writable (s);
      copy[int_end - 2] = 'e';
      copy[int_end - 1] = '2';
    }
  *pos = p;
  return TRUE;
}

static gboolean
scan_word (Scan *s, gsize *pos)
{
  static const char *const words[] = { "true", "false", "null" };
  gsize p = *pos;

  while (p < s->length && (g_ascii_isalnum (s->data[p]) || s->data[p] == '_'))
    p++;
  for (guint i = 0; i < G_N_ELEMENTS (words); i++)
    if (p - *pos == strlen (words[i]) && memcmp (s->data + *pos, words[i], p - *pos) == 0)
      {
        *pos = p;
        return TRUE;
      }
  {
    g_autofree char *token = echo_token (s, *pos);
    return fail_here (s, *pos, _("“%s” is not a value of JSON (a string, a number, an object, an array, true, false or null)"),
                      token);
  }
}

static gboolean
check_not_done (Scan *s, gsize p, gboolean done)
{
  if (!done)
    return TRUE;
  return fail_here (s, p, _("there is more text after the end of the document"));
}

/* The main loop: blanks, brackets (on the stack), separators and the
 * values between them. */
static gboolean
scan_document (Scan *s)
{
  Opener stack[XRLAB_SESSION_MAX_DEPTH];
  guint depth = 0;
  gboolean done = FALSE;
  gsize p = 0;

  /* A byte order mark is not text. */
  if (s->length >= 3 && memcmp (s->data, "\xef\xbb\xbf", 3) == 0)
    p = 3;
  while (p < s->length)
    {
      char c = s->data[p];

      switch (c)
        {
        case ' ': case '\t': case '\r':
          p++;
          break;
        case '\n':
          s->line++;
          s->line_start = ++p;
          break;
        case '[': case '{':
          if (!check_not_done (s, p, done))
            return FALSE;
          if (depth == XRLAB_SESSION_MAX_DEPTH)
            return fail_here (s, p, _("nested deeper than %d levels (a session has 3)"),
                              XRLAB_SESSION_MAX_DEPTH);
          stack[depth++] = (Opener) { c, s->line, s->line_start, p };
          p++;
          break;
        case ']': case '}':
          {
            char open = c == ']' ? '[' : '{';
            if (depth == 0)
              return fail_here (s, p, _("“%c” closes nothing"), c);
            if (stack[depth - 1].bracket != open)
              {
                const Opener *o = &stack[depth - 1];
                g_autofree char *pos = where (s, o->line, o->line_start, o->offset);
                return fail_here (s, p, _("“%c” cannot close the “%c” at %s"), c, o->bracket, pos);
              }
            depth--;
            done = depth == 0;
            p++;
          }
          break;
        case ',': case ':':
          if (depth == 0)
            return fail_here (s, p, _("“%c” outside an object or array"), c);
          p++;
          break;
        case '"':
          if (!check_not_done (s, p, done) || !scan_string (s, &p))
            return FALSE;
          done = depth == 0;
          break;
        default:
          if (!check_not_done (s, p, done))
            return FALSE;
          if (c == '-' || g_ascii_isdigit (c))
            {
              if (!scan_number (s, &p))
                return FALSE;
            }
          else if (g_ascii_isalpha (c))
            {
              if (!scan_word (s, &p))
                return FALSE;
            }
          else
            {
              g_autofree char *token = NULL;
              if ((guchar) c < 0x20 || c == 0x7f)
                token = g_strdup_printf ("U+%04X", (guint) (guchar) c);
              else
                {
                  const char *next = g_utf8_next_char (s->data + p);
                  token = g_strndup (s->data + p, (gsize) (next - (s->data + p)));
                }
              return fail_here (s, p, _("unexpected “%s” (comments, single quotes and the like are not JSON)"),
                                token);
            }
          done = depth == 0;
        }
    }
  if (depth > 0)
    {
      const Opener *o = &stack[depth - 1];
      g_autofree char *pos = where (s, o->line, o->line_start, o->offset);
      return fail_here (s, s->length, _("the text ends inside the “%c” at %s"), o->bracket, pos);
    }
  if (!done)
    {
      g_set_error_literal (s->error, XRLAB_SESSION_ERROR, XRLAB_SESSION_ERROR_PARSE,
                           _("The file is empty."));
      return FALSE;
    }
  return TRUE;
}

gboolean
xrlab_session_scan (const char  *data,
                    gsize        length,
                    char       **repaired,
                    GPtrArray   *warnings,
                    GError     **error)
{
  Scan s = { data, length, NULL, warnings, error, 0, 1, 0 };
  const char *end = NULL;

  *repaired = NULL;
  /* With a length, g_utf8_validate() also stops at a NUL byte. */
  if (!g_utf8_validate (data, (gssize) length, &end))
    {
      gsize at = (gsize) (end - data);
      g_autofree char *pos = NULL;

      /* the position of the first bad byte: count the lines before it */
      for (gsize i = 0; i < at; i++)
        if (data[i] == '\n')
          {
            s.line++;
            s.line_start = i + 1;
          }
      pos = where (&s, s.line, s.line_start, at);
      if (data[at] == '\0')
        g_set_error (error, XRLAB_SESSION_ERROR, XRLAB_SESSION_ERROR_PARSE,
                     _("The file is not text: it has a NUL byte at %s."), pos);
      else
        g_set_error (error, XRLAB_SESSION_ERROR, XRLAB_SESSION_ERROR_PARSE,
                     _("The file is not UTF-8 text (%s)."), pos);
      return FALSE;
    }
  if (!scan_document (&s))
    {
      g_free (s.copy);
      return FALSE;
    }
  if (warnings != NULL && s.n_repairs > MAX_LISTED_REPAIRS)
    g_ptr_array_add (warnings,
                     g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                   "%u more escape was read as U+FFFD (�)",
                                                   "%u more escapes were read as U+FFFD (�)",
                                                   s.n_repairs - MAX_LISTED_REPAIRS),
                                      s.n_repairs - MAX_LISTED_REPAIRS));
  *repaired = s.copy;
  return TRUE;
}
