/* xrlab-widget-util.c -- small behaviours every editor of the window shares
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-widget-util.h"

void
xrlab_entry_mark (GtkWidget  *w,
                  XrlabMark   mark,
                  const char *message)
{
  GtkEntry *entry;

  g_return_if_fail (GTK_IS_WIDGET (w));

  if (mark == XRLAB_MARK_ERROR)
    gtk_widget_add_css_class (w, "error");
  else
    gtk_widget_remove_css_class (w, "error");
  if (mark == XRLAB_MARK_WARNING)
    gtk_widget_add_css_class (w, "warning");
  else
    gtk_widget_remove_css_class (w, "warning");

  if (!GTK_IS_ENTRY (w))
    {
      gtk_widget_set_tooltip_text (w, mark != XRLAB_MARK_NONE ? message : NULL);
      return;
    }
  entry = GTK_ENTRY (w);
  if (mark == XRLAB_MARK_NONE)
    {
      gtk_entry_set_icon_from_icon_name (entry, GTK_ENTRY_ICON_SECONDARY, NULL);
      gtk_accessible_reset_state (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_STATE_INVALID);
      return;
    }
  gtk_entry_set_icon_from_icon_name (entry, GTK_ENTRY_ICON_SECONDARY,
                                     mark == XRLAB_MARK_ERROR ? "dialog-error-symbolic"
                                                              : "dialog-warning-symbolic");
  gtk_entry_set_icon_tooltip_text (entry, GTK_ENTRY_ICON_SECONDARY, message);
  gtk_entry_set_icon_activatable (entry, GTK_ENTRY_ICON_SECONDARY, FALSE);
  if (mark == XRLAB_MARK_ERROR)
    gtk_accessible_update_state (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_STATE_INVALID,
                                 GTK_ACCESSIBLE_INVALID_TRUE, -1);
  else
    gtk_accessible_reset_state (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_STATE_INVALID);
}

XrlabMark
xrlab_entry_get_mark (GtkWidget *w)
{
  g_return_val_if_fail (GTK_IS_WIDGET (w), XRLAB_MARK_NONE);
  if (gtk_widget_has_css_class (w, "error"))
    return XRLAB_MARK_ERROR;
  if (gtk_widget_has_css_class (w, "warning"))
    return XRLAB_MARK_WARNING;
  return XRLAB_MARK_NONE;
}

static void
reserve_lines (GtkLabel *label, int lines)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (GTK_WIDGET (label), "Ag");
  int height;

  pango_layout_get_pixel_size (layout, NULL, &height);
  gtk_widget_set_size_request (GTK_WIDGET (label), -1, height * lines);
  g_object_unref (layout);
}

static void
on_label_css_changed (GtkLabel *label, gpointer user_data)
{
  reserve_lines (label, GPOINTER_TO_INT (g_object_get_data (G_OBJECT (label), "xrlab-lines")));
}

void
xrlab_message_label_init (GtkLabel *label,
                          int       lines)
{
  g_return_if_fail (GTK_IS_LABEL (label));
  g_return_if_fail (lines >= 1);

  gtk_widget_add_css_class (GTK_WIDGET (label), "caption");
  gtk_label_set_xalign (label, 0);
  gtk_label_set_yalign (label, 0);
  gtk_label_set_wrap (label, TRUE);
  gtk_label_set_wrap_mode (label, PANGO_WRAP_WORD_CHAR);
  gtk_label_set_lines (label, lines);
  gtk_label_set_ellipsize (label, PANGO_ELLIPSIZE_END);
  /* Wrapping labels ask for little width, whatever the text: a long message
   * must not widen the sidebar (that folds it away). */
  gtk_label_set_width_chars (label, 20);
  gtk_label_set_max_width_chars (label, 20);
  gtk_widget_set_visible (GTK_WIDGET (label), TRUE);
  g_object_set_data (G_OBJECT (label), "xrlab-lines", GINT_TO_POINTER (lines));
  reserve_lines (label, lines);
  /* The font (and so the line height) can change with the style. */
  g_signal_connect (label, "notify::scale-factor", G_CALLBACK (on_label_css_changed), NULL);
}

void
xrlab_message_label_set (GtkLabel   *label,
                         XrlabMark   mark,
                         const char *text)
{
  GtkWidget *w = GTK_WIDGET (label);

  g_return_if_fail (GTK_IS_LABEL (label));

  gtk_label_set_text (label, text != NULL ? text : "");
  gtk_widget_set_tooltip_text (w, text != NULL && text[0] != '\0' ? text : NULL);
  if (mark == XRLAB_MARK_ERROR)
    gtk_widget_add_css_class (w, "error");
  else
    gtk_widget_remove_css_class (w, "error");
  if (mark == XRLAB_MARK_WARNING)
    gtk_widget_add_css_class (w, "warning");
  else
    gtk_widget_remove_css_class (w, "warning");
  if (mark == XRLAB_MARK_NONE)
    gtk_widget_add_css_class (w, "dim-label");
  else
    gtk_widget_remove_css_class (w, "dim-label");
}

/* ---- tooltips over popovers --------------------------------------------------- */

static void
on_popover_shown (GtkWidget *popover, GtkWidget *owner)
{
  gtk_widget_set_has_tooltip (owner, FALSE);
}

static void
on_popover_hidden (GtkWidget *popover, GtkWidget *owner)
{
  /* Only the tooltip text decides again. */
  gtk_widget_set_has_tooltip (owner, gtk_widget_get_tooltip_text (owner) != NULL ||
                                     gtk_widget_get_tooltip_markup (owner) != NULL);
}

static GtkWidget *
find_popover (GtkWidget *widget)
{
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c != NULL; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found;
      if (GTK_IS_POPOVER (c))
        return c;
      found = find_popover (c);
      if (found != NULL)
        return found;
    }
  return NULL;
}

void
xrlab_hide_tooltip_while_open (GtkWidget *widget)
{
  GtkWidget *popover = NULL;

  g_return_if_fail (GTK_IS_WIDGET (widget));

  if (GTK_IS_MENU_BUTTON (widget))
    popover = GTK_WIDGET (gtk_menu_button_get_popover (GTK_MENU_BUTTON (widget)));
  if (popover == NULL)
    popover = find_popover (widget);
  g_return_if_fail (popover != NULL);
  g_signal_connect_object (popover, "show", G_CALLBACK (on_popover_shown), widget, 0);
  g_signal_connect_object (popover, "hide", G_CALLBACK (on_popover_hidden), widget, 0);
}
