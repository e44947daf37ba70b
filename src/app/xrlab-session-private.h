/* xrlab-session-private.h -- what the files of the session library share
 *
 * xrlab-session.c          the document: model, writer, reader
 * xrlab-session-scan.c     the lexical check of the text before json-glib
 * xrlab-session-restore.c  keeping bad files aside, the crash-safe restore
 * xrlab-session-view.c     the plot's view: copied, compared, written
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

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

/* "line 3, column 12" */
char *xrlab_session_position (guint line, guint column);

G_END_DECLS
