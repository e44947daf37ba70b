/* xrlab-formula.c -- chemical formula parser
 *
 * A recursive-descent parser over the UTF-8 text. Positions are byte offsets
 * internally and reported as 1-based character columns.
 *
 *   formula  := part ( "//" part )*
 *   part     := [ number "wt" "%" ] compound
 *   compound := unit ( dot unit )*            dot: · ⋅ • * +
 *   unit     := [ number ] item+
 *   item     := symbol [ count ] | "(" item+ ")" [ count ] | "[" item+ "]" [ count ]
 *   number   := digits [ "." digits ] | "." digits
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-formula.h"
#include "xrlab-formula-private.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "xrlab-elements.h"

G_DEFINE_QUARK (xrlab-formula-error-quark, xrlab_formula_error)

#define MAX_DEPTH 32
#define MAX_CHARS 4096

struct _XrlabFormula {
  gatomicrefcount ref;
  char *text;
  gsize n_atoms;
  int *ids;
  int *z;
  double *counts;
  double *mass_fractions;
  double molecular_weight;
  double electrons;
  gsize n_parts;
  char **part_texts;
  double *part_fractions;
};

G_DEFINE_BOXED_TYPE (XrlabFormula, xrlab_formula, xrlab_formula_ref, xrlab_formula_unref)

/* Atoms per formula unit, indexed by element id. */
typedef struct {
  double n[XRLAB_ELEMENT_N_IDS];
} Counts;

typedef enum {
  CONTEXT_START,          /* the beginning of the formula */
  CONTEXT_AFTER_PARTS,    /* after "//" */
  CONTEXT_AFTER_FRACTION, /* after "70wt%" */
  CONTEXT_AFTER_DOT,      /* after a hydrate dot */
} Context;

typedef struct {
  const char *text;
  gsize len;
  gsize pos;
  gboolean suggest;             /* offer a re-cased suggestion on case errors */
  int order[XRLAB_ELEMENT_N_IDS];
  int n_order;
  gboolean seen[XRLAB_ELEMENT_N_IDS];
  GError *error;
  int error_column;
} Parser;

/* Elements beyond uranium, for a clearer message than "unknown". */
static const char *const heavy_symbols[] = {
  "Np", "Pu", "Am", "Cm", "Bk", "Cf", "Es", "Fm", "Md", "No", "Lr", "Rf", "Db",
  "Sg", "Bh", "Hs", "Mt", "Ds", "Rg", "Cn", "Nh", "Fl", "Mc", "Lv", "Ts", "Og",
};

static gboolean parse_into (Parser *p, XrlabFormula **out);

static int
column_of (const Parser *p, gsize pos)
{
  return (int) g_utf8_strlen (p->text, (gssize) pos) + 1;
}

static gboolean fail (Parser *p, gsize pos, XrlabFormulaError code, const char *format, ...) G_GNUC_PRINTF (4, 5);

static gboolean
fail (Parser *p, gsize pos, XrlabFormulaError code, const char *format, ...)
{
  va_list args;

  if (p->error != NULL)
    return FALSE;
  va_start (args, format);
  p->error = g_error_new_valist (XRLAB_FORMULA_ERROR, code, format, args);
  va_end (args);
  p->error_column = column_of (p, pos);
  return FALSE;
}

static gboolean
at_end (const Parser *p)
{
  return p->pos >= p->len;
}

static char
cur (const Parser *p)
{
  return at_end (p) ? '\0' : p->text[p->pos];
}

static char
next_char (const Parser *p)
{
  return (p->pos + 1 < p->len) ? p->text[p->pos + 1] : '\0';
}

static void
skip_ws (Parser *p)
{
  while (!at_end (p))
    {
      gunichar c = g_utf8_get_char (p->text + p->pos);
      if (!g_unichar_isspace (c))
        break;
      p->pos = (gsize) (g_utf8_next_char (p->text + p->pos) - p->text);
    }
}

/* The length in bytes of a hydrate dot at the current position, or 0. */
static gsize
dot_length (const Parser *p)
{
  const char *s = p->text + p->pos;
  gsize left = p->len - p->pos;

  if (left >= 1 && (s[0] == '*' || s[0] == '+'))
    return 1;
  if (left >= 2 && memcmp (s, "\xc2\xb7", 2) == 0)       /* · U+00B7 */
    return 2;
  if (left >= 3 && (memcmp (s, "\xe2\x8b\x85", 3) == 0    /* ⋅ U+22C5 */
                    || memcmp (s, "\xe2\x80\xa2", 3) == 0)) /* • U+2022 */
    return 3;
  return 0;
}

static gboolean
at_parts_separator (const Parser *p)
{
  return p->pos + 1 < p->len && p->text[p->pos] == '/' && p->text[p->pos + 1] == '/';
}

static gboolean
number_starts (const Parser *p)
{
  char c = cur (p);
  return g_ascii_isdigit (c) || (c == '.' && g_ascii_isdigit (next_char (p)));
}

/* Reads a number (digits [. digits] | . digits) at the current position. */
static double
read_number (Parser *p, gsize *start)
{
  char buf[64];
  gsize n;

  *start = p->pos;
  while (!at_end (p) && g_ascii_isdigit (cur (p)))
    p->pos++;
  if (cur (p) == '.' && g_ascii_isdigit (next_char (p)))
    {
      p->pos++;
      while (!at_end (p) && g_ascii_isdigit (cur (p)))
        p->pos++;
    }
  /* an exponent, "1e-6" (a lower-case e never starts an element symbol) */
  if (cur (p) == 'e' && p->pos > *start)
    {
      gsize e = p->pos + 1;
      if (e < p->len && (p->text[e] == '-' || p->text[e] == '+'))
        e++;
      if (e < p->len && g_ascii_isdigit (p->text[e]))
        {
          p->pos = e;
          while (!at_end (p) && g_ascii_isdigit (cur (p)))
            p->pos++;
        }
    }
  n = p->pos - *start;
  if (n >= sizeof buf)
    return INFINITY;   /* absurdly long: rejected by the caller */
  memcpy (buf, p->text + *start, n);
  buf[n] = '\0';
  return g_ascii_strtod (buf, NULL);
}

/* One UTF-8 character at @pos, for messages. */
static char *
char_at (const Parser *p, gsize pos)
{
  const char *s = p->text + pos;
  return g_strndup (s, (gsize) (g_utf8_next_char (s) - s));
}

/* Up to 12 characters from @pos, for messages. */
static char *
snippet_at (const Parser *p, gsize pos)
{
  const char *s = p->text + pos;
  glong n = g_utf8_strlen (s, (gssize) (p->len - pos));

  g_autofree char *head = NULL;

  if (n <= 12)
    return g_strndup (s, p->len - pos);
  head = g_utf8_substring (s, 0, 12);
  return g_strconcat (head, "…", NULL);
}

static gboolean
fail_number (Parser *p, gsize start, gsize end)
{
  g_autofree char *num = g_strndup (p->text + start, end - start);
  return fail (p, start, XRLAB_FORMULA_ERROR_COUNT,
               _("Count “%s” at column %d must be a positive number"), num, column_of (p, start));
}

static gboolean
fail_negative (Parser *p, gsize pos)
{
  gsize save = p->pos, start;
  g_autofree char *num = NULL;

  p->pos = pos + 1;
  read_number (p, &start);
  num = g_strndup (p->text + pos, p->pos - pos);
  p->pos = save;
  return fail (p, pos, XRLAB_FORMULA_ERROR_COUNT,
               _("Negative count “%s” at column %d: counts must be positive"),
               num, column_of (p, pos));
}

/* An optional count after a symbol or a closing parenthesis. */
static gboolean
read_count (Parser *p, double *count)
{
  gsize save = p->pos;

  skip_ws (p);
  if (cur (p) == '-' && (g_ascii_isdigit (next_char (p)) || next_char (p) == '.'))
    return fail_negative (p, p->pos);
  if (number_starts (p))
    {
      gsize start;
      double v = read_number (p, &start);
      if (!(v > 0.0) || !isfinite (v))
        return fail_number (p, start, p->pos);
      *count = v;
      return TRUE;
    }
  p->pos = save;
  *count = 1.0;
  return TRUE;
}

/* A suggestion for a formula with wrongly cased symbols, or NULL. */
static char *
suggestion (const Parser *p)
{
  g_autofree char *candidate = NULL;
  Parser *q;
  gboolean ok;

  if (!p->suggest)
    return NULL;
  candidate = xrlab_formula_recase (p->text);
  if (candidate == NULL || strcmp (candidate, p->text) == 0)
    return NULL;
  /* Only suggest what parses. */
  q = g_new0 (Parser, 1);
  q->text = candidate;
  q->len = strlen (candidate);
  q->suggest = FALSE;
  ok = parse_into (q, NULL);
  g_clear_error (&q->error);
  g_free (q);
  return ok ? g_steal_pointer (&candidate) : NULL;
}

static gboolean
fail_lowercase (Parser *p, gsize pos)
{
  g_autofree char *run = NULL;
  g_autofree char *hint = suggestion (p);
  gsize n = 0;

  while (pos + n < p->len && g_ascii_isalnum (p->text[pos + n]))
    n++;
  run = g_strndup (p->text + pos, n);
  if (hint)
    return fail (p, pos, XRLAB_FORMULA_ERROR_LOWERCASE,
                 _("Element symbols are case-sensitive: “%s” at column %d is not a symbol; did you mean “%s”?"),
                 run, column_of (p, pos), hint);
  return fail (p, pos, XRLAB_FORMULA_ERROR_LOWERCASE,
               _("Element symbols are case-sensitive and start with a capital letter: “%s” at column %d"),
               run, column_of (p, pos));
}

static gboolean
fail_unknown (Parser *p, gsize pos, gsize n)
{
  g_autofree char *sym = g_strndup (p->text + pos, n);
  g_autofree char *hint = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (heavy_symbols); i++)
    if (strcmp (sym, heavy_symbols[i]) == 0)
      return fail (p, pos, XRLAB_FORMULA_ERROR_UNKNOWN_ELEMENT,
                   _("Element %s (Z = %u) at column %d has no scattering-factor table: "
                     "the Henke tables cover H to U (Z = 1–92)"),
                   sym, XRLAB_ELEMENT_Z_MAX + 1 + i, column_of (p, pos));
  hint = suggestion (p);
  if (hint)
    return fail (p, pos, XRLAB_FORMULA_ERROR_UNKNOWN_ELEMENT,
                 _("Unknown element “%s” at column %d; did you mean “%s”?"),
                 sym, column_of (p, pos), hint);
  return fail (p, pos, XRLAB_FORMULA_ERROR_UNKNOWN_ELEMENT,
               _("Unknown element “%s” at column %d"), sym, column_of (p, pos));
}

static gboolean
fail_unexpected (Parser *p, gsize pos)
{
  g_autofree char *c = char_at (p, pos);
  g_autofree char *rest = snippet_at (p, pos);

  if (g_ascii_isdigit (p->text[pos])
      || (p->text[pos] == '.' && pos + 1 < p->len && g_ascii_isdigit (p->text[pos + 1])))
    return fail (p, pos, XRLAB_FORMULA_ERROR_UNEXPECTED,
                 _("Unexpected number at column %d: a count follows an element symbol "
                   "or a closing parenthesis (write adducts as CuSO4·5H2O)"),
                 column_of (p, pos));
  if (p->text[pos] == '/')
    return fail (p, pos, XRLAB_FORMULA_ERROR_UNEXPECTED,
                 _("Unexpected “/” at column %d: the parts of a mixture are separated by “//”"),
                 column_of (p, pos));
  if (p->text[pos] == '%')
    return fail (p, pos, XRLAB_FORMULA_ERROR_FRACTION,
                 _("Unexpected “%%” at column %d: write mass fractions before their part, as in “70wt%% SiO2 // B2O3”"),
                 column_of (p, pos));
  if (strcmp (c, rest) == 0)
    return fail (p, pos, XRLAB_FORMULA_ERROR_UNEXPECTED,
                 _("Unexpected “%s” at column %d"), c, column_of (p, pos));
  return fail (p, pos, XRLAB_FORMULA_ERROR_UNEXPECTED,
               _("Unexpected “%s” at column %d (in “%s”)"), c, column_of (p, pos), rest);
}

static void
note_atom (Parser *p, int id)
{
  if (!p->seen[id])
    {
      p->seen[id] = TRUE;
      p->order[p->n_order++] = id;
    }
}

static void
counts_add (Counts *acc, const Counts *add, double factor)
{
  for (int id = 1; id < XRLAB_ELEMENT_N_IDS; id++)
    acc->n[id] += factor * add->n[id];
}

/* item+ up to @closer (consumed) or, at depth 0, up to anything that is not
 * an item. *@any tells whether there was an item. */
static gboolean
parse_items (Parser *p, Counts *acc, int depth, char closer, gsize open_pos, gboolean *any)
{
  *any = FALSE;
  for (;;)
    {
      char c;

      skip_ws (p);
      if (at_end (p))
        {
          if (closer)
            return fail (p, open_pos, XRLAB_FORMULA_ERROR_UNBALANCED,
                         _("Unbalanced parenthesis: “%c” at column %d is never closed"),
                         p->text[open_pos], column_of (p, open_pos));
          return TRUE;
        }
      c = cur (p);
      if (g_ascii_isupper (c))
        {
          gsize start = p->pos, n = 1;
          double count;
          int id;

          if (g_ascii_islower (next_char (p)))
            n = 2;
          id = xrlab_element_lookup (p->text + start, (gssize) n);
          if (id == 0)
            return fail_unknown (p, start, n);
          p->pos += n;
          if (!read_count (p, &count))
            return FALSE;
          note_atom (p, id);
          acc->n[id] += count;
          *any = TRUE;
        }
      else if (c == '(' || c == '[')
        {
          Counts inner;
          gsize open = p->pos;
          gboolean inner_any;
          double count;

          if (depth + 1 > MAX_DEPTH)
            return fail (p, open, XRLAB_FORMULA_ERROR_INVALID,
                         _("Parentheses nested more than %d deep at column %d"),
                         MAX_DEPTH, column_of (p, open));
          memset (&inner, 0, sizeof inner);
          p->pos++;
          if (!parse_items (p, &inner, depth + 1, c == '(' ? ')' : ']', open, &inner_any))
            return FALSE;
          if (!read_count (p, &count))
            return FALSE;
          counts_add (acc, &inner, count);
          *any = TRUE;
        }
      else if (c == ')' || c == ']')
        {
          char opener = (c == ')') ? '(' : '[';

          if (!closer)
            return fail (p, p->pos, XRLAB_FORMULA_ERROR_UNBALANCED,
                         _("Unbalanced parenthesis: “%c” at column %d has no matching “%c”"),
                         c, column_of (p, p->pos), opener);
          if (c != closer)
            return fail (p, p->pos, XRLAB_FORMULA_ERROR_UNBALANCED,
                         _("Mismatched parenthesis: “%c” at column %d closes “%c” from column %d"),
                         c, column_of (p, p->pos), p->text[open_pos], column_of (p, open_pos));
          if (!*any)
            return fail (p, open_pos, XRLAB_FORMULA_ERROR_EMPTY,
                         _("Empty “%c%c” at column %d"), p->text[open_pos], c,
                         column_of (p, open_pos));
          p->pos++;
          return TRUE;
        }
      else if (g_ascii_islower (c))
        return fail_lowercase (p, p->pos);
      else if (c == '-' && (g_ascii_isdigit (next_char (p)) || next_char (p) == '.'))
        return fail_negative (p, p->pos);
      else
        {
          if (closer)
            return fail_unexpected (p, p->pos);
          return TRUE;
        }
    }
}

/* unit ( dot unit )*. @context and @context_pos say what came before, for
 * the message about an empty unit. */
static gboolean
parse_compound (Parser *p, Counts *acc, Context context, gsize context_pos)
{
  for (;;)
    {
      Counts unit;
      gboolean any;
      double coef = 1.0;
      gboolean has_coef = FALSE;
      gsize coef_pos = 0;

      skip_ws (p);
      if (cur (p) == '-' && (g_ascii_isdigit (next_char (p)) || next_char (p) == '.'))
        return fail_negative (p, p->pos);
      if (number_starts (p))
        {
          coef = read_number (p, &coef_pos);
          if (!(coef > 0.0) || !isfinite (coef))
            return fail_number (p, coef_pos, p->pos);
          has_coef = TRUE;
        }
      memset (&unit, 0, sizeof unit);
      if (!parse_items (p, &unit, 0, 0, 0, &any))
        return FALSE;
      if (!any)
        {
          gboolean stop = at_end (p) || at_parts_separator (p) || dot_length (p) > 0;

          if (!stop)
            return fail_unexpected (p, p->pos);
          if (has_coef)
            return fail (p, coef_pos, XRLAB_FORMULA_ERROR_EMPTY,
                         _("The count at column %d is not followed by a formula"),
                         column_of (p, coef_pos));
          switch (context)
            {
            case CONTEXT_START:
              return fail (p, p->pos, XRLAB_FORMULA_ERROR_EMPTY,
                           _("Empty formula at column %d: expected an element symbol such as “Si”"),
                           column_of (p, p->pos));
            case CONTEXT_AFTER_PARTS:
              return fail (p, context_pos, XRLAB_FORMULA_ERROR_EMPTY,
                           _("Nothing after “//” at column %d: expected the next part of the mixture"),
                           column_of (p, context_pos));
            case CONTEXT_AFTER_FRACTION:
              return fail (p, context_pos, XRLAB_FORMULA_ERROR_EMPTY,
                           _("The mass fraction at column %d is not followed by a formula"),
                           column_of (p, context_pos));
            case CONTEXT_AFTER_DOT:
            default:
              {
                g_autofree char *dot = char_at (p, context_pos);
                return fail (p, context_pos, XRLAB_FORMULA_ERROR_EMPTY,
                             _("Nothing after “%s” at column %d: expected a formula such as “5H2O”"),
                             dot, column_of (p, context_pos));
              }
            }
        }
      counts_add (acc, &unit, coef);
      skip_ws (p);
      {
        gsize dl = dot_length (p);
        if (dl == 0)
          return TRUE;
        context = CONTEXT_AFTER_DOT;
        context_pos = p->pos;
        p->pos += dl;
      }
    }
}

typedef struct {
  Counts counts;
  double fraction;       /* percent, or < 0 when not given */
  gsize fraction_pos;
  gsize body_pos;
  char *text;
} Part;

static void
part_clear (gpointer data)
{
  g_free (((Part *) data)->text);
}

static double
counts_mass (const Counts *c)
{
  double m = 0.0;
  for (int id = 1; id < XRLAB_ELEMENT_N_IDS; id++)
    if (c->n[id] != 0.0)
      m += c->n[id] * xrlab_element_get_weight (id);
  return m;
}

/* Every part has atoms, and its counts and mass are finite: counts that
 * overflow ("(H1e200)1e200") or underflow to nothing (groups nested with tiny
 * counts) are refused, naming the part of a mixture. */
static gboolean
check_counts (Parser *p, GArray *parts)
{
  for (guint j = 0; j < parts->len; j++)
    {
      Part *part = &g_array_index (parts, Part, j);
      double total = 0.0, mass = counts_mass (&part->counts);
      g_autofree char *where = NULL;
      const char *problem = NULL;
      int bad_id = 0;

      for (int id = 1; id < XRLAB_ELEMENT_N_IDS && problem == NULL; id++)
        {
          double c = part->counts.n[id];
          if (c == 0.0)
            continue;
          if (!isfinite (c) || !isfinite (total + c))
            problem = "overflow";
          else if (fpclassify (c) != FP_NORMAL)
            {
              problem = "tiny";
              bad_id = id;
            }
          total += c;
        }
      if (problem == NULL && !(total > 0.0))
        problem = "zero";
      if (problem == NULL && (!isfinite (mass) || !(mass > 0.0)))
        problem = "overflow";
      if (problem == NULL)
        continue;

      if (parts->len == 1)
        where = g_strdup (_("The formula"));
      else
        /* TRANSLATORS: the subject of the messages below, for a mixture */
        where = g_strdup_printf (_("Part %u of the mixture (column %d)"), j + 1,
                                 column_of (p, part->body_pos));
      if (strcmp (problem, "zero") == 0)
        return fail (p, part->body_pos, XRLAB_FORMULA_ERROR_COUNT,
                     _("%s has no atoms: its counts multiply to zero"), where);
      if (strcmp (problem, "tiny") == 0)
        return fail (p, part->body_pos, XRLAB_FORMULA_ERROR_COUNT,
                     _("%s: the count of %s (%g) is too small to compute with"), where,
                     xrlab_element_get_symbol (bad_id), part->counts.n[bad_id]);
      return fail (p, part->body_pos, XRLAB_FORMULA_ERROR_COUNT,
                   _("%s: its counts are too large, the molar mass overflows"), where);
    }
  return TRUE;
}

static XrlabFormula *
build_formula (Parser *p, GArray *parts)
{
  XrlabFormula *f = g_new0 (XrlabFormula, 1);
  Counts total;
  double sum_moles = 0.0;

  g_atomic_ref_count_init (&f->ref);
  f->text = g_strndup (p->text, p->len);
  f->n_parts = parts->len;
  f->part_texts = g_new0 (char *, parts->len + 1);
  f->part_fractions = g_new (double, parts->len);

  memset (&total, 0, sizeof total);
  if (parts->len == 1)
    {
      Part *part = &g_array_index (parts, Part, 0);
      total = part->counts;
      f->part_texts[0] = g_strdup (part->text);
      f->part_fractions[0] = 1.0;
    }
  else
    {
      for (guint j = 0; j < parts->len; j++)
        {
          Part *part = &g_array_index (parts, Part, j);
          double w = part->fraction / 100.0;
          double moles = w / counts_mass (&part->counts);
          counts_add (&total, &part->counts, moles);
          sum_moles += moles;
          f->part_texts[j] = g_strdup (part->text);
          f->part_fractions[j] = w;
        }
      for (int id = 1; id < XRLAB_ELEMENT_N_IDS; id++)
        total.n[id] /= sum_moles;
    }

  f->ids = g_new (int, p->n_order);
  f->z = g_new (int, p->n_order);
  f->counts = g_new (double, p->n_order);
  f->mass_fractions = g_new (double, p->n_order);
  for (int i = 0; i < p->n_order; i++)
    {
      int id = p->order[i];
      if (total.n[id] <= 0.0)
        continue;
      f->ids[f->n_atoms] = id;
      f->z[f->n_atoms] = xrlab_element_get_z (id);
      f->counts[f->n_atoms] = total.n[id];
      f->molecular_weight += total.n[id] * xrlab_element_get_weight (id);
      f->electrons += total.n[id] * xrlab_element_get_z (id);
      f->n_atoms++;
    }
  for (gsize i = 0; i < f->n_atoms; i++)
    f->mass_fractions[i] = f->counts[i] * xrlab_element_get_weight (f->ids[i]) / f->molecular_weight;
  return f;
}

/* Mass fractions: every part but the last needs one; the last takes the
 * remainder when it has none. */
static gboolean
check_fractions (Parser *p, GArray *parts)
{
  double sum = 0.0;
  guint n = parts->len;

  for (guint j = 0; j < n; j++)
    {
      Part *part = &g_array_index (parts, Part, j);

      if (part->fraction < 0.0)
        {
          if (j + 1 < n)
            return fail (p, part->body_pos, XRLAB_FORMULA_ERROR_FRACTION,
                         _("Part %u of the mixture (column %d) needs a mass fraction such as “30wt%%”: "
                           "only the last part may leave it out"),
                         j + 1, column_of (p, part->body_pos));
          if (n == 1)
            part->fraction = 100.0;
          else if (100.0 - sum <= 1e-9)
            return fail (p, part->body_pos, XRLAB_FORMULA_ERROR_FRACTION,
                         _("No mass is left for the last part at column %d: the fractions before it add up to %g %%"),
                         column_of (p, part->body_pos), sum);
          else
            part->fraction = 100.0 - sum;
        }
      else
        {
          sum += part->fraction;
          if (sum > 100.0 + 1e-9)
            return fail (p, part->fraction_pos, XRLAB_FORMULA_ERROR_FRACTION,
                         _("Mass fractions add up to %g %% at column %d, more than 100 %%"),
                         sum, column_of (p, part->fraction_pos));
          if (j + 1 == n && fabs (sum - 100.0) > 1e-6)
            return fail (p, part->fraction_pos, XRLAB_FORMULA_ERROR_FRACTION,
                         _("Mass fractions add up to %g %%, not 100 %% (column %d): "
                           "leave the last fraction out to give it the remainder"),
                         sum, column_of (p, part->fraction_pos));
        }
    }
  return TRUE;
}

/* Parses p->text; on success stores the formula in *@out (when @out is not
 * NULL). */
static gboolean
parse_into (Parser *p, XrlabFormula **out)
{
  g_autoptr(GArray) parts = g_array_new (FALSE, TRUE, sizeof (Part));
  Context context = CONTEXT_START;
  gsize context_pos = 0;
  const char *bad = NULL;

  g_array_set_clear_func (parts, part_clear);

  if (!g_utf8_validate (p->text, (gssize) p->len, &bad))
    {
      p->error = g_error_new (XRLAB_FORMULA_ERROR, XRLAB_FORMULA_ERROR_INVALID,
                              _("The formula is not valid UTF-8 (at byte %zu)"),
                              (gsize) (bad - p->text) + 1);
      p->error_column = (int) g_utf8_strlen (p->text, bad - p->text) + 1;
      return FALSE;
    }
  if (g_utf8_strlen (p->text, (gssize) p->len) > MAX_CHARS)
    return fail (p, 0, XRLAB_FORMULA_ERROR_INVALID,
                 g_dngettext (GETTEXT_PACKAGE, "The formula is longer than %d character",
                              "The formula is longer than %d characters", MAX_CHARS),
                 MAX_CHARS);

  skip_ws (p);
  if (at_end (p))
    return fail (p, 0, XRLAB_FORMULA_ERROR_EMPTY,
                 _("Empty formula: expected a chemical formula such as “SiO2”"));

  for (;;)
    {
      Part part;

      memset (&part, 0, sizeof part);
      part.fraction = -1.0;
      skip_ws (p);
      if (number_starts (p))
        {
          gsize save = p->pos, start;
          double v = read_number (p, &start);

          skip_ws (p);
          if (p->pos + 1 < p->len && g_ascii_strncasecmp (p->text + p->pos, "wt", 2) == 0)
            {
              p->pos += 2;
              skip_ws (p);
              if (cur (p) != '%')
                return fail (p, p->pos, XRLAB_FORMULA_ERROR_FRACTION,
                             _("Expected “%%” after “wt” at column %d, as in “70wt%%”"),
                             column_of (p, p->pos));
              p->pos++;
              if (!isfinite (v) || !(v > 0.0))
                return fail (p, start, XRLAB_FORMULA_ERROR_FRACTION,
                             _("The mass fraction at column %d must be positive"),
                             column_of (p, start));
              if (v > 100.0)
                return fail (p, start, XRLAB_FORMULA_ERROR_FRACTION,
                             _("Mass fraction %g wt%% at column %d is above 100 %%"),
                             v, column_of (p, start));
              part.fraction = v;
              part.fraction_pos = start;
              context = CONTEXT_AFTER_FRACTION;
              context_pos = start;
            }
          else if (cur (p) == '%')
            return fail (p, p->pos, XRLAB_FORMULA_ERROR_FRACTION,
                         _("“%%” at column %d: write mass fractions as “70wt%%” (volume and mole fractions are not supported)"),
                         column_of (p, p->pos));
          else
            p->pos = save;
        }
      skip_ws (p);
      part.body_pos = p->pos;
      if (!parse_compound (p, &part.counts, context, context_pos))
        return FALSE;
      part.text = g_strstrip (g_strndup (p->text + part.body_pos, p->pos - part.body_pos));
      g_array_append_val (parts, part);

      skip_ws (p);
      if (at_end (p))
        break;
      if (!at_parts_separator (p))
        return fail_unexpected (p, p->pos);
      context = CONTEXT_AFTER_PARTS;
      context_pos = p->pos;
      p->pos += 2;
    }

  if (!check_fractions (p, parts))
    return FALSE;
  if (!check_counts (p, parts))
    return FALSE;
  {
    XrlabFormula *f = build_formula (p, parts);

    /* A mixture's counts are scaled by the parts' moles: parts whose molar
     * masses differ by hundreds of orders of magnitude leave counts too
     * small to compute with. */
    for (gsize i = 0; i < f->n_atoms; i++)
      if (fpclassify (f->counts[i]) != FP_NORMAL || !isfinite (f->molecular_weight))
        {
          double c = f->counts[i];
          const char *symbol = xrlab_element_get_symbol (f->ids[i]);
          xrlab_formula_unref (f);
          return fail (p, 0, XRLAB_FORMULA_ERROR_COUNT,
                       _("The mixture: the count of %s (%g) is too small to compute with; "
                         "the molar masses of its parts are too far apart"),
                       symbol, c);
        }
    if (out)
      *out = f;
    else
      xrlab_formula_unref (f);
  }
  return TRUE;
}

XrlabFormula *
xrlab_formula_parse_full (const char *text, int *error_column, GError **error)
{
  Parser *p;
  XrlabFormula *f = NULL;

  if (error_column)
    *error_column = 0;
  if (text == NULL)
    {
      g_set_error (error, XRLAB_FORMULA_ERROR, XRLAB_FORMULA_ERROR_EMPTY,
                   _("Empty formula: expected a chemical formula such as “SiO2”"));
      if (error_column)
        *error_column = 1;
      return NULL;
    }
  p = g_new0 (Parser, 1);
  p->text = text;
  p->len = strlen (text);
  p->suggest = TRUE;
  if (!parse_into (p, &f))
    {
      if (error_column)
        *error_column = p->error_column;
      g_propagate_error (error, g_steal_pointer (&p->error));
    }
  g_clear_error (&p->error);
  g_free (p);
  return f;
}

XrlabFormula *
xrlab_formula_parse (const char *text, GError **error)
{
  return xrlab_formula_parse_full (text, NULL, error);
}

XrlabFormula *
xrlab_formula_ref (XrlabFormula *formula)
{
  g_return_val_if_fail (formula != NULL, NULL);
  g_atomic_ref_count_inc (&formula->ref);
  return formula;
}

void
xrlab_formula_unref (XrlabFormula *formula)
{
  if (formula == NULL || !g_atomic_ref_count_dec (&formula->ref))
    return;
  g_free (formula->text);
  g_free (formula->ids);
  g_free (formula->z);
  g_free (formula->counts);
  g_free (formula->mass_fractions);
  g_strfreev (formula->part_texts);
  g_free (formula->part_fractions);
  g_free (formula);
}

const char *
xrlab_formula_get_text (const XrlabFormula *formula)
{
  return formula->text;
}

char *
xrlab_formula_to_string (const XrlabFormula *formula)
{
  GString *s = g_string_new (NULL);

  for (gsize i = 0; i < formula->n_atoms; i++)
    {
      char buf[G_ASCII_DTOSTR_BUF_SIZE];

      g_string_append (s, xrlab_element_get_symbol (formula->ids[i]));
      if (formula->counts[i] != 1.0)
        g_string_append (s, g_ascii_formatd (buf, sizeof buf, "%.6g", formula->counts[i]));
    }
  return g_string_free (s, FALSE);
}

gsize
xrlab_formula_get_n_atoms (const XrlabFormula *formula)
{
  return formula->n_atoms;
}

const int *
xrlab_formula_get_ids (const XrlabFormula *formula)
{
  return formula->ids;
}

const int *
xrlab_formula_get_z (const XrlabFormula *formula)
{
  return formula->z;
}

const double *
xrlab_formula_get_counts (const XrlabFormula *formula)
{
  return formula->counts;
}

const double *
xrlab_formula_get_mass_fractions (const XrlabFormula *formula)
{
  return formula->mass_fractions;
}

double
xrlab_formula_get_molecular_weight (const XrlabFormula *formula)
{
  return formula->molecular_weight;
}

double
xrlab_formula_get_electrons (const XrlabFormula *formula)
{
  return formula->electrons;
}

gsize
xrlab_formula_get_n_parts (const XrlabFormula *formula)
{
  return formula->n_parts;
}

const char *
xrlab_formula_get_part_text (const XrlabFormula *formula, gsize part)
{
  g_return_val_if_fail (part < formula->n_parts, NULL);
  return formula->part_texts[part];
}

double
xrlab_formula_get_part_mass_fraction (const XrlabFormula *formula, gsize part)
{
  g_return_val_if_fail (part < formula->n_parts, NAN);
  return formula->part_fractions[part];
}
