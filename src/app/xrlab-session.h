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
 *     "view": { "x": [8.8, 9.2], "y": [1e-6, 2e-5], "pins": [8.979] } }
 * In a material only "formula" and "density_g_cm3" are required; "plot",
 * "values" and "view" may be left out, and so may each member of "view"
 * (an axis without limits follows the data). The view is in the sweep's
 * unit (x) and the quantity's display unit (y). Unknown members are errors
 * (they are typos).
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
#define XRLAB_SESSION_MAX_PINS 64

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

typedef struct {
  GPtrArray *materials;        /* XrlabSessionMaterial */
  XrlabSweep sweep;
  XrlabQuantity quantity;
  gboolean x_log;
  gboolean y_log;
  double values_energy_ev;
  /* the plot's view: axis limits (NaN: automatic) and pinned x values */
  double view_x_min, view_x_max, view_y_min, view_y_max;
  double pins[XRLAB_SESSION_MAX_PINS];
  guint n_pins;
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
