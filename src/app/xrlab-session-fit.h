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
/* Reads "fit" of the document @root (optional). With @warning (salvaging)
 * a baseline fit of "result" that is not sound is left out and *@warning
 * says why (else it is an error); NULL when nothing was. */
gboolean xrlab_session_fit_parse  (JsonObject *root, XrlabSession *session, char **warning, GError **error);

G_END_DECLS
