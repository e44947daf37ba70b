#!/usr/bin/python3
# Reference configurations of trspecfit's ParameterSweep (utils/sweep.py),
# written out with numpy's legacy generator exactly as that class draws
# them: np.random.seed(seed) at the start of the iteration, then per
# parameter in the order added (grid: each distribution's n_samples draws,
# then itertools.product) or per configuration (random: one draw of each).
# Run with the system Python (numpy): /usr/bin/python3 make-sweeps.py
import itertools
import numpy as np

def sweep(strategy, seed, specs):
    np.random.seed(seed)
    if strategy == "auto":
        strategy = "grid" if all(s[1] == "range" for s in specs) else "random"
    rows = []
    if strategy == "grid":
        lists = []
        for name, kind, *a in specs:
            if kind == "range":
                lists.append(np.array(a[0]))
            elif kind == "uniform":
                lists.append(np.random.uniform(a[0], a[1], a[2]))
            elif kind == "normal":
                lists.append(np.random.normal(a[0], a[1], a[2]))
            else:
                lists.append(np.random.lognormal(a[0], a[1], a[2]))
        rows = [list(v) for v in itertools.product(*lists)]
    else:
        n = max(len(a[0]) if kind == "range" else a[2] for name, kind, *a in specs)
        for _ in range(n):
            row = []
            for name, kind, *a in specs:
                if kind == "range":
                    row.append(np.random.choice(np.array(a[0])))
                elif kind == "uniform":
                    row.append(np.random.uniform(a[0], a[1]))
                elif kind == "normal":
                    row.append(np.random.normal(a[0], a[1]))
                else:
                    row.append(np.random.lognormal(a[0], a[1]))
            rows.append(row)
    return [s[0] for s in specs], rows

def write(path, names, rows):
    with open(path, "w") as f:
        f.write(",".join(names) + "\n")
        for r in rows:
            f.write(",".join(repr(float(v)) for v in r) + "\n")

# trspecfit's synthetic_data/02_ml_training_data notebook: the grid sweep ...
write("grid-42.csv", *sweep("grid", 42, [
    ("GLP_01_x0_expFun_01_A", "range", [0.25, 1, 4]),
    ("GLP_01_x0_expFun_01_tau", "uniform", 5, 25, 3)]))
# ... and the random sweep
write("random-42.csv", *sweep("random", 42, [
    ("GLP_01_A", "uniform", 8, 12, 100),
    ("GLP_01_x0", "uniform", 8, 12, 100),
    ("GLP_01_x0_expFun_01_A", "uniform", 0.5, 5, 100),
    ("GLP_01_x0_expFun_01_tau", "uniform", 10, 80, 100)]))
# every kind of draw, including choices from lists and seed 0
write("mixed-7.csv", *sweep("random", 7, [
    ("a", "range", [1.0, 2.0, 3.0, 4.0, 5.0]),
    ("b", "normal", 1.5, 0.3, 25),
    ("c", "lognormal", 0.0, 0.5, 25),
    ("d", "range", [10.0, 20.0])]))
write("grid-0.csv", *sweep("grid", 0, [
    ("x", "normal", 0.0, 1.0, 3),
    ("y", "range", [1.0, 2.0]),
    ("z", "lognormal", 1.0, 0.25, 2)]))
