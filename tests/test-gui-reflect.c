/* test-gui-reflect.c -- the Reflectivity page of the window, driven like a
 * user would: the example's curves drawn, nothing fetched while hidden, an
 * invalid stack's message and its last curve, the map drawn, filters, the
 * stack editor's rows, sessions and export
 *
 * The numbers come from the window's engine thread; transfers are counted
 * by the engine's own accounting; "drawn" is checked on the pixels of a
 * frame rendered the way the widgets render it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "gui-test-util.h"
#include "xrlab-application.h"
#include "xrlab-engine-reflect.h"
#include "xrlab-window.h"

#define W 800
#define H 560

static XrlabApplication *app;
static XrlabWindow *win;
static char *tmpdir;

/* ---- helpers ---------------------------------------------------------------------- */

static XrlabReflectPage *
page (void)
{
  return xrlab_window_get_reflect_page (win);
}

static gboolean
page_idle (gpointer data)
{
  return !xrlab_reflect_page_is_busy (page ());
}

/* Until the page's requests are answered (twice: an error reply brings
 * its column, which asks again). */
static void
settle (void)
{
  for (int k = 0; k < 3; k++)
    {
      xrlab_test_wait_for (page_idle, NULL, 30, "the Reflectivity page to compute");
      xrlab_test_spin (0.05);
    }
}

static void
show_page (const char *name)
{
  adw_view_stack_set_visible_child_name (xrlab_window_get_view_stack (win), name);
  settle ();
}

static XrlabPlotData *
plot_data (void)
{
  return xrlab_plot_get_data (xrlab_reflect_page_get_plot (page ()));
}

static const XrlabPlotSeries *
series_named (const char *label)
{
  XrlabPlotData *data = plot_data ();

  g_assert_nonnull (data);
  for (guint i = 0; i < xrlab_plot_data_get_n_series (data); i++)
    if (g_strcmp0 (xrlab_plot_data_get_series (data, i)->label, label) == 0)
      return xrlab_plot_data_get_series (data, i);
  return NULL;
}

static XrlabStackItem *
stack_named (const char *name)
{
  GListModel *stacks = G_LIST_MODEL (xrlab_reflect_page_get_stacks (page ()));

  for (guint i = 0; i < g_list_model_get_n_items (stacks); i++)
    {
      g_autoptr(XrlabStackItem) item = g_list_model_get_item (stacks, i);
      if (g_strcmp0 (xrlab_stack_item_get_name (item), name) == 0)
        return item;   /* the store keeps it */
    }
  return NULL;
}

static guint64
transfers (const char *consumer)
{
  XrlabEngineStats st = { 0 };

  xrlab_engine_get_stats (xrlab_window_get_engine (win), consumer, &st);
  return st.n_transfers;
}

static cairo_surface_t *
render_plot (void)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W, H);
  cairo_t *cr = cairo_create (s);
  g_autoptr(GError) error = NULL;

  g_assert_true (xrlab_plot_render (xrlab_reflect_page_get_plot (page ()), cr, W, H, FALSE, &error));
  g_assert_no_error (error);
  cairo_destroy (cr);
  return s;
}

static void
set_view (XrlabReflectView view, const char *energies, const char *angles)
{
  XrlabReflectSettings s;

  xrlab_reflect_page_get_settings (page (), &s);
  s.view = view;
  if (energies != NULL)
    {
      g_free (s.energies);
      s.energies = g_strdup (energies);
    }
  if (angles != NULL)
    {
      g_free (s.angles);
      s.angles = g_strdup (angles);
    }
  xrlab_reflect_page_set_settings (page (), &s);
  xrlab_reflect_settings_clear (&s);
  settle ();
}

static void
reset (void)
{
  gtk_widget_activate_action (GTK_WIDGET (win), "win.reset-session", NULL);
  show_page ("reflect");
  set_view (XRLAB_REFLECT_VIEW_ANGLES, NULL, "0:10:400");
}

/* ---- tests ------------------------------------------------------------------------- */

/* The example: three mirrors on one plot in one transfer, their curves on
 * the pixels, the critical angles marked; nothing fetched while hidden. */
static void
test_first_start (void)
{
  const XrlabPlotSeries *rh, *pt, *ml;
  cairo_surface_t *s;
  guint64 before;

  g_assert_cmpuint (transfers ("reflect-plot"), ==, 0);   /* hidden so far */
  show_page ("reflect");
  g_assert_cmpuint (transfers ("reflect-plot"), ==, 1);
  rh = series_named ("Rh");
  pt = series_named ("Pt");
  ml = series_named ("W/B4C × 50");
  g_assert_nonnull (rh);
  g_assert_nonnull (pt);
  g_assert_nonnull (ml);
  g_assert_null (series_named ("Al + Kapton + air"));
  g_assert_cmpuint (rh->n, ==, 500);
  g_assert_cmpfloat (rh->x[0], ==, 0.0);
  g_assert_cmpfloat (rh->x[rh->n - 1], ==, 10.0);
  g_assert_cmpfloat (rh->y[0], ==, 1.0);
  /* Total reflection below Rh's critical angle at 10 keV, not above. */
  g_assert_cmpfloat (rh->y[100], >, 0.8);
  g_assert_cmpfloat (rh->y[499], <, 0.05);
  g_assert_cmpuint (xrlab_plot_get_n_markers (xrlab_reflect_page_get_plot (page ())), >=, 3);

  s = render_plot ();
  g_assert_cmpuint (xrlab_test_count_color (s, 0x1c71d8, 40, 0, W), >, W / 3);   /* Rh */
  g_assert_cmpuint (xrlab_test_count_color (s, 0xe66100, 40, 0, W), >, W / 3);   /* Pt */
  g_assert_cmpuint (xrlab_test_count_color (s, 0x26a269, 40, 0, W), >, W / 3);   /* W/B4C */
  cairo_surface_destroy (s);

  /* Hidden: an edit fetches nothing; shown again: one fetch. */
  show_page ("plot");
  before = transfers ("reflect-plot");
  xrlab_stack_item_set_text (stack_named ("Rh"), "Rh:12.0~0.3nm");
  settle ();
  g_assert_cmpuint (transfers ("reflect-plot"), ==, before);
  show_page ("reflect");
  g_assert_cmpuint (transfers ("reflect-plot"), ==, before + 1);
  xrlab_stack_item_set_text (stack_named ("Rh"), "Rh:12.41~0.3nm");
  settle ();
}

/* An invalid stack: its message (layer and column) in the editor and on
 * the item, its last valid curve kept, dashed; valid again, a current one. */
static void
test_invalid_stack (void)
{
  XrlabStackItem *rh = stack_named ("Rh");
  XrlabStackEditor *editor = xrlab_reflect_page_get_editor (page ());
  g_autofree double *before = NULL;
  const XrlabPlotSeries *s;
  GtkLabel *label;

  reset ();
  rh = stack_named ("Rh");
  xrlab_reflect_page_select (page (), rh);
  g_assert_true (xrlab_stack_editor_get_item (editor) == rh);
  s = series_named ("Rh");
  before = g_memdup2 (s->y, s->n * sizeof (double));
  g_assert_false (s->stale);

  gtk_editable_set_text (xrlab_stack_editor_get_text_entry (editor), "Rh:12.41~0.3");
  settle ();
  g_assert_nonnull (xrlab_stack_item_get_error (rh));
  g_assert_nonnull (strstr (xrlab_stack_item_get_error (rh), "column 10"));
  g_assert_nonnull (strstr (xrlab_stack_item_get_error (rh), "Layer 1"));
  g_assert_cmpint (xrlab_stack_item_get_error_column (rh), ==, 10);
  label = xrlab_stack_editor_get_error_label (editor);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (label)));
  g_assert_cmpstr (gtk_label_get_text (label), ==, xrlab_stack_item_get_error (rh));
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (xrlab_stack_editor_get_text_entry (editor)), "error"));

  s = series_named ("Rh");
  g_assert_nonnull (s);
  g_assert_true (s->stale);
  for (gsize i = 0; i < s->n; i++)
    g_assert_cmpfloat (s->y[i], ==, before[i]);
  {
    /* Still on the pixels, faded. */
    cairo_surface_t *img = render_plot ();
    g_assert_cmpuint (xrlab_test_count_pixels (img, 0xffffffff, 30, 0, W), >, 1000);
    cairo_surface_destroy (img);
  }

  gtk_editable_set_text (xrlab_stack_editor_get_text_entry (editor), "Rh:12.41~0.3nm");
  settle ();
  g_assert_null (xrlab_stack_item_get_error (rh));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (label)));
  s = series_named ("Rh");
  g_assert_false (s->stale);
  for (gsize i = 0; i < s->n; i++)
    g_assert_cmpfloat (s->y[i], ==, before[i]);
}

/* The map of the selected multilayer: an image of many colours with a
 * colour bar; the readout at a point. */
static void
test_map (void)
{
  XrlabMapView *map = xrlab_reflect_page_get_map_view (page ());
  cairo_surface_t *s;
  g_autoptr(GHashTable) colours = g_hash_table_new (NULL, NULL);
  g_autofree char *readout = NULL;
  const guchar *data;

  reset ();
  xrlab_reflect_page_select (page (), stack_named ("W/B4C × 50"));
  set_view (XRLAB_REFLECT_VIEW_MAP, "6:12:60", "0:40:200");
  g_assert_true (xrlab_map_view_has_map (map));
  g_assert_true (xrlab_reflect_page_get_shown_view (page ()) == GTK_WIDGET (map));

  s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W, H);
  {
    cairo_t *cr = cairo_create (s);
    g_assert_true (xrlab_map_view_render (map, cr, W, H, FALSE));
    cairo_destroy (cr);
  }
  cairo_surface_flush (s);
  data = cairo_image_surface_get_data (s);
  for (int y = 0; y < H; y += 3)
    for (int x = 0; x < W; x += 3)
      g_hash_table_add (colours, GUINT_TO_POINTER (((const guint32 *) (const void *) (data + (gsize) y * cairo_image_surface_get_stride (s)))[x] & 0xffffff));
  g_assert_cmpuint (g_hash_table_size (colours), >, 100);
  /* viridis' bright end (total reflection) and its dark end (the colour bar). */
  g_assert_cmpuint (xrlab_test_count_color (s, 0xfde725, 12, 0, W), >, 500);
  g_assert_cmpuint (xrlab_test_count_color (s, 0x440154, 12, 0, W), >, 10);
  cairo_surface_destroy (s);

  xrlab_map_view_set_crosshair (map, 20.0, 9.0);
  readout = xrlab_map_view_get_readout (map);
  g_assert_nonnull (strstr (readout, "R = "));

  /* A filter selected has no map: the message says so. */
  xrlab_reflect_page_select (page (), stack_named ("Al + Kapton + air"));
  settle ();
  g_assert_false (xrlab_map_view_has_map (map));
  set_view (XRLAB_REFLECT_VIEW_ANGLES, NULL, NULL);
}

/* Filters: their transmission vs energy, below one and rising. */
static void
test_filters (void)
{
  const XrlabPlotSeries *f;

  reset ();
  set_view (XRLAB_REFLECT_VIEW_FILTERS, "5:30:100", NULL);
  g_assert_null (series_named ("Rh"));
  f = series_named ("Al + Kapton + air");
  g_assert_nonnull (f);
  g_assert_cmpuint (f->n, ==, 100);
  g_assert_cmpfloat (f->y[0], <, f->y[99]);
  g_assert_cmpfloat (f->y[99], <, 1.0);
  g_assert_cmpfloat (f->y[99], >, 0.5);
  /* A bad energy spec: the message, the last curve kept. */
  set_view (XRLAB_REFLECT_VIEW_FILTERS, "5:30", NULL);
  g_assert_nonnull (xrlab_reflect_page_get_message (page ()));
  g_assert_nonnull (series_named ("Al + Kapton + air"));
  set_view (XRLAB_REFLECT_VIEW_ANGLES, "5:30:500", NULL);
  g_assert_null (xrlab_reflect_page_get_message (page ()));
}

/* The table choice: auto takes Chantler for energies beyond Henke's, the
 * plot and the map name the table, Henke refuses them with its range, the
 * session keeps the choice. */
static void
set_table (XrlabTableChoice table)
{
  XrlabReflectSettings s;

  xrlab_reflect_page_get_settings (page (), &s);
  s.table = table;
  xrlab_reflect_page_set_settings (page (), &s);
  xrlab_reflect_settings_clear (&s);
  settle ();
}

static void
test_tables (void)
{
  XrlabPlot *plot = xrlab_reflect_page_get_plot (page ());
  const XrlabPlotSeries *f, *r;
  double t_hard;
  g_autoptr(XrlabSession) s = NULL;
  g_autoptr(XrlabSession) back = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL;

  reset ();
  g_assert_cmpstr (xrlab_plot_get_note (plot), ==, "Henke tables");
  set_view (XRLAB_REFLECT_VIEW_FILTERS, "30:150:25", NULL);
  g_assert_null (xrlab_reflect_page_get_message (page ()));
  g_assert_cmpstr (xrlab_plot_get_note (plot), ==, "Chantler tables");
  f = series_named ("Al + Kapton + air");
  g_assert_nonnull (f);
  g_assert_cmpuint (f->n, ==, 25);
  t_hard = f->y[24];
  g_assert_cmpfloat (t_hard, <, 1.0);
  g_assert_cmpfloat (t_hard, >, 0.5);
  set_view (XRLAB_REFLECT_VIEW_ENERGIES, "30:150:25", NULL);
  r = series_named ("Rh");
  g_assert_nonnull (r);
  g_assert_cmpuint (r->n, ==, 25);

  /* Henke's tables stop at 30 keV: the message says so. */
  set_table (XRLAB_TABLE_CHOICE_HENKE);
  g_assert_nonnull (xrlab_reflect_page_get_message (page ()));
  g_assert_nonnull (strstr (xrlab_reflect_page_get_message (page ()), "Henke"));
  /* Chantler's at 10 keV too. */
  set_table (XRLAB_TABLE_CHOICE_CHANTLER);
  set_view (XRLAB_REFLECT_VIEW_ANGLES, "5:30:500", NULL);
  g_assert_null (xrlab_reflect_page_get_message (page ()));
  g_assert_cmpstr (xrlab_plot_get_note (plot), ==, "Chantler tables");

  s = xrlab_window_get_session (win);
  g_assert_cmpint (s->reflect->table, ==, XRLAB_TABLE_CHOICE_CHANTLER);
  json = xrlab_session_to_json (s, NULL);
  g_assert_nonnull (strstr (json, "\"table\": \"chantler\""));
  back = xrlab_session_from_json (json, -1, &error);
  g_assert_no_error (error);
  g_assert_true (xrlab_session_equal (s, back));
  g_assert_cmpint (back->reflect->table, ==, XRLAB_TABLE_CHOICE_CHANTLER);
  set_table (XRLAB_TABLE_CHOICE_AUTO);
  xrlab_window_apply_session (win, back);
  settle ();
  {
    XrlabReflectSettings rs;

    xrlab_reflect_page_get_settings (page (), &rs);
    g_assert_cmpint (rs.table, ==, XRLAB_TABLE_CHOICE_CHANTLER);
    xrlab_reflect_settings_clear (&rs);
  }
  set_table (XRLAB_TABLE_CHOICE_AUTO);
}

/* The editor's rows follow the text; editing and moving rows writes it. */
static void
test_editor (void)
{
  XrlabStackEditor *editor = xrlab_reflect_page_get_editor (page ());
  XrlabStackItem *ml;
  g_autofree char *norm = NULL;

  reset ();
  ml = stack_named ("W/B4C × 50");
  xrlab_reflect_page_select (page (), ml);
  g_assert_cmpuint (xrlab_stack_editor_get_n_rows (editor), ==, 3);   /* cap, group, substrate */
  g_assert_true (xrlab_stack_editor_move (editor, "t:0", "t:1"));
  g_assert_cmpstr (xrlab_stack_item_get_text (ml), ==,
                   "{W:19.3:1nm~0.3nm/B4C:2.52:1.5nm~0.3nm}x50/B4C:2.52:3nm/Si:2.33~0.3nm");
  g_assert_true (xrlab_stack_editor_move (editor, "g:0:1", "g:0:0"));
  g_assert_cmpstr (xrlab_stack_item_get_text (ml), ==,
                   "{B4C:2.52:1.5nm~0.3nm/W:19.3:1nm~0.3nm}x50/B4C:2.52:3nm/Si:2.33~0.3nm");
  /* A layer into the group, and out again; a group into a group: no. */
  g_assert_true (xrlab_stack_editor_move (editor, "t:1", "g:0:0"));
  g_assert_cmpstr (xrlab_stack_item_get_text (ml), ==,
                   "{B4C:2.52:3nm/B4C:2.52:1.5nm~0.3nm/W:19.3:1nm~0.3nm}x50/Si:2.33~0.3nm");
  g_assert_true (xrlab_stack_editor_move (editor, "g:0:0", "t:0"));
  g_assert_cmpstr (xrlab_stack_item_get_text (ml), ==,
                   "B4C:2.52:3nm/{B4C:2.52:1.5nm~0.3nm/W:19.3:1nm~0.3nm}x50/Si:2.33~0.3nm");
  g_assert_false (xrlab_stack_editor_move (editor, "t:1", "g:1:0"));
  g_assert_false (xrlab_stack_editor_move (editor, "t:9", "t:0"));
  settle ();
  g_assert_null (xrlab_stack_item_get_error (ml));

  /* Typing the text rebuilds the rows. */
  gtk_editable_set_text (xrlab_stack_editor_get_text_entry (editor), "He@1atm/Rh:12.41:50nm~0.4nm/Si~0.3nm");
  g_assert_cmpuint (xrlab_stack_editor_get_n_rows (editor), ==, 3);
  settle ();
  g_assert_null (xrlab_stack_item_get_error (ml));

  /* Splitting keeps a mixture's "//", groups and gases whole. */
  norm = xrlab_stack_editor_normalize (" 70wt% SiO2 // B2O3 : 2.2 : 1nm / { W:1nm ~ 0.3nm / Si:2nm } x 3 / Si ");
  g_assert_cmpstr (norm, ==, "70wt% SiO2 // B2O3:2.2:1nm/{W:1nm~0.3nm/Si:2nm}x3/Si");
  g_free (norm);
  norm = xrlab_stack_editor_normalize ("Al:100um/air@1atm,295K:1m");
  g_assert_cmpstr (norm, ==, "Al:100um/air@1atm,295K:1m");
}

/* Sessions keep the stacks and the controls; one from before the page
 * gets the example. */
static void
test_session (void)
{
  g_autoptr(XrlabSession) s = NULL;
  g_autoptr(XrlabSession) back = NULL;
  g_autoptr(XrlabSession) old = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL;
  GListModel *stacks = G_LIST_MODEL (xrlab_reflect_page_get_stacks (page ()));
  XrlabReflectSettings rs;

  reset ();
  xrlab_stack_item_set_text (stack_named ("Pt"), "Pt:21.45~0.3");   /* invalid: kept as typed */
  set_view (XRLAB_REFLECT_VIEW_ENERGIES, "5:25:50", NULL);
  s = xrlab_window_get_session (win);
  g_assert_nonnull (s->stacks);
  g_assert_cmpuint (s->stacks->len, ==, 4);
  g_assert_cmpstr (((XrlabSessionStack *) g_ptr_array_index (s->stacks, 1))->text, ==, "Pt:21.45~0.3");
  g_assert_true (((XrlabSessionStack *) g_ptr_array_index (s->stacks, 3))->filter);
  g_assert_nonnull (s->reflect);
  g_assert_cmpint (s->reflect->view, ==, XRLAB_REFLECT_VIEW_ENERGIES);

  json = xrlab_session_to_json (s, NULL);
  back = xrlab_session_from_json (json, -1, &error);
  g_assert_no_error (error);
  g_assert_true (xrlab_session_equal (s, back));

  /* Another session: its stacks and controls replace the page's. */
  xrlab_session_clear_stacks (back);
  xrlab_session_add_stack (back, "Ni", "Ni:8.9~0.5nm", FALSE, 0x123456, TRUE);
  back->reflect->view = XRLAB_REFLECT_VIEW_ANGLES;
  xrlab_window_apply_session (win, back);
  settle ();
  g_assert_cmpuint (g_list_model_get_n_items (stacks), ==, 1);
  g_assert_nonnull (series_named ("Ni"));
  xrlab_reflect_page_get_settings (page (), &rs);
  g_assert_cmpint (rs.view, ==, XRLAB_REFLECT_VIEW_ANGLES);
  g_assert_cmpstr (rs.energies, ==, "5:25:50");
  xrlab_reflect_settings_clear (&rs);

  /* A session written before the page: it loads, and the page has the
   * example. */
  old = xrlab_session_from_json ("{\"format\": \"xrlab-session\", \"version\": 1, \"materials\": [],"
                                 " \"sweep\": {\"start\": 1, \"stop\": 30, \"unit\": \"keV\", \"points\": 100,"
                                 " \"spacing\": \"log\"}}", -1, &error);
  g_assert_no_error (error);
  g_assert_null (old->stacks);
  xrlab_window_apply_session (win, old);
  settle ();
  g_assert_cmpuint (g_list_model_get_n_items (stacks), ==, 4);

  /* Salvaged: a bad "stacks" is left out with a warning (the example shows). */
  {
    g_auto(GStrv) warnings = NULL;
    g_autoptr(GError) e = NULL;
    g_autoptr(XrlabSession) salvaged =
      xrlab_session_from_json_full ("{\"format\": \"xrlab-session\", \"version\": 1, \"materials\": [],"
                                    " \"sweep\": {\"start\": 1, \"stop\": 30, \"unit\": \"keV\", \"points\": 100,"
                                    " \"spacing\": \"log\"}, \"stacks\": [{\"stack\": 1}]}", -1,
                                    XRLAB_SESSION_LOAD_SALVAGE, &warnings, &e);
    g_assert_no_error (e);
    g_assert_nonnull (salvaged);
    g_assert_null (salvaged->stacks);
    g_assert_nonnull (warnings);
    g_assert_nonnull (strstr (warnings[0], "stacks[0].stack"));
  }

  /* Bad members are refused with where and why. */
  {
    const char *bad[][2] = {
      { "\"stacks\": [{\"name\": \"x\"}]", "stacks[0]" },
      { "\"stacks\": [{\"stack\": \"Rh\", \"kind\": \"lens\"}]", "stacks[0].kind" },
      { "\"stacks\": [{\"stack\": 3}]", "stacks[0].stack" },
      { "\"stacks\": {}", "session.stacks" },
      { "\"reflect\": {\"view\": \"3d\"}", "reflect.view" },
      { "\"reflect\": {\"polarization\": 2}", "reflect.polarization" },
      { "\"reflect\": {\"angle_unit\": \"rad\"}", "reflect.angle_unit" },
      { "\"reflect\": {\"table\": \"nist\"}", "reflect.table" },
      { "\"reflect\": {\"zoom\": 2}", "reflect" },
    };
    for (gsize k = 0; k < G_N_ELEMENTS (bad); k++)
      {
        g_autofree char *doc = g_strdup_printf ("{\"format\": \"xrlab-session\", \"version\": 1, \"materials\": [],"
                                                " \"sweep\": {\"start\": 1, \"stop\": 30, \"unit\": \"keV\","
                                                " \"points\": 100, \"spacing\": \"log\"}, %s}", bad[k][0]);
        g_autoptr(GError) e = NULL;
        g_autoptr(XrlabSession) none = xrlab_session_from_json (doc, -1, &e);

        g_assert_null (none);
        g_assert_error (e, XRLAB_SESSION_ERROR, XRLAB_SESSION_ERROR_INVALID);
        if (!g_str_has_prefix (e->message, bad[k][1]))
          g_error ("%s: “%s” does not start with “%s”", bad[k][0], e->message, bad[k][1]);
      }
  }
}

typedef struct {
  gboolean pending;
  GError *error;
} Wait;

static void
csv_done (GObject *source, GAsyncResult *result, gpointer data)
{
  Wait *w = data;

  xrlab_window_export_csv_finish (XRLAB_WINDOW (source), result, &w->error);
  w->pending = FALSE;
}

static gboolean
not_pending (gpointer data)
{
  return !((Wait *) data)->pending;
}

/* The plot export writes the page's plot, or its map; the CSV export its
 * curves. */
static void
test_export (void)
{
  g_autofree char *png = g_build_filename (tmpdir, "reflect.png", NULL);
  g_autofree char *svg = g_build_filename (tmpdir, "map.svg", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize len = 0;

  reset ();
  g_assert_true (xrlab_window_export_plot_file (win, png, XRLAB_PLOT_FORMAT_PNG, 640, 480, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (png, &contents, &len, NULL));
  g_assert_cmpmem (contents, 4, "\x89PNG", 4);
  g_clear_pointer (&contents, g_free);

  /* The data as CSV, written by the engine: the page's stacks and angles. */
  {
    g_autofree char *csv = g_build_filename (tmpdir, "reflect.csv", NULL);
    g_autofree char *text = NULL;
    Wait w = { 0 };

    w.pending = TRUE;
    xrlab_window_export_csv (win, csv, csv_done, &w);
    xrlab_test_wait_for (not_pending, &w, 20, "the CSV export");
    g_assert_no_error (w.error);
    g_assert_true (g_file_get_contents (csv, &text, NULL, NULL));
    g_assert_nonnull (strstr (text, "\nenergy_keV,angle_mrad,Rh:R,Rh:R_s,Rh:R_p,Pt:R,"));
    g_assert_nonnull (strstr (text, "\n10,0,1,1,1,"));   /* total reflection at 0 */
  }

  xrlab_reflect_page_select (page (), stack_named ("Rh"));
  set_view (XRLAB_REFLECT_VIEW_MAP, "8:12:20", "0:10:50");
  g_assert_true (xrlab_window_export_plot_file (win, svg, XRLAB_PLOT_FORMAT_SVG, 640, 480, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (svg, &contents, &len, NULL));
  g_assert_nonnull (strstr (contents, "<svg"));
  set_view (XRLAB_REFLECT_VIEW_ANGLES, NULL, NULL);
}

static int
rm_rf (const char *path)
{
  GDir *d = g_dir_open (path, 0, NULL);
  const char *name;

  if (d == NULL)
    return g_remove (path);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);
      rm_rf (child);
    }
  g_dir_close (d);
  return g_rmdir (path);
}

int
main (int argc, char *argv[])
{
  g_autoptr(GError) error = NULL;
  int status;

  tmpdir = g_dir_make_tmp ("xrlab-reflect-XXXXXX", NULL);
  {
    g_autofree char *state = g_build_filename (tmpdir, "state", NULL);
    g_setenv ("XDG_STATE_HOME", state, TRUE);
  }

  g_test_init (&argc, &argv, NULL);

  app = xrlab_application_new ();
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  xrlab_application_set_restore (app, FALSE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);
  g_application_activate (G_APPLICATION (app));
  win = XRLAB_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (app)));
  g_assert_nonnull (win);
  xrlab_test_spin (0.3);

  g_test_add_func ("/reflect/first-start", test_first_start);
  g_test_add_func ("/reflect/invalid-stack", test_invalid_stack);
  g_test_add_func ("/reflect/map", test_map);
  g_test_add_func ("/reflect/filters", test_filters);
  g_test_add_func ("/reflect/tables", test_tables);
  g_test_add_func ("/reflect/editor", test_editor);
  g_test_add_func ("/reflect/session", test_session);
  g_test_add_func ("/reflect/export", test_export);
  status = g_test_run ();

  gtk_window_destroy (GTK_WINDOW (win));
  xrlab_test_spin (0.1);
  g_clear_object (&app);
  rm_rf (tmpdir);
  g_free (tmpdir);
  return status;
}
