/* xrlab-application.c -- the xrlab application
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-application.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "xrlab-fit-page.h"
#include "xrlab-init.h"
#include "xrlab-plot.h"
#include "xrlab-preferences-window.h"
#include "xrlab-renderer.h"
#include "xrlab-window.h"

struct _XrlabApplication {
  AdwApplication parent_instance;

  GSettings *settings;
  gboolean restore;
  gboolean driver_checked;
  char *page;          /* --page */
  /* --models, --model, --baseline-model, --dynamics, --profile,
   * --baseline-profile: for a measurement opened from the command line */
  char *models, *model, *baseline_model;
  char **dynamics, **profiles, **baseline_profiles;
  double e0, e1, t0, t1, b0, b1;   /* --elim, --tlim, --baseline */
  gboolean pin_baseline;
  gboolean fit;                    /* --fit: once opened */
};

G_DEFINE_FINAL_TYPE (XrlabApplication, xrlab_application, ADW_TYPE_APPLICATION)

GSettingsSchema *
xrlab_application_find_schema (GError **error)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  GSettingsSchema *schema = NULL;

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, APPLICATION_ID, TRUE);
#ifdef XRLAB_BUILD_SCHEMA_DIR
  if (schema == NULL && g_file_test (XRLAB_BUILD_SCHEMA_DIR "/gschemas.compiled", G_FILE_TEST_EXISTS))
    {
      g_autoptr(GSettingsSchemaSource) build = NULL;
      build = g_settings_schema_source_new_from_directory (XRLAB_BUILD_SCHEMA_DIR, source, FALSE, NULL);
      if (build != NULL)
        schema = g_settings_schema_source_lookup (build, APPLICATION_ID, FALSE);
    }
#endif
  if (schema == NULL)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                 _("The settings schema %s is not installed. Install xrlab (meson install), "
                   "or point GSETTINGS_SCHEMA_DIR at the folder with its compiled schema."),
                 APPLICATION_ID);
  return schema;
}

static void
apply_color_scheme (XrlabApplication *self)
{
  static const AdwColorScheme schemes[] = {
    ADW_COLOR_SCHEME_DEFAULT, ADW_COLOR_SCHEME_FORCE_LIGHT, ADW_COLOR_SCHEME_FORCE_DARK,
  };
  int v = g_settings_get_enum (self->settings, "color-scheme");

  adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                      schemes[CLAMP (v, 0, (int) G_N_ELEMENTS (schemes) - 1)]);
}

/* ---- app.* actions -------------------------------------------------------------------- */

static void
action_quit (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  GList *windows = g_list_copy_deep (gtk_application_get_windows (GTK_APPLICATION (user_data)),
                                     (GCopyFunc) (void (*) (void)) g_object_ref, NULL);

  /* Close the windows properly: they save their session. */
  for (GList *l = windows; l != NULL; l = l->next)
    gtk_window_close (l->data);
  g_list_free_full (windows, g_object_unref);
}

/* The data xrlab computes with, and where each comes from. */
static const struct {
  const char *title;
  const char *text;
  const char *link_title;
  const char *url;
} data_credits[] = {
  { N_("Atomic scattering factors: Henke"),
    N_("B. L. Henke, E. M. Gullikson, J. C. Davis, X-ray interactions: photoabsorption, scattering, "
       "transmission, and reflection at E = 50–30000 eV, Z = 1–92, Atomic Data and Nuclear Data Tables "
       "54 (1993) 181–342; the updated tables of the Center for X-Ray Optics (CXRO), Lawrence Berkeley "
       "National Laboratory; public domain."),
    N_("CXRO X-ray database"), "https://henke.lbl.gov/optical_constants/" },
  { N_("Atomic scattering factors: Chantler"),
    N_("C. T. Chantler, Theoretical form factor, attenuation and scattering tabulation for Z = 1–92 from "
       "E = 1–10 eV to E = 0.4–1.0 MeV, J. Phys. Chem. Ref. Data 24 (1995) 71–643; C. T. Chantler, "
       "J. Phys. Chem. Ref. Data 29 (2000) 597–1048; as the NIST FFAST database (NIST Standard Reference "
       "Database 66), a work of the U.S. government."),
    N_("NIST FFAST database"), "https://physics.nist.gov/PhysRefData/FFast/html/form.html" },
  { N_("Absorption edges"),
    N_("xraylib: T. Schoonjans, A. Brunetti, B. Golosio, M. Sanchez del Rio, V. A. Solé, C. Ferrero, "
       "L. Vincze, The xraylib library for X-ray–matter interactions. Recent developments, Spectrochimica "
       "Acta B 66 (2011) 776–784; BSD licence."),
    N_("xraylib"), "https://github.com/tschoonj/xraylib" },
  { N_("Atomic weights"),
    N_("IUPAC/CIAAW standard atomic weights 2021: T. Prohaska et al., Pure Appl. Chem. 94 (2022) 573–600, "
       "the conventional values of the abridged table; deuterium and tritium from the Atomic Mass "
       "Evaluation AME2020: M. Wang et al., Chinese Physics C 45 (2021) 030003."),
    N_("CIAAW atomic weights"), "https://www.ciaaw.org" },
  { N_("Physical constants"),
    N_("CODATA 2018 recommended values: E. Tiesinga, P. J. Mohr, D. B. Newell, B. N. Taylor, Rev. Mod. "
       "Phys. 93 (2021) 025010."),
    N_("CODATA constants"), "https://physics.nist.gov/cuu/Constants/" },
};

guint
xrlab_application_get_n_data_credits (void)
{
  return G_N_ELEMENTS (data_credits);
}

const char *
xrlab_application_get_data_credit (guint i)
{
  g_return_val_if_fail (i < G_N_ELEMENTS (data_credits), NULL);
  return _(data_credits[i].text);
}

static void
action_about (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  GtkApplication *app = user_data;
  GtkWindow *parent = gtk_application_get_active_window (app);
  const char *developers[] = { "The xrlab developers", NULL };
  g_autofree char *debug_info = g_strdup_printf ("xrlab %s\nGTK %u.%u.%u, libadwaita %u.%u.%u\n%s\n",
                                                 PACKAGE_VERSION, gtk_get_major_version (),
                                                 gtk_get_minor_version (), gtk_get_micro_version (),
                                                 adw_get_major_version (), adw_get_minor_version (),
                                                 adw_get_micro_version (),
                                                 xrlab_renderer_choose (gdk_display_get_default ()));
  GtkWidget *about;

  about = g_object_new (ADW_TYPE_ABOUT_WINDOW,
                        "transient-for", parent,
                        "application-name", "xrlab",
                        "application-icon", APPLICATION_ID,
                        "developer-name", _("The xrlab developers"),
                        "version", PACKAGE_VERSION,
                        "comments", _("Optical constants of materials for X-rays: refractive index, "
                                      "absorption, critical angle and attenuation from the Henke and "
                                      "Chantler tables, explored live."),
                        "website", "https://github.com/xrlab/xrlab",
                        "issue-url", "https://github.com/xrlab/xrlab/issues",
                        "license-type", GTK_LICENSE_GPL_3_0,
                        "copyright", "© The xrlab developers",
                        "developers", developers,
                        "debug-info", debug_info,
                        /* TRANSLATORS: your name(s), one per line */
                        "translator-credits", _("translator-credits"),
                        NULL);
  for (guint i = 0; i < G_N_ELEMENTS (data_credits); i++)
    adw_about_window_add_legal_section (ADW_ABOUT_WINDOW (about), _(data_credits[i].title),
                                        _(data_credits[i].text), GTK_LICENSE_CUSTOM, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (data_credits); i++)
    if (data_credits[i].link_title != NULL)
      adw_about_window_add_link (ADW_ABOUT_WINDOW (about), _(data_credits[i].link_title), data_credits[i].url);
  gtk_window_present (GTK_WINDOW (about));
}

static void
action_preferences (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  XrlabApplication *self = user_data;
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (self));
  GtkWidget *prefs = xrlab_preferences_window_new (self->settings);

  gtk_window_set_transient_for (GTK_WINDOW (prefs), parent);
  gtk_window_present (GTK_WINDOW (prefs));
}

static void
action_shortcuts (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  GtkApplication *app = user_data;
  GtkWindow *parent = gtk_application_get_active_window (app);
  g_autoptr(GtkBuilder) builder = gtk_builder_new_from_resource ("/io/github/xrlab/Xrlab/xrlab-shortcuts-window.ui");
  GtkWindow *window = GTK_WINDOW (gtk_builder_get_object (builder, "shortcuts_window"));

  gtk_window_set_transient_for (window, parent);
  gtk_window_present (window);
}

static const GActionEntry app_actions[] = {
  { "quit", action_quit, NULL, NULL, NULL, { 0 } },
  { "about", action_about, NULL, NULL, NULL, { 0 } },
  { "preferences", action_preferences, NULL, NULL, NULL, { 0 } },
  { "shortcuts", action_shortcuts, NULL, NULL, NULL, { 0 } },
};

/* ---- GApplication ---------------------------------------------------------------------- */

static void
xrlab_application_startup (GApplication *app)
{
  XrlabApplication *self = XRLAB_APPLICATION (app);
  static const struct {
    const char *action;
    const char *accels[3];
  } accels[] = {
    { "app.quit", { "<Control>q", NULL } },
    { "app.preferences", { "<Control>comma", NULL } },
    { "app.shortcuts", { "<Control>question", NULL } },
    { "window.close", { "<Control>w", NULL } },
    { "win.open-session", { "<Control>o", NULL } },
    { "win.save-session", { "<Control>s", NULL } },
    { "win.save-session-as", { "<Control><Shift>s", NULL } },
    { "win.export-csv", { "<Control>e", NULL } },
    { "win.export-plot", { "<Control><Shift>e", NULL } },
    { "win.add-material", { "<Control>n", NULL } },
    { "win.toggle-sidebar", { "F9", NULL } },
    { "win.show-page::plot", { "<Alt>1", NULL } },
    { "win.show-page::values", { "<Alt>2", NULL } },
    { "win.show-page::reflect", { "<Alt>3", NULL } },
    { "win.show-page::fit", { "<Alt>4", NULL } },
    { "win.toggle-x-log", { "<Control><Shift>x", NULL } },
    { "win.toggle-y-log", { "<Control><Shift>y", NULL } },
    { "win.copy-values", { "<Control><Shift>c", NULL } },
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(GSettingsSchema) schema = NULL;

  G_APPLICATION_CLASS (xrlab_application_parent_class)->startup (app);

  /* Before the first window is realised: GTK picks its renderer then. */
  xrlab_renderer_choose (gdk_display_get_default ());
  xrlab_init ();
  schema = xrlab_application_find_schema (&error);
  if (schema == NULL)
    {
      /* main() checks this before running; only a broken install gets here. */
      g_printerr ("xrlab: %s\n", error->message);
      exit (1);
    }
  self->settings = g_settings_new_full (schema, NULL, NULL);
  g_signal_connect_object (self->settings, "changed::color-scheme", G_CALLBACK (apply_color_scheme),
                           self, G_CONNECT_SWAPPED);
  apply_color_scheme (self);

  g_action_map_add_action_entries (G_ACTION_MAP (app), app_actions, G_N_ELEMENTS (app_actions), app);
  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (app), accels[i].action, accels[i].accels);
}

static void
check_driver (XrlabApplication *self, GtkWindow *window)
{
  g_autoptr(GError) error = NULL;
  GtkWidget *dialog;

  if (self->driver_checked)
    return;
  self->driver_checked = TRUE;
  if (xrlab_plot_check_driver (&error))
    return;
  dialog = adw_message_dialog_new (window, _("Plots are not available"), error->message);
  adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "close", _("_Close"));
  gtk_window_present (GTK_WINDOW (dialog));
}

static XrlabWindow *
new_window (XrlabApplication *self)
{
  XrlabWindow *window = xrlab_window_new (GTK_APPLICATION (self), self->settings,
                                          self->restore && g_settings_get_boolean (self->settings, "restore-session"));
  if (self->page != NULL)
    adw_view_stack_set_visible_child_name (xrlab_window_get_view_stack (window), self->page);
  return window;
}

/* Paths as absolute ones: the primary instance may run elsewhere. */
static char *
absolute (const char *path)
{
  return path != NULL ? g_canonicalize_filename (path, NULL) : NULL;
}

/* The strings of @option ("PAR=FILE:MODEL...") into *@out, each FILE made
 * absolute (the primary instance may run elsewhere). */
static void
take_attachments (GVariantDict *options, const char *option, char ***out)
{
  const char **list = NULL;

  if (!g_variant_dict_lookup (options, option, "^a&s", &list))
    return;
  g_strfreev (*out);
  *out = g_strdupv ((char **) list);
  g_free (list);
  for (guint i = 0; (*out)[i] != NULL; i++)
    {
      char *eq = strchr ((*out)[i], '='), *colon = strrchr ((*out)[i], ':');
      if (eq != NULL && colon != NULL && colon > eq + 1)
        {
          g_autofree char *file = g_strndup (eq + 1, colon - eq - 1);
          g_autofree char *abs = absolute (file);
          g_autofree char *par = g_strndup ((*out)[i], eq - (*out)[i]);
          char *joined = g_strdup_printf ("%s=%s%s", par, abs, colon);
          g_free ((*out)[i]);
          (*out)[i] = joined;
        }
    }
}

static int
handle_fit_options (XrlabApplication *self, GVariantDict *options)
{
  const char *s = NULL;

  if (g_variant_dict_lookup (options, "models", "^&ay", &s))
    {
      g_free (self->models);
      self->models = absolute (s);
    }
  if (g_variant_dict_lookup (options, "model", "&s", &s))
    {
      g_free (self->model);
      self->model = g_strdup (s);
    }
  if (g_variant_dict_lookup (options, "baseline-model", "&s", &s))
    {
      g_free (self->baseline_model);
      self->baseline_model = g_strdup (s);
    }
  take_attachments (options, "dynamics", &self->dynamics);
  take_attachments (options, "profile", &self->profiles);
  take_attachments (options, "baseline-profile", &self->baseline_profiles);
  {
    static const char *const names[] = { "elim", "tlim", "baseline" };
    double *v[][2] = { { &self->e0, &self->e1 }, { &self->t0, &self->t1 }, { &self->b0, &self->b1 } };

    for (guint i = 0; i < G_N_ELEMENTS (names); i++)
      if (g_variant_dict_lookup (options, names[i], "&s", &s) && !xrlab_fit_parse_range (s, v[i][0], v[i][1]))
        {
          g_printerr (_("xrlab: --%s “%s”: expected FROM:TO\n"), names[i], s);
          return 2;
        }
  }
  if (g_variant_dict_contains (options, "pin-baseline"))
    self->pin_baseline = TRUE;
  if (g_variant_dict_contains (options, "fit"))
    self->fit = TRUE;
  if (self->model != NULL && self->models == NULL)
    {
      g_printerr (_("xrlab: --model needs --models FILE\n"));
      return 2;
    }
  return -1;
}

static int
xrlab_application_handle_local_options (GApplication *app,
                                        GVariantDict *options)
{
  XrlabApplication *self = XRLAB_APPLICATION (app);
  const char *page = NULL;

  if (g_variant_dict_lookup (options, "page", "&s", &page))
    {
      if (!g_str_equal (page, "plot") && !g_str_equal (page, "values") && !g_str_equal (page, "reflect")
          && !g_str_equal (page, "fit"))
        {
          g_printerr (_("xrlab: --page must be “plot”, “values”, “reflect” or “fit”, not “%s”\n"), page);
          return 2;
        }
      g_free (self->page);
      self->page = g_strdup (page);
    }
  return handle_fit_options (self, options);
}

static void
xrlab_application_activate (GApplication *app)
{
  XrlabApplication *self = XRLAB_APPLICATION (app);
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (app));

  if (window == NULL)
    window = GTK_WINDOW (new_window (self));
  gtk_window_present (window);
  check_driver (self, window);
}

/* A measurement rather than a session: a folder, or a data file. */
static gboolean
is_measurement (const char *path)
{
  static const char *const suffixes[] = { ".csv", ".txt", ".dat", ".h5", ".hdf5", ".nxs" };
  g_autofree char *lower = g_ascii_strdown (path, -1);

  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    if (g_str_has_suffix (lower, suffixes[i]))
      return TRUE;
  return FALSE;
}

static void
fit_once_opened (XrlabFitPage *page)
{
  g_signal_handlers_disconnect_by_func (page, fit_once_opened, NULL);
  xrlab_fit_page_run (page, XRLAB_FIT_PAGE_JOB_ALL);
}

static void
open_measurement (XrlabApplication *self, XrlabWindow *window, const char *path)
{
  XrlabFitWorkspace ws;

  xrlab_fit_workspace_init (&ws);
  ws.data = g_strdup (path);
  ws.models = g_strdup (self->models);
  ws.model = g_strdup (self->model);
  ws.baseline_model = g_strdup (self->baseline_model);
  ws.dynamics = g_strdupv (self->dynamics);
  ws.profiles = g_strdupv (self->profiles);
  ws.baseline_profiles = g_strdupv (self->baseline_profiles);
  ws.e0 = self->e0, ws.e1 = self->e1, ws.t0 = self->t0, ws.t1 = self->t1;
  ws.b0 = self->b0, ws.b1 = self->b1;
  ws.pin_baseline = self->pin_baseline;
  adw_view_stack_set_visible_child_name (xrlab_window_get_view_stack (window), "fit");
  if (self->fit)
    g_signal_connect (xrlab_window_get_fit_page (window), "opened", G_CALLBACK (fit_once_opened), NULL);
  xrlab_fit_page_open (xrlab_window_get_fit_page (window), &ws);
  xrlab_fit_workspace_clear (&ws);
}

static void
xrlab_application_open (GApplication  *app,
                        GFile        **files,
                        int            n_files,
                        const char    *hint)
{
  XrlabApplication *self = XRLAB_APPLICATION (app);
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (app));
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;

  if (window == NULL)
    window = GTK_WINDOW (new_window (self));
  gtk_window_present (window);
  check_driver (self, window);
  if (n_files < 1)
    return;
  path = g_file_get_path (files[0]);
  if (path != NULL && is_measurement (path))
    {
      open_measurement (self, XRLAB_WINDOW (window), path);
      return;
    }
  if (path == NULL || !xrlab_window_open_session_file (XRLAB_WINDOW (window), path, &error))
    {
      g_autofree char *name = g_file_get_basename (files[0]);
      g_autofree char *heading = g_strdup_printf (_("“%s” was not opened"), name);
      GtkWidget *dialog = adw_message_dialog_new (window, heading,
                                                  error != NULL ? error->message
                                                                : _("Only local files can be opened."));
      adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "close", _("_Close"));
      gtk_window_present (GTK_WINDOW (dialog));
    }
}

static void
xrlab_application_dispose (GObject *object)
{
  XrlabApplication *self = XRLAB_APPLICATION (object);

  g_clear_object (&self->settings);
  g_clear_pointer (&self->page, g_free);
  g_clear_pointer (&self->models, g_free);
  g_clear_pointer (&self->model, g_free);
  g_clear_pointer (&self->baseline_model, g_free);
  g_clear_pointer (&self->dynamics, g_strfreev);
  g_clear_pointer (&self->profiles, g_strfreev);
  g_clear_pointer (&self->baseline_profiles, g_strfreev);
  G_OBJECT_CLASS (xrlab_application_parent_class)->dispose (object);
}

static void
xrlab_application_class_init (XrlabApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->dispose = xrlab_application_dispose;
  app_class->startup = xrlab_application_startup;
  app_class->activate = xrlab_application_activate;
  app_class->open = xrlab_application_open;
  app_class->handle_local_options = xrlab_application_handle_local_options;
}

static void
xrlab_application_init (XrlabApplication *self)
{
  self->restore = TRUE;
  self->e0 = self->e1 = self->t0 = self->t1 = self->b0 = self->b1 = NAN;
  g_application_add_main_option (G_APPLICATION (self), "page", 0, 0, G_OPTION_ARG_STRING,
                                 _("Start on the plot, the values table, the reflectivity or the fit page"),
                                 "plot|values|reflect|fit");
  g_application_add_main_option (G_APPLICATION (self), "models", 0, 0, G_OPTION_ARG_FILENAME,
                                 _("The model file of a measurement opened (trspecfit’s YAML)"), "FILE");
  g_application_add_main_option (G_APPLICATION (self), "model", 0, 0, G_OPTION_ARG_STRING,
                                 _("The model of the model file to fit"), "NAME");
  g_application_add_main_option (G_APPLICATION (self), "baseline-model", 0, 0, G_OPTION_ARG_STRING,
                                 _("The model of the baseline spectrum"), "NAME");
  g_application_add_main_option (G_APPLICATION (self), "dynamics", 0, 0, G_OPTION_ARG_STRING_ARRAY,
                                 _("Time dependence of a parameter, as xrlab-cli fit takes it"),
                                 "PAR=FILE:MODEL");
  g_application_add_main_option (G_APPLICATION (self), "profile", 0, 0, G_OPTION_ARG_STRING_ARRAY,
                                 _("A profile of a parameter, as xrlab-cli fit takes it"), "PAR=FILE:MODEL");
  g_application_add_main_option (G_APPLICATION (self), "baseline-profile", 0, 0, G_OPTION_ARG_STRING_ARRAY,
                                 _("A profile of a baseline model's parameter"), "PAR=FILE:MODEL");
  g_application_add_main_option (G_APPLICATION (self), "elim", 0, 0, G_OPTION_ARG_STRING,
                                 _("The energies fitted"), "FROM:TO");
  g_application_add_main_option (G_APPLICATION (self), "tlim", 0, 0, G_OPTION_ARG_STRING,
                                 _("The delays fitted"), "FROM:TO");
  g_application_add_main_option (G_APPLICATION (self), "baseline", 0, 0, G_OPTION_ARG_STRING,
                                 _("The delays of the baseline spectrum"), "FROM:TO");
  g_application_add_main_option (G_APPLICATION (self), "pin-baseline", 0, 0, G_OPTION_ARG_NONE,
                                 _("Fix what the baseline fit found, as xrlab-cli fit --pin-baseline"), NULL);
  g_application_add_main_option (G_APPLICATION (self), "fit", 0, 0, G_OPTION_ARG_NONE,
                                 _("Fit the measurement opened: its baseline, then the 2D fit"), NULL);
}

XrlabApplication *
xrlab_application_new (void)
{
  return g_object_new (XRLAB_TYPE_APPLICATION,
                       "application-id", APPLICATION_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN,
                       "resource-base-path", "/io/github/xrlab/Xrlab",
                       NULL);
}

GSettings *
xrlab_application_get_settings (XrlabApplication *self)
{
  g_return_val_if_fail (XRLAB_IS_APPLICATION (self), NULL);
  return self->settings;
}

void
xrlab_application_set_restore (XrlabApplication *self,
                               gboolean          restore)
{
  g_return_if_fail (XRLAB_IS_APPLICATION (self));
  self->restore = restore;
}
