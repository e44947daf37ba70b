/* test-dtoa.c -- xrlab_format_double() and xrlab_parse_double() against the
 * printf/strtod implementation they replaced
 *
 * The reference (dtoa-reference.c) is the former implementation, kept
 * verbatim: the shortest of "%.15g", "%.16g", "%.17g" that g_ascii_strtod()
 * reads back, and g_ascii_strtod() with the checks around it. Every file xrlab wrote with it
 * must keep its bytes, so the new text must equal it for every double, with
 * one intended exception: subnormal numbers, where "%.15g" already gives more
 * digits than needed (5e-324 was "4.94065645841247e-324"); there the new text
 * is the shortest, never longer, and reads back to the same double.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <string.h>

#include <glib.h>

#include "dtoa-reference.h"
#include "xrlab-init.h"
#include "xrlab-util.h"

/* ---- helpers --------------------------------------------------------------- */

static gboolean
same_double (double a, double b)
{
  if (isnan (a) || isnan (b))
    return isnan (a) && isnan (b);
  return memcmp (&a, &b, sizeof a) == 0;
}

static double
from_bits (guint64 bits)
{
  double x;

  memcpy (&x, &bits, sizeof x);
  return x;
}

static guint64
rand_bits (void)
{
  return ((guint64) g_test_rand_int () << 32) | (guint32) g_test_rand_int ();
}

/* Significant digits of a formatted number (mantissa digits, leading zeros
 * not counted). */
static int
count_digits (const char *text)
{
  int n = 0;
  gboolean leading = TRUE;

  for (const char *p = text; *p && *p != 'e'; p++)
    {
      if (!g_ascii_isdigit (*p))
        continue;
      if (leading && *p == '0')
        continue;
      leading = FALSE;
      n++;
    }
  return n;
}

/* One double: the new text against the old one, and both read back. */
static void
check_one (double x, gsize *n_subnormal)
{
  char text[XRLAB_DTOA_BUFSIZE], old[XRLAB_DTOA_BUFSIZE];
  double back = 0, old_back = 0;
  gsize len = xrlab_format_double_len (x, text);

  old_format_double (x, old);
  g_assert_cmpuint (len, ==, strlen (text));
  g_assert_cmpuint (len, <, XRLAB_DTOA_BUFSIZE);
  if (fpclassify (x) == FP_SUBNORMAL)
    {
      (*n_subnormal)++;
      g_assert_cmpint (count_digits (text), <=, count_digits (old));
      g_assert_true (old_parse_double (old, FALSE, &old_back));
      g_assert_true (same_double (old_back, x));
    }
  else if (strcmp (text, old) != 0)
    {
      guint64 bits;

      memcpy (&bits, &x, sizeof bits);
      g_test_message ("bits %016" G_GINT64_MODIFIER "x: new “%s”, old “%s”",
                      bits, text, old);
      g_assert_cmpstr (text, ==, old);
    }
  /* The new parser reads both texts back exactly, and agrees with the old
   * parser on the new text. */
  g_assert_true (xrlab_parse_double (text, TRUE, &back));
  g_assert_true (same_double (back, x));
  g_assert_true (xrlab_parse_double (old, TRUE, &back));
  g_assert_true (same_double (back, x));
  g_assert_true (old_parse_double (text, TRUE, &old_back));
  g_assert_true (same_double (old_back, x));
}

/* ---- tests ----------------------------------------------------------------- */

static void
test_random_million (void)
{
  gsize n_subnormal = 0, n = 1000000;

  for (gsize i = 0; i < n; i++)
    {
      guint64 bits = rand_bits ();
      double x;

      switch (i % 8)
        {
        case 0:   /* subnormal (and now and then ±0) */
          bits &= (G_GUINT64_CONSTANT (1) << 63) | ((G_GUINT64_CONSTANT (1) << 52) - 1);
          if (i % 4096 == 0)
            bits &= G_GUINT64_CONSTANT (1) << 63;
          if (i % 3 == 0)   /* few significant bits: short shortest forms */
            bits &= ~((G_GUINT64_CONSTANT (1) << g_test_rand_int_range (0, 52)) - 1);
          x = from_bits (bits);
          break;
        case 1:   /* few decimal digits, as measured data have */
          x = g_test_rand_int_range (-999999, 1000000)
              * pow (10.0, g_test_rand_int_range (-12, 12));
          break;
        case 2:   /* integers around the %g switch at 10^15 .. 10^17 */
          x = floor (g_test_rand_double_range (1e13, 1e19));
          break;
        default:  /* every exponent, sign and mantissa: all bit patterns */
          x = from_bits (bits);
          break;
        }
      check_one (x, &n_subnormal);
    }
  g_assert_cmpuint (n_subnormal, >, n / 10);
}

static void
test_format_rules (void)
{
  static const struct { double x; const char *text; } cases[] = {
    { 0.1, "0.1" },
    { 2.98814e-05, "2.98814e-05" },
    { 4.768128222487068e-05, "4.768128222487068e-05" },
    { 0.0, "0" },
    { -0.0, "-0" },
    { 1.0, "1" },
    { -2.5, "-2.5" },
    { 0.0001, "0.0001" },
    { 1e-05, "1e-05" },
    { 0.00012345678901234567, "0.00012345678901234567" },
    { 1e14, "100000000000000" },
    { 123456789012345.0, "123456789012345" },
    { 1e15, "1e+15" },
    { 1234567890123450.0, "1.23456789012345e+15" },
    { 1234567890123456.0, "1234567890123456" },
    { 1e16, "1e+16" },
    { 12345678901234567.0, "12345678901234568" },
    { 123456789012345678.0, "1.2345678901234568e+17" },
    { 1e100, "1e+100" },
    { 1e-100, "1e-100" },
    { 0.30000000000000004, "0.30000000000000004" },
    { 12.398419843320026, "12.398419843320026" },
    { DBL_MAX, "1.7976931348623157e+308" },
    { -DBL_MAX, "-1.7976931348623157e+308" },
    { DBL_MIN, "2.2250738585072014e-308" },
    { 5e-324, "5e-324" },           /* old: 4.94065645841247e-324 */
    { 1e-320, "1e-320" },           /* old: 9.99988671826831e-321 */
    { NAN, "nan" },
    { -NAN, "nan" },
    { INFINITY, "inf" },
    { -INFINITY, "-inf" },
  };
  char buf[XRLAB_DTOA_BUFSIZE], old[XRLAB_DTOA_BUFSIZE];

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_assert_cmpstr (xrlab_format_double (cases[i].x, buf), ==, cases[i].text);
      if (fpclassify (cases[i].x) != FP_SUBNORMAL)
        g_assert_cmpstr (buf, ==, old_format_double (cases[i].x, old));
    }
}

/* The new parser accepts exactly what the old one did, hexadecimal aside. */
static void
test_parse_like_strtod (void)
{
  static const char *texts[] = {
    "0", "-0", "+0", "1", "+1", "-1", " 8.048 ", "\t8.048\r\n", "\v1\f",
    ".5", "5.", "-.5", "+.5e1", "1e5", "1E5", "1e+05", "1e-05", "1e", "1e+",
    "1e-", "e5", ".", "-", "+", "", "   ", "+-5", "-+5", "--5", "++5",
    "1.5.5", "1,5", "1 5", "8.0x", "1e5x", "12abc",
    "nan", "NaN", "-nan", "+nan", "NAN", "nan(123)", "nan(abc_9)", "nan(",
    "nan()", "nanx", "inf", "-inf", "+inf", "INF", "Infinity", "-infinity",
    "infinit", "infinityx", "in", "n",
    "1e308", "1.7976931348623157e308", "1.7976931348623159e308", "1e309",
    "1e999", "-1e999", "1e-300", "1e-320", "4e-324", "2e-324", "1e-400",
    "-1e-400", "123456789012345678901234567890", "0.000000000000000000000001",
    "9007199254740993", "2.2250738585072011e-308",
    "0.1000000000000000055511151231257827021181583404541015625",
    "1.00000000000000011102230246251565404236316680908203125",
    "1.00000000000000011102230246251565404236316680908203124",
    /* the short path (Clinger, then Eisel-Lemire) and its limits */
    "82.365", "-0.5", "-0e5", "1.e5", "9007199254740992", "9007199254740992e1",
    "1e22", "1e23", "-1e-22", "1e-23", "123.456e-22", "1234567890123456789",
    "12345678901234567890", "0.1234567890123456789", "0.12345678901234567891",
    "00000000000000000001.5", "1.2345678901234567e-05", "2.4703282292062328e-324",
    "2.4703282292062327e-324", "1e99999999999", "1e-99999999999", "7.e-3", "5e+",
  };

  for (gsize i = 0; i < G_N_ELEMENTS (texts); i++)
    for (int allow = 0; allow <= 1; allow++)
      {
        double v_new = -12345, v_old = -12345;
        gboolean ok_new = xrlab_parse_double (texts[i], allow, &v_new);
        gboolean ok_old = old_parse_double (texts[i], allow, &v_old);

        g_test_message ("“%s” allow=%d: new %d old %d", texts[i], allow, ok_new, ok_old);
        g_assert_cmpint (ok_new, ==, ok_old);
        if (ok_new)
          g_assert_true (same_double (v_new, v_old));
        g_assert_true (xrlab_parse_double_n (texts[i], strlen (texts[i]), allow, &v_new) == ok_new);
      }
}

static void
test_parse_hex_refused (void)
{
  static const char *hex[] = { "0x10", "0X10", "-0x10", "0x1p3", "0x.8", "0x" };
  double v = 0;

  for (gsize i = 0; i < G_N_ELEMENTS (hex); i++)
    {
      g_assert_false (xrlab_parse_double (hex[i], TRUE, &v));
      g_assert_false (xrlab_parse_double (hex[i], FALSE, &v));
    }
  /* What strtod did with it. */
  g_assert_true (old_parse_double ("0x10", FALSE, &v));
  g_assert_cmpfloat (v, ==, 16.0);
}

static void
test_parse_n (void)
{
  const char text[] = "12.5,7";
  double v = 0;

  /* Only the bytes given are read: no NUL needed. */
  g_assert_true (xrlab_parse_double_n (text, 4, FALSE, &v));
  g_assert_cmpfloat (v, ==, 12.5);
  g_assert_false (xrlab_parse_double_n (text, 5, FALSE, &v));
  g_assert_true (xrlab_parse_double_n (text + 5, 1, FALSE, &v));
  g_assert_cmpfloat (v, ==, 7.0);
  g_assert_false (xrlab_parse_double_n (text, 0, FALSE, &v));
  /* A NUL inside is junk. */
  g_assert_false (xrlab_parse_double_n ("1\0" "2", 3, FALSE, &v));
}

/* Every length of every text read from a buffer whose following bytes are
 * digits again, against the former parser on a NUL-terminated copy: the
 * chunked reading (eight bytes at a time, the last chunk the text's last
 * eight bytes, texts shorter than eight copied) must neither look past the
 * end nor disagree at any length. */
static void
test_parse_n_every_length (void)
{
  static const char *texts[] = {
    "4.768128222487068e-05", "-0.00017003579236103027", "32.36825030986883",
    "82.365", "1234567.5", "12345678.25", "123456789012.5", "-7.e-3", ".5e1",
    "0.000000012345678901234567", "00000000000000000001.5", "1e+15", "5.",
    "99999999.99999999e-8", "-1234.5678e+3", "1 ", " 2.5", "+3.25", "1e",
  };
  GRand *rand = g_rand_new_with_seed (7);

  for (int round = 0; round < 2000; round++)
    {
      char text[64], copy[64];
      gsize n;

      if (round < (int) G_N_ELEMENTS (texts))
        g_strlcpy (text, texts[round], sizeof text);
      else
        {
          double x = g_rand_double_range (rand, -1e4, 1e4) * pow (10.0, g_rand_int_range (rand, -12, 12));

          xrlab_format_double (x, text);
        }
      n = strlen (text);
      for (gsize len = 0; len <= n; len++)
        {
          /* the text, then digits up to the end of an exact allocation */
          char *buf = g_malloc (len + 8);
          double v_new = -1, v_old = -1;
          gboolean ok_new, ok_old;

          memcpy (buf, text, len);
          memset (buf + len, '7', 8);
          memcpy (copy, text, len);
          copy[len] = '\0';
          ok_new = xrlab_parse_double_n (buf, len, FALSE, &v_new);
          ok_old = old_parse_double (copy, FALSE, &v_old);
          if (ok_new != ok_old || (ok_new && !same_double (v_new, v_old)))
            g_error ("“%s” (length %zu): new %d %.17g, old %d %.17g", copy, len,
                     ok_new, v_new, ok_old, v_old);
          g_free (buf);
        }
    }
  g_rand_free (rand);
}

/* Random decimals of 1 to 26 digits with the point anywhere (or none),
 * signs and exponents, at every offset of a buffer whose following bytes
 * are digits: the reader that takes the first 16 bytes of a mantissa at
 * once (the point squeezed out, the run ending before, at or after the
 * 16th byte) against the former parser, and the other reader run by
 * dtoa-plain. */
static void
test_parse_window (void)
{
  GRand *rand = g_rand_new_with_seed (16);

  g_test_message ("reader: %s", xrlab_dtoa_reader ());
  g_assert_cmpstr (xrlab_dtoa_reader (), ==, g_getenv ("XRLAB_DTOA_PLAIN") != NULL ? "plain"
#if defined(__x86_64__)
                   : __builtin_cpu_supports ("ssse3") ? "ssse3"
#endif
                   : "plain");
  for (int round = 0; round < 300000; round++)
    {
      char text[64];
      gsize n = 0;
      int digits = g_rand_int_range (rand, 1, 27);
      int point = g_rand_int_range (rand, -1, digits + 1);
      char *buf;
      double v_new = -1, v_old = -1;
      gboolean ok_new, ok_old;

      if (g_rand_int_range (rand, 0, 4) == 0)
        text[n++] = '-';
      for (int i = 0; i < digits; i++)
        {
          if (i == point)
            text[n++] = '.';
          /* runs of zeros and nines too: the rounding edges */
          switch (g_rand_int_range (rand, 0, 8))
            {
            case 0: text[n++] = '0'; break;
            case 1: text[n++] = '9'; break;
            default: text[n++] = (char) ('0' + g_rand_int_range (rand, 0, 10));
            }
        }
      if (point == digits)
        text[n++] = '.';
      if (g_rand_int_range (rand, 0, 3) == 0)
        n += (gsize) g_snprintf (text + n, sizeof text - n, "e%d", g_rand_int_range (rand, -330, 330));
      else if (g_rand_int_range (rand, 0, 50) == 0)
        text[n++] = "x.e+-"[g_rand_int_range (rand, 0, 5)];
      text[n] = '\0';
      buf = g_malloc (n + 16);
      memcpy (buf, text, n);
      memset (buf + n, '3', 16);
      ok_new = xrlab_parse_double_n (buf, n, FALSE, &v_new);
      ok_old = old_parse_double (text, FALSE, &v_old);
      if (ok_new != ok_old || (ok_new && !same_double (v_new, v_old)))
        g_error ("“%s”: new %d %.17g, old %d %.17g", text, ok_new, v_new, ok_old, v_old);
      g_free (buf);
    }
  g_rand_free (rand);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  xrlab_init ();
  g_test_add_func ("/dtoa/format-rules", test_format_rules);
  g_test_add_func ("/dtoa/parse-like-strtod", test_parse_like_strtod);
  g_test_add_func ("/dtoa/parse-hex-refused", test_parse_hex_refused);
  g_test_add_func ("/dtoa/parse-n", test_parse_n);
  g_test_add_func ("/dtoa/parse-n-every-length", test_parse_n_every_length);
  g_test_add_func ("/dtoa/parse-window", test_parse_window);
  g_test_add_func ("/dtoa/random-million", test_random_million);
  return g_test_run ();
}
