/* xrlab-fit-page-dynamics.c -- time dependence and profiles of the Fit
 * page's parameters: attached from a trspecfit model file (the models of
 * the file chosen, a multi-cycle time dependence with its frequency) or
 * built from the palette's time functions, kernels and profile functions,
 * subcycle by subcycle; detached
 *
 * Every change is one request of structure edits to the fit service
 * (xrlab_fit_page_send_model_edits()): ATTACH_FILE; ATTACH_NEW followed by
 * an ADD_SUBCYCLE per subcycle; DETACH. A refused request leaves the model
 * as it was and shows its message on the page.
 *
 * The rows of the baseline model have the same menu with what applies to
 * it, a profile (as xrlab-cli fit's --baseline-profile): it fits one
 * spectrum, so takes no time dependence, and a joint fit shares the main
 * model's parameters only. Its edits name the baseline model.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-fit-page-private.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "xrlab-engine-fit-model.h"

/* ---- the edits ------------------------------------------------------------------ */

static void
attach_file (XrlabFitPage *self, XrlabFitModelRole role, const char *param, gboolean profile, const char *file,
             const char *const *models, double frequency)
{
  XrlabModelEdit e = { 0 };

  e.kind = XRLAB_MODEL_EDIT_ATTACH_FILE;
  e.part = profile ? XRLAB_MODEL_PART_PROFILE : XRLAB_MODEL_PART_DYNAMICS;
  e.param = param;
  e.file = file;
  e.models = models;
  e.n_models = g_strv_length ((char **) models);
  e.frequency = profile ? 0 : frequency;
  xrlab_fit_page_send_model_edits_for (self, role, &e, 1);
}

void
xrlab_fit_page_attach_file (XrlabFitPage *self, const char *param, gboolean profile, const char *file,
                            const char *const *models, double frequency)
{
  g_return_if_fail (XRLAB_IS_FIT_PAGE (self));
  g_return_if_fail (param != NULL && file != NULL && models != NULL);
  attach_file (self, XRLAB_FIT_MODEL_MAIN, param, profile, file, models, frequency);
}

/* "gaussCONV, expFun" as a list of functions; "" and "none" are none. */
static char **
split_functions (const char *cycle)
{
  g_auto(GStrv) parts = g_strsplit (cycle != NULL ? cycle : "", ",", -1);
  GPtrArray *out = g_ptr_array_new ();

  for (guint i = 0; parts[i] != NULL; i++)
    {
      char *f = g_strstrip (parts[i]);
      if (*f != '\0' && strcmp (f, "none") != 0)
        g_ptr_array_add (out, g_strdup (f));
    }
  g_ptr_array_add (out, NULL);
  return (char **) g_ptr_array_free (out, FALSE);
}

static void
attach_new (XrlabFitPage *self, XrlabFitModelRole role, const char *param, gboolean profile,
            const char *const *cycles, double frequency)
{
  static const char *const none[] = { "none", NULL };
  guint n;
  g_autofree XrlabModelEdit *e = NULL;
  g_autoptr(GPtrArray) lists = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);

  n = profile ? 1 : g_strv_length ((char **) cycles);
  e = g_new0 (XrlabModelEdit, n);
  for (guint k = 0; k < n; k++)
    {
      char **fns = split_functions (cycles[k]);

      g_ptr_array_add (lists, fns);
      e[k].part = profile ? XRLAB_MODEL_PART_PROFILE : XRLAB_MODEL_PART_DYNAMICS;
      e[k].param = param;
      e[k].functions = (const char *const *) fns;
      e[k].n_functions = g_strv_length (fns);
      if (k == 0)
        {
          e[k].kind = XRLAB_MODEL_EDIT_ATTACH_NEW;
          if (e[k].n_functions == 0 && !profile)
            e[k].functions = none, e[k].n_functions = 1;
        }
      else
        {
          e[k].kind = XRLAB_MODEL_EDIT_ADD_SUBCYCLE;
          e[k].position = -1;
          e[k].frequency = k == 1 ? frequency : 0;
        }
    }
  xrlab_fit_page_send_model_edits_for (self, role, e, n);
}

void
xrlab_fit_page_attach_new (XrlabFitPage *self, const char *param, gboolean profile,
                           const char *const *cycles, double frequency)
{
  g_return_if_fail (XRLAB_IS_FIT_PAGE (self));
  g_return_if_fail (param != NULL && cycles != NULL && cycles[0] != NULL);
  attach_new (self, XRLAB_FIT_MODEL_MAIN, param, profile, cycles, frequency);
}

static void
detach (XrlabFitPage *self, XrlabFitModelRole role, const char *param, gboolean profile)
{
  XrlabModelEdit e = { 0 };

  e.kind = XRLAB_MODEL_EDIT_DETACH;
  e.part = profile ? XRLAB_MODEL_PART_PROFILE : XRLAB_MODEL_PART_DYNAMICS;
  e.param = param;
  xrlab_fit_page_send_model_edits_for (self, role, &e, 1);
}

void
xrlab_fit_page_detach (XrlabFitPage *self, const char *param, gboolean profile)
{
  g_return_if_fail (XRLAB_IS_FIT_PAGE (self));
  detach (self, XRLAB_FIT_MODEL_MAIN, param, profile);
}

/* ---- the dialog -------------------------------------------------------------------- */

typedef struct {
  XrlabFitPage *page;
  XrlabFitModelRole role;          /* the model of @param */
  char *param;
  gboolean profile;
  GtkWindow *window;
  GtkStack *stack;                 /* "file", "new" */
  GtkLabel *message;
  /* from a file */
  char *file;
  GtkLabel *file_label;
  GtkListBox *model_list;
  GPtrArray *model_checks;         /* GtkCheckButton, "model" its name */
  /* built */
  GtkBox *cycles_box;
  GPtrArray *cycles;               /* GPtrArray of function names (static, the palette's) */
  GtkWidget *add_subcycle;
  GtkEntry *frequency;
  guint show_id;                   /* the cycles shown again after a click */
} AttachDialog;

static void
attach_dialog_free (gpointer data)
{
  AttachDialog *d = data;

  g_clear_handle_id (&d->show_id, g_source_remove);
  g_object_unref (d->page);
  g_free (d->param);
  g_free (d->file);
  g_ptr_array_unref (d->model_checks);
  g_ptr_array_unref (d->cycles);
  g_free (d);
}

static void
dialog_message (AttachDialog *d, const char *text)
{
  gtk_label_set_text (d->message, text != NULL ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (d->message), text != NULL);
}

/* The models of @d->file as check buttons (a profile: one of them). */
static void
show_models (AttachDialog *d)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(XrlabModelFile) file = d->file != NULL ? xrlab_model_file_load (d->file, &error) : NULL;
  GtkWidget *child;
  GtkCheckButton *group = NULL;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (d->model_list))) != NULL)
    gtk_list_box_remove (d->model_list, child);
  g_ptr_array_set_size (d->model_checks, 0);
  if (d->file != NULL)
    {
      g_autofree char *base = g_path_get_basename (d->file);
      gtk_label_set_text (d->file_label, base);
      gtk_widget_set_tooltip_text (GTK_WIDGET (d->file_label), d->file);
    }
  dialog_message (d, error != NULL ? error->message : NULL);
  for (gsize i = 0; file != NULL && i < xrlab_model_file_n_models (file); i++)
    {
      const char *name = xrlab_model_file_model_name (file, i);
      GtkWidget *check = gtk_check_button_new_with_label (name);

      g_object_set_data_full (G_OBJECT (check), "model", g_strdup (name), g_free);
      if (d->profile)
        {
          if (group != NULL)
            gtk_check_button_set_group (GTK_CHECK_BUTTON (check), group);
          else
            group = GTK_CHECK_BUTTON (check);
        }
      gtk_widget_set_margin_start (check, 6);
      gtk_widget_set_margin_top (check, 3);
      gtk_widget_set_margin_bottom (check, 3);
      g_ptr_array_add (d->model_checks, check);
      gtk_list_box_append (d->model_list, check);
    }
}

static void
on_file_chosen (GtkNativeDialog *native, int response, AttachDialog *d)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (native));
      g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;

      if (path != NULL)
        {
          g_free (d->file);
          d->file = g_steal_pointer (&path);
          show_models (d);
        }
    }
  g_object_unref (native);
}

static void
on_choose_file (GtkButton *button, AttachDialog *d)
{
  GtkFileChooserNative *native = gtk_file_chooser_native_new (_("Open Model File"), d->window,
                                                              GTK_FILE_CHOOSER_ACTION_OPEN, NULL, NULL);

  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (native), TRUE);
  if (d->file != NULL)
    {
      g_autoptr(GFile) f = g_file_new_for_path (d->file);
      gtk_file_chooser_set_file (GTK_FILE_CHOOSER (native), f, NULL);
    }
  g_signal_connect (native, "response", G_CALLBACK (on_file_chosen), d);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
}

/* The file to start with: trspecfit's examples keep the time and profile
 * models beside the energy models (models_time.yaml, models_profile.yaml);
 * else the workspace's own model file. */
static char *
default_file (XrlabFitPage *page, gboolean profile)
{
  g_autofree char *dir = NULL;
  g_autofree char *beside = NULL;

  if (page->ws.models == NULL)
    return NULL;
  dir = g_path_get_dirname (page->ws.models);
  beside = g_build_filename (dir, profile ? "models_profile.yaml" : "models_time.yaml", NULL);
  return g_file_test (beside, G_FILE_TEST_IS_REGULAR) ? g_steal_pointer (&beside) : g_strdup (page->ws.models);
}

static GtkWidget *
build_file_page (AttachDialog *d)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *choose = gtk_button_new_with_mnemonic (_("_Choose…"));
  GtkWidget *scroll = gtk_scrolled_window_new ();
  GtkWidget *hint = gtk_label_new (d->profile ? _("The profile model of the file:")
                                              : _("The models of the file: the first one chosen acts on "
                                                  "every delay, the others are subcycles, in the "
                                                  "file’s order."));

  d->file_label = GTK_LABEL (gtk_label_new (_("No file")));
  gtk_label_set_xalign (d->file_label, 0);
  gtk_label_set_ellipsize (d->file_label, PANGO_ELLIPSIZE_MIDDLE);
  gtk_widget_set_hexpand (GTK_WIDGET (d->file_label), TRUE);
  g_signal_connect (choose, "clicked", G_CALLBACK (on_choose_file), d);
  gtk_box_append (GTK_BOX (row), GTK_WIDGET (d->file_label));
  gtk_box_append (GTK_BOX (row), choose);
  gtk_label_set_wrap (GTK_LABEL (hint), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (hint), 60);
  gtk_label_set_xalign (GTK_LABEL (hint), 0);
  gtk_widget_add_css_class (hint, "dim-label");
  d->model_list = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (d->model_list, GTK_SELECTION_NONE);
  gtk_widget_add_css_class (GTK_WIDGET (d->model_list), "boxed-list");
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroll), GTK_WIDGET (d->model_list));
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroll), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scroll), TRUE);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scroll), 260);
  gtk_box_append (GTK_BOX (box), row);
  gtk_box_append (GTK_BOX (box), hint);
  gtk_box_append (GTK_BOX (box), scroll);
  d->file = default_file (d->page, d->profile);
  show_models (d);
  return box;
}

/* ---- building from functions ---------------------------------------------------------- */

static void show_cycles (AttachDialog *d);

static gboolean
show_cycles_idle (gpointer data)
{
  AttachDialog *d = data;

  d->show_id = 0;
  show_cycles (d);
  return G_SOURCE_REMOVE;
}

/* The rows are rebuilt after the click that changed them has been handled. */
static void
show_cycles_later (AttachDialog *d)
{
  if (d->show_id == 0)
    d->show_id = g_idle_add (show_cycles_idle, d);
}

static void
on_function_chosen (GtkListBox *list, const char *function, gpointer data)
{
  AttachDialog *d = data;
  GtkWidget *button = gtk_widget_get_ancestor (GTK_WIDGET (list), GTK_TYPE_MENU_BUTTON);
  guint k = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "cycle"));

  g_ptr_array_add (g_ptr_array_index (d->cycles, k), (gpointer) function);
  show_cycles_later (d);
}

/* The time functions and kernels (or the profile functions) of the
 * palette, for cycle @k. */
static GtkWidget *
function_palette (AttachDialog *d, guint k)
{
  GtkWidget *button = xrlab_fit_page_time_palette (d->profile, on_function_chosen, d);

  g_object_set_data (G_OBJECT (button), "cycle", GUINT_TO_POINTER (k));
  return button;
}

static void
on_remove_function (GtkButton *button, AttachDialog *d)
{
  guint k = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "cycle"));
  guint i = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "index"));
  GPtrArray *fns = g_ptr_array_index (d->cycles, k);

  if (i < fns->len)
    g_ptr_array_remove_index (fns, i);
  show_cycles_later (d);
}

static void
on_remove_subcycle (GtkButton *button, AttachDialog *d)
{
  guint k = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "cycle"));

  if (k > 0 && k < d->cycles->len)
    g_ptr_array_remove_index (d->cycles, k);
  show_cycles_later (d);
}

static void
on_add_subcycle (GtkButton *button, AttachDialog *d)
{
  g_ptr_array_add (d->cycles, g_ptr_array_new ());
  show_cycles (d);
}

static GtkWidget *
small_button (const char *icon, const char *tooltip, guint k, guint index, GCallback callback, AttachDialog *d)
{
  GtkWidget *b = gtk_button_new_from_icon_name (icon);

  gtk_widget_add_css_class (b, "flat");
  gtk_widget_set_tooltip_text (b, tooltip);
  g_object_set_data (G_OBJECT (b), "cycle", GUINT_TO_POINTER (k));
  g_object_set_data (G_OBJECT (b), "index", GUINT_TO_POINTER (index));
  g_signal_connect (b, "clicked", callback, d);
  return b;
}

/* One row of cycle @k: its title, its functions (each removable), the
 * palette. */
static GtkWidget *
cycle_row (AttachDialog *d, guint k)
{
  GPtrArray *fns = g_ptr_array_index (d->cycles, k);
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *title;
  g_autofree char *t = NULL;

  if (d->profile)
    t = g_strdup (_("Profile"));
  else if (k == 0)
    t = g_strdup (_("Every delay"));
  else
    /* TRANSLATORS: a subcycle of a multi-cycle time dependence */
    t = g_strdup_printf (_("Subcycle %u"), k);
  title = gtk_label_new (t);
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_width_chars (GTK_LABEL (title), 12);
  gtk_widget_add_css_class (title, "heading");
  gtk_box_append (GTK_BOX (row), title);
  if (fns->len == 0)
    {
      GtkWidget *none = gtk_label_new (_("none"));
      gtk_widget_add_css_class (none, "dim-label");
      gtk_box_append (GTK_BOX (row), none);
    }
  for (guint i = 0; i < fns->len; i++)
    {
      GtkWidget *chip = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
      gtk_box_append (GTK_BOX (chip), gtk_label_new (g_ptr_array_index (fns, i)));
      gtk_box_append (GTK_BOX (chip), small_button ("window-close-symbolic", _("Remove"), k, i,
                                                    G_CALLBACK (on_remove_function), d));
      gtk_widget_add_css_class (chip, "card");
      gtk_widget_set_valign (chip, GTK_ALIGN_CENTER);
      gtk_widget_set_margin_start (gtk_widget_get_first_child (chip), 8);
      gtk_box_append (GTK_BOX (row), chip);
    }
  gtk_box_append (GTK_BOX (row), function_palette (d, k));
  if (k > 0)
    {
      GtkWidget *spacer = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
      gtk_widget_set_hexpand (spacer, TRUE);
      gtk_box_append (GTK_BOX (row), spacer);
      gtk_box_append (GTK_BOX (row), small_button ("user-trash-symbolic", _("Remove the subcycle"), k, 0,
                                                   G_CALLBACK (on_remove_subcycle), d));
    }
  gtk_widget_set_margin_start (row, 6);
  gtk_widget_set_margin_end (row, 6);
  gtk_widget_set_margin_top (row, 4);
  gtk_widget_set_margin_bottom (row, 4);
  return row;
}

static void
show_cycles (AttachDialog *d)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (d->cycles_box))) != NULL)
    gtk_box_remove (d->cycles_box, child);
  for (guint k = 0; k < d->cycles->len; k++)
    gtk_box_append (d->cycles_box, cycle_row (d, k));
}

static GtkWidget *
build_new_page (AttachDialog *d)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *hint = gtk_label_new (d->profile ? _("A profile over the auxiliary axis, from the profile "
                                                  "functions.")
                                              : _("The time functions and kernels of every delay; "
                                                  "subcycles repeat within each period of the "
                                                  "frequency. A kernel convolves the functions after "
                                                  "it."));

  gtk_label_set_wrap (GTK_LABEL (hint), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (hint), 60);
  gtk_label_set_xalign (GTK_LABEL (hint), 0);
  gtk_widget_add_css_class (hint, "dim-label");
  d->cycles_box = GTK_BOX (gtk_box_new (GTK_ORIENTATION_VERTICAL, 0));
  gtk_widget_add_css_class (GTK_WIDGET (d->cycles_box), "card");
  g_ptr_array_add (d->cycles, g_ptr_array_new ());
  show_cycles (d);
  gtk_box_append (GTK_BOX (box), hint);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (d->cycles_box));
  if (!d->profile)
    {
      d->add_subcycle = gtk_button_new_with_mnemonic (_("Add _Subcycle"));
      gtk_widget_set_halign (d->add_subcycle, GTK_ALIGN_START);
      g_signal_connect (d->add_subcycle, "clicked", G_CALLBACK (on_add_subcycle), d);
      gtk_box_append (GTK_BOX (box), d->add_subcycle);
    }
  return box;
}

/* ---- attaching ------------------------------------------------------------------------- */

/* The frequency typed: 0 when empty; FALSE when it is not a positive number. */
static gboolean
get_frequency (AttachDialog *d, double *freq)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (d->frequency));
  char *end = NULL;

  *freq = 0;
  while (g_ascii_isspace (*text))
    text++;
  if (*text == '\0')
    return TRUE;
  *freq = g_ascii_strtod (text, &end);
  return end != NULL && *end == '\0' && isfinite (*freq) && *freq > 0;
}

static gboolean
attach_from_file (AttachDialog *d, double freq)
{
  g_autoptr(GPtrArray) models = g_ptr_array_new ();

  for (guint i = 0; i < d->model_checks->len; i++)
    {
      GtkCheckButton *c = g_ptr_array_index (d->model_checks, i);
      if (gtk_check_button_get_active (c))
        g_ptr_array_add (models, g_object_get_data (G_OBJECT (c), "model"));
    }
  if (models->len == 0)
    {
      dialog_message (d, _("Choose a model of the file"));
      return FALSE;
    }
  if (models->len > 1 && freq <= 0)
    {
      dialog_message (d, _("Subcycles need a frequency"));
      return FALSE;
    }
  g_ptr_array_add (models, NULL);
  attach_file (d->page, d->role, d->param, d->profile, d->file, (const char *const *) models->pdata,
               models->len > 2 ? freq : 0);
  return TRUE;
}

static gboolean
attach_built (AttachDialog *d, double freq)
{
  g_autoptr(GPtrArray) cycles = g_ptr_array_new_with_free_func (g_free);

  if (((GPtrArray *) g_ptr_array_index (d->cycles, 0))->len == 0 && (d->profile || d->cycles->len == 1))
    {
      dialog_message (d, _("Add a function"));
      return FALSE;
    }
  if (d->cycles->len > 1 && freq <= 0)
    {
      dialog_message (d, _("Subcycles need a frequency"));
      return FALSE;
    }
  for (guint k = 0; k < d->cycles->len; k++)
    {
      GPtrArray *fns = g_ptr_array_index (d->cycles, k);
      g_ptr_array_add (fns, NULL);
      g_ptr_array_add (cycles, g_strjoinv (",", (char **) fns->pdata));
      g_ptr_array_remove_index (fns, fns->len - 1);
    }
  g_ptr_array_add (cycles, NULL);
  attach_new (d->page, d->role, d->param, d->profile, (const char *const *) cycles->pdata, freq);
  return TRUE;
}

/* The Attach button, or Enter in the frequency. */
static void
on_attach (GtkWidget *widget, AttachDialog *d)
{
  double freq = 0;
  gboolean ok;

  if (!d->profile && !get_frequency (d, &freq))
    {
      dialog_message (d, _("The frequency is not a positive number"));
      return;
    }
  if (g_strcmp0 (gtk_stack_get_visible_child_name (d->stack), "file") == 0)
    ok = attach_from_file (d, freq);
  else
    ok = attach_built (d, freq);
  if (ok)
    gtk_window_destroy (d->window);
}

static GtkWidget *
build_frequency (AttachDialog *d)
{
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *label = gtk_label_new_with_mnemonic (_("_Frequency"));

  d->frequency = GTK_ENTRY (gtk_entry_new ());
  gtk_entry_set_placeholder_text (d->frequency, _("none"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (d->frequency),
                               _("How often the subcycles repeat: 1 / the period, in the units of the "
                                 "delay axis (empty: no subcycles)"));
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), GTK_WIDGET (d->frequency));
  gtk_widget_set_hexpand (GTK_WIDGET (d->frequency), TRUE);
  gtk_box_append (GTK_BOX (row), label);
  gtk_box_append (GTK_BOX (row), GTK_WIDGET (d->frequency));
  g_signal_connect (d->frequency, "activate", G_CALLBACK (on_attach), d);
  return row;
}

/* The dialog for @param of the model @role. */
static GtkWindow *
show_attach_dialog (XrlabFitPage *self, XrlabFitModelRole role, const char *param, gboolean profile)
{
  AttachDialog *d = g_new0 (AttachDialog, 1);
  GtkWidget *window = adw_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *header = adw_header_bar_new ();
  GtkWidget *cancel = gtk_button_new_with_mnemonic (_("_Cancel"));
  GtkWidget *attach = gtk_button_new_with_mnemonic (_("_Attach"));
  GtkWidget *switcher = gtk_stack_switcher_new ();
  GtkWidget *body = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  g_autofree char *title = role == XRLAB_FIT_MODEL_BASELINE
                           /* TRANSLATORS: the dialog attaching a profile to parameter %s of the baseline model */
                           ? g_strdup_printf (_("Profile of %s in the Baseline Model"), param)
                           : g_strdup_printf (profile ? _("Profile of %s") : _("Time Dependence of %s"), param);

  d->page = g_object_ref (self);
  d->role = role;
  d->param = g_strdup (param);
  d->profile = profile;
  d->window = GTK_WINDOW (window);
  d->model_checks = g_ptr_array_new ();
  d->cycles = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  g_object_set_data_full (G_OBJECT (window), "xrlab-attach", d, attach_dialog_free);

  gtk_window_set_title (d->window, title);
  gtk_window_set_modal (d->window, TRUE);
  gtk_window_set_default_size (d->window, 520, -1);
  if (GTK_IS_WINDOW (root))
    gtk_window_set_transient_for (d->window, GTK_WINDOW (root));
  d->message = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (d->message, TRUE);
  gtk_label_set_max_width_chars (d->message, 60);
  gtk_label_set_xalign (d->message, 0);
  gtk_widget_add_css_class (GTK_WIDGET (d->message), "error");
  gtk_widget_set_visible (GTK_WIDGET (d->message), FALSE);
  d->stack = GTK_STACK (gtk_stack_new ());
  gtk_stack_add_titled (d->stack, build_file_page (d), "file", _("From a File"));
  gtk_stack_add_titled (d->stack, build_new_page (d), "new", _("New"));
  gtk_stack_switcher_set_stack (GTK_STACK_SWITCHER (switcher), d->stack);
  adw_header_bar_set_title_widget (ADW_HEADER_BAR (header), switcher);
  adw_header_bar_set_show_end_title_buttons (ADW_HEADER_BAR (header), FALSE);
  adw_header_bar_set_show_start_title_buttons (ADW_HEADER_BAR (header), FALSE);
  gtk_widget_add_css_class (attach, "suggested-action");
  g_signal_connect_swapped (cancel, "clicked", G_CALLBACK (gtk_window_destroy), window);
  g_signal_connect (attach, "clicked", G_CALLBACK (on_attach), d);
  adw_header_bar_pack_start (ADW_HEADER_BAR (header), cancel);
  adw_header_bar_pack_end (ADW_HEADER_BAR (header), attach);
  gtk_window_set_default_widget (d->window, attach);

  {
    GtkWidget *heading = gtk_label_new (title);
    gtk_widget_add_css_class (heading, "title-4");
    gtk_label_set_xalign (GTK_LABEL (heading), 0);
    gtk_box_append (GTK_BOX (body), heading);
  }
  gtk_box_append (GTK_BOX (body), GTK_WIDGET (d->stack));
  if (!profile)
    gtk_box_append (GTK_BOX (body), build_frequency (d));
  gtk_box_append (GTK_BOX (body), GTK_WIDGET (d->message));
  gtk_widget_set_margin_start (body, 18);
  gtk_widget_set_margin_end (body, 18);
  gtk_widget_set_margin_top (body, 12);
  gtk_widget_set_margin_bottom (body, 18);
  gtk_box_append (GTK_BOX (box), header);
  gtk_box_append (GTK_BOX (box), body);
  adw_window_set_content (ADW_WINDOW (window), box);
  gtk_window_present (d->window);
  return d->window;
}

GtkWindow *
xrlab_fit_page_show_attach_dialog (XrlabFitPage *self, const char *param, gboolean profile)
{
  g_return_val_if_fail (XRLAB_IS_FIT_PAGE (self), NULL);
  return show_attach_dialog (self, XRLAB_FIT_MODEL_MAIN, param, profile);
}

/* ---- the row's menu ---------------------------------------------------------------------- */

static void
on_menu_item (GtkButton *button, XrlabFitPage *self)
{
  const char *param = g_object_get_data (G_OBJECT (button), "param");
  int what = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (button), "what"));
  XrlabFitModelRole role = xrlab_fit_page_widget_role (GTK_WIDGET (button));
  GtkWidget *popover = gtk_widget_get_ancestor (GTK_WIDGET (button), GTK_TYPE_POPOVER);
  g_autofree char *name = g_strdup (param);

  if (popover != NULL)
    gtk_popover_popdown (GTK_POPOVER (popover));
  switch (what)
    {
    case 0:
    case 1:
      show_attach_dialog (self, role, name, what == 1);
      break;
    case 4:
    case 5:
    case 6:
      xrlab_fit_page_set_param_share (self, name, what == 4   ? XRLAB_PARAM_SHARE_PROJECT
                                                  : what == 5 ? XRLAB_PARAM_SHARE_FILE
                                                              : XRLAB_PARAM_SHARE_NONE);
      break;
    default:
      detach (self, role, name, what == 3);
      break;
    }
}

static void
menu_item (GtkWidget *box, XrlabFitPage *self, const char *label, const char *param, int what)
{
  GtkWidget *b = gtk_button_new_with_mnemonic (label);

  gtk_widget_add_css_class (b, "flat");
  gtk_label_set_xalign (GTK_LABEL (gtk_button_get_child (GTK_BUTTON (b))), 0);
  g_object_set_data_full (G_OBJECT (b), "param", g_strdup (param), g_free);
  g_object_set_data (G_OBJECT (b), "what", GINT_TO_POINTER (what));
  g_signal_connect (b, "clicked", G_CALLBACK (on_menu_item), self);
  gtk_box_append (GTK_BOX (box), b);
}

/* A row of the baseline model: a profile only (it fits one spectrum: no
 * time dependence; a joint fit shares the main model's parameters). */
static GtkWidget *
baseline_row_menu (XrlabFitPage *self, const XrlabFitParamRow *p, gboolean can_profile, gboolean has_profile)
{
  GtkWidget *button, *popover, *box;

  if (!can_profile)
    return NULL;
  button = gtk_menu_button_new ();
  popover = gtk_popover_new ();
  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  if (has_profile)
    menu_item (box, self, _("Remove _Profile"), p->name, 3);
  else
    menu_item (box, self, _("_Profile…"), p->name, 1);
  gtk_popover_set_child (GTK_POPOVER (popover), box);
  gtk_widget_add_css_class (popover, "menu");
  gtk_menu_button_set_popover (GTK_MENU_BUTTON (button), popover);
  gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (button),
                                 has_profile ? "document-open-recent-symbolic" : "view-more-symbolic");
  gtk_widget_add_css_class (button, "flat");
  gtk_widget_set_tooltip_text (button, _("Profile"));
  xrlab_fit_page_mark_role (button, XRLAB_FIT_MODEL_BASELINE);
  return button;
}

GtkWidget *
xrlab_fit_page_dynamics_row_menu (XrlabFitPage *self, XrlabFitModelRole role, const XrlabFitParamRow *p,
                                  gboolean has_profile)
{
  GtkWidget *button, *popover, *box;
  gboolean can_profile = p->role == XRLAB_PARAM_ENERGY;

  if (p->expr != NULL || p->is_static)
    return NULL;
  if (role == XRLAB_FIT_MODEL_BASELINE)
    return baseline_row_menu (self, p, can_profile, has_profile);
  button = gtk_menu_button_new ();
  popover = gtk_popover_new ();
  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  if (p->role != XRLAB_PARAM_DYNAMICS)
    {
      if (p->time_dependent)
        menu_item (box, self, _("Remove _Time Dependence"), p->name, 2);
      else
        menu_item (box, self, _("_Time Dependence…"), p->name, 0);
      if (can_profile && has_profile)
        menu_item (box, self, _("Remove _Profile"), p->name, 3);
      else if (can_profile)
        menu_item (box, self, _("_Profile…"), p->name, 1);
      gtk_box_append (GTK_BOX (box), gtk_separator_new (GTK_ORIENTATION_HORIZONTAL));
    }
  /* in a joint fit of a project's files (trspecfit's "project" and "file") */
  menu_item (box, self, _("_Shared by Every File"), p->name, 4);
  menu_item (box, self, _("One Value per _File"), p->name, 5);
  menu_item (box, self, _("_Not Shared"), p->name, 6);
  gtk_popover_set_child (GTK_POPOVER (popover), box);
  gtk_widget_add_css_class (popover, "menu");
  gtk_menu_button_set_popover (GTK_MENU_BUTTON (button), popover);
  gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (button),
                                 p->time_dependent || has_profile ? "document-open-recent-symbolic"
                                                                  : "view-more-symbolic");
  gtk_widget_add_css_class (button, "flat");
  gtk_widget_set_tooltip_text (button, p->role == XRLAB_PARAM_DYNAMICS ? _("Sharing in a joint fit")
                                                                      : _("Time dependence, profile and sharing"));
  return button;
}

static const XrlabFitParamRow *
find_param (const XrlabFitParamTable *t, const char *name)
{
  for (gsize i = 0; name != NULL && i < t->n_params; i++)
    if (strcmp (t->params[i].name, name) == 0)
      return &t->params[i];
  return NULL;
}

void
xrlab_fit_page_dynamics_decorate (XrlabFitPage *self, XrlabFitModelRole role, const XrlabFitParamTable *t,
                                  gsize i, int line)
{
  const XrlabFitParamRow *p = &t->params[i];
  GtkWidget *name = gtk_grid_get_child_at (self->table, 0, line);
  gboolean has_profile = FALSE;
  GtkWidget *menu;
  int depth = 0;

  for (gsize k = i + 1; k < t->n_params; k++)
    if (t->params[k].role == XRLAB_PARAM_PROFILE && g_strcmp0 (t->params[k].host, p->name) == 0)
      has_profile = TRUE;
  for (const XrlabFitParamRow *h = p; h != NULL && h->role != XRLAB_PARAM_ENERGY && depth < 4;
       h = find_param (t, h->host))
    depth++;
  if (depth > 0 && GTK_IS_LABEL (name))
    {
      /* GLP_01_x0_expFun_01_tau under GLP_01_x0: "expFun_01_tau" */
      gsize n = p->host != NULL ? strlen (p->host) : 0;
      const char *rest = n > 0 && strncmp (p->name, p->host, n) == 0 && p->name[n] == '_' ? p->name + n + 1
                                                                                          : p->name;
      g_autofree char *text = g_strdup_printf ("↳ %s", rest);

      gtk_label_set_text (GTK_LABEL (name), text);
      g_object_set_data_full (G_OBJECT (name), "xrlab-base-text", g_strdup (text), g_free);
      xrlab_fit_page_name_show_share (name, p->share);
      gtk_widget_set_tooltip_text (name, p->name);
      gtk_widget_set_margin_start (name, 12 * depth);
      gtk_widget_add_css_class (name, "dim-label");
    }
  menu = xrlab_fit_page_dynamics_row_menu (self, role, p, has_profile);
  if (menu != NULL)
    gtk_grid_attach (self->table, menu, 7, line, 1, 1);
}

/* ---- the workspace ---------------------------------------------------------------------- */

static char **
profile_strings (const XrlabFitProfile *p, gsize n)
{
  char **out = g_new0 (char *, n + 1);

  for (gsize i = 0; i < n; i++)
    out[i] = g_strdup_printf ("%s=%s:%s", p[i].param, p[i].file, p[i].model);
  return out;
}

void
xrlab_fit_page_adopt_profiles (XrlabFitPage *self, const XrlabFitModelSaved *saved)
{
  g_strfreev (self->ws.profiles);
  self->ws.profiles = profile_strings (saved->profiles, saved->n_profiles);
  g_strfreev (self->ws.baseline_profiles);
  self->ws.baseline_profiles = profile_strings (saved->baseline_profiles, saved->n_baseline_profiles);
}
