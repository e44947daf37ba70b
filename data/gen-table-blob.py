#!/usr/bin/env python3
# gen-table-blob.py -- the Henke or Chantler text tables as one binary file,
# compiled into the engine's GResource (src/engine/xrlab-elements.c reads it)
#
#   gen-table-blob.py --list DIR EXT          the table files (for Meson)
#   gen-table-blob.py OUT N_COLS DIR EXT      writes OUT
#
# The text rules are those the engine used to parse at run time: blank lines
# and lines starting with '#' are skipped; a line starting with a letter is
# a header, "key value" when it has exactly two fields and the second is a
# number; every other line has exactly N_COLS numbers. Python's float() is
# correctly rounded, as xrlab_parse_double() is: the doubles are the same
# bit for bit (tests/test-tables.c checks it).
#
# Layout, little-endian:
#   "XRLTBL1\n", u32 n_entries, u32 n_cols
#   n_entries × { char name[8] (the file's name without EXT, lower case),
#                 u64 offset (bytes from the start), u64 n_rows,
#                 f64 Z, f64 frel_3/5CL, f64 fNT (NaN when absent) }
#   per entry: n_cols columns of n_rows f64, column after column
#
# SPDX-License-Identifier: GPL-3.0-or-later
import math
import os
import struct
import sys

KEYS = ('Z', 'frel_3/5CL', 'fNT')
ENTRY = struct.Struct('<8sQQddd')
HEADER = struct.Struct('<8sII')


def table_files(folder, ext):
    return sorted(f for f in os.listdir(folder) if f.endswith(ext))


def number(text):
    try:
        v = float(text)
    except ValueError:
        return None
    # xrlab_parse_double (allow_nonfinite FALSE) takes finite numbers only
    return v if math.isfinite(v) and text.lower() not in ('inf', 'nan') else None


def read_table(path, name, n_cols):
    cols = [[] for _ in range(n_cols)]
    keys = {}
    with open(path, encoding='utf-8') as f:
        for line_no, raw in enumerate(f, 1):
            row = raw.strip()
            if not row or row.startswith('#'):
                continue
            fields = row.split()
            if row[0].isascii() and row[0].isalpha():
                if len(fields) == 2 and number(fields[1]) is not None:
                    keys[fields[0]] = number(fields[1])
                continue
            values = [number(x) for x in fields]
            if len(values) != n_cols or any(v is None for v in values):
                sys.exit(f'{name}, line {line_no}: expected {n_cols} numbers')
            for c in range(n_cols):
                cols[c].append(values[c])
    if len(cols[0]) < 2:
        sys.exit(f'{name} has fewer than 2 rows')
    return cols, keys


def main(argv):
    if len(argv) == 4 and argv[1] == '--list':
        for f in table_files(argv[2], argv[3]):
            print(os.path.join(argv[2], f))
        return
    if len(argv) != 5:
        sys.exit('usage: gen-table-blob.py OUT N_COLS DIR EXT | --list DIR EXT')
    out, n_cols, folder, ext = argv[1], int(argv[2]), argv[3], argv[4]
    files = table_files(folder, ext)
    tables = []
    for f in files:
        name = f[:-len(ext)]
        if len(name.encode()) > 7:
            sys.exit(f'{f}: a name of at most 7 bytes')
        tables.append((name,) + read_table(os.path.join(folder, f), f, n_cols))
    offset = HEADER.size + ENTRY.size * len(tables)
    index, blobs = [], []
    for name, cols, keys in tables:
        n = len(cols[0])
        index.append(ENTRY.pack(name.encode(), offset, n,
                                *(keys.get(k, math.nan) for k in KEYS)))
        blobs.append(b''.join(struct.pack(f'<{n}d', *c) for c in cols))
        offset += n * n_cols * 8
    with open(out + '.tmp', 'wb') as f:
        f.write(HEADER.pack(b'XRLTBL1\n', len(tables), n_cols))
        f.write(b''.join(index))
        f.write(b''.join(blobs))
    os.replace(out + '.tmp', out)


if __name__ == '__main__':
    main(sys.argv)
