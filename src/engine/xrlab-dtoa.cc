/* xrlab-dtoa.cc -- the C++ shim behind xrlab-dtoa.h
 *
 * Formatting: Dragonbox gives the shortest decimal significand and exponent
 * that read back to the double (closest to it among the shortest, ties to
 * even); the digits are laid out here as printf's %g does at the precision
 * the old three-step "%.15g / %.16g / %.17g" search ended on, so every file
 * xrlab wrote before keeps its bytes. Parsing: fast_float's from_chars,
 * which rounds correctly like strtod, but reads no hexadecimal and is not
 * affected by the locale.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "xrlab-dtoa.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <system_error>

#include <dragonbox/dragonbox.h>
#include <fast_float/fast_float.h>

static_assert (__cplusplus >= 201703L, "xrlab-dtoa.cc is C++17 (Dragonbox)");

namespace {

const char digit_pairs[] =
  "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
  "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
  "8081828384858687888990919293949596979899";

/* The decimal digits of @s (no leading zeros) ending at @end; returns their
 * start. */
inline char *
write_digits (std::uint64_t s, char *end)
{
  char *p = end;

  while (s >= 100)
    {
      p -= 2;
      std::memcpy (p, digit_pairs + 2 * (s % 100), 2);
      s /= 100;
    }
  if (s >= 10)
    {
      p -= 2;
      std::memcpy (p, digit_pairs + 2 * s, 2);
    }
  else
    *--p = (char) ('0' + s);
  return p;
}

/* %g layout of the digits @d[0..n) (no trailing zeros) times 10^@point_exp,
 * where @point_exp is the exponent of the first digit. */
inline char *
layout (char *o, const char *d, int n, int point_exp)
{
  int precision = n > 15 ? n : 15;

  if (point_exp < -4 || point_exp >= precision)
    {
      int e = point_exp;

      *o++ = d[0];
      if (n > 1)
        {
          *o++ = '.';
          std::memcpy (o, d + 1, n - 1);
          o += n - 1;
        }
      *o++ = 'e';
      if (e < 0)
        {
          *o++ = '-';
          e = -e;
        }
      else
        *o++ = '+';
      if (e >= 100)
        {
          *o++ = (char) ('0' + e / 100);
          e %= 100;
        }
      std::memcpy (o, digit_pairs + 2 * e, 2);
      o += 2;
    }
  else if (point_exp >= 0)
    {
      int int_digits = point_exp + 1;

      if (n <= int_digits)
        {
          std::memcpy (o, d, n);
          o += n;
          std::memset (o, '0', int_digits - n);
          o += int_digits - n;
        }
      else
        {
          std::memcpy (o, d, int_digits);
          o += int_digits;
          *o++ = '.';
          std::memcpy (o, d + int_digits, n - int_digits);
          o += n - int_digits;
        }
    }
  else
    {
      *o++ = '0';
      *o++ = '.';
      std::memset (o, '0', -point_exp - 1);
      o += -point_exp - 1;
      std::memcpy (o, d, n);
      o += n;
    }
  return o;
}

} // namespace

extern "C" size_t
xrlab_dtoa_format (double x, char *buf)
{
  char *o = buf;

  if (!std::isfinite (x))
    {
      const char *text = std::isnan (x) ? "nan" : x > 0 ? "inf" : "-inf";
      size_t len = std::strlen (text);

      std::memcpy (buf, text, len + 1);
      return len;
    }
  if (std::signbit (x))
    *o++ = '-';
  if (x == 0)
    *o++ = '0';
  else
    {
      auto r = jkj::dragonbox::to_decimal (x, jkj::dragonbox::policy::sign::ignore);
      char digits[24];
      char *end = digits + sizeof digits;
      char *start = write_digits (r.significand, end);
      int n = (int) (end - start);

      o = layout (o, start, n, r.exponent + n - 1);
    }
  *o = '\0';
  return (size_t) (o - buf);
}

extern "C" const char *
xrlab_dtoa_scan (const char *first, const char *last, double *out,
                 XrlabDtoaKind *kind)
{
  double v = NAN;
  auto r = fast_float::from_chars (first, last, v);
  const char *p = first;

  *kind = XRLAB_DTOA_NONE;
  if (r.ec == std::errc::invalid_argument || r.ptr == first)
    return nullptr;
  /* Newer fast_float releases report overflow and underflow as
   * result_out_of_range, with the rounded value (±inf, ±0) stored; 3.x
   * stores it without saying so. Either way the value tells. */
  if (r.ec != std::errc () && r.ec != std::errc::result_out_of_range)
    return nullptr;
  if (r.ec == std::errc::result_out_of_range && std::isnan (v))
    return nullptr;
  if (*p == '-')
    p++;
  *kind = (*p >= '0' && *p <= '9') || *p == '.' ? XRLAB_DTOA_NUMBER : XRLAB_DTOA_NONFINITE;
  *out = v;
  return r.ptr;
}
