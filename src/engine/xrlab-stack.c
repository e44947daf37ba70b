/* xrlab-stack.c -- the stack grammar (see xrlab-stack.h)
 *
 * A recursive-descent parser over bytes: separators, braces, ':' '~' '@'
 * are ASCII and never occur inside a multi-byte UTF-8 sequence, so the
 * text is validated once and then scanned byte by byte; columns are
 * converted to characters only for messages. Recursion happens only at a
 * '{' and is bounded by XRLAB_STACK_MAX_DEPTH.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-stack.h"
#include "xrlab-stack-private.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "xrlab-presets.h"
#include "xrlab-util.h"

G_DEFINE_QUARK (xrlab-stack-error-quark, xrlab_stack_error)

/* Formulas are parsed with the stack's columns: the formula parser ignores
 * leading spaces, so a formula padded with (column - 1) spaces reports the
 * stack's column. Its texts are limited to 4096 characters. */
#define FORMULA_PAD_MAX 4000

/* How much of a layer's text a message quotes. */
#define QUOTE_MAX_CHARS 48

G_DEFINE_BOXED_TYPE (XrlabStack, xrlab_stack, xrlab_stack_ref, xrlab_stack_unref)

/* ---- the parser --------------------------------------------------------- */

static int
column_of (const XrlabStackParser *p, gsize pos)
{
  return (int) g_utf8_pointer_to_offset (p->text, p->text + MIN (pos, p->len)) + 1;
}

/* The current layer's text, shortened for a message. */
static char *
layer_quote (const XrlabStackParser *p)
{
  const char *s = p->text + p->layer_start;
  gsize n = p->layer_end - p->layer_start;
  glong chars = g_utf8_strlen (s, (gssize) n);

  g_autofree char *head = NULL;

  if (chars <= QUOTE_MAX_CHARS)
    return g_strndup (s, n);
  head = g_utf8_substring (s, 0, QUOTE_MAX_CHARS - 1);
  return g_strconcat (head, "…", NULL);
}

static void
set_column (XrlabStackParser *p, gsize pos)
{
  if (p->error_column)
    *p->error_column = column_of (p, pos);
}

/* An error about the stack as a whole, at byte @pos. */
gboolean G_GNUC_PRINTF (4, 5)
xrlab_stack_fail_at (XrlabStackParser *p, XrlabStackError code, gsize pos, const char *format, ...)
{
  g_autofree char *reason = NULL;
  va_list args;

  va_start (args, format);
  reason = g_strdup_vprintf (format, args);
  va_end (args);
  set_column (p, pos);
  /* TRANSLATORS: "Column 12: <what is wrong>" in a stack such as "Rh/Si". */
  g_set_error (p->error, XRLAB_STACK_ERROR, code, _("Column %d: %s"), column_of (p, pos), reason);
  return FALSE;
}

/* An error in the current layer, at byte @pos. */
gboolean G_GNUC_PRINTF (4, 5)
xrlab_stack_fail_layer (XrlabStackParser *p, XrlabStackError code, gsize pos, const char *format, ...)
{
  g_autofree char *reason = NULL;
  g_autofree char *quote = layer_quote (p);
  va_list args;

  va_start (args, format);
  reason = g_strdup_vprintf (format, args);
  va_end (args);
  set_column (p, pos);
  /* TRANSLATORS: "Layer 2 “B4C:1.5”, column 5: <what is wrong>". */
  g_set_error (p->error, XRLAB_STACK_ERROR, code, _("Layer %u “%s”, column %d: %s"),
               p->layer_number, quote, column_of (p, pos), reason);
  return FALSE;
}

static void
skip_spaces (XrlabStackParser *p)
{
  while (p->pos < p->len && xrlab_stack_is_space (p->text[p->pos]))
    p->pos++;
}

/* ---- materials ---------------------------------------------------------- */

static void
material_free (gpointer data)
{
  XrlabStackMaterial *m = data;

  xrlab_formula_unref (m->formula);
  g_free ((char *) m->name);
  g_free (m);
}

/* The index of an equal material, or of @formula added as a new one (the
 * stack takes @formula). */
int
xrlab_stack_add_material (XrlabStackParser *p, XrlabFormula *formula, const char *name, gsize name_len,
                          double density, gboolean is_gas, double pressure, double temperature)
{
  GPtrArray *ms = p->stack->materials;
  XrlabStackMaterial *m;

  for (guint i = 0; i < ms->len; i++)
    {
      m = g_ptr_array_index (ms, i);
      if (strlen (m->name) == name_len && memcmp (m->name, name, name_len) == 0
          && m->density_g_cm3 == density && m->is_gas == is_gas
          && m->pressure_pa == pressure && m->temperature_k == temperature)
        {
          xrlab_formula_unref (formula);
          return (int) i;
        }
    }
  m = g_new0 (XrlabStackMaterial, 1);
  m->formula = formula;
  m->name = g_strndup (name, name_len);
  m->density_g_cm3 = density;
  m->is_gas = is_gas;
  m->pressure_pa = pressure;
  m->temperature_k = temperature;
  g_ptr_array_add (ms, m);
  return (int) ms->len - 1;
}

/* The preset whose name is text[a..b) (case-insensitive), or NULL. */
const XrlabPreset *
xrlab_stack_preset_by_name (const char *s, gsize a, gsize b)
{
  g_autofree char *name = g_strndup (s + a, b - a);
  const XrlabPreset *preset = xrlab_presets_lookup (name);
  g_autofree char *folded = NULL, *preset_folded = NULL;

  if (preset == NULL)
    return NULL;
  folded = g_utf8_casefold (name, -1);
  preset_folded = g_utf8_casefold (preset->name, -1);
  return strcmp (folded, preset_folded) == 0 ? preset : NULL;
}

/* Parses the formula text[a..b) with the stack's columns in its messages. */
XrlabFormula *
xrlab_stack_parse_formula_at (XrlabStackParser *p, gsize a, gsize b)
{
  g_autoptr(GError) local = NULL;
  g_autofree char *quote = NULL;
  XrlabFormula *f;
  int col = column_of (p, a), fcol = 0;
  gboolean padded = (col - 1 + g_utf8_strlen (p->text + a, (gssize) (b - a)) <= FORMULA_PAD_MAX);
  g_autofree char *formula = g_strndup (p->text + a, b - a);
  GString *s;

  /* The formula's text is the formula alone; only a message is made from
   * the text padded to its column, so that its column is the stack's. */
  f = xrlab_formula_parse_full (formula, &fcol, &local);
  if (f != NULL)
    return f;
  if (padded)
    {
      s = g_string_sized_new ((gsize) col + (b - a) + 1);
      for (int i = 1; i < col; i++)
        g_string_append_c (s, ' ');
      g_string_append_len (s, p->text + a, (gssize) (b - a));
      g_clear_error (&local);
      f = xrlab_formula_parse_full (s->str, &fcol, &local);
      g_string_free (s, TRUE);
      g_return_val_if_fail (f == NULL, f);
    }

  quote = layer_quote (p);
  if (p->error_column)
    *p->error_column = padded ? fcol : col - 1 + MAX (fcol, 1);
  if (padded)
    /* TRANSLATORS: "Layer 2 “Xx:1nm”: <the formula's message with its column>". */
    g_set_error (p->error, XRLAB_STACK_ERROR, XRLAB_STACK_ERROR_MATERIAL,
                 _("Layer %u “%s”: %s"), p->layer_number, quote, local->message);
  else
    /* TRANSLATORS: the formula's message counts columns from the formula's start. */
    g_set_error (p->error, XRLAB_STACK_ERROR, XRLAB_STACK_ERROR_MATERIAL,
                 _("Layer %u “%s”, formula at column %d: %s"), p->layer_number, quote,
                 col, local->message);
  return NULL;
}

/* A solid (or liquid) material: formula or preset name at text[a..b),
 * density (NAN: from the preset). Returns its index, -1 on error. */
static int
solid_material (XrlabStackParser *p, gsize a, gsize b, double density, gsize density_pos)
{
  g_autofree char *name = NULL;
  const XrlabPreset *preset = NULL;
  XrlabStackName *known;
  XrlabFormula *f;
  char buf[XRLAB_DTOA_BUFSIZE];

  if (a == b)
    {
      xrlab_stack_fail_layer (p, XRLAB_STACK_ERROR_MATERIAL, a,
                              _("the formula is missing, as in “Rh:12.41:50nm”"));
      return -1;
    }
  name = g_strndup (p->text + a, b - a);
  known = g_hash_table_lookup (p->names, name);
  if (known != NULL)
    {
      /* A name met before: its formula and preset (10000 layers of "W"
       * parse it once). */
      f = xrlab_formula_ref (known->formula);
      preset = known->preset;
    }
  else
    {
      /* Formulas first; a preset name ("Kapton", "Fused silica") otherwise. */
      f = xrlab_stack_parse_formula_at (p, a, b);
      if (f == NULL)
        {
          preset = xrlab_stack_preset_by_name (p->text, a, b);
          if (preset == NULL && g_ascii_strcasecmp (name, "air") == 0)
            {
              g_clear_error (p->error);
              xrlab_stack_fail_layer (p, XRLAB_STACK_ERROR_MATERIAL, a,
                                      _("“air” is a gas: write it with its conditions, as in “air@1atm,295K”"));
              return -1;
            }
          /* (A preset's formula always parses: the formula's error stands.) */
          if (preset == NULL || (f = xrlab_formula_parse (preset->formula, NULL)) == NULL)
            return -1;
          g_clear_error (p->error);
          if (p->error_column)
            *p->error_column = 0;
        }
      else
        preset = xrlab_presets_lookup (name);
      known = g_new (XrlabStackName, 1);
      known->formula = xrlab_formula_ref (f);
      known->preset = preset;
      g_hash_table_insert (p->names, g_strdup (name), known);
    }

  if (isnan (density))
    {
      if (preset == NULL)
        {
          xrlab_formula_unref (f);
          xrlab_stack_fail_layer (p, XRLAB_STACK_ERROR_MATERIAL, a,
                                  _("no preset density for “%s”: give one, as in “%s:DENSITY”"),
                                  name, name);
          return -1;
        }
      density = preset->density_g_cm3;
    }
  else if (!(density > 0.0 && density <= XRLAB_STACK_MAX_DENSITY))
    {
      xrlab_formula_unref (f);
      xrlab_stack_fail_layer (p, XRLAB_STACK_ERROR_MATERIAL, density_pos,
                              _("the density %s g/cm³ must be above 0 and at most %g g/cm³"),
                              xrlab_format_double (density, buf), XRLAB_STACK_MAX_DENSITY);
      return -1;
    }
  return xrlab_stack_add_material (p, f, p->text + a, b - a, density, FALSE, 0.0, 0.0);
}

/* ---- layers ------------------------------------------------------------- */

/* A layer text[a..b) (trimmed, not empty). */
static gboolean
parse_layer (XrlabStackParser *p, gsize a, gsize b, XrlabStackEntry *entry)
{
  const char *s = p->text;
  gsize fields[4][2], n_fields = 0, i = a, main_end = b, tilde = b;
  double density = NAN;
  gsize density_pos = a;
  double max_t = (p->kind == XRLAB_STACK_REFLECT) ? XRLAB_STACK_MAX_REFLECT_THICKNESS_NM
                                                  : XRLAB_STACK_MAX_FILTER_THICKNESS_NM;
  const char *at = memchr (s + a, '@', b - a);

  entry->thickness_nm = NAN;
  entry->roughness_nm = 0.0;
  entry->is_gas = FALSE;
  if (at != NULL)
    return xrlab_stack_parse_gas (p, a, (gsize) (at - s), b, entry);

  /* "~ROUGHNESS" at the end. */
  for (gsize k = a; k < b; k++)
    if (s[k] == '~')
      {
        if (tilde != b)
          return xrlab_stack_fail_layer (p, XRLAB_STACK_ERROR_ROUGHNESS, k,
                                         _("a layer has one roughness “~σ”"));
        tilde = k;
      }
  main_end = tilde;

  /* FORMULA[:a][:b] */
  while (i <= main_end)
    {
      gsize e = i;
      while (e < main_end && s[e] != ':')
        e++;
      if (n_fields == G_N_ELEMENTS (fields))
        return xrlab_stack_fail_layer (p, XRLAB_STACK_ERROR_SYNTAX, i - 1,
                                       p->kind == XRLAB_STACK_REFLECT
                                       ? _("too many “:”: a layer is FORMULA[:DENSITY][:THICKNESS][~ROUGHNESS]")
                                       : _("too many “:”: a filter layer is FORMULA[:DENSITY]:THICKNESS"));
      fields[n_fields][0] = i;
      fields[n_fields][1] = e;
      xrlab_stack_trim (s, &fields[n_fields][0], &fields[n_fields][1]);
      n_fields++;
      i = e + 1;
    }
  if (n_fields > 3)
    return xrlab_stack_fail_layer (p, XRLAB_STACK_ERROR_SYNTAX, fields[3][0] - 1,
                                   p->kind == XRLAB_STACK_REFLECT
                                   ? _("too many “:”: a layer is FORMULA[:DENSITY][:THICKNESS][~ROUGHNESS]")
                                   : _("too many “:”: a filter layer is FORMULA[:DENSITY]:THICKNESS"));

  for (gsize k = 1; k < n_fields; k++)
    {
      gsize fa = fields[k][0], fb = fields[k][1], unit_pos = 0;
      const XrlabStackUnit *unit = NULL;
      double v = 0.0;

      if (fa == fb)
        return xrlab_stack_fail_layer (p, XRLAB_STACK_ERROR_SYNTAX, fa,
                                       _("empty field after “:”"));
      if (!xrlab_stack_scan_quantity (s, fa, fb, xrlab_stack_length_units, &v, &unit, &unit_pos))
        return xrlab_stack_fail_layer (p, XRLAB_STACK_ERROR_SYNTAX, fa,
                                       _("“%.*s” is not a number: expected a density (g/cm³) or a thickness with a unit (%s)"),
                                       (int) (fb - fa), s + fa, xrlab_stack_length_unit_list ());
      if (unit_pos == fb)
        {
          /* A plain number: the density, which comes before the thickness. */
          if (k == 2)
            return xrlab_stack_fail_layer (p, XRLAB_STACK_ERROR_THICKNESS, fa,
                                           _("the thickness “%.*s” needs a unit: %s"),
                                           (int) (fb - fa), s + fa, xrlab_stack_length_unit_list ());
          density = v;
          density_pos = fa;
          continue;
        }
      if (unit == NULL)
        return xrlab_stack_fail_layer (p, XRLAB_STACK_ERROR_THICKNESS, unit_pos,
                                       _("unknown unit “%.*s”: a thickness is in %s"),
                                       (int) (fb - unit_pos), s + unit_pos, xrlab_stack_length_unit_list ());
      if (k == 1 && n_fields == 3)
        return xrlab_stack_fail_layer (p, XRLAB_STACK_ERROR_MATERIAL, fa,
                                       _("the density comes before the thickness and has no unit, as in “W:19.3:1nm”"));
      v *= unit->factor;
      if (!(v > 0.0 && v <= max_t))
        return xrlab_stack_fail_layer (p, XRLAB_STACK_ERROR_THICKNESS, fa,
                                       _("the thickness “%.*s” must be above 0 and at most %s"),
                                       (int) (fb - fa), s + fa,
                                       p->kind == XRLAB_STACK_REFLECT ? "1 mm" : "10 m");
      entry->thickness_nm = v;
    }

  if (tilde < b)
    {
      gsize ra = tilde + 1, rb = b, unit_pos = 0;
      const XrlabStackUnit *unit = NULL;
      double v = 0.0;

      xrlab_stack_trim (s, &ra, &rb);
      if (p->kind == XRLAB_STACK_FILTER)
        return xrlab_stack_fail_layer (p, XRLAB_STACK_ERROR_ROUGHNESS, tilde,
                                       _("a filter layer has no roughness"));
      if (!xrlab_stack_scan_quantity (s, ra, rb, xrlab_stack_length_units, &v, &unit, &unit_pos))
        return xrlab_stack_fail_layer (p, XRLAB_STACK_ERROR_ROUGHNESS, ra,
                                       _("the roughness is a number with a unit (%s), as in “~0.3nm”; it comes last"),
                                       xrlab_stack_length_unit_list ());
      if (unit == NULL)
        return xrlab_stack_fail_layer (p, XRLAB_STACK_ERROR_ROUGHNESS, unit_pos == rb ? ra : unit_pos,
                                       _("the roughness “%.*s” needs a unit: %s"), (int) (rb - ra), s + ra,
                                       xrlab_stack_length_unit_list ());
      v *= unit->factor;
      if (!(v >= 0.0 && v <= XRLAB_STACK_MAX_ROUGHNESS_NM))
        return xrlab_stack_fail_layer (p, XRLAB_STACK_ERROR_ROUGHNESS, ra,
                                       _("the roughness “%.*s” must be from 0 to %g nm"),
                                       (int) (rb - ra), s + ra, XRLAB_STACK_MAX_ROUGHNESS_NM);
      entry->roughness_nm = v;
    }

  if (p->kind == XRLAB_STACK_FILTER && isnan (entry->thickness_nm))
    return xrlab_stack_fail_layer (p, XRLAB_STACK_ERROR_THICKNESS, b,
                                   _("a filter layer needs a thickness, as in “Al:100um”"));

  entry->material = solid_material (p, fields[0][0], fields[0][1], density, density_pos);
  return entry->material >= 0;
}

/* ---- sequences and groups ----------------------------------------------- */

static gboolean
append_layer (XrlabStackParser *p, const XrlabStackEntry *e, gsize pos)
{
  XrlabStackLayer layer = { (guint) e->material, e->thickness_nm, e->roughness_nm, p->layer_number };

  /* One more than the limit: the substrate is popped at the end. */
  if (p->stack->layers->len >= XRLAB_STACK_MAX_LAYERS + 1)
    return xrlab_stack_fail_at (p, XRLAB_STACK_ERROR_LIMIT, pos,
                                _("the stack has more than %d layers"), XRLAB_STACK_MAX_LAYERS);
  g_array_append_val (p->stack->layers, layer);
  return TRUE;
}

static gboolean parse_sequence (XrlabStackParser *p, guint depth, gboolean *last_is_substrate);

/* A group "{...}xN" at p->pos (the '{'). */
static gboolean
parse_group (XrlabStackParser *p, guint depth)
{
  GArray *layers = p->stack->layers;
  gsize open = p->pos, first = layers->len, period, count_pos;
  guint64 count = 0;
  XrlabStackGroup group;
  guint group_index;
  gboolean dummy;

  if (depth + 1 > XRLAB_STACK_MAX_DEPTH)
    return xrlab_stack_fail_at (p, XRLAB_STACK_ERROR_LIMIT, open,
                                _("groups nest more than %d deep"), XRLAB_STACK_MAX_DEPTH);
  /* Reserve the group's place before its inner groups. */
  group_index = p->stack->groups->len;
  memset (&group, 0, sizeof group);
  g_array_append_val (p->stack->groups, group);

  p->pos++;
  if (!parse_sequence (p, depth + 1, &dummy))
    return FALSE;
  if (p->pos >= p->len || p->text[p->pos] != '}')
    return xrlab_stack_fail_at (p, XRLAB_STACK_ERROR_SYNTAX, open,
                                _("the group “{” is never closed with “}xN”"));
  p->pos++;
  period = layers->len - first;
  skip_spaces (p);
  count_pos = p->pos;
  if (p->pos < p->len && (p->text[p->pos] == 'x' || p->text[p->pos] == 'X' || p->text[p->pos] == '*'))
    p->pos++;
  else if (p->pos + 1 < p->len && (guchar) p->text[p->pos] == 0xC3 && (guchar) p->text[p->pos + 1] == 0x97)
    p->pos += 2;   /* × */
  else
    return xrlab_stack_fail_at (p, XRLAB_STACK_ERROR_SYNTAX, count_pos,
                                _("a group needs its number of periods after “}”, as in “}x50”"));
  skip_spaces (p);
  count_pos = p->pos;
  while (p->pos < p->len && g_ascii_isdigit (p->text[p->pos]))
    {
      if (count <= XRLAB_STACK_MAX_COUNT)
        count = count * 10 + (guint64) (p->text[p->pos] - '0');
      p->pos++;
    }
  if (p->pos == count_pos)
    return xrlab_stack_fail_at (p, XRLAB_STACK_ERROR_SYNTAX, count_pos,
                                _("a group needs its number of periods after “}”, as in “}x50”"));
  if (count < 1 || count > XRLAB_STACK_MAX_COUNT)
    return xrlab_stack_fail_at (p, XRLAB_STACK_ERROR_LIMIT, count_pos,
                                _("a group repeats from 1 to %d times"), XRLAB_STACK_MAX_COUNT);
  /* period ≥ 1 here (an empty group fails in parse_sequence). */
  if ((guint64) period * (count - 1) + layers->len > XRLAB_STACK_MAX_LAYERS + 1)
    return xrlab_stack_fail_at (p, XRLAB_STACK_ERROR_LIMIT, open,
                                _("the stack has more than %d layers"), XRLAB_STACK_MAX_LAYERS);
  {
    /* Grow first: appending from the array itself would read freed memory. */
    gsize end = layers->len;
    XrlabStackLayer *l;

    g_array_set_size (layers, end + period * (gsize) (count - 1));
    l = (XrlabStackLayer *) (gpointer) layers->data;
    for (guint64 c = 1; c < count; c++)
      memcpy (l + end + (c - 1) * period, l + first, period * sizeof *l);
  }

  group.first_layer = first;
  group.n_period = period;
  group.count = (guint) count;
  group.depth = depth + 1;
  g_array_index (p->stack->groups, XrlabStackGroup, group_index) = group;
  return TRUE;
}

/* Entries separated by '/' until the end or (inside a group) a '}'. At the
 * top level of a reflectivity stack, *last_is_substrate says whether the
 * last entry was a layer without thickness (the substrate, still in the
 * layer array). */
static gboolean
parse_sequence (XrlabStackParser *p, guint depth, gboolean *last_is_substrate)
{
  guint n_entries = 0;
  gboolean reflect = (p->kind == XRLAB_STACK_REFLECT);

  *last_is_substrate = FALSE;
  for (;;)
    {
      gsize start, end;
      XrlabStackEntry e = { -1, NAN, 0.0, FALSE };

      skip_spaces (p);
      start = p->pos;
      if (p->pos < p->len && p->text[p->pos] == '{')
        {
          if (!parse_group (p, depth))
            return FALSE;
          *last_is_substrate = FALSE;
        }
      else
        {
          /* A layer runs to a '/' that is not a mixture's "//" (in the
           * formula, before any ':', '~' or '@'), a brace or the end. */
          gboolean in_formula = TRUE;

          end = p->pos;
          while (end < p->len)
            {
              char c = p->text[end];
              if (c == '{' || c == '}')
                break;
              if (c == ':' || c == '~' || c == '@')
                in_formula = FALSE;
              if (c == '/')
                {
                  if (in_formula && end > start && end + 1 < p->len && p->text[end + 1] == '/')
                    {
                      end += 2;
                      continue;
                    }
                  break;
                }
              end++;
            }
          p->layer_start = start;
          p->layer_end = end;
          xrlab_stack_trim (p->text, &p->layer_start, &p->layer_end);
          if (p->layer_start == p->layer_end)
            {
              guint number = p->n_source + 1;

              if (end < p->len && p->text[end] == '}')
                return n_entries == 0
                       ? xrlab_stack_fail_at (p, XRLAB_STACK_ERROR_SYNTAX, end, _("empty group “{}”"))
                       : xrlab_stack_fail_at (p, XRLAB_STACK_ERROR_SYNTAX, end, _("layer %u is empty: nothing between “/” and “}”"), number);
              if (end >= p->len)
                return xrlab_stack_fail_at (p, XRLAB_STACK_ERROR_SYNTAX, end,
                                            _("layer %u is empty: nothing after the last “/”"), number);
              return xrlab_stack_fail_at (p, XRLAB_STACK_ERROR_SYNTAX, end,
                                          _("layer %u is empty: nothing before this “/”"), number);
            }
          if (end < p->len && p->text[end] == '{')
            return xrlab_stack_fail_at (p, XRLAB_STACK_ERROR_SYNTAX, end,
                                        _("a group “{” follows a “/”, as in “Rh:2nm/{W:1nm/B4C:1.5nm}x50/Si”"));
          p->layer_number = ++p->n_source;
          p->pos = end;
          if (!parse_layer (p, p->layer_start, p->layer_end, &e))
            return FALSE;

          if (e.is_gas)
            {
              if (!reflect)
                {
                  if (isnan (e.thickness_nm))
                    return xrlab_stack_fail_layer (p, XRLAB_STACK_ERROR_THICKNESS, p->layer_end,
                                                   _("a gas path needs a length, as in “air@1atm,295K:1m”"));
                }
              else if (depth > 0 || n_entries > 0)
                return xrlab_stack_fail_layer (p, XRLAB_STACK_ERROR_GAS, p->layer_start,
                                               _("a gas in a reflectivity stack is the ambient: it comes first, without a length"));
              else if (!isnan (e.thickness_nm))
                return xrlab_stack_fail_layer (p, XRLAB_STACK_ERROR_GAS, p->layer_start,
                                               _("the ambient gas above a stack has no length: write “He@1atm/…”"));
              else
                {
                  p->stack->ambient = e.material;
                  skip_spaces (p);
                  if (p->pos >= p->len)
                    return xrlab_stack_fail_layer (p, XRLAB_STACK_ERROR_SYNTAX, p->pos,
                                                   _("the ambient needs a stack below it, as in “He@1atm/Rh”"));
                  n_entries++;
                  goto separator;
                }
            }
          else if (reflect && isnan (e.thickness_nm))
            {
              if (depth > 0)
                return xrlab_stack_fail_layer (p, XRLAB_STACK_ERROR_THICKNESS, p->layer_end,
                                               _("a layer in a group needs a thickness, as in “W:1nm”"));
              skip_spaces (p);
              if (p->pos < p->len && p->text[p->pos] != '}')
                return xrlab_stack_fail_layer (p, XRLAB_STACK_ERROR_THICKNESS, p->layer_end,
                                               _("the layer needs a thickness, as in “Rh:50nm”: only the last one, the substrate, has none"));
            }
          if (!append_layer (p, &e, p->layer_start))
            return FALSE;
          *last_is_substrate = reflect && isnan (e.thickness_nm);
        }
      n_entries++;

    separator:
      skip_spaces (p);
      if (p->pos >= p->len)
        return TRUE;    /* in a group, the caller reports the missing '}' */
      if (p->text[p->pos] == '}')
        {
          if (depth == 0)
            return xrlab_stack_fail_at (p, XRLAB_STACK_ERROR_SYNTAX, p->pos, _("“}” without a “{”"));
          return TRUE;
        }
      if (p->text[p->pos] != '/')
        return xrlab_stack_fail_at (p, XRLAB_STACK_ERROR_SYNTAX, p->pos,
                                    _("unexpected “%.*s” after a group: layers are separated by “/”"),
                                    (int) (g_utf8_next_char (p->text + p->pos) - (p->text + p->pos)),
                                    p->text + p->pos);
      p->pos++;
    }
}

static void
name_free (gpointer data)
{
  XrlabStackName *n = data;

  xrlab_formula_unref (n->formula);
  g_free (n);
}

static XrlabStack *
stack_new (XrlabStackKind kind, const char *text)
{
  XrlabStack *stack = g_new0 (XrlabStack, 1);

  g_atomic_ref_count_init (&stack->ref);
  stack->kind = kind;
  stack->text = g_strdup (text);
  stack->materials = g_ptr_array_new_with_free_func (material_free);
  stack->layers = g_array_new (FALSE, FALSE, sizeof (XrlabStackLayer));
  stack->groups = g_array_new (FALSE, FALSE, sizeof (XrlabStackGroup));
  stack->ambient = -1;
  stack->substrate = -1;
  return stack;
}

static XrlabStack *
stack_parse (XrlabStackKind kind, const char *text, int *error_column, GError **error)
{
  g_autoptr(XrlabStack) stack = NULL;
  const char *bad = NULL;
  gboolean last_is_substrate = FALSE, ok;
  XrlabStackParser p = { 0, };

  if (error_column)
    *error_column = 0;
  if (text == NULL)
    text = "";
  if (!g_utf8_validate (text, -1, &bad))
    {
      if (error_column)
        *error_column = (int) g_utf8_pointer_to_offset (text, bad) + 1;
      g_set_error (error, XRLAB_STACK_ERROR, XRLAB_STACK_ERROR_INVALID,
                   _("The stack is not valid UTF-8 text (byte %zu)"), (gsize) (bad - text) + 1);
      return NULL;
    }
  if (g_utf8_strlen (text, -1) > XRLAB_STACK_MAX_CHARS)
    {
      if (error_column)
        *error_column = XRLAB_STACK_MAX_CHARS + 1;
      g_set_error (error, XRLAB_STACK_ERROR, XRLAB_STACK_ERROR_LIMIT,
                   _("The stack is longer than %d characters"), XRLAB_STACK_MAX_CHARS);
      return NULL;
    }

  stack = stack_new (kind, text);
  p.text = text;
  p.len = strlen (text);
  p.kind = kind;
  p.stack = stack;
  p.error_column = error_column;
  p.error = error;

  skip_spaces (&p);
  if (p.pos >= p.len)
    {
      xrlab_stack_fail_at (&p, XRLAB_STACK_ERROR_INVALID, 0,
                           kind == XRLAB_STACK_REFLECT
                           ? _("empty stack: give at least a substrate, as in “Rh”")
                           : _("empty filter: give at least one layer, as in “Al:100um”"));
      return NULL;
    }
  p.names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, name_free);
  ok = parse_sequence (&p, 0, &last_is_substrate);
  g_hash_table_unref (p.names);
  if (!ok)
    return NULL;
  /* At the top level parse_sequence() returns TRUE only at the end. */
  g_assert (p.pos >= p.len);
  if (last_is_substrate)
    {
      XrlabStackLayer *s = &g_array_index (stack->layers, XrlabStackLayer, stack->layers->len - 1);
      stack->substrate = (int) s->material;
      stack->substrate_roughness_nm = s->roughness_nm;
      g_array_set_size (stack->layers, stack->layers->len - 1);
    }
  if (stack->layers->len > XRLAB_STACK_MAX_LAYERS)
    {
      xrlab_stack_fail_at (&p, XRLAB_STACK_ERROR_LIMIT, 0,
                           _("the stack has more than %d layers"), XRLAB_STACK_MAX_LAYERS);
      return NULL;
    }
  if (error_column)
    *error_column = 0;
  return g_steal_pointer (&stack);
}

XrlabStack *
xrlab_stack_parse_reflect (const char *text, int *error_column, GError **error)
{
  return stack_parse (XRLAB_STACK_REFLECT, text, error_column, error);
}

XrlabStack *
xrlab_stack_parse_filter (const char *text, int *error_column, GError **error)
{
  return stack_parse (XRLAB_STACK_FILTER, text, error_column, error);
}

XrlabStack *
xrlab_stack_ref (XrlabStack *stack)
{
  g_return_val_if_fail (stack != NULL, NULL);
  g_atomic_ref_count_inc (&stack->ref);
  return stack;
}

void
xrlab_stack_unref (XrlabStack *stack)
{
  if (stack == NULL || !g_atomic_ref_count_dec (&stack->ref))
    return;
  g_ptr_array_unref (stack->materials);
  g_array_unref (stack->layers);
  g_array_unref (stack->groups);
  g_free (stack->text);
  g_free (stack);
}

XrlabStackKind
xrlab_stack_get_kind (const XrlabStack *stack)
{
  return stack->kind;
}

const char *
xrlab_stack_get_text (const XrlabStack *stack)
{
  return stack->text;
}

gsize
xrlab_stack_get_n_materials (const XrlabStack *stack)
{
  return stack->materials->len;
}

const XrlabStackMaterial *
xrlab_stack_get_material (const XrlabStack *stack, gsize index)
{
  g_return_val_if_fail (index < stack->materials->len, NULL);
  return g_ptr_array_index (stack->materials, index);
}

gsize
xrlab_stack_get_n_layers (const XrlabStack *stack)
{
  return stack->layers->len;
}

const XrlabStackLayer *
xrlab_stack_get_layers (const XrlabStack *stack)
{
  return (const XrlabStackLayer *) (gpointer) stack->layers->data;
}

gsize
xrlab_stack_get_n_groups (const XrlabStack *stack)
{
  return stack->groups->len;
}

const XrlabStackGroup *
xrlab_stack_get_groups (const XrlabStack *stack)
{
  return (const XrlabStackGroup *) (gpointer) stack->groups->data;
}

int
xrlab_stack_get_ambient (const XrlabStack *stack)
{
  return stack->ambient;
}

int
xrlab_stack_get_substrate (const XrlabStack *stack)
{
  return stack->substrate;
}

double
xrlab_stack_get_substrate_roughness_nm (const XrlabStack *stack)
{
  return stack->substrate_roughness_nm;
}

/* ---- canonical text ------------------------------------------------------ */

static void
write_material (GString *s, const XrlabStackMaterial *m)
{
  char buf[XRLAB_DTOA_BUFSIZE];

  g_string_append (s, m->name);
  if (m->is_gas)
    {
      g_string_append_printf (s, "@%sPa", xrlab_format_double (m->pressure_pa, buf));
      g_string_append_printf (s, ",%sK", xrlab_format_double (m->temperature_k, buf));
    }
  else
    g_string_append_printf (s, ":%s", xrlab_format_double (m->density_g_cm3, buf));
}

static void
write_layer (GString *s, const XrlabStack *stack, const XrlabStackLayer *l)
{
  char buf[XRLAB_DTOA_BUFSIZE];

  write_material (s, g_ptr_array_index (stack->materials, l->material));
  g_string_append_printf (s, ":%snm", xrlab_format_double (l->thickness_nm, buf));
  if (l->roughness_nm > 0.0)
    g_string_append_printf (s, "~%snm", xrlab_format_double (l->roughness_nm, buf));
}

/* Layers [a, b) at @depth: groups of depth + 1 starting in the range are
 * written as groups. *g walks the (sorted) group list. */
static void
write_range (GString *s, const XrlabStack *stack, gsize a, gsize b, guint depth, guint *g)
{
  const XrlabStackGroup *groups = xrlab_stack_get_groups (stack);
  const XrlabStackLayer *layers = xrlab_stack_get_layers (stack);
  gsize i = a;

  while (i < b)
    {
      if (i > a)
        g_string_append_c (s, '/');
      if (*g < stack->groups->len && groups[*g].first_layer == i && groups[*g].depth == depth + 1)
        {
          const XrlabStackGroup *grp = &groups[(*g)++];
          g_string_append_c (s, '{');
          write_range (s, stack, i, i + grp->n_period, depth + 1, g);
          g_string_append_printf (s, "}x%u", grp->count);
          i += grp->n_period * grp->count;
        }
      else
        write_layer (s, stack, &layers[i++]);
    }
}

char *
xrlab_stack_to_string (const XrlabStack *stack)
{
  GString *s = g_string_new (NULL);
  guint g = 0;
  char buf[XRLAB_DTOA_BUFSIZE];

  if (stack->ambient >= 0)
    {
      write_material (s, g_ptr_array_index (stack->materials, stack->ambient));
      g_string_append_c (s, '/');
    }
  write_range (s, stack, 0, stack->layers->len, 0, &g);
  if (stack->substrate >= 0)
    {
      if (stack->layers->len > 0)
        g_string_append_c (s, '/');
      write_material (s, g_ptr_array_index (stack->materials, stack->substrate));
      if (stack->substrate_roughness_nm > 0.0)
        g_string_append_printf (s, "~%snm", xrlab_format_double (stack->substrate_roughness_nm, buf));
    }
  return g_string_free (s, FALSE);
}
