/* xrlab-init.c -- one-time process set-up of the engine library
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-init.h"

#include <glib/gi18n-lib.h>
#include <gsl/gsl_errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* Whether this process runs a program of the build tree (Linux: its
 * /proc/self/exe lies under the build root). */
static gboolean
running_from_build_tree (void)
{
#if defined(__linux__) && defined(XRLAB_BUILD_ROOT)
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  char root[PATH_MAX];

  if (exe == NULL || realpath (XRLAB_BUILD_ROOT, root) == NULL)
    return FALSE;
  return g_str_has_prefix (exe, root) && exe[strlen (root)] == G_DIR_SEPARATOR;
#else
  return FALSE;
#endif
}

const char *
xrlab_locale_dir (void)
{
  static const char *dir;
  static gsize initialized = 0;

  if (g_once_init_enter (&initialized))
    {
      dir = LOCALEDIR;
#ifdef XRLAB_BUILD_LOCALEDIR
      if (running_from_build_tree ()
          && g_file_test (XRLAB_BUILD_LOCALEDIR, G_FILE_TEST_IS_DIR))
        dir = XRLAB_BUILD_LOCALEDIR;
#endif
      g_once_init_leave (&initialized, 1);
    }
  return dir;
}

void
xrlab_init (void)
{
  static gsize initialized = 0;

  if (g_once_init_enter (&initialized))
    {
      gsl_set_error_handler_off ();
      bindtextdomain (GETTEXT_PACKAGE, xrlab_locale_dir ());
      bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
      g_once_init_leave (&initialized, 1);
    }
}
