/* xrlab-sweep.c -- an energy sweep and the units it is entered in
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-sweep.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

G_DEFINE_QUARK (xrlab-sweep-error-quark, xrlab_sweep_error)

gboolean
xrlab_sweep_equal (const XrlabSweep *a, const XrlabSweep *b)
{
  return a->start == b->start && a->stop == b->stop && a->points == b->points &&
         !a->log == !b->log && a->unit == b->unit;
}

const char *
xrlab_energy_unit_symbol (XrlabEnergyUnit unit)
{
  switch (unit)
    {
    case XRLAB_ENERGY_UNIT_EV: return "eV";
    case XRLAB_ENERGY_UNIT_KEV: return "keV";
    case XRLAB_ENERGY_UNIT_ANGSTROM: return "Å";
    default: return "?";
    }
}

const char *
xrlab_energy_unit_id (XrlabEnergyUnit unit)
{
  switch (unit)
    {
    case XRLAB_ENERGY_UNIT_EV: return "eV";
    case XRLAB_ENERGY_UNIT_KEV: return "keV";
    case XRLAB_ENERGY_UNIT_ANGSTROM: return "A";
    default: return "?";
    }
}

gboolean
xrlab_energy_unit_from_id (const char *id, XrlabEnergyUnit *unit)
{
  if (id == NULL)
    return FALSE;
  if (strcmp (id, "eV") == 0)
    *unit = XRLAB_ENERGY_UNIT_EV;
  else if (strcmp (id, "keV") == 0)
    *unit = XRLAB_ENERGY_UNIT_KEV;
  else if (strcmp (id, "A") == 0 || strcmp (id, "Å") == 0)
    *unit = XRLAB_ENERGY_UNIT_ANGSTROM;
  else
    return FALSE;
  return TRUE;
}

double
xrlab_energy_unit_to_ev (double value, XrlabEnergyUnit unit)
{
  switch (unit)
    {
    case XRLAB_ENERGY_UNIT_EV: return value;
    case XRLAB_ENERGY_UNIT_KEV: return value * 1e3;
    case XRLAB_ENERGY_UNIT_ANGSTROM: return XRLAB_HC_EV_ANGSTROM / value;
    default: return NAN;
    }
}

double
xrlab_energy_unit_from_ev (double ev, XrlabEnergyUnit unit)
{
  switch (unit)
    {
    case XRLAB_ENERGY_UNIT_EV: return ev;
    case XRLAB_ENERGY_UNIT_KEV: return ev * 1e-3;
    case XRLAB_ENERGY_UNIT_ANGSTROM: return XRLAB_HC_EV_ANGSTROM / ev;
    default: return NAN;
    }
}

char *
xrlab_format_energy (double ev, XrlabEnergyUnit unit)
{
  double v = xrlab_energy_unit_from_ev (ev, unit);
  return g_strdup_printf ("%.5g %s", v, xrlab_energy_unit_symbol (unit));
}

void
xrlab_sweep_energy_range (const XrlabSweep *sweep, double *min_ev, double *max_ev)
{
  double a = xrlab_energy_unit_to_ev (sweep->start, sweep->unit);
  double b = xrlab_energy_unit_to_ev (sweep->stop, sweep->unit);

  *min_ev = MIN (a, b);
  *max_ev = MAX (a, b);
}

static char *
range_text (double min_ev, double max_ev, XrlabEnergyUnit unit)
{
  double a = xrlab_energy_unit_from_ev (min_ev, unit);
  double b = xrlab_energy_unit_from_ev (max_ev, unit);

  /* Round the shown limits inwards so that typing them back is valid. */
  return g_strdup_printf ("%.5g – %.5g %s", MIN (a, b) * (1 + 1e-12), MAX (a, b) * (1 - 1e-12),
                          xrlab_energy_unit_symbol (unit));
}

gboolean
xrlab_sweep_validate (const XrlabSweep *sweep,
                      double            min_ev,
                      double            max_ev,
                      GError          **error)
{
  const char *sym = xrlab_energy_unit_symbol (sweep->unit);
  const double tol = 1e-9;
  double lo_ev, hi_ev;
  g_autofree char *range = range_text (min_ev, max_ev, sweep->unit);

  if (!isfinite (sweep->start) || sweep->start <= 0)
    {
      g_set_error (error, XRLAB_SWEEP_ERROR, XRLAB_SWEEP_ERROR_INVALID,
                   _("Start must be a positive number (valid: %s)"), range);
      return FALSE;
    }
  if (!isfinite (sweep->stop) || sweep->stop <= 0)
    {
      g_set_error (error, XRLAB_SWEEP_ERROR, XRLAB_SWEEP_ERROR_INVALID,
                   _("Stop must be a positive number (valid: %s)"), range);
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

  xrlab_sweep_energy_range (sweep, &lo_ev, &hi_ev);
  if (lo_ev < min_ev * (1 - tol))
    {
      g_autofree char *e = xrlab_format_energy (lo_ev, sweep->unit);
      g_autofree char *limit = xrlab_format_energy (min_ev, sweep->unit);
      g_set_error (error, XRLAB_SWEEP_ERROR, XRLAB_SWEEP_ERROR_RANGE,
                   sweep->unit == XRLAB_ENERGY_UNIT_ANGSTROM
                   ? _("%s is beyond the longest wavelength with f1 data in the Henke tables, %s (valid: %s)")
                   : _("%s is below the lowest energy with f1 data in the Henke tables, %s (valid: %s)"),
                   e, limit, range);
      return FALSE;
    }
  if (hi_ev > max_ev * (1 + tol))
    {
      g_autofree char *e = xrlab_format_energy (hi_ev, sweep->unit);
      g_autofree char *limit = xrlab_format_energy (max_ev, sweep->unit);
      g_set_error (error, XRLAB_SWEEP_ERROR, XRLAB_SWEEP_ERROR_RANGE,
                   sweep->unit == XRLAB_ENERGY_UNIT_ANGSTROM
                   ? _("%s is below the shortest wavelength of the Henke tables, %s (valid: %s)")
                   : _("%s is above the highest energy of the Henke tables, %s (valid: %s)"),
                   e, limit, range);
      return FALSE;
    }
  return TRUE;
}

void
xrlab_sweep_fill (const XrlabSweep *sweep, double *x, double *ev)
{
  guint n = sweep->points;

  g_return_if_fail (n >= 2);
  for (guint i = 0; i < n; i++)
    {
      double t = (double) i / (double) (n - 1);
      double v;
      if (i == n - 1)
        v = sweep->stop;
      else if (sweep->log)
        v = sweep->start * pow (sweep->stop / sweep->start, t);
      else
        v = sweep->start + t * (sweep->stop - sweep->start);
      x[i] = v;
      if (ev != NULL)
        ev[i] = xrlab_energy_unit_to_ev (v, sweep->unit);
    }
}
