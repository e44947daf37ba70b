/* cli-optics-info.c -- xrlab-cli formula, edges and materials: what a
 * formula is made of, the absorption edges of elements, the preset materials
 *
 * Exit status: 0 success; 1 bad input; 2 usage error (see cli-optics-calc.c).
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
#include "xrlab-elements.h"
#include "xrlab-util.h"

/* The element's name in the user's language. */
static const char *
element_name (int id)
{
  return g_dpgettext2 (GETTEXT_PACKAGE, "element", xrlab_element_get_name (id));
}

/* ---- formula -------------------------------------------------------------- */

/* The atoms of @f: symbol, Z, count, atomic weight, mass fraction (for
 * people as a percentage, the symbol with the element's name). */
static XrlabCliTable *
formula_atoms_table (const XrlabFormula *f)
{
  XrlabCliTable *t = xrlab_cli_table_new ();
  const int *ids = xrlab_formula_get_ids (f);
  const double *counts = xrlab_formula_get_counts (f);
  const double *w = xrlab_formula_get_mass_fractions (f);
  guint symbol = xrlab_cli_table_add_column (t, XRLAB_CLI_COLUMN_TEXT, "symbol", NULL, NULL);
  guint element = xrlab_cli_table_add_column (t, XRLAB_CLI_COLUMN_TEXT, NULL, _("Element"), NULL);
  guint z = xrlab_cli_table_add_column (t, XRLAB_CLI_COLUMN_INTEGER, "z", "Z", NULL);
  guint count = xrlab_cli_table_add_column (t, XRLAB_CLI_COLUMN_NUMBER, "count", _("Atoms"),
                                            _("per formula unit"));
  guint weight = xrlab_cli_table_add_column (t, XRLAB_CLI_COLUMN_NUMBER, "atomic_weight_g_mol",
                                             _("Atomic weight"), "g/mol");
  guint fraction = xrlab_cli_table_add_column (t, XRLAB_CLI_COLUMN_NUMBER, "mass_fraction",
                                               _("Mass fraction"), "%");

  xrlab_cli_table_set_text_format (t, count, "%.8g", 1.0);
  xrlab_cli_table_set_text_format (t, weight, "%.10g", 1.0);
  xrlab_cli_table_set_text_format (t, fraction, "%.6f", 100.0);
  for (gsize i = 0; i < xrlab_formula_get_n_atoms (f); i++)
    {
      gsize r = xrlab_cli_table_add_row (t);

      xrlab_cli_table_set_text (t, r, symbol, xrlab_element_get_symbol (ids[i]));
      xrlab_cli_table_take_text (t, r, element,
                                 g_strdup_printf ("%s (%s)", xrlab_element_get_symbol (ids[i]),
                                                  element_name (ids[i])));
      xrlab_cli_table_set_integer (t, r, z, xrlab_element_get_z (ids[i]));
      xrlab_cli_table_set_number (t, r, count, counts[i]);
      xrlab_cli_table_set_number (t, r, weight, xrlab_element_get_weight (ids[i]));
      xrlab_cli_table_set_number (t, r, fraction, w[i]);
    }
  return t;
}

/* The parts of a mixture and their mass fractions (one part otherwise). */
static XrlabCliTable *
formula_parts_table (const XrlabFormula *f)
{
  XrlabCliTable *t = xrlab_cli_table_new ();
  guint text = xrlab_cli_table_add_column (t, XRLAB_CLI_COLUMN_TEXT, "formula", NULL, NULL);
  guint fraction = xrlab_cli_table_add_column (t, XRLAB_CLI_COLUMN_NUMBER, "mass_fraction",
                                               NULL, NULL);

  for (gsize j = 0; j < xrlab_formula_get_n_parts (f); j++)
    {
      gsize r = xrlab_cli_table_add_row (t);

      xrlab_cli_table_set_text (t, r, text, xrlab_formula_get_part_text (f, j));
      xrlab_cli_table_set_number (t, r, fraction, xrlab_formula_get_part_mass_fraction (f, j));
    }
  return t;
}

static void
formula_append_json (const XrlabFormula *f, const XrlabPreset *preset, double density, GString *s)
{
  g_autoptr(XrlabCliTable) atoms = formula_atoms_table (f);
  g_autoptr(XrlabCliTable) parts = formula_parts_table (f);
  XrlabCliJson json;

  xrlab_cli_json_init (&json, s);
  xrlab_cli_json_begin_object (&json, NULL, XRLAB_CLI_JSON_LINES);
  xrlab_cli_json_string (&json, "formula", xrlab_formula_get_text (f));
  if (preset != NULL)
    {
      xrlab_cli_json_string (&json, "preset", preset->name);
      xrlab_cli_json_number (&json, "preset_density_g_cm3", preset->density_g_cm3);
    }
  xrlab_cli_json_number (&json, "molecular_weight_g_mol", xrlab_formula_get_molecular_weight (f));
  xrlab_cli_json_number (&json, "electrons_per_formula_unit", xrlab_formula_get_electrons (f));
  if (!isnan (density))
    {
      xrlab_cli_json_number (&json, "density_g_cm3", density);
      xrlab_cli_json_number (&json, "electron_density_per_A3",
                             xrlab_optics_electron_density (f, density));
    }
  xrlab_cli_table_write_json_rows (atoms, &json, "atoms");
  xrlab_cli_table_write_json_rows (parts, &json, "parts");
  xrlab_cli_json_end (&json);
}

/* For people: a summary (formula, the preset it names, molar mass,
 * electrons, the density's number densities, the parts of a mixture), then
 * the atoms. */
static void
formula_append_text (const XrlabFormula *f, const XrlabPreset *preset, double density, GString *s)
{
  /* The labels of the summary, one column wide. */
  enum { FORMULA, PRESET, MOLAR_MASS, ELECTRONS, DENSITY, PARTS, N_LABELS };
  const char *labels[N_LABELS] = {
    _("Formula"), _("Preset"), _("Molar mass"), _("Electrons"), _("Density"), _("Parts"),
  };
  g_autoptr(XrlabCliTable) atoms = formula_atoms_table (f);
  g_autofree char *sum = xrlab_formula_to_string (f);
  int width = 0;

  for (int k = 0; k < N_LABELS; k++)
    width = MAX (width, xrlab_cli_text_width (labels[k]) + 3);
  xrlab_cli_append_padded (s, labels[FORMULA], width, FALSE);
  g_string_append (s, xrlab_formula_get_text (f));
  if (strcmp (sum, xrlab_formula_get_text (f)) != 0)
    g_string_append_printf (s, "  (%s)", sum);
  g_string_append_c (s, '\n');
  if (preset != NULL)
    {
      xrlab_cli_append_padded (s, labels[PRESET], width, FALSE);
      g_string_append_printf (s, _("%s, %.10g g/cm³"), preset->name, preset->density_g_cm3);
      g_string_append_c (s, '\n');
    }
  xrlab_cli_append_padded (s, labels[MOLAR_MASS], width, FALSE);
  g_string_append_printf (s, "%.10g g/mol\n", xrlab_formula_get_molecular_weight (f));
  xrlab_cli_append_padded (s, labels[ELECTRONS], width, FALSE);
  g_string_append_printf (s, _("%.10g per formula unit"), xrlab_formula_get_electrons (f));
  g_string_append_c (s, '\n');
  if (!isnan (density))
    {
      xrlab_cli_append_padded (s, labels[DENSITY], width, FALSE);
      g_string_append_printf (s, _("%.10g g/cm³: %.6g formula units/Å³, %.6g e/Å³"),
                              density,
                              density / xrlab_formula_get_molecular_weight (f)
                              * XRLAB_AVOGADRO_PER_MOL * 1e-24,
                              xrlab_optics_electron_density (f, density));
      g_string_append_c (s, '\n');
    }
  if (xrlab_formula_get_n_parts (f) > 1)
    {
      xrlab_cli_append_padded (s, labels[PARTS], width, FALSE);
      for (gsize j = 0; j < xrlab_formula_get_n_parts (f); j++)
        g_string_append_printf (s, "%s%.6g wt%% %s", j ? ", " : "",
                                100.0 * xrlab_formula_get_part_mass_fraction (f, j),
                                xrlab_formula_get_part_text (f, j));
      g_string_append_c (s, '\n');
    }
  g_string_append_c (s, '\n');
  xrlab_cli_table_append_text (atoms, s);
}

int
xrlab_cli_formula (int argc, char **argv)
{
  g_autofree char *format_text = NULL, *density_text = NULL;
  g_auto(GStrv) rest = NULL;
  const GOptionEntry entries[] = {
    { "density", 'd', 0, G_OPTION_ARG_STRING, &density_text,
      N_("Mass density (g/cm³): adds number densities"), N_("RHO") },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format_text,
      N_("Output: table (default) or json"), N_("FORMAT") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &rest, NULL, N_("FORMULA") },
    G_OPTION_ENTRY_NULL
  };
  const XrlabCliSpec spec = {
    .summary =
      _("Composition of a formula: atoms per formula unit, mass fractions,\n"
        "molecular weight and electrons per formula unit. Mixtures list their\n"
        "parts and mass fractions. FORMULA may be a preset name (Kapton)."),
    .description =
      _("Example:\n  xrlab-cli formula \"CuSO4·5H2O\"\n\n"
        "Exit status: 0 success, 1 bad input, 2 usage error."),
    .entries = { entries },
  };
  g_autoptr(XrlabFormula) f = NULL;
  g_autoptr(GString) s = NULL;
  const XrlabPreset *preset = NULL;
  XrlabCliFormat format;
  double density = NAN;

  if (!xrlab_cli_parse_options (&spec, &argc, &argv))
    return XRLAB_CLI_USAGE;
  if (rest == NULL || rest[0] == NULL)
    return xrlab_cli_usage ("formula", _("missing FORMULA"));
  if (rest[1] != NULL)
    return xrlab_cli_usage ("formula", _("one FORMULA only, got “%s” too (quote formulas with spaces)"),
                            rest[1]);
  if (!xrlab_cli_parse_format ("formula", format_text, &format))
    return XRLAB_CLI_USAGE;
  if (format == XRLAB_CLI_FORMAT_CSV)
    return xrlab_cli_usage ("formula", _("--format must be table or json"));
  if (density_text != NULL)
    {
      if (!xrlab_cli_parse_number (_("Density “%s” is not a number"), density_text, &density))
        return XRLAB_CLI_BAD_INPUT;
      if (!(density > 0.0))
        return xrlab_cli_failf (_("Density %s g/cm³ must be positive"), density_text);
    }
  /* A formula as it is; a preset's name (Kapton) as the preset's formula. */
  f = xrlab_formula_parse (rest[0], NULL);
  if (f == NULL && (f = xrlab_cli_resolve_material (rest[0], &preset)) == NULL)
    return XRLAB_CLI_BAD_INPUT;

  s = g_string_new (NULL);
  if (format == XRLAB_CLI_FORMAT_JSON)
    formula_append_json (f, preset, density, s);
  else
    formula_append_text (f, preset, density, s);
  return xrlab_cli_write_output (NULL, s);
}

/* ---- edges ---------------------------------------------------------------- */

/* A symbol ("Fe", "fe", "FE") or an atomic number ("26"); 0 if neither. */
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

/* The columns of the edges table. */
enum { EDGE_SYMBOL, EDGE_Z, EDGE_NAME, EDGE_KEV, EDGE_EV, EDGE_WAVELENGTH, EDGE_TABLE, EDGE_XRAYLIB };

/* The absorption edges of element @z as the tables of @choice show them
 * (xrlab_presets_get_table_edges()): symbol and Z (for CSV and JSON), the
 * shell, the jump's energy (for people in eV too) and wavelength, the
 * table, and xraylib's energy of that edge. NULL with @error when a table
 * cannot be read. */
static XrlabCliTable *
edges_table (int z, XrlabTableChoice choice, GError **error)
{
  g_autoptr(XrlabCliTable) t = xrlab_cli_table_new ();
  g_autoptr(GArray) edges = xrlab_presets_get_table_edges (&z, 1, choice, 0.0, INFINITY, error);

  if (edges == NULL)
    return NULL;
  xrlab_cli_table_add_column (t, XRLAB_CLI_COLUMN_TEXT, "symbol", NULL, NULL);
  xrlab_cli_table_add_column (t, XRLAB_CLI_COLUMN_INTEGER, "z", NULL, NULL);
  xrlab_cli_table_add_column (t, XRLAB_CLI_COLUMN_TEXT, "edge", _("Edge"), NULL);
  xrlab_cli_table_add_column (t, XRLAB_CLI_COLUMN_NUMBER, "energy_keV", _("Energy"), "keV");
  xrlab_cli_table_add_column (t, XRLAB_CLI_COLUMN_NUMBER, NULL, _("Energy"), "eV");
  xrlab_cli_table_add_column (t, XRLAB_CLI_COLUMN_NUMBER, "wavelength_A", _("Wavelength"), "Å");
  xrlab_cli_table_add_column (t, XRLAB_CLI_COLUMN_TEXT, "table", _("Table"), NULL);
  xrlab_cli_table_add_column (t, XRLAB_CLI_COLUMN_NUMBER, "xraylib_keV", _("xraylib"), "keV");
  for (guint j = 0; j < edges->len; j++)
    {
      const XrlabTableEdgeRef *ref = &g_array_index (edges, XrlabTableEdgeRef, j);
      double kev = ref->edge->energy_ev / 1000.0;
      gsize r = xrlab_cli_table_add_row (t);

      xrlab_cli_table_set_text (t, r, EDGE_SYMBOL, xrlab_element_get_symbol (z));
      xrlab_cli_table_set_integer (t, r, EDGE_Z, z);
      xrlab_cli_table_set_text (t, r, EDGE_NAME, ref->edge->shell ? ref->edge->shell : "");
      xrlab_cli_table_set_number (t, r, EDGE_KEV, kev);
      xrlab_cli_table_set_number (t, r, EDGE_EV, ref->edge->energy_ev);
      xrlab_cli_table_set_number (t, r, EDGE_WAVELENGTH, xrlab_kev_to_angstrom (kev));
      xrlab_cli_table_set_text (t, r, EDGE_TABLE, xrlab_table_get_name (ref->table));
      xrlab_cli_table_set_number (t, r, EDGE_XRAYLIB, ref->edge->xraylib_ev / 1000.0);
    }
  return g_steal_pointer (&t);
}

/* Element @z as one object: symbol, Z and its edges, one object each. */
static void
edges_write_json (const XrlabCliTable *t, int z, XrlabCliJson *json)
{
  xrlab_cli_json_begin_object (json, NULL, XRLAB_CLI_JSON_LINES);
  xrlab_cli_json_string (json, "symbol", xrlab_element_get_symbol (z));
  xrlab_cli_json_integer (json, "z", z);
  xrlab_cli_json_begin_array (json, "edges", XRLAB_CLI_JSON_LINES);
  for (gsize r = 0; r < xrlab_cli_table_get_n_rows (t); r++)
    {
      xrlab_cli_json_begin_object (json, NULL, XRLAB_CLI_JSON_INLINE);
      xrlab_cli_json_string (json, "edge", xrlab_cli_table_get_text (t, r, EDGE_NAME));
      xrlab_cli_json_number (json, "energy_keV", xrlab_cli_table_get_number (t, r, EDGE_KEV));
      xrlab_cli_json_number (json, "wavelength_A", xrlab_cli_table_get_number (t, r, EDGE_WAVELENGTH));
      xrlab_cli_json_string (json, "table", xrlab_cli_table_get_text (t, r, EDGE_TABLE));
      xrlab_cli_json_number (json, "xraylib_keV", xrlab_cli_table_get_number (t, r, EDGE_XRAYLIB));
      xrlab_cli_json_end (json);
    }
  xrlab_cli_json_end (json);
  xrlab_cli_json_end (json);
}

int
xrlab_cli_edges (int argc, char **argv)
{
  g_autofree char *format_text = NULL, *table_text = NULL;
  g_auto(GStrv) rest = NULL;
  const GOptionEntry entries[] = {
    { "table", 0, 0, G_OPTION_ARG_STRING, &table_text,
      N_("Scattering factors: henke, chantler or auto (default)"), N_("TABLE") },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format_text,
      N_("Output: table (default), csv or json"), N_("FORMAT") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &rest, NULL, N_("SYMBOL...") },
    G_OPTION_ENTRY_NULL
  };
  const XrlabCliSpec spec = {
    .summary =
      _("Absorption edges of elements where the scattering-factor tables have them:\n"
        "the energy of each jump in f2, labelled with the nearest edge of xraylib,\n"
        "whose own energy is listed beside it. With --table auto Henke's edges\n"
        "within 30 eV–30 keV and Chantler's outside, as a computation at that\n"
        "energy would use them.\n"
        "SYMBOL is an element symbol (Fe) or an atomic number (26)."),
    .description = _("Exit status: 0 success, 1 bad input, 2 usage error."),
    .entries = { entries },
  };
  g_autoptr(GString) s = NULL;
  XrlabTableChoice choice;
  XrlabCliFormat format;
  XrlabCliJson json;

  if (!xrlab_cli_parse_options (&spec, &argc, &argv))
    return XRLAB_CLI_USAGE;
  if (rest == NULL || rest[0] == NULL)
    return xrlab_cli_usage ("edges", _("missing SYMBOL (e.g. Fe)"));
  if (!xrlab_cli_parse_format ("edges", format_text, &format)
      || !xrlab_cli_parse_table ("edges", table_text, &choice))
    return XRLAB_CLI_USAGE;
  for (gsize i = 0; rest[i] != NULL; i++)
    if (element_from_arg (rest[i]) == 0)
      return xrlab_cli_failf (_("Unknown element “%s”: give a symbol from H to U or Z = 1–%d"),
                              rest[i], XRLAB_ELEMENT_Z_MAX);

  s = g_string_new (NULL);
  xrlab_cli_json_init (&json, s);
  if (format == XRLAB_CLI_FORMAT_JSON)
    xrlab_cli_json_begin_array (&json, NULL, XRLAB_CLI_JSON_LINES);
  for (gsize i = 0; rest[i] != NULL; i++)
    {
      g_autoptr(GError) error = NULL;
      int z = element_from_arg (rest[i]);
      g_autoptr(XrlabCliTable) t = edges_table (z, choice, &error);

      if (t == NULL)
        return xrlab_cli_fail (error);
      if (format == XRLAB_CLI_FORMAT_CSV)
        {
          if (i == 0)
            xrlab_cli_table_append_csv_header (t, s);
          xrlab_cli_table_append_csv_rows (t, s);
        }
      else if (format == XRLAB_CLI_FORMAT_JSON)
        edges_write_json (t, z, &json);
      else
        {
          g_string_append_printf (s, "%s%s (%s), Z = %d\n", i ? "\n" : "",
                                  xrlab_element_get_symbol (z), element_name (z), z);
          xrlab_cli_table_append_text (t, s);
        }
    }
  if (format == XRLAB_CLI_FORMAT_JSON)
    xrlab_cli_json_end (&json);
  else if (format == XRLAB_CLI_FORMAT_TABLE)
    g_string_append_printf (s, "\n%s\n",
                            choice == XRLAB_TABLE_CHOICE_AUTO
                            ? _("Tables: Henke within 30 eV–30 keV, Chantler outside (--table auto); "
                                "xraylib: its EdgeEnergy of the edge")
                            : _("xraylib: its EdgeEnergy of the edge"));
  return xrlab_cli_write_output (NULL, s);
}

/* ---- materials ------------------------------------------------------------ */

/* The presets @found: name, formula, density and source; people read the
 * density before the (long) formula and do not need the source. */
static XrlabCliTable *
materials_table (GPtrArray *found)
{
  XrlabCliTable *t = xrlab_cli_table_new ();
  guint name = xrlab_cli_table_add_column (t, XRLAB_CLI_COLUMN_TEXT, "name", _("Name"), NULL);
  guint shown = xrlab_cli_table_add_column (t, XRLAB_CLI_COLUMN_NUMBER, NULL, _("Density"),
                                            "g/cm³");
  guint formula = xrlab_cli_table_add_column (t, XRLAB_CLI_COLUMN_TEXT, "formula", _("Formula"),
                                              NULL);
  guint density = xrlab_cli_table_add_column (t, XRLAB_CLI_COLUMN_NUMBER, "density_g_cm3", NULL,
                                              NULL);
  guint source = xrlab_cli_table_add_column (t, XRLAB_CLI_COLUMN_TEXT, "source", NULL, NULL);

  for (guint i = 0; i < found->len; i++)
    {
      const XrlabPreset *p = g_ptr_array_index (found, i);
      gsize r = xrlab_cli_table_add_row (t);

      xrlab_cli_table_set_text (t, r, name, p->name);
      xrlab_cli_table_set_number (t, r, shown, p->density_g_cm3);
      xrlab_cli_table_set_text (t, r, formula, p->formula);
      xrlab_cli_table_set_number (t, r, density, p->density_g_cm3);
      xrlab_cli_table_set_text (t, r, source, p->source == XRLAB_PRESET_NIST ? "nist" : "common");
    }
  return t;
}

int
xrlab_cli_materials (int argc, char **argv)
{
  g_autofree char *format_text = NULL, *search = NULL;
  const GOptionEntry entries[] = {
    { "search", 's', 0, G_OPTION_ARG_STRING, &search,
      N_("Only materials whose name, formula or note contains TEXT"), N_("TEXT") },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format_text,
      N_("Output: table (default), csv or json"), N_("FORMAT") },
    G_OPTION_ENTRY_NULL
  };
  const XrlabCliSpec spec = {
    .summary =
      _("Preset materials with their densities: common beamline materials and\n"
        "xraylib's NIST compounds. Their names work as FORMULA in calc and compare."),
    .description = _("Exit status: 0 success, 1 bad input, 2 usage error."),
    .entries = { entries },
  };
  g_autoptr(GPtrArray) found = NULL;
  g_autoptr(XrlabCliTable) table = NULL;
  g_autoptr(GString) s = g_string_new (NULL);
  XrlabCliFormat format;

  if (!xrlab_cli_parse_options (&spec, &argc, &argv))
    return XRLAB_CLI_USAGE;
  if (argc > 1)
    return xrlab_cli_usage ("materials", _("unexpected “%s” (use --search TEXT)"), argv[1]);
  if (!xrlab_cli_parse_format ("materials", format_text, &format))
    return XRLAB_CLI_USAGE;

  found = xrlab_presets_search (search);
  if (found->len == 0)
    return xrlab_cli_failf (_("No material matches “%s”"), search);
  table = materials_table (found);
  xrlab_cli_table_append (table, format, s);
  return xrlab_cli_write_output (NULL, s);
}
