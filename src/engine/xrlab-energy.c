/* xrlab-energy.c -- photon energies: units, grids and the energy-spec parser
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-energy.h"
#include "xrlab-energy-private.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "xrlab-constants.h"
#include "xrlab-util.h"

G_DEFINE_QUARK (xrlab-optics-error-quark, xrlab_optics_error)

/* ---- tables and their energy ranges -------------------------------------- */

/* In XrlabTable order. Henke: f2 from 10 eV (Zr from 1 eV), f1 from 29.3 eV
 * at the latest (Si and most elements), both to 30 keV, valid from 30 eV
 * (xrlab-elements.h); Chantler: every element from 1.01 eV to 966266.74 eV
 * at least. The test /optics/ranges checks these numbers against the
 * tables themselves. */
static const XrlabEnergyRange ranges[XRLAB_TABLE_N_TABLES] = {
  [XRLAB_TABLE_HENKE] = {
    XRLAB_TABLE_HENKE, "henke", "Henke", 30.0, 30000.0, 30.0,
  },
  [XRLAB_TABLE_CHANTLER] = {
    XRLAB_TABLE_CHANTLER, "chantler", "Chantler", 1.01, 966266.74, 1.01,
  },
};

const XrlabEnergyRange *
xrlab_energy_range_get (XrlabTable table)
{
  g_return_val_if_fail ((guint) table < XRLAB_TABLE_N_TABLES, NULL);
  return &ranges[table];
}

const XrlabEnergyRange *
xrlab_energy_range_get_for_choice (XrlabTableChoice choice)
{
  g_return_val_if_fail ((guint) choice < XRLAB_TABLE_CHOICE_N, NULL);
  if (choice == XRLAB_TABLE_CHOICE_AUTO)
    return &ranges[XRLAB_TABLE_CHANTLER];
  return &ranges[(XrlabTable) choice];
}

XrlabTable
xrlab_energy_choose_table (XrlabTableChoice choice, double min_kev, double max_kev)
{
  const XrlabEnergyRange *h = &ranges[XRLAB_TABLE_HENKE];

  g_return_val_if_fail ((guint) choice < XRLAB_TABLE_CHOICE_N, XRLAB_TABLE_HENKE);
  if (choice != XRLAB_TABLE_CHOICE_AUTO)
    return (XrlabTable) choice;
  if (xrlab_energy_place (min_kev * 1000.0, h->min_ev, h->max_ev, NULL) == XRLAB_ENERGY_INSIDE
      && xrlab_energy_place (max_kev * 1000.0, h->min_ev, h->max_ev, NULL) == XRLAB_ENERGY_INSIDE)
    return XRLAB_TABLE_HENKE;
  return XRLAB_TABLE_CHANTLER;
}

/* ---- units ---------------------------------------------------------------- */

gboolean
xrlab_energy_unit_parse (const char *text, XrlabEnergyUnit *unit)
{
  XrlabEnergyUnit u;

  if (text == NULL)
    return FALSE;
  if (g_ascii_strcasecmp (text, "keV") == 0)
    u = XRLAB_ENERGY_UNIT_KEV;
  else if (g_ascii_strcasecmp (text, "eV") == 0)
    u = XRLAB_ENERGY_UNIT_EV;
  else if (g_ascii_strcasecmp (text, "A") == 0 || strcmp (text, "Å") == 0
           || g_ascii_strcasecmp (text, "Angstrom") == 0)
    u = XRLAB_ENERGY_UNIT_ANGSTROM;
  else
    return FALSE;
  if (unit)
    *unit = u;
  return TRUE;
}

const char *
xrlab_energy_unit_get_name (XrlabEnergyUnit unit)
{
  switch (unit)
    {
    case XRLAB_ENERGY_UNIT_KEV: return "keV";
    case XRLAB_ENERGY_UNIT_EV: return "eV";
    case XRLAB_ENERGY_UNIT_ANGSTROM: return "Å";
    default: return "?";
    }
}

double
xrlab_kev_to_angstrom (double energy_kev)
{
  return XRLAB_HC_KEV_A / energy_kev;
}

double
xrlab_angstrom_to_kev (double wavelength_a)
{
  return XRLAB_HC_KEV_A / wavelength_a;
}

double
xrlab_energy_to_kev (double value, XrlabEnergyUnit unit)
{
  switch (unit)
    {
    case XRLAB_ENERGY_UNIT_EV: return value / 1000.0;
    case XRLAB_ENERGY_UNIT_ANGSTROM: return XRLAB_HC_KEV_A / value;
    case XRLAB_ENERGY_UNIT_KEV:
    default: return value;
    }
}

const char *
xrlab_energy_unit_get_id (XrlabEnergyUnit unit)
{
  switch (unit)
    {
    case XRLAB_ENERGY_UNIT_KEV: return "keV";
    case XRLAB_ENERGY_UNIT_EV: return "eV";
    case XRLAB_ENERGY_UNIT_ANGSTROM: return "A";
    default: return "?";
    }
}

gboolean
xrlab_energy_unit_from_id (const char *id, XrlabEnergyUnit *unit)
{
  XrlabEnergyUnit u;

  if (id == NULL)
    return FALSE;
  if (strcmp (id, "eV") == 0)
    u = XRLAB_ENERGY_UNIT_EV;
  else if (strcmp (id, "keV") == 0)
    u = XRLAB_ENERGY_UNIT_KEV;
  else if (strcmp (id, "A") == 0 || strcmp (id, "Å") == 0)
    u = XRLAB_ENERGY_UNIT_ANGSTROM;
  else
    return FALSE;
  if (unit)
    *unit = u;
  return TRUE;
}

double
xrlab_energy_from_kev (double energy_kev, XrlabEnergyUnit unit)
{
  switch (unit)
    {
    case XRLAB_ENERGY_UNIT_EV: return energy_kev * 1000.0;
    case XRLAB_ENERGY_UNIT_ANGSTROM: return XRLAB_HC_KEV_A / energy_kev;
    case XRLAB_ENERGY_UNIT_KEV:
    default: return energy_kev;
    }
}

double
xrlab_energy_convert (double value, XrlabEnergyUnit from, XrlabEnergyUnit to)
{
  if (from == to)
    return value;
  if (from == XRLAB_ENERGY_UNIT_EV && to == XRLAB_ENERGY_UNIT_KEV)
    return value / 1000.0;
  if (from == XRLAB_ENERGY_UNIT_KEV && to == XRLAB_ENERGY_UNIT_EV)
    return value * 1000.0;
  return xrlab_energy_from_kev (xrlab_energy_to_kev (value, from), to);
}

/* ---- grids ---------------------------------------------------------------- */

void
xrlab_energy_fill_range (double start, double stop, gsize n, XrlabGridSpacing spacing,
                         double *values)
{
  g_return_if_fail (n >= 2);
  for (gsize i = 0; i < n; i++)
    {
      double t = (double) i / (double) (n - 1);
      if (spacing == XRLAB_GRID_LOG)
        values[i] = start * pow (stop / start, t);
      else
        values[i] = start + (stop - start) * t;
    }
  values[0] = start;
  values[n - 1] = stop;
}

/* " (point 3)" for grids of more than one point. */
char *
xrlab_energy_point_suffix (gsize i, gsize n)
{
  if (n <= 1)
    return g_strdup ("");
  return g_strdup_printf (_(" (point %zu)"), i + 1);
}

/* @x as "%g" (ASCII) with as many more digits as it takes for the printed
 * number to lie on the same side of @other as @x does: a range's bounds and
 * an energy outside it print so that the reader sees which side it is on
 * (0.4132806 Å is "30.000004 keV" beside the bound 30 keV, where "%g"
 * gives 30). */
static const char *
format_apart (double x, double other, char *buf, gsize size)
{
  for (int digits = 6; digits <= 17; digits++)
    {
      char format[8];
      double printed;

      g_snprintf (format, sizeof format, "%%.%dg", digits);
      g_ascii_formatd (buf, (int) size, format, x);
      printed = g_ascii_strtod (buf, NULL);
      if ((x < other) == (printed < other) && (x > other) == (printed > other))
        break;
    }
  return buf;
}

gboolean
xrlab_energy_check_value (double value, XrlabEnergyUnit unit, gsize i, gsize n,
                          const XrlabEnergyRange *range, double *energy_kev, GError **error)
{
  const double min_kev = range->min_ev / 1000.0, max_kev = range->max_ev / 1000.0;
  g_autofree char *where = NULL;
  char buf[XRLAB_DTOA_BUFSIZE], lo[32], hi[32], lo_kev[32], hi_kev[32], ekev[32];
  double e;

  /* The fast path: a valid energy costs a few comparisons. */
  e = isfinite (value) && value > 0.0 ? xrlab_energy_to_kev (value, unit) : NAN;
  if (e >= min_kev && e <= max_kev)
    {
      *energy_kev = e;
      return TRUE;
    }
  where = xrlab_energy_point_suffix (i, n);
  if (!isfinite (value))
    {
      g_set_error (error, XRLAB_OPTICS_ERROR, XRLAB_OPTICS_ERROR_ENERGY,
                   unit == XRLAB_ENERGY_UNIT_ANGSTROM
                   ? _("Wavelength “%s”%s is not a finite number")
                   : _("Energy “%s”%s is not a finite number"),
                   xrlab_format_double (value, buf), where);
      return FALSE;
    }
  if (!(value > 0.0))
    {
      if (unit == XRLAB_ENERGY_UNIT_ANGSTROM)
        g_set_error (error, XRLAB_OPTICS_ERROR, XRLAB_OPTICS_ERROR_ENERGY,
                     _("Wavelength %s Å%s must be positive"),
                     xrlab_format_double (value, buf), where);
      else
        g_set_error (error, XRLAB_OPTICS_ERROR, XRLAB_OPTICS_ERROR_ENERGY,
                     _("Energy %s %s%s must be positive"),
                     xrlab_format_double (value, buf), xrlab_energy_unit_get_name (unit), where);
      return FALSE;
    }
  if (xrlab_energy_place (e, min_kev, max_kev, &e) == XRLAB_ENERGY_INSIDE)
    {
      *energy_kev = e;
      return TRUE;
    }
  format_apart (min_kev, e, lo_kev, sizeof lo_kev);
  format_apart (max_kev, e, hi_kev, sizeof hi_kev);
  if (unit == XRLAB_ENERGY_UNIT_ANGSTROM)
    g_set_error (error, XRLAB_OPTICS_ERROR, XRLAB_OPTICS_ERROR_ENERGY,
                 /* TRANSLATORS: the third %s is the name of a table ("Henke") */
                 _("Wavelength %s Å (%s keV)%s is outside the %s tables: "
                   "%s–%s Å (%s–%s keV)"),
                 xrlab_format_double (value, buf),
                 format_apart (e, e < min_kev ? min_kev : max_kev, ekev, sizeof ekev),
                 where, range->name,
                 format_apart (xrlab_kev_to_angstrom (max_kev), value, lo, sizeof lo),
                 format_apart (xrlab_kev_to_angstrom (min_kev), value, hi, sizeof hi),
                 lo_kev, hi_kev);
  else if (unit == XRLAB_ENERGY_UNIT_EV)
    g_set_error (error, XRLAB_OPTICS_ERROR, XRLAB_OPTICS_ERROR_ENERGY,
                 /* TRANSLATORS: the third %s is the name of a table ("Henke") */
                 _("Energy %s eV%s is outside the %s tables: %s–%s eV"),
                 xrlab_format_double (value, buf), where, range->name,
                 format_apart (range->min_ev, value, lo, sizeof lo),
                 format_apart (range->max_ev, value, hi, sizeof hi));
  else
    g_set_error (error, XRLAB_OPTICS_ERROR, XRLAB_OPTICS_ERROR_ENERGY,
                 /* TRANSLATORS: the third %s is the name of a table ("Henke") */
                 _("Energy %s keV%s is outside the %s tables: %s–%s keV"),
                 xrlab_format_double (value, buf), where, range->name, lo_kev, hi_kev);
  return FALSE;
}

static XrlabEnergyGrid *
grid_alloc (gsize n)
{
  XrlabEnergyGrid *g = g_new0 (XrlabEnergyGrid, 1);
  double *block = g_new (double, 5 * n);

  g_atomic_ref_count_init (&g->ref);
  g->n = n;
  g->energy_kev = block;
  g->energy_ev = block + n;
  g->wavelength_a = block + 2 * n;
  g->k_delta = block + 3 * n;
  g->k_mu = block + 4 * n;
  return g;
}

static gboolean
check_size (gsize n, GError **error)
{
  if (n == 0)
    {
      g_set_error (error, XRLAB_OPTICS_ERROR, XRLAB_OPTICS_ERROR_SPEC,
                   _("No energies given"));
      return FALSE;
    }
  if (n > XRLAB_ENERGY_GRID_MAX_POINTS)
    {
      g_set_error (error, XRLAB_OPTICS_ERROR, XRLAB_OPTICS_ERROR_SPEC,
                   g_dngettext (GETTEXT_PACKAGE,
                                "%zu energy is too many: at most %d per grid",
                                "%zu energies are too many: at most %d per grid", n),
                   n, XRLAB_ENERGY_GRID_MAX_POINTS);
      return FALSE;
    }
  return TRUE;
}

XrlabEnergyGrid *
xrlab_energy_grid_new_for_table (const double *values, gsize n, XrlabEnergyUnit unit,
                                 XrlabTableChoice choice, GError **error)
{
  const XrlabEnergyRange *range;
  XrlabEnergyGrid *g;

  g_return_val_if_fail ((guint) choice < XRLAB_TABLE_CHOICE_N, NULL);
  range = xrlab_energy_range_get_for_choice (choice);
  if (!check_size (n, error))
    return NULL;
  g = grid_alloc (n);
  g->min_kev = INFINITY;
  g->max_kev = -INFINITY;
  for (gsize i = 0; i < n; i++)
    {
      double e;

      if (!xrlab_energy_check_value (values[i], unit, i, n, range, &e, error))
        {
          xrlab_energy_grid_unref (g);
          return NULL;
        }
      g->energy_kev[i] = e;
      g->energy_ev[i] = e * 1000.0;
      g->wavelength_a[i] = (unit == XRLAB_ENERGY_UNIT_ANGSTROM) ? values[i] : xrlab_kev_to_angstrom (e);
      xrlab_energy_factors (g->wavelength_a[i], &g->k_delta[i], &g->k_mu[i]);
      g->min_kev = MIN (g->min_kev, e);
      g->max_kev = MAX (g->max_kev, e);
    }
  g->choice = choice;
  g->table = xrlab_energy_choose_table (choice, g->min_kev, g->max_kev);
  return g;
}

XrlabEnergyGrid *
xrlab_energy_grid_new (const double *values, gsize n, XrlabEnergyUnit unit, GError **error)
{
  return xrlab_energy_grid_new_for_table (values, n, unit, XRLAB_TABLE_CHOICE_HENKE, error);
}

XrlabEnergyGrid *
xrlab_energy_grid_new_range_for_table (double start, double stop, gsize n,
                                       XrlabGridSpacing spacing, XrlabEnergyUnit unit,
                                       XrlabTableChoice choice, GError **error)
{
  const XrlabEnergyRange *range;
  g_autofree double *v = NULL;
  double dummy;

  g_return_val_if_fail ((guint) choice < XRLAB_TABLE_CHOICE_N, NULL);
  range = xrlab_energy_range_get_for_choice (choice);
  if (n < 2)
    {
      g_set_error (error, XRLAB_OPTICS_ERROR, XRLAB_OPTICS_ERROR_SPEC,
                   _("A range needs at least 2 points, not %zu"), n);
      return NULL;
    }
  if (!check_size (n, error))
    return NULL;
  /* Check the ends first, so the message names them. */
  if (!xrlab_energy_check_value (start, unit, 0, 1, range, &dummy, error)
      || !xrlab_energy_check_value (stop, unit, 0, 1, range, &dummy, error))
    return NULL;
  if (start == stop)
    {
      char buf[XRLAB_DTOA_BUFSIZE];
      g_set_error (error, XRLAB_OPTICS_ERROR, XRLAB_OPTICS_ERROR_SPEC,
                   _("A range needs different start and stop, both are %s"),
                   xrlab_format_double (start, buf));
      return NULL;
    }
  v = g_new (double, n);
  xrlab_energy_fill_range (start, stop, n, spacing, v);
  return xrlab_energy_grid_new_for_table (v, n, unit, choice, error);
}

XrlabEnergyGrid *
xrlab_energy_grid_new_range (double start, double stop, gsize n,
                             XrlabGridSpacing spacing, XrlabEnergyUnit unit,
                             GError **error)
{
  return xrlab_energy_grid_new_range_for_table (start, stop, n, spacing, unit,
                                                XRLAB_TABLE_CHOICE_HENKE, error);
}

static gboolean
parse_spec_number (const char *text, const char *spec, const char *what, double *out, GError **error)
{
  g_autofree char *t = g_strstrip (g_strdup (text));

  if (t[0] == '\0')
    {
      g_set_error (error, XRLAB_OPTICS_ERROR, XRLAB_OPTICS_ERROR_SPEC,
                   _("Energy spec “%s”: the %s is missing"), spec, what);
      return FALSE;
    }
  /* Decimal only: strtod would read "0x10" as 16. */
  if (strpbrk (t, "xX") != NULL || !xrlab_parse_double (t, TRUE, out))
    {
      g_set_error (error, XRLAB_OPTICS_ERROR, XRLAB_OPTICS_ERROR_SPEC,
                   _("Energy spec “%s”: the %s “%s” is not a number"), spec, what, t);
      return FALSE;
    }
  return TRUE;
}

/* "5,10,15": the items of @s. */
static XrlabEnergyGrid *
parse_list (const char *s, XrlabEnergyUnit unit, XrlabTableChoice choice, GError **error)
{
  g_auto(GStrv) parts = NULL;
  g_autofree double *v = NULL;
  guint n;

  if (strchr (s, ':') != NULL)
    {
      g_set_error (error, XRLAB_OPTICS_ERROR, XRLAB_OPTICS_ERROR_SPEC,
                   _("Energy spec “%s” mixes a list (“,”) and a range (“:”)"), s);
      return NULL;
    }
  parts = g_strsplit (s, ",", -1);
  n = g_strv_length (parts);
  v = g_new (double, n);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *what = g_strdup_printf (_("item %u"), i + 1);
      if (!parse_spec_number (parts[i], s, what, &v[i], error))
        return NULL;
    }
  return xrlab_energy_grid_new_for_table (v, n, unit, choice, error);
}

/* "a:b:n[:spacing]" or "a-b:n[:spacing]", split at ':' into @parts. */
static XrlabEnergyGrid *
parse_range (const char *s, char **parts, guint n_parts, XrlabEnergyUnit unit,
             XrlabTableChoice choice, GError **error)
{
  double start, stop, count;
  const char *count_text, *spacing_text = NULL;
  XrlabGridSpacing spacing = XRLAB_GRID_LINEAR;
  double dummy;

  /* "a-b:n[:log]" or "a:b:n[:log]". */
  if ((n_parts == 2 || n_parts == 3) && !xrlab_parse_double (parts[0], TRUE, &dummy)
      && strchr (parts[0], '-') != NULL)
    {
      /* Split at a '-' that is not an exponent sign. */
      char *a = parts[0], *dash = NULL;
      for (char *c = a + 1; *c; c++)
        if (*c == '-' && c[-1] != 'e' && c[-1] != 'E')
          {
            dash = c;
            break;
          }
      if (dash == NULL)
        {
          g_set_error (error, XRLAB_OPTICS_ERROR, XRLAB_OPTICS_ERROR_SPEC,
                       _("Energy spec “%s”: “%s” is not a number or a range “a-b”"), s, a);
          return NULL;
        }
      *dash = '\0';
      if (!parse_spec_number (a, s, _("start"), &start, error)
          || !parse_spec_number (dash + 1, s, _("stop"), &stop, error))
        return NULL;
      count_text = parts[1];
      spacing_text = (n_parts == 3) ? parts[2] : NULL;
    }
  else if (n_parts == 3 || n_parts == 4)
    {
      if (!parse_spec_number (parts[0], s, _("start"), &start, error)
          || !parse_spec_number (parts[1], s, _("stop"), &stop, error))
        return NULL;
      count_text = parts[2];
      spacing_text = (n_parts == 4) ? parts[3] : NULL;
    }
  else
    {
      g_set_error (error, XRLAB_OPTICS_ERROR, XRLAB_OPTICS_ERROR_SPEC,
                   _("Energy spec “%s” does not parse: give “10”, “5,10,15”, "
                     "“5:15:11”, “5-15:11” or “1:30:100:log”"), s);
      return NULL;
    }
  if (!parse_spec_number (count_text, s, _("number of points"), &count, error))
    return NULL;
  if (!(count == floor (count)) || count < 2 || count > XRLAB_ENERGY_GRID_MAX_POINTS)
    {
      g_autofree char *t = g_strstrip (g_strdup (count_text));
      g_set_error (error, XRLAB_OPTICS_ERROR, XRLAB_OPTICS_ERROR_SPEC,
                   _("Energy spec “%s”: the number of points “%s” must be a whole number from 2 to %d"),
                   s, t, XRLAB_ENERGY_GRID_MAX_POINTS);
      return NULL;
    }
  if (spacing_text != NULL)
    {
      g_autofree char *t = g_strstrip (g_strdup (spacing_text));
      if (g_ascii_strcasecmp (t, "log") == 0)
        spacing = XRLAB_GRID_LOG;
      else if (g_ascii_strcasecmp (t, "lin") == 0 || g_ascii_strcasecmp (t, "linear") == 0)
        spacing = XRLAB_GRID_LINEAR;
      else
        {
          g_set_error (error, XRLAB_OPTICS_ERROR, XRLAB_OPTICS_ERROR_SPEC,
                       _("Energy spec “%s”: the spacing “%s” must be “log” or “lin”"), s, t);
          return NULL;
        }
    }
  return xrlab_energy_grid_new_range_for_table (start, stop, (gsize) count, spacing, unit,
                                                choice, error);
}

XrlabEnergyGrid *
xrlab_energy_grid_parse_for_table (const char *spec, XrlabEnergyUnit unit,
                                   XrlabTableChoice choice, GError **error)
{
  g_auto(GStrv) parts = NULL;
  g_autofree char *s = NULL;
  double v;

  g_return_val_if_fail ((guint) choice < XRLAB_TABLE_CHOICE_N, NULL);
  if (spec == NULL || (s = g_strstrip (g_strdup (spec)))[0] == '\0')
    {
      g_set_error (error, XRLAB_OPTICS_ERROR, XRLAB_OPTICS_ERROR_SPEC,
                   _("Empty energy spec: give “10”, “5,10,15”, “5:15:11” or “1:30:100:log”"));
      return NULL;
    }
  if (strchr (s, ',') != NULL)
    return parse_list (s, unit, choice, error);
  /* One energy (a batch makes one grid per row of its own): as
   * parse_spec_number() reads it, without splitting or a message. */
  if (strchr (s, ':') == NULL && strpbrk (s, "xX") == NULL && xrlab_parse_double (s, TRUE, &v))
    return xrlab_energy_grid_new_for_table (&v, 1, unit, choice, error);

  parts = g_strsplit (s, ":", -1);
  if (parts[1] != NULL)
    return parse_range (s, parts, g_strv_length (parts), unit, choice, error);
  if (!parse_spec_number (parts[0], s, _("energy"), &v, error))
    return NULL;
  return xrlab_energy_grid_new_for_table (&v, 1, unit, choice, error);
}

XrlabEnergyGrid *
xrlab_energy_grid_parse (const char *spec, XrlabEnergyUnit unit, GError **error)
{
  return xrlab_energy_grid_parse_for_table (spec, unit, XRLAB_TABLE_CHOICE_HENKE, error);
}

XrlabEnergyGrid *
xrlab_energy_grid_ref (XrlabEnergyGrid *grid)
{
  g_return_val_if_fail (grid != NULL, NULL);
  g_atomic_ref_count_inc (&grid->ref);
  return grid;
}

void
xrlab_energy_grid_unref (XrlabEnergyGrid *grid)
{
  if (grid == NULL || !g_atomic_ref_count_dec (&grid->ref))
    return;
  g_free (grid->energy_kev);   /* the block of all five arrays */
  g_free (grid);
}

gsize
xrlab_energy_grid_get_size (const XrlabEnergyGrid *grid)
{
  return grid->n;
}

const double *
xrlab_energy_grid_get_energies_kev (const XrlabEnergyGrid *grid)
{
  return grid->energy_kev;
}

const double *
xrlab_energy_grid_get_wavelengths_a (const XrlabEnergyGrid *grid)
{
  return grid->wavelength_a;
}

double
xrlab_energy_grid_get_min_kev (const XrlabEnergyGrid *grid)
{
  return grid->min_kev;
}

double
xrlab_energy_grid_get_max_kev (const XrlabEnergyGrid *grid)
{
  return grid->max_kev;
}

XrlabTable
xrlab_energy_grid_get_table (const XrlabEnergyGrid *grid)
{
  return grid->table;
}

XrlabTableChoice
xrlab_energy_grid_get_table_choice (const XrlabEnergyGrid *grid)
{
  return grid->choice;
}
