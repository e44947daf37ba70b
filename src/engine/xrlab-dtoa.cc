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

/* The number of decimal digits of @s (1 ≤ @s < 10^17, Dragonbox's at most
 * 17 digits). */
inline int
count_digits (std::uint64_t s)
{
  static const std::uint64_t pow10[] = {
    1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
    100000000ull, 1000000000ull, 10000000000ull, 100000000000ull, 1000000000000ull,
    10000000000000ull, 100000000000000ull, 1000000000000000ull, 10000000000000000ull,
    100000000000000000ull,
  };
  /* floor(log10(2^k)) + 1 from the bit width, then one step down */
  int bits = 64 - __builtin_clzll (s);
  int n = (bits * 1233 >> 12) + 1;

  return n - (s < pow10[n - 1]);
}

/* The decimal digits of @s (no leading zeros) written ending at @end. */
inline void
write_digits (std::uint64_t s, char *end)
{
  char *p = end;

  /* Eight digits at a time in 32-bit arithmetic while there are more. */
  while (s >= 100000000u)
    {
      std::uint32_t lo = (std::uint32_t) (s % 100000000u);

      s /= 100000000u;
      for (int k = 0; k < 4; k++)
        {
          p -= 2;
          std::memcpy (p, digit_pairs + 2 * (lo % 100), 2);
          lo /= 100;
        }
    }
  {
    std::uint32_t t = (std::uint32_t) s;

    while (t >= 100)
      {
        p -= 2;
        std::memcpy (p, digit_pairs + 2 * (t % 100), 2);
        t /= 100;
      }
    if (t >= 10)
      {
        p -= 2;
        std::memcpy (p, digit_pairs + 2 * t, 2);
      }
    else
      *--p = (char) ('0' + t);
  }
}

/* %g layout of the @n digits of @s (no trailing zeros) times 10^@point_exp,
 * where @point_exp is the exponent of the first digit, at @o; returns the
 * end. The digits are written where they go, then moved by one place at
 * most (for the point). */
inline char *
layout (char *o, std::uint64_t s, int n, int point_exp)
{
  int precision = n > 15 ? n : 15;

  if (point_exp < -4 || point_exp >= precision)
    {
      int e = point_exp;

      if (n > 1)
        {
          write_digits (s, o + 1 + n);
          o[0] = o[1];
          o[1] = '.';
          o += n + 1;
        }
      else
        *o++ = (char) ('0' + s);
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
          write_digits (s, o + n);
          o += n;
          for (int k = n; k < int_digits; k++)
            *o++ = '0';
        }
      else
        {
          write_digits (s, o + 1 + n);
          for (int k = 0; k < int_digits; k++)
            o[k] = o[k + 1];
          o[int_digits] = '.';
          o += n + 1;
        }
    }
  else
    {
      *o++ = '0';
      *o++ = '.';
      for (int k = 0; k < -point_exp - 1; k++)
        *o++ = '0';
      write_digits (s, o + n);
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
      int n = count_digits (r.significand);

      o = layout (o, r.significand, n, r.exponent + n - 1);
    }
  *o = '\0';
  return (size_t) (o - buf);
}

namespace {

/* The common numbers without fast_float's general parser: a decimal
 * "[-]digits[.digits][(e|E)[+|-]digits]" of at most 19 digits is m × 10^q;
 * when m ≤ 2^53 and |q| ≤ 22 both are exact and one IEEE operation rounds
 * it correctly (Clinger's fast path: "82.365"), else fast_float's
 * Eisel–Lemire step (compute_float) does (the shortest forms of 16–17
 * digits xrlab writes). A decimal has one nearest double, so the value is
 * fast_float's; anything else (more digits, hexadecimal, nan, an exponent
 * without digits, Eisel–Lemire undecided) returns nullptr, for from_chars. */
inline const char *
scan_common (const char *p, const char *last, double *out)
{
  static const double pow10[] = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
  };
  bool negative = p < last && *p == '-';
  const char *digits, *point = nullptr;
  std::uint64_t m = 0;
  std::int64_t q;
  int n = 0;

  p += negative;
  digits = p;
  for (; p < last && (unsigned) (*p - '0') <= 9; p++)
    m = 10 * m + (unsigned) (*p - '0');
  if (p < last && *p == '.')
    {
      /* eight digits at a time, as fast_float reads them (m may wrap
       * beyond 19 digits: then it is not used) */
      point = p++;
      while (last - p >= 8 && fast_float::is_made_of_eight_digits_fast (p))
        {
          m = m * 100000000 + fast_float::parse_eight_digits_unrolled (p);
          p += 8;
        }
      for (; p < last && (unsigned) (*p - '0') <= 9; p++)
        m = 10 * m + (unsigned) (*p - '0');
    }
  n = (int) (p - digits) - (point != nullptr);
  if (n == 0 || n > 19)
    return nullptr;
  q = point != nullptr ? -(std::int64_t) (p - point - 1) : 0;
  if (p < last && (*p == 'e' || *p == 'E'))
    {
      const char *e = p + 1;
      bool minus = e < last && *e == '-';
      std::int64_t x = 0;

      e += (e < last && (*e == '-' || *e == '+'));
      if (e == last || (unsigned) (*e - '0') > 9)
        return nullptr;
      for (; e < last && (unsigned) (*e - '0') <= 9; e++)
        if (x < 100000)
          x = 10 * x + (*e - '0');
      q += minus ? -x : x;
      p = e;
    }
  if (m <= (std::uint64_t (1) << 53) && q >= -22 && q <= 22)
    {
      double v = (double) m;

      v = q < 0 ? v / pow10[-q] : v * pow10[q];
      *out = negative ? -v : v;
      return p;
    }
  {
    fast_float::adjusted_mantissa am
      = fast_float::compute_float<fast_float::binary_format<double>> (q, m);
    double v;

    if (am.power2 < 0)
      return nullptr;
    fast_float::to_float (negative, am, v);
    *out = v;
  }
  return p;
}

} // namespace

extern "C" const char *
xrlab_dtoa_scan (const char *first, const char *last, double *out,
                 XrlabDtoaKind *kind)
{
  const char *end = scan_common (first, last, out);
  double v = NAN;

  if (end != nullptr)
    {
      *kind = XRLAB_DTOA_NUMBER;
      return end;
    }
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
