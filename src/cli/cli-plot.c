/* cli-plot.c -- xrlab-cli plot: the window's figures from a script
 *
 *   xrlab-cli plot MATERIAL... -e SPEC [-q QUANTITY] [--log-x] [--log-y]
 *       [--xlim A:B] [--ylim A:B] [--size 8.5x6cm] [--dpi 300]
 *       [--font-size 9] [--line-width 1] [--dark] [--table auto] -o FILE.png|svg|pdf
 *
 * Materials as in compare (FORMULA:RHO or a preset), one batch request to
 * the engine, then the plot renderer (libxrlab-render) on this thread: the
 * same curves, palette, edge markers (where the table's curves jump, thinned
 * by priority), notes (the first names the table) and type as the window's
 * export. Without the renderer (a build without
 * cairo, Pango or PLplot) the command says so and exits 1.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

#include "cli-optics.h"
#include "cli-private.h"

#ifdef XRLAB_HAVE_RENDER

#include "xrlab-engine.h"
#include "xrlab-elements.h"
#include "xrlab-plot-render.h"
#include "xrlab-util.h"

typedef struct {
  char *energy, *unit, *quantity, *thickness, *xlim, *ylim, *size, *output, *table;
  gboolean log_x, log_y, dark, no_edges, no_legend;
  double dpi, font_size, line_width;
  char **rest;
} PlotOptions;

static void
plot_options_clear (PlotOptions *o)
{
  g_free (o->energy);
  g_free (o->unit);
  g_free (o->quantity);
  g_free (o->thickness);
  g_free (o->xlim);
  g_free (o->ylim);
  g_free (o->size);
  g_free (o->output);
  g_free (o->table);
  g_strfreev (o->rest);
}

/* "A:B" with A < B. */
static gboolean
parse_range (const char *option, const char *text, double *a, double *b)
{
  const char *colon = text != NULL ? strchr (text, ':') : NULL;
  g_autofree char *first = colon != NULL ? g_strndup (text, (gsize) (colon - text)) : NULL;

  if (colon == NULL || !xrlab_parse_double (first, FALSE, a) || !xrlab_parse_double (colon + 1, FALSE, b))
    {
      xrlab_cli_usage ("plot", _("%s must be A:B (two numbers), not “%s”"), option, text);
      return FALSE;
    }
  if (!(*a < *b))
    {
      xrlab_cli_usage ("plot", _("%s %s: the first limit must be less than the second"), option, text);
      return FALSE;
    }
  return TRUE;
}

/* "8.5x6cm", "3.5x2.5in", "1600x1000px", "85x60mm", "240x170pt"; cm when
 * no unit is given. */
static gboolean
parse_size (const char *text, double dpi, gboolean png, double *w_pt, double *h_pt)
{
  g_autofree char *t = g_ascii_strdown (text, -1);
  char *x = strchr (t, 'x');
  const char *unit = "cm";
  gsize len;
  double w, h;

  if (x == NULL)
    goto bad;
  *x = '\0';
  len = strlen (x + 1);
  for (const char *const *u = (const char *const[]) { "cm", "mm", "in", "px", "pt", NULL }; *u != NULL; u++)
    if (len > 2 && g_str_has_suffix (x + 1, *u))
      {
        unit = *u;
        x[1 + len - 2] = '\0';
      }
  if (!xrlab_parse_double (t, FALSE, &w) || !xrlab_parse_double (x + 1, FALSE, &h) || !(w > 0) || !(h > 0))
    goto bad;
  /* Pixels: at the PNG's resolution, CSS pixels (96 dpi) in SVG and PDF. */
  xrlab_plot_length_to_pt (w, unit, png ? dpi : 96.0, w_pt);
  xrlab_plot_length_to_pt (h, unit, png ? dpi : 96.0, h_pt);
  return TRUE;

bad:
  xrlab_cli_usage ("plot", _("--size must be WIDTHxHEIGHT with a unit of cm, mm, in, px or pt (8.5x6cm), not “%s”"),
                   text);
  return FALSE;
}

/* The edges of the materials' elements inside [@lo_kev, @hi_kev] where
 * the curves of @table jump (xrlab_presets_get_table_edges()), as markers
 * in @unit, grouped by element, by priority. */
static GArray *
edge_markers (GPtrArray *formulas, double lo_kev, double hi_kev, XrlabTable table,
              XrlabEnergyUnit unit)
{
  GArray *markers = g_array_new (FALSE, TRUE, sizeof (XrlabPlotMarker));
  g_autoptr(GArray) z = g_array_new (FALSE, FALSE, sizeof (int));
  g_autoptr(GArray) edges = NULL;

  for (guint i = 0; i < formulas->len; i++)
    {
      const XrlabFormula *f = g_ptr_array_index (formulas, i);
      g_array_append_vals (z, xrlab_formula_get_z (f), xrlab_formula_get_n_atoms (f));
    }
  edges = xrlab_presets_get_table_edges ((const int *) (void *) z->data, z->len,
                                         (XrlabTableChoice) table, lo_kev, hi_kev, NULL);
  for (guint k = 0; edges != NULL && k < edges->len; k++)
    {
      const XrlabTableEdgeRef *e = &g_array_index (edges, XrlabTableEdgeRef, k);
      XrlabPlotMarker m;

      m.x = xrlab_energy_from_kev (e->edge->energy_ev * 1e-3, unit);
      m.label = g_strdup_printf ("%s %s", xrlab_element_get_symbol (e->z),
                                 e->edge->shell != NULL ? e->edge->shell : "");
      m.group = e->z;
      m.priority = e->shell >= 0 ? xrlab_presets_shell_priority (e->shell) : G_MAXINT;
      g_array_append_val (markers, m);
    }
  return markers;
}

static void
free_markers (GArray *markers)
{
  for (guint i = 0; i < markers->len; i++)
    g_free (g_array_index (markers, XrlabPlotMarker, i).label);
  g_array_unref (markers);
}

/* One batch request: @quantity of every material on @grid. */
static XrlabEngineBatch *
compute (char **args, const XrlabOpticsMaterial *materials, gsize n_mat, XrlabEnergyGrid *grid,
         XrlabQuantity quantity, int *status)
{
  g_autofree XrlabMaterialSpec *specs = g_new0 (XrlabMaterialSpec, n_mat);
  g_autoptr(XrlabEngine) engine = xrlab_engine_new ();
  g_autoptr(GError) error = NULL;
  XrlabEngineBatch *batch;

  for (gsize m = 0; m < n_mat; m++)
    {
      specs[m].name = args[m];
      specs[m].formula = xrlab_formula_get_text (materials[m].formula);
      specs[m].density_g_cm3 = materials[m].density_g_cm3;
      specs[m].thickness_um = isfinite (materials[m].thickness_um) ? materials[m].thickness_um : 0.0;
    }
  batch = xrlab_engine_batch_sync (engine, specs, n_mat, grid, XRLAB_QUANTITY_BIT (quantity),
                                   NULL, NULL, NULL, &error);
  if (batch == NULL)
    {
      *status = xrlab_cli_fail (error);
      return NULL;
    }
  for (gsize m = 0; m < n_mat; m++)
    if (batch->errors[m] != NULL)
      {
        *status = xrlab_cli_failf ("%s: %s", args[m], batch->errors[m]->message);
        xrlab_engine_batch_free (batch);
        return NULL;
      }
  *status = XRLAB_CLI_OK;
  return batch;
}

static cairo_status_t
write_to_file (void *closure, const unsigned char *data, unsigned int length)
{
  return fwrite (data, 1, length, closure) == length ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

static int
write_figure (const PlotOptions *o, const XrlabPlotScene *scene, const XrlabPlotPage *page)
{
  g_autoptr(XrlabPlotRenderer) renderer = xrlab_plot_renderer_new ();
  g_autoptr(GError) error = NULL;
  XrlabAtomicFile *af;

  if (!xrlab_plot_page_check (page, &error) || !xrlab_plot_check_driver (&error))
    return xrlab_cli_fail (error);
  af = xrlab_atomic_file_open (o->output, &error);
  if (af == NULL)
    return xrlab_cli_fail (error);
  if (!xrlab_plot_renderer_write_page (renderer, scene, page, write_to_file, xrlab_atomic_file_stream (af),
                                       o->output, &error))
    {
      xrlab_atomic_file_abort (af);
      return xrlab_cli_fail (error);
    }
  if (!xrlab_atomic_file_commit (af, &error))
    return xrlab_cli_fail (error);
  return XRLAB_CLI_OK;
}

/* The scene of the computed curves; the arrays are borrowed from @x and
 * @batch, the labels from @labels. */
static void
make_scene (const PlotOptions *o, XrlabPlotScene *scene, XrlabPlotCurve *curves, gsize n_mat,
            char **labels, const double *x, gsize n, const XrlabEngineBatch *batch, XrlabQuantity q,
            XrlabEnergyUnit unit)
{
  const XrlabQuantityInfo *info = xrlab_quantity_get_info (q);

  for (gsize m = 0; m < n_mat; m++)
    curves[m] = (XrlabPlotCurve) { labels[m], xrlab_plot_palette_series ((guint) m), x, batch->values + m * n, n,
                                   info->display_scale, FALSE, XRLAB_PLOT_LINE_AUTO };
  xrlab_plot_scene_init (scene);
  scene->curves = curves;
  scene->n_curves = (guint) n_mat;
  scene->x = (XrlabPlotAxisSpec) { unit == XRLAB_ENERGY_UNIT_ANGSTROM ? _("Wavelength") : _("Photon energy"),
                                   xrlab_energy_unit_get_name (unit), o->log_x, 0, 0, NULL };
  scene->y = (XrlabPlotAxisSpec) { xrlab_quantity_get_axis_name (q), info->display_unit, o->log_y, 0, 0,
                                   info->symbol };
  scene->dark = o->dark;
  scene->show_legend = !o->no_legend;
  scene->show_markers = !o->no_edges;
  scene->font_size = o->font_size;
  scene->line_width = o->line_width;
}

/* The checks on options that need no computing. Returns the exit status. */
static int
check_options (PlotOptions *o, XrlabPlotPage *page, XrlabQuantity *q, XrlabEnergyUnit *unit,
               XrlabTableChoice *choice, XrlabPlotScene *limits)
{
  if (o->rest == NULL || o->rest[0] == NULL)
    return xrlab_cli_usage ("plot", _("missing FORMULA:RHO"));
  if (o->energy == NULL)
    return xrlab_cli_usage ("plot", _("missing -e SPEC (energies, e.g. -e 1:30:500:log)"));
  if (o->output == NULL)
    return xrlab_cli_usage ("plot", _("missing -o FILE (.png, .svg or .pdf)"));
  if (!xrlab_plot_format_from_name (o->output, &page->format))
    return xrlab_cli_usage ("plot", _("-o %s: the name must end in .png, .svg or .pdf"), o->output);
  if (!xrlab_cli_parse_energy_unit ("plot", o->unit, unit)
      || !xrlab_cli_parse_table ("plot", o->table, choice))
    return XRLAB_CLI_USAGE;
  if (o->quantity != NULL && (!xrlab_quantity_from_column (o->quantity, q) || *q == XRLAB_QUANTITY_WAVELENGTH))
    return xrlab_cli_usage ("plot", _("unknown --quantity “%s” (e.g. delta, beta, f1, mu_per_cm, transmission)"),
                            o->quantity);
  if ((XRLAB_QUANTITY_MASK_TRANSMISSIONS & XRLAB_QUANTITY_BIT (*q)) && o->thickness == NULL)
    return xrlab_cli_usage ("plot", _("--quantity %s needs --thickness UM"), o->quantity);
  if (!(o->dpi >= 18 && o->dpi <= 1200))
    return xrlab_cli_usage ("plot", _("--dpi must be 18 … 1200, not %g"), o->dpi);
  if (!(o->font_size >= 4 && o->font_size <= 48))
    return xrlab_cli_usage ("plot", _("--font-size must be 4 … 48 points, not %g"), o->font_size);
  if (!(o->line_width >= 0.25 && o->line_width <= 8))
    return xrlab_cli_usage ("plot", _("--line-width must be 0.25 … 8 points, not %g"), o->line_width);
  page->dpi = o->dpi;
  page->width_pt = 16 * 72 / 2.54;
  page->height_pt = 10 * 72 / 2.54;
  if (o->size != NULL &&
      !parse_size (o->size, o->dpi, page->format == XRLAB_PLOT_FORMAT_PNG, &page->width_pt, &page->height_pt))
    return XRLAB_CLI_USAGE;
  if ((o->xlim != NULL && !parse_range ("--xlim", o->xlim, &limits->x.min, &limits->x.max)) ||
      (o->ylim != NULL && !parse_range ("--ylim", o->ylim, &limits->y.min, &limits->y.max)))
    return XRLAB_CLI_USAGE;
  if ((o->log_x && o->xlim != NULL && limits->x.min <= 0) || (o->log_y && o->ylim != NULL && limits->y.min <= 0))
    return xrlab_cli_usage ("plot", _("a logarithmic axis needs limits above 0"));
  return XRLAB_CLI_OK;
}

/* The legend's name of an argument: the material before ":RHO". */
static char **
legend_labels (char **args)
{
  guint n = g_strv_length (args);
  char **labels = g_new0 (char *, n + 1);

  for (guint i = 0; i < n; i++)
    {
      const char *colon = strrchr (args[i], ':');
      labels[i] = colon != NULL ? g_strndup (args[i], (gsize) (colon - args[i])) : g_strdup (args[i]);
    }
  return labels;
}

static int
run (PlotOptions *o)
{
  XrlabPlotPage page = { 0 };
  XrlabPlotScene scene, limits;
  XrlabQuantity q = XRLAB_QUANTITY_DELTA;
  XrlabEnergyUnit unit;
  XrlabTableChoice choice;
  g_autofree char *note = NULL;
  g_autoptr(GPtrArray) formulas = g_ptr_array_new_with_free_func ((GDestroyNotify) xrlab_formula_unref);
  g_autoptr(XrlabEnergyGrid) grid = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree XrlabOpticsMaterial *materials = NULL;
  g_autofree XrlabPlotCurve *curves = NULL;
  g_autofree double *x = NULL;
  g_auto(GStrv) labels = NULL;
  XrlabEngineBatch *batch;
  GArray *markers;
  double thickness = NAN;
  const double *kev;
  gsize n_mat, n;
  int status;

  xrlab_plot_scene_init (&limits);
  status = check_options (o, &page, &q, &unit, &choice, &limits);
  if (status != XRLAB_CLI_OK)
    return status;
  if (o->thickness != NULL &&
      !xrlab_cli_parse_number (_("Thickness “%s” is not a number"), o->thickness, &thickness))
    return XRLAB_CLI_BAD_INPUT;

  n_mat = g_strv_length (o->rest);
  materials = g_new0 (XrlabOpticsMaterial, n_mat);
  status = xrlab_cli_read_materials (o->rest, thickness, formulas, materials);
  if (status != XRLAB_CLI_OK)
    return status;
  grid = xrlab_energy_grid_parse_for_table (o->energy, unit, choice, &error);
  if (grid == NULL)
    return xrlab_cli_fail (error);
  batch = compute (o->rest, materials, n_mat, grid, q, &status);
  if (batch == NULL)
    return status;

  n = xrlab_energy_grid_get_size (grid);
  kev = xrlab_energy_grid_get_energies_kev (grid);
  x = g_new (double, n);
  for (gsize i = 0; i < n; i++)
    x[i] = xrlab_energy_from_kev (kev[i], unit);
  labels = legend_labels (o->rest);
  curves = g_new0 (XrlabPlotCurve, n_mat);
  make_scene (o, &scene, curves, n_mat, labels, x, n, batch, q, unit);
  scene.x.min = limits.x.min;
  scene.x.max = limits.x.max;
  scene.y.min = limits.y.min;
  scene.y.max = limits.y.max;
  /* TRANSLATORS: a note under the plot; %s is the name of a table ("Henke") */
  note = g_strdup_printf (_("%s tables"), xrlab_table_get_info (batch->table)->title);
  scene.note = note;
  markers = edge_markers (formulas, MIN (kev[0], kev[n - 1]), MAX (kev[0], kev[n - 1]), batch->table, unit);
  scene.markers = (const XrlabPlotMarker *) (const void *) markers->data;
  scene.n_markers = markers->len;

  status = write_figure (o, &scene, &page);
  free_markers (markers);
  xrlab_engine_batch_free (batch);
  return status;
}

int
xrlab_cli_plot (int argc, char **argv)
{
  PlotOptions o = { .dpi = 300, .font_size = 9, .line_width = 1 };
  const GOptionEntry entries[] = {
    { "energy", 'e', 0, G_OPTION_ARG_STRING, &o.energy,
      N_("Energies: 5:15:11 or 1:30:500:log"), N_("SPEC") },
    { "unit", 'u', 0, G_OPTION_ARG_STRING, &o.unit,
      N_("Unit of SPEC and the x axis: keV (default), eV or A (wavelength)"), N_("UNIT") },
    { "quantity", 'q', 0, G_OPTION_ARG_STRING, &o.quantity,
      N_("The quantity on the y axis (default: delta)"), N_("QUANTITY") },
    { "thickness", 't', 0, G_OPTION_ARG_STRING, &o.thickness,
      N_("Layer thickness (µm), for --quantity transmission"), N_("UM") },
    { "log-x", 0, 0, G_OPTION_ARG_NONE, &o.log_x, N_("Logarithmic x axis"), NULL },
    { "log-y", 0, 0, G_OPTION_ARG_NONE, &o.log_y, N_("Logarithmic y axis"), NULL },
    { "xlim", 0, 0, G_OPTION_ARG_STRING, &o.xlim, N_("Show x from A to B (in the unit of -u)"), N_("A:B") },
    { "ylim", 0, 0, G_OPTION_ARG_STRING, &o.ylim, N_("Show y from A to B (display unit)"), N_("A:B") },
    { "size", 's', 0, G_OPTION_ARG_STRING, &o.size,
      N_("Figure size, e.g. 8.5x6cm, 3.5x2.5in, 1600x1000px (default 16x10cm)"), N_("WxH") },
    { "dpi", 0, 0, G_OPTION_ARG_DOUBLE, &o.dpi, N_("Resolution of a PNG (default 300)"), N_("DPI") },
    { "font-size", 0, 0, G_OPTION_ARG_DOUBLE, &o.font_size,
      N_("Type size of tick labels and legend in points (default 9)"), N_("PT") },
    { "line-width", 0, 0, G_OPTION_ARG_DOUBLE, &o.line_width,
      N_("Width of the curves in points (default 1)"), N_("PT") },
    { "dark", 0, 0, G_OPTION_ARG_NONE, &o.dark, N_("Dark background"), NULL },
    { "no-edges", 0, 0, G_OPTION_ARG_NONE, &o.no_edges, N_("No absorption-edge markers"), NULL },
    { "no-legend", 0, 0, G_OPTION_ARG_NONE, &o.no_legend, N_("No legend"), NULL },
    { "table", 0, 0, G_OPTION_ARG_STRING, &o.table,
      N_("Scattering factors: henke, chantler or auto (default)"), N_("TABLE") },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &o.output,
      N_("The figure: FILE.png, FILE.svg or FILE.pdf (written atomically)"), N_("FILE") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &o.rest, NULL, N_("FORMULA:RHO...") },
    G_OPTION_ENTRY_NULL
  };
  const XrlabCliSpec spec = {
    .summary =
      _("One quantity of several materials as a figure: PNG (with its resolution),\n"
        "SVG (text as text) or PDF (fonts embedded). Each material is FORMULA:RHO\n"
        "(density in g/cm³) or a preset name alone."),
    .description =
      _("Example:\n  xrlab-cli plot Si Au:19.3 -e 1:30:500:log -q delta --log-x --log-y \\\n"
        "      --size 8.5x6cm --font-size 8 -o delta.pdf\n\n"
        "Exit status: 0 success, 1 bad input, 2 usage error."),
    .entries = { entries },
  };
  int status;

  if (!xrlab_cli_parse_options (&spec, &argc, &argv))
    {
      plot_options_clear (&o);
      return XRLAB_CLI_USAGE;
    }
  status = run (&o);
  plot_options_clear (&o);
  return status;
}

#else /* !XRLAB_HAVE_RENDER */

int
xrlab_cli_plot (int argc, char **argv)
{
  return xrlab_cli_failf ("%s", _("plot: this xrlab-cli was built without the plot renderer "
                                  "(it needs cairo, Pango and PLplot with its cairo driver); "
                                  "install them and build again"));
}

#endif
