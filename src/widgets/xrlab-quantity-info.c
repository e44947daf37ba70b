/* xrlab-quantity-info.c -- how the window presents the engine's quantities
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-quantity-info.h"

#include <string.h>

#include <glib/gi18n-lib.h>

/* In XrlabQuantity order. */
static const XrlabQuantityInfo table[XRLAB_QUANTITY_N] = {
  { XRLAB_QUANTITY_WAVELENGTH, "wavelength",
    N_("Wavelength λ"), "λ", "Å", 1.0, FALSE, TRUE },
  { XRLAB_QUANTITY_DELTA, "delta",
    N_("δ — refractive index decrement"), "δ", NULL, 1.0, TRUE, TRUE },
  { XRLAB_QUANTITY_BETA, "beta",
    N_("β — absorption index"), "β", NULL, 1.0, TRUE, TRUE },
  { XRLAB_QUANTITY_F1, "f1",
    N_("f₁ — scattering factor, real part"), "f₁", N_("e/formula unit"), 1.0, TRUE, FALSE },
  { XRLAB_QUANTITY_F2, "f2",
    N_("f₂ — scattering factor, imaginary part"), "f₂", N_("e/formula unit"), 1.0, TRUE, TRUE },
  { XRLAB_QUANTITY_CRITICAL_ANGLE_DEG, "critical_angle_deg",
    N_("Critical angle θc"), "θc", "°", 1.0, FALSE, TRUE },
  { XRLAB_QUANTITY_CRITICAL_ANGLE_MRAD, "critical_angle",
    N_("Critical angle θc"), "θc", "mrad", 1.0, TRUE, TRUE },
  { XRLAB_QUANTITY_ATTENUATION_LENGTH, "attenuation_length",
    N_("Attenuation length (1/e)"), N_("Attenuation length"), "µm", 1e4, TRUE, TRUE },
  { XRLAB_QUANTITY_MU, "mu",
    N_("μ — linear attenuation coefficient"), "μ", "1/cm", 1.0, TRUE, TRUE },
  { XRLAB_QUANTITY_MU_RHO, "mu_rho",
    N_("μ/ρ — mass attenuation coefficient"), "μ/ρ", "cm²/g", 1.0, TRUE, TRUE },
  { XRLAB_QUANTITY_RE_SLD, "sld_re",
    N_("SLD, real part"), N_("SLD (real)"), "10⁻⁶ Å⁻²", 1e6, TRUE, TRUE },
  { XRLAB_QUANTITY_IM_SLD, "sld_im",
    N_("SLD, imaginary part"), N_("SLD (imaginary)"), "10⁻⁶ Å⁻²", 1e6, TRUE, TRUE },
  { XRLAB_QUANTITY_TRANSMISSION, "transmission",
    N_("Transmission of the layer"), N_("Transmission"), NULL, 1.0, TRUE, FALSE },
};

const XrlabQuantityInfo *
xrlab_quantity_info_get (XrlabQuantity q)
{
  static XrlabQuantityInfo translated[XRLAB_QUANTITY_N];
  static gsize done = 0;

  g_return_val_if_fail ((guint) q < XRLAB_QUANTITY_N, NULL);

  if (g_once_init_enter (&done))
    {
      for (guint i = 0; i < XRLAB_QUANTITY_N; i++)
        {
          g_assert (table[i].quantity == i);
          translated[i] = table[i];
          translated[i].title = _(table[i].title);
          translated[i].symbol = _(table[i].symbol);
          if (table[i].unit != NULL)
            translated[i].unit = _(table[i].unit);
        }
      g_once_init_leave (&done, 1);
    }
  return &translated[q];
}

const XrlabQuantityInfo *
xrlab_quantity_info_lookup (const char *id)
{
  if (id == NULL)
    return NULL;
  for (guint i = 0; i < XRLAB_QUANTITY_N; i++)
    if (strcmp (table[i].id, id) == 0)
      return xrlab_quantity_info_get (i);
  return NULL;
}
