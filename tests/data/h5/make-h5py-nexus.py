#!/usr/bin/python3
# Writes h5py-nexus.nxs, the fixture of tests/test-h5.c that h5py made
# (test-h5 reads it; nothing runs this script during the build or the tests).
#   /usr/bin/python3 tests/data/h5/make-h5py-nexus.py tests/data/h5/h5py-nexus.nxs
# h5py 3.7.0 on HDF5 1.10.8 (Debian 12's python3-h5py).
import sys

import h5py
import numpy as np

path = sys.argv[1]
with h5py.File(path, "w", track_order=False) as f:
    f.attrs["default"] = "entry"                 # variable-length str
    entry = f.create_group("entry")
    entry.attrs["NX_class"] = "NXentry"
    entry.attrs["default"] = "data"
    data = entry.create_group("data")
    data.attrs["NX_class"] = "NXdata"
    data.attrs["signal"] = "counts"
    # Fixed-length byte strings, as many NeXus writers store them.
    data.attrs["axes"] = np.array([b"delay", b"energy"])
    data.attrs["delay_indices"] = np.int32(0)
    data.attrs["energy_indices"] = np.int32(1)
    delay = np.array([-1.0, 0.0, 0.5, 2.0], dtype=np.float64)
    energy = np.linspace(80.0, 90.0, 6, dtype=np.float32)
    counts = (np.arange(24, dtype=np.int32).reshape(4, 6) * 3 + 7)
    d = data.create_dataset("counts", data=counts, chunks=(2, 3), compression="gzip")
    d.attrs["units"] = "counts"
    data.create_dataset("delay", data=delay).attrs["units"] = "ps"
    data.create_dataset("energy", data=energy).attrs["units"] = "eV"
    # Something that is not an NXdata, searched past.
    other = f.create_group("aaa_calibration")
    other.attrs["NX_class"] = "NXcollection"
    other.create_dataset("gain", data=np.array([1.5, 2.5]))
    other.create_dataset("label", data="not numbers")
