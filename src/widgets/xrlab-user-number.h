/* xrlab-user-number.h -- numbers as people type them into entries, and as
 * entries show them
 *
 * Entries always show '.' as the decimal separator and accept a single ','
 * as well, whatever the locale: the material rows, the sweep controls and
 * the values table read and write their numbers here.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Parses a user-typed number: surrounding blanks allowed, '.' or a single
 * ',' as decimal separator; finite values only. */
gboolean xrlab_parse_user_number (const char *text, double *value);

/* @value with 6 significant digits and '.' ("8.048", "1239.84"). With
 * @exact, when those digits do not read back as @value, the shortest text
 * that does (a typed "2.3456789" stays as typed). */
char *xrlab_format_user_number (double value, gboolean exact);

G_END_DECLS
