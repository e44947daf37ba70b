/* xrlab-plot-ticks.c -- tick positions and labels of a plot axis
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-plot-ticks.h"

#include <math.h>

/* "−3" with the Unicode minus sign (U+2212) for negative @e. */
static const char *
exponent_sign (int e)
{
  return e < 0 ? "−" : "";
}

void
xrlab_plot_format_tick_value (double  v,
                              double  step,
                              char   *buf,
                              gsize   size)
{
  double a = fabs (v);

  if (a < 1e-300 || (a >= 1e-3 && a < 1e5))
    {
      int decimals = 0;
      /* As many decimals as the step needs: 25 -> 0, 0.25 -> 2, 0.5 -> 1. */
      while (step > 0 && decimals < 10)
        {
          double scaled = step * pow (10, decimals);
          if (fabs (scaled - round (scaled)) < 1e-6 * scaled)
            break;
          decimals++;
        }
      g_snprintf (buf, size, "%.*f", decimals, a < 1e-300 ? 0.0 : v);
    }
  else
    {
      int e = (int) floor (log10 (a) + 1e-9);
      double m = v / pow (10, e);
      if (fabs (m - 1) < 1e-9)
        g_snprintf (buf, size, "10#u%s%d#d", exponent_sign (e), ABS (e));
      else if (fabs (m + 1) < 1e-9)
        g_snprintf (buf, size, "−10#u%s%d#d", exponent_sign (e), ABS (e));
      else
        g_snprintf (buf, size, "%g×10#u%s%d#d", round (m * 100) / 100, exponent_sign (e), ABS (e));
    }
  /* Unicode minus for negative numbers. */
  if (buf[0] == '-')
    {
      char tmp[64];
      g_snprintf (tmp, sizeof tmp, "−%s", buf + 1);
      g_strlcpy (buf, tmp, size);
    }
}

double
xrlab_plot_nice_step (double  raw,
                      double *norm_out)
{
  double mag = pow (10, floor (log10 (raw)));
  double norm = raw / mag;
  double n;

  if (norm < 1.5)
    n = 1;
  else if (norm < 2.25)
    n = 2;
  else if (norm < 3.5)
    n = 2.5;
  else if (norm < 7.5)
    n = 5;
  else
    n = 10;
  if (n == 10)
    {
      n = 1;
      mag *= 10;
    }
  *norm_out = n;
  return n * mag;
}

static void
add_tick (XrlabPlotTicks *axis, double pos, gboolean major, const char *label)
{
  if (axis->n >= XRLAB_PLOT_MAX_TICKS)
    return;
  axis->ticks[axis->n].pos = pos;
  axis->ticks[axis->n].major = major;
  g_strlcpy (axis->ticks[axis->n].label, label != NULL ? label : "",
             sizeof axis->ticks[0].label);
  axis->n++;
}

void
xrlab_plot_ticks_linear (XrlabPlotTicks *axis,
                         double          lo,
                         double          hi,
                         double          target,
                         gboolean        map_log,
                         gboolean        use_exponent)
{
  double norm, step, minor, first, big;
  int n_minor;

  step = xrlab_plot_nice_step ((hi - lo) / MAX (target, 1.0), &norm);
  n_minor = (norm == 2) ? 4 : 5;
  minor = step / n_minor;

  axis->n = 0;
  big = MAX (fabs (lo), fabs (hi));
  axis->exponent = 0;
  if (use_exponent && big > 0 && (big >= 1e5 || big < 1e-2))
    axis->exponent = (int) floor (log10 (big) + 1e-9);

  first = ceil (lo / minor - 1e-9) * minor;
  for (int k = 0; k < XRLAB_PLOT_MAX_TICKS * 2; k++)
    {
      double v = first + k * minor;
      double q = v / step;
      gboolean major;
      char label[48] = "";

      if (v > hi + minor * 1e-6)
        break;
      if (fabs (v) < minor * 1e-6)
        v = 0;
      major = fabs (q - round (q)) < 1e-6;
      if (map_log && v <= 0)
        continue;
      if (major)
        {
          if (axis->exponent != 0)
            {
              double s = pow (10, axis->exponent);
              xrlab_plot_format_tick_value (v / s, step / s, label, sizeof label);
            }
          else
            xrlab_plot_format_tick_value (v, step, label, sizeof label);
        }
      add_tick (axis, map_log ? log10 (v) : v, major, label);
    }
}

/* The mantissas labelled in each decade: the densest set whose closest
 * neighbours are at least 1.5 label slots apart (@per_decade slots to a
 * decade; 2 for labels "2×10⁻⁵", which are longer), of {1}, {1, 2, 5},
 * {1, 2, 3, 5}; always {1, 2, 5} on about a decade. */
static guint
log_label_set (double per_decade, gboolean plain, double span, const int **set)
{
  static const int one[] = { 1 }, s125[] = { 1, 2, 5 }, s1235[] = { 1, 2, 3, 5 };
  double need = plain ? 1.5 : 2.0;

  if (log10 (1.5) * per_decade >= need)
    {
      *set = s1235;
      return G_N_ELEMENTS (s1235);
    }
  if (span <= 1.6 || log10 (2.0) * per_decade >= need)
    {
      *set = s125;
      return G_N_ELEMENTS (s125);
    }
  *set = one;
  return 1;
}

void
xrlab_plot_ticks_log (XrlabPlotTicks *axis,
                      double          lo,
                      double          hi,
                      double          max_major)
{
  double span = hi - lo;
  int d, k0, k1;
  gboolean plain = TRUE;
  const int *set = NULL;
  guint n_set = 1;

  axis->n = 0;
  axis->exponent = 0;
  if (span < 0.9)
    {
      /* Less than a decade: linear ticks at log10 of their values, at
       * least four of them labelled. */
      xrlab_plot_ticks_linear (axis, pow (10, lo), pow (10, hi), MAX (4.0, max_major), TRUE, FALSE);
      return;
    }

  d = (int) ceil (span / MAX (max_major, 1.0));
  d = MAX (d, 1);
  k0 = (int) floor (lo);
  k1 = (int) ceil (hi);

  /* Plain numbers ("0.5", "20000") when every labelled value is moderate. */
  for (int k = k0; k <= k1; k++)
    {
      double v = pow (10, k);
      if (k + 0.7 < lo - 1e-9 || k > hi + 1e-9)
        continue;
      if (v < 1e-3 || v * (d == 1 ? 5 : 1) >= 1e5)
        plain = FALSE;
    }
  if (d == 1)
    n_set = log_label_set (max_major / span, plain, span, &set);

  for (int k = k0; k <= k1; k++)
    {
      for (int m = 1; m <= 9; m++)
        {
          double pos = k + log10 (m);
          gboolean major = (m == 1 && ((k % d) + d) % d == 0);
          char label[48] = "";

          if (pos < lo - 1e-9 || pos > hi + 1e-9)
            continue;
          if (m > 1 && d > 1)
            continue;          /* no 2..9 minors when decades are skipped */
          if (m == 1 && !major)
            {
              add_tick (axis, pos, FALSE, NULL);
              continue;
            }
          for (guint j = 1; j < n_set && d == 1; j++)
            if (m == set[j])
              major = TRUE;
          if (major)
            {
              double v = m * pow (10, k);
              if (plain)
                g_snprintf (label, sizeof label, "%g", v);
              else if (m == 1)
                g_snprintf (label, sizeof label, "10#u%s%d#d", exponent_sign (k), ABS (k));
              else
                g_snprintf (label, sizeof label, "%d×10#u%s%d#d", m, exponent_sign (k), ABS (k));
            }
          add_tick (axis, pos, major, label);
        }
    }
}
