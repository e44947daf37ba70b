/* xrlab-user-number.c -- numbers as people type them into entries
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-user-number.h"

#include <locale.h>
#include <string.h>

#include "xrlab-util.h"

gboolean
xrlab_parse_user_number (const char *text, double *value)
{
  g_autofree char *copy = NULL;
  char *comma;

  if (text == NULL)
    return FALSE;
  copy = g_strdup (text);
  comma = strchr (copy, ',');
  if (comma != NULL && strchr (comma + 1, ',') == NULL && strchr (copy, '.') == NULL)
    *comma = '.';
  return xrlab_parse_double (copy, FALSE, value);
}

char
xrlab_user_decimal_point (void)
{
  const char *dp = localeconv ()->decimal_point;

  return dp != NULL && dp[0] == ',' && dp[1] == '\0' ? ',' : '.';
}

char *
xrlab_localize_decimal_point (char *text)
{
  char dp = xrlab_user_decimal_point ();

  if (dp != '.' && text != NULL)
    for (char *p = text; *p != '\0'; p++)
      if (*p == '.')
        *p = dp;
  return text;
}

char *
xrlab_format_user_number (double value, gboolean exact)
{
  char buf[XRLAB_DTOA_BUFSIZE];
  char s[G_ASCII_DTOSTR_BUF_SIZE];

  /* Short for the eye, but exact for values typed with few digits. */
  g_ascii_formatd (s, sizeof s, "%.6g", value);
  if (!exact || g_ascii_strtod (s, NULL) == value)
    return xrlab_localize_decimal_point (g_strdup (s));
  return xrlab_localize_decimal_point (g_strdup (xrlab_format_double (value, buf)));
}
