/* dtoa-reference.c -- the former xrlab_format_double() and
 * xrlab_parse_double(), kept verbatim as the reference of test-dtoa and
 * xrlab-bench io
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "dtoa-reference.h"

#include <errno.h>
#include <math.h>
#include <string.h>

char *
old_format_double (double x, char buf[XRLAB_DTOA_BUFSIZE])
{
  if (isnan (x))
    {
      strcpy (buf, "nan");
      return buf;
    }
  if (isinf (x))
    {
      strcpy (buf, x > 0 ? "inf" : "-inf");
      return buf;
    }
  for (int prec = 15; prec <= 17; prec++)
    {
      char fmt[8];
      g_snprintf (fmt, sizeof fmt, "%%.%dg", prec);
      g_ascii_formatd (buf, XRLAB_DTOA_BUFSIZE, fmt, x);
      if (prec == 17 || g_ascii_strtod (buf, NULL) == x)
        break;
    }
  return buf;
}

gboolean
old_parse_double (const char *text, gboolean allow_nonfinite, double *out)
{
  char *end = NULL;
  double v;

  if (text == NULL)
    return FALSE;
  while (g_ascii_isspace (*text))
    text++;
  if (*text == '\0')
    return FALSE;
  errno = 0;
  v = g_ascii_strtod (text, &end);
  if (end == text)
    return FALSE;
  while (g_ascii_isspace (*end))
    end++;
  if (*end != '\0')
    return FALSE;
  if (errno == ERANGE && fabs (v) > 1.0)
    return FALSE;
  if (!allow_nonfinite && !isfinite (v))
    return FALSE;
  *out = v;
  return TRUE;
}
