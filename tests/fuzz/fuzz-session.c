/* fuzz-session.c -- session documents (xrlab-session.h)
 *
 * The input is read both strictly and salvaging (as the window does at
 * start).
 *
 * Invariants: a refusal has a message in UTF-8; what is read strictly is
 * read the same when salvaging; what is read holds at most
 * XRLAB_SESSION_MAX_MATERIALS materials with UTF-8 strings, a valid sweep
 * and a plottable quantity, and its warnings are UTF-8; it saves to valid
 * UTF-8 JSON that reads again strictly, without warnings, to an equal
 * session (xrlab_session_equal()), which saves to the same text.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "fuzz-common.h"
#include "xrlab-session.h"

FUZZ_DEFINE_INITIALIZE ()

static void
check_refusal (const GError *error, const char *mode)
{
  FUZZ_CHECK (error != NULL && error->domain == XRLAB_SESSION_ERROR && error->message[0] != '\0',
              "%s: refused without a message", mode);
  fuzz_check_printable (error->message, FALSE);
}

static void
check_session (const XrlabSession *s, char **warnings, const char *mode)
{
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) again_warnings = NULL;
  g_autoptr(XrlabSession) again = NULL;
  g_autofree char *text = NULL;
  g_autofree char *text2 = NULL;
  gsize len = 0, len2 = 0;

  FUZZ_CHECK (s->materials->len <= XRLAB_SESSION_MAX_MATERIALS, "%s: %u materials", mode,
              s->materials->len);
  for (guint i = 0; i < s->materials->len; i++)
    {
      const XrlabSessionMaterial *m = g_ptr_array_index (s->materials, i);
      FUZZ_CHECK (g_utf8_validate (m->name, -1, NULL) && g_utf8_validate (m->formula, -1, NULL),
                  "%s: material %u has a string that is not UTF-8", mode, i);
    }
  FUZZ_CHECK (xrlab_sweep_validate (&s->sweep, xrlab_sweep_get_default_range (), NULL),
              "%s: the sweep read is not valid", mode);
  FUZZ_CHECK (s->quantity < XRLAB_QUANTITY_N && xrlab_quantity_get_info (s->quantity)->plottable,
              "%s: quantity %d", mode, (int) s->quantity);
  for (char **w = warnings; w != NULL && *w != NULL; w++)
    FUZZ_CHECK (**w != '\0' && g_utf8_validate (*w, -1, NULL), "%s: a warning is empty or not UTF-8", mode);

  text = xrlab_session_to_json (s, &len);
  FUZZ_CHECK (len == strlen (text) && g_utf8_validate (text, (gssize) len, NULL),
              "%s: the saved text is not UTF-8", mode);
  again = xrlab_session_from_json_full (text, (gssize) len, XRLAB_SESSION_LOAD_STRICT, &again_warnings,
                                        &error);
  FUZZ_CHECK (again != NULL, "%s: the saved text does not read again: %s\n%s", mode,
              error != NULL ? error->message : "", text);
  FUZZ_CHECK (again_warnings == NULL, "%s: the saved text reads with a warning: %s\n%s", mode,
              again_warnings[0], text);
  FUZZ_CHECK (xrlab_session_equal (s, again), "%s: the saved text reads as another session:\n%s", mode,
              text);
  text2 = xrlab_session_to_json (again, &len2);
  FUZZ_CHECK (len == len2 && memcmp (text, text2, len) == 0, "%s: saved twice, two texts:\n%s\n%s", mode,
              text, text2);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  const char *text = (const char *) data;
  g_autoptr(GError) strict_error = NULL;
  g_autoptr(GError) salvage_error = NULL;
  g_auto(GStrv) strict_warnings = NULL;
  g_auto(GStrv) salvage_warnings = NULL;
  g_autoptr(XrlabSession) strict = NULL;
  g_autoptr(XrlabSession) salvaged = NULL;

  if (size > XRLAB_SESSION_MAX_BYTES)
    return 0;
  fuzz_init_once ();
  if (size == 0)
    text = "";
  strict = xrlab_session_from_json_full (text, (gssize) size, XRLAB_SESSION_LOAD_STRICT,
                                         &strict_warnings, &strict_error);
  salvaged = xrlab_session_from_json_full (text, (gssize) size, XRLAB_SESSION_LOAD_SALVAGE,
                                           &salvage_warnings, &salvage_error);
  if (strict == NULL)
    check_refusal (strict_error, "strict");
  if (salvaged == NULL)
    {
      check_refusal (salvage_error, "salvage");
      FUZZ_CHECK (strict == NULL, "read strictly, refused when salvaging: %s", salvage_error->message);
      return 0;
    }
  if (strict != NULL)
    {
      FUZZ_CHECK (xrlab_session_equal (strict, salvaged), "strict and salvaging read two sessions");
      FUZZ_CHECK ((strict_warnings == NULL) == (salvage_warnings == NULL) &&
                  (strict_warnings == NULL ||
                   g_strv_length (strict_warnings) == g_strv_length (salvage_warnings)),
                  "strict and salvaging warn differently");
      check_session (strict, strict_warnings, "strict");
    }
  check_session (salvaged, salvage_warnings, "salvage");
  return 0;
}
