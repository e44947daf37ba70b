/* xrlab-reflect-page-private.h -- what the files of XrlabReflectPage share
 *
 * xrlab-reflect-page.c       construction, the stack list, the controls,
 *                            the public API
 * xrlab-reflect-page-data.c  the link to the engine: edits, fetches, and
 *                            the replies drawn into the plot and the map
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "xrlab-reflect-page.h"

G_BEGIN_DECLS

struct _XrlabReflectPage {
  GtkBox parent_instance;

  /* the left column */
  GtkListBox *stack_list;
  XrlabStackEditor *editor;
  /* the controls */
  GtkDropDown *view_choice;
  GtkEntry *energy_entry, *energies_entry, *angle_entry, *angles_entry;
  GtkWidget *energy_box, *energies_box, *angle_box, *angles_box;
  GtkDropDown *angle_unit, *polarization, *table_choice;
  GtkToggleButton *y_log;
  GtkLabel *message;
  GtkStack *views;
  XrlabPlot *plot;
  XrlabMapView *map_view;

  GListStore *stacks;
  GListModel *materials;
  XrlabEngine *engine;
  GCancellable *cancellable;     /* of every request; cancelled at dispose */
  GCancellable *map_cancellable; /* of the running map */
  GHashTable *dirty;             /* ids of stacks the engine has not seen */
  gboolean list_dirty;           /* stacks came or went */
  gboolean view_dirty;
  gboolean active;
  gboolean building;             /* setting the controls ourselves */
  guint refresh_id;
  guint pending;
  guint64 serial;                /* of the newest fetch */
  char *message_text;
};

/* The controls. */
XrlabReflectView xrlab_reflect_page_view         (XrlabReflectPage *self);
gboolean         xrlab_reflect_page_degrees      (XrlabReflectPage *self);
double           xrlab_reflect_page_polarization (XrlabReflectPage *self);
XrlabTableChoice xrlab_reflect_page_table        (XrlabReflectPage *self);
/* The message under the toolbar (NULL: none). */
void             xrlab_reflect_page_set_message  (XrlabReflectPage *self, const char *text);
/* Stack @i of the list (the store keeps it). */
XrlabStackItem  *xrlab_reflect_page_item_at      (XrlabReflectPage *self, guint i);

/* xrlab-reflect-page-data.c: one round of requests soon (coalesced). */
void             xrlab_reflect_page_schedule     (XrlabReflectPage *self);

G_END_DECLS
