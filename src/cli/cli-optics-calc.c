/* cli-optics-calc.c -- xrlab-cli calc, compare and convert: optical
 * constants of one material or several on an energy grid, and photon energy
 * ↔ wavelength
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

#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

#include "cli-optics.h"
#include "cli-private.h"
#include "xrlab-constants.h"
#include "xrlab-engine.h"
#include "xrlab-util.h"

/* ---- calc ----------------------------------------------------------------- */

/* One material on one energy grid, and its table: energy and the fields. */
typedef struct {
  XrlabFormula *formula;
  const XrlabPreset *preset;   /* when FORMULA names one */
  gboolean preset_density;     /* the density is the preset's */
  double density;
  double thickness;            /* NaN when not given */
  XrlabTableChoice choice;     /* --table */
  XrlabQuantity transmission;  /* --transmission */
  XrlabEnergyGrid *grid;
  XrlabCliFields fields;
  XrlabCliTable *table;
} Calc;

static void
calc_clear (Calc *c)
{
  g_clear_pointer (&c->formula, xrlab_formula_unref);
  g_clear_pointer (&c->grid, xrlab_energy_grid_unref);
  g_clear_pointer (&c->table, xrlab_cli_table_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Calc, calc_clear)

/* The material of FORMULA and -d, -t. Returns the exit status. */
static int
calc_read_material (Calc *c, const char *text, const char *density_text,
                    const char *thickness_text)
{
  c->thickness = NAN;
  c->formula = xrlab_cli_resolve_material (text, &c->preset);
  if (c->formula == NULL)
    return XRLAB_CLI_BAD_INPUT;
  if (density_text != NULL)
    {
      if (!xrlab_cli_parse_number (_("Density “%s” is not a number"), density_text, &c->density))
        return XRLAB_CLI_BAD_INPUT;
    }
  else if (c->preset != NULL)
    {
      char buf[XRLAB_DTOA_BUFSIZE];

      c->density = c->preset->density_g_cm3;
      c->preset_density = TRUE;
      /* TRANSLATORS: the formula given, the preset's name and density */
      g_printerr (_("xrlab-cli: %s: the density of the preset “%s”, %s g/cm³ (-d RHO for another)\n"),
                  text, c->preset->name, xrlab_format_double (c->density, buf));
    }
  else
    return xrlab_cli_usage ("calc", _("missing -d RHO (density in g/cm³): “%s” is not a preset"),
                            text);
  if (thickness_text != NULL
      && !xrlab_cli_parse_number (_("Thickness “%s” is not a number"), thickness_text,
                                  &c->thickness))
    return XRLAB_CLI_BAD_INPUT;
  return XRLAB_CLI_OK;
}

/* Computes the fields on the grid into the table. Returns the exit status. */
static int
calc_compute (Calc *c)
{
  g_autoptr(GError) error = NULL;
  gsize n = xrlab_energy_grid_get_size (c->grid);
  g_autofree double *values = g_new (double, (gsize) XRLAB_QUANTITY_N * n);
  double *out[XRLAB_QUANTITY_N] = { NULL, };
  XrlabOpticsMaterial material = { c->formula, c->density, c->thickness };
  XrlabOpticsCache *cache = xrlab_optics_cache_new (c->grid);
  gboolean ok;

  for (guint k = 0; k < c->fields.n; k++)
    out[c->fields.order[k]] = values + (gsize) c->fields.order[k] * n;
  ok = xrlab_optics_compute (cache, &material, c->fields.mask, out, &error);
  xrlab_optics_cache_free (cache);
  if (!ok)
    return xrlab_cli_fail (error);

  c->table = xrlab_cli_table_new ();
  xrlab_cli_table_add_energy (c->table);
  for (guint k = 0; k < c->fields.n; k++)
    xrlab_cli_table_add_quantity (c->table, c->fields.order[k]);
  xrlab_cli_table_set_numbers (c->table, 0, xrlab_energy_grid_get_energies_kev (c->grid), n);
  for (guint k = 0; k < c->fields.n; k++)
    xrlab_cli_table_set_numbers (c->table, k + 1, out[c->fields.order[k]], n);
  return XRLAB_CLI_OK;
}

/* The n that chooses the plural form for a count printed as @shown (by
 * xrlab_cli_format_number()): the count when it is a whole number, else 2
 * (fractions take the plural form in English and German). */
static gulong
plural_count (const char *shown)
{
  guint64 n;

  if (!g_ascii_string_to_unsigned (shown, 10, 0, G_MAXUINT64, &n, NULL))
    return 2;
  return n > G_MAXULONG ? G_MAXULONG : (gulong) n;
}

/* For people: the material, its molar mass and electrons, the table, a
 * note when a critical angle is missing, and the scattering-factor table. */
static void
calc_append_text (const Calc *c, GString *s)
{
  g_autofree char *electrons = xrlab_cli_format_number (xrlab_formula_get_electrons (c->formula));
  gboolean any_nan = FALSE;

  g_string_append_printf (s, "%s  %s, ρ = %.6g g/cm³",
                          c->preset_density ? c->preset->name : _("Material"),
                          xrlab_formula_get_text (c->formula), c->density);
  if (!isnan (c->thickness))
    g_string_append_printf (s, ", t = %.6g µm", c->thickness);
  g_string_append_c (s, '\n');
  g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE,
                                          "M = %.6g g/mol, %s electron per formula unit, %.6g e/Å³",
                                          "M = %.6g g/mol, %s electrons per formula unit, %.6g e/Å³",
                                          plural_count (electrons)),
                          xrlab_formula_get_molecular_weight (c->formula), electrons,
                          xrlab_optics_electron_density (c->formula, c->density));
  g_string_append (s, "\n\n");
  xrlab_cli_table_append_text (c->table, s);

  for (gsize r = 0; r < xrlab_cli_table_get_n_rows (c->table); r++)
    for (guint k = 1; k < xrlab_cli_table_get_n_columns (c->table); k++)
      any_nan |= isnan (xrlab_cli_table_get_number (c->table, r, k));
  g_string_append_c (s, '\n');
  if (any_nan)
    g_string_append_printf (s, "%s\n", _("— no critical angle where δ < 0 (total f1 negative)"));
  xrlab_cli_append_table_note (s, xrlab_energy_grid_get_table (c->grid), c->choice);
}

/* The comment lines before the CSV: the material, with its density and
 * where it came from, and the table. */
static void
calc_append_csv (const Calc *c, GString *s)
{
  char buf[XRLAB_DTOA_BUFSIZE];

  g_string_append_printf (s, "# material: %s, density %s g/cm3", xrlab_formula_get_text (c->formula),
                          xrlab_format_double (c->density, buf));
  if (c->preset_density)
    g_string_append_printf (s, " (preset \"%s\")", c->preset->name);
  if (!isnan (c->thickness))
    g_string_append_printf (s, ", thickness %s um", xrlab_format_double (c->thickness, buf));
  g_string_append_c (s, '\n');
  xrlab_cli_append_table_comment (s, xrlab_energy_grid_get_table (c->grid), c->choice);
  xrlab_cli_table_append_csv (c->table, s);
}

/* The material's numbers, then the table's columns. */
static void
calc_append_json (const Calc *c, GString *s)
{
  XrlabCliJson json;

  xrlab_cli_json_init (&json, s);
  xrlab_cli_json_begin_object (&json, NULL, XRLAB_CLI_JSON_LINES);
  xrlab_cli_json_string (&json, "formula", xrlab_formula_get_text (c->formula));
  xrlab_cli_json_number (&json, "density_g_cm3", c->density);
  if (c->preset_density)
    xrlab_cli_json_string (&json, "density_preset", c->preset->name);
  if (!isnan (c->thickness))
    xrlab_cli_json_number (&json, "thickness_um", c->thickness);
  xrlab_cli_json_number (&json, "molecular_weight_g_mol",
                         xrlab_formula_get_molecular_weight (c->formula));
  xrlab_cli_json_number (&json, "electrons_per_formula_unit",
                         xrlab_formula_get_electrons (c->formula));
  xrlab_cli_json_number (&json, "electron_density_per_A3",
                         xrlab_optics_electron_density (c->formula, c->density));
  xrlab_cli_json_table (&json, xrlab_energy_grid_get_table (c->grid), c->choice);
  xrlab_cli_table_write_json_columns (c->table, &json, "columns");
  xrlab_cli_json_end (&json);
}

int
xrlab_cli_calc (int argc, char **argv)
{
  g_auto(XrlabCliOpticsOptions) o = { 0 };
  g_autofree char *density_text = NULL;
  g_autofree char *thickness_text = NULL, *fields_text = NULL;
  g_autofree char *transmission_text = NULL;
  g_auto(GStrv) rest = NULL;
  const GOptionEntry entries[] = {
    { "density", 'd', 0, G_OPTION_ARG_STRING, &density_text,
      N_("Mass density (g/cm³); a preset's when left out"), N_("RHO") },
    { "transmission", 0, 0, G_OPTION_ARG_STRING, &transmission_text,
      N_("Transmission from the total attenuation (default) or photo(absorption) only"),
      N_("total|photo") },
    { "thickness", 't', 0, G_OPTION_ARG_STRING, &thickness_text,
      N_("Layer thickness (µm): adds the transmission"), N_("UM") },
    { "fields", 0, 0, G_OPTION_ARG_STRING, &fields_text,
      N_("Columns to print, comma separated (default: all)"), N_("LIST") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &rest, NULL, N_("FORMULA") },
    G_OPTION_ENTRY_NULL
  };
  const XrlabCliSpec spec = {
    .summary =
      /* xgettext:no-c-format */
      _("Optical constants of a material on an energy grid: λ, δ, β, f1, f2, the\n"
        "critical angle, attenuation length, μ and μ/ρ from photoabsorption and\n"
        "in total (photoabsorption + coherent + incoherent scattering), the real\n"
        "and imaginary SLD, and the transmission of a layer when --thickness is\n"
        "given.\n\n"
        "FORMULA: SiO2, Ca3(PO4)2, CuSO4·5H2O, D2O, “70wt% SiO2 // B2O3”, or a\n"
        "preset name (see “xrlab-cli materials”).\n\n"
        "TABLE: henke (Henke/CXRO, 30 eV–30 keV; scattering from xraylib), chantler\n"
        "(NIST FFAST, 1 eV–966 keV, with its own scattering), or auto: Henke when\n"
        "every energy lies within 30 eV–30 keV, Chantler for all of them otherwise."),
    .description =
      _("Example:\n  xrlab-cli calc SiO2 -d 2.2 -e 5:15:11 --format csv\n\n"
        "CSV and JSON numbers read back to the same doubles. The critical angle is\n"
        "nan (JSON null) where δ < 0.\n"
        "Exit status: 0 success, 1 bad input, 2 usage error."),
    .entries = { entries, o.entries },
  };
  g_auto(Calc) c = { 0, };
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) s = NULL;
  XrlabEnergyUnit unit;
  XrlabCliFormat format;
  int status;

  xrlab_cli_optics_options_init (&o);
  if (!xrlab_cli_parse_options (&spec, &argc, &argv))
    return XRLAB_CLI_USAGE;
  if (rest == NULL || rest[0] == NULL)
    return xrlab_cli_usage ("calc", _("missing FORMULA"));
  if (rest[1] != NULL)
    return xrlab_cli_usage ("calc", _("one FORMULA only, got “%s” too (quote formulas with spaces)"),
                            rest[1]);
  if (o.energy == NULL)
    return xrlab_cli_usage ("calc", _("missing -e SPEC (energies, e.g. -e 8.048)"));
  if (!xrlab_cli_parse_format ("calc", o.format, &format)
      || !xrlab_cli_parse_energy_unit ("calc", o.unit, &unit)
      || !xrlab_cli_parse_table ("calc", o.table, &c.choice)
      || !xrlab_cli_parse_transmission ("calc", transmission_text, &c.transmission)
      || !xrlab_cli_parse_fields ("calc", fields_text, thickness_text != NULL, c.transmission,
                                  &c.fields))
    return XRLAB_CLI_USAGE;

  status = calc_read_material (&c, rest[0], density_text, thickness_text);
  if (status != XRLAB_CLI_OK)
    return status;
  c.grid = xrlab_energy_grid_parse_for_table (o.energy, unit, c.choice, &error);
  if (c.grid == NULL)
    return xrlab_cli_fail (error);
  status = calc_compute (&c);
  if (status != XRLAB_CLI_OK)
    return status;

  s = g_string_new (NULL);
  if (format == XRLAB_CLI_FORMAT_CSV)
    calc_append_csv (&c, s);
  else if (format == XRLAB_CLI_FORMAT_JSON)
    calc_append_json (&c, s);
  else
    calc_append_text (&c, s);
  return xrlab_cli_write_output (o.output, s);
}

/* ---- compare -------------------------------------------------------------- */

/* The materials of the arguments FORMULA:RHO or PRESET, with the thickness
 * @thickness (NaN: none). @formulas keeps their formulas. Returns the exit
 * status. (Also xrlab-cli plot's materials.) */
int
xrlab_cli_read_materials (char **args, double thickness, GPtrArray *formulas,
                          XrlabOpticsMaterial *materials)
{
  for (gsize m = 0; args[m] != NULL; m++)
    {
      const char *arg = args[m];
      const char *colon = strrchr (arg, ':');
      const XrlabPreset *preset = NULL;
      g_autofree char *ftext = colon ? g_strndup (arg, (gsize) (colon - arg)) : g_strdup (arg);
      XrlabFormula *f;
      double density;

      f = xrlab_cli_resolve_material (ftext, &preset);
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
  return XRLAB_CLI_OK;
}

/* One batch request to the engine: all materials, one grid, one quantity.
 * The table gets the energy and one column per material, named by its
 * argument. Returns the exit status. */
static int
compare_compute (char **args, const XrlabOpticsMaterial *materials, gsize n_mat,
                 XrlabEnergyGrid *grid, XrlabQuantity field, XrlabCliTable *table)
{
  g_autofree XrlabMaterialSpec *specs = g_new0 (XrlabMaterialSpec, n_mat);
  g_autoptr(XrlabEngine) engine = NULL;
  g_autoptr(XrlabEngineBatch) batch = NULL;
  g_autoptr(GError) error = NULL;
  gsize n = xrlab_energy_grid_get_size (grid);

  for (gsize m = 0; m < n_mat; m++)
    {
      specs[m].name = args[m];
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
      return xrlab_cli_failf ("%s: %s", args[m], batch->errors[m]->message);

  xrlab_cli_table_add_energy (table);
  for (gsize m = 0; m < n_mat; m++)
    xrlab_cli_table_add_column (table, XRLAB_CLI_COLUMN_NUMBER, args[m], args[m], NULL);
  xrlab_cli_table_set_numbers (table, 0, xrlab_energy_grid_get_energies_kev (grid), n);
  for (gsize m = 0; m < n_mat; m++)
    xrlab_cli_table_set_numbers (table, (guint) m + 1, batch->values + m * n, n);
  return XRLAB_CLI_OK;
}

/* The field, the table, the energies, and per material its formula,
 * density and values. */
static void
compare_append_json (const XrlabCliTable *table, XrlabQuantity field, XrlabEnergyGrid *grid,
                     const XrlabOpticsMaterial *materials, gsize n_mat, GString *s)
{
  XrlabCliJson json;

  xrlab_cli_json_init (&json, s);
  xrlab_cli_json_begin_object (&json, NULL, XRLAB_CLI_JSON_LINES);
  xrlab_cli_json_string (&json, "field", xrlab_quantity_get_column (field));
  xrlab_cli_json_table (&json, xrlab_energy_grid_get_table (grid),
                        xrlab_energy_grid_get_table_choice (grid));
  xrlab_cli_table_write_json_column (table, &json, "energy_keV", 0);
  xrlab_cli_json_begin_array (&json, "materials", XRLAB_CLI_JSON_LINES);
  for (gsize m = 0; m < n_mat; m++)
    {
      xrlab_cli_json_begin_object (&json, NULL, XRLAB_CLI_JSON_INLINE);
      xrlab_cli_json_string (&json, "formula", xrlab_formula_get_text (materials[m].formula));
      xrlab_cli_json_number (&json, "density_g_cm3", materials[m].density_g_cm3);
      xrlab_cli_table_write_json_column (table, &json, "values", (guint) m + 1);
      xrlab_cli_json_end (&json);
    }
  xrlab_cli_json_end (&json);
  xrlab_cli_json_end (&json);
}

int
xrlab_cli_compare (int argc, char **argv)
{
  g_auto(XrlabCliOpticsOptions) o = { 0 };
  g_autofree char *field_text = NULL;
  g_autofree char *thickness_text = NULL;
  g_autofree char *transmission_text = NULL;
  g_auto(GStrv) rest = NULL;
  const GOptionEntry entries[] = {
    { "field", 0, 0, G_OPTION_ARG_STRING, &field_text,
      N_("The quantity to compare (default: delta)"), N_("FIELD") },
    { "transmission", 0, 0, G_OPTION_ARG_STRING, &transmission_text,
      N_("--field transmission from the total attenuation (default) or photo(absorption) only"),
      N_("total|photo") },
    { "thickness", 't', 0, G_OPTION_ARG_STRING, &thickness_text,
      N_("Layer thickness (µm), for --field transmission"), N_("UM") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &rest, NULL, N_("FORMULA:RHO...") },
    G_OPTION_ENTRY_NULL
  };
  const XrlabCliSpec spec = {
    .summary =
      _("One quantity of several materials side by side on one energy grid.\n"
        "Each material is FORMULA:RHO (density in g/cm³), or a preset name\n"
        "alone (its density)."),
    .description =
      _("Example:\n  xrlab-cli compare Au:19.3 Pt:21.45 Ir:22.56 -e 5:20:4 --field critical_angle_mrad\n\n"
        "Exit status: 0 success, 1 bad input, 2 usage error."),
    .entries = { entries, o.entries },
  };
  g_autoptr(XrlabEnergyGrid) grid = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) s = NULL;
  g_autoptr(GPtrArray) formulas = g_ptr_array_new_with_free_func ((GDestroyNotify) xrlab_formula_unref);
  g_autoptr(XrlabCliTable) table = xrlab_cli_table_new ();
  g_autofree XrlabOpticsMaterial *materials = NULL;
  XrlabQuantity field = XRLAB_QUANTITY_DELTA, transmission;
  XrlabTableChoice choice;
  XrlabEnergyUnit unit;
  XrlabCliFormat format;
  double thickness = NAN;
  gsize n_mat;
  int status;

  xrlab_cli_optics_options_init (&o);
  if (!xrlab_cli_parse_options (&spec, &argc, &argv))
    return XRLAB_CLI_USAGE;
  if (rest == NULL || rest[0] == NULL)
    return xrlab_cli_usage ("compare", _("missing FORMULA:RHO"));
  if (o.energy == NULL)
    return xrlab_cli_usage ("compare", _("missing -e SPEC (energies, e.g. -e 5:15:11)"));
  if (!xrlab_cli_parse_format ("compare", o.format, &format)
      || !xrlab_cli_parse_energy_unit ("compare", o.unit, &unit)
      || !xrlab_cli_parse_table ("compare", o.table, &choice)
      || !xrlab_cli_parse_transmission ("compare", transmission_text, &transmission))
    return XRLAB_CLI_USAGE;
  if (field_text != NULL && !xrlab_quantity_from_column (field_text, &field))
    return xrlab_cli_usage ("compare", _("unknown --field “%s” (e.g. delta, beta, f1, mu_per_cm)"),
                            field_text);
  if (field == XRLAB_QUANTITY_TRANSMISSION)
    field = transmission;
  if ((XRLAB_QUANTITY_MASK_TRANSMISSIONS & XRLAB_QUANTITY_BIT (field)) && thickness_text == NULL)
    return xrlab_cli_usage ("compare", _("--field %s needs --thickness UM"), field_text);
  if (thickness_text != NULL
      && !xrlab_cli_parse_number (_("Thickness “%s” is not a number"), thickness_text, &thickness))
    return XRLAB_CLI_BAD_INPUT;

  n_mat = g_strv_length (rest);
  materials = g_new0 (XrlabOpticsMaterial, n_mat);
  status = xrlab_cli_read_materials (rest, thickness, formulas, materials);
  if (status != XRLAB_CLI_OK)
    return status;
  grid = xrlab_energy_grid_parse_for_table (o.energy, unit, choice, &error);
  if (grid == NULL)
    return xrlab_cli_fail (error);
  status = compare_compute (rest, materials, n_mat, grid, field, table);
  if (status != XRLAB_CLI_OK)
    return status;

  s = g_string_new (NULL);
  if (format == XRLAB_CLI_FORMAT_CSV)
    {
      xrlab_cli_append_table_comment (s, xrlab_energy_grid_get_table (grid), choice);
      xrlab_cli_table_append_csv (table, s);
    }
  else if (format == XRLAB_CLI_FORMAT_JSON)
    compare_append_json (table, field, grid, materials, n_mat, s);
  else
    {
      const char *u = xrlab_quantity_get_unit (field);

      g_string_append_printf (s, "%s%s%s%s\n\n", xrlab_quantity_get_label (field),
                              u[0] ? " (" : "", u, u[0] ? ")" : "");
      xrlab_cli_table_append_text (table, s);
      g_string_append_c (s, '\n');
      xrlab_cli_append_table_note (s, xrlab_energy_grid_get_table (grid), choice);
    }
  return xrlab_cli_write_output (o.output, s);
}

/* ---- convert -------------------------------------------------------------- */

/* A VALUE with its unit, in keV. Returns the exit status. */
static int
convert_read_value (const char *arg, double *kev)
{
  static const struct { const char *suffix; double scale; gboolean wavelength; } units[] = {
    { "kev", 1.0, FALSE }, { "ev", 1e-3, FALSE },
    { "nm", 10.0, TRUE }, { "pm", 1e-2, TRUE }, { "angstrom", 1.0, TRUE },
    { "Å", 1.0, TRUE }, { "a", 1.0, TRUE },
  };
  g_autofree char *t = g_strstrip (g_strdup (arg));
  gsize len = strlen (t);

  for (gsize u = 0; u < G_N_ELEMENTS (units); u++)
    {
      gsize sl = strlen (units[u].suffix);
      g_autofree char *num = NULL;
      double v;

      if (len <= sl || g_ascii_strcasecmp (t + len - sl, units[u].suffix) != 0)
        continue;
      num = g_strndup (t, len - sl);
      if (!xrlab_parse_double (num, FALSE, &v))
        return xrlab_cli_failf (_("“%s” is not a number with a unit (e.g. 8.048keV)"), arg);
      if (!(v > 0.0))
        return xrlab_cli_failf (_("“%s” must be positive"), arg);
      v *= units[u].scale;
      *kev = units[u].wavelength ? xrlab_angstrom_to_kev (v) : v;
      if (!isfinite (*kev) || !(*kev > 0.0))
        return xrlab_cli_failf (_("“%s” is out of range"), arg);
      return XRLAB_CLI_OK;
    }
  return xrlab_cli_failf (_("“%s” has no unit: write 8.048keV, 8048eV, 1.5406A or 0.15406nm"),
                          arg);
}

int
xrlab_cli_convert (int argc, char **argv)
{
  g_autofree char *format_text = NULL;
  g_auto(GStrv) rest = NULL;
  const GOptionEntry entries[] = {
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format_text,
      N_("Output: table (default), csv or json"), N_("FORMAT") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &rest, NULL, N_("VALUE...") },
    G_OPTION_ENTRY_NULL
  };
  const XrlabCliSpec spec = {
    .summary =
      _("Photon energy ↔ wavelength: λ E = hc = 12.398419843320026 keV Å (CODATA 2018).\n"
        "Each VALUE carries its unit: 8.048keV, 8048eV, 1.5406A (or Å), 0.15406nm."),
    .description = _("Exit status: 0 success, 1 bad input, 2 usage error."),
    .entries = { entries },
  };
  g_autoptr(XrlabCliTable) table = xrlab_cli_table_new ();
  g_autoptr(GString) s = g_string_new (NULL);
  XrlabCliFormat format;
  guint kev_col, ev_col, a_col;

  if (!xrlab_cli_parse_options (&spec, &argc, &argv))
    return XRLAB_CLI_USAGE;
  if (rest == NULL || rest[0] == NULL)
    return xrlab_cli_usage ("convert", _("missing VALUE (e.g. 8.048keV or 1.5406A)"));
  if (!xrlab_cli_parse_format ("convert", format_text, &format))
    return XRLAB_CLI_USAGE;

  kev_col = xrlab_cli_table_add_column (table, XRLAB_CLI_COLUMN_NUMBER, "energy_keV", NULL, NULL);
  ev_col = xrlab_cli_table_add_column (table, XRLAB_CLI_COLUMN_NUMBER, "energy_eV", NULL, NULL);
  a_col = xrlab_cli_table_add_column (table, XRLAB_CLI_COLUMN_NUMBER, "wavelength_A", NULL, NULL);
  for (gsize i = 0; rest[i] != NULL; i++)
    {
      gsize r = xrlab_cli_table_add_row (table);
      double kev = NAN;
      int status = convert_read_value (rest[i], &kev);

      if (status != XRLAB_CLI_OK)
        return status;
      xrlab_cli_table_set_number (table, r, kev_col, kev);
      xrlab_cli_table_set_number (table, r, ev_col, kev * 1000.0);
      xrlab_cli_table_set_number (table, r, a_col, xrlab_kev_to_angstrom (kev));
    }

  if (format != XRLAB_CLI_FORMAT_TABLE)
    xrlab_cli_table_append (table, format, s);
  else
    for (gsize i = 0; rest[i] != NULL; i++)
      g_string_append_printf (s, "%-14s  %.10g keV = %.10g eV = %.10g Å\n", rest[i],
                              xrlab_cli_table_get_number (table, i, kev_col),
                              xrlab_cli_table_get_number (table, i, ev_col),
                              xrlab_cli_table_get_number (table, i, a_col));
  return xrlab_cli_write_output (NULL, s);
}
