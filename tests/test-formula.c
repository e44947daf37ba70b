/* test-formula.c -- every accepted form and every error message of the
 * formula parser, molar masses, electrons, mixtures
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include <glib.h>

#include "xrlab-elements.h"
#include "xrlab-formula.h"
#include "xrlab-init.h"
#include "test-common.h"

/* Atoms of @symbol per formula unit (0 when absent). */
static double
count_of (const XrlabFormula *f, const char *symbol)
{
  int id = xrlab_element_lookup (symbol, -1);
  const int *ids = xrlab_formula_get_ids (f);

  g_assert_cmpint (id, >, 0);
  for (gsize i = 0; i < xrlab_formula_get_n_atoms (f); i++)
    if (ids[i] == id)
      return xrlab_formula_get_counts (f)[i];
  return 0.0;
}

static XrlabFormula *
parse_ok (const char *text)
{
  g_autoptr(GError) error = NULL;
  XrlabFormula *f = xrlab_formula_parse (text, &error);

  if (f == NULL)
    g_error ("“%s” did not parse: %s", text, error->message);
  return f;
}

static double
weight (const char *symbol)
{
  return xrlab_element_get_weight (xrlab_element_lookup (symbol, -1));
}

typedef struct {
  const char *text;
  const char *composition;   /* xrlab_formula_to_string() */
} Accepted;

static void
test_accepted (void)
{
  static const Accepted cases[] = {
    { "Si", "Si" },
    { "SiO2", "SiO2" },
    { "Fe2O3", "Fe2O3" },
    { "H2O", "H2O" },
    { "C22H10N2O5", "C22H10N2O5" },
    { "Si0.7Ge0.3", "Si0.7Ge0.3" },
    { "C10H8O4.5", "C10H8O4.5" },
    { "H.5", "H0.5" },
    { "Ca3(PO4)2", "Ca3P2O8" },
    { "K4[Fe(CN)6]", "K4FeC6N6" },
    { "((CH3)2)3", "C6H18" },
    { "[Cu(NH3)4]SO4", "CuN4H12SO4" },
    { "CuSO4·5H2O", "CuSO9H10" },
    { "CuSO4⋅5H2O", "CuSO9H10" },
    { "CuSO4•5H2O", "CuSO9H10" },
    { "CuSO4*5H2O", "CuSO9H10" },
    { "CuSO4+5H2O", "CuSO9H10" },
    { "CaSO4·0.5H2O", "CaSO4.5H" },
    { "Na2CO3·H2O2*2H2O", "Na2CO7H6" },
    { "2H2O", "H4O2" },
    { "D2O", "D2O" },
    { "CD3OD", "CD4O" },
    { "HDO", "HDO" },
    { "T2", "T2" },
    { "  Si O2 ", "SiO2" },
    { "Ca3 ( P O4 ) 2", "Ca3P2O8" },
    { "CuSO4 · 5 H2O", "CuSO9H10" },
    { "SiO2\tB2O3", "SiO5B2" },
    { "SiSi", "Si2" },
    { "Co", "Co" },
    { "CO", "CO" },
    { "U", "U" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(XrlabFormula) f = NULL;
      g_autofree char *s = NULL;

      f = parse_ok (cases[i].text);
      s = xrlab_formula_to_string (f);
      g_assert_cmpstr (s, ==, cases[i].composition);
      g_assert_cmpstr (xrlab_formula_get_text (f), ==, cases[i].text);
      g_assert_cmpuint (xrlab_formula_get_n_parts (f), ==, 1);
    }
}

static void
test_molar_mass (void)
{
  g_autoptr(XrlabFormula) sio2 = parse_ok ("SiO2");
  g_autoptr(XrlabFormula) hydrate = parse_ok ("CuSO4·5H2O");
  g_autoptr(XrlabFormula) d2o = parse_ok ("D2O");
  g_autoptr(XrlabFormula) h2o = parse_ok ("H2O");
  g_autoptr(XrlabFormula) t2o = parse_ok ("T2O");
  const double *w;
  double sum = 0.0;

  g_assert_cmpfloat_with_epsilon (xrlab_formula_get_molecular_weight (sio2), 28.085 + 2 * 15.999, 1e-12);
  g_assert_cmpfloat (xrlab_formula_get_electrons (sio2), ==, 30.0);
  /* CuSO4·5H2O: 249.68 g/mol */
  g_assert_cmpfloat_with_epsilon (xrlab_formula_get_molecular_weight (hydrate),
                                  63.546 + 32.06 + 9 * 15.999 + 10 * 1.008, 1e-10);
  g_assert_cmpfloat (xrlab_formula_get_electrons (hydrate), ==, 29 + 16 + 72 + 10);
  /* Heavy water: its own mass, the electrons of water. */
  g_assert_cmpfloat_with_epsilon (xrlab_formula_get_molecular_weight (d2o), 2 * 2.014101778 + 15.999, 1e-12);
  g_assert_cmpfloat_with_epsilon (xrlab_formula_get_molecular_weight (t2o), 2 * 3.016049281 + 15.999, 1e-12);
  g_assert_cmpfloat (xrlab_formula_get_electrons (d2o), ==, xrlab_formula_get_electrons (h2o));
  g_assert_cmpint (xrlab_formula_get_z (d2o)[0], ==, 1);
  g_assert_cmpint (xrlab_formula_get_ids (d2o)[0], ==, XRLAB_ELEMENT_D);
  g_assert_cmpfloat (xrlab_formula_get_molecular_weight (d2o), >, xrlab_formula_get_molecular_weight (h2o) + 2.0);

  w = xrlab_formula_get_mass_fractions (hydrate);
  for (gsize i = 0; i < xrlab_formula_get_n_atoms (hydrate); i++)
    sum += w[i];
  g_assert_cmpfloat_with_epsilon (sum, 1.0, 1e-14);
  g_assert_cmpfloat_with_epsilon (w[0], 63.546 / xrlab_formula_get_molecular_weight (hydrate), 1e-15);
}

/* A mixture by mass fraction: each part's mass share comes out as given,
 * and the mean molar mass is 1 / Σ w_j / M_j. */
static void
test_mixture (void)
{
  g_autoptr(XrlabFormula) a = parse_ok ("70wt% SiO2 // B2O3");
  g_autoptr(XrlabFormula) b = parse_ok ("70wt% SiO2 // 30wt% B2O3");
  g_autoptr(XrlabFormula) c = parse_ok ("70 wt % SiO2//30WT%B2O3");
  g_autoptr(XrlabFormula) d = parse_ok ("50wt% H2O // 25wt% D2O // CuSO4·5H2O");
  g_autoptr(XrlabFormula) one = parse_ok ("100wt% SiO2");
  double m_sio2 = 28.085 + 2 * 15.999, m_b2o3 = 2 * 10.81 + 3 * 15.999;
  double mean = 1.0 / (0.7 / m_sio2 + 0.3 / m_b2o3);
  double si_mass, b_mass;

  g_assert_cmpuint (xrlab_formula_get_n_parts (a), ==, 2);
  g_assert_cmpstr (xrlab_formula_get_part_text (a, 0), ==, "SiO2");
  g_assert_cmpstr (xrlab_formula_get_part_text (a, 1), ==, "B2O3");
  g_assert_cmpfloat_with_epsilon (xrlab_formula_get_part_mass_fraction (a, 1), 0.3, 1e-15);
  g_assert_cmpfloat_with_epsilon (xrlab_formula_get_molecular_weight (a), mean, 1e-12 * mean);
  /* Si carries 70 % × M_Si / M_SiO2 of the mass. */
  si_mass = count_of (a, "Si") * weight ("Si") / xrlab_formula_get_molecular_weight (a);
  b_mass = count_of (a, "B") * weight ("B") / xrlab_formula_get_molecular_weight (a);
  g_assert_cmpfloat_with_epsilon (si_mass, 0.7 * 28.085 / m_sio2, 1e-14);
  g_assert_cmpfloat_with_epsilon (b_mass, 0.3 * 2 * 10.81 / m_b2o3, 1e-14);
  for (gsize i = 0; i < xrlab_formula_get_n_atoms (a); i++)
    g_assert_cmpfloat (count_of (a, xrlab_element_get_symbol (xrlab_formula_get_ids (a)[i])), ==,
                       count_of (b, xrlab_element_get_symbol (xrlab_formula_get_ids (a)[i])));
  g_assert_cmpfloat (count_of (a, "Si"), ==, count_of (c, "Si"));
  g_assert_cmpuint (xrlab_formula_get_n_parts (d), ==, 3);
  g_assert_cmpfloat_with_epsilon (xrlab_formula_get_part_mass_fraction (d, 2), 0.25, 1e-15);
  g_assert_cmpfloat (count_of (d, "D"), >, 0.0);
  g_assert_cmpfloat (count_of (one, "Si"), ==, 1.0);
}

typedef struct {
  const char *text;
  XrlabFormulaError code;
  int column;
  const char *message;    /* the whole message */
} Rejected;

static void
test_rejected (void)
{
  static const Rejected cases[] = {
    { "", XRLAB_FORMULA_ERROR_EMPTY, 1,
      "Empty formula: expected a chemical formula such as “SiO2”" },
    { "   ", XRLAB_FORMULA_ERROR_EMPTY, 1,
      "Empty formula: expected a chemical formula such as “SiO2”" },
    { "Xx", XRLAB_FORMULA_ERROR_UNKNOWN_ELEMENT, 1, "Unknown element “Xx” at column 1" },
    { "SiO2Xx3", XRLAB_FORMULA_ERROR_UNKNOWN_ELEMENT, 5, "Unknown element “Xx” at column 5" },
    { "Q", XRLAB_FORMULA_ERROR_UNKNOWN_ELEMENT, 1, "Unknown element “Q” at column 1" },
    { "CuSo4", XRLAB_FORMULA_ERROR_UNKNOWN_ELEMENT, 3,
      "Unknown element “So” at column 3; did you mean “CuSO4”?" },
    { "PuO2", XRLAB_FORMULA_ERROR_UNKNOWN_ELEMENT, 1,
      "Element Pu (Z = 94) at column 1 has no scattering-factor table: the Henke tables cover H to U (Z = 1–92)" },
    { "sio2", XRLAB_FORMULA_ERROR_LOWERCASE, 1,
      "Element symbols are case-sensitive: “sio2” at column 1 is not a symbol; did you mean “SiO2”?" },
    { "Fe2o3", XRLAB_FORMULA_ERROR_LOWERCASE, 4,
      "Element symbols are case-sensitive: “o3” at column 4 is not a symbol; did you mean “Fe2O3”?" },
    { "70wt% sio2 // B2O3", XRLAB_FORMULA_ERROR_LOWERCASE, 7,
      "Element symbols are case-sensitive: “sio2” at column 7 is not a symbol; did you mean “70wt% SiO2 // B2O3”?" },
    { "SiO2 xq", XRLAB_FORMULA_ERROR_LOWERCASE, 6,
      "Element symbols are case-sensitive and start with a capital letter: “xq” at column 6" },
    { "(SiO2", XRLAB_FORMULA_ERROR_UNBALANCED, 1,
      "Unbalanced parenthesis: “(” at column 1 is never closed" },
    { "Ca3(PO4", XRLAB_FORMULA_ERROR_UNBALANCED, 4,
      "Unbalanced parenthesis: “(” at column 4 is never closed" },
    { "SiO2)", XRLAB_FORMULA_ERROR_UNBALANCED, 5,
      "Unbalanced parenthesis: “)” at column 5 has no matching “(”" },
    { "K4Fe(CN)6]", XRLAB_FORMULA_ERROR_UNBALANCED, 10,
      "Unbalanced parenthesis: “]” at column 10 has no matching “[”" },
    { "K4[Fe(CN]6", XRLAB_FORMULA_ERROR_UNBALANCED, 9,
      "Mismatched parenthesis: “]” at column 9 closes “(” from column 6" },
    { "SiO2!", XRLAB_FORMULA_ERROR_UNEXPECTED, 5, "Unexpected “!” at column 5" },
    { "SiO2 $junk", XRLAB_FORMULA_ERROR_UNEXPECTED, 6, "Unexpected “$” at column 6 (in “$junk”)" },
    { "Si(O!)2", XRLAB_FORMULA_ERROR_UNEXPECTED, 5, "Unexpected “!” at column 5 (in “!)2”)" },
    { "SiO2 5H2O", XRLAB_FORMULA_ERROR_UNEXPECTED, 6,
      "Unexpected number at column 6: a count follows an element symbol or a closing parenthesis (write adducts as CuSO4·5H2O)" },
    { "SiO2 / B2O3", XRLAB_FORMULA_ERROR_UNEXPECTED, 6,
      "Unexpected “/” at column 6: the parts of a mixture are separated by “//”" },
    { "µSiO2", XRLAB_FORMULA_ERROR_UNEXPECTED, 1, "Unexpected “µ” at column 1 (in “µSiO2”)" },
    { "H1.", XRLAB_FORMULA_ERROR_UNEXPECTED, 3, "Unexpected “.” at column 3" },
    { "H0", XRLAB_FORMULA_ERROR_COUNT, 2, "Count “0” at column 2 must be a positive number" },
    { "Ca3(PO4)0.0", XRLAB_FORMULA_ERROR_COUNT, 9, "Count “0.0” at column 9 must be a positive number" },
    { "H-2O", XRLAB_FORMULA_ERROR_COUNT, 2, "Negative count “-2” at column 2: counts must be positive" },
    { "(OH)-1", XRLAB_FORMULA_ERROR_COUNT, 5, "Negative count “-1” at column 5: counts must be positive" },
    { "0H2O", XRLAB_FORMULA_ERROR_COUNT, 1, "Count “0” at column 1 must be a positive number" },
    { "()", XRLAB_FORMULA_ERROR_EMPTY, 1, "Empty “()” at column 1" },
    { "Si[]2", XRLAB_FORMULA_ERROR_EMPTY, 3, "Empty “[]” at column 3" },
    { "CuSO4·", XRLAB_FORMULA_ERROR_EMPTY, 6,
      "Nothing after “·” at column 6: expected a formula such as “5H2O”" },
    { "CuSO4+ ", XRLAB_FORMULA_ERROR_EMPTY, 6,
      "Nothing after “+” at column 6: expected a formula such as “5H2O”" },
    { "5", XRLAB_FORMULA_ERROR_EMPTY, 1, "The count at column 1 is not followed by a formula" },
    { "SiO2 //", XRLAB_FORMULA_ERROR_EMPTY, 6,
      "Nothing after “//” at column 6: expected the next part of the mixture" },
    { "70wt% // B2O3", XRLAB_FORMULA_ERROR_EMPTY, 1,
      "The mass fraction at column 1 is not followed by a formula" },
    { "120wt% SiO2", XRLAB_FORMULA_ERROR_FRACTION, 1, "Mass fraction 120 wt% at column 1 is above 100 %" },
    { "70wt% SiO2 // 40wt% B2O3", XRLAB_FORMULA_ERROR_FRACTION, 15,
      "Mass fractions add up to 110 % at column 15, more than 100 %" },
    { "60wt% SiO2 // 50wt% B2O3 // Na2O", XRLAB_FORMULA_ERROR_FRACTION, 15,
      "Mass fractions add up to 110 % at column 15, more than 100 %" },
    { "70wt% SiO2 // 20wt% B2O3", XRLAB_FORMULA_ERROR_FRACTION, 15,
      "Mass fractions add up to 90 %, not 100 % (column 15): leave the last fraction out to give it the remainder" },
    { "70wt% SiO2", XRLAB_FORMULA_ERROR_FRACTION, 1,
      "Mass fractions add up to 70 %, not 100 % (column 1): leave the last fraction out to give it the remainder" },
    { "100wt% SiO2 // B2O3", XRLAB_FORMULA_ERROR_FRACTION, 16,
      "No mass is left for the last part at column 16: the fractions before it add up to 100 %" },
    { "SiO2 // B2O3", XRLAB_FORMULA_ERROR_FRACTION, 1,
      "Part 1 of the mixture (column 1) needs a mass fraction such as “30wt%”: only the last part may leave it out" },
    { "0wt% SiO2 // B2O3", XRLAB_FORMULA_ERROR_FRACTION, 1, "The mass fraction at column 1 must be positive" },
    { "70% SiO2 // B2O3", XRLAB_FORMULA_ERROR_FRACTION, 3,
      "“%” at column 3: write mass fractions as “70wt%” (volume and mole fractions are not supported)" },
    { "70wt SiO2 // B2O3", XRLAB_FORMULA_ERROR_FRACTION, 6, "Expected “%” after “wt” at column 6, as in “70wt%”" },
    { "SiO2 %", XRLAB_FORMULA_ERROR_FRACTION, 6,
      "Unexpected “%” at column 6: write mass fractions before their part, as in “70wt% SiO2 // B2O3”" },
    { "Si\xff", XRLAB_FORMULA_ERROR_INVALID, 3, "The formula is not valid UTF-8 (at byte 3)" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      int column = -1;
      XrlabFormula *f = xrlab_formula_parse_full (cases[i].text, &column, &error);

      if (f != NULL)
        g_error ("“%s” was accepted", cases[i].text);
      g_assert_nonnull (error);
      if (error->code != (int) cases[i].code || column != cases[i].column
          || strcmp (error->message, cases[i].message) != 0)
        g_error ("“%s”: code %d column %d “%s”; expected code %d column %d “%s”",
                 cases[i].text, error->code, column, error->message,
                 cases[i].code, cases[i].column, cases[i].message);
      g_assert_true (error->domain == XRLAB_FORMULA_ERROR);
    }
}

/* Nesting has a limit, and hitting it is an error, not a crash. */
static void
test_limits (void)
{
  g_autoptr(GString) deep = g_string_new (NULL);
  g_autoptr(GString) ok = g_string_new (NULL);
  g_autoptr(GString) long_text = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabFormula) f = NULL;
  int column = 0;

  for (int i = 0; i < 40; i++)
    g_string_append_c (deep, '(');
  g_string_append (deep, "H");
  for (int i = 0; i < 40; i++)
    g_string_append (deep, ")2");
  g_assert_null (xrlab_formula_parse_full (deep->str, &column, &error));
  g_assert_error (error, XRLAB_FORMULA_ERROR, XRLAB_FORMULA_ERROR_INVALID);
  g_assert_cmpint (column, ==, 33);
  g_clear_error (&error);

  for (int i = 0; i < 10; i++)
    g_string_append_c (ok, '(');
  g_string_append (ok, "H");
  for (int i = 0; i < 10; i++)
    g_string_append (ok, ")2");
  f = parse_ok (ok->str);
  g_assert_cmpfloat (count_of (f, "H"), ==, 1024.0);

  for (int i = 0; i < 2000; i++)
    g_string_append (long_text, "SiO");
  g_assert_null (xrlab_formula_parse (long_text->str, &error));
  g_assert_error (error, XRLAB_FORMULA_ERROR, XRLAB_FORMULA_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_null (xrlab_formula_parse (NULL, &error));
  g_assert_error (error, XRLAB_FORMULA_ERROR, XRLAB_FORMULA_ERROR_EMPTY);
}

/* Random byte strings never crash the parser and either parse or give a
 * message with a column inside the text. */
static void
test_fuzz (void)
{
  static const char alphabet[] = "SiOHCuDTwt%()[]·*+/ 0123456789.-xXoe";
  for (int i = 0; i < 20000; i++)
    {
      char buf[24];
      int n = g_test_rand_int_range (0, 20);
      g_autoptr(GError) error = NULL;
      XrlabFormula *f;
      int column = -1;

      for (int k = 0; k < n; k++)
        buf[k] = alphabet[g_test_rand_int_range (0, (int) sizeof alphabet - 1)];
      buf[n] = '\0';
      f = xrlab_formula_parse_full (buf, &column, &error);
      if (f)
        {
          g_assert_cmpfloat (xrlab_formula_get_molecular_weight (f), >, 0.0);
          g_assert_true (isfinite (xrlab_formula_get_molecular_weight (f)));
          xrlab_formula_unref (f);
        }
      else
        {
          g_assert_nonnull (error);
          g_assert_cmpint (column, >=, 1);
          /* Random bytes from "·" may not be valid UTF-8: then count bytes
           * (g_utf8_strlen() would read past a lone lead byte). */
          if (g_utf8_validate (buf, -1, NULL))
            g_assert_cmpint (column, <=, (int) g_utf8_strlen (buf, -1) + 1);
          else
            g_assert_cmpint (column, <=, n + 1);
        }
    }
}

static void
test_refcount (void)
{
  XrlabFormula *f = parse_ok ("SiO2");
  GValue v = G_VALUE_INIT;

  g_assert_true (xrlab_formula_ref (f) == f);
  xrlab_formula_unref (f);
  g_value_init (&v, XRLAB_TYPE_FORMULA);
  g_value_set_boxed (&v, f);
  g_assert_true (g_value_get_boxed (&v) == f);
  g_value_unset (&v);
  xrlab_formula_unref (f);
}

static void
test_elements (void)
{
  g_assert_cmpint (xrlab_element_lookup ("Si", -1), ==, 14);
  g_assert_cmpint (xrlab_element_lookup ("si", -1), ==, 0);
  g_assert_cmpint (xrlab_element_lookup ("SI", -1), ==, 0);
  g_assert_cmpint (xrlab_element_lookup ("U", -1), ==, 92);
  g_assert_cmpint (xrlab_element_lookup ("Np", -1), ==, 0);
  g_assert_cmpint (xrlab_element_lookup ("D", -1), ==, XRLAB_ELEMENT_D);
  g_assert_cmpint (xrlab_element_lookup ("T", -1), ==, XRLAB_ELEMENT_T);
  g_assert_cmpint (xrlab_element_lookup ("Sil", 2), ==, 14);
  g_assert_cmpstr (xrlab_element_get_name (79), ==, "Gold");
  g_assert_cmpstr (xrlab_element_get_symbol (XRLAB_ELEMENT_D), ==, "D");
  g_assert_cmpint (xrlab_element_get_z (XRLAB_ELEMENT_T), ==, 1);
  g_assert_cmpfloat (xrlab_element_get_weight (79), ==, 196.966570);
  g_assert_cmpfloat (xrlab_element_get_weight (26), ==, 55.845);
  /* Weights rise with Z except for the known inversions (Ar/K, Co/Ni, Te/I, Th/Pa, U). */
  for (int z = 2; z <= XRLAB_ELEMENT_Z_MAX; z++)
    {
      double a = xrlab_element_get_weight (z - 1), b = xrlab_element_get_weight (z);
      if (z == 19 || z == 28 || z == 53 || z == 91)
        g_assert_cmpfloat (b, <, a);
      else
        g_assert_cmpfloat (b, >, a);
    }
  for (int id = 1; id < XRLAB_ELEMENT_N_IDS; id++)
    g_assert_cmpint (xrlab_element_lookup (xrlab_element_get_symbol (id), -1), ==, id);
}

/* Issue "zero-atom formula": counts that underflow to nothing or overflow are
 * refused (they crashed calc, compare and batch, and the GUI at start-up),
 * inside wt% mixtures too; counts in exponent form are read. */
static char *
nested_tiny (int levels)
{
  GString *s = g_string_new ("H");
  const char *tiny = "0.0000000000000000000000000000000000000000000001";   /* 1e-46 */

  for (int i = 0; i < levels; i++)
    {
      g_string_prepend_c (s, '(');
      g_string_append_printf (s, ")%s", tiny);
    }
  return g_string_free (s, FALSE);
}

static void
test_zero_atom_formula (void)
{
  g_autofree char *subnormal = nested_tiny (7);   /* 1e-322: subnormal */
  g_autofree char *zero = nested_tiny (8);        /* 0 */
  g_autofree char *mixture = g_strdup_printf ("50wt%% %s // SiO2", zero);
  const char *refused[] = { subnormal, zero, mixture, "H1e308O1e308", "((H1e200)1e200)",
                            "50wt% (H1e300)1e300 // SiO2" };
  g_autoptr(XrlabFormula) tiny = NULL, dopant = NULL, again = NULL;
  g_autofree char *text = NULL;

  for (gsize i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      g_autoptr(GError) error = NULL;
      int column = 0;
      g_assert_null (xrlab_formula_parse_full (refused[i], &column, &error));
      g_assert_error (error, XRLAB_FORMULA_ERROR, XRLAB_FORMULA_ERROR_COUNT);
      g_assert_cmpint (column, >=, 1);
    }
  {
    g_autoptr(GError) error = NULL;
    g_assert_null (xrlab_formula_parse (zero, &error));
    g_assert_nonnull (strstr (error->message, "no atoms"));
    g_clear_error (&error);
    g_assert_null (xrlab_formula_parse (mixture, &error));
    g_assert_nonnull (strstr (error->message, "Part 1 of the mixture"));
  }

  /* parts whose molar masses are ~300 orders apart: the mixture's counts of
   * the heavy part would be subnormal (found by the fuzz suite) */
  {
    g_autoptr(GError) error = NULL;
    g_autofree char *light = g_strdup_printf ("50wt%% (H1e-300)1e-7 // SiO2");
    g_assert_null (xrlab_formula_parse (light, &error));
    g_assert_error (error, XRLAB_FORMULA_ERROR, XRLAB_FORMULA_ERROR_COUNT);
    g_assert_nonnull (strstr (error->message, "too far apart"));
  }

  /* small but normal counts are fine, and print back to a formula that parses */
  tiny = parse_ok ("(((H)0.0000000001)0.0000000001)0.0000000001");
  g_assert_cmpfloat_with_epsilon (count_of (tiny, "H"), 1e-30, 1e-40);
  text = xrlab_formula_to_string (tiny);
  g_assert_cmpstr (text, ==, "H1e-30");
  again = parse_ok (text);
  g_assert_cmpfloat_with_epsilon (count_of (again, "H"), 1e-30, 1e-40);
  dopant = parse_ok ("SiGe1e-6");
  g_assert_cmpfloat (count_of (dopant, "Ge"), ==, 1e-6);
  g_assert_cmpfloat (xrlab_formula_get_molecular_weight (dopant), >, 28.0);
}

/* Bytes of a bad file were echoed raw to the terminal (issue 18, weaker
 * spots): an escape sequence, a C1 control and a bidirectional override in
 * a formula come out escaped in the parser's messages. */
static void
test_binary_bytes_escaped (void)
{
  static const struct {
    const char *formula;
    const char *shown;
  } cases[] = {
    { "Si\x1b[31mO2", "Unexpected “\\x1B”" },
    { "Si\xc2\x9b" "O2", "\\xC2\\x9B" },
    { "Si\xe2\x80\xaeO2", "\\u202E" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;

      g_assert_null (xrlab_formula_parse (cases[i].formula, &error));
      g_assert_nonnull (error);
      if (strstr (error->message, cases[i].shown) == NULL)
        g_error ("case %zu: “%s” not in “%s”", i, cases[i].shown, error->message);
      xrlab_test_assert_printable (error->message);
      g_assert_null (strstr (error->message, "\xc2\x9b"));
      g_assert_null (strstr (error->message, "\xe2\x80\xae"));
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  xrlab_init ();
  g_test_add_func ("/formula/accepted", test_accepted);
  g_test_add_func ("/formula/molar-mass", test_molar_mass);
  g_test_add_func ("/formula/mixture", test_mixture);
  g_test_add_func ("/formula/rejected", test_rejected);
  g_test_add_func ("/formula/limits", test_limits);
  g_test_add_func ("/formula/zero-atom-formula", test_zero_atom_formula);
  g_test_add_func ("/formula/binary-bytes-escaped", test_binary_bytes_escaped);
  g_test_add_func ("/formula/fuzz", test_fuzz);
  g_test_add_func ("/formula/refcount", test_refcount);
  g_test_add_func ("/formula/elements", test_elements);
  return g_test_run ();
}
