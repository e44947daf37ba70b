/* cli-optics.h -- what the optical-constant subcommands of xrlab-cli share:
 * energy units, the table choice (--table) and how outputs name the table,
 * the transmission (--transmission), the --fields choice of quantities,
 * materials given as a formula or a preset, the energy column of their
 * tables
 *
 * The subcommands: cli-optics-calc.c (calc, compare, convert),
 * cli-optics-batch.c (batch), cli-optics-info.c (formula, edges, materials).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "cli-output.h"
#include "xrlab-formula.h"
#include "xrlab-optics.h"
#include "xrlab-presets.h"

G_BEGIN_DECLS

/* --unit of subcommand @cmd: keV (also when @text is NULL), eV or A. Prints
 * a usage error and returns FALSE for anything else. */
gboolean xrlab_cli_parse_energy_unit (const char *cmd, const char *text, XrlabEnergyUnit *unit);

/* --table of subcommand @cmd: henke, chantler or auto (also when @text is
 * NULL). Prints a usage error and returns FALSE for anything else. */
gboolean xrlab_cli_parse_table (const char *cmd, const char *text, XrlabTableChoice *choice);

/* --transmission of subcommand @cmd: "total" (also when @text is NULL) or
 * "photo", as the quantity that "transmission" means for the command
 * (XRLAB_QUANTITY_TRANSMISSION or XRLAB_QUANTITY_TRANSMISSION_PHOTO).
 * Prints a usage error and returns FALSE for anything else. */
gboolean xrlab_cli_parse_transmission (const char *cmd, const char *text, XrlabQuantity *transmission);

/* How an output names the table it used (@table, taken by @choice):
 *   text: a footer line "Table: Henke (…), chosen by --table auto; …"
 *   CSV:  the comment lines of xrlab_table_format_comment()
 *   JSON: the members "table", "table_choice" and "scattering". */
void xrlab_cli_append_table_note    (GString *s, XrlabTable table, XrlabTableChoice choice);
void xrlab_cli_append_table_comment (GString *s, XrlabTable table, XrlabTableChoice choice);
void xrlab_cli_json_table           (XrlabCliJson *json, XrlabTable table, XrlabTableChoice choice);

/* The quantities chosen with --fields, in the order given. */
typedef struct {
  XrlabQuantity order[XRLAB_QUANTITY_N];
  guint n;
  XrlabQuantityMask mask;
} XrlabCliFields;

/* Parses --fields of subcommand @cmd: column names separated by commas,
 * energy_keV allowed and ignored (it is always the first column), the name
 * "transmission" standing for @transmission (--transmission); NULL: all
 * quantities, of the two transmissions @transmission only, and only when
 * @have_thickness. Prints a usage error and returns FALSE on an unknown
 * name, a transmission without @have_thickness, or no name at all. */
gboolean xrlab_cli_parse_fields (const char *cmd, const char *text, gboolean have_thickness,
                                 XrlabQuantity transmission, XrlabCliFields *fields);

/* A formula, a preset name ("Kapton") or a preset's formula: the formula
 * and, when it is a preset's, the preset. A preset's name is matched
 * without regard to case ("water" is the preset Water, before the formula
 * parser's suggestion "WAtEr"). NULL after printing why not (exit with
 * XRLAB_CLI_BAD_INPUT). */
XrlabFormula *xrlab_cli_resolve_material (const char *text, const XrlabPreset **preset);

/* The materials of arguments FORMULA:RHO or PRESET (compare, plot), each
 * with @thickness_um (NaN: none); @formulas keeps their formulas. Returns
 * the exit status after printing what is wrong. */
int xrlab_cli_read_materials (char **args, double thickness_um, GPtrArray *formulas,
                              XrlabOpticsMaterial *materials);

/* Adds the column energy_keV ("Energy", keV) to @table. */
guint xrlab_cli_table_add_energy (XrlabCliTable *table);

G_END_DECLS
