/* xrlab-session.h -- the window's state as a JSON document
 *
 * Materials (as typed, invalid ones included), the energy sweep, the plot
 * settings and the energy of the values table. Loading validates the whole
 * document before anything is returned, so a corrupt or foreign file is
 * refused with a message that names where and why, and the caller's state
 * is never touched. Saving is atomic (temporary file + rename).
 *
 * File format (version 1):
 *   { "format": "xrlab-session", "version": 1,
 *     "materials": [ { "name": "Si", "formula": "Si", "density_g_cm3": 2.33,
 *                      "thickness_um": 1, "color": "#1c71d8", "visible": true } ],
 *     "sweep": { "start": 1, "stop": 30, "unit": "keV", "points": 1000,
 *                "spacing": "log" },
 *     "plot": { "quantity": "delta", "x_log": true, "y_log": true },
 *     "values": { "energy_eV": 8048 },
 *     "stacks": [ { "name": "Rh", "stack": "Rh:12.41~0.3nm", "kind": "reflect",
 *                   "color": "#1c71d8", "visible": true } ],
 *     "reflect": { "view": "angles", "energy_keV": "10", "energies_keV": "5:30:500",
 *                  "angle": "3", "angles": "0:10:500", "angle_unit": "mrad",
 *                  "polarization": 0, "y_log": true } }
 * In a material only "formula" and "density_g_cm3" are required; "plot" and
 * "values" may be left out. Unknown members are errors (they are typos).
 * "stacks" and "reflect" (the Reflectivity page, xrlab-session-stacks.c)
 * may be left out too: sessions written before the page have neither; in a
 * stack only "stack" is required, and the specs are kept as typed.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "xrlab-quantity.h"
#include "xrlab-sweep.h"

G_BEGIN_DECLS

#define XRLAB_SESSION_FORMAT   "xrlab-session"
#define XRLAB_SESSION_VERSION  1
#define XRLAB_SESSION_MAX_MATERIALS 64
#define XRLAB_SESSION_MAX_BYTES (4 * 1024 * 1024)

#define XRLAB_SESSION_ERROR (xrlab_session_error_quark ())
GQuark xrlab_session_error_quark (void);

typedef enum {
  XRLAB_SESSION_ERROR_IO,        /* cannot read or write the file */
  XRLAB_SESSION_ERROR_PARSE,     /* not JSON */
  XRLAB_SESSION_ERROR_FOREIGN,   /* JSON, but not an xrlab session */
  XRLAB_SESSION_ERROR_VERSION,   /* written by a newer xrlab */
  XRLAB_SESSION_ERROR_INVALID,   /* a member is missing, mistyped or out of range */
} XrlabSessionError;

typedef struct {
  char *name;
  char *formula;
  double density_g_cm3;
  double thickness_um;
  guint32 color;               /* 0xRRGGBB */
  gboolean visible;
} XrlabSessionMaterial;

/* A stack of the Reflectivity page, as typed (valid or not). */
typedef struct {
  char *name;
  char *text;
  gboolean filter;             /* a filter stack, else a reflectivity stack */
  guint32 color;               /* 0xRRGGBB */
  gboolean visible;
} XrlabSessionStack;

/* The Reflectivity page's controls. */
typedef struct {
  int view;                    /* XrlabReflectView (xrlab-reflect-page.h) */
  char *energy;                /* the specs as typed */
  char *energies;
  char *angle;
  char *angles;
  gboolean degrees;
  double polarization;         /* −1 … 1 */
  gboolean y_log;
} XrlabSessionReflect;

#define XRLAB_SESSION_MAX_STACKS 64

typedef struct {
  GPtrArray *materials;        /* XrlabSessionMaterial */
  XrlabSweep sweep;
  XrlabQuantity quantity;
  gboolean x_log;
  gboolean y_log;
  double values_energy_ev;
  /* The Reflectivity page: NULL when the session has none (written before
   * there was one). */
  GPtrArray *stacks;           /* XrlabSessionStack */
  XrlabSessionReflect *reflect;
} XrlabSession;

/* No materials; 1–30 keV log sweep of 1000 points, δ on log axes, Cu Kα. */
XrlabSession *xrlab_session_new         (void);
/* The first-start example: Si, SiO2 and Au on the sweep above. */
XrlabSession *xrlab_session_new_default (void);
void          xrlab_session_free        (XrlabSession *session);
XrlabSession *xrlab_session_copy        (const XrlabSession *session);
gboolean      xrlab_session_equal       (const XrlabSession *a,
                                         const XrlabSession *b);

void xrlab_session_add_material (XrlabSession *session,
                                 const char   *name,
                                 const char   *formula,
                                 double        density_g_cm3,
                                 double        thickness_um,
                                 guint32       color,
                                 gboolean      visible);

/* Appends a stack (making the list when the session had none). */
void xrlab_session_add_stack (XrlabSession *session,
                              const char   *name,
                              const char   *text,
                              gboolean      filter,
                              guint32       color,
                              gboolean      visible);
/* An empty list of stacks (a session with the page, but no stack). */
void xrlab_session_clear_stacks (XrlabSession *session);
/* The page's controls (replacing any). */
void xrlab_session_set_reflect (XrlabSession              *session,
                                const XrlabSessionReflect *reflect);

char         *xrlab_session_to_json   (const XrlabSession *session,
                                       gsize              *length);
XrlabSession *xrlab_session_from_json (const char         *data,
                                       gssize              length,
                                       GError            **error);

XrlabSession *xrlab_session_load (const char          *path,
                                  GError             **error);
gboolean      xrlab_session_save (const XrlabSession  *session,
                                  const char          *path,
                                  GError             **error);

/* $XDG_STATE_HOME/xrlab/session.json */
char *xrlab_session_get_autosave_path (void);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (XrlabSession, xrlab_session_free)

G_END_DECLS
