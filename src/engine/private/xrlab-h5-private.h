/* xrlab-h5-private.h -- what xrlab-h5.c and xrlab-h5-write.c share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <hdf5.h>

G_BEGIN_DECLS

/* Every call into HDF5 happens between these (one lock: HDF5 may be built
 * without thread safety); enter also switches HDF5's error printing off. */
void xrlab_h5_enter (void);
void xrlab_h5_leave (void);

/* TRUE when every component of the absolute @path exists below @fid. */
gboolean xrlab_h5_path_exists (hid_t fid, const char *path);

/* The type of the object at @name below @loc: H5I_GROUP, H5I_DATASET, or
 * H5I_BADID when there is none (or a dangling link). */
H5I_type_t xrlab_h5_object_type (hid_t loc, const char *name);

/* Closes *@id with @close_fn unless it is negative, and sets it to -1. */
static inline void
xrlab_h5_close_id (hid_t *id, herr_t (*close_fn) (hid_t))
{
  if (*id >= 0)
    close_fn (*id);
  *id = -1;
}

G_END_DECLS
