/* xrlab-plot-pins.c -- the crosshair's readout of an XrlabPlot, and its
 * pinned readouts: the list of x values, and their values as a table
 * (tab-separated for the clipboard, CSV for a file)
 *
 * The pins are drawn by xrlab-plot-crosshair.c and set by a click
 * (xrlab-plot-input.c).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-plot-private.h"

#include <math.h>

#include "xrlab-plot-crosshair.h"
#include "xrlab-util.h"

void
xrlab_plot_set_crosshair (XrlabPlot *self, double x)
{
  g_return_if_fail (XRLAB_IS_PLOT (self));
  self->cross_x = x;
  self->cross_py = NAN;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

char *
xrlab_plot_get_readout (XrlabPlot *self)
{
  g_return_val_if_fail (XRLAB_IS_PLOT (self), NULL);
  return xrlab_plot_crosshair_readout (self->data, self->x_unit, self->cross_x, self->x_log);
}

void
xrlab_plot_add_pin (XrlabPlot *self, double x)
{
  g_return_if_fail (XRLAB_IS_PLOT (self));
  if (!isfinite (x) || self->pins->len >= 64)
    return;
  g_array_append_val (self->pins, x);
  xrlab_plot_view_changed (self);
}

void
xrlab_plot_remove_pin (XrlabPlot *self, guint index)
{
  g_return_if_fail (XRLAB_IS_PLOT (self));
  if (index >= self->pins->len)
    return;
  g_array_remove_index (self->pins, index);
  xrlab_plot_view_changed (self);
}

void
xrlab_plot_clear_pins (XrlabPlot *self)
{
  g_return_if_fail (XRLAB_IS_PLOT (self));
  if (self->pins->len == 0)
    return;
  g_array_set_size (self->pins, 0);
  xrlab_plot_view_changed (self);
}

void
xrlab_plot_set_pins (XrlabPlot *self, const double *x, guint n)
{
  g_return_if_fail (XRLAB_IS_PLOT (self));
  g_return_if_fail (n == 0 || x != NULL);
  g_array_set_size (self->pins, 0);
  for (guint i = 0; i < n && self->pins->len < 64; i++)
    if (isfinite (x[i]))
      g_array_append_val (self->pins, x[i]);
  xrlab_plot_view_changed (self);
}

const double *
xrlab_plot_get_pins (XrlabPlot *self, guint *n)
{
  g_return_val_if_fail (XRLAB_IS_PLOT (self), NULL);
  if (n != NULL)
    *n = self->pins->len;
  return (const double *) (const void *) self->pins->data;
}

static void
append_field (GString *s, const char *text, char separator)
{
  if (separator == ',')
    xrlab_csv_append_field (s, text);
  else
    for (const char *p = text; *p != '\0'; p++)
      g_string_append_c (s, *p == '\t' || *p == '\n' ? ' ' : *p);
}

static int
compare_double (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

char *
xrlab_plot_get_pins_table (XrlabPlot *self, char separator)
{
  g_autoptr(GArray) xs = NULL;
  GString *s;
  guint ns;

  g_return_val_if_fail (XRLAB_IS_PLOT (self), NULL);
  if (self->pins->len == 0)
    return NULL;
  xs = g_array_copy (self->pins);
  g_array_sort (xs, compare_double);
  ns = self->data != NULL ? xrlab_plot_data_get_n_series (self->data) : 0;

  s = g_string_new (NULL);
  {
    g_autofree char *head = self->x_unit != NULL && self->x_unit[0] != '\0'
                            ? g_strdup_printf ("%s (%s)", self->x_name != NULL ? self->x_name : "x", self->x_unit)
                            : g_strdup (self->x_name != NULL ? self->x_name : "x");
    append_field (s, head, separator);
  }
  for (guint k = 0; k < ns; k++)
    {
      const XrlabPlotSeries *ser = xrlab_plot_data_get_series (self->data, k);
      g_autofree char *head = self->y_unit != NULL && self->y_unit[0] != '\0'
                              ? g_strdup_printf ("%s (%s)", ser->label, self->y_unit)
                              : g_strdup (ser->label);
      g_string_append_c (s, separator);
      append_field (s, head, separator);
    }
  g_string_append_c (s, '\n');
  for (guint i = 0; i < xs->len; i++)
    {
      double x = g_array_index (xs, double, i);
      char buf[G_ASCII_DTOSTR_BUF_SIZE];
      g_string_append (s, g_ascii_formatd (buf, sizeof buf, "%.6g", x));
      for (guint k = 0; k < ns; k++)
        {
          double y = xrlab_plot_series_value_at (xrlab_plot_data_get_series (self->data, k), x, self->x_log);
          g_string_append_c (s, separator);
          if (isfinite (y))
            g_string_append (s, g_ascii_formatd (buf, sizeof buf, "%.6g", y));
        }
      g_string_append_c (s, '\n');
    }
  return g_string_free (s, FALSE);
}

int
xrlab_plot_pin_near (XrlabPlot *self, double px)
{
  int best = -1;
  double best_d = 5;

  for (guint i = 0; i < self->pins->len; i++)
    {
      double d = fabs (xrlab_plot_frame_x_to_px (&self->frame, g_array_index (self->pins, double, i)) - px);
      if (d <= best_d)
        {
          best = (int) i;
          best_d = d;
        }
    }
  return best;
}
