/* xrlab-session-stacks.h -- the Reflectivity page's members of a session,
 * for xrlab-session.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "xrlab-session.h"

G_BEGIN_DECLS

void     xrlab_session_stacks_free   (XrlabSession *session);
void     xrlab_session_stacks_copy   (XrlabSession *copy, const XrlabSession *session);
gboolean xrlab_session_stacks_equal  (const XrlabSession *a, const XrlabSession *b);
/* "  \"stacks\": [...],\n  \"reflect\": {...},\n" when the session has them. */
void     xrlab_session_stacks_append_json (const XrlabSession *session, GString *out);
/* Reads "stacks" and "reflect" of the document @root (both optional). */
gboolean xrlab_session_stacks_parse  (JsonObject *root, XrlabSession *session, GError **error);

G_END_DECLS
