/* xrlab-demo-source.c -- DEMONSTRATION data, NOT PHYSICS (see the header)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-demo-source.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "xrlab-material.h"
#include "xrlab-util.h"

static const char *const symbols[] = {
  "H", "He", "Li", "Be", "B", "C", "N", "O", "F", "Ne", "Na", "Mg", "Al", "Si", "P", "S",
  "Cl", "Ar", "K", "Ca", "Sc", "Ti", "V", "Cr", "Mn", "Fe", "Co", "Ni", "Cu", "Zn", "Ga",
  "Ge", "As", "Se", "Br", "Kr", "Rb", "Sr", "Y", "Zr", "Nb", "Mo", "Tc", "Ru", "Rh", "Pd",
  "Ag", "Cd", "In", "Sn", "Sb", "Te", "I", "Xe", "Cs", "Ba", "La", "Ce", "Pr", "Nd", "Pm",
  "Sm", "Eu", "Gd", "Tb", "Dy", "Ho", "Er", "Tm", "Yb", "Lu", "Hf", "Ta", "W", "Re", "Os",
  "Ir", "Pt", "Au", "Hg", "Tl", "Pb", "Bi", "Po", "At", "Rn", "Fr", "Ra", "Ac", "Th", "Pa", "U",
};

#define MAX_PARTS 16

typedef struct {
  int z[MAX_PARTS];
  double n[MAX_PARTS];
  guint parts;
  double density;
  double thickness;
} Toy;

typedef struct {
  guint id;
  gboolean has_valid;
  Toy toy;
} Entry;

struct _XrlabDemoSource {
  GObject parent_instance;

  GArray *entries;          /* Entry, current list order */
  GHashTable *last_valid;   /* id -> Toy* */
  double *grid;
  guint n_grid;
  GListStore *presets;
  guint64 transfers, bytes;
};

G_DEFINE_FINAL_TYPE (XrlabDemoSource, xrlab_demo_source, G_TYPE_OBJECT)

/* ---- toy formula parser ---------------------------------------------------------- */

static int
lookup_symbol (const char *s, gsize len)
{
  for (guint i = 0; i < G_N_ELEMENTS (symbols); i++)
    if (strlen (symbols[i]) == len && strncmp (symbols[i], s, len) == 0)
      return (int) i + 1;
  return 0;
}

static gboolean
add_part (Toy *t, int z, double n)
{
  for (guint i = 0; i < t->parts; i++)
    if (t->z[i] == z)
      {
        t->n[i] += n;
        return TRUE;
      }
  if (t->parts >= MAX_PARTS)
    return FALSE;
  t->z[t->parts] = z;
  t->n[t->parts] = n;
  t->parts++;
  return TRUE;
}

static double
parse_count (const char **p)
{
  char *end = NULL;
  double v;

  if (!g_ascii_isdigit (**p) && **p != '.')
    return 1.0;
  v = g_ascii_strtod (*p, &end);
  *p = end;
  return v;
}

static gboolean
parse_group (const char *start, const char **p, Toy *t, double mult, int depth, GError **error)
{
  while (**p != '\0')
    {
      const char *here = *p;
      if (**p == ' ')
        {
          (*p)++;
          continue;
        }
      if (**p == '(')
        {
          Toy inner = { 0 };
          double n;
          (*p)++;
          if (!parse_group (start, p, &inner, 1.0, depth + 1, error))
            return FALSE;
          if (**p != ')')
            {
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("Unbalanced parenthesis: “(” at column %d is never closed."),
                           (int) (here - start) + 1);
              return FALSE;
            }
          (*p)++;
          n = parse_count (p);
          if (!(n > 0))
            {
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("Count at column %d must be positive."), (int) (here - start) + 1);
              return FALSE;
            }
          for (guint i = 0; i < inner.parts; i++)
            if (!add_part (t, inner.z[i], inner.n[i] * n * mult))
              goto too_many;
          continue;
        }
      if (**p == ')')
        {
          if (depth == 0)
            {
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("Unbalanced parenthesis: “)” at column %d has no “(”."),
                           (int) (here - start) + 1);
              return FALSE;
            }
          return TRUE;
        }
      if (g_ascii_isupper (**p))
        {
          gsize len = 1;
          int z;
          double n;
          while (g_ascii_islower ((*p)[len]))
            len++;
          z = lookup_symbol (*p, len);
          if (z == 0)
            {
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("Unknown element “%.*s” at column %d."),
                           (int) len, *p, (int) (here - start) + 1);
              return FALSE;
            }
          *p += len;
          n = parse_count (p);
          if (!(n > 0))
            {
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           _("Count at column %d must be positive."), (int) (*p - start));
              return FALSE;
            }
          if (!add_part (t, z, n * mult))
            goto too_many;
          continue;
        }
      if (g_ascii_islower (**p))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("Element symbols start with a capital letter (column %d)."),
                       (int) (here - start) + 1);
          return FALSE;
        }
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("Unexpected “%c” at column %d."), **p, (int) (here - start) + 1);
      return FALSE;
    }
  return TRUE;

too_many:
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
               _("The demonstration source takes at most %d elements."), MAX_PARTS);
  return FALSE;
}

static gboolean
parse_toy (const char *formula, double density, double thickness, Toy *t, GError **error)
{
  const char *p = formula;
  g_autofree char *stripped = g_strstrip (g_strdup (formula));

  memset (t, 0, sizeof *t);
  if (stripped[0] == '\0')
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("Enter a formula."));
      return FALSE;
    }
  if (!parse_group (formula, &p, t, 1.0, 0, error))
    return FALSE;
  if (!(density > 0))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("Density %g g/cm³ must be positive."), density);
      return FALSE;
    }
  if (density > 30)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("Density %g g/cm³ is above 30 g/cm³, more than any element."), density);
      return FALSE;
    }
  if (!(thickness >= 0))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("Thickness %g µm must not be negative."), thickness);
      return FALSE;
    }
  t->density = density;
  t->thickness = thickness;
  return TRUE;
}

/* ---- toy model ---------------------------------------------------------------------- */

static double
toy_mass (int z)
{
  return z == 1 ? 1.008 : 2.0 * z * (1 + 0.0035 * z);
}

/* Hydrogen-like edge energies (eV). */
static double
toy_edge (int z, int shell)
{
  switch (shell)
    {
    case 0: return 13.6 * (z - 1) * (z - 1);            /* K */
    case 1: return 3.4 * (z - 5.0) * (z - 5.0) * 1.05;  /* L1 */
    case 2: return 3.4 * (z - 5.0) * (z - 5.0);         /* L2 */
    default: return 3.4 * (z - 6.0) * (z - 6.0);        /* L3 */
    }
}

static void
toy_f (int z, double ev, double *f1, double *f2)
{
  double s = 0;

  for (int shell = 0; shell < 4; shell++)
    {
      double e = toy_edge (z, shell);
      double w = shell == 0 ? 2.0 : 1.0;
      if (e < 10)
        continue;
      if (ev >= e)
        s += w * pow (e / ev, 2.2);
      else
        s += w * 0.12 * pow (ev / e, 0.8);
    }
  *f2 = 0.02 * pow (z, 1.5) * s + 1e-3 * z;
  *f1 = z * (1 - 0.04 * exp (-fabs (log (ev / toy_edge (z, 0)) * 8)));
}

/* All quantities of @t at @ev, in the engine's units. */
static void
toy_quantities (const Toy *t, double ev, double out[XRLAB_PLOT_N_QUANTITIES])
{
  const double re = 2.8179403262e-15;          /* m */
  const double na = 6.02214076e23;             /* 1/mol */
  double lambda_a = 12398.419843320026 / ev;   /* Å */
  double lambda_m = lambda_a * 1e-10;
  double f1 = 0, f2 = 0, mass = 0, n_per_m3, delta, beta, mu;

  for (guint i = 0; i < t->parts; i++)
    {
      double a, b;
      toy_f (t->z[i], ev, &a, &b);
      f1 += t->n[i] * a;
      f2 += t->n[i] * b;
      mass += t->n[i] * toy_mass (t->z[i]);
    }
  n_per_m3 = t->density * 1e6 / mass * na;
  delta = re * lambda_m * lambda_m * n_per_m3 * f1 / (2 * G_PI);
  beta = re * lambda_m * lambda_m * n_per_m3 * f2 / (2 * G_PI);
  mu = 4 * G_PI * beta / (lambda_a * 1e-8);   /* 1/cm */

  out[XRLAB_PLOT_QUANTITY_WAVELENGTH] = lambda_a;
  out[XRLAB_PLOT_QUANTITY_DELTA] = delta;
  out[XRLAB_PLOT_QUANTITY_BETA] = beta;
  out[XRLAB_PLOT_QUANTITY_F1] = f1;
  out[XRLAB_PLOT_QUANTITY_F2] = f2;
  out[XRLAB_PLOT_QUANTITY_CRITICAL_ANGLE_DEG] = sqrt (2 * delta) * 180 / G_PI;
  out[XRLAB_PLOT_QUANTITY_CRITICAL_ANGLE] = sqrt (2 * delta) * 1e3;
  out[XRLAB_PLOT_QUANTITY_ATTENUATION_LENGTH] = 1 / mu;
  out[XRLAB_PLOT_QUANTITY_MU] = mu;
  out[XRLAB_PLOT_QUANTITY_MU_RHO] = mu / t->density;
  out[XRLAB_PLOT_QUANTITY_TRANSMISSION] = exp (-mu * t->thickness * 1e-4);
  out[XRLAB_PLOT_QUANTITY_SLD_RE] = 2 * G_PI * delta / (lambda_a * lambda_a);
  out[XRLAB_PLOT_QUANTITY_SLD_IM] = 2 * G_PI * beta / (lambda_a * lambda_a);

  /* Like the Henke tables: no f1 below 29.3 eV. */
  if (ev < XRLAB_HENKE_MIN_F1_EV)
    for (guint q = 0; q < XRLAB_PLOT_N_QUANTITIES; q++)
      if (xrlab_quantity_info_get (q)->needs_f1)
        out[q] = NAN;
}

/* ---- GObject ------------------------------------------------------------------------ */

static void
xrlab_demo_source_finalize (GObject *object)
{
  XrlabDemoSource *self = XRLAB_DEMO_SOURCE (object);

  g_array_unref (self->entries);
  g_hash_table_unref (self->last_valid);
  g_free (self->grid);
  g_clear_object (&self->presets);
  G_OBJECT_CLASS (xrlab_demo_source_parent_class)->finalize (object);
}

static void
xrlab_demo_source_class_init (XrlabDemoSourceClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = xrlab_demo_source_finalize;
}

static void
xrlab_demo_source_init (XrlabDemoSource *self)
{
  self->entries = g_array_new (FALSE, TRUE, sizeof (Entry));
  self->last_valid = g_hash_table_new_full (NULL, NULL, NULL, g_free);
}

XrlabDemoSource *
xrlab_demo_source_new (void)
{
  return g_object_new (XRLAB_TYPE_DEMO_SOURCE, NULL);
}

void
xrlab_demo_source_set_materials (XrlabDemoSource             *self,
                                 const XrlabDemoMaterialSpec *specs,
                                 guint                        n,
                                 char                       **errors,
                                 gboolean                    *stale)
{
  g_array_set_size (self->entries, 0);
  for (guint i = 0; i < n; i++)
    {
      Entry e = { specs[i].id, FALSE, { { 0 } } };
      g_autoptr(GError) error = NULL;
      Toy t;

      if (parse_toy (specs[i].formula, specs[i].density_g_cm3, specs[i].thickness_um, &t, &error))
        {
          g_hash_table_insert (self->last_valid, GUINT_TO_POINTER (specs[i].id), g_memdup2 (&t, sizeof t));
          e.has_valid = TRUE;
          e.toy = t;
          errors[i] = NULL;
          stale[i] = FALSE;
        }
      else
        {
          Toy *last = g_hash_table_lookup (self->last_valid, GUINT_TO_POINTER (specs[i].id));
          errors[i] = g_strdup (error->message);
          stale[i] = last != NULL;
          if (last != NULL)
            {
              e.has_valid = TRUE;
              e.toy = *last;
            }
        }
      g_array_append_val (self->entries, e);
    }
}

void
xrlab_demo_source_set_grid (XrlabDemoSource *self,
                            const double    *energies_ev,
                            guint            n)
{
  g_free (self->grid);
  self->grid = g_memdup2 (energies_ev, n * sizeof (double));
  self->n_grid = n;
}

double *
xrlab_demo_source_fetch (XrlabDemoSource   *self,
                         XrlabPlotQuantity  quantity,
                         const guint       *indices,
                         guint              n_materials)
{
  double *buf = g_new (double, (gsize) n_materials * self->n_grid + 1);

  for (guint m = 0; m < n_materials; m++)
    {
      const Entry *e = &g_array_index (self->entries, Entry, indices[m]);
      double *row = buf + (gsize) m * self->n_grid;
      for (guint i = 0; i < self->n_grid; i++)
        {
          double q[XRLAB_PLOT_N_QUANTITIES];
          if (!e->has_valid)
            {
              row[i] = NAN;
              continue;
            }
          toy_quantities (&e->toy, self->grid[i], q);
          row[i] = q[quantity];
        }
    }
  self->transfers++;
  self->bytes += (guint64) n_materials * self->n_grid * sizeof (double);
  return buf;
}

double *
xrlab_demo_source_fetch_values (XrlabDemoSource *self,
                                double           energy_ev,
                                const guint     *indices,
                                guint            n_materials)
{
  double *buf = g_new (double, (gsize) XRLAB_PLOT_N_QUANTITIES * n_materials + 1);

  for (guint m = 0; m < n_materials; m++)
    {
      const Entry *e = &g_array_index (self->entries, Entry, indices[m]);
      double q[XRLAB_PLOT_N_QUANTITIES];
      for (guint k = 0; k < XRLAB_PLOT_N_QUANTITIES; k++)
        q[k] = NAN;
      if (e->has_valid)
        toy_quantities (&e->toy, energy_ev, q);
      for (guint k = 0; k < XRLAB_PLOT_N_QUANTITIES; k++)
        buf[(gsize) k * n_materials + m] = q[k];
    }
  self->transfers++;
  self->bytes += (guint64) n_materials * XRLAB_PLOT_N_QUANTITIES * sizeof (double);
  return buf;
}

static void
clear_marker (gpointer p)
{
  g_free (((XrlabPlotMarker *) p)->label);
}

GArray *
xrlab_demo_source_edges (XrlabDemoSource *self,
                         const guint     *indices,
                         guint            n_materials,
                         double           min_ev,
                         double           max_ev)
{
  static const char *const shells[] = { "K", "L1", "L2", "L3" };
  GArray *out = g_array_new (FALSE, TRUE, sizeof (XrlabPlotMarker));
  gboolean seen[G_N_ELEMENTS (symbols) + 1] = { FALSE };

  g_array_set_clear_func (out, clear_marker);
  for (guint m = 0; m < n_materials; m++)
    {
      const Entry *e = &g_array_index (self->entries, Entry, indices[m]);
      if (!e->has_valid)
        continue;
      for (guint i = 0; i < e->toy.parts; i++)
        {
          int z = e->toy.z[i];
          if (seen[z])
            continue;
          seen[z] = TRUE;
          for (int s = 0; s < 4; s++)
            {
              double ev = toy_edge (z, s);
              XrlabPlotMarker mk;
              if (ev < min_ev || ev > max_ev || ev < 10)
                continue;
              mk.x = ev;
              mk.label = g_strdup_printf ("%s %s", symbols[z - 1], shells[s]);
              g_array_append_val (out, mk);
            }
        }
    }
  return out;
}

GListModel *
xrlab_demo_source_presets (XrlabDemoSource *self)
{
  static const struct {
    const char *name, *formula;
    double density;
    const char *note;
  } presets[] = {
    { "Silicon", "Si", 2.33, NULL },
    { "Silica (fused)", "SiO2", 2.2, NULL },
    { "Sapphire", "Al2O3", 3.95, NULL },
    { "Diamond", "C", 3.52, NULL },
    { "Gold", "Au", 19.3, NULL },
    { "Platinum", "Pt", 21.45, NULL },
    { "Copper", "Cu", 8.96, NULL },
    { "Water", "H2O", 1.0, NULL },
    { "Kapton", "C22H10N2O5", 1.42, "polyimide" },
    { "Mylar", "C10H8O4", 1.38, "PET" },
    { "Silicon nitride", "Si3N4", 3.44, NULL },
    { "Beryllium", "Be", 1.848, NULL },
    { "Aluminium", "Al", 2.70, NULL },
    { "Silver", "Ag", 10.49, NULL },
    { "Germanium", "Ge", 5.323, NULL },
    { "Gallium arsenide", "GaAs", 5.32, NULL },
    { "Tungsten", "W", 19.25, NULL },
    { "Molybdenum", "Mo", 10.28, NULL },
    { "Nickel", "Ni", 8.908, NULL },
    { "Iron", "Fe", 7.874, NULL },
    { "Titanium", "Ti", 4.506, NULL },
    { "Chromium", "Cr", 7.19, NULL },
    { "Iridium", "Ir", 22.56, NULL },
    { "Boron carbide", "B4C", 2.52, NULL },
    { "Silicon carbide", "SiC", 3.21, NULL },
  };

  if (self->presets == NULL)
    {
      self->presets = g_list_store_new (XRLAB_TYPE_MATERIAL);
      for (guint i = 0; i < G_N_ELEMENTS (presets); i++)
        {
          g_autoptr(XrlabMaterial) m = xrlab_material_new (presets[i].name, presets[i].formula,
                                                           presets[i].density, 1.0, NULL);
          xrlab_material_set_note (m, presets[i].note);
          g_list_store_append (self->presets, m);
        }
    }
  return G_LIST_MODEL (self->presets);
}

gboolean
xrlab_demo_source_export_csv (XrlabDemoSource   *self,
                              const char        *path,
                              const guint       *indices,
                              const char *const *names,
                              guint              n_materials,
                              GError           **error)
{
  XrlabAtomicFile *af = xrlab_atomic_file_open (path, error);
  FILE *f;
  char buf[XRLAB_DTOA_BUFSIZE];

  if (af == NULL)
    return FALSE;
  f = xrlab_atomic_file_stream (af);
  fprintf (f, "# xrlab DEMONSTRATION DATA - not real optical constants\n");
  fprintf (f, "energy_keV");
  for (guint m = 0; m < n_materials; m++)
    for (guint q = 0; q < XRLAB_PLOT_N_QUANTITIES; q++)
      if (q != XRLAB_PLOT_QUANTITY_WAVELENGTH)
        fprintf (f, ",%s:%s", names[m], xrlab_quantity_info_get (q)->engine_column);
  fputc ('\n', f);
  for (guint i = 0; i < self->n_grid; i++)
    {
      fputs (xrlab_format_double (self->grid[i] * 1e-3, buf), f);
      for (guint m = 0; m < n_materials; m++)
        {
          const Entry *e = &g_array_index (self->entries, Entry, indices[m]);
          double q[XRLAB_PLOT_N_QUANTITIES];
          for (guint k = 0; k < XRLAB_PLOT_N_QUANTITIES; k++)
            q[k] = NAN;
          if (e->has_valid)
            toy_quantities (&e->toy, self->grid[i], q);
          for (guint k = 0; k < XRLAB_PLOT_N_QUANTITIES; k++)
            if (k != XRLAB_PLOT_QUANTITY_WAVELENGTH)
              fprintf (f, ",%s", xrlab_format_double (q[k], buf));
        }
      fputc ('\n', f);
    }
  return xrlab_atomic_file_commit (af, error);
}

void
xrlab_demo_source_get_stats (XrlabDemoSource *self,
                             guint64         *transfers,
                             guint64         *bytes)
{
  *transfers = self->transfers;
  *bytes = self->bytes;
}
