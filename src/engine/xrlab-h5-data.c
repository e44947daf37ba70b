/* xrlab-h5-data.c -- axes and matrices from a CSV file or an HDF5 dataset,
 * and NXdata groups written (see xrlab-h5.h)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "xrlab-h5.h"
#include "xrlab-util.h"

#include <string.h>

#include <glib/gi18n-lib.h>

gboolean
xrlab_h5_is_h5_name (const char *path)
{
  static const char *const ext[] = { ".h5", ".hdf5", ".hdf", ".he5", ".nxs", ".nx5", ".nx" };
  g_autofree char *lower = NULL;

  if (path == NULL)
    return FALSE;
  lower = g_ascii_strdown (path, -1);
  for (gsize i = 0; i < G_N_ELEMENTS (ext); i++)
    if (g_str_has_suffix (lower, ext[i]) && strlen (lower) > strlen (ext[i]))
      return TRUE;
  return FALSE;
}

/* The axis of @file's NXdata that @role names. */
static double *
nexus_axis (const char *file, XrlabDataAxis role, gsize *n, GError **error)
{
  XrlabNexusData nx = { 0 };
  int dim;
  double *v;

  if (role == XRLAB_DATA_AXIS_OTHER)
    {
      g_set_error (error, XRLAB_H5_ERROR, XRLAB_H5_ERROR_NOT_FOUND,
                   _("%s is an HDF5 file: name the dataset of the axis, as %s:/PATH"),
                   file, file);
      return NULL;
    }
  if (!xrlab_nexus_read (file, &nx, error))
    return NULL;
  dim = role == XRLAB_DATA_AXIS_ENERGY ? nx.signal.rank - 1 : 0;
  if (role == XRLAB_DATA_AXIS_TIME && (nx.signal.rank != 2 || nx.signal.dims[0] < 2))
    {
      g_set_error (error, XRLAB_H5_ERROR, XRLAB_H5_ERROR_NEXUS,
                   _("%s: the signal %s is one spectrum, it has no delay axis"),
                   file, nx.signal_path);
      xrlab_nexus_data_clear (&nx);
      return NULL;
    }
  if (nx.axis_path[dim] == NULL)
    {
      g_set_error (error, XRLAB_H5_ERROR, XRLAB_H5_ERROR_NEXUS,
                   _("%s: the signal %s has no axis for its dimension %d (@axes)"),
                   file, nx.signal_path, dim + 1);
      xrlab_nexus_data_clear (&nx);
      return NULL;
    }
  *n = nx.axis[dim].dims[0];
  v = g_steal_pointer (&nx.axis[dim].data);
  xrlab_nexus_data_clear (&nx);
  return v;
}

double *
xrlab_data_read_column (const char *spec, XrlabDataAxis role, gsize *n, GError **error)
{
  g_autofree char *file = NULL, *path = NULL;
  XrlabH5Array a = { 0 };

  g_return_val_if_fail (spec != NULL && n != NULL, NULL);

  if (!xrlab_h5_split_spec (spec, &file, &path))
    {
      if (xrlab_h5_is_hdf5 (spec))
        return nexus_axis (spec, role, n, error);
      return xrlab_read_column_file (spec, n, error);
    }
  if (!xrlab_h5_read (file, path, &a, error))
    return NULL;
  if (a.rank == 2 && a.dims[1] != 1 && a.dims[0] != 1)
    {
      g_set_error (error, XRLAB_H5_ERROR, XRLAB_H5_ERROR_SHAPE,
                   _("%s: the dataset %s must be one column of numbers, not %zu × %zu "
                     "values"), file, path, a.dims[0], a.dims[1]);
      xrlab_h5_array_clear (&a);
      return NULL;
    }
  *n = a.dims[0] * (a.rank == 2 ? a.dims[1] : 1);
  g_free (a.units);
  return a.data;
}

double *
xrlab_data_read_matrix (const char *spec, gsize *rows, gsize *cols, GError **error)
{
  g_autofree char *file = NULL, *path = NULL;
  XrlabH5Array a = { 0 };

  g_return_val_if_fail (spec != NULL && rows != NULL && cols != NULL, NULL);

  if (!xrlab_h5_split_spec (spec, &file, &path))
    {
      if (xrlab_h5_is_hdf5 (spec))
        {
          g_set_error (error, XRLAB_H5_ERROR, XRLAB_H5_ERROR_NOT_FOUND,
                       _("%s is an HDF5 file: name the dataset, as %s:/PATH"), spec, spec);
          return NULL;
        }
      return xrlab_read_csv_matrix (spec, TRUE, rows, cols, error);
    }
  if (!xrlab_h5_read (file, path, &a, error))
    return NULL;
  *rows = a.rank == 2 ? a.dims[0] : 1;
  *cols = a.rank == 2 ? a.dims[1] : a.dims[0];
  g_free (a.units);
  return a.data;
}

/* ---- NXdata ------------------------------------------------------------------- */

gboolean
xrlab_h5_writer_add_nxdata (XrlabH5Writer *w, const char *group, const char *signal,
                            const double *y, gsize rows, gsize cols, const char *units,
                            const double *energy, const double *time, GError **error)
{
  g_autofree char *parent = g_path_get_dirname (group);
  g_autofree char *base = g_path_get_basename (group);
  g_autofree char *parent_base = g_path_get_basename (parent);
  g_autofree char *sig_path = g_build_path ("/", group, signal, NULL);
  g_autofree char *e_path = g_build_path ("/", group, "energy", NULL);
  g_autofree char *t_path = g_build_path ("/", group, "time", NULL);
  const char *axes_2d[] = { "time", "energy" }, *axes_1d[] = { "energy" };
  gsize dims[2] = { rows, cols }, e_dims[2] = { cols, 1 }, t_dims[2] = { rows, 1 };
  gboolean two_d = time != NULL;

  if (!two_d)
    dims[0] = cols, dims[1] = 1;
  return (strcmp (parent, "/") == 0
          || (xrlab_h5_writer_add_group (w, parent, "NXentry", error)
              && xrlab_h5_writer_set_string (w, parent, "default", base, error)
              && xrlab_h5_writer_set_string (w, "/", "default", parent_base, error)))
         && xrlab_h5_writer_add_group (w, group, "NXdata", error)
         && xrlab_h5_writer_add_dataset (w, sig_path, y, two_d ? 2 : 1, dims, units, error)
         && xrlab_h5_writer_add_dataset (w, e_path, energy, 1, e_dims, "eV", error)
         && (!two_d || xrlab_h5_writer_add_dataset (w, t_path, time, 1, t_dims, "ps", error))
         && xrlab_h5_writer_set_string (w, group, "signal", signal, error)
         && xrlab_h5_writer_set_strings (w, group, "axes", two_d ? axes_2d : axes_1d,
                                         two_d ? 2 : 1, error);
}
