/* xrlab-formula-private.h -- the formula parser's helpers in other files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Re-cases letter runs into element symbols: "sio2" → "SiO2", "CuSo4" →
 * "CuSO4" (xrlab-formula-recase.c). A capital letter starts a symbol as
 * typed when that is valid; a lower-case one becomes a capital, taking the
 * next lower-case letter when that makes a valid symbol. "wt" before "%" is
 * kept. NULL when no re-casing gives valid symbols. */
char *xrlab_formula_recase (const char *text);

G_END_DECLS
