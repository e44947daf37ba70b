#!/usr/bin/python3
# Generates tests/data/periodictable-xray.csv: X-ray SLD and refractive
# index of a few materials from python3-periodictable (Debian 12: 1.6.0),
# at energies that are nodes of every Henke table involved, so that its
# linear interpolation and xrlab's PCHIP see the same tabulated values.
# Run once from the top of the tree:
#   /usr/bin/python3 tests/data/make-periodictable-fixture.py > tests/data/periodictable-xray.csv
import numpy as np
import periodictable as pt
from periodictable import constants, formula, xsf

MATERIALS = [
    ("SiO2", 2.2), ("Au", 19.3), ("Fe2O3", 5.24), ("H2O", 1.0),
    ("C22H10N2O5", 1.42), ("GaAs", 5.3176), ("Si3N4", 3.44), ("CaCO3", 2.71),
    ("Pt", 21.45), ("Al2O3", 3.95), ("B4C", 2.52), ("NaCl", 2.165), ("CdTe", 5.85),
    ("PbWO4", 8.28), ("Si", 2.33), ("Mo", 10.28),
]

print("# python3-periodictable %s: xsf.xray_sld and xsf.index_of_refraction" % pt.__version__)
print("# at energies that are nodes of all Henke tables of the material; see tests/data/README.md")
print("# periodictable uses CODATA 2006 r_e = %r m, N_A = %r /mol, and its own atomic masses:"
      % (constants.electron_radius, constants.avogadro_number))
print("# mass_g_mol is its molar mass, re_na = r_e[m] * N_A")
print("formula,density_g_cm3,energy_keV,mass_g_mol,re_na,re_sld_1e6_per_A2,im_sld_1e6_per_A2,delta,beta")
for text, rho in MATERIALS:
    c = formula(text, density=rho)
    tables = [el.xray.sftable for el in c.atoms]
    common = set(np.round(tables[0][0], 12))
    for t in tables[1:]:
        common &= set(np.round(t[0], 12))
    nodes = []
    for e in sorted(common):
        ok = True
        for t in tables:
            i = int(np.argmin(abs(t[0] - e)))
            # f1 defined, and not next to an edge pair (0.2 eV apart).
            if np.isnan(t[1][i]) or i == 0 or i + 1 >= len(t[0]):
                ok = False
            elif min(t[0][i + 1] - t[0][i], t[0][i] - t[0][i - 1]) < 1e-3 * t[0][i]:
                ok = False
        if ok and e >= 0.03:
            nodes.append(e)
    picks = sorted(set(nodes[int(f * (len(nodes) - 1))] for f in (0.05, 0.25, 0.5, 0.75, 0.95)))
    mass = sum(el.mass * n for el, n in c.atoms.items())
    for e in picks:
        # The table's own node, as periodictable stores it (keV).
        e = float(e)
        sld, isld = xsf.xray_sld(c, density=rho, energy=e)
        n = xsf.index_of_refraction(c, density=rho, energy=e)
        print("%s,%r,%r,%r,%r,%r,%r,%r,%r" % (text, rho, e, mass,
              constants.electron_radius * constants.avogadro_number,
              float(sld), float(isld), float(1 - n.real), float(-n.imag)))
