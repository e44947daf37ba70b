#!/usr/bin/python3
"""Reference numbers for tests/test-fit.c, made once with lmfit.

Run from this folder with Debian 12's /usr/bin/python3 (lmfit 1.1.0,
scipy 1.10.1, numpy 1.24.2):  /usr/bin/python3 make-fixture.py
It writes the data sets and lmfit's results as CSV files without headers
(the C test reads them with xrlab_read_csv_matrix); the column meanings are
in the '#' comment lines at the top of each file and in README.md.
"""
import numpy as np
import lmfit
import lmfit.confidence
import scipy.optimize

TIGHT = dict(xtol=1e-13, ftol=1e-13)


def tight_root_scalar(f, *args, **kws):
    """conf_interval's TOMS 748 root search with rtol 1e-12 instead of 0.5e-4."""
    kws['rtol'] = 1e-12
    kws['xtol'] = 1e-14
    return scipy.optimize.root_scalar(f, *args, **kws)


def write(name, header, rows):
    with open(name, 'w') as out:
        for h in header:
            out.write('# ' + h + '\n')
        for r in rows:
            out.write(','.join(repr(float(v)) for v in r) + '\n')


def ci_rows(result, names, sigmas):
    ci_default = lmfit.conf_interval(result, result, p_names=names, sigmas=sigmas)
    saved = lmfit.confidence.root_scalar
    lmfit.confidence.root_scalar = tight_root_scalar
    try:
        ci_tight = lmfit.conf_interval(result, result, p_names=names, sigmas=sigmas)
    finally:
        lmfit.confidence.root_scalar = saved
    rows = []
    k = len(sigmas)
    for j, name in enumerate(names):
        for s in range(k):
            lo_t = ci_tight[name][k - 1 - s][1]
            hi_t = ci_tight[name][k + 1 + s][1]
            lo_d = ci_default[name][k - 1 - s][1]
            hi_d = ci_default[name][k + 1 + s][1]
            rows.append((j, sigmas[s], lo_t, hi_t, lo_d, hi_d))
    return rows


def params_rows(result, names):
    return [(result.params[n].value, result.params[n].stderr) for n in names]


def stats_row(result):
    return [(result.chisqr, result.redchi, result.aic, result.bic,
             getattr(result, 'rsquared', float('nan')), result.ndata, result.nvarys)]


# --- 1. a Gaussian peak on a constant, unweighted, two bounded parameters ---
rng = np.random.default_rng(7)
x = np.linspace(0.0, 10.0, 41)
y = 12.0 * np.exp(-(x - 4.3) ** 2 / (2 * 1.1 ** 2)) + 2.5 + rng.normal(0.0, 0.4, x.size)
write('gauss-data.csv', ['x,y'], zip(x, y))


def gauss(x, A, x0, s, c):
    return A * np.exp(-(x - x0) ** 2 / (2 * s * s)) + c


model = lmfit.Model(gauss)
params = model.make_params(A=10.0, x0=4.0, s=1.0, c=2.0)
params['A'].min = 0.0
params['s'].min = 0.2
params['s'].max = 5.0
res = model.fit(y, params, x=x, method='leastsq', fit_kws=TIGHT)
names = ['A', 'x0', 's', 'c']
write('gauss-params.csv', ['value,stderr for A, x0, s, c (lmfit leastsq, scale_covar)'],
      params_rows(res, names))
write('gauss-stats.csv', ['chisqr,redchi,aic,bic,rsquared,ndata,nvarys'], stats_row(res))
write('gauss-correl.csv', ['correlation matrix, rows and columns A, x0, s, c'],
      [[1.0 if a == b else res.params[a].correl[b] for b in names] for a in names])
write('gauss-ci.csv',
      ['param index,sigma,lower (tight roots),upper (tight roots),'
       'lower (conf_interval defaults),upper (conf_interval defaults)'],
      ci_rows(res, names, [1, 2, 3]))

# --- 2. an exponential decay with per-point sigma, errors not rescaled -------
rng = np.random.default_rng(11)
t = np.linspace(0.0, 5.0, 30)
ytrue = 8.0 * np.exp(-t / 1.3) + 1.0
sig = 0.05 + 0.03 * ytrue
y2 = ytrue + rng.normal(0.0, 1.0, t.size) * sig
write('decay-data.csv', ['t,y,sigma'], zip(t, y2, sig))


def decay(t, a, tau, b):
    return a * np.exp(-t / tau) + b


model2 = lmfit.Model(decay)
p2 = model2.make_params(a=5.0, tau=1.0, b=0.5)
p2['tau'].min = 0.01
res2 = model2.fit(y2, p2, t=t, weights=1.0 / sig, method='leastsq', scale_covar=False,
                  fit_kws=TIGHT)
names2 = ['a', 'tau', 'b']
write('decay-params.csv', ['value,stderr for a, tau, b (weights 1/sigma, scale_covar=False)'],
      params_rows(res2, names2))
write('decay-stats.csv', ['chisqr,redchi,aic,bic,rsquared,ndata,nvarys'], stats_row(res2))
write('decay-ci.csv',
      ['param index,sigma,lower (tight roots),upper (tight roots),'
       'lower (conf_interval defaults),upper (conf_interval defaults)'],
      ci_rows(res2, names2, [1, 2, 3]))
print(res.fit_report())
print(res2.fit_report())
