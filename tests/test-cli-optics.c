/* test-cli-optics.c -- xrlab-cli calc, batch, compare, convert, formula,
 * edges, materials: output formats, round trips, exit codes and messages
 *
 * Runs the built xrlab-cli ($XRLAB_CLI), and checks its output layer
 * (src/cli/cli-output.c, compiled in) directly: the text table, CSV and
 * JSON of one table agree cell for cell, and every JSON is strict RFC 8259
 * (checked by a parser of this file, then read with json-glib).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>
#include <sys/wait.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "cli-output.h"
#include "xrlab-formula.h"
#include "xrlab-init.h"
#include "xrlab-optics.h"
#include "xrlab-util.h"
#include "test-common.h"

static char *tmpdir;

/* The same in German. */
static int
run_de (char **out, char **err, ...)
{
  va_list args;
  int status;

  va_start (args, err);
  status = xrlab_test_cli_valist ("de", out, err, args);
  va_end (args);
  return status;
}

/* Computes @quantity of @formula in-process, for comparison. */
static double *
engine_values (const char *formula, double density, double thickness, const char *spec,
               XrlabEnergyUnit unit, XrlabQuantity quantity, gsize *n)
{
  g_autoptr(XrlabFormula) f = xrlab_formula_parse (formula, NULL);
  g_autoptr(XrlabEnergyGrid) grid = xrlab_energy_grid_parse (spec, unit, NULL);
  XrlabOpticsCache *cache = xrlab_optics_cache_new (grid);
  XrlabOpticsMaterial m = { f, density, thickness };
  double *out[XRLAB_QUANTITY_N] = { NULL, };
  double *v;

  *n = xrlab_energy_grid_get_size (grid);
  v = g_new (double, *n);
  out[quantity] = v;
  g_assert_true (xrlab_optics_compute (cache, &m, XRLAB_QUANTITY_BIT (quantity), out, NULL));
  xrlab_optics_cache_free (cache);
  return v;
}

static double
parse_field (const char *text)
{
  double v;
  if (strcmp (text, "nan") == 0)
    return NAN;
  g_assert_true (xrlab_parse_double (text, FALSE, &v));
  return v;
}

static void
assert_same_double (double a, double b, const char *what)
{
  if (!((isnan (a) && isnan (b)) || memcmp (&a, &b, sizeof a) == 0))
    g_error ("%s: %.17g != %.17g", what, a, b);
}

static const char *const all_columns =
  "energy_keV,wavelength_A,delta,beta,f1,f2,critical_angle_deg,critical_angle_mrad,"
  "attenuation_length_cm,attenuation_length_total_cm,mu_per_cm,mu_total_per_cm,"
  "mu_rho_cm2_g,mu_rho_total_cm2_g,re_sld_per_A2,im_sld_per_A2";

/* The CSV of calc or compare after its comment lines (the material, the
 * table). */
static const char *
csv_body (const char *out)
{
  while (out[0] == '#')
    {
      const char *nl = strchr (out, '\n');
      g_assert_nonnull (nl);
      out = nl + 1;
    }
  return out;
}

/* CSV reads back to the very doubles the engine computes. */
static void
test_calc_csv (void)
{
  g_autofree char *out = NULL, *err = NULL;
  g_auto(GStrv) lines = NULL, header = NULL;
  g_autofree char *expected_header = g_strconcat (all_columns, ",transmission", NULL);
  guint n_lines;

  g_assert_cmpint (xrlab_test_cli (&out, &err, "calc", "SiO2", "-d", "2.2", "-e", "0.05:30:60:log",
                        "--thickness", "10", "--format", "csv", NULL), ==, 0);
  g_assert_cmpstr (err, ==, "");
  xrlab_test_assert_contains (out, "# material: SiO2, density 2.2 g/cm3, thickness 10 um\n"
                       "# table: henke (Henke, Gullikson & Davis 1993 with CXRO updates; choice auto)\n"
                       "# scattering in the total attenuation: xraylib CS_Rayl + CS_Compt\n");
  lines = g_strsplit (csv_body (out), "\n", -1);
  n_lines = g_strv_length (lines);
  g_assert_cmpuint (n_lines, ==, 62);           /* header, 60 rows, "" after the last \n */
  g_assert_cmpstr (lines[61], ==, "");
  g_assert_cmpstr (lines[0], ==, expected_header);
  header = g_strsplit (lines[0], ",", -1);

  for (guint c = 1; header[c] != NULL; c++)
    {
      XrlabQuantity q;
      gsize n;
      g_autofree double *v = NULL;

      g_assert_true (xrlab_quantity_from_column (header[c], &q));
      v = engine_values ("SiO2", 2.2, 10.0, "0.05:30:60:log", XRLAB_ENERGY_UNIT_KEV, q, &n);
      g_assert_cmpuint (n, ==, 60);
      for (guint r = 0; r < 60; r++)
        {
          g_auto(GStrv) f = g_strsplit (lines[r + 1], ",", -1);
          g_assert_cmpuint (g_strv_length (f), ==, 17);
          assert_same_double (parse_field (f[c]), v[r], header[c]);
        }
    }
}

/* JSON parses back to the same doubles; NaN is null. */
static void
test_calc_json (void)
{
  g_autofree char *out = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autofree double *delta = NULL, *theta = NULL;
  JsonObject *root, *columns;
  JsonArray *a;
  gsize n;

  g_assert_cmpint (xrlab_test_cli (&out, NULL, "calc", "Si", "-d", "2.33", "-e", "0.06:0.2:40",
                        "--format", "json", NULL), ==, 0);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (root, "formula"), ==, "Si");
  g_assert_cmpfloat (json_object_get_double_member (root, "density_g_cm3"), ==, 2.33);
  g_assert_cmpfloat (json_object_get_double_member (root, "molecular_weight_g_mol"), ==, 28.085);
  g_assert_cmpfloat (json_object_get_double_member (root, "electrons_per_formula_unit"), ==, 14.0);
  g_assert_cmpfloat (fabs (json_object_get_double_member (root, "electron_density_per_A3") - 0.699456), <, 1e-6);
  columns = json_object_get_object_member (root, "columns");
  g_assert_cmpuint (json_object_get_size (columns), ==, 16);
  g_assert_false (json_object_has_member (columns, "transmission"));
  g_assert_cmpstr (json_object_get_string_member (root, "table"), ==, "henke");
  g_assert_cmpstr (json_object_get_string_member (root, "table_choice"), ==, "auto");

  delta = engine_values ("Si", 2.33, NAN, "0.06:0.2:40", XRLAB_ENERGY_UNIT_KEV, XRLAB_QUANTITY_DELTA, &n);
  theta = engine_values ("Si", 2.33, NAN, "0.06:0.2:40", XRLAB_ENERGY_UNIT_KEV, XRLAB_QUANTITY_CRITICAL_ANGLE_DEG, &n);
  a = json_object_get_array_member (columns, "delta");
  g_assert_cmpuint (json_array_get_length (a), ==, n);
  for (guint i = 0; i < n; i++)
    assert_same_double (json_array_get_double_element (a, i), delta[i], "delta");
  a = json_object_get_array_member (columns, "critical_angle_deg");
  {
    guint n_null = 0;
    for (guint i = 0; i < n; i++)
      {
        JsonNode *node = json_array_get_element (a, i);
        if (JSON_NODE_HOLDS_NULL (node))
          {
            g_assert_true (isnan (theta[i]));
            n_null++;
          }
        else
          assert_same_double (json_node_get_double (node), theta[i], "critical_angle_deg");
      }
    g_assert_cmpuint (n_null, >, 0);   /* Si has f1 < 0 near 0.1 keV */
  }
}

static void
test_calc_options (void)
{
  g_autofree char *out = NULL, *out2 = NULL, *err = NULL, *file_text = NULL;
  g_autofree char *path = g_build_filename (tmpdir, "calc.csv", NULL);
  g_autofree char *table = NULL, *a_out = NULL;

  /* --fields chooses and orders the columns; energy_keV stays first. */
  g_assert_cmpint (xrlab_test_cli (&out, NULL, "calc", "Au", "-d", "19.3", "-e", "8,10", "--format", "csv",
                        "--fields", "beta,delta", NULL), ==, 0);
  g_assert_true (g_str_has_prefix (csv_body (out), "energy_keV,beta,delta\n8,"));
  g_clear_pointer (&out, g_free);

  /* -o writes the file (atomically) and nothing to stdout. */
  g_assert_cmpint (xrlab_test_cli (&out, &err, "calc", "Au", "-d", "19.3", "-e", "8,10", "--format", "csv",
                        "-o", path, NULL), ==, 0);
  g_assert_cmpstr (out, ==, "");
  g_assert_true (g_file_get_contents (path, &file_text, NULL, NULL));
  g_assert_cmpint (xrlab_test_cli (&out2, NULL, "calc", "Au", "-d", "19.3", "-e", "8,10", "--format", "csv", NULL), ==, 0);
  g_assert_cmpstr (file_text, ==, out2);

  /* A preset name: its formula and density. */
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&out2, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (xrlab_test_cli (&out, &err, "calc", "Kapton", "-e", "8", "--format", "csv", NULL), ==, 0);
  g_assert_cmpint (xrlab_test_cli (&out2, NULL, "calc", "C22H10N2O5", "-d", "1.42", "-e", "8", "--format", "csv", NULL), ==, 0);
  g_assert_cmpstr (csv_body (out), ==, csv_body (out2));
  /* The density is said to be the preset's, on stderr and in the header. */
  xrlab_test_assert_contains (err, "Kapton: the density of the preset “Kapton”, 1.42 g/cm³");
  xrlab_test_assert_contains (out, "# material: C22H10N2O5, density 1.42 g/cm3 (preset \"Kapton\")\n");
  g_assert_null (strstr (out2, "preset"));

  /* eV and Å. */
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&out2, g_free);
  g_assert_cmpint (xrlab_test_cli (&out, NULL, "calc", "Cu", "-d", "8.96", "-e", "8048", "--unit", "eV",
                        "--format", "csv", "--fields", "delta", NULL), ==, 0);
  g_assert_cmpint (xrlab_test_cli (&out2, NULL, "calc", "Cu", "-d", "8.96", "-e", "8.048",
                        "--format", "csv", "--fields", "delta", NULL), ==, 0);
  g_assert_cmpstr (out, ==, out2);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (xrlab_test_cli (&a_out, NULL, "calc", "Cu", "-d", "8.96", "-e", "1.5406", "--unit", "A",
                        "--format", "csv", "--fields", "wavelength_A", NULL), ==, 0);
  xrlab_test_assert_contains (a_out, ",1.5406\n");

  /* The table is for people: labels, units, 6 digits. */
  g_assert_cmpint (xrlab_test_cli (&table, NULL, "calc", "Au", "-d", "19.3", "-e", "10", NULL), ==, 0);
  xrlab_test_assert_contains (table, "δ");
  xrlab_test_assert_contains (table, "cm²/g");
  xrlab_test_assert_contains (table, "2.9882e-05");
  xrlab_test_assert_contains (table, "M = 196.967 g/mol");
}

typedef struct {
  const char *args[16];
  int status;
  const char *message;   /* a part of stderr */
} BadCase;

/* Every bad input: exit 1 (bad value) or 2 (usage), a message naming it on
 * stderr, and nothing on stdout. */
static void
test_bad_input (void)
{
  static const BadCase cases[] = {
    { { "calc", "sio2", "-d", "2.2", "-e", "10" }, 1,
      "Formula “sio2”: Element symbols are case-sensitive: “sio2” at column 1 is not a symbol; did you mean “SiO2”?" },
    { { "calc", "SiO2)", "-d", "2.2", "-e", "10" }, 1, "“)” at column 5 has no matching “(”" },
    { { "calc", "Xx", "-d", "2.2", "-e", "10" }, 1, "Unknown element “Xx” at column 1" },
    { { "calc", "SiO2", "-d", "abc", "-e", "10" }, 1, "Density “abc” is not a number" },
    { { "calc", "SiO2", "-d", "0", "-e", "10" }, 1, "Density 0 g/cm³ of SiO2 must be a positive number" },
    { { "calc", "SiO2", "-d", "-2.2", "-e", "10" }, 1, "Density -2.2 g/cm³ of SiO2 must be a positive number" },
    { { "calc", "SiO2", "-d", "2.2", "-e", "40", "--table", "henke" }, 1, "Energy 40 keV is outside the Henke tables: 0.03–30 keV" },
    { { "calc", "SiO2", "-d", "2.2", "-e", "1000" }, 1, "Energy 1000 keV is outside the Chantler tables: 0.00101–966.267 keV" },
    { { "calc", "SiO2", "-d", "2.2", "-e", "1000", "--table", "chantler" }, 1, "Energy 1000 keV is outside the Chantler tables" },
    { { "calc", "SiO2", "-d", "2.2", "-e", "0.4132806", "-u", "A", "--table", "henke" }, 1,
      "Wavelength 0.4132806 Å (30.000004 keV) is outside the Henke tables: 0.413281–413.281 Å (0.03–30 keV)" },
    { { "calc", "SiO2", "-d", "2.2", "-e", "0x10" }, 1, "Energy spec “0x10”: the energy “0x10” is not a number" },
    { { "calc", "SiO2", "-d", "2.2", "-e", "10", "--table", "cxro" }, 2, "--table must be henke, chantler or auto, not “cxro”" },
    { { "calc", "SiO2", "-d", "2.2", "-e", "10", "--transmission", "compton" }, 2, "--transmission must be total or photo, not “compton”" },
    { { "calc", "SiO2", "-d", "2.2", "-e", "10", "--fields", "transmission_photo" }, 2, "the field transmission_photo needs --thickness UM" },
    { { "calc", "SiO2", "-d", "2.2", "-e", "nan" }, 1, "Energy “nan” is not a finite number" },
    { { "calc", "SiO2", "-d", "2.2", "-e", "5,inf" }, 1, "Energy “inf” (point 2) is not a finite number" },
    { { "calc", "SiO2", "-d", "2.2", "-e", "0.02", "--table", "henke" }, 1, "Energy 0.02 keV is outside the Henke tables: 0.03–30 keV" },
    { { "calc", "SiO2", "-d", "2.2", "-e", "5:15" }, 1, "Energy spec “5:15” does not parse" },
    { { "calc", "SiO2", "-d", "2.2", "-e", "10", "-t", "thin" }, 1, "Thickness “thin” is not a number" },
    { { "calc", "SiO2", "-d", "2.2", "-e", "10", "-t", "-5" }, 1, "Thickness -5 µm must be a number ≥ 0" },
    { { "calc", "SiO2", "-d", "2.2", "-e", "10", "-o", "/nonexistent/dir/out.csv" }, 1, "Cannot write /nonexistent/dir/out.csv" },
    { { "calc" }, 2, "xrlab-cli calc: missing FORMULA" },
    { { "calc", "SiO2", "-d", "2.2" }, 2, "xrlab-cli calc: missing -e SPEC" },
    { { "calc", "C9H8O3", "-e", "10" }, 2, "missing -d RHO (density in g/cm³): “C9H8O3” is not a preset" },
    { { "calc", "SiO2", "Au", "-d", "2.2", "-e", "10" }, 2, "one FORMULA only" },
    { { "calc", "SiO2", "-d", "2.2", "-e", "10", "--bogus" }, 2, "Unknown option --bogus" },
    { { "calc", "SiO2", "-d", "2.2", "-e", "10", "--format", "xml" }, 2, "--format must be table, csv or json, not “xml”" },
    { { "calc", "SiO2", "-d", "2.2", "-e", "10", "--unit", "furlong" }, 2, "--unit must be keV, eV or A, not “furlong”" },
    { { "calc", "SiO2", "-d", "2.2", "-e", "10", "--fields", "delta,gamma" }, 2, "unknown field “gamma” in --fields" },
    { { "calc", "SiO2", "-d", "2.2", "-e", "10", "--fields", "transmission" }, 2, "the field transmission needs --thickness UM" },
    { { "compare", "SiO2:abc", "-e", "10" }, 1, "Density “abc” of “SiO2:abc” is not a number" },
    { { "compare", "SiO2:2.2", "Qq:1", "-e", "10" }, 1, "Formula “Qq”: Unknown element “Qq” at column 1" },
    { { "compare", "SiO2:2.2", "Si3N4x:3", "-e", "10" }, 1, "Formula “Si3N4x”: Element symbols are case-sensitive and start with a capital letter: “x” at column 6" },
    { { "compare", "C9H8O3", "-e", "10" }, 1, "“C9H8O3” has no density: write it as C9H8O3:RHO" },
    { { "compare", "SiO2:2.2", "-e", "31", "--table", "henke" }, 1, "Energy 31 keV is outside the Henke tables" },
    { { "compare", "SiO2:2.2", "-e", "10", "--field", "transmission" }, 2, "--field transmission needs --thickness UM" },
    { { "edges", "Fe", "--table", "auto2" }, 2, "--table must be henke, chantler or auto" },
    { { "compare", "SiO2:2.2" }, 2, "missing -e SPEC" },
    { { "compare", "SiO2:2.2", "-e", "10", "--field", "gamma" }, 2, "unknown --field “gamma”" },
    { { "convert", "8.048" }, 1, "“8.048” has no unit" },
    { { "convert", "abckeV" }, 1, "“abckeV” is not a number with a unit" },
    { { "convert", "0eV" }, 1, "“0eV” must be positive" },
    { { "convert", "nankeV" }, 1, "“nankeV” is not a number with a unit" },
    { { "convert" }, 2, "missing VALUE" },
    { { "formula", "Fe2O3)" }, 1, "“)” at column 6 has no matching “(”" },
    { { "formula", "SiO2", "-d", "x" }, 1, "Density “x” is not a number" },
    { { "formula" }, 2, "missing FORMULA" },
    { { "edges", "Xx" }, 1, "Unknown element “Xx”" },
    { { "edges", "93" }, 1, "Unknown element “93”" },
    { { "edges" }, 2, "missing SYMBOL" },
    { { "materials", "--search", "no such material" }, 1, "No material matches “no such material”" },
    { { "materials", "extra" }, 2, "unexpected “extra”" },
    { { "batch" }, 2, "missing IN.csv" },
    { { "batch", "/nonexistent/in.csv" }, 1, "/nonexistent/in.csv" },
    { { "frobnicate" }, 2, "unknown command “frobnicate”" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const char *const *a = cases[i].args;
      g_autofree char *out = NULL, *err = NULL;
      int status = xrlab_test_cli (&out, &err, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9],
                        a[10], a[11], a[12], a[13], a[14], a[15], NULL);

      if (status != cases[i].status || strstr (err, cases[i].message) == NULL || out[0] != '\0')
        g_error ("xrlab-cli %s %s %s ...: status %d, stderr “%s”, stdout “%s”; expected %d, “%s”",
                 a[0], a[1] ? a[1] : "", a[2] ? a[2] : "", status, err, out,
                 cases[i].status, cases[i].message);
    }
}

static void
test_help (void)
{
  static const char *const commands[] = {
    "calc", "batch", "compare", "convert", "formula", "edges", "materials",
  };
  g_autofree char *top = NULL;

  g_assert_cmpint (xrlab_test_cli (&top, NULL, "--help", NULL), ==, 0);
  for (gsize i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      g_autofree char *out = NULL;
      xrlab_test_assert_contains (top, commands[i]);
      g_assert_cmpint (xrlab_test_cli (&out, NULL, commands[i], "--help", NULL), ==, 0);
      xrlab_test_assert_contains (out, "Usage:");
      xrlab_test_assert_contains (out, commands[i]);
    }
}

/* The option prologue of every subcommand: --help, and an unknown option
 * as a usage error naming the subcommand, with the hint. */
static void
test_option_prologue (void)
{
  static const char *const commands[] = {
    "calc", "batch", "compare", "convert", "formula", "edges", "materials",
    "eval", "params", "simulate", "fit",
  };

  for (gsize i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      g_autofree char *out = NULL, *err = NULL, *help = NULL, *expected = NULL, *hint = NULL;

      g_assert_cmpint (xrlab_test_cli (&help, NULL, commands[i], "-h", NULL), ==, 0);
      xrlab_test_assert_contains (help, "Usage:");
      xrlab_test_assert_contains (help, "--help");
      g_assert_cmpint (xrlab_test_cli (&out, &err, commands[i], "--no-such-option", NULL), ==, 2);
      g_assert_cmpstr (out, ==, "");
      expected = g_strdup_printf ("xrlab-cli %s: Unknown option --no-such-option\n", commands[i]);
      hint = g_strdup_printf ("Try “xrlab-cli %s --help”.\n", commands[i]);
      g_assert_true (g_str_has_prefix (err, expected));
      g_assert_true (g_str_has_suffix (err, hint));
    }
}

/* Good rows are written, bad rows reported with their line numbers. */
static void
test_batch (void)
{
  g_autofree char *in = xrlab_test_write_file (tmpdir, "in.csv",
    "formula,density,energy\n"
    "SiO2,2.2,8.048\n"
    "sio2,2.2,8\n"
    "Au,heavy,8\n"
    "\n"
    "# a comment\n"
    "Au,19.3,\"5,10,15\"\n"
    "Si,2.33,5:15\n"
    "Si,2.33,0.02\n"
    "Fe2O3,5.24,1:30:5:log\n"
    "Cu,8.96\n"
    "\"70wt% SiO2 // B2O3\",2.23,10\n");
  g_autofree char *outpath = g_build_filename (tmpdir, "out.csv", NULL);
  g_autofree char *out = NULL, *err = NULL, *contents = NULL, *calc = NULL;
  g_auto(GStrv) lines = NULL, calc_lines = NULL;

  g_assert_cmpint (xrlab_test_cli (&out, &err, "batch", in, "-o", outpath, "--table", "henke", NULL), ==, 1);
  g_assert_cmpstr (out, ==, "");
  xrlab_test_assert_contains (err, "line 3: formula “sio2”: Element symbols are case-sensitive");
  xrlab_test_assert_contains (err, "line 4: density “heavy” is not a number");
  xrlab_test_assert_contains (err, "line 8: Energy spec “5:15” does not parse");
  xrlab_test_assert_contains (err, "line 9: Energy 0.02 keV is outside the Henke tables: 0.03–30 keV");
  xrlab_test_assert_contains (err, "line 11: expected 3 fields like the header, found 2");
  xrlab_test_assert_contains (err, "5 rows failed, 4 written");
  /* In line order. */
  g_assert_true (strstr (err, "line 3:") < strstr (err, "line 4:"));
  g_assert_true (strstr (err, "line 4:") < strstr (err, "line 8:"));
  g_assert_true (strstr (err, "line 9:") < strstr (err, "line 11:"));
  g_assert_null (strstr (err, "[#"));     /* no progress bar: stderr is not a terminal */

  g_assert_true (g_file_get_contents (outpath, &contents, NULL, NULL));
  lines = g_strsplit (contents, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 1 + 1 + 3 + 5 + 1 + 1);
  g_assert_true (g_str_has_prefix (lines[0], "formula,density_g_cm3,energy_keV,wavelength_A,delta,"));
  g_assert_true (g_str_has_suffix (lines[0], ",table"));
  g_assert_true (g_str_has_prefix (lines[1], "SiO2,2.2,8.048,"));
  g_assert_true (g_str_has_suffix (lines[1], ",henke"));
  g_assert_true (g_str_has_prefix (lines[2], "Au,19.3,5,"));
  g_assert_true (g_str_has_prefix (lines[4], "Au,19.3,15,"));
  g_assert_true (g_str_has_prefix (lines[5], "Fe2O3,5.24,1,"));
  g_assert_true (g_str_has_prefix (lines[10], "70wt% SiO2 // B2O3,2.23,10,"));

  /* The same numbers as calc. */
  g_assert_cmpint (xrlab_test_cli (&calc, NULL, "calc", "Fe2O3", "-d", "5.24", "-e", "1:30:5:log", "--format", "csv", NULL), ==, 0);
  calc_lines = g_strsplit (csv_body (calc), "\n", -1);
  for (int i = 0; i < 5; i++)
    {
      g_autofree char *row = g_strconcat ("Fe2O3,5.24,", calc_lines[1 + i], ",henke", NULL);
      g_assert_cmpstr (lines[5 + i], ==, row);
    }
}

/* Many rows (the output formatted in bands on every core; a row of one
 * energy computed with the others of its material): the same bytes on one
 * thread as on all, and each row of one energy as calc gives it alone. */
static void
test_batch_many (void)
{
  static const char *const mats[][2] = { { "SiO2", "2.2" }, { "Au", "19.3" }, { "GaAs", "5.32" } };
  g_autoptr(GString) in = g_string_new ("formula,density,energy\n");
  g_autofree char *path = NULL, *one = NULL, *all = NULL, *err = NULL;
  g_auto(GStrv) lines = NULL;

  for (int i = 0; i < 9000; i++)
    {
      if (i == 10)
        g_string_append (in, "Au,19.3,1:30:5000:log\n");     /* more lines than a band */
      else if (i == 20)
        g_string_append (in, "Xx,1,8\n");                    /* a row that fails */
      else if (i == 30)
        g_string_append (in, "Au,19.3,50\n");                /* Chantler, by auto */
      else
        g_string_append_printf (in, "%s,%s,%.4f\n", mats[i % 3][0], mats[i % 3][1], 1.0 + 0.003 * i);
    }
  path = xrlab_test_write_file (tmpdir, "many.csv", in->str);
  g_assert_cmpint (xrlab_test_cli (&all, &err, "batch", path, "--fields", "delta,beta", NULL), ==, 1);
  xrlab_test_assert_contains (err, "line 22:");
  g_setenv ("XRLAB_THREADS", "1", TRUE);
  g_assert_cmpint (xrlab_test_cli (&one, NULL, "batch", path, "--fields", "delta,beta", NULL), ==, 1);
  g_unsetenv ("XRLAB_THREADS");
  g_assert_true (strcmp (one, all) == 0);
  lines = g_strsplit (all, "\n", -1);
  /* header, 10 rows, 5000 of the grid, 9 more, the failed one left out */
  g_assert_cmpuint (g_strv_length (lines), ==, 1 + 8999 + 4999 + 1);
  g_assert_true (g_str_has_suffix (lines[1 + 30 + 4999 - 1], ",chantler"));
  for (int i = 0; i < 9000; i += 997)
    {
      g_autofree char *e = NULL, *calc = NULL, *want = NULL;
      int at = 1 + i + (i > 10 ? 4999 : 0) - (i > 20 ? 1 : 0);

      if (i == 10 || i == 20 || i == 30)
        continue;
      e = g_strdup_printf ("%.4f", 1.0 + 0.003 * i);
      g_assert_cmpint (xrlab_test_cli (&calc, NULL, "calc", mats[i % 3][0], "-d", mats[i % 3][1], "-e", e,
                                       "--fields", "delta,beta", "--format", "csv", NULL), ==, 0);
      {
        g_auto(GStrv) c = g_strsplit (csv_body (calc), "\n", -1);
        want = g_strdup_printf ("%s,%s,%s,henke", mats[i % 3][0], mats[i % 3][1], c[1]);
      }
      g_assert_cmpstr (lines[at], ==, want);
    }
}

/* H nested in @levels groups each multiplied by 1e-46: 7 levels make a
 * subnormal count, 8 make it zero (issue 18's first crash). */
static char *
nested_tiny (int levels)
{
  GString *s = g_string_new ("H");

  for (int i = 0; i < levels; i++)
    {
      g_string_prepend_c (s, '(');
      g_string_append (s, ")0.0000000000000000000000000000000000000000000001");
    }
  return g_string_free (s, FALSE);
}

/* The zero-atom formula (issue 18, crashes): calc and compare segfaulted,
 * batch segfaulted on it as the first row and wrote the previous row's
 * f1/f2 into it otherwise. Each refuses it with exit 1, nothing partial on
 * stdout; batch writes the other rows only, the same as without it. */
static void
test_zero_atom_formula (void)
{
  g_autofree char *zero = nested_tiny (8), *subnormal = nested_tiny (7);
  g_autofree char *first = NULL, *later = NULL, *alone = NULL, *rows = NULL;
  g_autofree char *expected = NULL, *out = NULL, *err = NULL;
  const char *formulas[] = { zero, subnormal };

  for (gsize i = 0; i < G_N_ELEMENTS (formulas); i++)
    {
      g_autofree char *o1 = NULL, *e1 = NULL, *o2 = NULL, *e2 = NULL, *o3 = NULL, *e3 = NULL;
      g_autofree char *with_density = g_strdup_printf ("%s:1", formulas[i]);

      g_assert_cmpint (xrlab_test_cli (&o1, &e1, "calc", formulas[i], "-d", "1", "-e", "8", NULL),
                       ==, 1);
      g_assert_cmpstr (o1, ==, "");
      g_assert_cmpint (xrlab_test_cli (&o2, &e2, "compare", "Si:2.33", with_density, "-e", "8",
                                       NULL), ==, 1);
      g_assert_cmpstr (o2, ==, "");
      g_assert_cmpint (xrlab_test_cli (&o3, &e3, "formula", formulas[i], NULL), ==, 1);
      g_assert_cmpstr (o3, ==, "");
      if (i == 0)
        {
          xrlab_test_assert_contains (e1, "no atoms");
          xrlab_test_assert_contains (e2, "no atoms");
          xrlab_test_assert_contains (e3, "no atoms");
        }
    }

  rows = g_strdup_printf ("formula,density,energy\n%s,1,8\nSi,2.33,8\n", zero);
  first = xrlab_test_write_file (tmpdir, "zero-first.csv", rows);
  g_free (rows);
  rows = g_strdup_printf ("formula,density,energy\nSi,2.33,8\n%s,1,8\n", zero);
  later = xrlab_test_write_file (tmpdir, "zero-later.csv", rows);
  alone = xrlab_test_write_file (tmpdir, "zero-none.csv", "formula,density,energy\nSi,2.33,8\n");
  g_assert_cmpint (xrlab_test_cli (&expected, NULL, "batch", alone, NULL), ==, 0);
  g_assert_cmpint (xrlab_test_cli (&out, &err, "batch", first, NULL), ==, 1);
  xrlab_test_assert_contains (err, "line 2: formula");
  xrlab_test_assert_contains (err, "no atoms");
  g_assert_cmpstr (out, ==, expected);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (xrlab_test_cli (&out, &err, "batch", later, NULL), ==, 1);
  xrlab_test_assert_contains (err, "line 3: formula");
  g_assert_cmpstr (out, ==, expected);
}

/* A formula's control characters were echoed raw onto the terminal (issue
 * 18, weaker spots): calc and formula print them escaped. */
static void
test_binary_bytes_escaped (void)
{
  const char *formula = "Si\x1b[31mO2\xe2\x80\xae";
  const char *cmds[][8] = {
    { "calc", formula, "-d", "2", "-e", "8", NULL },
    { "formula", formula, NULL },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cmds); i++)
    {
      g_autofree char *out = NULL, *err = NULL;

      g_assert_cmpint (xrlab_test_cli_argv (NULL, cmds[i], &out, &err), ==, 1);
      xrlab_test_assert_contains (err, "Si\\x1B[31mO2\\u202E");
      g_assert_null (strchr (err, '\x1b'));
      g_assert_null (strstr (err, "\xe2\x80\xae"));
    }
}

static void
test_batch_good (void)
{
  g_autofree char *bad = xrlab_test_write_file (tmpdir, "short.csv", "Cu,8.96\n");
  g_autofree char *in = xrlab_test_write_file (tmpdir, "good.csv",
    "Si,2.33,8,100\n"
    "C22H10N2O5,1.42,\"8,12\",25\n");
  g_autofree char *out = NULL, *err = NULL;
  g_auto(GStrv) lines = NULL;

  /* No header: formula,density,energy,thickness; stdout when no -o. */
  g_assert_cmpint (xrlab_test_cli (&out, &err, "batch", bad, NULL), ==, 1);
  xrlab_test_assert_contains (err, "line 1: expected 3 fields formula,density,energy (and optionally thickness), found 2");
  xrlab_test_assert_contains (err, "no row of");
  g_assert_cmpstr (out, ==, "");
  g_clear_pointer (&err, g_free);
  g_clear_pointer (&out, g_free);

  g_assert_cmpint (xrlab_test_cli (&out, &err, "batch", in, "--fields", "delta,transmission", NULL), ==, 0);
  g_assert_cmpstr (err, ==, "");
  lines = g_strsplit (out, "\n", -1);
  g_assert_cmpstr (lines[0], ==, "formula,density_g_cm3,energy_keV,delta,transmission,table");
  g_assert_cmpuint (g_strv_length (lines), ==, 5);
  {
    g_auto(GStrv) f = g_strsplit (lines[1], ",", -1);
    double t = parse_field (f[4]);
    gsize n;
    g_autofree double *tv = engine_values ("Si", 2.33, 100.0, "8", XRLAB_ENERGY_UNIT_KEV,
                                           XRLAB_QUANTITY_TRANSMISSION, &n);
    assert_same_double (t, tv[0], "transmission");
    g_assert_cmpfloat (t, >, 0.0);
    g_assert_cmpfloat (t, <, 1.0);
  }
}

static void
test_compare (void)
{
  g_autofree char *out = NULL, *json = NULL;
  g_auto(GStrv) lines = NULL;
  g_autofree double *sio2 = NULL, *au = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *root;
  JsonArray *mats;
  gsize n;

  g_assert_cmpint (xrlab_test_cli (&out, NULL, "compare", "SiO2:2.2", "Au:19.3", "-e", "5,10",
                        "--format", "csv", NULL), ==, 0);
  xrlab_test_assert_contains (out, "# table: henke (");
  lines = g_strsplit (csv_body (out), "\n", -1);
  g_assert_cmpstr (lines[0], ==, "energy_keV,SiO2:2.2,Au:19.3");
  sio2 = engine_values ("SiO2", 2.2, NAN, "5,10", XRLAB_ENERGY_UNIT_KEV, XRLAB_QUANTITY_DELTA, &n);
  au = engine_values ("Au", 19.3, NAN, "5,10", XRLAB_ENERGY_UNIT_KEV, XRLAB_QUANTITY_DELTA, &n);
  for (int i = 0; i < 2; i++)
    {
      g_auto(GStrv) f = g_strsplit (lines[1 + i], ",", -1);
      assert_same_double (parse_field (f[1]), sio2[i], "SiO2 δ");
      assert_same_double (parse_field (f[2]), au[i], "Au δ");
    }

  /* A preset alone takes its density; JSON. */
  g_assert_cmpint (xrlab_test_cli (&json, NULL, "compare", "Kapton", "Si:2.33", "-e", "8", "--field", "mu_rho_cm2_g",
                        "--format", "json", NULL), ==, 0);
  g_assert_true (json_parser_load_from_data (parser, json, -1, NULL));
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (root, "field"), ==, "mu_rho_cm2_g");
  mats = json_object_get_array_member (root, "materials");
  g_assert_cmpuint (json_array_get_length (mats), ==, 2);
  g_assert_cmpfloat (json_object_get_double_member (json_array_get_object_element (mats, 0), "density_g_cm3"), ==, 1.42);
}

static void
test_convert (void)
{
  g_autofree char *out = NULL, *table = NULL;
  g_auto(GStrv) lines = NULL;

  g_assert_cmpint (xrlab_test_cli (&out, NULL, "convert", "8.048keV", "1.5406A", "8048eV", "0.15406nm", "1.5406Å",
                        "--format", "csv", NULL), ==, 0);
  lines = g_strsplit (out, "\n", -1);
  g_assert_cmpstr (lines[0], ==, "energy_keV,energy_eV,wavelength_A");
  {
    g_auto(GStrv) a = g_strsplit (lines[1], ",", -1);
    g_auto(GStrv) b = g_strsplit (lines[2], ",", -1);
    g_auto(GStrv) e = g_strsplit (lines[5], ",", -1);
    assert_same_double (parse_field (a[0]), 8.048, "keV");
    assert_same_double (parse_field (a[2]), 12.398419843320026 / 8.048, "λ");
    assert_same_double (parse_field (b[0]), 12.398419843320026 / 1.5406, "E of 1.5406 Å");
    g_assert_cmpstr (lines[3], ==, lines[1]);
    assert_same_double (parse_field (e[0]), parse_field (b[0]), "Å and A");
    g_assert_cmpfloat (fabs (parse_field (b[2]) - 1.5406), <, 1e-15);
  }
  g_assert_cmpint (xrlab_test_cli (&table, NULL, "convert", "8.048keV", NULL), ==, 0);
  xrlab_test_assert_contains (table, "8.048 keV = 8048 eV = 1.540559126 Å");
}

static void
test_formula_edges_materials (void)
{
  g_autofree char *json = NULL, *table = NULL, *edges = NULL, *edges26 = NULL, *mats = NULL;
  g_autofree char *mats_json = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(XrlabFormula) f = xrlab_formula_parse ("CuSO4·5H2O", NULL);
  JsonObject *root;

  g_assert_cmpint (xrlab_test_cli (&json, NULL, "formula", "CuSO4·5H2O", "--format", "json", NULL), ==, 0);
  g_assert_true (json_parser_load_from_data (parser, json, -1, NULL));
  root = json_node_get_object (json_parser_get_root (parser));
  assert_same_double (json_object_get_double_member (root, "molecular_weight_g_mol"),
                      xrlab_formula_get_molecular_weight (f), "M");
  g_assert_cmpfloat (json_object_get_double_member (root, "electrons_per_formula_unit"), ==, 127.0);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "atoms")), ==, 4);

  g_assert_cmpint (xrlab_test_cli (&table, NULL, "formula", "70wt% SiO2 // B2O3", "-d", "2.23", NULL), ==, 0);
  xrlab_test_assert_contains (table, "Parts        70 wt% SiO2, 30 wt% B2O3");
  xrlab_test_assert_contains (table, "B (Boron)");

  g_assert_cmpint (xrlab_test_cli (&edges, NULL, "edges", "Fe", "--format", "csv", NULL), ==, 0);
  xrlab_test_assert_contains (edges, "Fe,26,K,7.112");
  /* The tables' jumps (Henke's Fe L3 at 706.8 eV), xraylib's beside them. */
  xrlab_test_assert_contains (edges, "Fe,26,L3,0.7068,17.541624000169815,henke,0.7081\n");
  g_assert_cmpint (xrlab_test_cli (&edges26, NULL, "edges", "26", "--format", "csv", NULL), ==, 0);
  g_assert_cmpstr (edges, ==, edges26);

  g_assert_cmpint (xrlab_test_cli (&mats, NULL, "materials", "--search", "kapton", NULL), ==, 0);
  xrlab_test_assert_contains (mats, "Kapton");
  xrlab_test_assert_contains (mats, "C22H10N2O5");
  g_assert_cmpint (xrlab_test_cli (&mats_json, NULL, "materials", "--format", "json", NULL), ==, 0);
  g_assert_true (json_parser_load_from_data (parser, mats_json, -1, NULL));
  g_assert_cmpuint (json_array_get_length (json_node_get_array (json_parser_get_root (parser))), >, 200);
}

/* In German: tables and messages translated, counts with their plural
 * forms, the machine-readable output (CSV, JSON) the same as in English. */
static void
test_german (void)
{
  g_autofree char *mo = g_test_build_filename (G_TEST_BUILT, "..", "po", "de", "LC_MESSAGES",
                                               "xrlab.mo", NULL);
  g_autofree char *one = xrlab_test_write_file (tmpdir, "one-bad.csv", "SiO2,2.2,8\nsio2,2.2,8\n");
  g_autofree char *two = xrlab_test_write_file (tmpdir, "two-bad.csv", "SiO2,2.2,8\nsio2,2.2,8\nSi,x,8\n");
  g_autofree char *table = NULL, *table_en = NULL, *h = NULL, *h_en = NULL, *formula = NULL;
  g_autofree char *csv = NULL, *csv_en = NULL, *json = NULL, *json_en = NULL;
  g_autofree char *err = NULL, *err_en = NULL, *err2 = NULL, *err2_en = NULL, *bad = NULL;
  g_auto(GStrv) lines = NULL;

  if (!g_file_test (mo, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("no German catalogue in the build tree (msgfmt missing?)");
      return;
    }

  g_assert_cmpint (run_de (&table, NULL, "calc", "SiO2", "-d", "2.2", "-e", "8", NULL), ==, 0);
  xrlab_test_assert_contains (table, "30 Elektronen pro Formeleinheit");
  xrlab_test_assert_contains (table, "Energie");
  xrlab_test_assert_contains (table, "Grenzwinkel");
  g_assert_null (strstr (table, "Energy"));
  g_assert_null (strstr (table, "electrons"));
  g_assert_cmpint (xrlab_test_cli (&table_en, NULL, "calc", "SiO2", "-d", "2.2", "-e", "8", NULL), ==, 0);
  xrlab_test_assert_contains (table_en, "30 electrons per formula unit");

  /* One electron: the singular in both languages. */
  g_assert_cmpint (run_de (&h, NULL, "calc", "H", "-d", "0.07", "-e", "8", NULL), ==, 0);
  xrlab_test_assert_contains (h, "1 Elektron pro Formeleinheit");
  g_assert_cmpint (xrlab_test_cli (&h_en, NULL, "calc", "H", "-d", "0.07", "-e", "8", NULL), ==, 0);
  xrlab_test_assert_contains (h_en, "1 electron per formula unit");

  /* Machine-readable output does not change with the language. */
  g_assert_cmpint (run_de (&csv, NULL, "calc", "SiO2", "-d", "2.2", "-e", "5:15:3", "-t", "10",
                           "--format", "csv", NULL), ==, 0);
  g_assert_cmpint (xrlab_test_cli (&csv_en, NULL, "calc", "SiO2", "-d", "2.2", "-e", "5:15:3", "-t", "10",
                        "--format", "csv", NULL), ==, 0);
  g_assert_cmpstr (csv, ==, csv_en);
  g_assert_cmpint (run_de (&json, NULL, "formula", "CuSO4·5H2O", "--format", "json", NULL), ==, 0);
  g_assert_cmpint (xrlab_test_cli (&json_en, NULL, "formula", "CuSO4·5H2O", "--format", "json", NULL), ==, 0);
  g_assert_cmpstr (json, ==, json_en);

  /* The summary of formula stays aligned whatever the width of the labels. */
  g_assert_cmpint (run_de (&formula, NULL, "formula", "SiO2", "-d", "2.2", NULL), ==, 0);
  xrlab_test_assert_contains (formula, "Si (Silicium)");
  lines = g_strsplit (formula, "\n", -1);
  g_assert_true (g_str_has_prefix (lines[0], "Formel"));
  g_assert_true (g_str_has_prefix (lines[1], "Molare Masse"));
  g_assert_cmpint (strstr (lines[0], "SiO2") - lines[0], ==, strstr (lines[1], "60.083") - lines[1]);

  /* Counts: "1 row failed" / "2 rows failed". */
  g_assert_cmpint (run_de (NULL, &err, "batch", one, NULL), ==, 1);
  xrlab_test_assert_contains (err, "Zeile 2: Formel „sio2“:");
  xrlab_test_assert_contains (err, "1 Zeile fehlgeschlagen, 1 geschrieben");
  g_assert_cmpint (xrlab_test_cli (NULL, &err_en, "batch", one, NULL), ==, 1);
  xrlab_test_assert_contains (err_en, "1 row failed, 1 written");
  g_assert_cmpint (run_de (NULL, &err2, "batch", two, NULL), ==, 1);
  xrlab_test_assert_contains (err2, "2 Zeilen fehlgeschlagen, 1 geschrieben");
  g_assert_cmpint (xrlab_test_cli (NULL, &err2_en, "batch", two, NULL), ==, 1);
  xrlab_test_assert_contains (err2_en, "2 rows failed, 1 written");

  g_assert_cmpint (run_de (NULL, &bad, "calc", "sio2", "-d", "2.2", "-e", "10", NULL), ==, 1);
  g_assert_true (g_str_has_prefix (bad, "xrlab-cli: Formel „sio2“: "));
}

/* ---- a strict JSON checker (RFC 8259) --------------------------------------- */

/* Checks one JSON text to the letter of RFC 8259: no NaN or Infinity, no
 * leading zeros, no trailing commas, only the escapes the RFC names, no
 * control characters in strings, valid UTF-8, nothing after the value; and,
 * stricter than the RFC, no key twice in one object. */
typedef struct {
  const char *start;
  const char *p;
  const char *error;
} JsonCheck;

static gboolean check_value (JsonCheck *j, int depth);

static gboolean
check_fail (JsonCheck *j, const char *what)
{
  if (j->error == NULL)
    j->error = what;
  return FALSE;
}

static void
check_space (JsonCheck *j)
{
  while (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r')
    j->p++;
}

static gboolean
check_literal (JsonCheck *j, const char *word)
{
  gsize n = strlen (word);

  if (strncmp (j->p, word, n) != 0)
    return check_fail (j, "not a value");
  j->p += n;
  return TRUE;
}

/* A string; its contents (unescaped only as far as needed to compare keys)
 * into @text when not NULL. */
static gboolean
check_string (JsonCheck *j, GString *text)
{
  if (*j->p != '"')
    return check_fail (j, "expected a string");
  j->p++;
  for (;;)
    {
      unsigned char c = (unsigned char) *j->p;

      if (c == '\0')
        return check_fail (j, "unterminated string");
      if (c < 0x20)
        return check_fail (j, "control character in a string");
      if (c == '"')
        break;
      if (c == '\\')
        {
          j->p++;
          if (*j->p == 'u')
            {
              for (int k = 1; k <= 4; k++)
                if (!g_ascii_isxdigit (j->p[k]))
                  return check_fail (j, "bad \\u escape");
              if (text)
                g_string_append_len (text, j->p - 1, 6);
              j->p += 5;
              continue;
            }
          if (strchr ("\"\\/bfnrt", *j->p) == NULL || *j->p == '\0')
            return check_fail (j, "bad escape");
        }
      if (text)
        g_string_append_c (text, *j->p);
      j->p++;
    }
  j->p++;
  return TRUE;
}

static gboolean
check_digits (JsonCheck *j)
{
  if (!g_ascii_isdigit (*j->p))
    return check_fail (j, "expected a digit");
  while (g_ascii_isdigit (*j->p))
    j->p++;
  return TRUE;
}

static gboolean
check_number (JsonCheck *j)
{
  if (*j->p == '-')
    j->p++;
  if (*j->p == '0')
    {
      j->p++;
      if (g_ascii_isdigit (*j->p))
        return check_fail (j, "leading zero");
    }
  else if (!check_digits (j))
    return FALSE;
  if (*j->p == '.')
    {
      j->p++;
      if (!check_digits (j))
        return FALSE;
    }
  if (*j->p == 'e' || *j->p == 'E')
    {
      j->p++;
      if (*j->p == '+' || *j->p == '-')
        j->p++;
      if (!check_digits (j))
        return FALSE;
    }
  return TRUE;
}

/* An object or an array (@close '}' or ']'), after its opening bracket. */
static gboolean
check_container (JsonCheck *j, char close, int depth)
{
  g_autoptr(GHashTable) keys = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  j->p++;
  check_space (j);
  if (*j->p == close)
    {
      j->p++;
      return TRUE;
    }
  for (;;)
    {
      check_space (j);
      if (close == '}')
        {
          g_autoptr(GString) key = g_string_new (NULL);

          if (!check_string (j, key))
            return FALSE;
          if (!g_hash_table_add (keys, g_strdup (key->str)))
            return check_fail (j, "a key twice in one object");
          check_space (j);
          if (*j->p != ':')
            return check_fail (j, "expected ':'");
          j->p++;
        }
      if (!check_value (j, depth + 1))
        return FALSE;
      check_space (j);
      if (*j->p == close)
        {
          j->p++;
          return TRUE;
        }
      if (*j->p != ',')
        return check_fail (j, "expected ',' or the end of the container");
      j->p++;
    }
}

static gboolean
check_value (JsonCheck *j, int depth)
{
  if (depth > 64)
    return check_fail (j, "nested too deeply");
  check_space (j);
  switch (*j->p)
    {
    case '{':
      return check_container (j, '}', depth);
    case '[':
      return check_container (j, ']', depth);
    case '"':
      return check_string (j, NULL);
    case 't':
      return check_literal (j, "true");
    case 'f':
      return check_literal (j, "false");
    case 'n':
      return check_literal (j, "null");
    default:
      if (*j->p == '-' || g_ascii_isdigit (*j->p))
        return check_number (j);
      return check_fail (j, "not a value");
    }
}

/* Fails the test unless @text is one strict JSON text; returns its root
 * parsed by json-glib (free with json_node_unref). */
static JsonNode *
parse_strict_json (const char *text)
{
  JsonCheck j = { text, text, NULL };
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  if (!g_utf8_validate (text, -1, NULL))
    g_error ("JSON is not valid UTF-8:\n%s", text);
  if (!check_value (&j, 0) || (check_space (&j), *j.p != '\0'))
    g_error ("not strict JSON (%s at byte %zu):\n%s", j.error ? j.error : "text after the value",
             (gsize) (j.p - j.start), text);
  g_assert_true (json_parser_load_from_data (parser, text, -1, &error));
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

static void
test_strict_json_checker (void)
{
  static const char *const good[] = {
    "{}", "[]", " [1, -0.5, 2e-10, 1E+3, 0, \"a\\u00e9\\n\", true, false, null] ",
    "{\"a\": {\"b\": []}, \"c\": \"µ\"}",
  };
  static const char *const bad[] = {
    "[NaN]", "[nan]", "[Infinity]", "[01]", "[1.]", "[.5]", "[1,]", "{\"a\": 1,}",
    "{\"a\": 1, \"a\": 2}", "[\"\t\"]", "[\"\\x41\"]", "{a: 1}", "['a']", "[1] [2]", "[+1]",
    "", "[",
  };

  for (gsize i = 0; i < G_N_ELEMENTS (good); i++)
    {
      JsonCheck j = { good[i], good[i], NULL };
      g_assert_true (check_value (&j, 0));
      check_space (&j);
      g_assert_cmpint (*j.p, ==, '\0');
    }
  for (gsize i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      JsonCheck j = { bad[i], bad[i], NULL };
      gboolean ok = check_value (&j, 0);
      check_space (&j);
      if (ok && *j.p == '\0')
        g_error ("the checker takes “%s”", bad[i]);
    }
}

/* ---- CSV as RFC 4180 reads it ------------------------------------------------- */

/* The records of @text, each a NULL-terminated array of fields (quotes
 * undone, line breaks inside quotes kept). */
static GPtrArray *
parse_csv (const char *text)
{
  GPtrArray *records = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  g_autoptr(GPtrArray) fields = g_ptr_array_new ();
  g_autoptr(GString) f = g_string_new (NULL);
  const char *p = text;

  while (*p)
    {
      if (*p == '"')
        {
          for (p++; !(*p == '"' && p[1] != '"'); p++)
            {
              g_assert_true (*p != '\0');   /* unterminated quote */
              if (*p == '"')
                p++;
              g_string_append_c (f, *p);
            }
          p++;
          g_assert_true (*p == ',' || *p == '\n');
        }
      while (*p && *p != ',' && *p != '\n')
        g_string_append_c (f, *p++);
      g_ptr_array_add (fields, g_strdup (f->str));
      g_string_truncate (f, 0);
      if (*p == '\n')
        {
          g_ptr_array_add (fields, NULL);
          g_ptr_array_add (records, g_ptr_array_free (g_steal_pointer (&fields), FALSE));
          fields = g_ptr_array_new ();
        }
      if (*p)
        p++;
    }
  g_assert_cmpuint (fields->len, ==, 0);   /* the last record ends with \n */
  return records;
}

static GStrv
csv_record (GPtrArray *records, guint i)
{
  g_assert_cmpuint (i, <, records->len);
  return g_ptr_array_index (records, i);
}

/* The number of a CSV field: round-trip precision, "nan" for NaN. */
static double
csv_number (const char *field)
{
  return parse_field (field);
}

/* The number of a JSON element: null for NaN. */
static double
json_number (JsonNode *node)
{
  if (JSON_NODE_HOLDS_NULL (node))
    return NAN;
  g_assert_true (JSON_NODE_HOLDS_VALUE (node));
  return json_node_get_double (node);
}

/* A number read back from JSON by json-glib is the double written, but for
 * the sign of zero: json-glib reads "-0" as the integer 0. */
static void
assert_json_double (double read, double written, const char *what)
{
  if (written == 0.0)
    g_assert_cmpfloat (read, ==, 0.0);
  else
    assert_same_double (read, written, what);
}

/* The text table shows what the CSV holds, to its digits: the number
 * printed as @format ("%.6g" by default), "—" for NaN. */
static void
assert_shown (const char *cell, double value, const char *format, const char *what)
{
  g_autofree char *expected = isnan (value) ? g_strdup ("—") : g_strdup_printf (format, value);

  if (strcmp (cell, expected) != 0)
    g_error ("%s: the table shows “%s”, the CSV %.17g (expected “%s”)", what, cell, value,
             expected);
}

/* The cells of a text table line (fields separated by two or more spaces,
 * which no cell contains). */
static GStrv
text_cells (const char *line)
{
  g_autoptr(GRegex) re = g_regex_new (" {2,}", 0, 0, NULL);
  g_autofree char *stripped = g_strstrip (g_strdup (line));

  return g_regex_split (re, stripped, 0);
}

/* ---- the output layer (cli-output.c) ------------------------------------------- */

/* A table with every kind of cell and column. */
static XrlabCliTable *
sample_table (void)
{
  static const double numbers[] = { 0.1, -2.5e-300, 1.7976931348623157e308, NAN, 12345678.9, -0.0 };
  static const char *const texts[] = { "plain", "with, comma", "with \"quotes\"", "µ-metal",
                                       "line\nbreak", "" };
  XrlabCliTable *t = xrlab_cli_table_new ();

  g_assert_cmpuint (xrlab_cli_table_add_column (t, XRLAB_CLI_COLUMN_TEXT, "name", "Name", NULL), ==, 0);
  g_assert_cmpuint (xrlab_cli_table_add_column (t, XRLAB_CLI_COLUMN_NUMBER, "value_um", "Wert δ", "µm"), ==, 1);
  g_assert_cmpuint (xrlab_cli_table_add_column (t, XRLAB_CLI_COLUMN_INTEGER, "z", "Z", NULL), ==, 2);
  g_assert_cmpuint (xrlab_cli_table_add_column (t, XRLAB_CLI_COLUMN_NUMBER, NULL, "Percent", "%"), ==, 3);
  g_assert_cmpuint (xrlab_cli_table_add_column (t, XRLAB_CLI_COLUMN_NUMBER, "hidden, key", NULL, NULL), ==, 4);
  xrlab_cli_table_set_text_format (t, 3, "%.2f", 100.0);
  for (gsize r = 0; r < G_N_ELEMENTS (numbers); r++)
    {
      g_assert_cmpuint (xrlab_cli_table_add_row (t), ==, r);
      xrlab_cli_table_set_text (t, r, 0, texts[r]);
      xrlab_cli_table_set_number (t, r, 1, numbers[r]);
      xrlab_cli_table_set_integer (t, r, 2, (gint64) r * 1000000000000 - 7);
      if (r != 2)                                   /* one empty cell */
        xrlab_cli_table_set_number (t, r, 3, numbers[r]);
      if (r != 4)                                   /* one empty cell for programs */
        xrlab_cli_table_set_number (t, r, 4, 1.0 / (double) (r + 3));
    }
  return t;
}

/* CSV, both JSON layouts and the text table of one table agree cell for
 * cell: the same doubles in CSV and JSON, the text showing them. */
static void
test_output_formats_agree (void)
{
  g_autoptr(XrlabCliTable) t = sample_table ();
  g_autoptr(GString) csv = g_string_new (NULL), text = g_string_new (NULL);
  g_autoptr(GString) rows_json = g_string_new (NULL), cols_json = g_string_new (NULL);
  g_autoptr(GPtrArray) records = NULL;
  g_autoptr(JsonNode) rows_root = NULL, cols_root = NULL;
  g_auto(GStrv) lines = NULL;
  XrlabCliJson json;
  JsonArray *rows;
  JsonObject *cols;
  gsize n = xrlab_cli_table_get_n_rows (t);

  xrlab_cli_table_append (t, XRLAB_CLI_FORMAT_CSV, csv);
  xrlab_cli_table_append (t, XRLAB_CLI_FORMAT_JSON, rows_json);
  xrlab_cli_table_append (t, XRLAB_CLI_FORMAT_TABLE, text);
  xrlab_cli_json_init (&json, cols_json);
  xrlab_cli_table_write_json_columns (t, &json, NULL);

  records = parse_csv (csv->str);
  g_assert_cmpuint (records->len, ==, n + 1);
  rows_root = parse_strict_json (rows_json->str);
  cols_root = parse_strict_json (cols_json->str);
  rows = json_node_get_array (rows_root);
  cols = json_node_get_object (cols_root);
  g_assert_cmpuint (json_array_get_length (rows), ==, n);

  /* CSV and JSON have the columns with a key, in order. */
  {
    GStrv header = csv_record (records, 0);
    const char *const keys[] = { "name", "value_um", "z", "hidden, key", NULL };
    g_autoptr(GList) members = json_object_get_members (cols);
    GList *l = members;

    g_assert_cmpstrv (header, keys);
    for (int k = 0; keys[k]; k++, l = l->next)
      g_assert_cmpstr (l->data, ==, keys[k]);
    g_assert_null (l);
  }
  for (gsize r = 0; r < n; r++)
    {
      GStrv f = csv_record (records, (guint) r + 1);
      JsonObject *o = json_array_get_object_element (rows, (guint) r);
      double v = xrlab_cli_table_get_number (t, r, 1);

      g_assert_cmpuint (g_strv_length (f), ==, 4);
      g_assert_cmpuint (json_object_get_size (o), ==, 4);
      g_assert_cmpstr (f[0], ==, xrlab_cli_table_get_text (t, r, 0));
      g_assert_cmpstr (json_object_get_string_member (o, "name"), ==, f[0]);
      assert_same_double (csv_number (f[1]), v, "CSV value_um");
      assert_json_double (json_number (json_object_get_member (o, "value_um")), v, "JSON row");
      assert_json_double (json_number (json_array_get_element (json_object_get_array_member (cols, "value_um"), (guint) r)),
                          v, "JSON column");
      g_assert_cmpint (g_ascii_strtoll (f[2], NULL, 10), ==, (gint64) r * 1000000000000 - 7);
      g_assert_cmpint (json_object_get_int_member (o, "z"), ==, (gint64) r * 1000000000000 - 7);
      if (r == 4)
        {
          g_assert_cmpstr (f[3], ==, "");
          g_assert_true (JSON_NODE_HOLDS_NULL (json_object_get_member (o, "hidden, key")));
        }
      else
        {
          assert_same_double (csv_number (f[3]), 1.0 / (double) (r + 3), "CSV hidden");
          assert_same_double (json_object_get_double_member (o, "hidden, key"),
                              1.0 / (double) (r + 3), "JSON hidden");
        }
    }

  /* The text table: labels, units, then one line per row (the line break of
   * a cell breaks the line: that cell is checked by its parts). */
  lines = g_strsplit (text->str, "\n", -1);
  {
    g_auto(GStrv) labels = text_cells (lines[0]);
    g_auto(GStrv) units = text_cells (lines[1]);
    const char *const expected_labels[] = { "Name", "Wert δ", "Z", "Percent", NULL };
    const char *const expected_units[] = { "µm", "%", NULL };

    g_assert_cmpstrv (labels, expected_labels);
    g_assert_cmpstrv (units, expected_units);
  }
  for (gsize r = 0, line = 2; r < n; r++, line++)
    {
      const char *name = xrlab_cli_table_get_text (t, r, 0);
      g_auto(GStrv) cells = NULL;
      double v = xrlab_cli_table_get_number (t, r, 1);

      if (strchr (name, '\n'))
        line++;                                     /* "line" / "break  …" */
      cells = text_cells (lines[line]);
      if (name[0] == '\0')                          /* an empty name: three cells */
        {
          assert_shown (cells[0], v, "%.6g", "value");
          continue;
        }
      if (!strchr (name, '\n'))
        g_assert_cmpstr (cells[0], ==, name);
      assert_shown (cells[1], v, "%.6g", "value");
      g_assert_cmpint (g_ascii_strtoll (cells[2], NULL, 10), ==, (gint64) r * 1000000000000 - 7);
      if (r == 2)
        g_assert_null (cells[3]);                   /* the empty cell */
      else
        assert_shown (cells[3], 100.0 * v, "%.2f", "percent");
    }
}

/* The text table: widths in characters, numbers right, text left, the unit
 * line only when a column has a unit, no spaces at the ends of lines. */
static void
test_output_text_layout (void)
{
  g_autoptr(XrlabCliTable) t = xrlab_cli_table_new ();
  g_autoptr(XrlabCliTable) plain = xrlab_cli_table_new ();
  g_autoptr(GString) s = g_string_new (NULL);

  xrlab_cli_table_add_column (t, XRLAB_CLI_COLUMN_TEXT, "k", "Élément", NULL);
  xrlab_cli_table_add_column (t, XRLAB_CLI_COLUMN_NUMBER, "x", "μ", "1/cm");
  xrlab_cli_table_add_column (t, XRLAB_CLI_COLUMN_TEXT, "last", "Last", NULL);
  xrlab_cli_table_add_row (t);
  xrlab_cli_table_set_text (t, 0, 0, "Fe");
  xrlab_cli_table_set_number (t, 0, 1, 1234.5678);
  xrlab_cli_table_add_row (t);
  xrlab_cli_table_set_text (t, 1, 0, "Ωmega");
  xrlab_cli_table_set_number (t, 1, 1, NAN);
  xrlab_cli_table_set_text (t, 1, 2, "x");
  xrlab_cli_table_append_text (t, s);
  g_assert_cmpstr (s->str, ==,
                   "Élément        μ  Last\n"
                   "            1/cm\n"
                   "Fe       1234.57\n"
                   "Ωmega          —  x\n");

  g_string_truncate (s, 0);
  xrlab_cli_table_add_column (plain, XRLAB_CLI_COLUMN_INTEGER, "n", "n", "");
  xrlab_cli_table_add_row (plain);
  xrlab_cli_table_set_integer (plain, 0, 0, 42);
  xrlab_cli_table_append_text (plain, s);
  g_assert_cmpstr (s->str, ==, " n\n42\n");
}

/* The JSON writer: lines and inline layouts, escapes, empty containers. */
static void
test_output_json_layout (void)
{
  static const double v[] = { 1, 0.5, NAN, -1e-7 };
  g_autoptr(GString) s = g_string_new (NULL);
  g_autoptr(JsonNode) root = NULL;
  XrlabCliJson json;

  xrlab_cli_json_init (&json, s);
  xrlab_cli_json_begin_object (&json, NULL, XRLAB_CLI_JSON_LINES);
  xrlab_cli_json_string (&json, "text", "a \"quote\", a \\, a tab\t and \x01");
  xrlab_cli_json_number (&json, "inf", INFINITY);
  xrlab_cli_json_integer (&json, "big", G_GINT64_CONSTANT (-9007199254740993));
  xrlab_cli_json_numbers (&json, "v", v, G_N_ELEMENTS (v));
  xrlab_cli_json_begin_array (&json, "rows", XRLAB_CLI_JSON_LINES);
  xrlab_cli_json_begin_object (&json, NULL, XRLAB_CLI_JSON_INLINE);
  xrlab_cli_json_null (&json, "n");
  xrlab_cli_json_begin_object (&json, "empty", XRLAB_CLI_JSON_INLINE);
  xrlab_cli_json_end (&json);
  xrlab_cli_json_end (&json);
  xrlab_cli_json_begin_array (&json, NULL, XRLAB_CLI_JSON_LINES);
  xrlab_cli_json_end (&json);
  xrlab_cli_json_end (&json);
  xrlab_cli_json_end (&json);
  g_assert_cmpuint (json.depth, ==, 0);
  g_assert_cmpstr (s->str, ==,
                   "{\n"
                   "  \"text\": \"a \\\"quote\\\", a \\\\, a tab\\t and \\u0001\",\n"
                   "  \"inf\": null,\n"
                   "  \"big\": -9007199254740993,\n"
                   "  \"v\": [1, 0.5, null, -1e-07],\n"
                   "  \"rows\": [\n"
                   "    {\"n\": null, \"empty\": {}},\n"
                   "    [\n"
                   "    ]\n"
                   "  ]\n"
                   "}\n");
  root = parse_strict_json (s->str);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (root), "text"), ==,
                   "a \"quote\", a \\, a tab\t and \x01");
}

/* A long table written in parts (clear_rows between them) is the table
 * written whole. */
static void
test_output_rows_in_parts (void)
{
  g_autoptr(XrlabCliTable) whole = xrlab_cli_table_new ();
  g_autoptr(XrlabCliTable) part = xrlab_cli_table_new ();
  g_autoptr(GString) a = g_string_new (NULL), b = g_string_new (NULL);
  XrlabCliTable *tables[] = { whole, part };

  for (int k = 0; k < 2; k++)
    {
      xrlab_cli_table_add_column (tables[k], XRLAB_CLI_COLUMN_TEXT, "formula", NULL, NULL);
      xrlab_cli_table_add_quantity (tables[k], XRLAB_QUANTITY_DELTA);
    }
  for (int i = 0; i < 1000; i++)
    {
      gsize r = xrlab_cli_table_add_row (whole);
      xrlab_cli_table_take_text (whole, r, 0, g_strdup_printf ("Si%d", i));
      xrlab_cli_table_set_number (whole, r, 1, 1.0 / (i + 1));
    }
  xrlab_cli_table_append_csv (whole, a);
  xrlab_cli_table_append_csv_header (part, b);
  for (int start = 0; start < 1000; start += 300)
    {
      xrlab_cli_table_clear_rows (part);
      g_assert_cmpuint (xrlab_cli_table_get_n_rows (part), ==, 0);
      for (int i = start; i < MIN (1000, start + 300); i++)
        {
          gsize r = xrlab_cli_table_add_row (part);
          xrlab_cli_table_take_text (part, r, 0, g_strdup_printf ("Si%d", i));
          xrlab_cli_table_set_number (part, r, 1, 1.0 / (i + 1));
        }
      xrlab_cli_table_append_csv_rows (part, b);
    }
  g_assert_cmpstr (a->str, ==, b->str);
  g_assert_true (g_str_has_prefix (a->str, "formula,delta\nSi0,1\nSi1,0.5\n"));
}

/* ---- every command's formats agree -------------------------------------------- */

/* The text table lines of @out: from the line that starts with @first_label
 * on, the two header lines skipped, up to the first empty line. */
static GPtrArray *
table_rows (const char *out, const char *first_label, guint n_header)
{
  g_auto(GStrv) lines = g_strsplit (out, "\n", -1);
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  guint i = 0;

  while (lines[i] && !g_str_has_prefix (lines[i] + strspn (lines[i], " "), first_label))
    i++;
  g_assert_nonnull (lines[i]);
  for (i += n_header; lines[i] && lines[i][0] != '\0'; i++)
    g_ptr_array_add (rows, text_cells (lines[i]));
  return rows;
}

/* Every JSON output of the optics commands is strict JSON. */
static void
test_json_strict (void)
{
  static const char *const cases[][12] = {
    { "calc", "SiO2", "-d", "2.2", "-e", "5:15:3", "-t", "10", "-f", "json" },
    { "calc", "Si", "-d", "2.33", "-e", "0.06:0.2:12", "-f", "json" },   /* nulls */
    { "calc", "70wt% SiO2 // B2O3", "-d", "2.23", "-e", "10", "-f", "json", "--fields", "f1,delta" },
    { "compare", "Au:19.3", "Si:2.33", "Kapton", "-e", "0.06:0.2:5", "--field", "critical_angle_deg", "-f", "json" },
    { "convert", "8.048keV", "1.5406A", "0.15406nm", "-f", "json" },
    { "formula", "CuSO4·5H2O", "-d", "2.286", "-f", "json" },
    { "formula", "70wt% SiO2 // B2O3", "-f", "json" },
    { "edges", "H", "Fe", "U", "-f", "json" },
    { "materials", "-f", "json" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const char *const *a = cases[i];
      g_autofree char *out = NULL;
      g_autoptr(JsonNode) root = NULL;

      g_assert_cmpint (xrlab_test_cli (&out, NULL, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8],
                            a[9], a[10], a[11], NULL), ==, 0);
      root = parse_strict_json (out);
      g_assert_nonnull (root);
    }
}

/* One command's output in the three formats: the table, the CSV records
 * and the JSON root. */
typedef struct {
  char *table;
  char *csv;
  char *json;
  GPtrArray *records;
  JsonNode *root;
} Formats;

static void
formats_clear (Formats *f)
{
  g_free (f->table);
  g_free (f->csv);
  g_free (f->json);
  g_clear_pointer (&f->records, g_ptr_array_unref);
  g_clear_pointer (&f->root, json_node_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Formats, formats_clear)

/* Runs @args (at most 9 words, NULL-terminated) as they are, with -f csv
 * and with -f json; the CSV read as RFC 4180 says, the JSON as strict
 * JSON. */
static void
run_formats (Formats *f, const char *const *args)
{
  const char *a[12] = { NULL, };
  guint n = 0;

  for (; args[n] != NULL; n++)
    a[n] = args[n];
  g_assert_cmpuint (n, <=, 9);
  g_assert_cmpint (xrlab_test_cli (&f->table, NULL, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8],
                        a[9], a[10], a[11], NULL), ==, 0);
  a[n] = "-f";
  a[n + 1] = "csv";
  g_assert_cmpint (xrlab_test_cli (&f->csv, NULL, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8],
                        a[9], a[10], a[11], NULL), ==, 0);
  a[n + 1] = "json";
  g_assert_cmpint (xrlab_test_cli (&f->json, NULL, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8],
                        a[9], a[10], a[11], NULL), ==, 0);
  f->records = parse_csv (csv_body (f->csv));   /* after the comment lines */
  f->root = parse_strict_json (f->json);
}

/* calc: the table, CSV and JSON show the same numbers (NaN critical
 * angles included). */
static void
test_calc_formats_agree (void)
{
  const char *const args[] = { "calc", "Si", "-d", "2.33", "-e", "0.06:0.3:9", "-t", "2", NULL };
  g_auto(Formats) f = { 0, };
  g_autoptr(GPtrArray) rows = NULL;
  JsonObject *columns;
  GStrv header;
  guint n_nan = 0;

  run_formats (&f, args);
  columns = json_object_get_object_member (json_node_get_object (f.root), "columns");
  rows = table_rows (f.table, "Energy", 2);
  header = csv_record (f.records, 0);
  g_assert_cmpuint (f.records->len, ==, 10);
  g_assert_cmpuint (rows->len, ==, 9);
  g_assert_cmpuint (json_object_get_size (columns), ==, g_strv_length (header));

  for (guint c = 0; header[c]; c++)
    {
      JsonArray *a = json_object_get_array_member (columns, header[c]);

      g_assert_cmpuint (json_array_get_length (a), ==, 9);
      for (guint r = 0; r < 9; r++)
        {
          double v = csv_number (csv_record (f.records, r + 1)[c]);
          GStrv cells = g_ptr_array_index (rows, r);

          assert_same_double (json_number (json_array_get_element (a, r)), v, header[c]);
          g_assert_cmpuint (g_strv_length (cells), ==, g_strv_length (header));
          assert_shown (cells[c], v, "%.6g", header[c]);
          n_nan += isnan (v);
        }
    }
  g_assert_cmpuint (n_nan, >, 0);
  xrlab_test_assert_contains (f.table, "— no critical angle where δ < 0");
}

/* compare: a column per material in the table and the CSV, the values of
 * each material in JSON. */
static void
test_compare_formats_agree (void)
{
  const char *const args[] = { "compare", "Au:19.3", "Kapton", "-e", "5:20:4", NULL };
  g_auto(Formats) f = { 0, };
  g_autoptr(GPtrArray) rows = NULL;
  JsonObject *root;
  JsonArray *mats;

  run_formats (&f, args);
  rows = table_rows (f.table, "Energy", 2);
  root = json_node_get_object (f.root);
  mats = json_object_get_array_member (root, "materials");
  g_assert_cmpuint (json_array_get_length (mats), ==, 2);
  g_assert_cmpuint (rows->len, ==, 4);
  g_assert_cmpuint (f.records->len, ==, 5);
  for (guint r = 0; r < 4; r++)
    {
      GStrv rec = csv_record (f.records, r + 1);
      GStrv cells = g_ptr_array_index (rows, r);
      JsonArray *energies = json_object_get_array_member (root, "energy_keV");

      assert_shown (cells[0], csv_number (rec[0]), "%.6g", "energy");
      assert_same_double (json_number (json_array_get_element (energies, r)), csv_number (rec[0]),
                          "energy");
      for (guint m = 0; m < 2; m++)
        {
          JsonObject *mat = json_array_get_object_element (mats, m);
          JsonArray *values = json_object_get_array_member (mat, "values");

          assert_same_double (json_number (json_array_get_element (values, r)),
                              csv_number (rec[m + 1]), "value");
          assert_shown (cells[m + 1], csv_number (rec[m + 1]), "%.6g", "value");
        }
    }
}

/* edges: a CSV line, a JSON object and a table line per edge. */
static void
test_edges_formats_agree (void)
{
  const char *const args[] = { "edges", "Fe", NULL };
  g_auto(Formats) f = { 0, };
  g_autoptr(GPtrArray) rows = NULL;
  JsonObject *fe;
  JsonArray *edges;

  run_formats (&f, args);
  rows = table_rows (f.table, "Edge", 2);
  fe = json_array_get_object_element (json_node_get_array (f.root), 0);
  edges = json_object_get_array_member (fe, "edges");
  g_assert_cmpint (json_object_get_int_member (fe, "z"), ==, 26);
  g_assert_cmpuint (rows->len, >=, 3);
  g_assert_cmpuint (json_array_get_length (edges), ==, rows->len);
  g_assert_cmpuint (f.records->len, ==, rows->len + 1);
  for (guint r = 0; r < rows->len; r++)
    {
      /* symbol,z,edge,energy_keV,wavelength_A,table,xraylib_keV */
      GStrv rec = csv_record (f.records, r + 1);
      GStrv cells = g_ptr_array_index (rows, r);
      JsonObject *edge = json_array_get_object_element (edges, r);
      double kev = csv_number (rec[3]);

      g_assert_cmpstr (rec[0], ==, "Fe");
      g_assert_cmpstr (rec[1], ==, "26");
      g_assert_cmpstr (cells[0], ==, rec[2]);
      g_assert_cmpstr (json_object_get_string_member (edge, "edge"), ==, rec[2]);
      g_assert_cmpstr (json_object_get_string_member (edge, "table"), ==, rec[5]);
      g_assert_cmpstr (cells[4], ==, rec[5]);
      assert_same_double (json_object_get_double_member (edge, "energy_keV"), kev, rec[2]);
      assert_same_double (json_object_get_double_member (edge, "xraylib_keV"), csv_number (rec[6]), rec[2]);
      assert_shown (cells[1], kev, "%.6g", "keV");
      assert_shown (cells[2], kev * 1000.0, "%.6g", "eV");
      assert_shown (cells[3], csv_number (rec[4]), "%.6g", "Å");
      assert_shown (cells[5], csv_number (rec[6]), "%.6g", "xraylib keV");
    }
}

/* materials: name, density and formula in the three formats. */
static void
test_materials_formats_agree (void)
{
  const char *const args[] = { "materials", "-s", "glass", NULL };
  g_auto(Formats) f = { 0, };
  g_autoptr(GPtrArray) rows = NULL;
  JsonArray *items;

  run_formats (&f, args);
  rows = table_rows (f.table, "Name", 2);
  items = json_node_get_array (f.root);
  g_assert_cmpuint (rows->len, >, 0);
  g_assert_cmpuint (f.records->len, ==, rows->len + 1);
  g_assert_cmpuint (json_array_get_length (items), ==, rows->len);
  for (guint r = 0; r < rows->len; r++)
    {
      GStrv rec = csv_record (f.records, r + 1);   /* name,formula,density_g_cm3,source */
      GStrv cells = g_ptr_array_index (rows, r);
      JsonObject *o = json_array_get_object_element (items, r);

      g_assert_cmpstr (cells[0], ==, rec[0]);
      assert_shown (cells[1], csv_number (rec[2]), "%.6g", "density");
      g_assert_cmpstr (cells[2], ==, rec[1]);
      g_assert_cmpstr (json_object_get_string_member (o, "name"), ==, rec[0]);
      g_assert_cmpstr (json_object_get_string_member (o, "formula"), ==, rec[1]);
      assert_same_double (json_object_get_double_member (o, "density_g_cm3"), csv_number (rec[2]),
                          "density");
      g_assert_cmpstr (json_object_get_string_member (o, "source"), ==, rec[3]);
    }
}

/* convert: the CSV and JSON rows; the text line with 10 digits. */
static void
test_convert_formats_agree (void)
{
  const char *const args[] = { "convert", "8.048keV", "0.15406nm", NULL };
  const char *const keys[] = { "energy_keV", "energy_eV", "wavelength_A" };
  g_auto(Formats) f = { 0, };
  g_auto(GStrv) lines = NULL;
  JsonArray *items;

  run_formats (&f, args);
  lines = g_strsplit (f.table, "\n", -1);
  items = json_node_get_array (f.root);
  g_assert_cmpuint (f.records->len, ==, 3);
  g_assert_cmpuint (json_array_get_length (items), ==, 2);
  for (guint r = 0; r < 2; r++)
    {
      GStrv rec = csv_record (f.records, r + 1);
      JsonObject *o = json_array_get_object_element (items, r);
      g_autofree char *expected = g_strdup_printf ("%.10g keV = %.10g eV = %.10g Å",
                                                   csv_number (rec[0]), csv_number (rec[1]),
                                                   csv_number (rec[2]));

      for (int k = 0; k < 3; k++)
        assert_same_double (json_object_get_double_member (o, keys[k]), csv_number (rec[k]),
                            keys[k]);
      xrlab_test_assert_contains (lines[r], expected);
    }
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  xrlab_init ();
  tmpdir = g_dir_make_tmp ("xrlab-cli-test-XXXXXX", NULL);
  g_test_add_func ("/cli-optics/calc-csv", test_calc_csv);
  g_test_add_func ("/cli-optics/calc-json", test_calc_json);
  g_test_add_func ("/cli-optics/calc-options", test_calc_options);
  g_test_add_func ("/cli-optics/bad-input", test_bad_input);
  g_test_add_func ("/cli-optics/help", test_help);
  g_test_add_func ("/cli-optics/option-prologue", test_option_prologue);
  g_test_add_func ("/cli-optics/batch", test_batch);
  g_test_add_func ("/cli-optics/batch-many", test_batch_many);
  g_test_add_func ("/cli-optics/batch-good", test_batch_good);
  g_test_add_func ("/cli-optics/zero-atom-formula", test_zero_atom_formula);
  g_test_add_func ("/cli-optics/binary-bytes-escaped", test_binary_bytes_escaped);
  g_test_add_func ("/cli-optics/compare", test_compare);
  g_test_add_func ("/cli-optics/convert", test_convert);
  g_test_add_func ("/cli-optics/formula-edges-materials", test_formula_edges_materials);
  g_test_add_func ("/cli-optics/german", test_german);
  g_test_add_func ("/cli-optics/output/strict-json-checker", test_strict_json_checker);
  g_test_add_func ("/cli-optics/output/formats-agree", test_output_formats_agree);
  g_test_add_func ("/cli-optics/output/text-layout", test_output_text_layout);
  g_test_add_func ("/cli-optics/output/json-layout", test_output_json_layout);
  g_test_add_func ("/cli-optics/output/rows-in-parts", test_output_rows_in_parts);
  g_test_add_func ("/cli-optics/json-strict", test_json_strict);
  g_test_add_func ("/cli-optics/calc-formats-agree", test_calc_formats_agree);
  g_test_add_func ("/cli-optics/compare-formats-agree", test_compare_formats_agree);
  g_test_add_func ("/cli-optics/edges-formats-agree", test_edges_formats_agree);
  g_test_add_func ("/cli-optics/materials-formats-agree", test_materials_formats_agree);
  g_test_add_func ("/cli-optics/convert-formats-agree", test_convert_formats_agree);
  status = g_test_run ();
  {
    g_autoptr(GDir) d = g_dir_open (tmpdir, 0, NULL);
    const char *name;
    while (d && (name = g_dir_read_name (d)) != NULL)
      {
        g_autofree char *p = g_build_filename (tmpdir, name, NULL);
        g_unlink (p);
      }
    g_rmdir (tmpdir);
    g_free (tmpdir);
  }
  return status;
}
