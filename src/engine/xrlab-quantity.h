/* xrlab-quantity.h -- the quantities the optics compute, and their names
 *
 * One table describes every quantity: the machine id (the CSV and JSON
 * column, the name users type after -q), the name in session files, the
 * labels and symbol for people, the unit of the computed value, and how the
 * window shows it (a display unit and scale: attenuation lengths in µm,
 * SLDs in 10⁻⁶ Å⁻²). The CLI's columns and headers, the window's selector,
 * values table and plot axes, and session files all read it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  XRLAB_QUANTITY_WAVELENGTH,          /* λ [Å] */
  XRLAB_QUANTITY_DELTA,               /* δ [1] */
  XRLAB_QUANTITY_BETA,                /* β [1] */
  XRLAB_QUANTITY_F1,                  /* Σ n_i f1_i [e per formula unit] */
  XRLAB_QUANTITY_F2,                  /* Σ n_i f2_i [e per formula unit] */
  XRLAB_QUANTITY_CRITICAL_ANGLE_DEG,  /* θc [°], NaN where δ < 0 */
  XRLAB_QUANTITY_CRITICAL_ANGLE_MRAD, /* θc [mrad], NaN where δ < 0 */
  XRLAB_QUANTITY_ATTENUATION_LENGTH,  /* 1/μ [cm], photoabsorption */
  XRLAB_QUANTITY_ATTENUATION_LENGTH_TOTAL, /* 1/μ_total [cm] */
  XRLAB_QUANTITY_MU,                  /* μ [1/cm], photoabsorption */
  XRLAB_QUANTITY_MU_TOTAL,            /* μ_total [1/cm]: photoabsorption + scattering */
  XRLAB_QUANTITY_MU_RHO,              /* μ/ρ [cm²/g], photoabsorption */
  XRLAB_QUANTITY_MU_RHO_TOTAL,        /* μ_total/ρ [cm²/g] */
  XRLAB_QUANTITY_RE_SLD,              /* 2πδ/λ² [Å⁻²] */
  XRLAB_QUANTITY_IM_SLD,              /* 2πβ/λ² [Å⁻²] */
  XRLAB_QUANTITY_TRANSMISSION,        /* exp(-μ_total t) [1], needs a thickness */
  XRLAB_QUANTITY_TRANSMISSION_PHOTO,  /* exp(-μ t) [1], photoabsorption only, needs a thickness */
  XRLAB_QUANTITY_N                    /* the number of quantities (not one) */
} XrlabQuantity;

/* A set of quantities: bit q for XrlabQuantity q. */
typedef guint32 XrlabQuantityMask;

#define XRLAB_QUANTITY_BIT(q)          ((XrlabQuantityMask) 1u << (q))
#define XRLAB_QUANTITY_MASK_ALL        (XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_N) - 1u)
/* The two transmissions, which need a thickness. */
#define XRLAB_QUANTITY_MASK_TRANSMISSIONS \
  (XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_TRANSMISSION) | XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_TRANSMISSION_PHOTO))
/* Everything but the transmissions. */
#define XRLAB_QUANTITY_MASK_NO_THICKNESS (XRLAB_QUANTITY_MASK_ALL & ~XRLAB_QUANTITY_MASK_TRANSMISSIONS)
/* The total attenuation: μ_total, μ_total/ρ, 1/μ_total and the transmission
 * from them. */
#define XRLAB_QUANTITY_MASK_TOTAL \
  (XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_ATTENUATION_LENGTH_TOTAL) | XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_MU_TOTAL) \
   | XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_MU_RHO_TOTAL) | XRLAB_QUANTITY_BIT (XRLAB_QUANTITY_TRANSMISSION))

/* The column name of the CSV and JSON output: "wavelength_A", "delta",
 * "beta", "f1", "f2", "critical_angle_deg", "critical_angle_mrad",
 * "attenuation_length_cm", "attenuation_length_total_cm", "mu_per_cm",
 * "mu_total_per_cm", "mu_rho_cm2_g", "mu_rho_total_cm2_g", "re_sld_per_A2",
 * "im_sld_per_A2", "transmission", "transmission_photo". The columns
 * without "total" or "photo" in the name are photoabsorption only (μ, μ/ρ,
 * the attenuation length) -- except the transmission, which is from the
 * total attenuation.
 *
 * The total attenuation is photoabsorption + coherent (Rayleigh) +
 * incoherent (Compton) scattering; the scattering cross sections come from
 * the table in use (xrlab_table_get_scattering_source(): Chantler's own
 * column, or xraylib's CS_Rayl + CS_Compt with Henke). */
const char *xrlab_quantity_get_column (XrlabQuantity quantity);

/* A label for people ("Wavelength", "δ", "Critical angle", ...; translated)
 * and the unit as printed ("Å", "°", "mrad", "cm", "1/cm", "cm²/g", "Å⁻²";
 * "" when dimensionless, "e" for scattering factors). */
const char *xrlab_quantity_get_label (XrlabQuantity quantity);
const char *xrlab_quantity_get_unit  (XrlabQuantity quantity);

/* The quantity of column name @column (exact spelling); FALSE if none. */
gboolean xrlab_quantity_from_column (const char *column, XrlabQuantity *quantity);

/* Number of quantities in @mask, and the position of @quantity among them
 * (in enum order; -1 when not in @mask): the layout of the batch output. */
guint xrlab_quantity_mask_count (XrlabQuantityMask mask);
int   xrlab_quantity_mask_index (XrlabQuantityMask mask, XrlabQuantity quantity);

/* ---- the table ------------------------------------------------------------ */

typedef struct {
  XrlabQuantity quantity;
  const char *column;         /* machine id: CSV/JSON column, -q name ("critical_angle_mrad") */
  const char *session_id;     /* name in session files ("critical_angle"); stable forever */
  const char *label;          /* short label: xrlab-cli's table headers ("Critical angle") */
  const char *title;          /* long label: menus and the values table ("Critical angle θc") */
  const char *symbol;         /* plot axis name ("θc", "δ") */
  const char *value_unit;     /* unit of the computed value, as xrlab_quantity_get_unit() */
  const char *display_unit;   /* unit of value × display_scale in the window; NULL if none */
  double display_scale;       /* display value = computed value × display_scale */
  gboolean plottable;         /* offered in the window's plot selector */
  gboolean log_y;             /* spans decades: a logarithmic axis suits it */
} XrlabQuantityInfo;

/* The row of @quantity, with label, title, symbol and display unit
 * translated (static storage; translated at the first call). */
const XrlabQuantityInfo *xrlab_quantity_get_info (XrlabQuantity quantity);

/* The title of a plot axis showing @quantity: words and the symbol
 * ("Refractive index decrement δ"; translated). */
const char *xrlab_quantity_get_axis_name (XrlabQuantity quantity);

/* The quantity named @id in session files (exact spelling); FALSE if none. */
gboolean xrlab_quantity_from_session_id (const char *id, XrlabQuantity *quantity);

G_END_DECLS
