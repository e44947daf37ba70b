/* test-cli-reflect.c -- xrlab-cli reflect and filter: columns and rows of
 * every curve kind, values equal to the plans computed here, polarization,
 * angle units, JSON, files, exit codes and messages
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

#include "xrlab-init.h"
#include "xrlab-optics.h"
#include "xrlab-reflect.h"
#include "xrlab-stack.h"
#include "xrlab-util.h"

static char *tmpdir;

/* Runs xrlab-cli with the NULL-terminated arguments: the exit status and
 * the output. */
static int
run (char **out, char **err, ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  const char *cli = g_getenv ("XRLAB_CLI");
  char *o = NULL, *e = NULL;
  int status = 0;
  const char *a;
  va_list args;

  g_assert_nonnull (cli);
  g_ptr_array_add (argv, (gpointer) cli);
  va_start (args, err);
  while ((a = va_arg (args, const char *)) != NULL)
    g_ptr_array_add (argv, (gpointer) a);
  va_end (args);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
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

static void
assert_contains (const char *haystack, const char *needle)
{
  if (strstr (haystack, needle) == NULL)
    g_error ("“%s” not found in:\n%s", needle, haystack);
}

/* The rows of a CSV (header first), each split at commas. */
static GPtrArray *
csv_rows (const char *text)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);

  /* The comment lines (the table) are left out. */
  for (guint i = 0; lines[i] != NULL; i++)
    if (lines[i][0] != '\0' && lines[i][0] != '#')
      g_ptr_array_add (rows, g_strsplit (lines[i], ",", -1));
  return rows;
}

static double
number (const char *text)
{
  double v;

  g_assert_true (xrlab_parse_double (text, FALSE, &v));
  return v;
}

/* R, R_s, R_p of @text at energy @e [keV] and angle @a [rad], computed
 * here on a one-energy grid as the engine does. */
static void
direct_for_table (const char *text, double e, double a, double pol, XrlabTable table, double rv[3])
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabStack) stack = xrlab_stack_parse_reflect (text, NULL, &error);
  g_autoptr(XrlabEnergyGrid) grid = xrlab_energy_grid_new_for_table (&e, 1, XRLAB_ENERGY_UNIT_KEV,
                                                                     (XrlabTableChoice) table, &error);
  gsize n_m = xrlab_stack_get_n_materials (stack);
  g_autofree double *d = g_new (double, n_m), *b = g_new (double, n_m);
  XrlabReflectOutput out = { pol, &rv[0], &rv[1], &rv[2], NULL, NULL, NULL };
  XrlabReflectPlan *plan;

  for (gsize m = 0; m < n_m; m++)
    {
      const XrlabStackMaterial *sm = xrlab_stack_get_material (stack, m);
      XrlabOpticsMaterial om = { sm->formula, sm->density_g_cm3, NAN };
      double v[XRLAB_QUANTITY_N];
      g_assert_true (xrlab_optics_compute_point_for_table (&om, e, table,
                                                           XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_DELTA)
                                                           | XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_BETA),
                                                           v, &error));
      d[m] = v[XRLAB_QUANTITY_DELTA];
      b[m] = v[XRLAB_QUANTITY_BETA];
    }
  plan = xrlab_reflect_plan_new_with_constants (stack, grid, d, b, &error);
  g_assert_no_error (error);
  g_assert_true (xrlab_reflect_plan_angles (plan, 0, &a, 1, &out, &error));
  xrlab_reflect_plan_free (plan);
}

static void
direct (const char *text, double e, double a, double pol, double rv[3])
{
  direct_for_table (text, e, a, pol, XRLAB_TABLE_HENKE, rv);
}

#define COATING "Pt:21.45:30nm~0.4nm/Si~0.3nm"
#define MULTILAYER "B4C:3nm/{W:19.3:1nm~0.3nm/B4C:2.52:1.5nm~0.3nm}x20/Si:2.33~0.3nm"

/* ---- tests ----------------------------------------------------------------- */

/* One energy, many angles: the columns, the rows, the values. */
static void
test_reflect_angles (void)
{
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(GPtrArray) rows = NULL;

  g_assert_cmpint (run (&out, &err, "reflect", "--stack", COATING, "-e", "10", "--angle", "0:10:21",
                        "--format", "csv", NULL), ==, 0);
  g_assert_cmpstr (err, ==, "");
  rows = csv_rows (out);
  g_assert_cmpuint (rows->len, ==, 1 + 21);
  {
    g_autofree char *header = g_strjoinv (",", g_ptr_array_index (rows, 0));
    g_assert_cmpstr (header, ==, "energy_keV,angle_mrad,R,R_s,R_p");
  }
  for (guint i = 1; i < rows->len; i++)
    {
      char **f = g_ptr_array_index (rows, i);
      double rv[3];

      g_assert_cmpfloat (number (f[0]), ==, 10.0);
      g_assert_cmpfloat (number (f[1]), ==, 0.5 * (i - 1));
      direct (COATING, 10.0, xrlab_angle_to_rad (number (f[1]), XRLAB_ANGLE_UNIT_MRAD), 0.0, rv);
      for (int k = 0; k < 3; k++)
        g_assert_cmpfloat (number (f[2 + k]), ==, rv[k]);
    }
}

/* Many energies at one angle, and a map: one row per energy × angle,
 * energy by energy. */
static void
test_reflect_energies_and_map (void)
{
  g_autofree char *out = NULL, *err = NULL, *map = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GPtrArray) map_rows = NULL;

  g_assert_cmpint (run (&out, &err, "reflect", "--stack", COATING, "--angle", "3", "-e", "5:30:6",
                        "-f", "csv", NULL), ==, 0);
  rows = csv_rows (out);
  g_assert_cmpuint (rows->len, ==, 1 + 6);
  for (guint i = 1; i < rows->len; i++)
    {
      char **f = g_ptr_array_index (rows, i);
      double rv[3];

      g_assert_cmpfloat (number (f[0]), ==, 5.0 * i);
      g_assert_cmpfloat (number (f[1]), ==, 3.0);
      /* The energy curve is computed on the whole grid: the same to
       * rounding as the point. */
      direct (COATING, 5.0 * i, 3e-3, 0.0, rv);
      g_assert_cmpfloat_with_epsilon (number (f[2]), rv[0], 1e-12);
    }

  g_assert_cmpint (run (&map, NULL, "reflect", "--stack", MULTILAYER, "-e", "8,9,10",
                        "--angle", "0:2:5", "--angle-unit", "deg", "-f", "csv", NULL), ==, 0);
  map_rows = csv_rows (map);
  g_assert_cmpuint (map_rows->len, ==, 1 + 3 * 5);
  g_assert_cmpstr (((char **) g_ptr_array_index (map_rows, 0))[1], ==, "angle_deg");
  for (guint i = 1; i < map_rows->len; i++)
    {
      char **f = g_ptr_array_index (map_rows, i);
      guint e = (i - 1) / 5, a = (i - 1) % 5;
      double rv[3];

      g_assert_cmpfloat (number (f[0]), ==, 8.0 + e);
      g_assert_cmpfloat (number (f[1]), ==, 0.5 * a);
      direct (MULTILAYER, 8.0 + e, xrlab_angle_to_rad (0.5 * a, XRLAB_ANGLE_UNIT_DEG), 0.0, rv);
      g_assert_cmpfloat_with_epsilon (number (f[2]), rv[0], 1e-12 + 1e-9 * rv[0]);
    }
}

/* --pol: R is R_s for s, R_p for p, the mix for a degree. */
static void
test_reflect_polarization (void)
{
  const char *pols[] = { "s", "p", "unpolarized", "0.5", "-1" };
  const double P[] = { 1, -1, 0, 0.5, -1 };

  for (gsize k = 0; k < G_N_ELEMENTS (pols); k++)
    {
      g_autofree char *out = NULL;
      g_autoptr(GPtrArray) rows = NULL;

      g_assert_cmpint (run (&out, NULL, "reflect", "--stack", "Au:19.3~0.5nm", "-e", "12",
                            "--angle", "2,4,6,8", "--pol", pols[k], "-f", "csv", NULL), ==, 0);
      rows = csv_rows (out);
      for (guint i = 1; i < rows->len; i++)
        {
          char **f = g_ptr_array_index (rows, i);
          double r = number (f[2]), rs = number (f[3]), rp = number (f[4]);

          g_assert_cmpfloat_with_epsilon (r, ((1 + P[k]) * rs + (1 - P[k]) * rp) / 2, 1e-15);
          if (P[k] == 1.0)
            g_assert_cmpfloat (r, ==, rs);
        }
    }
}

/* The text table and JSON of one curve: the stack, the polarization, the
 * marks, the same numbers as CSV. */
static void
test_reflect_formats (void)
{
  g_autofree char *text = NULL, *json = NULL, *csv = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  JsonObject *root, *columns;
  JsonArray *r, *materials;

  g_assert_cmpint (run (&text, NULL, "reflect", "--stack", "Rh", "-e", "10", "--angle", "0:10:11",
                        NULL), ==, 0);
  assert_contains (text, "Rh\n");
  assert_contains (text, "unpolarized (P = 0)");
  assert_contains (text, "Critical angles at 10 keV: Rh 6.7");
  assert_contains (text, "Energy  Angle");
  assert_contains (text, "mrad");

  g_assert_cmpint (run (&json, NULL, "reflect", "--stack", COATING, "-e", "10", "--angle", "0:10:11",
                        "--pol", "s", "-f", "json", NULL), ==, 0);
  g_assert_cmpint (run (&csv, NULL, "reflect", "--stack", COATING, "-e", "10", "--angle", "0:10:11",
                        "--pol", "s", "-f", "csv", NULL), ==, 0);
  g_assert_true (json_parser_load_from_data (parser, json, -1, &error));
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (root, "stack"), ==, COATING);
  g_assert_cmpstr (json_object_get_string_member (root, "canonical"), ==,
                   "Pt:21.45:30nm~0.4nm/Si:2.33~0.3nm");
  g_assert_cmpfloat (json_object_get_double_member (root, "polarization"), ==, 1.0);
  g_assert_cmpstr (json_object_get_string_member (root, "angle_unit"), ==, "mrad");
  materials = json_object_get_array_member (root, "materials");
  g_assert_cmpuint (json_array_get_length (materials), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (materials, 0), "name"),
                   ==, "Pt");
  g_assert_true (json_object_has_member (json_array_get_object_element (materials, 0),
                                         "critical_angle_mrad"));
  columns = json_object_get_object_member (root, "columns");
  r = json_object_get_array_member (columns, "R");
  rows = csv_rows (csv);
  g_assert_cmpuint (json_array_get_length (r), ==, rows->len - 1);
  for (guint i = 1; i < rows->len; i++)
    g_assert_cmpfloat (json_array_get_double_element (r, i - 1), ==,
                       number (((char **) g_ptr_array_index (rows, i))[2]));
}

/* filter: the transmission of the layers, in every format. */
static void
test_filter (void)
{
  const char *stack = "Al:100um/Cu:8.96:25um/Kapton:50um/air@1atm,295K:1m";
  g_autofree char *csv = NULL, *text = NULL, *json = NULL, *err = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(XrlabStack) filter = xrlab_stack_parse_filter (stack, NULL, NULL);
  g_autoptr(XrlabEnergyGrid) grid = xrlab_energy_grid_parse ("5:30:6", XRLAB_ENERGY_UNIT_KEV, NULL);
  XrlabOpticsCache *cache = xrlab_optics_cache_new (grid);
  double t[6];

  g_assert_true (xrlab_filter_transmission (cache, filter, FALSE, t, NULL, NULL));
  xrlab_optics_cache_free (cache);
  g_assert_cmpint (run (&csv, &err, "filter", stack, "-e", "5:30:6", "-f", "csv", NULL), ==, 0);
  g_assert_cmpstr (err, ==, "");
  rows = csv_rows (csv);
  g_assert_cmpuint (rows->len, ==, 7);
  g_assert_cmpstr (((char **) g_ptr_array_index (rows, 0))[1], ==, "transmission");
  for (guint i = 1; i < rows->len; i++)
    g_assert_cmpfloat (number (((char **) g_ptr_array_index (rows, i))[1]), ==, t[i - 1]);

  g_assert_cmpint (run (&text, NULL, "filter", stack, "-e", "5:30:6", NULL), ==, 0);
  assert_contains (text, stack);
  assert_contains (text, "Transmission");
  g_assert_cmpint (run (&json, NULL, "filter", stack, "-e", "5:30:6", "-f", "json", NULL), ==, 0);
  assert_contains (json, "\"transmission\": [");
  assert_contains (json, "\"canonical\": \"Al:2.7:100000nm/");
}

/* --table: auto takes Chantler for energies beyond 30 keV, Henke within;
 * every format names the table; filter's transmission is the total's
 * unless --transmission photo. */
static void
test_tables (void)
{
  const char *stack = "Be:1mm/air@1atm,295K:1m";
  g_autofree char *csv = NULL, *err = NULL, *text = NULL, *json = NULL, *photo = NULL;
  g_autofree char *henke = NULL, *fcsv = NULL;
  g_autoptr(GPtrArray) rows = NULL, photo_rows = NULL;
  g_autoptr(XrlabStack) filter = xrlab_stack_parse_filter (stack, NULL, NULL);
  g_autoptr(XrlabEnergyGrid) grid = xrlab_energy_grid_parse_for_table ("20,60,120", XRLAB_ENERGY_UNIT_KEV,
                                                                       XRLAB_TABLE_CHOICE_AUTO, NULL);
  XrlabOpticsCache *cache = xrlab_optics_cache_new (grid);
  double t[3], tp[3];

  /* Reflectivity at 60 keV: Chantler's, and Henke refuses it. */
  g_assert_cmpint (run (&csv, &err, "reflect", "--stack", COATING, "-e", "60", "--angle", "0.5,1,2",
                        "-f", "csv", NULL), ==, 0);
  g_assert_cmpstr (err, ==, "");
  g_assert_true (g_str_has_prefix (csv, "# table: chantler (Chantler, NIST FFAST (SRD 66); choice auto)\n"));
  rows = csv_rows (csv);
  g_assert_cmpuint (rows->len, ==, 4);
  for (guint i = 1; i < rows->len; i++)
    {
      char **f = g_ptr_array_index (rows, i);
      double rv[3];

      direct_for_table (COATING, 60.0, xrlab_angle_to_rad (number (f[1]), XRLAB_ANGLE_UNIT_MRAD), 0.0,
                        XRLAB_TABLE_CHANTLER, rv);
      for (int k = 0; k < 3; k++)
        g_assert_cmpfloat (number (f[2 + k]), ==, rv[k]);
    }
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (&henke, &err, "reflect", "--stack", COATING, "-e", "60", "--angle", "1",
                        "--table", "henke", NULL), ==, 1);
  g_assert_cmpstr (henke, ==, "");
  assert_contains (err, "Henke");
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (&text, &err, "reflect", "--stack", COATING, "-e", "10", "--angle", "1",
                        "--table", "chantler", NULL), ==, 0);
  assert_contains (text, "\nTable: Chantler (Chantler, NIST FFAST (SRD 66))\n");
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (&json, &err, "reflect", "--stack", COATING, "-e", "10,20", "--angle", "1",
                        "-f", "json", NULL), ==, 0);
  assert_contains (json, "\"table\": \"henke\"");
  assert_contains (json, "\"table_choice\": \"auto\"");
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (NULL, &err, "reflect", "--stack", COATING, "-e", "1", "--angle", "1",
                        "--table", "nist", NULL), ==, 2);
  assert_contains (err, "--table");

  /* Filters: the total by default, photoabsorption alone on request. */
  g_assert_true (xrlab_filter_transmission (cache, filter, FALSE, t, NULL, NULL));
  g_assert_true (xrlab_filter_transmission (cache, filter, TRUE, tp, NULL, NULL));
  xrlab_optics_cache_free (cache);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (&fcsv, &err, "filter", stack, "-e", "20,60,120", "-f", "csv", NULL), ==, 0);
  assert_contains (fcsv, "# table: chantler");
  assert_contains (fcsv, "# scattering in the total attenuation: Chantler's coherent + incoherent column\n");
  g_clear_pointer (&rows, g_ptr_array_unref);
  rows = csv_rows (fcsv);
  g_assert_cmpstr (((char **) g_ptr_array_index (rows, 0))[1], ==, "transmission");
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (&photo, &err, "filter", stack, "-e", "20,60,120", "-f", "csv",
                        "--transmission", "photo", NULL), ==, 0);
  photo_rows = csv_rows (photo);
  g_assert_cmpstr (((char **) g_ptr_array_index (photo_rows, 0))[1], ==, "transmission_photo");
  for (guint i = 1; i < 4; i++)
    {
      g_assert_cmpfloat (number (((char **) g_ptr_array_index (rows, i))[1]), ==, t[i - 1]);
      g_assert_cmpfloat (number (((char **) g_ptr_array_index (photo_rows, i))[1]), ==, tp[i - 1]);
      g_assert_cmpfloat (t[i - 1], <, tp[i - 1]);
    }
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run (NULL, &err, "filter", stack, "-e", "1", "--transmission", "all", NULL), ==, 2);
  assert_contains (err, "--transmission");
}

/* Bad input exits 1 with the layer and the column on stderr and nothing
 * on stdout; usage errors exit 2. */
static void
test_errors (void)
{
  struct { int status; const char *says; const char *args[12]; } cases[] = {
    { 1, "column 15", { "reflect", "--stack", "Pt:21.45:30nm~0.4/Si", "-e", "10", "--angle", "1" } },
    { 1, "Layer 2", { "reflect", "--stack", "Rh:50nm/Xx", "-e", "10", "--angle", "1" } },
    { 1, "Column 15", { "reflect", "--stack", "{W:1nm/Si:1nm}3/Si", "-e", "10", "--angle", "1" } },
    { 1, "outside the Henke tables", { "reflect", "--stack", "Rh", "-e", "50", "--angle", "1", "--table", "henke" } },
    { 1, "outside the Chantler tables", { "reflect", "--stack", "Rh", "-e", "1000", "--angle", "1" } },
    { 1, "Angle spec", { "reflect", "--stack", "Rh", "-e", "10", "--angle", "1:2" } },
    { 1, "0–90 deg", { "reflect", "--stack", "Rh", "-e", "10", "--angle", "95", "--angle-unit", "deg" } },
    { 1, "column", { "filter", "Al:100um/air@2xyz:1m", "-e", "10" } },
    { 1, "Layer 1", { "filter", "Al", "-e", "10" } },
    { 2, "missing --stack", { "reflect", "-e", "10", "--angle", "1" } },
    { 2, "missing -e", { "reflect", "--stack", "Rh", "--angle", "1" } },
    { 2, "missing --angle", { "reflect", "--stack", "Rh", "-e", "10" } },
    { 2, "--angle-unit", { "reflect", "--stack", "Rh", "-e", "10", "--angle", "1", "--angle-unit", "rad" } },
    { 2, "--pol", { "reflect", "--stack", "Rh", "-e", "10", "--angle", "1", "--pol", "2" } },
    { 2, "--format", { "reflect", "--stack", "Rh", "-e", "10", "--angle", "1", "-f", "xml" } },
    { 2, "unexpected", { "reflect", "Rh", "-e", "10", "--angle", "1" } },
    { 2, "Unknown option", { "reflect", "--stack", "Rh", "-e", "10", "--angle", "1", "--bogus" } },
    { 2, "missing STACK", { "filter", "-e", "10" } },
    { 2, "one STACK only", { "filter", "Al:1um", "Cu:1um", "-e", "10" } },
    { 2, "missing -e", { "filter", "Al:1um" } },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *out = NULL, *err = NULL;
      const char **a = cases[i].args;
      int status = run (&out, &err, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9],
                        a[10], NULL);

      if (status != cases[i].status)
        g_error ("%s %s: exit %d, not %d (%s)", a[0], a[2], status, cases[i].status, err);
      g_assert_cmpstr (out, ==, "");
      assert_contains (err, cases[i].says);
    }
}

/* -o writes the file and nothing to stdout; --help documents the grammar
 * with examples. */
static void
test_output_and_help (void)
{
  g_autofree char *path = g_build_filename (tmpdir, "r.csv", NULL);
  g_autofree char *out = NULL, *contents = NULL, *help = NULL, *fhelp = NULL, *list = NULL;

  g_assert_cmpint (run (&out, NULL, "reflect", "--stack", "Rh", "-e", "10", "--angle", "1,2",
                        "-f", "csv", "-o", path, NULL), ==, 0);
  g_assert_cmpstr (out, ==, "");
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  assert_contains (contents, "energy_keV,angle_mrad,R,R_s,R_p\n10,1,");

  g_assert_cmpint (run (&help, NULL, "reflect", "--help", NULL), ==, 0);
  assert_contains (help, "FORMULA[:DENSITY][:THICKNESS][~ROUGHNESS]");
  assert_contains (help, "{LAYER/LAYER...}xN");
  assert_contains (help, "xrlab-cli reflect --stack Rh -e 10 --angle 0:10:11");
  assert_contains (help, "--angle-unit");
  assert_contains (help, "energy_keV, angle_mrad (or angle_deg), R, R_s, R_p");
  g_assert_cmpint (run (&fhelp, NULL, "filter", "--help", NULL), ==, 0);
  assert_contains (fhelp, "FORMULA[:DENSITY]:THICKNESS");
  assert_contains (fhelp, "GAS@[PRESSURE][,TEMPERATURE]:LENGTH");
  assert_contains (fhelp, "air@1atm,295K:1m");
  g_assert_cmpint (run (&list, NULL, "--help", NULL), ==, 0);
  assert_contains (list, "reflect");
  assert_contains (list, "filter");
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  xrlab_init ();
  tmpdir = g_dir_make_tmp ("xrlab-cli-reflect-XXXXXX", NULL);
  g_test_add_func ("/cli-reflect/angles", test_reflect_angles);
  g_test_add_func ("/cli-reflect/energies-and-map", test_reflect_energies_and_map);
  g_test_add_func ("/cli-reflect/polarization", test_reflect_polarization);
  g_test_add_func ("/cli-reflect/formats", test_reflect_formats);
  g_test_add_func ("/cli-reflect/filter", test_filter);
  g_test_add_func ("/cli-reflect/tables", test_tables);
  g_test_add_func ("/cli-reflect/errors", test_errors);
  g_test_add_func ("/cli-reflect/output-and-help", test_output_and_help);
  status = g_test_run ();
  {
    g_autofree char *path = g_build_filename (tmpdir, "r.csv", NULL);
    g_remove (path);
    g_rmdir (tmpdir);
  }
  g_free (tmpdir);
  return status;
}
