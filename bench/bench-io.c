/* bench-io.c -- xrlab-bench io: numbers in and out
 *
 *   io.format_ns_per_double     xrlab_format_double_len() on the numbers of
 *                               a fit (fit.csv and residual.csv of an Au 4f
 *                               like model) and of an optics batch (all 12
 *                               quantities of 3 materials on an energy sweep)
 *   io.parse_ns_per_double      xrlab_parse_double_n() on those texts
 *   io.parse_data_ns_per_double the same on measured data ("82.365")
 *   io.*_old_ns_per_double      the former printf/strtod implementation
 *                               (tests/dtoa-reference.c) on the same numbers
 *   io.csv_write_2000x2000_ms   xrlab_write_csv_matrix() of 2000 x 2000
 *   io.csv_read_2000x2000_ms    xrlab_read_csv_matrix() of that file
 *   io.h5_write_2000x2000_ms    the HDF5 writer, one 2000 x 2000 dataset
 *   io.h5_read_2000x2000_ms     xrlab_h5_read() of it
 *   io.*process*, io.*inprocess*  xrlab-cli as a process beside the same
 *                               work in process (bench-io-process.c)
 *
 * Medians of repeated runs; each figure checks its own results: every text
 * reads back to its double and equals the former implementation's, every
 * parse and every file read gives the doubles back bit for bit.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib/gstdio.h>

#include "bench-private.h"
#include "dtoa-reference.h"
#include "xrlab-formula.h"
#include "xrlab-h5.h"
#include "xrlab-optics.h"
#include "xrlab-util.h"

#define REPS 7

/* A Voigt-like line (pseudo-Voigt) of area-ish height @a at @x0. */
static double
line (double x, double a, double x0, double w, double eta)
{
  double u = (x - x0) / w;

  return a * (eta / (1.0 + u * u) + (1.0 - eta) * exp (-0.6931471805599453 * u * u));
}

/* The numbers of an Au 4f fit's fit.csv and residual.csv: a doublet on a
 * background whose position moves with the delay, and data rounded to three
 * decimals like the measurement. */
static void
fit_numbers (GArray *out, int n_delays, int n_energies)
{
  GRand *rand = g_rand_new_with_seed (42);

  for (int t = 0; t < n_delays; t++)
    {
      double shift = 0.8 * sin (0.25 * t);

      for (int i = 0; i < n_energies; i++)
        {
          double e = 81.0 + 10.0 * i / (n_energies - 1);
          double fit = 49.86874091677579 + 0.8 * (91.0 - e)
                       + line (e, 303.3587593386271, 84.2 + 0.01 * shift, 0.45, 0.63)
                       + line (e, 227.5, 87.87 + 0.01 * shift, 0.47, 0.63);
          double data = round ((fit + g_rand_double_range (rand, -8, 8)) * 1000.0) / 1000.0;
          double residual = data - fit;

          g_array_append_val (out, fit);
          g_array_append_val (out, residual);
        }
    }
  g_rand_free (rand);
}

/* All 12 quantities of SiO2, Au and Kapton-like polyimide on a log sweep. */
static void
optics_numbers (GArray *out, int n_energies)
{
  const struct { const char *formula; double density; } mats[] = {
    { "SiO2", 2.2 }, { "Au", 19.3 }, { "C22H10N2O5", 1.42 },
  };

  for (gsize m = 0; m < G_N_ELEMENTS (mats); m++)
    {
      g_autoptr(XrlabFormula) f = xrlab_formula_parse (mats[m].formula, NULL);
      XrlabOpticsMaterial mat = { f, mats[m].density, NAN };

      for (int i = 0; i < n_energies; i++)
        {
          double v[XRLAB_QUANTITY_N];
          double e = 1.0 * pow (30.0, (double) i / (n_energies - 1));

          /* The quantities the mask leaves out (transmission) stay NaN. */
          for (int q = 0; q < XRLAB_QUANTITY_N; q++)
            v[q] = NAN;
          if (!xrlab_optics_compute_point (&mat, e, XRLAB_QUANTITY_MASK_NO_THICKNESS, v, NULL))
            continue;
          for (int q = 0; q < XRLAB_QUANTITY_N; q++)
            if (isfinite (v[q]))
              g_array_append_val (out, v[q]);
        }
    }
}

/* Measured data: counts with three decimals. */
static void
data_numbers (GArray *out, gsize n)
{
  GRand *rand = g_rand_new_with_seed (7);

  for (gsize i = 0; i < n; i++)
    {
      double x = round (g_rand_double_range (rand, 30, 400) * 1000.0) / 1000.0;
      g_array_append_val (out, x);
    }
  g_rand_free (rand);
}

typedef struct {
  char *text;        /* every number, '\n' after each */
  gsize *start;      /* offset of number i */
  gsize *len;
} Texts;

static void
texts_make (Texts *t, const double *v, gsize n, gboolean old)
{
  GString *s = g_string_sized_new (n * 20);

  t->start = g_new (gsize, n);
  t->len = g_new (gsize, n);
  for (gsize i = 0; i < n; i++)
    {
      char buf[XRLAB_DTOA_BUFSIZE];

      if (old)
        old_format_double (v[i], buf);
      else
        xrlab_format_double (v[i], buf);
      t->start[i] = s->len;
      t->len[i] = strlen (buf);
      g_string_append (s, buf);
      g_string_append_c (s, '\n');
    }
  t->text = g_string_free (s, FALSE);
}

static void
texts_clear (Texts *t)
{
  g_free (t->text);
  g_free (t->start);
  g_free (t->len);
}

/* Formatting: new into one block, old on a sample; returns ns a number. */
static void
bench_format (const char *key, const double *v, gsize n, gsize n_old)
{
  char *block = g_malloc (n * XRLAB_DTOA_BUFSIZE);
  double times[REPS], times_old[3];
  g_autofree char *key_old = g_strdup_printf ("%s_old", key);
  gsize mismatch = 0;
  Texts t;

  for (int r = 0; r < REPS; r++)
    {
      double t0 = xrlab_now ();
      char *o = block;

      for (gsize i = 0; i < n; i++)
        {
          o += xrlab_format_double_len (v[i], o);
          *o++ = ',';
        }
      times[r] = (xrlab_now () - t0) / n * 1e9;
      xrlab_bench_consume (block);
    }
  for (int r = 0; r < 3; r++)
    {
      char buf[XRLAB_DTOA_BUFSIZE];
      double t0 = xrlab_now ();

      /* A sample spread over fit and optics numbers alike. */
      for (gsize i = 0; i < n_old; i++)
        xrlab_bench_consume (old_format_double (v[i * (n / n_old)], buf));
      times_old[r] = (xrlab_now () - t0) / n_old * 1e9;
    }

  /* Check: the same text as before (subnormals aside, where the new text is
   * shorter: none here), and every text reads back exactly. */
  texts_make (&t, v, n, FALSE);
  for (gsize i = 0; i < n; i++)
    {
      char buf[XRLAB_DTOA_BUFSIZE];
      double back;

      if (strncmp (old_format_double (v[i], buf), t.text + t.start[i], t.len[i]) != 0
          || strlen (buf) != t.len[i]
          || !xrlab_parse_double_n (t.text + t.start[i], t.len[i], TRUE, &back)
          || memcmp (&back, &v[i], sizeof back) != 0)
        {
          if (mismatch++ < 3)
            printf ("# %.17g: “%s” / “%.*s”\n", v[i], buf, (int) t.len[i], t.text + t.start[i]);
        }
    }
  xrlab_bench_check (mismatch == 0, "%s: %zu of %zu numbers differ from the former "
                     "text or do not read back", key, mismatch, n);
  texts_clear (&t);
  g_free (block);

  xrlab_bench_report (key, xrlab_bench_median (times, REPS));
  xrlab_bench_report (key_old, xrlab_bench_median (times_old, 3));
}

/* Parsing the texts of @v, new and old; returns ns a number. */
static void
bench_parse (const char *key, const double *v, gsize n)
{
  g_autofree char *key_old = g_strdup_printf ("%s_old", key);
  double *back = g_new (double, n);
  double times[REPS], times_old[3];
  gsize bad = 0;
  Texts t;

  texts_make (&t, v, n, TRUE);
  for (int r = 0; r < REPS; r++)
    {
      double t0 = xrlab_now ();

      for (gsize i = 0; i < n; i++)
        bad += !xrlab_parse_double_n (t.text + t.start[i], t.len[i], FALSE, &back[i]);
      times[r] = (xrlab_now () - t0) / n * 1e9;
    }
  xrlab_bench_check (bad == 0 && memcmp (back, v, n * sizeof *v) == 0,
                     "%s: the numbers do not read back exactly", key);
  /* The old parser needs NUL-terminated strings. */
  for (gsize i = 0; i < n; i++)
    t.text[t.start[i] + t.len[i]] = '\0';
  for (int r = 0; r < 3; r++)
    {
      double t0 = xrlab_now ();

      for (gsize i = 0; i < n; i++)
        bad += !old_parse_double (t.text + t.start[i], FALSE, &back[i]);
      times_old[r] = (xrlab_now () - t0) / n * 1e9;
    }
  xrlab_bench_check (bad == 0 && memcmp (back, v, n * sizeof *v) == 0,
                     "%s: the former parser disagrees", key);
  texts_clear (&t);
  g_free (back);
  xrlab_bench_report (key, xrlab_bench_median (times, REPS));
  xrlab_bench_report (key_old, xrlab_bench_median (times_old, 3));
}

/* A 2000 x 2000 fit result: written and read as CSV and as HDF5. */
static void
bench_files (const double *pool, gsize n_pool)
{
  const gsize rows = 2000, cols = 2000, n = rows * cols;
  g_autofree char *dir = g_dir_make_tmp ("xrlab-bench-io-XXXXXX", NULL);
  g_autofree char *csv = g_build_filename (dir, "fit.csv", NULL);
  g_autofree char *h5 = g_build_filename (dir, "fit.h5", NULL);
  double *m = g_new (double, n);
  double t_csv_w[3], t_csv_r[3], t_h5_w[REPS], t_h5_r[REPS];
  const gsize dims[2] = { rows, cols };
  gboolean ok = TRUE;

  for (gsize i = 0; i < n; i++)
    m[i] = pool[(i * 7919) % n_pool];
  for (int r = 0; r < 3; r++)
    {
      g_autoptr(GError) error = NULL;
      gsize rr = 0, cc = 0;
      double t0 = xrlab_now ();
      double *back;

      ok &= xrlab_write_csv_matrix (csv, m, rows, cols, &error);
      t_csv_w[r] = (xrlab_now () - t0) * 1e3;
      t0 = xrlab_now ();
      back = xrlab_read_csv_matrix (csv, FALSE, &rr, &cc, &error);
      t_csv_r[r] = (xrlab_now () - t0) * 1e3;
      ok &= back != NULL && rr == rows && cc == cols && memcmp (back, m, n * sizeof *m) == 0;
      g_free (back);
    }
  xrlab_bench_check (ok, "io: the 2000 x 2000 CSV does not read back exactly");

  for (int r = 0; r < REPS; r++)
    {
      g_autoptr(GError) error = NULL;
      XrlabH5Array a = { 0 };
      double t0 = xrlab_now ();
      XrlabH5Writer *w = xrlab_h5_writer_new (h5, &error);

      ok &= w != NULL
            && xrlab_h5_writer_add_dataset (w, "/entry/data/fit", m, 2, dims, "counts", &error)
            && xrlab_h5_writer_commit (w, &error);
      t_h5_w[r] = (xrlab_now () - t0) * 1e3;
      t0 = xrlab_now ();
      ok &= xrlab_h5_read (h5, "/entry/data/fit", &a, &error);
      t_h5_r[r] = (xrlab_now () - t0) * 1e3;
      ok &= a.data != NULL && a.dims[0] == rows && a.dims[1] == cols
            && memcmp (a.data, m, n * sizeof *m) == 0;
      xrlab_h5_array_clear (&a);
    }
  xrlab_bench_check (ok, "io: the 2000 x 2000 HDF5 dataset does not read back exactly");

  g_unlink (csv);
  g_unlink (h5);
  g_rmdir (dir);
  g_free (m);
  xrlab_bench_report ("io.csv_write_2000x2000_ms", xrlab_bench_median (t_csv_w, 3));
  xrlab_bench_report ("io.csv_read_2000x2000_ms", xrlab_bench_median (t_csv_r, 3));
  xrlab_bench_report ("io.h5_write_2000x2000_ms", xrlab_bench_median (t_h5_w, REPS));
  xrlab_bench_report ("io.h5_read_2000x2000_ms", xrlab_bench_median (t_h5_r, REPS));
}

int
xrlab_bench_io (int argc, char **argv)
{
  g_autoptr(GArray) numbers = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) data = g_array_new (FALSE, FALSE, sizeof (double));
  gsize n_fit;

  fit_numbers (numbers, 100, 1131);
  n_fit = numbers->len;
  optics_numbers (numbers, 3000);
  data_numbers (data, 200000);
  printf ("# io: %u numbers (%zu of a fit, %zu of an optics batch)\n",
          numbers->len, n_fit, (gsize) numbers->len - n_fit);

  bench_format ("io.format_ns_per_double", (double *) numbers->data, numbers->len, 20000);
  bench_parse ("io.parse_ns_per_double", (double *) numbers->data, numbers->len);
  bench_parse ("io.parse_data_ns_per_double", (double *) data->data, data->len);
  bench_files ((double *) numbers->data, numbers->len);
  xrlab_bench_io_process ();
  return xrlab_bench_failed () ? 1 : 0;
}
