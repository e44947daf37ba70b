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

const std::uint64_t pow10_u[] = {
  1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
  100000000ull,
};

/* '0' bytes to fill the low end of a chunk whose first @k bytes are digits
 * moved to its high end. */
const std::uint64_t zero_fill[] = {
  0x3030303030303030ull, 0x30303030303030ull, 0x303030303030ull, 0x3030303030ull,
  0x30303030ull, 0x303030ull, 0x3030ull, 0x30ull, 0ull,
};

/* The eight bytes at @p, the first in the low byte whatever the machine. */
inline std::uint64_t
load8 (const char *p)
{
  std::uint64_t v;

  std::memcpy (&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  v = __builtin_bswap64 (v);
#endif
  return v;
}

/* Where the digits come from: the text itself (at least eight bytes long:
 * nothing after its end is read, the last chunk is its last eight bytes
 * shifted), or, for a text shorter than eight bytes, a copy of it in
 * memory at @base and in the register @word, zeros after it, the chunks
 * taken from the register (a load spanning the copy's stores would wait
 * for them). */
template <bool is_short>
struct Source
{
  const char *base;
  std::uint64_t word;
};

/* The eight bytes at @p, those at or after @last zero (no digits). */
template <bool is_short>
inline std::uint64_t
chunk_at (const Source<is_short> &src, const char *p, const char *last)
{
  std::ptrdiff_t r = last - p;
  std::uint64_t v;
  unsigned shift;

  if (is_short)
    {
      shift = (unsigned) (8 * (p - src.base));
      return shift < 64 ? src.word >> shift : 0;
    }
  /* without branches: the lengths of the numbers of a file vary */
  v = load8 (r >= 8 ? p : last - 8);
  shift = r >= 8 ? 0 : (unsigned) (8 * (8 - r));
  return shift < 64 ? v >> shift : 0;
}

/* The number of decimal digits the bytes of @v start with (0 to 8): one
 * test of every byte at once; a carry or borrow spoils only the bytes after
 * the first that is no digit. */
inline int
digit_run (std::uint64_t v)
{
  std::uint64_t flags = ((v + 0x4646464646464646ull) | (v - 0x3030303030303030ull))
                        & 0x8080808080808080ull;

  return flags != 0 ? __builtin_ctzll (flags) >> 3 : 8;
}

/* The value of the first @k (1 to 8) digits of @v: moved to its high end,
 * '0'-padded in front, read together (no branch per digit). */
inline std::uint64_t
chunk_value (std::uint64_t v, int k)
{
  return fast_float::parse_eight_digits_unrolled ((v << (8 * (8 - k))) | zero_fill[k]);
}

/* The run of digits at @p appended to @m (m × 10^k + their value), eight
 * at a time; returns its end. */
template <bool is_short>
inline const char *
read_digits (const Source<is_short> &src, const char *p, const char *last, std::uint64_t &m)
{
  for (;;)
    {
      std::uint64_t v = chunk_at (src, p, last);
      int k = digit_run (v);

      if (k == 0)
        return p;
      m = m * pow10_u[k] + chunk_value (v, k);
      p += k;
      if (k < 8)
        return p;
    }
}

/* The digits of "[digits][.digits]" at @p as m × 10^q with @n digits in
 * all; returns their end. The common shortest forms ("4.768128222487068",
 * "82.365": fewer than eight before the point) read the integer digits and
 * the first fraction digits as one chunk of eight. */
template <bool is_short>
inline const char *
read_mantissa (const Source<is_short> &src, const char *p, const char *last, std::uint64_t &m, std::int64_t &q,
               std::ptrdiff_t &n)
{
  const char *digits = p;
  std::uint64_t v = chunk_at (src, p, last);
  int k = digit_run (v);

  m = 0;
  q = 0;
  if (k < 8 && ((v >> (8 * k)) & 0xff) == '.')
    {
      const char *fraction = p + k + 1;
      std::uint64_t w = chunk_at (src, fraction, last);
      std::uint64_t c = k == 0 ? w : (v & (~0ull >> (64 - 8 * k))) | (w << (8 * k));
      int j = digit_run (c);

      if (j > 0)
        m = chunk_value (c, j);
      p = fraction + (j - k);
      if (j == 8)
        p = read_digits (src, p, last, m);
      q = -(std::int64_t) (p - fraction);
      n = p - digits - 1;
      return p;
    }
  if (k > 0)
    m = chunk_value (v, k);
  p += k;
  if (k == 8)
    {
      p = read_digits (src, p, last, m);
      if (p < last && *p == '.')
        {
          const char *fraction = ++p;

          p = read_digits (src, p, last, m);
          q = -(std::int64_t) (p - fraction);
          n = p - digits - 1;
          return p;
        }
    }
  n = p - digits;
  return p;
}

/* @v (≥ 0) negated when @negative, without a branch. */
inline double
with_sign (double v, bool negative)
{
  std::uint64_t bits;

  std::memcpy (&bits, &v, 8);
  bits |= (std::uint64_t) negative << 63;
  std::memcpy (&v, &bits, 8);
  return v;
}

/* The common numbers without fast_float's general parser: a decimal
 * "[-]digits[.digits][(e|E)[+|-]digits]" of at most 19 significant digits
 * (zeros before the first other digit not counted) is m × 10^q; when
 * m ≤ 2^53 and |q| ≤ 22 both are exact and one IEEE operation rounds it
 * correctly (Clinger's fast path: "82.365"), else fast_float's Eisel–Lemire
 * step (compute_float) does (the shortest forms of 16–17 digits xrlab
 * writes). A decimal has one nearest double, so the value is fast_float's;
 * anything else (more digits, hexadecimal, nan, an exponent without digits,
 * Eisel–Lemire undecided) returns nullptr, for from_chars. */
template <bool is_short>
inline __attribute__ ((always_inline)) const char *
scan_common (const Source<is_short> &src, const char *p, const char *last, double *out)
{
  static const double pow10[] = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
  };
  bool negative = p < last && *p == '-';
  const char *digits;
  std::uint64_t m;
  std::int64_t q;
  std::ptrdiff_t n;

  p += negative;
  digits = p;
  p = read_mantissa (src, p, last, m, q, n);
  if (n == 0)
    return nullptr;
  if (n > 19)
    {
      /* "0.000123…": the zeros before the first other digit are no
       * significant digits (m holds the value of the others) */
      for (const char *z = digits; z < p && (*z == '0' || *z == '.'); z++)
        n -= *z == '0';
      if (n > 19)
        return nullptr;
    }
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
      *out = with_sign (v, negative);
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

/* A text of fewer than eight bytes, copied where eight zero bytes follow
 * it (two overlapping loads of four bytes, or the bytes one by one). */
__attribute__ ((noinline)) const char *
scan_short (const char *first, const char *last, double *out)
{
  std::size_t len = (std::size_t) (last - first);
  char buf[8];
  std::uint64_t v = 0;
  const char *end;

  if (len >= 4)
    {
      std::uint32_t a, b;

      std::memcpy (&a, first, 4);
      std::memcpy (&b, last - 4, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
      a = __builtin_bswap32 (a);
      b = __builtin_bswap32 (b);
#endif
      v = a | ((std::uint64_t) b << (8 * (len - 4)));
    }
  else
    for (std::size_t i = 0; i < len; i++)
      v |= (std::uint64_t) (unsigned char) first[i] << (8 * i);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  v = __builtin_bswap64 (v);
#endif
  std::memcpy (buf, &v, 8);
  end = scan_common (Source<true> { buf, v }, buf, buf + len, out);
  return end != nullptr ? first + (end - buf) : nullptr;
}

} // namespace

extern "C" const char *
xrlab_dtoa_scan (const char *first, const char *last, double *out,
                 XrlabDtoaKind *kind)
{
  const char *end = last - first >= 8 ? scan_common (Source<false> { first, 0 }, first, last, out)
                                      : scan_short (first, last, out);

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
  double v = NAN;
  const char *end = last - first >= 8 ? scan_common (Source<false> { first, 0 }, first, last, &v)
                                      : scan_short (first, last, &v);

  if (__builtin_expect (end == last && std::isfinite (v), 1))
    {
      *out = v;
      return 1;
    }
  return 0;
}
