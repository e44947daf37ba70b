/* xrlab-quantity.c -- the quantities the optics compute, and their names
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-quantity.h"

#include <string.h>

#include <glib/gi18n-lib.h>

/* In XrlabQuantity order. The session ids are what session files of every
 * version contain: never rename one (tests/data/sessions/ holds files
 * written by earlier versions). "transmission" was photoabsorption only
 * before the total attenuation came; it names the transmission from the
 * total now. */
static const XrlabQuantityInfo table[XRLAB_QUANTITY_N] = {
  { XRLAB_QUANTITY_WAVELENGTH, "wavelength_A", "wavelength",
    N_("Wavelength"), N_("Wavelength λ"), "λ",
    "Å", "Å", 1.0, FALSE, TRUE },
  { XRLAB_QUANTITY_DELTA, "delta", "delta",
    N_("δ"), N_("δ — refractive index decrement"), "δ",
    "", NULL, 1.0, TRUE, TRUE },
  { XRLAB_QUANTITY_BETA, "beta", "beta",
    N_("β"), N_("β — absorption index"), "β",
    "", NULL, 1.0, TRUE, TRUE },
  { XRLAB_QUANTITY_F1, "f1", "f1",
    N_("f1"), N_("f₁ — scattering factor, real part"), "f₁",
    "e", N_("e/formula unit"), 1.0, TRUE, FALSE },
  { XRLAB_QUANTITY_F2, "f2", "f2",
    N_("f2"), N_("f₂ — scattering factor, imaginary part"), "f₂",
    "e", N_("e/formula unit"), 1.0, TRUE, TRUE },
  { XRLAB_QUANTITY_CRITICAL_ANGLE_DEG, "critical_angle_deg", "critical_angle_deg",
    N_("Critical angle"), N_("Critical angle θc"), "θc",
    "°", "°", 1.0, TRUE, TRUE },
  { XRLAB_QUANTITY_CRITICAL_ANGLE_MRAD, "critical_angle_mrad", "critical_angle",
    N_("Critical angle"), N_("Critical angle θc"), "θc",
    "mrad", "mrad", 1.0, TRUE, TRUE },
  { XRLAB_QUANTITY_ATTENUATION_LENGTH, "attenuation_length_cm", "attenuation_length",
    N_("Attenuation length (photo)"), N_("Attenuation length (1/e), photoabsorption"),
    N_("Attenuation length (photo)"),
    "cm", "µm", 1e4, TRUE, TRUE },
  { XRLAB_QUANTITY_ATTENUATION_LENGTH_TOTAL, "attenuation_length_total_cm", "attenuation_length_total",
    N_("Attenuation length (total)"), N_("Attenuation length (1/e), total"),
    N_("Attenuation length (total)"),
    "cm", "µm", 1e4, TRUE, TRUE },
  { XRLAB_QUANTITY_MU, "mu_per_cm", "mu",
    N_("μ (photo)"), N_("μ — linear attenuation, photoabsorption"), N_("μ (photo)"),
    "1/cm", "1/cm", 1.0, TRUE, TRUE },
  { XRLAB_QUANTITY_MU_TOTAL, "mu_total_per_cm", "mu_total",
    N_("μ (total)"), N_("μ — linear attenuation, total"),
    N_("μ (total)"),
    "1/cm", "1/cm", 1.0, TRUE, TRUE },
  { XRLAB_QUANTITY_MU_RHO, "mu_rho_cm2_g", "mu_rho",
    N_("μ/ρ (photo)"), N_("μ/ρ — mass attenuation, photoabsorption"), N_("μ/ρ (photo)"),
    "cm²/g", "cm²/g", 1.0, TRUE, TRUE },
  { XRLAB_QUANTITY_MU_RHO_TOTAL, "mu_rho_total_cm2_g", "mu_rho_total",
    N_("μ/ρ (total)"), N_("μ/ρ — mass attenuation, total"),
    N_("μ/ρ (total)"),
    "cm²/g", "cm²/g", 1.0, TRUE, TRUE },
  { XRLAB_QUANTITY_RE_SLD, "re_sld_per_A2", "sld_re",
    N_("SLD (real)"), N_("SLD, real part"), N_("SLD (real)"),
    "Å⁻²", "10⁻⁶ Å⁻²", 1e6, TRUE, TRUE },
  { XRLAB_QUANTITY_IM_SLD, "im_sld_per_A2", "sld_im",
    N_("SLD (imaginary)"), N_("SLD, imaginary part"), N_("SLD (imaginary)"),
    "Å⁻²", "10⁻⁶ Å⁻²", 1e6, TRUE, TRUE },
  { XRLAB_QUANTITY_TRANSMISSION, "transmission", "transmission",
    N_("Transmission (total)"), N_("Transmission of the layer, total"),
    N_("Transmission (total)"),
    "", NULL, 1.0, TRUE, FALSE },
  { XRLAB_QUANTITY_TRANSMISSION_PHOTO, "transmission_photo", "transmission_photo",
    N_("Transmission (photo)"), N_("Transmission of the layer, photoabsorption only"),
    N_("Transmission (photo)"),
    "", NULL, 1.0, TRUE, FALSE },
};

const XrlabQuantityInfo *
xrlab_quantity_get_info (XrlabQuantity quantity)
{
  static XrlabQuantityInfo translated[XRLAB_QUANTITY_N];
  static gsize done = 0;

  g_return_val_if_fail ((guint) quantity < XRLAB_QUANTITY_N, NULL);

  if (g_once_init_enter (&done))
    {
      for (guint q = 0; q < XRLAB_QUANTITY_N; q++)
        {
          g_assert (table[q].quantity == q);
          translated[q] = table[q];
          translated[q].label = _(table[q].label);
          translated[q].title = _(table[q].title);
          translated[q].symbol = _(table[q].symbol);
          if (table[q].display_unit != NULL)
            translated[q].display_unit = _(table[q].display_unit);
        }
      g_once_init_leave (&done, 1);
    }
  return &translated[quantity];
}

const char *
xrlab_quantity_get_column (XrlabQuantity quantity)
{
  g_return_val_if_fail ((guint) quantity < XRLAB_QUANTITY_N, NULL);
  return table[quantity].column;
}

const char *
xrlab_quantity_get_label (XrlabQuantity quantity)
{
  g_return_val_if_fail ((guint) quantity < XRLAB_QUANTITY_N, NULL);
  return _(table[quantity].label);
}

const char *
xrlab_quantity_get_unit (XrlabQuantity quantity)
{
  g_return_val_if_fail ((guint) quantity < XRLAB_QUANTITY_N, NULL);
  return table[quantity].value_unit;
}

/* The quantity whose column (or session id) is @name. */
static gboolean
lookup (const char *name, gboolean session_id, XrlabQuantity *quantity)
{
  if (name == NULL)
    return FALSE;
  for (int q = 0; q < XRLAB_QUANTITY_N; q++)
    if (strcmp (name, session_id ? table[q].session_id : table[q].column) == 0)
      {
        if (quantity)
          *quantity = (XrlabQuantity) q;
        return TRUE;
      }
  return FALSE;
}

gboolean
xrlab_quantity_from_column (const char *column, XrlabQuantity *quantity)
{
  return lookup (column, FALSE, quantity);
}

gboolean
xrlab_quantity_from_session_id (const char *id, XrlabQuantity *quantity)
{
  return lookup (id, TRUE, quantity);
}

guint
xrlab_quantity_mask_count (XrlabQuantityMask mask)
{
  return (guint) __builtin_popcount (mask & XRLAB_QUANTITY_MASK_ALL);
}

int
xrlab_quantity_mask_index (XrlabQuantityMask mask, XrlabQuantity quantity)
{
  if (quantity >= XRLAB_QUANTITY_N || !(mask & XRLAB_QUANTITY_BIT (quantity)))
    return -1;
  return __builtin_popcount (mask & (XRLAB_QUANTITY_BIT (quantity) - 1u));
}

const char *
xrlab_quantity_get_axis_name (XrlabQuantity quantity)
{
  g_return_val_if_fail ((guint) quantity < XRLAB_QUANTITY_N, NULL);

  /* TRANSLATORS: plot axis titles: what the quantity is, then its symbol */
  switch (quantity)
    {
    case XRLAB_QUANTITY_WAVELENGTH: return _("Wavelength λ");
    case XRLAB_QUANTITY_DELTA: return _("Refractive index decrement δ");
    case XRLAB_QUANTITY_BETA: return _("Absorption index β");
    case XRLAB_QUANTITY_F1: return _("Scattering factor f₁");
    case XRLAB_QUANTITY_F2: return _("Scattering factor f₂");
    case XRLAB_QUANTITY_CRITICAL_ANGLE_DEG:
    case XRLAB_QUANTITY_CRITICAL_ANGLE_MRAD: return _("Critical angle θc");
    case XRLAB_QUANTITY_ATTENUATION_LENGTH: return _("Attenuation length 1/μ, photoabsorption");
    case XRLAB_QUANTITY_ATTENUATION_LENGTH_TOTAL: return _("Attenuation length 1/μ, total");
    case XRLAB_QUANTITY_MU: return _("Linear attenuation coefficient μ, photoabsorption");
    case XRLAB_QUANTITY_MU_TOTAL: return _("Linear attenuation coefficient μ, total");
    case XRLAB_QUANTITY_MU_RHO: return _("Mass attenuation coefficient μ/ρ, photoabsorption");
    case XRLAB_QUANTITY_MU_RHO_TOTAL: return _("Mass attenuation coefficient μ/ρ, total");
    case XRLAB_QUANTITY_RE_SLD: return _("Scattering length density, real part");
    case XRLAB_QUANTITY_IM_SLD: return _("Scattering length density, imaginary part");
    case XRLAB_QUANTITY_TRANSMISSION: return _("Transmission T, total");
    case XRLAB_QUANTITY_TRANSMISSION_PHOTO: return _("Transmission T, photoabsorption");
    case XRLAB_QUANTITY_N:
    default:
      return xrlab_quantity_get_info (quantity)->title;
    }
}
