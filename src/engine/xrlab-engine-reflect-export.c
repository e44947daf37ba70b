/* xrlab-engine-reflect-export.c -- curves of stacks written as CSV by the
 * engine thread
 *
 * The export request (xrlab-engine-reflect-fetch.c) computes the curves as
 * a fetch does and hands them here instead of to the caller: the file is
 * written atomically (a temporary file renamed over the path), so a failed
 * export leaves none, and no array passes through the caller.
 *
 * Layout: '#' lines naming the curve, the table, for a filter what its
 * transmission counts, and each stack (name and canonical text), a header "energy_keV,angle_mrad,<stack>:R,<stack>:R_s,...", then a
 * row per point (energy by energy for a map), numbers in round-trip
 * precision.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-engine-reflect-private.h"

#include <math.h>
#include <string.h>

#include "xrlab-util.h"

static const char *const value_keys[XRLAB_REFLECT_VALUE_N] = { "R", "R_s", "R_p", "T", "T_s", "T_p" };

static void
append_number (GString *s, double x)
{
  char buf[XRLAB_DTOA_BUFSIZE];

  g_string_append (s, xrlab_format_double (x, buf));
}

/* The comment lines and the header. */
static void
append_head (GString *s, const XrlabEngineCurves *c, const char *const *names,
             const char *const *texts)
{
  static const char *const curves[] = {
    "vs grazing angle at one energy", "vs energy at one grazing angle",
    "on energies x grazing angles", "filter transmission vs energy",
  };
  char buf[XRLAB_DTOA_BUFSIZE];
  g_autofree char *table = NULL;

  g_string_append_printf (s, "# xrlab stacks: %s", curves[c->curve]);
  if (c->curve != XRLAB_REFLECT_CURVE_FILTER)
    g_string_append_printf (s, ", polarization P = %s", xrlab_format_double (c->polarization, buf));
  g_string_append_c (s, '\n');
  table = xrlab_table_format_comment (c->table, c->table_choice);
  g_string_append (s, table);
  if (c->curve == XRLAB_REFLECT_CURVE_FILTER)
    g_string_append (s, c->photo_only ? "# transmission: photoabsorption only\n"
                                      : "# transmission: total attenuation (photoabsorption + scattering)\n");
  for (gsize i = 0; i < c->n_stacks; i++)
    g_string_append_printf (s, "# %s: %s\n", names[i], texts[i]);
  g_string_append (s, "energy_keV");
  if (c->curve != XRLAB_REFLECT_CURVE_FILTER)
    g_string_append (s, ",angle_mrad");
  for (gsize i = 0; i < c->n_stacks; i++)
    for (gsize v = 0; v < c->n_values; v++)
      {
        g_autofree char *key = g_strdup_printf ("%s:%s", names[i], value_keys[c->values_of[v]]);
        g_string_append_c (s, ',');
        xrlab_csv_append_field (s, key);
      }
  g_string_append_c (s, '\n');
}

gboolean
xrlab_engine_curves_write_csv (const XrlabEngineCurves *c,
                               const char *const       *names,
                               const char *const       *texts,
                               const char              *path,
                               gsize                   *bytes,
                               GError                 **error)
{
  g_autoptr(GString) s = g_string_new (NULL);

  append_head (s, c, names, texts);
  for (gsize p = 0; p < c->n_points; p++)
    {
      gsize e = c->curve == XRLAB_REFLECT_CURVE_ANGLES ? 0
                : c->curve == XRLAB_REFLECT_CURVE_MAP ? p / c->n_angles : p;
      gsize a = c->curve == XRLAB_REFLECT_CURVE_ANGLES ? p
                : c->curve == XRLAB_REFLECT_CURVE_MAP ? p % c->n_angles : 0;

      append_number (s, c->energies_kev[e]);
      if (c->curve != XRLAB_REFLECT_CURVE_FILTER)
        {
          g_string_append_c (s, ',');
          append_number (s, c->angles_rad[a] * 1e3);
        }
      for (gsize i = 0; i < c->n_stacks; i++)
        for (gsize v = 0; v < c->n_values; v++)
          {
            g_string_append_c (s, ',');
            append_number (s, c->values[(i * c->n_values + v) * c->n_points + p]);
          }
      g_string_append_c (s, '\n');
    }
  *bytes = s->len;
  return xrlab_write_file_atomic (path, s->str, (gssize) s->len, error);
}
