/* xrlab-plot-data.c -- what an XrlabPlot draws
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-plot-data.h"

#include <math.h>
#include <string.h>

typedef struct {
  gpointer       buffer;
  GDestroyNotify free_func;
} Owner;

struct _XrlabPlotData {
  gatomicrefcount ref_count;
  GArray *series;   /* XrlabPlotSeries */
  GArray *owners;   /* Owner */
};

G_DEFINE_BOXED_TYPE (XrlabPlotData, xrlab_plot_data,
                     xrlab_plot_data_ref, xrlab_plot_data_unref)

static void
clear_series (gpointer p)
{
  XrlabPlotSeries *s = p;
  g_clear_pointer (&s->label, g_free);
}

XrlabPlotData *
xrlab_plot_data_new (void)
{
  XrlabPlotData *data = g_new0 (XrlabPlotData, 1);

  g_atomic_ref_count_init (&data->ref_count);
  data->series = g_array_new (FALSE, TRUE, sizeof (XrlabPlotSeries));
  g_array_set_clear_func (data->series, clear_series);
  data->owners = g_array_new (FALSE, TRUE, sizeof (Owner));
  return data;
}

XrlabPlotData *
xrlab_plot_data_ref (XrlabPlotData *data)
{
  g_return_val_if_fail (data != NULL, NULL);
  g_atomic_ref_count_inc (&data->ref_count);
  return data;
}

void
xrlab_plot_data_unref (XrlabPlotData *data)
{
  g_return_if_fail (data != NULL);
  if (!g_atomic_ref_count_dec (&data->ref_count))
    return;
  g_array_unref (data->series);
  for (guint i = 0; i < data->owners->len; i++)
    {
      Owner *o = &g_array_index (data->owners, Owner, i);
      if (o->free_func != NULL)
        o->free_func (o->buffer);
    }
  g_array_unref (data->owners);
  g_free (data);
}

void
xrlab_plot_data_take_buffer (XrlabPlotData  *data,
                             gpointer        buffer,
                             GDestroyNotify  free_func)
{
  Owner o = { buffer, free_func };

  g_return_if_fail (data != NULL);
  g_array_append_val (data->owners, o);
}

void
xrlab_plot_data_add_series (XrlabPlotData *data,
                            const char    *label,
                            const GdkRGBA *color,
                            const double  *x,
                            const double  *y,
                            gsize          n,
                            gboolean       stale)
{
  xrlab_plot_data_add_series_scaled (data, label, color, x, y, n, stale, 1.0);
}

void
xrlab_plot_data_add_series_scaled (XrlabPlotData *data,
                                   const char    *label,
                                   const GdkRGBA *color,
                                   const double  *x,
                                   const double  *y,
                                   gsize          n,
                                   gboolean       stale,
                                   double         y_scale)
{
  XrlabPlotSeries s = { 0 };

  g_return_if_fail (data != NULL);
  g_return_if_fail (color != NULL);
  g_return_if_fail (n == 0 || (x != NULL && y != NULL));

  s.label = g_strdup (label != NULL ? label : "");
  s.color = *color;
  s.x = x;
  s.y = y;
  s.n = n;
  s.stale = stale;
  s.y_scale = y_scale;
  g_array_append_val (data->series, s);
}

guint
xrlab_plot_data_get_n_series (const XrlabPlotData *data)
{
  g_return_val_if_fail (data != NULL, 0);
  return data->series->len;
}

const XrlabPlotSeries *
xrlab_plot_data_get_series (const XrlabPlotData *data,
                            guint                i)
{
  g_return_val_if_fail (data != NULL, NULL);
  g_return_val_if_fail (i < data->series->len, NULL);
  return &g_array_index (data->series, XrlabPlotSeries, i);
}

double
xrlab_plot_series_value_at (const XrlabPlotSeries *series,
                            double                 x,
                            gboolean               x_log)
{
  const double *xs;
  gsize lo, hi, n;
  gboolean increasing;
  double x0, x1, t;

  g_return_val_if_fail (series != NULL, NAN);
  n = series->n;
  xs = series->x;
  if (n == 0 || !isfinite (x))
    return NAN;
  if (n == 1)
    return x == xs[0] ? xrlab_plot_series_y (series, 0) : NAN;

  increasing = xs[n - 1] > xs[0];
  if (increasing ? (x < xs[0] || x > xs[n - 1]) : (x > xs[0] || x < xs[n - 1]))
    return NAN;

  /* Bisection for the bracketing interval [lo, hi]. */
  lo = 0;
  hi = n - 1;
  while (hi - lo > 1)
    {
      gsize mid = lo + (hi - lo) / 2;
      if ((xs[mid] <= x) == increasing)
        lo = mid;
      else
        hi = mid;
    }
  if (x == xs[lo])
    return xrlab_plot_series_y (series, lo);
  if (x == xs[hi])
    return xrlab_plot_series_y (series, hi);
  if (!isfinite (series->y[lo]) || !isfinite (series->y[hi]))
    return NAN;

  if (x_log && xs[lo] > 0 && xs[hi] > 0 && x > 0)
    {
      x0 = log10 (xs[lo]);
      x1 = log10 (xs[hi]);
      t = (log10 (x) - x0) / (x1 - x0);
    }
  else
    t = (x - xs[lo]) / (xs[hi] - xs[lo]);
  return (series->y[lo] + t * (series->y[hi] - series->y[lo])) * series->y_scale;
}

void
xrlab_plot_data_set_live (XrlabPlotData *data, guint i, gboolean live)
{
  g_return_if_fail (data != NULL);
  g_return_if_fail (i < data->series->len);
  g_array_index (data->series, XrlabPlotSeries, i).live = live;
}

static gboolean
same_values (const double *a, const double *b, gsize n)
{
  return a == b || memcmp (a, b, n * sizeof (double)) == 0;
}

gboolean
xrlab_plot_data_same_static (const XrlabPlotData *a, const XrlabPlotData *b)
{
  g_return_val_if_fail (a != NULL && b != NULL, FALSE);
  if (a->series->len != b->series->len)
    return FALSE;
  for (guint i = 0; i < a->series->len; i++)
    {
      const XrlabPlotSeries *p = &g_array_index (a->series, XrlabPlotSeries, i);
      const XrlabPlotSeries *q = &g_array_index (b->series, XrlabPlotSeries, i);

      if (p->live != q->live || p->stale != q->stale || p->n != q->n || p->y_scale != q->y_scale
          || g_strcmp0 (p->label, q->label) != 0 || !gdk_rgba_equal (&p->color, &q->color)
          || !same_values (p->x, q->x, p->n) || (!p->live && !same_values (p->y, q->y, p->n)))
        return FALSE;
    }
  return TRUE;
}
