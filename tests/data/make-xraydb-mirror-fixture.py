#!/usr/bin/python3
"""Thick-mirror reflectivities of python3-xraydb for tests/test-reflect.c.

Writes CSV rows
    material,density_g_cm3,energy_eV,theta_rad,roughness_A,delta,beta,R_s,R_p
(material: the index into MATERIALS below, which the test does not need:
it gives xrlab the same delta and beta).  R_s and R_p are
xraydb.mirror_reflectivity(..., polarization='s' / 'p') with the delta and
beta of xraydb.xray_delta_beta (Chantler tables), recorded beside them.

    /usr/bin/python3 tests/data/make-xraydb-mirror-fixture.py > tests/data/xraydb-mirror.csv
"""
import numpy as np
import xraydb

MATERIALS = [("Au", 19.3), ("Rh", 12.41), ("Pt", 21.45), ("Si", 2.33),
             ("SiO2", 2.2), ("Ni", 8.908), ("B4C", 2.52)]
ENERGIES_EV = [1000.0, 5000.0, 8048.0, 17480.0, 25000.0]
ROUGHNESS_A = [0.0, 5.0]


def main():
    print("# python3-xraydb %s mirror_reflectivity: thick mirrors" % xraydb.__version__)
    print("# materials: " + ", ".join("%d %s %g g/cm3" % (i, f, d)
                                      for i, (f, d) in enumerate(MATERIALS)))
    print("# material,density_g_cm3,energy_eV,theta_rad,roughness_A,delta,beta,R_s,R_p")
    for i, (formula, density) in enumerate(MATERIALS):
        for energy in ENERGIES_EV:
            delta, beta, _ = xraydb.xray_delta_beta(formula, density, energy)
            theta_c = np.sqrt(2 * delta)
            # 0.1 to 4 critical angles, log-spaced, and a few steep angles
            thetas = list(np.geomspace(0.1 * theta_c, 4 * theta_c, 28)) + [0.05, 0.2]
            for rough in ROUGHNESS_A:
                for theta in thetas:
                    rs = xraydb.mirror_reflectivity(formula, theta, energy, density,
                                                    rough, 's')
                    rp = xraydb.mirror_reflectivity(formula, theta, energy, density,
                                                    rough, 'p')
                    print("%d,%r,%r,%r,%r,%r,%r,%r,%r" % (
                        i, density, energy, float(theta), rough, delta, beta,
                        float(rs), float(rp)))


if __name__ == "__main__":
    main()
