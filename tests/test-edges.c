/* test-edges.c -- absorption edges in the tables: the rules on synthetic
 * data, every edge of every table against the Python fixture, the jumps
 * where the curves jump, and the interpolation split there
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include <glib.h>

#include "xrlab-edges.h"
#include "xrlab-elements.h"
#include "xrlab-init.h"
#include "xrlab-pchip.h"
#include "xrlab-presets.h"
#include "xrlab-util.h"

/* Rows out of order: where E steps back, the earlier rows at or above it go. */
static void
test_keep_in_order (void)
{
  const double si[] = { 1815.0, 1838.8, 1839.0, 1838.9, 1860.0 };
  const double deep[] = { 1, 2, 3, 4, 2.5, 5 };
  const double same[] = { 1, 2, 2, 3 };
  gboolean keep[6];

  g_assert_cmpuint (xrlab_edges_keep_in_order (si, 5, keep), ==, 4);
  g_assert_true (keep[0] && keep[1] && !keep[2] && keep[3] && keep[4]);
  g_assert_cmpuint (xrlab_edges_keep_in_order (deep, 6, keep), ==, 4);
  g_assert_true (keep[0] && keep[1] && !keep[2] && !keep[3] && keep[4] && keep[5]);
  /* A repeated energy stays (a step of zero width). */
  g_assert_cmpuint (xrlab_edges_keep_in_order (same, 4, keep), ==, 4);
}

/* A grid like Henke's: 1.6 % steps in E; f2 rising evenly 8 % a row at low
 * energy (steps where the rows are at most 0.5 eV apart, but no edge
 * position: the rows are as far apart as the grid's), a pair 0.2 eV apart
 * with a jump (a step and an edge), and a rise resolved over a refined grid
 * (a rise and an edge, not a step). */
static void
test_rules (void)
{
  double e[200], f2[200];
  gsize n = 0, rows[200], n_steps, n_rises, n_grid = 0;
  XrlabEdgePosition pos[200];

  for (int i = 0; i < 80; i++, n++)
    {
      e[n] = 10.0 * pow (1.016, i);
      f2[n] = 1.0 * pow (1.08, i);
      if (i > 0 && e[n] - e[n - 1] <= XRLAB_EDGE_STEP_MAX_WIDTH_EV)
        n_grid++;
    }
  g_assert_cmpuint (n_grid, >, 60);
  g_assert_cmpuint (n_grid, <, 79);
  /* 100 .. 300 eV: smooth, with a step at 200 eV (199.9 / 200.1). */
  for (double x = 100.0; x < 300.0; x *= 1.016)
    {
      e[n] = x;
      f2[n++] = (x < 200.0 ? 2.0 : 20.0) * pow (200.0 / x, 2);
      if (x < 200.0 && x * 1.016 > 200.0)
        {
          e[n] = 199.9;
          f2[n++] = 2.0 * pow (200.0 / 199.9, 2);
          e[n] = 200.1;
          f2[n++] = 20.0 * pow (200.0 / 200.1, 2);
        }
    }
  for (gsize i = 0; i + 1 < n; i++)
    g_assert_cmpfloat (e[i + 1], >, e[i]);
  /* Around 1000 eV: rows 1 eV apart, f2 from 1 to 3 over 5 rows. */
  {
    const double rise[] = { 1.0, 1.04, 1.3, 2.6, 2.95, 3.0 };
    for (int i = 0; i < 6; i++, n++)
      {
        e[n] = 997.0 + i;
        f2[n] = rise[i];
      }
  }
  g_assert_cmpuint (n, <=, G_N_ELEMENTS (e));
  n_steps = xrlab_edges_find_steps (e, f2, n, rows);
  g_assert_cmpuint (n_steps, ==, n_grid + 1);
  for (gsize i = 0; i < n_grid; i++)
    {
      g_assert_cmpuint (rows[i], ==, i);
      g_assert_true (xrlab_edges_is_step (e, f2, rows[i]));
    }
  g_assert_cmpfloat (e[rows[n_grid]], ==, 199.9);
  g_assert_cmpfloat (e[rows[n_grid] + 1], ==, 200.1);
  g_assert_false (xrlab_edges_is_step (e, f2, rows[n_grid] + 1));
  n_rises = xrlab_edges_find_rises (e, f2, n, rows);
  g_assert_cmpuint (n_rises, ==, 1);
  g_assert_cmpfloat (e[rows[0]], ==, 999.0);     /* 1.3 -> 2.6, the steepest */

  /* The positions, labelled as chlorine's (L3 at 200 eV, K at 2822 eV): the
   * step and the rise, not the grid. */
  g_assert_cmpuint (xrlab_edges_find_positions (17, e, f2, n, pos), ==, 2);
  g_assert_cmpfloat (e[pos[0].row], ==, 199.9);
  g_assert_true (pos[0].step);
  g_assert_cmpstr (xrlab_edges_shell_name (pos[0].shell), ==, "L3");
  g_assert_cmpfloat (e[pos[1].row], ==, 999.0);
  g_assert_false (pos[1].step);
  g_assert_cmpstr (xrlab_edges_shell_name (pos[1].shell), ==, "K");
  g_assert_cmpfloat_with_epsilon (pos[1].xraylib_ev, 2822.4, 1.0);

  /* Two jumps nearest the same shell: the steeper is its position. */
  {
    const double ew[] = { 190, 193, 195.9, 196.1, 198, 199.9, 200.1, 203, 206 };
    const double fw[] = { 1, 1, 1, 2, 2, 2, 20, 20, 20 };
    g_assert_cmpuint (xrlab_edges_find_steps (ew, fw, 9, rows), ==, 2);
    g_assert_cmpuint (xrlab_edges_find_positions (17, ew, fw, 9, pos), ==, 1);
    g_assert_cmpuint (pos[0].row, ==, 5);
  }

  /* Rule 1: the same jump over 0.6 eV is no step. */
  {
    const double ew[] = { 100, 101.6, 103.2, 103.8, 105.4, 107 };
    const double fw[] = { 1, 1, 1, 10, 10, 10 };
    g_assert_cmpuint (xrlab_edges_find_steps (ew, fw, 6, rows), ==, 0);
  }
  /* Rule 2: a rise of 5 % is none. */
  {
    const double ew[] = { 100, 101.6, 103.2, 103.4, 105, 106.6 };
    const double fw[] = { 1, 1, 1, 1.05, 1.05, 1.05 };
    g_assert_cmpuint (xrlab_edges_find_steps (ew, fw, 6, rows), ==, 0);
  }
  /* From f2 = 0 (H, He in Chantler): a step of infinite slope. */
  {
    const double ew[] = { 10, 11, 12, 12.0001, 13, 14 };
    const double fw[] = { 0, 0, 0, 1.0, 0.9, 0.8 };
    g_assert_cmpuint (xrlab_edges_find_steps (ew, fw, 6, rows), ==, 1);
    g_assert_cmpuint (rows[0], ==, 2);
    g_assert_true (isinf (xrlab_edges_log_slope (ew, fw, 2, 3)));
    g_assert_cmpfloat (xrlab_edges_log_slope (ew, fw, 0, 1), ==, 0.0);
  }
}

static void
test_shells (void)
{
  double ev = 0.0;

  g_assert_cmpstr (xrlab_edges_shell_name (0), ==, "K");
  g_assert_cmpstr (xrlab_edges_shell_name (3), ==, "L3");
  g_assert_cmpstr (xrlab_edges_shell_name (13), ==, "N5");
  g_assert_cmpstr (xrlab_edges_shell_name (27), ==, "P5");
  g_assert_cmpint (xrlab_edges_nearest_shell (8, 543.1, &ev), ==, 0);
  g_assert_cmpfloat_with_epsilon (ev, 532.0, 1e-9);
  g_assert_cmpint (xrlab_edges_nearest_shell (29, 932.5, &ev), ==, 3);
  g_assert_cmpfloat_with_epsilon (ev, 931.1, 1e-9);
  g_assert_cmpint (xrlab_edges_nearest_shell (29, 100000.0, &ev), ==, 0);
}

/* An edge of @table and element @z at @energy_ev (the jump position). */
static const XrlabTableEdge *
find_edge (XrlabTable table, int z, double energy_ev, double tolerance_ev)
{
  const XrlabScatteringTable *t = xrlab_scattering_table_get (table, z, NULL);

  for (gsize i = 0; i < t->n_edges; i++)
    if (fabs (t->edges[i].energy_ev - energy_ev) <= tolerance_ev)
      return &t->edges[i];
  return NULL;
}

/* The edges the tables show, not xraylib's: O K at 543.1 eV in Henke
 * (xraylib 532 eV), and f2 jumps across each edge while the intervals of
 * the same width just beside it hardly change. */
static void
test_named_edges (void)
{
  static const struct {
    int z;
    double ev;
    const char *shell;
    double xraylib_ev;
  } henke[] = {
    { 8, 543.1, "K", 532.0 },
    { 7, 409.9, "K", 401.6 },
    { 29, 8978.9, "K", 8978.9 },
    { 29, 932.5, "L3", 931.1 },
    { 26, 706.8, "L3", 708.1 },
    { 26, 7112.0, "K", 7112.0 },
    { 14, 1838.85, "K", 1838.9 },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (henke); i++)
    {
      const XrlabTableEdge *edge = find_edge (XRLAB_TABLE_HENKE, henke[i].z, henke[i].ev, 1e-9);
      const XrlabHenkeTable *t = xrlab_henke_get (henke[i].z, NULL);
      double w, jump, below, above;

      g_assert_nonnull (edge);
      g_assert_true (edge->step);
      g_assert_cmpstr (edge->shell, ==, henke[i].shell);
      g_assert_cmpfloat_with_epsilon (edge->xraylib_ev, henke[i].xraylib_ev, 1e-9);
      w = edge->upper_ev - edge->lower_ev;
      g_assert_cmpfloat (w, <=, 0.2 + 1e-9);
      jump = xrlab_pchip_eval (t->f2, edge->upper_ev, NULL) / xrlab_pchip_eval (t->f2, edge->lower_ev, NULL);
      below = xrlab_pchip_eval (t->f2, edge->lower_ev - 1.0, NULL)
              / xrlab_pchip_eval (t->f2, edge->lower_ev - 1.0 - w, NULL);
      above = xrlab_pchip_eval (t->f2, edge->upper_ev + 1.0 + w, NULL)
              / xrlab_pchip_eval (t->f2, edge->upper_ev + 1.0, NULL);
      g_assert_cmpfloat (jump, >, 5.0);
      g_assert_cmpfloat (fabs (below - 1.0), <, 0.01);
      g_assert_cmpfloat (fabs (above - 1.0), <, 0.01);
      g_assert_cmpfloat_with_epsilon (edge->f2_ratio, jump, 1e-12 * jump);
    }
  /* xraylib's O K energy is no edge of the Henke table: f2 is smooth there. */
  {
    const XrlabHenkeTable *o = xrlab_henke_get (8, NULL);
    g_assert_null (find_edge (XRLAB_TABLE_HENKE, 8, 532.0, 5.0));
    g_assert_cmpfloat (xrlab_pchip_eval (o->f2, 533.0, NULL) / xrlab_pchip_eval (o->f2, 531.0, NULL), <, 1.01);
  }
  /* Chantler resolves its edges over a few rows, at xraylib's energies. */
  {
    const XrlabTableEdge *cu_k = find_edge (XRLAB_TABLE_CHANTLER, 29, 8978.9, 1.5);
    const XrlabTableEdge *o_k = find_edge (XRLAB_TABLE_CHANTLER, 8, 532.0, 0.1);
    const XrlabTableEdge *au_k = find_edge (XRLAB_TABLE_CHANTLER, 79, 80724.9, 100.0);
    g_assert_nonnull (cu_k);
    g_assert_false (cu_k->step);
    g_assert_cmpstr (cu_k->shell, ==, "K");
    g_assert_cmpfloat (cu_k->f2_ratio, >, 3.0);
    g_assert_nonnull (o_k);
    g_assert_cmpstr (o_k->shell, ==, "K");
    g_assert_nonnull (au_k);
    g_assert_cmpstr (au_k->shell, ==, "K");
  }
}

/* The fix the split makes (README: "split at absorption edges"): Cu f1 at
 * 8943.81 eV, between the last two rows below the K edge, is SciPy's PCHIP
 * on the rows below the edge (20.6636), not the 19.11 of one PCHIP across. */
static void
test_cu_below_k (void)
{
  const XrlabHenkeTable *cu = xrlab_henke_get (29, NULL);

  g_assert_cmpfloat_with_epsilon (xrlab_pchip_eval (cu->f1, 8943.81, NULL), 20.66359517854566, 1e-11);
  g_assert_cmpfloat_with_epsilon (xrlab_pchip_eval (cu->f2, 8943.81, NULL), 0.49919328552539327, 1e-14);
  g_assert_cmpuint (xrlab_pchip_get_n_segments (cu->f2), ==, 3);
}

typedef struct {
  char *table, *symbol, *kind, *shell;
  double before, lower, upper, after, ratio, xraylib_ev;
} FixtureEdge;

static void
fixture_edge_free (gpointer p)
{
  FixtureEdge *f = p;
  g_free (f->table);
  g_free (f->symbol);
  g_free (f->kind);
  g_free (f->shell);
  g_free (f);
}

/* The rows of tests/data/@name (comments and the header skipped), each
 * split into its @n_fields fields. */
static GPtrArray *
read_fixture_rows (const char *name, guint n_fields)
{
  g_autofree char *path = g_build_filename (XRLAB_TEST_SRCDIR, "data", name, NULL);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GError) error = NULL;
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);

  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  g_assert_no_error (error);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char **f;

      if (lines[i][0] == '#' || lines[i][0] == '\0' || g_str_has_prefix (lines[i], "table,"))
        continue;
      f = g_strsplit (lines[i], ",", -1);
      g_assert_cmpuint (g_strv_length (f), ==, n_fields);
      g_ptr_array_add (rows, f);
    }
  return rows;
}

/* tests/data/table-edges.csv, the edge positions, or (@steps)
 * tests/data/table-steps.csv, every step of every table (kind "step", no
 * shell). */
static GPtrArray *
read_fixture (gboolean steps)
{
  g_autoptr(GPtrArray) rows = read_fixture_rows (steps ? "table-steps.csv" : "table-edges.csv",
                                                 steps ? 6 : 10);
  GPtrArray *out = g_ptr_array_new_with_free_func (fixture_edge_free);
  const guint at = steps ? 2 : 3;   /* before_ev */

  for (guint i = 0; i < rows->len; i++)
    {
      char **f = g_ptr_array_index (rows, i);
      FixtureEdge *e = g_new0 (FixtureEdge, 1);

      e->table = g_strdup (f[0]);
      e->symbol = g_strdup (f[1]);
      e->kind = g_strdup (steps ? "step" : f[2]);
      e->shell = steps ? NULL : g_strdup (f[8]);
      e->before = g_ascii_strtod (f[at], NULL);
      e->lower = g_ascii_strtod (f[at + 1], NULL);
      e->upper = g_ascii_strtod (f[at + 2], NULL);
      e->after = g_ascii_strtod (f[at + 3], NULL);
      e->ratio = steps ? NAN : g_ascii_strtod (f[7], NULL);
      e->xraylib_ev = steps ? NAN : g_ascii_strtod (f[9], NULL);
      g_ptr_array_add (out, e);
    }
  return out;
}

/* tests/data/table-steps.csv: the interpolants are split at exactly these
 * steps -- as many segments as steps + 1, and the straight line across
 * each (f2, and f1 where it is tabulated; a step of zero width has no
 * interval). */
static void
test_steps (void)
{
  g_autoptr(GPtrArray) fix = read_fixture (TRUE);
  guint counts[XRLAB_TABLE_N_TABLES][XRLAB_ELEMENT_Z_MAX + 1] = { { 0 } };
  guint n_linear = 0;

  for (guint i = 0; i < fix->len; i++)
    {
      const FixtureEdge *p = g_ptr_array_index (fix, i);
      XrlabTable table;
      const XrlabScatteringTable *t;
      int z = xrlab_element_lookup (p->symbol, -1);

      g_assert_true (xrlab_table_lookup (p->table, &table));
      g_assert_cmpint (z, >=, 1);
      counts[table][z]++;
      t = xrlab_scattering_table_get (table, z, NULL);
      if (!(p->upper > p->lower))
        continue;
      for (int c = 0; c < 2; c++)
        {
          const XrlabPchip *f = c == 0 ? t->f2 : t->f1;
          double lo, hi, mid;

          if (c == 1 && !(p->lower >= t->f1_min_ev))
            continue;
          lo = xrlab_pchip_eval (f, p->lower, NULL);
          hi = xrlab_pchip_eval (f, nextafter (p->upper, 0.0), NULL);
          mid = xrlab_pchip_eval (f, p->lower + (p->upper - p->lower) / 3.0, NULL);
          g_assert_cmpfloat_with_epsilon (mid, lo + (hi - lo) / 3.0, 1e-9 * (fabs (lo) + fabs (hi)));
          n_linear++;
        }
    }
  for (int table = 0; table < XRLAB_TABLE_N_TABLES; table++)
    for (int z = 1; z <= XRLAB_ELEMENT_Z_MAX; z++)
      {
        const XrlabScatteringTable *t = xrlab_scattering_table_get (table, z, NULL);
        g_assert_cmpuint (xrlab_pchip_get_n_segments (t->f2), ==, counts[table][z] + 1);
      }
  g_assert_cmpuint (fix->len, >, 2500);
  g_test_message ("%u steps, %u of them checked straight", fix->len, n_linear);
}

/* tests/data/table-edges.csv (the same rules in Python, xraylib's Python
 * binding for the labels): every edge of every table, in order. */
static void
test_fixture (void)
{
  g_autoptr(GPtrArray) fix = read_fixture (FALSE);
  guint next = 0, n_steps = 0;

  for (int table = 0; table < XRLAB_TABLE_N_TABLES; table++)
    for (int z = 1; z <= XRLAB_ELEMENT_Z_MAX; z++)
      {
        const XrlabScatteringTable *t = xrlab_scattering_table_get (table, z, NULL);
        const char *name = xrlab_table_get_name (table);
        const char *sym = xrlab_element_get_symbol (z);

        for (gsize i = 0; i < t->n_edges; i++, next++)
          {
            const XrlabTableEdge *c = &t->edges[i];
            const FixtureEdge *p;

            if (next >= fix->len)
              g_error ("%s %s: xrlab has an edge at %.17g eV that the fixture has not", name, sym, c->energy_ev);
            p = g_ptr_array_index (fix, next);
            if (strcmp (p->table, name) != 0 || strcmp (p->symbol, sym) != 0
                || c->lower_ev != p->lower || c->upper_ev != p->upper)
              g_error ("%s %s: xrlab's edge %.17g-%.17g eV, the fixture's next: %s %s %.17g-%.17g eV",
                       name, sym, c->lower_ev, c->upper_ev, p->table, p->symbol, p->lower, p->upper);
            g_assert_cmpstr (c->step ? "step" : "rise", ==, p->kind);
            g_assert_cmpstr (c->shell, ==, p->shell);
            g_assert_cmpfloat_with_epsilon (c->xraylib_ev, p->xraylib_ev, 1e-12 * p->xraylib_ev);
            if (isinf (p->ratio))
              g_assert_true (isinf (c->f2_ratio));
            else
              g_assert_cmpfloat_with_epsilon (c->f2_ratio, p->ratio, 1e-13 * p->ratio);
            g_assert_cmpfloat (c->energy_ev, ==, 0.5 * (c->lower_ev + c->upper_ev));
            if (i > 0)
              g_assert_cmpfloat (c->energy_ev, >=, t->edges[i - 1].energy_ev);
            n_steps += c->step;
          }
      }
  g_assert_cmpuint (next, ==, fix->len);
  g_assert_cmpuint (n_steps, >, 350);
  g_test_message ("%u edges, %u of them steps", next, n_steps);
}

/* Every interval next to a step, and the step's own, holds points of the
 * SciPy fixture of its table (so the parity tests cover them), for f2 and,
 * where f1 is tabulated, f1. */
static void
check_coverage (const char *table, const char *fixture)
{
  g_autoptr(GPtrArray) fix = read_fixture (TRUE);
  g_autofree char *path = g_build_filename (XRLAB_TEST_SRCDIR, "data", fixture, NULL);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GHashTable) points = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                        (GDestroyNotify) g_array_unref);
  guint n_steps = 0;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) f = NULL;
      g_autofree char *key = NULL;
      GArray *a;
      double e;

      if (lines[i][0] == '#' || lines[i][0] == '\0' || g_str_has_prefix (lines[i], "symbol,"))
        continue;
      f = g_strsplit (lines[i], ",", -1);
      key = g_strconcat (f[0], " ", f[1], NULL);
      a = g_hash_table_lookup (points, key);
      if (a == NULL)
        {
          a = g_array_new (FALSE, FALSE, sizeof (double));
          g_hash_table_insert (points, g_steal_pointer (&key), a);
        }
      e = g_ascii_strtod (f[2], NULL);
      g_array_append_val (a, e);
    }
  for (guint i = 0; i < fix->len; i++)
    {
      const FixtureEdge *p = g_ptr_array_index (fix, i);
      int z = xrlab_element_lookup (p->symbol, -1);
      const XrlabScatteringTable *t;
      const char *cols[] = { "f1", "f2" };

      if (strcmp (p->table, table) != 0)
        continue;
      t = xrlab_scattering_table_get (strcmp (table, "henke") == 0 ? XRLAB_TABLE_HENKE
                                                                     : XRLAB_TABLE_CHANTLER, z, NULL);
      n_steps++;
      for (int c = 0; c < 2; c++)
        {
          const double lo[] = { p->before, p->lower, p->upper };
          const double hi[] = { p->lower, p->upper, p->after };
          g_autofree char *key = g_strconcat (p->symbol, " ", cols[c], NULL);
          GArray *a = g_hash_table_lookup (points, key);

          if (c == 0 && !(p->before >= t->f1_min_ev))
            continue;
          g_assert_nonnull (a);
          for (int j = 0; j < 3; j++)
            {
              guint inside = 0;
              if (isnan (lo[j]) || isnan (hi[j]) || !(hi[j] > lo[j]))
                continue;
              for (guint k = 0; k < a->len; k++)
                inside += g_array_index (a, double, k) > lo[j] && g_array_index (a, double, k) < hi[j];
              if (inside < 2)
                g_error ("%s %s %s: %u fixture points in %.17g-%.17g eV next to the step at %.17g eV",
                         table, p->symbol, cols[c], inside, lo[j], hi[j], p->lower);
            }
        }
    }
  g_assert_cmpuint (n_steps, >, 0);
}

static void
test_coverage (void)
{
  check_coverage ("henke", "pchip-scipy.csv");
  check_coverage ("chantler", "pchip-chantler-scipy.csv");
}

/* The edges a plot marks and `xrlab-cli edges` lists: the tables' own
 * jumps, one table per energy as auto would take it, sorted, within the
 * range asked for and each table's valid range. */
static void
test_table_edges (void)
{
  const int cu_au[] = { 29, 79, 29 };
  const int oxygen = 8;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) all = xrlab_presets_get_table_edges (cu_au, 3, XRLAB_TABLE_CHOICE_AUTO, 0.0,
                                                         INFINITY, &error);
  g_autoptr(GArray) henke = xrlab_presets_get_table_edges (cu_au, 3, XRLAB_TABLE_CHOICE_HENKE, 0.0,
                                                           INFINITY, &error);
  g_autoptr(GArray) window = xrlab_presets_get_table_edges (cu_au, 2, XRLAB_TABLE_CHOICE_CHANTLER,
                                                            8.0, 12.0, &error);
  g_autoptr(GArray) o = xrlab_presets_get_table_edges (&oxygen, 1, XRLAB_TABLE_CHOICE_HENKE, 0.1,
                                                       1.0, &error);
  gboolean au_k = FALSE, cu_k = FALSE;

  g_assert_no_error (error);
  for (guint i = 0; i < all->len; i++)
    {
      const XrlabTableEdgeRef *e = &g_array_index (all, XrlabTableEdgeRef, i);
      gboolean soft = e->edge->energy_ev >= 30.0 && e->edge->energy_ev <= 30000.0;

      g_assert_cmpint (e->table, ==, soft ? XRLAB_TABLE_HENKE : XRLAB_TABLE_CHANTLER);
      g_assert_true (e->edge >= xrlab_scattering_table_get (e->table, e->z, NULL)->edges);
      if (i > 0)
        g_assert_cmpfloat (e->edge->energy_ev, >=, g_array_index (all, XrlabTableEdgeRef, i - 1).edge->energy_ev);
      au_k |= e->z == 79 && g_strcmp0 (e->edge->shell, "K") == 0 && e->table == XRLAB_TABLE_CHANTLER;
      cu_k |= e->z == 29 && g_strcmp0 (e->edge->shell, "K") == 0 && e->edge->energy_ev == 8978.9;
    }
  g_assert_true (au_k && cu_k);
  for (guint i = 0; i < henke->len; i++)
    {
      const XrlabTableEdgeRef *e = &g_array_index (henke, XrlabTableEdgeRef, i);
      g_assert_cmpint (e->table, ==, XRLAB_TABLE_HENKE);
      g_assert_cmpfloat (e->edge->energy_ev, >=, 30.0);
      g_assert_cmpfloat (e->edge->energy_ev, <=, 30000.0);
    }
  g_assert_cmpuint (henke->len, <, all->len);
  /* Cu K (8.98 keV), Au L3 (11.92 keV). */
  g_assert_cmpuint (window->len, ==, 2);
  g_assert_cmpstr (g_array_index (window, XrlabTableEdgeRef, 0).edge->shell, ==, "K");
  g_assert_cmpstr (g_array_index (window, XrlabTableEdgeRef, 1).edge->shell, ==, "L3");
  /* Henke's O K is at 543.1 eV, where the curve jumps, not xraylib's 532 eV. */
  g_assert_cmpuint (o->len, ==, 1);
  g_assert_cmpfloat (g_array_index (o, XrlabTableEdgeRef, 0).edge->energy_ev, ==, 543.1);
  g_assert_cmpfloat (g_array_index (o, XrlabTableEdgeRef, 0).edge->xraylib_ev, ==, 532.0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  xrlab_init ();
  g_test_add_func ("/edges/keep-in-order", test_keep_in_order);
  g_test_add_func ("/edges/rules", test_rules);
  g_test_add_func ("/edges/shells", test_shells);
  g_test_add_func ("/edges/named", test_named_edges);
  g_test_add_func ("/edges/cu-below-k", test_cu_below_k);
  g_test_add_func ("/edges/fixture", test_fixture);
  g_test_add_func ("/edges/steps", test_steps);
  g_test_add_func ("/edges/coverage", test_coverage);
  g_test_add_func ("/edges/table-edges", test_table_edges);
  return g_test_run ();
}
