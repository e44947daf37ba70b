/* gen-xraylib-data.c -- the numbers xrlab takes from xraylib, evaluated
 * when xrlab is built and written as C source (xrlab-xraylib-data.c), so
 * that the programs neither load xraylib nor compute them at run time:
 *
 *   gen-xraylib-data HENKE_BIN OUT.c
 *
 * - the edge energies EdgeEnergy(Z, shell), Z = 1 … 92, shells K … P5
 *   (0 where xraylib has none);
 * - the NIST compounds (GetCompoundDataNISTList, GetCompoundDataNISTByName):
 *   name, density, elements and mass fractions;
 * - the coherent + incoherent scattering of the Henke tables' elements,
 *   (CS_Rayl + CS_Compt)(Z, max(E, 0.1 keV)) × AtomicWeight(Z) [cm²/mol],
 *   at every row of HENKE_BIN (data/gen-table-blob.py): NaN where xraylib
 *   has none.
 *
 * The doubles are written as hexadecimal floating constants, bit for bit
 * what xraylib returned (tests/test-xraylib-data.c checks them against the
 * library). The output is written to OUT.c.tmp and renamed.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xraylib.h>

#define Z_MAX 92
#define N_SHELLS 28
#define SCATTER_MIN_KEV 0.1

/* xrlab numbers the shells as xraylib does (src/engine/xrlab-edges.c) */
_Static_assert (K_SHELL == 0 && L3_SHELL == 3 && M5_SHELL == 8 && N1_SHELL == 9 && O1_SHELL == 16
                  && P1_SHELL == 23 && P5_SHELL == 27 && N_SHELLS == P5_SHELL + 1,
                "xraylib's shell numbers");

static void
die (const char *what)
{
  fprintf (stderr, "gen-xraylib-data: %s\n", what);
  exit (1);
}

static uint64_t
le64 (const unsigned char *p)
{
  uint64_t v = 0;

  for (int i = 7; i >= 0; i--)
    v = (v << 8) | p[i];
  return v;
}

static uint32_t
le32 (const unsigned char *p)
{
  return (uint32_t) p[0] | (uint32_t) p[1] << 8 | (uint32_t) p[2] << 16 | (uint32_t) p[3] << 24;
}

static double
le_double (const unsigned char *p)
{
  uint64_t v = le64 (p);
  double d;

  memcpy (&d, &v, sizeof d);
  return d;
}

static void
put_double (FILE *f, double v)
{
  if (isnan (v))
    fputs ("NAN", f);
  else if (isinf (v))
    fputs (v > 0 ? "INFINITY" : "-INFINITY", f);
  else
    fprintf (f, "%a", v);
}

/* A C string literal of @s (xraylib's names are ASCII). */
static void
put_string (FILE *f, const char *s)
{
  fputc ('"', f);
  for (; *s; s++)
    {
      unsigned char c = (unsigned char) *s;

      if (c == '"' || c == '\\')
        fprintf (f, "\\%c", c);
      else if (c < 0x20 || c >= 0x7f)
        fprintf (f, "\\%03o", c);
      else
        fputc (c, f);
    }
  fputc ('"', f);
}

static void
write_edges (FILE *f)
{
  fprintf (f, "const double xrlab_xraylib_edge_kev[XRLAB_XRAYLIB_Z_MAX + 1][XRLAB_XRAYLIB_N_SHELLS] = {\n");
  for (int z = 0; z <= Z_MAX; z++)
    {
      fprintf (f, "  { ");
      for (int s = 0; s < N_SHELLS; s++)
        {
          xrl_error *err = NULL;
          double kev = z >= 1 ? EdgeEnergy (z, s, &err) : 0.0;

          if (err != NULL)
            {
              xrl_error_free (err);
              kev = 0.0;
            }
          put_double (f, kev);
          fputs (s + 1 < N_SHELLS ? ", " : " },\n", f);
        }
    }
  fprintf (f, "};\n\n");
}

static void
write_nist (FILE *f)
{
  int n = 0, n_el = 0;
  char **names = GetCompoundDataNISTList (&n, NULL);
  char *zs = NULL, *ws = NULL;
  size_t zs_len = 0, ws_len = 0;
  FILE *zf = open_memstream (&zs, &zs_len), *wf = open_memstream (&ws, &ws_len);

  if (names == NULL || n <= 0 || zf == NULL || wf == NULL)
    die ("xraylib lists no NIST compounds");
  fprintf (f, "const XrlabXraylibCompound xrlab_xraylib_nist[] = {\n");
  for (int i = 0; i < n; i++)
    {
      struct compoundDataNIST *c = GetCompoundDataNISTByName (names[i], NULL);

      if (c == NULL)
        die ("a NIST compound of the list has no data");
      fprintf (f, "  { ");
      put_string (f, c->name);
      fprintf (f, ", ");
      put_double (f, c->density);
      fprintf (f, ", %d, %d },\n", c->nElements, n_el);
      n_el += c->nElements;
      /* its elements and fractions, for the two arrays after this one */
      fputc (' ', zf);
      fputc (' ', wf);
      for (int k = 0; k < c->nElements; k++)
        {
          fprintf (zf, " %d,", c->Elements[k]);
          fputc (' ', wf);
          put_double (wf, c->massFractions[k]);
          fputc (',', wf);
        }
      fputc ('\n', zf);
      fputc ('\n', wf);
      FreeCompoundDataNIST (c);
      xrlFree (names[i]);
    }
  xrlFree (names);
  if (fclose (zf) != 0 || fclose (wf) != 0)
    die ("out of memory");
  fprintf (f, "};\nconst unsigned xrlab_xraylib_n_nist = %d;\n\n", n);
  fprintf (f, "const int xrlab_xraylib_nist_z[] = {\n%s};\n\n", zs);
  fprintf (f, "const double xrlab_xraylib_nist_fraction[] = {\n%s};\n\n", ws);
  free (zs);
  free (ws);
}

static double
scatter (int z, double energy_ev)
{
  xrl_error *err = NULL;
  double kev = fmax (energy_ev / 1000.0, SCATTER_MIN_KEV), sigma;

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

/* The Henke blob's layout: "XRLTBL1\n", u32 n_entries, u32 n_cols, then
 * n_entries × { char name[8], u64 offset, u64 n_rows, f64 × 3 }, the first
 * column (energy, eV) of an entry at its offset. */
static void
write_henke_scatter (FILE *f, const char *blob_path)
{
  FILE *in = fopen (blob_path, "rb");
  unsigned char *blob;
  long size;
  uint32_t n_entries;
  unsigned first[Z_MAX + 1] = { 0 }, count[Z_MAX + 1] = { 0 };
  unsigned total = 0;

  if (in == NULL || fseek (in, 0, SEEK_END) != 0 || (size = ftell (in)) < 16 || fseek (in, 0, SEEK_SET) != 0)
    die ("cannot read the Henke blob");
  blob = malloc ((size_t) size);
  if (blob == NULL || fread (blob, 1, (size_t) size, in) != (size_t) size)
    die ("cannot read the Henke blob");
  fclose (in);
  if (memcmp (blob, "XRLTBL1\n", 8) != 0)
    die ("the Henke blob has no XRLTBL1 header");
  n_entries = le32 (blob + 8);
  if ((uint64_t) 16 + (uint64_t) n_entries * 48 > (uint64_t) size)
    die ("the Henke blob's index is cut short");

  fprintf (f, "const double xrlab_xraylib_henke_scatter[] = {\n");
  for (uint32_t i = 0; i < n_entries; i++)
    {
      const unsigned char *e = blob + 16 + (size_t) i * 48;
      char name[9] = { 0 };
      uint64_t offset = le64 (e + 8), n_rows = le64 (e + 16);
      xrl_error *err = NULL;
      int z;

      memcpy (name, e, 8);
      name[0] = (char) toupper ((unsigned char) name[0]);
      z = SymbolToAtomicNumber (name, &err);
      if (err != NULL)
        {
          xrl_error_free (err);
          die ("a Henke table is named after no element");
        }
      if (z < 1 || z > Z_MAX || count[z] != 0)
        die ("a Henke table of an element beyond U, or twice");
      if (offset + n_rows * 8 > (uint64_t) size)
        die ("a Henke table runs past the end of the blob");
      first[z] = total;
      count[z] = (unsigned) n_rows;
      total += (unsigned) n_rows;
      fprintf (f, "  /* %s */\n", name);
      for (uint64_t r = 0; r < n_rows; r++)
        {
          fputs (r % 4 == 0 ? "  " : " ", f);
          put_double (f, scatter (z, le_double (blob + offset + r * 8)));
          fputs (r % 4 == 3 || r + 1 == n_rows ? ",\n" : ",", f);
        }
    }
  fprintf (f, "};\n\nconst XrlabXraylibSpan xrlab_xraylib_henke_scatter_rows[XRLAB_XRAYLIB_Z_MAX + 1] = {\n");
  for (int z = 0; z <= Z_MAX; z++)
    fprintf (f, "  { %u, %u },\n", first[z], count[z]);
  fprintf (f, "};\n");
  free (blob);
}

int
main (int argc, char **argv)
{
  char *tmp;
  FILE *f;

  if (argc != 3)
    die ("usage: gen-xraylib-data HENKE_BIN OUT.c");
  tmp = malloc (strlen (argv[2]) + 5);
  if (tmp == NULL)
    die ("out of memory");
  strcpy (tmp, argv[2]);
  strcat (tmp, ".tmp");
  if ((f = fopen (tmp, "w")) == NULL)
    die ("cannot write the output");
  fprintf (f, "/* Generated by data/gen-xraylib-data.c from xraylib %d.%d.%d when xrlab was\n"
              " * built: do not edit. */\n"
              "#include \"xrlab-xraylib-data.h\"\n\n#include <math.h>\n\n",
           XRAYLIB_MAJOR, XRAYLIB_MINOR, XRAYLIB_MICRO);
  fprintf (f, "const char xrlab_xraylib_version[] = \"%d.%d.%d\";\n\n", XRAYLIB_MAJOR, XRAYLIB_MINOR,
           XRAYLIB_MICRO);
  write_edges (f);
  write_nist (f);
  write_henke_scatter (f, argv[1]);
  if (fclose (f) != 0 || rename (tmp, argv[2]) != 0)
    die ("cannot write the output");
  free (tmp);
  return 0;
}
