/* cli-optics.c -- what the optical-constant subcommands share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "cli-optics.h"

#include <string.h>

#include <glib/gi18n.h>

#include "cli-private.h"

gboolean
xrlab_cli_parse_energy_unit (const char *cmd, const char *text, XrlabEnergyUnit *unit)
{
  if (text == NULL)
    {
      *unit = XRLAB_ENERGY_UNIT_KEV;
      return TRUE;
    }
  if (!xrlab_energy_unit_parse (text, unit))
    {
      xrlab_cli_usage (cmd, _("--unit must be keV, eV or A, not “%s”"), text);
      return FALSE;
    }
  return TRUE;
}

gboolean
xrlab_cli_parse_table (const char *cmd, const char *text, XrlabTableChoice *choice)
{
  if (text == NULL)
    {
      *choice = XRLAB_TABLE_CHOICE_AUTO;
      return TRUE;
    }
  if (!xrlab_table_choice_lookup (text, choice))
    {
      xrlab_cli_usage (cmd, _("--table must be henke, chantler or auto, not “%s”"), text);
      return FALSE;
    }
  return TRUE;
}

gboolean
xrlab_cli_parse_transmission (const char *cmd, const char *text, XrlabQuantity *transmission)
{
  if (text == NULL || strcmp (text, "total") == 0)
    *transmission = XRLAB_QUANTITY_TRANSMISSION;
  else if (strcmp (text, "photo") == 0)
    *transmission = XRLAB_QUANTITY_TRANSMISSION_PHOTO;
  else
    {
      xrlab_cli_usage (cmd, _("--transmission must be total or photo, not “%s”"), text);
      return FALSE;
    }
  return TRUE;
}

void
xrlab_cli_append_table_note (GString *s, XrlabTable table, XrlabTableChoice choice)
{
  const XrlabTableInfo *info = xrlab_table_get_info (table);

  if (choice == XRLAB_TABLE_CHOICE_AUTO)
    /* TRANSLATORS: the table's name ("Henke"), its source, where the scattering comes from */
    g_string_append_printf (s, _("Table: %s (%s), chosen by --table auto; total attenuation with "
                                 "scattering from %s\n"),
                            info->title, info->source, info->scattering_source);
  else
    /* TRANSLATORS: the table's name ("Henke"), its source, where the scattering comes from */
    g_string_append_printf (s, _("Table: %s (%s); total attenuation with scattering from %s\n"),
                            info->title, info->source, info->scattering_source);
}

void
xrlab_cli_append_table_comment (GString *s, XrlabTable table, XrlabTableChoice choice)
{
  g_autofree char *comment = xrlab_table_format_comment (table, choice);

  g_string_append (s, comment);
}

void
xrlab_cli_json_table (XrlabCliJson *json, XrlabTable table, XrlabTableChoice choice)
{
  xrlab_cli_json_string (json, "table", xrlab_table_get_name (table));
  xrlab_cli_json_string (json, "table_choice", xrlab_table_choice_get_name (choice));
  xrlab_cli_json_string (json, "scattering", xrlab_table_get_info (table)->scattering_source);
}

static void
fields_add (XrlabCliFields *fields, XrlabQuantity q)
{
  if (fields->mask & XRLAB_QUANTITY_BIT (q))
    return;
  fields->order[fields->n++] = q;
  fields->mask |= XRLAB_QUANTITY_BIT (q);
}

/* A usage error for an unknown field, listing the known ones. */
static void
unknown_field (const char *cmd, const char *field)
{
  g_autoptr(GString) all = g_string_new ("energy_keV");

  for (int k = 0; k < XRLAB_QUANTITY_N; k++)
    g_string_append_printf (all, ", %s", xrlab_quantity_get_column ((XrlabQuantity) k));
  xrlab_cli_usage (cmd, _("unknown field “%s” in --fields; the fields are %s"), field, all->str);
}

gboolean
xrlab_cli_parse_fields (const char *cmd, const char *text, gboolean have_thickness,
                        XrlabQuantity transmission, XrlabCliFields *fields)
{
  g_auto(GStrv) parts = NULL;

  memset (fields, 0, sizeof *fields);
  if (text == NULL)
    {
      for (int q = 0; q < XRLAB_QUANTITY_N; q++)
        if (!(XRLAB_QUANTITY_MASK_TRANSMISSIONS & XRLAB_QUANTITY_BIT (q))
            || (q == (int) transmission && have_thickness))
          fields_add (fields, (XrlabQuantity) q);
      return TRUE;
    }
  parts = g_strsplit (text, ",", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    {
      XrlabQuantity q;
      char *f = g_strstrip (parts[i]);

      if (strcmp (f, "energy_keV") == 0 || f[0] == '\0')
        continue;
      if (!xrlab_quantity_from_column (f, &q))
        {
          unknown_field (cmd, f);
          return FALSE;
        }
      if (q == XRLAB_QUANTITY_TRANSMISSION)
        q = transmission;
      if ((XRLAB_QUANTITY_MASK_TRANSMISSIONS & XRLAB_QUANTITY_BIT (q)) && !have_thickness)
        {
          xrlab_cli_usage (cmd, _("the field %s needs --thickness UM"), f);
          return FALSE;
        }
      fields_add (fields, q);
    }
  if (fields->n == 0)
    {
      xrlab_cli_usage (cmd, _("--fields names no field"));
      return FALSE;
    }
  return TRUE;
}

XrlabFormula *
xrlab_cli_resolve_material (const char *text, const XrlabPreset **preset)
{
  g_autoptr(GError) error = NULL;
  XrlabFormula *f = xrlab_formula_parse (text, &error);
  const XrlabPreset *p;

  *preset = NULL;
  if (f != NULL)
    {
      *preset = xrlab_presets_lookup (text);
      return f;
    }
  p = xrlab_presets_lookup (text);
  if (p != NULL)
    {
      *preset = p;
      return xrlab_formula_parse (p->formula, NULL);
    }
  xrlab_cli_failf (_("Formula “%s”: %s"), text, error->message);
  return NULL;
}

guint
xrlab_cli_table_add_energy (XrlabCliTable *table)
{
  return xrlab_cli_table_add_column (table, XRLAB_CLI_COLUMN_NUMBER, "energy_keV", _("Energy"),
                                     "keV");
}
