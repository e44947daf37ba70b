/* xrlab-presets.c -- common materials, xraylib's NIST compounds, edges
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-presets.h"

#include <math.h>
#include <string.h>

#include "xrlab-xraylib-data.h"

#include "xrlab-energy.h"
#include "xrlab-util.h"

/* Densities at room temperature (CRC Handbook of Chemistry and Physics;
 * gases at 0 °C and 1 atm), the values CXRO's and most beamline tools use. */
static const XrlabPreset common[] = {
  { "Silicon",                 "Si",           2.33,     XRLAB_PRESET_COMMON, "crystalline" },
  { "Fused silica",            "SiO2",         2.2,      XRLAB_PRESET_COMMON, "amorphous SiO2, glass" },
  { "Quartz",                  "SiO2",         2.65,     XRLAB_PRESET_COMMON, "crystalline SiO2" },
  { "Sapphire",                "Al2O3",        3.95,     XRLAB_PRESET_COMMON, "alumina, corundum" },
  { "Diamond",                 "C",            3.52,     XRLAB_PRESET_COMMON, "carbon" },
  { "Graphite",                "C",            2.26,     XRLAB_PRESET_COMMON, "carbon" },
  { "Gold",                    "Au",           19.3,     XRLAB_PRESET_COMMON, "" },
  { "Platinum",                "Pt",           21.45,    XRLAB_PRESET_COMMON, "" },
  { "Copper",                  "Cu",           8.96,     XRLAB_PRESET_COMMON, "" },
  { "Water",                   "H2O",          1.0,      XRLAB_PRESET_COMMON, "liquid" },
  { "Heavy water",             "D2O",          1.107,    XRLAB_PRESET_COMMON, "liquid" },
  { "Kapton",                  "C22H10N2O5",   1.42,     XRLAB_PRESET_COMMON, "polyimide film" },
  { "Mylar",                   "C10H8O4",      1.38,     XRLAB_PRESET_COMMON, "PET, polyethylene terephthalate" },
  { "Silicon nitride",         "Si3N4",        3.44,     XRLAB_PRESET_COMMON, "windows, membranes" },
  { "Beryllium",               "Be",           1.848,    XRLAB_PRESET_COMMON, "windows" },
  { "Aluminium",               "Al",           2.70,     XRLAB_PRESET_COMMON, "filters" },
  { "Titanium",                "Ti",           4.506,    XRLAB_PRESET_COMMON, "" },
  { "Chromium",                "Cr",           7.19,     XRLAB_PRESET_COMMON, "adhesion layers" },
  { "Iron",                    "Fe",           7.874,    XRLAB_PRESET_COMMON, "" },
  { "Nickel",                  "Ni",           8.908,    XRLAB_PRESET_COMMON, "" },
  { "Germanium",               "Ge",           5.323,    XRLAB_PRESET_COMMON, "" },
  { "Molybdenum",              "Mo",           10.28,    XRLAB_PRESET_COMMON, "multilayers" },
  { "Ruthenium",               "Ru",           12.45,    XRLAB_PRESET_COMMON, "" },
  { "Rhodium",                 "Rh",           12.41,    XRLAB_PRESET_COMMON, "mirror coatings" },
  { "Palladium",               "Pd",           12.02,    XRLAB_PRESET_COMMON, "" },
  { "Silver",                  "Ag",           10.49,    XRLAB_PRESET_COMMON, "" },
  { "Tantalum",                "Ta",           16.69,    XRLAB_PRESET_COMMON, "" },
  { "Tungsten",                "W",            19.25,    XRLAB_PRESET_COMMON, "multilayers" },
  { "Iridium",                 "Ir",           22.56,    XRLAB_PRESET_COMMON, "mirror coatings" },
  { "Lead",                    "Pb",           11.34,    XRLAB_PRESET_COMMON, "shielding" },
  { "Boron carbide",           "B4C",          2.52,     XRLAB_PRESET_COMMON, "multilayers, mirror coatings" },
  { "Silicon carbide",         "SiC",          3.21,     XRLAB_PRESET_COMMON, "" },
  { "Gallium arsenide",        "GaAs",         5.3176,   XRLAB_PRESET_COMMON, "" },
  { "Indium phosphide",        "InP",          4.81,     XRLAB_PRESET_COMMON, "" },
  { "Magnesium oxide",         "MgO",          3.58,     XRLAB_PRESET_COMMON, "substrates" },
  { "Strontium titanate",      "SrTiO3",       5.12,     XRLAB_PRESET_COMMON, "substrates" },
  { "Lanthanum aluminate",     "LaAlO3",       6.52,     XRLAB_PRESET_COMMON, "substrates" },
  { "Titanium dioxide",        "TiO2",         4.23,     XRLAB_PRESET_COMMON, "rutile" },
  { "Zinc oxide",              "ZnO",          5.61,     XRLAB_PRESET_COMMON, "" },
  { "Hematite",                "Fe2O3",        5.24,     XRLAB_PRESET_COMMON, "iron(III) oxide" },
  { "Magnetite",               "Fe3O4",        5.17,     XRLAB_PRESET_COMMON, "" },
  { "Calcium fluoride",        "CaF2",         3.18,     XRLAB_PRESET_COMMON, "" },
  { "Lithium fluoride",        "LiF",          2.635,    XRLAB_PRESET_COMMON, "" },
  { "Boron nitride",           "BN",           2.1,      XRLAB_PRESET_COMMON, "hexagonal" },
  { "PMMA",                    "C5H8O2",       1.18,     XRLAB_PRESET_COMMON, "poly(methyl methacrylate), resist" },
  { "Polycarbonate",           "C16H14O3",     1.20,     XRLAB_PRESET_COMMON, "" },
  { "Polyethylene",            "C2H4",         0.94,     XRLAB_PRESET_COMMON, "" },
  { "Polystyrene",             "C8H8",         1.05,     XRLAB_PRESET_COMMON, "" },
  { "PDMS",                    "C2H6OSi",      0.97,     XRLAB_PRESET_COMMON, "polydimethylsiloxane" },
  { "Helium",                  "He",           1.786e-4, XRLAB_PRESET_COMMON, "gas, 0 °C, 1 atm" },
  { "Nitrogen",                "N2",           1.2506e-3, XRLAB_PRESET_COMMON, "gas, 0 °C, 1 atm" },
  { "Argon",                   "Ar",           1.784e-3, XRLAB_PRESET_COMMON, "gas, 0 °C, 1 atm" },
};

static GPtrArray *presets;   /* of XrlabPreset *, built once */

static char *
nist_formula (const XrlabXraylibCompound *c)
{
  const int *z = xrlab_xraylib_nist_z + c->first;
  const double *w = xrlab_xraylib_nist_fraction + c->first;
  GString *s = g_string_new (NULL);

  if (c->n_elements == 1)
    {
      g_string_append (s, xrlab_element_get_symbol (z[0]));
      return g_string_free (s, FALSE);
    }
  for (int i = 0; i < c->n_elements; i++)
    {
      char buf[G_ASCII_DTOSTR_BUF_SIZE];

      if (i > 0)
        g_string_append (s, " // ");
      /* xraylib's fractions have at most 6 significant digits: 12 keep them
       * and drop the noise of the ×100 ("9.4935", not "9.493500000000001"). */
      if (i + 1 < c->n_elements)
        g_string_append_printf (s, "%swt%% ", g_ascii_formatd (buf, sizeof buf, "%.12g", w[i] * 100.0));
      g_string_append (s, xrlab_element_get_symbol (z[i]));
    }
  return g_string_free (s, FALSE);
}

static void
presets_build (void)
{
  presets = g_ptr_array_new ();
  for (gsize i = 0; i < G_N_ELEMENTS (common); i++)
    g_ptr_array_add (presets, (gpointer) &common[i]);

  for (unsigned i = 0; i < xrlab_xraylib_n_nist; i++)
    {
      const XrlabXraylibCompound *c = &xrlab_xraylib_nist[i];
      gboolean ok = c->n_elements >= 1 && c->density_g_cm3 > 0;

      for (int k = 0; ok && k < c->n_elements; k++)
        ok = (xrlab_xraylib_nist_z[c->first + k] >= 1
              && xrlab_xraylib_nist_z[c->first + k] <= XRLAB_ELEMENT_Z_MAX);
      if (ok)
        {
          XrlabPreset *p = g_new0 (XrlabPreset, 1);
          p->name = g_strdup (c->name);
          p->formula = nist_formula (c);
          p->density_g_cm3 = c->density_g_cm3;
          p->source = XRLAB_PRESET_NIST;
          p->note = "NIST (xraylib)";
          g_ptr_array_add (presets, p);
        }
    }
}

static void
presets_ensure (void)
{
  static gsize once = 0;

  if (g_once_init_enter (&once))
    {
      presets_build ();
      g_once_init_leave (&once, 1);
    }
}

gsize
xrlab_presets_get_n (void)
{
  presets_ensure ();
  return presets->len;
}

const XrlabPreset *
xrlab_presets_get (gsize index)
{
  presets_ensure ();
  g_return_val_if_fail (index < presets->len, NULL);
  return g_ptr_array_index (presets, index);
}

/* Whether @name, case-folded, is @folded; without a copy when @name is
 * ASCII (where case folding is g_ascii_tolower()). */
static gboolean
name_is_folded (const char *name, const char *folded)
{
  const char *n = name, *f = folded;

  for (; *n != '\0' && !(*n & 0x80); n++, f++)
    if (g_ascii_tolower (*n) != *f)
      return FALSE;
  if (*n == '\0')
    return *f == '\0';
  {
    g_autofree char *nf = g_utf8_casefold (name, -1);
    return strcmp (nf, folded) == 0;
  }
}

/* Whether one of xraylib's NIST compounds is named @folded (case-folded),
 * read from its list of names without building the presets. */
static gboolean
nist_has_name (const char *folded)
{
  for (unsigned i = 0; i < xrlab_xraylib_n_nist; i++)
    if (name_is_folded (xrlab_xraylib_nist[i].name, folded))
      return TRUE;
  return FALSE;
}

const XrlabPreset *
xrlab_presets_lookup (const char *text)
{
  g_autofree char *folded = NULL;

  if (text == NULL || !g_utf8_validate (text, -1, NULL))
    return NULL;
  folded = g_utf8_casefold (text, -1);
  /* The common presets come first in the list, and a name before a formula:
   * the NIST compounds are built (formatting their formulas) only when one
   * of them can be the answer, not for "SiO2" or "Si". */
  for (gsize i = 0; i < G_N_ELEMENTS (common); i++)
    if (name_is_folded (common[i].name, folded))
      return &common[i];
  if (nist_has_name (folded))
    {
      presets_ensure ();
      for (guint i = G_N_ELEMENTS (common); i < presets->len; i++)
        {
          const XrlabPreset *p = g_ptr_array_index (presets, i);
          if (name_is_folded (p->name, folded))
            return p;
        }
    }
  for (gsize i = 0; i < G_N_ELEMENTS (common); i++)
    if (strcmp (common[i].formula, text) == 0)
      return &common[i];
  /* A NIST formula is an element's symbol or a mixture with " // ". */
  if (strlen (text) > 3 && strstr (text, " // ") == NULL)
    return NULL;
  presets_ensure ();
  for (guint i = G_N_ELEMENTS (common); i < presets->len; i++)
    {
      const XrlabPreset *p = g_ptr_array_index (presets, i);
      if (strcmp (p->formula, text) == 0)
        return p;
    }
  return NULL;
}

static gboolean
contains_casefold (const char *haystack, const char *needle_folded)
{
  g_autofree char *h = g_utf8_casefold (haystack, -1);
  return strstr (h, needle_folded) != NULL;
}

GPtrArray *
xrlab_presets_search (const char *text)
{
  GPtrArray *out = g_ptr_array_new ();
  g_autofree char *needle = NULL;

  presets_ensure ();
  if (text != NULL && text[0] != '\0')
    needle = g_utf8_casefold (text, -1);
  for (guint i = 0; i < presets->len; i++)
    {
      const XrlabPreset *p = g_ptr_array_index (presets, i);
      if (needle == NULL || contains_casefold (p->name, needle)
          || contains_casefold (p->formula, needle) || contains_casefold (p->note, needle))
        g_ptr_array_add (out, (gpointer) p);
    }
  return out;
}

gsize
xrlab_presets_get_edges (int z, XrlabEdgeEnergy edges[XRLAB_EDGE_N_EDGES])
{
  gsize n = 0;

  for (int e = 0; e < XRLAB_EDGE_N_EDGES; e++)
    {
      double kev;
      if (xrlab_element_get_edge_kev (z, (XrlabEdge) e, &kev))
        {
          edges[n].z = z;
          edges[n].edge = (XrlabEdge) e;
          edges[n].energy_kev = kev;
          n++;
        }
    }
  return n;
}

static int
compare_edges (gconstpointer a, gconstpointer b)
{
  double x = ((const XrlabEdgeEnergy *) a)->energy_kev;
  double y = ((const XrlabEdgeEnergy *) b)->energy_kev;
  return (x > y) - (x < y);
}

static int
compare_table_edges (gconstpointer a, gconstpointer b)
{
  double x = ((const XrlabTableEdgeRef *) a)->edge->energy_ev;
  double y = ((const XrlabTableEdgeRef *) b)->edge->energy_ev;
  return (x > y) - (x < y);
}

/* Appends the edges of table @table of element @z within [@lo_ev, @hi_ev]
 * that @choice takes from that table. */
static gboolean
append_table_edges (GArray *out, int z, XrlabTable table, XrlabTableChoice choice,
                    double lo_ev, double hi_ev, GError **error)
{
  const XrlabScatteringTable *t = xrlab_scattering_table_get (table, z, error);

  if (t == NULL)
    return FALSE;
  for (gsize i = 0; i < t->n_edges; i++)
    {
      double ev = t->edges[i].energy_ev;
      XrlabTableEdgeRef ref = { z, table, &t->edges[i], -1 };

      if (ev < lo_ev || ev > hi_ev || ev < t->valid_min_ev || ev > t->valid_max_ev)
        continue;
      if (xrlab_energy_choose_table (choice, ev / 1000.0, ev / 1000.0) != table)
        continue;
      for (int shell = 0; t->edges[i].shell != NULL && shell < XRLAB_EDGES_N_SHELLS; shell++)
        if (strcmp (t->edges[i].shell, xrlab_edges_shell_name (shell)) == 0)
          ref.shell = shell;
      g_array_append_val (out, ref);
    }
  return TRUE;
}

GArray *
xrlab_presets_get_table_edges (const int *z, gsize n_z, XrlabTableChoice choice,
                               double min_kev, double max_kev, GError **error)
{
  g_autoptr(GArray) out = g_array_new (FALSE, FALSE, sizeof (XrlabTableEdgeRef));
  gboolean seen[XRLAB_ELEMENT_Z_MAX + 1] = { FALSE, };

  g_return_val_if_fail ((guint) choice < XRLAB_TABLE_CHOICE_N, NULL);
  for (gsize i = 0; i < n_z; i++)
    {
      if (z[i] < 1 || z[i] > XRLAB_ELEMENT_Z_MAX || seen[z[i]])
        continue;
      seen[z[i]] = TRUE;
      for (int table = 0; table < XRLAB_TABLE_N_TABLES; table++)
        if ((choice == XRLAB_TABLE_CHOICE_AUTO || (int) choice == table)
            && !append_table_edges (out, z[i], (XrlabTable) table, choice,
                                    min_kev * 1000.0, max_kev * 1000.0, error))
          return NULL;
    }
  g_array_sort (out, compare_table_edges);
  return g_steal_pointer (&out);
}

GArray *
xrlab_presets_get_formula_edges (const XrlabFormula *formula, double min_kev, double max_kev)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (XrlabEdgeEnergy));
  const int *z = xrlab_formula_get_z (formula);
  gsize n = xrlab_formula_get_n_atoms (formula);
  gboolean seen[XRLAB_ELEMENT_Z_MAX + 1] = { FALSE, };

  for (gsize i = 0; i < n; i++)
    {
      XrlabEdgeEnergy edges[XRLAB_EDGE_N_EDGES];
      gsize k;

      if (seen[z[i]])
        continue;
      seen[z[i]] = TRUE;
      k = xrlab_presets_get_edges (z[i], edges);
      for (gsize j = 0; j < k; j++)
        if (edges[j].energy_kev >= min_kev && edges[j].energy_kev <= max_kev)
          g_array_append_val (out, edges[j]);
    }
  g_array_sort (out, compare_edges);
  return out;
}

/* ---- plot markers ---------------------------------------------------------- */

int
xrlab_presets_shell_priority (int shell)
{
  /* The first and last shell of each of K, L, M, N, O. */
  static const int first[] = { 0, 1, 4, 9, 16 }, last[] = { 0, 3, 8, 15, 22 };

  for (guint g = 0; g < G_N_ELEMENTS (first); g++)
    if (shell >= first[g] && shell <= last[g])
      return first[g] + (last[g] - shell);
  return shell;
}

static int
compare_shell_edges (gconstpointer a, gconstpointer b)
{
  double x = ((const XrlabShellEdge *) a)->energy_kev;
  double y = ((const XrlabShellEdge *) b)->energy_kev;
  return (x > y) - (x < y);
}

GArray *
xrlab_presets_get_formula_shells (const XrlabFormula *formula, double min_kev, double max_kev, int max_shell)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (XrlabShellEdge));
  const int *z = xrlab_formula_get_z (formula);
  gsize n = xrlab_formula_get_n_atoms (formula);
  gboolean seen[XRLAB_ELEMENT_Z_MAX + 1] = { FALSE, };

  max_shell = CLAMP (max_shell, 0, XRLAB_SHELL_O7);
  for (gsize i = 0; i < n; i++)
    {
      if (z[i] < 1 || z[i] > XRLAB_ELEMENT_Z_MAX || seen[z[i]])
        continue;
      seen[z[i]] = TRUE;
      for (int shell = 0; shell <= max_shell; shell++)
        {
          double kev = xrlab_xraylib_edge (z[i], shell);
          XrlabShellEdge e = { z[i], shell, kev };
          if (kev > 0 && isfinite (kev) && kev >= min_kev && kev <= max_kev)
            g_array_append_val (out, e);
        }
    }
  g_array_sort (out, compare_shell_edges);
  return out;
}
