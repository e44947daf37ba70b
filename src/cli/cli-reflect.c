/* cli-reflect.c -- xrlab-cli reflect and filter: the reflectivity of
 * mirrors and multilayers, the transmission of filters and gas paths
 *
 * Both hand their stack to the engine's stacks service
 * (xrlab-engine-reflect.h) and fetch one reply: reflect a curve vs angle
 * at one energy, vs energy at one angle, or a map on energies × angles (a
 * job on the engine's lane when it is big, which Ctrl-C stops); filter the
 * transmission vs energy.
 *
 * Exit status: 0 success; 1 bad input (a stack, energy or angle spec that
 * does not parse, an energy outside a material's tables: the message names
 * the layer and the column of the stack, and nothing partial goes to
 * stdout); 2 usage error (unknown option, missing option, an invalid
 * choice for --format, --unit, --angle-unit, --pol, --table or
 * --transmission).
 *
 * Tables: --table henke|chantler|auto (default auto: Henke when every
 * energy lies within 30 eV - 30 keV, Chantler for all of them otherwise);
 * every output names the table (a footer line, CSV comment lines, JSON
 * members). filter's transmission is by the total attenuation unless
 * --transmission photo asks for photoabsorption alone; its column says
 * which (transmission, transmission_photo).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

#include "cli-optics.h"
#include "cli-private.h"
#include "xrlab-engine-reflect.h"
#include "xrlab-util.h"

/* Rows of a CSV written in one go at most (a map is written in parts). */
#define CSV_PART_ROWS 65536

/* ---- the engine ------------------------------------------------------------- */

typedef struct {
  int                pending;
  GPtrArray         *stack_errors;
  XrlabEngineCurves *curves;
  GError            *error;
} Wait;

static void
set_done (GObject *source, GAsyncResult *result, gpointer data)
{
  Wait *w = data;
  GError *error = NULL;

  if (!xrlab_engine_set_stacks_finish (XRLAB_ENGINE (source), result, &w->stack_errors, &error))
    g_propagate_error (&w->error, error);
  w->pending--;
}

static void
fetch_done (GObject *source, GAsyncResult *result, gpointer data)
{
  Wait *w = data;
  GError *error = NULL;

  w->curves = xrlab_engine_reflect_fetch_finish (XRLAB_ENGINE (source), result, &error);
  if (w->curves == NULL && w->error == NULL)
    g_propagate_error (&w->error, error);
  else
    g_clear_error (&error);
  w->pending--;
}

/* The curves of the one stack @text of @kind for @query, on the engine.
 * Returns the exit status; *curves the reply. */
static int
compute (const char *text, XrlabStackKind kind, const XrlabReflectQuery *query,
         GCancellable *cancellable, XrlabEngineCurves **curves)
{
  g_autoptr(XrlabEngine) engine = xrlab_engine_new ();
  GMainContext *context = g_main_context_new ();
  XrlabStackSpec spec = { 1, NULL, text, kind };
  Wait w = { 0 };
  int status = XRLAB_CLI_OK;

  g_main_context_push_thread_default (context);
  w.pending = 2;
  xrlab_engine_set_stacks_async (engine, &spec, 1, NULL, set_done, &w);
  xrlab_engine_reflect_fetch_async (engine, "cli", query, NULL, 0, cancellable, fetch_done, &w);
  while (w.pending > 0)
    g_main_context_iteration (context, TRUE);
  g_main_context_pop_thread_default (context);
  g_main_context_unref (context);

  if (w.stack_errors != NULL && g_ptr_array_index (w.stack_errors, 0) != NULL)
    status = xrlab_cli_fail (g_ptr_array_index (w.stack_errors, 0));
  else if (g_error_matches (w.error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    status = XRLAB_CLI_INTERRUPTED;
  else if (w.error != NULL)
    status = xrlab_cli_fail (w.error);
  else if (w.curves->n_stacks != 1 || w.curves->status[0] != XRLAB_ENGINE_VALUES_CURRENT)
    status = xrlab_cli_failf ("%s", w.curves->n_stacks == 1 && w.curves->messages[0] != NULL
                                    ? w.curves->messages[0] : "no values");
  g_clear_pointer (&w.stack_errors, g_ptr_array_unref);
  g_clear_error (&w.error);
  if (status == XRLAB_CLI_OK)
    *curves = w.curves;
  else
    g_clear_pointer (&w.curves, xrlab_engine_curves_free);
  return status;
}

/* The canonical text of a stack the engine has accepted. */
static char *
canonical_text (const char *text, XrlabStackKind kind)
{
  g_autoptr(XrlabStack) stack = kind == XRLAB_STACK_FILTER ? xrlab_stack_parse_filter (text, NULL, NULL)
                                                           : xrlab_stack_parse_reflect (text, NULL, NULL);

  return stack != NULL ? xrlab_stack_to_string (stack) : g_strdup (text);
}

/* The table a reflectivity output names: a footer line of the text, the
 * first comment line of xrlab_table_format_comment() in CSV (the
 * scattering in the total attenuation has no part in a reflectivity). */
static void
reflect_append_table_note (GString *s, XrlabTable table, XrlabTableChoice choice)
{
  const XrlabTableInfo *info = xrlab_table_get_info (table);

  if (choice == XRLAB_TABLE_CHOICE_AUTO)
    /* TRANSLATORS: the table's name ("Henke") and its source */
    g_string_append_printf (s, _("Table: %s (%s), chosen by --table auto\n"), info->title, info->source);
  else
    /* TRANSLATORS: the table's name ("Henke") and its source */
    g_string_append_printf (s, _("Table: %s (%s)\n"), info->title, info->source);
}

static void
reflect_append_table_comment (GString *s, XrlabTable table, XrlabTableChoice choice)
{
  g_autofree char *comment = xrlab_table_format_comment (table, choice);
  const char *end = strchr (comment, '\n');

  g_string_append_len (s, comment, end != NULL ? end - comment + 1 : (gssize) strlen (comment));
}

/* ---- reflect ------------------------------------------------------------------ */

/* --pol: s, p, unpolarized or a degree from −1 to 1. */
static gboolean
parse_polarization (const char *text, double *p)
{
  if (text == NULL || strcmp (text, "unpolarized") == 0 || strcmp (text, "unpolarised") == 0)
    *p = 0.0;
  else if (strcmp (text, "s") == 0)
    *p = 1.0;
  else if (strcmp (text, "p") == 0)
    *p = -1.0;
  else if (!xrlab_parse_double (text, FALSE, p) || !(*p >= -1.0 && *p <= 1.0))
    {
      xrlab_cli_usage ("reflect", _("--pol must be s, p, unpolarized or a degree from −1 (p) "
                                    "to 1 (s), not “%s”"), text);
      return FALSE;
    }
  return TRUE;
}

static char *
polarization_text (double p)
{
  char buf[XRLAB_DTOA_BUFSIZE];

  xrlab_format_double (p, buf);
  if (p == 1.0)
    return g_strdup_printf (_("s polarization (P = %s)"), buf);
  if (p == -1.0)
    return g_strdup_printf (_("p polarization (P = %s)"), buf);
  if (p == 0.0)
    return g_strdup_printf (_("unpolarized (P = %s)"), buf);
  return g_strdup_printf (_("polarization degree P = %s"), buf);
}

/* The table: one row per energy × angle, energy by energy. */
static XrlabCliTable *
reflect_table_new (XrlabAngleUnit unit)
{
  XrlabCliTable *t = xrlab_cli_table_new ();
  g_autofree char *key = g_strdup_printf ("angle_%s", xrlab_angle_unit_get_id (unit));

  xrlab_cli_table_add_energy (t);
  xrlab_cli_table_add_column (t, XRLAB_CLI_COLUMN_NUMBER, key, _("Angle"),
                              unit == XRLAB_ANGLE_UNIT_DEG ? "°" : "mrad");
  xrlab_cli_table_add_column (t, XRLAB_CLI_COLUMN_NUMBER, "R", "R", NULL);
  xrlab_cli_table_add_column (t, XRLAB_CLI_COLUMN_NUMBER, "R_s", "R_s", NULL);
  xrlab_cli_table_add_column (t, XRLAB_CLI_COLUMN_NUMBER, "R_p", "R_p", NULL);
  return t;
}

/* Row @r of the curves: its energy, angle and value index. */
static void
reflect_row (const XrlabEngineCurves *c, gsize r, gsize *e, gsize *a, gsize *p)
{
  switch (c->curve)
    {
    case XRLAB_REFLECT_CURVE_ANGLES:
      *e = 0, *a = r, *p = r;
      return;
    case XRLAB_REFLECT_CURVE_ENERGIES:
      *e = r, *a = 0, *p = r;
      return;
    default:
      *e = r / c->n_angles, *a = r % c->n_angles, *p = r;
      return;
    }
}

/* Rows [@first, @first + @n) of the curves; @angles in the user's unit,
 * as given. */
static void
reflect_fill (XrlabCliTable *t, const XrlabEngineCurves *c, const double *angles, gsize first,
              gsize n)
{
  const double *r = xrlab_engine_curves_get (c, 0, XRLAB_REFLECT_VALUE_R);
  const double *rs = xrlab_engine_curves_get (c, 0, XRLAB_REFLECT_VALUE_R_S);
  const double *rp = xrlab_engine_curves_get (c, 0, XRLAB_REFLECT_VALUE_R_P);

  xrlab_cli_table_clear_rows (t);
  for (gsize k = first; k < first + n; k++)
    {
      gsize row = xrlab_cli_table_add_row (t), e, a, p;

      reflect_row (c, k, &e, &a, &p);
      xrlab_cli_table_set_number (t, row, 0, c->energies_kev[e]);
      xrlab_cli_table_set_number (t, row, 1, angles[a]);
      xrlab_cli_table_set_number (t, row, 2, r[p]);
      xrlab_cli_table_set_number (t, row, 3, rs[p]);
      xrlab_cli_table_set_number (t, row, 4, rp[p]);
    }
}

/* The marks of the curve: critical angles (one energy) or cut-off
 * energies (one angle), in the angle unit or keV. */
static gboolean
has_marks (const XrlabEngineCurves *c)
{
  return c->mark_start[1] > 0;
}

static double
mark_value (const XrlabEngineCurves *c, gsize k, XrlabAngleUnit unit)
{
  return c->curve == XRLAB_REFLECT_CURVE_ANGLES ? xrlab_angle_from_rad (c->marks[k], unit) : c->marks[k];
}

static void
reflect_append_text (const XrlabEngineCurves *c, const char *stack, const double *angles,
                     XrlabAngleUnit unit, XrlabTableChoice choice, GString *s)
{
  g_autoptr(XrlabCliTable) t = reflect_table_new (unit);
  g_autofree char *pol = polarization_text (c->polarization);

  g_string_append_printf (s, "%s\n%s\n", stack, pol);
  if (has_marks (c))
    {
      g_autofree char *at = NULL;

      if (c->curve == XRLAB_REFLECT_CURVE_ANGLES)
        {
          g_autofree char *e = xrlab_cli_format_number (c->energies_kev[0]);
          at = g_strdup_printf (_("Critical angles at %s keV:"), e);
        }
      else
        {
          g_autofree char *a = xrlab_cli_format_number (angles[0]);
          at = g_strdup_printf (_("Energies where the critical angle falls to %s %s:"), a,
                                unit == XRLAB_ANGLE_UNIT_DEG ? "°" : "mrad");
        }
      g_string_append (s, at);
      for (gsize k = 0; k < c->mark_start[1]; k++)
        {
          g_autofree char *v = xrlab_cli_format_number (mark_value (c, k, unit));
          g_string_append_printf (s, "%s %s %s %s", k > 0 ? "," : "", c->mark_names[k], v,
                                  c->curve == XRLAB_REFLECT_CURVE_ANGLES
                                  ? (unit == XRLAB_ANGLE_UNIT_DEG ? "°" : "mrad") : "keV");
        }
      g_string_append_c (s, '\n');
    }
  g_string_append_c (s, '\n');
  reflect_fill (t, c, angles, 0, c->n_points);
  xrlab_cli_table_append_text (t, s);
  g_string_append_c (s, '\n');
  reflect_append_table_note (s, c->table, choice);
}

static void
reflect_append_csv (const XrlabEngineCurves *c, const double *angles, XrlabAngleUnit unit,
                    XrlabTableChoice choice, GString *s)
{
  g_autoptr(XrlabCliTable) t = reflect_table_new (unit);

  reflect_append_table_comment (s, c->table, choice);
  xrlab_cli_table_append_csv_header (t, s);
  for (gsize first = 0; first < c->n_points; first += CSV_PART_ROWS)
    {
      reflect_fill (t, c, angles, first, MIN (CSV_PART_ROWS, c->n_points - first));
      xrlab_cli_table_append_csv_rows (t, s);
    }
}

static void
reflect_append_json (const XrlabEngineCurves *c, const char *text, const char *canonical,
                     const double *angles, XrlabAngleUnit unit, XrlabTableChoice choice,
                     GString *s)
{
  g_autoptr(XrlabCliTable) t = reflect_table_new (unit);
  g_autofree char *key = NULL;
  XrlabCliJson json;

  xrlab_cli_json_init (&json, s);
  xrlab_cli_json_begin_object (&json, NULL, XRLAB_CLI_JSON_LINES);
  xrlab_cli_json_string (&json, "stack", text);
  xrlab_cli_json_string (&json, "canonical", canonical);
  xrlab_cli_json_number (&json, "polarization", c->polarization);
  xrlab_cli_json_string (&json, "angle_unit", xrlab_angle_unit_get_id (unit));
  xrlab_cli_json_string (&json, "table", xrlab_table_get_name (c->table));
  xrlab_cli_json_string (&json, "table_choice", xrlab_table_choice_get_name (choice));
  if (has_marks (c))
    {
      key = c->curve == XRLAB_REFLECT_CURVE_ANGLES
            ? g_strdup_printf ("critical_angle_%s", xrlab_angle_unit_get_id (unit))
            : g_strdup ("cutoff_energy_keV");
      xrlab_cli_json_begin_array (&json, "materials", XRLAB_CLI_JSON_LINES);
      for (gsize k = 0; k < c->mark_start[1]; k++)
        {
          xrlab_cli_json_begin_object (&json, NULL, XRLAB_CLI_JSON_INLINE);
          xrlab_cli_json_string (&json, "name", c->mark_names[k]);
          xrlab_cli_json_number (&json, key, mark_value (c, k, unit));
          xrlab_cli_json_end (&json);
        }
      xrlab_cli_json_end (&json);
    }
  reflect_fill (t, c, angles, 0, c->n_points);
  xrlab_cli_table_write_json_columns (t, &json, "columns");
  xrlab_cli_json_end (&json);
}

/* The query of -e and --angle: a curve vs angle at one energy, vs energy
 * at one angle, or the map. */
static void
reflect_query (XrlabReflectQuery *q, XrlabEnergyGrid *grid, const double *angles, gsize n_a,
               double polarization)
{
  gsize n_e = xrlab_energy_grid_get_size (grid);

  memset (q, 0, sizeof *q);
  q->table = xrlab_energy_grid_get_table (grid);
  q->values = XRLAB_REFLECT_VALUES_R;
  q->polarization = polarization;
  q->grid = grid;
  q->angles_rad = angles;
  q->n_angles = n_a;
  if (n_e == 1)
    {
      q->curve = XRLAB_REFLECT_CURVE_ANGLES;
      q->energy_kev = xrlab_energy_grid_get_energies_kev (grid)[0];
    }
  else if (n_a == 1)
    {
      q->curve = XRLAB_REFLECT_CURVE_ENERGIES;
      q->angle_rad = angles[0];
    }
  else
    q->curve = XRLAB_REFLECT_CURVE_MAP;
}

int
xrlab_cli_reflect (int argc, char **argv)
{
  g_auto(XrlabCliOpticsOptions) o = { 0 };
  g_autofree char *stack_text = NULL;
  g_autofree char *angle_text = NULL, *angle_unit_text = NULL, *pol_text = NULL;
  g_auto(GStrv) rest = NULL;
  const GOptionEntry entries[] = {
    { "stack", 's', 0, G_OPTION_ARG_STRING, &stack_text,
      N_("The stack: layers from the top, “/” between them, the substrate last"), N_("STACK") },
    { "angle", 'a', 0, G_OPTION_ARG_STRING, &angle_text,
      N_("Grazing angles: 5, 1,2,5, 0:10:101 or 0.1:10:50:log"), N_("SPEC") },
    { "angle-unit", 0, 0, G_OPTION_ARG_STRING, &angle_unit_text,
      N_("Unit of the angles: mrad (default) or deg"), N_("UNIT") },
    { "pol", 'p', 0, G_OPTION_ARG_STRING, &pol_text,
      N_("Polarization of R: s, p, unpolarized (default) or a degree from −1 to 1"), N_("POL") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &rest, NULL, NULL },
    G_OPTION_ENTRY_NULL
  };
  const XrlabCliSpec spec = {
    .parameter_string = "--stack STACK -e SPEC --angle SPEC",
    .summary =
      _("X-ray reflectivity of a mirror or a multilayer (Parratt, Névot–Croce roughness):\n"
        "R, R_s and R_p vs grazing angle at one energy, vs energy at one angle, or on\n"
        "every energy × angle.\n\n"
        "STACK lists the layers from the top, separated by “/”; the last one is the\n"
        "substrate. A layer is FORMULA[:DENSITY][:THICKNESS][~ROUGHNESS]: DENSITY in\n"
        "g/cm³ (left out: the preset's), THICKNESS and ROUGHNESS (rms, of the layer's\n"
        "top) with a unit, A, nm, um or mm. A periodic group is {LAYER/LAYER...}xN.\n"
        "The substrate has no thickness; give the last layer one for a free-standing\n"
        "film. A gas ambient comes first: He@1atm,295K/Rh."),
    .description =
      _("Examples:\n"
        "  xrlab-cli reflect --stack Rh -e 10 --angle 0:10:11\n"
        "  xrlab-cli reflect --stack Pt:21.45:30nm~0.4nm/Si~0.3nm --angle 3 -e 5:30:6\n"
        "  xrlab-cli reflect --stack 'B4C:3nm/{W:19.3:1nm~0.3nm/B4C:2.52:1.5nm~0.3nm}x50/Si:2.33~0.3nm' \\\n"
        "      -e 8.048 --angle 0:4:9 --angle-unit deg --pol s --format csv\n\n"
        "CSV columns: energy_keV, angle_mrad (or angle_deg), R, R_s, R_p, one row per\n"
        "energy × angle, energy by energy. R is ((1 + P) R_s + (1 − P) R_p) / 2.\n"
        "The optical constants come from --table: auto takes Henke's (30 eV – 30 keV)\n"
        "when every energy lies within them, Chantler's (to 966 keV) otherwise.\n"
        "Exit status: 0 success, 1 bad input, 2 usage error."),
    .entries = { entries, o.entries },
  };
  g_autoptr(XrlabEnergyGrid) grid = NULL;
  g_autoptr(XrlabEngineCurves) curves = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) s = NULL;
  g_autofree double *angles = NULL, *angles_rad = NULL;
  g_autofree char *canonical = NULL;
  XrlabEnergyUnit unit;
  XrlabAngleUnit angle_unit = XRLAB_ANGLE_UNIT_MRAD;
  XrlabTableChoice choice;
  XrlabCliFormat format;
  XrlabReflectQuery query;
  double polarization;
  gsize n_a = 0;
  int status;

  xrlab_cli_optics_options_init (&o);
  if (!xrlab_cli_parse_options (&spec, &argc, &argv))
    return XRLAB_CLI_USAGE;
  if (rest != NULL && rest[0] != NULL)
    return xrlab_cli_usage ("reflect", _("unexpected “%s”: give the stack with --stack "
                                         "(quote it for the shell)"), rest[0]);
  if (stack_text == NULL)
    return xrlab_cli_usage ("reflect", _("missing --stack STACK (e.g. --stack Rh)"));
  if (o.energy == NULL)
    return xrlab_cli_usage ("reflect", _("missing -e SPEC (energies, e.g. -e 10)"));
  if (angle_text == NULL)
    return xrlab_cli_usage ("reflect", _("missing --angle SPEC (grazing angles, e.g. --angle 0:10:101)"));
  if (angle_unit_text != NULL && !xrlab_angle_unit_parse (angle_unit_text, &angle_unit))
    return xrlab_cli_usage ("reflect", _("--angle-unit must be mrad or deg, not “%s”"),
                            angle_unit_text);
  if (!xrlab_cli_parse_format ("reflect", o.format, &format)
      || !xrlab_cli_parse_energy_unit ("reflect", o.unit, &unit)
      || !xrlab_cli_parse_table ("reflect", o.table, &choice)
      || !parse_polarization (pol_text, &polarization))
    return XRLAB_CLI_USAGE;

  grid = xrlab_energy_grid_parse_for_table (o.energy, unit, choice, &error);
  if (grid == NULL)
    return xrlab_cli_fail (error);
  angles = xrlab_angle_spec_parse (angle_text, angle_unit, &n_a, &error);
  if (angles == NULL)
    return xrlab_cli_fail (error);
  angles_rad = g_new (double, n_a);
  for (gsize a = 0; a < n_a; a++)
    angles_rad[a] = xrlab_angle_to_rad (angles[a], angle_unit);
  reflect_query (&query, grid, angles_rad, n_a, polarization);
  status = compute (stack_text, XRLAB_STACK_REFLECT, &query,
                    query.curve == XRLAB_REFLECT_CURVE_MAP ? xrlab_cli_interrupt_cancellable () : NULL,
                    &curves);
  if (status != XRLAB_CLI_OK)
    return status;

  canonical = canonical_text (stack_text, XRLAB_STACK_REFLECT);
  s = g_string_new (NULL);
  if (format == XRLAB_CLI_FORMAT_CSV)
    reflect_append_csv (curves, angles, angle_unit, choice, s);
  else if (format == XRLAB_CLI_FORMAT_JSON)
    reflect_append_json (curves, stack_text, canonical, angles, angle_unit, choice, s);
  else
    reflect_append_text (curves, stack_text, angles, angle_unit, choice, s);
  return xrlab_cli_write_output (o.output, s);
}

/* ---- filter ------------------------------------------------------------------- */

int
xrlab_cli_filter (int argc, char **argv)
{
  g_auto(XrlabCliOpticsOptions) o = { 0 };
  g_autofree char *transmission_text = NULL;
  g_auto(GStrv) rest = NULL;
  const GOptionEntry entries[] = {
    { "transmission", 0, 0, G_OPTION_ARG_STRING, &transmission_text,
      N_("Transmission from the total attenuation (default) or photo(absorption) only"),
      N_("total|photo") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &rest, NULL, N_("STACK") },
    G_OPTION_ENTRY_NULL
  };
  const XrlabCliSpec spec = {
    .summary =
      _("Transmission of a stack of filters and gas paths, T = Π exp(−μ t), with the\n"
        "total attenuation μ (photoabsorption + coherent + incoherent scattering), or\n"
        "with --transmission photo the photoabsorption alone.\n\n"
        "STACK lists what the beam crosses, separated by “/”:\n"
        "  FORMULA[:DENSITY]:THICKNESS  a filter: DENSITY in g/cm³ (left out: the\n"
        "                               preset's), THICKNESS with a unit (A, nm, um,\n"
        "                               mm, cm, m)\n"
        "  GAS@[PRESSURE][,TEMPERATURE]:LENGTH\n"
        "                               a gas path, its density from the ideal gas\n"
        "                               law: GAS is air, a formula (N2, He, Ar, CO2)\n"
        "                               or a mixture by mole fraction (80%He+20%N2);\n"
        "                               PRESSURE in Pa, hPa, kPa, mbar, bar, atm, Torr\n"
        "                               or mTorr (default 1 atm), TEMPERATURE in K or\n"
        "                               °C (default 295 K)\n"
        "  {LAYER/LAYER...}xN           a group repeated N times"),
    .description =
      _("Examples:\n"
        "  xrlab-cli filter Al:100um/Cu:8.96:25um/Kapton:50um -e 5:30:6\n"
        "  xrlab-cli filter 'air@1atm,295K:1m' -e 8,12,17.5\n"
        "  xrlab-cli filter 'Be:0.5mm/He@1bar,20C:2m/80%He+20%N2@0.5atm:30cm' -e 5:25:5 -f csv\n\n"
        "CSV columns: energy_keV, transmission (transmission_photo with --transmission\n"
        "photo). The tables come from --table: auto takes Henke's (30 eV – 30 keV) when\n"
        "every energy lies within them, Chantler's (to 966 keV) otherwise.\n"
        "Exit status: 0 success, 1 bad input, 2 usage error."),
    .entries = { entries, o.entries },
  };
  g_autoptr(XrlabEnergyGrid) grid = NULL;
  g_autoptr(XrlabEngineCurves) curves = NULL;
  g_autoptr(XrlabCliTable) table = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) s = NULL;
  XrlabReflectQuery query = { .curve = XRLAB_REFLECT_CURVE_FILTER };
  XrlabEnergyUnit unit;
  XrlabCliFormat format;
  XrlabTableChoice choice;
  XrlabQuantity transmission;
  int status;

  xrlab_cli_optics_options_init (&o);
  if (!xrlab_cli_parse_options (&spec, &argc, &argv))
    return XRLAB_CLI_USAGE;
  if (rest == NULL || rest[0] == NULL)
    return xrlab_cli_usage ("filter", _("missing STACK (e.g. Al:100um/air@1atm:1m)"));
  if (rest[1] != NULL)
    return xrlab_cli_usage ("filter", _("one STACK only, got “%s” too (quote stacks with spaces)"),
                            rest[1]);
  if (o.energy == NULL)
    return xrlab_cli_usage ("filter", _("missing -e SPEC (energies, e.g. -e 8.048)"));
  if (!xrlab_cli_parse_format ("filter", o.format, &format)
      || !xrlab_cli_parse_energy_unit ("filter", o.unit, &unit)
      || !xrlab_cli_parse_table ("filter", o.table, &choice)
      || !xrlab_cli_parse_transmission ("filter", transmission_text, &transmission))
    return XRLAB_CLI_USAGE;

  grid = xrlab_energy_grid_parse_for_table (o.energy, unit, choice, &error);
  if (grid == NULL)
    return xrlab_cli_fail (error);
  query.grid = grid;
  query.table = xrlab_energy_grid_get_table (grid);
  query.photo_only = transmission == XRLAB_QUANTITY_TRANSMISSION_PHOTO;
  status = compute (rest[0], XRLAB_STACK_FILTER, &query, NULL, &curves);
  if (status != XRLAB_CLI_OK)
    return status;

  table = xrlab_cli_table_new ();
  xrlab_cli_table_add_energy (table);
  if (query.photo_only)
    xrlab_cli_table_add_column (table, XRLAB_CLI_COLUMN_NUMBER, "transmission_photo",
                                _("Transmission (photo)"), NULL);
  else
    xrlab_cli_table_add_column (table, XRLAB_CLI_COLUMN_NUMBER, "transmission",
                                _("Transmission (total)"), NULL);
  xrlab_cli_table_set_numbers (table, 0, curves->energies_kev, curves->n_energies);
  xrlab_cli_table_set_numbers (table, 1, xrlab_engine_curves_get (curves, 0, XRLAB_REFLECT_VALUE_T),
                               curves->n_points);

  s = g_string_new (NULL);
  if (format == XRLAB_CLI_FORMAT_CSV)
    {
      xrlab_cli_append_table_comment (s, curves->table, choice);
      xrlab_cli_table_append_csv (table, s);
    }
  else if (format == XRLAB_CLI_FORMAT_JSON)
    {
      g_autofree char *canonical = canonical_text (rest[0], XRLAB_STACK_FILTER);
      XrlabCliJson json;

      xrlab_cli_json_init (&json, s);
      xrlab_cli_json_begin_object (&json, NULL, XRLAB_CLI_JSON_LINES);
      xrlab_cli_json_string (&json, "stack", rest[0]);
      xrlab_cli_json_string (&json, "canonical", canonical);
      xrlab_cli_json_table (&json, curves->table, choice);
      xrlab_cli_json_string (&json, "transmission", query.photo_only ? "photo" : "total");
      xrlab_cli_table_write_json_columns (table, &json, "columns");
      xrlab_cli_json_end (&json);
    }
  else
    {
      g_string_append_printf (s, "%s\n\n", rest[0]);
      xrlab_cli_table_append_text (table, s);
      g_string_append_c (s, '\n');
      xrlab_cli_append_table_note (s, curves->table, choice);
    }
  return xrlab_cli_write_output (o.output, s);
}
