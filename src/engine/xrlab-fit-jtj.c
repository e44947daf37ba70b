/* xrlab-fit-jtj.c -- JᵀJ of the fit's Jacobian, the normal equations' matrix
 *
 * Up to 16 columns, every row's outer product is added to accumulators
 * held in vector registers (a constant column count for each case, so the
 * loops unroll): about 4× fewer instructions than four rows at a time
 * through memory. Products and sums are separate IEEE operations in the
 * same order on every instruction set (no fused multiply-add), so a fit
 * gives the same bits on every processor.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-fit-private.h"

#include <string.h>

#include "xrlab-clones.h"

#if defined(__GNUC__) && !defined(__clang__)
# define JTJ_CLONES XRLAB_CLONES __attribute__ ((optimize ("fp-contract=off")))
#else
# define JTJ_CLONES
#endif

/* Adds the lower triangle of RᵀR of @nrows rows R (row-major, pf columns)
 * to @jtj, four rows at a time: four independent products per entry keep
 * the FPU busy. For more than 16 columns. */
static void
jtj_add_rows_any (const double *R, gsize nrows, gsize pf, double *jtj)
{
  gsize i = 0;

  for (; i + 3 < nrows; i += 4)
    {
      const double *r0 = R + i * pf, *r1 = r0 + pf, *r2 = r1 + pf, *r3 = r2 + pf;
      for (gsize a = 0; a < pf; a++)
        {
          const double x0 = r0[a], x1 = r1[a], x2 = r2[a], x3 = r3[a];
          double *acc = jtj + a * pf;
          for (gsize b = 0; b <= a; b++)
            acc[b] += (x0 * r0[b] + x1 * r1[b]) + (x2 * r2[b] + x3 * r3[b]);
        }
    }
  for (; i < nrows; i++)
    {
      const double *row = R + i * pf;
      for (gsize a = 0; a < pf; a++)
        {
          const double ra = row[a];
          double *acc = jtj + a * pf;
          for (gsize b = 0; b <= a; b++)
            acc[b] += ra * row[b];
        }
    }
}

typedef double JtjVec __attribute__ ((vector_size (64)));

/* Row @r (pf ≤ 16 columns) as columns 0–7 (@lo) and 8–15 (@hi). Lanes
 * past pf hold what follows the row (the next row, or zeros where @whole
 * is FALSE and the row is copied: 16 doubles may not be read at @r): their
 * products land in lanes that are never read. */
static inline __attribute__ ((always_inline)) void
jtj_load_row (const double *r, gsize pf, gboolean whole, JtjVec *lo, JtjVec *hi)
{
  if (!whole)
    {
      double buf[16] = { 0 };

      for (gsize k = 0; k < pf; k++)
        buf[k] = r[k];
      memcpy (lo, buf, sizeof *lo);
      memcpy (hi, buf + 8, sizeof *hi);
      return;
    }
  memcpy (lo, r, sizeof *lo);
  memcpy (hi, r + 8, sizeof *hi);
}

/* RᵀR for a constant pf ≤ 16: each row's outer product added to register
 * accumulators, row a's columns 0–7 in lo[a] and, for a ≥ 8, its columns
 * 8–15 in hi[a − 8] (the lower triangle and the rest of its 8-column
 * block), in row order; then the lower triangle added to @jtj. The last
 * rows, where 16 doubles would reach past R, are copied first. */
static inline __attribute__ ((always_inline)) void
jtj_add_rows_small (const double *R, gsize nrows, const gsize pf, double *jtj)
{
  JtjVec lo[16], hi[8];
  const gsize whole = nrows * pf >= 16 ? (nrows * pf - 16) / pf + 1 : 0;

  for (gsize a = 0; a < pf; a++)
    lo[a] = (JtjVec) { 0 };
  for (gsize a = 8; a < pf; a++)
    hi[a - 8] = (JtjVec) { 0 };
  for (gsize i = 0; i < nrows; i++)
    {
      const double *r = R + i * pf;
      JtjVec xl, xh;

      jtj_load_row (r, pf, i < whole, &xl, &xh);
      for (gsize a = 0; a < pf; a++)
        {
          const double x = a < 8 ? xl[a] : xh[a - 8];

          lo[a] += x * xl;
          if (a >= 8)
            hi[a - 8] += x * xh;
        }
    }
  for (gsize a = 0; a < pf; a++)
    for (gsize b = 0; b <= a; b++)
      jtj[a * pf + b] += b < 8 ? lo[a][b] : hi[a - 8][b - 8];
}

JTJ_CLONES void
xrlab_fit_jtj_add_rows (const double *R, gsize nrows, gsize pf, double *jtj)
{
  switch (pf)
    {
#define JTJ_CASE(k) case k: jtj_add_rows_small (R, nrows, k, jtj); return;
      JTJ_CASE (1) JTJ_CASE (2) JTJ_CASE (3) JTJ_CASE (4) JTJ_CASE (5) JTJ_CASE (6)
      JTJ_CASE (7) JTJ_CASE (8) JTJ_CASE (9) JTJ_CASE (10) JTJ_CASE (11) JTJ_CASE (12)
      JTJ_CASE (13) JTJ_CASE (14) JTJ_CASE (15) JTJ_CASE (16)
#undef JTJ_CASE
    default:
      jtj_add_rows_any (R, nrows, pf, jtj);
    }
}
