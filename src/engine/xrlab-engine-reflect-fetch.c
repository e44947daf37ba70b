/* xrlab-engine-reflect-fetch.c -- the stacks service of the engine: fetches
 * of curves and maps, and the map job
 *
 * A fetch resolves its stacks, takes each one's plan (or transmission) on
 * the query's grid from the stack's cache or makes it
 * (xrlab-engine-reflect.c), allocates one reply (XrlabEngineCurves) and
 * computes the values straight into it: one transfer per consumer,
 * counted. A big map is a job: prepare (worker) makes the reply and lends
 * the plans to the payload, run (lane) computes the maps in parallel over
 * energies, finish (worker) gives the plans back and answers.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-engine-reflect-private.h"
#include "xrlab-reflect-private.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "xrlab-util.h"

/* The most values per stack and value of one map. */
#define MAX_MAP_POINTS ((gsize) 1 << 24)

/* How often the progress of a map reaches the caller at most [s]. */
#define MAP_PROGRESS_INTERVAL_S 0.05

/* ---- payloads ---------------------------------------------------------------- */

typedef struct {
  XrlabReflectPlan *plan;   /* lent by the stack's cache */
  guint             id;
  gsize             index;  /* in the reply */
} LentPlan;

typedef struct {
  XrlabReflectQuery  query;     /* its grid and angles are the payload's */
  XrlabEnergyGrid   *grid;      /* the query's, or the one energy of ANGLES */
  double            *angles;
  guint             *ids;       /* NULL: every stack of the kind */
  gsize              n_ids;
  char              *path;      /* an export's */
  /* The job's. */
  XrlabEngineCurves *curves;
  GArray            *lent;      /* LentPlan */
  GError            *error;
  double             compute_s;
  gsize              rows_done;
  gsize              rows_total;
} CurvesPayload;

static void
curves_payload_free (gpointer data)
{
  CurvesPayload *p = data;

  g_clear_pointer (&p->grid, xrlab_energy_grid_unref);
  g_free (p->angles);
  g_free (p->ids);
  g_free (p->path);
  g_clear_pointer (&p->curves, xrlab_engine_curves_free);
  if (p->lent != NULL)
    {
      /* Only when finish never ran (shut down before the job started). */
      for (guint i = 0; i < p->lent->len; i++)
        xrlab_reflect_plan_free (g_array_index (p->lent, LentPlan, i).plan);
      g_array_unref (p->lent);
    }
  g_clear_error (&p->error);
  g_free (p);
}

/* ---- the reply ------------------------------------------------------------------ */

/* What one stack of a reply has: a plan, a transmission, or why not. */
typedef struct {
  XrlabEngineStack *s;
  XrlabReflectPlan *plan;
  const double     *transmission;
  GError           *error;
} Item;

static void
items_clear (Item *items, gsize n)
{
  for (gsize i = 0; i < n; i++)
    g_clear_error (&items[i].error);
}

static gboolean
item_has_values (const Item *it)
{
  return it->plan != NULL || it->transmission != NULL;
}

/* The message of a stack without current values. */
static const char *
item_message (const Item *it)
{
  if (it->s->error != NULL)
    return it->s->error->message;
  if (it->error != NULL)
    return it->error->message;
  return NULL;
}

/* The materials of @plan's stack that get a mark: all but the ambient. */
static gsize
item_n_marks (const Item *it, XrlabReflectCurve curve)
{
  XrlabStack *stack;

  if (it->plan == NULL || (curve != XRLAB_REFLECT_CURVE_ANGLES && curve != XRLAB_REFLECT_CURVE_ENERGIES))
    return 0;
  stack = xrlab_reflect_plan_get_stack (it->plan);
  return xrlab_stack_get_n_materials (stack) - (xrlab_stack_get_ambient (stack) >= 0 ? 1 : 0);
}

static gsize
string_size (const char *s)
{
  return s != NULL ? strlen (s) + 1 : 0;
}

static const char *
copy_string (char **strings, const char *s)
{
  gsize len = string_size (s);
  const char *copy;

  if (s == NULL)
    return NULL;
  copy = memcpy (*strings, s, len);
  *strings += len;
  return copy;
}

/* The bytes of the names of @it's marks. */
static gsize
item_names_size (const Item *it, XrlabReflectCurve curve)
{
  XrlabStack *stack;
  gsize size = 0;

  if (item_n_marks (it, curve) == 0)
    return 0;
  stack = xrlab_reflect_plan_get_stack (it->plan);
  for (gsize m = 0; m < xrlab_stack_get_n_materials (stack); m++)
    if ((int) m != xrlab_stack_get_ambient (stack))
      size += string_size (xrlab_stack_get_material (stack, m)->name);
  return size;
}

/* The critical angle of material @m against the ambient at energy @e. */
static double
critical_angle (XrlabReflectPlan *plan, gsize m, gsize e)
{
  int ambient = xrlab_stack_get_ambient (xrlab_reflect_plan_get_stack (plan));
  double d0 = ambient >= 0 ? xrlab_reflect_plan_get_delta (plan, (gsize) ambient)[e] : 0.0;
  double d = xrlab_reflect_plan_get_delta (plan, m)[e];

  return d > d0 ? acos ((1.0 - d) / (1.0 - d0)) : NAN;
}

/* Where the critical angle of material @m falls to @angle on the grid. */
static double
cutoff_energy (XrlabReflectPlan *plan, gsize m, double angle, const double *energies, gsize n_e)
{
  for (gsize e = 1; e < n_e; e++)
    {
      double f0 = critical_angle (plan, m, e - 1) - angle;
      double f1 = critical_angle (plan, m, e) - angle;

      if (f0 >= 0.0 && f1 < 0.0)
        return energies[e - 1] + (energies[e] - energies[e - 1]) * f0 / (f0 - f1);
    }
  return NAN;
}

static void
fill_marks (const Item *it, const CurvesPayload *p, const double *energies, gsize n_e,
            double *marks, const char **names, char **strings)
{
  XrlabStack *stack = xrlab_reflect_plan_get_stack (it->plan);
  int ambient = xrlab_stack_get_ambient (stack);
  gsize k = 0;

  for (gsize m = 0; m < xrlab_stack_get_n_materials (stack); m++)
    {
      if ((int) m == ambient)
        continue;
      names[k] = copy_string (strings, xrlab_stack_get_material (stack, m)->name);
      marks[k] = p->query.curve == XRLAB_REFLECT_CURVE_ANGLES
                 ? critical_angle (it->plan, m, 0)
                 : cutoff_energy (it->plan, m, p->query.angle_rad, energies, n_e);
      k++;
    }
}

/* The reply for @items, everything but the values of the stacks that have
 * them (NaN for the others). NULL with @error when there is no memory. */
static XrlabEngineCurves *
curves_alloc (const CurvesPayload *p, const Item *items, gsize n_s, GError **error)
{
  const XrlabReflectQuery *q = &p->query;
  gsize n_e = p->grid != NULL ? xrlab_energy_grid_get_size (p->grid) : 0;
  gsize n_a = q->curve == XRLAB_REFLECT_CURVE_ENERGIES ? 1
              : q->curve == XRLAB_REFLECT_CURVE_FILTER ? 0 : q->n_angles;
  gsize n_p = q->curve == XRLAB_REFLECT_CURVE_ANGLES ? n_a
              : q->curve == XRLAB_REFLECT_CURVE_MAP ? n_e * n_a : n_e;
  XrlabReflectValueMask mask = q->curve == XRLAB_REFLECT_CURVE_FILTER
                               ? XRLAB_REFLECT_VALUE_BIT (XRLAB_REFLECT_VALUE_T) : q->values;
  gsize n_v = 0, n_marks = 0, strings = 0;
  gsize off_e, off_a, off_m, off_v, off_ms, off_ids, off_col, off_st, off_msg, off_mn, off_str;
  XrlabEngineCurves *c;
  char *base, *str;
  double *values;

  for (int v = 0; v < XRLAB_REFLECT_VALUE_N; v++)
    n_v += (mask & XRLAB_REFLECT_VALUE_BIT (v)) != 0;
  for (gsize i = 0; i < n_s; i++)
    {
      n_marks += item_n_marks (&items[i], q->curve);
      strings += string_size (item_message (&items[i])) + item_names_size (&items[i], q->curve);
    }
  if (n_s > 0 && n_v * n_p > G_MAXSIZE / sizeof (double) / n_s / 2)
    goto no_memory;

  off_e = xrlab_engine_align8 (sizeof (XrlabEngineCurves));
  off_a = off_e + n_e * sizeof (double);
  off_m = off_a + n_a * sizeof (double);
  off_v = off_m + n_marks * sizeof (double);
  off_ms = off_v + n_s * n_v * n_p * sizeof (double);
  off_ids = off_ms + (n_s + 1) * sizeof (gsize);
  off_col = off_ids + n_s * sizeof (guint);
  off_st = off_col + n_s * sizeof (int);
  off_msg = xrlab_engine_align8 (off_st + n_s);
  off_mn = off_msg + n_s * sizeof (char *);
  off_str = off_mn + n_marks * sizeof (char *);
  base = g_try_malloc (off_str + MAX (strings, 1));
  if (base == NULL)
    goto no_memory;

  c = (XrlabEngineCurves *) base;
  memset (c, 0, sizeof *c);
  c->curve = q->curve;
  c->table = q->table;
  c->table_choice = q->curve == XRLAB_REFLECT_CURVE_ANGLES || p->grid == NULL
                    ? (XrlabTableChoice) q->table : xrlab_energy_grid_get_table_choice (p->grid);
  c->photo_only = q->curve == XRLAB_REFLECT_CURVE_FILTER && q->photo_only;
  c->polarization = q->polarization;
  c->n_energies = n_e;
  c->n_angles = n_a;
  c->n_points = n_p;
  c->n_stacks = n_s;
  for (int v = 0; v < XRLAB_REFLECT_VALUE_N; v++)
    if (mask & XRLAB_REFLECT_VALUE_BIT (v))
      c->values_of[c->n_values++] = v;
  c->energies_kev = (const double *) (base + off_e);
  if (n_e > 0)
    memcpy ((double *) c->energies_kev, xrlab_energy_grid_get_energies_kev (p->grid), n_e * sizeof (double));
  c->angles_rad = (const double *) (base + off_a);
  if (q->curve == XRLAB_REFLECT_CURVE_ENERGIES)
    *(double *) c->angles_rad = q->angle_rad;
  else if (n_a > 0)
    memcpy ((double *) c->angles_rad, p->angles, n_a * sizeof (double));
  c->marks = (const double *) (base + off_m);
  c->values = values = (double *) (base + off_v);
  c->mark_start = (const gsize *) (base + off_ms);
  c->ids = (const guint *) (base + off_ids);
  c->error_columns = (const int *) (base + off_col);
  c->status = (const guint8 *) (base + off_st);
  c->messages = (const char **) (base + off_msg);
  c->mark_names = (const char **) (base + off_mn);
  str = base + off_str;

  n_marks = 0;
  for (gsize i = 0; i < n_s; i++)
    {
      const Item *it = &items[i];

      ((gsize *) c->mark_start)[i] = n_marks;
      ((guint *) c->ids)[i] = it->s->id;
      ((int *) c->error_columns)[i] = it->s->error != NULL ? it->s->error_column : 0;
      ((guint8 *) c->status)[i] = !item_has_values (it) ? XRLAB_ENGINE_VALUES_NONE
                                  : it->s->error != NULL ? XRLAB_ENGINE_VALUES_STALE
                                  : XRLAB_ENGINE_VALUES_CURRENT;
      c->messages[i] = copy_string (&str, item_message (it));
      if (item_n_marks (it, q->curve) > 0)
        {
          fill_marks (it, p, c->energies_kev, n_e, (double *) c->marks + n_marks,
                      c->mark_names + n_marks, &str);
          n_marks += item_n_marks (it, q->curve);
        }
      if (!item_has_values (it))
        for (gsize k = 0; k < n_v * n_p; k++)
          values[i * n_v * n_p + k] = NAN;
    }
  ((gsize *) c->mark_start)[n_s] = n_marks;
  return c;

no_memory:
  {
    g_autofree char *points = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%zu value",
                                                            "%zu values", n_p), n_p);
    g_autofree char *stacks = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%zu stack",
                                                            "%zu stacks", n_s), n_s);
    /* TRANSLATORS: "%zu values" of "%zu stacks" */
    g_set_error (error, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_INVALID,
                 _("Not enough memory for %s of %s"), points, stacks);
    return NULL;
  }
}

/* The output of stack @i of @c: its arrays in the reply. */
static void
curves_output (const XrlabEngineCurves *c, gsize i, XrlabReflectOutput *out)
{
  double *block = (double *) c->values + i * c->n_values * c->n_points;

  memset (out, 0, sizeof *out);
  out->polarization = c->polarization;
  for (gsize v = 0; v < c->n_values; v++)
    {
      double *dst = block + v * c->n_points;
      switch (c->values_of[v])
        {
        case XRLAB_REFLECT_VALUE_R:   out->r = dst; break;
        case XRLAB_REFLECT_VALUE_R_S: out->r_s = dst; break;
        case XRLAB_REFLECT_VALUE_R_P: out->r_p = dst; break;
        case XRLAB_REFLECT_VALUE_T:   out->t = dst; break;
        case XRLAB_REFLECT_VALUE_T_S: out->t_s = dst; break;
        case XRLAB_REFLECT_VALUE_T_P: out->t_p = dst; break;
        case XRLAB_REFLECT_VALUE_N:   break;
        }
    }
}

/* Resolves the stacks of @p and gets each one's plan or transmission
 * (taken out of the caches when @take). NULL with @error when the request
 * itself fails; *n_items the stacks. */
static Item *
items_resolve (XrlabEngineWorker *worker, CurvesPayload *p, gboolean take, gsize *n_items,
               GError **error)
{
  XrlabEngineReflect *reflect = xrlab_engine_reflect_get (worker);
  XrlabStackKind kind = p->query.curve == XRLAB_REFLECT_CURVE_FILTER ? XRLAB_STACK_FILTER
                                                                     : XRLAB_STACK_REFLECT;
  g_autoptr(GPtrArray) stacks = xrlab_engine_reflect_resolve (reflect, p->ids, p->n_ids, kind, error);
  Item *items;

  if (stacks == NULL)
    return NULL;
  items = g_new0 (Item, MAX (stacks->len, 1));
  for (guint i = 0; i < stacks->len; i++)
    {
      Item *it = &items[i];

      it->s = g_ptr_array_index (stacks, i);
      if (it->s->stack == NULL)
        continue;   /* never valid: its parse error says why */
      if (kind == XRLAB_STACK_FILTER)
        it->transmission = xrlab_engine_stack_transmission (worker, it->s, p->grid, p->query.table,
                                                            p->query.photo_only, &it->error);
      else if (take)
        it->plan = xrlab_engine_stack_take_plan (worker, it->s, p->grid, p->query.table, &it->error);
      else
        it->plan = xrlab_engine_stack_plan (worker, it->s, p->grid, p->query.table, &it->error);
    }
  *n_items = stacks->len;
  return items;
}

/* Computes the values of stack @i (on the worker, or the lane for a map
 * job's plans). */
static gboolean
compute_item (const CurvesPayload *p, XrlabEngineCurves *c, gsize i, XrlabReflectPlan *plan,
              const double *transmission, GError **error)
{
  XrlabReflectOutput out;

  curves_output (c, i, &out);
  switch (p->query.curve)
    {
    case XRLAB_REFLECT_CURVE_ANGLES:
      return xrlab_reflect_plan_angles (plan, 0, p->angles, p->query.n_angles, &out, error);
    case XRLAB_REFLECT_CURVE_ENERGIES:
      return xrlab_reflect_plan_energies (plan, p->query.angle_rad, &out, error);
    case XRLAB_REFLECT_CURVE_MAP:
      return xrlab_reflect_plan_map (plan, p->angles, p->query.n_angles, &out, NULL, error);
    case XRLAB_REFLECT_CURVE_FILTER:
      memcpy (out.t, transmission, c->n_points * sizeof (double));
      return TRUE;
    }
  g_return_val_if_reached (FALSE);
}

static void
note_transfer (XrlabRequest *req, const XrlabEngineCurves *c, double compute_s, double transfer_s)
{
  XrlabEngineStats delta = { .n_requests = 1, .n_transfers = 1 };

  delta.bytes = xrlab_engine_curves_get_payload_bytes (c);
  delta.compute_s = compute_s;
  delta.transfer_s = transfer_s;
  xrlab_engine_shared_note_transfer (req->shared, req->consumer, &delta);
}

static void
serve_fetch (XrlabEngineWorker *worker, gpointer state, XrlabRequest *req)
{
  CurvesPayload *p = req->payload;
  double t0 = xrlab_now (), t1, t2;
  GError *error = NULL;
  XrlabEngineCurves *c;
  Item *items;
  gsize n = 0;

  items = items_resolve (worker, p, FALSE, &n, &error);
  if (items == NULL)
    {
      xrlab_request_return_error (req, error);
      return;
    }
  t1 = xrlab_now ();
  c = curves_alloc (p, items, n, &error);
  t2 = xrlab_now ();
  for (gsize i = 0; c != NULL && i < n; i++)
    if (item_has_values (&items[i])
        && !compute_item (p, c, i, items[i].plan, items[i].transmission, &error))
      g_clear_pointer (&c, xrlab_engine_curves_free);
  items_clear (items, n);
  g_free (items);
  if (c == NULL)
    {
      xrlab_request_return_error (req, error);
      return;
    }
  c->generation = xrlab_engine_shared_get_applied (req->shared, &xrlab_engine_reflect_service);
  note_transfer (req, c, (t1 - t0) + (xrlab_now () - t2), t2 - t1);
  xrlab_request_return_pointer (req, c, (GDestroyNotify) xrlab_engine_curves_free);
}

/* ---- exports ----------------------------------------------------------------- */

static void
serve_export (XrlabEngineWorker *worker, gpointer state, XrlabRequest *req)
{
  CurvesPayload *p = req->payload;
  double t0 = xrlab_now ();
  XrlabEngineStats delta = { .n_requests = 1 };
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);
  XrlabEngineCurves *c = NULL;
  GError *error = NULL;
  Item *items;
  gsize n = 0, bytes = 0;
  gboolean ok = FALSE;

  items = items_resolve (worker, p, FALSE, &n, &error);
  for (gsize i = 0; items != NULL && i < n && error == NULL; i++)
    if (!item_has_values (&items[i]))
      g_set_error (&error, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_INVALID,
                   _("The stack “%s” has nothing to export: %s"),
                   items[i].s->name != NULL && items[i].s->name[0] ? items[i].s->name : items[i].s->text,
                   item_message (&items[i]) ? item_message (&items[i]) : "");
  if (items != NULL && error == NULL && n == 0)
    g_set_error (&error, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_INVALID, _("There is no stack to export"));
  if (error == NULL)
    c = curves_alloc (p, items, n, &error);
  for (gsize i = 0; c != NULL && i < n; i++)
    {
      XrlabEngineStack *s = items[i].s;
      g_ptr_array_add (names, g_strdup (s->name != NULL && s->name[0] ? s->name : s->text));
      g_ptr_array_add (texts, g_strdup (s->canonical));
      if (!compute_item (p, c, i, items[i].plan, items[i].transmission, &error))
        g_clear_pointer (&c, xrlab_engine_curves_free);
    }
  if (c != NULL)
    ok = xrlab_engine_curves_write_csv (c, (const char *const *) names->pdata,
                                        (const char *const *) texts->pdata, p->path, &bytes, &error);
  if (items != NULL)
    items_clear (items, n);
  g_free (items);
  g_clear_pointer (&c, xrlab_engine_curves_free);
  delta.compute_s = xrlab_now () - t0;
  if (ok)
    {
      delta.n_exports = 1;
      delta.export_bytes = bytes;
    }
  xrlab_engine_shared_account (req->shared, req->consumer, &delta);
  if (ok)
    xrlab_request_return_boolean (req, TRUE);
  else
    xrlab_request_return_error (req, error);
}

/* ---- the map job --------------------------------------------------------------- */

/* From xrlab_reflect_plan_map_parallel(), on the lane. */
static void
post_map_progress (gsize done, gsize total, gpointer data)
{
  XrlabRequest *req = data;
  CurvesPayload *p = req->payload;
  XrlabEngineCount s = { p->rows_done + done, p->rows_total };

  xrlab_engine_progress_post (req->progress, &s);
}

static gboolean
map_prepare (XrlabEngineWorker *worker, gpointer state, XrlabRequest *req)
{
  CurvesPayload *p = req->payload;
  GError *error = NULL;
  Item *items;
  gsize n = 0;

  items = items_resolve (worker, p, TRUE, &n, &error);
  if (items == NULL)
    {
      xrlab_request_return_error (req, error);
      return FALSE;
    }
  p->curves = curves_alloc (p, items, n, &p->error);
  p->lent = g_array_new (FALSE, FALSE, sizeof (LentPlan));
  for (gsize i = 0; i < n; i++)
    if (items[i].plan != NULL)
      {
        LentPlan lp = { items[i].plan, items[i].s->id, i };
        g_array_append_val (p->lent, lp);
      }
  items_clear (items, n);
  g_free (items);
  p->rows_total = p->lent->len * xrlab_energy_grid_get_size (p->grid);
  if (p->curves != NULL)
    p->curves->generation = xrlab_engine_shared_get_applied (req->shared, &xrlab_engine_reflect_service);
  return TRUE;
}

/* On the lane: touches only the payload (and the plans lent to it). */
static void
map_run (XrlabRequest *req, GCancellable *cancellable)
{
  CurvesPayload *p = req->payload;
  double t0 = xrlab_now ();

  if (p->curves == NULL)
    return;
  for (guint k = 0; k < p->lent->len; k++)
    {
      const LentPlan *lp = &g_array_index (p->lent, LentPlan, k);
      XrlabReflectOutput out;

      curves_output (p->curves, lp->index, &out);
      if (!xrlab_reflect_plan_map_parallel (lp->plan, p->angles, p->query.n_angles, &out, 0,
                                            req->progress ? post_map_progress : NULL, req,
                                            cancellable, &p->error))
        {
          g_clear_pointer (&p->curves, xrlab_engine_curves_free);
          break;
        }
      p->rows_done += xrlab_energy_grid_get_size (p->grid);
    }
  p->compute_s = xrlab_now () - t0;
}

static void
map_finish (XrlabEngineWorker *worker, gpointer state, XrlabRequest *req)
{
  CurvesPayload *p = req->payload;
  XrlabEngineReflect *reflect = xrlab_engine_reflect_get (worker);

  for (guint k = 0; k < p->lent->len; k++)
    {
      const LentPlan *lp = &g_array_index (p->lent, LentPlan, k);
      xrlab_engine_stack_give_plan (reflect, lp->id, p->query.table, lp->plan);
    }
  g_clear_pointer (&p->lent, g_array_unref);
  if (p->curves == NULL)
    {
      XrlabEngineStats delta = { .n_requests = 1, .compute_s = p->compute_s };

      xrlab_engine_shared_account (req->shared, req->consumer, &delta);
      xrlab_request_return_error (req, g_steal_pointer (&p->error));
      return;
    }
  note_transfer (req, p->curves, p->compute_s, 0.0);
  xrlab_request_return_pointer (req, g_steal_pointer (&p->curves),
                                (GDestroyNotify) xrlab_engine_curves_free);
}

/* ---- the kinds --------------------------------------------------------------- */

static const XrlabRequestKind fetch_kind = {
  .name = "fetch-curves",
  .service = &xrlab_engine_reflect_service,
  .role = XRLAB_REQUEST_READ,
  .flags = XRLAB_REQUEST_NEWEST_PER_CONSUMER | XRLAB_REQUEST_STALE_AFTER_EDIT,
  .payload_free = curves_payload_free,
  .serve = serve_fetch,
};

static const XrlabRequestKind export_kind = {
  .name = "export-curves",
  .service = &xrlab_engine_reflect_service,
  .role = XRLAB_REQUEST_READ,
  .payload_free = curves_payload_free,
  .serve = serve_export,
};

static const XrlabRequestKind map_kind = {
  .name = "map",
  .service = &xrlab_engine_reflect_service,
  .role = XRLAB_REQUEST_JOB,
  .payload_free = curves_payload_free,
  .prepare = map_prepare,
  .run = map_run,
  .finish = map_finish,
};

/* ---- the public API ------------------------------------------------------------- */

/* The checks of a query that need no stack, and its one-energy grid. */
static gboolean
check_query (const XrlabReflectQuery *q, XrlabEnergyGrid **grid, GError **error)
{
  char buf[XRLAB_DTOA_BUFSIZE];
  gboolean angles = q->curve == XRLAB_REFLECT_CURVE_ANGLES || q->curve == XRLAB_REFLECT_CURVE_MAP;

  if (q->curve > XRLAB_REFLECT_CURVE_FILTER)
    {
      g_set_error (error, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_INVALID, "no such curve %d", q->curve);
      return FALSE;
    }
  if (!xrlab_engine_reflect_check_table (q->table, q->curve == XRLAB_REFLECT_CURVE_ANGLES ? NULL : q->grid,
                                         error))
    return FALSE;
  if (q->curve != XRLAB_REFLECT_CURVE_FILTER
      && (q->values == 0 || (q->values & ~((1u << XRLAB_REFLECT_VALUE_N) - 1)) != 0))
    {
      g_set_error (error, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_INVALID,
                   _("No reflectivity or transmission was asked for"));
      return FALSE;
    }
  if (!(q->polarization >= -1.0 && q->polarization <= 1.0))
    {
      g_set_error (error, XRLAB_REFLECT_ERROR, XRLAB_REFLECT_ERROR_POLARIZATION,
                   _("The polarization degree %s must be from −1 (p) to 1 (s)"),
                   xrlab_format_double (q->polarization, buf));
      return FALSE;
    }
  if (angles)
    {
      if (q->n_angles == 0 || q->angles_rad == NULL)
        {
          g_set_error (error, XRLAB_REFLECT_ERROR, XRLAB_REFLECT_ERROR_ANGLE,
                       _("No grazing angle was given"));
          return FALSE;
        }
      for (gsize i = 0; i < q->n_angles; i++)
        if (!xrlab_reflect_check_angle (q->angles_rad[i], i, q->n_angles, error))
          return FALSE;
    }
  if (q->curve == XRLAB_REFLECT_CURVE_ENERGIES && !xrlab_reflect_check_angle (q->angle_rad, 0, 1, error))
    return FALSE;
  if (q->curve == XRLAB_REFLECT_CURVE_ANGLES)
    {
      *grid = xrlab_energy_grid_new_for_table (&q->energy_kev, 1, XRLAB_ENERGY_UNIT_KEV,
                                               (XrlabTableChoice) q->table, error);
      return *grid != NULL;
    }
  if (q->grid == NULL)
    {
      g_set_error (error, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_NO_GRID,
                   _("No energy range has been set"));
      return FALSE;
    }
  if (q->curve == XRLAB_REFLECT_CURVE_MAP
      && q->n_angles > MAX_MAP_POINTS / xrlab_energy_grid_get_size (q->grid))
    {
      g_set_error (error, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_INVALID,
                   _("A map of %zu energies × %zu angles is larger than %zu points"),
                   xrlab_energy_grid_get_size (q->grid), q->n_angles, MAX_MAP_POINTS);
      return FALSE;
    }
  *grid = xrlab_energy_grid_ref (q->grid);
  return TRUE;
}

/* A request of @kind for @query, or NULL after failing it. */
static XrlabRequest *
curves_request_new (XrlabEngine             *self,
                    const XrlabRequestKind  *kind,
                    gpointer                 source_tag,
                    const char              *consumer,
                    const XrlabReflectQuery *query,
                    const guint             *ids,
                    gsize                    n_ids,
                    GCancellable            *cancellable,
                    GAsyncReadyCallback      callback,
                    gpointer                 user_data)
{
  CurvesPayload *p = g_new0 (CurvesPayload, 1);
  XrlabRequest *req = xrlab_request_new (self, kind, p, source_tag, cancellable, callback, user_data);
  GError *error = NULL;

  xrlab_request_set_consumer (req, consumer != NULL ? consumer : "default");
  if (!check_query (query, &p->grid, &error))
    {
      xrlab_request_fail (req, error);
      return NULL;
    }
  p->query = *query;
  p->query.grid = NULL;
  p->query.angles_rad = NULL;
  if (query->curve == XRLAB_REFLECT_CURVE_ANGLES || query->curve == XRLAB_REFLECT_CURVE_MAP)
    p->angles = g_memdup2 (query->angles_rad, query->n_angles * sizeof (double));
  else
    p->query.n_angles = 0;
  if (ids != NULL)
    {
      p->ids = g_memdup2 (ids, MAX (n_ids, 1) * sizeof (guint));
      p->n_ids = n_ids;
    }
  return req;
}

static gboolean
is_big_map (const XrlabReflectQuery *query)
{
  return query->curve == XRLAB_REFLECT_CURVE_MAP && query->grid != NULL
         && query->n_angles > XRLAB_ENGINE_REFLECT_INLINE_POINTS / xrlab_energy_grid_get_size (query->grid);
}

void
xrlab_engine_reflect_fetch_async (XrlabEngine             *self,
                                  const char              *consumer,
                                  const XrlabReflectQuery *query,
                                  const guint             *ids,
                                  gsize                    n_ids,
                                  GCancellable            *cancellable,
                                  GAsyncReadyCallback      callback,
                                  gpointer                 user_data)
{
  XrlabRequest *req;

  g_return_if_fail (XRLAB_IS_ENGINE (self));
  g_return_if_fail (query != NULL);
  req = curves_request_new (self, is_big_map (query) ? &map_kind : &fetch_kind,
                            xrlab_engine_reflect_fetch_async, consumer, query, ids, n_ids,
                            cancellable, callback, user_data);
  if (req != NULL)
    xrlab_request_submit (req);
}

/* Drops a reply whose stacks a newer edit has replaced since it was made. */
static XrlabEngineCurves *
curves_propagate (GAsyncResult *result, GError **error)
{
  XrlabEngineCurves *curves = g_task_propagate_pointer (G_TASK (result), error);

  if (curves != NULL && xrlab_request_result_superseded (result, curves->generation, error))
    g_clear_pointer (&curves, xrlab_engine_curves_free);
  return curves;
}

XrlabEngineCurves *
xrlab_engine_reflect_fetch_finish (XrlabEngine   *self,
                                   GAsyncResult  *result,
                                   GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return curves_propagate (result, error);
}

void
xrlab_engine_reflect_map_async (XrlabEngine             *self,
                                const char              *consumer,
                                const XrlabReflectQuery *query,
                                const guint             *ids,
                                gsize                    n_ids,
                                XrlabEngineProgressFunc  progress,
                                gpointer                 progress_data,
                                GCancellable            *cancellable,
                                GAsyncReadyCallback      callback,
                                gpointer                 user_data)
{
  XrlabRequest *req;

  g_return_if_fail (XRLAB_IS_ENGINE (self));
  g_return_if_fail (query != NULL);
  if (query->curve != XRLAB_REFLECT_CURVE_MAP)
    {
      GTask *task = g_task_new (self, cancellable, callback, user_data);
      g_task_set_source_tag (task, xrlab_engine_reflect_map_async);
      g_task_return_new_error (task, XRLAB_ENGINE_ERROR, XRLAB_ENGINE_ERROR_INVALID,
                               "a map job needs XRLAB_REFLECT_CURVE_MAP");
      g_object_unref (task);
      return;
    }
  req = curves_request_new (self, &map_kind, xrlab_engine_reflect_map_async, consumer, query,
                            ids, n_ids, cancellable, callback, user_data);
  if (req == NULL)
    return;
  xrlab_request_attach_progress (req, sizeof (XrlabEngineCount), MAP_PROGRESS_INTERVAL_S,
                                 xrlab_engine_progress_count, G_CALLBACK (progress),
                                 progress_data, NULL);
  xrlab_request_submit (req);
}

XrlabEngineCurves *
xrlab_engine_reflect_map_finish (XrlabEngine   *self,
                                 GAsyncResult  *result,
                                 GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return curves_propagate (result, error);
}

void
xrlab_engine_reflect_export_csv_async (XrlabEngine             *self,
                                       const char              *path,
                                       const XrlabReflectQuery *query,
                                       const guint             *ids,
                                       gsize                    n_ids,
                                       GCancellable            *cancellable,
                                       GAsyncReadyCallback      callback,
                                       gpointer                 user_data)
{
  XrlabRequest *req;

  g_return_if_fail (XRLAB_IS_ENGINE (self));
  g_return_if_fail (path != NULL && query != NULL);
  req = curves_request_new (self, &export_kind, xrlab_engine_reflect_export_csv_async, "export",
                            query, ids, n_ids, cancellable, callback, user_data);
  if (req == NULL)
    return;
  ((CurvesPayload *) req->payload)->path = g_strdup (path);
  xrlab_request_submit (req);
}

gboolean
xrlab_engine_reflect_export_csv_finish (XrlabEngine   *self,
                                        GAsyncResult  *result,
                                        GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

const double *
xrlab_engine_curves_get (const XrlabEngineCurves *curves,
                         gsize                    stack_index,
                         XrlabReflectValue        value)
{
  g_return_val_if_fail (curves != NULL, NULL);
  g_return_val_if_fail (stack_index < curves->n_stacks, NULL);

  for (gsize v = 0; v < curves->n_values; v++)
    if (curves->values_of[v] == value)
      return curves->values + (stack_index * curves->n_values + v) * curves->n_points;
  return NULL;
}

gsize
xrlab_engine_curves_get_payload_bytes (const XrlabEngineCurves *curves)
{
  g_return_val_if_fail (curves != NULL, 0);
  return (curves->n_energies + curves->n_angles + curves->n_stacks * curves->n_values * curves->n_points
          + curves->mark_start[curves->n_stacks]) * sizeof (double);
}

void
xrlab_engine_curves_free (XrlabEngineCurves *curves)
{
  g_free (curves);
}
