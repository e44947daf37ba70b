# The interpolation of xrlab's scattering-factor tables, in Python, for the
# fixture scripts beside this file (make-pchip-fixture.py,
# make-chantler-fixture.py). The same rules as src/engine/xrlab-edges.c
# (rows out of order, steps, resolved rises, edge positions) and the same split PCHIP as
# xrlab_pchip_new_split(): SciPy's PchipInterpolator on each run of rows
# between two steps, the straight line across each step.
import math
import os

import numpy as np
from scipy.interpolate import PchipInterpolator

SYMBOLS = ("H He Li Be B C N O F Ne Na Mg Al Si P S Cl Ar K Ca Sc Ti V Cr Mn Fe Co Ni "
           "Cu Zn Ga Ge As Se Br Kr Rb Sr Y Zr Nb Mo Tc Ru Rh Pd Ag Cd In Sn Sb Te I Xe "
           "Cs Ba La Ce Pr Nd Pm Sm Eu Gd Tb Dy Ho Er Tm Yb Lu Hf Ta W Re Os Ir Pt Au Hg "
           "Tl Pb Bi Po At Rn Fr Ra Ac Th Pa U").split()

STEP_MAX_WIDTH_EV = 0.5
MIN_RISE = 1.05
RISE_MAX_WIDTH = 0.005
RISE_MIN_SLOPE = 100.0


def keep_in_order(e):
    """Indices of the rows that stay where E steps back (xrlab_edges_keep_in_order)."""
    kept = []
    for i, x in enumerate(e):
        while kept and e[kept[-1]] > x:
            kept.pop()
        kept.append(i)
    return kept


def log_slope(e, f2, a, b):
    if not e[b] > e[a]:
        return 0.0
    if not f2[a] > 0.0:
        return math.inf if f2[b] > 0.0 else 0.0
    if not f2[b] > 0.0:
        return -math.inf
    return math.log(f2[b] / f2[a]) / math.log(e[b] / e[a])


def rise_slope(e, f2, k):
    if k < 0 or k + 1 >= len(e):
        return 0.0
    s = log_slope(e, f2, k, k + 1)
    return s if s > 0.0 else 0.0


def is_step(e, f2, k):
    h = e[k + 1] - e[k]
    if h == 0.0:
        return True
    return 0.0 < h <= STEP_MAX_WIDTH_EV and f2[k + 1] > MIN_RISE * f2[k]


def steps(e, f2):
    return [k for k in range(len(e) - 1) if is_step(e, f2, k)]


def rises(e, f2):
    out = []
    for k in range(len(e) - 1):
        h = e[k + 1] - e[k]
        if not h > 0.0 or not f2[k + 1] > MIN_RISE * f2[k] or is_step(e, f2, k):
            continue
        if h > STEP_MAX_WIDTH_EV and h > RISE_MAX_WIDTH * e[k]:
            continue
        s = rise_slope(e, f2, k)
        if s < RISE_MIN_SLOPE or s < rise_slope(e, f2, k - 1) or not s > rise_slope(e, f2, k + 1):
            continue
        out.append(k)
    return out


def positions(e, f2, nearest):
    """Edge positions (xrlab_edges_find_positions): (row, "step" or "rise",
    shell, xraylib energy), one per shell, the steepest; nearest(energy)
    gives xraylib's nearest (shell, energy)."""
    cand = [(k, "step") for k in steps(e, f2) if e[k + 1] - e[k] <= RISE_MAX_WIDTH * e[k]]
    cand += [(k, "rise") for k in rises(e, f2)]
    cand.sort()
    cand = [(k, kind, log_slope(e, f2, k, k + 1)) + tuple(nearest(0.5 * (e[k] + e[k + 1])))
            for k, kind in cand]
    out = []
    for i, (k, kind, s, shell, xev) in enumerate(cand):
        if any(j != i and c[3] == shell and (c[2] > s or (c[2] == s and c[0] < k))
               for j, c in enumerate(cand)):
            continue
        out.append((k, kind, shell, xev))
    return out


class Split:
    """PCHIP on the runs of rows between the breaks, linear across each break."""

    def __init__(self, x, y, breaks):
        self.x = np.asarray(x, float)
        self.y = np.asarray(y, float)
        self.breaks = set(breaks)
        self.runs = []          # (first row, last row, interpolant or None)
        start = 0
        for b in sorted(breaks) + [len(x) - 1]:
            if b > start:
                self.runs.append((start, b, PchipInterpolator(self.x[start:b + 1], self.y[start:b + 1])))
            start = b + 1

    def __call__(self, p):
        x, y = self.x, self.y
        k = int(np.searchsorted(x, p, side="right")) - 1
        k = min(max(k, 0), len(x) - 2)
        if k in self.breaks:
            return float(y[k] + (y[k + 1] - y[k]) / (x[k + 1] - x[k]) * (p - x[k]))
        for a, b, f in self.runs:
            if a <= k < b:
                return float(f(p))
        raise ValueError(p)


def load_henke(sym):
    """Rows (E, f1 or NaN, f2) of data/henke/<sym>.nff, rows out of order dropped."""
    d = np.loadtxt(os.path.join("data", "henke", sym.lower() + ".nff"), skiprows=1)
    d = d[keep_in_order(list(d[:, 0]))]
    f1 = np.where(d[:, 1] == -9999.0, np.nan, d[:, 1])
    return d[:, 0], f1, d[:, 2]


def load_chantler(sym):
    """Rows (E, f1 + frel(3/5CL) + fNT, f2, mu_pe, sigma_coh_inc) and the header keys."""
    keys = {}
    rows = []
    with open(os.path.join("data", "chantler", sym.lower() + ".dat")) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if line[0].isalpha():
                w = line.split()
                if len(w) == 2:
                    try:
                        keys[w[0]] = float(w[1])
                    except ValueError:
                        pass
                continue
            rows.append([float(w) for w in line.split()])
    d = np.array(rows)
    d = d[keep_in_order(list(d[:, 0]))]
    f1 = np.array([(v + keys["frel_3/5CL"]) + keys["fNT"] for v in d[:, 1]])
    return d[:, 0], f1, d[:, 2], d[:, 3], d[:, 4], keys


def interpolants(e, columns, f2):
    """Split interpolants of each column (NaN rows first = f1's missing rows)."""
    st = steps(list(e), list(f2))
    out = []
    for y in columns:
        first = int(np.argmax(~np.isnan(y)))
        br = [k - first for k in st if k >= first]
        out.append((Split(e[first:], y[first:], br), e[first], first))
    return st, out
