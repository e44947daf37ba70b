/* xrlab-init.c -- one-time process set-up of the engine library
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-init.h"

#include <glib/gi18n-lib.h>
#include <gsl/gsl_errno.h>

void
xrlab_init (void)
{
  static gsize initialized = 0;

  if (g_once_init_enter (&initialized))
    {
      gsl_set_error_handler_off ();
      bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
      bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
      g_once_init_leave (&initialized, 1);
    }
}
