/* xrlab-sweep.c -- an energy sweep and the units it is entered in
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-sweep.h"

#include <math.h>

#include <glib/gi18n-lib.h>

G_DEFINE_QUARK (xrlab-sweep-error-quark, xrlab_sweep_error)

gboolean
xrlab_sweep_equal (const XrlabSweep *a, const XrlabSweep *b)
{
  return a->start == b->start && a->stop == b->stop && a->points == b->points &&
         !a->log == !b->log && a->unit == b->unit && a->table == b->table;
}

const XrlabEnergyRange *
xrlab_sweep_get_range (const XrlabSweep *sweep)
{
  return xrlab_energy_range_get_for_choice (sweep->table);
}

const XrlabEnergyRange *
xrlab_sweep_get_default_range (void)
{
  return xrlab_energy_range_get (XRLAB_TABLE_HENKE);
}

char *
xrlab_format_energy (double ev, XrlabEnergyUnit unit)
{
  double v = xrlab_energy_convert (ev, XRLAB_ENERGY_UNIT_EV, unit);
  return g_strdup_printf ("%.5g %s", v, xrlab_energy_unit_get_name (unit));
}

void
xrlab_sweep_energy_range (const XrlabSweep *sweep, double *min_ev, double *max_ev)
{
  double a = xrlab_energy_convert (sweep->start, sweep->unit, XRLAB_ENERGY_UNIT_EV);
  double b = xrlab_energy_convert (sweep->stop, sweep->unit, XRLAB_ENERGY_UNIT_EV);

  *min_ev = MIN (a, b);
  *max_ev = MAX (a, b);
}

static char *
range_text (double min_ev, double max_ev, XrlabEnergyUnit unit)
{
  double a = xrlab_energy_convert (min_ev, XRLAB_ENERGY_UNIT_EV, unit);
  double b = xrlab_energy_convert (max_ev, XRLAB_ENERGY_UNIT_EV, unit);

  /* Round the shown limits inwards so that typing them back is valid. */
  return g_strdup_printf ("%.5g – %.5g %s", MIN (a, b) * (1 + 1e-12), MAX (a, b) * (1 - 1e-12),
                          xrlab_energy_unit_get_name (unit));
}

static gboolean
validate_range (const XrlabSweep *sweep, const XrlabEnergyRange *range, const char *valid,
                GError **error)
{
  const gboolean wavelength = sweep->unit == XRLAB_ENERGY_UNIT_ANGSTROM;
  double lo_ev, hi_ev, limit_ev, e_ev;
  gboolean below;
  g_autofree char *e = NULL;
  g_autofree char *limit = NULL;

  xrlab_sweep_energy_range (sweep, &lo_ev, &hi_ev);
  if (xrlab_energy_place (lo_ev, range->complete_min_ev, range->max_ev, NULL) == XRLAB_ENERGY_BELOW)
    {
      e_ev = lo_ev;
      limit_ev = range->complete_min_ev;
      below = TRUE;
    }
  else if (xrlab_energy_place (hi_ev, range->complete_min_ev, range->max_ev, NULL) == XRLAB_ENERGY_ABOVE)
    {
      e_ev = hi_ev;
      limit_ev = range->max_ev;
      below = FALSE;
    }
  else
    return TRUE;

  e = xrlab_format_energy (e_ev, sweep->unit);
  limit = xrlab_format_energy (limit_ev, sweep->unit);
  if (below)
    g_set_error (error, XRLAB_SWEEP_ERROR, XRLAB_SWEEP_ERROR_RANGE,
                 wavelength
                 /* TRANSLATORS: the second %s is the name of a table ("Henke") */
                 ? _("%s is beyond the longest wavelength of the %s tables, %s (valid: %s)")
                 /* TRANSLATORS: the second %s is the name of a table ("Henke") */
                 : _("%s is below the lowest energy of the %s tables, %s (valid: %s)"),
                 e, range->name, limit, valid);
  else
    g_set_error (error, XRLAB_SWEEP_ERROR, XRLAB_SWEEP_ERROR_RANGE,
                 wavelength
                 /* TRANSLATORS: the second %s is the name of a table ("Henke") */
                 ? _("%s is below the shortest wavelength of the %s tables, %s (valid: %s)")
                 /* TRANSLATORS: the second %s is the name of a table ("Henke") */
                 : _("%s is above the highest energy of the %s tables, %s (valid: %s)"),
                 e, range->name, limit, valid);
  return FALSE;
}

gboolean
xrlab_sweep_validate (const XrlabSweep       *sweep,
                      const XrlabEnergyRange *range,
                      GError                **error)
{
  const char *sym = xrlab_energy_unit_get_name (sweep->unit);
  g_autofree char *valid = range_text (range->complete_min_ev, range->max_ev, sweep->unit);

  if (!isfinite (sweep->start) || sweep->start <= 0)
    {
      g_set_error (error, XRLAB_SWEEP_ERROR, XRLAB_SWEEP_ERROR_INVALID,
                   _("Start must be a positive number (valid: %s)"), valid);
      return FALSE;
    }
  if (!isfinite (sweep->stop) || sweep->stop <= 0)
    {
      g_set_error (error, XRLAB_SWEEP_ERROR, XRLAB_SWEEP_ERROR_INVALID,
                   _("Stop must be a positive number (valid: %s)"), valid);
      return FALSE;
    }
  if (!(sweep->start < sweep->stop))
    {
      g_set_error (error, XRLAB_SWEEP_ERROR, XRLAB_SWEEP_ERROR_INVALID,
                   _("Start (%g %s) must be below stop (%g %s)"),
                   sweep->start, sym, sweep->stop, sym);
      return FALSE;
    }
  if (sweep->points < XRLAB_SWEEP_MIN_POINTS || sweep->points > XRLAB_SWEEP_MAX_POINTS)
    {
      g_set_error (error, XRLAB_SWEEP_ERROR, XRLAB_SWEEP_ERROR_INVALID,
                   _("Number of points %u is outside %d – %d"),
                   sweep->points, XRLAB_SWEEP_MIN_POINTS, XRLAB_SWEEP_MAX_POINTS);
      return FALSE;
    }
  return validate_range (sweep, range, valid, error);
}

void
xrlab_sweep_fill (const XrlabSweep *sweep, double *x, double *ev)
{
  g_return_if_fail (sweep->points >= 2);
  xrlab_energy_fill_range (sweep->start, sweep->stop, sweep->points,
                           sweep->log ? XRLAB_GRID_LOG : XRLAB_GRID_LINEAR, x);
  if (ev != NULL)
    for (guint i = 0; i < sweep->points; i++)
      ev[i] = xrlab_energy_convert (x[i], sweep->unit, XRLAB_ENERGY_UNIT_EV);
}
