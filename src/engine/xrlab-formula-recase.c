/* xrlab-formula-recase.c -- formulas typed with the wrong letter case
 * re-cased into element symbols, for the parser's suggestions
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-formula-private.h"
#include "xrlab-elements.h"

/* Re-cases letter runs into element symbols: "sio2" → "SiO2",
 * "CuSo4" → "CuSO4". A capital letter starts a symbol as typed when that
 * is valid; a lower-case one becomes a capital, taking the next lower-case
 * letter when that makes a valid symbol. "wt" before "%" is kept. NULL when
 * no re-casing gives valid symbols. */
char *
xrlab_formula_recase (const char *text)
{
  GString *out = g_string_new (NULL);
  const char *s = text;

  while (*s)
    {
      if (!g_ascii_isalpha (*s))
        {
          g_string_append_c (out, *s++);
          continue;
        }
      {
        const char *run = s, *after;
        gsize n = 0;

        while (g_ascii_isalpha (run[n]))
          n++;
        after = run + n;
        while (*after == ' ')
          after++;
        if (n == 2 && g_ascii_strncasecmp (run, "wt", 2) == 0 && *after == '%')
          {
            g_string_append_len (out, run, 2);
            s += 2;
            continue;
          }
        for (gsize i = 0; i < n;)
          {
            char two[2] = { g_ascii_toupper (run[i]), 0 };
            gboolean lower_next = (i + 1 < n) && g_ascii_islower (run[i + 1]);

            if (lower_next)
              two[1] = run[i + 1];
            if (lower_next && xrlab_element_lookup (two, 2))
              {
                g_string_append_len (out, two, 2);
                i += 2;
              }
            else if (xrlab_element_lookup (two, 1))
              {
                g_string_append_c (out, two[0]);
                i += 1;
              }
            else
              {
                g_string_free (out, TRUE);
                return NULL;
              }
          }
        s += n;
      }
    }
  return g_string_free (out, FALSE);
}
