/* test-gui-session.c -- session documents: round trip, strict validation,
 * atomic writes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <unistd.h>

#include <glib/gstdio.h>

#include "xrlab-session.h"
#include "test-common.h"

static char *tmpdir;

static char *
tmp_path (const char *name)
{
  return g_build_filename (tmpdir, name, NULL);
}

static void
test_default (void)
{
  g_autoptr(XrlabSession) s = xrlab_session_new_default ();
  const XrlabSessionMaterial *au;

  /* The first start: Si, SiO2 and Au, 1-30 keV log, delta on log axes. */
  g_assert_cmpuint (s->materials->len, ==, 3);
  g_assert_cmpstr (((XrlabSessionMaterial *) g_ptr_array_index (s->materials, 0))->formula, ==, "Si");
  g_assert_cmpstr (((XrlabSessionMaterial *) g_ptr_array_index (s->materials, 1))->formula, ==, "SiO2");
  au = g_ptr_array_index (s->materials, 2);
  g_assert_cmpstr (au->formula, ==, "Au");
  g_assert_cmpfloat (au->density_g_cm3, ==, 19.3);
  g_assert_cmpfloat (s->sweep.start, ==, 1.0);
  g_assert_cmpfloat (s->sweep.stop, ==, 30.0);
  g_assert_cmpint (s->sweep.unit, ==, XRLAB_ENERGY_UNIT_KEV);
  g_assert_true (s->sweep.log);
  g_assert_cmpint (s->quantity, ==, XRLAB_QUANTITY_DELTA);
  g_assert_true (s->x_log && s->y_log);
  g_assert_cmpfloat (s->values_energy_ev, ==, 8048.0);
}

static void
test_round_trip (void)
{
  g_autoptr(XrlabSession) s = xrlab_session_new ();
  g_autoptr(XrlabSession) back = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = tmp_path ("round.json");
  g_autofree char *json = NULL;

  /* Awkward values: invalid formula, names with quotes, shortest doubles. */
  xrlab_session_add_material (s, "Sample \"#3\" / ünïcödé", "Xx2(", 0.1 + 0.2, 1e-300, 0x123456, FALSE);
  xrlab_session_add_material (s, "", "CuSO4·5H2O", 2.286, 12.5, 0xffffff, TRUE);
  s->sweep = (XrlabSweep) { 0.5, 400.0, 1234, FALSE, XRLAB_ENERGY_UNIT_ANGSTROM };
  s->quantity = XRLAB_QUANTITY_BETA;
  s->x_log = FALSE;
  s->values_energy_ev = 17479.0;

  g_assert_true (xrlab_session_save (s, path, &error));
  g_assert_no_error (error);
  back = xrlab_session_load (path, &error);
  g_assert_no_error (error);
  g_assert_nonnull (back);
  g_assert_true (xrlab_session_equal (s, back));

  json = xrlab_session_to_json (back, NULL);
  g_assert_nonnull (strstr (json, "\"format\": \"xrlab-session\""));
  g_assert_nonnull (strstr (json, "\"unit\": \"A\""));
  /* Shortest round-trip numbers, not %.17g. */
  g_assert_nonnull (strstr (json, "\"density_g_cm3\": 2.286,"));
  g_assert_nonnull (strstr (json, "\"density_g_cm3\": 0.30000000000000004,"));
  g_unlink (path);
}

static void
expect_refused (const char *json, XrlabSessionError code, const char *fragment)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabSession) s = xrlab_session_from_json (json, -1, &error);

  g_assert_null (s);
  g_assert_error (error, XRLAB_SESSION_ERROR, (int) code);
  if (strstr (error->message, fragment) == NULL)
    g_error ("message “%s” does not contain “%s”", error->message, fragment);
}

#define HEAD "{\"format\":\"xrlab-session\",\"version\":1,"
#define SWEEP "\"sweep\":{\"start\":1,\"stop\":30,\"unit\":\"keV\",\"points\":100,\"spacing\":\"log\"}"
#define MAT "{\"formula\":\"Si\",\"density_g_cm3\":2.33}"

static void
test_refused (void)
{
  /* Not JSON, with the position. */
  expect_refused ("{\"format\": \"xrlab-session\", ", XRLAB_SESSION_ERROR_PARSE, "not valid JSON");
  expect_refused ("\xff\xfe", XRLAB_SESSION_ERROR_PARSE, "UTF-8");
  /* Foreign JSON. */
  expect_refused ("[1, 2, 3]", XRLAB_SESSION_ERROR_FOREIGN, "not an xrlab session");
  expect_refused ("{\"materials\": []}", XRLAB_SESSION_ERROR_FOREIGN, "not an xrlab session");
  expect_refused ("{\"format\": \"other\"}", XRLAB_SESSION_ERROR_FOREIGN, "xrlab-session");
  /* Newer format. */
  expect_refused ("{\"format\":\"xrlab-session\",\"version\":7}", XRLAB_SESSION_ERROR_VERSION, "newer");
  /* Missing, mistyped, unknown and out-of-range members, with their path. */
  expect_refused (HEAD SWEEP "}", XRLAB_SESSION_ERROR_INVALID, "“materials” is missing");
  expect_refused (HEAD "\"materials\":{}," SWEEP "}", XRLAB_SESSION_ERROR_INVALID, "materials: expected an array");
  expect_refused (HEAD "\"materials\":[" MAT ",{\"formula\":\"Au\"}]," SWEEP "}",
                  XRLAB_SESSION_ERROR_INVALID, "materials[1]: the member “density_g_cm3” is missing");
  expect_refused (HEAD "\"materials\":[{\"formula\":\"Au\",\"density_g_cm3\":\"19.3\"}]," SWEEP "}",
                  XRLAB_SESSION_ERROR_INVALID, "materials[0].density_g_cm3: expected a number, found a string");
  expect_refused (HEAD "\"materials\":[{\"formula\":\"Au\",\"density_g_cm3\":19.3,\"colour\":\"#fff\"}]," SWEEP "}",
                  XRLAB_SESSION_ERROR_INVALID, "unknown member “colour”");
  expect_refused (HEAD "\"materials\":[{\"formula\":\"Au\",\"density_g_cm3\":19.3,\"color\":\"red\"}]," SWEEP "}",
                  XRLAB_SESSION_ERROR_INVALID, "#rrggbb");
  expect_refused (HEAD "\"materials\":[{\"formula\":\"Au\",\"density_g_cm3\":19.3,\"thickness_um\":-1}]," SWEEP "}",
                  XRLAB_SESSION_ERROR_INVALID, "negative");
  expect_refused (HEAD "\"materials\":[]}", XRLAB_SESSION_ERROR_INVALID, "“sweep” is missing");
  expect_refused (HEAD "\"materials\":[],\"sweep\":{\"start\":1,\"stop\":30,\"unit\":\"MeV\",\"points\":100,\"spacing\":\"log\"}}",
                  XRLAB_SESSION_ERROR_INVALID, "sweep.unit");
  expect_refused (HEAD "\"materials\":[],\"sweep\":{\"start\":1,\"stop\":30,\"unit\":\"keV\",\"points\":2.5,\"spacing\":\"log\"}}",
                  XRLAB_SESSION_ERROR_INVALID, "sweep.points");
  expect_refused (HEAD "\"materials\":[],\"sweep\":{\"start\":1,\"stop\":300,\"unit\":\"keV\",\"points\":100,\"spacing\":\"log\"}}",
                  XRLAB_SESSION_ERROR_INVALID, "30 keV");
  expect_refused (HEAD "\"materials\":[],\"sweep\":{\"start\":20,\"stop\":30,\"unit\":\"keV\",\"points\":100,\"spacing\":\"log\"},"
                  "\"plot\":{\"quantity\":\"gamma\"}}", XRLAB_SESSION_ERROR_INVALID, "plot.quantity");
  /* The Henke tables are valid from 30 eV, for every quantity: 20 eV is
   * refused for δ and for β alike. */
  expect_refused (HEAD "\"materials\":[],\"sweep\":{\"start\":20,\"stop\":300,\"unit\":\"eV\",\"points\":100,\"spacing\":\"log\"},"
                  "\"plot\":{\"quantity\":\"delta\"}}", XRLAB_SESSION_ERROR_INVALID, "30 eV");
  expect_refused (HEAD "\"materials\":[],\"sweep\":{\"start\":20,\"stop\":300,\"unit\":\"eV\",\"points\":100,\"spacing\":\"log\"},"
                  "\"plot\":{\"quantity\":\"beta\"}}", XRLAB_SESSION_ERROR_INVALID, "30 eV");
}

static void
test_minimal (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabSession) s = xrlab_session_from_json (HEAD "\"materials\":[" MAT "]," SWEEP "}", -1, &error);
  const XrlabSessionMaterial *m;

  g_assert_no_error (error);
  m = g_ptr_array_index (s->materials, 0);
  g_assert_cmpstr (m->name, ==, "");
  g_assert_cmpfloat (m->thickness_um, ==, 1.0);
  g_assert_true (m->visible);
  g_assert_cmpuint (s->sweep.points, ==, 100);
  /* No colour: the window chooses one; a session written back names none. */
  g_assert_cmphex (m->color, ==, XRLAB_SESSION_COLOR_AUTO);
  {
    g_autofree char *json = xrlab_session_to_json (s, NULL);
    g_assert_null (strstr (json, "color"));
  }
}

/* The values energy is checked like every energy: within the slack of an
 * end it is that end, as the values table takes it. */
static void
test_values_energy (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabSession) s = NULL;

  s = xrlab_session_from_json (HEAD "\"materials\":[]," SWEEP ",\"values\":{\"energy_eV\":29.99999999}}", -1, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (s->values_energy_ev, ==, 30.0);
  g_clear_pointer (&s, xrlab_session_free);
  s = xrlab_session_from_json (HEAD "\"materials\":[]," SWEEP ",\"values\":{\"energy_eV\":30000}}", -1, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (s->values_energy_ev, ==, 30000);
  expect_refused (HEAD "\"materials\":[]," SWEEP ",\"values\":{\"energy_eV\":29.9}}",
                  XRLAB_SESSION_ERROR_INVALID, "values.energy_eV: 29.9 eV is outside 30 – 30000 eV");
  expect_refused (HEAD "\"materials\":[]," SWEEP ",\"values\":{\"energy_eV\":30001}}",
                  XRLAB_SESSION_ERROR_INVALID, "values.energy_eV: 30001 eV is outside 30 – 30000 eV");
}

/* A session file written by xrlab 385d280 (tests/data/sessions/README):
 * everything in it is read back, and written again as it was. */
static void
test_old_session (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "sessions",
                                                 "main-385d280.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabSession) s = xrlab_session_load (path, &error);
  g_autofree char *text = NULL;
  g_autofree char *again = NULL;
  const XrlabSessionMaterial *m;

  g_assert_no_error (error);
  g_assert_nonnull (s);
  g_assert_cmpint (s->sweep.table, ==, XRLAB_TABLE_CHOICE_HENKE);   /* no "table": Henke's */
  g_assert_cmpuint (s->materials->len, ==, 5);
  m = g_ptr_array_index (s->materials, 1);
  g_assert_cmpstr (m->name, ==, "SiO₂");
  g_assert_cmpstr (m->formula, ==, "SiO2");
  g_assert_cmpfloat (m->density_g_cm3, ==, 2.2);
  g_assert_cmphex (m->color, ==, 0xe66100);
  m = g_ptr_array_index (s->materials, 3);
  g_assert_cmpstr (m->name, ==, "Kapton “HN”");
  g_assert_cmpstr (m->formula, ==, "C22H10N2O5");
  g_assert_cmpfloat (m->density_g_cm3, ==, 1.42);
  g_assert_cmpfloat (m->thickness_um, ==, 25);
  g_assert_cmphex (m->color, ==, 0xc01c28);
  g_assert_false (m->visible);
  m = g_ptr_array_index (s->materials, 4);
  g_assert_cmpstr (m->formula, ==, "Xx2(");
  g_assert_true (m->visible);
  g_assert_cmpfloat (s->sweep.start, ==, 0.5);
  g_assert_cmpfloat (s->sweep.stop, ==, 12.0);
  g_assert_cmpuint (s->sweep.points, ==, 800);
  g_assert_false (s->sweep.log);
  g_assert_cmpint (s->sweep.unit, ==, XRLAB_ENERGY_UNIT_ANGSTROM);
  g_assert_cmpint (s->quantity, ==, XRLAB_QUANTITY_CRITICAL_ANGLE_MRAD);
  g_assert_false (s->x_log);
  g_assert_true (s->y_log);
  g_assert_cmpfloat (s->values_energy_ev, ==, 17479.0);

  /* Written again byte for byte: files stay readable by that version. */
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  again = xrlab_session_to_json (s, NULL);
  g_assert_cmpstr (again, ==, text);
}

/* Every plot quantity under the session id that version wrote, and the
 * same refusal for the two it did not offer. */
/* The sweep's table choice: a file without it (earlier versions) is
 * Henke's and is written again without it; auto and chantler are written
 * and read back, and reach beyond 30 keV (the values energy too); an
 * unknown choice and a sweep outside its table are refused. */
static void
test_table (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabSession) s = NULL;
  g_autofree char *json = NULL;
  g_autoptr(XrlabSession) fresh = xrlab_session_new ();

  g_assert_cmpint (fresh->sweep.table, ==, XRLAB_TABLE_CHOICE_AUTO);
  s = xrlab_session_from_json (HEAD "\"materials\":[]," SWEEP "}", -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (s->sweep.table, ==, XRLAB_TABLE_CHOICE_HENKE);
  json = xrlab_session_to_json (s, NULL);
  g_assert_null (strstr (json, "\"table\""));
  g_clear_pointer (&s, xrlab_session_free);
  g_clear_pointer (&json, g_free);

  s = xrlab_session_from_json (HEAD "\"materials\":[],\"sweep\":{\"start\":30,\"stop\":400,\"unit\":\"keV\","
                               "\"points\":100,\"spacing\":\"log\",\"table\":\"chantler\"},"
                               "\"values\":{\"energy_eV\":150000}}", -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (s->sweep.table, ==, XRLAB_TABLE_CHOICE_CHANTLER);
  g_assert_cmpfloat (s->values_energy_ev, ==, 150000.0);
  json = xrlab_session_to_json (s, NULL);
  g_assert_nonnull (strstr (json, "\"spacing\": \"log\",\n    \"table\": \"chantler\"\n  }"));
  g_clear_pointer (&s, xrlab_session_free);
  s = xrlab_session_from_json (json, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (s->sweep.table, ==, XRLAB_TABLE_CHOICE_CHANTLER);

  expect_refused (HEAD "\"materials\":[],\"sweep\":{\"start\":1,\"stop\":30,\"unit\":\"keV\","
                  "\"points\":100,\"spacing\":\"log\",\"table\":\"cxro\"}}",
                  XRLAB_SESSION_ERROR_INVALID, "sweep.table: “cxro” is not one of henke, chantler, auto");
  expect_refused (HEAD "\"materials\":[],\"sweep\":{\"start\":1,\"stop\":300,\"unit\":\"keV\","
                  "\"points\":100,\"spacing\":\"log\",\"table\":\"henke\"}}",
                  XRLAB_SESSION_ERROR_INVALID, "Henke");
  expect_refused (HEAD "\"materials\":[]," SWEEP ",\"values\":{\"energy_eV\":150000}}",
                  XRLAB_SESSION_ERROR_INVALID, "values.energy_eV: 150000 eV is outside 30 – 30000 eV");
}

static void
test_old_quantity_ids (void)
{
  static const struct {
    const char *id;
    XrlabQuantity quantity;
  } ids[] = {
    { "delta", XRLAB_QUANTITY_DELTA },
    { "beta", XRLAB_QUANTITY_BETA },
    { "f1", XRLAB_QUANTITY_F1 },
    { "f2", XRLAB_QUANTITY_F2 },
    { "critical_angle_deg", XRLAB_QUANTITY_CRITICAL_ANGLE_DEG },
    { "critical_angle", XRLAB_QUANTITY_CRITICAL_ANGLE_MRAD },
    { "attenuation_length", XRLAB_QUANTITY_ATTENUATION_LENGTH },
    { "mu", XRLAB_QUANTITY_MU },
    { "mu_rho", XRLAB_QUANTITY_MU_RHO },
    { "sld_re", XRLAB_QUANTITY_RE_SLD },
    { "sld_im", XRLAB_QUANTITY_IM_SLD },
    { "transmission", XRLAB_QUANTITY_TRANSMISSION },
  };
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "sessions",
                                                 "main-385d280.json", NULL);
  g_autofree char *text = NULL;
  const char *quoted = "\"quantity\": \"critical_angle\"";
  char *at;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  at = strstr (text, quoted);
  g_assert_nonnull (at);
  for (gsize i = 0; i < G_N_ELEMENTS (ids) + 1; i++)
    {
      const char *id = i < G_N_ELEMENTS (ids) ? ids[i].id : "wavelength";
      g_autofree char *head = g_strndup (text, (gsize) (at - text));
      g_autofree char *json = g_strdup_printf ("%s\"quantity\": \"%s\"%s", head, id, at + strlen (quoted));
      g_autoptr(GError) error = NULL;
      g_autoptr(XrlabSession) s = xrlab_session_from_json (json, -1, &error);
      g_autofree char *written = NULL;

      if (i >= G_N_ELEMENTS (ids))
        {
          g_assert_null (s);
          g_assert_error (error, XRLAB_SESSION_ERROR, XRLAB_SESSION_ERROR_INVALID);
          g_assert_nonnull (strstr (error->message,
                                    "is not a quantity (one of: delta, beta, f1, f2, critical_angle_deg, critical_angle, "
                                    "attenuation_length, attenuation_length_total, mu, mu_total, "
                                    "mu_rho, mu_rho_total, sld_re, sld_im, transmission, "
                                    "transmission_photo)"));
          continue;
        }
      g_assert_no_error (error);
      g_assert_cmpint (s->quantity, ==, ids[i].quantity);
      written = xrlab_session_to_json (s, NULL);
      g_assert_cmpstr (written, ==, json);
    }
}

static void
test_load_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *missing = tmp_path ("does-not-exist.json");
  g_autofree char *big = tmp_path ("big.json");
  g_autoptr(XrlabSession) s = NULL;
  FILE *f;

  s = xrlab_session_load (missing, &error);
  g_assert_null (s);
  g_assert_error (error, XRLAB_SESSION_ERROR, XRLAB_SESSION_ERROR_IO);
  g_clear_error (&error);

  /* A huge file is refused without being read. */
  f = fopen (big, "w");
  g_assert_nonnull (f);
  g_assert_cmpint (fseek (f, XRLAB_SESSION_MAX_BYTES + 10, SEEK_SET), ==, 0);
  fputc ('x', f);
  fclose (f);
  s = xrlab_session_load (big, &error);
  g_assert_null (s);
  g_assert_error (error, XRLAB_SESSION_ERROR, XRLAB_SESSION_ERROR_FOREIGN);
  g_unlink (big);
}

static void
test_save_atomic (void)
{
  g_autoptr(XrlabSession) s = xrlab_session_new_default ();
  g_autoptr(GError) error = NULL;
  g_autofree char *path = tmp_path ("sub/dir/atomic.json");
  g_autofree char *blocked = tmp_path ("blocked");
  g_autofree char *blocked_file = g_build_filename (blocked, "s.json", NULL);
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;

  /* Folders are created. */
  g_assert_true (xrlab_session_save (s, path, &error));
  g_assert_no_error (error);

  /* A failed save leaves the old file as it was. */
  g_assert_true (g_file_get_contents (path, &before, NULL, NULL));
  g_assert_cmpint (g_mkdir (blocked, 0500), ==, 0);
  if (access (blocked, W_OK) == 0)
    {
      /* root ignores permissions */
      g_test_message ("running as root: skipping the unwritable-folder case");
    }
  else
    {
      g_assert_false (xrlab_session_save (s, blocked_file, &error));
      g_assert_error (error, XRLAB_SESSION_ERROR, XRLAB_SESSION_ERROR_IO);
      g_clear_error (&error);
      g_assert_false (g_file_test (blocked_file, G_FILE_TEST_EXISTS));
    }
  /* Saving over a folder fails and touches nothing. */
  {
    g_autofree char *dir_as_file = tmp_path ("sub/dir");
    g_assert_false (xrlab_session_save (s, dir_as_file, &error));
    g_assert_nonnull (error);
    g_clear_error (&error);
  }
  g_assert_true (g_file_get_contents (path, &after, NULL, NULL));
  g_assert_cmpstr (before, ==, after);
  g_rmdir (blocked);
}

/* ---- issue 18: nothing crashes, nothing is lost ---------------------------------------- */

static char *
repeat (char c, gsize n)
{
  char *s = g_malloc (n + 1);
  memset (s, c, n);
  s[n] = '\0';
  return s;
}

static void
expect_parse_error (const char *json, gssize len, const char *fragment)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabSession) s = xrlab_session_from_json_full (json, len, XRLAB_SESSION_LOAD_SALVAGE, NULL, &error);

  g_assert_null (s);
  g_assert_error (error, XRLAB_SESSION_ERROR, XRLAB_SESSION_ERROR_PARSE);
  if (strstr (error->message, fragment) == NULL)
    g_error ("message “%s” does not contain “%s”", error->message, fragment);
}

/* 2 MB of "[" (under the 4 MiB limit) overflowed json-glib's recursive
 * parser at every start. The depth is checked before json-glib sees the
 * text; brackets in strings do not count, and comments or single quotes
 * (json-glib extensions that could hide brackets from a scanner) are
 * refused. */
static void
test_deep_nesting (void)
{
  g_autofree char *deep = repeat ('[', 2 * 1024 * 1024);
  g_autofree char *at_limit = NULL;
  g_autofree char *over = NULL;
  g_autofree char *path = tmp_path ("deep.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabSession) s = NULL;

  expect_parse_error (deep, -1, "line 1, column 65: nested deeper than 64 levels");
  /* And through the file reader, as at start. */
  g_assert_true (g_file_set_contents (path, deep, -1, NULL));
  s = xrlab_session_load (path, &error);
  g_assert_null (s);
  g_assert_error (error, XRLAB_SESSION_ERROR, XRLAB_SESSION_ERROR_PARSE);
  g_assert_nonnull (strstr (error->message, "deep.json: "));
  g_clear_error (&error);
  g_unlink (path);

  /* 64 levels are JSON (not a session); 65 are refused, objects too, with
   * the line. */
  {
    g_autofree char *open = repeat ('[', XRLAB_SESSION_MAX_DEPTH);
    g_autofree char *close = repeat (']', XRLAB_SESSION_MAX_DEPTH);
    at_limit = g_strconcat (open, close, NULL);
  }
  s = xrlab_session_from_json (at_limit, -1, &error);
  g_assert_null (s);
  g_assert_error (error, XRLAB_SESSION_ERROR, XRLAB_SESSION_ERROR_FOREIGN);
  g_clear_error (&error);
  over = g_strconcat (HEAD "\"materials\":[\n", at_limit, "]}", NULL);
  expect_parse_error (over, -1, "line 2, column 63: nested deeper than 64 levels");
  {
    GString *objs = g_string_new (NULL);
    for (int i = 0; i < 100; i++)
      g_string_append (objs, "{\"a\":\n");
    expect_parse_error (objs->str, -1, "line 65, column 1: nested deeper");
    g_string_free (objs, TRUE);
  }

  /* Brackets inside strings (escaped quotes too) are text. */
  {
    g_autofree char *brackets = repeat ('[', 150);
    g_autofree char *json = g_strdup_printf (HEAD "\"materials\":[{\"name\":\"\\\"%s\\\\\",\"formula\":\"Si\","
                                             "\"density_g_cm3\":2.33}]," SWEEP "}", brackets);
    g_autoptr(XrlabSession) ok = xrlab_session_from_json (json, -1, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (strlen (((XrlabSessionMaterial *) g_ptr_array_index (ok->materials, 0))->name), ==, 152);
  }

  /* What json-glib accepts beyond JSON could hide brackets from the depth
   * count: refused. */
  {
    g_autofree char *comment = g_strconcat ("/* \" */", deep, NULL);
    g_autofree char *single = g_strconcat ("['\"'", deep, NULL);
    expect_parse_error (comment, -1, "line 1, column 1: unexpected “/”");
    expect_parse_error (single, -1, "line 1, column 2: unexpected “'”");
  }
}

/* "\ud800x" decoded by json-glib into bytes that are not UTF-8; the
 * session was auto-saved so, and at the next start the whole of it was
 * moved aside. Now the string reads with U+FFFD and a warning, the rest of
 * the session stays, and nothing invalid is written. */
/* Bytes of a bad file were echoed raw to the terminal (issue 18, weaker
 * spots): what a refused session quotes (an unknown member, a bad unit, a
 * bad escape, a stray character) comes out with its control characters,
 * bidirectional controls and bytes that are not UTF-8 escaped. */
static void
test_binary_bytes_escaped (void)
{
  static const struct {
    const char *json;
    const char *shown;
  } cases[] = {
    { HEAD "\"materials\":[]," SWEEP ",\"x\\u001b[2J\":1}", "x\\x1B[2J" },
    { HEAD "\"materials\":[],\"sweep\":{\"start\":1,\"stop\":30,\"unit\":\"k\xe2\x80\xae" "eV\","
      "\"points\":100,\"spacing\":\"log\"}}", "k\\u202EeV" },
    { HEAD "\"materials\":[{\"name\":\"a\\\x1b\",\"formula\":\"Si\"}]," SWEEP "}", "\\x1B" },
    { HEAD "\"materials\":[]," SWEEP ", \x1b[31m}", "U+001B" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(XrlabSession) s = xrlab_session_from_json (cases[i].json, -1, &error);

      g_assert_null (s);
      g_assert_nonnull (error);
      if (strstr (error->message, cases[i].shown) == NULL)
        g_error ("case %zu: “%s” not in “%s”", i, cases[i].shown, error->message);
      xrlab_test_assert_printable (error->message);
      g_assert_null (strstr (error->message, "\xe2\x80\xae"));
    }
}

static void
test_lone_surrogate (void)
{
  static const struct {
    const char *escaped;
    const char *read;
  } cases[] = {
    { "\\ud800x", "\xef\xbf\xbdx" },                 /* high surrogate alone */
    { "a\\udc00", "a\xef\xbf\xbd" },                 /* low surrogate alone */
    { "\\ud800\\u0041", "\xef\xbf\xbd" "A" },        /* high, then not a low */
    { "\\udbff\\udbff", "\xef\xbf\xbd\xef\xbf\xbd" },
    { "a\\u0000b", "a\xef\xbf\xbd" "b" },            /* json-glib cut the string here */
    { "\\ud83d\\ude00", "\xf0\x9f\x98\x80" },        /* a pair: one character, no warning */
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *json = g_strdup_printf (HEAD "\"materials\":[{\"name\":\"%s\",\"formula\":\"Si\","
                                               "\"density_g_cm3\":2.33},\n" MAT "]," SWEEP "}", cases[i].escaped);
      g_autoptr(GError) error = NULL;
      g_auto(GStrv) warnings = NULL;
      g_autoptr(XrlabSession) s = xrlab_session_from_json_full (json, -1, XRLAB_SESSION_LOAD_STRICT,
                                                                &warnings, &error);
      g_autoptr(XrlabSession) again = NULL;
      g_autofree char *written = NULL;
      const XrlabSessionMaterial *m;

      g_assert_no_error (error);
      g_assert_cmpuint (s->materials->len, ==, 2);
      m = g_ptr_array_index (s->materials, 0);
      g_assert_cmpstr (m->name, ==, cases[i].read);
      if (i + 1 < G_N_ELEMENTS (cases))
        {
          g_autofree char *where = g_strdup_printf ("line 1, column %d: ",
                                                    61 + (int) (strchr (cases[i].escaped, '\\') - cases[i].escaped));
          g_assert_nonnull (warnings);
          g_assert_true (g_str_has_prefix (warnings[0], where));
          g_assert_nonnull (strstr (warnings[0], "U+FFFD"));
        }
      else
        g_assert_null (warnings);
      written = xrlab_session_to_json (s, NULL);
      g_assert_true (g_utf8_validate (written, -1, NULL));
      again = xrlab_session_from_json (written, -1, &error);
      g_assert_no_error (error);
      g_assert_true (xrlab_session_equal (s, again));
    }

  /* The writer checks, whatever the session holds. */
  {
    g_autoptr(XrlabSession) s = xrlab_session_new ();
    g_autofree char *written = NULL;
    xrlab_session_add_material (s, "\xed\xa0\x80x", "Si\xff", 2.33, 1, 0, TRUE);
    written = xrlab_session_to_json (s, NULL);
    g_assert_true (g_utf8_validate (written, -1, NULL));
    g_assert_nonnull (strstr (written, "\"name\": \"\xef\xbf\xbd"));
    g_assert_nonnull (strstr (written, "\"formula\": \"Si\xef\xbf\xbd\""));
  }

  /* Many: the first ten listed, the rest counted. */
  {
    GString *json = g_string_new (HEAD "\"materials\":[{\"name\":\"");
    g_autoptr(GError) error = NULL;
    g_auto(GStrv) warnings = NULL;
    g_autoptr(XrlabSession) s = NULL;
    for (int i = 0; i < 30; i++)
      g_string_append (json, "\\udfff");
    g_string_append (json, "\",\"formula\":\"Si\",\"density_g_cm3\":2.33}]," SWEEP "}");
    s = xrlab_session_from_json_full (json->str, -1, XRLAB_SESSION_LOAD_STRICT, &warnings, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (g_strv_length (warnings), ==, 11);
    g_assert_cmpstr (warnings[10], ==, "20 more escapes were read as U+FFFD (�)");
    g_string_free (json, TRUE);
  }
}

/* Every other way a load fails: a clear message that says where, never a
 * crash. */
static void
test_load_failures (void)
{
  char nuls[64] = { 0 };
  g_autofree char *path = tmp_path ("nul.json");
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabSession) s = NULL;

  /* Truncated: where the text ends and what it ends in. */
  expect_parse_error (HEAD "\"materials\":[{\"name\":\"x\",\n\"formula\":\"Si\",\"dens", -1,
                      "line 2, column 21: the text ends inside the string that starts at line 2, column 16");
  expect_parse_error (HEAD "\"materials\":[{\"name\":\"x\",\n\"formula\":\"Si\"", -1,
                      "line 2, column 15: the text ends inside the “{” at line 1, column 52");
  /* json-glib's own messages get the same form. */
  expect_parse_error (HEAD "\"materials\":[]\n\"sweep\":{}}", -1, "not valid JSON: line ");
  /* json-glib quotes a token cut after so many bytes, here inside “é”: the
   * message is still UTF-8 (a fuzz finding). */
  {
    const char *json = "{\"format\":\"xrlab-session\",\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaééééé\" 1}";
    s = xrlab_session_from_json (json, -1, &error);
    g_assert_null (s);
    g_assert_error (error, XRLAB_SESSION_ERROR, XRLAB_SESSION_ERROR_PARSE);
    g_assert_nonnull (strstr (error->message, "expected character"));
    g_assert_true (g_utf8_validate (error->message, -1, NULL));
    g_clear_error (&error);
  }
  expect_parse_error ("", 0, "The file is empty.");
  expect_parse_error (" \n\t ", -1, "The file is empty.");
  /* NUL bytes: a file of them, and one inside. */
  expect_parse_error (nuls, sizeof nuls, "it has a NUL byte at line 1, column 1");
  g_assert_true (g_file_set_contents (path, nuls, sizeof nuls, NULL));
  s = xrlab_session_load (path, &error);
  g_assert_null (s);
  g_assert_error (error, XRLAB_SESSION_ERROR, XRLAB_SESSION_ERROR_PARSE);
  g_clear_error (&error);
  g_unlink (path);
  expect_parse_error ("{\n \"a\": \"x\0y\"}", 14, "it has a NUL byte at line 2, column 9");
  expect_parse_error ("{\n\"a\": \"\xc3\"}", -1, "not UTF-8 text (line 2, column 7)");
  /* Not JSON, though json-glib would take it. */
  expect_parse_error (HEAD "\"materials\":[]," SWEEP ",\"values\":{\"energy_eV\":0x1f40}}", -1,
                      "“0x1f40” is not a number as JSON writes it");
  expect_parse_error ("{\"format\": 01}", -1, "“01” is not a number");
  expect_parse_error ("{\"a\": \"\\x41\"}", -1, "“\\x” is not an escape of JSON");
  expect_parse_error ("{\"a\": tru}", -1, "line 1, column 7: “tru” is not a value of JSON");
  expect_parse_error (HEAD "\"materials\":[]," SWEEP "}\n{}", -1,
                      "line 2, column 1: there is more text after the end of the document");
  expect_parse_error ("{\"a\": [}", -1, "“}” cannot close the “[” at line 1, column 7");
  expect_parse_error ("]", -1, "“]” closes nothing");

  /* Huge numbers: not finite, or beyond 64 bits (json-glib wrapped
   * 18446744073709551716 to 100). */
  expect_refused (HEAD "\"materials\":[{\"formula\":\"Si\",\"density_g_cm3\":1e999}]," SWEEP "}",
                  XRLAB_SESSION_ERROR_INVALID, "materials[0].density_g_cm3: the number is not finite");
  expect_refused (HEAD "\"materials\":[],\"sweep\":{\"start\":1,\"stop\":30,\"unit\":\"keV\","
                  "\"points\":18446744073709551716,\"spacing\":\"log\"}}",
                  XRLAB_SESSION_ERROR_INVALID, "sweep.points: 1.84467e+19 is not a whole number in 2 – 20000");
  expect_refused (HEAD "\"materials\":[{\"formula\":\"Si\",\"density_g_cm3\":-100000000000000000000}]," SWEEP
                  ",\"values\":{\"energy_eV\":100000000000000000000}}",
                  XRLAB_SESSION_ERROR_INVALID, "values.energy_eV: 1e+20 eV is outside 30 – 30000 eV");
  /* Wrong types, unknown quantity, absurd point counts, a sweep outside the
   * table: the member is named. */
  expect_refused (HEAD "\"materials\":[{\"formula\":[],\"density_g_cm3\":1}]," SWEEP "}",
                  XRLAB_SESSION_ERROR_INVALID, "materials[0].formula: expected a string, found an array");
  expect_refused (HEAD "\"materials\":[]," SWEEP ",\"plot\":{\"x_log\":1}}",
                  XRLAB_SESSION_ERROR_INVALID, "plot.x_log: expected true or false, found a number");
  expect_refused (HEAD "\"materials\":[]," SWEEP ",\"plot\":[]}",
                  XRLAB_SESSION_ERROR_INVALID, "session.plot: expected an object, found an array");
  expect_refused (HEAD "\"materials\":[]," SWEEP ",\"plot\":{\"quantity\":\"xyzzy\"}}",
                  XRLAB_SESSION_ERROR_INVALID, "plot.quantity: “xyzzy” is not a quantity");
  expect_refused (HEAD "\"materials\":[],\"sweep\":{\"start\":1,\"stop\":30,\"unit\":\"keV\",\"points\":-5,\"spacing\":\"log\"}}",
                  XRLAB_SESSION_ERROR_INVALID, "sweep.points: -5 is not a whole number in 2 – 20000");
  expect_refused (HEAD "\"materials\":[],\"sweep\":{\"start\":1,\"stop\":30,\"unit\":\"keV\",\"points\":1e300,\"spacing\":\"log\"}}",
                  XRLAB_SESSION_ERROR_INVALID, "sweep.points: 1e+300 is not a whole number");
  expect_refused (HEAD "\"materials\":[],\"sweep\":{\"start\":10,\"stop\":0.5,\"unit\":\"eV\",\"points\":10,\"spacing\":\"log\"}}",
                  XRLAB_SESSION_ERROR_INVALID, "sweep: ");
  /* Only regular files: /dev/zero would be read for ever. */
  s = xrlab_session_load ("/dev/zero", &error);
  g_assert_null (s);
  g_assert_error (error, XRLAB_SESSION_ERROR, XRLAB_SESSION_ERROR_FOREIGN);
  g_assert_nonnull (strstr (error->message, "not a regular file"));
  g_clear_error (&error);
  s = xrlab_session_load (tmpdir, &error);
  g_assert_null (s);
  g_assert_nonnull (error);
  g_clear_error (&error);
  /* Echoed strings are cut short. */
  {
    g_autofree char *longunit = repeat ('k', 5000);
    g_autofree char *json = g_strdup_printf (HEAD "\"materials\":[],\"sweep\":{\"start\":1,\"stop\":30,\"unit\":\"%s\","
                                             "\"points\":10,\"spacing\":\"log\"}}", longunit);
    s = xrlab_session_from_json (json, -1, &error);
    g_assert_null (s);
    g_assert_cmpuint (strlen (error->message), <, 200);
    g_assert_nonnull (strstr (error->message, "kkk…”"));
    g_clear_error (&error);
  }
}

/* With XRLAB_SESSION_LOAD_SALVAGE what is sound stays: one bad material
 * is left out, a bad section falls back to its default, each with a
 * warning that names the member. */
static void
test_salvage (void)
{
  static const struct {
    const char *json;
    guint n_materials;
    const char *warning;
  } cases[] = {
    { HEAD "\"materials\":[" MAT ",{\"formula\":\"Au\",\"density_g_cm3\":\"19.3\"}," MAT "]," SWEEP "}", 2,
      "materials[1].density_g_cm3: expected a number, found a string; that material was left out" },
    { HEAD "\"materials\":[" MAT ",7]," SWEEP "}", 1,
      "materials[1]: expected an object, found a number; that material was left out" },
    { HEAD "\"materials\":[{\"formula\":\"Si\",\"density_g_cm3\":2.33,\"colour\":\"#fff\"}]," SWEEP "}", 1,
      "materials[0]: unknown member “colour” (allowed: name, formula, density_g_cm3, thickness_um, color, visible); it was ignored" },
    { HEAD "\"materials\":[" MAT "]," SWEEP ",\"plot\":{\"quantity\":\"gamma\",\"x_log\":false}}", 1,
      "plot.quantity: “gamma” is not a quantity" },
    { HEAD "\"materials\":[" MAT "],\"sweep\":{\"start\":1,\"stop\":30,\"unit\":\"keV\",\"points\":-3,\"spacing\":\"log\"}}", 1,
      "sweep.points: -3 is not a whole number in 2 – 20000; the sweep 1 – 30 keV was used instead" },
    { HEAD "\"materials\":[" MAT "],\"sweep\":{\"start\":1,\"stop\":300,\"unit\":\"keV\",\"points\":30,\"spacing\":\"log\"}}", 1,
      "sweep: 300 keV is above the highest energy" },
    { HEAD "\"materials\":[" MAT "]," SWEEP ",\"values\":{\"energy_eV\":1}}", 1,
      "values.energy_eV: 1 eV is outside 30 – 30000 eV; the values table is at 8048 eV" },
    { HEAD "\"materials\":[" MAT "]}", 1, "session: the member “sweep” is missing; the sweep 1 – 30 keV" },
    { HEAD SWEEP ",\"more\":1}", 0, "session: the member “materials” is missing; the session has no materials" },
  };
  g_autoptr(XrlabSession) defaults = xrlab_session_new ();

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_auto(GStrv) warnings = NULL;
      g_autoptr(XrlabSession) strict = xrlab_session_from_json (cases[i].json, -1, &error);
      g_autoptr(XrlabSession) s = NULL;
      gboolean found = FALSE;

      /* strict: the whole document is refused, as before */
      g_assert_null (strict);
      g_assert_error (error, XRLAB_SESSION_ERROR, XRLAB_SESSION_ERROR_INVALID);
      g_clear_error (&error);
      s = xrlab_session_from_json_full (cases[i].json, -1, XRLAB_SESSION_LOAD_SALVAGE, &warnings, &error);
      g_assert_no_error (error);
      g_assert_nonnull (s);
      g_assert_cmpuint (s->materials->len, ==, cases[i].n_materials);
      g_assert_nonnull (warnings);
      for (char **w = warnings; *w != NULL; w++)
        found |= strstr (*w, cases[i].warning) != NULL;
      if (!found)
        g_error ("case %zu: no warning with “%s” (first: “%s”)", i, cases[i].warning, warnings[0]);
      g_assert_true (xrlab_sweep_validate (&s->sweep, xrlab_sweep_get_default_range (), NULL));
    }

  /* The defaults stand in for a bad section as a whole. */
  {
    g_autoptr(XrlabSession) s =
      xrlab_session_from_json_full (cases[3].json, -1, XRLAB_SESSION_LOAD_SALVAGE, NULL, NULL);
    g_assert_cmpint (s->quantity, ==, defaults->quantity);
    g_assert_true (s->x_log == defaults->x_log);
  }
  /* Too many materials: the first 64. */
  {
    GString *json = g_string_new (HEAD "\"materials\":[");
    g_auto(GStrv) warnings = NULL;
    g_autoptr(XrlabSession) s = NULL;
    for (int i = 0; i < 70; i++)
      g_string_append_printf (json, "%s" MAT, i ? "," : "");
    g_string_append (json, "]," SWEEP "}");
    s = xrlab_session_from_json_full (json->str, -1, XRLAB_SESSION_LOAD_SALVAGE, &warnings, NULL);
    g_assert_cmpuint (s->materials->len, ==, XRLAB_SESSION_MAX_MATERIALS);
    g_assert_cmpstr (warnings[0], ==, "materials: 70 materials; at most 64 are allowed; the first 64 were read");
    g_string_free (json, TRUE);
  }
  /* A parameter name over 200 characters among the Fit page's values or
   * its baseline result: refused with its path (strict), left out with
   * that message (salvaging). */
  {
    static const char *const fmt[] = {
      HEAD "\"materials\":[" MAT "]," SWEEP ",\"fit\":{\"data\":\"/d\",\"values\":{\"%s\":1}}}",
      HEAD "\"materials\":[" MAT "]," SWEEP
           ",\"fit\":{\"data\":\"/d\",\"result\":{\"baseline\":{\"values\":{\"%s\":1}}}}}",
    };
    static const char *const expected[] = {
      "fit.values: the name is longer than 200 characters; the Fit page is empty",
      "fit.result.baseline.values: the name is longer than 200 characters; the Fit page opens without",
    };
    g_autofree char *name = g_strnfill (201, 'x');

    for (gsize i = 0; i < G_N_ELEMENTS (fmt); i++)
      {
        g_autofree char *json = g_strdup_printf (fmt[i], name);
        g_autoptr(GError) error = NULL;
        g_auto(GStrv) warnings = NULL;
        g_autoptr(XrlabSession) strict = xrlab_session_from_json (json, -1, &error);
        g_autoptr(XrlabSession) s = NULL;

        g_assert_null (strict);
        g_assert_error (error, XRLAB_SESSION_ERROR, XRLAB_SESSION_ERROR_INVALID);
        g_assert_nonnull (strstr (error->message, "the name is longer than 200 characters"));
        g_clear_error (&error);
        s = xrlab_session_from_json_full (json, -1, XRLAB_SESSION_LOAD_SALVAGE, &warnings, &error);
        g_assert_no_error (error);
        g_assert_nonnull (warnings);
        if (strstr (warnings[0], expected[i]) == NULL)
          g_error ("case %zu: “%s” has no “%s”", i, warnings[0], expected[i]);
        g_assert_true ((xrlab_session_get_fit (s) == NULL) == (i == 0));
      }
  }
  /* Many warnings: twenty listed, the rest counted. */
  {
    GString *json = g_string_new (HEAD "\"materials\":[{\"formula\":\"Si\",\"density_g_cm3\":2.33");
    g_auto(GStrv) warnings = NULL;
    g_autoptr(XrlabSession) s = NULL;
    for (int i = 0; i < 30; i++)
      g_string_append_printf (json, ",\"typo%d\":%d", i, i);
    g_string_append (json, "}]," SWEEP "}");
    s = xrlab_session_from_json_full (json->str, -1, XRLAB_SESSION_LOAD_SALVAGE, &warnings, NULL);
    g_assert_cmpuint (s->materials->len, ==, 1);
    g_assert_cmpuint (g_strv_length (warnings), ==, 21);
    g_assert_cmpstr (warnings[20], ==, "and 10 more warnings");
    g_string_free (json, TRUE);
  }
  /* Foreign and newer documents are refused in either mode. */
  g_assert_null (xrlab_session_from_json_full ("{\"format\":\"other\"}", -1, XRLAB_SESSION_LOAD_SALVAGE, NULL, NULL));
  g_assert_null (xrlab_session_from_json_full ("{\"format\":\"xrlab-session\",\"version\":2}", -1,
                                               XRLAB_SESSION_LOAD_SALVAGE, NULL, NULL));
}

static char *
read_text (const char *path)
{
  char *text = NULL;
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

static guint
count_files (const char *dir)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  guint n = 0;

  g_assert_nonnull (d);
  while (g_dir_read_name (d) != NULL)
    n++;
  g_dir_close (d);
  return n;
}

/* A bad file is kept under the first free name of .bad, .bad.1, ...: an
 * earlier one is never overwritten (it was: every bad start replaced
 * session.json.bad). */
static void
test_bad_files_numbered (void)
{
  g_autofree char *dir = tmp_path ("kept");
  g_autofree char *path = g_build_filename (dir, "session.json", NULL);
  g_autofree char *bad = g_strconcat (path, ".bad", NULL);
  g_autofree char *bad3 = g_strconcat (path, ".bad.3", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *k0 = NULL, *k1 = NULL, *k2 = NULL, *k4 = NULL;
  g_autofree char *text = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  /* move */
  g_assert_true (g_file_set_contents (path, "first", -1, NULL));
  k0 = xrlab_session_keep_aside (path, NULL, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (k0, ==, bad);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_set_contents (path, "second", -1, NULL));
  k1 = xrlab_session_keep_aside (path, NULL, 0, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_suffix (k1, "session.json.bad.1"));
  /* copy: the file stays */
  g_assert_true (g_file_set_contents (path, "third", -1, NULL));
  k2 = xrlab_session_keep_aside (path, "copy of third", -1, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_suffix (k2, "session.json.bad.2"));
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
  /* a name taken by something else is skipped too */
  g_assert_true (g_file_set_contents (bad3, "the user's", -1, NULL));
  k4 = xrlab_session_keep_aside (path, NULL, 0, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_suffix (k4, "session.json.bad.4"));

  text = read_text (k0);
  g_assert_cmpstr (text, ==, "first");
  g_free (text);
  text = read_text (k1);
  g_assert_cmpstr (text, ==, "second");
  g_free (text);
  text = read_text (k2);
  g_assert_cmpstr (text, ==, "copy of third");
  g_free (text);
  text = read_text (bad3);
  g_assert_cmpstr (text, ==, "the user's");
  g_free (text);
  text = read_text (k4);
  g_assert_cmpstr (text, ==, "third");
  /* .bad, .bad.1 .. .bad.4, no temporary file left */
  g_assert_cmpuint (count_files (dir), ==, 5);

  /* Two unreadable auto-saves in a row: both kept. */
  for (int i = 0; i < 2; i++)
    {
      g_autoptr(XrlabSessionRestore) r = NULL;
      g_autofree char *garbage = g_strdup_printf ("garbage %d", i);
      g_autofree char *kept_text = NULL;
      g_assert_true (g_file_set_contents (path, garbage, -1, NULL));
      r = xrlab_session_restore_begin (path);
      g_assert_cmpint (r->status, ==, XRLAB_SESSION_RESTORE_REFUSED);
      g_assert_error (r->error, XRLAB_SESSION_ERROR, XRLAB_SESSION_ERROR_PARSE);
      g_assert_true (g_str_has_suffix (r->kept_path, i == 0 ? ".bad.5" : ".bad.6"));
      kept_text = read_text (r->kept_path);
      g_assert_cmpstr (kept_text, ==, garbage);
      g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
    }
  g_assert_cmpuint (count_files (dir), ==, 7);
  xrlab_test_rm_rf (dir);
}

/* A session that crashed the last start is not restored again: the
 * "restoring" marker written before reading is still there. */
static void
test_crash_loop (void)
{
  g_autofree char *dir = tmp_path ("crash");
  g_autofree char *path = g_build_filename (dir, "session.json", NULL);
  g_autofree char *marker = xrlab_session_get_restore_marker_path (path);
  g_autoptr(XrlabSession) saved = xrlab_session_new_default ();
  g_autoptr(GError) error = NULL;
  g_autofree char *before = NULL;

  g_assert_true (g_str_has_suffix (marker, "session.json.restoring"));
  xrlab_session_add_material (saved, "mine", "Fe2O3", 5.24, 3, 0xabcdef, FALSE);
  g_assert_true (xrlab_session_save (saved, path, &error));
  g_assert_no_error (error);
  before = read_text (path);

  /* A start that reads it and then stops without finishing. */
  {
    g_autoptr(XrlabSessionRestore) r = xrlab_session_restore_begin (path);
    g_assert_cmpint (r->status, ==, XRLAB_SESSION_RESTORE_DONE);
    g_assert_true (xrlab_session_equal (r->session, saved));
    g_assert_null (r->warnings);
    g_assert_null (r->kept_path);
    g_assert_cmpstr (r->marker_path, ==, marker);
    g_assert_true (g_file_test (marker, G_FILE_TEST_IS_REGULAR));
  }
  /* The next start: not read, kept aside, marker gone. */
  {
    g_autoptr(XrlabSessionRestore) r = xrlab_session_restore_begin (path);
    g_autofree char *kept = NULL;
    g_assert_cmpint (r->status, ==, XRLAB_SESSION_RESTORE_CRASHED);
    g_assert_null (r->session);
    g_assert_nonnull (r->kept_path);
    g_assert_true (g_str_has_suffix (r->kept_path, "session.json.bad"));
    kept = read_text (r->kept_path);
    g_assert_cmpstr (kept, ==, before);
    g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
    g_assert_false (g_file_test (marker, G_FILE_TEST_EXISTS));
  }
  /* And the one after that starts clean. */
  {
    g_autoptr(XrlabSessionRestore) r = xrlab_session_restore_begin (path);
    g_assert_cmpint (r->status, ==, XRLAB_SESSION_RESTORE_NONE);
    g_assert_false (g_file_test (marker, G_FILE_TEST_EXISTS));
  }
  /* A restore that finishes leaves no marker: restored again next time. */
  g_assert_true (xrlab_session_save (saved, path, &error));
  for (int i = 0; i < 2; i++)
    {
      g_autoptr(XrlabSessionRestore) r = xrlab_session_restore_begin (path);
      g_assert_cmpint (r->status, ==, XRLAB_SESSION_RESTORE_DONE);
      xrlab_session_restore_finish (r->marker_path);
      g_assert_false (g_file_test (marker, G_FILE_TEST_EXISTS));
    }

  /* The reproducer: 2 MB of "[" as the auto-save. Refused without a
   * crash, kept, and the marker removed. */
  {
    g_autofree char *deep = repeat ('[', 2 * 1024 * 1024);
    g_autoptr(XrlabSessionRestore) r = NULL;
    g_assert_true (g_file_set_contents (path, deep, -1, NULL));
    r = xrlab_session_restore_begin (path);
    g_assert_cmpint (r->status, ==, XRLAB_SESSION_RESTORE_REFUSED);
    g_assert_nonnull (strstr (r->error->message, "nested deeper than 64 levels"));
    g_assert_true (g_str_has_suffix (r->kept_path, "session.json.bad.1"));
    g_assert_false (g_file_test (marker, G_FILE_TEST_EXISTS));
  }

  /* A partly readable auto-save: restored with warnings, the file as it was
   * copied aside before the next auto-save replaces it. */
  {
    const char *json = HEAD "\"materials\":[{\"name\":\"\\ud800x\",\"formula\":\"Si\",\"density_g_cm3\":2.33},"
                       "{\"formula\":\"Au\",\"density_g_cm3\":null}," MAT "]," SWEEP "}";
    g_autoptr(XrlabSessionRestore) r = NULL;
    g_autofree char *kept = NULL;
    g_assert_true (g_file_set_contents (path, json, -1, NULL));
    r = xrlab_session_restore_begin (path);
    g_assert_cmpint (r->status, ==, XRLAB_SESSION_RESTORE_DONE);
    g_assert_cmpuint (r->session->materials->len, ==, 2);
    g_assert_cmpstr (((XrlabSessionMaterial *) g_ptr_array_index (r->session->materials, 0))->name, ==,
                     "\xef\xbf\xbdx");
    g_assert_cmpuint (g_strv_length (r->warnings), ==, 2);
    g_assert_nonnull (strstr (r->warnings[1], "materials[1].density_g_cm3: expected a number, found null"));
    g_assert_true (g_str_has_suffix (r->kept_path, "session.json.bad.2"));
    kept = read_text (r->kept_path);
    g_assert_cmpstr (kept, ==, json);
    g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
    xrlab_session_restore_finish (r->marker_path);
  }
  xrlab_test_rm_rf (dir);
}

int
main (int argc, char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmpdir = g_dir_make_tmp ("xrlab-session-XXXXXX", NULL);

  g_test_add_func ("/session/default", test_default);
  g_test_add_func ("/session/round-trip", test_round_trip);
  g_test_add_func ("/session/refused", test_refused);
  g_test_add_func ("/session/minimal", test_minimal);
  g_test_add_func ("/session/values-energy", test_values_energy);
  g_test_add_func ("/session/old-session", test_old_session);
  g_test_add_func ("/session/old-quantity-ids", test_old_quantity_ids);
  g_test_add_func ("/session/table", test_table);
  g_test_add_func ("/session/load-errors", test_load_errors);
  g_test_add_func ("/session/save-atomic", test_save_atomic);
  g_test_add_func ("/session/deep-nesting", test_deep_nesting);
  g_test_add_func ("/session/lone-surrogate", test_lone_surrogate);
  g_test_add_func ("/session/binary-bytes-escaped", test_binary_bytes_escaped);
  g_test_add_func ("/session/load-failures", test_load_failures);
  g_test_add_func ("/session/salvage", test_salvage);
  g_test_add_func ("/session/bad-files-numbered", test_bad_files_numbered);
  g_test_add_func ("/session/crash-loop", test_crash_loop);
  status = g_test_run ();
  xrlab_test_rm_rf (tmpdir);
  g_free (tmpdir);
  return status;
}
