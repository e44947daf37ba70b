/* test-engine-fit-sets.c -- result sets are replaced whole: a write stopped
 * at every step (the test hook), with and without RENAME_EXCHANGE, and
 * xrlab-cli fit killed with SIGKILL at random moments, leave the complete
 * previous set or the complete new one; what a killed writer left is
 * cleaned up by the next; files that are not results stay
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "xrlab-engine-fit-private.h"
#include "xrlab-init.h"
#include "xrlab-simulate.h"
#include "xrlab-util.h"
#include "test-common.h"

#define MODELS XRLAB_TEST_SRCDIR "/../data/models"

static char *tmpdir;

/* ---- folders ---------------------------------------------------------------------- */

/* The metrics files without their timings (the last column). */
static char *
masked (const char *name, char *text)
{
  g_auto(GStrv) lines = NULL;

  if (!g_str_has_suffix (name, "metrics.csv"))
    return text;
  lines = g_strsplit (text, "\n", -1);
  g_free (text);
  for (guint i = 1; lines[i] && *lines[i]; i++)
    {
      char *comma = strrchr (lines[i], ',');
      if (comma)
        strcpy (comma + 1, "WALL");
    }
  return g_strjoinv ("\n", lines);
}

/* The result files of @dir: name -> content (NULL when @dir is missing). */
static GHashTable *
snapshot (const char *dir)
{
  GHashTable *set;
  GDir *d = g_dir_open (dir, 0, NULL);
  const char *name;

  if (d == NULL)
    return NULL;
  set = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *p = g_build_filename (dir, name, NULL);
      char *text = NULL;

      if (g_file_test (p, G_FILE_TEST_IS_REGULAR) && g_file_get_contents (p, &text, NULL, NULL))
        g_hash_table_insert (set, g_strdup (name), masked (name, text));
    }
  g_dir_close (d);
  return set;
}

static gboolean
same_set (GHashTable *a, GHashTable *b)
{
  GHashTableIter it;
  gpointer k, v;

  if (a == NULL || b == NULL || g_hash_table_size (a) != g_hash_table_size (b))
    return FALSE;
  g_hash_table_iter_init (&it, a);
  while (g_hash_table_iter_next (&it, &k, &v))
    if (g_strcmp0 (v, g_hash_table_lookup (b, k)) != 0)
      return FALSE;
  return TRUE;
}

static void
assert_set (const char *dir, GHashTable *expected)
{
  g_autoptr(GHashTable) now = snapshot (dir);

  g_assert_true (same_set (now, expected));
}

/* The temporary folders of writers beside @outdir. */
static guint
n_temporaries (const char *outdir)
{
  g_autofree char *parent = g_path_get_dirname (outdir);
  g_autofree char *base = g_path_get_basename (outdir);
  g_autofree char *prefix = g_strdup_printf (".%s.xrlab-", base);
  GDir *d = g_dir_open (parent, 0, NULL);
  const char *name;
  guint n = 0;

  while (d && (name = g_dir_read_name (d)) != NULL)
    n += g_str_has_prefix (name, prefix);
  if (d)
    g_dir_close (d);
  return n;
}

/* ---- the engine ----------------------------------------------------------------------- */

/* Synthetic data of the expirf model (no dynamics: a fast 2D fit) as files. */
static void
write_data (gsize n_t, gsize n_e, char **data, char **energy, char **time)
{
  g_autoptr(XrlabModel) m = xrlab_model_load (MODELS "/expirf.yaml", "base", NULL);
  g_autofree double *e = g_new (double, n_e), *t = g_new (double, n_t), *y = NULL;
  g_autoptr(GString) es = g_string_new (NULL), ts = g_string_new (NULL);
  double scale;

  for (gsize i = 0; i < n_e; i++)
    {
      e[i] = 20.0 * i / (n_e - 1);
      xrlab_string_append_double (es, e[i]);
      g_string_append_c (es, '\n');
    }
  for (gsize i = 0; i < n_t; i++)
    {
      t[i] = -20.0 + 240.0 * i / (n_t - 1);
      xrlab_string_append_double (ts, t[i]);
      g_string_append_c (ts, '\n');
    }
  y = xrlab_simulate (m, e, n_e, t, n_t, NULL, 0, XRLAB_NOISE_GAUSSIAN, 0.02, 5, &scale, NULL);
  g_assert_nonnull (y);
  *data = g_build_filename (tmpdir, "data.csv", NULL);
  *energy = g_build_filename (tmpdir, "energy.csv", NULL);
  *time = g_build_filename (tmpdir, "time.csv", NULL);
  g_assert_true (xrlab_write_csv_matrix (*data, y, n_t, n_e, NULL));
  g_assert_true (g_file_set_contents (*energy, es->str, -1, NULL));
  g_assert_true (g_file_set_contents (*time, ts->str, -1, NULL));
}

/* A setup with the fit window from @e0 on, fitted (2D). */
static guint
fitted_setup (XrlabEngine *e, guint ds, double e0)
{
  XrlabFitSetupSpec spec;
  XrlabFitJobSpec job = { .kind = XRLAB_FIT_JOB_2D };
  g_autoptr(GError) error = NULL;
  XrlabEngineReply r = { 0 };
  guint s;

  xrlab_fit_setup_spec_init (&spec);
  spec.dataset = ds;
  spec.models = MODELS "/expirf.yaml";
  spec.model = "base";
  spec.e0 = e0;
  s = xrlab_engine_fit_setup_new_async (e, &spec, NULL, xrlab_engine_reply_cb, &r);
  g_assert_true (xrlab_engine_fit_setup_finish (e, xrlab_engine_reply_wait (&r), &error));
  g_clear_object (&r.result);
  xrlab_engine_fit_run_async (e, s, &job, NULL, NULL, NULL, NULL, xrlab_engine_reply_cb, &r);
  g_assert_true (xrlab_engine_fit_run_finish (e, xrlab_engine_reply_wait (&r), &error));
  g_assert_no_error (error);
  g_clear_object (&r.result);
  return s;
}

static gboolean
write_set (XrlabEngine *e, guint setup, const char *outdir, GError **error)
{
  XrlabEngineReply r = { 0 };
  gboolean ok;

  xrlab_engine_fit_write_async (e, setup, outdir, NULL, xrlab_engine_reply_cb, &r);
  ok = xrlab_engine_fit_write_finish (e, xrlab_engine_reply_wait (&r), error);
  g_clear_object (&r.result);
  return ok;
}

/* ---- the hook ------------------------------------------------------------------------ */

typedef struct {
  GPtrArray *steps;                 /* recorded */
  int stop_at;                      /* −1: never */
  int count;
} Hook;

static gboolean
hook (const char *step, gpointer data)
{
  Hook *h = data;

  if (h->steps)
    g_ptr_array_add (h->steps, g_strdup (step));
  return h->count++ != h->stop_at;
}

static void
test_hook (void)
{
  g_autofree char *data = NULL, *energy = NULL, *time = NULL;
  g_autofree char *out = g_build_filename (tmpdir, "hook-out", NULL);
  g_autofree char *ref = g_build_filename (tmpdir, "hook-ref", NULL);
  g_autofree char *notes = g_build_filename (out, "notes.txt", NULL);
  g_autofree char *sub = g_build_filename (out, "plots", NULL);
  g_autoptr(XrlabEngine) e = xrlab_engine_new ();
  g_autoptr(GHashTable) set_a = NULL, set_b = NULL;
  XrlabDatasetSource src = { .kind = XRLAB_DATASET_FILES };
  g_autoptr(GError) error = NULL;
  XrlabEngineReply r = { 0 };
  guint ds, sa, sb;
  Hook h = { .steps = g_ptr_array_new_with_free_func (g_free), .stop_at = -1 };

  write_data (41, 301, &data, &energy, &time);
  src.data = data, src.energy = energy, src.time = time;
  ds = xrlab_engine_dataset_open_async (e, &src, NULL, xrlab_engine_reply_cb, &r);
  g_free (xrlab_engine_dataset_open_finish (e, xrlab_engine_reply_wait (&r), &error));
  g_assert_no_error (error);
  g_clear_object (&r.result);
  sa = fitted_setup (e, ds, 1);
  sb = fitted_setup (e, ds, 3);

  /* the reference sets, and the steps of a write over an existing set */
  g_assert_true (write_set (e, sb, ref, &error));
  g_assert_true (write_set (e, sa, out, &error));
  set_a = snapshot (out);
  set_b = snapshot (ref);
  g_assert_false (same_set (set_a, set_b));
  g_assert_true (g_file_set_contents (notes, "mine\n", -1, NULL));
  g_assert_cmpint (g_mkdir (sub, 0755), ==, 0);
  g_hash_table_insert (set_a, g_strdup ("notes.txt"), g_strdup ("mine\n"));
  g_hash_table_insert (set_b, g_strdup ("notes.txt"), g_strdup ("mine\n"));
  xrlab_fit_set_write_hook (hook, &h, TRUE);
  g_assert_true (write_set (e, sb, out, &error));
  g_assert_true (write_set (e, sa, out, &error));
  assert_set (out, set_a);
  g_test_message ("%u steps in a write over an existing set", h.steps->len / 2);

  /* stopped at every step, with and without the exchange */
  for (int no_exchange = 0; no_exchange < 2; no_exchange++)
    for (guint k = 0; k < h.steps->len / 2 + 1; k++)
      {
        g_autoptr(GHashTable) now = NULL;
        Hook stop = { .stop_at = k };

        xrlab_fit_set_write_hook (hook, &stop, no_exchange);
        if (write_set (e, sb, out, &error))
          g_assert_cmpint (stop.count, <=, (int) k);
        g_clear_error (&error);
        /* a kill here: the folder is whole, or missing with the old set beside it */
        now = snapshot (out);
        if (now == NULL)
          g_assert_cmpuint (n_temporaries (out), >, 0);
        else
          g_assert_true (same_set (now, set_a) || same_set (now, set_b));
        /* the next writer recovers first */
        xrlab_fit_result_dir_recover (out);
        g_clear_pointer (&now, g_hash_table_unref);
        now = snapshot (out);
        g_assert_true (same_set (now, set_a) || same_set (now, set_b));
        g_assert_true (g_file_test (sub, G_FILE_TEST_IS_DIR));
        g_assert_cmpuint (n_temporaries (out), ==, 0);
        xrlab_fit_set_write_hook (NULL, NULL, FALSE);
        g_assert_true (write_set (e, sa, out, &error));
        assert_set (out, set_a);
      }
  xrlab_fit_set_write_hook (NULL, NULL, FALSE);
  g_ptr_array_unref (h.steps);
}

/* Refused: the current folder (it would be renamed away) and a file. */
static void
test_refused (void)
{
  g_autofree char *data = NULL, *energy = NULL, *time = NULL;
  g_autofree char *out = g_build_filename (tmpdir, "cwd-out", NULL);
  g_autofree char *file = g_build_filename (tmpdir, "a-file", NULL);
  g_autofree char *link = g_build_filename (tmpdir, "link-out", NULL);
  g_autofree char *cwd = g_get_current_dir ();
  g_autoptr(XrlabEngine) e = xrlab_engine_new ();
  XrlabDatasetSource src = { .kind = XRLAB_DATASET_FILES };
  g_autoptr(GError) error = NULL;
  XrlabEngineReply r = { 0 };
  guint s;

  write_data (21, 101, &data, &energy, &time);
  src.data = data, src.energy = energy, src.time = time;
  xrlab_engine_dataset_open_async (e, &src, NULL, xrlab_engine_reply_cb, &r);
  {
    g_autofree XrlabDatasetInfo *info = xrlab_engine_dataset_open_finish (e, xrlab_engine_reply_wait (&r),
                                                                         &error);
    g_assert_no_error (error);
    s = fitted_setup (e, info->id, 1);
  }
  g_clear_object (&r.result);
  g_assert_cmpint (g_mkdir (out, 0755), ==, 0);
  g_assert_cmpint (g_chdir (out), ==, 0);
  g_assert_false (write_set (e, s, ".", &error));
  g_assert_error (error, XRLAB_ENGINE_FIT_ERROR, XRLAB_ENGINE_FIT_ERROR_OUTPUT);
  g_clear_error (&error);
  g_assert_cmpint (g_chdir (cwd), ==, 0);
  /* xrlab-cli fit says so before it fits */
  if (g_getenv ("XRLAB_CLI") != NULL)
    {
      const char *argv[] = { g_getenv ("XRLAB_CLI"), "fit", "--models", MODELS "/expirf.yaml",
                             "--model", "base", "--data", data, "--energy", energy, "--time",
                             time, "-o", ".", NULL };
      g_autofree char *err = NULL;
      int status;

      g_assert_true (g_spawn_sync (out, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL,
                                   NULL, NULL, &err, &status, NULL));
      g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 1);
      g_assert_nonnull (strstr (err, "is the current folder"));
    }
  g_assert_true (g_file_set_contents (file, "x", -1, NULL));
  g_assert_false (write_set (e, s, file, &error));
  g_assert_error (error, XRLAB_ENGINE_FIT_ERROR, XRLAB_ENGINE_FIT_ERROR_OUTPUT);
  g_clear_error (&error);
  /* through a symbolic link: the folder it points to, the link kept */
  g_assert_cmpint (symlink (out, link), ==, 0);
  g_assert_true (write_set (e, s, link, &error));
  g_assert_true (g_file_test (link, G_FILE_TEST_IS_SYMLINK));
  {
    g_autofree char *params = g_build_filename (out, "params.csv", NULL);
    g_assert_true (g_file_test (params, G_FILE_TEST_IS_REGULAR));
  }
}

/* ---- SIGKILL ---------------------------------------------------------------------------- */

static GPid
spawn_fit (const char *data, const char *energy, const char *time, const char *elim,
           const char *out)
{
  const char *argv[] = {
    g_getenv ("XRLAB_CLI"), "fit", "--models", MODELS "/expirf.yaml", "--model", "base",
    "--data", data, "--energy", energy, "--time", time, "--elim", elim, "-o", out, NULL,
  };
  g_autoptr(GError) error = NULL;
  GPid pid;

  g_assert_true (g_spawn_async (NULL, (char **) argv, NULL,
                                G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL
                                | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &pid, &error));
  return pid;
}

static int
reap (GPid pid)
{
  int status;

  while (waitpid (pid, &status, 0) < 0 && errno == EINTR)
    ;
  return status;
}

static void
test_sigkill (void)
{
  g_autofree char *data = NULL, *energy = NULL, *time = NULL;
  g_autofree char *out = g_build_filename (tmpdir, "kill-out", NULL);
  g_autofree char *ref = g_build_filename (tmpdir, "kill-ref", NULL);
  g_autoptr(GHashTable) set0 = NULL, set1 = NULL;
  GHashTable *set[2];
  const char *elim[2] = { "1:19", "3:17" };
  guint landed[3] = { 0, 0, 0 };    /* old, new, missing until recovered */
  double run_s;
  int cur;

  if (g_getenv ("XRLAB_CLI") == NULL)
    {
      g_test_skip ("XRLAB_CLI is not set");
      return;
    }
  write_data (150, 1200, &data, &energy, &time);
  /* the two sets, and how long a run takes */
  for (int k = 0; k < 2; k++)
    {
      double t0 = xrlab_now ();
      int status = reap (spawn_fit (data, energy, time, elim[k], ref));

      run_s = xrlab_now () - t0;
      g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
      set[k] = snapshot (ref);
      xrlab_test_rm_rf (ref);
    }
  set0 = set[0], set1 = set[1];
  g_assert_false (same_set (set[0], set[1]));
  g_assert_cmpint (reap (spawn_fit (data, energy, time, elim[0], out)), ==, 0);
  cur = 0;
  for (int trial = 0; trial < 40; trial++)
    {
      g_autoptr(GHashTable) now = NULL;
      int next = 1 - cur;
      GPid pid = spawn_fit (data, energy, time, elim[next], out);

      /* anywhere in the run, more often towards its end, where it writes */
      g_usleep ((gulong) (run_s * sqrt (g_test_rand_double_range (0.0, 1.3)) * G_USEC_PER_SEC));
      kill (pid, SIGKILL);
      reap (pid);
      now = snapshot (out);
      if (now == NULL)
        {
          /* killed between the two renames: the next writer restores */
          landed[2]++;
          xrlab_fit_result_dir_recover (out);
          now = snapshot (out);
        }
      if (same_set (now, set[cur]))
        landed[0]++;
      else if (same_set (now, set[next]))
        landed[1]++, cur = next;
      else
        {
          GHashTableIter it;
          gpointer k, v;
          g_hash_table_iter_init (&it, now);
          while (g_hash_table_iter_next (&it, &k, &v))
            g_printerr ("%s: %s / %s\n", (char *) k,
                        g_strcmp0 (v, g_hash_table_lookup (set[cur], k)) == 0 ? "old" : "-",
                        g_strcmp0 (v, g_hash_table_lookup (set[next], k)) == 0 ? "new" : "-");
          g_error ("trial %d: %s holds neither the old set nor the new one (%u, %u, %u files)",
                   trial, out, g_hash_table_size (now), g_hash_table_size (set[cur]),
                   g_hash_table_size (set[next]));
        }
    }
  g_test_message ("40 kills: %u left the old set, %u the new one (%u between the renames)",
                  landed[0], landed[1], landed[2]);
  /* a run after the kills cleans up what they left */
  g_assert_cmpint (reap (spawn_fit (data, energy, time, elim[0], out)), ==, 0);
  assert_set (out, set[0]);
  g_assert_cmpuint (n_temporaries (out), ==, 0);
}

int
main (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  int status;

  xrlab_init ();
  g_test_init (&argc, &argv, NULL);
  tmpdir = g_dir_make_tmp ("xrlab-fit-sets-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add_func ("/engine-fit-sets/hook", test_hook);
  g_test_add_func ("/engine-fit-sets/refused", test_refused);
  g_test_add_func ("/engine-fit-sets/sigkill", test_sigkill);
  status = g_test_run ();
  xrlab_test_rm_rf (tmpdir);
  g_free (tmpdir);
  return status;
}
