/* xrlab-dtoa.h -- doubles to text and back: the C face of a small C++ shim
 * over Dragonbox (shortest round-trip digits) and fast_float (correctly
 * rounded parsing). The rules xrlab keeps on top of them (blanks, "+",
 * overflow, nan/inf) live in xrlab-util.c; use xrlab_format_double() and
 * xrlab_parse_double() there, not these.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Writes @x with the shortest digits that read back to @x, laid out as
 * printf's "%.Pg" with P = max (15, number of digits): "0.1", "2.98814e-05",
 * "4.768128222487068e-05", "1e+15", "123456789012345680" is
 * "1.2345678901234568e+17"; "-0" for negative zero, "nan", "inf", "-inf".
 * @buf holds at least 32 bytes; it is NUL terminated. Returns the length. */
size_t xrlab_dtoa_format (double x, char *buf);

typedef enum {
  XRLAB_DTOA_NONE,        /* no number at @first */
  XRLAB_DTOA_NUMBER,      /* digits (finite, or overflowed to ±inf) */
  XRLAB_DTOA_NONFINITE,   /* "nan", "inf", "infinity" (any case, signed) */
} XrlabDtoaKind;

/* Reads the longest decimal number at @first (no leading blanks, no '+':
 * "-12.5e3", ".5", "5.", "nan", "inf"; never hexadecimal) before @last.
 * Stores it in @out (overflow: ±inf; underflow: 0 or the subnormal) and
 * returns the end of what it read, or NULL (kind NONE) when there is none. */
const char *xrlab_dtoa_scan (const char *first, const char *last, double *out,
                             XrlabDtoaKind *kind);

/* The text from @first to @last read as one finite decimal number
 * ("-12.5e3", ".5", "5."; no blanks, no '+', no nan, inf or overflow):
 * stores it in @out and returns 1; 0 when the text is anything else (it may
 * still be a number with blanks or a '+' around it: xrlab_dtoa_scan()).
 * The fast path of xrlab_parse_double_n(). */
int xrlab_dtoa_parse_whole (const char *first, const char *last, double *out);

/* The reader xrlab_dtoa_parse_whole() and xrlab_dtoa_scan() use on this
 * processor: "ssse3" (x86-64 with SSSE3: a mantissa's first 16 bytes read
 * at once) or "plain" (elsewhere, or with XRLAB_DTOA_PLAIN set in the
 * environment). Both give the same doubles. */
const char *xrlab_dtoa_reader (void);

#ifdef __cplusplus
}
#endif
