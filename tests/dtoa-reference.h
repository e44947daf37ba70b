/* dtoa-reference.h -- the printf/strtod number formatting and parsing that
 * xrlab used before Dragonbox and fast_float (see dtoa-reference.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "xrlab-util.h"

G_BEGIN_DECLS

/* The shortest of %.15g, %.16g, %.17g that g_ascii_strtod() reads back. */
char *old_format_double (double x, char buf[XRLAB_DTOA_BUFSIZE]);

/* g_ascii_strtod() on the whole string, with xrlab's checks around it. */
gboolean old_parse_double (const char *text, gboolean allow_nonfinite, double *out);

G_END_DECLS
