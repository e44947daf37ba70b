/* xrlab-table.c -- the tables of atomic scattering factors, and the choice
 * between them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-table.h"

#include <string.h>

static const XrlabTableInfo tables[XRLAB_TABLE_N_TABLES] = {
  [XRLAB_TABLE_HENKE] = {
    XRLAB_TABLE_HENKE, "henke", "Henke", "Henke, Gullikson & Davis 1993 with CXRO updates",
    "xraylib CS_Rayl + CS_Compt",
  },
  [XRLAB_TABLE_CHANTLER] = {
    XRLAB_TABLE_CHANTLER, "chantler", "Chantler", "Chantler, NIST FFAST (SRD 66)",
    "Chantler's coherent + incoherent column",
  },
};

static const char *const choice_names[XRLAB_TABLE_CHOICE_N] = { "henke", "chantler", "auto" };

G_STATIC_ASSERT ((int) XRLAB_TABLE_CHOICE_HENKE == (int) XRLAB_TABLE_HENKE);
G_STATIC_ASSERT ((int) XRLAB_TABLE_CHOICE_CHANTLER == (int) XRLAB_TABLE_CHANTLER);

const XrlabTableInfo *
xrlab_table_get_info (XrlabTable table)
{
  g_return_val_if_fail ((guint) table < XRLAB_TABLE_N_TABLES, NULL);
  return &tables[table];
}

const char *
xrlab_table_get_name (XrlabTable table)
{
  g_return_val_if_fail ((guint) table < XRLAB_TABLE_N_TABLES, NULL);
  return tables[table].name;
}

gboolean
xrlab_table_lookup (const char *name, XrlabTable *table)
{
  for (int t = 0; t < XRLAB_TABLE_N_TABLES; t++)
    if (name != NULL && strcmp (name, tables[t].name) == 0)
      {
        if (table)
          *table = (XrlabTable) t;
        return TRUE;
      }
  return FALSE;
}

char *
xrlab_table_format_comment (XrlabTable table, XrlabTableChoice choice)
{
  g_return_val_if_fail ((guint) table < XRLAB_TABLE_N_TABLES, NULL);
  g_return_val_if_fail ((guint) choice < XRLAB_TABLE_CHOICE_N, NULL);
  return g_strdup_printf ("# table: %s (%s; choice %s)\n"
                          "# scattering in the total attenuation: %s\n",
                          tables[table].name, tables[table].source, choice_names[choice],
                          tables[table].scattering_source);
}

const char *
xrlab_table_choice_get_name (XrlabTableChoice choice)
{
  g_return_val_if_fail ((guint) choice < XRLAB_TABLE_CHOICE_N, NULL);
  return choice_names[choice];
}

gboolean
xrlab_table_choice_lookup (const char *name, XrlabTableChoice *choice)
{
  for (int c = 0; c < XRLAB_TABLE_CHOICE_N; c++)
    if (name != NULL && strcmp (name, choice_names[c]) == 0)
      {
        if (choice)
          *choice = (XrlabTableChoice) c;
        return TRUE;
      }
  return FALSE;
}
