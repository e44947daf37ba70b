/* cli-optics.c -- xrlab-cli calc, batch, compare, convert, formula, edges,
 * materials: optical constants without a display
 *
 * Exit status: 0 success; 1 bad input (a formula, number, energy spec or
 * file that is wrong: the message names it, and nothing partial goes to
 * stdout); 2 usage error (unknown option, missing argument, an invalid
 * choice for --format, --unit or --fields).
 *
 * The option contexts have no parameter string: GOption ends the usage line
 * with the argument description of the G_OPTION_REMAINING entry. Tables and
 * messages are in the user's language; CSV and JSON (column names, keys) and
 * the tokens users type (units, fields, formats, energy specs) are not.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "cli-private.h"
#include "xrlab-constants.h"
#include "xrlab-elements.h"
#include "xrlab-engine.h"
#include "xrlab-formula.h"
#include "xrlab-optics.h"
#include "xrlab-presets.h"
#include "xrlab-util.h"

/* ---- shared pieces -------------------------------------------------------- */

typedef enum {
  FORMAT_TABLE,
  FORMAT_CSV,
  FORMAT_JSON,
} Format;

static gboolean
parse_format (const char *name, const char *text, Format *format)
{
  if (text == NULL || strcmp (text, "table") == 0)
    *format = FORMAT_TABLE;
  else if (strcmp (text, "csv") == 0)
    *format = FORMAT_CSV;
  else if (strcmp (text, "json") == 0)
    *format = FORMAT_JSON;
  else
    {
      xrlab_cli_usage (name, _("--format must be table, csv or json, not “%s”"), text);
      return FALSE;
    }
  return TRUE;
}

static gboolean
parse_unit (const char *name, const char *text, XrlabEnergyUnit *unit)
{
  if (text == NULL)
    {
      *unit = XRLAB_ENERGY_UNIT_KEV;
      return TRUE;
    }
  if (!xrlab_energy_unit_parse (text, unit))
    {
      xrlab_cli_usage (name, _("--unit must be keV, eV or A, not “%s”"), text);
      return FALSE;
    }
  return TRUE;
}

/* A number given on the command line: exit 1 with @message (a format with
 * one %s, the text) when it is not one. */
static gboolean
parse_number_arg (const char *message, const char *text, double *value)
{
  if (!xrlab_parse_double (text, FALSE, value))
    {
      xrlab_cli_failf (message, text);
      return FALSE;
    }
  return TRUE;
}

static void
append_double (GString *s, double x)
{
  char buf[XRLAB_DTOA_BUFSIZE];
  g_string_append (s, xrlab_format_double (x, buf));
}

/* JSON has no NaN: null stands for the critical angle where δ < 0. */
static void
append_json_double (GString *s, double x)
{
  if (!isfinite (x))
    g_string_append (s, "null");
  else
    append_double (s, x);
}

/* Writes @text to @path atomically, or to stdout when @path is NULL. */
static int
emit (const char *path, const GString *text)
{
  g_autoptr(GError) error = NULL;

  if (path == NULL || strcmp (path, "-") == 0)
    {
      fwrite (text->str, 1, text->len, stdout);
      if (fflush (stdout) != 0)
        return xrlab_cli_failf (_("Cannot write to standard output: %s"), g_strerror (errno));
      return XRLAB_CLI_OK;
    }
  if (!xrlab_write_file_atomic (path, text->str, (gssize) text->len, &error))
    return xrlab_cli_fail (error);
  return XRLAB_CLI_OK;
}

/* For people: 6 significant digits, "—" for NaN. */
static char *
table_number (double x)
{
  if (isnan (x))
    return g_strdup ("—");
  return g_strdup_printf ("%.6g", x);
}

/* The n that chooses the plural form for a count printed as @shown (by
 * table_number): the count when it is a whole number, else 2 (fractions
 * take the plural form in English and German). */
static gulong
plural_count (const char *shown)
{
  guint64 n;

  if (!g_ascii_string_to_unsigned (shown, 10, 0, G_MAXUINT64, &n, NULL))
    return 2;
  return n > G_MAXULONG ? G_MAXULONG : (gulong) n;
}

/* Display width of a UTF-8 string (characters; good enough for the labels
 * and numbers printed here). */
static int
width_of (const char *s)
{
  return (int) g_utf8_strlen (s, -1);
}

static void
append_padded (GString *s, const char *text, int width, gboolean right)
{
  int pad = width - width_of (text);

  if (right)
    for (int i = 0; i < pad; i++)
      g_string_append_c (s, ' ');
  g_string_append (s, text);
  if (!right)
    for (int i = 0; i < pad; i++)
      g_string_append_c (s, ' ');
}

/* A table of @n_cols columns (headers, optional units) and @n_rows rows of
 * strings (row-major), two spaces between columns. @align has one letter per
 * column: 'l' left, 'r' right (NULL: all right, for numbers). */
static void
append_table (GString *s, const char *const *headers, const char *const *units,
              char **cells, gsize n_rows, gsize n_cols, const char *align)
{
  g_autofree int *w = g_new0 (int, n_cols);

  for (gsize c = 0; c < n_cols; c++)
    {
      w[c] = width_of (headers[c]);
      if (units)
        w[c] = MAX (w[c], width_of (units[c]));
      for (gsize r = 0; r < n_rows; r++)
        w[c] = MAX (w[c], width_of (cells[r * n_cols + c]));
    }
  for (int line = 0; line < (units ? 2 : 1); line++)
    {
      for (gsize c = 0; c < n_cols; c++)
        {
          if (c > 0)
            g_string_append (s, "  ");
          append_padded (s, line == 0 ? headers[c] : units[c], w[c], !align || align[c] != 'l');
        }
      while (s->len > 0 && s->str[s->len - 1] == ' ')
        g_string_truncate (s, s->len - 1);
      g_string_append_c (s, '\n');
    }
  for (gsize r = 0; r < n_rows; r++)
    {
      for (gsize c = 0; c < n_cols; c++)
        {
          if (c > 0)
            g_string_append (s, "  ");
          append_padded (s, cells[r * n_cols + c], w[c], !align || align[c] != 'l');
        }
      while (s->len > 0 && s->str[s->len - 1] == ' ')
        g_string_truncate (s, s->len - 1);
      g_string_append_c (s, '\n');
    }
}

static void
free_cells (char **cells, gsize n)
{
  for (gsize i = 0; i < n; i++)
    g_free (cells[i]);
  g_free (cells);
}

/* Parses --fields: column names separated by commas, energy_keV allowed and
 * ignored (it is always the first column). Fills @order with the chosen
 * quantities in the given order. */
static gboolean
parse_fields (const char *name, const char *text, gboolean have_thickness,
              XrlabQuantity *order, guint *n_order, XrlabQuantityMask *mask)
{
  *n_order = 0;
  *mask = 0;
  if (text == NULL)
    {
      for (int q = 0; q < XRLAB_QUANTITY_N; q++)
        if (q != XRLAB_QUANTITY_TRANSMISSION || have_thickness)
          {
            order[(*n_order)++] = (XrlabQuantity) q;
            *mask |= XRLAB_QUANTITY_BIT (q);
          }
      return TRUE;
    }
  {
    g_auto(GStrv) parts = g_strsplit (text, ",", -1);
    for (guint i = 0; parts[i] != NULL; i++)
      {
        XrlabQuantity q;
        char *f = g_strstrip (parts[i]);

        if (strcmp (f, "energy_keV") == 0 || f[0] == '\0')
          continue;
        if (!xrlab_quantity_from_column (f, &q))
          {
            g_autoptr(GString) all = g_string_new ("energy_keV");
            for (int k = 0; k < XRLAB_QUANTITY_N; k++)
              g_string_append_printf (all, ", %s", xrlab_quantity_get_column ((XrlabQuantity) k));
            xrlab_cli_usage (name, _("unknown field “%s” in --fields; the fields are %s"), f,
                             all->str);
            return FALSE;
          }
        if (q == XRLAB_QUANTITY_TRANSMISSION && !have_thickness)
          {
            xrlab_cli_usage (name, _("the field transmission needs --thickness UM"));
            return FALSE;
          }
        if (*mask & XRLAB_QUANTITY_BIT (q))
          continue;
        order[(*n_order)++] = q;
        *mask |= XRLAB_QUANTITY_BIT (q);
      }
  }
  if (*n_order == 0)
    {
      xrlab_cli_usage (name, _("--fields names no field"));
      return FALSE;
    }
  return TRUE;
}

/* A formula, or a preset name ("Kapton"), or a preset formula: the formula
 * and, when it came from a preset, the preset. Exit 1 on failure. */
static XrlabFormula *
resolve_material (const char *text, const XrlabPreset **preset)
{
  g_autoptr(GError) error = NULL;
  XrlabFormula *f = xrlab_formula_parse (text, &error);
  const XrlabPreset *p;

  *preset = NULL;
  if (f != NULL)
    {
      *preset = xrlab_presets_lookup (text);
      return f;
    }
  p = xrlab_presets_lookup (text);
  if (p != NULL)
    {
      *preset = p;
      return xrlab_formula_parse (p->formula, NULL);
    }
  xrlab_cli_failf (_("Formula “%s”: %s"), text, error->message);
  return NULL;
}

/* The element's name in the user's language. */
static const char *
element_name (int id)
{
  return g_dpgettext2 (GETTEXT_PACKAGE, "element", xrlab_element_get_name (id));
}

/* ---- calc ----------------------------------------------------------------- */

int
xrlab_cli_calc (int argc, char **argv)
{
  g_autofree char *density_text = NULL, *energy_text = NULL, *unit_text = NULL;
  g_autofree char *thickness_text = NULL, *format_text = NULL, *fields_text = NULL;
  g_autofree char *output = NULL;
  g_auto(GStrv) rest = NULL;
  GOptionEntry entries[] = {
    { "density", 'd', 0, G_OPTION_ARG_STRING, &density_text,
      N_("Mass density (g/cm³); a preset's when left out"), N_("RHO") },
    { "energy", 'e', 0, G_OPTION_ARG_STRING, &energy_text,
      N_("Energies: 10, 5,10,15, 5:15:11 or 1:30:100:log"), N_("SPEC") },
    { "unit", 'u', 0, G_OPTION_ARG_STRING, &unit_text,
      N_("Unit of SPEC: keV (default), eV or A (wavelength)"), N_("UNIT") },
    { "thickness", 't', 0, G_OPTION_ARG_STRING, &thickness_text,
      N_("Layer thickness (µm): adds the transmission"), N_("UM") },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format_text,
      N_("Output: table (default), csv or json"), N_("FORMAT") },
    { "fields", 0, 0, G_OPTION_ARG_STRING, &fields_text,
      N_("Columns to print, comma separated (default: all)"), N_("LIST") },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      N_("Write to FILE (atomically) instead of stdout"), N_("FILE") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &rest, NULL, N_("FORMULA") },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new (NULL);
  g_autoptr(XrlabFormula) formula = NULL;
  g_autoptr(XrlabEnergyGrid) grid = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) s = NULL;
  g_autofree double *values = NULL;
  double *out[XRLAB_QUANTITY_N] = { NULL, };
  const XrlabPreset *preset = NULL;
  XrlabQuantity order[XRLAB_QUANTITY_N];
  guint n_order;
  XrlabQuantityMask mask;
  XrlabEnergyUnit unit;
  Format format;
  XrlabOpticsCache *cache;
  XrlabOpticsMaterial material;
  const double *energies;
  double density, thickness = NAN;
  gsize n;

  g_option_context_set_summary (ctx,
    /* xgettext:no-c-format */
    _("Optical constants of a material on an energy grid: λ, δ, β, f1, f2, the\n"
      "critical angle, attenuation length, μ, μ/ρ, the real and imaginary SLD,\n"
      "and the transmission of a layer when --thickness is given.\n\n"
      "FORMULA: SiO2, Ca3(PO4)2, CuSO4·5H2O, D2O, “70wt% SiO2 // B2O3”, or a\n"
      "preset name (see “xrlab-cli materials”)."));
  g_option_context_set_description (ctx,
    _("Example:\n  xrlab-cli calc SiO2 -d 2.2 -e 5:15:11 --format csv\n\n"
      "CSV and JSON numbers read back to the same doubles. The critical angle is\n"
      "nan (JSON null) where δ < 0.\n"
      "Exit status: 0 success, 1 bad input, 2 usage error."));
  g_option_context_add_main_entries (ctx, entries, GETTEXT_PACKAGE);
  if (!xrlab_cli_parse (ctx, &argc, &argv))
    return XRLAB_CLI_USAGE;
  if (rest == NULL || rest[0] == NULL)
    return xrlab_cli_usage ("calc", _("missing FORMULA"));
  if (rest[1] != NULL)
    return xrlab_cli_usage ("calc", _("one FORMULA only, got “%s” too (quote formulas with spaces)"),
                            rest[1]);
  if (energy_text == NULL)
    return xrlab_cli_usage ("calc", _("missing -e SPEC (energies, e.g. -e 8.048)"));
  if (!parse_format ("calc", format_text, &format) || !parse_unit ("calc", unit_text, &unit))
    return XRLAB_CLI_USAGE;
  if (!parse_fields ("calc", fields_text, thickness_text != NULL, order, &n_order, &mask))
    return XRLAB_CLI_USAGE;

  formula = resolve_material (rest[0], &preset);
  if (formula == NULL)
    return XRLAB_CLI_BAD_INPUT;
  if (density_text != NULL)
    {
      if (!parse_number_arg (_("Density “%s” is not a number"), density_text, &density))
        return XRLAB_CLI_BAD_INPUT;
    }
  else if (preset != NULL)
    density = preset->density_g_cm3;
  else
    return xrlab_cli_usage ("calc", _("missing -d RHO (density in g/cm³): “%s” is not a preset"),
                            rest[0]);
  if (thickness_text != NULL
      && !parse_number_arg (_("Thickness “%s” is not a number"), thickness_text, &thickness))
    return XRLAB_CLI_BAD_INPUT;

  grid = xrlab_energy_grid_parse (energy_text, unit, &error);
  if (grid == NULL)
    return xrlab_cli_fail (error);
  n = xrlab_energy_grid_get_size (grid);
  energies = xrlab_energy_grid_get_energies_kev (grid);

  values = g_new (double, (gsize) XRLAB_QUANTITY_N * n);
  for (guint k = 0; k < n_order; k++)
    out[order[k]] = values + (gsize) order[k] * n;
  material.formula = formula;
  material.density_g_cm3 = density;
  material.thickness_um = thickness;
  cache = xrlab_optics_cache_new (grid);
  if (!xrlab_optics_compute (cache, &material, mask, out, &error))
    {
      xrlab_optics_cache_free (cache);
      return xrlab_cli_fail (error);
    }
  xrlab_optics_cache_free (cache);

  s = g_string_new (NULL);
  if (format == FORMAT_CSV)
    {
      g_string_append (s, "energy_keV");
      for (guint k = 0; k < n_order; k++)
        g_string_append_printf (s, ",%s", xrlab_quantity_get_column (order[k]));
      g_string_append_c (s, '\n');
      for (gsize i = 0; i < n; i++)
        {
          append_double (s, energies[i]);
          for (guint k = 0; k < n_order; k++)
            {
              g_string_append_c (s, ',');
              append_double (s, out[order[k]][i]);
            }
          g_string_append_c (s, '\n');
        }
    }
  else if (format == FORMAT_JSON)
    {
      g_string_append (s, "{\n  \"formula\": ");
      xrlab_json_append_string (s, xrlab_formula_get_text (formula));
      g_string_append (s, ",\n  \"density_g_cm3\": ");
      append_json_double (s, density);
      if (thickness_text != NULL)
        {
          g_string_append (s, ",\n  \"thickness_um\": ");
          append_json_double (s, thickness);
        }
      g_string_append (s, ",\n  \"molecular_weight_g_mol\": ");
      append_json_double (s, xrlab_formula_get_molecular_weight (formula));
      g_string_append (s, ",\n  \"electrons_per_formula_unit\": ");
      append_json_double (s, xrlab_formula_get_electrons (formula));
      g_string_append (s, ",\n  \"electron_density_per_A3\": ");
      append_json_double (s, xrlab_optics_electron_density (formula, density));
      g_string_append (s, ",\n  \"columns\": {\n    \"energy_keV\": [");
      for (gsize i = 0; i < n; i++)
        {
          if (i)
            g_string_append (s, ", ");
          append_json_double (s, energies[i]);
        }
      g_string_append (s, "]");
      for (guint k = 0; k < n_order; k++)
        {
          g_string_append (s, ",\n    ");
          xrlab_json_append_string (s, xrlab_quantity_get_column (order[k]));
          g_string_append (s, ": [");
          for (gsize i = 0; i < n; i++)
            {
              if (i)
                g_string_append (s, ", ");
              append_json_double (s, out[order[k]][i]);
            }
          g_string_append (s, "]");
        }
      g_string_append (s, "\n  }\n}\n");
    }
  else
    {
      gsize n_cols = n_order + 1;
      g_autofree const char **headers = g_new (const char *, n_cols);
      g_autofree const char **units = g_new (const char *, n_cols);
      char **cells = g_new (char *, n * n_cols);
      g_autofree char *electrons = NULL;
      gboolean any_nan = FALSE;

      g_string_append_printf (s, "%s  %s, ρ = %.6g g/cm³",
                              preset && density_text == NULL ? preset->name : _("Material"),
                              xrlab_formula_get_text (formula), density);
      if (thickness_text != NULL)
        g_string_append_printf (s, ", t = %.6g µm", thickness);
      electrons = table_number (xrlab_formula_get_electrons (formula));
      g_string_append_c (s, '\n');
      g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE,
                                              "M = %.6g g/mol, %s electron per formula unit, %.6g e/Å³",
                                              "M = %.6g g/mol, %s electrons per formula unit, %.6g e/Å³",
                                              plural_count (electrons)),
                              xrlab_formula_get_molecular_weight (formula), electrons,
                              xrlab_optics_electron_density (formula, density));
      g_string_append (s, "\n\n");
      headers[0] = _("Energy");
      units[0] = "keV";
      for (guint k = 0; k < n_order; k++)
        {
          headers[k + 1] = xrlab_quantity_get_label (order[k]);
          units[k + 1] = xrlab_quantity_get_unit (order[k]);
        }
      for (gsize i = 0; i < n; i++)
        {
          cells[i * n_cols] = table_number (energies[i]);
          for (guint k = 0; k < n_order; k++)
            {
              double v = out[order[k]][i];
              any_nan |= isnan (v);
              cells[i * n_cols + k + 1] = table_number (v);
            }
        }
      append_table (s, headers, units, cells, n, n_cols, NULL);
      free_cells (cells, n * n_cols);
      if (any_nan)
        g_string_append_printf (s, "\n%s\n",
                                _("— no critical angle where δ < 0 (total f1 negative)"));
    }
  return emit (output, s);
}

/* ---- compare -------------------------------------------------------------- */

int
xrlab_cli_compare (int argc, char **argv)
{
  g_autofree char *energy_text = NULL, *unit_text = NULL, *field_text = NULL;
  g_autofree char *thickness_text = NULL, *format_text = NULL, *output = NULL;
  g_auto(GStrv) rest = NULL;
  GOptionEntry entries[] = {
    { "energy", 'e', 0, G_OPTION_ARG_STRING, &energy_text,
      N_("Energies: 10, 5,10,15, 5:15:11 or 1:30:100:log"), N_("SPEC") },
    { "unit", 'u', 0, G_OPTION_ARG_STRING, &unit_text,
      N_("Unit of SPEC: keV (default), eV or A (wavelength)"), N_("UNIT") },
    { "field", 0, 0, G_OPTION_ARG_STRING, &field_text,
      N_("The quantity to compare (default: delta)"), N_("FIELD") },
    { "thickness", 't', 0, G_OPTION_ARG_STRING, &thickness_text,
      N_("Layer thickness (µm), for --field transmission"), N_("UM") },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format_text,
      N_("Output: table (default), csv or json"), N_("FORMAT") },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      N_("Write to FILE (atomically) instead of stdout"), N_("FILE") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &rest, NULL, N_("FORMULA:RHO...") },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new (NULL);
  g_autoptr(XrlabEnergyGrid) grid = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) s = NULL;
  g_autoptr(GPtrArray) formulas = g_ptr_array_new_with_free_func ((GDestroyNotify) xrlab_formula_unref);
  g_autofree XrlabOpticsMaterial *materials = NULL;
  g_autofree XrlabMaterialSpec *specs = NULL;
  g_autoptr(XrlabEngine) engine = NULL;
  g_autoptr(XrlabEngineBatch) batch = NULL;
  const double *values;
  XrlabQuantity field = XRLAB_QUANTITY_DELTA;
  XrlabEnergyUnit unit;
  Format format;
  const double *energies;
  double thickness = NAN;
  gsize n, n_mat;

  g_option_context_set_summary (ctx,
    _("One quantity of several materials side by side on one energy grid.\n"
      "Each material is FORMULA:RHO (density in g/cm³), or a preset name\n"
      "alone (its density)."));
  g_option_context_set_description (ctx,
    _("Example:\n  xrlab-cli compare Au:19.3 Pt:21.45 Ir:22.56 -e 5:20:4 --field critical_angle_mrad\n\n"
      "Exit status: 0 success, 1 bad input, 2 usage error."));
  g_option_context_add_main_entries (ctx, entries, GETTEXT_PACKAGE);
  if (!xrlab_cli_parse (ctx, &argc, &argv))
    return XRLAB_CLI_USAGE;
  if (rest == NULL || rest[0] == NULL)
    return xrlab_cli_usage ("compare", _("missing FORMULA:RHO"));
  if (energy_text == NULL)
    return xrlab_cli_usage ("compare", _("missing -e SPEC (energies, e.g. -e 5:15:11)"));
  if (!parse_format ("compare", format_text, &format) || !parse_unit ("compare", unit_text, &unit))
    return XRLAB_CLI_USAGE;
  if (field_text != NULL && !xrlab_quantity_from_column (field_text, &field))
    return xrlab_cli_usage ("compare", _("unknown --field “%s” (e.g. delta, beta, f1, mu_per_cm)"),
                            field_text);
  if (field == XRLAB_QUANTITY_TRANSMISSION && thickness_text == NULL)
    return xrlab_cli_usage ("compare", _("--field transmission needs --thickness UM"));
  if (thickness_text != NULL
      && !parse_number_arg (_("Thickness “%s” is not a number"), thickness_text, &thickness))
    return XRLAB_CLI_BAD_INPUT;

  n_mat = g_strv_length (rest);
  materials = g_new0 (XrlabOpticsMaterial, n_mat);
  for (gsize m = 0; m < n_mat; m++)
    {
      const char *arg = rest[m];
      const char *colon = strrchr (arg, ':');
      const XrlabPreset *preset = NULL;
      g_autofree char *ftext = colon ? g_strndup (arg, (gsize) (colon - arg)) : g_strdup (arg);
      XrlabFormula *f;
      double density;

      f = resolve_material (ftext, &preset);
      if (f == NULL)
        return XRLAB_CLI_BAD_INPUT;
      g_ptr_array_add (formulas, f);
      if (colon != NULL)
        {
          if (!xrlab_parse_double (colon + 1, FALSE, &density))
            return xrlab_cli_failf (_("Density “%s” of “%s” is not a number"), colon + 1, arg);
        }
      else if (preset != NULL)
        density = preset->density_g_cm3;
      else
        return xrlab_cli_failf (_("“%s” has no density: write it as %s:RHO (g/cm³)"), arg, arg);
      materials[m].formula = f;
      materials[m].density_g_cm3 = density;
      materials[m].thickness_um = thickness;
    }

  grid = xrlab_energy_grid_parse (energy_text, unit, &error);
  if (grid == NULL)
    return xrlab_cli_fail (error);
  n = xrlab_energy_grid_get_size (grid);
  energies = xrlab_energy_grid_get_energies_kev (grid);

  /* One batch request to the engine: all materials, one grid, one quantity. */
  specs = g_new0 (XrlabMaterialSpec, n_mat);
  for (gsize m = 0; m < n_mat; m++)
    {
      specs[m].name = rest[m];
      specs[m].formula = xrlab_formula_get_text (materials[m].formula);
      specs[m].density_g_cm3 = materials[m].density_g_cm3;
      specs[m].thickness_um = isfinite (materials[m].thickness_um) ? materials[m].thickness_um : 0.0;
    }
  engine = xrlab_engine_new ();
  batch = xrlab_engine_batch_sync (engine, specs, n_mat, grid, XRLAB_QUANTITY_BIT (field),
                                   NULL, NULL, NULL, &error);
  if (batch == NULL)
    return xrlab_cli_fail (error);
  for (gsize m = 0; m < n_mat; m++)
    if (batch->errors[m] != NULL)
      return xrlab_cli_failf ("%s: %s", rest[m], batch->errors[m]->message);
  values = batch->values;

  s = g_string_new (NULL);
  if (format == FORMAT_CSV)
    {
      g_string_append (s, "energy_keV");
      for (gsize m = 0; m < n_mat; m++)
        {
          g_string_append_c (s, ',');
          xrlab_csv_append_field (s, rest[m]);
        }
      g_string_append_c (s, '\n');
      for (gsize i = 0; i < n; i++)
        {
          append_double (s, energies[i]);
          for (gsize m = 0; m < n_mat; m++)
            {
              g_string_append_c (s, ',');
              append_double (s, values[m * n + i]);
            }
          g_string_append_c (s, '\n');
        }
    }
  else if (format == FORMAT_JSON)
    {
      g_string_append (s, "{\n  \"field\": ");
      xrlab_json_append_string (s, xrlab_quantity_get_column (field));
      g_string_append (s, ",\n  \"energy_keV\": [");
      for (gsize i = 0; i < n; i++)
        {
          if (i)
            g_string_append (s, ", ");
          append_json_double (s, energies[i]);
        }
      g_string_append (s, "],\n  \"materials\": [");
      for (gsize m = 0; m < n_mat; m++)
        {
          g_string_append (s, m ? ",\n    {\"formula\": " : "\n    {\"formula\": ");
          xrlab_json_append_string (s, xrlab_formula_get_text (materials[m].formula));
          g_string_append (s, ", \"density_g_cm3\": ");
          append_json_double (s, materials[m].density_g_cm3);
          g_string_append (s, ", \"values\": [");
          for (gsize i = 0; i < n; i++)
            {
              if (i)
                g_string_append (s, ", ");
              append_json_double (s, values[m * n + i]);
            }
          g_string_append (s, "]}");
        }
      g_string_append (s, "\n  ]\n}\n");
    }
  else
    {
      gsize n_cols = n_mat + 1;
      g_autofree const char **headers = g_new (const char *, n_cols);
      g_autofree const char **units = g_new (const char *, n_cols);
      char **cells = g_new (char *, n * n_cols);
      const char *u = xrlab_quantity_get_unit (field);

      g_string_append_printf (s, "%s%s%s%s\n\n", xrlab_quantity_get_label (field),
                              u[0] ? " (" : "", u, u[0] ? ")" : "");
      headers[0] = _("Energy");
      units[0] = "keV";
      for (gsize m = 0; m < n_mat; m++)
        {
          headers[m + 1] = rest[m];
          units[m + 1] = "";
        }
      for (gsize i = 0; i < n; i++)
        {
          cells[i * n_cols] = table_number (energies[i]);
          for (gsize m = 0; m < n_mat; m++)
            cells[i * n_cols + m + 1] = table_number (values[m * n + i]);
        }
      append_table (s, headers, units, cells, n, n_cols, NULL);
      free_cells (cells, n * n_cols);
    }
  return emit (output, s);
}

/* ---- batch ---------------------------------------------------------------- */

typedef struct {
  guint line;
  char *formula_text;
  XrlabFormula *formula;
  double density;
  double thickness;
  char *spec;
  gsize group;          /* index into the grids */
  gsize index;          /* material index within its group */
  gboolean failed;
} BatchRow;

typedef struct {
  char *spec;
  XrlabEnergyGrid *grid;
  char *grid_error;     /* why the spec does not parse, when grid is NULL */
  GArray *rows;         /* of guint: row numbers */
  XrlabEngineBatch *batch;  /* the engine's reply: values of every row */
} BatchGroup;

/* Progress of a batch on a terminal: computing the rows, then writing them
 * (each counts one step per row). */
typedef struct {
  gboolean tty;
  gboolean shown;
  gsize done_before;    /* rows of earlier groups */
  gsize total;          /* 2 × rows */
  double last;
} Progress;

static void
progress_draw (Progress *p, gsize done, gboolean final)
{
  double now = xrlab_now ();
  int width = 30, filled;
  double frac;

  if (!p->tty || (!final && now - p->last < 0.1) || (final && !p->shown))
    return;
  p->last = now;
  p->shown = TRUE;
  frac = p->total ? (double) done / (double) p->total : 1.0;
  filled = (int) (frac * width + 0.5);
  fprintf (stderr, "\r[");
  for (int i = 0; i < width; i++)
    fputc (i < filled ? '#' : '.', stderr);
  fprintf (stderr, "] %3d%%  ", (int) (frac * 100 + 0.5));
  {
    /* TRANSLATORS: the state of a batch next to its progress bar; padded
     * to the widest of the three, so that a shorter one overwrites a longer
     * one. */
    const char *states[] = { _("computing"), _("writing"), _("done") };
    const char *state = states[final ? 2 : 2 * done < p->total ? 0 : 1];
    int w = 0;

    for (gsize i = 0; i < G_N_ELEMENTS (states); i++)
      w = MAX (w, width_of (states[i]));
    fprintf (stderr, "%s%*s", state, w - width_of (state), "");
  }
  if (final)
    fputc ('\n', stderr);
  fflush (stderr);
}

static void
progress_cb (gsize done, gsize total, gpointer data)
{
  Progress *p = data;
  progress_draw (p, p->done_before + done, FALSE);
}

/* Splits one CSV line into fields (RFC 4180 quoting). FALSE on an
 * unterminated quote. */
static gboolean
split_csv (const char *line, GPtrArray *fields, int *bad_column)
{
  const char *p = line;
  GString *f = g_string_new (NULL);

  for (;;)
    {
      g_string_truncate (f, 0);
      while (*p == ' ' || *p == '\t')
        p++;
      if (*p == '"')
        {
          const char *open = p++;
          for (;;)
            {
              if (*p == '\0')
                {
                  *bad_column = (int) g_utf8_strlen (line, open - line) + 1;
                  g_string_free (f, TRUE);
                  return FALSE;
                }
              if (*p == '"')
                {
                  if (p[1] == '"')
                    {
                      g_string_append_c (f, '"');
                      p += 2;
                      continue;
                    }
                  p++;
                  break;
                }
              g_string_append_c (f, *p++);
            }
          while (*p && *p != ',')
            {
              if (*p != ' ' && *p != '\t' && *p != '\r')
                {
                  *bad_column = (int) g_utf8_strlen (line, p - line) + 1;
                  g_string_free (f, TRUE);
                  return FALSE;
                }
              p++;
            }
        }
      else
        {
          while (*p && *p != ',')
            g_string_append_c (f, *p++);
        }
      g_ptr_array_add (fields, g_strstrip (g_strdup (f->str)));
      if (*p != ',')
        break;
      p++;
    }
  g_string_free (f, TRUE);
  return TRUE;
}

typedef struct {
  guint line;
  char *message;
} Problem;

/* Collects a problem of input line @line; printed in line order at the end,
 * each as "xrlab-cli: <message>". */
static void report (GArray *problems, guint line, const char *format, ...) G_GNUC_PRINTF (3, 4);

static void
report (GArray *problems, guint line, const char *format, ...)
{
  va_list args;
  g_autofree char *message = NULL;
  Problem p;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  p.line = line;
  p.message = g_strdup_printf ("xrlab-cli: %s\n", message);
  g_array_append_val (problems, p);
}

static int
compare_problems (gconstpointer a, gconstpointer b)
{
  guint x = ((const Problem *) a)->line, y = ((const Problem *) b)->line;
  return (x > y) - (x < y);
}

static void
problem_clear (gpointer data)
{
  g_free (((Problem *) data)->message);
}

static void
batch_row_clear (gpointer data)
{
  BatchRow *r = data;
  g_free (r->formula_text);
  g_free (r->spec);
  g_clear_pointer (&r->formula, xrlab_formula_unref);
}

static void
batch_group_clear (gpointer data)
{
  BatchGroup *g = data;
  g_free (g->spec);
  g_free (g->grid_error);
  g_clear_pointer (&g->grid, xrlab_energy_grid_unref);
  g_clear_pointer (&g->rows, g_array_unref);
  g_clear_pointer (&g->batch, xrlab_engine_batch_free);
}

int
xrlab_cli_batch (int argc, char **argv)
{
  g_autofree char *unit_text = NULL, *thickness_text = NULL, *fields_text = NULL;
  g_autofree char *output = NULL;
  g_auto(GStrv) rest = NULL;
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      N_("Write to FILE (atomically) instead of stdout"), N_("FILE") },
    { "unit", 'u', 0, G_OPTION_ARG_STRING, &unit_text,
      N_("Unit of the energy specs: keV (default), eV or A"), N_("UNIT") },
    { "thickness", 't', 0, G_OPTION_ARG_STRING, &thickness_text,
      N_("Layer thickness (µm) for rows without a thickness column"), N_("UM") },
    { "fields", 0, 0, G_OPTION_ARG_STRING, &fields_text,
      N_("Columns to compute, comma separated (default: all)"), N_("LIST") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &rest, NULL, N_("IN.csv") },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) rows = g_array_new (FALSE, TRUE, sizeof (BatchRow));
  g_autoptr(GArray) groups = g_array_new (FALSE, TRUE, sizeof (BatchGroup));
  g_autoptr(XrlabEngine) engine = NULL;
  g_autoptr(GHashTable) group_of_spec = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GArray) problems = g_array_new (FALSE, FALSE, sizeof (Problem));
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  XrlabQuantity order[XRLAB_QUANTITY_N];
  guint n_order, n_q;
  XrlabQuantityMask mask;
  XrlabEnergyUnit unit;
  int col_formula = 0, col_density = 1, col_energy = 2, col_thickness = -1;
  guint n_header = 0;
  gboolean header_seen = FALSE, have_thickness;
  double thickness_default = NAN;
  gsize n_failed = 0, n_good = 0;
  Progress progress = { 0, };
  XrlabAtomicFile *af = NULL;
  FILE *out;

  g_option_context_set_summary (ctx,
    _("Optical constants of many materials from a CSV file.\n\n"
      "IN.csv has the columns formula,density,energy (energy: a SPEC such as\n"
      "8.048 or \"5,10,15\" or 1:30:100:log, quoted when it has commas), an\n"
      "optional thickness column (µm), and an optional header line naming the\n"
      "columns. Blank lines and lines starting with # are skipped.\n\n"
      "The output has one row per material and energy: formula,density_g_cm3\n"
      "and then the columns of “xrlab-cli calc --format csv”. A row that fails\n"
      "is reported on stderr with its line number and reason; every good row is\n"
      "still written, and the exit status is then 1."));
  g_option_context_set_description (ctx, _("Exit status: 0 success, 1 bad input, 2 usage error."));
  g_option_context_add_main_entries (ctx, entries, GETTEXT_PACKAGE);
  if (!xrlab_cli_parse (ctx, &argc, &argv))
    return XRLAB_CLI_USAGE;
  if (rest == NULL || rest[0] == NULL)
    return xrlab_cli_usage ("batch", _("missing IN.csv"));
  if (rest[1] != NULL)
    return xrlab_cli_usage ("batch", _("one input file only, got “%s” too"), rest[1]);
  if (!parse_unit ("batch", unit_text, &unit))
    return XRLAB_CLI_USAGE;
  if (thickness_text != NULL
      && !parse_number_arg (_("Thickness “%s” is not a number"), thickness_text, &thickness_default))
    return XRLAB_CLI_BAD_INPUT;

  if (!g_file_get_contents (rest[0], &contents, NULL, &error))
    return xrlab_cli_fail (error);
  if (!g_utf8_validate (contents, -1, NULL))
    return xrlab_cli_failf (_("%s is not a UTF-8 text file"), rest[0]);

  g_array_set_clear_func (problems, problem_clear);
  g_array_set_clear_func (rows, batch_row_clear);
  g_array_set_clear_func (groups, batch_group_clear);

  /* Read the rows. The header (if any) decides the column order. */
  lines = g_strsplit (contents, "\n", -1);
  for (guint ln = 0; lines[ln] != NULL; ln++)
    {
      g_autoptr(GPtrArray) fields = g_ptr_array_new_with_free_func (g_free);
      char *line = g_strstrip (lines[ln]);
      BatchRow row = { 0, };
      int bad_col = 0;

      if (line[0] == '\0' || line[0] == '#')
        continue;
      if (!split_csv (line, fields, &bad_col))
        {
          report (problems, ln + 1, _("%s line %u, column %d: unterminated or misplaced quote"),
                  rest[0], ln + 1, bad_col);
          n_failed++;
          continue;
        }
      if (!header_seen && g_ascii_strcasecmp (g_ptr_array_index (fields, 0), "formula") == 0)
        {
          header_seen = TRUE;
          col_formula = col_density = col_energy = -1;
          for (guint c = 0; c < fields->len; c++)
            {
              const char *h = g_ptr_array_index (fields, c);
              if (g_ascii_strcasecmp (h, "formula") == 0)
                col_formula = (int) c;
              else if (g_ascii_strcasecmp (h, "density") == 0 || g_ascii_strcasecmp (h, "density_g_cm3") == 0)
                col_density = (int) c;
              else if (g_ascii_strcasecmp (h, "energy") == 0 || g_ascii_strcasecmp (h, "energy_keV") == 0)
                col_energy = (int) c;
              else if (g_ascii_strcasecmp (h, "thickness") == 0 || g_ascii_strcasecmp (h, "thickness_um") == 0)
                col_thickness = (int) c;
              else
                return xrlab_cli_failf (_("%s line %u: unknown column “%s” "
                                          "(expected formula, density, energy, thickness)"),
                                        rest[0], ln + 1, h);
            }
          n_header = fields->len;
          if (col_formula < 0 || col_density < 0 || col_energy < 0)
            return xrlab_cli_failf (_("%s line %u: the header needs the columns formula, "
                                      "density and energy"),
                                    rest[0], ln + 1);
          continue;
        }
      header_seen = TRUE;   /* a header may only come first */
      if (n_header > 0 ? fields->len != n_header : (fields->len != 3 && fields->len != 4))
        {
          if (n_header > 0)
            report (problems, ln + 1,
                    g_dngettext (GETTEXT_PACKAGE,
                                 "%s line %u: expected %u field like the header, found %u",
                                 "%s line %u: expected %u fields like the header, found %u",
                                 n_header),
                    rest[0], ln + 1, n_header, fields->len);
          else
            report (problems, ln + 1, _("%s line %u: expected 3 fields formula,density,energy "
                                        "(and optionally thickness), found %u"),
                    rest[0], ln + 1, fields->len);
          n_failed++;
          continue;
        }
      row.line = ln + 1;
      row.formula_text = g_strdup (g_ptr_array_index (fields, col_formula));
      row.spec = g_strdup (g_ptr_array_index (fields, col_energy));
      row.thickness = thickness_default;
      {
        g_autoptr(GError) local = NULL;
        const char *dens = g_ptr_array_index (fields, col_density);
        const char *thick = NULL;

        if (col_thickness >= 0)
          thick = g_ptr_array_index (fields, col_thickness);
        else if (n_header == 0 && fields->len == 4)
          thick = g_ptr_array_index (fields, 3);   /* formula,density,energy,thickness */

        row.formula = xrlab_formula_parse (row.formula_text, &local);
        if (row.formula == NULL)
          report (problems, row.line, _("%s line %u: formula “%s”: %s"), rest[0], row.line,
                  row.formula_text, local->message);
        else if (!xrlab_parse_double (dens, FALSE, &row.density))
          report (problems, row.line, _("%s line %u: density “%s” is not a number"),
                  rest[0], row.line, dens);
        else if (thick != NULL && thick[0] != '\0' && !xrlab_parse_double (thick, FALSE, &row.thickness))
          report (problems, row.line, _("%s line %u: thickness “%s” is not a number"),
                  rest[0], row.line, thick);
        else
          {
            g_array_append_val (rows, row);
            continue;
          }
        batch_row_clear (&row);
        n_failed++;
      }
    }

  have_thickness = (thickness_text != NULL || col_thickness >= 0);
  for (guint r = 0; r < rows->len && !have_thickness; r++)
    have_thickness = isfinite (g_array_index (rows, BatchRow, r).thickness);
  if (!parse_fields ("batch", fields_text, have_thickness, order, &n_order, &mask))
    return XRLAB_CLI_USAGE;
  n_q = xrlab_quantity_mask_count (mask);

  /* Group the rows by energy spec: one grid and one batch call per group. */
  for (guint r = 0; r < rows->len; r++)
    {
      BatchRow *row = &g_array_index (rows, BatchRow, r);
      gpointer found;

      if ((mask & XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_TRANSMISSION)) && !isfinite (row->thickness))
        {
          report (problems, row->line, _("%s line %u: no thickness for the transmission column "
                                         "(add one to the row or give --thickness UM)"),
                  rest[0], row->line);
          row->failed = TRUE;
          n_failed++;
          continue;
        }

      if (g_hash_table_lookup_extended (group_of_spec, row->spec, NULL, &found))
        row->group = GPOINTER_TO_SIZE (found);
      else
        {
          BatchGroup g = { 0, };
          g.spec = g_strdup (row->spec);
          g.grid = xrlab_energy_grid_parse (row->spec, unit, &error);
          if (g.grid == NULL)
            {
              /* Every row of this spec fails with the same reason. */
              g.grid_error = g_strdup (error->message);
              g_clear_error (&error);
            }
          g.rows = g_array_new (FALSE, FALSE, sizeof (guint));
          row->group = groups->len;
          g_array_append_val (groups, g);
          g_hash_table_insert (group_of_spec, g.spec, GSIZE_TO_POINTER (row->group));
        }
      {
        BatchGroup *g = &g_array_index (groups, BatchGroup, row->group);
        row->index = g->rows->len;
        g_array_append_val (g->rows, r);
      }
    }

  progress.tty = isatty (STDERR_FILENO);
  for (guint gi = 0; gi < groups->len; gi++)
    progress.total += 2 * g_array_index (groups, BatchGroup, gi).rows->len;
  for (guint gi = 0; gi < groups->len; gi++)
    {
      BatchGroup *g = &g_array_index (groups, BatchGroup, gi);
      gsize n_mat = g->rows->len;
      g_autofree XrlabMaterialSpec *specs = NULL;

      if (g->grid == NULL)
        {
          for (guint k = 0; k < n_mat; k++)
            {
              BatchRow *row = &g_array_index (rows, BatchRow, g_array_index (g->rows, guint, k));
              report (problems, row->line, _("%s line %u: %s"), rest[0], row->line, g->grid_error);
              row->failed = TRUE;
              n_failed++;
            }
          progress.done_before += n_mat;
          continue;
        }
      /* One request to the engine per grid: all its rows, one input and
       * one output transfer. */
      specs = g_new0 (XrlabMaterialSpec, n_mat);
      for (guint k = 0; k < n_mat; k++)
        {
          BatchRow *row = &g_array_index (rows, BatchRow, g_array_index (g->rows, guint, k));
          specs[k].formula = xrlab_formula_get_text (row->formula);
          specs[k].density_g_cm3 = row->density;
          specs[k].thickness_um = isfinite (row->thickness) ? row->thickness : 0.0;
        }
      if (engine == NULL)
        engine = xrlab_engine_new ();
      g->batch = xrlab_engine_batch_sync (engine, specs, n_mat, g->grid, mask,
                                          progress.tty ? progress_cb : NULL, &progress,
                                          NULL, &error);
      if (g->batch == NULL)
        return xrlab_cli_fail (error);
      for (guint k = 0; k < n_mat; k++)
        if (g->batch->errors[k] != NULL)
          {
            BatchRow *row = &g_array_index (rows, BatchRow, g_array_index (g->rows, guint, k));
            report (problems, row->line, _("%s line %u: %s"), rest[0], row->line,
                    g->batch->errors[k]->message);
            row->failed = TRUE;
            n_failed++;
          }
      progress.done_before += n_mat;
    }
  g_array_sort (problems, compare_problems);   /* at most one problem per line */

  for (guint r = 0; r < rows->len; r++)
    n_good += !g_array_index (rows, BatchRow, r).failed;
  if (n_good == 0)
    {
      progress_draw (&progress, progress.total, TRUE);
      for (guint i = 0; i < problems->len; i++)
        fputs (g_array_index (problems, Problem, i).message, stderr);
      if (n_failed == 0)
        return xrlab_cli_failf (_("%s has no rows"), rest[0]);
      return xrlab_cli_failf (_("no row of %s could be computed; nothing written"), rest[0]);
    }

  /* Write the good rows in input order. */
  if (output != NULL && strcmp (output, "-") != 0)
    {
      af = xrlab_atomic_file_open (output, &error);
      if (af == NULL)
        return xrlab_cli_fail (error);
      out = xrlab_atomic_file_stream (af);
    }
  else
    out = stdout;
  {
    g_autoptr(GString) s = g_string_new ("formula,density_g_cm3,energy_keV");
    for (guint k = 0; k < n_order; k++)
      g_string_append_printf (s, ",%s", xrlab_quantity_get_column (order[k]));
    g_string_append_c (s, '\n');
    fwrite (s->str, 1, s->len, out);
    for (guint r = 0; r < rows->len; r++)
      {
        BatchRow *row = &g_array_index (rows, BatchRow, r);
        BatchGroup *g = &g_array_index (groups, BatchGroup, row->group);
        const double *e;
        gsize n_e;

        progress_draw (&progress, progress.total / 2 + r, FALSE);
        if (row->failed)
          continue;
        n_e = xrlab_energy_grid_get_size (g->grid);
        e = xrlab_energy_grid_get_energies_kev (g->grid);
        for (gsize i = 0; i < n_e; i++)
          {
            const double *block = g->batch->values + row->index * n_q * n_e;
            g_string_truncate (s, 0);
            xrlab_csv_append_field (s, row->formula_text);
            g_string_append_c (s, ',');
            append_double (s, row->density);
            g_string_append_c (s, ',');
            append_double (s, e[i]);
            for (guint k = 0; k < n_order; k++)
              {
                int idx = xrlab_quantity_mask_index (mask, order[k]);
                g_string_append_c (s, ',');
                append_double (s, block[(gsize) idx * n_e + i]);
              }
            g_string_append_c (s, '\n');
            fwrite (s->str, 1, s->len, out);
          }
      }
  }
  progress_draw (&progress, progress.total, TRUE);
  for (guint i = 0; i < problems->len; i++)
    fputs (g_array_index (problems, Problem, i).message, stderr);
  if (af != NULL)
    {
      if (!xrlab_atomic_file_commit (af, &error))
        return xrlab_cli_fail (error);
    }
  else if (fflush (stdout) != 0)
    return xrlab_cli_failf (_("Cannot write to standard output: %s"), g_strerror (errno));

  if (n_failed > 0)
    return xrlab_cli_failf (g_dngettext (GETTEXT_PACKAGE, "%zu row failed, %zu written",
                                         "%zu rows failed, %zu written", n_failed),
                            n_failed, n_good);
  return XRLAB_CLI_OK;
}

/* ---- convert -------------------------------------------------------------- */

int
xrlab_cli_convert (int argc, char **argv)
{
  g_autofree char *format_text = NULL;
  g_auto(GStrv) rest = NULL;
  GOptionEntry entries[] = {
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format_text,
      N_("Output: table (default), csv or json"), N_("FORMAT") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &rest, NULL, N_("VALUE...") },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new (NULL);
  g_autoptr(GString) s = NULL;
  g_autofree double *kev = NULL;
  Format format;
  gsize n;

  g_option_context_set_summary (ctx,
    _("Photon energy ↔ wavelength: λ E = hc = 12.398419843320026 keV Å (CODATA 2018).\n"
      "Each VALUE carries its unit: 8.048keV, 8048eV, 1.5406A (or Å), 0.15406nm."));
  g_option_context_set_description (ctx, _("Exit status: 0 success, 1 bad input, 2 usage error."));
  g_option_context_add_main_entries (ctx, entries, GETTEXT_PACKAGE);
  if (!xrlab_cli_parse (ctx, &argc, &argv))
    return XRLAB_CLI_USAGE;
  if (rest == NULL || rest[0] == NULL)
    return xrlab_cli_usage ("convert", _("missing VALUE (e.g. 8.048keV or 1.5406A)"));
  if (!parse_format ("convert", format_text, &format))
    return XRLAB_CLI_USAGE;

  n = g_strv_length (rest);
  kev = g_new (double, n);
  for (gsize i = 0; i < n; i++)
    {
      g_autofree char *t = g_strstrip (g_strdup (rest[i]));
      static const struct { const char *suffix; double scale; gboolean wavelength; } units[] = {
        { "kev", 1.0, FALSE }, { "ev", 1e-3, FALSE },
        { "nm", 10.0, TRUE }, { "pm", 1e-2, TRUE }, { "angstrom", 1.0, TRUE },
        { "Å", 1.0, TRUE }, { "a", 1.0, TRUE },
      };
      gboolean found = FALSE;
      gsize len = strlen (t);

      for (gsize u = 0; u < G_N_ELEMENTS (units) && !found; u++)
        {
          gsize sl = strlen (units[u].suffix);
          g_autofree char *num = NULL;
          double v;

          if (len <= sl || g_ascii_strcasecmp (t + len - sl, units[u].suffix) != 0)
            continue;
          num = g_strndup (t, len - sl);
          found = TRUE;
          if (!xrlab_parse_double (num, FALSE, &v))
            return xrlab_cli_failf (_("“%s” is not a number with a unit (e.g. 8.048keV)"), rest[i]);
          if (!(v > 0.0))
            return xrlab_cli_failf (_("“%s” must be positive"), rest[i]);
          v *= units[u].scale;
          kev[i] = units[u].wavelength ? xrlab_angstrom_to_kev (v) : v;
          if (!isfinite (kev[i]) || !(kev[i] > 0.0))
            return xrlab_cli_failf (_("“%s” is out of range"), rest[i]);
        }
      if (!found)
        return xrlab_cli_failf (_("“%s” has no unit: write 8.048keV, 8048eV, 1.5406A or 0.15406nm"),
                                rest[i]);
    }

  s = g_string_new (NULL);
  if (format == FORMAT_CSV)
    {
      g_string_append (s, "energy_keV,energy_eV,wavelength_A\n");
      for (gsize i = 0; i < n; i++)
        {
          append_double (s, kev[i]);
          g_string_append_c (s, ',');
          append_double (s, kev[i] * 1000.0);
          g_string_append_c (s, ',');
          append_double (s, xrlab_kev_to_angstrom (kev[i]));
          g_string_append_c (s, '\n');
        }
    }
  else if (format == FORMAT_JSON)
    {
      g_string_append (s, "[");
      for (gsize i = 0; i < n; i++)
        {
          g_string_append (s, i ? ",\n  {\"energy_keV\": " : "\n  {\"energy_keV\": ");
          append_json_double (s, kev[i]);
          g_string_append (s, ", \"energy_eV\": ");
          append_json_double (s, kev[i] * 1000.0);
          g_string_append (s, ", \"wavelength_A\": ");
          append_json_double (s, xrlab_kev_to_angstrom (kev[i]));
          g_string_append (s, "}");
        }
      g_string_append (s, "\n]\n");
    }
  else
    for (gsize i = 0; i < n; i++)
      g_string_append_printf (s, "%-14s  %.10g keV = %.10g eV = %.10g Å\n", rest[i],
                              kev[i], kev[i] * 1000.0, xrlab_kev_to_angstrom (kev[i]));
  return emit (NULL, s);
}

/* ---- formula -------------------------------------------------------------- */

int
xrlab_cli_formula (int argc, char **argv)
{
  g_autofree char *format_text = NULL, *density_text = NULL;
  g_auto(GStrv) rest = NULL;
  GOptionEntry entries[] = {
    { "density", 'd', 0, G_OPTION_ARG_STRING, &density_text,
      N_("Mass density (g/cm³): adds number densities"), N_("RHO") },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format_text,
      N_("Output: table (default) or json"), N_("FORMAT") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &rest, NULL, N_("FORMULA") },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new (NULL);
  g_autoptr(XrlabFormula) f = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) s = NULL;
  Format format;
  double density = NAN;
  gsize n;
  const int *ids;
  const double *counts, *w;

  g_option_context_set_summary (ctx,
    _("Composition of a formula: atoms per formula unit, mass fractions,\n"
      "molecular weight and electrons per formula unit. Mixtures list their\n"
      "parts and mass fractions."));
  g_option_context_set_description (ctx,
    _("Example:\n  xrlab-cli formula \"CuSO4·5H2O\"\n\n"
      "Exit status: 0 success, 1 bad input, 2 usage error."));
  g_option_context_add_main_entries (ctx, entries, GETTEXT_PACKAGE);
  if (!xrlab_cli_parse (ctx, &argc, &argv))
    return XRLAB_CLI_USAGE;
  if (rest == NULL || rest[0] == NULL)
    return xrlab_cli_usage ("formula", _("missing FORMULA"));
  if (rest[1] != NULL)
    return xrlab_cli_usage ("formula", _("one FORMULA only, got “%s” too (quote formulas with spaces)"),
                            rest[1]);
  if (!parse_format ("formula", format_text, &format))
    return XRLAB_CLI_USAGE;
  if (format == FORMAT_CSV)
    return xrlab_cli_usage ("formula", _("--format must be table or json"));
  if (density_text != NULL)
    {
      if (!parse_number_arg (_("Density “%s” is not a number"), density_text, &density))
        return XRLAB_CLI_BAD_INPUT;
      if (!(density > 0.0))
        return xrlab_cli_failf (_("Density %s g/cm³ must be positive"), density_text);
    }
  f = xrlab_formula_parse (rest[0], &error);
  if (f == NULL)
    return xrlab_cli_failf (_("Formula “%s”: %s"), rest[0], error->message);

  n = xrlab_formula_get_n_atoms (f);
  ids = xrlab_formula_get_ids (f);
  counts = xrlab_formula_get_counts (f);
  w = xrlab_formula_get_mass_fractions (f);
  s = g_string_new (NULL);
  if (format == FORMAT_JSON)
    {
      g_string_append (s, "{\n  \"formula\": ");
      xrlab_json_append_string (s, xrlab_formula_get_text (f));
      g_string_append (s, ",\n  \"molecular_weight_g_mol\": ");
      append_json_double (s, xrlab_formula_get_molecular_weight (f));
      g_string_append (s, ",\n  \"electrons_per_formula_unit\": ");
      append_json_double (s, xrlab_formula_get_electrons (f));
      if (density_text != NULL)
        {
          g_string_append (s, ",\n  \"density_g_cm3\": ");
          append_json_double (s, density);
          g_string_append (s, ",\n  \"electron_density_per_A3\": ");
          append_json_double (s, xrlab_optics_electron_density (f, density));
        }
      g_string_append (s, ",\n  \"atoms\": [");
      for (gsize i = 0; i < n; i++)
        {
          g_string_append (s, i ? ",\n    {\"symbol\": " : "\n    {\"symbol\": ");
          xrlab_json_append_string (s, xrlab_element_get_symbol (ids[i]));
          g_string_append_printf (s, ", \"z\": %d, \"count\": ", xrlab_element_get_z (ids[i]));
          append_json_double (s, counts[i]);
          g_string_append (s, ", \"atomic_weight_g_mol\": ");
          append_json_double (s, xrlab_element_get_weight (ids[i]));
          g_string_append (s, ", \"mass_fraction\": ");
          append_json_double (s, w[i]);
          g_string_append (s, "}");
        }
      g_string_append (s, "\n  ],\n  \"parts\": [");
      for (gsize j = 0; j < xrlab_formula_get_n_parts (f); j++)
        {
          g_string_append (s, j ? ",\n    {\"formula\": " : "\n    {\"formula\": ");
          xrlab_json_append_string (s, xrlab_formula_get_part_text (f, j));
          g_string_append (s, ", \"mass_fraction\": ");
          append_json_double (s, xrlab_formula_get_part_mass_fraction (f, j));
          g_string_append (s, "}");
        }
      g_string_append (s, "\n  ]\n}\n");
    }
  else
    {
      const char *headers[] = {
        _("Element"), "Z", _("Atoms"), _("Atomic weight"), _("Mass fraction"),
      };
      const char *units[] = { "", "", _("per formula unit"), "g/mol", "%" };
      /* The labels of the summary, one column wide. */
      enum { FORMULA, MOLAR_MASS, ELECTRONS, DENSITY, PARTS, N_LABELS };
      const char *labels[N_LABELS] = {
        _("Formula"), _("Molar mass"), _("Electrons"), _("Density"), _("Parts"),
      };
      int label_width = 0;
      char **cells = g_new (char *, n * 5);
      g_autofree char *sum = xrlab_formula_to_string (f);

      for (int k = 0; k < N_LABELS; k++)
        label_width = MAX (label_width, width_of (labels[k]) + 3);
      append_padded (s, labels[FORMULA], label_width, FALSE);
      g_string_append (s, xrlab_formula_get_text (f));
      if (strcmp (sum, xrlab_formula_get_text (f)) != 0)
        g_string_append_printf (s, "  (%s)", sum);
      g_string_append_c (s, '\n');
      append_padded (s, labels[MOLAR_MASS], label_width, FALSE);
      g_string_append_printf (s, "%.10g g/mol\n", xrlab_formula_get_molecular_weight (f));
      append_padded (s, labels[ELECTRONS], label_width, FALSE);
      g_string_append_printf (s, _("%.10g per formula unit"), xrlab_formula_get_electrons (f));
      g_string_append_c (s, '\n');
      if (density_text != NULL)
        {
          append_padded (s, labels[DENSITY], label_width, FALSE);
          g_string_append_printf (s, _("%.10g g/cm³: %.6g formula units/Å³, %.6g e/Å³"),
                                  density,
                                  density / xrlab_formula_get_molecular_weight (f)
                                  * XRLAB_AVOGADRO_PER_MOL * 1e-24,
                                  xrlab_optics_electron_density (f, density));
          g_string_append_c (s, '\n');
        }
      if (xrlab_formula_get_n_parts (f) > 1)
        {
          append_padded (s, labels[PARTS], label_width, FALSE);
          for (gsize j = 0; j < xrlab_formula_get_n_parts (f); j++)
            g_string_append_printf (s, "%s%.6g wt%% %s", j ? ", " : "",
                                    100.0 * xrlab_formula_get_part_mass_fraction (f, j),
                                    xrlab_formula_get_part_text (f, j));
          g_string_append_c (s, '\n');
        }
      g_string_append_c (s, '\n');
      for (gsize i = 0; i < n; i++)
        {
          cells[i * 5 + 0] = g_strdup_printf ("%s (%s)", xrlab_element_get_symbol (ids[i]),
                                              element_name (ids[i]));
          cells[i * 5 + 1] = g_strdup_printf ("%d", xrlab_element_get_z (ids[i]));
          cells[i * 5 + 2] = g_strdup_printf ("%.8g", counts[i]);
          cells[i * 5 + 3] = g_strdup_printf ("%.10g", xrlab_element_get_weight (ids[i]));
          cells[i * 5 + 4] = g_strdup_printf ("%.6f", 100.0 * w[i]);
        }
      append_table (s, headers, units, cells, n, 5, "lrrrr");
      free_cells (cells, n * 5);
    }
  return emit (NULL, s);
}

/* ---- edges ---------------------------------------------------------------- */

/* A symbol ("Fe", "fe", "FE") or an atomic number ("26"). */
static int
element_from_arg (const char *text)
{
  double v;
  char sym[3] = { 0, };
  gsize len = strlen (text);
  int id;

  if (xrlab_parse_double (text, FALSE, &v))
    return (v == floor (v) && v >= 1 && v <= XRLAB_ELEMENT_Z_MAX) ? (int) v : 0;
  if ((id = xrlab_element_lookup (text, -1)) != 0)
    return xrlab_element_get_z (id);
  if (len < 1 || len > 2)
    return 0;
  sym[0] = g_ascii_toupper (text[0]);
  if (len == 2)
    sym[1] = g_ascii_tolower (text[1]);
  id = xrlab_element_lookup (sym, -1);
  return id ? xrlab_element_get_z (id) : 0;
}

int
xrlab_cli_edges (int argc, char **argv)
{
  g_autofree char *format_text = NULL;
  g_auto(GStrv) rest = NULL;
  GOptionEntry entries[] = {
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format_text,
      N_("Output: table (default), csv or json"), N_("FORMAT") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &rest, NULL, N_("SYMBOL...") },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new (NULL);
  g_autoptr(GString) s = NULL;
  Format format;
  gsize n;

  g_option_context_set_summary (ctx,
    _("Absorption-edge energies K, L1–L3, M1–M5 of elements (from xraylib).\n"
      "SYMBOL is an element symbol (Fe) or an atomic number (26)."));
  g_option_context_set_description (ctx, _("Exit status: 0 success, 1 bad input, 2 usage error."));
  g_option_context_add_main_entries (ctx, entries, GETTEXT_PACKAGE);
  if (!xrlab_cli_parse (ctx, &argc, &argv))
    return XRLAB_CLI_USAGE;
  if (rest == NULL || rest[0] == NULL)
    return xrlab_cli_usage ("edges", _("missing SYMBOL (e.g. Fe)"));
  if (!parse_format ("edges", format_text, &format))
    return XRLAB_CLI_USAGE;
  n = g_strv_length (rest);
  for (gsize i = 0; i < n; i++)
    if (element_from_arg (rest[i]) == 0)
      return xrlab_cli_failf (_("Unknown element “%s”: give a symbol from H to U or Z = 1–%d"),
                              rest[i], XRLAB_ELEMENT_Z_MAX);

  s = g_string_new (NULL);
  if (format == FORMAT_CSV)
    g_string_append (s, "symbol,z,edge,energy_keV,wavelength_A\n");
  else if (format == FORMAT_JSON)
    g_string_append (s, "[");
  for (gsize i = 0; i < n; i++)
    {
      int z = element_from_arg (rest[i]);
      XrlabEdgeEnergy edges[XRLAB_EDGE_N_EDGES];
      gsize k = xrlab_presets_get_edges (z, edges);

      if (format == FORMAT_CSV)
        for (gsize j = 0; j < k; j++)
          {
            g_string_append_printf (s, "%s,%d,%s,", xrlab_element_get_symbol (z), z,
                                    xrlab_edge_get_name (edges[j].edge));
            append_double (s, edges[j].energy_kev);
            g_string_append_c (s, ',');
            append_double (s, xrlab_kev_to_angstrom (edges[j].energy_kev));
            g_string_append_c (s, '\n');
          }
      else if (format == FORMAT_JSON)
        {
          g_string_append (s, i ? ",\n  {\"symbol\": " : "\n  {\"symbol\": ");
          xrlab_json_append_string (s, xrlab_element_get_symbol (z));
          g_string_append_printf (s, ", \"z\": %d, \"edges_keV\": {", z);
          for (gsize j = 0; j < k; j++)
            {
              g_string_append (s, j ? ", " : "");
              xrlab_json_append_string (s, xrlab_edge_get_name (edges[j].edge));
              g_string_append (s, ": ");
              append_json_double (s, edges[j].energy_kev);
            }
          g_string_append (s, "}}");
        }
      else
        {
          const char *headers[] = { _("Edge"), _("Energy"), _("Energy"), _("Wavelength") };
          const char *units[] = { "", "keV", "eV", "Å" };
          char **cells = g_new (char *, MAX (k, 1) * 4);

          g_string_append_printf (s, "%s%s (%s), Z = %d\n", i ? "\n" : "", xrlab_element_get_symbol (z),
                                  element_name (z), z);
          for (gsize j = 0; j < k; j++)
            {
              cells[j * 4 + 0] = g_strdup (xrlab_edge_get_name (edges[j].edge));
              cells[j * 4 + 1] = g_strdup_printf ("%.6g", edges[j].energy_kev);
              cells[j * 4 + 2] = g_strdup_printf ("%.6g", edges[j].energy_kev * 1000.0);
              cells[j * 4 + 3] = g_strdup_printf ("%.6g", xrlab_kev_to_angstrom (edges[j].energy_kev));
            }
          append_table (s, headers, units, cells, k, 4, "lrrr");
          free_cells (cells, k * 4);
        }
    }
  if (format == FORMAT_JSON)
    g_string_append (s, "\n]\n");
  return emit (NULL, s);
}

/* ---- materials ------------------------------------------------------------ */

int
xrlab_cli_materials (int argc, char **argv)
{
  g_autofree char *format_text = NULL, *search = NULL;
  GOptionEntry entries[] = {
    { "search", 's', 0, G_OPTION_ARG_STRING, &search,
      N_("Only materials whose name, formula or note contains TEXT"), N_("TEXT") },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format_text,
      N_("Output: table (default), csv or json"), N_("FORMAT") },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new (NULL);
  g_autoptr(GPtrArray) found = NULL;
  g_autoptr(GString) s = NULL;
  Format format;

  g_option_context_set_summary (ctx,
    _("Preset materials with their densities: common beamline materials and\n"
      "xraylib's NIST compounds. Their names work as FORMULA in calc and compare."));
  g_option_context_set_description (ctx, _("Exit status: 0 success, 1 bad input, 2 usage error."));
  g_option_context_add_main_entries (ctx, entries, GETTEXT_PACKAGE);
  if (!xrlab_cli_parse (ctx, &argc, &argv))
    return XRLAB_CLI_USAGE;
  if (argc > 1)
    return xrlab_cli_usage ("materials", _("unexpected “%s” (use --search TEXT)"), argv[1]);
  if (!parse_format ("materials", format_text, &format))
    return XRLAB_CLI_USAGE;

  found = xrlab_presets_search (search);
  if (found->len == 0)
    return xrlab_cli_failf (_("No material matches “%s”"), search);
  s = g_string_new (NULL);
  if (format == FORMAT_CSV)
    {
      g_string_append (s, "name,formula,density_g_cm3,source\n");
      for (guint i = 0; i < found->len; i++)
        {
          const XrlabPreset *p = g_ptr_array_index (found, i);
          xrlab_csv_append_field (s, p->name);
          g_string_append_c (s, ',');
          xrlab_csv_append_field (s, p->formula);
          g_string_append_c (s, ',');
          append_double (s, p->density_g_cm3);
          g_string_append (s, p->source == XRLAB_PRESET_NIST ? ",nist\n" : ",common\n");
        }
    }
  else if (format == FORMAT_JSON)
    {
      g_string_append (s, "[");
      for (guint i = 0; i < found->len; i++)
        {
          const XrlabPreset *p = g_ptr_array_index (found, i);
          g_string_append (s, i ? ",\n  {\"name\": " : "\n  {\"name\": ");
          xrlab_json_append_string (s, p->name);
          g_string_append (s, ", \"formula\": ");
          xrlab_json_append_string (s, p->formula);
          g_string_append (s, ", \"density_g_cm3\": ");
          append_json_double (s, p->density_g_cm3);
          g_string_append (s, p->source == XRLAB_PRESET_NIST ? ", \"source\": \"nist\"}" : ", \"source\": \"common\"}");
        }
      g_string_append (s, "\n]\n");
    }
  else
    {
      const char *headers[] = { _("Name"), _("Density"), _("Formula") };
      const char *units[] = { "", "g/cm³", "" };
      char **cells = g_new (char *, found->len * 3);

      for (guint i = 0; i < found->len; i++)
        {
          const XrlabPreset *p = g_ptr_array_index (found, i);
          cells[i * 3 + 0] = g_strdup (p->name);
          cells[i * 3 + 1] = g_strdup_printf ("%.6g", p->density_g_cm3);
          cells[i * 3 + 2] = g_strdup (p->formula);
        }
      append_table (s, headers, units, cells, found->len, 3, "lrl");
      free_cells (cells, found->len * 3);
    }
  return emit (NULL, s);
}
