/* xrlab-values-view.h -- every quantity of every material at one energy
 *
 * A GtkColumnView: one row per quantity (with its unit), one column per
 * material. The energy is typed in keV or picked from common X-ray lines
 * (default Cu Kα, 8.048 keV). The table copies to the clipboard as
 * tab-separated text with full precision.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "xrlab-energy.h"
#include "xrlab-quantity.h"

G_BEGIN_DECLS

#define XRLAB_TYPE_VALUES_VIEW (xrlab_values_view_get_type ())
G_DECLARE_FINAL_TYPE (XrlabValuesView, xrlab_values_view, XRLAB, VALUES_VIEW, GtkWidget)

#define XRLAB_VALUES_DEFAULT_EV 8048.0   /* Cu Kα */

GtkWidget *xrlab_values_view_new        (void);

/* The energies accepted (xrlab_sweep_get_default_range() until set), those
 * of the table choice @choice: the window sets the sweep's, so that the
 * Values page goes to 966 keV with Chantler and auto. What is typed is
 * checked again. */
void       xrlab_values_view_set_range  (XrlabValuesView        *self,
                                         const XrlabEnergyRange *range,
                                         XrlabTableChoice        choice);

/* The table the values come from (XrlabTable; -1: none), shown beside the
 * wavelength and named in the copied text. */
void       xrlab_values_view_set_table  (XrlabValuesView *self,
                                         int              table);
int        xrlab_values_view_get_table  (XrlabValuesView *self);

/* The energy of the table (eV); "energy-ev" notifies when the user picks a
 * new valid one. */
double     xrlab_values_view_get_energy (XrlabValuesView *self);
void       xrlab_values_view_set_energy (XrlabValuesView *self,
                                         double           energy_ev);

/* Shows the values: @values has, per material, XRLAB_QUANTITY_N values in
 * XrlabQuantity order (values[m * XRLAB_QUANTITY_N + q], the layout of an
 * engine fetch of every quantity at one energy; the engine's units, NaN
 * when undefined). @values is borrowed until @free_func is called on
 * @owner. @notes (may be NULL, entries may be NULL) are added to the column
 * titles, e.g. "last valid" for a material whose input is invalid. */
void       xrlab_values_view_set_values (XrlabValuesView    *self,
                                         guint               n_materials,
                                         const char * const *names,
                                         const char * const *notes,
                                         const double       *values,
                                         gpointer            owner,
                                         GDestroyNotify      free_func);
void       xrlab_values_view_clear      (XrlabValuesView *self);

guint      xrlab_values_view_get_n_materials (XrlabValuesView *self);

/* What does not depend on the energy, per material of the last
 * xrlab_values_view_set_values(): molar mass (g/mol), electron density
 * (e/Å³), NaN when unknown, and composition as text ("Si 46.7 %, O 53.3 %"). */
void       xrlab_values_view_set_properties (XrlabValuesView    *self,
                                             guint               n_materials,
                                             const double       *molar_mass,
                                             const double       *electron_density,
                                             const char * const *composition);

/* The energy entry is in @unit (the sweep's): eV, keV or Å. */
void       xrlab_values_view_set_unit   (XrlabValuesView *self,
                                         XrlabEnergyUnit  unit);

/* TRUE when the table shows values that are not those of the input: the
 * energy typed is not valid (the last valid one is shown), or a material is
 * at its last valid input. The message of the energy entry, or NULL. */
gboolean    xrlab_values_view_is_stale        (XrlabValuesView *self);
const char *xrlab_values_view_get_energy_error (XrlabValuesView *self);
/* The energy entry, for tests. */
GtkEditable *xrlab_values_view_get_energy_editable (XrlabValuesView *self);

/* The table as text: a header line, then "quantity<TAB>unit<TAB>v1<TAB>…"
 * per row, values in display units with round-trip precision. */
char      *xrlab_values_view_to_tsv     (XrlabValuesView *self);
void       xrlab_values_view_copy       (XrlabValuesView *self);
/* With @localize, the numbers have the locale's decimal separator, as a
 * spreadsheet in that language reads them ("1,5e-05"). */
char      *xrlab_values_view_to_tsv_full (XrlabValuesView *self,
                                          gboolean         localize);
void       xrlab_values_view_copy_full  (XrlabValuesView *self,
                                         gboolean         localize);

/* The displayed cell text, for tests. */
char      *xrlab_values_view_get_cell_text (XrlabValuesView   *self,
                                            XrlabQuantity  quantity,
                                            guint              material);

G_END_DECLS
