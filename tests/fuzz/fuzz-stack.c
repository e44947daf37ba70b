/* fuzz-stack.c -- the stack grammar (xrlab_stack_parse_reflect and
 * xrlab_stack_parse_filter)
 *
 * The first byte picks the parser. Invariants: a refused stack has a
 * message and a column within the text; an accepted one has at most the
 * documented layers, finite positive thicknesses, finite non-negative
 * roughnesses, finite positive densities, groups inside the layers, and
 * its canonical text (xrlab_stack_to_string()) parses with the same parser
 * back to the same stack -- the same materials, layers, groups, ambient and
 * substrate, to the bit -- whose canonical text is the same again.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include "fuzz-common.h"
#include "xrlab-formula.h"
#include "xrlab-stack.h"

FUZZ_DEFINE_INITIALIZE ()

static XrlabStack *
parse (gboolean filter, const char *text, int *column, GError **error)
{
  return filter ? xrlab_stack_parse_filter (text, column, error)
                : xrlab_stack_parse_reflect (text, column, error);
}

static void
check_valid (const XrlabStack *s, const char *text)
{
  gsize n_m = xrlab_stack_get_n_materials (s);
  gsize n_l = xrlab_stack_get_n_layers (s);
  const XrlabStackLayer *layers = xrlab_stack_get_layers (s);
  const XrlabStackGroup *groups = xrlab_stack_get_groups (s);

  FUZZ_CHECK (n_l <= XRLAB_STACK_MAX_LAYERS, "“%s”: %zu layers", text, n_l);
  for (gsize m = 0; m < n_m; m++)
    {
      const XrlabStackMaterial *mat = xrlab_stack_get_material (s, m);
      FUZZ_CHECK (mat->formula != NULL && mat->name != NULL && mat->name[0] != '\0',
                  "“%s”: material %zu has no formula or name", text, m);
      FUZZ_CHECK (isfinite (mat->density_g_cm3) && mat->density_g_cm3 > 0,
                  "“%s”: density %g", text, mat->density_g_cm3);
    }
  for (gsize i = 0; i < n_l; i++)
    {
      FUZZ_CHECK (layers[i].material < n_m, "“%s”: layer %zu material %u", text, i, layers[i].material);
      FUZZ_CHECK (isfinite (layers[i].thickness_nm) && layers[i].thickness_nm > 0,
                  "“%s”: thickness %g", text, layers[i].thickness_nm);
      FUZZ_CHECK (isfinite (layers[i].roughness_nm) && layers[i].roughness_nm >= 0,
                  "“%s”: roughness %g", text, layers[i].roughness_nm);
    }
  for (gsize g = 0; g < xrlab_stack_get_n_groups (s); g++)
    FUZZ_CHECK (groups[g].count >= 1 && groups[g].n_period >= 1
                && groups[g].first_layer + groups[g].n_period * groups[g].count <= n_l,
                "“%s”: group %zu outside the layers", text, g);
  FUZZ_CHECK (xrlab_stack_get_ambient (s) < (int) n_m && xrlab_stack_get_substrate (s) < (int) n_m,
              "“%s”: ambient or substrate out of range", text);
}

static void
check_same (const XrlabStack *a, const XrlabStack *b, const char *text, const char *canon)
{
  gsize n_m = xrlab_stack_get_n_materials (a), n_l = xrlab_stack_get_n_layers (a);

  FUZZ_CHECK (xrlab_stack_get_kind (a) == xrlab_stack_get_kind (b), "“%s” → “%s”: kind", text, canon);
  FUZZ_CHECK (n_m == xrlab_stack_get_n_materials (b), "“%s” → “%s”: %zu materials, then %zu", text,
              canon, n_m, xrlab_stack_get_n_materials (b));
  FUZZ_CHECK (n_l == xrlab_stack_get_n_layers (b), "“%s” → “%s”: %zu layers, then %zu", text, canon,
              n_l, xrlab_stack_get_n_layers (b));
  for (gsize m = 0; m < n_m; m++)
    {
      const XrlabStackMaterial *x = xrlab_stack_get_material (a, m), *y = xrlab_stack_get_material (b, m);
      FUZZ_CHECK (strcmp (x->name, y->name) == 0
                  && strcmp (xrlab_formula_get_text (x->formula), xrlab_formula_get_text (y->formula)) == 0
                  && x->density_g_cm3 == y->density_g_cm3 && x->is_gas == y->is_gas
                  && x->pressure_pa == y->pressure_pa && x->temperature_k == y->temperature_k,
                  "“%s” → “%s”: material %zu “%s” (%s) ρ = %.17g p = %.17g T = %.17g, then "
                  "“%s” (%s) ρ = %.17g p = %.17g T = %.17g", text, canon, m,
                  x->name, xrlab_formula_get_text (x->formula), x->density_g_cm3, x->pressure_pa,
                  x->temperature_k, y->name, xrlab_formula_get_text (y->formula), y->density_g_cm3,
                  y->pressure_pa, y->temperature_k);
    }
  for (gsize i = 0; i < n_l; i++)
    {
      const XrlabStackLayer *x = &xrlab_stack_get_layers (a)[i], *y = &xrlab_stack_get_layers (b)[i];
      FUZZ_CHECK (x->material == y->material && x->thickness_nm == y->thickness_nm
                  && x->roughness_nm == y->roughness_nm,
                  "“%s” → “%s”: layer %zu differs (%u %.17g %.17g, then %u %.17g %.17g)", text, canon,
                  i, x->material, x->thickness_nm, x->roughness_nm, y->material, y->thickness_nm,
                  y->roughness_nm);
    }
  FUZZ_CHECK (xrlab_stack_get_n_groups (a) == xrlab_stack_get_n_groups (b),
              "“%s” → “%s”: %zu groups, then %zu", text, canon, xrlab_stack_get_n_groups (a),
              xrlab_stack_get_n_groups (b));
  for (gsize g = 0; g < xrlab_stack_get_n_groups (a); g++)
    {
      const XrlabStackGroup *x = &xrlab_stack_get_groups (a)[g], *y = &xrlab_stack_get_groups (b)[g];
      FUZZ_CHECK (x->first_layer == y->first_layer && x->n_period == y->n_period
                  && x->count == y->count && x->depth == y->depth,
                  "“%s” → “%s”: group %zu differs", text, canon, g);
    }
  FUZZ_CHECK (xrlab_stack_get_ambient (a) == xrlab_stack_get_ambient (b)
              && xrlab_stack_get_substrate (a) == xrlab_stack_get_substrate (b)
              && xrlab_stack_get_substrate_roughness_nm (a) == xrlab_stack_get_substrate_roughness_nm (b),
              "“%s” → “%s”: ambient or substrate differs", text, canon);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autofree char *text = NULL;
  g_autofree char *canon = NULL, *canon2 = NULL;
  g_autoptr(XrlabStack) s = NULL;
  g_autoptr(XrlabStack) again = NULL;
  g_autoptr(GError) error = NULL;
  gboolean filter;
  int column = -1;

  if (size < 1 || size > 4096)
    return 0;
  fuzz_init_once ();
  filter = (data[0] & 1) != 0;
  text = fuzz_string (data + 1, size - 1);
  s = parse (filter, text, &column, &error);
  if (s == NULL)
    {
      FUZZ_CHECK (error != NULL && error->message[0] != '\0', "“%s” refused without a message", text);
      if (g_utf8_validate (text, -1, NULL))
        FUZZ_CHECK (column >= 1 && column <= (int) g_utf8_strlen (text, -1) + 1,
                    "“%s”: column %d outside the text: %s", text, column, error->message);
      return 0;
    }
  check_valid (s, text);
  canon = xrlab_stack_to_string (s);
  again = parse (filter, canon, NULL, &error);
  FUZZ_CHECK (again != NULL, "“%s” → “%s” does not parse again: %s", text, canon,
              error ? error->message : "");
  check_same (s, again, text, canon);
  canon2 = xrlab_stack_to_string (again);
  FUZZ_CHECK (strcmp (canon, canon2) == 0, "“%s” → “%s” → “%s”", text, canon, canon2);
  return 0;
}
