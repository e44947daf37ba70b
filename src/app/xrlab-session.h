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
 *                "spacing": "log", "table": "auto" },
 *     "plot": { "quantity": "delta", "x_log": true, "y_log": true },
 *     "values": { "energy_eV": 8048 },
 *     "view": { "x": [8.8, 9.2], "y": [1e-6, 2e-5], "pins": [8.979] },
 *     "stacks": [ { "name": "Rh", "stack": "Rh:12.41~0.3nm", "kind": "reflect",
 *                   "color": "#1c71d8", "visible": true } ],
 *     "reflect": { "view": "angles", "energy_keV": "10", "energies_keV": "5:30:500",
 *                  "angle": "3", "angles": "0:10:500", "angle_unit": "mrad",
 *                  "polarization": 0, "y_log": true } }
 * In a material only "formula" and "density_g_cm3" are required; "plot",
 * "values" and "view" may be left out, and so may each member of "view"
 * (an axis without limits follows the data). The view is in the sweep's
 * unit (x) and the quantity's display unit (y). The sweep's "table"
 * (henke, chantler, auto) was added within version 1: a sweep without it
 * is Henke's, as files of earlier versions meant, and it is written only
 * for the other choices. Unknown members are errors (they are typos).
 * "stacks" and "reflect" (the Reflectivity page, xrlab-session-stacks.c)
 * may be left out too: sessions written before the page have neither; in
 * a stack only "stack" is required, and the specs are kept as typed.
 * "fit" (the Fit page's workspace, xrlab-session-fit.c) is optional as
 * well.
 *
 * The text is checked before json-glib parses it (nesting depth, JSON's
 * tokens only, UTF-8); a salvaging load keeps what is sound in a document
 * with errors inside, with warnings. The window restores its auto-save with
 * xrlab_session_restore_begin(): a file that crashed a start is not read
 * again by itself, and no bad file is ever overwritten. The library
 * (libxrlab-session) needs GLib, json-glib and the engine, not GTK.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "xrlab-fit-workspace.h"
#include "xrlab-quantity.h"
#include "xrlab-sweep.h"

G_BEGIN_DECLS

#define XRLAB_SESSION_FORMAT   "xrlab-session"
#define XRLAB_SESSION_VERSION  1
#define XRLAB_SESSION_MAX_MATERIALS 64
#define XRLAB_SESSION_MAX_BYTES (4 * 1024 * 1024)
#define XRLAB_SESSION_MAX_PINS 64
/* The colour of a material or stack whose session gives none: the window
 * picks the palette's next unused colour when it applies the session. */
#define XRLAB_SESSION_COLOR_AUTO 0xff000000u
/* Objects and arrays nest at most this deep (a session needs 3). */
#define XRLAB_SESSION_MAX_DEPTH 64

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
  guint32 color;               /* 0xRRGGBB, or XRLAB_SESSION_COLOR_AUTO */
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
  XrlabTableChoice table;      /* "table", left out for auto (and by earlier versions) */
} XrlabSessionReflect;

#define XRLAB_SESSION_MAX_STACKS 64

/* The Fit page's workspace (xrlab-fit-workspace.h; its member of the
 * document: xrlab-session-fit.c). */
typedef XrlabFitWorkspace XrlabSessionFit;

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
  /* The Reflectivity page: NULL when the session has none (written before
   * there was one). */
  GPtrArray *stacks;           /* XrlabSessionStack */
  XrlabSessionReflect *reflect;
  /* The Fit page's workspace, or NULL. */
  XrlabSessionFit *fit;
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
/* The page's example (Rh, Pt, a W/B4C multilayer, a filter stack):
 * what a session without stacks shows. Sessions compare equal when they
 * show the same (xrlab_session_equal()): no stacks equal the example, no
 * controls the defaults. */
void xrlab_session_add_example_stacks (XrlabSession *session);
/* The controls, or the defaults when the session has none. */
const XrlabSessionReflect *xrlab_session_get_reflect (const XrlabSession *session);
/* An empty list of stacks (a session with the page, but no stack). */
void xrlab_session_clear_stacks (XrlabSession *session);
/* The page's controls (replacing any). */
void xrlab_session_set_reflect (XrlabSession              *session,
                                const XrlabSessionReflect *reflect);

/* The Fit page's workspace (copied; NULL: none), or NULL. */
void                   xrlab_session_set_fit (XrlabSession *session, const XrlabSessionFit *fit);
const XrlabSessionFit *xrlab_session_get_fit (const XrlabSession *session);

/* Always valid UTF-8 JSON. */
char         *xrlab_session_to_json   (const XrlabSession *session,
                                       gsize              *length);

/* What a reader does with a document that is a session of a version it
 * reads but has errors inside. Text that is not JSON, a foreign document
 * and a newer version are refused either way. */
typedef enum {
  /* any error refuses the whole document */
  XRLAB_SESSION_LOAD_STRICT  = 0,
  /* keep what is sound, with a warning for each thing that is not: a bad
   * material is left out, a bad "sweep", "plot" or "values" section is
   * replaced by the default, unknown members are ignored, beyond
   * XRLAB_SESSION_MAX_MATERIALS the materials are cut off */
  XRLAB_SESSION_LOAD_SALVAGE = 1 << 0,
} XrlabSessionLoadFlags;

/* @warnings (optional): a NULL-terminated list (g_strfreev()) of what was
 * repaired or left out, or NULL when nothing was. In both modes a string
 * json-glib would decode into bytes that are not UTF-8 (a lone UTF-16
 * surrogate) or cut short ("\u0000") is read with U+FFFD and a warning.
 * Errors say where: the line and column for text that is not JSON
 * (nesting deeper than XRLAB_SESSION_MAX_DEPTH included), the member
 * ("materials[2].density_g_cm3") for the rest. */
XrlabSession *xrlab_session_from_json_full (const char              *data,
                                            gssize                   length,
                                            XrlabSessionLoadFlags    flags,
                                            char                  ***warnings,
                                            GError                 **error);
/* Strict, warnings dropped. */
XrlabSession *xrlab_session_from_json (const char         *data,
                                       gssize              length,
                                       GError            **error);

XrlabSession *xrlab_session_load_full (const char              *path,
                                       XrlabSessionLoadFlags    flags,
                                       char                  ***warnings,
                                       GError                 **error);
XrlabSession *xrlab_session_load (const char          *path,
                                  GError             **error);
gboolean      xrlab_session_save (const XrlabSession  *session,
                                  const char          *path,
                                  GError             **error);

/* $XDG_STATE_HOME/xrlab/session.json */
char *xrlab_session_get_autosave_path (void);

/* ---- keeping files, restoring at start ------------------------------------- */

/* Keeps the session file @path under the first free name of @path.bad,
 * @path.bad.1, @path.bad.2, ..., never replacing an existing file: with
 * @contents NULL the file itself moves there; else @contents (@length
 * bytes, -1: a string) are written there whole (the file at @path stays).
 * Returns the new name. */
char *xrlab_session_keep_aside (const char  *path,
                                const char  *contents,
                                gssize       length,
                                GError     **error);

/* @path.restoring: present while a restore of @path is under way. */
char *xrlab_session_get_restore_marker_path (const char *path);

typedef enum {
  XRLAB_SESSION_RESTORE_NONE,     /* nothing saved: start with the example */
  XRLAB_SESSION_RESTORE_DONE,     /* restored, perhaps in part (warnings) */
  XRLAB_SESSION_RESTORE_REFUSED,  /* unreadable (error); kept aside */
  XRLAB_SESSION_RESTORE_CRASHED,  /* the last start stopped while restoring it:
                                   * kept aside and not read */
} XrlabSessionRestoreStatus;

typedef struct {
  XrlabSessionRestoreStatus status;
  XrlabSession *session;       /* DONE */
  char **warnings;             /* DONE: what was repaired or left out; NULL if nothing */
  GError *error;               /* REFUSED: why; CRASHED: why it could not be kept aside */
  char *kept_path;             /* REFUSED, CRASHED, DONE with warnings: the file as it was */
  char *marker_path;           /* DONE: pass to xrlab_session_restore_finish() */
} XrlabSessionRestore;

/* Restores the auto-save file @path crash-safely: when @path.restoring is
 * there, the last start stopped while restoring, and the file is kept aside
 * (CRASHED) instead of read again; otherwise the marker is written
 * (atomically), the file read with XRLAB_SESSION_LOAD_SALVAGE, and an
 * unreadable one kept aside (REFUSED), a partly readable one copied aside
 * (DONE with warnings). After DONE the caller shows the session, then
 * removes the marker with xrlab_session_restore_finish(). */
XrlabSessionRestore *xrlab_session_restore_begin  (const char *path);
void                 xrlab_session_restore_finish (const char *marker_path);
void                 xrlab_session_restore_free   (XrlabSessionRestore *restore);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (XrlabSessionRestore, xrlab_session_restore_free)

G_DEFINE_AUTOPTR_CLEANUP_FUNC (XrlabSession, xrlab_session_free)

G_END_DECLS
