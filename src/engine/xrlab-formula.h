/* xrlab-formula.h -- chemical formulas: parsing, composition, molar mass
 *
 * Accepted forms (spaces between the parts are ignored):
 *
 *   SiO2, Fe2O3, C8H8                   element symbols (case-sensitive) with
 *                                       optional counts, integer or decimal
 *   Si0.7Ge0.3, C10H8O4.5               decimal counts ("." is always a
 *                                       decimal point, never a hydrate dot)
 *   Ca3(PO4)2, K4[Fe(CN)6]             nested () and [] with counts
 *   CuSO4·5H2O, CuSO4*5H2O, CuSO4+5H2O  adducts/hydrates: a leading count
 *                                       multiplies the unit after the dot
 *                                       ("·", "⋅", "•", "*" or "+")
 *   D2O, CD3OD, T2                      D and T: deuterium and tritium, with
 *                                       their own masses (xrlab-elements.h)
 *   70wt% SiO2 // 30wt% B2O3            mixtures by mass fraction, parts
 *   70wt% SiO2 // B2O3                  separated by "//"; the last part may
 *                                       leave its fraction out and takes the
 *                                       remainder
 *
 * A mixture becomes one formula unit: with w_j the mass fraction and M_j the
 * molar mass of part j, part j contributes (w_j / M_j) / Σ_k (w_k / M_k) of
 * its atoms, so the molecular weight of the mixture is the mean molar mass
 * 1 / Σ_j (w_j / M_j) and ρ N_A / M counts mean "molecules" per volume.
 * Optical constants depend only on Σ n_i f_i / M, which this keeps exact.
 *
 * Every rejected formula gets one message that names the 1-based column
 * (in characters) and the reason: an unknown element, lower-case symbols
 * (with a suggestion: "sio2" → "SiO2"), an unbalanced or mismatched
 * parenthesis, unexpected or trailing characters, an empty formula or group,
 * a zero or negative count, mass fractions that are missing, not positive,
 * or add up to more than 100 %.
 *
 * A formula is immutable and reference counted; any thread may read it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define XRLAB_FORMULA_ERROR (xrlab_formula_error_quark ())
GQuark xrlab_formula_error_quark (void);

typedef enum {
  XRLAB_FORMULA_ERROR_EMPTY,            /* nothing, or an empty group or part */
  XRLAB_FORMULA_ERROR_UNKNOWN_ELEMENT,  /* "Xx", or an element beyond U */
  XRLAB_FORMULA_ERROR_LOWERCASE,        /* "sio2" */
  XRLAB_FORMULA_ERROR_UNBALANCED,       /* "(SiO2", "SiO2)", "(SiO2]" */
  XRLAB_FORMULA_ERROR_UNEXPECTED,       /* a character that does not belong, trailing junk */
  XRLAB_FORMULA_ERROR_COUNT,            /* a zero, negative or unreadable count */
  XRLAB_FORMULA_ERROR_FRACTION,         /* mass fractions missing, not positive, above 100 % */
  XRLAB_FORMULA_ERROR_INVALID,          /* not UTF-8, nested too deeply, too long */
} XrlabFormulaError;

typedef struct _XrlabFormula XrlabFormula;

#define XRLAB_TYPE_FORMULA (xrlab_formula_get_type ())
GType xrlab_formula_get_type (void) G_GNUC_CONST;

/* Parses @text. On failure returns NULL, sets @error and, when
 * @error_column is not NULL, the 1-based column (in characters) of the
 * problem, so that an editor can put the cursor there. */
XrlabFormula *xrlab_formula_parse      (const char *text, GError **error);
XrlabFormula *xrlab_formula_parse_full (const char *text, int *error_column, GError **error);

XrlabFormula *xrlab_formula_ref   (XrlabFormula *formula);
void          xrlab_formula_unref (XrlabFormula *formula);

/* The text as given. */
const char *xrlab_formula_get_text (const XrlabFormula *formula);

/* Composition in order of first appearance, counts with up to 6 significant
 * digits, count 1 left out: "CuSO4·5H2O" → "CuSO9H10". Free with g_free. */
char *xrlab_formula_to_string (const XrlabFormula *formula);

/* Distinct atoms (element ids, xrlab-elements.h: D and T are separate from
 * H), in order of first appearance. */
gsize         xrlab_formula_get_n_atoms (const XrlabFormula *formula);
/* Arrays of n_atoms: element ids, atomic numbers (D, T → 1), atoms per
 * formula unit, and mass fractions (Σ = 1). */
const int    *xrlab_formula_get_ids            (const XrlabFormula *formula);
const int    *xrlab_formula_get_z              (const XrlabFormula *formula);
const double *xrlab_formula_get_counts         (const XrlabFormula *formula);
const double *xrlab_formula_get_mass_fractions (const XrlabFormula *formula);

/* M = Σ n_i A_i (g/mol), A_i from xrlab_element_get_weight(). */
double xrlab_formula_get_molecular_weight (const XrlabFormula *formula);

/* Electrons per formula unit, Σ n_i Z_i. */
double xrlab_formula_get_electrons (const XrlabFormula *formula);

/* Mixtures: the parts between "//" (1 for a plain formula), each part's text
 * without its fraction, and its mass fraction (0..1; the last one's is the
 * remainder when it was left out). */
gsize       xrlab_formula_get_n_parts             (const XrlabFormula *formula);
const char *xrlab_formula_get_part_text           (const XrlabFormula *formula, gsize part);
double      xrlab_formula_get_part_mass_fraction  (const XrlabFormula *formula, gsize part);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (XrlabFormula, xrlab_formula_unref)

G_END_DECLS
