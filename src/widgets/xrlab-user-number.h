/* xrlab-user-number.h -- numbers as people type them into entries, and as
 * entries show them
 *
 * Numbers for people use the decimal separator of the locale (LC_NUMERIC),
 * like everything printf() formats: entries, drop-downs, the values table,
 * the crosshair and messages agree. Typed numbers may use either '.' or a
 * single ',', whatever the locale. Files and the default copied text use
 * '.' (xrlab_format_double()). The material rows, the sweep controls and
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

/* @value with 6 significant digits and the locale's decimal separator
 * ("8.048", in German "8,048"). With @exact, when those digits do not read
 * back as @value, the shortest text that does (a typed "2.3456789" stays as
 * typed). */
char *xrlab_format_user_number (double value, gboolean exact);

/* The decimal separator of the locale: '.' or ','. */
char  xrlab_user_decimal_point (void);

/* @text with every '.' made the locale's decimal separator (in place). */
char *xrlab_localize_decimal_point (char *text);

G_END_DECLS
