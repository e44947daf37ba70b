/* test-chantler.c -- the Chantler (NIST FFAST) tables: the nodes are the
 * data files' rows with Chantler's corrections, SciPy parity between them,
 * xraydb's delta and beta of materials, ranges per element, the table
 * choice and the grids that carry it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include <glib.h>
#include <xraylib.h>

#include "xrlab-elements.h"
#include "xrlab-formula.h"
#include "xrlab-init.h"
#include "xrlab-optics.h"
#include "xrlab-pchip.h"
#include "xrlab-util.h"

/* The rows of data/chantler/<symbol>.dat as the file has them, and the
 * header values. */
typedef struct {
  GArray *e, *f1, *f2, *scatter;
  double z, frel_h82, frel_cl, fnt;
} Rows;

static void
rows_clear (Rows *r)
{
  g_array_unref (r->e);
  g_array_unref (r->f1);
  g_array_unref (r->f2);
  g_array_unref (r->scatter);
}

static void
read_rows (int z, Rows *r)
{
  g_autofree char *lower = g_ascii_strdown (xrlab_element_get_symbol (z), -1);
  g_autofree char *name = g_strconcat (lower, ".dat", NULL);
  g_autofree char *path = g_build_filename (XRLAB_TEST_SRCDIR, "..", "data", "chantler", name, NULL);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  g_assert_no_error (error);
  r->e = g_array_new (FALSE, FALSE, sizeof (double));
  r->f1 = g_array_new (FALSE, FALSE, sizeof (double));
  r->f2 = g_array_new (FALSE, FALSE, sizeof (double));
  r->scatter = g_array_new (FALSE, FALSE, sizeof (double));
  r->z = r->frel_h82 = r->frel_cl = r->fnt = NAN;
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) f = g_strsplit (lines[i], " ", -1);
      double v[5];

      if (lines[i][0] == '#' || lines[i][0] == '\0')
        continue;
      if (g_ascii_isalpha (lines[i][0]))
        {
          double *dst = NULL;
          if (strcmp (f[0], "Z") == 0)
            dst = &r->z;
          else if (strcmp (f[0], "frel_H82") == 0)
            dst = &r->frel_h82;
          else if (strcmp (f[0], "frel_3/5CL") == 0)
            dst = &r->frel_cl;
          else if (strcmp (f[0], "fNT") == 0)
            dst = &r->fnt;
          if (dst)
            g_assert_true (xrlab_parse_double (f[1], FALSE, dst));
          continue;
        }
      g_assert_cmpuint (g_strv_length (f), ==, 5);
      for (int c = 0; c < 5; c++)
        g_assert_true (xrlab_parse_double (f[c], FALSE, &v[c]));
      g_array_append_val (r->e, v[0]);
      g_array_append_val (r->f1, v[1]);
      g_array_append_val (r->f2, v[2]);
      g_array_append_val (r->scatter, v[4]);
    }
  g_assert_cmpfloat (r->z, ==, z);
  g_assert_true (isfinite (r->frel_cl) && isfinite (r->fnt) && isfinite (r->frel_h82));
}

#define AT(a, i) g_array_index ((a), double, (i))

/* At every row of every table the interpolants give the file's values:
 * f1 = FFAST's f1 + frel (3/5 CL) + fNT, f2 and the scattering sum as they
 * are. The ranges are the rows' and the corrections are reported. */
static void
test_nodes (void)
{
  g_autoptr(GError) error = NULL;
  gsize n_checked = 0, n_repeated = 0;

  for (int z = 1; z <= XRLAB_ELEMENT_Z_MAX; z++)
    {
      const XrlabScatteringTable *t = xrlab_scattering_table_get (XRLAB_TABLE_CHANTLER, z, &error);
      Rows r;
      gsize h1 = 0, h2 = 0, h3 = 0;

      g_assert_no_error (error);
      read_rows (z, &r);
      g_assert_cmpint (t->table, ==, XRLAB_TABLE_CHANTLER);
      g_assert_cmpint (t->z, ==, z);
      g_assert_cmpuint (t->n_rows, ==, r.e->len);
      g_assert_cmpfloat (t->f1_min_ev, ==, AT (r.e, 0));
      g_assert_cmpfloat (t->f2_min_ev, ==, AT (r.e, 0));
      g_assert_cmpfloat (t->max_ev, ==, AT (r.e, r.e->len - 1));
      g_assert_cmpfloat (t->valid_min_ev, ==, t->f1_min_ev);
      g_assert_cmpfloat (t->valid_max_ev, ==, t->max_ev);
      g_assert_cmpfloat (t->f1_relativistic, ==, r.frel_cl);
      g_assert_cmpfloat (t->f1_nuclear_thomson, ==, r.fnt);
      g_assert_nonnull (t->scatter_cm2_g);
      for (gsize i = 0; i < r.e->len; i++)
        {
          double e = AT (r.e, i);
          double f1 = (AT (r.f1, i) + r.frel_cl) + r.fnt;
          double g1 = xrlab_pchip_eval (t->f1, e, &h1);
          double g2 = xrlab_pchip_eval (t->f2, e, &h2);
          double g3 = xrlab_pchip_eval (t->scatter_cm2_g, e, &h3);

          /* Exact at the start of each piece; the last row is the end of
           * the last piece (rounding), and so is the row below an edge that
           * the table lists twice (Cs at 11.4 eV: the value above wins). */
          if (i + 1 < r.e->len && AT (r.e, i + 1) == e)
            {
              double below = nextafter (e, 0.0);
              g_assert_cmpfloat_with_epsilon (xrlab_pchip_eval (t->f1, below, NULL), f1, 1e-9 * fabs (f1));
              g_assert_cmpfloat_with_epsilon (xrlab_pchip_eval (t->f2, below, NULL), AT (r.f2, i), 1e-9 * AT (r.f2, i));
              g_assert_cmpfloat (g1, ==, (AT (r.f1, i + 1) + r.frel_cl) + r.fnt);
              n_repeated++;
            }
          else if (i + 1 < r.e->len)
            {
              g_assert_cmpfloat (g1, ==, f1);
              g_assert_cmpfloat (g2, ==, AT (r.f2, i));
              g_assert_cmpfloat (g3, ==, AT (r.scatter, i));
            }
          else
            {
              g_assert_cmpfloat_with_epsilon (g1, f1, 1e-12 * fabs (f1));
              g_assert_cmpfloat_with_epsilon (g2, AT (r.f2, i), 1e-12 * AT (r.f2, i));
              g_assert_cmpfloat_with_epsilon (g3, AT (r.scatter, i), 1e-12 * AT (r.scatter, i));
            }
          n_checked++;
        }
      /* Far above the K edge f1 is Z plus Chantler's corrections (FFAST's
       * own f1 is within 0.07 of Z at 966 keV: 0.0665 for U). */
      g_assert_cmpfloat (fabs (xrlab_pchip_eval (t->f1, t->max_ev, NULL) - (z + r.frel_cl + r.fnt)), <, 0.07);
      g_assert_true (isnan (xrlab_pchip_eval (t->f1, t->max_ev * 1.001, NULL)));
      g_assert_true (isnan (xrlab_pchip_eval (t->f2, t->f2_min_ev * 0.999, NULL)));
      rows_clear (&r);
    }
  g_assert_cmpuint (n_checked, >, 92 * 1300);
  g_assert_cmpuint (n_repeated, >=, 1);
  g_test_message ("%zu rows of 92 elements, %zu energies listed twice", n_checked, n_repeated);
}

/* Every table spans 1.01 eV - 966.3 keV, beyond the 400 keV that
 * high-energy beamlines use. */
static void
test_ranges (void)
{
  for (int z = 1; z <= XRLAB_ELEMENT_Z_MAX; z++)
    {
      const XrlabScatteringTable *t = xrlab_scattering_table_get (XRLAB_TABLE_CHANTLER, z, NULL);
      g_assert_cmpfloat (t->f1_min_ev, ==, 1.01);
      g_assert_cmpfloat (t->f2_min_ev, ==, 1.01);
      /* 966266.74 eV; the heavier elements' grid is shifted by 1e-5. */
      g_assert_cmpfloat (t->max_ev, >=, 966266.74);
      g_assert_cmpfloat (t->max_ev, <, 966300.0);
      g_assert_cmpuint (t->n_rows, >, 1300);
    }
  {
    const XrlabScatteringTable *cu = xrlab_scattering_table_get (XRLAB_TABLE_CHANTLER, 29, NULL);
    const XrlabScatteringTable *u = xrlab_scattering_table_get (XRLAB_TABLE_CHANTLER, 92, NULL);

    /* SciPy's PCHIP on the same rows: Cu 28.9717 and U 89.5077 at 100 keV
     * (U still below its K edge, 115.6 keV, where f1 dips), 28.9116 and
     * 90.6752 at 400 keV. */
    g_assert_cmpfloat_with_epsilon (xrlab_pchip_eval (cu->f1, 1e5, NULL), 28.971695816844445, 1e-12);
    g_assert_cmpfloat_with_epsilon (xrlab_pchip_eval (u->f1, 1e5, NULL), 89.5076688955698, 1e-11);
    g_assert_cmpfloat_with_epsilon (xrlab_pchip_eval (cu->f1, 4e5, NULL), 28.911580402129598, 1e-12);
    g_assert_cmpfloat_with_epsilon (xrlab_pchip_eval (u->f1, 4e5, NULL), 90.6752262076675, 1e-11);
    g_assert_cmpfloat_with_epsilon (xrlab_pchip_eval (cu->f2, 1e5, NULL), 0.04299737105501884, 1e-14);
    g_assert_cmpfloat_with_epsilon (xrlab_pchip_eval (cu->scatter_cm2_g, 1e5, NULL), 0.1701613224435144, 1e-14);
  }
}

/* tests/data/pchip-chantler-scipy.csv: SciPy's PchipInterpolator on the
 * same rows, split at the same steps (tests/data/README.md): 1e-12 relative. */
static void
test_scipy_parity (void)
{
  g_autofree char *path = g_build_filename (XRLAB_TEST_SRCDIR, "data", "pchip-chantler-scipy.csv", NULL);
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GError) error = NULL;
  guint n_checked = 0, n_scatter = 0;
  double worst = 0.0;

  g_assert_true (g_file_get_contents (path, &contents, NULL, &error));
  g_assert_no_error (error);
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) f = NULL;
      const XrlabScatteringTable *t;
      const XrlabPchip *p;
      double e, expected, got;
      int id;

      if (lines[i][0] == '#' || lines[i][0] == '\0' || g_str_has_prefix (lines[i], "symbol,"))
        continue;
      f = g_strsplit (lines[i], ",", -1);
      g_assert_cmpuint (g_strv_length (f), ==, 4);
      id = xrlab_element_lookup (f[0], -1);
      g_assert_cmpint (id, >, 0);
      t = xrlab_scattering_table_get (XRLAB_TABLE_CHANTLER, id, &error);
      g_assert_no_error (error);
      if (strcmp (f[1], "f1") == 0)
        p = t->f1;
      else if (strcmp (f[1], "f2") == 0)
        p = t->f2;
      else
        {
          g_assert_cmpstr (f[1], ==, "scatter");
          p = t->scatter_cm2_g;
          n_scatter++;
        }
      g_assert_true (xrlab_parse_double (f[2], FALSE, &e));
      g_assert_true (xrlab_parse_double (f[3], FALSE, &expected));
      got = xrlab_pchip_eval (p, e, NULL);
      if (fabs (got - expected) > 1e-12 * fabs (expected))
        g_error ("Chantler %s %s at %.17g eV: xrlab %.17g, SciPy %.17g (line %u)",
                 f[0], f[1], e, got, expected, i + 1);
      if (expected != 0.0)
        worst = MAX (worst, fabs (got - expected) / fabs (expected));
      n_checked++;
    }
  g_assert_cmpuint (n_checked, >, 10000);
  g_assert_cmpuint (n_scatter, >, 2000);
  g_test_message ("%u values of 92 elements, worst relative difference %.3g", n_checked, worst);
}

/* The rows of a fixture CSV (comment lines and the header skipped). */
static GPtrArray *
read_csv (const char *name, guint n_fields)
{
  g_autofree char *path = g_build_filename (XRLAB_TEST_SRCDIR, "data", name, NULL);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  gboolean header = TRUE;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (lines[i][0] == '#' || lines[i][0] == '\0')
        continue;
      if (header)
        {
          header = FALSE;
          continue;
        }
      g_ptr_array_add (rows, g_strsplit (lines[i], ",", -1));
      g_assert_cmpuint (g_strv_length (g_ptr_array_index (rows, rows->len - 1)), ==, n_fields);
    }
  return rows;
}

static double
field (char **row, int i)
{
  double v;
  g_assert_true (xrlab_parse_double (row[i], FALSE, &v));
  return v;
}

/* tests/data/chantler-optics.csv (python3-xraydb): with xraydb's molar
 * mass and constants, delta and beta from these tables are xraydb's (both
 * give the tabulated values at the rows), and the total attenuation is the
 * photoelectric part from f2 plus the tables' scattering sum, by mass
 * fraction. xraylib's CS_Total agrees within 6 % (tests/data/README.md). */
static void
test_xraydb_materials (void)
{
  g_autoptr(GPtrArray) rows = read_csv ("chantler-optics.csv", 13);
  g_autoptr(GPtrArray) xl = read_csv ("xraylib-attenuation.csv", 6);
  double worst_xl = 0.0;

  g_assert_cmpuint (rows->len, >=, 120);
  g_assert_cmpuint (xl->len, ==, rows->len);
  for (guint r = 0; r < rows->len; r++)
    {
      char **row = g_ptr_array_index (rows, r), **x = g_ptr_array_index (xl, r);
      g_autoptr(GError) error = NULL;
      g_autoptr(XrlabFormula) f = xrlab_formula_parse (row[0], &error);
      double rho = field (row, 1), e = field (row, 2), mass = field (row, 3);
      double re_na = field (row, 4), hc = field (row, 5);
      double lambda_cm = hc / e * 1e-8;
      double scale = lambda_cm * lambda_cm * re_na * rho / (2.0 * G_PI * mass);
      double s1 = 0.0, s2 = 0.0, scatter = 0.0, delta, beta, mu_total;

      g_assert_no_error (error);
      g_assert_cmpstr (x[0], ==, row[0]);
      g_assert_cmpfloat (field (x, 1), ==, e);
      g_assert_cmpfloat (e, >=, 29000.0);
      g_assert_cmpfloat (e, <=, 400000.0);
      for (gsize i = 0; i < xrlab_formula_get_n_atoms (f); i++)
        {
          int z = xrlab_formula_get_z (f)[i];
          const XrlabScatteringTable *t = xrlab_scattering_table_get (XRLAB_TABLE_CHANTLER, z, NULL);
          double n = xrlab_formula_get_counts (f)[i];

          s1 += n * xrlab_pchip_eval (t->f1, e, NULL);
          s2 += n * xrlab_pchip_eval (t->f2, e, NULL);
          scatter += xrlab_formula_get_mass_fractions (f)[i] * xrlab_pchip_eval (t->scatter_cm2_g, e, NULL);
        }
      delta = scale * s1;
      beta = scale * s2;
      g_assert_cmpfloat_with_epsilon (delta, field (row, 6), 1e-12 * delta);
      g_assert_cmpfloat_with_epsilon (beta, field (row, 7), 1e-12 * beta);
      /* mu_pe has 5 digits; the mass fractions use xrlab's atomic weights. */
      mu_total = 4.0 * G_PI * beta / lambda_cm + rho * scatter;
      g_assert_cmpfloat_with_epsilon (mu_total, field (row, 12), 2e-3 * mu_total);
      g_assert_cmpfloat_with_epsilon (1.0 / field (row, 8), mu_total, 2e-3 * mu_total);
      worst_xl = MAX (worst_xl, fabs (mu_total / rho / field (x, 2) - 1.0));
    }
  g_assert_cmpfloat (worst_xl, <, 0.06);
  g_test_message ("%u points; total attenuation within %.3g of xraylib's CS_Total", rows->len, worst_xl);
}

/* One point of a fixture row through the optics API, with @choice. */
static gboolean
row_point (const char *formula, double rho, double e_ev, XrlabTableChoice choice,
           double v[XRLAB_QUANTITY_N], XrlabTable *table)
{
  g_autoptr(XrlabFormula) f = xrlab_formula_parse (formula, NULL);
  g_autoptr(XrlabEnergyGrid) grid = NULL;
  double *out[XRLAB_QUANTITY_N];
  XrlabOpticsMaterial m = { f, rho, 1000.0 };
  XrlabOpticsCache *cache;
  gboolean ok;
  double e_kev = e_ev / 1000.0;

  grid = xrlab_energy_grid_new_for_table (&e_kev, 1, XRLAB_ENERGY_UNIT_KEV, choice, NULL);
  if (grid == NULL)
    return FALSE;
  for (int q = 0; q < XRLAB_QUANTITY_N; q++)
    out[q] = &v[q];
  cache = xrlab_optics_cache_new (grid);
  ok = xrlab_optics_compute (cache, &m, XRLAB_QUANTITY_MASK_ALL, out, NULL);
  xrlab_optics_cache_free (cache);
  *table = xrlab_energy_grid_get_table (grid);
  return ok;
}

/* The optics API with the Chantler tables (tests/data/chantler-optics.csv,
 * python3-xraydb): δ, β and the photoabsorption μ (4πβ/λ) to 1e-6 once
 * xraydb's molar masses replace xrlab's (the same interpolation: both give
 * the tabulated values at these rows); the total attenuation within 2e-3
 * of xraydb's two forms (its mu_pe column has 5 digits, the mass fractions
 * use other atomic weights), the attenuation length and the transmission
 * from it, and within 6 % of xraylib's CS_Total (the tables' agreement,
 * tests/data/README.md). Auto takes Chantler for every row above 30 keV.
 * Henke at the rows within its range (30 keV and just below): its total is
 * its photoabsorption plus xraylib's CS_Rayl + CS_Compt (to 2e-3: xraylib
 * weighs by its own atomic weights), within 4 % of CS_Total (3.1 % at
 * worst: Henke's and xraylib's photoabsorption differ). */
static void
test_optics_totals (void)
{
  g_autoptr(GPtrArray) rows = read_csv ("chantler-optics.csv", 13);
  g_autoptr(GPtrArray) xl = read_csv ("xraylib-attenuation.csv", 6);
  double worst_d = 0, worst_mu = 0, worst_total = 0, worst_xl = 0, worst_hs = 0, worst_ht = 0;
  guint n_henke = 0;

  for (guint r = 0; r < rows->len; r++)
    {
      char **row = g_ptr_array_index (rows, r), **x = g_ptr_array_index (xl, r);
      g_autoptr(XrlabFormula) f = xrlab_formula_parse (row[0], NULL);
      double rho = field (row, 1), e = field (row, 2), mass = field (row, 3);
      double mass_ratio = xrlab_formula_get_molecular_weight (f) / mass;
      double lambda_cm = field (row, 5) / e * 1e-8;
      double v[XRLAB_QUANTITY_N], h[XRLAB_QUANTITY_N], d;
      XrlabTable table;

      g_assert_true (row_point (row[0], rho, e, XRLAB_TABLE_CHOICE_CHANTLER, v, &table));
      g_assert_cmpint (table, ==, XRLAB_TABLE_CHANTLER);
      d = fabs (v[XRLAB_QUANTITY_DELTA] * mass_ratio / field (row, 6) - 1.0);
      worst_d = MAX (worst_d, d);
      worst_d = MAX (worst_d, fabs (v[XRLAB_QUANTITY_BETA] * mass_ratio / field (row, 7) - 1.0));
      worst_mu = MAX (worst_mu, fabs (v[XRLAB_QUANTITY_MU] * mass_ratio
                                      / (4.0 * G_PI * field (row, 7) / lambda_cm) - 1.0));
      worst_total = MAX (worst_total, fabs (v[XRLAB_QUANTITY_MU_TOTAL] / field (row, 12) - 1.0));
      worst_total = MAX (worst_total, fabs (v[XRLAB_QUANTITY_ATTENUATION_LENGTH_TOTAL] / field (row, 8) - 1.0));
      worst_total = MAX (worst_total, fabs (v[XRLAB_QUANTITY_MU_RHO_TOTAL] / field (row, 10) - 1.0));
      g_assert_cmpfloat_with_epsilon (v[XRLAB_QUANTITY_TRANSMISSION],
                                      exp (-v[XRLAB_QUANTITY_MU_TOTAL] * 0.1), 1e-15);
      g_assert_cmpfloat_with_epsilon (v[XRLAB_QUANTITY_TRANSMISSION_PHOTO],
                                      exp (-v[XRLAB_QUANTITY_MU] * 0.1), 1e-15);
      worst_xl = MAX (worst_xl, fabs (v[XRLAB_QUANTITY_MU_RHO_TOTAL] / field (x, 2) - 1.0));

      /* Auto: Chantler above 30 keV, the same numbers. */
      if (e > 30000.0)
        {
          g_assert_true (row_point (row[0], rho, e, XRLAB_TABLE_CHOICE_AUTO, h, &table));
          g_assert_cmpint (table, ==, XRLAB_TABLE_CHANTLER);
          g_assert_cmpfloat (h[XRLAB_QUANTITY_MU_TOTAL], ==, v[XRLAB_QUANTITY_MU_TOTAL]);
          g_assert_false (row_point (row[0], rho, e, XRLAB_TABLE_CHOICE_HENKE, h, &table));
          continue;
        }
      g_assert_true (row_point (row[0], rho, e, XRLAB_TABLE_CHOICE_HENKE, h, &table));
      g_assert_cmpint (table, ==, XRLAB_TABLE_HENKE);
      worst_hs = MAX (worst_hs, fabs ((h[XRLAB_QUANTITY_MU_RHO_TOTAL] - h[XRLAB_QUANTITY_MU_RHO])
                                      / (field (x, 4) + field (x, 5)) - 1.0));
      worst_ht = MAX (worst_ht, fabs (h[XRLAB_QUANTITY_MU_RHO_TOTAL] / field (x, 2) - 1.0));
      n_henke++;
    }
  g_test_message ("Chantler: δ, β %.2g, μ %.2g, totals %.2g of xraydb, %.2g of xraylib; "
                  "Henke (%u rows): scattering %.2g of xraylib's, total %.2g of CS_Total",
                  worst_d, worst_mu, worst_total, worst_xl, n_henke, worst_hs, worst_ht);
  g_assert_cmpfloat (worst_d, <, 1e-6);
  g_assert_cmpfloat (worst_mu, <, 1e-6);
  g_assert_cmpfloat (worst_total, <, 2e-3);
  g_assert_cmpfloat (worst_xl, <, 0.06);
  g_assert_cmpuint (n_henke, >=, 12);
  g_assert_cmpfloat (worst_hs, <, 2e-3);
  g_assert_cmpfloat (worst_ht, <, 0.04);
}

/* Henke's scattering is xraylib's CS_Rayl + CS_Compt per atom (times
 * xraylib's atomic weight), interpolated between the table's rows: within
 * 2e-4 of xraylib's own everywhere from 0.1 to 30 keV, and the 0.1 keV
 * value below. Chantler's is its column times the atomic weight. */
static void
test_scatter (void)
{
  GRand *rand = g_rand_new_with_seed (15);
  double worst = 0.0;

  for (int z = 1; z <= XRLAB_ELEMENT_Z_MAX; z++)
    {
      const XrlabScatteringTable *h = xrlab_scattering_table_get (XRLAB_TABLE_HENKE, z, NULL);
      const XrlabScatteringTable *c = xrlab_scattering_table_get (XRLAB_TABLE_CHANTLER, z, NULL);
      double low = xrlab_scattering_table_eval_scatter (h, 30.0, NULL);

      for (int k = 0; k < 100; k++)
        {
          double ev = 100.0 * pow (300.0, g_rand_double (rand));
          double direct = (CS_Rayl (z, ev / 1000.0, NULL) + CS_Compt (z, ev / 1000.0, NULL))
                          * AtomicWeight (z, NULL);

          worst = MAX (worst, fabs (xrlab_scattering_table_eval_scatter (h, ev, NULL) / direct - 1.0));
        }
      g_assert_cmpfloat_with_epsilon (low, (CS_Rayl (z, 0.1, NULL) + CS_Compt (z, 0.1, NULL))
                                           * AtomicWeight (z, NULL), 1e-12 * low);
      g_assert_true (isnan (xrlab_scattering_table_eval_scatter (h, 31000.0, NULL)));
      g_assert_cmpfloat (xrlab_scattering_table_eval_scatter (c, 1e5, NULL), ==,
                         xrlab_pchip_eval (c->scatter_cm2_g, 1e5, NULL) * xrlab_element_get_weight (z));
    }
  g_rand_free (rand);
  g_test_message ("Henke's scattering within %.2g of xraylib's", worst);
  g_assert_cmpfloat (worst, <, 2e-4);
}

/* The generic API gives the Henke tables too: the same interpolants as
 * xrlab_henke_get(), with their documented range. */
static void
test_henke_through_generic (void)
{
  for (int z = 1; z <= XRLAB_ELEMENT_Z_MAX; z++)
    {
      const XrlabScatteringTable *t = xrlab_scattering_table_get (XRLAB_TABLE_HENKE, z, NULL);
      const XrlabHenkeTable *h = xrlab_henke_get (z, NULL);

      g_assert_nonnull (t);
      g_assert_true (t->f1 == h->f1);
      g_assert_true (t->f2 == h->f2);
      g_assert_null (t->scatter_cm2_g);
      g_assert_cmpfloat (t->f1_min_ev, ==, h->f1_min_ev);
      g_assert_cmpfloat (t->f2_min_ev, ==, h->f2_min_ev);
      g_assert_cmpfloat (t->max_ev, ==, 30000.0);
      g_assert_cmpfloat (t->valid_min_ev, ==, 30.0);
      g_assert_cmpfloat (t->valid_max_ev, ==, 30000.0);
      g_assert_cmpfloat_with_epsilon (t->f1_relativistic, -pow (z / 82.5, 2.37), 1e-15);
      g_assert_cmpfloat (t->f1_nuclear_thomson, ==, 0.0);
    }
}

static void
test_names (void)
{
  XrlabTable t = XRLAB_TABLE_N_TABLES;
  g_autoptr(GError) error = NULL;

  g_assert_cmpstr (xrlab_table_get_name (XRLAB_TABLE_HENKE), ==, "henke");
  g_assert_cmpstr (xrlab_table_get_name (XRLAB_TABLE_CHANTLER), ==, "chantler");
  g_assert_true (xrlab_table_lookup ("chantler", &t));
  g_assert_cmpint (t, ==, XRLAB_TABLE_CHANTLER);
  g_assert_true (xrlab_table_lookup ("henke", &t));
  g_assert_cmpint (t, ==, XRLAB_TABLE_HENKE);
  g_assert_false (xrlab_table_lookup ("Henke", &t));
  g_assert_false (xrlab_table_lookup ("auto", &t));
  g_assert_false (xrlab_table_lookup (NULL, &t));

  g_assert_null (xrlab_scattering_table_get (XRLAB_TABLE_CHANTLER, 93, &error));
  g_assert_error (error, XRLAB_ELEMENT_ERROR, XRLAB_ELEMENT_ERROR_UNKNOWN);
  g_assert_nonnull (strstr (error->message, "Chantler"));
  g_clear_error (&error);
  g_assert_null (xrlab_scattering_table_get (XRLAB_TABLE_N_TABLES, 14, &error));
  g_assert_error (error, XRLAB_ELEMENT_ERROR, XRLAB_ELEMENT_ERROR_UNKNOWN);
}

/* The choice: henke, chantler or auto, by name; auto takes Henke for a
 * request wholly within 30 eV - 30 keV and Chantler for all of any other,
 * and a grid carries the table it took. */
static void
test_choice (void)
{
  static const struct {
    const char *spec;
    XrlabEnergyUnit unit;
    XrlabTableChoice choice;
    int table;              /* -1: refused with @message */
    const char *message;
  } cases[] = {
    { "1:30:100", XRLAB_ENERGY_UNIT_KEV, XRLAB_TABLE_CHOICE_AUTO, XRLAB_TABLE_HENKE, NULL },
    { "0.03,30", XRLAB_ENERGY_UNIT_KEV, XRLAB_TABLE_CHOICE_AUTO, XRLAB_TABLE_HENKE, NULL },
    { "30.00000001", XRLAB_ENERGY_UNIT_KEV, XRLAB_TABLE_CHOICE_AUTO, XRLAB_TABLE_HENKE, NULL },
    { "1:40:100", XRLAB_ENERGY_UNIT_KEV, XRLAB_TABLE_CHOICE_AUTO, XRLAB_TABLE_CHANTLER, NULL },
    { "20,10,5", XRLAB_ENERGY_UNIT_EV, XRLAB_TABLE_CHOICE_AUTO, XRLAB_TABLE_CHANTLER, NULL },
    { "29.9:100:3", XRLAB_ENERGY_UNIT_EV, XRLAB_TABLE_CHOICE_AUTO, XRLAB_TABLE_CHANTLER, NULL },
    { "0.1", XRLAB_ENERGY_UNIT_ANGSTROM, XRLAB_TABLE_CHOICE_AUTO, XRLAB_TABLE_CHANTLER, NULL },
    { "1:30:100", XRLAB_ENERGY_UNIT_KEV, XRLAB_TABLE_CHOICE_CHANTLER, XRLAB_TABLE_CHANTLER, NULL },
    { "400", XRLAB_ENERGY_UNIT_KEV, XRLAB_TABLE_CHOICE_CHANTLER, XRLAB_TABLE_CHANTLER, NULL },
    { "10", XRLAB_ENERGY_UNIT_KEV, XRLAB_TABLE_CHOICE_HENKE, XRLAB_TABLE_HENKE, NULL },
    { "29", XRLAB_ENERGY_UNIT_EV, XRLAB_TABLE_CHOICE_HENKE, -1,
      "Energy 29 eV is outside the Henke tables: 30–30000 eV" },
    { "40", XRLAB_ENERGY_UNIT_KEV, XRLAB_TABLE_CHOICE_HENKE, -1,
      "Energy 40 keV is outside the Henke tables: 0.03–30 keV" },
    { "10,1000", XRLAB_ENERGY_UNIT_KEV, XRLAB_TABLE_CHOICE_CHANTLER, -1,
      "Energy 1000 keV (point 2) is outside the Chantler tables: 0.00101–966.267 keV" },
    { "1000", XRLAB_ENERGY_UNIT_KEV, XRLAB_TABLE_CHOICE_AUTO, -1,
      "Energy 1000 keV is outside the Chantler tables: 0.00101–966.267 keV" },
    { "0.5", XRLAB_ENERGY_UNIT_EV, XRLAB_TABLE_CHOICE_AUTO, -1,
      "Energy 0.5 eV is outside the Chantler tables: 1.01–966267 eV" },
    { "966266.9", XRLAB_ENERGY_UNIT_EV, XRLAB_TABLE_CHOICE_CHANTLER, -1,
      "Energy 966266.9 eV is outside the Chantler tables: 1.01–966266.7 eV" },
  };
  XrlabTableChoice c = XRLAB_TABLE_CHOICE_N;

  g_assert_cmpstr (xrlab_table_choice_get_name (XRLAB_TABLE_CHOICE_AUTO), ==, "auto");
  g_assert_cmpstr (xrlab_table_choice_get_name (XRLAB_TABLE_CHOICE_HENKE), ==, "henke");
  g_assert_true (xrlab_table_choice_lookup ("chantler", &c));
  g_assert_cmpint (c, ==, XRLAB_TABLE_CHOICE_CHANTLER);
  g_assert_true (xrlab_table_choice_lookup ("auto", &c));
  g_assert_cmpint (c, ==, XRLAB_TABLE_CHOICE_AUTO);
  g_assert_false (xrlab_table_choice_lookup ("Auto", &c));
  g_assert_cmpstr (xrlab_table_get_info (XRLAB_TABLE_CHANTLER)->title, ==, "Chantler");
  g_assert_nonnull (strstr (xrlab_table_get_info (XRLAB_TABLE_HENKE)->scattering_source, "CS_Compt"));

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(XrlabEnergyGrid) g = xrlab_energy_grid_parse_for_table (cases[i].spec, cases[i].unit,
                                                                         cases[i].choice, &error);
      if (cases[i].table < 0)
        {
          if (g != NULL)
            g_error ("“%s” (%s) accepted", cases[i].spec, xrlab_table_choice_get_name (cases[i].choice));
          g_assert_error (error, XRLAB_OPTICS_ERROR, XRLAB_OPTICS_ERROR_ENERGY);
          g_assert_cmpstr (error->message, ==, cases[i].message);
          continue;
        }
      if (g == NULL)
        g_error ("“%s” (%s) refused: %s", cases[i].spec,
                 xrlab_table_choice_get_name (cases[i].choice), error->message);
      g_assert_cmpint (xrlab_energy_grid_get_table (g), ==, cases[i].table);
      g_assert_cmpint (xrlab_energy_grid_get_table_choice (g), ==, cases[i].choice);
    }
  g_assert_cmpint (xrlab_energy_choose_table (XRLAB_TABLE_CHOICE_AUTO, 0.03, 30.0), ==, XRLAB_TABLE_HENKE);
  g_assert_cmpint (xrlab_energy_choose_table (XRLAB_TABLE_CHOICE_AUTO, 0.0299, 30.0), ==, XRLAB_TABLE_CHANTLER);
  g_assert_cmpint (xrlab_energy_choose_table (XRLAB_TABLE_CHOICE_AUTO, 10.0, 30.1), ==, XRLAB_TABLE_CHANTLER);
  g_assert_cmpint (xrlab_energy_choose_table (XRLAB_TABLE_CHOICE_HENKE, 10.0, 300.0), ==, XRLAB_TABLE_HENKE);
  g_assert_cmpint (xrlab_energy_choose_table (XRLAB_TABLE_CHOICE_CHANTLER, 1.0, 2.0), ==, XRLAB_TABLE_CHANTLER);
}

/* A computation on a grid uses the grid's table at every energy: auto over
 * 1-40 keV is Chantler at 10 keV too (no switch inside one curve), the
 * same number as a Chantler grid and as one point with Chantler. */
static void
test_grid_table (void)
{
  g_autoptr(XrlabFormula) f = xrlab_formula_parse ("SiO2", NULL);
  g_autoptr(XrlabEnergyGrid) wide = xrlab_energy_grid_parse_for_table ("10,40", XRLAB_ENERGY_UNIT_KEV,
                                                                       XRLAB_TABLE_CHOICE_AUTO, NULL);
  g_autoptr(XrlabEnergyGrid) soft = xrlab_energy_grid_parse_for_table ("10,20", XRLAB_ENERGY_UNIT_KEV,
                                                                       XRLAB_TABLE_CHOICE_AUTO, NULL);
  XrlabOpticsMaterial m = { f, 2.2, NAN };
  double dw[2], ds[2], v[XRLAB_QUANTITY_N], vh[XRLAB_QUANTITY_N];
  double *out[XRLAB_QUANTITY_N] = { NULL, };
  XrlabOpticsCache *cache;
  g_autoptr(GError) error = NULL;

  out[XRLAB_QUANTITY_DELTA] = dw;
  cache = xrlab_optics_cache_new (wide);
  g_assert_true (xrlab_optics_compute (cache, &m, XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_DELTA), out, &error));
  xrlab_optics_cache_free (cache);
  out[XRLAB_QUANTITY_DELTA] = ds;
  cache = xrlab_optics_cache_new (soft);
  g_assert_true (xrlab_optics_compute (cache, &m, XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_DELTA), out, &error));
  xrlab_optics_cache_free (cache);
  g_assert_no_error (error);

  g_assert_true (xrlab_optics_compute_point_for_table (&m, 10.0, XRLAB_TABLE_CHANTLER,
                                                       XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_DELTA), v, NULL));
  g_assert_true (xrlab_optics_compute_point (&m, 10.0, XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_DELTA), vh, NULL));
  g_assert_cmpfloat (dw[0], ==, v[XRLAB_QUANTITY_DELTA]);
  g_assert_cmpfloat (ds[0], ==, vh[XRLAB_QUANTITY_DELTA]);
  /* The tables differ there by a few 1e-4 (f1 of O and Si). */
  g_assert_cmpfloat (dw[0], !=, ds[0]);
  g_assert_cmpfloat (fabs (dw[0] / ds[0] - 1.0), <, 1e-2);
  /* One point outside its table's range is refused with the table named. */
  g_assert_false (xrlab_optics_compute_point (&m, 40.0, XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_DELTA), vh, &error));
  g_assert_error (error, XRLAB_OPTICS_ERROR, XRLAB_OPTICS_ERROR_ENERGY);
  g_assert_nonnull (strstr (error->message, "Henke"));
}

static gpointer
load_all (gpointer data)
{
  for (int z = XRLAB_ELEMENT_Z_MAX; z >= 1; z--)
    g_assert_nonnull (xrlab_scattering_table_get (XRLAB_TABLE_CHANTLER, z, NULL));
  return NULL;
}

/* Loaded once, from several threads at the same time. */
static void
test_threads (void)
{
  GThread *t[4];

  for (int i = 0; i < 4; i++)
    t[i] = g_thread_new ("load", load_all, NULL);
  for (int i = 0; i < 4; i++)
    g_thread_join (t[i]);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  xrlab_init ();
  g_test_add_func ("/chantler/threads", test_threads);
  g_test_add_func ("/chantler/nodes", test_nodes);
  g_test_add_func ("/chantler/ranges", test_ranges);
  g_test_add_func ("/chantler/scipy-parity", test_scipy_parity);
  g_test_add_func ("/chantler/xraydb-materials", test_xraydb_materials);
  g_test_add_func ("/chantler/optics-totals", test_optics_totals);
  g_test_add_func ("/chantler/scatter", test_scatter);
  g_test_add_func ("/chantler/henke-through-generic", test_henke_through_generic);
  g_test_add_func ("/chantler/names", test_names);
  g_test_add_func ("/chantler/choice", test_choice);
  g_test_add_func ("/chantler/grid-table", test_grid_table);
  return g_test_run ();
}
