/* test-xraylib-data.c -- the numbers xrlab takes from xraylib, evaluated
 * when xrlab was built (data/gen-xraylib-data.c), against the library
 * itself: the edge energies, the NIST compounds and the Henke tables'
 * scattering, bit for bit; and the engine's answers made from them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include <glib.h>
#include <xraylib.h>

#include "xrlab-elements.h"
#include "xrlab-elements-private.h"
#include "xrlab-init.h"
#include "xrlab-presets.h"
#include "xrlab-xraylib-data.h"

/* @a and @b the same double, NaN matching NaN. */
static gboolean
same_double (double a, double b)
{
  return (isnan (a) && isnan (b)) || memcmp (&a, &b, sizeof a) == 0;
}

static void
test_version (void)
{
  g_autofree char *v = g_strdup_printf ("%d.%d.%d", XRAYLIB_MAJOR, XRAYLIB_MINOR, XRAYLIB_MICRO);

  g_assert_cmpstr (xrlab_xraylib_version, ==, v);
}

static void
test_edges (void)
{
  guint n_edges = 0;

  for (int s = 0; s < XRLAB_XRAYLIB_N_SHELLS; s++)
    g_assert_cmpfloat (xrlab_xraylib_edge (0, s), ==, 0.0);
  for (int z = 1; z <= XRLAB_XRAYLIB_Z_MAX; z++)
    for (int s = 0; s < XRLAB_XRAYLIB_N_SHELLS; s++)
      {
        xrl_error *err = NULL;
        double kev = EdgeEnergy (z, s, &err);

        if (err != NULL)
          {
            xrl_error_free (err);
            kev = 0.0;
          }
        if (!same_double (xrlab_xraylib_edge (z, s), kev))
          g_error ("Z %d, shell %d: %.17g built in, %.17g from xraylib", z, s,
                   xrlab_xraylib_edge (z, s), kev);
        n_edges += kev > 0;
      }
  /* out of range: none */
  g_assert_cmpfloat (xrlab_xraylib_edge (XRLAB_XRAYLIB_Z_MAX + 1, 0), ==, 0.0);
  g_assert_cmpfloat (xrlab_xraylib_edge (29, -1), ==, 0.0);
  g_assert_cmpfloat (xrlab_xraylib_edge (29, XRLAB_XRAYLIB_N_SHELLS), ==, 0.0);
  g_assert_cmpuint (n_edges, >, 1000);

  /* the engine's edges are these: Cu K at 8.979 keV, Au L3 at 11.919 */
  {
    double kev = 0;

    g_assert_true (xrlab_element_get_edge_kev (29, XRLAB_EDGE_K, &kev));
    g_assert_cmpfloat (kev, ==, EdgeEnergy (29, K_SHELL, NULL));
    g_assert_cmpfloat_with_epsilon (kev, 8.979, 1e-3);
    g_assert_true (xrlab_element_get_edge_kev (79, XRLAB_EDGE_L3, &kev));
    g_assert_cmpfloat (kev, ==, EdgeEnergy (79, L3_SHELL, NULL));
    g_assert_false (xrlab_element_get_edge_kev (1, XRLAB_EDGE_M5, &kev));
  }
}

static void
test_nist (void)
{
  int n = 0;
  char **names = GetCompoundDataNISTList (&n, NULL);

  g_assert_nonnull (names);
  g_assert_cmpuint (xrlab_xraylib_n_nist, ==, (unsigned) n);
  for (int i = 0; i < n; i++)
    {
      struct compoundDataNIST *c = GetCompoundDataNISTByName (names[i], NULL);
      const XrlabXraylibCompound *b = &xrlab_xraylib_nist[i];

      g_assert_nonnull (c);
      g_assert_cmpstr (b->name, ==, c->name);
      g_assert_cmpstr (b->name, ==, names[i]);
      g_assert_true (same_double (b->density_g_cm3, c->density));
      g_assert_cmpint (b->n_elements, ==, c->nElements);
      for (int k = 0; k < c->nElements; k++)
        {
          g_assert_cmpint (xrlab_xraylib_nist_z[b->first + k], ==, c->Elements[k]);
          g_assert_true (same_double (xrlab_xraylib_nist_fraction[b->first + k], c->massFractions[k]));
        }
      FreeCompoundDataNIST (c);
      xrlFree (names[i]);
    }
  xrlFree (names);

  /* the presets are made from them */
  {
    const XrlabPreset *p = xrlab_presets_lookup ("Water, Liquid");

    g_assert_nonnull (p);
    g_assert_cmpint (p->source, ==, XRLAB_PRESET_NIST);
    g_assert_cmpfloat (p->density_g_cm3, ==, 1.0);
    g_assert_cmpstr (p->formula, ==, "11.1894wt% H // O");
  }
}

static double
xraylib_scatter (int z, double energy_ev)
{
  xrl_error *err = NULL;
  double kev = MAX (energy_ev / 1000.0, 0.1), sigma;

  sigma = CS_Rayl (z, kev, &err);
  if (err == NULL)
    sigma += CS_Compt (z, kev, &err);
  if (err != NULL)
    {
      xrl_error_free (err);
      return NAN;
    }
  return sigma * AtomicWeight (z, NULL);
}

static void
test_henke_scatter (void)
{
  guint n_tables = 0;

  g_assert_cmpuint (xrlab_xraylib_henke_scatter_rows[0].n, ==, 0);
  for (int z = 1; z <= XRLAB_XRAYLIB_Z_MAX; z++)
    {
      g_autofree char *name = g_ascii_strdown (xrlab_element_get_symbol (z), -1);
      g_autoptr(GArray) e = g_array_new (FALSE, FALSE, sizeof (double));
      g_autoptr(GArray) f1 = g_array_new (FALSE, FALSE, sizeof (double));
      g_autoptr(GArray) f2 = g_array_new (FALSE, FALSE, sizeof (double));
      g_autoptr(GError) error = NULL;
      GArray *cols[3] = { e, f1, f2 };
      const XrlabXraylibSpan *rows = &xrlab_xraylib_henke_scatter_rows[z];
      const XrlabScatteringTable *t;
      double keys[3];

      if (!xrlab_table_read_columns (XRLAB_TABLE_HENKE, name, 3, cols, keys, &error))
        {
          g_assert_cmpuint (rows->n, ==, 0);
          continue;
        }
      n_tables++;
      g_assert_cmpuint (rows->n, ==, e->len);
      for (guint i = 0; i < e->len; i++)
        {
          double ev = g_array_index (e, double, i);
          double built = xrlab_xraylib_henke_scatter[rows->first + i];

          if (!same_double (built, xraylib_scatter (z, ev)))
            g_error ("%s at %.17g eV: %.17g built in, %.17g from xraylib", name, ev, built,
                     xraylib_scatter (z, ev));
        }
      /* the table's scattering goes through them */
      t = xrlab_scattering_table_get (XRLAB_TABLE_HENKE, z, &error);
      g_assert_no_error (error);
      for (gsize i = 0; i < t->n_rows; i += 37)
        {
          double ev = g_array_index (e, double, i);

          if (ev >= t->f2_min_ev && ev <= t->max_ev)
            g_assert_cmpfloat_with_epsilon (xrlab_scattering_table_eval_scatter (t, ev, NULL)
                                              / xraylib_scatter (z, ev),
                                            1.0, 1e-12);
        }
    }
  g_assert_cmpuint (n_tables, ==, XRLAB_XRAYLIB_Z_MAX);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  xrlab_init ();
  g_test_add_func ("/xraylib-data/version", test_version);
  g_test_add_func ("/xraylib-data/edges", test_edges);
  g_test_add_func ("/xraylib-data/nist", test_nist);
  g_test_add_func ("/xraylib-data/henke-scatter", test_henke_scatter);
  return g_test_run ();
}
