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
  /* f1 starts at 29.3 eV and the engine computes every quantity together:
   * 20 eV is refused for δ and for β alike. */
  expect_refused (HEAD "\"materials\":[],\"sweep\":{\"start\":20,\"stop\":300,\"unit\":\"eV\",\"points\":100,\"spacing\":\"log\"},"
                  "\"plot\":{\"quantity\":\"delta\"}}", XRLAB_SESSION_ERROR_INVALID, "29.3 eV");
  expect_refused (HEAD "\"materials\":[],\"sweep\":{\"start\":20,\"stop\":300,\"unit\":\"eV\",\"points\":100,\"spacing\":\"log\"},"
                  "\"plot\":{\"quantity\":\"beta\"}}", XRLAB_SESSION_ERROR_INVALID, "29.3 eV");
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
}

/* The values energy is checked like every energy: within the slack of an
 * end it is that end, as the values table takes it. */
static void
test_values_energy (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabSession) s = NULL;

  s = xrlab_session_from_json (HEAD "\"materials\":[]," SWEEP ",\"values\":{\"energy_eV\":29.29999999}}", -1, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (s->values_energy_ev, ==, 29.3);
  g_clear_pointer (&s, xrlab_session_free);
  s = xrlab_session_from_json (HEAD "\"materials\":[]," SWEEP ",\"values\":{\"energy_eV\":30000}}", -1, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (s->values_energy_ev, ==, 30000);
  expect_refused (HEAD "\"materials\":[]," SWEEP ",\"values\":{\"energy_eV\":29.2}}",
                  XRLAB_SESSION_ERROR_INVALID, "values.energy_eV: 29.2 eV is outside 29.3 – 30000 eV");
  expect_refused (HEAD "\"materials\":[]," SWEEP ",\"values\":{\"energy_eV\":30001}}",
                  XRLAB_SESSION_ERROR_INVALID, "values.energy_eV: 30001 eV is outside 29.3 – 30000 eV");
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
                                    "attenuation_length, mu, mu_rho, sld_re, sld_im, transmission)"));
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

static int
rm_rf (const char *path)
{
  GDir *d = g_dir_open (path, 0, NULL);
  const char *name;

  if (d == NULL)
    return g_unlink (path);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);
      rm_rf (child);
    }
  g_dir_close (d);
  return g_rmdir (path);
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
  g_test_add_func ("/session/load-errors", test_load_errors);
  g_test_add_func ("/session/save-atomic", test_save_atomic);
  status = g_test_run ();
  rm_rf (tmpdir);
  g_free (tmpdir);
  return status;
}
