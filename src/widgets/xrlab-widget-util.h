/* xrlab-widget-util.h -- small behaviours every editor of the window shares
 *
 * One look for invalid input: an entry that does not hold a valid value is
 * marked with the "error" style class and an icon whose tooltip says why;
 * an entry whose value is accepted but suspicious ("Si02", a density of
 * 50 g/cm³) gets the "warning" class and icon. The inline message beside it
 * goes to a message label that keeps its height (xrlab_message_label_init),
 * so that showing or clearing a message never moves the fields below.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef enum {
  XRLAB_MARK_NONE,
  XRLAB_MARK_WARNING,
  XRLAB_MARK_ERROR,
} XrlabMark;

/* Marks @widget (an entry or spin button; NONE clears); @message is the
 * tooltip of an entry's icon. */
void      xrlab_entry_mark          (GtkWidget  *widget,
                                     XrlabMark   mark,
                                     const char *message);
XrlabMark xrlab_entry_get_mark      (GtkWidget  *widget);

/* A caption label of @lines lines that always takes that height: longer
 * messages are ellipsized and whole in its tooltip. */
void      xrlab_message_label_init  (GtkLabel   *label,
                                     int         lines);
/* Shows @text (NULL or "" for none) in the style of @mark (NONE: dimmed). */
void      xrlab_message_label_set   (GtkLabel   *label,
                                     XrlabMark   mark,
                                     const char *text);

/* Hides the tooltip of @widget while its popover (a menu button's or a drop
 * down's) is open, so that it never covers the popover's first item. */
void      xrlab_hide_tooltip_while_open (GtkWidget *widget);

G_END_DECLS
