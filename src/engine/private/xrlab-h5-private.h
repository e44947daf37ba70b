/* xrlab-h5-private.h -- what xrlab-h5.c and xrlab-h5-write.c share
 *
 * HDF5 is not linked: its ~40 libraries (curl, GnuTLS, Kerberos, LDAP, ...)
 * would load in every process that links the engine. The library named by
 * XRLAB_HDF5_SONAME (config.h, found by Meson at configure time) is opened
 * with dlopen() the first time a file is read or written, and the HDF5
 * names used here resolve through one table of pointers filled once. The
 * code is compiled against the HDF5 headers as before: after this header,
 * H5Fopen (...) calls xrlab_h5_api.H5Fopen, and H5T_NATIVE_DOUBLE (a macro
 * over H5open () and the global H5T_NATIVE_DOUBLE_g) reads the library's
 * global through the table; H5F_ACC_RDONLY's H5check_version () compares
 * the headers' version with the library's, as in a linked program.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <hdf5.h>

G_BEGIN_DECLS

/* The functions, by the name the code calls (H5Literate is H5Literate2 in
 * HDF5 1.12 and later: the table's type and the symbol looked up follow the
 * headers' mapping). */
#define XRLAB_H5_FUNCTIONS(F) \
  F (H5open) F (H5check_version) F (H5free_memory) F (H5Eset_auto2) \
  F (H5Fis_hdf5) F (H5Fopen) F (H5Fcreate) F (H5Fclose) \
  F (H5Gopen2) F (H5Gcreate2) F (H5Gclose) \
  F (H5Oopen) F (H5Oclose) F (H5Iget_type) F (H5Lexists) F (H5Literate) \
  F (H5Dopen2) F (H5Dcreate2) F (H5Dclose) F (H5Dget_space) F (H5Dget_type) \
  F (H5Dread) F (H5Dwrite) \
  F (H5Aopen) F (H5Acreate2) F (H5Aclose) F (H5Adelete) F (H5Aexists) \
  F (H5Aget_space) F (H5Aget_type) F (H5Aread) F (H5Awrite) \
  F (H5Screate) F (H5Screate_simple) F (H5Sclose) \
  F (H5Sget_simple_extent_dims) F (H5Sget_simple_extent_ndims) \
  F (H5Sget_simple_extent_npoints) \
  F (H5Tcopy) F (H5Tclose) F (H5Tget_class) F (H5Tget_cset) F (H5Tget_size) \
  F (H5Tis_variable_str) F (H5Tset_cset) F (H5Tset_size) F (H5Tset_strpad) \
  F (H5Pcreate) F (H5Pclose) F (H5Pset_create_intermediate_group) \
  F (H5Pset_alignment) F (H5Pset_alloc_time) F (H5Pset_fill_time) F (H5Dget_offset)

/* The global ids behind H5T_NATIVE_DOUBLE, H5P_LINK_CREATE, ... */
#define XRLAB_H5_VARIABLES(V) \
  V (H5T_NATIVE_DOUBLE_g) V (H5T_NATIVE_INT_g) V (H5T_C_S1_g) \
  V (H5T_IEEE_F64LE_g) V (H5P_CLS_LINK_CREATE_ID_g) V (H5P_CLS_FILE_ACCESS_ID_g) \
  V (H5P_CLS_DATASET_CREATE_ID_g)

#define XRLAB_H5_FIELD_FN(name) __typeof__ (name) *name##_fn;
#define XRLAB_H5_FIELD_VAR(name) __typeof__ (name) *name##_var;

typedef struct {
  XRLAB_H5_FUNCTIONS (XRLAB_H5_FIELD_FN)
  XRLAB_H5_VARIABLES (XRLAB_H5_FIELD_VAR)
} XrlabH5Api;

/* Filled by xrlab_h5_load (); read only after it returned TRUE. */
extern XrlabH5Api xrlab_h5_api;

/* Opens HDF5 and fills the table, once per process (later calls return the
 * first outcome). FALSE with XRLAB_H5_ERROR_UNAVAILABLE ("HDF5 is not
 * available: <why>") when the library or one of its names is missing. */
gboolean xrlab_h5_load (GError **error);

/* Every call into HDF5 happens between these (one lock: HDF5 may be built
 * without thread safety); enter also switches HDF5's error printing off.
 * Only after xrlab_h5_load () succeeded. */
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

/* From here on, the HDF5 names go through the table (except in the file
 * that fills it). */
#ifndef XRLAB_H5_FILLING_API
#undef H5Literate
#define H5open (xrlab_h5_api.H5open_fn)
#define H5check_version (xrlab_h5_api.H5check_version_fn)
#define H5free_memory (xrlab_h5_api.H5free_memory_fn)
#define H5Eset_auto2 (xrlab_h5_api.H5Eset_auto2_fn)
#define H5Fis_hdf5 (xrlab_h5_api.H5Fis_hdf5_fn)
#define H5Fopen (xrlab_h5_api.H5Fopen_fn)
#define H5Fcreate (xrlab_h5_api.H5Fcreate_fn)
#define H5Fclose (xrlab_h5_api.H5Fclose_fn)
#define H5Gopen2 (xrlab_h5_api.H5Gopen2_fn)
#define H5Gcreate2 (xrlab_h5_api.H5Gcreate2_fn)
#define H5Gclose (xrlab_h5_api.H5Gclose_fn)
#define H5Oopen (xrlab_h5_api.H5Oopen_fn)
#define H5Oclose (xrlab_h5_api.H5Oclose_fn)
#define H5Iget_type (xrlab_h5_api.H5Iget_type_fn)
#define H5Lexists (xrlab_h5_api.H5Lexists_fn)
#define H5Literate (xrlab_h5_api.H5Literate_fn)
#define H5Dopen2 (xrlab_h5_api.H5Dopen2_fn)
#define H5Dcreate2 (xrlab_h5_api.H5Dcreate2_fn)
#define H5Dclose (xrlab_h5_api.H5Dclose_fn)
#define H5Dget_space (xrlab_h5_api.H5Dget_space_fn)
#define H5Dget_type (xrlab_h5_api.H5Dget_type_fn)
#define H5Dread (xrlab_h5_api.H5Dread_fn)
#define H5Dwrite (xrlab_h5_api.H5Dwrite_fn)
#define H5Aopen (xrlab_h5_api.H5Aopen_fn)
#define H5Acreate2 (xrlab_h5_api.H5Acreate2_fn)
#define H5Aclose (xrlab_h5_api.H5Aclose_fn)
#define H5Adelete (xrlab_h5_api.H5Adelete_fn)
#define H5Aexists (xrlab_h5_api.H5Aexists_fn)
#define H5Aget_space (xrlab_h5_api.H5Aget_space_fn)
#define H5Aget_type (xrlab_h5_api.H5Aget_type_fn)
#define H5Aread (xrlab_h5_api.H5Aread_fn)
#define H5Awrite (xrlab_h5_api.H5Awrite_fn)
#define H5Screate (xrlab_h5_api.H5Screate_fn)
#define H5Screate_simple (xrlab_h5_api.H5Screate_simple_fn)
#define H5Sclose (xrlab_h5_api.H5Sclose_fn)
#define H5Sget_simple_extent_dims (xrlab_h5_api.H5Sget_simple_extent_dims_fn)
#define H5Sget_simple_extent_ndims (xrlab_h5_api.H5Sget_simple_extent_ndims_fn)
#define H5Sget_simple_extent_npoints (xrlab_h5_api.H5Sget_simple_extent_npoints_fn)
#define H5Tcopy (xrlab_h5_api.H5Tcopy_fn)
#define H5Tclose (xrlab_h5_api.H5Tclose_fn)
#define H5Tget_class (xrlab_h5_api.H5Tget_class_fn)
#define H5Tget_cset (xrlab_h5_api.H5Tget_cset_fn)
#define H5Tget_size (xrlab_h5_api.H5Tget_size_fn)
#define H5Tis_variable_str (xrlab_h5_api.H5Tis_variable_str_fn)
#define H5Tset_cset (xrlab_h5_api.H5Tset_cset_fn)
#define H5Tset_size (xrlab_h5_api.H5Tset_size_fn)
#define H5Tset_strpad (xrlab_h5_api.H5Tset_strpad_fn)
#define H5Pcreate (xrlab_h5_api.H5Pcreate_fn)
#define H5Pclose (xrlab_h5_api.H5Pclose_fn)
#define H5Pset_create_intermediate_group (xrlab_h5_api.H5Pset_create_intermediate_group_fn)
#define H5Pset_alignment (xrlab_h5_api.H5Pset_alignment_fn)
#define H5Pset_alloc_time (xrlab_h5_api.H5Pset_alloc_time_fn)
#define H5Pset_fill_time (xrlab_h5_api.H5Pset_fill_time_fn)
#define H5Dget_offset (xrlab_h5_api.H5Dget_offset_fn)

#define H5T_NATIVE_DOUBLE_g (*xrlab_h5_api.H5T_NATIVE_DOUBLE_g_var)
#define H5T_NATIVE_INT_g (*xrlab_h5_api.H5T_NATIVE_INT_g_var)
#define H5T_C_S1_g (*xrlab_h5_api.H5T_C_S1_g_var)
#define H5T_IEEE_F64LE_g (*xrlab_h5_api.H5T_IEEE_F64LE_g_var)
#define H5P_CLS_LINK_CREATE_ID_g (*xrlab_h5_api.H5P_CLS_LINK_CREATE_ID_g_var)
#define H5P_CLS_FILE_ACCESS_ID_g (*xrlab_h5_api.H5P_CLS_FILE_ACCESS_ID_g_var)
#define H5P_CLS_DATASET_CREATE_ID_g (*xrlab_h5_api.H5P_CLS_DATASET_CREATE_ID_g_var)
#endif /* !XRLAB_H5_FILLING_API */

G_END_DECLS
