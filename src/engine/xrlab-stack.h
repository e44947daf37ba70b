/* xrlab-stack.h -- layer stacks: mirrors, multilayers, filters, gas paths
 *
 * A stack is parsed once from a string (the CLI's --stack, the window's
 * stack editor, a saved session) into an immutable, reference-counted
 * XrlabStack that xrlab-reflect.h computes with.
 *
 * ## Reflectivity stacks (xrlab_stack_parse_reflect)
 *
 * Layers from the top down, separated by "/"; the last one is the
 * substrate:
 *
 *   Au:19.3                       a thick mirror (substrate only)
 *   Rh                            the same with the preset density
 *   Rh:12.41:50nm~0.4nm/Si~0.3nm  a 50 nm Rh coating on Si
 *   B4C:3nm/{W:19.3:1.0nm~0.3nm/B4C:2.52:1.5nm~0.3nm}x50/Si:2.33~0.3nm
 *                                 a 50-period multilayer with a cap
 *   Si3N4:100nm                   free-standing: the last layer has a
 *                                 thickness, so there is no substrate and
 *                                 the ambient continues below the stack
 *   He@1atm,295K/Rh:12.41         a gas ambient (see "Gases" below), first
 *                                 and without a length; vacuum otherwise
 *
 * One layer is  FORMULA[:DENSITY][:THICKNESS][~ROUGHNESS]
 *   FORMULA    an xrlab formula (xrlab-formula.h) or a preset name
 *              ("Kapton", "Fused silica"; xrlab-presets.h). A mixture's
 *              "//" belongs to its formula; layers are separated by one "/".
 *   DENSITY    g/cm³, a plain number, 0 < ρ ≤ 30. Omitted: the preset of
 *              that name, else the first preset with exactly that formula;
 *              an error when there is none.
 *   THICKNESS  a number with a unit: A (or Å), nm, um (µm, μm), mm, cm, m;
 *              0 < t ≤ 1 mm in a reflectivity stack. A number after ":"
 *              with a unit is the thickness, without one the density.
 *   ROUGHNESS  rms roughness of the layer's top interface (the substrate's:
 *              of the interface above it), with a unit, 0 ≤ σ ≤ 100 nm.
 * Every layer but the last needs a thickness. A periodic group is
 *   {LAYER/LAYER/...}xN           (also "×N" or "*N"), 1 ≤ N ≤ 10000,
 * groups nest at most 8 deep, and the expanded stack has at most
 * XRLAB_STACK_MAX_LAYERS layers. Spaces around the parts are ignored.
 *
 * ## Filter stacks (xrlab_stack_parse_filter)
 *
 * Layers in the beam separated by "/", each FORMULA[:DENSITY]:THICKNESS
 * (0 < t ≤ 10 m) or a gas path GAS@CONDITIONS:LENGTH (0 < L ≤ 10 km);
 * groups as above; no roughness:
 *
 *   Al:100um/Cu:8.96:25um/Kapton:50um/air@1atm,295K:1m
 *
 * ## Gases
 *
 *   GAS@[PRESSURE][,TEMPERATURE]   conditions in either order, each at most
 *                                  once; defaults 1 atm and 295 K
 *   GAS          "air" (dry air by mole fraction: N2 78.084 %, O2 20.946 %,
 *                Ar 0.934 %, CO2 0.036 %), a molecular formula ("N2", "He",
 *                "CO2", "H2O"), a gas preset's name ("Helium"), or a mixture
 *                by mole fraction: "80%He+20%N2", "2%H2+Ar" (the last may
 *                leave its fraction out and take the rest; given fractions
 *                must add up to 100 %)
 *   PRESSURE     a number with Pa, hPa, kPa, mbar, bar, atm, Torr or mTorr;
 *                0 < p ≤ 1000 bar
 *   TEMPERATURE  a number with K or °C (also "C"); 1–10000 K
 * The formula unit of a gas is one mean molecule, Σ x_j (molecule j), and
 * its density is the ideal gas law's ρ = p M / (R T) (xrlab_gas_density()).
 *
 * ## Errors
 *
 * A stack that does not parse gets one XRLAB_STACK_ERROR whose message
 * names the layer (its number in the text and its text) and the 1-based
 * column (in characters) of the problem, and what would be valid; the
 * column also comes back through @error_column. Input is untrusted: the
 * parser never recurses deeper than the group limit, checks every count,
 * thickness and product of counts before using it, and refuses text over
 * XRLAB_STACK_MAX_CHARS characters or not UTF-8.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

#include "xrlab-formula.h"

G_BEGIN_DECLS

#define XRLAB_STACK_ERROR (xrlab_stack_error_quark ())
GQuark xrlab_stack_error_quark (void);

typedef enum {
  XRLAB_STACK_ERROR_SYNTAX,      /* braces, separators, counts, empty layers, trailing text */
  XRLAB_STACK_ERROR_MATERIAL,    /* a formula that does not parse, a density missing or out of range */
  XRLAB_STACK_ERROR_THICKNESS,   /* a thickness or length missing, without unit, out of range */
  XRLAB_STACK_ERROR_ROUGHNESS,   /* a roughness without unit, out of range, or in a filter */
  XRLAB_STACK_ERROR_GAS,         /* gas conditions, mole fractions, a gas where none may be */
  XRLAB_STACK_ERROR_LIMIT,       /* nesting, layer count or text length over the limits */
  XRLAB_STACK_ERROR_INVALID,     /* empty, not UTF-8 */
} XrlabStackError;

/* Limits of the grammar. */
#define XRLAB_STACK_MAX_CHARS     65536   /* characters of stack text */
#define XRLAB_STACK_MAX_LAYERS    10000   /* layers after expanding groups */
#define XRLAB_STACK_MAX_COUNT     10000   /* repetitions of one group */
#define XRLAB_STACK_MAX_DEPTH     8       /* groups inside groups */
#define XRLAB_STACK_MAX_DENSITY   30.0    /* g/cm³ */
#define XRLAB_STACK_MAX_REFLECT_THICKNESS_NM 1e6      /* 1 mm */
#define XRLAB_STACK_MAX_FILTER_THICKNESS_NM  1e10     /* 10 m */
#define XRLAB_STACK_MAX_GAS_LENGTH_NM        1e13     /* 10 km */
#define XRLAB_STACK_MAX_ROUGHNESS_NM         100.0
#define XRLAB_STACK_MAX_PRESSURE_PA          1e8      /* 1000 bar */
#define XRLAB_STACK_MIN_TEMPERATURE_K        1.0
#define XRLAB_STACK_MAX_TEMPERATURE_K        1e4

/* Defaults of a gas. */
#define XRLAB_GAS_DEFAULT_PRESSURE_PA   101325.0
#define XRLAB_GAS_DEFAULT_TEMPERATURE_K 295.0

typedef enum {
  XRLAB_STACK_REFLECT,   /* ambient, layers, substrate (or free-standing) */
  XRLAB_STACK_FILTER,    /* layers and gas paths in the beam */
} XrlabStackKind;

/* One distinct material of a stack. */
typedef struct {
  XrlabFormula *formula;    /* owned by the stack */
  double density_g_cm3;     /* given, from the preset, or the gas law */
  const char *name;         /* as written: "W", "Kapton", "air", "80%He+20%N2" */
  gboolean is_gas;
  double pressure_pa;       /* gases only, else 0 */
  double temperature_k;     /* gases only, else 0 */
} XrlabStackMaterial;

/* One layer of the expanded stack, top down (filters: in beam order). */
typedef struct {
  guint material;           /* index into the stack's materials */
  double thickness_nm;      /* > 0 */
  double roughness_nm;      /* rms roughness of its top interface, ≥ 0 */
  guint source;             /* the layer's number as written (1-based): a
                             * group's layers repeat their numbers */
} XrlabStackLayer;

/* A periodic group as written: the layers first_layer .. first_layer +
 * n_period - 1 of the expanded stack, repeated count times in a row (the
 * repetitions follow them in the expanded layers). depth 1 is a group at
 * the top level; a group inside another is listed once, in the outer
 * group's first period. Sorted by first_layer, outer groups before the
 * groups inside them. */
typedef struct {
  gsize first_layer;
  gsize n_period;           /* expanded layers of one period */
  guint count;
  guint depth;
} XrlabStackGroup;

typedef struct _XrlabStack XrlabStack;

#define XRLAB_TYPE_STACK (xrlab_stack_get_type ())
GType xrlab_stack_get_type (void) G_GNUC_CONST;

/* Parses @text as a reflectivity or a filter stack. On failure returns
 * NULL, sets @error and, when @error_column is not NULL, the 1-based
 * column (in characters) of the problem. */
XrlabStack *xrlab_stack_parse_reflect (const char *text, int *error_column, GError **error);
XrlabStack *xrlab_stack_parse_filter  (const char *text, int *error_column, GError **error);

XrlabStack *xrlab_stack_ref   (XrlabStack *stack);
void        xrlab_stack_unref (XrlabStack *stack);

XrlabStackKind xrlab_stack_get_kind (const XrlabStack *stack);

/* The text as given. */
const char *xrlab_stack_get_text (const XrlabStack *stack);

/* A canonical text that parses back to the same stack with no preset
 * lookups (every density, unit and condition written out), e.g.
 * "W:19.25:1nm~0.3nm"; the same for equal stacks: a cache key.
 * Free with g_free(). */
char *xrlab_stack_to_string (const XrlabStack *stack);

/* Distinct materials (equal formula text, density and conditions are one
 * material), in order of first appearance; the ambient gas is one of them. */
gsize                     xrlab_stack_get_n_materials (const XrlabStack *stack);
const XrlabStackMaterial *xrlab_stack_get_material    (const XrlabStack *stack, gsize index);

/* The expanded layers, top down; the substrate and the ambient are not
 * layers. */
gsize                  xrlab_stack_get_n_layers (const XrlabStack *stack);
const XrlabStackLayer *xrlab_stack_get_layers   (const XrlabStack *stack);

gsize                  xrlab_stack_get_n_groups (const XrlabStack *stack);
const XrlabStackGroup *xrlab_stack_get_groups   (const XrlabStack *stack);

/* Reflectivity stacks: the material index of the ambient, or -1 for
 * vacuum; of the substrate, or -1 for a free-standing stack (the ambient
 * below); the substrate's roughness [nm] (0 when free-standing). */
int    xrlab_stack_get_ambient            (const XrlabStack *stack);
int    xrlab_stack_get_substrate          (const XrlabStack *stack);
double xrlab_stack_get_substrate_roughness_nm (const XrlabStack *stack);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (XrlabStack, xrlab_stack_unref)

/* ---- gases -------------------------------------------------------------- */

/* The ideal gas law: ρ = p M / (R T) [g/cm³] for molar mass M [g/mol],
 * pressure p [Pa] and temperature T [K], R = N_A k_B
 * (xrlab-constants.h). */
double xrlab_gas_density (double molar_mass_g_mol, double pressure_pa, double temperature_k);

G_END_DECLS
