/* xrlab-quantity-info.c -- the optical quantities the window shows
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-quantity-info.h"

#include <string.h>

#include <glib/gi18n-lib.h>

static const XrlabQuantityInfo table[XRLAB_PLOT_N_QUANTITIES] = {
  { XRLAB_PLOT_QUANTITY_WAVELENGTH, "wavelength", "wavelength_A",
    N_("Wavelength"), "λ", "Å", 1.0, FALSE, FALSE, TRUE },
  { XRLAB_PLOT_QUANTITY_DELTA, "delta", "delta",
    N_("δ — refractive index decrement"), "δ", NULL, 1.0, TRUE, TRUE, TRUE },
  { XRLAB_PLOT_QUANTITY_BETA, "beta", "beta",
    N_("β — absorption index"), "β", NULL, 1.0, TRUE, FALSE, TRUE },
  { XRLAB_PLOT_QUANTITY_F1, "f1", "f1",
    N_("f₁ — scattering factor, real part"), "f₁", N_("e/formula unit"), 1.0, TRUE, TRUE, FALSE },
  { XRLAB_PLOT_QUANTITY_F2, "f2", "f2",
    N_("f₂ — scattering factor, imaginary part"), "f₂", N_("e/formula unit"), 1.0, TRUE, FALSE, TRUE },
  { XRLAB_PLOT_QUANTITY_CRITICAL_ANGLE_DEG, "critical_angle_deg", "critical_angle_deg",
    N_("Critical angle"), "θc", "°", 1.0, FALSE, TRUE, TRUE },
  { XRLAB_PLOT_QUANTITY_CRITICAL_ANGLE, "critical_angle", "critical_angle_mrad",
    N_("Critical angle θc"), "θc", "mrad", 1.0, TRUE, TRUE, TRUE },
  { XRLAB_PLOT_QUANTITY_ATTENUATION_LENGTH, "attenuation_length", "attenuation_length_cm",
    N_("Attenuation length (1/e)"), N_("Attenuation length"), "µm", 1e4, TRUE, FALSE, TRUE },
  { XRLAB_PLOT_QUANTITY_MU, "mu", "mu_per_cm",
    N_("μ — linear attenuation coefficient"), "μ", "1/cm", 1.0, TRUE, FALSE, TRUE },
  { XRLAB_PLOT_QUANTITY_MU_RHO, "mu_rho", "mu_rho_cm2_g",
    N_("μ/ρ — mass attenuation coefficient"), "μ/ρ", "cm²/g", 1.0, TRUE, FALSE, TRUE },
  { XRLAB_PLOT_QUANTITY_TRANSMISSION, "transmission", "transmission",
    N_("Transmission of the layer"), N_("Transmission"), NULL, 1.0, TRUE, FALSE, FALSE },
  { XRLAB_PLOT_QUANTITY_SLD_RE, "sld_re", "re_sld_per_A2",
    N_("SLD, real part"), N_("SLD (real)"), "10⁻⁶ Å⁻²", 1e6, TRUE, TRUE, TRUE },
  { XRLAB_PLOT_QUANTITY_SLD_IM, "sld_im", "im_sld_per_A2",
    N_("SLD, imaginary part"), N_("SLD (imaginary)"), "10⁻⁶ Å⁻²", 1e6, TRUE, FALSE, TRUE },
};

const XrlabQuantityInfo *
xrlab_quantity_info_get (XrlabPlotQuantity q)
{
  static XrlabQuantityInfo translated[XRLAB_PLOT_N_QUANTITIES];
  static gsize done = 0;

  g_return_val_if_fail ((guint) q < XRLAB_PLOT_N_QUANTITIES, NULL);

  if (g_once_init_enter (&done))
    {
      for (guint i = 0; i < XRLAB_PLOT_N_QUANTITIES; i++)
        {
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
  for (guint i = 0; i < XRLAB_PLOT_N_QUANTITIES; i++)
    if (strcmp (table[i].id, id) == 0)
      return xrlab_quantity_info_get (i);
  return NULL;
}

double
xrlab_quantity_min_ev (XrlabPlotQuantity q)
{
  return xrlab_quantity_info_get (q)->needs_f1 ? XRLAB_HENKE_MIN_F1_EV : XRLAB_HENKE_MIN_EV;
}
