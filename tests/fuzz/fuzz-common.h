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
