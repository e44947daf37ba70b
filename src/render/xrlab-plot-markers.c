/* xrlab-plot-markers.c -- the labels of the vertical markers (absorption
 * edges): rows above the plot area, no two overlapping, chosen by priority
 * when there is no room for all
 *
 * Every marker inside the x range gets its line. Its label is centred on
 * the line (moved inward at the ends of the axis) in the lowest of up to
 * three rows (fewer on a small page) where it keeps a gap from the labels already there. Labels are
 * placed in this order: first the most important marker of each group (an
 * element), by priority (K before L3 before L2 ... before M5 ...), then all
 * the others by priority; a label that finds no room is left out. So a
 * crowded axis loses the minor edges first, and every element keeps one
 * label while there is room for one per element. An element left without
 * any is named in a note on the plot ("Not labelled (no room): Fe L3").
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-plot-render-private.h"

#define MAX_ROWS 3

static inline gboolean
v_label_nonempty (const XrlabPlotVisibleMarker *v)
{
  return v->label != NULL && v->label[0] != '\0';
}

static int
compare_by_x (gconstpointer a, gconstpointer b)
{
  const XrlabPlotVisibleMarker *ma = a, *mb = b;
  return (ma->x > mb->x) - (ma->x < mb->x);
}

typedef struct {
  XrlabPlotVisibleMarker *m;
  gboolean first;                /* the group's most important marker */
} Candidate;

static int
compare_candidates (gconstpointer a, gconstpointer b)
{
  const Candidate *ca = a, *cb = b;

  if (ca->first != cb->first)
    return ca->first ? -1 : 1;
  if (ca->m->priority != cb->m->priority)
    return ca->m->priority < cb->m->priority ? -1 : 1;
  return (ca->m->x > cb->m->x) - (ca->m->x < cb->m->x);
}

/* Whether [x0, x1] keeps @gap from every label placed in @row. */
static gboolean
row_free (const GArray *markers, int row, double x0, double x1, double gap)
{
  for (guint i = 0; i < markers->len; i++)
    {
      const XrlabPlotVisibleMarker *v = &g_array_index (markers, XrlabPlotVisibleMarker, i);
      if (v->row == row && x0 < v->lx1 + gap && x1 > v->lx0 - gap)
        return FALSE;
    }
  return TRUE;
}

static void
place (XrlabPlotLayout *l, XrlabPlotVisibleMarker *v, double gap, int max_rows)
{
  double px = l->left + (v->x - l->x0) / (l->x1 - l->x0) * l->plot_w;
  double x0 = px - v->w / 2, x1 = px + v->w / 2;

  /* Inside the page, and clear of the y axis' labels on the left (the top
   * one reaches into the first row). */
  if (x0 < l->left - 4)
    x0 = l->left - 4, x1 = x0 + v->w;
  if (x1 > l->width - 2)
    x1 = l->width - 2, x0 = x1 - v->w;
  for (int r = 0; r < max_rows; r++)
    if (row_free (l->markers, r, x0, x1, gap))
      {
        v->row = r;
        v->lx0 = x0;
        v->lx1 = x1;
        l->n_rows = MAX (l->n_rows, (guint) r + 1);
        return;
      }
}

void
xrlab_plot_layout_markers (XrlabPlotLayout      *l,
                           const XrlabPlotScene *scene,
                           XrlabPlotText        *text)
{
  g_autoptr(GArray) cand = NULL;
  g_autoptr(GHashTable) firsts = NULL;   /* group -> its first candidate's index */
  double gap = l->fs_marker * 0.6;
  /* Rows take at most a sixth of the page's height. */
  int max_rows = CLAMP ((int) floor (l->height / 6.0 / (l->h_marker + 2)), 1, MAX_ROWS);

  g_array_set_size (l->markers, 0);
  if (!scene->show_markers)
    return;
  for (guint i = 0; i < scene->n_markers; i++)
    {
      const XrlabPlotMarker *m = &scene->markers[i];
      XrlabPlotVisibleMarker v = { 0 };
      if (!xrlab_plot_usable (m->x, scene->x.log))
        continue;
      v.x = scene->x.log ? log10 (m->x) : m->x;
      if (v.x < l->x0 || v.x > l->x1)
        continue;
      v.label = m->label != NULL ? m->label : "";
      v.group = m->group;
      v.priority = m->priority;
      v.row = -1;
      g_array_append_val (l->markers, v);
    }
  if (l->markers->len == 0)
    return;
  g_array_sort (l->markers, compare_by_x);

  /* Measure, and find each group's most important marker. */
  cand = g_array_sized_new (FALSE, FALSE, sizeof (Candidate), l->markers->len);
  firsts = g_hash_table_new (NULL, NULL);
  for (guint i = 0; i < l->markers->len; i++)
    {
      XrlabPlotVisibleMarker *v = &g_array_index (l->markers, XrlabPlotVisibleMarker, i);
      g_autofree char *esc = xrlab_plot_text_escape (v->label);
      Candidate c = { v, TRUE };
      gpointer key = GINT_TO_POINTER (v->group);
      gpointer found;
      double h;

      xrlab_plot_text_size (text, esc, l->fs_marker, FALSE, &v->w, &h);
      if (v->group != 0 && g_hash_table_lookup_extended (firsts, key, NULL, &found))
        {
          Candidate *other = &g_array_index (cand, Candidate, GPOINTER_TO_UINT (found));
          if (v->priority < other->m->priority)
            {
              other->first = FALSE;
              g_hash_table_insert (firsts, key, GUINT_TO_POINTER (cand->len));
            }
          else
            c.first = FALSE;
        }
      else if (v->group != 0)
        g_hash_table_insert (firsts, key, GUINT_TO_POINTER (cand->len));
      g_array_append_val (cand, c);
    }
  g_array_sort (cand, compare_candidates);
  for (guint i = 0; i < cand->len; i++)
    if (v_label_nonempty (g_array_index (cand, Candidate, i).m))
      place (l, g_array_index (cand, Candidate, i).m, gap, max_rows);

  /* Groups without any label. */
  for (guint i = 0; i < cand->len; i++)
    {
      const Candidate *c = &g_array_index (cand, Candidate, i);
      gboolean labelled = FALSE;
      if (!c->first || !v_label_nonempty (c->m))
        continue;
      for (guint k = 0; k < l->markers->len && !labelled; k++)
        {
          const XrlabPlotVisibleMarker *o = &g_array_index (l->markers, XrlabPlotVisibleMarker, k);
          labelled = o->row >= 0 && (o == c->m || (c->m->group != 0 && o->group == c->m->group));
        }
      if (labelled)
        continue;
      if (l->n_unlabelled_groups++ > 0)
        g_string_append (l->unlabelled, ", ");
      /* No break inside a label when the note is wrapped. */
      for (const char *p = c->m->label; *p != '\0'; p++)
        if (*p == ' ')
          g_string_append (l->unlabelled, "\u00a0");
        else
          g_string_append_c (l->unlabelled, *p);
    }
  if (l->n_rows > 0)
    l->top = MAX (l->top, 6 + l->n_rows * (l->h_marker + 2) + 4);
}
