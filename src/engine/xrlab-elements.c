/* xrlab-elements.c -- symbols, names, atomic weights, Henke and Chantler
 * tables, edges
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-elements.h"
#include "xrlab-elements-private.h"
#include "xrlab-util.h"

#include <math.h>
#include <string.h>

#include <gio/gio.h>
#include <glib/gi18n-lib.h>

#include "xrlab-xraylib-data.h"

G_DEFINE_QUARK (xrlab-element-error-quark, xrlab_element_error)

typedef struct {
  const char *symbol;
  const char *name;
  double weight;       /* g/mol */
} ElementInfo;

/* Index = id. Atomic weights: IUPAC/CIAAW 2021, see xrlab-elements.h. This is
 * the only table of atomic weights in xrlab. The names are English; their
 * translations live in the context "element". */
static const ElementInfo elements[XRLAB_ELEMENT_N_IDS] = {
  { NULL, NULL, 0.0 },
  { "H",  NC_("element", "Hydrogen"),      1.008 },
  { "He", NC_("element", "Helium"),        4.002602 },
  { "Li", NC_("element", "Lithium"),       6.94 },
  { "Be", NC_("element", "Beryllium"),     9.0121831 },
  { "B",  NC_("element", "Boron"),         10.81 },
  { "C",  NC_("element", "Carbon"),        12.011 },
  { "N",  NC_("element", "Nitrogen"),      14.007 },
  { "O",  NC_("element", "Oxygen"),        15.999 },
  { "F",  NC_("element", "Fluorine"),      18.998403162 },
  { "Ne", NC_("element", "Neon"),          20.1797 },
  { "Na", NC_("element", "Sodium"),        22.98976928 },
  { "Mg", NC_("element", "Magnesium"),     24.305 },
  { "Al", NC_("element", "Aluminium"),     26.9815384 },
  { "Si", NC_("element", "Silicon"),       28.085 },
  { "P",  NC_("element", "Phosphorus"),    30.973761998 },
  { "S",  NC_("element", "Sulfur"),        32.06 },
  { "Cl", NC_("element", "Chlorine"),      35.45 },
  { "Ar", NC_("element", "Argon"),         39.95 },
  { "K",  NC_("element", "Potassium"),     39.0983 },
  { "Ca", NC_("element", "Calcium"),       40.078 },
  { "Sc", NC_("element", "Scandium"),      44.955907 },
  { "Ti", NC_("element", "Titanium"),      47.867 },
  { "V",  NC_("element", "Vanadium"),      50.9415 },
  { "Cr", NC_("element", "Chromium"),      51.9961 },
  { "Mn", NC_("element", "Manganese"),     54.938043 },
  { "Fe", NC_("element", "Iron"),          55.845 },
  { "Co", NC_("element", "Cobalt"),        58.933194 },
  { "Ni", NC_("element", "Nickel"),        58.6934 },
  { "Cu", NC_("element", "Copper"),        63.546 },
  { "Zn", NC_("element", "Zinc"),          65.38 },
  { "Ga", NC_("element", "Gallium"),       69.723 },
  { "Ge", NC_("element", "Germanium"),     72.630 },
  { "As", NC_("element", "Arsenic"),       74.921595 },
  { "Se", NC_("element", "Selenium"),      78.971 },
  { "Br", NC_("element", "Bromine"),       79.904 },
  { "Kr", NC_("element", "Krypton"),       83.798 },
  { "Rb", NC_("element", "Rubidium"),      85.4678 },
  { "Sr", NC_("element", "Strontium"),     87.62 },
  { "Y",  NC_("element", "Yttrium"),       88.905838 },
  { "Zr", NC_("element", "Zirconium"),     91.224 },
  { "Nb", NC_("element", "Niobium"),       92.90637 },
  { "Mo", NC_("element", "Molybdenum"),    95.95 },
  { "Tc", NC_("element", "Technetium"),    98.0 },
  { "Ru", NC_("element", "Ruthenium"),     101.07 },
  { "Rh", NC_("element", "Rhodium"),       102.90549 },
  { "Pd", NC_("element", "Palladium"),     106.42 },
  { "Ag", NC_("element", "Silver"),        107.8682 },
  { "Cd", NC_("element", "Cadmium"),       112.414 },
  { "In", NC_("element", "Indium"),        114.818 },
  { "Sn", NC_("element", "Tin"),           118.710 },
  { "Sb", NC_("element", "Antimony"),      121.760 },
  { "Te", NC_("element", "Tellurium"),     127.60 },
  { "I",  NC_("element", "Iodine"),        126.90447 },
  { "Xe", NC_("element", "Xenon"),         131.293 },
  { "Cs", NC_("element", "Caesium"),       132.90545196 },
  { "Ba", NC_("element", "Barium"),        137.327 },
  { "La", NC_("element", "Lanthanum"),     138.90547 },
  { "Ce", NC_("element", "Cerium"),        140.116 },
  { "Pr", NC_("element", "Praseodymium"),  140.90766 },
  { "Nd", NC_("element", "Neodymium"),     144.242 },
  { "Pm", NC_("element", "Promethium"),    145.0 },
  { "Sm", NC_("element", "Samarium"),      150.36 },
  { "Eu", NC_("element", "Europium"),      151.964 },
  { "Gd", NC_("element", "Gadolinium"),    157.25 },
  { "Tb", NC_("element", "Terbium"),       158.925354 },
  { "Dy", NC_("element", "Dysprosium"),    162.500 },
  { "Ho", NC_("element", "Holmium"),       164.930329 },
  { "Er", NC_("element", "Erbium"),        167.259 },
  { "Tm", NC_("element", "Thulium"),       168.934219 },
  { "Yb", NC_("element", "Ytterbium"),     173.045 },
  { "Lu", NC_("element", "Lutetium"),      174.9668 },
  { "Hf", NC_("element", "Hafnium"),       178.486 },
  { "Ta", NC_("element", "Tantalum"),      180.94788 },
  { "W",  NC_("element", "Tungsten"),      183.84 },
  { "Re", NC_("element", "Rhenium"),       186.207 },
  { "Os", NC_("element", "Osmium"),        190.23 },
  { "Ir", NC_("element", "Iridium"),       192.217 },
  { "Pt", NC_("element", "Platinum"),      195.084 },
  { "Au", NC_("element", "Gold"),          196.966570 },
  { "Hg", NC_("element", "Mercury"),       200.592 },
  { "Tl", NC_("element", "Thallium"),      204.38 },
  { "Pb", NC_("element", "Lead"),          207.2 },
  { "Bi", NC_("element", "Bismuth"),       208.98040 },
  { "Po", NC_("element", "Polonium"),      209.0 },
  { "At", NC_("element", "Astatine"),      210.0 },
  { "Rn", NC_("element", "Radon"),         222.0 },
  { "Fr", NC_("element", "Francium"),      223.0 },
  { "Ra", NC_("element", "Radium"),        226.0 },
  { "Ac", NC_("element", "Actinium"),      227.0 },
  { "Th", NC_("element", "Thorium"),       232.0377 },
  { "Pa", NC_("element", "Protactinium"),  231.03588 },
  { "U",  NC_("element", "Uranium"),       238.02891 },
  /* AME2020 atomic masses. */
  { "D",  NC_("element", "Deuterium"),     2.014101778 },
  { "T",  NC_("element", "Tritium"),       3.016049281 },
};

gboolean
xrlab_element_id_is_valid (int id)
{
  return id >= 1 && id < XRLAB_ELEMENT_N_IDS;
}

int
xrlab_element_get_z (int id)
{
  g_return_val_if_fail (xrlab_element_id_is_valid (id), 0);
  return id <= XRLAB_ELEMENT_Z_MAX ? id : 1;
}

const char *
xrlab_element_get_symbol (int id)
{
  g_return_val_if_fail (xrlab_element_id_is_valid (id), NULL);
  return elements[id].symbol;
}

const char *
xrlab_element_get_name (int id)
{
  g_return_val_if_fail (xrlab_element_id_is_valid (id), NULL);
  return elements[id].name;
}

double
xrlab_element_get_weight (int id)
{
  g_return_val_if_fail (xrlab_element_id_is_valid (id), NAN);
  return elements[id].weight;
}

int
xrlab_element_lookup (const char *symbol, gssize len)
{
  gsize n;

  if (symbol == NULL)
    return 0;
  n = (len < 0) ? strlen (symbol) : (gsize) len;
  if (n < 1 || n > 2)
    return 0;
  for (int id = 1; id < XRLAB_ELEMENT_N_IDS; id++)
    {
      const char *s = elements[id].symbol;
      if (strlen (s) == n && memcmp (s, symbol, n) == 0)
        return id;
    }
  return 0;
}

/* ---- scattering-factor tables ------------------------------------------- */

/* The documented lower limit of the Henke tables (eV). */
#define HENKE_VALID_MIN_EV 30.0

typedef struct {
  XrlabScatteringTable table;
  XrlabHenkeTable henke;     /* Henke only */
  XrlabPchip *f1;
  XrlabPchip *f2;
  XrlabPchip *scatter;
  XrlabPchip *scatter_atom;  /* Henke: xraylib's scattering per atom at the rows */
  XrlabTableEdge *edges;
  char *error;               /* set when loading failed */
} TableSlot;

static TableSlot *table_slots[XRLAB_TABLE_N_TABLES][XRLAB_ELEMENT_Z_MAX + 1];
static gsize table_once[XRLAB_TABLE_N_TABLES][XRLAB_ELEMENT_Z_MAX + 1];

/* ---- the binary tables (data/gen-table-blob.py) ---------------------------- */

/* The blobs in the program's read-only data (data/xrlab-table-blobs.S,
 * made by gen-table-blob.py --asm). */
extern const guint8 xrlab_table_henke[], xrlab_table_henke_end[];
extern const guint8 xrlab_table_chantler[], xrlab_table_chantler_end[];

static const struct {
  const char *name;
  const guint8 *start, *end;
} blobs[XRLAB_TABLE_N_TABLES] = {
  { "henke.bin", xrlab_table_henke, xrlab_table_henke_end },
  { "chantler.bin", xrlab_table_chantler, xrlab_table_chantler_end },
};

#define BLOB_HEADER 16
#define BLOB_ENTRY 48

static guint64
get_u64 (const guint8 *p)
{
  guint64 v;
  memcpy (&v, p, sizeof v);
  return GUINT64_FROM_LE (v);
}

static double
get_f64 (const guint8 *p)
{
  union { guint64 u; double d; } v = { .u = get_u64 (p) };
  return v.d;
}

/* The columns of @name ("au") in the binary table @table: @n_cols arrays
 * of doubles (appended to @cols) and the keys Z, frel_3/5CL and fNT (NaN
 * when the text had none). The doubles are copied, not parsed. */
gboolean
xrlab_table_read_columns (XrlabTable table, const char *name, guint n_cols, GArray **cols,
                          double keys[3], GError **error)
{
  const guint8 *d = blobs[table].start;
  gsize len = (gsize) (blobs[table].end - blobs[table].start);
  guint32 n_entries, cols_in_blob;

  if (len < BLOB_HEADER || memcmp (d, "XRLTBL1\n", 8) != 0)
    {
      g_set_error (error, XRLAB_ELEMENT_ERROR, XRLAB_ELEMENT_ERROR_DATA,
                   _("Built-in table %s is missing or damaged"), blobs[table].name);
      return FALSE;
    }
  memcpy (&n_entries, d + 8, 4);
  memcpy (&cols_in_blob, d + 12, 4);
  n_entries = GUINT32_FROM_LE (n_entries);
  cols_in_blob = GUINT32_FROM_LE (cols_in_blob);
  for (guint32 i = 0; cols_in_blob == n_cols && i < n_entries
                      && BLOB_HEADER + (gsize) (i + 1) * BLOB_ENTRY <= len; i++)
    {
      const guint8 *e = d + BLOB_HEADER + (gsize) i * BLOB_ENTRY;
      guint64 offset, n_rows;

      if (strncmp ((const char *) e, name, 8) != 0)
        continue;
      offset = get_u64 (e + 8);
      n_rows = get_u64 (e + 16);
      if (n_rows < 2 || offset > len || n_rows > (len - offset) / 8 / n_cols)
        break;
      for (guint c = 0; c < n_cols; c++)
        {
          g_array_set_size (cols[c], n_rows);
          memcpy (cols[c]->data, d + offset + c * n_rows * 8, n_rows * 8);
#if G_BYTE_ORDER == G_BIG_ENDIAN
          for (guint64 k = 0; k < n_rows; k++)
            g_array_index (cols[c], double, k) = get_f64 (d + offset + (c * n_rows + k) * 8);
#endif
        }
      for (int k = 0; k < 3; k++)
        keys[k] = get_f64 (e + 24 + 8 * k);
      return TRUE;
    }
  g_set_error (error, XRLAB_ELEMENT_ERROR, XRLAB_ELEMENT_ERROR_DATA,
               _("Built-in table %s has no valid table “%s”"), blobs[table].name, name);
  return FALSE;
}

/* The edge positions of the table (xrlab-edges.h), labelled. */
static void
collect_edges (TableSlot *slot, int z, const double *e, const double *f2, gsize n)
{
  g_autofree XrlabEdgePosition *pos = g_new (XrlabEdgePosition, MAX (n, 1));
  gsize n_pos = xrlab_edges_find_positions (z, e, f2, n, pos);

  slot->edges = g_new (XrlabTableEdge, MAX (n_pos, 1));
  for (gsize i = 0; i < n_pos; i++)
    {
      XrlabTableEdge *edge = &slot->edges[i];
      gsize k = pos[i].row;

      edge->lower_ev = e[k];
      edge->upper_ev = e[k + 1];
      edge->energy_ev = 0.5 * (e[k] + e[k + 1]);
      edge->f2_ratio = f2[k] > 0.0 ? f2[k + 1] / f2[k] : INFINITY;
      edge->step = pos[i].step;
      edge->shell = pos[i].shell >= 0 ? xrlab_edges_shell_name (pos[i].shell) : NULL;
      edge->xraylib_ev = pos[i].xraylib_ev;
    }
  slot->table.n_edges = n_pos;
  slot->table.edges = slot->edges;
}

/* Builds the interpolants of @slot from the rows @e, @f1 (from row
 * @first_f1 on), @f2 and @scatter (may be NULL): rows out of order dropped,
 * split at the steps of f2; and from @atom (may be NULL: Henke's scattering
 * per atom) the interpolant of that, smooth, without a split. The arrays are
 * compacted in place. */
static gboolean
build_table (TableSlot *slot, int z, GArray *e_arr, GArray *f1_arr, gsize first_f1,
             GArray *f2_arr, GArray *scatter_arr, GArray *atom_arr, GError **error)
{
  double *e = (double *) e_arr->data, *f1 = (double *) f1_arr->data, *f2 = (double *) f2_arr->data;
  double *sc = scatter_arr ? (double *) scatter_arr->data : NULL;
  double *atom = atom_arr ? (double *) atom_arr->data : NULL;
  gsize n = e_arr->len, m = 0, f1_start = 0, n_steps, n_f1_breaks = 0;
  g_autofree gboolean *keep = g_new (gboolean, n);
  g_autofree gsize *steps = NULL;
  g_autofree gsize *f1_breaks = NULL;

  xrlab_edges_keep_in_order (e, n, keep);
  for (gsize i = 0; i < n; i++)
    if (keep[i])
      {
        if (i < first_f1)
          f1_start++;
        e[m] = e[i];
        f1[m] = f1[i];
        f2[m] = f2[i];
        if (sc)
          sc[m] = sc[i];
        if (atom)
          atom[m] = atom[i];
        m++;
      }
  n = m;
  if (n - f1_start < 2)
    {
      g_set_error (error, XRLAB_ELEMENT_ERROR, XRLAB_ELEMENT_ERROR_DATA,
                   _("Built-in %s table of %s has fewer than 2 rows with f1"),
                   xrlab_table_get_name (slot->table.table), elements[z].symbol);
      return FALSE;
    }

  steps = g_new (gsize, n);
  f1_breaks = g_new (gsize, n);
  n_steps = xrlab_edges_find_steps (e, f2, n, steps);
  for (gsize i = 0; i < n_steps; i++)
    if (steps[i] >= f1_start)
      f1_breaks[n_f1_breaks++] = steps[i] - f1_start;

  slot->f2 = xrlab_pchip_new_split (e, f2, n, steps, n_steps, error);
  if (slot->f2 == NULL)
    return FALSE;
  slot->f1 = xrlab_pchip_new_split (e + f1_start, f1 + f1_start, n - f1_start,
                                    f1_breaks, n_f1_breaks, error);
  if (slot->f1 == NULL)
    return FALSE;
  if (sc)
    {
      slot->scatter = xrlab_pchip_new_split (e, sc, n, steps, n_steps, error);
      if (slot->scatter == NULL)
        return FALSE;
    }
  if (atom)
    {
      slot->scatter_atom = xrlab_pchip_new (e, atom, n, error);
      if (slot->scatter_atom == NULL)
        return FALSE;
    }
  collect_edges (slot, z, e, f2, n);

  slot->table.z = z;
  slot->table.f1 = slot->f1;
  slot->table.f2 = slot->f2;
  slot->table.scatter_cm2_g = slot->scatter;
  slot->table.f1_min_ev = xrlab_pchip_get_x_min (slot->f1);
  slot->table.f2_min_ev = xrlab_pchip_get_x_min (slot->f2);
  slot->table.max_ev = MIN (xrlab_pchip_get_x_max (slot->f1), xrlab_pchip_get_x_max (slot->f2));
  slot->table.n_rows = n;
  return TRUE;
}

/* The Henke tables have no scattering: xraylib's, per atom, at the @n_file
 * rows @e of the table file of element @z (evaluated when xrlab was built:
 * xrlab-xraylib-data.h), as a new column; NULL with @error when a row has
 * none. */
static GArray *
henke_scatter_column (int z, const double *e, gsize n_file, GError **error)
{
  const XrlabXraylibSpan *rows = &xrlab_xraylib_henke_scatter_rows[z];
  const double *built = xrlab_xraylib_henke_scatter + rows->first;
  GArray *col;

  if (rows->n != n_file)
    {
      g_set_error (error, XRLAB_ELEMENT_ERROR, XRLAB_ELEMENT_ERROR_DATA,
                   _("The built-in scattering cross sections of %s have %u rows, its Henke table %zu"),
                   elements[z].symbol, rows->n, n_file);
      return NULL;
    }
  for (gsize i = 0; i < n_file; i++)
    if (!isfinite (built[i]))
      {
        g_set_error (error, XRLAB_ELEMENT_ERROR, XRLAB_ELEMENT_ERROR_DATA,
                     _("xraylib has no scattering cross sections of %s at %g eV"),
                     elements[z].symbol, e[i]);
        return NULL;
      }
  col = g_array_sized_new (FALSE, FALSE, sizeof (double), (guint) n_file);
  g_array_append_vals (col, built, (guint) n_file);
  return col;
}

/* Henke: "E(eV) f1 f2" rows. f1 = -9999 means no value; such rows may only
 * come first. */
static gboolean
henke_load (TableSlot *slot, int z, GError **error)
{
  g_autoptr(GArray) e = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) f1 = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) f2 = g_array_new (FALSE, FALSE, sizeof (double));
  GArray *cols[3] = { e, f1, f2 };
  g_autofree char *lower = g_ascii_strdown (elements[z].symbol, -1);
  gsize first_f1 = G_MAXSIZE;
  gsize n_file;
  g_autoptr(GArray) scatter = NULL;
  double keys[3];

  if (!xrlab_table_read_columns (XRLAB_TABLE_HENKE, lower, 3, cols, keys, error))
    return FALSE;
  for (gsize i = 0; i < e->len; i++)
    {
      gboolean missing = g_array_index (f1, double, i) == -9999.0;
      if (!missing && first_f1 == G_MAXSIZE)
        first_f1 = i;
      else if (missing && first_f1 != G_MAXSIZE)
        {
          g_set_error (error, XRLAB_ELEMENT_ERROR, XRLAB_ELEMENT_ERROR_DATA,
                       _("Built-in Henke table %s.nff, row %zu: f1 missing above the start of the f1 table"),
                       lower, i + 1);
          return FALSE;
        }
    }
  if (first_f1 == G_MAXSIZE || e->len - first_f1 < 2)
    {
      g_set_error (error, XRLAB_ELEMENT_ERROR, XRLAB_ELEMENT_ERROR_DATA,
                   _("Built-in Henke table %s.nff has no f1 values"), lower);
      return FALSE;
    }
  n_file = e->len;
  if ((scatter = henke_scatter_column (z, (const double *) e->data, n_file, error)) == NULL
      || !build_table (slot, z, e, f1, first_f1, f2, NULL, scatter, error))
    return FALSE;
  slot->table.valid_min_ev = MAX (HENKE_VALID_MIN_EV, MAX (slot->table.f1_min_ev, slot->table.f2_min_ev));
  slot->table.valid_max_ev = slot->table.max_ev;
  slot->table.f1_relativistic = -pow (z / 82.5, 2.37);
  slot->table.f1_nuclear_thomson = 0.0;

  slot->henke.z = z;
  slot->henke.f1 = slot->f1;
  slot->henke.f2 = slot->f2;
  slot->henke.f1_min_ev = slot->table.f1_min_ev;
  slot->henke.f2_min_ev = slot->table.f2_min_ev;
  slot->henke.max_ev = slot->table.max_ev;
  slot->henke.n_rows = n_file;
  return TRUE;
}

/* Chantler: "key value" headers (Z, frel_3/5CL, fNT, ...), then rows
 * "E f1 f2 mu_pe sigma_coh_inc" (data/chantler/README.md). f1 there is
 * FFAST's, without frel and fNT: both are added here. */
static gboolean
chantler_load (TableSlot *slot, int z, GError **error)
{
  g_autoptr(GArray) e = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) f1 = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) f2 = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) mu_pe = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) scatter = g_array_new (FALSE, FALSE, sizeof (double));
  GArray *cols[5] = { e, f1, f2, mu_pe, scatter };
  g_autofree char *lower = g_ascii_strdown (elements[z].symbol, -1);
  g_autofree char *file = g_strconcat ("chantler/", lower, ".dat", NULL);
  double keys[3];
  const double *hz = &keys[0], *frel = &keys[1], *fnt = &keys[2];

  if (!xrlab_table_read_columns (XRLAB_TABLE_CHANTLER, lower, 5, cols, keys, error))
    return FALSE;
  if (*hz != z || isnan (*frel) || isnan (*fnt))
    {
      g_set_error (error, XRLAB_ELEMENT_ERROR, XRLAB_ELEMENT_ERROR_DATA,
                   _("Built-in table %s: the header lines “Z %d”, “frel_3/5CL” and “fNT” are missing or wrong"),
                   file, z);
      return FALSE;
    }
  for (gsize i = 0; i < f1->len; i++)
    g_array_index (f1, double, i) = (g_array_index (f1, double, i) + *frel) + *fnt;
  if (!build_table (slot, z, e, f1, 0, f2, scatter, NULL, error))
    return FALSE;
  slot->table.valid_min_ev = MAX (slot->table.f1_min_ev, slot->table.f2_min_ev);
  slot->table.valid_max_ev = slot->table.max_ev;
  slot->table.f1_relativistic = *frel;
  slot->table.f1_nuclear_thomson = *fnt;
  return TRUE;
}

static TableSlot *
table_load (XrlabTable table, int z)
{
  TableSlot *slot = g_new0 (TableSlot, 1);
  g_autoptr(GError) error = NULL;
  gboolean ok;

  slot->table.table = table;
  ok = (table == XRLAB_TABLE_HENKE) ? henke_load (slot, z, &error)
                                    : chantler_load (slot, z, &error);
  if (!ok)
    {
      g_clear_pointer (&slot->f1, xrlab_pchip_free);
      g_clear_pointer (&slot->f2, xrlab_pchip_free);
      g_clear_pointer (&slot->scatter, xrlab_pchip_free);
      g_clear_pointer (&slot->scatter_atom, xrlab_pchip_free);
      g_clear_pointer (&slot->edges, g_free);
      slot->error = g_strdup (error->message);
    }
  return slot;
}

static TableSlot *
table_slot (XrlabTable table, int z, GError **error)
{
  TableSlot *slot;

  if ((guint) table >= XRLAB_TABLE_N_TABLES)
    {
      g_set_error (error, XRLAB_ELEMENT_ERROR, XRLAB_ELEMENT_ERROR_UNKNOWN,
                   _("No scattering-factor table number %d"), (int) table);
      return NULL;
    }
  if (z < 1 || z > XRLAB_ELEMENT_Z_MAX)
    {
      if (table == XRLAB_TABLE_HENKE)
        g_set_error (error, XRLAB_ELEMENT_ERROR, XRLAB_ELEMENT_ERROR_UNKNOWN,
                     _("No Henke table for Z = %d: the tables cover Z = 1–%d"),
                     z, XRLAB_ELEMENT_Z_MAX);
      else
        g_set_error (error, XRLAB_ELEMENT_ERROR, XRLAB_ELEMENT_ERROR_UNKNOWN,
                     _("No Chantler table for Z = %d: the tables cover Z = 1–%d"),
                     z, XRLAB_ELEMENT_Z_MAX);
      return NULL;
    }
  if (g_once_init_enter (&table_once[table][z]))
    {
      table_slots[table][z] = table_load (table, z);
      g_once_init_leave (&table_once[table][z], 1);
    }
  slot = table_slots[table][z];
  if (slot->error != NULL)
    {
      g_set_error_literal (error, XRLAB_ELEMENT_ERROR, XRLAB_ELEMENT_ERROR_DATA, slot->error);
      return NULL;
    }
  return slot;
}

const XrlabScatteringTable *
xrlab_scattering_table_get (XrlabTable table, int z, GError **error)
{
  TableSlot *slot = table_slot (table, z, error);
  return slot ? &slot->table : NULL;
}

const XrlabHenkeTable *
xrlab_henke_get (int z, GError **error)
{
  TableSlot *slot = table_slot (XRLAB_TABLE_HENKE, z, error);
  return slot ? &slot->henke : NULL;
}

double
xrlab_scattering_table_eval_scatter (const XrlabScatteringTable *table, double energy_ev,
                                     gsize *hint)
{
  const TableSlot *slot = (const TableSlot *) table;   /* the table is the slot's first member */

  if (!(energy_ev >= table->f2_min_ev && energy_ev <= table->max_ev))
    return NAN;
  if (table->scatter_cm2_g != NULL)
    return xrlab_pchip_eval (table->scatter_cm2_g, energy_ev, hint) * elements[table->z].weight;
  return xrlab_pchip_eval (slot->scatter_atom, energy_ev, hint);
}

/* ---- absorption edges --------------------------------------------------- */

static const char *const edge_names[XRLAB_EDGE_N_EDGES] = {
  "K", "L1", "L2", "L3", "M1", "M2", "M3", "M4", "M5",
};

static const int edge_shells[XRLAB_EDGE_N_EDGES] = {
  /* xraylib's K_SHELL … M5_SHELL */
  0, 1, 2, 3, 4, 5, 6, 7, 8,
};

const char *
xrlab_edge_get_name (XrlabEdge edge)
{
  g_return_val_if_fail (edge < XRLAB_EDGE_N_EDGES, NULL);
  return edge_names[edge];
}

gboolean
xrlab_element_get_edge_kev (int z, XrlabEdge edge, double *energy_kev)
{
  double e;

  if (z < 1 || z > XRLAB_ELEMENT_Z_MAX || edge >= XRLAB_EDGE_N_EDGES)
    return FALSE;
  e = xrlab_xraylib_edge (z, edge_shells[edge]);
  if (!(e > 0.0) || !isfinite (e))
    return FALSE;
  if (energy_kev)
    *energy_kev = e;
  return TRUE;
}
