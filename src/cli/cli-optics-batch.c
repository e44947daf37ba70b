/* cli-optics-batch.c -- xrlab-cli batch: optical constants of many
 * materials from a CSV file
 *
 * The rows of IN.csv are read (a header, when there is one, decides the
 * order of the columns), grouped by energy spec (one grid per spec; the
 * rows of one energy each by material and table, on the grid of their
 * energies), computed in one engine request, and written in input order
 * (many rows: formatted in bands on every core). A row that
 * fails is reported on stderr with its line number, in line order, after
 * the good rows are written; the exit status is then 1.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>

#include "cli-optics-batch-private.h"
#include "cli-private.h"
#include "xrlab-engine.h"
#include "xrlab-h5.h"
#include "xrlab-parallel.h"
#include "xrlab-util.h"
/* ---- progress ------------------------------------------------------------- */

static void
progress_draw (Progress *p, gsize done, gboolean final)
{
  double now = xrlab_now ();
  int width = 30, filled;
  double frac;

  if (!p->tty || (!final && now - p->last < 0.1) || (final && !p->shown))
    return;
  p->last = now;
  p->shown = TRUE;
  frac = p->total ? (double) done / (double) p->total : 1.0;
  filled = (int) (frac * width + 0.5);
  fprintf (stderr, "\r[");
  for (int i = 0; i < width; i++)
    fputc (i < filled ? '#' : '.', stderr);
  fprintf (stderr, "] %3d%%  ", (int) (frac * 100 + 0.5));
  {
    /* TRANSLATORS: the state of a batch next to its progress bar; padded
     * to the widest of the three, so that a shorter one overwrites a longer
     * one. */
    const char *states[] = { _("computing"), _("writing"), _("done") };
    const char *state = states[final ? 2 : 2 * done < p->total ? 0 : 1];
    int w = 0;

    for (gsize i = 0; i < G_N_ELEMENTS (states); i++)
      w = MAX (w, xrlab_cli_text_width (states[i]));
    fprintf (stderr, "%s%*s", state, w - xrlab_cli_text_width (state), "");
  }
  if (final)
    fputc ('\n', stderr);
  fflush (stderr);
}

static void
progress_cb (gsize done, gsize total, gpointer data)
{
  Progress *p = data;
  progress_draw (p, p->done_before + done, FALSE);
}

/* ---- compute -------------------------------------------------------------- */

static BatchRow *
group_row (const Batch *b, const BatchGroup *g, guint k)
{
  return xrlab_cli_batch_row_at (b, g_array_index (g->rows, guint, k));
}

/* Every group whose spec parses, in one request to the engine (each group
 * its rows on its grid: one input and one output transfer in all); the
 * rows of a spec that does not parse fail. Returns the exit status. */
static int
batch_compute (Batch *b)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) groups = g_array_new (FALSE, TRUE, sizeof (XrlabEngineBatchGroup));
  g_autoptr(GArray) of_group = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GPtrArray) specs = g_ptr_array_new_with_free_func (g_free);
  XrlabEngineBatch **batches;

  for (guint gi = 0; gi < b->groups->len; gi++)
    {
      BatchGroup *g = &g_array_index (b->groups, BatchGroup, gi);
      XrlabMaterialSpec *sp;
      guint n_m;

      b->progress.total += 2 * g->rows->len;
      if (g->grid == NULL)
        {
          for (guint k = 0; k < g->rows->len; k++)
            {
              BatchRow *row = group_row (b, g, k);
              xrlab_cli_batch_report (b, row->line, _("%s line %u: %s"), b->path, row->line, g->grid_error);
              row->failed = TRUE;
            }
          continue;
        }
      /* a point group: its one material on the grid of its rows' energies */
      n_m = g->points ? 1 : g->rows->len;
      sp = g_new0 (XrlabMaterialSpec, MAX (n_m, 1));
      for (guint k = 0; k < n_m; k++)
        {
          const BatchRow *row = group_row (b, g, k);
          sp[k].formula = xrlab_formula_get_text (row->formula);
          sp[k].density_g_cm3 = row->density;
          sp[k].thickness_um = isfinite (row->thickness) ? row->thickness : 0.0;
        }
      g_ptr_array_add (specs, sp);
      g_array_append_vals (groups, &(XrlabEngineBatchGroup) { sp, n_m, g->grid }, 1);
      g_array_append_val (of_group, gi);
    }
  if (b->engine == NULL)
    b->engine = xrlab_engine_new ();
  batches = xrlab_engine_batch_groups_sync (b->engine, (XrlabEngineBatchGroup *) groups->data,
                                            groups->len, b->fields.mask,
                                            b->progress.tty ? progress_cb : NULL, &b->progress,
                                            b->interrupt, &error);
  if (batches == NULL && g_cancellable_is_cancelled (b->interrupt))
    return xrlab_cli_interrupt_status ();
  if (batches == NULL)
    return xrlab_cli_fail (error);
  for (guint i = 0; i < groups->len; i++)
    {
      BatchGroup *g = &g_array_index (b->groups, BatchGroup, g_array_index (of_group, guint, i));

      g->batch = g_steal_pointer (&batches[i]);
      for (guint k = 0; k < g->rows->len; k++)
        {
          /* a point group's rows share its material's error */
          const GError *e = g->batch->errors[g->points ? 0 : k];

          if (e != NULL)
            {
              BatchRow *row = group_row (b, g, k);
              xrlab_cli_batch_report (b, row->line, _("%s line %u: %s"), b->path, row->line, e->message);
              row->failed = TRUE;
            }
        }
    }
  g_free (batches);
  b->progress.done_before = b->progress.total / 2;
  g_array_sort (b->problems, xrlab_cli_batch_compare_problems);   /* at most one problem per line */
  return XRLAB_CLI_OK;
}

/* ---- write ---------------------------------------------------------------- */

/* The columns of the output: formula,density_g_cm3,energy_keV, the fields
 * and the table of the row's group. */
static XrlabCliTable *
output_table (const Batch *b)
{
  XrlabCliTable *t = xrlab_cli_table_new ();

  xrlab_cli_table_add_column (t, XRLAB_CLI_COLUMN_TEXT, "formula", NULL, NULL);
  xrlab_cli_table_add_column (t, XRLAB_CLI_COLUMN_NUMBER, "density_g_cm3", NULL, NULL);
  xrlab_cli_table_add_energy (t);
  for (guint k = 0; k < b->fields.n; k++)
    xrlab_cli_table_add_quantity (t, b->fields.order[k]);
  xrlab_cli_table_add_column (t, XRLAB_CLI_COLUMN_TEXT, "table", NULL, NULL);
  return t;
}

#define WRITE_BLOCK (1 << 20)   /* bytes per write: the lines of many rows together */

/* Writes @s to @out (stdout when NULL); FALSE when the write failed. */
static gboolean
emit (FILE *out, const GString *s)
{
  if (out == NULL)
    return xrlab_cli_stdout_write (s->str, s->len);
  return fwrite (s->str, 1, s->len, out) == s->len;
}

/* The CSV lines of @row (output_table()'s cells; @index: each field's in the row's values;
 * @head, @tail: room for its first and last cells) into @s, out at WRITE_BLOCK bytes
 * (never when @hold: a band of xrlab_parallel_run()). FALSE when a write failed or the
 * batch was interrupted. */
static gboolean
write_row (const Batch *b, const BatchRow *row, const int *index, GString *head, GString *tail,
           GString *s, FILE *out, gboolean hold)
{
  const BatchGroup *g = &g_array_index (b->groups, BatchGroup, row->group);
  gsize n_e = xrlab_energy_grid_get_size (g->grid), n_f = b->fields.n;
  const double *e = xrlab_energy_grid_get_energies_kev (g->grid);
  /* a row of a point group: its one energy of the group's material */
  const double *block = g->batch->values + (g->points ? 0 : row->index * n_f * n_e);
  gsize i0 = g->points ? row->index : 0, i1 = g->points ? row->index + 1 : n_e;
  char buf[XRLAB_DTOA_BUFSIZE];

  g_string_truncate (head, 0);
  xrlab_csv_append_field (head, row->formula_text);
  g_string_append_c (head, ',');
  g_string_append_len (head, buf, (gssize) xrlab_format_double_len (row->density, buf));
  g_string_append_c (head, ',');
  g_string_append (g_string_assign (tail, ","), xrlab_table_get_name (g->batch->table));
  g_string_append_c (tail, '\n');   /* the table's name is a plain word */
  for (gsize i = i0; i < i1; i++)
    {
      gsize len = s->len;
      char *o;

      g_string_set_size (s, len + head->len + (n_f + 1) * (XRLAB_DTOA_BUFSIZE + 1) + tail->len);
      o = (char *) memcpy (s->str + len, head->str, head->len) + head->len;
      o += xrlab_format_double_len (e[i], o);
      for (gsize k = 0; k < n_f; k++)
        {
          *o++ = ',';
          o += xrlab_format_double_len (block[(gsize) index[k] * n_e + i], o);
        }
      memcpy (o, tail->str, tail->len);
      g_string_truncate (s, (gsize) (o - s->str) + tail->len);
      if (hold)
        continue;
      if (s->len >= WRITE_BLOCK && (!emit (out, s) || g_cancellable_is_cancelled (b->interrupt)))
        return FALSE;
      if (s->len >= WRITE_BLOCK)
        g_string_truncate (s, 0);
    }
  return TRUE;
}

/* ---- many short rows: formatted in bands on the pool ---------------------- */

#define BAND_LINES 4096   /* lines a band, about a megabyte of text */

typedef struct {
  const Batch *b;
  const int *index;
  guint *cut;               /* the rows of band k: [cut[k], cut[k + 1]) */
  GString **text, **head, **tail;
} Bands;

static void
write_band (gpointer data, guint part)
{
  Bands *w = data;

  g_string_truncate (w->text[part], 0);
  for (guint r = w->cut[part]; r < w->cut[part + 1]; r++)
    if (!xrlab_cli_batch_row_at (w->b, r)->failed)
      write_row (w->b, xrlab_cli_batch_row_at (w->b, r), w->index, w->head[part], w->tail[part],
                 w->text[part], NULL, TRUE);
}

static gsize
row_lines (const Batch *b, guint r)
{
  const BatchRow *row = xrlab_cli_batch_row_at (b, r);
  const BatchGroup *g = &g_array_index (b->groups, BatchGroup, row->group);

  return row->failed ? 0 : g->points ? 1 : xrlab_energy_grid_get_size (g->grid);
}

/* The rows in rounds of one band per thread, each round written in order
 * after @s (a row of more lines than a band is written on its own, a
 * block at a time); returns FALSE when a write failed or the batch was
 * interrupted. */
static gboolean
write_bands (Batch *b, const int *index, guint n_threads, GString *s, FILE *out)
{
  Bands w = { b, index, g_new (guint, n_threads + 1), g_new (GString *, n_threads),
              g_new (GString *, n_threads), g_new (GString *, n_threads) };
  gboolean ok = emit (out, s);
  guint r = 0;

  g_string_truncate (s, 0);
  for (guint t = 0; t < n_threads; t++)
    {
      w.text[t] = g_string_sized_new (BAND_LINES * 400);
      w.head[t] = g_string_new (NULL);
      w.tail[t] = g_string_new (NULL);
    }
  while (ok && r < b->rows->len && !g_cancellable_is_cancelled (b->interrupt))
    {
      guint k = 0;

      progress_draw (&b->progress, b->progress.total / 2 + r, FALSE);
      if (row_lines (b, r) > BAND_LINES)
        {
          ok = write_row (b, xrlab_cli_batch_row_at (b, r), index, w.head[0], w.tail[0], s, out, FALSE)
               && emit (out, s);
          g_string_truncate (s, 0);
          r++;
          continue;
        }
      while (k < n_threads && r < b->rows->len && row_lines (b, r) <= BAND_LINES)
        {
          gsize lines = 0;

          w.cut[k] = r;
          while (r < b->rows->len && lines + row_lines (b, r) <= BAND_LINES)
            lines += row_lines (b, r++);
          w.cut[++k] = r;
        }
      xrlab_parallel_run (xrlab_parallel_default (), k, write_band, &w);
      for (guint t = 0; ok && t < k; t++)
        ok = emit (out, w.text[t]);
    }
  for (guint t = 0; t < n_threads; t++)
    {
      g_string_free (w.text[t], TRUE);
      g_string_free (w.head[t], TRUE);
      g_string_free (w.tail[t], TRUE);
    }
  g_free (w.cut);
  g_free (w.text);
  g_free (w.head);
  g_free (w.tail);
  return ok && !g_cancellable_is_cancelled (b->interrupt);
}

/* The good rows in input order as HDF5 (-o FILE.h5). Returns the exit
 * status. */
static int
batch_write_h5 (Batch *b, const char *output)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) rows = g_array_new (FALSE, FALSE, sizeof (XrlabCliBatchRowOut));

  for (guint r = 0; r < b->rows->len; r++)
    {
      const BatchRow *row = xrlab_cli_batch_row_at (b, r);
      const BatchGroup *g = &g_array_index (b->groups, BatchGroup, row->group);
      gsize n_e = g->grid ? xrlab_energy_grid_get_size (g->grid) : 0;

      if (!row->failed && g->points)
        g_array_append_vals (rows, &(XrlabCliBatchRowOut) {
            row->formula_text, row->density, xrlab_energy_grid_get_energies_kev (g->grid) + row->index,
            1, g->batch->values + row->index, xrlab_table_get_name (g->batch->table), n_e }, 1);
      else if (!row->failed)
        g_array_append_vals (rows, &(XrlabCliBatchRowOut) {
            row->formula_text, row->density, xrlab_energy_grid_get_energies_kev (g->grid), n_e,
            g->batch->values + row->index * b->fields.n * n_e,
            xrlab_table_get_name (g->batch->table), n_e }, 1);
    }
  if (!xrlab_cli_batch_write_h5 (output, (XrlabCliBatchRowOut *) rows->data, rows->len,
                                 &b->fields, b->interrupt, &error))
    return g_cancellable_is_cancelled (b->interrupt) ? xrlab_cli_interrupt_status ()
                                                     : xrlab_cli_fail (error);
  progress_draw (&b->progress, b->progress.total, TRUE);
  xrlab_cli_batch_print_problems (b);
  return XRLAB_CLI_OK;
}

/* Writes the good rows in input order to @output (stdout when NULL or "-"),
 * then the problems to stderr. A failed write or an interrupt stops it at
 * once (an output file is then removed). Returns the exit status. */
static int
batch_write (Batch *b, const char *output)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabCliTable) t = output_table (b);
  g_autoptr(GString) s = g_string_sized_new (WRITE_BLOCK + 4096);
  g_autoptr(GString) head = g_string_new (NULL), tail = g_string_new (NULL);
  int index[XRLAB_QUANTITY_N];
  XrlabAtomicFile *af = NULL;
  FILE *out = NULL;
  guint n_threads;
  gboolean ok;

  if (output != NULL && xrlab_h5_is_h5_name (output))
    return batch_write_h5 (b, output);
  if (output != NULL && strcmp (output, "-") != 0)
    {
      af = xrlab_atomic_file_open (output, &error);
      if (af == NULL)
        return xrlab_cli_fail (error);
      out = xrlab_atomic_file_stream (af);
      xrlab_cli_interrupt_set_temp_file (xrlab_atomic_file_get_temp_path (af));
    }
  for (guint k = 0; k < b->fields.n; k++)
    index[k] = xrlab_quantity_mask_index (b->fields.mask, b->fields.order[k]);
  xrlab_cli_table_append_csv_header (t, s);
  ok = TRUE;
  n_threads = xrlab_parallel_n_threads (xrlab_parallel_default ());
  /* many rows: the numbers (60–70 ns each, most of a batch's time) are
   * formatted on every core */
  if (n_threads > 1 && b->rows->len >= 2 * BAND_LINES)
    ok = write_bands (b, index, n_threads, s, out);
  else
    for (guint r = 0; ok && r < b->rows->len; r++)
      {
        if ((r & 1023) == 0)
          progress_draw (&b->progress, b->progress.total / 2 + r, FALSE);
        if (!xrlab_cli_batch_row_at (b, r)->failed)
          ok = write_row (b, xrlab_cli_batch_row_at (b, r), index, head, tail, s, out, FALSE);
      }
  ok = ok && !g_cancellable_is_cancelled (b->interrupt) && emit (out, s);
  if (g_cancellable_is_cancelled (b->interrupt))
    {
      xrlab_atomic_file_abort (af);
      xrlab_cli_interrupt_set_temp_file (NULL);
      return xrlab_cli_interrupt_status ();
    }
  progress_draw (&b->progress, b->progress.total, TRUE);
  xrlab_cli_batch_print_problems (b);
  if (af != NULL)
    {
      /* the commit reports a failed write, with its errno */
      ok = xrlab_atomic_file_commit (af, &error);
      xrlab_cli_interrupt_set_temp_file (NULL);
      if (!ok)
        return xrlab_cli_fail (error);
    }
  else if (!ok || !xrlab_cli_stdout_flush ())
    return xrlab_cli_stdout_fail ();
  return XRLAB_CLI_OK;
}

/* ---- the command ---------------------------------------------------------- */

int
xrlab_cli_batch (int argc, char **argv)
{
  g_autofree char *unit_text = NULL, *thickness_text = NULL, *fields_text = NULL;
  g_autofree char *output = NULL, *table_text = NULL, *transmission_text = NULL;
  g_autofree char *description = g_strdup_printf (
      _("A file whose grids and results need more than %llu values in all (a quarter of this "
        "machine's memory in 8-byte numbers) is refused before anything is computed.\n"
        "Ctrl-C (or SIGTERM) stops the batch: the output file is not written and the exit "
        "status is 130 (143).\n"
        "Exit status: 0 success, 1 bad input, 2 usage error."),
      (unsigned long long) xrlab_cli_max_values ());
  g_auto(GStrv) rest = NULL;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      N_("Write to FILE (atomically) instead of stdout; FILE.h5 (or .nxs) is written as "
         "HDF5: one dataset per column in /entry/results, with units"), N_("FILE") },
    { "unit", 'u', 0, G_OPTION_ARG_STRING, &unit_text,
      N_("Unit of the energy specs: keV (default), eV or A"), N_("UNIT") },
    { "table", 0, 0, G_OPTION_ARG_STRING, &table_text,
      N_("Scattering factors: henke, chantler or auto (default: per energy spec)"), N_("TABLE") },
    { "transmission", 0, 0, G_OPTION_ARG_STRING, &transmission_text,
      N_("Transmission from the total attenuation (default) or photo(absorption) only"),
      N_("total|photo") },
    { "thickness", 't', 0, G_OPTION_ARG_STRING, &thickness_text,
      N_("Layer thickness (µm) for rows without a thickness column"), N_("UM") },
    { "fields", 0, 0, G_OPTION_ARG_STRING, &fields_text,
      N_("Columns to compute, comma separated (default: all)"), N_("LIST") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &rest, NULL, N_("IN.csv") },
    G_OPTION_ENTRY_NULL
  };
  const XrlabCliSpec spec = {
    .summary =
      _("Optical constants of many materials from a CSV file.\n\n"
        "IN.csv has the columns formula,density,energy (energy: a SPEC such as\n"
        "8.048 or \"5,10,15\" or 1:30:100:log, quoted when it has commas), an\n"
        "optional thickness column (µm), and an optional header line naming the\n"
        "columns. Blank lines and lines starting with # are skipped.\n\n"
        "The output has one row per material and energy: formula,density_g_cm3,\n"
        "the columns of “xrlab-cli calc --format csv”, and the table used. Rows\n"
        "with the same energy spec are computed together, with one table: with\n"
        "--table auto Henke when the spec lies within 30 eV–30 keV, Chantler\n"
        "otherwise. A row that fails is reported on stderr with its line number and\n"
        "reason; every good row is still written, and the exit status is then 1."),
    .description = description,
    .entries = { entries },
  };
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  g_auto(Batch) b = { 0, };
  gsize n_good = 0, len = 0;
  int status;

  xrlab_cli_batch_init (&b, NULL);
  if (!xrlab_cli_parse_options (&spec, &argc, &argv))
    return XRLAB_CLI_USAGE;
  /* Ctrl-C and SIGTERM stop the batch; the output file is not written */
  b.interrupt = xrlab_cli_interrupt_cancellable ();
  if (rest == NULL || rest[0] == NULL)
    return xrlab_cli_usage ("batch", _("missing IN.csv"));
  if (rest[1] != NULL)
    return xrlab_cli_usage ("batch", _("one input file only, got “%s” too"), rest[1]);
  b.path = rest[0];
  if (!xrlab_cli_parse_energy_unit ("batch", unit_text, &b.unit)
      || !xrlab_cli_parse_table ("batch", table_text, &b.choice)
      || !xrlab_cli_parse_transmission ("batch", transmission_text, &b.transmission))
    return XRLAB_CLI_USAGE;
  if (thickness_text != NULL
      && !xrlab_cli_parse_number (_("Thickness “%s” is not a number"), thickness_text,
                                  &b.thickness_default))
    return XRLAB_CLI_BAD_INPUT;
  if (!g_file_get_contents (b.path, &contents, &len, &error))
    return xrlab_cli_fail (error);
  if (!xrlab_cli_batch_read (&b, contents, len, &error))
    return xrlab_cli_fail (error);
  if (!xrlab_cli_parse_fields ("batch", fields_text,
                               xrlab_cli_batch_has_thickness (&b, thickness_text != NULL), b.transmission,
                               &b.fields))
    return XRLAB_CLI_USAGE;
  b.max_values = xrlab_cli_max_values ();
  if (!xrlab_cli_batch_group (&b, &error))
    return xrlab_cli_fail (error);
  if ((status = batch_compute (&b)) != XRLAB_CLI_OK)
    return status;

  for (guint r = 0; r < b.rows->len; r++)
    n_good += !xrlab_cli_batch_row_at (&b, r)->failed;
  if (n_good == 0)
    {
      progress_draw (&b.progress, b.progress.total, TRUE);
      xrlab_cli_batch_print_problems (&b);
      if (b.n_failed == 0)
        return xrlab_cli_failf (_("%s has no rows"), b.path);
      return xrlab_cli_failf (_("no row of %s could be computed; nothing written"), b.path);
    }
  if ((status = batch_write (&b, output)) != XRLAB_CLI_OK)
    return status;
  if (b.n_failed > 0)
    return xrlab_cli_failf (g_dngettext (GETTEXT_PACKAGE, "%zu row failed, %zu written",
                                         "%zu rows failed, %zu written", b.n_failed),
                            b.n_failed, n_good);
  return XRLAB_CLI_OK;
}
