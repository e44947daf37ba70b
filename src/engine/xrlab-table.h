/* xrlab-table.h -- the tables of atomic scattering factors, and the choice
 * between them
 *
 * Two tables (xrlab-elements.h has their data, xrlab-energy.h their energy
 * ranges):
 *   Henke     B. L. Henke, E. M. Gullikson and J. C. Davis, At. Data Nucl.
 *             Data Tables 54, 181 (1993), with CXRO's updates (data/henke/):
 *             valid from 30 eV to 30 keV. It has no scattering cross
 *             sections: the total attenuation with Henke takes coherent and
 *             incoherent scattering from xraylib (CS_Rayl + CS_Compt).
 *   Chantler  C. T. Chantler, NIST FFAST, SRD 66 (data/chantler/): 1.01 eV
 *             to 966 keV, with its own coherent + incoherent scattering
 *             column for the total attenuation.
 *
 * The choice a user makes (--table, the window's table selector, session
 * files): henke, chantler, or auto. Auto takes Henke when the whole request
 * (a sweep, a list of energies, one energy of the Values page, a group of
 * batch rows) lies within Henke's valid range, 30 eV - 30 keV, and Chantler
 * for the whole request when any of it lies outside -- never a switch
 * between tables inside one curve (xrlab_energy_choose_table()). Auto's
 * lower limit is Henke's valid one (30 eV), not 10 eV: below 30 eV Henke
 * refuses every quantity, so a request that reaches below goes to Chantler.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  XRLAB_TABLE_HENKE,      /* Henke, Gullikson & Davis 1993 + CXRO updates */
  XRLAB_TABLE_CHANTLER,   /* Chantler, NIST FFAST (SRD 66) */
  XRLAB_TABLE_N_TABLES,
} XrlabTable;

/* What a user chooses: one of the tables, or auto. A choice of one table
 * has the value of that table. */
typedef enum {
  XRLAB_TABLE_CHOICE_HENKE = XRLAB_TABLE_HENKE,
  XRLAB_TABLE_CHOICE_CHANTLER = XRLAB_TABLE_CHANTLER,
  XRLAB_TABLE_CHOICE_AUTO,
  XRLAB_TABLE_CHOICE_N,
} XrlabTableChoice;

/* What there is to say about a table. */
typedef struct {
  XrlabTable table;
  const char *name;               /* "henke", "chantler": the machine name (CLI option values,
                                   * CSV and JSON fields, session files; never translated) */
  const char *title;              /* "Henke", "Chantler": the proper name, in messages */
  const char *source;             /* one line for file headers and footers (untranslated):
                                   * "Henke, Gullikson & Davis 1993 with CXRO updates" */
  const char *scattering_source;  /* where the scattering part of the total attenuation
                                   * comes from (untranslated): "xraylib CS_Rayl + CS_Compt"
                                   * (Henke), "Chantler's coherent + incoherent column" */
} XrlabTableInfo;

const XrlabTableInfo *xrlab_table_get_info (XrlabTable table);

/* The machine name, xrlab_table_get_info (@table)->name. */
const char *xrlab_table_get_name (XrlabTable table);

/* The table whose machine name is @name; FALSE when none is. */
gboolean    xrlab_table_lookup (const char *name, XrlabTable *table);

/* The comment lines that name @table, chosen by @choice, in the header of
 * a file (untranslated, each starting with "# " and ending in a newline):
 *   # table: henke (Henke, Gullikson & Davis 1993 with CXRO updates; choice auto)
 *   # scattering in the total attenuation: xraylib CS_Rayl + CS_Compt */
char *xrlab_table_format_comment (XrlabTable table, XrlabTableChoice choice);

/* "henke", "chantler", "auto" and back (exact spelling). */
const char *xrlab_table_choice_get_name (XrlabTableChoice choice);
gboolean    xrlab_table_choice_lookup   (const char *name, XrlabTableChoice *choice);

G_END_DECLS
