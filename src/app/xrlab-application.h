/* xrlab-application.h -- the xrlab application (io.github.xrlab.Xrlab)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define XRLAB_TYPE_APPLICATION (xrlab_application_get_type ())
G_DECLARE_FINAL_TYPE (XrlabApplication, xrlab_application, XRLAB, APPLICATION, AdwApplication)

XrlabApplication *xrlab_application_new          (void);
GSettings        *xrlab_application_get_settings (XrlabApplication *self);

/* Looks the GSettings schema up: installed, then the build tree's
 * compiled schemas (running uninstalled). NULL with @error when neither. */
GSettingsSchema  *xrlab_application_find_schema  (GError **error);

/* Starts new windows with the example instead of the saved session (tests). */
void              xrlab_application_set_restore  (XrlabApplication *self,
                                                  gboolean          restore);

/* The data credits of the About window (translated), for tests. */
guint       xrlab_application_get_n_data_credits (void);
const char *xrlab_application_get_data_credit    (guint i);

G_END_DECLS
