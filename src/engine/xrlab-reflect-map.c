/* xrlab-reflect-map.c -- maps on the one pool, and grazing angles: units
 * and specs
 *
 * A map is a row of angles per energy (xrlab_reflect_angles_row()); the
 * rows are independent, so the threads of a parallel map take rows one at
 * a time from a shared counter, each with a workspace of its own. The
 * plan's reduction (media, slabs, interfaces, δ and β) is read only while
 * they run.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-reflect.h"
#include "xrlab-reflect-private.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "xrlab-parallel.h"
#include "xrlab-util.h"

/* ---- parallel maps ------------------------------------------------------- */

typedef struct {
  XrlabReflectPlan *plan;
  XrlabReflectPlan *views;        /* a workspace per part but the first */
  const double *angles;
  gsize n_angles;
  const XrlabReflectOutput *out;
  gint n_e;
  gint next;                      /* atomic: the next energy to take */
  gint done;                      /* atomic: energies written */
  gint stop;                      /* atomic: cancelled */
  GCancellable *cancellable;
  GThread *caller;
  XrlabReflectProgressFunc progress;
  gpointer progress_data;
} MapJob;

static void
map_part (gpointer data, guint part)
{
  MapJob *job = data;
  XrlabReflectPlan *plan = part == 0 ? job->plan : &job->views[part - 1];
  gboolean on_caller = g_thread_self () == job->caller;

  for (;;)
    {
      gint e, done;

      if (g_atomic_int_get (&job->stop))
        return;
      if (g_cancellable_is_cancelled (job->cancellable))
        {
          g_atomic_int_set (&job->stop, 1);
          return;
        }
      e = g_atomic_int_add (&job->next, 1);
      if (e >= job->n_e)
        return;
      xrlab_reflect_angles_row (plan, (gsize) e, job->angles, job->n_angles, job->out,
                                (gsize) e * job->n_angles);
      done = g_atomic_int_add (&job->done, 1) + 1;
      if (on_caller && job->progress != NULL)
        job->progress ((gsize) done, (gsize) job->n_e, job->progress_data);
    }
}

gboolean
xrlab_reflect_plan_map_parallel (XrlabReflectPlan         *plan,
                                 const double             *angles_rad,
                                 gsize                     n_angles,
                                 const XrlabReflectOutput *out,
                                 guint                     n_threads,
                                 XrlabReflectProgressFunc  progress,
                                 gpointer                  progress_data,
                                 GCancellable             *cancellable,
                                 GError                  **error)
{
  XrlabParallel *pool = xrlab_parallel_default ();
  MapJob job = { 0 };
  guint n_parts;

  g_return_val_if_fail (plan != NULL && out != NULL, FALSE);
  g_return_val_if_fail (n_angles == 0 || angles_rad != NULL, FALSE);
  g_return_val_if_fail (plan->n_e <= G_MAXINT, FALSE);

  if (!xrlab_reflect_check_map (out, angles_rad, n_angles, error))
    return FALSE;

  n_parts = n_threads == 0 ? xrlab_parallel_n_threads (pool) : n_threads;
  n_parts = (guint) MIN ((gsize) n_parts, MAX (plan->n_e, (gsize) 1));
  job.plan = plan;
  job.angles = angles_rad;
  job.n_angles = n_angles;
  job.out = out;
  job.n_e = (gint) plan->n_e;
  job.cancellable = cancellable;
  job.caller = g_thread_self ();
  job.progress = progress;
  job.progress_data = progress_data;
  job.views = g_new0 (XrlabReflectPlan, MAX (n_parts, 1u));
  for (guint k = 0; k + 1 < n_parts; k++)
    {
      job.views[k] = *plan;
      xrlab_reflect_plan_alloc_workspace (&job.views[k]);
    }

  if (n_parts <= 1)
    map_part (&job, 0);
  else
    xrlab_parallel_run (pool, n_parts, map_part, &job);

  for (guint k = 0; k + 1 < n_parts; k++)
    g_free (job.views[k].ws);
  g_free (job.views);
  if (job.done < job.n_e)
    {
      if (!g_cancellable_set_error_if_cancelled (cancellable, error))
        g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("The map was cancelled"));
      return FALSE;
    }
  return TRUE;
}

/* ---- grazing angles --------------------------------------------------------- */

gboolean
xrlab_angle_unit_parse (const char *text, XrlabAngleUnit *unit)
{
  if (text == NULL)
    return FALSE;
  if (g_ascii_strcasecmp (text, "mrad") == 0)
    *unit = XRLAB_ANGLE_UNIT_MRAD;
  else if (g_ascii_strcasecmp (text, "deg") == 0 || strcmp (text, "°") == 0)
    *unit = XRLAB_ANGLE_UNIT_DEG;
  else
    return FALSE;
  return TRUE;
}

const char *
xrlab_angle_unit_get_id (XrlabAngleUnit unit)
{
  return unit == XRLAB_ANGLE_UNIT_DEG ? "deg" : "mrad";
}

double
xrlab_angle_to_rad (double value, XrlabAngleUnit unit)
{
  double rad = unit == XRLAB_ANGLE_UNIT_DEG ? value * (G_PI / 180.0) : value * 1e-3;

  /* 90° or 1570.796... mrad rounded up: π/2. */
  return rad > G_PI / 2 && rad <= G_PI / 2 * (1.0 + 1e-12) ? G_PI / 2 : rad;
}

double
xrlab_angle_from_rad (double angle_rad, XrlabAngleUnit unit)
{
  return unit == XRLAB_ANGLE_UNIT_DEG ? angle_rad * (180.0 / G_PI) : angle_rad * 1e3;
}

/* One number of @spec; @what names it in the message. */
static gboolean
angle_spec_number (const char *text, const char *spec, const char *what, double *value,
                   GError **error)
{
  g_autofree char *t = g_strstrip (g_strdup (text));

  if (t[0] == '\0')
    {
      g_set_error (error, XRLAB_REFLECT_ERROR, XRLAB_REFLECT_ERROR_ANGLE_SPEC,
                   _("Angle spec “%s”: the %s is missing"), spec, what);
      return FALSE;
    }
  if (!xrlab_parse_double (t, TRUE, value) || !isfinite (*value))
    {
      g_set_error (error, XRLAB_REFLECT_ERROR, XRLAB_REFLECT_ERROR_ANGLE_SPEC,
                   _("Angle spec “%s”: the %s “%s” is not a number"), spec, what, t);
      return FALSE;
    }
  return TRUE;
}

/* @value in @unit within 0..90° (the limit a little above it counts as
 * the limit): into *checked. */
static gboolean
angle_check (double value, XrlabAngleUnit unit, const char *spec, const char *what,
             double *checked, GError **error)
{
  char buf[XRLAB_DTOA_BUFSIZE], top[XRLAB_DTOA_BUFSIZE];
  double max = xrlab_angle_from_rad (G_PI / 2, unit);

  /* A limit printed and read back may land a few units in the last place
   * outside: it counts as the limit. */
  if (value > max && value <= max * (1.0 + 1e-12))
    value = max;
  if (!(value >= 0.0 && value <= max))
    {
      g_set_error (error, XRLAB_REFLECT_ERROR, XRLAB_REFLECT_ERROR_ANGLE,
                   _("Angle spec “%s”: the %s %s %s is outside 0–%s %s (a grazing angle, 0–90°)"),
                   spec, what, xrlab_format_double (value, buf), xrlab_angle_unit_get_id (unit),
                   xrlab_format_double (max, top), xrlab_angle_unit_get_id (unit));
      return FALSE;
    }
  *checked = value;
  return TRUE;
}

static double *
angle_spec_list (const char *s, XrlabAngleUnit unit, gsize *n, GError **error)
{
  g_auto(GStrv) parts = g_strsplit (s, ",", -1);
  guint count = g_strv_length (parts);
  g_autofree double *v = NULL;

  if (strchr (s, ':') != NULL)
    {
      g_set_error (error, XRLAB_REFLECT_ERROR, XRLAB_REFLECT_ERROR_ANGLE_SPEC,
                   _("Angle spec “%s” mixes a list (“,”) and a range (“:”)"), s);
      return NULL;
    }
  if (count > XRLAB_ANGLE_SPEC_MAX_POINTS)
    {
      g_set_error (error, XRLAB_REFLECT_ERROR, XRLAB_REFLECT_ERROR_ANGLE_SPEC,
                   _("Angle spec “%s…” has more than %d angles"), parts[0],
                   XRLAB_ANGLE_SPEC_MAX_POINTS);
      return NULL;
    }
  v = g_new (double, count);
  for (guint i = 0; i < count; i++)
    {
      g_autofree char *what = g_strdup_printf (_("item %u"), i + 1);
      double x;

      if (!angle_spec_number (parts[i], s, what, &x, error)
          || !angle_check (x, unit, s, what, &v[i], error))
        return NULL;
    }
  *n = count;
  return g_steal_pointer (&v);
}

static double *
angle_spec_range (const char *s, char **parts, guint n_parts, XrlabAngleUnit unit, gsize *n,
                  GError **error)
{
  double start, stop, count, a, b;
  gboolean log_spacing = FALSE;
  double *v;

  if (n_parts != 3 && n_parts != 4)
    {
      g_set_error (error, XRLAB_REFLECT_ERROR, XRLAB_REFLECT_ERROR_ANGLE_SPEC,
                   _("Angle spec “%s” does not parse: give “5”, “1,2,5”, “0:10:101” "
                     "or “0.1:10:50:log”"), s);
      return NULL;
    }
  if (!angle_spec_number (parts[0], s, _("start"), &start, error)
      || !angle_spec_number (parts[1], s, _("stop"), &stop, error)
      || !angle_spec_number (parts[2], s, _("number of points"), &count, error)
      || !angle_check (start, unit, s, _("start"), &a, error)
      || !angle_check (stop, unit, s, _("stop"), &b, error))
    return NULL;
  if (!(count == floor (count)) || count < 2 || count > XRLAB_ANGLE_SPEC_MAX_POINTS)
    {
      g_autofree char *t = g_strstrip (g_strdup (parts[2]));
      g_set_error (error, XRLAB_REFLECT_ERROR, XRLAB_REFLECT_ERROR_ANGLE_SPEC,
                   _("Angle spec “%s”: the number of points “%s” must be a whole number from 2 to %d"),
                   s, t, XRLAB_ANGLE_SPEC_MAX_POINTS);
      return NULL;
    }
  if (n_parts == 4)
    {
      g_autofree char *t = g_strstrip (g_strdup (parts[3]));

      if (g_ascii_strcasecmp (t, "log") == 0)
        log_spacing = TRUE;
      else if (g_ascii_strcasecmp (t, "lin") != 0 && g_ascii_strcasecmp (t, "linear") != 0)
        {
          g_set_error (error, XRLAB_REFLECT_ERROR, XRLAB_REFLECT_ERROR_ANGLE_SPEC,
                       _("Angle spec “%s”: the spacing “%s” must be “log” or “lin”"), s, t);
          return NULL;
        }
      if (log_spacing && !(a > 0.0 && b > 0.0))
        {
          g_set_error (error, XRLAB_REFLECT_ERROR, XRLAB_REFLECT_ERROR_ANGLE_SPEC,
                       _("Angle spec “%s”: a log range needs a start and a stop above 0"), s);
          return NULL;
        }
    }
  *n = (gsize) count;
  v = g_new (double, *n);
  for (gsize i = 0; i < *n; i++)
    {
      double t = (double) i / (double) (*n - 1);
      v[i] = log_spacing ? a * pow (b / a, t) : a + (b - a) * t;
    }
  v[0] = a;
  v[*n - 1] = b;
  return v;
}

double *
xrlab_angle_spec_parse (const char *spec, XrlabAngleUnit unit, gsize *n, GError **error)
{
  g_autofree char *s = NULL;
  g_auto(GStrv) parts = NULL;
  double x, *v;

  g_return_val_if_fail (n != NULL, NULL);
  *n = 0;
  if (spec == NULL || (s = g_strstrip (g_strdup (spec)))[0] == '\0')
    {
      g_set_error (error, XRLAB_REFLECT_ERROR, XRLAB_REFLECT_ERROR_ANGLE_SPEC,
                   _("Empty angle spec: give “5”, “1,2,5”, “0:10:101” or “0.1:10:50:log”"));
      return NULL;
    }
  if (strlen (s) > 64 * (gsize) XRLAB_ANGLE_SPEC_MAX_POINTS)
    {
      g_set_error (error, XRLAB_REFLECT_ERROR, XRLAB_REFLECT_ERROR_ANGLE_SPEC,
                   _("The angle spec is too long"));
      return NULL;
    }
  if (strchr (s, ',') != NULL)
    return angle_spec_list (s, unit, n, error);
  parts = g_strsplit (s, ":", -1);
  if (parts[1] != NULL)
    return angle_spec_range (s, parts, g_strv_length (parts), unit, n, error);
  v = g_new (double, 1);
  if (!angle_spec_number (parts[0], s, _("angle"), &x, error)
      || !angle_check (x, unit, s, _("angle"), v, error))
    {
      g_free (v);
      return NULL;
    }
  *n = 1;
  return v;
}
