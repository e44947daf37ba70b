/* xrlab-reflect-page.h -- the Reflectivity page of the window: stacks,
 * their editor, curves vs angle or energy, the energy × angle map, filter
 * transmission
 *
 * The page keeps a list of stacks (XrlabStackItem) and hands them to the
 * engine's stacks service (xrlab-engine-reflect.h): an edited text is an
 * update of that stack, a changed list a new list; the plot then fetches
 * the curves of the visible stacks of the current view in one reply
 * (consumer "reflect-plot"), the map view the map of the selected stack
 * (consumer "reflect-map", a job on the engine's lane when it is big; a
 * newer map cancels the older). Nothing is fetched while the page is
 * hidden. An invalid stack shows the engine's message (layer and column)
 * in its row and the editor, and its last valid curve, dashed.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "xrlab-engine.h"
#include "xrlab-map-view.h"
#include "xrlab-plot.h"
#include "xrlab-stack-editor.h"
#include "xrlab-stack-item.h"

G_BEGIN_DECLS

#define XRLAB_TYPE_REFLECT_PAGE (xrlab_reflect_page_get_type ())
G_DECLARE_FINAL_TYPE (XrlabReflectPage, xrlab_reflect_page, XRLAB, REFLECT_PAGE, GtkBox)

/* What the page plots. */
typedef enum {
  XRLAB_REFLECT_VIEW_ANGLES,     /* R vs grazing angle at one energy */
  XRLAB_REFLECT_VIEW_ENERGIES,   /* R vs energy at one angle */
  XRLAB_REFLECT_VIEW_MAP,        /* R of the selected stack on energies × angles */
  XRLAB_REFLECT_VIEW_FILTERS,    /* T of the filter stacks vs energy */
} XrlabReflectView;

/* The page's settings as the session keeps them: specs as typed. */
typedef struct {
  XrlabReflectView view;
  char *energy;        /* one energy [keV] */
  char *energies;      /* an energy spec [keV] */
  char *angle;         /* one angle */
  char *angles;        /* an angle spec */
  gboolean degrees;    /* angles in degrees, else mrad */
  double polarization; /* 1 s, −1 p, 0 unpolarized */
  gboolean y_log;
  XrlabTableChoice table; /* the scattering factors: henke, chantler or auto */
} XrlabReflectSettings;

void xrlab_reflect_settings_clear (XrlabReflectSettings *settings);
/* 10 keV; 5–30 keV; 3 mrad; 0–10 mrad; unpolarized; log R; table auto. */
void xrlab_reflect_settings_init_default (XrlabReflectSettings *settings);

GtkWidget  *xrlab_reflect_page_new (void);

/* The engine to talk to (the window's); the materials its layer menus
 * offer (a list of XrlabMaterial). */
void        xrlab_reflect_page_set_engine    (XrlabReflectPage *self, XrlabEngine *engine);
void        xrlab_reflect_page_set_materials (XrlabReflectPage *self, GListModel *materials);

/* The stacks (XrlabStackItem), in list order; the selected one. */
GListStore     *xrlab_reflect_page_get_stacks   (XrlabReflectPage *self);
XrlabStackItem *xrlab_reflect_page_get_selected (XrlabReflectPage *self);
void            xrlab_reflect_page_select       (XrlabReflectPage *self, XrlabStackItem *item);
/* Appends a stack (with the next free colour when @color is NULL). */
XrlabStackItem *xrlab_reflect_page_add_stack    (XrlabReflectPage *self, const char *name,
                                                 const char *text, XrlabStackKind kind,
                                                 const GdkRGBA *color, gboolean visible);
void            xrlab_reflect_page_clear        (XrlabReflectPage *self);

void        xrlab_reflect_page_get_settings (XrlabReflectPage *self, XrlabReflectSettings *settings);
void        xrlab_reflect_page_set_settings (XrlabReflectPage *self, const XrlabReflectSettings *settings);

/* Something of the page was changed by the user (for the session's
 * auto-save): "changed". */

/* The page is shown or hidden (the window's view stack): shown, it fetches
 * what changed while it was hidden. */
void        xrlab_reflect_page_set_active (XrlabReflectPage *self, gboolean active);
/* TRUE while requests are pending or scheduled. */
gboolean    xrlab_reflect_page_is_busy    (XrlabReflectPage *self);

XrlabPlot        *xrlab_reflect_page_get_plot     (XrlabReflectPage *self);
XrlabMapView     *xrlab_reflect_page_get_map_view (XrlabReflectPage *self);
XrlabStackEditor *xrlab_reflect_page_get_editor   (XrlabReflectPage *self);
/* The message under the toolbar (a spec that does not parse), or NULL. */
const char       *xrlab_reflect_page_get_message  (XrlabReflectPage *self);

/* Writes the shown plot or map (PNG, SVG, PDF) to @path, atomically. */
gboolean    xrlab_reflect_page_export (XrlabReflectPage *self,
                                       const char       *path,
                                       XrlabPlotFormat   format,
                                       int               width,
                                       int               height,
                                       double            scale,
                                       gboolean          dark,
                                       GError          **error);
/* Writes the shown view's curves (or map) as CSV, from the engine thread
 * (xrlab_engine_reflect_export_csv_async()). */
void        xrlab_reflect_page_export_csv        (XrlabReflectPage    *self,
                                                  const char          *path,
                                                  GAsyncReadyCallback  callback,
                                                  gpointer             user_data);
gboolean    xrlab_reflect_page_export_csv_finish (XrlabReflectPage    *self,
                                                  GAsyncResult        *result,
                                                  GError             **error);
/* The widget export sizes "as on screen" refer to. */
GtkWidget  *xrlab_reflect_page_get_shown_view (XrlabReflectPage *self);

G_END_DECLS
