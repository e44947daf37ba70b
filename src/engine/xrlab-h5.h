/* xrlab-h5.h -- numeric data in HDF5 and NeXus files (serial HDF5)
 *
 * Reading: one 1D or 2D numeric dataset by its path ("FILE.h5:/entry/data/y"),
 * or the signal and axes of a NeXus NXdata group found from the file alone
 * (the @default chain from the root, else the first NXentry's NXdata, else
 * the first NXdata anywhere). Any integer or floating-point type is read as
 * double, row-major. Writing: datasets of doubles with a "units" attribute,
 * scalar attributes (the fitted parameters, ...), groups with an NX_class,
 * into a temporary file beside the target that replaces it on commit, so a
 * failed write never leaves a partial file. Files are readable by h5py.
 *
 * Errors (XRLAB_H5_ERROR) name the file, the path inside it and what was
 * expected. All calls are serialised on one lock: HDF5 may be built without
 * thread safety.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define XRLAB_H5_ERROR (xrlab_h5_error_quark ())
GQuark xrlab_h5_error_quark (void);

typedef enum {
  XRLAB_H5_ERROR_OPEN,       /* not an HDF5 file, missing, unreadable */
  XRLAB_H5_ERROR_NOT_FOUND,  /* no object at the path, or not a dataset */
  XRLAB_H5_ERROR_TYPE,       /* not numeric, or an attribute of another type */
  XRLAB_H5_ERROR_SHAPE,      /* rank other than 1 or 2, empty, too large */
  XRLAB_H5_ERROR_NEXUS,      /* no NXdata, no @signal, @axes that do not fit */
  XRLAB_H5_ERROR_WRITE,      /* creating, writing, committing */
  XRLAB_H5_ERROR_UNAVAILABLE, /* the HDF5 library could not be loaded */
} XrlabH5Error;

/* A numeric array read from a file: @rank 1 (dims[1] == 1) or 2, row-major,
 * dims[0] x dims[1] values. */
typedef struct {
  double *data;
  gsize dims[2];
  int rank;
  char *units;         /* the "units" attribute, or NULL */
} XrlabH5Array;

void xrlab_h5_array_clear (XrlabH5Array *a);

/* TRUE when @spec is "FILE:/PATH" with a FILE that exists (so that a
 * Windows-style or odd file name with a colon is still taken as a file);
 * then *@file and *@path are set (g_free). "data.h5:/entry/y" -> "data.h5",
 * "/entry/y". */
gboolean xrlab_h5_split_spec (const char *spec, char **file, char **path);

/* TRUE when @path starts with the HDF5 signature (a cheap check before
 * choosing a reader). */
gboolean xrlab_h5_is_hdf5 (const char *path);

/* Reads the dataset at @path (absolute inside the file) of @file. */
gboolean xrlab_h5_read (const char *file, const char *path, XrlabH5Array *out,
                        GError **error);

/* The same for "FILE:/PATH". */
gboolean xrlab_h5_read_spec (const char *spec, XrlabH5Array *out, GError **error);

/* NeXus NXdata: the signal and, for each of its dimensions, the axis named by
 * @axes ("." or none: NULL). */
typedef struct {
  char *group;          /* "/entry/data" */
  char *signal_path;    /* "/entry/data/counts" */
  XrlabH5Array signal;
  char *axis_path[2];   /* NULL where the dimension has no axis */
  XrlabH5Array axis[2]; /* 1D, as long as that dimension */
} XrlabNexusData;

void xrlab_nexus_data_clear (XrlabNexusData *d);

/* Finds the NXdata group of @file (see above) and reads it. */
gboolean xrlab_nexus_read (const char *file, XrlabNexusData *out, GError **error);

/* ---- either kind: a CSV file or an HDF5 dataset ---------------------------- */

/* TRUE when the name of @path ends in .h5, .hdf5, .hdf, .he5, .nxs, .nx5 or
 * .nx (any case): an output that is written as HDF5. */
gboolean xrlab_h5_is_h5_name (const char *path);

/* What an axis is, for an HDF5 file named without a dataset path: its
 * NeXus NXdata gives the axis of the last dimension of the signal (ENERGY)
 * or of the first dimension of a 2D signal (TIME); OTHER needs the path. */
typedef enum {
  XRLAB_DATA_AXIS_ENERGY,
  XRLAB_DATA_AXIS_TIME,
  XRLAB_DATA_AXIS_OTHER,
} XrlabDataAxis;

/* A column of numbers: @spec is a file with one number a line (or a single
 * row), "FILE:/PATH" of a 1D dataset (or 2D with one row or one column), or
 * an HDF5 file alone (see XrlabDataAxis). */
double *xrlab_data_read_column (const char *spec, XrlabDataAxis role, gsize *n,
                                GError **error);

/* A matrix: a comma separated file without header (nan allowed) or
 * "FILE:/PATH" of a 1D (one row) or 2D dataset. */
double *xrlab_data_read_matrix (const char *spec, gsize *rows, gsize *cols,
                                GError **error);

/* ---- writing ------------------------------------------------------------ */

typedef struct _XrlabH5Writer XrlabH5Writer;

XrlabH5Writer *xrlab_h5_writer_new    (const char *path, GError **error);
/* Closes the file and renames it over the target. Frees @w either way. */
gboolean       xrlab_h5_writer_commit (XrlabH5Writer *w, GError **error);
/* Removes the temporary file; frees @w. NULL is ignored. */
void           xrlab_h5_writer_abort  (XrlabH5Writer *w);

/* Creates the group @path (and its parents); @nx_class (e.g. "NXentry") is
 * set as its NX_class attribute unless NULL. An existing group is kept. */
gboolean xrlab_h5_writer_add_group (XrlabH5Writer *w, const char *path,
                                    const char *nx_class, GError **error);

/* Writes @data (row-major, @rank 1 or 2, dims[0] x dims[1]) as a dataset of
 * doubles at @path (parents created); @units (or NULL) as its "units". */
gboolean xrlab_h5_writer_add_dataset (XrlabH5Writer *w, const char *path,
                                      const double *data, int rank,
                                      const gsize dims[2], const char *units,
                                      GError **error);

/* Large datasets from the caller's buffers. A reserved dataset (doubles,
 * row-major, @rank and @dims as xrlab_h5_writer_add_dataset) is contiguous,
 * has its place in the file from its creation and no fill value; its bytes
 * are then written with xrlab_h5_writer_write_reserved, from any thread,
 * without the HDF5 lock and without a copy: by direct I/O (O_DIRECT, past
 * the page cache) for whole blocks of XRLAB_H5_DIRECT_ALIGN bytes whose
 * data are aligned as their place in the file (where the file system
 * takes it), by ordinary writes for the rest. Bytes never written read as
 * zeros. Datasets of 1 MiB or more start at a multiple of
 * XRLAB_H5_DIRECT_ALIGN in every file written here. */
#define XRLAB_H5_DIRECT_ALIGN 4096

typedef struct {
  guint64 offset;       /* in the file */
  gsize size;           /* bytes */
} XrlabH5Reserved;

gboolean xrlab_h5_writer_reserve_dataset (XrlabH5Writer *w, const char *path, int rank,
                                          const gsize dims[2], const char *units,
                                          XrlabH5Reserved *out, GError **error);
/* Writes the @n_bytes of @data at byte @from of the dataset @r. Different
 * ranges may be written at the same time. */
gboolean xrlab_h5_writer_write_reserved (XrlabH5Writer *w, const XrlabH5Reserved *r,
                                         gsize from, const void *data, gsize n_bytes,
                                         GError **error);

/* Writes @values as a 1D dataset of variable-length UTF-8 strings. */
gboolean xrlab_h5_writer_add_strings_dataset (XrlabH5Writer *w, const char *path,
                                              const char *const *values, gsize n,
                                              GError **error);

/* An NXdata group @group ("/entry/data"; its parent made an NXentry, the
 * @default of the parent and of the file pointing to it): the signal
 * @signal (@rows x @cols, 1D when @time is NULL) with @units, the axes
 * "time" (@rows, ps) and "energy" (@cols, eV), @signal and @axes set. */
gboolean xrlab_h5_writer_add_nxdata (XrlabH5Writer *w, const char *group,
                                     const char *signal, const double *y,
                                     gsize rows, gsize cols, const char *units,
                                     const double *energy, const double *time,
                                     GError **error);

/* Scalar attributes on the object at @path ("/" for the file). A string is
 * written as variable-length UTF-8, as h5py writes str. */
gboolean xrlab_h5_writer_set_double (XrlabH5Writer *w, const char *path,
                                     const char *name, double value,
                                     GError **error);
gboolean xrlab_h5_writer_set_string (XrlabH5Writer *w, const char *path,
                                     const char *name, const char *value,
                                     GError **error);
/* An array of strings (NeXus @axes). */
gboolean xrlab_h5_writer_set_strings (XrlabH5Writer *w, const char *path,
                                      const char *name,
                                      const char *const *values, gsize n,
                                      GError **error);

G_END_DECLS
