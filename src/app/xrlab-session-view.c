/* xrlab-session-view.c -- the plot's view in a session: its axis limits
 * and pins, compared, copied and written (read by xrlab-session.c, as a
 * section of its own)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-session-private.h"

#include <math.h>
#include <string.h>

#include "xrlab-util.h"

void
xrlab_session_view_copy (XrlabSession *copy, const XrlabSession *session)
{
  copy->view_x_min = session->view_x_min;
  copy->view_x_max = session->view_x_max;
  copy->view_y_min = session->view_y_min;
  copy->view_y_max = session->view_y_max;
  memcpy (copy->pins, session->pins, sizeof copy->pins);
  copy->n_pins = session->n_pins;
}

gboolean
xrlab_session_view_equal (const XrlabSession *a, const XrlabSession *b)
{
  const double va[] = { a->view_x_min, a->view_x_max, a->view_y_min, a->view_y_max };
  const double vb[] = { b->view_x_min, b->view_x_max, b->view_y_min, b->view_y_max };

  for (guint i = 0; i < G_N_ELEMENTS (va); i++)
    if (!(va[i] == vb[i] || (isnan (va[i]) && isnan (vb[i]))))
      return FALSE;
  return a->n_pins == b->n_pins && memcmp (a->pins, b->pins, a->n_pins * sizeof (double)) == 0;
}

void
xrlab_session_view_append_json (const XrlabSession *session, GString *s)
{
  const double x[] = { session->view_x_min, session->view_x_max };
  const double y[] = { session->view_y_min, session->view_y_max };
  const struct { const char *name; const double *v; guint n; } members[] = {
    { "x", x, isnan (x[0]) ? 0 : 2 }, { "y", y, isnan (y[0]) ? 0 : 2 },
    { "pins", session->pins, session->n_pins },
  };
  const char *sep = ",\n  \"view\": {\n    ";
  gboolean any = FALSE;

  for (guint m = 0; m < G_N_ELEMENTS (members); m++)
    {
      if (members[m].n == 0)
        continue;
      g_string_append_printf (s, "%s\"%s\": [", sep, members[m].name);
      for (guint i = 0; i < members[m].n; i++)
        {
          if (i > 0)
            g_string_append (s, ", ");
          xrlab_json_append_number (s, members[m].v[i]);
        }
      g_string_append_c (s, ']');
      sep = ",\n    ";
      any = TRUE;
    }
  if (any)
    g_string_append (s, "\n  }");
}
