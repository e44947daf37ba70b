#!/usr/bin/python3
# Writes data/chantler/<symbol>.dat from the
# Chantler table of Debian 12's python3-xraydb (xraydb.sqlite). Run once
# from the top of the tree:
#   /usr/bin/python3 data/chantler/make-chantler-tables.py
# See data/chantler/README.md for what the columns are.
import json, os, sqlite3, sys
import xraydb

SYMBOLS = ("H He Li Be B C N O F Ne Na Mg Al Si P S Cl Ar K Ca Sc Ti V Cr Mn Fe Co Ni "
           "Cu Zn Ga Ge As Se Br Kr Rb Sr Y Zr Nb Mo Tc Ru Rh Pd Ag Cd In Sn Sb Te I Xe "
           "Cs Ba La Ce Pr Nd Pm Sm Eu Gd Tb Dy Ho Er Tm Yb Lu Hf Ta W Re Os Ir Pt Au Hg "
           "Tl Pb Bi Po At Rn Fr Ra Ac Th Pa U").split()

DB = os.path.join(os.path.dirname(xraydb.__file__), "xraydb.sqlite")
OUT = os.path.join("data", "chantler")


def ffast_digits(x, digits=9):
    """The decimal that FFAST printed (%.8e: 9 significant digits)."""
    return "%.*g" % (digits, x)


def main():
    con = sqlite3.connect(DB)
    tag, date = con.execute("select tag, date from Version order by id desc limit 1").fetchone()
    for z, sym in enumerate(SYMBOLS, start=1):
        row = con.execute(
            "select element, corr_henke, corr_cl35, corr_nucl, energy, f1, f2, "
            "mu_photo, mu_incoh, mu_total from Chantler where id = ?", (z,)).fetchone()
        elem, frel_h82, frel_cl35, f_nt = row[:4]
        assert elem == sym, (elem, sym)
        e, f1, f2, mu_pe, sig_sc, mu_tot = (json.loads(c) for c in row[4:])
        n = len(e)
        assert all(len(c) == n for c in (f1, f2, mu_pe, sig_sc, mu_tot))
        lines = []
        for i in range(n):
            # xraydb stores f1 - Z + frel(3/5CL) + fNT (data_sources/create_db.py);
            # undo it to FFAST's own f1 and check that this is lossless.
            raw = ffast_digits(f1[i] + z - frel_cl35 - f_nt)
            if ((float(raw) - z) + frel_cl35) + f_nt != f1[i]:
                sys.exit("%s row %d: f1 %r does not come back from %s" % (sym, i, f1[i], raw))
            ev = ffast_digits(e[i])
            if abs(float(ev) - e[i]) > 4e-16 * e[i]:
                sys.exit("%s row %d: energy %r is not 9 digits" % (sym, i, e[i]))
            if mu_tot[i] != mu_pe[i] + sig_sc[i]:
                sys.exit("%s row %d: mu_total is not mu_photo + the scattering sum" % (sym, i))
            lines.append("%s %s %r %r %r" % (ev, raw, f2[i], mu_pe[i], sig_sc[i]))
        with open(os.path.join(OUT, sym.lower() + ".dat"), "w") as f:
            f.write("# Chantler (NIST FFAST, SRD 66) form factors and cross sections of %s, Z = %d\n"
                    % (sym, z))
            f.write("# from xraydb %s (xraydb.sqlite version %s, %s), table Chantler; "
                    "see data/chantler/README.md\n" % (xraydb.__version__, tag, date))
            f.write("# E: eV; f1: FFAST's f1 without frel and fNT (e/atom); f2 (e/atom);\n")
            f.write("# mu_pe: photoelectric mu/rho (cm2/g); sigma_coh_inc: coherent + incoherent (cm2/g)\n")
            f.write("Z %d\n" % z)
            f.write("frel_H82 %r\n" % frel_h82)
            f.write("frel_3/5CL %r\n" % frel_cl35)
            f.write("fNT %r\n" % f_nt)
            f.write("E f1 f2 mu_pe sigma_coh_inc\n")
            f.write("\n".join(lines) + "\n")


main()
