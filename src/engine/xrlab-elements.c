/* xrlab-elements.c -- symbols, names, atomic weights, Henke tables, edges
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-elements.h"
#include "xrlab-util.h"

#include <math.h>
#include <string.h>

#include <gio/gio.h>
#include <glib/gi18n-lib.h>
#include <xraylib.h>

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

/* ---- Henke tables ------------------------------------------------------- */

typedef struct {
  XrlabHenkeTable table;
  XrlabPchip *f1;
  XrlabPchip *f2;
  char *error;          /* set when loading failed */
} HenkeSlot;

static HenkeSlot *henke_slots[XRLAB_ELEMENT_Z_MAX + 1];
static gsize henke_once[XRLAB_ELEMENT_Z_MAX + 1];

#define HENKE_RESOURCE_PREFIX "/io/github/xrlab/Xrlab/henke/"

/* Parses "E(eV) f1 f2" rows after one header line. f1 = -9999 means no
 * value; such rows may only come first. */
static gboolean
henke_parse (HenkeSlot *slot, int z, const char *text, gsize len, GError **error)
{
  g_autoptr(GArray) e = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) f1 = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) f2 = g_array_new (FALSE, FALSE, sizeof (double));
  g_autofree char *name = g_ascii_strdown (elements[z].symbol, -1);
  const char *p = text, *end = text + len;
  gsize first_f1 = G_MAXSIZE;
  guint line = 0;

  while (p < end)
    {
      const char *eol = memchr (p, '\n', (gsize) (end - p));
      g_autofree char *row = NULL;
      g_auto(GStrv) fields = NULL;
      double v[3];
      guint nf = 0;

      if (eol == NULL)
        eol = end;
      row = g_strndup (p, (gsize) (eol - p));
      p = eol + 1;
      line++;
      g_strstrip (row);
      if (line == 1 || row[0] == '\0')
        continue;
      fields = g_strsplit_set (row, " \t", -1);
      for (guint i = 0; fields[i] != NULL; i++)
        {
          if (fields[i][0] == '\0')
            continue;
          if (nf == 3 || !xrlab_parse_double (fields[i], FALSE, &v[nf]))
            {
              g_set_error (error, XRLAB_ELEMENT_ERROR, XRLAB_ELEMENT_ERROR_DATA,
                           _("Built-in Henke table %s.nff, line %u: expected 3 numbers “E f1 f2”"),
                           name, line);
              return FALSE;
            }
          nf++;
        }
      if (nf != 3)
        {
          g_set_error (error, XRLAB_ELEMENT_ERROR, XRLAB_ELEMENT_ERROR_DATA,
                       _("Built-in Henke table %s.nff, line %u: expected 3 numbers “E f1 f2”"),
                       name, line);
          return FALSE;
        }
      if (v[1] != -9999.0 && first_f1 == G_MAXSIZE)
        first_f1 = e->len;
      else if (v[1] == -9999.0 && first_f1 != G_MAXSIZE)
        {
          g_set_error (error, XRLAB_ELEMENT_ERROR, XRLAB_ELEMENT_ERROR_DATA,
                       _("Built-in Henke table %s.nff, line %u: f1 missing above the start of the f1 table"),
                       name, line);
          return FALSE;
        }
      g_array_append_val (e, v[0]);
      g_array_append_val (f1, v[1]);
      g_array_append_val (f2, v[2]);
    }
  if (first_f1 == G_MAXSIZE || e->len - first_f1 < 2)
    {
      g_set_error (error, XRLAB_ELEMENT_ERROR, XRLAB_ELEMENT_ERROR_DATA,
                   _("Built-in Henke table %s.nff has no f1 values"), name);
      return FALSE;
    }

  {
    const double *ev = (const double *) e->data;
    slot->f2 = xrlab_pchip_new (ev, (const double *) f2->data, e->len, error);
    if (slot->f2 == NULL)
      return FALSE;
    slot->f1 = xrlab_pchip_new (ev + first_f1, (const double *) f1->data + first_f1,
                                e->len - first_f1, error);
    if (slot->f1 == NULL)
      return FALSE;
  }
  slot->table.z = z;
  slot->table.f1 = slot->f1;
  slot->table.f2 = slot->f2;
  slot->table.f1_min_ev = xrlab_pchip_get_x_min (slot->f1);
  slot->table.f2_min_ev = xrlab_pchip_get_x_min (slot->f2);
  slot->table.max_ev = MIN (xrlab_pchip_get_x_max (slot->f1), xrlab_pchip_get_x_max (slot->f2));
  slot->table.n_rows = e->len;
  return TRUE;
}

static HenkeSlot *
henke_load (int z)
{
  HenkeSlot *slot = g_new0 (HenkeSlot, 1);
  g_autofree char *lower = g_ascii_strdown (elements[z].symbol, -1);
  g_autofree char *path = g_strconcat (HENKE_RESOURCE_PREFIX, lower, ".nff", NULL);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  gsize len = 0;
  const char *data;

  bytes = g_resources_lookup_data (path, G_RESOURCE_LOOKUP_FLAGS_NONE, &error);
  if (bytes == NULL)
    {
      slot->error = g_strdup_printf (_("Built-in Henke table of %s is missing: %s"),
                                     elements[z].symbol, error->message);
      return slot;
    }
  data = g_bytes_get_data (bytes, &len);
  if (!henke_parse (slot, z, data, len, &error))
    {
      g_clear_pointer (&slot->f1, xrlab_pchip_free);
      g_clear_pointer (&slot->f2, xrlab_pchip_free);
      slot->error = g_strdup (error->message);
    }
  return slot;
}

const XrlabHenkeTable *
xrlab_henke_get (int z, GError **error)
{
  HenkeSlot *slot;

  if (z < 1 || z > XRLAB_ELEMENT_Z_MAX)
    {
      g_set_error (error, XRLAB_ELEMENT_ERROR, XRLAB_ELEMENT_ERROR_UNKNOWN,
                   _("No Henke table for Z = %d: the tables cover Z = 1–%d"),
                   z, XRLAB_ELEMENT_Z_MAX);
      return NULL;
    }
  if (g_once_init_enter (&henke_once[z]))
    {
      henke_slots[z] = henke_load (z);
      g_once_init_leave (&henke_once[z], 1);
    }
  slot = henke_slots[z];
  if (slot->error != NULL)
    {
      g_set_error_literal (error, XRLAB_ELEMENT_ERROR, XRLAB_ELEMENT_ERROR_DATA, slot->error);
      return NULL;
    }
  return &slot->table;
}

/* ---- absorption edges --------------------------------------------------- */

static const char *const edge_names[XRLAB_EDGE_N_EDGES] = {
  "K", "L1", "L2", "L3", "M1", "M2", "M3", "M4", "M5",
};

static const int edge_shells[XRLAB_EDGE_N_EDGES] = {
  K_SHELL, L1_SHELL, L2_SHELL, L3_SHELL, M1_SHELL, M2_SHELL, M3_SHELL, M4_SHELL, M5_SHELL,
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
  xrl_error *xerr = NULL;
  double e;

  if (z < 1 || z > XRLAB_ELEMENT_Z_MAX || edge >= XRLAB_EDGE_N_EDGES)
    return FALSE;
  e = EdgeEnergy (z, edge_shells[edge], &xerr);
  if (xerr != NULL)
    {
      xrl_error_free (xerr);
      return FALSE;
    }
  if (!(e > 0.0) || !isfinite (e))
    return FALSE;
  if (energy_kev)
    *energy_kev = e;
  return TRUE;
}
