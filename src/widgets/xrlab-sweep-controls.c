/* xrlab-sweep-controls.c -- the energy sweep controls
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-sweep-controls.h"

#include <math.h>

#include <glib/gi18n-lib.h>

#include "xrlab-user-number.h"

struct _XrlabSweepControls {
  GtkWidget parent_instance;

  /* template children */
  GtkEntry *start_entry;
  GtkEntry *stop_entry;
  GtkDropDown *unit_dropdown;
  GtkSpinButton *points_spin;
  GtkDropDown *spacing_dropdown;
  GtkLabel *error_label;

  XrlabSweep sweep;          /* last valid */
  XrlabEnergyUnit unit;      /* shown unit */
  const XrlabEnergyRange *range;   /* the energies accepted */
  char *error;
  gboolean updating;
};

G_DEFINE_FINAL_TYPE (XrlabSweepControls, xrlab_sweep_controls, GTK_TYPE_WIDGET)

/* The unit dropdown's entries, in order. */
static const XrlabEnergyUnit dropdown_units[] = {
  XRLAB_ENERGY_UNIT_EV, XRLAB_ENERGY_UNIT_KEV, XRLAB_ENERGY_UNIT_ANGSTROM,
};

static guint
unit_position (XrlabEnergyUnit unit)
{
  for (guint i = 0; i < G_N_ELEMENTS (dropdown_units); i++)
    if (dropdown_units[i] == unit)
      return i;
  return 1;
}

enum {
  SIGNAL_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
set_error (XrlabSweepControls *self, const char *message)
{
  g_free (self->error);
  self->error = g_strdup (message);
  gtk_label_set_text (self->error_label, message != NULL ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), message != NULL);
}

static void
mark_entry (GtkEntry *entry, gboolean bad)
{
  if (bad)
    gtk_widget_add_css_class (GTK_WIDGET (entry), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (entry), "error");
}

/* Reads the widgets into @sweep; FALSE with @error when they are not a valid
 * sweep. */
static gboolean
read_widgets (XrlabSweepControls *self, XrlabSweep *sweep, GError **error)
{
  const char *start_text = gtk_editable_get_text (GTK_EDITABLE (self->start_entry));
  const char *stop_text = gtk_editable_get_text (GTK_EDITABLE (self->stop_entry));
  gboolean start_ok, stop_ok, range_ok;
  g_autoptr(GError) local = NULL;

  sweep->unit = self->unit;
  sweep->points = (guint) gtk_spin_button_get_value_as_int (self->points_spin);
  sweep->log = gtk_drop_down_get_selected (self->spacing_dropdown) == 1;
  start_ok = xrlab_parse_user_number (start_text, &sweep->start);
  stop_ok = xrlab_parse_user_number (stop_text, &sweep->stop);
  mark_entry (self->start_entry, !start_ok);
  mark_entry (self->stop_entry, !stop_ok);
  if (!start_ok)
    {
      g_set_error (error, XRLAB_SWEEP_ERROR, XRLAB_SWEEP_ERROR_INVALID,
                   _("Start “%s” is not a number."), start_text);
      return FALSE;
    }
  if (!stop_ok)
    {
      g_set_error (error, XRLAB_SWEEP_ERROR, XRLAB_SWEEP_ERROR_INVALID,
                   _("Stop “%s” is not a number."), stop_text);
      return FALSE;
    }
  range_ok = xrlab_sweep_validate (sweep, self->range, &local);
  if (!range_ok)
    {
      double lo, hi;
      /* Mark the entry that is out of range. */
      xrlab_sweep_energy_range (sweep, &lo, &hi);
      if (local->code == XRLAB_SWEEP_ERROR_RANGE)
        {
          gboolean low_bad = xrlab_energy_place (lo, self->range->complete_min_ev, self->range->max_ev,
                                                 NULL) == XRLAB_ENERGY_BELOW;
          gboolean start_is_low = sweep->unit != XRLAB_ENERGY_UNIT_ANGSTROM;
          mark_entry (self->start_entry, low_bad == start_is_low);
          mark_entry (self->stop_entry, low_bad != start_is_low);
        }
      else if (local->code == XRLAB_SWEEP_ERROR_INVALID && sweep->start >= sweep->stop)
        mark_entry (self->stop_entry, TRUE);
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  return TRUE;
}

static void
revalidate (XrlabSweepControls *self, gboolean emit)
{
  XrlabSweep sweep;
  g_autoptr(GError) error = NULL;

  if (self->updating)
    return;
  if (!read_widgets (self, &sweep, &error))
    {
      set_error (self, error->message);
      return;
    }
  set_error (self, NULL);
  if (emit && !xrlab_sweep_equal (&sweep, &self->sweep))
    {
      self->sweep = sweep;
      g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
    }
  else
    self->sweep = sweep;
}

static void
on_edited (XrlabSweepControls *self)
{
  revalidate (self, TRUE);
}

static void
show_values (XrlabSweepControls *self, double start, double stop)
{
  g_autofree char *a = xrlab_format_user_number (start, FALSE);
  g_autofree char *b = xrlab_format_user_number (stop, FALSE);

  self->updating = TRUE;
  gtk_editable_set_text (GTK_EDITABLE (self->start_entry), a);
  gtk_editable_set_text (GTK_EDITABLE (self->stop_entry), b);
  self->updating = FALSE;
}

static void
on_unit_changed (GtkDropDown        *dropdown,
                 GParamSpec         *pspec,
                 XrlabSweepControls *self)
{
  guint pos = gtk_drop_down_get_selected (dropdown);
  XrlabEnergyUnit new_unit = dropdown_units[MIN (pos, G_N_ELEMENTS (dropdown_units) - 1)];
  double a, b, lo_ev, hi_ev;

  if (self->updating || new_unit == self->unit)
    return;
  /* Convert what is typed, if it parses; otherwise keep the text. */
  if (xrlab_parse_user_number (gtk_editable_get_text (GTK_EDITABLE (self->start_entry)), &a) &&
      xrlab_parse_user_number (gtk_editable_get_text (GTK_EDITABLE (self->stop_entry)), &b) &&
      a > 0 && b > 0)
    {
      double ea = xrlab_energy_convert (a, self->unit, XRLAB_ENERGY_UNIT_EV);
      double eb = xrlab_energy_convert (b, self->unit, XRLAB_ENERGY_UNIT_EV);
      double na, nb;
      lo_ev = MIN (ea, eb);
      hi_ev = MAX (ea, eb);
      na = xrlab_energy_convert (new_unit == XRLAB_ENERGY_UNIT_ANGSTROM ? hi_ev : lo_ev,
                                 XRLAB_ENERGY_UNIT_EV, new_unit);
      nb = xrlab_energy_convert (new_unit == XRLAB_ENERGY_UNIT_ANGSTROM ? lo_ev : hi_ev,
                                 XRLAB_ENERGY_UNIT_EV, new_unit);
      self->unit = new_unit;
      show_values (self, na, nb);
    }
  else
    self->unit = new_unit;
  revalidate (self, TRUE);
}

/* ---- GObject -------------------------------------------------------------------- */

static void
xrlab_sweep_controls_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), XRLAB_TYPE_SWEEP_CONTROLS);
  /* Template children without an id are not unparented by the above. */
  for (GtkWidget *child; (child = gtk_widget_get_first_child (GTK_WIDGET (object))) != NULL;)
    gtk_widget_unparent (child);
  G_OBJECT_CLASS (xrlab_sweep_controls_parent_class)->dispose (object);
}

static void
xrlab_sweep_controls_finalize (GObject *object)
{
  XrlabSweepControls *self = XRLAB_SWEEP_CONTROLS (object);

  g_free (self->error);
  G_OBJECT_CLASS (xrlab_sweep_controls_parent_class)->finalize (object);
}

static void
xrlab_sweep_controls_class_init (XrlabSweepControlsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = xrlab_sweep_controls_dispose;
  object_class->finalize = xrlab_sweep_controls_finalize;

  /* A new valid sweep was entered. */
  signals[SIGNAL_CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/xrlab/Xrlab/xrlab-sweep-controls.ui");
  gtk_widget_class_bind_template_child (widget_class, XrlabSweepControls, start_entry);
  gtk_widget_class_bind_template_child (widget_class, XrlabSweepControls, stop_entry);
  gtk_widget_class_bind_template_child (widget_class, XrlabSweepControls, unit_dropdown);
  gtk_widget_class_bind_template_child (widget_class, XrlabSweepControls, points_spin);
  gtk_widget_class_bind_template_child (widget_class, XrlabSweepControls, spacing_dropdown);
  gtk_widget_class_bind_template_child (widget_class, XrlabSweepControls, error_label);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "xrlab-sweep-controls");
}

static void
xrlab_sweep_controls_init (XrlabSweepControls *self)
{
  GtkLayoutManager *layout;
  XrlabSweep initial = { 1.0, 30.0, 1000, TRUE, XRLAB_ENERGY_UNIT_KEV };

  gtk_widget_init_template (GTK_WIDGET (self));
  layout = gtk_widget_get_layout_manager (GTK_WIDGET (self));
  gtk_orientable_set_orientation (GTK_ORIENTABLE (layout), GTK_ORIENTATION_VERTICAL);
  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (layout), 8);

  self->range = xrlab_sweep_get_default_range ();
  self->unit = XRLAB_ENERGY_UNIT_KEV;

  g_signal_connect_swapped (self->start_entry, "changed", G_CALLBACK (on_edited), self);
  g_signal_connect_swapped (self->stop_entry, "changed", G_CALLBACK (on_edited), self);
  g_signal_connect_swapped (self->points_spin, "value-changed", G_CALLBACK (on_edited), self);
  g_signal_connect_swapped (self->spacing_dropdown, "notify::selected", G_CALLBACK (on_edited), self);
  g_signal_connect (self->unit_dropdown, "notify::selected", G_CALLBACK (on_unit_changed), self);

  xrlab_sweep_controls_set_sweep (self, &initial);
}

/* ---- public API ---------------------------------------------------------------- */

GtkWidget *
xrlab_sweep_controls_new (void)
{
  return g_object_new (XRLAB_TYPE_SWEEP_CONTROLS, NULL);
}

void
xrlab_sweep_controls_get_sweep (XrlabSweepControls *self,
                                XrlabSweep         *sweep)
{
  g_return_if_fail (XRLAB_IS_SWEEP_CONTROLS (self));
  *sweep = self->sweep;
}

void
xrlab_sweep_controls_set_sweep (XrlabSweepControls *self,
                                const XrlabSweep   *sweep)
{
  g_return_if_fail (XRLAB_IS_SWEEP_CONTROLS (self));
  g_return_if_fail (sweep != NULL);

  self->updating = TRUE;
  self->unit = sweep->unit;
  gtk_drop_down_set_selected (self->unit_dropdown, unit_position (sweep->unit));
  gtk_drop_down_set_selected (self->spacing_dropdown, sweep->log ? 1 : 0);
  gtk_spin_button_set_value (self->points_spin, sweep->points);
  self->updating = FALSE;
  show_values (self, sweep->start, sweep->stop);
  self->sweep = *sweep;
  revalidate (self, FALSE);
}

void
xrlab_sweep_controls_set_range (XrlabSweepControls     *self,
                                const XrlabEnergyRange *range)
{
  g_return_if_fail (XRLAB_IS_SWEEP_CONTROLS (self));
  g_return_if_fail (range != NULL);
  if (self->range == range)
    return;
  self->range = range;
  revalidate (self, TRUE);
}

gboolean
xrlab_sweep_controls_is_valid (XrlabSweepControls *self)
{
  g_return_val_if_fail (XRLAB_IS_SWEEP_CONTROLS (self), FALSE);
  return self->error == NULL;
}

const char *
xrlab_sweep_controls_get_error (XrlabSweepControls *self)
{
  g_return_val_if_fail (XRLAB_IS_SWEEP_CONTROLS (self), NULL);
  return self->error;
}

GtkEditable *
xrlab_sweep_controls_get_start_editable (XrlabSweepControls *self)
{
  return GTK_EDITABLE (self->start_entry);
}

GtkEditable *
xrlab_sweep_controls_get_stop_editable (XrlabSweepControls *self)
{
  return GTK_EDITABLE (self->stop_entry);
}

void
xrlab_sweep_controls_set_unit (XrlabSweepControls *self,
                               XrlabEnergyUnit     unit)
{
  g_return_if_fail (XRLAB_IS_SWEEP_CONTROLS (self));
  gtk_drop_down_set_selected (self->unit_dropdown, unit_position (unit));
}
