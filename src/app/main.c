/* main.c -- xrlab, the desktop workbench
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "xrlab-application.h"
#include "xrlab-init.h"

int
main (int argc, char *argv[])
{
  g_autoptr(XrlabApplication) app = NULL;

  bindtextdomain (GETTEXT_PACKAGE, xrlab_locale_dir ());
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  {
    g_autoptr(GError) error = NULL;
    g_autoptr(GSettingsSchema) schema = xrlab_application_find_schema (&error);
    if (schema == NULL)
      {
        g_printerr ("xrlab: %s\n", error->message);
        return 1;
      }
  }

  app = xrlab_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
