/* xrlab-optics.c -- optical constants on energy grids
 *
 * Layout for speed: a grid keeps its per-energy factors (λ, r_e λ² N_A / 2π,
 * 2 r_e λ N_A) in separate arrays; a cache keeps f1 and f2 of each element
 * as arrays over the grid. A material is computed in blocks of BLOCK
 * energies: Σ n_i f1_i and Σ n_i f2_i go into two stack buffers that stay in
 * L1, then each requested quantity is one simple loop over the block.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-optics.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "xrlab-constants.h"
#include "xrlab-elements.h"
#include "xrlab-parallel.h"
#include "xrlab-util.h"

G_DEFINE_QUARK (xrlab-optics-error-quark, xrlab_optics_error)

#define BLOCK 256

/* Relative slack at the ends of a table: 0.0293 keV is 29.299999999999997 eV
 * in binary and must still count as 29.3 eV. */
#define EDGE_SLACK 1e-9

#define BIT(q) XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_##q)

/* Quantities that need Σ n_i f1_i, and those that need Σ n_i f2_i. */
#define NEEDS_F1 (BIT (DELTA) | BIT (F1) | BIT (CRITICAL_ANGLE_DEG) \
                  | BIT (CRITICAL_ANGLE_MRAD) | BIT (RE_SLD))
#define NEEDS_F2 (BIT (BETA) | BIT (F2) | BIT (ATTENUATION_LENGTH) | BIT (MU) \
                  | BIT (MU_RHO) | BIT (IM_SLD) | BIT (TRANSMISSION))
#define NEEDS_MU (BIT (ATTENUATION_LENGTH) | BIT (MU) | BIT (MU_RHO) | BIT (TRANSMISSION))
#define NEEDS_ANGLE (BIT (CRITICAL_ANGLE_DEG) | BIT (CRITICAL_ANGLE_MRAD))

/* ---- quantities --------------------------------------------------------- */

typedef struct {
  const char *column;
  const char *label;
  const char *unit;
} QuantityInfo;

static const QuantityInfo quantity_info[XRLAB_QUANTITY_N] = {
  [XRLAB_QUANTITY_WAVELENGTH]          = { "wavelength_A",          N_("Wavelength"),             "Å" },
  [XRLAB_QUANTITY_DELTA]               = { "delta",                 N_("δ"),                      "" },
  [XRLAB_QUANTITY_BETA]                = { "beta",                  N_("β"),                      "" },
  [XRLAB_QUANTITY_F1]                  = { "f1",                    N_("f1"),                     "e" },
  [XRLAB_QUANTITY_F2]                  = { "f2",                    N_("f2"),                     "e" },
  [XRLAB_QUANTITY_CRITICAL_ANGLE_DEG]  = { "critical_angle_deg",    N_("Critical angle"),         "°" },
  [XRLAB_QUANTITY_CRITICAL_ANGLE_MRAD] = { "critical_angle_mrad",   N_("Critical angle"),         "mrad" },
  [XRLAB_QUANTITY_ATTENUATION_LENGTH]  = { "attenuation_length_cm", N_("Attenuation length"),     "cm" },
  [XRLAB_QUANTITY_MU]                  = { "mu_per_cm",             N_("μ"),                      "1/cm" },
  [XRLAB_QUANTITY_MU_RHO]              = { "mu_rho_cm2_g",          N_("μ/ρ"),                    "cm²/g" },
  [XRLAB_QUANTITY_RE_SLD]              = { "re_sld_per_A2",         N_("SLD (real)"),             "Å⁻²" },
  [XRLAB_QUANTITY_IM_SLD]              = { "im_sld_per_A2",         N_("SLD (imaginary)"),        "Å⁻²" },
  [XRLAB_QUANTITY_TRANSMISSION]        = { "transmission",          N_("Transmission"),           "" },
};

const char *
xrlab_quantity_get_column (XrlabQuantity quantity)
{
  g_return_val_if_fail (quantity < XRLAB_QUANTITY_N, NULL);
  return quantity_info[quantity].column;
}

const char *
xrlab_quantity_get_label (XrlabQuantity quantity)
{
  g_return_val_if_fail (quantity < XRLAB_QUANTITY_N, NULL);
  return _(quantity_info[quantity].label);
}

const char *
xrlab_quantity_get_unit (XrlabQuantity quantity)
{
  g_return_val_if_fail (quantity < XRLAB_QUANTITY_N, NULL);
  return quantity_info[quantity].unit;
}

gboolean
xrlab_quantity_from_column (const char *column, XrlabQuantity *quantity)
{
  if (column == NULL)
    return FALSE;
  for (int q = 0; q < XRLAB_QUANTITY_N; q++)
    if (strcmp (column, quantity_info[q].column) == 0)
      {
        if (quantity)
          *quantity = (XrlabQuantity) q;
        return TRUE;
      }
  return FALSE;
}

guint
xrlab_quantity_mask_count (XrlabQuantityMask mask)
{
  return (guint) __builtin_popcount (mask & XRLAB_QUANTITY_MASK_ALL);
}

int
xrlab_quantity_mask_index (XrlabQuantityMask mask, XrlabQuantity quantity)
{
  if (quantity >= XRLAB_QUANTITY_N || !(mask & XRLAB_QUANTITY_BIT (quantity)))
    return -1;
  return __builtin_popcount (mask & (XRLAB_QUANTITY_BIT (quantity) - 1u));
}

/* ---- energies ----------------------------------------------------------- */

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

struct _XrlabEnergyGrid {
  gatomicrefcount ref;
  gsize n;
  double *energy_kev;
  double *energy_ev;     /* clamped into the table range, for interpolation */
  double *wavelength_a;
  double *k_delta;       /* r_e λ² N_A / (2π) [cm³/mol]: δ = k_delta (ρ/M) f1 */
  double *k_mu;          /* 2 r_e λ N_A [cm²/mol]:       μ = k_mu (ρ/M) f2 */
  double min_kev, max_kev;
};

/* " (point 3)" for grids of more than one point. */
static char *
point_suffix (gsize i, gsize n)
{
  if (n <= 1)
    return g_strdup ("");
  return g_strdup_printf (_(" (point %zu)"), i + 1);
}

static gboolean
check_energy (double value, XrlabEnergyUnit unit, gsize i, gsize n,
              double *energy_kev, GError **error)
{
  g_autofree char *where = NULL;
  char buf[XRLAB_DTOA_BUFSIZE];
  double e;

  /* The fast path: a valid energy costs a few comparisons. */
  e = isfinite (value) && value > 0.0 ? xrlab_energy_to_kev (value, unit) : NAN;
  if (e >= XRLAB_ENERGY_MIN_KEV && e <= XRLAB_ENERGY_MAX_KEV)
    {
      *energy_kev = e;
      return TRUE;
    }
  where = point_suffix (i, n);
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
  e = xrlab_energy_to_kev (value, unit);
  if (e < XRLAB_ENERGY_MIN_KEV && e >= XRLAB_ENERGY_MIN_KEV * (1 - EDGE_SLACK))
    e = XRLAB_ENERGY_MIN_KEV;
  if (e > XRLAB_ENERGY_MAX_KEV && e <= XRLAB_ENERGY_MAX_KEV * (1 + EDGE_SLACK))
    e = XRLAB_ENERGY_MAX_KEV;
  if (!(e >= XRLAB_ENERGY_MIN_KEV && e <= XRLAB_ENERGY_MAX_KEV))
    {
      if (unit == XRLAB_ENERGY_UNIT_ANGSTROM)
        g_set_error (error, XRLAB_OPTICS_ERROR, XRLAB_OPTICS_ERROR_ENERGY,
                     _("Wavelength %s Å (%.6g keV)%s is outside the Henke tables: "
                       "%.6g–%.6g Å (%g–%g keV)"),
                     xrlab_format_double (value, buf), e, where,
                     xrlab_kev_to_angstrom (XRLAB_ENERGY_MAX_KEV),
                     xrlab_kev_to_angstrom (XRLAB_ENERGY_MIN_KEV),
                     XRLAB_ENERGY_MIN_KEV, XRLAB_ENERGY_MAX_KEV);
      else if (unit == XRLAB_ENERGY_UNIT_EV)
        g_set_error (error, XRLAB_OPTICS_ERROR, XRLAB_OPTICS_ERROR_ENERGY,
                     _("Energy %s eV%s is outside the Henke tables: %g–%g eV"),
                     xrlab_format_double (value, buf), where,
                     XRLAB_ENERGY_MIN_KEV * 1000, XRLAB_ENERGY_MAX_KEV * 1000);
      else
        g_set_error (error, XRLAB_OPTICS_ERROR, XRLAB_OPTICS_ERROR_ENERGY,
                     _("Energy %s keV%s is outside the Henke tables: %g–%g keV"),
                     xrlab_format_double (value, buf), where,
                     XRLAB_ENERGY_MIN_KEV, XRLAB_ENERGY_MAX_KEV);
      return FALSE;
    }
  *energy_kev = e;
  return TRUE;
}

/* The per-energy factors. Shared by grids and xrlab_optics_compute_point()
 * so that both give the same numbers. */
static inline void
energy_factors (double wavelength_a, double *k_delta, double *k_mu)
{
  double lambda_cm = wavelength_a * 1e-8;

  *k_delta = XRLAB_ELECTRON_RADIUS_CM * lambda_cm * lambda_cm * XRLAB_AVOGADRO_PER_MOL / (2 * G_PI);
  *k_mu = 2 * XRLAB_ELECTRON_RADIUS_CM * lambda_cm * XRLAB_AVOGADRO_PER_MOL;
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
xrlab_energy_grid_new (const double *values, gsize n, XrlabEnergyUnit unit, GError **error)
{
  XrlabEnergyGrid *g;

  if (!check_size (n, error))
    return NULL;
  g = grid_alloc (n);
  g->min_kev = INFINITY;
  g->max_kev = -INFINITY;
  for (gsize i = 0; i < n; i++)
    {
      double e;

      if (!check_energy (values[i], unit, i, n, &e, error))
        {
          xrlab_energy_grid_unref (g);
          return NULL;
        }
      g->energy_kev[i] = e;
      g->energy_ev[i] = e * 1000.0;
      g->wavelength_a[i] = (unit == XRLAB_ENERGY_UNIT_ANGSTROM) ? values[i] : xrlab_kev_to_angstrom (e);
      energy_factors (g->wavelength_a[i], &g->k_delta[i], &g->k_mu[i]);
      g->min_kev = MIN (g->min_kev, e);
      g->max_kev = MAX (g->max_kev, e);
    }
  return g;
}

XrlabEnergyGrid *
xrlab_energy_grid_new_range (double start, double stop, gsize n,
                             XrlabGridSpacing spacing, XrlabEnergyUnit unit,
                             GError **error)
{
  g_autofree double *v = NULL;
  double dummy;

  if (n < 2)
    {
      g_set_error (error, XRLAB_OPTICS_ERROR, XRLAB_OPTICS_ERROR_SPEC,
                   _("A range needs at least 2 points, not %zu"), n);
      return NULL;
    }
  if (!check_size (n, error))
    return NULL;
  /* Check the ends first, so the message names them. */
  if (!check_energy (start, unit, 0, 1, &dummy, error)
      || !check_energy (stop, unit, 0, 1, &dummy, error))
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
  for (gsize i = 0; i < n; i++)
    {
      double t = (double) i / (double) (n - 1);
      if (spacing == XRLAB_GRID_LOG)
        v[i] = start * pow (stop / start, t);
      else
        v[i] = start + (stop - start) * t;
    }
  v[0] = start;
  v[n - 1] = stop;
  return xrlab_energy_grid_new (v, n, unit, error);
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
  if (!xrlab_parse_double (t, TRUE, out))
    {
      g_set_error (error, XRLAB_OPTICS_ERROR, XRLAB_OPTICS_ERROR_SPEC,
                   _("Energy spec “%s”: the %s “%s” is not a number"), spec, what, t);
      return FALSE;
    }
  return TRUE;
}

XrlabEnergyGrid *
xrlab_energy_grid_parse (const char *spec, XrlabEnergyUnit unit, GError **error)
{
  g_auto(GStrv) parts = NULL;
  g_autofree char *s = NULL;
  guint n_parts;

  if (spec == NULL || (s = g_strstrip (g_strdup (spec)))[0] == '\0')
    {
      g_set_error (error, XRLAB_OPTICS_ERROR, XRLAB_OPTICS_ERROR_SPEC,
                   _("Empty energy spec: give “10”, “5,10,15”, “5:15:11” or “1:30:100:log”"));
      return NULL;
    }

  if (strchr (s, ',') != NULL)
    {
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
      return xrlab_energy_grid_new (v, n, unit, error);
    }

  parts = g_strsplit (s, ":", -1);
  n_parts = g_strv_length (parts);
  if (n_parts == 1)
    {
      double v;
      if (!parse_spec_number (parts[0], s, _("energy"), &v, error))
        return NULL;
      return xrlab_energy_grid_new (&v, 1, unit, error);
    }
  else
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
      return xrlab_energy_grid_new_range (start, stop, (gsize) count, spacing, unit, error);
    }
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

/* ---- materials ---------------------------------------------------------- */

double
xrlab_optics_electron_density (const XrlabFormula *formula, double density_g_cm3)
{
  return density_g_cm3 * XRLAB_AVOGADRO_PER_MOL * xrlab_formula_get_electrons (formula)
         / xrlab_formula_get_molecular_weight (formula) * 1e-24;
}

static void
set_f1_range_error (GError **error, const XrlabHenkeTable *t, double energy_kev, gsize i, gsize n)
{
  g_autofree char *where = point_suffix (i, n);
  char buf[XRLAB_DTOA_BUFSIZE];

  g_set_error (error, XRLAB_OPTICS_ERROR, XRLAB_OPTICS_ERROR_ENERGY,
               _("Energy %s keV%s is below the f1 table of %s, which starts at %g keV: "
                 "δ, f1, the critical angle and the real SLD need %g–%g keV"),
               xrlab_format_double (energy_kev, buf), where,
               xrlab_element_get_symbol (t->z), t->f1_min_ev / 1000.0,
               t->f1_min_ev / 1000.0, t->max_ev / 1000.0);
}

/* Clamps @x into [lo, hi] when it lies within EDGE_SLACK of an end. */
static inline double
clamp_slack (double x, double lo, double hi)
{
  if (x < lo && x >= lo * (1 - EDGE_SLACK))
    return lo;
  if (x > hi && x <= hi * (1 + EDGE_SLACK))
    return hi;
  return x;
}

/* ---- the cache ---------------------------------------------------------- */

typedef struct {
  const XrlabHenkeTable *table;
  double *f1;
  double *f2;
  gsize f1_first_missing;   /* the first energy below the f1 table, or G_MAXSIZE */
} ElementCache;

struct _XrlabOpticsCache {
  XrlabEnergyGrid *grid;
  ElementCache *elements[XRLAB_ELEMENT_Z_MAX + 1];
  guint n_threads;
  guint n_interpolations;
};

XrlabOpticsCache *
xrlab_optics_cache_new (XrlabEnergyGrid *grid)
{
  XrlabOpticsCache *cache;

  g_return_val_if_fail (grid != NULL, NULL);
  cache = g_new0 (XrlabOpticsCache, 1);
  cache->grid = xrlab_energy_grid_ref (grid);
  return cache;
}

void
xrlab_optics_cache_free (XrlabOpticsCache *cache)
{
  if (cache == NULL)
    return;
  for (int z = 0; z <= XRLAB_ELEMENT_Z_MAX; z++)
    if (cache->elements[z])
      {
        g_free (cache->elements[z]->f1);   /* f1 and f2 are one block */
        g_free (cache->elements[z]);
      }
  xrlab_energy_grid_unref (cache->grid);
  g_free (cache);
}

XrlabEnergyGrid *
xrlab_optics_cache_get_grid (const XrlabOpticsCache *cache)
{
  return cache->grid;
}

void
xrlab_optics_cache_set_n_threads (XrlabOpticsCache *cache, guint n_threads)
{
  cache->n_threads = n_threads;
}

guint
xrlab_optics_cache_get_n_threads (const XrlabOpticsCache *cache)
{
  return cache->n_threads;
}

guint
xrlab_optics_cache_get_n_interpolations (const XrlabOpticsCache *cache)
{
  return cache->n_interpolations;
}

static const ElementCache *
cache_element (XrlabOpticsCache *cache, int z, GError **error)
{
  const XrlabEnergyGrid *g = cache->grid;
  const XrlabHenkeTable *t;
  ElementCache *ec;
  gsize h1 = 0, h2 = 0;

  if (z >= 1 && z <= XRLAB_ELEMENT_Z_MAX && cache->elements[z] != NULL)
    return cache->elements[z];
  t = xrlab_henke_get (z, error);
  if (t == NULL)
    return NULL;

  ec = g_new0 (ElementCache, 1);
  ec->table = t;
  ec->f1 = g_new (double, 2 * g->n);
  ec->f2 = ec->f1 + g->n;
  ec->f1_first_missing = G_MAXSIZE;
  for (gsize i = 0; i < g->n; i++)
    {
      double x1 = clamp_slack (g->energy_ev[i], t->f1_min_ev, t->max_ev);
      double x2 = clamp_slack (g->energy_ev[i], t->f2_min_ev, t->max_ev);

      if (x1 >= t->f1_min_ev)
        ec->f1[i] = xrlab_pchip_eval (t->f1, x1, &h1);
      else
        {
          ec->f1[i] = NAN;
          if (ec->f1_first_missing == G_MAXSIZE)
            ec->f1_first_missing = i;
        }
      ec->f2[i] = xrlab_pchip_eval (t->f2, x2, &h2);
    }
  cache->elements[z] = ec;
  cache->n_interpolations++;
  return ec;
}

const double *
xrlab_optics_cache_get_f1 (XrlabOpticsCache *cache, int z, GError **error)
{
  const ElementCache *ec = cache_element (cache, z, error);
  return ec ? ec->f1 : NULL;
}

const double *
xrlab_optics_cache_get_f2 (XrlabOpticsCache *cache, int z, GError **error)
{
  const ElementCache *ec = cache_element (cache, z, error);
  return ec ? ec->f2 : NULL;
}

/* Makes sure every element of @material is cached and the grid lies within
 * the f1 tables when @mask needs f1. Not thread safe (fills the cache). */
static gboolean
prepare_material (XrlabOpticsCache *cache, const XrlabOpticsMaterial *material,
                  XrlabQuantityMask mask, GError **error)
{
  const XrlabFormula *f;
  const int *z;
  gsize n;

  if (!xrlab_optics_check_material (material, mask, error))
    return FALSE;
  f = material->formula;
  z = xrlab_formula_get_z (f);
  n = xrlab_formula_get_n_atoms (f);
  for (gsize i = 0; i < n; i++)
    {
      const ElementCache *ec = cache_element (cache, z[i], error);
      if (ec == NULL)
        return FALSE;
      if ((mask & NEEDS_F1) && ec->f1_first_missing != G_MAXSIZE)
        {
          gsize k = ec->f1_first_missing;
          set_f1_range_error (error, ec->table, cache->grid->energy_kev[k], k, cache->grid->n);
          return FALSE;
        }
    }
  return TRUE;
}

/* ---- the kernel ---------------------------------------------------------- */

/* A material bound to a prepared cache: read-only, so any thread may use it. */
typedef struct {
  gsize n_atoms;
  const double *f1[XRLAB_ELEMENT_N_IDS];
  const double *f2[XRLAB_ELEMENT_N_IDS];
  double count[XRLAB_ELEMENT_N_IDS];
  double rho;          /* ρ [g/cm³] */
  double inv_rho;      /* 1/ρ */
  double rho_m;        /* ρ/M [mol/cm³] */
  double sld_factor;   /* r_e[Å] N_A ρ/M 1e-24 [Å⁻³ per e]: SLD = sld_factor f */
  double t_cm;         /* thickness [cm] */
} Bound;

static void
bind_material (const XrlabOpticsCache *cache, const XrlabOpticsMaterial *material, Bound *b)
{
  const XrlabFormula *f = material->formula;
  const int *z = xrlab_formula_get_z (f);
  const double *counts = xrlab_formula_get_counts (f);

  b->n_atoms = xrlab_formula_get_n_atoms (f);
  for (gsize i = 0; i < b->n_atoms; i++)
    {
      const ElementCache *ec = cache->elements[z[i]];
      b->f1[i] = ec->f1;
      b->f2[i] = ec->f2;
      b->count[i] = counts[i];
    }
  b->rho = material->density_g_cm3;
  b->inv_rho = 1.0 / material->density_g_cm3;
  b->rho_m = material->density_g_cm3 / xrlab_formula_get_molecular_weight (f);
  b->sld_factor = XRLAB_ELECTRON_RADIUS_A * XRLAB_AVOGADRO_PER_MOL * b->rho_m * 1e-24;
  b->t_cm = isfinite (material->thickness_um) ? material->thickness_um * 1e-4 : 0.0;
}

/* s[j] = Σ_i n_i f_i[e0 + j], j < nb (atoms in formula order). */
static inline void
sum_factors (const double *const *f, const double *count, gsize n_atoms,
             gsize e0, gsize nb, double *restrict s)
{
  const double *f0 = f[0] + e0;
  double c0 = count[0];

  for (gsize j = 0; j < nb; j++)
    s[j] = c0 * f0[j];
  for (gsize i = 1; i < n_atoms; i++)
    {
      const double *fi = f[i] + e0;
      double ci = count[i];
      for (gsize j = 0; j < nb; j++)
        s[j] += ci * fi[j];
    }
}

/* Critical angle [rad] from δ; NaN where δ < 0 (negative f1). */
static inline double
critical_angle (double delta)
{
  return delta >= 0.0 ? sqrt (2.0 * delta) : NAN;
}

/* Energies [e0, e1) of material @b into @out[q] (indexed by energy). */
static void
kernel (const XrlabEnergyGrid *g, const Bound *b, XrlabQuantityMask mask,
        gsize e0, gsize e1, double *const out[XRLAB_QUANTITY_N])
{
  double s1[BLOCK], s2[BLOCK];

  for (gsize e = e0; e < e1; e += BLOCK)
    {
      const gsize nb = MIN ((gsize) BLOCK, e1 - e);
      const double *kd = g->k_delta + e;
      const double *km = g->k_mu + e;
      const double rho_m = b->rho_m;

      if (mask & NEEDS_F1)
        sum_factors (b->f1, b->count, b->n_atoms, e, nb, s1);
      if (mask & NEEDS_F2)
        sum_factors (b->f2, b->count, b->n_atoms, e, nb, s2);

      if (mask & BIT (WAVELENGTH))
        memcpy (out[XRLAB_QUANTITY_WAVELENGTH] + e, g->wavelength_a + e, nb * sizeof (double));
      if (mask & BIT (F1))
        memcpy (out[XRLAB_QUANTITY_F1] + e, s1, nb * sizeof (double));
      if (mask & BIT (F2))
        memcpy (out[XRLAB_QUANTITY_F2] + e, s2, nb * sizeof (double));
      if (mask & BIT (DELTA))
        {
          double *restrict o = out[XRLAB_QUANTITY_DELTA] + e;
          for (gsize j = 0; j < nb; j++)
            o[j] = kd[j] * rho_m * s1[j];
        }
      if (mask & BIT (BETA))
        {
          double *restrict o = out[XRLAB_QUANTITY_BETA] + e;
          for (gsize j = 0; j < nb; j++)
            o[j] = kd[j] * rho_m * s2[j];
        }
      if (mask & NEEDS_ANGLE)
        {
          double *deg = (mask & BIT (CRITICAL_ANGLE_DEG)) ? out[XRLAB_QUANTITY_CRITICAL_ANGLE_DEG] + e : NULL;
          double *mrad = (mask & BIT (CRITICAL_ANGLE_MRAD)) ? out[XRLAB_QUANTITY_CRITICAL_ANGLE_MRAD] + e : NULL;
          for (gsize j = 0; j < nb; j++)
            {
              double theta = critical_angle (kd[j] * rho_m * s1[j]);
              if (deg)
                deg[j] = theta * (180.0 / G_PI);
              if (mrad)
                mrad[j] = theta * 1000.0;
            }
        }
      if (mask & NEEDS_MU)
        {
          double *mu = (mask & BIT (MU)) ? out[XRLAB_QUANTITY_MU] + e : NULL;
          double *att = (mask & BIT (ATTENUATION_LENGTH)) ? out[XRLAB_QUANTITY_ATTENUATION_LENGTH] + e : NULL;
          double *mur = (mask & BIT (MU_RHO)) ? out[XRLAB_QUANTITY_MU_RHO] + e : NULL;
          double *tr = (mask & BIT (TRANSMISSION)) ? out[XRLAB_QUANTITY_TRANSMISSION] + e : NULL;
          const double inv_rho = b->inv_rho, t_cm = b->t_cm;

          for (gsize j = 0; j < nb; j++)
            {
              double m = km[j] * rho_m * s2[j];
              if (mu)
                mu[j] = m;
              if (att)
                att[j] = 1.0 / m;
              if (mur)
                mur[j] = m * inv_rho;
              if (tr)
                tr[j] = exp (-m * t_cm);
            }
        }
      if (mask & BIT (RE_SLD))
        {
          double *restrict o = out[XRLAB_QUANTITY_RE_SLD] + e;
          const double k = b->sld_factor;
          for (gsize j = 0; j < nb; j++)
            o[j] = k * s1[j];
        }
      if (mask & BIT (IM_SLD))
        {
          double *restrict o = out[XRLAB_QUANTITY_IM_SLD] + e;
          const double k = b->sld_factor;
          for (gsize j = 0; j < nb; j++)
            o[j] = k * s2[j];
        }
    }
}

gboolean
xrlab_optics_compute (XrlabOpticsCache *cache, const XrlabOpticsMaterial *material,
                      XrlabQuantityMask quantities, double *const out[XRLAB_QUANTITY_N],
                      GError **error)
{
  Bound b;

  g_return_val_if_fail (cache != NULL && material != NULL && out != NULL, FALSE);
  quantities &= XRLAB_QUANTITY_MASK_ALL;
  for (int q = 0; q < XRLAB_QUANTITY_N; q++)
    g_return_val_if_fail (!(quantities & XRLAB_QUANTITY_BIT (q)) || out[q] != NULL, FALSE);

  if (!prepare_material (cache, material, quantities, error))
    return FALSE;
  bind_material (cache, material, &b);
  kernel (cache->grid, &b, quantities, 0, cache->grid->n, out);
  return TRUE;
}

/* ---- batch --------------------------------------------------------------- */

typedef struct {
  const XrlabOpticsCache *cache;
  const XrlabOpticsMaterial *materials;
  const gboolean *skip;       /* materials that failed preparation */
  gsize n_materials;
  XrlabQuantityMask mask;
  guint n_q;
  double *out;
  gsize chunk;                /* materials per chunk: one part of the loop */
  gsize done;                 /* atomic: materials done */
  GCancellable *cancellable;
  GThread *caller;            /* reports progress */
  XrlabOpticsProgressFunc progress;
  gpointer progress_data;
} BatchState;

static void
batch_chunk (BatchState *s, gsize c)
{
  const XrlabEnergyGrid *g = s->cache->grid;
  const gsize n_e = g->n;
  gsize m0 = c * s->chunk, m1 = MIN (m0 + s->chunk, s->n_materials);
  Bound b;

  for (gsize m = m0; m < m1; m++)
    {
      double *out[XRLAB_QUANTITY_N] = { NULL, };
      double *base = s->out + m * (gsize) s->n_q * n_e;
      guint k = 0;

      if (s->skip[m])
        continue;
      for (int q = 0; q < XRLAB_QUANTITY_N; q++)
        if (s->mask & XRLAB_QUANTITY_BIT (q))
          out[q] = base + (gsize) (k++) * n_e;
      bind_material (s->cache, &s->materials[m], &b);
      kernel (g, &b, s->mask, 0, n_e, out);
    }
  g_atomic_pointer_add (&s->done, (gssize) (m1 - m0));
}

/* One part of the pool's loop: one chunk, unless the batch is cancelled.
 * The calling thread reports progress after each of its chunks. */
static void
batch_part (gpointer data, guint part)
{
  BatchState *s = data;

  if (s->cancellable && g_cancellable_is_cancelled (s->cancellable))
    return;
  batch_chunk (s, part);
  if (s->progress != NULL && g_thread_self () == s->caller)
    s->progress ((gsize) g_atomic_pointer_get (&s->done), s->n_materials, s->progress_data);
}

gboolean
xrlab_optics_batch (XrlabOpticsCache *cache, const XrlabOpticsMaterial *materials,
                    gsize n_materials, XrlabQuantityMask quantities, double *out,
                    GError **material_errors, XrlabOpticsProgressFunc progress,
                    gpointer progress_data, GCancellable *cancellable, GError **error)
{
  g_autofree gboolean *skip = NULL;
  BatchState s = { 0, };
  XrlabParallel *pool = NULL;
  gsize n_e, n_chunks, points;

  g_return_val_if_fail (cache != NULL, FALSE);
  g_return_val_if_fail (n_materials == 0 || (materials != NULL && out != NULL), FALSE);
  quantities &= XRLAB_QUANTITY_MASK_ALL;

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;

  /* Check every material and interpolate the elements they need, here on
   * the calling thread: the parts below only read the cache. */
  skip = g_new0 (gboolean, MAX (n_materials, 1));
  for (gsize m = 0; m < n_materials; m++)
    {
      g_autoptr(GError) local = NULL;

      if (prepare_material (cache, &materials[m], quantities, &local))
        continue;
      if (local->domain == XRLAB_ELEMENT_ERROR)   /* damaged built-in data: everyone fails */
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return FALSE;
        }
      if (material_errors == NULL)
        {
          g_propagate_prefixed_error (error, g_steal_pointer (&local),
                                      _("Material %zu: "), m + 1);
          return FALSE;
        }
      skip[m] = TRUE;
      material_errors[m] = g_steal_pointer (&local);
    }

  n_e = cache->grid->n;
  s.cache = cache;
  s.materials = materials;
  s.skip = skip;
  s.n_materials = n_materials;
  s.mask = quantities;
  s.n_q = xrlab_quantity_mask_count (quantities);
  s.out = out;
  s.chunk = MAX ((gsize) 1, (gsize) 65536 / MAX (n_e, (gsize) 1));
  s.chunk = MAX (s.chunk, (n_materials + G_MAXUINT - 1) / G_MAXUINT);   /* parts are guint */
  n_chunks = (n_materials + s.chunk - 1) / s.chunk;
  s.cancellable = cancellable;
  s.caller = g_thread_self ();
  s.progress = progress;
  s.progress_data = progress_data;

  /* The one pool, unless told to stay on this thread; threads pay off from
   * about a million values. */
  points = n_materials * n_e * MAX (s.n_q, 1u);
  if (cache->n_threads != 1 && points >= 1000000)
    pool = xrlab_parallel_default ();
  xrlab_parallel_run (pool, (guint) n_chunks, batch_part, &s);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  if (progress)
    progress (n_materials, n_materials, progress_data);
  return TRUE;
}

/* ---- one point ------------------------------------------------------------ */

gboolean
xrlab_optics_compute_point (const XrlabOpticsMaterial *material, double energy_kev,
                            XrlabQuantityMask quantities, double values[XRLAB_QUANTITY_N],
                            GError **error)
{
  const XrlabFormula *f;
  const int *z;
  const double *counts;
  double e, ev, wl, kd, km, rho_m, s1 = 0.0, s2 = 0.0;
  gsize n;

  quantities &= XRLAB_QUANTITY_MASK_ALL;
  if (!xrlab_optics_check_material (material, quantities, error)
      || !check_energy (energy_kev, XRLAB_ENERGY_UNIT_KEV, 0, 1, &e, error))
    return FALSE;

  f = material->formula;
  z = xrlab_formula_get_z (f);
  counts = xrlab_formula_get_counts (f);
  n = xrlab_formula_get_n_atoms (f);
  ev = e * 1000.0;
  for (gsize i = 0; i < n; i++)
    {
      const XrlabHenkeTable *t = xrlab_henke_get (z[i], error);
      double x;

      if (t == NULL)
        return FALSE;
      if (quantities & NEEDS_F1)
        {
          x = clamp_slack (ev, t->f1_min_ev, t->max_ev);
          if (x < t->f1_min_ev)
            {
              set_f1_range_error (error, t, e, 0, 1);
              return FALSE;
            }
          s1 = (i == 0) ? counts[i] * xrlab_pchip_eval (t->f1, x, NULL)
                        : s1 + counts[i] * xrlab_pchip_eval (t->f1, x, NULL);
        }
      if (quantities & NEEDS_F2)
        {
          x = clamp_slack (ev, t->f2_min_ev, t->max_ev);
          s2 = (i == 0) ? counts[i] * xrlab_pchip_eval (t->f2, x, NULL)
                        : s2 + counts[i] * xrlab_pchip_eval (t->f2, x, NULL);
        }
    }

  wl = xrlab_kev_to_angstrom (e);
  energy_factors (wl, &kd, &km);
  rho_m = material->density_g_cm3 / xrlab_formula_get_molecular_weight (f);

  if (quantities & BIT (WAVELENGTH))
    values[XRLAB_QUANTITY_WAVELENGTH] = wl;
  if (quantities & BIT (F1))
    values[XRLAB_QUANTITY_F1] = s1;
  if (quantities & BIT (F2))
    values[XRLAB_QUANTITY_F2] = s2;
  if (quantities & BIT (DELTA))
    values[XRLAB_QUANTITY_DELTA] = kd * rho_m * s1;
  if (quantities & BIT (BETA))
    values[XRLAB_QUANTITY_BETA] = kd * rho_m * s2;
  if (quantities & NEEDS_ANGLE)
    {
      double theta = critical_angle (kd * rho_m * s1);
      if (quantities & BIT (CRITICAL_ANGLE_DEG))
        values[XRLAB_QUANTITY_CRITICAL_ANGLE_DEG] = theta * (180.0 / G_PI);
      if (quantities & BIT (CRITICAL_ANGLE_MRAD))
        values[XRLAB_QUANTITY_CRITICAL_ANGLE_MRAD] = theta * 1000.0;
    }
  if (quantities & NEEDS_MU)
    {
      double m = km * rho_m * s2;
      if (quantities & BIT (MU))
        values[XRLAB_QUANTITY_MU] = m;
      if (quantities & BIT (ATTENUATION_LENGTH))
        values[XRLAB_QUANTITY_ATTENUATION_LENGTH] = 1.0 / m;
      if (quantities & BIT (MU_RHO))
        values[XRLAB_QUANTITY_MU_RHO] = m * (1.0 / material->density_g_cm3);
      if (quantities & BIT (TRANSMISSION))
        values[XRLAB_QUANTITY_TRANSMISSION] = exp (-m * (material->thickness_um * 1e-4));
    }
  if (quantities & (BIT (RE_SLD) | BIT (IM_SLD)))
    {
      double k = XRLAB_ELECTRON_RADIUS_A * XRLAB_AVOGADRO_PER_MOL * rho_m * 1e-24;
      if (quantities & BIT (RE_SLD))
        values[XRLAB_QUANTITY_RE_SLD] = k * s1;
      if (quantities & BIT (IM_SLD))
        values[XRLAB_QUANTITY_IM_SLD] = k * s2;
    }
  return TRUE;
}

/* ---- the rule for a material's numbers ------------------------------------ */

gboolean
xrlab_optics_check_material (const XrlabOpticsMaterial *material, XrlabQuantityMask mask,
                             GError **error)
{
  char buf[XRLAB_DTOA_BUFSIZE];

  if (material->formula == NULL)
    {
      g_set_error (error, XRLAB_OPTICS_ERROR, XRLAB_OPTICS_ERROR_MATERIAL, _("No formula"));
      return FALSE;
    }
  if (!isfinite (material->density_g_cm3) || !(material->density_g_cm3 > 0.0))
    {
      g_set_error (error, XRLAB_OPTICS_ERROR, XRLAB_OPTICS_ERROR_MATERIAL,
                   _("Density %s g/cm³ of %s must be a positive number"),
                   xrlab_format_double (material->density_g_cm3, buf),
                   xrlab_formula_get_text (material->formula));
      return FALSE;
    }
  if ((mask & BIT (TRANSMISSION))
      && (!isfinite (material->thickness_um) || material->thickness_um < 0.0))
    {
      g_set_error (error, XRLAB_OPTICS_ERROR, XRLAB_OPTICS_ERROR_MATERIAL,
                   _("Thickness %s µm must be a number ≥ 0 to compute the transmission"),
                   xrlab_format_double (material->thickness_um, buf));
      return FALSE;
    }
  return TRUE;
}
