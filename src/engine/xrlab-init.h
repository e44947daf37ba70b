/* xrlab-init.h -- one-time process set-up of the engine library
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Call once at start-up (idempotent, thread safe): turns GSL's aborting error
 * handler off (every GSL status is checked where it is returned), binds the
 * gettext domain and registers the built-in data resources. */
void xrlab_init (void);

/* The folder of the message catalogues for bindtextdomain(): LOCALEDIR, or
 * the build tree's po/ when the running program is one of the build tree's
 * (so that xrlab and xrlab-cli speak the user's language uninstalled too). */
const char *xrlab_locale_dir (void);

G_END_DECLS
