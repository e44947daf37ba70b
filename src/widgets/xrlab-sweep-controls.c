/* xrlab-sweep-controls.c -- the energy sweep controls
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-sweep-controls.h"

#include <math.h>

#include <glib/gi18n-lib.h>

#include "xrlab-user-number.h"
#include "xrlab-widget-util.h"

struct _XrlabSweepControls {
  GtkWidget parent_instance;

  /* template children */
  GtkEntry *start_entry;
  GtkEntry *stop_entry;
  GtkDropDown *unit_dropdown;
  GtkSpinButton *points_spin;
  GtkDropDown *spacing_dropdown;
  GtkDropDown *table_dropdown;
  GtkLabel *error_label;

  XrlabSweep sweep;          /* last valid */
  XrlabEnergyUnit unit;      /* shown unit */
  const XrlabEnergyRange *range;   /* the energies accepted; NULL: the table choice's */
  char *error;
  char *note;                /* a change made to the input (points clamped) */
  gboolean updating;

  /* The exact values the entries show rounded (in self->unit): text that
   * still reads as shown stands for them, so showing never rounds. */
  double shown_start;
  double shown_stop;
  /* The sweep as last typed or set, in its own unit: a unit switch converts
   * from it, so switching there and back gives it back unchanged. */
  double origin_start;
  double origin_stop;
  XrlabEnergyUnit origin_unit;
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

/* The table dropdown's entries, in order. */
static const XrlabTableChoice dropdown_tables[] = {
  XRLAB_TABLE_CHOICE_AUTO, XRLAB_TABLE_CHOICE_HENKE, XRLAB_TABLE_CHOICE_CHANTLER,
};

static guint
table_position (XrlabTableChoice choice)
{
  for (guint i = 0; i < G_N_ELEMENTS (dropdown_tables); i++)
    if (dropdown_tables[i] == choice)
      return i;
  return 0;
}

/* The energies @sweep may span. */
static const XrlabEnergyRange *
accepted_range (XrlabSweepControls *self, const XrlabSweep *sweep)
{
  return self->range != NULL ? self->range : xrlab_sweep_get_range (sweep);
}

enum {
  SIGNAL_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

enum {
  PROP_0,
  PROP_ERROR,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
show_message (XrlabSweepControls *self)
{
  if (self->error != NULL)
    xrlab_message_label_set (self->error_label, XRLAB_MARK_ERROR, self->error);
  else
    xrlab_message_label_set (self->error_label, self->note != NULL ? XRLAB_MARK_WARNING : XRLAB_MARK_NONE,
                             self->note);
  xrlab_entry_mark (GTK_WIDGET (self->points_spin), self->note != NULL ? XRLAB_MARK_WARNING : XRLAB_MARK_NONE,
                    self->note);
}

static void
set_error (XrlabSweepControls *self, const char *message)
{
  if (g_strcmp0 (self->error, message) == 0)
    return;
  g_free (self->error);
  self->error = g_strdup (message);
  show_message (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR]);
}

static void
mark_entry (GtkEntry *entry, gboolean bad, const char *message)
{
  xrlab_entry_mark (GTK_WIDGET (entry), bad ? XRLAB_MARK_ERROR : XRLAB_MARK_NONE, message);
}

/* The value of an entry: the exact @shown while the text still reads as
 * it was shown, else what the text says. */
static gboolean
entry_value (GtkEntry *entry, double shown, double *value)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));
  g_autofree char *as_shown = xrlab_format_user_number (shown, FALSE);

  if (isfinite (shown) && g_strcmp0 (text, as_shown) == 0)
    {
      *value = shown;
      return TRUE;
    }
  return xrlab_parse_user_number (text, value);
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
  const XrlabEnergyRange *range;

  sweep->unit = self->unit;
  sweep->points = (guint) gtk_spin_button_get_value_as_int (self->points_spin);
  sweep->log = gtk_drop_down_get_selected (self->spacing_dropdown) == 1;
  sweep->table = dropdown_tables[MIN (gtk_drop_down_get_selected (self->table_dropdown),
                                      G_N_ELEMENTS (dropdown_tables) - 1)];
  range = accepted_range (self, sweep);
  start_ok = entry_value (self->start_entry, self->shown_start, &sweep->start);
  stop_ok = entry_value (self->stop_entry, self->shown_stop, &sweep->stop);
  mark_entry (self->start_entry, FALSE, NULL);
  mark_entry (self->stop_entry, FALSE, NULL);
  if (!start_ok)
    {
      g_set_error (error, XRLAB_SWEEP_ERROR, XRLAB_SWEEP_ERROR_INVALID,
                   _("Start “%s” is not a number."), start_text);
      mark_entry (self->start_entry, TRUE, (*error)->message);
    }
  if (!stop_ok)
    {
      if (start_ok)
        g_set_error (error, XRLAB_SWEEP_ERROR, XRLAB_SWEEP_ERROR_INVALID,
                     _("Stop “%s” is not a number."), stop_text);
      mark_entry (self->stop_entry, TRUE, (*error)->message);
    }
  if (!start_ok || !stop_ok)
    return FALSE;
  range_ok = xrlab_sweep_validate (sweep, range, &local);
  if (!range_ok)
    {
      double lo, hi;
      /* Mark the entry that is out of range. */
      xrlab_sweep_energy_range (sweep, &lo, &hi);
      if (local->code == XRLAB_SWEEP_ERROR_RANGE)
        {
          gboolean low_bad = xrlab_energy_place (lo, range->complete_min_ev, range->max_ev,
                                                 NULL) == XRLAB_ENERGY_BELOW;
          gboolean start_is_low = sweep->unit != XRLAB_ENERGY_UNIT_ANGSTROM;
          mark_entry (self->start_entry, low_bad == start_is_low, local->message);
          mark_entry (self->stop_entry, low_bad != start_is_low, local->message);
        }
      else if (local->code == XRLAB_SWEEP_ERROR_INVALID && !(sweep->start > 0))
        mark_entry (self->start_entry, TRUE, local->message);
      else if (local->code == XRLAB_SWEEP_ERROR_INVALID)
        mark_entry (self->stop_entry, TRUE, local->message);
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
  /* Typed values become the origin of later unit conversions. */
  if (sweep.start != self->shown_start || sweep.stop != self->shown_stop)
    {
      self->origin_start = self->shown_start = sweep.start;
      self->origin_stop = self->shown_stop = sweep.stop;
      self->origin_unit = sweep.unit;
    }
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

/* Points beyond the limits are clamped by the spin button: say so. */
static int
on_points_input (GtkSpinButton      *spin,
                 double             *new_value,
                 XrlabSweepControls *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (spin));
  double v;

  g_clear_pointer (&self->note, g_free);
  if (xrlab_parse_user_number (text, &v) && (v > XRLAB_SWEEP_MAX_POINTS || v < XRLAB_SWEEP_MIN_POINTS))
    {
      int limit = v > XRLAB_SWEEP_MAX_POINTS ? XRLAB_SWEEP_MAX_POINTS : XRLAB_SWEEP_MIN_POINTS;
      /* TRANSLATORS: the first %s is the number typed, %d the limit it was set to */
      self->note = g_strdup_printf (v > limit ? _("%s points are more than the %d a sweep can have: it has %d.")
                                              : _("%s points are fewer than the %d a sweep needs: it has %d."),
                                    text, limit, limit);
    }
  show_message (self);
  return FALSE;   /* the spin button parses and clamps */
}

static void
show_values (XrlabSweepControls *self, double start, double stop)
{
  g_autofree char *a = xrlab_format_user_number (start, FALSE);
  g_autofree char *b = xrlab_format_user_number (stop, FALSE);

  self->shown_start = start;
  self->shown_stop = stop;
  self->updating = TRUE;
  gtk_editable_set_text (GTK_EDITABLE (self->start_entry), a);
  gtk_editable_set_text (GTK_EDITABLE (self->stop_entry), b);
  self->updating = FALSE;
}

/* The origin in @unit: itself in its unit, else converted exactly. */
static void
origin_in (XrlabSweepControls *self, XrlabEnergyUnit unit, double *start, double *stop)
{
  double ea, eb, lo_ev, hi_ev;

  if (unit == self->origin_unit)
    {
      *start = self->origin_start;
      *stop = self->origin_stop;
      return;
    }
  ea = xrlab_energy_convert (self->origin_start, self->origin_unit, XRLAB_ENERGY_UNIT_EV);
  eb = xrlab_energy_convert (self->origin_stop, self->origin_unit, XRLAB_ENERGY_UNIT_EV);
  lo_ev = MIN (ea, eb);
  hi_ev = MAX (ea, eb);
  *start = xrlab_energy_convert (unit == XRLAB_ENERGY_UNIT_ANGSTROM ? hi_ev : lo_ev, XRLAB_ENERGY_UNIT_EV, unit);
  *stop = xrlab_energy_convert (unit == XRLAB_ENERGY_UNIT_ANGSTROM ? lo_ev : hi_ev, XRLAB_ENERGY_UNIT_EV, unit);
}

static void
on_unit_changed (GtkDropDown        *dropdown,
                 GParamSpec         *pspec,
                 XrlabSweepControls *self)
{
  guint pos = gtk_drop_down_get_selected (dropdown);
  XrlabEnergyUnit new_unit = dropdown_units[MIN (pos, G_N_ELEMENTS (dropdown_units) - 1)];
  double a, b;

  if (self->updating || new_unit == self->unit)
    return;
  /* Convert what is typed, if it parses; otherwise keep the text. The
   * conversion starts from the sweep as typed, never from rounded text. */
  if (entry_value (self->start_entry, self->shown_start, &a) &&
      entry_value (self->stop_entry, self->shown_stop, &b) && a > 0 && b > 0)
    {
      if (a != self->shown_start || b != self->shown_stop)
        {
          self->origin_start = a;
          self->origin_stop = b;
          self->origin_unit = self->unit;
        }
      self->unit = new_unit;
      origin_in (self, new_unit, &a, &b);
      show_values (self, a, b);
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
  g_free (self->note);
  G_OBJECT_CLASS (xrlab_sweep_controls_parent_class)->finalize (object);
}

static void
xrlab_sweep_controls_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  XrlabSweepControls *self = XRLAB_SWEEP_CONTROLS (object);

  switch (prop_id)
    {
    case PROP_ERROR: g_value_set_string (value, self->error); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
xrlab_sweep_controls_class_init (XrlabSweepControlsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = xrlab_sweep_controls_dispose;
  object_class->finalize = xrlab_sweep_controls_finalize;
  object_class->get_property = xrlab_sweep_controls_get_property;

  /* The message of the input when it is not a valid sweep, else NULL. */
  properties[PROP_ERROR] =
    g_param_spec_string ("error", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

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
  gtk_widget_class_bind_template_child (widget_class, XrlabSweepControls, table_dropdown);
  gtk_widget_class_bind_template_child (widget_class, XrlabSweepControls, error_label);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "xrlab-sweep-controls");
}

static void
xrlab_sweep_controls_init (XrlabSweepControls *self)
{
  GtkLayoutManager *layout;
  XrlabSweep initial = { 1.0, 30.0, 1000, TRUE, XRLAB_ENERGY_UNIT_KEV, XRLAB_TABLE_CHOICE_AUTO };

  gtk_widget_init_template (GTK_WIDGET (self));
  layout = gtk_widget_get_layout_manager (GTK_WIDGET (self));
  gtk_orientable_set_orientation (GTK_ORIENTABLE (layout), GTK_ORIENTATION_VERTICAL);
  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (layout), 8);

  self->unit = XRLAB_ENERGY_UNIT_KEV;

  g_signal_connect_swapped (self->start_entry, "changed", G_CALLBACK (on_edited), self);
  g_signal_connect_swapped (self->stop_entry, "changed", G_CALLBACK (on_edited), self);
  g_signal_connect_swapped (self->points_spin, "value-changed", G_CALLBACK (on_edited), self);
  g_signal_connect_swapped (self->spacing_dropdown, "notify::selected", G_CALLBACK (on_edited), self);
  g_signal_connect_swapped (self->table_dropdown, "notify::selected", G_CALLBACK (on_edited), self);
  g_signal_connect (self->unit_dropdown, "notify::selected", G_CALLBACK (on_unit_changed), self);
  g_signal_connect (self->points_spin, "input", G_CALLBACK (on_points_input), self);
  xrlab_message_label_init (self->error_label, 2);
  xrlab_hide_tooltip_while_open (GTK_WIDGET (self->unit_dropdown));
  xrlab_hide_tooltip_while_open (GTK_WIDGET (self->spacing_dropdown));

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
  gtk_drop_down_set_selected (self->table_dropdown, table_position (sweep->table));
  self->updating = FALSE;
  show_values (self, sweep->start, sweep->stop);
  self->origin_start = sweep->start;
  self->origin_stop = sweep->stop;
  self->origin_unit = sweep->unit;
  self->sweep = *sweep;
  revalidate (self, FALSE);
}

void
xrlab_sweep_controls_set_range (XrlabSweepControls     *self,
                                const XrlabEnergyRange *range)
{
  g_return_if_fail (XRLAB_IS_SWEEP_CONTROLS (self));
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

void
xrlab_sweep_controls_focus_error (XrlabSweepControls *self)
{
  GtkWidget *bad = GTK_WIDGET (self->start_entry);

  g_return_if_fail (XRLAB_IS_SWEEP_CONTROLS (self));
  if (xrlab_entry_get_mark (GTK_WIDGET (self->stop_entry)) == XRLAB_MARK_ERROR &&
      xrlab_entry_get_mark (GTK_WIDGET (self->start_entry)) != XRLAB_MARK_ERROR)
    bad = GTK_WIDGET (self->stop_entry);
  gtk_widget_grab_focus (bad);
}

const char *
xrlab_sweep_controls_get_note (XrlabSweepControls *self)
{
  g_return_val_if_fail (XRLAB_IS_SWEEP_CONTROLS (self), NULL);
  return self->note;
}

GtkSpinButton *
xrlab_sweep_controls_get_points_spin (XrlabSweepControls *self)
{
  return self->points_spin;
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

void
xrlab_sweep_controls_set_table (XrlabSweepControls *self,
                                XrlabTableChoice    table)
{
  g_return_if_fail (XRLAB_IS_SWEEP_CONTROLS (self));
  gtk_drop_down_set_selected (self->table_dropdown, table_position (table));
}
