/* xrlab-stack-values.c -- the values of the stack grammar: numbers with
 * units, gas conditions, mole fractions, the ideal gas law (see
 * xrlab-stack.h)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-stack.h"
#include "xrlab-stack-private.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "xrlab-constants.h"
#include "xrlab-presets.h"
#include "xrlab-util.h"

/* ---- numbers and units ------------------------------------------------- */

const XrlabStackUnit xrlab_stack_length_units[] = {
  { "nm", 1.0 }, { "A", 0.1 }, { "Å", 0.1 }, { "um", 1e3 }, { "µm", 1e3 },
  { "μm", 1e3 }, { "mm", 1e6 }, { "cm", 1e7 }, { "m", 1e9 }, { NULL, 0 },
};

const XrlabStackUnit *
xrlab_stack_find_unit (const XrlabStackUnit *units, const char *s, gsize len)
{
  for (const XrlabStackUnit *u = units; u->name; u++)
    if (strlen (u->name) == len && memcmp (u->name, s, len) == 0)
      return u;
  return NULL;
}

/* [*a, *b) without surrounding blanks. */
void
xrlab_stack_trim (const char *s, gsize *a, gsize *b)
{
  while (*a < *b && xrlab_stack_is_space (s[*a]))
    (*a)++;
  while (*b > *a && xrlab_stack_is_space (s[*b - 1]))
    (*b)--;
}

/* A decimal number at text[a..b): [+-]digits[.digits][(e|E)[+-]digits],
 * no hexadecimal, no "inf" or "nan". Returns the bytes it took (0 if none)
 * and the value (±inf on overflow, which every range check refuses). */
gsize
xrlab_stack_scan_number (const char *s, gsize a, gsize b, double *value)
{
  gsize i = a, digits = 0;
  char buf[64];

  if (i < b && (s[i] == '+' || s[i] == '-'))
    i++;
  while (i < b && g_ascii_isdigit (s[i]))
    i++, digits++;
  if (i < b && s[i] == '.')
    {
      i++;
      while (i < b && g_ascii_isdigit (s[i]))
        i++, digits++;
    }
  if (digits == 0)
    return 0;
  if (i < b && (s[i] == 'e' || s[i] == 'E'))
    {
      gsize j = i + 1;
      if (j < b && (s[j] == '+' || s[j] == '-'))
        j++;
      if (j < b && g_ascii_isdigit (s[j]))
        {
          while (j < b && g_ascii_isdigit (s[j]))
            j++;
          i = j;
        }
    }
  if (i - a >= sizeof buf)
    {
      /* Absurdly many digits: still a number, but read it from a copy. */
      g_autofree char *copy = g_strndup (s + a, i - a);
      *value = g_ascii_strtod (copy, NULL);
      return i - a;
    }
  memcpy (buf, s + a, i - a);
  buf[i - a] = '\0';
  *value = g_ascii_strtod (buf, NULL);
  return i - a;
}

/* A number with a unit from @units in text[a..b) (trimmed by the caller).
 * Returns FALSE when there is no number; *unit is NULL when the rest is
 * empty, and *unit_pos the byte where the unit starts. */
gboolean
xrlab_stack_scan_quantity (const char *s, gsize a, gsize b, const XrlabStackUnit *units,
                           double *value, const XrlabStackUnit **unit, gsize *unit_pos)
{
  gsize n = xrlab_stack_scan_number (s, a, b, value), u;

  if (n == 0)
    return FALSE;
  u = a + n;
  while (u < b && xrlab_stack_is_space (s[u]))
    u++;
  *unit_pos = u;
  *unit = (u < b) ? xrlab_stack_find_unit (units, s + u, b - u) : NULL;
  return TRUE;
}

const char *
xrlab_stack_length_unit_list (void)
{
  return "A, nm, um, mm, cm, m";
}

static const XrlabStackUnit pressure_units[] = {
  { "Pa", 1.0 }, { "hPa", 100.0 }, { "kPa", 1e3 }, { "mbar", 100.0 },
  { "bar", 1e5 }, { "atm", 101325.0 }, { "Torr", 101325.0 / 760.0 },
  { "torr", 101325.0 / 760.0 }, { "mTorr", 101325.0 / 760.0 / 1000.0 },
  { NULL, 0 },
};

static const XrlabStackUnit temperature_units[] = {
  { "K", 0.0 }, { "°C", 273.15 }, { "C", 273.15 }, { NULL, 0 },
};

/* ---- dry air ------------------------------------------------------------ */

typedef struct {
  const char *formula;
  double fraction;
} GasPart;

/* Mole fractions of dry air (N2, O2, Ar: U.S. Standard Atmosphere 1976;
 * CO2 rounded to 360 ppm so that the four add up to 1). */
static const GasPart dry_air[] = {
  { "N2", 0.78084 }, { "O2", 0.20946 }, { "Ar", 0.00934 }, { "CO2", 0.00036 },
};

double
xrlab_gas_density (double molar_mass_g_mol, double pressure_pa, double temperature_k)
{
  /* p M / (R T) in g/m³, then g/cm³. */
  return pressure_pa * molar_mass_g_mol
         / (XRLAB_AVOGADRO_PER_MOL * XRLAB_BOLTZMANN_J_K * temperature_k) * 1e-6;
}

/* ---- gases -------------------------------------------------------------- */

/* Gas conditions text[a..b): "1atm,295K", "295K", "" (defaults). */
static gboolean
parse_conditions (XrlabStackParser *p, gsize a, gsize b, double *pressure, double *temperature)
{
  gboolean have_p = FALSE, have_t = FALSE;
  gsize i = a;

  *pressure = XRLAB_GAS_DEFAULT_PRESSURE_PA;
  *temperature = XRLAB_GAS_DEFAULT_TEMPERATURE_K;
  xrlab_stack_trim (p->text, &i, &b);
  if (i == b)
    return TRUE;
  while (i <= b)
    {
      gsize e = i, s, t, unit_pos = 0;
      const XrlabStackUnit *unit = NULL;
      double v = 0.0;

      while (e < b && p->text[e] != ',')
        e++;
      s = i;
      t = e;
      xrlab_stack_trim (p->text, &s, &t);
      if (s == t)
        return xrlab_stack_fail_layer (p, XRLAB_STACK_ERROR_GAS, s,
                                       _("empty gas condition: give a pressure and a temperature, as in “air@1atm,295K”"));
      if (!xrlab_stack_scan_quantity (p->text, s, t, pressure_units, &v, &unit, &unit_pos))
        return xrlab_stack_fail_layer (p, XRLAB_STACK_ERROR_GAS, s,
                                       _("a gas condition is a number with a unit, as in “1atm” or “295K”"));
      if (unit_pos == t)
        return xrlab_stack_fail_layer (p, XRLAB_STACK_ERROR_GAS, s,
                                       _("the condition “%.*s” needs a unit: Pa, hPa, kPa, mbar, bar, atm, Torr, mTorr, K or °C"),
                                       (int) (t - s), p->text + s);
      if (unit != NULL)
        {
          if (have_p)
            return xrlab_stack_fail_layer (p, XRLAB_STACK_ERROR_GAS, s, _("the pressure is given twice"));
          v *= unit->factor;
          if (!(v > 0.0 && v <= XRLAB_STACK_MAX_PRESSURE_PA))
            return xrlab_stack_fail_layer (p, XRLAB_STACK_ERROR_GAS, s,
                                           _("the pressure “%.*s” must be above 0 and at most %g bar"),
                                           (int) (t - s), p->text + s, XRLAB_STACK_MAX_PRESSURE_PA / 1e5);
          *pressure = v;
          have_p = TRUE;
        }
      else if ((unit = xrlab_stack_find_unit (temperature_units, p->text + unit_pos, t - unit_pos)) != NULL)
        {
          if (have_t)
            return xrlab_stack_fail_layer (p, XRLAB_STACK_ERROR_GAS, s, _("the temperature is given twice"));
          v += unit->factor;
          if (!(v >= XRLAB_STACK_MIN_TEMPERATURE_K && v <= XRLAB_STACK_MAX_TEMPERATURE_K))
            return xrlab_stack_fail_layer (p, XRLAB_STACK_ERROR_GAS, s,
                                           _("the temperature “%.*s” must be from %g K to %g K"),
                                           (int) (t - s), p->text + s, XRLAB_STACK_MIN_TEMPERATURE_K,
                                           XRLAB_STACK_MAX_TEMPERATURE_K);
          *temperature = v;
          have_t = TRUE;
        }
      else
        return xrlab_stack_fail_layer (p, XRLAB_STACK_ERROR_GAS, unit_pos,
                                       _("unknown unit “%.*s”: a pressure in Pa, hPa, kPa, mbar, bar, atm, Torr or mTorr, a temperature in K or °C"),
                                       (int) (t - unit_pos), p->text + unit_pos);
      i = e + 1;
    }
  return TRUE;
}

/* One gas component text[a..b) ("N2", "air", "Helium") with mole fraction
 * @fraction, appended to @formula as "(composition)fraction". */
static gboolean
gas_component (XrlabStackParser *p, gsize a, gsize b, double fraction, GString *formula)
{
  g_autofree char *name = NULL;
  const XrlabPreset *preset;
  XrlabFormula *f;
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (a == b)
    return xrlab_stack_fail_layer (p, XRLAB_STACK_ERROR_GAS, a,
                                   _("a gas component is missing, as in “80%%He+20%%N2”"));
  name = g_strndup (p->text + a, b - a);
  if (g_ascii_strcasecmp (name, "air") == 0)
    {
      for (gsize i = 0; i < G_N_ELEMENTS (dry_air); i++)
        g_string_append_printf (formula, "(%s)%s", dry_air[i].formula,
                                g_ascii_formatd (buf, sizeof buf, "%.17g",
                                                 dry_air[i].fraction * fraction));
      return TRUE;
    }
  if (strstr (name, "//") != NULL)
    return xrlab_stack_fail_layer (p, XRLAB_STACK_ERROR_GAS, a,
                                   _("a gas component is one kind of molecule; mix gases by mole fraction, as in “80%%He+20%%N2”"));
  f = xrlab_stack_parse_formula_at (p, a, b);
  if (f == NULL)
    {
      /* A preset of one kind of molecule; its formula always parses. */
      preset = xrlab_stack_preset_by_name (p->text, a, b);
      if (preset == NULL || strstr (preset->formula, "//") != NULL
          || (f = xrlab_formula_parse (preset->formula, NULL)) == NULL)
        return FALSE;
      g_clear_error (p->error);
      if (p->error_column)
        *p->error_column = 0;
    }
  {
    g_autofree char *composition = xrlab_formula_to_string (f);
    g_string_append_printf (formula, "(%s)%s", composition,
                            g_ascii_formatd (buf, sizeof buf, "%.17g", fraction));
  }
  xrlab_formula_unref (f);
  return TRUE;
}

/* The gas text[a..b) ("air", "80%He+20%N2"): the formula of one mean
 * molecule. */
static XrlabFormula *
gas_formula (XrlabStackParser *p, gsize a, gsize b)
{
  g_autoptr(GString) formula = g_string_new (NULL);
  g_autoptr(GError) local = NULL;
  gsize starts[64], ends[64], value_pos[64];
  double fractions[64];
  gsize n = 0, i = a;
  double sum = 0.0;
  int missing = -1;
  XrlabFormula *f;
  char buf[XRLAB_DTOA_BUFSIZE];

  /* Split at '+' into components, each [NUMBER%]NAME. */
  while (i <= b)
    {
      gsize e = i, s, t, k;
      double v = NAN;

      while (e < b && p->text[e] != '+')
        e++;
      if (n == G_N_ELEMENTS (starts))
        {
          xrlab_stack_fail_layer (p, XRLAB_STACK_ERROR_LIMIT, i, _("a gas has at most %d components"),
                                  (int) G_N_ELEMENTS (starts));
          return NULL;
        }
      s = i;
      t = e;
      xrlab_stack_trim (p->text, &s, &t);
      k = xrlab_stack_scan_number (p->text, s, t, &v);
      value_pos[n] = s;
      if (k > 0 && s + k < t && p->text[s + k] == '%')
        {
          if (!(v > 0.0 && v <= 100.0))
            {
              xrlab_stack_fail_layer (p, XRLAB_STACK_ERROR_GAS, s,
                                      _("the mole fraction %s %% must be above 0 and at most 100 %%"),
                                      xrlab_format_double (v, buf));
              return NULL;
            }
          s += k + 1;
          xrlab_stack_trim (p->text, &s, &t);
          sum += v;
        }
      else
        {
          /* Only the last component may leave its fraction out. */
          if (e < b)
            {
              xrlab_stack_fail_layer (p, XRLAB_STACK_ERROR_GAS, s,
                                      _("every gas component but the last needs its mole fraction, as in “80%%He+20%%N2”"));
              return NULL;
            }
          missing = (int) n;
          v = NAN;
        }
      starts[n] = s;
      ends[n] = t;
      fractions[n] = v;
      n++;
      i = e + 1;
    }

  if (n == 1 && missing == 0)
    fractions[0] = 100.0;
  else if (missing >= 0)
    {
      if (!(sum < 100.0 * (1 - 1e-12)))
        {
          xrlab_stack_fail_layer (p, XRLAB_STACK_ERROR_GAS, value_pos[missing],
                                  _("the mole fractions add up to %s %%, which leaves nothing for the last component"),
                                  xrlab_format_double (sum, buf));
          return NULL;
        }
      fractions[missing] = 100.0 - sum;
    }
  else if (fabs (sum - 100.0) > 1e-9 * 100.0)
    {
      xrlab_stack_fail_layer (p, XRLAB_STACK_ERROR_GAS, a,
                              _("the mole fractions add up to %s %%, not 100 %%"), xrlab_format_double (sum, buf));
      return NULL;
    }

  for (gsize c = 0; c < n; c++)
    if (!gas_component (p, starts[c], ends[c], fractions[c] / 100.0, formula))
      return NULL;
  f = xrlab_formula_parse (formula->str, &local);
  if (f == NULL)
    xrlab_stack_fail_layer (p, XRLAB_STACK_ERROR_GAS, a, "%s", local->message);
  return f;
}

/* A gas layer text[a..b) containing '@' at @at. */
gboolean
xrlab_stack_parse_gas (XrlabStackParser *p, gsize a, gsize at, gsize b, XrlabStackEntry *entry)
{
  gsize ga = a, gb = at, ca = at + 1, cb = b, colon = at + 1;
  double pressure, temperature, density;
  XrlabFormula *f;

  xrlab_stack_trim (p->text, &ga, &gb);
  if (memchr (p->text + at + 1, '@', b - at - 1) != NULL)
    return xrlab_stack_fail_layer (p, XRLAB_STACK_ERROR_GAS,
                                   (gsize) ((const char *) memchr (p->text + at + 1, '@', b - at - 1) - p->text),
                                   _("a gas has one “@”, as in “air@1atm,295K:1m”"));
  if (memchr (p->text + a, '~', b - a) != NULL)
    return xrlab_stack_fail_layer (p, XRLAB_STACK_ERROR_ROUGHNESS,
                                   (gsize) ((const char *) memchr (p->text + a, '~', b - a) - p->text),
                                   _("a gas has no roughness"));
  if (memchr (p->text + a, ':', at - a) != NULL)
    return xrlab_stack_fail_layer (p, XRLAB_STACK_ERROR_GAS, a,
                                   _("a gas takes no density: write “GAS@PRESSURE,TEMPERATURE:LENGTH”, as in “air@1atm,295K:1m”"));
  while (colon < b && p->text[colon] != ':')
    colon++;
  cb = colon;
  if (!parse_conditions (p, ca, cb, &pressure, &temperature))
    return FALSE;
  entry->thickness_nm = NAN;
  if (colon < b)
    {
      gsize la = colon + 1, lb = b, unit_pos = 0;
      const XrlabStackUnit *unit = NULL;
      double v = 0.0;

      xrlab_stack_trim (p->text, &la, &lb);
      if (!xrlab_stack_scan_quantity (p->text, la, lb, xrlab_stack_length_units, &v, &unit, &unit_pos) || unit_pos == la)
        return xrlab_stack_fail_layer (p, XRLAB_STACK_ERROR_THICKNESS, la,
                                       _("the length of a gas path is a number with a unit (%s), as in “air@1atm:1m”"),
                                       xrlab_stack_length_unit_list ());
      if (unit == NULL)
        return xrlab_stack_fail_layer (p, XRLAB_STACK_ERROR_THICKNESS, unit_pos == lb ? la : unit_pos,
                                       _("the length “%.*s” needs a unit: %s"), (int) (lb - la), p->text + la,
                                       xrlab_stack_length_unit_list ());
      v *= unit->factor;
      if (!(v > 0.0 && v <= XRLAB_STACK_MAX_GAS_LENGTH_NM))
        return xrlab_stack_fail_layer (p, XRLAB_STACK_ERROR_THICKNESS, la,
                                       _("the length “%.*s” must be above 0 and at most %g km"),
                                       (int) (lb - la), p->text + la, XRLAB_STACK_MAX_GAS_LENGTH_NM * 1e-12);
      entry->thickness_nm = v;
    }
  if (ga == gb)
    return xrlab_stack_fail_layer (p, XRLAB_STACK_ERROR_GAS, ga,
                                   _("the gas is missing before “@”, as in “air@1atm,295K:1m”"));
  f = gas_formula (p, ga, gb);
  if (f == NULL)
    return FALSE;
  density = xrlab_gas_density (xrlab_formula_get_molecular_weight (f), pressure, temperature);
  entry->material = xrlab_stack_add_material (p, f, p->text + ga, gb - ga, density, TRUE, pressure, temperature);
  entry->roughness_nm = 0.0;
  entry->is_gas = TRUE;
  return TRUE;
}

