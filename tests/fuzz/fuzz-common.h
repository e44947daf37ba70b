/* fuzz-common.h -- what every libFuzzer target of tests/fuzz/ shares
 *
 * Each target is one parser: LLVMFuzzerTestOneInput() feeds it the input
 * and checks the parser's invariants with FUZZ_CHECK (an abort is a
 * finding). GLib's own error handlers stay as they are; GSL's aborting
 * handler is switched off by xrlab_init(), as in the programs.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "xrlab-init.h"

#define FUZZ_CHECK(cond, ...)                                                   \
  do {                                                                          \
    if (!(cond))                                                                \
      {                                                                         \
        fprintf (stderr, "fuzz invariant failed at %s:%d: %s\n", __FILE__,      \
                 __LINE__, #cond);                                              \
        fprintf (stderr, __VA_ARGS__);                                          \
        fputc ('\n', stderr);                                                   \
        abort ();                                                               \
      }                                                                         \
  } while (0)

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);
int LLVMFuzzerInitialize (int *argc, char ***argv);

/* The input as a NUL-terminated string (inputs with a NUL byte stop there). */
static inline char *
fuzz_string (const uint8_t *data, size_t size)
{
  char *s = g_malloc (size + 1);
  memcpy (s, data, size);
  s[size] = '\0';
  return s;
}

static inline void
fuzz_init_once (void)
{
  static gboolean done;
  if (!done)
    {
      /* messages of the parsers stay English and quiet */
      g_setenv ("LANGUAGE", "", TRUE);
      g_log_set_writer_func (g_log_writer_default, NULL, NULL);
      xrlab_init ();
      done = TRUE;
    }
}

/* LLVMFuzzerInitialize() of a target that needs only fuzz_init_once(). */
#define FUZZ_DEFINE_INITIALIZE()                                                \
  int                                                                           \
  LLVMFuzzerInitialize (int *argc, char ***argv)                                \
  {                                                                             \
    fuzz_init_once ();                                                          \
    return 0;                                                                   \
  }

/* Exactly the @size bytes of the input, nothing after them (never NULL): a
 * read past the end is a finding. */
static inline char *
fuzz_bytes (const uint8_t *data, size_t size)
{
  char *copy = g_malloc (size > 0 ? size : 1);

  if (size > 0)
    memcpy (copy, data, size);
  return copy;
}

/* A message (or any text) fit for a terminal: valid UTF-8, no control
 * characters (line feeds only when @newlines), no bidirectional controls;
 * what a parser quotes of its input comes out escaped. */
static inline void
fuzz_check_printable (const char *text, gboolean newlines)
{
  FUZZ_CHECK (g_utf8_validate (text, -1, NULL), "not UTF-8: %s", text);
  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar u = g_utf8_get_char (p);
      FUZZ_CHECK ((u >= 0x20 && (u < 0x7f || u >= 0xa0) && !(u >= 0x202a && u <= 0x202e)
                   && !(u >= 0x2066 && u <= 0x2069)) || (newlines && u == '\n'),
                  "control character U+%04X in: %s", u, text);
    }
}
