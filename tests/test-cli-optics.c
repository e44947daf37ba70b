/* test-cli-optics.c -- xrlab-cli calc, batch, compare, convert, formula,
 * edges, materials: output formats, round trips, exit codes and messages
 *
 * Runs the built xrlab-cli ($XRLAB_CLI).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>
#include <sys/wait.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "xrlab-formula.h"
#include "xrlab-init.h"
#include "xrlab-optics.h"
#include "xrlab-util.h"

static char *tmpdir;

/* Runs xrlab-cli with the arguments, in @language (NULL: the test's
 * English); returns the exit status and the output. */
static int
run_valist (const char *language, char **out, char **err, va_list args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) envp = g_get_environ ();
  const char *cli = g_getenv ("XRLAB_CLI");
  char *o = NULL, *e = NULL;
  int status = 0;
  const char *a;

  g_assert_nonnull (cli);
  if (language)
    envp = g_environ_setenv (envp, "LANGUAGE", language, TRUE);
  g_ptr_array_add (argv, (gpointer) cli);
  while ((a = va_arg (args, const char *)) != NULL)
    g_ptr_array_add (argv, (gpointer) a);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, envp, G_SPAWN_DEFAULT, NULL, NULL,
                               &o, &e, &status, &error));
  g_assert_no_error (error);
  if (out)
    *out = o;
  else
    g_free (o);
  if (err)
    *err = e;
  else
    g_free (e);
  g_assert_true (WIFEXITED (status));
  return WEXITSTATUS (status);
}

/* Runs xrlab-cli with the NULL-terminated arguments. */
static int
run (char **out, char **err, ...)
{
  va_list args;
  int status;

  va_start (args, err);
  status = run_valist (NULL, out, err, args);
  va_end (args);
  return status;
}

/* The same in German. */
static int
run_de (char **out, char **err, ...)
{
  va_list args;
  int status;

  va_start (args, err);
  status = run_valist ("de", out, err, args);
  va_end (args);
  return status;
}

static void
assert_contains (const char *haystack, const char *needle)
{
  if (strstr (haystack, needle) == NULL)
    g_error ("“%s” not found in:\n%s", needle, haystack);
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
  "attenuation_length_cm,mu_per_cm,mu_rho_cm2_g,re_sld_per_A2,im_sld_per_A2";

/* CSV reads back to the very doubles the engine computes. */
static void
test_calc_csv (void)
{
  g_autofree char *out = NULL, *err = NULL;
  g_auto(GStrv) lines = NULL, header = NULL;
  g_autofree char *expected_header = g_strconcat (all_columns, ",transmission", NULL);
  guint n_lines;

  g_assert_cmpint (run (&out, &err, "calc", "SiO2", "-d", "2.2", "-e", "0.05:30:60:log",
                        "--thickness", "10", "--format", "csv", NULL), ==, 0);
  g_assert_cmpstr (err, ==, "");
  lines = g_strsplit (out, "\n", -1);
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
          g_assert_cmpuint (g_strv_length (f), ==, 14);
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

  g_assert_cmpint (run (&out, NULL, "calc", "Si", "-d", "2.33", "-e", "0.06:0.2:40",
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
  g_assert_cmpuint (json_object_get_size (columns), ==, 13);
  g_assert_false (json_object_has_member (columns, "transmission"));

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
  g_assert_cmpint (run (&out, NULL, "calc", "Au", "-d", "19.3", "-e", "8,10", "--format", "csv",
                        "--fields", "beta,delta", NULL), ==, 0);
  g_assert_true (g_str_has_prefix (out, "energy_keV,beta,delta\n8,"));
  g_clear_pointer (&out, g_free);

  /* -o writes the file (atomically) and nothing to stdout. */
  g_assert_cmpint (run (&out, &err, "calc", "Au", "-d", "19.3", "-e", "8,10", "--format", "csv",
                        "-o", path, NULL), ==, 0);
  g_assert_cmpstr (out, ==, "");
  g_assert_true (g_file_get_contents (path, &file_text, NULL, NULL));
  g_assert_cmpint (run (&out2, NULL, "calc", "Au", "-d", "19.3", "-e", "8,10", "--format", "csv", NULL), ==, 0);
  g_assert_cmpstr (file_text, ==, out2);

  /* A preset name: its formula and density. */
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&out2, g_free);
  g_assert_cmpint (run (&out, NULL, "calc", "Kapton", "-e", "8", "--format", "csv", NULL), ==, 0);
  g_assert_cmpint (run (&out2, NULL, "calc", "C22H10N2O5", "-d", "1.42", "-e", "8", "--format", "csv", NULL), ==, 0);
  g_assert_cmpstr (out, ==, out2);

  /* eV and Å. */
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&out2, g_free);
  g_assert_cmpint (run (&out, NULL, "calc", "Cu", "-d", "8.96", "-e", "8048", "--unit", "eV",
                        "--format", "csv", "--fields", "delta", NULL), ==, 0);
  g_assert_cmpint (run (&out2, NULL, "calc", "Cu", "-d", "8.96", "-e", "8.048",
                        "--format", "csv", "--fields", "delta", NULL), ==, 0);
  g_assert_cmpstr (out, ==, out2);
  g_assert_cmpint (run (&a_out, NULL, "calc", "Cu", "-d", "8.96", "-e", "1.5406", "--unit", "A",
                        "--format", "csv", "--fields", "wavelength_A", NULL), ==, 0);
  assert_contains (a_out, ",1.5406\n");

  /* The table is for people: labels, units, 6 digits. */
  g_assert_cmpint (run (&table, NULL, "calc", "Au", "-d", "19.3", "-e", "10", NULL), ==, 0);
  assert_contains (table, "δ");
  assert_contains (table, "cm²/g");
  assert_contains (table, "2.9882e-05");
  assert_contains (table, "M = 196.967 g/mol");
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
    { { "calc", "SiO2", "-d", "2.2", "-e", "40" }, 1, "Energy 40 keV is outside the Henke tables: 0.01–30 keV" },
    { { "calc", "SiO2", "-d", "2.2", "-e", "nan" }, 1, "Energy “nan” is not a finite number" },
    { { "calc", "SiO2", "-d", "2.2", "-e", "5,inf" }, 1, "Energy “inf” (point 2) is not a finite number" },
    { { "calc", "SiO2", "-d", "2.2", "-e", "0.02" }, 1, "Energy 0.02 keV is below the f1 table of Si" },
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
    { { "compare", "SiO2:2.2", "-e", "31" }, 1, "Energy 31 keV is outside the Henke tables" },
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
      int status = run (&out, &err, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9],
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

  g_assert_cmpint (run (&top, NULL, "--help", NULL), ==, 0);
  for (gsize i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      g_autofree char *out = NULL;
      assert_contains (top, commands[i]);
      g_assert_cmpint (run (&out, NULL, commands[i], "--help", NULL), ==, 0);
      assert_contains (out, "Usage:");
      assert_contains (out, commands[i]);
    }
}

static char *
write_temp (const char *name, const char *contents)
{
  char *path = g_build_filename (tmpdir, name, NULL);
  g_assert_true (g_file_set_contents (path, contents, -1, NULL));
  return path;
}

/* Good rows are written, bad rows reported with their line numbers. */
static void
test_batch (void)
{
  g_autofree char *in = write_temp ("in.csv",
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

  g_assert_cmpint (run (&out, &err, "batch", in, "-o", outpath, NULL), ==, 1);
  g_assert_cmpstr (out, ==, "");
  assert_contains (err, "line 3: formula “sio2”: Element symbols are case-sensitive");
  assert_contains (err, "line 4: density “heavy” is not a number");
  assert_contains (err, "line 8: Energy spec “5:15” does not parse");
  assert_contains (err, "line 9: Energy 0.02 keV is below the f1 table of Si");
  assert_contains (err, "line 11: expected 3 fields like the header, found 2");
  assert_contains (err, "5 rows failed, 4 written");
  /* In line order. */
  g_assert_true (strstr (err, "line 3:") < strstr (err, "line 4:"));
  g_assert_true (strstr (err, "line 4:") < strstr (err, "line 8:"));
  g_assert_true (strstr (err, "line 9:") < strstr (err, "line 11:"));
  g_assert_null (strstr (err, "[#"));     /* no progress bar: stderr is not a terminal */

  g_assert_true (g_file_get_contents (outpath, &contents, NULL, NULL));
  lines = g_strsplit (contents, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 1 + 1 + 3 + 5 + 1 + 1);
  g_assert_true (g_str_has_prefix (lines[0], "formula,density_g_cm3,energy_keV,wavelength_A,delta,"));
  g_assert_true (g_str_has_prefix (lines[1], "SiO2,2.2,8.048,"));
  g_assert_true (g_str_has_prefix (lines[2], "Au,19.3,5,"));
  g_assert_true (g_str_has_prefix (lines[4], "Au,19.3,15,"));
  g_assert_true (g_str_has_prefix (lines[5], "Fe2O3,5.24,1,"));
  g_assert_true (g_str_has_prefix (lines[10], "70wt% SiO2 // B2O3,2.23,10,"));

  /* The same numbers as calc. */
  g_assert_cmpint (run (&calc, NULL, "calc", "Fe2O3", "-d", "5.24", "-e", "1:30:5:log", "--format", "csv", NULL), ==, 0);
  calc_lines = g_strsplit (calc, "\n", -1);
  for (int i = 0; i < 5; i++)
    g_assert_cmpstr (lines[5 + i] + strlen ("Fe2O3,5.24,"), ==, calc_lines[1 + i]);
}

static void
test_batch_good (void)
{
  g_autofree char *bad = write_temp ("short.csv", "Cu,8.96\n");
  g_autofree char *in = write_temp ("good.csv",
    "Si,2.33,8,100\n"
    "C22H10N2O5,1.42,\"8,12\",25\n");
  g_autofree char *out = NULL, *err = NULL;
  g_auto(GStrv) lines = NULL;

  /* No header: formula,density,energy,thickness; stdout when no -o. */
  g_assert_cmpint (run (&out, &err, "batch", bad, NULL), ==, 1);
  assert_contains (err, "line 1: expected 3 fields formula,density,energy (and optionally thickness), found 2");
  assert_contains (err, "no row of");
  g_assert_cmpstr (out, ==, "");
  g_clear_pointer (&err, g_free);
  g_clear_pointer (&out, g_free);

  g_assert_cmpint (run (&out, &err, "batch", in, "--fields", "delta,transmission", NULL), ==, 0);
  g_assert_cmpstr (err, ==, "");
  lines = g_strsplit (out, "\n", -1);
  g_assert_cmpstr (lines[0], ==, "formula,density_g_cm3,energy_keV,delta,transmission");
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

  g_assert_cmpint (run (&out, NULL, "compare", "SiO2:2.2", "Au:19.3", "-e", "5,10",
                        "--format", "csv", NULL), ==, 0);
  lines = g_strsplit (out, "\n", -1);
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
  g_assert_cmpint (run (&json, NULL, "compare", "Kapton", "Si:2.33", "-e", "8", "--field", "mu_rho_cm2_g",
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

  g_assert_cmpint (run (&out, NULL, "convert", "8.048keV", "1.5406A", "8048eV", "0.15406nm", "1.5406Å",
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
  g_assert_cmpint (run (&table, NULL, "convert", "8.048keV", NULL), ==, 0);
  assert_contains (table, "8.048 keV = 8048 eV = 1.540559126 Å");
}

static void
test_formula_edges_materials (void)
{
  g_autofree char *json = NULL, *table = NULL, *edges = NULL, *edges26 = NULL, *mats = NULL;
  g_autofree char *mats_json = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(XrlabFormula) f = xrlab_formula_parse ("CuSO4·5H2O", NULL);
  JsonObject *root;

  g_assert_cmpint (run (&json, NULL, "formula", "CuSO4·5H2O", "--format", "json", NULL), ==, 0);
  g_assert_true (json_parser_load_from_data (parser, json, -1, NULL));
  root = json_node_get_object (json_parser_get_root (parser));
  assert_same_double (json_object_get_double_member (root, "molecular_weight_g_mol"),
                      xrlab_formula_get_molecular_weight (f), "M");
  g_assert_cmpfloat (json_object_get_double_member (root, "electrons_per_formula_unit"), ==, 127.0);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "atoms")), ==, 4);

  g_assert_cmpint (run (&table, NULL, "formula", "70wt% SiO2 // B2O3", "-d", "2.23", NULL), ==, 0);
  assert_contains (table, "Parts        70 wt% SiO2, 30 wt% B2O3");
  assert_contains (table, "B (Boron)");

  g_assert_cmpint (run (&edges, NULL, "edges", "Fe", "--format", "csv", NULL), ==, 0);
  assert_contains (edges, "Fe,26,K,7.112");
  assert_contains (edges, "Fe,26,L3,0.708");
  g_assert_cmpint (run (&edges26, NULL, "edges", "26", "--format", "csv", NULL), ==, 0);
  g_assert_cmpstr (edges, ==, edges26);

  g_assert_cmpint (run (&mats, NULL, "materials", "--search", "kapton", NULL), ==, 0);
  assert_contains (mats, "Kapton");
  assert_contains (mats, "C22H10N2O5");
  g_assert_cmpint (run (&mats_json, NULL, "materials", "--format", "json", NULL), ==, 0);
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
  g_autofree char *one = write_temp ("one-bad.csv", "SiO2,2.2,8\nsio2,2.2,8\n");
  g_autofree char *two = write_temp ("two-bad.csv", "SiO2,2.2,8\nsio2,2.2,8\nSi,x,8\n");
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
  assert_contains (table, "30 Elektronen pro Formeleinheit");
  assert_contains (table, "Energie");
  assert_contains (table, "Grenzwinkel");
  g_assert_null (strstr (table, "Energy"));
  g_assert_null (strstr (table, "electrons"));
  g_assert_cmpint (run (&table_en, NULL, "calc", "SiO2", "-d", "2.2", "-e", "8", NULL), ==, 0);
  assert_contains (table_en, "30 electrons per formula unit");

  /* One electron: the singular in both languages. */
  g_assert_cmpint (run_de (&h, NULL, "calc", "H", "-d", "0.07", "-e", "8", NULL), ==, 0);
  assert_contains (h, "1 Elektron pro Formeleinheit");
  g_assert_cmpint (run (&h_en, NULL, "calc", "H", "-d", "0.07", "-e", "8", NULL), ==, 0);
  assert_contains (h_en, "1 electron per formula unit");

  /* Machine-readable output does not change with the language. */
  g_assert_cmpint (run_de (&csv, NULL, "calc", "SiO2", "-d", "2.2", "-e", "5:15:3", "-t", "10",
                           "--format", "csv", NULL), ==, 0);
  g_assert_cmpint (run (&csv_en, NULL, "calc", "SiO2", "-d", "2.2", "-e", "5:15:3", "-t", "10",
                        "--format", "csv", NULL), ==, 0);
  g_assert_cmpstr (csv, ==, csv_en);
  g_assert_cmpint (run_de (&json, NULL, "formula", "CuSO4·5H2O", "--format", "json", NULL), ==, 0);
  g_assert_cmpint (run (&json_en, NULL, "formula", "CuSO4·5H2O", "--format", "json", NULL), ==, 0);
  g_assert_cmpstr (json, ==, json_en);

  /* The summary of formula stays aligned whatever the width of the labels. */
  g_assert_cmpint (run_de (&formula, NULL, "formula", "SiO2", "-d", "2.2", NULL), ==, 0);
  assert_contains (formula, "Si (Silicium)");
  lines = g_strsplit (formula, "\n", -1);
  g_assert_true (g_str_has_prefix (lines[0], "Formel"));
  g_assert_true (g_str_has_prefix (lines[1], "Molare Masse"));
  g_assert_cmpint (strstr (lines[0], "SiO2") - lines[0], ==, strstr (lines[1], "60.083") - lines[1]);

  /* Counts: "1 row failed" / "2 rows failed". */
  g_assert_cmpint (run_de (NULL, &err, "batch", one, NULL), ==, 1);
  assert_contains (err, "Zeile 2: Formel „sio2“:");
  assert_contains (err, "1 Zeile fehlgeschlagen, 1 geschrieben");
  g_assert_cmpint (run (NULL, &err_en, "batch", one, NULL), ==, 1);
  assert_contains (err_en, "1 row failed, 1 written");
  g_assert_cmpint (run_de (NULL, &err2, "batch", two, NULL), ==, 1);
  assert_contains (err2, "2 Zeilen fehlgeschlagen, 1 geschrieben");
  g_assert_cmpint (run (NULL, &err2_en, "batch", two, NULL), ==, 1);
  assert_contains (err2_en, "2 rows failed, 1 written");

  g_assert_cmpint (run_de (NULL, &bad, "calc", "sio2", "-d", "2.2", "-e", "10", NULL), ==, 1);
  g_assert_true (g_str_has_prefix (bad, "xrlab-cli: Formel „sio2“: "));
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
  g_test_add_func ("/cli-optics/batch", test_batch);
  g_test_add_func ("/cli-optics/batch-good", test_batch_good);
  g_test_add_func ("/cli-optics/compare", test_compare);
  g_test_add_func ("/cli-optics/convert", test_convert);
  g_test_add_func ("/cli-optics/formula-edges-materials", test_formula_edges_materials);
  g_test_add_func ("/cli-optics/german", test_german);
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
