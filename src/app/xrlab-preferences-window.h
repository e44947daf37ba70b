/* xrlab-preferences-window.h -- the preferences, bound to GSettings
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define XRLAB_TYPE_PREFERENCES_WINDOW (xrlab_preferences_window_get_type ())
G_DECLARE_FINAL_TYPE (XrlabPreferencesWindow, xrlab_preferences_window, XRLAB, PREFERENCES_WINDOW,
                      AdwPreferencesWindow)

GtkWidget *xrlab_preferences_window_new (GSettings *settings);

G_END_DECLS
