/* xrlab-dtoa.cc -- the C++ shim behind xrlab-dtoa.h
 *
 * Formatting: Dragonbox gives the shortest decimal significand and exponent
 * that read back to the double (closest to it among the shortest, ties to
 * even); the digits are laid out here as printf's %g does at the precision
 * the old three-step "%.15g / %.16g / %.17g" search ended on, so every file
 * xrlab wrote before keeps its bytes. Parsing: the digits of the common
 * numbers are read here (xrlab-dtoa-scan.inc, eight or sixteen bytes at a
 * time) and rounded by fast_float's steps; the rest goes to fast_float's
 * from_chars, which rounds correctly like strtod, but reads no hexadecimal
 * and is not affected by the locale.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "xrlab-dtoa.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <system_error>

#include <dragonbox/dragonbox.h>
#include <fast_float/fast_float.h>

#if defined(__x86_64__)
#include <tmmintrin.h>
#endif

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

/* What scan_common() leaves: fast_float's general parser. */
__attribute__ ((noinline)) const char *
scan_general (const char *first, const char *last, double *out, XrlabDtoaKind *kind)
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

} // namespace

/* The reader twice, with the point of XRLAB_DTOA_SIMD in
 * xrlab-dtoa-scan.inc. The SSSE3 one only where the compiler can build
 * functions for SSSE3 without being told to for the whole file (GCC's and
 * Clang's target attributes, x86-64). */
namespace {
namespace plain {
#define XRLAB_DTOA_SIMD 0
#include "xrlab-dtoa-scan.inc"
#undef XRLAB_DTOA_SIMD
} // namespace plain
} // namespace

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define XRLAB_DTOA_HAVE_SSSE3 1
#if defined(__clang__)
#pragma clang attribute push (__attribute__ ((target ("ssse3"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target ("ssse3")
#endif
namespace {
namespace ssse3 {
#define XRLAB_DTOA_SIMD 1
#include "xrlab-dtoa-scan.inc"
#undef XRLAB_DTOA_SIMD
} // namespace ssse3
} // namespace
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#else
#define XRLAB_DTOA_HAVE_SSSE3 0
#endif

/* Whether the SSSE3 reader runs here: where the processor has it and
 * XRLAB_DTOA_PLAIN is not set (the tests run both). */
static bool
choose_ssse3 ()
{
#if XRLAB_DTOA_HAVE_SSSE3
  __builtin_cpu_init ();
  return __builtin_cpu_supports ("ssse3") && std::getenv ("XRLAB_DTOA_PLAIN") == nullptr;
#else
  return false;
#endif
}

static const bool use_ssse3 = choose_ssse3 ();

extern "C" const char *
xrlab_dtoa_reader (void)
{
  return use_ssse3 ? "ssse3" : "plain";
}

extern "C" const char *
xrlab_dtoa_scan (const char *first, const char *last, double *out,
                 XrlabDtoaKind *kind)
{
  const char *end;

#if XRLAB_DTOA_HAVE_SSSE3
  if (use_ssse3)
    end = ssse3::scan_fast (first, last, out);
  else
#endif
    end = plain::scan_fast (first, last, out);
  if (__builtin_expect (end != nullptr, 1))
    {
      *kind = XRLAB_DTOA_NUMBER;
      return end;
    }
  return scan_general (first, last, out, kind);
}

extern "C" int
xrlab_dtoa_parse_whole (const char *first, const char *last, double *out)
{
#if XRLAB_DTOA_HAVE_SSSE3
  if (use_ssse3)
    return ssse3::parse_whole (first, last, out);
#endif
  return plain::parse_whole (first, last, out);
}
