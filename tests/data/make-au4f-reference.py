#!/usr/bin/python3
"""The minima trspecfit reaches on the Au 4f measurement, for
tests/test-fitflow.c (/fitflow/au4f-protocol) and xrlab-bench fit.

trspecfit's example for this data set (examples/fitting_workflows/
02_dependent_parameters) fits with lmfit's leastsq on the residual
data - model, the model evaluated on the whole energy axis and the residual
cut to the fit window (fitlib.residual_fun), unweighted:
  - window 81-91 eV (set_fit_limits: energies >= 81 and < 91 by
    searchsorted on the ascending axis) and -0.3-16.5 s;
  - baseline: the mean of delay indices 0-3 of the whole data (the four
    delays before 0 s), Offset + Shirley + a GLP doublet (ratio 3/4,
    splitting 3.67 eV), six parameters free with trspecfit's starting values
    and bounds;
  - 2D: GLP_01_x0 + sinFun (A=-1 [-5, 5], f=0.25 [1e-3, 10], phi=0
    [-0.75, 0.75], t0=0 fixed), every other parameter at its baseline value.

    XRLAB_SHARED_DATA=../shared/data /usr/bin/python3 tests/data/make-au4f-reference.py
"""
import os

import lmfit
import numpy as np

d = os.path.join(os.environ.get("XRLAB_SHARED_DATA", "../shared/data"), "trspecfit-au4f")
data = np.loadtxt(os.path.join(d, "data.csv"), delimiter=",")
E = np.loadtxt(os.path.join(d, "energy.csv"))
T = np.loadtxt(os.path.join(d, "time.csv"))
n_e = len(E)
asc = E[::-1]
e0, e1 = n_e - np.searchsorted(asc, 91), n_e - np.searchsorted(asc, 81)
t0, t1 = np.searchsorted(T, -0.3), np.searchsorted(T, 16.5)


def glp(x, A, x0, F, m):
    u2 = ((x - x0) / F) ** 2
    return A * np.exp(-u2 * 4 * np.log(2) * (1 - m)) / (1 + 4 * m * u2)


def doublet(p, x, x0):
    S = glp(x, p["A"], x0, p["F"], p["m"]) + glp(x, 0.75 * p["A"], x0 + 3.67, p["F"], p["m"])
    shirley = p["pS"] * np.flip(np.cumsum(np.flip(S, -1), -1), -1)
    return p["y0"] + shirley + S


base = data[0:4].mean(0)
P = lmfit.Parameters()
P.add("y0", 200, min=0, max=500)
P.add("pS", 4e-4, min=1e-9, max=1)
P.add("A", 200, min=0, max=1000)
P.add("x0", 84.5, min=82, max=88)
P.add("F", 1.0, min=0.75, max=2.5)
P.add("m", 0.3, min=0, max=1)
rb = lmfit.minimize(lambda p: (base - doublet(p, E, p["x0"]))[e0:e1], P, method="leastsq")
b = rb.params.valuesdict()


def model2(p):
    x0 = p["x0"] + np.where(T < 0, 0, p["A"] * np.sin(2 * np.pi * p["f"] * T + p["phi"]))
    return doublet(b, E[None, :], x0[:, None])


Q = lmfit.Parameters()
Q.add("x0", b["x0"], min=82, max=88)
Q.add("A", -1, min=-5, max=5)
Q.add("f", 0.25, min=1e-3, max=10)
Q.add("phi", 0, min=-0.75, max=0.75)
r2 = lmfit.minimize(lambda p: (data - model2(p))[t0:t1, e0:e1].ravel(), Q, method="leastsq")
print("window: energies %d-%d (%d), delays %d-%d (%d)" % (e0, e1 - 1, e1 - e0, t0, t1 - 1, t1 - t0))
print("baseline redchi", repr(rb.redchi), b)
print("2D redchi", repr(r2.redchi), r2.params.valuesdict())
