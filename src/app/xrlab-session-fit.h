/* xrlab-session-fit.h -- the Fit page's member of a session, for
 * xrlab-session.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "xrlab-session.h"

G_BEGIN_DECLS

void     xrlab_session_fit_free   (XrlabSession *session);
void     xrlab_session_fit_copy   (XrlabSession *copy, const XrlabSession *session);
gboolean xrlab_session_fit_equal  (const XrlabSession *a, const XrlabSession *b);
/* "  \"fit\": {...},\n" when the session has one. */
void     xrlab_session_fit_append_json (const XrlabSession *session, GString *out);
/* Reads "fit" of the document @root (optional). */
gboolean xrlab_session_fit_parse  (JsonObject *root, XrlabSession *session, GError **error);

G_END_DECLS
