/* xrlab-session-private.h -- what the files of the session library share
 *
 * xrlab-session.c          the document: model, writer, reader
 * xrlab-session-scan.c     the lexical check of the text before json-glib
 * xrlab-session-restore.c  keeping bad files aside, the crash-safe restore
 * xrlab-session-view.c     the plot's view: copied, compared, written
 * xrlab-session-json.c     reading members: typed getters, member checks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "xrlab-session.h"

G_BEGIN_DECLS

/* Checks @data (@length bytes) before json-glib parses it: UTF-8 text
 * without NUL bytes, JSON's tokens only, one document, nesting at most
 * XRLAB_SESSION_MAX_DEPTH deep. Errors (XRLAB_SESSION_ERROR_PARSE) give
 * the line and column. Escapes json-glib would decode into bytes that are
 * not UTF-8, or cut a string at, are repaired (a warning each into
 * @warnings, which may be NULL): then *@repaired is a NUL-terminated copy
 * of the same length to parse instead (else NULL). */
gboolean xrlab_session_scan (const char  *data,
                             gsize        length,
                             char       **repaired,
                             GPtrArray   *warnings,
                             GError     **error);

/* The plot's view (limits and pins) of @session: into @copy; equal in
 * both (NaN limits alike); ",\n  \"view\": {...}" when it has any. */
void     xrlab_session_view_copy        (XrlabSession *copy, const XrlabSession *session);
gboolean xrlab_session_view_equal       (const XrlabSession *a, const XrlabSession *b);
void     xrlab_session_view_append_json (const XrlabSession *session, GString *s);

/* ---- reading members (xrlab-session-json.c) --------------------------------
 * @path names @obj in messages ("materials[0]"); a member that is absent is
 * an error when @required, else leaves *@out as it was. Errors are
 * XRLAB_SESSION_ERROR_INVALID: "PATH.NAME: expected a number, found a
 * string". */
gboolean    xrlab_session_fail        (GError **error, const char *path, const char *format,
                                       ...) G_GNUC_PRINTF (3, 4);
/* A string of the file, for a message: at most 40 characters. */
char       *xrlab_session_echo        (const char *text);
gboolean    xrlab_session_wrong_type  (GError **error, const char *path, const char *expected,
                                       JsonNode *node);
/* A JSON number (integer or not). */
gboolean    xrlab_session_is_number   (JsonNode *node);
/* Finite numbers only; -0 reads as 0. */
gboolean    xrlab_session_get_number  (JsonObject *obj, const char *name, const char *path,
                                       gboolean required, double *out, GError **error);
/* UTF-8, at most @max_chars characters (0: any length). */
gboolean    xrlab_session_get_string  (JsonObject *obj, const char *name, const char *path,
                                       gboolean required, gsize max_chars, const char **out,
                                       GError **error);
gboolean    xrlab_session_get_bool    (JsonObject *obj, const char *name, const char *path,
                                       gboolean required, gboolean *out, GError **error);
/* NULL when absent or not an object; *@ok says whether that is an error. */
JsonObject *xrlab_session_get_object  (JsonObject *obj, const char *name, const char *path,
                                       gboolean required, gboolean *ok, GError **error);
JsonArray  *xrlab_session_get_array   (JsonObject *obj, const char *name, const char *path,
                                       gboolean required, gboolean *ok, GError **error);
/* The first member of @obj not in @allowed (NULL-terminated), or NULL. */
const char *xrlab_session_unknown_member (JsonObject *obj, const char *const *allowed);
/* Unknown members are typos: an error naming the first and the allowed. */
gboolean    xrlab_session_only_members (JsonObject *obj, const char *path,
                                        const char *const *allowed, GError **error);
/* "#rrggbb" */
gboolean    xrlab_session_parse_color (const char *text, guint32 *out);

/* "line 3, column 12" */
char *xrlab_session_position (guint line, guint column);

G_END_DECLS
