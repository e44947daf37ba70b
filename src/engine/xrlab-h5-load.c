/* xrlab-h5-load.c -- HDF5, opened at first use (see xrlab-h5-private.h)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* RTLD_DEFAULT */
#define _GNU_SOURCE
#include "config.h"

#include "xrlab-h5.h"
/* The real HDF5 names here, not the table's. */
#define XRLAB_H5_FILLING_API
#include "xrlab-h5-private.h"

#include <dlfcn.h>
#include <string.h>

#include <glib/gi18n-lib.h>

XrlabH5Api xrlab_h5_api;

/* The message of a failed load (NULL when it succeeded), kept for later
 * calls. */
static char *load_failure;

/* Two levels, so that a name the headers map (H5Literate -> H5Literate2)
 * is looked up by the symbol it maps to. */
#define XRLAB_H5_STR(x) #x
#define XRLAB_H5_SYMBOL(x) XRLAB_H5_STR (x)

static gpointer
load_once (gpointer data)
{
  void *lib;
  const char *missing = NULL;

  (void) data;
  lib = dlopen (XRLAB_HDF5_SONAME, RTLD_NOW | RTLD_LOCAL);
  if (lib == NULL)
    {
      const char *why = dlerror ();

      load_failure = g_strdup (why != NULL ? why : XRLAB_HDF5_SONAME);
      return NULL;
    }

  /* Each name: the pointer, or the first missing one. */
#define XRLAB_H5_LOOKUP(field, symbol, first)                               \
  if (missing == NULL)                                                      \
    {                                                                       \
      void *sym = first;                                                    \
                                                                            \
      if (sym == NULL)                                                      \
        sym = dlsym (lib, symbol);                                          \
                                                                            \
      if (sym == NULL)                                                      \
        missing = symbol;                                                   \
      G_STATIC_ASSERT (sizeof xrlab_h5_api.field == sizeof sym);            \
      memcpy (&xrlab_h5_api.field, &sym, sizeof sym);                       \
    }
  /* A global variable is looked up in the whole process first: a program
   * that links HDF5 itself (the tests) holds copies of the variables it
   * uses, and the library reads and writes those copies, not its own. */
#define XRLAB_H5_LOOKUP_FN(name)                                            \
  XRLAB_H5_LOOKUP (name##_fn, XRLAB_H5_SYMBOL (name), NULL)
#define XRLAB_H5_LOOKUP_VAR(name)                                           \
  XRLAB_H5_LOOKUP (name##_var, XRLAB_H5_SYMBOL (name),                      \
                   dlsym (RTLD_DEFAULT, XRLAB_H5_SYMBOL (name)))
  XRLAB_H5_FUNCTIONS (XRLAB_H5_LOOKUP_FN)
  XRLAB_H5_VARIABLES (XRLAB_H5_LOOKUP_VAR)
#undef XRLAB_H5_LOOKUP_VAR
#undef XRLAB_H5_LOOKUP_FN
#undef XRLAB_H5_LOOKUP

  if (missing != NULL)
    {
      /* TRANSLATORS: %s is a function of the HDF5 library, %s its file. */
      load_failure = g_strdup_printf (_("%s has no symbol %s"),
                                      XRLAB_HDF5_SONAME, missing);
      memset (&xrlab_h5_api, 0, sizeof xrlab_h5_api);
      dlclose (lib);
    }
  /* Otherwise the library stays loaded for the life of the process. */
  return NULL;
}

gboolean
xrlab_h5_load (GError **error)
{
  static GOnce once = G_ONCE_INIT;

  g_once (&once, load_once, NULL);
  if (load_failure == NULL)
    return TRUE;
  g_set_error (error, XRLAB_H5_ERROR, XRLAB_H5_ERROR_UNAVAILABLE,
               _("HDF5 is not available: %s"), load_failure);
  return FALSE;
}
